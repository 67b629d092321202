//! Handling one stored message: who sent it, may they, what do they ask.
//!
//! The identity rule (design decision 6): a message is accepted only from
//! the address registered for the side **and** with that side's password.
//! Refusals go to the registered address, never to a stranger; when the
//! right password comes from another address both are told.

mod commands;
mod desk;
mod effect;
mod game_master;
mod help;
mod identity;
mod moderator;
mod orders;
mod player;

pub(crate) use help::status_text;

use super::game::{games_of, Game};
use super::outbox::{self, Kind};
use super::round::plain;
use super::{audit, password, templates, PostError};
use crate::config::Config;
use crate::envelope::{self, Command, Envelope, Role};
use crate::mail::compose::{AutoSubmitted, Outgoing};
use crate::mail::mask::mask_message;
use crate::mail::read::Incoming;
use crate::store::games::{self as game_rows, SideRow};
use crate::store::{deferred, messages as message_rows, outbox as outbox_rows, Transaction};
use chrono::{DateTime, Duration, Utc};
use effect::Change;

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Disposition {
    /// Orders accepted for this game and confirmed.
    Orders { game: String, note: String },
    /// Commands answered.
    Done(String),
    /// Refused (and the refusal mailed or logged).
    Refused(String),
    /// Written for the round after the open one: held until that round
    /// opens, then read again (the sender told at once).
    Deferred(String),
    /// Not answered at all: bounces, auto-replies, list mail, garbage.
    Ignored(String),
    /// It could not be handled (a bug, or damaged data): marked `failed`
    /// with the reason, for `umpire doctor` and `umpire retry`.
    Failed(String),
}

impl Disposition {
    pub fn state(&self) -> &'static str {
        match self {
            Disposition::Orders { .. } | Disposition::Done(_) => "done",
            Disposition::Refused(_) => "refused",
            Disposition::Deferred(_) => "deferred",
            Disposition::Ignored(_) => "ignored",
            Disposition::Failed(_) => "failed",
        }
    }
    pub fn note(&self) -> &str {
        match self {
            Disposition::Orders { note: s, .. }
            | Disposition::Done(s)
            | Disposition::Refused(s)
            | Disposition::Deferred(s)
            | Disposition::Ignored(s)
            | Disposition::Failed(s) => s,
        }
    }
}

/// The longest a moderator may extend a deadline by at once, in hours (30 days).
pub const MAX_EXTEND_HOURS: u32 = 720;
/// The farthest ahead a deadline may be set, in days.
pub const MAX_DEADLINE_DAYS: i64 = 366;

/// The name wrong moderator passwords are counted under.
const MODERATOR: &str = "(moderator)";

/// At most this many refusals go to one address in an hour; the rest are
/// logged only (a flood of forged mail must not become a flood of replies).
pub const REFUSALS_PER_HOUR: i64 = 3;

/// Everything needed to answer the sender.
struct Ctx<'a, 'b> {
    tx: &'a Transaction<'b>,
    config: &'a Config,
    msg: &'a Incoming,
    /// The message's row in the store.
    row: i64,
    from: String,
    now: DateTime<Utc>,
    /// Replies queued so far: each gets its own Message-ID.
    replies: std::cell::Cell<u32>,
    /// The message was held for its round and is now read again: whose
    /// identity it proved when it came.
    again: Option<deferred::Held>,
}

impl Ctx<'_, '_> {
    /// A tag unique to the next mail sent about this message.
    fn next_tag(&self) -> String {
        let n = self.replies.get() + 1;
        self.replies.set(n);
        match &self.again {
            // The second reading's replies are not the first's.
            Some(h) => format!("msg{}.t{}.{n}", self.row, h.round),
            None => format!("msg{}.{n}", self.row),
        }
    }

    fn reply(
        &self,
        game: Option<&str>,
        kind: Kind,
        to: Vec<String>,
        subject: &str,
        text: String,
    ) -> Result<(), PostError> {
        self.send(game, kind, &self.reply_mail(to, subject, text))
    }

    /// Answer the sender about `game`: a reply to their mail, threaded to it.
    fn answer(&self, game: &Game, text: String) -> Result<(), PostError> {
        self.answer_as(game, Kind::Reply, text)
    }

