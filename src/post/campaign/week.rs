//! A campaign's week: its deadline opened, its dice committed and revealed,
//! its resolution (on time, by the secretary's `resolve`, or re-run by his
//! `rerun`), and every reader's report queued.

use super::{corrupt, facts, load, rules, seed, week_orders, Row};
use crate::config::Config;
use crate::games::campaign::{Facts, Line, Sources, Week as Told, WeekDice};
use crate::games::Json;
use crate::post::outbox::{self, Kind};
use crate::post::{plain, PostError};
use crate::store::campaigns::{self, TurnRow};
use crate::store::{Store, Transaction};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// Set the deadline of the map turn now open (`week_hours` from `now`, or
/// none) and say it as the reports' first line.
pub(super) fn open(
    tx: &Transaction<'_>,
    config: &Config,
    c: &Facts,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let hours = c.week_hours;
    let deadline = (hours > 0).then(|| now + chrono::Duration::hours(i64::from(hours)));
    campaigns::set_deadline(tx, &c.id, deadline)?;
    Ok(match deadline {
        Some(d) => format!(
            "Orders for {} are due by {}.\n\n",
            c.date,
            due_text(config, d)
        ),
        None => String::new(),
    })
}

/// A deadline as the reports say it, in the club's time zone.
pub(super) fn due_text(config: &Config, d: DateTime<Utc>) -> String {
    let tz = config.timezone.parse().unwrap_or(chrono_tz::UTC);
    crate::post::gamefile::show_deadline(d, tz)
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
///
/// # Errors
/// Database errors.
pub fn due(store: &Store, now: DateTime<Utc>) -> Result<Vec<String>, PostError> {
    Ok(campaigns::due(store.conn(), now)?)
}

/// The dice the reports after map turn `played` publish (0: the start):
/// its seed revealed, and the coming week's committed to.
pub(super) fn dice(secret: &str, played: u32) -> WeekDice {
    let revealed = (played > 0).then(|| hex::encode(seed(secret, played)));
    WeekDice {
        revealed_hash: revealed.as_deref().map(crate::dice::seed_hash),
        revealed,
        next_hash: crate::dice::seed_hash(&hex::encode(seed(secret, played + 1))),
    }
}

/// Who a report is for: a power (by id) or the secretary, at an address.
#[derive(Clone, Copy)]
pub(super) struct Reader<'a> {
    power: Option<&'a str>,
    address: &'a str,
    /// Whether the report carries the reader's password (the opening
    /// report's welcome): the outbox cuts its body once sent.
    password: bool,
}

impl<'a> Reader<'a> {
    pub(super) fn power(power: &'a str, address: &'a str) -> Self {
        Reader {
            power: Some(power),
            address,
            password: false,
        }
    }

    /// The same reader, the report carrying its password.
    pub(super) fn with_password(self) -> Self {
        Reader {
            password: true,
            ..self
        }
    }

    pub(super) fn secretary(address: &'a str) -> Self {
        Reader {
            power: None,
            address,
            password: false,
        }
    }
}

/// Mail one reader's report: text and HTML alternatives, the map inline in
/// the HTML and attached as PNG and SVG, and so the last table of each
/// battle the reader fought, below the battle's paragraph.
pub(super) fn queue_report(
    tx: &Transaction<'_>,
    config: &Config,
    state: &str,
    c: &Facts,
    to: Reader<'_>,
    week: &Told<'_>,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let reader = to.power;
    let pictures = rules().pictures(state, reader, week).map_err(corrupt)?;
    let who = reader.unwrap_or("secretary");
    let stem = format!("{}-{who}-turn-{}", c.id, c.turn);
    let cid = format!("map-{stem}@{}", config.domain());
    let mut sources = Sources {
        map: Some(format!("cid:{cid}")),
        battles: BTreeMap::new(),
    };
    let mut drawn = Vec::new();
    for (id, svg) in pictures.battles {
        let png = crate::report::picture::png(&svg).map_err(corrupt)?;
        let stem = format!("{stem}-battle-{id}");
        let cid = format!("{stem}@{}", config.domain());
        sources.battles.insert(id, format!("cid:{cid}"));
        drawn.push((cid, stem, png, svg));
    }
    let (text, html) = rules()
        .report(state, reader, week, Some(&sources))
        .map_err(corrupt)?;
    // Named by the week its results are of ("Year 1, week 1: ophir's
    // report"), the round first as every report's subject.
    let whose = reader.map_or("the secretary's".to_string(), |p| format!("{p}'s"));
    let subject = format!(
        "[{}] {}: {whose} report",
        c.id,
        crate::report::capitalize_first(week.played)
    );
    let mut mail = plain(config, vec![to.address.to_string()], subject, text, None);
    mail.auto_submitted = crate::mail::compose::AutoSubmitted::Generated;
    mail.html = html;
    // The map goes first: it stays the report's main picture.
    let png = crate::report::picture::png(&pictures.map).map_err(corrupt)?;
    mail.show_picture(cid, &stem, png, pictures.map);
    for (cid, stem, png, svg) in drawn {
        mail.show_picture(cid, &stem, png, svg);
    }
    let queued = outbox::Queue {
        game: Some(&c.id),
        kind: Kind::Report,
        tag: &report_tag(tx, c, who)?,
        secret: to.password,
    };
    outbox::queue_as(tx, config, &queued, &mail, now)?;
    Ok(())
}

