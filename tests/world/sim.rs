//! The balance lab as a whole: the generals' orders are never refused,
//! a simulation is reproducible from its master seed whatever the number
//! of threads, a replay is the battle the simulation played, and the
//! fairness table is consistent with itself.

use proptest::prelude::*;
use std::path::Path;
use umpire::games::hyborian::army::ArmyFile;
use umpire::games::hyborian::sim::battle::play;
use umpire::games::hyborian::sim::cli::{run, Request};
use umpire::games::hyborian::sim::fairness::{tournament, Tournament};
use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
use umpire::games::hyborian::sim::general::Style;
use umpire::games::hyborian::sim::replay::replay;
use umpire::games::hyborian::sim::seed::BattleSeed;
use umpire::games::hyborian::sim::simulate::simulate;
use umpire::games::hyborian::sim::stats::Proportion;

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

/// An example army file: these bring heroes, superheroes and wizards,
/// which the proposer's armies lack.
fn army_file(name: &str, style: Style) -> Contender {
    let path = repo(&format!("campaigns/armies/{name}.toml"));
    let text = std::fs::read_to_string(&path).unwrap();
    Contender::with_army(name, ArmyFile::from_toml(&path, &text).unwrap(), style)
}

const NATIONS: [&str; 12] = [
    "Aquilonia",
    "Brythunia",
    "Hill Tribes",
    "Hyrkania",
    "Khauran and Khoraja",
    "Koth",
    "Kozaki",
    "Nemedia",
    "Pictland",
    "Stygia",
    "Vendhya",
    "Zingara",
];

const FILES: [&str; 6] = [
    "stygia-1500",
    "pictland-1500",
    "nemedia-valkia",
    "aquilonia-valkia",
    "turan-1500",
    "aquilonia-1500",
];

fn style(aggressive: bool) -> Style {
    if aggressive {
        Style::Aggressive
    } else {
        Style::Cautious
    }
}

