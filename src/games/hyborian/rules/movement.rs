//! §3 Movement as numbers: the allowance table and the fixed distances
//! (2-inch step back, 3-inch prorating of changes, 24-inch forced-march
//! rule, wheel and oblique limits, half speed in rough terrain).
//!
//! ```
//! use umpire::games::hyborian::rules::{movement::{allowance, Pace}, Formation, UnitType};
//! assert_eq!(allowance(UnitType::MediumInfantry, Formation::Line, Pace::Normal, false), 6.0);
//! assert_eq!(allowance(UnitType::HeavyCavalry, Formation::Line, Pace::Charge, false), 18.0);
//! ```

use super::{Formation, UnitType};

/// One row of the §3 table, in inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Allowances {
    pub line: f64,
    pub column: f64,
    /// Road column on a road (also the forced-march figure off a road).
    pub road_column: f64,
    pub charge: f64,
}

const fn row(line: f64, column: f64, road_column: f64, charge: f64) -> Allowances {
    Allowances {
        line,
        column,
        road_column,
        charge,
    }
}

/// The §3 table. Pikes move as the infantry of their weight. Single
/// figures: commanders and heroes at light-infantry road-column speed on
/// foot (12), wizards at light-foot forced-march speed (12).
pub fn allowances(kind: UnitType) -> Allowances {
    match kind {
        UnitType::LightInfantry => row(8.0, 10.0, 12.0, 12.0),
        UnitType::MediumInfantry | UnitType::MediumPike => row(6.0, 8.0, 10.0, 10.0),
        UnitType::HeavyInfantry | UnitType::HeavyPike => row(5.0, 6.0, 8.0, 8.0),
        UnitType::MediumCavalry => row(18.0, 18.0, 24.0, 24.0),
        UnitType::HeavyCavalry => row(12.0, 12.0, 18.0, 18.0),
        UnitType::WoollyMammoth => row(8.0, 8.0, 12.0, 12.0),
        UnitType::HeavyChariot => row(10.0, 10.0, 15.0, 15.0),
        UnitType::LightChariot => row(12.0, 12.0, 18.0, 18.0),
        UnitType::Commander | UnitType::Hero | UnitType::Superhero | UnitType::Wizard => row(
            SINGLE_FIGURE_MOVE,
            SINGLE_FIGURE_MOVE,
            SINGLE_FIGURE_MOVE,
            SINGLE_FIGURE_MOVE,
        ),
    }
}

/// Commanders on foot, heroes, wizards: 12 inches (§3, last paragraph).
pub const SINGLE_FIGURE_MOVE: f64 = 12.0;
/// Commanders mounted: light-cavalry road-column speed (§3).
pub const MOUNTED_LEADER_MOVE: f64 = 24.0;

/// The most a single figure moves in a phase (§3, §9, §10): commanders (and
/// heroes, whose speed the book does not give: ruling O-7) at light-infantry
/// road-column speed on foot (12) and light-cavalry road-column speed
/// mounted (24); wizards at light-foot forced-march speed (12).
pub fn single_figure_move(kind: UnitType, mounted: bool) -> f64 {
    match kind {
        UnitType::Commander | UnitType::Hero | UnitType::Superhero if mounted => {
            MOUNTED_LEADER_MOVE
        }
        _ => SINGLE_FIGURE_MOVE,
    }
}
/// All foot may move 2 inches straight back without changing face (§3).
pub const FOOT_STEP_BACK: f64 = 2.0;

/// Whether a unit of `kind` may step straight back without changing face:
/// only foot (§3, ruling O-3).
pub fn may_step_back(kind: UnitType) -> bool {
    kind.is_infantry()
}

/// Whether a unit of `charger` may charge one of `target`: infantry cannot
/// charge cavalry (§4).
pub fn may_charge(charger: UnitType, target: UnitType) -> bool {
    !(charger.is_infantry() && target.is_cavalry())
}
/// A change of face or formation counts as 3 inches of movement (prorating, §3).
pub const CHANGE_COST: f64 = 3.0;
/// A wheel may use up to half of the move (§3).
pub const WHEEL_SHARE: f64 = 0.5;
/// The final half of a charge must be straight (§3).
pub const CHARGE_STRAIGHT_SHARE: f64 = 0.5;
/// A wheel (or a charge's sweep) turns at most this far; more is a face
/// about (ruling O-22).
pub const MAX_WHEEL_DEGREES: f64 = 180.0;
/// Wheels smaller than this (degrees) are not made, and a wheel cut by
/// less is made as ordered: the engine's tolerance, not the book's.
pub const WHEEL_TOLERANCE: f64 = 0.5;

