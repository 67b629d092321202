//! Base-rule packs (`docs/fr-ancients/pack.md`): what the sheet leaves to
//! the base book (§11 M1–M16), as a data file a club fills from its own
//! copy — the troop table (CF, Melee/Rally/Missile, charge bonus, movement,
//! shots, cost, base size, "?" options), the tests and their pass marks,
//! the Bowfire and damage lines (read by modified roll or by margin), melee
//! numbers with losses by the margin of the win and wrap-arounds, the
//! demoralization numbers, the movement and fire arcs, terrain cover and
//! movement costs, and the morale clock. The umpire ships no base content:
//! only [`STAND_IN`], a deliberately simple pack for tests, and
//! [`HOUSE`], the umpire's own house rules, complete enough to play a
//! battle without a game master; neither is FR!.
//!
//! Every part but the name and scale may be left out: a **mixed** game's
//! game master judges the parts its pack leaves out ([`Pack::parts`]).
//! A [`Pack`] is checked ([`Pack::from_toml`], in [`file`]: every number
//! bounded, every missing or contradictory entry reported with its line)
//! and carries the SHA-256 of its text, which every report prints.
//!
//! ```
//! use umpire::games::fr_ancients::pack::{Pack, STAND_IN};
//! use umpire::games::fr_ancients::troops::TroopType;
//! let pack = Pack::from_toml(STAND_IN).unwrap();
//! assert!(pack.stand_in);
//! assert_eq!(pack.name, "stand-in rules, not FR!");
//! assert_eq!(pack.hash.len(), 64);
//! assert_eq!(pack.troop(TroopType::HeavyCavalry).unwrap().cf, 4);
//! assert_eq!(pack.fire_dmz(1, 8), 1);
//! assert_eq!(pack.fire_dmz(1, 7), 0);
//! assert!(pack.parts().iter().all(|p| p.1));
//! ```

pub mod file;

use super::abilities::Ability;
use super::grades::Triple;
use super::troops::TroopType;
use super::weapons::{Scale, Weapon};
use std::collections::BTreeMap;

/// The stand-in pack (`tests/support/fr-standin-pack.toml`): not FR!.
pub const STAND_IN: &str = include_str!("../../../tests/support/fr-standin-pack.toml");

/// The umpire's house rules (`campaigns/fr-ancients/house-pack.toml`): a
/// whole base book of made-up numbers, not FR!.
pub const HOUSE: &str = include_str!("../../../campaigns/fr-ancients/house-pack.toml");

/// M1: tests. A test passes when d10 + the unit's Rally + modifiers reaches
/// its pass mark.
#[derive(Debug, Clone, PartialEq)]
pub struct Tests {
    pub pass_at: i32,
    /// A captured character escapes on a d10 of at least this.
    pub escape_at: i32,
    /// DMZs a failed fear check gives (M9), when `fear_fail` gives no band.
    pub fear_fail_dmz: u8,
    /// A test's own pass mark, by the word of its key (`rally`, `fear`…).
    pub pass_at_for: BTreeMap<String, i32>,
    /// A failed fear check's DMZs by how far it failed, rising.
    pub fear_fail: Vec<Band>,
}

/// A line of a table read by margin: at a margin of at least `margin`,
/// `dmz` DMZs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    pub margin: i32,
    pub dmz: u8,
}

/// How a results table is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// By the modified roll itself.
    Roll,
    /// By the margin of the modified roll over the target's Rally (its
    /// grade's +1 included).
    Margin,
}

/// One line of the Bowfire table: for `units` firing together, a result
/// of at least `dmz_at[i]` inflicts i + 1 DMZs.
#[derive(Debug, Clone, PartialEq)]
pub struct FireLine {
    pub units: u32,
    pub dmz_at: Vec<i32>,
}

/// M6: missile fire.
#[derive(Debug, Clone, PartialEq)]
pub struct Fire {
    /// The standard fire arc (degrees from straight ahead, from the front corners).
    pub arc: f64,
    /// Cover's modifier to missile fire (heavy armour counts as in cover).
    pub cover: i32,
    pub read: Reading,
    /// The Bowfire table, by number of firing units, rising.
    pub lines: Vec<FireLine>,
    /// The artillery damage roll: at least `damage_dmz_at[i]` inflicts i + 1 DMZs.
    pub damage_dmz_at: Vec<i32>,
}

