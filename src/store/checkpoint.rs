//! SQLite's journal copied into the database file on a thread of its own
//! (issue 24).
//!
//! In WAL mode a commit appends the changed pages to the journal, and
//! every so often they are copied into the database file (a checkpoint).
//! SQLite does that on the thread that committed, once the journal holds
//! [`super::CHECKPOINT_PAGES`]. In a deadline that thread is the post
//! office's only writer, the one every message and round waits for, and
//! the copy is the slow half of a store's writing: it is where the file
//! grows, into memory the system has to find anew (on this machine at
//! 140–450 MB/s, measured; a deadline of 10,000 games writes 2.6 GB). This
//! thread copies what has been committed, a little at a time, while the
//! writer goes on; the writer's own checkpoint is left for when the thread
//! falls behind. Once the store is quiet it empties the journal, so that
//! no secret cut from a row stays in it (issue 43; [`Journal::look`]).

use super::Durability;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// How often the thread copies what has been committed.
const EVERY: Duration = Duration::from_millis(100);

/// The thread, stopped and waited for when the store closes, so that the
/// store's own connection is the last and folds the journal away.
pub(super) struct Checkpointer {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    /// A thread checkpointing the SQLite store at `path`; `None` when its
    /// connection or thread cannot be had, and the writer's own
    /// checkpoints do the work as before.
    pub(super) fn start(path: &Path, durability: Durability) -> Option<Checkpointer> {
        let conn = rusqlite::Connection::open(path)
            .and_then(|c| {
                c.pragma_update(None, "synchronous", durability.pragma())?;
                Ok(c)
            })
            .map_err(|e| tracing::warn!("no checkpoint thread: {e}"))
            .ok()?;
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("umpire-checkpoint".into())
            .spawn(move || {
                let mut journal = Journal::default();
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(EVERY) {
                    if let Err(e) = journal.look(&conn) {
                        tracing::debug!("checkpoint put off: {e}");
                    }
                }
            })
            .map_err(|e| tracing::warn!("no checkpoint thread: {e}"))
            .ok()?;
        Some(Checkpointer {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

/// What the journal held at the thread's last look, in frames (pages).
#[derive(Default)]
struct Journal {
    frames: i64,
}

impl Journal {
    /// Copy what has been committed; and once the store is quiet (nothing
    /// committed since the last look, everything copied) empty the journal.
    ///
    /// A page a commit changed stays in the journal, as it was, until the
    /// journal comes round to that place again: a password cut from a row
    /// (a welcome's once sent, one masked in a stored message) would stay
    /// readable in the `-wal` file of a quiet service for days, though
    /// `secure_delete` has zeroed it in the database file (issue 43).
    /// Emptying the journal (`TRUNCATE`) needs every reader to have moved
    /// on from it and the write lock for a moment: taken without waiting,
    /// so a reader or writer of the moment puts it off to the next look,
    /// and in a deadline, where something is committed every few
    /// milliseconds, it waits until the deadline's work is done instead of
    /// making the journal grow anew again and again.
    fn look(&mut self, conn: &rusqlite::Connection) -> rusqlite::Result<()> {
        // PASSIVE copies what no reader still needs and never waits for a
        // lock; what it leaves is copied next time.
        let (_, frames, copied) = checkpoint(conn, "PASSIVE")?;
        let quiet = frames > 0 && frames == copied && frames == self.frames;
        self.frames = frames;
        if quiet {
            let (busy, left, _) = checkpoint(conn, "TRUNCATE")?;
            if busy == 0 && left == 0 {
                self.frames = 0;
            }
        }
        Ok(())
    }
}

/// `PRAGMA wal_checkpoint(mode)`: whether it was kept from finishing, the
/// journal's frames, and how many of them are in the database file now.
fn checkpoint(conn: &rusqlite::Connection, mode: &str) -> rusqlite::Result<(i64, i64, i64)> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::store::Store;
    use std::time::{Duration, Instant};

    /// What is committed reaches the database file while the store is
    /// open, though far less than the writer's own checkpoint waits for;
    /// and closing the store leaves no journal behind.
    #[test]
    fn the_journal_is_copied_into_the_file_while_the_store_is_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("umpire.sqlite");
        let mut store = Store::open(&path).unwrap();
        let size = || std::fs::metadata(&path).unwrap().len();
        let before = size();
        let text = "x".repeat(1000);
        store
            .write(|tx| {
                for _ in 0..500 {
                    crate::store::log(tx, chrono::Utc::now(), None, "info", &text)?;
                }
                Ok::<_, crate::store::StoreError>(())
            })
            .unwrap();
        let wal = dir.path().join("umpire.sqlite-wal");
        assert!(
            std::fs::metadata(&wal).unwrap().len() > 400_000,
            "in the journal"
        );
        let t = Instant::now();
        while size() < before + 400_000 {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "not copied: {} bytes",
                size()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        drop(store);
        assert!(!wal.exists(), "the journal folded away at close");
    }

    /// A secret written and then cut is gone from the journal as well as
    /// from the database file once the store is quiet, the store still
    /// open (a service between deadlines).
    #[test]
    fn a_cut_secret_leaves_the_journal_once_the_store_is_quiet() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("umpire.sqlite");
        let mut store = Store::open(&path).unwrap();
        let secret = "hunter2-tiger-lily";
        let write = |store: &mut Store, text: &str| {
            store
                .write(|tx| {
                    tx.execute(
                        "INSERT INTO meta (key, value) VALUES ('test', ?1) \
                         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        [text],
                    )
                    .map_err(crate::store::StoreError::from)
                })
                .unwrap();
        };
        write(&mut store, &format!("{secret} {}", "x".repeat(3000)));
        let files = || {
            let mut bytes = Vec::new();
            for name in ["umpire.sqlite", "umpire.sqlite-wal", "umpire.sqlite-shm"] {
                bytes.extend(std::fs::read(dir.path().join(name)).unwrap_or_default());
            }
            bytes
        };
        let holds = |bytes: &[u8]| bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
        assert!(holds(&files()), "written");
        write(&mut store, "cut");
        let t = Instant::now();
        while holds(&files()) {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "the cut secret is still in the store's files"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let wal = dir.path().join("umpire.sqlite-wal");
        assert_eq!(std::fs::metadata(wal).unwrap().len(), 0, "emptied");
        let text = store
            .optional_string("SELECT value FROM meta WHERE key = 'test'", [])
            .unwrap();
        assert_eq!(
            text.as_deref(),
            Some("cut"),
            "the store still open and whole"
        );
    }
}
