//! FR! Ancients: one phase of the Trebia (the sheet's two Hannibal lists,
//! 73 units) resolved with the stand-in pack and seeded dice, the phasing
//! side's 36 units all ordered forward; and the same phase up to the game
//! master's first situation without a pack. Target: a phase under 50 ms, so
//! a by-mail turn (replayed on every game master's answer) costs nothing.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use umpire::dice::SeededDice;
use umpire::games::fr_ancients::desk::Desk;
use umpire::games::fr_ancients::game::{trebia, Game};
use umpire::games::fr_ancients::orders::TurnOrders;
use umpire::games::fr_ancients::pack::STAND_IN;

fn forward(g: &Game) -> TurnOrders {
    let side = g.battle.phasing().clone();
    let text: String = g
        .battle
        .units
        .values()
        .filter(|u| u.side == side)
        .map(|u| {
            format!(
                "{}: move to {:.1}, {:.1}\n",
                u.name,
                u.front.x,
                u.front.y + 3.0
            )
        })
        .collect();
    let mut orders = TurnOrders::default();
    orders
        .sides
        .insert(side.clone(), g.check_orders(&side, &text).orders);
    orders
}

fn bench(c: &mut Criterion) {
    let with_pack = trebia(Some(STAND_IN)).expect("the Trebia starts");
    let orders = forward(&with_pack);
    c.bench_function("fr_ancients phase with the stand-in pack", |b| {
        b.iter(|| {
            let mut dice = SeededDice::new([4; 32]);
            black_box(
                with_pack
                    .resolve(&orders, &Desk::default(), &mut dice)
                    .expect("seeded dice never run out"),
            )
        })
    });
    let desk = trebia(None).expect("the Trebia starts");
    let orders = forward(&desk);
    c.bench_function(
        "fr_ancients phase to the game master's first situation",
        |b| {
            b.iter(|| {
                let mut dice = SeededDice::new([4; 32]);
                black_box(
                    desk.resolve(&orders, &Desk::default(), &mut dice)
                        .expect("seeded dice never run out"),
                )
            })
        },
    );
    c.bench_function("fr_ancients orders check, 36 lines", |b| {
        let side = desk.battle.phasing().clone();
        let text: String = desk
            .battle
            .units
            .values()
            .filter(|u| u.side == side)
            .map(|u| {
                format!(
                    "{}: move to {:.1}, {:.1}\n",
                    u.name,
                    u.front.x,
                    u.front.y + 3.0
                )
            })
            .collect();
        b.iter(|| black_box(desk.check_orders(&side, &text)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
