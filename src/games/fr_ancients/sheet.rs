//! The sheet's tables as data: `campaigns/fr-ancients/*.toml` (weapons,
//! grades, abilities, characters, standards, points), embedded in the
//! binary and read once into typed rows. Every number the sheet prints is
//! in those files and nowhere else; the modules named after the sheet's
//! terms ([`super::weapons`], [`super::grades`], …) read them from here.
//!
//! ```
//! use umpire::games::fr_ancients::sheet::sheet;
//! assert_eq!(sheet().standards.bearer_rally, 2);
//! assert_eq!(sheet().points.guidelines.impetuous, -5);
//! ```
//!
//! Architecture invariant: the files are checked by this module's tests, so
//! [`sheet`] cannot fail at run time.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

const WEAPONS: &str = include_str!("../../../campaigns/fr-ancients/weapons.toml");
const GRADES: &str = include_str!("../../../campaigns/fr-ancients/grades.toml");
const ABILITIES: &str = include_str!("../../../campaigns/fr-ancients/abilities.toml");
const CHARACTERS: &str = include_str!("../../../campaigns/fr-ancients/characters.toml");
const STANDARDS: &str = include_str!("../../../campaigns/fr-ancients/standards.toml");
const POINTS: &str = include_str!("../../../campaigns/fr-ancients/points.toml");

/// A weapon of the sheet's table, the key of its row (what a weapon does
/// is in [`super::weapons`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Weapon {
    #[serde(rename = "Massed Bows")]
    MassedBows,
    #[serde(rename = "Bows/Slings")]
    BowsSlings,
    Javelins,
    Thrown,
    Pila,
    #[serde(rename = "Light Artillery")]
    LightArtillery,
    #[serde(rename = "Heavy Artillery")]
    HeavyArtillery,
}

/// Every table of the sheet.
#[derive(Debug)]
pub struct Sheet {
    pub weapons: WeaponsFile,
    pub grades: GradesFile,
    pub abilities: AbilitiesFile,
    pub characters: CharactersFile,
    pub standards: StandardsFile,
    pub points: PointsFile,
}

/// The sheet's tables, read once from the embedded files.
pub fn sheet() -> &'static Sheet {
    static SHEET: OnceLock<Sheet> = OnceLock::new();
    SHEET.get_or_init(|| match Sheet::read() {
        Ok(s) => s,
        // The embedded files are fixed at build time and checked by the tests below.
        Err(e) => unreachable!("campaigns/fr-ancients data: {e}"),
    })
}

impl Sheet {
    fn read() -> Result<Sheet, String> {
        fn parse<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, String> {
            toml::from_str(text).map_err(|e| format!("{file}: {}", e.message()))
        }
        Ok(Sheet {
            weapons: parse("weapons.toml", WEAPONS)?,
            grades: parse("grades.toml", GRADES)?,
            abilities: parse("abilities.toml", ABILITIES)?,
            characters: parse("characters.toml", CHARACTERS)?,
            standards: parse("standards.toml", STANDARDS)?,
            points: parse("points.toml", POINTS)?,
        })
    }
}

/// `weapons.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponsFile {
    pub weapon: Vec<WeaponRow>,
    pub elite: EliteFire,
}

/// One line of the weapons table (§3).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponRow {
    pub name: Weapon,
    /// Other names players write ("Slings").
    #[serde(default)]
    pub also: Vec<String>,
    pub range_in: f64,
    pub range_cm: f64,
    pub when_charged: i32,
    pub when_charging: i32,
    /// Added on the Bowfire table (Massed Bows +1).
    pub bowfire: i32,
    /// Added to the damage roll (Light Artillery −1).
    pub damage: i32,
    /// Archers with this weapon may concentrate their fire (rule 4).
    #[serde(default)]
    pub concentrates: bool,
}

/// "Elite missile firing units add +1 to their missile fire roll to a maximum of 10."
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EliteFire {
    pub missile_roll: i32,
    pub roll_cap: i32,
}

/// `grades.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradesFile {
    pub grade: Vec<GradeRow>,
}

/// One grade (§4).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradeRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    /// How many +1s it spreads over Melee/Rally/Missile.
    pub plus_ones: i32,
    pub cost: i32,
    #[serde(default)]
    pub missile_roll: bool,
    #[serde(default)]
    pub all_enemies_cause_fear: bool,
}

/// A name with the other spellings players use.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Named {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
}

/// `abilities.toml`: the numbers each ability carries (§5, rules 4, 5, 13, 14).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilitiesFile {
    pub shield_wall: ShieldWallRow,
    pub tortoise: TortoiseRow,
    pub battle_drill: BattleDrillRow,
    pub hoplite: HopliteRow,
    pub unmanoeuvreable: UnmanoeuvreableRow,
    pub wild_charge: WildChargeRow,
    pub rage: RageRow,
    pub panic: PanicRow,
    pub enraged_compass: EnragedCompass,
    pub secondary_compass: SecondaryCompass,
    pub impetuous: Named,
    pub cause_fear: CauseFearRow,
    pub tribal: TribalRow,
    pub heavy_armour: HeavyArmourRow,
    pub pavisiers: PavisiersRow,
    pub double_skirmish: DoubleSkirmishRow,
    pub artillery: ArtilleryRow,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShieldWallRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub enemy_bowfire: i32,
    pub skirmishers_pass: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TortoiseRow {
    pub name: String,
    /// [in the open, in terrain], inches.
    #[serde(rename = "move")]
    pub movement: [f64; 2],
    pub skirmishers_pass: bool,
    pub after_year: i32,
}

