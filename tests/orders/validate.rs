//! Validation against the rules (§2, §3, §6, §9, §10) and the table, on the
//! sample battlefield (`umpire::games::hyborian::orders::sample`).

use umpire::games::hyborian::orders::diagnostic::{Illegal, Invalid, Kind, Remark};
use umpire::games::hyborian::orders::plan::{self, Function};
use umpire::games::hyborian::orders::{check_side, sample, Checked};
use umpire::games::hyborian::rules::Formation;
use umpire::games::hyborian::table::{Status, Table, Terrain, TerrainKind};

const A: &str = "aquilonia";

fn check(text: &str) -> Checked {
    check_side(text, A, &sample::table())
}

fn check_on(table: &Table, text: &str) -> Checked {
    check_side(text, A, table)
}

/// The kinds of the errors, in order.
fn errors(c: &Checked) -> Vec<Kind> {
    c.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.kind)
        .collect()
}

fn accepted(text: &str) -> plan::UnitOrders {
    let c = check(text);
    assert!(errors(&c).is_empty(), "{text}: {:#?}", c.diagnostics);
    assert_eq!(c.orders.units.len(), 1, "{text}");
    c.orders.units.into_values().next().unwrap()
}

fn refused(text: &str, kind: Illegal) -> Checked {
    let c = check(text);
    assert_eq!(
        errors(&c),
        vec![Kind::Illegal(kind)],
        "{text}: {:#?}",
        c.diagnostics
    );
    assert_eq!(c.rejected.len(), 1, "{text}");
    assert!(c.orders.units.is_empty());
    c
}

#[test]
fn a_plain_move_becomes_the_engines_input() {
    let o = accepted("Bossonian Archers: phase 1 move 6; phase 2 face left 90");
    assert_eq!(
        o.phase1,
        Some(Function::Move(plan::Move {
            wheel: None,
            direction: plan::Direction::Forward,
            distance: plan::Distance::Inches(6.0),
            forced_march: false,
            along_road: false,
        }))
    );
    assert_eq!(
        o.phase2,
        Some(Function::Face(plan::FaceChange::Turn {
            hand: plan::Hand::Left,
            degrees: 90.0
        }))
    );
}

#[test]
fn unknown_unit_gets_a_suggestion() {
    let c = refused_unknown("Blak Dragons: phase 1 move 6");
    assert_eq!(
        c.diagnostics[0].help.as_deref(),
        Some("did you mean 'Black Dragons'?")
    );
}

fn refused_unknown(text: &str) -> Checked {
    let c = check(text);
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::UnknownUnit)]);
    c
}

#[test]
fn units_by_prefix_abbreviation_and_number() {
    for text in [
        "black d: phase 1 hold",
        "BD: phase 1 hold",
        "#1: phase 1 hold",
        "unit 1: phase 1 hold",
        "blk drgns: phase 1 hold",
    ] {
        let c = check(text);
        assert!(
            c.orders.units.contains_key("dragons"),
            "{text}: {:#?}",
            c.diagnostics
        );
    }
    // "Black" alone: Black Dragons (ours) or Black Guard (theirs): ours wins.
    assert!(check("black: phase 1 hold")
        .orders
        .units
        .contains_key("dragons"));
}

#[test]
fn another_sides_unit_is_refused_and_says_so() {
    let c = check("Nemedian Knights: phase 1 move 6\nBlack Dragons: phase 1 move 6");
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::NotYourUnit)]);
    assert_eq!(
        c.diagnostics[0].message,
        "Nemedian Knights belong to nemedia, not to aquilonia"
    );
    assert!(c.orders.units.contains_key("dragons"));
}

