//! Retreats (§9.8, O23, O24): one hex, by the book's four priorities —
//! (1) no enemy ZoC, no friend; (2) no enemy ZoC, a friend; (3) enemy ZoC,
//! a friend; (4) enemy ZoC, no friend. A friend's hex counts only if that
//! friend can itself retreat (it is displaced first, and so on down the
//! chain; no unit moves twice). Among equal hexes the owner's preference,
//! else the hex farthest from the enemy units of the combat, then nearest
//! the owner's home edge, then the lowest id. No hex: a step loss; only
//! the map's edge: eliminated. After a chain every unit in it checks morale
//! (`morale::retreat`: a retreat returns its chain, so this module never
//! calls back into morale).
//!
//! ```
//! use umpire::games::furor::retreat::{choose, Choice};
//! # use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # use umpire::games::furor::options::Options;
//! # let map = Map::from_spec(&MapSpec { columns: 12, rows: 15, ..MapSpec::default() }).unwrap();
//! # let u = |id: &str, side: &str, hex: &str| UnitSpec { id: id.into(), side: side.into(), kind: "infantry".into(), strength: 3, reduced: Some(1), hex: Some(hex.into()), ..UnitSpec::default() };
//! # let board = Board::from_spec(BoardSpec { map, units: vec![u("salian", "franks", "0508"), u("militia", "romans", "0507")], ..BoardSpec::default() }).unwrap();
//! let militia = board.unit(&"militia".into()).unwrap();
//! let enemies = ["0508".parse().unwrap()];
//! // 0406, 0506 and 0606 are free of the zone and 2 from the attacker: the lowest id.
//! assert_eq!(choose(&board, &Options::default(), militia, &enemies, &|_| vec![], &Default::default()),
//!            Choice::Moves(vec![("militia".into(), "0406".parse().unwrap())]));
//! // The owner's preference picks among them.
//! let prefer = |_: &_| vec!["0506".parse().unwrap()];
//! assert_eq!(choose(&board, &Options::default(), militia, &enemies, &prefer, &Default::default()),
//!            Choice::Moves(vec![("militia".into(), "0506".parse().unwrap())]));
//! ```

use crate::games::furor::ask::Question;
use crate::games::furor::board::{Board, Relation, Unit, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{Event, LossCause};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::{OffMapRetreat, Options};
use crate::games::furor::orders::Answer;
use crate::games::furor::play::Play;
use crate::games::furor::rules::Kind;
use crate::games::furor::{losses, zoc};
use std::collections::BTreeSet;

/// Where a retreating unit goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// The retreating unit into its hex, then each friend it displaces
    /// into the next hex of the chain, the last into a free hex.
    Moves(Vec<(UnitId, Hex)>),
    /// Only the map's edge is open.
    OffMap,
    /// No hex at all.
    Blocked,
}

/// Whether the unit stands with friendly baggage (R has no effect: §9.4).
pub fn held_by_baggage(board: &Board, u: &Unit) -> bool {
    u.kind == Kind::Baggage
        || u.hex.is_some_and(|h| {
            board
                .at(h)
                .any(|o| o.kind == Kind::Baggage && o.side == u.side)
        })
}

/// Whether `u` may step back from its hex into `n` (ignoring friends'
/// combat units, which the caller weighs): on the map, passable, no enemy
/// or neutral counter, no second commander.
fn open_step(board: &Board, u: &Unit, n: Hex) -> bool {
    let Some(h) = u.hex else { return false };
    if !board.map.passable(h, n)
        || board
            .at(n)
            .any(|o| board.relation(&u.side, o) != Relation::Friend)
    {
        return false;
    }
    let carries_commander = board
        .at(h)
        .any(|o| o.kind == Kind::Commander && o.side == u.side);
    let lone_commander = board.combat_unit_at(n).is_none() && board.commander_at(n).is_some();
    !(carries_commander && lone_commander)
}

