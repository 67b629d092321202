use super::*;
use crate::dice::SeededDice;
use crate::games::furor::orders::Reactions;

fn game(name: &str, options: &str) -> (NewGame, String) {
    let path = std::path::PathBuf::from(format!(
        "{}/campaigns/furor-barbarus/scenarios/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ));
    let text = std::fs::read_to_string(&path).unwrap();
    let options: toml::Table = toml::from_str(options).unwrap();
    let g = FurorBarbarus
        .new_game(&Setup {
            scenario_path: &path,
            scenario_text: &text,
            options: &options,
            max_turns: 12,
            seed: [5; 32],
            armies: &Default::default(),
            pack: None,
            companions: &Default::default(),
        })
        .unwrap();
    (g, text)
}

fn report() -> RoundReport {
    serde_json::from_value(serde_json::json!({
        "title": "Test", "game": "g", "turn": 1, "label": "set-up", "seed": "", "seed_hash": "", "nmr": [], "sections": [],
        "dice": [], "sides": null, "ended": false, "next_turn": 2, "deadline": "", "next_seed_hash": "", "draft": false
    }))
    .unwrap()
}

/// Play the current round with these sheets, checked as the post office would.
fn play(
    state: &Json,
    options: &Json,
    sheets: &[(&str, &str)],
    dice: &mut dyn crate::dice::Dice,
) -> Resolved {
    let mut orders = BTreeMap::new();
    for (side, sheet) in sheets {
        let c = FurorBarbarus.check_orders(state, side, sheet, &[]).unwrap();
        assert_eq!(c.errors, 0, "{}", c.confirmation);
        orders.insert(side.to_string(), c.orders);
    }
    FurorBarbarus
        .resolve(RoundInput {
            state,
            options,
            setup: "",
            last_turn: 6,
            orders: &orders,
            dice,
        })
        .unwrap()
}

#[test]
fn split_turn_plays_the_moves_then_the_attacks_each_a_round_of_the_same_player() {
    let (g, _) = game("soissons", "split_turn = true");
    assert!(
        g.welcome["franks"].length.contains("plays the split turn"),
        "{}",
        g.welcome["franks"].length
    );
    let mut dice = SeededDice::new([9; 32]);
    let options = g.options.clone();
    let placed = play(&g.state, &options, &[], &mut dice);
    let state = play(&placed.state, &options, &[], &mut dice).state;
    let franks = vec!["franks".to_string()];
    let r = FurorBarbarus.round(&state).unwrap();
    assert_eq!(
        (r.number, r.label.as_str(), r.writers.clone()),
        (3, "turn 1, franks, moves", franks.clone())
    );
    assert_eq!(
        FurorBarbarus.next_writers(&state).unwrap(),
        Some(franks.clone())
    );
    // The moves' mail refuses attacks and takes the moves.
    let mixed = FurorBarbarus
        .check_orders(
            &state,
            "franks",
            "salian-4a: move 0706 0606\nattack legionaries-4 with salian-4a\n",
            &[],
        )
        .unwrap();
    assert_eq!(mixed.errors, 1, "{}", mixed.confirmation);
    assert!(
        mixed
            .confirmation
            .contains("attacks are written in the next exchange"),
        "{}",
        mixed.confirmation
    );
    let moves = "salian-4a: move 0706 0606\nClovis: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move 0807 0708\nretreat salian-4b 0708\n";
    let moved = play(&state, &options, &[("franks", moves)], &mut dice);
    let titles: Vec<&str> = moved.sections.iter().map(|s| s.title.as_str()).collect();
    assert!(
        titles.contains(&"Turn 1: movement of the franks")
            && !titles.iter().any(|t| t.contains("combat")),
        "{titles:?}"
    );
    assert!(!moved.ended);
    assert_eq!(
        moved.summary_title,
        "The board before turn 1, franks, attacks"
    );
    let r = FurorBarbarus.round(&moved.state).unwrap();
    assert_eq!(
        (r.number, r.label.as_str(), r.writers.clone()),
        (4, "turn 1, franks, attacks", franks.clone())
    );
    assert_eq!(
        FurorBarbarus.next_writers(&moved.state).unwrap(),
        Some(vec!["gallo-romans".to_string()])
    );
    let between: State = serde_json::from_value(moved.state.clone()).unwrap();
    let kept = between.moved.as_ref().expect("between the exchanges");
    assert_eq!(
        kept.retreat.len(),
        1,
        "the moves' mail's own retreat stands"
    );
    assert_eq!(
        between.board.get(&"salian-4a".into()).hex,
        Some("0606".parse().unwrap())
    );
    // The attacks' mail refuses moves, and is checked on the board the
    // moves left.
    let late = FurorBarbarus
        .check_orders(&moved.state, "franks", "archers: move 0708 0608\n", &[])
        .unwrap();
    assert_eq!(late.errors, 1, "{}", late.confirmation);
    assert!(
        late.confirmation.contains("have been played"),
        "{}",
        late.confirmation
    );
    let attacks = "attack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/2; advance salian-4a with commander\nelse attack palatina with salian-4b\n";
    let fought = play(&moved.state, &options, &[("franks", attacks)], &mut dice);
    let titles: Vec<&str> = fought.sections.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles.first(),
        Some(&"Turn 1: combat of the franks"),
        "{titles:?}"
    );
    let r = FurorBarbarus.round(&fought.state).unwrap();
    assert_eq!(
        (r.number, r.label.as_str(), r.writers.clone()),
        (
            5,
            "turn 1, gallo-romans, moves",
            vec!["gallo-romans".to_string()]
        )
    );
    assert!(
        fought.state.get("moved").is_none(),
        "nothing kept between player-turns"
    );
}

#[test]
fn without_split_turn_a_player_turn_is_one_round_and_the_state_has_no_exchange() {
    let (g, _) = game("soissons", "");
    assert!(g.options.get("split_turn").is_none(), "{}", g.options);
    let mut dice = SeededDice::new([9; 32]);
    let placed = play(&g.state, &g.options, &[], &mut dice);
    let state = play(&placed.state, &g.options, &[], &mut dice).state;
    assert!(state.get("moved").is_none());
    let r = FurorBarbarus.round(&state).unwrap();
    assert_eq!((r.number, r.label.as_str()), (3, "turn 1, franks"));
    // The guide's example: moves and attacks in one mail.
    let whole = FurorBarbarus
        .check_orders(
            &state,
            "franks",
            "salian-4a: move 0706 0606\nClovis: move 0706 0606\nsalian-4b: move 0707 0607\narchers: move 0807 0708\nattack legionaries-4 with salian-4a, salian-4b, fire archers; min 3/2; advance salian-4a with commander\n",
            &[],
        )
        .unwrap();
    assert_eq!(whole.errors, 0, "{}", whole.confirmation);
}

#[test]
fn soissons_sets_up_gallo_romans_then_franks_and_unplaced_counters_stand_as_listed() {
    let (g, _) = game("soissons", "");
    let r = FurorBarbarus.round(&g.state).unwrap();
    assert_eq!(
        (r.number, r.label.as_str(), r.writers.clone()),
        (1, "set-up, gallo-romans", vec!["gallo-romans".to_string()])
    );
    assert_eq!(
        FurorBarbarus.next_writers(&g.state).unwrap(),
        Some(vec!["franks".to_string()])
    );
    assert!(
        g.welcome["franks"]
            .length
            .contains("the gallo-romans, then the franks"),
        "{}",
        g.welcome["franks"].length
    );
    assert_eq!(g.welcome["franks"].example, "place archers in 0907\n");
    // The Franks may not set up in the Gallo-Romans' round.
    let early = FurorBarbarus
        .check_orders(&g.state, "franks", "place salian-4a in 0814\n", &[])
        .unwrap();
    assert_eq!(early.errors, 1);
    assert!(
        early
            .confirmation
            .contains("it is the set-up round of the gallo-romans"),
        "{}",
        early.confirmation
    );
    // Out-of-place lines are refused, quoted, and the rest stands.
    let bad = FurorBarbarus.check_orders(&g.state, "gallo-romans", "legionaries-4: set up in 0508\nlegionaries-3: set up in 0507\nplace palatina in 0505\nplace salian-4a in 0406\n", &[]).unwrap();
    assert_eq!(bad.errors, 2, "{}", bad.confirmation);
    assert!(
        bad.confirmation.contains("palatina may not set up in 0505"),
        "{}",
        bad.confirmation
    );
    assert!(
        bad.confirmation.contains("is not one of your counters"),
        "{}",
        bad.confirmation
    );
    assert!(
        bad.confirmation
            .contains("Syagrius (syagrius): 0508 (as listed)"),
        "{}",
        bad.confirmation
    );
    let options = g.options.clone();
    let mut dice = SeededDice::new([1; 32]);
    let one = play(
        &g.state,
        &options,
        &[(
            "gallo-romans",
            "legionaries-4: set up in 0508\nLEGIONARIES-3: SET UP IN 0507\n",
        )],
        &mut dice,
    );
    assert!(
        one.sections[0]
            .lines
            .iter()
            .any(|l| l == "Legionaries (legionaries-4): 0508"),
        "{:?}",
        one.sections
    );
    let r = FurorBarbarus.round(&one.state).unwrap();
    assert_eq!((r.number, r.label.as_str()), (2, "set-up, franks"));
    assert!(FurorBarbarus
        .picture(&g.state, &one.state, &report())
        .unwrap()
        .contains("<svg"));
    // The Franks send nothing: they stand as listed, and the battle begins.
    let two = play(&one.state, &options, &[], &mut dice);
    assert!(
        two.sections[0].lines[0].contains("placed nothing"),
        "{:?}",
        two.sections
    );
    let r = FurorBarbarus.round(&two.state).unwrap();
    assert_eq!((r.number, r.label.as_str()), (3, "turn 1, franks"));
    let state: State = serde_json::from_value(two.state.clone()).unwrap();
    assert_eq!(
        state
            .board
            .unit(&"legionaries-4".into())
            .unwrap()
            .hex
            .unwrap()
            .to_string(),
        "0508"
    );
    assert_eq!(
        state
            .board
            .unit(&"salian-4a".into())
            .unwrap()
            .hex
            .unwrap()
            .to_string(),
        "0806"
    );
    assert_eq!(FurorBarbarus.canonical(&two.state).unwrap(), two.state);
    // A state stored before set-up rounds (no setup_rounds) still loads, at round 1.
    let mut old = two.state.clone();
    old.as_object_mut().unwrap().remove("setup_rounds");
    assert_eq!(FurorBarbarus.round(&old).unwrap().number, 1);
}

#[test]
fn campus_mauriacus_seals_the_commanders_and_rolls_for_the_first_player_after_the_set_up() {
    let (g, _) = game("campus-mauriacus", "");
    assert!(
        g.welcome["huns"].length.contains("sealed"),
        "{}",
        g.welcome["huns"].length
    );
    assert!(g.welcome["huns"]
        .length
        .contains("rolled for once both sides have set up"));
    let options = g.options.clone();
    let mut dice = crate::dice::ScriptedDice::new(
        [
            ("first-player:huns".to_string(), 6),
            ("first-player:romans".to_string(), 2),
        ]
        .into(),
    );
    let huns = play(
        &g.state,
        &options,
        &[("huns", "place attila in 1411\n")],
        &mut dice,
    );
    let told: String = huns
        .sections
        .iter()
        .flat_map(|s| s.lines.clone())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!told.contains("Attila"), "sealed: {told}");
    assert!(told.contains("sealed"), "{told}");
    assert!(
        !huns.summary.to_string().contains("1411\",\"id\":\"attila"),
        "the summary hides him"
    );
    let svg = FurorBarbarus
        .picture(&g.state, &huns.state, &report())
        .unwrap();
    assert!(svg.contains("<svg"));
    let romans = play(
        &huns.state,
        &options,
        &[("romans", "place theodoric in 0905\n")],
        &mut dice,
    );
    let revealed = romans
        .sections
        .iter()
        .find(|s| s.title.starts_with("The commanders, revealed together"))
        .expect("revealed");
    assert!(
        revealed
            .lines
            .iter()
            .any(|l| l.contains("attila") && l.contains("1411")),
        "{:?}",
        revealed.lines
    );
    assert!(
        revealed
            .lines
            .iter()
            .any(|l| l.contains("theodoric") && l.contains("0905")),
        "{:?}",
        revealed.lines
    );
    assert!(
        romans.dice.iter().any(|d| d == "first-player:huns = 6"),
        "{:?}",
        romans.dice
    );
    let r = FurorBarbarus.round(&romans.state).unwrap();
    assert_eq!((r.number, r.label.as_str()), (3, "turn 1, huns"));
}

