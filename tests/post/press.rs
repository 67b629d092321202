//! Issue 16: players talking to each other through the umpire (PRESS,
//! grey press, BROADCAST, PRESS OFF), away (ABSENT, with a standby who
//! orders for the side), and reading deadlines in their own time zone:
//! each through the whole path, mail in → outbox.

use crate::common::*;
use chrono::{Duration, TimeZone, Utc};
use umpire::post::{gamefile::GameFile, PostOffice};

const AMALRIC: &str = "amalric@nemedia.example";

/// The ford with these lines added to the game file (top-level keys, and
/// a `standby` for nemedia when asked).
fn office(dir: &std::path::Path, top: &str, standby: bool) -> PostOffice {
    let path = game_file(dir);
    let mut text = std::fs::read_to_string(&path).unwrap();
    // Top-level keys go first; a table (`[absence]`) after the sides.
    text = if top.starts_with('[') {
        format!("{text}\n{top}\n")
    } else {
        format!("{top}\n{text}")
    };
    if standby {
        text = text.replace(
            "password = \"serpent3\"\n",
            &format!("password = \"serpent3\"\nstandby = \"{AMALRIC}\"\n"),
        );
    }
    std::fs::write(&path, text).unwrap();
    let mut po = PostOffice::open(config(dir)).unwrap();
    po.create_game(&GameFile::load(&path).unwrap(), t0())
        .unwrap();
    po
}

/// Mail `body` from `from` and return the outbox rows it added.
fn send(po: &mut PostOffice, from: &str, id: &str, body: &str) -> Vec<(String, String, String)> {
    let before = outbox(po).len();
    po.accept(&mail(from, id, body), "test", t0()).unwrap();
    outbox(po).split_off(before)
}

fn html(raw: &str) -> String {
    mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap()
        .body_html(0)
        .map(|h| h.into_owned())
        .unwrap_or_default()
}

fn to(rows: &[(String, String, String)], kind: &str, addr: &str) -> Option<String> {
    rows.iter()
        .find(|(k, t, _)| k == kind && t.contains(addr))
        .map(|(_, _, raw)| body_text(raw))
}

#[test]
fn press_goes_to_the_other_side_with_the_sender_named_and_the_orders_beside_it_are_taken() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let out = send(
        &mut po,
        TARASCUS,
        "p1@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nPRESS TO Aquilonia\nYield the ford, Conan.\n<script>alert('serpent3')</script>\nEND PRESS\nNemedian Knights: phase 1 hold\nEND\n",
    );
    let press = to(&out, "press", CONAN).expect("press to aquilonia");
    assert!(
        press.contains("Press from nemedia to aquilonia")
            && press.contains("Yield the ford, Conan."),
        "{press}"
    );
    // The header's password does not travel on.
    assert!(!press.contains("serpent3"), "{press}");
    let raw = &out
        .iter()
        .find(|(k, t, _)| k == "press" && t.contains(CONAN))
        .unwrap()
        .2;
    let h = html(raw);
    assert!(
        h.contains("&lt;script&gt;alert(") && !h.contains("<script>"),
        "{h}"
    );
    // The moderator has a copy; the sender none.
    assert!(to(&out, "press", MODERATOR)
        .unwrap()
        .contains("from nemedia to aquilonia"));
    assert!(to(&out, "press", TARASCUS).is_none());
    let reply = to(&out, "reply", TARASCUS).unwrap();
    assert!(
        reply.contains("PRESS TO Aquilonia: delivered to aquilonia")
            && reply.contains("with your side named"),
        "{reply}"
    );
    let confirmation = to(&out, "confirmation", TARASCUS).unwrap();
    assert!(
        confirmation.contains("Nemedian Knights") && !confirmation.contains("Yield"),
        "{confirmation}"
    );
    assert_eq!(
        count_in(
            dir.path(),
            "SELECT count(*) FROM press WHERE sender = 'nemedia' AND readers = 'aquilonia'"
        ),
        1
    );
    assert_eq!(
        count_in(
            dir.path(),
            "SELECT count(*) FROM submissions WHERE side = 'nemedia'"
        ),
        1
    );
    // The moderator's desk lists it.
    let show = umpire::post::desk::show(&mut po, "ford").unwrap();
    assert!(
        show.contains("Press: on (Open in the game file)") && show.contains("Press sent: 1"),
        "{show}"
    );
    assert!(
        show.contains("turn 1: nemedia to aquilonia: Yield the ford, Conan. …"),
        "{show}"
    );
}

