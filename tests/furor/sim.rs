//! The balance lab's generals on every shipped scenario: their sheets are
//! never refused, a simulation is reproducible from its master seed and
//! independent of the thread count, the two styles play measurably
//! differently, and a replay reproduces the simulated game.

use umpire::games::furor::scenario::SCENARIOS;
use umpire::games::furor::sim::game::{play, Matchup};
use umpire::games::furor::sim::replay::replay;
use umpire::games::furor::sim::simulate::simulate;
use umpire::sim::seed::BattleSeed;
use umpire::sim::Style;

const PAIRINGS: [[Style; 2]; 3] = [
    [Style::Cautious, Style::Cautious],
    [Style::Aggressive, Style::Aggressive],
    [Style::Aggressive, Style::Cautious],
];

#[test]
fn the_generals_orders_are_never_refused_on_any_scenario() {
    let mut refused = Vec::new();
    let mut games = 0;
    for name in SCENARIOS {
        for styles in PAIRINGS {
            let m = Matchup::new(name, styles, Default::default(), None).unwrap();
            for i in 0..3 {
                let o = play(&m, BattleSeed::of_run(23, i), &mut |_| {}).unwrap();
                games += 1;
                assert!(
                    o.turns >= 1 && o.turns <= m.turns(),
                    "{name}: {} turns",
                    o.turns
                );
                refused.extend(o.refusals.into_iter().map(|r| {
                    format!(
                        "{name} {styles:?} game {i}, turn {} {}:\n{}",
                        r.turn, r.side, r.diagnostic
                    )
                }));
            }
        }
    }
    assert_eq!(games, 36);
    assert!(
        refused.is_empty(),
        "{} refused:\n{}",
        refused.len(),
        refused.join("\n")
    );
}

#[test]
fn a_simulation_is_reproducible_and_independent_of_the_threads() {
    let m = Matchup::new(
        "vouille",
        [Style::Aggressive, Style::Cautious],
        Default::default(),
        None,
    )
    .unwrap();
    let one = simulate(&m, 5, 6, 1, &|| {}).unwrap();
    let two = simulate(&m, 5, 6, 2, &|| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!(one.json(), two.json());
    let other = simulate(&m, 6, 6, 2, &|| {}).unwrap();
    assert_ne!(
        one.outcomes, other.outcomes,
        "another master seed, other games"
    );
    assert_eq!(one.games, 6);
    assert!(one.text().contains("95% interval"), "{}", one.text());
}

#[test]
fn the_two_styles_play_differently() {
    // The same seeds; the aggressive generals fight more combats, and the
    // cautious keep more of their army.
    let mut attacks = [0.0; 2];
    let mut lost = [0.0; 2];
    for (k, style) in [Style::Cautious, Style::Aggressive].into_iter().enumerate() {
        for name in ["soissons", "vouille"] {
            let m = Matchup::new(name, [style; 2], Default::default(), None).unwrap();
            let s = simulate(&m, 1, 4, 0, &|| {}).unwrap();
            attacks[k] += s.conduct[0].attacks + s.conduct[1].attacks;
            lost[k] += s.average_lost[0] + s.average_lost[1];
        }
    }
    assert!(
        attacks[1] > attacks[0],
        "attacks per game: cautious {} aggressive {}",
        attacks[0],
        attacks[1]
    );
    assert!(
        lost[1] > lost[0],
        "losses per game: cautious {} aggressive {}",
        lost[0],
        lost[1]
    );
}

#[test]
fn a_replay_reproduces_the_simulated_game() {
    let m = Matchup::new(
        "campus-mauriacus",
        [Style::Aggressive, Style::Cautious],
        Default::default(),
        Some(4),
    )
    .unwrap();
    let s = simulate(&m, 9, 2, 2, &|| {}).unwrap();
    let line = &s.outcomes[1];
    let r = replay(&m, line.seed.parse().unwrap()).unwrap();
    assert_eq!(
        r.outcome,
        play(&m, BattleSeed::of_run(9, 1), &mut |_| {}).unwrap()
    );
    assert_eq!(r.outcome.turns, line.turns);
    assert_eq!(
        r.outcome.winner.map(|w| m.sides[w].to_string()),
        line.winner
    );
    assert_eq!(r.turns.first().map(|t| t.number), Some(1));
    assert!(r
        .turns
        .iter()
        .all(|t| t.svg.starts_with("<svg") && t.report.contains("Army morale")));
    let last = r.turns.last().unwrap();
    assert!(
        last.report.contains("The battle ended in turn"),
        "{}",
        last.report
    );
}
