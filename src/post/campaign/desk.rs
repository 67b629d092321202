//! Answering the sender of one campaign message: replies, notices and
//! refusals, each with its own identity from the message's stored row.

use crate::config::Config;
use crate::mail::read::Incoming;
use crate::post::outbox::{self, Kind};
use crate::post::{plain, Disposition, PostError};
use crate::store::Transaction;
use chrono::{DateTime, Utc};

/// Answering the sender of one message.
pub(super) struct Desk<'a, 'b> {
    pub(super) tx: &'a Transaction<'b>,
    pub(super) config: &'a Config,
    pub(super) msg: &'a Incoming,
    /// The message's row: every reply's identity comes from it.
    pub(super) row: i64,
    pub(super) from: &'a str,
    pub(super) now: DateTime<Utc>,
    /// Replies queued so far: each gets its own Message-ID.
    replies: std::cell::Cell<u32>,
}

impl Desk<'_, '_> {
    /// Mail someone other than the sender, not as a reply (a new player's
    /// welcome); its identity from the message's row as a reply's.
    pub(super) fn send(
        &self,
        campaign: Option<&str>,
        kind: Kind,
        to: &[String],
        subject: String,
        text: String,
    ) -> Result<(), PostError> {
        let mail = plain(self.config, to.to_vec(), subject, text, None);
        self.queue(campaign, kind, &mail)
    }

    /// Queue a mail with the next identity of this message's replies.
    pub(super) fn queue(
        &self,
        campaign: Option<&str>,
        kind: Kind,
        mail: &crate::mail::compose::Outgoing,
    ) -> Result<(), PostError> {
        // From the stored row, not the mail's own headers: two replies to one
        // message, or to two messages alike, never share a Message-ID.
        let n = self.replies.get() + 1;
        self.replies.set(n);
        outbox::queue(
            self.tx,
            self.config,
            campaign,
            kind,
            mail,
            &format!("msg{}.{n}", self.row),
            self.now,
        )?;
        Ok(())
    }

    pub(super) fn reply(
        &self,
        campaign: Option<&str>,
        kind: Kind,
        to: &[String],
        text: String,
    ) -> Result<(), PostError> {
        let subject = if self.msg.subject.is_empty() {
            "your campaign mail".to_string()
        } else {
            self.msg.subject.clone()
        };
        let mut mail = plain(
            self.config,
            to.to_vec(),
            format!("Re: {subject}"),
            text,
            self.msg.message_id.clone(),
        );
        mail.references.extend(self.msg.references.iter().cloned());
        self.queue(campaign, kind, &mail)
    }

    pub(super) fn refuse(
        &self,
        campaign: Option<&str>,
        to: &[String],
        why: &str,
    ) -> Result<Disposition, PostError> {
        crate::post::audit(
            self.tx,
            self.now,
            campaign,
            &format!("refused campaign mail from {}: {why}", self.from),
        )?;
        // As for battle mail: at most a few refusals an hour to one address,
        // so forged mail never becomes a flood of replies.
        let since = self.now - chrono::Duration::hours(1);
        let mut mailed = Vec::new();
        for addr in to {
            if crate::store::outbox::count_to(self.tx, Kind::Refusal.code(), addr, since)?
                < crate::post::handle::REFUSALS_PER_HOUR
            {
                mailed.push(addr.clone());
            }
        }
        if !mailed.is_empty() {
            self.reply(
                campaign,
                Kind::Refusal,
                &mailed,
                format!(
                    "umpire received a campaign message from {}.\n\n{why}\n",
                    self.from
                ),
            )?;
        }
        Ok(Disposition::Refused(why.to_string()))
    }
}

impl<'a, 'b> Desk<'a, 'b> {
    pub(super) fn new(
        tx: &'a Transaction<'b>,
        config: &'a Config,
        msg: &'a Incoming,
        row: i64,
        from: &'a str,
        now: DateTime<Utc>,
    ) -> Self {
        Desk {
            tx,
            config,
            msg,
            row,
            from,
            now,
            replies: std::cell::Cell::new(0),
        }
    }
}
