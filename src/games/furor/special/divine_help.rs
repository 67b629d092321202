//! Tolbiac rule 1, the aid of the god of Clotilde (O39): if the Frankish
//! army is first to reach 12 on its army-morale total (checked in phase 5),
//! then for the whole next turn every unit next to or with Clovis has +1
//! strength, Clovis +2, and every Frankish unit +1 morale. Once a game.

use crate::games::furor::board::{Board, Unit};
use crate::games::furor::events::Event;
use crate::games::furor::play::Play;
use crate::games::furor::rules::special::DIVINE_HELP_TRIGGER;

/// Whether the Divine Help is in force for this unit now.
pub fn in_force_for(board: &Board, u: &Unit) -> bool {
    matches!(&board.rules.divine_help, Some(r) if r.franks == u.side)
        && board.memory.divine_help_turn == Some(board.turn)
}

/// Phase 5: whether the Franks have just reached 12 first.
pub(crate) fn phase_five(play: &mut Play) {
    let Some(rule) = play.board.rules.divine_help.clone() else {
        return;
    };
    if play.board.memory.divine_help_turn.is_some() {
        return;
    }
    let franks = play.board.lost(&rule.franks) >= DIVINE_HELP_TRIGGER;
    let alemanni = play.board.lost(&rule.alemanni) >= DIVINE_HELP_TRIGGER;
    if alemanni {
        // The Franks can no longer be first (O39).
        play.board.memory.divine_help_turn = Some(0);
    } else if franks {
        let turn = play.board.turn + 1;
        play.board.memory.divine_help_turn = Some(turn);
        play.emit(Event::DivineHelpEarned {
            side: rule.franks,
            turn,
        });
    }
}
