//! Putting an army on the table: its units as case-file `[[unit]]` entries
//! (see `spec/cases.md`) along a deployment line, foot in the centre and
//! mounted troops on the wings, single figures with their units.

use serde::{Deserialize, Serialize};

use crate::games::hyborian::rules::bases::base;
use crate::games::hyborian::rules::{Formation, UnitType};
use crate::games::hyborian::table::setup::UnitSetup;

use super::file::ArmyFile;
use super::{magic_order, nation, ArmyError};

/// Ranks a unit deploys in: foot 3 (the deepest line), horse 2, chariots
/// and mammoths 1.
fn deploy_ranks(kind: UnitType) -> u32 {
    if kind.is_infantry() {
        3
    } else if kind.is_cavalry() {
        2
    } else {
        1
    }
}

/// Where an army deploys: a line along x at depth `y`, facing north (0) or
/// south (180), between `x_from` and `x_to`, with `gap` inches between units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeploymentLine {
    pub side: String,
    pub y: f64,
    pub x_from: f64,
    pub x_to: f64,
    pub facing: f64,
    pub gap: f64,
}

/// `[[unit]]` entries as TOML, ready to paste into a scenario file.
pub fn units_toml(units: &[UnitSetup]) -> String {
    #[derive(Serialize)]
    struct Units<'a> {
        unit: &'a [UnitSetup],
    }
    toml::to_string(&Units { unit: units }).unwrap_or_default()
}

/// A short id from a name: "Aquilonian Knights 2" → "aquilonian-knights-2".
fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_string()
}

struct Placed {
    name: String,
    kind: UnitType,
    class: String,
    models: u32,
    crew: u32,
    weapons: Vec<String>,
    traits: Vec<String>,
}

impl ArmyFile {
    /// The army's units and single figures as case-file entries along the
    /// deployment line. Unit ids are `PREFIX-slug` where PREFIX is the side.
    ///
    /// # Errors
    /// [`ArmyError::UnknownName`] for a designation or order not in the book;
    /// [`ArmyError::Deploy`] when the line is too short for the army.
    pub fn to_units(&self, at: &DeploymentLine) -> Result<Vec<UnitSetup>, ArmyError> {
        let own = nation(&self.nation)?;
        let names = self.unit_names();
        let mut placed = Vec::new();
        let lines = self
            .units
            .iter()
            .map(|u| (own.name.as_str(), &u.designation, u.figures, u.crossbows))
            .chain(
                self.mercenaries
                    .iter()
                    .map(|m| (m.nation.as_str(), &m.designation, m.figures, false)),
            );
        for ((list, designation, figures, crossbows), name) in lines.zip(&names) {
            let from = nation(list)?;
            let (_, d) = from
                .designation(designation)
                .ok_or_else(|| ArmyError::UnknownName {
                    what: "unit designation",
                    given: designation.clone(),
                    suggestion: super::suggest(
                        designation,
                        from.designations().map(|(_, d)| d.designation.as_str()),
                    ),
                })?;
            let weapons = d
                .weapons
                .iter()
                .map(|w| match (crossbows, w) {
                    (
                        true,
                        crate::games::hyborian::rules::Weapon::Bow
                        | crate::games::hyborian::rules::Weapon::ShemiteBow,
                    ) => "crossbow",
                    _ => w.code(),
                })
                .map(String::from)
                .collect();
            placed.push(Placed {
                name: name.clone(),
                kind: d.kind,
                class: d.class.to_string(),
                models: figures,
                crew: base(d.kind).crew,
                weapons,
                traits: d.traits.iter().map(|t| t.code().to_string()).collect(),
            });
        }
        // Foot in the centre, mounted troops split between the wings.
        let (mounted, foot): (Vec<Placed>, Vec<Placed>) =
            placed.into_iter().partition(|p| p.kind.is_mounted());
        let half = mounted.len().div_ceil(2);
        let mut mounted = mounted.into_iter();
        let left: Vec<Placed> = mounted.by_ref().take(half).collect();
        let order: Vec<Placed> = left.into_iter().chain(foot).chain(mounted).collect();
        let widths: Vec<f64> = order
            .iter()
            .map(|p| f64::from(p.models.div_ceil(deploy_ranks(p.kind))) * base(p.kind).frontage)
            .collect();
        let needed = widths.iter().sum::<f64>() + at.gap * (widths.len().saturating_sub(1)) as f64;
        let room = at.x_to - at.x_from;
        if needed > room {
            return Err(ArmyError::Deploy(format!(
                "{} needs {needed:.1} inches of frontage but the line from x={} to x={} has {room:.1}",
                self.name.as_deref().unwrap_or(&self.nation),
                at.x_from,
                at.x_to
            )));
        }
        let prefix = slug(&at.side);
        let id = |name: &str| format!("{prefix}-{}", slug(name));
        let mut x = at.x_from + (room - needed) / 2.0;
        let mut out = Vec::new();
        for (p, w) in order.iter().zip(&widths) {
            out.push(UnitSetup {
                id: id(&p.name),
                side: at.side.clone(),
                name: p.name.clone(),
                kind: p.kind.code().to_string(),
                class: Some(p.class.clone()),
                figures: p.models * p.crew,
                original: None,
                weapons: p.weapons.clone(),
                traits: p.traits.clone(),
                formation: Some(Formation::Line.code().to_string()),
                ranks: Some(deploy_ranks(p.kind).min(p.models)),
                files: None,
                front: [tenth(x + w / 2.0), at.y],
                facing: at.facing,
                status: None,
                attached_to: None,
                spell_points: None,
                mounted: None,
            });
            x += w + at.gap;
        }
        self.single_figures(&order, at, &id, &mut out)?;
        Ok(out)
    }

