//! Step 2, Resolve Missile Fire: a. all artillery, bow and javelin fire,
//! each unit's target chosen by rule 4 (target priority, concentrated
//! bowfire, artillery's 6" priority) within range (§3) and arc (rule 3);
//! b. the retreats of double-demoralised units once all firing is done
//! (rule 12); c. impetuous units shot at but not demoralised.

use crate::games::fr_ancients::abilities::Ability;
use crate::games::fr_ancients::engine::{Cause, Engine, Go, How};
use crate::games::fr_ancients::events::{Event, TargetWhy};
use crate::games::fr_ancients::options::FireBy;
use crate::games::fr_ancients::options::Options;
use crate::games::fr_ancients::orders::Shoot;
use crate::games::fr_ancients::questions::{Answer, Ask, Modifier, Test};
use crate::games::fr_ancients::sheet::sheet;
use crate::games::fr_ancients::table::{ArtilleryKind, Battle, Formation, Unit, UnitId, CONTACT};
use crate::games::fr_ancients::troops::TroopType;
use crate::games::fr_ancients::weapons::Weapon;
use std::collections::BTreeMap;

/// A unit about to shoot, and at what.
struct Shot {
    unit: Unit,
    weapon: Weapon,
    target: UnitId,
    /// Its target is its nearest (Archers concentrate only then).
    nearest: bool,
}

