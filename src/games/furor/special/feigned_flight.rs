//! Campus Mauriacus rule 3, feigned flight (O32): a unit with the mark,
//! at its place in the move list, targets an enemy combat unit at most 3
//! hexes away that stands apart from the rest of its army. The target's
//! owner rolls (−1 if it has the mark too, +1 if impetuous): under its
//! strength (with a stacked commander's) nothing happens; otherwise it is
//! drawn up to 2 hexes towards the activated unit, each step one hex
//! nearer, ignoring MP and zones of control, never into an occupied hex or
//! across a river. Each unit is drawn out at most once a player-turn.

use crate::dice::DieKind;
use crate::games::furor::board::{Board, Relation, SideId, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{Counted, Event};
use crate::games::furor::options::{FeignedFlightTarget, Options};
use crate::games::furor::play::Play;
use crate::games::furor::retreat::move_with_commander;
use crate::games::furor::rules::special::{
    FEIGNED_FLIGHT_IMPETUOUS_TARGET, FEIGNED_FLIGHT_PULL, FEIGNED_FLIGHT_REACH,
    FEIGNED_FLIGHT_SKILLED_TARGET,
};
use crate::games::furor::rules::{Kind, Mark};
use std::collections::BTreeSet;

/// Whether unit `id` of `side` may try a feigned flight at `target` now;
/// `targeted`: the units already drawn out this player-turn.
///
/// # Errors
/// Why not, in the rule's words.
pub fn allowed(
    b: &Board,
    options: &Options,
    side: &SideId,
    id: &UnitId,
    target: &UnitId,
    targeted: &BTreeSet<UnitId>,
) -> Result<(), String> {
    let u = b.get(id);
    if !u.has(Mark::FeignedFlight) {
        return Err(format!(
            "{id} has no feigned-flight mark (scenario 1 rule 3)"
        ));
    }
    if &u.side != side || !u.is_on_map() {
        return Err(format!("{id} is not a unit of the phasing army on the map"));
    }
    let Some(t) = b
        .unit(target)
        .filter(|t| t.is_on_map() && t.is_combat() && b.relation(&u.side, t) == Relation::Enemy)
    else {
        return Err(format!("{target} is not an enemy combat unit on the map"));
    };
    let (Some(uh), Some(th)) = (u.hex, t.hex) else {
        return Err("not on the map".into());
    };
    if uh.distance(th) > FEIGNED_FLIGHT_REACH {
        return Err(format!(
            "{target} is {} hexes away, more than {FEIGNED_FLIGHT_REACH}",
            uh.distance(th)
        ));
    }
    let army = match options.feigned_flight_target {
        FeignedFlightTarget::IsolatedFromOwn => &t.side,
        FeignedFlightTarget::IsolatedFromActivator => &u.side,
    };
    let crowded = th
        .neighbours()
        .into_iter()
        .flat_map(|n| b.at(n))
        .any(|o| o.is_combat() && &o.side == army && o.id != u.id);
    if crowded {
        return Err(format!("{target} is next to another unit (O32)"));
    }
    if targeted.contains(target) {
        return Err(format!("{target} was already drawn out this turn (O32)"));
    }
    Ok(())
}

/// Try a feigned flight by `id` at `target`.
pub(crate) fn attempt(play: &mut Play, id: &UnitId, target: &UnitId) -> Result<(), EngineError> {
    if let Err(reason) = allowed(
        &play.board,
        play.options,
        &play.side,
        id,
        target,
        &play.feigned_targets,
    ) {
        play.emit(Event::FeignedFlightRefused {
            unit: id.clone(),
            target: target.clone(),
            reason,
        });
        return Ok(());
    }
    play.feigned_targets.insert(target.clone());
    let t = play.board.get(target).clone();
    let roll = play.roll(&format!("feigned:{target}"), DieKind::D6)?;
    let mut modified = roll as i8;
    if t.has(Mark::FeignedFlight) {
        modified += FEIGNED_FLIGHT_SKILLED_TARGET;
    }
    if t.has(Mark::Impetuous) {
        modified += FEIGNED_FLIGHT_IMPETUOUS_TARGET;
    }
    let th = t.hex.expect("on the map");
    let stacked = play
        .board
        .at(th)
        .find(|c| c.kind == Kind::Commander && c.side == t.side);
    let commander = stacked.map_or(0, |c| c.strength);
    let against = t.current_strength() + commander;
    let counted: Vec<Counted> = std::iter::once(&t)
        .chain(stacked)
        .map(Counted::of)
        .collect();
    let mut drawn = Vec::new();
    if modified >= against as i8 {
        let toward = play.board.get(id).hex.expect("on the map");
        let mut at = th;
        while drawn.len() < FEIGNED_FLIGHT_PULL && at.distance(toward) > 1 {
            let next = at
                .neighbours()
                .into_iter()
                .filter(|n| n.distance(toward) + 1 == at.distance(toward))
                .filter(|n| play.board.map.passable(at, *n) && play.board.at(*n).next().is_none())
                .min();
            let Some(n) = next else { break };
            drawn.push(n);
            at = n;
        }
        if let Some(&end) = drawn.last() {
            move_with_commander(play, target, end);
        }
    }
    play.emit(Event::FeignedFlight {
        unit: id.clone(),
        target: target.clone(),
        roll,
        modified,
        against,
        drawn,
        counted,
    });
    Ok(())
}
