//! Writers of one SQLite file in this process take turns, first come first
//! served. SQLite lets one connection write at a time; one that finds the
//! file locked sleeps and tries again (its busy handler: 1, 2, 5 … up to
//! 100 ms between tries), and a writer that begins its next transaction the
//! moment it commits wins nearly every time. In `umpire run` the post boy,
//! sending the outbox on a connection of its own, waited so behind a
//! deadline's handling and sent little until it ended (issue 24). Writers
//! of other processes (`umpire ingest`) still meet SQLite's own lock.

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

/// The turns at one file.
#[derive(Default)]
pub struct Turns {
    state: Mutex<State>,
    moved: Condvar,
}

#[derive(Default)]
struct State {
    /// A writer has its turn.
    taken: bool,
    /// Tickets waiting, the first next.
    queue: VecDeque<u64>,
    next: u64,
}

/// A writer's turn, given up when dropped.
pub struct Turn(Arc<Turns>);

impl Turns {
    /// The turns at the file `path` (its canonical path: every connection
    /// of this process to that file shares them).
    pub fn of_file(path: &Path) -> Arc<Turns> {
        static FILES: Mutex<BTreeMap<PathBuf, Weak<Turns>>> = Mutex::new(BTreeMap::new());
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mut files = FILES.lock().unwrap_or_else(PoisonError::into_inner);
        files.retain(|_, t| t.strong_count() > 0);
        if let Some(turns) = files.get(&key).and_then(Weak::upgrade) {
            return turns;
        }
        let turns = Arc::new(Turns::default());
        files.insert(key, Arc::downgrade(&turns));
        turns
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wait for a turn, at most `patience`: a writer of this thread that
    /// holds a turn on another connection would never give it up, and
    /// then SQLite's own lock (and its time-out) decides, as it did before.
    pub fn wait(self: &Arc<Self>, patience: Duration) -> Option<Turn> {
        let until = Instant::now() + patience;
        let mut state = self.state();
        let ticket = state.next;
        state.next += 1;
        state.queue.push_back(ticket);
        loop {
            if !state.taken && state.queue.front() == Some(&ticket) {
                state.queue.pop_front();
                state.taken = true;
                return Some(Turn(self.clone()));
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                state.queue.retain(|&t| t != ticket);
                self.moved.notify_all();
                return None;
            }
            state = self
                .moved
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.state().taken = false;
        self.0.moved.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writers are served in the order they came, each once the turn
    /// before is given up, and one that waits too long goes without.
    #[test]
    fn turns_are_taken_in_the_order_asked() {
        let dir = tempfile::tempdir().unwrap();
        let turns = Turns::of_file(&dir.path().join("a.sqlite"));
        assert!(Arc::ptr_eq(
            &turns,
            &Turns::of_file(&dir.path().join(".").join("a.sqlite"))
        ));
        let first = turns.wait(Duration::from_secs(5)).unwrap();
        assert!(
            turns.wait(Duration::from_millis(50)).is_none(),
            "taken: no turn within the patience"
        );
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for i in 0..4 {
                let (turns, order) = (&turns, &order);
                s.spawn(move || {
                    let _turn = turns.wait(Duration::from_secs(30)).unwrap();
                    order.lock().unwrap().push(i);
                    std::thread::sleep(Duration::from_millis(5));
                });
                // Each asks before the next.
                while turns.state().queue.len() < i + 1 {
                    std::thread::yield_now();
                }
            }
            drop(first);
        });
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3]);
        assert!(turns.wait(Duration::ZERO).is_some(), "free again");
    }
}
