//! What a general orders its armies: the capital kept garrisoned (and,
//! besieged, relieved by an army next to it and its garrison's sally,
//! `sallies`), the week's merges (`merges`),
//! sieges laid, home-only troops left at home, marches on the neighbours
//! the style reaches for, and marches called off.

use super::merges::{self, Merge};
use super::{sallies, Doctrine};
use crate::games::hyborian::campaign::fog::View;
use crate::games::hyborian::campaign::game::{home_only_units, Army, March, Stance};
use crate::games::hyborian::campaign::map::{Province, World};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// One line for each army that does something this week.
pub(super) fn orders(
    v: &View<'_>,
    world: &World,
    d: &Doctrine,
    rng: &mut ChaCha8Rng,
) -> Vec<String> {
    let Some(me) = v.me else {
        return Vec::new();
    };
    // Its own armies and hired companies, not frozen in a waiting battle.
    let mine: Vec<&Army> = v
        .own
        .iter()
        .copied()
        .filter(|a| a.commander() == me.id && !v.frozen.contains(&a.id))
        .collect();
    let garrison = garrison(v, world, &mine);
    let merging = merges::plan(v, world, d, &mine, garrison);
    let g = mine
        .iter()
        .copied()
        .find(|a| Some(a.id.as_str()) == garrison);
    let mut lines: Vec<(&Army, Option<String>)> = Vec::new();
    let mut relief: Vec<&Army> = Vec::new();
    for a in &mine {
        let strength = merges::whole(a, &merging).points();
        let line = if let Some((_, into)) = merging.iter().find(|(x, _)| x.id == a.id) {
            Some(format!("army {} merge into {}", a.id, into.id))
        } else if Some(a.id.as_str()) == garrison {
            hold_capital(a, d, mine.len())
        } else if let Some(go) = g.and_then(|g| sallies::relieve(v, world, d, a, strength, g)) {
            relief.push(a);
            Some(go)
        } else {
            campaign(v, world, d, a, strength, rng)
        };
        lines.push((a, line));
    }
    if let Some(g) = g {
        sally(v, world, d, g, &merging, &relief, &mut lines);
    }
    lines.into_iter().filter_map(|(_, l)| l).collect()
}

