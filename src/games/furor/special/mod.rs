//! The scenarios' special rules (§12): feigned flight, the Alans'
//! defection, the role of the commanders (Campus Mauriacus); Chararic
//! (Soissons); the aid of the god of Clotilde (Tolbiac); the Breton
//! cavalry (Vouillé). Impetuousness lives with movement, the Alan
//! cavalry's exception with charges and combat (marks). Here too are the
//! strength and morale modifiers the rules put on units for a turn.

pub mod breton;
pub mod chararic;
pub mod commanders_role;
pub mod defection;
pub mod divine_help;
pub mod feigned_flight;

use crate::games::furor::board::{Board, Role, Unit};
use crate::games::furor::rules::special::{
    DIVINE_HELP_CLOVIS, DIVINE_HELP_MORALE, DIVINE_HELP_NEAR_CLOVIS,
};

/// The effects of rule 5 (a commander's death) on the unit this turn (O35).
fn commander_effects(board: &Board, u: &Unit) -> i16 {
    board
        .memory
        .effects
        .iter()
        .filter(|e| {
            e.turn == board.turn && u.command_core && u.command.as_ref() == Some(&e.commander)
        })
        .map(|e| i16::from(e.delta))
        .sum()
}

/// Combat strength added or taken this turn by special rules.
pub fn strength_modifier(board: &Board, u: &Unit) -> i16 {
    let near_clovis = divine_help::in_force_for(board, u)
        && board.units.values().any(|c| {
            c.role == Some(Role::Clovis)
                && c.is_on_map()
                && c.side == u.side
                && c.hex
                    .zip(u.hex)
                    .is_some_and(|(a, b)| a == b || a.is_adjacent(b))
        });
    commander_effects(board, u)
        + if near_clovis {
            i16::from(DIVINE_HELP_NEAR_CLOVIS)
        } else {
            0
        }
}

/// Morale added or taken this turn by special rules.
pub fn morale_modifier(board: &Board, u: &Unit) -> i16 {
    commander_effects(board, u)
        + if divine_help::in_force_for(board, u) {
            i16::from(DIVINE_HELP_MORALE)
        } else {
            0
        }
}

/// What a commander adds beyond his printed strength this turn (Clovis +2).
pub fn commander_bonus(board: &Board, c: &Unit) -> u8 {
    if c.role == Some(Role::Clovis) && divine_help::in_force_for(board, c) {
        DIVINE_HELP_CLOVIS
    } else {
        0
    }
}
