//! FR! Ancients: the rules case catalogue (`tests/cases/fr-ancients/`, run
//! through the same runner as `umpire case`), the demonstration turn with a
//! game master, and property tests of the readers and the engine.

use proptest::prelude::*;
use std::path::PathBuf;
use umpire::case::{case_files, run_file, CaseOutcome};
use umpire::dice::SeededDice;
use umpire::games::fr_ancients::desk::{read_answers, Desk, Situation};
use umpire::games::fr_ancients::game::{trebia, Resolution};
use umpire::games::fr_ancients::orders::TurnOrders;
use umpire::games::fr_ancients::pack::STAND_IN;
use umpire::games::fr_ancients::questions::{Ask, Question, Roll, Test};
use umpire::games::fr_ancients::sequence::Part;

fn catalogue() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases/fr-ancients")
}

#[test]
fn every_fr_ancients_case_passes() {
    let files = case_files(&[catalogue()]);
    assert!(files.len() >= 60, "only {} cases", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| match run_file(f) {
            CaseOutcome::Pass => None,
            other => Some(format!("{}: {other:?}", f.display())),
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases did not pass:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn every_case_cites_the_digest() {
    for f in case_files(&[catalogue()]) {
        let text = std::fs::read_to_string(&f).unwrap();
        let rule = text
            .lines()
            .find(|l| l.starts_with("rule = "))
            .unwrap_or_default();
        assert!(
            rule.contains('§')
                || rule.contains("M1")
                || rule.contains("desk")
                || rule.contains("rule "),
            "{} cites no section: {rule}",
            f.display()
        );
    }
}

#[test]
fn the_demonstration_turn_with_a_game_master() {
    let t = umpire::games::fr_ancients::demo::one_turn_with_gm();
    assert_eq!(
        t,
        umpire::games::fr_ancients::demo::one_turn_with_gm(),
        "the same every run"
    );
    assert!(
        t.iter()
            .filter(|s| s.starts_with("To the game master"))
            .count()
            >= 2
    );
    assert!(t.iter().any(|s| s.starts_with("From the game master")));
    assert!(
        !t.iter()
            .any(|s| s.starts_with("The umpire to the game master")),
        "every answer written by the demonstration's game master reads back cleanly"
    );
    let reports: Vec<&String> = t
        .iter()
        .filter(|s| s.starts_with("Report to both sides"))
        .collect();
    assert_eq!(reports.len(), 2, "two phases, two reports");
    assert!(reports
        .iter()
        .all(|r| r.contains("the game master") && r.contains("7. Determine Phase Winner")));
}

#[test]
fn a_stand_in_game_names_its_pack_and_draws_the_table() {
    let g = trebia(Some(STAND_IN)).unwrap();
    let mut dice = SeededDice::new([5; 32]);
    let Resolution::Done { report, .. } = g
        .resolve(&TurnOrders::default(), &Desk::default(), &mut dice)
        .unwrap()
    else {
        panic!("the pack answers everything")
    };
    let text = report.text();
    assert!(
        text.contains("stand-in rules, not FR!") && text.contains("sha256"),
        "{text}"
    );
    let png = umpire::report::picture::png(&report.svg).unwrap();
    assert!(png.len() > 1000);
}

fn rally_situation() -> (umpire::games::fr_ancients::table::Battle, Situation) {
    let g = trebia(None).unwrap();
    let unit = g.battle.units.keys().next().unwrap().clone();
    let q = Question {
        key: format!("rally:{unit}:1"),
        part: Part::Rally,
        ask: Ask::Test {
            unit,
            test: Test::Rally,
            rally: None,
            modifiers: vec![],
            roll: Roll {
                key: "rally:x:1".into(),
                value: 5,
            },
        },
    };
    let s = Situation::new(&g.battle, Part::Rally, vec![q], Some("trebia"));
    (g.battle, s)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_answer_text_panics_the_desk(text in "\\PC{0,200}") {
        let (battle, s) = rally_situation();
        let r = read_answers(&s, &battle, &text);
        prop_assert!(r.answers.len() <= 1);
    }

    #[test]
    fn no_order_text_panics_the_checker(text in "[ -~\\n]{0,300}") {
        let g = trebia(None).unwrap();
        let c = g.check_orders("rome", &text);
        prop_assert!(c.diagnostics.iter().all(|d| d.span.start <= text.len()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn a_stand_in_turn_never_overlaps_units(seed in any::<[u8; 32]>(), step in 1.0f64..12.0) {
        let mut g = trebia(Some(STAND_IN)).unwrap();
        for _ in 0..2 {
            let mut orders = TurnOrders::default();
            for side in ["rome", "carthage"] {
                let ahead = if g.battle.sides[0].id == side { step } else { -step };
                let text: String = g
                    .battle
                    .units
                    .values()
                    .filter(|u| u.side == side && u.is_present())
                    .map(|u| format!("{}: move to {:.1}, {:.1}\n", u.name, u.front.x, u.front.y + ahead))
                    .collect();
                orders.sides.insert(side.to_string(), g.check_orders(side, &text).orders);
            }
            let mut dice = SeededDice::new(seed);
            let Resolution::Done { after, .. } = g.resolve(&orders, &Desk::default(), &mut dice).unwrap() else {
                return Err(TestCaseError::fail("a pack answers everything"));
            };
            let units: Vec<_> = after.units.values().filter(|u| u.is_present()).collect();
            for (i, a) in units.iter().enumerate() {
                prop_assert!(after.on_table(&a.footprint()), "{} off the table", a.name);
                for b in &units[i + 1..] {
                    prop_assert!(!a.footprint().overlaps(&b.footprint()), "{} overlaps {}", a.name, b.name);
                }
            }
            g.advance(after);
        }
    }
}
