//! FR! Ancients behind the rule-set boundary: what the post office, the
//! report frame and the case runner ask of a rule set, answered with this
//! folder's army checker, order language, engine, game master's desk,
//! report and picture.
//!
//! What crosses the boundary: the state is the [`Battle`] at the start of
//! the phase to play, with the house rules, the pack's text (if any) and,
//! while the game master is asked, the phase [`Pending`]; a side's orders
//! are its checked [`SideOrders`]; the game master's are his answer's text.
//!
//! A turn is two phases (ruling FA-1) and a phase is a **round**: the
//! phasing side writes; the other may send its standing orders
//! (counter-charges, opening ranks) before the round is played. With a
//! pack the phase is played at once. Without one, where the sheet cannot
//! resolve alone the phase stops at a situation, and the next round is one
//! the **game master** answers ([`Round::game_master`], ruling FA-44): the
//! post office mails him the situation and its dice, takes his answer under
//! `TURN n`, and this rule set replays the phase from its start with the
//! dice already rolled and every answer so far — to the next situation (a
//! further round of his) or the end of the phase, whose report the players
//! get.
//!
//! ```
//! use umpire::games::{ruleset, Ruleset};
//! let r = ruleset("fr-ancients").unwrap();
//! assert_eq!(r.title(), "FR! Ancients");
//! assert!(r.guide().contains("Trebia"));
//! ```

use super::deployment;
use super::desk::values::{read_values, Values};
use super::desk::{read_answers, write_answer, Situation};
use super::events::Logged;
use super::options::Options;
use super::orders::{SideOrders, TurnOrders};
use super::pack::Pack;
use super::report::{self, svg, table_summary, Report};
use super::start::{start_battle, zones};
use super::state::{json, replay, Deploying, Pending, Replayed, Rolled, State};
use super::table::Battle;
use super::verdict::{judge, phase_label, Ending, Verdict};
use crate::diagnostic::Rendered;
use crate::dice::{DieKind, ScriptedDice};
use crate::games::read;
use crate::games::CaseOutcome;
use crate::games::{
    Checked, Json, NewGame, Resolved, Round, RoundInput, Ruleset, RulesetError, Setup, Welcome,
    GAME_MASTER,
};
use crate::report::{RoundReport, Section};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// *FR! Ancients* as a [`Ruleset`].
pub struct FrAncients;

/// The game master's checked answer, as stored: its text (with any
/// `VALUES` block, blanked out when the answers are read).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct GmOrders {
    answer: String,
}

/// What the options say about a game, for its rules' identity.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Identity {
    options: Options,
    /// The pack's name and SHA-256, when there is one.
    pack: Option<(String, String)>,
}

/// The round a state waits for.
fn round_of(state: &State) -> Round {
    if state.deploying.is_some() {
        return deployment::round(state);
    }
    let b = &state.battle;
    let number = state.played + 1;
    let label = phase_label(b);
    match &state.pending {
        Some(p) => Round {
            number,
            label,
            writers: Vec::new(),
            game_master: Some(p.situation.clone()),
        },
        None => Round {
            number,
            label,
            writers: vec![b.phasing().clone()],
            game_master: None,
        },
    }
}

/// The round a player's `TURN turn` names (a game turn, ruling FA-44): the
/// round waiting when it is of that turn; the next, when the waiting one is
/// the turn's second phase (and no game master's round may come between);
/// else none (0). With `PHASE phase` too: the round waiting when it is that
/// phase, the next when that is the next phase (held until it opens). And
/// the header's words for the round waiting (with its phase when the
/// player wrote one).
fn header_turn_of(state: &State, turn: u32, phase: Option<u32>) -> (u32, String) {
    if state.deploying.is_some() {
        return deployment::header_turn(state, turn, phase);
    }
    let b = &state.battle;
    let number = state.played + 1;
    let now = (b.turn, u32::from(b.phase));
    let next = if b.phase == 1 {
        (b.turn, 2)
    } else {
        (b.turn + 1, 1)
    };
    let may_hold = state.pending.is_none();
    let named = match phase {
        None if turn == b.turn => number,
        None if turn == b.turn + 1 && b.phase == 2 && may_hold => number + 1,
        Some(p) if (turn, p) == now => number,
        Some(p) if (turn, p) == next && may_hold => number + 1,
        _ => 0,
    };
    let write = match phase {
        None => format!("TURN {}", b.turn),
        Some(_) => format!("TURN {} PHASE {}", b.turn, b.phase),
    };
    (named, write)
}

