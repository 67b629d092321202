//! The `rounds` table: each round's committed seed, and once played, the
//! state before and after, the orders, the events, the report, and the
//! moderator's dice (table `moderator_dice`).

use super::db::{params, Connection, OptionalExtension, Read};
use super::{ts, Result};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// A round opened for orders: its seed is fixed (and its hash published)
/// before anyone writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub round: u32,
    pub label: String,
    /// The sides that write this round, as JSON (a list).
    pub writers: String,
    pub seed: String,
    pub seed_hash: String,
}

/// A round as played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub state_before: String,
    pub state_after: String,
    /// Each side's orders, as JSON (an object by side).
    pub orders: String,
    pub events: String,
    pub report: String,
    /// The rules' identity it was played under.
    pub rules: String,
    pub moderator_dice: String,
    pub released: bool,
}

/// A played round as stored, with its seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub seed: String,
    pub seed_hash: String,
    pub played: Played,
}

/// Open a round.
///
/// # Errors
/// On database errors (the round exists).
pub fn open(c: &Connection, game: &str, r: &Opened) -> Result<()> {
    c.prepare_cached("INSERT INTO rounds (game_id, round, label, writers, seed, seed_hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")?
        .execute(params![game, r.round, r.label, r.writers, r.seed, r.seed_hash])?;
    Ok(())
}

/// The seed and its hash of a round.
///
/// # Errors
/// On database errors.
pub fn seed(c: &Connection, game: &str, round: u32) -> Result<Option<(String, String)>> {
    Ok(seed_read(c, game, round)?
        .query_row(|r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// The read of a round's seed ([`seed`]), kept for the transaction: a
/// round's play asks it more than once.
fn seed_read<'c>(c: &'c Connection, game: &str, round: u32) -> Result<Read<'c>> {
    Ok(
        c.prepare_cached("SELECT seed, seed_hash FROM rounds WHERE game_id = ?1 AND round = ?2")?
            .kept("rounds")
            .with(params![game, round]),
    )
}

/// What a round's play is worked out from, read ahead (issue 43): on
/// PostgreSQL one round trip for its seed, the moderator's dice and the
/// latest orders of each of `sides` (the game master's too, when named),
/// which the play would otherwise ask one after the other.
///
/// # Errors
/// On database errors.
pub fn read_ahead_inputs(c: &Connection, game: &str, round: u32, sides: &[&str]) -> Result<()> {
    let mut reads = vec![seed_read(c, game, round)?, given_dice_read(c, game, round)?];
    for side in sides {
        reads.push(super::submissions::latest_read(c, game, round, side)?);
    }
    c.read_ahead(&reads)?;
    Ok(())
}

/// Record a round as played.
///
/// # Errors
/// On database errors.
pub fn record(
    c: &Connection,
    game: &str,
    round: u32,
    p: &Played,
    now: DateTime<Utc>,
) -> Result<()> {
    // Sent with the next statement on PostgreSQL (its answer not needed).
    c.execute_ahead(
        "UPDATE rounds SET state_before = ?3, state_after = ?4, orders = ?5, events = ?6, report = ?7, rules = ?8, \
         moderator_dice = ?9, released = ?10, adjudicated_at = ?11 WHERE game_id = ?1 AND round = ?2",
        params![game, round, p.state_before, p.state_after, p.orders, p.events, p.report, p.rules, p.moderator_dice, p.released, ts(now)],
    )?;
    Ok(())
}

/// A played round (matched ignoring the game id's case).
///
/// # Errors
/// On database errors.
pub fn played(c: &Connection, game: &str, round: u32) -> Result<Option<Stored>> {
    type Row = (
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        bool,
    );
    let row: Option<Row> = c
        .prepare_cached(
            "SELECT seed, seed_hash, state_before, state_after, orders, events, report, rules, moderator_dice, released \
             FROM rounds WHERE lower(game_id) = lower(?1) AND round = ?2",
        )?
        .query_row(params![game, round], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?))
        })
        .optional()?;
    Ok(match row {
        Some((
            seed,
            seed_hash,
            Some(state_before),
            Some(state_after),
            Some(orders),
            Some(events),
            Some(report),
            rules,
            dice,
            released,
        )) => Some(Stored {
            seed,
            seed_hash,
            played: Played {
                state_before,
                state_after,
                orders,
                events,
                report,
                rules: rules.unwrap_or_default(),
                moderator_dice: dice.unwrap_or_else(|| "{}".into()),
                released,
            },
        }),
        _ => None,
    })
}

