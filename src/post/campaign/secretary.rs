//! The secretary's letter: each command carried out in turn, each reading
//! the campaign as the ones before it left it, and one answer of a line a
//! command. The office's commands (extend, replace, cancel, status,
//! resolve, rerun, digest, help) are the same for every campaign; the
//! rules' own pass through
//! [`crate::games::campaign::CampaignRules::secretary`] and come back as a
//! [`Ruling`] applied here. What the powers are told goes as mail of its
//! own, never as a reply to the secretary's letter (whose subject is his).

use super::desk::Desk;
use super::week::{self, due_text};
use super::{corrupt, load, rules, stored_orders, Row, MAX_EXTEND_HOURS};
use crate::games::campaign::{Command, Facts, Letter, Line, Ruling, Week as Told};
use crate::games::Json;
use crate::post::outbox::Kind;
use crate::post::{password, Disposition, PostError};
use crate::store::campaigns::{self, OrdersRow, PowerRow};
use std::collections::BTreeMap;

/// Carry out a secretary's letter and answer it.
pub(super) fn commands(
    desk: &Desk<'_, '_>,
    stored: Row,
    letter: &Letter,
) -> Result<Disposition, PostError> {
    let id = stored.facts.id.clone();
    let mut lines = Vec::new();
    let mut resolve_after = false;
    for Line { item, text, .. } in &letter.commands {
        // Each command reads the campaign as the ones before it left it (a
        // re-run, then a correction of its outcome).
        let fresh = load(desk.tx, &id)?.unwrap_or_else(|| stored.clone());
        if *item == Command::Resolve {
            resolve_after = true;
            lines.push(format!("{} will be resolved now", fresh.facts.date));
            continue;
        }
        lines.push(one(desk, &fresh, item, text)?);
    }
    for l in &letter.orders {
        lines.push(format!(
            "{}: NOT CARRIED OUT: army orders come from the powers' own mail; the secretary's letter takes commands (HELP lists them)",
            l.text
        ));
    }
    for e in &letter.errors {
        lines.push(format!("Not understood, line {}:\n{}", e.number, e.item));
    }
    if resolve_after {
        super::resolve_now(desk.tx, desk.config, &id, desk.now)?;
    }
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&id),
        &format!("secretary: {} commands", letter.commands.len()),
    )?;
    let text = if lines.is_empty() {
        "No command found.".to_string()
    } else {
        lines.join("\n")
    };
    desk.reply(Some(&id), Kind::Reply, &[desk.from.to_string()], text)?;
    Ok(Disposition::Done(format!(
        "secretary: {}",
        letter.commands.len()
    )))
}

/// One command carried out; the line of the answer.
fn one(desk: &Desk<'_, '_>, c: &Row, item: &Command, text: &str) -> Result<String, PostError> {
    Ok(match item {
        Command::Rules(own) => apply(desk, c, own, text)?,
        Command::Rerun { turn, without } => {
            match super::rerun(desk.tx, desk.config, &c.facts.id, *turn, without, desk.now)? {
                Ok(done) => format!("{text}: done: {done}"),
                Err(why) => format!("{text}: NOT DONE: {why}"),
            }
        }
        Command::Extend { hours } => extend(desk, &c.facts, text, *hours)?,
        Command::Replace { power, address } => replace(desk, c, text, power, address)?,
        Command::Status => status(desk, c)?,
        Command::Digest => week::digest(desk.tx, c)?,
        Command::Cancel { power, line } => cancel(desk, &c.facts, power, *line)?,
        Command::Help => rules().secretary_guide().to_string(),
        Command::Resolve => format!("{} will be resolved now", c.facts.date),
    })
}

/// A command of the rules' own, decided by them and applied here: the
/// state stored, a result recorded, the powers concerned told, a battle
/// sent to mail.
fn apply(desk: &Desk<'_, '_>, c: &Row, own: &Json, text: &str) -> Result<String, PostError> {
    let id = &c.facts.id;
    let Ruling {
        answer,
        state,
        result,
        tell,
        audit,
        by_mail,
    } = rules().secretary(&c.state, own, text).map_err(corrupt)?;
    if let Some(state) = &state {
        campaigns::set_state(desk.tx, id, state)?;
    }
    let mut answer = answer;
    if let Some((battle, entered)) = &result {
        campaigns::record_result(desk.tx, id, *battle, entered)?;
        let ended = super::battles::overridden(desk.tx, desk.config, id, *battle, desk.now)?;
        if let Some(game) = ended {
            answer.push_str(&format!(
                "; its game by mail, {game}, is ended and its players are told it no longer counts"
            ));
        }
    }
    if let Some(line) = &audit {
        crate::post::audit(desk.tx, desk.now, Some(id), line)?;
    }
    for (power, notice) in tell {
        if let Some(row) = campaigns::power(desk.tx, id, &power)? {
            let subject = format!("[{id}] The secretary's correction");
            desk.send(Some(id), Kind::Notice, &[row.address], subject, notice)?;
        }
    }
    match by_mail {
        Some(battle) => to_mail(desk, id, battle),
        None => Ok(answer),
    }
}

