//! Geometry of the continuous table, shared by every rule set played on
//! one (the Hyborean Age, FR! Ancients): compass bearings, rectangles
//! ([`Footprint`]) with their edges, arcs and faces, segments, polylines
//! and polygons, and the one tolerance every comparison of lengths uses.
//!
//! Bearings are compass degrees (0 = north = +y, 90 = east = +x); lengths
//! are inches.
//!
//! Architecture invariant: every transcendental function here comes from
//! `libm` (pure Rust), never from the platform's maths library, so the same
//! table and orders give the same bits on every machine and a stored turn
//! replays byte for byte. Square roots are exact IEEE operations already.
//!
//! ```
//! use umpire::geometry::{heading, within, Footprint};
//! use glam::DVec2;
//! let a = Footprint::behind(DVec2::new(0.0, 0.0), 0.0, 6.0, 2.0);
//! let b = Footprint::behind(DVec2::new(0.0, 3.0), 0.0, 6.0, 2.0);
//! assert!(!a.overlaps(&b));
//! assert!(within(a.distance(&b), 1.0) && within(1.0, a.distance(&b)));
//! assert!((heading(90.0) - DVec2::X).length() < 1e-12);
//! ```

mod footprint;
mod lines;
pub mod voronoi;

pub use footprint::{Edge, Face, Footprint};
pub use lines::{
    band_polygon, closest_on_segment, distance_to_polyline, footprint_meets_polygon,
    point_at_station, point_in_polygon, point_segment_distance, polyline_length,
    segment_meets_polygon, segments_cross, segments_meet, station_on_polyline,
};

use glam::DVec2;

/// Lengths (and angles) closer than this are equal: what is left of
/// floating-point rounding, never a distance on the table.
pub const EPSILON: f64 = 1e-9;

/// Whether `length` is at most `limit`, rounding forgiven: a move of
/// exactly its allowance, a target at exactly long range.
pub fn within(length: f64, limit: f64) -> bool {
    length <= limit + EPSILON
}

/// Overlaps shallower than this are touching, not overlapping (inches).
pub const TOUCH: f64 = 1e-6;

/// Unit vector of a compass bearing.
pub fn heading(bearing: f64) -> DVec2 {
    let (s, c) = libm::sincos(bearing.to_radians());
    DVec2::new(s, c)
}

/// Compass bearing of a vector, in [0, 360).
pub fn bearing_of(v: DVec2) -> f64 {
    normalize_bearing(libm::atan2(v.x, v.y).to_degrees())
}

/// A bearing brought into [0, 360).
pub fn normalize_bearing(b: f64) -> f64 {
    let r = b.rem_euclid(360.0);
    if r >= 360.0 - 1e-12 {
        0.0
    } else {
        r
    }
}

/// Signed turn from bearing `from` to bearing `to`, in (-180, 180]
/// (positive = clockwise = to the right).
pub fn turn_between(from: f64, to: f64) -> f64 {
    let d = (to - from).rem_euclid(360.0);
    if d > 180.0 {
        d - 360.0
    } else {
        d
    }
}

/// `v` turned clockwise (to the right) by `degrees`.
pub fn rotate_cw(v: DVec2, degrees: f64) -> DVec2 {
    let (s, c) = libm::sincos(degrees.to_radians());
    DVec2::new(v.x * c + v.y * s, -v.x * s + v.y * c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearings() {
        assert!((bearing_of(DVec2::new(1.0, 0.0)) - 90.0).abs() < 1e-9);
        assert!((bearing_of(DVec2::new(0.0, -1.0)) - 180.0).abs() < 1e-9);
        assert!((bearing_of(DVec2::new(-1.0, 0.0)) - 270.0).abs() < 1e-9);
        assert_eq!(turn_between(350.0, 10.0), 20.0);
        assert_eq!(turn_between(10.0, 350.0), -20.0);
        assert!((rotate_cw(DVec2::Y, 90.0) - DVec2::X).length() < 1e-12);
        assert_eq!(normalize_bearing(-90.0), 270.0);
    }

    #[test]
    fn within_forgives_rounding_only() {
        assert!(within(3.0 + 1e-12, 3.0));
        assert!(!within(3.0001, 3.0));
    }
}
