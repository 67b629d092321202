//! Many games of one matchup: seeds from one master seed, the games
//! shared out over the machine's cores, and the results counted — wins,
//! ties and losses with 95% Wilson intervals, what decided the games, the
//! length of the games, losses by unit type, and what the generals did.
//!
//! Game `i` always has seed `BattleSeed::of_run(master, i)` and the
//! results are counted in game order, so the numbers depend only on the
//! matchup, the master seed and the count — never on the number of threads.
//!
//! ```
//! use umpire::games::furor::sim::game::Matchup;
//! use umpire::games::furor::sim::simulate::simulate;
//! use umpire::sim::Style;
//! let m = Matchup::new("vouille", [Style::Cautious; 2], Default::default(), Some(2)).unwrap();
//! let s = simulate(&m, 7, 3, 1, &|| {}).unwrap();
//! assert_eq!(s.games, 3);
//! assert_eq!(s.wins[0].count + s.wins[1].count + s.ties.count, 3);
//! assert_eq!(s.refused_orders, 0);
//! ```

use super::game::{play, Conduct, Decision, GameError, KindLoss, Matchup, Outcome, Refusal};
use crate::sim::stats::{Estimate, Proportion};
use crate::sim::{play_runs, Commander};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Refused lines kept as examples in a summary (all are counted).
const REFUSALS_SHOWN: usize = 5;

/// One army as a summary names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Army {
    pub side: String,
    /// Its commander: a style, or `hold` (an army that writes no orders).
    pub general: String,
    #[serde(skip)]
    pub commander: Commander,
    pub threshold: u16,
}

/// Losses of one unit type, per game on average.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LossLine {
    pub units: f64,
    pub steps_lost: f64,
    /// Steps lost in percent of the steps the type brought.
    pub steps_lost_percent: f64,
    pub units_lost: f64,
}

/// What decided the games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decided {
    /// This army reached its threshold alone (so the other's army decided it).
    pub broke: [Estimate; 2],
    pub both_broke: Estimate,
    /// Neither broke: the scenario's condition at its last turn.
    pub last_turn: Estimate,
}

/// What a general did, per game on average.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConductLine {
    pub attacks: f64,
    pub charges: f64,
    pub feigned_flights: f64,
    pub attacks_skipped: f64,
    pub moves_refused: f64,
}

/// One game in a summary's list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameLine {
    pub index: u64,
    pub seed: String,
    /// The winner's side, or none for a tie.
    pub winner: Option<String>,
    pub major: bool,
    pub turns: u8,
}

/// The results of a simulation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub title: String,
    pub armies: [Army; 2],
    pub master_seed: u64,
    pub games: u64,
    pub wins: [Estimate; 2],
    /// Of those, major victories.
    pub major_wins: [Estimate; 2],
    pub ties: Estimate,
    pub decided: Decided,
    /// How often each army played first.
    pub first: [Estimate; 2],
    pub average_turns: f64,
    pub last_turn: u8,
    /// Each army's average total lost (§10).
    pub average_lost: [f64; 2],
    /// Per army, losses by unit type (the book's names).
    pub losses: [BTreeMap<String, LossLine>; 2],
    pub conduct: [ConductLine; 2],
    /// Lines the checker refused: each one a bug in a general.
    pub refused_orders: u64,
    pub refusal_examples: Vec<Refusal>,
    pub outcomes: Vec<GameLine>,
}

