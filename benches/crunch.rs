//! The deadline crunch (issue 24): many games whose orders all come in at
//! once. N games of the ford (`campaigns/scenarios/river-crossing.toml`),
//! both sides' order mails for each (2N mails) in a Maildir, then, timed:
//! every mail stored, read, checked and confirmed; every turn played when
//! its second side is in (N turns: the engine, the picture rasterised once
//! a turn, three reports a turn into the outbox); the outbox flushed to the
//! spool (4N mails: 2N confirmations, 3N reports… as `.eml` files).
//!
//! `cargo bench --bench crunch` (N = 10,000; `CRUNCH_GAMES=500` for a
//! quick look; `CRUNCH_WORKERS=2` runs that many worker threads, each with
//! its own post office on the one store, as `umpire run` processes would;
//! `CRUNCH_STORE=postgres` runs it on PostgreSQL, see [`database`];
//! `CRUNCH_STORE=both` runs SQLite with one worker and PostgreSQL with
//! `CRUNCH_WORKERS` (default 2) on the same games side by side, each turn
//! on one store then the other, and prints PostgreSQL/SQLite). The
//! outbox is sent alongside by a post boy, as `umpire run` sends it, and
//! the crunch ends when the last mail is out; `CRUNCH_SEND=after` sends
//! it once everything is in and played instead.
//! It prints one line per stage and the total; the numbers are in
//! docs/scaling.md. Game creation (the welcomes) is set-up, timed apart
//! (on PostgreSQL by two threads, the Argon2 hashing on both cores);
//! `CRUNCH_SETUP=FILE` keeps it for the next run (SQLite only), with its
//! password verifier key as `FILE.key`; on PostgreSQL the workers share
//! the key file `umpire.key` in the run's folder. Between the two turns
//! each store's upkeep (on PostgreSQL a vacuum and a checkpoint) is timed
//! apart too, as it is done in the hours between a club's deadlines.

use chrono::{TimeZone, Utc};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;
use std::time::Instant;
use umpire::config::Config;
use umpire::post::{gamefile::GameFile, store_maildir, PostOffice};
use umpire::store::Durability;

/// The allocator `umpire` runs with (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Which store a run crunches on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Store {
    Sqlite,
    Postgres,
}

impl Store {
    fn name(self) -> &'static str {
        match self {
            Store::Sqlite => "SQLite",
            Store::Postgres => "PostgreSQL",
        }
    }
}

/// The store: a SQLite file in `dir`, or a fresh schema on the PostgreSQL
/// server `UMPIRE_TEST_POSTGRES` names (`scripts/postgres.sh start DIR`
/// starts one), made once a run.
fn database(dir: &Path, store: Store) -> PathBuf {
    static POSTGRES: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    match store {
        Store::Postgres => POSTGRES
            .get_or_init(|| {
                umpire::store::testing::fresh_postgres()
                    .expect("CRUNCH_STORE=postgres needs UMPIRE_TEST_POSTGRES")
            })
            .into(),
        Store::Sqlite => dir.join("umpire.sqlite"),
    }
}

/// `CRUNCH_DURABILITY=normal` (or `off`) for the store's `durability`;
/// `full`, the default of `umpire.toml`, otherwise.
fn durability() -> Durability {
    match std::env::var("CRUNCH_DURABILITY").as_deref() {
        Ok("normal") => Durability::Normal,
        Ok("off") => Durability::Off,
        _ => Durability::Full,
    }
}

fn config(dir: &Path, store: Store) -> Config {
    let mut config = Config {
        database: database(dir, store),
        address: "umpire@club.example".into(),
        durability: durability(),
        ..Config::default()
    };
    config.spool.outbox = dir.join("spool");
    // A PostgreSQL store's workers share a key file beside their
    // `umpire.toml` (issue 43); a SQLite store's lies beside it.
    if store == Store::Postgres {
        config.password_key_file = Some(dir.join(umpire::config::POSTGRES_KEY_FILE));
    }
    config
}

