//! The Hyborean Age behind the rule-set boundary: what the post office,
//! the report frame and the case runner ask of a rule set, answered with
//! this folder's table, orders, engine, report and picture.
//!
//! What crosses the boundary: the state is the [`Table`], the options are
//! [`GameOptions`], one side's orders are its checked [`TurnOrders`], the
//! events are the engine's [`Event`]s, all as JSON. A turn is one round in
//! which every side writes.

use super::adjudicate::{resolve_turn, StopAfter};
use super::army::scenario::{self, Scenario};
use super::dice::{DiceKey, Roll, SeededDice};
use super::orders::{self, plan::TurnOrders};
use super::report::{self as story, picture};
use super::rules::options::GameOptions;
use super::table::Table;
use crate::diagnostic::Rendered;
use crate::dice::DieKind;
use crate::games::read;
use crate::games::CaseOutcome;
use crate::games::{
    Checked, GameResult, Json, NewGame, Resolved, Round, RoundInput, Ruleset, RulesetError, Setup,
    Welcome,
};
use crate::report::RoundReport;
use std::fmt::Write as _;

/// *Royal Armies of the Hyborean Age* as a [`Ruleset`].
pub struct HyborianAge;

fn json<T: serde::Serialize>(value: &T) -> Result<Json, RulesetError> {
    serde_json::to_value(value).map_err(|e| RulesetError::Corrupt(e.to_string()))
}

/// How many turns the battle lasts: the scenario's turns, less 1d6 hours
/// spent deploying where the scenario asks for the roll (rolled on the first
/// turn's seed as `d6:battle:deploying`, so it is checked with that turn),
/// and never more than the game file allows.
fn battle_length(
    max_turns: u32,
    scenario: Option<&Scenario>,
    seed: [u8; 32],
) -> Result<(u32, Option<u8>), RulesetError> {
    let Some(scenario) = scenario else {
        return Ok((max_turns, None));
    };
    if !scenario.deploying_roll {
        return Ok((max_turns.min(scenario.turns), None));
    }
    let key = DiceKey::D6 {
        unit: "battle".into(),
        what: "deploying".into(),
    };
    let roll = SeededDice::new(seed)
        .roll(&key)
        .map_err(|e| RulesetError::Engine(e.to_string()))?;
    Ok((
        max_turns.min(scenario.turns.saturating_sub(u32::from(roll)).max(1)),
        Some(roll),
    ))
}

/// The welcome's account of the battle's length and its first turn.
fn length_text(turns: u32, deploying: Option<u8>, first_turn: u32) -> String {
    let mut s = format!("The battle lasts {turns} turns");
    if let Some(d) = deploying {
        let _ = write!(
            s,
            " (the hours spent deploying were\nrolled: {d}; the roll is d6:battle:deploying on turn {first_turn}'s dice)"
        );
    }
    s.push('.');
    if first_turn == 0 {
        s.push_str(
            "\nThis battle begins with a deployment turn (turn 0): place each unit with\n  \
             Black Dragons: deploy at (30, 6) facing 0 in line 2 ranks\n\
             inside your side's deployment zone; both sides are revealed at once.",
        );
    }
    s
}

/// A unit as a briefing lists it: "1. Black Dragons (heavy cavalry, class
/// A, 12 figures, line, front at (20, 8) facing 0)"; a leader with the unit
/// he rides with.
fn briefing_line(table: &Table, u: &super::table::Unit, placed: bool) -> String {
    let mut what = format!("{}, class {}", u.kind.book_name(), u.class);
    if u.kind.is_single_figure() {
        if let Some(with) = u.attached_to.as_ref().and_then(|a| table.units.get(a)) {
            let _ = write!(what, ", with {}", with.name);
        }
    } else {
        let _ = write!(what, ", {} figures, {}", u.figures, u.formation.code());
    }
    if placed && u.attached_to.is_none() {
        let _ = write!(
            what,
            ", front at ({:.0}, {:.0}) facing {:.0}",
            u.front.x, u.front.y, u.facing
        );
    }
    format!("  {}. {} ({what})", u.number, u.name)
}

