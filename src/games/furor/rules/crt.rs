//! The odds columns and the Combat Results Table (§9.5, §9.7). Rows 1–3
//! are the book's; rows 4–6 are reconstructed (R7), and a modified roll
//! above 6 is read as 6, or on the optional "7+" row ([`Crt::row_7`]).
//!
//! ```
//! use umpire::games::furor::rules::crt::{column_for, Column, CombatResult, Crt};
//! assert_eq!(column_for(5, 2), Column::TwoOne);      // 2.5 rounds down for the defender
//! assert_eq!(column_for(11, 2), Column::FourOne);
//! assert_eq!(Crt::BOOK.result(Column::OneOne, 3), CombatResult::DR);
//! assert_eq!(Column::ThreeOne.shifted_left(1), Column::TwoOne);
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// The seven columns, left (the defender's best) to right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Column {
    /// "1/2 and −": every ratio below 2/3.
    HalfOrLess,
    TwoThree,
    OneOne,
    ThreeTwo,
    TwoOne,
    ThreeOne,
    /// "4/1 and +".
    FourOne,
}

impl Column {
    pub const ALL: [Column; 7] = [
        Column::HalfOrLess,
        Column::TwoThree,
        Column::OneOne,
        Column::ThreeTwo,
        Column::TwoOne,
        Column::ThreeOne,
        Column::FourOne,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// `n` columns to the left; a shift past "1/2 and −" stays there (§9.5).
    pub fn shifted_left(self, n: u8) -> Column {
        Column::ALL[self.index().saturating_sub(usize::from(n))]
    }

    /// As the table heads it: `1/2`, `2/3`, … `4/1`.
    pub fn label(self) -> &'static str {
        match self {
            Column::HalfOrLess => "1/2",
            Column::TwoThree => "2/3",
            Column::OneOne => "1/1",
            Column::ThreeTwo => "3/2",
            Column::TwoOne => "2/1",
            Column::ThreeOne => "3/1",
            Column::FourOne => "4/1",
        }
    }

    /// Reads `2/1`, and `1/2 and -`, `4/1+` as people write the end columns.
    pub fn parse(text: &str) -> Option<Column> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let t = t
            .trim_end_matches("and-")
            .trim_end_matches("and+")
            .trim_end_matches(['-', '+']);
        Column::ALL.into_iter().find(|c| c.label() == t)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The ratio attacker : defender rounded in the defender's favour (§9.5).
pub fn column_for(attack: u16, defence: u16) -> Column {
    let (a, d) = (u32::from(attack), u32::from(defence.max(1)));
    if a >= 4 * d {
        Column::FourOne
    } else if a >= 3 * d {
        Column::ThreeOne
    } else if a >= 2 * d {
        Column::TwoOne
    } else if 2 * a >= 3 * d {
        Column::ThreeTwo
    } else if a >= d {
        Column::OneOne
    } else if 3 * a >= 2 * d {
        Column::TwoThree
    } else {
        Column::HalfOrLess
    }
}

/// A cell of the table (§9.7): who it falls on and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CombatResult {
    /// Defender: two step losses.
    D2,
    /// Defender: one step loss, then retreat one hex.
    D1R,
    /// Defender: one step loss.
    D1,
    /// Defender: morale check.
    DT,
    /// Defender: retreat one hex.
    DR,
    /// Attackers: retreat one hex.
    AR,
    /// Attackers: morale check.
    AT,
    /// Attackers: one step loss.
    A1,
    /// Attackers: two step losses.
    A2,
}

impl CombatResult {
    pub fn label(self) -> &'static str {
        match self {
            CombatResult::D2 => "D2",
            CombatResult::D1R => "D1R",
            CombatResult::D1 => "D1",
            CombatResult::DT => "DT",
            CombatResult::DR => "DR",
            CombatResult::AR => "AR",
            CombatResult::AT => "AT",
            CombatResult::A1 => "A1",
            CombatResult::A2 => "A2",
        }
    }

    /// Whether the result falls on the attackers.
    pub fn on_attacker(self) -> bool {
        matches!(
            self,
            CombatResult::AR | CombatResult::AT | CombatResult::A1 | CombatResult::A2
        )
    }

    /// Step losses it inflicts first (before any retreat).
    pub fn steps(self) -> u8 {
        match self {
            CombatResult::D2 | CombatResult::A2 => 2,
            CombatResult::D1 | CombatResult::D1R | CombatResult::A1 => 1,
            _ => 0,
        }
    }

    /// Whether it makes the units it falls on retreat one hex.
    pub fn retreats(self) -> bool {
        matches!(
            self,
            CombatResult::DR | CombatResult::D1R | CombatResult::AR
        )
    }

    /// Whether it makes the units it falls on check morale.
    pub fn tests_morale(self) -> bool {
        matches!(self, CombatResult::DT | CombatResult::AT)
    }
}

