//! Handling one stored message: who sent it, may they, what do they ask.
//!
//! The identity rule (design decision 6): a message is accepted only from
//! the address registered for the side **and** with that side's password.
//! Refusals go to the registered address, never to a stranger; when the
//! right password comes from another address both are told.

use super::absence::{self, Proof};
use super::game::{games_of, Game};
use super::outbox::{self, Kind};
use super::press::{self, MailRules, Writer};
use super::round::{plain, release_report, report_mail, stored_report, Picture};
use super::{audit, password, templates, PostError};
use crate::config::Config;
use crate::envelope::{self, Command, Envelope, Header, Role};
use crate::games::{Json, GAME_MASTER};
use crate::mail::compose::{Attachment, AutoSubmitted, Outgoing};
use crate::mail::mask::mask_message;
use crate::mail::read::Incoming;
use crate::store::games::GameStatus;
use crate::store::games::SideRow;
use crate::store::{
    deferred, games as game_rows, messages as message_rows, outbox as outbox_rows, rounds,
    submissions, Transaction,
};
use chrono::{DateTime, Duration, TimeZone, Utc};

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
/// After this many wrong passwords for a side from one address in
/// [`LOCKOUT_WINDOW_HOURS`], mail for the side from that address is not read
/// for as long, and the side's player and the moderator are told.
pub const LOCKOUT_AFTER: i64 = 10;
/// The window over which wrong passwords are counted, and the lockout's length.
pub const LOCKOUT_WINDOW_HOURS: i64 = 24;

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
        let pw = self.config.entropy.password();
        game_rows::set_password(self.tx, game.id(), side, &self.config.entropy.hash(&pw))?;
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

/// A change the moderator made that every player is told of.
enum Change {
    Deadline {
        label: String,
        at: DateTime<Utc>,
        extended: bool,
    },
    Paused,
    Resumed {
        label: String,
        at: DateTime<Utc>,
    },
    Ended,
    /// The moderator's PRESS ON / PRESS OFF.
    Press(bool),
}