/// A report's identity in the outbox: the campaign, the turn and the
/// reader, and for a week the secretary re-ran, the re-run's number (its
/// corrected reports are new mail, ruling CA-30).
fn report_tag(tx: &Transaction<'_>, c: &Facts, who: &str) -> Result<String, PostError> {
    Ok(match campaigns::reruns(tx, &c.id, c.turn)? {
        0 => format!("{}:{}:{who}", c.id, c.turn),
        k => format!("{}:{}:{who}:rerun{k}", c.id, c.turn),
    })
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
    let results = campaigns::take_results(tx, id)?
        .iter()
        .map(|j| serde_json::from_str(j).map_err(corrupt))
        .collect::<Result<_, _>>()?;
    let week = Week {
        orders: week_orders(tx, &stored.facts)?,
        before: stored.state.clone(),
        results,
    };
    play(tx, config, &stored, &week, None, now)?;
    Ok(())
}

/// What a week is resolved from: the state before it, each power's orders
/// and the battle results it applies.
struct Week {
    before: String,
    orders: BTreeMap<String, Vec<Line<Json>>>,
    results: Vec<Json>,
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
/// next deadline and queue every report. Returns the campaign's state as
/// the week left it.
fn play(
    tx: &Transaction<'_>,
    config: &Config,
    stored: &Row,
    week: &Week,
    correction: Option<&Correction>,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let c = facts(&week.before)?;
    let turn = c.turn + 1;
    let on_file = campaigns::players(tx, &c.id)?
        .into_iter()
        .map(|(p, _)| {
            let lines = week.orders.get(&p).cloned();
            (p, lines)
        })
        .collect();
    let digest = rules().digest(&week.before, &on_file).map_err(corrupt)?;
    let r = rules()
        .resolve(
            &week.before,
            &week.orders,
            &week.results,
            seed(&stored.seed, turn),
        )
        .map_err(PostError::Ruleset)?;
    campaigns::set_state(tx, &c.id, &r.state)?;
    // Battles by mail start at once: their welcomes go with the reports.
    super::battles::start_games(tx, config, &c.id, now)?;
    let after = load(tx, &c.id)?.map_or(r.state, |s| s.state);
    // The state as the week left it, its games started: a re-run compares
    // the campaign with it to see what the secretary changed since.
    let played_turn = TurnRow {
        turn,
        state_before: &week.before,
        state_after: &after,
        orders: &serde_json::to_string(&week.orders).map_err(corrupt)?,
        events: &r.events,
        results: &serde_json::to_string(&week.results).map_err(corrupt)?,
    };
    if correction.is_some() {
        campaigns::rerun_turn(tx, &c.id, &played_turn)?;
    } else {
        campaigns::insert_turn(tx, &c.id, &played_turn, now)?;
    }
    let next = facts(&after)?;
    let due = open(tx, config, &next, now)?;
    super::general::write_letters(tx, config, &c.id, now)?;
    let dice = dice(&stored.seed, turn);
    let intro = |reader: Option<&str>| {
        let above = correction.map_or(String::new(), |k| k.intro(reader));
        format!("{above}{due}")
    };
    let told = Told {
        played: &c.date,
        events: Some(&r.events),
        orders: &week.orders,
        dice: Some(&dice),
        intro: "",
    };
    // A power a general plays has no address: no report goes to it.
    for (power, address) in &campaigns::players(tx, &c.id)? {
        if address.is_empty() {
            continue;
        }
        let intro = intro(Some(power));
        let week = Told {
            intro: &intro,
            ..told
        };
        queue_report(
            tx,
            config,
            &after,
            &next,
            Reader::power(power, address),
            &week,
            now,
        )?;
    }
    let intro = format!("{}{digest}\n", intro(None));
    let week = Told {
        intro: &intro,
        ..told
    };
    let secretary = Reader::secretary(&stored.secretary_address);
    queue_report(tx, config, &after, &next, secretary, &week, now)?;
    crate::post::audit(
        tx,
        now,
        Some(&c.id),
        &format!(
            "campaign turn {turn} ({}) {}: {} events",
            c.date,
            if correction.is_some() {
                "re-run by the secretary"
            } else {
                "resolved"
            },
            r.count
        ),
    )?;
    Ok(after)
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
    let last = stored.facts.turn;
    let played = match replayable(tx, id, last, turn)? {
        Ok(played) => played,
        Err(why) => return Ok(Err(why)),
    };
    let Some(results) = played.results.as_deref() else {
        return Ok(Err(format!(
            "map turn {last} was resolved before umpire kept a week's battle results, so it cannot be re-run; correct it with move and edit"
        )));
    };
    let mut orders: BTreeMap<String, Vec<Line<Json>>> =
        serde_json::from_str(&played.orders).map_err(corrupt)?;
    let dropped = match drop_lines(&mut orders, &campaigns::players(tx, id)?, without) {
        Ok(d) => d,
        Err(why) => return Ok(Err(why)),
    };
    let week = Week {
        before: played.state_before.clone(),
        orders,
        results: serde_json::from_str(results).map_err(corrupt)?,
    };
    let changed_since = stored.state != played.state_after;
    let date = facts(&week.before)?.date;
    let next = &stored.facts.date;
    let correction = Correction {
        headline: format!(
            "CORRECTED: {date} re-run by the secretary (map turn {last}). This report replaces the one you had; orders you sent for {next} stand unless you send new ones.\n"
        ),
        dropped,
    };
    let after = play(tx, config, &stored, &week, Some(&correction), now)?;
    let mut answer = rerun_answer(&date, last, &correction, after == played.state_after);
    if changed_since {
        answer.push_str(". Changes made since the week was first resolved (move, edit, how a battle is fought) are undone: make them again if they still hold");
    }
    // A result entered since for a battle the re-run no longer has.
    let pending = facts(&after)?.pending;
    for b in campaigns::waiting_results(tx, id)? {
        if !pending.contains(&b) {
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

/// The week last resolved, when `turn` (if written) names it and no battle
/// by mail started since stands in the way.
fn replayable(
    tx: &Transaction<'_>,
    id: &str,
    last: u32,
    turn: Option<u32>,
) -> Result<Result<campaigns::PlayedTurn, Refusal>, PostError> {
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
    if let Some((b, game)) =
        crate::store::campaign_battles::started_since(tx, id, played.resolved_at)?
            .into_iter()
            .next()
    {
        return Ok(Err(format!(
            "battle {b} is being played by mail as game {game}, started after map turn {last} was resolved; a re-run would change the campaign under its players. Correct the week with move and edit instead"
        )));
    }
    Ok(Ok(played))
}

/// The secretary's answer to a re-run done.
fn rerun_answer(date: &str, last: u32, correction: &Correction, same: bool) -> String {
    let dropped: Vec<String> = correction
        .dropped
        .iter()
        .map(|(p, line)| format!("{p}: {line}"))
        .collect();
    format!(
        "{date} (map turn {last}) re-run with the same dice{}; {}; every power has its corrected report",
        if dropped.is_empty() {
            String::new()
        } else {
            format!(" without {}", dropped.join("; "))
        },
        if same {
            "the outcome is the same as before"
        } else {
            "the outcome differs from the one first mailed"
        }
    )
}

/// Drop the secretary's lines (`koth 2`: Koth's second order of the week,
/// as that week's digest numbered them) from a week's orders, all or none.
/// Returns the orders dropped: (power, the order's text).
fn drop_lines(
    orders: &mut BTreeMap<String, Vec<Line<Json>>>,
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
