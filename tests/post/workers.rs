//! Several workers on one store (issue 24): each a post office of its own
//! (its own connection), all handling, ticking and sending at once, as
//! `umpire run` processes on several machines would. Nothing may be lost,
//! nothing handled twice, no round played twice, no mail sent twice.
//!
//! The size on PostgreSQL: 3 workers, 2,000 order messages (100
//! games, 2 sides, 10 rounds; each round's mail stored at once, then the
//! workers let loose on it). The SQLite variant runs 2 workers on a file.

use crate::common;
use chrono::{DateTime, Utc};
use common::*;
use std::collections::BTreeMap;
use std::path::Path;
use umpire::config::Config;
use umpire::post::{gamefile::GameFile, PostOffice};

/// Game `id` on the river-crossing scenario, deadlines far ahead (only
/// complete rounds are played) and enough turns that no battle ends.
fn create_games(po: &mut PostOffice, dir: &Path, games: usize) {
    for path in game_files(dir, games) {
        po.create_game(&GameFile::load(&path).unwrap(), t0())
            .unwrap();
    }
}

/// The files of games `g0` to `g{games - 1}` for [`create_games`].
fn game_files(dir: &Path, games: usize) -> Vec<std::path::PathBuf> {
    let text = std::fs::read_to_string(game_file(dir))
        .unwrap()
        .replace("2026-12-03 20:00", "2099-01-01 00:00")
        .replace("turn_hours = 48", "turn_hours = 48\nmax_turns = 100");
    (0..games)
        .map(|g| {
            let path = dir.join(format!("g{g}.toml"));
            std::fs::write(
                &path,
                text.replace("id = \"ford\"", &format!("id = \"g{g}\"")),
            )
            .unwrap();
            path
        })
        .collect()
}

/// Round `round`'s orders of every side of every game.
fn orders(games: usize, round: usize) -> Vec<Vec<u8>> {
    (0..games)
        .flat_map(|g| {
            [
                mail(
                    CONAN,
                    &format!("g{g}r{round}a@aquilonia.example"),
                    &format!("GAME g{g} SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 hold\nEND\n"),
                ),
                mail(
                    TARASCUS,
                    &format!("g{g}r{round}n@nemedia.example"),
                    &format!("GAME g{g} SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 hold\nEND\n"),
                ),
            ]
        })
        .collect()
}

/// What one worker did.
#[derive(Default, Debug)]
struct Done {
    handled: usize,
    sent: usize,
}

