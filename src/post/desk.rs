//! The moderator's desk on the command line: every game at a glance
//! (`umpire games`), one game in full (`umpire game show ID`) and its log
//! (`umpire log ID`), so nobody needs SQL to see what the service is doing.

use super::game::Game;
use super::handle::status_text;
use super::{PostError, PostOffice};
use crate::store::games::GameStatus;
use crate::store::{self, rounds};
use std::fmt::Write as _;

/// One line a game: id, rule set, title, state, round and deadline, and
/// whatever waits for the moderator.
///
/// # Errors
/// On database errors.
pub fn games(po: &mut PostOffice) -> Result<String, PostError> {
    po.store.write(|tx| {
        let mut out = String::new();
        let ids = store::games::ids(tx)?;
        if ids.is_empty() {
            out.push_str("No games yet: `umpire game new GAMEFILE` creates one.\n");
        }
        for id in ids {
            let Some(g) = Game::load(tx, &id)? else {
                continue;
            };
            let ready = g.sides_ready(tx)?.len();
            let sides = g.sides(tx)?.len();
            let mut line = format!(
                "{id:<16} {:<15} {:<8} {}",
                g.row.ruleset, g.row.status, g.row.title
            );
            if g.row.status != GameStatus::Ended {
                let _ = write!(
                    line,
                    " — {}, due {}, {ready} of {sides} sides ready",
                    g.round()?.label,
                    g.deadline_text()
                );
            }
            if let Some(t) = rounds::draft(tx, &id)? {
                let _ = write!(line, "; turn {t} held for approval");
            }
            if let Some(why) = &g.row.failure {
                let _ = write!(line, "; FAILED: {why}");
            }
            out.push_str(&line);
            out.push('\n');
        }
        Ok(out)
    })
}

/// A game in full: what STATUS tells players, then the sides and their
/// addresses, the rounds played, failed messages and the latest log lines.
///
/// # Errors
/// When there is no such game, or on database errors.
pub fn show(po: &mut PostOffice, id: &str) -> Result<String, PostError> {
    let failed = store::messages::failed(po.store.conn())?;
    po.store.write(|tx| {
        let g = Game::load(tx, id)?.ok_or_else(|| PostError::NoGame(id.to_string()))?;
        let mut out = status_text(tx, &g, None)?;
        let _ = writeln!(out, "\nRule set: {}; moderator: {}; {} hours a turn, {} minutes' grace, reminders {} hours before",
            g.row.ruleset, g.row.moderator_address, g.row.turn_hours, g.row.grace_minutes, g.row.reminder_hours);
        let _ = writeln!(out, "Sides:");
        for s in g.sides(tx)? {
            match &s.general {
                Some(style) => writeln!(out, "  {}: the umpire's {style} general", s.side),
                None => writeln!(out, "  {}: {}", s.side, s.address),
            }
            .ok();
        }
        let rules = super::press::MailRules::load(tx, g.id())?;
        let now = chrono::Utc::now();
        let _ = writeln!(
            out,
            "Press: {} ({:?} in the game file{}); absence: {:?}, at most {} hours a turn, {} days",
            if rules.press_on() { "on" } else { "off" },
            rules.press,
            match rules.press_by_moderator {
                Some(on) => format!(", turned {} by the moderator", if on { "on" } else { "off" }),
                None => String::new(),
            },
            rules.absence.when,
            rules.absence.extend_hours,
            rules.absence.max_days
        );
        for s in g.sides(tx)? {
            let standby = rules.standby.get(&s.side);
            if let Some(a) = store::absences::pending(tx, g.id(), &s.side, now)? {
                let _ = writeln!(
                    out,
                    "  {} away {} to {}{}",
                    s.side,
                    g.time_for(a.starts, &s),
                    g.time_for(a.ends, &s),
                    standby.map_or(String::new(), |b| format!(" (standby {b})"))
                );
            } else if let Some(b) = standby {
                let _ = writeln!(out, "  {} has a standby: {b}", s.side);
            }
        }
        let press = store::press::of_game(tx, g.id())?;
        let _ = writeln!(out, "Press sent: {}", press.len());
        for p in press.iter().rev().take(10).rev() {
            let first = p.body.lines().next().unwrap_or("");
            let cut: String = first.chars().take(60).collect();
            let _ = writeln!(
                out,
                "  turn {}: {}{} to {}: {cut}{}",
                p.round,
                p.sender,
                if p.grey { " (grey)" } else { "" },
                p.readers,
                if cut.len() < p.body.len() { " …" } else { "" }
            );
        }
        let played = rounds::released(tx, g.id())?;
        let _ = writeln!(out, "Reports released: {}", if played.is_empty() { "none yet".to_string() } else { format!("{played:?}") });
        if let Some(why) = &g.row.failure {
            let _ = writeln!(out, "The current round FAILED: {why}\n  (after a fix: umpire retry {})", g.id());
        }
        let mine: Vec<_> = failed.iter().filter(|m| m.reason.contains(g.id())).collect();
        for m in &mine {
            let _ = writeln!(out, "Failed message {} ({}): {} (umpire retry {})", m.id, m.received_at, m.reason, m.id);
        }
        let _ = writeln!(out, "Latest log:");
        for (at, text) in store::log_of(tx, g.id(), 10)? {
            let _ = writeln!(out, "  {at}  {text}");
        }
        Ok(out)
    })
}

/// A game's log, the latest `limit` lines, oldest first.
///
/// # Errors
/// When there is no such game, or on database errors.
pub fn log(po: &mut PostOffice, id: &str, limit: u32) -> Result<String, PostError> {
    po.store.write(|tx| {
        let g = Game::load(tx, id)?.ok_or_else(|| PostError::NoGame(id.to_string()))?;
        let mut out = String::new();
        for (at, text) in store::log_of(tx, g.id(), limit)? {
            let _ = writeln!(out, "{at}  {text}");
        }
        if out.is_empty() {
            out.push_str("Nothing logged yet.\n");
        }
        Ok(out)
    })
}
