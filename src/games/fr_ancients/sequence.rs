//! The sequence of play (digest §2) as a fixed pipeline: a turn is two
//! phases, one per side (ruling FA-1), and each phase runs the sheet's
//! eight steps in order, the steps with sub-steps split into [`Part`]s:
//!
//! | step | parts |
//! |---|---|
//! | 1 Rally Troops | `rally` |
//! | 2 Resolve Missile Fire | `2a` fire, `2b` DD retreats, `2c` impetuous units shot at |
//! | 3 Escape Rolls | `escape-rolls` |
//! | 4 Movement | `4a` impetuous checks, `4b` impetuous moves, `4c` Rage and Panic, `4d` normal movement, `4e` fear checks |
//! | 5 Challenges | `challenges` |
//! | 6 Melee | `melee` |
//! | 7 Determine Phase Winner | `phase-winner` |
//! | 8 Adjust Morale Clock | `morale-clock` |
//!
//! [`run_phase`] plays the parts in this order, asking the base rules
//! ([`super::questions::Base`]) what the sheet cannot decide. Questions
//! that wait for the game master are gathered, part after part, until a
//! part needs their answers: that ends the run, and the phase is replayed
//! from its start once the answers are in, with the same dice.
//!
//! ```
//! use umpire::games::fr_ancients::sequence::Part;
//! assert_eq!(Part::ALL.len(), 15);
//! assert_eq!(Part::parse("4c"), Some(Part::RageAndPanic));
//! assert_eq!(Part::MissileFire.step(), 2);
//! assert!(Part::parse("movement").is_some());
//! ```

// Also its path before it had a module of its own, which doc examples and
// tests/world/fr_ancients.rs name.
pub use super::part::Part;

use super::engine::{Engine, Halt};
use super::events::Logged;
use super::options::Options;
use super::orders::TurnOrders;
use super::pack::Pack;
use super::questions::{Base, Question};
use super::table::{Battle, UnitId};
use crate::dice::{Dice, DiceError};
use std::collections::BTreeSet;

/// How a run of a phase ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Stopped {
    /// Every part was played (up to the one asked for).
    Done,
    /// The game master must answer these before the phase goes on; the
    /// first of them belongs to `part`, the others to it or later parts.
    Gm {
        part: Part,
        questions: Vec<Question>,
    },
}

/// The result of playing (some of) a phase.
#[derive(Debug, Clone)]
pub struct PhaseRun {
    /// The battle after the last part played (after the phase, when done).
    pub battle: Battle,
    pub events: Vec<Logged>,
    pub stopped: Stopped,
}

