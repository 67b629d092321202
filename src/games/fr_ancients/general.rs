//! The umpire's general for FR! Ancients (issue 42): a small deterministic
//! order writer, the one the whole-battle demonstration plays both sides
//! with. In its side's phase a unit in melee fights where it stands; a
//! fresh one (not a light one) charges the nearest enemy within its reach;
//! a shooter shoots the nearest enemy in range; any other advances towards
//! the enemy. It reaches with the values a pack or the game master gave,
//! so it plays where moves are priced without the game master: a game
//! names a pack for it (`Ruleset::general_plays`).

use super::state::State;
use super::table::{Battle, Unit};
use crate::diagnostic::Severity;
use crate::games::RulesetError;
use crate::sim::Style;
use std::collections::BTreeSet;

/// A unit's open allowance less a margin for a change of facing, or
/// nothing for a unit that does not move (artillery, baggage, without values).
fn reach(u: &Unit) -> Option<f64> {
    let open = u.profile.movement?[0];
    (open > 1.0 && u.artillery.is_none() && u.troop != super::troops::TroopType::Baggage)
        .then_some(open - 1.0)
}

/// The nearest present enemy of a unit (ties: the lowest id).
fn nearest<'b>(b: &'b Battle, u: &Unit) -> Option<(&'b Unit, f64)> {
    b.present()
        .filter(|e| e.side != u.side)
        .map(|e| (e, b.distance(u, e)))
        .min_by(|a, c| a.1.total_cmp(&c.1).then(a.0.id.cmp(&c.0.id)))
}

/// One unit's order in the whole-battle demonstration, if it has one: a
/// unit in melee fights where it stands; a fresh one (not a light one)
/// charges the nearest enemy within its reach; a shooter shoots the nearest
/// enemy in range;
/// any other advances straight ahead towards the enemy, stopping an inch
/// short of the nearest. A cautious general charges only an enemy already
/// shaken (demoralised) and otherwise stands, shooting what comes in range.
fn order_for(b: &Battle, u: &Unit, style: Style) -> Option<String> {
    if !b.contacts(u).is_empty() {
        return None;
    }
    let (enemy, distance) = nearest(b, u)?;
    let reach = reach(u);
    let light = u.troop.picks_its_target();
    let odds = style == Style::Aggressive || enemy.dmz > 0;
    let fresh = !light && u.dmz == 0 && u.troop.may_charge() && odds;
    if fresh && reach.is_some_and(|r| distance <= r) {
        return Some(format!("charge {}", enemy.name));
    }
    if let Some(w) = u.missile().filter(|w| w.shoots()) {
        if distance <= w.range(b.scale) {
            return Some(format!("shoot {}", enemy.name));
        }
    }
    if style == Style::Cautious {
        return None;
    }
    let reach = reach?;
    let step = reach.min(distance - 1.0);
    if step < 0.5 {
        return None;
    }
    let ahead = crate::geometry::heading(u.facing) * step;
    Some(format!(
        "move to {:.1}, {:.1}",
        u.front.x + ahead.x,
        u.front.y + ahead.y
    ))
}

/// The orders the whole-battle demonstration writes for `side` in its
/// phase: one line a unit that acts ([`order_for`]), in the units' order.
/// Deterministic: the same table gives the same orders.
pub fn battle_orders(b: &Battle, side: &str) -> String {
    orders_in(b, side, Style::Aggressive)
}

/// The orders the umpire's general of `style` writes for `side` (issue
/// 42): nothing in the deployment round (the scenario's layout stands) or
/// in the enemy's phase (no standing orders); in its own phase, a line a
/// unit that acts, reaching with the values the game master gave. The
/// writer does not weigh every rule (the room beside a target a friend
/// charges too): the lines the order checker refuses are left out, until
/// it refuses none, so a general never writes a refused line.
///
/// # Errors
/// When the game's pack cannot be read.
pub fn general_sheet(state: &State, side: &str, style: Style) -> Result<String, RulesetError> {
    let mut b = state.battle.clone();
    if state.deploying.is_some() || b.phasing() != side {
        return Ok(String::new());
    }
    state.values.apply(&mut b);
    let mut lines: Vec<String> = orders_in(&b, side, style)
        .lines()
        .map(str::to_string)
        .collect();
    loop {
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let checked = state.check_orders(side, &text)?;
        let refused: BTreeSet<usize> = checked
            .diagnostics
            .iter()
            .filter(|d| Severity::is_error(&d.kind))
            .map(|d| text[..d.span.start.min(text.len())].matches('\n').count())
            .collect();
        let before = lines.len();
        lines = lines
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !refused.contains(i))
            .map(|(_, l)| l)
            .collect();
        if lines.len() == before {
            return Ok(text);
        }
    }
}

fn orders_in(b: &Battle, side: &str, style: Style) -> String {
    b.present()
        .filter(|u| u.side == side)
        .filter_map(|u| order_for(b, u, style).map(|o| format!("{}: {o}\n", u.name)))
        .collect()
}
