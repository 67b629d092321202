//! The confirmation a player gets back at once (§15): every order as it
//! was understood, in canonical form, where each unit ends, the odds and
//! die modifiers of every planned attack on the board after the moves, the
//! standing reactions, and every problem rustc-style with its fix.
//!
//! ```
//! use umpire::games::furor::orders::{check::check, confirm::confirmation};
//! use umpire::games::furor::{options::Options, scenario::shipped};
//! let board = shipped("soissons").unwrap().start(&Options::default(), &Default::default(), &"franks".into()).unwrap();
//! let text = "salian-4a: move 0706\nattack palatina with salian-4a";
//! let c = check(text, &"franks".into(), &board, &Options::default());
//! let out = confirmation(text, &c, &board);
//! assert!(out.contains("Salian Franks (salian-4a): 0806 → 0706"), "{out}");
//! ```

use super::check::Checked;
use super::Problem;
use crate::diagnostic::Diagnostic;
use crate::games::furor::board::{Board, UnitId};
use crate::games::furor::events::DieModifier;
use std::fmt::Write as _;

fn name(board: &Board, id: &UnitId) -> String {
    board.unit(id).map_or_else(|| id.0.clone(), |u| u.label())
}

/// The die modifiers of an attack, in words.
pub fn modifiers(m: &[DieModifier]) -> String {
    if m.is_empty() {
        return "no die modifier".into();
    }
    m.iter()
        .map(|d| match d {
            DieModifier::Village => "village +1",
            DieModifier::BridgeHex => "bridge +1",
            DieModifier::Water => "stream or bridge +1",
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The whole confirmation text.
pub fn confirmation(source: &str, c: &Checked, board: &Board) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Understood:");
    if c.understood.is_empty() {
        let _ = writeln!(out, "  (nothing)");
    }
    for (_, line) in &c.understood {
        let _ = writeln!(out, "  {line}");
    }
    if !c.moves.is_empty() {
        let _ = writeln!(out, "\nWhere your units end, in the order they move:");
        for m in &c.moves {
            let charge = m
                .charge
                .as_ref()
                .map(|t| format!(", charging {}", name(board, t)))
                .unwrap_or_default();
            let overruns: String = m
                .overruns
                .iter()
                .map(|(c, h)| format!(", overrunning {}, alone in {h} (§6)", name(board, c)))
                .collect();
            let _ = writeln!(
                out,
                "  {}: {} → {} ({} MP{charge}){overruns}",
                name(board, &m.unit),
                m.from,
                m.to,
                m.spent
            );
        }
    }
    if !c.attacks.is_empty() {
        let _ = writeln!(out, "\nYour attacks, as things stand after the moves:");
        for a in &c.attacks {
            let head = if a.alternative {
                format!("  {} else:", a.index)
            } else {
                format!("  {}.", a.index)
            };
            match &a.odds {
                Some(o) => {
                    let shares: Vec<String> = o
                        .shares
                        .iter()
                        .map(|s| {
                            let mut t = format!("{} {}", name(board, &s.unit), s.strength);
                            if s.charge_bonus {
                                t.push_str(" charging");
                            }
                            if s.fire {
                                t.push_str(" by fire");
                            }
                            if let Some((c, v)) = &s.commander {
                                t.push_str(&format!(" + {} {v}", name(board, c)));
                            }
                            t
                        })
                        .collect();
                    let shift = if o.shifts > 0 {
                        format!(", terrain {} column(s) left: {}", o.shifts, o.column)
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        out,
                        "{head} {} — {} = {} against {}: {}{shift}; {}",
                        name(board, &a.target),
                        shares.join(", "),
                        o.attack,
                        o.defence,
                        o.odds,
                        modifiers(&o.modifiers)
                    );
                }
                None => {
                    let _ = writeln!(out, "{head} {}", name(board, &a.target));
                }
            }
            for n in &a.notes {
                let _ = writeln!(out, "       note: {n}");
            }
        }
    }
    out.push_str(&problems(source, &c.diagnostics));
    out
}

/// The lines not taken and the remarks, rustc-style, after a confirmation
/// (empty when there are none).
pub fn problems(source: &str, diagnostics: &[Diagnostic<Problem>]) -> String {
    let mut out = String::new();
    if !diagnostics.is_empty() {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let lines = if errors == 1 { "line" } else { "lines" };
        let _ = writeln!(
            out,
            "\n{errors} {lines} not taken; remarks on the others:\n"
        );
        for d in diagnostics {
            let _ = writeln!(out, "{}", d.render(source));
        }
    }
    out
}
