//! The four scenarios (§12) as data: each file of
//! `campaigns/furor-barbarus/scenarios/` gives the map (a file of `maps/`
//! and its overlay), the turns, who plays first (or the roll), the set-up
//! order, each army's threshold and home edge, the counters (values the
//! text does not state are reconstructed: R1–R6, R10, marked so), the
//! set-up groups (O29) and the special rules. [`Scenario::parse`] checks a
//! file against its map; [`Scenario::start`] makes the opening [`Board`]
//! from both players' placements; [`shipped`] holds the four files built
//! in, with their content hashes for games to pin.
//!
//! ```
//! use umpire::games::furor::scenario::shipped;
//! use umpire::games::furor::options::Options;
//! let s = shipped("soissons").unwrap();
//! assert_eq!(s.turns, 6);
//! let board = s.start(&Options::default(), &Default::default(), &"franks".into()).unwrap();
//! assert_eq!(board.phasing().as_str(), "franks");
//! assert_eq!(board.unit(&"syagrius".into()).unwrap().hex, Some("0508".parse().unwrap()));
//! assert_eq!(s.threshold_check(), Vec::<String>::new());
//! ```

use crate::dice::{Dice, DieKind};
use crate::games::furor::board::{
    Board, BoardSpec, ChararicRule, DivineHelpRule, Edge, EndOfGame, Memory, Side, SideId,
    SpecialRules, UnitId, UnitSpec,
};
use crate::games::furor::error::EngineError;
use crate::games::furor::hex::Hex;
use crate::games::furor::map::{content_hash, Map};
use crate::games::furor::options::Options;
#[cfg(test)]
use crate::games::furor::rules::reconstructed::ReducedSide;
use crate::games::furor::rules::reconstructed::{self, CounterValue, Guessed};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The scenarios' names in game, scenario and case files.
pub const SCENARIOS: [&str; 4] = ["campus-mauriacus", "soissons", "tolbiac", "vouille"];

/// A scenario's number of turns (§12).
pub fn turns_of(name: &str) -> u8 {
    match name {
        "campus-mauriacus" => 12,
        "tolbiac" => 8,
        _ => 6,
    }
}

/// Which hexes a set-up group may use (O29).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// Listed hexes.
    #[serde(default)]
    pub hexes: Vec<String>,
    /// Or every hex of these columns ("line 04XX")…
    #[serde(default)]
    pub columns: Vec<i16>,
    /// …from this row on ("not after column XX05": O36).
    #[serde(default)]
    pub min_row: Option<i16>,
}

/// How a group's counters are matched to its hexes (O29).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Assign {
    /// The nth counter takes the nth hex.
    Fixed,
    /// Counters with the same name share their hexes in any order.
    #[default]
    ByName,
    /// Any counter in any hex of the area.
    Any,
}

/// A set-up group as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupFile {
    side: String,
    counters: Vec<String>,
    #[serde(default)]
    hexes: Vec<String>,
    #[serde(default)]
    columns: Vec<i16>,
    #[serde(default)]
    min_row: Option<i16>,
    #[serde(default)]
    assign: Assign,
}

/// A commander's place as written: with one of these counters (§12),
/// in one of these hexes if the scenario names them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct CommanderPlace {
    id: String,
    with: Vec<String>,
    #[serde(default)]
    within: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    name: String,
    colour: String,
    threshold: u16,
    home_edge: Edge,
}

/// A counter as a scenario writes it: the case format's keys, with
/// `reconstructed`, the values the text does not state (R1–R6, R9, R10).
struct CounterFile {
    unit: UnitSpec,
}

