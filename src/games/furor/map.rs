//! Maps as data (digest §14, O8): the grid's size, each hex's base terrain,
//! roads, and the features on hexsides (rivers, streams, fords, bridges).
//! [`Map::from_file_text`] reads a map file of `campaigns/furor-barbarus/maps/`
//! (with its per-scenario overlays), [`MapSpec`] is the `[map]` table of a
//! case file; both are checked on load ([`MapError`] lists every problem)
//! and a map file's [`content_hash`] is pinned in every game.
//!
//! ```
//! use umpire::games::furor::map::{Map, MapSpec};
//! use umpire::games::furor::rules::terrain::{HexsideFeature, Terrain};
//! let spec: MapSpec = toml::from_str(r#"
//! columns = 12
//! rows = 15
//! hexes = { "0611" = "village" }
//! roads = [["0801", "0802"]]
//! hexsides = [{ between = ["0710", "0711"], feature = "stream" }]
//! "#).unwrap();
//! let map = Map::from_spec(&spec).unwrap();
//! assert_eq!(map.terrain("0611".parse().unwrap()), Terrain::Village);
//! assert!(map.along_road("0801".parse().unwrap(), "0802".parse().unwrap()));
//! assert_eq!(map.hexside("0711".parse().unwrap(), "0710".parse().unwrap()), Some(HexsideFeature::Stream));
//! assert!(!map.contains("1216".parse().unwrap()));
//! ```

use crate::games::furor::hex::{Hex, Hexside};
use crate::games::furor::rules::terrain::{HexsideFeature, Terrain};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The largest map the grid's ids can name (`CCRR`: two digits each).
pub const MAX_EXTENT: i16 = 99;

/// A checked map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub name: String,
    /// `reconstructed`, `club-supplied`, or `case` for a case's hand-made map.
    pub status: String,
    pub columns: i16,
    pub rows: i16,
    /// The base terrain of every hex not listed in `hexes`.
    pub default_terrain: Terrain,
    pub hexes: BTreeMap<Hex, Terrain>,
    /// Hexes whose terrain is written `road`: each joins every adjacent
    /// hex that carries a road.
    pub road_hexes: BTreeSet<Hex>,
    /// Roads as chains of adjacent hexes (joined only consecutive hexes).
    pub roads: Vec<Vec<Hex>>,
    pub hexsides: BTreeMap<Hexside, HexsideFeature>,
    /// Printed features a scenario declares of no effect (Tolbiac rule 2);
    /// drawn as a note, never used by the rules.
    pub no_effect: Vec<String>,
}

impl Map {
    /// Whether the hex is on the map.
    pub fn contains(&self, h: Hex) -> bool {
        (1..=self.columns).contains(&h.col) && (1..=self.rows).contains(&h.row)
    }

