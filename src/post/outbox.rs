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
    /// A player's or moderator's welcome, with a password.
    Welcome,
    Confirmation,
    Refusal,
    Reply,
    Reminder,
    Report,
    Draft,
    /// A note to a moderator: a message or round that could not be handled,
    /// a side locked after wrong passwords.
    Notice,
    /// A league's standings, or a member's bye, mailed to its members.
    League,
    /// Press between the players, or the moderator's broadcast.
    Press,
}

impl Kind {
    pub fn code(self) -> &'static str {
        match self {
            Kind::Welcome => "welcome",
            Kind::Confirmation => "confirmation",
            Kind::Refusal => "refusal",
            Kind::Reply => "reply",
            Kind::Reminder => "reminder",
            Kind::Report => "report",
            Kind::Draft => "draft",
            Kind::Notice => "notice",
            Kind::League => "league",
            Kind::Press => "press",
        }
    }

    /// Mail that carries a password: the outbox forgets its body once sent.
    pub fn holds_password(self) -> bool {
        self == Kind::Welcome
    }

    /// An answer to a message, sent with an empty envelope sender (RFC 3834)
    /// so that a bounce of it never comes back to be answered.
    pub fn is_response(code: &str) -> bool {
        matches!(code, "confirmation" | "refusal" | "reply")
    }
}

/// Compose `mail` and queue it. The Message-ID is derived from this
/// installation's key, the kind, the game and `tag` — what the message is,
/// unique for each decision (`msg12.1`: the first reply to stored message
/// 12; `3:conan@…`: turn 3's report to Conan) — so queueing the same
/// decision twice (a re-run after a crash) is refused by the outbox's UNIQUE
/// constraint, while two decisions never share an id, and no two
/// installations ever send the same id.
///
/// # Errors
/// On database errors or a message that cannot be composed.
pub fn queue(
    tx: &Transaction<'_>,
    config: &Config,
    game: Option<&str>,
    kind: Kind,
    mail: &Outgoing,
    tag: &str,
    now: DateTime<Utc>,
) -> Result<String, StoreError> {
    let to = Queue {
        game,
        kind,
        tag,
        secret: kind.holds_password(),
    };
    queue_as(tx, config, &to, mail, now)
}

/// What a queued mail is, besides its text.
pub struct Queue<'a> {
    pub game: Option<&'a str>,
    pub kind: Kind,
    /// What the mail is, unique for each decision (see [`queue`]).
    pub tag: &'a str,
    /// Whether its body holds a password, so it is cut once sent: a
    /// welcome's, or a campaign's opening report.
    pub secret: bool,
}

/// Queue `mail` as [`queue`] does, described in full.
///
/// # Errors
/// As [`queue`].
pub fn queue_as(
    tx: &Transaction<'_>,
    config: &Config,
    q: &Queue<'_>,
    mail: &Outgoing,
    now: DateTime<Utc>,
) -> Result<String, StoreError> {
    let Queue {
        game,
        kind,
        tag,
        secret,
    } = *q;
    // A side the umpire's general plays has no address: mail for it
    // alone is not queued, and it is left off mail to others.
    let addressed;
    let mail = if mail.to.iter().any(String::is_empty) {
        addressed = Outgoing {
            to: mail.to.iter().filter(|a| !a.is_empty()).cloned().collect(),
            ..mail.clone()
        };
        &addressed
    } else {
        mail
    };
    let mut h = Sha256::new();
    for part in [
        &store::installation(tx)?,
        kind.code(),
        game.unwrap_or(""),
        tag,
    ] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    let digest = hex::encode(&h.finalize()[..12]);
    let message_id =
        crate::mail::compose::new_message_id(config.domain(), &format!("{}.{digest}", kind.code()));
    if mail.to.is_empty() {
        return Ok(message_id);
    }
    let rendered = mail
        .render(&message_id, now)
        .map_err(|e| StoreError::Corrupt(format!("cannot compose {}: {e}", kind.code())))?;
    let parts: Vec<store::outbox::Part> = rendered
        .shared
        .into_iter()
        .map(|p| store::outbox::Part {
            range: p.range,
            digest: p.digest,
        })
        .collect();
    store::outbox::queue_ahead(
        tx,
        &store::outbox::Queued {
            message_id: &message_id,
            game,
            kind: kind.code(),
            recipients: &mail.to,
            raw: &rendered.raw,
            parts: &parts,
            secret,
        },
        now,
    )?;
    Ok(message_id)
}

