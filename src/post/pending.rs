//! Handling stored messages several to a transaction, each in its own
//! savepoint behind the guard.
//!
//! With `synchronous = FULL` every commit waits for the disk, and that
//! wait, not the reading of orders, is what an ingest spends its time on.
//! So up to `config.batch` messages (or as many as [`BATCH_TIME`] allows)
//! are handled in one write transaction:
//! each in a savepoint of its own, rolled back alone when it fails (and
//! then marked failed in the same transaction). Orders that complete a
//! round make its game due, and its round starts being worked out on the
//! pool (`post::ahead`); the batch goes on with other games' mail until it
//! ends, [`ahead::WAVE`] games are due, or the next message is for a game
//! that is due (or names none). After each commit the due rounds already
//! worked out are played ([`Wave::Ready`]); before a message for a due
//! game, and at the end, every due round is ([`Wave::All`]). So no message
//! is read before a round it could change is played — just as if each
//! message had had its own transaction.
//!
//! Architecture invariant (durability): handling acknowledges nothing to the
//! outside world. Replies wait in the outbox until the batch's commit is on
//! disk, and only then can `send` see them; a crash before the commit loses
//! the whole batch's handling and nothing else: its messages are still
//! `new`, stored raw, and the next run handles them again with the same
//! reply Message-IDs.

use super::guard::{self, Guarded};
use super::{ahead, dkim, handle, round, Disposition, PostError, PostOffice};
use crate::config::Config;
use crate::store::{self, Transaction};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A batch's transaction takes no more messages once it has been open this
/// long (it always takes one): the write lock is never held long, so other
/// processes wait little, and a process killed again and again (tests/
/// crash_safety.rs) still commits work between kills.
pub const BATCH_TIME: Duration = Duration::from_millis(25);

/// How often a transaction refused for a moment (busy, a serialization
/// conflict) is tried again, 20 ms to 320 ms apart, before its messages
/// are left for the next run.
pub(super) const TRANSIENT_TRIES: u32 = 5;

/// How long to wait before try number `tries` (from 1) of a transaction
/// refused for a moment.
pub(super) fn pause(tries: u32) -> Duration {
    Duration::from_millis(10 << tries)
}