    /// Confirm the sender's orders for `game`, in a reply to their mail.
    fn confirm(&self, game: &Game, text: String) -> Result<(), PostError> {
        self.answer_as(game, Kind::Confirmation, text)
    }

    /// Answer the sender about `game` in a reply of the outbox's `kind`.
    fn answer_as(&self, game: &Game, kind: Kind, text: String) -> Result<(), PostError> {
        self.reply(
            Some(game.id()),
            kind,
            vec![self.from.clone()],
            &self.msg.subject,
            text,
        )
    }

    /// The answer to the sender, threaded to their mail, not yet queued.
    fn answer_mail(&self, text: String) -> Outgoing {
        self.reply_mail(vec![self.from.clone()], &self.msg.subject, text)
    }

    /// A reply to the mail being answered, threaded to it, not yet queued.
    fn reply_mail(&self, to: Vec<String>, subject: &str, text: String) -> Outgoing {
        let subject = match strip_re(subject) {
            "" => "your message",
            s => s,
        };
        let mut mail = plain(
            self.config,
            to,
            format!("Re: {subject}"),
            text,
            self.msg.message_id.clone(),
        );
        mail.references = self.msg.references.clone();
        if let Some(id) = &self.msg.message_id {
            mail.references.push(id.clone());
        }
        mail.auto_submitted = AutoSubmitted::Replied;
        mail
    }

    /// Queue a mail about this message.
    fn send(&self, game: Option<&str>, kind: Kind, mail: &Outgoing) -> Result<(), PostError> {
        outbox::queue(
            self.tx,
            self.config,
            game,
            kind,
            mail,
            &self.next_tag(),
            self.now,
        )?;
        Ok(())
    }

    /// Tell every player of `game` what the moderator changed (a notice of
    /// its own, not threaded to the moderator's mail), each with the times
    /// in their own time zone.
    fn announce(&self, game: &Game, changes: &[Change]) -> Result<(), PostError> {
        if changes.is_empty() {
            return Ok(());
        }
        for side in game.sides(self.tx)? {
            let lines: Vec<String> = changes
                .iter()
                .map(|c| format!("  {}", c.told(|t| game.time_for(t, &side))))
                .collect();
            let text = format!(
                "The moderator of {} ({}) has made changes:\n\n{}\n",
                game.row.title,
                game.id(),
                lines.join("\n")
            );
            self.notice(game, &side.address, "From the moderator", text)?;
        }
        Ok(())
    }

    /// A notice of its own (not threaded to the mail being answered) to one
    /// player of `game`.
    fn notice(&self, game: &Game, to: &str, subject: &str, text: String) -> Result<(), PostError> {
        super::round::queue_notice(
            self.tx,
            self.config,
            game.id(),
            to,
            format!("[{}] {subject}", game.id()),
            text,
            &self.next_tag(),
            self.now,
        )
    }

    /// Mail a side's player a fresh password (a hand-over or a reset), and
    /// store only its hash.
    fn credentials(&self, game: &Game, player: &SideRow, why: &str) -> Result<(), PostError> {
        let (side, address) = (player.side.as_str(), player.address.as_str());
        let pw = password::fresh(&self.config.entropy);
        game_rows::set_password(
            self.tx,
            game.id(),
            side,
            &password::hash_kept(self.tx, self.config, &pw)?,
        )?;
        let round = game.round()?;
        let text = format!(
            "{why}\n\nGame: {} ({})\nYou command: {side}\nYour password: {pw}\nOrders go to: {}\nOrders for {} are due by {}.\n\n\
             Start every message with the header line, then one line per unit, then END:\n\n  GAME {} SIDE {side} PASSWORD {pw}\n\n\
             Mail HELP for the order guide, STATUS for the deadline, HISTORY n for the report of turn n.\n\
             Keep this password secret: orders are accepted only from {address} with it.\n",
            game.row.title,
            game.id(),
            self.config.address,
            round.label,
            game.deadline_for(player),
            game.id(),
        );
        let mail = plain(
            self.config,
            vec![address.to_string()],
            format!("[{}] Your password for {side}", game.id()),
            text,
            None,
        );
        outbox::queue(
            self.tx,
            self.config,
            Some(game.id()),
            Kind::Welcome,
            &mail,
            &self.next_tag(),
            self.now,
        )?;
        Ok(())
    }

