//! The base rules as a pack resolves them: [`PackRules`] answers every
//! [`Question`] whose part the club's [`Pack`] covers, at once, and returns
//! `None` for the rest, which [`Mixed`] hands to the game master's desk.
//! The procedures are documented in `docs/fr-ancients/pack.md`; the
//! numbers and tables are the pack's, the modifiers the sheet's.
//!
//! - A test passes when d10 + the unit's Rally + the modifiers reaches its
//!   pass mark (`tests.pass_at`, or the test's own in `tests.pass_at_for`);
//!   a failed fear check costs the DMZs of its band in `tests.fear_fail`
//!   by how far it failed (`tests.fear_fail_dmz` without bands).
//! - A missile roll is d10 + Missile + modifiers + cover (the strongest
//!   that applies: heavy armour counts as the pack's `fire.cover`, a
//!   terrain kind its own, pavisiers −1), elite +1 to a maximum of 10,
//!   less the target's Rally when the table is read by margin, read on the
//!   Bowfire line for the number of firing units (artillery: the damage
//!   line); DMZs add up over the shots.
//! - A melee side scores its best unit's d10 + CF + Melee + modifiers +
//!   support + overlaps; the higher side wins by the difference, and the
//!   margin's line of `melee.loss` says what each unit of the losing and
//!   of the winning side takes (a winner's Wild Charge: at least 2 to the
//!   loser, §5); from `melee.wrap_at` on, each winning unit that struck a
//!   beaten unit's front wraps round its flank, and from
//!   `melee.follow_up_at` on each winning unit that struck follows a beaten
//!   unit that fell back; a tie is a draw.
//! - A move goes if its cost plus the facing change (one change, free
//!   with Maneuverability) fits the allowance, else stops short; its cost
//!   is its length, or, where the pack prices terrain, each stretch's
//!   length times the dearest terrain it crosses against the open
//!   allowance. A retreat that ends on another unit is blocked (the unit
//!   is destroyed) and one that ends off the table leaves it.
//!
//! ```
//! use umpire::games::fr_ancients::{demo::trebia, pack::Pack, part::Part};
//! use umpire::games::fr_ancients::questions::{Answer, Ask, Base, Question, Roll};
//! use umpire::games::fr_ancients::resolve::PackRules;
//! let battle = trebia(None).unwrap().battle;
//! let roll = Roll { key: "escape:carthage-hannibalbarca:1".into(), value: 9 };
//! let escape = Question {
//!     key: roll.key.clone(),
//!     part: Part::EscapeRolls,
//!     ask: Ask::Escape { character: "carthage-hannibalbarca".into(), roll },
//! };
//! let pack = Pack::stand_in();
//! assert_eq!(PackRules { pack: &pack }.answer(&battle, &escape), Some(Answer::Pass));
//! ```
//!
//! A mixed game's base: the pack where it covers the question, the desk
//! (here with no answers yet) where it does not.
//!
//! ```
//! use umpire::games::fr_ancients::{demo::trebia, desk::Desk, pack::Pack, part::Part};
//! use umpire::games::fr_ancients::questions::{Ask, Base, Question, Roll};
//! use umpire::games::fr_ancients::resolve::Mixed;
//! let pack = Pack::from_toml("name = \"our clock\"\nscale = \"inches\"\n[clock]\nstart = 8\nends_at = 0\n").unwrap();
//! assert!(pack.division().unwrap().contains("the pack judges the morale clock; the game master judges the troop table, tests"));
//! let battle = trebia(None).unwrap().battle;
//! let roll = Roll { key: "escape:carthage-hannibalbarca:1".into(), value: 9 };
//! let escape = Question {
//!     key: roll.key.clone(),
//!     part: Part::EscapeRolls,
//!     ask: Ask::Escape { character: "carthage-hannibalbarca".into(), roll },
//! };
//! let mut desk = Desk::default();
//! let mut mixed = Mixed::new(&pack, &mut desk);
//! assert_eq!(mixed.answer(&battle, &escape), None, "tests are the game master's: he is asked");
//! ```

