//! Furor Barbarus by mail on a real SQLite file: Soissons through the same
//! post office as the Hyborean Age — welcome, the set-up rounds, confirmations with planned
//! moves, a round per player-turn played as soon as the phasing player is
//! in, standing reactions, a missed turn, the moderator's dice for
//! Chararic's roll, HELP, a spoof, verification and the report's picture;
//! mail for the next round held until it opens; a whole game to its end.

use crate::common;
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

/// The last confirmation mailed to `to`, as text.
fn last_confirmation(po: &PostOffice, to: &str) -> String {
    outbox(po)
        .into_iter()
        .rev()
        .find(|(k, r, _)| k == "confirmation" && r == to)
        .map(|(_, _, raw)| body_text(&raw))
        .expect("a confirmation")
}

/// The reports Clovis received (each report goes to each player and the moderator).
fn reports(po: &PostOffice) -> Vec<String> {
    outbox(po)
        .into_iter()
        .filter(|(k, to, _)| k == "report" && to == CLOVIS)
        .map(|(_, _, raw)| raw)
        .collect()
}

/// Soissons with these `[options]`, its two set-up rounds played (the
/// moderator's lines, if any, sent first).
fn soissons_set_up(dir: &std::path::Path, options: &str, moderator: &str) -> PostOffice {
    let file = soissons_file(dir);
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{text}\n[options]\n{options}\n")).unwrap();
    let mut po = PostOffice::open(config(dir)).unwrap();
    po.create_game(&GameFile::load(&file).unwrap(), t0())
        .unwrap();
    let mut mails = vec![
        (
            SYAGRIUS,
            "GAME soissons SIDE gallo-romans PASSWORD syag2\ngr-archers-a: set up in 0410\nEND\n"
                .to_string(),
        ),
        (
            CLOVIS,
            "GAME soissons SIDE franks PASSWORD clovis1\nplace light-1 in 0814\nEND\n".to_string(),
        ),
    ];
    if !moderator.is_empty() {
        mails.insert(
            0,
            (
                MODERATOR,
                format!("MODERATOR soissons PASSWORD modpw\n{moderator}\n"),
            ),
        );
    }
    for (from, body) in mails {
        po.accept(&mail(from, &format!("{from}.setup"), &body), "test", t0())
            .unwrap();
    }
    assert_eq!(reports(&po).len(), 2);
    po
}

