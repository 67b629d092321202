//! Step 4, Movement: a. impetuous checks, b. impetuous moves, c. Rage and
//! Panic, d. normal movement, e. fear checks, with counter-charges as
//! appropriate (rule 8), the scythed chariot procedure (rule 9), cavalry
//! balking at elephants (§5 Cause Fear), Roman Battle Drill (§5), the
//! hoplite, tortoise and unmanoeuvreable limits (§5) and withdrawal (rule 2).
//! "All charges must end with units in full base to base contact with no
//! overlaps. Artillery, baggage and demoralized units may not charge."

use crate::games::fr_ancients::abilities::Ability;
use crate::games::fr_ancients::engine::{
    causes_fear, directly_behind, fearsome_pairs, Cause, Engine, FuryStart, Go, How,
};
use crate::games::fr_ancients::events::Event;
use crate::games::fr_ancients::new_rules::{
    counter_charge, may_withdraw, CounterCharge, CounterFacts, Withdrawal,
};
use crate::games::fr_ancients::orders::UnitOrder;
use crate::games::fr_ancients::questions::{
    Answer, Ask, Judgement, Modifier, MoveKind, MoveResult, Test,
};
use crate::games::fr_ancients::sheet::sheet;
use crate::games::fr_ancients::sweep;
use crate::games::fr_ancients::table::{
    shifted, ArtilleryKind, Formation, Fury, Place, Unit, UnitId, CONTACT,
};
use crate::games::fr_ancients::troops::TroopType;
use crate::geometry::{bearing_of, turn_between, Edge, Face};

