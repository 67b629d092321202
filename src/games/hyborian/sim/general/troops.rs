//! Orders for the fighting units: foot advancing in line, archers at
//! range, horsemen charging when a charge can land, horse archers
//! skirmishing, chariots and mammoths, reserves, and units steadying
//! themselves after falling back.

use super::doctrine::Doctrine;
use super::view::{View, CHARGE_ARC, REACH_SHARE};
use super::write::{inches, place, quoted, Sheet};
use crate::games::hyborian::army::scenario::Zone;
use crate::games::hyborian::rules::fire::BOW_LONG_OVER;
use crate::games::hyborian::rules::melee::{category, charge_bonus, DEEP_INFANTRY_RANKS};
use crate::games::hyborian::rules::movement::{FOOT_STEP_BACK, OBLIQUE_MAX_DEGREES};
use crate::games::hyborian::rules::{Class, Trait, UnitType, Weapon};
use crate::games::hyborian::table::{Status, Unit};
use crate::geometry::{bearing_of, heading, Footprint};
use glam::DVec2;

/// Moves shorter than this are not worth an order (inches).
const MIN_MOVE: f64 = 0.5;
/// Foot stops this far short of the enemy rather than walk into it
/// without the charge bonus (inches).
const STOP_SHORT: f64 = 1.0;
/// An enemy more than this many degrees off the front is faced before
/// the unit moves (foot archers' arc is 45° either side, §6).
const FACE_FIRST: f64 = 40.0;
/// Within this many degrees a move goes straight ahead; beyond it, toward
/// the enemy (obliquely, up to the 45° of §3).
const STRAIGHT: f64 = 10.0;
/// Reserves wait this far behind the line (inches).
const RESERVE_DEPTH: f64 = 8.0;
/// Horse archers ride away from melee troops nearer than this (inches).
const HORSE_ARCHER_SAFE: f64 = 6.0;
/// Foot archers step back from foot nearer than this (inches).
const ARCHER_SAFE: f64 = 4.0;
/// Horsemen seeking battle close to this share of their charge move, so
/// next turn's charge lands.
const STRIKING_SHARE: f64 = 0.6;
/// A charge score below this is never worth making, whatever the style.
const HOPELESS: i32 = -2;
/// Horse archers charge only targets this favourable (broken ones).
const HORSE_ARCHER_ODDS: i32 = 4;
/// A unit making for a point (an end of a crossing, the ground to hold)
/// that faces within this many degrees of it moves straight on rather
/// than turning first.
const ALIGNED: f64 = 1.0;

/// What a unit is for, to its general.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Role {
    /// Foot that fights hand to hand (thrown weapons included).
    Foot,
    /// Foot that shoots, with its range in inches.
    Archers(f64),
    /// Light, medium and heavy cavalry.
    Horse,
    /// Cavalry with bows that split their move (§3).
    HorseArchers(f64),
    /// Chariots and mammoths: they wheel, never face (§5).
    Wheelers,
}

pub(super) fn role(u: &Unit) -> Role {
    if u.has_trait(Trait::HorseArcher) {
        Role::HorseArchers(View::archers(u).unwrap_or(12.0))
    } else if u.kind.is_cavalry() {
        Role::Horse
    } else if u.kind.wheels_only() {
        Role::Wheelers
    } else {
        View::archers(u).map_or(Role::Foot, Role::Archers)
    }
}