#[test]
fn a_game_of_soissons_by_mail() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = soissons(dir.path());
    let welcome = body_text(&last_to(&po, CLOVIS).1);
    assert!(welcome.contains("a battle of Furor Barbarus"), "{welcome}");
    assert!(
        welcome.contains("salian-4a: Salian Franks, infantry, strength 4, 4 MP, in 0806"),
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

    // Every played round checks against its published seed, from the
    // store and from the bundle each report attached.
    for round in 1..=4 {
        let (text, ok) = umpire::post::verify_turn(&mut po, "soissons", round).unwrap();
        assert!(ok, "round {round}: {text}");
    }
    assert_eq!(every_bundle_verifies(&po, CLOVIS), reports(&po).len());
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

/// A whole game of Soissons by mail, set-up to the end: both players, every
/// kind of order the scenario has (moves as paths and as destinations, a
/// charge, a feigned flight the scenario does not allow, attack lists with
/// minimum odds, `else`, advance and loss allocation, standing reactions),
/// a missed turn, Chararic joining Clovis on the moderator's die, and the
/// result in the last report. The dice come from fresh seeds, so what the
/// test asserts after the first combat holds whatever they roll.
#[test]
fn a_whole_game_of_soissons_by_mail_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = soissons(dir.path());
    let mut n = 0;
    let mut send = |po: &mut PostOffice, from: &str, body: &str, at| {
        n += 1;
        let d = po
            .accept(&mail(from, &format!("g{n}@soissons"), body), "test", at)
            .unwrap()
            .unwrap();
        let text = outbox(po)
            .into_iter()
            .rev()
            .find(|(k, to, _)| to == from && k != "report")
            .map(|(_, _, raw)| body_text(&raw))
            .unwrap_or_default();
        (d, text)
    };
    const F: &str = "GAME soissons SIDE franks PASSWORD clovis1";
    const G: &str = "GAME soissons SIDE gallo-romans PASSWORD syag2";
    // Round k's deadline (and its quarter of an hour's grace) past: the
    // first deadline, then 48 hours a round.
    let first = chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 12, 3, 21, 0, 0).unwrap();
    let due = |round: i64| first + Duration::hours(48 * (round - 1));

    // The set-up rounds: Gallo-Romans, then Franks.
    let (d, c) = send(
        &mut po,
        SYAGRIUS,
        &format!("{G}\ngr-archers-a: set up in 0410\nEND\n"),
        t0(),
    );
    assert_eq!(d.state(), "done", "{c}");
    let (_, c) = send(
        &mut po,
        CLOVIS,
        &format!("{F}\nplace light-1 in 0814\nEND\n"),
        t0(),
    );
    assert!(c.contains("light-1"), "{c}");
    assert_eq!(reports(&po).len(), 2);

    // The Gallo-Romans' standing reactions for the Franks' turns.
    let (_, c) = send(
        &mut po,
        SYAGRIUS,
        &format!("{G}\nretreat legionaries-4 0406 0506\nadvance palatina into 0608\nEND\n"),
        t0(),
    );
    assert!(
        c.contains("retreat legionaries-4 0406 0506") && c.contains("advance palatina into 0608"),
        "{c}"
    );
    // Round 3, the Franks' turn 1: moves as paths and as a destination,
    // an attack list with minimum odds, an alternative, an advance with
    // the commander and a loss allocation; a feigned flight is Campus
    // Mauriacus' alone; Chararic's corps is not theirs (yet).
    let (_, c) = send(
        &mut po,
        CLOVIS,
        &format!("{F}\nchararic-3: stay\nlight-1: feigned flight at militia-1a\nEND\n"),
        t0(),
    );
    assert!(c.contains("not one of your units"), "{c}");
    assert!(c.contains("no feigned flight at"), "{c}");
    let turn_1 = "salian-4a: move 0706 0606\nClovis: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move to 0708\n\
                  attack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/2; advance salian-4a with commander; losses salian-4b, salian-4a\n\
                  else attack palatina with salian-4b\nretreat salian-4b 0708\n";
    let (d, c) = send(&mut po, CLOVIS, &format!("{F}\n{turn_1}END\n"), t0());
    assert_eq!(d.state(), "done", "{c}");
    for line in [
        "salian-4a: move 0706 0606",
        "archers: move 0807 0708",
        "attack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/2; advance salian-4a with commander; losses salian-4b, salian-4a",
        "else attack palatina with salian-4b",
    ] {
        assert!(c.contains(line), "{line}: {c}");
    }
    assert_eq!(reports(&po).len(), 3, "played as soon as the Franks are in");
    let report = body_text(&reports(&po)[2]);
    assert!(report.contains("Turn 1: combat of the franks"), "{report}");

    // Round 4, the Gallo-Romans' turn 1: they miss it.
    assert_eq!(po.tick(due(4)).unwrap(), 1);
    let report = body_text(reports(&po).last().unwrap());
    assert!(report.contains("gallo-romans sent no orders"), "{report}");

    // Chararic's roll at the start of turn 3 comes after round 6: the
    // moderator gives it.
    send(
        &mut po,
        MODERATOR,
        "MODERATOR soissons PASSWORD modpw\nDICE TURN 6 chararic:3=6\n",
        due(4),
    );
    // Round 5, the Franks' turn 2: standing reactions for the coming
    // Gallo-Roman turn, and READY whatever the dice left standing.
    let (_, c) = send(
        &mut po,
        CLOVIS,
        &format!("{F}\nREADY\nretreat light-1 0913\nlight-1: stay\nEND\n"),
        due(4),
    );
    assert!(c.contains("retreat light-1 0913"), "{c}");
    assert_eq!(reports(&po).len(), 5);
    // Round 6, the Gallo-Romans' turn 2: a charge of their cavalry (made
    // as a plain move if the line to its target is not straight).
    let (_, c) = send(
        &mut po,
        SYAGRIUS,
        &format!("{G}\nREADY\nroman-cavalry: charge salian-4a by 0605\nEND\n"),
        due(4),
    );
    assert!(
        c.contains("roman-cavalry") || c.contains("Roman cavalry"),
        "{c}"
    );
    assert_eq!(reports(&po).len(), 6, "READY plays it");
    let report = body_text(reports(&po).last().unwrap());
    assert!(
        report.contains("chararic:3 = 6 (the moderator's die)"),
        "{report}"
    );
    assert!(
        report.contains("Chararic's corps is with the franks"),
        "{report}"
    );
    // Round 7, the Franks' turn 3: Chararic's corps is theirs now.
    let (_, c) = send(
        &mut po,
        CLOVIS,
        &format!("{F}\nREADY\nchararic-3: stay\nEND\n"),
        due(6),
    );
    assert!(!c.contains("not one of your units"), "{c}");
    assert!(c.contains("chararic-3: stay"), "{c}");

    // The rest passes at the deadlines, to the end of turn 6 (or an army's
    // collapse before it).
    let mut round = 8;
    while count_in(
        dir.path(),
        "SELECT COUNT(*) FROM games WHERE status = 'ended'",
    ) == 0
    {
        assert!(round <= 14, "Soissons lasts six turns");
        assert_eq!(po.tick(due(round)).unwrap(), 1, "round {round}");
        round += 1;
    }
    let last = body_text(reports(&po).last().unwrap());
    assert!(last.contains("The board at the end"), "{last}");
    assert!(
        [
            "a major victory for the",
            "a minor victory for the",
            "a tie"
        ]
        .iter()
        .any(|r| last.contains(r)),
        "{last}"
    );
    // Every round checks against its published seed.
    for r in 1..round {
        let (text, ok) = umpire::post::verify_turn(&mut po, "soissons", r as u32).unwrap();
        assert!(ok, "round {r}: {text}");
    }
}

