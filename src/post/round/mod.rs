//! Games and rounds: creating a game, reminders, deadlines, resolving a
//! round with a committed seed through the game's rule set, and sending
//! (or holding) the report. Nothing here knows a rule set's turn structure:
//! the rule set says which round the state waits for and who writes it.

use super::ahead::{Ahead, Inputs};
use super::game::Game;
use super::gamefile::GameFile;
use super::outbox::{self, Kind};
use super::{audit, templates, PostError};
use crate::config::Config;
use crate::dice::{ModeratorDice, SeededDice};
use crate::games::{self, GameResult, Json, RoundInput, Setup, GAME_MASTER};
use crate::mail::compose::{Attachment, AutoSubmitted, Outgoing};
use crate::mail::quote::umpire_mark_line;
use crate::report::{capitalize_first, picture, RoundReport, Section};
use crate::store::games::GameStatus;
use crate::store::games::{GameRow, SideRow};
use crate::store::{rounds, submissions, Transaction};
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A fresh secret seed for a round's dice, and its published hash.
fn new_seed(config: &Config) -> (String, String) {
    let seed = config.entropy.seed();
    let hex_seed = hex::encode(seed);
    let hash = crate::dice::seed_hash(&hex_seed);
    (hex_seed, hash)
}

/// A stored seed's bytes.
fn seed_bytes(seed_hex: &str) -> Result<[u8; 32], PostError> {
    hex::decode(seed_hex)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| PostError::Corrupt(format!("seed {seed_hex}")))
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, PostError> {
    serde_json::to_string(v).map_err(|e| PostError::Corrupt(e.to_string()))
}

fn from_json<T: serde::de::DeserializeOwned>(what: &str, s: &str) -> Result<T, PostError> {
    serde_json::from_str(s).map_err(|e| PostError::Corrupt(format!("{what}: {e}")))
}

/// Open the round the game's state waits for: commit its seed.
fn open_round(
    tx: &Transaction<'_>,
    game: &Game,
    seed: String,
    seed_hash: String,
) -> Result<(), PostError> {
    let round = game.round()?;
    rounds::open(
        tx,
        game.id(),
        &rounds::Opened {
            round: round.number,
            label: round.label,
            writers: to_json(&round.writers)?,
            seed,
            seed_hash,
        },
    )?;
    Ok(())
}

/// Create the game's rows, the first round's seed, and the welcome mails.
pub fn create_game(
    tx: &Transaction<'_>,
    config: &Config,
    file: &GameFile,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let scenario_text =
        std::fs::read_to_string(&file.scenario).map_err(|e| PostError::Scenario {
            path: file.scenario.display().to_string(),
            message: e.to_string(),
        })?;
    create_game_of(tx, config, file, scenario_text, now)
}

