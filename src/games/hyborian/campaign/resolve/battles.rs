//! Meetings and battles: enemies in one province fight, by the engine or by
//! the secretary's entered result, and what follows a battle (§12).

use super::losses::{gross_points, recover, share_of};
use super::{BattleSide, EnteredResult, MapEvent, Turn};
use crate::games::hyborian::campaign::battle::{self, BattleError, Card};
use crate::games::hyborian::campaign::game::{Army, BattleMode, Holding, PendingBattle, Stance};
use crate::games::hyborian::dice::{Dice, DiceError};
use std::collections::{BTreeMap, BTreeSet};

impl Turn<'_> {
    /// Results entered from outside the week — the secretary's, or a
    /// battle game's by mail that ended — go through one path; then the
    /// waiting battles the secretary gave to the engine are fought.
    pub(super) fn entered_results(
        &mut self,
        results: &[EnteredResult],
        dice: &mut dyn Dice,
    ) -> Result<(), DiceError> {
        for r in results {
            let Some(pos) = self.c.pending.iter().position(|b| b.id == r.battle) else {
                continue;
            };
            let b = self.c.pending.remove(pos);
            let sides = b.sides();
            let winner = r.winner.as_ref().and_then(|w| {
                sides.iter().position(|side| {
                    side.iter().any(|a| {
                        self.c
                            .armies
                            .get(a)
                            .is_some_and(|x| x.commander() == w.as_str())
                    })
                })
            });
            let mut lost = BTreeMap::new();
            for (army, points) in &r.losses {
                if let Some(a) = self.c.find_army(army) {
                    lost.insert(a.id.clone(), share_of(&a.contents, *points));
                }
            }
            for (army, units) in &r.figures {
                if let Some(a) = self.c.find_army(army) {
                    lost.insert(a.id.clone(), units.clone());
                }
            }
            self.after_battle(
                b.id,
                &b.province,
                sides,
                winner,
                r.both_broke,
                b.came_in,
                &lost,
                b.card,
                b.table_feet,
                r.by.word(),
                r.picture.clone(),
            );
        }
        let (engine, waiting): (Vec<PendingBattle>, Vec<PendingBattle>) =
            std::mem::take(&mut self.c.pending)
                .into_iter()
                .partition(|b| b.by == BattleMode::Engine);
        self.c.pending = waiting;
        for b in engine {
            let sides = b.sides().map(|s| {
                s.iter()
                    .filter_map(|a| self.c.armies.get(a).cloned())
                    .collect()
            });
            let card = CardOrNumber::Number(b.card).card();
            self.fight(
                Field {
                    id: b.id,
                    province: b.province.clone(),
                    sides,
                    came_in: b.came_in,
                    card,
                    north: Some(b.north),
                },
                BattleMode::Engine,
                dice,
            )?;
        }
        Ok(())
    }

    /// Enemies in one province fight: every army of the two strongest
    /// powers there (a third waits for next week, ruling CA-4). A garrison
    /// behind walls fights only when forced out; an army fights once a week
    /// (one that fell back into another battle's province sits it out).
    pub(super) fn meetings(
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

    pub(super) fn battle(
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
            .map_or(crate::games::hyborian::campaign::map::Terrain::Clear, |p| {
                p.terrain
            });
        let card = battle::draw(&format!("b{id}"), terrain, dice)?;
        let mode = self.c.settings.battles;
        self.fight(
            Field {
                id,
                province: province.into(),
                sides: [att, def],
                came_in,
                card,
                north: None,
            },
            mode,
            dice,
        )
    }

    /// A battle fought by the engine at once, or left waiting for the
    /// secretary's result or a battle game by mail (`mode`). A table that
    /// cannot be set leaves it to the secretary, with the reason.
    fn fight(&mut self, f: Field, mode: BattleMode, dice: &mut dyn Dice) -> Result<(), DiceError> {
        let Field {
            id,
            province,
            sides: [att, def],
            came_in,
            card,
            north,
        } = f;
        let (att_host, att_names) = battle::host(&att);
        let (def_host, def_names) = battle::host(&def);
        let feet = battle::table_feet(
            att_host.points(),
            def_host.points(),
            self.c.settings.feet_per_500_points,
        );
        // The host that came from the north takes the north edge.
        let north = north.unwrap_or_else(|| {
            let y = |p: Option<&String>| p.and_then(|p| self.world.province(p)).map(|p| p.at[1]);
            let here = self.world.province(&province).map_or(0.0, |p| p.at[1]);
            usize::from(!y(att_host.came_from.as_ref()).is_none_or(|v| v <= here))
        });
        let (n, s) = if north == 0 {
            (&att_host, &def_host)
        } else {
            (&def_host, &att_host)
        };
        let sides = [
            att.iter().map(|a| a.id.clone()).collect::<Vec<_>>(),
            def.iter().map(|a| a.id.clone()).collect::<Vec<_>>(),
        ];
        let (fought, why) = match mode {
            BattleMode::Secretary => (None, None),
            BattleMode::Mail => match battle::table_setup(&card, feet, n, s) {
                Ok(_) => (None, None),
                Err(e) => (None, Some(e.to_string())),
            },
            BattleMode::Engine => match battle::table_setup(&card, feet, n, s)
                .and_then(|setup| battle::fight(&setup, [n, s], dice))
            {
                Ok(f) => (Some(f), None),
                Err(BattleError::Dice(e)) => return Err(e),
                Err(BattleError::Setup(why)) => (None, Some(why)),
            },
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
                let picture = Some(battle::last_table_svg(id, &f.last));
                self.after_battle(
                    id,
                    &province,
                    sides,
                    winner,
                    f.both_broke,
                    came_in,
                    &lost,
                    card,
                    feet,
                    "engine",
                    picture,
                );
            }
            None => {
                // A table that cannot be set waits for the secretary.
                let by = if why.is_some() {
                    BattleMode::Secretary
                } else {
                    mode
                };
                let powers = [
                    att_host.commander().to_string(),
                    def_host.commander().to_string(),
                ];
                self.events.push(MapEvent::BattleAwaits {
                    id,
                    province: province.clone(),
                    armies: sides.iter().flatten().cloned().collect(),
                    powers,
                    card: card.clone(),
                    table_feet: feet,
                    why: why.clone(),
                    by,
                });
                self.c.pending.push(PendingBattle {
                    id,
                    province,
                    armies: [sides[0][0].clone(), sides[1][0].clone()],
                    with: [sides[0][1..].to_vec(), sides[1][1..].to_vec()],
                    card: card.number,
                    table_feet: feet,
                    why,
                    by,
                    came_in,
                    north,
                    week: self.c.date(),
                });
            }
        }
        Ok(())
    }

    /// Losses and recovery, then the side that lost the field falls back.
    /// `winner` is the index of the side that broke the other (both broken:
    /// the one over the half by less, `both_broke`, ruling A-25); with none,
    /// the side that marched in this week falls back (both that did: the one
    /// that lost the larger share of its points; neither: no one), ruling
    /// CA-9. The side holding the field recovers 3/4 of its losses, the
    /// other 1/2 (both 1/2 when no one falls back).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn after_battle(
        &mut self,
        id: u32,
        province: &str,
        sides: [Vec<String>; 2],
        winner: Option<usize>,
        both_broke: bool,
        came_in: [bool; 2],
        lost: &BTreeMap<String, BTreeMap<String, u32>>,
        card: impl Into<CardOrNumber>,
        feet: u32,
        by: &str,
        picture: Option<String>,
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
                both_broke,
                by: by.into(),
                picture,
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
    pub(super) fn fall_back(&mut self, army: &str, province: &str) {
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
}

/// A battle about to be fought or left waiting: its id and province, each
/// side's armies (the attacker first), whether each marched in this week,
/// the card, and the side on the north edge when already known.
pub(super) struct Field {
    id: u32,
    province: String,
    sides: [Vec<Army>; 2],
    came_in: [bool; 2],
    card: Card,
    north: Option<usize>,
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
