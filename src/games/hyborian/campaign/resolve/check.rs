//! Whether a power may give an order this week (§12 and the army lists):
//! checked against the campaign as the orders were given.

use crate::games::hyborian::army::{ArmyFile, Designation, Mercenaries, UnitLine};
use crate::games::hyborian::campaign::game::{
    find_list, guard_units, home_only_units, lists, Campaign, Power, Stance,
};
use crate::games::hyborian::campaign::map::World;
use crate::games::hyborian::campaign::orders::Order;
use std::collections::{BTreeMap, BTreeSet};

/// Every order of one power's week, judged in the order given: each raise
/// against the armies and treasury as the raises before it in the same
/// week leave them (the unit added where it will be raised, its cost off
/// the treasury), every other order as [`check`] judges it alone. A raise
/// refused after others says that it was judged with them (issue 45: three
/// `raise 12 Royal Cavalry` were each judged against the week's start).
pub fn check_all<'o>(
    c: &Campaign,
    world: &World,
    power: &str,
    orders: impl IntoIterator<Item = &'o Order>,
) -> Vec<Result<(), String>> {
    let mut now: Option<super::Turn<'_>> = None;
    let mut raised: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for order in orders {
        let judged_on = now.as_ref().map_or(c, |t| &t.c);
        let verdict = check(judged_on, world, power, order);
        if let (
            Ok(()),
            Order::Raise {
                figures,
                designation,
            },
        ) = (&verdict, order)
        {
            let t = now.get_or_insert_with(|| super::Turn {
                c: c.clone(),
                world,
                events: Vec::new(),
            });
            let line = crate::games::hyborian::campaign::orders::Line {
                number: 0,
                text: String::new(),
                item: order.clone(),
            };
            t.raise(power, &line, *figures, designation);
            raised.push(format!("{figures} {designation}"));
        }
        let verdict = match (verdict, order) {
            (Err(why), Order::Raise { .. }) if !raised.is_empty() => Err(format!(
                "{why} (judged with the raises above it this week: {})",
                raised.join(", ")
            )),
            (v, _) => v,
        };
        out.push(verdict);
    }
    out
}

