//! §10 Magic: the regular spells, their costs in spell points and the
//! sizes the book gives them.
//!
//! ```
//! use umpire::games::hyborian::rules::magic::Spell;
//! use umpire::games::hyborian::rules::magic::{find_spell, spell_points};
//! assert_eq!(find_spell("the sword of fire"), Ok(Spell::SwordOfFire));
//! assert_eq!(spell_points(Spell::EarthDemon), 125);
//! ```

use serde::{Deserialize, Serialize};

/// The ten spells of §10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Spell {
    ShieldOfAir,
    Flying,
    WindDemon,
    RainDemon,
    SwordOfFire,
    EarthShaker,
    WallOfFire,
    ArmyOfGhosts,
    EarthDemon,
    BlackSlumber,
    /// Thoth-Amon's own (Appendix II): a commander blinded 1d6 turns.
    HelmOfDarkness,
    /// The White Druids' "Calling" (Appendix II): beasts enter at an edge.
    TheCalling,
    /// The White Hand's legions of the dead (Appendix II): 24 figures.
    LegionsOfTheDead,
}

/// Every regular spell, in the book's order.
pub const SPELLS: [Spell; 10] = [
    Spell::ShieldOfAir,
    Spell::Flying,
    Spell::WindDemon,
    Spell::RainDemon,
    Spell::SwordOfFire,
    Spell::EarthShaker,
    Spell::WallOfFire,
    Spell::ArmyOfGhosts,
    Spell::EarthDemon,
    Spell::BlackSlumber,
];

/// The special spells of particular magic users (Appendix II).
pub const SPECIAL_SPELLS: [Spell; 3] = [
    Spell::HelmOfDarkness,
    Spell::TheCalling,
    Spell::LegionsOfTheDead,
];

/// The spell's cost in spell points (§10 table, Appendix II).
pub fn spell_points(spell: Spell) -> u32 {
    match spell {
        Spell::ShieldOfAir => 10,
        Spell::Flying => 10,
        Spell::WindDemon => 20,
        Spell::RainDemon => 20,
        Spell::SwordOfFire => 25,
        Spell::EarthShaker => 50,
        Spell::WallOfFire => 50,
        Spell::ArmyOfGhosts => 75,
        Spell::EarthDemon => 125,
        Spell::BlackSlumber => 75,
        Spell::HelmOfDarkness => 75,
        Spell::TheCalling => 75,
        Spell::LegionsOfTheDead => 96,
    }
}

/// The short name used in canonical orders.
pub fn spell_name(spell: Spell) -> &'static str {
    match spell {
        Spell::ShieldOfAir => "Shield of Air",
        Spell::Flying => "Flying",
        Spell::WindDemon => "Wind Demon",
        Spell::RainDemon => "Rain Demon",
        Spell::SwordOfFire => "Sword of Fire",
        Spell::EarthShaker => "Earth-Shaker",
        Spell::WallOfFire => "Wall of Fire",
        Spell::ArmyOfGhosts => "Army of Ghosts",
        Spell::EarthDemon => "Earth-Demon",
        Spell::BlackSlumber => "Black Slumber",
        Spell::HelmOfDarkness => "Helm of Darkness",
        Spell::TheCalling => "The Calling",
        Spell::LegionsOfTheDead => "Legions of the Dead",
    }
}

/// Longest line of tremors of the Earth-Shaker: 2 feet.
pub const EARTH_SHAKER_LENGTH: f64 = 24.0;
/// Longest Wall of Fire: 1 foot.
pub const WALL_OF_FIRE_LENGTH: f64 = 12.0;
/// How far the Flying spell carries the wizard.
pub const FLYING_DISTANCE: f64 = 24.0;

/// Casting roll (percentile) at or below which the spell backfires (§10).
pub const BACKFIRE_AT_MOST: u8 = 10;
/// Casting roll at or below which (and above a backfire) the spell fizzles (§10).
pub const FIZZLE_AT_MOST: u8 = 30;

/// "Flying and the missile shield never fail or backfire" (§10).
pub fn never_fails(spell: Spell) -> bool {
    matches!(spell, Spell::Flying | Spell::ShieldOfAir)
}

/// What a casting roll does (§10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Casting {
    /// 10 or less: the spell strikes the facing side of the nearest friendly unit.
    Backfire,
    /// 11–30: no effect, the points are spent.
    Fizzle,
    /// 31–100 (or a spell that never fails).
    Works,
}