/// Play `games` games of `m` from `master` on `threads` threads (0: one
/// per core), calling `tick` after each game (a progress bar).
///
/// # Errors
/// [`GameError`] when a game cannot be played.
pub fn simulate(
    m: &Matchup,
    master: u64,
    games: u64,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Summary, GameError> {
    let outcomes = play_runs(
        master,
        games,
        threads,
        |seed| play(m, seed, &mut |_| {}),
        tick,
    )?;
    Ok(summarise(m, master, &outcomes))
}

/// Count the outcomes, in game order.
pub fn summarise(m: &Matchup, master: u64, outcomes: &[Outcome]) -> Summary {
    let n = outcomes.len() as u64;
    let count = |f: &dyn Fn(&Outcome) -> bool| -> Estimate {
        Proportion::new(outcomes.iter().filter(|o| f(o)).count() as u64, n).into()
    };
    let per = |x: f64| x / n.max(1) as f64;
    let armies = [0, 1].map(|i| Army {
        side: m.sides[i].to_string(),
        general: m.commanders[i].to_string(),
        commander: m.commanders[i],
        threshold: m.scenario.armies[&m.sides[i]].threshold,
    });
    let losses = [0, 1].map(|i| {
        let mut total: BTreeMap<String, KindLoss> = BTreeMap::new();
        for o in outcomes {
            for (kind, l) in &o.losses[i] {
                let t = total.entry(kind.clone()).or_default();
                t.units += l.units;
                t.steps += l.steps;
                t.steps_lost += l.steps_lost;
                t.units_lost += l.units_lost;
            }
        }
        total
            .into_iter()
            .map(|(k, t)| {
                let line = LossLine {
                    units: per(f64::from(t.units)),
                    steps_lost: per(f64::from(t.steps_lost)),
                    steps_lost_percent: 100.0 * f64::from(t.steps_lost) / f64::from(t.steps.max(1)),
                    units_lost: per(f64::from(t.units_lost)),
                };
                (k, line)
            })
            .collect()
    });
    let conduct = [0, 1].map(|i| {
        let sum = |f: &dyn Fn(&Conduct) -> u32| {
            per(outcomes.iter().map(|o| f64::from(f(&o.conduct[i]))).sum())
        };
        ConductLine {
            attacks: sum(&|c| c.attacks),
            charges: sum(&|c| c.charges),
            feigned_flights: sum(&|c| c.feigned_flights),
            attacks_skipped: sum(&|c| c.attacks_skipped),
            moves_refused: sum(&|c| c.moves_refused),
        }
    });
    let refusals: Vec<&Refusal> = outcomes.iter().flat_map(|o| &o.refusals).collect();
    Summary {
        scenario: m.name.clone(),
        title: m.scenario.name.clone(),
        master_seed: master,
        games: n,
        wins: [0, 1].map(|i| count(&|o| o.winner == Some(i))),
        major_wins: [0, 1].map(|i| count(&|o| o.winner == Some(i) && o.major)),
        ties: count(&|o| o.winner.is_none()),
        decided: Decided {
            broke: [0, 1].map(|i| count(&|o| o.decision == Decision::Broke(i))),
            both_broke: count(&|o| o.decision == Decision::BothBroke),
            last_turn: count(&|o| o.decision == Decision::LastTurn),
        },
        first: [0, 1].map(|i| count(&|o| o.first == i)),
        average_turns: per(outcomes.iter().map(|o| f64::from(o.turns)).sum()),
        last_turn: m.turns(),
        average_lost: [0, 1].map(|i| per(outcomes.iter().map(|o| f64::from(o.lost[i])).sum())),
        losses,
        conduct,
        refused_orders: refusals.len() as u64,
        refusal_examples: refusals
            .iter()
            .take(REFUSALS_SHOWN)
            .map(|r| (*r).clone())
            .collect(),
        outcomes: outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| GameLine {
                index: i as u64,
                seed: o.seed.clone(),
                winner: o.winner.map(|w| armies[w].side.clone()),
                major: o.major,
                turns: o.turns,
            })
            .collect(),
        armies,
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
        let [a, b] = &self.armies;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} ({}): the {} ({}) against the {} ({})",
            self.title,
            self.scenario,
            a.side,
            a.commander.describe(),
            b.side,
            b.commander.describe()
        );
        let _ = writeln!(
            out,
            "{} games, master seed {}\n",
            self.games, self.master_seed
        );
        let w = self
            .armies
            .iter()
            .map(|e| e.side.len() + 28)
            .max()
            .unwrap_or(36)
            .max(36);
        let row = |out: &mut String, label: String, e: &Estimate| {
            let _ = writeln!(out, "{label:<w$} {:>7}  {}", e.count, pct(e));
        };
        let _ = writeln!(out, "{:<w$} {:>7}   share   95% interval", "", "games");
        for (i, e) in self.armies.iter().enumerate() {
            row(&mut out, format!("{} win", e.side), &self.wins[i]);
            row(
                &mut out,
                "  of which major victories".into(),
                &self.major_wins[i],
            );
        }
        row(&mut out, "ties".into(), &self.ties);
        let _ = writeln!(out, "\nwhat decided it:");
        for (i, e) in self.armies.iter().enumerate() {
            row(
                &mut out,
                format!("  the {} broke (threshold {})", e.side, e.threshold),
                &self.decided.broke[i],
            );
        }
        row(
            &mut out,
            "  both armies broke".into(),
            &self.decided.both_broke,
        );
        row(
            &mut out,
            "  neither: the last turn's condition".into(),
            &self.decided.last_turn,
        );
        let _ = writeln!(out, "\nfirst player:");
        for (i, e) in self.armies.iter().enumerate() {
            row(&mut out, format!("  the {}", e.side), &self.first[i]);
        }
        let _ = writeln!(
            out,
            "\naverage length: {:.1} turns of {}",
            self.average_turns, self.last_turn
        );
        for (i, e) in self.armies.iter().enumerate() {
            let _ = writeln!(
                out,
                "average loss of the {}: {:.1} of its threshold {}",
                e.side, self.average_lost[i], e.threshold
            );
        }
        for (e, losses) in self.armies.iter().zip(&self.losses) {
            let _ = writeln!(out, "\nlosses of the {} per game, by unit type:", e.side);
            let _ = writeln!(
                out,
                "  {:<18} {:>6} {:>11} {:>7} {:>11}",
                "", "units", "steps lost", "", "units lost"
            );
            for (kind, l) in losses {
                let _ = writeln!(
                    out,
                    "  {kind:<18} {:>6.1} {:>11.2} {:>6.0}% {:>11.2}",
                    l.units, l.steps_lost, l.steps_lost_percent, l.units_lost
                );
            }
        }
        let _ = writeln!(out, "\nwhat the generals did, per game:");
        let _ = writeln!(
            out,
            "  {:<18} {:>8} {:>8} {:>9} {:>8} {:>14}",
            "", "attacks", "charges", "feigned", "skipped", "moves refused"
        );
        for (e, c) in self.armies.iter().zip(&self.conduct) {
            let _ = writeln!(
                out,
                "  {:<18} {:>8.1} {:>8.1} {:>9.1} {:>8.1} {:>14.2}",
                e.side, c.attacks, c.charges, c.feigned_flights, c.attacks_skipped, c.moves_refused
            );
        }
        let _ = writeln!(
            out,
            "  (skipped attacks and moves refused by the engine: the board had changed since the sheet was checked)"
        );
        let _ = writeln!(
            out,
            "\norders refused (each a bug in a general): {}",
            self.refused_orders
        );
        for r in &self.refusal_examples {
            let _ = writeln!(out, "  turn {}, {}:\n{}", r.turn, r.side, r.diagnostic);
        }
        let firsts: Vec<(String, &GameLine)> = [Some(a.side.clone()), Some(b.side.clone()), None]
            .into_iter()
            .filter_map(|who| {
                let what = who.as_ref().map_or("the first tie".to_string(), |s| {
                    format!("the first win of the {s}")
                });
                self.outcomes
                    .iter()
                    .find(|o| o.winner == who)
                    .map(|o| (what, o))
            })
            .collect();
        if !firsts.is_empty() {
            let _ = writeln!(out, "\ngames to replay (--replay SEED):");
            for (what, o) in firsts {
                let _ = writeln!(
                    out,
                    "  {what}: game {}, {} turns, seed {}",
                    o.index, o.turns, o.seed
                );
            }
        }
        out
    }

    /// The summary as JSON (every game's seed and result included).
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}
