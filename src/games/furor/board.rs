//! The board: the map, both armies' counters where they stand, the turn,
//! whose player-turn is next, and what the scenario's special rules
//! remember (Chararic's choice, the Divine Help, the Alans' losses,
//! effects "for the following turn"). [`BoardSpec`] is a board as written
//! (a case's units, a scenario's set-up), [`Board::from_spec`] checks it
//! (ids, hexes, stacking: §5, O2) into a [`Board`].
//!
//! ```
//! use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! use umpire::games::furor::map::{Map, MapSpec};
//! let map = Map::from_spec(&MapSpec { columns: 12, rows: 15, ..MapSpec::default() }).unwrap();
//! let unit = |id: &str, side: &str, hex: &str| UnitSpec {
//!     id: id.into(), side: side.into(), kind: "infantry".into(), strength: 3, reduced: Some(2),
//!     hex: Some(hex.into()), ..UnitSpec::default()
//! };
//! let spec = BoardSpec { map, units: vec![unit("a", "franks", "0508"), unit("b", "romans", "0508")], ..BoardSpec::default() };
//! let err = Board::from_spec(spec).unwrap_err();
//! assert!(err.to_string().contains("0508"), "{err}");
//! ```

use crate::games::furor::hex::Hex;
use crate::games::furor::map::Map;
use crate::games::furor::rules::reconstructed::{self, CounterValue, Guessed};
use crate::games::furor::rules::special::ELITE_BONUS;
use crate::games::furor::rules::{Kind, Mark, BAGGAGE_LOSS_EXTRA, COMMANDER_LOSS_EXTRA};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(s.to_string())
            }
        }
    };
}

id_type!(
    /// A counter's id (`salian-3b`), as scenario and case files name it.
    UnitId
);
id_type!(
    /// An army's name (`franks`), as scenario and case files name it.
    SideId
);

/// Where a counter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    OnMap,
    /// Lost in combat: counts in its army's total (§10).
    Eliminated,
    /// Forced to retreat off the map (§9.8): eliminated, and counted so.
    OffMap,
    /// Taken off by a special rule (the Alans' defection): not counted.
    Removed,
    /// A baggage unit turned to its *Pillé* side: a marker in its hex.
    Pillaged,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::OnMap => "on-map",
            Status::Eliminated => "eliminated",
            Status::OffMap => "off-map",
            Status::Removed => "removed",
            Status::Pillaged => "pillaged",
        }
    }

    /// Whether the unit counts as lost in its army's total.
    pub fn is_lost(self) -> bool {
        matches!(self, Status::Eliminated | Status::OffMap | Status::Pillaged)
    }
}

/// What a scenario's special rules need to know about a counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// An Alan unit of Campus Mauriacus (rule 4, defection).
    Alan,
    /// Sangiban, king of the Alans: leaves with them (O33).
    AlanKing,
    /// The Breton cavalry of Vouillé (rule 1, evasion).
    Breton,
    /// Clovis (Tolbiac rule 1, the Divine Help).
    Clovis,
    /// A unit of Chararic's corps (Soissons rule 1).
    Chararic,
}

impl Role {
    /// The role a case file's name implies (cases-hex.md has no role key):
    /// "Alan…", "Sangiban", "Breton…", "Clovis".
    pub fn from_name(name: &str) -> Option<Role> {
        let words = crate::names::words(name);
        let first = words.first().map(String::as_str);
        match first {
            Some("alan" | "alans") => Some(Role::Alan),
            Some("sangiban") => Some(Role::AlanKing),
            Some("breton" | "bretons") => Some(Role::Breton),
            Some("clovis") => Some(Role::Clovis),
            _ => None,
        }
    }
}

/// One counter on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub side: SideId,
    pub name: String,
    pub kind: Kind,
    /// The full side's strength (= morale, §2).
    pub strength: u8,
    /// The reduced side's strength; `None` for a one-step unit.
    pub reduced: Option<u8>,
    /// Steps left: 2 full, 1 reduced or one-step, 0 gone.
    pub steps: u8,
    pub mp: u16,
    pub range: u16,
    pub marks: BTreeSet<Mark>,
    pub hex: Option<Hex>,
    pub status: Status,
    pub role: Option<Role>,
    /// The commander whose troops these are (Campus Mauriacus rule 5).
    pub command: Option<UnitId>,
    /// Whether that commander's death roll touches it ("for Aetius only
    /// the Roman units").
    pub command_core: bool,
    /// Vouillé's "Elite strength +1" marker.
    pub elite: bool,
    /// The values on this counter that are reconstructed (R1–R6, R9, R10):
    /// the reports mark the results that rest on them.
    #[serde(default, skip_serializing_if = "nothing_guessed")]
    pub reconstructed: Guessed,
}

