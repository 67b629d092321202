//! The base rules as a pack resolves them: [`PackRules`] answers every
//! [`Question`] at once from a club's [`Pack`] (or the stand-in). The
//! procedures are fixed and documented in `docs/fr-ancients/pack.md`; the
//! numbers are the pack's, the modifiers the sheet's.
//!
//! - A test passes when d10 + the unit's Rally + the modifiers reaches
//!   `tests.pass_at`; a failed fear check costs `tests.fear_fail_dmz`.
//! - A missile roll is d10 + Missile + modifiers + cover (the strongest
//!   that applies: heavy armour counts as the pack's `fire.cover`, a
//!   terrain kind its own, pavisiers −1), elite +1 to a maximum of 10,
//!   read on the Bowfire line for the number of firing units (artillery:
//!   the damage line); DMZs add up over the shots.
//! - A melee side scores its best unit's d10 + CF + Melee + modifiers +
//!   support + overlaps; the higher side wins and each losing unit takes
//!   `melee.loss_dmz` DMZs (2 if a winner wild-charged); a tie is a draw.
//! - A move goes if its length plus the facing change cost (one change,
//!   free with Maneuverability) fits the allowance, else stops short; a
//!   retreat that ends on another unit is blocked (the unit is destroyed)
//!   and one that ends off the table leaves it.
//!
//! ```
//! use umpire::games::fr_ancients::pack::Pack;
//! use umpire::games::fr_ancients::resolve::PackRules;
//! use umpire::games::fr_ancients::questions::Base;
//! let pack = Pack::stand_in();
//! assert!(PackRules { pack: &pack }.banner().contains("stand-in rules, not FR!"));
//! ```

use super::abilities::Ability;
use super::pack::{CharacterLoss, Pack};
use super::questions::{
    Answer, Ask, Base, Judgement, Loss, MoveKind, MoveResult, Outcome, Question, Test,
};
use super::sheet::sheet;
use super::table::{shifted, Battle, Place};
use super::weapons::elite_fire_roll;
use crate::geometry::{bearing_of, Face, EPSILON};
use std::collections::BTreeMap;

/// Answers from a pack.
pub struct PackRules<'a> {
    pub pack: &'a Pack,
}

