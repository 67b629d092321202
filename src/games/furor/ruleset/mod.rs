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
//!
//! Before the battle come the scenario's set-up rounds (§12, §15): the
//! state is then a [`Deployment`] (the scenario and map files, the
//! placements so far); each writing side mails its placements, and the
//! last set-up round builds the board (and rolls for the first player at
//! Campus Mauriacus). Commanders sealed by the scenario are shown to no
//! one until every side has set up.

use super::board::{Board, EndOfGame, Outcome, SideId, Status, UnitId};
use super::events::chargers;
use super::hex::Hex;
use super::options::FirstPlayerRoll;
use super::options::Options;
use super::orders::check::{check, check_exchange, Exchange};
use super::orders::confirm::{confirmation, problems};
use super::orders::setup::{self as placing, check_setup};
use super::orders::{DefenderAdvance, PlayerTurnOrders, Problem, Reactions};
use super::rules::Kind;
use super::scenario::{self, Scenario};
use super::scenario::{FirstPlayer, Placement};
use super::sequence::Charges;
use super::{picture, report, victory};
use crate::case::CaseOutcome;
use crate::diagnostic::{Diagnostic, Rendered};
use crate::dice::{DieKind, Recorded, SeededDice};
use crate::games::read;
use crate::games::{
    Checked, GameResult, Json, NewGame, Resolved, Round, RoundInput, Ruleset, RulesetError, Setup,
    Welcome,
};
use crate::report::{plural, RoundReport, Section};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use turn::Asked;

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
    /// How many set-up rounds came before the battle (round numbers go on
    /// from them; games stored before set-up rounds had none).
    #[serde(default)]
    pub setup_rounds: u32,
    /// Under `split_turn`, between the phasing player's two exchanges: his
    /// moves are played and his attacks awaited (absent otherwise, so the
    /// states of games without the option are stored as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moved: Option<Moved>,
    /// Under `ask_owner`, a player-turn stopped at a question to the other
    /// player (FB-19).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
    /// How many questions the game has asked so far: each was a round.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub questions: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl State {
    /// A battle about to begin, with no standing reactions yet.
    fn new(board: Board, options: Options, setup_rounds: u32) -> State {
        State {
            board,
            options,
            standing: BTreeMap::new(),
            setup_rounds,
            moved: None,
            asked: None,
            questions: 0,
        }
    }
}

/// What the moves' exchange of a split player-turn leaves for the attacks'
/// (§15 `split-turn`): the Charge markers, and the phasing player's own
/// retreat and impetuous-route choices from his moves' mail, which stand
/// unless the attacks' mail replaces them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Moved {
    pub charges: Charges,
    #[serde(default)]
    pub retreat: BTreeMap<UnitId, Vec<Hex>>,
    #[serde(default)]
    pub impetuous_routes: BTreeMap<UnitId, Vec<Hex>>,
}

/// The set-up rounds under way: what the board is built from when the
/// last of them is played.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Deployment {
    /// The scenario and map files as the game was created from them.
    pub scenario: String,
    pub map: String,
    pub options: Options,
    pub last_turn: u8,
    /// The set-up rounds played by mail, in order: the scenario's, without
    /// the sides that have nothing to choose.
    pub rounds: Vec<Vec<SideId>>,
    /// How many of them are played.
    pub done: usize,
    /// Each side's whole set-up, once its round is played.
    pub placements: BTreeMap<SideId, Placement>,
    /// The first player, when known before the set-up (a scenario that
    /// names him, or O31's option to roll first).
    pub first: Option<SideId>,
}

/// A game as stored: its set-up, then the battle.
// Read once per call and dropped: boxing the board would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
enum Stored {
    Setup { setup: Deployment },
    Play(State),
}

/// The stored game (a bare board and reactions, as games were stored before
/// set-up rounds, is a battle).
fn stored(state: &Json) -> Result<Stored, RulesetError> {
    match state.get("setup") {
        Some(d) => Ok(Stored::Setup {
            setup: read("the set-up", d)?,
        }),
        None => Ok(Stored::Play(read("the board", state)?)),
    }
}

/// A side's checked mail in a set-up round: the counters it placed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct SetupOrders {
    placement: Placement,
}

impl Deployment {
    fn scenario(&self) -> Result<Scenario, RulesetError> {
        Scenario::parse(&self.scenario, &self.map)
            .map_err(|e| RulesetError::Corrupt(format!("the scenario: {e}")))
    }

    fn writers(&self) -> &[SideId] {
        self.rounds.get(self.done).map_or(&[], Vec::as_slice)
    }

    fn round(&self) -> Round {
        let writers: Vec<String> = self.writers().iter().map(|s| s.0.clone()).collect();
        Round {
            number: self.done as u32 + 1,
            label: format!("set-up, {}", writers.join(" and ")),
            writers,
            game_master: None,
        }
    }

    /// The board as the scenario lists it, for reading names.
    fn listed(&self, scenario: &Scenario) -> Result<Board, RulesetError> {
        let any = scenario
            .armies
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(|| SideId::from(""));
        scenario
            .start(&self.options, &BTreeMap::new(), &any)
            .map_err(|e| RulesetError::Corrupt(e.to_string()))
    }

    /// The board as placed so far, as every player may see it: the sides
    /// still to set up are not shown, nor sealed commanders before the end.
    fn shown(&self, scenario: &Scenario) -> Result<Board, RulesetError> {
        let any = scenario
            .armies
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(|| SideId::from(""));
        let mut board = scenario
            .start(&self.options, &self.placements, &any)
            .map_err(|e| RulesetError::Corrupt(e.to_string()))?;
        for u in board.units.values_mut() {
            let to_come = self.rounds.iter().flatten().any(|s| s == &u.side)
                && !self.placements.contains_key(&u.side);
            if to_come || (scenario.sealed_commanders && u.kind == Kind::Commander) {
                u.hex = None;
            }
        }
        Ok(board)
    }

    /// The opening board, once every set-up round is played.
    fn build(&self, scenario: &Scenario, first: &SideId) -> Result<State, RulesetError> {
        let mut board = scenario
            .start(&self.options, &self.placements, first)
            .map_err(|e| RulesetError::Corrupt(e.to_string()))?;
        board.last_turn = Some(self.last_turn);
        Ok(State::new(
            board,
            self.options.clone(),
            self.rounds.len() as u32,
        ))
    }
}

