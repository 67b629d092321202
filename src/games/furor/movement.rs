//! Movement (§7, §5, §8): what each step costs on the Terrain Effects
//! Chart, which steps are legal (terrain, enemy units, zones of control,
//! stacking), the minimal one-hex move, and the cheapest legal routes the
//! umpire finds for moves written as destinations and for impetuous rushes.
//! Moves are carried out one unit at a time in the written order
//! ([`carry_out`]); an illegal move is refused whole.
//!
//! ```
//! use umpire::games::furor::movement::step_cost;
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # use umpire::games::furor::options::Options;
//! use umpire::games::furor::rules::HalfMp;
//! # let map = Map::from_spec(&toml::from_str("columns = 12\nrows = 15\nhexes = { \"0509\" = \"woods\" }").unwrap()).unwrap();
//! let h = |s: &str| s.parse().unwrap();
//! assert_eq!(step_cost(&map, h("0508"), h("0509"), true), Some(HalfMp(4)));   // woods: 2 MP
//! assert_eq!(step_cost(&map, h("0508"), h("0507"), true), Some(HalfMp(2)));   // clear: 1 MP
//! ```

use crate::games::furor::board::{Board, Relation, Unit, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{Event, ImpetuousCause, LossCause, Refusal};
use crate::games::furor::hex::Hex;
use crate::games::furor::map::Map;
use crate::games::furor::options::{Options, RoadBonus};
use crate::games::furor::orders::{Move, Route};
use crate::games::furor::play::Play;
use crate::games::furor::rules::special::{IMPETUOUS_NEAR, IMPETUOUS_RUSH_ON};
use crate::games::furor::rules::terrain::{
    HexsideFeature, FORD_COST, ROAD_COST, STREAM_CROSSING_EXTRA,
};
use crate::games::furor::rules::{HalfMp, Kind, Mark, MoraleOutcome};
use crate::games::furor::zoc;
use crate::games::furor::{charge, losses, morale, special};
use std::collections::{BTreeMap, BTreeSet};

/// What entering `to` from the adjacent `from` costs (TEC, R8, O8);
/// `road` says whether the road rate may apply to this step. `None`:
/// impassable.
pub fn step_cost(map: &Map, from: Hex, to: Hex, road: bool) -> Option<HalfMp> {
    if !map.passable(from, to) {
        return None;
    }
    let hex = map.terrain(to).move_cost()?;
    Some(match map.crossing(from, to) {
        Some(HexsideFeature::Ford) => hex.max(FORD_COST),
        Some(HexsideFeature::Stream) => hex + STREAM_CROSSING_EXTRA,
        _ if road && map.along_road(from, to) => ROAD_COST,
        _ => hex,
    })
}

/// Where a stretch of steps starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Start {
    pub hex: Hex,
    /// Movement left.
    pub left: HalfMp,
    /// Nothing moved yet this phase: the minimal move is open (§7).
    pub first: bool,
    /// The road rate still applies (O7's option: only while on the road it started on).
    pub on_road: bool,
}

impl Start {
    /// A unit about to make its move.
    pub fn fresh(board: &Board, u: &Unit, hex: Hex) -> Start {
        Start {
            hex,
            left: HalfMp::whole(u.mp),
            first: true,
            on_road: board.map.has_road(hex),
        }
    }
}

/// A legal stretch of steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walk {
    pub spent: HalfMp,
    /// The first step goes from one enemy ZoC to another and needs
    /// optional rule 11.1's test.
    pub zoc_test: bool,
}

/// Whether `u` entering hex `h` overruns `o` there (§6, O5): `u` is a
/// combat unit and `o` an enemy commander with no combat unit in `h`. A
/// neutral commander is not overrun: Chararic's corps blocks its hexes (O37).
pub fn overruns(board: &Board, u: &Unit, o: &Unit, h: Hex) -> bool {
    u.is_combat()
        && o.kind == Kind::Commander
        && board.relation(&u.side, o) == Relation::Enemy
        && board.combat_unit_at(h).is_none()
}

