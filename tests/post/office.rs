//! The post office end to end on a real SQLite file: identity checks,
//! duplicates, commands, deadlines, and turns played from mailed orders.

use crate::common;
use chrono::Duration;
use common::*;

fn count(po: &umpire::post::PostOffice, table: &str, cond: &str) -> i64 {
    po.store().count(table, cond).unwrap()
}

#[test]
fn welcome_mails_carry_password_and_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let po = office_with_game(dir.path());
    let out = outbox(&po);
    let conan = out
        .iter()
        .find(|(_, to, _)| to == CONAN)
        .expect("welcome to conan");
    let text = body_text(&conan.2);
    assert!(text.contains("Your password: dragon7"), "{text}");
    assert!(text.contains("2026-12-03 20:00 UTC (Thursday)"), "{text}");
    assert!(text.contains("Black Dragons"));
    // The enemy is listed beside one's own, where both stand.
    assert!(
        text.contains("The enemy: nemedia:\n  1. Nemedian Knights (heavy cavalry"),
        "{text}"
    );
    assert!(text.contains("front at ("), "{text}");
    // The table at the start, attached as PNG and SVG.
    assert!(conan.2.contains("ford-start.png") && conan.2.contains("ford-start.svg"));
    assert!(
        !text.contains("serpent3"),
        "one side's password never reaches the other"
    );
}

#[test]
fn orders_are_confirmed_and_stored_once_per_message_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let before = outbox(&po).len();
    let m = mail(
        CONAN,
        "o1@aquilonia.example",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
    );
    po.accept(&m, "test", t0()).unwrap();
    po.accept(&m, "test", t0()).unwrap();
    assert_eq!(count(&po, "messages", "1"), 1);
    assert_eq!(count(&po, "submissions", "side = 'aquilonia'"), 1);
    let out = outbox(&po);
    assert_eq!(out.len(), before + 1, "answered once");
    let (kind, to, raw) = out.last().unwrap();
    assert_eq!((kind.as_str(), to.as_str()), ("confirmation", CONAN));
    assert!(raw.contains("In-Reply-To: <o1@aquilonia.example>"), "{raw}");
    assert!(raw.contains("Auto-Submitted: auto-replied"));
    let text = body_text(raw);
    assert!(text.contains("Black Dragons"), "{text}");
}

#[test]
fn wrong_password_is_refused_to_the_registered_address_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let before = outbox(&po).len();
    let m = mail(
        "spy@zamora.example",
        "s1@zamora.example",
        "GAME ford SIDE nemedia PASSWORD guess\nNemedian Knights: phase 1 move 6\nEND\n",
    );
    let d = po.accept(&m, "test", t0()).unwrap().unwrap();
    assert_eq!(d.state(), "refused");
    assert_eq!(count(&po, "submissions", "1"), 0);
    let out = outbox(&po);
    assert_eq!(out.len(), before + 1);
    assert_eq!(
        out.last().unwrap().1,
        TARASCUS,
        "never answered to the stranger"
    );
    assert!(body_text(&out.last().unwrap().2).contains("wrong password"));
    assert_eq!(count(&po, "log", "text LIKE 'refused%'"), 1);
}

#[test]
fn right_password_from_another_address_tells_only_the_player_and_accepts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let m = mail(
        "conan@cimmeria.example",
        "c2@cimmeria.example",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
    );
    let d = po.accept(&m, "test", t0()).unwrap().unwrap();
    assert_eq!(d.state(), "refused");
    assert_eq!(count(&po, "submissions", "1"), 0);
    let last = outbox(&po).pop().unwrap();
    assert_eq!(
        last.1, CONAN,
        "the sender learns nothing a wrong password would not tell"
    );
    assert!(
        body_text(&last.2).contains("conan@cimmeria.example"),
        "the player learns who has the password"
    );
}

#[test]
fn orders_for_the_other_sides_units_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let m = mail(CONAN, "o3@aquilonia.example", "GAME ford SIDE aquilonia PASSWORD dragon7\nNemedian Knights: phase 1 move 6\nBlack Dragons: phase 1 move 4\nEND\n");
    po.accept(&m, "test", t0()).unwrap();
    let checked: String = po
        .store()
        .optional_string("SELECT checked FROM submissions", [])
        .unwrap()
        .unwrap();
    assert!(!checked.contains("knights"), "{checked}");
    assert!(checked.contains("dragons"), "{checked}");
    let text = body_text(&outbox(&po).pop().unwrap().2);
    assert!(
        text.contains("Nemedian Knights"),
        "the refusal names the unit: {text}"
    );
}

#[test]
fn bounces_and_auto_replies_are_never_answered() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let before = outbox(&po).len();
    let bounce = "From: MAILER-DAEMON@mx.example\r\nTo: umpire@club.example\r\nSubject: Undelivered Mail\r\nMessage-ID: <b1@mx>\r\n\r\nGAME ford SIDE aquilonia PASSWORD dragon7\r\n";
    let vacation = format!("From: {CONAN}\r\nTo: umpire@club.example\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <v1@x>\r\n\r\nI am away.\r\n");
    assert_eq!(
        po.accept(bounce.as_bytes(), "test", t0())
            .unwrap()
            .unwrap()
            .state(),
        "ignored"
    );
    assert_eq!(
        po.accept(vacation.as_bytes(), "test", t0())
            .unwrap()
            .unwrap()
            .state(),
        "ignored"
    );
    assert_eq!(outbox(&po).len(), before);
    assert_eq!(count(&po, "messages", "1"), 2, "stored raw all the same");
}

#[test]
fn garbage_is_stored_and_logged_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let mut junk: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    junk.extend_from_slice(b"\r\n\r\n");
    po.accept(&junk, "test", t0()).unwrap();
    po.accept(b"", "test", t0()).unwrap();
    assert_eq!(count(&po, "messages", "state != 'new'"), 2);
}

#[test]
fn help_answers_plain_text_and_one_topic() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let ask = |po: &mut umpire::post::PostOffice, id: &str, command: &str| {
        po.accept(
            &mail(
                CONAN,
                id,
                &format!("GAME ford SIDE aquilonia PASSWORD dragon7\n{command}\n"),
            ),
            "test",
            t0(),
        )
        .unwrap();
        outbox(po).pop().unwrap().2
    };
    let html_of = |raw: &str| {
        mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap()
            .body_html(0)
            .map(|h| h.into_owned())
    };
    let raw = ask(&mut po, "h1@x", "HELP");
    let whole = body_text(&raw);
    // The same guide as an HTML page: headings, examples in <pre>, no
    // Markdown and no test labels.
    let html = html_of(&raw).expect("HELP has an HTML part");
    assert!(html.contains("<h2>1. The shape of a mail</h2>"), "{html}");
    assert!(html.contains("<pre>"), "{html}");
    for markup in ["```", "orders nemedia refused", "**", "## "] {
        assert!(
            !html.contains(markup),
            "'{markup}' reached the player's HTML"
        );
    }
    assert!(whole.contains("1. The shape of a mail\n------"), "{whole}");
    assert!(
        whole.contains("    Black Dragons: phase 1 move 6\n"),
        "{whole}"
    );
    for markup in ["```", "orders nemedia refused", "**", "## "] {
        assert!(!whole.contains(markup), "'{markup}' reached the player");
    }
    let raw = ask(&mut po, "h2@x", "HELP wizards");
    let wizards = body_text(&raw);
    assert!(wizards.contains("\n\n11. Wizards (§10)\n"), "{wizards}");
    assert!(!wizards.contains("12. Deployment"), "{wizards}");
    let html = html_of(&raw).expect("HELP topic has an HTML part");
    assert!(html.contains("<h2>11. Wizards (§10)</h2>"), "{html}");
    assert!(!html.contains("12. Deployment"), "{html}");
    let unknown = body_text(&ask(&mut po, "h3@x", "HELP wizzard"));
    assert!(
        unknown.contains("no section of that name. Did you mean '11. Wizards (§10)'?"),
        "{unknown}"
    );
    assert!(unknown.contains("  Mail commands\n"), "{unknown}");
    // The mail commands every game's guide ends with are a topic of it.
    let commands = body_text(&ask(&mut po, "h4@x", "HELP mail commands"));
    assert!(
        commands.contains("Press: writing to the other players")
            && commands.contains("ABSENT FROM")
            && !commands.contains("For moderators"),
        "{commands}"
    );
}

