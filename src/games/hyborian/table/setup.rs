//! Unchecked battle set-ups: the `[table]`, `[[terrain]]` and `[[unit]]`
//! sections shared by case files and ready scenarios, and the checks that
//! turn a [`Setup`] into a [`Table`] ([`Table::from_setup`]).
//!
//! ```
//! use umpire::games::hyborian::table::{setup::Setup, Table};
//! let setup: Setup = toml::from_str(r#"
//! [table]
//! width = 72.0
//! depth = 48.0
//! [[unit]]
//! id = "spears"
//! side = "turan"
//! name = "Regular Spearmen"
//! type = "MI"
//! figures = 24
//! formation = "line"
//! ranks = 3
//! front = [30.0, 10.0]
//! facing = 0
//! "#).unwrap();
//! let table = Table::from_setup(&setup).unwrap();
//! assert_eq!(table.units["spears"].files, 8);
//! ```

use super::geometry::files_and_ranks;
use super::{Status, Table, Terrain, TerrainKind, Unit};
use crate::games::hyborian::rules::formations::{formation_fits, RING_MAX_RANKS};
use crate::games::hyborian::rules::{Class, Formation, Trait, UnitType, Weapon};
use crate::geometry::normalize_bearing;
use glam::DVec2;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The sides of a table, in inches: the book's battles are fought on
/// tables up to 12 feet; a campaign's largest needs 12 feet; 100 feet is
/// far beyond any, and small enough to draw.
pub const TABLE_INCHES: std::ops::RangeInclusive<f64> = 1.0..=1_200.0;

/// The table, terrain and units of a battle as written in a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub table: TableSize,
    #[serde(default)]
    pub terrain: Vec<TerrainSetup>,
    #[serde(default, rename = "unit")]
    pub units: Vec<UnitSetup>,
}

/// `[table]`: the size of the table in inches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    pub width: f64,
    pub depth: f64,
}

/// One `[[terrain]]` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSetup {
    /// hill | woods | swamp | road | river | stream | ford | bridge
    pub kind: String,
    /// Hills: 1 or 2.
    pub contours: Option<u8>,
    pub points: Vec<[f64; 2]>,
    /// Roads: width in inches. Rivers, streams, fords and bridges: with a
    /// width, `points` is a line and the water a band that wide about it.
    pub width: Option<f64>,
}

/// One `[[unit]]` entry, exactly as the case format writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSetup {
    pub id: String,
    pub side: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    /// A, B or C; B when not given.
    pub class: Option<String>,
    pub figures: u32,
    pub original: Option<u32>,
    #[serde(default)]
    pub weapons: Vec<String>,
    #[serde(default)]
    pub traits: Vec<String>,
    /// Required for units; single figures have none.
    pub formation: Option<String>,
    pub ranks: Option<u32>,
    pub files: Option<u32>,
    pub front: [f64; 2],
    pub facing: f64,
    pub status: Option<String>,
    pub attached_to: Option<String>,
    pub spell_points: Option<u32>,
    /// Commanders and heroes: whether they ride. Not given: they ride when
    /// attached to cavalry, chariots or mammoths (ruling O-7).
    #[serde(default)]
    pub mounted: Option<bool>,
}

/// Why a set-up is not a legal table: which unit (or terrain), which field, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {field}: {why}")]
pub struct SetupError {
    /// `unit 'boss'`, `terrain 2`, `table`.
    pub place: String,
    pub field: String,
    pub why: String,
}

fn err(place: &str, field: &str, why: impl Into<String>) -> SetupError {
    SetupError {
        place: place.to_string(),
        field: field.to_string(),
        why: why.into(),
    }
}

