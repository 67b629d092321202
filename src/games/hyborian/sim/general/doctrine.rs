//! How a general fights: the two styles and the numbers each one plays
//! by, in one table. These are the generals' habits, not the book's rules
//! (the rules' numbers are read from `rules`).

pub use crate::sim::{Style, UnknownStyle};

impl Style {
    /// The numbers this style plays by.
    pub fn doctrine(self) -> &'static Doctrine {
        match self {
            Style::Cautious => &CAUTIOUS,
            Style::Aggressive => &AGGRESSIVE,
        }
    }
}

/// The numbers a style plays by.
#[derive(Debug, Clone, PartialEq)]
pub struct Doctrine {
    /// Until this turn the line holds at `stand_off` from the enemy; from
    /// it the general seeks battle (0: at once).
    pub patience: u32,
    /// Inches the line keeps from the nearest enemy while it waits.
    pub stand_off: f64,
    /// Inches horsemen keep from the nearest enemy while they wait.
    pub cavalry_stand_off: f64,
    /// The least charge score (see `troops::odds`) worth a charge while
    /// waiting, and once the battle is sought.
    pub charge_odds: i32,
    pub engaged_odds: i32,
    /// Foot archers stand this many inches inside their weapon's range.
    pub archer_margin: f64,
    /// Archers and horse archers also close to short range (bows: 9").
    pub short_range: bool,
    /// One unit of every this many is held back as a reserve (0: none).
    pub reserve_every: usize,
    /// The reserve joins the battle on this turn at the latest.
    pub commit_turn: u32,
    /// Medium cavalry charge and break off in the same turn (§3 split move).
    pub hit_and_run: bool,
    /// Archers on foot step back 2 inches from foot that could charge them;
    /// horse archers ride away from it.
    pub skirmish_back: bool,
    /// Wizards raise an Army of Ghosts early while they have the points.
    pub ghosts: bool,
    /// Wizards guard themselves with a Shield of Air against archers.
    pub shield: bool,
    /// The commander rides to units in fall-back status to steady them.
    pub rally: bool,
}

const CAUTIOUS: Doctrine = Doctrine {
    patience: 6,
    stand_off: 14.0,
    cavalry_stand_off: 20.0,
    charge_odds: 2,
    engaged_odds: 0,
    archer_margin: 1.0,
    short_range: false,
    reserve_every: 4,
    commit_turn: 8,
    hit_and_run: true,
    skirmish_back: true,
    ghosts: false,
    shield: true,
    rally: true,
};

const AGGRESSIVE: Doctrine = Doctrine {
    patience: 0,
    stand_off: 0.0,
    cavalry_stand_off: 0.0,
    charge_odds: 0,
    engaged_odds: -1,
    archer_margin: 0.5,
    short_range: true,
    reserve_every: 6,
    commit_turn: 4,
    hit_and_run: false,
    skirmish_back: false,
    ghosts: true,
    shield: false,
    rally: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_read_back() {
        for s in Style::ALL {
            assert_eq!(s.code().parse::<Style>(), Ok(s));
        }
        assert_eq!(" Aggressive ".parse::<Style>(), Ok(Style::Aggressive));
        assert!("reckless".parse::<Style>().is_err());
        const { assert!(CAUTIOUS.patience > AGGRESSIVE.patience) };
        const { assert!(CAUTIOUS.charge_odds > AGGRESSIVE.charge_odds) };
    }
}
