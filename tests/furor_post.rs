//! Furor Barbarus by mail on a real SQLite file: Soissons through the same
//! post office as the Hyborean Age — welcome, the set-up rounds, confirmations with planned
//! moves, a round per player-turn played as soon as the phasing player is
//! in, standing reactions, a missed turn, the moderator's dice for
//! Chararic's roll, HELP, a spoof, verification and the report's picture.

mod common;
use chrono::Duration;
use common::*;
use umpire::post::gamefile::GameFile;
use umpire::post::PostOffice;

fn soissons(dir: &std::path::Path) -> PostOffice {
    let mut po = PostOffice::open(config(dir)).unwrap();
    po.create_game(&GameFile::load(&soissons_file(dir)).unwrap(), t0())
        .unwrap();
    po
}

fn last_to(po: &PostOffice, to: &str) -> (String, String) {
    let out = outbox(po);
    let (kind, _, raw) = out
        .iter()
        .rev()
        .find(|(_, r, _)| r.split(',').any(|a| a == to))
        .expect("a mail")
        .clone();
    (kind, raw)
}

/// The reports Clovis received (each report goes to each player and the moderator).
fn reports(po: &PostOffice) -> Vec<String> {
    outbox(po)
        .into_iter()
        .filter(|(k, to, _)| k == "report" && to == CLOVIS)
        .map(|(_, _, raw)| raw)
        .collect()
}