/// Whether the friend could itself retreat without using the hexes of
/// the `excluded` units (a chain never moves a unit twice).
fn can_retreat(board: &Board, options: &Options, f: &Unit, excluded: &BTreeSet<UnitId>) -> bool {
    let mut visited = excluded.clone();
    visited.insert(f.id.clone());
    let mut stack = vec![f];
    while let Some(x) = stack.pop() {
        if held_by_baggage(board, x) || board.is_neutral(x) {
            continue;
        }
        let Some(h) = x.hex else { continue };
        for n in h.neighbours() {
            if !open_step(board, x, n)
                || (options.zoc_bars_retreat && zoc::in_enemy_zoc(board, options, &x.side, n))
            {
                continue;
            }
            match board.combat_unit_at(n) {
                None => return true,
                Some(g) if !visited.contains(&g.id) => {
                    visited.insert(g.id.clone());
                    stack.push(g);
                }
                Some(_) => {}
            }
        }
    }
    false
}

/// The hexes of the best of O24's priorities `u` may retreat to, each
/// with the friend it would displace; or, when there is none, why.
fn best_hexes(
    board: &Board,
    options: &Options,
    u: &Unit,
    excluded: &BTreeSet<UnitId>,
) -> Result<Vec<(Hex, Option<UnitId>)>, Choice> {
    let Some(here) = u.hex else {
        return Err(Choice::Blocked);
    };
    let mut inner = excluded.clone();
    inner.insert(u.id.clone());
    let mut edge = false;
    let mut candidates: Vec<(u8, Hex, Option<UnitId>)> = Vec::new();
    for n in here.neighbours() {
        if !board.map.contains(n) {
            edge = true;
            continue;
        }
        if !open_step(board, u, n) {
            continue;
        }
        let in_zoc = zoc::in_enemy_zoc(board, options, &u.side, n);
        if in_zoc && options.zoc_bars_retreat {
            continue;
        }
        let friend = board.combat_unit_at(n);
        if let Some(f) = friend {
            if inner.contains(&f.id) || !can_retreat(board, options, f, &inner) {
                continue;
            }
        }
        let priority = match (in_zoc, friend.is_some()) {
            (false, false) => 1,
            (false, true) => 2,
            (true, true) => 3,
            (true, false) => 4,
        };
        candidates.push((priority, n, friend.map(|f| f.id.clone())));
    }
    let Some(best) = candidates.iter().map(|c| c.0).min() else {
        return Err(if edge {
            Choice::OffMap
        } else {
            Choice::Blocked
        });
    };
    Ok(candidates
        .into_iter()
        .filter(|c| c.0 == best)
        .map(|(_, h, f)| (h, f))
        .collect())
}

/// The retreat hex for `u` by the priorities and tie-breaks of O24.
/// `prefs` gives an owner's preferred hexes per unit; `excluded` the units
/// already in the chain.
pub fn choose(
    board: &Board,
    options: &Options,
    u: &Unit,
    enemies: &[Hex],
    prefs: &dyn Fn(&UnitId) -> Vec<Hex>,
    excluded: &BTreeSet<UnitId>,
) -> Choice {
    let level = match best_hexes(board, options, u, excluded) {
        Ok(level) => level,
        Err(none) => return none,
    };
    let mut inner = excluded.clone();
    inner.insert(u.id.clone());
    let wanted = prefs(&u.id);
    let home = board.sides.get(&u.side).and_then(|s| s.home_edge);
    let pick = wanted
        .iter()
        .find_map(|w| level.iter().find(|c| c.0 == *w))
        .or_else(|| {
            level.iter().min_by_key(|c| {
                let away: u32 = enemies.iter().map(|e| u32::from(e.distance(c.0))).sum();
                (
                    std::cmp::Reverse(away),
                    home.map_or(0, |e| e.distance(&board.map, c.0)),
                    c.0,
                )
            })
        })
        .expect("a candidate of the best level");
    let mut moves = vec![(u.id.clone(), pick.0)];
    if let Some(f) = &pick.1 {
        match choose(board, options, board.get(f), enemies, prefs, &inner) {
            Choice::Moves(rest) => moves.extend(rest),
            // can_retreat found a way out for the friend, so choose does too.
            _ => return Choice::Blocked,
        }
    }
    Choice::Moves(moves)
}

