//! Club leagues, as pure functions: the league file's settings
//! ([`Settings`]: the pairing system, points, the rating), the pairings of a
//! round ([`pairing`]: round-robin by the circle method, Swiss, or the
//! moderator's list, with sides dealt fairly), Elo ratings ([`rating`]) and
//! the standings table ([`standings`]) computed from the results in the
//! order they were recorded.
//!
//! Nothing here reads a file, the clock or the database: the post office
//! (`post::league`) stores members and results and hands them in.
//!
//! ```
//! use umpire::league::{pairing, rating::Elo};
//! // Four members, round 1 of a round-robin: two games, no bye.
//! let round = pairing::round_robin(4, 1);
//! assert_eq!((round.games.len(), round.byes.len()), (2, 0));
//! // Equal ratings, K = 32: the winner gains 16.
//! let (a, b) = Elo { k: 32.0, initial: 1500.0 }.rate(1500.0, 1500.0, 1.0);
//! assert_eq!((a, b), (1516.0, 1484.0));
//! ```

pub mod file;
pub mod pairing;
pub mod rating;
pub mod standings;

use serde::{Deserialize, Serialize};

/// How a league's rounds are paired (the league file's `pairing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    /// `pairing = "round-robin"`: everyone meets everyone once, by the
    /// circle method; a bye each round when the count is odd.
    RoundRobin,
    /// `pairing = "swiss"`: by points, then rating; never the same pair twice.
    Swiss,
    /// `pairing = "moderator"`: the moderator's list (`umpire league pair
    /// LEAGUE --pairs FILE`).
    Moderator,
}

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::RoundRobin => "round-robin",
            System::Swiss => "swiss",
            System::Moderator => "moderator",
        }
    }
}

/// Points per result (the league file's `[points]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Points {
    #[serde(default = "three")]
    pub win: u32,
    #[serde(default = "one")]
    pub draw: u32,
    #[serde(default)]
    pub loss: u32,
    /// A member who sits a round out (an odd count) scores this (LG-1).
    #[serde(default = "three")]
    pub bye: u32,
    /// A member who forfeits a game (no orders for too long, LG-3) scores this.
    #[serde(default)]
    pub forfeit: u32,
}

fn three() -> u32 {
    3
}
fn one() -> u32 {
    1
}

impl Default for Points {
    fn default() -> Self {
        Points {
            win: 3,
            draw: 1,
            loss: 0,
            bye: 3,
            forfeit: 0,
        }
    }
}

/// When a side is taken to have abandoned a game (the league file's
/// `[forfeit]`, ruling LG-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forfeit {
    /// A side that sent no orders in this many of its rounds in a row
    /// forfeits the game, whatever the board says (0: never).
    #[serde(default = "two")]
    pub nmr_rounds: u32,
    /// Whether a forfeit moves the ratings (it says little of skill).
    #[serde(default)]
    pub rated: bool,
}

fn two() -> u32 {
    2
}

impl Default for Forfeit {
    fn default() -> Self {
        Forfeit {
            nmr_rounds: 2,
            rated: false,
        }
    }
}

/// When the standings are mailed to every member (ruling LG-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum MailStandings {
    /// Once every game of a round has a result.
    #[default]
    Round,
    /// After every result.
    Result,
}

/// A league's rules, as its file gives them and the store keeps them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub pairing: System,
    pub rounds: u32,
    pub points: Points,
    pub rating: rating::Elo,
    pub forfeit: Forfeit,
    pub mail_standings: MailStandings,
    /// The first deadline of a round's games is this many hours after
    /// `umpire league pair` (rounded up to the hour).
    pub start_hours: u32,
}

/// How one league game came out, from the first side's member's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Score {
    /// The member playing the game file's first side won.
    FirstWon,
    SecondWon,
    Drawn,
    /// The first side's member forfeited (no orders, LG-3): the other wins.
    FirstForfeited,
    SecondForfeited,
    /// Both forfeited: neither wins (LG-3).
    BothForfeited,
}

impl Score {
    /// Every score, for reading one back by its name.
    pub const ALL: [Score; 6] = [
        Score::FirstWon,
        Score::SecondWon,
        Score::Drawn,
        Score::FirstForfeited,
        Score::SecondForfeited,
        Score::BothForfeited,
    ];

    /// As stored: `first-won`, `drawn`, …
    pub fn code(self) -> &'static str {
        match self {
            Score::FirstWon => "first-won",
            Score::SecondWon => "second-won",
            Score::Drawn => "drawn",
            Score::FirstForfeited => "first-forfeited",
            Score::SecondForfeited => "second-forfeited",
            Score::BothForfeited => "both-forfeited",
        }
    }

    /// The score stored as `code`.
    pub fn from_code(code: &str) -> Option<Score> {
        Score::ALL.into_iter().find(|s| s.code() == code)
    }

    /// Whether the result came from the board (not a forfeit).
    pub fn played_out(self) -> bool {
        matches!(self, Score::FirstWon | Score::SecondWon | Score::Drawn)
    }

    /// The first member's Elo score (1 a win, ½ a draw, 0 a loss); none for
    /// a double forfeit.
    pub fn first_elo(self) -> Option<f64> {
        match self {
            Score::FirstWon | Score::SecondForfeited => Some(1.0),
            Score::SecondWon | Score::FirstForfeited => Some(0.0),
            Score::Drawn => Some(0.5),
            Score::BothForfeited => None,
        }
    }

    /// The result in words, with the two members' names.
    pub fn words(self, first: &str, second: &str) -> String {
        match self {
            Score::FirstWon => format!("{first} beat {second}"),
            Score::SecondWon => format!("{second} beat {first}"),
            Score::Drawn => format!("{first} and {second} drew"),
            Score::FirstForfeited => format!("{first} forfeited to {second}"),
            Score::SecondForfeited => format!("{second} forfeited to {first}"),
            Score::BothForfeited => format!("{first} and {second} both forfeited"),
        }
    }
}

impl Default for Settings {
    /// A round-robin of one round, 3-1-0 points with 3 for a bye, Elo with
    /// K = 32 from 1500, forfeits after two rounds without orders,
    /// standings mailed each round, games starting 48 hours after pairing.
    fn default() -> Self {
        Settings {
            pairing: System::RoundRobin,
            rounds: 1,
            points: Points::default(),
            rating: rating::Elo::default(),
            forfeit: Forfeit::default(),
            mail_standings: MailStandings::default(),
            start_hours: file::DEFAULT_START_HOURS,
        }
    }
}
