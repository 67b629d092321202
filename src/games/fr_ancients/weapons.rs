//! Weapons (digest §3): ranges in both of the sheet's columns, the
//! "when charged" and "when charging" bonuses, Massed Bows' +1 on the
//! Bowfire table, light artillery's −1 on the damage roll, and the elite
//! missile +1 capped at 10. The numbers are `campaigns/fr-ancients/weapons.toml`.
//!
//! A game measures in one column for the whole table ([`Scale`]); a
//! distance the sheet gives only in inches is used as written in an inch
//! game and ×1.27, rounded, in a centimetre game (ruling FA-3).
//!
//! ```
//! use umpire::games::fr_ancients::weapons::{Scale, Weapon};
//! assert_eq!(Weapon::LightArtillery.range(Scale::Inches), 10.0);
//! assert_eq!(Weapon::LightArtillery.range(Scale::Centimetres), 13.0);
//! assert_eq!(Weapon::parse("Slings"), Some(Weapon::BowsSlings));
//! // Heavy armour takes 1 off a missile unit's "when charged" bonus, never below 0.
//! assert_eq!(Weapon::MassedBows.when_charged(true), 1);
//! assert_eq!(Weapon::Javelins.when_charged(true), 0);
//! assert_eq!(Scale::Centimetres.of_inches(6.0), 8.0);
//! ```

pub use super::sheet::Weapon;
use super::sheet::{sheet, WeaponRow};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The column of the range table a game measures in (R5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// The larger figure scale: distances in inches.
    #[default]
    Inches,
    /// The smaller figure scale: distances in centimetres.
    Centimetres,
}

impl Scale {
    /// "in" or "cm", as reports write distances.
    pub fn unit(self) -> &'static str {
        match self {
            Scale::Inches => "\"",
            Scale::Centimetres => " cm",
        }
    }

    /// A distance the sheet gives only in inches, at this scale (ruling FA-3).
    pub fn of_inches(self, inches: f64) -> f64 {
        match self {
            Scale::Inches => inches,
            Scale::Centimetres => (inches * 1.27).round(),
        }
    }

    /// A distance written for people: `5"` or `6 cm`.
    pub fn show(self, d: f64) -> String {
        let n = if (d - d.round()).abs() < 0.05 {
            format!("{}", d.round())
        } else {
            format!("{d:.1}")
        };
        format!("{n}{}", self.unit())
    }

    pub fn parse(text: &str) -> Option<Scale> {
        match crate::names::key(text).as_str() {
            "inches" | "inch" | "in" => Some(Scale::Inches),
            "centimetres" | "centimeters" | "cm" => Some(Scale::Centimetres),
            _ => None,
        }
    }
}

impl Weapon {
    pub const ALL: [Weapon; 7] = [
        Weapon::MassedBows,
        Weapon::BowsSlings,
        Weapon::Javelins,
        Weapon::Thrown,
        Weapon::Pila,
        Weapon::LightArtillery,
        Weapon::HeavyArtillery,
    ];

