//! How an FR! Ancients game starts: [`start_battle`] puts the scenario's
//! table together with each side's army file (checked: an army with breaches
//! does not start) deployed in lines by the scenario's `[[deployment]]`, the
//! house rules and the pack; [`zones`] gives each side's deployment zone for
//! the deployment round. The rule set's `new_game` calls these; the caller
//! reads the files, nothing here does I/O.
//!
//! ```
//! use umpire::games::fr_ancients::demo::trebia;
//! let game = trebia(None).unwrap();
//! assert_eq!(game.battle.units.len(), 36 + 35 + 2, "both lists and two baggage trains");
//! ```

use super::army::{check as check_army, ArmyFile, ArmyUnit};
use super::options::Options;
use super::orders::Zone;
use super::pack::Pack;
use super::setup::Layout;
use super::table::{Battle, Character, CharacterStatus, Place, Profile, StandardState, Unit};
use super::troops::{Arm, TroopType};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Where a side's army stands at the start (a scenario's `[[deployment]]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    pub side: String,
    /// The y of the first line's front edge.
    pub front: f64,
    /// 0 (north) or 180 (south).
    pub facing: f64,
    /// The side's deployment zone for the deployment round, `[x0, y0, x1,
    /// y1]`; by default the strip between its own table edge and `front`,
    /// the whole width of the table (ruling FA-61).
    #[serde(default)]
    pub zone: Option<[f64; 4]>,
}

impl Deployment {
    /// The side's zone: the one written, or the strip behind `front`.
    pub fn zone(&self, battle: &Battle) -> Zone {
        match self.zone {
            Some([x0, y0, x1, y1]) => Zone {
                min: [x0.min(x1), y0.min(y1)],
                max: [x0.max(x1), y0.max(y1)],
            },
            None if facing_north(self.facing) => Zone {
                min: [0.0, 0.0],
                max: [battle.width, self.front],
            },
            None => Zone {
                min: [0.0, self.front],
                max: [battle.width, battle.depth],
            },
        }
    }
}

/// Whether a facing is towards the north half of the compass: such an army
/// stands along the south edge.
fn facing_north(facing: f64) -> bool {
    let f = facing.rem_euclid(360.0);
    !(90.0..=270.0).contains(&f)
}