#[test]
fn at_most_one_function_per_phase_never_the_same_twice() {
    refused(
        "Black Dragons: phase 1 move 6; phase 1 face left 90",
        Illegal::PhaseTaken,
    );
    refused(
        "Black Dragons: phase 1 move 6; phase 2 move 6",
        Illegal::SameFunctionTwice,
    );
    refused(
        "Black Dragons: phase 1 face left 90; phase 2 face about",
        Illegal::SameFunctionTwice,
    );
    refused(
        "Black Dragons: phase 1 face about and form column; phase 2 form line",
        Illegal::SameFunctionTwice,
    );
    refused("Gunderman Pikes: hold; phase 1 move 2", Illegal::PhaseTaken);
    accepted("Gunderman Pikes: hold");
    // Two lines for one unit are read together.
    let o = accepted("Black Dragons: phase 1 move 6\nBlack Dragons: phase 2 face about");
    assert!(o.phase1.is_some() && o.phase2.is_some());
}

#[test]
fn horse_archers_split_their_move() {
    let o = accepted("Border Horse: phase 1 move 10; phase 2 move 8");
    assert!(o.phase2.is_some());
    refused(
        "Border Horse: phase 1 move 10; phase 2 move 10",
        Illegal::BeyondAllowance,
    );
}

#[test]
fn medium_cavalry_charge_and_break_off() {
    let o = accepted("Border Horse: phase 1 charge Nemedian Spearmen; phase 2 break off");
    assert!(matches!(
        o.phase1,
        Some(Function::Charge(plan::Charge {
            break_off: true,
            ..
        }))
    ));
    assert_eq!(o.phase2, Some(Function::BreakOff));
    let o = accepted("Border Horse: phase 1 charge Nemedian Spearmen then break off");
    assert!(matches!(
        o.phase1,
        Some(Function::Charge(plan::Charge {
            break_off: true,
            ..
        }))
    ));
    let c = check("Black Dragons: phase 1 charge Nemedian Spearmen; phase 2 break off");
    assert_eq!(
        errors(&c),
        vec![
            Kind::Illegal(Illegal::SameFunctionTwice),
            Kind::Illegal(Illegal::NotForThisType)
        ]
    );
    refused(
        "Black Dragons: phase 1 charge Nemedian Spearmen then break off",
        Illegal::NotForThisType,
    );
}

#[test]
fn a_single_function_must_name_its_phase() {
    let c = check("Black Dragons: move 6");
    assert_eq!(errors(&c), vec![Kind::Invalid(Invalid::MissingPhase)]);
    assert_eq!(c.rejected, vec!["dragons".to_string()]);
}

#[test]
fn evade_is_for_light_infantry() {
    assert!(accepted("Skirmishers: evade if charged").evade_if_charged);
    refused(
        "Bossonian Archers: evade if charged",
        Illegal::NotForThisType,
    );
}

#[test]
fn breakthrough_heavy_cavalry_medium_with_a_note_others_never() {
    let o = accepted("Black Dragons: phase 1 charge Nemedian Spearmen with breakthrough");
    assert!(matches!(
        o.phase1,
        Some(Function::Charge(plan::Charge {
            breakthrough: true,
            ..
        }))
    ));
    let c = check("Border Horse: phase 1 charge Nemedian Spearmen with breakthrough");
    assert!(c.rejected.is_empty());
    assert_eq!(
        c.diagnostics[0].kind,
        Kind::Note(Remark::MediumBreakthrough)
    );
    refused(
        "Gunderman Pikes: phase 1 charge Nemedian Spearmen with breakthrough",
        Illegal::NotForThisType,
    );
}

#[test]
fn who_may_charge_whom() {
    refused(
        "Bossonian Archers: phase 1 charge Nemedian Knights",
        Illegal::ChargeForbidden,
    );
    refused(
        "Black Dragons: phase 1 charge War Mammoths",
        Illegal::ChargeForbidden,
    );
    refused(
        "Black Dragons: phase 1 charge Bossonian Archers",
        Illegal::BadTarget,
    );
    refused(
        "Priest of Mitra: phase 1 charge Nemedian Spearmen",
        Illegal::NotForThisType,
    );
    refused(
        "Prospero: phase 1 charge Nemedian Spearmen",
        Illegal::NotForThisType,
    );
    accepted("Bossonian Archers: phase 1 charge Nemedian Spearmen");
    accepted("Black Dragons: phase 1 charge 45");
}

