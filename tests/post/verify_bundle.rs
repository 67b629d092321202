//! Verification players can run (ruling P21): a turn played by mail, the
//! bundle taken from the report mail, saved, and replayed by the real
//! binary with no database and no configuration; a tampered bundle
//! differs, garbage is refused; the web export links the same bundle.

use crate::common;
use common::*;
use std::path::Path;
use std::process::{Command, Output};

/// Two turns of the Ford with both sides charging: the second has a melee,
/// two of whose dice the moderator gave.
fn play_two_turns(dir: &Path) -> umpire::post::PostOffice {
    // The Tybor lies between the cavalry: open, so that they meet.
    let mut po = office_with_options(dir, "rivers = \"open\"");
    po.accept(
        &mail(
            MODERATOR,
            "md1@x",
            "MODERATOR ford PASSWORD modpw\nDICE TURN 2 melee:dragons=5 melee:knights=2\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    for id in ["t1", "t2"] {
        po.accept(&mail(CONAN, &format!("a{id}@x"), "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 charge Nemedian Knights\nEND\n"), "test", t0()).unwrap();
        po.accept(&mail(TARASCUS, &format!("n{id}@x"), "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 charge Black Dragons\nEND\n"), "test", t0()).unwrap();
    }
    po
}

/// `umpire verify --bundle FILE` run in an empty folder (no umpire.toml,
/// no database beside it).
fn verify(file: &Path) -> (Output, String) {
    let empty = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .current_dir(empty.path())
        .args(["verify", "--bundle"])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        std::fs::read_dir(empty.path()).unwrap().next().is_none(),
        "verify --bundle wrote nothing"
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

/// The first die (a `die` or `roll` field) in the events, changed.
fn change_one_die(v: &mut serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if (k == "die" || k == "roll") && x.is_u64() {
                    let d = x.as_u64().unwrap();
                    *x = (d % 6 + 1).into();
                    return true;
                }
                if change_one_die(x) {
                    return true;
                }
            }
            false
        }
        serde_json::Value::Array(a) => a.iter_mut().any(change_one_die),
        _ => false,
    }
}

