//! The mail corpus: realistic messages in `tests/mail/`, each with what it
//! must yield.
//!
//! For every `X.eml` there is `X.expected` (the exact `orders_text`, compared
//! after trimming) and/or `X.expect.toml` (other facts: `error`,
//! `loop_hazard`, `from`, `from_name`, `subject`, `message_id`,
//! `in_reply_to`, `references`, `attachments`). A message without
//! `loop_hazard` in its TOML must be safe to answer. To add a case, drop in
//! a message (a bug from a real game: name the files after it) and its
//! expected text.

use std::fs;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde::Deserialize;
use umpire::mail::read::{Incoming, MAX_MESSAGE_BYTES};

use crate::huge_message::huge_message;

const UMPIRE: &str = "umpire@valkia.example";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    error: Option<String>,
    loop_hazard: Option<String>,
    from: Option<String>,
    from_name: Option<String>,
    subject: Option<String>,
    message_id: Option<String>,
    in_reply_to: Option<String>,
    references: Option<Vec<String>>,
    attachments: Option<Vec<String>>,
}

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/mail exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    files.sort();
    files
}

/// Checks one message against its expectations; returns the mismatches.
fn check(eml: &Path) -> Vec<String> {
    let name = eml.file_stem().unwrap().to_string_lossy().into_owned();
    let sibling = |ext: &str| eml.with_file_name(format!("{name}.{ext}"));
    let expected_text = fs::read_to_string(sibling("expected")).ok();
    let expect: Option<Expect> = fs::read_to_string(sibling("expect.toml"))
        .ok()
        .map(|t| toml::from_str(&t).unwrap_or_else(|e| panic!("{name}.expect.toml: {e}")));
    if expected_text.is_none() && expect.is_none() {
        return vec![format!("{name}: no {name}.expected or {name}.expect.toml")];
    }
    let expect = expect.unwrap_or_default();
    let raw = fs::read(eml).unwrap();
    let mut problems = Vec::new();
    let mut differ = |what: &str, got: String, want: String| {
        if got != want {
            problems.push(format!(
                "{name}: {what}\n--- expected ---\n{want}\n--- got ---\n{got}\n"
            ));
        }
    };
    let mail = match (Incoming::parse(&raw), &expect.error) {
        (Err(e), Some(kind)) => {
            differ("error kind", e.kind().into(), kind.clone());
            return problems;
        }
        (Err(e), None) => {
            differ("parse result", format!("error: {e}"), "a message".into());
            return problems;
        }
        (Ok(_), Some(kind)) => {
            differ("parse result", "a message".into(), format!("error {kind}"));
            return problems;
        }
        (Ok(mail), None) => mail,
    };
    if let Some(text) = expected_text {
        differ(
            "orders_text",
            mail.orders_text.clone(),
            text.trim().to_string(),
        );
    }
    let hazard = mail.loop_hazard(UMPIRE).map(|r| r.kind().to_string());
    differ(
        "loop_hazard",
        format!("{hazard:?}"),
        format!("{:?}", expect.loop_hazard),
    );
    if let Some(from) = expect.from {
        differ(
            "from",
            format!("{:?}", mail.from.as_ref().map(|m| &m.address)),
            format!("{:?}", Some(from)),
        );
    }
    if let Some(from_name) = expect.from_name {
        differ(
            "from name",
            format!("{:?}", mail.from.as_ref().and_then(|m| m.name.as_ref())),
            format!("{:?}", Some(from_name)),
        );
    }
    if let Some(subject) = expect.subject {
        differ("subject", mail.subject.clone(), subject);
    }
    if let Some(id) = expect.message_id {
        differ(
            "message_id",
            format!("{:?}", mail.message_id),
            format!("{:?}", Some(id)),
        );
    }
    if let Some(id) = expect.in_reply_to {
        differ(
            "in_reply_to",
            format!("{:?}", mail.in_reply_to),
            format!("{:?}", Some(id)),
        );
    }
    if let Some(refs) = expect.references {
        differ(
            "references",
            format!("{:?}", mail.references),
            format!("{refs:?}"),
        );
    }
    if let Some(names) = expect.attachments {
        let got: Vec<String> = mail
            .attachments
            .iter()
            .map(|a| a.name.clone().unwrap_or_default())
            .collect();
        differ("attachments", format!("{got:?}"), format!("{names:?}"));
    }
    differ("raw_size", mail.raw_size.to_string(), raw.len().to_string());
    problems
}

#[test]
fn corpus_messages_yield_their_expected_orders() {
    let files = corpus();
    assert!(
        files.len() >= 20,
        "the corpus should hold at least 20 messages, found {}",
        files.len()
    );
    let problems: Vec<String> = files.iter().flat_map(|f| check(f)).collect();
    assert!(
        problems.is_empty(),
        "{} of {} corpus messages differ:\n{}",
        problems.len(),
        files.len(),
        problems.join("\n")
    );
}

