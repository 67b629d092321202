//! Reading and writing a game's rows: the game, its sides, its turns.

use super::PostError;
use crate::store::{self, parse_ts, Transaction};
use crate::games::hyborian::table::Table;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rusqlite::{params, OptionalExtension};

/// One game as stored.
#[derive(Debug, Clone)]
pub struct Game {
    pub id: String,
    pub title: String,
    pub options: String,
    pub table: Table,
    pub turn: u32,
    pub status: String,
    pub hold: bool,
    pub moderator_address: String,
    pub moderator_pw: String,
    pub deadline: DateTime<Utc>,
    pub turn_hours: u32,
    pub tz: Tz,
    pub grace_minutes: u32,
    pub reminder_hours: u32,
    pub max_turns: u32,
}

/// One side of a game and its player.
#[derive(Debug, Clone)]
pub struct Side {
    pub side: String,
    pub address: String,
    pub password: String,
}

impl Game {
    /// Load a game by id (matched ignoring case).
    ///
    /// # Errors
    /// On database errors or damaged rows.
    pub fn load(tx: &Transaction<'_>, id: &str) -> Result<Option<Game>, PostError> {
        let row = tx
            .query_row(
                "SELECT id, title, options, state, turn, status, hold, moderator_address, moderator_pw, \
                 deadline, turn_hours, timezone, grace_minutes, reminder_hours, max_turns \
                 FROM games WHERE lower(id) = lower(?1)",
                [id],
                |r| {
                    Ok((
                        (r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?),
                        (r.get::<_, String>(3)?, r.get::<_, u32>(4)?, r.get::<_, String>(5)?),
                        (r.get::<_, bool>(6)?, r.get::<_, String>(7)?, r.get::<_, String>(8)?),
                        (r.get::<_, String>(9)?, r.get::<_, u32>(10)?, r.get::<_, String>(11)?),
                        (r.get::<_, u32>(12)?, r.get::<_, u32>(13)?, r.get::<_, u32>(14)?),
                    ))
                },
            )
            .optional()?;
        let Some(((id, title, options), (state, turn, status), (hold, ma, mp), (dl, th, tz), (grace, rem, max))) = row
        else {
            return Ok(None);
        };
        let table: Table = serde_json::from_str(&state)
            .map_err(|e| PostError::Corrupt(format!("game {id} state: {e}")))?;
        Ok(Some(Game {
            table,
            turn,
            status,
            hold,
            moderator_address: ma,
            moderator_pw: mp,
            deadline: parse_ts(&dl)?,
            turn_hours: th,
            tz: tz
                .parse()
                .map_err(|_| PostError::Corrupt(format!("game {id} time zone {tz}")))?,
            grace_minutes: grace,
            reminder_hours: rem,
            max_turns: max,
            id,
            title,
            options,
        }))
    }

    /// The sides, in id order.
    ///
    /// # Errors
    /// On database errors.
    pub fn sides(&self, tx: &Transaction<'_>) -> Result<Vec<Side>, PostError> {
        let mut st = tx.prepare(
            "SELECT side, address, password FROM sides WHERE game_id = ?1 ORDER BY side",
        )?;
        let rows = st
            .query_map([&self.id], |r| {
                Ok(Side {
                    side: r.get(0)?,
                    address: r.get(1)?,
                    password: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// The deadline as players read it.
    pub fn deadline_text(&self) -> String {
        super::gamefile::show_deadline(self.deadline, self.tz)
    }

    /// Sides that have orders in for the current turn.
    ///
    /// # Errors
    /// On database errors.
    pub fn sides_in(&self, tx: &Transaction<'_>) -> Result<Vec<String>, PostError> {
        let mut st = tx.prepare(
            "SELECT DISTINCT side FROM submissions WHERE game_id = ?1 AND turn = ?2 ORDER BY side",
        )?;
        let rows = st
            .query_map(params![self.id, self.turn], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(rows)
    }

    /// Store a changed game row (state, turn, status, deadline, hold).
    ///
    /// # Errors
    /// On database errors.
    pub fn save(&self, tx: &Transaction<'_>) -> Result<(), PostError> {
        let state = serde_json::to_string(&self.table)
            .map_err(|e| PostError::Corrupt(format!("cannot store state: {e}")))?;
        tx.execute(
            "UPDATE games SET state = ?2, turn = ?3, status = ?4, deadline = ?5, hold = ?6 WHERE id = ?1",
            params![self.id, state, self.turn, self.status, store::ts(self.deadline), self.hold],
        )?;
        Ok(())
    }
}

/// Every game an address plays in (or moderates), for mail without a header.
///
/// # Errors
/// On database errors.
pub fn games_of(tx: &Transaction<'_>, address: &str) -> Result<Vec<String>, PostError> {
    let mut st = tx.prepare(
        "SELECT game_id FROM sides WHERE lower(address) = lower(?1) \
         UNION SELECT id FROM games WHERE lower(moderator_address) = lower(?1) ORDER BY 1",
    )?;
    let rows = st
        .query_map([address], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(rows)
}
