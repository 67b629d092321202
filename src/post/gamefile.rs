//! The game file a moderator writes to start a game: which scenario,
//! which sides and players, the deadline schedule and the house rules.
//!
//! ```toml
//! id = "valkia"
//! ruleset = "hyborian-age"           # the default
//! title = "The Field of Valkia"
//! scenario = "valkia.toml"            # relative to this file
//! timezone = "Europe/London"
//! first_deadline = "2026-12-03 20:00" # local time in `timezone`,
//!                                     # or "in 3 days" / "in 72 hours"
//! turn_hours = 72
//! gm_hours = 24                       # the game master's rounds (default: turn_hours)
//! reminder_hours = 24
//!
//! [moderator]
//! address = "moderator@club.example"
//!
//! [[side]]
//! id = "aquilonia"
//! address = "conan@example.org"
//! ```
//!
//! Players may talk to each other through the umpire (`press = "open"`,
//! the default; `"grey"` also lets them send press that does not name
//! them; `"off"`: none), and a player away may have the turn wait or stand
//! (`[absence]`), with a `standby = "ADDRESS"` under their `[[side]]` who
//! orders for the side while they are away (`post::absence`).
//!
//! A rule set whose forces come from the players' lists (FR! Ancients)
//! takes each side's `army = "FILE"` and, optionally, a base-rule
//! `pack = "FILE"`, both relative to the game file; without a pack the
//! moderator is the **game master** and answers the rounds the rule set
//! gives him (`games::Round::game_master`).

use chrono::{DateTime, DurationRound, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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
    /// Hours the game master has to answer a round that waits for him (a
    /// game without a base-rule pack); absent: `turn_hours`.
    #[serde(default)]
    pub gm_hours: Option<u32>,
    /// Orders arriving this many minutes after the deadline still count.
    #[serde(default = "default_grace_minutes")]
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
    /// A club's base-rule pack, for a rule set that takes one (FR! Ancients).
    #[serde(default)]
    pub pack: Option<PathBuf>,
    /// Press between the players.
    #[serde(default)]
    pub press: PressRule,
    /// What a turn due while a player is away does.
    #[serde(default)]
    pub absence: AbsenceRule,
}

/// Whether the players may send each other press (`press = "grey"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PressRule {
    /// Press that names its sender's side.
    #[default]
    Open,
    /// That, and grey press (`GREY PRESS TO …`): the sender not named.
    Grey,
    /// No press at all.
    Off,
}

/// What a turn due while a player is away (`ABSENT`) does: the game
/// file's `[absence]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AbsenceRule {
    /// `"extend"` (the default) or `"hold"`.
    #[serde(default)]
    pub when: WhenAbsent,
    /// The most a deadline is moved for an absence, once a turn, in hours.
    #[serde(default = "default_absence_extend_hours")]
    pub extend_hours: u32,
    /// The longest absence a player may declare, in days.
    #[serde(default = "default_absence_days")]
    pub max_days: u32,
    /// The style of the general who plays an absent player's turns
    /// (`when = "general"`); cautious when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general: Option<crate::sim::Style>,
}

impl Default for AbsenceRule {
    fn default() -> Self {
        AbsenceRule {
            when: WhenAbsent::default(),
            extend_hours: default_absence_extend_hours(),
            max_days: default_absence_days(),
            general: None,
        }
    }
}

/// A turn due while its player is away and has sent no orders for it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WhenAbsent {
    /// The deadline moves to the player's return, by at most
    /// `extend_hours`, once a turn.
    #[default]
    Extend,
    /// The turn is played at its deadline as for a side without orders
    /// (its units stand), and need not wait for the deadline on its account.
    Hold,
    /// The umpire's general writes the side's orders as the round opens
    /// (a standby, when the side has one, orders instead); orders the
    /// player sends for it still replace the general's.
    General,
}

fn default_absence_extend_hours() -> u32 {
    72
}
fn default_absence_days() -> u32 {
    30
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
    /// The player's address; none for a side the umpire's general plays.
    #[serde(default)]
    pub address: String,
    /// The style of the umpire's general who plays the side instead of a
    /// player (`general = "aggressive"`): it writes the side's orders as
    /// each round opens and is mailed nothing (`post::general`).
    #[serde(default)]
    pub general: Option<crate::sim::Style>,
    pub password: Option<String>,
    /// The player's own time zone for the deadlines they are shown
    /// (`Europe/Paris`); the game's when not given.
    pub timezone: Option<String>,
    /// The side's army file, for a rule set whose forces come from the
    /// players' lists (FR! Ancients).
    #[serde(default)]
    pub army: Option<PathBuf>,
    /// A standby player's address: mailed the side's turn mail, and a
    /// password of their own to order for it, while its player is away.
    #[serde(default)]
    pub standby: Option<String>,
}