fn nothing_guessed(g: &Guessed) -> bool {
    g.is_empty()
}

impl Unit {
    pub fn is_on_map(&self) -> bool {
        self.status == Status::OnMap
    }

    pub fn is_combat(&self) -> bool {
        self.kind.is_combat()
    }

    pub fn has(&self, m: Mark) -> bool {
        self.marks.contains(&m)
    }

    pub fn max_steps(&self) -> u8 {
        if self.reduced.is_some() {
            2
        } else {
            1
        }
    }

    /// Whether the counter shows its reduced side (§2).
    pub fn showing_reduced(&self) -> bool {
        self.reduced.is_some() && self.steps < 2
    }

    pub fn is_full(&self) -> bool {
        self.steps == self.max_steps()
    }

    /// The printed strength of the side now showing, with an Elite marker.
    pub fn current_strength(&self) -> u8 {
        let printed = if self.steps >= 2 || self.reduced.is_none() {
            self.strength
        } else {
            self.reduced.unwrap_or(self.strength)
        };
        printed + if self.elite { ELITE_BONUS } else { 0 }
    }

    /// What the unit costs its army when lost (§10, O27): the full side's
    /// strength (Elite marker included), a commander +4, baggage +2.
    pub fn loss_value(&self) -> u16 {
        let base = u16::from(self.strength) + u16::from(if self.elite { ELITE_BONUS } else { 0 });
        base + match self.kind {
            Kind::Commander => COMMANDER_LOSS_EXTRA,
            Kind::Baggage => BAGGAGE_LOSS_EXTRA,
            _ => 0,
        }
    }

    /// The id and, for readers, the name and side showing: `salian (Salian Franks 3)`.
    pub fn label(&self) -> String {
        if self.name.is_empty() || self.name == self.id.0 {
            self.id.0.clone()
        } else {
            format!("{} ({})", self.name, self.id)
        }
    }
}

/// A map edge (O24's home edges).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Edge {
    Top,
    Bottom,
    Left,
    Right,
}

impl Edge {
    /// Rows or columns between the hex and this edge of the map.
    pub fn distance(self, map: &Map, h: Hex) -> i16 {
        match self {
            Edge::Top => h.row - 1,
            Edge::Bottom => map.rows - h.row,
            Edge::Left => h.col - 1,
            Edge::Right => map.columns - h.col,
        }
    }
}

/// An army's numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Side {
    /// The Army Morale Threshold (§10); `None`: never reached.
    pub threshold: Option<u16>,
    /// The edge it retreats towards when other things are equal (O24).
    pub home_edge: Option<Edge>,
    /// The colour of its counters (the scenario's), for pictures.
    #[serde(default)]
    pub colour: Option<String>,
}

/// The special rules in force on this board (§12), with whom they concern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SpecialRules {
    /// The scenario (`campus-mauriacus`, `soissons`, `tolbiac`, `vouille`).
    pub scenario: Option<String>,
    /// Campus Mauriacus rule 1: only units with the charge mark charge.
    pub charge_needs_mark: bool,
    /// Campus Mauriacus rule 4.
    pub alan_defection: bool,
    /// Soissons rule 1.
    pub chararic: Option<ChararicRule>,
    /// Tolbiac rule 1.
    pub divine_help: Option<DivineHelpRule>,
    /// Vouillé rule 1 (any unit with the Breton role).
    pub breton_evasion: bool,
    /// What decides a game that ends with neither army broken.
    pub end_of_game: EndOfGame,
}

/// Soissons rule 1: the corps' own side name while neutral, and the two armies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChararicRule {
    pub corps: SideId,
    pub franks: SideId,
    pub gallo_romans: SideId,
}

/// Tolbiac rule 1: which army is Frankish, and its enemy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DivineHelpRule {
    pub franks: SideId,
    pub alemanni: SideId,
}

