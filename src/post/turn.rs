//! Games and turns: creating a game, reminders, deadlines, adjudicating a
//! turn with a committed seed, and sending (or holding) the report.

use super::game::Game;
use super::gamefile::GameFile;
use super::outbox::{self, Kind};
use super::{audit, password, templates, PostError};
use crate::games::hyborian::adjudicate::{resolve_turn, StopAfter};
use crate::config::Config;
use crate::games::hyborian::dice::{DiceKey, ModeratorDice, Roll, SeededDice};
use std::collections::BTreeMap;
use crate::mail::compose::{Attachment, Inline, Outgoing};
use crate::mail::quote::umpire_mark_line;
use crate::games::hyborian::report::{self, picture, TurnReport};
use crate::games::hyborian::orders::plan::TurnOrders;
use crate::games::hyborian::rules::options::GameOptions;
use crate::store::{self, Transaction};
use crate::games::hyborian::table::Table;
use chrono::{DateTime, Duration, Utc};
use rand::Rng;
use rusqlite::{params, OptionalExtension};
use sha2::{Digest, Sha256};

/// A fresh secret seed for a turn's dice, and its published hash.
fn new_seed() -> (String, String) {
    let seed: [u8; 32] = rand::rng().random();
    let hex_seed = hex::encode(seed);
    let hash = hex::encode(Sha256::digest(hex_seed.as_bytes()));
    (hex_seed, hash)
}

/// Read a scenario file (the table, terrain and units in the case-file
/// layout, with the scenario's own keys: briefing, sides, victory) into a table.
pub fn load_scenario(path: &std::path::Path) -> Result<Table, PostError> {
    let err = |message: String| PostError::Scenario {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    crate::games::hyborian::army::scenario::load(&text).map(|l| l.table).map_err(|e| err(e.to_string()))
}

/// Parse a game's stored options.
fn options(game: &Game) -> Result<GameOptions, PostError> {
    serde_json::from_str(&game.options).map_err(|e| PostError::Corrupt(format!("options: {e}")))
}

/// Create the game's rows, the first turn's seed, and the welcome mails.
pub fn create_game(tx: &Transaction<'_>, config: &Config, file: &GameFile, now: DateTime<Utc>) -> Result<(), PostError> {
    if Game::load(tx, &file.id)?.is_some() {
        return Err(PostError::GameExists(file.id.clone()));
    }
    let table = load_scenario(&file.scenario)?;
    let scenario_sides = table.sides();
    for s in &file.sides {
        if !scenario_sides.contains(&s.id) {
            return Err(PostError::Scenario {
                path: file.scenario.display().to_string(),
                message: format!(
                    "the game file names side '{}' but the scenario's sides are: {}",
                    s.id,
                    scenario_sides.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
            });
        }
    }
    let options: GameOptions = file
        .options
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| PostError::Scenario {
            path: "game file [options]".into(),
            message: e.to_string(),
        })?;
    let mut rng = rand::rng();
    let mod_pw = file.moderator.password.clone().unwrap_or_else(|| password::generate(&mut rng));
    let deadline = file.first_deadline_utc()?;
    let (seed, seed_hash) = new_seed();
    let scenario_text = std::fs::read_to_string(&file.scenario).unwrap_or_default();
    let (max_turns, deploying) = battle_length(file, &scenario_text, &seed)?;
    tx.execute(
        "INSERT INTO games (id, title, setup, options, state, turn, hold, moderator_address, moderator_pw, \
         deadline, turn_hours, timezone, grace_minutes, reminder_hours, max_turns, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?16, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            file.id,
            file.title,
            scenario_text,
            serde_json::to_string(&options).map_err(|e| PostError::Corrupt(e.to_string()))?,
            serde_json::to_string(&table).map_err(|e| PostError::Corrupt(e.to_string()))?,
            file.hold,
            file.moderator.address.to_ascii_lowercase(),
            password::hash(&mod_pw, &mut rng),
            store::ts(deadline),
            file.turn_hours,
            file.timezone,
            file.grace_minutes,
            file.reminder_hours,
            max_turns,
            store::ts(now),
            table.turn,
        ],
    )?;
    tx.execute(
        "INSERT INTO turns (game_id, turn, seed, seed_hash) VALUES (?1, ?2, ?3, ?4)",
        params![file.id, table.turn, seed, seed_hash],
    )?;
    let game = Game::load(tx, &file.id)?.ok_or_else(|| PostError::NoGame(file.id.clone()))?;
    for s in &file.sides {
        let pw = s.password.clone().unwrap_or_else(|| password::generate(&mut rng));
        tx.execute(
            "INSERT INTO sides (game_id, side, address, password) VALUES (?1, ?2, ?3, ?4)",
            params![file.id, s.id, s.address.to_ascii_lowercase(), password::hash(&pw, &mut rng)],
        )?;
        let text = templates::render(
            "welcome.txt",
            minijinja::context! {
                title => &file.title, game => &file.id, side => &s.id, password => &pw,
                umpire => &config.address, deadline => game.deadline_text(), turn => table.turn,
                seed_hash => &seed_hash, units => report::unit_lines(&table, None, &s.id), address => &s.address,
                turns => max_turns, deploying => deploying,
            },
        );
        let mail = plain(config, vec![s.address.clone()], format!("[{}] Welcome: you command {}", file.id, s.id), text, None);
        outbox::queue(tx, config, Some(&file.id), Kind::Welcome, &mail, &s.id, now)?;
    }
    let text = format!(
        "You moderate {} ({}). Your moderator password: {mod_pw}\n\
         Moderator commands start with the line: MODERATOR {} PASSWORD {mod_pw}\n\
         First deadline: {}\n",
        file.title,
        file.id,
        file.id,
        game.deadline_text()
    );
    let mail = plain(config, vec![file.moderator.address.clone()], format!("[{}] You moderate this game", file.id), text, None);
    outbox::queue(tx, config, Some(&file.id), Kind::Welcome, &mail, "moderator", now)?;
    audit(tx, now, Some(&file.id), "game created")?;
    Ok(())
}

