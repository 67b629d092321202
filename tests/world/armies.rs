//! The national lists, the army check and the proposer (issue 7).

use proptest::prelude::*;
use umpire::games::hyborian::army::{
    self, ArmyError, ArmyFile, Breach, Hero, Mercenary, UnitLine, Wizards,
};

fn unit(designation: &str, figures: u32) -> UnitLine {
    UnitLine {
        designation: designation.into(),
        figures,
        name: None,
        crossbows: false,
    }
}

fn army_of(nation: &str, points: u32, units: Vec<UnitLine>) -> ArmyFile {
    ArmyFile {
        nation: nation.into(),
        points,
        units,
        ..ArmyFile::default()
    }
}

/// A legal Aquilonian army of 1,134 points to break in the tests below:
/// cavalry 60 of 234 figures (25.6%), foot 174; Aquilonian Knights 60% of
/// the cavalry, Aquilonians 69% of the foot. Units 5 and 6 are the
/// Bossonians and Gundermen, 7 to 11 the Aquilonians.
fn aquilonians() -> ArmyFile {
    let mut units = vec![
        unit("Black Dragons", 12),
        unit("Aquilonian Knights", 12),
        unit("Aquilonian Knights", 12),
        unit("Aquilonian Knights", 12),
        unit("Poitainian Knights", 12),
        unit("Bossonian Archers", 24),
        unit("Gundermen", 30),
    ];
    units.extend(std::iter::repeat_n(unit("Aquilonians", 24), 5));
    army_of("Aquilonia", 1500, units)
}

fn breaches(army: &ArmyFile) -> Vec<Breach> {
    army::check(army).expect("nation is known").breaches
}

#[test]
fn every_nation_loads() {
    let nations = army::nations().unwrap();
    assert_eq!(nations.len(), 24);
    for n in &nations {
        assert!(!n.arms.is_empty(), "{}", n.name);
        assert_eq!(army::nation(&n.name.to_uppercase()).unwrap().name, n.name);
    }
    assert_eq!(
        army::nation("khauran & khoraja").unwrap().name,
        "Khauran and Khoraja"
    );
    let err = army::nation("Aquilona").unwrap_err().to_string();
    assert!(err.contains("did you mean 'Aquilonia'"), "{err}");
}

#[test]
fn one_proposed_army_per_nation_is_legal() {
    for n in army::nations().unwrap() {
        for points in [n.points.min(1500), 3000] {
            let a = army::propose(&n.name, points).unwrap_or_else(|e| panic!("{}: {e}", n.name));
            let r = army::check(&a).unwrap();
            assert!(
                r.breaches.is_empty(),
                "{} at {points}: {:?}",
                n.name,
                r.breaches
            );
            assert!(r.total_points <= points);
            // a proposal uses most of the points (lists with lumpy bands leave some over)
            assert!(
                r.total_points * 5 >= points * 3,
                "{} at {points}: only {}",
                n.name,
                r.total_points
            );
        }
    }
}

#[test]
fn the_legal_example_is_legal() {
    let r = army::check(&aquilonians()).unwrap();
    assert_eq!(r.breaches, vec![]);
    // 12×7 + 3×12×6 + 12×7 + 24×5 + 30×5 + 5×24×4
    assert_eq!(r.total_points, 84 + 216 + 84 + 120 + 150 + 480);
    assert_eq!(r.figures, 234);
}

#[test]
fn over_the_point_limit() {
    let mut a = aquilonians();
    a.points = 600;
    let b = breaches(&a);
    assert!(
        matches!(
            b[0],
            Breach::OverPoints {
                total: 1134,
                limit: 600
            }
        ),
        "{b:?}"
    );
    assert!(b[0]
        .to_string()
        .contains("1134 points is over the limit of 600"));
}

#[test]
fn percentage_bands_by_figures() {
    let mut a = aquilonians();
    a.units.retain(|u| u.designation != "Aquilonian Knights");
    let b = breaches(&a);
    let share = b
        .iter()
        .find(|x| matches!(x, Breach::DesignationShare { .. }))
        .expect("a band breach");
    assert_eq!(
        share.to_string(),
        "Aquilonian Knights are 0.0% of the cavalry (0 of 24 figures); the list allows 40-100% of the cavalry"
    );
    // six more knights: cavalry 132 of 306 figures is 43%, over 40%
    let mut a = aquilonians();
    for _ in 0..6 {
        a.units.push(unit("Aquilonian Knights", 12));
    }
    a.points = 3000;
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| matches!(
            x,
            Breach::ArmShare {
                arm: army::ArmKind::Cavalry,
                ..
            }
        )),
        "{b:?}"
    );
}

