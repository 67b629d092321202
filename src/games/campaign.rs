//! The boundary between the post office and a campaign's rules, beside
//! [`Ruleset`](super::Ruleset): a map game of powers who write orders each
//! week, read, checked and resolved by the rules, with a secretary who
//! moderates it and battles fought by the engine, face to face or as
//! battle games by mail.
//!
//! The post office keeps a campaign's store rows, deadlines, reminders,
//! passwords, the secretary's office commands (extend, replace, cancel,
//! status, resolve, rerun) and the mail; it knows the campaign only
//! through [`CampaignRules`] ([`super::campaign_rules`] gives the
//! one umpire runs). The campaign's state, its orders, its
//! events and its entered battle results cross as JSON text that only the
//! rules read (text, not [`Json`](super::Json) values, so the stored bytes
//! stay those the rules wrote and a re-run compares like with like).

use super::{GameResult, Json, RulesetError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A campaign's state, orders, events or entered result as stored: JSON
/// text that only the rules read.
pub type Stored = str;

/// Who writes a campaign letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    Power(String),
    Secretary,
}

/// A campaign letter's header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub campaign: String,
    pub role: Role,
    pub password: String,
}

/// A line of a letter and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line<T> {
    /// 1-based line number in the message text.
    pub number: usize,
    pub text: String,
    pub item: T,
}

/// A secretary's or power's command, as the post office carries it out.
/// The office's commands are the same for every campaign; the rules' own
/// (a battle's result, how it is fought, a correction) pass through as
/// [`Command::Rules`] and are decided by [`CampaignRules::secretary`].
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Every power's orders of the week, checked, in one mail.
    Digest,
    /// Drop a power's n-th order of the week, as the digest numbers them.
    Cancel {
        power: String,
        line: u32,
    },
    /// Play the week now.
    Resolve,
    /// Play the week last resolved again (ruling CA-30).
    Rerun {
        turn: Option<u32>,
        without: Vec<(String, u32)>,
    },
    /// The week's deadline later by so many hours (ruling CA-32).
    Extend {
        hours: u32,
    },
    /// The power handed to another player (ruling CA-32).
    Replace {
        power: String,
        address: String,
    },
    /// The power handed to the umpire's general of a style (issue 42).
    ReplaceGeneral {
        power: String,
        style: String,
    },
    Status,
    Help,
    /// A command of the rules' own, as they read it.
    Rules(Json),
}

/// A whole campaign letter read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Letter {
    pub header: Option<Header>,
    /// The power's orders, each as the rules read it.
    pub orders: Vec<Line<Json>>,
    pub commands: Vec<Line<Command>>,
    /// Lines not understood: the line and why, rustc-style.
    pub errors: Vec<Line<String>>,
}

/// One player's seat as the set-up file gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The power's id (empty for the secretary).
    pub id: String,
    /// Empty, with the password, for a power a general plays.
    pub address: String,
    pub password: String,
    /// The style of the umpire's general who plays the power instead of a
    /// player (issue 42).
    pub general: Option<crate::sim::Style>,
}

/// A campaign ready to start: its opening state and who plays.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    pub id: String,
    pub title: String,
    pub state: String,
    pub secretary: Seat,
    pub powers: Vec<Seat>,
}

/// What the set-up of a campaign gives the post office.
pub trait SetUp {
    /// The file's campaign id, for errors.
    fn id(&self) -> &str;
    /// The campaign started from it.
    ///
    /// # Errors
    /// Why the set-up cannot start, in words for the secretary.
    fn opening(&self) -> Result<Opening, String>;
}

/// What the post office needs to know of a campaign's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    pub id: String,
    pub title: String,
    /// The week open for orders, as reports name it ("week 3 of 1288").
    pub date: String,
    /// Map turns resolved so far.
    pub turn: u32,
    /// Hours from one week's resolution to the next's deadline (0: none).
    pub week_hours: u32,
    /// Hours before the deadline a power without orders is reminded (0: never).
    pub reminder_hours: u32,
    /// Battles waiting for a result, by number.
    pub pending: Vec<u32>,
}

