//! `umpire check`: the configuration tried against the world before the
//! first deadline. It reads `umpire.toml`, opens the store, logs in to the
//! IMAP and SMTP servers it names (TLS and all, as the service would), and
//! looks at the spool folders; each finding is a line saying what works,
//! or what does not and the fix. [`check`] returns the text and whether
//! `umpire run` would start and deliver.
//!
//! Architecture Invariant: no secret is ever printed. Findings name hosts,
//! ports, user names and paths; a PostgreSQL URL is shown without its
//! password (`store::shown`); a server's own error is shown as it came,
//! and no server repeats a password it was given.
//!
//! ```no_run
//! let (text, ok) = umpire::post::check::check(std::path::Path::new("umpire.toml"));
//! print!("{text}");
//! std::process::exit(if ok { 0 } else { 1 });
//! ```

use crate::config::{Config, Security};
use crate::mail::transport::{self, Outlet, Trouble};
use crate::store::{self, Store};
use std::fmt::Write as _;
use std::path::Path;

/// One thing looked at.
struct Finding {
    /// What was looked at ("database", "mail in", "mail out").
    what: &'static str,
    /// What was found, or what is wrong.
    said: String,
    /// The fix, when something is wrong.
    fix: Option<String>,
}

impl Finding {
    fn ok(what: &'static str, said: String) -> Finding {
        Finding {
            what,
            said,
            fix: None,
        }
    }

    fn wrong(what: &'static str, said: String, fix: impl Into<String>) -> Finding {
        Finding {
            what,
            said,
            fix: Some(fix.into()),
        }
    }
}

/// Look at everything `umpire run` needs, as configured in `path`: the
/// report, and whether the service would start and deliver. Nothing is
/// changed, except that an existing store is brought to this build's
/// schema as any command would.
pub fn check(path: &Path) -> (String, bool) {
    let mut found = Vec::new();
    match Config::load(path) {
        Err(e) => found.push(Finding::wrong(
            "configuration",
            e.to_string(),
            "mend the file: the README's \"Running it for a club\" shows every key",
        )),
        Ok(config) => {
            found.push(Finding::ok(
                "configuration",
                if path.exists() {
                    format!("{} read", path.display())
                } else {
                    format!(
                        "{} does not exist: the defaults (a SQLite store and spool folders beside it)",
                        path.display()
                    )
                },
            ));
            found.push(database(&config));
            found.push(folder(
                "mail in",
                "inbox",
                &config.spool.inbox,
                "the spool Maildir every round reads",
            ));
            if let Some(imap) = &config.imap {
                found.push(imap_login(imap));
            }
            match &config.smtp {
                Some(smtp) => found.push(smtp_login(smtp)),
                None => found.push(folder(
                    "mail out",
                    "outbox",
                    &config.spool.outbox,
                    "no [smtp]: every mail is written there as an .eml file",
                )),
            }
        }
    }
    let wrong = found.iter().filter(|f| f.fix.is_some()).count();
    let mut out = String::new();
    for f in &found {
        let mark = if f.fix.is_some() { "FAIL" } else { "ok  " };
        let _ = writeln!(out, "{mark} {}: {}", f.what, f.said);
        if let Some(fix) = &f.fix {
            let _ = writeln!(out, "     fix: {fix}");
        }
    }
    if wrong == 0 {
        out.push_str("Everything umpire run needs works: it would start and deliver.\n");
    } else {
        let _ = writeln!(
            out,
            "{wrong} {} to mend before umpire run would start and deliver.",
            if wrong == 1 { "thing" } else { "things" }
        );
    }
    (out, wrong == 0)
}

/// The store: opened (a SQLite file that does not exist yet is only
/// looked for a place), its games counted.
fn database(config: &Config) -> Finding {
    let shown = store::shown(&config.database);
    if let Some(dir) = store::local_folder(&config.database) {
        if !config.database.exists() {
            return match writable_place(dir) {
                Ok(()) => Finding::ok(
                    "database",
                    format!("no store at {shown} yet: the first `umpire game new` or `umpire run` makes it"),
                ),
                Err(why) => Finding::wrong(
                    "database",
                    format!("no store at {shown}, and none can be made: {why}"),
                    "set database in umpire.toml to a file in a folder umpire may write",
                ),
            };
        }
    }
    match Store::open_with(&config.database, config.durability) {
        Ok(store) => match store.count("games", "1 = 1") {
            Ok(games) => Finding::ok(
                "database",
                format!(
                    "{shown} opens (schema {}): {games} {}",
                    store.schema_version().unwrap_or_default(),
                    if games == 1 { "game" } else { "games" }
                ),
            ),
            Err(e) => Finding::wrong(
                "database",
                format!("{shown} opens but cannot be read: {e}"),
                "restore the store from a backup",
            ),
        },
        Err(e) => Finding::wrong(
            "database",
            format!("{shown}: {e}"),
            if store::local_folder(&config.database).is_some() {
                "give database in umpire.toml the path of the store, in a folder umpire may write"
            } else {
                "check the URL's host, port, database, user and password, and that the server runs and takes connections from here"
            },
        ),
    }
}

