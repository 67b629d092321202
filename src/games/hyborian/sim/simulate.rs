//! Many battles of one matchup: seeds from one master seed, the battles
//! shared out over the machine's cores, and the results counted — wins,
//! draws and losses with 95% intervals, the length of the battles, losses
//! by troop type, and which side broke first.
//!
//! Battle `i` always has seed `BattleSeed::of_run(master, i)` and the
//! results are counted in battle order, so the numbers depend only on the
//! matchup, the master seed and the count — never on the number of threads.
//!
//! ```
//! use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
//! use umpire::games::hyborian::sim::general::Style;
//! use umpire::games::hyborian::sim::simulate::simulate;
//! let a = Contender::proposed("Koth", 300, Style::Cautious).unwrap();
//! let b = Contender::proposed("Zamora", 300, Style::Cautious).unwrap();
//! let m = Matchup::new([a, b], Field::Card(Some(60)), Default::default(), Some(4)).unwrap();
//! let s = simulate(&m, 7, 4, 1, &|| {}).unwrap();
//! assert_eq!(s.battles, 4);
//! assert_eq!(s.wins[0].count + s.wins[1].count + s.draws.count, 4);
//! ```

use super::battle::{play, BattleError, Outcome, Refusal, TypeLoss};
use super::field::Matchup;
use super::stats::{Estimate, Proportion};
use crate::games::hyborian::army;
use crate::sim::{play_runs, Commander};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Refused orders kept as examples in a summary (all are counted).
const REFUSALS_SHOWN: usize = 5;

/// One contender as a summary names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entrant {
    pub label: String,
    pub side: String,
    /// Its commander: a style, or `hold` (a side that writes no orders).
    pub general: String,
    #[serde(skip)]
    pub commander: Commander,
    /// Points the army cost (by `army::check`), and the limit it was bought to.
    pub points: Option<u32>,
    pub limit: Option<u32>,
}

/// Losses of one troop type, per battle on average.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LossLine {
    pub units: f64,
    pub figures: f64,
    pub killed: f64,
    /// Killed, in percent of the figures the type brought.
    pub killed_percent: f64,
    pub units_broken: f64,
}

/// Which side had a unit break first (rout, surrender, destruction).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FirstBreak {
    pub by: [Estimate; 2],
    pub same_turn: Estimate,
    pub neither: Estimate,
}

/// One battle in a summary's list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleLine {
    pub index: u64,
    pub seed: String,
    /// The winner's label, or none for a draw.
    pub winner: Option<String>,
    pub turns: u32,
    pub card: Option<u32>,
}

/// The results of a simulation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub entrants: [Entrant; 2],
    pub field: String,
    pub master_seed: u64,
    pub battles: u64,
    pub wins: [Estimate; 2],
    pub draws: Estimate,
    pub average_turns: f64,
    pub most_turns: u32,
    /// Per entrant, losses by troop type (the book's names).
    pub losses: [BTreeMap<String, LossLine>; 2],
    pub first_break: FirstBreak,
    /// Orders the checker refused: each one a bug in a general.
    pub refused_orders: u64,
    pub refusal_examples: Vec<Refusal>,
    pub outcomes: Vec<BattleLine>,
}

/// Play `battles` battles of `m` from `master` on `threads` threads (0: one
/// per core), calling `tick` after each battle (a progress bar).
///
/// # Errors
/// [`BattleError`] when a battle cannot be set up.
pub fn simulate(
    m: &Matchup,
    master: u64,
    battles: u64,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Summary, BattleError> {
    let outcomes = play_runs(
        master,
        battles,
        threads,
        |seed| play(m, seed, &mut |_| {}),
        tick,
    )?;
    Ok(summarise(m, master, &outcomes))
}

fn entrant(m: &Matchup, i: usize) -> Entrant {
    let c = &m.contenders[i];
    let points = c
        .army
        .as_ref()
        .and_then(|a| army::check(a).ok())
        .map(|r| r.total_points);
    Entrant {
        label: c.label.clone(),
        side: m.sides()[i].to_string(),
        general: c.commander.to_string(),
        commander: c.commander,
        points,
        limit: c.army.as_ref().map(|a| a.points),
    }
}

/// Count the outcomes, in battle order.
pub fn summarise(m: &Matchup, master: u64, outcomes: &[Outcome]) -> Summary {
    let n = outcomes.len() as u64;
    let count = |f: &dyn Fn(&Outcome) -> bool| {
        Proportion::new(outcomes.iter().filter(|o| f(o)).count() as u64, n).into()
    };
    let entrants = [entrant(m, 0), entrant(m, 1)];
    let broke = |o: &Outcome, i: usize| o.first_break.is_some_and(|(_, who)| who[i] && !who[1 - i]);
    let first_break = FirstBreak {
        by: [count(&|o| broke(o, 0)), count(&|o| broke(o, 1))],
        same_turn: count(&|o| o.first_break.is_some_and(|(_, who)| who[0] && who[1])),
        neither: count(&|o| o.first_break.is_none()),
    };
    let losses = [0, 1].map(|i| {
        let mut total: BTreeMap<String, TypeLoss> = BTreeMap::new();
        for o in outcomes {
            for (kind, l) in &o.losses[i] {
                let t = total.entry(kind.clone()).or_default();
                t.units += l.units;
                t.figures += l.figures;
                t.killed += l.killed;
                t.units_broken += l.units_broken;
            }
        }
        let per = |x: u32| f64::from(x) / n.max(1) as f64;
        total
            .into_iter()
            .map(|(k, t)| {
                let line = LossLine {
                    units: per(t.units),
                    figures: per(t.figures),
                    killed: per(t.killed),
                    killed_percent: 100.0 * f64::from(t.killed) / f64::from(t.figures.max(1)),
                    units_broken: per(t.units_broken),
                };
                (k, line)
            })
            .collect()
    });
    let refusals: Vec<&Refusal> = outcomes.iter().flat_map(|o| &o.refusals).collect();
    Summary {
        field: field_text(m),
        master_seed: master,
        battles: n,
        wins: [
            count(&|o| o.winner == Some(0)),
            count(&|o| o.winner == Some(1)),
        ],
        draws: count(&|o| o.winner.is_none()),
        average_turns: outcomes.iter().map(|o| f64::from(o.turns)).sum::<f64>() / n.max(1) as f64,
        most_turns: m.turns(),
        losses,
        first_break,
        refused_orders: refusals.len() as u64,
        refusal_examples: refusals
            .iter()
            .take(REFUSALS_SHOWN)
            .map(|r| (*r).clone())
            .collect(),
        outcomes: outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| BattleLine {
                index: i as u64,
                seed: o.seed.clone(),
                winner: o.winner.map(|w| entrants[w].label.clone()),
                turns: o.turns,
                card: o.card,
            })
            .collect(),
        entrants,
    }
}

