//! Proposing a legal army: the most points a national list can field within
//! a limit while every band of Appendix I holds, as a starting point for a
//! player to edit.
//!
//! A depth-first search over the number of full units of each designation
//! (guard-type "1 unit" designations 0 or 1), pruned by points; a
//! combination that overshoots the limit or misses a band may have one unit
//! cut under strength (the book allows one, "to meet the percentages and the
//! point total"). The first combination with the most points wins,
//! so the result is the same every run.

use super::check::{bands_hold, Tally};
use super::file::{ArmyFile, Commander, UnitLine};
use super::nation::{Designation, Nation};
use super::{nation, ArmyError, UNDER_STRENGTH_FLOOR};

/// The search gives up improving after this many combinations; the best
/// found so far stands (measured: enough for every list at 1,500 points).
const SEARCH_LIMIT: u64 = 200_000;

struct Search<'a> {
    nation: &'a Nation,
    designations: Vec<&'a Designation>,
    /// Designations the army may field (home-only arms excluded abroad).
    usable: Vec<bool>,
    limit: u32,
    counts: Vec<u32>,
    best: Option<(u32, Vec<u32>, Option<(usize, u32)>)>,
    visited: u64,
}

impl Search<'_> {
    fn unit_cost(&self, i: usize) -> u32 {
        self.designations[i].figures.max() * self.designations[i].figure_cost()
    }

    fn dfs(&mut self, i: usize, points: u32) {
        let perfect = self.best.as_ref().is_some_and(|(b, _, _)| *b == self.limit);
        if self.visited >= SEARCH_LIMIT || perfect {
            return;
        }
        if i == self.designations.len() {
            self.visited += 1;
            self.leaf(points);
            return;
        }
        let cost = self.unit_cost(i);
        let max_unit = (0..self.designations.len()).map(|j| self.unit_cost(j)).max().unwrap_or(0);
        let cap = if !self.usable[i] || cost == 0 {
            0
        } else if self.designations[i].one_unit {
            1
        } else {
            (self.limit + max_unit) / cost
        };
        // Most units first: the richest combinations are met early, and the
        // best found prunes the rest.
        for n in (0..=cap).rev() {
            let p = points + n * cost;
            if p > self.limit + max_unit {
                continue;
            }
            self.counts[i] = n;
            self.dfs(i + 1, p);
        }
        self.counts[i] = 0;
    }

    /// Judge one combination as it is, or with one unit cut under strength
    /// (to fit the points, or to meet a band); the most points wins.
    fn leaf(&mut self, points: u32) {
        if self.best.as_ref().is_some_and(|(b, _, _)| *b >= points.min(self.limit)) {
            return;
        }
        if points <= self.limit && self.legal(None) {
            self.best = Some((points, self.counts.clone(), None));
            return;
        }
        for i in 0..self.designations.len() {
            if self.counts[i] == 0 {
                continue;
            }
            let d = self.designations[i];
            let per = d.figure_cost();
            let full = d.figures.max();
            let floor = d.figures.min().div_ceil(UNDER_STRENGTH_FLOOR);
            for figures in (floor..full).rev() {
                let trimmed = points - (full - figures) * per;
                if trimmed > self.limit {
                    continue;
                }
                if self.best.as_ref().is_some_and(|(b, _, _)| *b >= trimmed) {
                    break;
                }
                if self.legal(Some((i, figures))) {
                    self.best = Some((trimmed, self.counts.clone(), Some((i, figures))));
                    break;
                }
            }
        }
    }

    /// The units of a combination: (designation, figures), the last unit of
    /// the trimmed designation cut to its figures.
    fn units<'b>(&'b self, counts: &'b [u32], trim: Option<(usize, u32)>) -> impl Iterator<Item = (usize, u32)> + 'b {
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
            .filter(|&i| self.designations[i].one_unit)
            .map(|i| self.counts[i])
            .sum();
        guards <= 1 && bands_hold(self.nation, &Tally::new(self.nation, self.units(&self.counts, trim)), false)
    }
}

/// Propose a legal army of `nation` within `points`: the most points the
/// list can field, a commander, no heroes, wizards or mercenaries.
///
/// # Errors
/// [`ArmyError::UnknownName`] for a nation not in Appendix I;
/// [`ArmyError::NoLegalArmy`] when no combination meets the bands (e.g. too
/// few points for the smallest legal army).
pub fn propose(nation_name: &str, points: u32) -> Result<ArmyFile, ArmyError> {
    let nation = nation(nation_name)?;
    let designations: Vec<&Designation> = nation.designations().map(|(_, d)| d).collect();
    let usable = nation.designations().map(|(a, _)| !a.home_only).collect();
    let mut search = Search {
        nation: &nation,
        counts: vec![0; designations.len()],
        designations,
        usable,
        limit: points,
        best: None,
        visited: 0,
    };
    search.dfs(0, 0);
    let Some((_, counts, trim)) = search.best.clone() else {
        return Err(ArmyError::NoLegalArmy {
            nation: nation.name.clone(),
            points,
            why: "no mix of its units meets every percentage band".into(),
        });
    };
    let units = search
        .units(&counts, trim)
        .into_iter()
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
    let first = army.unit_names().into_iter().next();
    army.commander = Some(Commander { name: "General".into(), with: first });
    Ok(army)
}