/// What the general has decided for the whole army this turn.
pub(super) struct Ctx<'v, 'a> {
    pub view: &'v View<'a>,
    pub doctrine: &'static Doctrine,
    /// The general seeks battle (its patience is spent).
    pub seeking: bool,
    /// The pace of the foot line: the slowest foot's move (advance in line).
    pub line_pace: f64,
    /// The area a victory condition rewards the side for holding, and
    /// the unit that holds it ([`super::ground`]).
    pub ground: Option<(Zone, &'a str)>,
}

/// How good a charge by `u` at `t` looks: the melee modifiers it would
/// bring (§4: category difference, charge bonus, flank or rear), the
/// target's state, pikes against horse, and size.
pub(super) fn odds(u: &Unit, t: &Unit) -> i32 {
    let cat = |k: UnitType| i32::from(category(k).min(4));
    let deep = t.kind.is_infantry() && t.ranks >= DEEP_INFANTRY_RANKS;
    let bonus = if u.kind.is_cavalry() && deep {
        0
    } else {
        charge_bonus(u.kind)
    };
    let mut s = cat(u.kind) + bonus - cat(t.kind);
    if View::off(t, u.front).abs() > 45.0 {
        s += 2;
    }
    s += match t.status {
        Status::FallBack(_) => 1,
        Status::Rout => 3,
        _ => 0,
    };
    if !u.kind.is_infantry() && t.has_weapon(Weapon::Pike) {
        s -= 2;
    }
    if t.kind.wheels_only() {
        s -= 2;
    }
    let grade = |c: Class| match c {
        Class::A => 1,
        Class::B => 0,
        Class::C => -1,
    };
    s += grade(u.class) - grade(t.class);
    if t.figures > 2 * u.figures {
        s -= 1;
    } else if u.figures > 2 * t.figures {
        s += 1;
    }
    s
}

/// Whether the book lets `u` charge `t` at all (§4, §5).
fn may_charge(u: &Unit, t: &Unit) -> bool {
    let forbidden = (u.kind.is_infantry() && t.kind.is_cavalry())
        || (u.kind.is_cavalry() && View::is_mammoth(t));
    !forbidden && !u.has_trait(Trait::Beast)
}

impl Ctx<'_, '_> {
    pub(super) fn threshold(&self) -> i32 {
        if self.seeking {
            self.doctrine.engaged_odds
        } else {
            self.doctrine.charge_odds
        }
    }

    /// The best enemy a charge can reach now with at least `least` odds.
    pub(super) fn best_charge(&self, u: &Unit, least: i32) -> Option<&Unit> {
        let fp = u.footprint();
        let reach = View::charge_move(u) * REACH_SHARE;
        self.view
            .enemies
            .iter()
            .filter(|(t, tfp)| {
                may_charge(u, t)
                    && tfp.distance(&fp) <= reach
                    && View::off(u, tfp.centre).abs() <= CHARGE_ARC
                    && !self.view.barred(u, t)
                    && self.view.clear_path(u, t, tfp.distance(&fp))
                    && self.view.charge_lands(u.pose(), u, t)
            })
            .map(|(t, tfp)| (*t, odds(u, t), tfp.distance(&fp)))
            .filter(|(_, s, _)| *s >= least.max(HOPELESS))
            .max_by(|a, b| {
                a.1.cmp(&b.1)
                    .then(b.2.total_cmp(&a.2))
                    .then(b.0.id.cmp(&a.0.id))
            })
            .map(|(t, _, _)| t)
    }

    /// The charge written out; in phase 2 when friends falling back passed
    /// through the unit last turn (it may not charge in phase 1, §8).
    pub(super) fn charge(&self, u: &Unit, t: &Unit) -> Sheet {
        self.view.claim(View::charge_strip(
            u,
            t,
            t.footprint().distance(&u.footprint()),
        ));
        let mut what = format!("charge {}", quoted(&t.name));
        if u.kind == UnitType::HeavyCavalry && t.kind.is_infantry() {
            what.push_str(" with breakthrough");
        }
        let late = self.view.table.morale.no_charge_in_phase1.contains(&u.id);
        if late {
            return Sheet {
                phase2: Some(what),
                ..Sheet::default()
            };
        }
        if u.kind == UnitType::MediumCavalry && self.doctrine.hit_and_run {
            return Sheet::both(what, "break off".into());
        }
        Sheet::phase1(what)
    }