/// A period of years (negative: BC), both ends included.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrillPart {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub from_year: i32,
    pub to_year: i32,
    /// The other reading of "the entry of Publius Cornelius Scipio" (option `scipio = "father"`).
    #[serde(default)]
    pub father_from_year: Option<i32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleDrillRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub pass_through: DrillPart,
    pub maneuverability: DrillPart,
    pub free_changes: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HopliteRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    #[serde(rename = "move")]
    pub movement: [f64; 2],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnmanoeuvreableRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub wheel_speed: f64,
    pub overlap_extra: i32,
    pub single_flank_cf: i32,
    pub single_rear_cf: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WildChargeRow {
    pub name: String,
    pub charge_bonus: i32,
    pub win_dmz: u8,
    /// Troop types whose values already include it.
    pub built_in: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RageRow {
    pub name: String,
    pub only: Vec<String>,
    pub marker_levels: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PanicRow {
    pub name: String,
    pub marker_levels: u8,
    pub chariot_start_bases: f64,
}

/// The Enraged Move Direction: bearing (clockwise from the unit's facing)
/// of each point 1–8.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnragedCompass {
    pub points: [f64; 8],
}

/// The Secondary Move Direction: which faces of 1–8 go left of the
/// movement arc, forward, or right of it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondaryCompass {
    pub left: Vec<u8>,
    pub forward: Vec<u8>,
    pub right: Vec<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CauseFearRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub cavalry_charging_elephant: i32,
    pub balk_bases: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TribalRow {
    pub name: String,
    pub rear_support: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeavyArmourRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub missile_when_charged: i32,
    #[serde(rename = "move")]
    pub movement: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PavisiersRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub cover: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoubleSkirmishRow {
    pub shots: u32,
    pub bonus_factor: i32,
    pub cf_against_skirmishers: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtilleryRow {
    /// Inches: artillery must shoot its nearest target when it is closer.
    pub priority_range: f64,
    pub indirect_damage: i32,
}

/// `characters.toml` (§7).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharactersFile {
    pub general: CharacterRow,
    pub sub_general: CharacterRow,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterRow {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    /// Melee/Rally/Missile.
    pub bonus: [i32; 3],
    pub free_move: String,
    pub most: u32,
    /// Sub-generals: `most` holds for armies up to this many points…
    #[serde(default)]
    pub most_up_to: Option<u32>,
    /// …and one more for each further `step` points or part.
    #[serde(default)]
    pub step: Option<u32>,
}

/// `standards.toml` (rule 15).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandardsFile {
    pub bearer_rally: i32,
    pub adjacent_rally: i32,
    pub against_captors_cf: i32,
    pub clock_loss: u32,
    pub captured_points: u32,
    pub lost_points: u32,
    pub result: Vec<StandardRow>,
}

/// One row of the standards result table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandardRow {
    pub faces: Vec<u8>,
    pub result: TableResult,
    pub text: String,
}

/// A row of the standards result table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableResult {
    Lost,
    Escapes,
    Captured,
    LeftBehind,
}

impl TableResult {
    pub fn name(self) -> &'static str {
        match self {
            TableResult::Lost => "lost",
            TableResult::Escapes => "escapes",
            TableResult::Captured => "captured",
            TableResult::LeftBehind => "left behind",
        }
    }
}

impl fmt::Display for TableResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `points.toml` (§8).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointsFile {
    pub basic: Surcharges,
    pub guidelines: Surcharges,
}

/// The surcharges of one points method.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surcharges {
    pub elite: i32,
    pub veteran: i32,
    pub unsteady: i32,
    pub impetuous: i32,
    /// Each missile type shown with "?" (guidelines only).
    #[serde(default)]
    pub optional_missile: i32,
    /// Each ability shown with "?" (guidelines only).
    #[serde(default)]
    pub optional_ability: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_files_read() {
        let s = Sheet::read().unwrap();
        assert_eq!(s.weapons.weapon.len(), Weapon::ALL.len());
        assert_eq!(s.grades.grade.len(), 3);
        assert_eq!(s.standards.result.len(), 4);
    }

    #[test]
    fn the_standards_table_covers_every_face_once() {
        let mut faces: Vec<u8> = sheet()
            .standards
            .result
            .iter()
            .flat_map(|r| r.faces.clone())
            .collect();
        faces.sort_unstable();
        assert_eq!(faces, (1..=10).collect::<Vec<u8>>());
    }

    #[test]
    fn the_secondary_compass_covers_one_to_eight_once() {
        let c = &sheet().abilities.secondary_compass;
        let mut all: Vec<u8> = c
            .left
            .iter()
            .chain(&c.forward)
            .chain(&c.right)
            .copied()
            .collect();
        all.sort_unstable();
        assert_eq!(all, (1..=8).collect::<Vec<u8>>());
    }
}
