//! The `messages` table: every incoming message, raw, and what became of it.

use super::db::{params, Connection, OptionalExtension};
use super::{ts, Result};
use chrono::{DateTime, Utc};

/// The outcome of storing a raw message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredRaw {
    /// Row id in `messages`.
    pub id: i64,
    /// False when a message with this Message-ID was already stored.
    pub fresh: bool,
}

/// A message as it arrived.
#[derive(Debug, Clone, Copy)]
pub struct Arrival<'a> {
    /// Its Message-ID, or a digest of its bytes when it has none.
    pub key: &'a str,
    /// The bytes kept: the whole message, or its head when it is too large.
    pub raw: &'a [u8],
    /// SHA-256 of every byte that arrived, hex.
    pub digest: &'a str,
    /// How many bytes arrived.
    pub size: usize,
    /// `stdin`, `maildir`, `imap`…
    pub source: &'a str,
    /// When the club's mail server received it, if known.
    pub arrived_at: Option<DateTime<Utc>>,
}

/// Store one message as received. A message whose key is already stored is
/// not stored again.
///
/// # Errors
/// On database errors.
pub fn insert(c: &Connection, a: &Arrival<'_>, now: DateTime<Utc>) -> Result<StoredRaw> {
    let inserted = c
        .prepare_cached(
            "INSERT INTO messages (message_id, raw, source, received_at, digest, size, arrived_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
        )?
        .execute(params![a.key, a.raw, a.source, ts(now), a.digest, a.size as i64, a.arrived_at.map(ts)])?;
    let id: i64 = c
        .prepare_cached("SELECT id FROM messages WHERE message_id = ?1")?
        .query_row([a.key], |r| r.get(0))?;
    Ok(StoredRaw {
        id,
        fresh: inserted == 1,
    })
}

/// When the mailbox took a message (if it says), and when umpire stored it.
pub type Arrived = (Option<DateTime<Utc>>, DateTime<Utc>);

/// When a message reached the club's mailbox, when its source says so
/// (a Maildir file's delivery time, IMAP's INTERNALDATE), and when umpire
/// stored it.
///
/// # Errors
/// On database errors or a damaged row.
pub fn arrived(c: &Connection, id: i64) -> Result<Option<Arrived>> {
    let row: Option<(Option<String>, String)> = c
        .prepare_cached(HEAD)?
        .kept("messages")
        .query_row([id], |r| Ok((r.get(1)?, r.get(2)?)))
        .optional()?;
    row.map(|(arrived, stored)| {
        Ok((
            arrived.as_deref().map(super::parse_ts).transpose()?,
            super::parse_ts(&stored)?,
        ))
    })
    .transpose()
}

/// Replace a handled message's stored bytes (a password masked out).
///
/// # Errors
/// On database errors.
pub fn replace_raw(c: &Connection, id: i64, raw: &[u8]) -> Result<()> {
    c.prepare_cached("UPDATE messages SET raw = ?2 WHERE id = ?1")?
        .execute(params![id, raw])?;
    Ok(())
}

/// A message that could not be handled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    pub id: i64,
    pub message_id: String,
    pub received_at: String,
    pub reason: String,
}

/// Every message that could not be handled, oldest first.
///
/// # Errors
/// On database errors.
pub fn failed(c: &Connection) -> Result<Vec<Failed>> {
    let mut st = c.prepare_cached("SELECT id, message_id, received_at, coalesce(note, '') FROM messages WHERE state = 'failed' ORDER BY id")?;
    let rows = st
        .query_map([], |r| {
            Ok(Failed {
                id: r.get(0)?,
                message_id: r.get(1)?,
                received_at: r.get(2)?,
                reason: r.get(3)?,
            })
        })?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Messages stored but not yet handled, oldest first.
///
/// # Errors
/// On database errors.
pub fn pending(c: &Connection) -> Result<Vec<i64>> {
    let mut st = c.prepare_cached("SELECT id FROM messages WHERE state = 'new' ORDER BY id")?;
    let ids = st
        .query_map([], |r| r.get(0))?
        .collect::<super::db::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// A message's state and raw bytes.
///
/// # Errors
/// On database errors.
pub fn load(c: &Connection, id: i64) -> Result<Option<(String, Vec<u8>)>> {
    Ok(
        c.prepare_cached("SELECT state, raw FROM messages WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?,
    )
}

/// Claim a message to handle in this write transaction: its state and
/// raw bytes if it is still `new` and no other worker holds it. In
/// PostgreSQL the row stays locked until the transaction ends and other
/// workers pass it by (`SKIP LOCKED`); a worker killed with it held loses
/// nothing (the server ends its transaction and the message is `new`
/// again). In SQLite the write transaction already excludes every other
/// writer. `None`: handled already, or being handled elsewhere.
///
/// # Errors
/// On database errors.
pub fn claim(c: &Connection, id: i64) -> Result<Option<(String, Vec<u8>)>> {
    Ok(c.prepare_cached(
        "SELECT state, raw, size, arrived_at, received_at FROM messages WHERE id = ?1 AND state = 'new' FOR UPDATE SKIP LOCKED",
    )?
    .query_row([id], |r| {
        // Its handling asks its size and arrival next: kept (the row is
        // locked, so they stay so) rather than asked again.
        c.keep("messages", HEAD, [id], &[r.columns(2..5)]);
        Ok((r.get(0)?, r.get(1)?))
    })
    .optional()?)
}

/// A message's size and arrival ([`size`], [`arrived`]), one read for
/// both, kept for the transaction.
const HEAD: &str = "SELECT size, arrived_at, received_at FROM messages WHERE id = ?1";

/// How many bytes a message had when it arrived (its stored bytes may be
/// only its head).
///
/// # Errors
/// On database errors.
pub fn size(c: &Connection, id: i64) -> Result<Option<usize>> {
    let size: Option<Option<i64>> = c
        .prepare_cached(HEAD)?
        .kept("messages")
        .query_row([id], |r| r.get(0))
        .optional()?;
    Ok(size.flatten().and_then(|s| usize::try_from(s).ok()))
}

/// Record what became of a message.
///
/// # Errors
/// On database errors.
pub fn set_state(c: &Connection, id: i64, state: &str, note: &str) -> Result<()> {
    // Sent with the next statement on PostgreSQL (its answer not needed).
    c.execute_ahead(
        "UPDATE messages SET state = ?2, note = ?3 WHERE id = ?1",
        params![id, state, note],
    )?;
    Ok(())
}

/// What DKIM said of a message when it was first read (see `mail::dkim`),
/// as stored: `None` when it has not been checked.
///
/// # Errors
/// On database errors.
pub fn dkim(c: &Connection, id: i64) -> Result<Option<String>> {
    let v: Option<Option<String>> = c
        .prepare_cached("SELECT dkim FROM messages WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    Ok(v.flatten())
}

/// Record what DKIM said of a message.
///
/// # Errors
/// On database errors.
pub fn set_dkim(c: &Connection, id: i64, verdict: &str) -> Result<()> {
    c.prepare_cached("UPDATE messages SET dkim = ?2 WHERE id = ?1")?
        .execute(params![id, verdict])?;
    Ok(())
}
