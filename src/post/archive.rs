//! The club's archive: `umpire export GAME --html DIR` writes a static site
//! with every released turn's report and picture, linked turn to turn, and
//! `umpire report GAME` prints a stored report (text or JSON).

use super::turn::stored_report;
use super::{PostError, PostOffice};
use crate::games::hyborian::report::picture;
use std::fmt::Write as _;
use std::path::Path;

/// The released turns of a game, in order.
fn released_turns(po: &PostOffice, game: &str) -> Result<Vec<u32>, PostError> {
    let mut st = po.store.conn().prepare(
        "SELECT turn FROM turns WHERE lower(game_id) = lower(?1) AND released = 1 AND report IS NOT NULL ORDER BY turn",
    )?;
    let turns = st.query_map([game], |r| r.get(0))?.collect::<rusqlite::Result<Vec<u32>>>()?;
    Ok(turns)
}

/// The game's id as stored (ids are matched ignoring case).
fn game_id(po: &PostOffice, game: &str) -> Result<String, PostError> {
    po.store
        .optional_string("SELECT id FROM games WHERE lower(id) = lower(?1)", [game])?
        .ok_or_else(|| PostError::NoGame(game.to_string()))
}

/// A released report as text, or as JSON for tools (`turn`: the latest when absent).
///
/// # Errors
/// When the game or the turn's report does not exist.
pub fn report_text(po: &mut PostOffice, game: &str, turn: Option<u32>, json: bool) -> Result<String, PostError> {
    let id = game_id(po, game)?;
    let turns = released_turns(po, &id)?;
    let Some(turn) = turn.or(turns.last().copied()).filter(|t| turns.contains(t)) else {
        return Err(PostError::NoGame(format!("{id} has no released report of that turn")));
    };
    let (rep, _, after) = po
        .store
        .write(|tx| stored_report(tx, &id, turn))?
        .ok_or_else(|| PostError::NoGame(format!("{id} turn {turn}")))?;
    if json {
        let value = serde_json::json!({ "report": rep, "table": after });
        return serde_json::to_string_pretty(&value).map_err(|e| PostError::Corrupt(e.to_string()));
    }
    Ok(rep.text())
}

/// Write the static archive of `game` into `dir`: `index.html`, and for
/// each released turn `turn-N.html`, `turn-N.png` and `turn-N.svg`.
///
/// # Errors
/// When the game does not exist or the folder cannot be written.
pub fn export_html(po: &mut PostOffice, game: &str, dir: &Path) -> Result<usize, PostError> {
    let id = game_id(po, game)?;
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(io)?;
    let turns = released_turns(po, &id)?;
    let mut index = String::new();
    let mut title = id.clone();
    for (i, &turn) in turns.iter().enumerate() {
        let Some((rep, before, after)) = po.store.write(|tx| stored_report(tx, &id, turn))? else {
            continue;
        };
        title = rep.title.clone();
        let svg = picture::svg(Some(&before), &after, &rep.charged, &format!("{} — after turn {turn}", rep.title));
        let png = picture::png(&svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
        std::fs::write(dir.join(format!("turn-{turn}.svg")), &svg).map_err(io)?;
        std::fs::write(dir.join(format!("turn-{turn}.png")), png).map_err(io)?;
        let mut html = rep.html(Some(&format!("turn-{turn}.png")));
        let mut nav = String::from("<p><a href=\"index.html\">All turns</a>");
        if i > 0 {
            let _ = write!(nav, " · <a href=\"turn-{}.html\">turn {}</a>", turns[i - 1], turns[i - 1]);
        }
        if let Some(next) = turns.get(i + 1) {
            let _ = write!(nav, " · <a href=\"turn-{next}.html\">turn {next}</a>");
        }
        nav.push_str("</p>\n");
        if let Some(pos) = html.find("<h1>") {
            html.insert_str(pos, &nav);
        }
        std::fs::write(dir.join(format!("turn-{turn}.html")), html).map_err(io)?;
        let _ = writeln!(index, "<li><a href=\"turn-{turn}.html\">Turn {turn}</a></li>");
    }
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title></head>\n<body style=\"font-family: Georgia, serif; max-width: 40em; margin: auto\">\n<h1>{t}</h1>\n<ul>\n{index}</ul>\n</body></html>\n",
        t = esc(&title)
    );
    std::fs::write(dir.join("index.html"), page).map_err(io)?;
    Ok(turns.len())
}
