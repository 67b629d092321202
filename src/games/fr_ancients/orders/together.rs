//! Relative orders, `follow` and group moves, checked as the moves they
//! come to: each is turned into the place the unit ends at
//! ([`super::relative`]) and checked by the ordinary movement checks, with
//! the units that move with it (the leader, the rest of the group) counted
//! at the places they move to. The confirmation says how the move was
//! written ("advances 6 to 30.0, 26.0 facing 0").

use super::check::{Checker, Who};
use super::parse::{Written, WrittenOrder};
use super::plan::UnitOrder;
use super::relative::{advance, ahead_of, follow, group_wheel, wheel};
use crate::diagnostic::Span;
use crate::games::fr_ancients::table::{Place, Unit};
use crate::geometry::turn_between;
use std::collections::BTreeMap;

/// How a relative order reads in the confirmation, and whether it is at
/// full speed.
fn how(order: &WrittenOrder) -> (String, bool) {
    match order {
        WrittenOrder::Advance {
            distance,
            full_speed,
        } => (format!("advances {distance}"), *full_speed),
        WrittenOrder::Wheel {
            right,
            degrees,
            full_speed,
        } => (
            format!("wheels {} {degrees}", if *right { "right" } else { "left" }),
            *full_speed,
        ),
        WrittenOrder::Turn { by, full_speed } => (
            match *by as i32 {
                180 => "turns about".to_string(),
                90 => "turns right".to_string(),
                _ => "turns left".to_string(),
            },
            *full_speed,
        ),
        WrittenOrder::Face { facing, full_speed } => (format!("faces {facing}"), *full_speed),
        _ => (String::new(), false),
    }
}

impl Checker<'_> {
    /// `advance N`, `wheel left|right N`, `turn left|right|about` of one
    /// unit: its place after, checked as a move there.
    pub(super) fn relative(&mut self, u: &Unit, order: &WrittenOrder, span: Span) {
        let to = match order {
            WrittenOrder::Advance { distance, .. } => {
                if *distance <= 0.0 {
                    return self.illegal(
                        span,
                        format!("{} cannot advance {distance}", u.name),
                        "`advance N` goes straight ahead N inches (or cm); to go elsewhere write `move to X, Y`",
                    );
                }
                advance(u.place(), *distance)
            }
            WrittenOrder::Wheel { right, degrees, .. } => {
                if !(0.0..=180.0).contains(degrees) || *degrees == 0.0 {
                    return self.illegal(
                        span,
                        format!("{} cannot wheel {degrees} degrees", u.name),
                        "a wheel turns by 1 to 180 degrees; write `turn about` to face the other way",
                    );
                }
                wheel(u, *right, *degrees)
            }
            WrittenOrder::Turn { by, .. } => Place {
                front: u.front,
                facing: u.facing + by,
            },
            _ => return,
        };
        let (said, full_speed) = how(order);
        self.planned(u, to, full_speed, span, said);
    }

    /// A move checked and, when it stands, said the way it was written.
    fn planned(&mut self, u: &Unit, to: Place, full_speed: bool, span: Span, said: String) {
        let before = self.orders.moves.len();
        self.movement(u, to, full_speed, span);
        if self.orders.moves.len() > before {
            self.orders.said.insert(u.id.clone(), said);
        }
    }

    /// Check `run` with the units of `plan` standing where they move to:
    /// a follower or a member of a group steps into room its leader or its
    /// neighbour leaves.
    fn with_plan(&mut self, plan: &BTreeMap<String, Place>, run: impl FnOnce(&mut Checker<'_>)) {
        let mut moved = self.battle.clone();
        for (id, p) in plan {
            if let Some(u) = moved.units.get_mut(id) {
                u.set_place(*p);
            }
        }
        let mut sub = Checker {
            battle: &moved,
            side: self.side,
            pack: self.pack,
            options: self.options,
            orders: std::mem::take(&mut self.orders),
            diagnostics: std::mem::take(&mut self.diagnostics),
            moving: std::mem::take(&mut self.moving),
            current: self.current.clone(),
            refused: std::mem::take(&mut self.refused),
            follows: Vec::new(),
            spent: self.spent,
            in_group: self.in_group,
        };
        run(&mut sub);
        self.spent = sub.spent;
        self.orders = sub.orders;
        self.diagnostics = sub.diagnostics;
        self.moving = sub.moving;
        self.refused = sub.refused;
    }

    /// `follow LEADER`, once every other order is known: the follower
    /// keeps its place relative to the leader's move.
    pub(super) fn follow(&mut self, u: &Unit, leader: &(String, Span), span: Span) {
        let Some(Who::Unit(l)) = self.who(leader) else {
            return;
        };
        self.current = Some(u.id.clone());
        if l.id == u.id {
            return self.illegal(
                span,
                format!("{} cannot follow itself", u.name),
                "`follow UNIT` names another friendly unit",
            );
        }
        let at = self.orders.moves.iter().position(|m| m.unit() == &l.id);
        let to = match at.map(|i| &self.orders.moves[i]) {
            Some(UnitOrder::Move { to, .. }) => *to,
            Some(_) => {
                return self.illegal(
                    span,
                    format!("{} does not move to a place: {} cannot follow it", l.name, u.name),
                    "a unit follows a move, an advance, a wheel or a turn; a charge, a pass through or a withdrawal is not followed",
                )
            }
            None => {
                return self.note(span, format!("{} has no move this phase: {} stays where it is", l.name, u.name));
            }
        };
        let mine = follow(u.place(), l.place(), to);
        let plan = BTreeMap::from([(l.id.clone(), to)]);
        let said = format!("follows {}", l.name);
        let before = self.orders.moves.len();
        self.with_plan(&plan, |c| c.planned(u, mine, false, span, said));
        // A follower in front of its leader moves first.
        if self.orders.moves.len() > before && ahead_of(l.place(), u.place()) > 0.0 {
            if let (Some(m), Some(i)) = (self.orders.moves.pop(), at) {
                self.orders.moves.insert(i, m);
            }
        }
    }
}

