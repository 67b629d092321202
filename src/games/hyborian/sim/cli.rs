//! The `umpire simulate` command: reading its arguments into a matchup or
//! a tournament, the progress bar, and what it prints and writes. The
//! binary only parses the command line into a [`Request`] and calls [`run`].
//!
//! Standard output carries the results only, so the same command prints
//! the same bytes; the time taken goes to standard error.

use super::battle::BattleError;
use super::fairness::{tournament, Tournament};
use super::field::{Contender, Field, Matchup, SetupError};
use super::general::Style;
use super::replay::replay;
use super::seed::{BadSeed, BattleSeed};
use super::simulate::simulate;
use crate::games::hyborian::army::{self, scenario, ArmyFile};
use crate::games::hyborian::rules::options::GameOptions;
use crate::sim::Commander;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Exit code: every order the generals wrote was accepted.
pub const CLEAN: i32 = 0;
/// Exit code: some orders were refused — bugs in the generals (listed).
pub const ORDERS_REFUSED: i32 = 3;

/// What `umpire simulate` was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Two army files or nation names (none with a scenario's own armies or --fairness).
    pub armies: Vec<String>,
    /// Points for armies named by nation.
    pub points: u32,
    /// Battles (a simulation) or battles per pairing (the fairness table).
    pub battles: Option<u64>,
    pub seed: u64,
    /// One commander for both sides, or one each: a general's style, or
    /// `hold` (a side that writes no orders, the lab's baseline).
    pub styles: Vec<Commander>,
    pub scenario: Option<PathBuf>,
    /// A terrain card number; none: drawn for each battle.
    pub card: Option<u32>,
    pub turns: Option<u32>,
    /// A TOML file of house rules (`rules::options::GameOptions`).
    pub options: Option<PathBuf>,
    /// 0: one per core.
    pub threads: usize,
    pub json: bool,
    pub replay: Option<String>,
    pub fairness: bool,
    /// The fairness table's nations (none: every list).
    pub nations: Vec<String>,
    /// Where replays and the fairness table are written.
    pub out: Option<PathBuf>,
}

/// Battles a simulation plays when not told.
pub const DEFAULT_BATTLES: u64 = 1000;
/// Battles a pairing of the fairness table plays when not told.
pub const DEFAULT_PER_PAIRING: u64 = 20;

