//! `umpire orders check FILE --scenario F`: the confirmation a player would
//! get, offline, for every rule set — against a scenario file (which names
//! no rule set: the rule set that reads it is found) or a game file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Run `umpire orders check` on `orders` with these arguments, from an
/// empty folder (no store is opened).
fn check(orders: &str, args: &[&str]) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("orders.txt");
    std::fs::write(&file, orders).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .current_dir(dir.path())
        .args(["orders", "check"])
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

fn path(p: &str) -> String {
    repo(p).to_string_lossy().into_owned()
}

#[test]
fn a_hyborean_scenario_checks_orders_offline() {
    let scenario = path("campaigns/scenarios/river-crossing.toml");
    let (out, text) = check(
        "Black Dragons: phase 1 move 6\n",
        &["--scenario", &scenario, "--side", "aquilonia"],
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Black Dragons: phase 1 move 6"), "{text}");
    // A refused line fails the check, quoted with its column.
    let (out, text) = check(
        "Black Dragons: phase 1 moev 6\n",
        &["--scenario", &scenario, "--side", "aquilonia"],
    );
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("did you mean 'move'?"), "{text}");
}

#[test]
fn a_furor_barbarus_scenario_checks_orders_offline() {
    // It was refused with "missing field 'table'": a Furor Barbarus
    // scenario was read as a Hyborean one.
    let scenario = path("campaigns/furor-barbarus/scenarios/soissons.toml");
    // The Franks set up second: checked against their own set-up round.
    let (out, text) = check(
        "place archers in 0907\n",
        &["--scenario", &scenario, "--side", "franks"],
    );
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("missing field"), "{text}");
    assert!(text.contains("archers"), "{text}");
    assert!(
        !text.contains("it is the set-up round of the gallo-romans"),
        "{text}"
    );
    // The side from the header, and the game file (its options too).
    let game = path("campaigns/furor-barbarus/games/soissons.toml");
    let (out, text) = check(
        "GAME soissons SIDE franks PASSWORD x\nplace archers in 0907\nEND\n",
        &["--scenario", &game],
    );
    assert!(out.status.success(), "{text}");
    // The Gallo-Romans set up first; the other side's standing choices
    // are for the battle: the Franks' own set-up round reads no move.
    let (out, text) = check(
        "salian-4a: move 0706 0606\n",
        &["--scenario", &scenario, "--side", "franks"],
    );
    assert!(!out.status.success(), "{text}");
    assert!(text.contains(" --> orders:1:1"), "{text}");
}

#[test]
fn an_fr_ancients_scenario_checks_orders_offline_with_its_armies() {
    let scenario = path("campaigns/fr-ancients/scenarios/trebia.toml");
    let rome = format!(
        "rome={}",
        path("campaigns/fr-ancients/armies/consular-legion-218bc.toml")
    );
    let carthage = format!(
        "carthage={}",
        path("campaigns/fr-ancients/armies/hannibal-218bc.toml")
    );
    // The battle begins with the deployment round: TURN 1 checks the first phase.
    let orders = "GAME trebia SIDE rome PASSWORD x TURN 1\nRoman Cavalry: move to 23, 12\nEND\n";
    let (out, text) = check(
        orders,
        &[
            "--scenario",
            &scenario,
            "--army",
            &rome,
            "--army",
            &carthage,
            "--side",
            "rome",
        ],
    );
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Roman Cavalry"), "{text}");
    // Without its armies it says how to give them.
    let (out, text) = check(orders, &["--scenario", &scenario, "--side", "rome"]);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("--army SIDE=FILE"), "{text}");
    // Its game file names the armies.
    let game = path("campaigns/fr-ancients/games/trebia.toml");
    let (out, text) = check(orders, &["--scenario", &game, "--side", "rome"]);
    assert!(out.status.success(), "{text}");
    // A line that does not read fails the check, quoted where it goes wrong.
    let (out, text) = check(
        "GAME trebia SIDE rome PASSWORD x TURN 1\nRoman Cavalry: mvoe to 23, 12\nEND\n",
        &["--scenario", &game, "--side", "rome"],
    );
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("mvoe"), "{text}");
    // Without TURN, the first round the side writes in: the deployment.
    let (out, text) = check(
        "Roman Cavalry: move to 23, 12\n",
        &["--scenario", &game, "--side", "rome"],
    );
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("the battle has not started"), "{text}");
    let (out, text) = check(
        "Roman Cavalry: deploy at 23, 12\n",
        &["--scenario", &game, "--side", "rome"],
    );
    assert!(out.status.success(), "{text}");
    // Carthage moves second: checked against its own phase.
    let (out, text) = check(
        "GAME trebia SIDE carthage PASSWORD x TURN 1\nCarthaginian Noble Cavalry: move to 36, 36\nEND\n",
        &["--scenario", &game, "--side", "carthage"],
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Carthaginian Noble Cavalry: move to 36.0, 36.0"),
        "{text}"
    );
}
