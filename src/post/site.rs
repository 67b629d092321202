//! The club's web pages, kept current (`[web] dir` in umpire.toml):
//! `umpire run` writes them after each of its passes, `umpire site` once.
//!
//! The folder holds `index.html`, the club's games, leagues and campaigns
//! with where each stands and its deadline; `games/GAME/`, each game's
//! released turns with picture, report and verification bundle (the
//! archive `umpire export` writes: never a draft, never orders before their
//! turn is released, the report as every player of the game reads it);
//! `leagues/LEAGUE/`, the standings; `campaigns/CAMPAIGN/`, the campaign's
//! public map (each province in its owner's colour, as every power's map
//! shows it, and no army). One stylesheet, `style.css`; every page fits a
//! phone.
//!
//! Every file is written whole under a temporary name and renamed over the
//! old one, so a reader never sees half a page. `.umpire-site.json`
//! remembers what was written: a pass in which no game, round or campaign
//! changed reads one query's worth and writes nothing, and a game's
//! pictures are drawn once, when its turn is released.

use super::archive::{export_game, io_at, write_whole, Within};
use super::game::Game;
use super::{PostError, PostOffice};
use crate::games::campaign_rules;
use crate::report::{capitalize_first, esc, picture};
use crate::store;
use crate::store::games::GameStatus;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// The file in the site's folder that remembers what was written.
const WRITTEN: &str = ".umpire-site.json";

