//! The rules case catalogue: every case under tests/cases/ (folders
//! walked recursively, every rule set) is one named test, run through the
//! same runner as `umpire case`, so a failure names its file and
//! `cargo test --test cases -- hyborian/melee` runs a part of it.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use umpire::case::{case_files, run_cli, run_file, CaseOutcome};

fn catalogue() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

/// The campaign-week cases (docs/cases-campaign.md), named "campaign/…".
fn campaign_catalogue() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/campaign-cases")
}

/// One trial per case file under `root`, named `prefix` and its path.
fn trials_under(root: &Path, prefix: &str) -> Vec<Trial> {
    case_files(&[root.to_path_buf()])
        .into_iter()
        .map(|f| {
            let name = f
                .strip_prefix(root)
                .unwrap_or(&f)
                .with_extension("")
                .to_string_lossy()
                .replace('\\', "/");
            Trial::test(format!("{prefix}{name}"), move || match run_file(&f) {
                CaseOutcome::Pass => Ok(()),
                other => Err(Failed::from(format!("{}: {other:?}", f.display()))),
            })
        })
        .collect()
}

fn main() {
    let mut trials = trials_under(&catalogue(), "");
    let count = trials.len();
    trials.push(Trial::test("the_catalogue_is_not_empty", move || {
        if count >= 40 {
            Ok(())
        } else {
            Err(format!("only {count} cases").into())
        }
    }));
    let campaign = trials_under(&campaign_catalogue(), "campaign/");
    let weeks = campaign.len();
    trials.extend(campaign);
    trials.push(Trial::test(
        "the_campaign_catalogue_is_not_empty",
        move || {
            if weeks >= 5 {
                Ok(())
            } else {
                Err(format!("only {weeks} campaign cases").into())
            }
        },
    ));
    trials.push(Trial::test(
        "the_runner_exits_zero_on_the_catalogue",
        || match run_cli(&[catalogue(), campaign_catalogue()], false) {
            0 => Ok(()),
            code => Err(format!("umpire case exited {code}").into()),
        },
    ));
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
