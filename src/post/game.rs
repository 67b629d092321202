//! A game as the post office works with it: its stored row, its rule set,
//! its time zone, and the round it is waiting for.

use super::PostError;
use crate::games::{self, Json, Round, Ruleset};
use crate::store::games::{self as rows, GameRow, SideRow};
use crate::store::{rounds, submissions, Transaction};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use std::sync::OnceLock;

/// One game, loaded.
///
/// The round its state waits for is read from the state the first time it
/// is asked and kept with the game: a message's handling asks it several
/// times (might it be played, is the mail for it, is it complete), and
/// each reading parses the whole table (issue 24). The round is the rule
/// set's function of the state alone, so the state is changed only through
/// [`Game::set_state`], which forgets it.
#[derive(Clone)]
pub struct Game {
    /// The stored row. Its `state` is changed by [`Game::set_state`] only.
    pub row: GameRow,
    pub ruleset: &'static dyn Ruleset,
    pub tz: Tz,
    /// The round `row.state` waits for, once read.
    round: OnceLock<Round>,
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("row", &self.row)
            .field("ruleset", &self.ruleset.name())
            .finish()
    }
}

impl Game {
    /// Load a game by id (matched ignoring case).
    ///
    /// # Errors
    /// On database errors, a damaged row, or a rule set this umpire does not judge.
    pub fn load(tx: &Transaction<'_>, id: &str) -> Result<Option<Game>, PostError> {
        Self::of_row(rows::load(tx, id)?)
    }

    /// [`Game::load`], its row locked until the transaction ends
    /// (`store::games::load_locked`): the first reading of a game in a message's
    /// handling or a round's play, before anything else of it is read, so
    /// that two workers never handle one game's mail or round at once.
    ///
    /// # Errors
    /// As [`Game::load`].
    pub fn lock(tx: &Transaction<'_>, id: &str) -> Result<Option<Game>, PostError> {
        Self::lock_for(tx, id, None)
    }

    /// [`Game::lock`], for a `sender`'s mail: (the side it names, its
    /// address). What the handling reads next of the game (and of that
    /// side) is read ahead (`store::games::read_ahead_locked`).
    pub fn lock_for(
        tx: &Transaction<'_>,
        id: &str,
        sender: Option<(&str, &str)>,
    ) -> Result<Option<Game>, PostError> {
        let game = Self::of_row(rows::load_locked(tx, id)?)?;
        if let Some(game) = &game {
            rows::read_ahead_locked(tx, game.id(), game.row.round, sender)?;
        }
        Ok(game)
    }

    /// The game of a row perhaps read.
    fn of_row(row: Option<GameRow>) -> Result<Option<Game>, PostError> {
        let Some(row) = row else {
            return Ok(None);
        };
        let ruleset = games::named(&row.ruleset)
            .map_err(|e| PostError::Corrupt(format!("game {}: {e}", row.id)))?;
        let tz = row.timezone.parse().map_err(|_| {
            PostError::Corrupt(format!("game {} time zone {}", row.id, row.timezone))
        })?;
        Ok(Some(Game::new(row, ruleset, tz)))
    }

    /// A game of a row already read, its round not read yet.
    pub fn new(row: GameRow, ruleset: &'static dyn Ruleset, tz: Tz) -> Game {
        Game {
            row,
            ruleset,
            tz,
            round: OnceLock::new(),
        }
    }

    /// Give the game a new state (not yet saved): the round it waits for
    /// is read from it when next asked.
    pub fn set_state(&mut self, state: String) {
        self.row.state = state;
        self.round = OnceLock::new();
    }

    pub fn id(&self) -> &str {
        &self.row.id
    }

    /// The rule set's state, parsed.
    ///
    /// # Errors
    /// When the stored state is not JSON.
    pub fn state(&self) -> Result<Json, PostError> {
        serde_json::from_str(&self.row.state)
            .map_err(|e| PostError::Corrupt(format!("game {} state: {e}", self.row.id)))
    }

    /// The rule set's options, parsed.
    ///
    /// # Errors
    /// When the stored options are not JSON.
    pub fn options(&self) -> Result<Json, PostError> {
        serde_json::from_str(&self.row.options)
            .map_err(|e| PostError::Corrupt(format!("game {} options: {e}", self.row.id)))
    }