/// The lone enemy commanders the unit overruns along the path, with
/// their hexes, in the order it enters them (§6, O5).
pub fn overrun_on(board: &Board, u: &Unit, path: &[Hex]) -> Vec<(UnitId, Hex)> {
    path.iter()
        .flat_map(|&h| {
            board
                .at(h)
                .filter(move |o| overruns(board, u, o, h))
                .map(move |o| (o.id.clone(), h))
        })
        .collect()
}

/// Whether the unit may end its move (or advance) in the hex (§5, O2): a
/// lone enemy commander it would overrun there does not count (§6, O5).
pub fn can_stand(board: &Board, u: &Unit, h: Hex) -> bool {
    let others: Vec<&Unit> = board
        .at(h)
        .filter(|o| o.id != u.id && !overruns(board, u, o, h))
        .collect();
    if others
        .iter()
        .any(|o| board.relation(&u.side, o) != Relation::Friend)
    {
        return false;
    }
    let combat = others.iter().any(|o| o.is_combat());
    let commander = others.iter().any(|o| o.kind == Kind::Commander);
    let baggage = others.iter().any(|o| o.kind == Kind::Baggage);
    match u.kind {
        Kind::Commander => !commander && (combat || !baggage),
        Kind::Baggage => !baggage && (combat || !commander),
        _ => !combat,
    }
}

/// The rules of one step from `from` into `to` other than its cost.
fn step_rule(
    board: &Board,
    options: &Options,
    u: &Unit,
    from: Hex,
    to: Hex,
    at_start: bool,
) -> Result<bool, Refusal> {
    if !from.is_adjacent(to) {
        return Err(Refusal::NotAdjacent { from, to });
    }
    if !board.map.contains(to) {
        return Err(Refusal::OffMap { hex: to });
    }
    if !board.map.passable(from, to) {
        return Err(Refusal::Impassable { from, to });
    }
    // A combat unit may enter (and so overrun) a lone enemy commander's
    // hex, passing or stopping (§6, O5).
    let blocked = board
        .at(to)
        .any(|o| board.relation(&u.side, o) != Relation::Friend && !overruns(board, u, o, to));
    if blocked {
        return Err(Refusal::Occupied { hex: to });
    }
    let into_zoc = zoc::in_enemy_zoc(board, options, &u.side, to);
    let mut zoc_test = false;
    if into_zoc && zoc::in_enemy_zoc(board, options, &u.side, from) {
        if at_start && options.zoc_to_zoc_test && u.is_combat() {
            zoc_test = true;
        } else {
            return Err(Refusal::ZocToZoc { from, to });
        }
    }
    // Only friends are left in the hex here: enemies block, and a lone
    // enemy commander is overrun, so the unit may stop on his hex (O3, O5).
    if into_zoc && !can_stand(board, u, to) {
        return Err(Refusal::FriendInZoc { hex: to });
    }
    Ok(zoc_test)
}

/// Check a stretch of steps for the unit from `start` (§7, §8, §5): every
/// rule but the dice. The last hex must be one the unit may stand in.
///
/// # Errors
/// The first rule the stretch breaks.
pub fn check_walk(
    board: &Board,
    options: &Options,
    u: &Unit,
    start: Start,
    path: &[Hex],
) -> Result<Walk, Refusal> {
    let mut spent = HalfMp(0);
    let mut at = start.hex;
    let mut on_road = start.on_road;
    let mut zoc_test = false;
    for (i, &to) in path.iter().enumerate() {
        if i > 0 && zoc::in_enemy_zoc(board, options, &u.side, at) {
            return Err(Refusal::StopsInZoc { hex: to });
        }
        zoc_test |= step_rule(board, options, u, at, to, i == 0)?;
        let road = options.road_bonus == RoadBonus::PerStep || on_road;
        let cost =
            step_cost(&board.map, at, to, road).ok_or(Refusal::Impassable { from: at, to })?;
        on_road &= board.map.along_road(at, to);
        let minimal = start.first && path.len() == 1;
        if spent + cost > start.left && !minimal {
            return Err(Refusal::TooFewMp {
                hex: to,
                needed: spent + cost,
                left: start.left,
            });
        }
        spent = if minimal {
            cost.min(start.left)
        } else {
            spent + cost
        };
        at = to;
    }
    if let Some(&end) = path.last() {
        if !can_stand(board, u, end) {
            return Err(Refusal::Stacking { hex: end });
        }
    }
    Ok(Walk { spent, zoc_test })
}

