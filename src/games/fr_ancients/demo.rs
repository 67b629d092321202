//! The Trebia (the sheet's two Hannibal lists) as the demonstrations play
//! it, through the rule set's boundary exactly as the post office plays it
//! ([`trebia`] starts it with `new_game`, [`play_round`] plays a round with
//! `resolve`): [`battle_orders`](super::general::battle_orders), a small deterministic order writer that
//! plays a whole battle with the house pack (advance towards the enemy with
//! `move to`, `charge` the nearest enemy within reach, `shoot` the nearest
//! target in range), and [`one_turn_with_gm`], one turn played with a game
//! master without the mail: each side's orders and the umpire's
//! confirmation, every situation the desk sends the game master, the game
//! master's answer in the answer language, and each phase's report. The
//! demonstration's game master answers by the stand-in pack's procedures
//! ([`stand_in_answer`]: written out as answer lines, checked like any
//! other), so the transcript is the same every run; "stand-in rules, not
//! FR!".
//!
//! ```
//! let t = umpire::games::fr_ancients::demo::one_turn_with_gm();
//! assert!(t.iter().any(|s| s.starts_with("To the game master")));
//! assert!(t.iter().any(|s| s.contains("End of turn 1, phase 2")));
//! ```

use super::desk::write_answer;
use super::grades::Triple;
use super::pack::Pack;
use super::questions::Base;
use super::resolve::PackRules;
use super::ruleset::FrAncients;
use super::state::{replay, State};
use super::table::Battle;
use crate::dice::{Dice, ScriptedDice, SeededDice};
use crate::games::{Json, Resolved, RoundInput, Ruleset, RulesetError, Setup, GAME_MASTER};
use crate::report::Section;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The seed of the demonstration's dice.
const SEED: [u8; 32] = [18; 32];
/// A phase never needs more rounds with the game master than this.
const MAX_ROUNDS: usize = 40;

/// Orders for a side: its skirmishers step forward, its horse advances.
pub fn orders_for(b: &Battle, side: &str) -> String {
    let mut out = String::new();
    let ahead = if b.sides[0].id == side { 1.0 } else { -1.0 };
    for u in b
        .units
        .values()
        .filter(|u| u.side == side && u.is_present())
    {
        let step = match (
            u.troop.is_cavalry(),
            u.troop == super::troops::TroopType::Skirmishers,
        ) {
            (true, _) => 6.0,
            (_, true) => 4.0,
            _ => continue,
        };
        out.push_str(&format!(
            "{}: move to {:.1}, {:.1}\n",
            u.name,
            u.front.x,
            u.front.y + ahead * step
        ));
    }
    out
}

/// The game master's answer to the situation a state waits on, by the
/// stand-in pack's procedures (the demonstration's game master): one `NUMBER: ANSWER` line a question.
///
/// # Errors
/// When the state waits for no situation or cannot be read.
pub fn stand_in_answer(state: &Json) -> Result<String, RulesetError> {
    let state = State::read(state)?;
    let Some(p) = &state.pending else {
        return Err(RulesetError::Setup(
            "no situation waits for the game master".into(),
        ));
    };
    let mut none = ScriptedDice::default();
    let r = replay(&state, &p.orders, &p.answers, &p.rolled, &mut none)?;
    let Some(s) = r.situation else {
        return Err(RulesetError::Corrupt("the phase replays to its end".into()));
    };
    let pack = Pack::stand_in();
    let mut rules = PackRules { pack: &pack };
    Ok(s.questions
        .iter()
        .enumerate()
        .filter_map(|(i, q)| {
            rules
                .answer(&r.run.battle, q)
                .map(|a| write_answer(i + 1, &a, &|id: &str| id.to_string()) + "\n")
        })
        .collect())
}

/// The demonstration's orders for the phasing side of a state: its horse
/// and skirmishers step forward.
///
/// # Errors
/// When the state cannot be read.
pub fn demo_orders(state: &Json) -> Result<(String, String), RulesetError> {
    let state = State::read(state)?;
    let side = state.battle.phasing().clone();
    Ok((side.clone(), orders_for(&state.battle, &side)))
}

/// The whole-battle demonstration's orders for the round a game's state
/// waits for: the phasing side, its [`super::general::battle_orders`] and the game turn
/// its `TURN` header names.
///
/// # Errors
/// When the state is not an FR! Ancients game's.
pub fn house_orders(state: &Json) -> Result<(String, String, u32), String> {
    let state = State::read(state).map_err(|e| e.to_string())?;
    // The values a game master gave are the allowances the writer reaches with.
    let mut b = state.battle;
    state.values.apply(&mut b);
    let side = b.phasing().clone();
    Ok((
        side.clone(),
        super::general::battle_orders(&b, &side),
        b.turn,
    ))
}

/// The base values a game master gives once for the game (`VALUES` …
/// `END VALUES`, ruling FA-57), as the demonstration's game master gives
/// them: the house pack's troop table, one line a troop type (a type that
/// does not move gives no allowance).
pub fn house_values() -> String {
    let mut v = String::from("VALUES\n");
    for (t, row) in &Pack::house().troops {
        let Triple {
            melee,
            rally,
            missile,
        } = row.values;
        let _ = write!(
            v,
            "{}: CF {}; {melee}/{rally}/{missile}; charge {}",
            t.name(),
            row.cf,
            row.charge_bonus
        );
        let [open, terrain] = row.movement;
        if open > 0.0 && terrain > 0.0 {
            let _ = write!(v, "; move {open}/{terrain}");
        }
        v.push('\n');
    }
    v.push_str("END VALUES\n");
    v
}

