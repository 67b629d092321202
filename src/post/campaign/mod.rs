//! The campaign secretary's desk, the post office's side of a world
//! campaign: campaign mail stored raw by the post office (`post::handle`
//! hands a message here when it is campaign mail), identified by address
//! and password (`post::password`), confirmed, and the weekly reports
//! queued in the post office's outbox. Everything here runs inside the
//! post office's one write transaction per message.
//!
//! The campaign itself — its letters, orders, weeks, reports and the
//! secretary's commands of its own — is the rules' and is known here only
//! through [`crate::games::campaign::CampaignRules`]: nothing in this folder
//! names a rule set's types.
//!
//! - [`create`]: a campaign from its set-up file, with the opening reports.
//! - [`handle`]: one campaign message (a power's orders, the secretary's commands).
//! - [`resolve_now`]: play the map turn and mail every power its report.
//! - `secretary`: the secretary's commands; `reminders`; `battles`: its
//!   battles played as battle games by mail; `general`: the letters of
//!   the powers the umpire's generals play (issue 42).

pub(crate) mod battles;
mod desk;
mod general;
mod office;
mod reminders;
mod secretary;
mod verify;
mod view;
mod week;

pub use reminders::{remind_if_due, reminders_due};
pub use verify::verify_week;
pub use week::{due, rerun, resolve_if_due, resolve_now};

use crate::config::Config;
use crate::games::campaign::{Command, Facts, Letter, Line, Role, SetUp};
use crate::games::campaign_rules as rules;
use crate::games::Json;
use crate::mail::read::Incoming;
use crate::post::{password, Disposition, PostError};
use crate::store::campaigns::{self, CampaignRow, OrdersRow, PowerRow};
use crate::store::{Connection, Store, Transaction};
use chrono::{DateTime, Utc};
use desk::Desk;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

fn corrupt(e: impl std::fmt::Display) -> PostError {
    PostError::Corrupt(e.to_string())
}

/// The longest `extend` (hours): a fortnight, as a player's absence may
/// move a battle game's deadline (ruling CA-32).
pub const MAX_EXTEND_HOURS: u32 = 336;

/// The stored campaign row.
#[derive(Clone)]
struct Row {
    /// The campaign's state as the rules stored it.
    state: String,
    facts: Facts,
    seed: String,
    secretary_address: String,
    secretary_pw: String,
    status: String,
}

fn facts(state: &str) -> Result<Facts, PostError> {
    rules().facts(state).map_err(corrupt)
}

fn load(conn: &Connection, id: &str) -> Result<Option<Row>, PostError> {
    let Some(row) = campaigns::load(conn, id)? else {
        return Ok(None);
    };
    Ok(Some(Row {
        facts: facts(&row.state)?,
        state: row.state,
        seed: row.seed,
        secretary_address: row.secretary_address,
        secretary_pw: row.secretary_pw,
        status: row.status,
    }))
}

/// The seed of map turn `turn`'s dice: the campaign's secret seed and the
/// turn's number hashed, so revealing one week's seed reveals no other.
fn seed(secret: &str, turn: u32) -> [u8; 32] {
    Sha256::new()
        .chain_update(secret.as_bytes())
        .chain_update(format!(":{turn}").as_bytes())
        .finalize()
        .into()
}

/// The campaign's state as stored now (the rules read it).
///
/// # Errors
/// Damaged stored data or database errors.
pub fn state(store: &Store, id: &str) -> Result<Option<String>, PostError> {
    Ok(load(store.conn(), id)?.map(|r| r.state))
}

/// A power's orders as stored: the lines as the rules read them.
fn stored_orders(json: &str) -> Result<Vec<Line<Json>>, PostError> {
    serde_json::from_str(json).map_err(corrupt)
}

