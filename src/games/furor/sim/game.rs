//! One simulated game, from its seed to its outcome: the first player
//! (rolled at Campus Mauriacus with the game's eve seed), the opening
//! board as the scenario lists it, then player-turn after player-turn the
//! other general writes its standing reactions and the phasing general its
//! orders, both sheets are read and checked as a player's mail is
//! (`orders::check`), the reactions stand unit by unit until replaced
//! (`ruleset::overlay`, §15), and the engine plays the player-turn
//! (`sequence::resolve`) with the dice of the player-turn's seed, until
//! the game is over (§10, §12).
//!
//! A line the checker refuses is a bug in the general: it is counted in
//! the [`Outcome`] with the diagnostic as a player would read it, and the
//! rest of the sheet is played (as a player's refused line is not taken).
//!
//! ```
//! use umpire::games::furor::sim::game::{play, Matchup};
//! use umpire::sim::{seed::BattleSeed, Style};
//! let m = Matchup::new("soissons", [Style::Aggressive, Style::Cautious], Default::default(), None).unwrap();
//! let seed = BattleSeed::of_run(1, 0);
//! let once = play(&m, seed, &mut |_| {}).unwrap();
//! assert_eq!(once, play(&m, seed, &mut |_| {}).unwrap());
//! assert!(once.refusals.is_empty(), "{:?}", once.refusals);
//! assert!(once.turns >= 1 && once.turns <= 6);
//! ```

use super::general;
use crate::dice::SeededDice;
use crate::games::furor::board::{Board, Outcome as Result_, SideId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::Event;
use crate::games::furor::options::Options;
use crate::games::furor::orders::check::{check, Checked};
use crate::games::furor::orders::confirm::problems;
use crate::games::furor::orders::Reactions;
use crate::games::furor::ruleset::overlay;
use crate::games::furor::scenario::{shipped, Scenario};
use crate::games::furor::sequence::{resolve, Resolution, StopAfter};
use crate::sim::seed::BattleSeed;
use crate::sim::Commander;
use serde::Serialize;
use std::collections::BTreeMap;

/// Why a game could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// An unknown scenario, or a last turn past the scenario's.
    #[error("{0}")]
    Setup(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// A shipped scenario, the two generals and the house rules.
#[derive(Debug, Clone)]
pub struct Matchup {
    /// The scenario's name (`games::furor::scenario::SCENARIOS`).
    pub name: String,
    pub scenario: Scenario,
    /// The armies in the scenario's order.
    pub sides: [SideId; 2],
    /// Who commands each army, in that order: a general, or nobody (it holds).
    pub commanders: [Commander; 2],
    pub options: Options,
    /// Play to this turn instead of the scenario's last.
    pub last_turn: Option<u8>,
}

impl Matchup {
    /// # Errors
    /// [`GameError::Setup`]: no such scenario, or a last turn past its own.
    pub fn new(
        name: &str,
        commanders: [impl Into<Commander>; 2],
        options: Options,
        last_turn: Option<u8>,
    ) -> Result<Matchup, GameError> {
        let scenario = shipped(name).map_err(|e| GameError::Setup(e.to_string()))?;
        let sides: Vec<SideId> = scenario.armies.keys().cloned().collect();
        let [a, b] = <[SideId; 2]>::try_from(sides)
            .map_err(|s| GameError::Setup(format!("{name} has {} armies, not two", s.len())))?;
        if let Some(t) = last_turn.filter(|t| *t == 0 || *t > scenario.turns) {
            return Err(GameError::Setup(format!(
                "{name} lasts {} turns: --turns {t} must be from 1 to {}",
                scenario.turns, scenario.turns
            )));
        }
        // The generals play whole player-turns; a question to the other
        // player is answered by his standing reactions.
        let options = Options {
            split_turn: false,
            ask_owner: false,
            ..options
        };
        Ok(Matchup {
            name: name.to_string(),
            scenario,
            sides: [a, b],
            commanders: commanders.map(Into::into),
            options,
            last_turn,
        })
    }

    /// The index of an army in [`Matchup::sides`].
    pub fn index(&self, side: &SideId) -> usize {
        usize::from(self.sides[0] != *side)
    }

    /// The game's last turn.
    pub fn turns(&self) -> u8 {
        self.last_turn.unwrap_or(self.scenario.turns)
    }
}

/// A line the checker refused: a bug in the general.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub turn: u8,
    pub side: String,
    /// The diagnostic as a player would read it.
    pub diagnostic: String,
}

/// Losses of one unit type in one game (or per game, in a summary).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct KindLoss {
    pub units: u32,
    pub steps: u32,
    pub steps_lost: u32,
    /// Eliminated, forced off the map or pillaged (§10).
    pub units_lost: u32,
}

