//! The league tables: `leagues` (the league's rules as JSON, its game
//! files), `league_members` (by seat, the seeding order) and
//! `league_games` (each round's boards: a game or a bye, the sides dealt,
//! the result once recorded, numbered in the order recorded).
//!
//! The store does not read the rules' JSON: `post::league` hands it text.

use super::db::{params, Connection, OptionalExtension};
use super::{parse_ts, ts, Result};
use chrono::{DateTime, Utc};

/// A league's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueRow {
    pub id: String,
    pub name: String,
    /// The moderator's address (lower case).
    pub moderator: String,
    /// JSON of `league::Settings`.
    pub settings: String,
    /// JSON list of the game files' paths.
    pub games: String,
}

/// One member, at their seat (0 for the first listed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRow {
    pub seat: u32,
    pub name: String,
    pub address: String,
    pub prefers: Option<String>,
    pub timezone: Option<String>,
}

/// One board of a round: a game between two seats, or a bye (no game, no
/// second seat).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRow {
    pub round: u32,
    pub board: u32,
    pub game: Option<String>,
    pub first_seat: u32,
    pub second_seat: Option<u32>,
    pub first_side: Option<String>,
    pub second_side: Option<String>,
    /// The result's code (`league::Score`), `bye`, or none yet.
    pub score: Option<String>,
    /// Where the result came from: `board`, `nmr`, `moderator`, `pairing`.
    pub how: Option<String>,
    /// The result's place in the order results were recorded.
    pub recorded: Option<u32>,
    pub recorded_at: Option<DateTime<Utc>>,
}

/// Store a new league and its members.
///
/// # Errors
/// On database errors (a league of that id exists: a constraint error).
pub fn insert(
    c: &Connection,
    row: &LeagueRow,
    members: &[MemberRow],
    now: DateTime<Utc>,
) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO leagues (id, name, moderator, settings, games, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![row.id, row.name, row.moderator, row.settings, row.games, ts(now)])?;
    for m in members {
        c.prepare_cached(
            "INSERT INTO league_members (league_id, seat, name, address, prefers, timezone) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![row.id, m.seat, m.name, m.address, m.prefers, m.timezone])?;
    }
    Ok(())
}

/// The league called `id` (ignoring case).
///
/// # Errors
/// On database errors.
pub fn load(c: &Connection, id: &str) -> Result<Option<LeagueRow>> {
    Ok(c.prepare_cached(
        "SELECT id, name, moderator, settings, games FROM leagues WHERE lower(id) = lower(?1)",
    )?
    .query_row([id], |r| {
        Ok(LeagueRow {
            id: r.get(0)?,
            name: r.get(1)?,
            moderator: r.get(2)?,
            settings: r.get(3)?,
            games: r.get(4)?,
        })
    })
    .optional()?)
}

/// Every league's id, in order.
///
/// # Errors
/// On database errors.
pub fn ids(c: &Connection) -> Result<Vec<String>> {
    Ok(c.prepare_cached("SELECT id FROM leagues ORDER BY id")?
        .query_map([], |r| r.get(0))?
        .collect::<super::db::Result<_>>()?)
}

/// A league's members, by seat.
///
/// # Errors
/// On database errors.
pub fn members(c: &Connection, league: &str) -> Result<Vec<MemberRow>> {
    Ok(c
        .prepare_cached(
            "SELECT seat, name, address, prefers, timezone FROM league_members WHERE league_id = ?1 ORDER BY seat",
        )?
        .query_map([league], |r| {
            Ok(MemberRow {
                seat: r.get(0)?,
                name: r.get(1)?,
                address: r.get(2)?,
                prefers: r.get(3)?,
                timezone: r.get(4)?,
            })
        })?
        .collect::<super::db::Result<_>>()?)
}

const BOARD_COLUMNS: &str = "round, board, game_id, first_seat, second_seat, first_side, second_side, score, how, recorded, recorded_at";

fn board(r: &super::db::Row) -> super::db::Result<(BoardRow, Option<String>)> {
    Ok((
        BoardRow {
            round: r.get(0)?,
            board: r.get(1)?,
            game: r.get(2)?,
            first_seat: r.get(3)?,
            second_seat: r.get(4)?,
            first_side: r.get(5)?,
            second_side: r.get(6)?,
            score: r.get(7)?,
            how: r.get(8)?,
            recorded: r.get(9)?,
            recorded_at: None,
        },
        r.get(10)?,
    ))
}

fn with_time((mut b, at): (BoardRow, Option<String>)) -> Result<BoardRow> {
    b.recorded_at = at.as_deref().map(parse_ts).transpose()?;
    Ok(b)
}

/// Every board of a league, by round and board.
///
/// # Errors
/// On database errors.
pub fn boards(c: &Connection, league: &str) -> Result<Vec<BoardRow>> {
    let rows = c
        .prepare_cached(&format!(
            "SELECT {BOARD_COLUMNS} FROM league_games WHERE league_id = ?1 ORDER BY round, board"
        ))?
        .query_map([league], board)?
        .collect::<super::db::Result<Vec<_>>>()?;
    rows.into_iter().map(with_time).collect()
}

/// The league and board a game is played on, if it is a league game.
///
/// # Errors
/// On database errors.
pub fn of_game(c: &Connection, game: &str) -> Result<Option<(String, BoardRow)>> {
    let row = c
        .prepare_cached(&format!(
            "SELECT {BOARD_COLUMNS}, league_id FROM league_games WHERE lower(game_id) = lower(?1)"
        ))?
        .query_row([game], |r| Ok((board(r)?, r.get::<_, String>(11)?)))
        .optional()?;
    match row {
        Some((b, league)) => Ok(Some((league, with_time(b)?))),
        None => Ok(None),
    }
}

/// Store a board of a round (a bye comes with its score, `bye`, recorded).
///
/// # Errors
/// On database errors.
pub fn insert_board(c: &Connection, league: &str, b: &BoardRow) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO league_games (league_id, round, board, game_id, first_seat, second_seat, first_side, second_side, score, how, recorded, recorded_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        league,
        b.round,
        b.board,
        b.game,
        b.first_seat,
        b.second_seat,
        b.first_side,
        b.second_side,
        b.score,
        b.how,
        b.recorded,
        b.recorded_at.map(ts)
    ])?;
    Ok(())
}

/// The number the next recorded result takes.
///
/// # Errors
/// On database errors.
pub fn next_recorded(c: &Connection, league: &str) -> Result<u32> {
    Ok(c.prepare_cached(
        "SELECT COALESCE(MAX(recorded), 0) + 1 FROM league_games WHERE league_id = ?1",
    )?
    .query_row([league], |r| r.get(0))?)
}

/// Record the result of board `board` of `round`: a first result takes the
/// next number in the order of results; a correction keeps the number the
/// first had, so the ratings replay in the same order.
///
/// # Errors
/// On database errors.
pub fn record(
    c: &Connection,
    league: &str,
    round: u32,
    board: u32,
    score: &str,
    how: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    let next = next_recorded(c, league)?;
    c.prepare_cached(
        "UPDATE league_games SET score = ?4, how = ?5, recorded = COALESCE(recorded, ?6), recorded_at = ?7 \
         WHERE league_id = ?1 AND round = ?2 AND board = ?3",
    )?
    .execute(params![league, round, board, score, how, next, ts(now)])?;
    Ok(())
}
