//! The turn engine: (table, orders, options, dice) → (new table, events).
//!
//! A turn is a fixed pipeline of named [`Step`]s — spells take effect,
//! phase 1 movement, phase 1 fire, phase 2 movement, phase 2 fire, melee
//! (with heavy-cavalry breakthroughs), morale, medium cavalry's break-off,
//! end of turn — and [`resolve_turn`] can stop after any of the
//! case format's stops ([`StopAfter`]).
//!
//! Architecture invariant: the engine is pure. No I/O, no clock, no OS
//! randomness; every die comes from the [`Dice`] passed in and is reported
//! as an [`Event::DieRolled`]; every collection it iterates is ordered.
//!
//! ```
//! use umpire::games::hyborian::adjudicate::{resolve_turn, StopAfter};
//! use umpire::games::hyborian::dice::ScriptedDice;
//! use umpire::games::hyborian::orders::plan::TurnOrders;
//! use umpire::games::hyborian::rules::options::GameOptions;
//! use umpire::games::hyborian::table::{setup::Setup, Table};
//! let setup: Setup = toml::from_str("[table]\nwidth = 72.0\ndepth = 48.0\n").unwrap();
//! let table = Table::from_setup(&setup).unwrap();
//! let mut dice = ScriptedDice::default();
//! let out = resolve_turn(&table, &TurnOrders::default(), &GameOptions::default(), &mut dice, StopAfter::Turn).unwrap();
//! assert_eq!(out.table.turn, 2);
//! ```

mod breakthrough;
mod deploy;
pub mod events;
mod fire;
mod ground;
mod leaders;
mod losses;
pub mod melee;
mod melee_step;
pub mod morale;
mod movement;
pub mod record;
mod retreat;
pub mod route;
pub mod spells;

pub use events::Event;
pub use record::TurnRecord;

use crate::games::hyborian::dice::{Dice, DiceError, DiceKey, Roll};
use crate::games::hyborian::orders::plan::{MeleeOrders, TurnOrders};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::Phase;
use crate::games::hyborian::table::{Table, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// Where a resolution may stop (the case format's `stop_after`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopAfter {
    #[serde(rename = "phase1-move")]
    Phase1Move,
    #[serde(rename = "phase1-fire")]
    Phase1Fire,
    #[serde(rename = "phase2-move")]
    Phase2Move,
    #[serde(rename = "phase2-fire")]
    Phase2Fire,
    /// After melee (and its pre-melee tests), before the post-melee morale step.
    Melee,
    Turn,
}

impl StopAfter {
    pub const ALL: [StopAfter; 6] = [
        StopAfter::Phase1Move,
        StopAfter::Phase1Fire,
        StopAfter::Phase2Move,
        StopAfter::Phase2Fire,
        StopAfter::Melee,
        StopAfter::Turn,
    ];

    pub fn code(self) -> &'static str {
        match self {
            StopAfter::Phase1Move => "phase1-move",
            StopAfter::Phase1Fire => "phase1-fire",
            StopAfter::Phase2Move => "phase2-move",
            StopAfter::Phase2Fire => "phase2-fire",
            StopAfter::Melee => "melee",
            StopAfter::Turn => "turn",
        }
    }
}

impl fmt::Display for StopAfter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for StopAfter {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        StopAfter::ALL
            .into_iter()
            .find(|x| x.code() == s.trim())
            .ok_or_else(|| {
                format!(
                    "stop_after '{s}' is not one of {}",
                    StopAfter::ALL.map(|x| x.code()).join(", ")
                )
            })
    }
}

/// The steps of a turn, in order (§2 "Sequence of a turn").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Leaders' orders, then the rally test of every routing unit (§8, §9).
    StartOfTurn,
    /// Spells written last turn take effect (§10).
    SpellsTakeEffect,
    Phase1Move,
    Phase1Fire,
    Phase2Move,
    Phase2Fire,
    /// The pre-melee morale tests (§8), then one round of every melee (§4).
    Melee,
    /// Post-melee morale tests (§8).
    Morale,
    /// Medium cavalry's delayed phase-2 break-off (§2, §3 split move).
    BreakOff,
    EndOfTurn,
}