#[test]
fn status_help_and_a_turn_played_when_both_sides_are_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            CONAN,
            "a1@x",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nSTATUS\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let status = body_text(&outbox(&po).pop().unwrap().2);
    assert!(status.contains("aquilonia: no orders yet"), "{status}");
    po.accept(
        &mail(
            CONAN,
            "a2@x",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(count(&po, "rounds", "adjudicated_at IS NOT NULL"), 0);
    po.accept(
        &mail(
            TARASCUS,
            "n1@x",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(
        count(
            &po,
            "rounds",
            "round = 1 AND adjudicated_at IS NOT NULL AND released = 1"
        ),
        1
    );
    let reports: Vec<_> = outbox(&po)
        .into_iter()
        .filter(|(k, _, _)| k == "report")
        .collect();
    assert_eq!(reports.len(), 3, "both players and the moderator");
    let text = body_text(&reports[0].2);
    assert!(text.contains("report of turn 1"), "{text}");
    // The seed whose hash the welcome published is revealed now.
    let welcome = body_text(
        &outbox(&po)
            .into_iter()
            .find(|(k, t, _)| k == "welcome" && t == CONAN)
            .unwrap()
            .2,
    );
    let seed: String = po
        .store()
        .optional_string("SELECT seed FROM rounds WHERE round = 1", [])
        .unwrap()
        .unwrap();
    use sha2::Digest;
    let hash = hex::encode(sha2::Sha256::digest(seed.as_bytes()));
    assert!(welcome.contains(&hash) && text.contains(&seed));
    // Dragons moved 6 inches north.
    let state: String = po
        .store()
        .optional_string("SELECT state FROM games", [])
        .unwrap()
        .unwrap();
    let table: umpire::games::hyborian::table::Table = serde_json::from_str(&state).unwrap();
    assert!((table.units["dragons"].front.y - 14.0).abs() < 0.01);
    assert_eq!(table.turn, 2);
}

#[test]
fn deadline_plays_the_turn_and_silent_sides_stand_fast() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            CONAN,
            "a2@x",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    // The deadline is 2026-12-03 20:00, t0 + 59 hours; reminders go 24
    // hours before it to the silent side, once.
    assert_eq!(po.tick(t0() + Duration::hours(34)).unwrap(), 0);
    assert!(outbox(&po).iter().all(|(k, _, _)| k != "reminder"));
    let reminder_time = t0() + Duration::hours(40);
    po.tick(reminder_time).unwrap();
    po.tick(reminder_time).unwrap();
    let reminders: Vec<_> = outbox(&po)
        .into_iter()
        .filter(|(k, _, _)| k == "reminder")
        .collect();
    assert_eq!(reminders.len(), 1);
    assert_eq!(reminders[0].1, TARASCUS);
    assert_eq!(po.tick(t0() + Duration::hours(58)).unwrap(), 0);
    // The quarter of an hour's grace (P14) runs out at 20:15.
    assert_eq!(
        po.tick(t0() + Duration::hours(59) + Duration::minutes(14))
            .unwrap(),
        0
    );
    assert_eq!(
        po.tick(t0() + Duration::hours(59) + Duration::minutes(15))
            .unwrap(),
        1
    );
    let report = outbox(&po)
        .into_iter()
        .find(|(k, _, _)| k == "report")
        .unwrap();
    assert!(body_text(&report.2).contains("nemedia sent no orders"));
    // Late orders for the turn just played are refused.
    let late = po.accept(&mail(TARASCUS, "n9@x", "GAME ford SIDE nemedia PASSWORD serpent3 TURN 1\nNemedian Knights: phase 1 move 6\nEND\n"), "test", t0() + Duration::hours(60)).unwrap().unwrap();
    assert_eq!(late.state(), "refused");
}

#[test]
fn a_game_whose_first_deadline_has_passed_is_not_started() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = umpire::post::PostOffice::open(config(dir.path())).unwrap();
    let file = umpire::post::gamefile::GameFile::load(&game_file(dir.path())).unwrap();
    let e = po
        .create_game(&file, t0() + Duration::days(3))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the first deadline 2026-12-03 20:00 (UTC) has passed"),
        "{e}"
    );
    assert_eq!(count(&po, "games", "1"), 0);
    assert!(
        outbox(&po).is_empty(),
        "nobody is welcomed to a game that did not start"
    );
}

#[test]
fn moderator_holds_and_approves_a_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            MODERATOR,
            "m1@x",
            "MODERATOR ford PASSWORD modpw\nHOLD ON\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            CONAN,
            "a2@x",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            TARASCUS,
            "n1@x",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let out = outbox(&po);
    assert!(out.iter().any(|(k, to, _)| k == "draft" && to == MODERATOR));
    assert!(!out.iter().any(|(k, _, _)| k == "report"), "held");
    po.accept(
        &mail(
            MODERATOR,
            "m2@x",
            "MODERATOR ford PASSWORD modpw\nAPPROVE 1\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let reports: Vec<_> = outbox(&po)
        .into_iter()
        .filter(|(k, _, _)| k == "report")
        .collect();
    assert_eq!(reports.len(), 3);
    assert!(!body_text(&reports[0].2).contains("DRAFT"));
    // A wrong moderator password changes nothing.
    let d = po
        .accept(
            &mail(
                MODERATOR,
                "m3@x",
                "MODERATOR ford PASSWORD nope\nEND GAME\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "refused");
}

#[test]
fn a_reply_on_top_of_the_confirmation_does_not_resubmit_the_quoted_orders() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(&mail(CONAN, "q1@x", "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nBossonian Archers: phase 1 move 4\nEND\n"), "test", t0()).unwrap();
    let confirmation = body_text(&outbox(&po).pop().unwrap().2);
    assert!(confirmation.contains("Bossonian Archers: phase 1 move 4"));
    // A client that quotes without '>' marks, with the orders header line
    // above the new orders and the whole confirmation pasted below.
    let body = format!("GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 2\n\n{confirmation}");
    po.accept(&mail(CONAN, "q2@x", &body), "test", t0())
        .unwrap();
    let latest: String = po
        .store()
        .optional_string(
            "SELECT checked FROM submissions ORDER BY id DESC LIMIT 1",
            [],
        )
        .unwrap()
        .unwrap();
    assert!(latest.contains("dragons"), "{latest}");
    assert!(
        !latest.contains("bossonians"),
        "quoted orders were read again: {latest}"
    );
}

#[test]
fn every_shipped_game_file_creates_a_game() {
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/games");
    let mut n = 0;
    for entry in std::fs::read_dir(games).unwrap() {
        let path = entry.unwrap().path();
        let dir = tempfile::tempdir().unwrap();
        let mut po = umpire::post::PostOffice::open(config(dir.path())).unwrap();
        let file = umpire::post::gamefile::GameFile::load(&path).unwrap();
        po.create_game(&file, t0())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            outbox(&po)
                .iter()
                .filter(|(k, _, _)| k == "welcome")
                .count()
                >= 3
        );
        n += 1;
    }
    assert!(n >= 4, "the ready scenarios each have a game file");
}

#[test]
fn rulings_document_is_assembled_from_every_part() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let all = std::fs::read_to_string(root.join("docs/rulings.md")).unwrap();
    for part in std::fs::read_dir(root.join("docs/rulings")).unwrap() {
        let text = std::fs::read_to_string(part.unwrap().path()).unwrap();
        let title = text.lines().find(|l| l.starts_with("# ")).unwrap();
        assert!(
            all.contains(&format!("#{title}")),
            "docs/rulings.md lacks '{title}': run scripts/assemble-rulings"
        );
        let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
        assert!(
            all.contains(last.trim_start_matches('#')),
            "docs/rulings.md is out of date: run scripts/assemble-rulings"
        );
    }
}

