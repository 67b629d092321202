//! The hex grid of the maps (digest §14): ids `CCRR` (column, row, from
//! `0101` at the top left), flat-topped hexes in vertical columns, **even
//! columns half a hex lower** than odd ones. [`Hex`] is one hex (on the map
//! or just off it), [`Direction`] one of the six straight directions,
//! [`Hexside`] the side between two adjacent hexes.
//!
//! ```
//! use umpire::games::furor::hex::Hex;
//! let a: Hex = "0711".parse().unwrap();
//! let b: Hex = "0708".parse().unwrap();
//! assert_eq!(a.distance(b), 3);
//! assert!(a.is_adjacent("0611".parse().unwrap()));
//! assert_eq!(a.to_string(), "0711");
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// One hex. Coordinates may fall just off a map (column or row 0) when a
/// neighbour is asked for; [`crate::games::furor::map::Map::contains`]
/// says whether a hex is on a given map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex {
    /// The column `CC` (1-based, left to right). Ordered first, so the
    /// "lowest hex id" of a ruling is the smallest `Hex`.
    pub col: i16,
    /// The row `RR` (1-based, top to bottom).
    pub row: i16,
}

/// The six straight directions of the grid, in the axial coordinates of
/// the digest (§14): `q = c`, `a = r − ⌊(c+1)/2⌋`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// (0, −1): up the column (row − 1).
    Up,
    /// (+1, −1): to the upper right.
    UpRight,
    /// (+1, 0): to the lower right.
    DownRight,
    /// (0, +1): down the column (row + 1).
    Down,
    /// (−1, +1): to the lower left.
    DownLeft,
    /// (−1, 0): to the upper left.
    UpLeft,
}

impl Direction {
    /// All six, clockwise from up.
    pub const ALL: [Direction; 6] = [
        Direction::Up,
        Direction::UpRight,
        Direction::DownRight,
        Direction::Down,
        Direction::DownLeft,
        Direction::UpLeft,
    ];

    /// The step in axial coordinates (Δq, Δa).
    fn axial(self) -> (i16, i16) {
        match self {
            Direction::Up => (0, -1),
            Direction::UpRight => (1, -1),
            Direction::DownRight => (1, 0),
            Direction::Down => (0, 1),
            Direction::DownLeft => (-1, 1),
            Direction::UpLeft => (-1, 0),
        }
    }
}

impl Hex {
    pub const fn new(col: i16, row: i16) -> Hex {
        Hex { col, row }
    }

    /// Axial coordinates (q, a) of the digest's distance formula.
    fn axial(self) -> (i16, i16) {
        (self.col, self.row - (self.col + 1).div_euclid(2))
    }

    fn from_axial(q: i16, a: i16) -> Hex {
        Hex {
            col: q,
            row: a + (q + 1).div_euclid(2),
        }
    }

    /// The hex one step away in `dir`.
    pub fn step(self, dir: Direction) -> Hex {
        let (q, a) = self.axial();
        let (dq, da) = dir.axial();
        Hex::from_axial(q + dq, a + da)
    }

    /// The six neighbours, in [`Direction::ALL`] order.
    pub fn neighbours(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.step(d))
    }

    /// Hexes between the two, counting the second and not the first.
    pub fn distance(self, other: Hex) -> u16 {
        let (q1, a1) = self.axial();
        let (q2, a2) = other.axial();
        let (dq, da) = (q2 - q1, a2 - a1);
        ((dq.abs() + da.abs() + (dq + da).abs()) / 2) as u16
    }

    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance(other) == 1
    }

    /// The direction from this hex to an adjacent one.
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| self.step(*d) == other)
    }

    /// `n` hexes in a straight line from this one (not counting it).
    pub fn line(self, dir: Direction, n: usize) -> Vec<Hex> {
        std::iter::successors(Some(self), |h| Some(h.step(dir)))
            .skip(1)
            .take(n)
            .collect()
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

/// Why a text is not a hex id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a hex id (four digits, column then row: 0711)")]
pub struct ParseHexError(pub String);

impl FromStr for Hex {
    type Err = ParseHexError;
    fn from_str(s: &str) -> Result<Hex, ParseHexError> {
        let t = s.trim();
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseHexError(s.to_string()));
        }
        let col: i16 = t[..2].parse().map_err(|_| ParseHexError(s.to_string()))?;
        let row: i16 = t[2..].parse().map_err(|_| ParseHexError(s.to_string()))?;
        if col == 0 || row == 0 {
            return Err(ParseHexError(s.to_string()));
        }
        Ok(Hex { col, row })
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The side between two adjacent hexes, the same whichever way it is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hexside(Hex, Hex);

impl Hexside {
    /// The side between `a` and `b`, or `None` if they are not adjacent.
    pub fn between(a: Hex, b: Hex) -> Option<Hexside> {
        a.is_adjacent(b)
            .then(|| if a < b { Hexside(a, b) } else { Hexside(b, a) })
    }

    pub fn hexes(self) -> (Hex, Hex) {
        (self.0, self.1)
    }
}

impl fmt::Display for Hexside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}|{}", self.0, self.1)
    }
}

