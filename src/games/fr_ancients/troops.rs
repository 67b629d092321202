//! The troop types the sheet names (digest §1) and the classes its rules
//! sort them into: line infantry for support in terrain (rule 1), the light
//! troops free of target priority (rule 4), the troops that take no charge
//! bonus against them (rule 7), the troops that wrap round to the rear
//! (rule 11), the troops that count once in the phase tally (rule 10).
//! Their values (CF, Melee/Rally/Missile, movement, cost) are the base
//! book's troop table (M2) and come from a club's pack.
//!
//! ```
//! use umpire::games::fr_ancients::troops::TroopType;
//! let t = TroopType::parse("Handweapons").unwrap();
//! assert_eq!(t, TroopType::HandWeapons);
//! assert!(t.is_line_infantry());
//! assert!(TroopType::LightCavalry.picks_its_target());
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// A troop type of FR! as the sheet names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TroopType {
    #[serde(rename = "Skirmishers")]
    Skirmishers,
    #[serde(rename = "Light Infantry")]
    LightInfantry,
    /// HW.
    #[serde(rename = "Hand Weapons")]
    HandWeapons,
    /// SP.
    #[serde(rename = "Spears")]
    Spears,
    /// PK.
    #[serde(rename = "Pikes")]
    Pikes,
    /// AR.
    #[serde(rename = "Archers")]
    Archers,
    /// WB: "the feared crazies of ancient times".
    #[serde(rename = "Warband")]
    Warband,
    /// RB.
    #[serde(rename = "Rabble")]
    Rabble,
    /// Unmanoeuvreable pikes (§5).
    #[serde(rename = "Deep Pikes")]
    DeepPikes,
    #[serde(rename = "Light Cavalry")]
    LightCavalry,
    #[serde(rename = "Medium Cavalry")]
    MediumCavalry,
    #[serde(rename = "Heavy Cavalry")]
    HeavyCavalry,
    #[serde(rename = "Light Chariots")]
    LightChariots,
    #[serde(rename = "Chariots")]
    Chariots,
    #[serde(rename = "Scythed Chariots")]
    ScythedChariots,
    #[serde(rename = "Light Camelry")]
    LightCamelry,
    #[serde(rename = "Camelry")]
    Camelry,
    /// EL.
    #[serde(rename = "Elephants")]
    Elephants,
    /// Manoeuvrable kinds such as the Roman cart-mounted ballista (rule 5).
    #[serde(rename = "Light Artillery")]
    LightArtillery,
    /// Every other kind: ballistae, catapults, siege artillery (rule 5).
    #[serde(rename = "Heavy Artillery")]
    HeavyArtillery,
    /// The baggage train, a 1x2 unit (rule 6).
    #[serde(rename = "Baggage")]
    Baggage,
}

use TroopType::*;

/// What a troop type is, broadly: the words the sheet's rules use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arm {
    Infantry,
    Cavalry,
    Chariots,
    Camelry,
    Elephants,
    Artillery,
    Baggage,
}

impl TroopType {
    pub const ALL: [TroopType; 21] = [
        Skirmishers,
        LightInfantry,
        HandWeapons,
        Spears,
        Pikes,
        Archers,
        Warband,
        Rabble,
        DeepPikes,
        LightCavalry,
        MediumCavalry,
        HeavyCavalry,
        LightChariots,
        Chariots,
        ScythedChariots,
        LightCamelry,
        Camelry,
        Elephants,
        LightArtillery,
        HeavyArtillery,
        Baggage,
    ];

