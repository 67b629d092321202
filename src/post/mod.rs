//! The post office: everything between a player's mail and the engine.
//!
//! [`PostOffice::accept`] stores a message raw and then handles it;
//! [`PostOffice::process_pending`] handles anything stored but not yet
//! handled (after a crash); [`PostOffice::tick`] sends reminders and
//! resolves rounds whose deadline has passed or whose orders are all in;
//! [`PostOffice::send`] flushes the outbox.
//!
//! Architecture invariant: each message is handled in exactly one write
//! transaction (a savepoint of one, when several are handled together:
//! `pending`) that also records its submissions, its replies (in the
//! outbox) and its new state, so handling is all-or-nothing and a message
//! is never answered twice.

mod absence;
mod ahead;
mod archive;
pub mod bundle;
pub mod campaign;
pub mod check;
mod decision;
pub mod desk;
mod dkim;
mod drawing;
mod game;
pub mod gamefile;
mod general;
mod guard;
mod handle;
pub mod league;
mod letter;
pub mod outbox;
pub mod password;
mod pending;
mod press;
mod resolve;
mod round;
mod service;
pub mod site;
mod templates;
mod verify;

use crate::config::Config;
use crate::mail::transport::Outlet;
use crate::store::{self, Store, StoreError};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

pub use archive::{export_html, report_text};
pub use handle::Disposition;
pub(crate) use letter::plain;
pub use service::{
    ingest_maildir, poll_imap, post_boy, prepare_folders, prepare_outbox, serve, store_maildir,
};
pub use verify::{verify_bundle, verify_turn};

/// Errors of the post office.
#[derive(Debug, thiserror::Error)]
pub enum PostError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Sql(#[from] store::db::Error),
    #[error(transparent)]
    GameFile(#[from] gamefile::GameFileError),
    #[error("scenario {path}: {message}")]
    Scenario { path: String, message: String },
    #[error("a game called '{0}' already exists")]
    GameExists(String),
    #[error("no game called '{0}'")]
    NoGame(String),
    #[error("game {game} has no played turn {round}")]
    NoRound { game: String, round: u32 },
    #[error("{}", match round {
        Some(r) => format!("game {game} has no released report of turn {r}"),
        None => format!("no report released yet: game {game} has played no turn so far (the first report comes when turn 1 is played)"),
    })]
    NoReport { game: String, round: Option<u32> },
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    #[error("mail transport: {0}")]
    Transport(String),
    #[error(transparent)]
    Ruleset(#[from] crate::games::RulesetError),
    #[error("{0}")]
    Retry(String),
    /// A game file umpire will not start a game from (a first deadline past).
    #[error("{0}")]
    NotStarted(String),
    /// A league file, pairing or result umpire will not take, saying why.
    #[error("{0}")]
    League(String),
    /// A configured folder umpire cannot work in, saying which and the fix.
    #[error("{0}")]
    Folder(String),
    /// A stored week umpire cannot replay, saying why.
    #[error("{0}")]
    Unverifiable(String),
}

/// The umpire's mail service over one store.
pub struct PostOffice {
    store: Store,
    pub config: Config,
    /// Where DKIM keys come from (`config.dkim` on): the system's DNS,
    /// made when first needed, unless one was given ([`PostOffice::set_dkim_keys`]).
    dkim_keys: Option<Box<dyn crate::mail::dkim::KeyLookup>>,
}

/// The key a message is stored under: its Message-ID, or a hash of its
/// bytes when it has none (so a resent copy is still recognised).
pub fn message_key(raw: &[u8]) -> String {
    let parsed = mail_parser::MessageParser::new().parse_headers(raw);
    match parsed.as_ref().and_then(|m| m.message_id()) {
        Some(id) if !id.trim().is_empty() && id.len() <= 998 => id.trim().to_string(),
        _ => format!("sha256:{}", hex::encode(Sha256::digest(raw))),
    }
}

/// How much of a message over the size limit is kept: enough for its
/// headers and the start of its text, to answer the sender.
const HEAD_BYTES: usize = 64 * 1024;

