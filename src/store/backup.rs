//! Backups of a SQLite store (issue 43). [`backup`] copies the store to a
//! file while the service runs, through SQLite's online backup (one read
//! transaction: a consistent copy, and writers go on meanwhile, as WAL lets
//! them), checks the copy whole and puts it in place atomically;
//! [`restore`] checks a backup ([`inspect`]: an umpire store, a schema
//! this build knows, whole) and puts it in place of the store, keeping the
//! store it replaces beside it. A PostgreSQL store is backed up with
//! `pg_dump`: [`postgres_advice`] words the commands.
//!
//! ```no_run
//! use std::path::Path;
//! let taken = umpire::store::backup::backup(Path::new("umpire.sqlite"), Path::new("nightly.sqlite"))?;
//! println!("{taken}");
//! # Ok::<(), umpire::store::backup::BackupError>(())
//! ```
//!
//! Architecture invariant: neither ever deletes a store. A backup replaces
//! only an earlier backup (a file that reads as an umpire store and is not
//! the store itself), through a file of its own renamed over it; a restore
//! moves the store it replaces aside, under a name that says when.

use chrono::{DateTime, Utc};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a backup or a restore was refused or failed; each says the fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BackupError {
    /// `database = "umpire.sqlite"` where there is no such file.
    #[error("there is no store at {path} to back up: check `database` in the configuration (relative paths are read from the configuration's folder)")]
    NoStore { path: String },
    /// `umpire backup umpire.sqlite` with the store at umpire.sqlite.
    #[error("{path} is the store itself: name another file, such as {suggest}")]
    SameFile { path: String, suggest: String },
    /// `umpire backup /var/backups`: a folder where a file is wanted.
    #[error("{path} is a folder: name a file in it, such as {suggest}")]
    Folder { path: String, suggest: String },
    /// `umpire restore nightly.sqlite` where there is no such file.
    #[error("there is no file {path}: give the path of a file `umpire backup` wrote")]
    NoFile { path: String },
    /// `umpire backup umpire.toml`: a file that is not an earlier backup.
    #[error("{path} exists and is not an umpire store ({why}): a backup replaces only an earlier backup; name a new file")]
    WouldReplace { path: String, why: String },
    /// A file that is not an umpire store: garbage, another program's
    /// database, an empty file.
    #[error("{path} is not an umpire store: {why}; give a file `umpire backup` wrote")]
    NotAStore { path: String, why: String },
    /// A backup of a newer umpire's schema.
    #[error("{path} was written by a newer umpire (schema {found}, this one knows {known}): restore it with an umpire as new as the one that wrote it")]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    /// SQLite's own check found pages that do not hold together.
    #[error(
        "{path} is damaged: SQLite's check says: {why}; take another backup, or use an older one"
    )]
    Damaged { path: String, why: String },
    /// The store holds changes made after the backup's last one.
    #[error("the store {store} changed after the backup {backup} was taken (the store's last change {store_last}, the backup's {backup_last}): restoring it would lose those changes. If this is the backup you mean, `umpire restore {backup} --force` replaces the store anyway (the store is kept beside it)")]
    Newer {
        store: String,
        backup: String,
        store_last: String,
        backup_last: String,
    },
    /// The store and the backup are of two installations.
    #[error("the store {store} is another installation's than the backup {backup} (it holds games of its own): check the configuration names the store you mean; `umpire restore {backup} --force` replaces it anyway (the store is kept beside it)")]
    OtherInstallation { store: String, backup: String },
    /// Another process has the store open.
    #[error("the store {path} is open in another process (the service, or another umpire command): stop it first (`systemctl stop umpire`), restore, then start it again")]
    InUse { path: String },
    /// The source stayed locked.
    #[error("{path} stayed locked for {seconds} seconds (a long write?): try again")]
    Busy { path: String, seconds: u64 },
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Sql {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
}

