//! A whole 12-turn Campus Mauriacus game between two scripted players
//! (`games::furor::sparring`), every player-turn resolved by the engine
//! with seeded dice. Target: under 50 ms for the game. Measured twice: the
//! engine alone (the 24 player-turns' orders written in advance), and the
//! game with the players writing their orders as it goes. And the balance
//! lab's case: one whole game of each shipped scenario between two
//! generals (`games::furor::sim`), every sheet written as order text and
//! read and checked as a player's mail before the engine plays it.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use umpire::dice::SeededDice;
use umpire::games::furor::board::Board;
use umpire::games::furor::options::Options;
use umpire::games::furor::orders::{PlayerTurnOrders, Reactions};
use umpire::games::furor::scenario::shipped;
use umpire::games::furor::sequence::{resolve, StopAfter};
use umpire::games::furor::sim::game::{self, Matchup};
use umpire::games::furor::sparring;
use umpire::sim::seed::BattleSeed;
use umpire::sim::Style;

fn seed(turn: usize) -> [u8; 32] {
    let mut s = [7u8; 32];
    s[0] = turn as u8;
    s
}

fn opening() -> Board {
    shipped("campus-mauriacus")
        .unwrap()
        .start(&Options::default(), &Default::default(), &"huns".into())
        .unwrap()
}

/// Play the game; with `written`, replay those orders instead of asking the players.
fn play(start: &Board, written: Option<&[PlayerTurnOrders]>) -> (Board, Vec<PlayerTurnOrders>) {
    let options = Options::default();
    let mut board = start.clone();
    let mut all = Vec::new();
    for k in 0..24 {
        if board.is_over() {
            break;
        }
        let orders = match written {
            Some(w) => w[k].clone(),
            None => sparring::orders(&board, &options),
        };
        let r = resolve(
            &board,
            &orders,
            &Reactions::default(),
            &options,
            &mut SeededDice::new(seed(k)),
            StopAfter::PlayerTurn,
        )
        .unwrap();
        board = r.board;
        all.push(orders);
    }
    (board, all)
}

fn campus_mauriacus(c: &mut Criterion) {
    let start = opening();
    let (end, orders) = play(&start, None);
    assert!(end.is_over(), "the game runs to its end: {:?}", end.outcome);
    c.bench_function("furor: 12-turn Campus Mauriacus, engine only", |b| {
        b.iter(|| black_box(play(&start, Some(&orders))))
    });
    c.bench_function(
        "furor: 12-turn Campus Mauriacus, players writing orders",
        |b| b.iter(|| black_box(play(&start, None))),
    );
}

fn generals(c: &mut Criterion) {
    for name in umpire::games::furor::scenario::SCENARIOS {
        let m = Matchup::new(
            name,
            [Style::Aggressive, Style::Cautious],
            Options::default(),
            None,
        )
        .unwrap();
        let seed = BattleSeed::of_run(1, 0);
        let o = game::play(&m, seed, &mut |_| {}).unwrap();
        assert!(o.refusals.is_empty(), "{name}: {:?}", o.refusals);
        c.bench_function(
            &format!("furor: a whole {name} game between two generals"),
            |b| b.iter(|| black_box(game::play(&m, seed, &mut |_| {}).unwrap())),
        );
    }
}

criterion_group!(benches, campus_mauriacus, generals);
criterion_main!(benches);
