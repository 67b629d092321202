//! Checking written orders against the sheet and the table: names looked
//! up (with "did you mean"), each order's sheet rules applied now, so the
//! player hears at once what the umpire will refuse.

use super::parse::{read, Written, WrittenOrder};
use super::plan::{Shoot, SideOrders, UnitOrder};
use super::OrderKind;
use crate::diagnostic::{Diagnostic, Span};
use crate::games::fr_ancients::abilities::Ability;
use crate::games::fr_ancients::engine::{allowance, contact_place, directly_behind, move_cap};
use crate::games::fr_ancients::new_rules::{may_withdraw, Withdrawal};
use crate::games::fr_ancients::options::Options;
use crate::games::fr_ancients::pack::Pack;
use crate::games::fr_ancients::resolve::priced_path;
use crate::games::fr_ancients::steps::fire::{free_to_choose, legal_targets};
use crate::games::fr_ancients::sweep::stop_on_way;
use crate::games::fr_ancients::table::{
    ArtilleryKind, Battle, CharacterStatus, Formation, Place, Unit, CONTACT,
};
use crate::games::fr_ancients::troops::TroopType;
use crate::games::fr_ancients::weapons::Weapon;
use crate::geometry::{bearing_of, turn_between};
use std::collections::BTreeSet;

/// What a side has spent of its orders this phase (option `order_limit`:
/// `limit` counts them).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Spent {
    /// The general's free group move, used.
    pub group_free: bool,
    /// Sub-generals' free unit moves used.
    pub units_free: usize,
    /// Orders counted against the clock.
    pub counted: i32,
}

/// A side's checked orders and what was said about them.
#[derive(Debug, Clone)]
pub struct Checked {
    pub orders: SideOrders,
    pub diagnostics: Vec<Diagnostic<OrderKind>>,
    /// Units (and characters) with an order refused.
    pub refused: BTreeSet<String>,
    pub source: String,
}

impl Checked {
    /// Every diagnostic rendered rustc-style, in order.
    pub fn render(&self) -> String {
        crate::games::fr_ancients::render_all(&self.diagnostics, &self.source)
    }

    /// The orders as understood, one line each, for the confirmation.
    pub fn confirmation(&self, battle: &Battle) -> Vec<String> {
        let n = |id: &str| battle.name(id);
        let c = |id: &str| {
            battle
                .characters
                .get(id)
                .map_or_else(|| id.to_string(), |c| c.name.clone())
        };
        let o = &self.orders;
        let mut out: Vec<String> = o
            .moves
            .iter()
            .map(|m| m.said(n, o.said.get(m.unit())))
            .collect();
        for (u, s) in &o.shoot {
            out.push(match s {
                Shoot::At(t) => format!("{}: shoot {}", n(u), n(t)),
                Shoot::Hold => format!("{}: hold fire", n(u)),
            });
        }
        out.extend(
            o.fire_singly
                .iter()
                .map(|u| format!("{}: fire singly", n(u))),
        );
        out.extend(
            o.counter_charge
                .iter()
                .map(|u| format!("{}: counter-charge", n(u))),
        );
        out.extend(o.open_ranks.iter().map(|u| format!("{}: open ranks", n(u))));
        out.extend(
            o.joins
                .iter()
                .map(|(ch, u)| format!("{}: join {}", c(ch), n(u))),
        );
        out.extend(
            o.challenges
                .iter()
                .map(|(a, b)| format!("{}: challenge {}", c(a), c(b))),
        );
        out
    }
}

/// Whom a line names.
pub(super) enum Who {
    Unit(Box<Unit>),
    Character(String),
}

