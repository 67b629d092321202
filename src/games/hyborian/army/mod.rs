//! Armies of the Hyborean Age: the national lists of Appendix I and the magic
//! users of Appendix II as data, an army file a player writes, the check of
//! an army against the book's rules for buying one (§9, §11, Appendix I and
//! II), a proposer that builds a legal army, deployment of an army onto a
//! table as case-file units, and ready scenarios with victory conditions
//! ([`scenario`]).
//!
//! Main types: [`Nation`] (a national list), [`ArmyFile`] (what a player
//! bought), [`Report`] with its [`Breach`]es (what [`check`] found),
//! [`DeploymentLine`] (where [`ArmyFile::to_units`] puts the army),
//! [`scenario::Scenario`] and [`scenario::Victory`]. The command-line texts
//! (`umpire army check FILE`, `army new NATION POINTS`, `army list [NATION]`)
//! are [`check_cli`], [`new_cli`] and [`list_cli`].
//!
//! ```
//! use umpire::games::hyborian::army;
//! let army = army::propose("Aquilonia", 1500).unwrap();
//! let report = army::check(&army).unwrap();
//! assert!(report.breaches.is_empty());
//! assert!(report.total_points <= 1500);
//! ```
//!
//! Architecture invariant: nothing here reads files at run time except
//! [`check_cli`]; the lists are embedded with `include_str!`, checking is a
//! pure function of the army file, and [`scenario::load`] takes text. The
//! `[[unit]]` entries of a scenario are read only by `table::setup`.

mod check;
mod cli;
mod deploy;
mod file;
mod magic;
mod nation;
mod propose;
pub mod scenario;

pub use check::{
    check, Breach, CostLine, Report, POINTS_PER_HERO, POINTS_PER_SUPERHERO, UNDER_STRENGTH_FLOOR,
};
pub use cli::{check_cli, describe, list_cli, new_cli, render, UNREADABLE};
pub use deploy::{units_toml, DeploymentLine};
pub use file::{ArmyFile, Commander, Hero, Mercenary, UnitLine, Wizards};
pub use magic::{magic_order, magic_orders, MagicOrder, Serves};
pub use nation::{Arm, ArmKind, Designation, ListedMercenary, Mercenaries, Nation, Size};
pub use propose::propose;

/// What can go wrong reading lists and army files (not breaches of the
/// rules, which [`check`] reports).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArmyError {
    /// A national list or the magic-user file is malformed, e.g. a unit the
    /// point table prints as "X" ("Heavy Foot, C class").
    #[error("{file}: {message}")]
    Nation { file: String, message: String },
    /// An army file cannot be read or parsed, e.g. `figures = "twelve"`.
    #[error("{path}: {message}")]
    File { path: String, message: String },
    /// A nation, designation or magic user not in the book, e.g. "Aquilona".
    #[error("unknown {what} '{given}'{}", suggestion.as_ref().map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default())]
    UnknownName {
        what: &'static str,
        given: String,
        suggestion: Option<String>,
    },
    /// No legal army of that nation fits the points, e.g. Vendhya at 50.
    #[error("no legal army of {nation} fits in {points} points: {why}")]
    NoLegalArmy {
        nation: String,
        points: u32,
        why: String,
    },
    /// Deployment failed, e.g. the line is too short for the army.
    #[error("deployment: {0}")]
    Deploy(String),
    /// More points than any battle of the book asks for, e.g. 4,000,000.
    #[error("{points} points is more than umpire proposes armies for (at most {max})")]
    TooManyPoints { points: u32, max: u32 },
}

/// The largest army `umpire army new` proposes: ten times the book's
/// "fifteen hundred points in a single army", far beyond any battle it
/// describes, and small enough to propose in a moment.
pub const MAX_PROPOSED_POINTS: u32 = 15_000;

