//! Checking a played turn: replay it from the stored state, orders and
//! the revealed seed, and compare every event with what was reported.
//! This is the procedure players can run on their own copy of umpire
//! (`umpire verify GAME TURN`).

use super::game::Game;
use super::{PostError, PostOffice};
use crate::games::hyborian::orders::plan::TurnOrders;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::Table;
use rusqlite::{params, OptionalExtension};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

impl PostOffice {
    /// The current table of a game.
    ///
    /// # Errors
    /// When there is no such game.
    pub fn table_of(&mut self, game: &str) -> Result<Table, PostError> {
        self.store.write(|tx| {
            Game::load(tx, game)?
                .map(|g| g.table)
                .ok_or_else(|| PostError::NoGame(game.to_string()))
        })
    }
}

fn json<T: serde::de::DeserializeOwned>(what: &str, s: &str) -> Result<T, PostError> {
    serde_json::from_str(s).map_err(|e| PostError::Corrupt(format!("{what}: {e}")))
}

/// Replay turn `turn` of `game` and say whether it matches what was reported.
///
/// # Errors
/// When the game or turn does not exist or was not played yet.
pub fn verify_turn(po: &PostOffice, game: &str, turn: u32) -> Result<(String, bool), PostError> {
    type Row = (String, String, Option<String>, Option<String>, Option<String>, Option<String>, String, Option<String>);
    let row: Option<Row> = po
        .store
        .conn()
        .query_row(
            "SELECT t.seed, t.seed_hash, t.state_before, t.orders, t.events, t.state_after, g.options, t.moderator_dice \
             FROM turns t JOIN games g ON g.id = t.game_id WHERE lower(t.game_id) = lower(?1) AND t.turn = ?2",
            params![game, turn],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?)),
        )
        .optional()?;
    let Some((seed, hash, Some(before), Some(orders), Some(events), Some(after), options, given)) = row else {
        return Err(PostError::NoGame(format!("{game} has no played turn {turn}")));
    };
    let mut out = String::new();
    let hash_ok = hex::encode(Sha256::digest(seed.as_bytes())) == hash;
    let _ = writeln!(out, "Turn {turn} of {game}: seed {seed}");
    let _ = writeln!(out, "  SHA-256 of the seed {} the hash published before the turn ({hash})", if hash_ok { "matches" } else { "DOES NOT match" });
    let table: Table = json("state before", &before)?;
    let orders: TurnOrders = json("orders", &orders)?;
    let options: GameOptions = json("options", &options)?;
    let given: std::collections::BTreeMap<String, u8> = match given {
        Some(g) => json("moderator's dice", &g)?,
        None => Default::default(),
    };
    if !given.is_empty() {
        let list: Vec<String> = given.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let _ = writeln!(out, "  the moderator supplied: {}", list.join(" "));
    }
    let replay = super::turn::adjudicate_stored(&table, &orders, &options, &seed, &given)?;
    let replayed_events = serde_json::to_string(&replay.events).map_err(|e| PostError::Corrupt(e.to_string()))?;
    let replayed_after = serde_json::to_string(&replay.table).map_err(|e| PostError::Corrupt(e.to_string()))?;
    let events_ok = replayed_events == events;
    let after_ok = replayed_after == after;
    let _ = writeln!(out, "  {} events replayed: {}", replay.events.len(), if events_ok { "every roll and result matches" } else { "THEY DIFFER from the report" });
    let _ = writeln!(out, "  table after the turn: {}", if after_ok { "matches" } else { "DIFFERS" });
    Ok((out, hash_ok && events_ok && after_ok))
}