use super::abilities::Ability;
use super::engine::allowance;
use super::pack::{CharacterLoss, MarginLoss, Pack, Reading};
use super::questions::{
    Answer, Ask, Base, Fighter, Judgement, Loss, MoveKind, MoveResult, Outcome, Question, Test,
    Wrap,
};
use super::sheet::sheet;
use super::table::{shifted, Battle, Place, Unit};
use super::weapons::elite_fire_roll;
use crate::geometry::{bearing_of, Face, EPSILON};
use std::collections::BTreeMap;

/// Stretches a priced path is cut into to cost it.
const STRETCHES: u32 = 20;

/// Answers from a pack, where it covers the question.
pub struct PackRules<'a> {
    pub pack: &'a Pack,
}

/// A mixed game's base rules: the pack's answer where it covers the
/// question, else the game master's (the desk's, `None` until he answers).
pub struct Mixed<'a, 'd> {
    pub pack: PackRules<'a>,
    pub gm: &'d mut dyn Base,
}

impl<'a, 'd> Mixed<'a, 'd> {
    pub fn new(pack: &'a Pack, gm: &'d mut dyn Base) -> Mixed<'a, 'd> {
        Mixed {
            pack: PackRules { pack },
            gm,
        }
    }
}

impl Base for Mixed<'_, '_> {
    fn answer(&mut self, battle: &Battle, q: &Question) -> Option<Answer> {
        self.pack
            .answer(battle, q)
            .or_else(|| self.gm.answer(battle, q))
    }
}