#[test]
fn a_bad_press_block_is_refused_alone_and_the_orders_still_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let huge = "Surrender! ".repeat(500);
    let out = send(
        &mut po,
        TARASCUS,
        "p2@x",
        &format!("GAME ford SIDE nemedia PASSWORD serpent3\nPRESS TO aquilonai\nhello\nEND PRESS\nPRESS TO ALL\n{huge}\nEND PRESS\nGREY PRESS TO ALL\nguess who\nEND PRESS\nNemedian Knights: phase 1 hold\n"),
    );
    assert!(
        out.iter().all(|(k, _, _)| k != "press"),
        "nothing sent: {out:?}"
    );
    let reply = to(&out, "reply", TARASCUS).unwrap();
    assert!(
        reply.contains("no side 'aquilonai' (did you mean 'aquilonia'?)"),
        "{reply}"
    );
    assert!(
        reply.contains("5499 characters, and press is at most 4000 characters"),
        "{reply}"
    );
    assert!(reply.contains("allows no grey press"), "{reply}");
    assert!(to(&out, "confirmation", TARASCUS)
        .unwrap()
        .contains("Nemedian Knights"));

    // A block never closed is not sent, and the orders after it are read.
    let out = send(
        &mut po,
        TARASCUS,
        "p3@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nPRESS TO ALL\nhello\nNemedian Knights: phase 1 hold\n",
    );
    assert!(out.iter().all(|(k, _, _)| k != "press"));
    let confirmation = to(&out, "confirmation", TARASCUS).unwrap();
    assert!(
        confirmation.contains("has no END PRESS line")
            && confirmation.contains("Nemedian Knights: phase 1 hold"),
        "{confirmation}"
    );
}

#[test]
fn grey_press_names_no_one_where_the_game_allows_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office(dir.path(), "press = \"grey\"", false);
    let out = send(
        &mut po,
        CONAN,
        "g1@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nGREY PRESS TO ALL\nThe bridge is mined.\nEND PRESS\n",
    );
    // Everyone, the writer too, so the list of readers points at no one.
    for addr in [CONAN, TARASCUS] {
        let p = to(&out, "press", addr).unwrap();
        assert!(
            p.contains("Grey press (its sender is not named)")
                && p.contains("The bridge is mined."),
            "{p}"
        );
        assert!(!p.contains("aquilonia"), "{p}");
    }
    assert!(to(&out, "press", MODERATOR)
        .unwrap()
        .contains("grey press from aquilonia"));
    assert!(to(&out, "reply", CONAN)
        .unwrap()
        .contains("without your side's name"));
}

#[test]
fn the_moderator_broadcasts_and_turns_press_off_and_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let out = send(
        &mut po,
        MODERATOR,
        "m1@x",
        "MODERATOR ford PASSWORD modpw\nBROADCAST\nThe river is in flood: <b>no</b> fording today.\nEND BROADCAST\nPRESS OFF\n",
    );
    for addr in [CONAN, TARASCUS] {
        let p = to(&out, "press", addr).unwrap();
        assert!(
            p.contains("The moderator of The Ford (ford) writes to every player")
                && p.contains("in flood"),
            "{p}"
        );
        assert!(to(&out, "notice", addr)
            .unwrap()
            .contains("Press between the players is off"));
    }
    let raw = &out
        .iter()
        .find(|(k, t, _)| k == "press" && t.contains(CONAN))
        .unwrap()
        .2;
    assert!(html(raw).contains("&lt;b&gt;no&lt;/b&gt;"));
    let reply = to(&out, "reply", MODERATOR).unwrap();
    assert!(
        reply.contains("BROADCAST: sent to every player")
            && reply.contains("press between the players is now off"),
        "{reply}"
    );

    let out = send(
        &mut po,
        CONAN,
        "p4@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nPRESS TO nemedia\nTruce?\nEND PRESS\n",
    );
    assert!(out.iter().all(|(k, _, _)| k != "press"));
    assert!(to(&out, "reply", CONAN)
        .unwrap()
        .contains("the moderator has turned press off"));

    send(
        &mut po,
        MODERATOR,
        "m2@x",
        "MODERATOR ford PASSWORD modpw\nPRESS ON\n",
    );
    let out = send(
        &mut po,
        CONAN,
        "p5@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nPRESS TO nemedia\nTruce?\nEND PRESS\n",
    );
    assert!(to(&out, "press", TARASCUS).unwrap().contains("Truce?"));
    // A player's BROADCAST is the moderator's: nothing is sent.
    let out = send(&mut po, CONAN, "p6@x", "GAME ford SIDE aquilonia PASSWORD dragon7\nBROADCAST\nI am the moderator now\nEND BROADCAST\n");
    assert!(out.iter().all(|(k, _, _)| k != "press"), "{out:?}");
}

