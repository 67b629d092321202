//! Figures lost (to fire, melee, magic, trampling, burning woods or a
//! rout): one place removes them, eliminates a unit at none, ends its
//! melees, and lets the casualties beyond its figures fall on its heroes,
//! who are the last figures of the unit to die (§4, ruling C-23).

use super::events::Event;
use super::TurnState;
use crate::games::hyborian::rules::UnitType;
use crate::games::hyborian::table::{Status, UnitId};

/// Casualties on a unit, from any source: its figures first (never below
/// 0; a unit reduced to 0 is eliminated and leaves its melees), then one
/// casualty each on the heroes attached to it, in id order (§4: the hero
/// "is the last figure in that unit to be killed"; ruling C-23). A
/// commander is never killed this way (§9).
pub(crate) fn take_losses(turn: &mut TurnState, id: &str, n: u32) {
    let figures = turn.table.units.get(id).map_or(0, |u| u.figures);
    remove_figures(turn, id, n);
    let mut beyond = n.saturating_sub(figures);
    if beyond == 0 {
        return;
    }
    let heroes: Vec<UnitId> = turn
        .table
        .units
        .values()
        .filter(|h| {
            h.attached_to.as_deref() == Some(id)
                && h.status.is_present()
                && matches!(h.kind, UnitType::Hero | UnitType::Superhero)
        })
        .map(|h| h.id.clone())
        .collect();
    for h in heroes {
        if beyond == 0 {
            break;
        }
        remove_figures(turn, &h, 1);
        beyond -= 1;
    }
}

/// Remove `n` of a unit's own figures (never below 0); a unit reduced to 0
/// is eliminated and leaves its melees.
fn remove_figures(turn: &mut TurnState, id: &str, n: u32) {
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