/// The deployment zones of a scenario's sides, checked against the battle
/// its layout made: each on the table, none sharing ground with another,
/// and each holding its side's units as the layout placed them (those a
/// player does not name stay there).
///
/// # Errors
/// Every zone that breaks one of these.
pub fn zones(scenario: &str, battle: &Battle) -> Result<BTreeMap<String, Zone>, Vec<String>> {
    let (deployments, _) = deployments(scenario)?;
    let mut out = BTreeMap::new();
    let mut errors = Vec::new();
    for d in &deployments {
        let z = d.zone(battle);
        if z.min[0] < 0.0 || z.min[1] < 0.0 || z.max[0] > battle.width || z.max[1] > battle.depth {
            errors.push(format!(
                "scenario [[deployment]] {}: the zone {} runs off the {} x {} table",
                d.side,
                z.show(),
                battle.width,
                battle.depth
            ));
        }
        if let Some((other, _)) = out.iter().find(|(_, o): &(&String, &Zone)| o.meets(&z)) {
            errors.push(format!(
                "scenario [[deployment]] {}: its zone shares ground with {other}'s",
                d.side
            ));
        }
        for u in battle.units.values().filter(|u| u.side == d.side) {
            if !z.holds(&u.footprint()) {
                errors.push(format!("scenario [[deployment]] {}: the layout puts {} outside its zone {}; widen `zone` or move `front`", d.side, u.name, z.show()));
            }
        }
        out.insert(d.side.clone(), z);
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// A scenario's `[[deployment]]` entries, and the rest of it (its layout).
fn deployments(scenario: &str) -> Result<(Vec<Deployment>, toml::Table), Vec<String>> {
    let mut table: toml::Table =
        toml::from_str(scenario).map_err(|e| vec![format!("scenario: {}", e.message())])?;
    let deployments = match table.remove("deployment") {
        Some(v) => v.try_into().map_err(|e: toml::de::Error| {
            vec![format!("scenario [[deployment]]: {}", e.message())]
        })?,
        None => Vec::new(),
    };
    Ok((deployments, table))
}

/// The battle a game starts from: the scenario's table with each side's
/// army (`sides` are (side, army file name) pairs; `armies` the files'
/// texts by side) checked and deployed, the house rules, and the pack.
///
/// # Errors
/// Every problem found in the files.
pub fn start_battle(
    house_rules: &toml::Table,
    sides: &[(String, String)],
    scenario: &str,
    armies: &BTreeMap<String, String>,
    pack: Option<&str>,
) -> Result<(Battle, Options, Option<Pack>), Vec<String>> {
    let pack = pack.map(Pack::from_toml).transpose().map_err(|e| {
        e.into_iter()
            .map(|m| format!("pack: {m}"))
            .collect::<Vec<_>>()
    })?;
    let options = Options::from_table(house_rules).map_err(|e| vec![format!("[options] {e}")])?;
    let (deployments, table) = deployments(scenario)?;
    let layout: Layout = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| vec![format!("scenario: {}", e.message())])?;
    let base = layout.table.base;
    let mut battle = layout.battle(pack.as_ref()).map_err(|e| {
        e.into_iter()
            .map(|m| format!("scenario: {m}"))
            .collect::<Vec<_>>()
    })?;
    let mut errors = Vec::new();
    for (id, file) in sides {
        let Some(text) = armies.get(id) else {
            errors.push(format!("side {id}: no army file"));
            continue;
        };
        let army = match ArmyFile::from_toml(file, text) {
            Ok(a) => a,
            Err(e) => {
                errors.push(e.to_string());
                continue;
            }
        };
        let report = check_army(&army, pack.as_ref());
        if !report.breaches.is_empty() {
            errors.extend(report.breaches.iter().map(|b| format!("side {id}: {b}")));
            continue;
        }
        let Some(d) = deployments.iter().find(|d| &d.side == id) else {
            errors.push(format!("the scenario has no [[deployment]] for side {id}"));
            continue;
        };
        match deploy(&mut battle, &army, &report.units, d, pack.as_ref(), base) {
            Ok(()) => {}
            Err(e) => errors.extend(e),
        }
    }
    errors.extend(super::army::fear_not_fielded(&battle));
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok((battle, options, pack))
}

/// The bases across a unit of a type fields at the start (one rank);
/// rule 6's baggage train is "a 1x2 unit".
fn files_of(t: TroopType) -> u32 {
    match t.arm() {
        Arm::Elephants | Arm::Chariots | Arm::Baggage => 2,
        Arm::Artillery => 1,
        _ => 4,
    }
}

/// The line a unit deploys in: skirmishers, elephants and artillery in
/// front, the foot, the horse, the baggage behind.
fn line_of(t: TroopType) -> u8 {
    match (t, t.arm()) {
        (TroopType::Skirmishers, _) | (_, Arm::Elephants | Arm::Artillery) => 0,
        (_, Arm::Infantry) => 1,
        (_, Arm::Baggage) => 3,
        _ => 2,
    }
}

/// The army's units in groups to lay out, by line: each unit with the
/// Skirmishers attached to it beside it, in its line (rule 13; ruling
/// FA-55: they "move with their host, keeping where they stood beside it").
fn beside_hosts(all: Vec<(ArmyUnit, u32)>) -> Vec<Vec<(ArmyUnit, u32)>> {
    let (riders, hosts): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|(u, _)| u.attached_to.is_some());
    let mut groups: Vec<Vec<(ArmyUnit, u32)>> = hosts.into_iter().map(|h| vec![h]).collect();
    for r in riders {
        let host = r.0.attached_to.as_deref();
        match groups
            .iter_mut()
            .find(|g| Some(g[0].0.name.as_str()) == host)
        {
            Some(g) => g.push(r),
            None => groups.push(vec![r]),
        }
    }
    groups.sort_by_key(|g| line_of(g[0].0.troop));
    groups
}

