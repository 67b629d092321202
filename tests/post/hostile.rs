//! The post office under hostile and unlucky mail, on a real SQLite file:
//! one test per finding of the review (issue 14), each through the whole
//! path from the raw bytes to the outbox. Nothing here may stop the umpire
//! for everyone, let a stranger order a side's troops, tell a stranger
//! anything a wrong password would not, or lose or double a reply.

use crate::common;
use common::*;
use std::process::Command;
use umpire::post::{gamefile::GameFile, Disposition, PostOffice};

const ORDERS: &str =
    "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n";

fn count(po: &PostOffice, table: &str, cond: &str) -> i64 {
    po.store().count(table, cond).unwrap()
}

/// A raw mail with every header given.
fn raw(headers: &str, body: &str) -> Vec<u8> {
    format!("{headers}\r\nTo: {UMPIRE}\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}")
        .replace("\r\n", "\n")
        .replace('\n', "\r\n")
        .into_bytes()
}

/// After whatever went before, a plain order mail is still answered.
fn still_answered(po: &mut PostOffice, id: &str) {
    let before = count(po, "outbox", "kind = 'confirmation'");
    let d = po.accept(&mail(CONAN, id, ORDERS), "test", t0()).unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
    assert_eq!(
        count(po, "outbox", "kind = 'confirmation'"),
        before + 1,
        "the next order mail is confirmed"
    );
}

#[test]
fn subjects_with_characters_of_several_bytes_are_answered() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    for (i, subject) in ["Oké orders", "Приказы", "🗡️ orders", "Re: é", "ré", "aw:ü"]
        .iter()
        .enumerate()
    {
        let m = raw(
            &format!("From: {CONAN}\r\nSubject: {subject}\r\nMessage-ID: <s{i}@aquilonia.example>"),
            ORDERS,
        );
        let d = po.accept(&m, "test", t0()).unwrap();
        assert!(
            matches!(d, Some(Disposition::Orders { .. })),
            "{subject}: {d:?}"
        );
    }
    let out = outbox(&po);
    assert!(
        out.iter().any(|(_, _, r)| r.contains("Subject: Re:")),
        "replies went out"
    );
    still_answered(&mut po, "after-subjects@aquilonia.example");
}

#[test]
fn message_ids_and_references_without_a_domain_only_cost_the_thread() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let m = raw(&format!("From: {CONAN}\r\nSubject: orders\r\nMessage-ID: <nodomain>\r\nReferences: <nodomain> <also bad>\r\nIn-Reply-To: <x>"), ORDERS);
    let d = po.accept(&m, "test", t0()).unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
    let (_, _, reply) = outbox(&po).pop().unwrap();
    assert!(
        !reply.contains("In-Reply-To") && !reply.contains("nodomain"),
        "{reply}"
    );
    still_answered(&mut po, "after-ids@aquilonia.example");
}

#[test]
fn a_from_that_is_not_one_plain_address_is_never_taken_for_a_player() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let before = outbox(&po).len();
    let forged = [
        format!("From: <{CONAN}>@evil.example"),
        format!("From: {CONAN}, evil@evil.example"),
        format!("From: evil@evil.example\r\nFrom: {CONAN}"),
        format!("From: {CONAN}\r\nFrom: evil@evil.example"),
        "From: Conan".to_string(),
    ];
    for (i, from) in forged.iter().enumerate() {
        let m = raw(
            &format!("{from}\r\nSubject: orders\r\nMessage-ID: <f{i}@evil.example>"),
            ORDERS,
        );
        let d = po.accept(&m, "test", t0()).unwrap();
        assert!(matches!(d, Some(Disposition::Ignored(_))), "{from}: {d:?}");
    }
    assert_eq!(
        count(&po, "submissions", "1"),
        0,
        "no spoofed orders were taken"
    );
    assert_eq!(outbox(&po).len(), before, "nobody was answered");
    still_answered(&mut po, "after-forgery@aquilonia.example");
}

