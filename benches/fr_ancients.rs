//! FR! Ancients through the rule set's boundary, as the post office plays
//! it (`Ruleset::check_orders` and `Ruleset::resolve` of `FrAncients` on the
//! stored JSON state, by way of `demo::play_round`): one phase of the Trebia
//! (the sheet's two Hannibal lists, 73 units) with the stand-in pack and
//! seeded dice, the phasing side's 36 units all ordered forward; the same
//! round without a pack, up to the game master's first situation; and the
//! check of those 36 lines. Each includes what production pays besides the
//! rules: reading the stored state, writing the next one and the round's
//! report sections. Target: a round under 50 ms, so a by-mail turn
//! (replayed on every game master's answer) costs nothing.

use criterion::{criterion_group, criterion_main, Criterion};
use std::collections::BTreeMap;
use std::hint::black_box;
use umpire::dice::SeededDice;
use umpire::games::fr_ancients::demo::{play_round, trebia};
use umpire::games::fr_ancients::pack::STAND_IN;
use umpire::games::fr_ancients::ruleset::FrAncients;
use umpire::games::fr_ancients::state::State;
use umpire::games::{Json, Ruleset};

/// The phasing side and its orders: every unit 3" forward.
fn forward(state: &State) -> (String, String) {
    let side = state.battle.phasing().clone();
    let text = state
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
    (side, text)
}

/// A started game's stored state and its phasing side's checked orders.
fn round(pack: Option<&str>) -> (Json, BTreeMap<String, Json>) {
    let state = trebia(pack).expect("the Trebia starts");
    let (side, text) = forward(&state);
    let json = state.to_json().expect("a state writes");
    let checked = FrAncients
        .check_orders(&json, &side, &text, &[])
        .expect("the orders are checked");
    (json, BTreeMap::from([(side, checked.orders)]))
}

fn bench(c: &mut Criterion) {
    let (with_pack, orders) = round(Some(STAND_IN));
    c.bench_function("fr_ancients phase with the stand-in pack", |b| {
        b.iter(|| {
            let mut dice = SeededDice::new([4; 32]);
            black_box(play_round(&with_pack, &orders, &mut dice).expect("the round is played"))
        })
    });
    let (desk, orders) = round(None);
    c.bench_function(
        "fr_ancients phase to the game master's first situation",
        |b| {
            b.iter(|| {
                let mut dice = SeededDice::new([4; 32]);
                black_box(play_round(&desk, &orders, &mut dice).expect("the round is played"))
            })
        },
    );
    c.bench_function("fr_ancients orders check, 36 lines", |b| {
        let state = State::read(&desk).expect("a state reads");
        let (side, text) = forward(&state);
        b.iter(|| black_box(FrAncients.check_orders(&desk, &side, &text, &[])))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