/// [`create_game`] with the scenario's text given rather than read from
/// `file.scenario` (a campaign's battle by mail makes its own, ruling CA-18).
pub(crate) fn create_game_of(
    tx: &Transaction<'_>,
    config: &Config,
    file: &GameFile,
    scenario_text: String,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    if Game::load(tx, &file.id)?.is_some() {
        return Err(PostError::GameExists(file.id.clone()));
    }
    let first_deadline = file.first_deadline_at(now)?;
    if first_deadline <= now {
        return Err(PostError::NotStarted(format!(
            "the first deadline {} ({}) has passed: give a later first_deadline in the game file",
            file.first_deadline, file.timezone
        )));
    }
    let ruleset = games::named(&file.ruleset)?;
    let (armies, pack) = file.read_armies_and_pack()?;
    let (seed, seed_hash) = new_seed(config);
    let new = ruleset
        .new_game(&Setup {
            scenario_path: &file.scenario,
            scenario_text: &scenario_text,
            options: &file.options,
            max_turns: file.max_turns,
            seed: seed_bytes(&seed)?,
            armies: &armies,
            pack: pack.as_deref(),
        })
        .map_err(|e| PostError::Scenario {
            path: file.scenario.display().to_string(),
            message: e.to_string(),
        })?;
    for s in &file.sides {
        if !new.sides.contains(&s.id) {
            return Err(PostError::Scenario {
                path: file.scenario.display().to_string(),
                message: format!(
                    "the game file names side '{}' but the scenario's sides are: {}",
                    s.id,
                    new.sides.join(", ")
                ),
            });
        }
    }
    let mod_pw = file
        .moderator
        .password
        .clone()
        .unwrap_or_else(|| config.entropy.password());
    let state = to_json(&new.state)?;
    let first = ruleset.round(&new.state)?;
    let row = GameRow {
        id: file.id.clone(),
        ruleset: ruleset.name().to_string(),
        title: file.title.clone(),
        setup: scenario_text,
        options: to_json(&new.options)?,
        state,
        round: first.number,
        status: GameStatus::Active,
        hold: file.hold,
        moderator_address: file.moderator.address.to_ascii_lowercase(),
        moderator_pw: config.entropy.hash(&mod_pw),
        deadline: first_deadline,
        turn_hours: file.turn_hours,
        timezone: file.timezone.clone(),
        grace_minutes: file.grace_minutes,
        reminder_hours: file.reminder_hours,
        max_turns: new.last_turn,
        failure: None,
    };
    crate::store::games::insert(tx, &row, now)?;
    let game = Game::load(tx, &file.id)?.ok_or_else(|| PostError::NoGame(file.id.clone()))?;
    open_round(tx, &game, seed, seed_hash.clone())?;
    super::press::MailRules::of_file(file).save(tx, &file.id)?;
    for s in &file.sides {
        let pw = s
            .password
            .clone()
            .unwrap_or_else(|| config.entropy.password());
        let side = SideRow {
            side: s.id.clone(),
            address: s.address.to_ascii_lowercase(),
            password: config.entropy.hash(&pw),
            timezone: s.timezone.clone(),
        };
        crate::store::games::insert_side(tx, &file.id, &side)?;
        let welcome = new.welcome.get(&s.id).cloned().unwrap_or_default();
        let text = templates::render(
            "welcome.txt",
            minijinja::context! {
                title => &file.title, game => &file.id, side => &s.id, password => &pw,
                umpire => &config.address, deadline => game.deadline_for(&side),
                round => capitalize_first(&first.label), seed_hash => &seed_hash, address => &s.address,
                rules => welcome.rules, length => welcome.length, briefing => welcome.briefing, example => welcome.example,
            },
        );
        let mut mail = plain(
            config,
            vec![s.address.clone()],
            format!("[{}] Welcome: you command {}", file.id, s.id),
            text,
            None,
        );
        if let Some(svg) = &welcome.picture {
            let png = picture::png(svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
            let name = format!("{}-start", file.id);
            mail.attachments.push(Attachment {
                name: format!("{name}.png"),
                mime: "image/png".into(),
                bytes: png,
            });
            mail.attachments.push(Attachment {
                name: format!("{name}.svg"),
                mime: "image/svg+xml".into(),
                bytes: svg.clone().into_bytes(),
            });
        }
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
    let mail = plain(
        config,
        vec![file.moderator.address.clone()],
        format!("[{}] You moderate this game", file.id),
        text,
        None,
    );
    outbox::queue(
        tx,
        config,
        Some(&file.id),
        Kind::Welcome,
        &mail,
        "moderator",
        now,
    )?;
    audit(tx, now, Some(&file.id), "game created")?;
    Ok(())
}

/// A plain-text mail from the umpire.
///
/// The text opens with the umpire's mark line: a player who replies on top
/// of it, even in a client that quotes without `>`, never has the quoted
/// text (old orders among it) read again.
pub fn plain(
    config: &Config,
    to: Vec<String>,
    subject: String,
    text: String,
    in_reply_to: Option<String>,
) -> Outgoing {
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
        // An answer to someone's mail, or mail umpire makes on its own.
        auto_submitted: if in_reply_to.is_some() {
            AutoSubmitted::Replied
        } else {
            AutoSubmitted::Generated
        },
        in_reply_to,
    }
}

/// Reminders and deadlines for one game. Returns how many rounds were played.
pub fn tick_game(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
    force: bool,
) -> Result<usize, PostError> {
    tick_game_with(tx, config, id, now, force, None)
}

/// [`tick_game`], with the round perhaps worked out ahead (`post::ahead`).
pub fn tick_game_with(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
    force: bool,
    ahead: Option<Ahead>,
) -> Result<usize, PostError> {
    let Some(game) = Game::load(tx, id)? else {
        return Err(PostError::NoGame(id.to_string()));
    };
    if game.row.status != GameStatus::Active || game.row.failure.is_some() {
        return Ok(0);
    }
    // A held report holds the game: nothing of the next round is played.
    if rounds::draft(tx, game.id())?.is_some() {
        return Ok(0);
    }
    let round = game.round()?;
    let due = now >= game.deadline() + Duration::minutes(i64::from(game.row.grace_minutes));
    if let Some(situation) = &round.game_master {
        return game_master_round(tx, config, game, &round.label, situation, now, force, due);
    }
    let sides_in = game.sides_in(tx)?;
    let ready = game.sides_ready(tx)?;
    // A side away whose turns are played without it does not hold the
    // round up, once a side that is not away is ready (post::absence).
    let standing = super::absence::standing_sides(tx, &game, now)?;
    let all_in = round
        .writers
        .iter()
        .all(|s| ready.contains(s) || standing.contains(s))
        && (standing.is_empty() || round.writers.iter().any(|s| ready.contains(s)));
    if due && !force {
        let mut moved = game.clone();
        if super::absence::at_deadline(tx, config, &mut moved, &round, &sides_in, now)? {
            return Ok(0);
        }
    }
    if force || all_in || due {
        play(tx, config, game, now, None, ahead)?;
        return Ok(1);
    }
    if game.row.reminder_hours > 0
        && now >= game.deadline() - Duration::hours(i64::from(game.row.reminder_hours))
    {
        let standbys = super::absence::standing_in(tx, &game, now)?;
        for s in game
            .sides(tx)?
            .iter()
            .filter(|s| round.writers.contains(&s.side) && !sides_in.contains(&s.side))
        {
            if rounds::remind_once(tx, game.id(), round.number, &s.side)? {
                let text = templates::render(
                    "reminder.txt",
                    minijinja::context! { title => &game.row.title, game => game.id(), side => &s.side,
                    round => &round.label, deadline => game.deadline_for(s) },
                );
                let subject = format!(
                    "[{}] {}: orders due",
                    game.id(),
                    capitalize_first(&round.label)
                );
                // A side away has its standby reminded too.
                let mut to = vec![s.address.clone()];
                to.extend(standbys.get(&s.side).cloned());
                let mail = plain(config, to, subject, text, None);
                outbox::queue(
                    tx,
                    config,
                    Some(game.id()),
                    Kind::Reminder,
                    &mail,
                    &format!("{}:{}", round.number, s.side),
                    now,
                )?;
            }
        }
    }
    Ok(0)
}

/// A round the game master answers: played once his answer is in without a
/// refused line (or on the moderator's FORCE, on what he has sent). It is
/// never played at its deadline without him (ruling P19): the game waits;
/// at the reminder time he gets the situation again, and at each missed
/// deadline he is told it is overdue, the players are told the game waits
/// for him, and the deadline moves on by the game's `turn_hours`.
#[allow(clippy::too_many_arguments)]
fn game_master_round(
    tx: &Transaction<'_>,
    config: &Config,
    mut game: Game,
    label: &str,
    situation: &str,
    now: DateTime<Utc>,
    force: bool,
    due: bool,
) -> Result<usize, PostError> {
    let number = game.row.round;
    let ready = submissions::ready_of(tx, game.id(), number, GAME_MASTER)?;
    if force || ready == Some(true) {
        play(tx, config, game, now, None, None)?;
        return Ok(1);
    }
    let gm = game.row.moderator_address.clone();
    if due {
        let missed = game.deadline_text();
        game.row.deadline += Duration::hours(i64::from(game.row.turn_hours));
        game.save(tx)?;
        let key = format!("overdue:{number}:{}", game.row.deadline.timestamp());
        let text = format!(
            "Your answer for {label} of {} ({}) was due by {missed}. The game waits for it: \
             the round is never played without the game master. The new deadline is {}.\n\n{}",
            game.row.title,
            game.id(),
            game.deadline_text(),
            game_master_text(&game, label, situation)
        );
        let mail = plain(
            config,
            vec![gm],
            format!(
                "[{}] {}: your answer is overdue",
                game.id(),
                capitalize_first(label)
            ),
            text,
            None,
        );
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Reminder,
            &mail,
            &key,
            now,
        )?;
        for s in game.sides(tx)? {
            let text = format!(
                "{} ({}): {label} waits for the game master's answer, which was due by \
                 {missed}. Nothing is played without it; the report comes when the phase is \
                 complete.\n",
                game.row.title,
                game.id()
            );
            let mail = plain(
                config,
                vec![s.address.clone()],
                format!("[{}] The game waits for the game master", game.id()),
                text,
                None,
            );
            outbox::queue(
                tx,
                config,
                Some(game.id()),
                Kind::Notice,
                &mail,
                &format!("{key}:{}", s.side),
                now,
            )?;
        }
        audit(
            tx,
            now,
            Some(game.id()),
            &format!("{label}: the game master's answer is overdue; the deadline moves on"),
        )?;
        return Ok(0);
    }
    if game.row.reminder_hours > 0
        && now >= game.deadline() - Duration::hours(i64::from(game.row.reminder_hours))
        && rounds::remind_once(tx, game.id(), number, GAME_MASTER)?
    {
        let text = format!(
            "Your answer for {label} of {} ({}) is due by {}.

{}",
            game.row.title,
            game.id(),
            game.deadline_text(),
            game_master_text(&game, label, situation)
        );
        let mail = plain(
            config,
            vec![gm],
            format!(
                "[{}] {}: your answer is due",
                game.id(),
                capitalize_first(label)
            ),
            text,
            None,
        );
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Reminder,
            &mail,
            &format!("{number}:{GAME_MASTER}"),
            now,
        )?;
    }
    Ok(0)
}