/// The stylesheet every page of the site links to.
const STYLE: &str = "body { font-family: Georgia, serif; max-width: 48em; margin: 0 auto; padding: 0.5em 1em; color: #222; line-height: 1.4; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; border-bottom: 1px solid #bbb; }
table { border-collapse: collapse; width: 100%; font-size: 0.95em; }
td, th { border-bottom: 1px solid #ddd; padding: 0.3em 0.4em; text-align: left; vertical-align: top; }
img { max-width: 100%; height: auto; }
.state { color: #555; }
a { color: #1a4d8f; }
@media (max-width: 30em) { body { padding: 0.3em; } td, th { padding: 0.2em; font-size: 0.9em; } }
";

/// What the last pass wrote.
#[derive(Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
struct Written {
    /// The marks of games and campaigns the pages were written from.
    marks: Vec<String>,
    /// Each game's released turns whose pictures are written.
    games: BTreeMap<String, Vec<u32>>,
    /// Each campaign's state (its SHA-256) whose map is drawn.
    #[serde(default)]
    campaigns: BTreeMap<String, String>,
}

/// What a pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Refreshed {
    /// Whether anything was written (nothing had changed otherwise).
    pub written: bool,
    /// Turns whose pictures and bundles were written.
    pub turns: usize,
}

/// Bring the club's web pages in `dir` up to date.
///
/// # Errors
/// When the folder cannot be written, or on database errors. A game or
/// campaign whose stored state cannot be read is listed without its pages.
pub fn refresh(po: &mut PostOffice, dir: &Path) -> Result<Refreshed, PostError> {
    std::fs::create_dir_all(dir).map_err(io_at(dir))?;
    let mut written: Written = std::fs::read(dir.join(WRITTEN))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let marks = po.store.write(|tx| {
        let mut marks = store::games::marks(tx)?;
        marks.extend(store::campaigns::marks(tx)?);
        Ok::<_, PostError>(marks)
    })?;
    if marks == written.marks && dir.join("index.html").exists() {
        return Ok(Refreshed::default());
    }
    let mut turns = 0;
    let mut games = Vec::new();
    for id in po
        .store
        .write(|tx| Ok::<_, PostError>(store::games::ids(tx)?))?
    {
        let Some(entry) = game_entry(po, &id)? else {
            continue;
        };
        if entry.released {
            let done = written.games.get(&id).cloned().unwrap_or_default();
            let within = Within {
                root: Some("../../"),
                written: &done,
            };
            let now = export_game(po, &id, &dir.join("games").join(&id), &within)?;
            turns += now.iter().filter(|t| !done.contains(t)).count();
            written.games.insert(id.clone(), now);
        }
        games.push(entry);
    }
    let archived: BTreeSet<String> = games
        .iter()
        .filter(|g| g.released)
        .map(|g| g.id.clone())
        .collect();
    let leagues = leagues(po, dir, &archived)?;
    let campaigns = campaigns(po, dir, &mut written.campaigns)?;
    write_whole(&dir.join("style.css"), STYLE.as_bytes())?;
    let index = index(&games, &leagues, &campaigns);
    write_whole(&dir.join("index.html"), index.as_bytes())?;
    written.marks = marks;
    let json = serde_json::to_vec(&written).map_err(|e| PostError::Corrupt(e.to_string()))?;
    write_whole(&dir.join(WRITTEN), &json)?;
    Ok(Refreshed {
        written: true,
        turns,
    })
}

/// A game as the club's index lists it.
struct GameEntry {
    id: String,
    title: String,
    system: String,
    /// Where it stands, in words: "turn 3, due …", "paused", "ended: …".
    state: String,
    /// Whether a turn of it is released (it has pages of its own).
    released: bool,
}

/// Game `id`'s line in the index; `None` when it cannot be loaded (a
/// damaged row: `umpire doctor` names it, the site goes on without it).
fn game_entry(po: &mut PostOffice, id: &str) -> Result<Option<GameEntry>, PostError> {
    po.store.write(|tx| {
        let g = match Game::load(tx, id) {
            Ok(Some(g)) => g,
            Ok(None) => return Ok(None),
            Err(e) => {
                tracing::warn!(game = id, error = %e, "the web pages leave out a game that cannot be read");
                return Ok(None);
            }
        };
        let released = store::rounds::released(tx, g.id())?;
        let state = match g.row.status {
            GameStatus::Ended => match released.last() {
                Some(&last) => ended(tx, &g, last)?,
                None => "ended".to_string(),
            },
            GameStatus::Paused => "paused by its moderator".to_string(),
            GameStatus::Active => match g.round() {
                Ok(r) => format!("{}, due {}", capitalize_first(&r.label), g.deadline_text()),
                Err(_) => "taking orders".to_string(),
            },
        };
        Ok(Some(GameEntry {
            id: g.id().to_string(),
            title: g.row.title.clone(),
            system: g.ruleset.title().to_string(),
            state,
            released: !released.is_empty(),
        }))
    })
}

/// "ended: Rome has won the battle." from the last released report.
fn ended(tx: &store::Transaction<'_>, g: &Game, last: u32) -> Result<String, PostError> {
    let victory = super::round::stored_report(tx, g.id(), last)?
        .map(|(rep, _, _)| rep.victory.join(" "))
        .unwrap_or_default();
    Ok(if victory.is_empty() {
        "ended".to_string()
    } else {
        format!("ended: {victory}")
    })
}

/// Write each league's page; returns (id, name) of each.
fn leagues(
    po: &mut PostOffice,
    dir: &Path,
    archived: &BTreeSet<String>,
) -> Result<Vec<(String, String)>, PostError> {
    let ids = po
        .store
        .write(|tx| Ok::<_, PostError>(store::leagues::ids(tx)?))?;
    let mut out = Vec::new();
    for id in ids {
        let page = super::league::site_page(po, &id, archived, "../../games/", "../../")?;
        let folder = dir.join("leagues").join(&id);
        std::fs::create_dir_all(&folder).map_err(io_at(&folder))?;
        write_whole(&folder.join("index.html"), page.as_bytes())?;
        let name = po
            .store
            .write(|tx| Ok::<_, PostError>(store::leagues::load(tx, &id)?))?
            .map_or_else(|| id.clone(), |l| l.name);
        out.push((id, name));
    }
    Ok(out)
}

/// A campaign as the club's index lists it.
struct CampaignEntry {
    id: String,
    title: String,
    state: String,
}

/// Write each campaign's page, and its public map when the campaign
/// changed since `drawn` was (map and state hash by campaign).
fn campaigns(
    po: &mut PostOffice,
    dir: &Path,
    drawn: &mut BTreeMap<String, String>,
) -> Result<Vec<CampaignEntry>, PostError> {
    let ids = po
        .store
        .write(|tx| Ok::<_, PostError>(store::campaigns::ids(tx)?))?;
    let mut out = Vec::new();
    for id in ids {
        let (row, deadline) = po.store.write(|tx| {
            Ok::<_, PostError>((
                store::campaigns::load(tx, &id)?,
                store::campaigns::deadline(tx, &id)?,
            ))
        })?;
        let Some(row) = row else { continue };
        let facts = match campaign_rules().facts(&row.state) {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(campaign = id, error = %e, "the web pages leave out a campaign that cannot be read");
                continue;
            }
        };
        let due = deadline.map_or(String::new(), |d| {
            format!(", orders due {}", d.format("%Y-%m-%d %H:%M UTC"))
        });
        let state = format!("{}: {}{due}", facts.date, row.status);
        let folder = dir.join("campaigns").join(&id);
        std::fs::create_dir_all(&folder).map_err(io_at(&folder))?;
        let hash = crate::dice::seed_hash(&row.state);
        if drawn.get(&id) != Some(&hash) || !folder.join("map.png").exists() {
            let map = campaign_rules().public_map(&row.state)?;
            let png = picture::png(&map).map_err(|e| PostError::Corrupt(e.to_string()))?;
            write_whole(&folder.join("map.png"), &png)?;
            write_whole(&folder.join("map.svg"), map.as_bytes())?;
            drawn.insert(id.clone(), hash);
        }
        let page = page(
            &facts.title,
            &format!(
                "<p class=\"state\">{}</p>\n<p><a href=\"map.svg\"><img src=\"map.png\" alt=\"the public map of {}\"></a></p>\n\
                 <p>Each province in its holder's colour, as every power's map shows it; where the armies march only their own powers know.</p>\n",
                esc(&state),
                esc(&facts.title)
            ),
            "../../",
        );
        write_whole(&folder.join("index.html"), page.as_bytes())?;
        out.push(CampaignEntry {
            id,
            title: facts.title,
            state,
        });
    }
    Ok(out)
}

/// The club's index.
fn index(games: &[GameEntry], leagues: &[(String, String)], campaigns: &[CampaignEntry]) -> String {
    let mut body = String::new();
    body.push_str("<h2>Games</h2>\n");
    if games.is_empty() {
        body.push_str("<p>No games yet.</p>\n");
    } else {
        body.push_str("<table>\n<tr><th>Game</th><th>Rules</th><th>Where it stands</th></tr>\n");
        for g in games {
            let name = if g.released {
                format!(
                    "<a href=\"games/{id}/index.html\">{title}</a>",
                    id = esc(&g.id),
                    title = esc(&g.title)
                )
            } else {
                esc(&g.title)
            };
            let _ = writeln!(
                body,
                "<tr><td>{name} <span class=\"state\">({})</span></td><td>{}</td><td>{}</td></tr>",
                esc(&g.id),
                esc(&g.system),
                esc(&g.state)
            );
        }
        body.push_str("</table>\n");
    }
    if !leagues.is_empty() {
        body.push_str("<h2>Leagues</h2>\n<ul>\n");
        for (id, name) in leagues {
            let _ = writeln!(
                body,
                "<li><a href=\"leagues/{id}/index.html\">{name}</a>: the standings and every game</li>",
                id = esc(id),
                name = esc(name)
            );
        }
        body.push_str("</ul>\n");
    }
    if !campaigns.is_empty() {
        body.push_str("<h2>Campaigns</h2>\n<ul>\n");
        for c in campaigns {
            let _ = writeln!(
                body,
                "<li><a href=\"campaigns/{id}/index.html\">{title}</a> <span class=\"state\">{state}</span></li>",
                id = esc(&c.id),
                title = esc(&c.title),
                state = esc(&c.state)
            );
        }
        body.push_str("</ul>\n");
    }
    page("The club's games", &body, "")
}

/// A whole page of the site, `root` leading back to its top.
fn page(title: &str, body: &str, root: &str) -> String {
    let back = if root.is_empty() {
        String::new()
    } else {
        format!("<p><a href=\"{root}index.html\">The club</a></p>\n")
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><link rel=\"stylesheet\" href=\"{root}style.css\"></head>\n<body>\n{back}<h1>{t}</h1>\n{body}</body></html>\n",
        t = esc(title)
    )
}