/// A scenario's victory conditions when no army passed its threshold (§12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum EndOfGame {
    /// The lesser total of eliminated strength wins a minor victory;
    /// equal totals tie (Campus Mauriacus, Vouillé).
    #[default]
    LesserLoss,
    /// The lesser total wins; equal totals go to this side (Tolbiac: the Alemanni).
    LesserLossElse(SideId),
    /// This side wins a minor victory (Soissons: the Gallo-Romans).
    MinorTo(SideId),
}

/// What the special rules remember between player-turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Memory {
    /// Chararic's choice, once made (Soissons rule 1).
    pub chararic_joined: Option<SideId>,
    /// Campus Mauriacus rule 4: Alan units (or steps, by option) lost so far.
    pub alan_losses: u16,
    /// Defection rolls made so far (the `defection:K` count).
    pub defection_rolls: u16,
    pub alans_defected: bool,
    /// Tolbiac rule 1: the turn the Divine Help is in force, once earned;
    /// `Some(0)`: it can no longer come (the Alemanni got there first).
    pub divine_help_turn: Option<u8>,
    /// Effects "for the following turn" (O1), with the turn they are in force.
    pub effects: Vec<Effect>,
}

/// An effect on some units for one whole turn (O1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    pub turn: u8,
    /// Campus Mauriacus rule 5: the commander whose death is felt.
    pub commander: UnitId,
    /// +1 or −1 to strength and morale (O35).
    pub delta: i8,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Major(SideId),
    Minor(SideId),
    Tie,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Major(s) => write!(f, "major:{s}"),
            Outcome::Minor(s) => write!(f, "minor:{s}"),
            Outcome::Tie => f.write_str("tie"),
        }
    }
}

/// The whole state of a game between player-turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    pub map: Map,
    pub sides: BTreeMap<SideId, Side>,
    pub units: BTreeMap<UnitId, Unit>,
    /// The game turn (1-based).
    pub turn: u8,
    /// The scenario's last turn; `None`: the game runs until an army breaks.
    pub last_turn: Option<u8>,
    /// The armies in play order: player 1 first.
    pub players: Vec<SideId>,
    /// Index into `players` of the side whose player-turn comes next.
    pub next: usize,
    /// Whether this turn's start (before phase 1: O1) has been played.
    pub turn_started: bool,
    pub rules: SpecialRules,
    pub memory: Memory,
    pub outcome: Option<Outcome>,
}

/// A side's relation to a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    Friend,
    Enemy,
    /// Chararic's corps while it has not chosen (O37).
    Neutral,
}

impl Board {
    pub fn unit(&self, id: &UnitId) -> Option<&Unit> {
        self.units.get(id)
    }

    /// # Panics
    /// Never for ids taken from the board itself.
    pub fn get(&self, id: &UnitId) -> &Unit {
        &self.units[id]
    }

    pub fn get_mut(&mut self, id: &UnitId) -> &mut Unit {
        self.units.get_mut(id).expect("a unit of the board")
    }

    /// The side whose player-turn comes next.
    pub fn phasing(&self) -> &SideId {
        &self.players[self.next]
    }

    /// The other army, if the board has two.
    pub fn opponent(&self, side: &SideId) -> Option<&SideId> {
        self.sides.keys().find(|s| *s != side)
    }

    /// Whether the unit is one of Chararic's while he has not chosen.
    pub fn is_neutral(&self, u: &Unit) -> bool {
        matches!(&self.rules.chararic, Some(c) if u.side == c.corps)
    }

    /// How `side` stands towards the unit.
    pub fn relation(&self, side: &SideId, u: &Unit) -> Relation {
        if self.is_neutral(u) {
            Relation::Neutral
        } else if &u.side == side {
            Relation::Friend
        } else {
            Relation::Enemy
        }
    }

