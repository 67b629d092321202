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
use crate::games::hyborian::campaign::correct;
use crate::games::hyborian::campaign::game::{BattleMode, Campaign, CampaignFile};
use crate::games::hyborian::campaign::map::World;
use crate::games::hyborian::campaign::orders::{self, Command, Letter, Line, Order, Role};
use crate::games::hyborian::campaign::report;
use crate::games::hyborian::campaign::resolve::{self, EnteredResult};
use crate::games::hyborian::dice::SeededDice;
use crate::mail::read::Incoming;
use crate::post::outbox::{self, Kind};
use crate::post::{password, plain, Disposition, PostError};
use crate::store::campaigns::{self, CampaignRow, OrdersRow, PowerRow, TurnRow};
use crate::store::{Connection, Store, Transaction};
use chrono::{DateTime, Utc};
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
    let seed = config.entropy.seed();
    let row = CampaignRow {
        id: c.id.clone(),
        title: c.title.clone(),
        state: serde_json::to_string(&c).map_err(corrupt)?,
        seed: hex::encode(seed),
        secretary_address: file.secretary.address.to_ascii_lowercase(),
        secretary_pw: password::hash_from(&config.entropy, &file.secretary.password),
        status: "active".into(),
    };
    campaigns::insert(tx, &row, now)?;
    let due = open_week(tx, config, &c, now)?;
    let dice = week_dice(&row.seed, c.turn);
    let none = BTreeMap::new();
    for p in &file.powers {
        let player = PowerRow {
            power: p.id.clone(),
            address: p.address.to_ascii_lowercase(),
            password: password::hash_from(&config.entropy, &p.password),
        };
        campaigns::insert_power(tx, &c.id, &player)?;
        let intro = format!(
            "Welcome to the campaign {} as {}. Your password: {}\nWrite your orders as:\n\n  CAMPAIGN {} POWER {} PASSWORD <password>\n  army <army> move to <province>\n  END\n\n{}\n{due}",
            c.title, p.id, p.password, c.id, p.id, orders::GUIDE
        );
        let week = report::Week {
            played: "the start",
            events: &[],
            orders: &none,
            dice: Some(&dice),
            intro: &intro,
        };
        queue_report(tx, config, &c, &world, Some(&p.id), &p.address, &week, now)?;
    }
    let week = report::Week {
        played: "the start",
        events: &[],
        orders: &none,
        dice: Some(&dice),
        intro: &due,
    };
    queue_report(
        tx,
        config,
        &c,
        &world,
        None,
        &file.secretary.address,
        &week,
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

/// The seed of map turn `turn`'s dice: the campaign's secret seed and the
/// turn's number hashed, so revealing one week's seed reveals no other.
fn week_seed(secret: &str, turn: u32) -> [u8; 32] {
    Sha256::new()
        .chain_update(secret.as_bytes())
        .chain_update(format!(":{turn}").as_bytes())
        .finalize()
        .into()
}

/// The dice the reports after map turn `played` publish (0: the start):
/// its seed revealed, and the coming week's committed to.
fn week_dice(secret: &str, played: u32) -> report::WeekDice {
    let revealed = (played > 0).then(|| hex::encode(week_seed(secret, played)));
    report::WeekDice {
        revealed_hash: revealed.as_deref().map(crate::dice::seed_hash),
        revealed,
        next_hash: SeededDice::new(week_seed(secret, played + 1)).commitment(),
    }
}

/// Mail one reader's report: text and HTML alternatives, the map inline in
/// the HTML and attached as PNG and SVG, and so the last table of each
/// battle the reader fought, below the battle's paragraph.
#[allow(clippy::too_many_arguments)]
fn queue_report(
    tx: &Transaction<'_>,
    config: &Config,
    c: &Campaign,
    world: &World,
    reader: Option<&str>,
    to: &str,
    week: &report::Week<'_>,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let text = report::text(c, world, reader, week);
    let svg = report::svg(c, world, reader);
    let png = crate::report::picture::png(&svg).map_err(corrupt)?;
    let who = reader.unwrap_or("secretary");
    let subject = format!("[{}] {} report: {}", c.id, who, c.date());
    let mut mail = plain(config, vec![to.to_string()], subject, text, None);
    mail.auto_submitted = crate::mail::compose::AutoSubmitted::Generated;
    let stem = format!("{}-{}-turn-{}", c.id, who, c.turn);
    let cid = format!("map-{stem}@{}", config.domain());
    // The map goes first: it stays the report's main picture.
    let battles = report::battle_pictures(week, reader);
    let mut shown = BTreeMap::new();
    let mut drawn = Vec::new();
    for (id, svg) in battles {
        let png = crate::report::picture::png(svg).map_err(corrupt)?;
        let stem = format!("{stem}-battle-{id}");
        let cid = format!("{stem}@{}", config.domain());
        shown.insert(id, format!("cid:{cid}"));
        drawn.push((cid, stem, png, svg.to_string()));
    }
    mail.html = Some(report::html(
        c,
        world,
        reader,
        week,
        Some(&format!("cid:{cid}")),
        &shown,
    ));
    mail.show_picture(cid, &stem, png, svg);
    for (cid, stem, png, svg) in drawn {
        mail.show_picture(cid, &stem, png, svg);
    }
    outbox::queue(
        tx,
        config,
        Some(&c.id),
        Kind::Report,
        &mail,
        &report_tag(tx, c, who)?,
        now,
    )?;
    Ok(())
}

/// A report's identity in the outbox: the campaign, the turn and the
/// reader, and for a week the secretary re-ran, the re-run's number (its
/// corrected reports are new mail, ruling CA-30).
fn report_tag(tx: &Transaction<'_>, c: &Campaign, who: &str) -> Result<String, PostError> {
    Ok(match campaigns::reruns(tx, &c.id, c.turn)? {
        0 => format!("{}:{}:{who}", c.id, c.turn),
        k => format!("{}:{}:{who}:rerun{k}", c.id, c.turn),
    })
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
    /// Mail someone other than the sender, not as a reply (a new player's
    /// welcome); its identity from the message's row as a reply's.
    fn send(
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
    fn queue(
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
        self.queue(campaign, kind, &mail)
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
    if letter.header.is_none()
        && !me.is_empty()
        && msg
            .orders_text
            .lines()
            .any(|l| l.trim().eq_ignore_ascii_case("help"))
    {
        desk.reply(None, Kind::Reply, &me, orders::GUIDE.to_string())?;
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
    // A letter of STATUS or HELP alone asks; it does not replace the
    // week's orders.
    if letter.orders.is_empty() && !letter.commands.is_empty() {
        return power_asks(desk, c, power, letter);
    }
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
    let judged = resolve::as_ordered(c, &world);
    for l in &letter.orders {
        match resolve::check(&judged, &world, power, &l.item) {
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

/// A power's STATUS or HELP: the guide, and its orders on file this week.
fn power_asks(
    desk: &Desk<'_, '_>,
    c: &Campaign,
    power: &str,
    letter: &Letter,
) -> Result<Disposition, PostError> {
    let mut text = String::new();
    for l in &letter.commands {
        match l.item {
            Command::Help => text.push_str(orders::GUIDE),
            Command::Status => {
                text.push_str(&format!("{} ({}), orders of {power}:\n", c.date(), c.title));
                let on_file = campaigns::latest_orders(desk.tx, &c.id, c.turn + 1)?;
                match on_file.iter().find(|(p, _)| p == power) {
                    Some((_, json)) => {
                        let lines: Vec<Line<Order>> =
                            serde_json::from_str(json).map_err(corrupt)?;
                        if lines.is_empty() {
                            text.push_str("  (no orders: your armies stand)\n");
                        }
                        for l in lines {
                            text.push_str(&format!("  {}\n", l.text));
                        }
                    }
                    None => text.push_str("  none sent yet\n"),
                }
            }
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
        Kind::Confirmation,
        &[desk.from.to_string()],
        text,
    )?;
    Ok(Disposition::Done(format!(
        "campaign status/help for {power}"
    )))
}

/// Whether a secretary's result can be recorded: the winner fought, every
/// army named fought and is named once, no army lost more than it is
/// worth, and losses entered come to at least a figure. `Ok` says what the
/// losses come to in figures.
fn check_result(
    c: &Campaign,
    b: &crate::games::hyborian::campaign::game::PendingBattle,
    winner: &str,
    losses: &[(String, u32)],
) -> Result<(String, Vec<(String, u32)>), String> {
    let armies: Vec<&crate::games::hyborian::campaign::game::Army> = b
        .all_armies()
        .iter()
        .filter_map(|a| c.armies.get(a))
        .collect();
    let names: Vec<&str> = armies.iter().map(|a| a.id.as_str()).collect();
    let mut powers: Vec<&str> = armies.iter().map(|a| a.commander()).collect();
    powers.dedup();
    let Some(w) = powers.iter().find(|p| p.eq_ignore_ascii_case(winner)) else {
        return Err(format!(
            "battle {} was between {}; write one of them after 'won by'",
            b.id,
            powers.join(" and ")
        ));
    };
    let mut seen = Vec::new();
    let mut told = Vec::new();
    let mut out = Vec::new();
    for (army, points) in losses {
        let Some(a) = armies.iter().find(|a| a.id.eq_ignore_ascii_case(army)) else {
            return Err(format!(
                "army '{army}' did not fight battle {}; its armies are {}",
                b.id,
                names.join(", ")
            ));
        };
        if seen.contains(&a.id) {
            return Err(format!(
                "army {} is named twice; give its losses once",
                a.id
            ));
        }
        seen.push(a.id.clone());
        if *points > a.points() {
            return Err(format!(
                "army {} is worth {} points, so it cannot lose {points}; at most {}",
                a.id,
                a.points(),
                a.points()
            ));
        }
        let figures = resolve::share_of(&a.contents, *points);
        let taken: u32 = figures.values().sum();
        if *points > 0 && taken == 0 {
            return Err(format!(
                "{points} points is less than half a figure of army {}; write 0 or more points",
                a.id
            ));
        }
        let parts: Vec<String> = figures
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(u, n)| format!("{n} {u}"))
            .collect();
        told.push(format!(
            "{}: {}",
            a.id,
            if parts.is_empty() {
                "no losses".to_string()
            } else {
                parts.join(", ")
            }
        ));
        out.push((a.id.clone(), *points));
    }
    Ok((
        format!("{w} won; figures lost before recovery: {}", told.join("; ")),
        out,
    ))
}

fn secretary(desk: &Desk<'_, '_>, stored: Row, letter: &Letter) -> Result<Disposition, PostError> {
    let id = stored.campaign.id.clone();
    let mut lines = Vec::new();
    let mut resolve_after = false;
    for Line { item, text, .. } in &letter.commands {
        // Each command reads the campaign as the ones before it left it (a
        // re-run, then a correction of its outcome).
        let fresh = load(desk.tx, &id)?.map_or(stored.campaign.clone(), |r| r.campaign);
        let c = &fresh;
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
                let (said, losses) = match check_result(c, b, winner, losses) {
                    Ok(ok) => ok,
                    Err(why) => {
                        lines.push(format!("{text}: NOT RECORDED: {why}"));
                        continue;
                    }
                };
                let winner = b
                    .all_armies()
                    .iter()
                    .filter_map(|a| c.armies.get(a))
                    .map(|a| a.commander().to_string())
                    .find(|p| p.eq_ignore_ascii_case(winner))
                    .unwrap_or_default();
                let r = EnteredResult {
                    battle: *battle,
                    winner: Some(winner),
                    losses,
                    figures: BTreeMap::new(),
                    by: BattleMode::Secretary,
                    picture: None,
                };
                let entered = serde_json::to_string(&r).map_err(corrupt)?;
                campaigns::record_result(desk.tx, &c.id, *battle, &entered)?;
                lines.push(format!(
                    "battle {battle}: result recorded ({said}); it takes effect when the week is resolved"
                ));
            }
            Command::Choose { battle, by } => lines.push(choose(desk, &c.id, *battle, *by)?),
            Command::Resolve => {
                resolve_after = true;
                lines.push(format!("{} will be resolved now", c.date()));
            }
            Command::Rerun { turn, without } => lines.push(
                match rerun(desk.tx, desk.config, &id, *turn, without, desk.now)? {
                    Ok(done) => format!("{text}: done: {done}"),
                    Err(why) => format!("{text}: NOT DONE: {why}"),
                },
            ),
            Command::Place { army, province } => {
                let mut fixed = c.clone();
                lines.push(
                    match correct::place(&mut fixed, &world()?, army, province) {
                        Ok((army, name)) => {
                            let told = corrected(desk, &fixed, &army, &format!(
                                "The secretary of {} has placed your army {army} in {name}, to correct the campaign; it stands there in the field.\n",
                                c.title
                            ))?;
                            format!("{text}: done: army {army} stands in {name}; {told} told")
                        }
                        Err(why) => format!("{text}: NOT DONE: {why}"),
                    },
                );
            }
            Command::Losses { army, points } => {
                let mut fixed = c.clone();
                lines.push(match correct::take_losses(&mut fixed, army, *points) {
                    Ok((army, lost)) => {
                        let figures = lost
                            .iter()
                            .map(|(u, n)| format!("{n} {u}"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        let told = corrected(desk, &fixed, &army, &format!(
                            "The secretary of {} has taken {points} points off your army {army}, to correct the campaign: {figures}.\n",
                            c.title
                        ))?;
                        format!("{text}: done: army {army} loses {figures}; {told} told")
                    }
                    Err(why) => format!("{text}: NOT DONE: {why}"),
                });
            }
            Command::Extend { hours } => lines.push(extend(desk, c, text, *hours)?),
            Command::Replace { power, address } => {
                lines.push(replace(desk, c, text, power, address)?);
            }
            Command::Status => lines.push(status(desk.tx, c)?),
            Command::Digest => lines.push(report::digest(c, &world()?, &on_file(desk.tx, c)?)),
            Command::Cancel { power, line } => lines.push(cancel(desk, c, power, *line)?),
            Command::Help => lines.push(SECRETARY_GUIDE.to_string()),
        }
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
        resolve_now(desk.tx, desk.config, &id, desk.now)?;
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

/// Store the secretary's correction of an army and tell the powers it
/// answers to (its owner, and its employer if hired) — them only, so no
/// other power learns of it. Returns who was told, as "koth is".
fn corrected(
    desk: &Desk<'_, '_>,
    fixed: &Campaign,
    army: &str,
    text: &str,
) -> Result<String, PostError> {
    campaigns::set_state(
        desk.tx,
        &fixed.id,
        &serde_json::to_string(fixed).map_err(corrupt)?,
    )?;
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&fixed.id),
        &format!("secretary corrected army {army}"),
    )?;
    let Some(a) = fixed.armies.get(army) else {
        return Ok("nobody is".into());
    };
    let mut powers = vec![a.owner.clone()];
    powers.extend(a.hired_by.iter().filter(|h| **h != a.owner).cloned());
    for p in &powers {
        if let Some(row) = campaigns::power(desk.tx, &fixed.id, p)? {
            desk.reply(
                Some(&fixed.id),
                Kind::Notice,
                &[row.address],
                text.to_string(),
            )?;
        }
    }
    Ok(format!(
        "{} {}",
        powers.join(" and "),
        if powers.len() == 1 { "is" } else { "are" }
    ))
}

/// The longest `extend` (hours): a fortnight, as a player's absence may
/// move a battle game's deadline (ruling CA-32).
pub const MAX_EXTEND_HOURS: u32 = 336;

/// A deadline as the reports say it, in the club's time zone.
fn due_text(config: &Config, d: DateTime<Utc>) -> String {
    let tz = config.timezone.parse().unwrap_or(chrono_tz::UTC);
    crate::post::gamefile::show_deadline(d, tz)
}

/// The secretary's `extend HOURS`: the open week's deadline later, every
/// power told (ruling CA-32).
fn extend(desk: &Desk<'_, '_>, c: &Campaign, text: &str, hours: u32) -> Result<String, PostError> {
    if !(1..=MAX_EXTEND_HOURS).contains(&hours) {
        return Ok(format!(
            "{text}: NOT DONE: extend by 1 to {MAX_EXTEND_HOURS} hours (a fortnight), e.g. extend 48; the deadline is unchanged"
        ));
    }
    let Some(deadline) = campaigns::deadline(desk.tx, &c.id)? else {
        return Ok(format!(
            "{text}: NOT DONE: {} has no deadline (the campaign's week_hours is 0, or it is not active); it waits for every power's orders or your resolve",
            c.date()
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
        desk.reply(
            Some(&c.id),
            Kind::Notice,
            &[address],
            format!(
                "The secretary of {} has extended the deadline: orders for {} are now due by {when}.\n",
                c.title,
                c.date()
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
        c.date()
    ))
}

/// The secretary's `replace POWER ADDRESS` (ruling CA-32), as a battle
/// game's moderator's REPLACE: the power is played from the new address
/// with a fresh password mailed there; the old password stops working and
/// the old address is told. Orders on file for the week stand until the new
/// player sends theirs.
fn replace(
    desk: &Desk<'_, '_>,
    c: &Campaign,
    text: &str,
    power: &str,
    address: &str,
) -> Result<String, PostError> {
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
        let powers: Vec<String> = campaigns::players(desk.tx, &c.id)?
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        return Ok(format!(
            "{text}: NOT DONE: there is no power '{power}'; the powers are {}",
            powers.join(", ")
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
    desk.reply(
        Some(&c.id),
        Kind::Notice,
        &[old],
        format!(
            "The secretary of {} ({}) has handed {power} to another player ({address}).\nYour password for {power} no longer works. Thank you for playing.\n",
            c.title, c.id
        ),
    )?;
    let due = match campaigns::deadline(desk.tx, &c.id)? {
        Some(d) => format!(
            "Orders for {} are due by {}.\n",
            c.date(),
            due_text(desk.config, d)
        ),
        None => String::new(),
    };
    let welcome = format!(
        "The secretary of {} has handed you the power {power}: welcome.\nYour password: {pw}\nWrite your orders as:\n\n  CAMPAIGN {} POWER {power} PASSWORD <password>\n  army <army> move to <province>\n  END\n\n{}\n{due}Orders on file for {power} this week stand until you send yours (STATUS shows them).\n\n{}",
        c.title,
        c.id,
        orders::GUIDE,
        report::text(
            c,
            &world()?,
            Some(&power),
            &report::Week {
                played: &c.date(),
                events: &[],
                orders: &BTreeMap::new(),
                dice: None,
                intro: "",
            }
        )
    );
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

/// Remind each power without orders for the open week, once a week, when
/// its deadline is the campaign's `reminder_hours` away (ruling CA-32).
/// Returns how many were reminded.
///
/// # Errors
/// Damaged stored data or database errors.
pub fn remind_if_due(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
) -> Result<u32, PostError> {
    let Some(stored) = load(tx, id)? else {
        return Ok(0);
    };
    let c = &stored.campaign;
    let Some(deadline) = reminder_window(tx, c, now)? else {
        return Ok(0);
    };
    let turn = c.turn + 1;
    let mut n = 0;
    for (power, ordered) in campaigns::orders_in(tx, id, turn)? {
        if ordered || !campaigns::remind_once(tx, id, turn, &power)? {
            continue;
        }
        let Some(row) = campaigns::power(tx, id, &power)? else {
            continue;
        };
        let text = crate::post::templates::render(
            "reminder.txt",
            minijinja::context! { title => &c.title, game => id, side => &power,
            round => c.date(), deadline => due_text(config, deadline) },
        );
        let subject = format!(
            "[{id}] {}: orders due",
            crate::report::capitalize_first(&c.date())
        );
        let mail = plain(config, vec![row.address], subject, text, None);
        outbox::queue(
            tx,
            config,
            Some(id),
            Kind::Reminder,
            &mail,
            &format!("{turn}:{power}"),
            now,
        )?;
        n += 1;
    }
    Ok(n)
}

/// The open week's deadline when `now` is within the campaign's
/// `reminder_hours` before it.
fn reminder_window(
    conn: &Connection,
    c: &Campaign,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, PostError> {
    let hours = c.settings.reminder_hours;
    Ok(campaigns::deadline(conn, &c.id)?
        .filter(|d| hours > 0 && now < *d && now >= *d - chrono::Duration::hours(i64::from(hours))))
}

/// Campaigns with a power to remind now (read without the write lock; the
/// reminding checks again in its transaction).
///
/// # Errors
/// Damaged stored data or database errors.
pub fn reminders_due(store: &Store, now: DateTime<Utc>) -> Result<Vec<String>, PostError> {
    let conn = store.conn();
    let mut out = Vec::new();
    for id in campaigns::with_deadline(conn)? {
        let Some(stored) = load(conn, &id)? else {
            continue;
        };
        if reminder_window(conn, &stored.campaign, now)?.is_some()
            && campaigns::orders_in(conn, &id, stored.campaign.turn + 1)?
                .iter()
                .any(|(_, ordered)| !ordered)
        {
            out.push(id);
        }
    }
    Ok(out)
}

/// Each power's orders on file for the week being ordered (`None`: it
/// sent none), by power.
fn on_file(tx: &Transaction<'_>, c: &Campaign) -> Result<report::OnFile, PostError> {
    let mut out: report::OnFile = campaigns::players(tx, &c.id)?
        .into_iter()
        .map(|(p, _)| (p, None))
        .collect();
    for (p, json) in campaigns::latest_orders(tx, &c.id, c.turn + 1)? {
        out.insert(p, Some(serde_json::from_str(&json).map_err(corrupt)?));
    }
    Ok(out)
}

/// The secretary's `cancel POWER N`: the power's orders on file again
/// without its N-th line (as the digest numbers them), kept as the power's
/// latest orders; the power is told. A later message of the power's
/// replaces them as always.
fn cancel(desk: &Desk<'_, '_>, c: &Campaign, power: &str, n: u32) -> Result<String, PostError> {
    let written = format!("cancel {power} {n}");
    let Some(PowerRow { power, address, .. }) = campaigns::power(desk.tx, &c.id, power)? else {
        let powers: Vec<String> = campaigns::players(desk.tx, &c.id)?
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        return Ok(format!(
            "{written}: NOT DONE: there is no power '{power}'; the powers are {}",
            powers.join(", ")
        ));
    };
    let turn = c.turn + 1;
    let latest = campaigns::latest_orders(desk.tx, &c.id, turn)?;
    let Some((_, json)) = latest.iter().find(|(p, _)| *p == power) else {
        return Ok(format!(
            "{written}: NOT DONE: {power} has sent no orders for {}",
            c.date()
        ));
    };
    let mut lines: Vec<Line<Order>> = serde_json::from_str(json).map_err(corrupt)?;
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
    desk.reply(
        Some(&c.id),
        Kind::Notice,
        &[address],
        format!(
            "The secretary of {} cancelled your order \"{}\" for {}. Your other orders stand; a new message for this week replaces them all as usual.\n",
            c.title,
            gone.text,
            c.date()
        ),
    )?;
    Ok(format!(
        "{written}: done: {power}'s order \"{}\" is cancelled, and {power} is told",
        gone.text
    ))
}

/// The secretary's `battle N by mail|engine|secretary`: how a waiting
/// battle is fought (ruling CA-18). By mail, its battle game is created at
/// once and the welcomes queued; by the engine, it is fought when the week
/// is resolved.
fn choose(desk: &Desk<'_, '_>, id: &str, battle: u32, by: BattleMode) -> Result<String, PostError> {
    let Some(stored) = load(desk.tx, id)? else {
        return Err(PostError::NoGame(id.to_string()));
    };
    let mut c = stored.campaign;
    if let Err(why) = c.choose(battle, by) {
        return Ok(format!("battle {battle} by {}: NOT DONE: {why}", by.word()));
    }
    campaigns::set_state(desk.tx, id, &serde_json::to_string(&c).map_err(corrupt)?)?;
    Ok(match by {
        BattleMode::Secretary => {
            format!("battle {battle} waits for your result (battle {battle} won by … losses …)")
        }
        BattleMode::Engine => {
            format!("battle {battle} will be fought by the engine when the week is resolved")
        }
        BattleMode::Mail => {
            let made =
                crate::post::campaign_games::start_games(desk.tx, desk.config, id, desk.now)?;
            match made.into_iter().find(|(b, _)| *b == battle) {
                Some((_, Ok(game))) => format!(
                    "battle {battle} is played by mail as game {game}: both players have their welcome, and you moderate it; its result comes back to the campaign when it ends"
                ),
                Some((_, Err(why))) => format!(
                    "battle {battle} by mail: NOT DONE: no battle game could be made ({why}); it waits for your result"
                ),
                None => format!("battle {battle} is played by mail already"),
            }
        }
    })
}

/// The secretary's commands, for HELP.
const SECRETARY_GUIDE: &str = "\
The secretary's commands (after CAMPAIGN <campaign> SECRETARY PASSWORD <password>):
  battle <n> won by <power> losses <army> <points>, <army> <points>
                  the result of a battle fought face to face (points lost)
  battle <n> by mail|engine|secretary
                  how a waiting battle is fought: a battle game by mail
                  between the two powers' players, the engine at the next
                  resolution, or face to face with your result
  digest          every power's orders of the week, numbered and checked
  cancel <power> <n>
                  drop a power's n-th order of the week (the digest's number)
  status          every power's orders, battles awaiting results, treasuries
  resolve         play the week now with the orders in
  rerun           play the week last resolved again: same state before,
                  orders and dice; every power gets a CORRECTED report
  rerun without <power> <n>, <power> <n>
                  the same, without those orders (numbered as that week's
                  digest, at the top of your report of it)
  move <army> to <province>
                  place an army (a correction); only its power is told
  edit <army> losses <points>
                  take points of figures off an army (a correction)
  extend <hours>  the week's deadline later, 1 to 336 hours; powers told
  replace <power> <new address>
                  hand a power to another player: a fresh password to the
                  new address; the old password stops working
  help            this list";

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
    out.push_str("Orders on file this week:\n");
    for (p, json) in campaigns::latest_orders(tx, &c.id, c.turn + 1)? {
        let lines: Vec<Line<Order>> = serde_json::from_str(&json).map_err(corrupt)?;
        if lines.is_empty() {
            out.push_str(&format!("  {p}: (stands)\n"));
        }
        for l in lines {
            out.push_str(&format!("  {p}: {}\n", l.text));
        }
    }
    for b in &c.pending {
        out.push_str(&format!(
            "Battle {} at {} awaits its result: armies {}; {}{}\n",
            b.id,
            b.province,
            b.all_armies().join(", "),
            report::how_fought(c, b),
            b.why.as_ref().map_or(String::new(), |w| format!(
                " (the table could not be set: {w})"
            ))
        ));
    }
    for p in c.powers.values() {
        out.push_str(&format!("Treasury of {}: {} points\n", p.id, p.treasury));
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
    let Some(stored) = load(tx, id)? else {
        return Err(PostError::NoGame(id.to_string()));
    };
    let c = stored.campaign.clone();
    let mut orders: BTreeMap<String, Vec<Line<Order>>> = BTreeMap::new();
    for (p, json) in campaigns::latest_orders(tx, &c.id, c.turn + 1)? {
        orders.insert(p, serde_json::from_str(&json).map_err(corrupt)?);
    }
    let results: Vec<EnteredResult> = campaigns::take_results(tx, &c.id)?
        .iter()
        .map(|j| serde_json::from_str(j).map_err(corrupt))
        .collect::<Result<_, _>>()?;
    let week = Week {
        before: c,
        orders,
        results,
    };
    play(tx, config, &stored, &week, None, now)?;
    Ok(())
}

/// What a week is resolved from: the state before it, each power's orders
/// and the battle results it applies.
struct Week {
    before: Campaign,
    orders: BTreeMap<String, Vec<Line<Order>>>,
    results: Vec<EnteredResult>,
}

/// The secretary's re-run of a week, as its reports say it.
struct Correction {
    /// "CORRECTED: …", every reader's first line.
    headline: String,
    /// The orders the secretary dropped: (power, the order's text). Each
    /// power reads only its own (sealed envelopes stay sealed).
    dropped: Vec<(String, String)>,
}

impl Correction {
    /// What `reader` (`None`: the secretary) reads above its report.
    fn intro(&self, reader: Option<&str>) -> String {
        let mine: Vec<String> = self
            .dropped
            .iter()
            .filter(|(p, _)| reader.is_none_or(|r| r == p))
            .map(|(p, line)| match reader {
                Some(_) => format!("The secretary dropped your order \"{line}\".\n"),
                None => format!("Dropped: {p}: {line}\n"),
            })
            .collect();
        format!("{}{}\n", self.headline, mine.concat())
    }
}

/// Resolve a week (`correction`: the secretary's re-run, its reports
/// opening with that), store it, start its battles by mail, set the
/// next deadline and queue every report. Returns the campaign as the week
/// left it.
fn play(
    tx: &Transaction<'_>,
    config: &Config,
    stored: &Row,
    week: &Week,
    correction: Option<&Correction>,
    now: DateTime<Utc>,
) -> Result<Campaign, PostError> {
    let world = world()?;
    let c = &week.before;
    let turn = c.turn + 1;
    let on_file: report::OnFile = campaigns::players(tx, &c.id)?
        .into_iter()
        .map(|(p, _)| {
            let lines = week.orders.get(&p).cloned();
            (p, lines)
        })
        .collect();
    let digest = report::digest(c, &world, &on_file);
    let r = resolve::resolve(
        c,
        &world,
        &week.orders,
        &week.results,
        &mut SeededDice::new(week_seed(&stored.seed, turn)),
    )
    .map_err(|e| PostError::Ruleset(crate::games::RulesetError::Engine(e.to_string())))?;
    campaigns::set_state(
        tx,
        &c.id,
        &serde_json::to_string(&r.campaign).map_err(corrupt)?,
    )?;
    // Battles by mail start at once: their welcomes go with the reports.
    crate::post::campaign_games::start_games(tx, config, &c.id, now)?;
    let r = resolve::Resolved {
        campaign: load(tx, &c.id)?.map_or(r.campaign, |s| s.campaign),
        events: r.events,
    };
    // The state as the week left it, its games started: a re-run compares
    // the campaign with it to see what the secretary changed since.
    let played_turn = TurnRow {
        turn,
        state_before: &serde_json::to_string(c).map_err(corrupt)?,
        state_after: &serde_json::to_string(&r.campaign).map_err(corrupt)?,
        orders: &serde_json::to_string(&week.orders).map_err(corrupt)?,
        events: &serde_json::to_string(&r.events).map_err(corrupt)?,
        results: &serde_json::to_string(&week.results).map_err(corrupt)?,
    };
    if correction.is_some() {
        campaigns::rerun_turn(tx, &c.id, &played_turn)?;
    } else {
        campaigns::insert_turn(tx, &c.id, &played_turn, now)?;
    }
    let played = c.date();
    let due = open_week(tx, config, &r.campaign, now)?;
    let dice = week_dice(&stored.seed, turn);
    let intro = |reader: Option<&str>| {
        let above = correction.map_or(String::new(), |k| k.intro(reader));
        format!("{above}{due}")
    };
    let told = report::Week {
        played: &played,
        events: &r.events,
        orders: &week.orders,
        dice: Some(&dice),
        intro: "",
    };
    for (power, address) in &campaigns::players(tx, &c.id)? {
        queue_report(
            tx,
            config,
            &r.campaign,
            &world,
            Some(power),
            address,
            &report::Week {
                intro: &intro(Some(power)),
                ..told
            },
            now,
        )?;
    }
    let intro = format!("{}{digest}\n", intro(None));
    let told = report::Week {
        intro: &intro,
        ..told
    };
    queue_report(
        tx,
        config,
        &r.campaign,
        &world,
        None,
        &stored.secretary_address,
        &told,
        now,
    )?;
    crate::post::audit(
        tx,
        now,
        Some(&c.id),
        &format!(
            "campaign turn {turn} ({played}) {}: {} events",
            if correction.is_some() {
                "re-run by the secretary"
            } else {
                "resolved"
            },
            r.events.len()
        ),
    )?;
    Ok(r.campaign)
}

/// Why a re-run is refused, in words for the secretary (ruling CA-30).
type Refusal = String;

/// The secretary's `rerun` (ruling CA-30): the week last resolved played
/// again from its state before, with its orders (less the lines the
/// secretary drops, numbered as that week's digest numbers them), the
/// battle results it applied and the same dice; its outcome replaces the
/// week's, and every power gets its corrected report. `turn`, when
/// given, must be that week's map turn. Returns the answer for the
/// secretary, or why nothing was done.
///
/// # Errors
/// No such campaign, damaged stored data, or database errors.
pub fn rerun(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    turn: Option<u32>,
    without: &[(String, u32)],
    now: DateTime<Utc>,
) -> Result<Result<String, Refusal>, PostError> {
    let Some(stored) = load(tx, id)? else {
        return Err(PostError::NoGame(id.to_string()));
    };
    let last = stored.campaign.turn;
    if last == 0 {
        return Ok(Err(
            "no week has been resolved yet; nothing to re-run".into()
        ));
    }
    match turn {
        Some(t) if t < last => {
            return Ok(Err(format!(
                "map turn {t} cannot be re-run: map turn {last} has been resolved since; only the week last resolved can be re-run (correct later weeks with move and edit)"
            )))
        }
        Some(t) if t > last => {
            return Ok(Err(format!(
                "map turn {t} has not been resolved; the week last resolved is map turn {last}"
            )))
        }
        _ => {}
    }
    let Some(played) = campaigns::played_turn(tx, id, last)? else {
        return Err(corrupt(format!(
            "campaign {id}: map turn {last} is not stored"
        )));
    };
    let Some(results) = played.results.as_deref() else {
        return Ok(Err(format!(
            "map turn {last} was resolved before umpire kept a week's battle results, so it cannot be re-run; correct it with move and edit"
        )));
    };
    if let Some((b, game)) =
        crate::store::campaign_battles::started_since(tx, id, played.resolved_at)?
            .into_iter()
            .next()
    {
        return Ok(Err(format!(
            "battle {b} is being played by mail as game {game}, started after map turn {last} was resolved; a re-run would change the campaign under its players. Correct the week with move and edit instead"
        )));
    }
    let before: Campaign = serde_json::from_str(&played.state_before).map_err(corrupt)?;
    let mut orders: BTreeMap<String, Vec<Line<Order>>> =
        serde_json::from_str(&played.orders).map_err(corrupt)?;
    let dropped = match drop_lines(&mut orders, &campaigns::players(tx, id)?, without) {
        Ok(d) => d,
        Err(why) => return Ok(Err(why)),
    };
    let week = Week {
        before,
        orders,
        results: serde_json::from_str(results).map_err(corrupt)?,
    };
    let changed_since =
        serde_json::to_string(&stored.campaign).map_err(corrupt)? != played.state_after;
    let date = week.before.date();
    let next = stored.campaign.date();
    let correction = Correction {
        headline: format!(
            "CORRECTED: {date} re-run by the secretary (map turn {last}). This report replaces the one you had; orders you sent for {next} stand unless you send new ones.\n"
        ),
        dropped,
    };
    let after = play(tx, config, &stored, &week, Some(&correction), now)?;
    let dropped: Vec<String> = correction
        .dropped
        .iter()
        .map(|(p, line)| format!("{p}: {line}"))
        .collect();
    let mut answer = format!(
        "{date} (map turn {last}) re-run with the same dice{}; {}; every power has its corrected report",
        if dropped.is_empty() {
            String::new()
        } else {
            format!(" without {}", dropped.join("; "))
        },
        if serde_json::to_string(&after).map_err(corrupt)? == played.state_after {
            "the outcome is the same as before"
        } else {
            "the outcome differs from the one first mailed"
        }
    );
    if changed_since {
        answer.push_str(". Changes made since the week was first resolved (move, edit, how a battle is fought) are undone: make them again if they still hold");
    }
    // A result entered since for a battle the re-run no longer has.
    for b in campaigns::waiting_results(tx, id)? {
        if !after.pending.iter().any(|p| p.id == b) {
            campaigns::drop_result(tx, id, b)?;
            answer.push_str(&format!(
                ". The result you entered for battle {b} is dropped: the corrected week has no such battle"
            ));
        }
    }
    crate::post::audit(
        tx,
        now,
        Some(id),
        &format!("secretary re-ran map turn {last}"),
    )?;
    Ok(Ok(answer))
}

/// Drop the secretary's lines (`koth 2`: Koth's second order of the week,
/// as that week's digest numbered them) from a week's orders, all or none.
/// Returns the orders dropped: (power, the order's text).
fn drop_lines(
    orders: &mut BTreeMap<String, Vec<Line<Order>>>,
    players: &[(String, String)],
    without: &[(String, u32)],
) -> Result<Vec<(String, String)>, Refusal> {
    let mut by_power: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (power, n) in without {
        let Some((p, _)) = players.iter().find(|(p, _)| p.eq_ignore_ascii_case(power)) else {
            let powers: Vec<&str> = players.iter().map(|(p, _)| p.as_str()).collect();
            return Err(format!(
                "without {power} {n}: there is no power '{power}'; the powers are {}; nothing was re-run",
                powers.join(", ")
            ));
        };
        let had = orders.get(p).map_or(0, Vec::len);
        let Some(i) = (*n as usize).checked_sub(1).filter(|i| *i < had) else {
            return Err(format!(
                "without {power} {n}: {p} had {} that week; write a number that week's digest shows; nothing was re-run",
                crate::report::plural(had as u32, "order", "orders")
            ));
        };
        let list = by_power.entry(p.clone()).or_default();
        if list.contains(&i) {
            return Err(format!(
                "without {power} {n}: named twice; nothing was re-run"
            ));
        }
        list.push(i);
    }
    let mut dropped = Vec::new();
    for (p, mut idx) in by_power {
        idx.sort_unstable();
        let Some(lines) = orders.get_mut(&p) else {
            continue;
        };
        for i in idx.into_iter().rev() {
            let gone = lines.remove(i);
            dropped.push((p.clone(), gone.text));
        }
    }
    dropped.sort();
    Ok(dropped)
}
