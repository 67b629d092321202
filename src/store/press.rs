//! The `mail_rules` and `press` tables: a game's rules for press and
//! absence as the game file gave them (JSON the post office reads), and
//! every press delivered, for the moderator's record.

use super::db::{params, Connection, OptionalExtension, Read};
use super::{ts, Result};
use chrono::{DateTime, Utc};

/// A game's rules for press and absence, as JSON; `None` for a game
/// created before they were kept (the defaults).
///
/// # Errors
/// On database errors.
pub fn rules(c: &Connection, game: &str) -> Result<Option<String>> {
    Ok(rules_read(c, game)?.query_row(|r| r.get(0)).optional()?)
}

/// The read of a game's rules ([`rules`]), kept for the transaction.
pub(super) fn rules_read<'c>(c: &'c Connection, game: &str) -> Result<Read<'c>> {
    Ok(
        c.prepare_cached("SELECT rules FROM mail_rules WHERE game_id = ?1")?
            .kept("mail_rules")
            .with([game]),
    )
}

/// Store a game's rules for press and absence (replacing any).
///
/// # Errors
/// On database errors.
pub fn set_rules(c: &Connection, game: &str, rules: &str) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO mail_rules (game_id, rules) VALUES (?1, ?2) \
         ON CONFLICT (game_id) DO UPDATE SET rules = excluded.rules",
    )?
    .execute(params![game, rules])?;
    Ok(())
}

/// One press as delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub round: u32,
    /// The message it came in.
    pub message: i64,
    /// The side that wrote it (`(moderator)` for a broadcast), grey or not.
    pub sender: String,
    /// The sides it went to, comma-separated.
    pub readers: String,
    pub grey: bool,
    pub body: String,
}

/// Log a press delivered.
///
/// # Errors
/// On database errors.
pub fn log(c: &Connection, game: &str, p: &Sent, now: DateTime<Utc>) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO press (game_id, round, message, sender, readers, grey, body, sent_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        game,
        p.round,
        p.message,
        p.sender,
        p.readers,
        p.grey,
        p.body,
        ts(now)
    ])?;
    Ok(())
}

/// Every press of a game, in the order sent.
///
/// # Errors
/// On database errors.
pub fn of_game(c: &Connection, game: &str) -> Result<Vec<Sent>> {
    let rows = c
        .prepare_cached(
            "SELECT round, message, sender, readers, grey, body FROM press WHERE game_id = ?1 ORDER BY id",
        )?
        .query_map([game], |r| {
            Ok(Sent {
                round: r.get(0)?,
                message: r.get(1)?,
                sender: r.get(2)?,
                readers: r.get(3)?,
                grey: r.get(4)?,
                body: r.get(5)?,
            })
        })?
        .collect::<super::db::Result<_>>()?;
    Ok(rows)
}