/// `battle N by mail`: its battle game created at once and the welcomes
/// queued (ruling CA-18).
fn to_mail(desk: &Desk<'_, '_>, id: &str, battle: u32) -> Result<String, PostError> {
    let made = super::battles::start_games(desk.tx, desk.config, id, desk.now)?;
    Ok(match made.into_iter().find(|(b, _)| *b == battle) {
        Some((_, Ok(game))) => format!(
            "battle {battle} is played by mail as game {game}: both players have their welcome, and you moderate it; its result comes back to the campaign when it ends"
        ),
        Some((_, Err(why))) => format!(
            "battle {battle} by mail: NOT DONE: no battle game could be made ({why}); it waits for your result"
        ),
        None => format!("battle {battle} is played by mail already"),
    })
}

/// The secretary's `extend HOURS`: the open week's deadline later, every
/// power told (ruling CA-32).
fn extend(desk: &Desk<'_, '_>, c: &Facts, text: &str, hours: u32) -> Result<String, PostError> {
    if !(1..=MAX_EXTEND_HOURS).contains(&hours) {
        return Ok(format!(
            "{text}: NOT DONE: extend by 1 to {MAX_EXTEND_HOURS} hours (a fortnight), e.g. extend 48; the deadline is unchanged"
        ));
    }
    let Some(deadline) = campaigns::deadline(desk.tx, &c.id)? else {
        return Ok(format!(
            "{text}: NOT DONE: {} has no deadline (the campaign's week_hours is 0, or it is not active); it waits for every power's orders or your resolve",
            c.date
        ));
    };
    // From now if the deadline has passed unresolved (the tick not yet run).
    let later = deadline.max(desk.now) + chrono::Duration::hours(i64::from(hours));
    if later > desk.now + chrono::Duration::days(crate::post::handle::MAX_DEADLINE_DAYS) {
        return Ok(format!(
            "{text}: NOT DONE: the deadline would be more than {} days away; the deadline is unchanged",
            crate::post::handle::MAX_DEADLINE_DAYS
        ));
    }
    campaigns::set_deadline(desk.tx, &c.id, Some(later))?;
    let when = due_text(desk.config, later);
    for (_, address) in campaigns::players(desk.tx, &c.id)? {
        desk.send(
            Some(&c.id),
            Kind::Notice,
            &[address],
            format!("[{}] The deadline is extended", c.id),
            format!(
                "The secretary of {} has extended the deadline: orders for {} are now due by {when}.\n",
                c.title, c.date
            ),
        )?;
    }
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&c.id),
        &format!("secretary extended the deadline by {hours} hours"),
    )?;
    Ok(format!(
        "{text}: done: orders for {} are now due by {when}; every power is told",
        c.date
    ))
}

/// The powers' ids, for an answer naming a power that is not.
fn powers(desk: &Desk<'_, '_>, id: &str) -> Result<String, PostError> {
    let powers: Vec<String> = campaigns::players(desk.tx, id)?
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    Ok(powers.join(", "))
}

/// The secretary's `replace POWER ADDRESS` (ruling CA-32), as a battle
/// game's moderator's REPLACE: the power is played from the new address
/// with a fresh password mailed there; the old password stops working and
/// the old address is told. Orders on file for the week stand until the new
/// player sends theirs.
fn replace(
    desk: &Desk<'_, '_>,
    stored: &Row,
    text: &str,
    power: &str,
    address: &str,
) -> Result<String, PostError> {
    let c = &stored.facts;
    if !crate::mail::address::is_valid(address) {
        return Ok(format!(
            "{text}: NOT DONE: '{address}' is not a mail address such as new.player@club.example; nothing changed"
        ));
    }
    let Some(PowerRow {
        power,
        address: old,
        ..
    }) = campaigns::power(desk.tx, &c.id, power)?
    else {
        return Ok(format!(
            "{text}: NOT DONE: there is no power '{power}'; the powers are {}",
            powers(desk, &c.id)?
        ));
    };
    let address = address.to_ascii_lowercase();
    if address == old {
        return Ok(format!(
            "{text}: NOT DONE: {power} is played from {address} already; nothing changed"
        ));
    }
    let pw = password::fresh(&desk.config.entropy);
    campaigns::set_player(
        desk.tx,
        &c.id,
        &power,
        &address,
        &password::hash_from(&desk.config.entropy, &pw),
    )?;
    desk.send(
        Some(&c.id),
        Kind::Notice,
        &[old],
        format!("[{}] {power} is handed to another player", c.id),
        format!(
            "The secretary of {} ({}) has handed {power} to another player ({address}).\nYour password for {power} no longer works. Thank you for playing.\n",
            c.title, c.id
        ),
    )?;
    let welcome = taking_over(desk, stored, &power, &pw)?;
    desk.send(
        Some(&c.id),
        Kind::Welcome,
        std::slice::from_ref(&address),
        format!("[{}] You take over {power}", c.id),
        welcome,
    )?;
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&c.id),
        &format!("secretary handed {power} to {address}"),
    )?;
    Ok(format!(
        "{text}: done: {power} is now played from {address}; the new player has a fresh password and the old one was told"
    ))
}