/// Whether `power` may give `order` now; `Err` says why in the book's terms.
///
/// # Errors
/// The reason, for the confirmation and the report.
pub fn check(c: &Campaign, world: &World, power: &str, order: &Order) -> Result<(), String> {
    if let Some(written) = order.army() {
        if let Some(a) = c
            .find_army(written)
            .filter(|a| a.owner == power && a.commander() != power)
        {
            // The company's own army, hired: it knows whom it serves.
            return Err(format!(
                "army {} serves {} until the year ends and takes its orders from {} (ruling CA-14)",
                a.id,
                a.commander(),
                a.commander()
            ));
        }
        // One answer whether the army is another power's or no one's: the
        // answer must not tell a probe which armies exist (ruling CA-15).
        let Some(army) = c.find_army(written).filter(|a| a.commander() == power) else {
            return Err(not_yours(c, power, written));
        };
        if let Some(b) = c.pending.iter().find(|b| b.involves(&army.id)) {
            return Err(format!(
                "army {} awaits the result of battle {}",
                army.id, b.id
            ));
        }
        match order {
            Order::Move { to, .. } => {
                if c.winter() {
                    return Err("armies stay in winter quarters; no marching in winter".into());
                }
                let Some(p) = world.find(to) else {
                    let hint = world
                        .suggest(to)
                        .map(|s| format!(" (did you mean {s}?)"))
                        .unwrap_or_default();
                    return Err(format!("there is no province '{to}'{hint}"));
                };
                if world.border(&army.province, &p.id).is_none() {
                    let here = world
                        .province(&army.province)
                        .map_or(army.province.as_str(), |p| p.name.as_str());
                    return Err(format!("{} does not border {here}, where army {} is; an army moves one province at a time", p.name, army.id));
                }
                let abroad =
                    c.powers.get(&army.owner).and_then(|o| o.nation.as_ref()) != p.nation.as_ref();
                let home_only = home_only_units(&army.contents);
                if abroad && !home_only.is_empty() {
                    return Err(format!(
                        "{} may only fight at home (Appendix I), and {} is not {}'s land; split them off first (army {} split {})",
                        home_only.join(", "),
                        p.name,
                        army.contents.nation,
                        army.id,
                        home_only.join(", ")
                    ));
                }
            }
            Order::Split { units, .. } => {
                let names = army.contents.unit_names();
                for u in units {
                    if pick(&army.contents, &names, u, &BTreeSet::new()).is_none() {
                        return Err(format!(
                            "army {} has no unit '{u}'; it has: {}",
                            army.id,
                            names.join(", ")
                        ));
                    }
                }
                if units.len() >= names.len() {
                    return Err(format!(
                        "splitting off every unit leaves army {} empty",
                        army.id
                    ));
                }
            }
            Order::Merge { into, .. } => {
                let Some(other) = c.find_army(into).filter(|o| o.commander() == power) else {
                    return Err(not_yours(c, power, into));
                };
                if let Some(b) = c.battle_of(&other.id) {
                    return Err(format!(
                        "army {} awaits the result of battle {}; nothing joins it until then",
                        other.id, b.id
                    ));
                }
                if other.id == army.id || other.owner != army.owner {
                    return Err(format!(
                        "army {} can only merge into another army of its own power",
                        army.id
                    ));
                }
                let guards: Vec<String> = guard_units(&army.contents)
                    .into_iter()
                    .chain(guard_units(&other.contents))
                    .collect();
                if guards.len() > 1 {
                    return Err(format!(
                        "guard units are limited to one per army, and together they would have {}",
                        guards.join(" and ")
                    ));
                }
                if other.province != army.province {
                    return Err(format!(
                        "army {} is not in the same province as army {}",
                        army.id, other.id
                    ));
                }
                if army.points() + other.points() > c.settings.max_army_points {
                    return Err(format!(
                        "together they would be {} points; at most {} in one army",
                        army.points() + other.points(),
                        c.settings.max_army_points
                    ));
                }
            }
            Order::Besiege { .. } if !world.province(&army.province).is_some_and(|p| p.capital) => {
                return Err("only a fortified place (a capital) can be besieged".into());
            }
            Order::Garrison { .. }
                if !world.province(&army.province).is_some_and(|p| p.capital) =>
            {
                let here = world
                    .province(&army.province)
                    .map_or(army.province.as_str(), |p| p.name.as_str());
                return Err(format!(
                    "{here} has no walls: only a capital can be garrisoned (ruling CA-5); an army that stands holds the province without an order"
                ));
            }
            Order::Halt { .. } if army.march.is_none() => {
                return Err(format!(
                    "army {} is not marching: halt stops a march under way",
                    army.id
                ));
            }
            Order::Sally { .. } if army.stance != Stance::Garrison => {
                return Err(format!("army {} is not a garrison", army.id));
            }
            _ => {}
        }
        return Ok(());
    }
    let me = c.powers.get(power).ok_or("no such power")?;
    match order {
        Order::Raise {
            figures,
            designation,
        } => {
            let place = c.raising_place(world, power);
            let own: Vec<(&str, &ArmyFile)> = c
                .armies
                .values()
                .filter(|a| a.owner == power)
                .map(|a| (a.id.as_str(), &a.contents))
                .collect();
            may_raise(world, me, place.as_deref(), &own, *figures, designation)?;
        }
        Order::Hire { company, points } => {
            let Some(fc) = c.find_power(company).filter(|p| p.nation.is_none()) else {
                return Err(format!(
                    "'{company}' is not a Free Company of this campaign"
                ));
            };
            if !may_hire(&me.list) {
                return Err(format!(
                    "{} may not hire Free Companies (Appendix I)",
                    me.list
                ));
            }
            if *points > me.treasury {
                return Err(format!(
                    "the treasury holds {} points, not {points}",
                    me.treasury
                ));
            }
            // Not whom it serves: that is the company's and its employer's
            // business (ruling CA-15).
            if hired_by(c, &fc.id).is_some_and(|e| e != power) {
                return Err(format!(
                    "{} is under contract to another power until the year ends",
                    fc.id
                ));
            }
            mercenary_breach(c, power, &fc.id)?;
        }
        Order::Serve { employer, .. } => {
            if me.nation.is_some() {
                return Err("only a Free Company serves for pay".into());
            }
            let Some(e) = c.find_power(employer) else {
                return Err(format!("there is no power '{employer}'"));
            };
            if let Some(now) = hired_by(c, power) {
                return Err(format!(
                    "your company serves {now} until the year ends (ruling CA-14)"
                ));
            }
            if e.nation.is_none() {
                return Err(format!(
                    "{} is a Free Company; companies serve nations",
                    e.id
                ));
            }
            if !may_hire(&e.list) {
                return Err(format!("{} may not hire Free Companies (Appendix I)", e.id));
            }
        }
        Order::Pay { company, province } => {
            if c.find_power(company).is_none_or(|p| p.nation.is_some()) {
                return Err(format!(
                    "'{company}' is not a Free Company of this campaign"
                ));
            }
            let Some(p) = world.find(province) else {
                return Err(format!("there is no province '{province}'"));
            };
            let h = &c.holdings[&p.id];
            if h.owner.as_deref() != Some(power) {
                return Err(format!("{} is not yours to give", p.name));
            }
            if let Some(to) = &h.promised {
                return Err(format!(
                    "{} is already promised to {to} from next year",
                    p.name
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether a power (its record `me`) may raise `figures` of `designation`:
/// `place` is where it raises (none: a nation's capital lost, or none of
/// its land held), `own` every army it owns with its contents (what its
/// list's caps are judged on). [`check`] asks it of the whole campaign; a
/// power's general asks it of what its view shows, so it writes no raise
/// the week would refuse.
///
/// # Errors
/// Why not, in the book's terms.
pub fn may_raise(
    world: &World,
    me: &Power,
    place: Option<&str>,
    own: &[(&str, &ArmyFile)],
    figures: u32,
    designation: &str,
) -> Result<(), String> {
    let list = find_list(lists(), &me.list).ok_or("no national list")?;
    let Some((_, d)) = list.designation(designation) else {
        return Err(format!(
            "{} has no unit '{designation}' in its list",
            me.list
        ));
    };
    if figures == 0 || figures > d.figures.max() {
        return Err(format!(
            "{} units are at most {} figures",
            d.designation,
            d.figures.max()
        ));
    }
    if me.nation.is_some() && place.is_none() {
        let walled = me
            .nation
            .as_ref()
            .and_then(|n| world.nation(n))
            .is_some_and(|n| n.capital.is_some());
        return Err(if walled {
            "units are raised in the capital, and your capital is in enemy hands".into()
        } else {
            "your nation has no capital and raises units in its own land, and you hold none of it (ruling CA-20)".into()
        });
    }
    let cost = figures * d.figure_cost();
    if cost > me.treasury {
        return Err(format!(
            "{figures} {} cost {cost} points; the treasury holds {}",
            d.designation, me.treasury
        ));
    }
    raise_breach(&me.list, own, figures, d)
}

/// Whether a nation of `list` may hire Free Companies (Appendix I).
fn may_hire(list: &str) -> bool {
    find_list(lists(), list).is_some_and(|n| !matches!(n.mercenaries, Mercenaries::None))
}

/// The power a Free Company's armies serve this year, if hired.
fn hired_by<'c>(c: &'c Campaign, company: &str) -> Option<&'c str> {
    c.armies
        .values()
        .filter(|a| a.owner == company)
        .find_map(|a| a.hired_by.as_deref())
}

/// The refusal for an army the writer does not command, the same whether
/// it is another power's or there is none: "you have no army 'x'".
fn not_yours(c: &Campaign, power: &str, written: &str) -> String {
    let mine: Vec<&str> = c
        .armies
        .values()
        .filter(|a| a.commander() == power)
        .map(|a| a.id.as_str())
        .collect();
    let yours = if mine.is_empty() {
        "you have none".to_string()
    } else {
        format!("yours are: {}", mine.join(", "))
    };
    format!("you have no army '{written}'; {yours}")
}

/// All of a power's own armies as one army file: what its list's caps are
/// judged on (ruling CA-13).
fn forces_of(list: &str, own: &[(&str, &ArmyFile)]) -> ArmyFile {
    let mut all = ArmyFile {
        nation: list.to_string(),
        points: u32::MAX,
        home: true,
        ..ArmyFile::default()
    };
    for (_, f) in own {
        all.units.extend(f.units.iter().cloned());
        all.mercenaries.extend(f.mercenaries.iter().cloned());
    }
    all
}

/// The caps of a list a power's forces break, each under a key that stays
/// the same as figures change: the maximum of a band, one unit of a kind,
/// guard units, unit sizes, mercenaries.
fn caps_broken(f: &ArmyFile) -> BTreeMap<String, String> {
    use crate::games::hyborian::army::Breach;
    let Ok(report) = crate::games::hyborian::army::check(f) else {
        return BTreeMap::new();
    };
    report
        .breaches
        .into_iter()
        .filter_map(|b| {
            let key = match &b {
                Breach::ArmShare {
                    arm,
                    figures,
                    of,
                    band,
                    ..
                } if figures * 100 > band[1] * of => format!("arm {arm:?}"),
                Breach::DesignationShare {
                    designation,
                    figures,
                    of,
                    band,
                    ..
                } if figures * 100 > band[1] * of => format!("share {designation}"),
                Breach::OneUnit { designation, .. } => format!("one {designation}"),
                Breach::OverStrength { unit, .. } => format!("size {unit}"),
                Breach::MercenaryShare { .. } => "mercenaries".into(),
                Breach::MercenaryCount { from, .. } => format!("mercenaries {from}"),
                _ => return None,
            };
            Some((key, b.to_string()))
        })
        .collect()
}

/// Whether raising `figures` of `d` keeps a power of `list` whose own
/// armies are `own` within its list: no band's maximum passed that was not
/// passed before (judged over all its own armies), and a guard unit in one
/// army only (§12).
fn raise_breach(
    list: &str,
    own: &[(&str, &ArmyFile)],
    figures: u32,
    d: &Designation,
) -> Result<(), String> {
    if d.is_guard() {
        if let Some((id, f)) = own.iter().find(|(_, f)| !guard_units(f).is_empty()) {
            return Err(format!(
                "army {id} has a guard unit already ({}); a guard unit can be in only one army (§12)",
                guard_units(f).join(", ")
            ));
        }
    }
    let before = forces_of(list, own);
    let mut after = before.clone();
    after.units.push(UnitLine {
        designation: d.designation.clone(),
        figures,
        name: Some(format!("the new {}", d.designation)),
        crossbows: false,
    });
    let (was, now) = (caps_broken(&before), caps_broken(&after));
    match now.iter().find(|(k, _)| !was.contains_key(*k)) {
        Some((_, why)) => Err(format!(
            "with them your armies would break {list}'s list: {why}"
        )),
        None => Ok(()),
    }
}

/// Whether `employer` may hire all of `company`'s armies: its list's share
/// of mercenaries (Appendix I, as figures of its own armies and the
/// company's together).
fn mercenary_breach(c: &Campaign, employer: &str, company: &str) -> Result<(), String> {
    let Some(me) = c.powers.get(employer) else {
        return Ok(());
    };
    let percent = match find_list(lists(), &me.list).map(|n| &n.mercenaries) {
        Some(Mercenaries::Any { percent } | Mercenaries::FreeCompanies { percent }) => *percent,
        _ => return Ok(()),
    };
    let figures = |f: &ArmyFile| -> u32 {
        f.units.iter().map(|u| u.figures).sum::<u32>()
            + f.mercenaries.iter().map(|m| m.figures).sum::<u32>()
    };
    let own: u32 = c
        .armies
        .values()
        .filter(|a| a.owner == employer)
        .map(|a| figures(&a.contents))
        .sum();
    let hired_already: u32 = c
        .armies
        .values()
        .filter(|a| a.hired_by.as_deref() == Some(employer) && a.owner != company)
        .map(|a| figures(&a.contents))
        .sum();
    let theirs: u32 = c
        .armies
        .values()
        .filter(|a| a.owner == company)
        .map(|a| figures(&a.contents))
        .sum();
    let hired = theirs + hired_already;
    if hired * 100 > percent * (own + hired) {
        return Err(format!(
            "{} may field at most {percent}% mercenaries (Appendix I); with {company} they would be {hired} of {} figures",
            me.list,
            own + hired
        ));
    }
    Ok(())
}

/// The index of the unit a player named: its name on the table or its
/// designation, not one already taken.
pub(super) fn pick(
    f: &ArmyFile,
    names: &[String],
    written: &str,
    taken: &BTreeSet<usize>,
) -> Option<usize> {
    let k = crate::names::key(written);
    let designation = |i: usize| {
        f.units
            .get(i)
            .map(|u| &u.designation)
            .or_else(|| f.mercenaries.get(i - f.units.len()).map(|m| &m.designation))
    };
    (0..names.len())
        .filter(|i| !taken.contains(i))
        .find(|&i| crate::names::key(&names[i]) == k)
        .or_else(|| {
            (0..names.len())
                .filter(|i| !taken.contains(i))
                .find(|&i| designation(i).is_some_and(|d| crate::names::key(d) == k))
        })
}
