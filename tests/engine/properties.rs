//! Invariants of simultaneous movement, on random battles:
//! - after every phase no two units overlap unless locked in melee together;
//! - no unit moves farther than its allowance;
//! - renaming units (which reorders them in storage) changes nothing.

use proptest::prelude::*;
use std::collections::BTreeMap;
use umpire::games::hyborian::adjudicate::{resolve_turn, StopAfter, TurnResult};
use umpire::games::hyborian::dice::ScriptedDice;
use umpire::games::hyborian::orders::plan::*;
use umpire::games::hyborian::rules::movement::{allowance, Pace};
use umpire::games::hyborian::rules::options::{Clock, GameOptions};
use umpire::games::hyborian::rules::Formation;
use umpire::games::hyborian::table::setup::{Setup, TableSize, UnitSetup};
use umpire::games::hyborian::table::Table;

const TYPES: [&str; 6] = ["LI", "MI", "HI", "MC", "HC", "LCH"];

#[derive(Debug, Clone)]
struct Spec {
    x: f64,
    y: f64,
    facing: f64,
    kind: usize,
    figures: u32,
    ranks: u32,
    side: bool,
    order: u8,
    param: f64,
    target: usize,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        4.0..68.0f64,
        4.0..44.0f64,
        0..8u32,
        0..TYPES.len(),
        4..20u32,
        1..4u32,
        any::<bool>(),
        0..8u8,
        0.0..1.0f64,
        0..16usize,
    )
        .prop_map(
            |(x, y, f, kind, figures, ranks, side, order, param, target)| Spec {
                x,
                y,
                facing: f as f64 * 45.0,
                kind,
                figures,
                ranks,
                side,
                order,
                param,
                target,
            },
        )
}

/// Place the units that fit (skipping any that would overlap one already placed).
fn battle(specs: &[Spec], name: impl Fn(usize) -> String) -> (Table, Vec<(usize, String)>) {
    let mut setup = Setup {
        table: TableSize {
            width: 72.0,
            depth: 48.0,
        },
        terrain: Vec::new(),
        units: Vec::new(),
    };
    let mut placed = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        let u = UnitSetup {
            id: name(i),
            side: if s.side {
                "north".into()
            } else {
                "south".into()
            },
            name: format!("Unit {i}"),
            kind: TYPES[s.kind].into(),
            class: None,
            figures: s.figures,
            original: None,
            weapons: vec![],
            traits: vec![],
            formation: Some("line".into()),
            ranks: Some(s.ranks),
            files: None,
            front: [s.x, s.y],
            facing: s.facing,
            status: None,
            attached_to: None,
            spell_points: None,
            mounted: None,
        };
        setup.units.push(u);
        if Table::from_setup(&setup).is_err() {
            setup.units.pop();
        } else {
            placed.push((i, name(i)));
        }
    }
    (Table::from_setup(&setup).unwrap(), placed)
}

fn orders(specs: &[Spec], placed: &[(usize, String)], table: &Table) -> TurnOrders {
    let mut out = TurnOrders::default();
    for (i, id) in placed {
        let s = &specs[*i];
        let me = &table.units[id];
        let enemies: Vec<&String> = placed
            .iter()
            .map(|(_, id)| id)
            .filter(|e| table.units[*e].side != me.side)
            .collect();
        let mv = |direction, wheel| {
            Function::Move(Move {
                wheel,
                direction,
                distance: Distance::Full,
                forced_march: false,
                along_road: false,
            })
        };
        let hand = if s.param < 0.5 {
            Hand::Left
        } else {
            Hand::Right
        };
        let f = match s.order {
            0 => Function::Hold,
            1 | 2 => mv(Direction::Forward, None),
            3 => mv(
                Direction::Oblique {
                    hand,
                    degrees: 45.0 * s.param,
                },
                None,
            ),
            4 => mv(
                Direction::Forward,
                Some(Wheel {
                    hand,
                    angle: WheelAngle::Degrees(60.0 * s.param),
                }),
            ),
            5 => Function::Face(FaceChange::Turn {
                hand,
                degrees: 90.0,
            }),
            _ if enemies.is_empty()
                || (me.kind.is_infantry()
                    && table.units[enemies[s.target % enemies.len()]]
                        .kind
                        .is_cavalry()) =>
            {
                mv(Direction::Forward, None)
            }
            _ => Function::Charge(Charge {
                target: ChargeTarget::Unit(enemies[s.target % enemies.len()].clone()),
                sweep: None,
                breakthrough: false,
                break_off: false,
            }),
        };
        let second = if s.order == 5 {
            Some(mv(Direction::Forward, None))
        } else {
            None
        };
        out.units.insert(
            id.clone(),
            UnitOrders {
                phase1: Some(f),
                phase2: second,
                ..Default::default()
            },
        );
    }
    out
}

