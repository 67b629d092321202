//! The campaign secretary's desk, the post office's side of the Hyborean
//! world campaign (`games::hyborian::campaign` is the pure part): campaign
//! mail stored raw by the post office (`post::handle` hands a message here when its first line is a
//! CAMPAIGN header), identified by address and password
//! (`post::password`), confirmed, and the weekly reports queued in the
//! post office's outbox. Everything here runs inside the post office's
//! one write transaction per message.
//!
//! - [`create`]: a campaign from its set-up file, with the opening reports.
//! - [`handle`]: one campaign message (a power's orders, the secretary's commands).
//! - [`resolve_now`]: play the map turn and mail every power its report.

use crate::config::Config;
use crate::games::hyborian::campaign::game::{Campaign, CampaignFile};
use crate::games::hyborian::campaign::map::World;
use crate::games::hyborian::campaign::orders::{self, Command, Letter, Line, Order, Role};
use crate::games::hyborian::campaign::report;
use crate::games::hyborian::campaign::resolve::{self, EnteredResult};
use crate::games::hyborian::dice::SeededDice;
use crate::mail::compose::Attachment;
use crate::mail::read::Incoming;
use crate::post::outbox::{self, Kind};
use crate::post::{password, plain, Disposition, PostError};
use crate::store::campaigns::{self, CampaignRow, OrdersRow, PowerRow, TurnRow};
use crate::store::{Connection, Store, Transaction};
use chrono::{DateTime, Utc};
use rand::Rng;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

fn corrupt(e: impl std::fmt::Display) -> PostError {
    PostError::Corrupt(e.to_string())
}

fn world() -> Result<World, PostError> {
    World::hyborea().map_err(corrupt)
}

/// Set the deadline of the map turn now open (`week_hours` from `now`, or
/// none) and say it as the reports' first line.
fn open_week(
    tx: &Transaction<'_>,
    config: &Config,
    c: &Campaign,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let hours = c.settings.week_hours;
    let deadline = (hours > 0).then(|| now + chrono::Duration::hours(i64::from(hours)));
    campaigns::set_deadline(tx, &c.id, deadline)?;
    Ok(match deadline {
        Some(d) => {
            let tz = config.timezone.parse().unwrap_or(chrono_tz::UTC);
            format!(
                "Orders for {} are due by {}.\n\n",
                c.date(),
                crate::post::gamefile::show_deadline(d, tz)
            )
        }
        None => String::new(),
    })
}

/// Resolve the campaign's week if its deadline has passed — checked again
/// inside the transaction, so two processes ticking at once resolve it
/// once. Returns whether it did.
///
/// # Errors
/// As [`resolve_now`].
pub fn resolve_if_due(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
) -> Result<bool, PostError> {
    if campaigns::deadline(tx, id)?.is_none_or(|d| d > now) {
        return Ok(false);
    }
    resolve_now(tx, config, id, now)?;
    Ok(true)
}

/// Campaigns whose map turn's deadline has passed, by id.
pub fn due(store: &Store, now: DateTime<Utc>) -> Result<Vec<String>, PostError> {
    Ok(campaigns::due(store.conn(), now)?)
}

/// Create a campaign and mail each power its opening report and password.
///
/// # Errors
/// An invalid set-up file, a campaign that exists, or database errors.
pub fn create(
    tx: &Transaction<'_>,
    config: &Config,
    file: &CampaignFile,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let world = world()?;
    for address in
        std::iter::once(&file.secretary.address).chain(file.powers.iter().map(|p| &p.address))
    {
        if !crate::mail::address::is_valid(address) {
            return Err(PostError::Scenario {
                path: file.id.clone(),
                message: format!("'{address}' is not a mail address such as player@club.example"),
            });
        }
    }
    let c = file.start(&world).map_err(|e| PostError::Scenario {
        path: file.id.clone(),
        message: e.to_string(),
    })?;
    if campaigns::exists(tx, &c.id)? {
        return Err(PostError::GameExists(c.id));
    }
    let mut rng = rand::rng();
    let seed: [u8; 32] = rng.random();
    let row = CampaignRow {
        id: c.id.clone(),
        title: c.title.clone(),
        state: serde_json::to_string(&c).map_err(corrupt)?,
        seed: hex::encode(seed),
        secretary_address: file.secretary.address.to_ascii_lowercase(),
        secretary_pw: password::hash(&file.secretary.password, &mut rng),
        status: "active".into(),
    };
    campaigns::insert(tx, &row, now)?;
    let due = open_week(tx, config, &c, now)?;
    for p in &file.powers {
        let player = PowerRow {
            power: p.id.clone(),
            address: p.address.to_ascii_lowercase(),
            password: password::hash(&p.password, &mut rng),
        };
        campaigns::insert_power(tx, &c.id, &player)?;
        let intro = format!(
            "Welcome to the campaign {} as {}. Your password: {}\nWrite your orders as:\n\n  CAMPAIGN {} POWER {} PASSWORD <password>\n  army <army> move to <province>\n  END\n\n{due}",
            c.title, p.id, p.password, c.id, p.id
        );
        queue_report(
            tx,
            config,
            &c,
            &world,
            Some(&p.id),
            &p.address,
            "the start",
            &[],
            &intro,
            now,
        )?;
    }
    queue_report(
        tx,
        config,
        &c,
        &world,
        None,
        &file.secretary.address,
        "the start",
        &[],
        &due,
        now,
    )?;
    crate::post::audit(
        tx,
        now,
        Some(&c.id),
        &format!(
            "campaign {} created with {} powers",
            c.id,
            file.powers.len()
        ),
    )
}

