//! The report as a player sees it: the mail carries text, HTML and the
//! picture; the exported archive opens in a real browser (headless
//! Chromium, installed by .ci/run) with the picture visible; the JSON form
//! parses; and a turn replays to the same bytes from its seed.

use crate::common;
use common::*;
use mail_parser::MimeHeaders;
use std::process::Command;

fn play_one_turn(dir: &std::path::Path) -> umpire::post::PostOffice {
    let mut po = office_with_game(dir);
    po.accept(&mail(CONAN, "a1@x", "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nBossonian Archers: phase 1 face right 45\nEND\n"), "test", t0()).unwrap();
    po.accept(&mail(TARASCUS, "n1@x", "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 charge Black Dragons\nEND\n"), "test", t0()).unwrap();
    po
}

/// Every confirmation of accepted orders carries the order preview: a
/// picture of the sender's units where the orders take them (ruling P26);
/// a mail whose every order was refused carries none.
#[test]
fn a_confirmation_carries_the_order_preview() {
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
    po.accept(
        &mail(
            TARASCUS,
            "p2@x",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNo Such Unit: phase 1 move 6\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let confirmations: Vec<(String, String)> = outbox(&po)
        .into_iter()
        .filter(|(k, _, _)| k == "confirmation")
        .map(|(_, to, raw)| (to, raw))
        .collect();
    let parse = |raw: &str| {
        mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap()
            .into_owned()
    };
    let (_, conan) = confirmations.iter().find(|(to, _)| to == CONAN).unwrap();
    let m = parse(conan);
    let preview = m
        .attachments()
        .find(|a| {
            a.attachment_name()
                .is_some_and(|n| n == "ford-turn-1-aquilonia-preview.svg")
        })
        .expect("the preview is attached");
    let svg = String::from_utf8_lossy(preview.contents());
    // Black Dragons' path, and the picture rasterises.
    assert!(svg.contains("<polyline points="), "{svg}");
    assert!(umpire::report::picture::png(&svg)
        .unwrap()
        .starts_with(b"\x89PNG"));
    let text = m.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(
        text.contains("The picture attached shows where your orders take your units"),
        "{text}"
    );
    let (_, tarascus) = confirmations.iter().find(|(to, _)| to == TARASCUS).unwrap();
    let m = parse(tarascus);
    assert_eq!(m.attachments().count(), 0, "no order stood: no preview");
}

#[test]
fn report_mail_has_text_html_and_the_picture_inline_and_attached() {
    let dir = tempfile::tempdir().unwrap();
    let po = play_one_turn(dir.path());
    let (_, to, raw) = outbox(&po)
        .into_iter()
        .find(|(k, _, _)| k == "report")
        .unwrap();
    assert_eq!(to, CONAN);
    let m = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap();
    let html = m.body_html(0).unwrap();
    let cid = html
        .split("src=\"cid:")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let png = m
        .attachments()
        .find(|a| a.content_id() == Some(cid.as_str()))
        .expect("the picture is inline under the cid the HTML uses");
    assert!(png.contents().starts_with(b"\x89PNG"));
    assert!(m
        .attachments()
        .any(|a| a.attachment_name().is_some_and(|n| n.ends_with(".png"))));
    let svg = m
        .attachments()
        .find(|a| a.attachment_name().is_some_and(|n| n.ends_with(".svg")))
        .expect("the SVG is attached");
    let svg = String::from_utf8_lossy(svg.contents());
    // Nemedian Knights charged: their move is drawn as a charge (solid);
    // Black Dragons only moved (dashed).
    assert_eq!(
        svg.matches("stroke=\"#111\" stroke-width=\"2.5\"").count(),
        1,
        "{svg}"
    );
    assert!(svg.contains("stroke-dasharray=\"5 3\" marker-end"));
    let text = m.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(text.contains("Phase 1 movement"), "{text}");
    assert!(text.contains("Black Dragons"), "{text}");
    // After the turn, the orders each side gave, as understood.
    assert!(
        text.contains("Orders given\n------------\naquilonia:\n  Black Dragons: phase 1 move 6\n"),
        "{text}"
    );
    assert!(
        text.contains("nemedia:\n  Nemedian Knights: phase 1 charge Black Dragons\n"),
        "{text}"
    );
    // The standing against the book's goal on a bare layout (ruling P6).
    assert!(
        text.contains(
            "Victory\n-------\nnemedia has lost 0 of 204 points (0%); 50% breaks an army.\n"
        ),
        "{text}"
    );
    assert!(html.contains("<h2>Orders given</h2>"), "{html}");
}

#[test]
#[ignore = "needs Chromium (Debian package chromium): run scripts/test (the README's test command)"]
fn exported_archive_renders_in_chromium_with_the_picture_visible() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = play_one_turn(dir.path());
    let site = dir.path().join("site");
    assert_eq!(
        umpire::post::export_html(&mut po, "ford", &site).unwrap(),
        1
    );
    let page = std::fs::read_to_string(site.join("turn-1.html")).unwrap();
    assert!(page.contains("src=\"turn-1.png\""));
    assert!(std::fs::read_to_string(site.join("index.html"))
        .unwrap()
        .contains("turn-1.html"));

    // The turn's page and the index, each with the picture drawn.
    for (page, least) in [("turn-1.html", 50_000), ("index.html", 20_000)] {
        let shot = dir.path().join(format!("{page}.png"));
        let out = chromium(dir.path())
            .args(["--window-size=800,900", "--hide-scrollbars"])
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("file://{}", site.join(page).display()))
            .output()
            .expect("chromium is installed by .ci/run (Debian package chromium)");
        assert!(
            shot.exists(),
            "no screenshot of {page}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(&shot).unwrap()).unwrap();
        // The table's cloth colour (#e9efd8) covers a large part of the page
        // only if the picture loaded and was drawn.
        let cloth = pixmap
            .pixels()
            .iter()
            .filter(|p| (p.red(), p.green(), p.blue()) == (0xe9, 0xef, 0xd8))
            .count();
        assert!(
            cloth > least,
            "{page}: picture not visible: {cloth} pixels of table cloth"
        );
    }
    // The page as the browser built it: no draft banner on a released
    // turn, and the round's verification bundle linked.
    let out = chromium(dir.path())
        .arg("--dump-dom")
        .arg(format!("file://{}", site.join("turn-1.html").display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("<h1>"), "{dom}");
    assert!(!dom.contains("DRAFT"), "{dom}");
    assert!(dom.contains("href=\"umpire-verify-ford-1.json\""), "{dom}");
    assert!(site.join("umpire-verify-ford-1.json").exists());
}

/// Headless Chromium with a profile of its own in `dir`, quiet on the network.
pub(crate) fn chromium(dir: &std::path::Path) -> Command {
    let mut c = Command::new("chromium");
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
    ])
    .args([
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ])
    .arg(format!("--user-data-dir={}", dir.join("profile").display()));
    c
}

