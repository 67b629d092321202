//! Movement after the melee round (§3, §4): heavy cavalry that broke
//! through infantry rides on the rest of its charge and fights whom it
//! meets behind; medium cavalry's split move breaks off and rides away
//! after all melee and post-melee morale is done.
//!
//! Both are moves on the movement engine's clock
//! (`movement::after_melee`), so contacts, friends in the way, terrain and
//! the table edge work as in a phase.

use super::events::{Event, NoBreakthrough};
use super::melee::{round, Tally};
use super::movement::{self, end_melees, AfterMelee};
use super::record::{MoraleCall, MoraleCause};
use super::route::{faced, Leg, Plan, PlanKind};
use super::{roll, TurnState};
use crate::games::hyborian::dice::{Dice, DiceError, DiceKey};
use crate::games::hyborian::orders::plan::{Function, TurnOrders};
use crate::games::hyborian::rules::melee::{BREAKTHROUGH_RATIO, BROKEN_THROUGH_MORALE};
use crate::games::hyborian::rules::movement::{allowance, Pace};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::{Phase, UnitType};
use crate::games::hyborian::table::{Status, Unit, UnitId};
use crate::geometry::Face;
use std::collections::{BTreeMap, BTreeSet};

/// A breakthrough the round allowed: who rides through whom, how far.
struct Breakthrough {
    unit: UnitId,
    through: UnitId,
    distance: f64,
}

/// After the round: heavy cavalry that broke through rides on (§4); a unit
/// it meets is fought at once, with the charge bonus (ruling C-26).
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn after_round(
    turn: &mut TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    dice: &mut dyn Dice,
    dice_of: &mut BTreeMap<UnitId, u8>,
    tally: &Tally,
    opponents: &BTreeMap<UnitId, BTreeSet<UnitId>>,
) -> Result<(), DiceError> {
    let found: Vec<Breakthrough> = opponents
        .keys()
        .filter_map(|id| judge(turn, orders, tally, opponents, id))
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    let mut moves = Vec::new();
    for b in &found {
        let (u, i) = (&turn.table.units[&b.unit], &turn.table.units[&b.through]);
        turn.events.push(Event::BrokeThrough {
            unit: u.id.clone(),
            name: u.name.clone(),
            through: i.id.clone(),
            through_name: i.name.clone(),
            distance: b.distance,
        });
        if i.status.is_present() {
            turn.record
                .unit_mut(&b.through)
                .morale_calls
                .push(MoraleCall {
                    cause: MoraleCause::BrokenThrough { by: b.unit.clone() },
                    modifier: BROKEN_THROUGH_MORALE,
                });
        }
        let start = u.pose();
        moves.push(AfterMelee {
            unit: b.unit.clone(),
            plan: Plan {
                kind: PlanKind::Charge {
                    target: None,
                    wheel: 0.0,
                    denied: None,
                    out_of: Vec::new(),
                },
                start,
                legs: vec![Leg::Straight {
                    from: start,
                    bearing: start.facing,
                    length: b.distance,
                }],
                budget: b.distance,
                allowance: allowance(u.kind, u.formation, Pace::Charge, false),
            },
            through: Some(b.through.clone()),
        });
        end_melees(turn, &b.unit);
    }
    movement::after_melee(turn, options, moves);
    let mut pairs: BTreeSet<(UnitId, UnitId)> = BTreeSet::new();
    for b in &found {
        let (u, i) = (&turn.table.units[&b.unit], &turn.table.units[&b.through]);
        // Stopped inside the infantry (a friend, the edge, ground it may
        // not enter): the melee with it goes on (ruling C-26).
        if i.status.is_present() && u.footprint().overlaps(&i.footprint()) {
            lock(turn, &b.unit, &b.through);
            continue;
        }
        for o in &turn.table.units[&b.unit].in_melee_with {
            pairs.insert((b.unit.clone(), o.clone()));
            pairs.insert((o.clone(), b.unit.clone()));
        }
    }
    // The cavalry and the units it meets test before fighting (§8); a unit
    // that fails falls back out of the melee and is not fought.
    let entering: BTreeSet<UnitId> = pairs.iter().map(|p| p.0.clone()).collect();
    super::morale::entering_melee(turn, options, dice, &entering)?;
    pairs.retain(|(a, b)| turn.table.units[a].in_melee_with.contains(b));
    if pairs.is_empty() {
        return Ok(());
    }
    let newcomers: BTreeSet<UnitId> = pairs
        .iter()
        .map(|p| p.0.clone())
        .filter(|id| !dice_of.contains_key(id))
        .collect();
    for id in newcomers {
        let d = roll(dice, DiceKey::Melee { unit: id.clone() }, &mut turn.events)?;
        dice_of.insert(id, d);
    }
    round(turn, options, dice_of, Some(&pairs), tally);
    Ok(())
}

fn lock(turn: &mut TurnState, a: &str, b: &str) {
    for (x, y) in [(a, b), (b, a)] {
        if let Some(u) = turn.table.units.get_mut(x) {
            u.in_melee_with.insert(y.to_string());
        }
    }
}