/// A week's dice as the reports publish them, the battle game's way: each
/// report commits to the coming week's seed by its SHA-256
/// ([`crate::dice::seed_hash`]) and reveals the seed of the week just
/// resolved, so a player can check it was fixed before the orders came in
/// (ruling CA-21).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct WeekDice {
    /// The seed of the week just resolved (hex); none in the opening report.
    pub revealed: Option<String>,
    /// What the previous report published for it.
    pub revealed_hash: Option<String>,
    /// The SHA-256 of the coming week's seed.
    pub next_hash: String,
}

/// What a report tells of the week just played, besides the campaign after it.
#[derive(Debug, Clone, Copy)]
pub struct Week<'a> {
    /// The turn played, as the report names it: "the start", "week 3 of 1288".
    pub played: &'a str,
    /// The week's events as the rules stored them (`None`: none).
    pub events: Option<&'a Stored>,
    /// Every power's orders for the week, as the resolver read them.
    pub orders: &'a BTreeMap<String, Vec<Line<Json>>>,
    /// The dice published; none where no week is open (a status print).
    pub dice: Option<&'a WeekDice>,
    /// Lines before the report: the welcome, the deadline, the digest.
    pub intro: &'a str,
}

/// The pictures of one reader's report: the map, and the last table of
/// each battle the reader fought, by battle.
#[derive(Debug, Clone, PartialEq)]
pub struct Pictures {
    pub map: String,
    pub battles: Vec<(u32, String)>,
}

/// Where the HTML report finds its pictures (`cid:` addresses).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sources {
    pub map: Option<String>,
    pub battles: BTreeMap<u32, String>,
}

/// A week resolved: the state after it and its events, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub state: String,
    pub events: String,
    pub count: usize,
}

/// Each power's orders on file for the week being ordered (`None`: it
/// sent none), by power.
pub type OnFile = BTreeMap<String, Option<Vec<Line<Json>>>>;

/// The rules' answer to one of their own secretary's commands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ruling {
    /// The line of the secretary's answer.
    pub answer: String,
    /// The campaign as the command leaves it, when it changed.
    pub state: Option<String>,
    /// A battle result to record (battle, the entered result as stored).
    pub result: Option<(u32, String)>,
    /// Each power to tell, with what (a correction's notice).
    pub tell: Vec<(String, String)>,
    /// For the log.
    pub audit: Option<String>,
    /// A battle now to be played by mail: the post office starts its game
    /// and finishes the answer.
    pub by_mail: Option<u32>,
}

/// A waiting battle to be played as a battle game by mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailBattle {
    pub battle: u32,
    pub game_id: String,
    pub title: String,
    /// The battle game's ruleset name.
    pub ruleset: &'static str,
    /// Its scenario text, or why none can be made.
    pub scenario: Result<String, String>,
    /// The two powers whose players fight it.
    pub powers: [String; 2],
    pub turns: u32,
    /// Hours between its turns.
    pub turn_hours: u32,
}

/// A battle game's end, as it goes back to the campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Returned {
    /// The entered result as stored.
    pub entered: String,
    /// The power that holds the field, if any.
    pub winner: Option<String>,
    /// Both armies broke in the same turn (`winner` then broke by less).
    pub both_broke: bool,
    /// The figures each army lost, in words ("aquilonia-1: 3 Gundermen").
    pub lost: Vec<String>,
}

