//! Magic over several turns (§10, Appendix II): spells written one turn
//! take effect the next and survive the post office's stored table; lasting
//! effects count down (ghosts fade, shields drop, sleepers wake, fire
//! spreads); the morale tests magic calls are left for the morale step.

use crate::common;
use std::collections::BTreeMap;
use umpire::games::hyborian::adjudicate::events::MagicEvent;
use umpire::games::hyborian::adjudicate::spells::spellbound;
use umpire::games::hyborian::adjudicate::{resolve_turn, Event, StopAfter, TurnResult};
use umpire::games::hyborian::orders::plan::TurnOrders;
use umpire::games::hyborian::rules::options::GameOptions;
use umpire::games::hyborian::table::{setup::Setup, EffectKind, Status, Table};

const BASE: &str = r#"
[table]
width = 72.0
depth = 48.0

[[terrain]]
kind = "woods"
points = [[28.0, 20.0], [46.0, 20.0], [46.0, 34.0], [28.0, 34.0]]

[[unit]]
id = "thoth"
side = "stygia"
name = "Thoth-Amon"
type = "wizard"
class = "A"
figures = 1
front = [36.0, 6.0]
facing = 0
spell_points = 500

[[unit]]
id = "sp"
side = "stygia"
name = "Stygian Spearmen"
type = "MI"
class = "B"
figures = 24
formation = "line"
ranks = 2
front = [10.0, 6.0]
facing = 0

[[unit]]
id = "pict"
side = "aquilonia"
name = "Pictish Skirmishers"
type = "LI"
class = "B"
figures = 24
formation = "column"
files = 3
front = [40.0, 20.2]
facing = 180

[[unit]]
id = "nb"
side = "aquilonia"
name = "Cimmerian Warband"
type = "MI"
class = "B"
figures = 24
formation = "line"
ranks = 2
traits = ["northern-barbarian"]
front = [60.0, 14.0]
facing = 180

[[unit]]
id = "far"
side = "aquilonia"
name = "Gunderman Pikes"
type = "MI"
class = "B"
figures = 24
formation = "line"
ranks = 2
front = [64.0, 40.0]
facing = 180
"#;

fn table() -> Table {
    let setup: Setup = toml::from_str(BASE).unwrap();
    Table::from_setup(&setup).unwrap()
}

fn orders(table: &Table, side: &str, text: &str) -> TurnOrders {
    let checked = umpire::games::hyborian::orders::check_side(text, side, table);
    assert!(
        checked.rejected.is_empty(),
        "refused: {:?}",
        checked.diagnostics
    );
    checked.orders
}

fn play(table: &Table, orders: &TurnOrders, dice: &[(&str, u8)]) -> TurnResult {
    let map: BTreeMap<String, u8> = dice.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let mut d = common::SteadyDice::new(map);
    let r = resolve_turn(
        table,
        orders,
        &GameOptions::default(),
        &mut d,
        StopAfter::Turn,
    )
    .unwrap();
    assert!(
        d.0.unused_keys().is_empty(),
        "unused dice: {:?}",
        d.0.unused_keys()
    );
    r
}

/// What the post office does between turns: store the table as JSON and read it back.
fn stored(t: &Table) -> Table {
    serde_json::from_str(&serde_json::to_string(t).unwrap()).unwrap()
}

fn magic(events: &[Event]) -> Vec<&MagicEvent> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Magic(m) => Some(m),
            _ => None,
        })
        .collect()
}

#[test]
fn a_spell_written_this_turn_takes_effect_next_turn() {
    let t1 = table();
    let o = orders(
        &t1,
        "stygia",
        "Thoth-Amon: cast Sword of Fire at Cimmerian Warband",
    );
    let after1 = play(&t1, &o, &[]);
    assert_eq!(
        after1.table.units["nb"].figures, 24,
        "nothing happens the turn it is written"
    );
    assert_eq!(after1.table.pending_spells.len(), 1);
    assert_eq!(
        after1.table.units["thoth"].spell_points,
        Some(500),
        "points are spent when cast"
    );
    let t2 = stored(&after1.table);
    let after2 = play(
        &t2,
        &TurnOrders::default(),
        &[("spell:thoth:1", 50), ("d6:nb:sword", 4)],
    );
    assert_eq!(after2.table.units["nb"].figures, 22);
    assert_eq!(after2.table.units["thoth"].spell_points, Some(475));
    assert!(after2.table.pending_spells.is_empty());
}

