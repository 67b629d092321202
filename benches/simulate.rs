//! The balance lab's speed. Target (issue 23): 10,000 twelve-turn battles
//! of two 500-point armies in under 60 s on the 2-core machine, i.e. under
//! 12 ms a battle per core.
//!
//! - `battle/500-points`: one battle, Aquilonia against Nemedia at 500
//!   points (the proposer's armies), a cautious and an aggressive general,
//!   up to 12 turns on a terrain card drawn by the seed; the seed changes
//!   every iteration (64 seeds), so short and long battles average out.
//!   Each battle includes writing both sides' orders as text and reading
//!   them back through `orders::check_side`.
//! - `simulate/64-battles/threads-N`: 64 such battles through
//!   `sim::simulate` on 1 and on 2 threads — the scaling.
//!
//! The whole run is measured with the command itself:
//! `time umpire simulate Aquilonia Nemedia --points 500 --style cautious,aggressive --battles 10000`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use umpire::games::hyborian::sim::battle::play;
use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
use umpire::games::hyborian::sim::general::Style;
use umpire::games::hyborian::sim::seed::BattleSeed;
use umpire::games::hyborian::sim::simulate::simulate;

/// Battles a block of the scaling measurement plays.
const BLOCK: u64 = 64;

fn matchup() -> Matchup {
    let a = Contender::proposed("Aquilonia", 500, Style::Cautious).expect("a legal army");
    let b = Contender::proposed("Nemedia", 500, Style::Aggressive).expect("a legal army");
    Matchup::new([a, b], Field::Card(None), Default::default(), None)
        .expect("the armies fit the table")
}

fn battle(c: &mut Criterion) {
    let m = matchup();
    let mut k = 0u64;
    let mut g = c.benchmark_group("battle");
    g.sample_size(30);
    g.bench_function("500-points", |b| {
        b.iter(|| {
            k += 1;
            let o = play(&m, BattleSeed::of_run(1, k % BLOCK), &mut |_| {}).expect("battle");
            assert!(o.refusals.is_empty());
            black_box(o)
        })
    });
    g.finish();
}

fn scaling(c: &mut Criterion) {
    let m = matchup();
    let mut g = c.benchmark_group("simulate");
    g.sample_size(10).throughput(Throughput::Elements(BLOCK));
    for threads in [1, 2] {
        g.bench_function(format!("{BLOCK}-battles/threads-{threads}"), |b| {
            b.iter(|| black_box(simulate(&m, 1, BLOCK, threads, &|| {}).expect("simulation")))
        });
    }
    g.finish();
}

criterion_group!(benches, battle, scaling);
criterion_main!(benches);