/// Play the battle's current phase, through `until` (inclusive), with the
/// given orders, base rules and dice. Pure: the same inputs give the same
/// run.
///
/// A part whose questions wait for the game master does not end the run:
/// the later parts are played on, and their questions join the same
/// situation while they touch no unit an earlier waiting question touches
/// ([`super::questions::Ask::touches`]); the first part with a question
/// that does — one that truly needs an earlier answer — is left for the
/// next situation, and so are the phase's winner and clock. A question
/// asked beside an earlier one is read on the table as it stands without
/// that answer; the desk takes an answer only for the question it answered
/// ([`super::desk::Desk::asked`]), so one that reads differently once the
/// earlier answers are in is asked again.
///
/// # Errors
/// A scripted die without a value for a key the phase needs.
pub fn run_phase(
    battle: &Battle,
    orders: &TurnOrders,
    options: &Options,
    pack: Option<&Pack>,
    base: &mut dyn Base,
    dice: &mut dyn Dice,
    until: Part,
) -> Result<PhaseRun, DiceError> {
    let mut engine = Engine::new(battle.clone(), orders, options, pack, base, dice);
    let mut first: Option<Part> = None;
    let mut touched: BTreeSet<UnitId> = BTreeSet::new();
    for part in Part::ALL {
        if part > until || (first.is_some() && part >= Part::PhaseWinner) {
            break;
        }
        let before = engine.waiting().len();
        match engine.play(part) {
            Ok(()) | Err(Halt::Gm) => {}
            Err(Halt::Dice(e)) => return Err(e),
        }
        let new: BTreeSet<UnitId> = engine.waiting()[before..]
            .iter()
            .flat_map(|q| q.ask.touches(&engine.battle))
            .collect();
        if first.is_some() && !new.is_disjoint(&touched) {
            engine.keep_waiting(before);
            break;
        }
        if engine.waiting().len() > before {
            first.get_or_insert(part);
            touched.extend(new);
        }
        if engine.battle_over() {
            break;
        }
    }
    if let Some(part) = first {
        let (battle, events, questions) = engine.finish_waiting();
        return Ok(PhaseRun {
            battle,
            events,
            stopped: Stopped::Gm { part, questions },
        });
    }
    let (battle, events) = engine.finish();
    Ok(PhaseRun {
        battle,
        events,
        stopped: Stopped::Done,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::SeededDice;
    use crate::games::fr_ancients::desk::values::read_values;
    use crate::games::fr_ancients::desk::{read_answers, Desk, Situation};
    use crate::games::fr_ancients::orders::check;
    use crate::games::fr_ancients::setup::test_battle;

    /// Rome's demoralised hastati (a rally roll) and its horse, far from
    /// Carthage's spearmen.
    fn battle() -> Battle {
        test_battle(
            60.0,
            60.0,
            r#"
[[unit]]
id = "h"
side = "rome"
name = "Roman Hastati"
type = "Hand Weapons"
files = 4
ranks = 2
front = [10.0, 10.0]
facing = 0
dmz = 1
[[unit]]
id = "c"
side = "rome"
name = "Roman Cavalry"
type = "Medium Cavalry"
files = 2
ranks = 1
front = [40.0, 10.0]
facing = 0
[[unit]]
id = "s"
side = "carthage"
name = "Carthaginian Spearmen"
type = "Spears"
files = 4
ranks = 2
front = [30.0, 55.0]
facing = 180
"#,
        )
    }

    /// Play Rome's phase with these orders, the game master passing every
    /// test and letting every move go; the situations' parts, one list a
    /// situation.
    fn situations(b: &Battle, orders: &str) -> Vec<Vec<Part>> {
        let options = Options::default();
        let mut turn = TurnOrders::default();
        let c = check(b, "rome", orders, None, &options);
        assert!(c.diagnostics.is_empty(), "{}", c.render());
        turn.sides.insert("rome".into(), c.orders);
        let mut desk = Desk::for_game(b, &options);
        let mut asked = Vec::new();
        for _ in 0..10 {
            let mut dice = SeededDice::new([3; 32]);
            let run = run_phase(
                b,
                &turn,
                &options,
                None,
                &mut desk.clone(),
                &mut dice,
                Part::EndOfPhase,
            )
            .unwrap();
            let Stopped::Gm { part, questions } = run.stopped else {
                return asked;
            };
            let s = Situation::new(&run.battle, part, questions, None);
            asked.push(s.parts());
            let text: String = s
                .questions
                .iter()
                .enumerate()
                .map(|(i, q)| match q.ask {
                    crate::games::fr_ancients::questions::Ask::Move { .. } => {
                        format!("{}: ok\n", i + 1)
                    }
                    _ => format!("{}: pass\n", i + 1),
                })
                .collect();
            let reading = read_answers(&s, &run.battle, &text);
            desk.take(&s, reading.answers);
        }
        panic!("the phase never ends: {asked:?}");
    }

    #[test]
    fn questions_about_other_units_share_one_situation() {
        let asked = situations(&battle(), "Roman Cavalry: move to 40, 14\n");
        assert_eq!(asked, [vec![Part::Rally, Part::NormalMovement]]);
    }

    #[test]
    fn a_question_that_needs_an_earlier_answer_waits_for_it() {
        let asked = situations(&battle(), "Roman Hastati: move to 10, 12\n");
        assert_eq!(
            asked,
            [vec![Part::Rally], vec![Part::NormalMovement]],
            "the hastati's move waits on its rally roll"
        );
    }

    #[test]
    fn a_move_the_known_allowance_covers_is_not_asked() {
        let mut b = battle();
        read_values(Some(&b), "VALUES\nMedium Cavalry: move 8/4\nEND VALUES\n")
            .values
            .apply(&mut b);
        let asked = situations(&b, "Roman Cavalry: move to 40, 14\n");
        assert_eq!(asked, [vec![Part::Rally]], "only the rally roll is asked");
        let far = situations(&b, "Roman Cavalry: move to 40, 19\n");
        assert_eq!(
            far,
            [vec![Part::Rally, Part::NormalMovement]],
            "9\" is past 8\": asked"
        );
    }
}