#[test]
fn points_promised_last_turn_count_when_writing_this_turn() {
    let mut t = table();
    t.units.get_mut("thoth").unwrap().spell_points = Some(40);
    let o = orders(
        &t,
        "stygia",
        "Thoth-Amon: cast Sword of Fire at Cimmerian Warband",
    );
    let after = play(&t, &o, &[]);
    let checked = umpire::games::hyborian::orders::check_side(
        "Thoth-Amon: cast Sword of Fire at Cimmerian Warband",
        "stygia",
        &after.table,
    );
    assert_eq!(checked.rejected, vec!["thoth".to_string()]);
    let msg = checked
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(msg.contains("has 15 left"), "{msg}");
}

#[test]
fn a_wizard_slain_before_his_spell_takes_effect_casts_nothing() {
    let mut t = table();
    t.pending_spells
        .push(umpire::games::hyborian::table::PendingSpell {
            caster: "thoth".into(),
            spell: umpire::games::hyborian::rules::magic::Spell::SwordOfFire,
            target: umpire::games::hyborian::table::SpellTarget::Unit("nb".into()),
            written: 0,
        });
    t.units.get_mut("thoth").unwrap().status = Status::Eliminated;
    let after = play(&t, &TurnOrders::default(), &[]);
    assert_eq!(after.table.units["nb"].figures, 24);
    assert!(matches!(
        magic(&after.events)[0],
        MagicEvent::SpellLost { .. }
    ));
}

/// The modifier a spell gave `unit`'s morale test this turn, if it tested for magic.
fn magic_modifier(events: &[Event], unit: &str) -> Option<i32> {
    events.iter().find_map(|e| match e {
        Event::MoraleTested {
            unit: u, modifiers, ..
        } if u == unit => modifiers
            .iter()
            .find(|(name, _)| name == "magic (Sword of Fire)")
            .map(|(_, v)| *v),
        _ => None,
    })
}

#[test]
fn morale_calls_for_target_neighbours_and_northern_barbarians() {
    let mut t = table();
    // A unit within 6 inches of the warband.
    t.units.get_mut("far").unwrap().front = glam::DVec2::new(60.0, 22.0);
    let o = orders(
        &t,
        "stygia",
        "Thoth-Amon: cast Sword of Fire at Cimmerian Warband",
    );
    let t2 = play(&t, &o, &[]).table;
    let after = play(
        &t2,
        &TurnOrders::default(),
        &[("spell:thoth:1", 50), ("d6:nb:sword", 4)],
    );
    // The morale step takes the calls the spell left (ruling S-3, M-1):
    // each shows as a modifier "magic (Sword of Fire)" on the unit's test.
    assert_eq!(
        magic_modifier(&after.events, "nb"),
        Some(-20),
        "Northern Barbarians fear magic aimed at them"
    );
    assert_eq!(magic_modifier(&after.events, "far"), Some(-10));
    assert_eq!(
        magic_modifier(&after.events, "pict"),
        None,
        "the Picts are more than 6 inches away"
    );
    assert_eq!(
        magic_modifier(&after.events, "thoth"),
        None,
        "single figures do not test"
    );
}

#[test]
fn northern_barbarians_near_magic_test_at_minus_twenty() {
    let mut t = table();
    t.units.get_mut("nb").unwrap().front = glam::DVec2::new(36.0, 40.0);
    t.units.get_mut("far").unwrap().front = glam::DVec2::new(36.0, 34.0);
    let o = orders(
        &t,
        "stygia",
        "Thoth-Amon: cast Sword of Fire at Gunderman Pikes",
    );
    let t2 = play(&t, &o, &[]).table;
    let after = play(
        &t2,
        &TurnOrders::default(),
        &[("spell:thoth:1", 50), ("d6:far:sword", 4)],
    );
    assert_eq!(
        magic_modifier(&after.events, "nb"),
        Some(-20),
        "ruling S-3: Northern Barbarians −20 within 6 inches too"
    );
}