#[test]
fn mammoths_and_chariots_wheel_instead_of_facing() {
    let t = sample::table();
    let c = check_side("War Mammoths: phase 1 face left 90", "nemedia", &t);
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::NotForThisType)]);
    assert_eq!(
        c.diagnostics[0].help.as_deref(),
        Some("write 'wheel left 90' (a wheel is part of a move)")
    );
    let c = check_side(
        "Kothian Chariots: phase 1 wheel left 90 then move 6",
        "nemedia",
        &t,
    );
    assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
}

#[test]
fn fall_back_status_and_melee() {
    let mut t = sample::table();
    t.units.get_mut("boss").unwrap().status = Status::FallBack(1);
    let c = check_on(&t, "Bossonian Archers: phase 1 move 2");
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::FallBackStatus)]);
    assert!(check_on(&t, "Bossonian Archers: phase 1 face about")
        .rejected
        .is_empty());

    let mut t = sample::table();
    t.units
        .get_mut("boss")
        .unwrap()
        .in_melee_with
        .insert("spears".into());
    t.units
        .get_mut("horse")
        .unwrap()
        .in_melee_with
        .insert("spears".into());
    for text in [
        "Bossonian Archers: phase 1 form column",
        "Bossonian Archers: phase 1 move 2",
    ] {
        assert_eq!(
            errors(&check_on(&t, text)),
            vec![Kind::Illegal(Illegal::InMelee)],
            "{text}"
        );
    }
    // Medium cavalry in melee since phase 2 of last turn breaks off in phase 1.
    assert!(check_on(&t, "Border Horse: phase 1 break off")
        .rejected
        .is_empty());

    t.units.get_mut("skirm").unwrap().status = Status::Rout;
    assert_eq!(
        errors(&check_on(&t, "Skirmishers: phase 1 hold")),
        vec![Kind::Illegal(Illegal::NotAvailable)]
    );
}

#[test]
fn forced_march_needs_road_column_and_distance_from_the_enemy() {
    refused(
        "Bossonian Archers: phase 1 forced march",
        Illegal::ForcedMarch,
    );
    // Road column formed in phase 1, the enemy pushed back to the far edge.
    let mut t = sample::table();
    for id in [
        "knights", "spears", "mammoths", "chariots", "guard", "thoth", "amalric",
    ] {
        t.units.get_mut(id).unwrap().front.y = 47.0;
    }
    let c = check_on(
        &t,
        "Skirmishers: phase 1 form road column; phase 2 forced march 12",
    );
    assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
    let c = check_on(
        &t,
        "Skirmishers: phase 1 form road column; phase 2 forced march 13",
    );
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::BeyondAllowance)]);
    let c = check_on(
        &t,
        "Skirmishers: phase 1 form road column; phase 2 forced march 18 along the road",
    );
    assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
    // Within 24 inches of the Black Guard.
    let mut t = sample::table();
    t.units.get_mut("skirm").unwrap().front.y = 20.0;
    let c = check_on(
        &t,
        "Skirmishers: phase 1 form road column; phase 2 forced march",
    );
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::ForcedMarch)]);
    assert_eq!(
        c.diagnostics[0].message,
        "Skirmishers are 20 inches from Black Guard"
    );
}

