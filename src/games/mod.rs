//! The rule sets umpire judges, side by side, and the boundary between
//! them and the shared machinery.
//!
//! Each rule set lives in its own folder and owns its orders, its board or
//! table, its resolution, its report's story, summary and picture, its
//! guide and its case format. The post office, the store, the report frame
//! and the case runner know a rule set only as a [`Ruleset`]: its state,
//! options, orders and events cross the boundary as JSON ([`Json`]) that
//! only the rule set reads, so nothing outside its folder depends on its
//! types.
//!
//! A game is a sequence of **rounds** ([`Round`]): each says which sides
//! write, and is resolved when they are all in or its deadline passes. A
//! Hyborean turn is one round in which every side writes; a Furor Barbarus
//! player-turn is a round in which one side writes; a sealed set-up is a
//! round whose orders are revealed together. A round may also be one the
//! **game master** answers instead of the sides ([`Round::game_master`]):
//! FR! Ancients without a pack stops where the sheet cannot resolve alone
//! and asks the game master (the game's moderator) by mail. The post office
//! keeps the deadlines, reminders, drafts and dice of rounds and never a
//! rule set's turn structure.
//!
//! ```
//! let r = umpire::games::ruleset("hyborian-age").unwrap();
//! assert_eq!(r.title(), "Royal Armies of the Hyborean Age");
//! assert!(umpire::games::ruleset("chess").is_none());
//! ```

pub mod campaign;
mod case_outcome;
pub mod fr_ancients;
pub mod furor;
pub mod hyborian;
pub mod rendering;

use crate::diagnostic::Rendered;
use crate::dice::{Dice, DieKind};
pub use crate::report::GameResult;
use crate::report::{RoundReport, Section};
pub use case_outcome::CaseOutcome;
use std::collections::BTreeMap;
use std::path::Path;

/// The rule set a game, scenario or case file plays when it names none:
/// the Hyborean Age, umpire's first (files written before the others came
/// name none).
pub const DEFAULT_RULESET: &str = hyborian::RULESET;

/// A rule set's state, options, orders or events as stored: JSON that only
/// the rule set reads.
pub type Json = serde_json::Value;

/// Why a rule set could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    /// A scenario or game file the rule set cannot start a game from.
    #[error("{0}")]
    Setup(String),
    /// Stored state, orders or events the rule set cannot read (a bug, or a
    /// database written by another version).
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    /// The engine could not resolve the round (a scripted die missing…).
    #[error("the engine could not play the round: {0}")]
    Engine(String),
}

/// A rule set's typed value read from its stored JSON (a state, orders,
/// options), without copying the JSON first: the round a game waits for
/// is read from its whole table several times a message.
pub(crate) fn read<T: serde::de::DeserializeOwned>(
    what: &str,
    json: &Json,
) -> Result<T, RulesetError> {
    T::deserialize(json).map_err(|e| RulesetError::Corrupt(format!("{what}: {e}")))
}

/// What a game starts from: the scenario file, the game file's options and
/// limits, and the first round's seed for rolls made at set-up.
#[derive(Debug, Clone)]
pub struct Setup<'a> {
    pub scenario_path: &'a Path,
    pub scenario_text: &'a str,
    /// The game file's `[options]`, the rule set's house rules by name.
    pub options: &'a toml::Table,
    /// The game file's limit on the game's length, in the rule set's turns.
    pub max_turns: u32,
    pub seed: [u8; 32],
    /// Each side's army file as text (the game file's `[[side]] army`),
    /// for a rule set whose forces come from the players' lists rather
    /// than the scenario; empty when the game file names none.
    pub armies: &'a BTreeMap<String, String>,
    /// The game file's `pack`: a club's data file of base rules, as text.
    pub pack: Option<&'a str>,
    /// The files the rule set names beside the scenario
    /// ([`Ruleset::companions`]), by that name, as text: the caller that
    /// reads the scenario reads them (a rule set reads no file); one that
    /// could not be read is absent.
    pub companions: &'a BTreeMap<String, String>,
}