    /// Refuse the message: logged always; mailed to `to` (registered
    /// addresses only), each at most [`REFUSALS_PER_HOUR`] times an hour.
    fn refuse(
        &self,
        game: Option<&str>,
        to: Vec<String>,
        reason: &str,
        hint: &str,
    ) -> Result<Disposition, PostError> {
        audit(
            self.tx,
            self.now,
            game,
            &format!("refused message from {}: {reason}", self.from),
        )?;
        let since = self.now - Duration::hours(1);
        let mut to_mail = Vec::new();
        for addr in to {
            // The refusals counted are an address's in every game.
            outbox_rows::hold_refusals_to(self.tx, &addr)?;
            if outbox_rows::count_to(self.tx, Kind::Refusal.code(), &addr, since)?
                < REFUSALS_PER_HOUR
            {
                to_mail.push(addr);
            } else {
                audit(
                    self.tx,
                    self.now,
                    game,
                    &format!("refusal to {addr} not mailed: {REFUSALS_PER_HOUR} already this hour"),
                )?;
            }
        }
        for addr in to_mail {
            let text = templates::render(
                "refusal.txt",
                minijinja::context! {
                    intro => format!("umpire received a message from {} (subject: {}).", self.from, strip_re(&self.msg.subject)),
                    reason => reason, hint => hint,
                },
            );
            self.reply(game, Kind::Refusal, vec![addr], &self.msg.subject, text)?;
        }
        Ok(Disposition::Refused(reason.to_string()))
    }
}

/// A subject without its reply prefixes (`Re:`, `AW:`, any case).
fn strip_re(s: &str) -> &str {
    let mut s = s.trim();
    while let Some(prefix) = s.get(..3) {
        if !(prefix.eq_ignore_ascii_case("re:") || prefix.eq_ignore_ascii_case("aw:")) {
            break;
        }
        s = s[3..].trim_start();
    }
    s
}

/// Handle one raw message inside the caller's transaction.
pub fn handle(
    tx: &Transaction<'_>,
    config: &Config,
    row: i64,
    raw: &[u8],
    now: DateTime<Utc>,
) -> Result<Disposition, PostError> {
    let size = message_rows::size(tx, row)?.unwrap_or(raw.len());
    let msg = match Incoming::parse(raw) {
        Ok(m) => m,
        Err(e) => {
            audit(tx, now, None, &format!("unreadable message ignored: {e}"))?;
            return Ok(Disposition::Ignored(format!("unreadable: {e}")));
        }
    };
    if let Some(reason) = msg.loop_hazard(&config.address) {
        audit(tx, now, None, &format!("not answered ({reason:?})"))?;
        return Ok(Disposition::Ignored(format!("{reason:?}")));
    }
    if let Some(trouble) = &msg.sender_trouble {
        audit(tx, now, None, &format!("not answered: {trouble}"))?;
        return Ok(Disposition::Ignored(trouble.clone()));
    }
    let Some(from) = msg.from.as_ref().map(|m| m.address.to_ascii_lowercase()) else {
        audit(tx, now, None, "message without a sender ignored")?;
        return Ok(Disposition::Ignored("no sender".into()));
    };
    let ctx = Ctx {
        tx,
        config,
        msg: &msg,
        row,
        from,
        now,
        replies: std::cell::Cell::new(0),
        again: deferred::of(tx, row)?.filter(|h| h.released),
    };
    // A club that requires DKIM reads nothing more of mail its From domain
    // did not sign; the sender is answered as a wrong password is (post::dkim).
    if let Some(reason) = super::dkim::unproven(tx, config, row, &ctx.from, now)? {
        let known = !games_of(tx, &ctx.from)?.is_empty();
        let d = ctx.refuse(
            None,
            if known {
                vec![ctx.from.clone()]
            } else {
                vec![]
            },
            &reason,
            super::dkim::HINT,
        )?;
        message_rows::replace_raw(
            tx,
            row,
            &mask_message(
                raw,
                &msg.orders_text,
                &secrets(&envelope::read(&msg.orders_text)),
            ),
        )?;
        return Ok(d);
    }
    if size > config.max_message_bytes {
        let known = !games_of(tx, &ctx.from)?.is_empty();
        let reason = format!(
            "The message is {} KB; umpire reads messages of at most {} KB. Send the orders as plain text without attachments.",
            size / 1024,
            config.max_message_bytes / 1024
        );
        return ctx.refuse(
            None,
            if known {
                vec![ctx.from.clone()]
            } else {
                vec![]
            },
            &reason,
            "",
        );
    }
    // A battle's header (even an incomplete one) makes it battle mail; only
    // mail without one is read as a campaign's.
    let env = envelope::read(&msg.orders_text);
    let battle_header = env.header.is_some()
        || env
            .diagnostics
            .iter()
            .any(|d| d.kind == envelope::Trouble::IncompleteHeader);
    if !battle_header && super::campaign::is_campaign_mail(&msg.orders_text) {
        tx.needs_serializable()?;
        let d = super::campaign::handle(tx, config, &msg, row, &ctx.from, now)?;
        let secrets = super::campaign::secrets(&msg.orders_text);
        let secrets: Vec<&str> = secrets.iter().map(String::as_str).collect();
        message_rows::replace_raw(tx, row, &mask_message(raw, &msg.orders_text, &secrets))?;
        return Ok(d);
    }
    // Only a player's mail is handled under its game's lock alone
    // (`Store::write_with_locks`): mail without a header may be for every
    // game of its sender, a moderator's command for a league or campaign.
    let Some(header) = env.header.as_ref().map(|h| &h.node) else {
        tx.needs_serializable()?;
        return help::no_header(&ctx, &env);
    };
    let d = match &header.role {
        Role::Moderator => {
            tx.needs_serializable()?;
            moderator::moderate(&ctx, &env, header)
        }
        Role::Player { side } => player::player(&ctx, &env, header, side),
    }?;
    // What is kept of the message from now on holds no password.
    message_rows::replace_raw(
        tx,
        row,
        &mask_message(raw, &msg.orders_text, &secrets(&env)),
    )?;
    Ok(d)
}