#[test]
fn rain_calls_no_tests_and_shield_lasts_three_turns() {
    let t = table();
    let o = orders(
        &t,
        "stygia",
        "Thoth-Amon: cast Rain Demon at (60, 18)\nThoth-Amon: cast Shield of Air",
    );
    let mut tbl = play(&t, &o, &[]).table;
    let after = play(&tbl, &TurnOrders::default(), &[("spell:thoth:1", 50)]);
    assert!(after
        .record
        .units
        .values()
        .all(|r| r.morale_calls.is_empty()));
    tbl = after.table;
    let shielded = |t: &Table| {
        t.effects
            .iter()
            .any(|e| e.is_active() && matches!(e.kind, EffectKind::ShieldOfAir { .. }))
    };
    assert!(shielded(&tbl));
    let rain: Vec<_> = tbl
        .effects
        .iter()
        .filter(|e| matches!(e.kind, EffectKind::Rain { .. }))
        .collect();
    assert_eq!(rain.len(), 1, "the rain stays for the turn's picture");
    assert!(!rain[0].is_active(), "rain lasts one turn");
    for turn in 0..2 {
        tbl = play(&tbl, &TurnOrders::default(), &[]).table;
        assert_eq!(shielded(&tbl), turn == 0, "after turn {}", tbl.turn - 1);
    }
}

#[test]
fn ghosts_fade_after_four_turns() {
    let t = table();
    let o = orders(&t, "stygia", "Thoth-Amon: cast Army of Ghosts at (20, 16)");
    let mut tbl = play(&t, &o, &[]).table;
    tbl = play(&tbl, &TurnOrders::default(), &[("spell:thoth:1", 70)]).table;
    let ghosts = tbl
        .units
        .values()
        .find(|u| u.name == "Ghosts of Thoth-Amon")
        .unwrap()
        .clone();
    assert_eq!(
        (ghosts.figures, ghosts.class),
        (24, umpire::games::hyborian::rules::Class::A)
    );
    assert_eq!(
        ghosts.kind,
        umpire::games::hyborian::rules::UnitType::LightInfantry
    );
    assert_eq!(ghosts.side, "stygia");
    for _ in 0..2 {
        tbl = stored(&play(&tbl, &TurnOrders::default(), &[]).table);
        assert_eq!(tbl.units[&ghosts.id].status, Status::Ready);
    }
    let last = play(&tbl, &TurnOrders::default(), &[]);
    assert_eq!(last.table.units[&ghosts.id].status, Status::Eliminated);
    assert!(last
        .events
        .iter()
        .any(|e| e.to_string() == "Ghosts of Thoth-Amon fade away."));
}

#[test]
fn fire_spreads_two_inches_a_turn_until_rain_puts_it_out() {
    let t = table();
    let o = orders(
        &t,
        "stygia",
        "Thoth-Amon: cast Wall of Fire along (30, 20) to (42, 20)",
    );
    let mut tbl = play(&t, &o, &[]).table;
    // Turn 2: lit; ranks within 2 inches (the first two of eight) burn: 6 of 24 in the fire, 3 die.
    let r = play(&tbl, &TurnOrders::default(), &[("spell:thoth:1", 70)]);
    assert_eq!(r.table.units["pict"].figures, 21);
    tbl = stored(&r.table);
    // Turn 3: 4 inches; the unit now has 21 figures over 24 places.
    let r = play(&tbl, &TurnOrders::default(), &[]);
    assert!(r.table.units["pict"].figures < 21);
    let reach = r.table.effects.iter().find_map(|e| match e.kind {
        EffectKind::WoodsFire { reach, .. } => Some(reach),
        _ => None,
    });
    assert_eq!(reach, Some(4.0));
    tbl = r.table;
    let o = orders(&tbl, "stygia", "Thoth-Amon: cast Rain Demon at (36, 22)");
    tbl = play(&tbl, &o, &[]).table;
    let before = tbl.units["pict"].figures;
    let r = play(&tbl, &TurnOrders::default(), &[("spell:thoth:1", 70)]);
    assert_eq!(
        r.table.units["pict"].figures, before,
        "the rain put the fire out"
    );
    assert!(!r
        .table
        .effects
        .iter()
        .any(|e| matches!(e.kind, EffectKind::WoodsFire { .. })));
}

