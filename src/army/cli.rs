//! The text the `umpire army check` and `umpire army new` commands print,
//! and their exit codes. The binary only writes these strings out.

use super::check::{check, Report};
use super::file::ArmyFile;
use super::propose::propose;

/// Exit code: the army is legal.
pub const LEGAL: i32 = 0;
/// Exit code: the army breaks the rules of purchase.
pub const BREACHES: i32 = 1;
/// Exit code: the file cannot be read, or names no nation of the book.
pub const UNREADABLE: i32 = 2;

/// Check the army file at `path`: the printed report and the exit code
/// (0 legal, 1 breaches, 2 unreadable).
pub fn check_cli(path: &str) -> (String, i32) {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return (format!("error: {path}: {e}\n"), UNREADABLE),
    };
    let report = ArmyFile::from_toml(path, &text).and_then(|army| check(&army));
    match report {
        Ok(r) => {
            let code = if r.breaches.is_empty() { LEGAL } else { BREACHES };
            (render(path, &r), code)
        }
        Err(e) => (format!("error: {e}\n"), UNREADABLE),
    }
}

/// The report as printed: a priced list, the total, then every breach.
pub fn render(path: &str, r: &Report) -> String {
    let mut out = format!("{path}: army of {}\n", r.nation);
    for l in &r.lines {
        out.push_str(&format!("  {:<28} {:<44} {:>4} fig {:>5} pts\n", l.name, l.what, l.figures, l.points));
    }
    out.push_str(&format!(
        "total {} points of {} ({} figures for percentages)\n",
        r.total_points, r.limit, r.figures
    ));
    if r.breaches.is_empty() {
        out.push_str("legal: no breaches\n");
    } else {
        out.push_str(&format!("{} breach(es):\n", r.breaches.len()));
        for b in &r.breaches {
            out.push_str(&format!("  - {b}\n"));
        }
    }
    out
}

/// Propose a legal army of `nation` within `points`, as an army file in
/// TOML, with its check report as comments; exit code 0, or 2 with the
/// reason.
pub fn new_cli(nation: &str, points: u32) -> (String, i32) {
    let army = match propose(nation, points) {
        Ok(a) => a,
        Err(e) => return (format!("error: {e}\n"), UNREADABLE),
    };
    let mut out = String::from("# Proposed by `umpire army new`: a legal starting point to edit.\n");
    if let Ok(r) = check(&army) {
        out.push_str(&format!("# {} points of {}, {} figures.\n", r.total_points, r.limit, r.figures));
    }
    out.push_str(&army.to_toml());
    (out, LEGAL)
}