/// How a game was decided (§10, §12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// This army (an index into the matchup's sides) reached its Army
    /// Morale Threshold, the other did not.
    Broke(usize),
    /// Both reached theirs: the lesser margin won, or equal margins tied.
    BothBroke,
    /// Neither: the scenario's condition at the end of its last turn.
    LastTurn,
}

/// What the generals did in a game, per army.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Conduct {
    /// Combats fought (each attack the engine made).
    pub attacks: u32,
    pub charges: u32,
    pub feigned_flights: u32,
    /// Attacks the engine skipped when they came (the board had changed).
    pub attacks_skipped: u32,
    /// Moves the engine refused when they came (a feigned flight or an
    /// impetuous rush had changed the board the sheet was checked on).
    pub moves_refused: u32,
}

/// What became of one game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub seed: String,
    /// The winner (an index into the matchup's sides), none for a tie.
    pub winner: Option<usize>,
    /// A major victory (the loser's army broke alone).
    pub major: bool,
    pub decision: Decision,
    /// The game turn it ended in.
    pub turns: u8,
    /// Who played first.
    pub first: usize,
    /// Each army's total against its threshold (§10).
    pub lost: [u16; 2],
    pub thresholds: [Option<u16>; 2],
    /// Per army, by unit type (the book's names).
    pub losses: [BTreeMap<String, KindLoss>; 2],
    pub conduct: [Conduct; 2],
    pub refusals: Vec<Refusal>,
}

/// One player-turn as it was played, for replays.
pub struct PlayerTurn<'a> {
    /// 1-based, counting both armies' player-turns.
    pub number: u32,
    pub side: &'a SideId,
    pub before: &'a Board,
    /// The phasing general's sheet, and how the checker read it.
    pub orders: &'a str,
    pub checked: &'a Checked,
    /// The other general's standing reactions, as written and as they stand.
    pub reactions_text: &'a str,
    pub reactions: &'a Reactions,
    pub resolution: &'a Resolution,
    /// The game's options (the report reads the combat table's rows by them).
    pub options: &'a Options,
}

fn refusals(text: &str, c: &Checked, turn: u8, side: &SideId, out: &mut Vec<Refusal>) {
    for d in c.diagnostics.iter().filter(|d| d.is_error()) {
        out.push(Refusal {
            turn,
            side: side.to_string(),
            diagnostic: problems(text, std::slice::from_ref(d)),
        });
    }
}

