//! Against real mail servers on 127.0.0.1 (started by scripts/test:
//! aiosmtpd for SMTP, dovecot for IMAP, both on one Maildir): a real
//! client (swaks) mails orders in, `umpire poll` fetches them over IMAP,
//! `umpire send` answers over SMTP, and the confirmation arrives back.

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run the tests with scripts/test, which starts the mail servers")
    })
}

fn wait_for(maildir: &Path, needle: &str) -> Option<String> {
    for _ in 0..100 {
        for sub in ["new", "cur"] {
            if let Ok(rd) = std::fs::read_dir(maildir.join(sub)) {
                for e in rd.flatten() {
                    let text = String::from_utf8_lossy(&std::fs::read(e.path()).unwrap_or_default()).into_owned();
                    if text.contains(needle) {
                        return Some(text);
                    }
                }
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    None
}

#[test]
fn orders_by_smtp_fetched_by_imap_confirmed_by_smtp() {
    let smtp = env("UMPIRE_TEST_SMTP");
    let imap = env("UMPIRE_TEST_IMAP");
    let maildir = std::path::PathBuf::from(env("UMPIRE_TEST_MAILDIR"));
    let (smtp_host, smtp_port) = smtp.split_once(':').unwrap();
    let (imap_host, imap_port) = imap.split_once(':').unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("umpire.toml"),
        format!(
            "database = \"umpire.sqlite\"\naddress = \"{UMPIRE}\"\n\
             [smtp]\nhost = \"{smtp_host}\"\nport = {smtp_port}\nsecurity = \"none\"\n\
             [imap]\nhost = \"{imap_host}\"\nport = {imap_port}\nsecurity = \"none\"\nusername = \"umpire\"\npassword = \"secret\"\n"
        ),
    )
    .unwrap();
    let umpire = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .arg("--config")
            .arg(d.join("umpire.toml"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "umpire {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The real clock runs here: a first deadline far ahead.
    let gf = game_file(d);
    std::fs::write(&gf, std::fs::read_to_string(&gf).unwrap().replace("2026-12-03 20:00", "2099-01-01 00:00")).unwrap();
    umpire(&["game", "new", gf.to_str().unwrap()]);
    umpire(&["send"]);
    assert!(wait_for(&maildir, "Your password: dragon7").is_some(), "welcome delivered over SMTP");

    // A unique marker so reruns against the same Maildir do not confuse us.
    let marker = format!("run{}", std::process::id());
    let swaks = Command::new("swaks")
        .args(["--server", &smtp, "--from", CONAN, "--to", UMPIRE])
        .args(["--header", &format!("Subject: orders {marker}")])
        .args(["--body", "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n"])
        .output()
        .expect("swaks is installed by .ci/run");
    assert!(swaks.status.success(), "{}", String::from_utf8_lossy(&swaks.stdout));
    wait_for(&maildir, &marker).expect("orders delivered to the mailbox");

    let polled = umpire(&["poll"]);
    assert!(!polled.starts_with("0 "), "poll fetched the orders: {polled}");
    umpire(&["send"]);
    let reply = wait_for(&maildir, &format!("Subject: Re: orders {marker}")).expect("confirmation delivered");
    assert!(reply.contains(&format!("To: {CONAN}")) || reply.contains(CONAN));
    let text = body_text(&reply);
    assert!(text.contains("orders for aquilonia received"), "{text}");
    // Polling again fetches nothing new and answers nothing twice.
    umpire(&["poll"]);
    let c = rusqlite::Connection::open(d.join("umpire.sqlite")).unwrap();
    let confirmations: i64 = c
        .query_row("SELECT COUNT(*) FROM outbox WHERE kind = 'confirmation'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(confirmations, 1);
}