/// The garrison's line becomes `sally` when its doctrine would rather
/// fight now, beside the armies that fight there this week anyway: those
/// that write nothing else and stand there or march in, and the `relief`
/// ordered in this week that gets there within it.
fn sally(
    v: &View<'_>,
    world: &World,
    d: &Doctrine,
    g: &Army,
    merging: &[Merge<'_>],
    relief: &[&Army],
    lines: &mut [(&Army, Option<String>)],
) {
    let here = g.province.as_str();
    let beside: Vec<&Army> = lines
        .iter()
        .filter(|(a, l)| a.id != g.id && l.is_none() && sallies::fights_there(world, a, here))
        .map(|(a, _)| *a)
        .chain(
            relief
                .iter()
                .copied()
                .filter(|a| sallies::reaches(world, a, here, 0)),
        )
        .collect();
    let strength = merges::whole(g, merging).points();
    if sallies::sally(v, d, g, strength, &beside) {
        if let Some((_, line)) = lines.iter_mut().find(|(a, _)| a.id == g.id) {
            *line = Some(format!("army {} sally", g.id));
        }
    }
}

/// The army that holds the capital: the smallest of its own there (then
/// the first by id), while the power holds it.
fn garrison<'a>(v: &View<'_>, world: &World, mine: &[&'a Army]) -> Option<&'a str> {
    let me = v.me?;
    let capital = world.nation(me.nation.as_deref()?)?.capital.as_deref()?;
    if v.holder(capital) != Some(me.id.as_str()) {
        return None;
    }
    mine.iter()
        .filter(|a| a.province == capital && a.owner == me.id)
        .min_by(|a, b| a.points().cmp(&b.points()).then(a.id.cmp(&b.id)))
        .map(|a| a.id.as_str())
}

/// The capital's garrison: behind its walls; a conqueror's only army
/// leaves its weakest unit (or its home-only troops) behind instead and
/// marches on with the rest next week.
fn hold_capital(a: &Army, d: &Doctrine, armies: usize) -> Option<String> {
    if d.conquers && armies == 1 {
        if let Some(split) = split_off(a, true) {
            return Some(split);
        }
    }
    (a.stance != Stance::Garrison).then(|| format!("army {} garrison", a.id))
}

/// A field army's week: the siege it lays or keeps, the march it keeps
/// on, its home-only troops left behind, or a march on a neighbour.
fn campaign(
    v: &View<'_>,
    world: &World,
    d: &Doctrine,
    a: &Army,
    strength: u32,
    rng: &mut ChaCha8Rng,
) -> Option<String> {
    let me = v.me?;
    if matches!(a.stance, Stance::Besieging { .. }) {
        return None;
    }
    if let Some(m) = a.march.as_ref().filter(|m| calls_off(v, d, m)) {
        let other = target(v, world, d, a, rng).filter(|p| p.id != m.to);
        return Some(match other {
            Some(to) if !v.winter => format!("army {} move to {}", a.id, to.name),
            _ => format!("army {} halt", a.id),
        });
    }
    let walled = world.province(&a.province).is_some_and(|p| p.capital);
    let foreign = v.holder(&a.province) != Some(me.id.as_str());
    if d.besieges && walled && foreign && v.counters_in(&a.province) > 0 {
        return Some(format!("army {} besiege", a.id));
    }
    if a.march.is_some() || v.winter || strength < d.min_march_points {
        return None;
    }
    if d.conquers {
        if let Some(split) = split_off(a, false) {
            return Some(split);
        }
    }
    let to = target(v, world, d, a, rng)?;
    Some(format!("army {} move to {}", a.id, to.name))
}

/// Whether a march under way is called off: on a province the power
/// does not hold where it now sees more counters than it marches against.
fn calls_off(v: &View<'_>, d: &Doctrine, m: &March) -> bool {
    let me = v.me.map(|p| p.id.as_str());
    d.calls_off && v.holder(&m.to) != me && v.counters_in(&m.to) > d.max_counters
}

/// `army X split …`: its home-only units when it has others besides, else
/// (`weakest`) its unit of fewest figures, when it has more than one.
/// None when a unit's name would not read back (a comma in it).
fn split_off(a: &Army, weakest: bool) -> Option<String> {
    let names = a.contents.unit_names();
    let home = home_only_units(&a.contents);
    let units = if !home.is_empty() && home.len() < names.len() {
        home
    } else if weakest && names.len() > 1 && home.is_empty() {
        let figures = a
            .contents
            .units
            .iter()
            .map(|u| u.figures)
            .chain(a.contents.mercenaries.iter().map(|m| m.figures));
        let (_, name) = figures.zip(&names).min_by_key(|(f, _)| *f)?;
        vec![name.clone()]
    } else {
        return None;
    };
    if units.iter().any(|u| u.contains(',')) {
        return None;
    }
    Some(format!("army {} split {}", a.id, units.join(", ")))
}

/// The neighbour an army marches on: one it does not hold (a cautious
/// general only its own nation's land), with no more counters than the
/// style faces, the richest first (a capital counts double), ties drawn.
fn target<'w>(
    v: &View<'_>,
    world: &'w World,
    d: &Doctrine,
    a: &Army,
    rng: &mut ChaCha8Rng,
) -> Option<&'w Province> {
    let me = v.me?;
    // A hired company's army is no nation's (companies have none).
    let nation = if a.owner == me.id {
        me.nation.as_deref()
    } else {
        None
    };
    let home_only = !home_only_units(&a.contents).is_empty();
    let mut choices: Vec<&Province> = world
        .province(&a.province)?
        .borders
        .iter()
        .filter(|b| world.march_days(&a.province, &b.to).is_some())
        .filter_map(|b| world.province(&b.to))
        .filter(|p| v.holder(&p.id) != Some(me.id.as_str()))
        .filter(|p| v.counters_in(&p.id) <= d.max_counters)
        .filter(|p| !home_only || p.nation.as_deref() == nation)
        .filter(|p| d.conquers || (nation.is_some() && p.nation.as_deref() == nation))
        .filter(|p| !p.name.contains(','))
        .collect();
    choices.sort_by(|x, y| x.id.cmp(&y.id));
    choices.dedup_by(|x, y| x.id == y.id);
    choices.shuffle(rng);
    let worth = |p: &Province| p.points * if p.capital { 2 } else { 1 };
    choices.into_iter().max_by_key(|p| worth(p))
}
