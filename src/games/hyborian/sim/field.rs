//! Where and with what a simulated battle is fought: two [`Contender`]s
//! (an army and its general) on a [`Field`] — a terrain card of the §12
//! deck (fixed, or drawn for every battle) or a ready scenario, with the
//! scenario's own units or the contenders' armies in its zones. A
//! [`Matchup`] deploys both armies once; every battle then only lays the
//! terrain and picks the table ends.
//!
//! ```
//! use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
//! use umpire::games::hyborian::sim::general::Style;
//! let a = Contender::proposed("Aquilonia", 500, Style::Cautious).unwrap();
//! let b = Contender::proposed("Nemedia", 500, Style::Aggressive).unwrap();
//! let m = Matchup::new([a, b], Field::Card(Some(50)), Default::default(), None).unwrap();
//! assert_eq!(m.sides(), ["aquilonia", "nemedia"]);
//! ```

use crate::games::hyborian::army::scenario::{self, Scenario, Zone, BATTLE_TURNS};
use crate::games::hyborian::army::{self, ArmyFile, DeploymentLine};
use crate::games::hyborian::campaign::battle::{
    self as campaign_battle, card_kind, card_terrain, edge_units, table_feet, Card, Edge,
    TABLE_DEPTH,
};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::setup::{Setup, TableSize, UnitSetup};
use crate::games::hyborian::table::Table;
use crate::sim::Commander;

/// Feet of table per 500 points of the larger army (§12 recommends 4).
pub const FEET_PER_500: u32 = 4;

/// Why a simulation cannot be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// An army file or nation the lists do not know, or no legal army fits.
    #[error(transparent)]
    Army(#[from] army::ArmyError),
    /// A scenario file that cannot be used.
    #[error("scenario: {0}")]
    Scenario(String),
    /// The armies do not fit on the table.
    #[error("{0}")]
    Table(String),
    /// A terrain card outside the deck, e.g. 0 or 101.
    #[error("there is no terrain card {0}: the deck is numbered 1 to 100")]
    NoSuchCard(u32),
}

/// One side of a simulated battle: the army (none: a scenario's own units)
/// and who commands it — a general of a style, or nobody (the side holds).
#[derive(Debug, Clone, PartialEq)]
pub struct Contender {
    /// How reports name it: "Aquilonia 500", or the army file's name.
    pub label: String,
    pub army: Option<ArmyFile>,
    pub commander: Commander,
}

impl Contender {
    /// The army the proposer builds for `nation` at `points` (`umpire army new`).
    ///
    /// # Errors
    /// [`SetupError::Army`] for an unknown nation or no legal army.
    pub fn proposed(
        nation: &str,
        points: u32,
        commander: impl Into<Commander>,
    ) -> Result<Contender, SetupError> {
        let army = army::propose(nation, points)?;
        Ok(Contender {
            label: format!("{} {points}", army.nation),
            army: Some(army),
            commander: commander.into(),
        })
    }

    /// An army from its file.
    pub fn with_army(label: &str, army: ArmyFile, commander: impl Into<Commander>) -> Contender {
        Contender {
            label: label.to_string(),
            army: Some(army),
            commander: commander.into(),
        }
    }

    /// A scenario's own units for its side.
    pub fn scenario_side(label: &str, commander: impl Into<Commander>) -> Contender {
        Contender {
            label: label.to_string(),
            army: None,
            commander: commander.into(),
        }
    }
}

/// Where the battles are fought.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// A terrain card of the §12 deck (1–100); `None` draws one per battle.
    Card(Option<u32>),
    /// A ready scenario file's text (campaigns/scenarios/).
    Scenario(String),
}

/// Everything fixed across the battles of one simulation.
#[derive(Debug, Clone)]
pub struct Matchup {
    pub contenders: [Contender; 2],
    pub options: GameOptions,
    /// Side ids on the table, by contender.
    sides: [String; 2],
    pub(super) ground: Ground,
}

/// The ground and the deployed armies.
#[derive(Debug, Clone)]
pub(super) enum Ground {
    Card {
        fixed: Option<u32>,
        width: f64,
        /// Each contender's units along the south and the north edge.
        south: [Vec<UnitSetup>; 2],
        north: [Vec<UnitSetup>; 2],
        turns: u32,
        scenario: Scenario,
    },
    Scenario {
        table: Table,
        scenario: Scenario,
    },
}