/// The welcome of a player who takes a power over: the password, how to
/// write, the deadline and the power's report as it stands.
fn taking_over(
    desk: &Desk<'_, '_>,
    stored: &Row,
    power: &str,
    pw: &str,
) -> Result<String, PostError> {
    let c = &stored.facts;
    let due = match campaigns::deadline(desk.tx, &c.id)? {
        Some(d) => format!(
            "Orders for {} are due by {}.\n",
            c.date,
            due_text(desk.config, d)
        ),
        None => String::new(),
    };
    let none = BTreeMap::new();
    let now = Told {
        played: &c.date,
        events: None,
        orders: &none,
        dice: None,
        intro: "",
    };
    let (report, _) = rules()
        .report(&stored.state, Some(power), &now, None)
        .map_err(corrupt)?;
    Ok(format!(
        "The secretary of {} has handed you the power {power}: welcome.\nYour password: {pw}\nWrite your orders as:\n\n  CAMPAIGN {} POWER {power} PASSWORD <password>\n  army <army> move to <province>\n  END\n\n{}\n{due}Orders on file for {power} this week stand until you send yours (STATUS shows them).\n\n{report}",
        c.title,
        c.id,
        rules().guide(),
    ))
}

/// The secretary's `cancel POWER N`: the power's orders on file again
/// without its N-th line (as the digest numbers them), kept as the power's
/// latest orders; the power is told. A later message of the power's
/// replaces them as always.
fn cancel(desk: &Desk<'_, '_>, c: &Facts, power: &str, n: u32) -> Result<String, PostError> {
    let written = format!("cancel {power} {n}");
    let Some(PowerRow { power, address, .. }) = campaigns::power(desk.tx, &c.id, power)? else {
        return Ok(format!(
            "{written}: NOT DONE: there is no power '{power}'; the powers are {}",
            powers(desk, &c.id)?
        ));
    };
    let turn = c.turn + 1;
    let latest = campaigns::latest_orders(desk.tx, &c.id, turn)?;
    let Some((_, json)) = latest.iter().find(|(p, _)| *p == power) else {
        return Ok(format!(
            "{written}: NOT DONE: {power} has sent no orders for {}",
            c.date
        ));
    };
    let mut lines = stored_orders(json)?;
    let Some(i) = (n as usize).checked_sub(1).filter(|i| *i < lines.len()) else {
        return Ok(format!(
            "{written}: NOT DONE: {power} has {} on file; write a number the digest shows",
            crate::report::plural(lines.len() as u32, "order", "orders")
        ));
    };
    let gone = lines.remove(i);
    let kept = OrdersRow {
        turn,
        power: &power,
        message: desk.row,
        text: &format!("(the secretary cancelled: {})", gone.text),
        orders: &serde_json::to_string(&lines).map_err(corrupt)?,
    };
    campaigns::insert_orders(desk.tx, &c.id, &kept, desk.now)?;
    desk.send(
        Some(&c.id),
        Kind::Notice,
        &[address],
        format!("[{}] An order of yours is cancelled", c.id),
        format!(
            "The secretary of {} cancelled your order \"{}\" for {}. Your other orders stand; a new message for this week replaces them all as usual.\n",
            c.title, gone.text, c.date
        ),
    )?;
    Ok(format!(
        "{written}: done: {power}'s order \"{}\" is cancelled, and {power} is told",
        gone.text
    ))
}

/// The secretary's `status`: who has sent orders, the orders on file, and
/// the rules' part (battles awaiting results, treasuries).
fn status(desk: &Desk<'_, '_>, stored: &Row) -> Result<String, PostError> {
    let c = &stored.facts;
    let rows = campaigns::orders_in(desk.tx, &c.id, c.turn + 1)?;
    let mut out = format!(
        "{}: {}; battles awaiting results: {}\n",
        c.title,
        c.date,
        c.pending.len()
    );
    for (p, done) in rows {
        out.push_str(&format!(
            "  {p}: {}\n",
            if done { "orders in" } else { "no orders yet" }
        ));
    }
    out.push_str("Orders on file this week:\n");
    for (p, json) in campaigns::latest_orders(desk.tx, &c.id, c.turn + 1)? {
        let lines = stored_orders(&json)?;
        if lines.is_empty() {
            out.push_str(&format!("  {p}: (stands)\n"));
        }
        for l in lines {
            out.push_str(&format!("  {p}: {}\n", l.text));
        }
    }
    out.push_str(&rules().status(&stored.state).map_err(corrupt)?);
    Ok(out)
}
