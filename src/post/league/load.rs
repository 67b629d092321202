//! Reading a league file: every bound, every member, and every game file
//! it plays tried as `umpire game new` would try it.

use crate::games;
use crate::league::file::LeagueFile;
use crate::post::gamefile::{self, GameFile};
use crate::post::PostError;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A league file read and checked, with its game files loaded.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub file: LeagueFile,
    /// The game files, resolved against the league file's folder.
    pub games: Vec<PathBuf>,
}

fn league_error(path: &Path, why: impl std::fmt::Display) -> PostError {
    PostError::League(format!("{}: {why}", path.display()))
}

/// Read and check a league file: every bound, every member, and every game
/// file it plays (each must start a game of two sides, with a scenario the
/// rule set reads; a member's preferred side must be one of theirs).
///
/// # Errors
/// The first problem, naming the file and what to change.
pub fn load(path: &Path) -> Result<Loaded, PostError> {
    let text = std::fs::read_to_string(path).map_err(|e| league_error(path, e))?;
    let file = LeagueFile::parse(&text).map_err(|e| league_error(path, e))?;
    file.check(crate::mail::address::is_valid)
        .map_err(|e| league_error(path, e))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut games = Vec::new();
    let mut sides = BTreeSet::new();
    for g in &file.games {
        let p = base.join(g);
        let gf = GameFile::load(&p)
            .map_err(|e| league_error(path, format!("game file {}: {e}", g.display())))?;
        let found = scenario_sides(&gf)
            .map_err(|e| league_error(path, format!("game file {}: {e}", g.display())))?;
        if found.len() != 2 || gf.sides.len() != 2 {
            return Err(league_error(
                path,
                format!(
                    "game file {}: a league game is played by two members, but this game has the sides {}",
                    g.display(),
                    found.join(", ")
                ),
            ));
        }
        sides.extend(gf.sides.iter().map(|s| s.id.to_ascii_lowercase()));
        games.push(p);
    }
    for m in &file.members {
        if let Some(tz) = &m.timezone {
            gamefile::zone(tz).map_err(|near| {
                league_error(
                    path,
                    format!(
                        "member {}: unknown time zone '{tz}'{}",
                        m.name,
                        near.first()
                            .map(|n| format!(" (did you mean '{n}'?)"))
                            .unwrap_or_default()
                    ),
                )
            })?;
        }
        if let Some(p) = &m.prefers {
            if !sides.contains(&p.to_ascii_lowercase()) {
                let list: Vec<&str> = sides.iter().map(String::as_str).collect();
                let near = crate::names::closest(p, list.iter().map(|s| (*s, *s)))
                    .map(|n| format!("did you mean '{n}'? "))
                    .unwrap_or_default();
                return Err(league_error(
                    path,
                    format!(
                        "member {}: prefers = \"{p}\" is no side of the league's games; {near}the sides are {}",
                        m.name,
                        list.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(Loaded { file, games })
}

/// The sides a game file's scenario starts with, trying it as `umpire game
/// new` would (but storing nothing).
fn scenario_sides(gf: &GameFile) -> Result<Vec<String>, String> {
    let ruleset = games::named(&gf.ruleset).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&gf.scenario)
        .map_err(|e| format!("scenario {}: {e}", gf.scenario.display()))?;
    let (armies, pack) = gf.read_armies_and_pack().map_err(|e| e.to_string())?;
    let companions = gamefile::read_companions(&gf.scenario, &ruleset.companions(&text));
    let new = ruleset
        .new_game(&games::Setup {
            scenario_path: &gf.scenario,
            scenario_text: &text,
            options: &gf.options,
            max_turns: gf.max_turns,
            seed: [0; 32],
            armies: &armies,
            pack: pack.as_deref(),
            companions: &companions,
        })
        .map_err(|e| format!("scenario {}: {e}", gf.scenario.display()))?;
    for s in &gf.sides {
        if !new.sides.contains(&s.id) {
            return Err(format!(
                "names side '{}' but the scenario's sides are: {}",
                s.id,
                new.sides.join(", ")
            ));
        }
    }
    Ok(new.sides)
}
