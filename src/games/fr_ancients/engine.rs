//! The engine's core, shared by every step: the state of one phase being
//! played, asking the base rules ([`Engine::ask`]), rolling dice, and what
//! a DMZ, a destruction, a double-demoralised retreat or an enraged
//! elephant's move does to the table. The steps themselves are in
//! [`super::steps`]; the fixed order they run in is [`super::sequence`].
//!
//! Architecture invariant: the engine does no I/O and reads no clock; all
//! its randomness comes through [`Dice`] under the keys the case format
//! documents, and every collection it walks is ordered.

use super::abilities::Ability;
use super::events::{Event, Logged};
use super::options::{ElephantFear, Options};
use super::orders::TurnOrders;
use super::pack::{CharacterLoss, Pack};
use super::part::Part;
use super::questions::{Answer, Ask, Base, Judgement, Loss, MoveKind, MoveResult, Question, Roll};
use super::rage::{after_dmz, enraged_bearing, roll_compass, Turn};
use super::standards::{fate, read, Fate};
pub use super::table::directly_behind;
use super::table::{
    shifted, Battle, CharacterStatus, Fury, Place, StandardState, Status, Unit, UnitId, CONTACT,
};
use super::troops::TroopType;
use crate::dice::{Dice, DiceError, DieKind};
use crate::geometry::{bearing_of, heading, Edge, TOUCH};
use std::collections::{BTreeMap, BTreeSet};

/// Why a run of the engine stopped early.
#[derive(Debug)]
pub enum Halt {
    /// Questions wait for the game master.
    Gm,
    Dice(DiceError),
}

impl From<DiceError> for Halt {
    fn from(e: DiceError) -> Self {
        Halt::Dice(e)
    }
}

pub type Go<T = ()> = Result<T, Halt>;

/// How a unit took a DMZ or was destroyed, and by whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cause {
    /// The unit it came from: a DD retreat goes away from it.
    pub by: Option<UnitId>,
    pub how: How,
}

/// Where a DMZ or a destruction came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    Fire,
    Melee,
    Fear,
    /// An enraged or panicked unit's contact (rules Rage, Panic).
    Fury,
    /// A failed test whose failure costs a DMZ.
    Test,
    /// A retreat with nowhere to go.
    BlockedRetreat,
    /// A scythed chariot let through opened ranks.
    PassedThrough,
}

impl How {
    pub fn words(self) -> &'static str {
        match self {
            How::Fire => "missile fire",
            How::Melee => "melee",
            How::Fear => "a failed fear check",
            How::Fury => "a wild elephant or chariot",
            How::Test => "a failed rally test",
            How::BlockedRetreat => "blocked retreat",
            How::PassedThrough => "passed through opened ranks; its driver is killed (rule 9)",
        }
    }
}

/// How an immediate Rage or Panic move starts (§5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FuryStart {
    /// "It immediately makes a full move": the Enraged Move Direction.
    Enraged,
    /// Panicked: in combat it turns about and moves the opposite way;
    /// otherwise the Enraged Move Direction.
    Panicked { in_combat: bool },
    /// A scythed chariot panicking before impact starts 1 base from its target.
    ChariotPanic { target: UnitId },
    /// A later phase (step 4c): the Secondary Move Direction.
    Secondary,
}

/// What this phase has done so far, for the steps that look back.
#[derive(Debug, Default)]
pub struct Record {
    /// Units that gained a level or a marker this phase.
    pub demoralized: BTreeSet<UnitId>,
    pub destroyed: BTreeSet<UnitId>,
    pub shot_at: BTreeSet<UnitId>,
    pub fired: BTreeSet<UnitId>,
    /// Charger → the unit it charged, for units that reached contact.
    pub charged: BTreeMap<UnitId, UnitId>,
    pub counter_charged: BTreeSet<UnitId>,
    /// Units that replaced a unit in combat by Pass Through.
    pub passed_through: BTreeSet<UnitId>,
    /// Units whose move this phase is done (impetuous, Rage/Panic).
    pub moved: BTreeSet<UnitId>,
    pub impetuous_tested: BTreeSet<UnitId>,
    /// Impetuous units that failed their roll and must charge.
    pub impetuous_charges: Vec<UnitId>,
    pub fear_checked: BTreeSet<UnitId>,
    /// Fear checks due in step 4e: the sheet's reasons, and who causes the fear.
    pub fear_due: BTreeMap<UnitId, Vec<(String, UnitId)>>,
    /// Units that took their flank test this phase (§5 Unmanoeuvreable).
    pub flank_tested: BTreeSet<UnitId>,
    /// Retreats waiting: the unit, and whom it retreats from.
    pub retreats: Vec<(UnitId, Option<UnitId>)>,
    /// Immediate Rage and Panic moves waiting.
    pub fury_moves: Vec<(UnitId, FuryStart)>,
    /// Step 7's scores, for step 8.
    pub scores: Vec<(String, u32)>,
    /// (unit, fear-causer) pairs adjacent or in contact when the phase began
    /// (they call for no new fear check, ruling FA-28).
    pub fearsome_at_start: BTreeSet<(UnitId, UnitId)>,
    /// Units whose enemies may not follow up (replaced by Pass Through).
    pub no_follow_up: BTreeSet<UnitId>,
    /// Counters that keep question and dice keys unique within the phase.
    pub counters: BTreeMap<String, u32>,
}

