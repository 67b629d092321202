//! The fairness table: every pairing of nations at equal points, a sample
//! of battles each (a sampled tournament), and the win-rate matrix with
//! its intervals — as text, CSV, and a heat map (SVG; PNG through
//! `report::picture::png`) a club can put on its web page.
//!
//! Each nation's army is the proposer's (`umpire army new NATION POINTS`);
//! both generals of a battle share one style, the styles taking turns from
//! battle to battle. Battle `k` of the pairing A–B has the seed
//! `BattleSeed::of_pairing(master, points, A, B, k)`, so any battle can be
//! replayed with `umpire simulate A B --points P --style S --replay SEED`.
//!
//! ```
//! use umpire::games::hyborian::sim::fairness::{tournament, Tournament};
//! let t = Tournament { nations: vec!["Koth".into(), "Turan".into(), "Zamora".into()], per_pairing: 2, turns: Some(3), ..Tournament::new(300) };
//! let f = tournament(&t, &|| {}).unwrap();
//! assert_eq!(f.left_out[0].nation, "Turan", "no legal Turanian army at 300 points");
//! assert_eq!(f.battles, 2);
//! let koth_v_zamora = f.cell(0, 1).unwrap();
//! assert_eq!(koth_v_zamora.wins, f.cell(1, 0).unwrap().losses);
//! assert_eq!(f.csv().lines().count(), 1 + 2);
//! ```

use super::battle::{play, BattleError, Outcome};
use super::field::{Contender, Field, Matchup, SetupError};
use super::general::Style;
use super::seed::BattleSeed;
use super::stats::{Estimate, Proportion};
use crate::games::hyborian::army;
use crate::games::hyborian::rules::options::GameOptions;
use crate::report::esc;
use crate::report::picture::FONT_FAMILY;
use crate::sim::on_threads;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt::Write as _;

/// What to play.
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    pub points: u32,
    pub per_pairing: u64,
    pub master: u64,
    /// Styles both generals play, taking turns battle by battle.
    pub styles: Vec<Style>,
    /// The nations (empty: every national list).
    pub nations: Vec<String>,
    /// A fixed terrain card, or one drawn for every battle.
    pub card: Option<u32>,
    pub options: GameOptions,
    pub turns: Option<u32>,
    /// Threads (0: one per core).
    pub threads: usize,
}

impl Tournament {
    /// Every nation at `points`, 20 battles a pairing, both styles, cards drawn.
    pub fn new(points: u32) -> Tournament {
        Tournament {
            points,
            per_pairing: 20,
            master: 1,
            styles: Style::ALL.to_vec(),
            nations: Vec::new(),
            card: None,
            options: GameOptions::default(),
            turns: None,
            threads: 0,
        }
    }
}

/// One nation in the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    pub nation: String,
    /// A short code for the columns ("AQUI").
    pub code: String,
    /// Points the proposer's army spends of the limit.
    pub points: u32,
    pub record: Cell,
}

/// A nation left out, and why (no legal army at these points).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeftOut {
    pub nation: String,
    pub why: String,
}

/// The row nation's results against the column nation (or the field).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cell {
    pub battles: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins of all battles.
    pub win: Estimate,
    /// Wins of the battles that had a winner (draws left out): 50% is fair.
    pub decisive: Estimate,
}

impl Cell {
    fn new(wins: u64, draws: u64, losses: u64) -> Cell {
        let battles = wins + draws + losses;
        Cell {
            battles,
            wins,
            draws,
            losses,
            win: Proportion::new(wins, battles).into(),
            decisive: Proportion::new(wins, wins + losses).into(),
        }
    }

    /// The decisive share's interval leaves out 50%: one side is stronger.
    pub fn unfair(&self) -> bool {
        self.wins + self.losses > 0 && (self.decisive.high < 0.5 || self.decisive.low > 0.5)
    }
}

/// The fairness table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fairness {
    pub points: u32,
    pub per_pairing: u64,
    pub master_seed: u64,
    pub styles: Vec<String>,
    pub field: String,
    pub entries: Vec<Entry>,
    pub left_out: Vec<LeftOut>,
    /// Row by row: the row nation against each column nation (none on the diagonal).
    pub cells: Vec<Vec<Option<Cell>>>,
    pub battles: u64,
    pub average_turns: f64,
    pub refused_orders: u64,
    /// Every battle, with the seed and style that replay it.
    pub played: Vec<Played>,
}

