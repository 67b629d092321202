//! Games and rounds: creating a game, reminders, deadlines, resolving a
//! round with a committed seed through the game's rule set, and sending
//! (or holding) the report. Nothing here knows a rule set's turn structure:
//! the rule set says which round the state waits for and who writes it.

use super::ahead::Ahead;
pub use super::drawing::Picture;
use super::game::Game;
use super::gamefile::GameFile;
pub use super::letter::plain;
pub(crate) use super::letter::queue_notice;
use super::outbox::{self, Kind};
use super::resolve::{from_json, gather, resolve_stored, seed_bytes, Gathered, Inputs};
use super::{audit, templates, PostError};
use crate::config::Config;
use crate::games::{self, GameResult, Json, Setup, GAME_MASTER};
use crate::mail::compose::{Attachment, Outgoing};
use crate::report::{capitalize_first, picture, OfficeNotes, Readjudicated, RoundReport, Section};
use crate::store::games::GameStatus;
use crate::store::games::{GameRow, SideRow};
use crate::store::{rounds, submissions, Transaction};
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;
use std::fmt::Write as _;

mod create;
mod game_master;
mod release;

pub use create::create_game;
pub(crate) use create::create_game_of;
use game_master::{game_master_round, game_master_text};
use release::mail_report;
pub use release::{release_report, report_mail, stored_report, to_game_master_before};

