//! The movement engine driven with checked orders built directly (no
//! order text), so it is tested independently of the order language.

use glam::DVec2;
use umpire::games::hyborian::adjudicate::{resolve_turn, Event, StopAfter, TurnResult};
use umpire::games::hyborian::dice::ScriptedDice;
use umpire::games::hyborian::orders::plan::*;
use umpire::games::hyborian::rules::options::{Clock, GameOptions};
use umpire::games::hyborian::table::{setup::Setup, Table};

fn table(units: &str) -> Table {
    let text = format!("[table]\nwidth = 72.0\ndepth = 48.0\n{units}");
    Table::from_setup(&toml::from_str::<Setup>(&text).unwrap()).unwrap()
}

fn unit(
    id: &str,
    side: &str,
    kind: &str,
    figures: u32,
    shape: &str,
    front: [f64; 2],
    facing: f64,
) -> String {
    format!(
        "[[unit]]\nid = \"{id}\"\nside = \"{side}\"\nname = \"{id}\"\ntype = \"{kind}\"\nfigures = {figures}\n{shape}\nfront = [{}, {}]\nfacing = {facing}\n",
        front[0], front[1]
    )
}

fn run(
    t: &Table,
    orders: Vec<(&str, UnitOrders)>,
    options: &GameOptions,
    stop: StopAfter,
) -> TurnResult {
    let orders = TurnOrders {
        units: orders
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    };
    resolve_turn(t, &orders, options, &mut ScriptedDice::default(), stop).unwrap()
}

fn p1(f: Function) -> UnitOrders {
    UnitOrders {
        phase1: Some(f),
        ..Default::default()
    }
}

fn mv(d: Distance) -> Function {
    Function::Move(Move {
        wheel: None,
        direction: Direction::Forward,
        distance: d,
        forced_march: false,
        along_road: false,
    })
}

fn charge(target: &str) -> Function {
    Function::Charge(Charge {
        target: ChargeTarget::Unit(target.into()),
        sweep: None,
        breakthrough: false,
        break_off: false,
    })
}

fn near(a: DVec2, b: [f64; 2]) -> bool {
    (a - DVec2::from(b)).length() < 0.05
}

#[test]
fn straight_full_move() {
    let t = table(&unit(
        "spears",
        "turan",
        "MI",
        24,
        "formation = \"line\"\nranks = 3",
        [30.0, 10.0],
        0.0,
    ));
    let r = run(
        &t,
        vec![("spears", p1(mv(Distance::Full)))],
        &GameOptions::default(),
        StopAfter::Phase1Move,
    );
    assert!(
        near(r.table.units["spears"].front, [30.0, 16.0]),
        "{:?}",
        r.table.units["spears"].front
    );
    let rec = r.record.unit("spears").unwrap();
    assert_eq!(rec.phase1.distance, 6.0);
    assert!(rec.moved_this_turn() && rec.phase1.moved && !rec.phase1.changed_face);
    assert_eq!(
        rec.phase1.path.first().unwrap().front,
        DVec2::new(30.0, 10.0)
    );
    assert_eq!(
        rec.phase1.path.last().unwrap().front,
        DVec2::new(30.0, 16.0)
    );
    assert!(r
        .events
        .iter()
        .any(|e| e.to_string() == "spears moved 6 inches."));
}

#[test]
fn head_on_charge_meets_at_the_shared_clock() {
    // Heavy cavalry (charge 18) and medium infantry (10) 20 inches apart, aligned.
    let units = unit(
        "hc",
        "a",
        "HC",
        8,
        "formation = \"line\"\nranks = 1",
        [30.0, 10.0],
        0.0,
    ) + &unit(
        "mi",
        "b",
        "MI",
        24,
        "formation = \"line\"\nranks = 2",
        [30.0, 30.0],
        180.0,
    );
    let t = table(&units);
    let r = run(
        &t,
        vec![("hc", p1(charge("mi"))), ("mi", p1(mv(Distance::Full)))],
        &GameOptions::default(),
        StopAfter::Phase1Move,
    );
    // Both move 1 inch per clock inch: they meet after 10 inches each... but the
    // infantry's move is only 6, so the cavalry meets it at y = 24.
    let hc = &r.table.units["hc"];
    assert!(near(hc.front, [30.0, 24.0]), "{:?}", hc.front);
    assert!(hc.in_melee_with.contains("mi"));
    assert!(r.record.unit("hc").unwrap().charge_contact);
    assert!(r
        .events
        .iter()
        .any(|e| matches!(e, Event::Contact { unit, .. } if unit == "hc")));
}

#[test]
fn proportional_clock_is_an_option() {
    let units = unit(
        "hc",
        "a",
        "HC",
        8,
        "formation = \"line\"\nranks = 1",
        [30.0, 10.0],
        0.0,
    ) + &unit(
        "mi",
        "b",
        "MI",
        24,
        "formation = \"line\"\nranks = 2",
        [30.0, 30.0],
        180.0,
    );
    let t = table(&units);
    let opts = GameOptions {
        clock: Clock::Proportional,
        ..GameOptions::default()
    };
    let r = run(
        &t,
        vec![("hc", p1(charge("mi"))), ("mi", p1(mv(Distance::Full)))],
        &opts,
        StopAfter::Phase1Move,
    );
    // Gap 20, closing at 18 + 6 per phase: meet at τ = 20/24, cavalry after 15 inches.
    assert!(
        near(r.table.units["hc"].front, [30.0, 25.0]),
        "{:?}",
        r.table.units["hc"].front
    );
}