#[test]
fn the_slumber_ends_after_its_die_of_turns() {
    let src = format!(
        "{BASE}\n[[unit]]\nid = \"gallan\"\nside = \"aquilonia\"\nname = \"Sir Gallan\"\ntype = \"hero\"\nfigures = 1\nfront = [60.0, 14.0]\nfacing = 180\nattached_to = \"nb\"\n"
    );
    let setup: Setup = toml::from_str(&src).unwrap();
    let t = Table::from_setup(&setup).unwrap();
    let o = orders(&t, "stygia", "Thoth-Amon: cast Black Slumber at Sir Gallan");
    let mut tbl = play(&t, &o, &[]).table;
    tbl = play(
        &tbl,
        &TurnOrders::default(),
        &[("spell:thoth:1", 70), ("d6:gallan:slumber", 2)],
    )
    .table;
    assert!(spellbound(&tbl, "gallan"));
    tbl = play(&tbl, &TurnOrders::default(), &[]).table;
    assert!(!spellbound(&tbl, "gallan"));
}

#[test]
fn the_calling_is_made_once_a_battle() {
    let src = BASE
        .replace("name = \"Thoth-Amon\"", "name = \"White Druids\"")
        .replace("spell_points = 500", "spell_points = 150");
    let setup: Setup = toml::from_str(&src).unwrap();
    let mut t = Table::from_setup(&setup).unwrap();
    // No prey: the beasts stay where they enter, and no melee dice fall.
    t.units.retain(|_, u| u.side == "stygia");
    let o = orders(&t, "stygia", "White Druids: cast The Calling at (45, 30)");
    let tbl = play(&t, &o, &[]).table;
    let o = orders(&tbl, "stygia", "White Druids: cast The Calling at (30, 30)");
    let r = play(&tbl, &o, &[("spell:thoth:1", 80), ("spell:thoth:2", 60)]);
    assert!(r
        .table
        .units
        .values()
        .any(|u| u.name == "Wolves of White Druids"));
    let r = play(&r.table, &TurnOrders::default(), &[("spell:thoth:1", 80)]);
    assert!(magic(&r.events)
        .iter()
        .any(|m| m.to_string()
            == "White Druids' Calling is lost: the Calling is made once a battle."));
}

#[test]
fn an_old_stored_table_without_magic_reads() {
    let mut v: serde_json::Value = serde_json::to_value(table()).unwrap();
    for k in ["pending_spells", "effects", "once_cast"] {
        v.as_object_mut().unwrap().remove(k);
    }
    let t: Table = serde_json::from_value(v).unwrap();
    assert!(t.pending_spells.is_empty() && t.effects.is_empty());
}

#[test]
fn magic_reads_as_sentences() {
    let t = table();
    let o = orders(
        &t,
        "stygia",
        "Thoth-Amon: cast Sword of Fire at Cimmerian Warband",
    );
    let t2 = play(&t, &o, &[]).table;
    let r = play(
        &t2,
        &TurnOrders::default(),
        &[("spell:thoth:1", 57), ("d6:nb:sword", 4)],
    );
    let text: Vec<String> = magic(&r.events).iter().map(|m| m.to_string()).collect();
    assert_eq!(
        text,
        vec![
            "Thoth-Amon cast the Sword of Fire at Cimmerian Warband: roll 57, it works (475 points left).",
            "The Sword of Fire struck Cimmerian Warband's flank as a charge by 3 heavy cavalry: die 4, charge +2, flank attack +1 = 7; 2 casualties.",
            "Cimmerian Warband must test morale at -20% (the Sword of Fire, aimed at them).",
        ]
    );
}

