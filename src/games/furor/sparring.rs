//! A sparring partner: a simple, deterministic player that writes a whole
//! player-turn for the phasing side — every combat unit not yet in contact
//! marches on the nearest enemy by the cheapest legal route, then every
//! enemy within reach is attacked by all who can join in, if the odds are
//! 1/1 or better. For demonstrations, benchmarks and the whole-game tests;
//! it knows the rules only through the engine's own functions.
//!
//! ```
//! use umpire::games::furor::{scenario::shipped, sparring, sequence::{resolve, StopAfter}};
//! use umpire::games::furor::{options::Options, orders::Reactions};
//! use umpire::dice::SeededDice;
//! let board = shipped("vouille").unwrap().start(&Options::default(), &Default::default(), &"visigoths".into()).unwrap();
//! let orders = sparring::orders(&board, &Options::default());
//! assert!(!orders.moves.is_empty());
//! let r = resolve(&board, &orders, &Reactions::default(), &Options::default(), &mut SeededDice::new([1; 32]), StopAfter::PlayerTurn).unwrap();
//! assert_eq!(r.board.phasing().as_str(), "franks");
//! ```

use crate::games::furor::board::{Board, Relation, Unit, UnitId};
use crate::games::furor::combat::{strengths, Attacker};
use crate::games::furor::movement::{reachable, Start};
use crate::games::furor::options::Options;
use crate::games::furor::orders::{Advance, Attack, Move, PlayerTurnOrders, Route};
use crate::games::furor::rules::crt::Column;
use crate::games::furor::zoc;
use std::collections::{BTreeMap, BTreeSet};

fn enemies<'a>(board: &'a Board, u: &'a Unit) -> impl Iterator<Item = &'a Unit> + 'a {
    board.units.values().filter(move |e| {
        e.is_on_map() && e.is_combat() && board.relation(&u.side, e) == Relation::Enemy
    })
}

/// The phasing side's orders for this player-turn.
pub fn orders(board: &Board, options: &Options) -> PlayerTurnOrders {
    let side = board.phasing().clone();
    let mut scratch = board.clone();
    let mut moves = Vec::new();
    let movers: Vec<UnitId> = board
        .units
        .values()
        .filter(|u| u.side == side && u.is_on_map() && u.is_combat())
        .map(|u| u.id.clone())
        .collect();
    for id in movers {
        let u = scratch.get(&id).clone();
        let Some(at) = u.hex else { continue };
        if zoc::adjacent_enemies(&scratch, &side, at).next().is_some() {
            continue;
        }
        let Some(goal) = enemies(&scratch, &u)
            .filter_map(|e| e.hex)
            .min_by_key(|h| (h.distance(at), *h))
        else {
            continue;
        };
        let best = reachable(&scratch, options, &u, Start::fresh(&scratch, &u, at))
            .into_iter()
            .filter(|(h, _)| h.distance(goal) < at.distance(goal))
            .min_by(|(a, (ca, pa)), (b, (cb, pb))| {
                (a.distance(goal), ca, pa).cmp(&(b.distance(goal), cb, pb))
            });
        if let Some((to, (_, path))) = best {
            scratch.get_mut(&id).hex = Some(to);
            moves.push(Move {
                unit: id,
                route: Route::Path(path),
                charge: None,
                feigned_flight: None,
            });
        }
    }
    PlayerTurnOrders {
        moves,
        attacks: attacks(&scratch, options),
        ..PlayerTurnOrders::default()
    }
}

/// Attacks on every enemy within reach, strongest odds first, each unit once.
fn attacks(board: &Board, options: &Options) -> Vec<Attack> {
    let side = board.phasing().clone();
    let mut used: BTreeSet<UnitId> = BTreeSet::new();
    let mut out = Vec::new();
    let targets: Vec<&Unit> = board
        .units
        .values()
        .filter(|t| t.is_on_map() && t.is_combat() && board.relation(&side, t) == Relation::Enemy)
        .collect();
    for t in targets {
        let Some(th) = t.hex else { continue };
        let mut with = Vec::new();
        for u in board
            .units
            .values()
            .filter(|u| u.side == side && u.is_on_map() && u.is_combat() && !used.contains(&u.id))
        {
            let Some(h) = u.hex else { continue };
            let engaged = zoc::adjacent_enemies(board, &side, h).next().is_some();
            if h.is_adjacent(th) && board.map.passable(h, th) {
                with.push(Attacker {
                    unit: u.id.clone(),
                    fire: false,
                });
            } else if u.kind.is_missile() && !engaged && h.distance(th) <= u.range {
                with.push(Attacker {
                    unit: u.id.clone(),
                    fire: true,
                });
            }
        }
        if with.is_empty() || with.iter().all(|a| a.fire) && t.kind.is_missile() {
            continue;
        }
        let odds = strengths(board, options, &BTreeMap::new(), t, &with);
        if odds.column < Column::OneOne {
            continue;
        }
        used.extend(with.iter().map(|a| a.unit.clone()));
        let advance = with
            .iter()
            .find(|a| !a.fire)
            .map_or(Advance::None, |a| Advance::Unit(a.unit.clone()));
        out.push(Attack {
            target: t.id.clone(),
            attackers: with.iter().map(|a| a.unit.clone()).collect(),
            fire: with
                .iter()
                .filter(|a| a.fire)
                .map(|a| a.unit.clone())
                .collect(),
            advance,
            advance_commander: false,
            losses: Vec::new(),
            min_odds: None,
            all: false,
            otherwise: None,
        });
    }
    out
}
