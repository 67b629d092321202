//! The secretary's desk (issue 18) through the whole post office, on a real
//! SQLite file: a week re-run with the same dice (unchanged, then without
//! an order), refused once a later week is resolved or a battle game has
//! started from it; an army placed and its losses edited (only its power
//! told); the deadline extended, powers without orders reminded once, and
//! a power handed to another player.

use super::border::{self, mails, AQUILONIA, NEMEDIA, OPHIR, SECRETARY};
use super::campaign::{events, state_of, Club};
use crate::common;
use chrono::Duration;
use common::*;
use umpire::games::hyborian::campaign::game::{Campaign, CampaignFile};
use umpire::games::hyborian::campaign::resolve::MapEvent;
use umpire::post::PostOffice;

fn setup(settings: &str) -> String {
    border::setup("desk", "The Secretary's Desk", settings)
}

fn open(dir: &std::path::Path, settings: &str) -> Club {
    let config = config(dir);
    let mut po = PostOffice::open(config.clone()).unwrap();
    po.create_campaign(&CampaignFile::load(&setup(settings)).unwrap(), t0())
        .unwrap();
    let conn = rusqlite::Connection::open(&config.database).unwrap();
    conn.execute(
        "UPDATE campaigns SET seed = ?1 WHERE id = 'desk'",
        ["5eed".repeat(16)],
    )
    .unwrap();
    Club { po, n: 0 }
}

fn state(po: &PostOffice) -> Campaign {
    state_of(po, "desk")
}

impl Club {
    fn power_orders(&mut self, power: &str, address: &str, password: &str, lines: &str) {
        self.orders_of("desk", power, address, password, lines);
    }

    /// Week 1: Aquilonia marches into the Nemedian Marches, where Nemedia's
    /// army stands, and the engine fights the battle (Aquilonia's second
    /// order names no army of its); Ophir garrisons.
    fn meet(&mut self) {
        self.power_orders(
            "aquilonia",
            AQUILONIA,
            "lion",
            "army aquilonia-1 move to Nemedian Marches\narmy aquilonia-9 halt",
        );
        self.power_orders("nemedia", NEMEDIA, "dragon", "");
        self.power_orders("ophir", OPHIR, "disc", "army ophir-1 garrison");
    }

    /// The secretary's commands; the reply's text.
    fn desk(&mut self, commands: &str) -> String {
        let d = self.send(
            SECRETARY,
            &format!("CAMPAIGN desk SECRETARY PASSWORD scroll\n{commands}\nEND\n"),
        );
        assert_eq!(d.state(), "done", "{d:?}");
        mails(&self.po)
            .into_iter()
            .rev()
            .find(|(kind, to, _, _)| kind == "reply" && to == SECRETARY)
            .unwrap()
            .3
    }

