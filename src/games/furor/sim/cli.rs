//! `umpire simulate --game furor`: reading its arguments into a matchup,
//! the progress bar, and what it prints and writes. The binary only parses
//! the command line into a [`Request`] and calls [`run`].
//!
//! Standard output carries the results only, so the same command prints
//! the same bytes; the time taken goes to standard error. The exit codes
//! are the Hyborean lab's: [`CLEAN`], or [`ORDERS_REFUSED`] when a general
//! wrote a line the checker refused.

use super::game::{GameError, Matchup};
use super::replay::replay;
use super::simulate::simulate;
use crate::games::furor::options::Options;
use crate::games::furor::scenario::SCENARIOS;
use crate::sim::seed::{BadSeed, BattleSeed};
use crate::sim::{Commander, Style};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Exit code: every line the generals wrote was taken.
pub const CLEAN: i32 = 0;
/// Exit code: some lines were refused — bugs in the generals (listed).
pub const ORDERS_REFUSED: i32 = 3;

/// Games a simulation plays when not told.
pub const DEFAULT_GAMES: u64 = 500;

/// What `umpire simulate --game furor` was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// A shipped scenario's name.
    pub scenario: String,
    pub games: Option<u64>,
    pub seed: u64,
    /// One commander for both armies, or one each (in the scenario's order
    /// of armies): a general's style, or `hold` (an army that writes no orders).
    pub styles: Vec<Commander>,
    /// Play to this turn instead of the scenario's last.
    pub turns: Option<u32>,
    /// A TOML file of game options (`games::furor::options::Options`).
    pub options: Option<PathBuf>,
    /// 0: one per core.
    pub threads: usize,
    pub json: bool,
    pub replay: Option<String>,
    /// Where a replay is written.
    pub out: Option<PathBuf>,
}

/// Why the command could not do what it was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    #[error("{0}")]
    Usage(String),
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error(transparent)]
    Game(#[from] GameError),
    #[error("{path}: {message}")]
    Options { path: String, message: String },
    #[error(transparent)]
    Seed(#[from] BadSeed),
    #[error(transparent)]
    Picture(#[from] crate::report::picture::PictureError),
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), SimError> {
    std::fs::write(path, bytes).map_err(|error| SimError::Io {
        path: path.display().to_string(),
        error,
    })
}

fn options(req: &Request) -> Result<Options, SimError> {
    match &req.options {
        None => Ok(Options::default()),
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|error| SimError::Io {
                path: p.display().to_string(),
                error,
            })?;
            toml::from_str(&text).map_err(|e| SimError::Options {
                path: p.display().to_string(),
                message: e.to_string(),
            })
        }
    }
}

/// The matchup the request describes.
///
/// # Errors
/// An unknown scenario, a wrong number of styles, unreadable options.
pub fn matchup(req: &Request) -> Result<Matchup, SimError> {
    if !SCENARIOS.contains(&req.scenario.as_str()) {
        return Err(SimError::Usage(format!(
            "no Furor Barbarus scenario '{}': --scenario takes one of {}",
            req.scenario,
            SCENARIOS.join(", ")
        )));
    }
    let styles = match req.styles.as_slice() {
        [] => [Commander::General(Style::Cautious); 2],
        [s] => [*s; 2],
        [a, b] => [*a, *b],
        _ => {
            return Err(SimError::Usage(
                "--style takes one style for both generals or two separated by a comma".into(),
            ))
        }
    };
    let turns = req.turns.map(|t| u8::try_from(t).unwrap_or(u8::MAX));
    Ok(Matchup::new(&req.scenario, styles, options(req)?, turns)?)
}

