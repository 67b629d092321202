//! Written melee adjustments (§4): "expand N", "contract N", "lap around".
//! Expansion and contraction count from the figures of the melee's last
//! round, which a one-turn case cannot set up: these tests play the first
//! round, then the second with the orders written for it.

use crate::common;

use common::SteadyDice;
use umpire::games::hyborian::adjudicate::{resolve_turn, Event, StopAfter, TurnResult};
use umpire::games::hyborian::orders::check_side;
use umpire::games::hyborian::orders::plan::TurnOrders;
use umpire::games::hyborian::rules::options::GameOptions;
use umpire::games::hyborian::table::{setup::Setup, Table};

/// Two lines of 24 heavy foot (B class: 4 figures a turn), 12 files of two
/// ranks, locked front to front; `d` is `width` files wide.
fn locked(width: u32) -> Table {
    let text = format!(
        r#"
[table]
width = 72.0
depth = 48.0

[[unit]]
id = "a"
side = "aquilonia"
name = "Aquilonian Foot"
type = "HI"
figures = 24
formation = "line"
ranks = 2
front = [36.0, 20.0]
facing = 0
status = "in-melee:d"

[[unit]]
id = "d"
side = "nemedia"
name = "Nemedian Foot"
type = "HI"
figures = {}
formation = "line"
ranks = 2
front = [36.0, 20.0]
facing = 180
status = "in-melee:a"
"#,
        width * 2
    );
    Table::from_setup(&toml::from_str::<Setup>(&text).unwrap()).unwrap()
}

/// Both sides roll 2; morale tests (not what these tests are about) stand.
fn dice() -> SteadyDice {
    SteadyDice::new([("melee:a".to_string(), 2), ("melee:d".to_string(), 2)].into())
}

/// Figures `a` fights with in the second round, with `orders` written for it.
fn second_round(width: u32, orders: &str) -> (u32, u32) {
    let t = locked(width);
    let first = resolve_turn(
        &t,
        &TurnOrders::default(),
        &GameOptions::default(),
        &mut dice(),
        StopAfter::Turn,
    )
    .unwrap();
    let checked = check_side(orders, "aquilonia", &first.table);
    assert!(
        checked.rejected.is_empty(),
        "{orders}: {:?}",
        checked.diagnostics
    );
    let second = resolve_turn(
        &first.table,
        &checked.orders,
        &GameOptions::default(),
        &mut dice(),
        StopAfter::Melee,
    )
    .unwrap();
    (fought(&first), fought(&second))
}

/// The figures `a` fought with in a turn.
fn fought(r: &TurnResult) -> u32 {
    r.events
        .iter()
        .find_map(|e| match e {
            Event::MeleeResolved {
                unit,
                figures_fighting,
                ..
            } if unit == "a" => Some(*figures_fighting),
            _ => None,
        })
        .unwrap()
}

#[test]
fn by_default_a_unit_expands_by_its_whole_rate() {
    // Round 1: 12 files + half the second rank = 18; each side loses 20% of 18 = 4.
    // Round 2: 18 + 4 (B class), capped at the 20 figures left.
    assert_eq!(second_round(12, ""), (18, 20));
}

#[test]
fn written_expansion_brings_in_that_many_figures() {
    assert_eq!(second_round(12, "Aquilonian Foot: expand 1"), (18, 19));
    // "expand" alone: the class's whole rate, as the default.
    assert_eq!(second_round(12, "Aquilonian Foot: expand"), (18, 20));
}

#[test]
fn written_contraction_takes_figures_out() {
    assert_eq!(second_round(12, "Aquilonian Foot: contract 2"), (18, 16));
}

/// Figures `a` fights with in the round after it charged `d` (6 files,
/// 2 inches off), with `orders` written for that second round.
fn after_a_charge(orders: &str) -> (u32, u32) {
    let mut t = locked(6);
    for u in t.units.values_mut() {
        u.in_melee_with.clear();
    }
    t.units.get_mut("a").unwrap().front.y = 18.0;
    let charge = check_side(
        "Aquilonian Foot: phase 1 charge Nemedian Foot",
        "aquilonia",
        &t,
    );
    let first = resolve_turn(
        &t,
        &charge.orders,
        &GameOptions::default(),
        &mut dice(),
        StopAfter::Turn,
    )
    .unwrap();
    let checked = check_side(orders, "aquilonia", &first.table);
    assert!(
        checked.rejected.is_empty(),
        "{orders}: {:?}",
        checked.diagnostics
    );
    let second = resolve_turn(
        &first.table,
        &checked.orders,
        &GameOptions::default(),
        &mut dice(),
        StopAfter::Melee,
    )
    .unwrap();
    (fought(&first), fought(&second))
}

#[test]
fn lapping_is_done_only_when_written_if_other_melee_orders_are() {
    // Against 6 files, a's 12 overlap 3 at each end. Round 1 (a straight
    // line): 6 + 2 overlap a side = 10, + 5 (half) = 15. Round 2 laps around
    // the ends as far as d's two ranks reach (3 figures a side): 6 + 6 = 12,
    // + 6 = 18; "expand 1" alone does not lap: 15 + 1 = 16; by default it
    // laps and expands: 15 + 4 = 19.
    assert_eq!(after_a_charge("Aquilonian Foot: lap around"), (15, 18));
    assert_eq!(after_a_charge("Aquilonian Foot: expand 1"), (15, 16));
    assert_eq!(after_a_charge(""), (15, 19));
}
