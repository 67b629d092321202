//! A battle round resolved: the phasing player's player-turn (or, with
//! `split_turn`, one of its exchanges), and with `ask_owner` the stop at a
//! question to the other player and the replay after his answer (FB-19).
//!
//! A question round stores what the replay needs in [`Asked`]: the board
//! the player-turn started from, the phasing player's orders, the other
//! player's reactions as they stood (with his answers so far), and the
//! dice the turn rolled before the question. The replay reads those dice
//! again by key and the answers by occasion, so it repeats, event for
//! event, what the reports already told, and only then goes on.

use super::rounds::{answering, exchange_of, round_of};
use super::state::{overlay, Asked, Moved, SideOrders, State};
use crate::dice::{Dice, Recorded, Replayed};
use crate::games::furor::ask::answer_text;
use crate::games::furor::board::SideId;
use crate::games::furor::error::EngineError;
use crate::games::furor::events::Event;
use crate::games::furor::options::Options;
use crate::games::furor::orders::check::Exchange;
use crate::games::furor::orders::{Answer, Reactions};
use crate::games::furor::sequence::{
    begin_turn, resolve, resolve_combat, resolve_movement, Resolution, StopAfter,
};
use crate::games::read;
use crate::games::{Json, RulesetError};
use std::collections::BTreeMap;

/// What a battle round gives the rule set's `resolve`.
pub struct Played {
    pub state: State,
    /// The events to report, as the board after them shows them.
    pub resolution: Resolution,
    pub dice: Vec<String>,
    /// The question the round stopped at, for the report.
    pub question: Option<Vec<String>>,
}

/// What an answering mail's reactions settle, for its confirmation.
pub fn confirm_answer(state: &State, reactions: &Reactions) -> Option<String> {
    let a = state.asked.as_ref()?;
    let answer = a.question.answer_in(reactions);
    Some(match answer {
        Answer::Default => format!(
            "\nThis mail does not answer the question of {}:\n  {}\nWithout an answer by the deadline the umpire's default applies.\n",
            round_of(state).label,
            a.question.text(&state.board).join("\n  ")
        ),
        _ => format!(
            "\nThe question of {}: {}.\n",
            round_of(state).label,
            answer_text(&a.question, answer, &state.board)
        ),
    })
}

fn engine(e: EngineError) -> RulesetError {
    RulesetError::Engine(e.to_string())
}

