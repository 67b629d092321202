//! Terrain queries: is a unit in a terrain area, is it on a road, where
//! does a road lead. Areas are polygons (hills, woods, swamps); roads are
//! polylines with a width.
//!
//! ```
//! use umpire::games::hyborian::table::terrain::point_in_polygon;
//! use glam::DVec2;
//! let square = [DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0), DVec2::new(0.0, 4.0)];
//! assert!(point_in_polygon(DVec2::new(1.0, 1.0), &square));
//! assert!(!point_in_polygon(DVec2::new(5.0, 1.0), &square));
//! ```

use super::geometry::{closest_on_segment, Footprint, TOUCH};
use super::{Terrain, TerrainKind};
use glam::DVec2;

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

/// Do the open segments `a`–`b` and `c`–`d` cross?
fn segments_cross(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
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

impl Terrain {
    /// Is a point on this road (within half its width of the centre line)?
    pub fn road_holds(&self, p: DVec2) -> bool {
        match self.kind {
            TerrainKind::Road { width } => {
                distance_to_polyline(p, &self.points) <= width / 2.0 + 1e-9
            }
            _ => false,
        }
    }

    /// Whether `p` lies outside this area or within `band` inches of its
    /// boundary: "on the edge" of woods or of a second contour (§7).
    pub fn edge_holds(&self, p: DVec2, band: f64) -> bool {
        if !point_in_polygon(p, &self.points) {
            return true;
        }
        let mut ring = self.points.clone();
        if let Some(first) = self.points.first() {
            ring.push(*first);
        }
        distance_to_polyline(p, &ring) <= band + 1e-9
    }

    /// Does a footprint stand (partly) in this area? Roads are not areas.
    pub fn area_meets(&self, f: &Footprint) -> bool {
        !matches!(self.kind, TerrainKind::Road { .. }) && footprint_meets_polygon(f, &self.points)
    }

    /// The book's name for the terrain, for reports.
    pub fn name(&self) -> &'static str {
        match self.kind {
            TerrainKind::Hill { contours: 1 } => "hill",
            TerrainKind::Hill { .. } => "steep hill",
            TerrainKind::Woods => "woods",
            TerrainKind::Swamp => "swamp",
            TerrainKind::Road { .. } => "road",
        }
    }
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
}
