//! One map turn, resolved for all powers at once (§12). A pure function of
//! the campaign, the map, every power's orders, the secretary's battle
//! results and a dice source; it returns the new campaign and the turn's
//! [`MapEvent`]s in a fixed order. The steps, in order:
//!
//! 1. battle results entered (the secretary's, or a battle game's by mail),
//!    and waiting battles the secretary gave to the engine;
//! 2. in winter quarters: the year ends (pacified provinces change hands,
//!    hired companies go home, every power rebuilds to its points);
//! 3. contracts (hire/serve, pay), then split, merge, raise and stances;
//! 4. marches (not in winter), by march days against the terrain;
//! 5. sieges: a garrison starved out must come out and fight;
//! 6. meetings: enemies in one province fight (engine, secretary or mail);
//! 7. occupation and pacification; then the calendar moves on.

mod administer;
mod battles;
mod calendar;
mod check;
mod events;
mod losses;
mod march;

pub use check::{check, check_all, may_raise};
pub use events::{BattleSide, EnteredResult, MapEvent, Resolved};
pub use losses::{share_of, RECOVERED_FALLING_BACK, RECOVERED_HOLDING_THE_FIELD};

use super::game::Campaign;
use super::map::World;
use super::orders::{Line, Order};
use crate::games::hyborian::dice::{Dice, DiceError};
use std::collections::BTreeMap;

/// The campaign as a week's orders are judged: in winter quarters, after
/// the year has ended (treasuries rebuilt, companies gone home), so a raise
/// is checked against the treasury the same report announces.
pub fn as_ordered(c: &Campaign, world: &World) -> Campaign {
    let mut t = Turn {
        c: c.clone(),
        world,
        events: Vec::new(),
    };
    if t.c.winter() {
        t.year_ends();
    }
    t.c
}

/// The report's context; `pictures` maps a battle's id to where the HTML
/// finds the picture of its last table (empty for the text).
/// The campaign as a report shows it: in winter quarters the year has
/// already ended for the orders now written (pacified provinces changed
/// hands, contracts over, treasuries rebuilt; ruling CA-12), so the report
/// that opens winter orders shows the new year's treasury, provinces and
/// contracts, as the orders will be judged (issue 45: it showed last
/// year's).
pub fn as_shown<'c>(c: &'c Campaign, world: &World) -> std::borrow::Cow<'c, Campaign> {
    if c.winter() {
        std::borrow::Cow::Owned(as_ordered(c, world))
    } else {
        std::borrow::Cow::Borrowed(c)
    }
}

/// Resolve the map turn.
///
/// # Errors
/// Only a scripted dice source without a roll.
pub fn resolve(
    start: &Campaign,
    world: &World,
    orders: &BTreeMap<String, Vec<Line<Order>>>,
    results: &[EnteredResult],
    dice: &mut dyn Dice,
) -> Result<Resolved, DiceError> {
    let mut t = Turn {
        c: start.clone(),
        world,
        events: Vec::new(),
    };
    // Checked against the campaign as the orders were given (after the
    // year's end in winter, ruling CA-12), before the battle results
    // entered since: an order the confirmation refused because its army
    // awaited a battle stays refused (issue 45); then carried out in order.
    let basis = as_ordered(start, world);
    t.entered_results(results, dice)?;
    if t.c.winter() {
        t.year_ends();
    }
    // Each of a power's raises is judged against its armies as its
    // earlier raises of the week leave them (issue 45).
    let mut valid: Vec<(String, &Line<Order>)> = Vec::new();
    for (power, lines) in orders {
        let verdicts = check_all(&basis, world, power, lines.iter().map(|l| &l.item));
        for (line, verdict) in lines.iter().zip(verdicts) {
            match verdict {
                Ok(()) => valid.push((power.clone(), line)),
                Err(why) => t.events.push(MapEvent::Refused {
                    power: power.clone(),
                    line: line.text.clone(),
                    why,
                    number: Some(line.number),
                }),
            }
        }
    }
    t.contracts(&valid);
    for (power, line) in &valid {
        t.administer(power, line);
    }
    if !t.c.winter() {
        let arrived = t.march();
        let forced = t.sieges(&valid);
        t.meetings(&forced, &arrived, dice)?;
        t.occupy();
    }
    t.c.turn += 1;
    if t.c.winter() {
        t.c.year += 1;
        t.c.week = 1;
    } else {
        t.c.week += 1;
    }
    Ok(Resolved {
        campaign: t.c,
        events: t.events,
    })
}

struct Turn<'w> {
    c: Campaign,
    world: &'w World,
    events: Vec<MapEvent>,
}

#[cfg(test)]
mod tests;
