//! The deployment turn (turn 0) of scenarios that want one: each side's
//! written `deploy at (x, y) …` orders place its units inside its zone;
//! the umpire checks every placement and reveals both sides at once.
//!
//! A placement is judged against every other unit's placement (or its
//! scenario position when it has none) all at once, so the result never
//! depends on which unit is looked at first: two units placed on top of
//! each other both stay where the scenario put them.

use super::events::Event;
use super::route::reformed;
use crate::games::hyborian::orders::plan::{Deployment, TurnOrders};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::geometry::Pose;
use crate::games::hyborian::table::positional::bent;
use crate::games::hyborian::table::{Table, Unit, UnitId};
use crate::geometry::{normalize_bearing, EPSILON};
use glam::DVec2;
use std::collections::BTreeMap;

/// Where a deployment order would put the unit, or why it cannot.
fn placed(
    table: &Table,
    options: &GameOptions,
    unit: &Unit,
    d: &Deployment,
) -> Result<Pose, String> {
    let mut pose = Pose {
        front: d.at,
        facing: normalize_bearing(d.facing.unwrap_or(unit.facing)),
        ..unit.pose()
    };
    if let Some(change) = &d.formation {
        pose = reformed(pose, unit, change).map_err(|r| r.reason().to_string())?;
    }
    if let Some((fitted, _)) = bent(table, options, unit, pose) {
        pose = fitted;
    }
    let corners = pose.footprint(unit.kind).corners();
    let on_table = |p: &DVec2| p.x >= 0.0 && p.y >= 0.0 && p.x <= table.width && p.y <= table.depth;
    if !corners.iter().all(on_table) {
        return Err("it would stand partly off the table".into());
    }
    if let Some([sw, ne]) = table.deployment_zones.get(&unit.side) {
        let inside = |p: &DVec2| {
            p.x >= sw.x - EPSILON
                && p.y >= sw.y - EPSILON
                && p.x <= ne.x + EPSILON
                && p.y <= ne.y + EPSILON
        };
        if !corners.iter().all(inside) {
            return Err(format!(
                "it would stand outside {}'s deployment zone ({:.0}–{:.0} east, {:.0}–{:.0} north)",
                unit.side, sw.x, ne.x, sw.y, ne.y
            ));
        }
    }
    Ok(pose)
}

/// Play the deployment turn: place the units, end the set-up turn.
pub fn step(
    table: &mut Table,
    options: &GameOptions,
    orders: &TurnOrders,
    events: &mut Vec<Event>,
) {
    let mut poses: BTreeMap<UnitId, Pose> = table
        .units
        .iter()
        .map(|(id, u)| (id.clone(), u.pose()))
        .collect();
    let mut moved: BTreeMap<UnitId, Pose> = BTreeMap::new();
    for (id, o) in &orders.units {
        let (Some(d), Some(unit)) = (&o.deploy, table.units.get(id)) else {
            continue;
        };
        match placed(table, options, unit, d) {
            Ok(p) => {
                moved.insert(id.clone(), p);
            }
            Err(why) => events.push(Event::DeploymentRefused {
                unit: id.clone(),
                name: unit.name.clone(),
                why,
            }),
        }
    }
    poses.extend(moved.iter().map(|(k, v)| (k.clone(), *v)));
    let footprint = |id: &UnitId| poses[id].footprint(table.units[id].kind);
    let crowded: Vec<(UnitId, String)> = moved
        .keys()
        .filter_map(|id| {
            poses
                .keys()
                .filter(|other| *other != id && !table.units[*other].kind.is_single_figure())
                .find(|other| footprint(id).overlaps(&footprint(other)))
                .map(|other| (id.clone(), table.units[other].name.clone()))
        })
        .collect();
    for (id, other) in crowded {
        moved.remove(&id);
        let name = table.units[&id].name.clone();
        events.push(Event::DeploymentRefused {
            unit: id,
            name,
            why: format!("it would stand on {other}"),
        });
    }
    for (id, pose) in moved {
        if let Some(u) = table.units.get_mut(&id) {
            u.set_pose(pose);
            events.push(Event::Deployed {
                unit: id,
                name: u.name.clone(),
                at: [u.front.x, u.front.y],
                facing: u.facing,
                formation: u.formation,
                files: u.files,
                ranks: u.ranks,
            });
        }
    }
    table.deployment_zones.clear();
}
