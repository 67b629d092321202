//! The standings as text and JSON, and the league's web page with each
//! member's games.

use crate::league::Score;
use crate::post::{PostError, PostOffice};
use crate::report::esc;
use crate::store::rounds;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use super::results::results_text;
use super::League;

/// The standings as text: the table and every round's results.
///
/// # Errors
/// When there is no such league.
pub fn standings_text(po: &mut PostOffice, id: &str) -> Result<String, PostError> {
    po.store.write(|tx| {
        let league = League::load(tx, id)?;
        let heading = format!(
            "{}: the standings ({} of {} rounds paired, {} pairing)",
            league.row.name,
            league.paired(),
            league.settings.rounds,
            league.settings.pairing.name()
        );
        Ok(format!(
            "{}{}",
            league.table().text(&heading),
            results_text(&league)
        ))
    })
}

/// The standings as JSON, for tools: the league, its table, every board.
///
/// # Errors
/// When there is no such league.
pub fn standings_json(po: &mut PostOffice, id: &str) -> Result<String, PostError> {
    po.store.write(|tx| {
        let league = League::load(tx, id)?;
        let boards: Vec<serde_json::Value> = league
            .boards
            .iter()
            .map(|b| {
                serde_json::json!({
                    "round": b.round,
                    "board": b.board,
                    "game": b.game,
                    "first": league.name_of(b.first_seat),
                    "first_side": b.first_side,
                    "second": b.second_seat.map(|s| league.name_of(s)),
                    "second_side": b.second_side,
                    "result": b.score,
                    "how": b.how,
                })
            })
            .collect();
        let value = serde_json::json!({
            "league": league.row.id,
            "name": league.row.name,
            "rounds": league.settings.rounds,
            "paired": league.paired(),
            "settings": league.settings,
            "standings": league.table().lines,
            "games": boards,
        });
        serde_json::to_string_pretty(&value).map_err(|e| PostError::Corrupt(e.to_string()))
    })
}

/// Write the league's page into `dir`: `index.html` with the standings and
/// each member's games, linked to each game's own archive in `dir/GAME/`
/// (as `umpire export GAME` writes it). Returns how many games were written.
///
/// # Errors
/// When there is no such league or the folder cannot be written.
pub fn export(po: &mut PostOffice, id: &str, dir: &Path) -> Result<usize, PostError> {
    let league = po.store.write(|tx| League::load(tx, id))?;
    std::fs::create_dir_all(dir).map_err(crate::post::archive::io_at(dir))?;
    let mut written = BTreeSet::new();
    for b in &league.boards {
        let Some(g) = &b.game else { continue };
        let released = po
            .store
            .write(|tx| Ok::<_, PostError>(rounds::released(tx, g)?))?;
        if !released.is_empty() {
            crate::post::export_html(po, g, &dir.join(g))?;
            written.insert(g.clone());
        }
    }
    let page = page(&league, &written, "", None);
    crate::post::archive::write_whole(&dir.join("index.html"), page.as_bytes())?;
    Ok(written.len())
}

/// League `id`'s page for the club's site (`post::site`): [`page`].
///
/// # Errors
/// When there is no such league.
pub(crate) fn site_page(
    po: &mut PostOffice,
    id: &str,
    archived: &BTreeSet<String>,
    games: &str,
    root: &str,
) -> Result<String, PostError> {
    let league = po.store.write(|tx| League::load(tx, id))?;
    Ok(page(&league, archived, games, Some(root)))
}

/// The league's page: the standings and each member's games, those in
/// `archived` linked to `{games}GAME/index.html`; within the club's site,
/// `root` leads to its stylesheet and index.
fn page(league: &League, archived: &BTreeSet<String>, games: &str, root: Option<&str>) -> String {
    let written = archived;
    let table = league.table();
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title></head>\n<body style=\"font-family: Georgia, serif; max-width: 48em; margin: auto\">\n<h1>{t}</h1>\n\
         <p>{} of {} rounds paired ({} pairing); {} for a win, {} a draw, {} a loss, {} a bye; Elo ratings, K = {}.</p>\n\
         <h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>#</th><th>Member</th><th>Played</th><th>Won</th><th>Drawn</th><th>Lost</th><th>Byes</th><th>Points</th><th>Rating</th></tr>\n",
        league.paired(),
        league.settings.rounds,
        league.settings.pairing.name(),
        league.settings.points.win,
        league.settings.points.draw,
        league.settings.points.loss,
        league.settings.points.bye,
        league.settings.rating.k,
        t = esc(&league.row.name)
    );
    for l in &table.lines {
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td><a href=\"#member-{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.0}</td></tr>",
            l.rank, l.member, esc(&l.name), l.played, l.won, l.drawn, l.lost, l.byes, l.points, l.rating
        );
    }
    page.push_str("</table>\n<h2>Members' games</h2>\n");
    for (seat, m) in league.members.iter().enumerate() {
        let _ = writeln!(page, "<h3 id=\"member-{seat}\">{}</h3>\n<ul>", esc(&m.name));
        for b in league
            .boards
            .iter()
            .filter(|b| b.first_seat as usize == seat || b.second_seat == Some(seat as u32))
        {
            let Some(g) = &b.game else {
                let _ = writeln!(page, "<li>Round {}: a bye</li>", b.round);
                continue;
            };
            let me_first = b.first_seat as usize == seat;
            let (side, other, other_side) = if me_first {
                (&b.first_side, b.second_seat, &b.second_side)
            } else {
                (&b.second_side, Some(b.first_seat), &b.first_side)
            };
            let result = match b.score.as_deref().and_then(Score::from_code) {
                Some(s) => esc(&s.words(
                    league.name_of(b.first_seat),
                    b.second_seat.map_or("?", |s| league.name_of(s)),
                )),
                None => "in play".into(),
            };
            let name = if written.contains(g) {
                format!("<a href=\"{games}{g}/index.html\">{g}</a>", g = esc(g))
            } else {
                esc(g)
            };
            let _ = writeln!(
                page,
                "<li>Round {}: {name}, {} against {} ({}): {result}</li>",
                b.round,
                esc(side.as_deref().unwrap_or("?")),
                esc(other.map_or("?", |s| league.name_of(s))),
                esc(other_side.as_deref().unwrap_or("?")),
            );
        }
        page.push_str("</ul>\n");
    }
    page.push_str("</body></html>\n");
    if let Some(root) = root {
        page = page.replacen(
            "</head>",
            &format!("<link rel=\"stylesheet\" href=\"{root}style.css\"></head>"),
            1,
        );
        page = page.replacen(
            "<h1>",
            &format!("<p><a href=\"{root}index.html\">The club</a></p>\n<h1>"),
            1,
        );
    }
    page
}