    /// Every hex of the map, column by column.
    pub fn all_hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (1..=self.columns).flat_map(move |c| (1..=self.rows).map(move |r| Hex::new(c, r)))
    }

    /// The hex's base terrain.
    pub fn terrain(&self, h: Hex) -> Terrain {
        self.hexes.get(&h).copied().unwrap_or(self.default_terrain)
    }

    /// Whether a road passes through the hex (a "road hex", O8, O13).
    pub fn has_road(&self, h: Hex) -> bool {
        self.road_hexes.contains(&h) || self.roads.iter().any(|r| r.contains(&h))
    }

    /// Whether a step from `a` to the adjacent `b` follows a road: both are
    /// consecutive in a road chain, or one is a `road` hex and the other
    /// carries a road.
    pub fn along_road(&self, a: Hex, b: Hex) -> bool {
        if !a.is_adjacent(b) {
            return false;
        }
        let chained = self.roads.iter().any(|r| {
            r.windows(2)
                .any(|w| (w[0] == a && w[1] == b) || (w[0] == b && w[1] == a))
        });
        chained
            || (self.has_road(a)
                && self.has_road(b)
                && (self.road_hexes.contains(&a) || self.road_hexes.contains(&b)))
    }

    /// The feature on the side between two adjacent hexes.
    pub fn hexside(&self, a: Hex, b: Hex) -> Option<HexsideFeature> {
        Hexside::between(a, b).and_then(|s| self.hexsides.get(&s).copied())
    }

    /// The feature as movement, charges and combat meet it: a road across
    /// a stream crosses it as a bridge would (ruling O8).
    pub fn crossing(&self, a: Hex, b: Hex) -> Option<HexsideFeature> {
        match self.hexside(a, b) {
            Some(HexsideFeature::Stream) if self.along_road(a, b) => Some(HexsideFeature::Bridge),
            other => other,
        }
    }

    /// Whether anything may go from `a` into the adjacent `b` (b on the map,
    /// its terrain enterable, no river hexside without a crossing).
    pub fn passable(&self, a: Hex, b: Hex) -> bool {
        self.contains(b)
            && self.terrain(b).move_cost().is_some()
            && self.hexside(a, b).is_none_or(HexsideFeature::passable)
    }

    /// A case's `[map]` table, checked.
    ///
    /// # Errors
    /// Every hex id off the grid, unknown terrain, broken road and hexside
    /// that is not between two adjacent hexes of the map.
    pub fn from_spec(spec: &MapSpec) -> Result<Map, MapError> {
        let mut p = Problems::default();
        let (columns, rows) = p.extent(spec.columns, spec.rows);
        let mut map = Map {
            name: spec.name.clone().unwrap_or_else(|| "case map".into()),
            status: spec.status.clone().unwrap_or_else(|| "case".into()),
            columns,
            rows,
            default_terrain: Terrain::Clear,
            hexes: BTreeMap::new(),
            road_hexes: BTreeSet::new(),
            roads: Vec::new(),
            hexsides: BTreeMap::new(),
            no_effect: Vec::new(),
        };
        match Terrain::parse(spec.terrain.as_deref().unwrap_or("clear")) {
            Some((t, false)) => map.default_terrain = t,
            _ => p.add(format!(
                "map.terrain '{}' is not one of {}",
                spec.terrain.as_deref().unwrap_or(""),
                Terrain::NAMES.join(" ")
            )),
        }
        for (id, t) in &spec.hexes {
            let Some(h) = p.hex(&map, id, "map.hexes") else {
                continue;
            };
            map.set_terrain(h, t, &mut p);
        }
        for (i, road) in spec.roads.iter().enumerate() {
            map.add_road(road, &format!("map.roads[{i}]"), &mut p);
        }
        for (i, s) in spec.hexsides.iter().enumerate() {
            map.add_hexside(s, &format!("map.hexsides[{i}]"), &mut p);
        }
        p.finish(map)
    }

    /// A map file of `campaigns/furor-barbarus/maps/` with one scenario's
    /// overlay laid on it (`None`: the bare map).
    ///
    /// # Errors
    /// Not TOML, unknown keys, an unknown overlay, or any problem of
    /// [`Map::from_spec`] in the map or the overlay.
    pub fn from_file_text(text: &str, overlay: Option<&str>) -> Result<Map, MapError> {
        let file: MapFile = toml::from_str(text)
            .map_err(|e| MapError(vec![format!("map file: {}", e.message())]))?;
        let spec = MapSpec {
            name: Some(file.map.name.clone()),
            status: Some(file.map.status.clone()),
            columns: file.map.columns,
            rows: file.map.rows,
            terrain: file.map.terrain.clone(),
            hexes: file
                .hex
                .iter()
                .map(|h| (h.id.clone(), h.terrain.clone()))
                .collect(),
            roads: file.road.iter().map(|r| r.hexes.clone()).collect(),
            hexsides: file.hexside.clone(),
        };
        let mut map = Map::from_spec(&spec)?;
        let Some(name) = overlay else { return Ok(map) };
        let Some(o) = file.scenario.get(name) else {
            return Err(MapError(vec![format!(
                "the map has no overlay for scenario '{name}'"
            )]));
        };
        let mut p = Problems::default();
        for h in &o.hex {
            if let Some(hex) = p.hex(&map, &h.id, "overlay hex") {
                map.set_terrain(hex, &h.terrain, &mut p);
            }
        }
        for (i, r) in o.road.iter().enumerate() {
            map.add_road(&r.hexes, &format!("overlay road[{i}]"), &mut p);
        }
        for (i, s) in o.hexside.iter().enumerate() {
            map.add_hexside(s, &format!("overlay hexside[{i}]"), &mut p);
        }
        for id in &o.no_effect {
            if let Some(h) = p.hex(&map, id, "no_effect") {
                map.hexes.remove(&h);
                map.road_hexes.remove(&h);
                map.roads.retain(|r| !r.contains(&h));
                map.hexsides
                    .retain(|s, _| s.hexes().0 != h && s.hexes().1 != h);
                map.no_effect.push(id.clone());
            }
        }
        p.finish(map)
    }

    fn set_terrain(&mut self, h: Hex, name: &str, p: &mut Problems) {
        match Terrain::parse(name) {
            Some((t, road)) => {
                self.hexes.insert(h, t);
                if road {
                    self.road_hexes.insert(h);
                }
            }
            None => p.add(format!(
                "hex {h}: terrain '{name}' is not one of {}",
                Terrain::NAMES.join(" ")
            )),
        }
    }

    fn add_road(&mut self, ids: &[String], what: &str, p: &mut Problems) {
        let hexes: Vec<Hex> = ids.iter().filter_map(|id| p.hex(self, id, what)).collect();
        if hexes.len() != ids.len() {
            return;
        }
        if let Some(w) = hexes.windows(2).find(|w| !w[0].is_adjacent(w[1])) {
            p.add(format!(
                "{what}: {} and {} are not adjacent (a road is a chain of adjacent hexes)",
                w[0], w[1]
            ));
            return;
        }
        self.roads.push(hexes);
    }

    fn add_hexside(&mut self, s: &HexsideSpec, what: &str, p: &mut Problems) {
        let hexes: Vec<Hex> = s
            .between
            .iter()
            .filter_map(|id| p.hex(self, id, what))
            .collect();
        let [a, b] = hexes[..] else {
            if s.between.len() != 2 {
                p.add(format!("{what}: between names two hexes"));
            }
            return;
        };
        let Some(side) = Hexside::between(a, b) else {
            p.add(format!(
                "{what}: {a} and {b} are not adjacent, so have no side between them"
            ));
            return;
        };
        match HexsideFeature::parse(&s.feature, s.crossing.as_deref()) {
            Some(f) => {
                self.hexsides.insert(side, f);
            }
            None => p.add(format!(
                "{what}: feature '{}'{} is not river, stream, ford or bridge (crossings: none, ford, bridge)",
                s.feature,
                s.crossing.as_deref().map(|c| format!(" with crossing '{c}'")).unwrap_or_default()
            )),
        }
    }
}