/// The embedded national lists, one file per nation, in alphabetical order.
const NATION_FILES: [(&str, &str); 24] = [
    (
        "aesir.toml",
        include_str!("../../../../campaigns/nations/aesir.toml"),
    ),
    (
        "aquilonia.toml",
        include_str!("../../../../campaigns/nations/aquilonia.toml"),
    ),
    (
        "argos.toml",
        include_str!("../../../../campaigns/nations/argos.toml"),
    ),
    (
        "black-amazons.toml",
        include_str!("../../../../campaigns/nations/black-amazons.toml"),
    ),
    (
        "brythunia.toml",
        include_str!("../../../../campaigns/nations/brythunia.toml"),
    ),
    (
        "cimmerians.toml",
        include_str!("../../../../campaigns/nations/cimmerians.toml"),
    ),
    (
        "corinthia.toml",
        include_str!("../../../../campaigns/nations/corinthia.toml"),
    ),
    (
        "desert-nomads.toml",
        include_str!("../../../../campaigns/nations/desert-nomads.toml"),
    ),
    (
        "free-companies.toml",
        include_str!("../../../../campaigns/nations/free-companies.toml"),
    ),
    (
        "hill-tribes.toml",
        include_str!("../../../../campaigns/nations/hill-tribes.toml"),
    ),
    (
        "hyrkania.toml",
        include_str!("../../../../campaigns/nations/hyrkania.toml"),
    ),
    (
        "khauran-and-khoraja.toml",
        include_str!("../../../../campaigns/nations/khauran-and-khoraja.toml"),
    ),
    (
        "koth.toml",
        include_str!("../../../../campaigns/nations/koth.toml"),
    ),
    (
        "kozaki.toml",
        include_str!("../../../../campaigns/nations/kozaki.toml"),
    ),
    (
        "nemedia.toml",
        include_str!("../../../../campaigns/nations/nemedia.toml"),
    ),
    (
        "ophir.toml",
        include_str!("../../../../campaigns/nations/ophir.toml"),
    ),
    (
        "pictland.toml",
        include_str!("../../../../campaigns/nations/pictland.toml"),
    ),
    (
        "shem.toml",
        include_str!("../../../../campaigns/nations/shem.toml"),
    ),
    (
        "stygia.toml",
        include_str!("../../../../campaigns/nations/stygia.toml"),
    ),
    (
        "turan.toml",
        include_str!("../../../../campaigns/nations/turan.toml"),
    ),
    (
        "vanir.toml",
        include_str!("../../../../campaigns/nations/vanir.toml"),
    ),
    (
        "vendhya.toml",
        include_str!("../../../../campaigns/nations/vendhya.toml"),
    ),
    (
        "zamora.toml",
        include_str!("../../../../campaigns/nations/zamora.toml"),
    ),
    (
        "zingara.toml",
        include_str!("../../../../campaigns/nations/zingara.toml"),
    ),
];

/// The embedded army data as written (file name, text): every national
/// list, then the magic users of Appendix II. The rules' identity hashes it.
pub fn data_files() -> impl Iterator<Item = (&'static str, &'static str)> {
    NATION_FILES
        .iter()
        .copied()
        .chain(std::iter::once(("magic-users.toml", magic::MAGIC_USERS)))
}

/// Every national list, in alphabetical order of file name.
///
/// # Errors
/// [`ArmyError::Nation`] if an embedded list is malformed (a test keeps them
/// well formed).
pub fn nations() -> Result<Vec<Nation>, ArmyError> {
    NATION_FILES
        .iter()
        .map(|(file, text)| Nation::from_toml(&format!("campaigns/nations/{file}"), text))
        .collect()
}

/// One national list by name, ignoring case and punctuation
/// ("khauran & khoraja", "Black-Amazons").
///
/// # Errors
/// [`ArmyError::UnknownName`] with the closest name when none matches.
pub fn nation(name: &str) -> Result<Nation, ArmyError> {
    let all = nations()?;
    let key = crate::names::key(name);
    let suggestion = suggest(name, all.iter().map(|n| n.name.as_str()));
    all.into_iter()
        .find(|n| crate::names::key(&n.name) == key)
        .ok_or_else(|| ArmyError::UnknownName {
            what: "nation",
            given: name.to_string(),
            suggestion,
        })
}

/// The closest of `names` to `given`, if it is close enough to be a typo.
pub(crate) fn suggest<'a>(given: &str, names: impl Iterator<Item = &'a str>) -> Option<String> {
    crate::names::closest(given, names.map(|n| (n, n))).map(str::to_string)
}
