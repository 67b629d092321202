//! One map turn, resolved for all powers at once (§12). A pure function of
//! the campaign, the map, every power's orders, the secretary's battle
//! results and a dice source; it returns the new campaign and the turn's
//! [`MapEvent`]s in a fixed order. The steps, in order:
//!
//! 1. battle results the secretary entered;
//! 2. in winter quarters: the year ends (pacified provinces change hands,
//!    hired companies go home, every power rebuilds to its points);
//! 3. contracts (hire/serve, pay), then split, merge, raise and stances;
//! 4. marches (not in winter), by march days against the terrain;
//! 5. sieges: a garrison starved out must come out and fight;
//! 6. meetings: enemies in one province fight (engine or secretary);
//! 7. occupation and pacification; then the calendar moves on.

use super::battle::{self, BattleError, Card};
use super::game::{find_list, lists, Army, Campaign, Holding, PendingBattle, Stance};
use super::map::{World, MARCH_DAYS_FOOT, MARCH_DAYS_MOUNTED};
use super::orders::{Line, Order};
use crate::games::hyborian::army::{ArmyFile, Mercenaries, UnitLine};
use crate::games::hyborian::dice::{Dice, DiceError};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A battle result the secretary entered: the winning power and the points
/// each army lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnteredResult {
    pub battle: u32,
    pub winner: String,
    pub losses: Vec<(String, u32)>,
}

/// One side of a battle as the report tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSide {
    pub army: String,
    pub power: String,
    pub points: u32,
    pub lost: u32,
    pub recovered: u32,
}

/// What happened in a map turn. Each event knows who took part
/// ([`MapEvent::parties`]) and where it was seen ([`MapEvent::place`]); fog
/// decides who reads it. No event holds an army's contents except those
/// only its owner reads (`Raised`, `Split`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MapEvent {
    /// An order not carried out, and why.
    Refused {
        power: String,
        line: String,
        why: String,
    },
    Marched {
        army: String,
        power: String,
        from: String,
        to: String,
    },
    /// Still on the road: days made of days needed.
    OnTheMarch {
        army: String,
        power: String,
        to: String,
        days: u32,
        needed: u32,
    },
    Split {
        power: String,
        army: String,
        new_army: String,
        units: Vec<String>,
    },
    Merged {
        power: String,
        army: String,
        into: String,
    },
    Raised {
        power: String,
        army: String,
        figures: u32,
        designation: String,
        cost: u32,
    },
    StanceTaken {
        power: String,
        army: String,
        stance: String,
    },
    Hired {
        employer: String,
        company: String,
        points: u32,
    },
    Paid {
        employer: String,
        company: String,
        province: String,
    },
    Battle {
        id: u32,
        province: String,
        card: Card,
        table_feet: u32,
        /// Every army that fought, each power's side together.
        sides: Vec<BattleSide>,
        winner: Option<String>,
        by: String,
    },
    /// The loser falls back (or, with nowhere to go, surrenders).
    FellBack {
        army: String,
        power: String,
        from: String,
        to: Option<String>,
    },
    Destroyed {
        army: String,
        power: String,
        province: String,
    },
    BattleAwaits {
        id: u32,
        province: String,
        armies: Vec<String>,
        powers: [String; 2],
        card: Card,
        table_feet: u32,
        /// Why the engine did not fight it (with `battles = "engine"`).
        #[serde(default)]
        why: Option<String>,
    },
    Besieging {
        province: String,
        army: String,
        power: String,
        weeks: u32,
        needed: u32,
    },
    StarvedOut {
        province: String,
        army: String,
        power: String,
    },
    Occupied {
        province: String,
        power: String,
        from: Option<String>,
    },
    Pacified {
        province: String,
        power: String,
    },
    Transferred {
        province: String,
        from: Option<String>,
        to: String,
    },
    ContractEnded {
        company: String,
        employer: String,
    },
    Rebuilt {
        power: String,
        allowance: u32,
        treasury: u32,
    },
}

impl MapEvent {
    /// The powers who take part and always read it.
    pub fn parties(&self) -> Vec<&str> {
        use MapEvent::*;
        match self {
            Refused { power, .. }
            | Marched { power, .. }
            | OnTheMarch { power, .. }
            | Split { power, .. }
            | Merged { power, .. }
            | Raised { power, .. }
            | StanceTaken { power, .. }
            | FellBack { power, .. }
            | Destroyed { power, .. }
            | Besieging { power, .. }
            | StarvedOut { power, .. }
            | Occupied { power, .. }
            | Pacified { power, .. }
            | Rebuilt { power, .. } => vec![power],
            Hired {
                employer, company, ..
            }
            | Paid {
                employer, company, ..
            }
            | ContractEnded { company, employer } => vec![employer, company],
            Battle { sides, .. } => sides.iter().map(|s| s.power.as_str()).collect(),
            BattleAwaits { powers, .. } => powers.iter().map(String::as_str).collect(),
            Transferred { from, to, .. } => from
                .iter()
                .map(String::as_str)
                .chain([to.as_str()])
                .collect(),
        }
    }

    /// Where others may see it happen; `None`: only the parties read it.
    pub fn place(&self) -> Option<&str> {
        use MapEvent::*;
        match self {
            Marched { to, .. } => Some(to),
            Battle { province, .. }
            | BattleAwaits { province, .. }
            | Besieging { province, .. }
            | StarvedOut { province, .. }
            | Occupied { province, .. }
            | Pacified { province, .. }
            | Transferred { province, .. }
            | Destroyed { province, .. } => Some(province),
            FellBack { from, .. } => Some(from),
            _ => None,
        }
    }
}

/// The outcome of a map turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub campaign: Campaign,
    pub events: Vec<MapEvent>,
}

