//! Who commands a side in the balance lab: a general of a [`Style`], or
//! nobody — the side that only holds, the lab's baseline opponent
//! (issue 42: "the aggressive general beats a side that only holds").
//!
//! A side that holds writes no orders, as a player who sends nothing: its
//! units stand and take what the rules give a unit without orders.
//!
//! ```
//! use umpire::sim::{Commander, Style};
//! assert_eq!("hold".parse::<Commander>(), Ok(Commander::Hold));
//! assert_eq!("Aggressive".parse::<Commander>(), Ok(Commander::General(Style::Aggressive)));
//! assert_eq!(Commander::from(Style::Cautious).to_string(), "cautious");
//! assert_eq!(Commander::Hold.style(), None);
//! ```

use super::Style;
use std::fmt;
use std::str::FromStr;

/// Who writes a side's orders in the lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Commander {
    /// A general of this style writes every order.
    General(Style),
    /// Nobody: the side writes no orders and its units stand.
    Hold,
}

impl Commander {
    /// The code on the command line (`--style aggressive,hold`).
    pub const HOLD: &'static str = "hold";

    /// The general's style; `None` for a side that holds.
    pub fn style(self) -> Option<Style> {
        match self {
            Commander::General(s) => Some(s),
            Commander::Hold => None,
        }
    }

    /// How a summary names it: "aggressive general", "no general (holds)".
    pub fn describe(self) -> String {
        match self {
            Commander::General(s) => format!("{s} general"),
            Commander::Hold => "no general: holds".into(),
        }
    }
}

impl From<Style> for Commander {
    fn from(s: Style) -> Commander {
        Commander::General(s)
    }
}

impl fmt::Display for Commander {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Commander::General(s) => s.fmt(f),
            Commander::Hold => f.write_str(Self::HOLD),
        }
    }
}

/// Neither a style nor `hold`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown general '{0}': the styles are cautious and aggressive, or hold for a side that writes no orders")]
pub struct UnknownCommander(pub String);

impl FromStr for Commander {
    type Err = UnknownCommander;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case(Self::HOLD) {
            return Ok(Commander::Hold);
        }
        s.parse::<Style>()
            .map(Commander::General)
            .map_err(|_| UnknownCommander(s.to_string()))
    }
}