/// A side's briefing for its welcome: the scenario's story, its special
/// rules, how to win, the side's units and leaders and the enemy's (with
/// where they stand unless the battle opens with a deployment turn), and the
/// deployment zones in inches. Also the example order line.
fn units_text(table: &Table, scenario: Option<&Scenario>, side: &str) -> (String, String) {
    let mut s = String::new();
    if let Some(sc) = scenario {
        let _ = writeln!(s, "{}", sc.title);
        let _ = writeln!(s, "{}", "=".repeat(sc.title.chars().count()));
        let _ = writeln!(s, "{}", sc.briefing.trim());
        if let Some(source) = &sc.source {
            let _ = writeln!(s, "Source: {source}.");
        }
        s.push('\n');
        if let Some(first) = &sc.first_turn {
            let _ = writeln!(s, "Special rules:\n  {}\n", first.trim());
        }
    }
    let bare = book_goal(table);
    let goals: Vec<String> = scenario
        .unwrap_or(&bare)
        .victory
        .iter()
        .filter_map(|v| v.describe(side))
        .collect();
    if !goals.is_empty() {
        s.push_str("How to win (the first side to meet one of these wins; if neither has by\nthe last turn, the battle is a draw):\n");
        for g in goals {
            let _ = writeln!(s, "  - {g}");
        }
        s.push('\n');
    }
    let placed = table.turn != 0;
    let sorted = |who: &str| {
        let mut units: Vec<&super::table::Unit> =
            table.units.values().filter(|u| u.side == who).collect();
        units.sort_by_key(|u| (u.number, u.id.clone()));
        units
    };
    let listed = |who: &str, title: &str, s: &mut String| {
        let units = sorted(who);
        let _ = writeln!(s, "{title}:");
        for u in &units {
            let _ = writeln!(s, "{}", briefing_line(table, u, placed));
        }
        if let Some(zone) = scenario.and_then(|sc| sc.zone(who)) {
            let _ = writeln!(s, "  Deployment zone: {}", zone.text());
        }
        s.push('\n');
    };
    listed(
        side,
        "Your units (write a unit's name, or #n, its number)",
        &mut s,
    );
    let mine = sorted(side);
    for enemy in table.sides().into_iter().filter(|o| o != side) {
        listed(&enemy, &format!("The enemy: {enemy}"), &mut s);
    }
    s.push_str("Coordinates are in inches from the south-west corner: x east, y north;\nfacing 0 is north. The picture of the table at the start is attached.\n");
    let example = mine
        .iter()
        .find(|u| !u.kind.is_single_figure())
        .or(mine.first())
        .map(|u| format!("{}: phase 1 move full\n", u.name))
        .unwrap_or_default();
    (s, example)
}

/// The victory standing, whether the battle is over after `played`, and
/// its result once it is (the scenario's winner, or a draw).
fn outcome(
    table: &Table,
    scenario: Option<&Scenario>,
    played: u32,
    last_turn: u32,
) -> (Vec<String>, bool, Option<GameResult>) {
    // The battle ends after its last turn, or when a side has nothing left on the table.
    let standing = table
        .sides()
        .into_iter()
        .filter(|s| {
            table
                .units_of(s)
                .any(|u| u.status.is_present() && !u.kind.is_single_figure())
        })
        .count();
    let last = played >= last_turn;
    let bare;
    let scenario = match scenario {
        Some(s) => s,
        None => {
            bare = book_goal(table);
            &bare
        }
    };
    let verdict = scenario::assess(scenario, table, last);
    let ended = last || standing < 2 || verdict.over;
    let result = ended.then(|| match verdict.winner.clone() {
        Some(side) => GameResult::Won { side },
        None => GameResult::Drawn,
    });
    let mut victory: Vec<String> = verdict.standing.iter().map(|l| format!("{l}.")).collect();
    victory.extend(verdict.reasons.iter().map(|l| format!("{l}.")));
    match verdict.winner {
        Some(w) => victory.push(format!("{w} has won the battle.")),
        None if ended && last => victory.push(format!(
            "The battle ends without a victor: its last turn ({last_turn}) is played and no side has met a condition of victory."
        )),
        None if ended => victory.push("The battle ends without a victor.".into()),
        None => {}
    }
    (victory, ended, result)
}

/// The conditions of a battle on a bare layout (no scenario keys): the
/// book's one goal, break the enemy army (ruling P6).
fn book_goal(table: &Table) -> Scenario {
    let sides = table.sides();
    crate::games::hyborian::campaign::battle::breaking(
        "the battle",
        sides.iter().map(|s| (s.as_str(), s.as_str())),
        table.width,
    )
}

