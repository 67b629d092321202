//! The Hyborean world as a graph of provinces (rules digest §12): every
//! nation of Appendix I divided into provinces with one capital, and the
//! lands between. Each [`Province`] has a [`Terrain`], points (capitals
//! more), the nation that holds it at the start, and its [`Border`]s, with
//! the river or pass where one matters.
//!
//! The data is `campaigns/world/map.toml`; [`World::hyborea`] reads the
//! shipped copy and [`World::problems`] checks any map: borders listed at
//! both ends alike, one connected map, one capital per nation, and each
//! nation's province points equal to its campaign points.
//!
//! ```
//! use umpire::games::hyborian::campaign::map::World;
//! let world = World::hyborea().unwrap();
//! assert_eq!(world.points_of("aquilonia"), 3000);
//! assert!(world.border("tarantia", "shamar").is_some());
//! ```

use crate::names::key;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The shipped world map.
pub const HYBOREA: &str = include_str!("../../../../campaigns/world/map.toml");

/// The terrain of a province, which sets what it costs to march into it
/// and which terrain card a battle there needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    Clear,
    Wooded,
    Marsh,
    Hills,
    Mountains,
    Desert,
    Steppe,
}

/// March days to enter a province, by its terrain (ruling CA-3: the book
/// says only "movement in inches with terrain deductions, or in hexes").
/// A week's march is [`MARCH_DAYS_FOOT`] or [`MARCH_DAYS_MOUNTED`].
pub const ENTRY_DAYS: [(Terrain, u32); 7] = [
    (Terrain::Clear, 2),
    (Terrain::Steppe, 2),
    (Terrain::Desert, 3),
    (Terrain::Wooded, 3),
    (Terrain::Hills, 3),
    (Terrain::Marsh, 4),
    (Terrain::Mountains, 4),
];
/// Extra march days to cross a river.
pub const RIVER_DAYS: u32 = 1;
/// March days to enter mountains through a pass (instead of the mountains' own).
pub const PASS_DAYS: u32 = 3;
/// March days in a week for an army with any foot.
pub const MARCH_DAYS_FOOT: u32 = 3;
/// March days in a week for an army all mounted.
pub const MARCH_DAYS_MOUNTED: u32 = 4;

impl Terrain {
    /// March days to enter a province of this terrain.
    pub fn entry_days(self) -> u32 {
        ENTRY_DAYS
            .iter()
            .find(|(t, _)| *t == self)
            .map_or(2, |(_, d)| *d)
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Wooded => "wooded",
            Terrain::Marsh => "marsh",
            Terrain::Hills => "hills",
            Terrain::Mountains => "mountains",
            Terrain::Desert => "desert",
            Terrain::Steppe => "steppe",
        }
    }
}

/// One side of a province: the neighbour, and the river or pass between.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Border {
    pub to: String,
    #[serde(default)]
    pub river: Option<String>,
    #[serde(default, rename = "pass")]
    pub pass: Option<String>,
}

/// A province of the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Province {
    pub id: String,
    pub name: String,
    /// The nation (map id) holding it at the start; none for the lands between.
    #[serde(default)]
    pub nation: Option<String>,
    pub terrain: Terrain,
    pub points: u32,
    /// The nation's capital: where units are raised; fortified.
    #[serde(default)]
    pub capital: bool,
    /// Where the picture draws it: x east, y south.
    pub at: [f64; 2],
    /// More points of its region on the map picture, where its cell grown
    /// from `at` alone would not meet its neighbours' (`atlas`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shape: Vec<[f64; 2]>,
    pub borders: Vec<Border>,
}

/// A nation on the map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapNation {
    /// The map's id ("khauran-and-khoraja").
    pub id: String,
    /// Its name in Appendix I's lists (`campaigns/nations/`).
    pub name: String,
    /// Its capital; none for a nation the book says has none (Brythunia:
    /// "not a true nation (no capital …)", Appendix I; ruling CA-20).
    #[serde(default)]
    pub capital: Option<String>,
    /// Its colour on the map picture (from the banner where there is one).
    pub colour: String,
}