    /// The round the game is waiting for.
    ///
    /// # Errors
    /// When the stored state cannot be read.
    pub fn round(&self) -> Result<Round, PostError> {
        if let Some(round) = self.round.get() {
            return Ok(round.clone());
        }
        let round = self.ruleset.round(&self.state()?)?;
        Ok(self.round.get_or_init(|| round).clone())
    }

    /// The hours a round lasts, deadline to deadline: the game master's
    /// `gm_hours` for a round he answers (when the game file gives them),
    /// else the players' `turn_hours`.
    pub fn hours_of(&self, round: &Round) -> u32 {
        match (&round.game_master, self.row.gm_hours) {
            (Some(_), Some(h)) => h,
            _ => self.row.turn_hours,
        }
    }

    /// The hours the round waiting now lasts ([`Game::hours_of`]).
    ///
    /// # Errors
    /// When the stored state cannot be read.
    pub fn round_hours(&self) -> Result<u32, PostError> {
        Ok(self.hours_of(&self.round()?))
    }

    /// The sides, in id order.
    ///
    /// # Errors
    /// On database errors.
    pub fn sides(&self, tx: &Transaction<'_>) -> Result<Vec<SideRow>, PostError> {
        Ok(rows::sides(tx, &self.row.id)?)
    }

    /// Sides that have orders in for the current round.
    ///
    /// # Errors
    /// On database errors.
    pub fn sides_in(&self, tx: &Transaction<'_>) -> Result<Vec<String>, PostError> {
        Ok(submissions::sides_in(tx, &self.row.id, self.row.round)?)
    }

    /// The sides whose orders for the current round let it be played now.
    pub fn sides_ready(&self, tx: &Transaction<'_>) -> Result<Vec<String>, PostError> {
        Ok(submissions::sides_ready(tx, &self.row.id, self.row.round)?)
    }

    /// The deadline as players read it.
    pub fn deadline_text(&self) -> String {
        super::gamefile::show_deadline(self.row.deadline, self.tz)
    }

    /// The deadline as one side's player reads it: in their own time zone,
    /// the game's beside it.
    pub fn deadline_for(&self, side: &SideRow) -> String {
        self.time_for(self.row.deadline, side)
    }

    /// Any time as one side's player reads it.
    pub fn time_for(&self, t: DateTime<Utc>, side: &SideRow) -> String {
        let own = side
            .timezone
            .as_deref()
            .and_then(|z| super::gamefile::zone(z).ok());
        super::gamefile::show_deadline_for(t, self.tz, own)
    }

    pub fn deadline(&self) -> DateTime<Utc> {
        self.row.deadline
    }

    /// The seed of the current round and its published hash.
    ///
    /// # Errors
    /// On database errors, or when the round was never opened.
    pub fn seed(&self, tx: &Transaction<'_>) -> Result<(String, String), PostError> {
        rounds::seed(tx, &self.row.id, self.row.round)?.ok_or_else(|| {
            PostError::Corrupt(format!(
                "game {} round {} has no seed",
                self.row.id, self.row.round
            ))
        })
    }

    /// Store what changed (state, round, status, deadline, hold).
    ///
    /// # Errors
    /// On database errors.
    pub fn save(&self, tx: &Transaction<'_>) -> Result<(), PostError> {
        Ok(rows::save(tx, &self.row)?)
    }
}

/// Every game an address plays in (or moderates), for mail without a header.
///
/// # Errors
/// On database errors.
pub fn games_of(tx: &Transaction<'_>, address: &str) -> Result<Vec<String>, PostError> {
    Ok(rows::of_address(tx, address)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(state: &str) -> Game {
        let row = GameRow::example("g", state, 3, DateTime::UNIX_EPOCH);
        Game::new(row, games::named("hyborian-age").unwrap(), chrono_tz::UTC)
    }

    #[test]
    fn a_round_is_read_once_and_again_after_the_state_is_set() {
        let mut g = game("not json: read only when asked");
        assert!(
            g.round().is_err(),
            "the state is read when the round is asked"
        );
        let round = Round {
            number: 3,
            label: "turn 3".into(),
            writers: vec!["aquilonia".into()],
            game_master: None,
        };
        let _ = g.round.set(round.clone());
        assert_eq!(g.round().unwrap(), round, "kept with the game");
        assert_eq!(g.clone().round().unwrap(), round, "and with its clone");
        g.set_state("still not json".into());
        assert!(g.round().is_err(), "a new state is read anew");
    }
}