impl PostOffice {
    /// Handle these stored messages, in order, `config.batch` to a write
    /// transaction. Returns what became of each one handled here (another
    /// process may have handled some first; those are passed by).
    ///
    /// # Errors
    /// On database errors outside any one message (a failed commit is not
    /// one: those messages stay `new` for the next run).
    pub(super) fn handle_many(
        &mut self,
        ids: &[i64],
        now: DateTime<Utc>,
    ) -> Result<Vec<(i64, Disposition)>, PostError> {
        let config = self.config.clone();
        // On a store several workers share (PostgreSQL) a
        // message has a transaction of its own: a conflict with another
        // worker then costs one message's work, not a batch's.
        let shared = self.store.dialect() == store::Dialect::Postgres;
        let mut out = Vec::new();
        // Games whose round these messages completed: played together
        // (worked out on every core, `post::ahead`) once the messages
        // before the next one for any of them are committed. They outlive
        // a chunk (the chunks are for the DKIM look-ups), so the pool is
        // not left idle while the writer waits at every chunk's end.
        let mut due: Vec<String> = Vec::new();
        // Their rounds, worked out on the pool as they fall due.
        let mut working = ahead::Working::default();
        for chunk in ids.chunks(config.batch.max(1)) {
            // DKIM look-ups go to the network: never with the lock held.
            let mut ready = Vec::with_capacity(chunk.len());
            for &id in chunk {
                match dkim::verify_stored(&mut self.store, &config, &mut self.dkim_keys, id, now)? {
                    dkim::Readiness::Ready => ready.push(id),
                    dkim::Readiness::Later(why) => {
                        tracing::warn!(row = id, why = %why, "DKIM keys could not be looked up; message left for the next run")
                    }
                }
            }
            let mut rest = &ready[..];
            let mut tries = 0;
            // Work that reached beyond the rows a locking transaction took
            // (`Transaction::needs_serializable`) is done again in a
            // serializable one.
            let mut serial = false;
            while !rest.is_empty() {
                let work = |tx: &Transaction<'_>| {
                    batch(tx, &config, rest, shared, &mut due, &mut working, now)
                };
                // On a shared store a message's handling is guarded by the
                // locks it takes: the message's row and its game's.
                let done = if shared && !serial {
                    self.store.write_with_locks(work)
                } else {
                    self.store.write(work)
                };
                match done {
                    Ok((done, used, wave)) => {
                        tries = 0;
                        serial = false;
                        out.extend(done);
                        rest = &rest[used..];
                        self.play_due(&mut due, &mut working, wave, now)?;
                    }
                    Err(e) if guard::wants_serializable(&e) && !serial => serial = true,
                    // A conflict with another worker (or with one just
                    // killed, whose transaction the server is still
                    // ending) passes in moments: the same messages are
                    // tried again a few times before they are left.
                    Err(e) if guard::is_transient(&e) && tries < TRANSIENT_TRIES => {
                        tries += 1;
                        tracing::info!(error = %e, tries, "a moment's conflict; trying again");
                        std::thread::sleep(pause(tries));
                    }
                    Err(e) if guard::is_transient(&e) => {
                        tracing::warn!(error = %e, messages = rest.len(), "messages left for the next run");
                        self.play_due(&mut due, &mut working, Wave::All, now)?;
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        self.play_due(&mut due, &mut working, Wave::All, now)?;
        // Rounds played on these messages let go mail held for the rounds
        // they opened: it is read now, after them (each at most once: a
        // message is let go only once, and is not held again).
        let released: Vec<i64> = store::deferred::released_unread(self.store.conn())?
            .into_iter()
            .filter(|id| !ids.contains(id))
            .collect();
        if !released.is_empty() {
            out.extend(self.handle_many(&released, now)?);
        }
        Ok(out)
    }
}

/// What a batch did: what became of each message it handled, how many
/// of the messages given it took, and which due rounds to play now.
type Batched = (Vec<(i64, Disposition)>, usize, Wave);

/// The messages of `rest` handled in one write transaction, in order,
/// until the batch ends (one message handled on a `shared` store, or
/// [`BATCH_TIME`]), a message for a `due` game is next, or
/// [`ahead::WAVE`] games are due: what became of each, how many of `rest`
/// it took, and which due rounds to play now.
fn batch(
    tx: &Transaction<'_>,
    config: &Config,
    rest: &[i64],
    shared: bool,
    due: &mut Vec<String>,
    working: &mut ahead::Working,
    now: DateTime<Utc>,
) -> Result<Batched, PostError> {
    let started = Instant::now();
    let mut done: Vec<(i64, Disposition)> = Vec::with_capacity(rest.len());
    for (k, &id) in rest.iter().enumerate() {
        // On a shared store the transaction ends after the message it
        // handled; one another worker had taken (or handled) wrote
        // nothing, and the next is tried in the same transaction: two
        // workers going down one list pass half its messages by.
        let handled = if shared { !done.is_empty() } else { k > 0 };
        if handled && (shared || started.elapsed() >= BATCH_TIME) {
            return Ok((done, k, Wave::Ready));
        }
        if !due.is_empty() && for_any(tx, id, due)? {
            return Ok((done, k, Wave::All));
        }
        match one(tx, config, id, now)? {
            Some(Step::Play(d, game)) => {
                done.push((id, d));
                working.start(tx, &game);
                if !due.contains(&game) {
                    due.push(game);
                }
                if due.len() >= ahead::WAVE {
                    return Ok((done, k + 1, Wave::Ready));
                }
            }
            Some(Step::Handled(d)) => done.push((id, d)),
            None => {}
        }
    }
    // The chunk's end: the rounds back are played, the rest go on being
    // worked out (all are played after the last chunk).
    Ok((done, rest.len(), Wave::Ready))
}

/// Which of the due rounds to play now.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Wave {
    /// Every one (a message for one of their games is next, or the end).
    All,
    /// Those worked out already; when [`ahead::WAVE`] wait, at least the
    /// first of them.
    Ready,
}

impl PostOffice {
    /// Play the rounds of `due` that `wave` picks (worked out ahead on
    /// every core: in `working`, or else now), taking them from `due`. On
    /// SQLite they are played in one transaction, each in its own
    /// savepoint: one wait for the disk for the wave, not one a round. On
    /// a shared store (PostgreSQL), and whenever that transaction is
    /// refused, each round has a transaction of its own, so a conflict
    /// with another worker costs one round's work.
    pub(super) fn play_due(
        &mut self,
        due: &mut Vec<String>,
        working: &mut ahead::Working,
        wave: Wave,
        now: DateTime<Utc>,
    ) -> Result<usize, PostError> {
        let mut playing: Vec<String> = match wave {
            Wave::All => std::mem::take(due),
            Wave::Ready => due
                .iter()
                .filter(|g| working.looked_at(g) && working.is_back(g))
                .cloned()
                .collect(),
        };
        if playing.is_empty() && due.len() >= ahead::WAVE {
            playing.push(due[0].clone());
        }
        due.retain(|g| !playing.contains(g));
        if playing.is_empty() {
            return Ok(0);
        }
        let fresh: Vec<String> = playing
            .iter()
            .filter(|g| !working.looked_at(g))
            .cloned()
            .collect();
        self.start_due(&fresh, working, now)?;
        let mut worked = BTreeMap::new();
        for game in &playing {
            if let Some(ahead) = working.take(game) {
                worked.insert(game.clone(), ahead);
            }
        }
        if playing.len() > 1 && self.store.dialect() == store::Dialect::Sqlite {
            let config = self.config.clone();
            let wave: Vec<(String, Option<ahead::Ahead>)> = playing
                .iter()
                .map(|g| (g.clone(), worked.remove(g)))
                .collect();
            let together = self.store.write(|tx| {
                let mut played = 0;
                for (game, ahead) in wave {
                    played += tick(tx, &config, &game, now, ahead)?;
                }
                Ok::<_, PostError>(played)
            });
            match together {
                Ok(played) => return Ok(played),
                Err(e) => {
                    tracing::info!(error = %e, rounds = playing.len(), "a wave of rounds refused together; each played alone");
                }
            }
        }
        let mut played = 0;
        for game in playing {
            let ahead = worked.remove(&game);
            played += self.tick_game_with(&game, now, false, ahead)?;
        }
        Ok(played)
    }

    /// Start working out, on the pool, the rounds of `ids` that may be
    /// played now (`post::ahead`); every one of `ids` is looked at.
    /// Returns those whose tick could do nothing now ([`Look::Quiet`]),
    /// which a tick passes by.
    pub(super) fn start_due(
        &mut self,
        ids: &[String],
        working: &mut ahead::Working,
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, PostError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let started = self.store.write(|tx| {
            let mut quiet = Vec::new();
            for id in ids {
                match look(tx, id, now) {
                    Look::Play => working.start(tx, id),
                    Look::Tick => working.pass(id),
                    Look::Quiet => {
                        working.pass(id);
                        quiet.push(id.clone());
                    }
                }
            }
            Ok::<_, PostError>(quiet)
        });
        // Working ahead is only a saving: a store too busy to read for it
        // (another worker's conflict) leaves each round to be worked out in
        // its own transaction, and every game to be ticked.
        match started {
            Err(e) if guard::is_transient(&e) => {
                tracing::debug!(error = %e, "rounds not worked out ahead");
                ids.iter().for_each(|id| working.pass(id));
                Ok(Vec::new())
            }
            other => other,
        }
    }
}

/// Does stored message `id` name one of `games` (or, naming none, may it
/// be for one of them)?
fn for_any(tx: &Transaction<'_>, id: i64, games: &[String]) -> Result<bool, PostError> {
    let Some((_, raw)) = store::messages::load(tx, id)? else {
        return Ok(false);
    };
    Ok(match handle::game_named(&raw) {
        Some(named) => games.iter().any(|g| g.eq_ignore_ascii_case(&named)),
        None => true,
    })
}

/// What became of one message of a batch.
enum Step {
    Handled(Disposition),
    /// Orders that may have completed their game's round: it is played in
    /// a transaction of its own, after the batch's commit.
    Play(Disposition, String),
}

/// One message, in its own savepoint of the batch's transaction; then, if
/// it brought orders, its game's reminders (and its round, should
/// [`look`] have missed that it is due).
fn one(
    tx: &Transaction<'_>,
    config: &Config,
    id: i64,
    now: DateTime<Utc>,
) -> Result<Option<Step>, PostError> {
    let outcome = in_savepoint(tx, || {
        // Another process may have handled it since we looked.
        let Some((state, raw)) = store::messages::claim(tx, id)? else {
            return Ok(None);
        };
        if state != "new" {
            return Ok(None);
        }
        let d = handle::handle(tx, config, id, &raw, now)?;
        store::messages::set_state(tx, id, d.state(), d.note())?;
        Ok(Some(d))
    });
    match outcome {
        Guarded::Done(Some(d)) => {
            let Disposition::Orders { game, .. } = &d else {
                return Ok(Some(Step::Handled(d)));
            };
            match look(tx, game, now) {
                Look::Play => {
                    let game = game.clone();
                    return Ok(Some(Step::Play(d, game)));
                }
                Look::Tick => {
                    tick(tx, config, game, now, None)?;
                }
                Look::Quiet => {}
            }
            Ok(Some(Step::Handled(d)))
        }
        Guarded::Done(None) => Ok(None),
        Guarded::Later(e) => Err(e),
        Guarded::Failed(reason) => {
            handle::failed(tx, config, id, &reason, now)?;
            Ok(Some(Step::Handled(Disposition::Failed(reason))))
        }
    }
}

/// What a look at a game found its tick might do now ([`look`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Look {
    /// Its round might be played: every side that writes is ready, or
    /// the deadline has passed (grace or none, held or not).
    Play,
    /// Something else might be due: a reminder, a game-master round, an
    /// absence played by a general or held.
    Tick,
    /// Nothing: its tick would only read it.
    Quiet,
}

/// What `game`'s tick might do now: a hint that errs towards doing more
/// (`round::tick_game` decides). A wrong [`Look::Play`] only commits a
/// batch early; a wrong [`Look::Tick`] costs a tick that does nothing.
/// [`Look::Quiet`] only where the tick could do nothing: the round is the
/// sides' and not complete, its deadline and reminder time are still to
/// come, and no absence rule could act (the default, `extend`, acts only
/// at the deadline). On a shared store a tick is a transaction of its own
/// for each game, and most games are quiet most of the time (issue 43).
fn look(tx: &Transaction<'_>, game: &str, now: DateTime<Utc>) -> Look {
    let Ok(Some(game)) = super::game::Game::load(tx, game) else {
        return Look::Play;
    };
    let (Ok(round), Ok(ready)) = (game.round(), game.sides_ready(tx)) else {
        return Look::Play;
    };
    if now >= game.deadline() || round.writers.iter().all(|s| ready.contains(s)) {
        return Look::Play;
    }
    let reminder = chrono::Duration::hours(i64::from(game.row.reminder_hours));
    let reminded = game.row.reminder_hours > 0 && now >= game.deadline() - reminder;
    let absence = super::press::MailRules::load(tx, game.id()).map_or(true, |rules| {
        rules.absence.when != super::gamefile::WhenAbsent::Extend
    });
    if round.game_master.is_some() || reminded || absence {
        return Look::Tick;
    }
    Look::Quiet
}

/// Play `game`'s round if it is due (perhaps worked out `ahead`), in its
/// own savepoint: a round that cannot be played waits for the moderator,
/// who is told why.
fn tick(
    tx: &Transaction<'_>,
    config: &Config,
    game: &str,
    now: DateTime<Utc>,
    ahead: Option<ahead::Ahead>,
) -> Result<usize, PostError> {
    match in_savepoint(tx, || {
        round::tick_game_with(tx, config, game, now, false, ahead)
    }) {
        Guarded::Done(n) => Ok(n),
        Guarded::Later(e) => Err(e),
        Guarded::Failed(reason) => {
            round::failed(tx, config, game, &reason, now)?;
            Ok(0)
        }
    }
}

/// Run `work` behind the guard in a savepoint of `tx`: what it wrote stays
/// only if it is done; an error or a panic takes back all of it and
/// nothing written before.
fn in_savepoint<T>(
    tx: &Transaction<'_>,
    work: impl FnOnce() -> Result<T, PostError>,
) -> Guarded<T> {
    // The writes sent ahead go before the savepoint ends, so that an
    // error of theirs is the work's, taken back with it.
    let work = || {
        let done = work()?;
        tx.flush().map_err(crate::store::StoreError::from)?;
        Ok(done)
    };
    tx.savepoint(
        "one_message",
        || guard::guard(work),
        |outcome| matches!(outcome, Guarded::Done(_)),
    )
    .unwrap_or_else(|e| Guarded::Later(e.into()))
}
