//! Set-up: the scenario and map files a new game is made from, and the
//! set-up rounds played one by one until the board is built and the first
//! player known.

use super::rounds::round_of;
use super::state::{json, Deployment, SetupOrders, Stored};
use super::summary::summary;
use crate::dice::Recorded;
use crate::games::furor::board::UnitId;
use crate::games::furor::rules::Kind;
use crate::games::furor::scenario::{self, Placement, Scenario};
use crate::games::{read, Json, Resolved, RulesetError, Setup};
use crate::report::Section;
use std::collections::BTreeMap;

/// The map a scenario names (`[scenario] map = "NAME"`), refused when it
/// is a path rather than a name under `maps/`.
fn map_name(scenario_text: &str) -> Result<String, RulesetError> {
    let head: toml::Table = toml::from_str(scenario_text)
        .map_err(|e| RulesetError::Setup(format!("the scenario is not TOML: {}", e.message())))?;
    let map_name = head
        .get("scenario")
        .and_then(|s| s.get("map"))
        .and_then(toml::Value::as_str)
        .ok_or_else(|| {
            RulesetError::Setup("the scenario names no map ([scenario] map = \"…\")".into())
        })?;
    if map_name.contains(['/', '\\', '.']) {
        return Err(RulesetError::Setup(format!(
            "map '{map_name}' must be a name under maps/, not a path"
        )));
    }
    Ok(map_name.to_string())
}

/// A club's own map file, relative to the scenario file: `maps/NAME.toml`
/// beside the scenario's folder.
fn map_beside(map_name: &str) -> String {
    format!("../maps/{map_name}.toml")
}

/// The club's map a scenario names, for the caller to read beside it
/// (`Ruleset::companions`); none when the scenario names none, or names
/// a path (`load_scenario` says why).
pub(super) fn companions(scenario_text: &str) -> Vec<String> {
    map_name(scenario_text)
        .map(|m| vec![map_beside(&m)])
        .unwrap_or_default()
}

/// The scenario a game file names, with its map's text: the club's own
/// (`maps/NAME.toml` beside the scenario's folder, read by the caller into
/// `Setup::companions`) when there is one, else the built-in one.
pub(super) fn load_scenario(setup: &Setup<'_>) -> Result<(Scenario, String), RulesetError> {
    let map_name = map_name(setup.scenario_text)?;
    let map_text = match setup.companions.get(&map_beside(&map_name)) {
        Some(t) => t.clone(),
        None => scenario::shipped_map(&map_name)
            .map(str::to_string)
            .ok_or_else(|| RulesetError::Setup(format!("no map '{map_name}'")))?,
    };
    let scenario = Scenario::parse(setup.scenario_text, &map_text)
        .map_err(|e| RulesetError::Setup(e.to_string()))?;
    Ok((scenario, map_text))
}

/// One set-up round played: the writers' placements (the scenario's for
/// what they did not place); after the last, the board is built and the
/// first player known.
pub(super) fn resolve_setup(
    mut setup: Deployment,
    orders: &BTreeMap<String, Json>,
    dice: &mut dyn crate::dice::Dice,
) -> Result<Resolved, RulesetError> {
    let scenario = setup.scenario()?;
    let listed = setup.listed(&scenario)?;
    let writers = setup.writers().to_vec();
    let mut sections = Vec::new();
    for side in &writers {
        let written = match orders.get(&side.0) {
            Some(o) => read::<SetupOrders>("orders", o)?.placement,
            None => Placement::new(),
        };
        let placement = scenario.complete_placement(side, &written);
        let mut lines = Vec::new();
        if written.is_empty() {
            lines.push(format!(
                "The {side} placed nothing: their counters stand as the scenario lists them."
            ));
        }
        for (id, h) in &placement {
            let u = listed.get(id);
            if scenario.sealed_commanders && u.kind == Kind::Commander {
                continue;
            }
            lines.push(format!("{}: {h}", u.label()));
        }
        if scenario.sealed_commanders {
            lines.push("Their commanders' hexes are sealed until every side has set up.".into());
        }
        sections.push(Section {
            title: format!("Set-up of the {side}"),
            lines,
        });
        setup.placements.insert(side.clone(), placement);
    }
    setup.done += 1;
    let mut dice = Recorded::new(dice);
    let mut extra = serde_json::Map::new();
    extra.insert("charged".into(), json(&Vec::<UnitId>::new())?);
    let events = json(&BTreeMap::from([("set_up", &setup.placements)]))?;
    if setup.done < setup.rounds.len() {
        let shown = setup.shown(&scenario)?;
        let summary_title = format!("The counters set up before {}", setup.round().label);
        return Ok(Resolved {
            state: json(&Stored::Setup { setup })?,
            events,
            sections,
            dice: dice.lines(),
            summary: summary(&shown),
            summary_title,
            victory: Vec::new(),
            ended: false,
            result: None,
            extra,
        });
    }
    if scenario.sealed_commanders {
        let lines = setup
            .placements
            .values()
            .flatten()
            .filter(|(id, _)| listed.get(id).kind == Kind::Commander)
            .map(|(id, h)| format!("{}: {h}", listed.get(id).label()))
            .collect();
        sections.push(Section {
            title: "The commanders, revealed together (§12)".into(),
            lines,
        });
    }
    let first = match &setup.first {
        Some(f) => f.clone(),
        None => {
            let (first, rolls) = scenario
                .first_player(&mut dice)
                .map_err(|e| RulesetError::Engine(e.to_string()))?;
            let mut lines: Vec<String> = rolls
                .iter()
                .map(|(s, r)| format!("The {s} roll {r}."))
                .collect();
            lines.push(format!("The {first} play first (§12)."));
            sections.push(Section {
                title: "Who plays first".into(),
                lines,
            });
            first
        }
    };
    let state = setup.build(&scenario, &first)?;
    let summary_title = format!("The board before {}", round_of(&state).label);
    Ok(Resolved {
        events,
        sections,
        dice: dice.lines(),
        summary: summary(&state.board),
        summary_title,
        victory: Vec::new(),
        ended: false,
        result: None,
        extra,
        state: json(&state)?,
    })
}