/// A fresh secret seed for a round's dice, and its published hash.
fn new_seed(config: &Config) -> (String, String) {
    let seed = config.entropy.seed();
    let hex_seed = hex::encode(seed);
    let hash = crate::dice::seed_hash(&hex_seed);
    (hex_seed, hash)
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, PostError> {
    serde_json::to_string(v).map_err(|e| PostError::Corrupt(e.to_string()))
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
    let Some(game) = Game::lock(tx, id)? else {
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
    // A player away whose turns the general plays: it writes now.
    let stand_ins = super::absence::played_by_general(tx, &game, now)?;
    crate::post::general::write_for(tx, config, &game, &stand_ins, now)?;
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
        // A round only the umpire's generals write is played at once.
        let next = Game::load(tx, id)?.ok_or_else(|| PostError::NoGame(id.to_string()))?;
        if crate::post::general::only_generals_write(tx, &next)? {
            return Ok(1 + tick_game_with(tx, config, id, now, false, None)?);
        }
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
    // Read without the columns that may be what is damaged (a deadline
    // that is no time): the game is set aside and its moderator told all
    // the same, and the other games go on.
    if let Some((id, title, moderator, round)) = crate::store::games::moderator_of(tx, id)? {
        let text = format!(
            "umpire could not play the current round of {title} ({id}):\n\n  {reason}\n\n\
             The game waits until this is mended; the other games go on. After a fix, run\n\n  umpire retry {id}\n"
        );
        queue_notice(
            tx,
            config,
            &id,
            &moderator,
            format!("[{id}] The round could not be played"),
            text,
            &format!("failed:{round}:{}", now.timestamp()),
            now,
        )?;
    }
    Ok(())
}

/// A round judged again under new rules: the seed of the round after it
/// is kept (its hash was published with the first report), and the report
/// says what it corrects.
struct Correction {
    next_seed: Option<(String, String)>,
    /// The builds, the report's `readjudicated`.
    note: Readjudicated,
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
    let (mut resolved, hint) = resolved_for(&game, &inputs, ahead)?;
    let Inputs {
        seed,
        state,
        options,
        orders,
        given,
        ..
    } = inputs;
    let played = round.number;
    let next = advance(&mut game, &resolved)?;
    // A round that ends at a question for the game master is reported to
    // him alone; the report the players get when the phase is complete
    // names the seeds of the rounds that led to it.
    let to_game_master = next.game_master.is_some();
    let mut office = office_notes(
        tx,
        &game,
        resolved.result.take().filter(|_| resolved.ended),
        orders_given,
        to_game_master,
        played,
    )?;
    let (next_seed, next_hash) = next_seed(config, correction, &mut office);
    let dice = marked(std::mem::take(&mut resolved.dice), &given);
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
        office,
        extra: resolved.extra,
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
    if !resolved.ended {
        crate::post::general::write_orders(tx, config, &game, now)?;
    }
    release_held(tx, &game, resolved.ended, next.number, now)?;
    audit(
        tx,
        now,
        Some(game.id()),
        &format!("{} adjudicated", round.label),
    )?;
    let drawn = Drawn {
        before: &state,
        after: &resolved.state,
        hint,
    };
    deliver(tx, config, &game, &next, rep, drawn, now)?;
    Ok(())
}

/// The round resolved: the one worked out ahead when it was worked out
/// from these very inputs (with the picture drawn then), else resolved now.
fn resolved_for(
    game: &Game,
    inputs: &Inputs,
    ahead: Option<Ahead>,
) -> Result<(games::Resolved, Option<Picture>), PostError> {
    if let Some(worked) = ahead.and_then(|a| a.for_inputs(inputs)) {
        return Ok(worked);
    }
    let resolved = resolve_stored(
        game,
        &inputs.state,
        &inputs.options,
        &inputs.orders,
        &inputs.seed,
        &inputs.given,
    )?;
    Ok((resolved, None))
}

/// Move the game (not yet saved) past the round just resolved: its new
/// state, the next deadline, ended if it ended; the round it now waits for.
fn advance(game: &mut Game, resolved: &games::Resolved) -> Result<games::Round, PostError> {
    game.set_state(to_json(&resolved.state)?);
    if resolved.ended {
        game.row.status = GameStatus::Ended;
    }
    let next = game.round()?;
    game.row.deadline += Duration::hours(i64::from(game.hours_of(&next)));
    game.row.round = next.number;
    Ok(next)
}

/// The next round's seed and hash: fresh, or for a re-adjudication the one
/// already published (and the report marked `readjudicated`).
fn next_seed(
    config: &Config,
    correction: Option<Correction>,
    office: &mut OfficeNotes,
) -> (String, String) {
    match correction {
        Some(c) => {
            office.readjudicated = Some(c.note);
            c.next_seed.unwrap_or_else(|| new_seed(config))
        }
        None => new_seed(config),
    }
}

/// Mail held for the round now open is read again (the caller does, once
/// this is committed); a held report keeps it until it is released, and
/// the game's end lets all of it go, to be told so.
fn release_held(
    tx: &Transaction<'_>,
    game: &Game,
    ended: bool,
    next: u32,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    if ended {
        crate::store::deferred::release(tx, game.id(), u32::MAX, now)?;
    } else if !game.row.hold {
        crate::store::deferred::release(tx, game.id(), next, now)?;
    }
    Ok(())
}

/// The post office's notes in a round's report, beside the rule set's own:
/// the result at the end, the orders each side gave as understood, and
/// either that the round goes to the game master alone or the seeds of
/// the game master's rounds on the way to it.
fn office_notes(
    tx: &Transaction<'_>,
    game: &Game,
    result: Option<GameResult>,
    orders_given: Vec<Section>,
    to_game_master: bool,
    played: u32,
) -> Result<OfficeNotes, PostError> {
    let earlier_seeds = if to_game_master {
        Vec::new()
    } else {
        earlier_seeds(tx, game.id(), played)?
    };
    Ok(OfficeNotes {
        result,
        orders_given,
        to_game_master,
        earlier_seeds,
        ..OfficeNotes::default()
    })
}

/// The dice lines of a round, those the moderator gave marked so.
fn marked(mut dice: Vec<String>, given: &BTreeMap<String, u8>) -> Vec<String> {
    for line in dice.iter_mut() {
        if line
            .split(" = ")
            .next()
            .is_some_and(|k| given.contains_key(k))
        {
            line.push_str(" (the moderator's die)");
        }
    }
    dice
}

/// The tables a round's picture is drawn from, and the picture worked out
/// ahead if there is one.
struct Drawn<'a> {
    before: &'a Json,
    after: &'a Json,
    hint: Option<Picture>,
}

/// A round just played goes out: to the game master alone when the next
/// round is his, to the moderator as a draft when reports are held, else
/// to every player and the moderator.
#[allow(clippy::too_many_arguments)]
fn deliver(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    next: &games::Round,
    rep: RoundReport,
    drawn: Drawn<'_>,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let played = rep.turn;
    let (seed, seed_hash) = (&rep.seed, &rep.seed_hash);
    let Drawn {
        before,
        after,
        hint,
    } = drawn;
    if let Some(situation) = &next.game_master {
        let mut text = game_master_text(game, &next.label, situation);
        let _ = write!(
            text,
            "\nThe dice of {} (round {played}) came from the seed {seed}; its SHA-256,\n\
             published before the round, was {seed_hash}.\n",
            rep.label
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
        let pic = Picture::of(game, &rep, before, after, hint)?;
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
        mail_report(tx, config, game, played, rep, before, after, now, hint)?;
    }
    Ok(())
}

/// The seeds (`round N: SEED HASH`) of the rounds before `round` that were
/// reported to the game master alone, back to the last one the players got.
fn earlier_seeds(tx: &Transaction<'_>, game: &str, round: u32) -> Result<Vec<String>, PostError> {
    let mut out: Vec<String> = to_game_master_before(tx, game, round)?
        .into_iter()
        .map(|(r, rep)| format!("round {r}: {} {}", rep.seed, rep.seed_hash))
        .collect();
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
    // The round after it had its deadline moved on by its own hours.
    let back = game.round_hours()?;
    game.set_state(stored.played.state_before.clone());
    game.row.round = round;
    game.row.status = GameStatus::Active;
    game.row.deadline -= Duration::hours(i64::from(back));
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
    let back = game.round_hours()?;
    game.set_state(stored.played.state_before.clone());
    game.row.round = last;
    if game.row.status == GameStatus::Ended {
        game.row.status = GameStatus::Active;
    }
    // The next round keeps the deadline it was given.
    game.row.deadline -= Duration::hours(i64::from(back));
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
            note: Readjudicated {
                first: first.clone(),
                now: now_rules.clone(),
            },
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
    rep.office
        .readjudicated
        .as_ref()
        .map(|n| format!(":corrected:{}", n.now))
        .unwrap_or_default()
}