/// Do what the request asks; the text for standard output and the exit code.
///
/// # Errors
/// [`SimError`] saying what could not be done.
pub fn run(req: &Request) -> Result<(String, i32), SimError> {
    let m = matchup(req)?;
    if let Some(seed) = &req.replay {
        return replay_to(req, &m, seed.parse()?);
    }
    let games = req.games.unwrap_or(DEFAULT_GAMES);
    let bar = crate::sim::progress(games, "games");
    let started = Instant::now();
    let summary = simulate(&m, req.seed, games, req.threads, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let threads = if req.threads == 0 {
        rayon::current_num_threads()
    } else {
        req.threads
    };
    eprintln!(
        "{games} games in {secs:.1} s on {threads} thread{}: {:.2} ms a game ({:.2} ms a game per thread)",
        if threads == 1 { "" } else { "s" },
        1000.0 * secs / games.max(1) as f64,
        1000.0 * secs * threads as f64 / games.max(1) as f64
    );
    let code = if summary.refused_orders == 0 {
        CLEAN
    } else {
        ORDERS_REFUSED
    };
    let text = if req.json {
        summary.json()
    } else {
        summary.text()
    };
    Ok((text, code))
}

/// Replay one game to a folder of reports, pictures and orders.
fn replay_to(req: &Request, m: &Matchup, seed: BattleSeed) -> Result<(String, i32), SimError> {
    let dir = req
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("replay-{}", &seed.to_string()[..8])));
    std::fs::create_dir_all(&dir).map_err(|error| SimError::Io {
        path: dir.display().to_string(),
        error,
    })?;
    let r = replay(m, seed)?;
    let [a, b] = &m.sides;
    let title = format!(
        "{}: the {a} ({}) against the {b} ({})",
        m.scenario.name,
        m.commanders[0].describe(),
        m.commanders[1].describe()
    );
    let verdict = r
        .turns
        .last()
        .and_then(|t| t.ended.clone())
        .unwrap_or_else(|| "The battle did not end.".to_string());
    let mut index = format!(
        "<!doctype html>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<h1>{0}</h1>\n<p>Game seed <code>{1}</code>. {2}</p>\n<ul>\n",
        crate::report::esc(&title),
        seed,
        crate::report::esc(&verdict)
    );
    for t in &r.turns {
        let stem = format!("player-turn-{:02}", t.number);
        let heading = format!("Turn {}, the {}", t.turn, t.side);
        write(&dir.join(format!("{stem}.txt")), t.report.as_bytes())?;
        write(&dir.join(format!("{stem}.svg")), t.svg.as_bytes())?;
        write(
            &dir.join(format!("{stem}.png")),
            &crate::report::picture::png(&t.svg)?,
        )?;
        write(
            &dir.join(format!("orders-{:02}.txt", t.number)),
            t.orders.as_bytes(),
        )?;
        let page = format!(
            "<!doctype html>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<h1>{0}</h1>\n<pre>{1}</pre>\n<img src=\"{stem}.png\" alt=\"the map after the player-turn\">\n<pre>{2}</pre>\n",
            crate::report::esc(&heading),
            crate::report::esc(&t.report),
            crate::report::esc(&t.orders)
        );
        write(&dir.join(format!("{stem}.html")), page.as_bytes())?;
        index.push_str(&format!(
            "<li><a href=\"{stem}.html\">{}</a> (<a href=\"orders-{:02}.txt\">orders</a>)</li>\n",
            crate::report::esc(&heading),
            t.number
        ));
    }
    index.push_str("</ul>\n");
    write(&dir.join("index.html"), index.as_bytes())?;
    let winner = match r.outcome.winner {
        Some(w) => format!("the {} won", m.sides[w]),
        None => "a tie".into(),
    };
    let text = format!(
        "{title}\ngame seed {seed}\n{verdict} ({winner} in turn {}; {} lost of {}, {} lost of {})\n{} player-turns written to {}\n",
        r.outcome.turns,
        r.outcome.lost[0],
        r.outcome.thresholds[0].map_or("-".into(), |t| t.to_string()),
        r.outcome.lost[1],
        r.outcome.thresholds[1].map_or("-".into(), |t| t.to_string()),
        r.turns.len(),
        dir.join("index.html").display()
    );
    let code = if r.outcome.refusals.is_empty() {
        CLEAN
    } else {
        ORDERS_REFUSED
    };
    Ok((text, code))
}
