//! A player away: `ABSENT FROM 2026-12-10 TO 2026-12-20` (both days, in
//! the player's time zone) or `ABSENT CANCEL`. The game file's `[absence]`
//! says what a turn due while the player is away, without their orders,
//! does ([`WhenAbsent`]: its deadline moves to their return, bounded and
//! once a turn; or it is played as for a side without orders), and a
//! side's `standby` is mailed a password of their own, good only while the
//! player is away and only from the standby's address, with which they
//! order for the side; they get the side's reminders and reports meanwhile.
//!
//! Architecture invariant: a standby's password proves nothing outside the
//! absence it was made for, and nothing but the side it was made for; no
//! mail can make anyone else a standby (only the game file names one).

use super::game::Game;
use super::gamefile::WhenAbsent;
use super::letter::{plain, queue_notice};
use super::outbox::{self, Kind};
use super::press::MailRules;
use super::{audit, password, PostError};
use crate::config::Config;
use crate::envelope::Absent;
use crate::games::Round;
use crate::store::absences::{self, Absence};
use crate::store::games::GameStatus;
use crate::store::games::SideRow;
use crate::store::Transaction;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use std::collections::BTreeMap;

/// How far ahead an absence may begin, in days: further is a mistyped year.
pub const MAX_DAYS_AHEAD: i64 = 366;

/// The time zone a side's player reads dates in.
fn zone_of(game: &Game, side: &SideRow) -> Tz {
    side.timezone
        .as_deref()
        .and_then(|z| super::gamefile::zone(z).ok())
        .unwrap_or(game.tz)
}

/// The first instant of `day` in `tz` (the earliest, across a clock change).
fn start_of(day: NaiveDate, tz: Tz) -> DateTime<Utc> {
    let midnight = day.and_hms_opt(0, 0, 0).unwrap_or_default();
    tz.from_local_datetime(&midnight)
        .earliest()
        // No midnight that day (a clock change at 00:00): an hour later.
        .or_else(|| {
            tz.from_local_datetime(&(midnight + Duration::hours(1)))
                .earliest()
        })
        .map_or_else(|| midnight.and_utc(), |t| t.with_timezone(&Utc))
}

/// Why an absence from `from` to `to` cannot be taken when the player's
/// day is `today`, if it cannot.
fn refusal(from: NaiveDate, to: NaiveDate, today: NaiveDate, max_days: u32) -> Option<String> {
    if to < from {
        return Some(format!(
            "the last day ({to}) is before the first ({from}); write the first day first: ABSENT FROM {to} TO {from}"
        ));
    }
    if from < today {
        return Some(format!(
            "{from} has passed (today is {today}); an absence begins today or later"
        ));
    }
    if (from - today).num_days() > MAX_DAYS_AHEAD {
        return Some(format!(
            "{from} is more than {MAX_DAYS_AHEAD} days away; check the year"
        ));
    }
    let days = (to - from).num_days() + 1;
    if days > i64::from(max_days) {
        return Some(format!(
            "{days} days is longer than this game allows ({max_days} days, absence.max_days in the game file); for longer, ask the moderator to REPLACE your side for a while"
        ));
    }
    None
}

/// What becomes of a turn due while the player is away, in words.
fn what_happens(rules: &MailRules) -> String {
    match rules.absence.when {
        WhenAbsent::Extend => format!(
            "a turn due while you are away, without your orders, waits: its deadline moves to your return, by at most {} hours, once a turn",
            rules.absence.extend_hours
        ),
        WhenAbsent::Hold => "a turn due while you are away is played at its deadline; without your orders your units stand (orders you sent for it stand)".to_string(),
        WhenAbsent::General => format!(
            "a turn due while you are away, without your orders, is played for you by the umpire's {} general (orders you send for it replace the general's)",
            rules.absence.general.unwrap_or(crate::sim::Style::Cautious)
        ),
    }
}