    fn turn_row(&self) -> (String, String) {
        let conn = self.po.store().conn();
        let mut st = conn
            .prepare("SELECT state_after, events FROM campaign_turns WHERE turn = 1")
            .unwrap();
        st.query_row([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap()
    }
}

/// The report after the line with its deadline (before it: the
/// correction's headline and the deadline, which a re-run sets afresh).
fn after_deadline(body: &str) -> String {
    body.split_once(" are due by ")
        .and_then(|(_, rest)| rest.split_once('\n'))
        .map_or(body, |(_, rest)| rest)
        .to_string()
}

#[test]
fn a_week_is_rerun_with_the_same_dice_and_again_without_an_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = open(dir.path(), "");
    let early = club.desk("rerun");
    assert!(
        early.contains("rerun: NOT DONE: no week has been resolved yet"),
        "{early}"
    );
    club.meet();
    let first = state(&club.po);
    assert_eq!(first.turn, 1);
    let fought = events(&club.po);
    assert!(
        fought.iter().any(|e| matches!(e, MapEvent::Battle { .. })),
        "{fought:?}"
    );
    let row = club.turn_row();
    let reports = |club: &Club| -> Vec<(String, String)> {
        mails(&club.po)
            .into_iter()
            .filter(|(kind, _, _, _)| kind == "report")
            .map(|(_, to, _, body)| (to, body))
            .collect()
    };
    let before = reports(&club);

    // Unchanged, the week comes out the same: the same dice.
    let reply = club.desk("rerun");
    assert!(
        reply.contains("rerun: done: year 1, week 1 (map turn 1) re-run with the same dice; the outcome is the same as before; every power has its corrected report"),
        "{reply}"
    );
    assert_eq!(club.turn_row(), row, "the same state and events stored");
    assert_eq!(state(&club.po), first);
    let after = reports(&club);
    let corrected = &after[before.len()..];
    assert_eq!(corrected.len(), 4, "three powers and the secretary");
    for (to, body) in corrected {
        assert!(
            body.contains("\n\nCORRECTED: year 1, week 1 re-run by the secretary (map turn 1). This report replaces the one you had"),
            "{to}: {body}"
        );
        // The same report as the first, fog and all, after the headline.
        let (_, was) = before
            .iter()
            .rev()
            .find(|(t, _)| t == to)
            .expect("the first report to the same reader");
        assert_eq!(after_deadline(body), after_deadline(was), "{to}");
    }

    // Refusals quote the line and say what to write.
    let reply = club.desk("rerun without zamora 1\nrerun without aquilonia 3\nrerun 2\nrerun without aquilonia 1, Aquilonia 1");
    for expected in [
        "rerun without zamora 1: NOT DONE: without zamora 1: there is no power 'zamora'; the powers are aquilonia, nemedia, ophir",
        "rerun without aquilonia 3: NOT DONE: without aquilonia 3: aquilonia had 2 orders that week",
        "rerun 2: NOT DONE: map turn 2 has not been resolved; the week last resolved is map turn 1",
        "NOT DONE: without Aquilonia 1: named twice",
    ] {
        assert!(reply.contains(expected), "{expected}\n{reply}");
    }
    assert_eq!(state(&club.po), first, "nothing changed");

    // Without Aquilonia's march there is no battle.
    let reply = club.desk("re-run 1 without aquilonia 1");
    assert!(
        reply.contains("re-run with the same dice without aquilonia: army aquilonia-1 move to Nemedian Marches; the outcome differs"),
        "{reply}"
    );
    let c = state(&club.po);
    assert_eq!(c.armies["aquilonia-1"].province, "attalus");
    assert_eq!(c.turn, 1);
    let stored: Vec<MapEvent> = serde_json::from_str(&club.turn_row().1).unwrap();
    assert!(!stored.iter().any(|e| matches!(e, MapEvent::Battle { .. })));
    // The dropped order is told to its power and the secretary only.
    let all = reports(&club);
    for (to, body) in &all[all.len() - 4..] {
        match to.as_str() {
            SECRETARY => assert!(
                body.contains("Dropped: aquilonia: army aquilonia-1 move to Nemedian Marches"),
                "{body}"
            ),
            AQUILONIA => assert!(
                body.contains(
                    "The secretary dropped your order \"army aquilonia-1 move to Nemedian Marches\"."
                ),
                "{body}"
            ),
            _ => assert!(
                !body.contains("move to Nemedian Marches"),
                "{to} reads another power's order: {body}"
            ),
        }
    }

    // Once week 2 is resolved, week 1 stays as it is.
    club.desk("resolve");
    let reply = club.desk("rerun 1");
    assert!(
        reply.contains(
            "rerun 1: NOT DONE: map turn 1 cannot be re-run: map turn 2 has been resolved since"
        ),
        "{reply}"
    );
}

#[test]
fn a_week_whose_battle_is_played_by_mail_is_not_rerun() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = open(dir.path(), "battles = \"mail\"\nweek_hours = 0");
    club.meet();
    assert_eq!(state(&club.po).pending.len(), 1);
    let reply = club.desk("rerun");
    assert!(
        reply.contains("rerun: NOT DONE: battle 1 is being played by mail as game desk-b1, started after map turn 1 was resolved"),
        "{reply}"
    );
    // The command line's `umpire campaign rerun` says the same.
    let why = club
        .po
        .rerun_campaign("desk", t0() + Duration::hours(1))
        .unwrap()
        .unwrap_err();
    assert!(
        why.contains("being played by mail as game desk-b1"),
        "{why}"
    );
}

