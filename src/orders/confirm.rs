//! The confirmation a player gets back: every order as understood (in
//! canonical form), every error with the line quoted, and the units that
//! will stand.

use crate::orders::validate::Checked;
use crate::table::{Status, Table};
use std::fmt::Write as _;

/// The plain-text confirmation for `side`'s orders.
///
/// ```
/// let table = umpire::orders::sample::table();
/// let checked = umpire::orders::check_side("Black Dragons: phase 1 move 6", "aquilonia", &table);
/// let text = umpire::orders::confirmation(&checked, &table, "aquilonia");
/// assert!(text.contains("  Black Dragons: phase 1 move 6\n"));
/// assert!(text.contains("  Bossonian Archers\n")); // will stand
/// ```
pub fn confirmation(checked: &Checked, table: &Table, side: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Orders of {side} for turn {}, as the umpire understood them:", table.turn);
    out.push('\n');
    if checked.understood.is_empty() {
        out.push_str("  (no orders accepted)\n");
    }
    for (_, text) in &checked.understood {
        let _ = writeln!(out, "  {text}");
    }
    let name = |id: &str| table.units.get(id).map_or(id.to_string(), |u| u.name.clone());
    if !checked.rejected.is_empty() {
        out.push_str("\nRefused (these units will stand):\n");
        for id in &checked.rejected {
            let _ = writeln!(out, "  {}", name(id));
        }
    }
    let errors: Vec<_> = checked.diagnostics.iter().filter(|d| d.is_error()).collect();
    let notes: Vec<_> = checked.diagnostics.iter().filter(|d| !d.is_error()).collect();
    if !errors.is_empty() {
        let _ = writeln!(out, "\n{} error(s):\n", errors.len());
        for d in errors {
            out.push_str(&d.render(&checked.source));
            out.push('\n');
        }
    }
    if !notes.is_empty() {
        out.push_str("\nNotes:\n\n");
        for d in notes {
            out.push_str(&d.render(&checked.source));
            out.push('\n');
        }
    }
    let idle: Vec<String> = table
        .units_of(side)
        .filter(|u| matches!(u.status, Status::Ready | Status::FallBack(_)))
        .filter(|u| !checked.orders.units.contains_key(&u.id) && !checked.rejected.contains(&u.id))
        .map(|u| u.name.clone())
        .collect();
    if !idle.is_empty() {
        out.push_str("\nWithout orders (these units will stand):\n");
        for n in &idle {
            let _ = writeln!(out, "  {n}");
        }
    }
    let _ = writeln!(
        out,
        "\n{} unit(s) ordered, {} refused, {} without orders.",
        checked.understood.len(),
        checked.rejected.len(),
        idle.len()
    );
    out
}