#[test]
fn a_game_turn_is_two_rounds_and_the_phasing_side_writes() {
    let (g, setup) = game("soissons", "");
    assert_eq!(g.sides, vec!["franks", "gallo-romans"]);
    assert_eq!(g.last_turn, 6);
    let mut dice = SeededDice::new([9; 32]);
    let options = g.options.clone();
    let placed = play(&g.state, &options, &[], &mut dice);
    // The first player is the scenario's: he writes after the set-up.
    assert_eq!(
        FurorBarbarus.next_writers(&placed.state).unwrap(),
        Some(vec!["franks".to_string()])
    );
    let g = NewGame {
        state: play(&placed.state, &options, &[], &mut dice).state,
        ..g
    };
    let r = FurorBarbarus.round(&g.state).unwrap();
    assert_eq!(
        (r.number, r.label.as_str(), r.writers.clone()),
        (3, "turn 1, franks", vec!["franks".to_string()])
    );
    assert_eq!(
        FurorBarbarus.next_writers(&g.state).unwrap(),
        Some(vec!["gallo-romans".to_string()])
    );
    let franks = FurorBarbarus
        .check_orders(&g.state, "franks", "salian-4a: move 0706 0606\n", &[])
        .unwrap();
    assert_eq!(franks.errors, 0, "{}", franks.confirmation);
    let romans = FurorBarbarus
        .check_orders(
            &g.state,
            "gallo-romans",
            "retreat legionaries-4 0406 0506\n",
            &[],
        )
        .unwrap();
    assert_eq!(romans.errors, 0, "{}", romans.confirmation);
    let orders: BTreeMap<String, Json> = [
        ("franks".to_string(), franks.orders),
        ("gallo-romans".to_string(), romans.orders),
    ]
    .into();
    let done = FurorBarbarus
        .resolve(RoundInput {
            state: &g.state,
            options: &options,
            setup: &setup,
            last_turn: 6,
            orders: &orders,
            dice: &mut dice,
        })
        .unwrap();
    let next = FurorBarbarus.round(&done.state).unwrap();
    assert_eq!(
        (next.number, next.writers.clone()),
        (4, vec!["gallo-romans".to_string()])
    );
    let state: State = serde_json::from_value(done.state).unwrap();
    assert_eq!(
        state
            .board
            .unit(&"salian-4a".into())
            .unwrap()
            .hex
            .unwrap()
            .to_string(),
        "0606"
    );
    assert_eq!(
        state.standing[&SideId::from("gallo-romans")].retreat.len(),
        1,
        "the reaction stands"
    );
    assert!(done
        .sections
        .iter()
        .any(|s| s.title.starts_with("Turn 1: movement of the franks")));
}

