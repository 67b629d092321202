//! Morale across whole turns: a 12-turn battle between two scripted
//! armies keeps every unit in one consistent state and never leaves units
//! overlapping outside melee (issue 6), and the rules that need more than
//! one turn to show (status carried to the next turn).

use proptest::prelude::*;
use umpire::games::hyborian::adjudicate::{resolve_turn, Event, StopAfter};
use umpire::games::hyborian::dice::{ScriptedDice, SeededDice};
use umpire::games::hyborian::orders::plan::TurnOrders;
use umpire::games::hyborian::rules::options::GameOptions;
use umpire::games::hyborian::table::setup::Setup;
use umpire::games::hyborian::table::{Status, Table};

/// Two armies of four foot and horse facing each other across the table,
/// a commander and a hero on each side.
fn battle() -> Table {
    let mut text = String::from("[table]\nwidth = 72.0\ndepth = 48.0\n");
    let kinds = [
        ("MI", 24, 2, "Foot"),
        ("HI", 18, 2, "Guard"),
        ("MC", 12, 1, "Horse"),
        ("LI", 12, 1, "Skirmishers"),
    ];
    for (side, y, facing) in [("aquilonia", 14.0, 0), ("nemedia", 34.0, 180)] {
        let people = if side == "aquilonia" {
            "Aquilonian"
        } else {
            "Nemedian"
        };
        for (i, (kind, figures, ranks, what)) in kinds.iter().enumerate() {
            let x = 12.0 + 16.0 * i as f64;
            let class = ["A", "B", "C"][i % 3];
            text.push_str(&format!(
                "[[unit]]\nid = \"{side}{i}\"\nside = \"{side}\"\nname = \"{people} {what}\"\ntype = \"{kind}\"\nclass = \"{class}\"\nfigures = {figures}\nformation = \"line\"\nranks = {ranks}\nfront = [{x}, {y}]\nfacing = {facing}\n"
            ));
        }
        let back = if facing == 0 { y - 3.0 } else { y + 3.0 };
        text.push_str(&format!(
            "[[unit]]\nid = \"{side}-c\"\nside = \"{side}\"\nname = \"{people} Commander\"\ntype = \"commander\"\nfigures = 1\nfront = [12.0, {back}]\nfacing = {facing}\nattached_to = \"{side}0\"\n"
        ));
        text.push_str(&format!(
            "[[unit]]\nid = \"{side}-h\"\nside = \"{side}\"\nname = \"{people} Hero\"\ntype = \"hero\"\nfigures = 1\nfront = [28.0, {back}]\nfacing = {facing}\nattached_to = \"{side}1\"\n"
        ));
    }
    let setup: Setup = toml::from_str(&text).expect("battle set-up");
    Table::from_setup(&setup).expect("battle table")
}

/// The scripted orders: every ready unit out of melee charges the nearest
/// enemy unit in phase 1 (or closes with a move when it may not charge).
fn orders(table: &Table) -> TurnOrders {
    let mut all = TurnOrders::default();
    for side in table.sides() {
        let mut text = String::new();
        for u in table.units_of(&side).filter(|u| {
            u.status == Status::Ready && u.in_melee_with.is_empty() && !u.kind.is_single_figure()
        }) {
            let near = table
                .units
                .values()
                .filter(|e| e.side != side && e.status.is_present() && !e.kind.is_single_figure())
                .min_by(|a, b| {
                    let (da, db) = (a.front.distance(u.front), b.front.distance(u.front));
                    da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
                });
            if let Some(e) = near {
                let verb = if u.kind.is_infantry() && e.kind.is_cavalry() {
                    format!("phase 1 move toward {} 4", e.name)
                } else {
                    format!("phase 1 charge {}", e.name)
                };
                text.push_str(&format!("{}: {verb}\n", u.name));
            }
        }
        let checked = umpire::games::hyborian::orders::check_side(&text, &side, table);
        assert!(
            checked.diagnostics.iter().all(|d| !d.is_error()),
            "{text}: {:?}",
            checked.diagnostics
        );
        all.merge(checked.orders);
    }
    all
}