impl Setup<'_> {
    /// A rule set that takes no army files and no pack refuses a game file
    /// that gives them, rather than ignoring them.
    ///
    /// # Errors
    /// When the game file names army files or a pack.
    pub fn no_armies_nor_pack(&self, title: &str) -> Result<(), RulesetError> {
        if !self.armies.is_empty() || self.pack.is_some() {
            return Err(RulesetError::Setup(format!(
                "{title} takes its forces from the scenario: remove `army` from the [[side]] tables and `pack` from the game file"
            )));
        }
        Ok(())
    }
}

/// A new game as the rule set sets it up.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub state: Json,
    pub options: Json,
    /// The scenario's sides, in id order.
    pub sides: Vec<String>,
    /// The last turn of the game (after any roll for its length).
    pub last_turn: u32,
    /// Each side's briefing for its welcome mail.
    pub welcome: BTreeMap<String, Welcome>,
}

/// The rule set's part of a player's welcome mail.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Welcome {
    /// The rules' name as the welcome's first line gives it.
    pub rules: String,
    /// How long the game lasts, and what the first round asks (a paragraph).
    pub length: String,
    /// The side's forces and whatever else it is told at the start.
    pub briefing: String,
    /// An order line to copy under the header (may be empty).
    pub example: String,
    /// The table at the start as SVG (attached to the welcome as PNG and
    /// SVG), where the rule set draws one.
    pub picture: Option<String>,
}

/// One round of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// The round's number, as stored and written in `TURN n` headers.
    pub number: u32,
    /// The round as players call it: "turn 3".
    pub label: String,
    /// The sides that write orders this round (the others wait); empty in
    /// a round the game master answers.
    pub writers: Vec<String>,
    /// A round the game master answers, not the sides: the situation to
    /// mail him (the post office adds how to answer). The game master is
    /// the game's moderator; his answer comes under the moderator's header
    /// with `TURN n`, and is checked by [`Ruleset::check_orders`] with the
    /// side [`GAME_MASTER`].
    pub game_master: Option<String>,
}

/// The side a game master's answer is checked and stored under.
pub const GAME_MASTER: &str = "(game master)";

/// One side's orders as the rule set checked them.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The orders that stand, for the engine.
    pub orders: Json,
    /// Each accepted order in canonical form, keyed by what it is for (a
    /// unit), in the order written: the confirmation lists changes by key.
    pub understood: Vec<(String, String)>,
    /// The rule set's confirmation text: every order as understood, every
    /// error with its line quoted, what will stand.
    pub confirmation: String,
    /// How many lines were refused (the envelope's errors included).
    pub errors: usize,
}

/// What resolving a round gives.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub state: Json,
    pub events: Json,
    /// The story of the round, section by section.
    pub sections: Vec<Section>,
    /// Every die rolled, in order: "fire:boss:1 = 4".
    pub dice: Vec<String>,
    /// The rule set's summary of the board, for its report partials.
    pub summary: Json,
    /// The heading of the summary ("The table after turn 3").
    pub summary_title: String,
    /// How the game stands against its victory conditions.
    pub victory: Vec<String>,
    pub ended: bool,
    /// Who won, once the game has ended and the rule set can say
    /// (`None` while it goes on, or when the rule set names no winner).
    pub result: Option<GameResult>,
    /// What else the report keeps for the picture.
    pub extra: serde_json::Map<String, Json>,
}

/// The inputs of a round's resolution.
pub struct RoundInput<'a> {
    pub state: &'a Json,
    pub options: &'a Json,
    /// The scenario the game was created from, as stored.
    pub setup: &'a str,
    pub last_turn: u32,
    /// Each side's latest checked orders; a side that sent none is absent.
    pub orders: &'a BTreeMap<String, Json>,
    pub dice: &'a mut dyn Dice,
}

