//! Furor Barbarus behind the rule-set boundary: what the post office, the
//! report frame and the case runner ask of a rule set, answered with this
//! folder's scenarios, order language, engine, report and picture.
//!
//! What crosses the boundary: the state is the [`Board`] with every side's
//! standing reactions ([`State`]); a side's orders are its checked
//! [`PlayerTurnOrders`] and the reactions it wrote ([`SideOrders`]); the
//! events are the engine's. A game turn is two rounds, one per player-turn
//! (§4, §15): the phasing player writes; the other may send standing
//! reactions at any time, which hold, unit by unit, until replaced.

use super::board::{Board, SideId, Status, UnitId};
use super::events::Event;
use super::options::Options;
use super::orders::check::check;
use super::orders::confirm::confirmation;
use super::orders::{DefenderAdvance, PlayerTurnOrders, Reactions};
use super::scenario::{self, Scenario};
use super::sequence::{begin_turn, resolve, StopAfter};
use super::{picture, report, victory};
use crate::case::CaseOutcome;
use crate::diagnostic::Rendered;
use crate::dice::{DieKind, Recorded, SeededDice};
use crate::games::{Checked, Json, NewGame, Resolved, Round, RoundInput, Ruleset, RulesetError, Setup, Welcome};
use crate::report::{RoundReport, Section};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// *Furor Barbarus* as a [`Ruleset`].
pub struct FurorBarbarus;

/// A game between player-turns: the board and each side's standing
/// reactions for the other's turns.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct State {
    pub board: Board,
    /// The game's house rules, which the checker needs as the engine does.
    #[serde(default)]
    pub options: Options,
    #[serde(default)]
    pub standing: BTreeMap<SideId, Reactions>,
}

/// One side's checked mail: its player-turn's orders (empty when it is not
/// its turn) and the standing reactions it wrote.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SideOrders {
    pub turn: PlayerTurnOrders,
    pub reactions: Reactions,
}

fn read<T: DeserializeOwned>(what: &str, json: &Json) -> Result<T, RulesetError> {
    serde_json::from_value(json.clone()).map_err(|e| RulesetError::Corrupt(format!("{what}: {e}")))
}

fn json<T: Serialize>(value: &T) -> Result<Json, RulesetError> {
    serde_json::to_value(value).map_err(|e| RulesetError::Corrupt(e.to_string()))
}

/// Standing reactions overlaid unit by unit: what `new` writes replaces
/// what stood for that unit; the rest stands (§15 "valid until replaced").
pub fn overlay(standing: &mut Reactions, new: &Reactions) {
    standing.retreat.extend(new.retreat.clone());
    standing.losses.extend(new.losses.clone());
    standing.evasion.extend(new.evasion.clone());
    standing.impetuous_routes.extend(new.impetuous_routes.clone());
    if new.advance != DefenderAdvance::None || new.advance_commander {
        standing.advance = new.advance.clone();
        standing.advance_commander = new.advance_commander;
    }
}

/// The scenario a game file names, with its map: `maps/NAME.toml` beside
/// the scenario's folder when the club ships its own, else the built-in one.
fn load_scenario(setup: &Setup<'_>) -> Result<Scenario, RulesetError> {
    let head: toml::Table = toml::from_str(setup.scenario_text).map_err(|e| RulesetError::Setup(format!("the scenario is not TOML: {}", e.message())))?;
    let map_name = head
        .get("scenario")
        .and_then(|s| s.get("map"))
        .and_then(toml::Value::as_str)
        .ok_or_else(|| RulesetError::Setup("the scenario names no map ([scenario] map = \"…\")".into()))?;
    if map_name.contains(['/', '\\', '.']) {
        return Err(RulesetError::Setup(format!("map '{map_name}' must be a name under maps/, not a path")));
    }
    let beside = setup
        .scenario_path
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join("maps").join(format!("{map_name}.toml")));
    let map_text = match beside.and_then(|p| std::fs::read_to_string(p).ok()) {
        Some(t) => t,
        None => scenario::shipped_map(map_name).map(str::to_string).ok_or_else(|| RulesetError::Setup(format!("no map '{map_name}'")))?,
    };
    Scenario::parse(setup.scenario_text, &map_text).map_err(|e| RulesetError::Setup(e.to_string()))
}

/// The round a board waits for: two per game turn, numbered from 1.
fn round_of(board: &Board) -> Round {
    let players = board.players.len().max(1);
    let number = (u32::from(board.turn.max(1)) - 1) * players as u32 + board.next as u32 + 1;
    let side = board.phasing().clone();
    Round { number, label: format!("turn {}, {}", board.turn, side), writers: vec![side.0] }
}