    /// Stand, turning first to face `t` if it is off to a flank and there
    /// is room to turn.
    pub(super) fn hold_facing(&self, u: &Unit, t: &Unit) -> Sheet {
        let aim = t.footprint().centre;
        if !u.kind.wheels_only()
            && View::off(u, aim).abs() > FACE_FIRST
            && self.view.room_to_face(u, aim)
        {
            Sheet::phase1(format!("face {}", quoted(&t.name)))
        } else {
            Sheet::hold()
        }
    }

    /// Move up to `d` inches toward `t`: by a crossing when deep water
    /// bars the way ([`super::crossing`]); else facing it first when it is
    /// off to a flank, else toward it (obliquely, up to 45°, §3), straight
    /// ahead, or obliquely the other way round a friend in the way; stand
    /// when every way is blocked.
    fn advance(&self, u: &Unit, t: &Unit, d: f64) -> Sheet {
        match self.view.waypoint(u, t.footprint().centre) {
            Some(way) if way.near.is_some_and(|n| self.view.gives_way(u, n)) => {
                self.hold_facing(u, t)
            }
            Some(way) => self.make_for(u, t, way.to),
            None => self.advance_straight(u, t, d),
        }
    }

    /// [`Ctx::advance`] by the straight way, whatever lies on it.
    fn advance_straight(&self, u: &Unit, t: &Unit, d: f64) -> Sheet {
        let d = d.min(View::move_allowance(u));
        if d < MIN_MOVE {
            return self.hold_facing(u, t);
        }
        let aim = t.footprint().centre;
        let off = View::off(u, aim);
        let name = quoted(&t.name);
        if u.kind.wheels_only() && off.abs() > OBLIQUE_MAX_DEGREES {
            // A move toward a unit wheels first where it must (§5).
            return Sheet::phase1(format!("move toward {name} {}", inches(d)));
        }
        if !u.kind.wheels_only() && off.abs() > FACE_FIRST && self.view.room_to_face(u, aim) {
            self.view.claim(View::strip(u, u.facing + off, d));
            return Sheet::both(format!("face {name}"), format!("move {}", inches(d)));
        }
        let toward = off.clamp(-OBLIQUE_MAX_DEGREES, OBLIQUE_MAX_DEGREES);
        let first = if toward.abs() > STRAIGHT { toward } else { 0.0 };
        let around = if off >= 0.0 {
            -OBLIQUE_MAX_DEGREES
        } else {
            OBLIQUE_MAX_DEGREES
        };
        for turn in [first, 0.0, -around, around] {
            let strip = View::strip(u, u.facing + turn, d);
            if self.view.obstructed(u, &strip) {
                continue;
            }
            self.view.claim(strip);
            let what = if turn == first && first != 0.0 {
                format!("move toward {name} {}", inches(d))
            } else if turn == 0.0 {
                format!("move {}", inches(d))
            } else {
                let hand = if turn > 0.0 { "right" } else { "left" };
                format!("oblique {hand} {} {}", inches(turn.abs()), inches(d))
            };
            return Sheet::phase1(what);
        }
        self.hold_facing(u, t)
    }

    /// Make for the point `way` (an end of a crossing, the ground to hold)
    /// at the full allowance, stopping there, facing it first unless the
    /// unit already faces it nearly; stand, facing `t`, if a friend or
    /// deep water is in the way.
    pub(super) fn make_for(&self, u: &Unit, t: &Unit, way: DVec2) -> Sheet {
        self.try_make_for(u, way)
            .unwrap_or_else(|| self.hold_facing(u, t))
    }

