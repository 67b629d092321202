//! The club's web pages (`[web] dir`, `post::site`): written after each
//! released report and only then, never a draft nor orders of a turn not
//! yet played, every file whole; read in headless Chromium at a phone's
//! width.

use crate::common;
use common::*;
use umpire::post::site::refresh;

/// Every file under `dir`, with its text when it is text.
fn files(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                out.push((p, text));
            }
        }
    }
    out
}

/// Both sides' orders for turn 1 of the ford: the turn is played.
fn both_sides_order(po: &mut umpire::post::PostOffice) {
    for (from, id, body) in [
        (
            CONAN,
            "a1@x",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ),
        (
            TARASCUS,
            "n1@x",
            "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 3\nEND\n",
        ),
    ] {
        po.accept(&mail(from, id, body), "test", t0()).unwrap();
    }
}

#[test]
fn the_site_follows_the_games_and_shows_only_what_is_released() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let mut po = office_with_game(dir.path());

    // Before any turn: the game is listed, due, with no pages of its own.
    let first = refresh(&mut po, &site).unwrap();
    assert!(first.written && first.turns == 0, "{first:?}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("The Ford") || index.contains("ford"),
        "{index}"
    );
    assert!(index.contains("Turn 1, due "), "{index}");
    assert!(index.contains("href=\"style.css\""), "{index}");
    assert!(!site.join("games/ford").exists());

    // One side's orders are in: nothing of them shows.
    po.accept(&mail(CONAN, "a1@x", "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nBossonian Archers: phase 1 face right 45\nEND\n"), "test", t0()).unwrap();
    let quiet = refresh(&mut po, &site).unwrap();
    assert!(!quiet.written, "nothing the site shows changed: {quiet:?}");
    for (path, text) in files(&site) {
        assert!(
            !text.contains("Bossonian Archers: phase 1"),
            "{}",
            path.display()
        );
    }

    // The turn is played and released: its page, picture and bundle.
    po.accept(&mail(TARASCUS, "n1@x", "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 charge Black Dragons\nEND\n"), "test", t0()).unwrap();
    let played = refresh(&mut po, &site).unwrap();
    assert_eq!(played.turns, 1, "{played:?}");
    let game = site.join("games/ford");
    for f in [
        "index.html",
        "turn-1.html",
        "turn-1.png",
        "turn-1.svg",
        "umpire-verify-ford-1.json",
    ] {
        assert!(game.join(f).exists(), "{f}");
    }
    let turn = std::fs::read_to_string(game.join("turn-1.html")).unwrap();
    assert!(turn.contains("href=\"../../style.css\""), "{turn}");
    assert!(turn.contains("href=\"../../index.html\""), "{turn}");
    assert!(!turn.contains("DRAFT"), "{turn}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("href=\"games/ford/index.html\""), "{index}");
    assert!(index.contains("Turn 2, due "), "{index}");

    // Unchanged since: nothing is drawn again; no file is left half-written.
    assert_eq!(refresh(&mut po, &site).unwrap().turns, 0);
    for (path, _) in files(&site) {
        assert!(
            !path.to_string_lossy().ends_with(".tmp"),
            "{}",
            path.display()
        );
    }
}

/// A turn the moderator must approve is held as a draft: the site shows
/// nothing of it until it is released.
#[test]
fn a_draft_is_not_published() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let path = game_file(dir.path());
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("hold = true\n{text}")).unwrap();
    let mut po = umpire::post::PostOffice::open(config(dir.path())).unwrap();
    po.create_game(
        &umpire::post::gamefile::GameFile::load(&path).unwrap(),
        t0(),
    )
    .unwrap();
    both_sides_order(&mut po);
    refresh(&mut po, &site).unwrap();
    assert!(!site.join("games/ford").exists(), "a draft was published");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(!index.contains("games/ford/"), "{index}");
    for (path, text) in files(&site) {
        assert!(!text.contains("DRAFT"), "{}", path.display());
    }
}

#[test]
fn umpire_site_writes_the_pages_named_in_the_configuration() {
    let dir = tempfile::tempdir().unwrap();
    drop(office_with_game(dir.path()));
    let run = |toml: &str| {
        std::fs::write(dir.path().join("umpire.toml"), toml).unwrap();
        umpire_in(dir.path())
            .arg("site")
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap()
    };
    let none = run("database = \"umpire.sqlite\"\n");
    assert!(!none.status.success());
    assert!(
        String::from_utf8_lossy(&none.stderr).contains("no [web] section"),
        "{}",
        String::from_utf8_lossy(&none.stderr)
    );
    let out = run("database = \"umpire.sqlite\"\n[web]\ndir = \"public\"\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("public/index.html").exists());
    assert!(dir.path().join("public/style.css").exists());

    // The service writes them after its pass.
    std::fs::remove_dir_all(dir.path().join("public")).unwrap();
    let run = umpire_in(dir.path())
        .args(["run", "--once"])
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let index = std::fs::read_to_string(dir.path().join("public/index.html")).unwrap();
    assert!(index.contains("(ford)"), "{index}");
}

#[test]
#[ignore = "needs Chromium (Debian package chromium): run scripts/test (the README's test command)"]
fn the_site_reads_on_a_phone_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let mut po = office_with_game(dir.path());
    both_sides_order(&mut po);
    refresh(&mut po, &site).unwrap();
    // The index and the turn's page at a phone's width: the stylesheet is
    // read (the page's width stays within the screen) and the picture drawn.
    for page in ["index.html", "games/ford/turn-1.html"] {
        let out = super::report_html::chromium(dir.path())
            .args(["--window-size=390,844", "--virtual-time-budget=2000"])
            .arg("--run-all-compositor-stages-before-draw")
            .arg("--dump-dom")
            .arg(format!("file://{}", site.join(page).display()))
            .output()
            .expect("chromium is installed by .ci/run (Debian package chromium)");
        let dom = String::from_utf8_lossy(&out.stdout);
        assert!(dom.contains("<h1>"), "{page}: {dom}");
        assert!(dom.contains("style.css"), "{page}: {dom}");
    }
    let shot = dir.path().join("turn.png");
    super::report_html::chromium(dir.path())
        .args(["--window-size=390,844", "--hide-scrollbars"])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!(
            "file://{}",
            site.join("games/ford/turn-1.html").display()
        ))
        .output()
        .unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(&shot).unwrap()).unwrap();
    let cloth = pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == (0xe9, 0xef, 0xd8))
        .count();
    // The picture, scaled to the phone's width, is drawn.
    assert!(cloth > 20_000, "{cloth} pixels of table cloth");
}
