//! The SQLite store: one file, WAL mode, foreign keys on, versioned
//! migrations. Only this module (with `mail` transports and the CLI) does
//! I/O; the rest of the crate hands it values.
//!
//! Architecture invariant: every incoming message is written here raw,
//! byte for byte, in its own committed transaction *before* anything parses
//! it. Everything decided about a message (submissions, replies in the
//! outbox, its new state) is written in one later transaction, so a crash
//! at any point leaves the message either untouched (`new`, processed again
//! on the next run) or fully handled.

pub mod absences;
pub mod campaign_battles;
pub mod campaigns;
pub mod deferred;
pub mod games;
pub mod leagues;
pub mod messages;
pub mod outbox;
pub mod press;
pub mod rounds;
mod schema;
pub mod submissions;

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{params, OptionalExtension, TransactionBehavior};
use std::path::Path;
use std::time::Duration;

pub use rusqlite::{Connection, Transaction};

/// Errors from the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("the database {path} was written by a newer umpire (schema {found}, this one knows {known})")]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// An open store.
pub struct Store {
    conn: Connection,
}

/// How hard SQLite works to keep a commit through a power failure
/// (`PRAGMA synchronous`). Umpire acknowledges a message (exit 0 to the MTA,
/// a Maildir file moved to `cur`, an IMAP `\Seen` flag) only after its
/// commit, so the default is [`Durability::Full`]; the others are for tests
/// and benchmarks that do not care about power failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Durability {
    /// Every commit is on disk before it returns.
    #[default]
    Full,
    /// Commits survive a crash of umpire, not of the machine.
    Normal,
    /// No syncing at all (tests only).
    Off,
}

impl Durability {
    fn pragma(self) -> &'static str {
        match self {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
            Durability::Off => "OFF",
        }
    }
}

pub use messages::StoredRaw;
pub use outbox::OutboxItem;

/// Format a time the way every column stores it (RFC 3339, UTC, seconds).
pub fn ts(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Read a stored time back.
pub fn parse_ts(s: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| StoreError::Corrupt(format!("bad time '{s}': {e}")))
}

impl Store {
    /// Open (creating if needed) and migrate the database at `path`.
    ///
    /// # Errors
    /// When the file cannot be opened or was written by a newer schema.
    pub fn open(path: &Path) -> Result<Store> {
        Self::open_with(path, Durability::Full)
    }

    /// Open (creating if needed) and migrate the database at `path`, syncing
    /// commits as `durability` says.
    ///
    /// # Errors
    /// When the file cannot be opened or was written by a newer schema.
    pub fn open_with(path: &Path, durability: Durability) -> Result<Store> {
        let conn = Connection::open(path)?;
        Self::setup(conn, &path.display().to_string(), durability)
    }

    /// A private in-memory store (tests and benchmarks).
    pub fn open_in_memory() -> Result<Store> {
        Self::setup(Connection::open_in_memory()?, ":memory:", Durability::Full)
    }

    fn setup(conn: Connection, path: &str, durability: Durability) -> Result<Store> {
        // Several `umpire ingest` processes may run at once (procmail starts
        // one per message): wait for the lock instead of failing.
        conn.busy_timeout(Duration::from_secs(60))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", durability.pragma())?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store { conn };
        store.migrate(path)?;
        Ok(store)
    }