fn parse_status(text: &str, place: &str) -> Result<(Status, BTreeSet<String>), SetupError> {
    let t = text.trim();
    if let Some(list) = t.strip_prefix("in-melee:") {
        let ids: BTreeSet<String> = list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if ids.is_empty() {
            return Err(err(
                place,
                "status",
                "in-melee: needs the ids of the enemy units, e.g. in-melee:foot",
            ));
        }
        return Ok((Status::Ready, ids));
    }
    if let Some(n) = t.strip_prefix("fall-back:") {
        let n: u8 = n.parse().map_err(|_| {
            err(
                place,
                "status",
                format!("'{t}': fall-back:N needs the turns left, e.g. fall-back:1"),
            )
        })?;
        return Ok((Status::FallBack(n), BTreeSet::new()));
    }
    let s = match t {
        "ready" => Status::Ready,
        "rout" => Status::Rout,
        "eliminated" => Status::Eliminated,
        "surrendered" => Status::Surrendered,
        "off-table" => Status::OffTable,
        "captured" => Status::Captured,
        _ => {
            return Err(err(
                place,
                "status",
                format!("'{t}' is not a status (ready, fall-back:N, rout, in-melee:ID,ID)"),
            ));
        }
    };
    Ok((s, BTreeSet::new()))
}

fn parse_terrain(i: usize, t: &TerrainSetup) -> Result<Terrain, SetupError> {
    let place = format!("terrain {}", i + 1);
    let points: Vec<DVec2> = t.points.iter().map(|p| DVec2::new(p[0], p[1])).collect();
    if points.iter().any(|p| !p.is_finite()) {
        return Err(err(&place, "points", "every point must be a finite [x, y]"));
    }
    let kind = match t.kind.as_str() {
        "hill" => match t.contours {
            Some(c @ (1 | 2)) => TerrainKind::Hill { contours: c },
            _ => return Err(err(&place, "contours", "a hill needs contours = 1 or 2")),
        },
        "woods" => TerrainKind::Woods,
        "swamp" => TerrainKind::Swamp,
        "road" => match t.width {
            Some(w) if w > 0.0 && w.is_finite() => TerrainKind::Road { width: w },
            _ => {
                return Err(err(
                    &place,
                    "width",
                    "a road needs a width in inches, e.g. width = 2.0",
                ))
            }
        },
        "river" => TerrainKind::River,
        "stream" => TerrainKind::Stream,
        "ford" => TerrainKind::Ford,
        "bridge" => TerrainKind::Bridge,
        other => {
            return Err(err(
                &place,
                "kind",
                format!(
                    "'{other}' is not a terrain kind (hill, woods, swamp, road, river, stream, ford, bridge)"
                ),
            ))
        }
    };
    if kind.is_water() {
        // A line with a width is a band (like a road); without one, a polygon.
        return match t.width {
            Some(w) if w > 0.0 && w.is_finite() && points.len() >= 2 => Ok(Terrain {
                kind,
                points: crate::geometry::band_polygon(&points, w),
            }),
            Some(_) => Err(err(
                &place,
                "width",
                "a width in inches greater than 0, with at least 2 points",
            )),
            None if points.len() >= 3 => Ok(Terrain { kind, points }),
            None => Err(err(
                &place,
                "points",
                "water is a polygon of 3 or more points, or a line of 2 or more with a width",
            )),
        };
    }
    let needed = if matches!(kind, TerrainKind::Road { .. }) {
        2
    } else {
        3
    };
    if points.len() < needed {
        return Err(err(
            &place,
            "points",
            format!("needs at least {needed} points"),
        ));
    }
    Ok(Terrain { kind, points })
}

fn parse_list<T: std::str::FromStr<Err = crate::games::hyborian::rules::UnknownName>>(
    items: &[String],
    place: &str,
    field: &str,
) -> Result<Vec<T>, SetupError> {
    items
        .iter()
        .map(|s| {
            s.parse()
                .map_err(|e: crate::games::hyborian::rules::UnknownName| {
                    err(place, field, e.to_string())
                })
        })
        .collect()
}