#[test]
fn a_game_file_without_press_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office(dir.path(), "press = \"off\"", false);
    let out = send(
        &mut po,
        CONAN,
        "p7@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nPRESS TO ALL\nhi\nEND PRESS\n",
    );
    assert!(out.iter().all(|(k, _, _)| k != "press"));
    assert!(to(&out, "reply", CONAN)
        .unwrap()
        .contains("played without press"));
}

#[test]
fn absent_dates_in_the_past_reversed_or_too_long_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let out = send(
        &mut po,
        CONAN,
        "a1@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nABSENT FROM 2026-11-20 TO 2026-12-05\nABSENT FROM 2026-12-20 TO 2026-12-10\nABSENT FROM 2026-12-02 TO 2027-03-01\n",
    );
    let reply = to(&out, "reply", CONAN).unwrap();
    assert!(
        reply.contains("2026-11-20 has passed (today is 2026-12-01)"),
        "{reply}"
    );
    assert!(
        reply.contains("write the first day first: ABSENT FROM 2026-12-10 TO 2026-12-20"),
        "{reply}"
    );
    assert!(
        reply.contains("90 days is longer than this game allows (30 days"),
        "{reply}"
    );
    assert_eq!(count_in(dir.path(), "SELECT count(*) FROM absences"), 0);
}

#[test]
fn an_absent_player_has_the_deadline_moved_once_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let out = send(
        &mut po,
        CONAN,
        "a2@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nABSENT FROM 2026-12-02 TO 2026-12-10\n",
    );
    let reply = to(&out, "reply", CONAN).unwrap();
    assert!(
        reply.contains("you are away from Wednesday 2026-12-02 to Thursday 2026-12-10")
            && reply.contains("at most 72 hours"),
        "{reply}"
    );
    assert!(to(&out, "notice", MODERATOR)
        .unwrap()
        .contains("aquilonia in The Ford (ford) is away"));
    send(
        &mut po,
        TARASCUS,
        "o1@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 hold\n",
    );
    // At the deadline (20:00 on the 3rd, and its grace), the turn waits 72 hours.
    let after = Utc.with_ymd_and_hms(2026, 12, 3, 20, 30, 0).unwrap();
    assert_eq!(po.tick(after).unwrap(), 0);
    let notice = body_text(
        &outbox(&po)
            .into_iter()
            .rev()
            .find(|(k, t, _)| k == "notice" && t.contains(TARASCUS))
            .unwrap()
            .2,
    );
    assert!(
        notice.contains("aquilonia is away (ABSENT) and without orders for turn 1")
            && notice.contains("2026-12-06 20:00 UTC"),
        "{notice}"
    );
    assert_eq!(
        count_in(
            dir.path(),
            "SELECT count(*) FROM rounds WHERE state_after IS NOT NULL"
        ),
        0
    );
    // Once a turn: at the moved deadline it is played.
    assert_eq!(po.tick(after + Duration::hours(72)).unwrap(), 1);
}