#[test]
fn a_game_of_soissons_by_mail() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = soissons(dir.path());
    let welcome = body_text(&last_to(&po, CLOVIS).1);
    assert!(welcome.contains("a battle of Furor Barbarus"), "{welcome}");
    assert!(
        welcome.contains("salian-4a: Salian Franks infantry, strength 4, 4 MP, in 0806"),
        "{welcome}"
    );
    assert!(welcome.contains("the franks play first"), "{welcome}");

    // HELP is this rule set's guide.
    po.accept(
        &mail(
            SYAGRIUS,
            "h1@s",
            "GAME soissons SIDE gallo-romans PASSWORD syag2\nHELP\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let help = body_text(&last_to(&po, SYAGRIUS).1);
    assert!(
        help.contains("Standing orders for your opponent's turn"),
        "{help}"
    );

    // The set-up rounds come first, in the scenario's order: the
    // Gallo-Romans, then the Franks; each is played when its side is in.
    po.accept(
        &mail(
            CLOVIS,
            "s0@f",
            "GAME soissons SIDE franks PASSWORD clovis1\nplace light-1 in 0814\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert!(
        body_text(&last_to(&po, CLOVIS).1).contains("it is the set-up round of the gallo-romans"),
        "not the Franks' round yet"
    );
    po.accept(
        &mail(
            SYAGRIUS,
            "s1@s",
            "GAME soissons SIDE gallo-romans PASSWORD syag2\ngr-archers-a: set up in 0410\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(reports(&po).len(), 1, "the Gallo-Roman set-up is played");
    assert!(
        body_text(&reports(&po)[0]).contains("Set-up of the gallo-romans"),
        "{}",
        body_text(&reports(&po)[0])
    );
    po.accept(
        &mail(
            CLOVIS,
            "s2@f",
            "GAME soissons SIDE franks PASSWORD clovis1\nplace light-1 in 0814\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(reports(&po).len(), 2, "the Frankish set-up is played");
    assert!(
        body_text(&reports(&po)[1]).contains("Light infantry (light-1): 0814")
            || body_text(&reports(&po)[1]).contains("light-1"),
        "{}",
        body_text(&reports(&po)[1])
    );

    // The Gallo-Romans write standing reactions before the Franks move:
    // confirmed, and the round does not play (they are not the writers).
    po.accept(&mail(SYAGRIUS, "r1@s", "GAME soissons SIDE gallo-romans PASSWORD syag2\nretreat legionaries-4 0406 0506\nadvance palatina into 0608\nEND\n"), "test", t0()).unwrap();
    let (kind, raw) = last_to(&po, SYAGRIUS);
    assert_eq!(kind, "confirmation");
    assert!(
        body_text(&raw).contains("retreat legionaries-4 0406 0506"),
        "{}",
        body_text(&raw)
    );
    assert_eq!(reports(&po).len(), 2);

    // A spy's orders for the Franks are refused and change nothing.
    let d = po
        .accept(
            &mail(
                "spy@alamanni.example",
                "x1@a",
                "GAME soissons SIDE franks PASSWORD guess\nsalian-4a: move 0706\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "refused");

    // A mistake is pointed at with a suggestion, and a mail with a refused
    // line does not set the round going: it waits for the fix.
    po.accept(
        &mail(
            CLOVIS,
            "o1@f",
            "GAME soissons SIDE franks PASSWORD clovis1\nSalain 4a: move 0706\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let conf = body_text(&last_to(&po, CLOVIS).1);
    assert!(
        conf.contains("did you mean 'Salian Franks' (salian-4a)?"),
        "{conf}"
    );
    assert!(conf.contains("send READY"), "{conf}");
    assert_eq!(reports(&po).len(), 2, "a refused line holds the round");
    po.accept(&mail(CLOVIS, "o2@f", "GAME soissons SIDE franks PASSWORD clovis1\nsalian-4a: move 0706 0606\nClovis: move 0706 0606\narchers: move 0807 0708\nEND\n"), "test", t0()).unwrap();
    let reps = reports(&po);
    assert_eq!(
        reps.len(),
        3,
        "turn 1 of the Franks is played as soon as they are in"
    );
    let report = body_text(&reps[2]);
    assert!(
        report.contains("Turn 1: movement of the franks"),
        "{report}"
    );
    assert!(report.contains("Army morale (§10)"), "{report}");
    assert!(reps[2].contains("image/png"), "the map is attached");
    assert_eq!(
        outbox(&po)
            .iter()
            .filter(|(k, to, _)| k == "report" && to == SYAGRIUS)
            .count(),
        3,
        "both players get it"
    );

    // The Gallo-Romans miss their turn: at the deadline it is played without them.
    let played = po.tick(t0() + Duration::days(9)).unwrap();
    assert_eq!(played, 1);
    let report = body_text(reports(&po).last().unwrap());
    assert!(report.contains("gallo-romans sent no orders"), "{report}");
    assert!(
        report.contains("Turn 2: start of the turn")
            || report.contains("Turn 1: movement of the gallo-romans"),
        "{report}"
    );

    // Every played round checks against its published seed.
    for round in 1..=4 {
        let (text, ok) = umpire::post::verify_turn(&mut po, "soissons", round).unwrap();
        assert!(ok, "round {round}: {text}");
    }
}

#[test]
fn the_moderator_rolls_for_chararic_and_he_joins_clovis() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = soissons(dir.path());
    // Rounds 1-5 (the two set-ups, then three player-turns) pass at their
    // deadlines with nobody writing; round 6 is the Gallo-Romans' turn 2,
    // after which turn 3 begins with the roll.
    po.accept(
        &mail(
            MODERATOR,
            "m1@c",
            "MODERATOR soissons PASSWORD modpw\nDICE TURN 6 chararic:3=6\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    let mut now = t0();
    for _ in 0..6 {
        now += Duration::days(2) + Duration::hours(12);
        assert_eq!(po.tick(now).unwrap(), 1);
    }
    let report = body_text(reports(&po).last().unwrap());
    assert!(
        report.contains("chararic:3 = 6 (the moderator's die)"),
        "{report}"
    );
    assert!(
        report.contains("Chararic's corps fights for the franks."),
        "{report}"
    );
}

/// Mail for the next round (`TURN n+1`) that comes while round `n` is open
/// is held, not judged against round `n`: the sender is told at once, it
/// survives a restart in the database, and it is read (once) when round
/// `n+1` opens — only for the side that writes in it.
#[test]
fn mail_for_the_next_round_is_held_until_it_opens() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = soissons(dir.path());
    let held_state = |dir: &std::path::Path, key: &str| -> String {
        rusqlite::Connection::open(dir.join("umpire.sqlite"))
            .unwrap()
            .query_row(
                "SELECT state FROM messages WHERE message_id LIKE '%' || ?1 || '%'",
                [key],
                |r| r.get(0),
            )
            .unwrap()
    };
    // Round 1 is the Gallo-Roman set-up; the Franks write their own (round
    // 2) before it is played.
    let d = po
        .accept(
            &mail(
                CLOVIS,
                "early@f",
                "GAME soissons SIDE franks PASSWORD clovis1 TURN 2\nplace light-1 in 0814\nEND\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "deferred", "{d:?}");
    let (kind, raw) = last_to(&po, CLOVIS);
    let told = body_text(&raw);
    assert_eq!(kind, "reply");
    assert!(
        told.contains("your mail for turn 2 (franks) is held")
            && told.contains("taking orders for set-up, gallo-romans now")
            && told.contains("umpire reads it as soon as turn 2 opens"),
        "{told}"
    );
    assert!(!told.contains("clovis1"), "no password in the answer");
    // Turn 3 is not the next round: judged (and refused) as before.
    let d = po
        .accept(
            &mail(
                CLOVIS,
                "later@f",
                "GAME soissons SIDE franks PASSWORD clovis1 TURN 3\nsalian-4a: move 0706\nEND\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "refused");

    // A restart keeps it held, and handling stored mail again does not
    // read it before its round.
    drop(po);
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.process_pending(t0()).unwrap();
    assert_eq!(held_state(dir.path(), "early@f"), "deferred");
    assert_eq!(reports(&po).len(), 0);

    // The Gallo-Romans set up: round 1 is played, round 2 opens, the
    // Franks' held mail is read at once and completes round 2.
    po.accept(
        &mail(
            SYAGRIUS,
            "s1@s",
            "GAME soissons SIDE gallo-romans PASSWORD syag2\ngr-archers-a: set up in 0410\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(held_state(dir.path(), "early@f"), "done");
    let confirmations: Vec<String> = outbox(&po)
        .into_iter()
        .filter(|(k, to, _)| k == "confirmation" && to == CLOVIS)
        .map(|(_, _, raw)| body_text(&raw))
        .collect();
    assert_eq!(confirmations.len(), 1, "{confirmations:?}");
    assert!(
        confirmations[0].contains("orders for franks received"),
        "{}",
        confirmations[0]
    );
    let reps = reports(&po);
    assert_eq!(reps.len(), 2, "both set-ups are played");
    assert!(
        body_text(&reps[1]).contains("light-1"),
        "{}",
        body_text(&reps[1])
    );

    // Idempotent: reading stored mail again (after another restart) reads
    // nothing twice and sends nothing twice.
    let before = outbox(&po).len();
    drop(po);
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.process_pending(t0()).unwrap();
    assert_eq!(outbox(&po).len(), before);

    // Round 3 is the Franks' turn 1; round 4 the Gallo-Romans'. Their mail
    // for round 4 (a move, not a standing reaction) is held, not refused
    // as "not your turn"; the Franks' own mail for round 4 is not held,
    // for they do not write in it.
    let d = po
        .accept(
            &mail(
                SYAGRIUS,
                "r4@s",
                "GAME soissons SIDE gallo-romans PASSWORD syag2 TURN 4\nlegionaries-4: move 0406 0506\nEND\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "deferred", "{d:?}");
    let d = po
        .accept(
            &mail(
                CLOVIS,
                "f4@f",
                "GAME soissons SIDE franks PASSWORD clovis1 TURN 4\nretreat salian-4a 0706\nEND\n",
            ),
            "test",
            t0(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(d.state(), "refused");
    assert!(
        body_text(&last_to(&po, CLOVIS).1).contains("These orders are for turn 4"),
        "{}",
        body_text(&last_to(&po, CLOVIS).1)
    );
    // The Franks miss round 3: at its deadline it is played without them,
    // and the held mail is read against round 4.
    let round_3_due = t0() + Duration::days(6) + Duration::hours(12);
    assert_eq!(po.tick(round_3_due).unwrap(), 1);
    assert_eq!(held_state(dir.path(), "r4@s"), "done");
    let conf = outbox(&po)
        .into_iter()
        .rev()
        .find(|(k, to, _)| k == "confirmation" && to == SYAGRIUS)
        .map(|(_, _, raw)| body_text(&raw))
        .expect("a confirmation");
    assert!(
        conf.contains("orders for gallo-romans received") && !conf.contains("not your turn"),
        "{conf}"
    );
}
