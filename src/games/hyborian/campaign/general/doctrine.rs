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
    /// Merges its armies standing in one province into one host before
    /// it marches (as large as `max_army_points` and one guard allow).
    pub concentrates: bool,
    /// In a threatened capital (counters in it or next to it), its armies
    /// there worth less than this merge into the garrison.
    pub reinforces_below: u32,
    /// A garrison sallies when its host is worth at least this percent of
    /// the largest army (`max_army_points`) for each counter in the
    /// province (it cannot see what they hold); none: never on strength.
    pub sally_percent: Option<u32>,
    /// A garrison sallies to fight beside its own armies that will fight
    /// the besiegers this week anyway (a relief marching in, an army
    /// outside the walls).
    pub sallies_with_relief: bool,
    /// A field army next to its besieged capital marches to relieve it.
    pub relieves: bool,
    /// Calls off a march on a province it does not hold where it now sees
    /// more counters than `max_counters` (another neighbour, or `halt`).
    pub calls_off: bool,
}

const AGGRESSIVE: Doctrine = Doctrine {
    conquers: true,
    max_counters: 1,
    besieges: true,
    min_march_points: 150,
    raises: 3,
    raises_home_only: false,
    concentrates: true,
    reinforces_below: 150,
    sally_percent: Some(50),
    sallies_with_relief: true,
    relieves: true,
    calls_off: true,
};

const CAUTIOUS: Doctrine = Doctrine {
    conquers: false,
    max_counters: 0,
    besieges: false,
    min_march_points: 0,
    raises: 3,
    raises_home_only: true,
    concentrates: false,
    reinforces_below: u32::MAX,
    sally_percent: None,
    sallies_with_relief: true,
    relieves: true,
    calls_off: true,
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