/// The game master's mail for the round he answers: a `VALUES` block (if
/// any) and his answers to the situation, each checked.
fn check_gm(
    state: &State,
    sheet: &str,
    mut text: String,
    envelope_errors: usize,
) -> Result<Checked, RulesetError> {
    let Some(p) = &state.pending else {
        text.push_str("No question waits for the game master; nothing was taken.\n");
        return Ok(Checked {
            orders: json(&GmOrders::default())?,
            understood: Vec::new(),
            confirmation: text,
            errors: envelope_errors + 1,
        });
    };
    // The situation again: the phase replayed with the dice rolled.
    let mut none = ScriptedDice::default();
    let r = replay(state, &p.orders, &p.answers, &p.rolled, &mut none)?;
    let Some(situation) = r.situation else {
        return Err(RulesetError::Corrupt(
            "the phase waiting for the game master replays to its end".into(),
        ));
    };
    let values = read_values(Some(&r.run.battle), sheet);
    let reading = read_answers(&situation, &r.run.battle, &values.rest);
    let mut understood: Vec<(String, String)> = values
        .understood(Some(&r.run.battle))
        .into_iter()
        .map(|l| ("values".to_string(), l))
        .collect();
    // The echo names units and characters, never their ids.
    let b = &r.run.battle;
    let shown = |id: &str| match b.characters.get(id) {
        Some(c) => c.name.clone(),
        None => b.name(id),
    };
    understood.extend(situation.questions.iter().enumerate().filter_map(|(i, q)| {
        reading
            .answers
            .get(&q.key)
            .map(|a| (q.key.clone(), write_answer(i + 1, a, &shown)))
    }));
    text.push_str("Understood:\n");
    if understood.is_empty() {
        text.push_str("  (nothing)\n");
    }
    for (_, l) in &understood {
        let _ = writeln!(text, "  {l}");
    }
    if values.found {
        text.push_str("  (the values hold for the rest of the game, from the next phase on)\n");
    }
    for rendered in [values.render(), reading.render()] {
        if !rendered.is_empty() {
            text.push('\n');
            text.push_str(&rendered);
            text.push('\n');
        }
    }
    let errors = values
        .diagnostics
        .iter()
        .chain(&reading.diagnostics)
        .filter(|d| crate::diagnostic::Severity::is_error(&d.kind))
        .count();
    Ok(Checked {
        orders: json(&GmOrders {
            answer: sheet.to_string(),
        })?,
        understood,
        confirmation: text,
        errors: errors + envelope_errors,
    })
}

/// The battle a phase left, with each unit's profile as the scenario gave
/// it: the game master's values are applied afresh to every phase, so a
/// later `VALUES` replaces an entry whole.
fn without_values(mut after: Battle, before: &Battle) -> Battle {
    for (id, u) in after.units.iter_mut() {
        if let Some(b) = before.units.get(id) {
            u.profile = b.profile;
        }
    }
    after
}

/// A side's units for its welcome, and an order to copy; with `sealed`
/// (a deployment round to come) the enemy's places are not told, and the
/// order to copy is a placing.
fn forces(b: &Battle, side: &str, sealed: bool) -> (String, String) {
    let mut s = String::from("Your units:\n");
    let mut example = String::new();
    for u in b.units.values().filter(|u| u.side == side) {
        let _ = writeln!(s, "  {}", unit_line(u));
        if example.is_empty() && u.troop.is_cavalry() && sealed {
            example = format!(
                "{}: deploy at {:.1}, {:.1} facing {:.0}\n",
                u.name, u.front.x, u.front.y, u.facing
            );
        } else if example.is_empty() && u.troop.is_cavalry() {
            let ahead = if b.sides[0].id == side { 6.0 } else { -6.0 };
            example = format!(
                "{}: move to {:.1}, {:.1}\n",
                u.name,
                u.front.x,
                u.front.y + ahead
            );
        }
    }
    characters(&mut s, b, |c| c == side, "Your characters");
    // A miniatures table hides nothing: the enemy stands in plain view.
    for enemy in b.sides.iter().filter(|e| e.id != side) {
        if sealed {
            let _ = writeln!(
                s,
                "\nThe enemy, {} (their places are sealed until both sides have deployed):",
                enemy.id
            );
        } else {
            let _ = writeln!(s, "\nThe enemy, {}:", enemy.id);
        }
        for u in b.units.values().filter(|u| u.side == enemy.id) {
            if sealed {
                let _ = writeln!(s, "  {} ({}, {} bases wide)", u.name, u.troop, u.files);
            } else {
                let _ = writeln!(s, "  {}", unit_line(u));
            }
        }
        characters(&mut s, b, |c| c == enemy.id, "Their characters");
    }
    (s, example)
}

