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

/// What the water under a unit does to it (§12 OPEN; rulings T-1, T-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Water {
    /// No water, or water crossed as dry ground (a bridge, an open river).
    Dry,
    /// In a ford or fordable water: half speed.
    Slowed,
    /// It would stand in water it may not enter ("river", "stream").
    Barred(&'static str),
}

/// Spacing of the points at which a footprint that a ford or bridge
/// crosses is tested for water (inches).
const WATER_GRID: f64 = 0.25;

/// The water under footprint `f`, with rivers and streams crossed as
/// `rivers` and `streams` say. Fords and bridges are strips across the
/// water: where they lie over it, the water is the ford's (half speed) or
/// none (a bridge); off the water they are dry ground.
pub fn water_under(
    terrain: &[Terrain],
    f: &Footprint,
    rivers: crate::games::hyborian::rules::options::WaterCrossing,
    streams: crate::games::hyborian::rules::options::WaterCrossing,
) -> Water {
    use crate::games::hyborian::rules::options::WaterCrossing;
    let crossing = |k: &TerrainKind| match k {
        TerrainKind::River => rivers,
        _ => streams,
    };
    let effect = |t: &Terrain| match crossing(&t.kind) {
        WaterCrossing::Impassable => Water::Barred(t.name()),
        WaterCrossing::Fordable => Water::Slowed,
        WaterCrossing::Open => Water::Dry,
    };
    let worse = |a: Water, b: Water| match (a, b) {
        (Water::Barred(x), _) | (_, Water::Barred(x)) => Water::Barred(x),
        (Water::Slowed, _) | (_, Water::Slowed) => Water::Slowed,
        _ => Water::Dry,
    };
    let courses: Vec<&Terrain> = terrain
        .iter()
        .filter(|t| t.kind.is_watercourse() && t.area_meets(f))
        .collect();
    let strips: Vec<&Terrain> = terrain
        .iter()
        .filter(|t| matches!(t.kind, TerrainKind::Ford | TerrainKind::Bridge) && t.area_meets(f))
        .collect();
    if strips.is_empty() || courses.is_empty() {
        return courses.iter().fold(Water::Dry, |w, t| worse(w, effect(t)));
    }
    // Where fords or bridges lie across the water, look point by point.
    let across = ((2.0 * f.half_width) / WATER_GRID).ceil().max(1.0) as usize;
    let deep = ((2.0 * f.half_depth) / WATER_GRID).ceil().max(1.0) as usize;
    let mut out = Water::Dry;
    for i in 0..=across {
        for j in 0..=deep {
            let x = (i as f64 / across as f64) * 2.0 - 1.0;
            let y = (j as f64 / deep as f64) * 2.0 - 1.0;
            let p = f.centre
                + f.right() * (x * (f.half_width - TOUCH))
                + f.ahead * (y * (f.half_depth - TOUCH));
            let on = |k: TerrainKind| {
                strips
                    .iter()
                    .any(|t| t.kind == k && point_in_polygon(p, &t.points))
            };
            let wet: Vec<&&Terrain> = courses
                .iter()
                .filter(|t| point_in_polygon(p, &t.points))
                .collect();
            // Fords and bridges matter only where they lie over the water.
            let here = if wet.is_empty() || on(TerrainKind::Bridge) {
                Water::Dry
            } else if on(TerrainKind::Ford) {
                Water::Slowed
            } else {
                wet.iter().fold(Water::Dry, |w, t| worse(w, effect(t)))
            };
            out = worse(out, here);
            if matches!(out, Water::Barred(_)) {
                return out;
            }
        }
    }
    out
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
            TerrainKind::River => "river",
            TerrainKind::Stream => "stream",
            TerrainKind::Ford => "ford",
            TerrainKind::Bridge => "bridge",
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
    fn water_under_a_unit() {
        use crate::games::hyborian::rules::options::WaterCrossing::{Fordable, Impassable, Open};
        let river = Terrain {
            kind: TerrainKind::River,
            points: sq(0.0, 22.0, 72.0, 26.0),
        };
        let ford = Terrain {
            kind: TerrainKind::Ford,
            points: sq(33.0, 18.0, 39.0, 30.0),
        };
        let bridge = Terrain {
            kind: TerrainKind::Bridge,
            points: sq(50.0, 18.0, 56.0, 30.0),
        };
        let all = [river, ford, bridge];
        let at = |x: f64, y: f64, w: f64| Footprint::behind(DVec2::new(x, y), 0.0, w, 2.0);
        assert_eq!(
            water_under(&all, &at(10.0, 20.0, 4.0), Impassable, Fordable),
            Water::Dry
        );
        assert_eq!(
            water_under(&all, &at(10.0, 23.0, 4.0), Impassable, Fordable),
            Water::Barred("river")
        );
        assert_eq!(
            water_under(&all, &at(10.0, 23.0, 4.0), Fordable, Impassable),
            Water::Slowed
        );
        assert_eq!(
            water_under(&all, &at(10.0, 23.0, 4.0), Open, Impassable),
            Water::Dry
        );
        // In the ford; a wider line has its ends in the river.
        assert_eq!(
            water_under(&all, &at(36.0, 23.0, 4.0), Impassable, Fordable),
            Water::Slowed
        );
        assert_eq!(
            water_under(&all, &at(36.0, 23.0, 8.0), Impassable, Fordable),
            Water::Barred("river")
        );
        // On the ford but off the water: dry ground.
        assert_eq!(
            water_under(&all, &at(36.0, 20.5, 4.0), Impassable, Fordable),
            Water::Dry
        );
        assert_eq!(
            water_under(&all, &at(53.0, 24.0, 4.0), Impassable, Fordable),
            Water::Dry
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