    /// Units on the map in the hex (a pillaged baggage marker is not one).
    pub fn at(&self, h: Hex) -> impl Iterator<Item = &Unit> + '_ {
        self.units
            .values()
            .filter(move |u| u.is_on_map() && u.hex == Some(h))
    }

    /// The combat unit in the hex, if any.
    pub fn combat_unit_at(&self, h: Hex) -> Option<&Unit> {
        self.at(h).find(|u| u.is_combat())
    }

    pub fn commander_at(&self, h: Hex) -> Option<&Unit> {
        self.at(h).find(|u| u.kind == Kind::Commander)
    }

    pub fn baggage_at(&self, h: Hex) -> Option<&Unit> {
        self.at(h).find(|u| u.kind == Kind::Baggage)
    }

    /// Whether the hex holds a counter that is an enemy of `side` or neutral.
    pub fn hostile_in(&self, side: &SideId, h: Hex) -> bool {
        self.at(h)
            .any(|u| self.relation(side, u) != Relation::Friend)
    }

    /// The army-morale total of a side (§10, O27).
    pub fn lost(&self, side: &SideId) -> u16 {
        self.units
            .values()
            .filter(|u| &u.side == side && u.status.is_lost())
            .map(Unit::loss_value)
            .sum()
    }

    /// Whether the battle has ended (§3.1, §10).
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The side that writes the next player-turn, or none once the battle is over.
    pub fn next_to_write(&self) -> Option<&SideId> {
        (!self.is_over()).then(|| self.phasing())
    }

    /// Every problem of stacking on the board (§5, O2), for checks and tests.
    pub fn stacking_problems(&self) -> Vec<String> {
        let mut by_hex: BTreeMap<Hex, Vec<&Unit>> = BTreeMap::new();
        for u in self.units.values().filter(|u| u.is_on_map()) {
            if let Some(h) = u.hex {
                by_hex.entry(h).or_default().push(u);
            }
        }
        let mut out = Vec::new();
        for (h, here) in by_hex {
            let count = |k: fn(&Unit) -> bool| here.iter().filter(|u| k(u)).count();
            let combat = count(|u| u.is_combat());
            let commanders = count(|u| u.kind == Kind::Commander);
            let baggage = count(|u| u.kind == Kind::Baggage);
            let names = || {
                here.iter()
                    .map(|u| u.id.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if combat > 1 || commanders > 1 || baggage > 1 {
                out.push(format!("{h} holds {}: one combat unit, with at most one commander and one baggage (§5)", names()));
            } else if combat == 0 && commanders == 1 && baggage == 1 {
                out.push(format!(
                    "{h} holds {}: a commander and baggage stack only on a combat unit (O2)",
                    names()
                ));
            }
            if here.iter().any(|u| u.side != here[0].side) {
                out.push(format!("{h} holds units of different sides: {}", names()));
            }
        }
        out
    }
}

/// A counter as written in a case or scenario file (unchecked).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub side: String,
    #[serde(default)]
    pub name: String,
    pub kind: String,
    pub strength: i64,
    #[serde(default)]
    pub reduced: Option<i64>,
    #[serde(default)]
    pub steps: Option<i64>,
    #[serde(default)]
    pub mp: Option<i64>,
    #[serde(default)]
    pub range: Option<i64>,
    #[serde(default)]
    pub marks: Vec<String>,
    #[serde(default)]
    pub hex: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    /// alan | alan-king | breton | clovis | chararic (default: from the name).
    #[serde(default)]
    pub role: Option<String>,
    /// The commander's id whose troops these are (Campus Mauriacus rule 5).
    #[serde(default)]
    pub command: Option<String>,
    /// false: the commander's death roll passes it by (Aetius' allies).
    #[serde(default)]
    pub command_core: Option<bool>,
    #[serde(default)]
    pub elite: Option<bool>,
    /// The values the file reconstructs (`kind`, `strength`, `reduced`,
    /// `mp`, `range`, `marks`); a value the file leaves out is
    /// reconstructed whatever this says.
    #[serde(default)]
    pub reconstructed: Vec<String>,
}

/// A board as written: map, sides, counters, turn and special rules.
#[derive(Debug, Clone, Default)]
pub struct BoardSpec {
    pub map: Map,
    pub sides: BTreeMap<String, Side>,
    pub units: Vec<UnitSpec>,
    pub turn: u8,
    pub last_turn: Option<u8>,
    /// Play order; when empty, the sides in order of first appearance.
    pub players: Vec<String>,
    pub rules: SpecialRules,
    pub memory: Memory,
}