/// What one flush did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Flushed {
    pub sent: usize,
    pub failed: usize,
    /// Why the last delivery that failed did (`umpire send` says it).
    pub last_error: Option<String>,
}

/// Wait before the next attempt: 1, 2, 4 … minutes, at most 6 hours.
fn backoff(attempts: i64) -> Duration {
    Duration::minutes(1i64 << attempts.clamp(0, 9)).min(Duration::hours(6))
}

/// How long a sender holds an outbox row it is delivering.
const LEASE_MINUTES: i64 = 10;

/// How many rows a sender claims at once, delivers, and marks sent in one
/// commit. A commit waits for the disk (`synchronous = FULL`); one for each
/// row claimed and one for each marked was most of a crunch's sending time.
/// And the post boy sends alongside the handling of a deadline, taking its
/// turn at the store between the handler's transactions (one for every
/// 64 messages or 32 rounds): at 32 a claim it fell behind (issue 24). A
/// sender killed in the middle sends at most this many again (with their
/// own Message-IDs, so mail clients show one copy).
const CLAIM: usize = 128;

/// How many claimed rows' bodies are read at once (on PostgreSQL in one
/// round trip): a few megabytes at most of reports with their pictures.
const BODIES: usize = 16;

/// How many sent messages' bodies are forgotten in one commit.
const FORGET: usize = 500;

/// Forget the bodies of messages sent more than `days` days before `now`
/// (`keep_sent_days`; 0 keeps them all), [`FORGET`] to a commit. Returns
/// how many were cut to their headers.
///
/// # Errors
/// On database errors.
pub fn forget_sent(store: &mut Store, days: u32, now: DateTime<Utc>) -> Result<usize, StoreError> {
    if days == 0 {
        return Ok(0);
    }
    let cutoff = now - Duration::days(i64::from(days));
    let mut forgotten = 0;
    loop {
        let n = store.write_locking(|tx| store::outbox::forget_bodies(tx, cutoff, FORGET))?;
        forgotten += n;
        if n < FORGET {
            break;
        }
    }
    if forgotten > 0 {
        tracing::info!(
            forgotten,
            days,
            "bodies of mail sent long ago forgotten (keep_sent_days)"
        );
    }
    Ok(forgotten)
}

/// Send every due outbox message through `outlet`, [`CLAIM`] rows at a
/// time: they are claimed (leased, so a second sender at the same moment
/// passes them by), delivered one by one, and marked sent together once
/// the server has taken them or the spool's files are on disk (a failed
/// delivery is marked at once).
///
/// # Errors
/// On database errors; delivery failures are recorded and retried later.
pub fn flush(
    store: &mut Store,
    outlet: &Outlet,
    from: &str,
    now: DateTime<Utc>,
) -> Result<Flushed, StoreError> {
    let owner = lease::Holder::me();
    let shared = store.dialect() == store::Dialect::Postgres;
    store.write_locking(|tx| {
        for (id, holder) in store::outbox::leased(tx, now)? {
            if lease::Holder::parse(&holder).is_some_and(|h| h.is_gone(shared)) {
                tracing::info!(row = id, holder = %holder, "lease of a sender that died released");
                store::outbox::release(tx, id)?;
            }
        }
        Ok::<_, StoreError>(())
    })?;
    let owner = owner.to_string();
    let mut done = Flushed::default();
    loop {
        let until = now + Duration::minutes(LEASE_MINUTES);
        let items =
            match store.write_locking(|tx| store::outbox::claim(tx, &owner, now, until, CLAIM)) {
                Ok(items) if items.is_empty() => break,
                Ok(items) => items,
                // Another sender's claim at the same moment: the rest is
                // sent on the next pass.
                Err(StoreError::Sql(e)) if e.is_transient() => {
                    tracing::info!(error = %e, "outbox busy; the rest is sent on the next pass");
                    break;
                }
                Err(e) => return Err(e),
            };
        let mut sent = Vec::with_capacity(items.len());
        // Read outside the claim's write transaction (leased, the rows are
        // this sender's alone), [`BODIES`] at a time.
        for chunk in items.chunks(BODIES) {
            let ids: Vec<i64> = chunk.iter().map(|i| i.id).collect();
            let raws = store::outbox::bodies(store.conn(), &ids)?;
            for (item, raw) in chunk.iter().zip(raws) {
                let envelope_from = if Kind::is_response(&item.kind) {
                    ""
                } else {
                    from
                };
                match outlet.deliver(envelope_from, &item.recipients, &item.message_id, &raw) {
                    Ok(()) => sent.push(item.id),
                    Err(e) => {
                        tracing::warn!(message_id = %item.message_id, error = %e, "delivery failed");
                        done.last_error = Some(e.to_string());
                        store.write_locking(|tx| {
                            store::outbox::mark_failed(
                                tx,
                                item.id,
                                &e.to_string(),
                                now + backoff(item.attempts),
                            )
                        })?;
                        done.failed += 1;
                    }
                }
            }
        }
        // On disk before marked sent: otherwise a crash of the machine
        // could lose a message the outbox says went.
        if let Err(e) = outlet.settle().map_err(|e| e.to_string()) {
            tracing::warn!(error = %e, "delivered mail could not be put on disk");
            done.last_error = Some(e.clone());
            store.write_locking(|tx| {
                items
                    .iter()
                    .filter(|item| sent.contains(&item.id))
                    .try_for_each(|item| {
                        store::outbox::mark_failed(tx, item.id, &e, now + backoff(item.attempts))
                    })
            })?;
            done.failed += sent.len();
            continue;
        }
        store.write_locking(|tx| store::outbox::mark_sent(tx, &sent, now))?;
        done.sent += sent.len();
    }
    Ok(done)
}

