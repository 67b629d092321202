//! A club's first days with the real binary (issue 43): `umpire run` on a
//! fresh directory, configured paths that are wrong, and exit statuses a
//! cron job can trust.

use crate::common;
use common::*;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The real binary on `dir`'s umpire.toml, its output kept.
fn umpire_output(dir: &Path, args: &[&str]) -> Output {
    umpire_in(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Wait up to `tenths` tenths of a second for `ready`.
fn within(tenths: u32, ready: impl Fn() -> bool) -> bool {
    (0..tenths).any(|_| {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
        false
    })
}

/// A spool file whose name says it is a `kind` (the outbox key's kind).
fn spooled(folder: &Path, kind: &str) -> bool {
    std::fs::read_dir(folder)
        .map(|rd| {
            rd.flatten()
                .any(|e| e.file_name().to_string_lossy().contains(kind))
        })
        .unwrap_or(false)
}

/// Stop a running `umpire run` as systemd would, and see it stop cleanly.
fn stop(mut child: std::process::Child) {
    assert!(Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap()
        .success());
    let stopped = (0..50).find_map(|_| {
        std::thread::sleep(Duration::from_millis(100));
        child.try_wait().unwrap()
    });
    let status = stopped.expect("umpire run did not stop within 5 s of SIGTERM");
    assert!(status.success(), "{status}");
}

#[test]
fn a_first_run_on_a_fresh_directory_makes_its_spool_and_answers_a_mailed_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // As the README's first steps: an umpire.toml without [spool], [smtp]
    // or [imap] (the default spool/in and spool/out), then a game.
    std::fs::write(
        d.join("umpire.toml"),
        format!("address = \"{UMPIRE}\"\npoll_seconds = 1\n"),
    )
    .unwrap();
    let gf = game_file_ahead(d);
    let made = umpire_output(d, &["game", "new", &gf.to_string_lossy()]);
    assert!(made.status.success(), "{made:?}");
    assert!(
        !d.join("spool").exists(),
        "nothing made the spool before run"
    );
    let child = umpire_in(d).arg("run").spawn().unwrap();
    let maildir = d.join("spool/in");
    assert!(
        within(100, || maildir.join("new").is_dir()),
        "umpire run made no spool Maildir"
    );
    for sub in ["cur", "tmp"] {
        assert!(maildir.join(sub).is_dir(), "no spool/in/{sub}");
    }
    // Delivered as a Maildir is: written in tmp/, renamed into new/.
    let order = mail(
        CONAN,
        "first-run@aquilonia.example",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 hold\nEND\n",
    );
    std::fs::write(maildir.join("tmp/1.order"), order).unwrap();
    std::fs::rename(maildir.join("tmp/1.order"), maildir.join("new/1.order")).unwrap();
    let out = d.join("spool/out");
    assert!(
        within(150, || spooled(&out, "confirmation")),
        "umpire run did not answer the order dropped in its spool"
    );
    assert!(spooled(&out, "welcome"), "the welcomes went out too");
    stop(child);
    assert!(
        maildir.join("cur").read_dir().unwrap().count() == 1,
        "the order was marked seen"
    );
}

#[test]
fn run_says_before_it_starts_which_spool_path_is_wrong_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("umpire.toml"),
        format!("address = \"{UMPIRE}\"\npoll_seconds = 1\n"),
    )
    .unwrap();
    std::fs::create_dir_all(d.join("spool")).unwrap();
    std::fs::write(d.join("spool/in"), "not a Maildir").unwrap();
    let run = umpire_output(d, &["run"]);
    assert!(!run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stderr);
    let inbox = d.join("spool/in").display().to_string();
    assert!(
        said.contains(&format!("the spool inbox {inbox} is not usable"))
            && said.contains(&format!("{inbox} is a file, not a folder"))
            && said.contains("set inbox under [spool] in umpire.toml"),
        "{said}"
    );
    // The outbox's turn: the inbox is fine now, the outbox is a file.
    std::fs::remove_file(d.join("spool/in")).unwrap();
    std::fs::remove_dir_all(d.join("spool/out")).unwrap();
    std::fs::write(d.join("spool/out"), "not a folder").unwrap();
    let run = umpire_output(d, &["run", "--once"]);
    assert!(!run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(
        said.contains("the spool outbox") && said.contains("is a file, not a folder"),
        "{said}"
    );
}

