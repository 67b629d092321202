//! A game as the post office works with it: its stored row, its rule set,
//! its time zone, and the round it is waiting for.

use super::PostError;
use crate::games::{self, Json, Round, Ruleset};
use crate::store::games::{self as rows, GameRow, SideRow};
use crate::store::{rounds, submissions, Transaction};
use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// One game, loaded.
#[derive(Clone)]
pub struct Game {
    pub row: GameRow,
    pub ruleset: &'static dyn Ruleset,
    pub tz: Tz,
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
        let Some(row) = rows::load(tx, id)? else {
            return Ok(None);
        };
        let ruleset = games::named(&row.ruleset)
            .map_err(|e| PostError::Corrupt(format!("game {}: {e}", row.id)))?;
        let tz = row.timezone.parse().map_err(|_| {
            PostError::Corrupt(format!("game {} time zone {}", row.id, row.timezone))
        })?;
        Ok(Some(Game { row, ruleset, tz }))
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
        let key = RoundKey::of(self.ruleset.name(), &self.row.state);
        if let Some(round) = key.remembered() {
            return Ok(round);
        }
        let round = self.ruleset.round(&self.state()?)?;
        key.remember(&round);
        Ok(round)
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

/// Rounds read lately, by rule set and state. A message's handling asks
/// which round its game waits for several times (might it be played, is
/// the mail for it, is it complete), each time of a game loaded anew, and
/// each answer parsed the whole table: a sixth of the writer's time in a
/// deadline's crunch (issue 24). The round is the rule set's function of
/// the state alone, so a state changed is simply another key.
struct RoundKey<'a> {
    ruleset: &'static str,
    state: &'a str,
    hash: u64,
}

/// How many rounds are remembered before all are forgotten at once.
const ROUNDS_KEPT: usize = 1024;

type Remembered = std::collections::HashMap<u64, (&'static str, String, Round)>;

fn remembered() -> std::sync::MutexGuard<'static, Remembered> {
    static ROUNDS: std::sync::OnceLock<std::sync::Mutex<Remembered>> = std::sync::OnceLock::new();
    ROUNDS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl<'a> RoundKey<'a> {
    fn of(ruleset: &'static str, state: &'a str) -> Self {
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        let hash = BuildHasherDefault::<DefaultHasher>::default().hash_one((ruleset, state));
        RoundKey {
            ruleset,
            state,
            hash,
        }
    }

    /// The round read from this state before, if it is remembered (the
    /// whole state compared, not its hash alone).
    fn remembered(&self) -> Option<Round> {
        match remembered().get(&self.hash) {
            Some((r, s, round)) if *r == self.ruleset && s == self.state => Some(round.clone()),
            _ => None,
        }
    }

    fn remember(&self, round: &Round) {
        let mut kept = remembered();
        if kept.len() >= ROUNDS_KEPT {
            kept.clear();
        }
        kept.insert(
            self.hash,
            (self.ruleset, self.state.to_string(), round.clone()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_remembered_for_its_state_and_rule_set_alone() {
        let round = Round {
            number: 3,
            label: "turn 3".into(),
            writers: vec!["aquilonia".into()],
            game_master: None,
        };
        let state = r#"{"turn":3,"remembered":"for this test"}"#;
        RoundKey::of("hyborian", state).remember(&round);
        assert_eq!(RoundKey::of("hyborian", state).remembered(), Some(round));
        let moved_on = state.replace('3', "4");
        assert_eq!(RoundKey::of("hyborian", &moved_on).remembered(), None);
        assert_eq!(RoundKey::of("furor", state).remembered(), None);
    }
}