/// The length of the shipped game (its game file gives no `max_turns`: the
/// game file's default).
const MAX_TURNS: u32 = 12;

/// The shipped Trebia game (`campaigns/fr-ancients/games/trebia.toml`: the
/// sheet's two Hannibal armies, no house rules) started as the post office
/// starts it, by the rule set's `new_game`, with a pack if given (its text),
/// from the scenario's layout: turn 1 waits, not the deployment round.
///
/// # Errors
/// When a shipped file or the pack is wrong.
pub fn trebia(pack: Option<&str>) -> Result<State, RulesetError> {
    const SCENARIO: &str = include_str!("../../../campaigns/fr-ancients/scenarios/trebia.toml");
    const ROME: &str =
        include_str!("../../../campaigns/fr-ancients/armies/consular-legion-218bc.toml");
    const CARTHAGE: &str =
        include_str!("../../../campaigns/fr-ancients/armies/hannibal-218bc.toml");
    let armies = BTreeMap::from([
        ("rome".to_string(), ROME.to_string()),
        ("carthage".to_string(), CARTHAGE.to_string()),
    ]);
    let layout = toml::Table::from_iter([("deployment_round".into(), false.into())]);
    let game = FrAncients.new_game(&Setup {
        scenario_path: Path::new("campaigns/fr-ancients/scenarios/trebia.toml"),
        scenario_text: SCENARIO,
        options: &layout,
        max_turns: MAX_TURNS,
        seed: [0; 32],
        armies: &armies,
        pack,
        companions: &BTreeMap::new(),
    })?;
    State::read(&game.state)
}

/// Play the round a stored game waits for as the post office plays it:
/// the rule set's `resolve` with each writer's checked orders by side (the
/// game master's under [`GAME_MASTER`]). FR! Ancients reads the whole game
/// from its state: the post office's other records (the rules' identity,
/// the scenario's text, the game file's length) are not needed here.
///
/// # Errors
/// What `resolve` refuses: a state or orders that cannot be read, a
/// scripted die without a value.
pub fn play_round(
    state: &Json,
    orders: &BTreeMap<String, Json>,
    dice: &mut dyn Dice,
) -> Result<Resolved, RulesetError> {
    FrAncients.resolve(RoundInput {
        state,
        options: &Json::Null,
        setup: "",
        last_turn: MAX_TURNS,
        orders,
        dice,
    })
}

/// The transcript, one mail (or report) per entry; a step the rule set
/// refuses ends it with the reason.
pub fn one_turn_with_gm() -> Vec<String> {
    let mut out = Vec::new();
    if let Err(e) = play_one_turn(&mut out) {
        out.push(format!("the Trebia stops: {e}"));
    }
    out
}

/// [`one_turn_with_gm`]'s two phases, each round as the post office plays
/// it: the phasing side's orders checked, then the round resolved; while a
/// situation waits, the game master's answer checked and the next round
/// resolved with it.
fn play_one_turn(out: &mut Vec<String>) -> Result<(), RulesetError> {
    let mut state = trebia(None)?.to_json()?;
    let mut dice = SeededDice::new(SEED);
    out.push(format!("The dice's seed commitment: {}", dice.commitment()));
    for _ in 0..2 {
        // The phasing side moves; the other writes no standing orders here.
        let (side, text) = demo_orders(&state)?;
        let checked = FrAncients.check_orders(&state, &side, &text, &[])?;
        out.push(format!(
            "From {side}:\n{text}\nThe umpire's confirmation:\n{}",
            checked.confirmation
        ));
        let mut orders = BTreeMap::from([(side, checked.orders)]);
        for _ in 0..MAX_ROUNDS {
            let resolved = play_round(&state, &orders, &mut dice)?;
            state = resolved.state;
            let Some(situation) = FrAncients.round(&state)?.game_master else {
                out.push(format!(
                    "Report to both sides (the demonstration's game master plays by the stand-in rules, not FR!):\n{}",
                    report_text(&resolved.sections)
                ));
                break;
            };
            out.push(format!("To the game master:\n{situation}"));
            let answer = stand_in_answer(&state)?;
            out.push(format!("From the game master:\n{answer}"));
            let checked = FrAncients.check_orders(&state, GAME_MASTER, &answer, &[])?;
            if checked.errors > 0 {
                out.push(format!(
                    "The umpire to the game master:\n{}",
                    checked.confirmation
                ));
            }
            orders = BTreeMap::from([(GAME_MASTER.to_string(), checked.orders)]);
        }
    }
    Ok(())
}

/// A report's sections as plain text: each title, then its lines.
fn report_text(sections: &[Section]) -> String {
    let mut out = String::new();
    for s in sections {
        out.push_str(&s.title);
        out.push('\n');
        for l in &s.lines {
            out.push_str(&format!("  - {l}\n"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_the_stand_in_a_phase_is_played_through() {
        let state = trebia(Some(super::super::pack::STAND_IN))
            .unwrap()
            .to_json()
            .unwrap();
        let mut dice = SeededDice::new([3; 32]);
        let r = play_round(&state, &BTreeMap::new(), &mut dice).unwrap();
        assert!(
            FrAncients.round(&r.state).unwrap().game_master.is_none(),
            "a pack answers everything"
        );
        assert!(report_text(&r.sections).contains("stand-in rules, not FR!"));
        assert_eq!(State::read(&r.state).unwrap().battle.phase, 2);
    }
}