/// One phase being played.
pub struct Engine<'a> {
    pub battle: Battle,
    pub orders: &'a TurnOrders,
    pub options: &'a Options,
    pub pack: Option<&'a Pack>,
    base: &'a mut dyn Base,
    dice: &'a mut dyn Dice,
    pub events: Vec<Logged>,
    pending: Vec<Question>,
    pub part: Part,
    pub record: Record,
}

impl<'a> Engine<'a> {
    pub fn new(
        battle: Battle,
        orders: &'a TurnOrders,
        options: &'a Options,
        pack: Option<&'a Pack>,
        base: &'a mut dyn Base,
        dice: &'a mut dyn Dice,
    ) -> Engine<'a> {
        let record = Record {
            fearsome_at_start: fearsome_pairs(&battle, options),
            ..Record::default()
        };
        Engine {
            battle,
            orders,
            options,
            pack,
            base,
            dice,
            events: Vec::new(),
            pending: Vec::new(),
            part: Part::Rally,
            record,
        }
    }

    /// Play one part; its questions that wait for the game master stop the run.
    pub fn play(&mut self, part: Part) -> Go {
        self.part = part;
        match part {
            Part::Rally => self.rally()?,
            Part::MissileFire => self.missile_fire()?,
            Part::FireRetreats => self.fire_retreats()?,
            Part::ShotAtImpetuous => self.shot_at_impetuous()?,
            Part::EscapeRolls => self.escape_rolls()?,
            Part::ImpetuousChecks => self.impetuous_checks()?,
            Part::ImpetuousMoves => self.impetuous_moves()?,
            Part::RageAndPanic => self.rage_and_panic()?,
            Part::NormalMovement => self.normal_movement()?,
            Part::FearChecks => self.fear_checks()?,
            Part::Challenges => self.challenges()?,
            Part::Melee => self.melee()?,
            Part::PhaseWinner => self.phase_winner(),
            Part::MoraleClock => self.morale_clock(),
            Part::EndOfPhase => self.end_of_phase(),
        }
        if part != Part::MissileFire {
            self.settle()?;
        } else {
            self.settle_fury()?;
        }
        if self.pending.is_empty() {
            Ok(())
        } else {
            Err(Halt::Gm)
        }
    }

    pub fn battle_over(&self) -> bool {
        self.battle.over.is_some()
    }

    pub fn finish(self) -> (Battle, Vec<Logged>) {
        (self.battle, self.events)
    }

    /// The questions waiting for the game master so far, in the order asked.
    pub fn waiting(&self) -> &[Question] {
        &self.pending
    }

    /// Keep only the first `n` questions waiting: the later ones wait on
    /// their answers and are asked in a later situation.
    pub fn keep_waiting(&mut self, n: usize) {
        self.pending.truncate(n);
    }

    /// The battle as far as played, the events, and the waiting questions.
    pub fn finish_waiting(self) -> (Battle, Vec<Logged>, Vec<Question>) {
        (self.battle, self.events, self.pending)
    }

    /// The phase being played, 1 or 2 (dice and question keys carry it).
    pub fn phase(&self) -> u8 {
        self.battle.phase
    }

    /// The side whose phase it is.
    pub fn phasing(&self) -> String {
        self.battle.phasing().clone()
    }

    pub fn log(&mut self, event: Event) {
        self.events.push(Logged {
            part: self.part,
            event,
        });
    }

    /// A d10 under `key`.
    pub fn roll(&mut self, key: &str) -> Go<Roll> {
        let value = self.dice.roll_die(key, DieKind::D10)?;
        Ok(Roll {
            key: key.to_string(),
            value,
        })
    }

    /// The next number for a counter (`what` names it), from 1.
    pub fn next(&mut self, what: &str) -> u32 {
        let n = self.record.counters.entry(what.to_string()).or_default();
        *n += 1;
        *n
    }

    /// Ask the base rules; `None` when the game master must answer (the
    /// question is kept for the situation).
    pub fn ask(&mut self, key: String, ask: Ask) -> Option<Answer> {
        let q = Question {
            key,
            part: self.part,
            ask,
        };
        match self.base.answer(&self.battle, &q) {
            Some(a) if a.fits(&q.ask) => Some(a),
            _ => {
                if !self.pending.iter().any(|p| p.key == q.key) {
                    self.pending.push(q);
                }
                None
            }
        }
    }

    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.battle.units.get(id)
    }

    /// The standard fire arc (M6), or 45° from the corners without a pack (ruling FA-15).
    pub fn fire_arc(&self) -> f64 {
        self.pack.and_then(Pack::fire_arc).unwrap_or(45.0)
    }

    /// The movement arc (M4), or 45° from the corners without a pack (ruling FA-15).
    pub fn movement_arc(&self) -> f64 {
        self.pack.and_then(Pack::movement_arc).unwrap_or(45.0)
    }

    /// A unit's movement allowance ([`allowance`]).
    pub fn allowance(&self, u: &Unit, in_terrain: bool) -> Option<f64> {
        allowance(&self.battle, u, in_terrain)
    }

    /// The sheet's own cap on a move ([`move_cap`]).
    pub fn move_cap(&self, u: &Unit, in_terrain: bool) -> Option<f64> {
        move_cap(&self.battle, u, in_terrain)
    }

    /// Give a unit DMZs, one at a time through the Rage/Panic state machine.
    pub fn dmz(&mut self, unit: &str, n: u8, cause: Cause) -> Go {
        for _ in 0..n {
            let Some(u) = self.unit(unit) else {
                return Ok(());
            };
            if !u.is_present() {
                return Ok(());
            }
            let in_combat = self.battle.in_melee(u);
            let (troop, fury) = (u.troop, u.fury);
            match after_dmz(troop, fury) {
                Turn::Dmz => {
                    let levels = {
                        let u = self.battle.units.get_mut(unit).expect("present");
                        u.dmz += 1;
                        u.dmz
                    };
                    self.record.demoralized.insert(unit.to_string());
                    self.log(Event::Dmz {
                        unit: unit.into(),
                        levels,
                        cause: cause.how.words().into(),
                    });
                    if levels == 2 {
                        self.record
                            .retreats
                            .push((unit.to_string(), cause.by.clone()));
                    }
                    if levels >= 3 && self.destroyed_by_levels(unit, levels) {
                        self.destroy(unit, cause.clone())?;
                        return Ok(());
                    }
                }
                Turn::Becomes(now) => {
                    self.battle.units.get_mut(unit).expect("present").fury = now;
                    self.record.demoralized.insert(unit.to_string());
                    self.log(Event::Fury {
                        unit: unit.into(),
                        now,
                    });
                    let start = if now == Fury::Enraged {
                        FuryStart::Enraged
                    } else {
                        FuryStart::Panicked { in_combat }
                    };
                    self.record.fury_moves.retain(|(u, _)| u != unit);
                    self.record.fury_moves.push((unit.to_string(), start));
                }
                Turn::Killed => {
                    self.destroy(unit, cause.clone())?;
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// Whether a unit with 3 or more levels is destroyed: the pack's
    /// number, or the game master's call (M8).
    fn destroyed_by_levels(&mut self, unit: &str, levels: u8) -> bool {
        if let Some(at) = self.pack.and_then(Pack::destroyed_at) {
            return levels >= at;
        }
        let key = format!("judge:{unit}:{}:destroyed-{levels}", self.phase());
        let facts = vec![format!(
            "{} now has {levels} levels of demoralization",
            self.battle.name(unit)
        )];
        matches!(
            self.ask(
                key,
                Ask::Judge {
                    unit: unit.into(),
                    judgement: Judgement::DestroyedByLevels,
                    facts
                }
            ),
            Some(Answer::Yes)
        )
    }

    /// Put a side's clock down by one, and end the battle if the pack says so.
    pub fn lose_clock(&mut self, side: &str, why: &str) {
        let Some(s) = self.battle.side_mut(side) else {
            return;
        };
        s.clock_lost += 1;
        let now = s.clock();
        self.log(Event::Clock {
            side: side.into(),
            why: why.into(),
            now,
        });
        if let (Some(ends_at), Some(v)) = (self.pack.and_then(Pack::ends_at), now) {
            if v <= ends_at && self.battle.over.is_none() {
                let why = format!(
                    "{side}'s morale clock has run down to {v}, where the pack ends the battle"
                );
                self.battle.over = Some(why.clone());
                self.log(Event::BattleOver { why });
            }
        }
    }

    /// Remove a unit: its standard, the standards it holds, its characters,
    /// the baggage's clock loss.
    pub fn destroy(&mut self, unit: &str, cause: Cause) -> Go {
        let Some(u) = self.unit(unit).cloned() else {
            return Ok(());
        };
        if !u.is_present() {
            return Ok(());
        }
        self.battle.units.get_mut(unit).expect("present").status = Status::Destroyed;
        self.record.destroyed.insert(unit.to_string());
        self.record.retreats.retain(|(r, _)| r != unit);
        self.record.fury_moves.retain(|(r, _)| r != unit);
        self.log(Event::Destroyed {
            unit: unit.into(),
            how: cause.how.words().into(),
        });
        if u.troop == TroopType::Baggage {
            self.lose_clock(&u.side, "its baggage was looted (rule 6)");
        }
        let victor = cause.by.clone().filter(|v| {
            cause.how == How::Melee
                && self
                    .unit(v)
                    .is_some_and(|v| v.is_present() && v.side != u.side)
        });
        let sides: Vec<(String, StandardState)> = self
            .battle
            .sides
            .iter()
            .filter_map(|s| s.standard.clone().map(|st| (s.id.clone(), st)))
            .collect();
        for (owner, state) in sides {
            let held = match &state {
                StandardState::With(b) if b == unit => false,
                StandardState::CapturedBy(b) if b == unit => true,
                _ => continue,
            };
            self.standard_falls(&owner, &u, held, cause.how == How::Melee, victor.clone())?;
        }
        for c in self
            .battle
            .characters_with(unit)
            .into_iter()
            .map(|c| c.id.clone())
            .collect::<Vec<_>>()
        {
            self.character_loses_unit(&c, unit);
        }
        Ok(())
    }

    /// Roll on the standards table for `owner`'s standard, carried (or,
    /// `held`, captured and held) by the destroyed unit `u`.
    fn standard_falls(
        &mut self,
        owner: &str,
        u: &Unit,
        held: bool,
        in_melee: bool,
        victor: Option<UnitId>,
    ) -> Go {
        let roll = self.roll(&format!("standard:{}:{owner}", u.id))?;
        let result = read(roll.value);
        let adjacent = self
            .battle
            .present()
            .filter(|o| {
                o.side == u.side && o.id != u.id && self.battle.adjacent(u, o, self.options)
            })
            .min_by(|a, b| {
                self.battle
                    .distance(u, a)
                    .total_cmp(&self.battle.distance(u, b))
                    .then_with(|| a.id.cmp(&b.id))
            })
            .map(|o| o.id.clone());
        let now = match fate(result, in_melee, adjacent.as_deref(), victor.as_deref()) {
            Fate::Lost => StandardState::Lost,
            Fate::LeftBehind => StandardState::LeftBehind(u.footprint().centre),
            Fate::EscapesTo(a) if held => StandardState::CapturedBy(a),
            Fate::EscapesTo(a) => StandardState::With(a),
            Fate::CapturedBy(v) => {
                if self.unit(&v).is_some_and(|v| v.side == owner) {
                    StandardState::With(v)
                } else {
                    StandardState::CapturedBy(v)
                }
            }
        };
        let was_away = held;
        if let Some(s) = self.battle.side_mut(owner) {
            s.standard = Some(now.clone());
        }
        self.log(Event::Standard {
            side: owner.into(),
            roll: Some(roll),
            result: Some(result),
            now: now.clone(),
        });
        // "If a Battle Standard is captured or lost the morale clock is
        // decremented by 1": once while it is away (ruling FA-21).
        if !was_away && matches!(now, StandardState::Lost | StandardState::CapturedBy(_)) {
            let why = if now == StandardState::Lost {
                "its battle standard was lost (rule 15)"
            } else {
                "its battle standard was captured (rule 15)"
            };
            self.lose_clock(owner, why);
        }
        Ok(())
    }

    /// A character whose unit was destroyed: the pack says what becomes of
    /// it, or the game master does (M11).
    fn character_loses_unit(&mut self, character: &str, unit: &str) {
        let loss = match self.pack.and_then(Pack::unit_destroyed) {
            Some(l) => match l {
                CharacterLoss::Killed => Loss::Killed,
                CharacterLoss::Captured => Loss::Captured,
            },
            None => match self.ask(
                format!("fate:{character}"),
                Ask::Fate {
                    character: character.into(),
                    unit: unit.into(),
                },
            ) {
                Some(Answer::Fate(l)) => l,
                _ => return,
            },
        };
        self.character_fate(character, loss);
    }

    /// Apply what became of a character; a dead one costs its clock 1 (ruling FA-21).
    pub fn character_fate(&mut self, character: &str, loss: Loss) {
        let Some(c) = self.battle.characters.get_mut(character) else {
            return;
        };
        let side = c.side.clone();
        match &loss {
            Loss::Killed => {
                c.status = CharacterStatus::Killed;
                c.with = None;
            }
            Loss::Captured => {
                c.status = CharacterStatus::Captured;
                c.with = None;
            }
            Loss::Joins(u) => {
                c.status = CharacterStatus::Active;
                c.with = Some(u.clone());
            }
            Loss::Unhurt => {}
        }
        self.log(Event::Character {
            character: character.into(),
            loss: loss.clone(),
        });
        if loss == Loss::Killed {
            self.lose_clock(&side, "a character was destroyed (step 6)");
        }
    }

    /// Immediate Rage and Panic moves, then DD retreats, until none wait.
    pub fn settle(&mut self) -> Go {
        let mut rounds = 0;
        while !self.record.fury_moves.is_empty() || !self.record.retreats.is_empty() {
            rounds += 1;
            if rounds > 4 * self.battle.units.len() + 8 {
                break; // every unit can move only so often; a loop means a bug, not a hang
            }
            self.settle_fury()?;
            let retreats = std::mem::take(&mut self.record.retreats);
            for (u, from) in retreats {
                self.retreat(&u, from)?;
            }
        }
        Ok(())
    }

    /// Immediate Rage and Panic moves only (in step 2a, DD retreats wait
    /// for step 2b: "Retreat due to double DMZ in the missile fire phase
    /// occurs only after the completion of all firing", rule 12).
    pub fn settle_fury(&mut self) -> Go {
        let mut rounds = 0;
        while !self.record.fury_moves.is_empty() {
            rounds += 1;
            if rounds > 4 * self.battle.units.len() + 8 {
                break;
            }
            let moves = std::mem::take(&mut self.record.fury_moves);
            for (u, start) in moves {
                self.fury_move(&u, start)?;
            }
        }
        Ok(())
    }

    /// A double-demoralised unit falls back away from `from` (M8), or is
    /// replaced by a Roman Battle Drill unit behind it (§5 Pass Through).
    pub fn retreat(&mut self, unit: &str, from: Option<UnitId>) -> Go {
        let Some(u) = self.unit(unit).cloned() else {
            return Ok(());
        };
        if !u.is_present() || u.dmz < 2 {
            return Ok(());
        }
        if let Some(rear) = self.pass_through_partner(&u) {
            self.replace_by_rear(&u, &rear, true);
            return Ok(());
        }
        let away = match from.as_ref().and_then(|f| self.unit(f)) {
            Some(f) if f.id != u.id => bearing_of(u.footprint().centre - f.footprint().centre),
            _ => u.facing + 180.0,
        };
        let distance = self
            .pack
            .and_then(Pack::retreat_depths)
            .map(|d| d * u.depth());
        let mut proposed = shifted(u.place(), away, distance.unwrap_or(u.depth()));
        // Its way back goes no further than the first unit in it (ruling
        // FA-51); a retreat that ends on a unit is the base's to judge.
        if !self.overlaps_any(&u, u.footprint_at(proposed)) {
            if let Some(stop) =
                super::sweep::stop_on_way(&self.battle, &u, proposed, &[], self.options)
            {
                self.log(Event::Blocked {
                    unit: u.id.clone(),
                    by: stop.by,
                    at: stop.at,
                });
                proposed = stop.at;
            }
        }
        let kind = MoveKind::Retreat {
            from: from.clone().unwrap_or_default(),
        };
        let k = self.next(&format!("move:{unit}"));
        let key = format!("move:{unit}:{}:retreat:{k}", self.phase());
        let ask = self.move_ask(&u, kind.clone(), proposed, None, false);
        match self.ask(key, ask) {
            Some(Answer::Move(r)) => self.apply_move(unit, kind, proposed, r, from),
            _ => Ok(()),
        }
    }

    /// The Move question for a unit going to a place.
    pub fn move_ask(
        &self,
        u: &Unit,
        kind: MoveKind,
        to: Place,
        allowance: Option<f64>,
        free_change: bool,
    ) -> Ask {
        let from = u.place();
        let in_terrain =
            self.battle.in_terrain(&u.footprint()) || self.battle.in_terrain(&u.footprint_at(to));
        Ask::Move {
            unit: u.id.clone(),
            kind,
            from,
            to,
            distance: from.front.distance(to.front),
            turn: crate::geometry::turn_between(from.facing, to.facing).abs(),
            in_terrain,
            allowance,
            free_change,
        }
    }

    /// Carry out a move's answer.
    pub fn apply_move(
        &mut self,
        unit: &str,
        kind: MoveKind,
        proposed: Place,
        r: MoveResult,
        by: Option<UnitId>,
    ) -> Go {
        match r {
            MoveResult::Goes => self.place_unit(unit, kind, proposed),
            MoveResult::StopsAt(p) => self.place_unit(unit, kind, p),
            MoveResult::Destroyed => self.destroy(
                unit,
                Cause {
                    by,
                    how: How::BlockedRetreat,
                },
            )?,
            MoveResult::OffTable => self.off_table(unit),
        }
        Ok(())
    }

    /// Move a unit and log it; it picks up a standard left behind on its way.
    pub fn place_unit(&mut self, unit: &str, kind: MoveKind, to: Place) {
        let Some(u) = self.battle.units.get_mut(unit) else {
            return;
        };
        let from = u.place();
        u.set_place(to);
        let to = u.place();
        self.log(Event::Moved {
            unit: unit.into(),
            kind,
            from,
            to,
        });
        self.pick_up_standards(unit, from, to);
        self.carry_attached(unit, from, to);
    }

    /// Units attached to a unit that moved go with it, where they stood
    /// beside it (rule 13; how is the base book's, M11: ruling FA-55).
    fn carry_attached(&mut self, host: &str, from: Place, to: Place) {
        let riders: Vec<UnitId> = self
            .battle
            .present()
            .filter(|a| a.attached_to.as_deref() == Some(host))
            .map(|a| a.id.clone())
            .collect();
        for id in riders {
            let Some(a) = self.battle.units.get_mut(&id) else {
                continue;
            };
            let now = a.carried(from, to);
            a.set_place(now);
        }
    }

    pub fn off_table(&mut self, unit: &str) {
        if let Some(u) = self.battle.units.get_mut(unit) {
            u.status = Status::OffTable;
            self.record.destroyed.insert(unit.to_string());
            self.log(Event::LeftTable { unit: unit.into() });
        }
    }

    /// "the first unit to move over that position captures the Standard".
    fn pick_up_standards(&mut self, unit: &str, from: Place, to: Place) {
        let Some(u) = self.unit(unit).cloned() else {
            return;
        };
        let reach = u.width() / 2.0;
        let left: Vec<(String, glam::DVec2)> = self
            .battle
            .sides
            .iter()
            .filter_map(|s| match s.standard {
                Some(StandardState::LeftBehind(p)) => Some((s.id.clone(), p)),
                _ => None,
            })
            .collect();
        for (owner, p) in left {
            let on_path =
                crate::geometry::point_segment_distance(p, from.front, to.front) <= reach + CONTACT;
            if !(on_path || u.footprint().contains(p)) {
                continue;
            }
            let now = if u.side == owner {
                StandardState::With(unit.into())
            } else {
                StandardState::CapturedBy(unit.into())
            };
            if let Some(s) = self.battle.side_mut(&owner) {
                s.standard = Some(now.clone());
            }
            self.log(Event::Standard {
                side: owner.clone(),
                roll: None,
                result: None,
                now: now.clone(),
            });
            if matches!(now, StandardState::CapturedBy(_)) {
                self.lose_clock(&owner, "its battle standard was captured (rule 15)");
            }
        }
    }

    /// A friend directly behind `u`, undemoralised, both with Pass Through (§5).
    pub fn pass_through_partner(&self, u: &Unit) -> Option<UnitId> {
        if !u.has(Ability::PassThrough) {
            return None;
        }
        self.battle
            .present()
            .filter(|r| {
                r.side == u.side
                    && r.id != u.id
                    && r.has(Ability::PassThrough)
                    && !r.is_demoralized()
            })
            .filter(|r| directly_behind(u, r, self.battle.inches(self.options.adjacent_within)))
            .map(|r| r.id.clone())
            .next()
    }

    /// The rear unit takes the front one's place; the front one goes back
    /// behind it. `retreating`: the front unit was falling back (no follow-up).
    pub fn replace_by_rear(&mut self, front: &Unit, rear: &str, retreating: bool) {
        let Some(r) = self.unit(rear).cloned() else {
            return;
        };
        let in_combat = self.battle.in_melee(front);
        let front_place = front.place();
        let back = Place {
            front: front_place.front - heading(front.facing) * r.depth(),
            facing: front.facing,
        };
        if let Some(ru) = self.battle.units.get_mut(rear) {
            ru.set_place(front_place);
        }
        if let Some(fu) = self.battle.units.get_mut(&front.id) {
            fu.set_place(back);
        }
        self.log(Event::PassedThrough {
            rear: rear.into(),
            front: front.id.clone(),
        });
        if in_combat {
            self.record.passed_through.insert(rear.into());
        }
        if retreating {
            for (enemy, _) in self.battle.contacts(&self.battle.units[rear].clone()) {
                self.record.no_follow_up.insert(enemy);
            }
        }
    }

    /// An enraged or panicked unit's full move (§5 Rage, Panic).
    pub fn fury_move(&mut self, unit: &str, start: FuryStart) -> Go {
        let Some(u) = self.unit(unit).cloned() else {
            return Ok(());
        };
        if !u.is_present() || u.fury == Fury::Calm {
            return Ok(());
        }
        let mut place = u.place();
        if let FuryStart::ChariotPanic { target } = &start {
            // "begins its Panicked move 1 base away from the intended target".
            if let Some(t) = self.unit(target) {
                let away = bearing_of(u.footprint().centre - t.footprint().centre);
                place = shifted(
                    place,
                    away,
                    u.base[1] * super::sheet::sheet().abilities.panic.chariot_start_bases,
                );
            }
        }
        let bearing = match &start {
            FuryStart::Panicked { in_combat: true } => u.facing + 180.0,
            FuryStart::Secondary => {
                let (point, rolls) = self.compass(unit)?;
                let b = u.facing + super::rage::secondary_bearing(point, self.movement_arc());
                self.log(Event::Compass {
                    unit: unit.into(),
                    compass: "Secondary",
                    point,
                    bearing: b.rem_euclid(360.0),
                    rolls,
                });
                b
            }
            _ => {
                let (point, rolls) = self.compass(unit)?;
                let b = u.facing + enraged_bearing(point);
                self.log(Event::Compass {
                    unit: unit.into(),
                    compass: "Enraged",
                    point,
                    bearing: b.rem_euclid(360.0),
                    rolls,
                });
                b
            }
        };
        let bearing = bearing.rem_euclid(360.0);
        // It turns to face its way, about its centre, unless turning would overlap a unit.
        let centre = u.footprint_at(place).centre;
        let turned = Place {
            front: centre + heading(bearing) * (u.depth() / 2.0),
            facing: bearing,
        };
        if !self.overlaps_any(&u, u.footprint_at(turned)) {
            place = turned;
        }
        let distance = match self.allowance(&u, self.battle.in_terrain(&u.footprint_at(place))) {
            Some(d) => d,
            None => {
                let k = self.next(&format!("distance:{unit}"));
                let key = format!("distance:{unit}:{}:{k}", self.phase());
                match self.ask(
                    key,
                    Ask::Distance {
                        unit: unit.into(),
                        bearing,
                        kind: MoveKind::Fury,
                    },
                ) {
                    Some(Answer::Distance(d)) => d,
                    _ => return Ok(()),
                }
            }
        };
        let panicked = u.fury == Fury::Panicked;
        let sweep = self.sweep(&u, place, bearing, distance, panicked);
        self.record.moved.insert(unit.to_string());
        if sweep.off_table {
            self.place_unit(unit, MoveKind::Fury, sweep.end);
            self.off_table(unit);
            return Ok(());
        }
        self.place_unit(unit, MoveKind::Fury, sweep.end);
        if let Some(hit) = sweep.contact {
            let Some(h) = self.unit(&hit).cloned() else {
                return Ok(());
            };
            // "if it contacts a unit that has a frontal opponent then that unit
            // gains 1 demoralization marker"; otherwise it fights it.
            let frontal = self.battle.contacts(&h).iter().any(|(e, f)| {
                *f == crate::geometry::Face::Front
                    && e != unit
                    && self.unit(e).is_some_and(|e| e.side != h.side)
            });
            if frontal {
                self.dmz(
                    &hit,
                    1,
                    Cause {
                        by: Some(unit.into()),
                        how: How::Fury,
                    },
                )?;
            }
        }
        Ok(())
    }

    /// Roll a compass point for a unit (keys `compass:UNIT:P:K`).
    fn compass(&mut self, unit: &str) -> Go<(u8, Vec<Roll>)> {
        let phase = self.phase();
        let mut counter = *self
            .record
            .counters
            .get(&format!("compass:{unit}"))
            .unwrap_or(&0);
        let mut next = || {
            counter += 1;
            format!("compass:{unit}:{phase}:{counter}")
        };
        let (point, rolls) = roll_compass(&mut *self.dice, &mut next, self.options.compass_die)?;
        self.record
            .counters
            .insert(format!("compass:{unit}"), counter);
        Ok((
            point,
            rolls
                .into_iter()
                .map(|(key, value)| Roll { key, value })
                .collect(),
        ))
    }

    /// Whether a rectangle overlaps any other present unit.
    pub fn overlaps_any(&self, u: &Unit, f: crate::geometry::Footprint) -> bool {
        self.battle
            .present()
            .any(|o| o.id != u.id && o.footprint().overlaps(&f))
    }

    /// Move a unit's rectangle along a bearing until it touches another
    /// unit or the table's edge (`leave`: it may leave the table).
    pub fn sweep(&self, u: &Unit, start: Place, bearing: f64, distance: f64, leave: bool) -> Sweep {
        let dir = heading(bearing);
        let at = |t: f64| Place {
            front: start.front + dir * t,
            facing: start.facing,
        };
        let others: Vec<&Unit> = self
            .battle
            .present()
            .filter(|o| o.id != u.id && !o.footprint().overlaps(&u.footprint_at(start)))
            .collect();
        let blocked = |t: f64| -> Option<Blocker> {
            let f = u.footprint_at(at(t));
            if let Some(o) = others
                .iter()
                .filter(|o| o.footprint().penetration(&f) > TOUCH)
                .map(|o| o.id.clone())
                .min()
            {
                return Some(Blocker::Unit(o));
            }
            if !self.battle.on_table(&f) {
                return Some(Blocker::Edge);
            }
            None
        };
        let steps = ((distance / 0.1).ceil() as usize).clamp(1, 10_000);
        let mut free = 0.0;
        for i in 1..=steps {
            let t = distance * i as f64 / steps as f64;
            let Some(b) = blocked(t) else {
                free = t;
                continue;
            };
            if matches!(b, Blocker::Edge) && leave {
                return Sweep {
                    end: at(t),
                    contact: None,
                    off_table: true,
                };
            }
            let (mut lo, mut hi) = (free, t);
            for _ in 0..30 {
                let mid = (lo + hi) / 2.0;
                if blocked(mid).is_some() {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let contact = match blocked(hi) {
                Some(Blocker::Unit(o)) => Some(o),
                _ => None,
            };
            return Sweep {
                end: at(lo),
                contact,
                off_table: false,
            };
        }
        Sweep {
            end: at(distance),
            contact: None,
            off_table: false,
        }
    }

    /// The place a unit takes in full contact with a target's edge ([`contact_place`]).
    pub fn contact_place(&self, u: &Unit, target: &Unit, edge: Edge) -> Option<Place> {
        contact_place(&self.battle, u, target, edge)
    }
}

/// A unit's movement allowance, in the open or in terrain, with heavy
/// armour's 1" less (§5); `None` when its profile does not give it.
pub fn allowance(battle: &Battle, u: &Unit, in_terrain: bool) -> Option<f64> {
    let m = u.profile.movement?;
    let mut a = m[usize::from(in_terrain)];
    if u.has(Ability::HeavyArmour) {
        a += battle.inches(super::sheet::sheet().abilities.heavy_armour.movement);
    }
    Some(a.max(0.0))
}

/// The sheet's own cap on a move: tortoise 2"/1", hoplites in shieldwall
/// 2"/0" (ruling FA-23: open/terrain).
pub fn move_cap(battle: &Battle, u: &Unit, in_terrain: bool) -> Option<f64> {
    let a = &super::sheet::sheet().abilities;
    let pair = match u.formation {
        super::table::Formation::Tortoise => Some(a.tortoise.movement),
        super::table::Formation::ShieldWall if u.has(Ability::Hoplite) => Some(a.hoplite.movement),
        _ => None,
    }?;
    Some(battle.inches(pair[usize::from(in_terrain)]))
}

/// The place a unit takes in full contact with one edge of a target:
/// flush against it, centred, slid along it to clear other units ("All
/// charges must end with units in full base to base contact with no
/// overlaps").
pub fn contact_place(battle: &Battle, u: &Unit, target: &Unit, edge: Edge) -> Option<Place> {
    let tf = target.footprint();
    let (a, b) = tf.edge(edge);
    let n = tf.normal(edge);
    let facing = bearing_of(-n);
    let along = (b - a).normalize_or_zero();
    let centre = (a + b) / 2.0;
    let slack = ((a.distance(b) - u.width()) / 2.0).max(0.0);
    let mut offsets = vec![0.0];
    for i in 1..=20 {
        let o = slack * i as f64 / 20.0;
        offsets.push(-o);
        offsets.push(o);
    }
    offsets
        .into_iter()
        .map(|o| Place {
            front: centre + along * o,
            facing,
        })
        .find(|p| {
            let f = u.footprint_at(*p);
            battle.on_table(&f)
                && !battle
                    .present()
                    .any(|o| o.id != u.id && o.id != target.id && o.footprint().overlaps(&f))
        })
}

/// Every (unit, elephant) pair adjacent (only cavalry and the enemy with
/// option `elephant_fear = "cavalry-and-enemies"`, ruling FA-53), and every (unit, enemy that causes
/// it fear) pair in contact: the neighbours that call for fear checks.
pub fn fearsome_pairs(battle: &Battle, options: &Options) -> BTreeSet<(UnitId, UnitId)> {
    let mut out = BTreeSet::new();
    for e in battle.present() {
        for o in battle.present().filter(|o| o.id != e.id) {
            let afraid = match options.elephant_fear {
                ElephantFear::Adjacent => true,
                ElephantFear::CavalryAndEnemies => o.side != e.side || o.troop.is_cavalry(),
            };
            let adjacent_elephant =
                e.troop.causes_fear_by_nature() && afraid && battle.adjacent(o, e, options);
            let feared_contact = battle.touching(o, e) && causes_fear(e, o);
            if adjacent_elephant || feared_contact {
                out.insert((o.id.clone(), e.id.clone()));
            }
        }
    }
    out
}

/// Whether `a` causes fear to `b`: elephants to all cavalry, every enemy to
/// an unsteady unit, and the units decided before the game (§5 Cause Fear,
/// Unsteady).
pub fn causes_fear(a: &Unit, b: &Unit) -> bool {
    if a.side == b.side {
        return false;
    }
    b.grade.is_some_and(|g| g.fears_every_enemy())
        || (a.troop.causes_fear_by_nature() && b.troop.is_cavalry())
        || a.causes_fear_to_all
        || a.causes_fear_to.contains(&b.troop)
}

/// What a sweep found.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    pub end: Place,
    pub contact: Option<UnitId>,
    pub off_table: bool,
}

enum Blocker {
    Unit(UnitId),
    Edge,
}
