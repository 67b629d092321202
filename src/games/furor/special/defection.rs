//! Campus Mauriacus rule 4, the defection of the Alans (O33): each loss of
//! an Alan unit makes the Roman player roll; if the die is no more than the
//! Alan losses so far, every Alan unit left (and Sangiban) leaves the map
//! and counts in no total. By default a loss is an Alan unit eliminated,
//! rolled on 1d6, or 2d6 when the unit was full; by option
//! (`alan_defection = "steps"`) every result costing Alan steps rolls,
//! against the steps lost so far.

use crate::dice::DieKind;
use crate::games::furor::board::{Role, Status, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::Event;
use crate::games::furor::options::AlanDefection;
use crate::games::furor::play::Play;

/// After a result cost the unit `taken` steps (`was_full`: before it).
pub(crate) fn after_loss(
    play: &mut Play,
    id: &UnitId,
    taken: u8,
    was_full: bool,
) -> Result<(), EngineError> {
    let u = play.board.get(id);
    if !play.board.rules.alan_defection
        || play.board.memory.alans_defected
        || u.role != Some(Role::Alan)
    {
        return Ok(());
    }
    let eliminated = !u.is_on_map();
    let counts = match play.options.alan_defection {
        AlanDefection::Units => u16::from(eliminated),
        AlanDefection::Steps => u16::from(taken),
    };
    if counts == 0 {
        return Ok(());
    }
    let memory = &mut play.board.memory;
    memory.alan_losses += counts;
    memory.defection_rolls += 1;
    let (number, losses) = (memory.defection_rolls, memory.alan_losses);
    let two_dice = eliminated && was_full;
    let roll = play.roll(
        &format!("defection:{number}"),
        if two_dice {
            DieKind::TwoD6
        } else {
            DieKind::D6
        },
    )?;
    let defect = u16::from(roll) <= losses;
    play.emit(Event::DefectionRoll {
        number,
        two_dice,
        roll,
        losses,
        defect,
    });
    if defect {
        play.board.memory.alans_defected = true;
        let leaving: Vec<UnitId> = play
            .board
            .units
            .values()
            .filter(|u| u.is_on_map() && matches!(u.role, Some(Role::Alan | Role::AlanKing)))
            .map(|u| u.id.clone())
            .collect();
        for l in &leaving {
            let u = play.board.get_mut(l);
            u.status = Status::Removed;
            u.hex = None;
        }
        play.emit(Event::AlansDefect { units: leaving });
    }
    Ok(())
}
