//! Ingesting a Maildir of 2,000 order messages into a fresh store: every
//! message stored raw, parsed, identified, validated, confirmed into the
//! outbox. Target (issue 14): at least 1,500 messages/s on the 2-core
//! machine with `synchronous = FULL`. Each durability (FULL, NORMAL) is
//! measured without batching (`batch = 1`: every message stored in a
//! transaction of its own, then handled in another) and with the default
//! batching (`batch = 64` to a transaction, each handled in a savepoint).
//! `cargo bench --bench ingest` (criterion prints the rate as elem/s);
//! the numbers are in docs/measured.md.

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use umpire::config::Config;
use umpire::post::{gamefile::GameFile, ingest_maildir, PostOffice};
use umpire::store::Durability;

const N: usize = 2_000;

fn game(dir: &Path, durability: Durability, batch: usize) -> PostOffice {
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
        durability,
        batch,
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

fn maildir(dir: &Path) {
    std::fs::create_dir_all(dir.join("new")).unwrap();
    for i in 0..N {
        // One side only, so the turn is never played and every message is an order sheet.
        let body = "GAME ford SIDE aquilonia PASSWORD dragon7\r\nBlack Dragons: phase 1 move 6\r\n\
                    Bossonian Archers: phase 1 move 4; phase 2 face right 45\r\nAquilonian Foot: phase 1 move full\r\nEND\r\n";
        let raw = format!(
            "From: Conan <conan@aquilonia.example>\r\nTo: umpire@club.example\r\nSubject: orders\r\n\
             Message-ID: <bench{i}@aquilonia.example>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
        );
        std::fs::write(dir.join(format!("new/{i:06}.m")), raw).unwrap();
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ingest");
    g.sample_size(10).throughput(Throughput::Elements(N as u64));
    for (durability, name) in [(Durability::Full, "full"), (Durability::Normal, "normal")] {
        for batch in [1, 64] {
            g.bench_function(format!("maildir_2000_orders/{name}/batch{batch}"), |b| {
                b.iter_batched(
                    || {
                        let dir = tempfile::tempdir().unwrap();
                        maildir(&dir.path().join("inbox"));
                        let po = game(dir.path(), durability, batch);
                        (dir, po)
                    },
                    |(dir, mut po)| {
                        let now = Utc.with_ymd_and_hms(2026, 12, 1, 10, 0, 0).unwrap();
                        let n = ingest_maildir(&mut po, &dir.path().join("inbox"), now).unwrap();
                        assert_eq!(n, N);
                        assert_eq!(
                            po.store().count("outbox", "kind = 'confirmation'").unwrap(),
                            N as i64
                        );
                        dir
                    },
                    criterion::BatchSize::PerIteration,
                );
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
