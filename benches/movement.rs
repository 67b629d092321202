//! One movement phase with 60 units all moving: two lines of 30 facing
//! each other 16 inches apart, every fifth unit charging the unit opposite,
//! the rest advancing their full move, so the phase has several charges,
//! contacts and friends blocking one another. Target: under 5 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use umpire::games::hyborian::adjudicate::{resolve_turn, StopAfter};
use umpire::games::hyborian::dice::ScriptedDice;
use umpire::games::hyborian::orders::plan::*;
use umpire::games::hyborian::rules::options::GameOptions;
use umpire::games::hyborian::table::setup::{Setup, TableSize, UnitSetup};
use umpire::games::hyborian::table::Table;

fn battle() -> (Table, TurnOrders) {
    let mut units = Vec::new();
    let mut orders = TurnOrders::default();
    for side in 0..2 {
        for k in 0..30 {
            let (row, col) = (k / 10, k % 10);
            let (kind, figures, ranks) = match row {
                0 => ("MI", 12, 2),
                1 => ("HC", 6, 1),
                _ => ("LI", 8, 2),
            };
            let x = 4.0 + col as f64 * 7.0;
            let (y, facing) = if side == 0 {
                (22.0 - row as f64 * 6.0, 0.0)
            } else {
                (38.0 + row as f64 * 6.0, 180.0)
            };
            let id = format!("s{side}u{k:02}");
            units.push(UnitSetup {
                id: id.clone(),
                side: format!("side{side}"),
                name: id.clone(),
                kind: kind.into(),
                class: None,
                figures,
                original: None,
                weapons: vec![],
                traits: vec![],
                formation: Some("line".into()),
                ranks: Some(ranks),
                files: None,
                front: [x, y],
                facing,
                status: None,
                attached_to: None,
                spell_points: None,
                mounted: None,
            });
            let f = if k % 5 == 0 && row == 0 {
                Function::Charge(Charge {
                    target: ChargeTarget::Unit(format!("s{}u{k:02}", 1 - side)),
                    sweep: None,
                    breakthrough: false,
                    break_off: false,
                })
            } else {
                Function::Move(Move {
                    wheel: None,
                    direction: Direction::Forward,
                    distance: Distance::Full,
                    forced_march: false,
                    along_road: false,
                })
            };
            orders.units.insert(
                id,
                UnitOrders {
                    phase1: Some(f),
                    ..Default::default()
                },
            );
        }
    }
    let setup = Setup {
        table: TableSize {
            width: 72.0,
            depth: 72.0,
        },
        terrain: Vec::new(),
        units,
    };
    (Table::from_setup(&setup).expect("bench battle"), orders)
}

fn phase(c: &mut Criterion) {
    let (table, orders) = battle();
    let options = GameOptions::default();
    let r = resolve_turn(
        &table,
        &orders,
        &options,
        &mut ScriptedDice::default(),
        StopAfter::Phase1Move,
    )
    .expect("no dice");
    let contacts = r
        .record
        .units
        .values()
        .filter(|u| !u.contacts.is_empty())
        .count();
    assert!(
        contacts >= 4,
        "the benchmark should have contacts, got {contacts}"
    );
    c.bench_function("phase1-move-60-units", |b| {
        b.iter(|| {
            resolve_turn(
                black_box(&table),
                black_box(&orders),
                &options,
                &mut ScriptedDice::default(),
                StopAfter::Phase1Move,
            )
        })
    });
}

criterion_group!(benches, phase);
criterion_main!(benches);
