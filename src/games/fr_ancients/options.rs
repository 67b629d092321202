//! Game options (`[options]` in a game or case file): the readings where
//! clubs could differ, each named in `docs/rulings/fr-ancients.md`.
//!
//! ```
//! use umpire::games::fr_ancients::options::{ClockMode, Options};
//! let o = Options::from_table(&toml::from_str("morale_clock = \"per-turn\"").unwrap()).unwrap();
//! assert_eq!(o.morale_clock, ClockMode::PerTurn);
//! assert!(Options::from_table(&toml::from_str("moral_clock = 1").unwrap()).unwrap_err().contains("did you mean 'morale_clock'"));
//! use umpire::games::fr_ancients::options::{ElephantFear, Interpenetration};
//! let o = Options::from_table(&toml::from_str("interpenetration = \"light-troops\"\nelephant_fear = \"cavalry-and-enemies\"").unwrap()).unwrap();
//! assert_eq!((o.interpenetration, o.elephant_fear), (Interpenetration::LightTroops, ElephantFear::CavalryAndEnemies));
//! assert_eq!(Options::default().interpenetration, Interpenetration::Skirmishers);
//! ```

use super::abilities::Drill;
use serde::{Deserialize, Serialize};

/// The options of one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// Who shoots in step 2 (M6): the phasing side (ruling FA-1) or both.
    pub fire_by: FireBy,
    /// Lower the morale clock after every phase, or every turn (rule 10).
    pub morale_clock: ClockMode,
    /// Which Scipio opens Maneuverability (ruling FA-11).
    pub scipio: Drill,
    /// Points for each sub-general above two (ruling FA-17; 0: never more).
    pub sub_general_step: u32,
    /// The die for the move-direction compasses (ruling FA-4).
    pub compass_die: CompassDie,
    /// Units this close (inches; converted in a centimetre game) are
    /// adjacent (ruling FA-26).
    pub adjacent_within: f64,
    /// Whether units in melee shoot and are shot at (M6; ruling FA-27).
    pub fire_into_melee: bool,
    /// Whether units standing next to an elephant (or in contact with a unit
    /// that causes them fear) test again every phase, not only when they
    /// come there (ruling FA-28).
    pub fear_every_phase: bool,
    /// Who has won a battle that no morale clock ended, at its last turn or
    /// stopped by the moderator: the higher clock, or nobody (ruling FA-45).
    pub last_turn_result: LastTurnResult,
    /// Which units pass through their friends on a move (M4, ruling FA-50):
    /// Skirmishers only, light troops, or every unit. Roman Battle Drill's
    /// Pass Through holds whatever this says, and Skirmishers never pass a
    /// unit in shieldwall or tortoise (§5).
    pub interpenetration: Interpenetration,
    /// Who fears an elephant beside it (§5 Cause Fear, ruling FA-8/FA-53):
    /// every adjacent unit, friend or foe, or only cavalry and the enemy.
    pub elephant_fear: ElephantFear,
    /// The longest move any troop type may have in the base book, in
    /// inches (converted in a centimetre game): without a pack the game
    /// master is not asked whether an enemy farther away is within a unit's
    /// movement distance (ruling FA-56).
    pub longest_move: f64,
    /// Whether the players place their armies in a deployment round before
    /// turn 1, or the scenario's layout stands (ruling FA-61).
    pub deployment_round: bool,
    /// Whether the morale clock limits a side's movement orders each phase
    /// (ruling FA-60).
    pub order_limit: OrderLimit,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fire_by: FireBy::PhasingSide,
            morale_clock: ClockMode::PerPhase,
            scipio: Drill::Africanus,
            sub_general_step: super::characters::default_sub_general_step(),
            compass_die: CompassDie::D10,
            adjacent_within: 0.5,
            fire_into_melee: false,
            fear_every_phase: false,
            last_turn_result: LastTurnResult::Clock,
            interpenetration: Interpenetration::Skirmishers,
            elephant_fear: ElephantFear::Adjacent,
            longest_move: 20.0,
            deployment_round: true,
            order_limit: OrderLimit::None,
        }
    }
}

/// Who shoots in the missile fire step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FireBy {
    PhasingSide,
    BothSides,
}

/// When the phase loser's clock comes down (rule 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClockMode {
    /// Step 8 of every phase, as the sequence of play says.
    PerPhase,
    /// At the end of every turn, for larger games: the side with the
    /// lower total over the turn's two phases.
    PerTurn,
}

/// The result of a battle no morale clock ended (ruling FA-45).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastTurnResult {
    /// The side whose clock stands higher wins; level clocks go to the
    /// standards' points; level again is a draw.
    Clock,
    /// A draw.
    Draw,
}

/// Which units may move through a friend (ruling FA-50).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Interpenetration {
    /// Skirmishers only, the one passing the sheet implies ("Units in
    /// Shieldwall may not be interpenetrated by Skirmishers").
    Skirmishers,
    /// Skirmishers, Light Infantry, Light Cavalry, Light Chariots and Light
    /// Camelry; and any unit through friendly Skirmishers.
    LightTroops,
    /// Every unit through every friend (the engine before bodies collided).
    All,
}

/// Who takes a fear check beside an elephant (§5 Cause Fear).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ElephantFear {
    /// "also to adjacent units, friend or foe": every adjacent unit (FA-8).
    Adjacent,
    /// Only cavalry (of either side) and enemy units fear an elephant;
    /// its own side's other units stand beside it unafraid (FA-53).
    CavalryAndEnemies,
}

/// How many movement orders a side may give a phase (ruling FA-60).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrderLimit {
    /// No limit: the sheet does not give one (M10).
    None,
    /// As many as the side's morale clock stands, besides the general's
    /// free group move and each sub-general's free unit move.
    Clock,
}

/// The die rolled for the 8-point compasses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CompassDie {
    /// A d10, re-rolling 9 and 0.
    D10,
    /// An eight-sided die.
    D8,
}

/// The option names, for "did you mean".
const NAMES: [&str; 14] = [
    "fire_by",
    "morale_clock",
    "scipio",
    "sub_general_step",
    "compass_die",
    "adjacent_within",
    "fire_into_melee",
    "fear_every_phase",
    "last_turn_result",
    "interpenetration",
    "elephant_fear",
    "longest_move",
    "deployment_round",
    "order_limit",
];

impl Options {
    /// Read `[options]`.
    ///
    /// # Errors
    /// An unknown option (with the closest name) or a bad value.
    pub fn from_table(t: &toml::Table) -> Result<Options, String> {
        for k in t.keys() {
            if !NAMES.contains(&k.as_str()) {
                let hint = crate::names::closest(k, NAMES.iter().map(|n| (*n, *n)))
                    .map(|n| format!(" (did you mean '{n}'?)"))
                    .unwrap_or_default();
                return Err(format!(
                    "no option called '{k}'{hint}; options: {}",
                    NAMES.join(", ")
                ));
            }
        }
        let o: Options = toml::Value::Table(t.clone())
            .try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())?;
        if !(0.0..=6.0).contains(&o.adjacent_within) {
            return Err(format!(
                "adjacent_within = {}: 0 to 6 inches",
                o.adjacent_within
            ));
        }
        if !(1.0..=100.0).contains(&o.longest_move) {
            return Err(format!(
                "longest_move = {}: 1 to 100 inches, the longest move of any troop type in the base book",
                o.longest_move
            ));
        }
        Ok(o)
    }
}