fn game_file(dir: &Path, id: &str) -> PathBuf {
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/scenarios/river-crossing.toml");
    let path = dir.join(format!("{id}.toml"));
    std::fs::write(
        &path,
        format!(
            "id = \"{id}\"\ntitle = \"Crunch {id}\"\nscenario = \"{}\"\nfirst_deadline = \"2099-01-01 00:00\"\n\
             [moderator]\naddress = \"mod@club.example\"\npassword = \"m\"\n\
             [[side]]\nid = \"aquilonia\"\naddress = \"conan@aquilonia.example\"\npassword = \"dragon7\"\n\
             [[side]]\nid = \"nemedia\"\naddress = \"tarascus@nemedia.example\"\npassword = \"serpent3\"\n",
            scenario.display()
        ),
    )
    .unwrap();
    path
}

fn mail(turn: usize, i: usize, game: &str, from: &str, body: &str) -> String {
    format!(
        "From: <{from}>\r\nTo: umpire@club.example\r\nSubject: orders\r\n\
         Message-ID: <crunch{turn}-{i}@{game}.example>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
}

/// Both sides' orders for `turn` of every game, as a deadline brings them:
/// every game's first side, then every game's second.
fn maildir(dir: &Path, games: usize, turn: usize) {
    std::fs::create_dir_all(dir.join("new")).unwrap();
    std::fs::create_dir_all(dir.join("cur")).unwrap();
    for g in 0..games {
        let id = format!("g{g:05}");
        let a = format!(
            "GAME {id} SIDE aquilonia PASSWORD dragon7 TURN {turn}\r\nBlack Dragons: phase 1 move 2\r\n\
             Bossonian Archers: phase 1 move 2; phase 2 face right 45\r\nAquilonian Foot: phase 1 move 2\r\nEND\r\n"
        );
        let n = format!(
            "GAME {id} SIDE nemedia PASSWORD serpent3 TURN {turn}\r\nNemedian Knights: phase 1 move 2\r\nEND\r\n"
        );
        std::fs::write(
            dir.join(format!("new/{turn}-{g:06}.m")),
            mail(turn, 2 * g, &id, "conan@aquilonia.example", &a),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("new/{turn}-{:06}.m", games + g)),
            mail(turn, 2 * g + 1, &id, "tarascus@nemedia.example", &n),
        )
        .unwrap();
    }
}

/// The CPU seconds this process has used, on every core (Linux's
/// `/proc/self/stat`; 0 elsewhere): steadier than the wall clock for
/// comparing two builds on a machine that other work shares.
fn cpu_seconds() -> f64 {
    /// `utime` and `stime`, the 14th and 15th fields, in clock ticks.
    const TICKS: f64 = 100.0;
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name, which is in parentheses.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse().ok())
        .collect();
    fields.iter().sum::<f64>() / TICKS
}

/// Whether the outbox is sent after the turn's mail is in and played
/// (`CRUNCH_SEND=after`, as `umpire run --once` and `umpire send` do) or
/// alongside, by a post boy on a thread of its own (as `umpire run` does).
fn send_after() -> bool {
    std::env::var("CRUNCH_SEND").as_deref() == Ok("after")
}

/// One store's crunch: its folder, its store, its workers.
struct Run {
    dir: PathBuf,
    store: Store,
    workers: usize,
}

impl Run {
    fn config(&self) -> Config {
        config(&self.dir, self.store)
    }
}

/// What a turn's crunch took: wall seconds to the last mail out, and this
/// process's CPU seconds meanwhile.
#[derive(Clone, Copy)]
struct Took {
    wall: f64,
    cpu: f64,
}

