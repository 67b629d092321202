//! The §1 definitions of the formations in figures: how deep a line, a
//! column and a ring are, how wide a road column; checked alike when a
//! scenario is set up, when a player orders a change and when the engine
//! forms a unit up.

use super::Formation;

/// Line at most 3 ranks (§1).
pub const LINE_MAX_RANKS: u32 = 3;
/// Column 4 or more ranks (§1).
pub const COLUMN_MIN_RANKS: u32 = 4;
/// Road column at most 3 figures wide (§1).
pub const ROAD_COLUMN_MAX_FILES: u32 = 3;
/// Ring at most 2 ranks (§1).
pub const RING_MAX_RANKS: u32 = 2;
/// A positional line bent to its terrain keeps at least this fraction
/// (1/n) of its straight line's files facing the front (§1 OPEN; ruling
/// E-4): it bends its ends back, it does not fold up into a column.
pub const POSITIONAL_LINE_LEAST_FRONT: u32 = 3;

/// Does a formation of `files` × `ranks` meet the §1 definitions?
/// Returns why not.
pub fn formation_fits(formation: Formation, files: u32, ranks: u32) -> Result<(), String> {
    match formation {
        Formation::Line | Formation::PositionalLine if ranks > LINE_MAX_RANKS => Err(format!(
            "a line is at most {LINE_MAX_RANKS} ranks deep, this one is {ranks} (use column)"
        )),
        Formation::Column if ranks < COLUMN_MIN_RANKS && files > 1 => Err(format!(
            "a column is {COLUMN_MIN_RANKS} or more ranks deep, this one is {ranks} (use line)"
        )),
        Formation::RoadColumn if files > ROAD_COLUMN_MAX_FILES => Err(format!(
            "a road column is at most {ROAD_COLUMN_MAX_FILES} figures wide, this one is {files}"
        )),
        Formation::Ring if ranks > RING_MAX_RANKS => Err(format!(
            "a ring is at most {RING_MAX_RANKS} ranks, this one is {ranks}"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_1_limits() {
        assert!(formation_fits(Formation::Line, 8, LINE_MAX_RANKS).is_ok());
        assert!(formation_fits(Formation::Line, 8, LINE_MAX_RANKS + 1).is_err());
        assert!(formation_fits(Formation::Column, 2, COLUMN_MIN_RANKS - 1).is_err());
        assert!(
            formation_fits(Formation::Column, 1, 3).is_ok(),
            "a single file is a column"
        );
        assert!(formation_fits(Formation::RoadColumn, ROAD_COLUMN_MAX_FILES + 1, 6).is_err());
        assert!(formation_fits(Formation::Ring, 16, RING_MAX_RANKS + 1).is_err());
    }
}
