//! Victory (§10, O27): in phase 5 each army totals its eliminated units
//! (full printed strength, Elite markers in; a commander +4, baggage +2)
//! against its Army Morale Threshold. One army at or over it: the other
//! wins a major victory; both: the one over by less wins a minor victory
//! (equal margins: a tie). At the end of the last turn with neither over,
//! the scenario's own conditions decide ([`EndOfGame`]).
//!
//! ```
//! use umpire::games::furor::victory::decide;
//! use umpire::games::furor::board::Outcome;
//! let t = |s: &str, lost, threshold| (s.into(), lost, Some(threshold));
//! assert_eq!(decide(&[t("franks", 13, 13), t("romans", 2, 14)]), Some(Outcome::Major("romans".into())));
//! assert_eq!(decide(&[t("franks", 15, 13), t("romans", 15, 14)]), Some(Outcome::Minor("romans".into())));
//! assert_eq!(decide(&[t("franks", 14, 13), t("romans", 15, 14)]), Some(Outcome::Tie));
//! assert_eq!(decide(&[t("franks", 12, 13), t("romans", 2, 14)]), None);
//! ```

use crate::games::furor::board::{Board, EndOfGame, Outcome, SideId};
use crate::games::furor::events::ArmyTotal;

/// Each army's total against its threshold, in side order.
pub fn totals(board: &Board) -> Vec<ArmyTotal> {
    board
        .sides
        .iter()
        .map(|(s, info)| ArmyTotal {
            side: s.clone(),
            lost: board.lost(s),
            threshold: info.threshold,
        })
        .collect()
}

/// §10's test on (side, lost, threshold) rows.
pub fn decide(rows: &[(SideId, u16, Option<u16>)]) -> Option<Outcome> {
    let broken: Vec<(&SideId, u16)> = rows
        .iter()
        .filter_map(|(s, lost, t)| t.filter(|t| lost >= t).map(|t| (s, lost - t)))
        .collect();
    let other = |s: &SideId| rows.iter().map(|r| &r.0).find(|o| *o != s).cloned();
    match broken.as_slice() {
        [] => None,
        [(s, _)] => Some(other(s).map_or(Outcome::Tie, Outcome::Major)),
        [(a, ma), (b, mb), ..] => Some(match ma.cmp(mb) {
            std::cmp::Ordering::Less => Outcome::Minor((*a).clone()),
            std::cmp::Ordering::Greater => Outcome::Minor((*b).clone()),
            std::cmp::Ordering::Equal => Outcome::Tie,
        }),
    }
}

/// The phase-5 test on the board.
pub fn threshold_test(board: &Board) -> Option<Outcome> {
    let rows: Vec<(SideId, u16, Option<u16>)> = totals(board)
        .into_iter()
        .map(|t| (t.side, t.lost, t.threshold))
        .collect();
    decide(&rows)
}

/// The scenario's conditions at the end of its last turn (§12).
pub fn end_of_game(board: &Board) -> Outcome {
    let rows = totals(board);
    let lesser = || match rows.as_slice() {
        [a, b] if a.lost < b.lost => Some(Outcome::Minor(a.side.clone())),
        [a, b] if b.lost < a.lost => Some(Outcome::Minor(b.side.clone())),
        _ => None,
    };
    match &board.rules.end_of_game {
        EndOfGame::LesserLoss => lesser().unwrap_or(Outcome::Tie),
        EndOfGame::LesserLossElse(side) => lesser().unwrap_or_else(|| Outcome::Minor(side.clone())),
        EndOfGame::MinorTo(side) => Outcome::Minor(side.clone()),
    }
}
