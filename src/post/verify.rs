//! Checking a played round: replay it from the stored state, orders and
//! the revealed seed, and compare every event with what was reported.
//! This is the procedure players can run on their own copy of umpire
//! (`umpire verify GAME TURN`).

use super::game::Game;
use super::{PostError, PostOffice};
use crate::games::Json;
use crate::store::rounds;
use std::collections::BTreeMap;
use std::fmt::Write as _;

impl PostOffice {
    /// The current state of a game and its rule set's name.
    ///
    /// # Errors
    /// When there is no such game.
    pub fn state_of(&mut self, game: &str) -> Result<(&'static str, Json), PostError> {
        self.store.write(|tx| {
            let g = Game::load(tx, game)?.ok_or_else(|| PostError::NoGame(game.to_string()))?;
            Ok((g.ruleset.name(), g.state()?))
        })
    }
}

fn json<T: serde::de::DeserializeOwned>(what: &str, s: &str) -> Result<T, PostError> {
    serde_json::from_str(s).map_err(|e| PostError::Corrupt(format!("{what}: {e}")))
}

/// Replay round `round` of `game` and say whether it matches what was reported.
///
/// # Errors
/// When the game or round does not exist or was not played yet.
pub fn verify_turn(
    po: &mut PostOffice,
    game: &str,
    round: u32,
) -> Result<(String, bool), PostError> {
    po.store.write(|tx| {
        let g = Game::load(tx, game)?.ok_or_else(|| PostError::NoGame(game.to_string()))?;
        let Some(stored) = rounds::played(tx, g.id(), round)? else {
            return Err(PostError::NoRound { game: g.id().to_string(), round });
        };
        let mut out = String::new();
        let seed = &stored.seed;
        let hash_ok = crate::dice::seed_hash(seed) == stored.seed_hash;
        let _ = writeln!(out, "Turn {round} of {}: seed {seed}", g.id());
        let _ = writeln!(
            out,
            "  SHA-256 of the seed {} the hash published before the turn ({})",
            if hash_ok { "matches" } else { "DOES NOT match" },
            stored.seed_hash
        );
        let p = &stored.played;
        let before: Json = json("state before", &p.state_before)?;
        let orders: BTreeMap<String, Json> = json("orders", &p.orders)?;
        let options = g.options()?;
        let given: BTreeMap<String, u8> = json("moderator's dice", &p.moderator_dice)?;
        if !given.is_empty() {
            let list: Vec<String> = given.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = writeln!(out, "  the moderator supplied: {}", list.join(" "));
        }
        let replay = super::round::resolve_stored(&g, &before, &options, &orders, seed, &given)?;
        let events: Json = json("events", &p.events)?;
        let after: Json = json("state after", &p.state_after)?;
        let count = replay.events.as_array().map_or(0, Vec::len);
        let events_ok = replay.events == events;
        let after_ok = replay.state == after || g.ruleset.canonical(&after).is_ok_and(|a| a == replay.state);
        let _ = writeln!(
            out,
            "  {count} events replayed: {}",
            if events_ok { "every roll and result matches" } else { "THEY DIFFER from the report" }
        );
        let _ = writeln!(out, "  table after the turn: {}", if after_ok { "matches" } else { "DIFFERS" });
        // A turn played under other rules (a rules fix since) may replay
        // differently without anyone having touched it: say so.
        let now_rules = g.ruleset.version(&options);
        if !p.rules.is_empty() && p.rules != now_rules {
            let _ = writeln!(out, "  played under: {}
  this build:   {now_rules}", p.rules);
            if !(events_ok && after_ok) {
                let _ = writeln!(out, "  The rules have changed since the turn was played, so a difference is expected and is not a sign of tampering; the stored report stands.");
            }
        }
        Ok((out, hash_ok && events_ok && after_ok))
    })
}
