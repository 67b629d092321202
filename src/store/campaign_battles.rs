//! The campaign's battles by mail (`campaign_battles`, migration 13): the
//! battle game that plays each waiting battle of a campaign, and when its
//! result went back to the campaign (ruling CA-18).

use super::db::{params, Connection, OptionalExtension};
use super::{ts, Result};
use chrono::{DateTime, Utc};

/// Link a waiting battle to its battle game. A battle already linked keeps
/// its game.
///
/// # Errors
/// On database errors.
pub fn insert(
    c: &Connection,
    campaign: &str,
    battle: u32,
    game: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO campaign_battles (campaign_id, battle, game_id, created_at) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
    )?
    .execute(params![campaign, battle, game, ts(now)])?;
    Ok(())
}

/// The battle game of a campaign's battle, if it has one.
///
/// # Errors
/// On database errors.
pub fn game_of(c: &Connection, campaign: &str, battle: u32) -> Result<Option<String>> {
    Ok(c.prepare_cached(
        "SELECT game_id FROM campaign_battles WHERE campaign_id = ?1 AND battle = ?2",
    )?
    .query_row(params![campaign, battle], |r| r.get(0))
    .optional()?)
}

/// The campaign and battle a game plays, while its result has not gone
/// back yet.
///
/// # Errors
/// On database errors.
pub fn open_battle_of(c: &Connection, game: &str) -> Result<Option<(String, u32)>> {
    Ok(c.prepare_cached(
        "SELECT campaign_id, battle FROM campaign_battles \
         WHERE game_id = ?1 AND returned_at IS NULL",
    )?
    .query_row([game], |r| Ok((r.get(0)?, r.get(1)?)))
    .optional()?)
}

/// Mark a battle game's result as gone back to its campaign.
///
/// # Errors
/// On database errors.
pub fn returned(c: &Connection, game: &str, now: DateTime<Utc>) -> Result<()> {
    c.prepare_cached("UPDATE campaign_battles SET returned_at = ?2 WHERE game_id = ?1")?
        .execute(params![game, ts(now)])?;
    Ok(())
}

/// A campaign's battle games, by battle: (battle, game, whether its result
/// went back).
///
/// # Errors
/// On database errors.
pub fn of_campaign(c: &Connection, campaign: &str) -> Result<Vec<(u32, String, bool)>> {
    let mut st = c.prepare_cached(
        "SELECT battle, game_id, returned_at IS NOT NULL FROM campaign_battles \
         WHERE campaign_id = ?1 ORDER BY battle",
    )?;
    let rows = st
        .query_map([campaign], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// A campaign's battle games made at or after `since`, by battle: (battle, game).
///
/// # Errors
/// On database errors.
pub fn started_since(
    c: &Connection,
    campaign: &str,
    since: DateTime<Utc>,
) -> Result<Vec<(u32, String)>> {
    let mut st = c.prepare_cached(
        "SELECT battle, game_id FROM campaign_battles \
         WHERE campaign_id = ?1 AND created_at >= ?2 ORDER BY battle",
    )?;
    let rows = st
        .query_map(params![campaign, ts(since)], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}
