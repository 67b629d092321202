//! What a secretary's command does, as values ([`Effect`]), and the one
//! place that does it: [`apply`] writes an effect in the letter's
//! transaction and mails whom it concerns. The commands decide
//! (`secretary`) in the shape of a battle game's moderator
//! ([`crate::post::decision::Decision`]); the effects a battle game's desk
//! also has (a deadline set, a side handed over) are named as its are.

use super::desk::Desk;
use super::view::View;
use super::week::due_text;
use super::{corrupt, rules};
use crate::games::campaign::{Line, Week as Told};
use crate::games::Json;
use crate::post::outbox::Kind;
use crate::post::{password, PostError};
use crate::sim::Style;
use crate::store::campaigns::{self, OrdersRow};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// One thing a secretary's command does to the campaign, its powers or
/// the store.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Effect {
    /// The open week's deadline moves (`extend HOURS`); every power is told
    /// (ruling CA-32).
    SetDeadline { at: DateTime<Utc>, hours: u32 },
    /// A power played from a new address with a fresh password; the old
    /// address is told, the new one welcomed (`replace`).
    HandOver {
        power: String,
        old: String,
        to: String,
    },
    /// A power played by the umpire's general from now on; its player, if
    /// it had one, is told, and the general writes the open week's orders
    /// (`replace POWER general STYLE`).
    ToGeneral {
        power: String,
        old: String,
        style: Style,
    },
    /// A power's orders on file again without the one cancelled, and the
    /// power told (`cancel`).
    CancelOrder {
        power: String,
        address: String,
        kept: Vec<Line<Json>>,
        gone: String,
    },
    /// The rules' own command left the campaign so.
    SetState(String),
    /// The rules' own command entered a battle's result; a game by mail
    /// that played it no longer counts.
    RecordResult { battle: u32, entered: String },
    /// For the log.
    Audit(String),
    /// A power told of the secretary's correction.
    Tell { power: String, notice: String },
    /// A waiting battle now played as a battle game by mail (ruling CA-18).
    ToMail(u32),
    /// A week played again (`rerun`): the line as written, the turn and
    /// the orders left out.
    Rerun {
        text: String,
        turn: Option<u32>,
        without: Vec<(String, u32)>,
    },
}

/// What an effect says of the command, when it words it.
pub(super) enum Words {
    /// The whole line of the answer.
    Whole(String),
    /// More for the answer the command gave.
    More(String),
}

/// Carry out `effect` on the campaign `view` shows, in the store and the
/// outbox.
pub(super) fn apply(
    desk: &Desk<'_, '_>,
    view: &View,
    effect: Effect,
) -> Result<Option<Words>, PostError> {
    let c = &view.row.facts;
    let id = &c.id;
    match effect {
        Effect::SetDeadline { at, hours } => set_deadline(desk, view, at, hours)?,
        Effect::HandOver { power, old, to } => hand_over(desk, view, &power, old, &to)?,
        Effect::ToGeneral { power, old, style } => {
            return Ok(to_general(desk, view, &power, old, style)?.then(|| {
                Words::More(format!(
                    "; every power's orders for {} are in, and it is resolved now",
                    c.date
                ))
            }));
        }
        Effect::CancelOrder {
            power,
            address,
            kept,
            gone,
        } => cancel_order(desk, view, &power, address, &kept, &gone)?,
        Effect::SetState(state) => campaigns::set_state(desk.tx, id, &state)?,
        Effect::RecordResult { battle, entered } => {
            campaigns::record_result(desk.tx, id, battle, &entered)?;
            let ended = super::battles::overridden(desk.tx, desk.config, id, battle, desk.now)?;
            return Ok(ended.map(|game| {
                Words::More(format!(
                    "; its game by mail, {game}, is ended and its players are told it no longer counts"
                ))
            }));
        }
        Effect::Audit(line) => crate::post::audit(desk.tx, desk.now, Some(id), &line)?,
        Effect::Tell { power, notice } => {
            if let Some(row) = campaigns::power(desk.tx, id, &power)? {
                let subject = format!("[{id}] The secretary's correction");
                desk.send(Some(id), Kind::Notice, &[row.address], subject, notice)?;
            }
        }
        Effect::ToMail(battle) => return Ok(Some(Words::Whole(to_mail(desk, id, battle)?))),
        Effect::Rerun {
            text,
            turn,
            without,
        } => {
            let done = super::rerun(desk.tx, desk.config, id, turn, &without, desk.now)?;
            return Ok(Some(Words::Whole(match done {
                Ok(done) => format!("{text}: done: {done}"),
                Err(why) => format!("{text}: NOT DONE: {why}"),
            })));
        }
    }
    Ok(None)
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

/// The deadline stored, every power told, the log written.
fn set_deadline(
    desk: &Desk<'_, '_>,
    view: &View,
    at: DateTime<Utc>,
    hours: u32,
) -> Result<(), PostError> {
    let c = &view.row.facts;
    campaigns::set_deadline(desk.tx, &c.id, Some(at))?;
    let when = due_text(desk.config, at);
    for address in view.addresses.values() {
        desk.send(
            Some(&c.id),
            Kind::Notice,
            std::slice::from_ref(address),
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
    )
}

/// The power played from `to` with a fresh password mailed there; the old
/// password stops working and `old` is told.
fn hand_over(
    desk: &Desk<'_, '_>,
    view: &View,
    power: &str,
    old: String,
    to: &str,
) -> Result<(), PostError> {
    let c = &view.row.facts;
    let pw = password::fresh(&desk.config.entropy);
    campaigns::set_player(
        desk.tx,
        &c.id,
        power,
        to,
        &password::hash_kept(desk.tx, desk.config, &pw)?,
    )?;
    farewell(
        desk,
        view,
        power,
        old,
        ("another player", &format!("another player ({to})")),
    )?;
    let welcome = taking_over(desk, view, power, &pw)?;
    desk.send(
        Some(&c.id),
        Kind::Welcome,
        &[to.to_string()],
        format!("[{}] You take over {power}", c.id),
        welcome,
    )?;
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&c.id),
        &format!("secretary handed {power} to {to}"),
    )
}

