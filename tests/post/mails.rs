//! Every mail a player or moderator of a battle game can receive, as a
//! reviewed snapshot (issue 40): welcomes, confirmations, refusals, every
//! moderator answer, announcements, reminders, press, absences, held and
//! released reports. The post office's seeds and passwords come from a
//! fixed stream here, so each snapshot is the same every run; review a
//! change with `cargo insta review`.

use crate::common::*;
use chrono::Duration;
use umpire::entropy::Entropy;
use umpire::post::{gamefile::GameFile, PostOffice};

const AMALRIC: &str = "amalric@nemedia.example";

/// The ford with its chance fixed, and these lines added to the game file
/// (top-level keys first, tables after the sides); nemedia has a standby.
fn ford(dir: &std::path::Path, top: &str, tables: &str) -> PostOffice {
    let path = game_file(dir);
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "password = \"serpent3\"\n",
        &format!("password = \"serpent3\"\nstandby = \"{AMALRIC}\"\n"),
    );
    std::fs::write(&path, format!("{top}\n{text}\n{tables}\n")).unwrap();
    let mut c = config(dir);
    c.entropy = Entropy::fixed(40);
    let mut po = PostOffice::open(c).unwrap();
    po.create_game(&GameFile::load(&path).unwrap(), t0())
        .unwrap();
    po
}

/// A mail in, at `at` hours after t0.
fn at(po: &mut PostOffice, hours: i64, from: &str, id: &str, body: &str) {
    po.accept(&mail(from, id, body), "test", t0() + Duration::hours(hours))
        .unwrap();
}

const CONAN_HEAD: &str = "GAME ford SIDE aquilonia PASSWORD dragon7\n";
const TARASCUS_HEAD: &str = "GAME ford SIDE nemedia PASSWORD serpent3\n";
const MOD_HEAD: &str = "MODERATOR ford PASSWORD modpw\n";

#[test]
fn a_battle_games_welcomes() {
    let dir = tempfile::tempdir().unwrap();
    let po = ford(dir.path(), "", "");
    insta::assert_snapshot!(letters(&po, 0));
}

#[test]
fn what_a_player_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford(dir.path(), "", "");
    let start = sent_so_far(&po);
    let c = |s: &str| format!("{CONAN_HEAD}{s}");
    at(&mut po, 1, CONAN, "p1@x", &c("STATUS\n"));
    at(&mut po, 1, CONAN, "p2@x", &c("HELP moving\n"));
    at(&mut po, 1, CONAN, "p3@x", &c("HELP dragons\n"));
    at(&mut po, 1, CONAN, "p4@x", &c("Black Dragons: phase 1 move 6\nBossonian Archers: phase 1 chrage Nemedian Knights\nEND\n"));
    at(
        &mut po,
        1,
        CONAN,
        "p5@x",
        &c("Black Dragons: phase 1 move 4\nEND\n"),
    );
    at(&mut po, 1, CONAN, "p6@x", &c("WAIT\n"));
    at(
        &mut po,
        1,
        CONAN,
        "p7@x",
        &c("TIMEZONE Europe/Paris\nTIMEZONE Mars/Olympus\n"),
    );
    at(
        &mut po,
        1,
        CONAN,
        "p8@x",
        &c("NEW PASSWORD abc\nNEW PASSWORD dragon7\n"),
    );
    at(&mut po, 1, CONAN, "p9@x", &c("HISTORY 1\nRESEND\n"));
    at(
        &mut po,
        1,
        CONAN,
        "p10@x",
        "Black Dragons: phase 1 move 6\n",
    );
    // Refusals are spaced out: at most three an hour go to one address.
    at(
        &mut po,
        3,
        TARASCUS,
        "p11@x",
        "GAME ford SIDE nemedia TURN 2 PASSWORD serpent3\nNemedian Knights: phase 1 move 2\nEND\n",
    );
    at(
        &mut po,
        5,
        TARASCUS,
        "p12@x",
        "GAME ford SIDE nemedia PASSWORD serpent3 TURN 2\nNemedian Knights: phase 1 move 2\nEND\n",
    );
    at(
        &mut po,
        5,
        TARASCUS,
        "p13@x",
        "GAME ford SIDE nemedia PASSWORD serpent3 TURN 3\nNemedian Knights: phase 1 move 2\nEND\n",
    );
    at(
        &mut po,
        7,
        TARASCUS,
        "p14@x",
        "GAME ferry SIDE nemedia PASSWORD serpent3\nEND\n",
    );
    at(
        &mut po,
        9,
        TARASCUS,
        "p15@x",
        "GAME ford SIDE zingara PASSWORD serpent3\nEND\n",
    );
    insta::assert_snapshot!(letters(&po, start));
}

