//! Step 5, Challenges, and step 6, Melee: "Conduct melee and remember to
//! decrement the morale clock when a character or baggage unit is
//! destroyed, or a battle standard captured. Perform melee outcome moves
//! after each individual combat."
//!
//! The combats are the groups of units in contact when the step begins
//! (ruling FA-32); each is asked of the base rules with the sheet's
//! modifiers: charge bonuses and rule 7, the weapons' charged and charging
//! bonuses (§3, heavy armour's O10, Pass Through's exceptions), Wild
//! Charge, Unmanoeuvreable, the +1 CF against the captors of a standard
//! (rule 15), double skirmishers (rule 13), characters (§7) and support
//! (rule 1, Tribal). After it: DD retreats, impetuous follow-ups and
//! pursuits (§5 Impetuous, ruling FA-7), wrap-arounds (rule 11).

use crate::games::fr_ancients::abilities::Ability;
use crate::games::fr_ancients::engine::{Cause, Engine, Go, How};
use crate::games::fr_ancients::events::Event;
use crate::games::fr_ancients::new_rules::{charge_bonus_counts, may_wrap, support_in_terrain};
use crate::games::fr_ancients::questions::{
    Answer, Ask, Fighter, Loss, Modifier, MoveKind, Support, Test,
};
use crate::games::fr_ancients::sheet::sheet;
use crate::games::fr_ancients::standards::against_captors_cf;
use crate::games::fr_ancients::table::{CharacterStatus, StandardState, Unit, UnitId};
use crate::games::fr_ancients::troops::TroopType;
use crate::games::fr_ancients::weapons::Weapon;
use crate::geometry::{turn_between, Edge, Face};
use std::collections::{BTreeMap, BTreeSet};