impl Engine<'_> {
    /// Whether `a` causes fear to `b` ([`causes_fear`]).
    pub(crate) fn causes_fear(&self, a: &Unit, b: &Unit) -> bool {
        causes_fear(a, b)
    }

    fn fear_due(&mut self, unit: &str, why: &str, source: &str) {
        self.record
            .fear_due
            .entry(unit.to_string())
            .or_default()
            .push((why.to_string(), source.to_string()));
    }

    /// The nearest enemy of a unit (ties by id).
    fn nearest_enemy(&self, u: &Unit) -> Option<(Unit, f64)> {
        self.battle
            .present()
            .filter(|e| e.side != u.side)
            .map(|e| (e.clone(), self.battle.distance(u, e)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.id.cmp(&b.0.id)))
    }

    /// Step 4a: "Unit must take a rally roll if within movement distance of
    /// enemy (at the beginning of its movement phase)".
    pub(crate) fn impetuous_checks(&mut self) -> Go {
        let side = self.phasing();
        let units: Vec<Unit> = self
            .battle
            .present()
            .filter(|u| {
                u.side == side
                    && u.has(Ability::Impetuous)
                    && u.fury == Fury::Calm
                    && !u.is_demoralized()
            })
            .filter(|u| !self.battle.in_melee(u) && !self.record.impetuous_tested.contains(&u.id))
            .cloned()
            .collect();
        for u in units {
            let Some((enemy, d)) = self.nearest_enemy(&u) else {
                continue;
            };
            let within = match self.allowance(&u, self.battle.in_terrain(&u.footprint())) {
                Some(a) => d <= a + CONTACT,
                None => {
                    let key = format!("judge:{}:{}:within-move", u.id, self.phase());
                    let facts = vec![format!(
                        "nearest enemy: {} at {}",
                        enemy.name,
                        self.battle.scale.show(d)
                    )];
                    match self.ask(
                        key,
                        Ask::Judge {
                            unit: u.id.clone(),
                            judgement: Judgement::EnemyWithinMove,
                            facts,
                        },
                    ) {
                        Some(a) => a == Answer::Yes,
                        None => continue,
                    }
                }
            };
            if !within {
                continue;
            }
            self.record.impetuous_tested.insert(u.id.clone());
            if self.rally_test(&u, Test::Impetuous, None)? == Some(false) {
                self.record.impetuous_charges.push(u.id.clone());
            }
        }
        Ok(())
    }

    /// Step 4b: "Move impetuous units."
    pub(crate) fn impetuous_moves(&mut self) -> Go {
        for u in std::mem::take(&mut self.record.impetuous_charges) {
            self.impetuous_charge(&u)?;
        }
        Ok(())
    }

    /// "Failure results in the unit charging its nearest enemy immediately."
    /// A Tribal unit goes for the nearest enemy's flank or rear, or a
    /// support position behind the friend it fights frontally (§5 Tribal).
    pub(crate) fn impetuous_charge(&mut self, unit: &str) -> Go {
        let Some(u) = self.unit(unit).cloned() else {
            return Ok(());
        };
        let Some((enemy, _)) = self.nearest_enemy(&u) else {
            return Ok(());
        };
        self.record.moved.insert(unit.to_string());
        let kind = MoveKind::Impetuous {
            target: enemy.id.clone(),
        };
        if !u.has(Ability::Tribal) {
            return self.charge(&u, &enemy, kind, None);
        }
        let engaged_by = self.battle.contacts(&enemy).into_iter().find(|(f, face)| {
            *face == Face::Front && self.unit(f).is_some_and(|f| f.side == u.side)
        });
        if let Some((friend, _)) = engaged_by {
            let f = self.battle.units[&friend].clone();
            let spot = Place {
                front: f.front - crate::geometry::heading(f.facing) * f.depth(),
                facing: f.facing,
            };
            if !self.overlaps_any(&u, u.footprint_at(spot))
                && self.battle.on_table(&u.footprint_at(spot))
            {
                let ask = self.move_ask(
                    &u,
                    MoveKind::Impetuous {
                        target: friend.clone(),
                    },
                    spot,
                    self.allowance(&u, false),
                    false,
                );
                let key = self.move_key(unit, "impetuous");
                if let Some(Answer::Move(r)) = self.ask(key, ask) {
                    self.apply_move(unit, MoveKind::Impetuous { target: friend }, spot, r, None)?;
                }
                return Ok(());
            }
        }
        // The nearest flank or rear it can reach without going through a unit;
        // failing that, the face it sees, as any charge.
        let mut edges: Vec<(f64, Edge)> = [Edge::Left, Edge::Right, Edge::Rear]
            .into_iter()
            .filter_map(|e| self.contact_place(&u, &enemy, e).map(|p| (e, p)))
            .filter(|(_, p)| {
                !self
                    .battle
                    .present()
                    .any(|o| o.id != u.id && o.footprint().crosses_segment(u.front, p.front))
            })
            .map(|(e, p)| (u.front.distance(p.front), e))
            .collect();
        edges.sort_by(|a, b| a.0.total_cmp(&b.0));
        self.charge(&u, &enemy, kind, edges.first().map(|(_, e)| *e))
    }

    fn move_key(&mut self, unit: &str, what: &str) -> String {
        let k = self.next(&format!("move:{unit}"));
        format!("move:{unit}:{}:{what}:{k}", self.phase())
    }

    /// Step 4c: "Move any unit subject to Rage or Panic" — in both players'
    /// phases, by the Secondary Move Direction; units fighting stay (ruling FA-31).
    pub(crate) fn rage_and_panic(&mut self) -> Go {
        let wild: Vec<UnitId> = self
            .battle
            .present()
            .filter(|u| {
                u.fury != Fury::Calm
                    && !self.record.moved.contains(&u.id)
                    && !self.battle.in_melee(u)
            })
            .map(|u| u.id.clone())
            .collect();
        for u in wild {
            self.fury_move(&u, FuryStart::Secondary)?;
        }
        Ok(())
    }

    /// Step 4d: the phasing side's orders, charges first, each in the order written.
    pub(crate) fn normal_movement(&mut self) -> Go {
        let side = self.phasing();
        let Some(orders) = self.orders.sides.get(&side) else {
            return Ok(());
        };
        let mut moves: Vec<UnitOrder> = orders.moves.clone();
        moves.sort_by_key(|o| !matches!(o, UnitOrder::Charge { .. }));
        let joins = orders.joins.clone();
        for order in moves {
            let id = order.unit().clone();
            let Some(u) = self.unit(&id).cloned() else {
                continue;
            };
            if !u.is_present() || self.record.moved.contains(&id) || u.fury != Fury::Calm {
                continue;
            }
            let text = order.text(|i| self.battle.name(i));
            match order {
                UnitOrder::Charge { target, .. } => match self.unit(&target).cloned() {
                    Some(t) if t.is_present() => {
                        self.charge(&u, &t, MoveKind::Charge { target }, None)?
                    }
                    _ => self.refuse(&id, &text, "its target is no longer on the table"),
                },
                UnitOrder::Move { to, full_speed, .. } => {
                    self.normal_move(&u, to, full_speed, &text)?
                }
                UnitOrder::Form { formation, .. } => self.form(&u, formation, &text),
                UnitOrder::PassThrough { front, .. } => self.pass_through(&u, &front, &text),
                UnitOrder::Withdraw { .. } => self.withdraw(&u, &text)?,
            }
            self.record.moved.insert(id);
        }
        for (c, unit) in joins {
            let ok = self
                .unit(&unit)
                .is_some_and(|u| u.is_present() && u.side == side)
                && self.battle.characters.get(&c).is_some_and(|c| {
                    c.status == crate::games::fr_ancients::table::CharacterStatus::Active
                });
            if ok {
                if let Some(ch) = self.battle.characters.get_mut(&c) {
                    ch.with = Some(unit.clone());
                }
                self.log(Event::Joins { character: c, unit });
            }
        }
        Ok(())
    }

    fn refuse(&mut self, unit: &str, order: &str, why: &str) {
        self.log(Event::Refused {
            unit: unit.into(),
            order: order.into(),
            why: why.into(),
        });
    }

    /// A charge, by order or impetuously: the sheet's tests, the contact
    /// place, counter-charges, the base's reach, and what contact brings.
    pub(crate) fn charge(&mut self, u: &Unit, t: &Unit, kind: MoveKind, edge: Option<Edge>) -> Go {
        let text = format!("charge {}", t.name);
        if !u.troop.may_charge() || u.is_demoralized() {
            self.refuse(
                &u.id,
                &text,
                "artillery, baggage and demoralized units may not charge (step 4)",
            );
            return Ok(());
        }
        let edge = edge.unwrap_or_else(|| t.footprint().arc_of_degrees(u.front, 45.0));
        let Some(place) = self.contact_place(u, t, edge) else {
            self.refuse(
                &u.id,
                &text,
                "there is no room for full base to base contact with no overlaps (step 4)",
            );
            return Ok(());
        };
        if let Some(stop) = self.stop_on_way(u, place, &[t.id.as_str()]) {
            return self.charge_blocked(u, t, kind, stop);
        }
        if u.troop.is_cavalry() && t.troop == TroopType::Elephants {
            let m = sheet().abilities.cause_fear.cavalry_charging_elephant;
            match self.rally_test(
                u,
                Test::ChargeElephant,
                Some(Modifier::new(
                    m,
                    "cavalry charging an elephant (§5 Cause Fear)",
                )),
            )? {
                None => return Ok(()),
                Some(false) => return self.balk(u, t, place),
                Some(true) => self.fear_due(
                    &u.id,
                    "charged an elephant: a rally check upon impact (§5 Cause Fear)",
                    &t.id,
                ),
            }
        }
        let counter = self.counter_charge(t, u)?;
        let in_terrain = self.battle.in_terrain(&u.footprint())
            || self.battle.in_terrain(&u.footprint_at(place));
        let ask = self.move_ask(
            u,
            kind.clone(),
            place,
            self.allowance(u, in_terrain),
            self.free_change(u, place),
        );
        let key = self.move_key(&u.id, "charge");
        let Some(Answer::Move(r)) = self.ask(key, ask) else {
            return Ok(());
        };
        match r {
            MoveResult::Goes => {
                self.place_unit(&u.id, kind, place);
                self.record.charged.insert(u.id.clone(), t.id.clone());
                self.log(Event::Charged {
                    unit: u.id.clone(),
                    target: t.id.clone(),
                    face: edge.face(),
                    reached: true,
                });
                if counter {
                    self.record.counter_charged.insert(t.id.clone());
                }
                self.on_contact(u, t, edge)?;
            }
            other => {
                self.apply_move(&u.id, kind, place, other, None)?;
                self.log(Event::Charged {
                    unit: u.id.clone(),
                    target: t.id.clone(),
                    face: Face::Front,
                    reached: false,
                });
            }
        }
        Ok(())
    }

    /// A charge whose way is barred by another unit goes no further than
    /// where it touches it, and does not reach its target (ruling FA-51).
    fn charge_blocked(&mut self, u: &Unit, t: &Unit, kind: MoveKind, stop: Place) -> Go {
        let in_terrain =
            self.battle.in_terrain(&u.footprint()) || self.battle.in_terrain(&u.footprint_at(stop));
        let ask = self.move_ask(u, kind.clone(), stop, self.allowance(u, in_terrain), false);
        let key = self.move_key(&u.id, "charge");
        let Some(Answer::Move(r)) = self.ask(key, ask) else {
            return Ok(());
        };
        self.apply_move(&u.id, kind, stop, r, None)?;
        self.log(Event::Charged {
            unit: u.id.clone(),
            target: t.id.clone(),
            face: Face::Front,
            reached: false,
        });
        Ok(())
    }

    /// "failure results in it balking one base away".
    fn balk(&mut self, u: &Unit, t: &Unit, contact: Place) -> Go {
        let back = shifted(
            contact,
            contact.facing + 180.0,
            u.base[1] * sheet().abilities.cause_fear.balk_bases,
        );
        let kind = MoveKind::Balk { from: t.id.clone() };
        let ask = self.move_ask(u, kind.clone(), back, self.allowance(u, false), false);
        let key = self.move_key(&u.id, "balk");
        if let Some(Answer::Move(r)) = self.ask(key, ask) {
            self.apply_move(&u.id, kind, back, r, None)?;
            self.log(Event::Balked {
                unit: u.id.clone(),
                from: t.id.clone(),
            });
        }
        Ok(())
    }

    /// Rule 8: does the charged unit counter-charge (its standing order, its
    /// eligibility, and any test)?
    fn counter_charge(&mut self, c: &Unit, charger: &Unit) -> Go<bool> {
        let ordered = self
            .orders
            .sides
            .get(&c.side)
            .is_some_and(|o| o.counter_charge.contains(&c.id));
        if !ordered {
            return Ok(false);
        }
        let bonus = match c.natural_charge_bonus() {
            Some(b) => Some(b > 0),
            None => {
                let key = format!("judge:{}:{}:charge-bonus", c.id, self.phase());
                match self.ask(
                    key,
                    Ask::Judge {
                        unit: c.id.clone(),
                        judgement: Judgement::NaturalChargeBonus,
                        facts: vec![format!("{} is {}", c.name, c.troop)],
                    },
                ) {
                    Some(a) => Some(a == Answer::Yes),
                    None => return Ok(false),
                }
            }
        };
        let facts = CounterFacts {
            unit: c.troop,
            natural_bonus: bonus,
            demoralized: c.is_demoralized(),
            in_melee: self.battle.in_melee(c),
            charger_in_arc: self.battle.in_arc(c, charger, self.movement_arc()),
            charger: charger.troop,
            charger_directly_in_front: directly_in_front(c, charger),
            charger_causes_fear: self.causes_fear(charger, c),
        };
        match counter_charge(&facts) {
            CounterCharge::Not(why) => {
                self.log(Event::NoCounterCharge {
                    unit: c.id.clone(),
                    against: charger.id.clone(),
                    why,
                });
                Ok(false)
            }
            CounterCharge::AskBonus => Ok(false),
            CounterCharge::May => {
                self.log(Event::CounterCharged {
                    unit: c.id.clone(),
                    against: charger.id.clone(),
                });
                self.leave_attached_behind(&c.id);
                Ok(true)
            }
            CounterCharge::Test {
                test,
                modifier,
                panics,
            } => {
                let m = (modifier != 0).then(|| {
                    Modifier::new(modifier, "cavalry counter-charging an elephant (rule 8)")
                });
                match self.rally_test(c, test, m)? {
                    None => Ok(false),
                    Some(true) => {
                        if !panics {
                            self.fear_due(&c.id, "counter-charged a fear-causing unit: fear check upon impact (rule 8)", &charger.id);
                        }
                        self.log(Event::CounterCharged {
                            unit: c.id.clone(),
                            against: charger.id.clone(),
                        });
                        self.leave_attached_behind(&c.id);
                        Ok(true)
                    }
                    Some(false) if panics => {
                        self.panic_now(&c.id, FuryStart::Panicked { in_combat: false });
                        Ok(false)
                    }
                    Some(false) => {
                        self.fear_due(
                            &c.id,
                            "failed to counter-charge: fear check prior to melee (rule 8)",
                            &charger.id,
                        );
                        self.log(Event::NoCounterCharge {
                            unit: c.id.clone(),
                            against: charger.id.clone(),
                            why: "it failed its test and stays in place (rule 8)".into(),
                        });
                        Ok(false)
                    }
                }
            }
        }
    }

    /// Rule 8: "Attached units are left behind in a counter charge": they
    /// stay where they stand, no longer attached.
    fn leave_attached_behind(&mut self, host: &str) {
        let riders: Vec<UnitId> = self
            .battle
            .present()
            .filter(|a| a.attached_to.as_deref() == Some(host))
            .map(|a| a.id.clone())
            .collect();
        for id in riders {
            if let Some(a) = self.battle.units.get_mut(&id) {
                a.attached_to = None;
            }
            self.log(Event::LeftBehind {
                unit: id,
                by: host.into(),
            });
        }
    }

    /// A unit goes into a Panic at once (a scythed chariot's failed check).
    fn panic_now(&mut self, unit: &str, start: FuryStart) {
        if let Some(u) = self.battle.units.get_mut(unit) {
            u.fury = Fury::Panicked;
        }
        self.record.demoralized.insert(unit.to_string());
        self.log(Event::Fury {
            unit: unit.into(),
            now: Fury::Panicked,
        });
        self.record.fury_moves.push((unit.to_string(), start));
    }

    /// What contact brings: a scythed chariot's strike (rule 9), the
    /// unmanoeuvreable flank test (§5), fear checks (§5 Cause Fear).
    fn on_contact(&mut self, u: &Unit, t: &Unit, edge: Edge) -> Go {
        if self.causes_fear(t, u) {
            self.fear_due(
                &u.id,
                "in contact with a unit that causes it fear (§5 Cause Fear)",
                &t.id,
            );
        }
        if self.causes_fear(u, t) {
            self.fear_due(
                &t.id,
                "charged by a unit that causes it fear (§5 Cause Fear)",
                &u.id,
            );
        }
        let face = edge.face();
        if t.has(Ability::Unmanoeuvreable)
            && face != Face::Front
            && self.record.flank_tested.insert(t.id.clone())
            && self.rally_test(t, Test::AttackedInFlank, None)? == Some(false)
        {
            self.dmz(
                &t.id,
                1,
                Cause {
                    by: Some(u.id.clone()),
                    how: How::Test,
                },
            )?;
        }
        if u.troop == TroopType::ScythedChariots {
            self.scythed_strike(u, t)?;
        }
        Ok(())
    }

    /// Rule 9: the chariot's rally check before impact; the charged unit's
    /// fear check and its choice to stand or open its ranks.
    fn scythed_strike(&mut self, u: &Unit, t: &Unit) -> Go {
        match self.rally_test(u, Test::ScythedStrike, None)? {
            None => return Ok(()),
            Some(false) => {
                self.panic_now(
                    &u.id,
                    FuryStart::ChariotPanic {
                        target: t.id.clone(),
                    },
                );
                return Ok(());
            }
            Some(true) => {}
        }
        self.fear_check(
            &t.id,
            vec![("charged by a scythed chariot (rule 9)".into(), u.id.clone())],
        )?;
        let opens = self
            .orders
            .sides
            .get(&t.side)
            .is_some_and(|o| o.open_ranks.contains(&t.id));
        let Some(target) = self.unit(&t.id).cloned() else {
            return Ok(());
        };
        if !opens || !target.is_present() {
            return Ok(());
        }
        match self.rally_test(&target, Test::OpenRanks, None)? {
            Some(true) => self.destroy(
                &u.id,
                Cause {
                    by: Some(t.id.clone()),
                    how: How::PassedThrough,
                },
            ),
            Some(false) => self.dmz(
                &t.id,
                1,
                Cause {
                    by: Some(u.id.clone()),
                    how: How::Test,
                },
            ),
            None => Ok(()),
        }
    }

    /// Where a move of `u` to `to` is stopped by the first unit its body
    /// would touch (enemies, and friends it may not pass: [`sweep`]), logged;
    /// `None` when the way is clear. `ignore`: a charge's target.
    pub(crate) fn stop_on_way(&mut self, u: &Unit, to: Place, ignore: &[&str]) -> Option<Place> {
        let stop = sweep::stop_on_way(&self.battle, u, to, ignore, self.options)?;
        self.log(Event::Blocked {
            unit: u.id.clone(),
            by: stop.by,
            at: stop.at,
        });
        Some(stop.at)
    }

    /// Roman Battle Drill's free facing change: entirely in open terrain (§5 Maneuverability).
    fn free_change(&self, u: &Unit, to: Place) -> bool {
        u.has(Ability::Maneuverability)
            && !self.battle.in_terrain(&u.footprint())
            && !self.battle.in_terrain(&u.footprint_at(to))
    }

    /// A move the player wrote, checked against the sheet's limits.
    fn normal_move(&mut self, u: &Unit, to: Place, full_speed: bool, text: &str) -> Go {
        if self.battle.in_melee(u) {
            self.refuse(
                &u.id,
                text,
                "it is in melee: only skirmishers and light infantry may withdraw (rule 2)",
            );
            return Ok(());
        }
        let turn = turn_between(u.facing, to.facing).abs();
        let distance = u.front.distance(to.front);
        if let Some(kind) = u.artillery {
            if turn > 0.5 && kind == ArtilleryKind::Catapult {
                self.refuse(
                    &u.id,
                    text,
                    "catapults and siege artillery may not even pivot once deployed (rule 5)",
                );
                return Ok(());
            }
            if turn > 0.5 && self.record.fired.contains(&u.id) {
                self.refuse(&u.id, text, "ballistae and field artillery can pivot only if they did not fire in the missile phase (rule 5)");
                return Ok(());
            }
        }
        let in_terrain =
            self.battle.in_terrain(&u.footprint()) || self.battle.in_terrain(&u.footprint_at(to));
        if let Some(cap) = self.move_cap(u, in_terrain) {
            if distance > cap + CONTACT {
                let what = if u.formation == Formation::Tortoise {
                    "in tortoise, movement is limited to 2\"/1\" (§5 Tortoise)"
                } else {
                    "hoplites in shieldwall move 2\"/0\" (§5 Hoplite)"
                };
                self.refuse(&u.id, text, what);
                return Ok(());
            }
        }
        if u.formation == Formation::ShieldWall && u.has(Ability::Hoplite) && distance > CONTACT {
            let way = turn_between(u.facing, bearing_of(to.front - u.front));
            if way < -self.movement_arc() - 0.5 || way > 90.5 {
                self.refuse(&u.id, text, "hoplites in shieldwall move only forward or to the right of their movement arc (§5 Hoplite)");
                return Ok(());
            }
        }
        let mut allowance = self.allowance(u, in_terrain);
        if u.has(Ability::Unmanoeuvreable) && turn > 0.5 {
            if turn >= 89.5 && distance > CONTACT {
                self.refuse(
                    &u.id,
                    text,
                    "turning 90 or 180 degrees takes a full turn (§5 Unmanoeuvreable)",
                );
                return Ok(());
            }
            if turn >= 89.5 || full_speed {
                if self.rally_test(u, Test::Wheel, None)? == Some(false) {
                    self.dmz(
                        &u.id,
                        1,
                        Cause {
                            by: None,
                            how: How::Test,
                        },
                    )?;
                }
            } else {
                allowance = allowance.map(|a| a * sheet().abilities.unmanoeuvreable.wheel_speed);
            }
        }
        let f = u.footprint_at(to);
        let overlapped = self
            .battle
            .present()
            .find(|o| o.id != u.id && !rides_with(o, u) && o.footprint().overlaps(&f))
            .map(|o| o.name.clone());
        if let Some(o) = overlapped {
            let why = format!("it would end overlapping {o}");
            self.refuse(&u.id, text, &why);
            return Ok(());
        }
        if !self.battle.on_table(&f) {
            self.refuse(&u.id, text, "it would leave the table");
            return Ok(());
        }
        let to = self.stop_on_way(u, to, &[]).unwrap_or(to);
        let ask = self.move_ask(u, MoveKind::Normal, to, allowance, self.free_change(u, to));
        let key = self.move_key(&u.id, "move");
        if let Some(Answer::Move(r)) = self.ask(key, ask) {
            self.apply_move(&u.id, MoveKind::Normal, to, r, None)?;
        }
        Ok(())
    }

    fn form(&mut self, u: &Unit, formation: Formation, text: &str) {
        let allowed = match formation {
            Formation::Normal => true,
            Formation::ShieldWall => u.has(Ability::ShieldWall) || u.has(Ability::Hoplite),
            Formation::Tortoise => u.has(Ability::Tortoise),
        };
        if !allowed {
            self.refuse(&u.id, text, "the unit does not have that ability (§5)");
            return;
        }
        if let Some(m) = self.battle.units.get_mut(&u.id) {
            m.formation = formation;
        }
        self.log(Event::Formed {
            unit: u.id.clone(),
            formation: formation.code(),
        });
    }

    /// Roman Battle Drill, Pass Through: the ordering (rear) unit replaces the front one.
    fn pass_through(&mut self, rear: &Unit, front: &str, text: &str) {
        let Some(f) = self.unit(front).cloned() else {
            return;
        };
        let gap = self.battle.inches(self.options.adjacent_within);
        let ok = rear.has(Ability::PassThrough)
            && f.has(Ability::PassThrough)
            && f.is_present()
            && f.side == rear.side
            && !rear.is_demoralized()
            && directly_behind(&f, rear, gap);
        if !ok {
            self.refuse(
                &rear.id,
                text,
                "Pass Through needs both units with Roman Battle Drill, directly behind/in front of one another, and the rear unit undemoralised (§5)",
            );
            return;
        }
        self.replace_by_rear(&f, &rear.id, false);
    }

    /// Rule 2: skirmishers and light infantry leaving a melee with slower infantry.
    fn withdraw(&mut self, u: &Unit, text: &str) -> Go {
        let contacts = self.battle.contacts(u);
        let mine = self.allowance(u, false);
        let enemies: Vec<(TroopType, Option<bool>)> = contacts
            .iter()
            .filter_map(|(e, _)| self.unit(e))
            .map(|e| {
                (
                    e.troop,
                    mine.zip(self.allowance(e, false)).map(|(m, a)| a < m),
                )
            })
            .collect();
        let rear = contacts.iter().any(|(_, f)| *f == Face::Rear);
        match may_withdraw(u.troop, rear, &enemies) {
            Withdrawal::Not(why) => {
                self.refuse(&u.id, text, &why);
                return Ok(());
            }
            Withdrawal::IfSlower => {
                let key = format!("judge:{}:{}:slower", u.id, self.phase());
                let facts = contacts
                    .iter()
                    .map(|(e, _)| format!("fights {}", self.battle.name(e)))
                    .collect();
                match self.ask(
                    key,
                    Ask::Judge {
                        unit: u.id.clone(),
                        judgement: Judgement::SlowerInfantry,
                        facts,
                    },
                ) {
                    Some(Answer::Yes) => {}
                    Some(_) => {
                        self.refuse(&u.id, text, "the infantry it fights is not slower (rule 2)");
                        return Ok(());
                    }
                    None => return Ok(()),
                }
            }
            Withdrawal::May => {}
        }
        let centre = contacts
            .iter()
            .filter_map(|(e, _)| self.unit(e).map(|e| e.footprint().centre))
            .fold(glam::DVec2::ZERO, |a, c| a + c)
            / contacts.len().max(1) as f64;
        let away = bearing_of(u.footprint().centre - centre);
        let to = shifted(u.place(), away, mine.unwrap_or(u.depth()));
        let ask = self.move_ask(u, MoveKind::Withdraw, to, mine, false);
        let key = self.move_key(&u.id, "withdraw");
        if let Some(Answer::Move(r)) = self.ask(key, ask) {
            self.apply_move(&u.id, MoveKind::Withdraw, to, r, None)?;
        }
        Ok(())
    }

    /// Step 4e: "Make fear checks": the checks due this phase (contact with
    /// a unit that causes fear, rule 8's and §5's checks), and every unit
    /// that came adjacent to an elephant, friend or foe (ruling FA-8), or
    /// into contact with a unit that causes it fear, since the phase began;
    /// with option `fear_every_phase`, standing neighbours test each phase too
    /// (ruling FA-28).
    pub(crate) fn fear_checks(&mut self) -> Go {
        let mut due = std::mem::take(&mut self.record.fear_due);
        for (u, e) in fearsome_pairs(&self.battle, self.options) {
            if !self.options.fear_every_phase
                && self
                    .record
                    .fearsome_at_start
                    .contains(&(u.clone(), e.clone()))
            {
                continue;
            }
            let elephant = self
                .unit(&e)
                .is_some_and(|x| x.troop.causes_fear_by_nature());
            let why = if elephant
                && self
                    .unit(&u)
                    .zip(self.unit(&e))
                    .is_some_and(|(a, b)| !self.battle.touching(a, b) || a.side == b.side)
            {
                "adjacent to an elephant (§5 Cause Fear)"
            } else {
                "in contact with a unit that causes it fear (§5 Cause Fear)"
            };
            due.entry(u).or_default().push((why.into(), e));
        }
        for (unit, mut reasons) in due {
            reasons.sort();
            reasons.dedup();
            self.fear_check(&unit, reasons)?;
        }
        Ok(())
    }

    /// One fear check (once a phase), with the Rally bonuses of characters
    /// and the standard; a failure costs the DMZs the base rules say (M9).
    pub(crate) fn fear_check(&mut self, unit: &str, reasons: Vec<(String, UnitId)>) -> Go {
        let Some(u) = self.unit(unit).cloned() else {
            return Ok(());
        };
        if !u.is_present() || !self.record.fear_checked.insert(unit.to_string()) {
            return Ok(());
        }
        let key = format!("fear:{unit}:{}", self.phase());
        let roll = self.roll(&key)?;
        let source = reasons.first().map(|(_, s)| s.clone());
        // A fear check is a rally check (§5 Cause Fear: "a rally check …
        // because of its fear"), so the general's, sub-generals' and the
        // standard's Rally bonuses count as in every rally test (ruling FA-52).
        let mut modifiers: Vec<Modifier> = reasons
            .iter()
            .map(|(why, _)| Modifier::new(0, why.clone()))
            .collect();
        modifiers.extend(self.rally_bonuses(&u));
        let ask = Ask::Test {
            unit: unit.into(),
            test: Test::Fear,
            rally: u.values().map(|v| v.rally),
            modifiers,
            roll: roll.clone(),
        };
        let Some(answer) = self.ask(key, ask) else {
            return Ok(());
        };
        let (passed, dmz) = match answer {
            Answer::Pass => (true, 0),
            Answer::Fail { dmz } => (
                false,
                dmz.or(self
                    .pack
                    .and_then(|p| p.tests.as_ref())
                    .map(|t| t.fear_fail_dmz))
                    .unwrap_or(1),
            ),
            _ => return Ok(()),
        };
        self.log(Event::Tested {
            unit: unit.into(),
            test: Test::Fear,
            roll,
            passed,
        });
        if dmz > 0 {
            self.dmz(
                unit,
                dmz,
                Cause {
                    by: source,
                    how: How::Fear,
                },
            )?;
        }
        Ok(())
    }
}

/// Whether `o` is attached to `u`, and so moves with it (rule 13).
pub fn rides_with(o: &Unit, u: &Unit) -> bool {
    o.attached_to.as_deref() == Some(u.id.as_str())
}

/// Whether `c` is directly in front of `u`: its centre ahead of `u`'s
/// front, within `u`'s frontage (rule 8's Deep Pikes).
pub fn directly_in_front(u: &Unit, c: &Unit) -> bool {
    let f = u.footprint();
    let d = c.footprint().centre - f.front();
    d.dot(f.ahead) > 0.0 && d.dot(f.right()).abs() <= f.half_width
}