proptest! {
    // Each case is a whole battle of up to 12 turns: few cases in debug builds.
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Proposed armies of many nations (chariots, mammoths, horse archers,
    /// pikes, light foot) on cards drawn by the seed.
    #[test]
    fn generals_orders_are_never_refused(
        a in 0..NATIONS.len(), b in 0..NATIONS.len(),
        sa in any::<bool>(), sb in any::<bool>(),
        points in prop::sample::select(vec![500u32, 1000]),
        master in any::<u64>(),
    ) {
        let m = Matchup::new(
            [Contender::proposed(NATIONS[a], points, style(sa)).unwrap(), Contender::proposed(NATIONS[b], points, style(sb)).unwrap()],
            Field::Card(None),
            Default::default(),
            None,
        ).unwrap();
        let o = play(&m, BattleSeed::of_run(master, 0), &mut |_| {}).unwrap();
        prop_assert!(o.refusals.is_empty(), "{:#?}", o.refusals);
        prop_assert!(o.turns >= 1 && o.turns <= 12);
    }

    /// Army files with commanders, heroes, superheroes and wizards.
    #[test]
    fn leaders_and_wizards_orders_are_never_refused(
        a in 0..FILES.len(), b in 0..FILES.len(), sa in any::<bool>(), sb in any::<bool>(), master in any::<u64>(),
    ) {
        let m = Matchup::new([army_file(FILES[a], style(sa)), army_file(FILES[b], style(sb))], Field::Card(None), Default::default(), Some(8)).unwrap();
        let o = play(&m, BattleSeed::of_run(master, 1), &mut |_| {}).unwrap();
        prop_assert!(o.refusals.is_empty(), "{:#?}", o.refusals);
    }
}

#[test]
fn scenarios_with_their_own_armies_and_a_deployment_turn_play_cleanly() {
    for (file, turns) in [
        ("border-raid", 8),
        ("river-crossing", 12),
        ("the-marches-of-the-east", 11),
        ("valkia", 12),
    ] {
        let text =
            std::fs::read_to_string(repo(&format!("campaigns/scenarios/{file}.toml"))).unwrap();
        for (k, (sa, sb)) in [
            (Style::Cautious, Style::Aggressive),
            (Style::Aggressive, Style::Cautious),
        ]
        .into_iter()
        .enumerate()
        {
            let c = |s| Contender::scenario_side(file, s);
            let m = Matchup::new(
                [c(sa), c(sb)],
                Field::Scenario(text.clone()),
                Default::default(),
                None,
            )
            .unwrap();
            let o = play(&m, BattleSeed::of_run(5, k as u64), &mut |_| {}).unwrap();
            assert!(o.refusals.is_empty(), "{file}: {:#?}", o.refusals);
            assert!(o.turns <= turns, "{file}: {} turns", o.turns);
        }
    }
}

fn small_matchup() -> Matchup {
    let a = Contender::proposed("Aquilonia", 300, Style::Cautious).unwrap();
    let b = Contender::proposed("Koth", 300, Style::Aggressive).unwrap();
    Matchup::new([a, b], Field::Card(None), Default::default(), None).unwrap()
}

#[test]
fn a_simulation_is_reproducible_from_its_master_seed_on_any_number_of_threads() {
    let m = small_matchup();
    let one = simulate(&m, 11, 12, 1, &|| {}).unwrap();
    let two = simulate(&m, 11, 12, 2, &|| {}).unwrap();
    let again = simulate(&m, 11, 12, 3, &|| {}).unwrap();
    assert_eq!(one, two);
    assert_eq!(one, again);
    assert_eq!(one.text(), two.text());
    assert_eq!(one.json(), two.json());
    let other = simulate(&m, 12, 12, 2, &|| {}).unwrap();
    assert_ne!(
        one.outcomes.iter().map(|o| &o.seed).collect::<Vec<_>>(),
        other.outcomes.iter().map(|o| &o.seed).collect::<Vec<_>>()
    );
    // The counts and their intervals are those of the battles listed.
    let wins = one
        .outcomes
        .iter()
        .filter(|o| o.winner.as_deref() == Some("Aquilonia 300"))
        .count() as u64;
    assert_eq!(one.wins[0].count, wins);
    let (lo, hi) = Proportion::new(wins, 12).interval();
    assert_eq!((one.wins[0].low, one.wins[0].high), (lo, hi));
    assert_eq!(one.wins[0].count + one.wins[1].count + one.draws.count, 12);
}

#[test]
fn a_replay_is_the_battle_the_simulation_played() {
    let m = small_matchup();
    let s = simulate(&m, 3, 4, 2, &|| {}).unwrap();
    for line in &s.outcomes {
        let r = replay(&m, line.seed.parse().unwrap()).unwrap();
        assert_eq!(r.outcome.turns, line.turns);
        assert_eq!(
            r.outcome.winner.map(|w| m.contenders[w].label.clone()),
            line.winner
        );
        assert_eq!(r.turns.len() as u32, line.turns);
        let last = r.turns.last().unwrap();
        assert!(last.report.ended);
        assert!(last.svg.starts_with("<svg"));
        assert!(last.orders[0].contains("The umpire understood:"));
    }
}

#[test]
fn the_fairness_table_agrees_with_itself_and_is_reproducible() {
    let t = Tournament {
        nations: vec!["Koth".into(), "Zamora".into(), "Stygia".into()],
        per_pairing: 4,
        turns: Some(6),
        master: 2,
        ..Tournament::new(300)
    };
    let f = tournament(&t, &|| {}).unwrap();
    assert_eq!(f.battles, 12);
    assert_eq!(f.refused_orders, 0);
    for i in 0..3 {
        assert!(f.cell(i, i).is_none());
        for j in (0..3).filter(|j| *j != i) {
            let (a, b) = (f.cell(i, j).unwrap(), f.cell(j, i).unwrap());
            assert_eq!((a.wins, a.draws, a.losses), (b.losses, b.draws, b.wins));
            assert_eq!(a.battles, 4);
        }
        let r = &f.entries[i].record;
        assert_eq!(r.battles, 8, "each nation meets two others, 4 battles each");
    }
    assert_eq!(
        f,
        tournament(
            &Tournament {
                threads: 1,
                ..t.clone()
            },
            &|| {}
        )
        .unwrap()
    );
    assert_eq!(f.csv().lines().count(), 1 + 6);
    // Any battle of the table replays from the seed and style it lists.
    assert_eq!(f.played.len(), 12);
    for b in [&f.played[0], &f.played[5], &f.played[11]] {
        let style: Style = b.style.parse().unwrap();
        let c = |n: &str| {
            Contender::with_army(
                n,
                umpire::games::hyborian::army::propose(n, 300).unwrap(),
                style,
            )
        };
        let m = Matchup::new(
            [c(&b.nation), c(&b.opponent)],
            Field::Card(None),
            Default::default(),
            Some(6),
        )
        .unwrap();
        let r = replay(&m, b.seed.parse().unwrap()).unwrap();
        assert_eq!(
            r.outcome.winner.map(|w| m.contenders[w].label.clone()),
            b.winner
        );
        assert_eq!(r.outcome.turns, b.turns);
    }
    assert!(f.svg().contains("Stygia"));
    assert!(umpire::report::picture::png(&f.svg())
        .unwrap()
        .starts_with(b"\x89PNG"));
}

#[test]
fn the_command_replays_a_battle_to_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let req = Request {
        armies: vec!["Koth".into(), repo("campaigns/armies/koth-300.toml")],
        points: 300,
        battles: Some(2),
        seed: 4,
        styles: vec![Style::Aggressive.into()],
        scenario: None,
        card: Some(77),
        turns: Some(3),
        options: None,
        threads: 1,
        json: true,
        replay: None,
        fairness: false,
        nations: Vec::new(),
        out: Some(dir.path().to_path_buf()),
    };
    let (json, code) = run(&req).unwrap();
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let seed = v["outcomes"][1]["seed"].as_str().unwrap().to_string();
    assert_eq!(v["battles"], 2);
    let (text, code) = run(&Request {
        replay: Some(seed.clone()),
        json: false,
        ..req.clone()
    })
    .unwrap();
    assert_eq!(code, 0);
    assert!(text.contains(&seed), "{text}");
    for f in [
        "index.html",
        "turn-01.txt",
        "turn-01.html",
        "turn-01.svg",
        "turn-01.png",
        "orders-01.txt",
    ] {
        assert!(dir.path().join(f).is_file(), "{f}");
    }
    let err = run(&Request {
        armies: vec!["Koth".into()],
        ..req.clone()
    })
    .unwrap_err();
    assert!(err.to_string().contains("name two armies"), "{err}");
    let err = run(&Request {
        replay: Some("12ab".into()),
        ..req
    })
    .unwrap_err();
    assert!(err.to_string().contains("not a battle seed"), "{err}");
}

