//! The week's orders carried out in the order given: contracts, then split,
//! merge, raise and stances (§12).

use super::check::pick;
use super::{MapEvent, Turn};
use crate::games::hyborian::army::{ArmyFile, UnitLine};
use crate::games::hyborian::campaign::game::{find_list, lists, Army, Stance};
use crate::games::hyborian::campaign::orders::{Line, Order};
use std::collections::BTreeSet;

impl Turn<'_> {
    /// Contracts (ruling CA-14): a `hire` and the company's `serve` of the
    /// same week make one; either line without the other is refused, so a
    /// `serve` no one took up is not reported carried out (issue 45).
    pub(super) fn contracts(&mut self, valid: &[(String, &Line<Order>)]) {
        let mut made: BTreeSet<(String, String)> = BTreeSet::new();
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
                    made.insert((fc.clone(), employer.clone()));
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
                    number: Some(line.number),
                }),
            }
        }
        for (company, line) in valid {
            let Order::Serve { employer, points } = &line.item else {
                continue;
            };
            let Some(e) = self.c.find_power(employer).map(|p| p.id.clone()) else {
                continue;
            };
            if !made.contains(&(company.clone(), e.clone())) {
                self.events.push(MapEvent::Refused {
                    power: company.clone(),
                    line: line.text.clone(),
                    why: format!(
                        "no contract was made: {e} did not hire you for {points} points or more this week (a contract needs both orders in one week, ruling CA-14)"
                    ),
                    number: Some(line.number),
                });
            }
        }
    }

    pub(super) fn administer(&mut self, power: &str, line: &Line<Order>) {
        let refuse = |t: &mut Self, why: String| {
            t.events.push(MapEvent::Refused {
                power: power.to_string(),
                line: line.text.clone(),
                why,
                number: Some(line.number),
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
                        a.march =
                            Some(crate::games::hyborian::campaign::game::March { to, days: 0 });
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
                new.contents.points =
                    crate::games::hyborian::campaign::game::contents_points(&new.contents);
                keep.points = crate::games::hyborian::campaign::game::contents_points(&keep);
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
                    b.contents.points =
                        crate::games::hyborian::campaign::game::contents_points(&b.contents);
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
                    h.promised = Some(fc.clone());
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

    /// A new unit in the capital (or where a nation without one raises,
    /// ruling CA-20): into the power's army there, or a new one.
    pub(super) fn raise(
        &mut self,
        power: &str,
        line: &Line<Order>,
        figures: u32,
        designation: &str,
    ) {
        let me = self.c.powers[power].clone();
        let Some((_, d)) = find_list(lists(), &me.list).and_then(|n| n.designation(designation))
        else {
            return;
        };
        let cost = figures * d.figure_cost();
        let place = self.c.raising_place(self.world, power).or_else(|| {
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
                number: Some(line.number),
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
            .find(|a| {
                a.owner == power
                    && a.province == place
                    && a.points() + cost <= max
                    && self.c.battle_of(&a.id).is_none()
            })
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
            a.contents.points =
                crate::games::hyborian::campaign::game::contents_points(&a.contents);
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
}
