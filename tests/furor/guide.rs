//! Every example of the Furor Barbarus players' guide
//! (docs/furor-barbarus/guide.md) is read and checked on the scenario it
//! names: ```orders blocks without a single refused line, ```orders-error
//! blocks with at least one. A block's info string is
//! `orders SCENARIO SIDE [UNIT=HEX …]`: the side writing (it plays first, so
//! its moves and attacks are read), and counters moved before the example.
//! ```orders-setup SCENARIO SIDE blocks (and -error) are the side's
//! placements in its set-up round.

use std::collections::BTreeMap;
use umpire::games::furor::options::Options;
use umpire::games::furor::orders::check::check;
use umpire::games::furor::orders::confirm::confirmation;
use umpire::games::furor::orders::setup::{self, check_setup};
use umpire::games::furor::scenario::shipped;

fn blocks(guide: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in guide.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) if info.starts_with("orders") => {
                current = Some((info.to_string(), String::new()))
            }
            (Some(_), Some(_)) => out.push(current.take().expect("a block")),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_example_in_the_guide_is_understood() {
    let guide = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/furor-barbarus/guide.md"
    ))
    .unwrap();
    let examples = blocks(&guide);
    assert!(examples.len() >= 8, "only {} examples", examples.len());
    for (info, text) in examples {
        let words: Vec<&str> = info.split_whitespace().collect();
        let (kind, scenario, side) = (words[0], words[1], words[2]);
        let moved: BTreeMap<&str, &str> = words[3..]
            .iter()
            .filter_map(|w| w.split_once('='))
            .collect();
        let s = shipped(scenario).unwrap();
        if let Some(kind) = kind.strip_prefix("orders-setup") {
            let listed = s
                .start(&Options::default(), &Default::default(), &side.into())
                .unwrap();
            let c = check_setup(&text, &side.into(), &s, &Options::default(), &listed);
            let shown = setup::confirmation(&text, &c, &listed);
            match kind {
                "" => assert!(
                    !c.has_errors() && !c.understood.is_empty(),
                    "guide example '{info}' is refused:\n{text}\n{shown}"
                ),
                "-error" => assert!(
                    c.has_errors(),
                    "guide example '{info}' should show an error:\n{text}\n{shown}"
                ),
                other => panic!("unknown block orders-setup{other}"),
            }
            continue;
        }
        let mut board = s
            .start(&Options::default(), &Default::default(), &side.into())
            .unwrap();
        for (u, h) in &moved {
            board.get_mut(&(*u).into()).hex = Some(h.parse().unwrap());
        }
        assert!(board.stacking_problems().is_empty(), "{info}");
        let c = check(&text, &side.into(), &board, &Options::default());
        let shown = confirmation(&text, &c, &board);
        match kind {
            "orders" => assert!(
                !c.has_errors(),
                "guide example '{info}' is refused:\n{text}\n{shown}"
            ),
            "orders-error" => assert!(
                c.has_errors(),
                "guide example '{info}' should show an error:\n{text}"
            ),
            other => panic!("unknown block {other}"),
        }
        assert!(
            !c.understood.is_empty() || kind == "orders-error",
            "{info}: nothing understood"
        );
    }
}