impl Change {
    /// The change in words, with times as `time` shows them to the reader.
    fn told(&self, time: impl Fn(DateTime<Utc>) -> String) -> String {
        match self {
            Change::Deadline {
                label,
                at,
                extended: false,
            } => format!("The deadline for {label} is now {}.", time(*at)),
            Change::Deadline {
                label,
                at,
                extended: true,
            } => format!("The deadline for {label} is extended to {}.", time(*at)),
            Change::Paused => {
                "The game is paused: no orders are taken and no turn is played until it resumes."
                    .into()
            }
            Change::Resumed { label, at } => format!(
                "The game resumes: orders for {label} are due by {}.",
                time(*at)
            ),
            Change::Ended => {
                "The moderator has ended the game. No more turns will be played.".into()
            }
            Change::Press(true) => {
                "Press between the players is on: PRESS TO <side> (or ALL), the message, then END PRESS.".into()
            }
            Change::Press(false) => {
                "Press between the players is off until the moderator turns it on again.".into()
            }
        }
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
    if !battle_header
        && crate::games::hyborian::campaign::orders::is_campaign_mail(&msg.orders_text)
    {
        let d = super::campaign::handle(tx, config, &msg, row, &ctx.from, now)?;
        let secrets = super::campaign::secrets(&msg.orders_text);
        let secrets: Vec<&str> = secrets.iter().map(String::as_str).collect();
        message_rows::replace_raw(tx, row, &mask_message(raw, &msg.orders_text, &secrets))?;
        return Ok(d);
    }
    let Some(header) = env.header.as_ref().map(|h| &h.node) else {
        return no_header(&ctx, &env);
    };
    let d = match &header.role {
        Role::Moderator => moderate(&ctx, &env, header),
        Role::Player { side } => player(&ctx, &env, header, side),
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
    if let Some(game) = named.map(|g| Game::load(tx, &g)).transpose()?.flatten() {
        let text = format!(
            "umpire could not handle a message for {} ({}), stored as message {row}:\n\n  {reason}\n\n\
             The sender has had no answer yet; every other message and game goes on. After a fix, run\n\n  umpire retry {row}\n",
            game.row.title,
            game.id()
        );
        super::round::queue_notice(
            tx,
            config,
            game.id(),
            &game.row.moderator_address,
            format!("[{}] A message could not be handled", game.id()),
            text,
            &format!("failed-msg{row}:{}", now.timestamp()),
            now,
        )?;
    }
    Ok(())
}

/// The player's guide to writing orders (HELP by mail), as plain text: the
/// guide of the game's rule set, or of every rule set when no game is named;
/// with a topic, that section of it (or the list of topics).
fn guide(game: Option<&Game>, topic: Option<&str>) -> String {
    use crate::report::guide;
    let one = |markdown: &str| match topic {
        Some(t) => guide::topic(markdown, t).unwrap_or_else(|topics| topics),
        None => guide::plain(markdown),
    };
    guides(game)
        .into_iter()
        .map(one)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The guides a HELP answers from: the game's rule set's, or every rule
/// set's when the writer plays more than one.
fn guides(game: Option<&Game>) -> Vec<&'static str> {
    match game {
        Some(g) => vec![g.ruleset.guide()],
        None => crate::games::all().iter().map(|r| r.guide()).collect(),
    }
}

/// Answer a HELP: the guide (or its one section) as plain text and as an
/// HTML page of the same words. A topic that fits no one section is
/// answered in plain text only (the list of topics).
fn help_reply(
    ctx: &Ctx<'_, '_>,
    game: Option<&Game>,
    for_game: Option<&str>,
    topic: Option<&str>,
) -> Result<(), PostError> {
    use crate::report::guide;
    let mut mail = ctx.reply_mail(vec![ctx.from.clone()], &ctx.msg.subject, guide(game, topic));
    let parts: Option<Vec<String>> = guides(game)
        .into_iter()
        .map(|markdown| match topic {
            Some(t) => guide::topic_html(markdown, t),
            None => Some(guide::html(markdown)),
        })
        .collect();
    if let Some(parts) = parts {
        mail.html = Some(format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>The umpire's guide</title></head><body>\n{}</body></html>\n",
            parts.join("<hr>\n")
        ));
    }
    ctx.send(for_game, Kind::Reply, &mail)
}

/// A message without a header: only a registered player gets an answer.
fn no_header(ctx: &Ctx<'_, '_>, env: &Envelope) -> Result<Disposition, PostError> {
    let games = games_of(ctx.tx, &ctx.from)?;
    let wants_help = env.commands.iter().find_map(|c| match &c.node {
        Command::Help(topic) => Some(topic.as_deref()),
        _ => None,
    });
    if games.is_empty() {
        return ctx.refuse(None, vec![], "no header and not a registered player", "");
    }
    if let Some(topic) = wants_help {
        let their: Vec<Game> = games
            .iter()
            .filter_map(|g| Game::load(ctx.tx, g).transpose())
            .collect::<Result<_, _>>()?;
        let mut rulesets: Vec<&str> = their.iter().map(|g| g.ruleset.name()).collect();
        rulesets.dedup();
        let game = if rulesets.len() == 1 {
            their.first()
        } else {
            None
        };
        help_reply(ctx, game, None, topic)?;
        return Ok(Disposition::Done("help".into()));
    }
    let hint = format!(
        "Start your message with a header line such as:\n\n  GAME {} SIDE <your side> PASSWORD <your password>\n\nthen your orders, one line per unit, then END.",
        games[0]
    );
    ctx.refuse(None, vec![ctx.from.clone()], "The message has no GAME … SIDE … PASSWORD … header line, so umpire cannot tell which game it is for.", &hint)
}

/// A message with a player header.
fn player(
    ctx: &Ctx<'_, '_>,
    env: &Envelope,
    header: &Header,
    side_name: &str,
) -> Result<Disposition, PostError> {
    let tx = ctx.tx;
    let Some(game) = Game::load(tx, &header.game)? else {
        let to = if games_of(tx, &ctx.from)?.is_empty() {
            vec![]
        } else {
            vec![ctx.from.clone()]
        };
        return ctx.refuse(
            None,
            to,
            &format!("There is no game called '{}'.", header.game),
            "Check the GAME word of your header against your welcome mail.",
        );
    };
    let sides = game.sides(tx)?;
    let Some(side) = sides
        .iter()
        .find(|s| s.side.eq_ignore_ascii_case(side_name))
    else {
        let registered =
            sides.iter().any(|s| s.address == ctx.from) || game.row.moderator_address == ctx.from;
        let to = if registered {
            vec![ctx.from.clone()]
        } else {
            vec![]
        };
        return ctx.refuse(
            Some(game.id()),
            to,
            &format!("Game {} has no side called '{}'.", game.id(), side_name),
            "Check the SIDE word of your header against your welcome mail.",
        );
    };
    let rules = MailRules::load(tx, game.id())?;
    // A side's standby, with the password mailed to them, while its player
    // is away (post::absence): the mail is the side's.
    let standby = ctx.again.is_none()
        && match absence::proof(
            tx,
            &game,
            &rules,
            side,
            &ctx.from,
            &header.password,
            ctx.now,
        )? {
            Proof::Standby => true,
            Proof::Early(from) => {
                return ctx.refuse(
                    Some(game.id()),
                    vec![ctx.from.clone()],
                    &format!(
                        "You stand in for side {} of game {} only from {}.",
                        side.side,
                        game.id(),
                        game.time_for(from, side)
                    ),
                    "Until then the side's own player orders for it; send your orders again once the absence has begun.",
                );
            }
            Proof::No => false,
        };
    if standby {
        audit(
            tx,
            ctx.now,
            Some(game.id()),
            &format!("mail of the standby {} for side {}", ctx.from, side.side),
        )?;
    } else if let Some(h) = &ctx.again {
        // Read again once its round opened: the password was checked when
        // it came (and is masked in the stored copy since), so the proof
        // then stands, if the side still has the player who gave it.
        if h.game != game.id() || h.side != side.side || h.address != side.address {
            audit(
                tx,
                ctx.now,
                Some(game.id()),
                &format!(
                    "mail held for turn {} of side {} is not read: the side's player changed",
                    h.round, h.side
                ),
            )?;
            return Ok(Disposition::Refused(format!(
                "held for turn {}; side {} has another player now",
                h.round, h.side
            )));
        }
    } else if let Some(d) = check_password(ctx, &game, side, &header.password)? {
        return Ok(d);
    }
    if !standby && side.address != ctx.from {
        // The right password from another address: only the registered
        // player hears of it (with the address it came from, who knows the
        // password); the sender gets what a wrong password gets, nothing.
        audit(
            ctx.tx,
            ctx.now,
            Some(game.id()),
            &format!(
                "side {}'s password came from {}, not {}",
                side.side, ctx.from, side.address
            ),
        )?;
        ctx.refuse(
            Some(game.id()),
            vec![side.address.clone()],
            &format!(
                "A message for side {} of game {} came with your password, but from {}, not from your registered address.",
                side.side,
                game.id(),
                ctx.from
            ),
            "If you sent it, send again from your registered address. If you did not, someone knows your password: ask the moderator to RESET PASSWORD for your side.",
        )?;
        return Ok(Disposition::Refused(format!(
            "the right password for {} from {}",
            side.side, ctx.from
        )));
    }
    let mut answered = Vec::new();
    // What became of each block of press and each ABSENT: one reply.
    let mut talk: Vec<String> = Vec::new();
    // A mail read again has had its commands answered the first time.
    let commands = if ctx.again.is_some() {
        &[][..]
    } else {
        &env.commands[..]
    };
    for c in commands {
        if standby
            && matches!(
                c.node,
                Command::NewPassword(_) | Command::TimeZone(_) | Command::Absent(_)
            )
        {
            let written = env
                .source
                .get(c.span.start..c.span.end)
                .unwrap_or("")
                .trim();
            talk.push(format!(
                "{written}: only the side's own player may do this; nothing changed."
            ));
            continue;
        }
        match &c.node {
            Command::Press(p) if p.to.is_some() => {
                // The header's password never travels on in press.
                let p = envelope::Press {
                    body: crate::mail::mask::mask_text(&p.body, &[&header.password]),
                    ..p.clone()
                };
                talk.push(press::deliver(
                    tx,
                    ctx.config,
                    &game,
                    &rules,
                    Writer::Side(side),
                    &p,
                    ctx.row,
                    &|| ctx.next_tag(),
                    ctx.now,
                )?);
            }
            Command::Absent(a) => talk.push(absence::declare(
                tx,
                ctx.config,
                &game,
                &rules,
                side,
                *a,
                &|| ctx.next_tag(),
                ctx.now,
            )?),
            Command::Status => {
                ctx.reply(
                    Some(game.id()),
                    Kind::Reply,
                    vec![ctx.from.clone()],
                    &ctx.msg.subject,
                    status_text(tx, &game, Some(side))?,
                )?;
                answered.push("status");
            }
            Command::Help(topic) => {
                help_reply(ctx, Some(&game), Some(game.id()), topic.as_deref())?;
                answered.push("help");
            }
            Command::NewPassword(new) => {
                let len = new.chars().count();
                let text = if !(MIN_PASSWORD..=MAX_PASSWORD).contains(&len) {
                    format!("NEW PASSWORD: a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters; yours is unchanged.\n")
                } else if new == &header.password {
                    "NEW PASSWORD: that is your password already; nothing changed.\n".to_string()
                } else {
                    game_rows::set_password(
                        tx,
                        game.id(),
                        &side.side,
                        &ctx.config.entropy.hash(new),
                    )?;
                    audit(
                        tx,
                        ctx.now,
                        Some(game.id()),
                        &format!("side {} changed its password", side.side),
                    )?;
                    format!(
                        "The password of side {} is changed. Use it from your next message on.\n",
                        side.side
                    )
                };
                ctx.reply(
                    Some(game.id()),
                    Kind::Reply,
                    vec![ctx.from.clone()],
                    &ctx.msg.subject,
                    text,
                )?;
                answered.push("password");
            }
            Command::TimeZone(name) => {
                let text = match super::gamefile::zone(name) {
                    Ok(z) => {
                        game_rows::set_timezone(tx, game.id(), &side.side, Some(z.name()))?;
                        let mine = SideRow { timezone: Some(z.name().to_string()), ..side.clone() };
                        format!("TIMEZONE: every deadline you are shown is now in {} (the game's time beside it): the deadline for {} is {}.\n", z.name(), game.round()?.label, game.deadline_for(&mine))
                    }
                    Err(near) if near.is_empty() => format!(
                        "TIMEZONE: '{name}' is not a time zone of the tz database; write it like Europe/London, America/New_York or UTC. Nothing changed.\n"
                    ),
                    Err(near) => format!("TIMEZONE: '{name}' is not a time zone; did you mean {}? Nothing changed.\n", near.join(" or ")),
                };
                ctx.reply(
                    Some(game.id()),
                    Kind::Reply,
                    vec![ctx.from.clone()],
                    &ctx.msg.subject,
                    text,
                )?;
                answered.push("timezone");
            }
            Command::Resend | Command::History(_) => {
                let round = match c.node {
                    Command::History(t) => t,
                    _ => game.row.round.saturating_sub(1),
                };
                resend_report(ctx, &game, round)?;
                answered.push("report");
            }
            _ => {}
        }
    }
    if !talk.is_empty() {
        ctx.reply(
            Some(game.id()),
            Kind::Reply,
            vec![ctx.from.clone()],
            &ctx.msg.subject,
            talk.join("\n\n") + "\n",
        )?;
        answered.push("press");
    }
    // A TIMEZONE in this mail counts already for the answer to its orders.
    let refreshed = game_rows::sides(tx, game.id())?
        .into_iter()
        .find(|s| s.side == side.side);
    let side = refreshed.as_ref().unwrap_or(side);
    let wait = env.commands.iter().any(|c| c.node == Command::Wait);
    let ready = env.commands.iter().any(|c| c.node == Command::Ready);
    let readiness_only = env.sheet.trim().is_empty() && env.diagnostics.is_empty();
    if readiness_only && !(wait || ready) {
        return Ok(Disposition::Done(if answered.is_empty() {
            "header only".into()
        } else {
            answered.join(",")
        }));
    }
    if game.row.status != GameStatus::Active {
        return ctx.refuse(
            Some(game.id()),
            vec![ctx.from.clone()],
            &format!(
                "Game {} is {}; it takes no orders now.",
                game.id(),
                game.row.status
            ),
            "",
        );
    }
    // A standby's mail is for the round open while they stand in: not held.
    if ctx.again.is_none() && !standby {
        if let Some(t) = deferral(ctx, &game, header, &side.side)? {
            return hold(ctx, &game, side, t);
        }
    }
    if let Some(held) = rounds::draft(tx, game.id())? {
        return ctx.refuse(
            Some(game.id()),
            vec![ctx.from.clone()],
            &format!("The report of turn {held} of {} is with the moderator for approval; no orders are taken until it is released.", game.id()),
            "You will get the report, with the next deadline, as soon as the moderator releases it; send your orders then.",
        );
    }
    let round = game.round()?;
    if round.game_master.is_some() {
        return ctx.refuse(
            Some(game.id()),
            vec![ctx.from.clone()],
            &format!(
                "Game {} is waiting for the game master's answer ({}); no orders are taken until the phase's report is out.",
                game.id(),
                round.label
            ),
            "You will get the report, with the next deadline, as soon as the game master has answered; send your orders then.",
        );
    }
    if let Some(t) = header.turn {
        if t != round.number {
            return ctx.refuse(
                Some(game.id()),
                vec![ctx.from.clone()],
                &format!(
                    "These orders are for turn {t}, but game {} is taking orders for {}.",
                    game.id(),
                    round.label
                ),
                &format!(
                    "Write TURN {} in the header, or leave TURN out.",
                    round.number
                ),
            );
        }
    }
    let arrived = arrival(ctx)?;
    if arrived > game.deadline() + Duration::minutes(i64::from(game.row.grace_minutes)) {
        // The deadline passed but the round has not been played yet: played
        // now, without these orders, as the book's written orders require.
        return ctx.refuse(
            Some(game.id()),
            vec![ctx.from.clone()],
            &format!(
                "The deadline for {} ({}) has passed.",
                round.label,
                game.deadline_for(side)
            ),
            "",
        );
    }
    if readiness_only && submissions::latest(tx, game.id(), round.number, &side.side)?.is_some() {
        // READY or WAIT alone: the orders already sent stand; only whether
        // the round may be played on them before the deadline changes.
        submissions::set_ready(tx, game.id(), round.number, &side.side, !wait)?;
        let text = if wait {
            format!("{}: your orders for {} stand, and the round waits for the deadline ({}) or your READY.\n", game.row.title, round.label, game.deadline_for(side))
        } else {
            format!("{}: your orders for {} stand as they are; the round is played as soon as every side that writes is ready.\n", game.row.title, round.label)
        };
        ctx.reply(
            Some(game.id()),
            Kind::Confirmation,
            vec![ctx.from.clone()],
            &ctx.msg.subject,
            text,
        )?;
        return Ok(Disposition::Orders {
            note: format!(
                "{} for {} {}",
                if wait { "wait" } else { "ready" },
                side.side,
                round.label
            ),
            game: game.id().to_string(),
        });
    }
    let rendered: Vec<_> = env
        .diagnostics
        .iter()
        .map(|d| d.rendered(&env.source))
        .collect();
    let text = crate::mail::mask::mask_text(&ctx.msg.orders_text, &[&header.password]);
    let Taken {
        checked,
        changes,
        kept,
    } = take_orders(
        ctx,
        &game,
        &side.side,
        round.number,
        &env.sheet,
        &rendered,
        text,
        |c| !wait && (ready || c.errors == 0),
    )?;
    let text = templates::render(
        "confirmation.txt",
        minijinja::context! {
            title => &game.row.title, game => game.id(), round => &round.label, side => &side.side,
            deadline => game.deadline_for(side), changes => changes, confirmation => &checked.confirmation,
            refused => checked.errors, ready => ready, wait => wait, kept => kept,
        },
    );
    let preview = preview(&game, &side.side, round.number, &checked);
    let text = match &preview {
        Some(_) => format!("{text}\nThe picture attached shows where your orders take your units if nothing else moves.\n"),
        None => text,
    };
    let mut mail = ctx.reply_mail(vec![ctx.from.clone()], &ctx.msg.subject, text);
    mail.attachments.extend(preview);
    ctx.send(Some(game.id()), Kind::Confirmation, &mail)?;
    if standby {
        let understood: Vec<String> = checked
            .understood
            .iter()
            .map(|(_, l)| format!("  {l}"))
            .collect();
        ctx.notice(
            &game,
            &side.address,
            &format!("Your standby ordered for {}", side.side),
            format!(
                "While you are away, your standby ({}) sent orders for {} for {}:\n\n{}\n\nOrders you send yourself before the deadline ({}) count as ever: the latest mail counts.\n",
                ctx.from,
                side.side,
                round.label,
                if understood.is_empty() { "  (no orders accepted)".to_string() } else { understood.join("\n") },
                game.deadline_for(side)
            ),
        )?;
    }
    Ok(Disposition::Orders {
        note: format!("orders for {} {}", side.side, round.label),
        game: game.id().to_string(),
    })
}

/// The order preview of a confirmation (ruling P26): the rule set's
/// picture of the side's units and where its standing orders take them,
/// as SVG (every browser and most mail programs open it; rasterising a PNG
/// inside the write transaction of every confirmation cost more than the
/// rest of the confirmation). None when no order stands or the rule set
/// draws none; a picture that cannot be drawn is logged and left out, never
/// a reason to hold the confirmation back.
fn preview(
    game: &Game,
    side: &str,
    round: u32,
    checked: &crate::games::Checked,
) -> Option<Attachment> {
    if checked.understood.is_empty() {
        return None;
    }
    let drawn = (|| -> Result<Option<String>, PostError> {
        Ok(game
            .ruleset
            .preview(&game.state()?, &game.options()?, side, &checked.orders)?)
    })();
    match drawn {
        Ok(svg) => svg.map(|svg| Attachment {
            name: format!("{}-turn-{round}-{side}-preview.svg", game.id()),
            mime: "image/svg+xml".into(),
            bytes: svg.into_bytes(),
        }),
        Err(e) => {
            tracing::warn!(game = game.id(), side, error = %e, "no order preview");
            None
        }
    }
}

/// The round a mail is to be held for: its header's `TURN n + 1` while
/// round `n` is open, when the rule set says the side writes in it or
/// cannot say who does. Any other turn is judged as before.
fn deferral(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    header: &Header,
    side: &str,
) -> Result<Option<u32>, PostError> {
    let Some(t) = header.turn else {
        return Ok(None);
    };
    let round = game.round()?;
    // While a report waits for the moderator, no orders are taken (nor held).
    if t != round.number + 1 || rounds::draft(ctx.tx, game.id())?.is_some() {
        return Ok(None);
    }
    Ok(match game.ruleset.next_writers(&game.state()?)? {
        Some(writers) if !writers.iter().any(|w| w == side) => None,
        _ => Some(t),
    })
}

/// Hold the mail for round `t` and tell its sender so at once.
fn hold(ctx: &Ctx<'_, '_>, game: &Game, side: &SideRow, t: u32) -> Result<Disposition, PostError> {
    let note = format!("held for turn {t}");
    deferred::hold(
        ctx.tx,
        &deferred::Held {
            message: ctx.row,
            game: game.id().to_string(),
            round: t,
            side: side.side.clone(),
            address: side.address.clone(),
            released: false,
        },
        &note,
        ctx.now,
    )?;
    let text = templates::render(
        "held.txt",
        minijinja::context! {
            title => &game.row.title, game => game.id(), side => &side.side, turn => t,
            round => game.round()?.label, deadline => game.deadline_for(side),
        },
    );
    ctx.reply(
        Some(game.id()),
        Kind::Reply,
        vec![ctx.from.clone()],
        &ctx.msg.subject,
        text,
    )?;
    audit(
        ctx.tx,
        ctx.now,
        Some(game.id()),
        &format!("mail of side {} held for turn {t}", side.side),
    )?;
    Ok(Disposition::Deferred(note))
}

/// How long before umpire stored a message the club server's `Received:`
/// stamp is believed (mail held up in a queue); an older stamp is taken for
/// a wrong clock, and the time umpire stored it counts.
pub const RECEIVED_STAMP_HOURS: i64 = 48;

/// When a message reached the club, for lateness: the mailbox's own time
/// (a Maildir file's delivery, IMAP's INTERNALDATE); else the topmost
/// `Received:` stamp, which the club's server wrote (within
/// [`RECEIVED_STAMP_HOURS`] before umpire stored the message); else when
/// umpire stored it. Never later than now.
fn arrival(ctx: &Ctx<'_, '_>) -> Result<DateTime<Utc>, PostError> {
    let Some((mailbox, stored)) = message_rows::arrived(ctx.tx, ctx.row)? else {
        return Ok(ctx.now);
    };
    let stamp = ctx
        .msg
        .received
        .filter(|r| *r <= stored && *r >= stored - Duration::hours(RECEIVED_STAMP_HOURS));
    Ok(mailbox.or(stamp).unwrap_or(stored).min(ctx.now))
}

/// A side's orders as checked and stored, and how they changed.
struct Taken {
    checked: crate::games::Checked,
    /// Against the side's earlier orders of the round (`diff`).
    changes: Vec<String>,
    /// Earlier orders that stand beside a sheet with a refused line.
    kept: Vec<String>,
}

/// Check `sheet` as `side`'s orders for the round and store them (a
/// player's mail, or the moderator's ORDERS FOR). A sheet with a refused
/// line is not a complete sheet: the earlier orders for what it does not
/// mention stand (ruling P16). `ready` says, from the check, whether the
/// round may be played on them before the deadline.
#[allow(clippy::too_many_arguments)]
fn take_orders(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    side: &str,
    round: u32,
    sheet: &str,
    envelope: &[crate::diagnostic::Rendered],
    text: String,
    ready: impl FnOnce(&crate::games::Checked) -> bool,
) -> Result<Taken, PostError> {
    let tx = ctx.tx;
    let previous = submissions::latest(tx, game.id(), round, side)?;
    let mut checked = game
        .ruleset
        .check_orders(&game.state()?, side, sheet, envelope)?;
    let earlier_understood: Option<Vec<(String, String)>> = previous
        .as_ref()
        .map(|(_, p)| serde_json::from_str(p).unwrap_or_default());
    let changes = earlier_understood
        .as_ref()
        .map(|p| diff(p, &checked.understood))
        .unwrap_or_default();
    let mut kept = Vec::new();
    if checked.errors > 0 {
        if let (Some((earlier, _)), Some(understood)) = (&previous, &earlier_understood) {
            let earlier: Json =
                serde_json::from_str(earlier).map_err(|e| PostError::Corrupt(e.to_string()))?;
            checked.orders = game.ruleset.merge_orders(&earlier, &checked.orders)?;
            for (key, line) in understood {
                if !checked.understood.iter().any(|(k, _)| k == key) {
                    kept.push(line.clone());
                    checked.understood.push((key.clone(), line.clone()));
                }
            }
        }
    }
    submissions::insert(
        tx,
        game.id(),
        &submissions::Submission {
            round,
            side: side.to_string(),
            message: ctx.row,
            text,
            checked: serde_json::to_string(&checked.orders)
                .map_err(|e| PostError::Corrupt(e.to_string()))?,
            understood: serde_json::to_string(&checked.understood)
                .map_err(|e| PostError::Corrupt(e.to_string()))?,
            ready: ready(&checked),
        },
        ctx.now,
    )?;
    Ok(Taken {
        checked,
        changes,
        kept,
    })
}

/// Check a side's password. `None` when it is right (an old-style hash is
/// upgraded on the way); otherwise what became of the message: refused to
/// the registered address (rate-limited). After [`LOCKOUT_AFTER`] wrong
/// passwords for a side from one address within a day, mail for the side
/// from that address is not read for a day, and the side's player and the
/// moderator are told once. A guesser writing from its own address locks
/// out only itself; one forging the player's address locks the side, which
/// is the price of not letting it guess on.
fn check_password(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    side: &SideRow,
    given: &str,
) -> Result<Option<Disposition>, PostError> {
    let tx = ctx.tx;
    if let Some(until) = game_rows::locked_until(tx, game.id(), &side.side, &ctx.from, ctx.now)? {
        audit(
            tx,
            ctx.now,
            Some(game.id()),
            &format!(
                "mail for side {} from {} is not read until {until}",
                side.side, ctx.from
            ),
        )?;
        return Ok(Some(Disposition::Refused(format!(
            "side {} locked for {}",
            side.side, ctx.from
        ))));
    }
    if password::verify(given, &side.password) {
        if password::needs_upgrade(&side.password) {
            game_rows::set_password(tx, game.id(), &side.side, &ctx.config.entropy.hash(given))?;
        }
        return Ok(None);
    }
    let window = Duration::hours(LOCKOUT_WINDOW_HOURS);
    let wrong = game_rows::wrong_password(
        tx,
        game.id(),
        &side.side,
        &ctx.from,
        ctx.now,
        ctx.now - window,
    )?;
    if wrong >= LOCKOUT_AFTER
        && game_rows::lock(
            tx,
            game.id(),
            &side.side,
            &ctx.from,
            ctx.now + window,
            ctx.now,
        )?
    {
        let until = super::gamefile::show_deadline(ctx.now + window, game.tz);
        let text = format!(
            "{wrong} messages for side {} of {} came from {} with a wrong password within {LOCKOUT_WINDOW_HOURS} hours.\n\
             umpire reads no message for the side from that address until {until}.\n\
             The moderator can lift this at once with UNLOCK {} (or give the side a new password with RESET PASSWORD {}).\n",
            side.side,
            game.id(),
            ctx.from,
            side.side,
            side.side
        );
        let mut to = vec![side.address.clone(), game.row.moderator_address.clone()];
        to.dedup();
        let mail = plain(
            ctx.config,
            to,
            format!(
                "[{}] Side {}: wrong passwords from {}",
                game.id(),
                side.side,
                ctx.from
            ),
            text,
            None,
        );
        outbox::queue(
            tx,
            ctx.config,
            Some(game.id()),
            Kind::Notice,
            &mail,
            &format!("locked:{}:{}:{}", side.side, ctx.from, ctx.now.timestamp()),
            ctx.now,
        )?;
        audit(
            tx,
            ctx.now,
            Some(game.id()),
            &format!(
                "side {} locked for {} after {wrong} wrong passwords",
                side.side, ctx.from
            ),
        )?;
        return Ok(Some(Disposition::Refused(format!(
            "side {} locked for {} after wrong passwords",
            side.side, ctx.from
        ))));
    }
    ctx.refuse(
        Some(game.id()),
        vec![side.address.clone()],
        &format!("A message for side {} of game {} came with the wrong password.", side.side, game.id()),
        "If you sent it, check the PASSWORD word against your welcome mail. If you did not, someone is trying to give orders to your troops; tell the moderator.",
    )
    .map(Some)
}

/// Mail a released report again to the sender (RESEND, HISTORY n).
fn resend_report(ctx: &Ctx<'_, '_>, game: &Game, round: u32) -> Result<(), PostError> {
    let released = rounds::played(ctx.tx, game.id(), round)?.is_some_and(|r| r.played.released);
    match stored_report(ctx.tx, game.id(), round)? {
        Some((mut rep, before, after)) if released => {
            rep.draft = false;
            let pic = Picture::of(game, &rep, &before, &after, None)?;
            let mut mail = report_mail(ctx.config, vec![ctx.from.clone()], &rep, &pic)?;
            mail.in_reply_to = ctx.msg.message_id.clone();
            mail.references = ctx.msg.message_id.iter().cloned().collect();
            mail.auto_submitted = AutoSubmitted::Replied;
            outbox::queue(
                ctx.tx,
                ctx.config,
                Some(game.id()),
                Kind::Reply,
                &mail,
                &ctx.next_tag(),
                ctx.now,
            )?;
        }
        _ => {
            let text = if round == 0 {
                "No turn has been played yet.".to_string()
            } else {
                format!("There is no released report of turn {round}.")
            };
            ctx.reply(
                Some(game.id()),
                Kind::Reply,
                vec![ctx.from.clone()],
                &ctx.msg.subject,
                text,
            )?;
        }
    }
    Ok(())
}

/// How one side's orders changed between two submissions.
fn diff(old: &[(String, String)], new: &[(String, String)]) -> Vec<String> {
    let old: std::collections::BTreeMap<_, _> = old.iter().cloned().collect();
    let new: std::collections::BTreeMap<_, _> = new.iter().cloned().collect();
    let mut out = Vec::new();
    for (unit, text) in &new {
        match old.get(unit) {
            None => out.push(format!("new:     {text}")),
            Some(o) if o != text => out.push(format!("changed: {text} (was: {o})")),
            _ => {}
        }
    }
    for (unit, text) in &old {
        if !new.contains_key(unit) {
            out.push(format!("dropped: {text} ({unit} will stand)"));
        }
    }
    out
}

/// The state of a game, with the deadline as `reader` (a side's player;
/// `None`: the moderator) reads it.
pub(crate) fn status_text(
    tx: &Transaction<'_>,
    game: &Game,
    reader: Option<&SideRow>,
) -> Result<String, PostError> {
    let sides_in = game.sides_in(tx)?;
    let ready = game.sides_ready(tx)?;
    let sides: Vec<_> = game
        .sides(tx)?
        .into_iter()
        .map(|s| minijinja::context! { side => s.side.clone(), ordered => sides_in.contains(&s.side), ready => ready.contains(&s.side) })
        .collect();
    Ok(templates::render(
        "status.txt",
        minijinja::context! { title => &game.row.title, game => game.id(), round => game.round()?.label, status => &game.row.status,
        deadline => reader.map_or_else(|| game.deadline_text(), |r| game.deadline_for(r)), sides => sides, hold => game.row.hold, draft => rounds::draft(tx, game.id())? },
    ))
}

/// A moderator's message.
fn moderate(ctx: &Ctx<'_, '_>, env: &Envelope, m: &Header) -> Result<Disposition, PostError> {
    let tx = ctx.tx;
    let Some(mut game) = Game::load(tx, &m.game)? else {
        return ctx.refuse(
            None,
            vec![],
            &format!("moderator message for unknown game '{}'", m.game),
            "",
        );
    };
    let moderator = SideRow {
        side: MODERATOR.into(),
        address: game.row.moderator_address.clone(),
        password: game.row.moderator_pw.clone(),
        timezone: None,
    };
    if let Some(d) = check_password(ctx, &game, &moderator, &m.password)? {
        return Ok(d);
    }
    if game.row.moderator_address != ctx.from {
        audit(
            tx,
            ctx.now,
            Some(game.id()),
            &format!("the moderator's password came from {}", ctx.from),
        )?;
        ctx.refuse(
            Some(game.id()),
            vec![game.row.moderator_address.clone()],
            &format!(
                "A moderator message for game {} came with your password, but from {}.",
                game.id(),
                ctx.from
            ),
            "If you did not send it, someone knows your moderator password.",
        )?;
        return Ok(Disposition::Refused(format!(
            "the moderator's password from {}",
            ctx.from
        )));
    }
    // A reply line for every line the moderator wrote, in the order written.
    let mut done: Vec<(usize, String)> = Vec::new();
    let mut announced = Vec::new();
    let mut force = false;
    let mut rules = MailRules::load(tx, game.id())?;
    for c in &env.commands {
        let written = env
            .source
            .get(c.span.start..c.span.end)
            .unwrap_or("")
            .trim();
        // A game that has ended keeps its record: nothing changes its schedule.
        let changes_play = matches!(
            c.node,
            Command::Deadline(_)
                | Command::Extend(_)
                | Command::Force
                | Command::Pause
                | Command::Resume
                | Command::EndGame
                | Command::HoldTurns(_)
                | Command::Dice { .. }
                | Command::Replace { .. }
        );
        if changes_play && game.row.status == GameStatus::Ended {
            done.push((
                c.span.start,
                format!(
                    "> {written}\n  game {} has ended; nothing changed",
                    game.id()
                ),
            ));
            continue;
        }
        let line = match &c.node {
            Command::Deadline(local) => {
                match game
                    .tz
                    .from_local_datetime(local)
                    .earliest()
                    .map(|t| t.with_timezone(&Utc))
                {
                    Some(t) if t <= ctx.now => {
                        format!("{local} has passed; deadline unchanged (FORCE plays the turn now)")
                    }
                    Some(t) if t > ctx.now + Duration::days(MAX_DEADLINE_DAYS) => {
                        format!("{local} is more than {MAX_DEADLINE_DAYS} days away; deadline unchanged")
                    }
                    Some(t) => {
                        game.row.deadline = t;
                        announced.push(Change::Deadline {
                            label: game.round()?.label,
                            at: t,
                            extended: false,
                        });
                        format!("deadline set to {}", game.deadline_text())
                    }
                    None => format!(
                        "{local} does not exist in {} (a clock change); deadline unchanged",
                        game.tz
                    ),
                }
            }
            Command::Extend(hours) if !(1..=MAX_EXTEND_HOURS).contains(hours) => {
                format!(
                    "EXTEND {hours}: extend by 1 to {MAX_EXTEND_HOURS} hours; deadline unchanged"
                )
            }
            Command::Extend(hours) => {
                let later = game.row.deadline.max(ctx.now) + Duration::hours(i64::from(*hours));
                if later > ctx.now + Duration::days(MAX_DEADLINE_DAYS) {
                    format!("the deadline would be more than {MAX_DEADLINE_DAYS} days away; deadline unchanged")
                } else {
                    game.row.deadline += Duration::hours(i64::from(*hours));
                    announced.push(Change::Deadline {
                        label: game.round()?.label,
                        at: game.row.deadline,
                        extended: true,
                    });
                    format!("deadline extended to {}", game.deadline_text())
                }
            }
            Command::Force => {
                force = true;
                format!("{} will be adjudicated now", game.round()?.label)
            }
            Command::HoldTurns(on) => {
                game.row.hold = *on;
                format!("hold for approval {}", if *on { "on" } else { "off" })
            }
            Command::Approve(round) => {
                let held = rounds::draft(tx, game.id())?;
                let t = round.or(held).unwrap_or(game.row.round.saturating_sub(1));
                match rounds::played(tx, game.id(), t)?.map(|r| r.played.released) {
                    Some(false) if held != Some(t) => format!(
                        "turn {t} cannot be released before turn {} (held too)",
                        held.unwrap_or(t)
                    ),
                    Some(false) => {
                        // Players get a whole turn's time from the release.
                        let fresh = ctx.now + Duration::hours(i64::from(game.row.turn_hours));
                        if game.row.status == GameStatus::Active && game.row.deadline < fresh {
                            game.row.deadline = fresh;
                        }
                        release_report(tx, ctx.config, &game, t, ctx.now, None)?;
                        // Mail held for the round that now takes orders.
                        deferred::release(tx, game.id(), game.row.round, ctx.now)?;
                        format!(
                            "report of turn {t} released; orders for the next turn are due by {}",
                            game.deadline_text()
                        )
                    }
                    Some(true) => format!("report of turn {t} was already released"),
                    None => format!("turn {t} has no report to approve"),
                }
            }
            Command::Reject(round) => match rounds::draft(tx, game.id())? {
                Some(t) if round.is_none_or(|r| r == t) => {
                    game.save(tx)?;
                    let loaded = Game::load(tx, game.id())?
                        .ok_or_else(|| PostError::NoGame(game.id().to_string()))?;
                    let hash = super::round::replay_rejected(tx, ctx.config, loaded, t, ctx.now)?;
                    game = Game::load(tx, game.id())?
                        .ok_or_else(|| PostError::NoGame(game.id().to_string()))?;
                    format!("turn {t} played again from a fresh seed (its SHA-256 is {hash}); the new draft is on its way")
                }
                Some(t) => format!("only the held turn ({t}) can be rejected"),
                None => "no turn is held for approval; nothing to reject".to_string(),
            },
            Command::Readjudicate(round) => {
                game.save(tx)?;
                let loaded = Game::load(tx, game.id())?
                    .ok_or_else(|| PostError::NoGame(game.id().to_string()))?;
                let answer = super::round::readjudicate(tx, ctx.config, loaded, *round, ctx.now)?;
                game = Game::load(tx, game.id())?
                    .ok_or_else(|| PostError::NoGame(game.id().to_string()))?;
                answer
            }
            Command::Replace { address, .. } if !crate::mail::address::is_valid(address) => {
                format!("REPLACE: '{address}' is not a mail address such as new.player@example.org; nothing changed")
            }
            Command::Replace { side, address } => {
                match game
                    .sides(tx)?
                    .into_iter()
                    .find(|s| s.side.eq_ignore_ascii_case(side))
                {
                    Some(old) => {
                        let address = address.to_ascii_lowercase();
                        game_rows::set_address(tx, game.id(), &old.side, &address)?;
                        // The new player reads the game's time until they say otherwise.
                        game_rows::set_timezone(tx, game.id(), &old.side, None)?;
                        let text = format!(
                        "The moderator of {} ({}) has handed side {} to another player ({address}).\nYour password for the side no longer works. Thank you for playing.\n",
                        game.row.title,
                        game.id(),
                        old.side
                    );
                        ctx.notice(
                            &game,
                            &old.address,
                            &format!("You no longer command {}", old.side),
                            text,
                        )?;
                        let new = SideRow {
                            address: address.clone(),
                            timezone: None,
                            ..old.clone()
                        };
                        ctx.credentials(&game, &new, &format!("You take over side {} of {}: welcome. The moderator handed it to you.", old.side, game.row.title))?;
                        format!("side {} is now played from {address}; the new player has a fresh password and the old one was told", old.side)
                    }
                    None => format!(
                        "REPLACE: no side '{side}' in game {} (sides: {})",
                        game.id(),
                        game.sides(tx)?
                            .iter()
                            .map(|s| s.side.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            }
            Command::ResetPassword { side } => match game
                .sides(tx)?
                .into_iter()
                .find(|s| s.side.eq_ignore_ascii_case(side))
            {
                Some(s) => {
                    ctx.credentials(&game, &s, "The moderator has given your side a new password; the old one no longer works.")?;
                    format!("a new password for {} was mailed to {}", s.side, s.address)
                }
                None => format!("RESET PASSWORD: no side '{side}' in game {}", game.id()),
            },
            Command::NewPassword(_) => {
                "NEW PASSWORD is for players; the moderator's password is set in the game file"
                    .into()
            }
            Command::TimeZone(_) => format!(
                "TIMEZONE is for players; the moderator reads the game's time ({})",
                game.tz.name()
            ),
            Command::Pause if game.row.status == GameStatus::Paused => "the game is already paused".into(),
            Command::Pause => {
                game.row.status = GameStatus::Paused;
                announced.push(Change::Paused);
                "game paused".into()
            }
            Command::Resume if game.row.status != GameStatus::Paused => {
                "the game is not paused; nothing changed".into()
            }
            Command::Resume => {
                game.row.status = GameStatus::Active;
                announced.push(Change::Resumed {
                    label: game.round()?.label,
                    at: game.row.deadline,
                });
                "game resumed".into()
            }
            Command::EndGame => {
                game.row.status = GameStatus::Ended;
                // Mail held for a later round is read, and refused, now.
                deferred::release(tx, game.id(), u32::MAX, ctx.now)?;
                // A campaign's battle by mail: its result goes back (CA-18).
                super::campaign_games::game_stopped(tx, ctx.config, &game, ctx.now)?;
                announced.push(Change::Ended);
                "game ended".into()
            }
            Command::Unlock { side } => {
                let known = side.eq_ignore_ascii_case(MODERATOR)
                    || game
                        .sides(tx)?
                        .iter()
                        .any(|s| s.side.eq_ignore_ascii_case(side));
                if known {
                    game_rows::unlock(tx, game.id(), side)?;
                    format!("side {side} unlocked: its password is read again")
                } else {
                    format!("no side '{side}' in game {}", game.id())
                }
            }
            Command::Dice { turn, rolls } => {
                let t = turn.unwrap_or(game.row.round);
                if t < game.row.round {
                    format!("turn {t} has been played; its dice cannot change")
                } else {
                    let mut refused = Vec::new();
                    let mut taken = Vec::new();
                    for die in rolls {
                        match game.ruleset.die_for(&game.state()?, &die.key) {
                            Ok(kind) if u8::try_from(die.value).is_ok_and(|v| kind.can_show(v)) => {
                                taken.push(die)
                            }
                            Ok(kind) => refused.push(format!(
                                "{} = {}: {}",
                                die.key,
                                die.value,
                                kind.describe()
                            )),
                            Err(why) => refused.push(why),
                        }
                    }
                    if refused.is_empty() {
                        for die in &taken {
                            rounds::give_die(tx, game.id(), t, &die.key, die.value)?;
                        }
                        let list: Vec<String> = taken
                            .iter()
                            .map(|d| format!("{}={}", d.key, d.value))
                            .collect();
                        format!(
                            "your dice for turn {t}: {} (every other roll comes from the seed)",
                            list.join(" ")
                        )
                    } else {
                        format!("no dice taken for turn {t}: {}", refused.join("; "))
                    }
                }
            }
            Command::Status => status_text(tx, &game, None)?,
            Command::Help(topic) => guide(Some(&game), topic.as_deref()),
            Command::Resend | Command::History(_) => continue,
            Command::Ready | Command::Wait => {
                "READY and WAIT are for players, about their own orders; nothing changed"
                    .to_string()
            }
            Command::OrdersFor { .. } => continue,
            Command::Press(p) if p.to.is_none() => press::deliver(
                tx,
                ctx.config,
                &game,
                &rules,
                Writer::Moderator,
                p,
                ctx.row,
                &|| ctx.next_tag(),
                ctx.now,
            )?,
            Command::Press(_) => "PRESS TO is the players'; the moderator writes to every player with BROADCAST, the message, then END BROADCAST. Nothing was sent.".into(),
            Command::PressSwitch(on) if rules.press_on() == *on => format!(
                "press between the players is {} already; nothing changed",
                if *on { "on" } else { "off" }
            ),
            Command::PressSwitch(on) => {
                rules.press_by_moderator = Some(*on);
                rules.save(tx, game.id())?;
                announced.push(Change::Press(*on));
                format!(
                    "press between the players is now {}; every player was told",
                    if *on { "on" } else { "off" }
                )
            }
            Command::Absent(_) => {
                "ABSENT is for players, about their own turns; nothing changed".into()
            }
        };
        done.push((
            c.span.start,
            format!("> {written}\n  {}", line.replace('\n', "\n  ").trim_end()),
        ));
    }
    let (blocks, mut stray) = env.orders_for();
    let mut entered = false;
    // In a round the game master answers, the moderator's lines that are
    // no command are his answer.
    let round = game.round()?;
    if round.game_master.is_some() && game.row.status == GameStatus::Active {
        if let Some(at) = stray.first().map(|d| d.span.start) {
            let (line, taken) = game_master_answer(ctx, &game, env, m, &round)?;
            stray.clear();
            entered |= taken;
            done.push((at, line));
        }
    }
    for block in &blocks {
        let written = env
            .source
            .get(block.span.start..block.span.end)
            .unwrap_or("")
            .trim();
        let line = match orders_for(ctx, &game, block)? {
            Ok(done) => {
                entered = true;
                done
            }
            Err(why) => why,
        };
        done.push((
            block.span.start,
            format!("> {written}\n  {}", line.replace('\n', "\n  ").trim_end()),
        ));
    }
    for d in env.diagnostics.iter().chain(&stray) {
        done.push((d.span.start, d.render(&env.source)));
    }
    done.sort_by_key(|(at, _)| *at);
    let done: Vec<String> = done.into_iter().map(|(_, line)| line).collect();
    game.save(tx)?;
    ctx.announce(&game, &announced)?;
    if force {
        super::round::tick_game(tx, ctx.config, game.id(), ctx.now, true)?;
    }
    audit(
        tx,
        ctx.now,
        Some(game.id()),
        &format!(
            "moderator: {}",
            done.iter()
                .map(|d| d.replace("\n  ", ": "))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    )?;
    let text = if done.is_empty() {
        "No moderator command found.".to_string()
    } else {
        done.join("\n\n") + "\n"
    };
    ctx.reply(
        Some(game.id()),
        Kind::Reply,
        vec![ctx.from.clone()],
        &ctx.msg.subject,
        text,
    )?;
    let note = format!("moderator: {}", done.len());
    // Orders entered may complete the round: the caller then plays it.
    Ok(if entered {
        Disposition::Orders {
            game: game.id().to_string(),
            note,
        }
    } else {
        Disposition::Done(note)
    })
}

/// The game master's answer to the round waiting for him: the moderator's
/// mail up to its first `ORDERS FOR`, checked by the rule set as
/// [`GAME_MASTER`]'s and stored like a side's orders. The text for the
/// reply, and whether an answer was taken.
fn game_master_answer(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    env: &Envelope,
    m: &Header,
    round: &crate::games::Round,
) -> Result<(String, bool), PostError> {
    if let Some(t) = m.turn.filter(|t| *t != round.number) {
        return Ok((
            format!(
                "These lines answer round {t}, but game {} waits for the game master's answer to round {} ({}); nothing was taken.
  Write TURN {} in the header.",
                game.id(),
                round.number,
                round.label,
                round.number
            ),
            false,
        ));
    }
    let first = env
        .commands
        .iter()
        .find(|c| matches!(c.node, Command::OrdersFor { .. }))
        .map_or(env.sheet.len(), |c| c.span.start);
    let sheet: String = env
        .sheet
        .char_indices()
        .map(|(i, c)| {
            if i < first || c == '\n' {
                c.to_string()
            } else {
                " ".repeat(c.len_utf8())
            }
        })
        .collect();
    let text = crate::mail::mask::mask_text(&ctx.msg.orders_text, &[&m.password]);
    let Taken { checked, .. } = take_orders(
        ctx,
        game,
        GAME_MASTER,
        round.number,
        &sheet,
        &[],
        text,
        |c| c.errors == 0,
    )?;
    let mut out = format!(
        "Your answer to round {} ({}):\n{}",
        round.number,
        round.label,
        checked.confirmation.trim_end()
    );
    if checked.errors > 0 {
        out.push_str("\n\nThe round waits for a whole answer: send it again, corrected, under the same header (a later answer replaces this one).");
    } else {
        out.push_str("\n\nEvery line is taken: the phase is played on.");
    }
    Ok((out, true))
}

/// `ORDERS FOR side`: the moderator enters a side's orders for the round
/// (an absent player's). They are checked and stored as if the side had
/// sent them, and the side's player is told; a later mail of the player's
/// own counts as any later mail does. The answer for the moderator: `Ok`
/// when orders were entered, `Err` saying why nothing was.
fn orders_for(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    block: &envelope::OrdersFor,
) -> Result<Result<String, String>, PostError> {
    let tx = ctx.tx;
    let sides = game.sides(tx)?;
    let Some(side) = sides
        .iter()
        .find(|s| s.side.eq_ignore_ascii_case(&block.side))
    else {
        let names: Vec<&str> = sides.iter().map(|s| s.side.as_str()).collect();
        let hint = crate::names::closest(&block.side, names.iter().map(|n| (*n, *n)))
            .map(|n| format!(" (did you mean '{n}'?)"))
            .unwrap_or_default();
        return Ok(Err(format!(
            "no side '{}' in game {}{hint}; the sides are {}; nothing entered",
            block.side,
            game.id(),
            names.join(", ")
        )));
    };
    if game.row.status != GameStatus::Active {
        return Ok(Err(format!(
            "game {} is {}; it takes no orders now; nothing entered",
            game.id(),
            game.row.status
        )));
    }
    if let Some(held) = rounds::draft(tx, game.id())? {
        return Ok(Err(format!("the report of turn {held} waits for your APPROVE or REJECT; no orders are taken before; nothing entered")));
    }
    let round = game.round()?;
    if !round.writers.contains(&side.side) {
        return Ok(Err(format!(
            "{} writes no orders in {} (it is {}'s to write); nothing entered",
            side.side,
            round.label,
            round.writers.join(" and ")
        )));
    }
    let text = format!("(entered by the moderator)\n{}", block.sheet.trim());
    let Taken { checked, kept, .. } = take_orders(
        ctx,
        game,
        &side.side,
        round.number,
        &block.sheet,
        &[],
        text,
        |c| c.errors == 0,
    )?;
    audit(
        tx,
        ctx.now,
        Some(game.id()),
        &format!(
            "the moderator entered orders for {} for {}",
            side.side, round.label
        ),
    )?;
    let understood: Vec<String> = checked
        .understood
        .iter()
        .map(|(_, l)| format!("  {l}"))
        .collect();
    let notice = format!(
        "The moderator of {} ({}) has entered orders for your side, {}, for {}:\n\n{}\n\nYou may still send orders of your own until the deadline ({}); the latest mail counts.\n",
        game.row.title,
        game.id(),
        side.side,
        round.label,
        if understood.is_empty() { "  (no orders accepted)".to_string() } else { understood.join("\n") },
        game.deadline_for(side)
    );
    ctx.notice(
        game,
        &side.address,
        &format!("Orders entered for {} by the moderator", side.side),
        notice,
    )?;
    let standing = if kept.is_empty() {
        String::new()
    } else {
        format!(
            "\nEarlier orders that stand beside them:\n{}",
            kept.iter()
                .map(|k| format!("  {k}"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    };
    let readiness = if checked.errors == 0 {
        "the side is ready"
    } else {
        "with refused lines: the side is not ready until the deadline or a clean sheet"
    };
    Ok(Ok(format!(
        "orders for {} entered for {} ({readiness}); the player was told.\n{}{standing}",
        side.side,
        round.label,
        checked.confirmation.trim_end()
    )))
}

/// The lengths a player's own password may have (NEW PASSWORD).
const MIN_PASSWORD: usize = 6;
const MAX_PASSWORD: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_lists_new_changed_and_dropped_orders() {
        let old = vec![
            ("a".to_string(), "A: phase 1 move 4".to_string()),
            ("b".into(), "B: phase 1 hold".into()),
        ];
        let new = vec![
            ("a".to_string(), "A: phase 1 move 6".to_string()),
            ("c".into(), "C: phase 1 hold".into()),
        ];
        let d = diff(&old, &new);
        assert_eq!(d.len(), 3);
        assert!(d[0].starts_with("changed: A: phase 1 move 6"));
        assert!(d[1].starts_with("new:"));
        assert!(d[2].starts_with("dropped:"));
    }

    #[test]
    fn subjects_lose_their_reply_prefixes() {
        assert_eq!(strip_re("Re: RE: aw: Turn 3"), "Turn 3");
    }
}