fn no_overlap_unless_in_melee(r: &TurnResult) -> Result<(), String> {
    let units: Vec<_> = r.table.units.values().collect();
    for (i, a) in units.iter().enumerate() {
        for b in &units[i + 1..] {
            if a.footprint().overlaps(&b.footprint()) && !a.in_melee_with.contains(&b.id) {
                return Err(format!(
                    "{} and {} overlap by {:.4}",
                    a.id,
                    b.id,
                    a.footprint().penetration(&b.footprint())
                ));
            }
        }
    }
    Ok(())
}

fn run(table: &Table, orders: &TurnOrders, options: &GameOptions, stop: StopAfter) -> TurnResult {
    resolve_turn(table, orders, options, &mut ScriptedDice::default(), stop).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn phases_leave_no_overlaps_and_respect_allowances(specs in prop::collection::vec(spec(), 2..14), proportional in any::<bool>()) {
        let (table, placed) = battle(&specs, |i| format!("u{i:02}"));
        let o = orders(&specs, &placed, &table);
        let options = GameOptions { clock: if proportional { Clock::Proportional } else { Clock::SharedInch }, ..GameOptions::default() };
        for stop in [StopAfter::Phase1Move, StopAfter::Phase2Move] {
            let r = run(&table, &o, &options, stop);
            prop_assert!(no_overlap_unless_in_melee(&r).is_ok(), "{:?} after {stop}", no_overlap_unless_in_melee(&r));
            for (id, rec) in &r.record.units {
                let kind = table.units[id].kind;
                for p in [&rec.phase1, &rec.phase2] {
                    prop_assert!(p.distance <= allowance(kind, Formation::Line, Pace::Charge, false) + 1e-6, "{id} moved {}", p.distance);
                    if !p.charging {
                        let most = allowance(kind, Formation::Line, Pace::Normal, false).max(allowance(kind, Formation::Column, Pace::Normal, false));
                        prop_assert!(p.distance <= most + 1e-6, "{id} moved {} of {most}", p.distance);
                    }
                }
            }
        }
    }

    #[test]
    fn renaming_units_changes_nothing(specs in prop::collection::vec(spec(), 2..12)) {
        let n = specs.len();
        let (table, placed) = battle(&specs, |i| format!("u{i:02}"));
        // Reverse the storage order: unit i becomes "v{n-i}".
        let (renamed, placed2) = battle(&specs, |i| format!("v{:02}", n - i));
        let (o1, o2) = (orders(&specs, &placed, &table), orders(&specs, &placed2, &renamed));
        let options = GameOptions::default();
        let (a, b) = (run(&table, &o1, &options, StopAfter::Phase2Move), run(&renamed, &o2, &options, StopAfter::Phase2Move));
        let map: BTreeMap<&String, &String> = placed.iter().zip(&placed2).map(|((_, x), (_, y))| (x, y)).collect();
        for (old, new) in &map {
            let (u, v) = (&a.table.units[*old], &b.table.units[*new]);
            prop_assert!((u.front - v.front).length() < 1e-6 && (u.facing - v.facing).abs() < 1e-6, "{old}/{new}: {:?} vs {:?}", u.front, v.front);
            let melee: Vec<&String> = u.in_melee_with.iter().map(|m| map[m]).collect();
            let mut melee = melee.into_iter().cloned().collect::<Vec<_>>();
            melee.sort();
            prop_assert_eq!(melee, v.in_melee_with.iter().cloned().collect::<Vec<_>>());
        }
    }
}