/// Whether unit `id` broke through this round (§4): heavy cavalry that
/// charged infantry this turn (not in the flank) with breakthrough written,
/// fought it alone, and inflicted at least twice the casualties it received
/// — and at least one (ruling C-25). A denied breakthrough is reported.
fn judge(
    turn: &mut TurnState,
    orders: &TurnOrders,
    tally: &Tally,
    opponents: &BTreeMap<UnitId, BTreeSet<UnitId>>,
    id: &UnitId,
) -> Option<Breakthrough> {
    let u = turn.table.units.get(id)?;
    if u.kind != UnitType::HeavyCavalry || !u.status.is_present() {
        return None;
    }
    let rec = turn.record.unit(id)?;
    let written = |p: Phase| {
        matches!(orders.units.get(id).and_then(|o| o.function(p)),
            Some(Function::Charge(c)) if c.breakthrough)
    };
    let contact = rec
        .contacts
        .iter()
        .find(|c| c.charging && c.striker && written(c.phase))?;
    let i = turn.table.units.get(&contact.other)?;
    if !i.kind.is_infantry() {
        return None;
    }
    let inflicted = tally.get(&(id.clone(), i.id.clone())).copied().unwrap_or(0);
    let suffered = tally.get(&(i.id.clone(), id.clone())).copied().unwrap_or(0);
    let charged_phase = contact.phase;
    let face = contact.face;
    let left =
        allowance(u.kind, u.formation, Pace::Charge, false) - rec.phase(charged_phase).distance;
    let needed = if i.status.is_present() {
        clearing(u, i)
    } else {
        0.0
    };
    let why = if face == Face::Flank {
        Some(NoBreakthrough::Flank)
    } else if opponents
        .get(id)
        .is_none_or(|o| o.len() != 1 || !o.contains(&i.id))
    {
        Some(NoBreakthrough::OtherOpponents)
    } else if inflicted == 0 || inflicted < BREAKTHROUGH_RATIO * suffered {
        Some(NoBreakthrough::Casualties {
            inflicted,
            suffered,
        })
    } else if left <= needed {
        Some(NoBreakthrough::ChargeSpent {
            left: left.max(0.0),
        })
    } else {
        None
    };
    match why {
        None => Some(Breakthrough {
            unit: id.clone(),
            through: i.id.clone(),
            distance: left,
        }),
        Some(reason) => {
            let event = Event::NoBreakthrough {
                unit: id.clone(),
                name: u.name.clone(),
                through: i.id.clone(),
                through_name: i.name.clone(),
                reason,
            };
            turn.events.push(event);
            None
        }
    }
}

/// Inches `u` must ride straight on before it stands clear of `i`.
fn clearing(u: &Unit, i: &Unit) -> f64 {
    let (f, g) = (u.footprint(), i.footprint());
    let beyond = g
        .corners()
        .iter()
        .map(|c| (*c - f.front()).dot(f.ahead))
        .fold(0.0, f64::max);
    beyond + 2.0 * f.half_depth
}

/// Medium cavalry's split move (§3): a unit that moved before its melee
/// began in phase 1 of this turn and wrote a break-off turns about for free
/// after all melee (and the post-melee tests) and rides away with what is
/// left of its full allowance (ruling C-28). A melee begun in phase 2 is
/// broken off in phase 1 of the next turn by the movement step.
pub(crate) fn split_moves(turn: &mut TurnState, orders: &TurnOrders, options: &GameOptions) {
    let mut moves = Vec::new();
    let ids: Vec<UnitId> = turn.table.units.keys().cloned().collect();
    for id in ids {
        let u = &turn.table.units[&id];
        let Some(o) = orders.units.get(&id) else {
            continue;
        };
        let wants = o.phase2 == Some(Function::BreakOff)
            || matches!(&o.phase1, Some(Function::Charge(c)) if c.break_off);
        let Some(rec) = turn.record.unit(&id) else {
            continue;
        };
        let began_in_phase_1 = rec
            .contacts
            .iter()
            .filter(|c| u.in_melee_with.contains(&c.other))
            .all(|c| c.phase == Phase::One)
            && rec.contacts.iter().any(|c| c.phase == Phase::One);
        if !(wants
            && u.kind == UnitType::MediumCavalry
            && u.status == Status::Ready
            && !u.in_melee_with.is_empty()
            && began_in_phase_1
            && rec.phase1.moved)
        {
            continue;
        }
        let full = allowance(u.kind, u.formation, Pace::Normal, false);
        let left = (full - rec.phase1.distance - rec.phase2.distance).max(0.0);
        let start = faced(u.pose(), u.kind, u.facing + 180.0);
        moves.push(AfterMelee {
            unit: id.clone(),
            plan: Plan {
                kind: PlanKind::BreakOff,
                start,
                legs: vec![Leg::Straight {
                    from: start,
                    bearing: start.facing,
                    length: left,
                }],
                budget: left,
                allowance: full,
            },
            through: None,
        });
        end_melees(turn, &id);
        let name = turn.table.units[&id].name.clone();
        turn.events.push(Event::BrokeOff {
            unit: id,
            name,
            phase: Phase::Two.number(),
        });
    }
    if !moves.is_empty() {
        movement::after_melee(turn, options, moves);
    }
}