impl CounterFile {
    fn read(t: toml::Table) -> Result<CounterFile, String> {
        let id = t
            .get("id")
            .and_then(|v| v.as_str())
            .unwrap_or("?")
            .to_string();
        let unit: UnitSpec = toml::Value::Table(t)
            .try_into()
            .map_err(|e: toml::de::Error| format!("counter {id}: {}", e.message()))?;
        Guessed::parse(&unit.reconstructed).map_err(|e| format!("counter {id}: {e}"))?;
        Ok(CounterFile { unit })
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Head {
    id: String,
    name: String,
    map: String,
    turns: u8,
    /// A side, or "roll" (Campus Mauriacus: both roll, ties to `roll_tie`).
    first_player: String,
    #[serde(default)]
    roll_tie: Option<String>,
    /// Set-up rounds in order; sides in one round set up together.
    setup: Vec<Vec<String>>,
    /// Commanders' places are written secretly and revealed together.
    #[serde(default)]
    sealed_commanders: bool,
    #[serde(default)]
    special_rules: Vec<String>,
    end_of_game: EndOfGame,
    /// Vouillé's variation: counters that take an Elite marker.
    #[serde(default)]
    variation_elite: Vec<String>,
    note: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    scenario: Head,
    sides: BTreeMap<String, SideFile>,
    #[serde(rename = "counter")]
    counters: Vec<toml::Table>,
    #[serde(rename = "group")]
    groups: Vec<GroupFile>,
    #[serde(default, rename = "commander")]
    commanders: Vec<CommanderPlace>,
    /// The scenario's optional free set-up: an area per side (Soissons).
    #[serde(default)]
    free_setup: BTreeMap<String, Area>,
}

/// A set-up group, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub side: SideId,
    pub counters: Vec<UnitId>,
    pub hexes: Vec<Hex>,
    pub assign: Assign,
}

/// An army as the scenario describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Army {
    pub name: String,
    pub colour: String,
    pub threshold: u16,
    pub home_edge: Edge,
}

/// Where a commander sets up: with one of these counters, in one of these
/// hexes when the scenario names hexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommanderSpot {
    pub with: Vec<UnitId>,
    pub within: Vec<Hex>,
}

/// Who plays first (§12).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FirstPlayer {
    Side(SideId),
    /// Both roll a die; the higher plays first; a tie goes to this side.
    Roll {
        tie: SideId,
    },
}

/// A checked scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub id: String,
    pub name: String,
    /// The map file's name under `maps/`, and the map with this scenario's overlay.
    pub map_file: String,
    pub map: Map,
    pub turns: u8,
    pub first_player: FirstPlayer,
    pub setup_rounds: Vec<Vec<SideId>>,
    pub sealed_commanders: bool,
    pub armies: BTreeMap<SideId, Army>,
    counters: Vec<UnitSpec>,
    /// Counter id → the values the text does not give.
    pub reconstructed: BTreeMap<UnitId, Vec<String>>,
    pub groups: Vec<Group>,
    /// Where each commander may set up.
    pub commander_places: BTreeMap<UnitId, CommanderSpot>,
    free_setup: BTreeMap<SideId, Vec<Hex>>,
    variation_elite: Vec<UnitId>,
    rules: SpecialRules,
    pub note: String,
    /// SHA-256 of the scenario file and of the map file.
    pub hashes: (String, String),
}

/// Every problem of a scenario file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("; "))]
pub struct ScenarioError(pub Vec<String>);

/// Where one side's counters go: counter → hex. Commanders are in it too.
pub type Placement = BTreeMap<UnitId, Hex>;

fn area_hexes(map: &Map, a: &Area, errs: &mut Vec<String>, what: &str) -> Vec<Hex> {
    let mut out = Vec::new();
    for h in &a.hexes {
        match h.parse::<Hex>() {
            Ok(x) if map.contains(x) => out.push(x),
            _ => errs.push(format!("{what}: {h} is not a hex of the map")),
        }
    }
    for &c in &a.columns {
        if !(1..=map.columns).contains(&c) {
            errs.push(format!("{what}: column {c} is not on the map"));
        }
        out.extend((a.min_row.unwrap_or(1).max(1)..=map.rows).map(|r| Hex::new(c, r)));
    }
    out
}

