//! What a general raises with its treasury: units of its list, each
//! judged as the week will judge it (`resolve::may_raise`, over its own
//! armies and the units raised before it in the letter), so no raise it
//! writes is refused.

use super::Doctrine;
use crate::games::hyborian::army::{ArmyFile, Designation, UnitLine};
use crate::games::hyborian::campaign::fog::View;
use crate::games::hyborian::campaign::game::{find_list, lists, Power};
use crate::games::hyborian::campaign::map::World;
use crate::games::hyborian::campaign::resolve::may_raise;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// `raise N Designation` lines, up to the doctrine's number a week, each
/// as large a unit as the treasury left pays for; the designations tried
/// in an order drawn from the seed.
pub(super) fn orders(
    v: &View<'_>,
    world: &World,
    d: &Doctrine,
    rng: &mut ChaCha8Rng,
) -> Vec<String> {
    let Some(me) = v.me else {
        return Vec::new();
    };
    let place = v.raising_place(world);
    let owned: Vec<(&str, &ArmyFile)> = v
        .own
        .iter()
        .filter(|a| a.owner == me.id)
        .map(|a| (a.id.as_str(), &a.contents))
        .collect();
    // A nation raises where it holds its land; a company, with an army of
    // its own to take the unit (ruling CA-34).
    let can = if me.nation.is_some() {
        place.is_some()
    } else {
        !owned.is_empty()
    };
    let Some(list) = find_list(lists(), &me.list).filter(|_| can) else {
        return Vec::new();
    };
    let mut choices: Vec<&Designation> = list
        .designations()
        .filter(|(arm, _)| d.raises_home_only || !arm.home_only)
        .map(|(_, u)| u)
        .filter(|u| !u.is_guard() && u.figure_cost() > 0 && !u.designation.contains(','))
        .collect();
    choices.shuffle(rng);
    let mut left = me.clone();
    let mut raised = ArmyFile {
        nation: me.list.clone(),
        ..ArmyFile::default()
    };
    let mut out = Vec::new();
    for u in choices {
        if out.len() >= d.raises {
            break;
        }
        let figures = u.figures.max().min(left.treasury / u.figure_cost());
        if figures < u.figures.min().max(1) {
            continue;
        }
        let mut forces = owned.clone();
        forces.push(("", &raised));
        if may_raise(
            world,
            &left,
            place.as_deref(),
            &forces,
            figures,
            &u.designation,
        )
        .is_err()
        {
            continue;
        }
        out.push(format!("raise {figures} {}", u.designation));
        spend(&mut left, &mut raised, u, figures);
    }
    out
}

/// The treasury and the letter's new units after raising `figures` of `u`.
fn spend(left: &mut Power, raised: &mut ArmyFile, u: &Designation, figures: u32) {
    left.treasury -= figures * u.figure_cost();
    raised.units.push(UnitLine {
        designation: u.designation.clone(),
        figures,
        name: None,
        crossbows: false,
    });
}
