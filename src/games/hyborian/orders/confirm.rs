//! The confirmation a player gets back: every order as understood (in
//! canonical form), every error with the line quoted, and the units that
//! will stand.

use crate::diagnostic::Rendered;
use crate::games::hyborian::orders::validate::Checked;
use crate::games::hyborian::table::{Status, Table};
use std::fmt::Write as _;

/// At most this many errors (and as many notes) are written out in full.
const MAX_SHOWN: usize = 50;

/// The plain-text confirmation for `side`'s orders; `envelope` are the
/// mail's own diagnostics (header, commands), listed with the orders' in
/// the order of the text.
///
/// ```
/// let table = umpire::games::hyborian::orders::sample::table();
/// let checked = umpire::games::hyborian::orders::check_side("Black Dragons: phase 1 move 6", "aquilonia", &table);
/// let text = umpire::games::hyborian::orders::confirmation(&checked, &table, "aquilonia", &[]);
/// assert!(text.contains("  Black Dragons: phase 1 move 6\n"));
/// assert!(text.contains("  Bossonian Archers\n")); // will stand
/// ```
pub fn confirmation(checked: &Checked, table: &Table, side: &str, envelope: &[Rendered]) -> String {
    let mut sections: Vec<String> = Vec::new();
    let mut head = format!(
        "Orders of {side} for turn {}, as the umpire understood them:\n",
        table.turn
    );
    if checked.understood.is_empty() {
        head.push_str("  (no orders accepted)\n");
    }
    for (_, text) in &checked.understood {
        let _ = writeln!(head, "  {text}");
    }
    sections.push(head);
    let name = |id: &str| {
        table
            .units
            .get(id)
            .map_or(id.to_string(), |u| u.name.clone())
    };
    if !checked.rejected.is_empty() {
        let mut s = String::from("Refused (these units will stand):\n");
        for id in &checked.rejected {
            let _ = writeln!(s, "  {}", name(id));
        }
        sections.push(s);
    }
    let mut every: Vec<Rendered> = checked
        .diagnostics
        .iter()
        .map(|d| d.rendered(&checked.source))
        .collect();
    every.extend(envelope.iter().cloned());
    every.sort_by_key(|d| d.span.start);
    for (title, errors) in [("Errors", true), ("Notes", false)] {
        let all: Vec<&Rendered> = every.iter().filter(|d| d.error == errors).collect();
        let mut list: Vec<String> = all.iter().take(MAX_SHOWN).map(|d| d.text.clone()).collect();
        if all.len() > MAX_SHOWN {
            list.push(format!(
                "… and {} more not shown; correct these first.\n",
                all.len() - MAX_SHOWN
            ));
        }
        if !list.is_empty() {
            sections.push(format!("{title} ({}):\n\n{}", all.len(), list.join("\n")));
        }
    }
    let idle: Vec<String> = table
        .units_of(side)
        .filter(|u| matches!(u.status, Status::Ready | Status::FallBack(_)))
        .filter(|u| !checked.orders.units.contains_key(&u.id) && !checked.rejected.contains(&u.id))
        .map(|u| u.name.clone())
        .collect();
    if !idle.is_empty() {
        let mut s = String::from("Without orders (these units will stand):\n");
        for n in &idle {
            let _ = writeln!(s, "  {n}");
        }
        sections.push(s);
    }
    let units = |n: usize| {
        if n == 1 {
            "1 unit".to_string()
        } else {
            format!("{n} units")
        }
    };
    sections.push(format!(
        "{} ordered, {} refused, {} without orders.\n",
        units(checked.understood.len()),
        checked.rejected.len(),
        idle.len()
    ));
    sections.join("\n")
}
