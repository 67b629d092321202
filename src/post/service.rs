//! The loops around the post office: reading a Maildir, polling IMAP, and
//! the `run` service that does everything in rounds until told to stop.

use super::{PostError, PostOffice};
use crate::mail::transport;
use chrono::{DateTime, Utc};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Make the folders the service works in when they are missing: the spool
/// Maildir (`new/`, `cur/` and `tmp/`) every round reads, and the spool
/// outbox when mail goes out there (no `[smtp]`). A first `umpire run` on
/// a fresh directory then starts instead of stopping on a missing folder.
///
/// # Errors
/// A configured path that is a file, or that cannot be made: the error
/// names the `[spool]` key, what is in the way and the fix.
pub fn prepare_folders(config: &crate::config::Config) -> Result<(), PostError> {
    prepare_outbox(config)?;
    let inbox = &config.spool.inbox;
    for sub in ["new", "cur", "tmp"] {
        make_folder(
            &inbox.join(sub),
            "inbox",
            inbox,
            "umpire run reads the mail dropped in this Maildir (new/, cur/ and tmp/ inside)",
        )?;
    }
    Ok(())
}

/// Make the spool outbox when mail goes out there (no `[smtp]`) and it is
/// missing: `umpire send` says at once that it cannot be written, instead
/// of failing every delivery.
///
/// # Errors
/// As [`prepare_folders`].
pub fn prepare_outbox(config: &crate::config::Config) -> Result<(), PostError> {
    if config.smtp.is_some() {
        return Ok(());
    }
    make_folder(
        &config.spool.outbox,
        "outbox",
        &config.spool.outbox,
        "without [smtp], every mail umpire sends is written there as an .eml file",
    )
}

/// Make `path` (the `[spool]` `key`, configured as `configured`) a folder.
fn make_folder(path: &Path, key: &str, configured: &Path, why: &str) -> Result<(), PostError> {
    if path.is_dir() {
        return Ok(());
    }
    let Err(e) = std::fs::create_dir_all(path) else {
        return Ok(());
    };
    let what = match path.ancestors().find(|a| a.exists() && !a.is_dir()) {
        Some(file) => format!(
            "{} is a file, not a folder: move it away, or set {key} under [spool] in umpire.toml to a folder umpire may make",
            file.display()
        ),
        None => format!(
            "{} cannot be made ({e}): let the user umpire runs as write there, or set {key} under [spool] in umpire.toml to a folder it may make",
            path.display()
        ),
    };
    Err(PostError::Folder(format!(
        "the spool {key} {} is not usable ({why}): {what}",
        configured.display()
    )))
}

impl From<transport::TransportError> for PostError {
    fn from(e: transport::TransportError) -> Self {
        PostError::Transport(e.to_string())
    }
}

/// Store every message in a Maildir's `new/`, moving each to `cur/` once it
/// is committed, then handle everything stored and not yet handled. New mail
/// is stored before old is worked on, so nothing waits behind a message
/// that cannot be handled. Messages are stored `config.batch` to a
/// transaction (at most [`BATCH_BYTES`] of them), and none is moved before
/// its transaction is on disk. A file another process took first is passed by.
///
/// # Errors
/// When the folder is missing or cannot be read, or the store cannot take a
/// message (the files not yet stored stay in `new/`).
pub fn ingest_maildir(
    po: &mut PostOffice,
    dir: &Path,
    now: DateTime<Utc>,
) -> Result<usize, PostError> {
    let n = store_maildir(po, dir, now)?;
    po.process_pending(now)?;
    Ok(n)
}

