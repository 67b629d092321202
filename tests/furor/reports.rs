//! Whole player-turn reports of the four shipped battles, snapshot-tested
//! (insta): what both players read after each player-turn (every move,
//! every combat with its odds and die, the retreats, the armies' totals,
//! the turn track) and the orders the generals wrote, reviewed as text with
//! `cargo insta review`. Each battle is played by the balance lab's
//! generals (one bold, one careful) from a fixed seed for one game turn.

use umpire::games::furor::sim::game::Matchup;
use umpire::games::furor::sim::replay::replay;
use umpire::sim::{seed::BattleSeed, Style};

fn reports(battle: &str) -> String {
    let m = Matchup::new(
        battle,
        [Style::Aggressive, Style::Cautious],
        Default::default(),
        Some(1),
    )
    .unwrap();
    let r = replay(&m, BattleSeed::of_run(7, 0)).unwrap();
    assert!(!r.turns.is_empty(), "{battle}: no player-turn played");
    let mut out = String::new();
    for t in &r.turns {
        out.push_str(&t.orders);
        out.push_str("\n--------\n");
        out.push_str(&t.report);
        out.push_str("\n========\n");
    }
    out
}

#[test]
fn campus_mauriacus_reports() {
    insta::assert_snapshot!(reports("campus-mauriacus"));
}

#[test]
fn soissons_reports() {
    insta::assert_snapshot!(reports("soissons"));
}

#[test]
fn tolbiac_reports() {
    insta::assert_snapshot!(reports("tolbiac"));
}

#[test]
fn vouille_reports() {
    insta::assert_snapshot!(reports("vouille"));
}