fn default_ruleset() -> String {
    crate::games::DEFAULT_RULESET.into()
}
fn utc() -> String {
    "UTC".into()
}
fn default_turn_hours() -> u32 {
    48
}
/// Mail sent a little before the deadline may reach the umpire a little
/// after it (ruling P14): a quarter of an hour unless the game file says.
fn default_grace_minutes() -> u32 {
    15
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
    #[error("first_deadline '{0}' is not a time of the form 2026-12-03 20:00, nor 'in 3 days' or 'in 72 hours' (at most {max} days)", max = MAX_LEAD_DAYS)]
    Deadline(String),
    #[error("game id '{0}' must be one word of letters, digits, '-' or '_'")]
    Id(String),
    #[error("'{0}' is not a mail address")]
    Address(String),
    #[error("side '{0}' is listed twice")]
    DuplicateSide(String),
    #[error("a game needs at least two sides")]
    TooFewSides,
    #[error("{key} = {value}: {why}")]
    Value {
        key: &'static str,
        value: String,
        why: String,
    },
}

/// The bounds of a game file's numbers, each named in the error that refuses it.
pub mod bounds {
    use std::ops::RangeInclusive;
    /// Hours between deadlines: an hour to 90 days.
    pub const TURN_HOURS: RangeInclusive<u32> = 1..=2_160;
    /// Minutes after a deadline that mail still counts: up to a week.
    pub const GRACE_MINUTES: RangeInclusive<u32> = 0..=10_080;
    /// Hours before a deadline to remind: up to 30 days.
    pub const REMINDER_HOURS: RangeInclusive<u32> = 0..=720;
    /// The last turn: the book's battles last at most 12; clubs may play longer.
    pub const MAX_TURNS: RangeInclusive<u32> = 1..=200;
    /// Longest game id, in characters.
    pub const ID_LEN: usize = 40;
    /// Longest title, in characters.
    pub const TITLE_LEN: usize = 200;
    /// The most a deadline may move for an absence: up to two weeks.
    pub const ABSENCE_EXTEND_HOURS: RangeInclusive<u32> = 1..=336;
    /// The longest absence a game may allow: up to half a year.
    pub const ABSENCE_DAYS: RangeInclusive<u32> = 1..=183;
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
        file.pack = file.pack.map(|p| base.join(p));
        for s in &mut file.sides {
            s.army = s.army.take().map(|a| base.join(a));
        }
        file.check()?;
        Ok(file)
    }

    pub(crate) fn check(&self) -> Result<(), GameFileError> {
        if self.id.is_empty()
            || self.id.len() > bounds::ID_LEN
            || !self
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(GameFileError::Id(self.id.clone()));
        }
        let range = |key: &'static str, v: u32, r: std::ops::RangeInclusive<u32>| {
            if r.contains(&v) {
                Ok(())
            } else {
                Err(GameFileError::Value {
                    key,
                    value: v.to_string(),
                    why: format!("must be from {} to {}", r.start(), r.end()),
                })
            }
        };
        range("turn_hours", self.turn_hours, bounds::TURN_HOURS)?;
        if let Some(h) = self.gm_hours {
            range("gm_hours", h, bounds::TURN_HOURS)?;
        }
        range("grace_minutes", self.grace_minutes, bounds::GRACE_MINUTES)?;
        range(
            "reminder_hours",
            self.reminder_hours,
            bounds::REMINDER_HOURS,
        )?;
        range("max_turns", self.max_turns, bounds::MAX_TURNS)?;
        range(
            "absence.extend_hours",
            self.absence.extend_hours,
            bounds::ABSENCE_EXTEND_HOURS,
        )?;
        range(
            "absence.max_days",
            self.absence.max_days,
            bounds::ABSENCE_DAYS,
        )?;
        if self.title.trim().is_empty()
            || self.title.chars().count() > bounds::TITLE_LEN
            || self.title.chars().any(char::is_control)
        {
            return Err(GameFileError::Value {
                key: "title",
                value: self.title.chars().take(40).collect(),
                why: format!("must be one line of 1 to {} characters", bounds::TITLE_LEN),
            });
        }
        self.tz()?;
        for s in &self.sides {
            if let Some(z) = &s.timezone {
                zone(z).map_err(|_| GameFileError::TimeZone(z.clone()))?;
            }
        }
        // Any instant reads the form; the game's creation gives the time.
        self.first_deadline_at(DateTime::<Utc>::UNIX_EPOCH)?;
        let mut seen = std::collections::BTreeSet::new();
        self.check_players()?;
        let players = self.sides.iter().filter(|s| s.general.is_none());
        for a in std::iter::once(&self.moderator.address).chain(players.map(|s| &s.address)) {
            if !crate::mail::address::is_valid(a) {
                return Err(GameFileError::Address(a.clone()));
            }
        }
        for s in &self.sides {
            if let Some(standby) = &s.standby {
                if !crate::mail::address::is_valid(standby) {
                    return Err(GameFileError::Address(standby.clone()));
                }
                if standby.eq_ignore_ascii_case(&s.address) {
                    return Err(GameFileError::Value {
                        key: "standby",
                        value: standby.clone(),
                        why: format!("is side {}'s own player; a standby is someone else", s.id),
                    });
                }
            }
            if !seen.insert(s.id.to_ascii_lowercase()) {
                return Err(GameFileError::DuplicateSide(s.id.clone()));
            }
        }
        if self.sides.len() < 2 {
            return Err(GameFileError::TooFewSides);
        }
        Ok(())
    }

    /// Each side has a player's address or a general, not both; a general
    /// has no standby; at least one side is a player's.
    fn check_players(&self) -> Result<(), GameFileError> {
        let value = |key, value: String, why: String| GameFileError::Value { key, value, why };
        for s in &self.sides {
            match (&s.general, s.address.is_empty(), &s.standby) {
                (Some(g), false, _) => {
                    return Err(value("general", g.to_string(), format!(
                        "side {} has a player ({}) and a general: keep `address` for a player, or `general` for the umpire's general",
                        s.id, s.address
                    )))
                }
                (Some(g), true, Some(standby)) => {
                    return Err(value("standby", standby.clone(), format!(
                        "side {} is played by the {g} general, who needs no standby: remove `standby`",
                        s.id
                    )))
                }
                (None, true, _) => {
                    return Err(value("address", String::new(), format!(
                        "side {} needs its player's `address`, or `general = \"aggressive\"` (or \"cautious\") for the umpire's general",
                        s.id
                    )))
                }
                _ => {}
            }
        }
        if !self.sides.is_empty() && self.sides.iter().all(|s| s.general.is_some()) {
            return Err(value("general", String::new(), "every side is played by a general, and nobody would read the reports: give at least one side a player (`umpire simulate` plays generals against each other)".into()));
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

    /// The texts of the sides' army files (by side) and of the pack.
    ///
    /// # Errors
    /// When a file the game file names cannot be read.
    pub fn read_armies_and_pack(
        &self,
    ) -> Result<(std::collections::BTreeMap<String, String>, Option<String>), GameFileError> {
        let read = |p: &Path| {
            std::fs::read_to_string(p).map_err(|source| GameFileError::Read {
                path: p.display().to_string(),
                source,
            })
        };
        let mut armies = std::collections::BTreeMap::new();
        for s in &self.sides {
            if let Some(a) = &s.army {
                armies.insert(s.id.clone(), read(a)?);
            }
        }
        let pack = self.pack.as_deref().map(read).transpose()?;
        Ok((armies, pack))
    }

    /// The first deadline as a UTC instant, for a game created at `now`: a
    /// local time in the game's zone, or `in N days` / `in N hours` from
    /// `now`, on the hour after (so a ready game file starts on any day).
    ///
    /// # Errors
    /// When the time cannot be read or does not exist in the zone.
    pub fn first_deadline_at(&self, now: DateTime<Utc>) -> Result<DateTime<Utc>, GameFileError> {
        let bad = || GameFileError::Deadline(self.first_deadline.clone());
        let text = self.first_deadline.trim();
        if let Some(lead) = text.strip_prefix("in ") {
            let hours = lead_hours(lead).ok_or_else(bad)?;
            let at = now + chrono::Duration::hours(hours);
            // On the hour after: deadlines read as players write them.
            let hour = chrono::Duration::hours(1);
            let sharp = at.duration_trunc(hour).map_err(|_| bad())?;
            return Ok(if sharp < at { sharp + hour } else { sharp });
        }
        let naive = NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").map_err(|_| bad())?;
        self.tz()?
            .from_local_datetime(&naive)
            .earliest()
            .map(|t| t.with_timezone(&Utc))
            .ok_or_else(bad)
    }
}

/// The longest lead a relative first deadline may give (`in 366 days`).
pub const MAX_LEAD_DAYS: i64 = 366;

/// `3 days`, `1 day`, `72 hours`, `1 hour` as hours, within [`MAX_LEAD_DAYS`].
fn lead_hours(lead: &str) -> Option<i64> {
    let mut words = lead.split_whitespace();
    let n: i64 = words.next()?.parse().ok()?;
    let per = match words.next()? {
        "day" | "days" => 24,
        "hour" | "hours" => 1,
        _ => return None,
    };
    let hours = n.checked_mul(per)?;
    (words.next().is_none() && n > 0 && hours <= MAX_LEAD_DAYS * 24).then_some(hours)
}

/// Show a deadline as players read it: `2026-12-03 20:00 UTC (Thursday)`.
pub fn show_deadline(t: DateTime<Utc>, tz: Tz) -> String {
    let local = t.with_timezone(&tz);
    format!(
        "{} ({})",
        local.format("%Y-%m-%d %H:%M %Z"),
        local.format("%A")
    )
}

/// Show a deadline to a player in their own time zone, with the game's
/// beside it when the two differ.
pub fn show_deadline_for(t: DateTime<Utc>, game: Tz, player: Option<Tz>) -> String {
    match player.filter(|p| p.name() != game.name()) {
        Some(p) => format!(
            "{}; game time {}",
            show_deadline(t, p),
            show_deadline(t, game)
        ),
        None => show_deadline(t, game),
    }
}

/// A time zone of the tz database by its name, in any case (`europe/paris`).
///
/// # Errors
/// With the closest names when there is no such zone.
pub fn zone(name: &str) -> Result<Tz, Vec<&'static str>> {
    let name = name.trim();
    chrono_tz::TZ_VARIANTS
        .iter()
        .copied()
        .find(|z| z.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let mut near: Vec<(f64, &'static str)> = chrono_tz::TZ_VARIANTS
                .iter()
                .map(|z| (crate::names::likeness(name, z.name()), z.name()))
                .filter(|(l, _)| *l >= crate::names::TYPO_LIKENESS)
                .collect();
            near.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
            // The best, and only those as good as it.
            let best = near.first().map_or(0.0, |n| n.0);
            near.into_iter()
                .take_while(|(l, _)| *l >= best - 0.01)
                .take(3)
                .map(|(_, n)| n)
                .collect()
        })
}