pub(super) struct Checker<'a> {
    pub(super) battle: &'a Battle,
    pub(super) side: &'a str,
    pub(super) pack: Option<&'a Pack>,
    pub(super) options: &'a Options,
    pub(super) orders: SideOrders,
    pub(super) diagnostics: Vec<Diagnostic<OrderKind>>,
    /// Units with a movement order already.
    pub(super) moving: BTreeSet<String>,
    /// The unit or character the line being checked names.
    pub(super) current: Option<String>,
    pub(super) refused: BTreeSet<String>,
    /// `follow` orders, checked once every other move is known: the
    /// follower, its leader as written, the order's span.
    pub(super) follows: Vec<(Unit, (String, Span), Span)>,
    /// The orders spent against the clock's limit (option `order_limit`).
    pub(super) spent: Spent,
    /// Checking one unit of a group: its order is the group's, spent once.
    pub(super) in_group: bool,
}

/// Check a side's order text against the battle as it stands.
pub fn check(
    battle: &Battle,
    side: &str,
    text: &str,
    pack: Option<&Pack>,
    options: &Options,
) -> Checked {
    let reading = read(text);
    let mut c = Checker {
        battle,
        side,
        pack,
        options,
        orders: SideOrders::default(),
        diagnostics: reading.diagnostics,
        moving: BTreeSet::new(),
        current: None,
        refused: BTreeSet::new(),
        follows: Vec::new(),
        spent: Default::default(),
        in_group: false,
    };
    for w in reading.orders {
        c.current = None;
        if w.group.is_empty() {
            c.one(w);
        } else {
            c.group(w);
        }
    }
    for (u, leader, span) in std::mem::take(&mut c.follows) {
        c.current = Some(u.id.clone());
        c.follow(&u, &leader, span);
    }
    c.diagnostics.sort_by_key(|d| d.span.start);
    Checked {
        orders: c.orders,
        diagnostics: c.diagnostics,
        refused: c.refused,
        source: text.to_string(),
    }
}

/// Who may pass through a friend under the game's options, for players.
fn passers(options: &Options) -> &'static str {
    use crate::games::fr_ancients::options::Interpenetration;
    match options.interpenetration {
        Interpenetration::Skirmishers => {
            "only Skirmishers, and Roman Battle Drill units one behind the other, pass through friends"
        }
        Interpenetration::LightTroops => {
            "only light troops, and Roman Battle Drill units one behind the other, pass through friends, and any unit through Skirmishers"
        }
        Interpenetration::All => "Skirmishers never pass through a unit in shieldwall or tortoise",
    }
}

