//! Furor Barbarus under `kill -9` and spoofing, as the Hyborean Age is in
//! crash_safety.rs and post_hostile.rs: Soissons created with the real
//! binary on a real SQLite file, its set-up rounds and player-turns ingested
//! and sent with the process killed at random moments, then restarted; and
//! spoofs (another player's password, a stranger with the right password,
//! orders naming the other army's counters). Nothing may be lost or sent
//! twice, and no order may be taken for the wrong side.

use crate::common;
use common::*;
use rand::SeedableRng;
use std::path::Path;
use umpire::post::{gamefile::GameFile, PostOffice};

/// The set-up mails, one round each, then mails that stand in any
/// player-turn (standing reactions), with a wrong password among them. A
/// batch is delivered only after the one before was played, as a player
/// writes after the report: mails ingested together are judged against
/// the same round.
fn batches() -> Vec<Vec<Vec<u8>>> {
    let franks = "GAME soissons SIDE franks PASSWORD clovis1\n";
    let romans = "GAME soissons SIDE gallo-romans PASSWORD syag2\n";
    let spy = |i: usize| {
        mail(
            "spy@alamanni.example",
            &format!("spy{i}@a"),
            "GAME soissons SIDE franks PASSWORD guess\nretreat salian-4a 0706\nEND\n",
        )
    };
    let play = (0..10)
        .map(|i| match i % 5 {
            4 => spy(i),
            k if k % 2 == 0 => mail(
                CLOVIS,
                &format!("f{i}@f"),
                &format!("{franks}retreat salian-4a 0706 0705\nEND\n"),
            ),
            _ => mail(
                SYAGRIUS,
                &format!("g{i}@s"),
                &format!("{romans}retreat palatina 0409\nEND\n"),
            ),
        })
        .collect();
    vec![
        vec![
            mail(
                SYAGRIUS,
                "s0@s",
                &format!("{romans}place gr-archers-a in 0410\nEND\n"),
            ),
            spy(100),
        ],
        vec![mail(
            CLOVIS,
            "s1@f",
            &format!("{franks}place light-1 in 0814\nEND\n"),
        )],
        play,
    ]
}

#[test]
fn kill_9_during_ingest_adjudication_and_sending_of_soissons_loses_and_duplicates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("umpire.toml"),
        "database = \"umpire.sqlite\"\naddress = \"umpire@club.example\"\n[spool]\noutbox = \"outbox\"\ninbox = \"inbox\"\n",
    )
    .unwrap();
    // Deadlines far ahead: only rounds whose writers are in are played.
    let gf = soissons_file(d);
    let text = std::fs::read_to_string(&gf)
        .unwrap()
        .replace("2026-12-03 20:00", "2099-01-01 00:00");
    std::fs::write(&gf, text).unwrap();
    assert!(umpire_in(d)
        .args(["game", "new"])
        .arg(&gf)
        .status()
        .unwrap()
        .success());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    std::fs::create_dir_all(d.join("inbox/new")).unwrap();
    let (mut kills, mut sends, mut n) = (0, 0, 0);
    for batch in batches() {
        for m in batch {
            std::fs::write(d.join(format!("inbox/new/{n:05}.m")), m).unwrap();
            n += 1;
        }
        kills += killed_repeatedly(
            d,
            &["ingest", "--maildir", d.join("inbox").to_str().unwrap()],
            &mut rng,
            20,
        );
        sends += killed_repeatedly(d, &["send"], &mut rng, 20);
    }
    eprintln!("ingest killed {kills} times, send killed {sends} times");

    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages"),
        13,
        "every message stored once"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages WHERE state = 'new'"),
        0,
        "every message handled"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages WHERE state = 'refused'"),
        3
    );
    assert_eq!(count_in(d, "SELECT COUNT(*) FROM submissions"), 10);
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'confirmation'"),
        10,
        "each accepted mail answered once"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'refusal'"),
        3
    );
    // Both set-ups and at least one player-turn, each played once and
    // reported once to each of the three addresses, in an unbroken run.
    let played = count_in(
        d,
        "SELECT COUNT(*) FROM rounds WHERE adjudicated_at IS NOT NULL",
    );
    assert!(played >= 3, "{played} rounds played");
    assert_eq!(
        count_in(
            d,
            "SELECT COUNT(DISTINCT round) FROM rounds WHERE adjudicated_at IS NOT NULL"
        ),
        played
    );
    assert_eq!(
        count_in(d, "SELECT round FROM games WHERE id = 'soissons'"),
        played + 1
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'report'"),
        played * 3
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        0
    );
    let files = std::fs::read_dir(d.join("outbox"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "eml")
        })
        .count() as i64;
    assert_eq!(
        files,
        count_in(d, "SELECT COUNT(*) FROM outbox"),
        "one spool file per outbox message"
    );
}