/// Answer a player's `ABSENT` line: the line of the reply.
///
/// # Errors
/// On database errors only.
#[allow(clippy::too_many_arguments)]
pub fn declare(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    rules: &MailRules,
    side: &SideRow,
    what: Absent,
    tag: &dyn Fn() -> String,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    // A TIMEZONE earlier in the same mail counts already.
    let tz = game
        .sides(tx)?
        .iter()
        .find(|s| s.side == side.side)
        .map_or_else(|| zone_of(game, side), |s| zone_of(game, s));
    let standby = rules.standby.get(&side.side);
    let (from, to) = match what {
        Absent::Cancel => return cancel(tx, config, game, side, standby, tag, now),
        Absent::Between { from, to } => (from, to),
    };
    let today = now.with_timezone(&tz).date_naive();
    if game.row.status == GameStatus::Ended {
        return Ok(format!(
            "ABSENT: game {} has ended; nothing changed.",
            game.id()
        ));
    }
    if let Some(why) = refusal(from, to, today, rules.absence.max_days) {
        return Ok(format!("ABSENT: {why}. Nothing changed."));
    }
    let away = Away {
        starts: start_of(from, tz),
        ends: start_of(to + Duration::days(1), tz),
        span: format!(
            "from {} to {} (both days, {})",
            from.format("%A %Y-%m-%d"),
            to.format("%A %Y-%m-%d"),
            tz.name()
        ),
    };
    let standby_pw = standby.map(|_| password::fresh(&config.entropy));
    absences::declare(
        tx,
        game.id(),
        &Absence {
            id: 0,
            side: side.side.clone(),
            starts: away.starts,
            ends: away.ends,
            standby_pw: standby_pw
                .as_ref()
                .map(|p| password::hash_from(&config.entropy, p)),
        },
        now,
    )?;
    let mut told = format!(
        "ABSENT: you are away {}; {}.",
        away.span,
        what_happens(rules)
    );
    if let (Some(addr), Some(pw)) = (standby, &standby_pw) {
        let mail = plain(
            config,
            vec![addr.clone()],
            format!("[{}] You stand in for {}", game.id(), side.side),
            standby_letter(game, side, &away, pw),
            None,
        );
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Welcome,
            &mail,
            &tag(),
            now,
        )?;
        told.push_str(&format!(
            " Your standby ({addr}) has been mailed a password of their own to order for {} while you are away; orders you send yourself count as ever.",
            side.side
        ));
    }
    told.push_str(" ABSENT CANCEL when you are back early.");
    queue_notice(
        tx,
        config,
        game.id(),
        &game.row.moderator_address,
        format!("[{}] {} is away", game.id(), side.side),
        moderator_notice(game, side, &away, rules, standby),
        &tag(),
        now,
    )?;
    audit(
        tx,
        now,
        Some(game.id()),
        &format!("side {} is away {}", side.side, away.span),
    )?;
    Ok(told)
}

/// An absence taken: when it begins and ends, and how the mails say so.
struct Away {
    starts: DateTime<Utc>,
    ends: DateTime<Utc>,
    /// "from Thursday 2026-12-10 to … (both days, Europe/Paris)".
    span: String,
}

/// `ABSENT CANCEL`: the absence to come is dropped and its standby, if one
/// was mailed a password, is told it no longer works.
#[allow(clippy::too_many_arguments)]
fn cancel(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    side: &SideRow,
    standby: Option<&String>,
    tag: &dyn Fn() -> String,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let pending = absences::pending(tx, game.id(), &side.side, now)?;
    absences::cancel(tx, game.id(), &side.side, now)?;
    let Some(was) = pending else {
        return Ok("ABSENT CANCEL: you had no absence to come; nothing changed.".into());
    };
    if let (Some(addr), Some(_)) = (standby, &was.standby_pw) {
        queue_notice(
            tx,
            config,
            game.id(),
            addr,
            format!("[{}] No longer needed as standby for {}", game.id(), side.side),
            format!(
                "The player of {} in {} ({}) is back: the password you were mailed to stand in no longer works. Thank you.\n",
                side.side, game.row.title, game.id()
            ),
            &tag(),
            now,
        )?;
    }
    audit(
        tx,
        now,
        Some(game.id()),
        &format!("side {} cancelled its absence", side.side),
    )?;
    Ok("ABSENT CANCEL: your absence is cancelled; turns are yours alone again.".into())
}

