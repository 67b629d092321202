//! The club's archive: `umpire export GAME --html DIR` writes a static site
//! with every released round's report, picture and verification bundle,
//! linked round to round, and `umpire report GAME` prints a stored report (text or JSON).

use super::bundle::Bundle;
use super::game::Game;
use super::round::stored_report;
use super::{PostError, PostOffice};
use crate::report::picture;
use crate::store::rounds;
use std::fmt::Write as _;
use std::path::Path;

impl PostOffice {
    /// A game and its released rounds, in order.
    fn released(&mut self, game: &str) -> Result<(Game, Vec<u32>), PostError> {
        self.store.write(|tx| {
            let g = Game::load(tx, game)?.ok_or_else(|| PostError::NoGame(game.to_string()))?;
            let released = rounds::released(tx, g.id())?;
            Ok((g, released))
        })
    }
}

/// A released report as text, or as JSON for tools (`turn`: the latest when absent).
///
/// # Errors
/// When the game or the round's report does not exist.
pub fn report_text(
    po: &mut PostOffice,
    game: &str,
    turn: Option<u32>,
    json: bool,
) -> Result<String, PostError> {
    let (g, released) = po.released(game)?;
    let Some(turn) = turn
        .or(released.last().copied())
        .filter(|t| released.contains(t))
    else {
        return Err(PostError::NoReport {
            game: g.id().to_string(),
            round: turn,
        });
    };
    let (rep, _, after) = po
        .store
        .write(|tx| stored_report(tx, g.id(), turn))?
        .ok_or_else(|| PostError::NoReport {
            game: g.id().to_string(),
            round: Some(turn),
        })?;
    if json {
        let value = serde_json::json!({ "report": rep, "table": after });
        return serde_json::to_string_pretty(&value).map_err(|e| PostError::Corrupt(e.to_string()));
    }
    Ok(rep.text())
}

/// Write the static archive of `game` into `dir`: `index.html`, and for
/// each released round `turn-N.html`, `turn-N.png`, `turn-N.svg` and its
/// verification bundle `umpire-verify-GAME-N.json`.
///
/// # Errors
/// When the game does not exist or the folder cannot be written.
pub fn export_html(po: &mut PostOffice, game: &str, dir: &Path) -> Result<usize, PostError> {
    let (g, turns) = po.released(game)?;
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut index = String::new();
    use crate::report::esc;
    let mut title = g.id().to_string();
    for (i, &turn) in turns.iter().enumerate() {
        let Some((mut rep, before, after)) =
            po.store.write(|tx| stored_report(tx, g.id(), turn))?
        else {
            continue;
        };
        // Only released rounds are exported: a round held for approval was
        // stored as the moderator's draft, and is a draft no longer.
        rep.draft = false;
        // The round's verification bundle, as its report mail attached it.
        let bundle_file = Bundle::file_name(g.id(), turn);
        let bundle = po
            .store
            .write(|tx| Bundle::of_report(tx, &g, turn))?
            .to_bytes()?;
        std::fs::write(dir.join(&bundle_file), bundle).map_err(io)?;
        rep.extra
            .insert("bundle_link".into(), bundle_file.clone().into());
        title = rep.title.clone();
        let svg = g.ruleset.picture(&before, &after, &rep)?;
        let png = picture::png(&svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
        std::fs::write(dir.join(format!("turn-{turn}.svg")), &svg).map_err(io)?;
        std::fs::write(dir.join(format!("turn-{turn}.png")), png).map_err(io)?;
        let mut html = rep.html(Some(&format!("turn-{turn}.png")));
        let mut nav = String::from("<p><a href=\"index.html\">All turns</a>");
        if i > 0 {
            let _ = write!(
                nav,
                " · <a href=\"turn-{}.html\">turn {}</a>",
                turns[i - 1],
                turns[i - 1]
            );
        }
        if let Some(next) = turns.get(i + 1) {
            let _ = write!(nav, " · <a href=\"turn-{next}.html\">turn {next}</a>");
        }
        nav.push_str("</p>\n");
        if let Some(pos) = html.find("<h1>") {
            html.insert_str(pos, &nav);
        }
        std::fs::write(dir.join(format!("turn-{turn}.html")), html).map_err(io)?;
        let result = if rep.ended && !rep.victory.is_empty() {
            format!("<p><strong>{}</strong></p>", esc(&rep.victory.join(" ")))
        } else {
            String::new()
        };
        let _ = writeln!(
            index,
            "<li><a href=\"turn-{turn}.html\">{label}</a>{result}<br><a href=\"turn-{turn}.html\"><img src=\"turn-{turn}.png\" alt=\"the table after {label}\" style=\"width: 100%; max-width: 24em\"></a><br><a href=\"{bundle}\" download>verification bundle</a> (<code>umpire verify --bundle {bundle}</code>)</li>",
            label = esc(&rep.label),
            bundle = esc(&bundle_file)
        );
    }
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title></head>\n<body style=\"font-family: Georgia, serif; max-width: 40em; margin: auto\">\n<h1>{t}</h1>\n<ul>\n{index}</ul>\n</body></html>\n",
        t = esc(&title)
    );
    std::fs::write(dir.join("index.html"), page).map_err(io)?;
    Ok(turns.len())
}