#[test]
fn the_secretary_places_an_army_and_edits_its_losses_telling_only_its_power() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = open(dir.path(), "");
    let worth = state(&club.po).armies["ophir-1"].points();
    let before = mails(&club.po).len();
    let reply = club.desk(
        "move ophir-1 to Shamr\nmove army ophir-1 to Tauran\nedit ophir-1 losses 100\nedit ophir-1 losses 99999999999\nedit ophir-9 losses 10",
    );
    assert!(
        reply.contains(
            "move ophir-1 to Shamr: NOT DONE: there is no province 'Shamr' (did you mean Shamar?)"
        ),
        "{reply}"
    );
    assert!(
        reply.contains(
            "move army ophir-1 to Tauran: done: army ophir-1 stands in Tauran; ophir is told"
        ),
        "{reply}"
    );
    assert!(
        reply.contains("edit ophir-1 losses 100: done: army ophir-1 loses "),
        "{reply}"
    );
    assert!(
        reply.contains("edit ophir-1 losses 99999999999: NOT DONE: army ophir-1 is worth"),
        "{reply}"
    );
    assert!(
        reply.contains(
            "edit ophir-9 losses 10: NOT DONE: there is no army 'ophir-9' (did you mean ophir-1?)"
        ),
        "{reply}"
    );
    let c = state(&club.po);
    assert_eq!(c.armies["ophir-1"].province, "tauran");
    assert!(c.armies["ophir-1"].points() < worth);
    let notices: Vec<_> = mails(&club.po)[before..]
        .iter()
        .filter(|(kind, _, _, _)| kind == "notice")
        .cloned()
        .collect();
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(
        notices.iter().all(|(_, to, _, _)| to == OPHIR),
        "only Ophir hears of it"
    );
    assert!(notices[0].3.contains("placed your army ophir-1 in Tauran"));
}

#[test]
fn the_deadline_is_extended_powers_are_reminded_once_and_a_power_changes_hands() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = open(dir.path(), "week_hours = 72\nreminder_hours = 24");
    club.power_orders("aquilonia", AQUILONIA, "lion", "army aquilonia-1 halt");
    let reminders = |club: &Club| -> Vec<String> {
        mails(&club.po)
            .into_iter()
            .filter(|(kind, _, _, _)| kind == "reminder")
            .map(|(_, to, _, _)| to)
            .collect()
    };
    assert_eq!(club.po.tick(t0() + Duration::hours(47)).unwrap(), 0);
    assert!(reminders(&club).is_empty(), "not yet");
    club.po.tick(t0() + Duration::hours(48)).unwrap();
    club.po.tick(t0() + Duration::hours(49)).unwrap();
    assert_eq!(
        reminders(&club),
        [NEMEDIA, OPHIR],
        "once each, not Aquilonia"
    );
    let text = &mails(&club.po)
        .into_iter()
        .find(|(kind, _, _, _)| kind == "reminder")
        .unwrap();
    assert!(
        text.2.contains("[desk] Year 1, week 1: orders due")
            && text
                .3
                .contains("no orders from nemedia yet for year 1, week 1"),
        "{text:?}"
    );

    // Extend: bounded, every power told.
    let reply = club.desk("extend 0\nextend 99999999999\nextend 24 hours");
    assert!(
        reply.contains("extend 0: NOT DONE: extend by 1 to 336 hours"),
        "{reply}"
    );
    assert!(
        reply.contains("extend 99999999999: NOT DONE: extend by 1 to 336 hours"),
        "{reply}"
    );
    assert!(
        reply.contains(
            "extend 24 hours: done: orders for year 1, week 1 are now due by 2026-12-05 09:00 UTC"
        ),
        "{reply}"
    );
    let told: Vec<String> = mails(&club.po)
        .into_iter()
        .filter(|(kind, _, _, body)| kind == "notice" && body.contains("extended the deadline"))
        .map(|(_, to, _, _)| to)
        .collect();
    assert_eq!(told.len(), 3);
    // Mail of its own to each power: not a reply to the secretary's
    // letter, whose subject is his.
    let subjects: Vec<String> = mails(&club.po)
        .into_iter()
        .filter(|(kind, _, _, body)| kind == "notice" && body.contains("extended the deadline"))
        .map(|(_, _, subject, _)| subject)
        .collect();
    assert!(
        subjects
            .iter()
            .all(|s| s == "[desk] The deadline is extended"),
        "{subjects:?}"
    );
    let threaded = outbox(&club.po)
        .into_iter()
        .filter(|(kind, _, raw)| kind == "notice" && raw.contains("In-Reply-To"))
        .count();
    assert_eq!(threaded, 0, "no notice threads under the secretary's mail");
    assert_eq!(
        club.po.tick(t0() + Duration::hours(72)).unwrap(),
        0,
        "not due yet"
    );
    assert_eq!(state(&club.po).turn, 0);

    // Replace: a fresh password to the new player; the old one no longer works.
    let reply = club.desk("replace nemedia not-an-address\nreplace zamora x@y.example\nreplace nemedia numedides@belverus.example");
    assert!(
        reply.contains(
            "replace nemedia not-an-address: NOT DONE: 'not-an-address' is not a mail address"
        ),
        "{reply}"
    );
    assert!(
        reply.contains("replace zamora x@y.example: NOT DONE: there is no power 'zamora'"),
        "{reply}"
    );
    assert!(
        reply.contains("done: nemedia is now played from numedides@belverus.example"),
        "{reply}"
    );
    let all = mails(&club.po);
    let welcome = all
        .iter()
        .find(|(kind, to, _, _)| kind == "welcome" && to == "numedides@belverus.example")
        .expect("the new player's welcome");
    assert!(welcome.2.contains("You take over nemedia"), "{welcome:?}");
    assert!(
        welcome.3.contains("nemedia-1"),
        "the power as it stands: {}",
        welcome.3
    );
    let c = state(&club.po);
    let own_view = umpire::games::hyborian::campaign::report::text(
        &c,
        &umpire::games::hyborian::campaign::map::World::hyborea().unwrap(),
        Some("nemedia"),
        &umpire::games::hyborian::campaign::report::Week {
            played: &c.date(),
            events: &[],
            orders: &Default::default(),
            dice: None,
            intro: "",
        },
    );
    assert!(
        welcome
            .3
            .replace("\r\n", "\n")
            .contains(own_view.trim_end()),
        "Nemedia's own (fogged) view, nothing more: {}",
        welcome.3
    );
    assert!(all.iter().any(|(kind, to, _, body)| kind == "notice"
        && to == NEMEDIA
        && body.contains("no longer works")));
    let pw = welcome
        .3
        .lines()
        .find_map(|l| l.strip_prefix("Your password: "))
        .unwrap()
        .trim()
        .to_string();
    let d = club.send(
        NEMEDIA,
        "CAMPAIGN desk POWER nemedia PASSWORD dragon\nEND\n",
    );
    assert_eq!(d.state(), "refused", "the old player's mail");
    club.power_orders("nemedia", "numedides@belverus.example", &pw, "");
    assert_eq!(state(&club.po).turn, 0, "Ophir's orders still missing");
}