/// The files a rule set names beside a scenario
/// (`games::Ruleset::companions`), by that name, read relative to the
/// scenario file. A file that is missing or cannot be read is left out:
/// the rule set then falls back on one it ships, or says which it lacks.
pub fn read_companions(scenario: &Path, names: &[String]) -> BTreeMap<String, String> {
    names
        .iter()
        .filter_map(|name| {
            let text = std::fs::read_to_string(beside(scenario, name)?).ok()?;
            Some((name.clone(), text))
        })
        .collect()
}

/// A `/`-separated path relative to the scenario file, its `..` taken by
/// name: the folder of `x.toml` has no parent, so its `../maps` is nowhere.
fn beside(scenario: &Path, name: &str) -> Option<PathBuf> {
    let mut at = scenario.parent()?.to_path_buf();
    for part in name.split('/') {
        match part {
            ".." => at = at.parent()?.to_path_buf(),
            "" | "." => {}
            p => at.push(p),
        }
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_deadline_may_be_a_lead_from_the_games_creation() {
        let now = Utc.with_ymd_and_hms(2026, 12, 4, 18, 20, 5).unwrap();
        let mut file = file("").unwrap();
        file.first_deadline = "in 3 days".into();
        assert_eq!(
            file.first_deadline_at(now).unwrap(),
            Utc.with_ymd_and_hms(2026, 12, 7, 19, 0, 0).unwrap(),
            "on the hour after three days"
        );
        file.first_deadline = "in 1 hour".into();
        let sharp = Utc.with_ymd_and_hms(2026, 12, 4, 18, 0, 0).unwrap();
        assert_eq!(
            file.first_deadline_at(sharp).unwrap(),
            Utc.with_ymd_and_hms(2026, 12, 4, 19, 0, 0).unwrap()
        );
        for bad in [
            "in 0 days",
            "in -2 hours",
            "in 367 days",
            "in 3 weeks",
            "in 3",
            "in days",
            "in 99999999999999999 hours",
            "tomorrow",
        ] {
            file.first_deadline = bad.into();
            let e = file.first_deadline_at(now).unwrap_err().to_string();
            assert!(e.contains("in 3 days"), "{bad}: {e}");
        }
        file.first_deadline = "2026-12-03 20:00".into();
        assert_eq!(
            file.first_deadline_at(now).unwrap(),
            Utc.with_ymd_and_hms(2026, 12, 3, 20, 0, 0).unwrap(),
            "a time is a time, whenever the game is made"
        );
    }

    #[test]
    fn deadlines_show_local_time_zone_and_weekday() {
        let t = Utc.with_ymd_and_hms(2026, 12, 3, 20, 0, 0).unwrap();
        assert_eq!(
            show_deadline(t, chrono_tz::UTC),
            "2026-12-03 20:00 UTC (Thursday)"
        );
        assert_eq!(
            show_deadline(t, chrono_tz::Europe::Paris),
            "2026-12-03 21:00 CET (Thursday)"
        );
    }

    fn file(extra: &str) -> Result<GameFile, GameFileError> {
        let text = format!(
            "id = \"g\"\ntitle = \"G\"\nscenario = \"s.toml\"\nfirst_deadline = \"2026-12-03 20:00\"\n{extra}\n\
             [moderator]\naddress = \"m@club.example\"\n[[side]]\nid = \"a\"\naddress = \"a@club.example\"\n\
             [[side]]\nid = \"b\"\naddress = \"b@club.example\"\n"
        );
        let f: GameFile = toml::from_str(&text).map_err(|source| GameFileError::Toml {
            path: "g.toml".into(),
            source,
        })?;
        f.check().map(|()| f)
    }

    #[test]
    fn numbers_out_of_bounds_are_refused_with_the_bound() {
        assert!(file("").is_ok());
        for (extra, key) in [
            ("turn_hours = 4294967295", "turn_hours"),
            ("turn_hours = 0", "turn_hours"),
            ("grace_minutes = 99999", "grace_minutes"),
            ("max_turns = 100000", "max_turns"),
            ("reminder_hours = 100000", "reminder_hours"),
        ] {
            let e = file(extra).unwrap_err().to_string();
            assert!(
                e.starts_with(key) && e.contains("must be from"),
                "{extra}: {e}"
            );
        }
        assert!(matches!(
            file("turn_hours = -1"),
            Err(GameFileError::Toml { .. })
        ));
    }

    #[test]
    fn press_and_absence_are_read_and_bounded() {
        let f = file("press = \"grey\"\nabsence = { when = \"hold\", max_days = 10 }").unwrap();
        assert_eq!(f.press, PressRule::Grey);
        assert_eq!(
            f.absence,
            AbsenceRule {
                when: WhenAbsent::Hold,
                extend_hours: 72,
                max_days: 10,
                general: None,
            }
        );
        assert_eq!(file("").unwrap().absence.when, WhenAbsent::Extend);
        assert!(matches!(
            file("press = \"loud\""),
            Err(GameFileError::Toml { .. })
        ));
        for (extra, key) in [
            ("absence = { extend_hours = 0 }", "absence.extend_hours"),
            ("absence = { max_days = 400 }", "absence.max_days"),
        ] {
            let e = file(extra).unwrap_err().to_string();
            assert!(
                e.starts_with(key) && e.contains("must be from"),
                "{extra}: {e}"
            );
        }
    }

    #[test]
    fn a_standby_is_an_address_and_not_the_sides_own_player() {
        let with = |standby: &str| {
            let text = format!(
                "id = \"g\"\ntitle = \"G\"\nscenario = \"s.toml\"\nfirst_deadline = \"2026-12-03 20:00\"\n\
                 [moderator]\naddress = \"m@club.example\"\n[[side]]\nid = \"a\"\naddress = \"a@club.example\"\nstandby = \"{standby}\"\n\
                 [[side]]\nid = \"b\"\naddress = \"b@club.example\"\n"
            );
            toml::from_str::<GameFile>(&text).unwrap().check()
        };
        assert!(with("s@club.example").is_ok());
        assert!(matches!(
            with("not an address"),
            Err(GameFileError::Address(_))
        ));
        assert!(with("A@club.example")
            .unwrap_err()
            .to_string()
            .contains("side a's own player"));
    }

    #[test]
    fn companions_are_read_relative_to_the_scenario_and_a_missing_one_is_left_out() {
        let at = |scenario: &str| beside(Path::new(scenario), "../maps/m.toml");
        assert_eq!(
            at("club/scenarios/s.toml"),
            Some(PathBuf::from("club/maps/m.toml"))
        );
        assert_eq!(at("scenarios/s.toml"), Some(PathBuf::from("maps/m.toml")));
        assert_eq!(at("s.toml"), None);
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("maps")).unwrap();
        std::fs::write(dir.path().join("maps/m.toml"), "map").unwrap();
        let scenario = dir.path().join("scenarios/s.toml");
        let names = [
            "../maps/m.toml".to_string(),
            "../maps/gone.toml".to_string(),
        ];
        assert_eq!(
            read_companions(&scenario, &names),
            BTreeMap::from([("../maps/m.toml".to_string(), "map".to_string())])
        );
    }
}
