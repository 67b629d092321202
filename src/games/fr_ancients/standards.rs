//! Army standards (digest §6 rule 15): the result table, what each result
//! means for a bearer destroyed in melee or otherwise, the +2/+1 Rally of
//! the bearer and its neighbours, the +1 CF against the captors, the clock
//! loss, and the 200/100 points at the end of the battle. The numbers are
//! `campaigns/fr-ancients/standards.toml`.
//!
//! ```
//! use umpire::games::fr_ancients::standards::{fate, read, Fate, TableResult};
//! assert_eq!(read(4), TableResult::Escapes);
//! assert_eq!(read(10), TableResult::LeftBehind, "the face marked 0");
//! // Destroyed in melee, a 7 puts it with the victorious enemy unit…
//! let f = fate(TableResult::Captured, true, None, Some("gauls"));
//! assert_eq!(f, Fate::CapturedBy("gauls".into()));
//! // …destroyed by missile fire, "captured" reads as "escapes": with nobody
//! // adjacent it is left behind.
//! assert_eq!(fate(TableResult::Captured, false, None, None), Fate::LeftBehind);
//! ```

// The table's column of results is the sheet's data type; this module
// names it too, as its doc example does.
pub use super::sheet::TableResult;

use super::sheet::sheet;
use serde::{Deserialize, Serialize};

/// The table's result for a d10 face (1–10, 10 for the face marked 0).
pub fn read(face: u8) -> TableResult {
    let rows = &sheet().standards.result;
    rows.iter()
        .find(|r| r.faces.contains(&face))
        .map_or(TableResult::LeftBehind, |r| r.result)
}

/// The sheet's words for a result.
pub fn text(result: TableResult) -> &'static str {
    let rows = &sheet().standards.result;
    rows.iter()
        .find(|r| r.result == result)
        .map_or("", |r| r.text.as_str())
}

/// Where a standard ends up when its bearer is destroyed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    /// "disappeared under the carnage and mud of the battle field".
    Lost,
    /// Carried "by a brave warrior to an adjacent unit".
    EscapesTo(String),
    /// "placed with the victorious enemy unit".
    CapturedBy(String),
    /// "Mark its position on the battlefield".
    LeftBehind,
}

/// What a result means: `in_melee` whether the bearer was destroyed in
/// melee; `adjacent` the friendly unit the standard would escape to;
/// `victor` the enemy unit that destroyed the bearer in melee.
///
/// "If the unit carrying the standard is destroyed by other means … treating
/// any captured result as an escape." An escape with no adjacent unit is
/// "Captured if the unit was destroyed in melee, left behind under other
/// circumstances". A melee with no enemy unit to take it (a bearer
/// destroyed by a panicked friend) leaves it behind (ruling FA-13).
pub fn fate(
    result: TableResult,
    in_melee: bool,
    adjacent: Option<&str>,
    victor: Option<&str>,
) -> Fate {
    let escape = || match (adjacent, in_melee, victor) {
        (Some(u), _, _) => Fate::EscapesTo(u.to_string()),
        (None, true, Some(v)) => Fate::CapturedBy(v.to_string()),
        _ => Fate::LeftBehind,
    };
    match result {
        TableResult::Lost => Fate::Lost,
        TableResult::LeftBehind => Fate::LeftBehind,
        TableResult::Escapes => escape(),
        TableResult::Captured => match (in_melee, victor) {
            (true, Some(v)) => Fate::CapturedBy(v.to_string()),
            (true, None) => Fate::LeftBehind,
            (false, _) => escape(),
        },
    }
}

/// Rally bonus for the unit carrying its army's standard.
pub fn bearer_rally() -> i32 {
    sheet().standards.bearer_rally
}

/// Rally bonus for units adjacent to the bearer.
pub fn adjacent_rally() -> i32 {
    sheet().standards.adjacent_rally
}

/// CF bonus for units fighting the unit that holds their captured standard.
pub fn against_captors_cf() -> i32 {
    sheet().standards.against_captors_cf
}

/// Morale clock loss when a standard is captured or lost.
pub fn clock_loss() -> u32 {
    sheet().standards.clock_loss
}

/// Points at the end of the battle: a captured standard 200, a lost one
/// 100; one left behind and never picked up scores as lost (ruling FA-13).
pub fn end_points(captured: bool) -> u32 {
    if captured {
        sheet().standards.captured_points
    } else {
        sheet().standards.lost_points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_face_by_face() {
        let want = [
            (1, TableResult::Lost),
            (2, TableResult::Lost),
            (3, TableResult::Escapes),
            (4, TableResult::Escapes),
            (5, TableResult::Captured),
            (9, TableResult::Captured),
            (10, TableResult::LeftBehind),
        ];
        for (face, r) in want {
            assert_eq!(read(face), r, "face {face}");
        }
    }

    #[test]
    fn every_branch_of_the_fate() {
        use Fate::*;
        assert_eq!(fate(TableResult::Lost, true, Some("a"), Some("v")), Lost);
        assert_eq!(
            fate(TableResult::Escapes, true, Some("a"), Some("v")),
            EscapesTo("a".into())
        );
        assert_eq!(
            fate(TableResult::Escapes, true, None, Some("v")),
            CapturedBy("v".into())
        );
        assert_eq!(fate(TableResult::Escapes, false, None, None), LeftBehind);
        assert_eq!(
            fate(TableResult::Captured, false, Some("a"), None),
            EscapesTo("a".into())
        );
        assert_eq!(
            fate(TableResult::Captured, true, Some("a"), Some("v")),
            CapturedBy("v".into())
        );
        assert_eq!(
            fate(TableResult::LeftBehind, true, Some("a"), Some("v")),
            LeftBehind
        );
        assert_eq!(
            (bearer_rally(), adjacent_rally(), against_captors_cf()),
            (2, 1, 1)
        );
        assert_eq!((end_points(true), end_points(false)), (200, 100));
    }
}