/// A melee's losses when won by at least `margin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarginLoss {
    pub margin: i32,
    /// DMZs each unit of the losing side takes.
    pub loser: u8,
    /// DMZs each unit of the winning side takes.
    pub winner: u8,
}

/// M7: melee.
#[derive(Debug, Clone, PartialEq)]
pub struct Melee {
    /// Overlap bonus for striking a flank and a rear.
    pub overlap: [i32; 2],
    /// Bonus for each supporting unit.
    pub support: i32,
    /// The losses by margin, rising; without a table, one line: any win,
    /// the pack's `loss_dmz` to each loser.
    pub losses: Vec<MarginLoss>,
    /// A winner wraps round the flank of the unit it beat when it wins by
    /// at least this (rule 11 still limits who may); `None`: never.
    pub wrap_at: Option<i32>,
    /// A winner follows the unit it beat, when that fell back, when it wins
    /// by at least this; `None`: only the sheet's impetuous units do (§5).
    pub follow_up_at: Option<i32>,
}

/// M8: demoralization.
#[derive(Debug, Clone, PartialEq)]
pub struct Demoralization {
    /// Levels of DMZ that destroy a unit.
    pub destroyed_at: u8,
    /// A DD unit falls back this many of its own depths.
    pub retreat_depths: f64,
}

/// M4: movement.
#[derive(Debug, Clone, PartialEq)]
pub struct Movement {
    /// The movement arc: degrees either side of straight ahead, from the front corners.
    pub arc: f64,
    /// Movement a facing change costs.
    pub facing_change: f64,
}

/// M10: the morale clock.
#[derive(Debug, Clone, PartialEq)]
pub struct Clock {
    pub start: i32,
    /// The battle ends when a side's clock comes down to this (M14).
    pub ends_at: i32,
}

/// M11: characters.
#[derive(Debug, Clone, PartialEq)]
pub struct Characters {
    /// What becomes of a character whose unit is destroyed.
    pub unit_destroyed: CharacterLoss,
}

/// A character whose unit is destroyed is killed or captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CharacterLoss {
    #[default]
    Killed,
    Captured,
}

/// M13: a terrain kind's cover and what crossing it costs.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainRule {
    pub cover: i32,
    /// Movement each unit of distance in it costs (1: as the open); `None`:
    /// the troop table's terrain allowance applies instead.
    pub cost: Option<f64>,
    /// A troop type's own cost there.
    pub cost_for: BTreeMap<TroopType, f64>,
}

/// One line of the troop table (M2, M3, M15).
#[derive(Debug, Clone, PartialEq)]
pub struct Troop {
    pub cf: i32,
    /// Melee/Rally/Missile.
    pub values: Triple,
    /// The natural charge bonus (0: none; counter-charges need one, rule 8).
    pub charge_bonus: i32,
    /// Movement in the open and in terrain.
    pub movement: [f64; 2],
    pub shots: u32,
    pub cost: i32,
    /// One base: width, depth.
    pub base: [f64; 2],
    /// Missile types shown with "?" (5 points each under the guidelines).
    pub optional_missiles: Vec<Weapon>,
    /// Abilities shown with "?".
    pub optional_abilities: Vec<Ability>,
}

/// A checked pack. A part left out (`None`, or no troop lines) is the
/// game master's.
#[derive(Debug, Clone, PartialEq)]
pub struct Pack {
    pub name: String,
    /// The test pack: reports say "stand-in rules, not FR!".
    pub stand_in: bool,
    /// SHA-256 of the pack's text, hex.
    pub hash: String,
    /// The column its distances are written in.
    pub scale: Scale,
    pub tests: Option<Tests>,
    pub fire: Option<Fire>,
    pub melee: Option<Melee>,
    pub demoralization: Option<Demoralization>,
    pub movement: Option<Movement>,
    pub clock: Option<Clock>,
    pub characters: Option<Characters>,
    /// By terrain kind (its key).
    pub terrain: BTreeMap<String, TerrainRule>,
    pub troops: BTreeMap<TroopType, Troop>,
}

