//! Soissons rule 1, Chararic (O37): his corps is neutral for the first two
//! turns — it does not move, attack or exert a zone of control, and blocks
//! its hexes. An attack on one of his units makes the whole corps join the
//! attacker's opponent at once. From turn 3, until he has chosen, the
//! Frankish player rolls at the start of each turn: 1, he betrays Clovis;
//! 2–5, he waits; 6, he joins Clovis.

use crate::dice::DieKind;
use crate::games::furor::board::SideId;
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{Event, JoinReason};
use crate::games::furor::play::Play;
use crate::games::furor::rules::special::{
    chararic_choice, ChararicChoice, CHARARIC_NEUTRAL_TURNS,
};

/// The corps goes over to `side` for the rest of the game.
fn join(play: &mut Play, side: SideId, reason: JoinReason) {
    let Some(rule) = play.board.rules.chararic.take() else {
        return;
    };
    for u in play
        .board
        .units
        .values_mut()
        .filter(|u| u.side == rule.corps)
    {
        u.side = side.clone();
    }
    play.board.memory.chararic_joined = Some(side.clone());
    play.emit(Event::CorpsJoins { side, reason });
}

/// The start-of-turn roll (before phase 1: O1, O37).
pub(crate) fn start_of_turn(play: &mut Play) -> Result<(), EngineError> {
    let Some(rule) = play.board.rules.chararic.clone() else {
        return Ok(());
    };
    let turn = play.board.turn;
    if turn <= CHARARIC_NEUTRAL_TURNS {
        return Ok(());
    }
    let roll = play.roll(&format!("chararic:{turn}"), DieKind::D6)?;
    let choice = chararic_choice(roll);
    play.emit(Event::ChararicRoll { turn, roll, choice });
    match choice {
        ChararicChoice::Betrays => join(play, rule.gallo_romans, JoinReason::Roll),
        ChararicChoice::JoinsClovis => join(play, rule.franks, JoinReason::Roll),
        ChararicChoice::StaysNeutral => {}
    }
    Ok(())
}

/// One of his units is attacked by the phasing side: the corps joins its opponent.
pub(crate) fn attacked(play: &mut Play) -> Result<(), EngineError> {
    let Some(rule) = play.board.rules.chararic.clone() else {
        return Ok(());
    };
    let by = play.side.clone();
    let to = if by == rule.franks {
        rule.gallo_romans
    } else {
        rule.franks
    };
    join(play, to, JoinReason::AttackedBy(by));
    Ok(())
}