/// The game a stored message's header names, read as [`handle`] reads it:
/// the batch that plays due rounds together (`post::pending`) reads no
/// message for such a game before its round is played. `None` when it
/// names none (mail without a header may be for any game of its sender).
pub(super) fn game_named(raw: &[u8]) -> Option<String> {
    let msg = Incoming::parse(raw).ok()?;
    envelope::read(&msg.orders_text).header.map(|h| h.node.game)
}

/// The passwords a message's envelope holds (its header's, NEW PASSWORD's),
/// to be masked in the stored copy.
fn secrets(env: &Envelope) -> Vec<&str> {
    let mut secrets: Vec<&str> = env
        .header
        .iter()
        .map(|h| h.node.password.as_str())
        .collect();
    secrets.extend(env.commands.iter().filter_map(|c| match &c.node {
        Command::NewPassword(p) => Some(p.as_str()),
        _ => None,
    }));
    secrets
}

/// A message could not be handled: marked `failed` with the reason, logged,
/// and the moderator of the game it names told (`umpire retry ID` handles
/// it again after a fix). Its bytes are kept as they came, to be retried.
pub fn failed(
    tx: &Transaction<'_>,
    config: &Config,
    row: i64,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    message_rows::set_state(tx, row, "failed", reason)?;
    audit(
        tx,
        now,
        None,
        &format!("message {row} could not be handled: {reason}"),
    )?;
    let named = message_rows::load(tx, row)?
        .and_then(|(_, raw)| {
            std::panic::catch_unwind(|| {
                Incoming::parse(&raw)
                    .ok()
                    .map(|m| envelope::read(&m.orders_text))
            })
            .ok()
            .flatten()
        })
        .and_then(|env| env.header.map(|h| h.node.game));
    // Read without the columns that may be what is damaged.
    let game = named
        .map(|g| crate::store::games::moderator_of(tx, &g))
        .transpose()?;
    if let Some((id, title, moderator, _)) = game.flatten() {
        let text = format!(
            "umpire could not handle a message for {title} ({id}), stored as message {row}:\n\n  {reason}\n\n\
             The sender has had no answer yet; every other message and game goes on. After a fix, run\n\n  umpire retry {row}\n"
        );
        super::round::queue_notice(
            tx,
            config,
            &id,
            &moderator,
            format!("[{id}] A message could not be handled"),
            text,
            &format!("failed-msg{row}:{}", now.timestamp()),
            now,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_lose_their_reply_prefixes() {
        assert_eq!(strip_re("Re: RE: aw: Turn 3"), "Turn 3");
    }
}
