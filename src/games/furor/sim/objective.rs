//! Where an aggressive general marches each unit: on the enemy it brings
//! the most points of the enemy's Army Morale Threshold (§10) for the
//! time it takes to get there — the weak points first, as a player
//! counts them, and never more troops on one than its odds need.
//!
//! Only eliminated units count towards a threshold (O27), so what an
//! attack is worth is the target's loss value (its stacked commander's
//! too: he falls with it) times the share of its steps left the attack
//! is expected to take, read off the combat table (`combat::table_result`)
//! and the morale rule (`rules::morale_outcome`) for the column the
//! strength already sent and this unit's would make. Each unit, best
//! first, goes where it adds most, divided by the player-turns it needs to
//! reach the target (one more for each turn's march beyond the first),
//! and only where it can arrive before the last turn is over. A unit
//! already next to an enemy weighs only the enemies it touches.
//!
//! Everything here is what the side can see: the board, the units'
//! values and the table; no dice.
//!
//! ```
//! use umpire::games::furor::sim::objective::objectives;
//! use umpire::games::furor::{options::Options, scenario::shipped};
//! let options = Options::default();
//! let board = shipped("soissons").unwrap().start(&options, &Default::default(), &"franks".into()).unwrap();
//! let sent = objectives(&board, &options, &"franks".into());
//! // Some Frankish unit is sent on the weak militia of the far flank.
//! assert!(sent.values().any(|o| o.target.0.starts_with("militia")), "{sent:?}");
//! ```

use crate::games::furor::board::{Board, Relation, SideId, Unit, UnitId};
use crate::games::furor::combat::table_result;
use crate::games::furor::hex::Hex;
use crate::games::furor::options::Options;
use crate::games::furor::rules::crt::{column_for, Column, CombatResult};
use crate::games::furor::rules::{morale_outcome, Kind, MoraleOutcome};
use crate::games::furor::{morale, zoc};
use std::collections::BTreeMap;

/// Where a unit is sent: the enemy, its hex, and the column the units
/// sent on it that can reach it this player-turn would make together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Objective {
    pub target: UnitId,
    pub hex: Hex,
    pub column: Column,
}

/// An enemy as a target: what it defends with, what it is worth.
struct Target {
    id: UnitId,
    hex: Hex,
    /// Its strength with a stacked commander's (§6).
    defence: u16,
    /// Its loss value with a stacked commander's (§10).
    worth: u32,
    steps: u8,
    morale: u8,
    shift: u8,
}

fn targets(board: &Board, options: &Options, side: &SideId) -> Vec<Target> {
    board
        .units
        .values()
        .filter(|e| e.is_on_map() && e.is_combat() && board.relation(side, e) == Relation::Enemy)
        .filter_map(|e| {
            let hex = e.hex?;
            let commanders: Vec<&Unit> = board
                .at(hex)
                .filter(|c| c.kind == Kind::Commander && c.side == e.side)
                .collect();
            Some(Target {
                id: e.id.clone(),
                hex,
                defence: u16::from(e.current_strength())
                    + commanders
                        .iter()
                        .map(|c| u16::from(c.strength))
                        .sum::<u16>(),
                worth: u32::from(e.loss_value())
                    + commanders
                        .iter()
                        .map(|c| u32::from(c.loss_value()))
                        .sum::<u32>(),
                steps: e.steps,
                morale: morale::value(board, options, e),
                shift: board.map.terrain(hex).column_shift(),
            })
        })
        .collect()
}

/// Steps an attack of `attack` strength takes from `t`, summed over the
/// 36 throws of the combat die and the morale die (so in 36ths of a step).
fn steps_taken(options: &Options, t: &Target, attack: u16) -> u32 {
    if attack == 0 {
        return 0;
    }
    let column = column_for(attack, t.defence).shifted_left(t.shift);
    let morale_losses = (1..=6u8)
        .filter(|m| morale_outcome(*m, t.morale) == MoraleOutcome::LosesStep)
        .count() as u32;
    (1..=6u8)
        .map(|roll| match table_result(options, column, roll) {
            CombatResult::DT => morale_losses,
            r => 6 * u32::from(r.steps()),
        })
        .map(|s| s.min(6 * u32::from(t.steps)))
        .sum()
}

/// What an attack of `attack` strength on `t` is worth, in 36ths of a
/// point of the enemy's threshold (the points times the share of the
/// steps left it takes).
fn progress(options: &Options, t: &Target, attack: u16) -> u32 {
    t.worth * steps_taken(options, t, attack) / u32::from(t.steps.max(1))
}

/// Player-turns before the unit can attack `t` (0: this one), or `None`
/// if it is already too late.
fn wait(u: &Unit, at: Hex, t: &Target, turns_left: u8) -> Option<u16> {
    let to_go = at.distance(t.hex).saturating_sub(1);
    let wait = to_go.div_ceil(u.mp.max(1)).saturating_sub(1);
    (wait <= u16::from(turns_left)).then_some(wait)
}

