//! The game as stored between rounds: the battle's [`State`] (the board,
//! the standing reactions, what a split or questioned player-turn keeps)
//! and, before it, the set-up rounds' [`Deployment`]; the JSON they are
//! read from and written as.

use crate::games::furor::ask::Question;
use crate::games::furor::board::{Board, SideId, UnitId};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::Options;
use crate::games::furor::orders::{DefenderAdvance, PlayerTurnOrders, Reactions};
use crate::games::furor::rules::Kind;
use crate::games::furor::scenario::{Placement, Scenario};
use crate::games::furor::sequence::Charges;
use crate::games::{read, Json, Round, RulesetError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A game between player-turns: the board and each side's standing
/// reactions for the other's turns.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    pub board: Board,
    /// The game's house rules, which the checker needs as the engine does.
    #[serde(default)]
    pub options: Options,
    #[serde(default)]
    pub standing: BTreeMap<SideId, Reactions>,
    /// How many set-up rounds came before the battle (round numbers go on
    /// from them; games stored before set-up rounds had none).
    #[serde(default)]
    pub setup_rounds: u32,
    /// Under `split_turn`, between the phasing player's two exchanges: his
    /// moves are played and his attacks awaited (absent otherwise, so the
    /// states of games without the option are stored as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<Moved>,
    /// Under `ask_owner`, a player-turn stopped at a question to the other
    /// player (FB-19).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
    /// How many questions the game has asked so far: each was a round.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub questions: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl State {
    /// A battle about to begin, with no standing reactions yet.
    pub(super) fn new(board: Board, options: Options, setup_rounds: u32) -> State {
        State {
            board,
            options,
            standing: BTreeMap::new(),
            setup_rounds,
            moved: None,
            asked: None,
            questions: 0,
        }
    }
}

/// What the moves' exchange of a split player-turn leaves for the attacks'
/// (§15 `split-turn`): the Charge markers, and the phasing player's own
/// retreat and impetuous-route choices from his moves' mail, which stand
/// unless the attacks' mail replaces them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Moved {
    pub charges: Charges,
    #[serde(default)]
    pub retreat: BTreeMap<UnitId, Vec<Hex>>,
    #[serde(default)]
    pub impetuous_routes: BTreeMap<UnitId, Vec<Hex>>,
}

/// A player-turn stopped at a question to the other player.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Asked {
    /// The board the player-turn started from (after the turn's start).
    pub start: Board,
    /// The phasing player's orders for it.
    pub orders: PlayerTurnOrders,
    /// The other player's reactions as they stood when it began, with his
    /// answers to the earlier questions of the turn.
    pub reactions: Reactions,
    /// The player-turn's rolls before the question, in order.
    pub dice: Vec<(String, u8)>,
    /// How many of the player-turn's events the reports have told.
    pub shown: usize,
    /// The occasion asked about (`retreat:UNIT:K`) and the question.
    pub key: String,
    pub question: Question,
}

/// The set-up rounds under way: what the board is built from when the
/// last of them is played.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Deployment {
    /// The scenario and map files as the game was created from them.
    pub scenario: String,
    pub map: String,
    pub options: Options,
    pub last_turn: u8,
    /// The set-up rounds played by mail, in order: the scenario's, without
    /// the sides that have nothing to choose.
    pub rounds: Vec<Vec<SideId>>,
    /// How many of them are played.
    pub done: usize,
    /// Each side's whole set-up, once its round is played.
    pub placements: BTreeMap<SideId, Placement>,
    /// The first player, when known before the set-up (a scenario that
    /// names him, or O31's option to roll first).
    pub first: Option<SideId>,
}

/// A game as stored: its set-up, then the battle.
// Read once per call and dropped: boxing the board would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub(super) enum Stored {
    Setup { setup: Deployment },
    Play(State),
}

/// The stored game (a bare board and reactions, as games were stored before
/// set-up rounds, is a battle).
pub(super) fn stored(state: &Json) -> Result<Stored, RulesetError> {
    match state.get("setup") {
        Some(d) => Ok(Stored::Setup {
            setup: read("the set-up", d)?,
        }),
        None => Ok(Stored::Play(read("the board", state)?)),
    }
}

/// A side's checked mail in a set-up round: the counters it placed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(super) struct SetupOrders {
    pub(super) placement: Placement,
}

impl Deployment {
    pub(super) fn scenario(&self) -> Result<Scenario, RulesetError> {
        Scenario::parse(&self.scenario, &self.map)
            .map_err(|e| RulesetError::Corrupt(format!("the scenario: {e}")))
    }

    pub(super) fn writers(&self) -> &[SideId] {
        self.rounds.get(self.done).map_or(&[], Vec::as_slice)
    }

    pub(super) fn round(&self) -> Round {
        let writers: Vec<String> = self.writers().iter().map(|s| s.0.clone()).collect();
        Round {
            number: self.done as u32 + 1,
            label: format!("set-up, {}", writers.join(" and ")),
            writers,
            game_master: None,
        }
    }

    /// The board as the scenario lists it, for reading names.
    pub(super) fn listed(&self, scenario: &Scenario) -> Result<Board, RulesetError> {
        let any = scenario
            .armies
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(|| SideId::from(""));
        scenario
            .start(&self.options, &BTreeMap::new(), &any)
            .map_err(|e| RulesetError::Corrupt(e.to_string()))
    }

    /// The board as placed so far, as every player may see it: the sides
    /// still to set up are not shown, nor sealed commanders before the end.
    pub(super) fn shown(&self, scenario: &Scenario) -> Result<Board, RulesetError> {
        let any = scenario
            .armies
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(|| SideId::from(""));
        let mut board = scenario
            .start(&self.options, &self.placements, &any)
            .map_err(|e| RulesetError::Corrupt(e.to_string()))?;
        for u in board.units.values_mut() {
            let to_come = self.rounds.iter().flatten().any(|s| s == &u.side)
                && !self.placements.contains_key(&u.side);
            if to_come || (scenario.sealed_commanders && u.kind == Kind::Commander) {
                u.hex = None;
            }
        }
        Ok(board)
    }

    /// The opening board, once every set-up round is played.
    pub(super) fn build(&self, scenario: &Scenario, first: &SideId) -> Result<State, RulesetError> {
        let mut board = scenario
            .start(&self.options, &self.placements, first)
            .map_err(|e| RulesetError::Corrupt(e.to_string()))?;
        board.last_turn = Some(self.last_turn);
        Ok(State::new(
            board,
            self.options.clone(),
            self.rounds.len() as u32,
        ))
    }
}

/// One side's checked mail: its player-turn's orders (empty when it is not
/// its turn) and the standing reactions it wrote.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SideOrders {
    pub turn: PlayerTurnOrders,
    pub reactions: Reactions,
}

pub(super) fn json<T: Serialize>(value: &T) -> Result<Json, RulesetError> {
    serde_json::to_value(value).map_err(|e| RulesetError::Corrupt(e.to_string()))
}

/// Standing reactions overlaid unit by unit: what `new` writes replaces
/// what stood for that unit; the rest stands (§15 "valid until replaced").
pub fn overlay(standing: &mut Reactions, new: &Reactions) {
    standing.retreat.extend(new.retreat.clone());
    standing.losses.extend(new.losses.clone());
    standing.evasion.extend(new.evasion.clone());
    standing
        .impetuous_routes
        .extend(new.impetuous_routes.clone());
    if new.advance != DefenderAdvance::None || new.advance_commander {
        standing.advance = new.advance.clone();
        standing.advance_commander = new.advance_commander;
    }
}
