//! The welcome's words for each side: the briefing (the story, how to
//! win, the special rules in force, both armies' counters, where it sets
//! up), what the set-up will be, and its counters with an order line to
//! copy.

use crate::games::furor::board::{Board, EndOfGame, SideId, Unit};
use crate::games::furor::options::Options;
use crate::games::furor::orders::check::check;
use crate::games::furor::reconstruction;
use crate::games::furor::rules::reconstructed::CounterValue;
use crate::games::furor::rules::{Kind, BAGGAGE_LOSS_EXTRA, COMMANDER_LOSS_EXTRA};
use crate::games::furor::scenario::Scenario;
use crate::report::plural;
use std::fmt::Write as _;

/// A side's counters as its welcome lists them, and an order line to copy
/// that the checker accepts on the opening board: a move for the side that
/// plays first, a standing retreat preference for the other.
pub(super) fn forces(
    board: &Board,
    options: &Options,
    side: &SideId,
    sets_up: bool,
) -> (String, String) {
    let mut s = String::from(if sets_up {
        "Your counters, where the scenario lists them:\n"
    } else {
        "Your counters:\n"
    });
    for u in board.units.values().filter(|u| &u.side == side) {
        let at = u
            .hex
            .map_or_else(|| "off the map".to_string(), |h| h.to_string());
        let _ = writeln!(
            s,
            "  {}: {} {}, strength {}, {} MP, in {at}",
            u.id,
            u.name,
            u.kind.name(),
            u.current_strength(),
            u.mp
        );
    }
    let first = board.phasing() == side;
    let placed = board
        .units
        .values()
        .find(|u| &u.side == side && u.is_combat())
        .and_then(|u| u.hex.map(|h| (u, h)));
    if let Some((u, h)) = placed.filter(|_| sets_up) {
        return (s, format!("place {} in {h}\n", u.id));
    }
    let example = board
        .units
        .values()
        .filter(|u| &u.side == side && u.is_combat())
        .filter_map(|u| u.hex.map(|h| (u, h)))
        .flat_map(|(u, h)| {
            h.neighbours()
                .into_iter()
                .filter(|n| board.map.contains(*n))
                .map(move |n| (u, n))
        })
        .map(|(u, n)| {
            if first {
                format!("{}: move {n}\n", u.id)
            } else {
                format!("retreat {} {n}\n", u.id)
            }
        })
        .find(|line| !check(line, side, board, options).has_errors())
        .unwrap_or_default();
    (s, example)
}

