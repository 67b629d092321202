//! The loops around the post office: reading a Maildir, polling IMAP, and
//! the `run` service that does everything in rounds until told to stop.

use super::{PostError, PostOffice};
use crate::mail::transport;
use chrono::{DateTime, Utc};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

impl From<transport::TransportError> for PostError {
    fn from(e: transport::TransportError) -> Self {
        PostError::Transport(e.to_string())
    }
}

/// Store and handle every message in a Maildir's `new/`, moving each to
/// `cur/` once it is committed.
///
/// # Errors
/// On database or file errors.
pub fn ingest_maildir(po: &mut PostOffice, dir: &Path, now: DateTime<Utc>) -> Result<usize, PostError> {
    // Messages stored by an earlier run that stopped before handling them.
    po.process_pending(now)?;
    let mut n = 0;
    for file in transport::maildir_new(dir)? {
        let raw = std::fs::read(&file).map_err(|e| PostError::Transport(format!("{}: {e}", file.display())))?;
        po.accept(&raw, "maildir", now)?;
        transport::maildir_mark_seen(dir, &file)?;
        n += 1;
    }
    Ok(n)
}

/// Fetch unseen IMAP mail (when configured): each message is committed to
/// the store before it is flagged seen, then everything pending is handled.
///
/// # Errors
/// On database errors or when the server cannot be reached.
pub fn poll_imap(po: &mut PostOffice, now: DateTime<Utc>) -> Result<usize, PostError> {
    let Some(imap) = po.config.imap.clone() else {
        return Err(PostError::Transport("no [imap] section in the configuration".into()));
    };
    let n = transport::imap_poll(&imap, |raw| {
        let key = super::message_key(raw);
        po.store.store_raw(&key, raw, "imap", now).map(|_| ())
    })?;
    po.process_pending(now)?;
    Ok(n)
}

/// The service: each round reads the spool Maildir and IMAP (when
/// configured), handles anything pending, plays turns that are due and
/// flushes the outbox; then sleeps `poll_seconds`, waking early on `stop`.
///
/// # Errors
/// On database errors. Mail server errors are logged and retried next round.
pub fn serve(po: &mut PostOffice, stop: &AtomicBool, once: bool, clock: impl Fn() -> DateTime<Utc>) -> Result<(), PostError> {
    loop {
        let inbox = po.config.spool.inbox.clone();
        ingest_maildir(po, &inbox, clock())?;
        if po.config.imap.is_some() {
            if let Err(e) = poll_imap(po, clock()) {
                tracing::warn!(error = %e, "IMAP poll failed; trying again next round");
            }
        }
        po.process_pending(clock())?;
        po.tick(clock())?;
        po.send(clock())?;
        if once {
            return Ok(());
        }
        for _ in 0..po.config.poll_seconds.max(1) * 10 {
            if stop.load(Ordering::Relaxed) {
                tracing::info!("stopping cleanly");
                return Ok(());
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}
