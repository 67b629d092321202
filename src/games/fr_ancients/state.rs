//! The stored game: [`State`], what an FR! Ancients game is between rounds
//! (the battle at the start of the phase to play, the house rules, the
//! pack's text, and while the game master is asked the phase [`Pending`]),
//! and [`replay`], which plays that phase from its start with the dice
//! already rolled and every answer so far. The rule set's boundary
//! (`ruleset`), the deployment round and the demonstrations all read and
//! play the game through these, so there is one way to play a phase.
//!
//! ```
//! use umpire::games::fr_ancients::{demo::trebia, state::State};
//! let game = trebia(None).unwrap();
//! let stored = game.to_json().unwrap();
//! assert_eq!(State::read(&stored).unwrap().battle.turn, 1);
//! let checked = game.check_orders("rome", "Nobody: charge Hannibal\n").unwrap();
//! assert!(!checked.diagnostics.is_empty(), "no unit of that name");
//! ```

use super::desk::values::{read_values, Values};
use super::desk::{read_answers, Desk, Situation};
use super::options::Options;
use super::orders::{check, Checked, TurnOrders, Zone};
use super::pack::Pack;
use super::part::Part;
use super::questions::Base;
use super::resolve::Mixed;
use super::sequence::{run_phase, PhaseRun, Stopped};
use super::table::{Battle, SideId};
use crate::dice::{Dice, DiceError, DieKind};
use crate::games::{Json, RulesetError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game between rounds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    /// The battle at the start of the phase to play.
    pub battle: Battle,
    pub options: Options,
    /// The pack's text, when the game is played with one.
    pub pack: Option<String>,
    /// The rounds played so far (the players' and the game master's).
    pub played: u32,
    /// The last turn of the battle (the game file's `max_turns`).
    pub last_turn: u32,
    /// The phase under way while the game master is asked.
    pub pending: Option<Pending>,
    /// The base values the game master gave for the game (`VALUES`).
    #[serde(default)]
    pub values: Values,
    /// The deployment round, while it waits (option `deployment_round`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploying: Option<Deploying>,
}

/// A game waiting for its deployment round: each side's zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deploying {
    pub zones: BTreeMap<SideId, Zone>,
}

/// A phase stopped for the game master.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pending {
    /// The phase's orders, as they stood when it was first played.
    pub orders: TurnOrders,
    /// The game master's answers so far, in order, as he wrote them: the
    /// phase is replayed reading each against the situation it answered.
    pub answers: Vec<String>,
    /// Every die rolled in the phase so far, with the round whose seed
    /// rolled it: a replay rolls them again from here.
    pub rolled: BTreeMap<String, Rolled>,
    /// The part the phase stopped at, and the situation mailed.
    pub part: Part,
    pub situation: String,
    /// The values the phase is played with: those of its start, so that
    /// every answer given keeps meaning what it said when the phase is
    /// replayed (values given meanwhile hold from the next phase).
    #[serde(default)]
    pub values: Values,
}

/// One die of a phase under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    pub value: u8,
    pub round: u32,
}

/// A value as the post office stores it.
pub(super) fn json<T: Serialize>(value: &T) -> Result<Json, RulesetError> {
    serde_json::to_value(value).map_err(|e| RulesetError::Corrupt(e.to_string()))
}

impl State {
    /// A stored game read back.
    ///
    /// # Errors
    /// When the JSON is not an FR! Ancients game's.
    pub fn read(state: &Json) -> Result<State, RulesetError> {
        crate::games::read("the game", state)
    }

    /// The game as the post office stores it.
    ///
    /// # Errors
    /// Never for a state read or started here.
    pub fn to_json(&self) -> Result<Json, RulesetError> {
        json(self)
    }

    /// Check one player's orders against the battle as it stands.
    ///
    /// # Errors
    /// When the stored pack cannot be read.
    pub fn check_orders(&self, side: &str, text: &str) -> Result<Checked, RulesetError> {
        let pack = self.pack()?;
        Ok(check(
            &self.battle,
            side,
            text,
            pack.as_ref(),
            &self.options,
        ))
    }

