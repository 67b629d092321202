//! The store: a SQLite file (WAL mode, foreign keys on; the default) or a
//! PostgreSQL database several workers share (`db` is the one door to
//! both), with versioned migrations in both dialects (`schema`). Only this
//! module (with `mail` transports and the CLI) does I/O; the rest of the
//! crate hands it values.
//!
//! Architecture invariant: every incoming message is written here raw,
//! byte for byte, in its own committed transaction *before* anything parses
//! it. Everything decided about a message (submissions, replies in the
//! outbox, its new state) is written in one later transaction, so a crash
//! at any point leaves the message either untouched (`new`, processed again
//! on the next run) or fully handled.

pub mod absences;
pub mod backup;
pub mod campaign_battles;
pub mod campaigns;
mod checkpoint;
pub mod db;
pub mod deferred;
pub mod games;
mod kept;
pub mod leagues;
pub mod messages;
pub mod outbox;
pub mod password_key;
mod pg;
pub mod press;
pub mod rounds;
mod schema;
pub mod submissions;
pub mod testing;
mod turns;
pub mod verifiers;

use chrono::{DateTime, SecondsFormat, Utc};
use db::{params, OptionalExtension};
use std::path::Path;
use std::time::Duration;

pub use db::{Connection, Dialect, Transaction};

/// Errors from the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] db::Error),
    #[error("the database {path} was written by a newer umpire (schema {found}, this one knows {known})")]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    /// A store of an older schema whose backup before migrating failed.
    #[error("the database {path} is of an older schema and is migrated only once a backup of it is made, which failed: {source}")]
    NoBackup {
        path: String,
        #[source]
        source: backup::BackupError,
    },
    /// A database file of 0 bytes: not a store, and not made one.
    #[error("the database {path} is an empty file (0 bytes), not an umpire store: restore the store from a backup, or delete the file to start a new store there")]
    Empty { path: String },
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// An open store.
pub struct Store {
    /// A SQLite file's checkpoint thread: before `conn`, so that it is
    /// stopped before the connection closes.
    checkpointer: Option<checkpoint::Checkpointer>,
    conn: Connection,
    /// A PostgreSQL store's URL and durability, to connect again with
    /// when the server has ended the connection ([`Store::reconnect`]).
    server: Option<(String, Durability)>,
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

    /// PostgreSQL's `synchronous_commit` for it.
    fn synchronous_commit(self) -> &'static str {
        match self {
            Durability::Full => "on",
            Durability::Normal => "local",
            Durability::Off => "off",
        }
    }
}

/// Pages of SQLite's journal (WAL) the writer lets gather before it copies
/// them into the database file itself, 64 MB (SQLite's default is 1,000
/// pages, 4 MB): a thread of the store's own does it sooner and a little at
/// a time ([`checkpoint`]); this is for when that thread falls behind.
const CHECKPOINT_PAGES: i64 = 16_384;

/// A SQLite connection's page cache, KiB (SQLite's default is 2 MB): a
/// deadline reads every game's rows and their indexes again and again, far
/// more than 2 MB at 10,000 games, and each page not cached is read from
/// the system again (issue 24).
const CACHE_KIB: i64 = 65_536;

/// The folder a store's file lives in, to be made if missing: none for a
/// PostgreSQL URL.
pub fn local_folder(location: &Path) -> Option<&Path> {
    if db::is_postgres_url(&location.to_string_lossy()) {
        return None;
    }
    location.parent()
}

/// Refuse a SQLite file of 0 bytes with no write-ahead log beside it:
/// SQLite would take it for a new database, and umpire would make a fresh
/// store in it and answer players that their game does not exist. A file
/// emptied by accident (a failed copy, a full disk, `> umpire.sqlite`) is
/// a store lost, for the administrator to restore; a store umpire makes
/// is a file that does not exist yet. (A new store's first pages may be
/// in its `-wal` file alone, its main file still empty: that is a store.)
///
/// # Errors
/// [`StoreError::Empty`] for such a file.
fn refuse_empty_file(path: &Path) -> Result<()> {
    let empty = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() == 0);
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let wal = Path::new(&wal);
    if empty(path) && (!wal.exists() || empty(wal)) {
        return Err(StoreError::Empty {
            path: path.display().to_string(),
        });
    }
    Ok(())
}

/// A store's location as it may be shown: a PostgreSQL URL without its
/// password.
pub fn shown(location: &Path) -> String {
    db::redact(&location.to_string_lossy())
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

/// `attempt` until it succeeds or fails for more than a moment: up to five
/// times, 10 to 80 ms apart, while the database is busy or refuses it for a
/// conflict with another worker.
fn again_for_a_moment<T>(mut attempt: impl FnMut() -> Result<T>) -> Result<T> {
    let mut tries = 0;
    loop {
        match attempt() {
            Err(StoreError::Sql(e)) if e.is_transient() && tries < 4 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(5 << tries));
            }
            done => return done,
        }
    }
}

/// A lock every worker's migration takes first (PostgreSQL), so workers
/// starting together migrate once.
const MIGRATION_LOCK: i64 = 0x756d_7069_7265;

impl Store {
    /// Open (creating if needed) and migrate the database at `path`: a
    /// SQLite file, or a PostgreSQL URL (`postgres://user@host:port/db`).
    ///
    /// # Errors
    /// When the file cannot be opened, was written by a newer schema, or is
    /// an empty file (0 bytes: a store lost, never made anew).
    pub fn open(path: &Path) -> Result<Store> {
        Self::open_with(path, Durability::Full)
    }

    /// Open (creating if needed) and migrate the database at `path`, syncing
    /// commits as `durability` says.
    ///
    /// # Errors
    /// When the file cannot be opened, was written by a newer schema, or is
    /// an empty file (0 bytes: a store lost, never made anew).
    pub fn open_with(path: &Path, durability: Durability) -> Result<Store> {
        let location = path.to_string_lossy();
        if db::is_postgres_url(&location) {
            return Self::open_postgres(&location, durability);
        }
        refuse_empty_file(path)?;
        let conn = Connection::open_sqlite(path)?;
        // Read through SQLite, not from the file's header: a process that
        // opens and closes the file any other way drops the locks all its
        // connections hold on it (POSIX), and the next command to close the
        // store elsewhere takes itself for the last and deletes the journal
        // a running service still writes (issue 43).
        let found = version_in(&conn)?;
        // An upgrade that migrates the store keeps it as it was first.
        match backup::before_migrating(path, found) {
            Ok(Some(kept)) => tracing::warn!(
                database = %path.display(),
                backup = %kept.display(),
                "this umpire migrates the store to schema {}; the store as it was is kept at {}",
                schema::MIGRATIONS.len(),
                kept.display()
            ),
            Ok(None) => {}
            Err(source) => {
                return Err(StoreError::NoBackup {
                    path: path.display().to_string(),
                    source,
                })
            }
        }
        let mut store = Self::setup(conn, &path.display().to_string(), durability)?;
        store.checkpointer = checkpoint::Checkpointer::start(path, durability);
        Ok(store)
    }

