//! Queueing mail. Everything umpire sends is written to the outbox table
//! inside the same transaction that decided to send it, and leaves only
//! through [`flush`], so a crash can delay a message but never lose it.

use crate::config::Config;
use crate::mail::compose::Outgoing;
use crate::mail::transport::Outlet;
use crate::store::{self, Store, StoreError, Transaction};
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};

/// Why a message is sent (kept in the outbox for the moderator's eye).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Welcome,
    Confirmation,
    Refusal,
    Reply,
    Reminder,
    Report,
    Draft,
}

impl Kind {
    fn code(self) -> &'static str {
        match self {
            Kind::Welcome => "welcome",
            Kind::Confirmation => "confirmation",
            Kind::Refusal => "refusal",
            Kind::Reply => "reply",
            Kind::Reminder => "reminder",
            Kind::Report => "report",
            Kind::Draft => "draft",
        }
    }
}

/// Compose `mail` and queue it. The Message-ID is derived from the
/// content and `salt`, so queueing the same decision twice (a re-run after
/// a crash) is refused by the outbox's UNIQUE constraint instead of
/// producing a second copy.
///
/// # Errors
/// On database errors or a message that cannot be composed.
pub fn queue(
    tx: &Transaction<'_>,
    config: &Config,
    game: Option<&str>,
    kind: Kind,
    mail: &Outgoing,
    salt: &str,
    now: DateTime<Utc>,
) -> Result<String, StoreError> {
    let mut h = Sha256::new();
    for part in [kind.code(), game.unwrap_or(""), &mail.to.join(","), &mail.subject, salt] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    let digest = hex::encode(&h.finalize()[..12]);
    let message_id = crate::mail::compose::new_message_id(config.domain(), &format!("{}.{digest}", kind.code()));
    let raw = mail
        .to_rfc5322(&message_id, now)
        .map_err(|e| StoreError::Corrupt(format!("cannot compose {}: {e}", kind.code())))?;
    store::outbox::queue(
        tx,
        &store::outbox::Queued { message_id: &message_id, game, kind: kind.code(), recipients: &mail.to, raw: &raw },
        now,
    )?;
    Ok(message_id)
}

/// What one flush did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Flushed {
    pub sent: usize,
    pub failed: usize,
}

/// Wait before the next attempt: 1, 2, 4 … minutes, at most 6 hours.
fn backoff(attempts: i64) -> Duration {
    Duration::minutes(1i64 << attempts.clamp(0, 9)).min(Duration::hours(6))
}

/// Send every due outbox message through `outlet`, marking each sent the
/// moment the server accepted it.
///
/// # Errors
/// On database errors; delivery failures are recorded and retried later.
pub fn flush(store: &mut Store, outlet: &Outlet, from: &str, now: DateTime<Utc>) -> Result<Flushed, StoreError> {
    let mut done = Flushed::default();
    for item in store::outbox::due(store.conn(), now)? {
        match outlet.deliver(from, &item.recipients, &item.message_id, &item.raw) {
            Ok(()) => {
                store::outbox::mark_sent(store.conn(), item.id, now)?;
                done.sent += 1;
            }
            Err(e) => {
                tracing::warn!(message_id = %item.message_id, error = %e, "delivery failed");
                store::outbox::mark_failed(store.conn(), item.id, &e.to_string(), now + backoff(item.attempts))?;
                done.failed += 1;
            }
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        assert_eq!(backoff(0), Duration::minutes(1));
        assert_eq!(backoff(3), Duration::minutes(8));
        assert_eq!(backoff(40), Duration::hours(6));
    }
}