type Result<T> = std::result::Result<T, BackupError>;

/// What a store (or a backup) holds, as shown to the administrator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contents {
    /// Its schema version (`user_version`).
    pub schema: i64,
    /// How many games it holds.
    pub games: i64,
    /// The latest time anything was done in it: a message stored, a mail
    /// queued or sent, a line of a game's log (RFC 3339, as stored).
    pub last_change: Option<String>,
    /// Its installation's key (stores before schema 5 have none).
    pub installation: Option<String>,
    /// The file's size.
    pub bytes: u64,
}

impl fmt::Display for Contents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} game{}, schema {}, last change {}, {}",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.schema,
            self.last_change.as_deref().unwrap_or("none"),
            size(self.bytes)
        )
    }
}

fn size(bytes: u64) -> String {
    let b = bytes as f64;
    if bytes < 1024 * 1024 {
        format!("{:.1} KB", b / 1024.0)
    } else {
        format!("{:.1} MB", b / (1024.0 * 1024.0))
    }
}

/// What [`restore`] did.
#[derive(Debug)]
pub struct Restored {
    /// The store's path.
    pub store: PathBuf,
    /// What the backup put there holds.
    pub contents: Contents,
    /// The store it replaced, and where it is kept now.
    pub replaced: Option<(PathBuf, Option<Contents>)>,
}

impl fmt::Display for Restored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "restored to {}: {}", self.store.display(), self.contents)?;
        let known = super::schema::MIGRATIONS.len() as i64;
        if self.contents.schema < known {
            writeln!(
                f,
                "This umpire migrates it from schema {} to {known} when it next opens it.",
                self.contents.schema
            )?;
        }
        match &self.replaced {
            Some((kept, Some(c))) => writeln!(
                f,
                "The store it replaced ({c}) is kept as {}; delete it once the restored store is right.",
                kept.display()
            )?,
            Some((kept, None)) => writeln!(
                f,
                "The file it replaced (not a readable store) is kept as {}.",
                kept.display()
            )?,
            None => {}
        }
        writeln!(
            f,
            "Start the service again (`systemctl start umpire`); `umpire games` shows what the store holds."
        )
    }
}

/// A backup taken: where, and what it holds.
#[derive(Debug)]
pub struct Taken {
    pub store: PathBuf,
    pub file: PathBuf,
    pub contents: Contents,
}

impl fmt::Display for Taken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "backed up {} to {}: {}; SQLite's check finds it whole.",
            self.store.display(),
            self.file.display(),
            self.contents
        )?;
        writeln!(
            f,
            "`umpire restore {}` puts it back (with the service stopped).",
            self.file.display()
        )
    }
}

/// How long a locked store is waited for.
const PATIENCE: Duration = Duration::from_secs(60);

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn sql(path: &Path) -> impl FnOnce(rusqlite::Error) -> BackupError + '_ {
    move |source| BackupError::Sql {
        path: path.display().to_string(),
        source,
    }
}

fn folder(path: &Path) -> BackupError {
    BackupError::Folder {
        path: path.display().to_string(),
        suggest: path.join("umpire-backup.sqlite").display().to_string(),
    }
}

/// Open an existing SQLite file (never make one) for reading and the
/// backup's own writes.
fn open_existing(path: &Path) -> Result<Connection> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(sql(path))?;
    c.busy_timeout(PATIENCE).map_err(sql(path))?;
    Ok(c)
}

/// The same file, however named.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `path` with `suffix` added to its name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// What the umpire store at `path` holds, after checking that it is one
/// this build can open and that SQLite finds it whole.
///
/// # Errors
/// [`BackupError::NotAStore`] for a missing or empty file, a file that is
/// not a SQLite database, or one without umpire's tables;
/// [`BackupError::TooNew`], [`BackupError::Damaged`].
pub fn inspect(path: &Path) -> Result<Contents> {
    let not = |why: &str| BackupError::NotAStore {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(BackupError::NoFile {
                path: path.display().to_string(),
            })
        }
        Err(e) => return Err(io(path)(e)),
        Ok(m) if m.is_dir() => return Err(folder(path)),
        Ok(m) if m.len() == 0 => return Err(not("it is an empty file (0 bytes)")),
        Ok(_) => {}
    }
    let c = open_existing(path)?;
    let found = contents(&c, path)?;
    whole(&c, path)?;
    Ok(found)
}