impl Scenario {
    /// Check a scenario file against its map file.
    ///
    /// # Errors
    /// Not TOML, unknown keys, counters or groups that do not match, hexes
    /// off the map, thresholds that break the designer's rule are not
    /// errors (see [`Scenario::threshold_check`]).
    pub fn parse(text: &str, map_text: &str) -> Result<Scenario, ScenarioError> {
        let f: ScenarioFile = toml::from_str(text)
            .map_err(|e| ScenarioError(vec![format!("scenario file: {}", e.message())]))?;
        let map =
            Map::from_file_text(map_text, Some(&f.scenario.id)).map_err(|e| ScenarioError(e.0))?;
        let counters: Vec<CounterFile> = f
            .counters
            .iter()
            .cloned()
            .map(CounterFile::read)
            .collect::<Result<_, _>>()
            .map_err(|e| ScenarioError(vec![e]))?;
        let mut errs = Vec::new();
        let sides: BTreeSet<&String> = f.sides.keys().collect();
        let ids: BTreeSet<&str> = counters.iter().map(|c| c.unit.id.as_str()).collect();
        let mut groups = Vec::new();
        let mut grouped = BTreeSet::new();
        for (i, g) in f.groups.iter().enumerate() {
            let what = format!("group {i}");
            let area = Area {
                hexes: g.hexes.clone(),
                columns: g.columns.clone(),
                min_row: g.min_row,
            };
            let hexes = area_hexes(&map, &area, &mut errs, &what);
            for c in &g.counters {
                if !ids.contains(c.as_str()) {
                    errs.push(format!("{what}: no counter '{c}'"));
                }
                if !grouped.insert(c.clone()) {
                    errs.push(format!("{what}: '{c}' is in two groups"));
                }
            }
            if hexes.len() < g.counters.len()
                || (g.assign != Assign::Any && hexes.len() != g.counters.len())
            {
                errs.push(format!(
                    "{what}: {} counters for {} hexes",
                    g.counters.len(),
                    hexes.len()
                ));
            }
            groups.push(Group {
                side: SideId(g.side.clone()),
                counters: g.counters.iter().map(|c| UnitId(c.clone())).collect(),
                hexes,
                assign: g.assign,
            });
        }
        let mut places = BTreeMap::new();
        for c in &f.commanders {
            for w in &c.with {
                if !grouped.contains(w) {
                    errs.push(format!("commander {}: '{w}' is not a placed counter", c.id));
                }
            }
            let within = area_hexes(
                &map,
                &Area {
                    hexes: c.within.clone(),
                    columns: Vec::new(),
                    min_row: None,
                },
                &mut errs,
                &c.id,
            );
            places.insert(
                UnitId(c.id.clone()),
                CommanderSpot {
                    with: c.with.iter().map(|w| UnitId(w.clone())).collect(),
                    within,
                },
            );
        }
        for c in &counters {
            let u = &c.unit;
            let placed = grouped.contains(&u.id) || places.contains_key(&UnitId(u.id.clone()));
            if !placed {
                errs.push(format!("counter {} has no place in the set-up", u.id));
            }
            if !sides.contains(&u.side)
                && Some(u.side.as_str())
                    != f.scenario
                        .special_rules
                        .iter()
                        .find(|r| *r == "chararic")
                        .map(|_| "chararic")
            {
                errs.push(format!(
                    "counter {}: side '{}' is not an army of the scenario",
                    u.id, u.side
                ));
            }
        }
        let side_ids: Vec<String> = f.sides.keys().cloned().collect();
        let other = |s: &str| {
            side_ids
                .iter()
                .find(|o| *o != s)
                .cloned()
                .unwrap_or_default()
        };
        let franks = side_ids
            .iter()
            .find(|s| s.as_str() == "franks")
            .cloned()
            .unwrap_or_default();
        let mut rules = SpecialRules {
            scenario: Some(f.scenario.id.clone()),
            end_of_game: f.scenario.end_of_game.clone(),
            ..SpecialRules::default()
        };
        for r in &f.scenario.special_rules {
            match r.as_str() {
                "charge-needs-mark" => rules.charge_needs_mark = true,
                "alan-defection" => rules.alan_defection = true,
                "breton-evasion" => rules.breton_evasion = true,
                "chararic" => {
                    rules.chararic = Some(ChararicRule {
                        corps: "chararic".into(),
                        franks: SideId(franks.clone()),
                        gallo_romans: SideId(other(&franks)),
                    })
                }
                "divine-help" => {
                    rules.divine_help = Some(DivineHelpRule {
                        franks: SideId(franks.clone()),
                        alemanni: SideId(other(&franks)),
                    })
                }
                other => errs.push(format!("no special rule '{other}'")),
            }
        }
        let first_player = match (f.scenario.first_player.as_str(), &f.scenario.roll_tie) {
            ("roll", Some(t)) => FirstPlayer::Roll {
                tie: SideId(t.clone()),
            },
            ("roll", None) => {
                errs.push("first_player = \"roll\" needs roll_tie".into());
                FirstPlayer::Roll {
                    tie: SideId(String::new()),
                }
            }
            (s, _) => FirstPlayer::Side(SideId(s.to_string())),
        };
        let free_setup = f
            .free_setup
            .iter()
            .map(|(s, a)| {
                (
                    SideId(s.clone()),
                    area_hexes(&map, a, &mut errs, "free_setup"),
                )
            })
            .collect();
        if !errs.is_empty() {
            return Err(ScenarioError(errs));
        }
        Ok(Scenario {
            id: f.scenario.id.clone(),
            name: f.scenario.name.clone(),
            map_file: f.scenario.map.clone(),
            map,
            turns: f.scenario.turns,
            first_player,
            setup_rounds: f
                .scenario
                .setup
                .iter()
                .map(|r| r.iter().map(|s| SideId(s.clone())).collect())
                .collect(),
            sealed_commanders: f.scenario.sealed_commanders,
            armies: f
                .sides
                .iter()
                .map(|(k, s)| {
                    (
                        SideId(k.clone()),
                        Army {
                            name: s.name.clone(),
                            colour: s.colour.clone(),
                            threshold: s.threshold,
                            home_edge: s.home_edge,
                        },
                    )
                })
                .collect(),
            reconstructed: counters
                .iter()
                .map(|c| (UnitId(c.unit.id.clone()), c.unit.reconstructed.clone()))
                .collect(),
            counters: counters.into_iter().map(|c| c.unit).collect(),
            groups,
            commander_places: places,
            free_setup,
            variation_elite: f
                .scenario
                .variation_elite
                .iter()
                .cloned()
                .map(UnitId)
                .collect(),
            rules,
            note: f.scenario.note,
            hashes: (content_hash(text), content_hash(map_text)),
        })
    }