/// Read the casting roll for `spell`.
pub fn casting(spell: Spell, roll: u8) -> Casting {
    if never_fails(spell) {
        Casting::Works
    } else if roll <= BACKFIRE_AT_MOST {
        Casting::Backfire
    } else if roll <= FIZZLE_AT_MOST {
        Casting::Fizzle
    } else {
        Casting::Works
    }
}

/// Morale modifier for the target of magic and for units near it (§10).
pub const MAGIC_MORALE: i32 = -10;
/// Northern Barbarians' fear of magic, on them or within 6 inches (Appendix I; ruling S-3).
pub const NORTHERN_BARBARIAN_MAGIC_MORALE: i32 = -20;
/// Units within this many inches of magic test too (§10).
pub const MAGIC_FEAR_RANGE: f64 = 6.0;
/// A sight line needs a gap of at least this many inches (§10, as §6).
pub const SIGHT_GAP: f64 = 3.0;

/// Whether the spell makes its target and those near it test morale
/// (§10 OPEN; ruling S-4): not the spells a wizard casts on himself, not the
/// rain ("no morale test"), not the Calling (beasts entering are not magic
/// aimed at anyone).
pub fn causes_tests(spell: Spell) -> bool {
    !matches!(
        spell,
        Spell::Flying | Spell::ShieldOfAir | Spell::RainDemon | Spell::TheCalling
    )
}

/// Turns a Shield of Air lasts (§10).
pub const SHIELD_OF_AIR_TURNS: u32 = 3;
/// The Rain Demon's square: 1 foot a side (§10).
pub const RAIN_SQUARE: f64 = 12.0;
/// Heavy cavalry figures the Sword of Fire charges as (§10).
pub const SWORD_OF_FIRE_FIGURES: u32 = 3;
/// Heavy cavalry figures the Earth-Demon's landslide charges as (§10).
pub const EARTH_DEMON_FIGURES: u32 = 12;
/// The Earth-Demon needs a hill of at least this many contours (§10).
pub const EARTH_DEMON_CONTOURS: u8 = 2;
/// How far the landslide extends the hill (§10).
pub const LANDSLIDE_EXTENT: f64 = 3.0;
/// How far fire spreads in woods each turn (§10).
pub const FIRE_SPREAD: f64 = 2.0;
/// Figures of the army of ghosts (§10).
pub const GHOST_FIGURES: u32 = 24;
/// Turns the ghosts last (§10).
pub const GHOST_TURNS: u32 = 4;
/// Figures of a legion of the dead (Appendix II, White Hand).
pub const LEGION_FIGURES: u32 = 24;
/// The Calling's beasts enter within this many inches of a side edge,
/// unless wolves come out of woods (Appendix II; ruling S-16).
pub const CALLING_EDGE: f64 = 3.0;
/// Figures of a unit of the Calling's beasts (Appendix II, White Druids).
pub const CALLING_FIGURES: u32 = 20;
/// A White Druid rolling under this (percentile) is too drunk to function.
pub const DRUID_SOBER_FROM: u8 = 50;

/// The magic users of Appendix II, as the engine tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum MagicUser {
    WhiteHand,
    BlackCircle,
    WhiteDruids,
    PriestsOfMitra,
    WorshippersOfSet,
    ThothAmon,
}

impl MagicUser {
    /// The order a wizard belongs to, read from his name as army files
    /// name wizards ("White Druids 2", "Thoth-Amon"); `None` for a wizard
    /// of no named order (ruling S-12).
    pub fn of_name(name: &str) -> Option<MagicUser> {
        let k = key(name);
        [
            ("thothamon", MagicUser::ThothAmon),
            ("whitehand", MagicUser::WhiteHand),
            ("blackcircle", MagicUser::BlackCircle),
            ("druid", MagicUser::WhiteDruids),
            ("mitra", MagicUser::PriestsOfMitra),
            ("worshippersset", MagicUser::WorshippersOfSet),
        ]
        .into_iter()
        .find(|(w, _)| k.contains(w))
        .map(|(_, m)| m)
    }

    /// The special spell this order alone may cast (Appendix II).
    pub fn special_spell(self) -> Option<Spell> {
        match self {
            MagicUser::ThothAmon => Some(Spell::HelmOfDarkness),
            MagicUser::WhiteDruids => Some(Spell::TheCalling),
            MagicUser::WhiteHand => Some(Spell::LegionsOfTheDead),
            _ => None,
        }
    }

    /// The order that casts a special spell.
    pub fn casting(spell: Spell) -> Option<MagicUser> {
        [
            MagicUser::ThothAmon,
            MagicUser::WhiteDruids,
            MagicUser::WhiteHand,
        ]
        .into_iter()
        .find(|m| m.special_spell() == Some(spell))
    }