    /// Connect to the PostgreSQL database at `url` and migrate it.
    ///
    /// # Errors
    /// When the server cannot be reached, refuses the login, or holds a
    /// newer schema.
    pub fn open_postgres(url: &str, durability: Durability) -> Result<Store> {
        let conn = Connection::open_postgres(url)?;
        // Every statement of the store finds its rows by an index
        // (`tests::no_statement_reads_a_whole_table`), but PostgreSQL
        // keeps one plan for a statement a connection prepared, made from
        // the statistics of the moment: a table analyzed empty (a new
        // league, a deadline's mail coming faster than autovacuum looks)
        // gave plans that read the whole table until its next `ANALYZE` —
        // in the crunch up to half the server's time a turn (issue 43). So
        // this connection's plans take an index wherever there is one.
        conn.execute_batch(&format!(
            "SET synchronous_commit = {}; SET enable_seqscan = off",
            durability.synchronous_commit()
        ))?;
        let mut store = Store {
            checkpointer: None,
            conn,
            server: Some((url.to_string(), durability)),
        };
        store.migrate(&db::redact(url))?;
        Ok(store)
    }

    /// Connect again if the server has ended the store's connection (a
    /// restart, a network cut, an administrator's `pg_terminate_backend`):
    /// a worker then goes on instead of failing on the dead one until it is
    /// restarted. Returns whether it connected again.
    ///
    /// # Errors
    /// When the server cannot be reached yet (try again later).
    pub fn reconnect(&mut self) -> Result<bool> {
        match self.server.clone() {
            Some((url, durability)) if self.conn.is_broken() => {
                *self = Self::open_postgres(&url, durability)?;
                tracing::info!(database = %db::redact(&url), "connected to the database again");
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Which server the store is on.
    pub fn dialect(&self) -> Dialect {
        self.conn.dialect()
    }

    /// A private in-memory store (tests and benchmarks).
    pub fn open_in_memory() -> Result<Store> {
        Self::setup(Connection::open_in_memory()?, ":memory:", Durability::Full)
    }

    fn setup(conn: Connection, path: &str, durability: Durability) -> Result<Store> {
        // Several `umpire ingest` processes may run at once (procmail starts
        // one per message): wait for the lock instead of failing.
        conn.with_sqlite(|c| {
            c.busy_timeout(Duration::from_secs(60))?;
            c.pragma_update(None, "journal_mode", "WAL")?;
            c.pragma_update(None, "synchronous", durability.pragma())?;
            c.pragma_update(None, "wal_autocheckpoint", CHECKPOINT_PAGES)?;
            c.pragma_update(None, "cache_size", -CACHE_KIB)?;
            // What is deleted is overwritten with zeros, not left in the
            // file's free pages: a welcome's password cut from the outbox
            // once sent is gone from the file too (issue 43).
            c.pragma_update(None, "secure_delete", "ON")?;
            c.pragma_update(None, "foreign_keys", "ON")
        })
        .transpose()?;
        let mut store = Store {
            checkpointer: None,
            conn,
            server: None,
        };
        store.migrate(path)?;
        Ok(store)
    }

    fn migrate(&mut self, path: &str) -> Result<()> {
        if self.conn.dialect() == Dialect::Sqlite {
            return self.migrate_locked(path);
        }
        // Taken before the transaction begins, so that a worker that waited
        // for another's migration reads the version it left.
        self.conn
            .execute("SELECT pg_advisory_lock(?1)", [MIGRATION_LOCK])?;
        let done = self.migrate_locked(path);
        let unlocked = self
            .conn
            .execute("SELECT pg_advisory_unlock(?1)", [MIGRATION_LOCK]);
        done?;
        unlocked?;
        Ok(())
    }

    fn migrate_locked(&mut self, path: &str) -> Result<()> {
        let dialect = self.conn.dialect();
        let tx = self.conn.transaction()?;
        if dialect == Dialect::Postgres {
            tx.execute_batch(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)",
            )?;
        }
        let version = version_in(&tx)?;
        let known = schema::MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew {
                path: path.to_string(),
                found: version,
                known,
            });
        }
        for (i, step) in schema::MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(&step.sql(dialect))?;
            set_version(&tx, i as i64 + 1)?;
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
        version_in(&self.conn)
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
        let tx = self.conn.transaction().map_err(StoreError::from)?;
        done_in(tx, f)
    }

