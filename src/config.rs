//! `umpire.toml`: where the database lives, the umpire's own address, and
//! how mail comes in and goes out. Every field has a default that runs the
//! embedded setup (SQLite file, local spool folders, no mail server).

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The whole configuration file.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The SQLite file (relative paths are relative to the config file), or
    /// a PostgreSQL URL (`postgres://user@host:port/database`) several
    /// `umpire run` workers share (docs/scaling.md).
    pub database: PathBuf,
    /// The umpire's own address: From of everything it sends.
    pub address: String,
    /// Display name for From.
    pub name: String,
    /// Time zone deadlines are shown in (IANA name, e.g. "Europe/London").
    pub timezone: String,
    /// Seconds between rounds of `umpire run`.
    pub poll_seconds: u64,
    /// Largest message accepted, in bytes; of a larger one only the head is
    /// kept (with a digest of the whole) and the sender is told the limit.
    pub max_message_bytes: usize,
    /// How hard the store works to keep a commit through a power failure.
    pub durability: crate::store::Durability,
    /// DKIM of incoming mail: `off` (the default), `record` (verify and log
    /// the result) or `require` (refuse mail its From domain did not sign).
    pub dkim: crate::mail::dkim::Policy,
    /// How many messages are stored, and then handled, in one transaction
    /// (each handled in its own savepoint): one wait for the disk for all
    /// of them. 1 gives every message transactions of its own.
    pub batch: usize,
    /// Days a sent message's body is kept in the outbox; then only its
    /// headers are (who, when, what, its Message-ID). 0 keeps every body:
    /// a league of thousands of games sets it, as a report with its
    /// picture is some 70 KB (docs/scaling.md).
    pub keep_sent_days: u32,
    pub spool: SpoolConfig,
    pub smtp: Option<ServerConfig>,
    pub imap: Option<ImapConfig>,
    /// The club's web pages, kept current by `umpire run` (`post::site`).
    pub web: Option<WebConfig>,
    /// Where seeds and generated passwords come from: the system's
    /// randomness; a fixed stream in tests whose mails are snapshots.
    #[serde(skip)]
    pub entropy: crate::entropy::Entropy,
    /// The file holding the key password verifiers are made with
    /// (relative paths are relative to the config file). By default the
    /// store's name and `.key` beside a SQLite store, and `umpire.key`
    /// beside `umpire.toml` for a PostgreSQL one: workers sharing a
    /// PostgreSQL store share the key, copied to each machine
    /// (docs/service.md "The password key").
    pub password_key_file: Option<PathBuf>,
    /// The key password verifiers are made with (`post::password::verify_kept`):
    /// read from [`Config::key_file`] when the post office opens.
    #[serde(skip)]
    pub password_key: Option<crate::store::password_key::Key>,
}

/// `[web]`: the folder the club's web pages are written to (relative
/// paths are relative to the config file); a web server serves it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebConfig {
    pub dir: PathBuf,
}

/// Local folders used when no mail server is configured.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpoolConfig {
    /// Outgoing mail lands here as `.eml` files when `[smtp]` is absent.
    pub outbox: PathBuf,
    /// A Maildir read by `umpire ingest --maildir` and by `umpire run`.
    pub inbox: PathBuf,
}

/// How to reach a mail server.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// Plain TCP (loopback and tests only).
    None,
    /// Plain connection upgraded with STARTTLS.
    Starttls,
    /// TLS from the first byte.
    #[default]
    Tls,
}

/// An SMTP server.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    pub host: String,
    pub port: u16,
    #[serde(default)]
    pub security: Security,
    pub username: Option<String>,
    pub password: Option<String>,
}

/// An IMAP mailbox polled by `umpire poll`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapConfig {
    pub host: String,
    pub port: u16,
    #[serde(default)]
    pub security: Security,
    pub username: String,
    pub password: String,
    #[serde(default = "inbox")]
    pub mailbox: String,
}

fn inbox() -> String {
    "INBOX".into()
}

impl Default for Config {
    fn default() -> Self {
        Config {
            database: "umpire.sqlite".into(),
            address: "umpire@localhost".into(),
            name: "Umpire".into(),
            timezone: "UTC".into(),
            poll_seconds: 60,
            max_message_bytes: 2 * 1024 * 1024,
            durability: crate::store::Durability::Full,
            dkim: crate::mail::dkim::Policy::Off,
            batch: 64,
            keep_sent_days: 0,
            spool: SpoolConfig::default(),
            smtp: None,
            imap: None,
            web: None,
            entropy: Default::default(),
            password_key_file: None,
            password_key: None,
        }
    }
}