impl PackRules<'_> {
    /// A value the troop table gives: unknown without one means the game
    /// master answers; with one, a unit without it counts 0 (as ever).
    fn known(&self, v: Option<i32>) -> Option<i32> {
        match v {
            Some(v) => Some(v),
            None if self.pack.troops.is_empty() => None,
            None => Some(0),
        }
    }

    fn test(&self, rally: Option<i32>, total: i32, roll: u8, test: Test) -> Option<Answer> {
        let tests = self.pack.tests.as_ref()?;
        let mark = tests
            .pass_at_for
            .get(test.describe().0)
            .copied()
            .unwrap_or(tests.pass_at);
        let score = i32::from(roll) + self.known(rally)? + total;
        if score >= mark {
            return Some(Answer::Pass);
        }
        let dmz = tests
            .fear_fail
            .iter()
            .rev()
            .find(|b| mark - score >= b.margin)
            .map_or(tests.fear_fail_dmz, |b| b.dmz);
        Some(Answer::Fail {
            dmz: (test == Test::Fear).then_some(dmz),
        })
    }

    /// The strongest cover that applies to the target.
    fn cover(&self, battle: &Battle, target: &str, heavy_armour: bool, pavisiers: bool) -> i32 {
        let mut c = 0;
        if heavy_armour {
            c = c.min(self.pack.fire.as_ref().map_or(0, |f| f.cover));
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

    /// What a table read by margin subtracts: the target's Rally with its
    /// grade's +1 (0 for a table read by the roll).
    fn against(&self, battle: &Battle, target: &str) -> Option<i32> {
        match self.pack.fire.as_ref()?.read {
            Reading::Roll => Some(0),
            Reading::Margin => {
                let t = battle.units.get(target)?;
                Some(t.profile.values?.rally + t.bonus.rally)
            }
        }
    }

    fn fire(&self, battle: &Battle, q: &Question) -> Option<Answer> {
        let Ask::Fire {
            target,
            line,
            missile,
            elite,
            pavisiers,
            damage,
            rolls,
            ..
        } = &q.ask
        else {
            return None;
        };
        let against = self.against(battle, target)?;
        let heavy = battle
            .units
            .get(target)
            .is_some_and(|t| t.has(Ability::HeavyArmour));
        let base = self.known(*missile)?
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
                    self.pack.fire_dmz(*line, score - against)
                }
            })
            .sum();
        Some(Answer::Fire(Outcome {
            dmz,
            destroyed: false,
        }))
    }

    /// A fighter's score: d10 + CF + Melee + modifiers + support + overlap.
    fn score(&self, f: &Fighter) -> Option<i32> {
        let melee = self.pack.melee.as_ref()?;
        let overlaps: i32 = f
            .strikes
            .iter()
            .map(|(_, face)| match face {
                Face::Flank => melee.overlap[0],
                Face::Rear => melee.overlap[1],
                Face::Front => 0,
            })
            .max()
            .unwrap_or(0);
        let support: i32 = f
            .support
            .iter()
            .filter(|s| s.allowed)
            .map(|s| melee.support + s.extra)
            .sum();
        Some(
            i32::from(f.roll.value)
                + self.known(f.cf)?
                + self.known(f.melee)?
                + f.modifiers.iter().map(|m| m.value).sum::<i32>()
                + support
                + overlaps,
        )
    }

    fn melee(&self, fighters: &[Fighter]) -> Option<Answer> {
        let table = self.pack.melee.as_ref()?;
        let mut best: BTreeMap<&str, (i32, bool)> = BTreeMap::new();
        for f in fighters {
            let score = self.score(f)?;
            let e = best.entry(f.side.as_str()).or_insert((i32::MIN, false));
            e.0 = e.0.max(score);
            e.1 |= f.wild_charge;
        }
        let mut sides: Vec<(&str, (i32, bool))> = best.into_iter().collect();
        sides.sort_by_key(|s| std::cmp::Reverse(s.1 .0));
        if sides.len() < 2 || sides[0].1 .0 == sides[1].1 .0 {
            return Some(Answer::Melee {
                winner: None,
                results: BTreeMap::new(),
                wraps: Vec::new(),
                follow_ups: Vec::new(),
            });
        }
        let (winner, (top, wild)) = sides[0];
        let margin = top - sides[1].1 .0;
        let line = table
            .losses
            .iter()
            .rev()
            .find(|l| margin >= l.margin)
            .copied()
            .unwrap_or(MarginLoss {
                margin: 1,
                loser: 0,
                winner: 0,
            });
        let loser_dmz = if wild {
            line.loser.max(sheet().abilities.wild_charge.win_dmz)
        } else {
            line.loser
        };
        let results = fighters
            .iter()
            .filter_map(|f| {
                let dmz = if f.side == winner {
                    line.winner
                } else {
                    loser_dmz
                };
                (f.side != winner || dmz > 0).then(|| {
                    (
                        f.unit.clone(),
                        Outcome {
                            dmz,
                            destroyed: false,
                        },
                    )
                })
            })
            .collect();
        let wraps = match table.wrap_at {
            Some(at) if margin >= at => wraps(fighters, winner),
            _ => Vec::new(),
        };
        let follow_ups = match table.follow_up_at {
            Some(at) if margin >= at => fighters
                .iter()
                .filter(|f| f.side == winner && !f.strikes.is_empty())
                .map(|f| f.unit.clone())
                .collect(),
            _ => Vec::new(),
        };
        Some(Answer::Melee {
            winner: Some(winner.to_string()),
            results,
            wraps,
            follow_ups,
        })
    }

    /// [`priced_path`] under this pack.
    fn priced(
        &self,
        battle: &Battle,
        u: &Unit,
        from: Place,
        to: Place,
        budget: f64,
    ) -> Option<(f64, f64)> {
        priced_path(self.pack, battle, u, from, to, budget)
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
        allowance_there: Option<f64>,
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
        let facing_cost = if turn > 0.5 && !free_change {
            self.pack.facing_change().unwrap_or(0.0)
        } else {
            0.0
        };
        // Priced terrain spends the open allowance instead of the terrain one.
        let budget = allowance_there.map(|a| allowance(battle, u, false).unwrap_or(a));
        let priced = budget.and_then(|b| self.priced(battle, u, from, to, b - facing_cost));
        let (goes, reach) = match (allowance_there, priced) {
            (None, _) => (true, distance),
            (Some(a), Some((cost, reach))) => {
                (cost + facing_cost <= budget.unwrap_or(a) + EPSILON, reach)
            }
            (Some(a), None) => (
                distance + facing_cost <= a + EPSILON,
                (a - facing_cost).clamp(0.0, distance),
            ),
        };
        if goes && !blocked {
            return MoveResult::Goes;
        }
        let reach = if goes { distance } else { reach };
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

    /// How far a full move along `bearing` takes a unit: its allowance, or
    /// where the pack prices terrain, as far as the open allowance pays for.
    fn distance(&self, battle: &Battle, unit: &str, bearing: f64) -> Option<f64> {
        let u = battle.units.get(unit)?;
        let troop = self.pack.troop(u.troop)?;
        let in_terrain = battle.in_terrain(&u.footprint());
        let plain = troop.movement[usize::from(in_terrain)];
        if !self.pack.prices_terrain() {
            return Some(plain);
        }
        let open = troop.movement[0];
        let to = Place {
            facing: u.facing,
            ..shifted(u.place(), bearing, open)
        };
        Some(
            self.priced(battle, u, u.place(), to, open)
                .map_or(plain, |(_, reach)| reach),
        )
    }

    fn judge(&self, battle: &Battle, unit: &str, judgement: Judgement) -> Option<Answer> {
        let u = battle.units.get(unit)?;
        let yes = match judgement {
            Judgement::DestroyedByLevels => u.dmz >= self.pack.destroyed_at()?,
            Judgement::NaturalChargeBonus => self.pack.troop(u.troop)?.charge_bonus > 0,
            Judgement::EnemyWithinMove => {
                let reach = self.pack.troop(u.troop)?.movement[0];
                battle
                    .present()
                    .filter(|e| e.side != u.side)
                    .any(|e| battle.distance(u, e) <= reach)
            }
            Judgement::SlowerInfantry => {
                let own = self.pack.troop(u.troop)?.movement[0];
                battle
                    .contacts(u)
                    .iter()
                    .filter_map(|(e, _)| battle.units.get(e))
                    .all(|e| {
                        self.pack
                            .troop(e.troop)
                            .is_some_and(|t| t.movement[0] < own)
                    })
            }
        };
        Some(if yes { Answer::Yes } else { Answer::No })
    }

    fn challenge(&self, battle: &Battle, q: &Ask) -> Option<Answer> {
        let Ask::Challenge {
            challenger,
            challenged,
            rolls,
        } = q
        else {
            return None;
        };
        self.pack.characters.as_ref()?;
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
        Some(Answer::Challenge { winner, loser })
    }
}

