//! What a ready scenario adds to the case-file layout (`[table]`,
//! `[[terrain]]`, `[[unit]]`, loaded by `table::setup`): a title and
//! briefing, the sides and their army files, deployment zones, the number of
//! turns, and victory conditions — which the book leaves at "destroy the
//! enemy", so a scenario chooses them from [`Victory`].
//!
//! [`assess`] judges a table against a scenario's conditions.
//!
//! ```toml
//! title = "The Ford of the Tybor"
//! turns = 12
//! deploying_roll = false      # true: play 12 - 1d6 turns (§ "a battle is one day")
//! first_turn = "Both sides move at once; no fire in the first phase 1."
//!
//! [[side]]
//! id = "aquilonia"
//! nation = "Aquilonia"
//! army = "../armies/aquilonia-300.toml"
//! zone = { x = [0.0, 72.0], y = [0.0, 12.0] }
//!
//! [[victory]]
//! kind = "army-broken"        # a side has lost this share of its starting points
//! percent = 50
//! ```

use serde::Deserialize;

use crate::rules::points::{figure_cost, hero_cost, superhero_cost};
use crate::rules::{UnitType, Weapon};
use crate::table::{Status, Table, Unit};

/// The book: "at most 12 turns of about an hour".
pub const BATTLE_TURNS: u32 = 12;

/// The scenario keys that are not part of the case-file layout.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Scenario {
    pub title: String,
    #[serde(default)]
    pub source: Option<String>,
    pub briefing: String,
    #[serde(default = "battle_turns")]
    pub turns: u32,
    /// Roll 1d6 for hours spent deploying and play `turns` minus the roll.
    #[serde(default)]
    pub deploying_roll: bool,
    /// Each side places its units inside its zone by written orders before
    /// turn 1; the umpire reveals both at once.
    #[serde(default)]
    pub deployment_turn: bool,
    #[serde(default)]
    pub first_turn: Option<String>,
    #[serde(rename = "side")]
    pub sides: Vec<Side>,
    #[serde(rename = "victory")]
    pub victory: Vec<Victory>,
}

fn battle_turns() -> u32 {
    BATTLE_TURNS
}

/// One side of a scenario.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Side {
    pub id: String,
    pub nation: String,
    /// The army file its units were bought with, relative to the scenario.
    pub army: String,
    pub zone: Zone,
}

/// A rectangle of the table where a side deploys, in inches.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Zone {
    pub x: [f64; 2],
    pub y: [f64; 2],
}

impl Zone {
    pub fn contains(&self, [x, y]: [f64; 2]) -> bool {
        x >= self.x[0] && x <= self.x[1] && y >= self.y[0] && y <= self.y[1]
    }
}

/// A victory condition. The first side to meet a condition against the
/// enemy wins; if none is met by the last turn, the battle is a draw unless
/// a `hold-ground` condition decides it then.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Victory {
    /// The enemy has lost `percent` of its starting points (figures killed,
    /// and whole units routed off, surrendered, captured or destroyed).
    ArmyBroken { percent: u32 },
    /// The enemy has `units` units routed, surrendered, captured,
    /// destroyed or off the table.
    UnitsBroken { units: u32 },
    /// The enemy commander is captured or has left the table.
    CommanderTaken,
    /// At the end of the last turn, the side named holds the area: it has a
    /// ready unit inside and the enemy has none.
    HoldGround { side: String, area: Zone },
}

/// Who won and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The winning side, or `None` (still fighting, or a draw).
    pub winner: Option<String>,
    pub reasons: Vec<String>,
}

/// Points a unit was worth at the start and has lost (§11 prices).
fn points(u: &Unit) -> (u32, u32) {
    let bow = u.weapons.iter().any(|w| matches!(w, Weapon::Bow | Weapon::ShemiteBow | Weapon::Crossbow));
    let (per, per_model) = match u.kind {
        UnitType::Hero => (hero_cost(false), 1),
        UnitType::Superhero => (superhero_cost(false), 1),
        UnitType::Commander => (0, 1),
        UnitType::Wizard => (u.spell_points.unwrap_or(0), 1),
        UnitType::HeavyChariot | UnitType::LightChariot => (figure_cost(u.kind, u.class, bow).unwrap_or(0), 2),
        UnitType::WoollyMammoth => (figure_cost(u.kind, u.class, bow).unwrap_or(0), 4),
        k => (figure_cost(k, u.class, bow).unwrap_or(0), 1),
    };
    let worth = u.original.div_ceil(per_model) * per;
    let left = if broken(u) { 0 } else { u.figures.div_ceil(per_model) * per };
    (worth, worth.saturating_sub(left))
}

/// Out of the battle: routed, surrendered, captured, destroyed or gone.
fn broken(u: &Unit) -> bool {
    matches!(u.status, Status::Rout | Status::Surrendered | Status::Captured | Status::Eliminated | Status::OffTable)
}

/// Judge the table against the scenario's conditions. `last_turn` is true
/// once the final turn has been played (ground is judged only then).
pub fn assess(scenario: &Scenario, table: &Table, last_turn: bool) -> Verdict {
    let mut reasons = Vec::new();
    let mut winners = Vec::new();
    for side in &scenario.sides {
        let enemies: Vec<&Side> = scenario.sides.iter().filter(|s| s.id != side.id).collect();
        for cond in &scenario.victory {
            for enemy in &enemies {
                let theirs: Vec<&Unit> = table.units_of(&enemy.id).collect();
                let met = match cond {
                    Victory::ArmyBroken { percent } => {
                        let (worth, lost) = theirs.iter().map(|u| points(u)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
                        (worth > 0 && lost * 100 >= percent * worth)
                            .then(|| format!("{} has lost {lost} of {worth} points ({percent}% breaks an army)", enemy.id))
                    }
                    Victory::UnitsBroken { units } => {
                        let n = theirs.iter().filter(|u| !u.kind.is_single_figure() && broken(u)).count() as u32;
                        (n >= *units).then(|| format!("{} has {n} units routed, surrendered or destroyed", enemy.id))
                    }
                    Victory::CommanderTaken => theirs
                        .iter()
                        .find(|u| u.kind == UnitType::Commander && matches!(u.status, Status::Captured | Status::OffTable))
                        .map(|u| format!("{}'s commander {} is captured or gone", enemy.id, u.name)),
                    Victory::HoldGround { side: holder, area } => (last_turn && holder == &side.id && {
                        let inside = |id: &str| {
                            table.units_of(id).any(|u| u.status == Status::Ready && area.contains([u.front.x, u.front.y]))
                        };
                        inside(&side.id) && !inside(&enemy.id)
                    })
                    .then(|| format!("{} holds the ground at the end of the battle", side.id)),
                };
                if let Some(r) = met {
                    reasons.push(r);
                    if !winners.contains(&side.id) {
                        winners.push(side.id.clone());
                    }
                }
            }
        }
    }
    let winner = if winners.len() == 1 { winners.pop() } else { None };
    if winner.is_none() && !reasons.is_empty() {
        reasons.push("both sides met a condition in the same turn: a draw".into());
    }
    Verdict { winner, reasons }
}
