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

/// CIELAB (D65) of an `#rrggbb` colour, for telling colours apart as eyes do.
fn lab(hex: &str) -> [f64; 3] {
    let channel = |i: usize| {
        let u = f64::from(u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap()) / 255.0;
        if u > 0.04045 {
            ((u + 0.055) / 1.055).powf(2.4)
        } else {
            u / 12.92
        }
    };
    let (r, g, b) = (channel(0), channel(1), channel(2));
    let x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047;
    let y = r * 0.2126 + g * 0.7152 + b * 0.0722;
    let z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    ]
}

/// Issue 45, item 12: Aquilonia's gold was hard to tell from Koth's yellow
/// (and Brythunia's red from Zamora's). Every two nations, the grey of
/// provinces no power holds and the sea differ by a colour distance (CIE
/// ΔE*ab) of at least 12, where 2 is the least an eye notices side by side.
#[test]
fn every_nations_colour_is_told_apart_from_every_other() {
    let world = World::hyborea().unwrap();
    let mut colours: Vec<(&str, &str)> = world
        .nations
        .iter()
        .map(|n| (n.id.as_str(), n.colour.as_str()))
        .collect();
    colours.extend([("no power", "#cfcfcf"), ("sea", "#a9cce3")]);
    let mut close = Vec::new();
    for (i, (a, ca)) in colours.iter().enumerate() {
        for (b, cb) in &colours[i + 1..] {
            let (la, lb) = (lab(ca), lab(cb));
            let d = la
                .iter()
                .zip(&lb)
                .map(|(x, y)| (x - y).powi(2))
                .sum::<f64>()
                .sqrt();
            if d < 12.0 {
                close.push(format!("{a} {ca} and {b} {cb}: {d:.1}"));
            }
        }
    }
    assert!(close.is_empty(), "{close:#?}");
}
