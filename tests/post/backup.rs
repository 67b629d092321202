//! `umpire backup` and `umpire restore` (issue 43) on real SQLite files:
//! a backup taken while the post office has the store open and goes on
//! writing, restored into a fresh folder where the game is whole; files
//! that are not stores, stores newer than the backup and stores in use
//! refused, each with what to do; and the real binary.

use crate::common;
use chrono::Duration;
use common::*;
use std::path::Path;
use std::process::{Output, Stdio};
use umpire::post::PostOffice;
use umpire::store::backup::{self, BackupError};

fn orders(id: &str) -> Vec<u8> {
    mail(
        CONAN,
        id,
        "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n",
    )
}

fn submissions(po: &PostOffice) -> i64 {
    po.store().count("submissions", "1").unwrap()
}

#[test]
fn a_backup_taken_while_the_store_is_written_restores_whole_into_a_fresh_folder() {
    let live = tempfile::tempdir().unwrap();
    let mut po = office_with_game(live.path());
    po.accept(&orders("o1@aquilonia.example"), "test", t0())
        .unwrap();
    assert_eq!(submissions(&po), 1);
    let saved = tempfile::tempdir().unwrap();
    let file = saved.path().join("nightly.sqlite");
    // The office keeps its connection (and its checkpoint thread), as the
    // service does, and writes again once the copy is taken.
    let taken = backup::backup(&live.path().join("umpire.sqlite"), &file).unwrap();
    assert_eq!(taken.contents.games, 1);
    let text = taken.to_string();
    assert!(
        text.contains("to ") && text.contains("1 game, schema"),
        "{text}"
    );
    po.accept(
        &orders("o2@aquilonia.example"),
        "test",
        t0() + Duration::hours(1),
    )
    .unwrap();
    assert_eq!(
        backup::inspect(&file).unwrap().games,
        1,
        "the copy is a store"
    );
    // A second backup to the same file replaces the first.
    backup::backup(&live.path().join("umpire.sqlite"), &file).unwrap();
    backup::backup(
        &live.path().join("umpire.sqlite"),
        &saved.path().join("first.sqlite"),
    )
    .unwrap();
    drop(po);

    let fresh = tempfile::tempdir().unwrap();
    let store = fresh.path().join("club/umpire.sqlite");
    let done = backup::restore(&saved.path().join("first.sqlite"), &store, false, t0()).unwrap();
    assert!(done.replaced.is_none());
    let said = done.to_string();
    assert!(
        said.contains("restored to") && said.contains("1 game"),
        "{said}"
    );
    let mut restored = PostOffice::open(config(&fresh.path().join("club"))).unwrap();
    assert_eq!(
        submissions(&restored),
        2,
        "both orders, as when the copy was taken"
    );
    let (ruleset, _) = restored.state_of("ford").unwrap();
    assert_eq!(ruleset, "hyborian-age");
    assert!(umpire::post::desk::games(&mut restored)
        .unwrap()
        .contains("ford"));
    assert!(
        !fresh.path().join("club").read_dir().unwrap().any(|e| e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains(".restoring")),
        "nothing left behind"
    );
}