fn office(dir: &Path) -> PostOffice {
    let mut po = PostOffice::open(config(dir)).unwrap();
    po.create_game(&GameFile::load(&soissons_file(dir)).unwrap(), t0())
        .unwrap();
    po
}

fn count(po: &PostOffice, table: &str, cond: &str) -> i64 {
    po.store().count(table, cond).unwrap()
}

/// The text of the last mail to `to`.
fn last_to(po: &PostOffice, to: &str) -> String {
    body_text(
        &outbox(po)
            .iter()
            .rev()
            .find(|(_, r, _)| r == to)
            .expect("a mail")
            .2,
    )
}

#[test]
fn spoofs_take_no_order_for_the_wrong_side() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office(dir.path());
    let to_stranger = |po: &PostOffice| {
        outbox(po)
            .iter()
            .filter(|(_, to, _)| to.contains("evil.example"))
            .count()
    };
    // Clovis with Syagrius's password for his own side: refused.
    po.accept(
        &mail(
            CLOVIS,
            "p1@f",
            "GAME soissons SIDE franks PASSWORD syag2\nplace light-1 in 0814\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    // A stranger with the Gallo-Romans' right password: nothing taken, the player warned.
    po.accept(
        &mail(
            "evil@evil.example",
            "p2@e",
            "GAME soissons SIDE gallo-romans PASSWORD syag2\nplace palatina in 0509\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(to_stranger(&po), 0, "the stranger hears nothing");
    assert!(
        last_to(&po, SYAGRIUS).contains("evil@evil.example"),
        "the player learns who has his password"
    );
    // Clovis with the Gallo-Romans' side and password: not his address, nothing taken.
    po.accept(
        &mail(
            CLOVIS,
            "p3@f",
            "GAME soissons SIDE gallo-romans PASSWORD syag2\nplace legionaries-4 in 0508\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(
        count(&po, "submissions", "1"),
        0,
        "no spoofed mail was taken"
    );
    assert_eq!(
        count(&po, "rounds", "adjudicated_at IS NOT NULL"),
        0,
        "nothing was played"
    );

    // The Gallo-Romans placing a Frankish counter: the line is refused.
    po.accept(
        &mail(
            SYAGRIUS,
            "o1@s",
            "GAME soissons SIDE gallo-romans PASSWORD syag2\nplace salian-4a in 0406\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert!(
        last_to(&po, SYAGRIUS).contains("Salian Franks (salian-4a) is not one of your counters"),
        "{}",
        last_to(&po, SYAGRIUS)
    );
    po.accept(
        &mail(
            SYAGRIUS,
            "o2@s",
            "GAME soissons SIDE gallo-romans PASSWORD syag2\nREADY\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    po.accept(
        &mail(
            CLOVIS,
            "o3@f",
            "GAME soissons SIDE franks PASSWORD clovis1\nREADY\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(
        count(&po, "rounds", "adjudicated_at IS NOT NULL"),
        2,
        "both set-ups played"
    );
    // In the Franks' turn: orders for Gallo-Roman counters are refused and
    // stand for no one; the Franks' own move is taken.
    po.accept(&mail(CLOVIS, "o4@f", "GAME soissons SIDE franks PASSWORD clovis1\nsyagrius: move 0607\nretreat palatina 0409\nsalian-4a: move 0706\nEND\n"), "test", t0()).unwrap();
    let conf = last_to(&po, CLOVIS);
    assert!(
        conf.contains("Syagrius (syagrius) is not one of your units"),
        "{conf}"
    );
    assert!(
        conf.contains("Palatina (palatina) is not one of your units"),
        "{conf}"
    );
    assert_eq!(
        count(
            &po,
            "submissions",
            "side = 'franks' AND (checked LIKE '%syagrius%' OR checked LIKE '%palatina%')"
        ),
        0,
        "nothing of theirs is in the Franks' orders"
    );
    po.accept(
        &mail(
            CLOVIS,
            "o5@f",
            "GAME soissons SIDE franks PASSWORD clovis1\nsalian-4a: move 0706\nEND\n",
        ),
        "test",
        t0(),
    )
    .unwrap();
    assert_eq!(
        count(&po, "rounds", "adjudicated_at IS NOT NULL"),
        3,
        "the Franks' turn 1 played"
    );
    let c = rusqlite::Connection::open(dir.path().join("umpire.sqlite")).unwrap();
    let state: String = c
        .query_row("SELECT state FROM games WHERE id = 'soissons'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    assert_eq!(
        state["board"]["units"]["syagrius"]["hex"], "0508",
        "Syagrius did not move"
    );
    assert_eq!(state["board"]["units"]["salian-4a"]["hex"], "0706");
}
