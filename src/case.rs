//! The rules case runner's frame (`shared/spec/cases.md`, `cases-hex.md`):
//! `umpire case FILE_OR_DIR...` finds the case files, hands each to its
//! rule set (the file's `ruleset` key, `hyborian-age` when absent) and
//! prints one line per case and `N passed, N failed`.
//!
//! ```no_run
//! use umpire::case::{run_file, CaseOutcome};
//! assert_eq!(run_file("tests/cases/movement/straight-full-move.toml".as_ref()), CaseOutcome::Pass);
//! ```

use std::path::{Path, PathBuf};

pub use crate::games::CaseOutcome;

/// Run one case file through its rule set.
pub fn run_file(path: &Path) -> CaseOutcome {
    match std::fs::read_to_string(path) {
        Ok(text) => crate::games::run_case(&text),
        Err(e) => CaseOutcome::Error(format!("cannot read: {e}")),
    }
}

/// Every `*.toml` under the paths (directories recursively, sorted), or
/// the path itself when it is a file.
pub fn case_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "toml") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// One line of the runner's report.
struct Line {
    path: String,
    outcome: CaseOutcome,
}

impl Line {
    /// `{"path": .., "outcome": "pass"|"fail"|"error", "reasons": [..]}`.
    fn json(&self) -> serde_json::Value {
        let (word, reasons) = match &self.outcome {
            CaseOutcome::Pass => ("pass", Vec::new()),
            CaseOutcome::Fail(r) => ("fail", r.clone()),
            CaseOutcome::Error(e) => ("error", vec![e.clone()]),
        };
        serde_json::json!({ "path": self.path, "outcome": word, "reasons": reasons })
    }
}

/// `umpire case FILE_OR_DIR... [--json]`: run the cases, print one line
/// per case and `N passed, N failed`; the exit status is 0 only if every
/// case passed.
pub fn run_cli(paths: &[PathBuf], json: bool) -> i32 {
    let lines: Vec<Line> = case_files(paths)
        .iter()
        .map(|p| Line {
            path: p.display().to_string(),
            outcome: run_file(p),
        })
        .collect();
    let passed = lines
        .iter()
        .filter(|l| l.outcome == CaseOutcome::Pass)
        .count();
    let failed = lines.len() - passed;
    if json {
        let cases: Vec<serde_json::Value> = lines.iter().map(Line::json).collect();
        let out = serde_json::json!({ "cases": cases, "passed": passed, "failed": failed });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        for l in &lines {
            println!("{}", render(l));
        }
        println!("{passed} passed, {failed} failed");
    }
    i32::from(failed > 0)
}

fn render(l: &Line) -> String {
    match &l.outcome {
        CaseOutcome::Pass => format!("PASS {}", l.path),
        CaseOutcome::Fail(r) => format!("FAIL {}: {}", l.path, r.join("; ")),
        CaseOutcome::Error(e) => format!("ERROR {}: {e}", l.path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lines_as_the_format_shows_them() {
        let line = |outcome| Line {
            path: "tests/cases/melee/flank.toml".into(),
            outcome,
        };
        assert_eq!(
            render(&line(CaseOutcome::Pass)),
            "PASS tests/cases/melee/flank.toml"
        );
        let fail = line(CaseOutcome::Fail(vec![
            "foot.figures expected 20, got 21".into()
        ]));
        assert_eq!(
            render(&fail),
            "FAIL tests/cases/melee/flank.toml: foot.figures expected 20, got 21"
        );
        let error = line(CaseOutcome::Error(
            "dice key morale:foot:2 needed but not given".into(),
        ));
        assert_eq!(
            render(&error),
            "ERROR tests/cases/melee/flank.toml: dice key morale:foot:2 needed but not given"
        );
        assert_eq!(
            fail.json(),
            serde_json::json!({"path": "tests/cases/melee/flank.toml", "outcome": "fail", "reasons": ["foot.figures expected 20, got 21"]})
        );
    }
}
