//! The `absences` and `absence_extensions` tables: the spans a player said
//! they are away (`ABSENT FROM … TO …`), with the hash of the password their
//! standby was mailed, and the rounds whose deadline an absence moved.

use super::db::{params, Connection, OptionalExtension};
use super::{parse_ts, ts, Result};
use chrono::{DateTime, Utc};

/// One absence as stored: from `starts` (included) to `ends` (excluded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Absence {
    pub id: i64,
    pub side: String,
    pub starts: DateTime<Utc>,
    pub ends: DateTime<Utc>,
    /// The hash of the password mailed to the side's standby, if it has one.
    pub standby_pw: Option<String>,
}

/// Store an absence of `side`, cancelling every one of its absences not
/// yet over (a player is away once at a time). Returns its id.
///
/// # Errors
/// On database errors.
pub fn declare(c: &Connection, game: &str, a: &Absence, now: DateTime<Utc>) -> Result<i64> {
    cancel(c, game, &a.side, now)?;
    Ok(c.prepare_cached(
        "INSERT INTO absences (game_id, side, starts, ends, standby_pw, declared_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
    )?
    .query_row(params![game, a.side, ts(a.starts), ts(a.ends), a.standby_pw, ts(now)], |r| r.get(0))?)
}

/// Cancel the absences of `side` not yet over. Returns how many there were.
///
/// # Errors
/// On database errors.
pub fn cancel(c: &Connection, game: &str, side: &str, now: DateTime<Utc>) -> Result<usize> {
    Ok(c
        .prepare_cached(
            "UPDATE absences SET cancelled_at = ?3 WHERE game_id = ?1 AND side = ?2 AND cancelled_at IS NULL AND ends > ?3",
        )?
        .execute(params![game, side, ts(now)])?)
}

/// The absences of `game` (every side) not cancelled that cover `at`.
///
/// # Errors
/// On database errors or a damaged time.
pub fn covering(c: &Connection, game: &str, at: DateTime<Utc>) -> Result<Vec<Absence>> {
    let rows: Vec<(i64, String, String, String, Option<String>)> = c
        .prepare_cached(
            "SELECT id, side, starts, ends, standby_pw FROM absences \
             WHERE game_id = ?1 AND cancelled_at IS NULL AND starts <= ?2 AND ends > ?2 ORDER BY side, id",
        )?
        .query_map(params![game, ts(at)], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<super::db::Result<_>>()?;
    rows.into_iter()
        .map(|(id, side, starts, ends, standby_pw)| {
            Ok(Absence {
                id,
                side,
                starts: parse_ts(&starts)?,
                ends: parse_ts(&ends)?,
                standby_pw,
            })
        })
        .collect()
}

/// The absence of `side` not cancelled that is not yet over, if any.
///
/// # Errors
/// On database errors or a damaged time.
pub fn pending(
    c: &Connection,
    game: &str,
    side: &str,
    now: DateTime<Utc>,
) -> Result<Option<Absence>> {
    let row: Option<(i64, String, String, Option<String>)> = c
        .prepare_cached(
            "SELECT id, starts, ends, standby_pw FROM absences \
             WHERE game_id = ?1 AND side = ?2 AND cancelled_at IS NULL AND ends > ?3 ORDER BY id DESC LIMIT 1",
        )?
        .query_row(params![game, side, ts(now)], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .optional()?;
    row.map(|(id, starts, ends, standby_pw)| {
        Ok(Absence {
            id,
            side: side.to_string(),
            starts: parse_ts(&starts)?,
            ends: parse_ts(&ends)?,
            standby_pw,
        })
    })
    .transpose()
}

/// Mark round `round` of `game` as moved for an absence; false when it
/// was already (a round's deadline moves for absence once).
///
/// # Errors
/// On database errors.
pub fn extend_once(c: &Connection, game: &str, round: u32) -> Result<bool> {
    Ok(c.prepare_cached(
        "INSERT INTO absence_extensions (game_id, round) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
    )?
    .execute(params![game, round])?
        == 1)
}