/// The situation as the game master reads it, with how to answer.
fn game_master_text(game: &Game, label: &str, situation: &str) -> String {
    templates::render(
        "game_master.txt",
        minijinja::context! {
            title => &game.row.title, game => game.id(), round => game.row.round,
            label => label, deadline => game.deadline_text(), situation => situation,
        },
    )
}

/// A game's round could not be played: it waits for the moderator, who is
/// told why (`umpire retry GAME` plays it again after a fix).
pub fn failed(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    crate::store::games::set_failure(tx, id, Some(reason))?;
    audit(
        tx,
        now,
        Some(id),
        &format!("the round could not be played: {reason}"),
    )?;
    if let Some(game) = Game::load(tx, id)? {
        let text = format!(
            "umpire could not play the current round of {} ({}):\n\n  {reason}\n\n\
             The game waits until this is mended; the other games go on. After a fix, run\n\n  umpire retry {}\n",
            game.row.title,
            game.id(),
            game.id()
        );
        queue_notice(
            tx,
            config,
            game.id(),
            &game.row.moderator_address,
            format!("[{}] The round could not be played", game.id()),
            text,
            &format!("failed:{}:{}", game.row.round, now.timestamp()),
            now,
        )?;
    }
    Ok(())
}

/// The orders of a round: every side's latest, the sides that were to
/// write and sent nothing, and each side's orders as its confirmation
/// understood them (the report shows them once the round is played).
struct Gathered {
    orders: BTreeMap<String, Json>,
    missing: Vec<String>,
    given: Vec<Section>,
}

