//! A general's besieged capital: relieved by a field army next to it, and
//! when its garrison sallies (ruling CA-5). A sally is
//! the same battle the garrison fights when starved out (no one falls
//! back unless one side breaks, CA-9), so the only question is whether
//! now is better than later: while it waits, the capital stays its own
//! and its raises join the garrison, and its starving forces the fight in
//! any case. The general cannot see what the enemy counters hold, so it
//! reads the odds from what it can: how many counters stand in the
//! province, and its own armies that will fight there this week anyway.

use super::Doctrine;
use crate::games::hyborian::campaign::fog::View;
use crate::games::hyborian::campaign::game::{home_only_units, Army, Stance};
use crate::games::hyborian::campaign::map::World;

/// Whether the garrison `g` (`strength`: its points with what merges into
/// it this week) comes out to fight: beside `beside`, its own armies that
/// fight in the province this week anyway (the relief a doctrine waits
/// for), or on its own strength against the counters it sees.
pub(super) fn sally(v: &View<'_>, d: &Doctrine, g: &Army, strength: u32, beside: &[&Army]) -> bool {
    let enemies = v.counters_in(&g.province) as u32;
    if v.winter || g.stance != Stance::Garrison || enemies == 0 {
        return false;
    }
    if d.sallies_with_relief && !beside.is_empty() {
        return true;
    }
    let host = strength + beside.iter().map(|a| a.points()).sum::<u32>();
    d.sally_percent
        .is_some_and(|pc| host * 100 >= pc * v.settings.max_army_points * enemies)
}

/// `army X move to CAPITAL`: a field army next to its besieged capital
/// (a counter in it, its garrison `g` behind the walls) marches to
/// relieve it, when strong enough to march and its doctrine relieves.
pub(super) fn relieve(
    v: &View<'_>,
    world: &World,
    d: &Doctrine,
    a: &Army,
    strength: u32,
    g: &Army,
) -> Option<String> {
    // A hired company's troops that fight only at home would be refused
    // its employer's land.
    let own = v.me.is_some_and(|me| a.owner == me.id) || home_only_units(&a.contents).is_empty();
    let ready = own && a.march.is_none() && a.stance == Stance::Field && !v.winter;
    let besieged = v.counters_in(&g.province) > 0;
    if !d.relieves || !ready || !besieged || strength < d.min_march_points {
        return None;
    }
    world.march_days(&a.province, &g.province)?;
    let capital = world.province(&g.province)?;
    (!capital.name.contains(',')).then(|| format!("army {} move to {}", a.id, capital.name))
}

/// Whether `a` meets the enemy in `province` this week: it stands there
/// outside the walls, or its march under way ends there (the resolver's
/// march days, ruling CA-3).
pub(super) fn fights_there(world: &World, a: &Army, province: &str) -> bool {
    match &a.march {
        None => a.province == province && a.stance != Stance::Garrison,
        Some(m) => m.to == province && reaches(world, a, province, m.days),
    }
}

/// Whether `a`, with `days` made on its march to `to`, gets there this week.
pub(super) fn reaches(world: &World, a: &Army, to: &str, days: u32) -> bool {
    world
        .march_days(&a.province, to)
        .is_some_and(|needed| days + a.week_march() >= needed)
}