#[test]
fn a_deployment_turn_places_units_inside_their_zones_and_reveals_both_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = umpire::post::PostOffice::open(config(dir.path())).unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("campaigns/games/the-marches-of-the-east.toml");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "../scenarios/",
        &format!("{}/campaigns/scenarios/", env!("CARGO_MANIFEST_DIR")),
    );
    let text = text
        .replace(
            "address = \"conan@aquilonia.example\"",
            "address = \"conan@aquilonia.example\"\npassword = \"dragon7\"",
        )
        .replace(
            "address = \"yezdigerd@turan.example\"",
            "address = \"yezdigerd@turan.example\"\npassword = \"khan5\"",
        );
    std::fs::write(dir.path().join("g.toml"), text).unwrap();
    po.create_game(
        &umpire::post::gamefile::GameFile::load(&dir.path().join("g.toml")).unwrap(),
        t0(),
    )
    .unwrap();
    let welcome = body_text(
        &outbox(&po)
            .into_iter()
            .find(|(k, t, _)| k == "welcome" && t == CONAN)
            .unwrap()
            .2,
    );
    assert!(welcome.contains("deployment turn"), "{welcome}");
    // 12 turns less 1d6 hours spent deploying, rolled on turn 0's seed.
    let roll: u32 = welcome
        .split("rolled: ")
        .nth(1)
        .and_then(|t| t.split(';').next())
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!((1..=6).contains(&roll), "{welcome}");
    assert!(
        welcome.contains(&format!("The battle lasts {} turns", 12 - roll)),
        "{welcome}"
    );
    assert_eq!(
        po.store()
            .count("games", &format!("max_turns = {}", 12 - roll))
            .unwrap(),
        1
    );
    // Aquilonia places its knights inside its zone (y 0–14) and tries to put
    // a second unit in the middle of the table; Turan places nothing.
    po.accept(&mail(CONAN, "d1@x", "GAME marches SIDE aquilonia PASSWORD dragon7 TURN 0\n1st Poitainian Knights: deploy at (70, 12) facing 0\n2nd Poitainian Knights: deploy at (70, 30) facing 0\nEND\n"), "test", t0()).unwrap();
    po.accept(&mail("yezdigerd@turan.example", "d2@x", "GAME marches SIDE turan PASSWORD khan5 TURN 0\n1st Elite Mailed Cav.: deploy at (70, 50) facing 180\nEND\n"), "test", t0()).unwrap();
    let state: String = po
        .store()
        .optional_string("SELECT state FROM games", [])
        .unwrap()
        .unwrap();
    let table: umpire::games::hyborian::table::Table = serde_json::from_str(&state).unwrap();
    assert_eq!(table.turn, 1, "the deployment turn was played");
    let knights = &table.units["aquilonia-1st-poitainian-knights"];
    assert!((knights.front - glam::DVec2::new(70.0, 12.0)).length() < 1e-9);
    let second = &table.units["aquilonia-2nd-poitainian-knights"];
    assert!(
        second.front.y < 14.0,
        "a placement outside the zone is refused"
    );
    let report = outbox(&po)
        .into_iter()
        .find(|(k, t, _)| k == "report" && t == CONAN)
        .unwrap();
    let text = body_text(&report.2);
    assert!(text.contains("Deployment"), "{text}");
    assert!(
        text.contains("1st Poitainian Knights deployed at (70.0, 12.0)"),
        "{text}"
    );
    assert!(text.contains("2nd Poitainian Knights could not deploy there: it would stand outside aquilonia's deployment zone"), "{text}");
}

#[test]
fn moderator_dice_are_used_marked_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    // The Tybor lies between the cavalry; it is not what this test is about.
    let mut po = office_with_options(dir.path(), "rivers = \"open\"");
    // Turn 1: the cavalry close; turn 2: they meet, with the moderator's dice.
    let d = po
        .accept(
            &mail(
                MODERATOR,
                "md1@x",
                "MODERATOR ford PASSWORD modpw\nDICE TURN 2 melee:dragons=5 melee:knights=2\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "done");
    let reply = body_text(&outbox(&po).pop().unwrap().2);
    assert!(
        reply.contains("your dice for turn 2: melee:dragons=5 melee:knights=2"),
        "{reply}"
    );
    // A die that cannot show the value is refused as not understood.
    po.accept(
        &mail(
            MODERATOR,
            "md2@x",
            "MODERATOR ford PASSWORD modpw\nDICE TURN 2 melee:dragons=6\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(po.store().count("moderator_dice", "value = 6").unwrap(), 0);
    for (turn, id) in [(1, "t1"), (2, "t2")] {
        po.accept(&mail(CONAN, &format!("a{id}@x"), "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 charge Nemedian Knights\nEND\n"), "test", t0()).unwrap();
        po.accept(&mail(TARASCUS, &format!("n{id}@x"), "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 charge Black Dragons\nEND\n"), "test", t0()).unwrap();
        assert_eq!(
            po.store()
                .count(
                    "rounds",
                    &format!("round = {turn} AND adjudicated_at IS NOT NULL")
                )
                .unwrap(),
            1
        );
    }
    let report = outbox(&po)
        .into_iter()
        .filter(|(k, t, _)| k == "report" && t == CONAN)
        .map(|(_, _, raw)| body_text(&raw))
        .find(|t| t.contains("report of turn 2"))
        .unwrap();
    assert!(
        report.contains("melee:dragons = 5 (the moderator's die)"),
        "{report}"
    );
    assert!(
        report.contains("melee:knights = 2 (the moderator's die)"),
        "{report}"
    );
    let (text, ok) = umpire::post::verify_turn(&mut po, "ford", 2).unwrap();
    assert!(ok, "{text}");
    assert!(
        text.contains("the moderator supplied: melee:dragons=5 melee:knights=2"),
        "{text}"
    );
}

/// A store written before rule sets and rounds (schema 4: a whole demo
/// game of four turns) opens, migrates, verifies every turn and reports.
#[test]
fn a_store_of_the_previous_schema_migrates_verifies_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(dir.path());
    cfg.database = dir.path().join("old.sqlite");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/schema4-ford.sqlite"
        ),
        &cfg.database,
    )
    .unwrap();
    let mut po = umpire::post::PostOffice::open(cfg).unwrap();
    assert_eq!(count(&po, "games", "ruleset = 'hyborian-age'"), 1);
    // The upgrade kept the store as it was beside it first (issue 43).
    let kept =
        umpire::store::backup::inspect(&dir.path().join("old.sqlite.schema-4.backup")).unwrap();
    assert_eq!((kept.schema, kept.games), (4, 1));
    for turn in 1..=4 {
        let (text, ok) = umpire::post::verify_turn(&mut po, "ford", turn).unwrap();
        assert!(ok, "turn {turn}: {text}");
    }
    let report = umpire::post::report_text(&mut po, "ford", Some(3), false).unwrap();
    assert!(
        report.contains("The Ford of the Tybor (ford) — report of turn 3"),
        "{report}"
    );
    assert!(
        report.contains("The table after turn 3\n----------------------\n"),
        "{report}"
    );
    let site = dir.path().join("site");
    assert_eq!(
        umpire::post::export_html(&mut po, "ford", &site).unwrap(),
        4
    );
}