#[test]
fn a_powers_opening_report_holds_its_password_only_until_it_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = open(dir.path(), "");
    let opening = |club: &Club| -> Vec<(String, String, String)> {
        outbox(&club.po)
            .into_iter()
            .filter(|(kind, _, _)| kind == "report")
            .collect()
    };
    let before = opening(&club);
    assert_eq!(before.len(), 4, "three powers and the secretary");
    assert!(
        mails(&club.po)
            .iter()
            .any(|(_, to, _, body)| to == AQUILONIA && body.contains("Your password: lion")),
        "queued with its password"
    );
    club.po.send(t0()).unwrap();
    for (_, to, raw) in opening(&club) {
        assert!(raw.contains("Message-ID: <"), "{to}: headers kept");
        if to == SECRETARY {
            assert!(
                !raw.contains("(sent; the body"),
                "{to}: nothing secret in it"
            );
            continue;
        }
        assert!(
            raw.contains("(sent; the body held a password and is not kept)"),
            "{to}: body cut\n{raw}"
        );
        for pw in ["lion", "dragon", "disc"] {
            assert!(!raw.contains(pw), "{to}: {pw} kept");
        }
    }
}

#[test]
fn a_powers_status_marks_the_orders_the_week_will_refuse() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = open(dir.path(), "");
    club.power_orders(
        "aquilonia",
        AQUILONIA,
        "lion",
        "army aquilonia-1 move to Nemedian Marches\narmy aquilonia-9 halt",
    );
    club.send(
        AQUILONIA,
        "CAMPAIGN desk POWER aquilonia PASSWORD lion\nSTATUS\nEND\n",
    );
    let status = mails(&club.po)
        .into_iter()
        .rev()
        .find(|(kind, to, _, _)| kind == "confirmation" && to == AQUILONIA)
        .unwrap()
        .3;
    let lines: Vec<&str> = status.lines().collect();
    let halt = lines
        .iter()
        .position(|l| l.trim() == "army aquilonia-9 halt")
        .unwrap_or_else(|| panic!("{status}"));
    assert!(
        lines[halt + 1].trim_start().starts_with("REFUSED: "),
        "{status}"
    );
    let march = lines
        .iter()
        .position(|l| l.trim() == "army aquilonia-1 move to Nemedian Marches")
        .unwrap();
    assert!(!lines[march + 1].contains("REFUSED"), "{status}");
}
