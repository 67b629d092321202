//! Terrain queries: is a unit in a terrain area, is it on a road, where
//! does a road lead. Areas are polygons (hills, woods, swamps); roads are
//! polylines with a width.
//!
//! ```
//! use umpire::geometry::point_in_polygon;
//! use glam::DVec2;
//! let square = [DVec2::new(0.0, 0.0), DVec2::new(4.0, 0.0), DVec2::new(4.0, 4.0), DVec2::new(0.0, 4.0)];
//! assert!(point_in_polygon(DVec2::new(1.0, 1.0), &square));
//! assert!(!point_in_polygon(DVec2::new(5.0, 1.0), &square));
//! ```

use super::{Terrain, TerrainKind};
use crate::geometry::{
    distance_to_polyline, footprint_meets_polygon, point_in_polygon, Footprint, EPSILON, TOUCH,
};
use glam::DVec2;

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
                distance_to_polyline(p, &self.points) <= width / 2.0 + EPSILON
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
        distance_to_polyline(p, &ring) <= band + EPSILON
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
}
