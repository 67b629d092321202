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
    let ended = last.ended.as_deref().expect("the last player-turn ends it");
    assert!(
        ended.starts_with("The battle ended in turn") && last.report.contains(ended),
        "{ended}\n{}",
        last.report
    );
    assert!(r.turns[..r.turns.len() - 1]
        .iter()
        .all(|t| t.ended.is_none()));
}

/// Games of each scenario, the aggressive general on each side in turn.
const AGAINST_HOLD: u64 = 20;

/// Issue 42, "strength you can feel": on every shipped battle, from both
/// sides of the table, the aggressive general beats an army that only
/// holds (writes no orders) and never writes a refused line. The lab's
/// measurement is 400 games (docs/balance.md); this is its tripwire, with
/// floors a little under today's shares at these seeds.
#[test]
fn the_aggressive_general_beats_an_army_that_only_holds() {
    use umpire::sim::Commander;
    let general = Commander::General(Style::Aggressive);
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for name in SCENARIOS {
        for g in 0..2 {
            let mut commanders = [Commander::Hold; 2];
            commanders[g] = general;
            let m = Matchup::new(name, commanders, Default::default(), None).unwrap();
            let s = simulate(&m, 42, AGAINST_HOLD, 0, &|| {}).unwrap();
            let line = format!(
                "{name}, the general with the {}: won {} tied {} lost {}, {} refused",
                m.sides[g],
                s.wins[g].count,
                s.ties.count,
                s.wins[1 - g].count,
                s.refused_orders
            );
            // Soissons with the Franks is still short of 90% over 400
            // games at seed 1 (docs/balance.md: 86.8%, 83.4% over seeds
            // 1-10, since the racing march counts the friends that can
            // still come next to an enemy); these 20 games at seed 42 give
            // 18 wins (19 before, a game of 20 being noise: over 4,000
            // games the change gains 2.2 points), the others' floor.
            let floor = 18;
            if s.refused_orders > 0 || s.wins[g].count < floor {
                failures.push(format!("{line} (at least {floor} wins wanted)"));
            }
            report.push(line);
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The racing march counts the friends that can still come (issue 42):
/// Soissons's last player-turn, the Gallo-Romans 5 points from their
/// threshold, Syagrius's stack (9 points, defence 5) alone in the open
/// and two Salian 3s two hexes off, the rest of both armies gone. Each
/// alone would make 1/2 on it, under the 1/1 the aggressive general
/// comes into contact at; the first goes because the second can still
/// come, and the two attack it together.
#[test]
fn in_its_last_turn_the_aggressive_general_sends_units_together_on_the_enemy_none_could_attack_alone(
) {
    use umpire::games::furor::board::Status;
    use umpire::games::furor::hex::Hex;
    use umpire::games::furor::options::Options;
    use umpire::games::furor::orders::check::check;
    use umpire::games::furor::scenario::shipped;
    use umpire::games::furor::sim::general::player_turn;
    let options = Options::default();
    let mut board = shipped("soissons")
        .unwrap()
        .start(&options, &Default::default(), &"franks".into())
        .unwrap();
    let at = |h: &str| -> Hex { h.parse().unwrap() };
    let place = [
        ("syagrius", "0508"),
        ("legionaries-3", "0508"),
        ("salian-3a", "0708"),
        ("salian-3b", "0709"),
    ];
    // Lost: the Gallo-Roman units worth 9 of their 14; the rest removed.
    let lost = ["legionaries-4", "palatina", "militia-1a"];
    for u in board.units.values_mut() {
        if let Some((_, h)) = place.iter().find(|(id, _)| u.id.as_str() == *id) {
            u.hex = Some(at(h));
        } else if lost.contains(&u.id.as_str()) {
            u.status = Status::Eliminated;
            u.hex = None;
        } else {
            u.status = Status::Removed;
            u.hex = None;
        }
    }
    assert_eq!(board.lost(&"gallo-romans".into()), 9);
    assert!(at("0708").distance(at("0508")) >= 2 && at("0709").distance(at("0508")) >= 2);
    board.turn = board.last_turn.unwrap();
    let text = player_turn(&board, &options, Style::Aggressive);
    assert!(
        text.contains("salian-3a: move ") && text.contains("salian-3b: move "),
        "{text}"
    );
    let attack = text
        .lines()
        .find(|l| l.starts_with("attack legionaries-3 with "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        attack.contains("salian-3a") && attack.contains("salian-3b"),
        "{text}"
    );
    assert!(!check(&text, &"franks".into(), &board, &options).has_errors());
}