/// An umpire.toml of the spool alone (`[spool]` in `inbox` and `outbox`),
/// read every second, and the game file of 'ford' with its deadline far
/// ahead, written with `id` and no passwords (umpire makes them).
fn spool_config_and_game(d: &Path, id: &str) -> std::path::PathBuf {
    std::fs::write(
        d.join("umpire.toml"),
        format!("address = \"{UMPIRE}\"\npoll_seconds = 1\n[spool]\ninbox = \"inbox\"\noutbox = \"outbox\"\n"),
    )
    .unwrap();
    let text = std::fs::read_to_string(game_file_ahead(d))
        .unwrap()
        .replace("id = \"ford\"", &format!("id = \"{id}\""))
        .lines()
        .filter(|l| !l.starts_with("password"))
        .collect::<Vec<_>>()
        .join("\n");
    let path = d.join(format!("{id}.toml"));
    std::fs::write(&path, text).unwrap();
    let made = umpire_output(d, &["game", "new", &path.to_string_lossy()]);
    assert!(made.status.success(), "{made:?}");
    path
}

/// Spoil game `id`'s stored deadline, as a disk error or a hand edit would.
fn damage_deadline(d: &Path, id: &str) {
    let c = rusqlite::Connection::open(d.join("umpire.sqlite")).unwrap();
    let n = c
        .execute("UPDATE games SET deadline = 'garbage' WHERE id = ?1", [id])
        .unwrap();
    assert_eq!(n, 1);
}

/// A message's state in the store.
fn state_of(d: &Path, message_id: &str) -> String {
    let c = rusqlite::Connection::open(d.join("umpire.sqlite")).unwrap();
    c.query_row(
        "SELECT state FROM messages WHERE message_id = ?1",
        [message_id],
        |r| r.get(0),
    )
    .unwrap()
}

/// `umpire ingest` with `raw` on its standard input.
fn ingest(d: &Path, raw: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = umpire_in(d)
        .arg("ingest")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(raw).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_game_whose_deadline_cannot_be_read_is_set_aside_and_the_others_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    spool_config_and_game(d, "ford2");
    damage_deadline(d, "ford");
    // doctor names it at once, before any round has tried it.
    let doctor = umpire_output(d, &["doctor"]);
    let said = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        said.contains("game ford: ")
            && said.contains("its deadline 'garbage' is not a time")
            && said.contains("umpire retry ford")
            && !said.contains("Nothing has failed"),
        "{said}"
    );
    std::fs::create_dir_all(d.join("inbox/new")).unwrap();
    for (n, game) in [(1, "ford"), (2, "ford2")] {
        // ford2's passwords are made: the order is refused, but answered.
        std::fs::write(
            d.join(format!("inbox/new/{n}.m")),
            mail(
                CONAN,
                &format!("order-{game}@aquilonia.example"),
                &format!(
                    "GAME {game} SIDE aquilonia PASSWORD wrong\nBlack Dragons: phase 1 hold\nEND\n"
                ),
            ),
        )
        .unwrap();
    }
    let run = umpire_output(d, &["run", "--once"]);
    assert!(
        run.status.success(),
        "one damaged game stopped the service: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(state_of(d, "order-ford@aquilonia.example"), "failed");
    assert_eq!(state_of(d, "order-ford2@aquilonia.example"), "refused");
    assert!(
        spooled(&d.join("outbox"), "refusal"),
        "ford2's mail answered"
    );
    assert!(
        spooled(&d.join("outbox"), "notice"),
        "ford's moderator told"
    );
    let doctor = umpire_output(d, &["doctor"]);
    let said = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        said.contains("game ford: ") && said.contains("its deadline 'garbage' is not a time"),
        "{said}"
    );
    assert!(!said.contains("game ford2"), "{said}");
    // A second round passes the game set aside by.
    let again = umpire_output(d, &["run", "--once"]);
    assert!(again.status.success(), "{again:?}");
}

