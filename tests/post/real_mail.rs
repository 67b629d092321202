//! Against real mail servers on 127.0.0.1 (started by scripts/test:
//! aiosmtpd for SMTP, dovecot for IMAP, both on one Maildir): a real
//! client (swaks) mails orders in, `umpire poll` fetches them over IMAP,
//! `umpire send` answers over SMTP, and the confirmation arrives back.

use crate::common;
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
                    let text =
                        String::from_utf8_lossy(&std::fs::read(e.path()).unwrap_or_default())
                            .into_owned();
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
#[ignore = "needs the test mail servers on 127.0.0.1: run scripts/test (the README's test command)"]
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
        assert!(
            out.status.success(),
            "umpire {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The real clock runs here: a first deadline far ahead.
    let gf = game_file_ahead(d);
    umpire(&["game", "new", gf.to_str().unwrap()]);
    umpire(&["send"]);
    assert!(
        wait_for(&maildir, "Your password: dragon7").is_some(),
        "welcome delivered over SMTP"
    );

    // A unique marker so reruns against the same Maildir do not confuse us.
    let marker = format!("run{}", std::process::id());
    let swaks = Command::new("swaks")
        .args(["--server", &smtp, "--from", CONAN, "--to", UMPIRE])
        .args(["--header", &format!("Subject: orders {marker}")])
        .args([
            "--body",
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
        ])
        .output()
        .expect("swaks is installed by .ci/run");
    assert!(
        swaks.status.success(),
        "{}",
        String::from_utf8_lossy(&swaks.stdout)
    );
    wait_for(&maildir, &marker).expect("orders delivered to the mailbox");

    let polled = umpire(&["poll"]);
    assert!(
        !polled.starts_with("0 "),
        "poll fetched the orders: {polled}"
    );
    umpire(&["send"]);
    let reply = wait_for(&maildir, &format!("Subject: Re: orders {marker}"))
        .expect("confirmation delivered");
    assert!(reply.contains(&format!("To: {CONAN}")) || reply.contains(CONAN));
    let text = body_text(&reply);
    assert!(text.contains("orders for aquilonia received"), "{text}");
    // Polling again fetches nothing new and answers nothing twice.
    umpire(&["poll"]);
    let c = rusqlite::Connection::open(d.join("umpire.sqlite")).unwrap();
    let confirmations: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM outbox WHERE kind = 'confirmation'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(confirmations, 1);
}

/// How many delivered files in `maildir` carry each of `ids` as their Message-ID.
fn deliveries(maildir: &Path, ids: &[String]) -> std::collections::BTreeMap<String, usize> {
    let mut seen: std::collections::BTreeMap<String, usize> =
        ids.iter().map(|id| (id.clone(), 0)).collect();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(maildir.join(sub))
            .into_iter()
            .flatten()
            .flatten()
        {
            let text =
                String::from_utf8_lossy(&std::fs::read(e.path()).unwrap_or_default()).into_owned();
            // Only the header: up to the first empty line.
            for line in text.lines().take_while(|l| !l.trim().is_empty()) {
                let Some(value) = line
                    .strip_prefix("Message-ID:")
                    .or_else(|| line.strip_prefix("Message-Id:"))
                else {
                    continue;
                };
                if let Some(n) =
                    seen.get_mut(value.trim().trim_start_matches('<').trim_end_matches('>'))
                {
                    *n += 1;
                }
            }
        }
    }
    seen
}

/// Fill the outbox of the store in `d` with `n` more confirmations: order
/// mails ingested from a Maildir (the spool is not used: `[smtp]` is set).
fn queue_confirmations(d: &Path, n: usize, tag: &str) {
    let inbox = d.join(format!("inbox-{tag}"));
    std::fs::create_dir_all(inbox.join("new")).unwrap();
    for i in 0..n {
        let m = mail(
            CONAN,
            &format!("{tag}-{i}@aquilonia.example"),
            "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 hold\nEND\n",
        );
        std::fs::write(inbox.join(format!("new/{i:04}.m")), m).unwrap();
    }
    assert!(umpire_in(d)
        .args(["ingest", "--maildir"])
        .arg(&inbox)
        .status()
        .unwrap()
        .success());
}

/// Start `k` `umpire send` at once; each must succeed. Returns what each sent.
fn senders_at_once(d: &Path, k: usize) -> Vec<usize> {
    let children: Vec<_> = (0..k)
        .map(|_| {
            umpire_in(d)
                .arg("send")
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success(), "umpire send failed");
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("umpire send said: {text}"))
        })
        .collect()
}

#[test]
#[ignore = "needs the test mail servers on 127.0.0.1: run scripts/test (the README's test command)"]
fn two_and_three_senders_at_once_over_smtp_deliver_every_row_once() {
    let smtp = env("UMPIRE_TEST_SMTP");
    let maildir = std::path::PathBuf::from(env("UMPIRE_TEST_MAILDIR"));
    let (host, port) = smtp.split_once(':').unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("umpire.toml"),
        format!("database = \"umpire.sqlite\"\naddress = \"{UMPIRE}\"\n[smtp]\nhost = \"{host}\"\nport = {port}\nsecurity = \"none\"\n"),
    )
    .unwrap();
    let gf = game_file_ahead(d);
    assert!(umpire_in(d)
        .args(["game", "new"])
        .arg(&gf)
        .status()
        .unwrap()
        .success());
    let ids = |d: &Path| -> Vec<String> {
        let c = rusqlite::Connection::open(d.join("umpire.sqlite")).unwrap();
        let mut st = c
            .prepare("SELECT message_id FROM outbox ORDER BY id")
            .unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    // Enough rows that each sender claims several batches (`post::outbox`
    // claims 32 at a time) while the others are still at work.
    for (k, more) in [(2, 200), (3, 300)] {
        queue_confirmations(d, more, &format!("k{k}"));
        let due = count_in(d, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL") as usize;
        assert!(due >= more, "{due} rows due");
        let sent = senders_at_once(d, k);
        eprintln!("{k} senders at once sent {sent:?} of {due} rows");
        assert_eq!(
            sent.iter().sum::<usize>(),
            due,
            "each row sent by exactly one sender"
        );
        assert!(
            sent.iter().all(|&n| n > 0),
            "the senders overlapped: {sent:?}"
        );
        assert_eq!(
            count_in(d, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
            0
        );
        let delivered = deliveries(&maildir, &ids(d));
        let wrong: Vec<_> = delivered.iter().filter(|(_, &n)| n != 1).collect();
        assert!(
            wrong.is_empty(),
            "{k} senders: rows not delivered exactly once: {wrong:?}"
        );
    }
}