/// One side's checked mail: its player-turn's orders (empty when it is not
/// its turn) and the standing reactions it wrote.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SideOrders {
    pub turn: PlayerTurnOrders,
    pub reactions: Reactions,
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
    standing
        .impetuous_routes
        .extend(new.impetuous_routes.clone());
    if new.advance != DefenderAdvance::None || new.advance_commander {
        standing.advance = new.advance.clone();
        standing.advance_commander = new.advance_commander;
    }
}

/// The scenario a game file names, with its map's text: `maps/NAME.toml`
/// beside the scenario's folder when the club ships its own, else the
/// built-in one.
fn load_scenario(setup: &Setup<'_>) -> Result<(Scenario, String), RulesetError> {
    let head: toml::Table = toml::from_str(setup.scenario_text)
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
    let beside = setup
        .scenario_path
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join("maps").join(format!("{map_name}.toml")));
    let map_text = match beside.and_then(|p| std::fs::read_to_string(p).ok()) {
        Some(t) => t,
        None => scenario::shipped_map(map_name)
            .map(str::to_string)
            .ok_or_else(|| RulesetError::Setup(format!("no map '{map_name}'")))?,
    };
    let scenario = Scenario::parse(setup.scenario_text, &map_text)
        .map_err(|e| RulesetError::Setup(e.to_string()))?;
    Ok((scenario, map_text))
}

/// The round a battle waits for: one per player-turn (two with
/// `split_turn`: the moves, then the attacks), numbered on from the set-up
/// rounds.
fn round_of(state: &State) -> Round {
    let board = &state.board;
    let players = board.players.len().max(1) as u32;
    let player_turn = (u32::from(board.turn.max(1)) - 1) * players + board.next as u32;
    let (exchanges, second) = match (state.options.split_turn, &state.moved) {
        (false, _) => (1, 0),
        (true, moved) => (2, u32::from(moved.is_some())),
    };
    let number = state.setup_rounds + player_turn * exchanges + second + state.questions + 1;
    let side = board.phasing().clone();
    let mut label = match (state.options.split_turn, &state.moved) {
        (false, _) => format!("turn {}, {}", board.turn, side),
        (true, None) => format!("turn {}, {}, moves", board.turn, side),
        (true, Some(_)) => format!("turn {}, {}, attacks", board.turn, side),
    };
    let mut writers = vec![side.0];
    if let Some(answers) = state.asked.as_ref().and(turn::answering(state)) {
        let _ = write!(label, ": the {answers}' answer");
        writers = vec![answers.0];
    }
    Round {
        number,
        label,
        writers,
        game_master: None,
    }
}

/// Which exchange of the player-turn a battle state waits for.
fn exchange_of(state: &State) -> Exchange {
    match (state.options.split_turn, &state.moved) {
        (false, _) => Exchange::Whole,
        (true, None) => Exchange::Moves,
        (true, Some(_)) => Exchange::Attacks,
    }
}

/// A side's counters as its welcome lists them, and an order line to copy
/// that the checker accepts on the opening board: a move for the side that
/// plays first, a standing retreat preference for the other.
fn forces(board: &Board, options: &Options, side: &SideId, sets_up: bool) -> (String, String) {
    let mut s = String::from(if sets_up {
        "Your counters, where the scenario lists them:\n"
    } else {
        "Your counters:\n"
    });
    for u in board.units.values().filter(|u| &u.side == side) {
        let at = u
            .hex
            .map_or_else(|| "off the map".to_string(), |h| h.to_string());
        let _ = writeln!(
            s,
            "  {}: {} {}, strength {}, {} MP, in {at}",
            u.id,
            u.name,
            u.kind.name(),
            u.current_strength(),
            u.mp
        );
    }
    let first = board.phasing() == side;
    let placed = board
        .units
        .values()
        .find(|u| &u.side == side && u.is_combat())
        .and_then(|u| u.hex.map(|h| (u, h)));
    if let Some((u, h)) = placed.filter(|_| sets_up) {
        return (s, format!("place {} in {h}\n", u.id));
    }
    let example = board
        .units
        .values()
        .filter(|u| &u.side == side && u.is_combat())
        .filter_map(|u| u.hex.map(|h| (u, h)))
        .flat_map(|(u, h)| {
            h.neighbours()
                .into_iter()
                .filter(|n| board.map.contains(*n))
                .map(move |n| (u, n))
        })
        .map(|(u, n)| {
            if first {
                format!("{}: move {n}\n", u.id)
            } else {
                format!("retreat {} {n}\n", u.id)
            }
        })
        .find(|line| !check(line, side, board, options).has_errors())
        .unwrap_or_default();
    (s, example)
}