/// One turn's crunch: the mails in, the turns played, the outbox flushed.
fn crunch(run: &Run, games: usize, turn: usize) -> Took {
    let (dir, workers) = (run.dir.as_path(), run.workers);
    let now = Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, 0).unwrap();
    let inbox = dir.join(format!("inbox{turn}"));
    maildir(&inbox, games, turn);
    let sent = |po: &PostOffice| po.store().count("outbox", "sent_at IS NOT NULL").unwrap();
    let (reports_before, sent_before) = {
        let po = PostOffice::open(run.config()).unwrap();
        (
            po.store().count("outbox", "kind = 'report'").unwrap(),
            sent(&po),
        )
    };
    let alongside = !send_after();
    let done = AtomicBool::new(false);
    let trips = umpire::store::db::round_trips();
    let t = Instant::now();
    let cpu = cpu_seconds();
    let (handled, ingest, ingest_cpu) = std::thread::scope(|s| {
        // A post boy a worker, as each `umpire run` has its own.
        let boys: Vec<_> = (0..if alongside { workers } else { 0 })
            .map(|_| s.spawn(|| umpire::post::post_boy(run.config(), &done, &|| now).unwrap()))
            .collect();
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let config = run.config();
                let inbox = inbox.clone();
                s.spawn(move || {
                    // One pass of `umpire run` (`post::service`): the
                    // Maildir stored, then everything pending handled
                    // (messages another worker passed by while it held
                    // them too) and the rounds now due played.
                    let mut po = PostOffice::open(config).unwrap();
                    let read = store_maildir(&mut po, &inbox, now).unwrap();
                    po.process_pending(now).unwrap();
                    read
                })
            })
            .collect();
        let handled: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
        let ingest = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
        done.store(true, Ordering::Relaxed);
        for boy in boys {
            boy.join().unwrap();
        }
        (handled, ingest.0, ingest.1)
    });
    let mut po = PostOffice::open(run.config()).unwrap();
    let turns = po
        .store()
        .count(
            "rounds",
            &format!("round = {turn} AND adjudicated_at IS NOT NULL"),
        )
        .unwrap();
    let reports = po.store().count("outbox", "kind = 'report'").unwrap() - reports_before;
    println!(
        "turn {turn}: ingest and adjudication: {handled} mails, {turns} turns, {reports} reports queued, {ingest:.1} s, CPU {ingest_cpu:.1} s ({workers} worker{}{})",
        if workers == 1 { "" } else { "s" },
        if alongside { ", a post boy each sending alongside" } else { "" }
    );
    let trips = umpire::store::db::round_trips() - trips;
    if trips > 0 {
        println!(
            "turn {turn}: {trips} round trips to PostgreSQL ({:.1} a game)",
            trips as f64 / games as f64
        );
    }
    if !send_after() {
        let total = t.elapsed().as_secs_f64();
        println!(
            "turn {turn}: outbox to the spool alongside: {} mails, the last out at {total:.1} s, CPU {:.1} s in all",
            sent(&po) - sent_before,
            cpu_seconds() - cpu
        );
        println!(
            "turn {turn}: crunch {total:.1} s for {games} games ({:.2} ms a game)",
            total * 1000.0 / games as f64
        );
        check(handled, turns, reports, games);
        let cpu = cpu_seconds() - cpu;
        return Took { wall: total, cpu };
    }
    let t = Instant::now();
    let flushed = po.send(now).unwrap();
    let send = t.elapsed().as_secs_f64();
    println!(
        "turn {turn}: outbox to the spool: {} mails, {send:.1} s",
        flushed.sent
    );
    println!(
        "turn {turn}: crunch {:.1} s for {games} games ({:.2} ms a game)",
        ingest + send,
        (ingest + send) * 1000.0 / games as f64
    );
    check(handled, turns, reports, games);
    Took {
        wall: ingest + send,
        cpu: cpu_seconds() - cpu,
    }
}

/// What every crunch must have done.
fn check(handled: usize, turns: i64, reports: i64, games: usize) {
    assert_eq!(handled, 2 * games, "every mail handled once");
    assert_eq!(turns as usize, games, "every turn played");
    assert_eq!(reports as usize, 3 * games, "three reports a turn");
}

