//! Crash safety and concurrency with the real binary on a real SQLite
//! file: `kill -9` at random moments during ingest (which also adjudicates
//! turns) and during sending, then restart; several `umpire ingest`
//! processes at once. Nothing may be lost or duplicated.

use crate::common;
use common::*;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Player mails: alternating sides, with a wrong password now and then.
fn mails(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| match i % 5 {
            4 => mail(
                "spy@zamora.example",
                &format!("spy{i}@z"),
                "GAME ford SIDE nemedia PASSWORD guess\nNemedian Knights: phase 1 hold\nEND\n",
            ),
            k if k % 2 == 0 => mail(
                CONAN,
                &format!("a{i}@a"),
                "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 hold\nEND\n",
            ),
            _ => mail(
                TARASCUS,
                &format!("n{i}@n"),
                "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 hold\nEND\n",
            ),
        })
        .collect()
}

#[test]
fn kill_9_during_ingest_adjudication_and_sending_loses_and_duplicates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_game(d);
    let all = mails(120);
    std::fs::create_dir_all(d.join("inbox/new")).unwrap();
    for (i, m) in all.iter().enumerate() {
        std::fs::write(d.join(format!("inbox/new/{i:05}.m")), m).unwrap();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let kills = killed_repeatedly(
        d,
        &["ingest", "--maildir", d.join("inbox").to_str().unwrap()],
        &mut rng,
        0,
    );
    let sends = killed_repeatedly(d, &["send"], &mut rng, 0);
    eprintln!("ingest killed {kills} times, send killed {sends} times");

    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages"),
        120,
        "every message stored once"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages WHERE state = 'new'"),
        0,
        "every message handled"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages WHERE state = 'refused'"),
        24
    );
    assert_eq!(count_in(d, "SELECT COUNT(*) FROM submissions"), 96);
    // Each accepted message answered exactly once; the spy's 24 wrong
    // passwords bring the player at most 3 refusals an hour, and after 10 the
    // spy's address is locked out for the side, told once.
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'confirmation'"),
        96
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'refusal'"),
        3
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'notice'"),
        1
    );
    // Each played turn adjudicated once and reported once to each of 3 addresses.
    let played = count_in(
        d,
        "SELECT COUNT(*) FROM rounds WHERE adjudicated_at IS NOT NULL",
    );
    assert!(played >= 1);
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'report'"),
        played * 3
    );
    // Everything sent, one spool file per outbox message.
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
    assert_eq!(files, count_in(d, "SELECT COUNT(*) FROM outbox"));
}

#[test]
fn concurrent_ingest_processes_store_and_answer_each_message_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_game(d);
    let all = mails(30);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut children = Vec::new();
    for _ in 0..3 {
        // Each process is handed every message in its own order, one per process call.
        let mut order: Vec<usize> = (0..all.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let msgs: Vec<Vec<u8>> = order.iter().map(|&i| all[i].clone()).collect();
        let dir = d.to_path_buf();
        children.push(std::thread::spawn(move || {
            for m in msgs {
                let mut child = umpire_in(&dir)
                    .arg("ingest")
                    .stdin(Stdio::piped())
                    .spawn()
                    .unwrap();
                child.stdin.take().unwrap().write_all(&m).unwrap();
                assert!(child.wait().unwrap().success());
            }
        }));
    }
    for c in children {
        c.join().unwrap();
    }
    assert_eq!(count_in(d, "SELECT COUNT(*) FROM messages"), 30);
    assert_eq!(count_in(d, "SELECT COUNT(*) FROM submissions"), 24);
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'confirmation'"),
        24,
        "every order mail answered once"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE kind = 'refusal'"),
        3,
        "the spy's six wrong passwords: three refusals in the hour"
    );
}

#[test]
fn run_serves_the_spool_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_game(d);
    std::fs::create_dir_all(d.join("inbox/new")).unwrap();
    std::fs::write(
        d.join("inbox/new/1.m"),
        mail(
            CONAN,
            "run1@a",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 hold\nEND\n",
        ),
    )
    .unwrap();
    std::fs::write(
        d.join("umpire.toml"),
        "database = \"umpire.sqlite\"\naddress = \"umpire@club.example\"\npoll_seconds = 1\n[spool]\noutbox = \"outbox\"\ninbox = \"inbox\"\n",
    )
    .unwrap();
    let mut child = umpire_in(d).arg("run").spawn().unwrap();
    // Wait until the round has answered the orders (the confirmation is in the spool).
    let answered = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(100));
        std::fs::read_dir(d.join("outbox"))
            .map(|rd| {
                rd.flatten()
                    .any(|e| e.file_name().to_string_lossy().contains("confirmation"))
            })
            .unwrap_or(false)
    });
    assert!(answered, "umpire run did not answer the mail in its spool");
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let stopped = (0..50).find_map(|_| {
        std::thread::sleep(Duration::from_millis(100));
        child.try_wait().unwrap()
    });
    let status = stopped.expect("umpire run did not stop within 5 s of SIGTERM");
    assert!(status.success(), "{status}");
}
