//! Games against the umpire's general (issue 42): the shipped solo game
//! files played to their end by mail, one side a player's mails and the
//! other the general, every round replayed by `umpire verify`; the
//! general as an absent player's stand-in; a side handed to the general
//! and back to a player.

use crate::common::*;
use chrono::Duration;
use umpire::games::{self, Ruleset};
use umpire::post::gamefile::GameFile;
use umpire::post::PostOffice;
use umpire::sim::Style;

const ME: &str = "me@club.example";
const MINE: &str = "mine1";

/// The shipped solo game file `file` (under campaigns/), with this test's
/// player, password and a fixed first deadline, written into `dir` and made.
fn solo(dir: &std::path::Path, file: &str) -> (PostOffice, GameFile) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let parent = path.parent().unwrap().display().to_string();
    let text = text
        .replace("\"../", &format!("\"{parent}/../"))
        .replace(
            "address = \"you@club.example\"",
            &format!("address = \"{ME}\"\npassword = \"{MINE}\""),
        )
        .replace(
            "address = \"moderator@club.example\"",
            &format!("address = \"{MODERATOR}\"\npassword = \"modpw\""),
        );
    let text = fixed_first_deadline(&text);
    let written = dir.join("solo.toml");
    std::fs::write(&written, text).unwrap();
    let file = GameFile::load(&written).unwrap();
    let mut po = PostOffice::open(config(dir)).unwrap();
    po.create_game(&file, t0()).unwrap();
    (po, file)
}