#[test]
fn chariots_count_one_figure_each() {
    // Koth: 5 chariots are 5 figures of 5 + 3×18 + 2×24 = 107 (4.7%), archers
    // 50.5%, spearmen 44.9%: legal.
    let mut a = army_of(
        "Koth",
        1500,
        vec![
            unit("Heavy Chariots", 5),
            unit("Shemite Archers", 18),
            unit("Shemite Archers", 18),
            unit("Shemite Archers", 18),
            unit("Regular Spearmen", 24),
            unit("Regular Spearmen", 24),
        ],
    );
    let r = army::check(&a).unwrap();
    assert_eq!(r.figures, 107);
    assert_eq!(r.breaches, vec![], "chariots 5 of 107 figures");
    assert_eq!(r.total_points, 100 + 3 * 54 + 2 * 72);
    // ten chariots are 10 of 112 figures (8.9%): still within 0-10%; fifteen are not
    a.units.push(unit("Heavy Chariots", 5));
    assert_eq!(breaches(&a), vec![]);
    a.units.push(unit("Heavy Chariots", 5));
    assert!(breaches(&a).iter().any(|x| matches!(
        x,
        Breach::DesignationShare {
            figures: 15,
            of: 117,
            ..
        }
    )));
}

#[test]
fn only_one_unit_under_strength_and_not_below_half() {
    let mut a = aquilonians();
    a.units[7].figures = 20;
    assert_eq!(breaches(&a), vec![]);
    a.units[8].figures = 20;
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| x
            .to_string()
            .starts_with("only one unit per side may serve under strength")),
        "{b:?}"
    );
    let mut a = aquilonians();
    a.units[7].figures = 11;
    assert!(breaches(&a)
        .iter()
        .any(|x| matches!(x, Breach::TooWeak { floor: 12, .. })));
    let mut a = aquilonians();
    a.units[7].figures = 30;
    assert!(breaches(&a)
        .iter()
        .any(|x| matches!(x, Breach::OverStrength { .. })));
}

#[test]
fn one_guard_unit() {
    let mut a = aquilonians();
    a.units.push(unit("Black Legion", 30));
    a.points = 3000;
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| x
            .to_string()
            .starts_with("guard units are limited to one per army")),
        "{b:?}"
    );
    let mut a = aquilonians();
    a.units.push(unit("Black Dragons", 12));
    assert!(breaches(&a)
        .iter()
        .any(|x| matches!(x, Breach::OneUnit { units: 2, .. })));
}

#[test]
fn heroes_one_per_750_points_and_not_two_of_a_type() {
    let hero = |name: &str, mounted| Hero {
        name: name.into(),
        mounted,
        with: None,
    };
    let mut a = aquilonians();
    a.heroes = vec![hero("Trocero", true)];
    assert_eq!(breaches(&a), vec![]);
    a.heroes.push(hero("Prospero", true));
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| x
            .to_string()
            .contains("no two heroes may serve in the same type of unit")),
        "{b:?}"
    );
    // 1,500 points buy a superhero, replacing two heroes
    let mut a = army::propose("Aquilonia", 1450).unwrap();
    a.points = 1600;
    a.superheroes = vec![hero("Conan", true)];
    let r = army::check(&a).unwrap();
    assert_eq!(r.breaches, vec![], "total {}", r.total_points);
    a.heroes = vec![hero("Pallantides", false)];
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| matches!(
            x,
            Breach::Heroes {
                heroes: 3,
                allowed: 2,
                ..
            }
        )),
        "{b:?}"
    );
    // a mounted hero serves with cavalry
    let mut a = aquilonians();
    a.heroes = vec![Hero {
        name: "Trocero".into(),
        mounted: true,
        with: Some("Gundermen".into()),
    }];
    assert!(breaches(&a)
        .iter()
        .any(|x| matches!(x, Breach::HeroWrongUnit { .. })));
}