#[test]
fn send_fails_loudly_when_no_delivery_can_be_made() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    // The spool outbox a file: said at once, nothing marked sent.
    std::fs::write(d.join("outbox"), "in the way").unwrap();
    let send = umpire_output(d, &["send"]);
    assert!(!send.status.success(), "{send:?}");
    let said = String::from_utf8_lossy(&send.stderr);
    assert!(
        said.contains("the spool outbox") && said.contains("is a file, not a folder"),
        "{said}"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        count_in(d, "SELECT COUNT(*) FROM outbox")
    );
    // A closed SMTP port: every delivery fails, and the exit says so.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::write(
        d.join("umpire.toml"),
        format!("address = \"{UMPIRE}\"\n[smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"none\"\n"),
    )
    .unwrap();
    // Logged as one JSON object a line, for a log search.
    let send = umpire_output(d, &["--log-format", "json", "send"]);
    assert!(!send.status.success(), "{send:?}");
    let said = String::from_utf8_lossy(&send.stderr);
    assert!(
        said.contains("3 of 3 deliveries failed") && said.contains("check the [smtp] section"),
        "{said}"
    );
    let logged: Vec<serde_json::Value> = said
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(
        logged.iter().any(|l| l["level"] == "WARN"
            && l["fields"]["message"] == "delivery failed"
            && l["fields"]["error"].is_string()),
        "{said}"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL"),
        0
    );
}

#[test]
fn ingest_exits_non_zero_when_the_message_is_not_handled() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    let order = |id: &str| {
        mail(
            CONAN,
            id,
            "GAME ford SIDE aquilonia PASSWORD wrong\nBlack Dragons: phase 1 hold\nEND\n",
        )
    };
    // A table gone: the message is stored but cannot be handled; the MTA
    // is asked to try again (EX_TEMPFAIL), and it stays waiting.
    let c = rusqlite::Connection::open(d.join("umpire.sqlite")).unwrap();
    c.execute_batch("DROP TABLE outbox_bodies").unwrap();
    drop(c);
    let out = ingest(d, &order("lost-table@aquilonia.example"));
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("but not handled") && said.contains("outbox_bodies"),
        "{said}"
    );
    assert_eq!(state_of(d, "lost-table@aquilonia.example"), "new");

    // A damaged deadline: the message is set aside for the moderator.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    damage_deadline(d, "ford");
    let out = ingest(d, &order("damaged@aquilonia.example"));
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("could not be handled")
            && said.contains("its deadline 'garbage' is not a time")
            && said.contains("umpire retry 1"),
        "{said}"
    );
    assert_eq!(state_of(d, "damaged@aquilonia.example"), "failed");
}

#[test]
fn an_empty_database_file_is_refused_not_made_anew() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    // Emptied, as a failed copy or a full disk leaves it.
    std::fs::write(d.join("umpire.sqlite"), b"").unwrap();
    let order = mail(
        CONAN,
        "to-nowhere@aquilonia.example",
        "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 hold\nEND\n",
    );
    let out = ingest(d, &order);
    assert_eq!(
        out.status.code(),
        Some(75),
        "the MTA keeps the mail: {out:?}"
    );
    let said = String::from_utf8_lossy(&out.stderr);
    let db = d.join("umpire.sqlite").display().to_string();
    assert!(
        said.contains(&format!(
            "the database {db} is an empty file (0 bytes), not an umpire store"
        )) && said.contains("restore the store from a backup"),
        "{said}"
    );
    assert_eq!(std::fs::metadata(d.join("umpire.sqlite")).unwrap().len(), 0);
    assert!(!d.join("outbox").exists(), "no player was answered");
    let games = umpire_output(d, &["games"]);
    assert!(!games.status.success(), "{games:?}");
    assert!(String::from_utf8_lossy(&games.stderr).contains("is an empty file"));
}

