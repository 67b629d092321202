//! Invariants of fire and melee on random battles of many melees:
//! - casualties never exceed the figures present, and no unit's figures
//!   rise during a turn;
//! - renaming units (which reorders them in storage) changes nothing.

use crate::combat_table;
use crate::common;

use combat_table::{setup_toml, Spec, KINDS};
use proptest::prelude::*;
use std::collections::BTreeMap;
use umpire::dice::{Dice, SeededDice};
use umpire::games::hyborian::adjudicate::{resolve_turn, Event, StopAfter, TurnResult};
use umpire::games::hyborian::orders::plan::TurnOrders;
use umpire::games::hyborian::rules::options::GameOptions;
use umpire::games::hyborian::table::{setup::Setup, Table};

/// Seeded dice that undo a renaming (`KEY-old` back to `old`), so a
/// renamed battle rolls the same dice as the original.
struct Renamed(SeededDice);

impl Dice for Renamed {
    fn roll_die(
        &mut self,
        key: &str,
        die: umpire::dice::DieKind,
    ) -> Result<u8, umpire::dice::DiceError> {
        let original: Vec<&str> = key
            .split(':')
            .map(|part| part.split_once('-').map_or(part, |(_, old)| old))
            .collect();
        self.0.roll_die(&original.join(":"), die)
    }
}