/// The player `old` told that `power` is his no more: handed to `to`, as
/// the subject and the letter say it. A power a general played has no old
/// player to tell.
fn farewell(
    desk: &Desk<'_, '_>,
    view: &View,
    power: &str,
    old: String,
    (subject, letter): (&str, &str),
) -> Result<(), PostError> {
    if old.is_empty() {
        return Ok(());
    }
    let c = &view.row.facts;
    desk.send(
        Some(&c.id),
        Kind::Notice,
        &[old],
        format!("[{}] {power} is handed to {subject}", c.id),
        format!(
            "The secretary of {} ({}) has handed {power} to {letter}.\nYour password for {power} no longer works. Thank you for playing.\n",
            c.title, c.id
        ),
    )
}

/// The power given to the general of `style`, with a password nobody is
/// told (as the set-up gives one); the player told; the general's letter
/// for the open week written, and the week resolved if that letter was the
/// last it waited for (which it returns).
fn to_general(
    desk: &Desk<'_, '_>,
    view: &View,
    power: &str,
    old: String,
    style: Style,
) -> Result<bool, PostError> {
    let c = &view.row.facts;
    let pw = password::fresh(&desk.config.entropy);
    let hash = password::hash_kept(desk.tx, desk.config, &pw)?;
    campaigns::set_general(desk.tx, &c.id, power, style.code(), &hash)?;
    let whom = format!("the umpire's {style} general, who writes its orders from now on");
    farewell(desk, view, power, old, ("the umpire's general", &whom))?;
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&c.id),
        &format!("secretary handed {power} to the {style} general"),
    )?;
    if view.row.status != "active" {
        return Ok(false);
    }
    super::general::write_letter(desk.tx, desk.config, &c.id, power, desk.now)?;
    super::resolve_when_all_in(desk.tx, desk.config, &c.id, c.turn + 1, desk.now)
}

/// The welcome of a player who takes a power over: the password, how to
/// write, the deadline and the power's report as it stands.
fn taking_over(
    desk: &Desk<'_, '_>,
    view: &View,
    power: &str,
    pw: &str,
) -> Result<String, PostError> {
    let c = &view.row.facts;
    let due = match view.deadline {
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
        .report(&view.row.state, Some(power), &now, None)
        .map_err(corrupt)?;
    Ok(format!(
        "The secretary of {} has handed you the power {power}: welcome.\nYour password: {pw}\nWrite your orders as:\n\n  CAMPAIGN {} POWER {power} PASSWORD <password>\n  army <army> move to <province>\n  END\n\n{}\n{due}Orders on file for {power} this week stand until you send yours (STATUS shows them).\n\n{report}",
        c.title,
        c.id,
        rules().guide(),
    ))
}

/// The power's orders kept without the one cancelled, as its latest for
/// the week, and the power told.
fn cancel_order(
    desk: &Desk<'_, '_>,
    view: &View,
    power: &str,
    address: String,
    kept: &[Line<Json>],
    gone: &str,
) -> Result<(), PostError> {
    let c = &view.row.facts;
    let row = OrdersRow {
        turn: c.turn + 1,
        power,
        message: Some(desk.row),
        text: &format!("(the secretary cancelled: {gone})"),
        orders: &serde_json::to_string(kept).map_err(corrupt)?,
    };
    campaigns::insert_orders(desk.tx, &c.id, &row, desk.now)?;
    // A general's power has no address to tell.
    if address.is_empty() {
        return Ok(());
    }
    desk.send(
        Some(&c.id),
        Kind::Notice,
        &[address],
        format!("[{}] An order of yours is cancelled", c.id),
        format!(
            "The secretary of {} cancelled your order \"{gone}\" for {}. Your other orders stand; a new message for this week replaces them all as usual.\n",
            c.title, c.date
        ),
    )
}