/// Create a campaign and mail each power its opening report and password.
///
/// # Errors
/// An invalid set-up file, a campaign that exists, or database errors.
pub fn create(
    tx: &Transaction<'_>,
    config: &Config,
    file: &dyn SetUp,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let scenario = |message: String| PostError::Scenario {
        path: file.id().to_string(),
        message,
    };
    let opening = file.opening().map_err(scenario)?;
    let players = opening.powers.iter().filter(|p| p.general.is_none());
    for seat in std::iter::once(&opening.secretary).chain(players) {
        if !crate::mail::address::is_valid(&seat.address) {
            return Err(scenario(format!(
                "'{}' is not a mail address such as player@club.example",
                seat.address
            )));
        }
    }
    if campaigns::exists(tx, &opening.id)? {
        return Err(PostError::GameExists(opening.id));
    }
    let row = CampaignRow {
        id: opening.id.clone(),
        title: opening.title.clone(),
        state: opening.state.clone(),
        seed: hex::encode(config.entropy.seed()),
        secretary_address: opening.secretary.address.to_ascii_lowercase(),
        secretary_pw: password::hash_kept(tx, config, &opening.secretary.password)?,
        status: "active".into(),
    };
    campaigns::insert(tx, &row, now)?;
    let c = facts(&row.state)?;
    let due = week::open(tx, config, &c, now)?;
    let dice = week::dice(&row.seed, c.turn);
    let none = BTreeMap::new();
    let start = crate::games::campaign::Week {
        played: "the start",
        events: None,
        orders: &none,
        dice: Some(&dice),
        intro: &due,
    };
    for p in &opening.powers {
        // A general's power gets a password nobody is told: no mail can
        // speak for it.
        let secret = match p.general {
            Some(_) => password::fresh(&config.entropy),
            None => p.password.clone(),
        };
        let player = PowerRow {
            power: p.id.clone(),
            address: p.address.to_ascii_lowercase(),
            password: password::hash_kept(tx, config, &secret)?,
            general: p.general.map(|g| g.code().to_string()),
        };
        campaigns::insert_power(tx, &c.id, &player)?;
        if p.general.is_some() {
            continue;
        }
        let intro = format!(
            "Welcome to the campaign {} as {}. Your password: {}\nWrite your orders as:\n\n  CAMPAIGN {} POWER {} PASSWORD <password>\n  army <army> move to <province>\n  END\n\n{}\n{due}",
            c.title, p.id, p.password, c.id, p.id, rules().guide()
        );
        let to = week::Reader::power(&p.id, &p.address).with_password();
        let week = crate::games::campaign::Week {
            intro: &intro,
            ..start
        };
        week::queue_report(tx, config, &row.state, &c, to, &week, now)?;
    }
    let generals: String = opening
        .powers
        .iter()
        .filter_map(|p| Some(general_line(&p.id, p.general?)))
        .collect();
    let intro = format!("{generals}{due}");
    let start = crate::games::campaign::Week {
        intro: &intro,
        ..start
    };
    let to = week::Reader::secretary(&opening.secretary.address);
    week::queue_report(tx, config, &row.state, &c, to, &start, now)?;
    general::write_letters(tx, config, &opening.id, now)?;
    crate::post::audit(
        tx,
        now,
        Some(&opening.id),
        &format!(
            "campaign {} created with {} powers",
            opening.id,
            opening.powers.len()
        ),
    )
}

/// What the secretary is told of a power the umpire's general plays.
fn general_line(power: &str, style: crate::sim::Style) -> String {
    format!(
        "{power} is played by the umpire's {style} general: it writes {power}'s orders as each week opens (they are in the digest with the others), and you are told if the rules ever refuse a line of it. replace {power} new@address hands the power to a player.\n"
    )
}

/// The passwords a campaign mail's header carries, to mask in its stored copy.
pub fn secrets(text: &str) -> Vec<String> {
    rules()
        .read(text)
        .header
        .map(|h| h.password)
        .into_iter()
        .collect()
}

/// Whether a message's text is campaign mail.
pub fn is_campaign_mail(text: &str) -> bool {
    rules().is_campaign_mail(text)
}

/// The mail's text with the header's password masked (what is kept of a
/// message holds no password).
fn masked(msg: &Incoming, letter: &Letter) -> String {
    let secrets: Vec<&str> = letter.header.iter().map(|h| h.password.as_str()).collect();
    crate::mail::mask::mask_text(&msg.orders_text, &secrets)
}