fn field_text(m: &Matchup) -> String {
    match &m.ground {
        super::field::Ground::Card {
            fixed: Some(n),
            width,
            ..
        } => format!("terrain card {n}, a {}-foot table", width / 12.0),
        super::field::Ground::Card {
            fixed: None, width, ..
        } => {
            format!(
                "a terrain card drawn for each battle, a {}-foot table",
                width / 12.0
            )
        }
        super::field::Ground::Scenario { scenario, .. } => {
            format!("the scenario \"{}\"", scenario.title)
        }
    }
}

fn pct(e: &Estimate) -> String {
    format!(
        "{:5.1}%  {:5.1}–{:5.1}",
        100.0 * e.rate,
        100.0 * e.low,
        100.0 * e.high
    )
}

impl Summary {
    /// The summary as a table for people.
    pub fn text(&self) -> String {
        let [a, b] = &self.entrants;
        let name = |e: &Entrant| {
            let cost = match (e.points, e.limit) {
                (Some(p), Some(l)) if p != l => format!(", {p} of {l} points spent"),
                _ => String::new(),
            };
            format!("{} ({}{cost})", e.label, e.commander.describe())
        };
        let mut out = String::new();
        let _ = writeln!(out, "{} against {}", name(a), name(b));
        let _ = writeln!(
            out,
            "{} battles on {}, master seed {}\n",
            self.battles, self.field, self.master_seed
        );
        let w = self
            .entrants
            .iter()
            .map(|e| e.label.len() + 5)
            .max()
            .unwrap_or(10)
            .max(24);
        let _ = writeln!(out, "{:<w$} {:>8}   share   95% interval", "", "battles");
        for (e, r) in self.entrants.iter().zip(&self.wins) {
            let _ = writeln!(
                out,
                "{:<w$} {:>8}  {}",
                format!("{} wins", e.label),
                r.count,
                pct(r)
            );
        }
        let _ = writeln!(
            out,
            "{:<w$} {:>8}  {}",
            "draws",
            self.draws.count,
            pct(&self.draws)
        );
        let _ = writeln!(
            out,
            "\naverage length: {:.1} turns of {} at most",
            self.average_turns, self.most_turns
        );
        let _ = writeln!(
            out,
            "\nfirst to break (a unit routed, surrendered or destroyed first):"
        );
        for (e, r) in self.entrants.iter().zip(&self.first_break.by) {
            let _ = writeln!(out, "  {:<w$} {:>6}  {}", e.label, r.count, pct(r));
        }
        let f = &self.first_break;
        let _ = writeln!(
            out,
            "  {:<w$} {:>6}  {}",
            "both in the same turn",
            f.same_turn.count,
            pct(&f.same_turn)
        );
        let _ = writeln!(
            out,
            "  {:<w$} {:>6}  {}",
            "no unit broke",
            f.neither.count,
            pct(&f.neither)
        );
        for (e, losses) in self.entrants.iter().zip(&self.losses) {
            let _ = writeln!(out, "\nlosses of {} per battle, by troop type:", e.label);
            let _ = writeln!(
                out,
                "  {:<24} {:>6} {:>8} {:>8} {:>7} {:>13}",
                "", "units", "figures", "killed", "", "units broken"
            );
            for (kind, l) in losses {
                let _ = writeln!(
                    out,
                    "  {kind:<24} {:>6.1} {:>8.1} {:>8.1} {:>6.0}% {:>13.2}",
                    l.units, l.figures, l.killed, l.killed_percent, l.units_broken
                );
            }
        }
        let _ = writeln!(
            out,
            "\norders refused (each a bug in a general): {}",
            self.refused_orders
        );
        for r in &self.refusal_examples {
            let _ = writeln!(
                out,
                "  turn {}, {} {}:\n{}",
                r.turn, r.side, r.unit, r.diagnostics
            );
        }
        let firsts: Vec<(String, &BattleLine)> =
            [Some(a.label.clone()), Some(b.label.clone()), None]
                .into_iter()
                .filter_map(|who| {
                    let what = who.as_ref().map_or("the first draw".to_string(), |l| {
                        format!("the first win of {l}")
                    });
                    self.outcomes
                        .iter()
                        .find(|o| o.winner == who)
                        .map(|o| (what, o))
                })
                .collect();
        if !firsts.is_empty() {
            let _ = writeln!(out, "\nbattles to replay (--replay SEED):");
            for (what, o) in firsts {
                let _ = writeln!(
                    out,
                    "  {what}: battle {}, {} turns, seed {}",
                    o.index, o.turns, o.seed
                );
            }
        }
        out
    }

    /// The summary as JSON (every battle's seed and result included).
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}
