//! Handling one stored message: who sent it, may they, what do they ask.
//!
//! The identity rule (design decision 6): a message is accepted only from
//! the address registered for the side **and** with that side's password.
//! Refusals go to the registered address, never to a stranger; when the
//! right password comes from another address both are told.

use super::game::{games_of, Game};
use super::outbox::{self, Kind};
use super::round::{plain, release_report, report_mail, stored_report};
use super::{audit, password, templates, PostError};
use crate::config::Config;
use crate::envelope::{self, Command, Envelope, Header, Role};
use crate::mail::read::Incoming;
use crate::store::{games as game_rows, rounds, submissions, Transaction};
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
    /// Not answered at all: bounces, auto-replies, list mail, garbage.
    Ignored(String),
}

impl Disposition {
    pub fn state(&self) -> &'static str {
        match self {
            Disposition::Orders { .. } | Disposition::Done(_) => "done",
            Disposition::Refused(_) => "refused",
            Disposition::Ignored(_) => "ignored",
        }
    }
    pub fn note(&self) -> &str {
        match self {
            Disposition::Orders { note: s, .. } | Disposition::Done(s) | Disposition::Refused(s) | Disposition::Ignored(s) => s,
        }
    }
}

/// Everything needed to answer the sender.
struct Ctx<'a, 'b> {
    tx: &'a Transaction<'b>,
    config: &'a Config,
    msg: &'a Incoming,
    /// The message's row in the store.
    row: i64,
    from: String,
    now: DateTime<Utc>,
}

impl Ctx<'_, '_> {
    fn reply(&self, game: Option<&str>, kind: Kind, to: Vec<String>, subject: &str, text: String) -> Result<(), PostError> {
        let subject = if subject.is_empty() { "your message".to_string() } else { subject.to_string() };
        let mut mail = plain(self.config, to, format!("Re: {}", strip_re(&subject)), text, self.msg.message_id.clone());
        mail.references = self.msg.references.clone();
        if let Some(id) = &self.msg.message_id {
            mail.references.push(id.clone());
        }
        let salt = format!("{}:{}", self.msg.message_id.clone().unwrap_or_default(), mail.to.join(","));
        outbox::queue(self.tx, self.config, game, kind, &mail, &salt, self.now)?;
        Ok(())
    }

    fn refuse(&self, game: Option<&str>, to: Vec<String>, reason: &str, hint: &str) -> Result<Disposition, PostError> {
        audit(self.tx, self.now, game, &format!("refused message from {}: {reason}", self.from))?;
        if !to.is_empty() {
            let text = templates::render(
                "refusal.txt",
                minijinja::context! {
                    intro => format!("umpire received a message from {} (subject: {}).", self.from, self.msg.subject),
                    reason => reason, hint => hint,
                },
            );
            self.reply(game, Kind::Refusal, to, &self.msg.subject, text)?;
        }
        Ok(Disposition::Refused(reason.to_string()))
    }
}

fn strip_re(s: &str) -> &str {
    let mut s = s.trim();
    while s.len() >= 3 && (s[..3].eq_ignore_ascii_case("re:") || s[..3].eq_ignore_ascii_case("aw:")) {
        s = s[3..].trim_start();
    }
    s
}

/// Handle one raw message inside the caller's transaction.
pub fn handle(tx: &Transaction<'_>, config: &Config, row: i64, raw: &[u8], now: DateTime<Utc>) -> Result<Disposition, PostError> {
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
    let Some(from) = msg.from.as_ref().map(|m| m.address.to_ascii_lowercase()) else {
        audit(tx, now, None, "message without a sender ignored")?;
        return Ok(Disposition::Ignored("no sender".into()));
    };
    let ctx = Ctx { tx, config, msg: &msg, row, from, now };
    if raw.len() > config.max_message_bytes {
        let known = !games_of(tx, &ctx.from)?.is_empty();
        let reason = format!(
            "The message is {} KB; umpire reads messages of at most {} KB. Send the orders as plain text without attachments.",
            raw.len() / 1024,
            config.max_message_bytes / 1024
        );
        return ctx.refuse(None, if known { vec![ctx.from.clone()] } else { vec![] }, &reason, "");
    }
    if crate::games::hyborian::campaign::orders::is_campaign_mail(&msg.orders_text) {
        return super::campaign::handle(tx, config, &msg, row, &ctx.from, now);
    }
    let env = envelope::read(&msg.orders_text);
    let Some(header) = env.header.as_ref().map(|h| &h.node) else {
        return no_header(&ctx, &env);
    };
    match &header.role {
        Role::Moderator => moderate(&ctx, &env, header),
        Role::Player { side } => player(&ctx, &env, header, side),
    }
}

