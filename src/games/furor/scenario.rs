//! The four scenarios (§12): their names, lengths, and (from their files
//! under `campaigns/furor-barbarus/scenarios/`) orders of battle, set-ups
//! and special rules.

/// The scenarios' names in game, scenario and case files.
pub const SCENARIOS: [&str; 4] = ["campus-mauriacus", "soissons", "tolbiac", "vouille"];

/// A scenario's number of turns (§12).
pub fn turns_of(name: &str) -> u8 {
    match name {
        "campus-mauriacus" => 12,
        "tolbiac" => 8,
        _ => 6,
    }
}