/// Orders a group takes: the relative moves, done as one body, and the
/// orders each unit could be given alone that move nobody.
fn for_a_group(order: &WrittenOrder) -> bool {
    matches!(
        order,
        WrittenOrder::Advance { .. }
            | WrittenOrder::Wheel { .. }
            | WrittenOrder::Turn { .. }
            | WrittenOrder::Face { .. }
            | WrittenOrder::Follow { .. }
            | WrittenOrder::ShieldWall
            | WrittenOrder::Tortoise
            | WrittenOrder::FormLine
            | WrittenOrder::HoldFire
            | WrittenOrder::FireSingly
            | WrittenOrder::CounterCharge
            | WrittenOrder::OpenRanks
    )
}

impl Checker<'_> {
    /// `group A, B, C: ORDER`: the units named, side by side or one behind
    /// another (ruling FA-60), take the order together.
    pub(super) fn group(&mut self, w: Written) {
        let mut units: Vec<Unit> = Vec::new();
        for m in &w.group {
            self.current = None;
            match self.who(m) {
                Some(Who::Unit(u)) if units.iter().any(|x| x.id == u.id) => {
                    return self.illegal(
                        m.1,
                        format!("{} is named twice in the group", u.name),
                        "name each unit of a group once",
                    );
                }
                Some(Who::Unit(u)) => units.push(*u),
                Some(Who::Character(c)) => {
                    let name = self.battle.characters[&c].name.clone();
                    return self.illegal(
                        m.1,
                        format!("{name} is a character, not a unit"),
                        "a group is made of units; a character moves with the unit he is with (§7)",
                    );
                }
                None => return,
            }
        }
        // What refuses the group refuses each of its units.
        let ids: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
        if !for_a_group(&w.order) {
            self.refused.extend(ids);
            return self.illegal(
                w.span,
                "a group moves together by `advance`, `wheel`, `turn`, `face` or `follow`",
                "charges, shots, `move to`, passing through and withdrawing are each unit's own: give each its own line",
            );
        }
        if let Some(stray) = self.stray(&units) {
            self.refused.extend(ids);
            return self.illegal(
                w.span,
                format!(
                    "{} is not beside or behind another unit of the group",
                    stray.name
                ),
                format!(
                    "a group's units stand within {} of one another, edge to edge (ruling FA-60)",
                    self.battle
                        .scale
                        .show(self.battle.inches(self.options.adjacent_within))
                ),
            );
        }
        if !self.spend(true, w.span) {
            self.refused.extend(ids);
            return;
        }
        let moves = !matches!(
            w.order,
            WrittenOrder::Follow { .. }
                | WrittenOrder::ShieldWall
                | WrittenOrder::Tortoise
                | WrittenOrder::FormLine
                | WrittenOrder::HoldFire
                | WrittenOrder::FireSingly
                | WrittenOrder::CounterCharge
                | WrittenOrder::OpenRanks
        );
        if !moves {
            self.in_group = true;
            for (name, span) in &w.group {
                self.current = None;
                self.one(Written {
                    who: (name.clone(), *span),
                    group: Vec::new(),
                    order: w.order.clone(),
                    span: w.span,
                });
            }
            self.in_group = false;
            return;
        }
        self.group_move(&units, &w.order, w.span);
    }

    /// A member too far from every other member, when the group is more than one unit.
    fn stray<'u>(&self, units: &'u [Unit]) -> Option<&'u Unit> {
        let gap = self.battle.inches(self.options.adjacent_within);
        let mut joined = vec![false; units.len()];
        joined[0] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for i in 0..units.len() {
                if joined[i] {
                    continue;
                }
                let near = (0..units.len()).any(|j| {
                    joined[j] && units[i].footprint().distance(&units[j].footprint()) <= gap + 1e-9
                });
                if near {
                    joined[i] = true;
                    grew = true;
                }
            }
        }
        joined.iter().position(|j| !j).map(|i| &units[i])
    }

    /// The group's relative move: every unit's place after it, each
    /// checked with the others where they go, the foremost moving first.
    fn group_move(&mut self, units: &[Unit], order: &WrittenOrder, span: Span) {
        if let WrittenOrder::Wheel { .. } = order {
            if let Some(u) = units
                .iter()
                .find(|u| turn_between(units[0].facing, u.facing).abs() > 0.5)
            {
                return self.illegal(
                    span,
                    format!("{} does not face as {} does", u.name, units[0].name),
                    "a group wheels as one body: its units face the same way (ruling FA-60)",
                );
            }
        }
        let places: Vec<Place> = match order {
            WrittenOrder::Wheel { right, degrees, .. } if *degrees > 0.0 && *degrees <= 180.0 => {
                group_wheel(units, *right, *degrees)
            }
            WrittenOrder::Advance { distance, .. } if *distance > 0.0 => units
                .iter()
                .map(|u| advance(u.place(), *distance))
                .collect(),
            WrittenOrder::Turn { by, .. } => units
                .iter()
                .map(|u| Place {
                    front: u.front,
                    facing: u.facing + by,
                })
                .collect(),
            WrittenOrder::Face { facing, .. } => units
                .iter()
                .map(|u| Place {
                    front: u.front,
                    facing: *facing,
                })
                .collect(),
            _ => {
                return self.illegal(
                    span,
                    "this group order goes nowhere",
                    "`advance N` takes a distance above 0, `wheel` 1 to 180 degrees",
                );
            }
        };
        let (how, full_speed) = how(order);
        let plan: BTreeMap<String, Place> = units
            .iter()
            .zip(&places)
            .map(|(u, p)| (u.id.clone(), *p))
            .collect();
        let mut order_of: Vec<usize> = (0..units.len()).collect();
        let lead = units[0].place();
        order_of.sort_by(|a, b| {
            ahead_of(lead, units[*b].place()).total_cmp(&ahead_of(lead, units[*a].place()))
        });
        for i in order_of {
            let u = &units[i];
            self.current = Some(u.id.clone());
            if !self.moving.insert(u.id.clone()) {
                self.illegal(
                    span,
                    format!("{} has a movement order already", u.name),
                    "a unit moves once in its movement phase (step 4)",
                );
                continue;
            }
            let said = format!("in a group, {how}");
            let to = places[i];
            self.with_plan(&plan, |c| c.planned(u, to, full_speed, span, said));
        }
    }
}
