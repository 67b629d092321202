//! Heroes, superheroes and commanders on the table (§9): their orders to
//! join, leave and move, what they do when their unit routs, and the
//! capture of a commander. Their +10/+20 % to morale is in `morale`, their
//! weight in melee in `melee`.

use super::events::{Event, LeaderAct};
use super::movement::place_attached;
use super::TurnState;
use crate::games::hyborian::orders::plan::{LeaderOrder, TurnOrders};
use crate::games::hyborian::rules::movement::single_figure_move;
use crate::games::hyborian::rules::UnitType;
use crate::games::hyborian::table::geometry::CONTACT;
use crate::games::hyborian::table::{Status, Table, Unit, UnitId};
use crate::geometry::EPSILON;
use glam::DVec2;

fn is_leader(u: &Unit) -> bool {
    matches!(
        u.kind,
        UnitType::Commander | UnitType::Hero | UnitType::Superhero
    )
}

/// Where a leader stands to join a unit: the centre of its rear edge (§9).
fn rear_of(u: &Unit) -> DVec2 {
    let fp = u.footprint();
    fp.centre - fp.ahead * fp.half_depth
}

fn detach(turn: &mut TurnState, id: &str) {
    let Some(l) = turn.table.units.get_mut(id) else {
        return;
    };
    let Some(host) = l.attached_to.take() else {
        return;
    };
    let unit_name = turn
        .table
        .units
        .get(&host)
        .map_or(host.clone(), |h| h.name.clone());
    let l = &turn.table.units[id];
    turn.events.push(Event::LeaderActed {
        unit: l.id.clone(),
        name: l.name.clone(),
        act: LeaderAct::Left { unit_name },
    });
}

/// Move a leader straight toward `to`, at most his speed; true if he got there.
fn walk(turn: &mut TurnState, id: &str, to: DVec2) -> bool {
    let l = turn.table.units.get_mut(id).expect("leader");
    let speed = single_figure_move(l.kind, l.mounted);
    let d = to - l.front;
    let step = d.length().min(speed);
    if step > EPSILON {
        l.front += d.normalize() * step;
        turn.events.push(Event::LeaderActed {
            unit: l.id.clone(),
            name: l.name.clone(),
            act: LeaderAct::Moved { distance: step },
        });
    }
    step >= d.length() - EPSILON
}

fn on_table(table: &Table, p: DVec2) -> bool {
    p.x >= 0.0 && p.y >= 0.0 && p.x <= table.width && p.y <= table.depth
}

/// Carry out the leaders' orders at the start of the turn, in id order
/// (ruling M-14): leave, join (moving to the unit at the leader's speed,
/// joining when he reaches its rear), or move to a place.
pub(crate) fn orders(turn: &mut TurnState, orders: &TurnOrders) {
    for (id, o) in &orders.units {
        if let Some(stay) = o.stay_with_rout {
            turn.table.morale.stay_with_rout.insert(id.clone(), stay);
        }
        let Some(order) = &o.leader else { continue };
        // A sleeping hero or a blinded commander does not move (§10, ruling S-13).
        let Some(l) = turn.table.units.get(id).filter(|l| {
            is_leader(l) && l.status.is_present() && !super::spells::spellbound(&turn.table, id)
        }) else {
            continue;
        };
        let side = l.side.clone();
        match order {
            LeaderOrder::Leave => detach(turn, id),
            LeaderOrder::Join(t) => {
                let Some(host) = turn.table.units.get(t).filter(|h| {
                    h.status.is_present() && h.side == side && !h.kind.is_single_figure()
                }) else {
                    continue;
                };
                if turn.table.units[id].attached_to.as_deref() == Some(t.as_str()) {
                    continue;
                }
                let (dest, unit_name) = (rear_of(host), host.name.clone());
                detach(turn, id);
                if walk(turn, id, dest) {
                    let l = turn.table.units.get_mut(id).expect("leader");
                    l.attached_to = Some(t.clone());
                    turn.events.push(Event::LeaderActed {
                        unit: id.clone(),
                        name: l.name.clone(),
                        act: LeaderAct::Joined {
                            unit: t.clone(),
                            unit_name,
                        },
                    });
                }
            }
            LeaderOrder::MoveTo(p) => {
                detach(turn, id);
                walk(turn, id, *p);
                let l = &turn.table.units[id];
                if !on_table(&turn.table, l.front) {
                    leave_table(turn, id);
                }
            }
        }
    }
    place_attached(&mut turn.table);
}

