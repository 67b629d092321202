//! Every example in the player's guide (docs/orders.md) and in the mail
//! commands every game's guide ends with (docs/mail-commands.md) reads as
//! shown.
//!
//! Fenced blocks tagged `orders` are order sheets for the sample battle
//! (`umpire::games::hyborian::orders::sample`); words after the tag adjust the check:
//! `nemedia` (written by Nemedia), `setup` (the set-up turn), `far` (the
//! enemy moved back beyond forced-march distance), `woods` (the Bossonians
//! stand in a wood), `melee` (the Black Dragons and the Gunderman Pikes
//! are locked in melee with the Nemedian Knights and Spearmen), `refused`
//! (the example shows an order the rules refuse). Blocks tagged `mail` are
//! whole mails.

use umpire::games::hyborian::orders::diagnostic::Kind;
use umpire::games::hyborian::orders::{check_side, read_sheet, sample};
use umpire::games::hyborian::table::{Terrain, TerrainKind};

struct Example {
    line: usize,
    tags: Vec<String>,
    text: String,
}

fn examples(guide: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut current: Option<Example> = None;
    for (i, line) in guide.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            match current.take() {
                Some(ex) => out.push(ex),
                None => {
                    current = Some(Example {
                        line: i + 1,
                        tags: info.split_whitespace().map(String::from).collect(),
                        text: String::new(),
                    })
                }
            }
        } else if let Some(ex) = &mut current {
            ex.text.push_str(trimmed);
            ex.text.push('\n');
        }
    }
    out
}

#[test]
fn every_example_in_the_guide_reads_as_shown() {
    let all = examples(include_str!("../../docs/orders.md"));
    let orders: Vec<&Example> = all
        .iter()
        .filter(|e| e.tags.first().map(String::as_str) == Some("orders"))
        .collect();
    let mails: Vec<&Example> = all
        .iter()
        .filter(|e| e.tags.first().map(String::as_str) == Some("mail"))
        .collect();
    assert!(
        orders.len() > 60,
        "only {} order examples found",
        orders.len()
    );
    let commands = examples(include_str!("../../docs/mail-commands.md"));
    let mails: Vec<&Example> = mails
        .into_iter()
        .chain(
            commands
                .iter()
                .filter(|e| e.tags.first().map(String::as_str) == Some("mail")),
        )
        .collect();
    assert!(mails.len() >= 7, "{} mails", mails.len());
    for ex in orders {
        let has = |t: &str| ex.tags.iter().any(|x| x == t);
        let mut table = sample::table();
        if has("setup") {
            table.turn = 0;
        }
        if has("far") {
            for u in table.units.values_mut().filter(|u| u.side == "nemedia") {
                u.front.y = 47.0;
            }
        }
        if has("melee") {
            for (a, b) in [("dragons", "knights"), ("pikes", "spears")] {
                table
                    .units
                    .get_mut(a)
                    .unwrap()
                    .in_melee_with
                    .insert(b.into());
                table
                    .units
                    .get_mut(b)
                    .unwrap()
                    .in_melee_with
                    .insert(a.into());
            }
        }
        if has("woods") {
            table.terrain.push(Terrain {
                kind: TerrainKind::Woods,
                points: vec![
                    [30.0, 5.0].into(),
                    [42.0, 5.0].into(),
                    [42.0, 15.0].into(),
                    [30.0, 15.0].into(),
                ],
            });
        }
        let side = if has("nemedia") {
            "nemedia"
        } else {
            "aquilonia"
        };
        let checked = check_side(&ex.text, side, &table);
        let syntax: Vec<_> = checked
            .diagnostics
            .iter()
            .filter(|d| matches!(d.kind, Kind::Invalid(_)))
            .collect();
        assert!(
            syntax.is_empty(),
            "guide line {}: {}\n{syntax:#?}",
            ex.line,
            ex.text
        );
        if has("refused") {
            assert!(
                !checked.rejected.is_empty(),
                "guide line {}: {} should be refused",
                ex.line,
                ex.text
            );
        } else {
            let errors: Vec<_> = checked
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render(&ex.text))
                .collect();
            assert!(
                errors.is_empty(),
                "guide line {}:\n{}",
                ex.line,
                errors.join("\n")
            );
            assert!(
                !checked.understood.is_empty(),
                "guide line {}: nothing understood",
                ex.line
            );
        }
    }
    for ex in mails {
        let env = umpire::envelope::read(&ex.text);
        assert!(
            env.diagnostics.is_empty(),
            "guide line {}: {:#?}",
            ex.line,
            env.diagnostics
        );
        let sheet = read_sheet(&env.sheet);
        assert!(
            sheet.syntax_errors.is_empty(),
            "guide line {}: {:#?}",
            ex.line,
            sheet.syntax_errors
        );
        assert!(env.header.is_some(), "guide line {}", ex.line);
    }
}