/// One battle of the tournament: `umpire simulate NATION OPPONENT --points
/// P --style STYLE --replay SEED` plays it again.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Played {
    pub nation: String,
    pub opponent: String,
    pub index: u64,
    pub style: String,
    pub seed: String,
    /// The winner's name; none for a draw.
    pub winner: Option<String>,
    pub turns: u32,
}

/// Shortest prefix (at least 3 letters) that tells every name apart.
fn codes(names: &[String]) -> Vec<String> {
    let keys: Vec<String> = names
        .iter()
        .map(|n| {
            n.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_uppercase)
                .collect()
        })
        .collect();
    let longest = keys.iter().map(String::len).max().unwrap_or(0);
    (3..=longest.max(3))
        .map(|len| {
            keys.iter()
                .map(|k| k.chars().take(len).collect::<String>())
                .collect::<Vec<_>>()
        })
        .find(|c| {
            let mut sorted = c.clone();
            sorted.sort();
            sorted.dedup();
            sorted.len() == c.len()
        })
        .unwrap_or(keys)
}

/// Play the tournament, calling `tick` after each battle.
///
/// # Errors
/// [`BattleError`] when a battle cannot be set up; [`SetupError`] (inside
/// it) for a nation not in the lists.
pub fn tournament(t: &Tournament, tick: &(dyn Fn() + Sync)) -> Result<Fairness, BattleError> {
    let names: Vec<String> = if t.nations.is_empty() {
        army::nations()
            .map_err(SetupError::from)?
            .into_iter()
            .map(|n| n.name)
            .collect()
    } else {
        t.nations
            .iter()
            .map(|n| army::nation(n).map(|n| n.name))
            .collect::<Result<_, _>>()
            .map_err(SetupError::from)?
    };
    let styles = if t.styles.is_empty() {
        Style::ALL.to_vec()
    } else {
        t.styles.clone()
    };
    let mut armies = Vec::new();
    let mut left_out = Vec::new();
    for n in names {
        match army::propose(&n, t.points) {
            Ok(a) => armies.push((n, a)),
            Err(e) => left_out.push(LeftOut {
                nation: n,
                why: e.to_string(),
            }),
        }
    }
    let n = armies.len();
    // Every pairing once per style; battle k of a pairing uses style k mod styles.
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let matchups = on_threads(t.threads, || {
        pairs
            .par_iter()
            .map(|&(i, j)| {
                styles
                    .iter()
                    .map(|&s| {
                        let c =
                            |k: usize| Contender::with_army(&armies[k].0, armies[k].1.clone(), s);
                        Matchup::new(
                            [c(i), c(j)],
                            Field::Card(t.card),
                            t.options.clone(),
                            t.turns,
                        )
                    })
                    .collect::<Result<Vec<Matchup>, SetupError>>()
            })
            .collect::<Result<Vec<Vec<Matchup>>, SetupError>>()
    })?;
    let jobs: Vec<(usize, u64)> = (0..pairs.len())
        .flat_map(|p| (0..t.per_pairing).map(move |k| (p, k)))
        .collect();
    let outcomes: Vec<Outcome> = on_threads(t.threads, || {
        jobs.par_iter()
            .map(|&(p, k)| {
                let (i, j) = pairs[p];
                let m = &matchups[p][(k % styles.len() as u64) as usize];
                let seed =
                    BattleSeed::of_pairing(t.master, t.points, &armies[i].0, &armies[j].0, k);
                let o = play(m, seed, &mut |_| {});
                tick();
                o
            })
            .collect::<Result<Vec<Outcome>, BattleError>>()
    })?;
    let mut wdl = vec![vec![[0u64; 3]; n]; n];
    for (&(p, _), o) in jobs.iter().zip(&outcomes) {
        let (i, j) = pairs[p];
        match o.winner {
            Some(0) => {
                wdl[i][j][0] += 1;
                wdl[j][i][2] += 1;
            }
            Some(_) => {
                wdl[i][j][2] += 1;
                wdl[j][i][0] += 1;
            }
            None => {
                wdl[i][j][1] += 1;
                wdl[j][i][1] += 1;
            }
        }
    }
    let cells: Vec<Vec<Option<Cell>>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| (i != j).then(|| Cell::new(wdl[i][j][0], wdl[i][j][1], wdl[i][j][2])))
                .collect()
        })
        .collect();
    let codes = codes(&armies.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>());
    let entries = armies
        .iter()
        .enumerate()
        .map(|(i, (nation, a))| {
            let total = wdl[i]
                .iter()
                .fold([0u64; 3], |s, c| [s[0] + c[0], s[1] + c[1], s[2] + c[2]]);
            Entry {
                nation: nation.clone(),
                code: codes[i].clone(),
                points: army::check(a).map_or(0, |r| r.total_points),
                record: Cell::new(total[0], total[1], total[2]),
            }
        })
        .collect();
    let battles = outcomes.len() as u64;
    Ok(Fairness {
        points: t.points,
        per_pairing: t.per_pairing,
        master_seed: t.master,
        styles: styles.iter().map(|s| s.to_string()).collect(),
        field: match t.card {
            Some(c) => format!("terrain card {c}"),
            None => "a terrain card drawn for each battle".into(),
        },
        entries,
        left_out,
        cells,
        battles,
        average_turns: outcomes.iter().map(|o| f64::from(o.turns)).sum::<f64>()
            / battles.max(1) as f64,
        refused_orders: outcomes.iter().map(|o| o.refusals.len() as u64).sum(),
        played: jobs
            .iter()
            .zip(&outcomes)
            .map(|(&(p, k), o)| {
                let names = [&armies[pairs[p].0].0, &armies[pairs[p].1].0];
                Played {
                    nation: names[0].clone(),
                    opponent: names[1].clone(),
                    index: k,
                    style: styles[(k % styles.len() as u64) as usize].to_string(),
                    seed: o.seed.clone(),
                    winner: o.winner.map(|w| names[w].clone()),
                    turns: o.turns,
                }
            })
            .collect(),
    })
}

