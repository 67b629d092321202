//! Game options: one named field per house rule or per choice the book
//! leaves OPEN. Case files set them under `[options]`; a league sets them
//! per game. Every default is the project's ruling (docs/rulings/engine.md).
//!
//! ```
//! use umpire::games::hyborian::rules::options::{GameOptions, Clock};
//! let o: GameOptions = toml::from_str("clock = \"proportional\"").unwrap();
//! assert_eq!(o.clock, Clock::Proportional);
//! assert!(toml::from_str::<GameOptions>("no_such_rule = true").is_err());
//! ```

use serde::{Deserialize, Serialize};

/// All house rules of one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameOptions {
    /// How simultaneous movement is timed (§3 prorating, OPEN).
    pub clock: Clock,
    /// How often archers may shoot (§6, OPEN); read by the fire step.
    pub archery: Archery,
    /// Whether one-contour hills slow light foot, Picts and Kushites (§7, OPEN).
    pub gentle_hills_slow_light_foot: bool,
    /// Whether horse archers in road column move at the road-column figure
    /// off a road (§3: "road column alone adds nothing except for horse
    /// archers", no figure given — OPEN).
    pub horse_archer_column_bonus: bool,
    /// Shemite bows at long range over 12 inches instead of over 9 (§6, OPEN; ruling C-3).
    pub shemite_bow_long_over_12: bool,
    /// Whether fire passes a gap of exactly 3 inches (§6 "greater than", OPEN; ruling C-7).
    pub fire_gap_of_three_passes: bool,
    /// How fractions of figures round in melee and half ranks (§13, OPEN; ruling C-13).
    pub figure_rounding: crate::games::hyborian::rules::melee::FigureRounding,
    /// Whether the hills/woods/swamp −1 in melee falls on units fighting
    /// into the terrain as well as on those standing in it (§4, OPEN; ruling C-14).
    pub terrain_penalty_on_attackers: bool,
    /// Where front, flank and rear arcs divide (§4 diagram, OPEN; rulings E-7, C-29).
    pub arcs: ArcGeometry,
    /// Whether enemies, too, test when a unit falls back or routs within 6
    /// inches of them (§8 "another unit", OPEN; ruling M-7: friends only).
    pub nearby_enemies_test: bool,
    /// Whether the morale tests magic causes are taken after all melee
    /// instead of with the pre-melee tests (§2, §10: the book says both,
    /// OPEN; ruling S-3).
    pub magic_tests_after_melee: bool,
    /// How units cross rivers (§12: "their affect must be ruled upon by the
    /// group"; ruling T-1): impassable but at fords and bridges by default.
    pub rivers: WaterCrossing,
    /// How units cross streams (ruling T-1): fordable, at half speed, by default.
    pub streams: WaterCrossing,
    /// Whether a positional line bends back to keep within its terrain
    /// area (§1; ruling E-4) or is drawn as a straight line.
    pub positional_line_bends: bool,
}

/// How a river or stream is crossed away from its fords and bridges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaterCrossing {
    /// No unit enters it: it is crossed only at fords and bridges.
    Impassable,
    /// Crossed anywhere, at half speed while any part of the unit is in it.
    Fordable,
    /// No effect on movement.
    Open,
}

/// The lines from a unit's corners that divide its front and rear arcs
/// from its flank arcs (§4: the book's diagram has 30° and 45° lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArcGeometry {
    /// 45° from straight ahead (and straight back): the corners' bisectors.
    #[serde(rename = "corner-45")]
    Corner45,
    /// 30° from straight ahead (and straight back): narrower front and rear
    /// arcs, wider flanks.
    #[serde(rename = "corner-30")]
    Corner30,
}

impl ArcGeometry {
    /// Angle of the dividing lines from straight ahead, in degrees.
    pub fn degrees(self) -> f64 {
        match self {
            ArcGeometry::Corner45 => 45.0,
            ArcGeometry::Corner30 => 30.0,
        }
    }
}

impl Default for GameOptions {
    fn default() -> Self {
        GameOptions {
            clock: Clock::SharedInch,
            archery: Archery::OncePerTurn,
            gentle_hills_slow_light_foot: false,
            horse_archer_column_bonus: true,
            shemite_bow_long_over_12: false,
            fire_gap_of_three_passes: false,
            figure_rounding: crate::games::hyborian::rules::melee::FigureRounding::Nearest,
            terrain_penalty_on_attackers: false,
            arcs: ArcGeometry::Corner45,
            nearby_enemies_test: false,
            magic_tests_after_melee: false,
            rivers: WaterCrossing::Impassable,
            streams: WaterCrossing::Fordable,
            positional_line_bends: true,
        }
    }
}

/// The reading of the book's "time measured in inches of movement".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clock {
    /// All units share one clock in inches: at clock t every unit has used
    /// t inches of its allowance (the book's 3-inch example).
    SharedInch,
    /// Every unit spreads its own allowance over the phase: at time τ∈[0,1]
    /// it has used τ × its allowance.
    Proportional,
}

/// How often a missile unit may shoot in a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Archery {
    /// One volley a turn, at the end of phase 1 or of phase 2.
    OncePerTurn,
    /// A volley at the end of each phase.
    EachPhase,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_names() {
        let o: GameOptions = toml::from_str("").unwrap();
        assert_eq!(o, GameOptions::default());
        let o: GameOptions =
            toml::from_str("archery = \"each-phase\"\ngentle_hills_slow_light_foot = true")
                .unwrap();
        assert_eq!(o.archery, Archery::EachPhase);
        assert!(o.gentle_hills_slow_light_foot);
        let err = toml::from_str::<GameOptions>("clok = \"shared-inch\"").unwrap_err();
        assert!(err.to_string().contains("clok"), "{err}");
    }
}