/// One rule set, as the post office, the report and the case runner see it.
pub trait Ruleset: Sync {
    /// The name game and case files give (`ruleset = "hyborian-age"`).
    fn name(&self) -> &'static str;
    /// The book's title.
    fn title(&self) -> &'static str;
    /// The rules' identity a round is played under: the rule set's version
    /// and what its data and the game's options hash to.
    fn version(&self, options: &Json) -> String;
    /// The player's guide, the answer to `HELP`.
    fn guide(&self) -> &'static str;
    /// The rule set's report partials (`RULESET/summary.txt`, `.html`).
    fn templates(&self) -> &'static [(&'static str, &'static str)];
    /// The files a game from this scenario needs besides it, as paths
    /// relative to the scenario file (Furor Barbarus: its map,
    /// `../maps/NAME.toml`), for whoever reads the scenario to read into
    /// [`Setup::companions`]. None by default.
    fn companions(&self, _scenario_text: &str) -> Vec<String> {
        Vec::new()
    }
    /// Start a game from its scenario.
    ///
    /// # Errors
    /// When the scenario or options are not the rule set's.
    fn new_game(&self, setup: &Setup<'_>) -> Result<NewGame, RulesetError>;
    /// The sides of a game in this state, in id order.
    ///
    /// # Errors
    /// When the stored state cannot be read.
    fn sides(&self, state: &Json) -> Result<Vec<String>, RulesetError>;
    /// The round the state is waiting for.
    ///
    /// # Errors
    /// When the stored state cannot be read.
    fn round(&self, state: &Json) -> Result<Round, RulesetError>;
    /// The sides that write in the round after the one the state waits
    /// for, when the rule set knows them before that round is played
    /// (`None`: it cannot say). The post office holds mail written for that
    /// round by these sides until it opens.
    ///
    /// # Errors
    /// When the stored state cannot be read.
    fn next_writers(&self, _state: &Json) -> Result<Option<Vec<String>>, RulesetError> {
        Ok(None)
    }
    /// What a player's header `TURN turn [PHASE phase]` names in this
    /// state: the number of the round it is for (0: none the game can take
    /// or hold), and the header's words for the round the state waits for
    /// (`TURN 3`). By default a round is a turn and has no phases:
    /// `(turn, "TURN n")`, and a `PHASE` names none. A rule set whose rounds
    /// are parts of a game turn (FR! Ancients' phases) counts `TURN` in game
    /// turns, and may take the phase.
    ///
    /// # Errors
    /// When the stored state cannot be read.
    fn header_turn(
        &self,
        state: &Json,
        turn: u32,
        phase: Option<u32>,
    ) -> Result<(u32, String), RulesetError> {
        let named = if phase.is_some() { 0 } else { turn };
        Ok((named, format!("TURN {}", self.round(state)?.number)))
    }
    /// Check `side`'s sheet of orders (the mail with its envelope blanked);
    /// `envelope` are the envelope's own diagnostics, rendered, to show with
    /// the orders'.
    ///
    /// # Errors
    /// When the stored state cannot be read.
    fn check_orders(
        &self,
        state: &Json,
        side: &str,
        sheet: &str,
        envelope: &[Rendered],
    ) -> Result<Checked, RulesetError>;
    /// Standing data the moderator sends for the game while no round waits
    /// for his answer (FR! Ancients: the game master's `VALUES` block):
    /// `None` when `text` holds none; else the new state, when the data was
    /// taken, and the reply that says what was taken or why not.
    ///
    /// # Errors
    /// When the state cannot be read.
    fn moderator_data(
        &self,
        _state: &Json,
        _text: &str,
    ) -> Result<Option<(Option<Json>, String)>, RulesetError> {
        Ok(None)
    }
    /// The die a dice key of this rule set uses, for a moderator's `DICE`.
    ///
    /// # Errors
    /// When the key is not one of this rule set's, in words.
    fn die_for(&self, state: &Json, key: &str) -> Result<DieKind, String>;
    /// One side's orders of a mail with refused lines laid over its earlier
    /// orders for the round: what the later mail orders replaces, what it
    /// does not mention stands. By default the later orders replace all.
    ///
    /// # Errors
    /// When stored orders cannot be read.
    fn merge_orders(&self, _earlier: &Json, later: &Json) -> Result<Json, RulesetError> {
        Ok(later.clone())
    }
    /// Resolve the round with the orders in and the dice given.
    ///
    /// # Errors
    /// When stored data cannot be read or the engine cannot play.
    fn resolve(&self, input: RoundInput<'_>) -> Result<Resolved, RulesetError>;
    /// The picture of the board after a round, as SVG, drawn from the
    /// states and the report's title, turn, label and the rule set's own
    /// extras alone (a picture worked out ahead is used when those are
    /// the same; `post::round::OFFICE_EXTRAS` are not the rule set's).
    ///
    /// # Errors
    /// When stored data cannot be read.
    fn picture(
        &self,
        before: &Json,
        after: &Json,
        report: &RoundReport,
    ) -> Result<String, RulesetError>;
    /// The order preview a confirmation carries: a picture (SVG) of
    /// `side`'s units and where its standing `orders` would take them if
    /// nothing else moved. `None` where the rule set draws none.
    ///
    /// # Errors
    /// When stored data cannot be read.
    fn preview(
        &self,
        _state: &Json,
        _options: &Json,
        _side: &str,
        _orders: &Json,
    ) -> Result<Option<String>, RulesetError> {
        Ok(None)
    }
    /// A stored state as this build writes it (fields added since filled
    /// with their defaults), so a replay is compared with what was stored
    /// and not with how an older build spelled it.
    ///
    /// # Errors
    /// When the stored state cannot be read.
    fn canonical(&self, state: &Json) -> Result<Json, RulesetError> {
        Ok(state.clone())
    }
    /// The result of the game as it stands, for a game its moderator ends
    /// before its last round (a campaign's battle by mail goes back with
    /// it): the side that has won by then, or `None` when the rule set
    /// names no winner before the end.
    ///
    /// # Errors
    /// When the stored state or scenario cannot be read.
    fn standing(&self, _setup: &str, _state: &Json) -> Result<Option<GameResult>, RulesetError> {
        Ok(None)
    }
    /// Whether the umpire's generals can play a side of a game with these
    /// options (`Err`: why not, in words for the moderator who wrote the
    /// game file). By default a rule set has no general.
    fn general_plays(&self, _options: &Json) -> Result<(), String> {
        Err(format!(
            "the umpire has no general for {} yet: every side needs a player's address",
            self.title()
        ))
    }
    /// The sheet the general of `style` writes for `side` in the round the
    /// state waits for: the lines a player would mail under the header. A
    /// pure function of the game's setup (its scenario: what it rewards)
    /// and the state, so a game with a general replays as any.
    ///
    /// # Errors
    /// When the setup or state cannot be read, or the rule set has no
    /// general ([`Ruleset::general_plays`] says so before a game is made).
    fn general_orders(
        &self,
        _setup: &str,
        _state: &Json,
        _side: &str,
        _style: crate::sim::Style,
    ) -> Result<String, RulesetError> {
        Err(RulesetError::Setup(format!(
            "the umpire has no general for {}",
            self.title()
        )))
    }
    /// Run the text of one of this rule set's case files.
    fn run_case(&self, text: &str) -> CaseOutcome;
    /// The board a case file sets up, for checking orders against it offline.
    ///
    /// # Errors
    /// When the case file cannot be read.
    fn case_state(&self, text: &str) -> Result<Json, RulesetError>;
}

/// Every rule set umpire judges.
pub fn all() -> &'static [&'static dyn Ruleset] {
    &[
        &hyborian::ruleset::HyborianAge,
        &furor::ruleset::FurorBarbarus,
        &fr_ancients::ruleset::FrAncients,
    ]
}

/// The campaign system umpire runs: the Hyborean world campaign (a second
/// would add a column naming it to the campaigns' store rows).
pub fn campaign_rules() -> &'static dyn campaign::CampaignRules {
    &hyborian::campaign::desk::HyboreanCampaign
}