/// Handle one campaign message inside the post office's transaction.
///
/// # Errors
/// Database errors only; everything wrong with the message is answered.
pub fn handle(
    tx: &Transaction<'_>,
    config: &Config,
    msg: &Incoming,
    row: i64,
    from: &str,
    now: DateTime<Utc>,
) -> Result<Disposition, PostError> {
    let desk = Desk::new(tx, config, msg, row, from, now);
    let letter = rules().read(&msg.orders_text);
    let me = if campaigns::knows_address(tx, from)? {
        vec![from.to_string()]
    } else {
        vec![]
    };
    if letter.header.is_none()
        && !me.is_empty()
        && msg
            .orders_text
            .lines()
            .any(|l| l.trim().eq_ignore_ascii_case("help"))
    {
        desk.reply(
            None,
            crate::post::outbox::Kind::Reply,
            &me,
            rules().guide().to_string(),
        )?;
        return Ok(Disposition::Done("campaign help".into()));
    }
    let Some(header) = letter.header.clone() else {
        let why = letter.errors.first().map_or(
            "The CAMPAIGN header line was not understood.".to_string(),
            |e| e.item.clone(),
        );
        return desk.refuse(None, &me, &why);
    };
    let Some(stored) = load(tx, &header.campaign)? else {
        return desk.refuse(
            None,
            &me,
            &format!("There is no campaign called '{}'.", header.campaign),
        );
    };
    match &header.role {
        Role::Secretary => {
            if let Some(refused) = secretary_refused(&desk, &stored, &header.password)? {
                return Ok(refused);
            }
            secretary::commands(&desk, stored, &letter)
        }
        Role::Power(power) => match power_known(&desk, &stored, power, &header.password, &me)? {
            Ok(seat) => power_orders(&desk, &stored, &seat.power, row, &letter),
            Err(refused) => Ok(refused),
        },
    }
}

/// The secretary's identity checked: `Some` the refusal when the password
/// or the address is wrong.
fn secretary_refused(
    desk: &Desk<'_, '_>,
    stored: &Row,
    password: &str,
) -> Result<Option<Disposition>, PostError> {
    let id = &stored.facts.id;
    let to = std::slice::from_ref(&stored.secretary_address);
    if !password::verify_kept(
        desk.tx,
        desk.config.password_key.as_ref(),
        password,
        &stored.secretary_pw,
    )? {
        return desk
            .refuse(
                Some(id),
                to,
                "A secretary's message came with the wrong password.",
            )
            .map(Some);
    }
    if stored.secretary_address != desk.from {
        // The right password from a stranger: only the secretary hears of
        // it; the sender learns what a wrong one teaches.
        return desk
            .refuse(
                Some(id),
                to,
                &format!("A secretary's message for campaign {id} came with your password, but from {}. If you did not send it, someone knows your password.", desk.from),
            )
            .map(Some);
    }
    Ok(None)
}

/// The power a letter is for, when it exists, the password is its own,
/// it comes from its player's address and the campaign takes orders;
/// `Err` the refusal.
fn power_known(
    desk: &Desk<'_, '_>,
    stored: &Row,
    power: &str,
    password: &str,
    me: &[String],
) -> Result<Result<PowerRow, Disposition>, PostError> {
    let id = &stored.facts.id;
    let Some(seat) = campaigns::power(desk.tx, id, power)? else {
        return desk
            .refuse(
                Some(id),
                me,
                &format!("Campaign {id} has no power called '{power}'."),
            )
            .map(Err);
    };
    let (power, address) = (&seat.power, &seat.address);
    let why = if !password::verify_kept(
        desk.tx,
        desk.config.password_key.as_ref(),
        password,
        &seat.password,
    )? {
        format!("A message for {power} came with the wrong password. If you did not send it, tell the secretary.")
    } else if *address != desk.from {
        format!("Orders for {power} came with your password, but from {}, not from your registered address. If you did not send them, someone knows your password: tell the secretary.", desk.from)
    } else if stored.status != "active" {
        format!("Campaign {id} is {}; it takes no orders.", stored.status)
    } else {
        return Ok(Ok(seat));
    };
    desk.refuse(Some(id), std::slice::from_ref(address), &why)
        .map(Err)
}

fn power_orders(
    desk: &Desk<'_, '_>,
    stored: &Row,
    power: &str,
    row: i64,
    letter: &Letter,
) -> Result<Disposition, PostError> {
    let c = &stored.facts;
    let turn = c.turn + 1;
    // A letter of STATUS or HELP alone asks; it does not replace the
    // week's orders.
    if letter.orders.is_empty() && !letter.commands.is_empty() {
        return power_asks(desk, stored, power, letter);
    }
    let kept = OrdersRow {
        turn,
        power,
        message: Some(row),
        text: &masked(desk.msg, letter),
        orders: &serde_json::to_string(&letter.orders).map_err(corrupt)?,
    };
    campaigns::insert_orders(desk.tx, &c.id, &kept, desk.now)?;
    let verdicts = rules()
        .check(&stored.state, power, &letter.orders)
        .map_err(corrupt)?;
    desk.reply(
        Some(&c.id),
        crate::post::outbox::Kind::Confirmation,
        &[desk.from.to_string()],
        confirmation(c, power, letter, &verdicts),
    )?;
    resolve_when_all_in(desk.tx, desk.config, &c.id, turn, desk.now)?;
    Ok(Disposition::Done(format!(
        "campaign orders for {power}, turn {turn}"
    )))
}