    /// The name as the sheet writes it.
    pub fn name(self) -> &'static str {
        match self {
            Skirmishers => "Skirmishers",
            LightInfantry => "Light Infantry",
            HandWeapons => "Hand Weapons",
            Spears => "Spears",
            Pikes => "Pikes",
            Archers => "Archers",
            Warband => "Warband",
            Rabble => "Rabble",
            DeepPikes => "Deep Pikes",
            LightCavalry => "Light Cavalry",
            MediumCavalry => "Medium Cavalry",
            HeavyCavalry => "Heavy Cavalry",
            LightChariots => "Light Chariots",
            Chariots => "Chariots",
            ScythedChariots => "Scythed Chariots",
            LightCamelry => "Light Camelry",
            Camelry => "Camelry",
            Elephants => "Elephants",
            LightArtillery => "Light Artillery",
            HeavyArtillery => "Heavy Artillery",
            Baggage => "Baggage",
        }
    }

    /// The sheet's two-letter codes (rule 1: "HW SP PK AR WB EL RB", R4),
    /// and short forms for the rest.
    pub fn code(self) -> &'static str {
        match self {
            Skirmishers => "SK",
            LightInfantry => "LI",
            HandWeapons => "HW",
            Spears => "SP",
            Pikes => "PK",
            Archers => "AR",
            Warband => "WB",
            Rabble => "RB",
            DeepPikes => "DP",
            LightCavalry => "LC",
            MediumCavalry => "MC",
            HeavyCavalry => "HC",
            LightChariots => "LCH",
            Chariots => "CH",
            ScythedChariots => "SCH",
            LightCamelry => "LCM",
            Camelry => "CM",
            Elephants => "EL",
            LightArtillery => "LA",
            HeavyArtillery => "HA",
            Baggage => "BG",
        }
    }

    /// A type by its name, its code, or a spelling the sheet uses
    /// ("Handweapons", "Skirmisher", "Elephant").
    pub fn parse(text: &str) -> Option<TroopType> {
        let k = crate::names::key(text);
        let singular = k.strip_suffix('s').unwrap_or(&k).to_string();
        TroopType::ALL.into_iter().find(|t| {
            let name = crate::names::key(t.name());
            name == k
                || name.strip_suffix('s') == Some(singular.as_str())
                || crate::names::key(t.code()) == k
        })
    }

    /// The closest type name to a misspelling, for "did you mean".
    pub fn suggest(text: &str) -> Option<&'static str> {
        crate::names::closest(text, TroopType::ALL.iter().map(|t| (t.name(), t.name())))
    }

    pub fn arm(self) -> Arm {
        match self {
            Skirmishers | LightInfantry | HandWeapons | Spears | Pikes | Archers | Warband
            | Rabble | DeepPikes => Arm::Infantry,
            LightCavalry | MediumCavalry | HeavyCavalry => Arm::Cavalry,
            LightChariots | Chariots | ScythedChariots => Arm::Chariots,
            LightCamelry | Camelry => Arm::Camelry,
            Elephants => Arm::Elephants,
            LightArtillery | HeavyArtillery => Arm::Artillery,
            Baggage => Arm::Baggage,
        }
    }

    /// Infantry, as rule 8 means it ("Infantry may only counter charge other infantry").
    pub fn is_infantry(self) -> bool {
        self.arm() == Arm::Infantry
    }

    /// "Cavalry": Light, Medium and Heavy Cavalry (ruling FA-25).
    pub fn is_cavalry(self) -> bool {
        self.arm() == Arm::Cavalry
    }

    /// Rule 1's line infantry, "HW SP PK AR WB EL RB"; Deep Pikes are pikes
    /// and elephants count as written (ruling FA-14).
    pub fn is_line_infantry(self) -> bool {
        matches!(
            self,
            HandWeapons | Spears | Pikes | DeepPikes | Archers | Warband | Elephants | Rabble
        )
    }

    /// Rule 4: Skirmishers, Light Cavalry, Light Chariots and Light Camelry
    /// choose their target; every other missile unit shoots its nearest.
    pub fn picks_its_target(self) -> bool {
        matches!(
            self,
            Skirmishers | LightCavalry | LightChariots | LightCamelry
        )
    }

    /// Rule 11: only these wrap round to the rear as well as the flank.
    pub fn wraps_to_rear(self) -> bool {
        matches!(self, LightCavalry | LightChariots | LightCamelry)
    }

    /// Rule 10: Skirmishers, Rabble and Scythed Chariots add to the phase
    /// tally only when destroyed, and then as a single demoralization.
    pub fn counts_once(self) -> bool {
        matches!(self, Skirmishers | Rabble | ScythedChariots)
    }

    /// Rule 7: units charging "a skirmisher, Light Cavalry, Chariot or
    /// Camelry unit" add no charge or Wild Charge bonus (chariots and
    /// camelry of every weight except scythed chariots, ruling FA-25).
    pub fn denies_charge_bonus(self) -> bool {
        matches!(
            self,
            Skirmishers | LightCavalry | LightChariots | Chariots | LightCamelry | Camelry
        )
    }

    /// Step 4: "Artillery, baggage and demoralized units may not charge."
    pub fn may_charge(self) -> bool {
        !matches!(self.arm(), Arm::Artillery | Arm::Baggage)
    }

    /// Rule 2: "Skirmishers or Light Infantry … may withdraw".
    pub fn may_withdraw(self) -> bool {
        matches!(self, Skirmishers | LightInfantry)
    }

    /// "Only Elephants suffer from rage."
    pub fn suffers_rage(self) -> bool {
        self == Elephants
    }

    /// Units that can panic: enraged elephants and scythed chariots.
    pub fn can_panic(self) -> bool {
        matches!(self, Elephants | ScythedChariots)
    }

    /// "Elephants cause fear to all Cavalry and even cause fear to adjacent units."
    pub fn causes_fear_by_nature(self) -> bool {
        self == Elephants
    }

    pub fn is_artillery(self) -> bool {
        self.arm() == Arm::Artillery
    }
}

impl fmt::Display for TroopType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_codes_and_spellings() {
        for t in TroopType::ALL {
            assert_eq!(TroopType::parse(t.name()), Some(t), "{t}");
            assert_eq!(TroopType::parse(t.code()), Some(t), "{t}");
        }
        assert_eq!(TroopType::parse("Handweapons"), Some(HandWeapons));
        assert_eq!(TroopType::parse("elephant"), Some(Elephants));
        assert_eq!(TroopType::parse("Skirmisher"), Some(Skirmishers));
        assert_eq!(
            TroopType::parse("Hoplites"),
            None,
            "Hoplite is an ability (the Carthaginian list: Spears. Hoplites.)"
        );
        assert_eq!(TroopType::suggest("Heavy Calvary"), Some("Heavy Cavalry"));
    }

    #[test]
    fn rule_one_line_infantry_is_the_seven_codes() {
        let codes: Vec<&str> = TroopType::ALL
            .iter()
            .filter(|t| t.is_line_infantry() && **t != DeepPikes)
            .map(|t| t.code())
            .collect();
        assert_eq!(codes, ["HW", "SP", "PK", "AR", "WB", "RB", "EL"]);
    }

    #[test]
    fn the_light_troops_of_rules_4_7_and_11() {
        let free: Vec<TroopType> = TroopType::ALL
            .into_iter()
            .filter(|t| t.picks_its_target())
            .collect();
        assert_eq!(
            free,
            [Skirmishers, LightCavalry, LightChariots, LightCamelry]
        );
        let rear: Vec<TroopType> = TroopType::ALL
            .into_iter()
            .filter(|t| t.wraps_to_rear())
            .collect();
        assert_eq!(rear, [LightCavalry, LightChariots, LightCamelry]);
        assert!(!ScythedChariots.denies_charge_bonus());
        assert!(Camelry.denies_charge_bonus() && Chariots.denies_charge_bonus());
        assert!(!HeavyArtillery.may_charge() && !Baggage.may_charge() && Elephants.may_charge());
    }
}
