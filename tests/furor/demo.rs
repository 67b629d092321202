//! `umpire demo --game soissons`: Soissons of Furor Barbarus played through
//! the spool by the same driver as the Hyborean ford (and `--game trebia`,
//! FR! Ancients with a game master, at the end). Reports,
//! confirmations and the map land in the outbox, no scripted order line
//! is refused but the deliberate typo, and a mail shows each of Furor's
//! moments (a charge, a retreat chain, a commander overrun).

use crate::common;
use common::body_text;

#[test]
fn the_furor_demo_plays_soissons_through_the_spool() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let summary = umpire::demo::run(&out, "soissons".parse().unwrap(), day()).unwrap();
    assert!(summary.contains("The demo game 'soissons'"), "{summary}");
    for kind in ["report", "confirmation", "refusal", "welcome"] {
        assert!(summary.contains(&format!("e.g. a {kind}: ")), "{summary}");
    }
    let mails: Vec<(String, String)> = std::fs::read_dir(out.join("outbox"))
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    let of = |kind: &str| {
        mails
            .iter()
            .filter(|(n, _)| n.contains(&format!(".{kind}.")))
            .map(|(_, m)| m.clone())
            .collect::<Vec<_>>()
    };
    let reports = of("report");
    assert_eq!(
        reports.len(),
        6 * 3,
        "six rounds reported to two players and the moderator"
    );
    assert!(
        reports.iter().any(|r| r.contains("image/png")),
        "the map is attached"
    );
    let texts: Vec<String> = reports.iter().map(|r| body_text(r)).collect();
    assert!(texts
        .iter()
        .any(|r| r.contains("Set-up of the gallo-romans")));
    assert!(
        texts
            .iter()
            .any(|r| r.contains("gallo-romans sent no orders")),
        "the missed round is played at its deadline"
    );
    // Every confirmation takes every line, but the one with the typo.
    let refused: Vec<String> = of("confirmation")
        .iter()
        .map(|raw| body_text(raw))
        .filter(|c| {
            c.lines().any(|l| {
                l.split(' ')
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n > 0))
                    && (l.contains("line not taken") || l.contains("lines not taken"))
            })
        })
        .collect();
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(refused[0].contains("did you mean"), "{}", refused[0]);
    // Furor Barbarus' own moments, each found in a mail the summary names.
    common::demo_shows(
        &out,
        umpire::demo::Game::Soissons,
        &summary,
        &["a charge", "a retreat chain", "a commander overrun"],
    );
    assert!(
        umpire::demo::run(&out, umpire::demo::Game::Soissons, day()).is_err(),
        "the folder must be fresh"
    );
}

/// `umpire demo --game trebia`: the whole Trebia (FR! Ancients) judged by
/// the house pack, its orders written by the order writer, to its named
/// result; then, without a pack, a deployment round and the first turn, the
/// moderator answering as game master by mail once he has given his values.
#[test]
fn the_trebia_demo_plays_the_battle_to_its_result_then_a_turn_with_a_game_master() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let began = std::time::Instant::now();
    let summary = umpire::demo::run(&out, "trebia".parse().unwrap(), day()).unwrap();
    eprintln!("the Trebia demo took {:?}", began.elapsed());
    assert!(
        summary.contains("The demo game 'trebia-house'")
            && summary.contains("The demo game 'trebia'"),
        "{summary}"
    );
    common::demo_shows(
        &out,
        umpire::demo::Game::Trebia,
        &summary,
        &[
            "a charge",
            "missile fire",
            "a melee",
            "a rally or fear test",
            "a unit destroyed or routed",
            "the morale clock",
            "the result and its reason",
            "a situation for the game master",
            "the game master's mistyped answer refused",
        ],
    );
    let mails: Vec<String> = std::fs::read_dir(out.join("outbox"))
        .unwrap()
        .flatten()
        .map(|e| body_text(&std::fs::read_to_string(e.path()).unwrap()))
        .collect();
    let to_gm = mails
        .iter()
        .filter(|m| m.contains("You are the game master"))
        .count();
    assert!(to_gm >= 1, "{to_gm} situations");
    assert_eq!(
        mails
            .iter()
            .filter(|m| m.contains("not an answer I can read"))
            .count(),
        1,
        "the mistyped answer is refused once"
    );
    let reports: Vec<&String> = mails
        .iter()
        .filter(|m| m.contains("No pack: the game master resolves the base rules."))
        .collect();
    assert_eq!(
        reports.len(),
        2 * 3,
        "two phases, to two players and the moderator"
    );
    assert!(reports.iter().any(|r| r.contains("End of turn 1, phase 2")));
    // Issue 41's pace, the game master having given his values (VALUES, in
    // the deployment round): the turn's phases ask him, Rome's (an advance)
    // nothing, Carthage's (a charge and its melee: contact) at most two
    // situations (measured: one, the melee).
    let mut phases: Vec<(String, u32, bool)> = reports
        .iter()
        .map(|r| {
            let contact = r.lines().any(|l| l.starts_with("Melee of "))
                && r.lines().any(|l| l.contains(" charges "));
            (phase_of(r), situations(r), contact)
        })
        .collect();
    phases.sort();
    phases.dedup();
    eprintln!("the game master's situations, phase by phase: {phases:?}");
    let [(carthage, asked, contact), rome] = &phases[..] else {
        panic!("two phases: {phases:?}");
    };
    assert_eq!(rome, &("turn 1, Rome's phase".into(), 0, false));
    assert!(
        carthage == "turn 1, Carthage's phase" && *contact && (1..=2).contains(asked),
        "{phases:?}"
    );
    let house: Vec<&String> = mails
        .iter()
        .filter(|m| m.contains("umpire house rules — not Chipco's Fantasy Rules!"))
        .collect();
    assert!(
        house
            .iter()
            .any(|m| m.contains("has won the battle.") || m.contains("The battle is a draw.")),
        "the house battle ends with a named result"
    );
    assert!(
        house.iter().all(|m| !m.contains("You are the game master")),
        "a whole pack asks no game master"
    );
    assert!(
        mails
            .iter()
            .all(|m| !m.contains("Nothing was taken") && !m.contains("could not be played")),
        "no scripted mail is lost"
    );
}

/// "turn 2, Rome's phase": the phase a report is of.
fn phase_of(report: &str) -> String {
    report
        .lines()
        .find_map(|l| l.split(" — report of ").nth(1))
        .unwrap_or_default()
        .to_string()
}

/// How many situations the game master answered in a report's phase.
fn situations(report: &str) -> u32 {
    report
        .lines()
        .find_map(|l| l.strip_prefix("The game master answered "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// The day the demo is run on in these tests: fixed, never the wall clock.
fn day() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 12, 1).unwrap()
}