/// Play the round of a battle with the sides' checked mail.
pub fn play(
    mut state: State,
    input_orders: &BTreeMap<String, Json>,
    options_json: &Json,
    source: &mut dyn Dice,
) -> Result<Played, RulesetError> {
    let options: Options = read("the options", options_json)?;
    let mut written: BTreeMap<SideId, SideOrders> = BTreeMap::new();
    for (side, o) in input_orders {
        written.insert(SideId::from(side.as_str()), read("orders", o)?);
    }
    let phasing = state.board.phasing().clone();
    let other = answering(&state);
    let asked = state.asked.take();
    let (start, orders, reactions, before, shown) = match asked {
        Some(a) => {
            let mut reactions = a.reactions;
            let answer = other
                .as_ref()
                .and_then(|o| written.get(o))
                .map_or(Answer::Default, |o| a.question.answer_in(&o.reactions));
            reactions.once.insert(a.key, answer);
            (a.start, a.orders, reactions, a.dice, a.shown)
        }
        None => {
            let orders = written
                .get(&phasing)
                .map(|o| o.turn.clone())
                .unwrap_or_default();
            let mut reactions = other
                .as_ref()
                .and_then(|o| state.standing.get(o))
                .cloned()
                .unwrap_or_default();
            // Reactions written this round count for this round.
            if let Some(o) = other.as_ref().and_then(|o| written.get(o)) {
                overlay(&mut reactions, &o.reactions);
            }
            (state.board.clone(), orders, reactions, Vec::new(), 0)
        }
    };
    for (side, o) in &written {
        overlay(
            state.standing.entry(side.clone()).or_default(),
            &o.reactions,
        );
    }
    let mut replayed = Replayed::new(&before, source);
    let mut dice = Recorded::new(&mut replayed);
    let mut board = start;
    let mut head = Vec::new();
    if !board.turn_started && board.next == 0 && !board.is_over() {
        let s = begin_turn(&board, &options, &mut dice).map_err(engine)?;
        board = s.board;
        head = s.events;
    }
    let begun = dice.rolls().len();
    let (mut r, moved) = match exchange_of(&state) {
        Exchange::Whole => (
            resolve(
                &board,
                &orders,
                &reactions,
                &options,
                &mut dice,
                StopAfter::PlayerTurn,
            )
            .map_err(engine)?,
            None,
        ),
        Exchange::Moves => {
            let (r, charges) = resolve_movement(&board, &orders, &reactions, &options, &mut dice)
                .map_err(engine)?;
            let moved = Moved {
                charges,
                retreat: orders.retreat.clone(),
                impetuous_routes: orders.impetuous_routes.clone(),
            };
            (r, Some(moved))
        }
        Exchange::Attacks => {
            let moved = state.moved.clone().unwrap_or_default();
            let mut orders = orders.clone();
            for (unit, hexes) in &moved.retreat {
                orders.retreat.entry(unit.clone()).or_insert(hexes.clone());
            }
            for (unit, hexes) in &moved.impetuous_routes {
                orders
                    .impetuous_routes
                    .entry(unit.clone())
                    .or_insert(hexes.clone());
            }
            let r = resolve_combat(
                &board,
                &orders,
                &reactions,
                &options,
                &mut dice,
                &moved.charges,
            )
            .map_err(engine)?;
            (r, None)
        }
    };
    let mut events = head;
    if let Some(p) = r.pause.take().filter(|_| options.ask_owner) {
        events.extend(resumed(&r.events[..p.events], shown));
        let question = p.question.text(&p.board);
        let upto = begun + p.rolls;
        let told = told(dice.rolls(), begun, before.len(), upto);
        state.asked = Some(Asked {
            start: board,
            orders,
            reactions,
            dice: dice.rolls()[begun..upto].to_vec(),
            shown: p.events,
            key: p.key,
            question: p.question,
        });
        state.questions += 1;
        state.board = p.board.clone();
        return Ok(Played {
            state,
            resolution: Resolution {
                board: p.board,
                events,
                pause: None,
            },
            dice: told,
            question: Some(question),
        });
    }
    events.extend(resumed(&r.events, shown));
    match moved {
        Some(m) => state.moved = Some(m),
        None => state.moved = None,
    }
    // A new game turn begins at once, so both players see its rolls.
    if !r.board.is_over() && !r.board.turn_started && r.board.next == 0 {
        let s = begin_turn(&r.board, &options, &mut dice).map_err(engine)?;
        r.board = s.board;
        events.extend(s.events);
    }
    let dice_told = told(dice.rolls(), begun, before.len(), dice.rolls().len());
    state.board = r.board.clone();
    Ok(Played {
        state,
        resolution: Resolution {
            board: r.board,
            events,
            pause: None,
        },
        dice: dice_told,
        question: None,
    })
}

/// The dice a round's report lists, `key = value`: the turn's start, then
/// the player-turn's rolls up to `upto` but for the `replayed` ones the
/// reports already told.
fn told(rolls: &[(String, u8)], begun: usize, replayed: usize, upto: usize) -> Vec<String> {
    rolls[..begun]
        .iter()
        .chain(&rolls[(begun + replayed).min(upto)..upto])
        .map(|(k, v)| format!("{k} = {v}"))
        .collect()
}

/// The player-turn's events from the first one not yet told; when the
/// reports told some, the phase's heading comes again before the rest.
fn resumed(events: &[Event], shown: usize) -> Vec<Event> {
    let shown = shown.min(events.len());
    let mut out = Vec::new();
    if shown > 0 {
        if let Some(h) = events[..shown]
            .iter()
            .rev()
            .find(|e| matches!(e, Event::PhaseBegins { .. }))
        {
            out.push(h.clone());
        }
    }
    out.extend_from_slice(&events[shown..]);
    out
}

#[cfg(test)]
mod tests {
    use super::super::FurorBarbarus;
    use crate::dice::ScriptedDice;
    use crate::games::furor::board::UnitId;
    use crate::games::furor::hex::Hex;
    use crate::games::{Json, Resolved, RoundInput, Ruleset};
    use std::collections::BTreeMap;

    /// The defender of a 2/1 attack on a 4 (DR) has three equally good
    /// retreat hexes: 0406, 0506 and 0606 (the default is the lowest id).
    fn board(ask: bool) -> Json {
        FurorBarbarus
            .case_state(&format!(
                r#"ruleset = "furor-barbarus"
title = "ask the owner"
rule = "15"
phasing = "franks"
[options]
ask_owner = {ask}
[map]
columns = 12
rows = 15
[[unit]]
id = "a"
side = "franks"
kind = "infantry"
strength = 6
reduced = 3
hex = "0508"
[[unit]]
id = "d"
side = "romans"
kind = "infantry"
strength = 3
reduced = 2
hex = "0507"
"#
            ))
            .unwrap()
    }

