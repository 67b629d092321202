//! The world map's data (issue 9): borders listed at both ends with the same
//! river or pass, one connected map, one capital per nation, and each
//! nation's province points equal to its campaign points in Appendix I.

use std::collections::BTreeMap;
use umpire::games::hyborian::campaign::map::World;

fn campaign_points(world: &World) -> BTreeMap<String, u32> {
    world
        .nations
        .iter()
        .map(|n| {
            (
                n.id.clone(),
                umpire::games::hyborian::army::nation(&n.name)
                    .expect("a nation of Appendix I")
                    .points,
            )
        })
        .collect()
}

#[test]
fn the_shipped_map_is_sound() {
    let world = World::hyborea().unwrap();
    let problems = world.problems(&campaign_points(&world));
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn every_nation_of_appendix_one_has_land() {
    let world = World::hyborea().unwrap();
    let on_map: Vec<&str> = world.nations.iter().map(|n| n.name.as_str()).collect();
    for n in umpire::games::hyborian::army::nations().unwrap() {
        if n.name == "Free Companies" {
            continue; // they hold mercenary points, not land (§12)
        }
        assert!(
            on_map.contains(&n.name.as_str()),
            "{} is not on the map",
            n.name
        );
        let id = &world.nations.iter().find(|m| m.name == n.name).unwrap().id;
        assert_eq!(world.points_of(id), n.points, "{}", n.name);
    }
}

#[test]
fn the_lands_between_are_there_and_unowned() {
    let world = World::hyborea().unwrap();
    for land in ["border-kingdom", "hyperborea", "kush", "iranistan"] {
        let p = world.province(land).unwrap_or_else(|| panic!("{land}"));
        assert!(p.nation.is_none(), "{land}");
    }
    // Cimmeria and the Pictish Wilderness are nations' land (Northern
    // Barbarians, Pictland).
    assert_eq!(
        world.province("cimmeria").unwrap().nation.as_deref(),
        Some("cimmerians")
    );
}

#[test]
fn a_wrong_total_is_reported() {
    let world = World::hyborea().unwrap();
    let mut points = campaign_points(&world);
    points.insert("koth".into(), 1400);
    let problems = world.problems(&points);
    assert_eq!(
        problems,
        ["koth's provinces add up to 1500 points but its campaign points are 1400"]
    );
}