/// The group of free units (nearest first) that takes `t` most points
/// for the strength it commits and the turns it waits, and that value.
fn best_group(
    board: &Board,
    options: &Options,
    side: &SideId,
    free: &[&Unit],
    t: &Target,
    sent: u16,
    turns_left: u8,
) -> Option<(u32, Vec<(usize, u16)>, u16)> {
    let mut near: Vec<(u16, u16, usize)> = free
        .iter()
        .enumerate()
        .filter_map(|(i, u)| {
            let at = u.hex?;
            let touching = zoc::adjacent_enemies(board, side, at).next().is_some();
            if touching && !at.is_adjacent(t.hex) {
                return None;
            }
            Some((wait(u, at, t, turns_left)?, at.distance(t.hex), i))
        })
        .collect();
    near.sort();
    let before = progress(options, t, sent);
    let mut best: Option<(u32, Vec<(usize, u16)>, u16)> = None;
    let mut group = Vec::new();
    let mut strength = 0u16;
    for (w, _, i) in near {
        group.push((i, w));
        strength += u16::from(free[i].current_strength());
        let gain = progress(options, t, sent + strength).saturating_sub(before);
        let fx = std::env::var("FX").unwrap_or_default();
        let w = if fx.contains('n') { 0 } else { w };
        let value = gain * 1000 / (u32::from(strength) * (u32::from(w) + 1));
        if value > 0 && best.as_ref().is_none_or(|(v, _, _)| value > *v) {
            best = Some((value, group.clone(), strength));
        }
        if column_for(sent + strength, t.defence) == Column::FourOne {
            break;
        }
    }
    best
}

/// For each of the side's combat units that gains by it, the enemy it
/// marches on and that enemy's hex: target by target, the group that
/// brings the most points for its strength is sent, until no free unit
/// would add any.
pub fn objectives(board: &Board, options: &Options, side: &SideId) -> BTreeMap<UnitId, Objective> {
    let targets = targets(board, options, side);
    let turns_left = board
        .last_turn
        .map_or(u8::MAX, |l| l.saturating_sub(board.turn));
    let mut free: Vec<&Unit> = board
        .units
        .values()
        .filter(|u| &u.side == side && u.is_on_map() && u.is_combat() && u.hex.is_some())
        .collect();
    let mut sent = vec![0u16; targets.len()];
    let mut now = vec![0u16; targets.len()];
    let mut to: Vec<Vec<UnitId>> = vec![Vec::new(); targets.len()];
    let mut out = BTreeMap::new();
    loop {
        let mut best: Option<(u32, usize, Vec<(usize, u16)>, u16)> = None;
        for (ti, t) in targets.iter().enumerate() {
            let Some((value, group, strength)) =
                best_group(board, options, side, &free, t, sent[ti], turns_left)
            else {
                continue;
            };
            if best.as_ref().is_none_or(|(v, ..)| value > *v) {
                best = Some((value, ti, group, strength));
            }
        }
        let Some((_, ti, mut group, strength)) = best else {
            break;
        };
        sent[ti] += strength;
        group.sort_unstable_by(|a, b| b.cmp(a));
        for (i, w) in group {
            let u = free.remove(i);
            if w == 0 {
                now[ti] += u16::from(u.current_strength());
            }
            to[ti].push(u.id.clone());
        }
    }
    for (ti, t) in targets.iter().enumerate() {
        let column = column_for(now[ti], t.defence).shifted_left(t.shift);
        for id in &to[ti] {
            let o = Objective {
                target: t.id.clone(),
                hex: t.hex,
                column,
            };
            out.insert(id.clone(), o);
        }
    }
    out
}

/// The weak points: each enemy a free unit of the side beats alone at the
/// table's best column (a sure result, 4/1), and the nearest such unit
/// not yet in contact sent on it, one unit to a target, if it can reach
/// it before the last turn is over.
pub fn detachments(board: &Board, options: &Options, side: &SideId) -> BTreeMap<UnitId, Objective> {
    let targets = targets(board, options, side);
    let turns_left = board
        .last_turn
        .map_or(u8::MAX, |l| l.saturating_sub(board.turn));
    let mut pairs = Vec::new();
    for u in board
        .units
        .values()
        .filter(|u| &u.side == side && u.is_on_map() && u.is_combat() && !u.kind.is_missile())
    {
        let Some(at) = u.hex else { continue };
        if zoc::adjacent_enemies(board, side, at).next().is_some() {
            continue;
        }
        for (ti, t) in targets.iter().enumerate() {
            let column =
                column_for(u16::from(u.current_strength()), t.defence).shifted_left(t.shift);
            if column < Column::FourOne {
                continue;
            }
            if let Some(w) = wait(u, at, t, turns_left) {
                pairs.push((w, at.distance(t.hex), u.id.clone(), ti));
            }
        }
    }
    pairs.sort();
    let mut out = BTreeMap::new();
    let mut taken = vec![false; targets.len()];
    for (_, _, id, ti) in pairs {
        if taken[ti] || out.contains_key(&id) {
            continue;
        }
        taken[ti] = true;
        let t = &targets[ti];
        out.insert(
            id,
            Objective {
                target: t.id.clone(),
                hex: t.hex,
                column: Column::FourOne,
            },
        );
    }
    out
}