#[test]
fn json_report_and_verify_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    drop(play_one_turn(dir.path()));
    std::fs::write(
        dir.path().join("umpire.toml"),
        "database = \"umpire.sqlite\"\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_umpire"))
            .arg("--config")
            .arg(dir.path().join("umpire.toml"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["report", "ford", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["report"]["turn"], 1);
    assert!(v["table"]["units"]["dragons"].is_object());
    let out = run(&["verify", "ford", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("every roll and result matches"), "{text}");
}

#[test]
fn the_demo_plays_a_game_and_says_where_every_kind_of_mail_is() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo");
    let summary = umpire::demo::run(&out, umpire::demo::Game::Ford, demo_day()).unwrap();
    for kind in ["report", "confirmation", "refusal", "welcome"] {
        assert!(summary.contains(&format!("e.g. a {kind}: ")), "{summary}");
    }
    let reports = std::fs::read_dir(out.join("outbox"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains(".report."))
        .count();
    assert!(
        reports >= 9,
        "at least three turns reported to three addresses: {reports}"
    );
    // Each moment of the battle is found in a mail, and the summary names it.
    let wanted = [
        "did you mean",
        "charge with its bonuses",
        "missile fire",
        "casting roll",
        "second round",
        "morale tests",
        "commander's effect",
        "falling back",
        "routing",
        "a victor and the reason",
    ];
    common::demo_shows(&out, umpire::demo::Game::Ford, &summary, &wanted);
    // The folder must be fresh: a second run refuses instead of mixing games.
    assert!(umpire::demo::run(&out, umpire::demo::Game::Ford, demo_day()).is_err());
}

/// The day the demo tests run the demo on: fixed, so they never depend on
/// the wall clock.
fn demo_day() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2031, 6, 15).unwrap()
}

/// Every date a mail of the demo gives (`YYYY-MM-DD`, as deadlines are
/// written) in its text.
fn dates_in(text: &str) -> Vec<chrono::NaiveDate> {
    let b = text.as_bytes();
    let shaped = |i: usize| {
        (0..10).all(|k| match k {
            4 | 7 => b[i + k] == b'-',
            _ => b[i + k].is_ascii_digit(),
        }) && (i == 0 || !b[i - 1].is_ascii_digit())
    };
    (0..b.len().saturating_sub(9))
        .filter(|&i| shaped(i))
        .filter_map(|i| chrono::NaiveDate::parse_from_str(&text[i..i + 10], "%Y-%m-%d").ok())
        .collect()
}

#[test]
fn the_demos_deadlines_lie_after_the_day_it_is_run() {
    // Run on a day after the dates the demo once had fixed (2026-12-03),
    // and on one before: its mails follow the day given.
    for (day, game) in [
        (demo_day(), umpire::demo::Game::Ford),
        (
            chrono::NaiveDate::from_ymd_opt(2026, 12, 6).unwrap(),
            umpire::demo::Game::Ford,
        ),
        (
            chrono::NaiveDate::from_ymd_opt(2026, 12, 6).unwrap(),
            umpire::demo::Game::Soissons,
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("demo");
        umpire::demo::run(&out, game, day).unwrap();
        let mut deadlines = 0;
        for e in std::fs::read_dir(out.join("outbox")).unwrap().flatten() {
            let text = body_text(&std::fs::read_to_string(e.path()).unwrap());
            for line in text
                .lines()
                .filter(|l| l.to_lowercase().contains("deadline") || l.contains("due by"))
            {
                for d in dates_in(line) {
                    deadlines += 1;
                    assert!(
                        d > day,
                        "run on {day}, {} gives a deadline on {d}: {line}",
                        e.file_name().to_string_lossy()
                    );
                }
            }
        }
        assert!(deadlines > 0, "the demo's mails give deadlines");
    }
}