/// The rule set of that name.
pub fn ruleset(name: &str) -> Option<&'static dyn Ruleset> {
    all().iter().copied().find(|r| r.name() == name)
}

/// The rule set of that name, or an error listing the ones there are.
///
/// # Errors
/// When umpire judges no rule set of that name.
pub fn named(name: &str) -> Result<&'static dyn Ruleset, RulesetError> {
    ruleset(name).ok_or_else(|| {
        let names: Vec<&str> = all().iter().map(|r| r.name()).collect();
        RulesetError::Setup(format!(
            "no rule set called '{name}' (umpire judges: {})",
            names.join(", ")
        ))
    })
}

/// The rule set a case file, scenario or game file names (`ruleset = "…"`),
/// or the Hyborean Age's when it names none.
///
/// # Errors
/// When the text is not TOML or `ruleset` is not a string.
pub fn ruleset_named_in(text: &str) -> Result<String, String> {
    let value: toml::Table =
        toml::from_str(text).map_err(|e| format!("not TOML: {}", e.message()))?;
    match value.get("ruleset") {
        None => Ok(DEFAULT_RULESET.to_string()),
        Some(toml::Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("ruleset must be a name in quotes, not {other}")),
    }
}

/// The files beside a scenario that any rule set [`scenario_game`] may try
/// names ([`Ruleset::companions`]), sorted.
pub fn scenario_companions(scenario_text: &str) -> Vec<String> {
    let mut names: Vec<String> = all()
        .iter()
        .flat_map(|r| r.companions(scenario_text))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The game a scenario starts (`umpire orders check --scenario`): under
/// the rule set its `ruleset` key names, or, when it names none (no shipped
/// scenario does: its game file names the rule set), under the first rule
/// set of [`all`] that starts a game from it.
///
/// # Errors
/// When the named rule set refuses it, or no rule set reads it: then each
/// one's reason, so a mistyped key still shows.
pub fn scenario_game(setup: &Setup<'_>) -> Result<(&'static dyn Ruleset, NewGame), RulesetError> {
    let named_in = toml::from_str::<toml::Table>(setup.scenario_text)
        .map_err(|e| {
            RulesetError::Setup(format!(
                "{} is not TOML: {}",
                setup.scenario_path.display(),
                e.message()
            ))
        })?
        .get("ruleset")
        .map(|v| match v {
            toml::Value::String(s) => named(s),
            other => Err(RulesetError::Setup(format!(
                "ruleset must be a name in quotes, not {other}"
            ))),
        })
        .transpose()?;
    if let Some(r) = named_in {
        return Ok((r, r.new_game(setup)?));
    }
    let mut reasons = Vec::new();
    for r in all() {
        match r.new_game(setup) {
            Ok(g) => return Ok((*r, g)),
            Err(e) => reasons.push(format!("  as {} ({}): {e}", r.title(), r.name())),
        }
    }
    Err(RulesetError::Setup(format!(
        "{} starts no game under any rule set:\n{}",
        setup.scenario_path.display(),
        reasons.join("\n")
    )))
}

/// The side an orders mail's header names (`GAME … SIDE s PASSWORD …`).
pub fn header_side(env: &crate::envelope::Envelope) -> Option<String> {
    env.header.as_ref().and_then(|h| match &h.node.role {
        crate::envelope::Role::Player { side } => Some(side.clone()),
        crate::envelope::Role::Moderator => None,
    })
}

/// At most this many rounds [`first_round_for`] plays to reach a side's.
const OFFLINE_ROUNDS: usize = 16;

/// The state of a new game at the first round `side` writes in: the rounds
/// before it played as if no one wrote (the forces standing as the
/// scenario lists them), with fixed dice. `umpire orders check
/// --scenario` checks against it, so a side that sets up second (Furor
/// Barbarus) is checked against its own set-up round, not told it is the
/// other side's. A round the game master would answer is not played: the
/// state before it is given. With `turn` (the sheet's header `TURN t
/// [PHASE p]`), the first such round that the header names: an FR!
/// Ancients side checks its turn-1 moves past the deployment round.
///
/// # Errors
/// When a round cannot be played.
pub fn first_round_for(
    ruleset: &dyn Ruleset,
    game: &NewGame,
    scenario_text: &str,
    side: &str,
    turn: Option<(u32, Option<u32>)>,
) -> Result<Json, RulesetError> {
    let mut state = game.state.clone();
    if !ruleset.sides(&state)?.iter().any(|s| s == side) {
        return Ok(state);
    }
    for _ in 0..OFFLINE_ROUNDS {
        let round = ruleset.round(&state)?;
        let named = match turn {
            Some((t, p)) => ruleset.header_turn(&state, t, p)?.0 == round.number,
            None => true,
        };
        if round.game_master.is_some() || (named && round.writers.iter().any(|w| w == side)) {
            break;
        }
        let played = ruleset.resolve(RoundInput {
            state: &state,
            options: &game.options,
            setup: scenario_text,
            last_turn: game.last_turn,
            orders: &BTreeMap::new(),
            dice: &mut crate::dice::SeededDice::new([0; 32]),
        })?;
        if played.ended || ruleset.round(&played.state)?.game_master.is_some() {
            break;
        }
        state = played.state;
    }
    Ok(state)
}

/// The offline check of an orders mail (`umpire orders check`), like
/// Eressea's echeck: the confirmation a player would get for `side` (or
/// the header's SIDE), and whether every order was accepted.
///
/// # Errors
/// When the state cannot be read.
pub fn check_offline(
    ruleset: &dyn Ruleset,
    state: &Json,
    text: &str,
    side: Option<&str>,
) -> Result<(String, bool), RulesetError> {
    let env = crate::envelope::read(text);
    let Some(side) = side.map(str::to_string).or_else(|| header_side(&env)) else {
        return Ok((
            format!(
                "Whose orders are these? Give --side (one of: {}) or start the file with a GAME … SIDE … PASSWORD … line.\n",
                ruleset.sides(state)?.join(", ")
            ),
            false,
        ));
    };
    let rendered: Vec<Rendered> = env
        .diagnostics
        .iter()
        .map(|d| d.rendered(&env.source))
        .collect();
    let checked = ruleset.check_orders(state, &side, &env.sheet, &rendered)?;
    Ok((checked.confirmation, checked.errors == 0))
}

/// `umpire army check FILE`: the army file checked by the rule set it names
/// (the Hyborean Age when it names none): the printed report and the exit
/// code (0 legal, 1 breaches, 2 unreadable).
pub fn check_army_file(path: &str) -> (String, i32) {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return (format!("error: {path}: {e}\n"), hyborian::army::UNREADABLE),
    };
    if ruleset_named_in(&text).is_ok_and(|r| r == fr_ancients::RULESET) {
        fr_ancients::army::check_cli(path, &text)
    } else {
        hyborian::army::check_cli(path, &text)
    }
}