/// Whether `power` may give `order` now; `Err` says why in the book's terms.
///
/// # Errors
/// The reason, for the confirmation and the report.
pub fn check(c: &Campaign, world: &World, power: &str, order: &Order) -> Result<(), String> {
    if let Some(written) = order.army() {
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
            let list = find_list(lists(), &me.list).ok_or("no national list")?;
            let Some((_, d)) = list.designation(designation) else {
                return Err(format!(
                    "{} has no unit '{designation}' in its list",
                    me.list
                ));
            };
            if *figures == 0 || *figures > d.figures.max() {
                return Err(format!(
                    "{} units are at most {} figures",
                    d.designation,
                    d.figures.max()
                ));
            }
            if me.nation.is_some() && c.capital_of(world, power).is_none() {
                return Err(
                    "units are raised in the capital, and your capital is in enemy hands".into(),
                );
            }
            let cost = figures * d.figure_cost();
            if cost > me.treasury {
                return Err(format!(
                    "{figures} {} cost {cost} points; the treasury holds {}",
                    d.designation, me.treasury
                ));
            }
            raise_breach(c, power, *figures, &d.designation)?;
        }
        Order::Hire { company, points } => {
            let Some(fc) = c.find_power(company).filter(|p| p.nation.is_none()) else {
                return Err(format!(
                    "'{company}' is not a Free Company of this campaign"
                ));
            };
            let may = find_list(lists(), &me.list)
                .is_some_and(|n| !matches!(n.mercenaries, Mercenaries::None));
            if !may {
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
            mercenary_breach(c, power, &fc.id)?;
        }
        Order::Serve { employer, .. } => {
            if me.nation.is_some() {
                return Err("only a Free Company serves for pay".into());
            }
            if c.find_power(employer).is_none() {
                return Err(format!("there is no power '{employer}'"));
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
            if c.holdings[&p.id].owner.as_deref() != Some(power) {
                return Err(format!("{} is not yours to give", p.name));
            }
        }
        _ => {}
    }
    Ok(())
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

/// Units of an arm that may only fight at home (Hyrkanian foot), by name.
pub(crate) fn home_only_units(f: &ArmyFile) -> Vec<String> {
    let names = f.unit_names();
    let list = find_list(lists(), &f.nation);
    f.units
        .iter()
        .enumerate()
        .filter(|(_, u)| {
            list.and_then(|n| n.designation(&u.designation))
                .is_some_and(|(arm, _)| arm.home_only)
        })
        .map(|(i, _)| names[i].clone())
        .collect()
}

/// Guard units of an army, by name.
pub(crate) fn guard_units(f: &ArmyFile) -> Vec<String> {
    let names = f.unit_names();
    let list = find_list(lists(), &f.nation);
    f.units
        .iter()
        .enumerate()
        .filter(|(_, u)| {
            list.and_then(|n| n.designation(&u.designation))
                .is_some_and(|(_, d)| d.is_guard())
        })
        .map(|(i, _)| names[i].clone())
        .collect()
}

/// All of a power's own armies as one army file: what its list's caps are
/// judged on (ruling CA-13).
fn forces_of(c: &Campaign, power: &str, list: &str) -> ArmyFile {
    let mut all = ArmyFile {
        nation: list.to_string(),
        points: u32::MAX,
        home: true,
        ..ArmyFile::default()
    };
    for a in c.armies.values().filter(|a| a.owner == power) {
        all.units.extend(a.contents.units.iter().cloned());
        all.mercenaries
            .extend(a.contents.mercenaries.iter().cloned());
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

/// Whether raising `figures` of `designation` keeps `power` within its
/// list: no band's maximum passed that was not passed before (judged over
/// all its own armies), and a guard unit in one army only (§12).
fn raise_breach(c: &Campaign, power: &str, figures: u32, designation: &str) -> Result<(), String> {
    let Some(me) = c.powers.get(power) else {
        return Ok(());
    };
    let Some((_, d)) = find_list(lists(), &me.list).and_then(|n| n.designation(designation)) else {
        return Ok(());
    };
    if d.is_guard() {
        if let Some(a) = c
            .armies
            .values()
            .find(|a| a.owner == power && !guard_units(&a.contents).is_empty())
        {
            return Err(format!(
                "army {} has a guard unit already ({}); a guard unit can be in only one army (§12)",
                a.id,
                guard_units(&a.contents).join(", ")
            ));
        }
    }
    let before = forces_of(c, power, &me.list);
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
            "with them your armies would break {}'s list: {why}",
            me.list
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

/// The index of the unit a player named: its name on the table or its
/// designation, not one already taken.
fn pick(f: &ArmyFile, names: &[String], written: &str, taken: &BTreeSet<usize>) -> Option<usize> {
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
    t.entered_results(results);
    if t.c.winter() {
        t.year_ends();
    }
    // Checked against the campaign as the orders were given (after the
    // year's end in winter, ruling CA-12), then carried out in order.
    let basis = t.c.clone();
    let mut valid: Vec<(String, &Line<Order>)> = Vec::new();
    for (power, lines) in orders {
        for line in lines {
            match check(&basis, world, power, &line.item) {
                Ok(()) => valid.push((power.clone(), line)),
                Err(why) => t.events.push(MapEvent::Refused {
                    power: power.clone(),
                    line: line.text.clone(),
                    why,
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

impl Turn<'_> {
    fn entered_results(&mut self, results: &[EnteredResult]) {
        for r in results {
            let Some(pos) = self.c.pending.iter().position(|b| b.id == r.battle) else {
                continue;
            };
            let b = self.c.pending.remove(pos);
            let sides = b.sides();
            let winner = sides.iter().position(|side| {
                side.iter().any(|a| {
                    self.c
                        .armies
                        .get(a)
                        .is_some_and(|x| x.commander() == r.winner)
                })
            });
            let mut lost = BTreeMap::new();
            for (army, points) in &r.losses {
                if let Some(a) = self.c.find_army(army) {
                    lost.insert(a.id.clone(), share_of(&a.contents, *points));
                }
            }
            self.after_battle(
                b.id,
                &b.province,
                sides,
                winner,
                [true, false],
                &lost,
                b.card,
                b.table_feet,
                "secretary",
            );
        }
    }

    fn year_ends(&mut self) {
        for (id, h) in self.c.holdings.iter_mut() {
            if h.pacified {
                let to = h.occupier.take().unwrap_or_default();
                self.events.push(MapEvent::Transferred {
                    province: id.clone(),
                    from: h.owner.replace(to.clone()),
                    to,
                });
                h.pacified = false;
                h.held_for = 0;
            }
        }
        for a in self.c.armies.values_mut() {
            if let Some(employer) = a.hired_by.take() {
                self.events.push(MapEvent::ContractEnded {
                    company: a.owner.clone(),
                    employer,
                });
            }
        }
        let ids: Vec<String> = self.c.powers.keys().cloned().collect();
        for p in ids {
            let allowance = self.c.allowance(self.world, &p);
            let treasury = allowance.saturating_sub(self.c.in_the_field(&p));
            if let Some(pw) = self.c.powers.get_mut(&p) {
                pw.treasury = treasury;
            }
            self.events.push(MapEvent::Rebuilt {
                power: p,
                allowance,
                treasury,
            });
        }
    }

    /// Hire offers met by a company's serve order: the company's armies
    /// obey the employer until the year ends, for the company's price.
    fn contracts(&mut self, valid: &[(String, &Line<Order>)]) {
        for (employer, line) in valid {
            let Order::Hire { company, points } = &line.item else {
                continue;
            };
            let Some(fc) = self.c.find_power(company).map(|p| p.id.clone()) else {
                continue;
            };
            let asked = valid.iter().find_map(|(p, l)| match &l.item {
                Order::Serve {
                    employer: e,
                    points,
                } if p == &fc && self.c.find_power(e).is_some_and(|x| &x.id == employer) => {
                    Some(*points)
                }
                _ => None,
            });
            match asked {
                Some(price) if price <= *points && self.c.powers[employer].treasury >= price => {
                    if let Some(p) = self.c.powers.get_mut(employer) {
                        p.treasury -= price;
                    }
                    if let Some(p) = self.c.powers.get_mut(&fc) {
                        p.treasury += price;
                    }
                    for a in self.c.armies.values_mut().filter(|a| a.owner == fc) {
                        a.hired_by = Some(employer.clone());
                    }
                    self.events.push(MapEvent::Hired {
                        employer: employer.clone(),
                        company: fc,
                        points: price,
                    });
                }
                _ => self.events.push(MapEvent::Refused {
                    power: employer.clone(),
                    line: line.text.clone(),
                    why: format!("{fc} did not agree to serve you for {points} points this week"),
                }),
            }
        }
    }

    fn administer(&mut self, power: &str, line: &Line<Order>) {
        let refuse = |t: &mut Self, why: String| {
            t.events.push(MapEvent::Refused {
                power: power.to_string(),
                line: line.text.clone(),
                why,
            })
        };
        let army_id = line
            .item
            .army()
            .and_then(|w| self.c.find_army(w))
            .map(|a| a.id.clone());
        match (&line.item, army_id) {
            (Order::Move { to, .. }, Some(id)) => {
                let to = self
                    .world
                    .find(to)
                    .map(|p| p.id.clone())
                    .unwrap_or_default();
                if let Some(a) = self.c.armies.get_mut(&id) {
                    if a.march.as_ref().is_none_or(|m| m.to != to) {
                        a.march = Some(super::game::March { to, days: 0 });
                    }
                    a.stance = Stance::Field;
                }
            }
            (Order::Halt { .. }, Some(id)) => {
                if let Some(a) = self.c.armies.get_mut(&id) {
                    a.march = None;
                }
            }
            (Order::Split { units, .. }, Some(id)) => {
                let Some(a) = self.c.armies.get(&id).cloned() else {
                    return;
                };
                let names = a.contents.unit_names();
                let mut taken = BTreeSet::new();
                for u in units {
                    match pick(&a.contents, &names, u, &taken) {
                        Some(i) => {
                            taken.insert(i);
                        }
                        None => {
                            return refuse(
                                self,
                                format!("army {id} has no unit '{u}' left to split off"),
                            )
                        }
                    }
                }
                let n = a.contents.units.len();
                let (mut keep, mut part) = (
                    ArmyFile {
                        units: vec![],
                        mercenaries: vec![],
                        ..a.contents.clone()
                    },
                    ArmyFile {
                        commander: None,
                        units: vec![],
                        mercenaries: vec![],
                        ..a.contents.clone()
                    },
                );
                for (i, u) in a.contents.units.iter().enumerate() {
                    if taken.contains(&i) {
                        part.units.push(u.clone())
                    } else {
                        keep.units.push(u.clone())
                    }
                }
                for (i, m) in a.contents.mercenaries.iter().enumerate() {
                    if taken.contains(&(n + i)) {
                        part.mercenaries.push(m.clone())
                    } else {
                        keep.mercenaries.push(m.clone())
                    }
                }
                if keep.units.is_empty() && keep.mercenaries.is_empty() {
                    return refuse(
                        self,
                        format!("splitting off every unit leaves army {id} empty"),
                    );
                }
                let split_names: Vec<String> = taken.iter().map(|i| names[*i].clone()).collect();
                let new_id = self.c.new_army_id(&a.owner);
                let mut new = Army {
                    id: new_id.clone(),
                    contents: part,
                    march: None,
                    stance: Stance::Field,
                    ..a.clone()
                };
                new.contents.points = super::game::contents_points(&new.contents);
                keep.points = super::game::contents_points(&keep);
                if let Some(x) = self.c.armies.get_mut(&id) {
                    x.contents = keep;
                }
                self.c.armies.insert(new_id.clone(), new);
                self.events.push(MapEvent::Split {
                    power: power.into(),
                    army: id,
                    new_army: new_id,
                    units: split_names,
                });
            }
            (Order::Merge { into, .. }, Some(id)) => {
                let Some(into) = self.c.find_army(into).map(|a| a.id.clone()) else {
                    return;
                };
                let (Some(a), Some(b)) =
                    (self.c.armies.get(&id).cloned(), self.c.armies.get(&into))
                else {
                    return refuse(self, "one of the armies is no longer there".into());
                };
                if a.province != b.province
                    || a.points() + b.points() > self.c.settings.max_army_points
                {
                    return refuse(self, format!("army {id} cannot merge into {into} now"));
                }
                self.c.armies.remove(&id);
                if let Some(b) = self.c.armies.get_mut(&into) {
                    b.contents.units.extend(a.contents.units);
                    b.contents.mercenaries.extend(a.contents.mercenaries);
                    b.contents.points = super::game::contents_points(&b.contents);
                }
                self.events.push(MapEvent::Merged {
                    power: power.into(),
                    army: id,
                    into,
                });
            }
            (Order::Garrison { .. } | Order::Besiege { .. } | Order::Sally { .. }, Some(id)) => {
                let stance = match line.item {
                    Order::Garrison { .. } => Stance::Garrison,
                    Order::Besiege { .. } => Stance::Besieging { weeks: 0 },
                    _ => return, // a sally is read by the siege step
                };
                if let Some(a) = self.c.armies.get_mut(&id) {
                    if !(matches!(a.stance, Stance::Besieging { .. })
                        && matches!(stance, Stance::Besieging { .. }))
                    {
                        a.stance = stance;
                    }
                    a.march = None;
                }
                let word = if stance == Stance::Garrison {
                    "garrison"
                } else {
                    "besiege"
                };
                self.events.push(MapEvent::StanceTaken {
                    power: power.into(),
                    army: id,
                    stance: word.into(),
                });
            }
            (
                Order::Raise {
                    figures,
                    designation,
                },
                None,
            ) => self.raise(power, line, *figures, designation),
            (Order::Pay { company, province }, None) => {
                let (Some(fc), Some(p)) = (
                    self.c.find_power(company).map(|p| p.id.clone()),
                    self.world.find(province),
                ) else {
                    return;
                };
                let h = self.c.holdings.get_mut(&p.id);
                if let Some(h) = h.filter(|h| h.owner.as_deref() == Some(power)) {
                    h.owner = Some(fc.clone());
                    self.events.push(MapEvent::Paid {
                        employer: power.into(),
                        company: fc,
                        province: p.id.clone(),
                    });
                }
            }
            _ => {}
        }
    }

    /// A new unit in the capital: into the power's army there, or a new one.
    fn raise(&mut self, power: &str, line: &Line<Order>, figures: u32, designation: &str) {
        let me = self.c.powers[power].clone();
        let Some((_, d)) = find_list(lists(), &me.list).and_then(|n| n.designation(designation))
        else {
            return;
        };
        let cost = figures * d.figure_cost();
        let place = self.c.capital_of(self.world, power).or_else(|| {
            self.c
                .armies
                .values()
                .find(|a| a.owner == power)
                .map(|a| a.province.clone())
        });
        let Some(place) = place else { return };
        if cost > me.treasury {
            let why = format!("the treasury holds {} points, not {cost}", me.treasury);
            self.events.push(MapEvent::Refused {
                power: power.into(),
                line: line.text.clone(),
                why,
            });
            return;
        }
        let max = self.c.settings.max_army_points;
        let unit = UnitLine {
            designation: d.designation.clone(),
            figures,
            name: None,
            crossbows: false,
        };
        let there = self
            .c
            .armies
            .values()
            .find(|a| a.owner == power && a.province == place && a.points() + cost <= max)
            .map(|a| a.id.clone());
        let id = match there {
            Some(id) => id,
            None => {
                let id = self.c.new_army_id(power);
                let contents = ArmyFile {
                    nation: me.list.clone(),
                    points: 0,
                    ..ArmyFile::default()
                };
                let army = Army {
                    id: id.clone(),
                    owner: power.into(),
                    hired_by: None,
                    province: place,
                    contents,
                    stance: Stance::Field,
                    march: None,
                    came_from: None,
                };
                self.c.armies.insert(id.clone(), army);
                id
            }
        };
        if let Some(a) = self.c.armies.get_mut(&id) {
            a.contents.units.push(unit);
            a.contents.points = super::game::contents_points(&a.contents);
        }
        if let Some(p) = self.c.powers.get_mut(power) {
            p.treasury -= cost;
        }
        self.events.push(MapEvent::Raised {
            power: power.into(),
            army: id,
            figures,
            designation: d.designation.clone(),
            cost,
        });
    }

    /// The marches; returns the armies that arrived this week.
    fn march(&mut self) -> BTreeSet<String> {
        let mut arrived = BTreeSet::new();
        for a in self.c.armies.values_mut() {
            let step = if a.mounted() {
                MARCH_DAYS_MOUNTED
            } else {
                MARCH_DAYS_FOOT
            };
            let power = a.commander().to_string();
            let Some(m) = a.march.as_mut() else { continue };
            let needed = self
                .world
                .march_days(&a.province, &m.to)
                .unwrap_or(u32::MAX);
            m.days += step;
            if m.days >= needed {
                let to = m.to.clone();
                self.events.push(MapEvent::Marched {
                    army: a.id.clone(),
                    power,
                    from: a.province.clone(),
                    to: to.clone(),
                });
                a.came_from = Some(std::mem::replace(&mut a.province, to));
                a.march = None;
                arrived.insert(a.id.clone());
            } else {
                let (to, days) = (m.to.clone(), m.days);
                self.events.push(MapEvent::OnTheMarch {
                    army: a.id.clone(),
                    power,
                    to,
                    days,
                    needed,
                });
            }
        }
        arrived
    }

    /// Weeks of siege counted; returns the garrisons that must fight this
    /// week (starved out, or sallying).
    fn sieges(&mut self, valid: &[(String, &Line<Order>)]) -> BTreeSet<String> {
        let mut forced: BTreeSet<String> = valid
            .iter()
            .filter_map(|(_, l)| match &l.item {
                Order::Sally { army } => self.c.find_army(army).map(|a| a.id.clone()),
                _ => None,
            })
            .collect();
        let ids: Vec<String> = self.c.armies.keys().cloned().collect();
        for id in ids {
            let a = &self.c.armies[&id];
            let Stance::Besieging { weeks } = a.stance else {
                continue;
            };
            let garrison = self
                .c
                .armies
                .values()
                .find(|g| {
                    g.province == a.province
                        && g.stance == Stance::Garrison
                        && g.commander() != a.commander()
                })
                .map(|g| (g.id.clone(), g.commander().to_string()));
            let western = self.c.powers.get(&a.owner).is_some_and(|p| p.western);
            let needed = if western {
                self.c.settings.siege_weeks_western
            } else {
                self.c.settings.siege_weeks
            };
            let (province, power) = (a.province.clone(), a.commander().to_string());
            let Some((g, gpower)) = garrison else {
                if let Some(a) = self.c.armies.get_mut(&id) {
                    a.stance = Stance::Field;
                }
                continue;
            };
            let weeks = weeks + 1;
            if let Some(a) = self.c.armies.get_mut(&id) {
                a.stance = Stance::Besieging { weeks };
            }
            self.events.push(MapEvent::Besieging {
                province: province.clone(),
                army: id.clone(),
                power,
                weeks,
                needed,
            });
            if weeks >= needed {
                self.events.push(MapEvent::StarvedOut {
                    province,
                    army: g.clone(),
                    power: gpower,
                });
                forced.insert(g);
            }
        }
        forced
    }

    /// Enemies in one province fight: every army of the two strongest
    /// powers there (a third waits for next week, ruling CA-4). A garrison
    /// behind walls fights only when forced out; an army fights once a week
    /// (one that fell back into another battle's province sits it out).
    fn meetings(
        &mut self,
        forced: &BTreeSet<String>,
        arrived: &BTreeSet<String>,
        dice: &mut dyn Dice,
    ) -> Result<(), DiceError> {
        let provinces: Vec<String> = self.c.holdings.keys().cloned().collect();
        let mut fought: BTreeSet<String> = BTreeSet::new();
        for p in provinces {
            let walled = self.world.province(&p).is_some_and(|x| x.capital);
            let waiting: BTreeSet<String> = self
                .c
                .pending
                .iter()
                .flat_map(PendingBattle::all_armies)
                .collect();
            let mut powers: BTreeMap<String, Vec<Army>> = BTreeMap::new();
            for a in
                self.c.armies.values().filter(|a| {
                    a.province == p && !waiting.contains(&a.id) && !fought.contains(&a.id)
                })
            {
                let behind_walls =
                    walled && a.stance == Stance::Garrison && !forced.contains(&a.id);
                if !behind_walls {
                    powers
                        .entry(a.commander().to_string())
                        .or_default()
                        .push(a.clone());
                }
            }
            if powers.len() < 2 {
                continue;
            }
            let mut hosts: Vec<(String, Vec<Army>)> = powers.into_iter().collect();
            let worth = |h: &[Army]| h.iter().map(Army::points).sum::<u32>();
            hosts.sort_by_key(|(power, h)| (std::cmp::Reverse(worth(h)), power.clone()));
            hosts.truncate(2);
            for (_, h) in &mut hosts {
                h.sort_by_key(|a| (std::cmp::Reverse(a.points()), a.id.clone()));
            }
            let came = |h: &[Army]| h.iter().any(|a| arrived.contains(&a.id));
            let (Some((_, y)), Some((_, x))) = (hosts.pop(), hosts.pop()) else {
                continue;
            };
            // The host that marched in this week is the attacker.
            let (att, def) = if came(&y) && !came(&x) {
                (y, x)
            } else {
                (x, y)
            };
            let came_in = [came(&att), came(&def)];
            fought.extend(att.iter().chain(&def).map(|a| a.id.clone()));
            self.battle(&p, att, def, came_in, dice)?;
        }
        Ok(())
    }

    fn battle(
        &mut self,
        province: &str,
        att: Vec<Army>,
        def: Vec<Army>,
        came_in: [bool; 2],
        dice: &mut dyn Dice,
    ) -> Result<(), DiceError> {
        let id = self.c.battles_fought + 1;
        self.c.battles_fought = id;
        let terrain = self
            .world
            .province(province)
            .map_or(super::map::Terrain::Clear, |p| p.terrain);
        let card = battle::draw(&format!("b{id}"), terrain, dice)?;
        let (att_host, att_names) = battle::host(&att);
        let (def_host, def_names) = battle::host(&def);
        let feet = battle::table_feet(
            att_host.points(),
            def_host.points(),
            self.c.settings.feet_per_500_points,
        );
        // The host that came from the north takes the north edge.
        let y = |p: Option<&String>| p.and_then(|p| self.world.province(p)).map(|p| p.at[1]);
        let here = self.world.province(province).map_or(0.0, |p| p.at[1]);
        let att_north = y(att_host.came_from.as_ref()).is_none_or(|v| v <= here);
        let (north, south) = if att_north {
            (&att_host, &def_host)
        } else {
            (&def_host, &att_host)
        };
        let sides = [
            att.iter().map(|a| a.id.clone()).collect::<Vec<_>>(),
            def.iter().map(|a| a.id.clone()).collect::<Vec<_>>(),
        ];
        let engine = self.c.settings.battles == super::game::BattleMode::Engine;
        let (fought, why) = if engine {
            match battle::table_setup(&card, feet, north, south)
                .and_then(|s| battle::fight(&s, [north, south], dice))
            {
                Ok(f) => (Some(f), None),
                Err(BattleError::Dice(e)) => return Err(e),
                Err(BattleError::Setup(why)) => (None, Some(why)),
            }
        } else {
            (None, None)
        };
        match fought {
            Some(f) => {
                let mut lost: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
                for (host, names) in [(&att_host, &att_names), (&def_host, &def_names)] {
                    for (unit, n) in f.lost.get(&host.id).into_iter().flatten() {
                        if let Some((army, own)) = names.get(unit) {
                            lost.entry(army.clone())
                                .or_default()
                                .insert(own.clone(), *n);
                        }
                    }
                }
                let winner = f.winner.as_ref().map(|w| usize::from(*w != att_host.id));
                self.after_battle(
                    id, province, sides, winner, came_in, &lost, card, feet, "engine",
                );
            }
            None => {
                let powers = [
                    att_host.commander().to_string(),
                    def_host.commander().to_string(),
                ];
                self.events.push(MapEvent::BattleAwaits {
                    id,
                    province: province.into(),
                    armies: sides.iter().flatten().cloned().collect(),
                    powers,
                    card: card.clone(),
                    table_feet: feet,
                    why: why.clone(),
                });
                self.c.pending.push(PendingBattle {
                    id,
                    province: province.into(),
                    armies: [sides[0][0].clone(), sides[1][0].clone()],
                    with: [sides[0][1..].to_vec(), sides[1][1..].to_vec()],
                    card: card.number,
                    table_feet: feet,
                    why,
                });
            }
        }
        Ok(())
    }

    /// Losses and recovery, then the side that lost the field falls back.
    /// `winner` is the index of the side that broke the other; with none,
    /// the side that marched in this week falls back (both that did: the one
    /// that lost the larger share of its points; neither: no one), ruling
    /// CA-9. The side holding the field recovers 3/4 of its losses, the
    /// other 1/2 (both 1/2 when no one falls back).
    #[allow(clippy::too_many_arguments)]
    fn after_battle(
        &mut self,
        id: u32,
        province: &str,
        sides: [Vec<String>; 2],
        winner: Option<usize>,
        came_in: [bool; 2],
        lost: &BTreeMap<String, BTreeMap<String, u32>>,
        card: impl Into<CardOrNumber>,
        feet: u32,
        by: &str,
    ) {
        let gross_share = |t: &Self, k: usize| -> f64 {
            let (mut gross, mut worth) = (0u32, 0u32);
            for army in &sides[k] {
                if let Some(a) = t.c.armies.get(army) {
                    worth += a.points();
                    gross += gross_points(&a.contents, lost.get(army));
                }
            }
            f64::from(gross) / f64::from(worth.max(1))
        };
        let falls: Option<usize> = match (winner, came_in) {
            (Some(w), _) => Some(1 - w),
            (None, [true, false]) => Some(0),
            (None, [false, true]) => Some(1),
            (None, [true, true]) => Some(usize::from(gross_share(self, 1) > gross_share(self, 0))),
            (None, [false, false]) => None,
        };
        let mut told = Vec::new();
        for (k, side) in sides.iter().enumerate() {
            let keeps_field = falls.is_some_and(|f| f != k);
            for army in side {
                let Some(a) = self.c.armies.get_mut(army) else {
                    continue;
                };
                let before = a.points();
                let gross = gross_points(&a.contents, lost.get(army));
                recover(&mut a.contents, lost.get(army), keeps_field);
                let after = a.points();
                let net = before - after;
                told.push(BattleSide {
                    army: army.clone(),
                    power: a.commander().to_string(),
                    points: before,
                    lost: net,
                    recovered: gross.saturating_sub(net),
                });
            }
        }
        let card = card.into().card();
        let winner_power = winner.and_then(|w| {
            sides[w]
                .first()
                .and_then(|a| told.iter().find(|s| &s.army == a))
                .map(|s| s.power.clone())
        });
        if told.iter().map(|s| &s.power).collect::<BTreeSet<_>>().len() == 2 {
            self.events.push(MapEvent::Battle {
                id,
                province: province.into(),
                card,
                table_feet: feet,
                sides: told,
                winner: winner_power,
                by: by.into(),
            });
        }
        for (k, side) in sides.iter().enumerate() {
            for army in side {
                let Some(a) = self.c.armies.get(army) else {
                    continue;
                };
                if a.contents.units.is_empty() && a.contents.mercenaries.is_empty() {
                    let power = a.commander().to_string();
                    self.c.armies.remove(army);
                    self.events.push(MapEvent::Destroyed {
                        army: army.clone(),
                        power,
                        province: province.into(),
                    });
                } else if falls == Some(k) {
                    self.fall_back(army, province);
                }
            }
        }
    }

    /// The army falls back: never into a province where
    /// any other power's army stands (no second battle in a week).
    fn fall_back(&mut self, army: &str, province: &str) {
        let Some(a) = self.c.armies.get(army) else {
            return;
        };
        let me = a.commander().to_string();
        let blocked = |p: &str| {
            self.c
                .armies
                .values()
                .any(|x| x.province == p && x.commander() != me)
        };
        let Some(here) = self.world.province(province) else {
            return;
        };
        let mut choices: Vec<&str> = here
            .borders
            .iter()
            .map(|b| b.to.as_str())
            .filter(|p| !blocked(p))
            .collect();
        choices.sort_by_key(|p| {
            (
                Some(*p) != a.came_from.as_deref(),
                self.c.holdings.get(*p).and_then(Holding::holder) != Some(&me),
                p.to_string(),
            )
        });
        let to = choices.first().map(|s| s.to_string());
        match &to {
            Some(to) => {
                let a = self.c.armies.get_mut(army).expect("looked up above");
                a.came_from = Some(std::mem::replace(&mut a.province, to.clone()));
                a.march = None;
                a.stance = Stance::Field;
            }
            None => {
                self.c.armies.remove(army);
            }
        }
        self.events.push(MapEvent::FellBack {
            army: army.into(),
            power: me,
            from: province.into(),
            to,
        });
    }

    fn occupy(&mut self) {
        let n = self.c.settings.pacification_turns;
        let present: BTreeMap<&str, BTreeSet<&str>> =
            self.c.armies.values().fold(BTreeMap::new(), |mut m, a| {
                m.entry(a.province.as_str())
                    .or_default()
                    .insert(a.commander());
                m
            });
        let mut events = Vec::new();
        for (id, h) in self.c.holdings.iter_mut() {
            let here = present.get(id.as_str());
            match here
                .map(|s| s.iter().copied().collect::<Vec<_>>())
                .as_deref()
            {
                Some([x]) if h.holder() != Some(x) => {
                    if h.owner.as_deref() == Some(x) {
                        h.occupier = None;
                    } else {
                        h.occupier = Some(x.to_string());
                    }
                    h.held_for = u32::from(h.occupier.is_some());
                    h.pacified = false;
                    events.push(MapEvent::Occupied {
                        province: id.clone(),
                        power: x.to_string(),
                        from: h.owner.clone(),
                    });
                }
                Some([_]) | None => {
                    if let Some(occ) = h.occupier.clone().filter(|_| !h.pacified) {
                        h.held_for += 1;
                        if h.held_for >= n {
                            h.pacified = true;
                            events.push(MapEvent::Pacified {
                                province: id.clone(),
                                power: occ,
                            });
                        }
                    }
                }
                Some(_) => {} // contested: a siege or a battle to come
            }
        }
        self.events.extend(events);
    }
}

/// A card or, for a battle the secretary entered, its stored number.
pub(crate) enum CardOrNumber {
    Card(Card),
    Number(u32),
}

impl From<Card> for CardOrNumber {
    fn from(c: Card) -> Self {
        CardOrNumber::Card(c)
    }
}
impl From<u32> for CardOrNumber {
    fn from(n: u32) -> Self {
        CardOrNumber::Number(n)
    }
}
impl CardOrNumber {
    fn card(self) -> Card {
        match self {
            CardOrNumber::Card(c) => c,
            CardOrNumber::Number(n) => Card {
                number: n,
                kind: battle::card_kind(n),
                draws: 1,
            },
        }
    }
}

/// Points per figure of the `i`-th unit (units, then mercenaries).
fn unit_cost(f: &ArmyFile, i: usize) -> u32 {
    let n = f.units.len();
    let cost = if i < n {
        super::game::figure_cost(&f.nation, &f.units[i].designation)
    } else {
        f.mercenaries
            .get(i - n)
            .and_then(|m| super::game::figure_cost(&m.nation, &m.designation))
    };
    cost.unwrap_or(0)
}

/// Figures and cost of every unit (units, then mercenaries), by name.
fn unit_rows(f: &ArmyFile) -> Vec<(String, u32, u32)> {
    let figures = f
        .units
        .iter()
        .map(|u| u.figures)
        .chain(f.mercenaries.iter().map(|m| m.figures));
    f.unit_names()
        .into_iter()
        .zip(figures)
        .enumerate()
        .map(|(i, (n, fig))| (n, fig, unit_cost(f, i)))
        .collect()
}

/// Figures lost per unit for `points` lost, spread over the units in
/// proportion to their figures: whole figures rounded down, then one more
/// figure for the units with the largest remainders while that brings the
/// total nearer the points entered (ruling CA-10).
pub fn share_of(f: &ArmyFile, points: u32) -> BTreeMap<String, u32> {
    let rows = unit_rows(f);
    let worth = super::game::contents_points(f).max(1);
    let target = points.min(worth);
    let frac = f64::from(target) / f64::from(worth);
    let mut out: Vec<u32> = rows
        .iter()
        .map(|(_, fig, _)| (f64::from(*fig) * frac).floor() as u32)
        .collect();
    let mut sum: u32 = out.iter().zip(&rows).map(|(l, r)| l * r.2).sum();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let rem = |i: usize| f64::from(rows[i].1) * frac - f64::from(out[i]);
    let rems: Vec<f64> = order.iter().map(|&i| rem(i)).collect();
    order.sort_by(|&a, &b| rems[b].total_cmp(&rems[a]).then(a.cmp(&b)));
    for i in order {
        let cost = rows[i].2;
        if out[i] < rows[i].1 && cost > 0 && 2 * (target.saturating_sub(sum)) >= cost {
            out[i] += 1;
            sum += cost;
        }
    }
    rows.into_iter()
        .zip(out)
        .map(|((n, _, _), l)| (n, l))
        .collect()
}

/// Points of the figures an army lost before recovery.
fn gross_points(f: &ArmyFile, lost: Option<&BTreeMap<String, u32>>) -> u32 {
    let Some(lost) = lost else { return 0 };
    unit_rows(f)
        .iter()
        .map(|(n, fig, cost)| lost.get(n).copied().unwrap_or(0).min(*fig) * cost)
        .sum()
}

/// Take an army's losses, less what it recovers: 3/4 of the figures lost
/// when it holds the field, else 1/2 (§12), rounded to whole figures over
/// the whole army, the remainders going to the units with the largest
/// (ruling CA-9).
fn recover(f: &mut ArmyFile, lost: Option<&BTreeMap<String, u32>>, holds_field: bool) {
    let Some(lost) = lost else { return };
    let (num, den) = if holds_field {
        RECOVERED_HOLDING_THE_FIELD
    } else {
        RECOVERED_FALLING_BACK
    };
    let rows = unit_rows(f);
    let l: Vec<u32> = rows
        .iter()
        .map(|(n, fig, _)| lost.get(n).copied().unwrap_or(0).min(*fig))
        .collect();
    let total: u32 = l.iter().sum();
    let want = (total * num + den / 2) / den;
    let mut back: Vec<u32> = l.iter().map(|x| x * num / den).collect();
    let mut order: Vec<usize> = (0..l.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse((l[i] * num) % den), i));
    let mut got: u32 = back.iter().sum();
    for i in order {
        if got >= want {
            break;
        }
        if back[i] < l[i] {
            back[i] += 1;
            got += 1;
        }
    }
    let n = f.units.len();
    for (i, (gone, kept)) in l.iter().zip(&back).enumerate() {
        let fig = if i < n {
            &mut f.units[i].figures
        } else {
            &mut f.mercenaries[i - n].figures
        };
        *fig = fig.saturating_sub(gone - kept);
    }
    f.units.retain(|u| u.figures > 0);
    f.mercenaries.retain(|m| m.figures > 0);
    f.points = super::game::contents_points(f);
}

/// Share of its losses an army that holds the field recovers (§12: "the
/// winner recovers 3/4 of its losses").
pub const RECOVERED_HOLDING_THE_FIELD: (u32, u32) = (3, 4);
/// Share an army that falls back recovers (§12: "the loser 1/2").
pub const RECOVERED_FALLING_BACK: (u32, u32) = (1, 2);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::campaign::game::CampaignFile;
    use crate::games::hyborian::campaign::orders::read;
    use crate::games::hyborian::dice::SeededDice;

    fn start(weeks: u32) -> (Campaign, World) {
        let text = format!(
            r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[settings]
weeks_per_year = {weeks}
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "tarantia"
points = 600
[[power]]
id = "nemedia"
nation = "nemedia"
address = "n@x"
password = "p"
[[power.army]]
province = "belverus"
points = 400
"#
        );
        let world = World::hyborea().unwrap();
        (
            CampaignFile::load(&text).unwrap().start(&world).unwrap(),
            world,
        )
    }

    fn orders(power: &str, text: &str) -> BTreeMap<String, Vec<Line<Order>>> {
        [(
            power.to_string(),
            read(&format!("campaign t power {power} password p\n{text}")).orders,
        )]
        .into()
    }

    fn turn(c: &Campaign, w: &World, o: &BTreeMap<String, Vec<Line<Order>>>) -> Resolved {
        resolve(c, w, o, &[], &mut SeededDice::new([c.turn as u8; 32])).unwrap()
    }

    #[test]
    fn marching_into_hills_takes_two_weeks_for_foot() {
        let (c, w) = start(35);
        let o = orders("nemedia", "army nemedia-1 move to Nemedian Marches");
        let r = turn(&c, &w, &o);
        assert!(
            r.events.iter().any(|e| matches!(
                e,
                MapEvent::OnTheMarch {
                    days: 3,
                    needed: 3,
                    ..
                }
            ) || matches!(e, MapEvent::Marched { .. })),
            "{:?}",
            r.events
        );
        let a = &r.campaign.armies["nemedia-1"];
        let arrived = a.province == "nemedian-marches";
        let mounted = a.mounted();
        assert!(
            arrived,
            "hills cost 3 march days: one week (mounted {mounted})"
        );
        assert_eq!(r.campaign.week, 2);
    }

    #[test]
    fn an_order_for_another_powers_army_is_refused() {
        let (c, w) = start(35);
        let r = turn(
            &c,
            &w,
            &orders("nemedia", "army aquilonia-1 move to Shamar"),
        );
        assert!(
            matches!(&r.events[0], MapEvent::Refused { why, .. } if why.starts_with("you have no army 'aquilonia-1'; yours are: nemedia-1")),
            "{:?}",
            r.events
        );
        assert_eq!(r.campaign.armies["aquilonia-1"].province, "tarantia");
        // A probe learns nothing: another power's army and no army read alike.
        let probe = |army: &str| {
            check(&c, &w, "nemedia", &Order::Halt { army: army.into() })
                .unwrap_err()
                .replace(army, "X")
        };
        assert_eq!(probe("aquilonia-1"), probe("aquilonia-9"));
    }

    /// Both powers' armies in Shamar; `came` marched in this week.
    fn meeting(c: &mut Campaign, came: &str) {
        for a in c.armies.values_mut() {
            a.province = "shamar".into();
            a.march = None;
            // A stale came_from from an earlier fall back on the other one.
            a.came_from = if a.id == came {
                None
            } else {
                Some("tarantia".into())
            };
        }
        c.armies.get_mut(came).unwrap().province = "tarantia".into();
        c.armies.get_mut(came).unwrap().march = Some(super::super::game::March {
            to: "shamar".into(),
            days: 9,
        });
    }

    #[test]
    fn in_a_draw_the_army_that_marched_in_falls_back_whatever_came_before() {
        let (mut c, w) = start(35);
        meeting(&mut c, "nemedia-1");
        // No engine result: fake a draw by an entered battle without a
        // winner through after_battle directly.
        let mut t = Turn {
            c: c.clone(),
            world: &w,
            events: Vec::new(),
        };
        let arrived = t.march();
        assert!(arrived.contains("nemedia-1"));
        for a in t.c.armies.values_mut() {
            a.province = "shamar".into();
        }
        let lost: BTreeMap<String, BTreeMap<String, u32>> = [
            (
                "aquilonia-1".to_string(),
                share_of(&c.armies["aquilonia-1"].contents, 100),
            ),
            (
                "nemedia-1".to_string(),
                share_of(&c.armies["nemedia-1"].contents, 100),
            ),
        ]
        .into();
        t.after_battle(
            1,
            "shamar",
            [vec!["nemedia-1".into()], vec!["aquilonia-1".into()]],
            None,
            [true, false],
            &lost,
            50,
            8,
            "engine",
        );
        assert!(
            t.events
                .iter()
                .any(|e| matches!(e, MapEvent::FellBack { army, .. } if army == "nemedia-1")),
            "{:?}",
            t.events
        );
        assert_eq!(t.c.armies["aquilonia-1"].province, "shamar");
        let side = |army: &str| {
            t.events
                .iter()
                .find_map(|e| match e {
                    MapEvent::Battle { sides, .. } => {
                        sides.iter().find(|s| s.army == army).cloned()
                    }
                    _ => None,
                })
                .unwrap()
        };
        let (held, fell) = (side("aquilonia-1"), side("nemedia-1"));
        assert!(
            held.recovered * 100 >= (held.lost + held.recovered) * 60,
            "{held:?}"
        );
        assert!(
            fell.recovered * 100 <= (fell.lost + fell.recovered) * 60,
            "{fell:?}"
        );
    }

    #[test]
    fn entered_losses_are_the_points_entered_and_a_winner_recovers_three_quarters() {
        let (c, _) = start(35);
        let f = &c.armies["aquilonia-1"].contents;
        for points in [10, 150, 333] {
            let share = share_of(f, points);
            let gross = gross_points(f, Some(&share));
            let cheapest = (0..f.units.len()).map(|i| unit_cost(f, i)).max().unwrap();
            assert!(gross.abs_diff(points) <= cheapest, "{points}: {gross}");
            assert!(gross > 0, "{points} points take at least a figure");
        }
        let share = share_of(f, 150);
        let mut after = f.clone();
        let before = super::super::game::contents_points(f);
        recover(&mut after, Some(&share), true);
        let net = before - super::super::game::contents_points(&after);
        let gross = gross_points(f, Some(&share));
        let back = gross - net;
        assert!(
            back * 100 >= gross * 65 && back * 100 <= gross * 85,
            "{back} of {gross}"
        );
    }

    #[test]
    fn two_armies_of_a_power_in_one_province_fight_together_once() {
        let (mut c, w) = start(35);
        let mut second = c.armies["aquilonia-1"].clone();
        second.id = "aquilonia-7".into();
        c.armies.insert(second.id.clone(), second);
        meeting(&mut c, "nemedia-1");
        for a in c.armies.values_mut().filter(|a| a.owner == "aquilonia") {
            a.province = "shamar".into();
        }
        let r = turn(&c, &w, &BTreeMap::new());
        let battles: Vec<&MapEvent> = r
            .events
            .iter()
            .filter(|e| matches!(e, MapEvent::Battle { .. }))
            .collect();
        assert_eq!(battles.len(), 1, "{:?}", r.events);
        let MapEvent::Battle { sides, .. } = battles[0] else {
            unreachable!()
        };
        let armies: BTreeSet<&str> = sides.iter().map(|s| s.army.as_str()).collect();
        assert_eq!(armies, ["aquilonia-1", "aquilonia-7", "nemedia-1"].into());
    }

    #[test]
    fn winter_raises_are_judged_against_the_new_treasury_and_garrisons_need_walls() {
        let (mut c, w) = start(1);
        c.week = 2; // winter quarters
        c.powers.get_mut("aquilonia").unwrap().treasury = 0;
        let raise = Order::Raise {
            figures: 12,
            designation: "Aquilonians".into(),
        };
        assert!(check(&c, &w, "aquilonia", &raise).is_err());
        assert_eq!(check(&as_ordered(&c, &w), &w, "aquilonia", &raise), Ok(()));
        let r = turn(&c, &w, &orders("aquilonia", "raise 12 Aquilonians"));
        assert!(
            r.events
                .iter()
                .any(|e| matches!(e, MapEvent::Raised { figures: 12, .. })),
            "{:?}",
            r.events
        );
        let (c, w) = start(35);
        let mut c2 = c.clone();
        c2.armies.get_mut("aquilonia-1").unwrap().province = "shamar".into();
        let err = check(
            &c2,
            &w,
            "aquilonia",
            &Order::Garrison {
                army: "aquilonia-1".into(),
            },
        );
        assert!(err.unwrap_err().contains("only a capital"));
    }

    #[test]
    fn a_second_guard_unit_is_not_raised() {
        let (mut c, w) = start(35);
        let list = find_list(lists(), "Aquilonia").unwrap();
        let Some((_, guard)) = list.designations().find(|(_, d)| d.is_guard()) else {
            return;
        };
        let a = c.armies.get_mut("aquilonia-1").unwrap();
        if guard_units(&a.contents).is_empty() {
            a.contents.units.push(UnitLine {
                designation: guard.designation.clone(),
                figures: guard.figures.max(),
                name: None,
                crossbows: false,
            });
        }
        let err = check(
            &c,
            &w,
            "aquilonia",
            &Order::Raise {
                figures: 1,
                designation: guard.designation.clone(),
            },
        );
        assert!(err.unwrap_err().contains("guard unit"));
    }

    #[test]
    fn an_occupied_province_is_pacified_after_ten_turns_and_changes_hands_next_year() {
        let (mut c, w) = start(12);
        let mut r = turn(
            &c,
            &w,
            &orders("aquilonia", "army aquilonia-1 move to Nemedian Marches"),
        );
        assert!(
            r.events.iter().any(
                |e| matches!(e, MapEvent::Occupied { province, .. } if province == "nemedian-marches")
            ),
            "{:?}",
            r.events
        );
        for _ in 0..9 {
            c = r.campaign;
            r = turn(&c, &w, &BTreeMap::new());
        }
        assert!(
            r.events
                .iter()
                .any(|e| matches!(e, MapEvent::Pacified { .. })),
            "{:?}",
            r.events
        );
        assert_eq!(
            r.campaign.holdings["nemedian-marches"].owner.as_deref(),
            Some("nemedia"),
            "points move only next year"
        );
        c = r.campaign;
        while !c.winter() {
            c = turn(&c, &w, &BTreeMap::new()).campaign;
        }
        let before = c.allowance(&w, "aquilonia");
        let r = turn(&c, &w, &orders("aquilonia", "raise 12 Aquilonians"));
        assert_eq!(
            r.campaign.holdings["nemedian-marches"].owner.as_deref(),
            Some("aquilonia")
        );
        assert_eq!(r.campaign.allowance(&w, "aquilonia"), before + 450);
        assert!(
            r.events
                .iter()
                .any(|e| matches!(e, MapEvent::Raised { figures: 12, .. })),
            "{:?}",
            r.events
        );
        assert_eq!((r.campaign.year, r.campaign.week), (2, 1));
    }

    #[test]
    fn a_winter_march_is_refused() {
        let (mut c, w) = start(1);
        c = turn(&c, &w, &BTreeMap::new()).campaign;
        assert!(c.winter());
        let r = turn(
            &c,
            &w,
            &orders("aquilonia", "army aquilonia-1 move to Shamar"),
        );
        assert!(
            r.events
                .iter()
                .any(|e| matches!(e, MapEvent::Refused { why, .. } if why.contains("winter"))),
            "{:?}",
            r.events
        );
    }

    #[test]
    fn a_battle_for_the_secretary_waits_for_the_mailed_result() {
        let (mut c, w) = start(35);
        c.settings.battles = crate::games::hyborian::campaign::game::BattleMode::Secretary;
        let mut o = orders("aquilonia", "army aquilonia-1 move to Nemedian Marches");
        o.extend(orders("nemedia", "army nemedia-1 move to Nemedian Marches"));
        let r = turn(&c, &w, &o);
        assert!(
            r.events
                .iter()
                .any(|e| matches!(e, MapEvent::BattleAwaits { id: 1, .. })),
            "{:?}",
            r.events
        );
        assert_eq!(r.campaign.pending.len(), 1);
        let c = r.campaign;
        let refused = check(
            &c,
            &w,
            "nemedia",
            &Order::Move {
                army: "nemedia-1".into(),
                to: "Belverus".into(),
            },
        );
        assert_eq!(
            refused,
            Err("army nemedia-1 awaits the result of battle 1".into())
        );
        let result = EnteredResult {
            battle: 1,
            winner: "aquilonia".into(),
            losses: vec![("aquilonia-1".into(), 100), ("nemedia-1".into(), 200)],
        };
        let r = resolve(
            &c,
            &w,
            &BTreeMap::new(),
            &[result],
            &mut SeededDice::new([1; 32]),
        )
        .unwrap();
        let battle = r.events.iter().find_map(|e| match e {
            MapEvent::Battle {
                sides, winner, by, ..
            } => Some((sides.clone(), winner.clone(), by.clone())),
            _ => None,
        });
        let (sides, winner, by) = battle.expect("the result is applied");
        assert_eq!(
            (winner.as_deref(), by.as_str()),
            (Some("aquilonia"), "secretary")
        );
        // The winner keeps a quarter of its losses, the loser half.
        for s in &sides {
            let gross = s.lost + s.recovered;
            let kept = if s.power == "aquilonia" {
                gross - gross * 3 / 4
            } else {
                gross - gross / 2
            };
            assert!(s.lost.abs_diff(kept) <= gross / 5 + 12, "{s:?}");
        }
        assert!(
            r.events.iter().any(
                |e| matches!(e, MapEvent::FellBack { army, to: Some(_), .. } if army == "nemedia-1")
            ),
            "{:?}",
            r.events
        );
        assert_ne!(r.campaign.armies["nemedia-1"].province, "nemedian-marches");
        assert!(r.campaign.pending.is_empty());
    }

    #[test]
    fn a_garrison_behind_walls_is_besieged_not_attacked() {
        let (c, w) = start(35);
        let mut o = orders("aquilonia", "army aquilonia-1 move to Nemedian Marches");
        o.extend(orders("nemedia", "army nemedia-1 garrison"));
        let mut c = turn(&c, &w, &o).campaign;
        c = turn(
            &c,
            &w,
            &orders("aquilonia", "army aquilonia-1 move to Belverus"),
        )
        .campaign;
        assert_eq!(c.armies["aquilonia-1"].province, "belverus");
        let r = turn(&c, &w, &orders("aquilonia", "army aquilonia-1 besiege"));
        assert!(
            !r.events
                .iter()
                .any(|e| matches!(e, MapEvent::Battle { .. })),
            "{:?}",
            r.events
        );
        assert!(
            r.events.iter().any(|e| matches!(
                e,
                MapEvent::Besieging {
                    weeks: 1,
                    needed: 5,
                    ..
                }
            )),
            "Aquilonia is Western: {:?}",
            r.events
        );
        assert_eq!(
            r.campaign.holdings["belverus"].occupier, None,
            "a held capital is not occupied"
        );
    }

    #[test]
    fn a_free_company_is_hired_paid_and_goes_home_at_the_year_end() {
        let (c, w) = start(2);
        let text = r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[settings]
weeks_per_year = 2
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "tarantia"
points = 1500
[[power]]
id = "wolves"
nation = "free-companies"
address = "w@x"
password = "p"
[[power.army]]
province = "border-kingdom"
points = 100
"#;
        let _ = c;
        let c = CampaignFile::load(text).unwrap().start(&w).unwrap();
        let mut o = orders(
            "aquilonia",
            "hire wolves for 120 points\npay wolves with Westermarck",
        );
        o.extend(orders("wolves", "serve aquilonia for 100 points"));
        let r = turn(&c, &w, &o);
        assert!(
            r.events
                .iter()
                .any(|e| matches!(e, MapEvent::Hired { points: 100, .. })),
            "{:?}",
            r.events
        );
        assert_eq!(
            r.campaign.armies["wolves-1"].hired_by.as_deref(),
            Some("aquilonia")
        );
        assert_eq!(
            r.campaign.powers["aquilonia"].treasury,
            c.powers["aquilonia"].treasury - 100
        );
        assert_eq!(
            r.campaign.holdings["westermarck"].owner.as_deref(),
            Some("wolves")
        );
        // The employer now commands the company, and the company does not.
        assert!(check(
            &r.campaign,
            &w,
            "aquilonia",
            &Order::Move {
                army: "wolves-1".into(),
                to: "Gunderland".into()
            }
        )
        .is_ok());
        assert!(check(
            &r.campaign,
            &w,
            "wolves",
            &Order::Garrison {
                army: "wolves-1".into()
            }
        )
        .is_err());
        let mut c = r.campaign;
        while !c.winter() {
            c = turn(&c, &w, &BTreeMap::new()).campaign;
        }
        let r = turn(&c, &w, &BTreeMap::new());
        assert!(
            r.events
                .iter()
                .any(|e| matches!(e, MapEvent::ContractEnded { .. })),
            "{:?}",
            r.events
        );
        assert_eq!(r.campaign.armies["wolves-1"].hired_by, None);
        assert_eq!(
            r.campaign.allowance(&w, "wolves"),
            200 + 250,
            "its own points and Westermarck's"
        );
        assert_eq!(
            r.campaign.allowance(&w, "aquilonia"),
            3000 - 250,
            "Westermarck paid away"
        );
    }
}