/// The latest orders of every side for the current round.
fn gather_orders(
    tx: &Transaction<'_>,
    game: &Game,
    writers: &[String],
) -> Result<Gathered, PostError> {
    let mut orders = BTreeMap::new();
    let mut missing = Vec::new();
    let mut given = Vec::new();
    // A round the game master answers: his answer, under GAME_MASTER.
    if let Some((checked, _)) = submissions::latest(tx, game.id(), game.row.round, GAME_MASTER)? {
        orders.insert(GAME_MASTER.to_string(), from_json("orders", &checked)?);
    }
    for s in game.sides(tx)? {
        match submissions::latest(tx, game.id(), game.row.round, &s.side)? {
            Some((checked, understood)) => {
                let understood: Vec<(String, String)> = from_json("understood", &understood)?;
                given.push(Section {
                    title: s.side.clone(),
                    lines: understood.into_iter().map(|(_, line)| line).collect(),
                });
                orders.insert(s.side, from_json("orders", &checked)?);
            }
            None if writers.contains(&s.side) => missing.push(s.side),
            None => {}
        }
    }
    Ok(Gathered {
        orders,
        missing,
        given,
    })
}

/// What the current `round` of `game` is played from, and its orders as
/// gathered for the report.
fn gather(
    tx: &Transaction<'_>,
    game: &Game,
    round: &games::Round,
) -> Result<(Inputs, Gathered), PostError> {
    let (seed, _) = game.seed(tx)?;
    let gathered = gather_orders(tx, game, &round.writers)?;
    let inputs = Inputs {
        round: round.number,
        seed,
        state: game.state()?,
        options: game.options()?,
        orders: gathered.orders.clone(),
        given: rounds::given_dice(tx, game.id(), round.number)?,
    };
    Ok((inputs, gathered))
}

/// What the current `round` of `game` is played from (`post::ahead`).
///
/// # Errors
/// When the stored game or orders cannot be read.
pub(super) fn inputs(
    tx: &Transaction<'_>,
    game: &Game,
    round: &games::Round,
) -> Result<Inputs, PostError> {
    Ok(gather(tx, game, round)?.0)
}

/// A plain notice about `game` to one address, queued under `tag` (the
/// moderator's "could not be played", a player's hand-over notice…).
///
/// # Errors
/// When the outbox cannot be written.
#[allow(clippy::too_many_arguments)]
pub(crate) fn queue_notice(
    tx: &Transaction<'_>,
    config: &Config,
    game: &str,
    to: &str,
    subject: String,
    text: String,
    tag: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let mail = plain(config, vec![to.to_string()], subject, text, None);
    outbox::queue(tx, config, Some(game), Kind::Notice, &mail, tag, now)?;
    Ok(())
}

/// A round judged again under new rules: the seed of the round after it
/// is kept (its hash was published with the first report), and the report
/// says what it corrects.
struct Correction {
    next_seed: Option<(String, String)>,
    /// `{"first": rules, "now": rules}`, the report's `readjudicated`.
    note: Json,
}