/// The player's guide to writing orders (HELP by mail): the guide of the
/// game's rule set, or of every rule set when no game is named.
fn guide(game: Option<&Game>) -> String {
    match game {
        Some(g) => g.ruleset.guide().to_string(),
        None => crate::games::all().iter().map(|r| r.guide()).collect::<Vec<_>>().join("\n\n"),
    }
}

/// A message without a header: only a registered player gets an answer.
fn no_header(ctx: &Ctx<'_, '_>, env: &Envelope) -> Result<Disposition, PostError> {
    let games = games_of(ctx.tx, &ctx.from)?;
    let wants_help = env.commands.iter().any(|c| matches!(c.node, Command::Help));
    if games.is_empty() {
        return ctx.refuse(None, vec![], "no header and not a registered player", "");
    }
    if wants_help {
        let their: Vec<Game> = games.iter().filter_map(|g| Game::load(ctx.tx, g).transpose()).collect::<Result<_, _>>()?;
        let mut rulesets: Vec<&str> = their.iter().map(|g| g.ruleset.name()).collect();
        rulesets.dedup();
        let text = if rulesets.len() == 1 { guide(their.first()) } else { guide(None) };
        ctx.reply(None, Kind::Reply, vec![ctx.from.clone()], &ctx.msg.subject, text)?;
        return Ok(Disposition::Done("help".into()));
    }
    let hint = format!(
        "Start your message with a header line such as:\n\n  GAME {} SIDE <your side> PASSWORD <your password>\n\nthen your orders, one line per unit, then END.",
        games[0]
    );
    ctx.refuse(None, vec![ctx.from.clone()], "The message has no GAME … SIDE … PASSWORD … header line, so umpire cannot tell which game it is for.", &hint)
}

