//! The league file a club moderator writes (`umpire league new FILE`):
//!
//! ```toml
//! id = "winter"                          # games are named winter-1-1, winter-1-2, …
//! name = "The Winter League"
//! pairing = "round-robin"                # or "swiss", or "moderator"
//! rounds = 3
//! games = ["../campaigns/games/border-raid.toml"]   # game files, round by round in turn
//! start_hours = 48                       # a round's games' first deadline, after pairing
//! mail_standings = "round"               # or "result"
//!
//! [moderator]
//! address = "moderator@club.example"
//!
//! [points]                               # these are the defaults
//! win = 3
//! draw = 1
//! loss = 0
//! bye = 3
//! forfeit = 0
//!
//! [rating]
//! system = "elo"
//! k = 32
//! initial = 1500
//!
//! [forfeit]
//! nmr_rounds = 2                         # no orders in 2 rounds in a row: the game is forfeit
//! rated = false
//!
//! [[member]]
//! name = "Anna"
//! address = "anna@club.example"
//! prefers = "koth"                       # a side of the games, if any
//! ```
//!
//! Every number is bounded where it is read ([`bounds`]); the paths of the
//! game files are taken relative to the league file by the post office,
//! which also checks that each starts a two-sided game.

use super::{Forfeit, MailStandings, Points, Settings, System};
use serde::Deserialize;
use std::path::PathBuf;

/// A league file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueFile {
    /// One word: the league's games are named `ID-ROUND-BOARD`.
    pub id: String,
    pub name: String,
    pub moderator: Moderator,
    #[serde(rename = "member", default)]
    pub members: Vec<Member>,
    /// The game files the league plays, one a round in turn.
    pub games: Vec<PathBuf>,
    pub pairing: System,
    pub rounds: u32,
    #[serde(default)]
    pub points: Points,
    #[serde(default)]
    pub rating: Rating,
    #[serde(default)]
    pub forfeit: Forfeit,
    #[serde(default)]
    pub mail_standings: MailStandings,
    #[serde(default = "default_start_hours")]
    pub start_hours: u32,
}

/// The league's moderator: every league game's moderator too.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moderator {
    /// Each league game mails the moderator its own moderator password.
    pub address: String,
}

/// One member.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Member {
    /// As the standings show it, and as the moderator's pairings name them.
    pub name: String,
    pub address: String,
    /// The side the member would rather play, where a game has it.
    pub prefers: Option<String>,
    /// The member's own time zone for deadlines.
    pub timezone: Option<String>,
}

/// The league file's `[rating]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rating {
    #[serde(default = "elo")]
    pub system: String,
    #[serde(default = "default_k")]
    pub k: u32,
    #[serde(default = "default_initial")]
    pub initial: u32,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            system: elo(),
            k: default_k(),
            initial: default_initial(),
        }
    }
}

fn elo() -> String {
    "elo".into()
}
fn default_k() -> u32 {
    32
}
fn default_initial() -> u32 {
    1500
}
/// Hours from `umpire league pair` to a round's games' first deadline.
pub const DEFAULT_START_HOURS: u32 = 48;
fn default_start_hours() -> u32 {
    DEFAULT_START_HOURS
}

/// The bounds of a league file's numbers, each named in the error that refuses it.
pub mod bounds {
    use std::ops::RangeInclusive;
    /// Members: two to a large club's ladder.
    pub const MEMBERS: RangeInclusive<usize> = 2..=500;
    /// Rounds.
    pub const ROUNDS: RangeInclusive<u32> = 1..=500;
    /// Game files.
    pub const GAMES: RangeInclusive<usize> = 1..=50;
    /// Points for any result.
    pub const POINTS: RangeInclusive<u32> = 0..=100;
    /// Elo's K: FIDE uses 10 to 40.
    pub const K: RangeInclusive<u32> = 1..=100;
    /// A new member's rating.
    pub const INITIAL: RangeInclusive<u32> = 100..=3_000;
    /// Hours from pairing to the first deadline: an hour to 90 days.
    pub const START_HOURS: RangeInclusive<u32> = 1..=2_160;
    /// Rounds without orders before a forfeit (0: never).
    pub const NMR_ROUNDS: RangeInclusive<u32> = 0..=100;
    /// The league id is the start of its games' ids (at most 40): room
    /// for `-ROUND-BOARD`.
    pub const ID_LEN: usize = 24;
    /// Longest league or member name, in characters.
    pub const NAME_LEN: usize = 80;
}