#[test]
fn what_is_not_a_store_is_refused_and_nothing_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let po = office_with_game(dir.path());
    drop(po);
    let store = dir.path().join("umpire.sqlite");
    let garbage = dir.path().join("garbage.sqlite");
    std::fs::write(&garbage, "Subject: not a database\n\n".repeat(300)).unwrap();
    let e = backup::restore(&garbage, &store, true, t0()).unwrap_err();
    assert!(matches!(e, BackupError::NotAStore { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "{} is not an umpire store: it is not a SQLite database; give a file `umpire backup` wrote",
            garbage.display()
        )
    );
    let missing = backup::restore(&dir.path().join("nope.sqlite"), &store, true, t0()).unwrap_err();
    assert!(matches!(missing, BackupError::NoFile { .. }), "{missing:?}");
    let e = backup::backup(&store, dir.path()).unwrap_err();
    assert!(
        e.to_string()
            .contains("is a folder: name a file in it, such as"),
        "{e}"
    );
    // A backup never writes over a file that is not an earlier backup.
    let toml = dir.path().join("umpire.toml");
    std::fs::write(&toml, "address = \"umpire@club.example\"\n").unwrap();
    let e = backup::backup(&store, &toml).unwrap_err();
    assert!(
        e.to_string().contains("is not an umpire store")
            && e.to_string().contains("name a new file"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(&toml).unwrap(),
        "address = \"umpire@club.example\"\n"
    );
    let e = backup::backup(&store, &store).unwrap_err();
    assert!(e.to_string().contains("is the store itself"), "{e}");
    // A schema this umpire does not know.
    let newer = dir.path().join("newer.sqlite");
    backup::backup(&store, &newer).unwrap();
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 9999")
        .unwrap();
    let e = backup::restore(&newer, &store, true, t0()).unwrap_err();
    assert!(
        matches!(e, BackupError::TooNew { found: 9999, .. }),
        "{e:?}"
    );
    // Through all of it the store stayed where it was, whole.
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    assert!(po.state_of("ford").is_ok());
}

#[test]
fn a_store_newer_than_the_backup_is_kept_unless_forced_and_then_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("umpire.sqlite");
    let file = dir.path().join("b.sqlite");
    let mut po = office_with_game(dir.path());
    backup::backup(&store, &file).unwrap();
    po.accept(
        &orders("later@aquilonia.example"),
        "test",
        t0() + Duration::hours(2),
    )
    .unwrap();
    // Open elsewhere: refused whatever is forced.
    let e = backup::restore(&file, &store, true, t0()).unwrap_err();
    assert!(matches!(e, BackupError::InUse { .. }), "{e:?}");
    assert!(e.to_string().contains("stop it first"), "{e}");
    drop(po);
    let e = backup::restore(&file, &store, false, t0()).unwrap_err();
    assert!(matches!(e, BackupError::Newer { .. }), "{e:?}");
    assert!(e.to_string().contains("--force"), "{e}");
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    assert_eq!(submissions(&po), 1, "refused: the store as it was");
    drop(po);
    let done = backup::restore(&file, &store, true, t0()).unwrap();
    let (kept, Some(was)) = done.replaced.clone().unwrap() else {
        panic!("{done:?}")
    };
    assert!(kept
        .to_string_lossy()
        .ends_with(".before-restore-20261201T090000Z"));
    assert_eq!(was.games, 1);
    assert!(done.to_string().contains("is kept as"), "{done}");
    po = PostOffice::open(config(dir.path())).unwrap();
    assert_eq!(submissions(&po), 0, "the backup's store");
    assert!(po.state_of("ford").is_ok());
    let kept_store = rusqlite::Connection::open(&kept).unwrap();
    let n: i64 = kept_store
        .query_row("SELECT count(*) FROM submissions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1, "the replaced store kept whole");
}

/// The real binary with `dir`'s umpire.toml, its output kept.
fn umpire(dir: &Path, args: &[&str]) -> Output {
    umpire_in(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn the_binary_backs_up_refuses_garbage_and_restores_into_a_new_folder() {
    let club = tempfile::tempdir().unwrap();
    spool_game(club.path());
    let file = club.path().join("nightly.sqlite");
    let out = umpire(club.path(), &["backup", &file.to_string_lossy()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert!(
        stdout.starts_with("backed up ") && stdout.contains("1 game"),
        "{stdout}"
    );

    let garbage = club.path().join("garbage.bin");
    std::fs::write(&garbage, [0xA5u8; 8192]).unwrap();
    let out = umpire(club.path(), &["restore", &garbage.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("is not an umpire store: it is not a SQLite database"),
        "{stderr}"
    );

    let new = tempfile::tempdir().unwrap();
    std::fs::write(
        new.path().join("umpire.toml"),
        "address = \"umpire@club.example\"\n",
    )
    .unwrap();
    let out = umpire(new.path(), &["restore", &file.to_string_lossy()]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("restored to"));
    let games = umpire(new.path(), &["games"]);
    assert!(games.status.success(), "{games:?}");
    assert!(
        String::from_utf8_lossy(&games.stdout).contains("ford"),
        "{games:?}"
    );
}

#[test]
fn a_postgres_store_is_pointed_at_pg_dump_and_nothing_is_made() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("umpire.toml"),
        "database = \"postgres://umpire:s3cret@db.club.example/umpire\"\naddress = \"umpire@club.example\"\n",
    )
    .unwrap();
    let out = umpire(dir.path(), &["backup", "club.dump"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "no backup made: a cron job must see it"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "pg_dump --format=custom --file=club.dump 'postgres://umpire@db.club.example/umpire'"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret"), "{stderr}");
    let out = umpire(dir.path(), &["restore", "club.dump"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_restore"));
}

#[test]
fn backups_taken_while_another_connection_writes_are_each_one_commits_store() {
    let dir = tempfile::tempdir().unwrap();
    drop(office_with_game(dir.path()));
    let store = dir.path().join("umpire.sqlite");
    let writing = {
        let dir = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let mut po = PostOffice::open(config(&dir)).unwrap();
            for i in 0..40 {
                po.accept(
                    &orders(&format!("o{i}@aquilonia.example")),
                    "test",
                    t0() + Duration::minutes(i),
                )
                .unwrap();
            }
        })
    };
    let mut seen = Vec::new();
    for n in 0..6 {
        let file = dir.path().join(format!("b{n}.sqlite"));
        backup::backup(&store, &file).unwrap();
        let c = rusqlite::Connection::open(&file).unwrap();
        // A message is stored raw in a commit of its own, then handled in
        // another with its submission: a copy holds either none of a
        // handling or all of it (a message stored and not yet handled is
        // handled when the copy next runs).
        let (messages, handled): (i64, i64) = c
            .query_row(
                "SELECT count(*), (SELECT count(*) FROM submissions) FROM messages WHERE state <> 'new'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(messages, handled, "backup {n}");
        seen.push(messages);
    }
    writing.join().unwrap();
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    let last = dir.path().join("last.sqlite");
    backup::backup(&store, &last).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    backup::restore(&last, &fresh.path().join("umpire.sqlite"), false, t0()).unwrap();
    let po = PostOffice::open(config(fresh.path())).unwrap();
    assert_eq!(po.store().count("messages", "1").unwrap(), 40);
}
