//! What a footprint stands on, as fire, melee, magic and movement ask it:
//! the contour level under it. (The point of a footprint nearest to a place
//! is `Footprint::nearest_point`, shared with FR! Ancients.)

use crate::games::hyborian::table::{Table, TerrainKind};
use crate::geometry::{point_in_polygon, Footprint};

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