/// Resolve map turn `turn` at once when every power's orders for it are
/// in; returns whether it did.
fn resolve_when_all_in(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    turn: u32,
    now: DateTime<Utc>,
) -> Result<bool, PostError> {
    let all_in = campaigns::orders_in(tx, id, turn)?
        .iter()
        .all(|(_, ordered)| *ordered);
    if all_in {
        resolve_now(tx, config, id, now)?;
    }
    Ok(all_in)
}

/// A power's orders as understood: each line accepted or refused with why,
/// and the lines not understood.
fn confirmation(c: &Facts, power: &str, letter: &Letter, verdicts: &[Option<String>]) -> String {
    let mut text = format!(
        "Orders of {power} for {} ({}), as understood:\n\n",
        c.date, c.title
    );
    for (l, verdict) in letter.orders.iter().zip(verdicts) {
        match verdict {
            None => text.push_str(&format!("  ok       {}\n", l.text)),
            Some(why) => text.push_str(&format!("  REFUSED  {}\n           {why}\n", l.text)),
        }
    }
    if letter.orders.is_empty() {
        text.push_str("  (no orders: your armies stand)\n");
    }
    for e in &letter.errors {
        text.push_str(&format!(
            "\nNot understood, line {}:\n{}\n",
            e.number, e.item
        ));
    }
    text.push_str("\nA later message for this week replaces these orders.\n");
    text
}

/// A power's STATUS or HELP: the guide, and its orders on file this week.
fn power_asks(
    desk: &Desk<'_, '_>,
    stored: &Row,
    power: &str,
    letter: &Letter,
) -> Result<Disposition, PostError> {
    let c = &stored.facts;
    let mut text = String::new();
    for l in &letter.commands {
        match l.item {
            Command::Help => text.push_str(rules().guide()),
            Command::Status => text.push_str(&on_file_of(desk, stored, power)?),
            _ => text.push_str(&format!(
                "\"{}\" is the secretary's command; powers send orders (HELP for the guide).\n",
                l.text
            )),
        }
        text.push('\n');
    }
    text.push_str("Your orders for this week are unchanged.\n");
    desk.reply(
        Some(&c.id),
        crate::post::outbox::Kind::Confirmation,
        &[desk.from.to_string()],
        text,
    )?;
    Ok(Disposition::Done(format!(
        "campaign status/help for {power}"
    )))
}

/// A power's orders on file this week, each refused one marked with why
/// (as its confirmation and the secretary's digest mark it).
fn on_file_of(desk: &Desk<'_, '_>, stored: &Row, power: &str) -> Result<String, PostError> {
    let c = &stored.facts;
    let mut text = format!("{} ({}), orders of {power}:\n", c.date, c.title);
    let on_file = campaigns::latest_orders(desk.tx, &c.id, c.turn + 1)?;
    let Some((_, json)) = on_file.iter().find(|(p, _)| p == power) else {
        text.push_str("  none sent yet\n");
        return Ok(text);
    };
    let lines = stored_orders(json)?;
    if lines.is_empty() {
        text.push_str("  (no orders: your armies stand)\n");
    }
    let verdicts = rules()
        .check(&stored.state, power, &lines)
        .map_err(corrupt)?;
    for (l, verdict) in lines.iter().zip(verdicts) {
        text.push_str(&format!("  {}\n", l.text));
        if let Some(why) = verdict {
            text.push_str(&format!("    REFUSED: {why}\n"));
        }
    }
    Ok(text)
}

/// Each power's orders on file for the week being ordered (`None`: it
/// sent none), by power.
fn on_file(tx: &Transaction<'_>, c: &Facts) -> Result<crate::games::campaign::OnFile, PostError> {
    let mut out: crate::games::campaign::OnFile = campaigns::players(tx, &c.id)?
        .into_iter()
        .map(|(p, _)| (p, None))
        .collect();
    for (p, json) in campaigns::latest_orders(tx, &c.id, c.turn + 1)? {
        out.insert(p, Some(stored_orders(&json)?));
    }
    Ok(out)
}

/// Every power's latest orders for the week being ordered, by power.
fn week_orders(
    tx: &Transaction<'_>,
    c: &Facts,
) -> Result<BTreeMap<String, Vec<Line<Json>>>, PostError> {
    campaigns::latest_orders(tx, &c.id, c.turn + 1)?
        .into_iter()
        .map(|(p, json)| Ok((p, stored_orders(&json)?)))
        .collect()
}