/// A big win's wrap-arounds: each winning unit that struck a beaten unit's
/// front goes round that unit's flank (rule 11 may still refuse it).
fn wraps(fighters: &[Fighter], winner: &str) -> Vec<Wrap> {
    fighters
        .iter()
        .filter(|f| f.side == winner)
        .filter_map(|f| {
            let (around, _) = f.strikes.iter().find(|(_, face)| *face == Face::Front)?;
            Some(Wrap {
                unit: f.unit.clone(),
                around: around.clone(),
                to: Face::Flank,
            })
        })
        .collect()
}

impl Base for PackRules<'_> {
    fn answer(&mut self, battle: &Battle, q: &Question) -> Option<Answer> {
        match &q.ask {
            Ask::Test {
                rally, roll, test, ..
            } => self.test(*rally, q.ask.total_modifier(), roll.value, *test),
            Ask::Escape { roll, .. } => {
                let tests = self.pack.tests.as_ref()?;
                Some(if i32::from(roll.value) >= tests.escape_at {
                    Answer::Pass
                } else {
                    Answer::Fail { dmz: None }
                })
            }
            Ask::Judge {
                unit, judgement, ..
            } => self.judge(battle, unit, *judgement),
            Ask::Fire { .. } => self.fire(battle, q),
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
            } => {
                self.pack.movement.as_ref()?;
                Some(Answer::Move(self.movement(
                    battle,
                    unit,
                    kind,
                    *from,
                    *to,
                    *distance,
                    *turn,
                    *allowance,
                    *free_change,
                )))
            }
            Ask::Distance { unit, bearing, .. } => {
                self.distance(battle, unit, *bearing).map(Answer::Distance)
            }
            Ask::Challenge { .. } => self.challenge(battle, &q.ask),
            Ask::Fate { .. } => Some(Answer::Fate(match self.pack.unit_destroyed()? {
                CharacterLoss::Killed => Loss::Killed,
                CharacterLoss::Captured => Loss::Captured,
            })),
        }
    }
}