impl Default for SpoolConfig {
    fn default() -> Self {
        SpoolConfig {
            outbox: "spool/out".into(),
            inbox: "spool/in".into(),
        }
    }
}

/// The key file of a PostgreSQL store's workers, beside `umpire.toml`
/// unless `password_key_file` says otherwise.
pub const POSTGRES_KEY_FILE: &str = "umpire.key";

/// Errors reading the configuration.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Parse {
        path: String,
        source: toml::de::Error,
    },
    #[error("{path}: unknown time zone '{zone}' (use an IANA name such as 'Europe/Paris')")]
    TimeZone { path: String, zone: String },
    #[error("{path} does not exist, and neither does its folder {folder}: give the path of an existing umpire.toml, or of one to create in an existing folder")]
    NoFolder { path: String, folder: String },
    #[error("{path}: {key} = {value}: {why}")]
    Value {
        path: String,
        key: &'static str,
        value: String,
        why: String,
    },
}

/// The bounds of the numbers in `umpire.toml`.
pub const POLL_SECONDS: std::ops::RangeInclusive<u64> = 1..=3_600;
/// Messages to a transaction.
pub const BATCH: std::ops::RangeInclusive<usize> = 1..=1_000;
/// Bounds of `keep_sent_days` (0: for ever; at most ten years).
pub const KEEP_SENT_DAYS: std::ops::RangeInclusive<u32> = 0..=3_650;
/// A message of at least 64 KiB is always read; over 64 MiB never.
pub const MESSAGE_BYTES: std::ops::RangeInclusive<usize> = 64 * 1024..=64 * 1024 * 1024;