/// Replays that survive (issue 17): three turns of the shipped ford
/// scenario, resolved from a fixed seed through the rule set as the post
/// office stores them, give events, dice and table byte for byte as the
/// golden file holds them — on every machine (the engine's maths is
/// `libm`). After a deliberate rules change, `UPDATE_GOLDEN=1 cargo test
/// --test engine_properties golden` writes the file anew; review its diff.
#[test]
fn golden_turns_replay_byte_for_byte() {
    let ruleset = umpire::games::named("hyborian-age").unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("campaigns/scenarios/river-crossing.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let options = toml::Table::new();
    let setup = umpire::games::Setup {
        scenario_path: &path,
        scenario_text: &text,
        options: &options,
        max_turns: 12,
        seed: [7; 32],
        armies: &Default::default(),
        pack: None,
        companions: &Default::default(),
    };
    let game = ruleset.new_game(&setup).unwrap();
    let sheets = [
        [("aquilonia", "Bossonian Archers: phase 1 move 6\nBlack Dragons: phase 1 move 6; phase 2 face right 45"), ("nemedia", "Nemedian Adventurers: phase 1 move 10; phase 2 face left 45\nNemedian Spearmen: phase 1 move 4")],
        [("aquilonia", "Bossonian Archers: phase 1 hold\nAquilonian Foot: phase 1 move full"), ("nemedia", "Nemedian Adventurers: phase 1 charge Bossonian Archers\nNemedian Knights: phase 1 move 8")],
        [("aquilonia", "Black Dragons: phase 1 charge Nemedian Knights"), ("nemedia", "Nemedian Knights: phase 1 charge Black Dragons")],
    ];
    let mut state = game.state.clone();
    let mut record = Vec::new();
    for (turn, sides) in sheets.iter().enumerate() {
        let mut orders = BTreeMap::new();
        for (side, sheet) in sides {
            let checked = ruleset.check_orders(&state, side, sheet, &[]).unwrap();
            assert_eq!(
                checked.errors,
                0,
                "turn {}: {}",
                turn + 1,
                checked.confirmation
            );
            orders.insert(side.to_string(), checked.orders);
        }
        let mut dice = umpire::dice::SeededDice::new([turn as u8 + 1; 32]);
        let resolved = ruleset
            .resolve(umpire::games::RoundInput {
                state: &state,
                options: &game.options,
                setup: &text,
                last_turn: 12,
                orders: &orders,
                dice: &mut dice,
            })
            .unwrap();
        record.push(serde_json::json!({ "turn": turn + 1, "events": resolved.events, "dice": resolved.dice, "state": ruleset.canonical(&resolved.state).unwrap() }));
        state = resolved.state;
    }
    let now = serde_json::to_string_pretty(&record).unwrap() + "\n";
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/golden/river-crossing-3-turns.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &now).unwrap();
    }
    let kept =
        std::fs::read_to_string(&golden).expect("the golden file (UPDATE_GOLDEN=1 writes it)");
    if kept != now {
        let line = kept
            .lines()
            .zip(now.lines())
            .position(|(a, b)| a != b)
            .map_or(kept.lines().count().min(now.lines().count()), |i| i);
        panic!(
            "the three turns no longer replay as stored: first difference at line {} of {}\n  stored: {}\n  now:    {}",
            line + 1,
            golden.display(),
            kept.lines().nth(line).unwrap_or("(end)"),
            now.lines().nth(line).unwrap_or("(end)")
        );
    }
}