/// Percent, no decimals.
fn p0(x: f64) -> String {
    format!("{:.0}", 100.0 * x)
}

impl Fairness {
    /// The row nation's results against the column nation.
    pub fn cell(&self, row: usize, col: usize) -> Option<&Cell> {
        self.cells.get(row)?.get(col)?.as_ref()
    }

    /// Nations by their share of decisive battles won, best first.
    pub fn ranking(&self) -> Vec<&Entry> {
        let mut r: Vec<&Entry> = self.entries.iter().collect();
        r.sort_by(|a, b| {
            b.record
                .decisive
                .rate
                .total_cmp(&a.record.decisive.rate)
                .then(a.nation.cmp(&b.nation))
        });
        r
    }

    /// Pairings whose decisive share leaves 50% out of its interval, most lopsided first.
    pub fn unfair_pairings(&self) -> Vec<(&Entry, &Entry, &Cell)> {
        let mut out: Vec<(&Entry, &Entry, &Cell)> = Vec::new();
        for (i, row) in self.cells.iter().enumerate() {
            for (j, c) in row.iter().enumerate() {
                if let Some(c) = c.as_ref().filter(|c| c.unfair() && c.decisive.rate > 0.5) {
                    out.push((&self.entries[i], &self.entries[j], c));
                }
            }
        }
        out.sort_by(|a, b| {
            b.2.decisive
                .rate
                .total_cmp(&a.2.decisive.rate)
                .then(a.0.nation.cmp(&b.0.nation))
        });
        out
    }