/// The `[map]` table of a case file (cases-hex.md), and the body of a map file.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    pub columns: i64,
    pub rows: i64,
    /// The default terrain (`clear` when absent).
    #[serde(default)]
    pub terrain: Option<String>,
    #[serde(default)]
    pub hexes: BTreeMap<String, String>,
    #[serde(default)]
    pub roads: Vec<Vec<String>>,
    #[serde(default)]
    pub hexsides: Vec<HexsideSpec>,
}

/// One hexside feature as written.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideSpec {
    pub between: Vec<String>,
    pub feature: String,
    /// Map files: `none`, `ford` or `bridge` on a river or stream.
    #[serde(default)]
    pub crossing: Option<String>,
}

/// A map file (digest §14's proposal).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    map: MapHead,
    #[serde(default)]
    hex: Vec<HexEntry>,
    #[serde(default)]
    hexside: Vec<HexsideSpec>,
    #[serde(default)]
    road: Vec<RoadEntry>,
    #[serde(default)]
    scenario: BTreeMap<String, Overlay>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapHead {
    name: String,
    columns: i64,
    rows: i64,
    status: String,
    #[serde(default)]
    terrain: Option<String>,
    /// Free text: where the map comes from, what is guessed.
    #[serde(default, rename = "note")]
    _note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HexEntry {
    id: String,
    terrain: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoadEntry {
    hexes: Vec<String>,
}

/// What a scenario lays on a map (§3) or declares of no effect.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Overlay {
    #[serde(default)]
    hex: Vec<HexEntry>,
    #[serde(default)]
    hexside: Vec<HexsideSpec>,
    #[serde(default)]
    road: Vec<RoadEntry>,
    #[serde(default)]
    no_effect: Vec<String>,
}

/// Every problem found in a map, one per line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("; "))]
pub struct MapError(pub Vec<String>);

#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    fn add(&mut self, s: String) {
        self.0.push(s);
    }

    fn extent(&mut self, columns: i64, rows: i64) -> (i16, i16) {
        let ok = |n: i64| (1..=i64::from(MAX_EXTENT)).contains(&n);
        if !ok(columns) || !ok(rows) {
            self.add(format!(
                "map.columns and map.rows must be 1-{MAX_EXTENT}, not {columns} and {rows}"
            ));
            return (1, 1);
        }
        (columns as i16, rows as i16)
    }

    fn hex(&mut self, map: &Map, id: &str, what: &str) -> Option<Hex> {
        match id.parse::<Hex>() {
            Ok(h) if map.contains(h) => Some(h),
            Ok(h) => {
                self.add(format!(
                    "{what}: {h} is not on the map (0101-{:02}{:02})",
                    map.columns, map.rows
                ));
                None
            }
            Err(e) => {
                self.add(format!("{what}: {e}"));
                None
            }
        }
    }

    fn finish(self, map: Map) -> Result<Map, MapError> {
        if self.0.is_empty() {
            Ok(map)
        } else {
            Err(MapError(self.0))
        }
    }
}