#[test]
fn a_standby_orders_for_the_side_while_its_player_is_away_and_not_before_or_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office(dir.path(), "", true);
    let out = send(
        &mut po,
        TARASCUS,
        "s1@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nABSENT FROM 2026-12-01 TO 2026-12-04\n",
    );
    assert!(to(&out, "reply", TARASCUS).unwrap().contains(&format!(
        "Your standby ({AMALRIC}) has been mailed a password"
    )));
    let welcome = to(&out, "welcome", AMALRIC).expect("the standby's password");
    let pw = welcome
        .lines()
        .find_map(|l| l.trim().strip_prefix("GAME ford SIDE nemedia PASSWORD "))
        .unwrap()
        .to_string();
    // With it, from the standby's address, the side's orders are taken.
    let out = send(&mut po, AMALRIC, "s2@x", &format!("GAME ford SIDE nemedia PASSWORD {pw}\nNemedian Knights: phase 1 hold\nNEW PASSWORD mine1234\n"));
    assert!(
        to(&out, "confirmation", AMALRIC)
            .unwrap()
            .contains("Nemedian Knights"),
        "{out:?}"
    );
    assert!(to(&out, "reply", AMALRIC)
        .unwrap()
        .contains("only the side's own player may do this"));
    assert!(to(&out, "notice", TARASCUS)
        .unwrap()
        .contains(&format!("your standby ({AMALRIC}) sent orders for nemedia")));
    assert_eq!(
        count_in(
            dir.path(),
            "SELECT count(*) FROM submissions WHERE side = 'nemedia'"
        ),
        1
    );
    // The standby's password is no one else's: from another address it is a wrong password.
    let out = send(
        &mut po,
        CONAN,
        "s3@x",
        &format!("GAME ford SIDE nemedia PASSWORD {pw}\nNemedian Knights: phase 1 move 6\n"),
    );
    assert!(out.iter().all(|(k, _, _)| k != "confirmation"), "{out:?}");
    // Nor the side's own password from the standby's address.
    let out = send(
        &mut po,
        AMALRIC,
        "s4@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 6\n",
    );
    assert!(out.iter().all(|(k, _, _)| k != "confirmation"), "{out:?}");
    // Once the player is back, the standby's password proves nothing.
    send(
        &mut po,
        TARASCUS,
        "s5@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nABSENT CANCEL\n",
    );
    let out = send(
        &mut po,
        AMALRIC,
        "s6@x",
        &format!("GAME ford SIDE nemedia PASSWORD {pw}\nNemedian Knights: phase 1 move 6\n"),
    );
    assert!(out.iter().all(|(k, _, _)| k != "confirmation"), "{out:?}");
    assert_eq!(
        count_in(
            dir.path(),
            "SELECT count(*) FROM submissions WHERE side = 'nemedia'"
        ),
        1
    );
    let show = umpire::post::desk::show(&mut po, "ford").unwrap();
    assert!(
        show.contains(&format!("nemedia has a standby: {AMALRIC}")),
        "{show}"
    );
}

#[test]
fn a_standby_gets_the_sides_reminder_while_standing_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office(dir.path(), "", true);
    send(
        &mut po,
        TARASCUS,
        "r1@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nABSENT FROM 2026-12-02 TO 2026-12-04\n",
    );
    po.tick(Utc.with_ymd_and_hms(2026, 12, 2, 21, 0, 0).unwrap())
        .unwrap();
    let reminder = outbox(&po)
        .into_iter()
        .find(|(k, t, _)| k == "reminder" && t.contains(TARASCUS))
        .unwrap();
    assert!(reminder.1.contains(AMALRIC), "{}", reminder.1);
}

#[test]
fn a_deadline_is_shown_in_the_players_zone_and_an_unknown_zone_is_suggested() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_game(dir.path());
    let out = send(
        &mut po,
        CONAN,
        "z1@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nTIMEZONE Europe/Pariss\n",
    );
    assert!(to(&out, "reply", CONAN)
        .unwrap()
        .contains("did you mean Europe/Paris?"));
    let out = send(&mut po, CONAN, "z2@x", "GAME ford SIDE aquilonia PASSWORD dragon7\nTIMEZONE Asia/Tokyo\nABSENT FROM 2026-12-02 TO 2026-12-02\nBlack Dragons: phase 1 move 6\n");
    let confirmation = to(&out, "confirmation", CONAN).unwrap();
    assert!(
        confirmation
            .contains("2026-12-04 05:00 JST (Friday); game time 2026-12-03 20:00 UTC (Thursday)"),
        "{confirmation}"
    );
    // The absence is read in the player's own days.
    assert!(out
        .iter()
        .any(|(k, _, raw)| k == "reply" && body_text(raw).contains("(both days, Asia/Tokyo)")));
}

#[test]
fn under_hold_a_side_away_does_not_keep_the_turn_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office(dir.path(), "[absence]\nwhen = \"hold\"", false);
    let played = |dir: &std::path::Path| {
        count_in(
            dir,
            "SELECT count(*) FROM rounds WHERE state_after IS NOT NULL",
        )
    };
    let out = send(
        &mut po,
        CONAN,
        "h1@x",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nABSENT FROM 2026-12-01 TO 2026-12-04\n",
    );
    assert!(to(&out, "reply", CONAN)
        .unwrap()
        .contains("played at its deadline; without your orders your units stand"));
    // Nobody is ready yet: nothing is played for the side away alone.
    po.tick(t0() + Duration::minutes(1)).unwrap();
    assert_eq!(played(dir.path()), 0);
    send(
        &mut po,
        TARASCUS,
        "h2@x",
        "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 hold\n",
    );
    po.tick(t0() + Duration::minutes(2)).unwrap();
    assert_eq!(played(dir.path()), 1);
}