impl Ruleset for HyborianAge {
    fn name(&self) -> &'static str {
        super::RULESET
    }

    fn title(&self) -> &'static str {
        "Royal Armies of the Hyborean Age"
    }

    fn version(&self, options: &Json) -> String {
        match serde_json::from_value::<GameOptions>(options.clone()) {
            Ok(o) => super::identity::identity(&o).summary(),
            Err(_) => format!(
                "{} {} options {}",
                super::RULESET,
                env!("CARGO_PKG_VERSION"),
                options
            ),
        }
    }

    fn guide(&self) -> &'static str {
        orders::GUIDE
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            (
                "hyborian-age/summary.txt",
                include_str!("../../../templates/hyborian-age/summary.txt"),
            ),
            (
                "hyborian-age/summary.html",
                include_str!("../../../templates/hyborian-age/summary.html"),
            ),
        ]
    }

    fn new_game(&self, setup: &Setup<'_>) -> Result<NewGame, RulesetError> {
        setup.no_armies_nor_pack(self.title())?;
        let loaded =
            scenario::load(setup.scenario_text).map_err(|e| RulesetError::Setup(e.to_string()))?;
        let options: GameOptions = toml::Value::Table(setup.options.clone())
            .try_into()
            .map_err(|e: toml::de::Error| {
                RulesetError::Setup(format!("[options]: {}", e.message()))
            })?;
        let (last_turn, deploying) =
            battle_length(setup.max_turns, loaded.scenario.as_ref(), setup.seed)?;
        let table = loaded.table;
        let sides: Vec<String> = table.sides().into_iter().collect();
        let welcome = sides
            .iter()
            .map(|side| {
                let (briefing, example) = units_text(&table, loaded.scenario.as_ref(), side);
                let zones: Vec<(String, scenario::Zone)> = loaded
                    .scenario
                    .iter()
                    .flat_map(|sc| sc.sides.iter().map(|s| (s.id.clone(), s.zone)))
                    .collect();
                let title = loaded
                    .scenario
                    .as_ref()
                    .map_or("The battle", |sc| sc.title.as_str());
                let w = Welcome {
                    rules: self.title().to_string(),
                    length: length_text(last_turn, deploying, table.turn),
                    briefing,
                    example,
                    picture: Some(picture::start_svg(
                        &table,
                        &zones,
                        &format!("{title} — the table at the start"),
                    )),
                };
                (side.clone(), w)
            })
            .collect();
        Ok(NewGame {
            state: json(&table)?,
            options: json(&options)?,
            sides,
            last_turn,
            welcome,
        })
    }

    fn sides(&self, state: &Json) -> Result<Vec<String>, RulesetError> {
        Ok(read::<Table>("the table", state)?
            .sides()
            .into_iter()
            .collect())
    }

    fn round(&self, state: &Json) -> Result<Round, RulesetError> {
        let table: Table = read("the table", state)?;
        Ok(Round {
            number: table.turn,
            label: format!("turn {}", table.turn),
            writers: table.sides().into_iter().collect(),
            game_master: None,
        })
    }

    /// Every side writes every turn.
    fn next_writers(&self, state: &Json) -> Result<Option<Vec<String>>, RulesetError> {
        Ok(Some(self.round(state)?.writers))
    }

    fn check_orders(
        &self,
        state: &Json,
        side: &str,
        sheet: &str,
        envelope: &[Rendered],
    ) -> Result<Checked, RulesetError> {
        let table: Table = read("the table", state)?;
        let checked = orders::validate(&orders::read_sheet(sheet), side, &table);
        let errors = checked.diagnostics.iter().filter(|d| d.is_error()).count()
            + envelope.iter().filter(|d| d.error).count();
        Ok(Checked {
            orders: json(&checked.orders)?,
            understood: checked.understood.clone(),
            confirmation: orders::confirmation(&checked, &table, side, envelope),
            errors,
        })
    }

    fn merge_orders(&self, earlier: &Json, later: &Json) -> Result<Json, RulesetError> {
        let mut orders: TurnOrders = read("orders", earlier)?;
        orders.merge(read("orders", later)?);
        json(&orders)
    }

    fn die_for(&self, state: &Json, key: &str) -> Result<DieKind, String> {
        let key = key.parse::<DiceKey>().map_err(|e| e.to_string())?;
        // A die for a unit the table does not have would never be rolled.
        let table: Table = read("the table", state).map_err(|e| e.to_string())?;
        let unit = match &key {
            DiceKey::Fire { unit, .. }
            | DiceKey::PassFire { unit, .. }
            | DiceKey::Melee { unit }
            | DiceKey::Morale { unit, .. }
            | DiceKey::Severity { unit, .. } => Some(unit),
            DiceKey::Spell { wizard, .. } => Some(wizard),
            DiceKey::D6 { unit, .. } if unit != "battle" => Some(unit),
            DiceKey::D6 { .. } | DiceKey::Card { .. } => None,
        };
        if let Some(u) = unit.filter(|u| !table.units.contains_key(u.as_str())) {
            let ids: Vec<&str> = table.units.keys().map(String::as_str).collect();
            let hint = crate::names::closest(u, ids.iter().map(|i| (*i, *i)))
                .map(|i| format!(" (did you mean '{i}'?)"))
                .unwrap_or_default();
            return Err(format!(
                "{key}: no unit '{u}' on the table{hint}; unit ids are {}",
                ids.join(", ")
            ));
        }
        Ok(key.kind())
    }

    fn resolve(&self, input: RoundInput<'_>) -> Result<Resolved, RulesetError> {
        let table: Table = read("the table", input.state)?;
        let options: GameOptions = read("the options", input.options)?;
        // Sides in id order, each side's orders as it last wrote them.
        let mut orders = TurnOrders::default();
        for side_orders in input.orders.values() {
            orders.merge(read("orders", side_orders)?);
        }
        let result = resolve_turn(&table, &orders, &options, input.dice, StopAfter::Turn)
            .map_err(|e| RulesetError::Engine(e.to_string()))?;
        let scenario = scenario::load(input.setup).ok().and_then(|l| l.scenario);
        let (victory, ended, game_result) = outcome(
            &result.table,
            scenario.as_ref(),
            table.turn,
            input.last_turn,
        );
        let (sections, dice) = story::story(&result.events);
        let mut extra = serde_json::Map::new();
        extra.insert("charged".into(), json(&story::chargers(&result.events))?);
        Ok(Resolved {
            summary: json(&story::summary(&result.table, Some(&table)))?,
            summary_title: format!("The table after turn {}", table.turn),
            state: json(&result.table)?,
            events: json(&result.events)?,
            sections,
            dice,
            victory,
            ended,
            result: game_result,
            extra,
        })
    }

    fn picture(
        &self,
        before: &Json,
        after: &Json,
        report: &RoundReport,
    ) -> Result<String, RulesetError> {
        let before: Table = read("the table before", before)?;
        let after: Table = read("the table after", after)?;
        let charged: Vec<String> = match report.extra.get("charged") {
            Some(c) => read("the chargers", c)?,
            None => Vec::new(),
        };
        let caption = picture::turn_caption(&report.title, report.turn);
        Ok(picture::svg(Some(&before), &after, &charged, &caption))
    }

    fn preview(
        &self,
        state: &Json,
        options: &Json,
        side: &str,
        orders: &Json,
    ) -> Result<Option<String>, RulesetError> {
        let table: Table = read("the table", state)?;
        let options: GameOptions = read("the options", options)?;
        let orders: TurnOrders = read("orders", orders)?;
        let (mut after, paths) =
            crate::games::hyborian::adjudicate::preview_moves(&table, &orders, &options);
        // Only the sender's units move in the preview: the others stand
        // where they are (a rout or a fall back of theirs is not shown).
        for (id, u) in &table.units {
            if u.side != side {
                after.units.insert(id.clone(), u.clone());
            }
        }
        let paths: Vec<(String, Vec<glam::DVec2>)> = paths
            .into_iter()
            .filter(|(id, _)| table.units.get(id).is_some_and(|u| u.side == side))
            .collect();
        let title = format!(
            "Your orders for turn {} ({side}): where they take your units if nothing else moves",
            table.turn
        );
        Ok(Some(
            picture::Scene {
                only: Some(side),
                paths: &paths,
                ..picture::Scene::new(&after, &title)
            }
            .svg(picture::Width::MAIL),
        ))
    }

    fn canonical(&self, state: &Json) -> Result<Json, RulesetError> {
        json(&read::<Table>("the table", state)?)
    }

    fn standing(&self, setup: &str, state: &Json) -> Result<Option<GameResult>, RulesetError> {
        let table: Table = serde_json::from_value(state.clone())
            .map_err(|e| RulesetError::Corrupt(e.to_string()))?;
        let loaded = scenario::load(setup).map_err(|e| RulesetError::Corrupt(e.to_string()))?;
        Ok(loaded
            .scenario
            .as_ref()
            .and_then(|sc| scenario::assess(sc, &table, false).winner)
            .map(|side| GameResult::Won { side }))
    }

    /// Every side writes every turn; the generals of the balance lab
    /// (`sim::general`) write a whole turn's orders from the table.
    fn general_plays(&self, _options: &Json) -> Result<(), String> {
        Ok(())
    }

    fn general_orders(
        &self,
        setup: &str,
        state: &Json,
        side: &str,
        style: crate::sim::Style,
    ) -> Result<String, RulesetError> {
        let table: Table = read("the table", state)?;
        let loaded = scenario::load(setup).map_err(|e| RulesetError::Corrupt(e.to_string()))?;
        let victory = loaded.scenario.map(|sc| sc.victory).unwrap_or_default();
        Ok(super::sim::general::orders_for(
            &table, side, style, &victory,
        ))
    }

    fn run_case(&self, text: &str) -> CaseOutcome {
        if super::campaign::case::is_campaign_case(text) {
            super::campaign::case::run_text(text)
        } else {
            super::case::run_text(text)
        }
    }

    fn case_state(&self, text: &str) -> Result<Json, RulesetError> {
        let case =
            super::case::Case::parse(text).map_err(|e| RulesetError::Setup(e.to_string()))?;
        json(&Table::from_setup(&case.setup).map_err(|e| RulesetError::Setup(e.to_string()))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn new_game_of(scenario: &str) -> NewGame {
        HyborianAge
            .new_game(&Setup {
                scenario_path: std::path::Path::new("scenario.toml"),
                scenario_text: scenario,
                options: &toml::Table::new(),
                max_turns: 12,
                seed: [1; 32],
                armies: &Default::default(),
                pack: None,
                companions: &Default::default(),
            })
            .unwrap()
    }

    fn welcome_of(scenario: &str, side: &str) -> Welcome {
        new_game_of(scenario).welcome[side].clone()
    }

    /// The order preview: the sender's units where their orders take them
    /// (a path from the front before to after phase 1 and 2), the enemy
    /// faint and unkeyed.
    #[test]
    fn the_preview_draws_the_paths_of_the_orders() {
        let text = include_str!("../../../campaigns/scenarios/border-raid.toml");
        let new = new_game_of(text);
        let checked = HyborianAge
            .check_orders(
                &new.state,
                "aquilonia",
                "Aquilonian Knights: phase 1 move 6\n1st Aquilonians: phase 2 move 3\n",
                &[],
            )
            .unwrap();
        assert_eq!(checked.errors, 0, "{}", checked.confirmation);
        let svg = HyborianAge
            .preview(&new.state, &new.options, "aquilonia", &checked.orders)
            .unwrap()
            .expect("a preview");
        // A path for each unit ordered to move (and a leader with it),
        // from its front before; none for the enemy's units, which stand.
        let paths: Vec<&str> = svg
            .split("<polyline points=\"")
            .skip(1)
            .filter_map(|p| p.split('"').next())
            .collect();
        assert!(paths.len() >= 2, "{svg}");
        let table: Table = serde_json::from_value(new.state.clone()).unwrap();
        let enemy_fronts: Vec<String> = table
            .units_of("koth")
            .map(|u| {
                let f = crate::report::picture::Frame {
                    depth: table.depth,
                    scale: 10.0,
                    left: 26.0,
                    top: 33.0,
                };
                let (x, y) = f.p(u.front);
                format!("{x:.1},{y:.1} ")
            })
            .collect();
        assert!(
            paths
                .iter()
                .all(|p| enemy_fronts.iter().all(|e| !p.starts_with(e.as_str()))),
            "{paths:?}"
        );
        assert!(
            svg.contains("aquilonia (A)") && !svg.contains("koth (K)"),
            "only the sender's key"
        );
        assert!(svg.contains(r#"opacity="0.45""#), "the enemy drawn faint");
        assert!(crate::report::picture::label_faults(&svg)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn the_welcome_is_a_briefing() {
        let text = include_str!("../../../campaigns/scenarios/border-raid.toml");
        let w = welcome_of(text, "aquilonia");
        let b = &w.briefing;
        assert!(
            b.starts_with("Border Raid\n===========\nA Kothian raiding force"),
            "{b}"
        );
        assert!(
            b.contains("Special rules:\n  Both sides write orders for turn 1 as deployed"),
            "{b}"
        );
        assert!(
            b.contains("  - Break the enemy army: it has lost 50% of its starting points"),
            "{b}"
        );
        assert!(b.contains("  - Take the enemy commander"), "{b}");
        // Only the ground this side may hold.
        assert_eq!(
            b.matches("Hold the ground x 16–32, y 14–22").count(),
            1,
            "{b}"
        );
        assert!(
            b.contains("  Deployment zone: x 0–48, y 0–10 inches\n"),
            "{b}"
        );
        assert!(
            b.contains("  Deployment zone: x 0–48, y 26–36 inches\n"),
            "{b}"
        );
        assert!(b.contains("The enemy: koth:\n"), "{b}");
        assert!(b.contains("  1. Aquilonian Knights (heavy cavalry, class B, 12 figures, line, front at (15, 6) facing 0)"), "{b}");
        let svg = w.picture.expect("a picture of the start");
        assert!(svg.contains("aquilonia deployment zone") && svg.contains("koth deployment zone"));
    }

    #[test]
    fn every_unit_and_leader_is_listed_without_gaps() {
        for text in [
            include_str!("../../../campaigns/scenarios/border-raid.toml"),
            include_str!("../../../campaigns/scenarios/the-marches-of-the-east.toml"),
            include_str!("../../../campaigns/scenarios/valkia.toml"),
        ] {
            let loaded = scenario::load(text).unwrap();
            for side in loaded.table.sides() {
                let b = welcome_of(text, &side).briefing;
                let mine = b
                    .split("The enemy:")
                    .next()
                    .unwrap()
                    .split("Your units")
                    .nth(1)
                    .unwrap();
                for u in loaded.table.units_of(&side) {
                    assert!(
                        mine.contains(&format!("  {}. {} (", u.number, u.name)),
                        "{side}: {} missing from\n{mine}",
                        u.name
                    );
                }
                let numbers: Vec<u32> = mine
                    .lines()
                    .filter_map(|l| l.trim().split('.').next()?.parse().ok())
                    .collect();
                let mut expected = numbers.clone();
                expected.sort();
                expected.dedup();
                assert_eq!(numbers, expected, "{side}: listed in order");
                assert_eq!(
                    numbers.windows(2).filter(|w| w[1] != w[0] + 1).count(),
                    0,
                    "{side}: numbers without gaps: {numbers:?}"
                );
            }
        }
    }

    #[test]
    fn a_game_starts_and_a_turn_resolves_through_the_boundary() {
        let text = include_str!("../../../campaigns/scenarios/river-crossing.toml");
        let new = HyborianAge
            .new_game(&Setup {
                scenario_path: std::path::Path::new("river-crossing.toml"),
                scenario_text: text,
                options: &toml::Table::new(),
                max_turns: 4,
                seed: [1; 32],
                armies: &Default::default(),
                pack: None,
                companions: &Default::default(),
            })
            .unwrap();
        assert_eq!(new.sides, ["aquilonia", "nemedia"]);
        let briefing = &new.welcome["aquilonia"].briefing;
        assert!(
            briefing.starts_with("How to win (the first side to meet one of these wins;"),
            "a bare layout is won by breaking the enemy (ruling P6): {briefing}"
        );
        assert!(
            briefing.contains("  - Break the enemy army: it has lost 50% of its starting points")
        );
        assert!(briefing.contains("Your units (write a unit's name, or #n, its number):\n  1. "));
        let round = HyborianAge.round(&new.state).unwrap();
        assert_eq!(round.writers, new.sides);
        assert_eq!(
            HyborianAge.next_writers(&new.state).unwrap(),
            Some(new.sides.clone())
        );
        let checked = HyborianAge
            .check_orders(
                &new.state,
                "aquilonia",
                "Black Dragons: phase 1 move full\n",
                &[],
            )
            .unwrap();
        assert_eq!(checked.errors, 0, "{}", checked.confirmation);
        let orders = BTreeMap::from([("aquilonia".to_string(), checked.orders)]);
        let mut dice = SeededDice::new([2; 32]);
        let done = HyborianAge
            .resolve(RoundInput {
                state: &new.state,
                options: &new.options,
                setup: text,
                last_turn: 4,
                orders: &orders,
                dice: &mut dice,
            })
            .unwrap();
        assert_eq!(
            HyborianAge.round(&done.state).unwrap().number,
            round.number + 1
        );
        assert!(done
            .sections
            .iter()
            .any(|s| s.lines.iter().any(|l| l.contains("Black Dragons"))));
        assert!(!done.ended);
    }
}
