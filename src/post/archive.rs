//! The club's archive: `umpire export GAME --html DIR` writes a static site
//! with every released round's report, picture and verification bundle,
//! linked round to round, and `umpire report GAME` prints a stored report (text or JSON).

use super::bundle::Bundle;
use super::game::Game;
use super::round::stored_report;
use super::{PostError, PostOffice};
use crate::report::{esc, picture};
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
    Ok(export_game(po, game, dir, &Within::default())?.len())
}

/// Where an archive stands: alone (`umpire export`), or inside the club's
/// site (`post::site`), whose stylesheet and index its pages link to and
/// which already holds the pictures and bundles of some turns.
#[derive(Default)]
pub(crate) struct Within<'a> {
    /// The site's root, relative to the archive's folder ("../../").
    pub root: Option<&'a str>,
    /// Turns whose picture and bundle are written already (a released
    /// round never changes): only their pages are written again.
    pub written: &'a [u32],
}

/// [`export_html`], within a site; returns the released turns written.
pub(crate) fn export_game(
    po: &mut PostOffice,
    game: &str,
    dir: &Path,
    within: &Within<'_>,
) -> Result<Vec<u32>, PostError> {
    let (g, turns) = po.released(game)?;
    std::fs::create_dir_all(dir).map_err(io_at(dir))?;
    let mut index = String::new();
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
        let bundle_file = Bundle::file_name(g.id(), turn);
        if !within.written.contains(&turn) {
            // The round's verification bundle, as its report mail attached it.
            let bundle = po
                .store
                .write(|tx| Bundle::of_report(tx, &g, turn))?
                .to_bytes()?;
            write_whole(&dir.join(&bundle_file), &bundle)?;
            let svg = g.ruleset.picture(&before, &after, &rep)?;
            let png = picture::png(&svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
            write_whole(&dir.join(format!("turn-{turn}.svg")), svg.as_bytes())?;
            write_whole(&dir.join(format!("turn-{turn}.png")), &png)?;
        }
        rep.office.bundle_link = Some(bundle_file.clone());
        title = rep.title.clone();
        let nav = nav(&turns, i, within.root);
        let mut html = rep.html(Some(&format!("turn-{turn}.png")));
        if let Some(pos) = html.find("<h1>") {
            html.insert_str(pos, &nav);
        }
        if let (Some(root), Some(pos)) = (within.root, html.find("</head>")) {
            html.insert_str(
                pos,
                &format!("<link rel=\"stylesheet\" href=\"{root}style.css\">"),
            );
        }
        write_whole(&dir.join(format!("turn-{turn}.html")), html.as_bytes())?;
        index_line(&mut index, &rep, turn, &bundle_file);
    }
    let club = within.root.map_or(String::new(), |root| {
        format!("<p><a href=\"{root}index.html\">All the club's games</a></p>\n")
    });
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title>{css}</head>\n<body style=\"font-family: Georgia, serif; max-width: 40em; margin: auto\">\n{club}<h1>{t}</h1>\n<ul>\n{index}</ul>\n</body></html>\n",
        t = esc(&title),
        css = within.root.map_or(String::new(), |root| format!("<link rel=\"stylesheet\" href=\"{root}style.css\">")),
    );
    write_whole(&dir.join("index.html"), page.as_bytes())?;
    Ok(turns)
}

/// The links above a turn's page: the game's turns, the ones before and
/// after, and the club's index within a site.
fn nav(turns: &[u32], i: usize, root: Option<&str>) -> String {
    let mut nav = String::from("<p>");
    if let Some(root) = root {
        let _ = write!(nav, "<a href=\"{root}index.html\">The club</a> · ");
    }
    nav.push_str("<a href=\"index.html\">All turns</a>");
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
    nav
}

/// A turn's entry in the game's index: its label, the result if it ended
/// the game, the picture and the bundle.
fn index_line(index: &mut String, rep: &crate::report::RoundReport, turn: u32, bundle: &str) {
    let result = if rep.ended && !rep.victory.is_empty() {
        format!("<p><strong>{}</strong></p>", esc(&rep.victory.join(" ")))
    } else {
        String::new()
    };
    let _ = writeln!(
        index,
        "<li><a href=\"turn-{turn}.html\">{label}</a>{result}<br><a href=\"turn-{turn}.html\"><img src=\"turn-{turn}.png\" alt=\"the table after {label}\" style=\"width: 100%; max-width: 24em\"></a><br><a href=\"{bundle}\" download>verification bundle</a> (<code>umpire verify --bundle {bundle}</code>)</li>",
        label = esc(&rep.label),
        bundle = esc(bundle)
    );
}

/// The error of writing under `dir`.
pub(crate) fn io_at(dir: &Path) -> impl Fn(std::io::Error) -> PostError + '_ {
    move |e| PostError::Transport(format!("{}: {e}", dir.display()))
}

/// Write `bytes` to `path` whole: to a temporary file beside it, then
/// renamed over it, so a reader (a web server) never sees half a file.
///
/// # Errors
/// When the folder cannot be written.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), PostError> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let at = |e: std::io::Error| PostError::Transport(format!("{}: {e}", path.display()));
    std::fs::write(&tmp, bytes).map_err(at)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        at(e)
    })
}