fn parse_unit(
    u: &UnitSetup,
    number: u32,
    size: &TableSize,
) -> Result<(Unit, BTreeSet<String>), SetupError> {
    let place = format!("unit '{}'", u.id);
    if u.id.is_empty()
        || !u
            .id
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    {
        return Err(err(
            &place,
            "id",
            "an id is letters, digits, - and _ (dice keys and expectations use it)",
        ));
    }
    if u.name.trim().is_empty() {
        return Err(err(&place, "name", "a unit needs the name its orders use"));
    }
    if u.side.trim().is_empty() {
        return Err(err(&place, "side", "a unit needs a side"));
    }
    let kind: UnitType =
        u.kind
            .parse()
            .map_err(|e: crate::games::hyborian::rules::UnknownName| {
                err(&place, "type", e.to_string())
            })?;
    let class: Class = match &u.class {
        Some(c) => c
            .parse()
            .map_err(|e: crate::games::hyborian::rules::UnknownName| {
                err(&place, "class", e.to_string())
            })?,
        None => Class::B,
    };
    if u.figures == 0 {
        return Err(err(
            &place,
            "figures",
            "a unit on the table has at least 1 figure",
        ));
    }
    let original = u.original.unwrap_or(u.figures);
    if original < u.figures {
        return Err(err(
            &place,
            "original",
            format!(
                "original strength {original} is less than the {} figures now",
                u.figures
            ),
        ));
    }
    let weapons: Vec<Weapon> = parse_list(&u.weapons, &place, "weapons")?;
    let traits: Vec<Trait> = parse_list(&u.traits, &place, "traits")?;
    let front = DVec2::new(u.front[0], u.front[1]);
    if !front.is_finite()
        || front.x < 0.0
        || front.y < 0.0
        || front.x > size.width
        || front.y > size.depth
    {
        return Err(err(
            &place,
            "front",
            format!(
                "[{}, {}] is off the {} × {} inch table",
                u.front[0], u.front[1], size.width, size.depth
            ),
        ));
    }
    if !u.facing.is_finite() {
        return Err(err(
            &place,
            "facing",
            "a compass bearing in degrees, e.g. 0 for north",
        ));
    }
    let (formation, files, ranks) = if kind.is_single_figure() {
        if u.formation.is_some() || u.ranks.is_some() || u.files.is_some() {
            return Err(err(
                &place,
                "formation",
                format!(
                    "a {} is a single figure: give no formation, ranks or files",
                    kind.book_name()
                ),
            ));
        }
        (Formation::Line, 1, 1)
    } else {
        let text = u.formation.as_deref().ok_or_else(|| {
            err(
                &place,
                "formation",
                "missing (line, positional-line, column, road-column, ring)",
            )
        })?;
        let formation: Formation =
            text.parse()
                .map_err(|e: crate::games::hyborian::rules::UnknownName| {
                    err(&place, "formation", e.to_string())
                })?;
        let (files, ranks) = match (formation, u.files, u.ranks) {
            (_, Some(_), Some(_)) => {
                return Err(err(
                    &place,
                    "ranks",
                    "give ranks or files, not both (the other is derived)",
                ))
            }
            (Formation::Ring, None, None) => {
                files_and_ranks(kind, u.figures, None, Some(RING_MAX_RANKS))
            }
            (_, None, None) => return Err(err(&place, "ranks", "give ranks or files")),
            (_, Some(0), _) | (_, _, Some(0)) => {
                return Err(err(&place, "ranks", "ranks and files are at least 1"))
            }
            (_, f, r) => files_and_ranks(kind, u.figures, f, r),
        };
        formation_fits(formation, files, ranks).map_err(|why| err(&place, "formation", why))?;
        (formation, files, ranks)
    };
    let (status, in_melee_with) = match &u.status {
        Some(s) => parse_status(s, &place)?,
        None => (Status::Ready, BTreeSet::new()),
    };
    if u.attached_to.is_some()
        && !matches!(
            kind,
            UnitType::Commander | UnitType::Hero | UnitType::Superhero
        )
    {
        return Err(err(
            &place,
            "attached_to",
            "only commanders and heroes are attached to units",
        ));
    }
    if u.spell_points.is_some() && kind != UnitType::Wizard {
        return Err(err(
            &place,
            "spell_points",
            "only wizards have spell points",
        ));
    }
    if u.mounted.is_some() && !kind.is_leader() {
        return Err(err(
            &place,
            "mounted",
            "only commanders and heroes are written mounted or on foot (other units are by their type)",
        ));
    }
    let unit = Unit {
        id: u.id.clone(),
        side: u.side.clone(),
        name: u.name.trim().to_string(),
        number,
        kind,
        class,
        figures: u.figures,
        original,
        weapons,
        traits,
        formation,
        files,
        ranks,
        front,
        facing: normalize_bearing(u.facing),
        status,
        in_melee_with: BTreeSet::new(),
        attached_to: u.attached_to.clone(),
        spell_points: u.spell_points,
        mounted: u.mounted.unwrap_or(false),
    };
    Ok((unit, in_melee_with))
}

