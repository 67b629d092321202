//! Rounds of several games falling due in one batch of mail are worked out
//! together on every core (`post::ahead`), and what they give is what
//! playing them one by one gives: each played once, every report's bundle
//! replaying from its seed. A message for a game whose round it follows is
//! read only after that round is played.

use crate::common::{self, CONAN, TARASCUS};
use umpire::post::{gamefile::GameFile, ingest_maildir, PostOffice};

/// `n` games of the ford, `ford1` … `fordn`, the same players in each.
fn office_with_games(dir: &std::path::Path, n: usize) -> PostOffice {
    office_with_games_in_chunks(dir, n, common::config(dir).batch)
}

/// [`office_with_games`], messages handled `batch` to a chunk.
fn office_with_games_in_chunks(dir: &std::path::Path, n: usize, batch: usize) -> PostOffice {
    let mut config = common::config(dir);
    config.batch = batch;
    let mut po = PostOffice::open(config).unwrap();
    let text = std::fs::read_to_string(common::game_file(dir)).unwrap();
    for g in 1..=n {
        let path = dir.join(format!("ford{g}.toml"));
        std::fs::write(
            &path,
            text.replace("id = \"ford\"", &format!("id = \"ford{g}\"")),
        )
        .unwrap();
        po.create_game(&GameFile::load(&path).unwrap(), common::t0())
            .unwrap();
    }
    po
}

/// A Maildir in `dir` holding these mails, delivered in this order.
fn maildir(dir: &std::path::Path, mails: &[Vec<u8>]) -> std::path::PathBuf {
    let inbox = dir.join("in");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    for (i, raw) in mails.iter().enumerate() {
        std::fs::write(inbox.join(format!("new/{i:04}.m")), raw).unwrap();
    }
    inbox
}

fn aquilonia(game: &str) -> String {
    format!("GAME {game} SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nBossonian Archers: phase 1 move 4\nEND\n")
}

fn nemedia(game: &str) -> String {
    format!("GAME {game} SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 move 4\nEND\n")
}

#[test]
fn rounds_due_in_one_batch_are_played_once_each_and_replay_from_their_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_games(dir.path(), 4);
    // Every game's first side, then every game's second: the four rounds
    // fall due in one batch.
    let mut mails = Vec::new();
    for g in 1..=4 {
        mails.push(common::mail(
            CONAN,
            &format!("a{g}@x"),
            &aquilonia(&format!("ford{g}")),
        ));
    }
    for g in 1..=4 {
        mails.push(common::mail(
            TARASCUS,
            &format!("n{g}@x"),
            &nemedia(&format!("ford{g}")),
        ));
    }
    let inbox = maildir(dir.path(), &mails);
    assert_eq!(ingest_maildir(&mut po, &inbox, common::t0()).unwrap(), 8);
    let store = po.store();
    assert_eq!(
        store
            .count("rounds", "round = 1 AND adjudicated_at IS NOT NULL")
            .unwrap(),
        4,
        "every game's first turn played"
    );
    assert_eq!(
        store
            .count("rounds", "round = 2 AND adjudicated_at IS NULL")
            .unwrap(),
        4,
        "and its second opened, once"
    );
    assert_eq!(store.count("outbox", "kind = 'report'").unwrap(), 12);
    // Each report is the round as a player replays it from the bundle.
    assert_eq!(common::every_bundle_verifies(&po, CONAN), 4);
    assert_eq!(common::every_bundle_verifies(&po, TARASCUS), 4);
}

#[test]
fn a_message_after_the_one_that_completes_a_round_is_read_after_the_round() {
    read_after_the_round(64);
}

/// The rounds a chunk of messages makes due are still played before a
/// message of a later chunk for their games is read (the chunks are for
/// the DKIM look-ups; a round may stay due from one to the next).
#[test]
fn a_round_due_in_one_chunk_is_played_before_a_later_chunk_reads_its_game() {
    for batch in [1, 2, 3] {
        read_after_the_round(batch);
    }
}

fn read_after_the_round(batch: usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_games_in_chunks(dir.path(), 2, batch);
    // ford2's round falls due with the second mail; ford1's with the
    // third; the fourth (no TURN) comes after ford1's round is complete,
    // so it is Aquilonia's orders for ford1's turn 2, not a change of turn 1.
    let later = "GAME ford1 SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 1\nEND\n";
    let mails = vec![
        common::mail(CONAN, "a1@x", &aquilonia("ford1")),
        common::mail(CONAN, "a2@x", &aquilonia("ford2")),
        common::mail(TARASCUS, "n2@x", &nemedia("ford2")),
        common::mail(TARASCUS, "n1@x", &nemedia("ford1")),
        common::mail(CONAN, "later@x", later),
    ];
    let inbox = maildir(dir.path(), &mails);
    assert_eq!(ingest_maildir(&mut po, &inbox, common::t0()).unwrap(), 5);
    let store = po.store();
    assert_eq!(
        store
            .count("rounds", "round = 1 AND adjudicated_at IS NOT NULL")
            .unwrap(),
        2
    );
    assert_eq!(
        store
            .count(
                "submissions s JOIN messages m ON m.id = s.message",
                "s.game_id = 'ford1' AND s.round = 2 AND s.side = 'aquilonia' AND m.message_id LIKE '%later@x%'"
            )
            .unwrap(),
        1,
        "the later mail is read for turn 2 (chunks of {batch})"
    );
}

/// The pool the rounds are worked out on yields the cores to the writer:
/// its threads run at a lower priority (a higher `nice`) than the thread
/// that handles the mail. With the same priority they took turns with the
/// writer, which every message and round waits for (issue 24: at 10,000
/// games, reading and playing a deadline took 82 s so and 67 s with it).
#[test]
fn the_pool_yields_the_cores_to_the_writer() {
    /// This thread's `nice` (Linux's `/proc/thread-self/stat`, its 19th
    /// field); `None` elsewhere.
    fn nice() -> Option<i32> {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        let fields = stat.rsplit_once(')')?.1;
        fields.split_whitespace().nth(16)?.parse().ok()
    }
    let Some(writer) = nice() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut po = office_with_games(dir.path(), 1);
    po.tick(common::t0()).unwrap();
    let (send, got) = std::sync::mpsc::channel();
    rayon::spawn(move || send.send(nice()).unwrap());
    let pool = got.recv().unwrap().unwrap();
    assert!(
        pool > writer,
        "the pool at nice {pool}, the writer at {writer}"
    );
    assert_eq!(nice(), Some(writer), "the writer's own priority unchanged");
}
