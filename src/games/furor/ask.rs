//! Asking the owner (§15, option `ask_owner`, ruling FB-19). In the
//! phasing player's turn the other player makes a few choices for his own
//! units: where a unit retreats among hexes the rules rank equal (§9.8),
//! whether a defender advances into a hex an attacker left (§9.11), whether
//! the Bretons try to evade (Vouillé rule 1). His standing reactions cover
//! them; when none does, the engine takes the default and, with the
//! option, marks the first such choice of the turn as a [`Question`]. The
//! post office then stops the turn there and asks him by mail; his answer
//! is an [`Answer`] kept for that occasion only, and the turn is played
//! again from its start with the dice already shown, so everything before
//! the question happens exactly as reported.
//!
//! An occasion is named like a dice key, `retreat:UNIT:K` for the unit's
//! K-th such choice of the player-turn, so a replay finds it again.

use crate::games::furor::board::{Board, UnitId};
use crate::games::furor::hex::Hex;
use crate::games::furor::orders::{Answer, DefenderAdvance, Evasion, Reactions};
use crate::games::furor::rules::crt::Column;
use serde::{Deserialize, Serialize};

/// A choice the other player's standing reactions left open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Question {
    /// The unit must retreat from `from`; these hexes are equally good by
    /// the book's priorities.
    Retreat {
        unit: UnitId,
        from: Hex,
        hexes: Vec<Hex>,
    },
    /// The defender held and these attackers' hexes are empty: it may
    /// advance into one of them, or stay.
    Advance { unit: UnitId, hexes: Vec<Hex> },
    /// The Bretons may try to evade an attack at this column.
    Evade { unit: UnitId, column: Column },
}

/// Where a turn stopped for a question: what to ask, and how far the turn
/// had gone (events emitted and dice rolled by the player-turn before it),
/// with the board as it stood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pause {
    pub key: String,
    pub question: Question,
    pub events: usize,
    pub rolls: usize,
    pub board: Board,
}

impl Question {
    pub fn unit(&self) -> &UnitId {
        match self {
            Question::Retreat { unit, .. }
            | Question::Advance { unit, .. }
            | Question::Evade { unit, .. } => unit,
        }
    }

    /// The question as the owner reads it, with the lines that answer it.
    pub fn text(&self, board: &Board) -> Vec<String> {
        let name = |id: &UnitId| board.unit(id).map_or_else(|| id.0.clone(), |u| u.label());
        let list = |hexes: &[Hex]| {
            hexes
                .iter()
                .map(Hex::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Question::Retreat { unit, from, hexes } => vec![
                format!(
                    "{} must retreat from {from}, and {} are equally good by the rules (§9.8): where does it go?",
                    name(unit),
                    list(hexes)
                ),
                format!("Answer with a line like: retreat {unit} {}", hexes[0]),
            ],
            Question::Advance { unit, hexes } => vec![
                format!(
                    "{} held, and the attackers' {} {} empty: does it advance (§9.11)?",
                    name(unit),
                    if hexes.len() == 1 { "hex" } else { "hexes" },
                    if hexes.len() == 1 {
                        format!("{} is", hexes[0])
                    } else {
                        format!("{} are", list(hexes))
                    }
                ),
                format!(
                    "Answer with a line like: advance {unit} into {} (or: no advance)",
                    hexes[0]
                ),
            ],
            Question::Evade { unit, column } => vec![
                format!(
                    "{} are attacked at {column}: do they try to evade (Vouillé rule 1)?",
                    name(unit)
                ),
                format!("Answer with a line like: evade {unit} always (or: evade {unit} never)"),
            ],
        }
    }

    /// The answer a mail's reactions give (what it does not settle is the
    /// umpire's default).
    pub fn answer_in(&self, written: &Reactions) -> Answer {
        match self {
            Question::Retreat { unit, hexes, .. } => written
                .retreat
                .get(unit)
                .and_then(|w| w.iter().find(|h| hexes.contains(h)))
                .map_or(Answer::Default, |h| Answer::Hex(*h)),
            Question::Advance { unit, hexes } => match &written.advance {
                DefenderAdvance::Unit(u) if u == unit => Answer::Hex(hexes[0]),
                DefenderAdvance::Into(map) => map
                    .get(unit)
                    .filter(|h| hexes.contains(h))
                    .map_or(Answer::Default, |h| Answer::Hex(*h)),
                DefenderAdvance::Stay => Answer::Stay,
                _ => Answer::Default,
            },
            Question::Evade { unit, column } => match written.evasion.get(unit) {
                Some(Evasion::Always) => Answer::Evade,
                Some(Evasion::Never) => Answer::DoNotEvade,
                Some(Evasion::AtOdds(c)) if column >= c => Answer::Evade,
                Some(Evasion::AtOdds(_)) => Answer::DoNotEvade,
                None => Answer::Default,
            },
        }
    }
}

/// How an answer reads in a confirmation or a report.
pub fn answer_text(question: &Question, answer: Answer, board: &Board) -> String {
    let name = board
        .unit(question.unit())
        .map_or_else(|| question.unit().0.clone(), |u| u.label());
    match answer {
        Answer::Hex(h) => match question {
            Question::Retreat { .. } => format!("{name} retreats to {h}"),
            _ => format!("{name} advances into {h}"),
        },
        Answer::Stay => format!("{name} does not advance"),
        Answer::Evade => format!("{name} try to evade"),
        Answer::DoNotEvade => format!("{name} do not try to evade"),
        Answer::Default => "no answer: the umpire's default applies".to_string(),
    }
}