/// The standby's letter: the side's header with their own password `pw`,
/// and when it works.
fn standby_letter(game: &Game, side: &SideRow, away: &Away, pw: &str) -> String {
    format!(
        "The player of {side} in {} ({}) is away {}, and the game file names you as the side's standby.\n\n\
         While they are away you may order for {side}, from this address only, with a password of your own:\n\n  \
         GAME {} SIDE {side} PASSWORD {pw}\n\n\
         It works from {} to {} and for nothing else; you get the side's reminders and reports meanwhile. \
         Orders the player sends themselves count as ever: the latest mail counts. Mail HELP for the order guide.\n",
        game.row.title,
        game.id(),
        away.span,
        game.id(),
        super::gamefile::show_deadline(away.starts, game.tz),
        super::gamefile::show_deadline(away.ends, game.tz),
        side = side.side,
    )
}

/// The moderator's notice of an absence: when, what becomes of the turns,
/// and who stands in.
fn moderator_notice(
    game: &Game,
    side: &SideRow,
    away: &Away,
    rules: &MailRules,
    standby: Option<&String>,
) -> String {
    format!(
        "The player of {} in {} ({}) is away {}.\n{}{}\n",
        side.side,
        game.row.title,
        game.id(),
        away.span,
        capitalize(&what_happens(rules))
            .replace("you are", "they are")
            .replace("your ", "their "),
        standby.map_or(String::new(), |a| format!(
            ".\nTheir standby, {a}, was mailed a password to order for the side meanwhile."
        ))
    )
}

fn capitalize(s: &str) -> String {
    crate::report::capitalize_first(s)
}

/// What a mail from a side's standby address proves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// The standby's password, during the absence: they order for the side.
    Standby,
    /// The standby's password before the absence begins.
    Early(DateTime<Utc>),
    /// Not the standby, or not their password: judged as any mail.
    No,
}

/// Whether a mail for `side` from `from` with `given` is its standby's.
///
/// # Errors
/// On database errors.
pub fn proof(
    tx: &Transaction<'_>,
    game: &Game,
    rules: &MailRules,
    side: &SideRow,
    from: &str,
    given: &str,
    now: DateTime<Utc>,
) -> Result<Proof, PostError> {
    if rules.standby.get(&side.side).is_none_or(|a| a != from) {
        return Ok(Proof::No);
    }
    let Some(away) = absences::pending(tx, game.id(), &side.side, now)? else {
        return Ok(Proof::No);
    };
    if !away
        .standby_pw
        .as_deref()
        .is_some_and(|h| password::verify(given, h))
    {
        return Ok(Proof::No);
    }
    Ok(if away.starts > now {
        Proof::Early(away.starts)
    } else {
        Proof::Standby
    })
}

/// The standbys of the sides away at `at`: they get the side's turn mail.
///
/// # Errors
/// On database errors.
pub fn standing_in(
    tx: &Transaction<'_>,
    game: &Game,
    at: DateTime<Utc>,
) -> Result<BTreeMap<String, String>, PostError> {
    let rules = MailRules::load(tx, game.id())?;
    Ok(absences::covering(tx, game.id(), at)?
        .into_iter()
        .filter_map(|a| rules.standby.get(&a.side).map(|s| (a.side, s.clone())))
        .collect())
}

/// Sides away now, without a standby, whose turns the umpire's general
/// plays (`when = "general"`), with its style.
///
/// # Errors
/// On database errors.
pub fn played_by_general(
    tx: &Transaction<'_>,
    game: &Game,
    now: DateTime<Utc>,
) -> Result<Vec<(String, crate::sim::Style)>, PostError> {
    let rules = MailRules::load(tx, game.id())?;
    if rules.absence.when != WhenAbsent::General {
        return Ok(Vec::new());
    }
    let style = rules.absence.general.unwrap_or(crate::sim::Style::Cautious);
    Ok(absences::covering(tx, game.id(), now)?
        .into_iter()
        .filter(|a| !rules.standby.contains_key(&a.side))
        .map(|a| (a.side, style))
        .collect())
}