/// `split_turn`: the phasing player's moves and his attacks are two rounds
/// by mail, each with its report; the attacks are written on the board the
/// moves left; a missed exchange is played at its deadline.
#[test]
fn split_turn_by_mail_moves_then_attacks() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = soissons_set_up(dir.path(), "split_turn = true", "");
    const F: &str = "GAME soissons SIDE franks PASSWORD clovis1";
    // The moves' round: an attack line is refused (the rest is taken).
    po.accept(&mail(CLOVIS, "m1@f", &format!("{F}\nREADY\nsalian-4a: move 0706 0606\nClovis: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move 0807 0708\nattack legionaries-4 with salian-4a\nEND\n")), "test", t0()).unwrap();
    let conf = body_text(&last_to(&po, CLOVIS).1);
    let reps = reports(&po);
    assert_eq!(reps.len(), 3, "{conf}");
    let conf = last_confirmation(&po, CLOVIS);
    assert!(
        conf.contains("turn 1, franks, moves: orders for franks received"),
        "{conf}"
    );
    assert!(
        conf.contains("attacks are written in the next exchange"),
        "{conf}"
    );
    let moves = body_text(&reps[2]);
    assert!(moves.contains("Turn 1, franks, moves: report"), "{moves}");
    assert!(moves.contains("Turn 1: movement of the franks"), "{moves}");
    assert!(!moves.contains("combat of the franks"), "{moves}");
    assert!(
        moves.contains("The board before turn 1, franks, attacks"),
        "{moves}"
    );
    // The attacks' round, written after the report; a move is refused now.
    po.accept(&mail(CLOVIS, "a1@f", &format!("{F}\nREADY\narchers: move 0708 0608\nattack legionaries-4 with salian-4a, salian-4b, fire archers; advance salian-4a with commander\nelse attack palatina with salian-4b\nEND\n")), "test", t0()).unwrap();
    let reps = reports(&po);
    assert_eq!(reps.len(), 4);
    let conf = last_confirmation(&po, CLOVIS);
    assert!(conf.contains("have been played"), "{conf}");
    assert!(
        conf.contains("attack legionaries-4 with salian-4a, salian-4b, fire archers"),
        "{conf}"
    );
    let attacks = body_text(&reps[3]);
    assert!(
        attacks.contains("Turn 1, franks, attacks: report"),
        "{attacks}"
    );
    assert!(
        attacks.contains("Turn 1: combat of the franks"),
        "{attacks}"
    );
    assert!(!attacks.contains("movement of the franks"), "{attacks}");
    // The Gallo-Romans miss both exchanges of their turn.
    let mut now = t0() + Duration::days(12);
    for label in [
        "turn 1, gallo-romans, moves",
        "turn 1, gallo-romans, attacks",
    ] {
        assert_eq!(po.tick(now).unwrap(), 1);
        let r = body_text(reports(&po).last().unwrap());
        assert!(
            r.contains(&format!(
                "{}: report",
                umpire::report::capitalize_first(label)
            )),
            "{r}"
        );
        assert!(r.contains("gallo-romans sent no orders"), "{r}");
        now += Duration::days(2);
    }
    for round in 1..=6 {
        let (text, ok) = umpire::post::verify_turn(&mut po, "soissons", round).unwrap();
        assert!(ok, "round {round}: {text}");
    }
}