/// Resolve the current round, store everything, queue the report; with a
/// [`Correction`] the round judged again. A round worked out `ahead` is
/// used when it was worked out from the inputs gathered here.
fn play(
    tx: &Transaction<'_>,
    config: &Config,
    mut game: Game,
    now: DateTime<Utc>,
    correction: Option<Correction>,
    ahead: Option<Ahead>,
) -> Result<(), PostError> {
    let (_, seed_hash) = game.seed(tx)?;
    let round = game.round()?;
    let (
        inputs,
        Gathered {
            missing: nmr,
            given: orders_given,
            ..
        },
    ) = gather(tx, &game, &round)?;
    let (resolved, hint) = match ahead.and_then(|a| a.for_inputs(&inputs)) {
        Some(worked) => worked,
        None => {
            let resolved = resolve_stored(
                &game,
                &inputs.state,
                &inputs.options,
                &inputs.orders,
                &inputs.seed,
                &inputs.given,
            )?;
            (resolved, None)
        }
    };
    let Inputs {
        seed,
        state,
        options,
        orders,
        given,
        ..
    } = inputs;
    let played = round.number;
    game.row.state = to_json(&resolved.state)?;
    game.row.deadline += Duration::hours(i64::from(game.row.turn_hours));
    if resolved.ended {
        game.row.status = GameStatus::Ended;
    }
    let next = game.round()?;
    game.row.round = next.number;
    // A round that ends at a question for the game master is reported to
    // him alone; the report the players get when the phase is complete
    // names the seeds of the rounds that led to it.
    let to_game_master = next.game_master.is_some();
    let mut extra = resolved.extra;
    if let Some(result) = resolved.result.filter(|_| resolved.ended) {
        extra.insert(
            GameResult::REPORT_KEY.into(),
            serde_json::to_value(result).map_err(|e| PostError::Corrupt(e.to_string()))?,
        );
    }
    if !orders_given.is_empty() {
        extra.insert(
            "orders_given".into(),
            serde_json::to_value(&orders_given).map_err(|e| PostError::Corrupt(e.to_string()))?,
        );
    }
    if to_game_master {
        extra.insert("to_game_master".into(), Json::Bool(true));
    } else {
        let earlier = earlier_seeds(tx, game.id(), played)?;
        if !earlier.is_empty() {
            extra.insert("earlier_seeds".into(), serde_json::json!(earlier));
        }
    }
    let (next_seed, next_hash) = match correction {
        Some(c) => {
            extra.insert("readjudicated".into(), c.note);
            c.next_seed.unwrap_or_else(|| new_seed(config))
        }
        None => new_seed(config),
    };
    let mut dice = resolved.dice;
    for line in dice.iter_mut() {
        if line
            .split(" = ")
            .next()
            .is_some_and(|k| given.contains_key(k))
        {
            line.push_str(" (the moderator's die)");
        }
    }
    let rep = RoundReport {
        ruleset: game.ruleset.name().to_string(),
        title: game.row.title.clone(),
        game: game.id().to_string(),
        turn: played,
        label: round.label.clone(),
        seed: seed.clone(),
        seed_hash: seed_hash.clone(),
        nmr,
        sections: resolved.sections,
        dice,
        sides: resolved.summary,
        summary_title: resolved.summary_title,
        ended: resolved.ended,
        next_turn: next.number,
        next_label: next.label.clone(),
        deadline: game.deadline_text(),
        next_seed_hash: next_hash.clone(),
        draft: game.row.hold && !to_game_master,
        rejected_seeds: rounds::rejected(tx, game.id(), played)?,
        victory: resolved.victory,
        extra,
    };
    rounds::record(
        tx,
        game.id(),
        played,
        &rounds::Played {
            state_before: to_json(&state)?,
            state_after: game.row.state.clone(),
            orders: to_json(&orders)?,
            events: to_json(&resolved.events)?,
            report: to_json(&rep)?,
            rules: game.ruleset.version(&options),
            moderator_dice: to_json(&given)?,
            released: !rep.draft,
        },
        now,
    )?;
    if !resolved.ended {
        open_round(tx, &game, next_seed, next_hash)?;
    }
    game.save(tx)?;
    // Mail held for the round now open is read again (the caller does, once
    // this is committed); a held report keeps it until it is released, and
    // the game's end lets all of it go, to be told so.
    if resolved.ended {
        crate::store::deferred::release(tx, game.id(), u32::MAX, now)?;
    } else if !game.row.hold {
        crate::store::deferred::release(tx, game.id(), next.number, now)?;
    }
    audit(
        tx,
        now,
        Some(game.id()),
        &format!("{} adjudicated", round.label),
    )?;
    if let Some(situation) = &next.game_master {
        let mut text = game_master_text(&game, &next.label, situation);
        let _ = write!(
            text,
            "\nThe dice of {} (round {played}) came from the seed {seed}; its SHA-256,\n\
             published before the round, was {seed_hash}.\n",
            round.label
        );
        for d in &rep.dice {
            let _ = writeln!(text, "  {d}");
        }
        let mail = plain(
            config,
            vec![game.row.moderator_address.clone()],
            format!(
                "[{}] Round {}: {}",
                game.id(),
                next.number,
                capitalize_first(&next.label)
            ),
            text,
            None,
        );
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Report,
            &mail,
            &format!("{played}:game-master"),
            now,
        )?;
    } else if game.row.hold {
        let pic = Picture::of(&game, &rep, &state, &resolved.state, hint)?;
        let mail = report_mail(config, vec![game.row.moderator_address.clone()], &rep, &pic)?;
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Draft,
            &mail,
            &format!(
                "{played}:{}{}",
                &seed_hash[..12.min(seed_hash.len())],
                correction_tag(&rep)
            ),
            now,
        )?;
    } else {
        mail_report(
            tx,
            config,
            &game,
            played,
            rep,
            &state,
            &resolved.state,
            now,
            hint,
        )?;
    }
    Ok(())
}

/// The seeds (`round N: SEED HASH`) of the rounds before `round` that were
/// reported to the game master alone, back to the last one the players got.
fn earlier_seeds(tx: &Transaction<'_>, game: &str, round: u32) -> Result<Vec<String>, PostError> {
    let mut out = Vec::new();
    for r in (1..round).rev() {
        let Some((rep, _, _)) = stored_report(tx, game, r)? else {
            break;
        };
        if rep.extra.get("to_game_master") != Some(&Json::Bool(true)) {
            break;
        }
        out.push(format!("round {r}: {} {}", rep.seed, rep.seed_hash));
    }
    out.reverse();
    Ok(out)
}