/// A sea, drawn on the map picture only: armies do not cross it (§12 has no
/// sea movement), so it has no borders (ruling CA-23).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sea {
    pub name: String,
    /// Its shore as a polygon, in the provinces' `at` units.
    pub shore: Vec<[f64; 2]>,
}

impl Sea {
    /// Whether `p` lies inside the shore (even-odd rule).
    pub fn holds(&self, p: [f64; 2]) -> bool {
        let n = self.shore.len();
        let mut inside = false;
        for i in 0..n {
            let (a, b) = (self.shore[i], self.shore[(i + n - 1) % n]);
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]
            {
                inside = !inside;
            }
        }
        inside
    }

    /// The mean of its shore's points, where its name is drawn.
    pub fn middle(&self) -> [f64; 2] {
        let n = self.shore.len().max(1) as f64;
        let (x, y) = self
            .shore
            .iter()
            .fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
        [x / n, y / n]
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    title: String,
    width: f64,
    height: f64,
    #[serde(rename = "nation")]
    nations: Vec<MapNation>,
    #[serde(rename = "province")]
    provinces: Vec<Province>,
    #[serde(default, rename = "sea")]
    seas: Vec<Sea>,
}

/// The whole map.
#[derive(Debug, Clone, PartialEq)]
pub struct World {
    pub title: String,
    pub width: f64,
    pub height: f64,
    pub nations: Vec<MapNation>,
    pub provinces: BTreeMap<String, Province>,
    pub seas: Vec<Sea>,
}

/// A map file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("map: {0}")]
    Syntax(String),
    #[error("map: province '{0}' is listed twice")]
    Duplicate(String),
}

impl World {
    /// Read a map file.
    ///
    /// # Errors
    /// [`MapError`] for TOML errors (with line and column) and repeated ids.
    pub fn load(text: &str) -> Result<World, MapError> {
        let file: MapFile = toml::from_str(text).map_err(|e| MapError::Syntax(e.to_string()))?;
        let mut provinces = BTreeMap::new();
        for p in file.provinces {
            if provinces.contains_key(&p.id) {
                return Err(MapError::Duplicate(p.id));
            }
            provinces.insert(p.id.clone(), p);
        }
        Ok(World {
            title: file.title,
            width: file.width,
            height: file.height,
            nations: file.nations,
            provinces,
            seas: file.seas,
        })
    }

    /// The shipped map of the Hyborean world.
    ///
    /// # Errors
    /// Only if the shipped file is broken (a test keeps it whole).
    pub fn hyborea() -> Result<World, MapError> {
        World::load(HYBOREA)
    }

    pub fn province(&self, id: &str) -> Option<&Province> {
        self.provinces.get(id)
    }

    pub fn nation(&self, id: &str) -> Option<&MapNation> {
        self.nations.iter().find(|n| n.id == id)
    }

    /// The border between two provinces, if they are neighbours.
    pub fn border(&self, from: &str, to: &str) -> Option<&Border> {
        self.provinces
            .get(from)?
            .borders
            .iter()
            .find(|b| b.to == to)
    }

    /// Sum of the points of the provinces `nation` holds at the start.
    pub fn points_of(&self, nation: &str) -> u32 {
        self.provinces
            .values()
            .filter(|p| p.nation.as_deref() == Some(nation))
            .map(|p| p.points)
            .sum()
    }

    /// March days to go from `from` into its neighbour `to`.
    pub fn march_days(&self, from: &str, to: &str) -> Option<u32> {
        let b = self.border(from, to)?;
        let p = self.provinces.get(to)?;
        let entry = if b.pass.is_some() {
            PASS_DAYS.min(p.terrain.entry_days())
        } else {
            p.terrain.entry_days()
        };
        Some(entry + if b.river.is_some() { RIVER_DAYS } else { 0 })
    }

