//! Which of a general's armies merge this week (§12 counters, ruling
//! CA-13): a threatened capital's garrison takes in the armies there too
//! weak to march, and a concentrating general makes one host of the
//! armies standing in one province before it marches. A merge is carried
//! out before the week's marches, so the host marches, besieges or holds
//! the walls with everything merged into it that week.

use super::Doctrine;
use crate::games::hyborian::campaign::fog::View;
use crate::games::hyborian::campaign::game::{guard_units, home_only_units, Army, Stance};
use crate::games::hyborian::campaign::map::World;

/// An army merging into another: (the army, the host it joins).
pub(super) type Merge<'a> = (&'a Army, &'a Army);

/// The merges of the week, in the order written: into the garrison of a
/// threatened capital first, then each province's host. Only the power's
/// own armies (a hired company's stay its own) standing still, without
/// troops that fight only at home; a host keeps within `max_army_points`
/// and one guard unit, as the week checks a merge.
pub(super) fn plan<'a>(
    v: &View<'_>,
    world: &World,
    d: &Doctrine,
    mine: &[&'a Army],
    garrison: Option<&str>,
) -> Vec<Merge<'a>> {
    let Some(me) = v.me else {
        return Vec::new();
    };
    let mut free: Vec<&'a Army> = mine
        .iter()
        .copied()
        .filter(|a| a.owner == me.id && a.march.is_none() && Some(a.id.as_str()) != garrison)
        .collect();
    // The largest first; a besieger first of all (it keeps its weeks).
    free.sort_by_key(|a| {
        let besieging = matches!(a.stance, Stance::Besieging { .. });
        (!besieging, std::cmp::Reverse(a.points()), a.id.clone())
    });
    let mut out = Vec::new();
    if let Some(g) = mine
        .iter()
        .copied()
        .find(|a| Some(a.id.as_str()) == garrison)
    {
        if threatened(v, world, &g.province) {
            let weak = free
                .iter()
                .copied()
                .filter(|a| a.province == g.province && a.points() < d.reinforces_below);
            join(g, weak.collect(), v, &mut out);
        }
    }
    if d.concentrates {
        for host in free.clone() {
            if out.iter().any(|(a, _)| a.id == host.id) {
                continue;
            }
            let others: Vec<&Army> = free
                .iter()
                .copied()
                .filter(|a| a.province == host.province && a.id != host.id)
                .filter(|a| !matches!(a.stance, Stance::Besieging { .. }))
                .collect();
            join(host, others, v, &mut out);
        }
    }
    out
}

/// `host` takes in each of `others` (largest first) that fits, none that
/// merges already or takes others in.
fn join<'a>(host: &'a Army, others: Vec<&'a Army>, v: &View<'_>, out: &mut Vec<Merge<'a>>) {
    if out.iter().any(|(a, _)| a.id == host.id) {
        return;
    }
    let mut whole = host.clone();
    for a in others {
        let taken = out.iter().any(|(x, h)| x.id == a.id || h.id == a.id);
        if taken || !fits(&whole, a, v) {
            continue;
        }
        absorb(&mut whole, a);
        out.push((a, host));
    }
}

/// Whether `a` may merge into `host` (as far as it has grown): within the
/// most points an army may be and one guard unit, with no troops that
/// fight only at home (they stay where they may fight).
fn fits(host: &Army, a: &Army, v: &View<'_>) -> bool {
    let guards = guard_units(&host.contents).len() + guard_units(&a.contents).len();
    host.points() + a.points() <= v.settings.max_army_points
        && guards <= 1
        && home_only_units(&a.contents).is_empty()
}

/// `a`'s units added to `host`'s, as the week merges them.
fn absorb(host: &mut Army, a: &Army) {
    host.contents.units.extend(a.contents.units.iter().cloned());
    host.contents
        .mercenaries
        .extend(a.contents.mercenaries.iter().cloned());
}

/// `a` as it will be once the week's merges into it are made.
pub(super) fn whole(a: &Army, merges: &[Merge<'_>]) -> Army {
    let mut whole = a.clone();
    for (x, _) in merges.iter().filter(|(_, h)| h.id == a.id) {
        absorb(&mut whole, x);
    }
    whole
}

/// A province is threatened when the power sees another's counter in it
/// or next to it.
fn threatened(v: &View<'_>, world: &World, province: &str) -> bool {
    v.counters_in(province) > 0
        || world
            .province(province)
            .is_some_and(|p| p.borders.iter().any(|b| v.counters_in(&b.to) > 0))
}
