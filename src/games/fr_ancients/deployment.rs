//! The deployment round (ruling FA-61, option `deployment_round`): before
//! turn 1 both sides place their units in their zones, each mail checked
//! at once ([`check_deployment`]), sealed until both are in (a side's
//! confirmation shows only its own placing, and its welcome lists the
//! enemy's units without their places); then the round is played: every
//! placing stands, and the first report shows the table as deployed.
//!
//! It is the model of Furor Barbarus' set-up rounds: the round has both
//! sides as writers, and is played once both are ready or at the deadline.

use super::orders::{check_deployment, Zone};
use super::report::table_summary;
use super::state::{json, Deploying, State};
use super::table::{Battle, Place, SideId, UnitId};
use crate::games::{Checked, Json, Resolved, Round, RulesetError};
use crate::report::Section;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A side's checked placing: the places taken, by unit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Placing {
    pub places: BTreeMap<UnitId, Place>,
}

/// The round: both sides write, and `TURN 0` names it.
pub fn round(state: &State) -> Round {
    Round {
        number: state.played + 1,
        label: "the deployment".into(),
        writers: state.battle.sides.iter().map(|s| s.id.clone()).collect(),
        game_master: None,
    }
}

/// The round a player's `TURN` names while the deployment is open: `TURN
/// 0` the deployment (it has no phases), `TURN 1` (`PHASE 1`) the first
/// phase (held until it opens).
pub fn header_turn(state: &State, turn: u32, phase: Option<u32>) -> (u32, String) {
    let number = state.played + 1;
    let named = match (turn, phase) {
        (0, None) => number,
        (1, None | Some(1)) => number + 1,
        _ => 0,
    };
    (named, "TURN 0".into())
}

/// What the welcome says of the round, for a side.
pub fn briefing(zones: &BTreeMap<SideId, Zone>, side: &str) -> String {
    let mut s = String::from(
        "Before turn 1 comes the deployment round: place your units in your zone, one line a unit, `UNIT: deploy at X, Y facing B` (the centre of the unit's front edge). Each place is checked at once: on the table, inside your zone, overlapping none of your units. A unit you do not name stays where the scenario's layout puts it. Neither side sees the other's placing until both are in; the first report shows the table as deployed.",
    );
    if let Some(z) = zones.get(side) {
        let _ = write!(s, "\nYour deployment zone: {}.", z.show());
    }
    s
}

/// A side's units on its own, as its welcome's picture shows them: the
/// enemy's places are sealed until both sides have deployed.
pub fn own_side(battle: &Battle, side: &str) -> Battle {
    let mut b = battle.clone();
    b.units.retain(|_, u| u.side == side);
    b.characters.retain(|_, c| c.side == side);
    b
}

/// Check a side's deployment mail; `text` holds the envelope's own
/// diagnostics already.
pub fn check(
    state: &State,
    deploying: &Deploying,
    side: &str,
    sheet: &str,
    mut text: String,
    envelope_errors: usize,
) -> Result<Checked, RulesetError> {
    let Some(zone) = deploying.zones.get(side) else {
        return Err(RulesetError::Corrupt(format!(
            "side {side} has no deployment zone"
        )));
    };
    let d = check_deployment(&state.battle, side, sheet, zone);
    let lines = d.confirmation(&state.battle);
    let keys = d.keys();
    text.push_str("Understood (the deployment: sealed until both sides are in):\n");
    for l in &lines {
        let _ = writeln!(text, "  {l}");
    }
    let rendered = d.render();
    if !rendered.is_empty() {
        text.push('\n');
        text.push_str(&rendered);
        text.push('\n');
    }
    let errors = d
        .diagnostics
        .iter()
        .filter(|x| crate::diagnostic::Severity::is_error(&x.kind))
        .count();
    Ok(Checked {
        orders: json(&Placing { places: d.places })?,
        understood: keys.into_iter().zip(lines).collect(),
        confirmation: text,
        errors: errors + envelope_errors,
    })
}

/// Play the round: each side's placing stands (each place checked again
/// against its zone, as a stored order could be old); the battle starts.
pub fn resolve(
    state: &State,
    deploying: &Deploying,
    orders: &BTreeMap<String, Json>,
) -> Result<Resolved, RulesetError> {
    let mut next = state.clone();
    let mut lines = Vec::new();
    for s in &state.battle.sides {
        let placing: Placing = match orders.get(&s.id) {
            Some(o) => crate::games::read("the deployment", o)?,
            None => Placing::default(),
        };
        let zone = deploying.zones.get(&s.id);
        let mut placed = Vec::new();
        for (id, p) in &placing.places {
            let Some(u) = next.battle.units.get_mut(id) else {
                continue;
            };
            if u.side == s.id && zone.is_some_and(|z| z.holds(&u.footprint_at(*p))) {
                u.set_place(*p);
                placed.push(format!(
                    "{} at {:.1}, {:.1} facing {:.0}",
                    u.name, p.front.x, p.front.y, p.facing
                ));
            }
        }
        let all = state
            .battle
            .units
            .values()
            .filter(|u| u.side == s.id)
            .count();
        lines.push(format!(
            "{}: {} unit(s) placed by its player, {} where the scenario's layout put them.",
            s.id,
            placed.len(),
            all - placed.len()
        ));
        lines.extend(placed.into_iter().map(|p| format!("  {p}")));
    }
    next.deploying = None;
    next.played = state.played + 1;
    let first = super::verdict::phase_label(&next.battle);
    Ok(Resolved {
        state: json(&next)?,
        events: Json::Array(Vec::new()),
        sections: vec![Section {
            title: "The deployment".into(),
            lines,
        }],
        dice: Vec::new(),
        summary: table_summary(&next.battle),
        summary_title: format!("The table before {first}"),
        victory: Vec::new(),
        ended: false,
        result: None,
        extra: serde_json::Map::new(),
    })
}