/// One worker: handle, tick and send until no message is left `new` and
/// every game has played `rounds` rounds.
fn worker(config: Config, games: usize, rounds: usize, now: DateTime<Utc>) -> Done {
    let mut po = PostOffice::open(config).unwrap();
    let mut done = Done::default();
    let want = (games * rounds) as i64;
    for _ in 0..10_000 {
        done.handled += po.process_pending(now).unwrap();
        done.sent += po.send(now).unwrap().sent;
        let left = po.store().count("messages", "state = 'new'").unwrap();
        let played = po
            .store()
            .count("rounds", "adjudicated_at IS NOT NULL")
            .unwrap();
        if left == 0 && played == want {
            done.sent += po.send(now).unwrap().sent;
            return done;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("a worker gave up: messages still new or rounds unplayed after 10,000 passes");
}

/// `workers` workers on the store `config` names, `games` games, `rounds`
/// rounds of orders: every message handled once, every round played once,
/// every mail sent once.
fn run(config: Config, dir: &Path, workers: usize, games: usize, rounds: usize) {
    let mut po = PostOffice::open(config.clone()).unwrap();
    create_games(&mut po, dir, games);
    let now = t0();
    let mut handled = 0;
    let mut sent = 0;
    let started = std::time::Instant::now();
    for round in 1..=rounds {
        for raw in orders(games, round) {
            assert!(po.store_message(&raw, "test", None, now).unwrap().fresh);
        }
        let done: Vec<Done> = std::thread::scope(|s| {
            let all: Vec<_> = (0..workers)
                .map(|_| {
                    let config = config.clone();
                    s.spawn(move || worker(config, games, round, now))
                })
                .collect();
            all.into_iter().map(|w| w.join().unwrap()).collect()
        });
        eprintln!("round {round}: {done:?}");
        handled += done.iter().map(|d| d.handled).sum::<usize>();
        sent += done.iter().map(|d| d.sent).sum::<usize>();
    }
    let messages = (games * 2 * rounds) as i64;
    eprintln!(
        "{workers} workers, {messages} messages, {} rounds: {:.1} s",
        games * rounds,
        started.elapsed().as_secs_f64()
    );
    let doctor = po.doctor().unwrap();
    let store = po.store();
    let count = |table: &str, condition: &str| store.count(table, condition).unwrap();
    assert_eq!(count("messages", "state = 'failed'"), 0, "{doctor}");
    assert_eq!(
        handled as i64, messages,
        "each message handled by one worker, once"
    );
    assert_eq!(count("messages", "1 = 1"), messages);
    assert_eq!(
        count("messages", "state = 'done'"),
        messages,
        "none lost, none failed"
    );
    assert_eq!(
        count("submissions", "1 = 1"),
        messages,
        "one submission a message"
    );
    assert_eq!(
        count("outbox", "kind = 'confirmation'"),
        messages,
        "one confirmation a message"
    );
    assert_eq!(
        count("rounds", "adjudicated_at IS NOT NULL"),
        (games * rounds) as i64
    );
    each_round_played_once(store, games * rounds);
    assert_eq!(
        count("games", &format!("round = {}", rounds + 1)),
        games as i64
    );
    // Every mail sent once: the workers' deliveries are the outbox's rows
    // (a row delivered twice would count twice), all of them sent.
    assert_eq!(count("outbox", "sent_at IS NULL"), 0);
    assert_eq!(
        sent as i64,
        count("outbox", "1 = 1"),
        "each mail delivered once"
    );
}

/// Every round played once: one "adjudicated" line a round in each
/// game's log, `rounds` of them in all.
fn each_round_played_once(store: &umpire::store::Store, rounds: usize) {
    let mut plays: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (g, text) in store
        .conn()
        .prepare("SELECT game_id, text FROM log WHERE text LIKE '% adjudicated' ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(Result::unwrap)
    {
        *plays.entry((g, text)).or_default() += 1;
    }
    assert_eq!(plays.len(), rounds, "{plays:?}");
    assert!(
        plays.values().all(|&n| n == 1),
        "a round played twice: {plays:?}"
    );
}

fn config_for(dir: &Path, database: &str) -> Config {
    let mut c = config(dir);
    c.database = database.into();
    c
}

#[test]
#[ignore = "needs a PostgreSQL server: run scripts/test (it starts one and sets UMPIRE_TEST_POSTGRES)"]
fn three_workers_on_one_postgres_lose_nothing_and_double_nothing() {
    let url = umpire::store::testing::fresh_postgres()
        .expect("UMPIRE_TEST_POSTGRES names no server: scripts/test starts one");
    let dir = tempfile::tempdir().unwrap();
    run(config_for(dir.path(), &url), dir.path(), 3, 100, 10);
}

/// Two moderators creating games at once on one PostgreSQL store (issue
/// 43): each creation is serializable (it reads that no game of its name
/// exists), and the two refuse each other over the pages they both read
/// and write; `PostOffice::create_game` tries a refused creation again,
/// so every game is made, once, with its welcomes.
#[test]
#[ignore = "needs a PostgreSQL server: run scripts/test (it starts one and sets UMPIRE_TEST_POSTGRES)"]
fn two_moderators_creating_games_at_once_on_postgres_both_succeed() {
    let url = umpire::store::testing::fresh_postgres()
        .expect("UMPIRE_TEST_POSTGRES names no server: scripts/test starts one");
    let dir = tempfile::tempdir().unwrap();
    let config = config_for(dir.path(), &url);
    drop(PostOffice::open(config.clone()).unwrap());
    let files = game_files(dir.path(), 16);
    std::thread::scope(|s| {
        for half in files.chunks(8) {
            let config = config.clone();
            s.spawn(move || {
                let mut po = PostOffice::open(config).unwrap();
                for path in half {
                    let file = GameFile::load(path).unwrap();
                    po.create_game(&file, t0())
                        .unwrap_or_else(|e| panic!("{}: {e}", file.id));
                }
            });
        }
    });
    let po = PostOffice::open(config).unwrap();
    let mut games = umpire::store::games::ids(po.store().conn()).unwrap();
    let mut wanted: Vec<String> = (0..16).map(|g| format!("g{g}")).collect();
    games.sort();
    wanted.sort();
    assert_eq!(games, wanted);
    let welcomes = outbox(&po);
    for g in &wanted {
        let subject = format!("Subject: [{g}] ");
        let mine = welcomes.iter().filter(|(_, _, raw)| raw.contains(&subject));
        assert_eq!(
            mine.count(),
            3,
            "{g}: two sides' welcomes and the moderator's"
        );
    }
}

/// Two workers, one pass each, let loose together on both sides' orders
/// of every game (issue 43): a handling is guarded by its message's row
/// and its game's (`READ COMMITTED`, `store::games::load_locked`), not by
/// serializability, so the worker that handles a game's second side waits
/// for the first side's handling to commit and then reads it, and a
/// worker's round waits for the other's on the same game and then finds
/// it played: every round is played in that pass (by the handling or the
/// tick after it), once, and every mail is delivered once. (With the
/// games' rows unlocked, both workers' ticks find a round due and play it.)
#[test]
#[ignore = "needs a PostgreSQL server: run scripts/test (it starts one and sets UMPIRE_TEST_POSTGRES)"]
fn two_workers_handling_a_games_two_sides_at_once_play_its_round_once() {
    let url = umpire::store::testing::fresh_postgres()
        .expect("UMPIRE_TEST_POSTGRES names no server: scripts/test starts one");
    let dir = tempfile::tempdir().unwrap();
    let config = config_for(dir.path(), &url);
    let games = 40;
    let mut po = PostOffice::open(config.clone()).unwrap();
    create_games(&mut po, dir.path(), games);
    po.send(t0()).unwrap();
    for raw in orders(games, 1) {
        assert!(po.store_message(&raw, "test", None, t0()).unwrap().fresh);
    }
    let start = std::sync::Barrier::new(2);
    let done: Vec<Done> = std::thread::scope(|s| {
        let all: Vec<_> = (0..2)
            .map(|_| {
                let (config, start) = (config.clone(), &start);
                s.spawn(move || {
                    let mut po = PostOffice::open(config).unwrap();
                    start.wait();
                    let handled = po.process_pending(t0()).unwrap();
                    start.wait();
                    let sent = po.send(t0()).unwrap().sent;
                    Done { handled, sent }
                })
            })
            .collect();
        all.into_iter().map(|w| w.join().unwrap()).collect()
    });
    eprintln!("{done:?}");
    let store = po.store();
    let count = |table: &str, condition: &str| store.count(table, condition).unwrap();
    let messages = 2 * games as i64;
    assert_eq!(
        done.iter().map(|d| d.handled).sum::<usize>() as i64,
        messages,
        "each message handled by one worker, once"
    );
    assert_eq!(count("messages", "state = 'done'"), messages);
    assert_eq!(count("submissions", "1 = 1"), messages);
    assert_eq!(
        count("rounds", "adjudicated_at IS NOT NULL"),
        games as i64,
        "every round played in the one pass"
    );
    each_round_played_once(store, games);
    assert_eq!(count("outbox", "sent_at IS NULL"), 0);
    assert_eq!(
        done.iter().map(|d| d.sent).sum::<usize>() as i64,
        count("outbox", "sent_at IS NOT NULL AND kind <> 'welcome'"),
        "each mail delivered once"
    );
}

/// Mail whose handling reaches beyond its game's lock — a moderator's
/// (his commands may touch a league or a campaign), a mail without a
/// header (for any game of its sender) — is begun in a locking
/// transaction, taken back and handled in a serializable one
/// (`Transaction::needs_serializable`); a refusal, counted per address
/// over every game, holds its address (`outbox::hold_refusals_to`) and
/// stays in the locking one. Each handled once, answered once.
#[test]
#[ignore = "needs a PostgreSQL server: run scripts/test (it starts one and sets UMPIRE_TEST_POSTGRES)"]
fn mail_beyond_its_games_lock_is_handled_in_a_serializable_transaction() {
    let url = umpire::store::testing::fresh_postgres()
        .expect("UMPIRE_TEST_POSTGRES names no server: scripts/test starts one");
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config_for(dir.path(), &url)).unwrap();
    create_games(&mut po, dir.path(), 1);
    let mails = [
        mail(
            MODERATOR,
            "m1@club.example",
            "GAME g0 MODERATOR PASSWORD modpw\nSTATUS\nEND\n",
        ),
        mail(
            CONAN,
            "w1@aquilonia.example",
            "GAME g0 SIDE aquilonia PASSWORD wrong\nBlack Dragons: phase 1 hold\nEND\n",
        ),
        mail(CONAN, "h1@aquilonia.example", "HELP\n"),
        mail(
            TARASCUS,
            "o1@nemedia.example",
            "GAME g0 SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 hold\nEND\n",
        ),
    ];
    for raw in &mails {
        po.store_message(raw, "test", None, t0()).unwrap();
    }
    assert_eq!(po.process_pending(t0()).unwrap(), 4);
    let store = po.store();
    let state = |key: &str| -> String {
        store
            .conn()
            .query_row(
                "SELECT state FROM messages WHERE message_id = ?1",
                [key],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(state("m1@club.example"), "done");
    assert_eq!(state("w1@aquilonia.example"), "refused");
    assert_eq!(state("h1@aquilonia.example"), "done");
    assert_eq!(state("o1@nemedia.example"), "done");
    assert_eq!(store.count("outbox", "kind = 'refusal'").unwrap(), 1);
    assert_eq!(store.count("outbox", "kind = 'confirmation'").unwrap(), 1);
    assert_eq!(store.count("outbox", "kind = 'reply'").unwrap(), 2);
}

#[test]
fn two_workers_on_one_sqlite_file_lose_nothing_and_double_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("umpire.sqlite");
    run(
        config_for(dir.path(), &file.to_string_lossy()),
        dir.path(),
        2,
        10,
        3,
    );
}

/// `umpire ingest` killed with -9 at random moments, again and again, on
/// a PostgreSQL store, then `umpire send` the same: a message whose
/// handling was under way when its worker died is `new` again (the server
/// ended the transaction that held it), so every message is handled once
/// and every mail sent once.
#[test]
#[ignore = "needs a PostgreSQL server: run scripts/test (it starts one and sets UMPIRE_TEST_POSTGRES)"]
fn workers_killed_with_9_on_postgres_lose_nothing() {
    use rand::SeedableRng;
    let url = umpire::store::testing::fresh_postgres()
        .expect("UMPIRE_TEST_POSTGRES names no server: scripts/test starts one");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("umpire.toml"),
        format!("database = \"{url}\"\naddress = \"{UMPIRE}\"\n[spool]\noutbox = \"outbox\"\ninbox = \"inbox\"\n"),
    )
    .unwrap();
    let text = std::fs::read_to_string(game_file(d))
        .unwrap()
        .replace("2026-12-03 20:00", "2099-01-01 00:00")
        .replace("turn_hours = 48", "turn_hours = 48\nmax_turns = 100");
    std::fs::write(d.join("game.toml"), text).unwrap();
    assert!(umpire_in(d)
        .args(["game", "new"])
        .arg(d.join("game.toml"))
        .status()
        .unwrap()
        .success());
    std::fs::create_dir_all(d.join("inbox/new")).unwrap();
    let n = 60;
    for (i, raw) in orders(1, 0).iter().cycle().take(n).enumerate() {
        // Each its own message: a Message-ID of its own.
        let raw = String::from_utf8_lossy(raw).replace("g0r0", &format!("k{i}-"));
        let raw = raw.replace("GAME g0 ", "GAME ford ");
        std::fs::write(d.join(format!("inbox/new/{i:05}.m")), raw).unwrap();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(24);
    let inbox = d.join("inbox");
    let kills = killed_repeatedly(
        d,
        &["ingest", "--maildir", inbox.to_str().unwrap()],
        &mut rng,
        5,
    );
    let sends = killed_repeatedly(d, &["send"], &mut rng, 5);
    eprintln!("ingest killed {kills} times, send killed {sends} times");
    let store = umpire::store::Store::open(Path::new(&url)).unwrap();
    let count = |table: &str, condition: &str| store.count(table, condition).unwrap();
    assert_eq!(
        count("messages", "1 = 1"),
        n as i64,
        "every message stored once"
    );
    assert_eq!(
        count("messages", "state = 'done'"),
        n as i64,
        "every one handled"
    );
    assert_eq!(count("submissions", "1 = 1"), n as i64, "none twice");
    assert_eq!(count("outbox", "kind = 'confirmation'"), n as i64);
    let played = count("rounds", "adjudicated_at IS NOT NULL");
    assert!(played >= 1);
    assert_eq!(count("outbox", "kind = 'report'"), played * 3);
    assert_eq!(count("outbox", "sent_at IS NULL"), 0, "everything sent");
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
    assert_eq!(files, count("outbox", "1 = 1"), "one spool file a mail");
}

/// The server ends a worker's connection (restarted, or an administrator's
/// `pg_terminate_backend`): the service logs it, connects again, and mail
/// that comes in afterwards is handled — the worker never stops.
#[test]
#[ignore = "needs a PostgreSQL server: run scripts/test (it starts one and sets UMPIRE_TEST_POSTGRES)"]
fn a_worker_connects_again_when_postgres_ends_its_connection() {
    let url = umpire::store::testing::fresh_postgres()
        .expect("UMPIRE_TEST_POSTGRES names no server: scripts/test starts one");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut config = config_for(d, &url);
    config.poll_seconds = 1;
    config.spool.inbox = d.join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(d.join("inbox").join(sub)).unwrap();
    }
    let mut po = PostOffice::open(config).unwrap();
    create_games(&mut po, d, 1);
    let pid: i64 = po
        .store()
        .conn()
        .query_row("SELECT CAST(pg_backend_pid() AS BIGINT)", [], |r| r.get(0))
        .unwrap();
    let admin = umpire::store::Store::open(Path::new(&url)).unwrap();
    admin
        .conn()
        .execute_batch(&format!("SELECT pg_terminate_backend({pid})"))
        .unwrap();
    for (i, raw) in orders(1, 1).iter().enumerate() {
        std::fs::write(d.join(format!("inbox/new/{i}.m")), raw).unwrap();
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    let handled = std::thread::scope(|s| {
        let worker = s.spawn(|| umpire::post::serve(&mut po, &stop, false, t0));
        let started = std::time::Instant::now();
        let mut handled = 0;
        while started.elapsed() < std::time::Duration::from_secs(60) {
            handled = admin.count("messages", "state = 'done'").unwrap();
            if handled == 2 || worker.is_finished() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        worker
            .join()
            .unwrap()
            .expect("the service went on after losing its connection");
        handled
    });
    assert_eq!(handled, 2, "the mail after the cut was handled");
    assert_eq!(
        admin.count("rounds", "adjudicated_at IS NOT NULL").unwrap(),
        1
    );
}