/// A spool folder: there and writable, or missing where `umpire run` can
/// make it.
fn folder(what: &'static str, key: &str, path: &Path, role: &str) -> Finding {
    let shown = path.display();
    if path.is_dir() {
        return match writable_place(path) {
            Ok(()) => Finding::ok(what, format!("{shown} ({role}) is a folder umpire can write")),
            Err(why) => Finding::wrong(
                what,
                format!("{shown} ({role}) cannot be written: {why}"),
                format!("let the user umpire runs as write there, or set {key} under [spool] in umpire.toml"),
            ),
        };
    }
    if let Some(file) = path.ancestors().find(|a| a.exists() && !a.is_dir()) {
        return Finding::wrong(
            what,
            format!(
                "{shown} ({role}): {} is a file, not a folder",
                file.display()
            ),
            format!("move the file away, or set {key} under [spool] in umpire.toml to a folder"),
        );
    }
    let parent = path
        .ancestors()
        .find(|a| a.is_dir())
        .unwrap_or(Path::new("."));
    match writable_place(parent) {
        Ok(()) => Finding::ok(
            what,
            format!("{shown} ({role}) is not there yet: umpire run makes it"),
        ),
        Err(why) => Finding::wrong(
            what,
            format!("{shown} ({role}) is not there and cannot be made: {why}"),
            format!("make the folder for the user umpire runs as, or set {key} under [spool] in umpire.toml"),
        ),
    }
}

/// Can a file be made in folder `dir` (made and removed at once)?
fn writable_place(dir: &Path) -> Result<(), String> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let probe = dir.join(format!(".umpire-check-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|e| format!("{}: {e}", dir.display()))
}

fn security(s: Security) -> &'static str {
    match s {
        Security::None => "no TLS",
        Security::Starttls => "STARTTLS",
        Security::Tls => "TLS",
    }
}

/// The fix for a server that could not be reached or logged in to, by
/// the kind of trouble it gave.
fn server_fix(section: &str, trouble: Trouble, tls_port: u16) -> String {
    match trouble {
        Trouble::Connect => format!("check host and port under [{section}], and that the server runs and this machine may reach it"),
        Trouble::Tls => format!("check security under [{section}]: \"tls\" needs the server's TLS port (usually {tls_port}), \"starttls\" its plain port; the certificate must name the host"),
        Trouble::Authentication => format!("check username and password under [{section}]"),
        Trouble::Other => format!("check the [{section}] section against what the mail provider says"),
    }
}

fn imap_login(cfg: &crate::config::ImapConfig) -> Finding {
    let at = format!(
        "IMAP {}:{} ({}) as {}, mailbox {}",
        cfg.host,
        cfg.port,
        security(cfg.security),
        cfg.username,
        cfg.mailbox
    );
    match transport::imap_check(cfg) {
        Ok(unseen) => Finding::ok("mail in", format!("{at}: logged in, {unseen} unseen")),
        Err(e) => Finding::wrong(
            "mail in",
            format!("{at}: {e}"),
            server_fix("imap", e.trouble(), 993),
        ),
    }
}

fn smtp_login(cfg: &crate::config::ServerConfig) -> Finding {
    let at = format!(
        "SMTP {}:{} ({}){}",
        cfg.host,
        cfg.port,
        security(cfg.security),
        cfg.username
            .as_deref()
            .map(|u| format!(" as {u}"))
            .unwrap_or_default()
    );
    // Reached on a connection of our own first: lettre's errors do not
    // tell a server not reached from other trouble by their kind.
    let tried = transport::reach(&cfg.host, cfg.port)
        .and_then(|_| Outlet::smtp(cfg))
        .and_then(|outlet| outlet.test());
    match tried {
        Ok(()) => Finding::ok(
            "mail out",
            format!(
                "{at}: connected{}",
                if cfg.username.is_some() {
                    " and logged in"
                } else {
                    ""
                }
            ),
        ),
        Err(e) => Finding::wrong(
            "mail out",
            format!("{at}: {e}"),
            server_fix("smtp", e.trouble(), 465),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each kind of trouble has its own fix, naming the section.
    #[test]
    fn each_kind_of_trouble_has_its_fix() {
        let fix = |t| server_fix("smtp", t, 465);
        assert_eq!(
            fix(Trouble::Connect),
            "check host and port under [smtp], and that the server runs and this machine may reach it"
        );
        assert!(
            fix(Trouble::Tls).starts_with(
                "check security under [smtp]: \"tls\" needs the server's TLS port (usually 465)"
            ),
            "{}",
            fix(Trouble::Tls)
        );
        assert_eq!(
            fix(Trouble::Authentication),
            "check username and password under [smtp]"
        );
        assert_eq!(
            fix(Trouble::Other),
            "check the [smtp] section against what the mail provider says"
        );
    }
}