    /// The matrix and the ranking as text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Fairness at {} points: {} battles ({} a pairing), {}, generals {}, master seed {}",
            self.points,
            self.battles,
            self.per_pairing,
            self.field,
            self.styles.join(" and "),
            self.master_seed
        );
        let _ = writeln!(
            out,
            "average length {:.1} turns; orders refused: {}\n",
            self.average_turns, self.refused_orders
        );
        let _ = writeln!(out, "Share of decisive battles (draws left out) the row's army won against the column's, in percent;");
        let _ = writeln!(
            out,
            "* marks a pairing whose 95% interval leaves out 50 (one army is stronger).\n"
        );
        let w = self
            .entries
            .iter()
            .map(|e| e.nation.len())
            .max()
            .unwrap_or(8)
            + 8;
        let cw = self
            .entries
            .iter()
            .map(|e| e.code.len())
            .max()
            .unwrap_or(4)
            .max(4)
            + 1;
        let _ = write!(out, "{:<w$}", "");
        for e in &self.entries {
            let _ = write!(out, "{:>cw$}", e.code);
        }
        out.push('\n');
        for (i, e) in self.entries.iter().enumerate() {
            let _ = write!(out, "{:<w$}", format!("{} ({})", e.nation, e.code));
            for c in &self.cells[i] {
                let text = match c {
                    None => "-".to_string(),
                    Some(c) if c.wins + c.losses == 0 => "=".to_string(),
                    Some(c) => format!(
                        "{}{}",
                        p0(c.decisive.rate),
                        if c.unfair() { "*" } else { "" }
                    ),
                };
                let _ = write!(out, "{text:>cw$}");
            }
            out.push('\n');
        }
        let _ = writeln!(out, "\nAgainst the field (decisive share with its 95% interval; wins, draws, losses; points spent):");
        for (rank, e) in self.ranking().into_iter().enumerate() {
            let r = &e.record;
            let _ = writeln!(
                out,
                "{:>3}. {:<w$} {:>5.1}% ({:>4.1}–{:>4.1})  {:>4} W {:>4} D {:>4} L  {:>5} pts",
                rank + 1,
                e.nation,
                100.0 * r.decisive.rate,
                100.0 * r.decisive.low,
                100.0 * r.decisive.high,
                r.wins,
                r.draws,
                r.losses,
                e.points
            );
        }
        for l in &self.left_out {
            let _ = writeln!(out, "left out: {} ({})", l.nation, l.why);
        }
        let _ = writeln!(out, "\nEvery pairing (the first army's wins, draws, losses; its decisive share with the 95% interval):");
        for (i, row) in self.cells.iter().enumerate() {
            for (j, c) in row.iter().enumerate().skip(i + 1) {
                let Some(c) = c else { continue };
                let _ = writeln!(
                    out,
                    "  {:<w2$} {:>4} W {:>4} D {:>4} L  {:>5.1}% ({:>4.1}–{:>5.1}){}",
                    format!("{} v {}", self.entries[i].nation, self.entries[j].nation),
                    c.wins,
                    c.draws,
                    c.losses,
                    100.0 * c.decisive.rate,
                    100.0 * c.decisive.low,
                    100.0 * c.decisive.high,
                    if c.unfair() { " *" } else { "" },
                    w2 = 2 * w - 12
                );
            }
        }
        out
    }

    /// One line per ordered pairing.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "points,nation,opponent,battles,wins,draws,losses,win_rate,win_low,win_high,decisive_share,decisive_low,decisive_high,nation_points,opponent_points\n",
        );
        let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        for (i, row) in self.cells.iter().enumerate() {
            for (j, c) in row.iter().enumerate() {
                let Some(c) = c else { continue };
                let (a, b) = (&self.entries[i], &self.entries[j]);
                let _ = writeln!(
                    out,
                    "{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{},{}",
                    self.points,
                    q(&a.nation),
                    q(&b.nation),
                    c.battles,
                    c.wins,
                    c.draws,
                    c.losses,
                    c.win.rate,
                    c.win.low,
                    c.win.high,
                    c.decisive.rate,
                    c.decisive.low,
                    c.decisive.high,
                    a.points,
                    b.points
                );
            }
        }
        out
    }

    /// The matrix as a heat map: blue where the row's army wins most
    /// decisive battles, red where it loses them, white at 50%.
    pub fn svg(&self) -> String {
        const CELL: f64 = 34.0;
        const TOP: f64 = 90.0;
        const FOOT: f64 = 60.0;
        let label_w = 10.0
            + 7.5
                * self
                    .entries
                    .iter()
                    .map(|e| e.nation.len())
                    .max()
                    .unwrap_or(8) as f64;
        let n = self.entries.len() as f64;
        let (w, h) = (label_w + n * CELL + 20.0, TOP + n * CELL + FOOT);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="{FONT_FAMILY}">"##
        );
        let _ = writeln!(
            s,
            r##"<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="#ffffff"/>"##
        );
        let title = format!(
            "Fairness at {} points: {} battles, {} a pairing",
            self.points, self.battles, self.per_pairing
        );
        let _ = writeln!(
            s,
            r##"<text x="10" y="24" font-size="18" font-weight="bold">{}</text>"##,
            esc(&title)
        );
        let sub = "Share of decisive battles won by the row's army (draws left out); bold: the 95% interval leaves out 50%";
        let _ = writeln!(
            s,
            r##"<text x="10" y="44" font-size="12">{}</text>"##,
            esc(sub)
        );
        for (j, e) in self.entries.iter().enumerate() {
            let x = label_w + (j as f64 + 0.5) * CELL;
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" font-size="10" text-anchor="middle">{}</text>"##,
                TOP - 8.0,
                esc(&e.code)
            );
        }
        for (i, e) in self.entries.iter().enumerate() {
            let y = TOP + i as f64 * CELL;
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end">{}</text>"##,
                label_w - 6.0,
                y + CELL * 0.62,
                esc(&e.nation)
            );
            for (j, c) in self.cells[i].iter().enumerate() {
                let x = label_w + j as f64 * CELL;
                let (fill, text, bold) = match c {
                    None => ("#bbbbbb".to_string(), String::new(), false),
                    Some(c) if c.wins + c.losses == 0 => ("#ffffff".to_string(), "=".into(), false),
                    Some(c) => (heat(c.decisive.rate), p0(c.decisive.rate), c.unfair()),
                };
                let _ = writeln!(
                    s,
                    r##"<rect x="{x:.1}" y="{y:.1}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#ffffff"/>"##
                );
                if !text.is_empty() {
                    let weight = if bold { "bold" } else { "normal" };
                    let _ = writeln!(
                        s,
                        r##"<text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" font-weight="{weight}">{text}</text>"##,
                        x + CELL / 2.0,
                        y + CELL * 0.62
                    );
                }
            }
        }
        let y = TOP + n * CELL + 25.0;
        for (k, (share, what)) in [(0.0, "row loses"), (0.5, "even"), (1.0, "row wins")]
            .into_iter()
            .enumerate()
        {
            let x = label_w + k as f64 * 110.0;
            let _ = writeln!(
                s,
                r##"<rect x="{x:.1}" y="{:.1}" width="18" height="14" fill="{}" stroke="#999999"/>"##,
                y - 11.0,
                heat(share)
            );
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{y:.1}" font-size="12">{what}</text>"##,
                x + 24.0
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Red (0) through white (0.5) to blue (1).
fn heat(share: f64) -> String {
    let t = (share.clamp(0.0, 1.0) - 0.5) * 2.0;
    let (r, g, b) = if t < 0.0 {
        (255.0, 255.0 * (1.0 + t * 0.75), 255.0 * (1.0 + t * 0.75))
    } else {
        (255.0 * (1.0 - t * 0.75), 255.0 * (1.0 - t * 0.45), 255.0)
    };
    format!("#{:02x}{:02x}{:02x}", r as u8, g as u8, b as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_tell_names_apart() {
        let names: Vec<String> = ["Koth", "Kozaki", "Khauran and Khoraja", "Aquilonia"]
            .map(String::from)
            .to_vec();
        assert_eq!(codes(&names), ["KOT", "KOZ", "KHA", "AQU"]);
        let names: Vec<String> = ["Vanir", "Vanaheim"].map(String::from).to_vec();
        assert_eq!(codes(&names), ["VANI", "VANA"]);
    }

    #[test]
    fn heat_runs_red_white_blue() {
        assert_eq!(heat(0.5), "#ffffff");
        assert!(heat(0.0).starts_with("#ff"));
        assert!(heat(1.0).ends_with("ff"));
    }

    #[test]
    fn unfair_only_when_the_interval_leaves_out_half() {
        assert!(Cell::new(18, 5, 2).unfair());
        assert!(!Cell::new(6, 5, 4).unfair());
        assert!(!Cell::new(0, 7, 0).unfair(), "all draws say nothing");
    }
}