impl Table {
    /// Check a set-up and build the table (turn 1). Unit `number` is the
    /// 1-based order of the unit within its side as listed.
    ///
    /// # Errors
    /// A [`SetupError`] naming the unit or terrain, the field and why:
    /// unknown names, duplicate ids, formations the book does not allow,
    /// units off the table or overlapping, melee partners that do not exist.
    pub fn from_setup(setup: &Setup) -> Result<Table, SetupError> {
        let size = &setup.table;
        if ![size.width, size.depth]
            .iter()
            .all(|v| TABLE_INCHES.contains(v))
        {
            return Err(err(
                "table",
                "width",
                "the table's width and depth are inches from 1 to 1,200 (100 feet)",
            ));
        }
        let terrain = setup
            .terrain
            .iter()
            .enumerate()
            .map(|(i, t)| parse_terrain(i, t))
            .collect::<Result<Vec<_>, _>>()?;
        let mut units = BTreeMap::new();
        let mut melee: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut per_side: BTreeMap<String, u32> = BTreeMap::new();
        for u in &setup.units {
            let number = per_side.entry(u.side.clone()).or_insert(0);
            *number += 1;
            let (unit, partners) = parse_unit(u, *number, size)?;
            if units.contains_key(&unit.id) {
                return Err(err(
                    &format!("unit '{}'", unit.id),
                    "id",
                    "the same id is used twice",
                ));
            }
            melee.insert(unit.id.clone(), partners);
            units.insert(unit.id.clone(), unit);
        }
        let mut table = Table {
            width: size.width,
            depth: size.depth,
            terrain,
            units,
            turn: 1,
            ..Default::default()
        };
        // Melee is mutual: list it on both units.
        for (id, partners) in &melee {
            for p in partners {
                let place = format!("unit '{id}'");
                let other = table.units.get(p).ok_or_else(|| {
                    err(
                        &place,
                        "status",
                        format!("in melee with '{p}', which is not on the table"),
                    )
                })?;
                if other.side == table.units[id].side {
                    return Err(err(
                        &place,
                        "status",
                        format!("in melee with '{p}', which is on the same side"),
                    ));
                }
                table
                    .units
                    .get_mut(id)
                    .expect("listed")
                    .in_melee_with
                    .insert(p.clone());
                table
                    .units
                    .get_mut(p)
                    .expect("checked")
                    .in_melee_with
                    .insert(id.clone());
            }
        }
        for u in table.units.values() {
            if let Some(to) = &u.attached_to {
                if !table.units.contains_key(to) || to == &u.id {
                    return Err(err(
                        &format!("unit '{}'", u.id),
                        "attached_to",
                        format!("'{to}' is not another unit on the table"),
                    ));
                }
            }
        }
        // A leader not written mounted or on foot rides with mounted troops.
        for s in setup.units.iter().filter(|s| s.mounted.is_none()) {
            let rides = table
                .units
                .get(&s.id)
                .and_then(|u| u.attached_to.as_ref())
                .and_then(|to| table.units.get(to))
                .is_some_and(|host| host.kind.is_mounted());
            if let Some(u) = table.units.get_mut(&s.id).filter(|u| u.kind.is_leader()) {
                u.mounted = rides;
            }
        }
        table.check_overlaps()?;
        Ok(table)
    }

