//! The `submissions` table: every accepted set of orders a side mailed for
//! a round, as written and as checked.

use super::db::{params, Connection, OptionalExtension, Read};
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

/// A side's latest orders for a round: what the round's play and a
/// message's handling ask of them, one read for all of it ([`latest_read`]).
struct LatestOrders {
    checked: String,
    understood: String,
    /// They came in no mail: the umpire's general wrote them.
    by_general: bool,
    ready: bool,
}

/// The read of a side's latest orders for a round, kept for the
/// transaction: a round's play asks each side's several times, and a
/// message's handling the sender's, each a round trip on PostgreSQL
/// (issue 43).
pub(super) fn latest_read<'c>(
    c: &'c Connection,
    game: &str,
    round: u32,
    side: &str,
) -> Result<Read<'c>> {
    Ok(c.prepare_cached(
        "SELECT checked, understood, message IS NULL, ready FROM submissions \
         WHERE game_id = ?1 AND round = ?2 AND side = ?3 ORDER BY id DESC LIMIT 1",
    )?
    .kept("submissions")
    .with(params![game, round, side]))
}

/// A side's latest orders for a round, if it sent any.
fn latest_orders(
    c: &Connection,
    game: &str,
    round: u32,
    side: &str,
) -> Result<Option<LatestOrders>> {
    Ok(latest_read(c, game, round, side)?
        .query_row(|r| {
            Ok(LatestOrders {
                checked: r.get(0)?,
                understood: r.get(1)?,
                by_general: r.get(2)?,
                ready: r.get(3)?,
            })
        })
        .optional()?)
}

/// A side's latest submission for a round: (checked, understood). Kept
/// for the transaction ([`latest_read`]).
///
/// # Errors
/// On database errors.
pub fn latest(
    c: &Connection,
    game: &str,
    round: u32,
    side: &str,
) -> Result<Option<(String, String)>> {
    Ok(latest_orders(c, game, round, side)?.map(|o| (o.checked, o.understood)))
}

/// Whether a side's latest orders for a round came in no mail: the
/// umpire's general wrote them. Kept for the transaction, as [`latest`].
///
/// # Errors
/// On database errors.
pub fn by_general(c: &Connection, game: &str, round: u32, side: &str) -> Result<bool> {
    Ok(latest_orders(c, game, round, side)?.is_some_and(|o| o.by_general))
}

/// Whether the latest orders `side` sent for a round let it be played now;
/// `None` when it sent none (the game master's answer, who is no side).
///
/// # Errors
/// On database errors.
pub fn ready_of(c: &Connection, game: &str, round: u32, side: &str) -> Result<Option<bool>> {
    Ok(latest_orders(c, game, round, side)?.map(|o| o.ready))
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
    let rows = sides_ready_read(c, game, round)?
        .query_map(|r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(rows)
}

/// The read of [`sides_ready`]: one indexed look-up of the latest
/// submission per side of the game (a side that mails often must not make
/// every later message slower). Kept for the transaction: a message's
/// handling and a round's play ask it again and again, until a submission
/// is written.
pub(super) fn sides_ready_read<'c>(c: &'c Connection, game: &str, round: u32) -> Result<Read<'c>> {
    Ok(c.prepare_cached(
        "SELECT d.side FROM sides d WHERE d.game_id = ?1 AND coalesce((SELECT t.ready FROM submissions t \
         WHERE t.game_id = ?1 AND t.round = ?2 AND t.side = d.side ORDER BY t.id DESC LIMIT 1), 0) <> 0 ORDER BY d.side",
    )?
    .kept_over(&["sides", "submissions"])
    .with(params![game, round]))
}

/// The sides with orders in for a round, in id order.
///
/// # Errors
/// On database errors.
pub fn sides_in(c: &Connection, game: &str, round: u32) -> Result<Vec<String>> {
    // Per side of the game, whether it has one (not a scan of every submission).
    let rows = c
        .prepare_cached(
            "SELECT d.side FROM sides d WHERE d.game_id = ?1 AND EXISTS (SELECT 1 FROM submissions t \
             WHERE t.game_id = ?1 AND t.round = ?2 AND t.side = d.side) ORDER BY d.side",
        )?
        .kept_over(&["sides", "submissions"])
        .with(params![game, round])
        .query_map(|r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(rows)
}