    /// Commander, heroes and superheroes join their units; wizards stand 4
    /// inches behind the centre of the line.
    fn single_figures(
        &self,
        order: &[Placed],
        at: &DeploymentLine,
        id: &dyn Fn(&str) -> String,
        out: &mut Vec<UnitSetup>,
    ) -> Result<(), ArmyError> {
        let front_of = |unit: &str| out.iter().find(|u| u.name == unit).map(|u| u.front);
        let first_fitting = |mounted: bool| {
            order
                .iter()
                .find(|p| p.kind.is_mounted() == mounted)
                .map(|p| p.name.clone())
        };
        // (name, type, unit joined, mounted: None for a commander, who rides
        // when his unit does)
        let mut singles = Vec::new();
        if let Some(c) = &self.commander {
            let with = c
                .with
                .clone()
                .or_else(|| order.first().map(|p| p.name.clone()));
            singles.push((c.name.clone(), UnitType::Commander, with, None));
        }
        for h in &self.heroes {
            singles.push((
                h.name.clone(),
                UnitType::Hero,
                h.with.clone().or_else(|| first_fitting(h.mounted)),
                Some(h.mounted),
            ));
        }
        for h in &self.superheroes {
            singles.push((
                h.name.clone(),
                UnitType::Superhero,
                h.with.clone().or_else(|| first_fitting(h.mounted)),
                Some(h.mounted),
            ));
        }
        let mut entries = Vec::new();
        for (name, kind, with, mounted) in singles {
            let front = with
                .as_deref()
                .and_then(front_of)
                .unwrap_or([(at.x_from + at.x_to) / 2.0, at.y]);
            let mut e = single(id(&name), at, name, kind, front, with.map(|w| id(&w)), None);
            e.mounted = mounted;
            entries.push(e);
        }
        let behind = if at.facing == 180.0 { 4.0 } else { -4.0 };
        for w in &self.wizards {
            let order = magic_order(&w.order)?;
            for k in 1..=w.count {
                let name = if w.count > 1 {
                    format!("{} {k}", order.name)
                } else {
                    order.name.clone()
                };
                let x = (at.x_from + at.x_to) / 2.0 + 2.0 * f64::from(k - 1);
                entries.push(single(
                    id(&name),
                    at,
                    name,
                    UnitType::Wizard,
                    [x, at.y + behind],
                    None,
                    Some(order.cost),
                ));
            }
        }
        let taken: Vec<String> = out.iter().map(|u| crate::names::key(&u.id)).collect();
        if let Some(clash) = entries
            .iter()
            .find(|e| taken.contains(&crate::names::key(&e.id)))
        {
            return Err(ArmyError::Deploy(format!(
                "two pieces would share the id '{}': rename one",
                clash.id
            )));
        }
        out.extend(entries);
        Ok(())
    }
}

/// Positions to a tenth of an inch, so scenario files stay readable.
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn single(
    id: String,
    at: &DeploymentLine,
    name: String,
    kind: UnitType,
    front: [f64; 2],
    attached_to: Option<String>,
    spell_points: Option<u32>,
) -> UnitSetup {
    UnitSetup {
        id,
        side: at.side.clone(),
        name,
        kind: kind.code().to_string(),
        class: Some("A".into()),
        figures: 1,
        original: None,
        weapons: Vec::new(),
        traits: Vec::new(),
        formation: None,
        ranks: None,
        files: None,
        front,
        facing: at.facing,
        status: None,
        attached_to,
        spell_points,
        mounted: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_short_ids() {
        assert_eq!(slug("Aquilonian Knights 2"), "aquilonian-knights-2");
        assert_eq!(slug("Elite Mailed Cav."), "elite-mailed-cav");
    }
}
