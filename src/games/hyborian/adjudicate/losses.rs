//! Figures lost (to fire, melee, magic, morale or a failed retreat): one
//! place removes them, eliminates a unit at none and ends its melees.

use super::events::Event;
use super::TurnState;
use crate::games::hyborian::table::Status;

/// Remove `n` figures from a unit (never below 0); a unit reduced to 0 is
/// eliminated and leaves its melees.
pub(crate) fn take_losses(turn: &mut TurnState, id: &str, n: u32) {
    let Some(u) = turn.table.units.get_mut(id) else {
        return;
    };
    let lost = n.min(u.figures);
    if lost == 0 {
        return;
    }
    u.figures -= lost;
    turn.events.push(Event::Casualties {
        unit: u.id.clone(),
        name: u.name.clone(),
        lost,
        left: u.figures,
    });
    if u.figures == 0 {
        u.status = Status::Eliminated;
        let partners = std::mem::take(&mut u.in_melee_with);
        turn.events.push(Event::Eliminated {
            unit: u.id.clone(),
            name: u.name.clone(),
        });
        for o in partners {
            if let Some(o) = turn.table.units.get_mut(&o) {
                o.in_melee_with.remove(id);
            }
        }
    }
}