/// A unit as the briefing lists it: name, troop, width, where it stands.
fn unit_line(u: &super::table::Unit) -> String {
    format!(
        "{} ({}, {} bases wide) at {:.1}, {:.1} facing {:.0}",
        u.name, u.troop, u.files, u.front.x, u.front.y, u.facing
    )
}

/// The characters of the sides `whose` accepts, under `heading`.
fn characters(s: &mut String, b: &Battle, whose: impl Fn(&str) -> bool, heading: &str) {
    let people: Vec<String> = b
        .characters
        .values()
        .filter(|c| whose(&c.side))
        .map(|c| {
            format!(
                "  {} {}, with {}",
                c.rank,
                c.name,
                c.with.as_deref().map_or("no unit".into(), |u| b.name(u))
            )
        })
        .collect();
    if !people.is_empty() {
        let _ = writeln!(s, "{heading}:");
        for p in people {
            let _ = writeln!(s, "{p}");
        }
    }
}

fn event_lines(events: &[Logged], b: &Battle) -> Json {
    Json::Array(
        events
            .iter()
            .map(|l| serde_json::json!({"part": l.part.code(), "line": l.event.line(b)}))
            .collect(),
    )
}

/// A phase round's input: the phase's orders (the players' of its first
/// round, kept while the game master is asked), his answers so far with
/// this round's, the dice already rolled, and the `VALUES` he gave now
/// (held from the next phase).
struct PhaseInput {
    orders: TurnOrders,
    answers: Vec<String>,
    rolled: BTreeMap<String, Rolled>,
    given: Values,
}

impl PhaseInput {
    fn of(state: &State, orders: &BTreeMap<String, Json>) -> Result<PhaseInput, RulesetError> {
        let (phase_orders, mut answers, rolled) = match &state.pending {
            Some(p) => (p.orders.clone(), p.answers.clone(), p.rolled.clone()),
            None => {
                let mut phase_orders = TurnOrders::default();
                for (side, o) in orders {
                    if side != GAME_MASTER {
                        phase_orders
                            .sides
                            .insert(side.clone(), read::<SideOrders>("orders", o)?);
                    }
                }
                (phase_orders, Vec::new(), BTreeMap::new())
            }
        };
        let mut given = Values::default();
        if state.pending.is_some() {
            if let Some(gm) = orders.get(GAME_MASTER) {
                let text = read::<GmOrders>("the game master's answer", gm)?.answer;
                given = read_values(Some(&state.battle), &text).values;
                answers.push(text);
            }
        }
        Ok(PhaseInput {
            orders: phase_orders,
            answers,
            rolled,
            given,
        })
    }
}

/// Every die a replay rolled, as the report lists it: those of earlier
/// rounds with the round that rolled them.
fn dice_lines(r: &Replayed) -> Vec<String> {
    r.rolls
        .iter()
        .map(|(k, v, earlier)| match earlier {
            Some(n) => format!("{k} = {v} (rolled in round {n})"),
            None => format!("{k} = {v}"),
        })
        .collect()
}

