//! A full turn's fire and melee: 40 units in 10 four-unit melees (each
//! unit in melee with both enemies of its block), plus an archer and its
//! target per block, resolved from the start of the turn to the end of the
//! melee step with seeded dice. Target: under 2 ms.

#[path = "../tests/support/combat_table.rs"]
mod combat_table;

use combat_table::{setup_toml, Spec, KINDS};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use umpire::games::hyborian::adjudicate::{resolve_turn, StopAfter};
use umpire::games::hyborian::dice::SeededDice;
use umpire::games::hyborian::orders::plan::TurnOrders;
use umpire::games::hyborian::rules::options::GameOptions;
use umpire::games::hyborian::table::{setup::Setup, Table};

fn battle() -> Table {
    let specs: Vec<Spec> = (0..KINDS.len())
        .map(|kind| Spec {
            kind,
            figures: 16 + kind as u32,
        })
        .collect();
    let setup: Setup = toml::from_str(&setup_toml(&specs, 10, &|id: &str| id.to_string()))
        .expect("bench set-up parses");
    Table::from_setup(&setup).expect("bench set-up is legal")
}

fn bench(c: &mut Criterion) {
    let table = battle();
    assert_eq!(
        table
            .units
            .values()
            .filter(|u| !u.in_melee_with.is_empty())
            .count(),
        40
    );
    let orders = TurnOrders::default();
    let options = GameOptions::default();
    c.bench_function("fire and melee, 40 units in 10 melees", |b| {
        b.iter(|| {
            let mut dice = SeededDice::new([7; 32]);
            black_box(
                resolve_turn(&table, &orders, &options, &mut dice, StopAfter::Melee)
                    .expect("seeded dice never fail"),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