/// How many turns the battle lasts: the scenario's turns, less 1d6 hours
/// spent deploying where the scenario asks for the roll (rolled on the first
/// turn's seed as `d6:battle:deploying`, so it is checked with that turn),
/// and never more than the game file allows.
fn battle_length(file: &GameFile, scenario_text: &str, seed_hex: &str) -> Result<(u32, Option<u8>), PostError> {
    let Some(scenario) = crate::games::hyborian::army::scenario::load(scenario_text).ok().and_then(|l| l.scenario) else {
        return Ok((file.max_turns, None));
    };
    if !scenario.deploying_roll {
        return Ok((file.max_turns.min(scenario.turns), None));
    }
    let seed: [u8; 32] = hex::decode(seed_hex)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| PostError::Corrupt(format!("seed {seed_hex}")))?;
    let key = DiceKey::D6 { unit: "battle".into(), what: "deploying".into() };
    let roll = SeededDice::new(seed).roll(&key).map_err(|e| PostError::Engine(e.to_string()))?;
    Ok((file.max_turns.min(scenario.turns.saturating_sub(u32::from(roll)).max(1)), Some(roll)))
}

/// A plain-text mail from the umpire.
///
/// The text opens with the umpire's mark line: a player who replies on top
/// of it, even in a client that quotes without `>`, never has the quoted
/// text (old orders among it) read again.
pub fn plain(config: &Config, to: Vec<String>, subject: String, text: String, in_reply_to: Option<String>) -> Outgoing {
    let text = format!("{}\n\n{text}", umpire_mark_line(&subject));
    Outgoing {
        from: format!("{} <{}>", config.name, config.address),
        to,
        subject,
        text,
        html: None,
        inline_images: Vec::new(),
        attachments: Vec::new(),
        references: in_reply_to.iter().cloned().collect(),
        in_reply_to,
        auto_reply: true,
    }
}