/// Battles of each scenario, the aggressive general on each side in turn.
const AGAINST_HOLD: u64 = 20;

/// Issue 42, "strength you can feel": on every shipped scenario, from both
/// sides of the table, the aggressive general beats a side that only holds
/// (writes no orders) and never writes a refused order. The lab's
/// measurement is 400 battles (docs/balance.md); this is its tripwire, with
/// floors a little under today's wins at these seeds.
///
/// Today it falls short of the 90% in one place, asserted as it
/// stands (docs/balance.md says why): at the Ford of the Tybor the
/// Nemedian general crosses by the ford but one unit at a time, into the
/// Bossonian Archers facing it (Nemedia wins 1 in 20 and loses most).
/// With Aquilonia the general now crosses archers first, then the fast
/// before the slow, and wins 19 of these 20.
#[test]
fn the_aggressive_general_beats_a_side_that_only_holds() {
    use umpire::sim::Commander;
    // Wins of 20 wanted, the general with the scenario's first side, then its second.
    const FLOORS: [(&str, [u64; 2]); 4] = [
        ("border-raid", [18, 18]),
        ("river-crossing", [18, 1]),
        ("the-marches-of-the-east", [18, 18]),
        ("valkia", [18, 18]),
    ];
    let general = Commander::General(Style::Aggressive);
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (file, floors) in FLOORS {
        let text =
            std::fs::read_to_string(repo(&format!("campaigns/scenarios/{file}.toml"))).unwrap();
        for g in 0..2 {
            let mut commanders = [Commander::Hold; 2];
            commanders[g] = general;
            let m = Matchup::new(
                commanders.map(|c| Contender::scenario_side(file, c)),
                Field::Scenario(text.clone()),
                Default::default(),
                None,
            )
            .unwrap();
            let s = simulate(&m, 42, AGAINST_HOLD, 0, &|| {}).unwrap();
            let line = format!(
                "{file}, the general with {}: won {} drew {} lost {}, {} refused",
                m.sides()[g],
                s.wins[g].count,
                s.draws.count,
                s.wins[1 - g].count,
                s.refused_orders
            );
            let floor = floors[g];
            if s.refused_orders > 0 || s.wins[g].count < floor {
                failures.push(format!("{line} (at least {floor} wins wanted)"));
            }
            report.push(line);
        }
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
