//! What an attack is expected to take, for the generals (`general`): the
//! table's six rows and, on a morale check, the defender's six faces
//! (§9.5, §9.7, §9.10); a retreat the defender cannot make costs it a step,
//! or the whole unit at the map's edge (§9.8, O24); and the chance that a
//! set of attacks takes at least the points an army's threshold still
//! needs (§10).
//!
//! ```
//! use umpire::games::furor::options::Options;
//! use umpire::games::furor::rules::crt::Column;
//! use umpire::games::furor::sim::odds::{combat, reaching, Cornered};
//! let options = Options::default();
//! // A 1-step unit of morale 1 at 4/1: only the 6 (DR) spares it, and a
//! // DT spares it only on a 1.
//! let free = combat(&options, Column::FourOne, 0, 1, 1, Cornered::Free);
//! assert_eq!(free.kill, 29);
//! // With no hex to retreat to, every retreat takes its step too.
//! let blocked = combat(&options, Column::FourOne, 0, 1, 1, Cornered::Blocked);
//! assert_eq!(blocked.kill, 36);
//! // Two attacks each killing half the time, 3 points each, 4 needed:
//! // both must succeed.
//! assert_eq!(reaching(&[(18, 3), (18, 3)], 4), 0.25);
//! ```

use crate::games::furor::combat::table_result;
use crate::games::furor::options::Options;
use crate::games::furor::rules::crt::Column;

/// What a retreat would do to the defender, as the board stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cornered {
    /// It has a hex to retreat to.
    Free,
    /// No hex: a step loss instead (§9.8).
    Blocked,
    /// Only the map's edge: it is eliminated (O24).
    OffMap,
}

/// One combat's outcome for the defender, in 36ths (the die's six rows
/// times the morale die's six faces).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Taken {
    /// The steps expected to be taken (no more than it has, each outcome).
    pub steps: u32,
    /// The chance that it is eliminated.
    pub kill: u32,
}

/// The steps a combat at `column`, `plus` added to the die, takes from a
/// defender of morale `morale` with `steps` steps left.
pub fn combat(
    options: &Options,
    column: Column,
    plus: u8,
    morale: u8,
    steps: u8,
    cornered: Cornered,
) -> Taken {
    let retreat = match cornered {
        Cornered::Free => 0,
        Cornered::Blocked => 1,
        Cornered::OffMap => steps,
    };
    let mut out = Taken::default();
    let mut add = |taken: u8, weight: u32| {
        let taken = taken.min(steps);
        out.steps += u32::from(taken) * weight;
        if taken >= steps {
            out.kill += weight;
        }
    };
    for roll in 1..=6u8 {
        let r = table_result(options, column, roll.saturating_add(plus));
        if r.on_attacker() {
            add(0, 6);
        } else if r.tests_morale() {
            for face in 1..=6u8 {
                let taken = match face.cmp(&morale) {
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Equal => retreat,
                    std::cmp::Ordering::Less => 0,
                };
                add(taken, 1);
            }
        } else {
            let after = if r.retreats() { retreat } else { 0 };
            add(r.steps().saturating_add(after), 6);
        }
    }
    out
}

/// The chance that attacks, each `(kill in 36ths, points)`, take at least
/// `need` points between them (the attacks' dice are independent).
pub fn reaching(attacks: &[(u32, u16)], need: u16) -> f64 {
    let need = usize::from(need);
    if need == 0 {
        return 1.0;
    }
    // chance[p]: the chance of p points so far, the last counting `need` or more.
    let mut chance = vec![0.0; need + 1];
    chance[0] = 1.0;
    for &(kill, points) in attacks {
        let p = f64::from(kill.min(36)) / 36.0;
        let mut next = vec![0.0; need + 1];
        for (have, c) in chance.iter().enumerate() {
            next[have] += c * (1.0 - p);
            next[(have + usize::from(points)).min(need)] += c * p;
        }
        chance = next;
    }
    chance[need]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_at_the_edge_with_nowhere_to_go_falls_to_any_retreat() {
        let o = Options::default();
        let free = combat(&o, Column::OneOne, 0, 3, 2, Cornered::Free);
        let off = combat(&o, Column::OneOne, 0, 3, 2, Cornered::OffMap);
        assert!(off.kill > free.kill && off.steps > free.steps);
        // 1/1: D1, DT, DR, then the attacker's. Free, a 2-step unit is
        // never eliminated by one combat at 1/1.
        assert_eq!(free.kill, 0);
        // Off the map: the DR (6) and a DT's "equal" (1) eliminate it.
        assert_eq!(off.kill, 7);
    }

    #[test]
    fn reaching_counts_every_way_to_the_points() {
        assert_eq!(reaching(&[], 0), 1.0);
        assert_eq!(reaching(&[], 1), 0.0);
        assert_eq!(reaching(&[(36, 2)], 2), 1.0);
        assert_eq!(reaching(&[(18, 1), (18, 1)], 1), 0.75);
    }
}