    fn options(ask: bool) -> Json {
        serde_json::json!({ "ask_owner": ask })
    }

    fn round(state: &Json, ask: bool, sheets: &[(&str, &str)], dice: &[(&str, u8)]) -> Resolved {
        let mut orders = BTreeMap::new();
        for (side, sheet) in sheets {
            let c = FurorBarbarus.check_orders(state, side, sheet, &[]).unwrap();
            assert_eq!(c.errors, 0, "{}", c.confirmation);
            orders.insert(side.to_string(), c.orders);
        }
        let given = dice.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        FurorBarbarus
            .resolve(RoundInput {
                state,
                options: &options(ask),
                setup: "",
                last_turn: 6,
                orders: &orders,
                dice: &mut ScriptedDice::new(given),
            })
            .unwrap()
    }

    fn hex_of(state: &Json, unit: &str) -> Option<Hex> {
        let s: super::State = serde_json::from_value(state.clone()).unwrap();
        s.board.unit(&UnitId::from(unit)).unwrap().hex
    }

    fn text(r: &Resolved) -> String {
        r.sections
            .iter()
            .map(|s| format!("{}\n{}\n", s.title, s.lines.join("\n")))
            .collect()
    }

    #[test]
    fn the_turn_stops_at_the_owners_choice_and_his_answer_is_played_with_the_dice_shown() {
        let start = board(true);
        let first = FurorBarbarus.round(&start).unwrap();
        let asked = round(
            &start,
            true,
            &[("franks", "attack d with a\n")],
            &[("combat:1", 4)],
        );
        let r = FurorBarbarus.round(&asked.state).unwrap();
        assert_eq!(r.number, first.number + 1);
        assert_eq!(r.writers, vec!["romans".to_string()]);
        assert!(r.label.ends_with("the romans' answer"), "{}", r.label);
        let told = text(&asked);
        assert!(
            told.contains("0406, 0506, 0606 are equally good") && told.contains("retreat d 0406"),
            "{told}"
        );
        assert!(
            !told.contains("retreats"),
            "nothing after the question: {told}"
        );
        assert_eq!(asked.dice, vec!["combat:1 = 4".to_string()]);
        assert!(!asked.ended);
        assert_eq!(hex_of(&asked.state, "d"), Some("0507".parse().unwrap()));
        // The owner's mail is confirmed as the answer.
        let c = FurorBarbarus
            .check_orders(&asked.state, "romans", "retreat d 0606\n", &[])
            .unwrap();
        assert!(
            c.confirmation.contains("d retreats to 0606"),
            "{}",
            c.confirmation
        );
        // The replay reads the combat die shown (none is given now) and
        // tells only what follows the question.
        let answered = round(&asked.state, true, &[("romans", "retreat d 0606\n")], &[]);
        assert_eq!(hex_of(&answered.state, "d"), Some("0606".parse().unwrap()));
        assert!(answered.dice.is_empty(), "{:?}", answered.dice);
        let told = text(&answered);
        assert!(told.contains("0606") && !told.contains("2/1"), "{told}");
        let next = FurorBarbarus.round(&answered.state).unwrap();
        assert_eq!(next.number, r.number + 1);
        assert_eq!(
            next.writers,
            vec!["romans".to_string()],
            "the romans' own turn"
        );
        assert!(!next.label.contains("answer"), "{}", next.label);
    }

    #[test]
    fn no_answer_by_the_deadline_is_the_default_and_no_second_question() {
        let asked = round(
            &board(true),
            true,
            &[("franks", "attack d with a\n")],
            &[("combat:1", 4)],
        );
        let c = FurorBarbarus
            .check_orders(&asked.state, "romans", "retreat d 0408\n", &[])
            .unwrap();
        assert!(
            c.confirmation.contains("does not answer the question"),
            "{}",
            c.confirmation
        );
        let silent = round(&asked.state, true, &[], &[]);
        assert_eq!(hex_of(&silent.state, "d"), Some("0406".parse().unwrap()));
        assert!(no_question(&silent.state));
        // Without the option the same turn takes the default at once.
        let plain = round(
            &board(false),
            false,
            &[("franks", "attack d with a\n")],
            &[("combat:1", 4)],
        );
        assert_eq!(hex_of(&plain.state, "d"), Some("0406".parse().unwrap()));
        assert!(no_question(&plain.state));
        assert_eq!(
            FurorBarbarus.round(&plain.state).unwrap().number,
            FurorBarbarus.round(&silent.state).unwrap().number - 1
        );
    }

    fn no_question(state: &Json) -> bool {
        state.get("asked").is_none()
    }
}