impl Default for Map {
    fn default() -> Self {
        Map {
            name: String::new(),
            status: "case".into(),
            columns: 1,
            rows: 1,
            default_terrain: Default::default(),
            hexes: BTreeMap::new(),
            road_hexes: BTreeSet::new(),
            roads: Vec::new(),
            hexsides: BTreeMap::new(),
            no_effect: Vec::new(),
        }
    }
}

/// Every problem found in a board as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("; "))]
pub struct BoardError(pub Vec<String>);

/// The largest strength, movement allowance or range a counter may show:
/// numbers from outside are bounded where they enter.
pub const MAX_COUNTER_VALUE: i64 = 40;

impl Board {
    /// Check a board as written.
    ///
    /// # Errors
    /// Duplicate ids, an id that is also a side's name, unknown kinds, marks
    /// or statuses, values out of bounds, hexes off the map, more than two
    /// armies (besides Chararic's corps), and every stacking problem.
    pub fn from_spec(spec: BoardSpec) -> Result<Board, BoardError> {
        let mut errs = Vec::new();
        let mut units = BTreeMap::new();
        let mut order: Vec<String> = Vec::new();
        let corps = spec.rules.chararic.as_ref().map(|c| c.corps.0.clone());
        for u in &spec.units {
            match check_unit(u, &spec.map) {
                Ok(unit) => {
                    if units.contains_key(&unit.id) {
                        errs.push(format!("unit {}: duplicate id", u.id));
                    }
                    if Some(&u.side) != corps.as_ref() && !order.contains(&u.side) {
                        order.push(u.side.clone());
                    }
                    units.insert(unit.id.clone(), unit);
                }
                Err(e) => errs.push(format!("unit {}: {e}", u.id)),
            }
        }
        for s in spec.sides.keys() {
            if !order.contains(s) {
                order.push(s.clone());
            }
        }
        let players: Vec<String> = if spec.players.is_empty() {
            order.clone()
        } else {
            spec.players.clone()
        };
        for s in &order {
            if units.contains_key(&UnitId(s.clone())) {
                errs.push(format!("unit id '{s}' is also a side's name"));
            }
            if !players.contains(s) {
                errs.push(format!("side '{s}' is not among the players"));
            }
        }
        if order.len() > 2 {
            errs.push(format!(
                "a board has two armies, not {} ({})",
                order.len(),
                order.join(", ")
            ));
        }
        for u in units.values() {
            if let Some(c) = &u.command {
                if units
                    .get(c)
                    .is_none_or(|c: &Unit| c.kind != Kind::Commander)
                {
                    errs.push(format!(
                        "unit {}: command '{c}' is not a commander of the board",
                        u.id
                    ));
                }
            }
        }
        let mut sides: BTreeMap<SideId, Side> = order
            .iter()
            .map(|s| (SideId(s.clone()), Side::default()))
            .collect();
        for (k, v) in spec.sides {
            sides.insert(SideId(k), v);
        }
        let board = Board {
            map: spec.map,
            sides,
            units,
            turn: spec.turn.max(1),
            last_turn: spec.last_turn,
            players: players.into_iter().map(SideId).collect(),
            next: 0,
            turn_started: false,
            rules: spec.rules,
            memory: spec.memory,
            outcome: None,
        };
        errs.extend(board.stacking_problems());
        if board.players.is_empty() {
            errs.push("a board needs at least one unit".into());
        }
        if errs.is_empty() {
            Ok(board)
        } else {
            Err(BoardError(errs))
        }
    }
}

fn bounded(v: i64, what: &str, lo: i64) -> Result<u8, String> {
    if (lo..=MAX_COUNTER_VALUE).contains(&v) {
        Ok(v as u8)
    } else {
        Err(format!("{what} {v} is not {lo}-{MAX_COUNTER_VALUE}"))
    }
}

