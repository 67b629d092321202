//! The Furor Barbarus order language: sheets read and checked against a
//! real set-up (Soissons as listed), every kind of order, the diagnostics a
//! player sees, and robustness against any text.

use proptest::prelude::*;
use umpire::games::furor::board::Board;
use umpire::games::furor::options::Options;
use umpire::games::furor::orders::check::{check, Checked};
use umpire::games::furor::orders::confirm::confirmation;
use umpire::games::furor::orders::{Advance, DefenderAdvance, Evasion, Problem, Route};
use umpire::games::furor::rules::crt::Column;
use umpire::games::furor::scenario::shipped;

fn soissons(first: &str) -> Board {
    shipped("soissons")
        .unwrap()
        .start(&Options::default(), &Default::default(), &first.into())
        .unwrap()
}

fn franks(text: &str) -> (Checked, Board) {
    let b = soissons("franks");
    (check(text, &"franks".into(), &b, &Options::default()), b)
}

fn errors(c: &Checked) -> Vec<String> {
    c.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn moves_by_path_and_by_destination() {
    let (c, _) = franks("salian-4a: move 0706 0606\nSalian 3c: move to 0709\n# a comment\n");
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    assert_eq!(c.understood[0].1, "salian-4a: move 0706 0606");
    // Two routes cost 2: by 0710 and by 0809; the lower hex ids win.
    assert_eq!(c.understood[1].1, "salian-3c: move 0710 0709");
    assert!(matches!(&c.orders.moves[1].route, Route::Path(p) if p.len() == 2));
    assert_eq!(c.moves[0].to.to_string(), "0606");
    assert_eq!(c.moves[0].spent.to_string(), "2");
}

#[test]
fn a_hex_id_names_the_unit_in_it() {
    let (c, _) = franks("0806: move 0706");
    assert_eq!(c.understood[0].1, "salian-4a: move 0706");
}

#[test]
fn illegal_moves_are_refused_with_the_reason() {
    let (c, _) = franks("salian-4b: move 0707 0606 0605\nsalian-4a: move 0805 0804 0803");
    let e = errors(&c);
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].contains("enemy zone of control"), "{}", e[0]);
    assert!(
        e[1].contains("0803 holds an enemy or neutral unit"),
        "{}",
        e[1]
    );
    assert!(c.orders.moves.is_empty());
}

#[test]
fn moves_are_planned_in_the_order_written() {
    // The first move frees 0807 for the second; written the other way the second is refused.
    let (c, _) = franks("salian-4b: move 0707\nsalian-3a: move 0807");
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let (c, _) = franks("salian-3a: move 0807\nsalian-4b: move 0707");
    assert_eq!(errors(&c).len(), 1);
}

#[test]
fn unknown_names_get_a_suggestion() {
    let (c, b) = franks("Salain 4a: move 0706\nattack Palatine with salian-4a");
    let d = &c.diagnostics[0];
    assert_eq!(d.kind, Problem::UnknownUnit);
    assert_eq!(
        d.help.as_deref(),
        Some("did you mean 'Salian Franks' (salian-4a)?")
    );
    assert!(
        c.diagnostics[1]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("palatina"),
        "{:?}",
        c.diagnostics[1]
    );
    let text = "Salain 4a: move 0706";
    let shown = confirmation(text, &c, &b);
    assert!(shown.contains("--> orders:1:1"), "{shown}");
}

#[test]
fn another_armys_units_and_the_other_players_turn() {
    let (c, _) = franks("syagrius: move 0608");
    assert_eq!(c.diagnostics[0].kind, Problem::NotYours);
    let b = soissons("franks");
    let c = check(
        "legionaries-4: move 0607\nretreat palatina 0410",
        &"gallo-romans".into(),
        &b,
        &Options::default(),
    );
    assert_eq!(c.diagnostics[0].kind, Problem::NotYourTurn);
    assert_eq!(
        c.reactions.retreat.len(),
        1,
        "reactions are read at any time"
    );
}

