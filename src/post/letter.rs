//! Mail the post office words itself, outside a reply to a message: a
//! plain-text mail from the umpire ([`plain`]) and a notice about a game
//! queued to one address ([`queue_notice`]). Every part of the post
//! office writes them (rounds, press, absence, leagues), so they sit below
//! all of it and import none of it but the outbox.

use super::outbox::{self, Kind};
use super::PostError;
use crate::config::Config;
use crate::mail::compose::{AutoSubmitted, Outgoing};
use crate::mail::quote::umpire_mark_line;
use crate::store::Transaction;
use chrono::{DateTime, Utc};

/// A plain-text mail from the umpire.
///
/// The text opens with the umpire's mark line: a player who replies on top
/// of it, even in a client that quotes without `>`, never has the quoted
/// text (old orders among it) read again.
pub fn plain(
    config: &Config,
    to: Vec<String>,
    subject: String,
    text: String,
    in_reply_to: Option<String>,
) -> Outgoing {
    let text = format!("{}\n\n{text}", umpire_mark_line(&subject));
    Outgoing {
        from: format!("{} <{}>", config.name, config.address),
        to,
        subject,
        text,
        html: None,
        inline_images: Vec::new(),
        attachments: Vec::new(),
        references: in_reply_to.iter().cloned().collect(),
        // An answer to someone's mail, or mail umpire makes on its own.
        auto_submitted: if in_reply_to.is_some() {
            AutoSubmitted::Replied
        } else {
            AutoSubmitted::Generated
        },
        in_reply_to,
    }
}

/// A plain notice about `game` to one address, queued under `tag` (the
/// moderator's "could not be played", a player's hand-over notice…).
///
/// # Errors
/// When the outbox cannot be written.
#[allow(clippy::too_many_arguments)]
pub(crate) fn queue_notice(
    tx: &Transaction<'_>,
    config: &Config,
    game: &str,
    to: &str,
    subject: String,
    text: String,
    tag: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let mail = plain(config, vec![to.to_string()], subject, text, None);
    outbox::queue(tx, config, Some(game), Kind::Notice, &mail, tag, now)?;
    Ok(())
}
