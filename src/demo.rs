//! `umpire demo`: a whole game played through the local spool, so a
//! newcomer sees every kind of mail umpire sends without a mail server.
//!
//! The demo writes a configuration, the ready scenario and a game file into
//! a fresh folder, creates the game, then for each turn drops both players'
//! order mails into the spool Maildir and runs the same round as
//! `umpire run --once` on a simulated clock. Among the mails are a typo
//! (answered with a suggestion), a STATUS request, and a spoofed message
//! with a wrong password (refused to the registered address).

use crate::config::Config;
use crate::mail::compose::Outgoing;
use crate::post::{gamefile::GameFile, serve, PostError, PostOffice};
use chrono::{DateTime, Duration, TimeZone, Utc};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::AtomicBool;

const SCENARIO: &str = include_str!("../campaigns/scenarios/river-crossing.toml");

const GAME: &str = r#"id = "ford"
title = "The Ford of the Tybor"
scenario = "river-crossing.toml"
timezone = "UTC"
first_deadline = "2026-12-03 20:00"
turn_hours = 48
max_turns = 4

[moderator]
address = "moderator@club.example"
password = "demo-moderator"

[[side]]
id = "aquilonia"
address = "conan@aquilonia.example"
password = "dragon7"

[[side]]
id = "nemedia"
address = "tarascus@nemedia.example"
password = "serpent3"
"#;

/// One scripted player mail: (from, body).
fn script(turn: u32) -> Vec<(&'static str, String)> {
    let a = "conan@aquilonia.example";
    let n = "tarascus@nemedia.example";
    let ha = format!("GAME ford SIDE aquilonia PASSWORD dragon7 TURN {turn}\n");
    let hn = format!("GAME ford SIDE nemedia PASSWORD serpent3 TURN {turn}\n");
    match turn {
        1 => vec![
            (n, format!("{hn}Nemedian Knigts: phase 1 move 6\nNemedian Spearmen: phase 1 move full\nEND\n")),
            ("spy@zamora.example", "GAME ford SIDE nemedia PASSWORD guess\nNemedian Knights: phase 1 move full\nEND\n".into()),
            (n, format!("{hn}STATUS\nNemedian Knights: phase 1 move 6\nNemedian Adventurers: phase 1 move 8\nNemedian Spearmen: phase 1 move full\nEND\n")),
            (a, format!("{ha}Black Dragons: phase 1 move full\nBossonian Archers: phase 1 move 4\nAquilonian Foot: phase 1 move full\nEND\n")),
        ],
        2 => vec![
            (a, format!("{ha}Black Dragons: phase 1 move 6\nBossonian Archers: phase 1 hold\nAquilonian Foot: phase 1 move full\nEND\n")),
            (n, format!("{hn}Nemedian Knights: phase 1 move 6\nNemedian Spearmen: phase 1 form column 4 wide\nEND\n")),
        ],
        _ => vec![
            (a, format!("{ha}Black Dragons: phase 1 charge Nemedian Knights\nEND\n")),
            (n, format!("{hn}Nemedian Knights: phase 1 charge Black Dragons\nEND\n")),
        ],
    }
}

fn player_mail(from: &str, to: &str, subject: &str, body: String, n: usize, now: DateTime<Utc>) -> Result<Vec<u8>, PostError> {
    let mail = Outgoing {
        from: from.to_string(),
        to: vec![to.to_string()],
        subject: subject.to_string(),
        text: body,
        html: None,
        inline_images: Vec::new(),
        attachments: Vec::new(),
        in_reply_to: None,
        references: Vec::new(),
        // A player's own mail: no Auto-Submitted header.
        auto_submitted: crate::mail::compose::AutoSubmitted::No,
    };
    let domain = from.rsplit('@').next().unwrap_or("example");
    mail.to_rfc5322(&crate::mail::compose::new_message_id(domain, &format!("demo.{n}")), now)
        .map_err(|e| PostError::Transport(e.to_string()))
}

/// Play the demo in `dir` and say where everything is.
///
/// # Errors
/// When `dir` is not empty, or on any store or file error.
pub fn run(dir: &Path) -> Result<String, PostError> {
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    if dir.exists() && std::fs::read_dir(dir).map_err(io)?.next().is_some() {
        return Err(PostError::Transport(format!(
            "{} is not empty; give the demo a fresh folder with --dir",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir.join("inbox/new")).map_err(io)?;
    std::fs::write(dir.join("river-crossing.toml"), SCENARIO).map_err(io)?;
    std::fs::write(dir.join("game.toml"), GAME).map_err(io)?;
    std::fs::write(
        dir.join("umpire.toml"),
        "database = \"umpire.sqlite\"\naddress = \"umpire@club.example\"\npoll_seconds = 1\n\n[spool]\noutbox = \"outbox\"\ninbox = \"inbox\"\n",
    )
    .map_err(io)?;
    let config = Config::load(&dir.join("umpire.toml")).map_err(|e| PostError::Transport(e.to_string()))?;
    let umpire_address = config.address.clone();
    let mut po = PostOffice::open(config)?;
    let mut now = Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).single().unwrap_or_else(Utc::now);
    po.create_game(&GameFile::load(&dir.join("game.toml"))?, now)?;
    let stop = AtomicBool::new(false);
    serve(&mut po, &stop, true, || now)?;
    let mut n = 0;
    for turn in 1..=4 {
        now += Duration::hours(2);
        for (from, body) in script(turn) {
            n += 1;
            let raw = player_mail(from, &umpire_address, &format!("Orders for turn {turn}"), body, n, now)?;
            std::fs::write(dir.join(format!("inbox/new/{n:04}.demo")), raw).map_err(io)?;
            now += Duration::minutes(5);
            serve(&mut po, &stop, true, || now)?;
        }
        now += Duration::hours(46);
    }
    let mut out = String::new();
    let outbox = dir.join("outbox");
    let mut files: Vec<_> = std::fs::read_dir(&outbox).map_err(io)?.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.sort();
    let _ = writeln!(out, "The demo game 'ford' was played in {}.", dir.display());
    let _ = writeln!(out, "  store:          {}", dir.join("umpire.sqlite").display());
    let _ = writeln!(out, "  player mails:   {} (read from the spool Maildir)", dir.join("inbox/cur").display());
    let _ = writeln!(out, "  umpire's mails: {} ({} .eml files: welcomes, confirmations, a refusal, reports)", outbox.display(), files.len());
    for kind in ["report", "confirmation", "refusal", "welcome"] {
        // Spool files are named after their Message-ID: umpire.KIND.….eml
        if let Some(f) = files.iter().find(|f| f.file_name().is_some_and(|n| n.to_string_lossy().contains(&format!(".{kind}.")))) {
            let _ = writeln!(out, "  e.g. a {kind}: {}", f.display());
        }
    }
    Ok(out)
}