fn check_unit(u: &UnitSpec, map: &Map) -> Result<Unit, String> {
    if u.id.is_empty() || u.side.is_empty() {
        return Err("a unit needs an id and a side".into());
    }
    let kind = match u.kind.as_str() {
        "infantry" => Kind::Infantry,
        "missile-infantry" => Kind::MissileInfantry,
        "cavalry" => Kind::Cavalry,
        "missile-cavalry" => Kind::MissileCavalry,
        "commander" => Kind::Commander,
        "baggage" => Kind::Baggage,
        k => return Err(format!("kind '{k}' is not infantry, missile-infantry, cavalry, missile-cavalry, commander or baggage")),
    };
    // Commanders may be worth 0 (the book's example, R10); combat units not.
    let strength = bounded(u.strength, "strength", if kind.is_combat() { 1 } else { 0 })?;
    let reduced = u.reduced.map(|r| bounded(r, "reduced", 1)).transpose()?;
    if reduced.is_some() && !kind.is_combat() {
        return Err("commanders and baggage have one side (§2)".into());
    }
    let max = if reduced.is_some() { 2 } else { 1 };
    let steps = match u.steps {
        None => max,
        Some(s) if (0..=i64::from(max)).contains(&s) => s as u8,
        Some(s) => {
            return Err(format!(
                "steps {s}: this unit has {max} (steps 2 needs a reduced side)"
            ))
        }
    };
    let mut guessed = Guessed::parse(&u.reconstructed)?;
    if u.mp.is_none() {
        guessed = guessed.with(CounterValue::Mp);
    }
    if u.range.is_none() && kind.is_missile() {
        guessed = guessed.with(CounterValue::Range);
    }
    let mp =
        u.mp.map(|m| bounded(m, "mp", 0))
            .transpose()?
            .map_or(reconstructed::movement_points(kind), u16::from);
    let range = u
        .range
        .map(|r| bounded(r, "range", 0))
        .transpose()?
        .map_or(reconstructed::range(kind), u16::from);
    let mut marks = BTreeSet::new();
    for m in &u.marks {
        marks.insert(match m.as_str() {
            "charge" => Mark::Charge,
            "impetuous" => Mark::Impetuous,
            "feigned-flight" => Mark::FeignedFlight,
            "no-melee-penalty" => Mark::NoMeleePenalty,
            other => {
                return Err(format!(
                    "mark '{other}' is not charge, impetuous, feigned-flight or no-melee-penalty"
                ))
            }
        });
    }
    let mut status = match u.status.as_deref().unwrap_or("on-map") {
        "on-map" => Status::OnMap,
        "eliminated" => Status::Eliminated,
        "pillaged" if kind == Kind::Baggage => Status::Pillaged,
        other => {
            return Err(format!(
                "status '{other}' is not on-map, eliminated or pillaged (baggage)"
            ))
        }
    };
    if steps == 0 && status == Status::OnMap {
        status = Status::Eliminated;
    }
    let hex = match (&u.hex, status) {
        (Some(h), _) => {
            let h: Hex = h
                .parse()
                .map_err(|e: crate::games::furor::hex::ParseHexError| e.to_string())?;
            if !map.contains(h) {
                return Err(format!(
                    "hex {h} is not on the map (0101-{:02}{:02})",
                    map.columns, map.rows
                ));
            }
            if map.terrain(h).move_cost().is_none() {
                return Err(format!("hex {h} is a river hex: no unit stands there"));
            }
            Some(h)
        }
        (None, Status::OnMap | Status::Pillaged) => {
            return Err("a unit on the map needs a hex".into())
        }
        (None, _) => None,
    };
    let role = match u.role.as_deref() {
        None => Role::from_name(if u.name.is_empty() { &u.id } else { &u.name }),
        Some("alan") => Some(Role::Alan),
        Some("alan-king") => Some(Role::AlanKing),
        Some("breton") => Some(Role::Breton),
        Some("clovis") => Some(Role::Clovis),
        Some("chararic") => Some(Role::Chararic),
        Some(other) => {
            return Err(format!(
                "role '{other}' is not alan, alan-king, breton, clovis or chararic"
            ))
        }
    };
    Ok(Unit {
        id: UnitId(u.id.clone()),
        side: SideId(u.side.clone()),
        name: if u.name.is_empty() {
            u.id.clone()
        } else {
            u.name.clone()
        },
        kind,
        strength,
        reduced,
        steps: if status == Status::OnMap { steps } else { 0 },
        mp,
        range,
        marks,
        hex: if status == Status::Eliminated {
            None
        } else {
            hex
        },
        status,
        role,
        command: u.command.clone().map(UnitId),
        command_core: u.command_core.unwrap_or(true),
        elite: u.elite.unwrap_or(false),
        reconstructed: guessed,
    })
}