/// The contents of an open store, checked to be umpire's and of a schema
/// this build knows.
fn contents(c: &Connection, path: &Path) -> Result<Contents> {
    let not = |why: String| BackupError::NotAStore {
        path: path.display().to_string(),
        why,
    };
    let schema: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => {
                not("it is not a SQLite database".to_string())
            }
            _ => sql(path)(e),
        })?;
    let tables: i64 = c
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' \
             AND name IN ('games', 'messages', 'outbox', 'log')",
            [],
            |r| r.get(0),
        )
        .map_err(sql(path))?;
    if tables < 4 || schema < 1 {
        return Err(not(
            "a SQLite database without umpire's tables (games, messages, outbox, log)".into(),
        ));
    }
    let known = super::schema::MIGRATIONS.len() as i64;
    if schema > known {
        return Err(BackupError::TooNew {
            path: path.display().to_string(),
            found: schema,
            known,
        });
    }
    let games = c
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .map_err(sql(path))?;
    // The latest row of each table that grows with the work, found by its
    // key (no table is read whole), and the latest delivery.
    let mut last: Option<String> = None;
    for q in [
        "SELECT received_at FROM messages WHERE id = (SELECT max(id) FROM messages)",
        "SELECT created_at FROM outbox WHERE id = (SELECT max(id) FROM outbox)",
        "SELECT max(sent_at) FROM outbox WHERE sent_at IS NOT NULL",
        "SELECT at FROM log WHERE id = (SELECT max(id) FROM log)",
    ] {
        let t: Option<String> = c
            .query_row(q, [], |r| r.get(0))
            .optional()
            .map_err(sql(path))?
            .flatten();
        last = last.max(t);
    }
    let has_meta: bool = c
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .map_err(sql(path))?
        > 0;
    let installation = if has_meta {
        c.query_row(
            "SELECT value FROM meta WHERE key = 'installation'",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql(path))?
    } else {
        None
    };
    Ok(Contents {
        schema,
        games,
        last_change: last,
        installation,
        bytes: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
    })
}

