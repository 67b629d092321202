//! The systemd units a club installs (`contrib/systemd/umpire.service`
//! and the nightly `umpire-backup.service`, issue 43): their commands are
//! ones this umpire takes, and the configuration
//! shipped beside it keeps every path the service writes inside the one
//! folder the hardening leaves writable. `scripts/verify-units` (run by
//! `.ci/run`) has `systemd-analyze verify` read the units themselves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn contrib(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("contrib/systemd")
        .join(name)
}

/// A unit file's `[Service]` settings: every value of each key, in order.
fn service_section(unit: &str) -> BTreeMap<String, Vec<String>> {
    let mut section = String::new();
    let mut keys = BTreeMap::<String, Vec<String>>::new();
    for line in unit.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        if section != "[Service]" {
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("not a setting: {line}"));
        keys.entry(k.trim().to_string())
            .or_default()
            .push(v.trim().to_string());
    }
    keys
}

fn one<'a>(keys: &'a BTreeMap<String, Vec<String>>, key: &str) -> &'a str {
    match keys.get(key).map(Vec::as_slice) {
        Some([v]) => v,
        other => panic!("umpire.service: {key}= should be set once, is {other:?}"),
    }
}

#[test]
fn the_units_command_is_one_this_umpire_takes() {
    let unit = std::fs::read_to_string(contrib("umpire.service")).unwrap();
    let keys = service_section(&unit);
    let exec: Vec<&str> = one(&keys, "ExecStart").split_whitespace().collect();
    assert_eq!(
        exec[0], "/usr/local/bin/umpire",
        "where the docs install it"
    );
    let config = exec
        .iter()
        .position(|a| *a == "--config")
        .and_then(|i| exec.get(i + 1))
        .expect("ExecStart names the configuration with --config");
    assert_eq!(*config, "/etc/umpire/umpire.toml");
    assert_eq!(exec.last(), Some(&"run"), "the service is `umpire run`");
    // Parsed by the real command line: a renamed subcommand or flag fails
    // here ("unrecognized subcommand", "unexpected argument") before
    // --help is reached.
    let parsed = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(&exec[1..])
        .arg("--help")
        .output()
        .unwrap();
    assert!(
        parsed.status.success(),
        "umpire {} is not a command this umpire takes: {}",
        exec[1..].join(" "),
        String::from_utf8_lossy(&parsed.stderr)
    );
    assert!(String::from_utf8_lossy(&parsed.stdout).contains("The service"));
}

#[test]
fn the_unit_runs_unprivileged_hardened_and_restarts_on_failure() {
    let unit = std::fs::read_to_string(contrib("umpire.service")).unwrap();
    let keys = service_section(&unit);
    assert_eq!(one(&keys, "User"), "umpire");
    let sysusers = std::fs::read_to_string(contrib("umpire.sysusers")).unwrap();
    assert!(
        sysusers.lines().any(|l| l.starts_with("u umpire ")),
        "umpire.sysusers makes the user the unit runs as"
    );
    for (key, value) in [
        ("Restart", "on-failure"),
        ("KillSignal", "SIGTERM"),
        ("NoNewPrivileges", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("StateDirectory", "umpire"),
        ("WorkingDirectory", "/var/lib/umpire"),
        ("ReadWritePaths", "/var/lib/umpire"),
    ] {
        assert_eq!(one(&keys, key), value, "{key}=");
    }
}

#[test]
fn the_shipped_configuration_writes_only_where_the_unit_may() {
    let unit = std::fs::read_to_string(contrib("umpire.service")).unwrap();
    let writable = PathBuf::from(one(&service_section(&unit), "ReadWritePaths"));
    let config = umpire::config::Config::load(&contrib("umpire.toml")).unwrap();
    for (what, path) in [
        ("database", &config.database),
        ("[spool] inbox", &config.spool.inbox),
        ("[spool] outbox", &config.spool.outbox),
    ] {
        assert!(
            path.starts_with(&writable),
            "contrib/systemd/umpire.toml: {what} {} is outside {}, which the service cannot write",
            path.display(),
            writable.display()
        );
    }
}

#[test]
fn the_backup_units_command_is_one_this_umpire_takes() {
    let unit = std::fs::read_to_string(contrib("umpire-backup.service")).unwrap();
    let keys = service_section(&unit);
    assert_eq!(one(&keys, "User"), "umpire");
    assert_eq!(one(&keys, "ReadWritePaths"), "/var/lib/umpire");
    let exec = one(&keys, "ExecStart");
    // /bin/sh -c 'exec /usr/local/bin/umpire ARGS', the weekday from date.
    let command = exec
        .split_once("'exec ")
        .and_then(|(_, rest)| rest.strip_suffix('\''))
        .expect("ExecStart=/bin/sh -c 'exec umpire ...'")
        .replace("$(date +%%a)", "Mon");
    let args: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(args[0], "/usr/local/bin/umpire");
    assert_eq!(
        &args[1..4],
        ["--config", "/etc/umpire/umpire.toml", "backup"],
        "{command}"
    );
    assert!(
        args[4].starts_with("/var/lib/umpire/backups/"),
        "inside the folder the unit may write: {command}"
    );
    let parsed = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(&args[1..])
        .arg("--help")
        .output()
        .unwrap();
    assert!(
        parsed.status.success(),
        "umpire {} is not a command this umpire takes: {}",
        args[1..].join(" "),
        String::from_utf8_lossy(&parsed.stderr)
    );
}