impl Step {
    pub const ALL: [Step; 10] = [
        Step::StartOfTurn,
        Step::SpellsTakeEffect,
        Step::Phase1Move,
        Step::Phase1Fire,
        Step::Phase2Move,
        Step::Phase2Fire,
        Step::Melee,
        Step::Morale,
        Step::BreakOff,
        Step::EndOfTurn,
    ];

    /// The stop that comes right after this step, if any.
    fn stop(self) -> Option<StopAfter> {
        match self {
            Step::Phase1Move => Some(StopAfter::Phase1Move),
            Step::Phase1Fire => Some(StopAfter::Phase1Fire),
            Step::Phase2Move => Some(StopAfter::Phase2Move),
            Step::Phase2Fire => Some(StopAfter::Phase2Fire),
            Step::Melee => Some(StopAfter::Melee),
            Step::EndOfTurn => Some(StopAfter::Turn),
            Step::StartOfTurn | Step::SpellsTakeEffect | Step::Morale | Step::BreakOff => None,
        }
    }
}

/// The outcome of a turn (or of part of one).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TurnResult {
    pub table: Table,
    pub events: Vec<Event>,
    /// What each unit did this turn (distances, changes, charges, contacts).
    pub record: TurnRecord,
}

/// The turn in progress, handed from step to step.
pub(crate) struct TurnState {
    pub table: Table,
    pub events: Vec<Event>,
    pub record: TurnRecord,
    /// The table as the turn began (loss thresholds, fall-back recovery).
    pub start: Table,
    /// Morale tests taken so far this turn, and statuses given.
    pub morale: morale::Tally,
    /// Melee adjustments written this turn (§4: expand, contract, lap
    /// around); a unit not listed does what the umpire does by default.
    pub melee_orders: BTreeMap<UnitId, MeleeOrders>,
}

/// Resolve one turn from `table` with checked `orders`, stopping after `stop`.
///
/// Spells written with these orders are kept on the returned table and
/// take effect at the start of the next turn (§10).
///
/// # Errors
/// Only the dice can fail: a scripted source without the roll needed.
pub fn resolve_turn(
    table: &Table,
    orders: &TurnOrders,
    options: &GameOptions,
    dice: &mut dyn Dice,
    stop: StopAfter,
) -> Result<TurnResult, DiceError> {
    let mut turn = TurnState {
        table: table.clone(),
        events: vec![Event::TurnBegan { turn: table.turn }],
        record: TurnRecord::default(),
        start: table.clone(),
        morale: morale::Tally::default(),
        melee_orders: orders
            .units
            .iter()
            .filter_map(|(id, o)| o.melee.clone().map(|m| (id.clone(), m)))
            .collect(),
    };
    if table.turn == 0 {
        // A scenario's deployment turn: placing units, nothing else.
        deploy::step(&mut turn.table, options, orders, &mut turn.events);
        turn.events.push(Event::TurnEnded { turn: 0 });
        turn.table.turn = 1;
        return Ok(TurnResult {
            table: turn.table,
            events: turn.events,
            record: turn.record,
        });
    }
    for step in Step::ALL {
        match step {
            Step::StartOfTurn => {
                leaders::orders(&mut turn, orders);
                morale::rally(&mut turn, options, dice)?;
            }
            Step::Phase1Move => {
                movement::phase(&mut turn, orders, options, Phase::One);
                // Friends passed through by units falling back last turn
                // could not charge in this phase only (§8).
                turn.table.morale.no_charge_in_phase1.clear();
                fire::pass_through(&mut turn, orders, options, dice, Phase::One)?;
            }
            Step::Phase2Move => {
                movement::phase(&mut turn, orders, options, Phase::Two);
                fire::pass_through(&mut turn, orders, options, dice, Phase::Two)?;
            }
            Step::Phase1Fire => fire::phase(&mut turn, orders, options, dice, Phase::One)?,
            Step::Phase2Fire => fire::phase(&mut turn, orders, options, dice, Phase::Two)?,
            Step::Melee => {
                morale::pre_melee(&mut turn, options, dice)?;
                melee_step::run(&mut turn, orders, options, dice)?;
            }
            Step::Morale => morale::post_melee(&mut turn, options, dice)?,
            Step::BreakOff => breakthrough::split_moves(&mut turn, orders, options),
            Step::SpellsTakeEffect => spells::take_effect(&mut turn, options, dice)?,
            Step::EndOfTurn => {
                spells::end_of_turn(&mut turn, orders, options);
                turn.events.push(Event::TurnEnded {
                    turn: turn.table.turn,
                });
                turn.table.turn += 1;
            }
        }
        if step.stop() == Some(stop) {
            break;
        }
    }
    Ok(TurnResult {
        table: turn.table,
        events: turn.events,
        record: turn.record,
    })
}