/// The first played round whose report is held for the moderator.
///
/// # Errors
/// On database errors.
pub fn draft(c: &Connection, game: &str) -> Result<Option<u32>> {
    Ok(draft_read(c, game)?.query_row(|r| r.get(0)).optional()?)
}

/// The read of a game's first held report ([`draft`]), kept for the
/// transaction.
pub(super) fn draft_read<'c>(c: &'c Connection, game: &str) -> Result<Read<'c>> {
    Ok(c.prepare_cached("SELECT round FROM rounds WHERE game_id = ?1 AND adjudicated_at IS NOT NULL AND released = 0 ORDER BY round LIMIT 1")?
        .kept("rounds")
        .with(params![game]))
}

/// Undo a held round so it can be played again with a fresh seed: its
/// results are dropped, its old seed and hash are kept (revealed in the
/// report of the replay), and the round opened after it is removed.
///
/// # Errors
/// On database errors.
pub fn unplay(c: &Connection, game: &str, round: u32, seed: &str, seed_hash: &str) -> Result<()> {
    let old: Option<(String, String, Option<String>)> = c
        .prepare_cached(
            "SELECT seed, seed_hash, rejected FROM rounds WHERE game_id = ?1 AND round = ?2",
        )?
        .query_row(params![game, round], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()?;
    if let Some((old_seed, old_hash, rejected)) = old {
        // A JSON list of "seed hash" strings, the oldest first.
        let mut list: Vec<String> = match rejected {
            Some(text) => serde_json::from_str(&text).map_err(|e| {
                super::StoreError::Corrupt(format!("rejected seeds of {game} round {round}: {e}"))
            })?,
            None => Vec::new(),
        };
        list.push(format!("{old_seed} {old_hash}"));
        let rejected =
            serde_json::to_string(&list).map_err(|e| super::StoreError::Corrupt(e.to_string()))?;
        c.prepare_cached(
            "UPDATE rounds SET rejected = ?5, seed = ?3, seed_hash = ?4, \
             state_before = NULL, state_after = NULL, orders = NULL, events = NULL, report = NULL, released = 0, adjudicated_at = NULL \
             WHERE game_id = ?1 AND round = ?2",
        )?
        .execute(params![game, round, seed, seed_hash, rejected])?;
    }
    c.prepare_cached("DELETE FROM rounds WHERE game_id = ?1 AND round > ?2")?
        .execute(params![game, round])?;
    Ok(())
}

/// Undo the last played round so it can be judged again with its own seed
/// (a re-adjudication under new rules): its results are dropped, its seed,
/// hash and the moderator's dice stay, and the round opened after it is
/// removed (it is opened again from the new result).
///
/// # Errors
/// On database errors.
pub fn reopen(c: &Connection, game: &str, round: u32) -> Result<()> {
    c.prepare_cached(
        "UPDATE rounds SET state_before = NULL, state_after = NULL, orders = NULL, events = NULL, report = NULL, \
         released = 0, adjudicated_at = NULL WHERE game_id = ?1 AND round = ?2",
    )?
    .execute(params![game, round])?;
    c.prepare_cached("DELETE FROM rounds WHERE game_id = ?1 AND round > ?2")?
        .execute(params![game, round])?;
    Ok(())
}

/// A read of `column` of a played round (matched ignoring the game id's
/// case): one whose states, orders, events and report are all there, as
/// [`played`] asks.
macro_rules! played_round {
    ($column:literal) => {
        concat!(
            "SELECT ",
            $column,
            " FROM rounds WHERE lower(game_id) = lower(?1) AND round = ?2 \
             AND state_before IS NOT NULL AND state_after IS NOT NULL AND orders IS NOT NULL \
             AND events IS NOT NULL AND report IS NOT NULL"
        )
    };
}

/// Whether a played round has been released (`None`: not played), as
/// [`played`] would say, without reading its states and report: a
/// message's handling asks it of the round before, and those are most of
/// a round's bytes (on PostgreSQL, out of the server's TOAST).
///
/// # Errors
/// On database errors.
pub fn is_released(c: &Connection, game: &str, round: u32) -> Result<Option<bool>> {
    Ok(c.prepare_cached(played_round!("released"))?
        .query_row(params![game, round], |r| r.get(0))
        .optional()?)
}

/// A played round's report alone (`None`: not played), as [`played`]
/// would give it, without its states: a report is sent with the rounds
/// before it that went to the game master alone, and finding them reads
/// only their reports.
///
/// # Errors
/// On database errors.
pub fn report(c: &Connection, game: &str, round: u32) -> Result<Option<String>> {
    Ok(c.prepare_cached(played_round!("report"))?
        .query_row(params![game, round], |r| r.get(0))
        .optional()?)
}

/// The last round of a game that was played, if any.
///
/// # Errors
/// On database errors.
pub fn last_played(c: &Connection, game: &str) -> Result<Option<u32>> {
    Ok(
        c.prepare_cached(
            "SELECT max(round) FROM rounds WHERE game_id = ?1 AND report IS NOT NULL",
        )?
        .query_row(params![game], |r| r.get(0))?,
    )
}

/// The seeds a round was played with before the moderator rejected it:
/// `SEED HASH` each, oldest first.
///
/// # Errors
/// On database errors.
pub fn rejected(c: &Connection, game: &str, round: u32) -> Result<Vec<String>> {
    let text: Option<String> = c
        .prepare_cached("SELECT rejected FROM rounds WHERE game_id = ?1 AND round = ?2")?
        .query_row(params![game, round], |r| r.get(0))
        .optional()?
        .flatten();
    Ok(text
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default())
}

/// Mark a played round's report released to the players.
///
/// # Errors
/// On database errors.
pub fn release(c: &Connection, game: &str, round: u32) -> Result<()> {
    c.execute_ahead(
        "UPDATE rounds SET released = 1 WHERE game_id = ?1 AND round = ?2",
        params![game, round],
    )?;
    Ok(())
}

/// The rounds of a game whose report was released, in order.
///
/// # Errors
/// On database errors.
pub fn released(c: &Connection, game: &str) -> Result<Vec<u32>> {
    let mut st = c.prepare_cached(
        "SELECT round FROM rounds WHERE lower(game_id) = lower(?1) AND released = 1 AND report IS NOT NULL ORDER BY round",
    )?;
    let rounds = st
        .query_map([game], |r| r.get(0))?
        .collect::<super::db::Result<Vec<u32>>>()?;
    Ok(rounds)
}

/// Record a die the moderator gives for a round (replacing one given before).
///
/// # Errors
/// On database errors.
pub fn give_die(c: &Connection, game: &str, round: u32, key: &str, value: u32) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO moderator_dice (game_id, round, key, value) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT (game_id, round, key) DO UPDATE SET value = excluded.value",
    )?
    .execute(params![game, round, key, value])?;
    Ok(())
}