impl Checker<'_> {
    /// [`Self::illegal`], for the checks that stop at the first refusal:
    /// always false.
    fn refused(&mut self, span: Span, message: impl Into<String>, note: impl Into<String>) -> bool {
        self.illegal(span, message, note);
        false
    }

    pub(super) fn illegal(
        &mut self,
        span: Span,
        message: impl Into<String>,
        note: impl Into<String>,
    ) {
        self.diagnostics
            .push(Diagnostic::new(OrderKind::Illegal, span, message).with_note(note));
        self.refuse_current();
    }

    pub(super) fn invalid(&mut self, d: Diagnostic<OrderKind>) {
        self.diagnostics.push(d);
        self.refuse_current();
    }

    fn refuse_current(&mut self) {
        if let Some(c) = &self.current {
            self.refused.insert(c.clone());
        }
    }

    pub(super) fn note(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::new(OrderKind::Note, span, message));
    }

    /// A unit or character by name (names compared as keys; ids accepted).
    pub(super) fn who(&mut self, (name, span): &(String, Span)) -> Option<Who> {
        let k = crate::names::key(name);
        if let Some(c) = self
            .battle
            .characters
            .values()
            .find(|c| crate::names::key(&c.name) == k || c.id == *name)
        {
            if c.side != self.side {
                self.illegal(
                    *span,
                    format!("{} is not one of your characters", c.name),
                    "a player orders only his own side's units and characters",
                );
                return None;
            }
            self.current = Some(c.id.clone());
            return Some(Who::Character(c.id.clone()));
        }
        if let Some(u) = self.battle.unit_named(name, self.side, true) {
            if u.side != self.side {
                self.illegal(
                    *span,
                    format!("{} is not one of your units", u.name),
                    "a player orders only his own side's units and characters",
                );
                return None;
            }
            if self.current.is_none() {
                self.current = Some(u.id.clone());
            }
            if !u.is_present() {
                self.illegal(
                    *span,
                    format!("{} is no longer on the table", u.name),
                    format!("it is {}", u.status.code()),
                );
                return None;
            }
            return Some(Who::Unit(Box::new(u.clone())));
        }
        let own = self
            .battle
            .units
            .values()
            .filter(|u| u.side == self.side)
            .map(|u| (u.name.as_str(), u.name.clone()))
            .chain(
                self.battle
                    .characters
                    .values()
                    .filter(|c| c.side == self.side)
                    .map(|c| (c.name.as_str(), c.name.clone())),
            );
        let mut d = Diagnostic::new(
            OrderKind::Invalid,
            *span,
            format!("there is no unit or character called '{name}'"),
        );
        if let Some(s) = crate::names::closest(name, own) {
            d = d.with_help(format!("did you mean '{s}'?"));
        }
        self.invalid(d);
        None
    }

    /// An enemy unit by name, for charges and shots.
    fn enemy(&mut self, (name, span): &(String, Span)) -> Option<Unit> {
        match self.battle.unit_named(name, self.side, false) {
            Some(u) if u.side == self.side => {
                self.illegal(
                    *span,
                    format!("{} is one of your own units", u.name),
                    "charges and shots are at enemy units",
                );
                None
            }
            Some(u) if !u.is_present() => {
                self.illegal(
                    *span,
                    format!("{} is no longer on the table", u.name),
                    format!("it is {}", u.status.code()),
                );
                None
            }
            Some(u) => Some(u.clone()),
            None => {
                let enemies = self
                    .battle
                    .present()
                    .filter(|u| u.side != self.side)
                    .map(|u| (u.name.as_str(), u.name.clone()));
                let mut d = Diagnostic::new(
                    OrderKind::Invalid,
                    *span,
                    format!("there is no enemy unit called '{name}'"),
                );
                if let Some(s) = crate::names::closest(name, enemies) {
                    d = d.with_help(format!("did you mean '{s}'?"));
                }
                self.invalid(d);
                None
            }
        }
    }

    pub(super) fn one(&mut self, w: Written) {
        let Some(who) = self.who(&w.who) else { return };
        let u = match (who, &w.order) {
            (Who::Character(c), WrittenOrder::Join { unit }) => return self.join(&c, unit),
            (Who::Character(c), WrittenOrder::Challenge { character }) => {
                return self.challenge(&c, character)
            }
            (Who::Character(c), _) => {
                let name = self.battle.characters[&c].name.clone();
                return self.illegal(
                    w.span,
                    format!("{name} is a character: characters join units and issue challenges"),
                    "§7 Characters; step 5 Challenges",
                );
            }
            (Who::Unit(u), WrittenOrder::Join { .. } | WrittenOrder::Challenge { .. }) => {
                return self.illegal(
                    w.span,
                    format!(
                        "{} is a unit: only characters join units and issue challenges",
                        u.name
                    ),
                    "§7 Characters",
                );
            }
            (Who::Unit(u), _) => u,
        };
        if let WrittenOrder::Deploy { .. } = w.order {
            return self.illegal(
                w.span,
                format!("{} is on the table already", u.name),
                "`deploy at` is for the deployment round before turn 1; in the battle write `move to`, `advance` or `wheel`",
            );
        }
        let movement = matches!(
            w.order,
            WrittenOrder::Move { .. }
                | WrittenOrder::Advance { .. }
                | WrittenOrder::Wheel { .. }
                | WrittenOrder::Turn { .. }
                | WrittenOrder::Follow { .. }
                | WrittenOrder::Face { .. }
                | WrittenOrder::Charge { .. }
                | WrittenOrder::PassThrough { .. }
                | WrittenOrder::Withdraw
        );
        if movement && !self.moving.insert(u.id.clone()) {
            return self.illegal(
                w.span,
                format!("{} has a movement order already", u.name),
                "a unit moves once in its movement phase (step 4)",
            );
        }
        if movement && !self.in_group && !self.spend(false, w.span) {
            return;
        }
        match &w.order {
            WrittenOrder::Move {
                x,
                y,
                facing,
                full_speed,
            } => {
                let to = Place::new(*x, *y, facing.unwrap_or(u.facing));
                self.movement(&u, to, *full_speed, w.span)
            }
            WrittenOrder::Face { facing, full_speed } => self.movement(
                &u,
                Place {
                    front: u.front,
                    facing: *facing,
                },
                *full_speed,
                w.span,
            ),
            WrittenOrder::Advance { .. }
            | WrittenOrder::Wheel { .. }
            | WrittenOrder::Turn { .. } => self.relative(&u, &w.order, w.span),
            WrittenOrder::Follow { leader } => self.follows.push((*u, leader.clone(), w.span)),
            WrittenOrder::Charge { target } => self.charge(&u, target, w.span),
            WrittenOrder::Shoot { target } => self.shoot(&u, target, w.span),
            WrittenOrder::HoldFire => self.hold(&u, w.span),
            WrittenOrder::FireSingly => {
                if u.weapons.contains(&Weapon::MassedBows) {
                    self.orders.fire_singly.insert(u.id.clone());
                } else {
                    self.illegal(
                        w.span,
                        format!("{} has no Massed Bows", u.name),
                        "only Archers (armed with Massed Bows) concentrate their bowfire (rule 4)",
                    );
                }
            }
            WrittenOrder::ShieldWall | WrittenOrder::Tortoise | WrittenOrder::FormLine => {
                self.form(&u, &w.order, w.span)
            }
            WrittenOrder::PassThrough { front } => self.pass_through(&u, front, w.span),
            WrittenOrder::Withdraw => self.withdraw(&u, w.span),
            WrittenOrder::CounterCharge => self.counter_charge(&u, w.span),
            WrittenOrder::OpenRanks => {
                self.orders.open_ranks.insert(u.id.clone());
            }
            WrittenOrder::Join { .. }
            | WrittenOrder::Challenge { .. }
            | WrittenOrder::Deploy { .. } => {}
        }
    }

    pub(super) fn movement(&mut self, u: &Unit, to: Place, full_speed: bool, span: Span) {
        let b = self.battle;
        if b.in_melee(u) {
            return self.illegal(
                span,
                format!("{} is in melee", u.name),
                "a unit in melee stays in it; skirmishers and light infantry may withdraw (rule 2)",
            );
        }
        let f = u.footprint_at(to);
        if !b.on_table(&f) {
            return self.illegal(
                span,
                format!("{} would leave the table", u.name),
                format!("the table is {} x {}", b.width, b.depth),
            );
        }
        if let Some(o) = b.present().find(|o| {
            o.id != u.id
                && o.attached_to.as_deref() != Some(u.id.as_str())
                && o.footprint().overlaps(&f)
        }) {
            return self.illegal(
                span,
                format!("{} would end overlapping {}", u.name, o.name),
                "units may touch but never overlap (step 4)",
            );
        }
        let turn = turn_between(u.facing, to.facing).abs();
        let distance = u.front.distance(to.front);
        let in_terrain = b.in_terrain(&u.footprint()) || b.in_terrain(&f);
        let measure = (turn, distance, in_terrain);
        if !self.within_troop_limits(u, to, measure, full_speed, span)
            || !self.clear_of_units(u, to, span)
            || !self.within_allowance(u, to, measure, span)
        {
            return;
        }
        if let Some(stop) = stop_on_way(b, u, to, &[], self.options) {
            let why = match b.units.get(&stop.by) {
                Some(o) if o.side != u.side => "to fight it, charge it (step 4)".to_string(),
                _ => passers(self.options).to_string(),
            };
            self.note(
                span,
                format!(
                    "{} stops at {:.1}, {:.1}: {} is in the way; {why}",
                    u.name,
                    stop.at.front.x,
                    stop.at.front.y,
                    b.name(&stop.by)
                ),
            );
        }
        self.orders.moves.push(UnitOrder::Move {
            unit: u.id.clone(),
            to,
            full_speed,
        });
    }

    /// The troop type's own limits on a move (rule 5's artillery, §5's
    /// tortoise, hoplites and the unmanoeuvreable): false when refused.
    fn within_troop_limits(
        &mut self,
        u: &Unit,
        to: Place,
        (turn, distance, in_terrain): (f64, f64, bool),
        full_speed: bool,
        span: Span,
    ) -> bool {
        let b = self.battle;
        if u.artillery == Some(ArtilleryKind::Catapult) && turn > 0.5 {
            return self.refused(
                span,
                format!("{} may not pivot", u.name),
                "Catapult or siege artillery may not even pivot once deployed (rule 5)",
            );
        }
        if u.artillery == Some(ArtilleryKind::Ballista) && turn > 0.5 {
            self.note(
                span,
                format!(
                    "{} pivots only if it does not fire in the missile phase (rule 5)",
                    u.name
                ),
            );
        }
        if let Some(cap) = move_cap(b, u, in_terrain) {
            if distance > cap + CONTACT {
                let what = if u.formation == Formation::Tortoise {
                    "in tortoise, movement is limited to 2\"/1\" (§5 Tortoise)"
                } else {
                    "hoplites in shieldwall move 2\"/0\" (§5 Hoplite)"
                };
                return self.refused(
                    span,
                    format!(
                        "{} moves {}, more than {}",
                        u.name,
                        b.scale.show(distance),
                        b.scale.show(cap)
                    ),
                    what,
                );
            }
        }
        if u.formation == Formation::ShieldWall && u.has(Ability::Hoplite) && distance > CONTACT {
            let arc = self.pack.and_then(Pack::movement_arc).unwrap_or(45.0);
            let way = turn_between(u.facing, bearing_of(to.front - u.front));
            if way < -arc - 0.5 || way > 90.5 {
                return self.refused(span, format!("{} moves off to its left", u.name), "hoplites in shieldwall move forward or to the right of their movement arc (§5 Hoplite)");
            }
        }
        if u.has(Ability::Unmanoeuvreable) && turn >= 89.5 && distance > CONTACT {
            return self.refused(
                span,
                format!("{} turns {turn:.0}° and moves", u.name),
                "turning 90 or 180 degrees takes a full turn: the whole move of the phase (§5 Unmanoeuvreable)",
            );
        }
        if u.has(Ability::Unmanoeuvreable) && turn > 0.5 {
            let how = if full_speed || turn >= 89.5 {
                "at full speed it takes a rally test, a DMZ if it fails"
            } else {
                "it wheels at half speed (write `at full speed` to risk the rally test)"
            };
            self.note(span, format!("{}: {how} (§5 Unmanoeuvreable)", u.name));
        }
        true
    }

    /// The units the move's line crosses: an enemy refuses it, and so do
    /// friends in shieldwall or tortoise for Skirmishers (§5).
    fn clear_of_units(&mut self, u: &Unit, to: Place, span: Span) -> bool {
        let b = self.battle;
        for o in b
            .present()
            .filter(|o| o.id != u.id && o.footprint().crosses_segment(u.front, to.front))
        {
            if o.side != u.side {
                return self.refused(
                    span,
                    format!("{} would move through {}", u.name, o.name),
                    "to fight an enemy unit, charge it (step 4)",
                );
            }
            let closed = matches!(o.formation, Formation::ShieldWall | Formation::Tortoise);
            if u.troop == TroopType::Skirmishers && closed {
                return self.refused(span, format!("{} would pass through {}, in {}", u.name, o.name, o.formation.code()), "units in shieldwall or tortoise may not be interpenetrated by Skirmishers (§5)");
            }
        }
        true
    }

    /// With a pack, the move against the unit's allowance: priced terrain
    /// stops it short (noted), else too long a move is refused.
    fn within_allowance(
        &mut self,
        u: &Unit,
        to: Place,
        (turn, distance, in_terrain): (f64, f64, bool),
        span: Span,
    ) -> bool {
        let b = self.battle;
        if let (Some(p), Some(a), Some(facing_change)) = (
            self.pack,
            allowance(b, u, in_terrain),
            self.pack.and_then(Pack::facing_change),
        ) {
            let free = u.has(Ability::Maneuverability) && !in_terrain;
            let turning = if turn > 0.5 && !free {
                facing_change
            } else {
                0.0
            };
            // Priced terrain spends the open allowance, as the engine does
            // (resolve.rs): too long a way stops short, it is not refused.
            let open = allowance(b, u, false).filter(|_| p.prices_terrain());
            if let Some((open, (cost, reach))) =
                open.and_then(|o| priced_path(p, b, u, u.place(), to, o - turning).map(|c| (o, c)))
            {
                if cost + turning > open + CONTACT {
                    self.note(
                        span,
                        format!(
                            "{} will stop short, {} along its way: the terrain makes the way cost {} of its {} (the pack's terrain costs: {})",
                            u.name,
                            b.scale.show(reach),
                            b.scale.show(cost + turning),
                            b.scale.show(open),
                            p.name
                        ),
                    );
                }
            } else if distance + turning > a + CONTACT {
                let cost = distance + turning;
                return self.refused(
                    span,
                    format!(
                        "{} needs {} and may move {}",
                        u.name,
                        b.scale.show(cost),
                        b.scale.show(a)
                    ),
                    format!(
                        "its allowance {} (the pack: {})",
                        if in_terrain {
                            "in terrain"
                        } else {
                            "in the open"
                        },
                        p.name
                    ),
                );
            }
        }
        true
    }

    fn charge(&mut self, u: &Unit, target: &(String, Span), span: Span) {
        let Some(t) = self.enemy(target) else { return };
        if !u.troop.may_charge() || u.is_demoralized() {
            let why = if u.is_demoralized() {
                "it is demoralized"
            } else {
                "it is artillery or baggage"
            };
            return self.illegal(
                span,
                format!("{} may not charge: {why}", u.name),
                "\"Artillery, baggage and demoralized units may not charge.\" (step 4)",
            );
        }
        if self.battle.in_melee(u) {
            return self.illegal(
                span,
                format!("{} is in melee", u.name),
                "a unit in melee fights where it stands (step 6)",
            );
        }
        let edge = t.footprint().arc_of_degrees(u.front, 45.0);
        let Some(place) = contact_place(self.battle, u, &t, edge) else {
            return self.illegal(span, format!("{} has no room to reach {}", u.name, t.name), "\"All charges must end with units in full base to base contact with no overlaps.\" (step 4)");
        };
        if u.troop.is_cavalry() && t.troop == TroopType::Elephants {
            self.note(span, format!("{} must pass a rally check at -2 to charge an elephant, or balk one base away (§5 Cause Fear)", u.name));
        }
        if let Some(a) = allowance(self.battle, u, self.battle.in_terrain(&u.footprint())) {
            let d = u.front.distance(place.front);
            if d > a + CONTACT {
                self.note(
                    span,
                    format!(
                        "{} is {} from contact with {} and moves {}: the charge will fall short",
                        u.name,
                        self.battle.scale.show(d),
                        t.name,
                        self.battle.scale.show(a)
                    ),
                );
            }
        }
        self.orders.moves.push(UnitOrder::Charge {
            unit: u.id.clone(),
            target: t.id.clone(),
        });
    }

    fn shoot(&mut self, u: &Unit, target: &(String, Span), span: Span) {
        let Some(w) = u.missile() else {
            return self.illegal(
                span,
                format!("{} has no missile weapon that shoots", u.name),
                "thrown weapons and pila only give bonuses in melee (§3)",
            );
        };
        let Some(t) = self.enemy(target) else { return };
        let arc = self.pack.and_then(Pack::fire_arc).unwrap_or(45.0);
        let legal = legal_targets(self.battle, self.options, arc, u, w);
        if !legal.iter().any(|(id, _)| *id == t.id) {
            let d = self.battle.distance(u, &t);
            return self.illegal(
                target.1,
                format!("{} cannot shoot at {}: {} away, range {}", u.name, t.name, self.battle.scale.show(d), self.battle.scale.show(w.range(self.battle.scale))),
                "a target must be in range (§3), in the fire arc (rule 3), in sight and not in melee (M6: the umpire's reading)",
            );
        }
        let (nearest, nd) = legal[0].clone();
        if t.id != nearest && !free_to_choose(self.battle, u, w, nd) {
            let nname = self.battle.name(&nearest);
            if self.battle.characters_with(&u.id).is_empty() {
                let note = if w.is_artillery() {
                    "artillery must shoot at its nearest target if that target is less than 6\" away (rule 4)"
                } else {
                    "every missile unit except Skirmishers, Light Cavalry, Light Chariots and Light Camelry must shoot at its nearest target within arc (rule 4)"
                };
                let d = Diagnostic::new(
                    OrderKind::Illegal,
                    target.1,
                    format!("{} must shoot at its nearest target, {nname}", u.name),
                )
                .with_note(note)
                .with_help(format!(
                    "write `{}: shoot {nname}`, or attach a character (§7)",
                    u.name
                ));
                self.invalid(d);
                return;
            }
            self.note(target.1, format!("{} shoots at {} only if it passes a rally test for its character (§7); otherwise at {nname}", u.name, t.name));
        }
        self.orders
            .shoot
            .insert(u.id.clone(), Shoot::At(t.id.clone()));
    }

    pub(super) fn hold(&mut self, u: &Unit, span: Span) {
        let Some(w) = u.missile() else {
            return self.note(
                span,
                format!("{} has no missile weapon that shoots", u.name),
            );
        };
        let arc = self.pack.and_then(Pack::fire_arc).unwrap_or(45.0);
        let nearest = legal_targets(self.battle, self.options, arc, u, w)
            .first()
            .map_or(f64::INFINITY, |(_, d)| *d);
        if !free_to_choose(self.battle, u, w, nearest) {
            return self.illegal(span, format!("{} must shoot", u.name), "units bound by target priority must shoot at their nearest target within arc (rule 4)");
        }
        self.orders.shoot.insert(u.id.clone(), Shoot::Hold);
    }

    pub(super) fn form(&mut self, u: &Unit, order: &WrittenOrder, span: Span) {
        let (formation, ok, why) = match order {
            WrittenOrder::ShieldWall => (
                Formation::ShieldWall,
                u.has(Ability::ShieldWall) || u.has(Ability::Hoplite),
                "only units with Shield Wall or Hoplite form shieldwall (§5)",
            ),
            WrittenOrder::Tortoise => (
                Formation::Tortoise,
                u.has(Ability::Tortoise),
                "Tortoise is limited to Roman legions post Marian reform (§5)",
            ),
            _ => (Formation::Normal, true, ""),
        };
        if !ok {
            return self.illegal(
                span,
                format!("{} cannot form {}", u.name, formation.code()),
                why,
            );
        }
        self.orders.moves.push(UnitOrder::Form {
            unit: u.id.clone(),
            formation,
        });
    }

    fn pass_through(&mut self, rear: &Unit, front: &(String, Span), span: Span) {
        let Some(Who::Unit(f)) = self.who(front) else {
            return;
        };
        let gap = self.battle.inches(self.options.adjacent_within);
        let why = if !rear.has(Ability::PassThrough) || !f.has(Ability::PassThrough) {
            Some("both units need Roman Battle Drill's Pass Through (§5)")
        } else if rear.is_demoralized() {
            Some("the rear unit must be undemoralised (§5 Pass Through)")
        } else if !directly_behind(&f, rear, gap) {
            Some("the two units must be directly behind/in front of one another (§5 Pass Through)")
        } else {
            None
        };
        match why {
            Some(w) => self.illegal(
                span,
                format!("{} cannot pass through {}", rear.name, f.name),
                w,
            ),
            None => self.orders.moves.push(UnitOrder::PassThrough {
                unit: rear.id.clone(),
                front: f.id.clone(),
            }),
        }
    }

    fn withdraw(&mut self, u: &Unit, span: Span) {
        let contacts = self.battle.contacts(u);
        let mine = allowance(self.battle, u, false);
        let enemies: Vec<(TroopType, Option<bool>)> = contacts
            .iter()
            .filter_map(|(e, _)| self.battle.units.get(e))
            .map(|e| {
                (
                    e.troop,
                    mine.zip(allowance(self.battle, e, false))
                        .map(|(m, a)| a < m),
                )
            })
            .collect();
        let rear = contacts
            .iter()
            .any(|(_, f)| *f == crate::geometry::Face::Rear);
        match may_withdraw(u.troop, rear, &enemies) {
            Withdrawal::Not(why) => self.illegal(span, format!("{} may not withdraw", u.name), why),
            Withdrawal::IfSlower => {
                self.note(
                    span,
                    format!(
                        "{} withdraws if the game master finds its enemies slower (rule 2)",
                        u.name
                    ),
                );
                self.orders
                    .moves
                    .push(UnitOrder::Withdraw { unit: u.id.clone() });
            }
            Withdrawal::May => self
                .orders
                .moves
                .push(UnitOrder::Withdraw { unit: u.id.clone() }),
        }
    }

    pub(super) fn counter_charge(&mut self, u: &Unit, span: Span) {
        if !u.troop.may_charge() {
            return self.illegal(
                span,
                format!("{} may not charge", u.name),
                "artillery and baggage may not charge (step 4)",
            );
        }
        if u.natural_charge_bonus() == Some(0) {
            return self.illegal(span, format!("{} has no natural charge bonus", u.name), "only a unit with a 'natural' charge bonus (not one due to missile weapons) may counter charge (rule 8)");
        }
        self.orders.counter_charge.insert(u.id.clone());
    }

    fn join(&mut self, c: &str, unit: &(String, Span)) {
        let Some(Who::Unit(u)) = self.who(unit) else {
            return;
        };
        let status = self.battle.characters[c].status.clone();
        if status == CharacterStatus::Killed {
            return self.illegal(unit.1, "a dead character joins no unit", "§7");
        }
        self.orders.joins.push((c.to_string(), u.id.clone()));
    }

    fn challenge(&mut self, c: &str, target: &(String, Span)) {
        let k = crate::names::key(&target.0);
        let Some(t) = self
            .battle
            .characters
            .values()
            .find(|x| crate::names::key(&x.name) == k || x.id == target.0)
        else {
            let enemies = self
                .battle
                .characters
                .values()
                .filter(|x| x.side != self.side)
                .map(|x| (x.name.as_str(), x.name.clone()));
            let mut d = Diagnostic::new(
                OrderKind::Invalid,
                target.1,
                format!("there is no character called '{}'", target.0),
            );
            if let Some(s) = crate::names::closest(&target.0, enemies) {
                d = d.with_help(format!("did you mean '{s}'?"));
            }
            return self.invalid(d);
        };
        if t.side == self.side {
            return self.illegal(
                target.1,
                format!("{} is one of your own characters", t.name),
                "challenges are issued to enemy characters (step 5)",
            );
        }
        let mine = self.battle.characters[c]
            .with
            .as_deref()
            .and_then(|u| self.battle.units.get(u));
        let theirs = t.with.as_deref().and_then(|u| self.battle.units.get(u));
        let touching = matches!((mine, theirs), (Some(a), Some(b)) if self.battle.touching(a, b));
        if !touching {
            self.note(target.1, "a challenge is fought only if the two characters' units are in contact in step 5; they are not now");
        }
        self.orders.challenges.push((c.to_string(), t.id.clone()));
    }
}