/// Problems with a league file, each saying what to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LeagueFileError {
    /// `rounds = 99999`: a number out of its bounds.
    #[error("{key} = {value}: {why}")]
    Value {
        key: String,
        value: String,
        why: String,
    },
    /// `id = "winter league"`.
    #[error("league id '{0}' must be one word of at most {len} letters, digits, '-' or '_' (the league's games are named after it)", len = bounds::ID_LEN)]
    Id(String),
    /// `address = "anna"`.
    #[error("member {name}: '{address}' is not a mail address")]
    Address { name: String, address: String },
    /// Two members with one address.
    #[error("members {first} and {second} have the same address {address}: each member needs an address of their own, since the umpire knows a player by it")]
    DuplicateAddress {
        first: String,
        second: String,
        address: String,
    },
    /// Two members with one name.
    #[error("two members are called '{0}': give each a name of their own (pairings and standings name them)")]
    DuplicateName(String),
    /// `system = "glicko2"`.
    #[error("rating system '{0}' is not one umpire keeps: write system = \"elo\"")]
    RatingSystem(String),
}

impl LeagueFile {
    /// Read a league file's text.
    ///
    /// # Errors
    /// When it is not TOML of this shape (toml's message quotes the line).
    pub fn parse(text: &str) -> Result<LeagueFile, toml::de::Error> {
        toml::from_str(text)
    }