/// Where one side's orders would take its units if nothing else moved:
/// the table after the turn's two movement phases played with those
/// orders alone (a deployment turn's placements), and the path of every
/// unit that moved, its front before, after phase 1 and after phase 2. No
/// fire, no melee, no dice: this is the order preview a confirmation
/// carries, never a turn.
pub fn preview_moves(
    table: &Table,
    orders: &TurnOrders,
    options: &GameOptions,
) -> (Table, BTreeMap<UnitId, Vec<glam::DVec2>>) {
    let mut turn = TurnState {
        table: table.clone(),
        events: Vec::new(),
        record: TurnRecord::default(),
        start: table.clone(),
        morale: morale::Tally::default(),
        melee_orders: BTreeMap::new(),
    };
    let fronts = |t: &Table| -> BTreeMap<UnitId, glam::DVec2> {
        t.units
            .iter()
            .map(|(id, u)| (id.clone(), u.front))
            .collect()
    };
    let mut stages = vec![fronts(table)];
    if table.turn == 0 {
        deploy::step(&mut turn.table, options, orders, &mut turn.events);
        stages.push(fronts(&turn.table));
    } else {
        leaders::orders(&mut turn, orders);
        for phase in [Phase::One, Phase::Two] {
            movement::phase(&mut turn, orders, options, phase);
            stages.push(fronts(&turn.table));
        }
    }
    let mut paths = BTreeMap::new();
    for id in table.units.keys() {
        let mut path: Vec<glam::DVec2> = Vec::new();
        for p in stages.iter().filter_map(|s| s.get(id)) {
            if path.last().is_none_or(|l| l.distance(*p) > 0.1) {
                path.push(*p);
            }
        }
        if path.len() > 1 {
            paths.insert(id.clone(), path);
        }
    }
    (turn.table, paths)
}

/// Roll one die and report it as an event: the only way steps roll dice.
///
/// # Errors
/// As [`Dice::roll`].
pub fn roll(dice: &mut dyn Dice, key: DiceKey, events: &mut Vec<Event>) -> Result<u8, DiceError> {
    let value = dice.roll(&key)?;
    events.push(Event::DieRolled {
        key: key.to_string(),
        value,
    });
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::dice::ScriptedDice;

    #[test]
    fn stops_parse_and_rolls_are_events() {
        assert_eq!(
            "phase2-move".parse::<StopAfter>().unwrap(),
            StopAfter::Phase2Move
        );
        assert!("phase3".parse::<StopAfter>().is_err());
        let mut dice = ScriptedDice::new([("melee:a".to_string(), 3)].into());
        let mut events = Vec::new();
        assert_eq!(
            roll(&mut dice, DiceKey::Melee { unit: "a".into() }, &mut events),
            Ok(3)
        );
        assert_eq!(
            events,
            vec![Event::DieRolled {
                key: "melee:a".into(),
                value: 3
            }]
        );
    }
}