    /// [`Ctx::make_for`], `None` where it would stand.
    pub(super) fn try_make_for(&self, u: &Unit, way: DVec2) -> Option<Sheet> {
        let turns = View::off(u, way).abs() > ALIGNED;
        let facing = !u.kind.wheels_only() && turns && self.view.room_to_face(u, way);
        let (front, bearing) = if facing {
            View::faced_toward(u, way)
        } else {
            (u.front, bearing_of(way - u.front))
        };
        let d = View::move_allowance(u).min(front.distance(way));
        if d < MIN_MOVE {
            return None;
        }
        let width = 2.0 * u.footprint().half_width;
        let strip = Footprint::behind(front + heading(bearing) * d, bearing, width, d);
        if self.view.obstructed(u, &strip) {
            return None;
        }
        self.view.claim(strip);
        Some(if facing {
            Sheet::both(format!("face {bearing}"), format!("move {}", inches(d)))
        } else if turns {
            Sheet::phase1(format!("move toward {} {}", place(way), inches(d)))
        } else {
            Sheet::phase1(format!("move {}", inches(d)))
        })
    }

    /// Inches a unit must move to stand level with the foot line, moved on by `ahead`.
    fn to_line(&self, u: &Unit, ahead: f64) -> f64 {
        (self.view.line_front + ahead - self.view.along(u.front)).max(0.0)
    }

    /// A fighting unit's orders for the turn. `reserve`: held back by the general.
    pub fn orders(&self, u: &Unit, reserve: bool) -> Sheet {
        let evade = u.kind == UnitType::LightInfantry;
        let sheet = self.decide(u, reserve);
        if evade {
            sheet.also("evade if charged")
        } else {
            sheet
        }
    }

    fn decide(&self, u: &Unit, reserve: bool) -> Sheet {
        let nearest = self.view.nearest(u, |_| true);
        if !u.in_melee_with.is_empty() {
            let rides_off = u.kind == UnitType::MediumCavalry
                && (self.doctrine.hit_and_run || u.has_trait(Trait::HorseArcher));
            return if rides_off {
                Sheet::phase1("break off".into())
            } else {
                Sheet::hold()
            };
        }
        let Some((enemy, _)) = nearest else {
            return Sheet::hold();
        };
        if matches!(u.status, Status::FallBack(_)) {
            // Fall-back status: no movement (§8); turn to meet the enemy.
            return self.hold_facing(u, enemy);
        }
        if let Some((area, _)) = self.ground.filter(|(_, id)| *id == u.id.as_str()) {
            return self.hold_ground(u, &area);
        }
        if reserve && !self.committed(u) {
            let d = self.to_line(u, -RESERVE_DEPTH);
            return self.advance(u, enemy, d);
        }
        match role(u) {
            Role::Foot => self.foot(u),
            Role::Archers(range) => self.archers(u, range),
            Role::Horse | Role::Wheelers => self.mounted(u),
            Role::HorseArchers(range) => self.horse_archers(u, range),
        }
    }

    /// A reserve joins the fight when its turn comes, when a fine charge
    /// offers itself, or when the enemy comes for it.
    fn committed(&self, u: &Unit) -> bool {
        self.view.table.turn >= self.doctrine.commit_turn
            || self.best_charge(u, self.doctrine.charge_odds + 1).is_some()
            || self.view.threatened(u)
    }

    /// Foot advance in line at the pace of the slowest, charge what they can.
    fn foot(&self, u: &Unit) -> Sheet {
        if let Some(t) = self.best_charge(u, self.threshold()) {
            return self.charge(u, t);
        }
        let Some((t, gap)) = self.view.quarry(u, FACE_FIRST, |_| true) else {
            return Sheet::hold();
        };
        let mut d = self.to_line(u, self.line_pace).min(gap - STOP_SHORT);
        if !self.seeking {
            d = d.min(gap - self.doctrine.stand_off);
        }
        self.advance(u, t, d)
    }