    /// The weapon's line of the table.
    pub fn row(self) -> &'static WeaponRow {
        let rows = &sheet().weapons.weapon;
        match rows.iter().find(|r| r.name == self) {
            Some(r) => r,
            None => unreachable!("weapons.toml has a row for every weapon (tested)"),
        }
    }

    /// The name as the sheet writes it.
    pub fn name(self) -> &'static str {
        match self {
            Weapon::MassedBows => "Massed Bows",
            Weapon::BowsSlings => "Bows/Slings",
            Weapon::Javelins => "Javelins",
            Weapon::Thrown => "Thrown",
            Weapon::Pila => "Pila",
            Weapon::LightArtillery => "Light Artillery",
            Weapon::HeavyArtillery => "Heavy Artillery",
        }
    }

    /// A weapon by its name or another spelling in the table ("Slings").
    pub fn parse(text: &str) -> Option<Weapon> {
        let k = crate::names::key(text);
        Weapon::ALL.into_iter().find(|w| {
            crate::names::key(w.name()) == k
                || w.row().also.iter().any(|a| crate::names::key(a) == k)
        })
    }

    /// The closest weapon name to a misspelling.
    pub fn suggest(text: &str) -> Option<&'static str> {
        crate::names::closest(text, Weapon::ALL.iter().map(|w| (w.name(), w.name())))
    }

    /// Range in the game's column.
    pub fn range(self, scale: Scale) -> f64 {
        match scale {
            Scale::Inches => self.row().range_in,
            Scale::Centimetres => self.row().range_cm,
        }
    }

    /// A weapon that shoots in the missile fire step (range above 0);
    /// Thrown weapons and Pila only give bonuses.
    pub fn shoots(self) -> bool {
        self.row().range_in > 0.0
    }

    pub fn is_artillery(self) -> bool {
        matches!(self, Weapon::LightArtillery | Weapon::HeavyArtillery)
    }

    /// The bonus a unit with this weapon gets when it is charged; against a
    /// charger in heavy armour it is 1 less, never below 0 (ruling FA-10).
    pub fn when_charged(self, charger_heavy_armour: bool) -> i32 {
        let b = self.row().when_charged;
        if charger_heavy_armour && b > 0 {
            (b + sheet().abilities.heavy_armour.missile_when_charged).max(0)
        } else {
            b
        }
    }

    /// The bonus a unit with this weapon gets when it charges.
    pub fn when_charging(self) -> i32 {
        self.row().when_charging
    }

    /// Added on the Bowfire table.
    pub fn bowfire(self) -> i32 {
        self.row().bowfire
    }

    /// Added to the damage roll.
    pub fn damage(self) -> i32 {
        self.row().damage
    }

    /// Archers with this weapon may concentrate (rule 4).
    pub fn concentrates(self) -> bool {
        self.row().concentrates
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The elite missile bonus: +1 on the (modified) fire roll, "to a maximum
/// of 10": the bonus never lifts a roll past 10, and never lowers one
/// that other modifiers already put there (ruling FA-12).
pub fn elite_fire_roll(roll: i32) -> i32 {
    let e = &sheet().weapons.elite;
    (roll + e.missile_roll).min(e.roll_cap.max(roll))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_as_the_sheet_prints_it() {
        // (weapon, inches, cm, when charged, when charging)
        let table = [
            (Weapon::MassedBows, 5.0, 6.0, 2, 0),
            (Weapon::BowsSlings, 5.0, 6.0, 1, 0),
            (Weapon::Javelins, 2.5, 3.0, 1, 1),
            (Weapon::Thrown, 0.0, 0.0, 1, 1),
            (Weapon::Pila, 0.0, 0.0, 2, 1),
            (Weapon::LightArtillery, 10.0, 13.0, 1, 0),
            (Weapon::HeavyArtillery, 30.0, 38.0, 0, 0),
        ];
        for (w, inch, cm, charged, charging) in table {
            assert_eq!(w.range(Scale::Inches), inch, "{w}");
            assert_eq!(w.range(Scale::Centimetres), cm, "{w}");
            assert_eq!(w.when_charged(false), charged, "{w}");
            assert_eq!(w.when_charging(), charging, "{w}");
        }
        assert_eq!(Weapon::MassedBows.bowfire(), 1);
        assert_eq!(Weapon::LightArtillery.damage(), -1);
        assert!(Weapon::MassedBows.concentrates() && !Weapon::BowsSlings.concentrates());
        assert!(!Weapon::Pila.shoots() && Weapon::Javelins.shoots());
    }

    #[test]
    fn heavy_armour_reduces_only_when_charged_bonuses() {
        assert_eq!(Weapon::Pila.when_charged(true), 1);
        assert_eq!(Weapon::Thrown.when_charged(true), 0);
        assert_eq!(Weapon::HeavyArtillery.when_charged(true), 0);
    }

    #[test]
    fn elite_fire_is_capped_at_ten() {
        assert_eq!(elite_fire_roll(7), 8);
        assert_eq!(elite_fire_roll(9), 10);
        assert_eq!(elite_fire_roll(10), 10);
        assert_eq!(
            elite_fire_roll(11),
            11,
            "the cap limits the bonus, not other modifiers"
        );
    }

    #[test]
    fn inch_only_distances_in_a_centimetre_game() {
        assert_eq!(Scale::Centimetres.of_inches(2.0), 3.0);
        assert_eq!(Scale::Centimetres.of_inches(1.0), 1.0);
        assert_eq!(Scale::Inches.of_inches(6.0), 6.0);
        assert_eq!(Scale::Inches.show(2.5), "2.5\"");
        assert_eq!(Scale::Centimetres.show(13.0), "13 cm");
    }
}
