//! Questions the desk answers itself, so the game master never sees them:
//! those the geometry or the values he gave settle (rulings FA-56, FA-57).
//!
//! - **Within movement distance** (§5 Impetuous, M4): an enemy farther than
//!   the longest move any troop type may have (the game option
//!   `longest_move`) is within no unit's movement distance. With the unit's
//!   allowance known the engine decides the question itself and never asks.
//! - **A move that fits its allowance** (M4): a move, charge, pursuit,
//!   follow-up or withdrawal that turns no more than the sheet lets it turn
//!   for free and is no longer than the unit's known allowance gets there.
//!   A move that turns, a retreat, a balk or a wild move is still asked: how
//!   far those go, and what a turn costs, are the book's.
//!
//! ```
//! use umpire::games::fr_ancients::desk::settle::fits_allowance;
//! assert!(fits_allowance(6.0, 0.0, Some(8.0), false));
//! assert!(!fits_allowance(9.0, 0.0, Some(8.0), false), "too far: asked");
//! assert!(!fits_allowance(4.0, 45.0, Some(8.0), false), "a turn's cost is the book's");
//! assert!(fits_allowance(4.0, 45.0, Some(8.0), true), "Roman Battle Drill turns for free");
//! assert!(!fits_allowance(4.0, 0.0, None, false), "no allowance known: asked");
//! ```

use crate::games::fr_ancients::questions::{
    Answer, Ask, Judgement, MoveKind, MoveResult, Question,
};
use crate::games::fr_ancients::table::{Battle, CONTACT};

/// A turn this small is no turn (the engine's own tolerance for facings).
const NO_TURN: f64 = 0.5;

/// The answer the geometry or the known values give, if they settle it.
/// `longest`: the longest move of any troop type, in the table's measure.
pub fn settled(battle: &Battle, q: &Question, longest: Option<f64>) -> Option<Answer> {
    match &q.ask {
        Ask::Judge {
            unit,
            judgement: Judgement::EnemyWithinMove,
            ..
        } => {
            let d = nearest_enemy(battle, unit)?;
            (d > longest? + CONTACT).then_some(Answer::No)
        }
        Ask::Move {
            kind,
            distance,
            turn,
            allowance,
            free_change,
            ..
        } if settles_kind(kind) => fits_allowance(*distance, *turn, *allowance, *free_change)
            .then_some(Answer::Move(MoveResult::Goes)),
        _ => None,
    }
}

/// Whether a straight move of `distance` after a turn of `turn` degrees
/// is within `allowance` (with a free facing change, the turn costs nothing).
pub fn fits_allowance(distance: f64, turn: f64, allowance: Option<f64>, free_change: bool) -> bool {
    let Some(a) = allowance else {
        return false;
    };
    (turn <= NO_TURN || free_change) && distance <= a + CONTACT
}

/// The moves whose only limit the umpire knows is the allowance.
fn settles_kind(kind: &MoveKind) -> bool {
    matches!(
        kind,
        MoveKind::Normal
            | MoveKind::Charge { .. }
            | MoveKind::Impetuous { .. }
            | MoveKind::Pursuit
            | MoveKind::FollowUp { .. }
            | MoveKind::Withdraw
    )
}

/// How far a unit's nearest enemy is.
fn nearest_enemy(battle: &Battle, unit: &str) -> Option<f64> {
    let u = battle.units.get(unit)?;
    battle
        .present()
        .filter(|e| e.side != u.side)
        .map(|e| battle.distance(u, e))
        .min_by(f64::total_cmp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fr_ancients::part::Part;
    use crate::games::fr_ancients::setup::test_battle;
    use crate::games::fr_ancients::table::Place;

    /// Two units `gap` apart, the Roman one impetuous.
    fn battle(gap: f64) -> Battle {
        let units = format!(
            r#"
[[unit]]
id = "c"
side = "rome"
name = "Celts"
type = "Warband"
files = 4
ranks = 2
front = [24.0, 10.0]
facing = 0
[[unit]]
id = "s"
side = "carthage"
name = "Spearmen"
type = "Spears"
files = 4
ranks = 2
front = [24.0, {}]
facing = 180
"#,
            10.0 + gap + 1.5
        );
        test_battle(48.0, 60.0, &units)
    }

    fn within(unit: &str) -> Question {
        Question {
            key: format!("judge:{unit}:1:within-move"),
            part: Part::ImpetuousChecks,
            ask: Ask::Judge {
                unit: unit.into(),
                judgement: Judgement::EnemyWithinMove,
                facts: vec![],
            },
        }
    }

    #[test]
    fn an_enemy_beyond_the_longest_move_is_not_within_movement_distance() {
        let far = battle(23.0);
        assert_eq!(settled(&far, &within("c"), Some(20.0)), Some(Answer::No));
        let near = battle(12.0);
        assert_eq!(settled(&near, &within("c"), Some(20.0)), None, "asked");
        assert_eq!(settled(&far, &within("c"), None), None, "no bound: asked");
    }

    #[test]
    fn a_straight_move_within_the_known_allowance_goes() {
        let b = battle(23.0);
        let at = |y: f64, facing: f64| Place {
            front: glam::DVec2::new(24.0, y),
            facing,
        };
        let q = |distance: f64, turn: f64, allowance: Option<f64>, kind: MoveKind| Question {
            key: "move:c:1:move:1".into(),
            part: Part::NormalMovement,
            ask: Ask::Move {
                unit: "c".into(),
                kind,
                from: at(10.0, 0.0),
                to: at(10.0 + distance, turn),
                distance,
                turn,
                in_terrain: false,
                allowance,
                free_change: false,
            },
        };
        let goes = Some(Answer::Move(MoveResult::Goes));
        assert_eq!(
            settled(&b, &q(6.0, 0.0, Some(8.0), MoveKind::Normal), None),
            goes
        );
        assert_eq!(
            settled(&b, &q(8.0, 0.0, Some(8.0), MoveKind::Normal), None),
            goes
        );
        assert_eq!(
            settled(&b, &q(9.0, 0.0, Some(8.0), MoveKind::Normal), None),
            None
        );
        assert_eq!(
            settled(&b, &q(6.0, 0.0, None, MoveKind::Normal), None),
            None
        );
        assert_eq!(
            settled(&b, &q(6.0, 90.0, Some(8.0), MoveKind::Normal), None),
            None
        );
        let retreat = MoveKind::Retreat { from: "s".into() };
        assert_eq!(
            settled(&b, &q(1.0, 0.0, Some(8.0), retreat), None),
            None,
            "a retreat's distance is M8's"
        );
        let charge = MoveKind::Charge { target: "s".into() };
        assert_eq!(settled(&b, &q(6.0, 0.0, Some(8.0), charge), None), goes);
    }
}