    /// No two units may share ground unless locked in melee together
    /// (attached leaders ride with their unit).
    fn check_overlaps(&self) -> Result<(), SetupError> {
        let placed: Vec<&Unit> = self
            .units
            .values()
            .filter(|u| u.status.is_present() && u.attached_to.is_none())
            .collect();
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                if !a.in_melee_with.contains(&b.id) && a.footprint().overlaps(&b.footprint()) {
                    return Err(err(
                        &format!("unit '{}'", b.id),
                        "front",
                        format!(
                            "overlaps unit '{}' ({} and {} cannot share ground)",
                            a.id, a.name, b.name
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(units: &str) -> Result<Table, SetupError> {
        let text = format!("[table]\nwidth = 72.0\ndepth = 48.0\n{units}");
        Table::from_setup(&toml::from_str::<Setup>(&text).expect("toml"))
    }

    const SPEARS: &str = "[[unit]]\nid = \"spears\"\nside = \"turan\"\nname = \"Spearmen\"\ntype = \"MI\"\nfigures = 24\nformation = \"line\"\nranks = 3\nfront = [30.0, 10.0]\nfacing = 0\n";

    #[test]
    fn builds_units_with_numbers_and_derived_files() {
        let t = setup(&format!(
            "{SPEARS}{}",
            SPEARS.replace("spears", "two").replace("30.0", "50.0")
        ))
        .unwrap();
        assert_eq!(t.units["spears"].number, 1);
        assert_eq!(t.units["two"].number, 2);
        assert_eq!(t.units["spears"].files, 8);
        assert_eq!(t.units["spears"].class, Class::B);
        assert_eq!(t.turn, 1);
    }

    #[test]
    fn errors_name_unit_field_and_reason() {
        let e = setup(&SPEARS.replace("\"MI\"", "\"XX\"")).unwrap_err();
        assert_eq!(e.place, "unit 'spears'");
        assert_eq!(e.field, "type");
        let e = setup(&SPEARS.replace("ranks = 3", "ranks = 4")).unwrap_err();
        assert!(e.to_string().contains("at most 3 ranks"), "{e}");
        let e = setup(&format!("{SPEARS}{SPEARS}")).unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
        let e = setup(&format!(
            "{SPEARS}{}",
            SPEARS.replace("\"spears\"", "\"b\"")
        ))
        .unwrap_err();
        assert!(e.to_string().contains("cannot share ground"), "{e}");
        let e = setup(&SPEARS.replace("[30.0, 10.0]", "[80.0, 10.0]")).unwrap_err();
        assert_eq!(e.field, "front");
        let e = setup(&SPEARS.replace("facing = 0", "facing = 0\nstatus = \"in-melee:ghost\""))
            .unwrap_err();
        assert!(e.to_string().contains("ghost"), "{e}");
    }

    #[test]
    fn melee_status_is_mutual() {
        let foe = SPEARS
            .replace("\"spears\"", "\"foe\"")
            .replace("turan", "iranistan")
            .replace("[30.0, 10.0]", "[30.0, 12.0]")
            .replace("facing = 0", "facing = 180");
        let t = setup(&format!(
            "{}{foe}",
            SPEARS.replace("facing = 0", "facing = 0\nstatus = \"in-melee:foe\"")
        ))
        .unwrap();
        assert!(t.units["foe"].in_melee_with.contains("spears"));
    }
}