#[test]
fn a_standing_reaction_holds_until_that_unit_is_given_another() {
    let mut standing = Reactions::default();
    let a = Reactions {
        retreat: [("a".into(), vec!["0101".parse().unwrap()])].into(),
        ..Reactions::default()
    };
    let b = Reactions {
        retreat: [("b".into(), vec!["0202".parse().unwrap()])].into(),
        ..Reactions::default()
    };
    overlay(&mut standing, &a);
    overlay(&mut standing, &b);
    assert_eq!(standing.retreat.len(), 2);
    overlay(
        &mut standing,
        &Reactions {
            retreat: [("a".into(), vec!["0303".parse().unwrap()])].into(),
            ..Reactions::default()
        },
    );
    assert_eq!(standing.retreat[&UnitId::from("a")][0].to_string(), "0303");
}

#[test]
fn the_welcome_briefs_each_side_with_story_victory_rules_both_armies_and_its_set_up_area() {
    let (g, _) = game("soissons", "soissons_free_setup = true");
    let gr = &g.welcome["gallo-romans"];
    let b = &gr.briefing;
    assert!(b.contains("Soissons, 486"), "{b}");
    assert!(
        b.contains("Scenario 2, Soissons (486): Clovis against Syagrius."),
        "{b}"
    );
    assert!(
        b.contains(
            "The franks win a major victory if the gallo-romans lose 14 strength points or more"
        ),
        "{b}"
    );
    assert!(
        b.contains("by the end of turn 6, the gallo-romans win a minor victory"),
        "{b}"
    );
    // §10: an eliminated commander adds his strength + 4, baggage its strength + 2.
    assert!(
        b.contains(
            "Losses count each eliminated unit's full printed strength, a commander's strength plus 4 and baggage's strength plus 2,"
        ),
        "{b}"
    );
    assert!(b.contains("Chararic: his corps is neutral"), "{b}");
    assert!(b.contains("syagrius: Syagrius, commander"), "{b}");
    assert!(b.contains("The enemy's counters"), "{b}");
    assert!(
        b.contains("salian-4a: Salian Franks, infantry, strength 4"),
        "{b}"
    );
    assert!(b.contains("Neutral counters"), "{b}");
    assert!(b.contains("chararic-3: Chararic's Salian Franks"), "{b}");
    assert!(
        b.contains("You set up in ") && b.contains("0401, 0402"),
        "{b}"
    );
    assert!(!b.contains("1 counters") && !b.contains("1 hexes"), "{b}");
    let svg = gr.picture.as_ref().expect("a picture of the start");
    assert!(
        svg.contains("stroke-dasharray=\"5,3\"") && svg.contains("the gallo-romans set up here")
    );
    assert!(crate::report::picture::png(svg).is_ok());
    // The Franks set up later, in their own area; the Gallo-Romans' is not theirs to see.
    let fr = &g.welcome["franks"];
    assert!(fr.briefing.contains("0806"), "{}", fr.briefing);
    assert!(!fr
        .picture
        .as_ref()
        .unwrap()
        .contains("the gallo-romans set up here"));
    // Without a choice there is no area, and the picture still comes.
    let (g, _) = game("vouille", "");
    for w in g.welcome.values() {
        assert!(w.briefing.contains("Breton evasion"), "{}", w.briefing);
        assert!(crate::report::picture::png(w.picture.as_ref().unwrap()).is_ok());
    }
}

