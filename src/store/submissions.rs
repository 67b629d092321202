//! The `submissions` table: every accepted set of orders a side mailed for
//! a round, as written and as checked.

use super::db::{params, Connection, OptionalExtension};
use super::{ts, Result};
use chrono::{DateTime, Utc};

/// One side's orders from one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub round: u32,
    pub side: String,
    /// The message row they came in; `None` for a general's orders,
    /// which come in no mail.
    pub message: Option<i64>,
    /// The text as written.
    pub text: String,
    /// The rule set's checked orders, as JSON.
    pub checked: String,
    /// The orders in canonical form, as JSON `[[key, text], …]`.
    pub understood: String,
    /// Whether the round may be played on them before the deadline.
    pub ready: bool,
}

/// Record a submission.
///
/// # Errors
/// On database errors.
pub fn insert(c: &Connection, game: &str, s: &Submission, now: DateTime<Utc>) -> Result<()> {
    // Sent with the next statement on PostgreSQL (its answer not needed).
    c.execute_ahead(
        "INSERT INTO submissions (game_id, round, side, message, text, checked, understood, created_at, ready) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![game, s.round, s.side, s.message, s.text, s.checked, s.understood, ts(now), s.ready],
    )?;
    Ok(())
}

/// A side's latest submission for a round: (checked, understood). Kept
/// for the transaction: a round's play reads each side's several times.
///
/// # Errors
/// On database errors.
pub fn latest(
    c: &Connection,
    game: &str,
    round: u32,
    side: &str,
) -> Result<Option<(String, String)>> {
    Ok(c.prepare_cached(
        "SELECT checked, understood FROM submissions WHERE game_id = ?1 AND round = ?2 AND side = ?3 ORDER BY id DESC LIMIT 1",
    )?
    .kept("submissions")
    .query_row(params![game, round, side], |r| Ok((r.get(0)?, r.get(1)?)))
    .optional()?)
}

/// Whether a side's latest orders for a round came in no mail: the
/// umpire's general wrote them. Kept for the transaction, as [`latest`].
///
/// # Errors
/// On database errors.
pub fn by_general(c: &Connection, game: &str, round: u32, side: &str) -> Result<bool> {
    Ok(c.prepare_cached(
        "SELECT message IS NULL FROM submissions WHERE game_id = ?1 AND round = ?2 AND side = ?3 ORDER BY id DESC LIMIT 1",
    )?
    .kept("submissions")
    .query_row(params![game, round, side], |r| r.get(0))
    .optional()?
    .unwrap_or(false))
}

/// Whether the latest orders `side` sent for a round let it be played now;
/// `None` when it sent none (the game master's answer, who is no side).
///
/// # Errors
/// On database errors.
pub fn ready_of(c: &Connection, game: &str, round: u32, side: &str) -> Result<Option<bool>> {
    Ok(c.prepare_cached(
        "SELECT ready FROM submissions WHERE game_id = ?1 AND round = ?2 AND side = ?3 ORDER BY id DESC LIMIT 1",
    )?
    .query_row(params![game, round, side], |r| r.get(0))
    .optional()?)
}

/// Mark a side's latest orders for a round ready (READY) or not (WAIT).
/// Returns false when the side has sent none.
///
/// # Errors
/// On database errors.
pub fn set_ready(c: &Connection, game: &str, round: u32, side: &str, ready: bool) -> Result<bool> {
    Ok(c.prepare_cached(
        "UPDATE submissions SET ready = ?4 WHERE id = (SELECT id FROM submissions WHERE game_id = ?1 AND round = ?2 AND side = ?3 ORDER BY id DESC LIMIT 1)",
    )?
    .execute(params![game, round, side, ready])?
        == 1)
}

/// The sides whose latest orders for a round are ready, in id order.
///
/// # Errors
/// On database errors.
pub fn sides_ready(c: &Connection, game: &str, round: u32) -> Result<Vec<String>> {
    // One indexed look-up of the latest submission per side of the game:
    // a side that mails often must not make every later message slower.
    // Kept for the transaction: a message's handling and a round's play
    // ask it again and again, until a submission is written.
    let mut st = c
        .prepare_cached(
            "SELECT d.side FROM sides d WHERE d.game_id = ?1 AND coalesce((SELECT t.ready FROM submissions t \
             WHERE t.game_id = ?1 AND t.round = ?2 AND t.side = d.side ORDER BY t.id DESC LIMIT 1), 0) <> 0 ORDER BY d.side",
        )?
        .kept_over(&["sides", "submissions"]);
    let rows = st
        .query_map(params![game, round], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(rows)
}

/// The sides with orders in for a round, in id order.
///
/// # Errors
/// On database errors.
pub fn sides_in(c: &Connection, game: &str, round: u32) -> Result<Vec<String>> {
    // Per side of the game, whether it has one (not a scan of every submission).
    let mut st = c
        .prepare_cached(
            "SELECT d.side FROM sides d WHERE d.game_id = ?1 AND EXISTS (SELECT 1 FROM submissions t \
             WHERE t.game_id = ?1 AND t.round = ?2 AND t.side = d.side) ORDER BY d.side",
        )?
        .kept_over(&["sides", "submissions"]);
    let rows = st
        .query_map(params![game, round], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(rows)
}