    /// The designer's rule the digest found (§13): each threshold is half of
    /// the army's full strengths with its commanders. Lists the armies that
    /// break it (a club's own counters may).
    pub fn threshold_check(&self) -> Vec<String> {
        self.armies
            .iter()
            .filter_map(|(s, a)| {
                let sum: u16 = self
                    .counters
                    .iter()
                    .filter(|c| c.side == s.0)
                    .map(|c| c.strength as u16)
                    .sum();
                (sum != 2 * a.threshold)
                    .then(|| format!("{s}: strengths add up to {sum}, threshold {}", a.threshold))
            })
            .collect()
    }

    /// The counters of the side (the corps of Chararic has its own).
    pub fn counters_of<'a>(&'a self, side: &'a SideId) -> impl Iterator<Item = &'a UnitSpec> + 'a {
        self.counters.iter().filter(move |c| c.side == side.0)
    }

    /// The set-up as the file lists it: the nth counter in the nth hex,
    /// each commander with the first counter he may stand with.
    pub fn default_placement(&self, side: &SideId) -> Placement {
        self.complete_placement(side, &Placement::new())
    }

    /// A side's whole set-up from what its player wrote (FB-17): counters
    /// not written stand as the file lists them, and a commander not
    /// written stands with the first counter he may stand with, wherever
    /// that counter was put.
    pub fn complete_placement(&self, side: &SideId, written: &Placement) -> Placement {
        let mut p = Placement::new();
        for g in self.groups.iter().filter(|g| &g.side == side) {
            for (c, h) in g.counters.iter().zip(&g.hexes) {
                p.insert(c.clone(), written.get(c).copied().unwrap_or(*h));
            }
        }
        for (c, spot) in &self.commander_places {
            let mine = self
                .counters
                .iter()
                .any(|u| u.id == c.0 && u.side == side.0);
            let h = written.get(c).copied().or_else(|| {
                spot.with
                    .iter()
                    .filter_map(|w| p.get(w).copied())
                    .find(|h| spot.within.is_empty() || spot.within.contains(h))
            });
            if let Some(h) = h.filter(|_| mine) {
                p.insert(c.clone(), h);
            }
        }
        p
    }

    /// The hexes where this side may set up: its groups' hexes and its
    /// commanders' named hexes, or the free set-up area when the option is on.
    pub fn setup_area(&self, options: &Options, side: &SideId) -> Vec<Hex> {
        let mut hexes: Vec<Hex> = match self.free_setup.get(side) {
            Some(area) if options.soissons_free_setup => area.clone(),
            _ => self
                .groups
                .iter()
                .filter(|g| &g.side == side)
                .flat_map(|g| g.hexes.iter().copied())
                .collect(),
        };
        for (c, spot) in &self.commander_places {
            if self
                .counters
                .iter()
                .any(|u| u.id == c.0 && u.side == side.0)
            {
                hexes.extend(spot.within.iter().copied());
            }
        }
        hexes.sort();
        hexes.dedup();
        hexes
    }

    /// Whether the side has anything to choose in its set-up: a group whose
    /// counters may change hexes, a commander with more than one counter to
    /// stand with, or the free set-up (O36). A side without a choice has no
    /// set-up round.
    pub fn has_choice(&self, options: &Options, side: &SideId) -> bool {
        let name_of = |id: &UnitId| {
            self.counters
                .iter()
                .find(|c| c.id == id.0)
                .map(|c| c.name.as_str())
        };
        let groups = self
            .groups
            .iter()
            .filter(|g| &g.side == side)
            .any(|g| match g.assign {
                Assign::Fixed => false,
                Assign::Any => g.hexes.len() > 1,
                Assign::ByName => g
                    .counters
                    .iter()
                    .enumerate()
                    .any(|(i, c)| g.counters[i + 1..].iter().any(|o| name_of(o) == name_of(c))),
            });
        let commanders = self
            .commander_places
            .iter()
            .filter(|(c, _)| {
                self.counters
                    .iter()
                    .any(|u| u.id == c.0 && u.side == side.0)
            })
            .any(|(_, spot)| spot.with.len() > 1 && spot.within.len() != 1);
        let free = options.soissons_free_setup && self.free_setup.contains_key(side);
        groups || commanders || free
    }

    /// Check one side's placement against the groups (O29), the free
    /// set-up when the option is on (O36), and the commanders' places.
    ///
    /// # Errors
    /// Every counter out of place, missing, or not the side's.
    pub fn check_placement(
        &self,
        options: &Options,
        side: &SideId,
        p: &Placement,
    ) -> Result<(), ScenarioError> {
        let mut errs = Vec::new();
        let name_of = |id: &UnitId| {
            self.counters
                .iter()
                .find(|c| c.id == id.0)
                .map(|c| c.name.clone())
                .unwrap_or_default()
        };
        let free = options
            .soissons_free_setup
            .then(|| self.free_setup.get(side))
            .flatten();
        for g in self.groups.iter().filter(|g| &g.side == side) {
            for (i, c) in g.counters.iter().enumerate() {
                let Some(h) = p.get(c) else {
                    errs.push(format!("{c} has no hex"));
                    continue;
                };
                let ok = match (free, g.assign) {
                    (Some(area), _) => area.contains(h),
                    (None, Assign::Fixed) => g.hexes[i] == *h,
                    (None, Assign::Any) => g.hexes.contains(h),
                    (None, Assign::ByName) => g
                        .counters
                        .iter()
                        .zip(&g.hexes)
                        .any(|(o, oh)| oh == h && name_of(o) == name_of(c)),
                };
                if !ok {
                    errs.push(format!("{c} may not set up in {h}"));
                }
            }
        }
        for (c, spot) in &self.commander_places {
            if !self
                .counters
                .iter()
                .any(|u| u.id == c.0 && u.side == side.0)
            {
                continue;
            }
            match p.get(c) {
                Some(h)
                    if spot.with.iter().any(|w| p.get(w) == Some(h))
                        && (spot.within.is_empty() || spot.within.contains(h)) => {}
                Some(h) => errs.push(format!(
                    "{c} in {h} does not stand with one of {}{}",
                    spot.with
                        .iter()
                        .map(|w| w.0.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    if spot.within.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " in {}",
                            spot.within
                                .iter()
                                .map(Hex::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                )),
                None => errs.push(format!("{c} has no hex")),
            }
        }
        for id in p.keys() {
            if !self
                .counters
                .iter()
                .any(|u| u.id == id.0 && u.side == side.0)
            {
                errs.push(format!("{id} is not a counter of {side}"));
            }
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(ScenarioError(errs))
        }
    }

    /// The opening board: both placements (a side without one sets up as
    /// listed), the options' reconstructed values (R3) and variation, and
    /// the first player.
    ///
    /// # Errors
    /// A placement that breaks the set-up rules or stacking.
    pub fn start(
        &self,
        options: &Options,
        placements: &BTreeMap<SideId, Placement>,
        first: &SideId,
    ) -> Result<Board, ScenarioError> {
        let mut hexes = Placement::new();
        let corps = SideId::from("chararic");
        for side in self.armies.keys().chain(std::iter::once(&corps)) {
            let p = placements
                .get(side)
                .cloned()
                .unwrap_or_else(|| self.default_placement(side));
            if placements.contains_key(side) {
                self.check_placement(options, side, &p)?;
            }
            hexes.extend(p);
        }
        let units = self
            .counters
            .iter()
            .map(|c| {
                let kind_combat = !matches!(c.kind.as_str(), "commander" | "baggage");
                let mut u = c.clone();
                if u.reduced.is_none() && kind_combat {
                    u.reduced =
                        reconstructed::reduced_strength(c.strength as u8, options.reduced_side)
                            .map(i64::from);
                    // Drawn from the full side (R3): reconstructed. (A
                    // strength-1 counter without one has one step, R4.)
                    if u.reduced.is_some() {
                        u.reconstructed.push(CounterValue::Reduced.name().into());
                    }
                }
                if options.vouille_variation && self.variation_elite.contains(&UnitId(c.id.clone()))
                {
                    u.elite = Some(true);
                }
                u.hex = hexes.get(&UnitId(c.id.clone())).map(Hex::to_string);
                u
            })
            .collect();
        let second = self
            .armies
            .keys()
            .find(|s| *s != first)
            .cloned()
            .unwrap_or_else(|| first.clone());
        let spec = BoardSpec {
            map: self.map.clone(),
            sides: self
                .armies
                .iter()
                .map(|(s, a)| {
                    (
                        s.0.clone(),
                        Side {
                            threshold: Some(a.threshold),
                            home_edge: Some(a.home_edge),
                            colour: Some(a.colour.clone()),
                        },
                    )
                })
                .collect(),
            units,
            turn: 1,
            last_turn: Some(self.turns),
            players: vec![first.0.clone(), second.0],
            rules: self.rules.clone(),
            memory: Memory::default(),
        };
        let mut board = Board::from_spec(spec).map_err(|e| ScenarioError(e.0))?;
        // Turn 1 has nothing before phase 1.
        board.turn_started = true;
        Ok(board)
    }

    /// Campus Mauriacus: both players roll (`first-player:SIDE`); the higher
    /// plays first, a tie goes to the scenario's side. Other scenarios name
    /// the first player and roll nothing.
    ///
    /// # Errors
    /// A dice source that cannot answer.
    pub fn first_player(
        &self,
        dice: &mut dyn Dice,
    ) -> Result<(SideId, Vec<(SideId, u8)>), EngineError> {
        match &self.first_player {
            FirstPlayer::Side(s) => Ok((s.clone(), Vec::new())),
            FirstPlayer::Roll { tie } => {
                let mut rolls = Vec::new();
                for s in self.armies.keys() {
                    rolls.push((
                        s.clone(),
                        dice.roll_die(&format!("first-player:{s}"), DieKind::D6)
                            .map_err(EngineError::Dice)?,
                    ));
                }
                let best = rolls.iter().map(|r| r.1).max().unwrap_or(0);
                let top: Vec<&SideId> =
                    rolls.iter().filter(|r| r.1 == best).map(|r| &r.0).collect();
                let first = if top.len() == 1 {
                    top[0].clone()
                } else {
                    tie.clone()
                };
                Ok((first, rolls))
            }
        }
    }
}

/// The scenario files shipped in `campaigns/furor-barbarus/`, built in.
///
/// # Errors
/// An unknown name, or a shipped file that does not check (a test keeps
/// them checking).
pub fn shipped(name: &str) -> Result<Scenario, ScenarioError> {
    let (text, map) = match name {
        "campus-mauriacus" => (
            include_str!("../../../campaigns/furor-barbarus/scenarios/campus-mauriacus.toml"),
            CAMPUS_MAP,
        ),
        "soissons" => (
            include_str!("../../../campaigns/furor-barbarus/scenarios/soissons.toml"),
            CLOVIS_MAP,
        ),
        "tolbiac" => (
            include_str!("../../../campaigns/furor-barbarus/scenarios/tolbiac.toml"),
            CLOVIS_MAP,
        ),
        "vouille" => (
            include_str!("../../../campaigns/furor-barbarus/scenarios/vouille.toml"),
            CLOVIS_MAP,
        ),
        other => {
            return Err(ScenarioError(vec![format!(
                "no scenario '{other}' (there are {})",
                SCENARIOS.join(", ")
            )]))
        }
    };
    Scenario::parse(text, map)
}

/// A built-in map by its name under `maps/`.
pub fn shipped_map(name: &str) -> Option<&'static str> {
    match name {
        "campus-mauriacus" => Some(CAMPUS_MAP),
        "clovis-battles" => Some(CLOVIS_MAP),
        _ => None,
    }
}