/// The bytes of the store in `d`: its file, and the journal files beside it.
fn store_files(d: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for name in [
        "umpire.sqlite",
        "umpire.sqlite-wal",
        "umpire.sqlite-shm",
        "umpire.sqlite-journal",
    ] {
        bytes.extend(std::fs::read(d.join(name)).unwrap_or_default());
    }
    bytes
}

fn holds(bytes: &[u8], secret: &str) -> bool {
    bytes.windows(secret.len()).any(|w| w == secret.as_bytes())
}

/// The passwords the welcomes spooled in `outbox` tell: "Your password:
/// …" to a side, "Your moderator password: …".
fn welcomed_passwords(outbox: &Path) -> Vec<String> {
    let mut passwords = Vec::new();
    for e in std::fs::read_dir(outbox).unwrap().flatten() {
        let raw = std::fs::read_to_string(e.path()).unwrap();
        if let Some((_, after)) = body_text(&raw).split_once("password: ") {
            let word: String = after
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            passwords.push(word);
        }
    }
    assert!(passwords.iter().all(|p| p.len() >= 8), "{passwords:?}");
    passwords
}

#[test]
fn a_password_cut_from_a_sent_welcome_is_gone_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    let before = store_files(d);
    let send = umpire_output(d, &["send"]);
    assert!(send.status.success(), "{send:?}");
    let passwords = welcomed_passwords(&d.join("outbox"));
    assert_eq!(passwords.len(), 3, "two sides and the moderator welcomed");
    for p in &passwords {
        assert!(holds(&before, p), "{p} was in the store while queued");
    }
    let after = store_files(d);
    for p in &passwords {
        assert!(!holds(&after, p), "{p} is still in the store's file");
    }
}

/// A service left running keeps its store open, and its journal (the
/// `-wal` file) with it: a welcome queued while it runs is written there,
/// and once sent and cut must not stay there, nor in the `-shm` file.
#[test]
fn a_running_service_keeps_no_cut_password_in_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    let child = umpire_in(d).arg("run").spawn().unwrap();
    let welcomes = || {
        std::fs::read_dir(d.join("outbox")).map_or(0, |rd| {
            rd.flatten()
                .filter(|e| e.file_name().to_string_lossy().contains("welcome"))
                .count()
        })
    };
    assert!(within(150, || welcomes() == 3), "ford's welcomes not sent");
    // A game made while the service runs: its welcomes are queued in the
    // journal the service holds open, sent by the service and cut.
    spool_config_and_game(d, "ford2");
    assert!(within(150, || welcomes() == 6), "ford2's welcomes not sent");
    let passwords = welcomed_passwords(&d.join("outbox"));
    let kept = || {
        let bytes = store_files(d);
        passwords
            .iter()
            .filter(|p| holds(&bytes, p))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert!(
        within(100, || kept().is_empty()),
        "still in the store's files while it runs: {:?}",
        kept()
    );
    stop(child);
}

/// The service opens its store more than once (its rounds, its post boy,
/// each store's checkpoint thread); no opening may drop the locks the
/// others hold, or a command run meanwhile takes itself, when it closes
/// the store, for its last user and deletes the journal the service
/// still writes to.
#[test]
fn a_command_run_beside_the_service_leaves_it_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    spool_config_and_game(d, "ford");
    let child = umpire_in(d).arg("run").spawn().unwrap();
    assert!(
        within(150, || spooled(&d.join("outbox"), "welcome")),
        "the service did not start sending"
    );
    let wal = d.join("umpire.sqlite-wal");
    assert!(wal.exists(), "the service's journal");
    let games = umpire_output(d, &["games"]);
    assert!(games.status.success(), "{games:?}");
    assert!(wal.exists(), "deleted by `umpire games` under the service");
    stop(child);
    assert!(!wal.exists(), "folded away when the service stopped");
}