#[test]
fn attacks_with_fire_options_and_else() {
    let text = "salian-4a: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move 0807 0707\n\
                attack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/1; advance salian-4a with commander; losses salian-4b, salian-4a\n\
                else attack palatina with salian-4b\n";
    let (c, b) = franks(text);
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let a = &c.orders.attacks[0];
    assert_eq!(a.attackers.len(), 3);
    assert!(a.fire.contains(&"archers".into()));
    assert_eq!(a.min_odds, Some(Column::ThreeOne));
    assert_eq!(a.advance, Advance::Unit("salian-4a".into()));
    assert!(a.advance_commander);
    assert_eq!(a.losses.len(), 2);
    assert!(a.otherwise.is_some());
    assert_eq!(
        c.understood[3].1,
        "attack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/1; advance salian-4a with commander; losses salian-4b, salian-4a"
    );
    let planned = &c.attacks[0];
    let odds = planned.odds.as_ref().unwrap();
    // Salian 4, Salian 4 and a bowman's 1 against the Legionaries' 4 (Clovis stayed in 0806,
    // Syagrius stands with the other Legionaries): 9 to 4.
    assert_eq!(
        (odds.attack, odds.defence, odds.odds),
        (9, 4, Column::TwoOne)
    );
    let shown = confirmation(text, &c, &b);
    assert!(shown.contains("= 9 against 4: 2/1"), "{shown}");
    assert!(shown.contains("under the minimum 3/1"), "{shown}");
}

#[test]
fn a_charge_that_is_no_charge_is_remarked() {
    // There is no cavalry among the Franks at Soissons: the charge is a plain move.
    let (c, _) = franks("salian-4a: charge legionaries-4 by 0706 0606");
    assert!(errors(&c).is_empty());
    assert_eq!(c.diagnostics[0].kind, Problem::Remark);
    assert!(
        c.diagnostics[0].message.contains("only cavalry charges"),
        "{}",
        c.diagnostics[0].message
    );
    assert_eq!(c.moves[0].charge, None);
}

#[test]
fn standing_reactions() {
    let (c, _) = franks("retreat salian-4a 0905 0906\nadvance salian-4b into 0707\nno advance\nadvance salian-3a with commander");
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    assert_eq!(c.reactions.retreat[&"salian-4a".into()].len(), 2);
    assert_eq!(
        c.reactions.advance,
        DefenderAdvance::Unit("salian-3a".into())
    );
    assert!(c.reactions.advance_commander);
    let v = shipped("vouille")
        .unwrap()
        .start(
            &Options::default(),
            &Default::default(),
            &"visigoths".into(),
        )
        .unwrap();
    let c = check(
        "evade bretons at 2/1\nevade alans always",
        &"franks".into(),
        &v,
        &Options::default(),
    );
    assert_eq!(
        c.reactions.evasion[&"bretons".into()],
        Evasion::AtOdds(Column::TwoOne)
    );
    assert_eq!(errors(&c).len(), 1, "only the Bretons evade");
}

#[test]
fn unreadable_lines_point_at_the_word() {
    let text = "salian-4a: mvoe 0706";
    let (c, b) = franks(text);
    let d = &c.diagnostics[0];
    assert_eq!(d.kind, Problem::Unreadable);
    assert_eq!(&text[d.span.start..d.span.end], "mvoe");
    let shown = confirmation(text, &c, &b);
    assert!(shown.contains("expected"), "{shown}");
}

/// A hex id with a letter O for a zero is pointed at, with the id meant.
#[test]
fn a_mistyped_hex_id_is_pointed_at_with_the_id_meant() {
    for (text, word, meant) in [
        ("salian-4a: move 07O6", "07O6", "0706"),
        ("salian-4a: move 0706, O7O5", "O7O5", "0705"),
    ] {
        let (c, b) = franks(text);
        let d = &c.diagnostics[0];
        assert_eq!(d.kind, Problem::Unreadable);
        assert_eq!(&text[d.span.start..d.span.end], word, "{text}");
        let shown = confirmation(text, &c, &b);
        assert!(shown.contains(&format!("did you mean {meant}?")), "{shown}");
    }
}

