//! One round's orders written by the aggressive general for the largest
//! shipped army of each rule set (issue 42: under 100 ms). Hyborean: Turan
//! in "The Marches of the East" (26 units, the most of any shipped Hyborean
//! scenario or army file), its whole turn's order text (`sim::general::orders`).
//! Furor Barbarus: the larger army of Campus Mauriacus (the largest battle),
//! its player-turn and its standing reactions (`sim::general::player_turn`
//! and `standing`, what the post office's general writes for a round).
//! Each on the opening table and on the table of turn 5 of a lab battle
//! between two aggressive generals (the armies in contact: the most to weigh).
//! FR! Ancients: the shipped Trebia under the house pack (Rome's 37
//! units, the largest army umpire ships), the phasing side's sheet (`fr_ancients::general::general_sheet`, which checks its
//! lines until none is refused) at the first phase and at the first phase
//! of turn 3, both sides played by the aggressive general.
//!
//! `cargo bench --bench general -- --warm-up-time 1 --measurement-time 3`;
//! numbers in docs/balance.md.

use criterion::{criterion_group, criterion_main, Criterion};
use std::collections::BTreeMap;
use std::hint::black_box;
use umpire::dice::SeededDice;
use umpire::games::fr_ancients::demo::{play_round, trebia};
use umpire::games::fr_ancients::general::general_sheet;
use umpire::games::fr_ancients::ruleset::FrAncients;
use umpire::games::fr_ancients::state::State;
use umpire::games::furor::board::{Board, SideId};
use umpire::games::furor::options::Options;
use umpire::games::furor::sim::game::{self, Matchup as FurorMatchup};
use umpire::games::furor::sim::general::{player_turn, standing};
use umpire::games::hyborian::army::scenario;
use umpire::games::hyborian::sim::battle;
use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
use umpire::games::hyborian::sim::general::orders;
use umpire::games::hyborian::table::Table;
use umpire::games::Ruleset;
use umpire::sim::seed::BattleSeed;
use umpire::sim::Style;

const MARCHES: &str = include_str!("../campaigns/scenarios/the-marches-of-the-east.toml");
const MID_TURN: u32 = 5;

/// The Marches' opening table, and the table before turn 5 of a battle.
fn hyborean_tables() -> (Table, Table) {
    let opening = scenario::load(MARCHES).unwrap().table;
    let names = ["Aquilonia", "Turan"];
    let m = Matchup::new(
        names.map(|n| Contender::scenario_side(n, Style::Aggressive)),
        Field::Scenario(MARCHES.into()),
        Default::default(),
        None,
    )
    .unwrap();
    let mut mid = None;
    battle::play(&m, BattleSeed::of_run(1, 0), &mut |p| {
        if p.turn == MID_TURN {
            mid = Some(p.before.clone());
        }
    })
    .unwrap();
    (opening, mid.expect("the battle lasts 5 turns"))
}

fn furor_boards() -> (Board, Board, SideId) {
    let m = FurorMatchup::new(
        "campus-mauriacus",
        [Style::Aggressive; 2],
        Default::default(),
        None,
    )
    .unwrap();
    let mut boards: Vec<Board> = Vec::new();
    game::play(&m, BattleSeed::of_run(1, 0), &mut |t| {
        boards.push(t.before.clone())
    })
    .unwrap();
    let largest = m
        .sides
        .iter()
        .max_by_key(|s| boards[0].units.values().filter(|u| &u.side == *s).count())
        .unwrap()
        .clone();
    // The larger army's first player-turn, and its player-turn of turn 5.
    let mine = |b: &&Board| b.phasing() == &largest;
    let opening = boards.iter().find(mine).unwrap().clone();
    let mid = boards
        .iter()
        .filter(mine)
        .find(|b| b.turn >= MID_TURN as u8)
        .unwrap_or_else(|| boards.iter().rfind(mine).unwrap())
        .clone();
    (opening, mid, largest)
}

const HOUSE_PACK: &str = include_str!("../campaigns/fr-ancients/house-pack.toml");

/// The Trebia's first phase, and the first of turn 3, each phase's sheet
/// written by the aggressive general and played as the post office plays it.
fn fr_states() -> (State, State) {
    let opening = trebia(Some(HOUSE_PACK)).unwrap();
    let mut json = opening.to_json().unwrap();
    let mut dice = SeededDice::new([1; 32]);
    for _ in 0..40 {
        let state = State::read(&json).unwrap();
        if state.battle.turn >= 3 {
            return (opening, state);
        }
        let side = state.battle.phasing().clone();
        let text = general_sheet(&state, &side, Style::Aggressive).unwrap();
        let checked = FrAncients.check_orders(&json, &side, &text, &[]).unwrap();
        let orders = BTreeMap::from([(side, checked.orders)]);
        json = play_round(&json, &orders, &mut dice).unwrap().state;
    }
    panic!("the Trebia reaches turn 3 in 40 rounds");
}

fn general(c: &mut Criterion) {
    let (opening, mid) = hyborean_tables();
    let turan = opening.units_of("turan").count();
    let mut g = c.benchmark_group("general");
    for (when, table) in [("opening", &opening), ("turn-5", &mid)] {
        g.bench_function(
            format!("hyborean/marches-turan-{turan}-units/{when}"),
            |b| b.iter(|| orders(black_box(table), "turan", Style::Aggressive)),
        );
    }
    let (opening, mid, side) = furor_boards();
    let counters = opening.units.values().filter(|u| u.side == side).count();
    let options = Options::default();
    for (when, board) in [("opening", &opening), ("turn-5", &mid)] {
        g.bench_function(
            format!("furor/campus-mauriacus-{side}-{counters}-counters/{when}"),
            |b| {
                b.iter(|| {
                    let orders = player_turn(black_box(board), &options, Style::Aggressive);
                    let reactions = standing(board, &options, &side, Style::Aggressive);
                    (orders, reactions)
                })
            },
        );
    }
    let (opening, turn3) = fr_states();
    for (when, state) in [("opening", &opening), ("turn-3", &turn3)] {
        let side = state.battle.phasing().clone();
        let units = state.battle.present().filter(|u| u.side == side).count();
        g.bench_function(
            format!("fr-ancients/trebia-{side}-{units}-units/{when}"),
            |b| b.iter(|| general_sheet(black_box(state), &side, Style::Aggressive).unwrap()),
        );
    }
    g.finish();
}

criterion_group!(benches, general);
criterion_main!(benches);