#[test]
fn a_unit_meeting_a_friend_stops() {
    let units = unit(
        "back",
        "a",
        "MI",
        12,
        "formation = \"line\"\nranks = 2",
        [30.0, 10.0],
        0.0,
    ) + &unit(
        "front",
        "a",
        "MI",
        12,
        "formation = \"line\"\nranks = 2",
        [30.0, 15.0],
        0.0,
    );
    let t = table(&units);
    let r = run(
        &t,
        vec![("back", p1(mv(Distance::Full)))],
        &GameOptions::default(),
        StopAfter::Phase1Move,
    );
    // The front rank of `back` stops at the rear of `front` (y = 13).
    assert!(
        near(r.table.units["back"].front, [30.0, 13.0]),
        "{:?}",
        r.table.units["back"].front
    );
    assert!(r.table.units["back"].in_melee_with.is_empty());
}

#[test]
fn turn_counter_advances_only_at_end_of_turn() {
    let t = table(&unit(
        "spears",
        "turan",
        "MI",
        24,
        "formation = \"line\"\nranks = 3",
        [30.0, 10.0],
        0.0,
    ));
    assert_eq!(
        run(&t, vec![], &GameOptions::default(), StopAfter::Phase2Fire)
            .table
            .turn,
        1
    );
    assert_eq!(
        run(&t, vec![], &GameOptions::default(), StopAfter::Turn)
            .table
            .turn,
        2
    );
}

#[test]
fn a_turn_reads_as_sentences() {
    let units = unit(
        "dragons",
        "aquilonia",
        "HC",
        8,
        "formation = \"line\"\nranks = 1",
        [30.0, 10.0],
        0.0,
    ) + &unit(
        "foot",
        "nemedia",
        "MI",
        24,
        "formation = \"line\"\nranks = 3",
        [30.0, 20.0],
        180.0,
    ) + &unit(
        "skirm",
        "pictland",
        "LI",
        12,
        "formation = \"line\"\nranks = 2",
        [60.0, 30.0],
        180.0,
    ) + &unit(
        "riders",
        "aquilonia",
        "MC",
        6,
        "formation = \"line\"\nranks = 1",
        [60.0, 18.0],
        0.0,
    ) + &unit(
        "spears",
        "nemedia",
        "MI",
        24,
        "formation = \"line\"\nranks = 3",
        [10.0, 30.0],
        0.0,
    );
    let t = table(&units);
    let evade = UnitOrders {
        evade_if_charged: true,
        ..Default::default()
    };
    let face = Function::Face(FaceChange::Turn {
        hand: Hand::Right,
        degrees: 90.0,
    });
    let r = run(
        &t,
        vec![
            ("dragons", p1(charge("foot"))),
            ("riders", p1(charge("skirm"))),
            ("skirm", evade),
            (
                "spears",
                UnitOrders {
                    phase1: Some(face),
                    phase2: Some(mv(Distance::Inches(4.0))),
                    ..Default::default()
                },
            ),
        ],
        &GameOptions::default(),
        // Melee (which needs dice) follows phase 2 movement.
        StopAfter::Phase2Move,
    );
    let text: Vec<String> = r.events.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        text,
        [
            "Turn 1 begins.",
            "Phase 1 movement.",
            "dragons charge foot.",
            "riders charge skirm.",
            "skirm evade the charge of riders: they turn about and fall back.",
            "dragons charged foot and struck their front after 10 inches.",
            "riders charged skirm and struck their rear after 20 inches.",
            "skirm moved 8 inches.",
            "spears faced 90° to the right (now facing 90).",
            "Phase 2 movement.",
            "spears moved 4 inches.",
        ]
    );
}

#[test]
fn moving_units_note_the_archers_whose_range_they_enter() {
    // Knights ride north past archers 11 inches to the east of their path (bow: 12).
    let units = unit(
        "hc",
        "a",
        "HC",
        4,
        "formation = \"line\"\nranks = 1",
        [20.0, 10.0],
        0.0,
    ) + &unit(
        "near",
        "b",
        "LI",
        12,
        "formation = \"line\"\nranks = 2\nweapons = [\"bow\"]",
        [32.6, 20.0],
        270.0,
    ) + &unit(
        "far",
        "b",
        "LI",
        12,
        "formation = \"line\"\nranks = 2\nweapons = [\"bow\"]",
        [60.0, 20.0],
        270.0,
    ) + &unit(
        "spears",
        "b",
        "MI",
        12,
        "formation = \"line\"\nranks = 2",
        [30.0, 40.0],
        180.0,
    );
    let t = table(&units);
    let r = run(
        &t,
        vec![("hc", p1(mv(Distance::Full)))],
        &GameOptions::default(),
        StopAfter::Phase1Move,
    );
    let seen = &r.record.unit("hc").unwrap().phase1.came_in_range_of;
    assert_eq!(seen.keys().collect::<Vec<_>>(), ["near"]);
    let near = seen["near"];
    assert!(near.closest <= 12.0 && near.closest > 9.0, "{near:?}");
    assert!(near.clock > 0.0 && near.clock < 12.0, "{near:?}");
}
