//! Segments, polylines (roads, rivers, a wall of fire) and polygons
//! (terrain areas) on the table.

use super::{Footprint, TOUCH};
use glam::DVec2;

/// Distance from `p` to the segment `a`–`b`.
pub fn point_segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    p.distance(closest_on_segment(p, a, b))
}

/// The point of segment `a`–`b` nearest to `p`.
pub fn closest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// Even-odd test: is `p` inside the polygon?
pub fn point_in_polygon(p: DVec2, poly: &[DVec2]) -> bool {
    let mut inside = false;
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// Do the open segments `a`–`b` and `c`–`d` cross (touching, or lying
/// along each other, does not count)?
pub fn segments_cross(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let (d1, d2) = (cross(b - a, c - a), cross(b - a, d - a));
    let (d3, d4) = (cross(d - c, a - c), cross(d - c, b - c));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Does the rectangle share any area with the polygon? (Touching the
/// boundary is not being in the area.)
pub fn footprint_meets_polygon(f: &Footprint, poly: &[DVec2]) -> bool {
    let f = Footprint {
        half_width: (f.half_width - TOUCH).max(0.0),
        half_depth: (f.half_depth - TOUCH).max(0.0),
        ..*f
    };
    let corners = f.corners();
    if corners.iter().any(|c| point_in_polygon(*c, poly)) || poly.iter().any(|p| f.contains(*p)) {
        return true;
    }
    let n = poly.len();
    (0..4).any(|i| {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        (0..n).any(|j| segments_cross(a, b, poly[j], poly[(j + 1) % n]))
    })
}

/// Distance from `p` to a polyline.
pub fn distance_to_polyline(p: DVec2, line: &[DVec2]) -> f64 {
    match line {
        [] => f64::INFINITY,
        [only] => p.distance(*only),
        _ => line
            .windows(2)
            .map(|w| p.distance(closest_on_segment(p, w[0], w[1])))
            .fold(f64::INFINITY, f64::min),
    }
}

/// Arc length along `line` of the point nearest to `p`.
pub fn station_on_polyline(p: DVec2, line: &[DVec2]) -> f64 {
    let mut best = (f64::INFINITY, 0.0);
    let mut run = 0.0;
    for w in line.windows(2) {
        let q = closest_on_segment(p, w[0], w[1]);
        let d = p.distance(q);
        if d < best.0 {
            best = (d, run + w[0].distance(q));
        }
        run += w[0].distance(w[1]);
    }
    best.1
}

/// Total length of a polyline.
pub fn polyline_length(line: &[DVec2]) -> f64 {
    line.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The point at arc length `s` along `line` and the direction of the line there.
pub fn point_at_station(line: &[DVec2], s: f64) -> (DVec2, DVec2) {
    let mut left = s.max(0.0);
    for w in line.windows(2) {
        let len = w[0].distance(w[1]);
        let dir = if len > 0.0 {
            (w[1] - w[0]) / len
        } else {
            DVec2::Y
        };
        if left <= len {
            return (w[0] + dir * left, dir);
        }
        left -= len;
    }
    match line {
        [.., a, b] => (*b, (*b - *a).normalize_or(DVec2::Y)),
        [only] => (*only, DVec2::Y),
        [] => (DVec2::ZERO, DVec2::Y),
    }
}

/// The polygon of a band `width` inches wide about a polyline (a river,
/// a ford or a bridge written as a line with a width): each side offset by
/// half the width, the corners mitred (at most twice the half width out).
pub fn band_polygon(line: &[DVec2], width: f64) -> Vec<DVec2> {
    let h = width / 2.0;
    let normal = |a: DVec2, b: DVec2| {
        let d = (b - a).normalize_or_zero();
        DVec2::new(-d.y, d.x)
    };
    let n = line.len();
    let offsets: Vec<DVec2> = (0..n)
        .map(|i| {
            let before = (i > 0).then(|| normal(line[i - 1], line[i]));
            let after = (i + 1 < n).then(|| normal(line[i], line[i + 1]));
            match (before, after) {
                (Some(a), Some(b)) => {
                    let m = (a + b).normalize_or(a);
                    let cos = m.dot(a).max(0.5);
                    m * (h / cos)
                }
                (Some(a), None) | (None, Some(a)) => a * h,
                (None, None) => DVec2::ZERO,
            }
        })
        .collect();
    let left = (0..n).map(|i| line[i] + offsets[i]);
    let right = (0..n).rev().map(|i| line[i] - offsets[i]);
    left.chain(right).collect()
}

/// Whether the segment `a`–`b` touches the polygon's area (an end inside,
/// or the segment crossing into it), as a wall of fire meets woods.
pub fn segment_meets_polygon(a: DVec2, b: DVec2, poly: &[DVec2]) -> bool {
    let len = a.distance(b);
    let seg = Footprint::behind(b, super::bearing_of(b - a), 0.0, len.max(TOUCH));
    point_in_polygon(a, poly) || point_in_polygon(b, poly) || footprint_meets_polygon(&seg, poly)
}

/// Do the closed segments `p`–`q` and `a`–`b` meet (touching counts), as
/// a line of sight meets a wall? Collinear segments that overlap meet only
/// when `a`–`b` is not a single point on the line.
pub fn segments_meet(p: DVec2, q: DVec2, a: DVec2, b: DVec2) -> bool {
    let side = |x: DVec2, y: DVec2, z: DVec2| (y - x).perp_dot(z - x);
    let (d1, d2) = (side(a, b, p), side(a, b, q));
    let (d3, d4) = (side(p, q, a), side(p, q, b));
    d1 * d2 <= 0.0 && d3 * d4 <= 0.0 && (d1 != 0.0 || d2 != 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
        vec![
            DVec2::new(x0, y0),
            DVec2::new(x1, y0),
            DVec2::new(x1, y1),
            DVec2::new(x0, y1),
        ]
    }

    #[test]
    fn rectangles_against_polygons() {
        let woods = sq(10.0, 10.0, 20.0, 20.0);
        let inside = Footprint::behind(DVec2::new(15.0, 15.0), 0.0, 2.0, 2.0);
        let outside = Footprint::behind(DVec2::new(15.0, 9.0), 0.0, 2.0, 2.0);
        let touching = Footprint::behind(DVec2::new(15.0, 10.0), 0.0, 2.0, 2.0);
        let straddle = Footprint::behind(DVec2::new(15.0, 10.5), 0.0, 30.0, 2.0); // wider than the woods
        assert!(footprint_meets_polygon(&inside, &woods));
        assert!(!footprint_meets_polygon(&outside, &woods));
        assert!(
            !footprint_meets_polygon(&touching, &woods),
            "an edge on the boundary is outside"
        );
        assert!(footprint_meets_polygon(&straddle, &woods));
        let big = Footprint::behind(DVec2::new(15.0, 30.0), 0.0, 40.0, 40.0);
        assert!(
            footprint_meets_polygon(&big, &woods),
            "the woods inside the unit"
        );
    }

    #[test]
    fn a_band_is_a_polygon_about_its_line() {
        let band = band_polygon(&[DVec2::new(0.0, 24.0), DVec2::new(72.0, 24.0)], 4.0);
        assert_eq!(band.len(), 4);
        assert!(point_in_polygon(DVec2::new(36.0, 25.9), &band));
        assert!(!point_in_polygon(DVec2::new(36.0, 26.1), &band));
        // A bend keeps the width (mitred corner).
        let bent = band_polygon(
            &[
                DVec2::new(0.0, 0.0),
                DVec2::new(10.0, 0.0),
                DVec2::new(10.0, 10.0),
            ],
            2.0,
        );
        assert_eq!(bent.len(), 6);
        assert!(
            (bent[1] - DVec2::new(9.0, 1.0)).length() < 1e-9,
            "{:?}",
            bent[1]
        );
    }

    #[test]
    fn polylines() {
        let road = [
            DVec2::new(0.0, 0.0),
            DVec2::new(10.0, 0.0),
            DVec2::new(10.0, 10.0),
        ];
        assert_eq!(polyline_length(&road), 20.0);
        assert!((distance_to_polyline(DVec2::new(5.0, 1.0), &road) - 1.0).abs() < 1e-12);
        assert!((station_on_polyline(DVec2::new(11.0, 4.0), &road) - 14.0).abs() < 1e-12);
        let (p, dir) = point_at_station(&road, 12.0);
        assert!((p - DVec2::new(10.0, 2.0)).length() < 1e-12);
        assert!((dir - DVec2::Y).length() < 1e-12);
        assert_eq!(point_at_station(&road, 99.0).0, DVec2::new(10.0, 10.0));
    }

    #[test]
    fn crossing_is_open_and_meeting_is_closed() {
        let (a, b) = (DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0));
        let (c, d) = (DVec2::new(2.0, -1.0), DVec2::new(2.0, 1.0));
        assert!(segments_cross(a, b, c, d) && segments_meet(a, b, c, d));
        let touching = DVec2::new(2.0, 0.0);
        assert!(
            !segments_cross(a, b, touching, d),
            "touching is not crossing"
        );
        assert!(segments_meet(a, b, touching, d), "but it meets");
        assert!(!segments_meet(
            a,
            b,
            DVec2::new(5.0, 1.0),
            DVec2::new(6.0, 2.0)
        ));
    }
}