/// Place an army's units (and its baggage) in lines, its characters with
/// their units and its standard with its bearer.
fn deploy(
    battle: &mut Battle,
    army: &ArmyFile,
    units: &[ArmyUnit],
    d: &Deployment,
    pack: Option<&Pack>,
    table_base: Option<[f64; 2]>,
) -> Result<(), Vec<String>> {
    let side = d.side.clone();
    let id_of = |name: &str| format!("{}-{}", side, crate::names::key(name));
    let mut all: Vec<(ArmyUnit, u32)> = units
        .iter()
        .map(|u| (u.clone(), files_of(u.troop)))
        .collect();
    all.push((
        ArmyUnit {
            name: format!("{side} baggage"),
            entry: "Baggage".into(),
            troop: TroopType::Baggage,
            weapons: Vec::new(),
            abilities: Vec::new(),
            grade: None,
            bonus: Default::default(),
            causes_fear: Default::default(),
            attached_to: None,
        },
        files_of(TroopType::Baggage),
    ));
    let groups = beside_hosts(all);
    let base_of = |t: TroopType| pack.and_then(|p| p.troop(t)).map(|r| r.base).or(table_base);
    let back = if facing_north(d.facing) { -1.0 } else { 1.0 };
    let margin = 2.0;
    let gap = 0.5;
    let mut front_y = d.front;
    let mut errors = Vec::new();
    let mut i = 0;
    while i < groups.len() {
        let line = line_of(groups[i][0].0.troop);
        // One row: as many of this line's units as fit across the table.
        let mut row = Vec::new();
        let mut width = 0.0;
        while i < groups.len() && line_of(groups[i][0].0.troop) == line {
            let mut members = Vec::new();
            for (u, files) in &groups[i] {
                let Some(b) = base_of(u.troop) else {
                    errors.push(format!("{}: base sizes are a base rule (M3): the scenario's [table] needs `base`, or use a pack", u.name));
                    return Err(errors);
                };
                members.push((u.clone(), *files, b));
            }
            let w = members
                .iter()
                .map(|(_, f, b)| *f as f64 * b[0])
                .sum::<f64>()
                + gap * (members.len() - 1) as f64;
            if !row.is_empty() && width + gap + w > battle.width - 2.0 * margin {
                break;
            }
            width += if row.is_empty() { w } else { gap + w };
            row.extend(members);
            i += 1;
        }
        let mut x = (battle.width - width) / 2.0;
        let mut depth: f64 = 0.0;
        for (u, files, b) in row {
            let w = files as f64 * b[0];
            // Facing south, the unit's left is east: lay the row out the same way either way.
            let cx = if back > 0.0 {
                battle.width - (x + w / 2.0)
            } else {
                x + w / 2.0
            };
            let id = id_of(&u.name);
            let mut unit = Unit::new(
                &id,
                &side,
                &u.name,
                u.troop,
                b,
                files,
                1,
                Place::new(cx, front_y, d.facing),
            );
            unit.set_place(Place::new(cx, front_y, d.facing));
            unit.weapons = u.weapons.clone();
            unit.abilities = u.abilities.iter().copied().collect();
            unit.grade = u.grade;
            unit.bonus = u.bonus;
            unit.causes_fear_to_all = u.causes_fear.all;
            unit.causes_fear_to = u.causes_fear.to.clone();
            unit.attached_to = u.attached_to.as_deref().map(id_of);
            unit.profile = Profile::default().or_pack(pack, u.troop);
            if !battle.on_table(&unit.footprint()) {
                errors.push(format!(
                    "{}: the deployment runs off the table; move [[deployment]] front",
                    u.name
                ));
            }
            battle.units.insert(id, unit);
            depth = depth.max(b[1]);
            x += w + gap;
        }
        front_y += back * (depth + 1.0);
    }
    place_people(battle, army, &side);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// An army's characters with the units the army file names, and its
/// standard with its bearer.
fn place_people(battle: &mut Battle, army: &ArmyFile, side: &str) {
    let unit_named = |name: &str| {
        let k = crate::names::key(name);
        battle
            .units
            .values()
            .find(|u| u.side == side && crate::names::key(&u.name) == k)
            .map(|u| u.id.clone())
    };
    let mut people = Vec::new();
    if let Some(g) = &army.general {
        people.push((super::characters::Rank::General, g.clone()));
    }
    people.extend(
        army.sub_generals
            .iter()
            .map(|s| (super::characters::Rank::SubGeneral, s.clone())),
    );
    for (rank, c) in people {
        let id = format!("{side}-{}", crate::names::key(&c.name));
        let with = unit_named(&c.with);
        battle.characters.insert(
            id.clone(),
            Character {
                id,
                side: side.to_string(),
                name: c.name.clone(),
                rank,
                with,
                status: CharacterStatus::Active,
            },
        );
    }
    if let Some(s) = &army.standard {
        let bearer = unit_named(&s.with);
        if let (Some(b), Some(sd)) = (bearer, battle.side_mut(side)) {
            sd.standard = Some(StandardState::With(b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::demo::trebia;
    use super::*;

    #[test]
    fn the_trebia_starts_with_both_armies_deployed_apart() {
        let g = trebia(None).unwrap();
        let b = &g.battle;
        assert_eq!(
            b.units.values().filter(|u| u.side == "rome").count(),
            37,
            "36 units and the baggage"
        );
        assert_eq!(
            b.units.values().filter(|u| u.side == "carthage").count(),
            36
        );
        let units: Vec<&Unit> = b.units.values().collect();
        for (i, a) in units.iter().enumerate() {
            assert!(b.on_table(&a.footprint()), "{} off the table", a.name);
            for o in &units[i + 1..] {
                assert!(
                    !a.footprint().overlaps(&o.footprint()),
                    "{} overlaps {}",
                    a.name,
                    o.name
                );
            }
        }
        assert!(
            units.iter().all(|u| b.contacts(u).is_empty()),
            "nobody starts in melee"
        );
        assert_eq!(
            b.side("rome").unwrap().standard,
            Some(StandardState::With("rome-romantriarii".into()))
        );
        assert_eq!(
            b.characters["carthage-hannibalbarca"].with.as_deref(),
            Some("carthage-carthaginiannoblecavalry")
        );
    }

    #[test]
    fn attached_skirmishers_start_beside_their_host() {
        let carthage = format!(
            "{}\n[[attachment]]\nunit = \"Balearic Slingers 2\"\nto = \"Carthaginian Noble Cavalry\"\n",
            include_str!("../../../campaigns/fr-ancients/armies/hannibal-218bc.toml")
        );
        let armies = BTreeMap::from([
            (
                "rome".to_string(),
                include_str!("../../../campaigns/fr-ancients/armies/consular-legion-218bc.toml")
                    .to_string(),
            ),
            ("carthage".to_string(), carthage),
        ]);
        let sides = [
            ("rome".to_string(), "consular-legion-218bc.toml".to_string()),
            ("carthage".to_string(), "hannibal-218bc.toml".to_string()),
        ];
        let (b, _, _) = start_battle(
            &toml::Table::new(),
            &sides,
            include_str!("../../../campaigns/fr-ancients/scenarios/trebia.toml"),
            &armies,
            None,
        )
        .unwrap();
        let slingers = &b.units["carthage-balearicslingers2"];
        let host = &b.units["carthage-carthaginiannoblecavalry"];
        assert_eq!(slingers.attached_to.as_deref(), Some(host.id.as_str()));
        assert_eq!(
            slingers.front.y, host.front.y,
            "in its host's line, not the skirmish screen"
        );
        let apart =
            (slingers.front.x - host.front.x).abs() - (slingers.width() + host.width()) / 2.0;
        assert!((0.0..=0.5).contains(&apart), "beside it: {apart} apart");
        assert!(!slingers.footprint().overlaps(&host.footprint()));
        let others = &b.units["carthage-balearicslingers1"];
        assert_ne!(
            others.front.y, host.front.y,
            "the unattached stay in the screen"
        );
    }

    #[test]
    fn a_game_with_an_illegal_army_does_not_start() {
        let armies = BTreeMap::from([
            ("rome".to_string(), "ruleset = \"fr-ancients\"\nlist = \"Republican Roman Consular Legion\"\npoints = 1000\n".to_string()),
            ("carthage".to_string(), include_str!("../../../campaigns/fr-ancients/armies/hannibal-218bc.toml").to_string()),
        ]);
        let sides = [
            ("rome".to_string(), "consular-legion-218bc.toml".to_string()),
            ("carthage".to_string(), "hannibal-218bc.toml".to_string()),
        ];
        let errors = start_battle(
            &toml::Table::new(),
            &sides,
            include_str!("../../../campaigns/fr-ancients/scenarios/trebia.toml"),
            &armies,
            None,
        )
        .unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.contains("side rome: the army has no general")),
            "{errors:?}"
        );
    }
}
