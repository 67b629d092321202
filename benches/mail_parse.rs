//! How fast one message is read: the lead's ingest target is 1,000
//! messages/s end to end, so parsing must stay well under 0.5 ms.
//!
//! `cargo bench --bench mail_parse`

use std::fs;
use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use umpire::mail::compose::{new_message_id, Outgoing};
use umpire::mail::read::Incoming;

#[path = "../tests/support/huge_message.rs"]
mod huge_message;

fn corpus_message(name: &str) -> Vec<u8> {
    fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/mail")
            .join(name),
    )
    .expect("corpus file")
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    for name in [
        "mbox_from_line.eml",
        "gmail_top_posted_reply.eml",
        "outlook_windows1252_reply.eml",
        "html_only_base64_webmail.eml",
    ] {
        let raw = corpus_message(name);
        group.throughput(Throughput::Elements(1));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mail = Incoming::parse(black_box(&raw)).unwrap();
                black_box(mail.loop_hazard("umpire@valkia.example"))
            })
        });
    }
    let all: Vec<Vec<u8>> = fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .map(|p| fs::read(p).unwrap())
        .collect();
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("whole corpus", |b| {
        b.iter(|| {
            for raw in &all {
                let _ = black_box(Incoming::parse(black_box(raw)));
            }
        })
    });
    let huge = huge_message::huge_message(12 * 1024 * 1024);
    group.throughput(Throughput::Bytes(huge.len() as u64));
    group.sample_size(10);
    group.bench_function("a 12 MB message", |b| {
        b.iter(|| Incoming::parse(black_box(&huge)).unwrap())
    });
    group.finish();
}

fn compose(c: &mut Criterion) {
    let mail = Outgoing {
        from: "Valkia Umpire <umpire@valkia.example>".into(),
        to: vec!["Conan <conan@aquilonia.example>".into()],
        subject: "Valkia, turn 3: orders received".into(),
        text: "Your orders as understood:\nBlack Dragons: phase 1 charge Nemedian Knights\n".repeat(20),
        html: Some("<p>Your orders as understood:</p><p>Black Dragons: phase 1 charge Nemedian Knights</p>".repeat(20)),
        in_reply_to: Some("orders-3@aquilonia.example".into()),
        auto_submitted: umpire::mail::compose::AutoSubmitted::Replied,
        ..Outgoing::default()
    };
    let id = new_message_id("valkia.example", "valkia-t3-aquilonia");
    let date = chrono::DateTime::from_timestamp(1_796_000_000, 0).unwrap();
    c.bench_function("compose text+html reply", |b| {
        b.iter(|| black_box(mail.to_rfc5322(&id, date).unwrap()))
    });
}

criterion_group!(benches, parse, compose);
criterion_main!(benches);