/// A mail with a refused line does not set the turn going; READY lets its
/// orders stand and the turn is played; WAIT holds good orders back.
#[test]
fn refused_lines_hold_the_turn_until_ready_and_wait_holds_good_orders() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let played = || "adjudicated_at IS NOT NULL";
    po.accept(
        &mail(
            CONAN,
            "w1@a",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nWAIT\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            TARASCUS,
            "w2@n",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knigts: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let conf = body_text(&outbox(&po).last().unwrap().2);
    assert!(
        conf.contains("1 line was refused, so the round waits"),
        "{conf}"
    );
    assert_eq!(count(&po, "rounds", played()), 0, "neither side is ready");
    po.accept(
        &mail(
            TARASCUS,
            "w3@n",
            "GAME ford SIDE nemedia PASSWORD serpent3\nREADY\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(count(&po, "rounds", played()), 0, "Aquilonia still waits");
    po.accept(
        &mail(
            CONAN,
            "w4@a",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nREADY\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(
        count(&po, "rounds", played()),
        1,
        "both ready: the turn is played"
    );
    let (text, ok) = umpire::post::verify_turn(&mut po, "ford", 1).unwrap();
    assert!(ok, "{text}");
    let report = umpire::post::report_text(&mut po, "ford", Some(1), false).unwrap();
    assert!(
        report.contains("Black Dragons"),
        "the waited orders were played: {report}"
    );
}

/// The moderator's changes are announced to every player; an ended game
/// is not brought back by RESUME or FORCE.
#[test]
fn moderator_changes_are_announced_and_an_ended_game_stays_ended() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            MODERATOR,
            "e1@m",
            "MODERATOR ford PASSWORD modpw\nEXTEND 24\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let notices: Vec<_> = outbox(&po)
        .into_iter()
        .filter(|(k, _, _)| k == "notice")
        .collect();
    // One notice to each player, in their own time zone.
    assert_eq!(
        notices.iter().map(|n| n.1.as_str()).collect::<Vec<_>>(),
        [CONAN, TARASCUS],
        "{notices:?}"
    );
    assert!(
        body_text(&notices[0].2)
            .contains("The deadline for turn 1 is extended to 2026-12-04 20:00 UTC (Friday)."),
        "{}",
        body_text(&notices[0].2)
    );
    po.accept(
        &mail(MODERATOR, "e2@m", "MODERATOR ford PASSWORD modpw\nRESUME\n"),
        "test",
        t0(),
    )
    .unwrap();
    assert!(body_text(&outbox(&po).last().unwrap().2).contains("the game is not paused"));
    po.accept(
        &mail(
            MODERATOR,
            "e3@m",
            "MODERATOR ford PASSWORD modpw\nEND GAME\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let last_notice = outbox(&po)
        .into_iter()
        .rfind(|(k, _, _)| k == "notice")
        .unwrap();
    assert!(body_text(&last_notice.2).contains("ended the game"));
    po.accept(
        &mail(
            MODERATOR,
            "e4@m",
            "MODERATOR ford PASSWORD modpw\nRESUME\nFORCE\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let reply = body_text(&outbox(&po).last().unwrap().2);
    assert!(
        reply.contains("> RESUME\n  game ford has ended; nothing changed"),
        "{reply}"
    );
    assert!(reply.contains("> FORCE\n  game ford has ended"), "{reply}");
    assert_eq!(count(&po, "rounds", "adjudicated_at IS NOT NULL"), 0);
    assert_eq!(count(&po, "games", "status = 'ended'"), 1);
}

/// A turn played under other rules says so when verified, rather than
/// leaving a mismatch unexplained.
#[test]
fn verify_names_the_rules_a_turn_was_played_under() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            CONAN,
            "v1@a",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            TARASCUS,
            "v2@n",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let (text, ok) = umpire::post::verify_turn(&mut po, "ford", 1).unwrap();
    assert!(ok && !text.contains("played under"), "{text}");
    let rules: String = po
        .store()
        .conn()
        .query_row("SELECT rules FROM rounds WHERE round = 1", [], |r| r.get(0))
        .unwrap();
    assert!(
        rules.starts_with("hyborian-age ") && rules.contains(" r"),
        "the rules identity is stored: {rules}"
    );
    po.store().conn().execute("UPDATE rounds SET rules = 'hyborian-age 0.0.9 r1 rules 000000000000 options 000000000000' WHERE round = 1", []).unwrap();
    let (text, ok) = umpire::post::verify_turn(&mut po, "ford", 1).unwrap();
    assert!(ok, "{text}");
    assert!(
        text.contains("played under: hyborian-age 0.0.9 r1"),
        "{text}"
    );
}

/// READJUDICATE judges the last turn again under this build's rules, with
/// its own orders and seed (ruling P20): the players get a corrected report
/// that says so, the next turn keeps its published seed and its deadline,
/// and the turn then verifies under this build. It is refused for an older
/// turn, under the same rules, and once orders for the next turn are in.
#[test]
fn the_moderator_readjudicates_the_last_turn_under_new_rules() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let orders = [
        (
            CONAN,
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        (
            TARASCUS,
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
        ),
    ];
    for (i, (from, text)) in orders.iter().enumerate() {
        po.accept(&mail(from, &format!("ra{i}@x"), text), "test", t0())
            .unwrap();
    }
    let moderate = |po: &mut umpire::post::PostOffice, id: &str, line: &str| {
        po.accept(
            &mail(
                MODERATOR,
                id,
                &format!("MODERATOR ford PASSWORD modpw\n{line}\n"),
            ),
            "test",
            t0(),
        )
        .unwrap();
        body_text(
            &outbox(po)
                .iter()
                .rev()
                .find(|(k, _, _)| k == "reply")
                .unwrap()
                .2,
        )
        .replace("\r\n", "\n")
    };
    let sql = |po: &umpire::post::PostOffice, q: &str| -> String {
        po.store().conn().query_row(q, [], |r| r.get(0)).unwrap()
    };
    let right_state = sql(&po, "SELECT state_after FROM rounds WHERE round = 1");
    let (seed, next_hash) = (
        sql(&po, "SELECT seed FROM rounds WHERE round = 1"),
        sql(&po, "SELECT seed_hash FROM rounds WHERE round = 2"),
    );
    let deadline = sql(&po, "SELECT deadline FROM games");
    // Under the same rules there is nothing to do.
    let reply = moderate(&mut po, "rb1@m", "READJUDICATE");
    assert!(
        reply.contains("would come out the same, so nothing changed"),
        "{reply}"
    );
    // As if an older build had played turn 1, and differently: nobody moved.
    po.store().conn().execute_batch(
        "UPDATE rounds SET rules = 'hyborian-age 0.0.9 r1 rules 000000000000 options 000000000000', \
         state_after = state_before WHERE round = 1; \
         UPDATE games SET state = (SELECT state_before FROM rounds WHERE round = 1);",
    ).unwrap();
    let reply = moderate(&mut po, "rb2@m", "READJUDICATE TURN 4");
    assert!(
        reply.contains("only the last one played (1) can"),
        "{reply}"
    );
    let reports_before = count(&po, "outbox", "kind = 'report'");
    let reply = moderate(&mut po, "rb3@m", "READJUDICATE 1");
    assert!(
        reply.contains("turn 1 judged again under the rules of this build")
            && reply.contains("first played under hyborian-age 0.0.9 r1")
            && reply.contains(&seed),
        "{reply}"
    );
    assert_eq!(
        sql(&po, "SELECT state_after FROM rounds WHERE round = 1"),
        right_state
    );
    assert_eq!(sql(&po, "SELECT state FROM games"), right_state);
    assert_eq!(sql(&po, "SELECT seed FROM rounds WHERE round = 1"), seed);
    assert_eq!(
        sql(&po, "SELECT seed_hash FROM rounds WHERE round = 2"),
        next_hash,
        "the published seed of turn 2 stands"
    );
    assert_eq!(
        sql(&po, "SELECT deadline FROM games"),
        deadline,
        "turn 2 keeps its deadline"
    );
    // Every player and the moderator get the corrected report.
    assert_eq!(count(&po, "outbox", "kind = 'report'"), reports_before + 3);
    let corrected = outbox(&po)
        .into_iter()
        .rev()
        .find(|(k, to, _)| k == "report" && to == CONAN)
        .unwrap();
    assert!(
        corrected
            .2
            .contains("Subject: [ford] Turn 1: corrected report"),
        "{}",
        corrected.2
    );
    let text = body_text(&corrected.2).replace("\r\n", "\n");
    assert!(
        text.contains("CORRECTED REPORT. It replaces the one first sent for turn 1"),
        "{text}"
    );
    assert!(text.contains("hyborian-age 0.0.9 r1"), "{text}");
    assert!(text.contains(&next_hash), "{text}");
    let (verified, ok) = umpire::post::verify_turn(&mut po, "ford", 1).unwrap();
    assert!(ok && !verified.contains("played under"), "{verified}");
    // Once a player has written for turn 2, turn 1 stands.
    let d = po.accept(&mail(CONAN, "rc1@a", "GAME ford SIDE aquilonia PASSWORD dragon7 TURN 2\nBlack Dragons: phase 1 move 6\nEND\n"), "test", t0()).unwrap().unwrap();
    assert_eq!(d.state(), "done");
    po.store()
        .conn()
        .execute(
            "UPDATE rounds SET rules = 'hyborian-age 0.0.9 r1' WHERE round = 1",
            [],
        )
        .unwrap();
    let reply = moderate(&mut po, "rb4@m", "READJUDICATE");
    assert!(
        reply.contains("aquilonia already sent orders for turn 2")
            && reply.contains("nothing changed"),
        "{reply}"
    );
}

/// While turn 1's report is a draft nothing of turn 2 is taken or played;
/// REJECT plays turn 1 again from a fresh seed; APPROVE releases it with
/// both seeds revealed and a whole turn's time for the next orders.
#[test]
fn a_held_turn_holds_and_can_be_rejected_and_approved() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            MODERATOR,
            "h1@m",
            "MODERATOR ford PASSWORD modpw\nHOLD ON\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            CONAN,
            "h2@a",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            TARASCUS,
            "h3@n",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let drafts = || "kind = 'draft'";
    assert_eq!(count(&po, "outbox", drafts()), 1);
    let draft = outbox(&po)
        .into_iter()
        .find(|(k, _, _)| k == "draft")
        .unwrap();
    let shown = body_text(&draft.2).replace("\r\n", "\n");
    assert!(
        shown.contains("MODERATOR ford PASSWORD (your password)\n  APPROVE 1"),
        "{shown}"
    );
    // Orders for turn 2 are refused while the draft waits, with the reason.
    let d = po.accept(&mail(CONAN, "h4@a", "GAME ford SIDE aquilonia PASSWORD dragon7 TURN 2\nBlack Dragons: phase 1 move 6\nEND\n"), "test", t0()).unwrap().unwrap();
    assert_eq!(d.state(), "refused");
    assert!(body_text(&outbox(&po).last().unwrap().2).contains("with the moderator for approval"));
    // Even past turn 2's deadline nothing is played.
    assert_eq!(po.tick(t0() + Duration::days(10)).unwrap(), 0);
    let first_seed: String = po
        .store()
        .conn()
        .query_row("SELECT seed FROM rounds WHERE round = 1", [], |r| r.get(0))
        .unwrap();
    po.accept(
        &mail(
            MODERATOR,
            "h5@m",
            "MODERATOR ford PASSWORD modpw\nREJECT 1\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert!(body_text(
        &outbox(&po)
            .iter()
            .rev()
            .find(|(k, _, _)| k == "reply")
            .unwrap()
            .2
    )
    .contains("turn 1 played again from a fresh seed"));
    assert_eq!(count(&po, "outbox", drafts()), 2, "a second draft");
    let second_seed: String = po
        .store()
        .conn()
        .query_row("SELECT seed FROM rounds WHERE round = 1", [], |r| r.get(0))
        .unwrap();
    assert_ne!(first_seed, second_seed);
    assert_eq!(count(&po, "outbox", "kind = 'report'"), 0);
    po.accept(
        &mail(
            MODERATOR,
            "h6@m",
            "MODERATOR ford PASSWORD modpw\nAPPROVE\n",
        ),
        "test",
        t0() + Duration::days(10),
    )
    .unwrap();
    let reports: Vec<_> = outbox(&po)
        .into_iter()
        .filter(|(k, to, _)| k == "report" && to == CONAN)
        .collect();
    assert_eq!(reports.len(), 1);
    let text = body_text(&reports[0].2).replace("\r\n", "\n");
    assert!(text.contains(&second_seed), "{text}");
    assert!(
        text.contains(&format!(
            "it was first played with the seed\nand published hash {first_seed}"
        )),
        "{text}"
    );
    assert!(
        text.contains("due by 2026-12-13 09:00 UTC"),
        "a whole turn from the release: {text}"
    );
    let (verified, ok) = umpire::post::verify_turn(&mut po, "ford", 1).unwrap();
    assert!(ok, "{verified}");
    // Turn 2 now takes orders.
    let d = po.accept(&mail(CONAN, "h7@a", "GAME ford SIDE aquilonia PASSWORD dragon7 TURN 2\nBlack Dragons: phase 1 move 6\nEND\n"), "test", t0() + Duration::days(10)).unwrap().unwrap();
    assert_eq!(d.state(), "done");
}

/// REPLACE hands a side over: the new player gets a fresh password, the
/// old one is told and locked out; RESET PASSWORD and NEW PASSWORD change
/// a side's password, and no password is kept in the stored mail.
#[test]
fn sides_are_handed_over_and_passwords_changed() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    const KOTH: &str = "strabonus@koth.example";
    po.accept(
        &mail(
            MODERATOR,
            "r1@m",
            "MODERATOR ford PASSWORD modpw\nREPLACE nemedia not-an-address\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert!(body_text(&outbox(&po).last().unwrap().2).contains("is not a mail address"));
    po.accept(
        &mail(
            MODERATOR,
            "r2@m",
            &format!("MODERATOR ford PASSWORD modpw\nREPLACE nemedia {KOTH}\n"),
        ),
        "test",
        t0(),
    )
    .unwrap();
    let out = outbox(&po);
    let told = out
        .iter()
        .find(|(k, to, _)| k == "notice" && to == TARASCUS)
        .expect("the old player is told");
    assert!(body_text(&told.2).contains("no longer works"));
    let welcome = out
        .iter()
        .find(|(k, to, _)| k == "welcome" && to == KOTH)
        .expect("the new player is welcomed");
    let text = body_text(&welcome.2);
    let pw = text
        .lines()
        .find_map(|l| l.strip_prefix("Your password: "))
        .expect("a password")
        .trim()
        .to_string();
    assert!(
        text.contains(&format!("GAME ford SIDE nemedia PASSWORD {pw}")),
        "{text}"
    );
    let old = po
        .accept(
            &mail(
                TARASCUS,
                "r3@n",
                "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(old.state(), "refused");
    let new = po
        .accept(
            &mail(
                KOTH,
                "r4@k",
                &format!(
                    "GAME ford SIDE nemedia PASSWORD {pw}\nNemedian Knights: phase 1 move 6\nEND\n"
                ),
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(new.state(), "done");
    // The player picks a password of their own; the old one stops working.
    po.accept(
        &mail(
            KOTH,
            "r5@k",
            &format!("GAME ford SIDE nemedia PASSWORD {pw}\nNEW PASSWORD black-lotus\n"),
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert!(body_text(&outbox(&po).last().unwrap().2).contains("is changed"));
    let raw: Vec<u8> = po
        .store()
        .conn()
        .query_row(
            "SELECT raw FROM messages WHERE message_id = 'r5@k'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&raw).contains("black-lotus"),
        "the new password is not kept"
    );
    let d = po
        .accept(
            &mail(
                KOTH,
                "r6@k",
                &format!("GAME ford SIDE nemedia PASSWORD {pw}\nSTATUS\n"),
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "refused");
    let d = po
        .accept(
            &mail(
                KOTH,
                "r7@k",
                "GAME ford SIDE nemedia PASSWORD black-lotus\nSTATUS\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "done");
    // The moderator resets it: a fresh one goes to the registered address.
    po.accept(
        &mail(
            MODERATOR,
            "r8@m",
            "MODERATOR ford PASSWORD modpw\nRESET PASSWORD nemedia\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let reset = outbox(&po)
        .into_iter()
        .rfind(|(k, to, _)| k == "welcome" && to == KOTH)
        .unwrap();
    assert!(
        body_text(&reset.2).contains("new password"),
        "{}",
        body_text(&reset.2)
    );
    let d = po
        .accept(
            &mail(
                KOTH,
                "r9@k",
                "GAME ford SIDE nemedia PASSWORD black-lotus\nSTATUS\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "refused");
}

/// The moderator's command line shows every game, one game in full and its
/// log; STATUS of an ended game says so and no deadline.
#[test]
fn the_desk_shows_games_a_game_and_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            CONAN,
            "d1@a",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let all = umpire::post::desk::games(&mut po).unwrap();
    assert!(
        all.contains("ford")
            && all.contains("turn 1, due 2026-12-03 20:00 UTC (Thursday), 1 of 2 sides ready"),
        "{all}"
    );
    let show = umpire::post::desk::show(&mut po, "ford").unwrap();
    assert!(
        show.contains("aquilonia: orders received") && show.contains("nemedia: no orders yet"),
        "{show}"
    );
    assert!(show.contains(&format!("nemedia: {TARASCUS}")), "{show}");
    let log = umpire::post::desk::log(&mut po, "ford", 10).unwrap();
    assert!(log.contains("game created"), "{log}");
    assert!(umpire::post::desk::show(&mut po, "nope").is_err());
    po.accept(
        &mail(
            MODERATOR,
            "d2@m",
            "MODERATOR ford PASSWORD modpw\nEND GAME\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            CONAN,
            "d3@a",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nSTATUS\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let status = body_text(&outbox(&po).last().unwrap().2);
    assert!(
        status.contains("the game has ended")
            && !status.contains("Deadline")
            && !status.contains("no orders yet"),
        "{status}"
    );
}

/// A mail with a refused line (another side's unit) does not throw away
/// the earlier orders for the units it does not mention (ruling P16).
#[test]
fn a_mistake_does_not_discard_earlier_orders_for_other_units() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(&mail(CONAN, "k1@a", "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nBossonian Archers: phase 1 move 4\nEND\n"), "test", t0()).unwrap();
    po.accept(&mail(CONAN, "k2@a", "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 8\nNemedian Knights: phase 1 move 6\nEND\n"), "test", t0()).unwrap();
    let conf = body_text(&outbox(&po).last().unwrap().2).replace("\r\n", "\n");
    assert!(
        conf.contains("still stand:\n  Bossonian Archers: phase 1 move 4"),
        "{conf}"
    );
    po.accept(
        &mail(
            TARASCUS,
            "k3@n",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.tick(t0() + Duration::days(3)).unwrap();
    let report = umpire::post::report_text(&mut po, "ford", Some(1), false).unwrap();
    assert!(report.contains("Black Dragons moved 8 inches"), "{report}");
    assert!(
        report.contains("Bossonian Archers moved 4 inches"),
        "the archers' earlier order stood: {report}"
    );
}

/// A moderator's die for a unit the table does not have is refused with a
/// suggestion, as is a value the die cannot show.
#[test]
fn moderator_dice_for_unknown_units_or_impossible_values_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            MODERATOR,
            "x1@m",
            "MODERATOR ford PASSWORD modpw\nDICE TURN 1 melee:dragon=4 melee:knights=6\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let reply = body_text(&outbox(&po).last().unwrap().2);
    assert!(
        reply.contains("no unit 'dragon' on the table (did you mean 'dragons'?)"),
        "{reply}"
    );
    assert!(reply.contains("melee:knights = 6"), "{reply}");
    assert!(reply.contains("no dice taken for turn 1"), "{reply}");
    assert_eq!(count(&po, "moderator_dice", "1"), 0);
}

/// Issue 15: the moderator enters orders for an absent side (ORDERS FOR),
/// checked like the player's own; the player is told; a turn is played on
/// them; a misspelt side gets a suggestion and enters nothing.
#[test]
fn the_moderator_enters_orders_for_an_absent_side() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(
        &mail(
            CONAN,
            "p1@x",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(&mail(MODERATOR, "m1@m", "MODERATOR ford PASSWORD modpw\nORDERS FOR nemedai\nNemedian Knights: phase 1 move 6\nEND\n"), "test", t0()).unwrap();
    let reply = body_text(&outbox(&po).last().unwrap().2);
    assert!(
        reply.contains(
            "> ORDERS FOR nemedai\n  no side 'nemedai' in game ford (did you mean 'nemedia'?)"
        ),
        "{reply}"
    );
    assert_eq!(count(&po, "submissions", "side = 'nemedia'"), 0);
    assert_eq!(count(&po, "rounds", "adjudicated_at IS NOT NULL"), 0);

    po.accept(&mail(MODERATOR, "m2@m", "MODERATOR ford PASSWORD modpw\nORDERS FOR nemedia\nNemedian Knights: phase 1 move 6\nEND\n"), "test", t0()).unwrap();
    let out = outbox(&po);
    let reply = out
        .iter()
        .rev()
        .find(|(k, to, _)| k == "reply" && to == MODERATOR)
        .map(|m| body_text(&m.2))
        .unwrap();
    assert!(
        reply.contains(
            "orders for nemedia entered for turn 1 (the side is ready); the player was told."
        ),
        "{reply}"
    );
    assert!(
        reply.contains("Nemedian Knights: phase 1 move 6"),
        "{reply}"
    );
    let told = out
        .iter()
        .find(|(k, to, raw)| {
            k == "notice" && to == TARASCUS && raw.contains("Orders entered for nemedia")
        })
        .expect("the player is told");
    assert!(
        body_text(&told.2).contains("  Nemedian Knights: phase 1 move 6"),
        "{}",
        body_text(&told.2)
    );
    // Both sides are in: the turn is played, the knights moved.
    assert_eq!(
        count(&po, "rounds", "round = 1 AND adjudicated_at IS NOT NULL"),
        1
    );
    let text: String = po
        .store()
        .optional_string("SELECT text FROM submissions WHERE side = 'nemedia'", [])
        .unwrap()
        .unwrap();
    assert!(
        text.starts_with("(entered by the moderator)") && !text.contains("modpw"),
        "{text}"
    );
}

/// Issue 15: every line of a moderator's mail gets an answer in the order
/// written: commands quoted with what was done, lines that are no command
/// pointed at with the command they look like.
#[test]
fn every_moderator_line_is_answered_with_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let body = "MODERATOR ford PASSWORD modpw\nEXTNED 24\nEXTEND 24\nDEADLINE friday 20:00\nmake it snow\n";
    po.accept(&mail(MODERATOR, "m3@m", body), "test", t0())
        .unwrap();
    let reply = body_text(&outbox(&po).last().unwrap().2);
    let at = |s: &str| {
        reply
            .find(s)
            .unwrap_or_else(|| panic!("{s:?} not in {reply}"))
    };
    assert!(
        at("EXTNED 24") < at("> EXTEND 24")
            && at("> EXTEND 24") < at("DEADLINE friday")
            && at("DEADLINE friday") < at("make it snow"),
        "{reply}"
    );
    assert!(
        reply.contains("did you mean EXTEND? write it as: EXTEND 24 (hours)"),
        "{reply}"
    );
    assert!(
        reply.contains("  deadline extended to 2026-12-04 20:00 UTC (Friday)"),
        "{reply}"
    );
    assert!(
        reply.contains("write it as: DEADLINE 2026-12-01 18:00"),
        "{reply}"
    );
    assert!(
        reply.contains("the moderator's commands are STATUS, HELP, DEADLINE"),
        "{reply}"
    );
    assert_eq!(
        reply.matches("not a moderator command").count(),
        2,
        "{reply}"
    );
}

/// Issue 43: a moderator's mail of 20,000 lines that are no command was
/// answered by quoting every one (7 MB); the reply lists the first
/// `MAX_STRAY` and counts the rest in one line that points at the first
/// of them.
#[test]
fn a_moderators_reply_to_thousands_of_stray_lines_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let mut body = String::from("MODERATOR ford PASSWORD modpw\nEXTEND 24\n");
    for i in 1..=20_000 {
        body.push_str(&format!(
            "note {i:05}: the river is high at the ford tonight\n"
        ));
    }
    po.accept(&mail(MODERATOR, "m-stray@m", &body), "test", t0())
        .unwrap();
    let raw = outbox(&po).last().unwrap().2.clone();
    assert!(raw.len() < 40_000, "a reply of {} bytes", raw.len());
    let reply = body_text(&raw);
    let listed = umpire::envelope::MAX_STRAY;
    assert_eq!(
        reply.matches("not a moderator command").count(),
        listed,
        "{reply}"
    );
    assert!(reply.contains("  deadline extended to"), "{reply}");
    assert!(reply.contains(&format!("note {listed:05}:")), "{reply}");
    assert!(
        reply.contains(&format!(
            "{} more lines from here on are not moderator commands and are not listed; nothing was done for them",
            20_000 - listed
        )) && reply.contains(&format!("note {:05}:", listed + 1))
            && !reply.contains(&format!("note {:05}:", listed + 2)),
        "{reply}"
    );
}

/// Issue 15: lateness is judged by when the club's server took the mail
/// (its topmost `Received:` stamp) when the mailbox gives no time, not by
/// when umpire read it; a stamp lower down, or one days before umpire
/// stored the mail, proves nothing.
#[test]
fn lateness_is_judged_by_the_club_servers_received_stamp() {
    let with_received = |id: &str, stamps: &[&str]| {
        let mut head = String::new();
        for s in stamps {
            head.push_str(&format!(
                "Received: from mx.aquilonia.example by mail.club.example; {s}\r\n"
            ));
        }
        let mut m = head.into_bytes();
        m.extend(mail(
            CONAN,
            id,
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ));
        m
    };
    // The deadline is 2026-12-03 20:00 UTC with 15 minutes' grace; read at 20:40.
    let read_at = t0() + Duration::hours(59) + Duration::minutes(40);
    for (stamps, state) in [
        (vec!["Thu, 3 Dec 2026 19:55:00 +0000"], "done"),
        // The club server's stamp is on top; the sender wrote the one below.
        (
            vec![
                "Thu, 3 Dec 2026 20:35:00 +0000",
                "Thu, 3 Dec 2026 19:00:00 +0000",
            ],
            "refused",
        ),
        // Three days before umpire stored it: a wrong clock, not a queue.
        (vec!["Mon, 30 Nov 2026 19:55:00 +0000"], "refused"),
        (vec![], "refused"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut po = office_with_game(dir.path());
        let d = po
            .accept(&with_received("late@x", &stamps), "test", read_at)
            .unwrap()
            .unwrap();
        assert_eq!(d.state(), state, "{stamps:?}: {d:?}");
    }
}

/// Issue 15: deadlines in each player's time zone: one set in the game
/// file, one chosen by mail (TIMEZONE, with suggestions for a misspelt
/// zone); the moderator's changes are announced to each in their own.
#[test]
fn each_player_reads_deadlines_in_their_own_time_zone() {
    let dir = tempfile::tempdir().unwrap();
    let path = game_file(dir.path());
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "password = \"dragon7\"\n",
        "password = \"dragon7\"\ntimezone = \"Europe/Paris\"\n",
    );
    std::fs::write(&path, text).unwrap();
    let mut po = umpire::post::PostOffice::open(config(dir.path())).unwrap();
    po.create_game(
        &umpire::post::gamefile::GameFile::load(&path).unwrap(),
        t0(),
    )
    .unwrap();
    let welcome = |to: &str| {
        body_text(
            &outbox(&po)
                .into_iter()
                .find(|(k, t, _)| k == "welcome" && t == to)
                .unwrap()
                .2,
        )
    };
    assert!(
        welcome(CONAN)
            .contains("2026-12-03 21:00 CET (Thursday); game time 2026-12-03 20:00 UTC (Thursday)"),
        "{}",
        welcome(CONAN)
    );
    assert!(
        welcome(TARASCUS).contains("2026-12-03 20:00 UTC (Thursday)")
            && !welcome(TARASCUS).contains("game time")
    );

    po.accept(
        &mail(
            TARASCUS,
            "tz1@x",
            "GAME ford SIDE nemedia PASSWORD serpent3\nTIMEZONE America/New_Yrok\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let reply = body_text(&outbox(&po).last().unwrap().2);
    assert!(
        reply.contains("did you mean America/New_York?") && reply.contains("Nothing changed"),
        "{reply}"
    );
    po.accept(
        &mail(
            TARASCUS,
            "tz2@x",
            "GAME ford SIDE nemedia PASSWORD serpent3\nTIMEZONE america/new_york\nNemedian Knights: phase 1 hold\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let out = outbox(&po);
    let reply = out
        .iter()
        .rev()
        .find(|(k, _, _)| k == "reply")
        .map(|m| body_text(&m.2))
        .unwrap();
    // The orders of the same mail are already answered in the new zone.
    let confirmation = body_text(&out.last().unwrap().2);
    assert!(
        confirmation.contains("2026-12-03 15:00 EST"),
        "{confirmation}"
    );
    assert!(
        reply.contains("now in America/New_York")
            && reply.contains("2026-12-03 15:00 EST (Thursday); game time"),
        "{reply}"
    );

    po.accept(
        &mail(
            MODERATOR,
            "tz3@m",
            "MODERATOR ford PASSWORD modpw\nEXTEND 24\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let notices: Vec<(String, String)> = outbox(&po)
        .into_iter()
        .filter(|(k, _, _)| k == "notice")
        .map(|(_, to, raw)| (to, body_text(&raw)))
        .collect();
    let told = |to: &str| {
        notices
            .iter()
            .find(|(t, _)| t == to)
            .map(|(_, b)| b.clone())
            .unwrap()
    };
    assert!(
        told(CONAN).contains(
            "extended to 2026-12-04 21:00 CET (Friday); game time 2026-12-04 20:00 UTC (Friday)."
        ),
        "{}",
        told(CONAN)
    );
    assert!(
        told(TARASCUS).contains("extended to 2026-12-04 15:00 EST (Friday)"),
        "{}",
        told(TARASCUS)
    );
    // A player's STATUS is in their zone; the moderator's in the game's.
    po.accept(
        &mail(
            TARASCUS,
            "tz4@x",
            "GAME ford SIDE nemedia PASSWORD serpent3\nSTATUS\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert!(body_text(&outbox(&po).last().unwrap().2).contains("15:00 EST"));
}

/// Orders for the next turn (`TURN n+1`) are held until it opens, then read
/// in the order they came (the later replacing the earlier, as within a
/// turn). The first reading checked the password: a NEW PASSWORD in the
/// held mail counts at once, and the second reading does not ask again.
#[test]
fn orders_for_the_next_turn_are_held_until_it_opens() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let d = po.accept(&mail(CONAN, "t2a@a", "GAME ford SIDE aquilonia PASSWORD dragon7 TURN 2\nNEW PASSWORD lionheart9\nBlack Dragons: phase 1 move 6\nEND\n"), "test", t0()).unwrap().unwrap();
    assert_eq!(d.state(), "deferred", "{d:?}");
    let replies: Vec<String> = outbox(&po)
        .into_iter()
        .filter(|(k, to, _)| k == "reply" && to == CONAN)
        .map(|(_, _, raw)| body_text(&raw))
        .collect();
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(
        replies[0].contains("The password of side aquilonia is changed"),
        "{}",
        replies[0]
    );
    assert!(
        replies[1].contains("your mail for turn 2 (aquilonia) is held")
            && replies[1].contains("taking orders for turn 1 now"),
        "{}",
        replies[1]
    );
    // A second mail for turn 2, with the new password, is held after it.
    let d = po.accept(&mail(CONAN, "t2b@a", "GAME ford SIDE aquilonia PASSWORD lionheart9 TURN 2\nBlack Dragons: phase 1 move 4\nEND\n"), "test", t0()).unwrap().unwrap();
    assert_eq!(d.state(), "deferred");
    assert_eq!(count(&po, "messages", "state = 'deferred'"), 2);
    assert_eq!(count(&po, "outbox", "kind = 'confirmation'"), 0);
    assert_eq!(count(&po, "messages", "raw LIKE '%dragon7%'"), 0, "masked");

    // Turn 1 is played on both sides' orders; turn 2 opens and the held
    // mails are read, oldest first.
    po.accept(
        &mail(
            CONAN,
            "t1a@a",
            "GAME ford SIDE aquilonia PASSWORD lionheart9\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            TARASCUS,
            "t1n@n",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(count(&po, "rounds", "report IS NOT NULL"), 1);
    assert_eq!(count(&po, "messages", "state = 'deferred'"), 0);
    let confirmations: Vec<String> = outbox(&po)
        .into_iter()
        .filter(|(k, to, _)| k == "confirmation" && to == CONAN)
        .map(|(_, _, raw)| body_text(&raw))
        .collect();
    assert_eq!(confirmations.len(), 3, "{confirmations:?}");
    assert!(
        confirmations[1].contains("turn 2: orders for aquilonia received"),
        "{}",
        confirmations[1]
    );
    assert!(
        confirmations[2].contains("Changes since your previous orders")
            && confirmations[2].contains("phase 1 move 4"),
        "{}",
        confirmations[2]
    );
    // The password was changed once, by the first reading only.
    let d = po
        .accept(
            &mail(
                CONAN,
                "t2c@a",
                "GAME ford SIDE aquilonia PASSWORD lionheart9\nSTATUS\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "done");
    // Nothing is read twice: the rounds' mail stays as it is.
    let before = outbox(&po).len();
    po.process_pending(t0()).unwrap();
    assert_eq!(outbox(&po).len(), before);
}

/// `keep_sent_days`: a pass of sending forgets the bodies of mail sent
/// longer ago than that (the headers stay: who, what, when, Message-ID);
/// the spool's copies, mail sent since and mail not yet sent keep theirs.
#[test]
fn bodies_of_mail_sent_long_ago_are_forgotten_when_the_club_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.keep_sent_days = 2;
    let mut po = umpire::post::PostOffice::open(config).unwrap();
    po.create_game(
        &umpire::post::gamefile::GameFile::load(&game_file(dir.path())).unwrap(),
        t0(),
    )
    .unwrap();
    po.send(t0()).unwrap();
    let welcomes = outbox(&po);
    let orders = mail(
        CONAN,
        "o1@aquilonia.example",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
    );
    po.accept(&orders, "test", t0() + Duration::days(1))
        .unwrap();
    po.send(t0() + Duration::days(1)).unwrap();
    assert!(
        outbox(&po)
            .iter()
            .all(|(_, _, raw)| !raw.contains("no longer kept")),
        "nothing is two days old yet"
    );
    let late = mail(
        CONAN,
        "o2@aquilonia.example",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 4\nEND\n",
    );
    po.accept(&late, "test", t0() + Duration::days(2)).unwrap();
    po.send(t0() + Duration::days(2) + Duration::hours(1))
        .unwrap();
    let out = outbox(&po);
    let (first, rest) = out.split_at(welcomes.len());
    for (kind, _, raw) in first {
        assert!(raw.contains("Message-ID: <"), "{kind}: headers kept");
        assert!(raw.contains("(sent; the body"), "{kind}: body gone\n{raw}");
        assert!(!raw.contains("Black Dragons"), "{kind}");
    }
    let confirmations: Vec<&String> = rest
        .iter()
        .filter(|(kind, _, _)| kind == "confirmation")
        .map(|(_, _, raw)| raw)
        .collect();
    assert_eq!(confirmations.len(), 2);
    for raw in confirmations {
        assert!(
            raw.contains("Black Dragons"),
            "sent a day ago or today: kept"
        );
    }
    // The delivered copies are untouched.
    let spooled: Vec<String> = std::fs::read_dir(dir.path().join("outbox"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(spooled.len(), out.len());
    assert!(spooled.iter().all(|m| !m.contains("no longer kept")));
}

/// A restart (the post office opened again on its store) verifies a
/// known player's password without Argon2: the verifier kept when the
/// password was made, under the key in the file beside the store, answers
/// for it (issue 43). Argon2 stays the authority for anything else.
#[test]
fn a_restarted_office_knows_its_players_passwords_without_argon2() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("umpire.sqlite.key");
    restarted_office_knows_passwords(config(dir.path()), dir.path(), &key);
}

/// The same on PostgreSQL, the key in `password_key_file` (by default
/// `umpire.key` beside `umpire.toml`), which every worker of the store
/// reads: a worker just started verifies a known password without Argon2.
#[test]
#[ignore = "needs a PostgreSQL server: run scripts/test (it starts one and sets UMPIRE_TEST_POSTGRES)"]
fn a_restarted_postgres_worker_knows_its_players_passwords_without_argon2() {
    let url = umpire::store::testing::fresh_postgres()
        .expect("UMPIRE_TEST_POSTGRES names no server: scripts/test starts one");
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("umpire.key");
    let config = umpire::config::Config {
        database: url.into(),
        password_key_file: Some(key.clone()),
        ..config(dir.path())
    };
    restarted_office_knows_passwords(config, dir.path(), &key);
}

/// The game 'ford' made on the store of `config` (in `dir`), its players'
/// orders given to post offices opened on it again and again: Argon2 only
/// for what the verifiers under the key in the file `key` cannot answer.
fn restarted_office_knows_passwords(
    config: umpire::config::Config,
    dir: &std::path::Path,
    key: &std::path::Path,
) {
    use umpire::post::password::slow_verifications;
    let open = || umpire::post::PostOffice::open(config.clone()).unwrap();
    let mut po = open();
    po.create_game(
        &umpire::post::gamefile::GameFile::load(&game_file(dir)).unwrap(),
        t0(),
    )
    .unwrap();
    drop(po);
    assert!(key.exists(), "the key file");
    let order = |po: &mut umpire::post::PostOffice, id: &str, pw: &str, then: &str| {
        let before = slow_verifications();
        let d = po
            .accept(
                &mail(
                    CONAN,
                    id,
                    &format!("GAME ford SIDE aquilonia PASSWORD {pw}\n{then}"),
                ),
                "test",
                t0(),
            )
            .unwrap()
            .unwrap();
        (d.state().to_string(), slow_verifications() - before)
    };
    let mut po = open();
    let hold = "Black Dragons: phase 1 hold\nEND\n";
    assert_eq!(order(&mut po, "k1@a", "dragon7", hold), ("done".into(), 0));
    assert_eq!(
        order(&mut po, "k2@a", "dragon8", hold),
        ("refused".into(), 1)
    );
    // A new password: the old one's verifier answers for nothing.
    let new = "NEW PASSWORD black-lotus\n";
    assert_eq!(order(&mut po, "k3@a", "dragon7", new).0, "done");
    assert_eq!(
        order(&mut po, "k4@a", "dragon7", hold),
        ("refused".into(), 1)
    );
    drop(po);
    let mut po = open();
    assert_eq!(
        order(&mut po, "k5@a", "black-lotus", hold),
        ("done".into(), 0)
    );
    drop(po);
    // The key file lost: Argon2 answers, and a new key's verifier after.
    std::fs::remove_file(key).unwrap();
    let mut po = open();
    assert_eq!(
        order(&mut po, "k6@a", "black-lotus", hold),
        ("done".into(), 1)
    );
    assert_eq!(
        order(&mut po, "k7@a", "black-lotus", hold),
        ("done".into(), 0)
    );
}
