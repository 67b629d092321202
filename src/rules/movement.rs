//! §3 Movement: the maximum distances of the book, in inches, and the
//! other fixed numbers of movement (the 2-inch step back, the forced-march
//! limits, the 45-degree oblique).
//!
//! ```
//! use umpire::rules::{UnitType, movement::{allowance, Pace}};
//! assert_eq!(allowance(UnitType::MediumInfantry, Pace::Line), 6.0);
//! assert_eq!(allowance(UnitType::HeavyChariot, Pace::Charge), 15.0);
//! ```

use crate::rules::UnitType;

/// Which column of the §3 table applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// In line (and positional line).
    Line,
    /// In column (or road column off a road).
    Column,
    /// In road column on a road.
    RoadColumnOnRoad,
    Charge,
    /// Forced march off a road (on a road: × [`FORCED_MARCH_ON_ROAD`]).
    ForcedMarch,
}

/// One row of the §3 table: line, column, road column on a road, charge,
/// forced march.
struct Row(f64, f64, f64, f64, f64);

fn row(kind: UnitType) -> Option<Row> {
    Some(match kind {
        UnitType::LightInfantry => Row(8.0, 10.0, 12.0, 12.0, 12.0),
        UnitType::MediumInfantry | UnitType::MediumPike => Row(6.0, 8.0, 10.0, 10.0, 10.0),
        UnitType::HeavyInfantry | UnitType::HeavyPike => Row(5.0, 6.0, 8.0, 8.0, 8.0),
        UnitType::MediumCavalry => Row(18.0, 18.0, 24.0, 24.0, 24.0),
        UnitType::HeavyCavalry => Row(12.0, 12.0, 18.0, 18.0, 18.0),
        UnitType::WoollyMammoth => Row(8.0, 8.0, 12.0, 12.0, 12.0),
        UnitType::HeavyChariot => Row(10.0, 10.0, 15.0, 15.0, 15.0),
        UnitType::LightChariot => Row(12.0, 12.0, 18.0, 18.0, 18.0),
        UnitType::Commander | UnitType::Hero | UnitType::Superhero | UnitType::Wizard => {
            return None
        }
    })
}

/// The most a single figure moves in a phase: commanders at light-cavalry
/// road-column speed when mounted (24), wizards at light-foot forced-march
/// speed (12). The table does not record whether a leader is mounted, so
/// leaders are allowed the mounted figure (ruling O-7 in docs/rulings/orders.md).
pub fn single_figure_move(kind: UnitType) -> f64 {
    match kind {
        UnitType::Wizard => WIZARD_MOVE,
        _ => MOUNTED_LEADER_MOVE,
    }
}

/// Commanders on foot: light-infantry road-column speed.
pub const FOOT_LEADER_MOVE: f64 = 12.0;
/// Commanders mounted: light-cavalry road-column speed.
pub const MOUNTED_LEADER_MOVE: f64 = 24.0;
/// Wizards: light-foot forced-march speed.
pub const WIZARD_MOVE: f64 = 12.0;

/// Maximum distance for a unit of this type at this pace, in inches.
/// Single figures move at [`single_figure_move`] whatever the pace.
pub fn allowance(kind: UnitType, pace: Pace) -> f64 {
    match row(kind) {
        None => single_figure_move(kind),
        Some(Row(line, column, road, charge, forced)) => match pace {
            Pace::Line => line,
            Pace::Column => column,
            Pace::RoadColumnOnRoad => road,
            Pace::Charge => charge,
            Pace::ForcedMarch => forced,
        },
    }
}

/// All foot may move this far straight back without changing face.
pub const FOOT_STEP_BACK: f64 = 2.0;
/// A ring moves at this fraction of the line move.
pub const RING_FACTOR: f64 = 0.5;
/// A forced march on a road goes this many times the road-column figure.
pub const FORCED_MARCH_ON_ROAD: f64 = 1.5;
/// A forced march never comes within this many inches of the enemy.
pub const FORCED_MARCH_ENEMY_CLEARANCE: f64 = 24.0;
/// The widest oblique move, degrees either side of straight ahead.
pub const MAX_OBLIQUE: f64 = 45.0;
/// A change of face or formation counts as this many inches of movement.
pub const FACE_OR_FORMATION_INCHES: f64 = 3.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_book() {
        assert_eq!(allowance(UnitType::LightInfantry, Pace::Column), 10.0);
        assert_eq!(
            allowance(UnitType::HeavyInfantry, Pace::RoadColumnOnRoad),
            8.0
        );
        assert_eq!(allowance(UnitType::MediumCavalry, Pace::ForcedMarch), 24.0);
        assert_eq!(allowance(UnitType::LightChariot, Pace::Line), 12.0);
        assert_eq!(allowance(UnitType::WoollyMammoth, Pace::Charge), 12.0);
        assert_eq!(allowance(UnitType::Wizard, Pace::Line), 12.0);
    }
}