/// SQLite's own check of every page and index.
fn whole(c: &Connection, path: &Path) -> Result<()> {
    let verdict: Vec<String> = c
        .prepare("PRAGMA quick_check")
        .and_then(|mut st| {
            st.query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(sql(path))?;
    if verdict.len() == 1 && verdict[0] == "ok" {
        return Ok(());
    }
    Err(BackupError::Damaged {
        path: path.display().to_string(),
        why: verdict.into_iter().take(5).collect::<Vec<_>>().join("; "),
    })
}

/// Copy `from` (open) into a new file at `to` with SQLite's online backup,
/// in one step: one read transaction, so the copy is the store as one
/// commit left it, while writers in other connections go on (WAL). The
/// copy is a file of its own (no journal beside it), synced to disk.
fn copy(from: &Connection, from_path: &Path, to: &Path) -> Result<()> {
    let _ = std::fs::remove_file(to);
    let mut dst = Connection::open(to).map_err(sql(to))?;
    {
        let backup = Backup::new(from, &mut dst).map_err(sql(to))?;
        let began = Instant::now();
        loop {
            match backup.step(-1).map_err(sql(to))? {
                StepResult::Done => break,
                StepResult::More => {}
                _ if began.elapsed() > PATIENCE => {
                    return Err(BackupError::Busy {
                        path: from_path.display().to_string(),
                        seconds: PATIENCE.as_secs(),
                    })
                }
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }
    dst.pragma_update(None, "journal_mode", "DELETE")
        .map_err(sql(to))?;
    dst.close().map_err(|(_, e)| sql(to)(e))?;
    std::fs::File::open(to)
        .and_then(|f| f.sync_all())
        .map_err(io(to))
}

/// Rename `from` to `to` and sync the folder, so the new name survives a
/// power cut.
fn rename(from: &Path, to: &Path) -> Result<()> {
    std::fs::rename(from, to).map_err(io(to))?;
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Not every system lets a folder be synced; the rename is done.
        let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// Back up the SQLite store at `store` to `file`: a consistent copy taken
/// while the service may be writing, checked whole, then renamed into
/// place (a failure leaves any earlier backup at `file` as it was).
///
/// # Errors
/// No store at `store`; `file` is the store itself, a folder, or a file that
/// is not an earlier backup; the store is not an umpire store or stayed
/// locked; the disk refused the copy.
pub fn backup(store: &Path, file: &Path) -> Result<Taken> {
    if !store.exists() {
        return Err(BackupError::NoStore {
            path: store.display().to_string(),
        });
    }
    if same_file(store, file) {
        return Err(BackupError::SameFile {
            path: file.display().to_string(),
            suggest: beside(store, ".backup").display().to_string(),
        });
    }
    if file.is_dir() {
        return Err(folder(file));
    }
    if file.exists() {
        inspect(file).map_err(|e| BackupError::WouldReplace {
            path: file.display().to_string(),
            why: match e {
                BackupError::NotAStore { why, .. } => why,
                e => e.to_string(),
            },
        })?;
    }
    if std::fs::metadata(store).is_ok_and(|m| m.len() == 0) {
        return Err(BackupError::NotAStore {
            path: store.display().to_string(),
            why: "it is an empty file (0 bytes)".into(),
        });
    }
    let source = open_existing(store)?;
    contents(&source, store)?;
    let partial = beside(file, &format!(".partial-{}", std::process::id()));
    let taken = copy(&source, store, &partial).and_then(|()| {
        let c = open_existing(&partial)?;
        whole(&c, &partial)?;
        let mut found = contents(&c, &partial)?;
        drop(c);
        rename(&partial, file)?;
        found.bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
        Ok(found)
    });
    if taken.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    Ok(Taken {
        store: store.to_path_buf(),
        file: file.to_path_buf(),
        contents: taken?,
    })
}

/// Before this build migrates the SQLite store at `store` from an older
/// schema: a backup of it as it is, beside it as `STORE.schema-N.backup`
/// (N its schema now), returned for the log to say where. One already
/// there (an upgrade tried before, or another process's at the same
/// moment) is kept, and a copy that is not of schema `version` (another
/// process migrated the store meanwhile) is not put in place. `None`
/// when the file is not a store of an older schema. `found` is the schema
/// the caller's connection reads: most stores are current, and are not
/// opened again here.
///
/// # Errors
/// The copy could not be made (the store is then not to be migrated).
pub fn before_migrating(store: &Path, found: i64) -> Result<Option<PathBuf>> {
    let known = super::schema::MIGRATIONS.len() as i64;
    if found >= known {
        return Ok(None);
    }
    let version = match open_existing(store)
        .and_then(|c| contents(&c, store))
        .map(|c| c.schema)
    {
        Ok(v) if v < known => v,
        // Current, or not a store this can read: Store::open says why.
        _ => return Ok(None),
    };
    let target = beside(store, &format!(".schema-{version}.backup"));
    if target.exists() {
        return Ok(Some(target));
    }
    let partial = beside(&target, &format!(".partial-{}", std::process::id()));
    let made = open_existing(store)
        .and_then(|source| copy(&source, store, &partial))
        .and_then(|()| {
            let c = open_existing(&partial)?;
            let found = contents(&c, &partial)?;
            whole(&c, &partial)?;
            Ok(found.schema == version)
        });
    match made {
        Ok(true) => {
            rename(&partial, &target)?;
            Ok(Some(target))
        }
        Ok(false) => {
            let _ = std::fs::remove_file(&partial);
            Ok(None)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// Whether another connection has the store open: SQLite removes a WAL
/// store's `-wal` and `-shm` files when its last connection closes, so
/// after ours closes they remain only while another has it open.
fn in_use(store: &Path) -> bool {
    beside(store, "-wal").exists() || beside(store, "-shm").exists()
}

/// Put the backup `file` in place of the SQLite store at `store`, after
/// checking it ([`inspect`]). A store already there is moved aside to
/// `STORE.before-restore-TIME` (never deleted); without `force`, one that
/// changed after the backup's last change, or that is another
/// installation's with games of its own, is refused. `now` names the
/// store moved aside.
///
/// # Errors
/// The backup is not a whole umpire store of a schema this build knows;
/// the store is newer or another's (without `force`), or open in another
/// process; the disk refused the copy.
pub fn restore(file: &Path, store: &Path, force: bool, now: DateTime<Utc>) -> Result<Restored> {
    if same_file(store, file) {
        return Err(BackupError::SameFile {
            path: file.display().to_string(),
            suggest: "the backup file `umpire backup` wrote".into(),
        });
    }
    let backed = inspect(file)?;
    let present = store.exists() || beside(store, "-wal").exists();
    let mut current = None;
    if present {
        // Read it, and fold its journal into it: once this connection has
        // closed, a journal left beside it means another process has it.
        let read = open_existing(store).and_then(|c| {
            let found = contents(&c, store);
            let _ = c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            drop(c);
            found
        });
        if in_use(store) {
            return Err(BackupError::InUse {
                path: store.display().to_string(),
            });
        }
        // A store that cannot be read (damaged, emptied) is what a restore
        // is for: it is moved aside like any other.
        current = read.ok();
        if let (Some(now_in), false) = (&current, force) {
            if now_in.last_change > backed.last_change {
                return Err(BackupError::Newer {
                    store: store.display().to_string(),
                    backup: file.display().to_string(),
                    store_last: now_in.last_change.clone().unwrap_or_default(),
                    backup_last: backed.last_change.clone().unwrap_or_else(|| "none".into()),
                });
            }
            if now_in.games > 0
                && now_in.installation.is_some()
                && backed.installation.is_some()
                && now_in.installation != backed.installation
            {
                return Err(BackupError::OtherInstallation {
                    store: store.display().to_string(),
                    backup: file.display().to_string(),
                });
            }
        }
    }
    // The copy first, beside the store: a failure leaves the store as it was.
    if let Some(dir) = store.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let incoming = beside(store, &format!(".restoring-{}", std::process::id()));
    let copied = open_existing(file)
        .and_then(|source| copy(&source, file, &incoming))
        .and_then(|()| {
            let c = open_existing(&incoming)?;
            let found = contents(&c, &incoming)?;
            whole(&c, &incoming)?;
            Ok(found)
        });
    let contents = match copied {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_file(&incoming);
            return Err(e);
        }
    };
    let replaced = if present {
        let kept = beside(
            store,
            &format!(".before-restore-{}", now.format("%Y%m%dT%H%M%SZ")),
        );
        if store.exists() {
            rename(store, &kept)?;
        }
        for journal in ["-wal", "-shm"] {
            let j = beside(store, journal);
            if j.exists() {
                rename(&j, &beside(&kept, journal))?;
            }
        }
        Some((kept, current))
    } else {
        None
    };
    rename(&incoming, store)?;
    Ok(Restored {
        store: store.to_path_buf(),
        contents: Contents {
            bytes: std::fs::metadata(store).map(|m| m.len()).unwrap_or(0),
            ..contents
        },
        replaced,
    })
}

/// A PostgreSQL URL without its password, for a command to show.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((auth, host)) => {
            let user = auth.split_once(':').map_or(auth, |(u, _)| u);
            format!("{scheme}://{user}@{host}")
        }
        None => url.to_string(),
    }
}

/// What to do instead for a PostgreSQL store: `pg_dump` makes the
/// consistent copy while the service runs, `pg_restore` puts it back.
/// The URL is shown without its password.
pub fn postgres_advice(url: &str, file: &Path, restoring: bool) -> String {
    let url = without_password(url);
    let file = file.display();
    let what = if restoring {
        "restored with pg_restore"
    } else {
        "backed up with pg_dump"
    };
    format!(
        "the store is a PostgreSQL database ({url}): it is {what}, not by umpire.\n\
         Back it up (a consistent copy while the service runs):\n\
         \x20 pg_dump --format=custom --file={file} '{url}'\n\
         Restore it (the service stopped on every machine):\n\
         \x20 pg_restore --clean --if-exists --no-owner --dbname='{url}' {file}\n\
         pg_dump and pg_restore ask for the password, or read it from ~/.pgpass or PGPASSWORD.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_shown_without_its_password() {
        assert_eq!(
            without_password("postgres://umpire:s3cret@db.club.example:5432/umpire"),
            "postgres://umpire@db.club.example:5432/umpire"
        );
        assert_eq!(
            without_password("postgresql://db.example/u"),
            "postgresql://db.example/u"
        );
        let advice = postgres_advice(
            "postgres://umpire:s3cret@db/umpire",
            Path::new("club.dump"),
            false,
        );
        assert!(!advice.contains("s3cret"), "{advice}");
        assert!(
            advice
                .contains("pg_dump --format=custom --file=club.dump 'postgres://umpire@db/umpire'"),
            "{advice}"
        );
    }

    #[test]
    fn an_older_store_is_kept_once_before_it_is_migrated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u.sqlite");
        drop(crate::store::Store::open(&path).unwrap());
        let known = crate::store::schema::MIGRATIONS.len() as i64;
        assert_eq!(before_migrating(&path, known).unwrap(), None, "current");
        let older = known - 1;
        Connection::open(&path)
            .unwrap()
            .execute_batch(&format!("PRAGMA user_version = {older}"))
            .unwrap();
        let kept = before_migrating(&path, older).unwrap().expect("a backup");
        assert_eq!(
            kept,
            dir.path().join(format!("u.sqlite.schema-{older}.backup"))
        );
        assert_eq!(inspect(&kept).unwrap().schema, older);
        std::fs::write(dir.path().join("marker"), "").unwrap();
        let first = std::fs::metadata(&kept).unwrap().modified().unwrap();
        assert_eq!(before_migrating(&path, older).unwrap(), Some(kept.clone()));
        assert_eq!(
            std::fs::metadata(&kept).unwrap().modified().unwrap(),
            first,
            "the first backup kept"
        );
        let marker = dir.path().join("marker");
        assert_eq!(before_migrating(&marker, 0).unwrap(), None, "no store");
    }

    #[test]
    fn a_garbage_file_is_no_store() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("junk.sqlite");
        std::fs::write(&f, b"not a database at all, just some bytes ".repeat(200)).unwrap();
        let e = inspect(&f).unwrap_err();
        assert!(matches!(e, BackupError::NotAStore { .. }), "{e:?}");
        assert!(e.to_string().contains("not a SQLite database"), "{e}");
        std::fs::write(&f, b"").unwrap();
        assert!(inspect(&f).unwrap_err().to_string().contains("empty file"));
        let other = dir.path().join("other.sqlite");
        Connection::open(&other)
            .unwrap()
            .execute_batch("CREATE TABLE t (x)")
            .unwrap();
        assert!(inspect(&other)
            .unwrap_err()
            .to_string()
            .contains("without umpire's tables"));
    }
}
