//! The case runner's behaviour as the case format specifies it: PASS,
//! FAIL with reasons, ERROR with the cause, dice-key rules, exit status.

use std::path::{Path, PathBuf};
use umpire::case::{run_cli, run_file, CaseOutcome};
use umpire::games::hyborian::case::Case;

const BASE: &str = r#"title = "t"
rule = "MOVEMENT"
stop_after = "phase1-move"
[table]
width = 72.0
depth = 48.0
[[unit]]
id = "spears"
side = "turan"
name = "Regular Spearmen"
type = "MI"
figures = 24
formation = "line"
ranks = 3
front = [30.0, 10.0]
facing = 0
[orders]
turan = "Regular Spearmen: phase 1 move full"
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn outcome(text: &str) -> CaseOutcome {
    let dir = tempfile::tempdir().unwrap();
    run_file(&write(dir.path(), "c.toml", text))
}

#[test]
fn pass_fail_and_reasons() {
    assert_eq!(
        outcome(&format!(
            "{BASE}[expect]\n\"spears.front\" = [30.0, 16.0]\n"
        )),
        CaseOutcome::Pass
    );
    assert_eq!(
        outcome(&format!(
            "{BASE}[expect]\n\"spears.front\" = [30.0, 15.0]\n"
        )),
        CaseOutcome::Fail(vec![
            "spears.front expected [30.00, 15.00], got [30.00, 16.00]".into()
        ])
    );
    // A looser tolerance lets it pass.
    assert_eq!(
        outcome(&format!(
            "{BASE}[expect]\n\"spears.front\" = [30.0, 15.0]\n[tolerance]\nfront = 1.5\n"
        )),
        CaseOutcome::Pass
    );
    assert_eq!(
        outcome(&format!(
            "{BASE}[expect]\n\"spears.facing\" = 10\n\"spears.status\" = \"rout\"\n"
        )),
        CaseOutcome::Fail(vec![
            "spears.facing expected 10, got 0.0".into(),
            "spears.status expected rout, got ready".into()
        ])
    );
}

#[test]
fn dice_key_rules() {
    let unused = format!("{BASE}[dice]\n\"melee:spears\" = 3\n");
    assert_eq!(
        outcome(&unused),
        CaseOutcome::Fail(vec!["dice key melee:spears given but never used".into()])
    );
    assert_eq!(
        outcome(&unused.replace("title = \"t\"", "title = \"t\"\nstrict_dice = false")),
        CaseOutcome::Pass
    );
    let bad = outcome(&format!("{BASE}[dice]\n\"melee:spears\" = 7\n"));
    assert_eq!(
        bad,
        CaseOutcome::Error("dice melee:spears = 7: an average die shows 2-5".into())
    );
    let CaseOutcome::Error(e) = outcome(&format!("{BASE}[dice]\n\"smite:spears:1\" = 3\n")) else {
        panic!()
    };
    assert!(e.contains("smite:spears:1"), "{e}");
    let CaseOutcome::Error(e) = outcome(&format!("{BASE}[dice]\n\"melee:ghost\" = 3\n")) else {
        panic!()
    };
    assert!(e.contains("names no unit"), "{e}");
}

#[test]
fn errors_name_their_cause() {
    let CaseOutcome::Error(e) = outcome(&BASE.replace("\"MI\"", "\"XX\"")) else {
        panic!()
    };
    assert!(e.contains("unit 'spears': type"), "{e}");
    let CaseOutcome::Error(e) = outcome(&format!("{BASE}[options]\nclok = \"shared-inch\"\n"))
    else {
        panic!()
    };
    assert!(e.contains("clok"), "{e}");
    let CaseOutcome::Error(e) = outcome(&BASE.replace("phase1-move", "phase3")) else {
        panic!()
    };
    assert!(e.contains("phase3"), "{e}");
    let CaseOutcome::Error(e) = outcome(&format!("{BASE}[expect]\n\"ghost.front\" = [1.0, 1.0]\n"))
    else {
        panic!()
    };
    assert!(e.contains("ghost"), "{e}");
    let CaseOutcome::Error(e) = outcome(&format!("surprise = 1\n{BASE}")) else {
        panic!()
    };
    assert!(e.contains("surprise"), "{e}");
    assert!(Case::parse("not toml [").is_err());
}

#[test]
fn refused_orders_fail_unless_expected() {
    let unreadable = BASE.replace("phase 1 move full", "phase 1 dance a jig");
    let CaseOutcome::Fail(r) = outcome(&unreadable) else {
        panic!()
    };
    assert!(r[0].starts_with("orders for turan, line 1"), "{r:?}");
}

#[test]
fn cli_exit_status_and_directories() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    write(
        &sub,
        "good.toml",
        &format!("{BASE}[expect]\n\"spears.front\" = [30.0, 16.0]\n"),
    );
    write(dir.path(), "notes.txt", "not a case");
    assert_eq!(run_cli(&[dir.path().to_path_buf()], false), 0);
    write(
        dir.path(),
        "bad.toml",
        &format!("{BASE}[expect]\n\"spears.front\" = [0.0, 0.0]\n"),
    );
    assert_eq!(run_cli(&[dir.path().to_path_buf()], false), 1);
    assert_eq!(run_cli(&[dir.path().to_path_buf()], true), 1);
    assert_eq!(run_cli(&[dir.path().join("missing.toml")], false), 1);
}