#[test]
fn distances_within_the_allowance() {
    accepted("Bossonian Archers: phase 1 move 6");
    let c = refused(
        "Bossonian Archers: phase 1 move 6.5",
        Illegal::BeyondAllowance,
    );
    assert_eq!(
        c.diagnostics[0].message,
        "Bossonian Archers may move at most 6 inches in line, not 6.5"
    );
    assert_eq!(
        c.diagnostics[0].help.as_deref(),
        Some("write 'move 6' or 'move full'")
    );
    accepted("Bossonian Archers: phase 1 form column; phase 2 move 8");
    accepted("Bossonian Archers: phase 1 move back 2");
    refused(
        "Bossonian Archers: phase 1 move back 3",
        Illegal::BeyondAllowance,
    );
    refused(
        "Black Dragons: phase 1 move back 2",
        Illegal::NotForThisType,
    );
    refused(
        "Bossonian Archers: phase 1 oblique left 60 4",
        Illegal::BeyondAllowance,
    );
    refused(
        "Bossonian Archers: phase 1 form ring; phase 2 move 4",
        Illegal::BeyondAllowance,
    );
    accepted("Black Dragons: phase 1 wheel left 30 then move 12");
}

#[test]
fn formations_within_the_book() {
    refused(
        "Bossonian Archers: phase 1 form line 4 ranks",
        Illegal::BeyondAllowance,
    );
    refused(
        "Bossonian Archers: phase 1 form road column 4 wide",
        Illegal::BeyondAllowance,
    );
    refused(
        "Bossonian Archers: phase 1 form ring 3 ranks",
        Illegal::BeyondAllowance,
    );
    refused(
        "Bossonian Archers: phase 1 form positional line",
        Illegal::NotForThisType,
    );
    refused(
        "Bossonian Archers: phase 1 face about and form column",
        Illegal::NotForThisType,
    );
    let o = accepted("Black Dragons: phase 1 face about and form column 3 wide");
    assert!(matches!(
        o.phase1,
        Some(Function::FaceAndFormation(plan::FaceChange::About, _))
    ));
    let mut t = sample::table();
    t.terrain.push(Terrain {
        kind: TerrainKind::Woods,
        points: vec![
            [30.0, 5.0].into(),
            [42.0, 5.0].into(),
            [42.0, 15.0].into(),
            [30.0, 15.0].into(),
        ],
    });
    let c = check_on(&t, "Bossonian Archers: phase 1 form positional line");
    assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
    match &c.orders.units["boss"].phase1 {
        Some(Function::Formation(f)) => assert_eq!(f.formation, Formation::PositionalLine),
        other => panic!("{other:?}"),
    }
}

#[test]
fn fire_orders() {
    assert_eq!(
        accepted("Bossonian Archers: hold fire").fire,
        plan::FireOrder::Hold
    );
    assert_eq!(
        accepted("Bossonian Archers: shoot at Nemedian Spearmen").fire,
        plan::FireOrder::Prefer("spears".into())
    );
    refused("Black Dragons: hold fire", Illegal::NotForThisType);
    refused(
        "Gunderman Pikes: target Nemedian Spearmen",
        Illegal::NotForThisType,
    );
    refused(
        "Bossonian Archers: phase 1 charge Nemedian Spearmen; target Nemedian Spearmen",
        Illegal::FireAndCharge,
    );
    refused(
        "Bossonian Archers: phase 1 charge Nemedian Spearmen and shoot",
        Illegal::FireAndCharge,
    );
    assert_eq!(
        accepted("Border Horse: phase 1 move 12 then shoot; phase 2 move 6").fire,
        plan::FireOrder::AtWill
    );
}

#[test]
fn leaders() {
    assert_eq!(
        accepted("Conan: leave").leader,
        Some(plan::LeaderOrder::Leave)
    );
    assert_eq!(
        accepted("Prospero: ride with Bossonian Archers").leader,
        Some(plan::LeaderOrder::Join("boss".into()))
    );
    assert_eq!(
        accepted("Prospero: join Black Dragons").leader,
        Some(plan::LeaderOrder::Join("dragons".into()))
    );
    assert_eq!(
        accepted("Prospero: move to (30, 8)").leader,
        Some(plan::LeaderOrder::MoveTo([30.0, 8.0].into()))
    );
    refused("Prospero: leave", Illegal::BadTarget);
    refused(
        "Black Dragons: join Bossonian Archers",
        Illegal::NotForThisType,
    );
    refused(
        "Priest of Mitra: join Bossonian Archers",
        Illegal::NotForThisType,
    );
    refused("Conan: join Nemedian Knights", Illegal::BadTarget);
    refused("Prospero: move to (80, 8)", Illegal::OffTable);
}