    pub(super) fn pack(&self) -> Result<Option<Pack>, RulesetError> {
        self.pack
            .as_deref()
            .map(Pack::from_toml)
            .transpose()
            .map_err(|e| RulesetError::Corrupt(format!("the pack: {}", e.join("; "))))
    }

    /// Where the pack ends the battle on the clock, when there is a pack.
    pub(super) fn ends_at(&self) -> Result<Option<i32>, RulesetError> {
        Ok(self.pack()?.as_ref().and_then(Pack::ends_at))
    }

    /// The report line naming the base rules.
    pub(super) fn base_rules(&self) -> Result<String, RulesetError> {
        Ok(match self.pack()? {
            Some(p) => format!(
                "Pack: {} (sha256 {}){}{}",
                p.name,
                p.hash,
                if p.stand_in {
                    " — stand-in rules, not FR!"
                } else {
                    ""
                },
                p.division().map(|d| format!("; {d}")).unwrap_or_default()
            ),
            None => "No pack: the game master resolves the base rules.".to_string(),
        })
    }
}

/// Dice for a replay: the phase's dice already rolled, then the round's
/// own; every roll written down with whether it is new.
struct Replay<'a> {
    rolled: &'a BTreeMap<String, Rolled>,
    fresh: &'a mut dyn Dice,
    rolls: Vec<(String, u8, Option<u32>)>,
}

impl Dice for Replay<'_> {
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError> {
        let (v, earlier) = match self.rolled.get(key) {
            Some(r) => (r.value, Some(r.round)),
            None => (self.fresh.roll_die(key, die)?, None),
        };
        self.rolls.push((key.to_string(), v, earlier));
        Ok(v)
    }
}

/// What replaying a phase came to.
pub(super) struct Replayed {
    pub run: PhaseRun,
    pub rolls: Vec<(String, u8, Option<u32>)>,
    /// The situation the run stopped at, when it did.
    pub situation: Option<Situation>,
}

/// Play the state's phase from its start with `answers` (read in order,
/// each against the situation it answers) and the dice.
pub(super) fn replay(
    state: &State,
    orders: &TurnOrders,
    answers: &[String],
    rolled: &BTreeMap<String, Rolled>,
    fresh: &mut dyn Dice,
) -> Result<Replayed, RulesetError> {
    let pack = state.pack()?;
    let mut battle = state.battle.clone();
    state
        .pending
        .as_ref()
        .map_or(&state.values, |p| &p.values)
        .apply(&mut battle);
    let mut desk = Desk::for_game(&battle, &state.options);
    let engine = |e: DiceError| RulesetError::Engine(e.to_string());
    let mut n = 0;
    loop {
        let mut dice = Replay {
            rolled,
            fresh: &mut *fresh,
            rolls: Vec::new(),
        };
        let mut answers_so_far = desk.clone();
        let mut mixed;
        let base: &mut dyn Base = match pack.as_ref() {
            Some(p) => {
                mixed = Mixed::new(p, &mut answers_so_far);
                &mut mixed
            }
            None => &mut answers_so_far,
        };
        let run = run_phase(
            &battle,
            orders,
            &state.options,
            pack.as_ref(),
            base,
            &mut dice,
            Part::EndOfPhase,
        )
        .map_err(engine)?;
        let rolls = dice.rolls;
        let situation = match &run.stopped {
            Stopped::Done => None,
            Stopped::Gm { part, questions } => {
                Some(Situation::new(&run.battle, *part, questions.clone(), None))
            }
        };
        match (&situation, answers.get(n)) {
            (Some(s), Some(text)) => {
                let answers = read_values(Some(&run.battle), text).rest;
                let reading = read_answers(s, &run.battle, &answers);
                desk.take(s, reading.answers);
                n += 1;
            }
            _ => {
                return Ok(Replayed {
                    run,
                    rolls,
                    situation,
                })
            }
        }
    }
}