/// Sides away now whose turns are played without them (`when = "hold"`)
/// and who have no standby: the round need not wait for them.
///
/// # Errors
/// On database errors.
pub fn standing_sides(
    tx: &Transaction<'_>,
    game: &Game,
    now: DateTime<Utc>,
) -> Result<Vec<String>, PostError> {
    let rules = MailRules::load(tx, game.id())?;
    if rules.absence.when != WhenAbsent::Hold {
        return Ok(Vec::new());
    }
    Ok(absences::covering(tx, game.id(), now)?
        .into_iter()
        .filter(|a| !rules.standby.contains_key(&a.side))
        .map(|a| a.side)
        .collect())
}

/// At a round's deadline: when the game moves deadlines for absence and a
/// side that writes is away then without orders for it, the deadline moves
/// to the latest return among them, by at most `extend_hours`, once a
/// round; every player (in their own time) and the moderator are told.
/// True when it moved.
///
/// # Errors
/// On database errors.
pub fn at_deadline(
    tx: &Transaction<'_>,
    config: &Config,
    game: &mut Game,
    round: &Round,
    sides_in: &[String],
    now: DateTime<Utc>,
) -> Result<bool, PostError> {
    let rules = MailRules::load(tx, game.id())?;
    if rules.absence.when != WhenAbsent::Extend {
        return Ok(false);
    }
    let deadline = game.deadline();
    let away: Vec<Absence> = absences::covering(tx, game.id(), deadline)?
        .into_iter()
        .filter(|a| round.writers.contains(&a.side) && !sides_in.contains(&a.side))
        .collect();
    let Some(back) = away.iter().map(|a| a.ends).max() else {
        return Ok(false);
    };
    if !absences::extend_once(tx, game.id(), round.number)? {
        return Ok(false);
    }
    let bound = deadline + Duration::hours(i64::from(rules.absence.extend_hours));
    // Never earlier than now plus an hour: the players have time to write.
    game.row.deadline = back.min(bound).max(now + Duration::hours(1));
    game.save(tx)?;
    let who: Vec<&str> = away.iter().map(|a| a.side.as_str()).collect();
    let why = format!(
        "{} {} away (ABSENT) and without orders for {}: as the game file says, the deadline moves",
        who.join(" and "),
        if who.len() == 1 { "is" } else { "are" },
        round.label
    );
    let mut to: Vec<(String, String)> = game
        .sides(tx)?
        .iter()
        .map(|s| (s.address.clone(), game.deadline_for(s)))
        .collect();
    to.push((game.row.moderator_address.clone(), game.deadline_text()));
    for (addr, due) in to {
        queue_notice(
            tx,
            config,
            game.id(),
            &addr,
            format!("[{}] The deadline moves for an absence", game.id()),
            format!(
                "{} ({}): {why} to {due} (at most {} hours, once a turn).\n",
                game.row.title,
                game.id(),
                rules.absence.extend_hours
            ),
            &format!("absent:{}:{addr}", round.number),
            now,
        )?;
    }
    audit(
        tx,
        now,
        Some(game.id()),
        &format!("{why} to {}", game.deadline_text()),
    )?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, m, d).unwrap()
    }

    #[test]
    fn absences_in_the_past_reversed_or_far_off_are_refused_with_the_reason() {
        let today = day(12, 1);
        assert!(refusal(day(12, 20), day(12, 10), today, 30)
            .unwrap()
            .contains("ABSENT FROM 2026-12-10 TO 2026-12-20"));
        assert!(refusal(day(11, 20), day(12, 10), today, 30)
            .unwrap()
            .contains("2026-11-20 has passed"));
        assert!(refusal(
            NaiveDate::from_ymd_opt(2028, 1, 1).unwrap(),
            NaiveDate::from_ymd_opt(2028, 1, 2).unwrap(),
            today,
            30
        )
        .unwrap()
        .contains("check the year"));
        assert!(refusal(day(12, 1), day(12, 31), today, 30)
            .unwrap()
            .contains("31 days is longer than this game allows (30 days"));
        assert_eq!(refusal(day(12, 1), day(12, 30), today, 30), None);
        assert_eq!(refusal(today, today, today, 1), None);
    }

    #[test]
    fn an_absence_runs_from_midnight_to_midnight_in_the_players_zone() {
        let paris: Tz = "Europe/Paris".parse().unwrap();
        assert_eq!(
            start_of(day(12, 10), paris),
            Utc.with_ymd_and_hms(2026, 12, 9, 23, 0, 0).unwrap()
        );
    }
}
