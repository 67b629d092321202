//! The whole accept/handle path under random mail, on a real SQLite file:
//! random subjects, bodies, headers, Message-IDs and MIME structures, from
//! players, the moderator, strangers and forgers, with right and wrong
//! passwords, commands with wild numbers and order lines of every kind.
//! For every message: no panic, accept returns, the message ends handled
//! (`done`, `refused`, `ignored`) — never left `new`, and never `failed`
//! (which is for bugs) — and a valid order mail afterwards is still answered.
//!
//! 20,000 messages by default (under a minute in a debug build); `UMPIRE_FUZZ_CASES=5000000 cargo test
//! --release --test post_fuzz` is the long run. The seed is printed on
//! failure, with the message that failed.

use crate::common;
use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const WORDS: &[&str] = &[
    "GAME",
    "ford",
    "SIDE",
    "aquilonia",
    "nemedia",
    "PASSWORD",
    "dragon7",
    "serpent3",
    "modpw",
    "MODERATOR",
    "TURN",
    "STATUS",
    "HELP",
    "RESEND",
    "HISTORY",
    "DEADLINE",
    "EXTEND",
    "FORCE",
    "HOLD",
    "ON",
    "OFF",
    "APPROVE",
    "REPLACE",
    "PAUSE",
    "RESUME",
    "END",
    "DICE",
    "UNLOCK",
    "Black",
    "Dragons",
    "Bossonian",
    "Archers",
    "Nemedian",
    "Knights",
    "Spearmen",
    "phase",
    "1",
    "2",
    "move",
    "full",
    "charge",
    "face",
    "left",
    "right",
    "90",
    "form",
    "column",
    "line",
    "hold",
    "evade",
    "fire",
    "at",
    "cast",
    "Wall",
    "of",
    "Fire",
    "(30,",
    "24)",
    "melee:dragons=4",
    "fire:boss:1=9",
    "2026-12-05",
    "20:00",
    "9999-12-31",
    "23:59",
    "999999",
    "-5",
    "0",
    "4294967296",
    "with",
    "breakthrough",
    "then",
    "wheel",
    ";",
    ":",
    "—",
    "é",
    "Приказы",
    "🗡",
    "\u{202e}",
    "CAMPAIGN",
    "POWER",
    "army",
    "--",
    ">",
    "#",
    "//",
    "\"",
    "'",
    "\t",
];