/// The games created and their welcomes sent (not part of the crunch).
/// `CRUNCH_SETUP=FILE` keeps the SQLite store so set up in FILE, and a
/// later run with the same FILE (and `CRUNCH_GAMES`) starts from a copy of
/// it: at 10,000 games the set-up is some 12 minutes of Argon2 hashing.
fn set_up(run: &Run, games: usize, now: chrono::DateTime<Utc>) {
    let dir = run.dir.as_path();
    let store = run.config().database;
    let sqlite = run.store == Store::Sqlite;
    let kept = std::env::var_os("CRUNCH_SETUP")
        .map(PathBuf::from)
        .filter(|_| sqlite);
    // The verifiers in the store answer only under their key (issue 43).
    let key = umpire::store::password_key::beside;
    if let Some(kept) = kept.as_ref().filter(|k| k.exists()) {
        std::fs::copy(kept, &store).unwrap();
        if key(kept).exists() {
            std::fs::copy(key(kept), key(&store)).unwrap();
        }
        println!("set-up (SQLite): copied from {}", kept.display());
        return;
    }
    let t = Instant::now();
    // Opened first: it makes the store's tables and the key file.
    let mut po = PostOffice::open(run.config()).unwrap();
    let files = dir.join("games");
    std::fs::create_dir_all(&files).unwrap();
    // On PostgreSQL two threads create the games, each half of them (the
    // Argon2 hashing on both cores; halves apart, so their serializable
    // transactions seldom meet on one index page); a SQLite file takes one
    // writer at a time, and its set-up is kept with `CRUNCH_SETUP` instead.
    let threads = if sqlite { 1 } else { 2 };
    let half = games.div_ceil(threads);
    std::thread::scope(|s| {
        for first in 0..threads {
            let files = &files;
            s.spawn(move || {
                let mut po = PostOffice::open(run.config()).unwrap();
                for g in first * half..((first + 1) * half).min(games) {
                    let path = game_file(files, &format!("g{g:05}"));
                    create(&mut po, &GameFile::load(&path).unwrap(), now);
                }
            });
        }
    });
    let welcomes = po.send(now).unwrap();
    println!(
        "set-up ({}): {games} games created, {} welcomes sent, {:.1} s (not part of the crunch)",
        run.store.name(),
        welcomes.sent,
        t.elapsed().as_secs_f64()
    );
    drop(po);
    upkeep(run);
    if let Some(kept) = kept {
        std::fs::copy(&store, &kept).unwrap();
        if key(&store).exists() {
            std::fs::copy(key(&store), key(&kept)).unwrap();
        }
    }
}

/// What a store's upkeep does between two deadlines, timed apart (not
/// part of a crunch): on a club's server deadlines are hours apart, and
/// the upkeep of one crunch's writes is done in them. Closing the last
/// connection folds SQLite's journal into the file; on PostgreSQL the
/// tables written are vacuumed and analyzed and written out by a
/// checkpoint, as autovacuum and the checkpointer would do in the idle
/// hours. So each turn meets the statistics a season gives its plans
/// (the last deadline's mail all handled), not whatever autovacuum
/// happened to see: a claim planned on an `ANALYZE` that saw no new mail
/// once doubled turn 2 at 10,000 games (migration 25, docs/scaling.md).
fn upkeep(run: &Run) -> f64 {
    let t = Instant::now();
    if run.store == Store::Postgres {
        let url = run.config().database;
        let c = umpire::store::db::Connection::open_postgres(&url.to_string_lossy()).unwrap();
        c.execute_batch("VACUUM ANALYZE").unwrap();
        c.execute_batch("CHECKPOINT").unwrap();
    }
    t.elapsed().as_secs_f64()
}

/// Create one game, tried again while the store refuses it for a moment
/// (the other set-up thread's serializable transaction in the way). After
/// [`ALONE_AFTER`] refusals it is tried alone ([`SET_UP_TURN`] held for
/// writing, the other thread waiting), so a slow creation is not refused
/// again and again by the other's quick ones (a 1,000-game set-up once
/// stopped after one game's 100 refusals).
fn create(po: &mut PostOffice, file: &GameFile, now: chrono::DateTime<Utc>) {
    for tries in 1.. {
        let done = if tries <= ALONE_AFTER {
            let _shared = SET_UP_TURN.read().unwrap();
            po.create_game(file, now)
        } else {
            let _alone = SET_UP_TURN.write().unwrap();
            po.create_game(file, now)
        };
        match done {
            Ok(()) => return,
            Err(e) if tries < 100 => {
                eprintln!("set-up: {} tried again: {e}", file.id);
                std::thread::sleep(std::time::Duration::from_millis(5 * tries.min(10)));
            }
            Err(e) => panic!("set-up: {}: {e}", file.id),
        }
    }
}

/// The set-up threads' turns at creating games: shared, or one alone.
static SET_UP_TURN: RwLock<()> = RwLock::new(());
/// Refusals after which a game is created alone.
const ALONE_AFTER: u64 = 3;

