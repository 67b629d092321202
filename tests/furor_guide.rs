//! Every example of the Furor Barbarus players' guide
//! (docs/furor-barbarus/guide.md) is read and checked on the scenario it
//! names: ```orders blocks without a single refused line, ```orders-error
//! blocks with at least one. A block's info string is
//! `orders SCENARIO SIDE [UNIT=HEX …]`: the side writing (it plays first, so
//! its moves and attacks are read), and counters moved before the example.

use std::collections::BTreeMap;
use umpire::games::furor::orders::check::check;
use umpire::games::furor::orders::confirm::confirmation;
use umpire::games::furor::options::Options;
use umpire::games::furor::scenario::shipped;

fn blocks(guide: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in guide.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) if info.starts_with("orders") => current = Some((info.to_string(), String::new())),
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
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/furor-barbarus/guide.md")).unwrap();
    let examples = blocks(&guide);
    assert!(examples.len() >= 8, "only {} examples", examples.len());
    for (info, text) in examples {
        let words: Vec<&str> = info.split_whitespace().collect();
        let (kind, scenario, side) = (words[0], words[1], words[2]);
        let moved: BTreeMap<&str, &str> = words[3..].iter().filter_map(|w| w.split_once('=')).collect();
        let s = shipped(scenario).unwrap();
        let mut board = s.start(&Options::default(), &Default::default(), &side.into()).unwrap();
        for (u, h) in &moved {
            board.get_mut(&(*u).into()).hex = Some(h.parse().unwrap());
        }
        assert!(board.stacking_problems().is_empty(), "{info}");
        let c = check(&text, &side.into(), &board, &Options::default());
        let shown = confirmation(&text, &c, &board);
        match kind {
            "orders" => assert!(!c.has_errors(), "guide example '{info}' is refused:\n{text}\n{shown}"),
            "orders-error" => assert!(c.has_errors(), "guide example '{info}' should show an error:\n{text}"),
            other => panic!("unknown block {other}"),
        }
        assert!(!c.understood.is_empty() || kind == "orders-error", "{info}: nothing understood");
    }
}
