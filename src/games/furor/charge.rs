//! Charges (§9.2, O13, O14): who may charge, and whether a move is a
//! charge at its target — a straight line of clear or road hexes ending
//! next to the target, in line with it (or, by option, every step one hex
//! nearer), crossing streams only by a road or bridge, against a target
//! in a clear, road or bridge hex. A charge that is not allowed is a plain
//! move.
//!
//! ```
//! use umpire::games::furor::charge;
//! # use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # use umpire::games::furor::options::Options;
//! # let map = Map::from_spec(&MapSpec { columns: 12, rows: 15, ..MapSpec::default() }).unwrap();
//! # let u = |id: &str, side: &str, kind: &str, hex: &str| UnitSpec { id: id.into(), side: side.into(), kind: kind.into(), strength: 3, hex: Some(hex.into()), ..UnitSpec::default() };
//! # let board = Board::from_spec(BoardSpec { map, units: vec![u("aquitaine", "lothaire", "cavalry", "0711"), u("provence", "charles", "infantry", "0708")], ..BoardSpec::default() }).unwrap();
//! let h = |s: &str| s.parse().unwrap();
//! let cav = board.unit(&"aquitaine".into()).unwrap();
//! assert!(charge::check(&board, &Options::default(), cav, &[h("0710"), h("0709")], &"provence".into()).is_ok());
//! // 0810, 0809, 0808 is no charge: the first step is not towards the target in a line.
//! assert!(charge::check(&board, &Options::default(), cav, &[h("0810"), h("0809"), h("0808")], &"provence".into()).is_err());
//! ```

use crate::games::furor::board::{Board, Relation, Unit, UnitId};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::{ChargePath, Options};
use crate::games::furor::rules::terrain::HexsideFeature;
use crate::games::furor::rules::{Kind, Mark};

/// Whether the unit may charge at all (§9.2, O14, Campus Mauriacus rule 1,
/// Vouillé rule 2): cavalry, or a mounted unit with the charge mark.
pub fn may_charge(board: &Board, u: &Unit) -> bool {
    let mounted = matches!(u.kind, Kind::Cavalry | Kind::MissileCavalry);
    mounted && (u.has(Mark::Charge) || (u.kind == Kind::Cavalry && !board.rules.charge_needs_mark))
}

/// Whether a hex is open to a charge: clear, a bridge hex, or carrying a road.
fn open(board: &Board, h: Hex) -> bool {
    board.map.terrain(h).open_for_charge() || board.map.has_road(h)
}

/// Check a charge along `path` (every hex entered) at `target`.
///
/// # Errors
/// Why it is no charge, in the book's words with its section.
pub fn check(
    board: &Board,
    options: &Options,
    u: &Unit,
    path: &[Hex],
    target: &UnitId,
) -> Result<(), String> {
    if !may_charge(board, u) {
        return Err(if board.rules.charge_needs_mark {
            format!("{} has no charge mark (scenario rule 1)", u.id)
        } else {
            format!("only cavalry charges, not {} (§9.2)", u.kind)
        });
    }
    let Some(t) = board
        .unit(target)
        .filter(|t| t.is_on_map() && board.relation(&u.side, t) != Relation::Friend)
    else {
        return Err(format!("{target} is not an enemy unit on the map"));
    };
    let (Some(from), Some(goal)) = (u.hex, t.hex) else {
        return Err("not on the map".into());
    };
    let Some(&last) = path.last() else {
        return Err("a charge needs a move towards the target (§9.2)".into());
    };
    if !last.is_adjacent(goal) {
        return Err(format!(
            "the move ends in {last}, not next to {target} (§9.2)"
        ));
    }
    match options.charge_path {
        ChargePath::Straight => {
            let dir = from
                .direction_to(path[0])
                .ok_or("the first step is not to an adjacent hex")?;
            let line = from.line(dir, path.len() + 1);
            if line[..path.len()] != *path || line[path.len()] != goal {
                return Err(format!(
                    "the charge must go in a straight line towards {target} (§9.2, O13)"
                ));
            }
        }
        ChargePath::Closing => {
            let mut at = from;
            for &h in path {
                if h.distance(goal) + 1 != at.distance(goal) {
                    return Err(format!("{h} is not one hex nearer {target} (§9.2, O13)"));
                }
                at = h;
            }
        }
    }
    if let Some(h) = path.iter().find(|h| !open(board, **h)) {
        return Err(format!(
            "{h} is {}, not a clear or road hex (§9.2)",
            board.map.terrain(*h).name()
        ));
    }
    if !open(board, goal) {
        return Err(format!(
            "{target} stands in {}, not a clear, road or bridge hex (§9.2)",
            board.map.terrain(goal).name()
        ));
    }
    let mut at = from;
    for &h in path.iter().chain(std::iter::once(&goal)) {
        if matches!(
            board.map.crossing(at, h),
            Some(HexsideFeature::Stream | HexsideFeature::Ford | HexsideFeature::River)
        ) {
            return Err(format!(
                "the charge crosses water between {at} and {h} off the road (§9.2)"
            ));
        }
        at = h;
    }
    Ok(())
}