/// A side's counters as its welcome lists them, and an order line to copy
/// that the checker accepts on the opening board: a move for the side that
/// plays first, a standing retreat preference for the other.
fn forces(board: &Board, options: &Options, side: &SideId) -> (String, String) {
    let mut s = String::from("Your counters:\n");
    for u in board.units.values().filter(|u| &u.side == side) {
        let at = u.hex.map_or_else(|| "off the map".to_string(), |h| h.to_string());
        let _ = writeln!(s, "  {}: {} {}, strength {}, {} MP, in {at}", u.id, u.name, u.kind.name(), u.current_strength(), u.mp);
    }
    let first = board.phasing() == side;
    let example = board
        .units
        .values()
        .filter(|u| &u.side == side && u.is_combat())
        .filter_map(|u| u.hex.map(|h| (u, h)))
        .flat_map(|(u, h)| h.neighbours().into_iter().filter(|n| board.map.contains(*n)).map(move |n| (u, n)))
        .map(|(u, n)| if first { format!("{}: move {n}\n", u.id) } else { format!("retreat {} {n}\n", u.id) })
        .find(|line| !check(line, side, board, options).has_errors())
        .unwrap_or_default();
    (s, example)
}

/// The summary partials' data: each army's losses against its threshold
/// and its counters.
fn summary(board: &Board) -> Json {
    let totals = victory::totals(board);
    let sides: Vec<Json> = board
        .sides
        .keys()
        .map(|side| {
            let t = totals.iter().find(|t| &t.side == side);
            let units: Vec<Json> = board
                .units
                .values()
                .filter(|u| &u.side == side)
                .map(|u| {
                    serde_json::json!({
                        "id": u.id.0, "name": u.name, "kind": u.kind.name(),
                        "hex": u.hex.map(|h| h.to_string()),
                        "strength": u.current_strength(),
                        "reduced": u.reduced.is_some() && !u.is_full(),
                        "status": if u.status == Status::OnMap { String::new() } else { u.status.name().to_string() },
                    })
                })
                .collect();
            serde_json::json!({
                "side": side.0,
                "lost": t.map_or(0, |t| t.lost),
                "threshold": t.and_then(|t| t.threshold),
                "units": units,
            })
        })
        .collect();
    serde_json::json!({ "armies": sides, "track": report::track(board) })
}

/// Units that charged in these events (the picture's Charge markers).
fn chargers(events: &[Event]) -> Vec<UnitId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { unit, charge: Some(_), .. } => Some(unit.clone()),
            _ => None,
        })
        .collect()
}