/// Retreat the unit one hex (an R result, or a morale check's "equal").
/// Returns the displacement chain, the retreating unit first, when friends
/// were displaced (else nothing): its units check morale next (§9.8), as
/// `morale::retreat` has them do.
pub(crate) fn retreat(
    play: &mut Play,
    id: &UnitId,
    enemies: &[Hex],
) -> Result<Vec<UnitId>, EngineError> {
    let u = play.board.get(id).clone();
    let Some(from) = u.hex.filter(|_| u.is_on_map() && u.is_combat()) else {
        return Ok(Vec::new());
    };
    if held_by_baggage(&play.board, &u) {
        play.emit(Event::RetreatIgnored { unit: id.clone() });
        return Ok(Vec::new());
    }
    let answer = owners_choice(play, &u, from);
    let prefs = |x: &UnitId| match answer {
        Some(h) if x == id => vec![h],
        _ => play.retreat_preference(x).to_vec(),
    };
    let choice = choose(
        &play.board,
        play.options,
        &u,
        enemies,
        &prefs,
        &BTreeSet::new(),
    );
    match choice {
        Choice::Moves(moves) => {
            // The last displaced unit moves first, into its free hex; each
            // before it into the hex just vacated; the retreating unit last.
            let froms: Vec<Hex> = moves
                .iter()
                .map(|(m, _)| play.board.get(m).hex.expect("on the map"))
                .collect();
            for (m, to) in moves.iter().rev() {
                move_with_commander(play, m, *to);
            }
            play.emit(Event::Retreated {
                unit: id.clone(),
                from,
                to: moves[0].1,
            });
            for i in 1..moves.len() {
                play.emit(Event::Displaced {
                    unit: moves[i].0.clone(),
                    by: moves[i - 1].0.clone(),
                    from: froms[i],
                    to: moves[i].1,
                });
            }
            if moves.len() < 2 {
                return Ok(Vec::new());
            }
            Ok(moves.into_iter().map(|(m, _)| m).collect())
        }
        Choice::OffMap if play.options.off_map_retreat == OffMapRetreat::Eliminated => {
            play.emit(Event::ForcedOffMap {
                unit: id.clone(),
                from,
            });
            losses::take_steps(play, id, u8::MAX, LossCause::OffMap)?;
            Ok(Vec::new())
        }
        Choice::OffMap | Choice::Blocked => {
            play.emit(Event::CannotRetreat {
                unit: id.clone(),
                hex: from,
            });
            losses::take_steps(play, id, 1, LossCause::NoRetreat)?;
            Ok(Vec::new())
        }
    }
}

/// The hex the owner answered for a retreat his standing preference does
/// not settle among equally good hexes (FB-19), asking if he has not been.
fn owners_choice(play: &mut Play, u: &Unit, from: Hex) -> Option<Hex> {
    let mut hexes: Vec<Hex> = best_hexes(&play.board, play.options, u, &BTreeSet::new())
        .ok()?
        .into_iter()
        .map(|(h, _)| h)
        .collect();
    hexes.sort();
    let wanted = play.retreat_preference(&u.id);
    if hexes.len() < 2 || wanted.iter().any(|w| hexes.contains(w)) {
        return None;
    }
    let question = Question::Retreat {
        unit: u.id.clone(),
        from,
        hexes,
    };
    match play.open_choice("retreat", question)? {
        Answer::Hex(h) => Some(h),
        _ => None,
    }
}

/// Move a unit and the commander stacked with it (§6) into a hex.
pub(crate) fn move_with_commander(play: &mut Play, id: &UnitId, to: Hex) {
    let u = play.board.get(id);
    let side = u.side.clone();
    let commander = u.hex.and_then(|h| {
        play.board
            .at(h)
            .find(|o| o.kind == Kind::Commander && o.side == side)
            .map(|c| c.id.clone())
    });
    play.board.get_mut(id).hex = Some(to);
    if let Some(c) = commander {
        play.board.get_mut(&c).hex = Some(to);
    }
}