    /// Shooters: charge an enemy in reach with at least `least` odds, else
    /// close to their range; once in range, the nearest enemy and the gap
    /// to it, for the caller to decide.
    fn close_to_range<'t>(
        &'t self,
        u: &Unit,
        range: f64,
        least: i32,
    ) -> Result<Sheet, (&'t Unit, f64)> {
        if let Some(t) = self.best_charge(u, least) {
            return Ok(self.charge(u, t));
        }
        let Some((t, gap)) = self.view.quarry(u, FACE_FIRST, |_| true) else {
            return Ok(Sheet::hold());
        };
        let keep = self.keep(range);
        if gap <= keep + MIN_MOVE {
            return Err((t, gap));
        }
        match self
            .view
            .to_bank(u, t, gap - keep)
            .filter(|d| gap - d <= range)
        {
            // Shooters that can reach the enemy from the bank shoot over
            // the water (T-3: it blocks no missiles) and leave the
            // crossings to those who fight; the others cross.
            Some(d) if d < MIN_MOVE => Err((t, gap)),
            Some(d) => Ok(self.advance_straight(u, t, d)),
            None => Ok(self.advance(u, t, gap - keep)),
        }
    }

    /// Archers close to their range, then stand and shoot.
    fn archers(&self, u: &Unit, range: f64) -> Sheet {
        let (t, _) = match self.close_to_range(u, range, self.threshold().max(HORSE_ARCHER_ODDS)) {
            Ok(sheet) => return sheet,
            Err(in_range) => in_range,
        };
        let melee_troops_near = self
            .view
            .nearest(u, |e| View::archers(e).is_none())
            .is_some_and(|(_, g)| g < ARCHER_SAFE);
        if self.doctrine.skirmish_back
            && u.kind != UnitType::LightInfantry
            && melee_troops_near
            && self.view.threatened(u)
        {
            // Step back and still shoot (§3 all foot may step back 2 inches).
            return Sheet::phase1(format!("move back {}", inches(FOOT_STEP_BACK)));
        }
        self.hold_facing(u, t)
    }

    /// Inches from the enemy archers keep: inside the weapon's range, at
    /// short range if the doctrine says so.
    fn keep(&self, range: f64) -> f64 {
        let r = if self.doctrine.short_range {
            range.min(BOW_LONG_OVER)
        } else {
            range
        };
        (r - self.doctrine.archer_margin).max(MIN_MOVE)
    }

    /// Horsemen, chariots and mammoths: charge when a charge can land;
    /// otherwise keep with the line (waiting) or close to striking distance.
    fn mounted(&self, u: &Unit) -> Sheet {
        if let Some(t) = self.best_charge(u, self.threshold()) {
            return self.charge(u, t);
        }
        // Horse may not charge mammoths (§4); chariots near them fight as horse (§5).
        let shies = u.kind.is_cavalry() || u.kind.is_chariot();
        let reachable = |e: &Unit| !((shies && View::is_mammoth(e)) || self.view.barred(u, e));
        let Some((t, gap)) = self.view.nearest(u, reachable) else {
            return Sheet::hold();
        };
        let mut striking = View::charge_move(u) * STRIKING_SHARE;
        if self.seeking && u.kind.is_cavalry() {
            match self.to_striking_post(u, t) {
                Ok(sheet) => return sheet,
                Err(Some(post_gap)) => striking = striking.max(post_gap),
                Err(None) => {}
            }
        }
        let d = if self.seeking {
            gap - striking
        } else {
            self.to_line(u, 0.0)
                .min(gap - self.doctrine.cavalry_stand_off)
        };
        self.advance(u, t, d)
    }

    /// Horse archers ride to bow range and shoot; cautious ones ride away
    /// from melee troops that come too close.
    fn horse_archers(&self, u: &Unit, range: f64) -> Sheet {
        let (t, gap) = match self.close_to_range(u, range, HORSE_ARCHER_ODDS) {
            Ok(sheet) => return sheet,
            Err(in_range) => in_range,
        };
        if self.doctrine.skirmish_back && gap < HORSE_ARCHER_SAFE && View::archers(t).is_none() {
            return Sheet::both("face about".into(), "move full".into());
        }
        self.hold_facing(u, t)
    }
}
