//! The `messages` table: every incoming message, raw, and what became of it.

use super::{ts, Result};
use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension};

/// The outcome of storing a raw message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredRaw {
    /// Row id in `messages`.
    pub id: i64,
    /// False when a message with this Message-ID was already stored.
    pub fresh: bool,
}

/// Store one message exactly as received. A message whose key is already
/// stored is not stored again.
///
/// # Errors
/// On database errors.
pub fn insert(c: &Connection, key: &str, raw: &[u8], source: &str, now: DateTime<Utc>) -> Result<StoredRaw> {
    let inserted = c
        .prepare_cached("INSERT OR IGNORE INTO messages (message_id, raw, source, received_at) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![key, raw, source, ts(now)])?;
    let id: i64 = c.prepare_cached("SELECT id FROM messages WHERE message_id = ?1")?.query_row([key], |r| r.get(0))?;
    Ok(StoredRaw { id, fresh: inserted == 1 })
}

/// Messages stored but not yet handled, oldest first.
///
/// # Errors
/// On database errors.
pub fn pending(c: &Connection) -> Result<Vec<i64>> {
    let mut st = c.prepare_cached("SELECT id FROM messages WHERE state = 'new' ORDER BY id")?;
    let ids = st.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// A message's state and raw bytes.
///
/// # Errors
/// On database errors.
pub fn load(c: &Connection, id: i64) -> Result<Option<(String, Vec<u8>)>> {
    Ok(c.prepare_cached("SELECT state, raw FROM messages WHERE id = ?1")?.query_row([id], |r| Ok((r.get(0)?, r.get(1)?))).optional()?)
}

/// Record what became of a message.
///
/// # Errors
/// On database errors.
pub fn set_state(c: &Connection, id: i64, state: &str, note: &str) -> Result<()> {
    c.prepare_cached("UPDATE messages SET state = ?2, note = ?3 WHERE id = ?1")?.execute(params![id, state, note])?;
    Ok(())
}