impl Engine<'_> {
    /// Step 5: the phasing side's challenges, between characters whose
    /// units are in contact (ruling FA-33).
    pub(crate) fn challenges(&mut self) -> Go {
        let side = self.phasing();
        let Some(orders) = self.orders.sides.get(&side) else {
            return Ok(());
        };
        for (a, b) in orders.challenges.clone() {
            let (Some(ca), Some(cb)) = (
                self.battle.characters.get(&a).cloned(),
                self.battle.characters.get(&b).cloned(),
            ) else {
                continue;
            };
            let active =
                ca.status == CharacterStatus::Active && cb.status == CharacterStatus::Active;
            let touching = match (
                ca.with.as_deref().and_then(|u| self.unit(u)),
                cb.with.as_deref().and_then(|u| self.unit(u)),
            ) {
                (Some(x), Some(y)) => self.battle.touching(x, y) && x.side != y.side,
                _ => false,
            };
            if !active || !touching {
                self.log(Event::Refused {
                    unit: ca.with.clone().unwrap_or_default(),
                    order: format!("{}: challenge {}", ca.name, cb.name),
                    why: "a challenge is between characters whose units are in contact".into(),
                });
                continue;
            }
            let phase = self.phase();
            let rolls = [
                self.roll(&format!("challenge:{a}:{phase}"))?,
                self.roll(&format!("challenge:{b}:{phase}"))?,
            ];
            let key = format!("challenge:{a}:{phase}");
            let Some(Answer::Challenge { winner, loser }) = self.ask(
                key,
                Ask::Challenge {
                    challenger: a.clone(),
                    challenged: b.clone(),
                    rolls: rolls.clone(),
                },
            ) else {
                continue;
            };
            self.log(Event::Challenge {
                challenger: a.clone(),
                challenged: b.clone(),
                rolls: rolls.to_vec(),
                winner: winner.clone(),
                loser: loser.clone(),
            });
            if let Some(w) = winner {
                let l = if w == a { &b } else { &a };
                if matches!(loser, Loss::Killed | Loss::Captured) {
                    self.character_fate(l, loser);
                }
            }
        }
        Ok(())
    }

    /// The groups of units in contact, each sorted, in order of their first id.
    fn combats(&self) -> Vec<Vec<UnitId>> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        let ids: Vec<UnitId> = self.battle.present().map(|u| u.id.clone()).collect();
        for id in ids {
            if seen.contains(&id) || self.battle.contacts(&self.battle.units[&id]).is_empty() {
                continue;
            }
            let mut group = BTreeSet::new();
            let mut todo = vec![id];
            while let Some(u) = todo.pop() {
                if !group.insert(u.clone()) {
                    continue;
                }
                for (o, _) in self.battle.contacts(&self.battle.units[&u]) {
                    todo.push(o);
                }
            }
            seen.extend(group.iter().cloned());
            out.push(group.into_iter().collect());
        }
        out
    }

    /// Step 6.
    pub(crate) fn melee(&mut self) -> Go {
        let combats = self.combats();
        let mut asked = Vec::new();
        for combat in &combats {
            let fighters = combat
                .iter()
                .map(|u| self.fighter(u))
                .collect::<Go<Vec<Fighter>>>()?;
            asked.push(fighters);
        }
        for fighters in asked {
            let key = format!("melee:{}:{}", fighters[0].unit, self.phase());
            let rolls = fighters.iter().map(|f| f.roll.clone()).collect();
            let ids: Vec<UnitId> = fighters.iter().map(|f| f.unit.clone()).collect();
            let Some(Answer::Melee {
                winner,
                results,
                wraps,
                follow_ups,
            }) = self.ask(
                key,
                Ask::Melee {
                    fighters: fighters.clone(),
                },
            )
            else {
                continue;
            };
            self.log(Event::Melee {
                fighters: ids.clone(),
                rolls,
                winner: winner.clone(),
                results: results.clone(),
            });
            let before: BTreeMap<UnitId, Unit> = ids
                .iter()
                .filter_map(|i| self.unit(i).map(|u| (i.clone(), u.clone())))
                .collect();
            for (unit, r) in &results {
                let by = self.first_enemy(unit, &before);
                let cause = Cause {
                    by,
                    how: How::Melee,
                };
                if r.destroyed {
                    self.destroy(unit, cause)?;
                } else if r.dmz > 0 {
                    self.dmz(unit, r.dmz, cause)?;
                }
            }
            for w in wraps {
                self.wrap(&w.unit, &w.around, w.to);
            }
            // "Perform melee outcome moves after each individual combat."
            self.settle()?;
            if let Some(side) = winner {
                self.impetuous_after(&side, &ids, &before, &results)?;
            }
            self.follow_ups(&follow_ups, &before)?;
        }
        Ok(())
    }

    /// Winners the base rules send after the unit they beat (M7): each
    /// follows an enemy of its combat that fell back out of contact. The
    /// impetuous follow up by the sheet already (`impetuous_after`).
    fn follow_ups(&mut self, units: &[UnitId], before: &BTreeMap<UnitId, Unit>) -> Go {
        for id in units {
            let Some(w) = self.unit(id).cloned() else {
                continue;
            };
            if !w.is_present()
                || w.has(Ability::Impetuous)
                || self.record.no_follow_up.contains(&w.id)
            {
                continue;
            }
            let foe = before.values().filter(|o| o.side != w.side).find_map(|o| {
                self.unit(&o.id)
                    .filter(|n| n.is_present() && !self.battle.touching(&w, n))
                    .cloned()
            });
            if let Some(o) = foe {
                self.follow_up(&w, &o)?;
            }
        }
        Ok(())
    }

    /// The enemy that touched a unit (lowest id), before the results.
    fn first_enemy(&self, unit: &str, before: &BTreeMap<UnitId, Unit>) -> Option<UnitId> {
        let u = before.get(unit)?;
        before
            .values()
            .filter(|o| o.side != u.side && self.battle.touching(u, o))
            .map(|o| o.id.clone())
            .next()
            .or_else(|| {
                before
                    .values()
                    .find(|o| o.side != u.side)
                    .map(|o| o.id.clone())
            })
    }

    /// One unit's part in its combat, with every modifier the sheet defines.
    fn fighter(&mut self, id: &str) -> Go<Fighter> {
        let u = self.battle.units[id].clone();
        let strikes: Vec<(UnitId, Face)> = self
            .battle
            .present()
            .filter(|o| self.battle.hostile(&u, o) && self.battle.touching(&u, o))
            .map(|o| (o.id.clone(), self.battle.face_touched(&u, o)))
            .collect();
        let mut modifiers = Vec::new();
        let charged = self.record.charged.get(id).cloned();
        let counter = self.record.counter_charged.contains(id);
        let target = charged.clone().or_else(|| {
            // A counter-charger's "target" is the unit that charged it.
            counter
                .then(|| {
                    self.record
                        .charged
                        .iter()
                        .find(|(_, t)| *t == id)
                        .map(|(c, _)| c.clone())
                })
                .flatten()
        });
        let mut charge_counts = false;
        if let Some(t) = target.as_ref().and_then(|t| self.unit(t)).cloned() {
            if charge_bonus_counts(t.troop) {
                charge_counts = true;
                match u.natural_charge_bonus() {
                    Some(b) => {
                        modifiers.push(Modifier::new(b, "charge bonus (with Wild Charge, §5)"))
                    }
                    None => modifiers.push(Modifier::new(
                        0,
                        "charged: its natural charge bonus counts (base troop table, M2)",
                    )),
                }
            } else {
                modifiers.push(Modifier::new(
                    0,
                    format!(
                        "charged {}: no charge or Wild Charge bonus, its standard CF (rule 7)",
                        t.troop
                    ),
                ));
            }
            let no_thrown = self.record.passed_through.contains(id);
            let best = u
                .weapons
                .iter()
                .filter(|w| !(no_thrown && matches!(w, Weapon::Thrown | Weapon::Pila)))
                .map(|w| w.when_charging())
                .max()
                .unwrap_or(0);
            if best > 0 {
                let x = bonus_factor(&u);
                modifiers.push(Modifier::new(
                    best * x,
                    "missile weapon bonus when charging (§3)",
                ));
            }
        }
        // Charged by an enemy (not counter-charging): the "when charged" bonus.
        let chargers: Vec<Unit> = self
            .record
            .charged
            .iter()
            .filter(|(c, t)| *t == id && !counter && !self.record.passed_through.contains(*c))
            .filter_map(|(c, _)| self.unit(c).cloned())
            .collect();
        if let Some(c) = chargers.first() {
            let best = u
                .weapons
                .iter()
                .map(|w| w.when_charged(c.has(Ability::HeavyArmour)))
                .max()
                .unwrap_or(0);
            if best > 0 {
                let x = bonus_factor(&u);
                let why = if c.has(Ability::HeavyArmour) {
                    "missile weapon bonus when charged, 1 less against heavy armour (§3, §5)"
                } else {
                    "missile weapon bonus when charged (§3)"
                };
                modifiers.push(Modifier::new(best * x, why));
            }
        }
        for (e, _) in &strikes {
            let Some(e) = self.unit(e).cloned() else {
                continue;
            };
            let my_face = self.battle.face_touched(&u, &e);
            if e.has(Ability::Unmanoeuvreable) && my_face != Face::Front {
                let alone = self.battle.contacts(&e).len() == 1;
                let um = &sheet().abilities.unmanoeuvreable;
                if alone {
                    let v = if my_face == Face::Rear {
                        um.single_rear_cf
                    } else {
                        um.single_flank_cf
                    };
                    modifiers.push(Modifier::new(v, format!("fighting {} alone in its {}: the pikes hold their position (§5 Unmanoeuvreable)", e.name, my_face)));
                } else {
                    modifiers.push(Modifier::new(
                        um.overlap_extra,
                        format!(
                            "overlap bonus against {}'s {} increased by 1 (§5 Unmanoeuvreable)",
                            e.name, my_face
                        ),
                    ));
                }
            }
        }
        let captors: Vec<String> = self
            .battle
            .sides
            .iter()
            .filter(|s| s.id == u.side)
            .filter_map(|s| match &s.standard {
                Some(StandardState::CapturedBy(c)) if strikes.iter().any(|(e, _)| e == c) => {
                    Some(c.clone())
                }
                _ => None,
            })
            .collect();
        if !captors.is_empty() {
            modifiers.push(Modifier::new(
                against_captors_cf(),
                "fighting the captors of its standard (rule 15)",
            ));
        }
        if u.double_skirmish
            && strikes.iter().any(|(e, _)| {
                self.unit(e)
                    .is_some_and(|e| e.troop == TroopType::Skirmishers)
            })
        {
            modifiers.push(Modifier::new(
                sheet().abilities.double_skirmish.cf_against_skirmishers,
                "double skirmish unit against skirmishers (rule 13)",
            ));
        }
        for c in self.battle.characters_with(id) {
            modifiers.push(Modifier::new(
                c.rank.bonus().melee,
                format!("{} {} (§7)", c.rank, c.name),
            ));
        }
        let support = self.supports(&u);
        let roll = self.roll(&format!("melee:{id}:{}", self.phase()))?;
        Ok(Fighter {
            unit: id.into(),
            side: u.side.clone(),
            cf: u.profile.cf,
            melee: u.values().map(|v| v.melee),
            strikes,
            modifiers,
            support,
            roll,
            charged: charge_counts,
            wild_charge: charge_counts && u.wild_charges(),
        })
    }

    /// Friendly units beside a fighter (and, for Tribal units, directly
    /// behind it), with rule 1's permission in terrain.
    fn supports(&self, u: &Unit) -> Vec<Support> {
        let f = u.footprint();
        let mut out = Vec::new();
        for s in self.battle.present().filter(|s| {
            s.side == u.side && s.id != u.id && self.battle.adjacent(u, s, self.options)
        }) {
            if turn_between(u.facing, s.facing).abs() > 45.0 {
                continue;
            }
            let from = match f.arc_of_degrees(s.footprint().centre, 45.0) {
                Edge::Left | Edge::Right => "side",
                Edge::Rear
                    if u.has(Ability::Tribal)
                        && crate::games::fr_ancients::engine::directly_behind(
                            u,
                            s,
                            self.battle.inches(self.options.adjacent_within),
                        ) =>
                {
                    "rear"
                }
                _ => continue,
            };
            let in_terrain = self.battle.in_terrain(&f) || self.battle.in_terrain(&s.footprint());
            let (allowed, why) = match (in_terrain, support_in_terrain(u.troop, s.troop)) {
                (true, Err(why)) => (false, why),
                (true, Ok(())) => (true, "in terrain: allowed (rule 1)".into()),
                (false, _) => (true, "in the open".into()),
            };
            let extra = if from == "rear" {
                sheet().abilities.tribal.rear_support
            } else {
                0
            };
            let why = if from == "rear" {
                format!("{why}; Tribal: +1 support from a unit directly to its rear (§5)")
            } else {
                why
            };
            out.push(Support {
                by: s.id.clone(),
                from,
                allowed,
                why,
                extra,
            });
        }
        out
    }

    /// Rule 11: a wrap-around the base rules called for, if the sheet allows it.
    fn wrap(&mut self, unit: &str, around: &str, to: Face) {
        let (Some(u), Some(t)) = (self.unit(unit).cloned(), self.unit(around).cloned()) else {
            return;
        };
        if let Err(why) = may_wrap(u.troop, to) {
            self.log(Event::Refused {
                unit: unit.into(),
                order: format!("wrap round {}", t.name),
                why,
            });
            return;
        }
        let edges: Vec<Edge> = if to == Face::Rear {
            vec![Edge::Rear]
        } else {
            vec![Edge::Left, Edge::Right]
        };
        let nearest = edges
            .into_iter()
            .filter_map(|e| self.contact_place(&u, &t, e))
            .min_by(|a, b| {
                a.front
                    .distance(u.front)
                    .total_cmp(&b.front.distance(u.front))
            });
        match nearest {
            Some(p) => {
                self.place_unit(unit, MoveKind::Normal, p);
                self.log(Event::Wrapped {
                    unit: unit.into(),
                    around: around.into(),
                    face: to,
                });
            }
            None => self.log(Event::Refused {
                unit: unit.into(),
                order: format!("wrap round {}", t.name),
                why: "no room without overlaps".into(),
            }),
        }
    }

    /// §5 Impetuous: "It always follows up and must make a rally roll when it
    /// destroys an enemy unit in melee or pursue its full move and become DMZ."
    fn impetuous_after(
        &mut self,
        side: &str,
        ids: &[UnitId],
        before: &BTreeMap<UnitId, Unit>,
        results: &BTreeMap<UnitId, crate::games::fr_ancients::questions::Outcome>,
    ) -> Go {
        let winners: Vec<Unit> = ids
            .iter()
            .filter_map(|i| self.unit(i))
            .filter(|u| u.side == side && u.is_present() && u.has(Ability::Impetuous))
            .cloned()
            .collect();
        for w in winners {
            let foes: Vec<&Unit> = before.values().filter(|o| o.side != w.side).collect();
            let destroyed_one = foes.iter().any(|o| {
                results.get(&o.id).is_some_and(|r| r.destroyed)
                    || self.record.destroyed.contains(&o.id)
            });
            if destroyed_one {
                if self.rally_test(&w, Test::Pursuit, None)? == Some(false) {
                    self.pursue(&w)?;
                }
                continue;
            }
            for o in foes {
                let Some(now) = self.unit(&o.id).cloned() else {
                    continue;
                };
                if now.is_present()
                    && !self.battle.touching(&w, &now)
                    && !self.record.no_follow_up.contains(&w.id)
                {
                    self.follow_up(&w, &now)?;
                    break;
                }
            }
        }
        Ok(())
    }

    /// The full-move pursuit of a failed roll, and its DMZ (ruling FA-7).
    fn pursue(&mut self, w: &Unit) -> Go {
        let distance = match self.allowance(w, self.battle.in_terrain(&w.footprint())) {
            Some(d) => d,
            None => {
                let k = self.next(&format!("distance:{}", w.id));
                let key = format!("distance:{}:{}:{k}", w.id, self.phase());
                match self.ask(
                    key,
                    Ask::Distance {
                        unit: w.id.clone(),
                        bearing: w.facing,
                        kind: MoveKind::Pursuit,
                    },
                ) {
                    Some(Answer::Distance(d)) => d,
                    _ => return Ok(()),
                }
            }
        };
        let sweep = self.sweep(w, w.place(), w.facing, distance, false);
        self.place_unit(&w.id, MoveKind::Pursuit, sweep.end);
        self.dmz(
            &w.id,
            1,
            Cause {
                by: None,
                how: How::Test,
            },
        )
    }

    /// An impetuous winner follows a beaten unit that fell back, into contact.
    fn follow_up(&mut self, w: &Unit, o: &Unit) -> Go {
        let edge = o.footprint().arc_of_degrees(w.front, 45.0);
        let Some(place) = self.contact_place(w, o, edge) else {
            return Ok(());
        };
        let kind = MoveKind::FollowUp {
            target: o.id.clone(),
        };
        let ask = self.move_ask(w, kind.clone(), place, self.allowance(w, false), false);
        let k = self.next(&format!("move:{}", w.id));
        let key = format!("move:{}:{}:follow-up:{k}", w.id, self.phase());
        if let Some(Answer::Move(r)) = self.ask(key, ask) {
            self.apply_move(&w.id, kind, place, r, None)?;
        }
        Ok(())
    }
}

/// Rule 13: a double skirmish unit's charging and when-charged bonuses are doubled.
fn bonus_factor(u: &Unit) -> i32 {
    if u.double_skirmish {
        sheet().abilities.double_skirmish.bonus_factor
    } else {
        1
    }
}
