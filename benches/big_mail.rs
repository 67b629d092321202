//! One large mail through the whole mail path (issue 43): stored, read,
//! its envelope and sheet judged, the reply composed into the outbox. A
//! moderator's mail of 2 MB of short lines that are no command, and a
//! player's mail of 2 MB of short lines that are no order. Target: each
//! under a second in a release build (`cargo bench --bench big_mail`); the
//! numbers are in docs/measured.md. Before issue 43 a moderator's mail of
//! 20,000 such lines took 35.8 s: every line was quoted in the reply and
//! lettre made the reply CRLF with one `String::insert` a line.

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use umpire::config::Config;
use umpire::post::{gamefile::GameFile, PostOffice};

/// The mail's size: 2 MB, under the default `max_message_bytes` (2 MiB),
/// so all of it is read.
const BYTES: usize = 2_000_000;

fn game(dir: &Path) -> PostOffice {
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/scenarios/river-crossing.toml");
    std::fs::write(
        dir.join("game.toml"),
        format!(
            "id = \"ford\"\ntitle = \"Bench\"\nscenario = \"{}\"\nfirst_deadline = \"2099-01-01 00:00\"\n\
             [moderator]\naddress = \"mod@club.example\"\npassword = \"m\"\n\
             [[side]]\nid = \"aquilonia\"\naddress = \"conan@aquilonia.example\"\npassword = \"dragon7\"\n\
             [[side]]\nid = \"nemedia\"\naddress = \"tarascus@nemedia.example\"\npassword = \"serpent3\"\n",
            scenario.display()
        ),
    )
    .unwrap();
    let config = Config {
        database: dir.join("umpire.sqlite"),
        address: "umpire@club.example".into(),
        ..Config::default()
    };
    let mut po = PostOffice::open(config).unwrap();
    po.create_game(
        &GameFile::load(&dir.join("game.toml")).unwrap(),
        Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap(),
    )
    .unwrap();
    po
}

/// A mail from `from` whose body is `header` and then short lines up to
/// [`BYTES`] in all.
fn big_mail(from: &str, header: &str) -> Vec<u8> {
    let mut raw = format!(
        "From: <{from}>\r\nTo: umpire@club.example\r\nSubject: a long one\r\n\
         Message-ID: <big@club.example>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{header}\r\n"
    );
    let mut i = 0;
    while raw.len() < BYTES - 32 {
        raw.push_str(&format!("note {i:06} at the ford\r\n"));
        i += 1;
    }
    raw.into_bytes()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("big_mail");
    g.sample_size(10)
        .throughput(Throughput::Bytes(BYTES as u64));
    let mails = [
        (
            "moderator_2mb_short_lines",
            big_mail("mod@club.example", "MODERATOR ford PASSWORD m"),
        ),
        (
            "player_2mb_short_lines",
            big_mail(
                "conan@aquilonia.example",
                "GAME ford SIDE aquilonia PASSWORD dragon7",
            ),
        ),
    ];
    for (name, raw) in &mails {
        g.bench_function(*name, |b| {
            b.iter_batched(
                || {
                    let dir = tempfile::tempdir().unwrap();
                    let po = game(dir.path());
                    (dir, po)
                },
                |(dir, mut po)| {
                    let now = Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, 0).unwrap();
                    let handled = po.accept(raw, "bench", now).unwrap();
                    assert!(handled.is_some(), "the mail was handled");
                    assert_eq!(
                        po.store()
                            .count("outbox", "kind = 'reply' OR kind = 'confirmation'")
                            .unwrap(),
                        1,
                        "{name} answered once"
                    );
                    dir
                },
                criterion::BatchSize::PerIteration,
            );
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
