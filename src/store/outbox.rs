//! The `outbox` table: every message umpire sends, queued in the
//! transaction that decided to send it, until a transport accepts it.

use super::{ts, Result};
use chrono::{DateTime, Utc};
use rusqlite::{params, Connection};

/// A composed message to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued<'a> {
    pub message_id: &'a str,
    pub game: Option<&'a str>,
    pub kind: &'a str,
    pub recipients: &'a [String],
    pub raw: &'a [u8],
}

/// An outbox row due for sending.
#[derive(Debug, Clone)]
pub struct OutboxItem {
    pub id: i64,
    pub message_id: String,
    pub recipients: Vec<String>,
    pub raw: Vec<u8>,
    pub attempts: i64,
}

/// Queue a message; one with the same Message-ID is not queued again.
/// Returns whether it was queued now.
///
/// # Errors
/// On database errors.
pub fn queue(c: &Connection, q: &Queued<'_>, now: DateTime<Utc>) -> Result<bool> {
    let n = c
        .prepare_cached(
            "INSERT OR IGNORE INTO outbox (message_id, game_id, kind, recipients, raw, created_at, next_attempt) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        )?
        .execute(params![q.message_id, q.game, q.kind, q.recipients.join(","), q.raw, ts(now)])?;
    Ok(n == 1)
}

/// Rows not yet sent whose next attempt is due, oldest first.
///
/// # Errors
/// On database errors.
pub fn due(c: &Connection, now: DateTime<Utc>) -> Result<Vec<OutboxItem>> {
    let mut st = c.prepare_cached(
        "SELECT id, message_id, recipients, raw, attempts FROM outbox WHERE sent_at IS NULL AND next_attempt <= ?1 ORDER BY id",
    )?;
    let rows = st
        .query_map(params![ts(now)], |r| {
            let recipients: String = r.get(2)?;
            Ok(OutboxItem {
                id: r.get(0)?,
                message_id: r.get(1)?,
                recipients: recipients.split(',').map(str::to_string).collect(),
                raw: r.get(3)?,
                attempts: r.get(4)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Record a delivered row.
///
/// # Errors
/// On database errors.
pub fn mark_sent(c: &Connection, id: i64, now: DateTime<Utc>) -> Result<()> {
    c.prepare_cached("UPDATE outbox SET sent_at = ?2, attempts = attempts + 1, last_error = NULL WHERE id = ?1 AND sent_at IS NULL")?
        .execute(params![id, ts(now)])?;
    Ok(())
}

/// Record a failed attempt and when to try again.
///
/// # Errors
/// On database errors.
pub fn mark_failed(c: &Connection, id: i64, error: &str, next_attempt: DateTime<Utc>) -> Result<()> {
    c.prepare_cached("UPDATE outbox SET attempts = attempts + 1, last_error = ?2, next_attempt = ?3 WHERE id = ?1")?
        .execute(params![id, error, ts(next_attempt)])?;
    Ok(())
}
