//! Club leagues in the post office: `umpire league new FILE` stores a
//! league, `umpire league pair LEAGUE` makes a round's games (real games,
//! through the same [`round::create_game`](super::round::create_game) as `umpire game new`, so each
//! player gets a welcome), results come in when a league game's last
//! report is released ([`game_ended`]: the rule set's result, or a forfeit
//! for too many rounds without orders) or from the moderator (`umpire
//! league result`), and the standings are mailed to every member through
//! the outbox and written to the web export with each member's games.
//!
//! The pairings, points and ratings are the pure functions of
//! [`crate::league`]; the standings are replayed from the stored results
//! in the order they were recorded, never kept as running totals.
//!
//! ```no_run
//! # use umpire::post::{league, PostOffice};
//! # fn f(po: &mut PostOffice, now: chrono::DateTime<chrono::Utc>) -> Result<(), umpire::post::PostError> {
//! let file = league::load(std::path::Path::new("leagues/winter.toml"))?;
//! league::create(po, &file, now)?;
//! print!("{}", league::pair(po, "winter", None, now)?);
//! print!("{}", league::standings_text(po, "winter")?);
//! # Ok(()) }
//! ```

mod load;
mod pair;
mod results;
mod standings;

pub use load::{load, Loaded};
pub use pair::pair;
pub use results::enter_result;
pub(crate) use results::game_ended;
pub(crate) use standings::site_page;
pub use standings::{export, standings_json, standings_text};

use super::{audit, PostError, PostOffice};
use crate::league::standings::{standings, Entry, Table};
use crate::league::{Score, Settings};
use crate::store::leagues::{self as rows, BoardRow, LeagueRow, MemberRow};
use crate::store::Transaction;
use chrono::{DateTime, Duration, DurationRound, Utc};
use std::path::PathBuf;

/// The score code of a bye.
const BYE: &str = "bye";

/// A stored league, read.
struct League {
    row: LeagueRow,
    settings: Settings,
    games: Vec<PathBuf>,
    members: Vec<MemberRow>,
    boards: Vec<BoardRow>,
}

impl League {
    fn load(tx: &Transaction<'_>, id: &str) -> Result<League, PostError> {
        let row = rows::load(tx, id)?.ok_or_else(|| {
            let known = rows::ids(tx).unwrap_or_default();
            PostError::League(if known.is_empty() {
                format!("no league called '{id}': there is none yet (umpire league new FILE)")
            } else {
                format!(
                    "no league called '{id}'; the leagues are {}",
                    known.join(", ")
                )
            })
        })?;
        let corrupt = |e: serde_json::Error| PostError::Corrupt(format!("league {}: {e}", row.id));
        let settings = serde_json::from_str(&row.settings).map_err(corrupt)?;
        let games = serde_json::from_str(&row.games).map_err(corrupt)?;
        let members = rows::members(tx, &row.id)?;
        let boards = rows::boards(tx, &row.id)?;
        Ok(League {
            row,
            settings,
            games,
            members,
            boards,
        })
    }

    fn names(&self) -> Vec<String> {
        self.members.iter().map(|m| m.name.clone()).collect()
    }

    fn name_of(&self, seat: u32) -> &str {
        self.members
            .get(seat as usize)
            .map_or("?", |m| m.name.as_str())
    }

    /// The results in the order they were recorded.
    fn entries(&self) -> Vec<Entry> {
        let mut done: Vec<&BoardRow> = self
            .boards
            .iter()
            .filter(|b| b.recorded.is_some())
            .collect();
        done.sort_by_key(|b| b.recorded);
        done.into_iter()
            .filter_map(|b| match (b.score.as_deref(), b.second_seat) {
                (Some(BYE), _) => Some(Entry::Bye {
                    member: b.first_seat as usize,
                }),
                (Some(code), Some(second)) => Score::from_code(code).map(|score| Entry::Game {
                    first: b.first_seat as usize,
                    second: second as usize,
                    score,
                }),
                _ => None,
            })
            .collect()
    }

    fn table(&self) -> Table {
        standings(&self.names(), &self.settings, &self.entries())
    }

    fn paired(&self) -> u32 {
        self.boards.iter().map(|b| b.round).max().unwrap_or(0)
    }
}

/// Store a league from its checked file.
///
/// # Errors
/// When a league of that id exists, or on database errors.
pub fn create(po: &mut PostOffice, loaded: &Loaded, now: DateTime<Utc>) -> Result<(), PostError> {
    let f = &loaded.file;
    let row = LeagueRow {
        id: f.id.clone(),
        name: f.name.clone(),
        moderator: f.moderator.address.to_ascii_lowercase(),
        settings: serde_json::to_string(&f.settings())
            .map_err(|e| PostError::Corrupt(e.to_string()))?,
        games: serde_json::to_string(&loaded.games)
            .map_err(|e| PostError::Corrupt(e.to_string()))?,
    };
    let members: Vec<MemberRow> = f
        .members
        .iter()
        .enumerate()
        .map(|(seat, m)| MemberRow {
            seat: seat as u32,
            name: m.name.trim().to_string(),
            address: m.address.to_ascii_lowercase(),
            prefers: m.prefers.clone(),
            timezone: m.timezone.clone(),
        })
        .collect();
    po.store.write(|tx| {
        if let Some(old) = rows::load(tx, &f.id)? {
            return Err(PostError::League(format!(
                "a league called '{}' already exists: give the new one another id",
                old.id
            )));
        }
        rows::insert(tx, &row, &members, now)?;
        audit(
            tx,
            now,
            None,
            &format!("league {} created with {} members", f.id, members.len()),
        )
    })
}

/// The next round's first deadline: `hours` from now, on the hour, as a
/// game file writes it in zone `tz`.
pub(crate) fn first_deadline(now: DateTime<Utc>, hours: u32, tz: chrono_tz::Tz) -> String {
    let at = now + Duration::hours(i64::from(hours));
    let on_the_hour = at
        .duration_trunc(Duration::hours(1))
        .map(|t| if t < at { t + Duration::hours(1) } else { t })
        .unwrap_or(at);
    on_the_hour
        .with_timezone(&tz)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_rounds_first_deadline_is_on_the_hour_after_the_start_hours() {
        let now = Utc.with_ymd_and_hms(2026, 12, 1, 9, 17, 0).unwrap();
        assert_eq!(first_deadline(now, 48, chrono_tz::UTC), "2026-12-03 10:00");
        assert_eq!(
            first_deadline(now, 48, chrono_tz::Europe::Paris),
            "2026-12-03 11:00"
        );
        let sharp = Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap();
        assert_eq!(first_deadline(sharp, 1, chrono_tz::UTC), "2026-12-01 10:00");
    }
}