/// Every invariant of one table.
fn check(table: &Table) -> Result<(), String> {
    for u in table.units.values() {
        if !u.status.is_present() && !u.in_melee_with.is_empty() {
            return Err(format!(
                "{} is {} but still in melee",
                u.id,
                u.status.code()
            ));
        }
        for o in &u.in_melee_with {
            let other = table
                .units
                .get(o)
                .ok_or(format!("{} in melee with unknown {o}", u.id))?;
            if !other.status.is_present() {
                return Err(format!(
                    "{} in melee with {o}, which is {}",
                    u.id,
                    other.status.code()
                ));
            }
            if !other.in_melee_with.contains(&u.id) {
                return Err(format!("melee of {} and {o} is one-sided", u.id));
            }
            if other.side == u.side {
                return Err(format!("{} in melee with its friend {o}", u.id));
            }
        }
        if table.morale.routing_on.contains(&u.id) && u.status != Status::Rout {
            return Err(format!("{} routs on but is {}", u.id, u.status.code()));
        }
        if matches!(u.status, Status::FallBack(0)) {
            return Err(format!("{} has fall-back status with no turns left", u.id));
        }
    }
    let bodies: Vec<_> = table
        .units
        .values()
        .filter(|u| u.status.is_present() && !u.kind.is_single_figure())
        .collect();
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            if a.footprint().overlaps(&b.footprint()) && !a.in_melee_with.contains(&b.id) {
                return Err(format!("{} and {} overlap outside melee", a.id, b.id));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_twelve_turn_battle_keeps_every_unit_consistent(seed in any::<[u8; 32]>()) {
        let mut table = battle();
        check(&table).map_err(TestCaseError::fail)?;
        let options = GameOptions::default();
        for turn in 0..12u8 {
            let mut s = seed;
            s[0] ^= turn;
            let mut dice = SeededDice::new(s);
            let orders = orders(&table);
            let out = resolve_turn(&table, &orders, &options, &mut dice, StopAfter::Turn)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            table = out.table;
            check(&table).map_err(|e| TestCaseError::fail(format!("turn {}: {e}", turn + 1)))?;
        }
    }
}

const MELEE: &str = r#"
[table]
width = 72.0
depth = 48.0

[[unit]]
id = "a"
side = "aquilonia"
name = "Aquilonian Foot"
type = "MI"
figures = 24
formation = "line"
ranks = 2
front = [36.0, 24.0]
facing = 0
status = "in-melee:d"

[[unit]]
id = "d"
side = "nemedia"
name = "Nemedian Foot"
type = "MI"
figures = 24
formation = "line"
ranks = 2
front = [36.0, 24.0]
facing = 180
status = "in-melee:a"

[[unit]]
id = "f"
side = "aquilonia"
name = "Aquilonian Reserve"
type = "MI"
figures = 36
formation = "line"
ranks = 2
front = [36.0, 16.0]
facing = 0
"#;

fn dice(pairs: &[(&str, u8)]) -> ScriptedDice {
    ScriptedDice::new(pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect())
}

#[test]
fn the_dead_never_test_morale() {
    // Appendix II: the White Hand's legions never test; no morale die is asked for.
    let text = MELEE.replacen(
        "status = \"in-melee:d\"",
        "status = \"in-melee:d\"\ntraits = [\"dead\"]",
        1,
    );
    let table = Table::from_setup(&toml::from_str(&text).unwrap()).unwrap();
    let mut d = dice(&[("melee:a", 2), ("melee:d", 3)]);
    let out = resolve_turn(
        &table,
        &TurnOrders::default(),
        &GameOptions::default(),
        &mut d,
        StopAfter::Turn,
    )
    .unwrap();
    assert_eq!(out.table.units["a"].status, Status::Ready);
    assert!(d.unused_keys().is_empty());
    assert!(!out
        .events
        .iter()
        .any(|e| matches!(e, Event::MoraleTested { .. })));
}

#[test]
fn friends_passed_through_cannot_charge_in_phase_1_of_the_next_turn() {
    // §8: a falls back two moves through f; next turn f's phase 1 charge is refused.
    let table = Table::from_setup(&toml::from_str(MELEE).unwrap()).unwrap();
    let mut d = dice(&[
        ("melee:a", 2),
        ("melee:d", 3),
        ("morale:a:1", 90),
        ("severity:a:1", 50),
        ("morale:f:1", 1),
    ]);
    let out = resolve_turn(
        &table,
        &TurnOrders::default(),
        &GameOptions::default(),
        &mut d,
        StopAfter::Turn,
    )
    .unwrap();
    assert!(
        out.events
            .iter()
            .any(|e| matches!(e, Event::PassedThrough { through, .. } if through == "f")),
        "{:#?}",
        out.events
    );
    assert!(out.table.morale.no_charge_in_phase1.contains("f"));
    let next = out.table;
    let orders = umpire::games::hyborian::orders::check_side(
        "Aquilonian Reserve: phase 1 charge Nemedian Foot",
        "aquilonia",
        &next,
    )
    .orders;
    let out2 = resolve_turn(
        &next,
        &orders,
        &GameOptions::default(),
        &mut SeededDice::new([3; 32]),
        StopAfter::Phase1Move,
    )
    .unwrap();
    let said: Vec<String> = out2.events.iter().map(|e| e.to_string()).collect();
    assert!(
        said.iter()
            .any(|s| s.contains("friends falling back or routing passed through them")),
        "{said:#?}"
    );
    assert!(
        out2.table.morale.no_charge_in_phase1.is_empty(),
        "only phase 1 of the next turn"
    );
}

#[test]
fn a_unit_that_failed_to_rally_routs_on_without_testing_again() {
    // §8: fail — rout on at twice charge speed until off the table.
    let text = MELEE
        .replacen(
            "front = [36.0, 24.0]\nfacing = 0\nstatus = \"in-melee:d\"",
            "front = [36.0, 44.0]\nfacing = 0\nstatus = \"rout\"",
            1,
        )
        .replacen("status = \"in-melee:a\"", "", 1)
        .replacen(
            "front = [36.0, 24.0]\nfacing = 180",
            "front = [60.0, 10.0]\nfacing = 180",
            1,
        );
    let table = Table::from_setup(&toml::from_str(&text).unwrap()).unwrap();
    let mut d = dice(&[("morale:a:1", 100)]);
    let out = resolve_turn(
        &table,
        &TurnOrders::default(),
        &GameOptions::default(),
        &mut d,
        StopAfter::Turn,
    )
    .unwrap();
    // 44 + 20 runs off the north edge at once.
    assert_eq!(out.table.units["a"].status, Status::OffTable);
    assert!(out.table.morale.routing_on.is_empty());

    // From y 10 it runs 20 inches through f (which tests at -20), and stays on the table.
    let text = text.replacen("front = [36.0, 44.0]", "front = [36.0, 10.0]", 1);
    let table = Table::from_setup(&toml::from_str(&text).unwrap()).unwrap();
    let mut d = dice(&[("morale:a:1", 100), ("morale:f:1", 1)]);
    let out = resolve_turn(
        &table,
        &TurnOrders::default(),
        &GameOptions::default(),
        &mut d,
        StopAfter::Turn,
    )
    .unwrap();
    assert_eq!(out.table.units["a"].status, Status::Rout);
    assert!(out.table.morale.routing_on.contains("a"));
    // Next turn: no rally die is asked for; it runs on 20 inches and off.
    let mut none = dice(&[]);
    let out2 = resolve_turn(
        &out.table,
        &TurnOrders::default(),
        &GameOptions::default(),
        &mut none,
        StopAfter::Turn,
    )
    .unwrap();
    assert_eq!(out2.table.units["a"].status, Status::OffTable);
    assert!(out2.table.units["a"].in_melee_with.is_empty());
}

#[test]
fn morale_events_read_as_sentences() {
    let table = Table::from_setup(&toml::from_str(MELEE).unwrap()).unwrap();
    let mut d = dice(&[
        ("melee:a", 2),
        ("melee:d", 3),
        ("morale:a:1", 90),
        ("severity:a:1", 1),
        ("morale:f:1", 1),
    ]);
    let out = resolve_turn(
        &table,
        &TurnOrders::default(),
        &GameOptions::default(),
        &mut d,
        StopAfter::Turn,
    )
    .unwrap();
    let said: Vec<String> = out.events.iter().map(|e| e.to_string()).collect();
    for want in [
        "Aquilonian Foot tested morale (lost the melee): base 85, 20% lost −10, lost the melee −10 = 65%; rolled 90: failed.",
        "Aquilonian Foot rolled 1 for severity: fall back one move.",
        "Aquilonian Foot fell back 6 inches, ending facing the enemy (fall-back status for 1 turn).",
        "Aquilonian Reserve tested morale (Aquilonian Foot fell back nearby): base 85, full strength +10, friends fell back past −10 = 85%; rolled 1: stood.",
    ] {
        assert!(said.iter().any(|s| s == want), "missing {want:?} in {said:#?}");
    }
}

#[test]
fn the_scripted_battle_comes_to_blows_and_tests_morale() {
    let mut table = battle();
    let (mut tests, mut melees) = (0, 0);
    let mut sections = std::collections::BTreeSet::new();
    for turn in 0..12u8 {
        let out = resolve_turn(
            &table,
            &orders(&table),
            &GameOptions::default(),
            &mut SeededDice::new([turn; 32]),
            StopAfter::Turn,
        )
        .unwrap();
        tests += out
            .events
            .iter()
            .filter(|e| matches!(e, Event::MoraleTested { .. }))
            .count();
        melees += out
            .events
            .iter()
            .filter(|e| matches!(e, Event::MeleeResolved { .. }))
            .count();
        sections.extend(
            umpire::games::hyborian::report::story(&out.events)
                .0
                .into_iter()
                .map(|s| s.title),
        );
        table = out.table;
        check(&table).unwrap();
    }
    eprintln!(
        "{tests} tests, {melees} bouts; {:?}",
        table
            .units
            .values()
            .map(|u| (u.id.clone(), u.status.code()))
            .collect::<Vec<_>>()
    );
    assert!(tests > 0 && melees > 0, "{tests} tests, {melees} bouts");
    // The report gives the tests sections of their own, in the turn's order.
    for want in ["Morale before the melee", "Melee", "Morale after the melee"] {
        assert!(
            sections.contains(want),
            "no section {want:?} in {sections:?}"
        );
    }
}
