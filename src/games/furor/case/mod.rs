//! Rules case files for Furor Barbarus (`shared/spec/cases-hex.md`): a
//! small situation on a hex map, the phasing player's orders as tables,
//! the other player's standing reactions, the dice that fall, and what
//! must come of it. [`Case::parse`] reads and checks a file, [`Case::run`]
//! plays it and checks every expectation; `umpire case FILE_OR_DIR` runs
//! them through the shared frame (`umpire::case`).
//!
//! The format has no key for a scenario's special rules; a case switches
//! them on with `[options] scenario = "campus-mauriacus" | "soissons" |
//! "tolbiac" | "vouille"`. Without it, a side called `chararic` is
//! Chararic's corps (Soissons rule 1) and a unit named "Breton…" evades
//! (Vouillé rule 1). Counters' roles come from their names (`Alan…`,
//! `Sangiban`, `Breton…`, `Clovis`). A case starts at the beginning of
//! its `turn` with the phasing side as player 1 of that turn. Options not
//! given are a game's defaults: the book's optional rules, rule 6
//! (`impetuousness`) among them, are off unless the case's `[options]`
//! turns them on (ruling FB-20).
//!
//! ```
//! use umpire::games::furor::case::run_text;
//! use umpire::case::CaseOutcome;
//! let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/furor/book/fontenoy-attack.toml")).unwrap();
//! assert_eq!(run_text(&text), CaseOutcome::Pass);
//! ```

mod expect;

