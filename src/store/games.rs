//! The `games` and `sides` tables: a game's row (its rule set, state,
//! options and schedule) and its players.

use super::db::{params, Connection, Dialect, OptionalExtension, Read, Statement};
use super::{parse_ts, ts, Result, StoreError};
use chrono::{DateTime, Utc};

/// One game as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub ruleset: String,
    pub title: String,
    /// The scenario the game was created from, as written.
    pub setup: String,
    /// The rule set's options, as JSON.
    pub options: String,
    /// The rule set's state, as JSON.
    pub state: String,
    /// The round the game is taking orders for.
    pub round: u32,
    pub status: GameStatus,
    pub hold: bool,
    pub moderator_address: String,
    pub moderator_pw: String,
    pub deadline: DateTime<Utc>,
    pub turn_hours: u32,
    /// Hours the game master has for a round he answers (the game file's
    /// `gm_hours`); `None`: the players' `turn_hours`.
    pub gm_hours: Option<u32>,
    pub timezone: String,
    pub grace_minutes: u32,
    pub reminder_hours: u32,
    pub max_turns: u32,
    /// Why the game's last round could not be played, until the moderator
    /// retries it (read only: see [`set_failure`]).
    pub failure: Option<String>,
}

#[cfg(test)]
impl GameRow {
    /// An active game `id` of the Hyborean Age at `round`, its state
    /// `state` and its deadline `deadline`, for tests.
    pub(crate) fn example(id: &str, state: &str, round: u32, deadline: DateTime<Utc>) -> GameRow {
        GameRow {
            id: id.into(),
            ruleset: "hyborian-age".into(),
            title: "G".into(),
            setup: String::new(),
            options: "{}".into(),
            state: state.into(),
            round,
            status: GameStatus::Active,
            hold: false,
            moderator_address: "m@example.org".into(),
            moderator_pw: String::new(),
            deadline,
            turn_hours: 24,
            gm_hours: None,
            timezone: "UTC".into(),
            grace_minutes: 0,
            reminder_hours: 0,
            max_turns: 10,
            failure: None,
        }
    }
}

/// Where a game stands: taking orders, paused by its moderator, or over.
/// Stored as its word (`active`, `paused`, `ended`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    Active,
    Paused,
    Ended,
}