/// Run the text of a rules case file with the rule set it names.
pub fn run_case(text: &str) -> CaseOutcome {
    match ruleset_named_in(text) {
        Ok(n) => match named(&n) {
            Ok(r) => r.run_case(text),
            Err(e) => CaseOutcome::Error(e.to_string()),
        },
        Err(e) => CaseOutcome::Error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report stored before reports named their rule set reads as the
    /// one a file naming none plays.
    #[test]
    fn a_report_naming_no_rule_set_is_the_default_rule_sets() {
        assert_eq!(crate::report::UNNAMED_RULESET, DEFAULT_RULESET);
    }

    #[test]
    fn the_header_names_the_side_and_errors_fail_the_offline_check() {
        let table = hyborian::orders::sample::table();
        let state = serde_json::to_value(&table).unwrap();
        let r = named(hyborian::RULESET).unwrap();
        let (text, ok) = check_offline(
            r,
            &state,
            "GAME g SIDE aquilonia PASSWORD p\nBlack Dragons: phase 1 move 6\nEND\n",
            None,
        )
        .unwrap();
        assert!(ok, "{text}");
        assert!(text.contains("Black Dragons: phase 1 move 6"));
        let (text, ok) = check_offline(
            r,
            &state,
            "Black Dragns: phase 1 move 6\n",
            Some("aquilonia"),
        )
        .unwrap();
        assert!(!ok);
        assert!(text.contains("Black Dragons"), "suggests the name: {text}");
        let (text, ok) = check_offline(r, &state, "Black Dragons: phase 1 move 6\n", None).unwrap();
        assert!(!ok && text.contains("--side"));
        let (text, ok) = check_offline(
            r,
            &state,
            "GAME g SIDE aquilonia\nBlack Dragons: phase 1 move 6\n",
            Some("aquilonia"),
        )
        .unwrap();
        assert!(!ok && text.contains("the header lacks PASSWORD"), "{text}");
    }
}