#[test]
fn deadlines_and_extensions_beyond_their_bounds_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let deadline = || -> String { po_deadline(dir.path()) };
    let first = deadline();
    let body = "MODERATOR ford PASSWORD modpw\nDEADLINE 9999-12-31 23:59\nEXTEND 999999\nEXTEND 0\nDEADLINE 2020-01-01 10:00\n";
    po.accept(&mail(MODERATOR, "m1@club.example", body), "test", t0())
        .unwrap();
    assert_eq!(deadline(), first, "no command moved the deadline");
    let (_, _, reply) = outbox(&po).pop().unwrap();
    let text = body_text(&reply);
    assert!(
        text.contains("more than 366 days away")
            && text.contains("extend by 1 to 720 hours")
            && text.contains("has passed"),
        "{text}"
    );
    for i in 0..20 {
        po.accept(
            &mail(
                MODERATOR,
                &format!("e{i}@club.example"),
                "MODERATOR ford PASSWORD modpw\nEXTEND 720\n",
            ),
            "test",
            t0(),
        )
        .unwrap();
    }
    still_answered(&mut po, "after-extend@aquilonia.example");
}

fn po_deadline(dir: &std::path::Path) -> String {
    let c = rusqlite::Connection::open(dir.join("umpire.sqlite")).unwrap();
    c.query_row("SELECT deadline FROM games WHERE id = 'ford'", [], |r| {
        r.get(0)
    })
    .unwrap()
}

#[test]
fn game_files_and_scenarios_out_of_bounds_are_refused_where_they_enter() {
    let dir = tempfile::tempdir().unwrap();
    let path = game_file(dir.path());
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("turn_hours = 48", "turn_hours = 4294967295"),
    )
    .unwrap();
    let e = umpire::post::gamefile::GameFile::load(&path)
        .unwrap_err()
        .to_string();
    assert!(e.contains("turn_hours") && e.contains("1 to 2160"), "{e}");
    let scenario = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/campaigns/scenarios/river-crossing.toml"
    ))
    .unwrap();
    let huge = scenario.replacen("width = ", "width = 1e300 # ", 1);
    std::fs::write(dir.path().join("huge.toml"), huge).unwrap();
    let scenario_path = dir.path().join("huge.toml");
    std::fs::write(
        &path,
        text.replace(
            &format!(
                "{}",
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("campaigns/scenarios/river-crossing.toml")
                    .display()
            ),
            &scenario_path.display().to_string(),
        ),
    )
    .unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    let e = po
        .create_game(
            &umpire::post::gamefile::GameFile::load(&path).unwrap(),
            t0(),
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 to 1,200"), "{e}");
}