impl GameStatus {
    /// The word stored and shown to players.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Paused => "paused",
            GameStatus::Ended => "ended",
        }
    }

    /// The status a stored word names.
    ///
    /// # Errors
    /// A word that is none of the three (a damaged row).
    pub fn parse(word: &str) -> Result<Self> {
        [GameStatus::Active, GameStatus::Paused, GameStatus::Ended]
            .into_iter()
            .find(|s| s.as_str() == word)
            .ok_or_else(|| StoreError::Corrupt(format!("game status '{word}'")))
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One side of a game and its player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideRow {
    pub side: String,
    pub address: String,
    /// The password's hash.
    pub password: String,
    /// The player's own time zone (`Europe/Paris`); `None`: the game's.
    pub timezone: Option<String>,
    /// The style of the umpire's general who plays the side (`aggressive`),
    /// `None` for a player's side. A general's side has no address and
    /// gets no mail.
    pub general: Option<String>,
}

impl SideRow {
    /// Whether a person plays the side, who is mailed its turns.
    pub fn mailed(&self) -> bool {
        self.general.is_none()
    }
}

const COLUMNS: &str =
    "id, ruleset, title, setup, options, state, round, status, hold, moderator_address, \
     moderator_pw, deadline, turn_hours, timezone, grace_minutes, reminder_hours, max_turns, gm_hours";

/// Create a game's row.
///
/// # Errors
/// On database errors (a game with that id exists).
pub fn insert(c: &Connection, g: &GameRow, now: DateTime<Utc>) -> Result<()> {
    c.prepare_cached(&format!("INSERT INTO games ({COLUMNS}, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"))?
        .execute(params![
            g.id, g.ruleset, g.title, g.setup, g.options, g.state, g.round, g.status.as_str(), g.hold, g.moderator_address,
            g.moderator_pw, ts(g.deadline), g.turn_hours, g.timezone, g.grace_minutes, g.reminder_hours, g.max_turns,
            g.gm_hours, ts(now)
        ])?;
    Ok(())
}

/// The game of that id (matched ignoring case).
///
/// # Errors
/// On database errors or a damaged row.
pub fn load(c: &Connection, id: &str) -> Result<Option<GameRow>> {
    // Kept for the transaction: a message's handling and a round's play
    // read their game again and again (`store::kept`).
    load_by(c.prepare_cached(&load_sql())?.kept("games"), id)
}

/// The statement [`load`] reads a game with.
fn load_sql() -> String {
    format!("SELECT {COLUMNS}, failure FROM games WHERE lower(id) = lower(?1)")
}

/// [`load`], the row locked until the transaction ends: on PostgreSQL an
/// update that changes nothing (`SET round = round`), so it is both the
/// row lock that keeps every other worker's handling or round of this game
/// waiting (`Store::write_with_locks`) and a new version of the row, which
/// a serializable transaction that read the game before this one
/// committed cannot then lock or write (it is refused and done again, not
/// left working from what it read). On SQLite, whose write transactions
/// are taken whole, the same statement as [`load`].
///
/// # Errors
/// On database errors or a damaged row.
pub fn load_locked(c: &Connection, id: &str) -> Result<Option<GameRow>> {
    match c.dialect() {
        Dialect::Sqlite => load(c, id),
        // The row as [`load`] would read it next, kept for it.
        Dialect::Postgres => load_by(
            c.prepare_cached(&format!(
                "UPDATE games SET round = round WHERE lower(id) = lower(?1) RETURNING {COLUMNS}, failure"
            ))?
            .kept_as("games", &load_sql()),
            id,
        ),
    }
}

/// What a message's handling and a round's play read of a game just
/// locked (`load_locked`), whose row says it is at `round`, read ahead:
/// on PostgreSQL one round trip for its sides, mail rules, draft report
/// and which sides are ready, which they would otherwise ask one after
/// the other (issue 43). For a `sender`'s mail, (the side it names, its
/// address): that side's lockout and latest orders too.
///
/// # Errors
/// On database errors.
pub fn read_ahead_locked(
    c: &Connection,
    game: &str,
    round: u32,
    sender: Option<(&str, &str)>,
) -> Result<()> {
    let mut reads = vec![
        sides_read(c, game)?,
        super::press::rules_read(c, game)?,
        super::rounds::draft_read(c, game)?,
        super::submissions::sides_ready_read(c, game, round)?,
    ];
    if let Some((side, address)) = sender {
        reads.push(lockout_read(c, game, side, address)?);
        reads.push(super::submissions::latest_read(c, game, round, side)?);
    }
    c.read_ahead(&reads)?;
    Ok(())
}

/// The game row `statement` returns for `id` (its columns as [`load`]
/// reads them).
fn load_by(mut statement: Statement<'_>, id: &str) -> Result<Option<GameRow>> {
    let row = statement
        .query_row([id], |r| {
            Ok((
                GameRow {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    title: r.get(2)?,
                    setup: r.get(3)?,
                    options: r.get(4)?,
                    state: r.get(5)?,
                    round: r.get(6)?,
                    status: GameStatus::Active,
                    hold: r.get(8)?,
                    moderator_address: r.get(9)?,
                    moderator_pw: r.get(10)?,
                    deadline: DateTime::<Utc>::MIN_UTC,
                    turn_hours: r.get(12)?,
                    timezone: r.get(13)?,
                    grace_minutes: r.get(14)?,
                    reminder_hours: r.get(15)?,
                    max_turns: r.get(16)?,
                    gm_hours: r.get(17)?,
                    failure: r.get(18)?,
                },
                r.get::<_, String>(11)?,
                r.get::<_, String>(7)?,
            ))
        })
        .optional()?;
    row.map(|(mut g, deadline, status)| {
        g.deadline = parse_ts(&deadline).map_err(|_| {
            StoreError::Corrupt(format!(
                "game {}: its deadline '{deadline}' is not a time; mend the game's row in the store (or restore a backup), then run `umpire retry {}`",
                g.id, g.id
            ))
        })?;
        g.status = GameStatus::parse(&status)?;
        Ok(g)
    })
    .transpose()
}

/// Who to tell about a game whatever else its row holds: its id, title,
/// moderator's address and round, read without the columns that could be
/// damaged (a deadline that is no time), so a game that cannot be loaded
/// can still be set aside and its moderator told.
///
/// # Errors
/// On database errors.
pub fn moderator_of(c: &Connection, id: &str) -> Result<Option<(String, String, String, u32)>> {
    Ok(c.prepare_cached(
        "SELECT id, title, moderator_address, round FROM games WHERE lower(id) = lower(?1)",
    )?
    .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
    .optional()?)
}

/// Store what changes as a game goes on: state, round, status, deadline, hold.
///
/// # Errors
/// On database errors.
pub fn save(c: &Connection, g: &GameRow) -> Result<()> {
    let n = c
        .prepare_cached("UPDATE games SET state = ?2, round = ?3, status = ?4, deadline = ?5, hold = ?6 WHERE id = ?1")?
        .execute(params![g.id, g.state, g.round, g.status.as_str(), ts(g.deadline), g.hold])?;
    if n == 1 {
        Ok(())
    } else {
        Err(StoreError::Corrupt(format!("no game {} to save", g.id)))
    }
}

/// The games taking orders (and not waiting for the moderator after a
/// failure), in id order.
///
/// # Errors
/// On database errors.
pub fn active(c: &Connection) -> Result<Vec<String>> {
    let mut st = c.prepare_cached(
        "SELECT id FROM games WHERE status = 'active' AND failure IS NULL ORDER BY id",
    )?;
    let ids = st
        .query_map([], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(ids)
}

/// Every game's id, in order.
///
/// # Errors
/// On database errors.
pub fn ids(c: &Connection) -> Result<Vec<String>> {
    let mut st = c.prepare_cached("SELECT id FROM games ORDER BY id")?;
    let ids = st
        .query_map([], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(ids)
}

/// Every game as the club's web pages show it, in one query: its id,
/// round, status, stored deadline and released rounds. The pages are
/// written again only when these change (`post::site`).
///
/// # Errors
/// On database errors.
pub fn marks(c: &Connection) -> Result<Vec<String>> {
    let mut st = c.prepare_cached(
        "SELECT g.id, g.round, g.status, g.deadline, \
         (SELECT count(*) FROM rounds r WHERE r.game_id = g.id AND r.released = 1 AND r.report IS NOT NULL) \
         FROM games g ORDER BY g.id",
    )?;
    let marks = st
        .query_map([], |r| {
            Ok(format!(
                "{} {} {} {} {}",
                r.get::<_, String>(0)?,
                r.get::<_, u32>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?
            ))
        })?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(marks)
}

/// Every game an address plays in (or moderates), in id order.
///
/// # Errors
/// On database errors.
pub fn of_address(c: &Connection, address: &str) -> Result<Vec<String>> {
    let mut st = c.prepare_cached(
        "SELECT game_id FROM sides WHERE lower(address) = lower(?1) \
         UNION SELECT id FROM games WHERE lower(moderator_address) = lower(?1) ORDER BY 1",
    )?;
    let ids = st
        .query_map([address], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(ids)
}

/// Add a side and its player to a game.
///
/// # Errors
/// On database errors (the side exists).
pub fn insert_side(c: &Connection, game: &str, s: &SideRow) -> Result<()> {
    c.prepare_cached("INSERT INTO sides (game_id, side, address, password, timezone, general) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
        .execute(params![game, s.side, s.address, s.password, s.timezone, s.general])?;
    Ok(())
}

/// The read of a game's sides ([`sides`]), kept for the transaction.
fn sides_read<'c>(c: &'c Connection, game: &str) -> Result<Read<'c>> {
    Ok(c.prepare_cached(
        "SELECT side, address, password, timezone, general FROM sides WHERE game_id = ?1 ORDER BY side",
    )?
    .kept("sides")
    .with([game]))
}

/// A game's sides, in id order.
///
/// # Errors
/// On database errors.
pub fn sides(c: &Connection, game: &str) -> Result<Vec<SideRow>> {
    let rows = sides_read(c, game)?
        .query_map(|r| {
            Ok(SideRow {
                side: r.get(0)?,
                address: r.get(1)?,
                password: r.get(2)?,
                timezone: r.get(3)?,
                general: r.get(4)?,
            })
        })?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Set a side's own time zone (`None`: the game's).
///
/// # Errors
/// On database errors.
pub fn set_timezone(c: &Connection, game: &str, side: &str, zone: Option<&str>) -> Result<()> {
    c.prepare_cached("UPDATE sides SET timezone = ?3 WHERE game_id = ?1 AND side = ?2")?
        .execute(params![game, side, zone])?;
    Ok(())
}

/// Give a side a new player's address. Returns false when the game has no such side.
///
/// # Errors
/// On database errors.
pub fn set_address(c: &Connection, game: &str, side: &str, address: &str) -> Result<bool> {
    let n = c
        .prepare_cached(
            "UPDATE sides SET address = ?3, general = NULL WHERE game_id = ?1 AND lower(side) = lower(?2)",
        )?
        .execute(params![game, side, address])?;
    Ok(n == 1)
}

/// Hand a side to the umpire's general of `style`: it has no address
/// from now on. Whether the side was found.
///
/// # Errors
/// On database errors.
pub fn set_general(c: &Connection, game: &str, side: &str, style: &str) -> Result<bool> {
    let n = c
        .prepare_cached(
            "UPDATE sides SET address = '', general = ?3 WHERE game_id = ?1 AND lower(side) = lower(?2)",
        )?
        .execute(params![game, side, style])?;
    Ok(n == 1)
}

/// Record why a game's round could not be played (the game waits for the
/// moderator), or clear it with `None`.
///
/// # Errors
/// On database errors.
pub fn set_failure(c: &Connection, id: &str, reason: Option<&str>) -> Result<()> {
    c.prepare_cached("UPDATE games SET failure = ?2 WHERE id = ?1")?
        .execute(params![id, reason])?;
    Ok(())
}

/// Games whose last tick failed, with the reason, in id order.
///
/// # Errors
/// On database errors.
pub fn failed(c: &Connection) -> Result<Vec<(String, String)>> {
    let mut st =
        c.prepare_cached("SELECT id, failure FROM games WHERE failure IS NOT NULL ORDER BY id")?;
    let rows = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Record a wrong password given for a side from an address; returns how
/// many that address gave for the side since `since`.
///
/// # Errors
/// On database errors.
pub fn wrong_password(
    c: &Connection,
    game: &str,
    side: &str,
    address: &str,
    now: DateTime<Utc>,
    since: DateTime<Utc>,
) -> Result<i64> {
    c.prepare_cached(
        "INSERT INTO password_failures (game_id, side, address, at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![game, side, address, ts(now)])?;
    Ok(c.prepare_cached("SELECT COUNT(*) FROM password_failures WHERE game_id = ?1 AND side = ?2 AND address = ?3 AND at >= ?4")?
        .query_row(params![game, side, address, ts(since)], |r| r.get(0))?)
}

/// Stop reading mail for a side from an address until `until`; false when
/// it was stopped already.
///
/// # Errors
/// On database errors.
pub fn lock(
    c: &Connection,
    game: &str,
    side: &str,
    address: &str,
    until: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<bool> {
    if locked_until(c, game, side, address, now)?.is_some() {
        return Ok(false);
    }
    c.prepare_cached(
        "INSERT INTO lockouts (game_id, side, address, until) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT (game_id, side, address) DO UPDATE SET until = excluded.until",
    )?
    .execute(params![game, side, address, ts(until)])?;
    Ok(true)
}

/// Until when mail for a side from an address is not read, if it is not now.
///
/// # Errors
/// On database errors or a damaged row.
pub fn locked_until(
    c: &Connection,
    game: &str,
    side: &str,
    address: &str,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>> {
    let until: Option<String> = lockout_read(c, game, side, address)?
        .query_row(|r| r.get(0))
        .optional()?;
    Ok(until
        .map(|u| parse_ts(&u))
        .transpose()?
        .filter(|u| *u > now))
}

/// The read of [`locked_until`], kept for the transaction.
fn lockout_read<'c>(c: &'c Connection, game: &str, side: &str, address: &str) -> Result<Read<'c>> {
    Ok(c.prepare_cached(
        "SELECT until FROM lockouts WHERE game_id = ?1 AND lower(side) = lower(?2) AND address = ?3",
    )?
    .kept("lockouts")
    .with(params![game, side, address]))
}

/// Lift every lockout of a side and forget its wrong passwords.
///
/// # Errors
/// On database errors.
pub fn unlock(c: &Connection, game: &str, side: &str) -> Result<()> {
    c.prepare_cached("DELETE FROM lockouts WHERE game_id = ?1 AND lower(side) = lower(?2)")?
        .execute(params![game, side])?;
    c.prepare_cached(
        "DELETE FROM password_failures WHERE game_id = ?1 AND lower(side) = lower(?2)",
    )?
    .execute(params![game, side])?;
    Ok(())
}

/// Store a new password hash for a side (`(moderator)` for the moderator's).
///
/// # Errors
/// On database errors.
pub fn set_password(c: &Connection, game: &str, side: &str, hash: &str) -> Result<()> {
    if side == "(moderator)" {
        c.prepare_cached("UPDATE games SET moderator_pw = ?2 WHERE id = ?1")?
            .execute(params![game, hash])?;
    } else {
        c.prepare_cached("UPDATE sides SET password = ?3 WHERE game_id = ?1 AND side = ?2")?
            .execute(params![game, side, hash])?;
    }
    Ok(())
}