/// A port on 127.0.0.1 nothing listens on.
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn check_passes_a_fresh_spool_and_names_what_is_wrong_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // No umpire.toml at all: the defaults, nothing made yet.
    let check = umpire_output(d, &["check"]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{said}");
    assert!(
        said.contains("ok   database: ")
            && said.contains("the first `umpire game new` or `umpire run` makes it")
            && said.contains(
                "(the spool Maildir every round reads) is not there yet: umpire run makes it"
            )
            && said.contains("Everything umpire run needs works: it would start and deliver."),
        "{said}"
    );
    assert!(!d.join("umpire.sqlite").exists(), "check made no store");
    // Servers on closed ports, a spool inbox that is a file.
    let (smtp, imap) = (closed_port(), closed_port());
    std::fs::write(
        d.join("umpire.toml"),
        format!(
            "address = \"{UMPIRE}\"\n[spool]\ninbox = \"in\"\n\
             [smtp]\nhost = \"127.0.0.1\"\nport = {smtp}\nsecurity = \"none\"\nusername = \"umpire\"\npassword = \"smtp-s3cret\"\n\
             [imap]\nhost = \"127.0.0.1\"\nport = {imap}\nsecurity = \"none\"\nusername = \"umpire\"\npassword = \"imap-s3cret\"\n"
        ),
    )
    .unwrap();
    std::fs::write(d.join("in"), "a file").unwrap();
    let check = umpire_output(d, &["check"]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(!check.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "FAIL mail out: SMTP 127.0.0.1:{smtp} (no TLS) as umpire: "
        )) && said.contains("fix: check host and port under [smtp]")
            && said.contains(&format!(
                "FAIL mail in: IMAP 127.0.0.1:{imap} (no TLS) as umpire, mailbox INBOX: "
            ))
            && said.contains("fix: check host and port under [imap]")
            && said.contains("is a file, not a folder")
            && said.contains("fix: move the file away, or set inbox under [spool]")
            && said.contains("3 things to mend before umpire run would start and deliver."),
        "{said}"
    );
    assert!(!said.contains("s3cret"), "a secret was printed: {said}");
}

#[test]
#[ignore = "needs the test mail servers on 127.0.0.1: run scripts/test (the README's test command)"]
fn check_passes_against_the_test_servers_and_refuses_a_wrong_password() {
    let env = |name: &str| {
        std::env::var(name).unwrap_or_else(|_| {
            panic!(
                "{name} is not set: run the tests with scripts/test, which starts the mail servers"
            )
        })
    };
    let (smtp, imap) = (env("UMPIRE_TEST_SMTP"), env("UMPIRE_TEST_IMAP"));
    let (smtp_host, smtp_port) = smtp.split_once(':').unwrap();
    let (imap_host, imap_port) = imap.split_once(':').unwrap();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let config = |password: &str| {
        format!(
            "address = \"{UMPIRE}\"\n\
             [smtp]\nhost = \"{smtp_host}\"\nport = {smtp_port}\nsecurity = \"none\"\n\
             [imap]\nhost = \"{imap_host}\"\nport = {imap_port}\nsecurity = \"none\"\nusername = \"umpire\"\npassword = \"{password}\"\n"
        )
    };
    std::fs::write(d.join("umpire.toml"), config("secret")).unwrap();
    let check = umpire_output(d, &["check"]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{said}");
    assert!(
        said.contains("logged in") && said.contains("connected"),
        "{said}"
    );
    std::fs::write(d.join("umpire.toml"), config("wrong-pw")).unwrap();
    let check = umpire_output(d, &["check"]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(!check.status.success(), "{said}");
    assert!(
        said.contains("fix: check username and password under [imap]")
            && !said.contains("wrong-pw"),
        "{said}"
    );
}
