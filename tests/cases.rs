//! The rules case catalogue: every case under tests/cases/ (folders
//! walked recursively, every rule set) must pass, run through the same
//! runner as `umpire case`.

use std::path::PathBuf;
use umpire::case::{case_files, run_cli, run_file, CaseOutcome};

fn catalogue() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

#[test]
fn every_catalogue_case_passes() {
    let files = case_files(&[catalogue()]);
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let outcome = run_file(f);
            (outcome != CaseOutcome::Pass).then(|| format!("{}: {outcome:?}", f.display()))
        })
        .collect();
    assert!(files.len() >= 40, "only {} cases", files.len());
    assert!(
        failures.is_empty(),
        "{} of {} cases did not pass:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn the_runner_exits_zero_on_the_catalogue() {
    assert_eq!(run_cli(&[catalogue()], false), 0);
    assert_eq!(run_cli(&[catalogue()], true), 0);
}
