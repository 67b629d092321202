//! When a general's besieged garrison sallies (ruling CA-5). A sally is
//! the same battle the garrison fights when starved out (no one falls
//! back unless one side breaks, CA-9), so the only question is whether
//! now is better than later: while it waits, the capital stays its own
//! and its raises join the garrison, and its starving forces the fight in
//! any case. The general cannot see what the enemy counters hold, so it
//! reads the odds from what it can: how many counters stand in the
//! province, and its own armies that will fight there this week anyway.

use super::Doctrine;
use crate::games::hyborian::campaign::fog::View;
use crate::games::hyborian::campaign::game::{Army, Stance};
use crate::games::hyborian::campaign::map::World;

/// Whether the garrison `g` (`strength`: its points with what merges into
/// it this week) comes out to fight: beside `standing`, its own armies
/// that write no other order this week, when one of them fights in the
/// province anyway (the relief a doctrine waits for), or on its own
/// strength against the counters it sees.
pub(super) fn sally(
    v: &View<'_>,
    world: &World,
    d: &Doctrine,
    g: &Army,
    strength: u32,
    standing: &[&Army],
) -> bool {
    let enemies = v.counters_in(&g.province) as u32;
    if v.winter || g.stance != Stance::Garrison || enemies == 0 {
        return false;
    }
    let beside: Vec<&&Army> = standing
        .iter()
        .filter(|a| a.id != g.id && fights_there(world, a, &g.province))
        .collect();
    if d.sallies_with_relief && !beside.is_empty() {
        return true;
    }
    let host = strength + beside.iter().map(|a| a.points()).sum::<u32>();
    d.sally_percent
        .is_some_and(|pc| host * 100 >= pc * v.settings.max_army_points * enemies)
}

/// Whether `a` meets the enemy in `province` this week: it stands there
/// outside the walls, or its march under way ends there (the resolver's
/// march days, ruling CA-3).
pub(super) fn fights_there(world: &World, a: &Army, province: &str) -> bool {
    match &a.march {
        None => a.province == province && a.stance != Stance::Garrison,
        Some(m) => {
            m.to == province
                && world
                    .march_days(&a.province, &m.to)
                    .is_some_and(|needed| m.days + a.week_march() >= needed)
        }
    }
}
