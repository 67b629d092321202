//! §10 Magic: the regular spells, their costs in spell points and the
//! sizes the book gives them.
//!
//! ```
//! use umpire::orders::plan::Spell;
//! use umpire::rules::magic::{find_spell, spell_points};
//! assert_eq!(find_spell("the sword of fire"), Ok(Spell::SwordOfFire));
//! assert_eq!(spell_points(Spell::EarthDemon), 125);
//! ```

use crate::orders::plan::Spell;

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

/// The spell's cost in spell points (§10 table).
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
    }
}

/// Longest line of tremors of the Earth-Shaker: 2 feet.
pub const EARTH_SHAKER_LENGTH: f64 = 24.0;
/// Longest Wall of Fire: 1 foot.
pub const WALL_OF_FIRE_LENGTH: f64 = 12.0;
/// How far the Flying spell carries the wizard.
pub const FLYING_DISTANCE: f64 = 24.0;

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
    ];
    if let Some((_, s)) = short.iter().find(|(w, _)| *w == k) {
        return Ok(*s);
    }
    if let Some(s) = SPELLS.iter().find(|s| key(spell_name(**s)) == k) {
        return Ok(*s);
    }
    let best = SPELLS
        .iter()
        .map(|s| (strsim::normalized_levenshtein(&key(spell_name(*s)), &k), *s))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    Err(best.filter(|(score, _)| *score >= 0.5).map(|(_, s)| s))
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
    }
}