#[test]
fn wizards_one_type_and_whom_they_serve() {
    let wiz = |order: &str, count| Wizards {
        order: order.into(),
        count,
    };
    let mut a = aquilonians();
    a.points = 2000;
    a.wizards = vec![wiz("White Druids", 1)];
    assert_eq!(breaches(&a), vec![]);
    a.wizards.push(wiz("Priests of Mitra", 1));
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| x
            .to_string()
            .starts_with("no gamer should buy wizards of more than one type")),
        "{b:?}"
    );
    a.wizards = vec![wiz("Wizards of the Black Circle", 2)];
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| x.to_string()
            == "Wizards of the Black Circle may not serve Aquilonia: they serve only Stygia"),
        "{b:?}"
    );
    a.wizards = vec![wiz("Thoth-Amon", 1)];
    assert!(breaches(&a)
        .iter()
        .any(|x| matches!(x, Breach::WizardMayNotServe { .. })));
    // White Druids may be induced to serve against Stygia; Thoth-Amon may work with Set
    let mut n = army::propose("Nemedia", 1500).unwrap();
    n.points = 2000;
    n.wizards = vec![wiz("White Druids", 1)];
    assert!(breaches(&n)
        .iter()
        .any(|x| matches!(x, Breach::WizardMayNotServe { .. })));
    n.opponent = Some("Stygia".into());
    assert_eq!(breaches(&n), vec![]);
    n.wizards = vec![wiz("Thoth-Amon", 1), wiz("Worshippers of Set", 2)];
    n.points = 2500;
    assert_eq!(breaches(&n), vec![]);
    n.wizards = vec![wiz("Thoth-Amon", 2)];
    n.points = 3000;
    assert!(breaches(&n)
        .iter()
        .any(|x| matches!(x, Breach::WizardAlone { count: 2, .. })));
}

#[test]
fn crossbows_only_for_the_western_kingdoms() {
    let mut a = aquilonians();
    a.units[5].crossbows = true;
    assert_eq!(breaches(&a), vec![]);
    a.units[6].crossbows = true;
    assert!(breaches(&a)
        .iter()
        .any(|x| matches!(x, Breach::CrossbowsWithoutBows { .. })));
    let mut t = army::propose("Turan", 1500).unwrap();
    let archers = t
        .units
        .iter_mut()
        .find(|u| u.designation == "Levy Archers")
        .expect("levy archers");
    archers.crossbows = true;
    let b = breaches(&t);
    assert!(
        b.iter().any(|x| x.to_string().ends_with(
            "crossbows are only available to the Western kingdoms, and Turan is not one"
        )),
        "{b:?}"
    );
}

#[test]
fn mercenary_limits() {
    let merc = |nation: &str, designation: &str, figures| Mercenary {
        nation: nation.into(),
        designation: designation.into(),
        figures,
        name: None,
    };
    // Aquilonia: up to 20% mercenaries (48 of 282 figures is 17%; 66 of 300 is 22%)
    let mut a = aquilonians();
    a.points = 2000;
    a.mercenaries = vec![
        merc("Free Companies", "Free Company Foot", 24),
        merc("Free Companies", "Free Company Foot", 24),
    ];
    assert_eq!(breaches(&a), vec![]);
    a.mercenaries.push(merc("Shem", "Shemite Archers", 18));
    let b = breaches(&a);
    assert!(
        b.iter()
            .any(|x| matches!(x, Breach::MercenaryShare { limit: 20, .. })),
        "{b:?}"
    );
    // Stygia hires none; Zamora only Free Companies; Khauran one unit of each kind
    let mut s = army::propose("Stygia", 1500).unwrap();
    s.mercenaries = vec![merc("Free Companies", "Free Company Foot", 24)];
    s.points = 2000;
    assert!(breaches(&s).iter().any(|x| x.to_string()
        == "Stygia may not hire mercenaries (only nations whose description allows them may hire any)"));
    let mut z = army::propose("Zamora", 1000).unwrap();
    z.points = 1200;
    z.mercenaries = vec![merc("Shem", "Shemite Archers", 18)];
    assert!(breaches(&z)
        .iter()
        .any(|x| matches!(x, Breach::MercenaryNotAllowed { .. })));
    let mut k = army::propose("Khauran and Khoraja", 500).unwrap();
    k.points = 800;
    k.mercenaries = vec![
        merc("Desert Nomads", "Medium Cavalry", 12),
        merc("Desert Nomads", "Horse Archers", 12),
    ];
    let b = breaches(&k);
    assert!(
        b.iter().any(|x| matches!(
            x,
            Breach::MercenaryCount {
                units: 2,
                max: 1,
                ..
            }
        )),
        "{b:?}"
    );
}