const CAMPUS_MAP: &str =
    include_str!("../../../campaigns/furor-barbarus/maps/campus-mauriacus.toml");
const CLOVIS_MAP: &str = include_str!("../../../campaigns/furor-barbarus/maps/clovis-battles.toml");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn every_shipped_scenario_checks_and_sets_up_as_listed() {
        for name in SCENARIOS {
            let s = shipped(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(s.turns, turns_of(name));
            assert_eq!(
                s.threshold_check(),
                Vec::<String>::new(),
                "{name}: the threshold rule of §13"
            );
            let options = Options::default();
            for side in s.armies.keys() {
                s.check_placement(&options, side, &s.default_placement(side))
                    .unwrap_or_else(|e| panic!("{name} {side}: {e}"));
            }
            let first = s.armies.keys().next().unwrap().clone();
            let board = s
                .start(&options, &BTreeMap::new(), &first)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(board.stacking_problems().is_empty());
            assert!(
                board.units.values().all(|u| u.hex.is_some()),
                "{name}: every counter on the map"
            );
            assert_eq!(s.hashes.0.len(), 64);
        }
    }

    #[test]
    fn set_up_rules_refuse_what_the_book_does_not_allow() {
        let s = shipped("soissons").unwrap();
        let franks = SideId::from("franks");
        let options = Options::default();
        let mut p = s.default_placement(&franks);
        p.insert("salian-4a".into(), "0805".parse().unwrap());
        let e = s
            .check_placement(&options, &franks, &p)
            .unwrap_err()
            .to_string();
        assert!(e.contains("salian-4a may not set up in 0805"), "{e}");
        // Legionaries may swap their hexes; the Palatina keeps its own (O29).
        let gr = SideId::from("gallo-romans");
        let mut p = s.default_placement(&gr);
        p.insert("legionaries-4".into(), "0508".parse().unwrap());
        p.insert("legionaries-3".into(), "0507".parse().unwrap());
        assert!(s.check_placement(&options, &gr, &p).is_ok());
        p.insert("palatina".into(), "0507".parse().unwrap());
        assert!(s.check_placement(&options, &gr, &p).is_err());
        // Syagrius stands in 0508, with whichever Legionaries are there.
        let mut p = s.default_placement(&gr);
        p.insert("syagrius".into(), "0507".parse().unwrap());
        assert!(s
            .check_placement(&options, &gr, &p)
            .unwrap_err()
            .to_string()
            .contains("syagrius"));
        // The free set-up option (O36): the Franks anywhere on 08XX-09XX from row 06.
        let free = Options {
            soissons_free_setup: true,
            ..Options::default()
        };
        let mut p = s.default_placement(&franks);
        p.insert("archers".into(), "0806".parse().unwrap());
        p.insert("salian-4a".into(), "0914".parse().unwrap());
        p.insert("clovis".into(), "0914".parse().unwrap());
        assert!(s.check_placement(&free, &franks, &p).is_ok());
        p.insert("salian-4a".into(), "0905".parse().unwrap());
        assert!(s.check_placement(&free, &franks, &p).is_err());
    }

    #[test]
    fn campus_mauriacus_rolls_for_the_first_player() {
        let s = shipped("campus-mauriacus").unwrap();
        let roll = |r: u8, h: u8| {
            let mut d = ScriptedDice::new(
                [
                    ("first-player:romans".to_string(), r),
                    ("first-player:huns".to_string(), h),
                ]
                .into(),
            );
            s.first_player(&mut d).unwrap().0
        };
        assert_eq!(roll(2, 5).as_str(), "huns");
        assert_eq!(roll(6, 1).as_str(), "romans");
        assert_eq!(
            roll(4, 4).as_str(),
            "romans",
            "a tie makes the Roman player player 1"
        );
        let soissons = shipped("soissons").unwrap();
        assert_eq!(
            soissons
                .first_player(&mut ScriptedDice::default())
                .unwrap()
                .0
                .as_str(),
            "franks"
        );
        // Theodoric only on the right wing (O30).
        let romans = SideId::from("romans");
        let mut p = s.default_placement(&romans);
        assert_eq!(p[&UnitId::from("theodoric")], "1105".parse().unwrap());
        p.insert("theodoric".into(), "2309".parse().unwrap());
        assert!(s.check_placement(&Options::default(), &romans, &p).is_err());
    }

    #[test]
    fn options_change_the_opening_counters() {
        let s = shipped("vouille").unwrap();
        let plain = s
            .start(&Options::default(), &BTreeMap::new(), &"visigoths".into())
            .unwrap();
        let varied = Options {
            vouille_variation: true,
            reduced_side: ReducedSide::HalfUp,
            ..Options::default()
        };
        let board = s
            .start(&varied, &BTreeMap::new(), &"visigoths".into())
            .unwrap();
        let cav = |b: &Board, id: &str| b.unit(&id.into()).unwrap().clone();
        assert_eq!(cav(&plain, "visigoth-cav-3a").current_strength(), 3);
        assert_eq!(cav(&board, "visigoth-cav-3a").current_strength(), 4);
        assert_eq!(cav(&board, "visigoth-cav-3a").loss_value(), 4);
        assert_eq!(cav(&plain, "salian-4").reduced, Some(3));
        assert_eq!(cav(&board, "salian-4").reduced, Some(2));
        assert_eq!(cav(&board, "salian-3a").reduced, Some(2));
    }
}