/// `ask_owner`: a retreat the Gallo-Romans' standing orders do not settle
/// stops the Franks' turn; the question is a round of the Gallo-Romans',
/// reported to both; the answer is played with the dice already shown.
#[test]
fn ask_owner_by_mail_the_question_is_a_round_of_the_other_player() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = soissons_set_up(dir.path(), "ask_owner = true", "DICE TURN 3 combat:1=4");
    const F: &str = "GAME soissons SIDE franks PASSWORD clovis1";
    const G: &str = "GAME soissons SIDE gallo-romans PASSWORD syag2";
    po.accept(&mail(CLOVIS, "t1@f", &format!("{F}\nREADY\nsalian-4a: move 0706 0606\nClovis: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move 0807 0708\nattack legionaries-4 with salian-4a, salian-4b, fire archers; no advance\nEND\n")), "test", t0()).unwrap();
    let reps = reports(&po);
    assert_eq!(reps.len(), 3);
    let asked = body_text(&reps[2]);
    for part in [
        "die 4, no die modifier — 4: DR.",
        "A question for the gallo-romans",
        "Legionaries (legionaries-4) must retreat from 0507, and 0406, 0407 are equally good",
        "retreat legionaries-4 0406",
        "Orders for turn 1, franks: the gallo-romans' answer are due",
    ] {
        assert!(asked.contains(part), "{part}: {asked}");
    }
    assert!(!asked.contains("retreats"), "{asked}");
    // The Franks cannot write in the Gallo-Romans' answer round.
    po.accept(
        &mail(
            CLOVIS,
            "t2@f",
            &format!(
                "{F}
salian-4a: move 0506
END
"
            ),
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(reports(&po).len(), 3);
    // The answer is confirmed as such and plays the rest of the turn.
    po.accept(
        &mail(
            SYAGRIUS,
            "a1@g",
            &format!("{G} TURN 4\nREADY\nretreat legionaries-4 0407\nEND\n"),
        ),
        "test",
        t0(),
    )
    .unwrap();
    let conf = last_confirmation(&po, SYAGRIUS);
    assert!(
        conf.contains("The question of turn 1, franks: the gallo-romans' answer: Legionaries (legionaries-4) retreats to 0407."),
        "{conf}"
    );
    let reps = reports(&po);
    assert_eq!(reps.len(), 4, "{conf}");
    let played = body_text(&reps[3]);
    assert!(
        played.contains("Turn 1, franks: the gallo-romans' answer: report"),
        "{played}"
    );
    assert!(played.contains("0507 → 0407"), "{played}");
    assert!(!played.contains("Combat 1 on"), "told once: {played}");
    assert!(
        played.contains("next: the player-turn of the gallo-romans"),
        "{played}"
    );
    for round in 1..=4 {
        let (text, ok) = umpire::post::verify_turn(&mut po, "soissons", round).unwrap();
        assert!(ok, "round {round}: {text}");
    }
}