impl fmt::Display for CombatResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The table: a row per modified die roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crt {
    /// Rows for rolls 1 to 6, columns as [`Column::ALL`].
    pub rows: [[CombatResult; 7]; 6],
    /// The optional row for modified rolls of 7 or more (R7's option).
    pub row_7: [CombatResult; 7],
}

use CombatResult::*;

impl Crt {
    /// Rows 1–3 as printed; rows 4–6 reconstructed (R7); the "7+" row.
    pub const BOOK: Crt = Crt {
        rows: [
            [DR, DT, D1, D1, D1R, D2, D2],
            [DR, DR, DT, D1, D1, D1, D2],
            [AR, AR, DR, DT, DT, DT, D1],
            [AT, AR, AR, DR, DR, DT, D1],
            [A1, AT, AR, AR, DR, DR, DT],
            [A2, A1, AT, AR, AR, DR, DR],
        ],
        row_7: [A2, A2, A1, AT, AR, AR, DR],
    };

    /// The result for a modified roll: above 6 reads row 6 (R7).
    pub fn result(&self, column: Column, roll: u8) -> CombatResult {
        self.rows[usize::from(roll.clamp(1, 6)) - 1][column.index()]
    }

    /// The result with the optional "7+" row for rolls of 7 or more.
    pub fn result_with_row_7(&self, column: Column, roll: u8) -> CombatResult {
        if roll >= 7 {
            self.row_7[column.index()]
        } else {
            self.result(column, roll)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_for_the_defender_matches_the_conditions() {
        for (a, d, c) in [
            (1, 2, Column::HalfOrLess),
            (1, 3, Column::HalfOrLess),
            (2, 3, Column::TwoThree),
            (3, 4, Column::TwoThree),
            (2, 2, Column::OneOne),
            (4, 3, Column::OneOne),
            (3, 2, Column::ThreeTwo),
            (5, 3, Column::ThreeTwo),
            (4, 2, Column::TwoOne),
            (6, 2, Column::ThreeOne),
            (7, 2, Column::ThreeOne),
            (8, 2, Column::FourOne),
            (40, 1, Column::FourOne),
        ] {
            assert_eq!(column_for(a, d), c, "{a}:{d}");
        }
    }

    #[test]
    fn each_column_runs_from_the_defenders_worst_to_the_attackers_worst() {
        let order = [D2, D1R, D1, DT, DR, AR, AT, A1, A2];
        let rank = |r: CombatResult| order.iter().position(|o| *o == r).unwrap();
        for col in Column::ALL {
            let cells: Vec<usize> = (1..=6).map(|r| rank(Crt::BOOK.result(col, r))).collect();
            assert!(cells.windows(2).all(|w| w[0] <= w[1]), "{col}: {cells:?}");
            assert!(rank(Crt::BOOK.row_7[col as usize]) >= rank(Crt::BOOK.result(col, 6)));
        }
        // A lone bowman at 1/2 can at best make the defender retreat (§9.3).
        let half: Vec<CombatResult> = (1..=6)
            .map(|r| Crt::BOOK.result(Column::HalfOrLess, r))
            .collect();
        assert!(half.iter().all(|r| r.on_attacker() || *r == DR));
    }

    #[test]
    fn high_rolls_and_labels() {
        assert_eq!(
            Crt::BOOK.result(Column::OneOne, 9),
            Crt::BOOK.result(Column::OneOne, 6)
        );
        assert_eq!(Crt::BOOK.result_with_row_7(Column::OneOne, 7), A1);
        assert_eq!(Column::parse("1/2 and -"), Some(Column::HalfOrLess));
        assert_eq!(Column::parse("4/1+"), Some(Column::FourOne));
        assert_eq!(Column::parse("5/1"), None);
        assert_eq!(Column::HalfOrLess.shifted_left(2), Column::HalfOrLess);
    }
}