#[test]
fn a_player_replays_the_attached_bundle_with_the_real_binary() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = play_two_turns(dir.path());
    let (_, _, raw) = outbox(&po)
        .into_iter()
        .filter(|(k, to, _)| k == "report" && to == CONAN)
        .nth(1)
        .unwrap();
    let (name, bytes) = bundle_attached(&raw).expect("the report attaches its bundle");
    assert_eq!(name, "umpire-verify-ford-2.json");
    let text = body_text(&raw);
    assert!(
        text.contains("save the attached umpire-verify-ford-2.json")
            && text.contains("umpire verify --bundle umpire-verify-ford-2.json"),
        "{text}"
    );
    // Small: no compression needed (measured in the merge report).
    assert!(bytes.len() < 200_000, "{} bytes", bytes.len());
    let file = dir.path().join(&name);
    std::fs::write(&file, &bytes).unwrap();

    let (out, said) = verify(&file);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("SHA-256 of the seed matches"), "{said}");
    assert!(said.contains("the rolls, in order:"), "{said}");
    assert!(
        said.contains("the moderator supplied: melee:dragons=5 melee:knights=2")
            && said.contains("melee:dragons = 5 (the moderator's die)"),
        "{said}"
    );
    assert!(said.contains("every roll and result matches"), "{said}");
    assert!(said.contains("table after the turn: matches"), "{said}");
    assert!(said.contains("Verdict: everything matches"), "{said}");
    // Every roll the report printed is printed again by the replay.
    let report = umpire::post::report_text(&mut po, "ford", Some(2), false).unwrap();
    let rolls: Vec<&str> = report
        .lines()
        .filter(|l| {
            l.split_once(" = ")
                .is_some_and(|(key, _)| key.contains(':') && !key.contains(' '))
        })
        .collect();
    assert!(!rolls.is_empty(), "{report}");
    for roll in rolls {
        assert!(said.contains(roll), "{roll} not replayed: {said}");
    }

    // One die changed in the events: it differs, says where, exits 1.
    let mut bundle: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert!(change_one_die(&mut bundle["rounds"][0]["events"]));
    let tampered = dir.path().join("tampered.json");
    std::fs::write(&tampered, serde_json::to_vec(&bundle).unwrap()).unwrap();
    let (out, said) = verify(&tampered);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("THEY DIFFER from the report:"), "{said}");
    assert!(said.contains("events["), "the path of the die: {said}");
    assert!(said.contains("the report says"), "{said}");
    assert!(said.contains("THE REPLAY DIFFERS"), "{said}");

    // Another rules version says so plainly.
    let mut other: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    other["rounds"][0]["rules"] = "hyborian-age 0.0.9 r1".into();
    let older = dir.path().join("older.json");
    std::fs::write(&older, serde_json::to_vec(&other).unwrap()).unwrap();
    let (out, said) = verify(&older);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("played under: hyborian-age 0.0.9 r1") && said.contains("this build:"),
        "{said}"
    );

    // Garbage, a truncated file, a seed its hash did not commit to: refused
    // in one clear line (exit 2), never a panic.
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "garbage",
            b"GAME ford SIDE aquilonia\n".to_vec(),
            "line 1, column 1",
        ),
        (
            "truncated",
            bytes[..bytes.len() * 2 / 3].to_vec(),
            "save it whole",
        ),
        (
            "seed",
            String::from_utf8(bytes.clone())
                .unwrap()
                .replacen("\"seed\":\"", "\"seed\":\"0", 1)
                .into_bytes(),
            "refused",
        ),
        ("binary", vec![0xff, 0xfe, 0, 1], "not text"),
        (
            "types",
            String::from_utf8(bytes.clone())
                .unwrap()
                .replace("\"last_turn\":", "\"last_turn\":\"")
                .into_bytes(),
            "refused",
        ),
    ];
    for (what, content, says) in cases {
        let f = dir.path().join(format!("{what}.json"));
        std::fs::write(&f, content).unwrap();
        let (out, said) = verify(&f);
        assert_eq!(out.status.code(), Some(2), "{what}: {said}");
        assert!(
            said.contains("refused: ") && said.contains(says),
            "{what}: {said}"
        );
        assert!(!said.contains("panicked"), "{what}: {said}");
    }
    // A seed changed to another valid one: its hash no longer matches.
    let mut forged: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    forged["rounds"][0]["seed"] = "00".repeat(32).into();
    let f = dir.path().join("forged.json");
    std::fs::write(&f, serde_json::to_vec(&forged).unwrap()).unwrap();
    let (out, said) = verify(&f);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("not the hash published before the round"),
        "{said}"
    );
    // Huge: refused by its size, not read whole.
    let f = dir.path().join("huge.json");
    std::fs::write(&f, vec![b' '; umpire::post::bundle::MAX_BYTES + 10]).unwrap();
    let (out, said) = verify(&f);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("more than a verification bundle can be"),
        "{said}"
    );

    // The web export writes and links the very same bundle.
    let site = dir.path().join("site");
    umpire::post::export_html(&mut po, "ford", &site).unwrap();
    assert_eq!(std::fs::read(site.join(&name)).unwrap(), bytes);
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("href=\"umpire-verify-ford-2.json\""),
        "{index}"
    );
    let page = std::fs::read_to_string(site.join("turn-2.html")).unwrap();
    assert!(
        page.contains("<a href=\"umpire-verify-ford-2.json\" download>"),
        "{page}"
    );
    assert!(!page.contains("DRAFT"), "{page}");
}

/// A held turn's draft carries no bundle (the moderator may still reject
/// it); once approved, the players' reports do.
#[test]
fn a_draft_has_no_bundle_and_the_released_report_has() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_options(dir.path(), "");
    po.accept(
        &mail(
            MODERATOR,
            "h1@m",
            "MODERATOR ford PASSWORD modpw\nHOLD ON\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            CONAN,
            "a1@x",
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
    let draft = outbox(&po)
        .into_iter()
        .find(|(k, _, _)| k == "draft")
        .expect("a held turn is a draft");
    assert!(bundle_attached(&draft.2).is_none());
    assert!(body_text(&draft.2).contains("umpire verify ford 1"));
    po.accept(
        &mail(
            MODERATOR,
            "h2@m",
            "MODERATOR ford PASSWORD modpw\nAPPROVE 1\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(every_bundle_verifies(&po, CONAN), 1);
    assert_eq!(every_bundle_verifies(&po, TARASCUS), 1);
}