#[test]
fn hyrkanian_foot_stays_home() {
    let mut a = army::propose("Hyrkania", 1000).unwrap();
    a.units.push(unit("Garrison Spearmen", 24));
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| matches!(x, Breach::AwayFromHome { .. })),
        "{b:?}"
    );
}

#[test]
fn unknown_designation_suggests_the_list() {
    let mut a = aquilonians();
    a.units[0].designation = "Black Dragon".into();
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| x.to_string()
            == "'Black Dragon' is not a unit designation of Aquilonia (did you mean 'Black Dragons'?)"),
        "{b:?}"
    );
}

#[test]
fn army_files_round_trip_and_the_cli_reports() {
    let a = army::propose("Pictland", 1500).unwrap();
    let text = a.to_toml();
    assert_eq!(ArmyFile::from_toml("x", &text).unwrap(), a);
    let (out, code) = army::new_cli("pictland", 1500);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("nation = \"Pictland\""));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(
        &path,
        "nation = \"Vendhya\"\npoints = 100\n[[unit]]\ndesignation = \"Royal Guard\"\nfigures = 30\n",
    )
    .unwrap();
    let (out, code) = umpire::games::check_army_file(path.to_str().unwrap());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("150 points is over the limit of 100"), "{out}");
    assert_eq!(
        umpire::games::check_army_file("/nonexistent/army.toml").1,
        2
    );
}

#[test]
fn example_army_files_are_legal() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/campaigns/armies");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let (out, code) = umpire::games::check_army_file(path.to_str().unwrap());
        assert_eq!(code, 0, "{out}");
        seen += 1;
    }
    assert!(seen >= 6);
}