fn pick<'a>(rng: &mut ChaCha8Rng, items: &'a [&'a str]) -> &'a str {
    items[rng.random_range(0..items.len())]
}

fn random_text(rng: &mut ChaCha8Rng, max_words: usize) -> String {
    let mut s = String::new();
    for _ in 0..rng.random_range(0..=max_words) {
        match rng.random_range(0..20) {
            0 => s.push('\n'),
            1 => s.push(char::from_u32(rng.random_range(0..0x11000)).unwrap_or('?')),
            2 => s.push_str(&rng.random_range(0u64..10_000_000_000).to_string()),
            _ => s.push_str(pick(rng, WORDS)),
        }
        s.push(if rng.random_bool(0.85) { ' ' } else { '\n' });
    }
    s
}

fn header_line(rng: &mut ChaCha8Rng, who: Persona, game: &str) -> String {
    let game = if rng.random_bool(0.9) {
        game
    } else {
        pick(rng, WORDS)
    };
    let own = match who {
        Persona::Conan => Some(format!("GAME {game} SIDE aquilonia PASSWORD dragon7")),
        Persona::Tarascus => Some(format!("GAME {game} SIDE nemedia PASSWORD serpent3")),
        Persona::Moderator => Some(format!("MODERATOR {game} PASSWORD modpw")),
        Persona::Stranger | Persona::Forger => None,
    };
    match (rng.random_range(0..20), own) {
        (0..=15, Some(own)) => own,
        (0..=12, None) => format!("GAME {game} SIDE aquilonia PASSWORD dragon7"),
        (16, _) => format!(
            "GAME {game} SIDE {} PASSWORD {}",
            pick(rng, WORDS),
            pick(rng, WORDS)
        ),
        (17, _) => format!("GAME {game} SIDE aquilonia"),
        _ => random_text(rng, 6),
    }
}

fn body(rng: &mut ChaCha8Rng, who: Persona, game: &str) -> String {
    let mut b = String::new();
    if rng.random_bool(0.9) {
        b.push_str(&header_line(rng, who, game));
        b.push('\n');
    }
    for _ in 0..rng.random_range(0..6) {
        match rng.random_range(0..5) {
            0 => b.push_str(&format!(
                "{} {}",
                pick(
                    rng,
                    &["STATUS", "HELP", "FORCE", "RESUME", "HOLD OFF", "APPROVE", "RESEND"]
                ),
                random_text(rng, 1)
            )),
            1 => b.push_str(&format!(
                "{} {}",
                pick(
                    rng,
                    &["DEADLINE", "EXTEND", "HISTORY", "DICE", "REPLACE", "UNLOCK"]
                ),
                random_text(rng, 3)
            )),
            2 => b.push_str(&format!(
                "{}: phase {} {}",
                pick(
                    rng,
                    &[
                        "Black Dragons",
                        "Bossonian Archers",
                        "Nemedian Knights",
                        "Aquilonian Foot",
                        "Nobody"
                    ]
                ),
                rng.random_range(1..=2),
                random_text(rng, 5)
            )),
            _ => b.push_str(&random_text(rng, 12)),
        }
        b.push('\n');
    }
    if rng.random_bool(0.5) {
        b.push_str("END\n");
    }
    b
}

/// Who writes: a player, the moderator, a stranger or a forger.
#[derive(Clone, Copy)]
enum Persona {
    Conan,
    Tarascus,
    Moderator,
    Stranger,
    Forger,
}

fn persona(rng: &mut ChaCha8Rng) -> Persona {
    match rng.random_range(0..10) {
        0..=3 => Persona::Conan,
        4..=6 => Persona::Tarascus,
        7 => Persona::Moderator,
        8 => Persona::Stranger,
        _ => Persona::Forger,
    }
}

fn from(rng: &mut ChaCha8Rng, who: Persona) -> String {
    match who {
        Persona::Conan => format!("From: Conan <{CONAN}>"),
        Persona::Tarascus => format!("From: {TARASCUS}"),
        Persona::Moderator => format!("From: {MODERATOR}"),
        Persona::Stranger => format!("From: {}@{}.example", pick(rng, WORDS), pick(rng, WORDS)),
        Persona::Forger => match rng.random_range(0..3) {
            0 => format!("From: {CONAN}\r\nFrom: evil@evil.example"),
            1 => format!("From: <{CONAN}>@evil.example"),
            _ => format!("From: {}", random_text(rng, 3).replace(['\r', '\n'], " ")),
        },
    }
}

fn encode(rng: &mut ChaCha8Rng, text: &str) -> (String, String) {
    use base64::Engine as _;
    match rng.random_range(0..6) {
        0 => ("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64".into(), base64::engine::general_purpose::STANDARD.encode(text)),
        1 => ("Content-Type: text/html; charset=utf-8".into(), format!("<html><body><p>{}</p></body></html>", text.replace('\n', "<br>"))),
        2 => {
            let boundary = random_text(rng, 1).replace(['\r', '\n', ' ', '"'], "");
            (
                format!("Content-Type: multipart/alternative; boundary=\"b{boundary}\""),
                format!("--b{boundary}\r\nContent-Type: text/plain\r\n\r\n{text}\r\n--b{boundary}\r\nContent-Type: text/html\r\n\r\n<p>{text}</p>\r\n--b{boundary}--\r\n"),
            )
        }
        3 => (format!("Content-Type: {}", random_text(rng, 2).replace(['\r', '\n'], " ")), text.to_string()),
        4 => ("Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable".into(), text.replace('=', "=3D")),
        _ => ("Content-Type: text/plain; charset=utf-8".into(), text.to_string()),
    }
}

fn message(rng: &mut ChaCha8Rng, n: usize, game: &str) -> Vec<u8> {
    let who = persona(rng);
    let mut h = vec![from(rng, who)];
    match rng.random_range(0..6) {
        0 => {}
        1 => h.push(format!(
            "Message-ID: <{}>",
            random_text(rng, 2).replace(['\r', '\n'], "")
        )),
        2 => h.push(format!(
            "Message-ID: <dup{}@x.example>",
            rng.random_range(0..50)
        )),
        _ => h.push(format!("Message-ID: <fuzz{n}@x.example>")),
    }
    if rng.random_bool(0.7) {
        h.push(format!(
            "Subject: {}",
            random_text(rng, 4).replace(['\r', '\n'], " ")
        ));
    }
    if rng.random_bool(0.2) {
        h.push(format!(
            "References: <{}> <{}>",
            random_text(rng, 1).trim(),
            pick(rng, WORDS)
        ));
    }
    if rng.random_bool(0.05) {
        h.push("Auto-Submitted: auto-replied".into());
    }
    let text = body(rng, who, game);
    let (content_type, text) = encode(rng, &text);
    h.push(content_type);
    let mut raw = h.join("\r\n").into_bytes();
    raw.extend_from_slice(b"\r\n\r\n");
    raw.extend_from_slice(text.replace('\n', "\r\n").as_bytes());
    if rng.random_bool(0.01) {
        let len = raw.len();
        raw.truncate(rng.random_range(0..len));
    }
    if rng.random_bool(0.01) {
        raw.extend((0..rng.random_range(0..2000)).map(|_| rng.random::<u8>()));
    }
    raw
}

#[test]
fn any_mail_is_handled_and_never_stops_the_umpire() {
    let cases: usize = std::env::var("UMPIRE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let seed: u64 = std::env::var("UMPIRE_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(14);
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(dir.path());
    cfg.durability = umpire::store::Durability::Off;
    let mut po = umpire::post::PostOffice::open(cfg).unwrap();
    po.create_game(
        &umpire::post::gamefile::GameFile::load(&game_file(dir.path())).unwrap(),
        t0(),
    )
    .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The mail is for the newest game (a fresh one every 10,000 messages,
    // so a game the random moderator ended or paused does not end the run).
    let mut game = "ford".to_string();
    for n in 0..cases {
        let raw = message(&mut rng, n, &game);
        let now = t0() + chrono::Duration::seconds(n as i64);
        if let Err(e) = po.accept(&raw, "fuzz", now) {
            panic!(
                "seed {seed}, message {n}: accept failed: {e}\n{}",
                String::from_utf8_lossy(&raw)
            );
        }
        let left: i64 = po
            .store()
            .count("messages", "state IN ('new', 'failed')")
            .unwrap();
        if left > 0 {
            let note: String = po
                .store()
                .optional_string(
                    "SELECT coalesce(note, state) FROM messages WHERE state IN ('new', 'failed')",
                    [],
                )
                .unwrap()
                .unwrap_or_default();
            panic!(
                "seed {seed}, message {n} was left {note}:\n{}",
                String::from_utf8_lossy(&raw)
            );
        }
        if n % 10_000 == 9_999 {
            // A valid order mail to a fresh game is still answered.
            let id = format!("check{n}");
            let file = std::fs::read_to_string(game_file(dir.path()))
                .unwrap()
                .replace("id = \"ford\"", &format!("id = \"{id}\""));
            let path = dir.path().join(format!("{id}.toml"));
            std::fs::write(&path, file).unwrap();
            po.create_game(&umpire::post::gamefile::GameFile::load(&path).unwrap(), now)
                .unwrap();
            let orders = format!(
                "GAME {id} SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n"
            );
            let d = po
                .accept(
                    &mail(CONAN, &format!("check{n}@aquilonia.example"), &orders),
                    "fuzz",
                    now,
                )
                .unwrap();
            assert!(
                matches!(d, Some(umpire::post::Disposition::Orders { .. })),
                "seed {seed}: a valid mail after message {n}: {d:?}"
            );
            game = id;
        }
    }
    // The mail reached every depth: orders taken, refusals, ignored garbage.
    let share = |cond: &str| po.store().count("messages", cond).unwrap() as f64 / cases as f64;
    let (done, refused, ignored) = (
        share("state = 'done'"),
        share("state = 'refused'"),
        share("state = 'ignored'"),
    );
    if std::env::var("UMPIRE_FUZZ_STATS").is_ok() {
        let mut st = po.store().conn().prepare("SELECT substr(note, 1, 60), COUNT(*) FROM messages GROUP BY 1 ORDER BY 2 DESC LIMIT 25").unwrap();
        for (note, n) in st
            .query_map([], |r| {
                Ok((r.get::<_, Option<String>>(0)?, r.get::<_, i64>(1)?))
            })
            .unwrap()
            .map(Result::unwrap)
        {
            eprintln!("{n:6} {}", note.unwrap_or_default());
        }
    }
    let taken = po.store().count("submissions", "1").unwrap() as f64 / cases as f64;
    eprintln!(
        "{cases} messages: {:.0}% done ({:.0}% with orders taken), {:.0}% refused, {:.0}% ignored",
        done * 100.0,
        taken * 100.0,
        refused * 100.0,
        ignored * 100.0
    );
    assert!(
        done > 0.1 && taken > 0.05 && refused > 0.1 && ignored > 0.05,
        "the generator no longer reaches every path"
    );
}
