//! Step losses and eliminations (§9.9, §6, §9.4): a two-step unit turns
//! to its reduced side, then goes; a one-step unit goes at once; a
//! commander and baggage stacked with an eliminated unit go with it. Losses
//! of several attackers are allocated by the owner's written order, else
//! where they cost the army the fewest morale points (O25: [`allocate`]).
//!
//! ```
//! use umpire::games::furor::losses::allocate;
//! # use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # let map = Map::from_spec(&MapSpec { columns: 12, rows: 15, ..MapSpec::default() }).unwrap();
//! # let u = |id: &str, strength: i64, steps: i64, hex: &str| UnitSpec { id: id.into(), side: "franks".into(), kind: "infantry".into(), strength, reduced: Some(1), steps: Some(steps), hex: Some(hex.into()), ..UnitSpec::default() };
//! # let board = Board::from_spec(BoardSpec { map, units: vec![u("full", 3, 2, "0508"), u("reduced", 2, 1, "0509")], ..BoardSpec::default() }).unwrap();
//! // The book's A2 example (§9.9): reduce the full unit, eliminate the reduced one.
//! let order = allocate(&board, &["full".into(), "reduced".into()], 2, &[]);
//! assert_eq!(order, vec!["full".into(), "reduced".into()]);
//! ```

use crate::games::furor::board::{Board, Status, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{Event, LossCause};
use crate::games::furor::play::Play;
use crate::games::furor::rules::Kind;
use crate::games::furor::special;
use std::collections::BTreeMap;

/// What eliminating the unit now would cost its army, with the commander
/// and baggage that would go with it (§10).
fn elimination_cost(board: &Board, id: &UnitId) -> u16 {
    let u = board.get(id);
    let mut cost = u.loss_value();
    if let Some(h) = u.hex.filter(|_| u.is_combat()) {
        cost += board
            .at(h)
            .filter(|o| !o.is_combat() && o.side == u.side)
            .map(|o| o.loss_value())
            .sum::<u16>();
    }
    cost
}

/// Who takes each of `steps` losses among `sufferers` (in attack order):
/// the owner's `preference` entry for each step while it can take one,
/// else the default of O25 — reduce a full unit before eliminating
/// anything, then eliminate what costs the army least, ties in attack order.
pub fn allocate(
    board: &Board,
    sufferers: &[UnitId],
    steps: u8,
    preference: &[UnitId],
) -> Vec<UnitId> {
    let mut left: BTreeMap<&UnitId, u8> =
        sufferers.iter().map(|s| (s, board.get(s).steps)).collect();
    let mut out = Vec::new();
    for i in 0..usize::from(steps) {
        let wanted = preference
            .get(i)
            .filter(|p| left.get(p).is_some_and(|n| *n > 0));
        let pick = wanted.or_else(|| {
            sufferers.iter().filter(|s| left[s] > 0).min_by_key(|s| {
                if left[s] >= 2 {
                    0
                } else {
                    elimination_cost(board, s)
                }
            })
        });
        let Some(p) = pick else { break };
        *left.get_mut(p).expect("a sufferer") -= 1;
        out.push(p.clone());
    }
    out
}

/// `steps` step losses for the unit from one cause (`u8::MAX`: all of
/// them). Then the special rules that count losses (the Alans' defection).
pub(crate) fn take_steps(
    play: &mut Play,
    id: &UnitId,
    steps: u8,
    cause: LossCause,
) -> Result<(), EngineError> {
    let u = play.board.get(id);
    if !u.is_on_map() || steps == 0 {
        return Ok(());
    }
    let was_full = u.is_full();
    let taken = steps.min(u.steps.max(1));
    let left = u.steps.saturating_sub(taken);
    if left == 0 || !u.is_combat() {
        eliminate(play, id, cause)?;
    } else {
        play.board.get_mut(id).steps = left;
        play.emit(Event::StepLost {
            unit: id.clone(),
            cause,
            steps_left: left,
        });
    }
    special::defection::after_loss(play, id, taken, was_full)
}

/// Take the unit off the map as eliminated (a baggage unit turns to its
/// *Pillé* side and stays as a marker), with what is stacked on it.
pub(crate) fn eliminate(play: &mut Play, id: &UnitId, cause: LossCause) -> Result<(), EngineError> {
    let u = play.board.get(id).clone();
    if !u.is_on_map() {
        return Ok(());
    }
    if u.kind == Kind::Baggage {
        let b = play.board.get_mut(id);
        b.status = Status::Pillaged;
        b.steps = 0;
        play.emit(Event::Pillaged { unit: id.clone() });
        return Ok(());
    }
    let stacked: Vec<UnitId> = match (u.is_combat(), u.hex) {
        (true, Some(h)) => play
            .board
            .at(h)
            .filter(|o| o.id != u.id && o.side == u.side)
            .map(|o| o.id.clone())
            .collect(),
        _ => Vec::new(),
    };
    let gone = play.board.get_mut(id);
    gone.status = if cause == LossCause::OffMap {
        Status::OffMap
    } else {
        Status::Eliminated
    };
    gone.steps = 0;
    gone.hex = None;
    play.emit(Event::Eliminated {
        unit: id.clone(),
        cause,
    });
    if u.kind == Kind::Commander {
        special::commanders_role::commander_lost(play, id)?;
    }
    for s in stacked {
        if play.board.get(&s).kind == Kind::Commander && cause == LossCause::OffMap {
            // He goes off the map with his unit: eliminated as it is (§6).
            eliminate(play, &s, LossCause::OffMap)?;
        } else {
            eliminate(play, &s, LossCause::WithItsUnit)?;
        }
    }
    Ok(())
}