#[test]
fn dice_keys_name_their_die() {
    let none = Json::Null;
    assert_eq!(FurorBarbarus.die_for(&none, "combat:3"), Ok(DieKind::D6));
    assert_eq!(
        FurorBarbarus.die_for(&none, "defection:1"),
        Ok(DieKind::TwoD6)
    );
    assert!(FurorBarbarus.die_for(&none, "melee:dragons").is_err());
}

#[test]
fn optional_rules_are_off_unless_the_game_file_turns_them_on() {
    // §11: both players must agree to an optional rule (FB-20). Campus
    // Mauriacus has impetuous units; without the option they never test.
    let (g, _) = game("campus-mauriacus", "");
    assert_eq!(
        g.options["impetuousness"],
        Json::Bool(false),
        "{}",
        g.options
    );
    assert_eq!(g.options["commanders_role"], Json::Bool(false));
    assert_eq!(g.options["zoc_to_zoc_test"], Json::Bool(false));
    assert_eq!(g.options["counter_charge"], Json::Bool(false));
    for w in g.welcome.values() {
        assert!(!w.briefing.contains("Impetuousness"), "{}", w.briefing);
    }
    let (g, _) = game("campus-mauriacus", "impetuousness = true");
    assert_eq!(g.options["impetuousness"], Json::Bool(true));
    for w in g.welcome.values() {
        assert!(
            w.briefing
                .contains("Impetuousness: units with the impetuous mark may rush at the enemy."),
            "{}",
            w.briefing
        );
    }
    // The shipped game file plays rule 6, and says so in its [options].
    let file: toml::Table = toml::from_str(include_str!(
        "../../../../campaigns/furor-barbarus/games/campus-mauriacus.toml"
    ))
    .unwrap();
    assert_eq!(file["options"]["impetuousness"], toml::Value::Boolean(true));
}