impl Config {
    /// Read `path`; a missing file gives the defaults, relative to `path`'s folder.
    ///
    /// # Errors
    /// When the file exists but cannot be read or is not valid.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let base = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut config = if path.exists() {
            let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                path: path.display().to_string(),
                source,
            })?;
            toml::from_str::<Config>(&text).map_err(|source| ConfigError::Parse {
                path: path.display().to_string(),
                source,
            })?
        } else if !base.as_os_str().is_empty() && !base.is_dir() {
            return Err(ConfigError::NoFolder {
                path: path.display().to_string(),
                folder: base.display().to_string(),
            });
        } else {
            Config::default()
        };
        config.check(path)?;
        if config.timezone.parse::<chrono_tz::Tz>().is_err() {
            return Err(ConfigError::TimeZone {
                path: path.display().to_string(),
                zone: config.timezone,
            });
        }
        let postgres = crate::store::db::is_postgres_url(&config.database.to_string_lossy());
        if !postgres {
            config.database = base.join(&config.database);
        }
        // A PostgreSQL store's key lies beside the configuration its
        // workers share (a SQLite store's beside the store: `key_file`).
        config.password_key_file = match config.password_key_file.take() {
            Some(file) => Some(base.join(file)),
            None if postgres => Some(base.join(POSTGRES_KEY_FILE)),
            None => None,
        };
        config.spool.outbox = base.join(&config.spool.outbox);
        config.spool.inbox = base.join(&config.spool.inbox);
        if let Some(web) = &mut config.web {
            web.dir = base.join(&web.dir);
        }
        Ok(config)
    }

    fn check(&self, path: &Path) -> Result<(), ConfigError> {
        let bad = |key: &'static str, value: String, why: String| ConfigError::Value {
            path: path.display().to_string(),
            key,
            value,
            why,
        };
        if !crate::mail::address::is_valid(&self.address) {
            return Err(bad(
                "address",
                self.address.clone(),
                "not a mail address such as umpire@club.example".into(),
            ));
        }
        /// A number outside its bounds, refused by name.
        fn within<T: PartialOrd + std::fmt::Display>(
            key: &'static str,
            value: &T,
            bounds: &std::ops::RangeInclusive<T>,
        ) -> Option<(&'static str, String, String)> {
            (!bounds.contains(value)).then(|| {
                let why = format!("must be from {} to {}", bounds.start(), bounds.end());
                (key, value.to_string(), why)
            })
        }
        let out_of_bounds = within("poll_seconds", &self.poll_seconds, &POLL_SECONDS)
            .or_else(|| within("batch", &self.batch, &BATCH))
            .or_else(|| within("keep_sent_days", &self.keep_sent_days, &KEEP_SENT_DAYS))
            .or_else(|| within("max_message_bytes", &self.max_message_bytes, &MESSAGE_BYTES));
        if let Some((key, value, why)) = out_of_bounds {
            return Err(bad(key, value, why));
        }
        Ok(())
    }

    /// The file of the password verifier key: `password_key_file`, else
    /// beside a SQLite store (`umpire.sqlite.key`); none for a PostgreSQL
    /// store whose configuration names none (a `Config` not read from a
    /// file): its passwords are verified with Argon2 once a process.
    pub fn key_file(&self) -> Option<PathBuf> {
        let postgres = crate::store::db::is_postgres_url(&self.database.to_string_lossy());
        self.password_key_file
            .clone()
            .or_else(|| (!postgres).then(|| crate::store::password_key::beside(&self.database)))
    }

    /// The domain part of the umpire's address, for Message-IDs.
    pub fn domain(&self) -> &str {
        self.address.rsplit('@').next().unwrap_or("localhost")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_file_gives_embedded_defaults_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let c = Config::load(&dir.path().join("umpire.toml")).unwrap();
        assert_eq!(c.database, dir.path().join("umpire.sqlite"));
        assert!(c.smtp.is_none());
    }

    /// A SQLite store's key lies beside it, a PostgreSQL store's beside
    /// `umpire.toml` (its workers share the file), and `password_key_file`
    /// puts either elsewhere, relative to `umpire.toml`.
    #[test]
    fn the_password_key_file_lies_beside_the_store_or_the_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("umpire.toml");
        let key_file = |text: &str| {
            std::fs::write(&p, text).unwrap();
            Config::load(&p).unwrap().key_file()
        };
        assert_eq!(key_file(""), Some(dir.path().join("umpire.sqlite.key")));
        assert_eq!(
            key_file("database = \"postgres://umpire@db.club.example/umpire\"\n"),
            Some(dir.path().join("umpire.key"))
        );
        assert_eq!(
            key_file("database = \"postgres://u@h/d\"\npassword_key_file = \"keys/k\"\n"),
            Some(dir.path().join("keys/k"))
        );
        assert_eq!(
            key_file("password_key_file = \"/etc/umpire/key\"\n"),
            Some(PathBuf::from("/etc/umpire/key"))
        );
        let built = Config {
            database: "postgres://u@h/d".into(),
            ..Config::default()
        };
        assert_eq!(built.key_file(), None);
    }

    #[test]
    fn servers_and_unknown_keys() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("umpire.toml");
        std::fs::write(
            &p,
            "address = \"judge@club.org\"\n[smtp]\nhost = \"127.0.0.1\"\nport = 2525\nsecurity = \"none\"\n",
        )
        .unwrap();
        let c = Config::load(&p).unwrap();
        assert_eq!(c.smtp.as_ref().unwrap().security, Security::None);
        assert_eq!(c.domain(), "club.org");
        std::fs::write(&p, "adress = \"x\"\n").unwrap();
        assert!(Config::load(&p).unwrap_err().to_string().contains("adress"));
    }

    #[test]
    fn bad_values_and_missing_folders_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("umpire.toml");
        for (text, key) in [
            ("address = \"umpire at club\"\n", "address"),
            ("poll_seconds = 0\n", "poll_seconds"),
            ("max_message_bytes = 10\n", "max_message_bytes"),
            ("batch = 0\n", "batch"),
            ("keep_sent_days = 36500\n", "keep_sent_days"),
            ("keep_sent_days = -1\n", "keep_sent_days"),
            ("dkim = \"always\"\n", "dkim"),
        ] {
            std::fs::write(&p, text).unwrap();
            let e = Config::load(&p).unwrap_err().to_string();
            assert!(e.contains(key), "{text}: {e}");
        }
        let e = Config::load(Path::new("/nonexistent/dir/umpire.toml")).unwrap_err();
        assert!(matches!(e, ConfigError::NoFolder { .. }), "{e}");
        assert!(!Path::new("/nonexistent").exists());
    }
}