/// One campaign system, as the post office sees it.
pub trait CampaignRules: Sync {
    /// Whether a mail's text is campaign mail (before any battle header).
    fn is_campaign_mail(&self, text: &str) -> bool;
    /// Read a campaign letter.
    fn read(&self, text: &str) -> Letter;
    /// The order guide a power gets for HELP and with its first report.
    fn guide(&self) -> &'static str;
    /// The secretary's commands, for HELP.
    fn secretary_guide(&self) -> &'static str;
    /// What the post office needs of the state.
    ///
    /// # Errors
    /// A damaged state.
    fn facts(&self, state: &Stored) -> Result<Facts, RulesetError>;
    /// Each of a power's orders judged against the week as ordered so far:
    /// `None` accepted, `Some(why)` refused.
    ///
    /// # Errors
    /// A damaged state or orders.
    fn check(
        &self,
        state: &Stored,
        power: &str,
        orders: &[Line<Json>],
    ) -> Result<Vec<Option<String>>, RulesetError>;
    /// Resolve the open week from every power's orders and the battle
    /// results entered, with the week's seed.
    ///
    /// # Errors
    /// A damaged state, orders or results.
    fn resolve(
        &self,
        state: &Stored,
        orders: &BTreeMap<String, Vec<Line<Json>>>,
        results: &[Json],
        seed: [u8; 32],
    ) -> Result<Resolved, RulesetError>;
    /// The pictures of `reader`'s report (`None`: the secretary's).
    ///
    /// # Errors
    /// A damaged state or events.
    fn pictures(
        &self,
        state: &Stored,
        reader: Option<&str>,
        week: &Week<'_>,
    ) -> Result<Pictures, RulesetError>;
    /// The map as anyone may see it, for the club's web pages: what every
    /// power knows of every province (its owner), no army, no battle.
    ///
    /// # Errors
    /// A damaged state.
    fn public_map(&self, state: &Stored) -> Result<String, RulesetError>;
    /// `reader`'s report as text, and as HTML when `sources` says where its
    /// pictures are.
    ///
    /// # Errors
    /// A damaged state or events.
    fn report(
        &self,
        state: &Stored,
        reader: Option<&str>,
        week: &Week<'_>,
        sources: Option<&Sources>,
    ) -> Result<(String, Option<String>), RulesetError>;
    /// Every power's orders of the week, numbered and checked, for the
    /// secretary.
    ///
    /// # Errors
    /// A damaged state.
    fn digest(&self, state: &Stored, on_file: &OnFile) -> Result<String, RulesetError>;
    /// The rules' part of the secretary's STATUS: battles awaiting results,
    /// treasuries.
    ///
    /// # Errors
    /// A damaged state.
    fn status(&self, state: &Stored) -> Result<String, RulesetError>;
    /// One of the rules' own secretary's commands ([`Command::Rules`]),
    /// with the line as written.
    ///
    /// # Errors
    /// A damaged state.
    fn secretary(&self, state: &Stored, command: &Json, text: &str)
        -> Result<Ruling, RulesetError>;
    /// The letter the general of `style` writes for `power` in the week
    /// open for orders: its orders, one a line, without the header (empty:
    /// its armies stand); from what the power sees alone and the week's
    /// `seed`, so the same state and seed give the same letter.
    ///
    /// # Errors
    /// A damaged state, or no such power.
    fn general_letter(
        &self,
        state: &Stored,
        power: &str,
        style: crate::sim::Style,
        seed: [u8; 32],
    ) -> Result<String, RulesetError>;
    /// The battles waiting to be played by mail.
    ///
    /// # Errors
    /// A damaged state.
    fn mail_battles(&self, state: &Stored) -> Result<Vec<MailBattle>, RulesetError>;
    /// The state with `battle` handed to the secretary instead, and why.
    ///
    /// # Errors
    /// A damaged state.
    fn not_by_mail(&self, state: &Stored, battle: u32, why: &str) -> Result<String, RulesetError>;
    /// A battle game's end as the campaign's result for `battle`, from its
    /// scenario, its last state and its result; `None` when the battle no
    /// longer waits (the secretary entered a result).
    ///
    /// # Errors
    /// A damaged state.
    fn returned(
        &self,
        state: &Stored,
        battle: u32,
        setup: &str,
        last: &Json,
        result: Option<&GameResult>,
    ) -> Result<Option<Returned>, RulesetError>;
}