impl PostOffice {
    /// Open the store named in `config`.
    ///
    /// # Errors
    /// When the database cannot be opened.
    pub fn open(config: Config) -> Result<PostOffice, PostError> {
        if let Some(dir) = store::local_folder(&config.database) {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StoreError::Corrupt(format!("cannot create the folder {}: {e}", dir.display()))
                })?;
            }
        }
        let store = Store::open_with(&config.database, config.durability)?;
        let mut config = config;
        if let Some(file) = config.key_file().filter(|_| config.password_key.is_none()) {
            config.password_key = store::password_key::load_or_make(&file)
                .map_err(|e| {
                    tracing::warn!(
                        error = %e,
                        "no password verifier key: every password is verified with Argon2 once per process"
                    );
                })
                .ok();
        }
        Ok(PostOffice {
            store,
            config,
            dkim_keys: None,
        })
    }

    /// Take DKIM keys from `keys` instead of DNS (tests; a club that pins
    /// its players' keys).
    pub fn set_dkim_keys(&mut self, keys: impl crate::mail::dkim::KeyLookup + 'static) {
        self.dkim_keys = Some(Box::new(keys));
    }

    /// Store one incoming message, committed before anything reads it: the
    /// whole message, or only its head (and a digest of all of it) when it
    /// is over `max_message_bytes`. A message already stored is not stored
    /// again (`fresh` is false).
    ///
    /// # Errors
    /// When the store cannot take it (the caller must not acknowledge the
    /// message then: an MTA is told to try again).
    pub fn store_message(
        &mut self,
        raw: &[u8],
        source: &str,
        arrived_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<store::StoredRaw, PostError> {
        let digest = hex::encode(Sha256::digest(raw));
        self.store_parts(raw, &digest, raw.len(), source, arrived_at, now)
    }

    /// Store a message read from `input` (standard input), reading no more
    /// of it into memory than the size limit however long it is: the rest is
    /// only counted and hashed.
    ///
    /// # Errors
    /// When the input cannot be read or the store cannot take the message.
    pub fn store_reader(
        &mut self,
        input: &mut impl std::io::Read,
        source: &str,
        now: DateTime<Utc>,
    ) -> Result<store::StoredRaw, PostError> {
        let mut kept = Vec::new();
        let mut hasher = Sha256::new();
        let mut size = 0usize;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match input.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(PostError::Transport(format!("reading the message: {e}"))),
            };
            hasher.update(&buf[..n]);
            size += n;
            let room = (self.config.max_message_bytes + 1).saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        let digest = hex::encode(hasher.finalize());
        self.store_parts(&kept, &digest, size, source, None, now)
    }

    fn store_parts(
        &mut self,
        raw: &[u8],
        digest: &str,
        size: usize,
        source: &str,
        arrived_at: Option<DateTime<Utc>>,
        now: DateTime<Utc>,
    ) -> Result<store::StoredRaw, PostError> {
        let (kept, key) = self.kept(raw, size);
        let arrival = store::messages::Arrival {
            key: &key,
            raw: kept,
            digest,
            size,
            source,
            arrived_at,
        };
        Ok(self.store.store_raw(&arrival, now)?)
    }

    /// What is stored of a message of `size` bytes, and its key.
    fn kept<'a>(&self, raw: &'a [u8], size: usize) -> (&'a [u8], String) {
        let kept = if size > self.config.max_message_bytes {
            &raw[..HEAD_BYTES.min(raw.len())]
        } else {
            raw
        };
        (kept, message_key(kept))
    }

    /// Store several messages (each with when the club's server received
    /// it, if known) in one transaction, committed before this returns:
    /// one wait for the disk for all of them. As [`PostOffice::store_message`]
    /// for each.
    ///
    /// # Errors
    /// When the store cannot take them (none is stored then).
    pub fn store_messages(
        &mut self,
        messages: &[(&[u8], Option<DateTime<Utc>>)],
        source: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<store::StoredRaw>, PostError> {
        // Each message's bytes as kept, key, digest, size and arrival.
        type Prepared<'m> = (&'m [u8], String, String, usize, Option<DateTime<Utc>>);
        let prepared: Vec<Prepared<'_>> = messages
            .iter()
            .map(|(raw, at)| {
                let (kept, key) = self.kept(raw, raw.len());
                (kept, key, hex::encode(Sha256::digest(raw)), raw.len(), *at)
            })
            .collect();
        let arrivals: Vec<store::messages::Arrival<'_>> = prepared
            .iter()
            .map(
                |(raw, key, digest, size, arrived_at)| store::messages::Arrival {
                    key,
                    raw,
                    digest,
                    size: *size,
                    source,
                    arrived_at: *arrived_at,
                },
            )
            .collect();
        Ok(self.store.store_many(&arrivals, now)?)
    }

    /// What needs the moderator's or administrator's eye: messages that
    /// could not be handled, games whose round could not be played, and
    /// games whose stored row cannot be read.
    ///
    /// # Errors
    /// On database errors.
    pub fn doctor(&self) -> Result<String, PostError> {
        use std::fmt::Write as _;
        let messages = store::messages::failed(self.store.conn())?;
        let mut games = store::games::failed(self.store.conn())?;
        // A game whose row cannot be read (its deadline no time) is named
        // even before a round of the service has set it aside.
        for id in store::games::ids(self.store.conn())? {
            if games.iter().any(|(g, _)| *g == id) {
                continue;
            }
            if let Err(e) = store::games::load(self.store.conn(), &id) {
                games.push((id, e.to_string()));
            }
        }
        let mut out = String::new();
        if messages.is_empty() && games.is_empty() {
            out.push_str(
                "Nothing has failed: every message was handled and every due round played.\n",
            );
        }
        for m in &messages {
            let _ = writeln!(
                out,
                "message {} (received {}, {}): {}",
                m.id, m.received_at, m.message_id, m.reason
            );
        }
        for (g, reason) in &games {
            let _ = writeln!(out, "game {g}: {reason}");
        }
        if !(messages.is_empty() && games.is_empty()) {
            out.push_str("After a fix, `umpire retry ID` handles a message again, `umpire retry GAME` plays a game's round.\n");
        }
        Ok(out)
    }

    /// Store one incoming message (see [`PostOffice::store_message`]), then
    /// handle everything stored and not yet handled, oldest first. A message
    /// already stored is not handled again.
    ///
    /// # Errors
    /// When the message cannot be stored; problems with any message itself
    /// are answered, logged or marked failed, never returned.
    pub fn accept(
        &mut self,
        raw: &[u8],
        source: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Disposition>, PostError> {
        let stored = self.store_message(raw, source, None, now)?;
        if !stored.fresh {
            tracing::info!(row = stored.id, "already stored; not handled again");
            return Ok(None);
        }
        let pending = self.store.pending_messages()?;
        Ok(self
            .handle_many(&pending, now)?
            .into_iter()
            .find(|(id, _)| *id == stored.id)
            .map(|(_, d)| d))
    }

    /// Handle every stored message not yet handled, oldest first, each on
    /// its own: one that fails is marked so and the rest go on. Then every
    /// game is ticked, so a round completed by orders handled in a run that
    /// was killed before it could play the round is played now.
    ///
    /// # Errors
    /// When the store cannot be read; a message the machine could not take
    /// now (the database busy) is left for the next run.
    pub fn process_pending(&mut self, now: DateTime<Utc>) -> Result<usize, PostError> {
        let pending = self.store.pending_messages()?;
        let n = self.handle_many(&pending, now)?.len();
        self.tick(now)?;
        Ok(n)
    }

    /// Handle a failed message again (after a fix): `umpire retry MESSAGE`.
    ///
    /// # Errors
    /// When there is no such message, or it has not failed.
    pub fn retry_message(
        &mut self,
        id: i64,
        now: DateTime<Utc>,
    ) -> Result<Option<Disposition>, PostError> {
        let state = self
            .store
            .write(|tx| Ok::<_, PostError>(store::messages::load(tx, id)?.map(|(s, _)| s)))?;
        match state.as_deref() {
            Some("failed") => {}
            Some(other) => {
                return Err(PostError::Retry(format!(
                    "message {id} is {other}, not failed"
                )))
            }
            None => return Err(PostError::Retry(format!("there is no stored message {id}"))),
        }
        self.store
            .write(|tx| store::messages::set_state(tx, id, "new", "retried"))?;
        Ok(self.handle_many(&[id], now)?.pop().map(|(_, d)| d))
    }

    /// Play a game's round if it is due (or now, with `force`), behind the
    /// guard: a game whose round cannot be played waits for the moderator,
    /// who is told why, and the other games go on. Returns the rounds played.
    fn tick_game(&mut self, id: &str, now: DateTime<Utc>, force: bool) -> Result<usize, PostError> {
        self.tick_game_with(id, now, force, None)
    }

    /// [`Self::tick_game`] with the round perhaps worked out ahead.
    fn tick_game_with(
        &mut self,
        id: &str,
        now: DateTime<Utc>,
        force: bool,
        ahead: Option<ahead::Ahead>,
    ) -> Result<usize, PostError> {
        let config = self.config.clone();
        let shared = self.store.dialect() == store::Dialect::Postgres;
        let mut tries = 0;
        // A round that reaches beyond its game (a league's standings, a
        // campaign's battle) is played again in a serializable transaction.
        let mut serial = false;
        loop {
            let store = &mut self.store;
            let ahead = ahead.clone();
            let outcome = guard::guard(|| {
                let play = |tx: &crate::store::Transaction<'_>| {
                    round::tick_game_with(tx, &config, id, now, force, ahead)
                };
                // On a shared store the game's row lock keeps other
                // workers out of its round (`store::games::load_locked`).
                if shared && !serial {
                    store.write_with_locks(play)
                } else {
                    store.write(play)
                }
            });
            match outcome {
                guard::Guarded::Later(e) if guard::wants_serializable(&e) && !serial => {
                    serial = true;
                }
                // Another worker's transaction in the way (PostgreSQL's
                // serialization failures): it passes in moments.
                guard::Guarded::Later(e)
                    if guard::is_transient(&e) && tries < pending::TRANSIENT_TRIES =>
                {
                    tries += 1;
                    tracing::info!(game = id, error = %e, tries, "a moment's conflict; playing the round again");
                    std::thread::sleep(pending::pause(tries));
                }
                outcome => break self.round_outcome(id, now, outcome),
            }
        }
    }

    /// What became of a round played in its own transaction: a failure is
    /// recorded for the moderator; a busy store leaves it for the next run.
    fn round_outcome(
        &mut self,
        id: &str,
        now: DateTime<Utc>,
        outcome: guard::Guarded<usize>,
    ) -> Result<usize, PostError> {
        let config = self.config.clone();
        match outcome {
            guard::Guarded::Done(n) => Ok(n),
            guard::Guarded::Later(e) => {
                tracing::warn!(game = id, error = %e, "round left for the next run");
                Ok(0)
            }
            guard::Guarded::Failed(reason) => {
                self.store
                    .write(|tx| round::failed(tx, &config, id, &reason, now))?;
                Ok(0)
            }
        }
    }

    /// Let a game whose round failed play again (after a fix): `umpire retry GAME`.
    ///
    /// # Errors
    /// When there is no such game or it has not failed.
    pub fn retry_game(&mut self, id: &str, now: DateTime<Utc>) -> Result<usize, PostError> {
        let failed = store::games::failed(self.store.conn())?;
        let Some((game, _)) = failed.iter().find(|(g, _)| g.eq_ignore_ascii_case(id)) else {
            return Err(PostError::Retry(format!("game {id} has no failed round")));
        };
        let game = game.clone();
        self.store
            .write(|tx| store::games::set_failure(tx, &game, None))?;
        self.tick_game(&game, now, false)
    }

    /// Send due reminders and resolve every round that is ready, each game
    /// on its own.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub fn tick(&mut self, now: DateTime<Utc>) -> Result<usize, PostError> {
        let config = self.config.clone();
        let games = store::games::active(self.store.conn())?;
        let mut played = 0;
        // Each wave's rounds are worked out on the pool while the wave
        // before is played.
        let waves: Vec<Vec<String>> = games.chunks(ahead::WAVE).map(<[_]>::to_vec).collect();
        let mut working = ahead::Working::default();
        // Games whose tick could do nothing now are passed by.
        let mut quiet = std::collections::BTreeSet::new();
        if let Some(first) = waves.first() {
            quiet.extend(self.start_due(first, &mut working, now)?);
        }
        for (k, wave) in waves.iter().enumerate() {
            if let Some(next) = waves.get(k + 1) {
                quiet.extend(self.start_due(next, &mut working, now)?);
            }
            let mut looking: Vec<String> = wave
                .iter()
                .filter(|g| !quiet.contains(*g))
                .cloned()
                .collect();
            played += self.play_due(&mut looking, &mut working, pending::Wave::All, now)?;
        }
        // Mail held for the rounds just opened is read now.
        let released = store::deferred::released_unread(self.store.conn())?;
        if !released.is_empty() {
            self.handle_many(&released, now)?;
        }
        // Campaign weeks whose deadline has passed are resolved with the
        // orders in; resolving sets the next deadline.
        for id in campaign::due(&self.store, now)? {
            let store = &mut self.store;
            match guard::guard(|| store.write(|tx| campaign::resolve_if_due(tx, &config, &id, now)))
            {
                guard::Guarded::Done(resolved) => played += usize::from(resolved),
                guard::Guarded::Later(e) => {
                    tracing::warn!(campaign = %id, error = %e, "week left for the next run")
                }
                guard::Guarded::Failed(reason) => {
                    self.store.write(|tx| {
                        audit(
                            tx,
                            now,
                            None,
                            &format!("campaign {id}: the week could not be resolved: {reason}"),
                        )
                    })?;
                }
            }
        }
        // Powers without orders are reminded once before a week's deadline.
        for id in campaign::reminders_due(&self.store, now)? {
            let store = &mut self.store;
            match guard::guard(|| store.write(|tx| campaign::remind_if_due(tx, &config, &id, now)))
            {
                guard::Guarded::Done(_) => {}
                guard::Guarded::Later(e) => {
                    tracing::warn!(campaign = %id, error = %e, "reminders left for the next run")
                }
                guard::Guarded::Failed(reason) => {
                    tracing::warn!(campaign = %id, %reason, "reminders could not be sent")
                }
            }
        }
        Ok(played)
    }

    /// Send everything due in the outbox, through SMTP when configured,
    /// otherwise into the spool folder.
    ///
    /// # Errors
    /// On database errors or a bad SMTP configuration.
    pub fn send(&mut self, now: DateTime<Utc>) -> Result<outbox::Flushed, PostError> {
        let outlet = match &self.config.smtp {
            Some(smtp) => Outlet::smtp(smtp).map_err(|e| StoreError::Corrupt(e.to_string()))?,
            None => Outlet::Spool {
                dir: self.config.spool.outbox.clone(),
                durable: self.config.durability == crate::store::Durability::Full,
            },
        };
        let from = self.config.address.clone();
        let flushed = outbox::flush(&mut self.store, &outlet, &from, now)?;
        outbox::forget_sent(&mut self.store, self.config.keep_sent_days, now)?;
        Ok(flushed)
    }

    /// Create a game from a game file and queue the welcome mails.
    ///
    /// # Errors
    /// When the file or its scenario is invalid or the game exists.
    pub fn create_game(
        &mut self,
        file: &gamefile::GameFile,
        now: DateTime<Utc>,
    ) -> Result<(), PostError> {
        let config = self.config.clone();
        self.write_again(|tx| round::create_game(tx, &config, file, now))
    }

    /// Create a campaign from its set-up file and queue the opening reports.
    ///
    /// # Errors
    /// When the campaign exists or on database errors.
    pub fn create_campaign(
        &mut self,
        file: &dyn crate::games::campaign::SetUp,
        now: DateTime<Utc>,
    ) -> Result<(), PostError> {
        let config = self.config.clone();
        self.write_again(|tx| campaign::create(tx, &config, file, now))
    }

    /// Resolve a campaign's map turn now.
    ///
    /// # Errors
    /// When there is no such campaign, or on database errors.
    pub fn resolve_campaign(&mut self, id: &str, now: DateTime<Utc>) -> Result<(), PostError> {
        let config = self.config.clone();
        self.write_again(|tx| campaign::resolve_now(tx, &config, id, now))
    }

    /// Re-run a campaign's week last resolved, as the secretary's `rerun`
    /// (ruling CA-30). `Ok(Err(why))`: refused, nothing changed.
    ///
    /// # Errors
    /// When there is no such campaign, or on database errors.
    pub fn rerun_campaign(
        &mut self,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Result<String, String>, PostError> {
        let config = self.config.clone();
        self.write_again(|tx| campaign::rerun(tx, &config, id, None, &[], now))
    }

    /// [`Store::write`] for the moderator's own work (a game or campaign
    /// created, a week resolved), done again while another worker's
    /// transaction refuses it for a moment (PostgreSQL's serialization
    /// failures), as a round is: `umpire game new` beside a busy service
    /// must not fail for a conflict that passes in milliseconds.
    fn write_again<T>(
        &mut self,
        work: impl Fn(&store::Transaction<'_>) -> Result<T, PostError>,
    ) -> Result<T, PostError> {
        let mut tries = 0;
        loop {
            match self.store.write(&work) {
                Err(e) if guard::is_transient(&e) && tries < pending::TRANSIENT_TRIES => {
                    tries += 1;
                    tracing::info!(error = %e, tries, "a moment's conflict; trying again");
                    std::thread::sleep(pending::pause(tries));
                }
                done => return done,
            }
        }
    }

    /// The store, for reading (tests, `umpire doctor`).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Adjudicate the current turn of `game` now, whatever the deadline.
    ///
    /// # Errors
    /// When there is no such game, or on database errors.
    pub fn force(&mut self, game: &str, now: DateTime<Utc>) -> Result<usize, PostError> {
        self.tick_game(game, now, true)
    }
}

/// A log line in the audit log, for refusals and other notable events.
pub(crate) fn audit(
    tx: &store::Transaction<'_>,
    now: DateTime<Utc>,
    game: Option<&str>,
    text: &str,
) -> Result<(), PostError> {
    tracing::info!(game = game.unwrap_or("-"), "{text}");
    Ok(store::log(tx, now, game, "info", text)?)
}