/// The dice the moderator gave for a round.
///
/// # Errors
/// On database errors.
pub fn given_dice(c: &Connection, game: &str, round: u32) -> Result<BTreeMap<String, u8>> {
    let rows = given_dice_read(c, game, round)?
        .query_map(|r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<super::db::Result<BTreeMap<String, u8>>>()?;
    Ok(rows)
}

/// The read of [`given_dice`], kept for the transaction.
fn given_dice_read<'c>(c: &'c Connection, game: &str, round: u32) -> Result<Read<'c>> {
    Ok(
        c.prepare_cached(
            "SELECT key, value FROM moderator_dice WHERE game_id = ?1 AND round = ?2",
        )?
        .kept("moderator_dice")
        .with(params![game, round]),
    )
}

/// Note that a side was reminded of a round; false when it already was.
///
/// # Errors
/// On database errors.
pub fn remind_once(c: &Connection, game: &str, round: u32, side: &str) -> Result<bool> {
    let n = c
        .prepare_cached(
            "INSERT INTO reminders (game_id, round, side) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        )?
        .execute(params![game, round, side])?;
    Ok(n == 1)
}

/// Every played round of a game, in order: its number, who was to write
/// (JSON list; none in a database older than migration 5) and its report (JSON), for reading who sent no orders.
///
/// # Errors
/// On database errors.
pub fn played_writers(c: &Connection, game: &str) -> Result<Vec<(u32, Option<String>, String)>> {
    Ok(c
        .prepare_cached(
            "SELECT round, writers, report FROM rounds WHERE lower(game_id) = lower(?1) AND report IS NOT NULL ORDER BY round",
        )?
        .query_map([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<super::db::Result<_>>()?)
}