/// The welcome's briefing: what a player needs to start without the
/// rulebook — the story, how to win, the special rules, both armies'
/// counters (both stand on the map) and where this side sets up.
pub(super) fn briefing(
    scenario: &Scenario,
    text: &str,
    board: &Board,
    options: &Options,
    side: &SideId,
    turns: u8,
) -> String {
    let mut s = format!("{}\n", scenario.name);
    let story = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix('#'))
        .map(|l| l.split(" Book §").next().unwrap_or(l).trim())
        .unwrap_or_default();
    if !story.is_empty() {
        let _ = writeln!(s, "{story}");
    }
    if !scenario.note.is_empty() {
        let _ = writeln!(s, "{}", scenario.note);
    }
    let enemy_of = |a: &SideId| {
        scenario
            .armies
            .keys()
            .find(|o| *o != a)
            .map_or_else(|| "other side".to_string(), |o| o.0.clone())
    };
    s.push_str("\nHow to win:\n");
    for (army, a) in &scenario.armies {
        let _ = writeln!(
            s,
            "  The {} win a major victory if the {army} lose {} or more ({}'s army morale threshold).",
            enemy_of(army),
            plural(u32::from(a.threshold), "strength point", "strength points"),
            a.name
        );
    }
    let _ = writeln!(
        s,
        "  Losses count each eliminated unit's full printed strength, a commander's strength plus {COMMANDER_LOSS_EXTRA} and baggage's strength plus {BAGGAGE_LOSS_EXTRA}, checked at the end of every game turn."
    );
    s.push_str("  If both armies break in the same turn, the one over its threshold by less wins a minor victory (equal margins: a tie).\n");
    let end = match &board.rules.end_of_game {
        EndOfGame::LesserLoss => {
            "the army that lost less wins a minor victory; equal losses tie".to_string()
        }
        EndOfGame::LesserLossElse(x) => {
            format!("the army that lost less wins a minor victory; equal losses give the {x} a minor victory")
        }
        EndOfGame::MinorTo(x) => format!("the {x} win a minor victory"),
    };
    let _ = writeln!(
        s,
        "  If neither army breaks by the end of turn {turns}, {end}."
    );
    let rules = special_rules(board, options);
    if !rules.is_empty() {
        s.push_str("\nSpecial rules in force:\n");
        for (name, what) in rules {
            let _ = writeln!(s, "  {name}: {what}");
        }
    }
    let line = |s: &mut String, u: &Unit| {
        let at = u
            .hex
            .map_or_else(|| "not on the map yet".to_string(), |h| format!("in {h}"));
        let what = if u.kind == Kind::Commander {
            format!("commander, bonus {}", u.current_strength())
        } else {
            format!("{}, strength {}", u.kind.name(), u.current_strength())
        };
        let _ = writeln!(s, "  {}: {}, {what}, {} MP, {at}", u.id, u.name, u.mp);
    };
    let ours: Vec<_> = board.units.values().filter(|u| &u.side == side).collect();
    let _ = writeln!(
        s,
        "\nYour counters ({}, the ids are what your orders use):",
        plural(ours.len() as u32, "counter", "counters")
    );
    for u in &ours {
        line(&mut s, u);
    }
    let theirs: Vec<_> = board
        .units
        .values()
        .filter(|u| &u.side != side && !board.is_neutral(u))
        .filter(|u| !(scenario.sealed_commanders && u.kind == Kind::Commander))
        .collect();
    let _ = writeln!(
        s,
        "\nThe enemy's counters ({}, where the scenario lists them):",
        plural(theirs.len() as u32, "counter", "counters")
    );
    for u in &theirs {
        line(&mut s, u);
    }
    if scenario.sealed_commanders {
        s.push_str("  The enemy's commanders are sealed until both sides have set up.\n");
    }
    let neutral: Vec<_> = board
        .units
        .values()
        .filter(|u| board.is_neutral(u))
        .collect();
    if !neutral.is_empty() {
        let _ = writeln!(
            s,
            "\nNeutral counters ({}):",
            plural(neutral.len() as u32, "counter", "counters")
        );
        for u in &neutral {
            line(&mut s, u);
        }
    }
    s.push_str(&reconstructed(board));
    let area = scenario.setup_area(options, side);
    if scenario.has_choice(options, side) && !area.is_empty() {
        let hexes: Vec<String> = area.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            s,
            "\nYou set up in {} (dashed on the picture): {}.",
            plural(hexes.len() as u32, "hex", "hexes"),
            hexes.join(", ")
        );
    }
    s
}

/// The special rules this board plays, each with a line saying what it does.
fn special_rules(board: &Board, options: &Options) -> Vec<(&'static str, &'static str)> {
    let r = &board.rules;
    let mut v = Vec::new();
    if r.charge_needs_mark {
        v.push((
            "Marked charges",
            "only units with a charge mark may charge.",
        ));
    }
    if r.scenario.as_deref() == Some("campus-mauriacus") {
        v.push((
            "Feigned flight",
            "a unit with the mark may try to draw an isolated enemy unit up to 2 hexes towards it.",
        ));
    }
    if r.alan_defection {
        v.push(("The Alans' defection", "each Alan loss makes the Roman player roll; at or under the Alan losses so far, the Alans and Sangiban leave the battle."));
    }
    if options.commanders_role && r.scenario.as_deref() == Some("campus-mauriacus") {
        v.push(("The role of the commanders", "a commander helps only his own troops; when one is eliminated his troops may lose or gain 1 for a turn."));
    }
    if options.impetuousness && r.scenario.as_deref() == Some("campus-mauriacus") {
        v.push((
            "Impetuousness",
            "units with the impetuous mark may rush at the enemy.",
        ));
    }
    if r.chararic.is_some() {
        v.push(("Chararic", "his corps is neutral for the first two turns (no move, attack or zone of control); attacking it makes it join the other side; from turn 3 the Franks roll each turn: 1 he betrays Clovis, 6 he joins him."));
    }
    if r.divine_help.is_some() {
        v.push(("The god of Clotilde", "if the Franks are first to reach 12 lost, for the next turn units next to Clovis get +1 strength, Clovis +2, and every Frank +1 morale; once a game."));
    }
    if r.breton_evasion {
        v.push(("Breton evasion", "when attacked, the Breton cavalry may roll to evade up to 2 hexes on a 5 or 6, and the attack is cancelled."));
    }
    v
}