    /// The Appendix II name.
    pub fn name(self) -> &'static str {
        match self {
            MagicUser::WhiteHand => "Order of the White Hand",
            MagicUser::BlackCircle => "Wizards of the Black Circle",
            MagicUser::WhiteDruids => "White Druids",
            MagicUser::PriestsOfMitra => "Priests of Mitra",
            MagicUser::WorshippersOfSet => "Worshippers of Set",
            MagicUser::ThothAmon => "Thoth-Amon",
        }
    }
}

/// Words players add around a spell's name that do not tell spells apart.
const FILLER: [&str; 7] = [
    "the",
    "commanding",
    "command",
    "raising",
    "raise",
    "spell",
    "of",
];

fn key(text: &str) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .filter(|w| !FILLER.contains(&w.as_str()))
        .collect::<Vec<_>>()
        .join("")
}

/// Read a spell's name forgivingly: case, "the", "commanding", "spell",
/// hyphens and spaces do not matter (`earth shaker`, `The Earth-Shaker`,
/// `commanding the wind demon`, `fly`). On failure returns the nearest
/// spell, if any is near enough to suggest.
pub fn find_spell(text: &str) -> Result<Spell, Option<Spell>> {
    let k = key(text);
    let short: &[(&str, Spell)] = &[
        ("fly", Spell::Flying),
        ("ghosts", Spell::ArmyOfGhosts),
        ("slumber", Spell::BlackSlumber),
        ("helm", Spell::HelmOfDarkness),
        ("calling", Spell::TheCalling),
        ("legions", Spell::LegionsOfTheDead),
        ("legionsdead", Spell::LegionsOfTheDead),
        ("helmdarkness", Spell::HelmOfDarkness),
    ];
    if let Some((_, s)) = short.iter().find(|(w, _)| *w == k) {
        return Ok(*s);
    }
    let all = SPELLS.iter().chain(SPECIAL_SPELLS.iter());
    if let Some(s) = all.clone().find(|s| key(spell_name(**s)) == k) {
        return Ok(*s);
    }
    let keys: Vec<(String, Spell)> = all.map(|s| (key(spell_name(*s)), *s)).collect();
    Err(crate::names::closest(
        &k,
        keys.iter().map(|(n, s)| (n.as_str(), *s)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for s in SPELLS {
            assert_eq!(find_spell(spell_name(s)), Ok(s));
        }
        assert_eq!(
            find_spell("Commanding the Earth-Demon"),
            Ok(Spell::EarthDemon)
        );
        assert_eq!(
            find_spell("raising the army of ghosts"),
            Ok(Spell::ArmyOfGhosts)
        );
        assert_eq!(find_spell("swrd of fire"), Err(Some(Spell::SwordOfFire)));
        assert_eq!(find_spell("xyzzy"), Err(None));
        for s in SPECIAL_SPELLS {
            assert_eq!(find_spell(spell_name(s)), Ok(s));
        }
        assert_eq!(
            find_spell("the Helm of Darkness"),
            Ok(Spell::HelmOfDarkness)
        );
    }

    #[test]
    fn casting_rolls_read_as_the_book() {
        assert_eq!(casting(Spell::SwordOfFire, 10), Casting::Backfire);
        assert_eq!(casting(Spell::SwordOfFire, 11), Casting::Fizzle);
        assert_eq!(casting(Spell::SwordOfFire, 30), Casting::Fizzle);
        assert_eq!(casting(Spell::SwordOfFire, 31), Casting::Works);
        assert_eq!(casting(Spell::Flying, 1), Casting::Works);
        assert_eq!(casting(Spell::ShieldOfAir, 25), Casting::Works);
    }

    #[test]
    fn orders_read_from_names() {
        assert_eq!(MagicUser::of_name("Thoth-Amon"), Some(MagicUser::ThothAmon));
        assert_eq!(
            MagicUser::of_name("White Druids 2"),
            Some(MagicUser::WhiteDruids)
        );
        assert_eq!(
            MagicUser::of_name("Order of the White Hand"),
            Some(MagicUser::WhiteHand)
        );
        assert_eq!(
            MagicUser::of_name("Worshippers of Set 1"),
            Some(MagicUser::WorshippersOfSet)
        );
        assert_eq!(MagicUser::of_name("Hedge Wizard"), None);
        assert_eq!(
            MagicUser::casting(Spell::TheCalling),
            Some(MagicUser::WhiteDruids)
        );
    }
}