/// Reminders and deadlines for one game. Returns how many turns were played.
pub fn tick_game(tx: &Transaction<'_>, config: &Config, id: &str, now: DateTime<Utc>, force: bool) -> Result<usize, PostError> {
    let Some(game) = Game::load(tx, id)? else {
        return Err(PostError::NoGame(id.to_string()));
    };
    if game.status != "active" {
        return Ok(0);
    }
    let sides = game.sides(tx)?;
    let sides_in = game.sides_in(tx)?;
    let all_in = sides.iter().all(|s| sides_in.contains(&s.side));
    let due = now >= game.deadline + Duration::minutes(i64::from(game.grace_minutes));
    if force || all_in || due {
        play_turn(tx, config, game, now)?;
        return Ok(1);
    }
    if game.reminder_hours > 0 && now >= game.deadline - Duration::hours(i64::from(game.reminder_hours)) {
        for s in sides.iter().filter(|s| !sides_in.contains(&s.side)) {
            let fresh = tx.execute(
                "INSERT OR IGNORE INTO reminders (game_id, turn, side) VALUES (?1, ?2, ?3)",
                params![game.id, game.turn, s.side],
            )?;
            if fresh == 1 {
                let text = templates::render(
                    "reminder.txt",
                    minijinja::context! { title => &game.title, game => &game.id, side => &s.side,
                        turn => game.turn, deadline => game.deadline_text() },
                );
                let mail = plain(config, vec![s.address.clone()], format!("[{}] Turn {}: orders due", game.id, game.turn), text, None);
                outbox::queue(tx, config, Some(&game.id), Kind::Reminder, &mail, &format!("{}:{}", game.turn, s.side), now)?;
            }
        }
    }
    Ok(0)
}

/// The latest orders of every side for the current turn, merged.
fn gather_orders(tx: &Transaction<'_>, game: &Game) -> Result<(TurnOrders, Vec<String>), PostError> {
    let mut orders = TurnOrders::default();
    let mut missing = Vec::new();
    for s in game.sides(tx)? {
        let checked: Option<String> = tx
            .query_row(
                "SELECT checked FROM submissions WHERE game_id = ?1 AND turn = ?2 AND side = ?3 \
                 ORDER BY id DESC LIMIT 1",
                params![game.id, game.turn, s.side],
                |r| r.get(0),
            )
            .optional()?;
        match checked {
            Some(json) => orders.merge(
                serde_json::from_str(&json).map_err(|e| PostError::Corrupt(format!("orders: {e}")))?,
            ),
            None => missing.push(s.side),
        }
    }
    Ok((orders, missing))
}

