//! Whole turn reports of the shipped scenarios, snapshot-tested (insta):
//! what players read, reviewed as text with `cargo insta review`. Each
//! scenario is played for two turns through the rule-set boundary with
//! fixed seeds and every unit ordered forward, the report built as the post
//! office builds it (with a fixed frame: no clock, no random seed).

use std::collections::BTreeMap;
use umpire::dice::SeededDice;
use umpire::games::{ruleset, RoundInput, Setup};
use umpire::report::RoundReport;

fn play(file: &str, turns: u32) -> String {
    let path = format!("{}/campaigns/scenarios/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let rs = ruleset("hyborian-age").unwrap();
    let new = rs
        .new_game(&Setup {
            scenario_path: std::path::Path::new(&path),
            scenario_text: &text,
            options: &toml::Table::new(),
            max_turns: 12,
            seed: [3; 32],
            armies: &Default::default(),
            pack: None,
            companions: &Default::default(),
        })
        .unwrap();
    let mut out = String::new();
    let mut state = new.state.clone();
    for n in 0..turns {
        let round = rs.round(&state).unwrap();
        let table: umpire::games::hyborian::table::Table =
            serde_json::from_value(state.clone()).unwrap();
        let mut orders = BTreeMap::new();
        for side in &round.writers {
            let sheet: String = table
                .units_of(side)
                .filter(|u| !u.kind.is_single_figure() && u.attached_to.is_none())
                .map(|u| format!("#{}: phase 1 move 6\n", u.number))
                .collect();
            let checked = rs.check_orders(&state, side, &sheet, &[]).unwrap();
            orders.insert(side.clone(), checked.orders);
        }
        let mut dice = SeededDice::new([n as u8 + 11; 32]);
        let resolved = rs
            .resolve(RoundInput {
                state: &state,
                options: &new.options,
                setup: &text,
                last_turn: new.last_turn,
                orders: &orders,
                dice: &mut dice,
            })
            .unwrap();
        let rep = RoundReport {
            ruleset: rs.name().into(),
            title: file.trim_end_matches(".toml").into(),
            game: "snap".into(),
            turn: round.number,
            label: round.label.clone(),
            seed: "SEED".into(),
            seed_hash: "HASH".into(),
            nmr: vec![],
            sections: resolved.sections,
            dice: resolved.dice,
            sides: resolved.summary,
            summary_title: resolved.summary_title,
            ended: resolved.ended,
            next_turn: round.number + 1,
            next_label: format!("turn {}", round.number + 1),
            deadline: "DEADLINE".into(),
            next_seed_hash: "NEXT".into(),
            draft: false,
            rejected_seeds: vec![],
            victory: resolved.victory,
            office: Default::default(),
            extra: resolved.extra,
        };
        out.push_str(&rep.text());
        out.push_str("\n========\n");
        state = resolved.state;
    }
    out
}

#[test]
fn border_raid_reports() {
    insta::assert_snapshot!(play("border-raid.toml", 2));
}

#[test]
fn river_crossing_reports() {
    insta::assert_snapshot!(play("river-crossing.toml", 2));
}

#[test]
fn valkia_reports() {
    insta::assert_snapshot!(play("valkia.toml", 2));
}

#[test]
fn the_marches_of_the_east_reports() {
    insta::assert_snapshot!(play("the-marches-of-the-east.toml", 2));
}