/// What the welcome says of the set-up: who sets up when, what a silent
/// side's counters do, who has no round, and the sealed commanders.
pub(super) fn setup_story(scenario: &Scenario, rounds: &[Vec<SideId>]) -> String {
    if rounds.is_empty() {
        return format!(
            "The counters stand as the scenario sets them up ({}).",
            scenario.name
        );
    }
    let order: Vec<String> = rounds
        .iter()
        .map(|r| {
            let names: Vec<String> = r.iter().map(|s| format!("the {s}")).collect();
            if names.len() > 1 {
                format!("{} together", names.join(" and "))
            } else {
                names.join("")
            }
        })
        .collect();
    let mut s = format!(
        "The battle begins with the set-up ({}): {} mail where their counters stand ('place salian-4a in 0806'); \
         a counter you do not place stands where the scenario lists it.",
        scenario.name,
        order.join(", then ")
    );
    for side in scenario
        .armies
        .keys()
        .filter(|a| !rounds.iter().flatten().any(|s| s == *a))
    {
        let _ = write!(s, " The {side} have nothing to choose: their counters stand as listed, without a set-up round.");
    }
    if scenario.sealed_commanders {
        s.push_str(" The commanders' hexes are sealed: no one sees them until both sides have set up; the last set-up's report shows them together.");
    }
    s
}

/// What the welcome says is reconstructed in this game: the combat table's
/// rows 4–6 always, the counters' values and the map as the game's files
/// mark them (R1–R12), and how the reports and a club deal with it.
pub(super) fn reconstructed(board: &Board) -> String {
    let all: Vec<&Unit> = board.units.values().collect();
    let mut parts = vec!["rows 4-6 of the combat table (R7)".to_string()];
    // The value, its words, its rulings, and the counters that have one.
    type Line = (CounterValue, &'static str, &'static str, fn(&Unit) -> bool);
    let values: [Line; 5] = [
        (CounterValue::Kind, "type", "R1", |_| true),
        (CounterValue::Strength, "strength", "R2, R10", |_| true),
        (CounterValue::Reduced, "reduced side", "R3, R4", |u| {
            u.kind.is_combat()
        }),
        (CounterValue::Mp, "movement points", "R5", |_| true),
        (CounterValue::Range, "range", "R6", |u| u.kind.is_missile()),
    ];
    for (v, what, rulings, counts) in values {
        let of = all.iter().filter(|u| counts(u)).count();
        let n = all
            .iter()
            .filter(|u| counts(u) && u.reconstructed.has(v))
            .count();
        if n == 0 {
            continue;
        }
        parts.push(if n == of {
            format!("every counter's {what} ({rulings})")
        } else {
            format!("the {what} of {n} of the {of} counters ({rulings})")
        });
    }
    let last = parts.pop().unwrap_or_default();
    let listed = if parts.is_empty() {
        last
    } else {
        format!("{} and {last}", parts.join(", "))
    };
    let mut s = String::from("\nWhat is reconstructed:\n");
    let _ = writeln!(
        s,
        "  The text of Furor Barbarus lost its counter sheet, its maps and part of its combat table. This game plays the umpire's reconstructions of {listed}{}.",
        if reconstruction::map_is_reconstructed(board) {
            ", on a reconstructed map: open ground of a guessed size (R11, R12)"
        } else {
            ""
        }
    );
    s.push_str("  Each report marks a result that rests on one with [1], [2]… and lists under \"Reconstructed parts\" what each mark stands for; the rulings (R1-R12) give the reasons.\n");
    s.push_str("  A club that owns the game can type in its real counters and map: they are data files (HELP reconstructed).\n");
    s
}