#[test]
fn spells() {
    let o = accepted(
        "Priest of Mitra: cast Sword of Fire at Nemedian Knights; cast Wind Demon at War Mammoths",
    );
    assert_eq!(o.spells.len(), 2);
    accepted("Priest of Mitra: cast the Earth-Shaker along (10, 30) to (34, 30)");
    refused(
        "Priest of Mitra: cast the Earth-Shaker along (10, 30) to (40, 30)",
        Illegal::Spell,
    );
    refused(
        "Priest of Mitra: cast the Earth-Demon at (30, 30); cast the Sword of Fire at Black Guard",
        Illegal::Spell,
    );
    refused(
        "Priest of Mitra: cast Black Slumber at Amalric",
        Illegal::Spell,
    );
    let t = sample::table();
    let c = check_side(
        "Thoth-Amon: cast the black slumber at Amalric",
        "nemedia",
        &t,
    );
    assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
    accepted("Priest of Mitra: cast Shield of Air");
    accepted("Priest of Mitra: cast flying at (40, 20)");
    refused("Priest of Mitra: cast flying at (40, 40)", Illegal::Spell);
    refused(
        "Black Dragons: cast Sword of Fire at Nemedian Knights",
        Illegal::Spell,
    );
    let c = check("Priest of Mitra: cast Sword of Ice at Nemedian Knights");
    assert_eq!(errors(&c), vec![Kind::Invalid(Invalid::UnknownSpell)]);
}

#[test]
fn deployment_only_in_the_set_up_turn() {
    refused(
        "Black Dragons: deploy at (20, 6) facing 0",
        Illegal::NotSetUp,
    );
    let mut t = sample::table();
    t.turn = 0;
    let c = check_on(
        &t,
        "Black Dragons: deploy at (20, 6) facing north in line 2 ranks",
    );
    assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
    let d = c.orders.units["dragons"].deploy.clone().unwrap();
    assert_eq!((d.at, d.facing), ([20.0, 6.0].into(), Some(0.0)));
}

#[test]
fn valid_orders_are_kept_beside_bad_ones() {
    let c = check(
        "Black Dragons: phase 1 charge Nemedian Knights\n\
         Bossonian Archers: phase 1 moev 6\n\
         Skirmishers: phase 1 move 4\n\
         Gunderman Pikes: phase 1 move 9\n",
    );
    assert_eq!(
        c.orders.units.keys().collect::<Vec<_>>(),
        vec!["dragons", "skirm"]
    );
    assert_eq!(c.rejected, vec!["boss".to_string(), "pikes".to_string()]);
    assert_eq!(
        errors(&c),
        vec![
            Kind::Invalid(Invalid::NotUnderstood),
            Kind::Illegal(Illegal::BeyondAllowance)
        ]
    );
}

#[test]
fn distance_may_come_before_the_oblique_or_the_step_back() {
    let table = umpire::games::hyborian::orders::sample::table();
    let a = umpire::games::hyborian::orders::check_side(
        "Black Dragons: phase 1 move 6 oblique right 45",
        "aquilonia",
        &table,
    );
    let b = umpire::games::hyborian::orders::check_side(
        "Black Dragons: phase 1 move oblique right 45 6",
        "aquilonia",
        &table,
    );
    assert!(
        a.rejected.is_empty() && a.diagnostics.iter().all(|d| !d.is_error()),
        "{:?}",
        a.diagnostics
    );
    assert_eq!(a.orders, b.orders);
    let c = umpire::games::hyborian::orders::check_side(
        "Bossonian Archers: phase 1 move 2 back",
        "aquilonia",
        &table,
    );
    let d = umpire::games::hyborian::orders::check_side(
        "Bossonian Archers: phase 1 move back 2",
        "aquilonia",
        &table,
    );
    assert!(c.rejected.is_empty(), "{:?}", c.diagnostics);
    assert_eq!(c.orders, d.orders);
}

