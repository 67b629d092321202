//! A general's temperament, shared by every rule set's generals: what each
//! style means on the table is in that rule set's doctrine (the Hyborean
//! Age's `sim::general::Doctrine`, Furor Barbarus's
//! `sim::general::Doctrine`).
//!
//! ```
//! use umpire::sim::Style;
//! assert_eq!("Aggressive".parse::<Style>(), Ok(Style::Aggressive));
//! assert_eq!(Style::Cautious.to_string(), "cautious");
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A general's temperament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    /// Waits for the enemy or for good odds, keeps its army together and
    /// its line in good ground, and fights only with the odds in its favour.
    Cautious,
    /// Advances at once, charges whatever it can reach and accepts worse odds.
    Aggressive,
}

impl Style {
    pub const ALL: [Style; 2] = [Style::Cautious, Style::Aggressive];

    /// How the style plays, as a player is told in a sentence (the end
    /// of "the umpire's general, who …").
    pub fn manner(self) -> &'static str {
        match self {
            Style::Cautious => "waits for the enemy or for good odds, keeps its army together in good ground and fights only with the odds in its favour",
            Style::Aggressive => "advances at once, charges whatever it can reach and accepts worse odds to come to grips",
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Style::Cautious => "cautious",
            Style::Aggressive => "aggressive",
        }
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A style that is not one of the generals'.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown general '{0}': the styles are cautious and aggressive")]
pub struct UnknownStyle(pub String);

impl FromStr for Style {
    type Err = UnknownStyle;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Style::ALL
            .into_iter()
            .find(|st| st.code().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownStyle(s.to_string()))
    }
}