/// Guards the point of quote stripping: the umpire's report quotes the old
/// orders back, and none of it may be read again.
#[test]
fn no_quoted_report_leaks_into_orders() {
    for eml in corpus() {
        let Ok(mail) = Incoming::parse(&fs::read(&eml).unwrap()) else {
            continue;
        };
        if mail.loop_hazard(UMPIRE).is_some() {
            continue;
        }
        for leak in [
            "Your orders as understood",
            "Next deadline",
            "phase 1 charge Nemedian Knights",
            "wrote:",
            "Original Message",
            "Forwarded message",
        ] {
            assert!(
                !mail.orders_text.contains(leak),
                "{}: {leak:?} leaked into\n{}",
                eml.display(),
                mail.orders_text
            );
        }
    }
}

/// Corpus files that have an `.expected` and are safe to answer.
fn answerable_orders() -> Vec<(PathBuf, String)> {
    corpus()
        .into_iter()
        .filter_map(|eml| {
            let text = fs::read_to_string(eml.with_extension("expected")).ok()?;
            Some((eml, text))
        })
        .collect()
}

#[test]
fn corpus_has_the_required_styles() {
    let names: Vec<String> = corpus()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for style in [
        "gmail",
        "outlook",
        "apple",
        "thunderbird",
        "iphone",
        "android",
        "mutt",
        "bounce",
        "vacation",
        "list",
        "garbage",
        "empty",
        "txt_attachment",
        "forwarded",
        "html_only",
        "windows1252",
        "iso8859",
        "base64",
        "smart_quotes",
    ] {
        assert!(
            names.iter().any(|n| n.contains(style)),
            "no corpus message for {style}"
        );
    }
    assert!(answerable_orders().len() >= 15);
}

/// The HTML alternative of every multipart/alternative message must yield
/// the same orders as its text part: this exercises HTML quote stripping
/// (blockquotes, Gmail's quote container, Outlook's header block) on every
/// client style in the corpus, not only on the HTML-only messages.
#[test]
fn html_alternatives_yield_the_same_orders() {
    use mail_parser::{MessageParser, PartType};
    use umpire::mail::{html, quote, read::normalise};
    let mut checked = 0;
    for (eml, expected) in answerable_orders() {
        let raw = fs::read(&eml).unwrap();
        let Some(msg) = MessageParser::default().parse(&raw) else {
            continue;
        };
        let has_text = msg
            .text_body
            .iter()
            .any(|&id| matches!(msg.parts[id as usize].body, PartType::Text(_)));
        let htmls: Vec<&str> = msg
            .html_body
            .iter()
            .filter_map(|&id| match &msg.parts[id as usize].body {
                PartType::Html(h) => Some(h.as_ref()),
                _ => None,
            })
            .collect();
        if !has_text || htmls.is_empty() {
            continue;
        }
        let from_html = quote::strip(&normalise(
            &htmls.iter().map(|h| html::to_text(h)).collect::<String>(),
        ));
        assert_eq!(
            from_html,
            expected.trim(),
            "{}: the HTML alternative reads differently",
            eml.display()
        );
        checked += 1;
    }
    assert!(
        checked >= 5,
        "only {checked} messages with an HTML alternative"
    );
}

#[test]
fn a_huge_message_is_read_and_a_too_huge_one_refused() {
    let raw = huge_message(12 * 1024 * 1024);
    let mail = Incoming::parse(&raw).unwrap();
    assert_eq!(mail.orders_text, "GAME valkia SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 charge Nemedian Knights\nEND");
    assert_eq!(mail.attachments.len(), 1);
    assert!(
        mail.attachments[0].size > 6 * 1024 * 1024,
        "{:?}",
        mail.attachments
    );
    // How fast: benches/mail_parse.rs, "a 12 MB message".

    let raw = huge_message(MAX_MESSAGE_BYTES + 1);
    let err = Incoming::parse(&raw).unwrap_err();
    assert_eq!(err.kind(), "too-large");
    assert!(err.to_string().contains("over the limit"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// No byte string panics the reader.
    #[test]
    fn arbitrary_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(mail) = Incoming::parse(&raw) {
            let _ = mail.loop_hazard(UMPIRE);
        }
    }

    /// Truncated and corrupted corpus messages never panic the reader.
    #[test]
    fn damaged_corpus_messages_never_panic(index in 0usize..1000, cut in 0.0f64..1.0, flips in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 0..8)) {
        let files = corpus();
        let mut raw = fs::read(&files[index % files.len()]).unwrap();
        raw.truncate((raw.len() as f64 * cut) as usize + 1);
        for (at, byte) in flips {
            let i = ((raw.len() as f64) * at) as usize % raw.len().max(1);
            if let Some(b) = raw.get_mut(i) {
                *b = byte;
            }
        }
        if let Ok(mail) = Incoming::parse(&raw) {
            let _ = mail.loop_hazard(UMPIRE);
        }
    }

    /// Mail text parts of any content never panic quote stripping or HTML conversion.
    #[test]
    fn any_text_body_never_panics(body in "(?s).{0,400}") {
        let raw = format!("From: a@b.example\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{body}");
        let _ = Incoming::parse(raw.as_bytes());
        let raw = format!("From: a@b.example\r\n\r\n{body}");
        let _ = Incoming::parse(raw.as_bytes());
    }
}