/// The map arrives as data: the scenario names it, the caller reads it
/// beside the scenario (`maps/NAME.toml`), and the rule set takes it from
/// `Setup::companions`, else the shipped map of that name, else says so.
#[test]
fn the_map_comes_from_beside_the_scenario_else_the_shipped_one() {
    let soissons = include_str!("../../../../campaigns/furor-barbarus/scenarios/soissons.toml");
    let new_game = |text: &str, companions: &BTreeMap<String, String>| {
        FurorBarbarus.new_game(&Setup {
            scenario_path: std::path::Path::new("scenarios/soissons.toml"),
            scenario_text: text,
            options: &toml::Table::new(),
            max_turns: 12,
            seed: [5; 32],
            armies: &Default::default(),
            pack: None,
            companions,
        })
    };
    assert_eq!(
        FurorBarbarus.companions(soissons),
        ["../maps/clovis-battles.toml"]
    );
    assert!(new_game(soissons, &BTreeMap::new()).is_ok());

    let unknown = soissons.replace("map = \"clovis-battles\"", "map = \"our-club\"");
    assert_eq!(
        FurorBarbarus.companions(&unknown),
        ["../maps/our-club.toml"]
    );
    let missing = new_game(&unknown, &BTreeMap::new()).unwrap_err();
    assert_eq!(missing.to_string(), "no map 'our-club'");
    let ours = crate::games::furor::scenario::shipped_map("clovis-battles").unwrap();
    let beside = BTreeMap::from([("../maps/our-club.toml".to_string(), ours.to_string())]);
    assert!(new_game(&unknown, &beside).is_ok());

    let path = soissons.replace("map = \"clovis-battles\"", "map = \"../../etc/passwd\"");
    assert!(FurorBarbarus.companions(&path).is_empty());
    assert_eq!(
        new_game(&path, &BTreeMap::new()).unwrap_err().to_string(),
        "map '../../etc/passwd' must be a name under maps/, not a path"
    );
}