/// The moderator rejected held round `round`: play it again from the same
/// state and orders with a fresh seed, committed now; the report reveals
/// the rejected seed beside the new one. Returns the new seed's hash.
///
/// # Errors
/// When `round` is not the game's held round, or the round cannot be played.
pub fn replay_rejected(
    tx: &Transaction<'_>,
    config: &Config,
    mut game: Game,
    round: u32,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let Some(stored) = rounds::played(tx, game.id(), round)? else {
        return Err(PostError::NoRound {
            game: game.id().to_string(),
            round,
        });
    };
    game.row.state = stored.played.state_before.clone();
    game.row.round = round;
    game.row.status = GameStatus::Active;
    game.row.deadline -= Duration::hours(i64::from(game.row.turn_hours));
    let (seed, hash) = new_seed(config);
    rounds::unplay(tx, game.id(), round, &seed, &hash)?;
    game.save(tx)?;
    play(tx, config, game, now, None, None)?;
    Ok(hash)
}

/// The moderator's `READJUDICATE [turn]` (ruling P20): judge the last
/// round played again under this build's rules, from the same state with
/// the same orders, seed and moderator's dice, and send the corrected
/// report. Only the last round (the later ones were played from its
/// result), only when its rules differ from this build's (else it comes
/// out the same), and only before anyone has written for the round after
/// it (those orders answer the report as it stands). Returns the answer
/// for the moderator.
///
/// # Errors
/// When stored values cannot be read or the round cannot be played.
pub fn readjudicate(
    tx: &Transaction<'_>,
    config: &Config,
    mut game: Game,
    asked: Option<u32>,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let Some(last) = rounds::last_played(tx, game.id())? else {
        return Ok("no turn has been played yet; nothing to re-adjudicate".into());
    };
    if let Some(t) = asked.filter(|&t| t != last) {
        return Ok(format!(
            "turn {t} cannot be re-adjudicated: only the last one played ({last}) can, as every later turn was played from its result; nothing changed"
        ));
    }
    let Some((rep, _, _)) = stored_report(tx, game.id(), last)? else {
        return Err(PostError::NoRound {
            game: game.id().to_string(),
            round: last,
        });
    };
    let Some(stored) = rounds::played(tx, game.id(), last)? else {
        return Err(PostError::NoRound {
            game: game.id().to_string(),
            round: last,
        });
    };
    let now_rules = game.ruleset.version(&game.options()?);
    if stored.played.rules == now_rules {
        return Ok(format!(
            "{} was played under the rules of this build ({now_rules}); judged again with its own seed it would come out the same, so nothing changed",
            rep.label
        ));
    }
    let written = submissions::sides_in(tx, game.id(), last + 1)?;
    if !written.is_empty() {
        return Ok(format!(
            "{} already sent orders for {}, written against the report as it stands; re-adjudicating {} now would change the table under them, so nothing changed",
            written.join(" and "),
            rep.next_label,
            rep.label
        ));
    }
    let first = if stored.played.rules.is_empty() {
        "an earlier build that stored no rules identity".to_string()
    } else {
        stored.played.rules.clone()
    };
    let next_seed = rounds::seed(tx, game.id(), last + 1)?;
    game.row.state = stored.played.state_before.clone();
    game.row.round = last;
    if game.row.status == GameStatus::Ended {
        game.row.status = GameStatus::Active;
    }
    // The next round keeps the deadline it was given.
    game.row.deadline -= Duration::hours(i64::from(game.row.turn_hours));
    rounds::reopen(tx, game.id(), last)?;
    game.save(tx)?;
    let held = game.row.hold;
    play(
        tx,
        config,
        game.clone(),
        now,
        Some(Correction {
            next_seed,
            note: serde_json::json!({ "first": first, "now": now_rules }),
        }),
        None,
    )?;
    audit(
        tx,
        now,
        Some(game.id()),
        &format!("{} re-adjudicated under {now_rules}", rep.label),
    )?;
    let sent = if held {
        "the corrected draft waits for your APPROVE"
    } else {
        "the corrected report is on its way to every player"
    };
    Ok(format!(
        "{} judged again under the rules of this build ({now_rules}); it was first played under {first}. Same orders, same seed ({}); {sent}",
        rep.label, rep.seed
    ))
}

/// What sets a corrected report's mail apart from the first one's, so the
/// outbox does not take it for a copy.
fn correction_tag(rep: &RoundReport) -> String {
    rep.extra
        .get("readjudicated")
        .and_then(|n| n.get("now"))
        .and_then(Json::as_str)
        .map(|now| format!(":corrected:{now}"))
        .unwrap_or_default()
}