impl Pack {
    /// Read and check a pack.
    ///
    /// # Errors
    /// Every problem found, each with its line, the field and what to write.
    pub fn from_toml(text: &str) -> Result<Pack, Vec<String>> {
        file::read(text)
    }

    /// The stand-in pack, checked.
    pub fn stand_in() -> Pack {
        match Pack::from_toml(STAND_IN) {
            Ok(p) => p,
            Err(e) => unreachable!("the stand-in pack is checked by tests: {e:?}"),
        }
    }

    /// The umpire's house rules, checked.
    pub fn house() -> Pack {
        match Pack::from_toml(HOUSE) {
            Ok(p) => p,
            Err(e) => unreachable!("the house pack is checked by tests: {e:?}"),
        }
    }

    /// The troop table's line for a type, if the pack has one.
    pub fn troop(&self, t: TroopType) -> Option<&Troop> {
        self.troops.get(&t)
    }

    /// Each part of the base rules and whether this pack judges it (else
    /// the game master does).
    pub fn parts(&self) -> [(&'static str, bool); 8] {
        [
            ("the troop table", !self.troops.is_empty()),
            ("tests", self.tests.is_some()),
            ("missile fire", self.fire.is_some()),
            ("melee", self.melee.is_some()),
            ("demoralization", self.demoralization.is_some()),
            ("movement", self.movement.is_some()),
            ("the morale clock", self.clock.is_some()),
            ("characters", self.characters.is_some()),
        ]
    }

    /// Whether the pack leaves no part to the game master.
    pub fn is_whole(&self) -> bool {
        self.parts().iter().all(|p| p.1)
    }

    /// "the pack judges …; the game master judges …" for a mixed pack.
    pub fn division(&self) -> Option<String> {
        if self.is_whole() {
            return None;
        }
        let list = |judged: bool| {
            self.parts()
                .iter()
                .filter(|p| p.1 == judged)
                .map(|p| p.0)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let pack = list(true);
        let pack = if pack.is_empty() {
            "nothing".to_string()
        } else {
            pack
        };
        Some(format!(
            "the pack judges {pack}; the game master judges {}",
            list(false)
        ))
    }

    /// The line a report prints: name and hash, the stand-in warning, and
    /// for a mixed pack who judges what.
    pub fn banner(&self) -> String {
        let short = &self.hash[..16.min(self.hash.len())];
        let mut out = format!("Base rules: {} (sha256 {short}…)", self.name);
        if self.stand_in {
            out.push_str(" — stand-in rules, not FR!");
        }
        if let Some(d) = self.division() {
            out.push_str(&format!("; {d}"));
        }
        out
    }

    /// DMZs a result on the line for `units` firing together (the highest
    /// line at or below `units`); 0 without a fire table.
    pub fn fire_dmz(&self, units: u32, result: i32) -> u8 {
        let Some(fire) = &self.fire else {
            return 0;
        };
        let line = fire
            .lines
            .iter()
            .rev()
            .find(|l| l.units <= units)
            .or(fire.lines.first());
        line.map_or(0, |l| {
            l.dmz_at.iter().filter(|at| result >= **at).count() as u8
        })
    }

    /// DMZs a modified artillery damage roll inflicts.
    pub fn damage_dmz(&self, roll: i32) -> u8 {
        self.fire.as_ref().map_or(0, |f| {
            f.damage_dmz_at.iter().filter(|at| roll >= **at).count() as u8
        })
    }

    /// Cover of a terrain kind (0 when the pack does not name it).
    pub fn terrain_cover(&self, kind: &str) -> i32 {
        self.terrain
            .get(&crate::names::key(kind))
            .map_or(0, |t| t.cover)
    }

    /// What a unit of distance in a terrain kind costs a troop type, when
    /// the pack prices that kind.
    pub fn terrain_cost(&self, kind: &str, troop: TroopType) -> Option<f64> {
        let t = self.terrain.get(&crate::names::key(kind))?;
        t.cost_for.get(&troop).copied().or(t.cost)
    }

    /// Whether the pack prices movement through terrain by cost.
    pub fn prices_terrain(&self) -> bool {
        self.terrain
            .values()
            .any(|t| t.cost.is_some() || !t.cost_for.is_empty())
    }

    /// The standard fire arc (M6), when the pack gives it.
    pub fn fire_arc(&self) -> Option<f64> {
        self.fire.as_ref().map(|f| f.arc)
    }

    /// The movement arc (M4), when the pack gives it.
    pub fn movement_arc(&self) -> Option<f64> {
        self.movement.as_ref().map(|m| m.arc)
    }

    /// What a facing change costs (M4), when the pack gives it.
    pub fn facing_change(&self) -> Option<f64> {
        self.movement.as_ref().map(|m| m.facing_change)
    }

    /// The levels that destroy a unit (M8), when the pack gives them.
    pub fn destroyed_at(&self) -> Option<u8> {
        self.demoralization.as_ref().map(|d| d.destroyed_at)
    }

    /// How many depths a DD unit falls back (M8), when the pack says.
    pub fn retreat_depths(&self) -> Option<f64> {
        self.demoralization.as_ref().map(|d| d.retreat_depths)
    }

    /// Where the morale clock starts (M10), when the pack says.
    pub fn clock_start(&self) -> Option<i32> {
        self.clock.as_ref().map(|c| c.start)
    }

    /// Where a side's clock ends the battle (M14), when the pack says.
    pub fn ends_at(&self) -> Option<i32> {
        self.clock.as_ref().map(|c| c.ends_at)
    }

    /// What becomes of a character whose unit is destroyed (M11), when the
    /// pack says.
    pub fn unit_destroyed(&self) -> Option<CharacterLoss> {
        self.characters.as_ref().map(|c| c.unit_destroyed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_in_reads_and_covers_every_type() {
        let p = Pack::stand_in();
        for t in TroopType::ALL {
            assert!(p.troop(t).is_some(), "{t}");
        }
        assert!(p.banner().ends_with("stand-in rules, not FR!"));
        assert_eq!(p.fire_dmz(2, 10), 2);
        assert_eq!(
            p.fire_dmz(5, 6),
            1,
            "more units than lines read the last line"
        );
        assert_eq!(p.damage_dmz(5), 0);
        assert_eq!(p.terrain_cover("Woods"), -2);
        assert!(p.is_whole());
        assert!(
            !p.prices_terrain(),
            "the stand-in keeps the terrain allowance"
        );
        let melee = p.melee.unwrap();
        assert_eq!(
            melee.losses,
            vec![MarginLoss {
                margin: 1,
                loser: 1,
                winner: 0
            }],
            "without a table: one flat loss, as before"
        );
        assert_eq!(melee.wrap_at, None);
    }

    #[test]
    fn the_house_pack_is_whole_and_no_stand_in_of_fr() {
        let p = Pack::house();
        assert!(p.is_whole());
        assert!(p.name.contains("not Chipco's Fantasy Rules!"), "{}", p.name);
        assert!(p.prices_terrain());
        assert!(p.melee.as_ref().unwrap().losses.len() > 1);
        assert!(p.melee.as_ref().unwrap().wrap_at.is_some());
        for t in TroopType::ALL {
            assert!(p.troop(t).is_some(), "{t}");
        }
    }

    #[test]
    fn the_hash_is_of_the_text() {
        let p = Pack::stand_in();
        let q = Pack::from_toml(&format!("{STAND_IN}\n# a comment\n")).unwrap();
        assert_ne!(
            p.hash, q.hash,
            "any change to the file changes the hash a report prints"
        );
    }

    #[test]
    fn a_pack_may_leave_parts_to_the_game_master() {
        let p = Pack::from_toml(
            "name = \"fire only\"\nscale = \"inches\"\n[fire]\narc = 45.0\ncover = -2\ndamage_dmz_at = [6]\n[[fire.line]]\nunits = 1\ndmz_at = [8]\n",
        )
        .unwrap();
        assert!(!p.is_whole());
        assert_eq!(
            p.division().unwrap(),
            "the pack judges missile fire; the game master judges the troop table, tests, melee, demoralization, movement, the morale clock, characters"
        );
        assert!(p.banner().contains("; the pack judges missile fire;"));
        assert_eq!(p.ends_at(), None);
    }
}