/// The round stopped at a situation: the phase so far is reported, the
/// game master is asked, and the phase waits ([`Pending`]) with every die
/// rolled so far.
fn waiting(
    state: &State,
    mut next: State,
    phase: PhaseInput,
    r: Replayed,
    situation: Situation,
) -> Result<Resolved, RulesetError> {
    let this_round = state.played + 1;
    let label = phase_label(&state.battle);
    let mut all = phase.rolled;
    for (k, v, earlier) in &r.rolls {
        if earlier.is_none() {
            all.insert(
                k.clone(),
                Rolled {
                    value: *v,
                    round: this_round,
                },
            );
        }
    }
    let lines: Vec<String> = r
        .run
        .events
        .iter()
        .map(|l| format!("{}: {}", l.part.heading(), l.event.line(&r.run.battle)))
        .collect();
    let sections = vec![
        Section {
            title: "Base rules".into(),
            lines: vec![state.base_rules()?],
        },
        Section {
            title: format!("{label} so far"),
            lines,
        },
        Section {
            title: "The game master is asked".into(),
            lines: situation.text.lines().map(str::to_string).collect(),
        },
    ];
    next.pending = Some(Pending {
        orders: phase.orders,
        answers: phase.answers,
        rolled: all,
        part: situation.part,
        situation: situation.text,
        values: state
            .pending
            .as_ref()
            .map_or(&state.values, |p| &p.values)
            .clone(),
    });
    Ok(Resolved {
        state: json(&next)?,
        events: event_lines(&r.run.events, &r.run.battle),
        sections,
        dice: dice_lines(&r),
        summary: table_summary(&r.run.battle),
        summary_title: format!("The table where {label} waits"),
        victory: Vec::new(),
        ended: false,
        result: None,
        extra: serde_json::Map::new(),
    })
}

/// The phase played to its end: its report (after `answers` of the game
/// master's, if any), and after the last turn or a clock run down who won.
fn played(
    state: &State,
    mut next: State,
    answers: usize,
    r: Replayed,
) -> Result<Resolved, RulesetError> {
    let dice = dice_lines(&r);
    let after = r.run.battle;
    let report = Report::new(&after, &r.run.events);
    let mut sections = vec![Section {
        title: "Base rules".into(),
        lines: vec![state.base_rules()?],
    }];
    if answers > 0 {
        sections[0].lines.push(format!(
            "The game master answered {answers} situation(s) of this phase."
        ));
    }
    sections.extend(report.sections.iter().map(|s| Section {
        title: s.heading.to_string(),
        lines: s.lines.clone(),
    }));
    let ended = after.over.is_some() || after.turn > state.last_turn;
    let verdict = if ended {
        let ending = if after.over.is_some() {
            Ending::ClockRanDown
        } else {
            Ending::LastTurn(state.last_turn)
        };
        Some(judge(&after, state.ends_at()?, ending, &state.options))
    } else {
        None
    };
    let victory = verdict
        .as_ref()
        .map(|v| v.lines.clone())
        .unwrap_or_default();
    let events = event_lines(&r.run.events, &after);
    let summary = table_summary(&after);
    next.battle = without_values(after, &state.battle);
    next.pending = None;
    let summary_title = if ended {
        "The table at the end".to_string()
    } else {
        format!("The table before {}", round_of(&next).label)
    };
    let mut extra = serde_json::Map::new();
    extra.insert("clocks".into(), json(&report.summary)?);
    Ok(Resolved {
        state: json(&next)?,
        events,
        sections,
        dice,
        summary,
        summary_title,
        victory,
        ended,
        result: verdict.as_ref().map(Verdict::result),
        extra,
    })
}

/// What the welcome says of the game's length, its base rules and how a
/// phase and the battle are won.
fn length_of(max_turns: u32, battle: &Battle, pack: Option<&Pack>) -> String {
    let base = match pack {
        Some(p) => format!(
            "Base rules: the pack {} (sha256 {}){}.{}",
            p.name,
            p.hash,
            if p.stand_in {
                " — stand-in rules, not FR!"
            } else {
                ""
            },
            p.division()
                .map(|d| format!(" A mixed game: {d}, and a phase may wait for his answers before its report comes."))
                .unwrap_or_default()
        ),
        None => "No pack: the game master resolves the base rules; a phase may wait for his answers before its report comes.".to_string(),
    };
    let decided = "How a phase is won (the sheet's step 7): 1 point for each enemy unit demoralized, 2 for each destroyed; the higher total wins the phase, and the loser lowers its morale clock by one (step 8). A character destroyed, the baggage looted or a battle standard lost lowers it too. With a pack, a side whose clock runs down to the pack's end has lost the battle; otherwise the battle ends after its last turn and the higher clock wins (level clocks: the standards taken, then a draw). The last report says who won and why.";
    format!(
        "The battle lasts at most {} turns, each of two phases: {}'s, then {}'s. Each phase is a round: the phasing side writes its moves, charges, shots and challenges; the other may send its standing orders (counter-charge, open ranks) before it is played.\n{base}\n{decided}",
        max_turns,
        battle.sides[0].id,
        battle.sides[1].id,
    )
}

