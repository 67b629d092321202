//! What a footprint stands on and touches, as fire, melee, magic and
//! movement ask it: the contour level under it, the point of it nearest
//! to a place.

use crate::games::hyborian::table::{Table, TerrainKind};
use crate::geometry::{closest_on_segment, point_in_polygon, Edge, Footprint};
use glam::DVec2;

/// The point of a footprint nearest to `p`.
pub(crate) fn nearest_point(f: &Footprint, p: DVec2) -> DVec2 {
    if f.contains(p) {
        return p;
    }
    [Edge::Front, Edge::Right, Edge::Rear, Edge::Left]
        .into_iter()
        .map(|e| {
            let (a, b) = f.edge(e);
            closest_on_segment(p, a, b)
        })
        .min_by(|x, y| x.distance(p).total_cmp(&y.distance(p)))
        .unwrap_or(f.centre)
}

/// Contour level a footprint stands on: the highest hill holding its centre.
pub(crate) fn level(table: &Table, f: &Footprint) -> u8 {
    table
        .terrain
        .iter()
        .filter_map(|t| match t.kind {
            TerrainKind::Hill { contours } if point_in_polygon(f.centre, &t.points) => {
                Some(contours)
            }
            _ => None,
        })
        .max()
        .unwrap_or(0)
}