/// Every hex the unit can legally end a stretch in from `start`, with the
/// cheapest path there (ties: the path of lowest hex ids). Never uses
/// optional rule 11.1's risky step.
pub fn reachable(
    board: &Board,
    options: &Options,
    u: &Unit,
    start: Start,
) -> BTreeMap<Hex, (HalfMp, Vec<Hex>)> {
    let mut best: BTreeMap<Hex, (HalfMp, Vec<Hex>)> = BTreeMap::new();
    let mut seen: BTreeSet<(Hex, bool)> = BTreeSet::new();
    let mut queue: BTreeSet<(HalfMp, Vec<Hex>, bool)> = BTreeSet::new();
    queue.insert((HalfMp(0), Vec::new(), start.on_road));
    while let Some((cost, path, on_road)) = queue.pop_first() {
        let at = path.last().copied().unwrap_or(start.hex);
        if !seen.insert((at, on_road)) {
            continue;
        }
        if !path.is_empty() && can_stand(board, u, at) {
            best.entry(at).or_insert_with(|| (cost, path.clone()));
        }
        if !path.is_empty() && zoc::in_enemy_zoc(board, options, &u.side, at) {
            continue;
        }
        for to in at.neighbours() {
            if !matches!(
                step_rule(board, options, u, at, to, path.is_empty()),
                Ok(false)
            ) {
                continue;
            }
            let road = options.road_bonus == RoadBonus::PerStep || on_road;
            let Some(c) = step_cost(&board.map, at, to, road) else {
                continue;
            };
            let minimal = start.first && path.is_empty();
            if cost + c > start.left && !minimal {
                continue;
            }
            let total = if cost + c > start.left {
                start.left
            } else {
                cost + c
            };
            let mut next = path.clone();
            next.push(to);
            // A minimal move over the allowance ends the move.
            let over = cost + c > start.left;
            if over {
                if can_stand(board, u, to) {
                    best.entry(to).or_insert((total, next));
                }
                continue;
            }
            queue.insert((total, next, on_road && board.map.along_road(at, to)));
        }
    }
    best
}

/// Carry out one written move (§7): feigned flight first if declared,
/// then the route, refused whole if any rule forbids it.
pub(crate) fn carry_out(play: &mut Play, mv: &Move) -> Result<(), EngineError> {
    let id = mv.unit.clone();
    if let Some(target) = &mv.feigned_flight {
        special::feigned_flight::attempt(play, &id, target)?;
        if play.options.feigned_flight_whole_move {
            play.tally.moved.insert(id);
            return Ok(());
        }
    }
    let u = play.board.get(&id).clone();
    let refuse = |play: &mut Play, reason| {
        play.emit(Event::MoveRefused {
            unit: id.clone(),
            reason,
        });
        Ok(())
    };
    let Some(from) = u.hex.filter(|_| u.is_on_map()) else {
        return refuse(play, Refusal::NotOnMap);
    };
    if u.side != play.side {
        return refuse(
            play,
            if play.board.is_neutral(&u) {
                Refusal::Neutral
            } else {
                Refusal::NotYours
            },
        );
    }
    if !play.tally.moved.insert(id.clone()) {
        return refuse(play, Refusal::AlreadyMoved);
    }
    let start = Start::fresh(&play.board, &u, from);
    let path = match &mv.route {
        Route::Path(p) => p.clone(),
        Route::To(dest) if *dest == from => Vec::new(),
        Route::To(dest) => match reachable(&play.board, play.options, &u, start).remove(dest) {
            Some((_, p)) => p,
            None => return refuse(play, Refusal::NoRoute { to: *dest }),
        },
    };
    if let Some(target) = &mv.charge {
        match charge::check(&play.board, play.options, &u, &path, target) {
            Ok(()) => {}
            Err(reason) => play.emit(Event::ChargeRefused {
                unit: id.clone(),
                target: target.clone(),
                reason,
            }),
        }
    }
    if path.is_empty() {
        return Ok(());
    }
    let walk = match check_walk(&play.board, play.options, &u, start, &path) {
        Ok(w) => w,
        Err(reason) => return refuse(play, reason),
    };
    let charging = mv
        .charge
        .clone()
        .filter(|t| charge::check(&play.board, play.options, &u, &path, t).is_ok());
    if walk.zoc_test && !zoc_test(play, &u)? {
        return Ok(());
    }
    walk_steps(play, &id, start, &path, charging)
}