/// Enemy units a unit may shoot at with a weapon, nearest first (ties by
/// id): in range (§3), in arc (the standard `arc`; Light Cavalry all round,
/// rule 3), in sight, not in melee (ruling FA-27).
pub fn legal_targets(
    battle: &Battle,
    options: &Options,
    arc: f64,
    f: &Unit,
    w: Weapon,
) -> Vec<(UnitId, f64)> {
    let range = w.range(battle.scale);
    let arc = if f.troop == TroopType::LightCavalry {
        180.0
    } else {
        arc
    };
    let priority = battle.inches(sheet().abilities.artillery.priority_range);
    let mut out: Vec<(UnitId, f64)> = battle
        .present()
        .filter(|t| t.side != f.side)
        .filter(|t| options.fire_into_melee || !battle.in_melee(t))
        .filter_map(|t| {
            let d = battle.distance(f, t);
            (d <= range + CONTACT && battle.in_arc(f, t, arc)).then_some((t, d))
        })
        .filter(|(t, d)| {
            indirect(battle, f, t) || in_sight(battle, f, t, w.is_artillery() && *d >= priority)
        })
        .map(|(t, d)| (t.id.clone(), d))
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// Line of sight from the firer's front centre to the target's nearest
/// point: no other unit across it. Artillery ignores skirmishers "unless
/// they are a priority target (within 6")" (rule 4).
fn in_sight(battle: &Battle, f: &Unit, t: &Unit, ignore_far_skirmishers: bool) -> bool {
    let from = f.front;
    let to = t.footprint().nearest_point(from);
    let priority = battle.inches(sheet().abilities.artillery.priority_range);
    !battle.present().any(|o| {
        o.id != f.id
            && o.id != t.id
            && !(ignore_far_skirmishers
                && o.troop == TroopType::Skirmishers
                && battle.distance(f, o) >= priority)
            && o.footprint().crosses_segment(from, to)
    })
}

/// Catapults and siege artillery "may fire indirect at fortifications".
fn indirect(battle: &Battle, f: &Unit, t: &Unit) -> bool {
    f.artillery == Some(ArtilleryKind::Catapult)
        && battle.terrain.iter().any(|a| {
            a.is_fortification()
                && crate::geometry::footprint_meets_polygon(&t.footprint(), &a.points)
        })
}

/// Whether a unit is free to choose its target (rule 4): light troops, and
/// artillery whose nearest target is 6" or more away.
pub fn free_to_choose(battle: &Battle, f: &Unit, w: Weapon, nearest: f64) -> bool {
    f.troop.picks_its_target()
        || (w.is_artillery()
            && nearest >= battle.inches(sheet().abilities.artillery.priority_range))
}

impl Engine<'_> {
    fn targets(&self, f: &Unit, w: Weapon) -> Vec<(UnitId, f64)> {
        legal_targets(&self.battle, self.options, self.fire_arc(), f, w)
    }

    /// Step 2a.
    pub(crate) fn missile_fire(&mut self) -> Go {
        let sides: Vec<String> = match self.options.fire_by {
            FireBy::PhasingSide => vec![self.phasing()],
            FireBy::BothSides => self.battle.sides.iter().map(|s| s.id.clone()).collect(),
        };
        let firers: Vec<Unit> = self
            .battle
            .present()
            .filter(|u| {
                sides.contains(&u.side)
                    && u.missile().is_some()
                    && u.fury == crate::games::fr_ancients::table::Fury::Calm
            })
            .filter(|u| self.options.fire_into_melee || !self.battle.in_melee(u))
            .cloned()
            .collect();
        let mut shots = Vec::new();
        for f in firers {
            if let Some(s) = self.choose_target(&f)? {
                shots.push(s);
            }
        }
        // Rule 4: Archers whose nearest target is the same concentrate.
        let mut groups: BTreeMap<UnitId, Vec<Shot>> = BTreeMap::new();
        let mut singles = Vec::new();
        for s in shots {
            let singly = self
                .orders
                .sides
                .get(&s.unit.side)
                .is_some_and(|o| o.fire_singly.contains(&s.unit.id));
            if s.weapon.concentrates() && s.nearest && !singly {
                groups.entry(s.target.clone()).or_default().push(s);
            } else {
                singles.push(vec![s]);
            }
        }
        let mut firings: Vec<Vec<Shot>> = Vec::new();
        for (_, g) in groups {
            if g.len() > 1 {
                firings.push(g);
            } else {
                singles.extend(g.into_iter().map(|s| vec![s]));
            }
        }
        firings.extend(singles);
        firings.sort_by(|a, b| a[0].unit.id.cmp(&b[0].unit.id));
        for f in firings {
            self.resolve_fire(f)?;
        }
        Ok(())
    }

    /// Rule 4's choice of target for one unit (and §7's character override).
    fn choose_target(&mut self, f: &Unit) -> Go<Option<Shot>> {
        let Some(w) = f.missile() else {
            return Ok(None);
        };
        let legal = self.targets(f, w);
        let Some((nearest, nd)) = legal.first().cloned() else {
            self.log(Event::NoTarget {
                unit: f.id.clone(),
                why: "no enemy unit in range, arc and sight (§3, rules 3 and 4)".into(),
            });
            return Ok(None);
        };
        let ordered = self
            .orders
            .sides
            .get(&f.side)
            .and_then(|o| o.shoot.get(&f.id).cloned());
        let distance_of = |t: &str| legal.iter().find(|(id, _)| id == t).map(|(_, d)| *d);
        let free = free_to_choose(&self.battle, f, w, nd);
        let (target, why, d) = match ordered {
            Some(Shoot::Hold) if free => {
                self.log(Event::NoTarget {
                    unit: f.id.clone(),
                    why: "it holds its fire".into(),
                });
                return Ok(None);
            }
            Some(Shoot::At(t)) if free && distance_of(&t).is_some() => {
                let d = distance_of(&t).unwrap_or(nd);
                (t, TargetWhy::Chosen, d)
            }
            Some(Shoot::At(t))
                if !free
                    && t != nearest
                    && distance_of(&t).is_some()
                    && !self.battle.characters_with(&f.id).is_empty() =>
            {
                match self.rally_test(f, Test::Retarget, None)? {
                    None => return Ok(None),
                    Some(true) => {
                        let d = distance_of(&t).unwrap_or(nd);
                        (t, TargetWhy::Character, d)
                    }
                    Some(false) => (nearest.clone(), TargetWhy::Nearest, nd),
                }
            }
            other => {
                if let Some(o) = other {
                    let why = if w.is_artillery() {
                        "artillery must shoot at its nearest target if that target is less than 6\" away (rule 4)"
                    } else {
                        "it must shoot at its nearest target within arc (rule 4)"
                    };
                    let order = match &o {
                        Shoot::Hold => "hold fire".to_string(),
                        Shoot::At(t) => format!("shoot {}", self.battle.name(t)),
                    };
                    if o != Shoot::At(nearest.clone()) {
                        self.log(Event::Refused {
                            unit: f.id.clone(),
                            order,
                            why: why.into(),
                        });
                    }
                }
                let why = if w.is_artillery() && !free {
                    TargetWhy::ArtilleryPriority
                } else {
                    TargetWhy::Nearest
                };
                (nearest.clone(), why, nd)
            }
        };
        self.log(Event::Target {
            unit: f.id.clone(),
            target: target.clone(),
            why,
            distance: d,
        });
        Ok(Some(Shot {
            unit: f.clone(),
            weapon: w,
            nearest: target == nearest,
            target,
        }))
    }

    /// One firing (a unit, or Archers concentrating) and its effect.
    fn resolve_fire(&mut self, shots: Vec<Shot>) -> Go {
        let first = &shots[0];
        let Some(target) = self.unit(&first.target).cloned() else {
            return Ok(());
        };
        if !target.is_present() {
            return Ok(());
        }
        let w = first.weapon;
        let firers: Vec<UnitId> = shots.iter().map(|s| s.unit.id.clone()).collect();
        let lead = first.unit.clone();
        let mut modifiers = Vec::new();
        if w.bowfire() != 0 {
            modifiers.push(Modifier::new(
                w.bowfire(),
                format!("{w}: on the Bowfire table (§3)"),
            ));
        }
        if shots.len() > 1 {
            modifiers.push(Modifier::new(1, "concentrated bowfire (rule 4)"));
        }
        let bow = matches!(w, Weapon::MassedBows | Weapon::BowsSlings);
        if bow && target.formation == Formation::ShieldWall {
            modifiers.push(Modifier::new(
                sheet().abilities.shield_wall.enemy_bowfire,
                "target in shield wall: -1 to enemy bowfire (§5 Shield Wall)",
            ));
        }
        if w.damage() != 0 {
            modifiers.push(Modifier::new(
                w.damage(),
                format!("{w}: on the damage roll (§3)"),
            ));
        }
        if indirect(&self.battle, &lead, &target) {
            modifiers.push(Modifier::new(
                sheet().abilities.artillery.indirect_damage,
                "indirect fire at a fortification (rule 5)",
            ));
        }
        let mut cover = Vec::new();
        if target.has(Ability::HeavyArmour) {
            cover.push("heavy armour: counts as in cover (§5 Heavy Armour)".to_string());
        }
        for k in self.battle.terrain_kinds(&target.footprint()) {
            cover.push(format!("in {k}"));
        }
        let elite = shots
            .iter()
            .any(|s| s.unit.grade.is_some_and(|g| g.adds_to_missile_roll()));
        let word = if w.is_artillery() { "damage" } else { "fire" };
        let shots_of = |u: &Unit| {
            if u.double_skirmish {
                sheet().abilities.double_skirmish.shots
            } else {
                u.profile.shots.unwrap_or(1).max(1)
            }
        };
        let n = if shots.len() > 1 { 1 } else { shots_of(&lead) };
        let mut rolls = Vec::new();
        for k in 1..=n {
            let key = if k == 1 {
                format!("{word}:{}:{}", lead.id, self.phase())
            } else {
                format!("{word}:{}:{}:{k}", lead.id, self.phase())
            };
            rolls.push(self.roll(&key)?);
        }
        let ask = Ask::Fire {
            firers: firers.clone(),
            target: target.id.clone(),
            weapon: w,
            line: shots.len() as u32,
            missile: lead.values().map(|v| v.missile),
            modifiers,
            elite,
            cover,
            pavisiers: target.has(Ability::Pavisiers),
            damage: w.is_artillery(),
            rolls: rolls.clone(),
        };
        for f in &firers {
            self.record.fired.insert(f.clone());
        }
        self.record.shot_at.insert(target.id.clone());
        let key = rolls[0].key.clone();
        let Some(Answer::Fire(result)) = self.ask(key, ask) else {
            return Ok(());
        };
        self.log(Event::Fire {
            firers,
            target: target.id.clone(),
            weapon: w,
            rolls,
            result,
        });
        let cause = Cause {
            by: Some(lead.id.clone()),
            how: How::Fire,
        };
        if result.destroyed {
            self.destroy(&target.id, cause)
        } else {
            self.dmz(&target.id, result.dmz, cause)
        }
    }

    /// Step 2b: the DD retreats waiting since 2a are made at the end of
    /// this part (rule 12: "only after the completion of all firing").
    pub(crate) fn fire_retreats(&mut self) -> Go {
        self.settle()
    }

    /// Step 2c: "Check and resolve any movement by impetuous units shot at
    /// but not demoralised": a failed rally roll charges the nearest enemy.
    pub(crate) fn shot_at_impetuous(&mut self) -> Go {
        let shot: Vec<Unit> = self
            .record
            .shot_at
            .iter()
            .filter_map(|id| self.unit(id))
            .filter(|u| {
                u.is_present()
                    && u.has(Ability::Impetuous)
                    && !u.is_demoralized()
                    && !self.battle.in_melee(u)
            })
            .cloned()
            .collect();
        for u in shot {
            if !self.record.impetuous_tested.insert(u.id.clone()) {
                continue;
            }
            if self.rally_test(&u, Test::ImpetuousShotAt, None)? == Some(false) {
                self.impetuous_charge(&u.id)?;
            }
        }
        Ok(())
    }
}
