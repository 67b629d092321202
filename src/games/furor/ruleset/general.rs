//! The umpire's general at the post office's table (issue 42): the sheet
//! the balance lab's general (`sim::general`) writes for the round a game
//! waits for, as a player would mail it.
//!
//! - In a set-up round, the scenario's own set-up written out, counter by
//!   counter (`place salian-4a in 0806`): what a player who wrote nothing
//!   would stand in (FB-17), but shown in the report's orders given.
//! - In its player-turn, its orders for the turn, then its standing
//!   reactions for the other player's turn to come (§15: they hold until
//!   replaced), both judged on the board as it stands.
//!
//! A general plays whole player-turns and answers no questions: a game
//! with `split_turn` or `ask_owner` is refused one ([`plays`]).

use super::state::{stored, Stored};
use crate::games::furor::board::SideId;
use crate::games::furor::options::Options;
use crate::games::furor::sim::general::{player_turn, standing};
use crate::games::{read, Json, RulesetError};
use crate::sim::Style;
use std::fmt::Write as _;

/// Whether a general can play a side under these house rules.
pub(super) fn plays(options: &Json) -> Result<(), String> {
    let options: Options = read("the options", options).map_err(|e| e.to_string())?;
    let refused = [
        (options.split_turn, "split_turn"),
        (options.ask_owner, "ask_owner"),
    ];
    match refused.iter().find(|(on, _)| *on) {
        Some((_, name)) => Err(format!(
            "the umpire's general plays whole player-turns and answers no questions: turn `{name}` off in [options] for a game with a general"
        )),
        None => Ok(()),
    }
}

/// `side`'s sheet for the round `state` waits for.
pub(super) fn sheet(state: &Json, side: &str, style: Style) -> Result<String, RulesetError> {
    let id = SideId::from(side);
    let mut out = String::new();
    match stored(state)? {
        Stored::Setup { setup } => {
            let scenario = setup.scenario()?;
            for (counter, hex) in scenario.default_placement(&id) {
                let _ = writeln!(out, "place {} in {hex}", counter.0);
            }
        }
        Stored::Play(state) => {
            if *state.board.phasing() == id {
                out.push_str(&player_turn(&state.board, &state.options, style));
            }
            out.push_str(&standing(&state.board, &state.options, &id, style));
        }
    }
    Ok(out)
}