/// A side id from a nation's name: "Khauran and Khoraja" → "khauran-and-khoraja".
fn side_id(name: &str) -> String {
    let mut s = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_alphanumeric() {
            s.push(c);
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
}

/// Victory for battles without a scenario's own: break the enemy (ruling SIM-1).
fn breaking(sides: &[String; 2], width: f64) -> Scenario {
    campaign_battle::breaking(
        "simulated battle",
        sides.iter().map(|id| (id.as_str(), "")),
        width,
    )
}

fn army_points(c: &Contender) -> u32 {
    c.army.as_ref().map_or(0, |a| a.points)
}

impl Matchup {
    /// Deploy both contenders on the field. `turns` cuts the battle short
    /// (players "may agree beforehand to play fewer turns"); a scenario's
    /// own number of turns stands otherwise.
    ///
    /// # Errors
    /// [`SetupError`] when an army, the scenario or the table will not do.
    pub fn new(
        contenders: [Contender; 2],
        field: Field,
        options: GameOptions,
        turns: Option<u32>,
    ) -> Result<Matchup, SetupError> {
        match field {
            Field::Card(card) => Self::on_card(contenders, card, options, turns),
            Field::Scenario(text) => Self::on_scenario(contenders, &text, options, turns),
        }
    }

    fn on_card(
        contenders: [Contender; 2],
        card: Option<u32>,
        options: GameOptions,
        turns: Option<u32>,
    ) -> Result<Matchup, SetupError> {
        if let Some(n) = card.filter(|n| !(1..=100).contains(n)) {
            return Err(SetupError::NoSuchCard(n));
        }
        let armies = [&contenders[0], &contenders[1]].map(|c| {
            c.army.clone().ok_or_else(|| {
                SetupError::Table(format!(
                    "{} has no army: a terrain card needs two armies",
                    c.label
                ))
            })
        });
        let [a, b] = armies;
        let armies = [a?, b?];
        let mut sides = armies.clone().map(|a| side_id(&a.nation));
        if sides[0] == sides[1] {
            sides[1].push_str("-2");
        }
        let width = f64::from(
            table_feet(
                army_points(&contenders[0]),
                army_points(&contenders[1]),
                FEET_PER_500,
            ) * 12,
        );
        let deploy = |i: usize, edge| {
            edge_units(&sides[i], &armies[i], width, edge)
                .map_err(|e| SetupError::Table(e.to_string()))
        };
        let south = [deploy(0, Edge::South)?, deploy(1, Edge::South)?];
        let north = [deploy(0, Edge::North)?, deploy(1, Edge::North)?];
        let scenario = breaking(&sides, width);
        Ok(Matchup {
            contenders,
            options,
            ground: Ground::Card {
                fixed: card,
                width,
                south,
                north,
                turns: turns.unwrap_or(BATTLE_TURNS),
                scenario,
            },
            sides,
        })
    }

    fn on_scenario(
        contenders: [Contender; 2],
        text: &str,
        options: GameOptions,
        turns: Option<u32>,
    ) -> Result<Matchup, SetupError> {
        let loaded = scenario::load(text).map_err(|e| SetupError::Scenario(e.to_string()))?;
        let width = loaded.setup.table.width;
        let mut scenario = match loaded.scenario {
            Some(s) => s,
            None => {
                let found: Vec<String> = loaded.table.sides().into_iter().collect();
                let [a, b] = <[String; 2]>::try_from(found).map_err(|f| {
                    SetupError::Scenario(format!(
                        "a simulation needs two sides; the set-up has {}",
                        f.len()
                    ))
                })?;
                breaking(&[a, b], width)
            }
        };
        if scenario.sides.len() != 2 {
            return Err(SetupError::Scenario(format!(
                "a simulation needs two sides; the scenario has {}",
                scenario.sides.len()
            )));
        }
        if let Some(t) = turns {
            scenario.turns = t.min(scenario.turns);
        }
        let sides = [scenario.sides[0].id.clone(), scenario.sides[1].id.clone()];
        let table = if contenders.iter().all(|c| c.army.is_none()) {
            loaded.table
        } else {
            let mut setup: Setup = loaded.setup.clone();
            for (i, c) in contenders.iter().enumerate() {
                let Some(army) = &c.army else { continue };
                setup.units.retain(|u| u.side != sides[i]);
                let zone = scenario.sides[i].zone;
                let other = scenario.sides[1 - i].zone;
                setup.units.extend(in_zone(&sides[i], army, &zone, &other)?);
            }
            // The armies stand in their zones: no deployment turn.
            scenario.deployment_turn = false;
            Table::from_setup(&setup).map_err(|e| SetupError::Table(e.to_string()))?
        };
        Ok(Matchup {
            contenders,
            options,
            sides,
            ground: Ground::Scenario { table, scenario },
        })
    }

    /// The side ids on the table, by contender.
    pub fn sides(&self) -> [&str; 2] {
        [self.sides[0].as_str(), self.sides[1].as_str()]
    }

    /// Which contender a side id belongs to.
    pub fn contender_of(&self, side: &str) -> Option<usize> {
        self.sides.iter().position(|s| s == side)
    }

    /// The scenario whose conditions judge the battles.
    pub fn scenario(&self) -> &Scenario {
        match &self.ground {
            Ground::Card { scenario, .. } | Ground::Scenario { scenario, .. } => scenario,
        }
    }

    /// The table a battle starts on: `card` for a card field, and which
    /// contender stands on the south edge.
    pub(super) fn table(&self, card: Option<&Card>, south: usize) -> Result<Table, SetupError> {
        match &self.ground {
            Ground::Card {
                width,
                south: s,
                north: n,
                ..
            } => {
                let card = card.cloned().unwrap_or(Card {
                    number: 50,
                    kind: card_kind(50),
                    draws: 1,
                });
                let mut units = s[south].clone();
                units.extend(n[1 - south].iter().cloned());
                let setup = Setup {
                    table: TableSize {
                        width: *width,
                        depth: TABLE_DEPTH,
                    },
                    terrain: card_terrain(&card, *width),
                    units,
                };
                Table::from_setup(&setup).map_err(|e| SetupError::Table(e.to_string()))
            }
            Ground::Scenario { table, .. } => Ok(table.clone()),
        }
    }

    /// The most turns a battle lasts (before any roll for deploying).
    pub fn turns(&self) -> u32 {
        match &self.ground {
            Ground::Card { turns, .. } => *turns,
            Ground::Scenario { scenario, .. } => scenario.turns,
        }
    }
}

/// An army deployed inside a scenario's zone: a line 1 inch behind the
/// zone's edge nearest the enemy, facing the enemy's zone.
fn in_zone(
    side: &str,
    army: &ArmyFile,
    zone: &Zone,
    enemy: &Zone,
) -> Result<Vec<UnitSetup>, SetupError> {
    let enemy_north = enemy.y[0] + enemy.y[1] > zone.y[0] + zone.y[1];
    let (y, facing) = if enemy_north {
        (zone.y[1] - 1.0, 0.0)
    } else {
        (zone.y[0] + 1.0, 180.0)
    };
    let line = |gap| DeploymentLine {
        side: side.to_string(),
        y,
        x_from: zone.x[0] + 1.0,
        x_to: zone.x[1] - 1.0,
        facing,
        gap,
    };
    army.to_units(&line(2.0))
        .or_else(|_| army.to_units(&line(0.25)))
        .map_err(SetupError::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Style;

    #[test]
    fn side_ids_are_short_and_mirrors_differ() {
        assert_eq!(side_id("Khauran and Khoraja"), "khauran-and-khoraja");
        let a = Contender::proposed("Koth", 500, Style::Cautious).unwrap();
        let m = Matchup::new(
            [a.clone(), a],
            Field::Card(None),
            GameOptions::default(),
            None,
        )
        .unwrap();
        assert_eq!(m.sides(), ["koth", "koth-2"]);
        assert_eq!(m.contender_of("koth-2"), Some(1));
        assert_eq!(m.turns(), BATTLE_TURNS);
        let t = m.table(None, 1).unwrap();
        assert_eq!(t.width, 48.0, "4 feet for 500 points");
        assert!(
            t.units_of("koth-2").all(|u| u.front.y < TABLE_DEPTH / 2.0),
            "contender 1 on the south edge"
        );
    }

    #[test]
    fn cards_outside_the_deck_are_refused() {
        let a = Contender::proposed("Koth", 500, Style::Cautious).unwrap();
        let err = Matchup::new(
            [a.clone(), a],
            Field::Card(Some(101)),
            GameOptions::default(),
            None,
        )
        .unwrap_err();
        assert_eq!(err, SetupError::NoSuchCard(101));
    }

    #[test]
    fn armies_replace_a_scenarios_units_in_its_zones() {
        let text = include_str!("../../../../campaigns/scenarios/border-raid.toml");
        let a = Contender::proposed("Zamora", 300, Style::Cautious).unwrap();
        let b = Contender::scenario_side("Koth", Style::Cautious);
        let m = Matchup::new(
            [a, b],
            Field::Scenario(text.into()),
            GameOptions::default(),
            Some(6),
        )
        .unwrap();
        assert_eq!(m.sides(), ["aquilonia", "koth"]);
        assert_eq!(m.turns(), 6);
        let t = m.table(None, 0).unwrap();
        let zone = m.scenario().zone("aquilonia").unwrap();
        let turks: Vec<_> = t.units_of("aquilonia").collect();
        assert!(!turks.is_empty() && turks.iter().all(|u| zone.contains([u.front.x, u.front.y])));
        assert!(
            turks.iter().all(|u| !u.name.contains("Aquilonian")),
            "Zamora's units, not Aquilonia's"
        );
        assert!(
            t.units_of("koth").any(|u| u.name == "1st Shemite Archers"),
            "the scenario's own Kothians stay"
        );
    }
}