/// Why the command could not do what it was asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// The arguments do not make a simulation, e.g. one army.
    #[error("{0}")]
    Usage(String),
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error(transparent)]
    Army(#[from] army::ArmyError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Battle(#[from] BattleError),
    #[error("{path}: {message}")]
    Options { path: String, message: String },
    #[error(transparent)]
    Seed(#[from] BadSeed),
    #[error(transparent)]
    Picture(#[from] crate::report::picture::PictureError),
}

fn read(path: &Path) -> Result<String, SimError> {
    std::fs::read_to_string(path).map_err(|error| SimError::Io {
        path: path.display().to_string(),
        error,
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), SimError> {
    std::fs::write(path, bytes).map_err(|error| SimError::Io {
        path: path.display().to_string(),
        error,
    })
}

fn make_dir(path: &Path) -> Result<(), SimError> {
    std::fs::create_dir_all(path).map_err(|error| SimError::Io {
        path: path.display().to_string(),
        error,
    })
}

/// An army named on the command line: a file if it looks like one, else a nation.
fn contender(arg: &str, points: u32, style: Commander) -> Result<Contender, SimError> {
    let path = Path::new(arg);
    if arg.ends_with(".toml") || path.is_file() {
        let army = ArmyFile::from_toml(arg, &read(path)?)?;
        let label = army.name.clone().unwrap_or_else(|| {
            path.file_stem()
                .map_or(arg.to_string(), |s| s.to_string_lossy().into_owned())
        });
        let report = army::check(&army)?;
        for b in &report.breaches {
            eprintln!("warning: {arg}: {b} (the army is simulated as written)");
        }
        Ok(Contender::with_army(&label, army, style))
    } else {
        Ok(Contender::proposed(arg, points, style)?)
    }
}

fn options(req: &Request) -> Result<GameOptions, SimError> {
    match &req.options {
        None => Ok(GameOptions::default()),
        Some(p) => toml::from_str(&read(p)?).map_err(|e| SimError::Options {
            path: p.display().to_string(),
            message: e.to_string(),
        }),
    }
}

fn styles(req: &Request) -> Result<[Commander; 2], SimError> {
    match req.styles.as_slice() {
        [] => Ok([Commander::General(Style::Cautious); 2]),
        [s] => Ok([*s; 2]),
        [a, b] => Ok([*a, *b]),
        _ => Err(SimError::Usage(
            "--style takes one style for both generals or two separated by a comma".into(),
        )),
    }
}

/// The matchup the request describes.
fn matchup(req: &Request) -> Result<Matchup, SimError> {
    let [sa, sb] = styles(req)?;
    let scenario_text = req.scenario.as_deref().map(read).transpose()?;
    let contenders = match (req.armies.as_slice(), &scenario_text) {
        ([a, b], _) => [contender(a, req.points, sa)?, contender(b, req.points, sb)?],
        ([], Some(text)) => {
            let loaded = scenario::load(text).map_err(|e| SetupError::Scenario(e.to_string()))?;
            let names: Vec<String> = match &loaded.scenario {
                Some(s) => s.sides.iter().map(|x| x.nation.clone()).collect(),
                None => loaded.table.sides().into_iter().collect(),
            };
            let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| format!("side {}", i + 1));
            [Contender::scenario_side(&name(0), sa), Contender::scenario_side(&name(1), sb)]
        }
        _ => {
            return Err(SimError::Usage(
                "name two armies (army files or nations, e.g. 'umpire simulate Aquilonia Nemedia --points 500'), \
                 or a --scenario to fight with its own armies"
                    .into(),
            ))
        }
    };
    let field = match scenario_text {
        Some(text) => Field::Scenario(text),
        None => Field::Card(req.card),
    };
    Ok(Matchup::new(contenders, field, options(req)?, req.turns)?)
}

/// Do what the request asks; the text for standard output and the exit code.
///
/// # Errors
/// [`SimError`] saying what could not be done.
pub fn run(req: &Request) -> Result<(String, i32), SimError> {
    if req.fairness {
        return fairness(req);
    }
    let m = matchup(req)?;
    if let Some(seed) = &req.replay {
        return replay_to(req, &m, seed.parse()?);
    }
    let battles = req.battles.unwrap_or(DEFAULT_BATTLES);
    let bar = crate::sim::progress(battles, "battles");
    let started = Instant::now();
    let summary = simulate(&m, req.seed, battles, req.threads, &|| bar.inc(1))?;
    bar.finish_and_clear();
    report_time(battles, started, req.threads);
    let code = if summary.refused_orders == 0 {
        CLEAN
    } else {
        ORDERS_REFUSED
    };
    Ok((
        if req.json {
            summary.json()
        } else {
            summary.text()
        },
        code,
    ))
}

fn report_time(battles: u64, started: Instant, threads: usize) {
    let secs = started.elapsed().as_secs_f64();
    let threads = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    eprintln!(
        "{battles} battles in {secs:.1} s on {threads} thread{}: {:.2} ms a battle ({:.2} ms a battle per thread)",
        if threads == 1 { "" } else { "s" },
        1000.0 * secs / battles.max(1) as f64,
        1000.0 * secs * threads as f64 / battles.max(1) as f64
    );
}

/// Replay one battle to a folder of reports and pictures.
fn replay_to(req: &Request, m: &Matchup, seed: BattleSeed) -> Result<(String, i32), SimError> {
    let dir = req
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("replay-{}", &seed.to_string()[..8])));
    make_dir(&dir)?;
    let r = replay(m, seed)?;
    let mut index = format!(
        "<!doctype html>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<h1>{0}</h1>\n<p>Battle seed <code>{1}</code>. {2}</p>\n<ul>\n",
        crate::report::esc(&r.turns.first().map_or(String::new(), |t| t.report.title.clone())),
        seed,
        crate::report::esc(&verdict(m, &r.outcome))
    );
    for t in &r.turns {
        let stem = format!("turn-{:02}", t.turn);
        write(&dir.join(format!("{stem}.txt")), t.report.text().as_bytes())?;
        write(
            &dir.join(format!("{stem}.html")),
            t.report.html(Some(&format!("{stem}.png"))).as_bytes(),
        )?;
        write(&dir.join(format!("{stem}.svg")), t.svg.as_bytes())?;
        write(
            &dir.join(format!("{stem}.png")),
            &crate::report::picture::png(&t.svg)?,
        )?;
        write(
            &dir.join(format!("orders-{:02}.txt", t.turn)),
            t.orders.join("\n").as_bytes(),
        )?;
        index.push_str(&format!(
            "<li><a href=\"{stem}.html\">Turn {}</a> (<a href=\"orders-{:02}.txt\">orders</a>)</li>\n",
            t.turn, t.turn
        ));
    }
    index.push_str("</ul>\n");
    write(&dir.join("index.html"), index.as_bytes())?;
    let text = format!(
        "{}\nbattle seed {seed}\n{}\n{} turns written to {}\n",
        r.turns
            .first()
            .map_or(String::new(), |t| t.report.title.clone()),
        verdict(m, &r.outcome),
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

fn verdict(m: &Matchup, o: &super::battle::Outcome) -> String {
    let who = match o.winner {
        Some(w) => format!("{} won", m.contenders[w].label),
        None => "A draw".into(),
    };
    let card = o
        .card
        .map(|c| format!(" on terrain card {c}"))
        .unwrap_or_default();
    format!(
        "{who} after {} turns{card}. {}",
        o.turns,
        o.reasons.join("; ")
    )
}

/// The fairness table, printed and written to the out folder.
fn fairness(req: &Request) -> Result<(String, i32), SimError> {
    let styles = if req.styles.is_empty() {
        Style::ALL.to_vec()
    } else {
        req.styles
            .iter()
            .map(|c| {
                c.style().ok_or_else(|| {
                    SimError::Usage(
                        "--fairness pits generals against each other: --style cautious or aggressive, not hold"
                            .into(),
                    )
                })
            })
            .collect::<Result<_, _>>()?
    };
    let t = Tournament {
        points: req.points,
        per_pairing: req.battles.unwrap_or(DEFAULT_PER_PAIRING),
        master: req.seed,
        styles,
        nations: req.nations.clone(),
        card: req.card,
        options: options(req)?,
        turns: req.turns,
        threads: req.threads,
    };
    let nations = if t.nations.is_empty() {
        army::nations()?.len()
    } else {
        t.nations.len()
    } as u64;
    let bar = crate::sim::progress(
        nations * nations.saturating_sub(1) / 2 * t.per_pairing,
        "battles",
    );
    let started = Instant::now();
    let f = tournament(&t, &|| bar.inc(1))?;
    bar.finish_and_clear();
    report_time(f.battles, started, req.threads);
    let dir = req.out.clone().unwrap_or_else(|| PathBuf::from("fairness"));
    make_dir(&dir)?;
    let stem = format!("fairness-{}", req.points);
    let svg = f.svg();
    write(&dir.join(format!("{stem}.txt")), f.text().as_bytes())?;
    write(&dir.join(format!("{stem}.csv")), f.csv().as_bytes())?;
    write(&dir.join(format!("{stem}.svg")), svg.as_bytes())?;
    write(
        &dir.join(format!("{stem}.png")),
        &crate::report::picture::png(&svg)?,
    )?;
    let json = serde_json::to_string_pretty(&f).unwrap_or_default();
    write(&dir.join(format!("{stem}.json")), json.as_bytes())?;
    let code = if f.refused_orders == 0 {
        CLEAN
    } else {
        ORDERS_REFUSED
    };
    let mut text = if req.json { json } else { f.text() };
    if !req.json {
        text.push_str(&format!(
            "\nwritten: {}/{stem}.{{txt,csv,svg,png,json}}\n",
            dir.display()
        ));
    }
    Ok((text, code))
}
