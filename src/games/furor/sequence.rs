//! The game sequence (§4) and the engine's entry point. A game turn is
//! player 1's movement and combat, player 2's movement and combat, the
//! victory check (phase 5) and the turn marker (phase 6); what a scenario
//! does "at the beginning of each turn" comes before phase 1 (O1).
//! [`resolve`] plays the phasing player's turn on a board — a pure
//! function of the board, the orders, the other player's reactions, the
//! options and the dice — and returns the new board and the events.
//!
//! ```
//! use umpire::games::furor::sequence::{resolve, StopAfter};
//! use umpire::games::furor::orders::{PlayerTurnOrders, Reactions};
//! use umpire::games::furor::options::Options;
//! use umpire::dice::ScriptedDice;
//! # use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # let map = Map::from_spec(&MapSpec { columns: 12, rows: 15, ..MapSpec::default() }).unwrap();
//! # let u = |id: &str, side: &str, hex: &str| UnitSpec { id: id.into(), side: side.into(), kind: "infantry".into(), strength: 3, reduced: Some(2), hex: Some(hex.into()), ..UnitSpec::default() };
//! # let board = Board::from_spec(BoardSpec { map, units: vec![u("salian", "franks", "0510"), u("militia", "romans", "0507")], ..BoardSpec::default() }).unwrap();
//! let orders = PlayerTurnOrders { moves: vec![umpire::games::furor::orders::Move::path("salian", &["0509", "0508"])], ..Default::default() };
//! let r = resolve(&board, &orders, &Reactions::default(), &Options::default(), &mut ScriptedDice::default(), StopAfter::PlayerTurn).unwrap();
//! assert_eq!(r.board.unit(&"salian".into()).unwrap().hex, Some("0508".parse().unwrap()));
//! assert_eq!(r.board.phasing().as_str(), "romans");
//! ```

use crate::dice::Dice;
use crate::games::furor::ask::Pause;
use crate::games::furor::board::{Board, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{Event, Phase};
use crate::games::furor::options::Options;
use crate::games::furor::orders::{PlayerTurnOrders, Reactions};
use crate::games::furor::play::Play;
use crate::games::furor::special::{chararic, divine_help};
use crate::games::furor::{combat, movement, victory};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::str::FromStr;

/// Where to stop: after the phasing player's movement, after his combat,
/// at the end of his player-turn (for player 2 that includes phases 5
/// and 6), or at the end of the game turn (the rest played without orders).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopAfter {
    Movement,
    Combat,
    PlayerTurn,
    GameTurn,
}

impl FromStr for StopAfter {
    type Err = String;
    fn from_str(s: &str) -> Result<StopAfter, String> {
        Ok(match s {
            "movement" => StopAfter::Movement,
            "combat" => StopAfter::Combat,
            "player-turn" => StopAfter::PlayerTurn,
            "game-turn" => StopAfter::GameTurn,
            other => {
                return Err(format!(
                    "stop_after '{other}' is not movement, combat, player-turn or game-turn"
                ))
            }
        })
    }
}

/// The new board and what happened, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    pub board: Board,
    pub events: Vec<Event>,
    /// With `ask_owner`, the first choice the other player was not asked
    /// about (counted within the player-turn, after the turn's start): what
    /// follows it was played with the default (FB-19).
    #[serde(skip)]
    pub pause: Option<Pause>,
}

impl Resolution {
    fn of(play: Play<'_>) -> Resolution {
        Resolution {
            board: play.board,
            events: play.events,
            pause: play.pause,
        }
    }
}

/// Play the phasing player's turn (§4).
///
/// # Errors
/// Orders naming counters the board does not have, a finished game, or a
/// dice source that cannot answer (a scripted die missing).
pub fn resolve(
    board: &Board,
    orders: &PlayerTurnOrders,
    reactions: &Reactions,
    options: &Options,
    dice: &mut dyn Dice,
    stop_after: StopAfter,
) -> Result<Resolution, EngineError> {
    if board.is_over() {
        return Err(EngineError::GameOver);
    }
    if let Some(unknown) = orders
        .named_units()
        .into_iter()
        .find(|u| board.unit(u).is_none())
    {
        return Err(EngineError::UnknownUnit(unknown.clone()));
    }
    let mut events = Vec::new();
    let mut board = board.clone();
    if !board.turn_started && board.next == 0 {
        let r = begin_turn(&board, options, dice)?;
        board = r.board;
        events.extend(r.events);
    }
    let first = board.next;
    let r = player_turn(board, orders, reactions, options, dice, stop_after)?;
    let (mut board, more, pause) = (r.board, r.events, r.pause);
    events.extend(more);
    if stop_after == StopAfter::GameTurn {
        let empty = PlayerTurnOrders::default();
        while board.next > first && !board.is_over() {
            let r = player_turn(
                board,
                &empty,
                reactions,
                options,
                dice,
                StopAfter::PlayerTurn,
            )?;
            board = r.board;
            events.extend(r.events);
        }
    }
    Ok(Resolution {
        board,
        events,
        pause,
    })
}

