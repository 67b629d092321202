//! The text the `umpire army check` and `umpire army new` commands print,
//! and their exit codes. The binary only writes these strings out.

use super::check::{check, Report};
use super::file::ArmyFile;
use super::nation::{Mercenaries, Nation};
use super::propose::propose;
use super::{nation, nations};

/// Exit code: the army is legal.
pub const LEGAL: i32 = 0;
/// Exit code: the army breaks the rules of purchase.
pub const BREACHES: i32 = 1;
/// Exit code: the file cannot be read, or names no nation of the book.
pub const UNREADABLE: i32 = 2;

/// Check the text of the army file at `path`: the printed report and the
/// exit code (0 legal, 1 breaches, 2 unreadable).
pub fn check_cli(path: &str, text: &str) -> (String, i32) {
    let report = ArmyFile::from_toml(path, text).and_then(|army| check(&army));
    match report {
        Ok(r) => {
            let code = if r.breaches.is_empty() {
                LEGAL
            } else {
                BREACHES
            };
            (render(path, &r), code)
        }
        Err(e) => (format!("error: {e}\n"), UNREADABLE),
    }
}

/// The report as printed: a priced list, the total, then every breach.
pub fn render(path: &str, r: &Report) -> String {
    let mut out = format!("{path}: army of {}\n", r.nation);
    for l in &r.lines {
        out.push_str(&format!(
            "  {:<28} {:<44} {:>4} fig {:>5} pts\n",
            l.name, l.what, l.figures, l.points
        ));
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
    let mut out =
        String::from("# Proposed by `umpire army new`: a legal starting point to edit.\n");
    if let Ok(r) = check(&army) {
        out.push_str(&format!(
            "# {} points of {}, {} figures.\n",
            r.total_points, r.limit, r.figures
        ));
    }
    out.push_str(&army.to_toml());
    (out, LEGAL)
}

/// A national list as the book prints it: points, banner, mercenaries, and
/// each arm's table with type, class, figures, points per figure and band.
pub fn describe(n: &Nation) -> String {
    let mut out = format!(
        "{}: {} points\nBanner: {}\n",
        n.name.to_uppercase(),
        n.points,
        n.banner
    );
    let mercs = match &n.mercenaries {
        Mercenaries::None => "none".to_string(),
        Mercenaries::Any { percent } => format!("up to {percent}% of the army"),
        Mercenaries::FreeCompanies { percent } => {
            format!("Free Companies, up to {percent}% of the army")
        }
        Mercenaries::Listed { units } => units
            .iter()
            .map(|l| {
                format!(
                    "{} ({}), at most {}",
                    l.designation.as_deref().unwrap_or("any unit"),
                    l.nation,
                    l.max_units
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
    };
    out.push_str(&format!("Mercenaries: {mercs}\n"));
    if n.western {
        out.push_str("A Western kingdom: bow-armed units may carry crossbows.\n");
    }
    for arm in &n.arms {
        let share = match arm.share {
            Some([lo, hi]) if (lo, hi) != (100, 100) => format!(": {lo}-{hi}% of the army"),
            Some(_) => String::new(),
            None => ": the balance of the army".to_string(),
        };
        let home = if arm.home_only { " (at home only)" } else { "" };
        out.push_str(&format!("\n{}{share}{home}\n", capitalised(arm.of.label())));
        out.push_str(&format!(
            "  {:<24} {:<4} {:<5} {:>7} {:>6}  % of {}\n",
            "Unit",
            "Type",
            "Class",
            "Figures",
            "Pts/fig",
            arm.of.label()
        ));
        for d in &arm.units {
            out.push_str(&format!(
                "  {:<24} {:<4} {:<5} {:>7} {:>6}  {}\n",
                d.designation,
                d.kind.code(),
                d.class.to_string(),
                d.figures.to_string(),
                d.figure_cost(),
                d.band_text()
            ));
        }
    }
    if !n.notes.is_empty() {
        out.push_str(&format!("\n{}\n", n.notes));
    }
    out
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `umpire army list [NATION]`: one national list, or the names and points
/// of all; exit code 0, or 2 for an unknown nation.
pub fn list_cli(name: Option<&str>) -> (String, i32) {
    match name {
        Some(name) => match nation(name) {
            Ok(n) => (describe(&n), LEGAL),
            Err(e) => (format!("error: {e}\n"), UNREADABLE),
        },
        None => match nations() {
            Ok(all) => (
                all.iter()
                    .map(|n| format!("{:<22} {:>5} points\n", n.name, n.points))
                    .collect(),
                LEGAL,
            ),
            Err(e) => (format!("error: {e}\n"), UNREADABLE),
        },
    }
}