/// Adjudicate the current turn, store everything, queue the report.
fn play_turn(tx: &Transaction<'_>, config: &Config, mut game: Game, now: DateTime<Utc>) -> Result<(), PostError> {
    let (seed, seed_hash): (String, String) = tx.query_row(
        "SELECT seed, seed_hash FROM turns WHERE game_id = ?1 AND turn = ?2",
        params![game.id, game.turn],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let (orders, nmr) = gather_orders(tx, &game)?;
    let given = moderator_dice(tx, &game.id, game.turn)?;
    let result = adjudicate_stored(&game.table, &orders, &options(&game)?, &seed, &given)?;
    let before = serde_json::to_string(&game.table).map_err(|e| PostError::Corrupt(e.to_string()))?;
    let before_table = game.table.clone();
    let played = game.turn;
    game.table = result.table;
    game.turn += 1;
    game.deadline += Duration::hours(i64::from(game.turn_hours));
    // The battle ends after its last turn, or when a side has nothing left on the table.
    let sides_standing = game
        .table
        .sides()
        .into_iter()
        .filter(|s| game.table.units_of(s).any(|u| u.status.is_present() && !u.kind.is_single_figure()))
        .count();
    let last_turn = played >= game.max_turns;
    let verdict = scenario_of(tx, &game.id)?.map(|s| crate::games::hyborian::army::scenario::assess(&s, &game.table, last_turn));
    let decided = verdict.as_ref().is_some_and(|v| v.winner.is_some());
    let ended = last_turn || sides_standing < 2 || decided;
    if ended {
        game.status = "ended".into();
    }
    let (next_seed, next_hash) = new_seed();
    let (sections, mut dice) = report::story(&result.events);
    for line in dice.iter_mut() {
        if line.split(" = ").next().is_some_and(|k| given.contains_key(k)) {
            line.push_str(" (the moderator's die)");
        }
    }
    let rep = TurnReport {
        title: game.title.clone(),
        game: game.id.clone(),
        turn: played,
        seed: seed.clone(),
        seed_hash: seed_hash.clone(),
        nmr,
        sections,
        dice,
        sides: report::summary(&game.table, Some(&before_table)),
        ended,
        next_turn: game.turn,
        deadline: game.deadline_text(),
        next_seed_hash: next_hash.clone(),
        draft: game.hold,
        charged: report::chargers(&result.events),
        victory: verdict.map(|v| {
            let mut lines: Vec<String> = v.reasons;
            match v.winner {
                Some(w) => lines.push(format!("{w} has won the battle.")),
                None if ended => lines.push("The battle ends without a victor.".into()),
                None => {}
            }
            lines
        }).unwrap_or_default(),
    };
    let report = serde_json::to_string(&rep).map_err(|e| PostError::Corrupt(e.to_string()))?;
    tx.execute(
        "UPDATE turns SET state_before = ?3, state_after = ?4, orders = ?5, events = ?6, report = ?7, \
         adjudicated_at = ?8, released = ?9, moderator_dice = ?10 WHERE game_id = ?1 AND turn = ?2",
        params![
            game.id,
            played,
            before,
            serde_json::to_string(&game.table).map_err(|e| PostError::Corrupt(e.to_string()))?,
            serde_json::to_string(&orders).map_err(|e| PostError::Corrupt(e.to_string()))?,
            serde_json::to_string(&result.events).map_err(|e| PostError::Corrupt(e.to_string()))?,
            report,
            store::ts(now),
            !game.hold,
            serde_json::to_string(&given).map_err(|e| PostError::Corrupt(e.to_string()))?,
        ],
    )?;
    if !ended {
        tx.execute(
            "INSERT INTO turns (game_id, turn, seed, seed_hash) VALUES (?1, ?2, ?3, ?4)",
            params![game.id, game.turn, next_seed, next_hash],
        )?;
    }
    game.save(tx)?;
    audit(tx, now, Some(&game.id), &format!("turn {played} adjudicated"))?;
    if game.hold {
        let mail = report_mail(config, vec![game.moderator_address.clone()], &rep, &before_table, &game.table)?;
        outbox::queue(tx, config, Some(&game.id), Kind::Draft, &mail, &played.to_string(), now)?;
    } else {
        release_report(tx, config, &game, played, now)?;
    }
    Ok(())
}

/// Dice the moderator supplied for a turn.
fn moderator_dice(tx: &Transaction<'_>, game: &str, turn: u32) -> Result<BTreeMap<String, u8>, PostError> {
    let mut st = tx.prepare("SELECT key, value FROM moderator_dice WHERE game_id = ?1 AND turn = ?2")?;
    let rows = st
        .query_map(params![game, turn], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<BTreeMap<String, u8>>>()?;
    Ok(rows)
}

/// Replay a turn from the stored orders, seed and moderator's dice (used by
/// adjudication and by `verify`).
pub fn adjudicate_stored(
    table: &Table,
    orders: &TurnOrders,
    options: &GameOptions,
    seed_hex: &str,
    given: &BTreeMap<String, u8>,
) -> Result<crate::games::hyborian::adjudicate::TurnResult, PostError> {
    let seed: [u8; 32] = hex::decode(seed_hex)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| PostError::Corrupt(format!("seed {seed_hex}")))?;
    let mut dice = ModeratorDice::new(given.clone(), SeededDice::new(seed));
    resolve_turn(table, orders, options, &mut dice, StopAfter::Turn).map_err(|e| PostError::Engine(e.to_string()))
}

/// The scenario a game was created from, when it has victory conditions.
fn scenario_of(tx: &Transaction<'_>, game: &str) -> Result<Option<crate::games::hyborian::army::scenario::Scenario>, PostError> {
    let text: String = tx.query_row("SELECT setup FROM games WHERE id = ?1", [game], |r| r.get(0))?;
    Ok(crate::games::hyborian::army::scenario::load(&text).ok().and_then(|l| l.scenario))
}

/// A stored turn's report with the tables before and after it.
pub fn stored_report(tx: &Transaction<'_>, game: &str, turn: u32) -> Result<Option<(TurnReport, Table, Table)>, PostError> {
    let row: Option<(String, String, String)> = tx
        .query_row(
            "SELECT report, state_before, state_after FROM turns WHERE game_id = ?1 AND turn = ?2 AND report IS NOT NULL",
            params![game, turn],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let Some((rep, before, after)) = row else { return Ok(None) };
    let corrupt = |e: serde_json::Error| PostError::Corrupt(format!("turn {turn} of {game}: {e}"));
    Ok(Some((
        serde_json::from_str(&rep).map_err(corrupt)?,
        serde_json::from_str(&before).map_err(corrupt)?,
        serde_json::from_str(&after).map_err(corrupt)?,
    )))
}

/// The report as a mail: text and HTML alternatives, the picture inline
/// in the HTML and attached as a PNG, and the SVG attached for printing.
pub fn report_mail(config: &Config, to: Vec<String>, rep: &TurnReport, before: &Table, after: &Table) -> Result<Outgoing, PostError> {
    let caption = format!("{} — after turn {}", rep.title, rep.turn);
    let svg = picture::svg(Some(before), after, &rep.charged, &caption);
    let png = picture::png(&svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
    let cid = format!("table-{}-{}@{}", rep.game, rep.turn, config.domain());
    let subject = if rep.draft {
        format!("[{}] DRAFT report of turn {}", rep.game, rep.turn)
    } else {
        format!("[{}] Report of turn {}", rep.game, rep.turn)
    };
    let mut mail = plain(config, to, subject, rep.text(), None);
    mail.html = Some(rep.html(Some(&format!("cid:{cid}"))));
    mail.inline_images.push(Inline { content_id: cid, mime: "image/png".into(), bytes: png.clone() });
    mail.attachments.push(Attachment { name: format!("{}-turn-{}.png", rep.game, rep.turn), mime: "image/png".into(), bytes: png });
    mail.attachments.push(Attachment { name: format!("{}-turn-{}.svg", rep.game, rep.turn), mime: "image/svg+xml".into(), bytes: svg.into_bytes() });
    // A report is generated, not a reply to anyone's message.
    mail.auto_reply = false;
    Ok(mail)
}

/// Mail a turn's report to every player and the moderator.
pub fn release_report(tx: &Transaction<'_>, config: &Config, game: &Game, turn: u32, now: DateTime<Utc>) -> Result<(), PostError> {
    let Some((mut rep, before, after)) = stored_report(tx, &game.id, turn)? else {
        return Err(PostError::Corrupt(format!("turn {turn} of {} has no report", game.id)));
    };
    rep.draft = false;
    let mut to: Vec<String> = game.sides(tx)?.into_iter().map(|s| s.address).collect();
    to.push(game.moderator_address.clone());
    for addr in to {
        let mail = report_mail(config, vec![addr.clone()], &rep, &before, &after)?;
        outbox::queue(tx, config, Some(&game.id), Kind::Report, &mail, &format!("{turn}:{addr}"), now)?;
    }
    tx.execute(
        "UPDATE turns SET released = 1 WHERE game_id = ?1 AND turn = ?2",
        params![game.id, turn],
    )?;
    Ok(())
}