/// The game file's first deadline as a fixed time, so the test's clock
/// (which starts at `t0`) stays before every deadline.
fn fixed_first_deadline(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("first_deadline") {
                "first_deadline = \"2026-12-03 20:00\"".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ended(dir: &std::path::Path, id: &str) -> bool {
    count_in(
        dir,
        &format!("SELECT COUNT(*) FROM games WHERE id = '{id}' AND status = 'ended'"),
    ) == 1
}

/// Play the game to its end: each round the player writes in, his mail
/// carries the orders a cautious general would give his side (read,
/// checked and stored as any mail). Returns the rounds played.
fn play_out(po: &mut PostOffice, dir: &std::path::Path, file: &GameFile) -> u32 {
    let ruleset: &dyn Ruleset = games::named(&file.ruleset).unwrap();
    let me = &file.sides.iter().find(|s| s.general.is_none()).unwrap().id;
    let mut now = t0();
    for n in 0..200 {
        if ended(dir, &file.id) {
            let (_, state) = po.state_of(&file.id).unwrap();
            return ruleset.round(&state).map_or(0, |r| r.number);
        }
        let (_, state) = po.state_of(&file.id).unwrap();
        let round = ruleset.round(&state).unwrap();
        assert!(
            round.writers.contains(me),
            "a round only the general writes is played at once: {}",
            round.label
        );
        let setup = po.setup_of(&file.id).unwrap();
        let mut orders = ruleset
            .general_orders(&setup, &state, me, Style::Cautious)
            .unwrap();
        if orders.is_empty() {
            // Nothing to order (the layout stands, the line holds): ready.
            orders = "READY\n".into();
        }
        // The header's words for the round (FR! counts game turns).
        let (_, turn) = ruleset.header_turn(&state, 0, None).unwrap();
        let body = format!(
            "GAME {} SIDE {me} PASSWORD {MINE} {turn}\n{orders}END\n",
            file.id
        );
        now += Duration::minutes(5);
        po.accept(&mail(ME, &format!("m{n}@me"), &body), "test", now)
            .unwrap();
    }
    let last: Vec<String> = outbox(po)
        .into_iter()
        .rev()
        .take(3)
        .map(|(k, to, raw)| format!("{k} {to}: {}", body_text(&raw)))
        .collect();
    panic!(
        "{} did not end in 200 of the player's mails: {last:#?}",
        file.id
    );
}

/// Whole games, checked the same way for both rule sets.
fn a_whole_game_against_the_general(file: &str, general: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (mut po, game) = solo(dir.path(), file);
    let welcome = outbox(&po)
        .into_iter()
        .find(|(k, to, _)| k == "welcome" && to == ME)
        .map(|(_, _, raw)| body_text(&raw))
        .unwrap();
    assert!(
        welcome.contains(&format!(
            "{general} is played by the umpire's aggressive general, who advances at once"
        )),
        "{welcome}"
    );
    let played = play_out(&mut po, dir.path(), &game);
    assert!(played >= 2, "{file}: {played} rounds");
    // The general is mailed nothing; the player gets every report.
    let out = outbox(&po);
    assert!(out
        .iter()
        .all(|(_, to, _)| !to.is_empty() && !to.split(',').any(str::is_empty)));
    let reports: Vec<String> = out
        .iter()
        .filter(|(k, to, _)| k == "report" && to == ME)
        .map(|(_, _, raw)| body_text(raw))
        .collect();
    assert!(!reports.is_empty());
    let heading = format!("{general} (the umpire's aggressive general):");
    assert!(
        reports.iter().any(|r| r.contains(&heading)),
        "the general's orders stand among the orders given: {}",
        reports.last().unwrap()
    );
    let last = reports.last().unwrap();
    let result = last
        .lines()
        .find(|l| l.starts_with("The battle is over"))
        .unwrap_or_else(|| panic!("the last report names the result: {last}"));
    eprintln!("{file}: {played} rounds; {result}");
    // Every round replays from the stored orders and seed.
    let mut checked = 0;
    for round in 1..played {
        match umpire::post::verify_turn(&mut po, &game.id, round) {
            Ok((text, ok)) => {
                assert!(ok, "round {round}: {text}");
                checked += 1;
            }
            Err(e) => panic!("round {round}: {e}"),
        }
    }
    assert!(checked >= 2);
    assert_eq!(every_bundle_verifies(&po, ME), reports.len());
}

#[test]
fn the_ford_played_to_its_end_against_the_general() {
    a_whole_game_against_the_general("solo/river-crossing.toml", "nemedia");
}

#[test]
fn the_trebia_played_to_its_end_against_the_general() {
    a_whole_game_against_the_general("fr-ancients/solo/trebia.toml", "carthage");
}

#[test]
fn vouille_played_to_its_end_against_the_general() {
    a_whole_game_against_the_general("furor-barbarus/solo/vouille.toml", "visigoths");
}

/// The ford, whose file says what a turn due while a player is away does.
fn ford_with(dir: &std::path::Path, extra: &str) -> PostOffice {
    let path = game_file(dir);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("{text}\n{extra}\n")).unwrap();
    let mut po = PostOffice::open(config(dir)).unwrap();
    po.create_game(&GameFile::load(&path).unwrap(), t0())
        .unwrap();
    po
}

fn reports_to(po: &PostOffice, to: &str) -> Vec<String> {
    outbox(po)
        .into_iter()
        .filter(|(k, r, _)| k == "report" && r == to)
        .map(|(_, _, raw)| body_text(&raw))
        .collect()
}

fn last_to(po: &PostOffice, to: &str) -> String {
    outbox(po)
        .into_iter()
        .rev()
        .find(|(_, r, _)| r.split(',').any(|a| a == to))
        .map(|(_, _, raw)| body_text(&raw))
        .expect("a mail")
}

const NEMEDIA_ORDERS: &str =
    "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 hold\nEND\n";

#[test]
fn an_absent_players_turn_is_played_by_the_general() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford_with(dir.path(), "[absence]\nwhen = \"general\"\n");
    po.accept(
        &mail(
            CONAN,
            "away@c",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nABSENT FROM 2026-12-01 TO 2026-12-06\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let answer = last_to(&po, CONAN);
    assert!(
        answer.contains("is played for you by the umpire's cautious general"),
        "{answer}"
    );
    // The next tick finds Conan away without orders: the general writes.
    po.tick(t0() + Duration::minutes(1)).unwrap();
    assert_eq!(
        count_in(
            dir.path(),
            "SELECT COUNT(*) FROM submissions WHERE side = 'aquilonia' AND message IS NULL"
        ),
        1
    );
    // Tarascus's orders complete the turn: it is played at once.
    po.accept(
        &mail(TARASCUS, "n1@t", NEMEDIA_ORDERS),
        "test",
        t0() + Duration::minutes(2),
    )
    .unwrap();
    let report = reports_to(&po, TARASCUS).pop().expect("turn 1 is played");
    assert!(
        report.contains("aquilonia (the umpire's general, for its player away):"),
        "{report}"
    );
    let (text, ok) = umpire::post::verify_turn(&mut po, "ford", 1).unwrap();
    assert!(ok, "{text}");
}

#[test]
fn a_side_handed_to_the_general_and_back_to_a_player() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford_with(dir.path(), "");
    let moderator = |body: &str| format!("MODERATOR ford PASSWORD modpw\n{body}\n");
    po.accept(
        &mail(
            MODERATOR,
            "r1@m",
            &moderator("REPLACE nemedia GENERAL cautious"),
        ),
        "test",
        t0(),
    )
    .unwrap();
    let answer = last_to(&po, MODERATOR);
    assert!(
        answer.contains("side nemedia is now played by the umpire's cautious general"),
        "{answer}"
    );
    assert!(last_to(&po, TARASCUS).contains("handed side nemedia to the umpire's cautious general"));
    assert!(last_to(&po, CONAN)
        .contains("Side nemedia is now played by the umpire's cautious general."));
    // The general wrote nemedia's orders for the open turn at once; Conan's
    // orders complete it.
    po.accept(
        &mail(
            CONAN,
            "c1@c",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 hold\nEND\n",
        ),
        "test",
        t0() + Duration::minutes(1),
    )
    .unwrap();
    let report = reports_to(&po, CONAN).pop().expect("turn 1 is played");
    assert!(
        report.contains("nemedia (the umpire's cautious general):"),
        "{report}"
    );
    assert!(
        reports_to(&po, TARASCUS).is_empty(),
        "the old player is mailed no report"
    );
    // A style the umpire has not is answered, and nothing changes.
    po.accept(
        &mail(
            MODERATOR,
            "r2@m",
            &moderator("REPLACE nemedia GENERAL bold"),
        ),
        "test",
        t0() + Duration::minutes(2),
    )
    .unwrap();
    assert!(last_to(&po, MODERATOR).contains("unknown general 'bold'"));
    // Back to a player, with a fresh password: the general's orders for
    // the open turn stand, but the turn waits for the new player.
    const NEW: &str = "new@club.example";
    po.accept(
        &mail(
            MODERATOR,
            "r3@m",
            &moderator(&format!("REPLACE nemedia {NEW}")),
        ),
        "test",
        t0() + Duration::minutes(3),
    )
    .unwrap();
    let welcome = outbox(&po)
        .into_iter()
        .filter(|(k, r, _)| k == "welcome" && r == NEW)
        .map(|(_, _, raw)| body_text(&raw))
        .next()
        .expect("the new player's password");
    let password = welcome
        .lines()
        .find_map(|l| l.split("PASSWORD ").nth(1))
        .map(|p| p.split_whitespace().next().unwrap().to_string())
        .unwrap_or_else(|| panic!("{welcome}"));
    assert!(last_to(&po, CONAN).contains("Side nemedia is now played by a player."));
    po.accept(
        &mail(
            CONAN,
            "c2@c",
            "GAME ford SIDE aquilonia PASSWORD dragon7 TURN 2\nBlack Dragons: phase 1 hold\nEND\n",
        ),
        "test",
        t0() + Duration::minutes(4),
    )
    .unwrap();
    assert_eq!(
        reports_to(&po, CONAN).len(),
        1,
        "turn 2 waits for the new player"
    );
    po.accept(
        &mail(
            NEW,
            "n2@n",
            &format!("GAME ford SIDE nemedia PASSWORD {password} TURN 2\nNemedian Knights: phase 1 hold\nEND\n"),
        ),
        "test",
        t0() + Duration::minutes(5),
    )
    .unwrap();
    assert_eq!(reports_to(&po, CONAN).len(), 2);
    assert_eq!(reports_to(&po, NEW).len(), 1);
}

#[test]
fn a_game_of_fr_ancients_without_a_pack_is_refused_a_general_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/fr-ancients/games");
    let game = root.join("trebia.toml");
    let text = std::fs::read_to_string(&game).unwrap();
    // The last side's player becomes a general.
    let at = text.rfind("address = ").unwrap();
    let end = at + text[at..].find('\n').unwrap();
    let text = format!("{}general = \"aggressive\"{}", &text[..at], &text[end..]);
    let text = text.replace("\"../", &format!("\"{}/../", root.display()));
    let text = fixed_first_deadline(&text);
    let path = dir.path().join("fr.toml");
    std::fs::write(&path, text).unwrap();
    let file = GameFile::load(&path).unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    let e = po.create_game(&file, t0()).unwrap_err().to_string();
    assert!(
        e.contains("the umpire's general plays FR! Ancients only with a pack"),
        "{e}"
    );
}

#[test]
fn every_solo_game_file_makes_a_game_whose_general_has_written() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns");
    let mut made = 0;
    for folder in ["solo", "furor-barbarus/solo", "fr-ancients/solo"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let dir = tempfile::tempdir().unwrap();
            let file = GameFile::load(&path).unwrap();
            let mut po = PostOffice::open(config(dir.path())).unwrap();
            po.create_game(&file, t0())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let general = file.sides.iter().find(|s| s.general.is_some()).unwrap();
            let welcomes = outbox(&po)
                .into_iter()
                .filter(|(k, _, _)| k == "welcome")
                .count();
            assert_eq!(
                welcomes,
                2,
                "the player and the moderator: {}",
                path.display()
            );
            // The general writes at once when its side writes the first round.
            let (_, state) = po.state_of(&file.id).unwrap();
            let writes = games::named(&file.ruleset)
                .unwrap()
                .round(&state)
                .unwrap()
                .writers
                .contains(&general.id);
            let written = count_in(
                dir.path(),
                "SELECT COUNT(*) FROM submissions WHERE message IS NULL",
            );
            assert_eq!(written, i64::from(writes), "{}", path.display());
            made += 1;
        }
    }
    assert_eq!(made, 9);
}