/// The ready scenarios load for real (`table::setup` builds their tables),
/// each side's army file is legal and matches its units on the table, and
/// every unit starts inside its side's zone.
#[test]
fn ready_scenarios_load_and_match_their_armies() {
    use umpire::games::hyborian::army::scenario;
    use umpire::games::hyborian::rules::UnitType;

    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/campaigns/scenarios/");
    for name in ["border-raid", "the-marches-of-the-east", "valkia"] {
        let text = std::fs::read_to_string(format!("{dir}{name}.toml")).unwrap();
        let loaded = scenario::load(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = loaded.scenario.expect("a ready scenario has its own keys");
        assert!(!s.victory.is_empty(), "{name}");
        assert_eq!(s.sides.len(), 2, "{name}");
        for u in loaded.table.units.values() {
            let side = s
                .sides
                .iter()
                .find(|x| x.id == u.side)
                .expect("load checks sides");
            assert!(
                side.zone.contains([u.front.x, u.front.y]),
                "{name}: {} at {}",
                u.id,
                u.front
            );
            assert!(
                u.kind != UnitType::Wizard || u.spell_points.is_some(),
                "{name}: {}",
                u.id
            );
        }
        for side in &s.sides {
            let army_path = format!("{dir}{}", side.army);
            let (out, code) = umpire::games::check_army_file(&army_path);
            assert_eq!(code, 0, "{name}: {out}");
            let army =
                ArmyFile::from_toml(&army_path, &std::fs::read_to_string(&army_path).unwrap())
                    .unwrap();
            assert_eq!(army.nation, side.nation);
            let mut on_table: Vec<String> = loaded
                .table
                .units_of(&side.id)
                .filter(|u| !u.kind.is_single_figure())
                .map(|u| u.name.clone())
                .collect();
            on_table.sort();
            let mut bought = army.unit_names();
            bought.sort();
            assert_eq!(on_table, bought, "{name}: {}", side.id);
        }
        // nothing more is there to assess at the start: no side has won
        let v = scenario::assess(&s, &loaded.table, false);
        assert_eq!(v.winner, None, "{name}: {:?}", v.reasons);
    }
}

/// The ford's bare set-up (river-crossing.toml) still loads (no scenario
/// keys), and a unit on a side the scenario does not declare is refused.
#[test]
fn scenario_files_without_own_keys_and_with_unknown_sides() {
    use umpire::games::hyborian::army::scenario::{self, ScenarioError};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/campaigns/scenarios/");
    let bare = std::fs::read_to_string(format!("{dir}river-crossing.toml")).unwrap();
    let loaded = scenario::load(&bare).unwrap();
    assert_eq!(loaded.scenario, None);
    assert_eq!(loaded.table.units.len(), 6);
    let raid = std::fs::read_to_string(format!("{dir}border-raid.toml")).unwrap();
    let bad = raid.replace(
        "side = \"koth\"\nname = \"2nd Regular Spearmen\"",
        "side = \"ophir\"\nname = \"2nd Regular Spearmen\"",
    );
    let err = scenario::load(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unit 'koth-2nd-regular-spearmen' names side 'ophir', but the scenario's sides are: aquilonia, koth"
    );
    let bad = raid.replacen("side = \"koth\"\narea", "side = \"ophir\"\narea", 1);
    let err = scenario::load(&bad).unwrap_err();
    assert!(
        matches!(err, ScenarioError::UnknownSide { ref what, .. } if what == "a hold-ground condition"),
        "{err}"
    );
}

/// An army deploys along a line: foot in the centre, horse on the wings,
/// chariots and mammoths counted in crew, single figures with their units.
#[test]
fn deployment_puts_an_army_on_the_table() {
    use umpire::games::hyborian::army::DeploymentLine;
    use umpire::games::hyborian::table::{setup::Setup, Table};
    let mut a = army::propose("Vendhya", 1500).unwrap();
    a.heroes = vec![Hero {
        name: "Prince".into(),
        mounted: false,
        with: None,
    }];
    let d = DeploymentLine {
        side: "vendhya".into(),
        y: 8.0,
        x_from: 0.0,
        x_to: 144.0,
        facing: 0.0,
        gap: 1.0,
    };
    let units = a.to_units(&d).unwrap();
    let mammoths = units.iter().find(|u| u.kind == "WM").expect("mammoths");
    assert_eq!(mammoths.figures % 4, 0, "4 crew a mammoth");
    let hero = units.iter().find(|u| u.kind == "hero").unwrap();
    assert!(hero.attached_to.is_some());
    let setup: Setup = toml::from_str(&format!(
        "[table]\nwidth = 144.0\ndepth = 60.0\n{}",
        army::units_toml(&units)
    ))
    .unwrap();
    let table = Table::from_setup(&setup).unwrap();
    assert_eq!(table.units.len(), units.len());
    let narrow = DeploymentLine { x_to: 30.0, ..d };
    assert!(matches!(a.to_units(&narrow), Err(ArmyError::Deploy(_))));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The proposer and the checker agree: whatever `propose` returns passes
    /// `check` within the points; otherwise it says no legal army fits.
    #[test]
    fn proposals_always_pass_the_check(n in 0usize..24, points in 150u32..3200) {
        let nation = &army::nations().unwrap()[n];
        match army::propose(&nation.name, points) {
            Ok(a) => {
                let r = army::check(&a).unwrap();
                prop_assert!(r.breaches.is_empty(), "{} at {points}: {:?}", nation.name, r.breaches);
                prop_assert!(r.total_points <= points);
            }
            Err(e) => prop_assert!(matches!(e, ArmyError::NoLegalArmy { .. }), "{e}"),
        }
    }
}

/// Smoke test: each ready scenario is played to its last turn through the
/// order checker and the turn engine, every unit advancing 4 inches a phase.
/// (Morale is not built in the engine yet, so nobody falls back; this proves the
/// scenario tables, names and orders run end to end.)
#[test]
fn ready_scenarios_play_to_the_end_with_scripted_orders() {
    use umpire::games::hyborian::adjudicate::{resolve_turn, StopAfter};
    use umpire::games::hyborian::army::scenario;
    use umpire::games::hyborian::dice::SeededDice;
    use umpire::games::hyborian::orders::{check_side, plan::TurnOrders};
    use umpire::games::hyborian::rules::options::GameOptions;

    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/campaigns/scenarios/");
    for name in ["border-raid", "the-marches-of-the-east", "valkia"] {
        let loaded =
            scenario::load(&std::fs::read_to_string(format!("{dir}{name}.toml")).unwrap()).unwrap();
        let s = loaded.scenario.unwrap();
        let mut table = loaded.table;
        let mut dice = SeededDice::new([7; 32]);
        // A scenario with a deployment turn starts at turn 0 (no deploy
        // orders here: its units keep their listed places).
        for turn in table.turn..=s.turns {
            let mut orders = TurnOrders::default();
            for side in &s.sides {
                let text: String = table
                    .units_of(&side.id)
                    .filter(|u| !u.kind.is_single_figure() && u.status.is_present())
                    .map(|u| format!("{}: phase 1 move 4\n", u.name))
                    .collect();
                let checked = check_side(&text, &side.id, &table);
                if turn == 1 {
                    assert!(
                        checked.rejected.is_empty(),
                        "{name} {}: {:?}",
                        side.id,
                        checked.diagnostics
                    );
                }
                orders.merge(checked.orders);
            }
            let result = resolve_turn(
                &table,
                &orders,
                &GameOptions::default(),
                &mut dice,
                StopAfter::Turn,
            )
            .unwrap();
            table = result.table;
        }
        assert_eq!(table.turn, s.turns + 1, "{name}");
        let verdict = scenario::assess(&s, &table, true);
        assert!(
            verdict.winner.is_none()
                || s.sides
                    .iter()
                    .any(|x| Some(&x.id) == verdict.winner.as_ref())
        );
    }
}

/// A superhero needs 1,500 points fielded, even when hero places are free.
#[test]
fn a_superhero_needs_fifteen_hundred_points() {
    let mut a = army::propose("Aquilonia", 1000).unwrap();
    a.superheroes = vec![Hero {
        name: "Conan".into(),
        mounted: true,
        with: None,
    }];
    let b = breaches(&a);
    assert!(
        b.iter().any(|x| x.to_string()
            == "1 superheroes, but an army must field 1500 points for each: 1070 points allow 0"),
        "{b:?}"
    );
}

/// The report a player reads, exactly.
#[test]
fn the_printed_check_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("raid.toml");
    std::fs::write(
        &path,
        "nation = \"Koth\"\npoints = 250\n\n[commander]\nname = \"Captain\"\nwith = \"1st Shemite Archers\"\n\n\
         [[unit]]\ndesignation = \"Shemite Archers\"\nfigures = 18\n\n[[unit]]\ndesignation = \"Shemite Archers\"\nfigures = 18\n\n\
         [[unit]]\ndesignation = \"Regular Spearmen\"\nfigures = 24\n\n[[unit]]\ndesignation = \"Heavy Chariots\"\nfigures = 5\n",
    )
    .unwrap();
    let (out, code) = umpire::games::check_army_file(path.to_str().unwrap());
    assert_eq!(code, 1);
    let body: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(
        body,
        [
            "  1st Shemite Archers          LI B Shemite Archers                           18 fig    54 pts",
            "  2nd Shemite Archers          LI B Shemite Archers                           18 fig    54 pts",
            "  Regular Spearmen             MI B Regular Spearmen                          24 fig    72 pts",
            "  Heavy Chariots               HCH B Heavy Chariots                            5 fig   100 pts",
            "  Captain                      commander                                       1 fig     0 pts",
            "total 280 points of 250 (65 figures for percentages)",
            "2 breach(es):",
            "  - 280 points is over the limit of 250: drop or shrink a unit (one unit may be under strength to meet the point total)",
            "  - Regular Spearmen are 36.9% of the army (24 of 65 figures); the list allows 40-50% of the army",
        ]
    );
}