/// A STATUS from a phone ends with the phone's signature and no END; a
/// mistyped command reads like a greeting. Beside a command, such lines
/// are no sheet of orders: nothing is stored for the side, it is not made
/// ready, and the round does not play early (it did: the empty sheet stood
/// as the side's orders).
#[test]
fn a_command_with_a_signature_or_a_mistyped_line_stores_no_orders() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    for (n, stray) in ["Sent from my iPhone", "UNLOKC aquilonia"]
        .iter()
        .enumerate()
    {
        let before = outbox(&po).len();
        let d = po
            .accept(
                &mail(
                    CONAN,
                    &format!("stray{n}@aquilonia.example"),
                    &format!("GAME ford SIDE aquilonia PASSWORD dragon7\nSTATUS\n{stray}\n"),
                ),
                "test",
                t0(),
            )
            .unwrap();
        assert_eq!(d.map(|d| d.state()), Some("done"));
        assert_eq!(
            count(&po, "submissions", "side = 'aquilonia'"),
            0,
            "{stray}"
        );
        assert_eq!(outbox(&po).len(), before + 1, "STATUS is answered");
    }
    // A sheet with an order among such lines is a sheet: the signature is
    // set aside and the order stands.
    po.accept(
        &mail(
            CONAN,
            "orders@aquilonia.example",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nSTATUS\nBlack Dragons: phase 1 move 4\nSent from my iPhone\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(count(&po, "submissions", "side = 'aquilonia'"), 1);
}

#[test]
fn every_reply_is_its_own_message() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let before = outbox(&po).len();
    po.accept(
        &mail(
            CONAN,
            "two@aquilonia.example",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nSTATUS\nHELP\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(
        outbox(&po).len(),
        before + 2,
        "STATUS and HELP answered apart"
    );
    // Three order mails without a Message-ID and with the same subject.
    for moves in ["4", "5", "6"] {
        let body = format!(
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move {moves}\nEND\n"
        );
        po.accept(
            &raw(&format!("From: {CONAN}\r\nSubject: orders"), &body),
            "test",
            t0(),
        )
        .unwrap();
    }
    let confirmations: Vec<String> = outbox(&po)
        .into_iter()
        .filter(|(k, _, _)| k == "confirmation")
        .map(|(_, _, r)| body_text(&r))
        .collect();
    assert_eq!(confirmations.len(), 3);
    assert!(
        confirmations[2].contains("move 6"),
        "the player is told the orders that count: {}",
        confirmations[2]
    );
    // Two installations creating a game with the same id.
    let other = tempfile::tempdir().unwrap();
    let po2 = office_with_game(other.path());
    let ids = |po: &PostOffice| -> Vec<String> {
        let mut st = po
            .store()
            .conn()
            .prepare("SELECT message_id FROM outbox WHERE kind = 'welcome'")
            .unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let (a, b) = (ids(&po), ids(&po2));
    assert!(a.iter().all(|id| !b.contains(id)), "{a:?} {b:?}");
}

#[test]
fn a_stranger_learns_nothing_from_the_right_password_and_guessing_locks_the_side() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let to_stranger = |po: &PostOffice| {
        outbox(po)
            .iter()
            .filter(|(_, to, _)| to.contains("evil.example"))
            .count()
    };
    // The right password from a stranger: only the registered player hears of it.
    po.accept(
        &mail("evil@evil.example", "r1@evil.example", ORDERS),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(
        to_stranger(&po),
        0,
        "the stranger gets what a wrong password gets: nothing"
    );
    let (_, to, warning) = outbox(&po).pop().unwrap();
    assert_eq!(to, CONAN);
    assert!(
        body_text(&warning).contains("evil@evil.example"),
        "the player learns who has the password"
    );
    assert_eq!(count(&po, "submissions", "1"), 0);
    // 200 wrong guesses: a few refusals to the player, then a lockout, told once.
    let refusals_before = count(
        &po,
        "outbox",
        &format!("kind = 'refusal' AND recipients = '{CONAN}'"),
    );
    for i in 0..200 {
        let body =
            format!("GAME ford SIDE aquilonia PASSWORD guess{i}\nBlack Dragons: phase 1 move 6\n");
        po.accept(
            &mail(CONAN, &format!("g{i}@evil.example"), &body),
            "test",
            t0(),
        )
        .unwrap();
    }
    let refusals = count(
        &po,
        "outbox",
        &format!("kind = 'refusal' AND recipients = '{CONAN}'"),
    ) - refusals_before;
    assert!(refusals <= 3, "{refusals} refusals in an hour");
    assert_eq!(
        count(&po, "outbox", "kind = 'notice'"),
        1,
        "the lockout is told once"
    );
    assert_eq!(to_stranger(&po), 0);
    // While locked, even the right password is not read.
    let d = po
        .accept(
            &mail(CONAN, "locked@aquilonia.example", ORDERS),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Refused(_))), "{d:?}");
    // The moderator lifts it.
    let _ = po
        .accept(
            &mail(
                MODERATOR,
                "unlock@club.example",
                "MODERATOR ford PASSWORD modpw\nUNLOCK aquilonia\n",
            ),
            "test",
            t0(),
        )
        .unwrap();
    still_answered(&mut po, "unlocked@aquilonia.example");
}

#[test]
fn no_stored_copy_keeps_a_password() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    po.accept(&mail(CONAN, "pw@aquilonia.example", ORDERS), "test", t0())
        .unwrap();
    po.accept(
        &mail(
            CONAN,
            "bad@aquilonia.example",
            "GAME ford SIDE aquilonia PASSWORD wrongguess\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            MODERATOR,
            "mpw@club.example",
            "MODERATOR ford PASSWORD modpw\nSTATUS\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.send(t0()).unwrap();
    for secret in ["dragon7", "serpent3", "modpw", "wrongguess"] {
        for (table, column) in [
            ("messages", "raw"),
            ("submissions", "text"),
            ("outbox_bodies", "raw"),
            ("log", "text"),
        ] {
            let n = count(
                &po,
                table,
                &format!("instr(CAST({column} AS TEXT), '{secret}') > 0"),
            );
            assert_eq!(n, 0, "{table}.{column} holds '{secret}'");
        }
    }
    let hash: String = po
        .store()
        .conn()
        .query_row(
            "SELECT password FROM sides WHERE side = 'aquilonia'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    let digest: String = po
        .store()
        .conn()
        .query_row(
            "SELECT digest FROM messages WHERE message_id = 'pw@aquilonia.example'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(digest.len(), 64, "the digest of what arrived is kept");
}

#[test]
fn battle_mail_whose_first_line_says_campaign_is_battle_mail() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let body = format!("Campaign of the Black Dragons, week 3:\n{ORDERS}");
    let d = po
        .accept(&mail(CONAN, "camp@aquilonia.example", &body), "test", t0())
        .unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
}

#[test]
fn a_huge_mail_is_kept_as_its_head_and_answered_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let mut big = mail(CONAN, "big@aquilonia.example", ORDERS);
    big.extend(std::iter::repeat_n(b'x', 50 * 1024 * 1024));
    let d = po.accept(&big, "test", t0()).unwrap();
    assert!(matches!(d, Some(Disposition::Refused(_))), "{d:?}");
    let (_, to, reply) = outbox(&po).pop().unwrap();
    assert_eq!(to, CONAN);
    assert!(
        body_text(&reply).contains("at most 2048 KB"),
        "{}",
        body_text(&reply)
    );
    let size: i64 = po
        .store()
        .conn()
        .query_row(
            "SELECT size FROM messages WHERE message_id = 'big@aquilonia.example'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(size as usize, big.len());
    let db = std::fs::metadata(dir.path().join("umpire.sqlite"))
        .unwrap()
        .len()
        + std::fs::metadata(dir.path().join("umpire.sqlite-wal")).map_or(0, |m| m.len());
    assert!(db < 10 * 1024 * 1024, "the store grew to {db} bytes");
    still_answered(&mut po, "after-big@aquilonia.example");
}

#[test]
fn commits_are_synced_to_disk() {
    let dir = tempfile::tempdir().unwrap();
    let po = office_with_game(dir.path());
    let sync: i64 = po
        .store()
        .conn()
        .query_row("PRAGMA synchronous", [], |r| r.get(0))
        .unwrap();
    assert_eq!(sync, 2, "synchronous = FULL");
}

/// A message that stops the handler (a bug) is marked failed with the
/// reason, the moderator is told, and the next mail is still answered; `retry` handles it again.
#[test]
fn a_message_that_cannot_be_handled_is_marked_failed_and_the_rest_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    // Damage the stored game state of the game the message is for: handling it fails.
    po.store()
        .conn()
        .execute(
            "UPDATE games SET state = '{\"not\": \"a table\"}' WHERE id = 'ford'",
            [],
        )
        .unwrap();
    let d = po
        .accept(
            &mail(CONAN, "doomed@aquilonia.example", ORDERS),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Failed(_))), "{d:?}");
    let doctor = po.doctor().unwrap();
    assert!(
        doctor.contains("message") && doctor.contains("damaged"),
        "{doctor}"
    );
    assert_eq!(
        count(
            &po,
            "outbox",
            &format!("kind = 'notice' AND recipients = '{MODERATOR}'")
        ),
        1
    );
    // Another game's mail is not held up (here: a stranger's, refused as usual).
    let d = po
        .accept(
            &mail("someone@else.example", "other@else.example", "hello"),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Refused(_))), "{d:?}");
}

