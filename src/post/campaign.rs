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
use crate::store::{self, Transaction};
use chrono::{DateTime, Utc};
use rand::Rng;
use rusqlite::{params, OptionalExtension};
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
    tx.execute(
        "UPDATE campaigns SET deadline = ?2 WHERE id = ?1",
        params![c.id, deadline.map(store::ts)],
    )?;
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
    let deadline: Option<String> = tx
        .query_row(
            "SELECT deadline FROM campaigns WHERE id = ?1 AND status = 'active'",
            [id],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    if deadline.is_none_or(|d| d > store::ts(now)) {
        return Ok(false);
    }
    resolve_now(tx, config, id, now)?;
    Ok(true)
}

/// Campaigns whose map turn's deadline has passed, by id.
pub fn due(conn: &rusqlite::Connection, now: DateTime<Utc>) -> Result<Vec<String>, PostError> {
    let mut st = conn.prepare(
        "SELECT id FROM campaigns WHERE status = 'active' AND deadline IS NOT NULL AND deadline <= ?1 ORDER BY id",
    )?;
    let ids = st
        .query_map([store::ts(now)], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(ids)
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
    let exists: Option<String> = tx
        .query_row("SELECT id FROM campaigns WHERE id = ?1", [&c.id], |r| {
            r.get(0)
        })
        .optional()?;
    if exists.is_some() {
        return Err(PostError::GameExists(c.id));
    }
    let mut rng = rand::rng();
    let seed: [u8; 32] = rng.random();
    tx.execute(
        "INSERT INTO campaigns (id, title, state, seed, secretary_address, secretary_pw, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            c.id,
            c.title,
            serde_json::to_string(&c).map_err(corrupt)?,
            hex::encode(seed),
            file.secretary.address.to_ascii_lowercase(),
            password::hash(&file.secretary.password, &mut rng),
            store::ts(now)
        ],
    )?;
    let due = open_week(tx, config, &c, now)?;
    for p in &file.powers {
        tx.execute(
            "INSERT INTO campaign_powers (campaign_id, power, address, password) VALUES (?1, ?2, ?3, ?4)",
            params![c.id, p.id, p.address.to_ascii_lowercase(), password::hash(&p.password, &mut rng)],
        )?;
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
    events: &[resolve::Event],
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

fn load(tx: &rusqlite::Connection, id: &str) -> Result<Option<Row>, PostError> {
    let row = tx
        .query_row(
            "SELECT state, seed, secretary_address, secretary_pw, status FROM campaigns WHERE lower(id) = lower(?1)",
            [id],
            |r| Ok((r.get::<_, String>(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    match row {
        None => Ok(None),
        Some((state, seed, secretary_address, secretary_pw, status)) => Ok(Some(Row {
            campaign: serde_json::from_str(&state).map_err(corrupt)?,
            seed,
            secretary_address,
            secretary_pw,
            status,
        })),
    }
}

/// The campaign as stored now.
///
/// # Errors
/// Damaged stored data or database errors.
pub fn campaign(conn: &rusqlite::Connection, id: &str) -> Result<Option<Campaign>, PostError> {
    Ok(load(conn, id)?.map(|r| r.campaign))
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
    let n: i64 = tx.query_row(
        "SELECT (SELECT count(*) FROM campaign_powers WHERE address = ?1) + (SELECT count(*) FROM campaigns WHERE secretary_address = ?1)",
        [address],
        |r| r.get(0),
    )?;
    Ok(n > 0)
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
            let player: Option<(String, String, String)> = tx
                .query_row(
                    "SELECT power, address, password FROM campaign_powers WHERE campaign_id = ?1 AND lower(power) = lower(?2)",
                    params![id, power],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
            let Some((power, address, hash)) = player else {
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
    desk.tx.execute(
        "INSERT INTO campaign_orders (campaign_id, turn, power, message, text, orders, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![c.id, turn, power, row, masked(desk.msg, letter), serde_json::to_string(&letter.orders).map_err(corrupt)?, store::ts(desk.now)],
    )?;
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
    let powers: i64 = desk.tx.query_row(
        "SELECT count(*) FROM campaign_powers WHERE campaign_id = ?1",
        [&c.id],
        |r| r.get(0),
    )?;
    let ordered: i64 = desk.tx.query_row(
        "SELECT count(DISTINCT power) FROM campaign_orders WHERE campaign_id = ?1 AND turn = ?2",
        params![c.id, turn],
        |r| r.get(0),
    )?;
    if ordered == powers {
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
                desk.tx.execute(
                    "INSERT OR REPLACE INTO campaign_results (campaign_id, battle, result, applied) VALUES (?1, ?2, ?3, 0)",
                    params![c.id, battle, serde_json::to_string(&r).map_err(corrupt)?],
                )?;
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
    let mut st = tx.prepare(
        "SELECT p.power, EXISTS(SELECT 1 FROM campaign_orders o WHERE o.campaign_id = p.campaign_id AND o.turn = ?2 AND o.power = p.power) \
         FROM campaign_powers p WHERE p.campaign_id = ?1 ORDER BY p.power",
    )?;
    let rows = st.query_map(params![c.id, c.turn + 1], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?))
    })?;
    let mut out = format!(
        "{}: {}; battles awaiting results: {}\n",
        c.title,
        c.date(),
        c.pending.len()
    );
    for r in rows {
        let (p, done) = r?;
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
    {
        let mut st = tx.prepare(
            "SELECT power, orders FROM campaign_orders WHERE id IN \
             (SELECT max(id) FROM campaign_orders WHERE campaign_id = ?1 AND turn = ?2 GROUP BY power) ORDER BY power",
        )?;
        for r in st.query_map(params![c.id, turn], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })? {
            let (p, json) = r?;
            orders.insert(p, serde_json::from_str(&json).map_err(corrupt)?);
        }
    }
    let results: Vec<EnteredResult> = {
        let mut st = tx.prepare("SELECT result FROM campaign_results WHERE campaign_id = ?1 AND applied = 0 ORDER BY battle")?;
        let rows = st
            .query_map([&c.id], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.iter()
            .map(|j| serde_json::from_str(j).map_err(corrupt))
            .collect::<Result<_, _>>()?
    };
    tx.execute(
        "UPDATE campaign_results SET applied = 1 WHERE campaign_id = ?1",
        [&c.id],
    )?;
    let seed: [u8; 32] = Sha256::new()
        .chain_update(stored.seed.as_bytes())
        .chain_update(format!(":{turn}").as_bytes())
        .finalize()
        .into();
    let r = resolve::resolve(&c, &world, &orders, &results, &mut SeededDice::new(seed))
        .map_err(|e| PostError::Ruleset(crate::games::RulesetError::Engine(e.to_string())))?;
    tx.execute(
        "INSERT INTO campaign_turns (campaign_id, turn, state_before, state_after, orders, events, resolved_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            c.id,
            turn,
            serde_json::to_string(&c).map_err(corrupt)?,
            serde_json::to_string(&r.campaign).map_err(corrupt)?,
            serde_json::to_string(&orders).map_err(corrupt)?,
            serde_json::to_string(&r.events).map_err(corrupt)?,
            store::ts(now)
        ],
    )?;
    tx.execute(
        "UPDATE campaigns SET state = ?2 WHERE id = ?1",
        params![c.id, serde_json::to_string(&r.campaign).map_err(corrupt)?],
    )?;
    let played = c.date();
    let due = open_week(tx, config, &r.campaign, now)?;
    let players: Vec<(String, String)> = {
        let mut st = tx.prepare(
            "SELECT power, address FROM campaign_powers WHERE campaign_id = ?1 ORDER BY power",
        )?;
        let rows = st
            .query_map([&c.id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows
    };
    for (power, address) in &players {
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
