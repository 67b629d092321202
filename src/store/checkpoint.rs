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
//! falls behind.

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
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(EVERY) {
                    // PASSIVE copies what no reader still needs and never
                    // waits for a lock; what it leaves is copied next time.
                    let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
                    if let Err(e) = done {
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
}