fn umpire() -> Command {
    Command::new(env!("CARGO_BIN_EXE_umpire"))
}

#[test]
fn the_command_line_says_what_is_wrong_and_exits_as_an_mta_needs() {
    let dir = tempfile::tempdir().unwrap();
    // A database that cannot be opened: the MTA must keep the message and retry.
    std::fs::write(
        dir.path().join("umpire.toml"),
        "database = \".\"\naddress = \"umpire@club.example\"\n",
    )
    .unwrap();
    let mut child = umpire()
        .args([
            "--config",
            &dir.path().join("umpire.toml").display().to_string(),
            "ingest",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&mail(CONAN, "x@aquilonia.example", ORDERS))
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(75),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A configuration in a folder that does not exist creates nothing.
    let out = umpire()
        .args(["--config", "/nonexistent/dir/umpire.toml", "send"])
        .output()
        .unwrap();
    assert!(
        !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("does not exist")
    );
    assert!(!std::path::Path::new("/nonexistent").exists());
    // A Maildir that is not there.
    let cfg = dir.path().join("ok.toml");
    std::fs::write(&cfg, "address = \"umpire@club.example\"\n").unwrap();
    let out = umpire()
        .args([
            "--config",
            &cfg.display().to_string(),
            "ingest",
            "--maildir",
            "no-such-dir",
        ])
        .output()
        .unwrap();
    assert!(
        !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("is not a folder"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A bad umpire address.
    std::fs::write(&cfg, "address = \"umpire at club\"\n").unwrap();
    let out = umpire()
        .args(["--config", &cfg.display().to_string(), "send"])
        .output()
        .unwrap();
    assert!(
        !out.status.success()
            && String::from_utf8_lossy(&out.stderr).contains("not a mail address")
    );
    // A report asked for before any turn: a plain answer.
    let mut po = office_with_game(dir.path());
    let e = umpire::post::report_text(&mut po, "ford", None, false)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "no report released yet: game ford has played no turn so far (the first report comes when turn 1 is played)"
    );
    // Points no battle needs.
    let out = umpire()
        .args(["army", "new", "koth", "4000000"])
        .output()
        .unwrap();
    assert!(
        !out.status.success() && String::from_utf8_lossy(&out.stdout).contains("at most 15000"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn two_ingests_of_one_maildir_take_each_message_once() {
    let dir = tempfile::tempdir().unwrap();
    // The real binary reads the real clock: the first deadline far ahead.
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.create_game(&GameFile::load(&game_file_ahead(dir.path())).unwrap(), t0())
        .unwrap();
    drop(po);
    let inbox = dir.path().join("inbox");
    std::fs::create_dir_all(inbox.join("new")).unwrap();
    for i in 0..200 {
        std::fs::write(
            inbox.join(format!("new/{i:04}.m")),
            mail(CONAN, &format!("md{i}@aquilonia.example"), ORDERS),
        )
        .unwrap();
    }
    let cfg = dir.path().join("umpire.toml");
    std::fs::write(
        &cfg,
        format!("database = \"umpire.sqlite\"\naddress = \"{UMPIRE}\"\ndurability = \"off\"\n"),
    )
    .unwrap();
    let run = || {
        umpire()
            .args([
                "--config",
                &cfg.display().to_string(),
                "ingest",
                "--maildir",
                &inbox.display().to_string(),
            ])
            .spawn()
            .unwrap()
    };
    let (a, b) = (run(), run());
    for mut c in [a, b] {
        assert!(c.wait().unwrap().success());
    }
    let po = PostOffice::open(config(dir.path())).unwrap();
    assert_eq!(count(&po, "messages", "1"), 200);
    assert_eq!(
        count(&po, "outbox", "kind = 'confirmation'"),
        200,
        "every message answered once"
    );
    assert_eq!(std::fs::read_dir(inbox.join("cur")).unwrap().count(), 200);
}