    /// A province id from what a player wrote: its id or its name, any case.
    pub fn find(&self, written: &str) -> Option<&Province> {
        let key = key(written);
        self.provinces
            .values()
            .find(|p| key == self::key(&p.id) || key == self::key(&p.name))
    }

    /// The closest province name to a misspelt one.
    pub fn suggest(&self, written: &str) -> Option<String> {
        crate::names::closest(
            written,
            self.provinces.values().map(|p| (p.name.as_str(), &p.name)),
        )
        .cloned()
    }

    /// Everything wrong with the map, in words; empty when it is sound.
    /// `points` gives each nation's campaign points (map id → points).
    pub fn problems(&self, points: &BTreeMap<String, u32>) -> Vec<String> {
        let mut out = Vec::new();
        for p in self.provinces.values() {
            for b in &p.borders {
                match self.border(&b.to, &p.id) {
                    None if !self.provinces.contains_key(&b.to) => out.push(format!(
                        "{} borders '{}', which is not a province",
                        p.id, b.to
                    )),
                    None => out.push(format!(
                        "{} lists {} as a neighbour but {} does not list {}",
                        p.id, b.to, b.to, p.id
                    )),
                    Some(back) if back.river != b.river || back.pass != b.pass => {
                        out.push(format!(
                            "the border {}–{} has a different river or pass at each end",
                            p.id, b.to
                        ))
                    }
                    Some(_) => {}
                }
            }
            if let Some(n) = &p.nation {
                if self.nation(n).is_none() {
                    out.push(format!(
                        "{} belongs to '{n}', which is not a nation of the map",
                        p.id
                    ));
                }
            }
        }
        for sea in &self.seas {
            if sea.shore.len() < 3 {
                out.push(format!("the sea {} needs three points or more", sea.name));
            }
            for p in &sea.shore {
                if !(0.0..=self.width).contains(&p[0]) || !(0.0..=self.height).contains(&p[1]) {
                    out.push(format!("the sea {}'s point {p:?} is off the map", sea.name));
                }
            }
            for p in self.provinces.values().filter(|p| sea.holds(p.at)) {
                out.push(format!("{} lies in the sea {}", p.id, sea.name));
            }
            for p in self.provinces.values() {
                for at in p.shape.iter().filter(|at| sea.holds(**at)) {
                    out.push(format!(
                        "{}'s shape point {at:?} lies in the sea {}",
                        p.id, sea.name
                    ));
                }
            }
        }
        // Connected: every province reachable from the first.
        if let Some(start) = self.provinces.keys().next() {
            let mut seen = BTreeSet::from([start.clone()]);
            let mut todo = vec![start.clone()];
            while let Some(id) = todo.pop() {
                for b in &self.provinces[&id].borders {
                    if self.provinces.contains_key(&b.to) && seen.insert(b.to.clone()) {
                        todo.push(b.to.clone());
                    }
                }
            }
            for id in self.provinces.keys().filter(|id| !seen.contains(*id)) {
                out.push(format!("{id} cannot be reached from {start}"));
            }
        }
        for n in &self.nations {
            let capitals: Vec<&str> = self
                .provinces
                .values()
                .filter(|p| p.capital && p.nation.as_deref() == Some(&n.id))
                .map(|p| p.id.as_str())
                .collect();
            match &n.capital {
                Some(cap) if capitals != [cap.as_str()] => out.push(format!(
                    "{} must have exactly one capital, {cap}; the map marks {capitals:?}",
                    n.id
                )),
                None if !capitals.is_empty() => out.push(format!(
                    "{} has no capital, but the map marks {capitals:?} as one",
                    n.id
                )),
                _ => {}
            }
            // "Provinces carry points, capitals more" (§12).
            if let Some(cap) = n.capital.as_ref().and_then(|c| self.provinces.get(c)) {
                for p in self.provinces.values().filter(|p| {
                    p.nation.as_deref() == Some(&n.id) && p.id != cap.id && p.points >= cap.points
                }) {
                    out.push(format!(
                        "{}'s capital {} carries {} points, not more than {} ({}): capitals carry more (§12)",
                        n.id, cap.id, cap.points, p.id, p.points
                    ));
                }
            }
            match points.get(&n.id) {
                Some(&want) if want != self.points_of(&n.id) => out.push(format!(
                    "{}'s provinces add up to {} points but its campaign points are {want}",
                    n.id,
                    self.points_of(&n.id)
                )),
                None => out.push(format!("{} has no campaign points", n.id)),
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn march_days_count_terrain_rivers_and_passes() {
        let w = World::hyborea().unwrap();
        assert_eq!(w.march_days("tarantia", "shamar"), Some(2));
        assert_eq!(
            w.march_days("shamar", "ophirean-hills"),
            Some(3 + RIVER_DAYS)
        );
        assert_eq!(
            w.march_days("shadizar", "kezankian-mountains"),
            Some(PASS_DAYS)
        );
        assert_eq!(w.march_days("tarantia", "kordava"), None);
    }

    #[test]
    fn an_asymmetric_border_is_found() {
        let mut w = World::hyborea().unwrap();
        w.provinces
            .get_mut("tarantia")
            .unwrap()
            .borders
            .retain(|b| b.to != "shamar");
        let p = w.problems(&BTreeMap::new());
        assert!(
            p.iter()
                .any(|s| s
                    == "shamar lists tarantia as a neighbour but tarantia does not list shamar"),
            "{p:?}"
        );
    }

    #[test]
    fn brythunia_has_no_capital_and_every_capital_carries_the_most() {
        let w = World::hyborea().unwrap();
        assert_eq!(w.nation("brythunia").unwrap().capital, None);
        assert!(!w.province("pirogia").unwrap().capital);
        assert_eq!(
            w.nation("aquilonia").unwrap().capital.as_deref(),
            Some("tarantia")
        );
        let points = BTreeMap::new();
        let capitals_most = |w: &World| {
            w.problems(&points)
                .into_iter()
                .filter(|p| p.contains("capitals carry more") || p.contains("capital"))
                .collect::<Vec<_>>()
        };
        assert_eq!(capitals_most(&w), Vec::<String>::new());
        let mut poorer = w.clone();
        poorer.provinces.get_mut("tarantia").unwrap().points = 10;
        assert!(
            capitals_most(&poorer)
                .iter()
                .any(|p| p
                    .starts_with("aquilonia's capital tarantia carries 10 points, not more than")),
            "{:?}",
            capitals_most(&poorer)
        );
        let mut walled = w.clone();
        walled.provinces.get_mut("pirogia").unwrap().capital = true;
        assert!(capitals_most(&walled).contains(
            &"brythunia has no capital, but the map marks [\"pirogia\"] as one".to_string()
        ));
    }

    #[test]
    fn the_seas_are_drawn_and_no_province_lies_in_one() {
        let w = World::hyborea().unwrap();
        let names: Vec<&str> = w.seas.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Western Ocean", "Vilayet Sea", "Southern Ocean"]);
        let points: BTreeMap<String, u32> = BTreeMap::new();
        let seas = |w: &World| -> Vec<String> {
            w.problems(&points)
                .into_iter()
                .filter(|p| p.contains("sea"))
                .collect()
        };
        assert_eq!(seas(&w), Vec::<String>::new());
        let mut flooded = w.clone();
        flooded.provinces.get_mut("aghrapur").unwrap().at = w.seas[1].middle();
        assert_eq!(seas(&flooded), ["aghrapur lies in the sea Vilayet Sea"]);
        let mut off = w.clone();
        off.seas[0].shore.push([-1.0, 5.0]);
        assert_eq!(
            seas(&off),
            ["the sea Western Ocean's point [-1.0, 5.0] is off the map"]
        );
    }

    #[test]
    fn names_are_found_in_any_case() {
        let w = World::hyborea().unwrap();
        assert_eq!(w.find("bossonian marches").unwrap().id, "bossonian-marches");
        assert_eq!(w.suggest("Tarantya").as_deref(), Some("Tarantia"));
    }
}