/// Optional rule 11.1's test (O28): whether the unit may take the step.
fn zoc_test(play: &mut Play, u: &Unit) -> Result<bool, EngineError> {
    let value = morale::value(&play.board, play.options, u);
    let roll = play.roll_counted("zoc", &u.id)?;
    let outcome = crate::games::furor::rules::morale_outcome(roll, value);
    play.emit(Event::ZocTest {
        unit: u.id.clone(),
        roll,
        morale: value,
        outcome,
    });
    match outcome {
        MoraleOutcome::Holds => Ok(true),
        MoraleOutcome::Retreats => Ok(false),
        MoraleOutcome::LosesStep => {
            losses::take_steps(play, &u.id, 1, LossCause::ZocTest)?;
            Ok(false)
        }
    }
}

/// Walk a checked path step by step: impetuous tests, overrun commanders.
fn walk_steps(
    play: &mut Play,
    id: &UnitId,
    start: Start,
    path: &[Hex],
    charging: Option<UnitId>,
) -> Result<(), EngineError> {
    let mut walked = Vec::new();
    let mut spent = HalfMp(0);
    let mut at = start.hex;
    let mut on_road = start.on_road;
    for &to in path {
        if impetuous_test_due(play, id, to) {
            play.tally.impetuous_tested.insert(id.clone());
            let roll = play.roll_counted("impetuous", id)?;
            let rushes = roll >= IMPETUOUS_RUSH_ON;
            play.emit(Event::ImpetuousTest {
                unit: id.clone(),
                roll,
                rushes,
                cause: ImpetuousCause::Moving,
            });
            if rushes {
                record_move(play, id, start.hex, walked, spent, None);
                let left = HalfMp(start.left.0.saturating_sub(spent.0));
                let rest = Start {
                    hex: at,
                    left,
                    first: start.first && spent == HalfMp(0),
                    on_road,
                };
                return rush(play, id, rest);
            }
        }
        let road = play.options.road_bonus == RoadBonus::PerStep || on_road;
        spent = spent + step_cost(&play.board.map, at, to, road).unwrap_or(HalfMp(0));
        on_road &= play.board.map.along_road(at, to);
        enter(play, id, to)?;
        walked.push(to);
        at = to;
    }
    // The minimal move spends the whole allowance (§7).
    let spent = spent.min(start.left);
    if let Some(t) = &charging {
        play.tally.charges.insert(id.clone(), t.clone());
    }
    record_move(play, id, start.hex, walked, spent, charging);
    Ok(())
}

