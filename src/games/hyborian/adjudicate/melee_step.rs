//! The melee step of the turn (§4, §5): every melee's dice, one round of
//! every melee (`melee`), then heavy cavalry that broke through rides on
//! and fights whom it meets (`breakthrough`); what is left for the next
//! turn's melees (charge bonuses still due, the figures that fought).

use super::melee::{round, Tally};
use super::{breakthrough, roll, TurnState};
use crate::games::hyborian::dice::{Dice, DiceError, DiceKey};
use crate::games::hyborian::orders::plan::TurnOrders;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::UnitId;
use std::collections::{BTreeMap, BTreeSet};

/// Fight one round of every melee on the table, then the moves it allows:
/// heavy cavalry breaking through (and fighting whom it meets behind).
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn run(
    turn: &mut TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    dice: &mut dyn Dice,
) -> Result<(), DiceError> {
    let fighters: Vec<UnitId> = turn
        .table
        .units
        .values()
        .filter(|u| u.status.is_present() && !u.in_melee_with.is_empty())
        .map(|u| u.id.clone())
        .collect();
    let mut dice_of: BTreeMap<UnitId, u8> = BTreeMap::new();
    for id in &fighters {
        dice_of.insert(
            id.clone(),
            roll(dice, DiceKey::Melee { unit: id.clone() }, &mut turn.events)?,
        );
    }
    let opponents: BTreeMap<UnitId, BTreeSet<UnitId>> = fighters
        .iter()
        .map(|id| (id.clone(), turn.table.units[id].in_melee_with.clone()))
        .collect();
    let tally = round(turn, options, &dice_of, None, &Tally::new());
    breakthrough::after_round(
        turn,
        orders,
        options,
        dice,
        &mut dice_of,
        &tally,
        &opponents,
    )?;
    let table = &mut turn.table;
    let still: BTreeSet<UnitId> = table
        .charge_bonus_earned
        .iter()
        .filter(|id| {
            table
                .units
                .get(*id)
                .is_some_and(|u| !u.in_melee_with.is_empty())
        })
        .cloned()
        .collect();
    table.charge_bonus_earned = still;
    // Expansion counts from the last round of melees still going on.
    let units = &table.units;
    table.melee_figures.retain(|u, against| {
        let now = units.get(u).map(|u| &u.in_melee_with);
        against.retain(|o, _| now.is_some_and(|m| m.contains(o)));
        !against.is_empty()
    });
    Ok(())
}
