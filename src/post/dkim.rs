//! A club's DKIM rule (`dkim = "off" | "record" | "require"` in
//! `umpire.toml`, ruling M15): before a message is handled its signatures
//! are verified once, outside any write transaction (a DNS look-up must not
//! hold the store's lock), and the [`Verdict`] is stored with the message;
//! handling then logs it, and under `require` refuses, unread, a message
//! whose From domain did not sign it ([`unproven`]).
//!
//! Why before the password: a forger who can write any From address could
//! otherwise spend a player's wrong-password allowance and lock the real
//! player out, and would learn from nothing whether a guess was right.

use super::{audit, PostError};
use crate::config::Config;
use crate::mail::dkim::{self, KeyLookup, Policy, Verdict};
use crate::store::{self, Store, Transaction};
use chrono::{DateTime, Duration, Utc};

/// How long a message whose key could not be looked up (DNS down) waits
/// for a look-up that works; after that its verdict stands as it is.
pub const PATIENCE_HOURS: i64 = 24;

/// What the refused player is told to do.
pub const HINT: &str = "This club accepts orders only in mail that your own mail provider has signed (DKIM). \
If you sent it, send it again from your registered address through your provider's own server (not a forwarding \
or mailing-list service), or ask the moderator. If you did not send it, someone wrote your address on it; nothing \
in it was read.";

/// Whether a stored message may be handled now.
#[derive(Debug, PartialEq, Eq)]
pub enum Readiness {
    /// Its verdict is stored (or DKIM is off).
    Ready,
    /// A key could not be looked up: leave it for a later run.
    Later(String),
}

/// Verify a stored, unhandled message once and store the verdict.
/// `keys` is the post office's key source, made from the system's DNS
/// the first time it is needed when none was given.
///
/// # Errors
/// On database errors.
pub fn verify_stored(
    store: &mut Store,
    config: &Config,
    keys: &mut Option<Box<dyn KeyLookup>>,
    id: i64,
    now: DateTime<Utc>,
) -> Result<Readiness, PostError> {
    if config.dkim == Policy::Off || store::messages::dkim(store.conn(), id)?.is_some() {
        return Ok(Readiness::Ready);
    }
    let Some((state, raw)) = store::messages::load(store.conn(), id)? else {
        return Ok(Readiness::Ready);
    };
    if state != "new" {
        return Ok(Readiness::Ready);
    }
    if keys.is_none() {
        match crate::mail::transport::DnsKeys::system() {
            Ok(dns) => *keys = Some(Box::new(dns)),
            Err(e) => return Ok(Readiness::Later(format!("no DNS resolver for DKIM: {e}"))),
        }
    }
    let Some(lookup) = keys.as_deref() else {
        return Ok(Readiness::Later("no DKIM key source".into()));
    };
    // mail-auth is another crate reading hostile bytes: a panic in it is
    // this message's verdict, not the end of the run.
    let verdict =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dkim::verify(&raw, lookup)))
            .unwrap_or_else(|_| Verdict {
                signatures: vec![dkim::Checked {
                    domain: String::new(),
                    selector: String::new(),
                    result: "permerror".into(),
                    why: "the DKIM checker stopped on this message".into(),
                }],
            });
    let arrived = store::messages::arrived(store.conn(), id)?
        .map_or(now, |(mailbox, stored)| mailbox.unwrap_or(stored));
    if verdict.is_temporary() && now - arrived < Duration::hours(PATIENCE_HOURS) {
        return Ok(Readiness::Later(verdict.summary()));
    }
    let json = serde_json::to_string(&verdict).map_err(|e| PostError::Corrupt(e.to_string()))?;
    store.write(|tx| store::messages::set_dkim(tx, id, &json))?;
    Ok(Readiness::Ready)
}

/// Log what DKIM said of message `row` from `from`, and under `require`
/// return why it is refused when the From domain did not sign it. A message
/// without a stored verdict counts as unsigned.
///
/// # Errors
/// On database errors or a damaged verdict.
pub fn unproven(
    tx: &Transaction<'_>,
    config: &Config,
    row: i64,
    from: &str,
    now: DateTime<Utc>,
) -> Result<Option<String>, PostError> {
    if config.dkim == Policy::Off {
        return Ok(None);
    }
    let verdict: Verdict = match store::messages::dkim(tx, row)? {
        Some(json) => serde_json::from_str(&json)
            .map_err(|e| PostError::Corrupt(format!("message {row}'s DKIM verdict: {e}")))?,
        None => Verdict::default(),
    };
    let domain = from.rsplit_once('@').map_or("", |(_, d)| d);
    let proven = verdict.proves(domain);
    audit(
        tx,
        now,
        None,
        &format!(
            "message {row} from {from}: DKIM {}{}",
            verdict.summary(),
            if proven {
                ""
            } else {
                " (not signed by the From domain)"
            }
        ),
    )?;
    if config.dkim == Policy::Require && !proven {
        return Ok(Some(format!(
            "The message is not signed (DKIM) by {domain}, the domain of its From address, and this club reads only signed mail ({}).",
            verdict.summary()
        )));
    }
    Ok(None)
}
