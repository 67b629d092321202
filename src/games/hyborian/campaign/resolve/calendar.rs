//! The calendar's steps: the year's end in winter quarters, and occupation
//! and pacification at the end of every week (§12).

use super::{MapEvent, Turn};
use std::collections::{BTreeMap, BTreeSet};

impl Turn<'_> {
    pub(super) fn year_ends(&mut self) {
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
                // Its owner lost it: what he promised of it lapses.
                h.promised = None;
            } else if let Some(to) = h.promised.take() {
                // Paid to a company: its points are the company's now.
                self.events.push(MapEvent::Transferred {
                    province: id.clone(),
                    from: h.owner.replace(to.clone()),
                    to,
                });
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
    pub(super) fn occupy(&mut self) {
        let n = self.c.settings.pacification_turns;
        let present: BTreeMap<&str, BTreeSet<&str>> =
            self.c.armies.values().fold(BTreeMap::new(), |mut m, a| {
                m.entry(a.province.as_str())
                    .or_default()
                    .insert(a.commander());
                m
            });
        // The owners of the armies a commander has in each province: a
        // hired company's own flag, which is all others see of it.
        let flags: BTreeMap<(&str, &str), BTreeSet<&str>> =
            self.c.armies.values().fold(BTreeMap::new(), |mut m, a| {
                m.entry((a.province.as_str(), a.commander()))
                    .or_default()
                    .insert(a.owner.as_str());
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
                    h.seen_as = flags
                        .get(&(id.as_str(), x))
                        .and_then(|f| match f.iter().copied().collect::<Vec<_>>()[..] {
                            [company] if company != *x => Some(company.to_string()),
                            _ => None,
                        })
                        .filter(|_| h.occupier.is_some());
                    events.push(MapEvent::Occupied {
                        province: id.clone(),
                        power: x.to_string(),
                        from: h.owner.clone(),
                        seen_as: h.seen_as.clone(),
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
                                seen_as: h.seen_as.clone(),
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