/// A mail of the header alone is answered (nothing changed, and what
/// stands), before any orders are in and after; never taken for a sheet
/// of no orders.
#[test]
fn a_mail_of_the_header_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford(dir.path(), "", "");
    let start = sent_so_far(&po);
    at(&mut po, 1, CONAN, "h1@x", CONAN_HEAD);
    at(
        &mut po,
        1,
        CONAN,
        "h2@x",
        &format!("{CONAN_HEAD}Black Dragons: phase 1 move 6\n"),
    );
    at(&mut po, 2, CONAN, "h3@x", &format!("{CONAN_HEAD}\nEND\n"));
    let orders: String = po
        .store()
        .optional_string(
            "SELECT text FROM submissions WHERE side = 'aquilonia' ORDER BY id DESC LIMIT 1",
            [],
        )
        .unwrap()
        .unwrap();
    assert!(
        orders.contains("Black Dragons"),
        "the orders stand: {orders}"
    );
    insta::assert_snapshot!(letters(&po, start));
}

#[test]
fn what_strangers_and_wrong_passwords_get() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford(dir.path(), "", "");
    let start = sent_so_far(&po);
    at(
        &mut po,
        1,
        "spy@zamora.example",
        "s1@x",
        "GAME ford SIDE nemedia PASSWORD guess\nNemedian Knights: phase 1 move 6\nEND\n",
    );
    at(
        &mut po,
        1,
        "conan@cimmeria.example",
        "s2@x",
        &format!("{CONAN_HEAD}Black Dragons: phase 1 move 6\nEND\n"),
    );
    at(
        &mut po,
        1,
        "nobody@nowhere.example",
        "s3@x",
        "hello, is this the wargames club?\n",
    );
    at(
        &mut po,
        1,
        "spy@zamora.example",
        "s4@x",
        "MODERATOR ford PASSWORD guess\nEND GAME\n",
    );
    at(
        &mut po,
        1,
        "spy@zamora.example",
        "s5@x",
        "MODERATOR ford PASSWORD modpw\nEND GAME\n",
    );
    for i in 0..11 {
        at(
            &mut po,
            2,
            TARASCUS,
            &format!("w{i}@x"),
            "GAME ford SIDE nemedia PASSWORD wrong\nEND\n",
        );
    }
    insta::assert_snapshot!(letters(&po, start));
}

#[test]
fn what_the_moderator_is_answered_and_the_players_are_told() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford(dir.path(), "", "");
    let start = sent_so_far(&po);
    let m = |s: &str| format!("{MOD_HEAD}{s}");
    at(&mut po, 1, MODERATOR, "m1@x", &m("STATUS\nEXTNED 24\nEXTEND 24\nEXTEND 9999\nDEADLINE 2026-12-06 18:00\nDEADLINE 2026-11-01 18:00\nDEADLINE friday 20:00\nmake it snow\n"));
    at(&mut po, 1, MODERATOR, "m2@x", &m("HOLD ON\nAPPROVE\nREJECT\nNEW PASSWORD secret99\nTIMEZONE Europe/Paris\nREADY\nABSENT FROM 2026-12-10 TO 2026-12-12\nHELP dice\n"));
    at(&mut po, 1, MODERATOR, "m3@x", &m("DICE TURN 2 melee:dragons=5 melee:knights=2\nDICE melee:dragons=9\nDICE TURN 0 melee:dragons=1\n"));
    at(&mut po, 1, MODERATOR, "m4@x", &m("BROADCAST\nThe club meets on Thursday.\nEND BROADCAST\nPRESS OFF\nPRESS OFF\nPRESS ON\nPRESS TO nemedia\nhello\nEND PRESS\n"));
    at(
        &mut po,
        1,
        MODERATOR,
        "m5@x",
        &m("UNLOCK nemedia\nUNLOCK zingara\nRESET PASSWORD nemedia\nRESET PASSWORD zingara\n"),
    );
    at(&mut po, 1, MODERATOR, "m6@x", &m("REPLACE nemedia not-an-address\nREPLACE zingara new@example.org\nREPLACE nemedia amalric@nemedia.example\n"));
    at(&mut po, 1, MODERATOR, "m7@x", &m("ORDERS FOR nemedia\nNemedian Knights: phase 1 move 3\nORDERS FOR zingra\nSomething: phase 1 move 1\nEND\n"));
    at(
        &mut po,
        1,
        MODERATOR,
        "m8@x",
        &m("PAUSE\nPAUSE\nRESUME\nRESUME\n"),
    );
    at(&mut po, 1, MODERATOR, "m9@x", &m("END GAME\nEXTEND 24\n"));
    at(
        &mut po,
        1,
        CONAN,
        "m10@x",
        &format!("{CONAN_HEAD}Black Dragons: phase 1 move 6\nEND\n"),
    );
    insta::assert_snapshot!(letters(&po, start));
}

