//! Properties of the Furor Barbarus engine that tie its views together:
//! a retreat chain always ends and never stacks two units illegally; no
//! unit ever stands in an enemy's hex; and over whole random games the
//! steps and army totals on the board are exactly what the reported losses
//! say.

use proptest::prelude::*;
use std::collections::BTreeMap;
use umpire::dice::{Dice, DiceError, DieKind, SeededDice};
use umpire::games::furor::board::{Board, BoardSpec, Status, UnitId, UnitSpec};
use umpire::games::furor::events::Event;
use umpire::games::furor::hex::Hex;
use umpire::games::furor::map::{Map, MapSpec};
use umpire::games::furor::options::Options;
use umpire::games::furor::orders::{Attack, PlayerTurnOrders, Reactions};
use umpire::games::furor::scenario::{shipped, SCENARIOS};
use umpire::games::furor::sequence::{resolve, Resolution, StopAfter};
use umpire::games::furor::sparring;

/// Combat dice fixed, every other die from a list, round and round.
struct Loaded {
    combat: u8,
    others: Vec<u8>,
    next: usize,
}

impl Dice for Loaded {
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError> {
        if key.starts_with("combat:") {
            return Ok(self.combat);
        }
        let v = self.others[self.next % self.others.len()];
        self.next += 1;
        Ok(if die == DieKind::TwoD6 { v * 2 } else { v })
    }
}

fn unit(id: String, side: &str, hex: Hex, strength: i64) -> UnitSpec {
    UnitSpec {
        id,
        side: side.into(),
        kind: "infantry".into(),
        strength,
        reduced: Some(strength - 1),
        hex: Some(hex.to_string()),
        ..UnitSpec::default()
    }
}

/// No two counters break stacking, and no hex holds two sides.
fn sound(board: &Board) -> Result<(), TestCaseError> {
    prop_assert!(
        board.stacking_problems().is_empty(),
        "{:?}",
        board.stacking_problems()
    );
    Ok(())
}

/// Replaying the losses the events report over the old board gives the new
/// board's steps, and every army's total moves by the values of the units
/// reported lost.
fn losses_add_up(before: &Board, r: &Resolution) -> Result<(), TestCaseError> {
    // A unit taken off by a special rule keeps its steps but shows none.
    let shown = |u: &umpire::games::furor::board::Unit| {
        if u.status == Status::Removed {
            0
        } else {
            u.steps
        }
    };
    let mut steps: BTreeMap<UnitId, u8> = before
        .units
        .iter()
        .map(|(id, u)| (id.clone(), shown(u)))
        .collect();
    let mut lost: BTreeMap<String, u16> = before
        .sides
        .keys()
        .map(|s| (s.0.clone(), before.lost(s)))
        .collect();
    for e in &r.events {
        match e {
            Event::StepLost {
                unit, steps_left, ..
            } => {
                prop_assert_eq!(steps[unit] - 1, *steps_left, "{} lost one step", unit);
                steps.insert(unit.clone(), *steps_left);
            }
            Event::Eliminated { unit, .. } | Event::Pillaged { unit } => {
                steps.insert(unit.clone(), 0);
                let u = r.board.get(unit);
                *lost.entry(u.side.0.clone()).or_default() += u.loss_value();
            }
            Event::AlansDefect { units } => {
                for u in units {
                    steps.insert(u.clone(), 0);
                }
            }
            _ => {}
        }
    }
    for (id, u) in &r.board.units {
        prop_assert_eq!(steps[id], shown(u), "steps of {}", id);
    }
    for (side, total) in lost {
        prop_assert_eq!(
            r.board.lost(&side.as_str().into()),
            total,
            "{}'s total",
            side
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// A crowd of friends round a defender, enemies scattered among them,
    /// rivers here and there: a DR (and every morale die) always ends in a
    /// legal board.
    #[test]
    fn retreat_chains_end_and_never_stack(
        friends in proptest::collection::btree_set((3i16..=9, 3i16..=9), 0..30),
        enemies in proptest::collection::btree_set((3i16..=9, 3i16..=9), 0..10),
        rivers in proptest::collection::vec((3i16..=9, 3i16..=9, 0usize..6), 0..12),
        combat in 1u8..=6,
        others in proptest::collection::vec(1u8..=6, 1..8),
    ) {
        let d = Hex::new(6, 6);
        let a = Hex::new(6, 7);
        let mut units = vec![unit("d".into(), "romans", d, 2), unit("a".into(), "franks", a, 4)];
        for (i, (c, r)) in friends.iter().enumerate() {
            let h = Hex::new(*c, *r);
            if h != d && h != a {
                units.push(unit(format!("f{i}"), "romans", h, 3));
            }
        }
        for (i, (c, r)) in enemies.iter().enumerate() {
            let h = Hex::new(*c, *r);
            if h != d && h != a && !friends.contains(&(*c, *r)) {
                units.push(unit(format!("e{i}"), "franks", h, 2));
            }
        }
        let mut spec = MapSpec { columns: 12, rows: 12, ..MapSpec::default() };
        for (c, r, k) in rivers {
            let h = Hex::new(c, r);
            let n = h.neighbours()[k];
            spec.hexsides.push(umpire::games::furor::map::HexsideSpec { between: vec![h.to_string(), n.to_string()], feature: "river".into(), crossing: None });
        }
        let map = Map::from_spec(&spec).unwrap();
        let board = Board::from_spec(BoardSpec { map, units, players: vec!["franks".into(), "romans".into()], ..BoardSpec::default() }).unwrap();
        let orders = PlayerTurnOrders { attacks: vec![Attack::new("d", &["a"])], ..PlayerTurnOrders::default() };
        let mut dice = Loaded { combat, others, next: 0 };
        let r = resolve(&board, &orders, &Reactions::default(), &Options::default(), &mut dice, StopAfter::Combat).unwrap();
        sound(&r.board)?;
        losses_add_up(&board, &r)?;
        // Nobody moves more than once in a chain: each unit retreats or is displaced at most once per chain.
        let moved: Vec<&UnitId> = r.events.iter().filter_map(|e| match e {
            Event::Retreated { unit, .. } | Event::Displaced { unit, .. } => Some(unit),
            _ => None,
        }).collect();
        prop_assert!(moved.len() <= r.board.units.len() * 2, "{} moves", moved.len());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Whole games of every scenario between two sparring players, seeded
    /// at random: every board is sound, losses add up, and the game ends by
    /// its last turn.
    #[test]
    fn whole_games_stay_consistent(which in 0usize..4, seed in any::<[u8; 32]>()) {
        let s = shipped(SCENARIOS[which]).unwrap();
        let options = Options { commanders_role: which == 0, ..Options::default() };
        let first = s.armies.keys().next().unwrap().clone();
        let mut board = s.start(&options, &Default::default(), &first).unwrap();
        let mut turns = 0;
        while let Some(_side) = board.next_to_write() {
            let orders = sparring::orders(&board, &options);
            let mut turn_seed = seed;
            turn_seed[0] ^= turns as u8;
            let r = resolve(&board, &orders, &Reactions::default(), &options, &mut SeededDice::new(turn_seed), StopAfter::PlayerTurn).unwrap();
            sound(&r.board)?;
            losses_add_up(&board, &r)?;
            board = r.board;
            turns += 1;
            prop_assert!(turns <= 2 * usize::from(s.turns), "the game outlives its last turn");
        }
        prop_assert!(board.outcome.is_some());
    }
}