/// [`ingest_maildir`]'s first half: the Maildir's new mail stored (and
/// moved to `cur/`), nothing handled yet. The service's pass stores
/// every source first and then handles and ticks once.
///
/// # Errors
/// As [`ingest_maildir`].
pub fn store_maildir(
    po: &mut PostOffice,
    dir: &Path,
    now: DateTime<Utc>,
) -> Result<usize, PostError> {
    if !dir.is_dir() {
        return Err(PostError::Transport(format!(
            "{} is not a folder (a Maildir has new/, cur/ and tmp/ inside)",
            dir.display()
        )));
    }
    let mut n = 0;
    let files = transport::maildir_new(dir)?;
    let mut files = files.iter().peekable();
    while files.peek().is_some() {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while batch.len() < po.config.batch.max(1) && bytes < BATCH_BYTES {
            let Some(file) = files.next() else { break };
            let raw = match std::fs::read(file) {
                Ok(raw) => raw,
                // Another `umpire ingest` took it between listing and reading.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(PostError::Transport(format!("{}: {e}", file.display()))),
            };
            // The file's delivery time is when the club's server received it.
            let arrived = std::fs::metadata(file)
                .and_then(|m| m.modified())
                .ok()
                .map(DateTime::<Utc>::from);
            bytes += raw.len();
            batch.push((file, raw, arrived));
        }
        let messages: Vec<(&[u8], Option<DateTime<Utc>>)> = batch
            .iter()
            .map(|(_, raw, arrived)| (raw.as_slice(), *arrived))
            .collect();
        po.store_messages(&messages, "maildir", now)?;
        for (file, _, _) in &batch {
            match transport::maildir_mark_seen(dir, file) {
                Ok(()) => n += 1,
                Err(e) if !file.exists() => {
                    tracing::info!(file = %file.display(), error = %e, "taken by another process")
                }
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(n)
}

/// The most bytes of mail read into memory for one transaction.
pub const BATCH_BYTES: usize = 16 * 1024 * 1024;

/// Fetch unseen IMAP mail (when configured): each message is committed to
/// the store before it is flagged seen, then everything pending is handled.
///
/// # Errors
/// On database errors or when the server cannot be reached.
pub fn poll_imap(po: &mut PostOffice, now: DateTime<Utc>) -> Result<usize, PostError> {
    let n = fetch_imap(po, now)?;
    po.process_pending(now)?;
    Ok(n)
}

/// [`poll_imap`]'s first half: unseen mail fetched and stored, nothing
/// handled yet.
///
/// # Errors
/// As [`poll_imap`].
fn fetch_imap(po: &mut PostOffice, now: DateTime<Utc>) -> Result<usize, PostError> {
    let Some(imap) = po.config.imap.clone() else {
        return Err(PostError::Transport(
            "no [imap] section in the configuration".into(),
        ));
    };
    Ok(transport::imap_poll(&imap, |raw, arrived| {
        po.store_message(raw, "imap", arrived, now).map(|_| ())
    })?)
}

/// One round of the service: the spool Maildir and IMAP read, everything
/// pending handled, turns due played, and the outbox flushed when no post
/// boy sends it (`send`). Every source is stored before anything is
/// handled, and the games are ticked once a pass (`process_pending`):
/// each tick looks at every active game, which on a shared store is a
/// transaction a game that may need one (issue 43).
fn pass(
    po: &mut PostOffice,
    clock: &impl Fn() -> DateTime<Utc>,
    send: bool,
) -> Result<(), PostError> {
    let inbox = po.config.spool.inbox.clone();
    store_maildir(po, &inbox, clock())?;
    if po.config.imap.is_some() {
        if let Err(e) = fetch_imap(po, clock()) {
            tracing::warn!(error = %e, "IMAP poll failed; trying again next round");
        }
    }
    po.process_pending(clock())?;
    if let Some(web) = po.config.web.clone() {
        // The pages follow the games; a folder that cannot be written
        // holds up no game and no mail.
        if let Err(e) = super::site::refresh(po, &web.dir) {
            tracing::warn!(error = %e, dir = %web.dir.display(), "the club's web pages could not be written; trying again next round");
        }
    }
    if send {
        po.send(clock())?;
    }
    Ok(())
}

/// The service: each round reads the spool Maildir and IMAP (when
/// configured), handles anything pending and plays turns that are due,
/// and brings the club's web pages up to date (`[web]`);
/// then sleeps `poll_seconds`, waking early on `stop`. The outbox is sent
/// meanwhile by a [`post_boy`] on a thread of its own, so that a deadline's
/// first reports go out while its last games are played, and a slow mail
/// server holds up no game; with `once`, a single round sends it at its end.
///
/// The spool's folders are made first ([`prepare_folders`]).
///
/// # Errors
/// A spool folder that cannot be made, before anything else is done. On
/// database errors that are not of the moment (with `once`, on any),
/// the post boy's among them. Mail server errors, and a database gone for
/// a moment, are logged and retried next round.
pub fn serve(
    po: &mut PostOffice,
    stop: &AtomicBool,
    once: bool,
    clock: impl Fn() -> DateTime<Utc> + Sync,
) -> Result<(), PostError> {
    prepare_folders(&po.config)?;
    if once {
        return rounds(po, &|| stop.load(Ordering::Relaxed), true, &clock);
    }
    let config = po.config.clone();
    let (done, failed) = (AtomicBool::new(false), AtomicBool::new(false));
    std::thread::scope(|s| {
        let boy = std::thread::Builder::new()
            .name("umpire-post-boy".into())
            .spawn_scoped(s, || {
                let sent = post_boy(config, &done, &clock);
                failed.store(sent.is_err(), Ordering::Relaxed);
                sent
            })
            .map_err(|e| PostError::Transport(format!("cannot start the post boy: {e}")))?;
        let stopped = || stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed);
        let served = rounds(po, &stopped, false, &clock);
        done.store(true, Ordering::Relaxed);
        let sent = boy
            .join()
            .unwrap_or_else(|_| Err(PostError::Transport("the post boy panicked".into())));
        served.and(sent)
    })
}

/// The service's rounds ([`serve`]) until `stop` says so (or the post
/// boy failed), each sending the outbox itself when `once`.
fn rounds(
    po: &mut PostOffice,
    stop: &impl Fn() -> bool,
    once: bool,
    clock: &impl Fn() -> DateTime<Utc>,
) -> Result<(), PostError> {
    loop {
        if let Err(e) = pass(po, clock, once) {
            // The database gone for a moment (PostgreSQL restarted, the
            // network cut): nothing of the pass was acknowledged, so the
            // service connects again and goes on next round.
            if !super::guard::is_transient(&e) {
                return Err(e);
            }
            tracing::warn!(error = %e, "the database failed for a moment; trying again next round");
            if let Err(e) = po.store.reconnect() {
                tracing::warn!(error = %e, "cannot connect to the database yet");
            }
            if once {
                return Err(e);
            }
        } else if once {
            return Ok(());
        }
        for _ in 0..po.config.poll_seconds.max(1) * 10 {
            if stop() {
                tracing::info!("stopping cleanly");
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// How long the post boy waits when the outbox had nothing to send.
const POST_BOY_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Send the outbox, on a connection of its own, again and again until
/// `done`, then once more (what the last round queued goes out before the
/// service stops). It waits [`POST_BOY_WAIT`] only when nothing was sent,
/// so during a deadline mail leaves as fast as the games are played, and
/// looks at most once a second when all is quiet.
///
/// # Errors
/// When the store cannot be opened, or on database errors, that are not
/// of the moment; a database gone for a moment is tried again.
pub fn post_boy(
    config: crate::config::Config,
    done: &AtomicBool,
    clock: &impl Fn() -> DateTime<Utc>,
) -> Result<(), PostError> {
    let mut po = loop {
        match PostOffice::open(config.clone()) {
            Ok(po) => break po,
            // The database gone for a moment: tried again, as the rounds do.
            Err(e) if super::guard::is_transient(&e) && !done.load(Ordering::Relaxed) => {
                tracing::warn!(error = %e, "the post boy cannot reach the database yet");
                std::thread::sleep(POST_BOY_WAIT);
            }
            Err(e) => return Err(e),
        }
    };
    loop {
        let last = done.load(Ordering::Relaxed);
        match po.send(clock()) {
            Ok(f) if f.sent > 0 && !last => continue,
            Ok(_) => {}
            Err(e) if super::guard::is_transient(&e) => {
                tracing::warn!(error = %e, "the database failed for a moment; sending again soon");
                if let Err(e) = po.store.reconnect() {
                    tracing::warn!(error = %e, "cannot connect to the database yet");
                }
            }
            Err(e) => return Err(e),
        }
        if last {
            return Ok(());
        }
        let waited = std::time::Instant::now();
        while waited.elapsed() < POST_BOY_WAIT && !done.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}
