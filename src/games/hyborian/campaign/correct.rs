//! The secretary's corrections of the campaign's state (ruling CA-31):
//! [`place`] an army in a province, [`take_losses`] off an army. Pure, as
//! the resolver: they change a `Campaign` or say why not, in words the
//! secretary's reply quotes.

use super::game::{Campaign, Stance};
use super::map::World;
use super::resolve::share_of;
use std::collections::BTreeMap;

/// The army the secretary names, if it may be corrected: it exists and is
/// not frozen in a waiting battle.
fn army_id(c: &Campaign, army: &str) -> Result<String, String> {
    let Some(a) = c.find_army(army) else {
        let hint = crate::names::closest(army, c.armies.keys().map(|k| (k.as_str(), k)))
            .map_or(String::new(), |k| format!(" (did you mean {k}?)"));
        return Err(format!("there is no army '{army}'{hint}"));
    };
    if let Some(b) = c.battle_of(&a.id) {
        return Err(format!(
            "army {} waits in battle {} at {}; it is corrected by the battle's result",
            a.id, b.id, b.province
        ));
    }
    Ok(a.id.clone())
}

/// Place `army` in `province`: it stands there in the field, its march and
/// any siege dropped. Whatever the place brings (an enemy there, a
/// province to take) the next week's resolution decides as for any army.
/// Returns the army's id and the province's name.
///
/// # Errors
/// No such army, one waiting in battle, no such province, or the army is
/// there already.
pub fn place(
    c: &mut Campaign,
    world: &World,
    army: &str,
    province: &str,
) -> Result<(String, String), String> {
    let id = army_id(c, army)?;
    let Some(p) = world.find(province) else {
        let hint = world
            .suggest(province)
            .map_or(String::new(), |s| format!(" (did you mean {s}?)"));
        return Err(format!("there is no province '{province}'{hint}"));
    };
    let a = c.armies.get_mut(&id).ok_or("the army vanished")?;
    if a.province == p.id {
        return Err(format!("army {id} is in {} already", p.name));
    }
    a.province = p.id.clone();
    a.march = None;
    a.came_from = None;
    a.stance = Stance::Field;
    Ok((id, p.name.clone()))
}

/// Take `points` of figures off `army`, shared over its units as a
/// battle's losses are (ruling CA-10), with no recovery. An edit never
/// removes a whole army. Returns the army's id and the figures taken, by
/// unit.
///
/// # Errors
/// No such army, one waiting in battle, 0 points, less than half a
/// figure, or as much as the army is worth.
pub fn take_losses(
    c: &mut Campaign,
    army: &str,
    points: u32,
) -> Result<(String, BTreeMap<String, u32>), String> {
    let id = army_id(c, army)?;
    let a = c.armies.get_mut(&id).ok_or("the army vanished")?;
    let worth = a.points();
    if points == 0 {
        return Err("0 points changes nothing; write the points of figures to take off".into());
    }
    if points >= worth {
        return Err(format!(
            "army {id} is worth {worth} points; an edit takes off at most {} (it never removes a whole army)",
            worth.saturating_sub(1)
        ));
    }
    let lost = share_of(&a.contents, points);
    if lost.values().sum::<u32>() == 0 {
        return Err(format!(
            "{points} points is less than half a figure of army {id}; write more points"
        ));
    }
    // On a copy: a refusal leaves the army as it was.
    let mut f = a.contents.clone();
    let names = f.unit_names();
    super::game::take_figures(&mut f, |i| {
        names
            .get(i)
            .and_then(|name| lost.get(name))
            .copied()
            .unwrap_or(0)
    });
    if f.units.is_empty() && f.mercenaries.is_empty() {
        return Err(format!(
            "{points} points would leave army {id} no figure; an edit never removes a whole army"
        ));
    }
    a.contents = f;
    Ok((id, lost.into_iter().filter(|(_, n)| *n > 0).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::campaign::game::{CampaignFile, March};

    fn start() -> (Campaign, World) {
        let text = r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "tarantia"
points = 600
"#;
        let world = World::hyborea().unwrap();
        (
            CampaignFile::load(text).unwrap().start(&world).unwrap(),
            world,
        )
    }

    #[test]
    fn an_army_is_placed_standing_and_a_bad_placement_changes_nothing() {
        let (mut c, w) = start();
        let a = c.armies.get_mut("aquilonia-1").unwrap();
        a.march = Some(March {
            to: "shamar".into(),
            days: 3,
        });
        a.stance = Stance::Garrison;
        let before = c.clone();
        let e = place(&mut c, &w, "aquilonia-9", "Shamar").unwrap_err();
        assert!(
            e.contains("no army 'aquilonia-9' (did you mean aquilonia-1?)"),
            "{e}"
        );
        let e = place(&mut c, &w, "aquilonia-1", "Shamr").unwrap_err();
        assert!(
            e.contains("no province 'Shamr' (did you mean Shamar?)"),
            "{e}"
        );
        let e = place(&mut c, &w, "Aquilonia-1", "Tarantia").unwrap_err();
        assert!(e.contains("is in Tarantia already"), "{e}");
        assert_eq!(c, before, "refusals change nothing");
        let (id, name) = place(&mut c, &w, "AQUILONIA-1", "shamar").unwrap();
        assert_eq!((id.as_str(), name.as_str()), ("aquilonia-1", "Shamar"));
        let a = &c.armies["aquilonia-1"];
        assert_eq!(a.province, "shamar");
        assert_eq!((a.march.clone(), a.stance), (None, Stance::Field));
    }

    #[test]
    fn losses_are_shared_as_a_battles_and_bounded_by_the_armys_worth() {
        let (mut c, _) = start();
        let worth = c.armies["aquilonia-1"].points();
        let before = c.clone();
        for (points, why) in [
            (0, "0 points changes nothing"),
            (worth, "at most"),
            (u32::MAX, "never removes a whole army"),
            (1, "less than half a figure"),
        ] {
            let e = take_losses(&mut c, "aquilonia-1", points).unwrap_err();
            assert!(e.contains(why), "{points}: {e}");
        }
        assert_eq!(c, before, "refusals change nothing");
        let (_, lost) = take_losses(&mut c, "aquilonia-1", 200).unwrap();
        assert_eq!(
            lost,
            share_of(&before.armies["aquilonia-1"].contents, 200)
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .collect()
        );
        let after = c.armies["aquilonia-1"].points();
        assert!(after < worth && after + 260 > worth, "{worth} → {after}");
        assert_eq!(c.armies["aquilonia-1"].contents.points, after);
    }

    #[test]
    fn an_army_waiting_in_battle_is_left_to_the_result() {
        let (mut c, w) = start();
        c.pending.push(
            serde_json::from_value(serde_json::json!({
                "id": 1, "province": "tarantia", "armies": ["aquilonia-1", "nemedia-1"],
                "card": 1, "table_feet": 6
            }))
            .unwrap_or_else(|e| panic!("a pending battle as JSON: {e}")),
        );
        let e = place(&mut c, &w, "aquilonia-1", "Shamar").unwrap_err();
        assert!(e.contains("waits in battle 1"), "{e}");
    }
}
