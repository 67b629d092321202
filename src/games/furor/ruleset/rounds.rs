//! Round numbering: a battle's round is one per player-turn (two with
//! `split_turn`: the moves, then the attacks), numbered on from the set-up
//! rounds, with each question to the other player a round of its own.

use super::state::State;
use crate::games::furor::board::SideId;
use crate::games::furor::orders::check::Exchange;
use crate::games::Round;
use std::fmt::Write as _;

/// The round a battle waits for: one per player-turn (two with
/// `split_turn`: the moves, then the attacks), numbered on from the set-up
/// rounds.
pub(super) fn round_of(state: &State) -> Round {
    let board = &state.board;
    let players = board.players.len().max(1) as u32;
    let player_turn = (u32::from(board.turn.max(1)) - 1) * players + board.next as u32;
    let (exchanges, second) = match (state.options.split_turn, &state.moved) {
        (false, _) => (1, 0),
        (true, moved) => (2, u32::from(moved.is_some())),
    };
    let number = state.setup_rounds + player_turn * exchanges + second + state.questions + 1;
    let side = board.phasing().clone();
    let mut label = match (state.options.split_turn, &state.moved) {
        (false, _) => format!("turn {}, {}", board.turn, side),
        (true, None) => format!("turn {}, {}, moves", board.turn, side),
        (true, Some(_)) => format!("turn {}, {}, attacks", board.turn, side),
    };
    let mut writers = vec![side.0];
    if let Some(answers) = state.asked.as_ref().and(answering(state)) {
        let _ = write!(label, ": the {answers}' answer");
        writers = vec![answers.0];
    }
    Round {
        number,
        label,
        writers,
        game_master: None,
    }
}

/// Which exchange of the player-turn a battle state waits for.
pub(super) fn exchange_of(state: &State) -> Exchange {
    match (state.options.split_turn, &state.moved) {
        (false, _) => Exchange::Whole,
        (true, None) => Exchange::Moves,
        (true, Some(_)) => Exchange::Attacks,
    }
}

/// The side that answers a question: the other player.
pub fn answering(state: &State) -> Option<SideId> {
    state.board.opponent(state.board.phasing()).cloned()
}