/// Written `0710|0711` (a map key in JSON).
impl Serialize for Hexside {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hexside {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hexside, D::Error> {
        let s = String::deserialize(d)?;
        let (a, b) = s
            .split_once('|')
            .ok_or_else(|| serde::de::Error::custom("a hexside is written 0710|0711"))?;
        let (a, b): (Hex, Hex) = (
            a.parse().map_err(serde::de::Error::custom)?,
            b.parse().map_err(serde::de::Error::custom)?,
        );
        Hexside::between(a, b)
            .ok_or_else(|| serde::de::Error::custom(format!("{a} and {b} are not adjacent")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().unwrap()
    }

    #[test]
    fn the_digests_distance_vectors() {
        for (a, b, d) in [
            ("1705", "1804", 1),
            ("0811", "0712", 1),
            ("0711", "0611", 1),
            ("0711", "0708", 3),
            ("0508", "0808", 3),
            ("0407", "0907", 5),
            ("1105", "1111", 6),
            ("2410", "2212", 3),
        ] {
            assert_eq!(h(a).distance(h(b)), d, "{a}-{b}");
            assert_eq!(h(b).distance(h(a)), d, "{b}-{a}");
        }
    }

    #[test]
    fn the_digests_straight_lines() {
        let lines = |hexes: &[&str]| -> Vec<Hex> { hexes.iter().map(|s| h(s)).collect() };
        let from = h("0811");
        let found: Vec<Vec<Hex>> = Direction::ALL.iter().map(|d| from.line(*d, 3)).collect();
        for want in [
            lines(&["0810", "0809", "0808"]),
            lines(&["0711", "0610", "0510"]),
            lines(&["0712", "0612", "0513"]),
            lines(&["0911", "1010", "1110"]),
        ] {
            assert!(
                found.contains(&want),
                "{want:?} is not a straight line from 0811"
            );
        }
    }

    #[test]
    fn neighbours_follow_the_column_parity_rule() {
        // Odd column: (c±1, r−1) and (c±1, r); even: (c±1, r) and (c±1, r+1).
        let mut odd: Vec<String> = h("0507").neighbours().iter().map(Hex::to_string).collect();
        odd.sort();
        assert_eq!(odd, ["0406", "0407", "0506", "0508", "0606", "0607"]);
        let mut even: Vec<String> = h("0608").neighbours().iter().map(Hex::to_string).collect();
        even.sort();
        assert_eq!(even, ["0508", "0509", "0607", "0609", "0708", "0709"]);
        for n in h("0608").neighbours() {
            assert_eq!(n.distance(h("0608")), 1);
            assert_eq!(h("0608").step(h("0608").direction_to(n).unwrap()), n);
        }
    }

    #[test]
    fn ids_round_trip_and_refuse_nonsense() {
        assert_eq!(h("0101").to_string(), "0101");
        assert_eq!(h("2415"), Hex::new(24, 15));
        for bad in ["", "711", "07a1", "0011", "0700", "07111"] {
            assert!(bad.parse::<Hex>().is_err(), "{bad}");
        }
        let side = Hexside::between(h("0711"), h("0710")).unwrap();
        assert_eq!(Hexside::between(h("0710"), h("0711")), Some(side));
        assert_eq!(Hexside::between(h("0711"), h("0709")), None);
    }
}
