//! Eight `umpire ingest` processes at once on one store (issue 14), each
//! with a Maildir of its own: every message stored once, every one
//! handled, and exactly one answer to each, threaded to it.
//!
//! The size is 8 × 500 messages. `UMPIRE_INGEST_MESSAGES` sets the
//! messages per process (the default, 500, is the issue's).

use crate::common;
use common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

const PROCESSES: usize = 8;

fn per_process() -> usize {
    std::env::var("UMPIRE_INGEST_MESSAGES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

/// Process `p`'s Maildir of `n` messages: orders, and every tenth a STATUS
/// request (a reply of another kind), each with its own Message-ID.
fn maildir(d: &Path, p: usize, n: usize) -> std::path::PathBuf {
    let dir = d.join(format!("inbox{p}"));
    std::fs::create_dir_all(dir.join("new")).unwrap();
    for i in 0..n {
        let body = if i % 10 == 9 {
            "GAME ford SIDE aquilonia PASSWORD dragon7\nSTATUS\n".to_string()
        } else {
            format!(
                "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move {}\nEND\n",
                1 + i % 6
            )
        };
        std::fs::write(
            dir.join(format!("new/{i:05}.m")),
            mail(CONAN, &format!("p{p}m{i}@aquilonia.example"), &body),
        )
        .unwrap();
    }
    dir
}

/// The value of header `name` in a raw message.
fn header<'a>(raw: &'a str, name: &str) -> Option<&'a str> {
    raw.lines().take_while(|l| !l.is_empty()).find_map(|l| {
        l.strip_prefix(name)
            .map(|v| v.trim().trim_start_matches('<').trim_end_matches('>'))
    })
}

#[test]
fn eight_ingest_processes_lose_nothing_double_nothing_and_answer_each_message_once() {
    let n = per_process();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_game(d);
    let inboxes: Vec<_> = (0..PROCESSES).map(|p| maildir(d, p, n)).collect();
    let started = Instant::now();
    let children: Vec<_> = inboxes
        .iter()
        .map(|inbox| {
            umpire_in(d)
                .args(["ingest", "--maildir"])
                .arg(inbox)
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success(), "an ingest process failed");
    }
    let took = started.elapsed();
    let total = (PROCESSES * n) as i64;
    eprintln!(
        "{PROCESSES} processes x {n} messages: {:.1} s, {:.0} messages/s",
        took.as_secs_f64(),
        total as f64 / took.as_secs_f64()
    );

    for inbox in &inboxes {
        assert_eq!(
            std::fs::read_dir(inbox.join("new")).unwrap().count(),
            0,
            "every file moved to cur/ once stored"
        );
        assert_eq!(std::fs::read_dir(inbox.join("cur")).unwrap().count(), n);
    }
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages"),
        total,
        "every message stored, none twice"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages WHERE state = 'done'"),
        total,
        "every message handled"
    );
    let orders = total - (PROCESSES * (n / 10)) as i64;
    assert_eq!(count_in(d, "SELECT COUNT(*) FROM submissions"), orders);
    // Exactly one answer per message, threaded to it.
    let c = rusqlite::Connection::open(d.join("umpire.sqlite")).unwrap();
    let mut st = c
        .prepare("SELECT kind, raw FROM outbox JOIN outbox_bodies ON outbox_id = id WHERE kind IN ('confirmation', 'reply')")
        .unwrap();
    let mut answers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in st
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?))
        })
        .unwrap()
    {
        let (kind, raw) = row.unwrap();
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let to = header(&raw, "In-Reply-To:")
            .unwrap_or_else(|| panic!("an answer without In-Reply-To: {raw}"))
            .to_string();
        answers.entry(to).or_default().push(kind);
    }
    assert_eq!(answers.len() as i64, total, "every message answered");
    for p in 0..PROCESSES {
        for i in 0..n {
            let id = format!("p{p}m{i}@aquilonia.example");
            let want = if i % 10 == 9 { "reply" } else { "confirmation" };
            assert_eq!(
                answers.get(&id).map(Vec::as_slice),
                Some(&[want.to_string()][..]),
                "{id}"
            );
        }
    }
}