/// A message with a player header.
fn player(ctx: &Ctx<'_, '_>, env: &Envelope, header: &Header, side_name: &str) -> Result<Disposition, PostError> {
    let tx = ctx.tx;
    let Some(game) = Game::load(tx, &header.game)? else {
        let to = if games_of(tx, &ctx.from)?.is_empty() { vec![] } else { vec![ctx.from.clone()] };
        return ctx.refuse(None, to, &format!("There is no game called '{}'.", header.game), "Check the GAME word of your header against your welcome mail.");
    };
    let sides = game.sides(tx)?;
    let Some(side) = sides.iter().find(|s| s.side.eq_ignore_ascii_case(side_name)) else {
        let registered = sides.iter().any(|s| s.address == ctx.from) || game.row.moderator_address == ctx.from;
        let to = if registered { vec![ctx.from.clone()] } else { vec![] };
        return ctx.refuse(Some(game.id()), to, &format!("Game {} has no side called '{}'.", game.id(), side_name), "Check the SIDE word of your header against your welcome mail.");
    };
    let pw_ok = password::verify(&header.password, &side.password);
    if !pw_ok {
        return ctx.refuse(
            Some(game.id()),
            vec![side.address.clone()],
            &format!("A message for side {} of game {} came with the wrong password.", side.side, game.id()),
            "If you sent it, check the PASSWORD word against your welcome mail. If you did not, someone is trying to give orders to your troops; tell the moderator.",
        );
    }
    if side.address != ctx.from {
        let mut to = vec![side.address.clone(), ctx.from.clone()];
        to.dedup();
        return ctx.refuse(
            Some(game.id()),
            to,
            &format!(
                "Orders for side {} of game {} must come from its registered address {}; this one came from {}.",
                side.side,
                game.id(),
                side.address,
                ctx.from
            ),
            "Send from your registered address, or ask the moderator to REPLACE the address.",
        );
    }
    let mut answered = Vec::new();
    for c in &env.commands {
        match &c.node {
            Command::Status => {
                ctx.reply(Some(game.id()), Kind::Reply, vec![ctx.from.clone()], &ctx.msg.subject, status_text(tx, &game)?)?;
                answered.push("status");
            }
            Command::Help => {
                ctx.reply(Some(game.id()), Kind::Reply, vec![ctx.from.clone()], &ctx.msg.subject, guide(Some(&game)))?;
                answered.push("help");
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
    if env.sheet.trim().is_empty() && env.diagnostics.is_empty() {
        return Ok(Disposition::Done(if answered.is_empty() { "header only".into() } else { answered.join(",") }));
    }
    if game.row.status != "active" {
        return ctx.refuse(Some(game.id()), vec![ctx.from.clone()], &format!("Game {} is {}; it takes no orders now.", game.id(), game.row.status), "");
    }
    let round = game.round()?;
    if let Some(t) = header.turn {
        if t != round.number {
            return ctx.refuse(
                Some(game.id()),
                vec![ctx.from.clone()],
                &format!("These orders are for turn {t}, but game {} is taking orders for {}.", game.id(), round.label),
                &format!("Write TURN {} in the header, or leave TURN out.", round.number),
            );
        }
    }
    if ctx.now > game.deadline() + Duration::minutes(i64::from(game.row.grace_minutes)) {
        // The deadline passed but the round has not been played yet: played
        // now, without these orders, as the book's written orders require.
        return ctx.refuse(
            Some(game.id()),
            vec![ctx.from.clone()],
            &format!("The deadline for {} ({}) has passed.", round.label, game.deadline_text()),
            "",
        );
    }
    let rendered: Vec<_> = env.diagnostics.iter().map(|d| d.rendered(&env.source)).collect();
    let checked = game.ruleset.check_orders(&game.state()?, &side.side, &env.sheet, &rendered)?;
    let previous = submissions::latest(tx, game.id(), round.number, &side.side)?;
    let changes = previous
        .map(|(_, p)| serde_json::from_str::<Vec<(String, String)>>(&p).unwrap_or_default())
        .map(|p| diff(&p, &checked.understood))
        .unwrap_or_default();
    submissions::insert(
        tx,
        game.id(),
        &submissions::Submission {
            round: round.number,
            side: side.side.clone(),
            message: ctx.row,
            text: ctx.msg.orders_text.clone(),
            checked: serde_json::to_string(&checked.orders).map_err(|e| PostError::Corrupt(e.to_string()))?,
            understood: serde_json::to_string(&checked.understood).map_err(|e| PostError::Corrupt(e.to_string()))?,
        },
        ctx.now,
    )?;
    let text = templates::render(
        "confirmation.txt",
        minijinja::context! {
            title => &game.row.title, game => game.id(), round => &round.label, side => &side.side,
            deadline => game.deadline_text(), changes => changes, confirmation => &checked.confirmation,
        },
    );
    ctx.reply(Some(game.id()), Kind::Confirmation, vec![ctx.from.clone()], &ctx.msg.subject, text)?;
    Ok(Disposition::Orders { note: format!("orders for {} {}", side.side, round.label), game: game.id().to_string() })
}

/// Mail a released report again to the sender (RESEND, HISTORY n).
fn resend_report(ctx: &Ctx<'_, '_>, game: &Game, round: u32) -> Result<(), PostError> {
    let released = rounds::played(ctx.tx, game.id(), round)?.is_some_and(|r| r.played.released);
    match stored_report(ctx.tx, game.id(), round)? {
        Some((mut rep, before, after)) if released => {
            rep.draft = false;
            let mut mail = report_mail(ctx.config, game, vec![ctx.from.clone()], &rep, &before, &after)?;
            mail.in_reply_to = ctx.msg.message_id.clone();
            mail.references = ctx.msg.message_id.iter().cloned().collect();
            let salt = format!("{}:resend:{round}", ctx.msg.message_id.clone().unwrap_or_default());
            outbox::queue(ctx.tx, ctx.config, Some(game.id()), Kind::Reply, &mail, &salt, ctx.now)?;
        }
        _ => {
            let text = if round == 0 { "No turn has been played yet.".to_string() } else { format!("There is no released report of turn {round}.") };
            ctx.reply(Some(game.id()), Kind::Reply, vec![ctx.from.clone()], &ctx.msg.subject, text)?;
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

fn status_text(tx: &Transaction<'_>, game: &Game) -> Result<String, PostError> {
    let sides_in = game.sides_in(tx)?;
    let sides: Vec<_> = game
        .sides(tx)?
        .into_iter()
        .map(|s| minijinja::context! { side => s.side.clone(), ordered => sides_in.contains(&s.side) })
        .collect();
    Ok(templates::render(
        "status.txt",
        minijinja::context! { title => &game.row.title, game => game.id(), round => game.round()?.label, status => &game.row.status,
            deadline => game.deadline_text(), sides => sides, hold => game.row.hold },
    ))
}

/// A moderator's message.
fn moderate(ctx: &Ctx<'_, '_>, env: &Envelope, m: &Header) -> Result<Disposition, PostError> {
    let tx = ctx.tx;
    let Some(mut game) = Game::load(tx, &m.game)? else {
        return ctx.refuse(None, vec![], &format!("moderator message for unknown game '{}'", m.game), "");
    };
    if !password::verify(&m.password, &game.row.moderator_pw) {
        return ctx.refuse(Some(game.id()), vec![game.row.moderator_address.clone()], &format!("A moderator message for game {} came with the wrong moderator password.", game.id()), "");
    }
    if game.row.moderator_address != ctx.from {
        let to = vec![game.row.moderator_address.clone(), ctx.from.clone()];
        return ctx.refuse(Some(game.id()), to, &format!("Moderator messages for game {} must come from {}.", game.id(), game.row.moderator_address), "");
    }
    let mut done = Vec::new();
    let mut force = false;
    for c in &env.commands {
        let line = match &c.node {
            Command::Deadline(local) => match game.tz.from_local_datetime(local).earliest() {
                Some(t) => {
                    game.row.deadline = t.with_timezone(&Utc);
                    format!("deadline set to {}", game.deadline_text())
                }
                None => format!("{local} does not exist in {} (a clock change); deadline unchanged", game.tz),
            },
            Command::Extend(hours) => {
                game.row.deadline += Duration::hours(i64::from(*hours));
                format!("deadline extended to {}", game.deadline_text())
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
                let t = round.unwrap_or(game.row.round.saturating_sub(1));
                match rounds::played(tx, game.id(), t)?.map(|r| r.played.released) {
                    Some(false) => {
                        release_report(tx, ctx.config, &game, t, ctx.now)?;
                        format!("report of turn {t} released")
                    }
                    Some(true) => format!("report of turn {t} was already released"),
                    None => format!("turn {t} has no report to approve"),
                }
            }
            Command::Replace { side, address } => {
                if game_rows::set_address(tx, game.id(), side, &address.to_ascii_lowercase())? {
                    format!("side {side} is now played from {address} (same password)")
                } else {
                    format!("no side '{side}' in game {}", game.id())
                }
            }
            Command::Pause => {
                game.row.status = "paused".into();
                "game paused".into()
            }
            Command::Resume => {
                game.row.status = "active".into();
                "game resumed".into()
            }
            Command::EndGame => {
                game.row.status = "ended".into();
                "game ended".into()
            }
            Command::Dice { turn, rolls } => {
                let t = turn.unwrap_or(game.row.round);
                if t < game.row.round {
                    format!("turn {t} has been played; its dice cannot change")
                } else {
                    let mut refused = Vec::new();
                    let mut taken = Vec::new();
                    for die in rolls {
                        match game.ruleset.die_for(&die.key) {
                            Ok(kind) if u8::try_from(die.value).is_ok_and(|v| kind.can_show(v)) => taken.push(die),
                            Ok(kind) => refused.push(format!("{} = {}: {}", die.key, die.value, kind.describe())),
                            Err(why) => refused.push(why),
                        }
                    }
                    if refused.is_empty() {
                        for die in &taken {
                            rounds::give_die(tx, game.id(), t, &die.key, die.value)?;
                        }
                        let list: Vec<String> = taken.iter().map(|d| format!("{}={}", d.key, d.value)).collect();
                        format!("your dice for turn {t}: {} (every other roll comes from the seed)", list.join(" "))
                    } else {
                        format!("no dice taken for turn {t}: {}", refused.join("; "))
                    }
                }
            }
            Command::Status => status_text(tx, &game)?,
            Command::Help => guide(Some(&game)),
            Command::Resend | Command::History(_) => continue,
        };
        done.push(line);
    }
    for d in &env.diagnostics {
        done.push(d.render(&env.source));
    }
    game.save(tx)?;
    if force {
        super::round::tick_game(tx, ctx.config, game.id(), ctx.now, true)?;
    }
    audit(tx, ctx.now, Some(game.id()), &format!("moderator: {}", done.join("; ")))?;
    let text = if done.is_empty() { "No moderator command found.".to_string() } else { done.join("\n") };
    ctx.reply(Some(game.id()), Kind::Reply, vec![ctx.from.clone()], &ctx.msg.subject, text)?;
    Ok(Disposition::Done(format!("moderator: {}", done.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_lists_new_changed_and_dropped_orders() {
        let old = vec![("a".to_string(), "A: phase 1 move 4".to_string()), ("b".into(), "B: phase 1 hold".into())];
        let new = vec![("a".to_string(), "A: phase 1 move 6".to_string()), ("c".into(), "C: phase 1 hold".into())];
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