/// Mail one reader's report with its map (PNG and SVG attached).
#[allow(clippy::too_many_arguments)]
fn queue_report(
    tx: &Transaction<'_>,
    config: &Config,
    c: &Campaign,
    world: &World,
    reader: Option<&str>,
    to: &str,
    played: &str,
    events: &[resolve::MapEvent],
    intro: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let text = format!("{intro}{}", report::text(c, world, reader, played, events));
    let svg = report::svg(c, world, reader);
    let png = crate::report::picture::png(&svg).map_err(corrupt)?;
    let who = reader.unwrap_or("secretary");
    let subject = format!("[{}] {} report: {}", c.id, who, c.date());
    let mut mail = plain(config, vec![to.to_string()], subject, text, None);
    mail.auto_submitted = crate::mail::compose::AutoSubmitted::Generated;
    let stem = format!("{}-{}-turn-{}", c.id, who, c.turn);
    mail.attachments.push(Attachment {
        name: format!("{stem}.png"),
        mime: "image/png".into(),
        bytes: png,
    });
    mail.attachments.push(Attachment {
        name: format!("{stem}.svg"),
        mime: "image/svg+xml".into(),
        bytes: svg.into_bytes(),
    });
    outbox::queue(
        tx,
        config,
        Some(&c.id),
        Kind::Report,
        &mail,
        &format!("{}:{}:{who}", c.id, c.turn),
        now,
    )?;
    Ok(())
}

/// The stored campaign row.
struct Row {
    campaign: Campaign,
    seed: String,
    secretary_address: String,
    secretary_pw: String,
    status: String,
}

fn load(conn: &Connection, id: &str) -> Result<Option<Row>, PostError> {
    let Some(row) = campaigns::load(conn, id)? else {
        return Ok(None);
    };
    Ok(Some(Row {
        campaign: serde_json::from_str(&row.state).map_err(corrupt)?,
        seed: row.seed,
        secretary_address: row.secretary_address,
        secretary_pw: row.secretary_pw,
        status: row.status,
    }))
}

/// The campaign as stored now.
///
/// # Errors
/// Damaged stored data or database errors.
pub fn campaign(store: &Store, id: &str) -> Result<Option<Campaign>, PostError> {
    Ok(load(store.conn(), id)?.map(|r| r.campaign))
}

/// Answering the sender of one message.
struct Desk<'a, 'b> {
    tx: &'a Transaction<'b>,
    config: &'a Config,
    msg: &'a Incoming,
    /// The message's row: every reply's identity comes from it.
    row: i64,
    from: &'a str,
    now: DateTime<Utc>,
    /// Replies queued so far: each gets its own Message-ID.
    replies: std::cell::Cell<u32>,
}

impl Desk<'_, '_> {
    fn reply(
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
        // From the stored row, not the mail's own headers: two replies to one
        // message, or to two messages alike, never share a Message-ID.
        let n = self.replies.get() + 1;
        self.replies.set(n);
        outbox::queue(
            self.tx,
            self.config,
            campaign,
            kind,
            &mail,
            &format!("msg{}.{n}", self.row),
            self.now,
        )?;
        Ok(())
    }