/// Resolve a round of `game` from stored values: the state before, each
/// side's orders, the seed and the moderator's dice (used to play a round).
///
/// # Errors
/// When the seed or stored values cannot be read, or the engine cannot play.
pub fn resolve_stored(
    game: &Game,
    state: &Json,
    options: &Json,
    orders: &BTreeMap<String, Json>,
    seed_hex: &str,
    given: &BTreeMap<String, u8>,
) -> Result<games::Resolved, PostError> {
    resolve_round(
        game.ruleset,
        &game.row.setup,
        game.row.max_turns,
        state,
        options,
        orders,
        seed_hex,
        given,
    )
}

/// Resolve a round of a game of `ruleset` created from `setup`: the one
/// way a round is played, by the post office and by `verify` (from the
/// store or from a player's bundle) alike.
///
/// # Errors
/// When the seed or stored values cannot be read, or the engine cannot play.
#[allow(clippy::too_many_arguments)]
pub fn resolve_round(
    ruleset: &dyn games::Ruleset,
    setup: &str,
    last_turn: u32,
    state: &Json,
    options: &Json,
    orders: &BTreeMap<String, Json>,
    seed_hex: &str,
    given: &BTreeMap<String, u8>,
) -> Result<games::Resolved, PostError> {
    let mut dice = ModeratorDice::new(given.clone(), SeededDice::new(seed_bytes(seed_hex)?));
    Ok(ruleset.resolve(RoundInput {
        state,
        options,
        setup,
        last_turn,
        orders,
        dice: &mut dice,
    })?)
}

/// A stored round's report with the states before and after it.
pub fn stored_report(
    tx: &Transaction<'_>,
    game: &str,
    round: u32,
) -> Result<Option<(RoundReport, Json, Json)>, PostError> {
    let Some(stored) = rounds::played(tx, game, round)? else {
        return Ok(None);
    };
    let what = format!("round {round} of {game}");
    Ok(Some((
        from_json(&what, &stored.played.report)?,
        from_json(&what, &stored.played.state_before)?,
        from_json(&what, &stored.played.state_after)?,
    )))
}

/// The extras [`play`] adds to a round's report after the rule set's own
/// (which alone its picture is drawn from).
const OFFICE_EXTRAS: [&str; 5] = [
    GameResult::REPORT_KEY,
    "orders_given",
    "to_game_master",
    "earlier_seeds",
    "readjudicated",
];

/// A round's picture, drawn and rasterised once for every mail of the
/// round (rasterising and compressing were most of a report's cost).
#[derive(Clone)]
pub struct Picture {
    svg: String,
    png: Vec<u8>,
    drawn_from: DrawnFrom,
}

/// What a rule set draws a round's picture from (`Ruleset::picture`):
/// the table before and after, and the report's title, number, label and
/// the rule set's own extras. A picture worked out ahead is used when
/// these are the same, without drawing it again to compare.
#[derive(Clone)]
struct DrawnFrom {
    title: String,
    turn: u32,
    label: String,
    extra: serde_json::Map<String, Json>,
    before: Json,
    after: Json,
}

