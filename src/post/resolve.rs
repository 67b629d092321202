//! What a round is played from and how it is resolved: the round's
//! [`Inputs`] read from the store (its seed, the state and options, every
//! side's latest orders, the moderator's dice) and the one pure resolution
//! through the rule set, shared by `round::play`, the rounds worked out
//! ahead (`post::ahead`) and `verify`.
//!
//! Architecture invariant: this module only reads the store; what a round
//! gives is written by `round::play`.

use super::game::Game;
use super::PostError;
use crate::dice::{ModeratorDice, SeededDice};
use crate::games::{self, Json, RoundInput, GAME_MASTER};
use crate::report::Section;
use crate::store::{rounds, submissions, Transaction};
use std::collections::BTreeMap;

/// What a round of the sides is resolved from, read from the store.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// The round's number.
    pub round: u32,
    /// Its secret seed.
    pub seed: String,
    /// The state before it.
    pub state: Json,
    /// The game's options.
    pub options: Json,
    /// Every side's latest orders (and the game master's answer).
    pub orders: BTreeMap<String, Json>,
    /// The moderator's dice.
    pub given: BTreeMap<String, u8>,
}

/// A stored seed's bytes.
pub(super) fn seed_bytes(seed_hex: &str) -> Result<[u8; 32], PostError> {
    hex::decode(seed_hex)
        .ok()
        .and_then(|v| v.try_into().ok())
        .ok_or_else(|| PostError::Corrupt(format!("seed {seed_hex}")))
}

pub(super) fn from_json<T: serde::de::DeserializeOwned>(
    what: &str,
    s: &str,
) -> Result<T, PostError> {
    serde_json::from_str(s).map_err(|e| PostError::Corrupt(format!("{what}: {e}")))
}

/// The orders of a round: every side's latest, the sides that were to
/// write and sent nothing, and each side's orders as its confirmation
/// understood them (the report shows them once the round is played).
pub(super) struct Gathered {
    pub(super) orders: BTreeMap<String, Json>,
    pub(super) missing: Vec<String>,
    pub(super) given: Vec<Section>,
}

/// The latest orders of every side for the current round.
fn gather_orders(
    tx: &Transaction<'_>,
    game: &Game,
    writers: &[String],
) -> Result<Gathered, PostError> {
    let mut orders = BTreeMap::new();
    let mut missing = Vec::new();
    let mut given = Vec::new();
    // A round the game master answers: his answer, under GAME_MASTER.
    if let Some((checked, _)) = submissions::latest(tx, game.id(), game.row.round, GAME_MASTER)? {
        orders.insert(GAME_MASTER.to_string(), from_json("orders", &checked)?);
    }
    for s in game.sides(tx)? {
        match submissions::latest(tx, game.id(), game.row.round, &s.side)? {
            Some((checked, understood)) => {
                let understood: Vec<(String, String)> = from_json("understood", &understood)?;
                given.push(Section {
                    title: match &s.general {
                        Some(style) => format!("{} (the umpire's {style} general)", s.side),
                        None if submissions::by_general(
                            tx,
                            game.id(),
                            game.row.round,
                            &s.side,
                        )? =>
                        {
                            format!("{} (the umpire's general, for its player away)", s.side)
                        }
                        None => s.side.clone(),
                    },
                    lines: understood.into_iter().map(|(_, line)| line).collect(),
                });
                orders.insert(s.side, from_json("orders", &checked)?);
            }
            None if writers.contains(&s.side) => missing.push(s.side),
            None => {}
        }
    }
    Ok(Gathered {
        orders,
        missing,
        given,
    })
}

/// What the current `round` of `game` is played from, and its orders as
/// gathered for the report.
pub(super) fn gather(
    tx: &Transaction<'_>,
    game: &Game,
    round: &games::Round,
) -> Result<(Inputs, Gathered), PostError> {
    let sides = game.sides(tx)?;
    let mut named: Vec<&str> = sides.iter().map(|s| s.side.as_str()).collect();
    named.push(GAME_MASTER);
    rounds::read_ahead_inputs(tx, game.id(), round.number, &named)?;
    let (seed, _) = game.seed(tx)?;
    let gathered = gather_orders(tx, game, &round.writers)?;
    let inputs = Inputs {
        round: round.number,
        seed,
        state: game.state()?,
        options: game.options()?,
        orders: gathered.orders.clone(),
        given: rounds::given_dice(tx, game.id(), round.number)?,
    };
    Ok((inputs, gathered))
}

/// What the current `round` of `game` is played from (`post::ahead`),
/// without the orders gathered for the report.
///
/// # Errors
/// When the stored game or orders cannot be read.
pub(super) fn inputs(
    tx: &Transaction<'_>,
    game: &Game,
    round: &games::Round,
) -> Result<Inputs, PostError> {
    Ok(gather(tx, game, round)?.0)
}

/// Resolve a round of `game` from stored values: the state before, each
/// side's orders, the seed and the moderator's dice (used to play a round).
///
/// # Errors
/// When the seed or stored values cannot be read, or the engine cannot play.
pub fn resolve_stored(
    game: &Game,
    state: &Json,
    options: &Json,
    orders: &BTreeMap<String, Json>,
    seed_hex: &str,
    given: &BTreeMap<String, u8>,
) -> Result<games::Resolved, PostError> {
    resolve_round(
        game.ruleset,
        &game.row.setup,
        game.row.max_turns,
        state,
        options,
        orders,
        seed_hex,
        given,
    )
}

/// Resolve a round of a game of `ruleset` created from `setup`: the one
/// way a round is played, by the post office and by `verify` (from the
/// store or from a player's bundle) alike.
///
/// # Errors
/// When the seed or stored values cannot be read, or the engine cannot play.
#[allow(clippy::too_many_arguments)]
pub fn resolve_round(
    ruleset: &dyn games::Ruleset,
    setup: &str,
    last_turn: u32,
    state: &Json,
    options: &Json,
    orders: &BTreeMap<String, Json>,
    seed_hex: &str,
    given: &BTreeMap<String, u8>,
) -> Result<games::Resolved, PostError> {
    let mut dice = ModeratorDice::new(given.clone(), SeededDice::new(seed_bytes(seed_hex)?));
    Ok(ruleset.resolve(RoundInput {
        state,
        options,
        setup,
        last_turn,
        orders,
        dice: &mut dice,
    })?)
}