#[test]
fn end_stops_reading() {
    let (c, _) = franks("salian-4a: move 0706\nEND\nthis is not read");
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    assert_eq!(c.understood.len(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn no_text_panics_the_reader(text in "\\PC{0,300}") {
        let (c, b) = franks(&text);
        let _ = confirmation(&text, &c, &b);
    }

    #[test]
    fn order_like_text_never_panics(words in proptest::collection::vec(prop_oneof![
        Just("move"), Just("to"), Just("0706"), Just("salian-4a"), Just(":"), Just("charge"), Just("by"), Just("attack"),
        Just("with"), Just("fire"), Just("else"), Just(","), Just(";"), Just("min"), Just("2/1"), Just("advance"), Just("retreat"),
        Just("\n"), Just("archers"), Just("0606"), Just("feigned"), Just("flight"), Just("at")], 0..40)) {
        let text = words.join(" ");
        let (c, b) = franks(&text);
        let _ = confirmation(&text, &c, &b);
    }
}

/// Ruling O-27: a letter's greeting and signature around the orders are
/// set aside with a note; a stray line between two orders is still refused.
#[test]
fn greetings_and_signatures_are_set_aside() {
    let (c, _) = franks("Hi umpire,\n\nsalian-4a: move 0706 0606\n\nCheers,\nChlodwig\n");
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    assert_eq!(c.understood.len(), 1);
    let notes = c
        .diagnostics
        .iter()
        .filter(|d| d.kind == Problem::Remark && d.message.contains("greeting"))
        .count();
    assert_eq!(notes, 3);
    let (c, _) = franks("salian-4a: move 0706 0606\nHello there\nSalian 3c: move to 0709\n");
    assert_eq!(errors(&c).len(), 1, "{:?}", errors(&c));
}

/// A Frankish unit in 0508, the Roman commander Syagrius alone in 0606,
/// Roman infantry in 0605 whose zone of control covers 0606.
fn syagrius_alone_in_a_zone() -> Board {
    use umpire::games::furor::board::{BoardSpec, UnitSpec};
    use umpire::games::furor::map::Map;
    let map = Map::from_spec(&toml::from_str("columns = 12\nrows = 15").unwrap()).unwrap();
    let u = |id: &str, name: &str, side: &str, kind: &str, strength: i64, hex: &str| UnitSpec {
        id: id.into(),
        name: name.into(),
        side: side.into(),
        kind: kind.into(),
        strength,
        hex: Some(hex.into()),
        ..UnitSpec::default()
    };
    Board::from_spec(BoardSpec {
        map,
        units: vec![
            u("a", "Salian Franks", "franks", "infantry", 3, "0508"),
            u(
                "syagrius",
                "Syagrius",
                "gallo-romans",
                "commander",
                2,
                "0606",
            ),
            u("r", "Legionaries", "gallo-romans", "infantry", 3, "0605"),
        ],
        ..BoardSpec::default()
    })
    .unwrap()
}

#[test]
fn a_lone_enemy_commander_in_a_zone_is_overrun_and_the_confirmation_says_so() {
    let b = syagrius_alone_in_a_zone();
    let text = "a: move 0507 0606";
    let c = check(text, &"franks".into(), &b, &Options::default());
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    let out = confirmation(text, &c, &b);
    assert!(
        out.contains("Salian Franks (a): 0508 → 0606 (2 MP), overrunning Syagrius (syagrius), alone in 0606 (§6)"),
        "{out}"
    );
    // By destination the umpire finds the same hex.
    let c = check("a: move to 0606", &"franks".into(), &b, &Options::default());
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
    assert_eq!(c.moves[0].to.to_string(), "0606");
}

#[test]
fn going_on_past_an_overrun_commander_in_a_zone_is_refused_in_true_words() {
    let b = syagrius_alone_in_a_zone();
    let c = check(
        "a: move 0507 0606 0607",
        &"franks".into(),
        &b,
        &Options::default(),
    );
    let e = errors(&c);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("it goes on to 0607 after entering an enemy zone of control (§8)"),
        "{}",
        e[0]
    );
    assert!(!e[0].contains("friend"), "{}", e[0]);
}