use crate::dice::ScriptedDice;
use crate::games::furor::board::{
    Board, BoardSpec, ChararicRule, DivineHelpRule, Edge, EndOfGame, Role, Side, SideId,
    SpecialRules, UnitSpec,
};
use crate::games::furor::hex::Hex;
use crate::games::furor::map::{Map, MapSpec};
use crate::games::furor::options::{AlanDefection, Options};
use crate::games::furor::orders::{
    Advance, Attack, DefenderAdvance, Move, PlayerTurnOrders, Reactions, Route,
};
use crate::games::furor::rules::special::DIVINE_HELP_TRIGGER;
use crate::games::furor::sequence::{resolve, StopAfter};
use crate::games::CaseOutcome;
use expect::Expectation;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// A case file as written (unchecked).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(rename = "ruleset")]
    _ruleset: String,
    title: String,
    rule: String,
    stop_after: Option<String>,
    phasing: String,
    turn: Option<i64>,
    strict_dice: Option<bool>,
    #[serde(default)]
    options: toml::Table,
    map: MapSpec,
    #[serde(default)]
    sides: BTreeMap<String, SideSpec>,
    #[serde(default)]
    unit: Vec<toml::Table>,
    #[serde(default, rename = "move")]
    moves: Vec<MoveSpec>,
    #[serde(default)]
    attack: Vec<AttackSpec>,
    #[serde(default)]
    reactions: ReactionSpec,
    #[serde(default)]
    orders: BTreeMap<String, String>,
    #[serde(default)]
    dice: BTreeMap<String, i64>,
    #[serde(default)]
    expect: toml::Table,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideSpec {
    threshold: Option<i64>,
    home_edge: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveSpec {
    unit: String,
    #[serde(default)]
    path: Vec<String>,
    charge: Option<String>,
    /// A feigned flight at this unit before the move (Campus Mauriacus rule 3).
    feigned_flight: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AttackSpec {
    target: String,
    #[serde(default)]
    attackers: Vec<String>,
    #[serde(default)]
    fire: Vec<String>,
    advance: Option<String>,
    #[serde(default)]
    advance_commander: bool,
    #[serde(default)]
    losses: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReactionSpec {
    #[serde(default)]
    losses: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    retreat: BTreeMap<String, Vec<String>>,
    advance: Option<toml::Value>,
    #[serde(default)]
    advance_commander: bool,
}

/// The keys of `[[unit]]` the engine reads; others (the format may grow)
/// are set aside.
const UNIT_KEYS: [&str; 16] = [
    "id",
    "side",
    "name",
    "kind",
    "strength",
    "reduced",
    "steps",
    "mp",
    "range",
    "marks",
    "hex",
    "status",
    "role",
    "command",
    "command_core",
    "elite",
];

/// A checked case, ready to run.
#[derive(Debug, Clone)]
pub struct Case {
    pub title: String,
    pub rule: String,
    pub stop_after: StopAfter,
    pub strict_dice: bool,
    pub board: Board,
    pub options: Options,
    pub orders: PlayerTurnOrders,
    pub reactions: Reactions,
    pub dice: BTreeMap<String, u8>,
    expect: Vec<Expectation>,
}

/// Why a case cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CaseError(pub String);

fn err<T>(s: impl Into<String>) -> Result<T, CaseError> {
    Err(CaseError(s.into()))
}

fn hex(s: &str, board: &Board, what: &str) -> Result<Hex, CaseError> {
    let h: Hex = s
        .parse()
        .map_err(|e: crate::games::furor::hex::ParseHexError| CaseError(format!("{what}: {e}")))?;
    if !board.map.contains(h) {
        return err(format!("{what}: {h} is not on the map"));
    }
    Ok(h)
}

impl Case {
    /// Read and check a case file.
    ///
    /// # Errors
    /// Not TOML, keys the format does not have, a bad map or board, orders
    /// naming unknown units, malformed dice keys, unknown expectations.
    pub fn parse(text: &str) -> Result<Case, CaseError> {
        let file: CaseFile = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            CaseError(match line {
                Some(l) => format!("line {l}: {}", e.message()),
                None => e.message().to_string(),
            })
        })?;
        let mut options_table = file.options.clone();
        let scenario = match options_table.remove("scenario") {
            None => None,
            Some(toml::Value::String(s))
                if crate::games::furor::scenario::SCENARIOS.contains(&s.as_str()) =>
            {
                Some(s)
            }
            Some(other) => {
                return err(format!(
                    "[options] scenario {other} is not one of {}",
                    crate::games::furor::scenario::SCENARIOS.join(", ")
                ))
            }
        };
        let options: Options = toml::Value::Table(options_table)
            .try_into()
            .map_err(|e: toml::de::Error| CaseError(format!("[options]: {}", e.message())))?;
        let map = Map::from_spec(&file.map).map_err(|e| CaseError(format!("[map]: {e}")))?;
        let mut units = Vec::new();
        for t in &file.unit {
            let known: toml::Table = t
                .iter()
                .filter(|(k, _)| UNIT_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let u: UnitSpec = toml::Value::Table(known)
                .try_into()
                .map_err(|e: toml::de::Error| CaseError(format!("[[unit]]: {}", e.message())))?;
            units.push(u);
        }
        let mut sides = BTreeMap::new();
        for (name, s) in &file.sides {
            let threshold = s
                .threshold
                .map(|t| u16::try_from(t).ok().filter(|t| *t <= 999).ok_or(t))
                .transpose();
            let threshold = threshold
                .map_err(|t| CaseError(format!("sides.{name}.threshold {t} is not 0-999")))?;
            let home_edge = match s.home_edge.as_deref() {
                None => None,
                Some("top") => Some(Edge::Top),
                Some("bottom") => Some(Edge::Bottom),
                Some("left") => Some(Edge::Left),
                Some("right") => Some(Edge::Right),
                Some(o) => {
                    return err(format!(
                        "sides.{name}.home_edge '{o}' is not top, bottom, left or right"
                    ))
                }
            };
            sides.insert(
                name.clone(),
                Side {
                    threshold,
                    home_edge,
                    colour: None,
                },
            );
        }
        let rules = special_rules(scenario.as_deref(), &units)?;
        let others: Vec<String> = units
            .iter()
            .map(|u| u.side.clone())
            .chain(sides.keys().cloned())
            .filter(|s| {
                *s != file.phasing && Some(s) != rules.chararic.as_ref().map(|c| &c.corps.0)
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut players = vec![file.phasing.clone()];
        players.extend(others);
        let turn = match file.turn {
            None => 1,
            Some(t) if (1..=99).contains(&t) => t as u8,
            Some(t) => return err(format!("turn {t} is not 1-99")),
        };
        let last_turn = scenario
            .as_deref()
            .map(crate::games::furor::scenario::turns_of);
        let board = Board::from_spec(BoardSpec {
            map,
            sides,
            units,
            turn,
            last_turn,
            players,
            rules,
            memory: Default::default(),
        })
        .map_err(|e| CaseError(format!("set-up: {e}")))?;
        if !board.units.values().any(|u| u.side.0 == file.phasing) {
            return err(format!("phasing side '{}' has no units", file.phasing));
        }
        let mut board = board;
        // Alans lost before the case count towards their defection (rule 4).
        board.memory.alan_losses = board
            .units
            .values()
            .filter(|u| u.role == Some(Role::Alan))
            .map(|u| match options.alan_defection {
                AlanDefection::Units => u16::from(u.status.is_lost()),
                AlanDefection::Steps => u16::from(u.max_steps() - u.steps),
            })
            .sum();
        if let Some(rule) = board.rules.divine_help.clone() {
            // A case starts at a turn's beginning: help earned in the last
            // turn's phase 5 is in force now.
            if board.lost(&rule.franks) >= DIVINE_HELP_TRIGGER
                && board.lost(&rule.alemanni) < DIVINE_HELP_TRIGGER
            {
                board.memory.divine_help_turn = Some(board.turn);
            }
        }
        let (orders, reactions) = if file.orders.is_empty() {
            orders_from_tables(&board, &file)?
        } else {
            orders_from_text(&board, &options, &file)?
        };
        let mut dice = BTreeMap::new();
        for (k, v) in &file.dice {
            dice.insert(k.clone(), check_die(k, *v, &board)?);
        }
        let expect = expect::parse(&file.expect, &board, file.attack.len())?;
        Ok(Case {
            title: file.title,
            rule: file.rule,
            stop_after: match &file.stop_after {
                Some(s) => s.parse().map_err(CaseError)?,
                None => StopAfter::PlayerTurn,
            },
            strict_dice: file.strict_dice.unwrap_or(true),
            board,
            options,
            orders,
            reactions,
            dice,
            expect,
        })
    }

    /// Play the case and check every expectation.
    pub fn run(&self) -> CaseOutcome {
        let mut dice = ScriptedDice::new(self.dice.clone());
        let r = match resolve(
            &self.board,
            &self.orders,
            &self.reactions,
            &self.options,
            &mut dice,
            self.stop_after,
        ) {
            Ok(r) => r,
            Err(e) => return CaseOutcome::Error(e.to_string()),
        };
        let mut reasons: Vec<String> = self
            .expect
            .iter()
            .filter_map(|e| e.check(&r).err())
            .collect();
        if self.strict_dice {
            reasons.extend(
                dice.unused_keys()
                    .into_iter()
                    .map(|k| format!("dice key {k} given but never used")),
            );
        }
        if reasons.is_empty() {
            CaseOutcome::Pass
        } else {
            CaseOutcome::Fail(reasons)
        }
    }
}

/// The special rules a case's scenario option (or its sides and names) switch on.
fn special_rules(scenario: Option<&str>, units: &[UnitSpec]) -> Result<SpecialRules, CaseError> {
    let sides: BTreeSet<&str> = units.iter().map(|u| u.side.as_str()).collect();
    let side_of = |role: Role| {
        units
            .iter()
            .find(|u| {
                u.role.is_none()
                    && Role::from_name(if u.name.is_empty() { &u.id } else { &u.name })
                        == Some(role)
            })
            .map(|u| u.side.clone())
    };
    let franks = || -> Option<String> {
        sides
            .iter()
            .find(|s| crate::names::key(s).contains("frank"))
            .map(|s| s.to_string())
            .or_else(|| side_of(Role::Clovis))
    };
    let other = |s: &str| {
        sides
            .iter()
            .find(|o| **o != s && **o != "chararic")
            .map(|o| o.to_string())
    };
    let mut rules = SpecialRules {
        scenario: scenario.map(str::to_string),
        ..SpecialRules::default()
    };
    match scenario {
        Some("campus-mauriacus") => {
            rules.charge_needs_mark = true;
            rules.alan_defection = true;
        }
        Some("tolbiac") => {
            if let Some(f) = franks() {
                let alemanni = other(&f).unwrap_or_else(|| "alemanni".into());
                rules.divine_help = Some(DivineHelpRule {
                    franks: SideId(f),
                    alemanni: SideId(alemanni.clone()),
                });
                rules.end_of_game = EndOfGame::LesserLossElse(SideId(alemanni));
            }
        }
        _ => {}
    }
    if scenario == Some("vouille") || (scenario.is_none() && side_of(Role::Breton).is_some()) {
        rules.breton_evasion = true;
    }
    if scenario == Some("soissons") || sides.contains("chararic") {
        let Some(f) = franks() else {
            return err(
                "Soissons needs to know the Frankish side: name it franks, or give it Clovis",
            );
        };
        let g = other(&f).unwrap_or_else(|| "gallo-romans".into());
        if sides.contains("chararic") {
            rules.chararic = Some(ChararicRule {
                corps: "chararic".into(),
                franks: SideId(f),
                gallo_romans: SideId(g.clone()),
            });
        }
        if scenario == Some("soissons") {
            rules.end_of_game = EndOfGame::MinorTo(SideId(g));
        }
    }
    Ok(rules)
}

fn unit_id(
    board: &Board,
    id: &str,
    what: &str,
) -> Result<crate::games::furor::board::UnitId, CaseError> {
    let u = crate::games::furor::board::UnitId::from(id);
    if board.unit(&u).is_none() {
        return err(format!("{what}: no unit '{id}'"));
    }
    Ok(u)
}

fn orders_from_tables(
    board: &Board,
    file: &CaseFile,
) -> Result<(PlayerTurnOrders, Reactions), CaseError> {
    let mut orders = PlayerTurnOrders::default();
    for (i, m) in file.moves.iter().enumerate() {
        let what = format!("move[{i}]");
        let path = m
            .path
            .iter()
            .map(|h| hex(h, board, &what))
            .collect::<Result<Vec<_>, _>>()?;
        orders.moves.push(Move {
            unit: unit_id(board, &m.unit, &what)?,
            route: Route::Path(path),
            charge: m
                .charge
                .as_deref()
                .map(|c| unit_id(board, c, &what))
                .transpose()?,
            feigned_flight: m
                .feigned_flight
                .as_deref()
                .map(|c| unit_id(board, c, &what))
                .transpose()?,
        });
    }
    for (i, a) in file.attack.iter().enumerate() {
        let what = format!("attack[{i}]");
        let ids = |list: &[String]| {
            list.iter()
                .map(|x| unit_id(board, x, &what))
                .collect::<Result<Vec<_>, _>>()
        };
        orders.attacks.push(Attack {
            target: unit_id(board, &a.target, &what)?,
            attackers: ids(&a.attackers)?,
            fire: ids(&a.fire)?.into_iter().collect(),
            advance: match a.advance.as_deref() {
                None | Some("none") => Advance::None,
                Some(u) => Advance::Unit(unit_id(board, u, &what)?),
            },
            advance_commander: a.advance_commander,
            losses: ids(&a.losses)?,
            min_odds: None,
            all: false,
            otherwise: None,
        });
    }
    let r = &file.reactions;
    let mut reactions = Reactions {
        advance_commander: r.advance_commander,
        ..Reactions::default()
    };
    for (u, hexes) in &r.retreat {
        let id = unit_id(board, u, "reactions.retreat")?;
        let hexes = hexes
            .iter()
            .map(|h| hex(h, board, "reactions.retreat"))
            .collect::<Result<Vec<_>, _>>()?;
        if board.get(&id).side.0 == file.phasing {
            orders.retreat.insert(id, hexes);
        } else {
            reactions.retreat.insert(id, hexes);
        }
    }
    for (u, list) in &r.losses {
        let id = unit_id(board, u, "reactions.losses")?;
        let list = list
            .iter()
            .map(|x| unit_id(board, x, "reactions.losses"))
            .collect::<Result<Vec<_>, _>>()?;
        reactions.losses.insert(id, list);
    }
    reactions.advance = match &r.advance {
        None => DefenderAdvance::None,
        Some(toml::Value::String(s)) if s == "none" => DefenderAdvance::None,
        Some(toml::Value::String(s)) => {
            DefenderAdvance::Unit(unit_id(board, s, "reactions.advance")?)
        }
        Some(toml::Value::Table(t)) => {
            let mut into = BTreeMap::new();
            for (u, h) in t {
                let h = h
                    .as_str()
                    .ok_or_else(|| CaseError("reactions.advance: { UNIT = \"HEX\" }".into()))?;
                into.insert(
                    unit_id(board, u, "reactions.advance")?,
                    hex(h, board, "reactions.advance")?,
                );
            }
            DefenderAdvance::Into(into)
        }
        Some(other) => {
            return err(format!(
                "reactions.advance {other} is not \"none\", a unit id or {{ UNIT = HEX }}"
            ))
        }
    };
    Ok((orders, reactions))
}

/// `[orders] SIDE = """…"""`: each side's mail text read through the order
/// language — the phasing side's moves, attacks and retreat choices, the
/// other side's standing reactions. A line the language refuses makes the
/// case an ERROR: a case must be read as a player's mail would be.
fn orders_from_text(
    board: &Board,
    options: &Options,
    file: &CaseFile,
) -> Result<(PlayerTurnOrders, Reactions), CaseError> {
    if !file.moves.is_empty() || !file.attack.is_empty() {
        return err("write the orders as [orders] text or as [[move]]/[[attack]] tables, not both");
    }
    let mut orders = PlayerTurnOrders::default();
    let mut reactions = Reactions::default();
    for (side, text) in &file.orders {
        let id = SideId::from(side.as_str());
        if !board.units.values().any(|u| u.side == id) {
            return err(format!("[orders] for side {side} that has no units"));
        }
        let c = crate::games::furor::orders::check::check(text, &id, board, options);
        let refused: Vec<String> = c
            .diagnostics
            .iter()
            .filter(|d| d.is_error() && d.kind != crate::games::furor::orders::Problem::Illegal)
            .map(|d| {
                let (l, col) = d.line_col(text);
                format!("orders for {side}, line {l}:{col}: {}", d.message)
            })
            .collect();
        if !refused.is_empty() {
            return err(refused.join("; "));
        }
        if *board.phasing() == id {
            // Moves the checker refuses go to the engine all the same,
            // which refuses them as the case's `rejected` expects.
            orders = PlayerTurnOrders {
                moves: c.written_moves,
                ..c.orders
            };
        } else {
            reactions = c.reactions;
        }
    }
    Ok((orders, reactions))
}

/// A dice key of the format (cases-hex.md) and its value.
fn check_die(key: &str, value: i64, board: &Board) -> Result<u8, CaseError> {
    let parts: Vec<&str> = key.split(':').collect();
    let number = |s: &str| s.parse::<u32>().ok().filter(|n| *n >= 1);
    let names_unit = |s: &str| board.unit(&s.into()).is_some();
    let names_side = |s: &str| board.sides.contains_key(&SideId::from(s));
    let ok = match parts.as_slice() {
        ["combat" | "defection" | "chararic", n] => number(n).is_some(),
        ["morale" | "impetuous" | "breton" | "zoc", u, k] => names_unit(u) && number(k).is_some(),
        ["feigned" | "commander-loss", u] => names_unit(u),
        ["first-player", s] => names_side(s),
        _ => false,
    };
    if !ok {
        return err(format!(
            "dice key {key} is not in the hex format (or names no unit or side of the case)"
        ));
    }
    let (lo, hi) = if parts[0] == "defection" {
        (2, 12)
    } else {
        (1, 6)
    };
    if !(lo..=hi).contains(&value) {
        return err(format!(
            "dice {key} = {value}: {}",
            if lo == 2 {
                "2d6 shows 2-12"
            } else {
                "a d6 shows 1-6"
            }
        ));
    }
    Ok(value as u8)
}

/// Run the text of one case file.
pub fn run_text(text: &str) -> CaseOutcome {
    match Case::parse(text) {
        Ok(case) => case.run(),
        Err(e) => CaseOutcome::Error(e.to_string()),
    }
}
