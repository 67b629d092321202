//! Proposing a legal army: the most points a national list can field within
//! a limit while every band of Appendix I holds, as a starting point for a
//! player to edit.
//!
//! A depth-first search over the number of full units of each designation
//! (guard-type "1 unit" designations 0 or 1), pruned by points; a
//! combination that overshoots the limit or misses a band may have one unit
//! cut under strength (the book allows one, "to meet the percentages and the
//! point total"). Each designation's counts are tried nearest first to a
//! target: the middle of its band within the middle of its arm's share,
//! scaled to the points. So the first legal armies met are balanced across
//! the whole list, and the search stops at the first that spends every
//! point. The most points wins; ties go to the first found, so the result
//! is the same every run.

use super::check::{bands_hold, Tally};
use super::file::{ArmyFile, Commander, UnitLine};
use super::nation::{Designation, Nation};
use super::{nation, ArmyError, UNDER_STRENGTH_FLOOR};

/// The search gives up after this many combinations; the best found so far
/// stands (measured: every list at 300, 1,500 and 3,000 points finds a
/// legal army well within it).
const SEARCH_LIMIT: u64 = 200_000;

/// A combination: full units per designation, and the one unit (of a
/// designation) cut under strength to some figures.
#[derive(Clone)]
struct Pick {
    points: u32,
    counts: Vec<u32>,
    trim: Option<(usize, u32)>,
}

struct Search<'a> {
    nation: &'a Nation,
    designations: Vec<&'a Designation>,
    /// Per designation, the unit counts to try, nearest the target first.
    tries: Vec<Vec<u32>>,
    limit: u32,
    /// The dearest unit: how far a combination may overshoot before a cut.
    max_unit: u32,
    counts: Vec<u32>,
    best: Option<Pick>,
    visited: u64,
}

/// How many units of each designation a balanced army of `points` has: the
/// middle of every band, arms without a share taking what the others leave.
/// The first guard designation is wanted once, the others not at all.
fn targets(nation: &Nation, usable: &[bool], points: u32) -> Vec<u32> {
    let mid = |[lo, hi]: [u32; 2]| f64::from(lo + hi) / 200.0;
    let stated: f64 = nation.arms.iter().filter_map(|a| a.share).map(mid).sum();
    let mut index = 0;
    let mut fractions = Vec::new();
    let mut arm_weights = Vec::new();
    for arm in &nation.arms {
        let usable_arm = arm.units.iter().enumerate().any(|(k, _)| usable[index + k]);
        let weight = match (usable_arm, arm.share) {
            (false, _) => 0.0,
            (true, Some(share)) => mid(share),
            (true, None) => (1.0 - stated).max(0.0),
        };
        arm_weights.push(weight);
        let mids: Vec<f64> = arm
            .units
            .iter()
            .map(|d| d.percent.map_or(0.0, mid))
            .collect();
        let sum: f64 = mids.iter().sum();
        for m in mids {
            fractions.push(if sum > 0.0 { weight * m / sum } else { 0.0 });
        }
        index += arm.units.len();
    }
    let total_weight: f64 = arm_weights.iter().sum();
    let designations: Vec<&Designation> = nation.designations().map(|(_, d)| d).collect();
    let per_figure: f64 = designations
        .iter()
        .zip(&fractions)
        .map(|(d, f)| f * f64::from(d.figure_cost()))
        .sum::<f64>()
        / total_weight.max(f64::EPSILON);
    let figures = f64::from(points) / per_figure.max(f64::EPSILON);
    let mut guard_wanted = true;
    designations
        .iter()
        .zip(&fractions)
        .zip(usable)
        .map(|((d, f), &ok)| {
            if !ok {
                0
            } else if d.one_unit {
                let want = guard_wanted;
                guard_wanted = false;
                u32::from(want)
            } else {
                (f / total_weight.max(f64::EPSILON) * figures / f64::from(d.figures.max())).round()
                    as u32
            }
        })
        .collect()
}