    fn migrate(&mut self, path: &str) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        let known = schema::MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew {
                path: path.to_string(),
                found: version,
                known,
            });
        }
        for (i, sql) in schema::MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// This installation's own key, made once per store: the Message-IDs
    /// of everything it sends are unique to it.
    ///
    /// # Errors
    /// On database errors.
    pub fn installation(&self) -> Result<String> {
        installation(&self.conn)
    }

    /// The schema version now in force.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// Run `f` in one write transaction (taken immediately, so concurrent
    /// writers queue instead of deadlocking), committing if it succeeds.
    pub fn write<T, E>(
        &mut self,
        f: impl FnOnce(&Transaction<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let value = f(&tx)?;
        tx.commit().map_err(StoreError::from)?;
        Ok(value)
    }

    /// The connection, for reads.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Store one message exactly as received, committed at once. A message
    /// whose Message-ID is already stored is not stored again.
    pub fn store_raw(
        &mut self,
        arrival: &messages::Arrival<'_>,
        now: DateTime<Utc>,
    ) -> Result<StoredRaw> {
        self.write(|tx| messages::insert(tx, arrival, now))
    }

    /// Store several messages as received in one transaction (one wait
    /// for the disk), as [`Store::store_raw`] each.
    pub fn store_many(
        &mut self,
        arrivals: &[messages::Arrival<'_>],
        now: DateTime<Utc>,
    ) -> Result<Vec<StoredRaw>> {
        self.write(|tx| {
            arrivals
                .iter()
                .map(|a| messages::insert(tx, a, now))
                .collect()
        })
    }

    /// Messages stored but not yet processed, oldest first.
    pub fn pending_messages(&self) -> Result<Vec<i64>> {
        messages::pending(&self.conn)
    }

    /// Count rows of a table (diagnostics and tests).
    pub fn count(&self, table: &str, condition: &str) -> Result<i64> {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE {condition}");
        Ok(self.conn.query_row(&sql, [], |r| r.get(0))?)
    }

    /// The latest value of one column for a query returning at most one row.
    pub fn optional_string(&self, sql: &str, p: impl rusqlite::Params) -> Result<Option<String>> {
        Ok(self.conn.query_row(sql, p, |r| r.get(0)).optional()?)
    }
}

/// This installation's own key (see [`Store::installation`]).
///
/// # Errors
/// On database errors, or a store whose key is missing.
pub fn installation(c: &Connection) -> Result<String> {
    c.prepare_cached("SELECT value FROM meta WHERE key = 'installation'")?
        .query_row([], |r| r.get(0))
        .optional()?
        .ok_or_else(|| StoreError::Corrupt("the store has no installation key".into()))
}

/// Append a line to the audit log inside a transaction.
pub fn log(
    tx: &Transaction<'_>,
    now: DateTime<Utc>,
    game: Option<&str>,
    level: &str,
    text: &str,
) -> Result<()> {
    tx.execute(
        "INSERT INTO log (at, game_id, level, text) VALUES (?1, ?2, ?3, ?4)",
        params![ts(now), game, level, text],
    )?;
    Ok(())
}

/// A game's log lines (the audit trail), the latest `limit`, oldest first.
///
/// # Errors
/// On database errors.
pub fn log_of(c: &Connection, game: &str, limit: u32) -> Result<Vec<(String, String)>> {
    let mut st = c.prepare_cached(
        "SELECT at, text FROM (SELECT id, at, text FROM log WHERE lower(game_id) = lower(?1) ORDER BY id DESC LIMIT ?2) ORDER BY id",
    )?;
    let rows = st
        .query_map(params![game, limit], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_messages_are_stored_once_per_message_id() {
        let mut s = Store::open_in_memory().unwrap();
        let now = Utc::now();
        let arrival = |raw: &'static [u8]| messages::Arrival {
            key: "a@x",
            raw,
            digest: "d",
            size: raw.len(),
            source: "stdin",
            arrived_at: None,
        };
        let a = s.store_raw(&arrival(b"raw bytes \xff"), now).unwrap();
        let b = s.store_raw(&arrival(b"other"), now).unwrap();
        assert!(a.fresh);
        assert!(!b.fresh);
        assert_eq!(a.id, b.id);
        let raw: Vec<u8> = s
            .conn()
            .query_row("SELECT raw FROM messages WHERE id = ?1", [a.id], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(raw, b"raw bytes \xff");
        assert_eq!(s.pending_messages().unwrap(), vec![a.id]);
    }

    #[test]
    fn migrations_are_idempotent_on_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u.sqlite");
        let v = Store::open(&path).unwrap().schema_version().unwrap();
        assert_eq!(v, schema::MIGRATIONS.len() as i64);
        let key = Store::open(&path).unwrap().installation().unwrap();
        assert_eq!(Store::open(&path).unwrap().schema_version().unwrap(), v);
        assert_eq!(
            Store::open(&path).unwrap().installation().unwrap(),
            key,
            "made once"
        );
        assert_eq!(key.len(), 32);
        let other = tempfile::tempdir().unwrap();
        assert_ne!(
            Store::open(&other.path().join("u.sqlite"))
                .unwrap()
                .installation()
                .unwrap(),
            key
        );
    }
}