/// The welcome's briefing: what a player needs to start without the
/// rulebook — the story, how to win, the special rules, both armies'
/// counters (both stand on the map) and where this side sets up.
fn briefing(
    scenario: &Scenario,
    text: &str,
    board: &Board,
    options: &Options,
    side: &SideId,
    turns: u8,
) -> String {
    let mut s = format!("{}\n", scenario.name);
    let story = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix('#'))
        .map(|l| l.split(" Book §").next().unwrap_or(l).trim())
        .unwrap_or_default();
    if !story.is_empty() {
        let _ = writeln!(s, "{story}");
    }
    if !scenario.note.is_empty() {
        let _ = writeln!(s, "{}", scenario.note);
    }
    let enemy_of = |a: &SideId| {
        scenario
            .armies
            .keys()
            .find(|o| *o != a)
            .map_or_else(|| "other side".to_string(), |o| o.0.clone())
    };
    s.push_str("\nHow to win:\n");
    for (army, a) in &scenario.armies {
        let _ = writeln!(
            s,
            "  The {} win a major victory if the {army} lose {} or more ({}'s army morale threshold).",
            enemy_of(army),
            plural(u32::from(a.threshold), "strength point", "strength points"),
            a.name
        );
    }
    s.push_str("  Losses count each eliminated unit's full printed strength, a commander 4 and baggage 2, checked at the end of every game turn.\n");
    s.push_str("  If both armies break in the same turn, the one over its threshold by less wins a minor victory (equal margins: a tie).\n");
    let end = match &board.rules.end_of_game {
        EndOfGame::LesserLoss => {
            "the army that lost less wins a minor victory; equal losses tie".to_string()
        }
        EndOfGame::LesserLossElse(x) => {
            format!("the army that lost less wins a minor victory; equal losses give the {x} a minor victory")
        }
        EndOfGame::MinorTo(x) => format!("the {x} win a minor victory"),
    };
    let _ = writeln!(
        s,
        "  If neither army breaks by the end of turn {turns}, {end}."
    );
    let rules = special_rules(board, options);
    if !rules.is_empty() {
        s.push_str("\nSpecial rules in force:\n");
        for (name, what) in rules {
            let _ = writeln!(s, "  {name}: {what}");
        }
    }
    let line = |s: &mut String, u: &super::board::Unit| {
        let at = u
            .hex
            .map_or_else(|| "not on the map yet".to_string(), |h| format!("in {h}"));
        let what = if u.kind == Kind::Commander {
            format!("commander, bonus {}", u.current_strength())
        } else {
            format!("{}, strength {}", u.kind.name(), u.current_strength())
        };
        let _ = writeln!(s, "  {}: {}, {what}, {} MP, {at}", u.id, u.name, u.mp);
    };
    let ours: Vec<_> = board.units.values().filter(|u| &u.side == side).collect();
    let _ = writeln!(
        s,
        "\nYour counters ({}, the ids are what your orders use):",
        plural(ours.len() as u32, "counter", "counters")
    );
    for u in &ours {
        line(&mut s, u);
    }
    let theirs: Vec<_> = board
        .units
        .values()
        .filter(|u| &u.side != side && !board.is_neutral(u))
        .filter(|u| !(scenario.sealed_commanders && u.kind == Kind::Commander))
        .collect();
    let _ = writeln!(
        s,
        "\nThe enemy's counters ({}, where the scenario lists them):",
        plural(theirs.len() as u32, "counter", "counters")
    );
    for u in &theirs {
        line(&mut s, u);
    }
    if scenario.sealed_commanders {
        s.push_str("  The enemy's commanders are sealed until both sides have set up.\n");
    }
    let neutral: Vec<_> = board
        .units
        .values()
        .filter(|u| board.is_neutral(u))
        .collect();
    if !neutral.is_empty() {
        let _ = writeln!(
            s,
            "\nNeutral counters ({}):",
            plural(neutral.len() as u32, "counter", "counters")
        );
        for u in &neutral {
            line(&mut s, u);
        }
    }
    let area = scenario.setup_area(options, side);
    if scenario.has_choice(options, side) && !area.is_empty() {
        let hexes: Vec<String> = area.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            s,
            "\nYou set up in {} (dashed on the picture): {}.",
            plural(hexes.len() as u32, "hex", "hexes"),
            hexes.join(", ")
        );
    }
    s
}

