//! Checking a set-up sheet (§12, O29, FB-17): in a set-up round the writing
//! side says where its counters stand (`place salian-4a in 0806`); every
//! counter it does not name stands as the scenario lists it. The side's
//! whole set-up is checked with the scenario's rules, and a line that
//! breaks them is refused (that counter stands as listed), so what the
//! player is told is exactly what will stand.
//!
//! ```
//! use umpire::games::furor::orders::setup::check_setup;
//! use umpire::games::furor::{options::Options, scenario::shipped};
//! let s = shipped("soissons").unwrap();
//! let listed = s.start(&Options::default(), &Default::default(), &"franks".into()).unwrap();
//! let c = check_setup("place salian-4a in 0814\nsalian-4b: set up in 0905\n", &"franks".into(), &s, &Options::default(), &listed);
//! assert_eq!(c.understood[0].1, "place salian-4a in 0814");
//! assert!(c.diagnostics[0].message.contains("salian-4b may not set up in 0905"));
//! assert_eq!(c.placement[&"clovis".into()].to_string(), "0814", "Clovis goes with his first counter");
//! ```

use super::check::resolve;
use super::read::{read, Written};
use super::Problem;
use crate::diagnostic::{Diagnostic, Span};
use crate::games::furor::board::{Board, SideId, UnitId};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::Options;
use crate::games::furor::scenario::{Placement, Scenario};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A set-up sheet checked.
#[derive(Debug, Clone)]
pub struct SetupChecked {
    /// The counters placed by lines that were taken.
    pub written: Placement,
    /// The side's whole set-up: what was taken, the rest as listed.
    pub placement: Placement,
    /// One canonical line per placement taken.
    pub understood: Vec<(Span, String)>,
    pub diagnostics: Vec<Diagnostic<Problem>>,
}

impl SetupChecked {
    /// Whether any line was refused.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Whether a scenario's problem names this counter or hex as a word.
fn mentions(problem: &str, word: &str) -> bool {
    problem
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .any(|w| w == word)
}

/// Check `side`'s set-up sheet; `listed` is the board as the scenario lists
/// it, on which names (and hexes standing for the counter there) are read.
pub fn check_setup(
    text: &str,
    side: &SideId,
    scenario: &Scenario,
    options: &Options,
    listed: &Board,
) -> SetupChecked {
    let sheet = read(text);
    let mut diagnostics = sheet.problems;
    let mut taken: Vec<(Span, UnitId, Hex)> = Vec::new();
    for line in &sheet.lines {
        let Written::Place { unit, hex } = &line.written else {
            diagnostics.push(
                Diagnostic::new(Problem::NotYourTurn, line.span, "the battle has not begun: a set-up round takes only placements")
                    .with_help("write where a counter stands: 'place salian-4a in 0806'; moves and standing reactions are read once the board is set up"),
            );
            continue;
        };
        let id = match resolve(listed, unit) {
            Ok(id) => id,
            Err(d) => {
                diagnostics.push(d);
                continue;
            }
        };
        let u = listed.get(&id);
        if &u.side != side {
            diagnostics.push(
                Diagnostic::new(
                    Problem::NotYours,
                    unit.span,
                    format!("{} is not one of your counters", u.label()),
                )
                .with_note("you set up only your own army (§12)"),
            );
        } else if taken.iter().any(|(_, t, _)| *t == id) {
            diagnostics.push(Diagnostic::new(
                Problem::Illegal,
                line.span,
                format!("{} already has its hex on an earlier line", u.label()),
            ));
        } else {
            taken.push((line.span, id, *hex));
        }
    }
    // Refuse, last first, the lines the scenario's set-up rules object to,
    // until the whole set-up stands.
    let placement = loop {
        let written: Placement = taken.iter().map(|(_, u, h)| (u.clone(), *h)).collect();
        let placement = scenario.complete_placement(side, &written);
        let problems = match scenario.start(
            options,
            &BTreeMap::from([(side.clone(), placement.clone())]),
            side,
        ) {
            Ok(_) => break placement,
            Err(e) => e.0,
        };
        let culprit = problems.iter().find_map(|p| {
            taken
                .iter()
                .rposition(|(_, u, h)| mentions(p, &u.0) || mentions(p, &h.to_string()))
                .map(|i| (i, p))
        });
        let Some((i, problem)) =
            culprit.or_else(|| taken.len().checked_sub(1).zip(problems.first()))
        else {
            break placement;
        };
        let (span, ..) = taken.remove(i);
        diagnostics.push(
            Diagnostic::new(Problem::Illegal, span, problem.clone())
                .with_help("that counter stands where the scenario lists it; the scenario's set-up says which hexes each group may take (O29)"),
        );
    };
    diagnostics.sort_by_key(|d| d.span.start);
    SetupChecked {
        written: taken.iter().map(|(_, u, h)| (u.clone(), *h)).collect(),
        understood: taken
            .iter()
            .map(|(s, u, h)| (*s, format!("place {u} in {h}")))
            .collect(),
        placement,
        diagnostics,
    }
}

/// The confirmation of a set-up sheet: the placements understood, the
/// side's whole set-up as it will stand, and every line not taken.
pub fn confirmation(source: &str, c: &SetupChecked, listed: &Board) -> String {
    let mut out = String::from("Understood:\n");
    if c.understood.is_empty() {
        out.push_str("  (nothing)\n");
    }
    for (_, line) in &c.understood {
        let _ = writeln!(out, "  {line}");
    }
    let _ = writeln!(out, "\nYour set-up as it will stand:");
    for (id, h) in &c.placement {
        let how = if c.written.contains_key(id) {
            ""
        } else {
            " (as listed)"
        };
        let _ = writeln!(out, "  {}: {h}{how}", listed.get(id).label());
    }
    out.push_str(&super::confirm::problems(source, &c.diagnostics));
    out
}