/// The largest wheel (degrees) a unit `frontage` inches wide may make with
/// an `allowance` of inches: its outer flank travels frontage × angle and
/// may use at most half the move (§3, ruling E-8); never more than
/// [`MAX_WHEEL_DEGREES`].
///
/// ```
/// use umpire::games::hyborian::rules::movement::wheel_limit;
/// // 12 inches wide with a 12-inch move: 6 inches on the outer flank, half a radian.
/// assert!((wheel_limit(12.0, 12.0) - 28.6479).abs() < 1e-3);
/// assert_eq!(wheel_limit(0.0, 12.0), 180.0);
/// ```
pub fn wheel_limit(frontage: f64, allowance: f64) -> f64 {
    wheel_costing(frontage, allowance * WHEEL_SHARE)
}

/// The largest wheel (degrees) whose outer flank, `frontage` inches from
/// the pivot, travels no more than `cost` inches; never more than
/// [`MAX_WHEEL_DEGREES`].
pub fn wheel_costing(frontage: f64, cost: f64) -> f64 {
    if frontage <= 0.0 {
        MAX_WHEEL_DEGREES
    } else {
        (cost / frontage).to_degrees().min(MAX_WHEEL_DEGREES)
    }
}

/// Oblique moves up to 45° from straight ahead (§3).
pub const OBLIQUE_MAX_DEGREES: f64 = 45.0;
/// A forced march never comes within 24 inches of the enemy (§3).
pub const FORCED_MARCH_CLEARANCE: f64 = 24.0;
/// A forced march on a road goes 1.5 × the road-column figure (§3).
pub const FORCED_MARCH_ROAD_FACTOR: f64 = 1.5;
/// Hills, woods and swamps halve speed (§7).
pub const ROUGH_SPEED: f64 = 0.5;
/// "The edge" of woods or of a second contour, from which units "may charge
/// out of this terrain area and claim their charge bonuses" (§7), is the
/// band this deep inside the boundary: the 3 inches the book uses for the
/// edge of woods and swamps in missile fire (ruling E-29).
pub const TERRAIN_EDGE_BAND: f64 = 3.0;
/// A ring moves at half the line move (§3).
pub const RING_SPEED: f64 = 0.5;

/// How the unit is moving, which picks the column of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// An ordinary move (in road column: off a road).
    Normal,
    /// Road column moving along a road.
    OnRoad,
    Charge,
    /// Forced march (§3), on or off a road.
    ForcedMarch {
        on_road: bool,
    },
}

/// Maximum distance in inches for a move of this type, formation and pace.
///
/// `horse_archer_column_bonus`: horse archers in road column get the road
/// figure off a road (OPEN in §3, ruled in docs/rulings/engine.md).
pub fn allowance(
    kind: UnitType,
    formation: Formation,
    pace: Pace,
    horse_archer_column_bonus: bool,
) -> f64 {
    let a = allowances(kind);
    match pace {
        Pace::Charge => a.charge,
        Pace::ForcedMarch { on_road: true } => a.road_column * FORCED_MARCH_ROAD_FACTOR,
        Pace::ForcedMarch { on_road: false } => a.road_column,
        Pace::OnRoad if formation == Formation::RoadColumn => a.road_column,
        Pace::OnRoad | Pace::Normal => match formation {
            Formation::Line | Formation::PositionalLine => a.line,
            Formation::Column => a.column,
            Formation::RoadColumn if horse_archer_column_bonus => a.road_column,
            Formation::RoadColumn => a.column,
            Formation::Ring => a.line * RING_SPEED,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_of_section_three() {
        use Formation::*;
        use UnitType::*;
        assert_eq!(allowance(LightInfantry, Column, Pace::Normal, false), 10.0);
        assert_eq!(
            allowance(HeavyInfantry, RoadColumn, Pace::OnRoad, false),
            8.0
        );
        assert_eq!(allowance(HeavyInfantry, Line, Pace::OnRoad, false), 5.0);
        assert_eq!(allowance(HeavyChariot, Line, Pace::Charge, false), 15.0);
        assert_eq!(allowance(LightChariot, Line, Pace::Normal, false), 12.0);
        assert_eq!(allowance(MediumInfantry, Ring, Pace::Normal, false), 3.0);
        assert_eq!(
            allowance(
                MediumCavalry,
                RoadColumn,
                Pace::ForcedMarch { on_road: false },
                false
            ),
            24.0
        );
        assert_eq!(
            allowance(
                MediumInfantry,
                RoadColumn,
                Pace::ForcedMarch { on_road: true },
                false
            ),
            15.0
        );
        assert_eq!(
            allowance(MediumCavalry, RoadColumn, Pace::Normal, true),
            24.0
        );
        assert_eq!(
            allowance(MediumCavalry, RoadColumn, Pace::Normal, false),
            18.0
        );
    }
}