/// A renaming that shuffles the units' storage order: each id gets a
/// prefix drawn from `shuffle`, so ids sort in an order unrelated to the
/// original one.
fn shuffled(shuffle: u64) -> impl Fn(&str) -> String {
    move |id: &str| {
        let h = id.bytes().fold(shuffle ^ 0x9e37_79b9_7f4a_7c15, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        format!("{:016x}-{id}", h)
    }
}

fn table(specs: &[Spec], rename: &dyn Fn(&str) -> String) -> Table {
    let setup: Setup = toml::from_str(&setup_toml(specs, 3, rename)).unwrap();
    Table::from_setup(&setup).unwrap_or_else(|e| panic!("{e}"))
}

fn run(t: &Table, seed: u8, options: &GameOptions) -> TurnResult {
    let mut dice = Renamed(SeededDice::new([seed; 32]));
    resolve_turn(
        t,
        &TurnOrders::default(),
        options,
        &mut dice,
        StopAfter::Melee,
    )
    .unwrap()
}

fn same(id: &str) -> String {
    id.to_string()
}

fn specs() -> impl Strategy<Value = Vec<Spec>> {
    prop::collection::vec(
        (0..KINDS.len(), 8..=24u32).prop_map(|(kind, figures)| Spec { kind, figures }),
        12,
    )
}

fn options() -> impl Strategy<Value = GameOptions> {
    (any::<bool>(), any::<bool>()).prop_map(|(down, attackers)| GameOptions {
        figure_rounding: if down {
            umpire::games::hyborian::rules::melee::FigureRounding::Down
        } else {
            umpire::games::hyborian::rules::melee::FigureRounding::Nearest
        },
        terrain_penalty_on_attackers: attackers,
        ..GameOptions::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn casualties_never_exceed_figures_and_figures_never_rise(specs in specs(), seed in any::<u8>(), options in options()) {
        let before = table(&specs, &same);
        let out = run(&before, seed, &options);
        let mut lost: BTreeMap<String, u32> = BTreeMap::new();
        for e in &out.events {
            if let Event::Casualties { unit, lost: n, .. } = e {
                *lost.entry(unit.clone()).or_default() += n;
            }
        }
        let mut melees = 0;
        for (id, u) in &before.units {
            let after = &out.table.units[id];
            prop_assert!(after.figures <= u.figures, "{id} rose from {} to {}", u.figures, after.figures);
            prop_assert_eq!(u.figures - after.figures, lost.get(id).copied().unwrap_or(0), "{} lost figures unreported", id);
            melees += usize::from(!u.in_melee_with.is_empty());
        }
        prop_assert_eq!(melees, 12);
        let fought = out.events.iter().any(|e| matches!(e, Event::MeleeResolved { .. }));
        prop_assert!(fought, "no melee was fought");
        let shot = out.events.iter().any(|e| matches!(e, Event::FireResolved { .. }));
        prop_assert!(shot, "no archer shot");
    }

    #[test]
    fn the_result_does_not_depend_on_unit_order(specs in specs(), seed in any::<u8>(), shuffle in any::<u64>()) {
        let options = GameOptions::default();
        let plain = run(&table(&specs, &same), seed, &options);
        let rename = shuffled(shuffle);
        let renamed_table = table(&specs, &rename);
        // The renaming really changes the order units are stored and visited in.
        let order: Vec<String> = renamed_table.units.keys().map(|k| k.split_once('-').unwrap().1.to_string()).collect();
        let original: Vec<String> = plain.table.units.keys().cloned().collect();
        prop_assume!(order != original);
        let renamed = run(&renamed_table, seed, &options);
        for (id, u) in &plain.table.units {
            let r = &renamed.table.units[&rename(id)];
            prop_assert_eq!(u.figures, r.figures, "{} differs when the units are stored in another order", id);
            prop_assert_eq!(&u.status, &r.status);
            let melee: std::collections::BTreeSet<String> = u.in_melee_with.iter().map(|m| rename(m)).collect();
            prop_assert_eq!(&melee, &r.in_melee_with);
        }
    }
}

#[test]
fn a_melee_round_reports_winner_and_loser() {
    let specs = [
        Spec {
            kind: 2,
            figures: 24,
        },
        Spec {
            kind: 2,
            figures: 24,
        },
        Spec {
            kind: 0,
            figures: 8,
        },
        Spec {
            kind: 0,
            figures: 8,
        },
    ];
    let out = run(&table(&specs, &same), 1, &GameOptions::default());
    let results: Vec<_> = out
        .events
        .iter()
        .filter_map(|e| match e {
            Event::MeleeOutcome { unit, result, .. } => Some((unit.clone(), *result)),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 12);
    for (unit, result) in results {
        assert_eq!(out.record.unit(&unit).and_then(|r| r.melee), Some(result));
    }
}

/// Play a case file from tests/cases and return the turn (events, record).
fn play_case(path: &str) -> TurnResult {
    let case = umpire::games::hyborian::case::Case::load(std::path::Path::new(path)).unwrap();
    let table = Table::from_setup(&case.setup).unwrap();
    let mut orders = TurnOrders::default();
    for (side, text) in &case.orders {
        orders.merge(umpire::games::hyborian::orders::check_side(text, side, &table).orders);
    }
    let mut dice = umpire::games::hyborian::dice::ScriptedDice::new(case.dice.clone());
    resolve_turn(&table, &orders, &case.options, &mut dice, case.stop_after).unwrap()
}

fn said(r: &TurnResult) -> Vec<String> {
    r.events.iter().map(|e| e.to_string()).collect()
}

#[test]
fn breakthrough_calls_morale_at_minus_10_and_says_so() {
    let r = play_case("tests/cases/melee/breakthrough.toml");
    let s = said(&r);
    let calls = &r.record.unit("s").unwrap().morale_calls;
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].modifier, -10);
    assert!(
        matches!(&calls[0].cause, umpire::games::hyborian::adjudicate::record::MoraleCause::BrokenThrough { by } if by == "k")
    );
    assert!(
        s.iter().any(
            |l| l.starts_with("Nemedian Knights broke through Aquilonian Spearmen and ride on")
        ),
        "{s:#?}"
    );
}

#[test]
fn denied_breakthroughs_say_why() {
    for (case, why) in [
        (
            "breakthrough-flank",
            "cavalry never break through infantry attacked in the flank",
        ),
        (
            "breakthrough-no-casualties",
            "0 casualties inflicted, 0 suffered",
        ),
        ("breakthrough-too-few", "3 casualties inflicted, 2 suffered"),
        (
            "breakthrough-charge-spent",
            "only 1 inch of their charge was left",
        ),
    ] {
        let r = play_case(&format!("tests/cases/melee/{case}.toml"));
        let s = said(&r);
        assert!(
            s.iter().any(|l| l
                .starts_with("Nemedian Knights did not break through Aquilonian Spearmen: ")
                && l.contains(why)),
            "{case}: {s:#?}"
        );
        assert!(
            r.record.unit("s").unwrap().morale_calls.is_empty(),
            "{case}"
        );
    }
}

#[test]
fn split_move_rides_away_what_is_left() {
    let r = play_case("tests/cases/melee/split-move.toml");
    let s = said(&r);
    let at = s
        .iter()
        .position(|l| l == "Nemedian Horse broke off from the melee with a free turn-about.");
    let melee = s
        .iter()
        .rposition(|l| l.starts_with("Aquilonian Spearmen lost 4 figures"));
    assert!(at.is_some() && melee < at, "after all melee: {s:#?}");
    assert!(
        s.contains(&"Nemedian Horse moved 8 inches.".to_string()),
        "{s:#?}"
    );
}

/// The figures `name` fought with, from its melee sentences.
fn fought_with(r: &TurnResult, name: &str) -> Vec<u32> {
    r.events
        .iter()
        .filter_map(|e| match e {
            Event::MeleeResolved {
                name: n,
                figures_fighting,
                ..
            } if n == name => Some(*figures_fighting),
            _ => None,
        })
        .collect()
}

#[test]
fn later_rounds_expand_by_class_from_the_last_round() {
    // Two lines of 24 foot face to face in melee; A class expands 6 a turn, C class 2.
    let text = |status_a: &str, status_d: &str| {
        format!(
            "[table]\nwidth = 72.0\ndepth = 48.0\n\
             [[unit]]\nid = \"a\"\nside = \"aquilonia\"\nname = \"Guard\"\ntype = \"MI\"\nclass = \"A\"\nfigures = 30\nformation = \"line\"\nranks = 3\nfront = [36.0, 20.0]\nfacing = 0\nstatus = \"{status_a}\"\n\
             [[unit]]\nid = \"d\"\nside = \"nemedia\"\nname = \"Levy\"\ntype = \"MI\"\nclass = \"C\"\nfigures = 30\nformation = \"line\"\nranks = 3\nfront = [36.0, 20.0]\nfacing = 180\nstatus = \"{status_d}\"\n"
        )
    };
    let setup: Setup = toml::from_str(&text("in-melee:d", "in-melee:a")).unwrap();
    let t0 = Table::from_setup(&setup).unwrap();
    let mut dice =
        common::SteadyDice::new([("melee:a".to_string(), 2), ("melee:d".to_string(), 2)].into());
    let go = |t: &Table, dice: &mut common::SteadyDice| {
        resolve_turn(
            t,
            &TurnOrders::default(),
            &GameOptions::default(),
            dice,
            StopAfter::Turn,
        )
        .unwrap()
    };
    let r1 = go(&t0, &mut dice);
    // No round recorded before: this round's figures are the geometry's (10 + half of 10).
    assert_eq!(fought_with(&r1, "Guard"), vec![15]);
    assert_eq!(fought_with(&r1, "Levy"), vec![15]);
    let r2 = go(&r1.table, &mut dice);
    assert_eq!(fought_with(&r2, "Guard"), vec![21], "A class: +6");
    assert_eq!(fought_with(&r2, "Levy"), vec![17], "C class: +2");
    let r3 = go(&r2.table, &mut dice);
    assert_eq!(fought_with(&r3, "Guard").len(), 1);
    assert!(fought_with(&r3, "Guard")[0] <= r2.table.units["a"].figures);
    assert_eq!(fought_with(&r3, "Levy"), vec![19]);
}

/// A heavy-cavalry charge with breakthrough at infantry, with a reserve
/// behind it, anywhere within reach.
fn breakthrough_toml(
    ranks: u32,
    files: u32,
    gap: f64,
    offset: f64,
    facing: f64,
    reserve: Option<(f64, f64)>,
) -> String {
    let mut t = format!(
        "[table]\nwidth = 72.0\ndepth = 60.0\n\
         [[unit]]\nid = \"s\"\nside = \"aquilonia\"\nname = \"Spearmen\"\ntype = \"MI\"\nclass = \"B\"\nfigures = {}\nformation = \"line\"\nranks = {ranks}\nfront = [36.0, 30.0]\nfacing = 0\n\
         [[unit]]\nid = \"k\"\nside = \"nemedia\"\nname = \"Knights\"\ntype = \"HC\"\nclass = \"A\"\nfigures = 9\nformation = \"line\"\nranks = 1\nfront = [{}, {}]\nfacing = {facing}\n",
        ranks * files,
        36.0 + offset,
        30.0 + gap
    );
    if let Some((behind, dx)) = reserve {
        t += &format!(
            "[[unit]]\nid = \"r\"\nside = \"aquilonia\"\nname = \"Reserve\"\ntype = \"MI\"\nclass = \"B\"\nfigures = 12\nformation = \"line\"\nranks = 2\nfront = [{}, {}]\nfacing = 0\n",
            36.0 + dx,
            30.0 - behind
        );
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Breakthroughs anywhere: nobody gains figures, casualties are reported,
    /// and the knights never end on top of an enemy they are not fighting.
    #[test]
    fn breakthroughs_keep_the_invariants(
        ranks in 1..=3u32, files in 4..=10u32, gap in 2.0..16.0f64, offset in -3.0..3.0f64,
        facing in 170.0..190.0f64, reserve in proptest::option::of((3.0..14.0f64, -4.0..4.0f64)),
        k in 2..=5u8, s in 2..=5u8, r in 2..=5u8,
    ) {
        let text = breakthrough_toml(ranks, files, gap, offset, facing, reserve);
        let setup: Setup = toml::from_str(&text).unwrap();
        let Ok(before) = Table::from_setup(&setup) else { return Ok(()) };
        let orders = umpire::games::hyborian::orders::check_side(
            "Knights: phase 1 charge Spearmen with breakthrough", "nemedia", &before).orders;
        let mut dice = common::SteadyDice::new(
            [("melee:k".to_string(), k), ("melee:s".to_string(), s), ("melee:r".to_string(), r)].into());
        let out = resolve_turn(&before, &orders, &GameOptions::default(), &mut dice, StopAfter::Turn).unwrap();
        let mut lost: BTreeMap<String, u32> = BTreeMap::new();
        for e in &out.events {
            if let Event::Casualties { unit, lost: n, .. } = e {
                *lost.entry(unit.clone()).or_default() += n;
            }
        }
        for (id, u) in &before.units {
            let after = &out.table.units[id];
            prop_assert!(after.figures <= u.figures);
            prop_assert_eq!(u.figures - after.figures, lost.get(id).copied().unwrap_or(0));
        }
        let knights = &out.table.units["k"];
        if knights.status.is_present() {
            for o in out.table.units.values().filter(|o| o.side != knights.side && o.status.is_present()) {
                let apart = knights.footprint().penetration(&o.footprint()) < 0.05;
                prop_assert!(apart || knights.in_melee_with.contains(&o.id),
                    "knights overlap {} without fighting it: {:#?}", o.id,
                    out.events.iter().map(|e| e.to_string()).collect::<Vec<_>>());
            }
        }
        let broke = out.events.iter().any(|e| matches!(e, Event::BrokeThrough { .. }));
        if broke {
            prop_assert!(!out.table.units["s"].in_melee_with.contains("k")
                || knights.footprint().overlaps(&out.table.units["s"].footprint()));
        }
    }
}

#[test]
fn a_positional_line_says_how_it_bent_to_the_woods() {
    let r = play_case("tests/cases/movement/positional-line-bent-inside-woods.toml");
    assert!(
        said(&r).iter().any(|l| l
            == "Regular Spearmen formed positional line, its ends bent back to keep within the woods: 10 wide and 3 deep."),
        "{:#?}",
        said(&r)
    );
    let straight = play_case("tests/cases/movement/positional-line-fits-stays-straight.toml");
    assert!(
        said(&straight)
            .iter()
            .any(|l| l == "Regular Spearmen formed positional line, 12 wide and 2 deep."),
        "{:#?}",
        said(&straight)
    );
}

#[test]
fn a_wheel_stopped_by_woods_says_why() {
    let r = play_case("tests/cases/movement/wheel-stopped-by-woods.toml");
    let s = said(&r);
    let told = |line: &str| s.iter().any(|l| l == line);
    assert!(
        told("Knights wheeled only 12° left of the 30° ordered (1 inch in all)."),
        "{s:#?}"
    );
    assert!(
        told("Knights halted after 1 inch: they may not enter the woods."),
        "{s:#?}"
    );
}