/// The machine's load averages (1, 5, 15 minutes; Linux's `/proc/loadavg`),
/// printed beside each turn: the cores are shared.
fn load() -> String {
    let avg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    avg.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// The runs `CRUNCH_STORE` asks for, each in its own folder under `dir`:
/// SQLite (the default), PostgreSQL (`postgres`), or both (`both`: SQLite
/// with one worker, PostgreSQL with `CRUNCH_WORKERS`, default 2).
fn runs(dir: &Path) -> Vec<Run> {
    let workers = |default| env_usize("CRUNCH_WORKERS", default).max(1);
    let run = |store, workers| Run {
        dir: dir.join(match store {
            Store::Sqlite => "sqlite",
            Store::Postgres => "postgres",
        }),
        store,
        workers,
    };
    match std::env::var("CRUNCH_STORE").as_deref() {
        Ok("postgres") => vec![run(Store::Postgres, workers(1))],
        Ok("both") => vec![run(Store::Sqlite, 1), run(Store::Postgres, workers(2))],
        _ => vec![run(Store::Sqlite, workers(1))],
    }
}

/// Each run's set-up, at once (on threads of their own: the set-up is
/// not timed, and the stores' Argon2 hashing then shares the cores).
fn set_up_all(runs: &[Run], games: usize, now: chrono::DateTime<Utc>) {
    for run in runs {
        std::fs::create_dir_all(&run.dir).unwrap();
        println!(
            "store: {} ({} worker{})",
            umpire::store::db::redact(&run.config().database.to_string_lossy()),
            run.workers,
            if run.workers == 1 { "" } else { "s" }
        );
    }
    std::thread::scope(|s| {
        for run in runs {
            s.spawn(move || set_up(run, games, now));
        }
    });
}

/// The second run's time against the first's, turn by turn (`both`).
fn compare(runs: &[Run], took: &[Vec<Took>]) {
    let [a, b] = runs else { return };
    for (turn, (x, y)) in took[0].iter().zip(&took[1]).enumerate() {
        println!(
            "turn {}: {} / {}: wall {:.1} s / {:.1} s = {:.2}x, CPU of umpire {:.1} s / {:.1} s = {:.2}x",
            turn + 1,
            b.store.name(),
            a.store.name(),
            y.wall,
            x.wall,
            y.wall / x.wall,
            y.cpu,
            x.cpu,
            y.cpu / x.cpu
        );
    }
}

/// What a running service pays on every poll when nothing is due: each
/// active game looked at for its deadline and reminders.
fn idle_tick(run: &Run, games: usize, now: chrono::DateTime<Utc>) {
    let mut po = PostOffice::open(run.config()).unwrap();
    let t = Instant::now();
    let played = po.tick(now).unwrap();
    println!(
        "idle tick ({}): {games} games looked at, {played} rounds played, {:.2} s",
        run.store.name(),
        t.elapsed().as_secs_f64()
    );
}

fn main() {
    // `RUST_LOG=info` shows what the workers log (conflicts tried again).
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            .init();
    }
    let games = env_usize("CRUNCH_GAMES", 10_000);
    // `CRUNCH_DIR` (an empty folder) keeps the stores and the spools there
    // to look at after.
    let tmp = tempfile::tempdir().unwrap();
    let kept = std::env::var_os("CRUNCH_DIR").map(PathBuf::from);
    let dir: &Path = kept.as_deref().unwrap_or(tmp.path());
    let now = Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, 0).unwrap();
    let runs = runs(dir);
    set_up_all(&runs, games, now);
    // Turn 1: a service just started (each player's password is proven
    // by the verifier kept when it was made, not by Argon2: issue 43);
    // turn 2: as a service running all season. Each turn on every store
    // before the next turn, so the stores meet the machine's same minutes.
    let mut took: Vec<Vec<Took>> = runs.iter().map(|_| Vec::new()).collect();
    for turn in 1..=2 {
        for (run, took) in runs.iter().zip(&mut took) {
            if turn > 1 {
                println!(
                    "upkeep before turn {turn} ({}): {:.1} s (between deadlines, not part of the crunch)",
                    run.store.name(),
                    upkeep(run)
                );
            }
            println!(
                "-- {}, turn {turn} (load average {}) --",
                run.store.name(),
                load()
            );
            took.push(crunch(run, games, turn));
        }
    }
    for (run, took) in runs.iter().zip(&took) {
        println!(
            "crunch ({}): turn 1 {:.1} s (a service just started), turn 2 {:.1} s (running)",
            run.store.name(),
            took[0].wall,
            took[1].wall
        );
    }
    compare(&runs, &took);
    println!("load average after: {}", load());
    for run in &runs {
        idle_tick(run, games, now);
    }
}
