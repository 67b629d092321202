//! Why the engine could not play a turn: one error for every step of the
//! [`sequence`](super::sequence), kept below them all.

use crate::dice::DiceError;
use crate::games::furor::board::UnitId;

/// Why the engine could not play the turn (bad input, not bad orders:
/// orders the rules refuse are events).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Dice(DiceError),
    #[error("the orders name {0}, which is not a counter of this board")]
    UnknownUnit(UnitId),
    #[error("the battle is over")]
    GameOver,
    #[error("engine fault: {0}")]
    Internal(String),
}