/// The start of a game turn, before phase 1 (O1): the turn's effects come
/// into force, Chararic rolls (Soissons). The post office may call it
/// straight after player 2's turn so both players see its rolls; `resolve`
/// calls it if nobody has.
///
/// # Errors
/// A dice source that cannot answer.
pub fn begin_turn(
    board: &Board,
    options: &Options,
    dice: &mut dyn Dice,
) -> Result<Resolution, EngineError> {
    let orders = PlayerTurnOrders::default();
    let reactions = Reactions::default();
    let mut play = Play::new(board.clone(), &orders, &reactions, options, dice);
    if play.board.turn_started {
        return Ok(Resolution::of(play));
    }
    let turn = play.board.turn;
    play.board.turn_started = true;
    play.board.memory.effects.retain(|e| e.turn >= turn);
    play.emit(Event::TurnBegins { turn });
    if let Some(rule) = play.board.rules.divine_help.clone() {
        if play.board.memory.divine_help_turn == Some(turn) {
            play.emit(Event::DivineHelpInForce {
                turn,
                side: rule.franks,
            });
        }
    }
    chararic::start_of_turn(&mut play)?;
    Ok(Resolution::of(play))
}

fn player_turn(
    board: Board,
    orders: &PlayerTurnOrders,
    reactions: &Reactions,
    options: &Options,
    dice: &mut dyn Dice,
    stop_after: StopAfter,
) -> Result<Resolution, EngineError> {
    let mut play = Play::new(board, orders, reactions, options, dice);
    movement_phase(&mut play)?;
    if stop_after == StopAfter::Movement {
        return Ok(Resolution::of(play));
    }
    // The Charge markers stay from the move to the combat (§9.2).
    let charges = std::mem::take(&mut play.tally.charges);
    play.new_phase();
    play.tally.charges = charges;
    combat_and_end(play, stop_after)
}

/// The phasing player's movement phase: his moves in the written order.
fn movement_phase(play: &mut Play<'_>) -> Result<(), EngineError> {
    play.emit(Event::PhaseBegins {
        turn: play.board.turn,
        phase: Phase::Movement,
        side: play.side.clone(),
    });
    let orders = play.orders;
    for mv in &orders.moves {
        movement::carry_out(play, mv)?;
    }
    Ok(())
}

/// The combat phase, then the end of the player-turn (the next player, or
/// phases 5 and 6 after the last).
fn combat_and_end(mut play: Play<'_>, stop_after: StopAfter) -> Result<Resolution, EngineError> {
    play.emit(Event::PhaseBegins {
        turn: play.board.turn,
        phase: Phase::Combat,
        side: play.side.clone(),
    });
    combat::phase(&mut play)?;
    if stop_after == StopAfter::Combat {
        return Ok(Resolution::of(play));
    }
    if play.board.next + 1 < play.board.players.len() {
        play.board.next += 1;
    } else {
        end_of_turn(&mut play);
    }
    Ok(Resolution::of(play))
}

/// The Charge markers on the board after a movement phase: each charging
/// unit and its target (§9.2), kept for the combat phase.
pub type Charges = BTreeMap<UnitId, UnitId>;

/// The phasing player's movement phase alone, the first of the two
/// exchanges of the `split_turn` option (§15): the turn's start first if
/// nobody has played it, then the moves. Returns the board, the events and
/// the Charge markers for [`resolve_combat`].
///
/// # Errors
/// As [`resolve`].
pub fn resolve_movement(
    board: &Board,
    orders: &PlayerTurnOrders,
    reactions: &Reactions,
    options: &Options,
    dice: &mut dyn Dice,
) -> Result<(Resolution, Charges), EngineError> {
    if board.is_over() {
        return Err(EngineError::GameOver);
    }
    if let Some(unknown) = orders
        .named_units()
        .into_iter()
        .find(|u| board.unit(u).is_none())
    {
        return Err(EngineError::UnknownUnit(unknown.clone()));
    }
    let mut events = Vec::new();
    let mut board = board.clone();
    if !board.turn_started && board.next == 0 {
        let r = begin_turn(&board, options, dice)?;
        board = r.board;
        events.extend(r.events);
    }
    let mut play = Play::new(board, orders, reactions, options, dice);
    movement_phase(&mut play)?;
    let charges = std::mem::take(&mut play.tally.charges);
    let mut r = Resolution::of(play);
    events.append(&mut r.events);
    r.events = events;
    Ok((r, charges))
}

/// The phasing player's combat phase and the end of his player-turn, the
/// second exchange of `split_turn`: on the board [`resolve_movement`] left,
/// with its Charge markers.
///
/// # Errors
/// As [`resolve`].
pub fn resolve_combat(
    board: &Board,
    orders: &PlayerTurnOrders,
    reactions: &Reactions,
    options: &Options,
    dice: &mut dyn Dice,
    charges: &Charges,
) -> Result<Resolution, EngineError> {
    if board.is_over() {
        return Err(EngineError::GameOver);
    }
    if let Some(unknown) = orders
        .named_units()
        .into_iter()
        .find(|u| board.unit(u).is_none())
    {
        return Err(EngineError::UnknownUnit(unknown.clone()));
    }
    let mut play = Play::new(board.clone(), orders, reactions, options, dice);
    play.tally.charges = charges.clone();
    combat_and_end(play, StopAfter::PlayerTurn)
}

/// Phases 5 and 6: the victory check and the turn marker.
fn end_of_turn(play: &mut Play) {
    let turn = play.board.turn;
    divine_help::phase_five(play);
    let outcome = victory::threshold_test(&play.board);
    play.emit(Event::VictoryCheck {
        turn,
        totals: victory::totals(&play.board),
        outcome: outcome.clone(),
    });
    let outcome = outcome.or_else(|| {
        (play.board.last_turn == Some(turn)).then(|| victory::end_of_game(&play.board))
    });
    play.emit(Event::TurnEnds { turn });
    match outcome {
        Some(o) => {
            play.board.outcome = Some(o.clone());
            play.emit(Event::GameOver { outcome: o });
        }
        None => {
            play.board.turn += 1;
            play.board.next = 0;
            play.board.turn_started = false;
        }
    }
}
