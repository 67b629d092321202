//! The rules case catalogue: every case under tests/cases/ (every rule set's,
//! directories walked recursively) must pass, run through the same runner as
//! `umpire case`.

use std::path::PathBuf;
use umpire::case::{case_files, run_cli, run_file, CaseOutcome};

fn catalogue() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

#[test]
fn every_catalogue_case_passes() {
    let mut failures = Vec::new();
    let mut count = 0;
    for f in case_files(&[catalogue()]) {
        count += 1;
        let outcome = run_file(&f);
        if outcome != CaseOutcome::Pass {
            failures.push(format!("{}: {outcome:?}", f.display()));
        }
    }
    assert!(count >= 40, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases did not pass:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_runner_exits_zero_on_the_catalogue() {
    assert_eq!(run_cli(&[catalogue()], false), 0);
    assert_eq!(run_cli(&[catalogue()], true), 0);
}