/// SHA-256 of a data file's bytes, as hex: what a game pins.
pub fn content_hash(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

impl fmt::Display for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} columns × {} rows, {})",
            self.name, self.columns, self.rows, self.status
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> MapSpec {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn every_problem_is_listed() {
        let err = Map::from_spec(&spec(
            r#"columns = 12
rows = 15
hexes = { "1301" = "woods", "0101" = "swamp" }
roads = [["0801", "0803"]]
hexsides = [{ between = ["0710", "0712"], feature = "stream" }, { between = ["0710", "0711"], feature = "lava" }]"#,
        ))
        .unwrap_err();
        let text = err.to_string();
        for want in [
            "1301 is not on the map",
            "'swamp'",
            "0801 and 0803 are not adjacent",
            "0710 and 0712 are not adjacent",
            "'lava'",
        ] {
            assert!(text.contains(want), "{want} missing from: {text}");
        }
    }

    #[test]
    fn road_hexes_join_every_road_neighbour_and_chains_only_consecutive() {
        let m = Map::from_spec(&spec(
            r#"columns = 12
rows = 15
hexes = { "0505" = "road", "0506" = "road" }
roads = [["0801", "0802", "0803"], ["0901", "0902"]]"#,
        ))
        .unwrap();
        let h = |s: &str| s.parse::<Hex>().unwrap();
        assert!(m.along_road(h("0505"), h("0506")));
        assert!(m.along_road(h("0802"), h("0803")));
        // 0802 and 0902 both carry roads, but on different chains.
        assert!(!m.along_road(h("0802"), h("0902")));
        assert!(m.has_road(h("0901")) && !m.has_road(h("0904")));
    }

    #[test]
    fn a_road_over_a_stream_is_a_bridge_and_rivers_block() {
        let m = Map::from_spec(&spec(
            r#"columns = 12
rows = 15
roads = [["0709", "0710"]]
hexsides = [{ between = ["0709", "0710"], feature = "stream" }, { between = ["0609", "0610"], feature = "river" }, { between = ["0509", "0510"], feature = "ford" }]"#,
        ))
        .unwrap();
        let h = |s: &str| s.parse::<Hex>().unwrap();
        assert_eq!(
            m.crossing(h("0710"), h("0709")),
            Some(HexsideFeature::Bridge)
        );
        assert!(!m.passable(h("0609"), h("0610")));
        assert!(m.passable(h("0509"), h("0510")));
        assert!(!m.passable(h("0101"), Hex::new(1, 0)));
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<Map>(&json).unwrap(), m);
    }
}