impl Search<'_> {
    fn unit_cost(&self, i: usize) -> u32 {
        self.designations[i].figures.max() * self.designations[i].figure_cost()
    }

    fn dfs(&mut self, i: usize, points: u32) {
        let perfect = self.best.as_ref().is_some_and(|b| b.points == self.limit);
        if self.visited >= SEARCH_LIMIT || perfect {
            return;
        }
        if i == self.designations.len() {
            self.visited += 1;
            self.leaf(points);
            return;
        }
        let cost = self.unit_cost(i);
        for k in 0..self.tries[i].len() {
            let n = self.tries[i][k];
            if points + n * cost > self.limit + self.max_unit {
                continue;
            }
            self.counts[i] = n;
            self.dfs(i + 1, points + n * cost);
        }
        self.counts[i] = 0;
    }

    /// Judge one combination as it is, or with one unit cut under strength
    /// (to fit the points, or to meet a band).
    fn leaf(&mut self, points: u32) {
        let floor = self.best.as_ref().map_or(0, |b| b.points);
        if floor >= points.min(self.limit) {
            return;
        }
        if points <= self.limit && self.legal(None) {
            self.best = Some(Pick {
                points,
                counts: self.counts.clone(),
                trim: None,
            });
            return;
        }
        for i in 0..self.designations.len() {
            if self.counts[i] == 0 {
                continue;
            }
            let d = self.designations[i];
            let (per, full) = (d.figure_cost(), d.figures.max());
            for figures in (d.figures.min().div_ceil(UNDER_STRENGTH_FLOOR)..full).rev() {
                let p = points - (full - figures) * per;
                if p <= self.best.as_ref().map_or(0, |b| b.points) {
                    break;
                }
                if p <= self.limit && self.legal(Some((i, figures))) {
                    self.best = Some(Pick {
                        points: p,
                        counts: self.counts.clone(),
                        trim: Some((i, figures)),
                    });
                    break;
                }
            }
        }
    }

    /// The units of a combination: (designation, figures), the last unit of
    /// the trimmed designation cut to its figures.
    fn units<'b>(
        &'b self,
        counts: &'b [u32],
        trim: Option<(usize, u32)>,
    ) -> impl Iterator<Item = (usize, u32)> + 'b {
        counts.iter().enumerate().flat_map(move |(i, &n)| {
            let full = self.designations[i].figures.max();
            (0..n).map(move |k| match trim {
                Some((t, f)) if t == i && k + 1 == n => (i, f),
                _ => (i, full),
            })
        })
    }

    fn legal(&self, trim: Option<(usize, u32)>) -> bool {
        let guards: u32 = (0..self.counts.len())
            .filter(|&i| self.designations[i].is_guard())
            .map(|i| self.counts[i])
            .sum();
        guards <= 1
            && bands_hold(
                self.nation,
                &Tally::new(self.nation, self.units(&self.counts, trim)),
                false,
            )
    }
}

/// Propose a legal army of `nation` within `points`: the most points the
/// list can field, balanced across its bands, with a commander; no heroes,
/// wizards or mercenaries (add them by hand). Abroad: home-only arms
/// (Hyrkanian foot) are left out.
///
/// # Errors
/// [`ArmyError::UnknownName`] for a nation not in Appendix I;
/// [`ArmyError::NoLegalArmy`] when no combination meets the bands (e.g. too
/// few points for the smallest legal army).
pub fn propose(nation_name: &str, points: u32) -> Result<ArmyFile, ArmyError> {
    if points > super::MAX_PROPOSED_POINTS {
        return Err(ArmyError::TooManyPoints {
            points,
            max: super::MAX_PROPOSED_POINTS,
        });
    }
    let nation = nation(nation_name)?;
    let designations: Vec<&Designation> = nation.designations().map(|(_, d)| d).collect();
    let usable: Vec<bool> = nation.designations().map(|(a, _)| !a.home_only).collect();
    let max_unit = designations
        .iter()
        .map(|d| d.figures.max() * d.figure_cost())
        .max()
        .unwrap_or(0);
    let tries = targets(&nation, &usable, points)
        .into_iter()
        .zip(&designations)
        .zip(&usable)
        .map(|((target, d), &ok)| {
            let cost = d.figures.max() * d.figure_cost();
            let cap = match (ok, d.one_unit) {
                (false, _) => 0,
                (true, true) => 1,
                (true, false) => (points + max_unit) / cost.max(1),
            };
            let mut order: Vec<u32> = (0..=cap).collect();
            order.sort_by_key(|&n| (n.abs_diff(target.min(cap)), std::cmp::Reverse(n)));
            order
        })
        .collect();
    let mut search = Search {
        nation: &nation,
        counts: vec![0; designations.len()],
        designations,
        tries,
        limit: points,
        max_unit,
        best: None,
        visited: 0,
    };
    search.dfs(0, 0);
    let Some(pick) = search.best.clone() else {
        return Err(ArmyError::NoLegalArmy {
            nation: nation.name.clone(),
            points,
            why: "no mix of its units meets every percentage band".into(),
        });
    };
    let units = search
        .units(&pick.counts, pick.trim)
        .map(|(i, figures)| UnitLine {
            designation: search.designations[i].designation.clone(),
            figures,
            name: None,
            crossbows: false,
        })
        .collect();
    let mut army = ArmyFile {
        name: Some(format!("Army of {}", nation.name)),
        nation: nation.name.clone(),
        points,
        units,
        ..ArmyFile::default()
    };
    let first_unit = army.unit_names().into_iter().next();
    army.commander = Some(Commander {
        name: "General".into(),
        with: first_unit,
    });
    Ok(army)
}