/// `army list` prints a national table as the book does.
#[test]
fn national_lists_print_as_the_book_does() {
    let (out, code) = army::list_cli(Some("aquilonia"));
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "AQUILONIA: 3000 points\nBanner: Gold lion on black field\nMercenaries: up to 20% of the army\n"
        ),
        "{out}"
    );
    assert!(out.contains("\nCavalry: 25-40% of the army\n"), "{out}");
    assert!(
        out.contains("  Black Dragons            HC   A          12      7  1 unit\n"),
        "{out}"
    );
    assert!(
        out.contains("  Bossonian Archers        MI   A          24      5  0-25%\n"),
        "{out}"
    );
    let (all, _) = army::list_cli(None);
    assert_eq!(all.lines().count(), 24);
    assert_eq!(army::list_cli(Some("Atlantis")).1, 2);
}

/// At 300 points the bands leave some lists no legal army (see the rulings).
#[test]
fn small_armies_that_the_bands_forbid() {
    let none: Vec<String> = army::nations()
        .unwrap()
        .into_iter()
        .filter(|n| {
            matches!(
                army::propose(&n.name, 300),
                Err(ArmyError::NoLegalArmy { .. })
            )
        })
        .map(|n| n.name)
        .collect();
    assert_eq!(
        none,
        [
            "Aesir",
            "Argos",
            "Cimmerians",
            "Khauran and Khoraja",
            "Ophir",
            "Pictland",
            "Turan",
            "Vanir",
            "Zingara"
        ]
    );
    assert!(army::propose("Khauran and Khoraja", 250).is_err());
    assert_eq!(
        army::check(&army::propose("Nemedia", 300).unwrap())
            .unwrap()
            .total_points,
        192
    );
}
