//! Vouillé rule 1, the Breton cavalry (O41): each time it is attacked, if
//! a hex next to it is free of enemy units, its owner may roll (his
//! standing choice: always, never, or at odds of at least …); on 5 or 6 it
//! evades up to 2 hexes, ignoring zones of control and movement costs but
//! never into an occupied hex or across a river without a crossing. The
//! combat is then cancelled; the attackers have attacked and do not advance.

use crate::games::furor::ask::Question;
use crate::games::furor::board::{Board, Role, Unit, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::Event;
use crate::games::furor::hex::Hex;
use crate::games::furor::orders::{Answer, Evasion};
use crate::games::furor::play::Play;
use crate::games::furor::retreat::move_with_commander;
use crate::games::furor::rules::crt::Column;
use crate::games::furor::rules::special::{BRETON_EVADE_HEXES, BRETON_EVADE_ON};

/// Whether the unit may step into `n` while evading.
fn open(board: &Board, from: Hex, n: Hex) -> bool {
    board.map.passable(from, n) && board.at(n).next().is_none()
}

/// The evasion path: the owner's preferred hexes if they make one, else the
/// end hex farthest from the attackers (then nearest home, lowest id), by
/// the shortest path of lowest ids.
fn path(board: &Board, u: &Unit, attackers: &[Hex], wanted: &[Hex]) -> Vec<Hex> {
    let from = u.hex.expect("on the map");
    let legal = |p: &[Hex]| {
        p.len() <= BRETON_EVADE_HEXES && {
            let mut at = from;
            p.iter().all(|&h| {
                let ok = at.is_adjacent(h) && open(board, at, h) && h != from;
                at = h;
                ok
            })
        }
    };
    if !wanted.is_empty() && legal(wanted) {
        return wanted.to_vec();
    }
    let mut paths: Vec<Vec<Hex>> = vec![Vec::new()];
    for n in from
        .neighbours()
        .into_iter()
        .filter(|n| open(board, from, *n))
    {
        paths.push(vec![n]);
        for m in n
            .neighbours()
            .into_iter()
            .filter(|m| *m != from && open(board, n, *m))
        {
            paths.push(vec![n, m]);
        }
    }
    let home = board.sides.get(&u.side).and_then(|s| s.home_edge);
    paths
        .into_iter()
        .min_by_key(|p| {
            let end = p.last().copied().unwrap_or(from);
            let away: u32 = attackers.iter().map(|a| u32::from(a.distance(end))).sum();
            (
                std::cmp::Reverse(away),
                home.map_or(0, |e| e.distance(&board.map, end)),
                p.len(),
                p.clone(),
            )
        })
        .unwrap_or_default()
}

/// Before the combat's die: whether the attacked Breton unit evades.
pub(crate) fn evades(
    play: &mut Play,
    id: &UnitId,
    attackers: &[Hex],
    column: Column,
) -> Result<bool, EngineError> {
    let u = play.board.get(id).clone();
    if !play.board.rules.breton_evasion || u.role != Some(Role::Breton) {
        return Ok(false);
    }
    let h = u.hex.expect("on the map");
    let free = h
        .neighbours()
        .into_iter()
        .any(|n| play.board.map.contains(n) && !play.board.hostile_in(&u.side, n));
    if !free {
        return Ok(false);
    }
    let wants = match play.reactions.evasion.get(id).copied() {
        Some(Evasion::Always) => true,
        Some(Evasion::Never) => false,
        Some(Evasion::AtOdds(c)) => column >= c,
        // No standing choice: the owner's answer, else always (FB-19).
        None => {
            let question = Question::Evade {
                unit: id.clone(),
                column,
            };
            play.open_choice("evade", question) != Some(Answer::DoNotEvade)
        }
    };
    if !wants {
        return Ok(false);
    }
    let roll = play.roll_counted("breton", id)?;
    let evade = roll >= BRETON_EVADE_ON;
    let route = if evade {
        path(&play.board, &u, attackers, play.retreat_preference(id))
    } else {
        Vec::new()
    };
    play.emit(Event::BretonEvasion {
        unit: id.clone(),
        roll,
        evades: evade,
        path: route.clone(),
    });
    if let Some(&end) = route.last() {
        move_with_commander(play, id, end);
    }
    Ok(evade)
}
