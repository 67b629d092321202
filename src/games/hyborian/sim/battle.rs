//! One simulated battle, from its seed to its outcome: the eve of battle
//! (the terrain card, the table ends, the hours spent deploying), then
//! turn after turn both generals write their orders, the orders are read
//! and checked as a player's mail is (`orders::check_side`), the engine
//! plays the turn (`adjudicate::resolve_turn`) and the scenario's
//! conditions judge the table (`army::scenario::assess`).
//!
//! An order the checker refuses is a bug in the general: it is counted in
//! the [`Outcome`] with the diagnostic, and the unit stands (as a player's
//! refused unit does, ruling O-1).
//!
//! ```
//! use umpire::games::hyborian::sim::battle::play;
//! use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
//! use umpire::games::hyborian::sim::general::Style;
//! use umpire::games::hyborian::sim::seed::BattleSeed;
//! let a = Contender::proposed("Aquilonia", 500, Style::Cautious).unwrap();
//! let b = Contender::proposed("Nemedia", 500, Style::Aggressive).unwrap();
//! let m = Matchup::new([a, b], Field::Card(None), Default::default(), None).unwrap();
//! let seed = BattleSeed::of_run(1, 0);
//! let once = play(&m, seed, &mut |_| {}).unwrap();
//! assert_eq!(once, play(&m, seed, &mut |_| {}).unwrap());
//! assert!(once.refusals.is_empty());
//! ```

use super::field::{Matchup, SetupError};
use super::general;
use super::seed::BattleSeed;
use crate::games::hyborian::adjudicate::{resolve_turn, StopAfter, TurnResult};
use crate::games::hyborian::army::scenario::{assess, Verdict};
use crate::games::hyborian::campaign::battle::{draw, Card};
use crate::games::hyborian::campaign::map::Terrain;
use crate::games::hyborian::dice::{DiceError, DiceKey, Roll, SeededDice};
use crate::games::hyborian::orders::plan::TurnOrders;
use crate::games::hyborian::orders::{check_side, Checked};
use crate::games::hyborian::rules::UnitType;
use crate::games::hyborian::table::{Status, Table};
use crate::sim::Commander;
use serde::Serialize;
use std::collections::BTreeMap;

/// The name the eve-of-battle dice keys use for the battle.
const BATTLE_KEY: &str = "battle";

/// Why a battle could not be played.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BattleError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// Only scripted dice can fail; seeded ones never do.
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// Losses of one troop type in one battle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TypeLoss {
    /// Figures at the start (crew for chariots and mammoths).
    pub figures: u32,
    /// Figures killed.
    pub killed: u32,
    /// Units routed, surrendered, captured, destroyed or off the table at the end.
    pub units_broken: u32,
    pub units: u32,
}

/// An order the checker refused: a bug in the general.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub turn: u32,
    pub side: String,
    pub unit: String,
    /// The diagnostics as a player would read them.
    pub diagnostics: String,
}

/// What became of one battle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub seed: String,
    /// The terrain card it was fought on (card fields).
    pub card: Option<u32>,
    /// The contender on the south edge (card fields).
    pub south: Option<usize>,
    /// The winning contender; `None` for a draw.
    pub winner: Option<usize>,
    /// Turns played (the deployment turn not counted).
    pub turns: u32,
    pub reasons: Vec<String>,
    /// Per contender, losses by troop type (the book's names).
    pub losses: [BTreeMap<String, TypeLoss>; 2],
    /// The turn one of a side's units first broke (routed, surrendered or
    /// was destroyed), and which contenders it happened to then.
    pub first_break: Option<(u32, [bool; 2])>,
    pub refusals: Vec<Refusal>,
}

/// Everything about one played turn, for whoever watches (replays).
pub struct Played<'a> {
    pub turn: u32,
    pub seed: [u8; 32],
    pub before: &'a Table,
    pub result: &'a TurnResult,
    /// Each contender's order text and how it was read.
    pub orders: [(&'a str, &'a Checked); 2],
    pub verdict: &'a Verdict,
    /// The last turn of the battle.
    pub ended: bool,
}

/// Broken for the first-break count and the losses: out of the battle.
fn broken(s: &Status) -> bool {
    matches!(
        s,
        Status::Rout
            | Status::Surrendered
            | Status::Captured
            | Status::Eliminated
            | Status::OffTable
    )
}

/// What is rolled before the battle: the card (when not fixed), which
/// contender takes the south edge, the hours spent deploying.
struct Eve {
    card: Option<Card>,
    south: usize,
    lost_turns: u32,
}

fn eve(m: &Matchup, seed: BattleSeed) -> Result<Eve, DiceError> {
    let mut dice = SeededDice::new(seed.eve());
    let card = match &m.ground {
        super::field::Ground::Card { fixed: Some(n), .. } => Some(Card {
            number: *n,
            kind: crate::games::hyborian::campaign::battle::card_kind(*n),
            draws: 1,
        }),
        // Any card stands on open ground (§12: the deck's 100 cards).
        super::field::Ground::Card { fixed: None, .. } => {
            Some(draw(BATTLE_KEY, Terrain::Clear, &mut dice)?)
        }
        super::field::Ground::Scenario { .. } => None,
    };
    // Ends of the table by a die: odd, the first army takes the south edge (ruling SIM-2).
    let ends = dice.roll(&DiceKey::D6 {
        unit: BATTLE_KEY.into(),
        what: "ends".into(),
    })?;
    let lost_turns = if m.scenario().deploying_roll {
        u32::from(dice.roll(&DiceKey::D6 {
            unit: BATTLE_KEY.into(),
            what: "deploying".into(),
        })?)
    } else {
        0
    };
    Ok(Eve {
        card,
        south: if ends % 2 == 1 { 0 } else { 1 },
        lost_turns,
    })
}

