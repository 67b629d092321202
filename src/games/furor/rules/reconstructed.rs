//! The reconstructed counter values (digest §13, R1–R6 and R10): what a
//! counter shows when a scenario file does not say. Every value here is a
//! guess the digest reasons out; a club with the real counter sheet
//! replaces them in the scenario files.
//!
//! ```
//! use umpire::games::furor::rules::{reconstructed, Kind};
//! assert_eq!(reconstructed::movement_points(Kind::Cavalry), 6);
//! assert_eq!(reconstructed::reduced_strength(4, reconstructed::ReducedSide::FullMinusOne), Some(3));
//! assert_eq!(reconstructed::reduced_strength(1, reconstructed::ReducedSide::FullMinusOne), None);
//! // Which of a counter's values are such guesses, as its file lists them.
//! let g = reconstructed::Guessed::parse(&["strength", "mp"]).unwrap();
//! assert!(g.has(reconstructed::CounterValue::Mp) && !g.has(reconstructed::CounterValue::Range));
//! assert!(reconstructed::Guessed::parse(&["colour"]).is_err());
//! ```

use super::Kind;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// R5: movement points by kind (O19 gives baggage 2).
pub fn movement_points(kind: Kind) -> u16 {
    match kind {
        Kind::Infantry | Kind::MissileInfantry => 4,
        Kind::Cavalry | Kind::MissileCavalry | Kind::Commander => 6,
        Kind::Baggage => 2,
    }
}

/// R6: the range of missile units, in hexes.
pub fn range(kind: Kind) -> u16 {
    if kind.is_missile() {
        3
    } else {
        0
    }
}

/// R10: a commander's strength.
pub const COMMANDER_STRENGTH: u8 = 2;

/// R3: how the reduced side is drawn from the full one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReducedSide {
    /// Full − 1, the least destructive guess (the default).
    #[default]
    FullMinusOne,
    /// Half the full strength, rounded up (option `reduced_side = "half-up"`).
    HalfUp,
}

/// R3/R4: the reduced strength of a combat unit with this full strength,
/// or `None` for a one-step unit (full strength 1).
pub fn reduced_strength(full: u8, how: ReducedSide) -> Option<u8> {
    (full >= 2).then(|| match how {
        ReducedSide::FullMinusOne => full - 1,
        ReducedSide::HalfUp => full.div_ceil(2),
    })
}

/// One value of a counter the text does not give (digest §13): the names a
/// scenario file's `reconstructed = [...]` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterValue {
    /// R1: infantry, cavalry, missile or not.
    Kind,
    /// R2, R10: the full side's strength (a commander's bonus).
    Strength,
    /// R3, R4: the reduced side's strength, or that the unit has one.
    Reduced,
    /// R5: movement points.
    Mp,
    /// R6: a missile unit's range.
    Range,
    /// R9: Campus Mauriacus' characteristic marks.
    Marks,
}

impl CounterValue {
    pub const ALL: [CounterValue; 6] = [
        CounterValue::Kind,
        CounterValue::Strength,
        CounterValue::Reduced,
        CounterValue::Mp,
        CounterValue::Range,
        CounterValue::Marks,
    ];

    /// As a scenario file writes it.
    pub fn name(self) -> &'static str {
        match self {
            CounterValue::Kind => "kind",
            CounterValue::Strength => "strength",
            CounterValue::Reduced => "reduced",
            CounterValue::Mp => "mp",
            CounterValue::Range => "range",
            CounterValue::Marks => "marks",
        }
    }
}

/// The values of one counter that are reconstructed: listed so by its
/// file, or not given there and filled in from this module. A small copy
/// type (boards are cloned often), written as the list of names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Guessed(u8);

impl Guessed {
    /// Nothing reconstructed: a club's counter.
    pub const NONE: Guessed = Guessed(0);

    fn bit(v: CounterValue) -> u8 {
        1 << (v as u8)
    }

    pub fn has(self, v: CounterValue) -> bool {
        self.0 & Guessed::bit(v) != 0
    }

    #[must_use]
    pub fn with(self, v: CounterValue) -> Guessed {
        Guessed(self.0 | Guessed::bit(v))
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = CounterValue> {
        CounterValue::ALL.into_iter().filter(move |v| self.has(*v))
    }

    /// The names a file lists.
    ///
    /// # Errors
    /// A name that is no counter value, with the names there are.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Guessed, String> {
        names.iter().try_fold(Guessed::NONE, |g, n| {
            let n = n.as_ref();
            CounterValue::ALL
                .into_iter()
                .find(|v| v.name() == n)
                .map(|v| g.with(v))
                .ok_or_else(|| {
                    format!(
                        "reconstructed: '{n}' is not one of {}",
                        CounterValue::ALL.map(CounterValue::name).join(", ")
                    )
                })
        })
    }
}

impl Serialize for Guessed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Guessed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Guessed, D::Error> {
        Ok(Vec::<CounterValue>::deserialize(d)?
            .into_iter()
            .fold(Guessed::NONE, Guessed::with))
    }
}