/// Play the game of `seed`, showing `observe` every player-turn.
///
/// # Errors
/// [`GameError::Engine`] when the engine cannot play a player-turn (a
/// bug: seeded dice always answer and checked orders name real counters).
pub fn play(
    m: &Matchup,
    seed: BattleSeed,
    observe: &mut dyn FnMut(&PlayerTurn<'_>),
) -> Result<Outcome, GameError> {
    let options = &m.options;
    let (first, _) = m.scenario.first_player(&mut SeededDice::new(seed.eve()))?;
    let mut board = m
        .scenario
        .start(options, &BTreeMap::new(), &first)
        .map_err(|e| GameError::Setup(e.to_string()))?;
    board.last_turn = Some(m.turns());
    let start = board.clone();
    let mut standing: BTreeMap<SideId, Reactions> = BTreeMap::new();
    let mut refused = Vec::new();
    let mut conduct = [Conduct::default(); 2];
    let mut number = 0u32;
    let most = 2 * u32::from(m.turns()) + 2;
    while let Some(side) = board.next_to_write().cloned() {
        number += 1;
        if number > most {
            return Err(GameError::Engine(EngineError::Internal(format!(
                "the game outlived its last turn at player-turn {number}"
            ))));
        }
        let i = m.index(&side);
        let other = m.sides[1 - i].clone();
        // A side that holds writes nothing: no reactions but the defaults,
        // no moves, no attacks but those the rules make for it.
        let reactions_text = match m.commanders[1 - i] {
            Commander::General(style) => general::standing(&board, options, &other, style),
            Commander::Hold => String::new(),
        };
        let r = check(&reactions_text, &other, &board, options);
        refusals(&reactions_text, &r, board.turn, &other, &mut refused);
        let reactions = standing.entry(other.clone()).or_default();
        overlay(reactions, &r.reactions);
        let orders = match m.commanders[i] {
            Commander::General(style) => general::player_turn(&board, options, style),
            Commander::Hold => String::new(),
        };
        let checked = check(&orders, &side, &board, options);
        refusals(&orders, &checked, board.turn, &side, &mut refused);
        let resolution = resolve(
            &board,
            &checked.orders,
            reactions,
            options,
            &mut SeededDice::new(seed.turn(number)),
            StopAfter::PlayerTurn,
        )?;
        count(&resolution.events, &mut conduct[i]);
        observe(&PlayerTurn {
            number,
            side: &side,
            before: &board,
            orders: &orders,
            checked: &checked,
            reactions_text: &reactions_text,
            reactions,
            resolution: &resolution,
            options,
        });
        board = resolution.board;
    }
    Ok(judge(m, seed, &start, &board, conduct, refused, &first))
}

fn count(events: &[Event], c: &mut Conduct) {
    for e in events {
        match e {
            Event::Combat { .. } => c.attacks += 1,
            Event::Moved {
                charge: Some(_), ..
            } => c.charges += 1,
            Event::FeignedFlight { .. } => c.feigned_flights += 1,
            Event::AttackSkipped { .. } => c.attacks_skipped += 1,
            Event::MoveRefused { .. } => c.moves_refused += 1,
            _ => {}
        }
    }
}

fn judge(
    m: &Matchup,
    seed: BattleSeed,
    start: &Board,
    end: &Board,
    conduct: [Conduct; 2],
    refusals: Vec<Refusal>,
    first: &SideId,
) -> Outcome {
    let lost = [0, 1].map(|i| end.lost(&m.sides[i]));
    let thresholds = [0, 1].map(|i| end.sides.get(&m.sides[i]).and_then(|s| s.threshold));
    let broke = [0, 1].map(|i| thresholds[i].is_some_and(|t| lost[i] >= t));
    let decision = match broke {
        [true, true] => Decision::BothBroke,
        [true, false] => Decision::Broke(0),
        [false, true] => Decision::Broke(1),
        [false, false] => Decision::LastTurn,
    };
    let (winner, major) = match &end.outcome {
        Some(Result_::Major(s)) => (Some(m.index(s)), true),
        Some(Result_::Minor(s)) => (Some(m.index(s)), false),
        Some(Result_::Tie) | None => (None, false),
    };
    let losses = [0, 1].map(|i| {
        let mut by: BTreeMap<String, KindLoss> = BTreeMap::new();
        for u in start.units.values().filter(|u| u.side == m.sides[i]) {
            let now = end.unit(&u.id).unwrap_or(u);
            let l = by.entry(u.kind.name().to_string()).or_default();
            l.units += 1;
            l.steps += u32::from(u.steps);
            if now.status.is_lost() {
                l.units_lost += 1;
                l.steps_lost += u32::from(u.steps);
            } else {
                l.steps_lost += u32::from(u.steps.saturating_sub(now.steps));
            }
        }
        by
    });
    Outcome {
        seed: seed.to_string(),
        winner,
        major,
        decision,
        turns: end.turn,
        first: m.index(first),
        lost,
        thresholds,
        losses,
        conduct,
        refusals,
    }
}