/// Ruling O-27: a letter's greeting and signature are set aside with a
/// note; the orders between them stand, and nothing is refused.
#[test]
fn greetings_and_signatures_are_set_aside_with_a_note() {
    let text = "Hi umpire,\n\nBlack Dragons: phase 1 move 6\nBossonian Archers: phase 1 hold\n\nThanks!\nBest regards, Conan\n";
    let c = check(text);
    assert!(errors(&c).is_empty(), "{:#?}", c.diagnostics);
    assert_eq!(c.orders.units.len(), 2);
    let notes: Vec<&str> = c
        .diagnostics
        .iter()
        .filter(|d| d.kind == Kind::Note(Remark::Greeting))
        .map(|d| &text[d.span.start..d.span.end])
        .collect();
    assert_eq!(notes, vec!["Hi umpire,", "Thanks!", "Best regards, Conan"]);
}

/// Only the edges are letters: a line between two orders that names no
/// unit is refused as before, and so is a misspelt unit alone at the end.
#[test]
fn a_stray_line_between_orders_or_a_misspelt_unit_is_still_refused() {
    let c = check("Black Dragons: phase 1 move 6\nHello there\nBossonian Archers: phase 1 hold\n");
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::UnknownUnit)]);
    let c = check("Black Dragons: phase 1 move 6\nBossonian Archrs\n");
    assert_eq!(errors(&c), vec![Kind::Illegal(Illegal::UnknownUnit)]);
    assert!(
        c.diagnostics
            .iter()
            .any(|d| d.help.iter().any(|h| h.contains("Bossonian Archers"))),
        "{:#?}",
        c.diagnostics
    );
    // A unit's name on a line of its own still heads its block.
    let c = check("Black Dragons\n  phase 1 move 6\nThanks\n");
    assert!(errors(&c).is_empty(), "{:#?}", c.diagnostics);
    assert_eq!(c.orders.units.len(), 1);
}

/// Deployed in positional line: only into terrain, judged where the unit
/// will stand; placed there, it bends to keep within the woods (§1,
/// rulings O-18 and E-4).
#[test]
fn a_unit_deploys_in_positional_line_only_into_terrain_and_bent_to_it() {
    use umpire::games::hyborian::adjudicate::{resolve_turn, StopAfter};
    use umpire::games::hyborian::dice::ScriptedDice;
    let mut t = sample::table();
    t.turn = 0;
    t.terrain.push(Terrain {
        kind: TerrainKind::Woods,
        points: vec![
            [50.0, 30.0].into(),
            [56.0, 30.0].into(),
            [56.0, 40.0].into(),
            [50.0, 40.0].into(),
        ],
    });
    let open = check_on(
        &t,
        "Bossonian Archers: deploy at (20, 6) facing north in positional line",
    );
    assert_eq!(errors(&open), vec![Kind::Illegal(Illegal::NotForThisType)]);
    let c = check_on(
        &t,
        "Bossonian Archers: deploy at (53, 39.5) facing north in positional line",
    );
    assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
    let r = resolve_turn(
        &t,
        &c.orders,
        &Default::default(),
        &mut ScriptedDice::default(),
        StopAfter::Turn,
    )
    .unwrap();
    let boss = &r.table.units["boss"];
    assert_eq!(boss.formation, Formation::PositionalLine);
    // 24 figures 12 wide are 7.1 inches: the 6-inch woods hold 10 files.
    assert_eq!((boss.files, boss.ranks), (10, 3));
}
