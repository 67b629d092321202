//! How a campaign general plays each style: its habits, in one table.
//! These are the general's own numbers, not the book's (the book's are
//! the rules tables' and the map's, which it reads).

use crate::sim::Style;

/// The numbers a style plays the campaign by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doctrine {
    /// Marches on any neighbouring province it does not hold; otherwise
    /// only to take back its own nation's land.
    pub conquers: bool,
    /// The most counters of other powers it marches against in a province
    /// (it cannot see what they hold).
    pub max_counters: usize,
    /// Lays siege to another power's walled capital its army stands in.
    pub besieges: bool,
    /// The least points an army needs to march off.
    pub min_march_points: u32,
    /// Units raised in one week at most.
    pub raises: usize,
    /// Raises troops that may only fight at home (Hyrkanian foot).
    pub raises_home_only: bool,
}

const AGGRESSIVE: Doctrine = Doctrine {
    conquers: true,
    max_counters: 1,
    besieges: true,
    min_march_points: 150,
    raises: 3,
    raises_home_only: false,
};

const CAUTIOUS: Doctrine = Doctrine {
    conquers: false,
    max_counters: 0,
    besieges: false,
    min_march_points: 0,
    raises: 3,
    raises_home_only: true,
};

impl Doctrine {
    /// The campaign doctrine of `style`.
    pub fn of(style: Style) -> &'static Doctrine {
        match style {
            Style::Aggressive => &AGGRESSIVE,
            Style::Cautious => &CAUTIOUS,
        }
    }
}
