//! Step 1, Rally Troops, and step 3, Escape Rolls.
//!
//! "Friendly troops attempt to rally. Subtract one from their roll for each
//! level of demoralization they have. Be sure to add in bonuses for
//! characters. Rage and panic markers counts as one level of
//! demoralization each." The phasing side rallies (ruling FA-1); a pass
//! takes off one level, a Rage or Panic marker first (ruling FA-5).

use crate::games::fr_ancients::engine::{Engine, Go};
use crate::games::fr_ancients::events::Event;
use crate::games::fr_ancients::questions::{Answer, Ask, Loss, Modifier, Test};
use crate::games::fr_ancients::standards::{adjacent_rally, bearer_rally};
use crate::games::fr_ancients::table::{CharacterStatus, Fury, StandardState, Unit};

impl Engine<'_> {
    pub(crate) fn rally(&mut self) -> Go {
        let side = self.phasing();
        let units: Vec<Unit> = self
            .battle
            .present()
            .filter(|u| u.side == side && u.levels() > 0)
            .cloned()
            .collect();
        for u in units {
            let mut modifiers = vec![Modifier::new(
                -i32::from(u.levels()),
                format!(
                    "{} level(s) of demoralization (step 1; a Rage or Panic marker counts one)",
                    u.levels()
                ),
            )];
            modifiers.extend(self.rally_bonuses(&u));
            let key = format!("rally:{}:{}", u.id, self.phase());
            let roll = self.roll(&key)?;
            let ask = Ask::Test {
                unit: u.id.clone(),
                test: Test::Rally,
                rally: u.values().map(|v| v.rally),
                modifiers,
                roll: roll.clone(),
            };
            let Some(answer) = self.ask(key, ask) else {
                continue;
            };
            let passed = answer == Answer::Pass;
            if passed {
                let unit = self.battle.units.get_mut(&u.id).expect("present");
                if unit.fury != Fury::Calm {
                    unit.fury = Fury::Calm;
                } else {
                    unit.dmz = unit.dmz.saturating_sub(1);
                }
            }
            let levels = self.battle.units[&u.id].levels();
            self.log(Event::Rally {
                unit: u.id.clone(),
                roll,
                passed,
                levels,
            });
            if passed && u.fury != Fury::Calm {
                self.log(Event::Fury {
                    unit: u.id.clone(),
                    now: Fury::Calm,
                });
            }
        }
        Ok(())
    }

    /// The Rally bonuses the sheet gives a unit for every rally roll, check
    /// and test: its characters (§7) and its army's standard, carried (+2)
    /// or adjacent (+1, rule 15) (ruling FA-29).
    pub(crate) fn rally_bonuses(&self, u: &Unit) -> Vec<Modifier> {
        let mut out = Vec::new();
        for c in self.battle.characters_with(&u.id) {
            out.push(Modifier::new(
                c.rank.bonus().rally,
                format!("{} {} (§7)", c.rank, c.name),
            ));
        }
        let standard = self.battle.side(&u.side).and_then(|s| s.standard.clone());
        if let Some(StandardState::With(bearer)) = standard {
            if bearer == u.id {
                out.push(Modifier::new(
                    bearer_rally(),
                    "carries the battle standard (rule 15)",
                ));
            } else if self
                .unit(&bearer)
                .is_some_and(|b| b.is_present() && self.battle.adjacent(u, b, self.options))
            {
                out.push(Modifier::new(
                    adjacent_rally(),
                    "adjacent to the battle standard (rule 15)",
                ));
            }
        }
        out
    }

    /// A rally test for a reason the sheet gives: `modifier` is the
    /// sheet's own (cavalry −2 against an elephant); `None` while the game
    /// master's answer waits.
    pub(crate) fn rally_test(
        &mut self,
        u: &Unit,
        test: Test,
        modifier: Option<Modifier>,
    ) -> Go<Option<bool>> {
        let key = format!("{}:{}:{}", test.describe().0, u.id, self.phase());
        let roll = self.roll(&key)?;
        let mut modifiers: Vec<Modifier> = modifier.into_iter().collect();
        modifiers.extend(self.rally_bonuses(u));
        let ask = Ask::Test {
            unit: u.id.clone(),
            test,
            rally: u.values().map(|v| v.rally),
            modifiers,
            roll: roll.clone(),
        };
        let Some(answer) = self.ask(key, ask) else {
            return Ok(None);
        };
        let passed = answer == Answer::Pass;
        self.log(Event::Tested {
            unit: u.id.clone(),
            test,
            roll,
            passed,
        });
        Ok(Some(passed))
    }

    /// Step 3: "Captured friendly characters attempt to escape and any who
    /// do may also move this phase." An escaped character rejoins the unit
    /// its `join` order names, else its general's unit, else the first unit
    /// of its army (ruling FA-30).
    pub(crate) fn escape_rolls(&mut self) -> Go {
        let side = self.phasing();
        let captured: Vec<String> = self
            .battle
            .characters
            .values()
            .filter(|c| c.side == side && c.status == CharacterStatus::Captured)
            .map(|c| c.id.clone())
            .collect();
        for c in captured {
            let key = format!("escape:{c}:{}", self.phase());
            let roll = self.roll(&key)?;
            let Some(answer) = self.ask(
                key,
                Ask::Escape {
                    character: c.clone(),
                    roll: roll.clone(),
                },
            ) else {
                continue;
            };
            let escaped = answer == Answer::Pass;
            self.log(Event::Escape {
                character: c.clone(),
                roll,
                escaped,
            });
            if escaped {
                if let Some(unit) = self.rejoin(&c) {
                    self.character_fate(&c, Loss::Joins(unit));
                }
            }
        }
        Ok(())
    }

    /// Where an escaped character goes.
    fn rejoin(&self, character: &str) -> Option<String> {
        let side = self.battle.characters.get(character)?.side.clone();
        let ordered = self.orders.sides.get(&side).and_then(|o| {
            o.joins
                .iter()
                .find(|(c, _)| c == character)
                .map(|(_, u)| u.clone())
        });
        let general = self
            .battle
            .characters
            .values()
            .find(|g| {
                g.side == side
                    && g.rank == crate::games::fr_ancients::characters::Rank::General
                    && g.status == CharacterStatus::Active
            })
            .and_then(|g| g.with.clone());
        [ordered, general]
            .into_iter()
            .flatten()
            .find(|u| {
                self.unit(u)
                    .is_some_and(|u| u.is_present() && u.side == side)
            })
            .or_else(|| {
                self.battle
                    .present()
                    .find(|u| u.side == side)
                    .map(|u| u.id.clone())
            })
    }
}
