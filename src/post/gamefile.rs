//! The game file a moderator writes to start a game: which scenario,
//! which sides and players, the deadline schedule and the house rules.
//!
//! ```toml
//! id = "valkia"
//! ruleset = "hyborian-age"           # the default
//! title = "The Field of Valkia"
//! scenario = "valkia.toml"            # relative to this file
//! timezone = "Europe/London"
//! first_deadline = "2026-12-03 20:00" # local time in `timezone`
//! turn_hours = 72
//! reminder_hours = 24
//!
//! [moderator]
//! address = "moderator@club.example"
//!
//! [[side]]
//! id = "aquilonia"
//! address = "conan@example.org"
//! ```

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A parsed game file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// Short name used in every order header (`GAME valkia …`).
    pub id: String,
    /// The rule set the game is played under (`hyborian-age` when absent).
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    pub title: String,
    /// The scenario file (table, terrain, units).
    pub scenario: PathBuf,
    #[serde(default = "utc")]
    pub timezone: String,
    /// The first deadline, in the game's time zone, "YYYY-MM-DD HH:MM".
    pub first_deadline: String,
    /// Hours between deadlines.
    #[serde(default = "default_turn_hours")]
    pub turn_hours: u32,
    /// Orders arriving this many minutes after the deadline still count.
    #[serde(default)]
    pub grace_minutes: u32,
    /// Remind sides without orders this many hours before the deadline (0: never).
    #[serde(default)]
    pub reminder_hours: u32,
    /// Hold every turn's report for the moderator's APPROVE.
    #[serde(default)]
    pub hold: bool,
    /// The last turn of the battle (the book: at most 12).
    #[serde(default = "default_max_turns")]
    pub max_turns: u32,
    pub moderator: Player,
    #[serde(rename = "side")]
    pub sides: Vec<SideEntry>,
    /// House rules by name (see docs/rulings.md).
    #[serde(default)]
    pub options: toml::Table,
}

/// The moderator.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub address: String,
    /// Generated and mailed when absent.
    pub password: Option<String>,
}

/// One side and its player.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideEntry {
    /// The side's id as in the scenario's units (`side = "aquilonia"`).
    pub id: String,
    pub address: String,
    pub password: Option<String>,
}

fn default_ruleset() -> String {
    crate::games::hyborian::RULESET.into()
}
fn utc() -> String {
    "UTC".into()
}
fn default_turn_hours() -> u32 {
    48
}
fn default_max_turns() -> u32 {
    12
}

/// Problems with a game file, each saying what to change.
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Toml {
        path: String,
        source: toml::de::Error,
    },
    #[error("unknown time zone '{0}' (use an IANA name such as 'Europe/Paris' or 'UTC')")]
    TimeZone(String),
    #[error("first_deadline '{0}' is not a time of the form 2026-12-03 20:00")]
    Deadline(String),
    #[error("game id '{0}' must be one word of letters, digits, '-' or '_'")]
    Id(String),
    #[error("'{0}' is not a mail address")]
    Address(String),
    #[error("side '{0}' is listed twice")]
    DuplicateSide(String),
    #[error("a game needs at least two sides")]
    TooFewSides,
}

impl GameFile {
    /// Read and check a game file.
    ///
    /// # Errors
    /// When the file cannot be read, is not valid TOML, or breaks a rule above.
    pub fn load(path: &Path) -> Result<GameFile, GameFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| GameFileError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let mut file: GameFile = toml::from_str(&text).map_err(|source| GameFileError::Toml {
            path: path.display().to_string(),
            source,
        })?;
        let base = path.parent().unwrap_or(Path::new(""));
        file.scenario = base.join(&file.scenario);
        file.check()?;
        Ok(file)
    }

    fn check(&self) -> Result<(), GameFileError> {
        if self.id.is_empty()
            || !self.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(GameFileError::Id(self.id.clone()));
        }
        self.tz()?;
        self.first_deadline_utc()?;
        let mut seen = std::collections::BTreeSet::new();
        for a in std::iter::once(&self.moderator.address).chain(self.sides.iter().map(|s| &s.address)) {
            if !is_address(a) {
                return Err(GameFileError::Address(a.clone()));
            }
        }
        for s in &self.sides {
            if !seen.insert(s.id.to_ascii_lowercase()) {
                return Err(GameFileError::DuplicateSide(s.id.clone()));
            }
        }
        if self.sides.len() < 2 {
            return Err(GameFileError::TooFewSides);
        }
        Ok(())
    }

    /// The game's time zone.
    ///
    /// # Errors
    /// When the name is not an IANA zone.
    pub fn tz(&self) -> Result<Tz, GameFileError> {
        self.timezone
            .parse()
            .map_err(|_| GameFileError::TimeZone(self.timezone.clone()))
    }

    /// The first deadline as a UTC instant.
    ///
    /// # Errors
    /// When the time cannot be read or does not exist in the zone.
    pub fn first_deadline_utc(&self) -> Result<DateTime<Utc>, GameFileError> {
        let naive = NaiveDateTime::parse_from_str(self.first_deadline.trim(), "%Y-%m-%d %H:%M")
            .map_err(|_| GameFileError::Deadline(self.first_deadline.clone()))?;
        self.tz()?
            .from_local_datetime(&naive)
            .earliest()
            .map(|t| t.with_timezone(&Utc))
            .ok_or_else(|| GameFileError::Deadline(self.first_deadline.clone()))
    }
}

/// A plain check of an address: one '@', something on both sides, no spaces.
pub fn is_address(a: &str) -> bool {
    let mut parts = a.split('@');
    matches!((parts.next(), parts.next(), parts.next()),
        (Some(local), Some(domain), None) if !local.is_empty() && !domain.is_empty()
            && !a.chars().any(|c| c.is_whitespace() || c == '<' || c == '>' || c == ','))
}

/// Show a deadline as players read it: `2026-12-03 20:00 UTC (Thursday)`.
pub fn show_deadline(t: DateTime<Utc>, tz: Tz) -> String {
    let local = t.with_timezone(&tz);
    format!("{} ({})", local.format("%Y-%m-%d %H:%M %Z"), local.format("%A"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_show_local_time_zone_and_weekday() {
        let t = Utc.with_ymd_and_hms(2026, 12, 3, 20, 0, 0).unwrap();
        assert_eq!(show_deadline(t, chrono_tz::UTC), "2026-12-03 20:00 UTC (Thursday)");
        assert_eq!(
            show_deadline(t, chrono_tz::Europe::Paris),
            "2026-12-03 21:00 CET (Thursday)"
        );
    }

    #[test]
    fn addresses() {
        assert!(is_address("conan@aquilonia.example"));
        assert!(!is_address("conan"));
        assert!(!is_address("a@b@c"));
        assert!(!is_address("Conan <c@x>"));
    }
}