/// A leader leaves the table; a commander's troops will test (§9).
fn leave_table(turn: &mut TurnState, id: &str) {
    let l = turn.table.units.get_mut(id).expect("leader");
    l.status = Status::OffTable;
    l.attached_to = None;
    turn.events.push(Event::LeftTable {
        unit: l.id.clone(),
        name: l.name.clone(),
    });
    if l.kind == UnitType::Commander {
        turn.morale.commander_lost.insert(l.side.clone());
    }
}

fn capture(turn: &mut TurnState, id: &str, by: Option<String>) {
    let l = turn.table.units.get_mut(id).expect("leader");
    l.status = Status::Captured;
    l.attached_to = None;
    l.in_melee_with.clear();
    turn.events.push(Event::Captured {
        unit: l.id.clone(),
        name: l.name.clone(),
        by,
    });
    if l.kind == UnitType::Commander {
        turn.morale.commander_lost.insert(l.side.clone());
    }
}

/// The unit `host` is gone from the table: its leaders are taken with it
/// if it surrendered, carried off if it left the table, and otherwise left
/// standing where they are (ruling M-15).
pub(crate) fn host_gone(turn: &mut TurnState, host: &str, surrendered: bool) {
    let gone_off = turn
        .table
        .units
        .get(host)
        .is_some_and(|h| h.status == Status::OffTable);
    let leaders: Vec<UnitId> = turn
        .table
        .units
        .values()
        .filter(|l| l.attached_to.as_deref() == Some(host) && l.status.is_present())
        .map(|l| l.id.clone())
        .collect();
    for l in leaders {
        if surrendered {
            capture(turn, &l, None);
        } else if gone_off {
            leave_table(turn, &l);
        } else {
            detach(turn, &l);
        }
    }
}

/// A unit routs: each leader with it stays or leaves by his standing
/// order; without one, heroes stay and commanders leave (ruling M-16).
pub(crate) fn unit_routs(turn: &mut TurnState, host: &str) {
    let leaders: Vec<(UnitId, bool)> = turn
        .table
        .units
        .values()
        .filter(|l| l.attached_to.as_deref() == Some(host) && l.status.is_present())
        .map(|l| {
            let default = l.kind != UnitType::Commander;
            let stay = turn
                .table
                .morale
                .stay_with_rout
                .get(&l.id)
                .copied()
                .unwrap_or(default);
            (l.id.clone(), stay)
        })
        .collect();
    let unit_name = turn
        .table
        .units
        .get(host)
        .map_or(host.to_string(), |h| h.name.clone());
    for (l, stay) in leaders {
        if stay {
            let name = turn.table.units[&l].name.clone();
            turn.events.push(Event::LeaderActed {
                unit: l,
                name,
                act: LeaderAct::StayedWithRout {
                    unit_name: unit_name.clone(),
                },
            });
        } else {
            detach(turn, &l);
        }
    }
}

/// Capture of commanders (§9): alone and touched by an enemy unit, or with
/// a unit that surrendered; carried off with a unit that left the table.
pub(crate) fn captures(turn: &mut TurnState) {
    let hosts: Vec<(UnitId, bool)> = turn
        .table
        .units
        .values()
        .filter(|l| l.status.is_present())
        .filter_map(|l| l.attached_to.clone())
        .filter_map(|h| {
            turn.table
                .units
                .get(&h)
                .filter(|x| !x.status.is_present())
                .map(|x| {
                    (
                        h.clone(),
                        matches!(x.status, Status::Surrendered | Status::Captured),
                    )
                })
        })
        .collect();
    for (h, surrendered) in hosts {
        host_gone(turn, &h, surrendered);
    }
    let alone: Vec<UnitId> = turn
        .table
        .units
        .values()
        .filter(|c| {
            c.kind == UnitType::Commander && c.status.is_present() && c.attached_to.is_none()
        })
        .map(|c| c.id.clone())
        .collect();
    for c in alone {
        let me = &turn.table.units[&c];
        let fp = me.footprint();
        let by = turn
            .table
            .units
            .values()
            .find(|e| {
                e.side != me.side
                    && e.status.is_present()
                    && !e.kind.is_single_figure()
                    && (me.in_melee_with.contains(&e.id) || e.footprint().distance(&fp) <= CONTACT)
            })
            .map(|e| e.name.clone());
        if let Some(by) = by {
            for e in turn.table.units.values_mut() {
                e.in_melee_with.remove(&c);
            }
            capture(turn, &c, Some(by));
        }
    }
}
