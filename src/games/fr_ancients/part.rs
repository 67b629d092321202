//! A part of a phase: the sheet's eight steps, the steps with sub-steps
//! split, in the order the [`sequence`](super::sequence) plays them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One part of a phase, in the sheet's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Part {
    /// 1. "Friendly troops attempt to rally."
    Rally,
    /// 2a. "Resolve all artillery, bow, and javelin missile fire."
    MissileFire,
    /// 2b. "Move any units retreating due to Double Demoralization when all firing is complete."
    FireRetreats,
    /// 2c. "Check and resolve any movement by impetuous units shot at but not demoralised."
    ShotAtImpetuous,
    /// 3. "Captured friendly characters attempt to escape."
    EscapeRolls,
    /// 4a. "Check for impetuous movement if applicable."
    ImpetuousChecks,
    /// 4b. "Move impetuous units."
    ImpetuousMoves,
    /// 4c. "Move any unit subject to Rage or Panic."
    RageAndPanic,
    /// 4d. "Perform normal movement."
    NormalMovement,
    /// 4e. "Make fear checks."
    FearChecks,
    /// 5. "Issue and resolve all challenge combat."
    Challenges,
    /// 6. "Conduct melee …; perform melee outcome moves after each individual combat."
    Melee,
    /// 7. "Determine Phase Winner."
    PhaseWinner,
    /// 8. "The phase loser lowers their morale clock by one."
    MoraleClock,
    /// The end of the phase: the next side's phase, or the next turn.
    EndOfPhase,
}

impl Part {
    pub const ALL: [Part; 15] = [
        Part::Rally,
        Part::MissileFire,
        Part::FireRetreats,
        Part::ShotAtImpetuous,
        Part::EscapeRolls,
        Part::ImpetuousChecks,
        Part::ImpetuousMoves,
        Part::RageAndPanic,
        Part::NormalMovement,
        Part::FearChecks,
        Part::Challenges,
        Part::Melee,
        Part::PhaseWinner,
        Part::MoraleClock,
        Part::EndOfPhase,
    ];

    /// The step of the sequence it belongs to (1–8; 9 for the end of the phase).
    pub fn step(self) -> u8 {
        match self {
            Part::Rally => 1,
            Part::MissileFire | Part::FireRetreats | Part::ShotAtImpetuous => 2,
            Part::EscapeRolls => 3,
            Part::ImpetuousChecks
            | Part::ImpetuousMoves
            | Part::RageAndPanic
            | Part::NormalMovement
            | Part::FearChecks => 4,
            Part::Challenges => 5,
            Part::Melee => 6,
            Part::PhaseWinner => 7,
            Part::MoraleClock => 8,
            Part::EndOfPhase => 9,
        }
    }

    /// The name case files and reports use.
    pub fn code(self) -> &'static str {
        match self {
            Part::Rally => "rally",
            Part::MissileFire => "2a",
            Part::FireRetreats => "2b",
            Part::ShotAtImpetuous => "2c",
            Part::EscapeRolls => "escape-rolls",
            Part::ImpetuousChecks => "4a",
            Part::ImpetuousMoves => "4b",
            Part::RageAndPanic => "4c",
            Part::NormalMovement => "4d",
            Part::FearChecks => "4e",
            Part::Challenges => "challenges",
            Part::Melee => "melee",
            Part::PhaseWinner => "phase-winner",
            Part::MoraleClock => "morale-clock",
            Part::EndOfPhase => "phase",
        }
    }

    /// The sheet's heading for the step.
    pub fn heading(self) -> &'static str {
        match self.step() {
            1 => "1. Rally Troops",
            2 => "2. Resolve Missile Fire",
            3 => "3. Escape Rolls",
            4 => "4. Movement",
            5 => "5. Challenges",
            6 => "6. Melee",
            7 => "7. Determine Phase Winner",
            8 => "8. Adjust Morale Clock",
            _ => "End of the phase",
        }
    }

    /// A part by its code; the step names `missile-fire` and `movement`
    /// mean their last part.
    pub fn parse(text: &str) -> Option<Part> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "missile-fire" => Some(Part::ShotAtImpetuous),
            "movement" => Some(Part::FearChecks),
            "end" => Some(Part::EndOfPhase),
            _ => Part::ALL.into_iter().find(|p| p.code() == t),
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
