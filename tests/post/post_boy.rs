//! The post boy: `umpire run` sends the outbox on a thread of its own, so
//! a mail server that takes its time holds up no game.

use crate::common;
use common::*;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use umpire::config::{Security, ServerConfig};
use umpire::post::{gamefile::GameFile, PostOffice};

/// A mail server that takes connections and never says a word, until
/// released: then it closes them, and any new one at once. Returns its
/// port, how many connections it holds, and the release.
fn stalled_server() -> (u16, Arc<Mutex<Vec<TcpStream>>>, Arc<AtomicBool>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let held = Arc::new(Mutex::new(Vec::new()));
    let released = Arc::new(AtomicBool::new(false));
    let (h, r) = (held.clone(), released.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            if !r.load(Ordering::Relaxed) {
                h.lock().unwrap().push(stream);
            }
        }
    });
    (port, held, released)
}

/// Wait up to `secs` for `ready`.
fn within(secs: u64, ready: impl Fn() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(secs) {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// The welcomes' delivery hangs on a server that never answers; orders
/// mailed meanwhile are handled and their round played and reported all
/// the same (before the post boy, the service's round hung in sending and
/// read no mail until the server gave up, 30 s a message). Once the
/// server goes, the failed deliveries wait for their next attempt: no mail
/// is lost and the service stops cleanly.
#[test]
fn a_stalled_mail_server_holds_up_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (port, held, released) = stalled_server();
    let mut config = config(d);
    config.poll_seconds = 1;
    config.smtp = Some(ServerConfig {
        host: "127.0.0.1".into(),
        port,
        security: Security::None,
        username: None,
        password: None,
    });
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(d.join("inbox").join(sub)).unwrap();
    }
    let mut po = PostOffice::open(config).unwrap();
    po.create_game(&GameFile::load(&game_file_ahead(d)).unwrap(), t0())
        .unwrap();
    let welcomes = count_in(d, "SELECT COUNT(*) FROM outbox");
    assert!(welcomes >= 2);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let service = s.spawn(|| umpire::post::serve(&mut po, &stop, false, t0));
        assert!(
            within(10, || !held.lock().unwrap().is_empty()),
            "the post boy is delivering the welcomes"
        );
        for (i, (from, side, password, unit)) in [
            (CONAN, "aquilonia", "dragon7", "Black Dragons"),
            (TARASCUS, "nemedia", "serpent3", "Nemedian Knights"),
        ]
        .into_iter()
        .enumerate()
        {
            let raw = mail(
                from,
                &format!("o{i}@x.example"),
                &format!("GAME ford SIDE {side} PASSWORD {password}\n{unit}: phase 1 hold\nEND\n"),
            );
            std::fs::write(d.join(format!("inbox/new/{i}.eml")), raw).unwrap();
        }
        let played = within(15, || {
            count_in(
                d,
                "SELECT COUNT(*) FROM rounds WHERE adjudicated_at IS NOT NULL",
            ) == 1
        });
        assert_eq!(
            count_in(d, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL"),
            0,
            "the server has taken nothing"
        );
        released.store(true, Ordering::Relaxed);
        stop.store(true, Ordering::Relaxed);
        // A connection taken just as the server was released is let go too.
        while !service.is_finished() {
            held.lock().unwrap().clear();
            std::thread::sleep(Duration::from_millis(20));
        }
        service.join().unwrap().expect("the service stops cleanly");
        assert!(played, "the round was played while the server stalled");
    });
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'report'"),
        3,
        "the round's reports queued"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        count_in(d, "SELECT COUNT(*) FROM outbox"),
        "nothing lost: every mail still to send"
    );
    assert!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE attempts > 0") >= 1,
        "the stalled delivery counted as a failed attempt"
    );
}
