//! Marches by march days against the terrain, and sieges (§12).

use super::{MapEvent, Turn};
use crate::games::hyborian::campaign::game::Stance;
use crate::games::hyborian::campaign::orders::{Line, Order};
use std::collections::BTreeSet;

impl Turn<'_> {
    /// The marches; returns the armies that arrived this week.
    pub(super) fn march(&mut self) -> BTreeSet<String> {
        let mut arrived = BTreeSet::new();
        // An army in a battle waiting for its result stands (ruling CA-18).
        let frozen: BTreeSet<String> = self.c.pending.iter().flat_map(|b| b.all_armies()).collect();
        for a in self
            .c
            .armies
            .values_mut()
            .filter(|a| !frozen.contains(&a.id))
        {
            let step = a.week_march();
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
    pub(super) fn sieges(&mut self, valid: &[(String, &Line<Order>)]) -> BTreeSet<String> {
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
}