impl Ruleset for FurorBarbarus {
    fn name(&self) -> &'static str {
        super::RULESET
    }

    fn title(&self) -> &'static str {
        "Furor Barbarus"
    }

    fn version(&self, options: &Json) -> String {
        format!("{} {} options {}", super::RULESET, env!("CARGO_PKG_VERSION"), options)
    }

    fn guide(&self) -> &'static str {
        include_str!("../../../docs/furor-barbarus/guide.md")
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("furor-barbarus/summary.txt", include_str!("../../../templates/furor-barbarus/summary.txt")),
            ("furor-barbarus/summary.html", include_str!("../../../templates/furor-barbarus/summary.html")),
        ]
    }

    fn new_game(&self, setup: &Setup<'_>) -> Result<NewGame, RulesetError> {
        let scenario = load_scenario(setup)?;
        let options: Options = toml::Value::Table(setup.options.clone())
            .try_into()
            .map_err(|e: toml::de::Error| RulesetError::Setup(format!("[options]: {}", e.message())))?;
        let (first, rolls) = scenario.first_player(&mut SeededDice::new(setup.seed)).map_err(|e| RulesetError::Engine(e.to_string()))?;
        let mut board = scenario.start(&options, &BTreeMap::new(), &first).map_err(|e| RulesetError::Setup(e.to_string()))?;
        let turns = u8::try_from(setup.max_turns).unwrap_or(u8::MAX).min(scenario.turns);
        board.last_turn = Some(turns);
        let sides: Vec<String> = scenario.armies.keys().map(|s| s.0.clone()).collect();
        let mut length = format!(
            "The battle lasts {turns} game turns, each a player-turn of each side in turn; the {first} play first."
        );
        for (side, roll) in &rolls {
            let _ = write!(length, "\nFirst-player roll of the {side}: {roll} (first-player:{side} on turn 1's dice).");
        }
        let _ = write!(length, "\nThe counters stand as the scenario sets them up ({}).", scenario.name);
        let welcome = scenario
            .armies
            .keys()
            .map(|side| {
                let (briefing, example) = forces(&board, &options, side);
                (side.0.clone(), Welcome { rules: self.title().to_string(), length: length.clone(), briefing, example })
            })
            .collect();
        let state = State { board, options: options.clone(), standing: BTreeMap::new() };
        Ok(NewGame { state: json(&state)?, options: json(&options)?, sides, last_turn: u32::from(turns), welcome })
    }

    fn sides(&self, state: &Json) -> Result<Vec<String>, RulesetError> {
        Ok(read::<State>("the board", state)?.board.sides.keys().map(|s| s.0.clone()).collect())
    }

    fn round(&self, state: &Json) -> Result<Round, RulesetError> {
        Ok(round_of(&read::<State>("the board", state)?.board))
    }

    fn check_orders(&self, state: &Json, side: &str, sheet: &str, envelope: &[Rendered]) -> Result<Checked, RulesetError> {
        let state: State = read("the board", state)?;
        let id = SideId::from(side);
        let c = check(sheet, &id, &state.board, &state.options);
        let errors = c.diagnostics.iter().filter(|d| d.is_error()).count() + envelope.iter().filter(|d| d.error).count();
        let mut text = String::new();
        for d in envelope {
            text.push_str(&d.text);
            text.push('\n');
        }
        text.push_str(&confirmation(sheet, &c, &state.board));
        let phasing = *state.board.phasing() == id;
        let orders = SideOrders { turn: if phasing { c.orders.clone() } else { PlayerTurnOrders::default() }, reactions: c.reactions.clone() };
        Ok(Checked {
            orders: json(&orders)?,
            understood: c.understood.iter().enumerate().map(|(i, (_, l))| (format!("line {}", i + 1), l.clone())).collect(),
            confirmation: text,
            errors,
        })
    }

    fn die_for(&self, _state: &Json, key: &str) -> Result<DieKind, String> {
        let parts: Vec<&str> = key.split(':').collect();
        let number = |s: &str| s.parse::<u32>().is_ok_and(|n| n >= 1);
        match parts.as_slice() {
            ["defection", n] if number(n) => Ok(DieKind::TwoD6),
            ["combat" | "chararic", n] if number(n) => Ok(DieKind::D6),
            ["morale" | "impetuous" | "breton" | "zoc", u, k] if !u.is_empty() && number(k) => Ok(DieKind::D6),
            ["feigned" | "commander-loss" | "first-player", u] if !u.is_empty() => Ok(DieKind::D6),
            _ => Err(format!(
                "'{key}' is not a Furor Barbarus dice key (combat:N, morale:UNIT:N, feigned:UNIT, commander-loss:UNIT, defection:N, chararic:N, impetuous:UNIT:N, breton:UNIT:N, zoc:UNIT:N)"
            )),
        }
    }

    fn resolve(&self, input: RoundInput<'_>) -> Result<Resolved, RulesetError> {
        let mut state: State = read("the board", input.state)?;
        let options: Options = read("the options", input.options)?;
        let mut written: BTreeMap<SideId, SideOrders> = BTreeMap::new();
        for (side, o) in input.orders {
            written.insert(SideId::from(side.as_str()), read("orders", o)?);
        }
        // Reactions written this round count for this round.
        for (side, o) in &written {
            overlay(state.standing.entry(side.clone()).or_default(), &o.reactions);
        }
        let phasing = state.board.phasing().clone();
        let orders = written.get(&phasing).map(|o| o.turn.clone()).unwrap_or_default();
        let reactions = state.board.opponent(&phasing).and_then(|o| state.standing.get(o)).cloned().unwrap_or_default();
        let mut dice = Recorded::new(input.dice);
        let mut r = resolve(&state.board, &orders, &reactions, &options, &mut dice, StopAfter::PlayerTurn).map_err(|e| RulesetError::Engine(e.to_string()))?;
        // A new game turn begins at once, so both players see its rolls.
        if !r.board.is_over() && !r.board.turn_started && r.board.next == 0 {
            let start = begin_turn(&r.board, &options, &mut dice).map_err(|e| RulesetError::Engine(e.to_string()))?;
            r.board = start.board;
            r.events.extend(start.events);
        }
        let sections = report::sections(&r).into_iter().map(|s| Section { title: s.heading, lines: s.lines }).collect();
        let victory = r.board.outcome.as_ref().map(|o| vec![format!("{}.", crate::report::capitalize_first(&report::outcome(o)))]).unwrap_or_default();
        let mut extra = serde_json::Map::new();
        extra.insert("charged".into(), json(&chargers(&r.events))?);
        let ended = r.board.is_over();
        let summary_title = if ended { "The board at the end".to_string() } else { format!("The board before {}", round_of(&r.board).label) };
        let summary = summary(&r.board);
        let events = json(&r.events)?;
        state.board = r.board;
        Ok(Resolved { state: json(&state)?, events, sections, dice: dice.lines(), summary, summary_title, victory, ended, extra })
    }

    fn picture(&self, _before: &Json, after: &Json, report: &RoundReport) -> Result<String, RulesetError> {
        let state: State = read("the board", after)?;
        let charged: Vec<UnitId> = match report.extra.get("charged") {
            Some(c) => read("the chargers", c)?,
            None => Vec::new(),
        };
        let marks = picture::Marks { charged: charged.into_iter().collect(), caption: format!("{} — after {}", report.title, report.label) };
        Ok(picture::svg(&state.board, &marks))
    }

    fn canonical(&self, state: &Json) -> Result<Json, RulesetError> {
        json(&read::<State>("the board", state)?)
    }

    fn run_case(&self, text: &str) -> CaseOutcome {
        super::case::run_text(text)
    }

    fn case_state(&self, text: &str) -> Result<Json, RulesetError> {
        let case = super::case::Case::parse(text).map_err(|e| RulesetError::Setup(e.to_string()))?;
        json(&State { board: case.board, options: case.options, standing: BTreeMap::new() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::SeededDice;

    fn soissons() -> (NewGame, String) {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/campaigns/furor-barbarus/scenarios/soissons.toml"));
        let text = std::fs::read_to_string(path).unwrap();
        let options = toml::Table::new();
        let g = FurorBarbarus
            .new_game(&Setup { scenario_path: path, scenario_text: &text, options: &options, max_turns: 12, seed: [5; 32] })
            .unwrap();
        (g, text)
    }

    #[test]
    fn a_game_turn_is_two_rounds_and_the_phasing_side_writes() {
        let (g, setup) = soissons();
        assert_eq!(g.sides, vec!["franks", "gallo-romans"]);
        assert_eq!(g.last_turn, 6);
        let r = FurorBarbarus.round(&g.state).unwrap();
        assert_eq!((r.number, r.label.as_str(), r.writers.clone()), (1, "turn 1, franks", vec!["franks".to_string()]));
        let franks = FurorBarbarus.check_orders(&g.state, "franks", "salian-4a: move 0706 0606\n", &[]).unwrap();
        assert_eq!(franks.errors, 0, "{}", franks.confirmation);
        let romans = FurorBarbarus.check_orders(&g.state, "gallo-romans", "retreat legionaries-4 0406 0506\n", &[]).unwrap();
        assert_eq!(romans.errors, 0, "{}", romans.confirmation);
        let orders: BTreeMap<String, Json> = [("franks".to_string(), franks.orders), ("gallo-romans".to_string(), romans.orders)].into();
        let mut dice = SeededDice::new([9; 32]);
        let options = g.options.clone();
        let done = FurorBarbarus
            .resolve(RoundInput { state: &g.state, options: &options, setup: &setup, last_turn: 6, orders: &orders, dice: &mut dice })
            .unwrap();
        let next = FurorBarbarus.round(&done.state).unwrap();
        assert_eq!((next.number, next.writers.clone()), (2, vec!["gallo-romans".to_string()]));
        let state: State = serde_json::from_value(done.state).unwrap();
        assert_eq!(state.board.unit(&"salian-4a".into()).unwrap().hex.unwrap().to_string(), "0606");
        assert_eq!(state.standing[&SideId::from("gallo-romans")].retreat.len(), 1, "the reaction stands");
        assert!(done.sections.iter().any(|s| s.title.starts_with("Turn 1: movement of the franks")));
    }

    #[test]
    fn a_standing_reaction_holds_until_that_unit_is_given_another() {
        let mut standing = Reactions::default();
        let a = Reactions { retreat: [("a".into(), vec!["0101".parse().unwrap()])].into(), ..Reactions::default() };
        let b = Reactions { retreat: [("b".into(), vec!["0202".parse().unwrap()])].into(), ..Reactions::default() };
        overlay(&mut standing, &a);
        overlay(&mut standing, &b);
        assert_eq!(standing.retreat.len(), 2);
        overlay(&mut standing, &Reactions { retreat: [("a".into(), vec!["0303".parse().unwrap()])].into(), ..Reactions::default() });
        assert_eq!(standing.retreat[&UnitId::from("a")][0].to_string(), "0303");
    }

    #[test]
    fn dice_keys_name_their_die() {
        let none = Json::Null;
        assert_eq!(FurorBarbarus.die_for(&none, "combat:3"), Ok(DieKind::D6));
        assert_eq!(FurorBarbarus.die_for(&none, "defection:1"), Ok(DieKind::TwoD6));
        assert!(FurorBarbarus.die_for(&none, "melee:dragons").is_err());
    }
}