#[test]
fn reminders_reports_held_rejected_approved_and_readjudicated() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford(dir.path(), "hold = true", "");
    let start = sent_so_far(&po);
    // Nemedia orders; aquilonia is reminded, then the deadline plays the turn.
    at(
        &mut po,
        1,
        TARASCUS,
        "r1@x",
        &format!("{TARASCUS_HEAD}Nemedian Knights: phase 1 move 6\nEND\n"),
    );
    po.tick(t0() + Duration::hours(36)).unwrap();
    po.tick(t0() + Duration::hours(60)).unwrap();
    // Held for the moderator: players' orders wait; REJECT plays it again.
    at(
        &mut po,
        61,
        CONAN,
        "r2@x",
        &format!("{CONAN_HEAD}Black Dragons: phase 1 move 6\nEND\n"),
    );
    at(
        &mut po,
        61,
        MODERATOR,
        "r3@x",
        &format!("{MOD_HEAD}REJECT\n"),
    );
    at(
        &mut po,
        62,
        MODERATOR,
        "r4@x",
        &format!("{MOD_HEAD}APPROVE\n"),
    );
    at(
        &mut po,
        63,
        CONAN,
        "r5@x",
        &format!("{CONAN_HEAD}HISTORY 1\n"),
    );
    at(
        &mut po,
        63,
        MODERATOR,
        "r6@x",
        &format!("{MOD_HEAD}HOLD OFF\nREADJUDICATE\n"),
    );
    // Both sides in: the turn is played at once.
    at(
        &mut po,
        64,
        CONAN,
        "r7@x",
        &format!("{CONAN_HEAD}Black Dragons: phase 1 charge Nemedian Knights\nEND\n"),
    );
    at(
        &mut po,
        64,
        TARASCUS,
        "r8@x",
        &format!("{TARASCUS_HEAD}Nemedian Knights: phase 1 charge Black Dragons\nEND\n"),
    );
    at(
        &mut po,
        65,
        MODERATOR,
        "r9@x",
        &format!("{MOD_HEAD}FORCE\n"),
    );
    insta::assert_snapshot!(letters(&po, start));
}

#[test]
fn press_absence_and_the_standby() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = ford(
        dir.path(),
        "press = \"grey\"",
        "[absence]\nwhen = \"extend\"\nextend_hours = 48\n",
    );
    let start = sent_so_far(&po);
    at(&mut po, 1, CONAN, "a1@x", &format!("{CONAN_HEAD}PRESS TO nemedia\nShall we meet at the ford?\nEND PRESS\nGREY PRESS TO ALL\nThe river rises.\nEND PRESS\nPRESS TO zingara\nhello\nEND PRESS\nBlack Dragons: phase 1 move 6\nEND\n"));
    at(
        &mut po,
        1,
        TARASCUS,
        "a2@x",
        &format!("{TARASCUS_HEAD}ABSENT FROM 2026-12-02 TO 2026-12-05\n"),
    );
    at(
        &mut po,
        1,
        TARASCUS,
        "a3@x",
        &format!("{TARASCUS_HEAD}ABSENT FROM 2026-12-05 TO 2026-12-02\n"),
    );
    let standby_pw = outbox(&po)
        .iter()
        .rev()
        .map(|(_, _, raw)| body_text(raw))
        .find_map(|t| {
            t.lines()
                .find_map(|l| l.split("PASSWORD ").nth(1).map(|p| p.trim().to_string()))
        })
        .unwrap();
    at(
        &mut po,
        2,
        AMALRIC,
        "a4@x",
        &format!(
            "GAME ford SIDE nemedia PASSWORD {standby_pw}\nNemedian Knights: phase 1 move 6\nEND\n"
        ),
    );
    at(&mut po, 30, AMALRIC, "a5@x", &format!("GAME ford SIDE nemedia PASSWORD {standby_pw}\nNEW PASSWORD mine1234\nNemedian Knights: phase 1 move 5\nEND\n"));
    po.tick(t0() + Duration::hours(60)).unwrap();
    at(
        &mut po,
        61,
        TARASCUS,
        "a6@x",
        &format!("{TARASCUS_HEAD}ABSENT CANCEL\n"),
    );
    insta::assert_snapshot!(letters(&po, start));
}
