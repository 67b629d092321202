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
//! ([`super::questions::Base`]) what the sheet cannot decide. A part whose
//! questions wait for the game master ends the run: the phase is replayed
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
use super::table::Battle;
use crate::dice::{Dice, DiceError};

/// How a run of a phase ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Stopped {
    /// Every part was played (up to the one asked for).
    Done,
    /// The game master must answer these before the phase goes on; they
    /// belong to `part`.
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
    for part in Part::ALL {
        if part > until {
            break;
        }
        match engine.play(part) {
            Ok(()) => {}
            Err(Halt::Dice(e)) => return Err(e),
            Err(Halt::Gm) => {
                let (battle, events, questions) = engine.finish_waiting();
                return Ok(PhaseRun {
                    battle,
                    events,
                    stopped: Stopped::Gm { part, questions },
                });
            }
        }
        if engine.battle_over() {
            break;
        }
    }
    let (battle, events) = engine.finish();
    Ok(PhaseRun {
        battle,
        events,
        stopped: Stopped::Done,
    })
}