#[test]
fn the_report_tells_the_spells_and_the_picture_draws_them() {
    let src = format!(
        "{BASE}\n[[terrain]]\nkind = \"hill\"\ncontours = 2\npoints = [[50.0, 30.0], [70.0, 30.0], [70.0, 40.0], [50.0, 40.0]]\n"
    );
    let setup: Setup = toml::from_str(&src).unwrap();
    let t = Table::from_setup(&setup).unwrap();
    let o = orders(
        &t,
        "stygia",
        "Thoth-Amon: cast Wall of Fire along (30, 20) to (42, 20)\n\
         Thoth-Amon: cast Earth-Shaker along (4, 30) to (20, 30)\n\
         Thoth-Amon: cast Rain Demon at (10, 40)\n\
         Thoth-Amon: cast Earth-Demon at (56, 29)\n\
         Thoth-Amon: cast Shield of Air",
    );
    let t2 = play(&t, &o, &[]).table;
    let r = play(
        &t2,
        &TurnOrders::default(),
        &[
            ("spell:thoth:1", 60),
            ("spell:thoth:2", 60),
            ("spell:thoth:3", 60),
            ("spell:thoth:4", 60),
        ],
    );
    let (sections, dice) = umpire::games::hyborian::report::story(&r.events);
    let titles: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(titles.first(), Some(&"Spells take effect"));
    assert_eq!(titles.last(), Some(&"Magic at the end of the turn"));
    assert!(dice.contains(&"spell:thoth:4 = 60".to_string()));
    let first = &sections[0].lines;
    assert!(first.iter().any(|l| l == "Thoth-Amon cast the Shield of Air on himself: it never fails, it works (245 points left)."), "{first:#?}");
    assert!(
        first
            .iter()
            .any(|l| l.starts_with("The earth slid off the hill near (56.0, 29.0)")),
        "{first:#?}"
    );
    let svg = umpire::games::hyborian::report::picture::svg(Some(&t2), &r.table, &[], "turn 2");
    for mark in [
        "#e74c3c",
        "#6e2c00",
        "#5dade2",
        "#a0522d",
        "clip-path=\"url(#fire",
        "r=\"14\"",
    ] {
        assert!(svg.contains(mark), "picture lacks {mark}");
    }
    assert!(umpire::report::picture::png(&svg)
        .unwrap()
        .starts_with(b"\x89PNG"));
}

mod invariants {
    use super::*;
    use glam::DVec2;
    use proptest::prelude::*;
    use umpire::games::hyborian::dice::SeededDice;
    use umpire::games::hyborian::rules::magic::Spell;
    use umpire::games::hyborian::rules::magic::{SPECIAL_SPELLS, SPELLS};
    use umpire::games::hyborian::table::PendingSpell;
    use umpire::games::hyborian::table::SpellTarget;

    fn spell() -> impl Strategy<Value = Spell> {
        (0..SPELLS.len() + SPECIAL_SPELLS.len()).prop_map(|i| {
            SPELLS
                .iter()
                .chain(SPECIAL_SPELLS.iter())
                .nth(i)
                .copied()
                .unwrap()
        })
    }

    fn target() -> impl Strategy<Value = SpellTarget> {
        let p = || (0.0..72.0f64, 0.0..48.0f64).prop_map(|(x, y)| DVec2::new(x, y));
        prop_oneof![
            prop::sample::select(vec!["thoth", "sp", "pict", "nb", "far"])
                .prop_map(|id| SpellTarget::Unit(id.to_string())),
            p().prop_map(SpellTarget::Point),
            (p(), p()).prop_map(|(a, b)| SpellTarget::Line(a, b)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever is cast at whatever, over three turns: no panic, no
        /// unit gains figures, and points only go down.
        #[test]
        fn magic_never_breaks_the_table(
            spells in prop::collection::vec((spell(), target()), 1..5),
            seed in any::<[u8; 32]>(),
        ) {
            let mut t = table();
            for (spell, target) in spells {
                t.pending_spells.push(PendingSpell { caster: "thoth".into(), spell, target, written: 0 });
            }
            let mut dice = SeededDice::new(seed);
            for _ in 0..3 {
                let r = resolve_turn(&t, &TurnOrders::default(), &GameOptions::default(), &mut dice, StopAfter::Turn).unwrap();
                for (id, u) in &t.units {
                    prop_assert!(r.table.units[id].figures <= u.figures, "{id} gained figures");
                }
                prop_assert!(r.table.units["thoth"].spell_points <= t.units["thoth"].spell_points);
                for e in &r.events {
                    prop_assert!(!e.to_string().is_empty());
                }
                t = stored(&r.table);
            }
        }
    }
}
