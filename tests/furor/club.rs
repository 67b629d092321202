//! A club that owns the game plays with its real counters and map
//! (rulings FB-21, FB-22): a copy of the Soissons scenario with every
//! counter's values typed in and nothing left `reconstructed`, beside a
//! copy of the map marked `club-supplied` with a wood on it. The game is
//! made from those files (as `umpire game new` makes it), its counters are
//! the club's, its welcome names only the combat table's rows as
//! reconstructed, and its report marks no counter and no map; the shipped
//! files, played the same way, are marked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use umpire::dice::SeededDice;
use umpire::games::{named, Json, NewGame, Resolved, RoundInput, Ruleset, Setup};
use umpire::post::gamefile::read_companions;

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// The shipped Soissons scenario with the club's counters: every value
/// typed in (movement 5, range 2, reduced sides at half, the Palatina
/// worth 5), `reconstructed` emptied.
fn club_scenario() -> String {
    let text =
        std::fs::read_to_string(repo("campaigns/furor-barbarus/scenarios/soissons.toml")).unwrap();
    let mut file: toml::Table = toml::from_str(&text).unwrap();
    let counters = file["counter"].as_array_mut().unwrap();
    for c in counters.iter_mut() {
        let c = c.as_table_mut().unwrap();
        let kind = c["kind"].as_str().unwrap().to_string();
        let strength = c["strength"].as_integer().unwrap();
        c.insert("reconstructed".into(), toml::Value::Array(Vec::new()));
        c.insert("mp".into(), 5.into());
        if kind.starts_with("missile") {
            c.insert("range".into(), 2.into());
        }
        let combat = kind != "commander" && kind != "baggage";
        if combat && strength >= 2 {
            c.insert("reduced".into(), (strength / 2).into());
        }
        if c["id"].as_str() == Some("palatina") {
            c.insert("strength".into(), 5.into());
            c.insert("reduced".into(), 3.into());
        }
    }
    toml::to_string(&file).unwrap()
}

/// The shipped map, the club's: `club-supplied`, a wood in 0607.
fn club_map() -> String {
    let text =
        std::fs::read_to_string(repo("campaigns/furor-barbarus/maps/clovis-battles.toml")).unwrap();
    let text = text
        .replace("status = \"reconstructed\"", "status = \"club-supplied\"")
        .replace(
            "name = \"The Clovis battles (reconstructed: open field, terrain unknown)\"",
            "name = \"The Clovis battles (our club's map)\"",
        );
    assert!(text.contains("club-supplied"));
    // [[hex]] tables must come before the [scenario.*] ones.
    let (head, overlays) = text.split_once("[scenario.soissons]").unwrap();
    format!("{head}[[hex]]\nid = \"0607\"\nterrain = \"woods\"\n\n[scenario.soissons]{overlays}")
}

fn new_game(scenario: &Path) -> NewGame {
    let text = std::fs::read_to_string(scenario).unwrap();
    let r = named("furor-barbarus").unwrap();
    let companions = read_companions(scenario, &r.companions(&text));
    r.new_game(&Setup {
        scenario_path: scenario,
        scenario_text: &text,
        options: &toml::Table::new(),
        max_turns: 6,
        seed: [5; 32],
        armies: &Default::default(),
        pack: None,
        companions: &companions,
    })
    .unwrap()
}

fn play(
    r: &dyn Ruleset,
    state: &Json,
    options: &Json,
    sheets: &[(&str, &str)],
    seed: u8,
) -> Resolved {
    let mut orders = BTreeMap::new();
    for (side, sheet) in sheets {
        let c = r.check_orders(state, side, sheet, &[]).unwrap();
        assert_eq!(c.errors, 0, "{}", c.confirmation);
        orders.insert(side.to_string(), c.orders);
    }
    r.resolve(RoundInput {
        state,
        options,
        setup: "",
        last_turn: 6,
        orders: &orders,
        dice: &mut SeededDice::new([seed; 32]),
    })
    .unwrap()
}

/// The Franks' first player-turn after both set-ups as listed: Salian 4a
/// attacks the Legionaries in 0507 with Clovis.
fn first_report(g: &NewGame, seed: u8) -> String {
    let r = named("furor-barbarus").unwrap();
    let o = &g.options;
    let s = play(r, &g.state, o, &[], seed).state;
    let s = play(r, &s, o, &[], seed).state;
    let played = play(
        r,
        &s,
        o,
        &[(
            "franks",
            "salian-4a: move 0706 0606\nclovis: move 0706 0606\nattack legionaries-4 with salian-4a\n",
        )],
        seed,
    );
    played
        .sections
        .iter()
        .map(|s| format!("{}\n{}\n", s.title, s.lines.join("\n")))
        .collect()
}

#[test]
fn a_club_plays_its_own_counters_and_map_and_the_reports_mark_only_the_combat_table() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scenarios")).unwrap();
    std::fs::create_dir_all(dir.path().join("maps")).unwrap();
    let scenario = dir.path().join("scenarios/soissons.toml");
    std::fs::write(&scenario, club_scenario()).unwrap();
    std::fs::write(dir.path().join("maps/clovis-battles.toml"), club_map()).unwrap();
    let club = new_game(&scenario);

    // The club's values are the game's.
    let briefing = &club.welcome["gallo-romans"].briefing;
    assert!(
        briefing.contains("palatina: Palatina, infantry, strength 5, 5 MP"),
        "{briefing}"
    );
    assert!(
        briefing.contains("legionaries-4: Legionaries, infantry, strength 4, 5 MP"),
        "{briefing}"
    );
    // Only the combat table's rows stay reconstructed.
    assert!(
        briefing.contains("reconstructions of rows 4-6 of the combat table (R7)."),
        "{briefing}"
    );
    assert!(!briefing.contains("R5"), "{briefing}");
    assert!(!briefing.contains("reconstructed map"), "{briefing}");
    let shipped = new_game(&repo("campaigns/furor-barbarus/scenarios/soissons.toml"));
    let shipped_briefing = &shipped.welcome["gallo-romans"].briefing;
    assert!(
        shipped_briefing.contains("every counter's movement points (R5)")
            && shipped_briefing.contains("on a reconstructed map"),
        "{shipped_briefing}"
    );

    // The same turn under several seeds: the club's report marks at most
    // the combat table, never a counter or the map; the shipped one marks
    // the Legionaries' strength and says the map is reconstructed.
    let mut rows = 0;
    for seed in 1..=20 {
        let report = first_report(&club, seed);
        assert!(report.contains("Combat 1 on Legionaries"), "{report}");
        for word in [
            "reconstructed strength",
            "movement points of",
            "ranges of",
            "reconstructed map",
        ] {
            assert!(!report.contains(word), "{word}:\n{report}");
        }
        if report.contains("Read on combat-table row") {
            rows += 1;
            assert!(report.contains(" [1]"), "{report}");
        }
        let report = first_report(&shipped, seed);
        assert!(
            report
                .lines()
                .any(|l| l.contains("Rests on reconstructed strengths")
                    && l.contains("Legionaries (legionaries-4)")),
            "{report}"
        );
        assert!(report.contains("on a reconstructed map"), "{report}");
    }
    assert!(
        rows > 0,
        "no seed read row 4-6: the test shows nothing of R7"
    );
}

#[test]
fn help_reconstructed_answers_with_the_guide_s_section_on_it() {
    let guide = named("furor-barbarus").unwrap().guide();
    let section = umpire::report::guide::topic(guide, "reconstructed").unwrap();
    assert!(section.contains("rows 4-6"), "{section}");
    assert!(section.contains("status = \"club-supplied\""), "{section}");
}