/// The priced cost of a straight path and the distance along it that a
/// budget reaches, when the pack prices terrain; `None` otherwise. The
/// order checker prices a move the same way, to say before the phase that
/// it will stop short.
pub(crate) fn priced_path(
    pack: &Pack,
    battle: &Battle,
    u: &Unit,
    from: Place,
    to: Place,
    budget: f64,
) -> Option<(f64, f64)> {
    if !pack.prices_terrain() {
        return None;
    }
    let way = bearing_of(to.front - from.front);
    let length = from.front.distance(to.front);
    let step = length / f64::from(STRETCHES);
    let (mut cost, mut reach) = (0.0, 0.0);
    for i in 0..STRETCHES {
        let mid = shifted(from, way, step * (f64::from(i) + 0.5));
        let factor = battle
            .terrain_kinds(&u.footprint_at(Place {
                facing: to.facing,
                ..mid
            }))
            .into_iter()
            .filter_map(|k| pack.terrain_cost(k, u.troop))
            .fold(1.0, f64::max);
        cost += step * factor;
        if cost <= budget + EPSILON {
            reach = step * f64::from(i + 1);
        }
    }
    Some((cost, reach))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fr_ancients::questions::Roll;

    fn fighter(unit: &str, side: &str, roll: u8, strikes: &[&str]) -> Fighter {
        Fighter {
            unit: unit.into(),
            side: side.into(),
            cf: Some(2),
            melee: Some(0),
            strikes: strikes
                .iter()
                .map(|s| (s.to_string(), Face::Front))
                .collect(),
            modifiers: Vec::new(),
            support: Vec::new(),
            roll: Roll {
                key: format!("melee:{unit}:1"),
                value: roll,
            },
            charged: false,
            wild_charge: false,
        }
    }

    fn follow_ups(pack: &Pack, winner_roll: u8) -> Vec<String> {
        let fighters = [
            fighter("sp", "carthage", winner_roll, &["h"]),
            fighter("back", "carthage", 1, &[]),
            fighter("h", "rome", 4, &["sp"]),
        ];
        match (PackRules { pack }).melee(&fighters) {
            Some(Answer::Melee { follow_ups, .. }) => follow_ups,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_win_by_the_packs_margin_sends_the_winners_that_struck_after_the_beaten() {
        let never = Pack::stand_in();
        assert_eq!(never.melee.as_ref().unwrap().follow_up_at, None);
        assert!(
            follow_ups(&never, 10).is_empty(),
            "without follow_up_at only the impetuous follow"
        );
        let text = super::super::pack::STAND_IN.replace("[melee]\n", "[melee]\nfollow_up_at = 3\n");
        let pack = Pack::from_toml(&text).unwrap();
        assert_eq!(
            follow_ups(&pack, 7),
            ["sp"],
            "won by 3: the striker follows, not the unit behind"
        );
        assert!(follow_ups(&pack, 6).is_empty(), "won by 2");
    }
}
