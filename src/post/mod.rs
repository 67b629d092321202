//! The post office: everything between a player's mail and the engine.
//!
//! [`PostOffice::accept`] stores a message raw and then handles it;
//! [`PostOffice::process_pending`] handles anything stored but not yet
//! handled (after a crash); [`PostOffice::tick`] sends reminders and
//! resolves rounds whose deadline has passed or whose orders are all in;
//! [`PostOffice::send`] flushes the outbox.
//!
//! Architecture invariant: each message is handled in exactly one write
//! transaction that also records its submissions, its replies (in the
//! outbox) and its new state, so handling is all-or-nothing and a message
//! is never answered twice.

mod archive;
pub mod campaign;
mod game;
pub mod gamefile;
mod handle;
pub mod outbox;
pub mod password;
mod round;
mod service;
mod templates;
mod verify;

use crate::config::Config;
use crate::mail::transport::Outlet;
use crate::store::{self, Store, StoreError};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

pub use archive::{export_html, report_text};
pub use handle::Disposition;
pub use service::{ingest_maildir, poll_imap, serve};
pub(crate) use round::plain;
pub use verify::verify_turn;

/// Errors of the post office.
#[derive(Debug, thiserror::Error)]
pub enum PostError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Sql(#[from] rusqlite::Error),
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
    #[error("game {game} has no released report{}", round.map(|r| format!(" of turn {r}")).unwrap_or_default())]
    NoReport { game: String, round: Option<u32> },
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    #[error("mail transport: {0}")]
    Transport(String),
    #[error(transparent)]
    Ruleset(#[from] crate::games::RulesetError),
}

/// The umpire's mail service over one store.
pub struct PostOffice {
    store: Store,
    pub config: Config,
}

/// The key a message is stored under: its Message-ID, or a hash of its
/// bytes when it has none (so a resent copy is still recognised).
pub fn message_key(raw: &[u8]) -> String {
    let parsed = mail_parser::MessageParser::new().parse_headers(raw);
    match parsed.as_ref().and_then(|m| m.message_id()) {
        Some(id) if !id.trim().is_empty() => id.trim().to_string(),
        _ => format!("sha256:{}", hex::encode(Sha256::digest(raw))),
    }
}

impl PostOffice {
    /// Open the store named in `config`.
    ///
    /// # Errors
    /// When the database cannot be opened.
    pub fn open(config: Config) -> Result<PostOffice, PostError> {
        if let Some(dir) = config.database.parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir).map_err(|e| {
                    StoreError::Corrupt(format!("cannot create {}: {e}", dir.display()))
                })?;
            }
        }
        let store = Store::open(&config.database)?;
        Ok(PostOffice { store, config })
    }

    /// Store one incoming message raw (committed before anything reads
    /// it), then handle it. A message already stored is not handled again.
    ///
    /// # Errors
    /// On database errors; problems with the message itself are answered
    /// or logged, never returned.
    pub fn accept(&mut self, raw: &[u8], source: &str, now: DateTime<Utc>) -> Result<Option<Disposition>, PostError> {
        let key = message_key(raw);
        let stored = self.store.store_raw(&key, raw, source, now)?;
        if !stored.fresh {
            tracing::info!(message_id = %key, "already stored; not handled again");
            return Ok(None);
        }
        self.handle_stored(stored.id, now)
    }

    /// Handle every stored message not yet handled, oldest first.
    ///
    /// # Errors
    /// On database errors.
    pub fn process_pending(&mut self, now: DateTime<Utc>) -> Result<usize, PostError> {
        let mut n = 0;
        for id in self.store.pending_messages()? {
            if self.handle_stored(id, now)?.is_some() {
                n += 1;
            }
        }
        Ok(n)
    }

    fn handle_stored(&mut self, id: i64, now: DateTime<Utc>) -> Result<Option<Disposition>, PostError> {
        let config = self.config.clone();
        let disposition = self.store.write(|tx| {
            // Another process may have handled it since we looked.
            let Some((state, raw)) = store::messages::load(tx, id)? else { return Ok(None) };
            if state != "new" {
                return Ok(None);
            }
            let d = handle::handle(tx, &config, id, &raw, now)?;
            store::messages::set_state(tx, id, d.state(), d.note())?;
            // Orders just in may complete the round: play it in the same
            // transaction, so the last confirmation and the report go together.
            if let Disposition::Orders { game, .. } = &d {
                round::tick_game(tx, &config, game, now, false)?;
            }
            Ok::<_, PostError>(Some(d))
        })?;
        Ok(disposition)
    }

    /// Send due reminders and resolve every round that is ready.
    ///
    /// # Errors
    /// On database errors.
    pub fn tick(&mut self, now: DateTime<Utc>) -> Result<usize, PostError> {
        let config = self.config.clone();
        let games = store::games::active(self.store.conn())?;
        let mut played = 0;
        for game in games {
            played += self.store.write(|tx| round::tick_game(tx, &config, &game, now, false))?;
        }
        // Campaign weeks whose deadline has passed are resolved with the
        // orders in; resolving sets the next deadline.
        for id in campaign::due(self.store.conn(), now)? {
            let resolved = self.store.write(|tx| campaign::resolve_if_due(tx, &config, &id, now))?;
            played += usize::from(resolved);
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
            None => Outlet::Spool(self.config.spool.outbox.clone()),
        };
        let from = self.config.address.clone();
        Ok(outbox::flush(&mut self.store, &outlet, &from, now)?)
    }

    /// Create a game from a game file and queue the welcome mails.
    ///
    /// # Errors
    /// When the file or its scenario is invalid or the game exists.
    pub fn create_game(&mut self, file: &gamefile::GameFile, now: DateTime<Utc>) -> Result<(), PostError> {
        let config = self.config.clone();
        self.store.write(|tx| round::create_game(tx, &config, file, now))
    }

    /// Create a campaign from its set-up file and queue the opening reports.
    ///
    /// # Errors
    /// When the campaign exists or on database errors.
    pub fn create_campaign(&mut self, file: &crate::games::hyborian::campaign::game::CampaignFile, now: DateTime<Utc>) -> Result<(), PostError> {
        let config = self.config.clone();
        self.store.write(|tx| campaign::create(tx, &config, file, now))
    }

    /// Resolve a campaign's map turn now.
    ///
    /// # Errors
    /// When there is no such campaign, or on database errors.
    pub fn resolve_campaign(&mut self, id: &str, now: DateTime<Utc>) -> Result<(), PostError> {
        let config = self.config.clone();
        self.store.write(|tx| campaign::resolve_now(tx, &config, id, now))
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
        let config = self.config.clone();
        self.store.write(|tx| round::tick_game(tx, &config, game, now, true))
    }
}

/// A log line in the audit log, for refusals and other notable events.
pub(crate) fn audit(tx: &store::Transaction<'_>, now: DateTime<Utc>, game: Option<&str>, text: &str) -> Result<(), PostError> {
    tracing::info!(game = game.unwrap_or("-"), "{text}");
    Ok(store::log(tx, now, game, "info", text)?)
}