fn record_move(
    play: &mut Play,
    id: &UnitId,
    from: Hex,
    path: Vec<Hex>,
    spent: HalfMp,
    charge: Option<UnitId>,
) {
    if path.is_empty() {
        return;
    }
    *play.tally.spent.entry(id.clone()).or_default() =
        play.tally.spent.get(id).copied().unwrap_or_default() + spent;
    play.emit(Event::Moved {
        unit: id.clone(),
        from,
        path,
        spent,
        charge,
    });
}

/// Put the unit in the hex, overrunning a lone enemy commander there (§6).
pub(crate) fn enter(play: &mut Play, id: &UnitId, to: Hex) -> Result<(), EngineError> {
    let u = play.board.get(id).clone();
    let overrun: Vec<UnitId> = overrun_on(&play.board, &u, &[to])
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    for c in overrun {
        play.emit(Event::CommanderOverrun {
            commander: c.clone(),
            by: id.clone(),
            hex: to,
        });
        losses::eliminate(play, &c, LossCause::Overrun)?;
    }
    play.board.get_mut(id).hex = Some(to);
    Ok(())
}

/// Rule 6 (O34): an impetuous unit, not next to an enemy, about to come
/// within 2 hexes of one, tests once a phase.
fn impetuous_test_due(play: &Play, id: &UnitId, to: Hex) -> bool {
    let u = play.board.get(id);
    if !play.options.impetuousness
        || !u.has(Mark::Impetuous)
        || play.tally.impetuous_tested.contains(id)
    {
        return false;
    }
    let Some(at) = u.hex else { return false };
    let enemies: Vec<Hex> = play
        .board
        .units
        .values()
        .filter(|e| {
            e.is_on_map() && e.is_combat() && play.board.relation(&u.side, e) == Relation::Enemy
        })
        .filter_map(|e| e.hex)
        .collect();
    !enemies.iter().any(|e| e.is_adjacent(at))
        && enemies.iter().any(|e| e.distance(to) <= IMPETUOUS_NEAR)
}

/// An impetuous unit's rush (rule 6, O34): with the movement left, along
/// the opponent's chosen path if legal, else the cheapest path towards the
/// closest enemy combat unit (ties: lowest hex id).
pub(crate) fn rush(play: &mut Play, id: &UnitId, start: Start) -> Result<(), EngineError> {
    let u = play.board.get(id).clone();
    let chosen = play.impetuous_route(id).map(<[Hex]>::to_vec);
    let path = chosen
        .filter(|p| {
            !p.is_empty()
                && check_walk(&play.board, play.options, &u, start, p).is_ok_and(|w| !w.zoc_test)
        })
        .or_else(|| rush_path(&play.board, play.options, &u, start));
    let Some(path) = path else { return Ok(()) };
    let walk = check_walk(&play.board, play.options, &u, start, &path)
        .map_err(|r| EngineError::Internal(format!("rush {r:?}")))?;
    for &h in &path {
        enter(play, id, h)?;
    }
    *play.tally.spent.entry(id.clone()).or_default() =
        play.tally.spent.get(id).copied().unwrap_or_default() + walk.spent;
    play.emit(Event::ImpetuousRush {
        unit: id.clone(),
        from: start.hex,
        path,
        spent: walk.spent,
    });
    Ok(())
}

/// The default rush: end as near the closest enemy combat unit as the
/// movement allows, cheapest, lowest hex ids.
fn rush_path(board: &Board, options: &Options, u: &Unit, start: Start) -> Option<Vec<Hex>> {
    let target = board
        .units
        .values()
        .filter(|e| e.is_on_map() && e.is_combat() && board.relation(&u.side, e) == Relation::Enemy)
        .filter_map(|e| e.hex)
        .min_by_key(|h| (h.distance(start.hex), *h))?;
    let here = target.distance(start.hex);
    reachable(board, options, u, start)
        .into_iter()
        .filter(|(h, _)| h.distance(target) < here)
        .min_by(|(a, (ca, pa)), (b, (cb, pb))| {
            (a.distance(target), ca, pa).cmp(&(b.distance(target), cb, pb))
        })
        .map(|(_, (_, p))| p)
}