/// The special rules this board plays, each with a line saying what it does.
fn special_rules(board: &Board, options: &Options) -> Vec<(&'static str, &'static str)> {
    let r = &board.rules;
    let mut v = Vec::new();
    if r.charge_needs_mark {
        v.push((
            "Marked charges",
            "only units with a charge mark may charge.",
        ));
    }
    if r.scenario.as_deref() == Some("campus-mauriacus") {
        v.push((
            "Feigned flight",
            "a unit with the mark may try to draw an isolated enemy unit up to 2 hexes towards it.",
        ));
    }
    if r.alan_defection {
        v.push(("The Alans' defection", "each Alan loss makes the Roman player roll; at or under the Alan losses so far, the Alans and Sangiban leave the battle."));
    }
    if options.commanders_role && r.scenario.as_deref() == Some("campus-mauriacus") {
        v.push(("The role of the commanders", "a commander helps only his own troops; when one is eliminated his troops may lose or gain 1 for a turn."));
    }
    if options.impetuousness && r.scenario.as_deref() == Some("campus-mauriacus") {
        v.push((
            "Impetuousness",
            "units with the impetuous mark may rush at the enemy.",
        ));
    }
    if r.chararic.is_some() {
        v.push(("Chararic", "his corps is neutral for the first two turns (no move, attack or zone of control); attacking it makes it join the other side; from turn 3 the Franks roll each turn: 1 he betrays Clovis, 6 he joins him."));
    }
    if r.divine_help.is_some() {
        v.push(("The god of Clotilde", "if the Franks are first to reach 12 lost, for the next turn units next to Clovis get +1 strength, Clovis +2, and every Frank +1 morale; once a game."));
    }
    if r.breton_evasion {
        v.push(("Breton evasion", "when attacked, the Breton cavalry may roll to evade up to 2 hexes on a 5 or 6, and the attack is cancelled."));
    }
    v
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
                        "status": match (u.status, u.hex) {
                            (Status::OnMap, Some(_)) => String::new(),
                            (Status::OnMap, None) => "not shown yet".to_string(),
                            (status, _) => status.name().to_string(),
                        },
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

/// What the welcome says of the set-up: who sets up when, what a silent
/// side's counters do, who has no round, and the sealed commanders.
fn setup_story(scenario: &Scenario, rounds: &[Vec<SideId>]) -> String {
    if rounds.is_empty() {
        return format!(
            "The counters stand as the scenario sets them up ({}).",
            scenario.name
        );
    }
    let order: Vec<String> = rounds
        .iter()
        .map(|r| {
            let names: Vec<String> = r.iter().map(|s| format!("the {s}")).collect();
            if names.len() > 1 {
                format!("{} together", names.join(" and "))
            } else {
                names.join("")
            }
        })
        .collect();
    let mut s = format!(
        "The battle begins with the set-up ({}): {} mail where their counters stand ('place salian-4a in 0806'); \
         a counter you do not place stands where the scenario lists it.",
        scenario.name,
        order.join(", then ")
    );
    for side in scenario
        .armies
        .keys()
        .filter(|a| !rounds.iter().flatten().any(|s| s == *a))
    {
        let _ = write!(s, " The {side} have nothing to choose: their counters stand as listed, without a set-up round.");
    }
    if scenario.sealed_commanders {
        s.push_str(" The commanders' hexes are sealed: no one sees them until both sides have set up; the last set-up's report shows them together.");
    }
    s
}

/// One set-up round played: the writers' placements (the scenario's for
/// what they did not place); after the last, the board is built and the
/// first player known.
fn resolve_setup(
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

mod turn;

impl Ruleset for FurorBarbarus {
    fn name(&self) -> &'static str {
        super::RULESET
    }

    fn title(&self) -> &'static str {
        "Furor Barbarus"
    }

    fn version(&self, options: &Json) -> String {
        format!(
            "{} {} options {}",
            super::RULESET,
            env!("CARGO_PKG_VERSION"),
            options
        )
    }

    fn guide(&self) -> &'static str {
        include_str!("../../../../docs/furor-barbarus/guide.md")
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            (
                "furor-barbarus/summary.txt",
                include_str!("../../../../templates/furor-barbarus/summary.txt"),
            ),
            (
                "furor-barbarus/summary.html",
                include_str!("../../../../templates/furor-barbarus/summary.html"),
            ),
        ]
    }

    fn new_game(&self, setup: &Setup<'_>) -> Result<NewGame, RulesetError> {
        setup.no_armies_nor_pack(self.title())?;
        let (scenario, map) = load_scenario(setup)?;
        let options: Options = toml::Value::Table(setup.options.clone())
            .try_into()
            .map_err(|e: toml::de::Error| {
                RulesetError::Setup(format!("[options]: {}", e.message()))
            })?;
        let rounds: Vec<Vec<SideId>> = scenario
            .setup_rounds
            .iter()
            .map(|r| {
                r.iter()
                    .filter(|s| scenario.has_choice(&options, s))
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        let roll_later = matches!(scenario.first_player, FirstPlayer::Roll { .. })
            && options.first_player_roll == FirstPlayerRoll::AfterSetup
            && !rounds.is_empty();
        let (first, rolls) = if roll_later {
            (None, Vec::new())
        } else {
            let (f, r) = scenario
                .first_player(&mut SeededDice::new(setup.seed))
                .map_err(|e| RulesetError::Engine(e.to_string()))?;
            (Some(f), r)
        };
        let turns = u8::try_from(setup.max_turns)
            .unwrap_or(u8::MAX)
            .min(scenario.turns);
        let deployment = Deployment {
            scenario: setup.scenario_text.to_string(),
            map,
            options: options.clone(),
            last_turn: turns,
            rounds,
            done: 0,
            placements: BTreeMap::new(),
            first: first.clone(),
        };
        let sides: Vec<String> = scenario.armies.keys().map(|s| s.0.clone()).collect();
        let mut length = format!(
            "The battle lasts {turns} game turns, each a player-turn of each side in turn; "
        );
        match &first {
            Some(f) => {
                let _ = write!(length, "the {f} play first.");
            }
            None => {
                length.push_str("who plays first is rolled for once both sides have set up (O31).")
            }
        }
        for (side, roll) in &rolls {
            let _ = write!(
                length,
                "\nFirst-player roll of the {side}: {roll} (first-player:{side} on turn 1's dice)."
            );
        }
        if deployment.options.split_turn {
            length.push_str(
                "\nThe game plays the split turn (§15): your player-turn is two rounds, your moves, then, after their report, your attacks.",
            );
        }
        length.push('\n');
        length.push_str(&setup_story(&scenario, &deployment.rounds));
        let listed = deployment.listed(&scenario)?;
        let welcome = scenario
            .armies
            .keys()
            .map(|side| {
                let sets_up = deployment.rounds.iter().flatten().any(|s| s == side);
                let (_, example) = forces(&listed, &options, side, sets_up);
                let briefing = briefing(
                    &scenario,
                    setup.scenario_text,
                    &listed,
                    &options,
                    side,
                    turns,
                );
                let marks = picture::Marks {
                    caption: format!("{} — the start, as the scenario lists it", scenario.name),
                    areas: [side]
                        .into_iter()
                        .filter(|s| scenario.has_choice(&options, s))
                        .map(|s| (s.clone(), scenario.setup_area(&options, s)))
                        .filter(|(_, a)| !a.is_empty())
                        .collect(),
                    ..picture::Marks::default()
                };
                (
                    side.0.clone(),
                    Welcome {
                        rules: self.title().to_string(),
                        length: length.clone(),
                        briefing,
                        example,
                        picture: Some(picture::svg(&listed, &marks)),
                    },
                )
            })
            .collect();
        let state = match &first {
            Some(f) if deployment.rounds.is_empty() => json(&deployment.build(&scenario, f)?)?,
            _ => json(&Stored::Setup { setup: deployment })?,
        };
        Ok(NewGame {
            state,
            options: json(&options)?,
            sides,
            last_turn: u32::from(turns),
            welcome,
        })
    }

    fn sides(&self, state: &Json) -> Result<Vec<String>, RulesetError> {
        Ok(match stored(state)? {
            Stored::Setup { setup } => setup
                .scenario()?
                .armies
                .keys()
                .map(|s| s.0.clone())
                .collect(),
            Stored::Play(state) => state.board.sides.keys().map(|s| s.0.clone()).collect(),
        })
    }

    fn round(&self, state: &Json) -> Result<Round, RulesetError> {
        Ok(match stored(state)? {
            Stored::Setup { setup } => setup.round(),
            Stored::Play(state) => round_of(&state),
        })
    }

    /// The next set-up round's sides; after the last, the first player if
    /// he is known before the set-up (else he is rolled for: no one knows);
    /// in the battle, the other player (the order of play is fixed, §4).
    fn next_writers(&self, state: &Json) -> Result<Option<Vec<String>>, RulesetError> {
        let names = |r: &[SideId]| r.iter().map(|s| s.0.clone()).collect();
        Ok(match stored(state)? {
            Stored::Setup { setup } => match setup.rounds.get(setup.done + 1) {
                Some(next) => Some(names(next)),
                None => setup.first.map(|f| vec![f.0]),
            },
            // A question to the other player may come between (FB-19).
            Stored::Play(state) if state.options.ask_owner => None,
            // The moves' exchange is followed by the same player's attacks.
            Stored::Play(state) if exchange_of(&state) == Exchange::Moves => {
                Some(vec![state.board.phasing().0.clone()])
            }
            Stored::Play(state) => {
                let board = &state.board;
                let players = board.players.len().max(1);
                board
                    .players
                    .get((board.next + 1) % players)
                    .map(|s| vec![s.0.clone()])
            }
        })
    }

    fn check_orders(
        &self,
        state: &Json,
        side: &str,
        sheet: &str,
        envelope: &[Rendered],
    ) -> Result<Checked, RulesetError> {
        let id = SideId::from(side);
        let mut text = String::new();
        for d in envelope {
            text.push_str(&d.text);
            text.push('\n');
        }
        let envelope_errors = envelope.iter().filter(|d| d.error).count();
        let (orders, understood, errors) = match stored(state)? {
            Stored::Setup { setup } => {
                let scenario = setup.scenario()?;
                let listed = setup.listed(&scenario)?;
                if setup.writers().contains(&id) {
                    let c = check_setup(sheet, &id, &scenario, &setup.options, &listed);
                    text.push_str(&placing::confirmation(sheet, &c, &listed));
                    let errors = c.diagnostics.iter().filter(|d| d.is_error()).count();
                    (
                        json(&SetupOrders {
                            placement: c.written,
                        })?,
                        c.understood,
                        errors,
                    )
                } else {
                    let names = |r: &[SideId]| {
                        r.iter()
                            .map(|s| s.0.as_str())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    };
                    let order: Vec<String> = setup.rounds.iter().map(|r| names(r)).collect();
                    let written = super::orders::read::read(sheet);
                    let mut refused = written.problems;
                    refused.extend(written.lines.iter().map(|l| {
                        Diagnostic::new(Problem::NotYourTurn, l.span, format!("it is the set-up round of the {}: nothing of yours is taken now", names(setup.writers())))
                            .with_note(format!("the set-up goes {} (§15); moves and standing reactions are read once the board is set up", order.join(", then ")))
                    }));
                    refused.sort_by_key(|d| d.span.start);
                    text.push_str("Understood:\n  (nothing)\n");
                    text.push_str(&problems(sheet, &refused));
                    (
                        json(&SetupOrders::default())?,
                        Vec::new(),
                        refused.iter().filter(|d| d.is_error()).count(),
                    )
                }
            }
            Stored::Play(state) => {
                let charges = state
                    .moved
                    .as_ref()
                    .map(|m| m.charges.clone())
                    .unwrap_or_default();
                let c = check_exchange(
                    sheet,
                    &id,
                    &state.board,
                    &state.options,
                    exchange_of(&state),
                    &charges,
                );
                text.push_str(&confirmation(sheet, &c, &state.board));
                if turn::answering(&state).as_ref() == Some(&id) {
                    text.push_str(&turn::confirm_answer(&state, &c.reactions).unwrap_or_default());
                }
                let phasing = *state.board.phasing() == id;
                let orders = SideOrders {
                    turn: if phasing {
                        c.orders.clone()
                    } else {
                        PlayerTurnOrders::default()
                    },
                    reactions: c.reactions.clone(),
                };
                let errors = c.diagnostics.iter().filter(|d| d.is_error()).count();
                (json(&orders)?, c.understood, errors)
            }
        };
        Ok(Checked {
            orders,
            understood: understood
                .into_iter()
                .enumerate()
                .map(|(i, (_, l))| (format!("line {}", i + 1), l))
                .collect(),
            confirmation: text,
            errors: errors + envelope_errors,
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
        let state = match stored(input.state)? {
            Stored::Setup { setup } => return resolve_setup(setup, input.orders, input.dice),
            Stored::Play(state) => state,
        };
        let played = turn::play(state, input.orders, input.options, input.dice)?;
        let (state, r) = (played.state, played.resolution);
        let sections = report::sections(&r)
            .into_iter()
            .map(|s| Section {
                title: s.heading,
                lines: s.lines,
            })
            .chain(played.question.map(|lines| Section {
                title: format!(
                    "A question for the {}",
                    round_of(&state).writers.join(" and ")
                ),
                lines,
            }))
            .collect();
        let victory = r
            .board
            .outcome
            .as_ref()
            .map(|o| {
                vec![format!(
                    "{}.",
                    crate::report::capitalize_first(&report::outcome(o))
                )]
            })
            .unwrap_or_default();
        let mut extra = serde_json::Map::new();
        extra.insert("charged".into(), json(&chargers::<Vec<_>>(&r.events))?);
        let ended = r.board.is_over();
        // A minor victory is a win as much as a major one (LG-6).
        let result = r.board.outcome.as_ref().map(|o| match o {
            Outcome::Major(s) | Outcome::Minor(s) => GameResult::Won { side: s.0.clone() },
            Outcome::Tie => GameResult::Drawn,
        });
        let summary = summary(&r.board);
        let events = json(&r.events)?;
        let summary_title = if ended {
            "The board at the end".to_string()
        } else {
            format!("The board before {}", round_of(&state).label)
        };
        Ok(Resolved {
            state: json(&state)?,
            events,
            sections,
            dice: played.dice,
            summary,
            summary_title,
            victory,
            ended,
            result,
            extra,
        })
    }

    fn picture(
        &self,
        _before: &Json,
        after: &Json,
        report: &RoundReport,
    ) -> Result<String, RulesetError> {
        let board = match stored(after)? {
            Stored::Setup { setup } => setup.shown(&setup.scenario()?)?,
            Stored::Play(state) => state.board,
        };
        let charged: Vec<UnitId> = match report.extra.get("charged") {
            Some(c) => read("the chargers", c)?,
            None => Vec::new(),
        };
        let marks = picture::Marks {
            charged: charged.into_iter().collect(),
            caption: format!("{} — after {}", report.title, report.label),
            ..picture::Marks::default()
        };
        Ok(picture::svg(&board, &marks))
    }

    fn canonical(&self, state: &Json) -> Result<Json, RulesetError> {
        json(&stored(state)?)
    }

    fn run_case(&self, text: &str) -> CaseOutcome {
        super::case::run_text(text)
    }

    fn case_state(&self, text: &str) -> Result<Json, RulesetError> {
        let case =
            super::case::Case::parse(text).map_err(|e| RulesetError::Setup(e.to_string()))?;
        json(&State::new(case.board, case.options, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::SeededDice;

    fn game(name: &str, options: &str) -> (NewGame, String) {
        let path = std::path::PathBuf::from(format!(
            "{}/campaigns/furor-barbarus/scenarios/{name}.toml",
            env!("CARGO_MANIFEST_DIR")
        ));
        let text = std::fs::read_to_string(&path).unwrap();
        let options: toml::Table = toml::from_str(options).unwrap();
        let g = FurorBarbarus
            .new_game(&Setup {
                scenario_path: &path,
                scenario_text: &text,
                options: &options,
                max_turns: 12,
                seed: [5; 32],
                armies: &Default::default(),
                pack: None,
            })
            .unwrap();
        (g, text)
    }

    fn report() -> RoundReport {
        serde_json::from_value(serde_json::json!({
            "title": "Test", "game": "g", "turn": 1, "label": "set-up", "seed": "", "seed_hash": "", "nmr": [], "sections": [],
            "dice": [], "sides": null, "ended": false, "next_turn": 2, "deadline": "", "next_seed_hash": "", "draft": false
        }))
        .unwrap()
    }

    /// Play the current round with these sheets, checked as the post office would.
    fn play(
        state: &Json,
        options: &Json,
        sheets: &[(&str, &str)],
        dice: &mut dyn crate::dice::Dice,
    ) -> Resolved {
        let mut orders = BTreeMap::new();
        for (side, sheet) in sheets {
            let c = FurorBarbarus.check_orders(state, side, sheet, &[]).unwrap();
            assert_eq!(c.errors, 0, "{}", c.confirmation);
            orders.insert(side.to_string(), c.orders);
        }
        FurorBarbarus
            .resolve(RoundInput {
                state,
                options,
                setup: "",
                last_turn: 6,
                orders: &orders,
                dice,
            })
            .unwrap()
    }

    #[test]
    fn split_turn_plays_the_moves_then_the_attacks_each_a_round_of_the_same_player() {
        let (g, _) = game("soissons", "split_turn = true");
        assert!(
            g.welcome["franks"].length.contains("plays the split turn"),
            "{}",
            g.welcome["franks"].length
        );
        let mut dice = SeededDice::new([9; 32]);
        let options = g.options.clone();
        let placed = play(&g.state, &options, &[], &mut dice);
        let state = play(&placed.state, &options, &[], &mut dice).state;
        let franks = vec!["franks".to_string()];
        let r = FurorBarbarus.round(&state).unwrap();
        assert_eq!(
            (r.number, r.label.as_str(), r.writers.clone()),
            (3, "turn 1, franks, moves", franks.clone())
        );
        assert_eq!(
            FurorBarbarus.next_writers(&state).unwrap(),
            Some(franks.clone())
        );
        // The moves' mail refuses attacks and takes the moves.
        let mixed = FurorBarbarus
            .check_orders(
                &state,
                "franks",
                "salian-4a: move 0706 0606\nattack legionaries-4 with salian-4a\n",
                &[],
            )
            .unwrap();
        assert_eq!(mixed.errors, 1, "{}", mixed.confirmation);
        assert!(
            mixed
                .confirmation
                .contains("attacks are written in the next exchange"),
            "{}",
            mixed.confirmation
        );
        let moves = "salian-4a: move 0706 0606\nClovis: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move 0807 0708\nretreat salian-4b 0708\n";
        let moved = play(&state, &options, &[("franks", moves)], &mut dice);
        let titles: Vec<&str> = moved.sections.iter().map(|s| s.title.as_str()).collect();
        assert!(
            titles.contains(&"Turn 1: movement of the franks")
                && !titles.iter().any(|t| t.contains("combat")),
            "{titles:?}"
        );
        assert!(!moved.ended);
        assert_eq!(
            moved.summary_title,
            "The board before turn 1, franks, attacks"
        );
        let r = FurorBarbarus.round(&moved.state).unwrap();
        assert_eq!(
            (r.number, r.label.as_str(), r.writers.clone()),
            (4, "turn 1, franks, attacks", franks.clone())
        );
        assert_eq!(
            FurorBarbarus.next_writers(&moved.state).unwrap(),
            Some(vec!["gallo-romans".to_string()])
        );
        let between: State = serde_json::from_value(moved.state.clone()).unwrap();
        let kept = between.moved.as_ref().expect("between the exchanges");
        assert_eq!(
            kept.retreat.len(),
            1,
            "the moves' mail's own retreat stands"
        );
        assert_eq!(
            between.board.get(&"salian-4a".into()).hex,
            Some("0606".parse().unwrap())
        );
        // The attacks' mail refuses moves, and is checked on the board the
        // moves left.
        let late = FurorBarbarus
            .check_orders(&moved.state, "franks", "archers: move 0708 0608\n", &[])
            .unwrap();
        assert_eq!(late.errors, 1, "{}", late.confirmation);
        assert!(
            late.confirmation.contains("have been played"),
            "{}",
            late.confirmation
        );
        let attacks = "attack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/2; advance salian-4a with commander\nelse attack palatina with salian-4b\n";
        let fought = play(&moved.state, &options, &[("franks", attacks)], &mut dice);
        let titles: Vec<&str> = fought.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles.first(),
            Some(&"Turn 1: combat of the franks"),
            "{titles:?}"
        );
        let r = FurorBarbarus.round(&fought.state).unwrap();
        assert_eq!(
            (r.number, r.label.as_str(), r.writers.clone()),
            (
                5,
                "turn 1, gallo-romans, moves",
                vec!["gallo-romans".to_string()]
            )
        );
        assert!(
            fought.state.get("moved").is_none(),
            "nothing kept between player-turns"
        );
    }

    #[test]
    fn without_split_turn_a_player_turn_is_one_round_and_the_state_has_no_exchange() {
        let (g, _) = game("soissons", "");
        assert!(g.options.get("split_turn").is_none(), "{}", g.options);
        let mut dice = SeededDice::new([9; 32]);
        let placed = play(&g.state, &g.options, &[], &mut dice);
        let state = play(&placed.state, &g.options, &[], &mut dice).state;
        assert!(state.get("moved").is_none());
        let r = FurorBarbarus.round(&state).unwrap();
        assert_eq!((r.number, r.label.as_str()), (3, "turn 1, franks"));
        // The guide's example: moves and attacks in one mail.
        let whole = FurorBarbarus
            .check_orders(
                &state,
                "franks",
                "salian-4a: move 0706 0606\nClovis: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move 0807 0708\nattack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/2; advance salian-4a with commander\n",
                &[],
            )
            .unwrap();
        assert_eq!(whole.errors, 0, "{}", whole.confirmation);
    }

    #[test]
    fn soissons_sets_up_gallo_romans_then_franks_and_unplaced_counters_stand_as_listed() {
        let (g, _) = game("soissons", "");
        let r = FurorBarbarus.round(&g.state).unwrap();
        assert_eq!(
            (r.number, r.label.as_str(), r.writers.clone()),
            (1, "set-up, gallo-romans", vec!["gallo-romans".to_string()])
        );
        assert_eq!(
            FurorBarbarus.next_writers(&g.state).unwrap(),
            Some(vec!["franks".to_string()])
        );
        assert!(
            g.welcome["franks"]
                .length
                .contains("the gallo-romans, then the franks"),
            "{}",
            g.welcome["franks"].length
        );
        assert_eq!(g.welcome["franks"].example, "place archers in 0907\n");
        // The Franks may not set up in the Gallo-Romans' round.
        let early = FurorBarbarus
            .check_orders(&g.state, "franks", "place salian-4a in 0814\n", &[])
            .unwrap();
        assert_eq!(early.errors, 1);
        assert!(
            early
                .confirmation
                .contains("it is the set-up round of the gallo-romans"),
            "{}",
            early.confirmation
        );
        // Out-of-place lines are refused, quoted, and the rest stands.
        let bad = FurorBarbarus.check_orders(&g.state, "gallo-romans", "legionaries-4: set up in 0508\nlegionaries-3: set up in 0507\nplace palatina in 0505\nplace salian-4a in 0406\n", &[]).unwrap();
        assert_eq!(bad.errors, 2, "{}", bad.confirmation);
        assert!(
            bad.confirmation.contains("palatina may not set up in 0505"),
            "{}",
            bad.confirmation
        );
        assert!(
            bad.confirmation.contains("is not one of your counters"),
            "{}",
            bad.confirmation
        );
        assert!(
            bad.confirmation
                .contains("Syagrius (syagrius): 0508 (as listed)"),
            "{}",
            bad.confirmation
        );
        let options = g.options.clone();
        let mut dice = SeededDice::new([1; 32]);
        let one = play(
            &g.state,
            &options,
            &[(
                "gallo-romans",
                "legionaries-4: set up in 0508\nLEGIONARIES-3: SET UP IN 0507\n",
            )],
            &mut dice,
        );
        assert!(
            one.sections[0]
                .lines
                .iter()
                .any(|l| l == "Legionaries (legionaries-4): 0508"),
            "{:?}",
            one.sections
        );
        let r = FurorBarbarus.round(&one.state).unwrap();
        assert_eq!((r.number, r.label.as_str()), (2, "set-up, franks"));
        assert!(FurorBarbarus
            .picture(&g.state, &one.state, &report())
            .unwrap()
            .contains("<svg"));
        // The Franks send nothing: they stand as listed, and the battle begins.
        let two = play(&one.state, &options, &[], &mut dice);
        assert!(
            two.sections[0].lines[0].contains("placed nothing"),
            "{:?}",
            two.sections
        );
        let r = FurorBarbarus.round(&two.state).unwrap();
        assert_eq!((r.number, r.label.as_str()), (3, "turn 1, franks"));
        let state: State = serde_json::from_value(two.state.clone()).unwrap();
        assert_eq!(
            state
                .board
                .unit(&"legionaries-4".into())
                .unwrap()
                .hex
                .unwrap()
                .to_string(),
            "0508"
        );
        assert_eq!(
            state
                .board
                .unit(&"salian-4a".into())
                .unwrap()
                .hex
                .unwrap()
                .to_string(),
            "0806"
        );
        assert_eq!(FurorBarbarus.canonical(&two.state).unwrap(), two.state);
        // A state stored before set-up rounds (no setup_rounds) still loads, at round 1.
        let mut old = two.state.clone();
        old.as_object_mut().unwrap().remove("setup_rounds");
        assert_eq!(FurorBarbarus.round(&old).unwrap().number, 1);
    }

    #[test]
    fn campus_mauriacus_seals_the_commanders_and_rolls_for_the_first_player_after_the_set_up() {
        let (g, _) = game("campus-mauriacus", "");
        assert!(
            g.welcome["huns"].length.contains("sealed"),
            "{}",
            g.welcome["huns"].length
        );
        assert!(g.welcome["huns"]
            .length
            .contains("rolled for once both sides have set up"));
        let options = g.options.clone();
        let mut dice = crate::dice::ScriptedDice::new(
            [
                ("first-player:huns".to_string(), 6),
                ("first-player:romans".to_string(), 2),
            ]
            .into(),
        );
        let huns = play(
            &g.state,
            &options,
            &[("huns", "place attila in 1411\n")],
            &mut dice,
        );
        let told: String = huns
            .sections
            .iter()
            .flat_map(|s| s.lines.clone())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!told.contains("Attila"), "sealed: {told}");
        assert!(told.contains("sealed"), "{told}");
        assert!(
            !huns.summary.to_string().contains("1411\",\"id\":\"attila"),
            "the summary hides him"
        );
        let svg = FurorBarbarus
            .picture(&g.state, &huns.state, &report())
            .unwrap();
        assert!(svg.contains("<svg"));
        let romans = play(
            &huns.state,
            &options,
            &[("romans", "place theodoric in 0905\n")],
            &mut dice,
        );
        let revealed = romans
            .sections
            .iter()
            .find(|s| s.title.starts_with("The commanders, revealed together"))
            .expect("revealed");
        assert!(
            revealed
                .lines
                .iter()
                .any(|l| l.contains("attila") && l.contains("1411")),
            "{:?}",
            revealed.lines
        );
        assert!(
            revealed
                .lines
                .iter()
                .any(|l| l.contains("theodoric") && l.contains("0905")),
            "{:?}",
            revealed.lines
        );
        assert!(
            romans.dice.iter().any(|d| d == "first-player:huns = 6"),
            "{:?}",
            romans.dice
        );
        let r = FurorBarbarus.round(&romans.state).unwrap();
        assert_eq!((r.number, r.label.as_str()), (3, "turn 1, huns"));
    }

    #[test]
    fn a_game_turn_is_two_rounds_and_the_phasing_side_writes() {
        let (g, setup) = game("soissons", "");
        assert_eq!(g.sides, vec!["franks", "gallo-romans"]);
        assert_eq!(g.last_turn, 6);
        let mut dice = SeededDice::new([9; 32]);
        let options = g.options.clone();
        let placed = play(&g.state, &options, &[], &mut dice);
        // The first player is the scenario's: he writes after the set-up.
        assert_eq!(
            FurorBarbarus.next_writers(&placed.state).unwrap(),
            Some(vec!["franks".to_string()])
        );
        let g = NewGame {
            state: play(&placed.state, &options, &[], &mut dice).state,
            ..g
        };
        let r = FurorBarbarus.round(&g.state).unwrap();
        assert_eq!(
            (r.number, r.label.as_str(), r.writers.clone()),
            (3, "turn 1, franks", vec!["franks".to_string()])
        );
        assert_eq!(
            FurorBarbarus.next_writers(&g.state).unwrap(),
            Some(vec!["gallo-romans".to_string()])
        );
        let franks = FurorBarbarus
            .check_orders(&g.state, "franks", "salian-4a: move 0706 0606\n", &[])
            .unwrap();
        assert_eq!(franks.errors, 0, "{}", franks.confirmation);
        let romans = FurorBarbarus
            .check_orders(
                &g.state,
                "gallo-romans",
                "retreat legionaries-4 0406 0506\n",
                &[],
            )
            .unwrap();
        assert_eq!(romans.errors, 0, "{}", romans.confirmation);
        let orders: BTreeMap<String, Json> = [
            ("franks".to_string(), franks.orders),
            ("gallo-romans".to_string(), romans.orders),
        ]
        .into();
        let done = FurorBarbarus
            .resolve(RoundInput {
                state: &g.state,
                options: &options,
                setup: &setup,
                last_turn: 6,
                orders: &orders,
                dice: &mut dice,
            })
            .unwrap();
        let next = FurorBarbarus.round(&done.state).unwrap();
        assert_eq!(
            (next.number, next.writers.clone()),
            (4, vec!["gallo-romans".to_string()])
        );
        let state: State = serde_json::from_value(done.state).unwrap();
        assert_eq!(
            state
                .board
                .unit(&"salian-4a".into())
                .unwrap()
                .hex
                .unwrap()
                .to_string(),
            "0606"
        );
        assert_eq!(
            state.standing[&SideId::from("gallo-romans")].retreat.len(),
            1,
            "the reaction stands"
        );
        assert!(done
            .sections
            .iter()
            .any(|s| s.title.starts_with("Turn 1: movement of the franks")));
    }

    #[test]
    fn a_standing_reaction_holds_until_that_unit_is_given_another() {
        let mut standing = Reactions::default();
        let a = Reactions {
            retreat: [("a".into(), vec!["0101".parse().unwrap()])].into(),
            ..Reactions::default()
        };
        let b = Reactions {
            retreat: [("b".into(), vec!["0202".parse().unwrap()])].into(),
            ..Reactions::default()
        };
        overlay(&mut standing, &a);
        overlay(&mut standing, &b);
        assert_eq!(standing.retreat.len(), 2);
        overlay(
            &mut standing,
            &Reactions {
                retreat: [("a".into(), vec!["0303".parse().unwrap()])].into(),
                ..Reactions::default()
            },
        );
        assert_eq!(standing.retreat[&UnitId::from("a")][0].to_string(), "0303");
    }

    #[test]
    fn the_welcome_briefs_each_side_with_story_victory_rules_both_armies_and_its_set_up_area() {
        let (g, _) = game("soissons", "soissons_free_setup = true");
        let gr = &g.welcome["gallo-romans"];
        let b = &gr.briefing;
        assert!(b.contains("Soissons, 486"), "{b}");
        assert!(
            b.contains("Scenario 2, Soissons (486): Clovis against Syagrius."),
            "{b}"
        );
        assert!(
            b.contains("The franks win a major victory if the gallo-romans lose 14 strength points or more"),
            "{b}"
        );
        assert!(
            b.contains("by the end of turn 6, the gallo-romans win a minor victory"),
            "{b}"
        );
        assert!(b.contains("Chararic: his corps is neutral"), "{b}");
        assert!(b.contains("syagrius: Syagrius, commander"), "{b}");
        assert!(b.contains("The enemy's counters"), "{b}");
        assert!(
            b.contains("salian-4a: Salian Franks, infantry, strength 4"),
            "{b}"
        );
        assert!(b.contains("Neutral counters"), "{b}");
        assert!(b.contains("chararic-3: Chararic's Salian Franks"), "{b}");
        assert!(
            b.contains("You set up in ") && b.contains("0401, 0402"),
            "{b}"
        );
        assert!(!b.contains("1 counters") && !b.contains("1 hexes"), "{b}");
        let svg = gr.picture.as_ref().expect("a picture of the start");
        assert!(
            svg.contains("stroke-dasharray=\"5,3\"")
                && svg.contains("the gallo-romans set up here")
        );
        assert!(crate::report::picture::png(svg).is_ok());
        // The Franks set up later, in their own area; the Gallo-Romans' is not theirs to see.
        let fr = &g.welcome["franks"];
        assert!(fr.briefing.contains("0806"), "{}", fr.briefing);
        assert!(!fr
            .picture
            .as_ref()
            .unwrap()
            .contains("the gallo-romans set up here"));
        // Without a choice there is no area, and the picture still comes.
        let (g, _) = game("vouille", "");
        for w in g.welcome.values() {
            assert!(w.briefing.contains("Breton evasion"), "{}", w.briefing);
            assert!(crate::report::picture::png(w.picture.as_ref().unwrap()).is_ok());
        }
    }

    #[test]
    fn dice_keys_name_their_die() {
        let none = Json::Null;
        assert_eq!(FurorBarbarus.die_for(&none, "combat:3"), Ok(DieKind::D6));
        assert_eq!(
            FurorBarbarus.die_for(&none, "defection:1"),
            Ok(DieKind::TwoD6)
        );
        assert!(FurorBarbarus.die_for(&none, "melee:dragons").is_err());
    }
}