    fn refuse(
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
                < super::handle::REFUSALS_PER_HOUR
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

/// The mail's text with the header's password masked (what is kept of a
/// message holds no password).
fn masked(msg: &Incoming, letter: &Letter) -> String {
    let secrets: Vec<&str> = letter.header.iter().map(|h| h.password.as_str()).collect();
    crate::mail::mask::mask_text(&msg.orders_text, &secrets)
}

/// The passwords a campaign mail's header carries, to mask in its stored copy.
pub fn secrets(text: &str) -> Vec<String> {
    orders::read(text)
        .header
        .map(|h| h.password)
        .into_iter()
        .collect()
}

fn known(tx: &Transaction<'_>, address: &str) -> Result<bool, PostError> {
    Ok(campaigns::knows_address(tx, address)?)
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
    let desk = Desk {
        tx,
        config,
        msg,
        row,
        from,
        now,
        replies: std::cell::Cell::new(0),
    };
    let letter = orders::read(&msg.orders_text);
    let me = if known(tx, from)? {
        vec![from.to_string()]
    } else {
        vec![]
    };
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
    let id = stored.campaign.id.clone();
    match &header.role {
        Role::Secretary => {
            if !password::verify(&header.password, &stored.secretary_pw) {
                return desk.refuse(
                    Some(&id),
                    std::slice::from_ref(&stored.secretary_address),
                    "A secretary's message came with the wrong password.",
                );
            }
            if stored.secretary_address != from {
                // The right password from a stranger: only the secretary
                // hears of it; the sender learns what a wrong one teaches.
                return desk.refuse(
                    Some(&id),
                    std::slice::from_ref(&stored.secretary_address),
                    &format!("A secretary's message for campaign {id} came with your password, but from {from}. If you did not send it, someone knows your password."),
                );
            }
            secretary(&desk, stored, &letter)
        }
        Role::Power(power) => {
            let Some(PowerRow {
                power,
                address,
                password: hash,
            }) = campaigns::power(tx, &id, power)?
            else {
                return desk.refuse(
                    Some(&id),
                    &me,
                    &format!("Campaign {id} has no power called '{power}'."),
                );
            };
            if !password::verify(&header.password, &hash) {
                return desk.refuse(Some(&id), &[address], &format!("A message for {power} came with the wrong password. If you did not send it, tell the secretary."));
            }
            if address != from {
                return desk.refuse(
                    Some(&id),
                    std::slice::from_ref(&address),
                    &format!("Orders for {power} came with your password, but from {from}, not from your registered address. If you did not send them, someone knows your password: tell the secretary."),
                );
            }
            if stored.status != "active" {
                return desk.refuse(
                    Some(&id),
                    &[address],
                    &format!("Campaign {id} is {}; it takes no orders.", stored.status),
                );
            }
            power_orders(&desk, stored, &power, row, &letter)
        }
    }
}

fn power_orders(
    desk: &Desk<'_, '_>,
    stored: Row,
    power: &str,
    row: i64,
    letter: &Letter,
) -> Result<Disposition, PostError> {
    let world = world()?;
    let c = &stored.campaign;
    let turn = c.turn + 1;
    let kept = OrdersRow {
        turn,
        power,
        message: row,
        text: &masked(desk.msg, letter),
        orders: &serde_json::to_string(&letter.orders).map_err(corrupt)?,
    };
    campaigns::insert_orders(desk.tx, &c.id, &kept, desk.now)?;
    let mut text = format!(
        "Orders of {power} for {} ({}), as understood:\n\n",
        c.date(),
        c.title
    );
    for l in &letter.orders {
        match resolve::check(c, &world, power, &l.item) {
            Ok(()) => text.push_str(&format!("  ok       {}\n", l.text)),
            Err(why) => text.push_str(&format!("  REFUSED  {}\n           {why}\n", l.text)),
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
    desk.reply(
        Some(&c.id),
        Kind::Confirmation,
        &[desk.from.to_string()],
        text,
    )?;
    if campaigns::orders_in(desk.tx, &c.id, turn)?
        .iter()
        .all(|(_, ordered)| *ordered)
    {
        resolve_now(desk.tx, desk.config, &c.id, desk.now)?;
    }
    Ok(Disposition::Done(format!(
        "campaign orders for {power}, turn {turn}"
    )))
}

fn secretary(desk: &Desk<'_, '_>, stored: Row, letter: &Letter) -> Result<Disposition, PostError> {
    let c = &stored.campaign;
    let mut lines = Vec::new();
    let mut play = false;
    for Line { item, text, .. } in &letter.commands {
        match item {
            Command::Result {
                battle,
                winner,
                losses,
            } => {
                let Some(b) = c.pending.iter().find(|b| b.id == *battle) else {
                    lines.push(format!(
                        "{text}: there is no battle {battle} awaiting a result"
                    ));
                    continue;
                };
                let sides: Vec<&str> = b
                    .armies
                    .iter()
                    .filter_map(|a| c.armies.get(a))
                    .map(|a| a.commander())
                    .collect();
                if !sides.iter().any(|s| s.eq_ignore_ascii_case(winner)) {
                    lines.push(format!(
                        "{text}: battle {battle} was between {}",
                        sides.join(" and ")
                    ));
                    continue;
                }
                let winner = sides
                    .iter()
                    .find(|s| s.eq_ignore_ascii_case(winner))
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                let r = EnteredResult {
                    battle: *battle,
                    winner,
                    losses: losses.clone(),
                };
                let entered = serde_json::to_string(&r).map_err(corrupt)?;
                campaigns::record_result(desk.tx, &c.id, *battle, &entered)?;
                lines.push(format!(
                    "battle {battle}: result recorded; it takes effect when the week is resolved"
                ));
            }
            Command::Resolve => {
                play = true;
                lines.push(format!("{} will be resolved now", c.date()));
            }
            Command::Status => lines.push(status(desk.tx, c)?),
        }
    }
    for e in &letter.errors {
        lines.push(format!("Not understood, line {}:\n{}", e.number, e.item));
    }
    if play {
        resolve_now(desk.tx, desk.config, &c.id, desk.now)?;
    }
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&c.id),
        &format!("secretary: {} commands", letter.commands.len()),
    )?;
    let text = if lines.is_empty() {
        "No command found.".to_string()
    } else {
        lines.join("\n")
    };
    desk.reply(Some(&c.id), Kind::Reply, &[desk.from.to_string()], text)?;
    Ok(Disposition::Done(format!(
        "secretary: {}",
        letter.commands.len()
    )))
}

fn status(tx: &Transaction<'_>, c: &Campaign) -> Result<String, PostError> {
    let rows = campaigns::orders_in(tx, &c.id, c.turn + 1)?;
    let mut out = format!(
        "{}: {}; battles awaiting results: {}\n",
        c.title,
        c.date(),
        c.pending.len()
    );
    for (p, done) in rows {
        out.push_str(&format!(
            "  {p}: {}\n",
            if done { "orders in" } else { "no orders yet" }
        ));
    }
    Ok(out)
}

/// Resolve the campaign's current map turn from the stored orders and the
/// entered results, store it, and queue every power's report and the
/// secretary's.
///
/// # Errors
/// No such campaign, damaged stored data, or database errors.
pub fn resolve_now(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let world = world()?;
    let Some(stored) = load(tx, id)? else {
        return Err(PostError::NoGame(id.to_string()));
    };
    let c = stored.campaign;
    let turn = c.turn + 1;
    let mut orders: BTreeMap<String, Vec<Line<Order>>> = BTreeMap::new();
    for (p, json) in campaigns::latest_orders(tx, &c.id, turn)? {
        orders.insert(p, serde_json::from_str(&json).map_err(corrupt)?);
    }
    let results: Vec<EnteredResult> = campaigns::take_results(tx, &c.id)?
        .iter()
        .map(|j| serde_json::from_str(j).map_err(corrupt))
        .collect::<Result<_, _>>()?;
    let seed: [u8; 32] = Sha256::new()
        .chain_update(stored.seed.as_bytes())
        .chain_update(format!(":{turn}").as_bytes())
        .finalize()
        .into();
    let r = resolve::resolve(&c, &world, &orders, &results, &mut SeededDice::new(seed))
        .map_err(|e| PostError::Ruleset(crate::games::RulesetError::Engine(e.to_string())))?;
    let after = serde_json::to_string(&r.campaign).map_err(corrupt)?;
    let played_turn = TurnRow {
        turn,
        state_before: &serde_json::to_string(&c).map_err(corrupt)?,
        state_after: &after,
        orders: &serde_json::to_string(&orders).map_err(corrupt)?,
        events: &serde_json::to_string(&r.events).map_err(corrupt)?,
    };
    campaigns::insert_turn(tx, &c.id, &played_turn, now)?;
    campaigns::set_state(tx, &c.id, &after)?;
    let played = c.date();
    let due = open_week(tx, config, &r.campaign, now)?;
    for (power, address) in &campaigns::players(tx, &c.id)? {
        queue_report(
            tx,
            config,
            &r.campaign,
            &world,
            Some(power),
            address,
            &played,
            &r.events,
            &due,
            now,
        )?;
    }
    queue_report(
        tx,
        config,
        &r.campaign,
        &world,
        None,
        &stored.secretary_address,
        &played,
        &r.events,
        &due,
        now,
    )?;
    crate::post::audit(
        tx,
        now,
        Some(&c.id),
        &format!(
            "campaign turn {turn} ({played}) resolved: {} events",
            r.events.len()
        ),
    )
}