impl Picture {
    /// The rule set's picture of the round; drawn and rasterised only if
    /// `hint` (a picture rasterised ahead, `post::ahead`) is not drawn
    /// from the same.
    ///
    /// # Errors
    /// When the states cannot be read or the picture cannot be rasterised.
    pub fn of(
        game: &Game,
        rep: &RoundReport,
        before: &Json,
        after: &Json,
        hint: Option<Picture>,
    ) -> Result<Self, PostError> {
        if let Some(hint) = hint.filter(|h| h.drawn_from.is(rep, before, after)) {
            return Ok(hint);
        }
        let svg = game.ruleset.picture(before, after, rep)?;
        let png = picture::png(&svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
        Ok(Picture {
            svg,
            png,
            drawn_from: DrawnFrom {
                title: rep.title.clone(),
                turn: rep.turn,
                label: rep.label.clone(),
                extra: ruleset_extras(rep)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                before: before.clone(),
                after: after.clone(),
            },
        })
    }
}

impl DrawnFrom {
    /// Is this what a picture of `rep`, `before` and `after` is drawn from?
    fn is(&self, rep: &RoundReport, before: &Json, after: &Json) -> bool {
        self.title == rep.title
            && self.turn == rep.turn
            && self.label == rep.label
            && ruleset_extras(rep).count() == self.extra.len()
            && ruleset_extras(rep).all(|(k, v)| self.extra.get(k) == Some(v))
            && self.before == *before
            && self.after == *after
    }
}

/// The report's extras that are the rule set's own.
fn ruleset_extras(rep: &RoundReport) -> impl Iterator<Item = (&String, &Json)> {
    rep.extra
        .iter()
        .filter(|(k, _)| !OFFICE_EXTRAS.contains(&k.as_str()))
}

/// The report as a mail: text and HTML alternatives, the picture inline
/// in the HTML and attached as a PNG, and the SVG attached for printing.
pub fn report_mail(
    config: &Config,
    to: Vec<String>,
    rep: &RoundReport,
    pic: &Picture,
) -> Result<Outgoing, PostError> {
    let cid = format!("table-{}-{}@{}", rep.game, rep.turn, config.domain());
    let label = if rep.label.is_empty() {
        format!("turn {}", rep.turn)
    } else {
        rep.label.clone()
    };
    let corrected = if rep.extra.contains_key("readjudicated") {
        "corrected report"
    } else {
        "report"
    };
    let subject = if rep.draft {
        format!("[{}] DRAFT {corrected} of {label}", rep.game)
    } else {
        format!("[{}] {} of {label}", rep.game, capitalize_first(corrected))
    };
    let file = format!(
        "{}-{}",
        rep.game,
        label.replace([' ', ','], "-").replace("--", "-")
    );
    let mut mail = plain(config, to, subject, rep.text(), None);
    mail.html = Some(rep.html(Some(&format!("cid:{cid}"))));
    mail.show_picture(cid, &file, pic.png.clone(), pic.svg.clone());
    Ok(mail)
}

/// Mail a round's report to every player and the moderator (its picture
/// perhaps rasterised ahead: `hint`).
pub fn release_report(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    round: u32,
    now: DateTime<Utc>,
    hint: Option<Picture>,
) -> Result<(), PostError> {
    let Some((rep, before, after)) = stored_report(tx, game.id(), round)? else {
        return Err(PostError::Corrupt(format!(
            "round {round} of {} has no report",
            game.id()
        )));
    };
    mail_report(tx, config, game, round, rep, &before, &after, now, hint)
}

/// Mail a round's report, `rep` of the tables `before` and `after`: the
/// round just played hands over what it has in hand (not read back and
/// parsed again); [`release_report`] what it reads from the store.
#[allow(clippy::too_many_arguments)]
fn mail_report(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    round: u32,
    mut rep: RoundReport,
    before: &Json,
    after: &Json,
    now: DateTime<Utc>,
    hint: Option<Picture>,
) -> Result<(), PostError> {
    rep.draft = false;
    // The next round's deadline as it stands now (a hold may have moved it).
    let current = rep.turn + 1 == game.row.round || rep.next_turn == game.row.round;
    let standbys = super::absence::standing_in(tx, game, now)?;
    let mut to: Vec<(String, String)> = Vec::new();
    for s in game.sides(tx)? {
        // A side away: its standby reads the report too.
        if let Some(standby) = standbys.get(&s.side) {
            to.push((standby.clone(), game.deadline_text()));
        }
        to.push((s.address.clone(), game.deadline_for(&s)));
    }
    to.push((game.row.moderator_address.clone(), game.deadline_text()));
    let pic = Picture::of(game, &rep, before, after, hint)?;
    // Every player may replay the round without the server (ruling P21).
    let bundle = super::bundle::Bundle::of_report(tx, game, round)?.to_bytes()?;
    for (addr, due) in to {
        if current {
            // Each player reads the next deadline in their own time zone.
            rep.deadline = due;
        }
        let mut mail = report_mail(config, vec![addr.clone()], &rep, &pic)?;
        mail.attachments.push(Attachment {
            name: super::bundle::Bundle::file_name(game.id(), round),
            mime: "application/json".into(),
            bytes: bundle.clone(),
        });
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Report,
            &mail,
            &format!("{round}:{addr}{}", correction_tag(&rep)),
            now,
        )?;
    }
    rounds::release(tx, game.id(), round)?;
    // The last report is out: a league game's result goes to its league,
    // a campaign battle's to its campaign.
    if rep.ended {
        super::league::game_ended(tx, config, game, &rep, now)?;
        super::campaign_games::game_ended(tx, config, game, &rep, after, now)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A picture worked out ahead serves a report that has gained the post
    /// office's extras, and no report drawn from anything else.
    #[test]
    fn a_picture_is_drawn_from_the_states_and_the_rule_sets_own_report() {
        let mut rep = RoundReport {
            title: "Ford".into(),
            turn: 2,
            label: "turn 2".into(),
            ..RoundReport::default()
        };
        rep.extra.insert("charged".into(), json!(["dragons"]));
        let (before, after) = (json!({"turn": 2}), json!({"turn": 3}));
        let from = DrawnFrom {
            title: rep.title.clone(),
            turn: rep.turn,
            label: rep.label.clone(),
            extra: rep.extra.clone(),
            before: before.clone(),
            after: after.clone(),
        };
        assert!(from.is(&rep, &before, &after));
        let mut told = rep.clone();
        for key in OFFICE_EXTRAS {
            told.extra.insert(key.into(), json!(["anything"]));
        }
        assert!(from.is(&told, &before, &after), "the office's extras");
        let mut charged = rep.clone();
        charged.extra.insert("charged".into(), json!([]));
        assert!(!from.is(&charged, &before, &after), "another charge");
        let mut more = rep.clone();
        more.extra.insert("routed".into(), json!(["knights"]));
        assert!(!from.is(&more, &before, &after), "an extra more");
        let mut titled = rep.clone();
        titled.title = "Ford II".into();
        assert!(!from.is(&titled, &before, &after), "another title");
        assert!(!from.is(&rep, &after, &after), "another table before");
        assert!(!from.is(&rep, &before, &before), "another table after");
    }
}