/// Who holds a lease: the machine's boot, the process and a random tag. A
/// sender killed while holding one is seen to be gone (its process no
/// longer runs, or the machine has rebooted since), so a restarted sender
/// takes the row at once instead of waiting for the lease to run out. A
/// SQLite store's senders share this machine; a PostgreSQL store's may be
/// on several, so there only this machine's dead senders are judged.
mod lease {
    use std::fmt;

    pub struct Holder {
        boot: String,
        pid: u32,
        tag: String,
    }

    /// This boot of the machine, where the system tells it (Linux).
    fn boot_id() -> String {
        std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
            .map(|s| s.trim().to_string())
            .unwrap_or_default()
    }

    impl Holder {
        pub fn me() -> Self {
            Self {
                boot: boot_id(),
                pid: std::process::id(),
                tag: hex::encode(rand::random::<[u8; 6]>()),
            }
        }

        pub fn parse(text: &str) -> Option<Self> {
            let mut it = text.splitn(3, '/');
            let (boot, pid, tag) = (it.next()?, it.next()?.parse().ok()?, it.next()?);
            Some(Self {
                boot: boot.into(),
                pid,
                tag: tag.into(),
            })
        }

        /// Surely dead: another boot, or no such process in this one.
        /// Unknown (no boot id on this system) counts as alive. On a
        /// `shared` store (PostgreSQL, senders on several machines) another
        /// boot may be another machine's: only this boot's are judged, the
        /// others' leases run out.
        pub fn is_gone(&self, shared: bool) -> bool {
            let now = boot_id();
            if self.boot.is_empty() || now.is_empty() || (shared && self.boot != now) {
                return false;
            }
            self.boot != now || !std::path::Path::new(&format!("/proc/{}", self.pid)).exists()
        }
    }

    impl fmt::Display for Holder {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}/{}/{}", self.boot, self.pid, self.tag)
        }
    }
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

    #[test]
    fn a_lease_of_this_process_is_alive_and_of_a_dead_one_is_gone() {
        let me = lease::Holder::me();
        let again = lease::Holder::parse(&me.to_string()).unwrap();
        assert!(!again.is_gone(false));
        assert!(!again.is_gone(true));
        let text = me.to_string();
        let boot = text.split('/').next().unwrap();
        if !boot.is_empty() {
            // Past the kernel's pid limit: no such process.
            assert!(lease::Holder::parse(&format!("{boot}/4294967295/x"))
                .unwrap()
                .is_gone(true));
            assert!(lease::Holder::parse("another-boot/1/x")
                .unwrap()
                .is_gone(false));
            assert!(
                !lease::Holder::parse("another-boot/1/x")
                    .unwrap()
                    .is_gone(true),
                "maybe another machine's"
            );
        }
        assert!(lease::Holder::parse("garbage").is_none());
    }
}
