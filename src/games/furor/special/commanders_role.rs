//! Campus Mauriacus optional rule 5, the role of the commanders (O35):
//! with the option, a commander's bonuses reach only his own troops
//! ([`crate::games::furor::morale::commands`]); when one is eliminated his
//! side rolls: 1–2, his troops have −1 strength and morale for the next
//! turn; 3–5, nothing; 6, +1. For Aetius only the Roman units, for
//! Ardaric only the Gepids (the scenario file's `command_core`).

use crate::dice::DieKind;
use crate::games::furor::board::{Effect, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::Event;
use crate::games::furor::play::Play;
use crate::games::furor::rules::special::commander_loss_effect;

/// A commander was eliminated.
pub(crate) fn commander_lost(play: &mut Play, id: &UnitId) -> Result<(), EngineError> {
    if !play.options.commanders_role {
        return Ok(());
    }
    let roll = play.roll(&format!("commander-loss:{id}"), DieKind::D6)?;
    let delta = commander_loss_effect(roll);
    let turn = play.board.turn + 1;
    play.emit(Event::CommanderLossRoll {
        commander: id.clone(),
        roll,
        delta,
        turn,
    });
    if delta != 0 {
        play.board.memory.effects.push(Effect {
            turn,
            commander: id.clone(),
            delta,
        });
    }
    Ok(())
}
