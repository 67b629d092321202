//! Helpers shared by the integration tests: a fresh store with the ready
//! scenario's game, and player mails as real RFC 5322 bytes.
#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use std::path::{Path, PathBuf};
use umpire::config::Config;
use umpire::post::{gamefile::GameFile, PostOffice};

pub const CONAN: &str = "conan@aquilonia.example";
pub const TARASCUS: &str = "tarascus@nemedia.example";
pub const MODERATOR: &str = "moderator@club.example";
pub const UMPIRE: &str = "umpire@club.example";

pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap()
}

/// Write a game file for the ready scenario into `dir` and return its path.
pub fn game_file(dir: &Path) -> PathBuf {
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/scenarios/river-crossing.toml");
    let text = format!(
        r#"id = "ford"
title = "The Ford"
scenario = "{}"
first_deadline = "2026-12-03 20:00"
turn_hours = 48
reminder_hours = 24

[moderator]
address = "{MODERATOR}"
password = "modpw"

[[side]]
id = "aquilonia"
address = "{CONAN}"
password = "dragon7"

[[side]]
id = "nemedia"
address = "{TARASCUS}"
password = "serpent3"
"#,
        scenario.display()
    );
    let path = dir.join("game.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// [`game_file`] with its first deadline far ahead, for tests where the
/// real clock runs (the real binary, a service loop).
pub fn game_file_ahead(dir: &Path) -> PathBuf {
    let path = game_file(dir);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("2026-12-03 20:00", "2099-01-01 00:00")).unwrap();
    path
}

pub const CLOVIS: &str = "clovis@franks.example";
pub const SYAGRIUS: &str = "syagrius@soissons.example";

/// Write a game file of Soissons (Furor Barbarus) into `dir` and return its path.
pub fn soissons_file(dir: &Path) -> PathBuf {
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/campaigns/furor-barbarus/scenarios/soissons.toml"
    );
    let text = format!(
        "ruleset = \"furor-barbarus\"\nid = \"soissons\"\ntitle = \"Soissons, 486\"\nscenario = \"{scenario}\"\n\
         first_deadline = \"2026-12-03 20:00\"\nturn_hours = 48\n\n[moderator]\naddress = \"{MODERATOR}\"\npassword = \"modpw\"\n\n\
         [[side]]\nid = \"franks\"\naddress = \"{CLOVIS}\"\npassword = \"clovis1\"\n\n\
         [[side]]\nid = \"gallo-romans\"\naddress = \"{SYAGRIUS}\"\npassword = \"syag2\"\n"
    );
    let path = dir.join("soissons.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// The configuration for a store in `dir` (spool outbox, no servers).
pub fn config(dir: &Path) -> Config {
    let mut c = Config {
        database: dir.join("umpire.sqlite"),
        address: UMPIRE.into(),
        ..Config::default()
    };
    c.spool.outbox = dir.join("outbox");
    c.spool.inbox = dir.join("inbox");
    c
}

/// A post office in `dir` with the game 'ford' created.
pub fn office_with_game(dir: &Path) -> PostOffice {
    office_with_options(dir, "")
}

/// A post office in `dir` with the game 'ford' created under these house
/// rules (the lines of the game file's `[options]`).
pub fn office_with_options(dir: &Path, options: &str) -> PostOffice {
    let mut po = PostOffice::open(config(dir)).unwrap();
    let path = game_file(dir);
    if !options.is_empty() {
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            format!(
                "{text}
[options]
{options}
"
            ),
        )
        .unwrap();
    }
    po.create_game(&GameFile::load(&path).unwrap(), t0())
        .unwrap();
    po
}

/// A plain player mail.
pub fn mail(from: &str, message_id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Player <{from}>\r\nTo: {UMPIRE}\r\nSubject: orders\r\nMessage-ID: <{message_id}>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Every outbox row: (kind, recipients, raw text), its bytes as sent.
pub fn outbox(po: &PostOffice) -> Vec<(String, String, String)> {
    let conn = po.store().conn();
    let rows: Vec<(i64, String, String)> = conn
        .prepare("SELECT id, kind, recipients FROM outbox ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let raws = umpire::store::outbox::bodies(conn, &ids).unwrap();
    rows.into_iter()
        .zip(raws)
        .map(|((_, kind, to), raw)| (kind, to, String::from_utf8_lossy(&raw).into_owned()))
        .collect()
}

/// The decoded text of a raw message (for checking what a player reads).
pub fn body_text(raw: &str) -> String {
    let m = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap();
    // Line ends as a reader sees them (mail goes out with CRLF).
    m.body_text(0)
        .map(|t| t.replace("\r\n", "\n"))
        .unwrap_or_default()
}

/// A mail's HTML part (mail_parser makes one from the text when it has none).
pub fn body_html(raw: &str) -> String {
    let m = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap();
    m.body_html(0).map(|t| t.into_owned()).unwrap_or_default()
}

/// The verification bundle a report mail attaches (`umpire-verify-….json`):
/// its file name and bytes.
pub fn bundle_attached(raw: &str) -> Option<(String, Vec<u8>)> {
    use mail_parser::MimeHeaders;
    let m = mail_parser::MessageParser::default().parse(raw.as_bytes())?;
    let found = m.attachments().find_map(|a| {
        let name = a.attachment_name()?;
        (name.starts_with("umpire-verify-") && name.ends_with(".json"))
            .then(|| (name.to_string(), a.contents().to_vec()))
    });
    found
}

/// Every released report to `to` verifies from its attached bundle alone,
/// as a player would run it; returns how many were checked.
pub fn every_bundle_verifies(po: &PostOffice, to: &str) -> usize {
    let mut n = 0;
    for (kind, rcpt, raw) in outbox(po) {
        if kind != "report" || rcpt != to {
            continue;
        }
        let (name, bytes) = bundle_attached(&raw).expect("every report attaches its bundle");
        let (text, ok) =
            umpire::post::verify_bundle(&bytes).unwrap_or_else(|e| panic!("{name} refused: {e}"));
        assert!(ok, "{name}: {text}");
        assert!(text.contains("Verdict: everything matches"), "{text}");
        n += 1;
    }
    n
}

/// Scripted dice for tests about something other than morale: any morale
/// test the script does not give passes (a roll of 1), every other key
/// must be scripted as usual.
pub struct SteadyDice(pub umpire::games::hyborian::dice::ScriptedDice);

impl SteadyDice {
    pub fn new(values: std::collections::BTreeMap<String, u8>) -> Self {
        SteadyDice(umpire::games::hyborian::dice::ScriptedDice::new(values))
    }
}

impl umpire::dice::Dice for SteadyDice {
    fn roll_die(
        &mut self,
        key: &str,
        die: umpire::dice::DieKind,
    ) -> Result<u8, umpire::dice::DiceError> {
        match self.0.roll_die(key, die) {
            Err(umpire::dice::DiceError::Missing { .. }) if key.starts_with("morale:") => Ok(1),
            other => other,
        }
    }
}

/// The real binary, run on the configuration in `dir`, quiet.
pub fn umpire_in(dir: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"));
    c.arg("--config")
        .arg(dir.join("umpire.toml"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    c
}

/// One number from the store in `dir` (a `SELECT COUNT(*)`).
pub fn count_in(dir: &Path, sql: &str) -> i64 {
    let c = rusqlite::Connection::open(dir.join("umpire.sqlite")).unwrap();
    c.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Run `umpire ARGS` in `dir`, `kill -9` it at a random moment (5–80 ms,
/// widened by `widen_ms` with each kill) and start it again, until a run
/// finishes by itself; it must succeed. Returns how many runs were killed.
pub fn killed_repeatedly(
    dir: &Path,
    args: &[&str],
    rng: &mut impl rand::Rng,
    widen_ms: u64,
) -> usize {
    let mut kills = 0;
    loop {
        let mut child = umpire_in(dir).args(args).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(
            rng.random_range(5..80) + widen_ms * kills as u64,
        ));
        match child.try_wait().unwrap() {
            Some(status) => {
                assert!(status.success(), "{args:?} failed: {status}");
                return kills;
            }
            None => {
                child.kill().unwrap(); // SIGKILL
                child.wait().unwrap();
                kills += 1;
            }
        }
    }
}

/// An `umpire.toml` in `dir` (spool folders, no mail servers) and game
/// 'ford' created by the real binary, with its deadlines far ahead (the
/// real clock runs) and enough turns that the battle does not end under a
/// test, so only complete turns are played.
pub fn spool_game(dir: &Path) {
    std::fs::write(
        dir.join("umpire.toml"),
        "database = \"umpire.sqlite\"\naddress = \"umpire@club.example\"\n[spool]\noutbox = \"outbox\"\ninbox = \"inbox\"\n",
    )
    .unwrap();
    let gf = game_file(dir);
    let text = std::fs::read_to_string(&gf)
        .unwrap()
        .replace("2026-12-03 20:00", "2099-01-01 00:00")
        .replace("turn_hours = 48", "turn_hours = 48\nmax_turns = 100");
    std::fs::write(&gf, text).unwrap();
    assert!(umpire_in(dir)
        .args(["game", "new"])
        .arg(&gf)
        .status()
        .unwrap()
        .success());
}

/// The outbox's rows after the first `from`, as a reader receives them:
/// for each mail its kind, recipients, subject, whether it answers a mail,
/// the text part, and a digest of its HTML part and of each attachment (so
/// a snapshot of them holds every byte a user sees). Message-IDs, which
/// carry the store's random installation key, are left out.
pub fn letters(po: &PostOffice, from: usize) -> String {
    use mail_parser::MimeHeaders;
    use sha2::Digest;
    let short = |b: &[u8]| hex::encode(&sha2::Sha256::digest(b)[..6]);
    let mut out = String::new();
    for (i, (kind, to, raw)) in outbox(po).into_iter().enumerate().skip(from) {
        let m = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap();
        out.push_str(&format!(
            "══ {} · {kind} → {to}\nSubject: {}\n",
            i + 1,
            m.subject().unwrap_or("")
        ));
        if m.in_reply_to().as_text().is_some() {
            out.push_str("In reply to the mail it answers\n");
        }
        if let Some(html) = m.html_part(0).filter(|p| p.is_text_html()) {
            out.push_str(&format!("HTML part: {}\n", short(html.contents())));
        }
        for a in m.attachments() {
            out.push_str(&format!(
                "Attached: {} ({} bytes, {})\n",
                a.attachment_name().unwrap_or("(no name)"),
                a.contents().len(),
                short(a.contents())
            ));
        }
        out.push('\n');
        out.push_str(&body_text(&raw));
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// How many mails the outbox holds now (where [`letters`] starts next).
pub fn sent_so_far(po: &PostOffice) -> usize {
    outbox(po).len()
}

/// `umpire demo`'s summary names, for each of `wanted`, the mail that
/// shows it (found in the demo's mails in `dir`), and no moment goes
/// unshown.
pub fn demo_shows(dir: &std::path::Path, game: umpire::demo::Game, summary: &str, wanted: &[&str]) {
    let shown = umpire::demo::moments(dir, game).unwrap();
    for w in wanted {
        let s = shown
            .iter()
            .find(|s| s.moment.contains(w))
            .unwrap_or_else(|| panic!("the demo names no moment '{w}'"));
        let mail = s
            .mail
            .as_ref()
            .unwrap_or_else(|| panic!("no mail shows {}:\n{summary}", s.moment));
        assert!(
            summary.contains(&mail.path.display().to_string()),
            "{}: {} to {}\n{summary}",
            s.moment,
            mail.subject,
            mail.to
        );
    }
    assert!(!summary.contains("shown by no mail"), "{summary}");
}