/// Each side's welcome: the length, its forces and an order to copy, and
/// the table at the start; with a deployment round to come, its zone and
/// only its own army in the picture.
fn welcomes(
    title: &str,
    battle: &Battle,
    ids: &[String],
    length: &str,
    deploying: Option<&Deploying>,
) -> BTreeMap<String, Welcome> {
    let start = svg(None, battle, "The table at the start");
    ids
        .iter()
        .map(|id| {
            let (mut briefing, example) = forces(battle, id, deploying.is_some());
            let mut picture = start.clone();
            let mut length = length.to_string();
            if let Some(d) = deploying {
                length.push('\n');
                length.push_str(&deployment::briefing(&d.zones, id));
                briefing.push_str("\nYour units stand where the scenario's layout puts them until you place them.\n");
                let own = deployment::own_side(battle, id);
                picture = svg(None, &own, "Your army as the scenario lays it out");
                if let Some(zone) = d.zones.get(id) {
                    picture = report::with_zone(&picture, &own, zone);
                }
            }
            (
                id.clone(),
                Welcome {
                    rules: title.to_string(),
                    length,
                    briefing,
                    example,
                    picture: Some(picture),
                },
            )
        })
        .collect()
}

impl Ruleset for FrAncients {
    fn name(&self) -> &'static str {
        super::RULESET
    }

    fn title(&self) -> &'static str {
        "FR! Ancients"
    }

    fn version(&self, options: &Json) -> String {
        let pack = options
            .get("pack")
            .and_then(|p| p.as_array())
            .map(|p| {
                format!(
                    "pack {} sha256 {}",
                    p.first().and_then(Json::as_str).unwrap_or(""),
                    p.get(1).and_then(Json::as_str).unwrap_or("")
                )
            })
            .unwrap_or_else(|| "no pack (the game master)".into());
        format!(
            "{} {} {pack} options {}",
            super::RULESET,
            env!("CARGO_PKG_VERSION"),
            options.get("options").unwrap_or(&Json::Null)
        )
    }

    fn guide(&self) -> &'static str {
        include_str!("../../../docs/fr-ancients/guide.md")
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            (
                "fr-ancients/summary.txt",
                include_str!("../../../templates/fr-ancients/summary.txt"),
            ),
            (
                "fr-ancients/summary.html",
                include_str!("../../../templates/fr-ancients/summary.html"),
            ),
        ]
    }

    fn new_game(&self, setup: &Setup<'_>) -> Result<NewGame, RulesetError> {
        let mut sides: Vec<(String, String)> = setup
            .armies
            .keys()
            .map(|s| (s.clone(), format!("the army file of side {s}")))
            .collect();
        if sides.is_empty() {
            sides.push((
                "?".into(),
                "(none: give each [[side]] an `army` file)".into(),
            ));
        }
        let (battle, options, pack) = start_battle(
            setup.options,
            &sides,
            setup.scenario_text,
            setup.armies,
            setup.pack,
        )
        .map_err(|e| RulesetError::Setup(e.join("; ")))?;
        let mut ids: Vec<String> = battle.sides.iter().map(|s| s.id.clone()).collect();
        ids.sort();
        for id in &ids {
            if !setup.armies.contains_key(id) {
                return Err(RulesetError::Setup(format!(
                    "side {id} has no army file: give its [[side]] `army = \"FILE\"`"
                )));
            }
        }
        let length = length_of(setup.max_turns, &battle, pack.as_ref());
        let deploying = if options.deployment_round {
            let zones = zones(setup.scenario_text, &battle)
                .map_err(|e| RulesetError::Setup(e.join("; ")))?;
            Some(Deploying { zones })
        } else {
            None
        };
        let welcome = welcomes(self.title(), &battle, &ids, &length, deploying.as_ref());
        let identity = Identity {
            options: options.clone(),
            pack: pack.as_ref().map(|p| (p.name.clone(), p.hash.clone())),
        };
        let state = State {
            battle,
            options,
            pack: setup.pack.map(str::to_string),
            played: 0,
            last_turn: setup.max_turns,
            pending: None,
            values: Values::default(),
            deploying,
        };
        Ok(NewGame {
            state: json(&state)?,
            options: json(&identity)?,
            sides: ids,
            last_turn: setup.max_turns,
            welcome,
        })
    }

    fn sides(&self, state: &Json) -> Result<Vec<String>, RulesetError> {
        let s: State = State::read(state)?;
        let mut ids: Vec<String> = s.battle.sides.iter().map(|s| s.id.clone()).collect();
        ids.sort();
        Ok(ids)
    }

    fn round(&self, state: &Json) -> Result<Round, RulesetError> {
        Ok(round_of(&State::read(state)?))
    }

    fn header_turn(
        &self,
        state: &Json,
        turn: u32,
        phase: Option<u32>,
    ) -> Result<(u32, String), RulesetError> {
        Ok(header_turn_of(&State::read(state)?, turn, phase))
    }

    fn check_orders(
        &self,
        state: &Json,
        side: &str,
        sheet: &str,
        envelope: &[Rendered],
    ) -> Result<Checked, RulesetError> {
        let state: State = State::read(state)?;
        let mut text = String::new();
        for d in envelope {
            text.push_str(&d.text);
            text.push('\n');
        }
        let envelope_errors = envelope.iter().filter(|d| d.error).count();
        if side == GAME_MASTER {
            return check_gm(&state, sheet, text, envelope_errors);
        }
        if let Some(d) = &state.deploying {
            return deployment::check(&state, d, side, sheet, text, envelope_errors);
        }
        let c = state.check_orders(side, sheet)?;
        let lines = c.confirmation(&state.battle);
        text.push_str("Understood:\n");
        if lines.is_empty() {
            text.push_str("  (nothing)\n");
        }
        for l in &lines {
            let _ = writeln!(text, "  {l}");
        }
        let rendered = c.render();
        if !rendered.is_empty() {
            text.push('\n');
            text.push_str(&rendered);
            text.push('\n');
        }
        let errors = c
            .diagnostics
            .iter()
            .filter(|d| crate::diagnostic::Severity::is_error(&d.kind))
            .count();
        Ok(Checked {
            orders: json(&c.orders)?,
            understood: lines
                .into_iter()
                .enumerate()
                .map(|(i, l)| (format!("line {}", i + 1), l))
                .collect(),
            confirmation: text,
            errors: errors + envelope_errors,
        })
    }

    /// The game master's `VALUES` while no situation waits for him: taken
    /// whole or not at all, and held from the phase played next.
    fn moderator_data(
        &self,
        state: &Json,
        text: &str,
    ) -> Result<Option<(Option<Json>, String)>, RulesetError> {
        let mut state: State = State::read(state)?;
        let v = read_values(Some(&state.battle), text);
        if !v.found {
            return Ok(None);
        }
        let mut reply = String::from("Your VALUES for the game:\n");
        let lines = v.understood(Some(&state.battle));
        if lines.is_empty() {
            reply.push_str("  (nothing)\n");
        }
        for l in &lines {
            let _ = writeln!(reply, "  {l}");
        }
        let rendered = v.render();
        if !rendered.is_empty() {
            let _ = write!(reply, "\n{rendered}\n");
        }
        if v.rest.lines().any(|l| !l.trim().is_empty()) {
            reply.push_str("\nThe lines outside the block were not read: no question waits for the game master now.\n");
        }
        let refused = v
            .diagnostics
            .iter()
            .any(|d| crate::diagnostic::Severity::is_error(&d.kind));
        if refused {
            reply.push_str("\nNothing was taken: send the block again, corrected.\n");
            return Ok(Some((None, reply)));
        }
        state.values.merge(&v.values);
        reply.push_str("\nThey hold for the rest of the game, from the phase played next; a later VALUES replaces the entries it names.\n");
        Ok(Some((Some(json(&state)?), reply)))
    }

    fn die_for(&self, _state: &Json, key: &str) -> Result<DieKind, String> {
        let word = key.split(':').next().unwrap_or("");
        let known = [
            "challenge",
            "compass",
            "distance",
            "escape",
            "fate",
            "fear",
            "judge",
            "melee",
            "move",
            "rally",
            "standard",
            "fire",
            "damage",
            "impetuous",
        ];
        if key.contains(':') && known.contains(&word) {
            Ok(DieKind::D10)
        } else {
            Err(format!(
                "'{key}' is not an FR! Ancients dice key (a situation shows every key in [brackets], e.g. rally:UNIT:1)"
            ))
        }
    }

    fn resolve(&self, input: RoundInput<'_>) -> Result<Resolved, RulesetError> {
        let state: State = State::read(input.state)?;
        if let Some(d) = &state.deploying {
            return deployment::resolve(&state, d, input.orders);
        }
        let phase = PhaseInput::of(&state, input.orders)?;
        let mut r = replay(
            &state,
            &phase.orders,
            &phase.answers,
            &phase.rolled,
            input.dice,
        )?;
        let mut next = state.clone();
        next.played = state.played + 1;
        next.values.merge(&phase.given);
        match r.situation.take() {
            Some(situation) => waiting(&state, next, phase, r, situation),
            None => played(&state, next, phase.answers.len(), r),
        }
    }

    fn picture(
        &self,
        before: &Json,
        after: &Json,
        report: &RoundReport,
    ) -> Result<String, RulesetError> {
        let after: State = State::read(after)?;
        // After the deployment nothing moved: the table is drawn as placed.
        let before: Option<State> = State::read(before).ok().filter(|s| s.deploying.is_none());
        Ok(svg(
            before.as_ref().map(|s| &s.battle),
            &after.battle,
            &format!("{} — after {}", report.title, report.label),
        ))
    }

    fn canonical(&self, state: &Json) -> Result<Json, RulesetError> {
        json(&State::read(state)?)
    }

    /// The battle judged as it stands (ruling FA-45): a side whose clock
    /// has run down has lost; else the higher clock, then the standards'
    /// points, or a draw (`last_turn_result = "draw"`: a draw).
    fn standing(
        &self,
        _setup: &str,
        state: &Json,
    ) -> Result<Option<crate::games::GameResult>, RulesetError> {
        let state: State = State::read(state)?;
        let ending = if state.battle.over.is_some() {
            Ending::ClockRanDown
        } else {
            Ending::Stopped
        };
        Ok(Some(
            judge(&state.battle, state.ends_at()?, ending, &state.options).result(),
        ))
    }

    /// The general plays with a pack: it reaches with the pack's
    /// allowances, where without one every move waits on the game master.
    fn general_plays(&self, options: &Json) -> Result<(), String> {
        let identity: Identity =
            crate::games::read("the game's options", options).map_err(|e| e.to_string())?;
        match identity.pack {
            Some(_) => Ok(()),
            None => Err("the umpire's general plays FR! Ancients only with a pack (the house pack: `pack = \"house-pack.toml\"`, or a club's): without one every move it writes waits on the game master's values".into()),
        }
    }

    fn general_orders(
        &self,
        _setup: &str,
        state: &Json,
        side: &str,
        style: crate::sim::Style,
    ) -> Result<String, RulesetError> {
        super::general::general_sheet(&State::read(state)?, side, style)
    }

    fn run_case(&self, text: &str) -> CaseOutcome {
        super::case::run_text(text)
    }

    fn case_state(&self, text: &str) -> Result<Json, RulesetError> {
        let (battle, options, pack) =
            super::case::case_battle(text).map_err(RulesetError::Setup)?;
        json(&State {
            battle,
            options,
            pack,
            played: 0,
            last_turn: u32::MAX,
            pending: None,
            values: Values::default(),
            deploying: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameResult;

    /// Two units a side apart, with the stand-in pack and these clocks.
    fn state(rome: i32, carthage: i32) -> Json {
        let case = format!(
            r#"ruleset = "fr-ancients"
title = "t"
rule = "M10"
pack = "stand-in"
[table]
width = 48.0
depth = 48.0
[[side]]
id = "rome"
clock = {rome}
[[side]]
id = "carthage"
clock = {carthage}
[[unit]]
id = "a"
side = "rome"
name = "Hastati"
type = "Handweapons"
files = 4
ranks = 1
front = [10.0, 10.0]
facing = 0.0
[[unit]]
id = "b"
side = "carthage"
name = "Spearmen"
type = "Spears"
files = 4
ranks = 1
front = [30.0, 40.0]
facing = 180.0
"#
        );
        FrAncients.case_state(&case).unwrap()
    }

    /// Play the phase the state waits for, with no orders.
    fn play(state: &Json, last_turn: u32) -> Resolved {
        let mut state = state.clone();
        state["last_turn"] = last_turn.into();
        let mut dice = crate::dice::SeededDice::new([7; 32]);
        FrAncients
            .resolve(RoundInput {
                state: &state,
                options: &Json::Null,
                setup: "",
                last_turn,
                orders: &BTreeMap::new(),
                dice: &mut dice,
            })
            .unwrap()
    }

    #[test]
    fn the_last_phase_names_the_winner_and_why() {
        let mut s = state(6, 5);
        s["battle"]["phase"] = 2.into();
        let r = play(&s, 1);
        assert!(r.ended);
        assert_eq!(
            r.result,
            Some(GameResult::Won {
                side: "rome".into()
            })
        );
        assert!(
            r.victory[0].contains("Rome's morale clock stands at 6, Carthage's at 5"),
            "{:?}",
            r.victory
        );
        assert_eq!(r.victory.last().unwrap(), "Rome has won the battle.");
    }

    #[test]
    fn a_phase_before_the_last_names_no_result() {
        let r = play(&state(6, 5), 1);
        assert!(!r.ended, "phase 1 of the last turn is not the end");
        assert_eq!(r.result, None);
        assert!(r.victory.is_empty());
    }

    #[test]
    fn a_players_turn_is_the_game_turn() {
        let mut s: State = State::read(&state(5, 5)).unwrap();
        s.played = 6;
        assert_eq!(
            header_turn_of(&s, 1, None),
            (7, "TURN 1".into()),
            "turn 1: the round waiting"
        );
        assert_eq!(
            header_turn_of(&s, 7, None).0,
            0,
            "a round's number is no turn"
        );
        assert_eq!(
            header_turn_of(&s, 2, None).0,
            0,
            "turn 2 is two rounds away"
        );
        assert_eq!(header_turn_of(&s, 1, Some(1)), (7, "TURN 1 PHASE 1".into()));
        assert_eq!(header_turn_of(&s, 1, Some(2)).0, 8, "the next phase: held");
        assert_eq!(header_turn_of(&s, 2, Some(1)).0, 0, "two phases away");
        assert_eq!(header_turn_of(&s, 1, Some(3)).0, 0, "a turn has two phases");
        s.battle.phase = 2;
        assert_eq!(
            header_turn_of(&s, 2, None),
            (8, "TURN 1".into()),
            "the next phase: held"
        );
        assert_eq!(header_turn_of(&s, 2, Some(1)).0, 8);
        assert_eq!(header_turn_of(&s, 1, Some(1)).0, 0, "phase 1 is over");
        assert_eq!(header_turn_of(&s, 1, Some(2)), (7, "TURN 1 PHASE 2".into()));
        assert_eq!(round_of(&s).label, "turn 1, Carthage's phase");
    }

    #[test]
    fn the_standing_result_judges_the_clocks_as_they_are() {
        assert_eq!(
            FrAncients.standing("", &state(4, 7)).unwrap(),
            Some(GameResult::Won {
                side: "carthage".into()
            })
        );
        assert_eq!(
            FrAncients.standing("", &state(5, 5)).unwrap(),
            Some(GameResult::Drawn)
        );
    }
}