    /// A write transaction for work claimed by row locks and leases (the
    /// outbox): `READ COMMITTED` on PostgreSQL, where the locks, not
    /// serializability, keep two workers apart, so it is not refused for
    /// another worker's reads; on SQLite the same as [`Store::write`]. Done
    /// again while it fails for a moment (a deadlock, the database busy),
    /// up to five times a few milliseconds apart: marking a message sent
    /// once the server took it must not be left for later.
    ///
    /// # Errors
    /// The last error, or the first that is not of the moment.
    pub fn write_locking<T>(&mut self, f: impl Fn(&Transaction<'_>) -> Result<T>) -> Result<T> {
        again_for_a_moment(|| {
            let tx = self.conn.transaction_locking()?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        })
    }

    /// [`Store::write`] in a transaction guarded by the row locks its work
    /// takes rather than by serializability (`READ COMMITTED` on
    /// PostgreSQL; on SQLite the same as [`Store::write`]): for a
    /// message's handling or a round's play, which claim their message
    /// (`FOR UPDATE SKIP LOCKED`) and lock their game's row before reading
    /// it ([`games::load_locked`]). Work that reaches beyond those rows says so
    /// ([`Transaction::needs_serializable`]) and the caller does it again
    /// in [`Store::write`] (issue 43: two workers' serializable handlings
    /// refused each other some 500 times a turn, over index pages they
    /// both read and wrote, though no row was ever both's).
    pub fn write_with_locks<T, E>(
        &mut self,
        f: impl FnOnce(&Transaction<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self.conn.transaction_locking().map_err(StoreError::from)?;
        done_in(tx, f)
    }

    /// [`Store::write`], done again while it fails for a moment, as
    /// [`Store::write_locking`] is: for work that is the same however often
    /// it is tried (storing arrived mail, which two workers reading one
    /// Maildir may store at the same moment: the second finds it stored).
    ///
    /// # Errors
    /// The last error, or the first that is not of the moment.
    pub fn write_again<T>(&mut self, f: impl Fn(&Transaction<'_>) -> Result<T>) -> Result<T> {
        again_for_a_moment(|| self.write(&f))
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
        self.write_again(|tx| {
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
    pub fn optional_string(&self, sql: &str, p: impl db::Params) -> Result<Option<String>> {
        Ok(self.conn.query_row(sql, p, |r| r.get(0)).optional()?)
    }
}

/// The schema version in force: SQLite's `user_version` (so files made
/// before PostgreSQL was known open as they were), PostgreSQL's one row of
/// `schema_version` (none: 0).
fn version_in(c: &Connection) -> Result<i64> {
    Ok(match c.dialect() {
        Dialect::Sqlite => c.query_row("PRAGMA user_version", [], |r| r.get(0))?,
        Dialect::Postgres => c
            .query_row("SELECT max(version) FROM schema_version", [], |r| {
                r.get::<_, Option<i64>>(0)
            })?
            .unwrap_or(0),
    })
}

fn set_version(c: &Connection, version: i64) -> Result<()> {
    match c.dialect() {
        // PRAGMA takes no parameters; the number is ours.
        Dialect::Sqlite => c.execute_batch(&format!("PRAGMA user_version = {version}"))?,
        Dialect::Postgres => {
            c.execute("DELETE FROM schema_version", [])?;
            c.execute(
                "INSERT INTO schema_version (version) VALUES (?1)",
                [version],
            )?;
        }
    }
    Ok(())
}

/// `f` done in `tx`, committed if it succeeds (rolled back otherwise).
fn done_in<T, E>(
    tx: Transaction<'_>,
    f: impl FnOnce(&Transaction<'_>) -> std::result::Result<T, E>,
) -> std::result::Result<T, E>
where
    E: From<StoreError>,
{
    let value = f(&tx)?;
    tx.commit().map_err(StoreError::from)?;
    Ok(value)
}

/// This installation's own key (see [`Store::installation`]).
///
/// # Errors
/// On database errors, or a store whose key is missing.
pub fn installation(c: &Connection) -> Result<String> {
    // Made with the store and never changed: read once a connection.
    c.read_once("installation", || {
        c.prepare_cached("SELECT value FROM meta WHERE key = 'installation'")?
            .query_row([], |r| r.get(0))
            .optional()?
            .ok_or_else(|| StoreError::Corrupt("the store has no installation key".into()))
    })
}

/// Append a line to the audit log inside a transaction.
pub fn log(
    tx: &Transaction<'_>,
    now: DateTime<Utc>,
    game: Option<&str>,
    level: &str,
    text: &str,
) -> Result<()> {
    // Sent with the next statement on PostgreSQL (its answer not needed).
    tx.execute_ahead(
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
        "SELECT at, text FROM (SELECT id, at, text FROM log WHERE lower(game_id) = lower(?1) ORDER BY id DESC LIMIT ?2) AS latest ORDER BY id",
    )?;
    let rows = st
        .query_map(params![game, limit], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<db::Result<Vec<_>>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival(key: &'static str, raw: &'static [u8]) -> messages::Arrival<'static> {
        messages::Arrival {
            key,
            raw,
            digest: "d",
            size: raw.len(),
            source: "stdin",
            arrived_at: None,
        }
    }

    #[test]
    fn raw_messages_are_stored_once_per_message_id() {
        for (name, mut s) in testing::stores() {
            let now = Utc::now();
            let a = s
                .store_raw(&arrival("a@x", b"raw bytes \xff"), now)
                .unwrap();
            let b = s.store_raw(&arrival("a@x", b"other"), now).unwrap();
            assert!(a.fresh, "{name}");
            assert!(!b.fresh, "{name}");
            assert_eq!(a.id, b.id, "{name}");
            let raw: Vec<u8> = s
                .conn()
                .query_row("SELECT raw FROM messages WHERE id = ?1", [a.id], |r| {
                    r.get(0)
                })
                .unwrap();
            assert_eq!(raw, b"raw bytes \xff", "{name}");
            assert_eq!(s.pending_messages().unwrap(), vec![a.id], "{name}");
        }
    }

    #[test]
    fn migrations_are_idempotent_on_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u.sqlite");
        let mut places = vec![path.clone()];
        places.extend(testing::fresh_postgres().map(std::path::PathBuf::from));
        for path in &places {
            let v = Store::open(path).unwrap().schema_version().unwrap();
            assert_eq!(v, schema::MIGRATIONS.len() as i64);
            let key = Store::open(path).unwrap().installation().unwrap();
            assert_eq!(Store::open(path).unwrap().schema_version().unwrap(), v);
            assert_eq!(
                Store::open(path).unwrap().installation().unwrap(),
                key,
                "made once"
            );
            assert_eq!(key.len(), 32);
            assert!(key.bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
        }
        let other = tempfile::tempdir().unwrap();
        let key = Store::open(&path).unwrap().installation().unwrap();
        assert_ne!(
            Store::open(&other.path().join("u.sqlite"))
                .unwrap()
                .installation()
                .unwrap(),
            key
        );
    }

    /// Every table and its columns, in order of name.
    fn shape(s: &Store) -> Vec<(String, Vec<String>)> {
        let c = s.conn();
        let sql = match s.dialect() {
            Dialect::Sqlite => {
                "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
                 WHERE m.type = 'table' ORDER BY m.name, p.name"
            }
            Dialect::Postgres => {
                "SELECT table_name::text, column_name::text FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name <> 'schema_version' \
                 ORDER BY table_name, column_name"
            }
        };
        let mut tables: Vec<(String, Vec<String>)> = Vec::new();
        for row in c
            .prepare_cached(sql)
            .unwrap()
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .unwrap()
        {
            let (table, column) = row.unwrap();
            match tables.last_mut() {
                Some((t, columns)) if *t == table => columns.push(column),
                _ => tables.push((table, vec![column])),
            }
        }
        tables
    }

    #[test]
    fn both_dialects_end_at_the_same_tables_and_columns() {
        let stores = testing::stores();
        let sqlite = shape(&stores[0].1);
        assert!(sqlite
            .iter()
            .any(|(t, c)| t == "rounds" && c.contains(&"rejected".to_string())));
        assert!(sqlite.len() >= 25, "{sqlite:?}");
        for (name, s) in &stores[1..] {
            assert_eq!(shape(s), sqlite, "{name}");
        }
    }

    #[test]
    fn values_read_back_as_written_in_every_dialect() {
        for (name, mut s) in testing::stores() {
            let now = Utc::now();
            let row = s
                .store_raw(&arrival("v@x", b"\x00\x01bytes\r\n\r\nbody"), now)
                .unwrap();
            s.write(|tx| {
                messages::set_state(tx, row.id, "done", "it's done; \u{e9}t\u{e9}")?;
                log(tx, now, Some("G1"), "info", "one")?;
                log(tx, now, Some("g1"), "info", "two")?;
                log(tx, now, None, "info", "none")
            })
            .unwrap();
            let (state, raw) = messages::load(s.conn(), row.id).unwrap().unwrap();
            assert_eq!(state, "done", "{name}");
            assert_eq!(raw, b"\x00\x01bytes\r\n\r\nbody", "{name}");
            assert_eq!(
                s.optional_string("SELECT note FROM messages WHERE id = ?1", [row.id])
                    .unwrap()
                    .as_deref(),
                Some("it's done; \u{e9}t\u{e9}"),
                "{name}"
            );
            assert_eq!(
                s.optional_string("SELECT note FROM messages WHERE id = ?1", [row.id + 1])
                    .unwrap(),
                None,
                "{name}"
            );
            let lines: Vec<String> = log_of(s.conn(), "g1", 5)
                .unwrap()
                .into_iter()
                .map(|(_, t)| t)
                .collect();
            assert_eq!(lines, ["one", "two"], "{name}: any case, oldest first");
            assert_eq!(s.count("log", "game_id IS NULL").unwrap(), 1, "{name}");
            assert_eq!(
                messages::size(s.conn(), row.id).unwrap(),
                Some(15),
                "{name}"
            );
        }
    }

    #[test]
    fn a_failed_write_keeps_nothing_and_the_store_goes_on() {
        for (name, mut s) in testing::stores() {
            let now = Utc::now();
            let failed = s.write(|tx| {
                log(tx, now, None, "info", "kept?")?;
                tx.execute("INSERT INTO no_such_table VALUES (1)", [])?;
                Ok::<_, StoreError>(())
            });
            assert!(failed.is_err(), "{name}");
            assert_eq!(s.count("log", "1 = 1").unwrap(), 0, "{name}: rolled back");
            s.write(|tx| log(tx, now, None, "info", "kept")).unwrap();
            assert_eq!(s.count("log", "1 = 1").unwrap(), 1, "{name}");
        }
    }

    #[test]
    fn an_error_passed_over_is_not_committed_as_if_all_were_well() {
        for (name, mut s) in testing::stores() {
            let now = Utc::now();
            let done = s.write(|tx| {
                log(tx, now, None, "info", "before")?;
                // An error the work passes over: on PostgreSQL it has
                // ended the transaction, and COMMIT would only roll back.
                let _ = tx.execute("INSERT INTO no_such_table VALUES (1)", []);
                Ok::<_, StoreError>(())
            });
            match s.dialect() {
                Dialect::Sqlite => {
                    done.unwrap();
                    assert_eq!(s.count("log", "1 = 1").unwrap(), 1, "{name}");
                }
                Dialect::Postgres => {
                    let Err(StoreError::Sql(db::Error::Aborted { code })) = done else {
                        panic!("{name}: {done:?}")
                    };
                    assert_eq!(code, "42P01", "{name}");
                    assert_eq!(s.count("log", "1 = 1").unwrap(), 0, "{name}");
                }
            }
            // The next transaction is whole again.
            s.write(|tx| log(tx, now, None, "info", "kept")).unwrap();
            assert!(s.count("log", "text = 'kept'").unwrap() == 1, "{name}");
        }
    }

    #[test]
    fn a_message_is_claimed_once_and_a_held_claim_is_passed_by() {
        for (name, mut s) in testing::stores() {
            let now = Utc::now();
            let id = s.store_raw(&arrival("c@x", b"orders"), now).unwrap().id;
            let claimed = s
                .write(|tx| {
                    let c = messages::claim(tx, id)?;
                    messages::set_state(tx, id, "done", "handled")?;
                    Ok::<_, StoreError>(c)
                })
                .unwrap();
            assert_eq!(claimed, Some(("new".into(), b"orders".to_vec())), "{name}");
            assert_eq!(
                s.write(|tx| messages::claim(tx, id)).unwrap(),
                None,
                "{name}: handled already"
            );
        }
        // Two workers on one PostgreSQL store: the second passes by the
        // message and the outbox row the first holds, and takes them once
        // the first is gone without committing.
        let Some(url) = testing::fresh_postgres() else {
            return;
        };
        let mut first = Store::open_postgres(&url, Durability::Off).unwrap();
        let second = Store::open_postgres(&url, Durability::Off).unwrap();
        let now = Utc::now();
        let id = first.store_raw(&arrival("d@x", b"orders"), now).unwrap().id;
        first
            .write(|tx| {
                for key in ["<o1@x>", "<o2@x>"] {
                    let q = outbox::Queued {
                        message_id: key,
                        game: None,
                        kind: "reply",
                        recipients: &["p@x".to_string()],
                        raw: b"Subject: s\r\n\r\nbody",
                        parts: &[],
                        secret: false,
                    };
                    outbox::queue(tx, &q, now)?;
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        let until = now + chrono::Duration::minutes(10);
        let held = first.conn.transaction().unwrap();
        assert!(messages::claim(&held, id).unwrap().is_some());
        let o1 = outbox::claim(&held, "first", now, until, 1)
            .unwrap()
            .remove(0);
        assert_eq!(o1.message_id, "<o1@x>");
        {
            let tx = second.conn.transaction().unwrap();
            assert_eq!(messages::claim(&tx, id).unwrap(), None, "held by the first");
            let o2 = outbox::claim(&tx, "second", now, until, 5).unwrap();
            let o2: Vec<_> = o2.iter().map(|o| o.message_id.as_str()).collect();
            assert_eq!(o2, ["<o2@x>"], "the row the first holds is passed by");
            tx.commit().unwrap();
        }
        drop(held);
        let tx = second.conn.transaction().unwrap();
        assert!(messages::claim(&tx, id).unwrap().is_some(), "free again");
        let again = outbox::claim(&tx, "second", now, until, 5).unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].message_id, "<o1@x>");
        assert!(outbox::claim(&tx, "second", now, until, 5)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn writes_sent_ahead_are_read_after_and_an_error_of_theirs_keeps_nothing() {
        for (name, mut s) in testing::stores() {
            let now = Utc::now();
            let q = outbox::Queued {
                message_id: "<ahead@x>",
                game: Some("g"),
                kind: "welcome",
                recipients: &["a@x".to_string()],
                raw: b"Subject: ahead\r\n\r\nbody",
                parts: &[],
                secret: false,
            };
            // Queued ahead twice, then read in the same transaction: once.
            let rows = s
                .write(|tx| {
                    outbox::queue_ahead(tx, &q, now)?;
                    outbox::queue_ahead(tx, &q, now)?;
                    let n: i64 = tx.query_row(
                        "SELECT COUNT(*) FROM outbox o JOIN outbox_bodies b ON b.outbox_id = o.id",
                        [],
                        |r| r.get(0),
                    )?;
                    Ok::<_, StoreError>(n)
                })
                .unwrap();
            assert_eq!(rows, 1, "{name}");
            // A write ahead that fails fails its transaction, the writes
            // before it in the same pipeline with it.
            let failed = s.write(|tx| {
                tx.execute_ahead(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                    params!["ahead-1", "kept?"],
                )?;
                tx.execute_ahead(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                    params!["ahead-2", "once"],
                )?;
                tx.execute_ahead(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                    params!["ahead-2", "twice"],
                )?;
                tx.flush()?;
                Ok::<_, StoreError>(())
            });
            assert!(failed.is_err(), "{name}: a duplicate key was refused");
            let kept = s.count("meta", "key LIKE 'ahead-%'").unwrap();
            assert_eq!(kept, 0, "{name}: nothing of the failed transaction kept");
            // The connection goes on.
            assert_eq!(s.count("outbox", "message_id = '<ahead@x>'").unwrap(), 1);
        }
    }

    /// A savepoint taken back keeps nothing of its work and all before it,
    /// whether its making had reached the server (a write sent in it) or
    /// still waited to go (on PostgreSQL, then dropped without a round
    /// trip); one kept keeps its work.
    #[test]
    fn a_savepoint_taken_back_keeps_what_came_before_it() {
        let put = |tx: &Transaction<'_>, key: &str| {
            tx.execute_ahead("INSERT INTO meta (key, value) VALUES (?1, 'v')", [key])
        };
        for (name, mut s) in testing::stores() {
            s.write(|tx| {
                put(tx, "sp-before")?;
                // Taken back with a write in it that has reached the server.
                tx.savepoint(
                    "one",
                    || put(tx, "sp-one").and_then(|()| tx.flush()),
                    |_| false,
                )??;
                // Taken back before anything of it was sent.
                tx.savepoint("two", || put(tx, "sp-two"), |_| false)??;
                tx.savepoint("three", || Ok::<_, db::Error>(()), |_| false)??;
                // Kept.
                tx.savepoint("four", || put(tx, "sp-four"), |_| true)??;
                // Kept with its write still waiting, then one of the same
                // name taken back: only the second is undone.
                tx.savepoint("five", || put(tx, "sp-five"), |_| true)??;
                tx.savepoint("five", || put(tx, "sp-six"), |_| false)??;
                Ok::<_, StoreError>(())
            })
            .unwrap();
            let keys: Vec<String> = s
                .conn()
                .prepare("SELECT key FROM meta WHERE key LIKE 'sp-%' ORDER BY key")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<db::Result<_>>()
                .unwrap();
            assert_eq!(keys, ["sp-before", "sp-five", "sp-four"], "{name}");
        }
    }

    #[test]
    fn a_sent_secret_keeps_only_its_head() {
        for (name, mut s) in testing::stores() {
            let now = Utc::now();
            let until = now + chrono::Duration::minutes(10);
            let sent = s
                .write(|tx| {
                    for (key, secret) in [("<s@x>", true), ("<p@x>", false)] {
                        let q = outbox::Queued {
                            message_id: key,
                            game: Some("g"),
                            kind: "welcome",
                            recipients: &["a@x".to_string(), "b@x".to_string()],
                            raw: b"Subject: pw\r\n\r\npassword: dragon7",
                            parts: &[],
                            secret,
                        };
                        assert!(outbox::queue(tx, &q, now)?);
                        assert!(!outbox::queue(tx, &q, now)?, "queued once");
                    }
                    let items = outbox::claim(tx, "me", now, until, 10)?;
                    assert!(items.iter().all(|i| i.recipients == ["a@x", "b@x"]));
                    let ids: Vec<i64> = items.iter().map(|i| i.id).collect();
                    assert_eq!(
                        outbox::bodies(tx, &ids)?,
                        [b"Subject: pw\r\n\r\npassword: dragon7"; 2],
                        "read together, in order"
                    );
                    // Marked together; a second mark changes nothing (the
                    // head alone is kept, not cut again).
                    outbox::mark_sent(tx, &ids, now)?;
                    outbox::mark_sent(tx, &ids, now)?;
                    Ok::<_, StoreError>(items.into_iter().map(|i| i.message_id).collect::<Vec<_>>())
                })
                .unwrap();
            assert_eq!(sent, ["<s@x>", "<p@x>"], "{name}");
            let raw = |key: &str| -> Vec<u8> {
                s.conn()
                    .query_row("SELECT raw FROM outbox_bodies JOIN outbox ON id = outbox_id WHERE message_id = ?1", [key], |r| {
                        r.get(0)
                    })
                    .unwrap()
            };
            assert_eq!(
                raw("<s@x>"),
                b"Subject: pw\r\n\r\n(sent; the body held a password and is not kept)",
                "{name}"
            );
            assert_eq!(
                raw("<p@x>"),
                b"Subject: pw\r\n\r\npassword: dragon7",
                "{name}"
            );
        }
    }

    /// `keep_sent_days`: bodies of mail sent before the cutoff are cut to
    /// their headers, oldest first, a limit at a time; later mail, unsent
    /// mail and bodies already cut are left alone.
    #[test]
    fn bodies_of_mail_sent_long_ago_are_forgotten() {
        use chrono::TimeZone;
        for (name, mut s) in testing::stores() {
            let t0 = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
            let day = chrono::Duration::days(1);
            s.write(|tx| {
                for (n, key) in ["<a@x>", "<b@x>", "<c@x>", "<d@x>"].iter().enumerate() {
                    let q = outbox::Queued {
                        message_id: key,
                        game: Some("g"),
                        kind: "report",
                        recipients: &["a@x".to_string()],
                        raw: b"Subject: r\r\nX: y\r\n\r\nthe picture",
                        parts: &[],
                        secret: false,
                    };
                    outbox::queue(tx, &q, t0)?;
                    // a sent on day 0, b on day 1, c on day 5; d never.
                    let when = t0 + day * [0, 1, 5][n.min(2)];
                    if n < 3 {
                        let item = outbox::claim(tx, "me", when, when + day, 1)?.remove(0);
                        outbox::mark_sent(tx, &[item.id], when)?;
                    }
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
            let cutoff = t0 + day * 3;
            assert_eq!(
                s.write(|tx| outbox::forget_bodies(tx, cutoff, 1)).unwrap(),
                1,
                "{name}"
            );
            assert_eq!(
                s.write(|tx| outbox::forget_bodies(tx, cutoff, 10)).unwrap(),
                1,
                "{name}"
            );
            assert_eq!(
                s.write(|tx| outbox::forget_bodies(tx, cutoff, 10)).unwrap(),
                0,
                "{name}"
            );
            let raw = |key: &str| -> Vec<u8> {
                s.conn()
                    .query_row("SELECT raw FROM outbox_bodies JOIN outbox ON id = outbox_id WHERE message_id = ?1", [key], |r| {
                        r.get(0)
                    })
                    .unwrap()
            };
            let cut =
                b"Subject: r\r\nX: y\r\n\r\n(sent; the body is no longer kept: keep_sent_days)";
            assert_eq!(raw("<a@x>"), cut, "{name}");
            assert_eq!(raw("<b@x>"), cut, "{name}");
            for key in ["<c@x>", "<d@x>"] {
                assert_eq!(
                    raw(key),
                    b"Subject: r\r\nX: y\r\n\r\nthe picture",
                    "{name} {key}"
                );
            }
        }
    }

    /// Whether a round is released, asked alone (a message's handling asks
    /// it of the round before), says what the whole played round says:
    /// nothing for a round not played, then held, then released.
    #[test]
    fn a_rounds_release_asked_alone_is_the_played_rounds() {
        use chrono::TimeZone;
        let t0 = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
        for (name, mut s) in testing::stores() {
            let both = |s: &mut Store| {
                s.write(|tx| -> Result<_> {
                    Ok((
                        rounds::is_released(tx, "G", 1)?,
                        rounds::played(tx, "g", 1)?.map(|r| r.played.released),
                    ))
                })
                .unwrap()
            };
            s.write(|tx| -> Result<()> {
                games::insert(tx, &games::GameRow::example("g", "{}", 1, t0), t0)?;
                rounds::open(
                    tx,
                    "g",
                    &rounds::Opened {
                        round: 1,
                        label: "turn 1".into(),
                        writers: "[]".into(),
                        seed: "s".into(),
                        seed_hash: "h".into(),
                    },
                )
            })
            .unwrap();
            assert_eq!(both(&mut s), (None, None), "{name}: open, not played");
            let played = rounds::Played {
                state_before: "{}".into(),
                state_after: "{}".into(),
                orders: "{}".into(),
                events: "[]".into(),
                report: "{}".into(),
                rules: String::new(),
                moderator_dice: "{}".into(),
                released: false,
            };
            s.write(|tx| rounds::record(tx, "g", 1, &played, t0))
                .unwrap();
            assert_eq!(both(&mut s), (Some(false), Some(false)), "{name}: held");
            s.write(|tx| rounds::release(tx, "g", 1)).unwrap();
            assert_eq!(both(&mut s), (Some(true), Some(true)), "{name}: released");
        }
    }

    /// A read a connection first asked of a table all but empty still
    /// finds its row by its index once the table has grown (issue 43).
    /// PostgreSQL keeps one plan for a statement a connection prepared,
    /// made from the statistics of the moment: a table analyzed empty (a
    /// new league; a deadline's mail faster than autovacuum's next look)
    /// gave a plan that read the whole table, kept until the next
    /// `ANALYZE` — in the crunch, some 5,000 of a turn's reads of orders.
    #[test]
    fn a_read_planned_on_an_empty_table_keeps_to_its_index_as_the_table_grows() {
        use chrono::TimeZone;
        let t0 = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
        let Some(mut s) = testing::postgres() else {
            return; // no server: the plan is PostgreSQL's
        };
        let orders = |round: u32, side: &str| submissions::Submission {
            round,
            side: side.into(),
            message: None,
            text: "orders".repeat(40),
            checked: "{}".into(),
            understood: "[]".into(),
            ready: true,
        };
        s.write(|tx| games::insert(tx, &games::GameRow::example("g", "{}", 1, t0), t0))
            .unwrap();
        s.conn().execute_batch("ANALYZE submissions").unwrap();
        for _ in 0..8 {
            let none = s
                .write(|tx| submissions::latest(tx, "g", 1, "nemedia"))
                .unwrap();
            assert!(none.is_none());
        }
        s.write(|tx| -> Result<()> {
            for round in 1..=1500 {
                for side in ["aquilonia", "nemedia"] {
                    submissions::insert(tx, "g", &orders(round, side), t0)?;
                }
            }
            Ok(())
        })
        .unwrap();
        let whole_reads = s
            .write(|tx| -> Result<i64> {
                let before = xact_stat(tx, "seq_scan", "submissions")?;
                assert!(submissions::latest(tx, "g", 700, "nemedia")?.is_some());
                Ok(xact_stat(tx, "seq_scan", "submissions")? - before)
            })
            .unwrap();
        assert_eq!(whole_reads, 0, "the orders read by the whole table");
    }

    /// This transaction's count `what` (a column of PostgreSQL's
    /// `pg_stat_xact_user_tables`) for `table`, not yet reported.
    fn xact_stat(tx: &Transaction<'_>, what: &str, table: &str) -> Result<i64> {
        Ok(tx.query_row(
            &format!(
                "SELECT {what} FROM pg_stat_xact_user_tables \
                 WHERE relname = ?1 AND schemaname = current_schema()"
            ),
            [table],
            |r| r.get(0),
        )?)
    }

    /// A message is claimed by its id, whatever the statistics say of its
    /// state (issue 43): taken when no message was new (after a deadline's
    /// mail is handled), they made the claim's plan read the state's index,
    /// every new message's entry for each claim, the next deadline's mail
    /// squared. Counted: the rows fetched by index for 30 claims among 300
    /// new messages (9,000 so planned; one a claim now).
    #[test]
    fn a_message_is_claimed_by_its_id_whatever_was_new_when_analyzed() {
        use chrono::TimeZone;
        let t0 = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
        let Some(mut s) = testing::postgres() else {
            return; // no server: the plan is PostgreSQL's
        };
        let arrive = |tx: &Transaction<'_>, i: usize| -> Result<i64> {
            let key = format!("<m{i}@x>");
            let a = messages::Arrival {
                key: &key,
                raw: b"Subject: orders\r\n\r\nbody",
                source: "test",
                digest: &key,
                size: 24,
                arrived_at: Some(t0),
            };
            Ok(messages::insert(tx, &a, t0)?.id)
        };
        s.write(|tx| -> Result<()> {
            for i in 0..400 {
                let id = arrive(tx, i)?;
                messages::set_state(tx, id, "done", "handled")?;
            }
            Ok(())
        })
        .unwrap();
        s.conn().execute_batch("ANALYZE messages").unwrap();
        let new = s
            .write(|tx| {
                (400..700)
                    .map(|i| arrive(tx, i))
                    .collect::<Result<Vec<_>>>()
            })
            .unwrap();
        let read = s
            .write(|tx| -> Result<i64> {
                let before = xact_stat(tx, "idx_tup_fetch", "messages")?;
                for &id in &new[..30] {
                    assert!(messages::claim(tx, id)?.is_some());
                }
                Ok(xact_stat(tx, "idx_tup_fetch", "messages")? - before)
            })
            .unwrap();
        assert!(read <= 30, "{read} rows fetched by index for 30 claims");
    }

    /// A game just locked has what a message's handling and a round's play
    /// read of it next read ahead (issue 43): on PostgreSQL one round trip
    /// for its sides, mail rules, draft report and sides ready, after which
    /// each read answers, without asking, what it answers asked alone; a
    /// claimed message's size and arrival come with its bytes.
    #[test]
    fn a_locked_games_reads_are_read_ahead_in_one_round_trip() {
        use chrono::TimeZone;
        let t0 = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
        let row = games::GameRow::example("g", "{}", 2, t0);
        let side = |name: &str| games::SideRow {
            side: name.into(),
            address: format!("{name}@example.org"),
            password: "hash".into(),
            timezone: None,
            general: None,
        };
        let orders = |name: &str, ready| submissions::Submission {
            round: 2,
            side: name.into(),
            message: None,
            text: format!("orders of {name}"),
            checked: "{}".into(),
            understood: "[]".into(),
            ready,
        };
        type Read = (
            Vec<games::SideRow>,
            Option<String>,
            Option<u32>,
            Vec<String>,
            Option<(String, String)>,
            Option<chrono::DateTime<Utc>>,
        );
        let asked = |tx: &Transaction<'_>| -> Result<Read> {
            Ok((
                games::sides(tx, "g")?,
                press::rules(tx, "g")?,
                rounds::draft(tx, "g")?,
                submissions::sides_ready(tx, "g", 2)?,
                submissions::latest(tx, "g", 2, "nemedia")?,
                games::locked_until(tx, "g", "nemedia", "nemedia@example.org", t0)?,
            ))
        };
        for (name, mut s) in testing::stores() {
            s.write(|tx| -> Result<()> {
                games::insert(tx, &row, t0)?;
                games::insert_side(tx, "g", &side("aquilonia"))?;
                games::insert_side(tx, "g", &side("nemedia"))?;
                press::set_rules(tx, "g", "{\"press\":\"none\"}")?;
                submissions::insert(tx, "g", &orders("nemedia", false), t0)?;
                submissions::insert(tx, "g", &orders("nemedia", true), t0)?;
                submissions::insert(tx, "g", &orders("aquilonia", false), t0)?;
                Ok(())
            })
            .unwrap();
            let alone = s
                .write_with_locks(|tx| -> Result<Read> {
                    games::load_locked(tx, "g")?;
                    asked(tx)
                })
                .unwrap();
            assert_eq!(alone.3, vec!["nemedia".to_string()], "{name}");
            assert_eq!(alone.4.as_ref().map(|o| o.0.as_str()), Some("{}"), "{name}");
            // Without a sender, then for a sender's mail.
            for (sender, left) in [(None, 2), (Some(("nemedia", "nemedia@example.org")), 0)] {
                let ahead = s
                    .write_with_locks(|tx| -> Result<Read> {
                        games::load_locked(tx, "g")?;
                        let before = tx.round_trips();
                        games::read_ahead_locked(tx, "g", 2, sender)?;
                        let read_ahead = tx.round_trips() - before;
                        let got = asked(tx)?;
                        let after = tx.round_trips() - before - read_ahead;
                        if name == "postgres" {
                            assert_eq!(read_ahead, 1, "{sender:?}: one round trip");
                            assert_eq!(after, left, "{sender:?}: the rest asked");
                        }
                        Ok(got)
                    })
                    .unwrap();
                assert_eq!(alone, ahead, "{name}: read ahead, the same answers");
            }
            let id = messages::insert(
                s.conn(),
                &messages::Arrival {
                    key: "<m@x>",
                    raw: b"Subject: orders\r\n\r\nbody",
                    source: "test",
                    digest: "d",
                    size: 4321,
                    arrived_at: Some(t0),
                },
                t0,
            )
            .unwrap()
            .id;
            s.write_with_locks(|tx| -> Result<()> {
                assert!(messages::claim(tx, id)?.is_some());
                let before = tx.round_trips();
                assert_eq!(messages::size(tx, id)?, Some(4321), "{name}");
                assert_eq!(messages::arrived(tx, id)?.map(|a| a.0), Some(Some(t0)));
                assert_eq!(tx.round_trips(), before, "{name}: kept with the claim");
                Ok(())
            })
            .unwrap();
        }
    }

    /// A large part many messages carry (a round's picture) is kept once;
    /// each message reads back byte for byte; a message that holds a
    /// password, or whose parts are not apart, is kept whole; a Message-ID
    /// queued again adds no use; and a part goes when the last message
    /// that used it is forgotten.
    #[test]
    fn a_part_many_messages_carry_is_kept_once() {
        use chrono::TimeZone;
        let picture = b"PNG=".repeat(300);
        let svg = b"SVG<".repeat(200);
        let digest = |b: &[u8]| -> [u8; 32] {
            sha2::Digest::finalize(sha2::Digest::chain_update(sha2::Sha256::default(), b)).into()
        };
        // A message: its head, then each part between text; the parts' places.
        let message = |head: &str, parts: &[&[u8]]| -> (Vec<u8>, Vec<outbox::Part>) {
            let mut raw = format!("Subject: {head}\r\n\r\n--text of {head}\r\n").into_bytes();
            let mut at = Vec::new();
            for p in parts {
                let start = raw.len();
                raw.extend_from_slice(p);
                at.push(outbox::Part {
                    range: start..raw.len(),
                    digest: digest(p),
                });
                raw.extend_from_slice(b"\r\n--between\r\n");
            }
            (raw, at)
        };
        fn count(s: &Store, sql: &str) -> i64 {
            s.conn().query_row(sql, [], |r| r.get(0)).unwrap()
        }
        /// How many parts are kept, and how many uses say where they go.
        fn parts_and_uses(s: &Store) -> (i64, i64) {
            (
                count(s, "SELECT COUNT(*) FROM outbox_parts"),
                count(s, "SELECT COUNT(*) FROM outbox_part_uses"),
            )
        }
        for (name, mut s) in testing::stores() {
            let t0 = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
            let (a, a_parts) = message("a", &[&picture]);
            let (b, b_parts) = message("bb", &[&picture, &svg]);
            let (c, c_parts) = message("c", &[&svg]);
            let (again, again_parts) = message("a, again and longer", &[&svg, &picture]);
            let overlapping = [b_parts[1].clone(), b_parts[0].clone()];
            let queued = |key: &'static str,
                          raw: &'static [u8],
                          parts: &'static [outbox::Part],
                          secret| outbox::Queued {
                message_id: key,
                game: Some("g"),
                kind: "report",
                recipients: &[],
                raw,
                parts,
                secret,
            };
            // 'static for the closure: the test's own bytes, leaked.
            let keep = |v: Vec<u8>| -> &'static [u8] { Vec::leak(v) };
            let keep_parts = |v: Vec<outbox::Part>| -> &'static [outbox::Part] { Vec::leak(v) };
            let rows = [
                queued("<a@x>", keep(a.clone()), keep_parts(a_parts.clone()), false),
                queued("<b@x>", keep(b.clone()), keep_parts(b_parts.clone()), false),
                queued("<c@x>", keep(c.clone()), keep_parts(c_parts.clone()), true),
                queued(
                    "<d@x>",
                    keep(b.clone()),
                    keep_parts(overlapping.to_vec()),
                    false,
                ),
            ];
            let ids = s
                .write(|tx| {
                    outbox::queue(tx, &rows[0], t0)?;
                    outbox::queue_ahead(tx, &rows[1], t0)?;
                    outbox::queue_ahead(tx, &rows[2], t0)?;
                    outbox::queue(tx, &rows[3], t0)?;
                    let again = queued(
                        "<a@x>",
                        keep(again.clone()),
                        keep_parts(again_parts.clone()),
                        false,
                    );
                    assert!(!outbox::queue(tx, &again, t0)?, "queued once");
                    outbox::queue_ahead(tx, &again, t0)?;
                    Ok::<_, StoreError>(
                        outbox::claim(tx, "me", t0, t0, 10)?
                            .iter()
                            .map(|i| i.id)
                            .collect::<Vec<_>>(),
                    )
                })
                .unwrap();
            assert_eq!(ids.len(), 4, "{name}");
            let back = outbox::bodies(s.conn(), &ids).unwrap();
            assert!(
                back == [a.clone(), b.clone(), c.clone(), b.clone()],
                "{name}: read back whole"
            );
            assert_eq!(outbox::body(s.conn(), ids[1]).unwrap(), b, "{name}");
            // Each part once; a's one use, b's two.
            assert_eq!(parts_and_uses(&s), (2, 3), "{name}");
            let kept = count(
                &s,
                "SELECT SUM(LENGTH(raw)) FROM outbox_bodies WHERE outbox_id > 0",
            );
            let whole = a.len() + 2 * b.len() + c.len();
            assert_eq!(
                usize::try_from(kept).unwrap(),
                whole - 2 * picture.len() - svg.len(),
                "{name}"
            );
            // Forgotten one by one: the picture stays while b uses it.
            let day = chrono::Duration::days(1);
            s.write(|tx| outbox::mark_sent(tx, &ids, t0)).unwrap();
            assert_eq!(
                s.write(|tx| outbox::forget_bodies(tx, t0 + day, 1))
                    .unwrap(),
                1,
                "{name}"
            );
            assert_eq!(parts_and_uses(&s), (2, 2), "{name}: b still uses both");
            assert_eq!(
                outbox::body(s.conn(), ids[0]).unwrap(),
                b"Subject: a\r\n\r\n(sent; the body is no longer kept: keep_sent_days)",
                "{name}"
            );
            assert_eq!(outbox::body(s.conn(), ids[1]).unwrap(), b, "{name}");
            s.write(|tx| outbox::forget_bodies(tx, t0 + day, 10))
                .unwrap();
            assert_eq!(parts_and_uses(&s), (0, 0), "{name}: none used");
            // A part stored in a savepoint taken back is stored again for
            // the next message of the transaction that carries it.
            let (e, e_parts) = message("e", &[&svg]);
            let e_row = queued("<e@x>", keep(e.clone()), keep_parts(e_parts.clone()), false);
            let f_row = queued("<f@x>", keep(e.clone()), keep_parts(e_parts), false);
            let f = s
                .write(|tx| {
                    tx.savepoint(
                        "taken_back",
                        || outbox::queue_ahead(tx, &e_row, t0),
                        |_| false,
                    )??;
                    outbox::queue_ahead(tx, &f_row, t0)?;
                    Ok::<_, StoreError>(outbox::claim(tx, "me", t0, t0, 10)?.remove(0).id)
                })
                .unwrap();
            assert_eq!(outbox::body(s.conn(), f).unwrap(), e, "{name}");
            assert_eq!(parts_and_uses(&s), (1, 1), "{name}");
        }
    }

    /// The SQL literals of the store's modules (not the migrations), as
    /// SQLite reads them: `?N` a NULL, line continuations joined.
    fn statements() -> Vec<(String, String)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/store");
        let mut out = Vec::new();
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .filter(|p| {
                !["schema.rs", "db.rs", "testing.rs"]
                    .iter()
                    .any(|f| p.ends_with(f))
            })
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            for verb in ["\"SELECT ", "\"UPDATE ", "\"DELETE "] {
                for (at, _) in text.match_indices(verb) {
                    let mut sql = String::new();
                    let mut chars = text[at + 1..].chars().peekable();
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' => match chars.next() {
                                Some('\n') => {
                                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                                        chars.next();
                                    }
                                }
                                Some(c) => sql.push(c),
                                None => {}
                            },
                            c => sql.push(c),
                        }
                    }
                    if sql.contains('{') || sql.contains("sqlite_master") {
                        continue; // formatted, or the schema's own check
                    }
                    let mut plain = String::new();
                    let mut rest = sql.replace(" FOR UPDATE SKIP LOCKED", "");
                    while let Some(q) = rest.find('?') {
                        plain.push_str(&rest[..q]);
                        plain.push_str("NULL");
                        rest = rest[q + 1..]
                            .trim_start_matches(|c: char| c.is_ascii_digit())
                            .to_string();
                    }
                    plain.push_str(&rest);
                    out.push((name.clone(), plain));
                }
            }
        }
        out
    }

    /// How SQLite runs `sql`, a step a line; `None` when SQLite does not
    /// take it (a PostgreSQL dialect's own statement).
    fn plan(store: &Store, sql: &str) -> Option<Vec<String>> {
        store
            .conn()
            .with_sqlite(|c| {
                let mut st = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
                let rows = st.query_map([], |r| r.get::<_, String>(3))?;
                rows.collect::<rusqlite::Result<Vec<_>>>()
            })
            .unwrap()
            .ok()
    }

    /// A sender takes the oldest unsent rows of the outbox from an index
    /// that holds them in order. Sorting all the rows still to send for
    /// each claim of a few is work that grows with the square of a
    /// deadline's mails (issue 24: 50,000 at 10,000 games).
    #[test]
    fn the_outbox_is_claimed_in_order_without_sorting() {
        let store = Store::open_in_memory().unwrap();
        let unsent: Vec<(String, String)> = statements()
            .into_iter()
            .filter(|(_, sql)| sql.contains("FROM outbox WHERE sent_at IS NULL"))
            .collect();
        assert!(unsent.len() >= 2, "the claim and the leases: {unsent:?}");
        for (file, sql) in unsent {
            let steps = plan(&store, &sql).expect("SQLite takes it");
            assert!(
                steps.iter().any(|s| s.contains("outbox_unsent"))
                    && !steps.iter().any(|s| s.contains("TEMP B-TREE")),
                "{file}: {sql}: {steps:?}"
            );
        }
    }

    /// No statement of the store reads a whole table where an index could
    /// find its rows: such a look-up grows with the number of games, and a
    /// season's crunch of 10,000 games (issue 24) made every message's
    /// handling read all of them. Campaigns are the exception: a club has
    /// a handful, and their powers are found by address only when a
    /// stranger writes.
    #[test]
    fn no_statement_reads_a_whole_table() {
        let store = Store::open_in_memory().unwrap();
        let tables: Vec<String> = store
            .conn()
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(|name| name.unwrap())
            .collect();
        let few = ["campaigns", "campaign_powers", "meta", "leagues"];
        let mut checked = 0;
        let mut scans = Vec::new();
        for (file, sql) in statements() {
            let Some(plan) = plan(&store, &sql) else {
                continue; // PostgreSQL's own (a dialect's branch)
            };
            checked += 1;
            for step in plan {
                let Some(table) = step.strip_prefix("SCAN ") else {
                    continue;
                };
                let table = table.split(' ').next().unwrap_or_default();
                if !step.contains(" USING ")
                    && tables.iter().any(|t| t == table)
                    && !few.contains(&table)
                {
                    scans.push(format!("{file}: {sql}: {step}"));
                }
            }
        }
        assert!(checked >= 80, "only {checked} statements read");
        assert!(scans.is_empty(), "whole tables read:\n{}", scans.join("\n"));
    }
}