impl PackRules<'_> {
    fn test(&self, rally: Option<i32>, total: i32, roll: u8, test: Test) -> Answer {
        if i32::from(roll) + rally.unwrap_or(0) + total >= self.pack.tests.pass_at {
            Answer::Pass
        } else {
            Answer::Fail {
                dmz: (test == Test::Fear).then_some(self.pack.tests.fear_fail_dmz),
            }
        }
    }

    /// The strongest cover that applies to the target.
    fn cover(&self, battle: &Battle, target: &str, heavy_armour: bool, pavisiers: bool) -> i32 {
        let mut c = 0;
        if heavy_armour {
            c = c.min(self.pack.cover);
        }
        if pavisiers {
            c = c.min(sheet().abilities.pavisiers.cover);
        }
        if let Some(t) = battle.units.get(target) {
            for k in battle.terrain_kinds(&t.footprint()) {
                c = c.min(self.pack.terrain_cover(k));
            }
        }
        c
    }

    fn melee(&self, fighters: &[super::questions::Fighter]) -> Answer {
        let mut best: BTreeMap<&str, (i32, bool)> = BTreeMap::new();
        for f in fighters {
            let overlaps: i32 = f
                .strikes
                .iter()
                .map(|(_, face)| match face {
                    Face::Flank => self.pack.melee.overlap[0],
                    Face::Rear => self.pack.melee.overlap[1],
                    Face::Front => 0,
                })
                .max()
                .unwrap_or(0);
            let support: i32 = f
                .support
                .iter()
                .filter(|s| s.allowed)
                .map(|s| self.pack.melee.support + s.extra)
                .sum();
            let score = i32::from(f.roll.value)
                + f.cf.unwrap_or(0)
                + f.melee.unwrap_or(0)
                + f.modifiers.iter().map(|m| m.value).sum::<i32>()
                + support
                + overlaps;
            let e = best.entry(f.side.as_str()).or_insert((i32::MIN, false));
            e.0 = e.0.max(score);
            e.1 |= f.wild_charge;
        }
        let mut sides: Vec<(&str, (i32, bool))> = best.into_iter().collect();
        sides.sort_by_key(|s| std::cmp::Reverse(s.1 .0));
        let draw = sides.len() < 2 || sides[0].1 .0 == sides[1].1 .0;
        if draw {
            return Answer::Melee {
                winner: None,
                results: BTreeMap::new(),
                wraps: Vec::new(),
            };
        }
        let (winner, (_, wild)) = sides[0];
        let dmz = if wild {
            self.pack
                .melee
                .loss_dmz
                .max(sheet().abilities.wild_charge.win_dmz)
        } else {
            self.pack.melee.loss_dmz
        };
        let results = fighters
            .iter()
            .filter(|f| f.side != winner)
            .map(|f| {
                (
                    f.unit.clone(),
                    Outcome {
                        dmz,
                        destroyed: false,
                    },
                )
            })
            .collect();
        Answer::Melee {
            winner: Some(winner.to_string()),
            results,
            wraps: Vec::new(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn movement(
        &self,
        battle: &Battle,
        unit: &str,
        kind: &MoveKind,
        from: Place,
        to: Place,
        distance: f64,
        turn: f64,
        allowance: Option<f64>,
        free_change: bool,
    ) -> MoveResult {
        let Some(u) = battle.units.get(unit) else {
            return MoveResult::Goes;
        };
        let blocked = battle
            .present()
            .any(|o| o.id != u.id && o.footprint().overlaps(&u.footprint_at(to)));
        match kind {
            MoveKind::Retreat { .. } => {
                return if !battle.on_table(&u.footprint_at(to)) {
                    MoveResult::OffTable
                } else if blocked {
                    MoveResult::Destroyed
                } else {
                    MoveResult::Goes
                }
            }
            MoveKind::Withdraw if blocked || !battle.on_table(&u.footprint_at(to)) => {
                return MoveResult::StopsAt(from)
            }
            _ => {}
        }
        let way = bearing_of(to.front - from.front);
        let goes = match allowance {
            None => true,
            Some(a) => {
                let changes = if turn > 0.5 && !free_change { 1.0 } else { 0.0 };
                distance + changes * self.pack.movement.facing_change <= a + EPSILON
            }
        };
        if goes && !blocked {
            return MoveResult::Goes;
        }
        let reach = match allowance {
            Some(a) if !goes => {
                let changes = if turn > 0.5 && !free_change { 1.0 } else { 0.0 };
                (a - changes * self.pack.movement.facing_change).clamp(0.0, distance)
            }
            _ => distance,
        };
        let facing = if matches!(kind, MoveKind::Normal) {
            to.facing
        } else {
            way
        };
        // Short of its goal it stops where it fits, never on another unit.
        let clear = (0..=20)
            .rev()
            .map(|i| Place {
                facing,
                ..shifted(from, way, reach * f64::from(i) / 20.0)
            })
            .find(|p| {
                let f = u.footprint_at(*p);
                battle.on_table(&f)
                    && !battle
                        .present()
                        .any(|o| o.id != u.id && o.footprint().overlaps(&f))
            });
        MoveResult::StopsAt(clear.unwrap_or(from))
    }
}

impl Base for PackRules<'_> {
    fn answer(&mut self, battle: &Battle, q: &Question) -> Option<Answer> {
        Some(match &q.ask {
            Ask::Test {
                rally, roll, test, ..
            } => self.test(*rally, q.ask.total_modifier(), roll.value, *test),
            Ask::Escape { roll, .. } => {
                if i32::from(roll.value) >= self.pack.tests.escape_at {
                    Answer::Pass
                } else {
                    Answer::Fail { dmz: None }
                }
            }
            Ask::Judge {
                unit, judgement, ..
            } => {
                let u = battle.units.get(unit)?;
                let troop = self.pack.troop(u.troop)?;
                let yes = match judgement {
                    Judgement::DestroyedByLevels => u.dmz >= self.pack.demoralization.destroyed_at,
                    Judgement::NaturalChargeBonus => troop.charge_bonus > 0,
                    Judgement::EnemyWithinMove => battle
                        .present()
                        .filter(|e| e.side != u.side)
                        .any(|e| battle.distance(u, e) <= troop.movement[0]),
                    Judgement::SlowerInfantry => battle
                        .contacts(u)
                        .iter()
                        .filter_map(|(e, _)| battle.units.get(e))
                        .all(|e| {
                            self.pack
                                .troop(e.troop)
                                .is_some_and(|t| t.movement[0] < troop.movement[0])
                        }),
                };
                if yes {
                    Answer::Yes
                } else {
                    Answer::No
                }
            }
            Ask::Fire {
                target,
                line,
                missile,
                elite,
                pavisiers,
                damage,
                rolls,
                ..
            } => {
                let heavy = battle
                    .units
                    .get(target)
                    .is_some_and(|t| t.has(Ability::HeavyArmour));
                let base = missile.unwrap_or(0)
                    + q.ask.total_modifier()
                    + self.cover(battle, target, heavy, *pavisiers);
                let dmz: u8 = rolls
                    .iter()
                    .map(|r| {
                        let mut score = i32::from(r.value) + base;
                        if *elite {
                            score = elite_fire_roll(score);
                        }
                        if *damage {
                            self.pack.damage_dmz(score)
                        } else {
                            self.pack.fire_dmz(*line, score)
                        }
                    })
                    .sum();
                Answer::Fire(Outcome {
                    dmz,
                    destroyed: false,
                })
            }
            Ask::Melee { fighters } => self.melee(fighters),
            Ask::Move {
                unit,
                kind,
                from,
                to,
                distance,
                turn,
                allowance,
                free_change,
                ..
            } => Answer::Move(self.movement(
                battle,
                unit,
                kind,
                *from,
                *to,
                *distance,
                *turn,
                *allowance,
                *free_change,
            )),
            Ask::Distance { unit, .. } => {
                let u = battle.units.get(unit)?;
                let in_terrain = battle.in_terrain(&u.footprint());
                Answer::Distance(self.pack.troop(u.troop)?.movement[usize::from(in_terrain)])
            }
            Ask::Challenge {
                challenger,
                challenged,
                rolls,
            } => {
                let bonus = |c: &str| battle.characters.get(c).map_or(0, |c| c.rank.bonus().melee);
                let a = i32::from(rolls[0].value) + bonus(challenger);
                let b = i32::from(rolls[1].value) + bonus(challenged);
                let winner = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(challenger.clone()),
                    std::cmp::Ordering::Less => Some(challenged.clone()),
                    std::cmp::Ordering::Equal => None,
                };
                let loser = if winner.is_some() {
                    Loss::Killed
                } else {
                    Loss::Unhurt
                };
                Answer::Challenge { winner, loser }
            }
            Ask::Fate { .. } => Answer::Fate(match self.pack.characters.unit_destroyed {
                CharacterLoss::Killed => Loss::Killed,
                CharacterLoss::Captured => Loss::Captured,
            }),
        })
    }

    fn banner(&self) -> String {
        self.pack.banner()
    }
}
