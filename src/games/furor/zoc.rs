//! Zones of control (§8): every combat unit, full or reduced, exerts one
//! into the six hexes around it (O10) — not across a river hexside unless
//! a bridge (or, by O11, a ford) crosses it. Baggage, lone commanders and
//! Chararic's neutral corps have none.
//!
//! ```
//! use umpire::games::furor::zoc;
//! # use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # use umpire::games::furor::options::Options;
//! # let map = Map::from_spec(&MapSpec { columns: 12, rows: 15, ..MapSpec::default() }).unwrap();
//! # let u = |id: &str, side: &str, hex: &str| UnitSpec { id: id.into(), side: side.into(), kind: "infantry".into(), strength: 2, hex: Some(hex.into()), ..UnitSpec::default() };
//! # let board = Board::from_spec(BoardSpec { map, units: vec![u("a", "franks", "0508"), u("b", "romans", "0510")], ..BoardSpec::default() }).unwrap();
//! let franks = "franks".into();
//! assert!(zoc::in_enemy_zoc(&board, &Options::default(), &franks, "0509".parse().unwrap()));
//! assert!(!zoc::in_enemy_zoc(&board, &Options::default(), &franks, "0507".parse().unwrap()));
//! ```

use crate::games::furor::board::{Board, Relation, SideId, Unit};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::Options;
use crate::games::furor::rules::terrain::HexsideFeature;

/// Whether the unit exerts a zone of control (O10).
pub fn exerts(board: &Board, u: &Unit) -> bool {
    u.is_on_map() && u.is_combat() && !board.is_neutral(u)
}

/// Whether a ZoC reaches from `from` into the adjacent `into` (§8, O11).
pub fn reaches(board: &Board, options: &Options, from: Hex, into: Hex) -> bool {
    match board.map.hexside(from, into) {
        Some(HexsideFeature::River) => false,
        Some(HexsideFeature::Ford) => options.zoc_across_fords,
        _ => true,
    }
}

/// Whether the hex lies in the zone of control of an enemy of `side`.
pub fn in_enemy_zoc(board: &Board, options: &Options, side: &SideId, h: Hex) -> bool {
    h.neighbours().into_iter().any(|n| {
        board
            .at(n)
            .any(|u| exerts(board, u) && board.relation(side, u) == Relation::Enemy)
            && reaches(board, options, n, h)
    })
}

/// The enemy combat units next to the hex (adjacency, whatever the hexsides).
pub fn adjacent_enemies<'a>(
    board: &'a Board,
    side: &'a SideId,
    h: Hex,
) -> impl Iterator<Item = &'a Unit> + 'a {
    h.neighbours()
        .into_iter()
        .flat_map(move |n| board.at(n))
        .filter(move |u| u.is_combat() && board.relation(side, u) == Relation::Enemy)
}