/// Play one battle of `m` from `seed`; `watch` sees every turn played.
///
/// # Errors
/// [`BattleError::Setup`] when the armies do not fit the table.
pub fn play(
    m: &Matchup,
    seed: BattleSeed,
    watch: &mut dyn FnMut(&Played),
) -> Result<Outcome, BattleError> {
    let eve = eve(m, seed)?;
    let mut table = m.table(eve.card.as_ref(), eve.south)?;
    let start = table.clone();
    let sides = m.sides();
    let last = m.turns().saturating_sub(eve.lost_turns).max(1);
    let mut outcome = Outcome {
        seed: seed.to_string(),
        card: eve.card.as_ref().map(|c| c.number),
        south: eve.card.as_ref().map(|_| eve.south),
        winner: None,
        turns: 0,
        reasons: Vec::new(),
        losses: [BTreeMap::new(), BTreeMap::new()],
        first_break: None,
        refusals: Vec::new(),
    };
    loop {
        let turn = table.turn;
        // The deployment turn: the generals keep the scenario's placement;
        // a side that holds writes nothing, ever.
        let texts = [0, 1].map(|i| match m.contenders[i].commander {
            Commander::General(style) if turn > 0 => {
                general::orders_for(&table, sides[i], style, &m.scenario().victory)
            }
            _ => String::new(),
        });
        let checked = [0, 1].map(|i| check_side(&texts[i], sides[i], &table));
        let mut orders = TurnOrders::default();
        for (i, c) in checked.iter().enumerate() {
            outcome.refusals.extend(refusals(turn, sides[i], c));
            orders.merge(c.orders.clone());
        }
        let turn_seed = seed.turn(turn);
        let result = resolve_turn(
            &table,
            &orders,
            &m.options,
            &mut SeededDice::new(turn_seed),
            StopAfter::Turn,
        )?;
        let is_last = turn >= last;
        let verdict = assess(m.scenario(), &result.table, is_last);
        let standing = sides
            .iter()
            .filter(|s| {
                result.table.units_of(s).any(|u| {
                    u.status.is_present() && !broken(&u.status) && !u.kind.is_single_figure()
                })
            })
            .count();
        let ended = turn > 0 && (is_last || verdict.over || standing < 2);
        if outcome.first_break.is_none() && turn > 0 {
            let now = [0, 1].map(|i| {
                result.table.units_of(sides[i]).any(|u| {
                    !u.kind.is_single_figure()
                        && broken(&u.status)
                        && table.units.get(&u.id).is_none_or(|b| !broken(&b.status))
                })
            });
            if now.iter().any(|b| *b) {
                outcome.first_break = Some((turn, now));
            }
        }
        watch(&Played {
            turn,
            seed: turn_seed,
            before: &table,
            result: &result,
            orders: [
                (texts[0].as_str(), &checked[0]),
                (texts[1].as_str(), &checked[1]),
            ],
            verdict: &verdict,
            ended,
        });
        table = result.table;
        if turn > 0 {
            outcome.turns = turn;
        }
        if ended {
            outcome.winner = verdict.winner.as_deref().and_then(|w| m.contender_of(w));
            outcome.reasons = verdict.reasons;
            break;
        }
    }
    outcome.losses = [0, 1].map(|i| losses(&start, &table, sides[i]));
    Ok(outcome)
}

fn refusals(turn: u32, side: &str, c: &Checked) -> Vec<Refusal> {
    let errors: Vec<String> = c
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render(&c.source))
        .collect();
    let mut out: Vec<Refusal> = c
        .rejected
        .iter()
        .map(|unit| Refusal {
            turn,
            side: side.into(),
            unit: unit.clone(),
            diagnostics: errors.join(""),
        })
        .collect();
    if out.is_empty() && !errors.is_empty() {
        // An error outside any unit's orders (a line not understood at all).
        out.push(Refusal {
            turn,
            side: side.into(),
            unit: String::new(),
            diagnostics: errors.join(""),
        });
    }
    out
}

/// Losses by troop type of the units `side` began with.
fn losses(start: &Table, end: &Table, side: &str) -> BTreeMap<String, TypeLoss> {
    let mut out: BTreeMap<String, TypeLoss> = BTreeMap::new();
    for u in start.units_of(side).filter(|u| !u.kind.is_single_figure()) {
        let now = end.units.get(&u.id);
        let e = out.entry(type_name(u.kind)).or_default();
        e.units += 1;
        e.figures += u.figures;
        e.killed += u.figures - now.map_or(0, |n| n.figures.min(u.figures));
        e.units_broken += u32::from(now.is_none_or(|n| broken(&n.status)));
    }
    out
}

/// A troop type as the tables print it.
pub fn type_name(kind: UnitType) -> String {
    kind.book_name().to_string()
}