    /// Check every bound and name; `is_address` says whether a text is a
    /// mail address (the post office's check).
    ///
    /// # Errors
    /// The first problem found.
    pub fn check(&self, is_address: impl Fn(&str) -> bool) -> Result<(), LeagueFileError> {
        if self.id.is_empty()
            || self.id.chars().count() > bounds::ID_LEN
            || !self
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(LeagueFileError::Id(self.id.clone()));
        }
        let value = |key: &str, v: String, why: String| LeagueFileError::Value {
            key: key.into(),
            value: v,
            why,
        };
        let range = |key: &str, v: u32, r: std::ops::RangeInclusive<u32>| {
            if r.contains(&v) {
                Ok(())
            } else {
                Err(value(
                    key,
                    v.to_string(),
                    format!("must be from {} to {}", r.start(), r.end()),
                ))
            }
        };
        let one_line = |key: &str, s: &str| {
            if s.trim().is_empty()
                || s.chars().count() > bounds::NAME_LEN
                || s.chars().any(char::is_control)
            {
                Err(value(
                    key,
                    format!("\"{}\"", s.chars().take(40).collect::<String>()),
                    format!("must be one line of 1 to {} characters", bounds::NAME_LEN),
                ))
            } else {
                Ok(())
            }
        };
        one_line("name", &self.name)?;
        range("rounds", self.rounds, bounds::ROUNDS)?;
        range("start_hours", self.start_hours, bounds::START_HOURS)?;
        for (key, v) in [
            ("points.win", self.points.win),
            ("points.draw", self.points.draw),
            ("points.loss", self.points.loss),
            ("points.bye", self.points.bye),
            ("points.forfeit", self.points.forfeit),
        ] {
            range(key, v, bounds::POINTS)?;
        }
        if !self.rating.system.eq_ignore_ascii_case("elo") {
            return Err(LeagueFileError::RatingSystem(self.rating.system.clone()));
        }
        range("rating.k", self.rating.k, bounds::K)?;
        range("rating.initial", self.rating.initial, bounds::INITIAL)?;
        range(
            "forfeit.nmr_rounds",
            self.forfeit.nmr_rounds,
            bounds::NMR_ROUNDS,
        )?;
        if !bounds::GAMES.contains(&self.games.len()) {
            return Err(value(
                "games",
                format!("[{} files]", self.games.len()),
                format!(
                    "a league plays {} to {} game files",
                    bounds::GAMES.start(),
                    bounds::GAMES.end()
                ),
            ));
        }
        let n = self.members.len();
        if !bounds::MEMBERS.contains(&n) {
            return Err(value(
                "[[member]]",
                format!("{n} members"),
                format!(
                    "a league has {} to {} members",
                    bounds::MEMBERS.start(),
                    bounds::MEMBERS.end()
                ),
            ));
        }
        // Rounds with a new opponent for everyone: a round-robin has n − 1
        // (n with a bye each round when n is odd); a Swiss cannot go on
        // longer without a repeat.
        let most = if n % 2 == 0 { n - 1 } else { n } as u32;
        if self.pairing != System::Moderator && self.rounds > most {
            return Err(value(
                "rounds",
                self.rounds.to_string(),
                format!(
                    "{n} members meet each other in at most {most} rounds of {}: give rounds = {most} or fewer",
                    self.pairing.name()
                ),
            ));
        }
        if !is_address(&self.moderator.address) {
            return Err(LeagueFileError::Address {
                name: "moderator".into(),
                address: self.moderator.address.clone(),
            });
        }
        let mut names = std::collections::BTreeMap::new();
        let mut addresses: std::collections::BTreeMap<String, &str> = Default::default();
        for m in &self.members {
            one_line("member.name", &m.name)?;
            if !is_address(&m.address) {
                return Err(LeagueFileError::Address {
                    name: m.name.clone(),
                    address: m.address.clone(),
                });
            }
            if names.insert(m.name.to_lowercase(), ()).is_some() {
                return Err(LeagueFileError::DuplicateName(m.name.clone()));
            }
            if let Some(first) = addresses.insert(m.address.to_ascii_lowercase(), &m.name) {
                return Err(LeagueFileError::DuplicateAddress {
                    first: first.to_string(),
                    second: m.name.clone(),
                    address: m.address.to_ascii_lowercase(),
                });
            }
        }
        Ok(())
    }

    /// The league's rules as the store keeps them.
    pub fn settings(&self) -> Settings {
        Settings {
            pairing: self.pairing,
            rounds: self.rounds,
            points: self.points,
            rating: super::rating::Elo {
                k: f64::from(self.rating.k),
                initial: f64::from(self.rating.initial),
            },
            forfeit: self.forfeit,
            mail_standings: self.mail_standings,
            start_hours: self.start_hours,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(extra: &str, members: usize) -> String {
        let mut s = format!(
            "id = \"winter\"\nname = \"The Winter League\"\npairing = \"round-robin\"\nrounds = 3\ngames = [\"g.toml\"]\n{extra}\n[moderator]\naddress = \"m@club.example\"\n"
        );
        for i in 0..members {
            s.push_str(&format!(
                "[[member]]\nname = \"M{i}\"\naddress = \"m{i}@club.example\"\n"
            ));
        }
        s
    }

    fn check(text: &str) -> Result<LeagueFile, String> {
        let f = LeagueFile::parse(text).map_err(|e| e.to_string())?;
        f.check(|a| a.contains('@')).map_err(|e| e.to_string())?;
        Ok(f)
    }

    #[test]
    fn a_plain_league_file_reads_with_the_defaults() {
        let f = check(&file("", 4)).unwrap();
        let s = f.settings();
        assert_eq!((s.points.win, s.points.draw, s.points.bye), (3, 1, 3));
        assert_eq!((s.rating.k, s.rating.initial), (32.0, 1500.0));
        assert_eq!(s.forfeit.nmr_rounds, 2);
    }

    #[test]
    fn absurd_numbers_are_refused_with_their_bounds() {
        for (extra, want) in [
            ("start_hours = 0", "start_hours = 0: must be from 1 to 2160"),
            (
                "[points]\nwin = 4000000000",
                "points.win = 4000000000: must be from 0 to 100",
            ),
            ("[rating]\nk = 0", "rating.k = 0: must be from 1 to 100"),
            ("[rating]\ninitial = 99999", "rating.initial = 99999"),
            ("[forfeit]\nnmr_rounds = 1000", "forfeit.nmr_rounds = 1000"),
            ("[rating]\nsystem = \"glicko2\"", "rating system 'glicko2'"),
        ] {
            let e = check(&file(extra, 4)).unwrap_err();
            assert!(e.contains(want), "{extra}: {e}");
        }
        let e = check(&file("", 4).replace("rounds = 3", "rounds = 4")).unwrap_err();
        assert!(
            e.contains("4 members meet each other in at most 3 rounds"),
            "{e}"
        );
        let e = check(&file("", 4).replace("rounds = 3", "rounds = -1")).unwrap_err();
        assert!(e.contains("rounds"), "{e}");
        let e = check(&file("", 1)).unwrap_err();
        assert!(e.contains("a league has 2 to 500 members"), "{e}");
        let e = check(&file("", 4).replace("\"winter\"", "\"the winter league\"")).unwrap_err();
        assert!(e.contains("must be one word"), "{e}");
    }

    #[test]
    fn members_need_names_and_addresses_of_their_own() {
        let e = check(&file("", 4).replace("m2@club.example", "M1@Club.example")).unwrap_err();
        assert!(
            e.contains("members M1 and M2 have the same address m1@club.example"),
            "{e}"
        );
        let e = check(&file("", 4).replace("\"M3\"", "\"m0\"")).unwrap_err();
        assert!(e.contains("two members are called 'm0'"), "{e}");
        let e = check(&file("", 4).replace("m3@club.example", "nobody")).unwrap_err();
        assert!(
            e.contains("member M3: 'nobody' is not a mail address"),
            "{e}"
        );
        let e = check(&file("colour = \"red\"", 4)).unwrap_err();
        assert!(e.contains("unknown field `colour`"), "{e}");
    }
}
