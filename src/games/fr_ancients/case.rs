//! Rules case files for FR! Ancients (`docs/fr-ancients/cases.md`): the
//! continuous-table counterpart of the Hyborean format
//! (`shared/spec/cases.md`), with the sheet's sequence of play. A case is a
//! small battle (or an army to check), the orders, the dice under their
//! keys, the base rules (the stand-in pack, or the game master's answers
//! round by round) and what must come of it.
//!
//! A missing dice key is an ERROR naming it; a key given but never used is
//! a FAIL unless `strict_dice = false`; orders refused without a
//! `rejected` expectation are a FAIL.
//!
//! ```no_run
//! use umpire::case::{run_file, CaseOutcome};
//! assert_eq!(run_file("tests/cases/fr-ancients/fire/target-priority-nearest.toml".as_ref()), CaseOutcome::Pass);
//! ```

use super::army::{check as check_army, ArmyFile};
use super::desk::{read_answers, Desk, Situation};
use super::events::{Event, Logged};
use super::options::Options;
use super::orders::{check as check_orders, TurnOrders};
use super::pack::Pack;
use super::part::Part;
use super::questions::Base;
use super::resolve::PackRules;
use super::sequence::{run_phase, Stopped};
use super::setup::Layout;
use super::table::{Battle, StandardState};
use crate::dice::ScriptedDice;
pub use crate::games::CaseOutcome;
use crate::geometry::EPSILON;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// A case file as written (unchecked).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(rename = "ruleset")]
    _ruleset: String,
    /// What the case shows (required, for the reader).
    #[serde(rename = "title")]
    _title: String,
    /// The digest's section it checks (required, for the reader).
    #[serde(rename = "rule")]
    _rule: String,
    #[serde(default)]
    stop_after: Option<String>,
    #[serde(default)]
    strict_dice: Option<bool>,
    /// `stand-in` for the test pack; absent: the game master's desk.
    #[serde(default)]
    pack: Option<String>,
    #[serde(default)]
    table: Option<toml::Value>,
    #[serde(default)]
    side: Option<toml::Value>,
    #[serde(default)]
    terrain: Option<toml::Value>,
    #[serde(default)]
    unit: Option<toml::Value>,
    #[serde(default)]
    character: Option<toml::Value>,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    orders: BTreeMap<String, String>,
    #[serde(default)]
    dice: BTreeMap<String, i64>,
    #[serde(default)]
    gm: Vec<GmRound>,
    #[serde(default)]
    army: Option<toml::Table>,
    #[serde(default)]
    expect: toml::Table,
    #[serde(default)]
    tolerance: Tolerance,
}

/// One round of the game master's answers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GmRound {
    answer: String,
}

/// How close places must be.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Tolerance {
    front: f64,
    facing: f64,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            front: 0.1,
            facing: 1.0,
        }
    }
}

/// Where a run ended and what it said.
struct Run {
    battle: Battle,
    events: Vec<Logged>,
    /// The situation the run stopped at, waiting for answers no round gave.
    waiting: Option<Situation>,
    gm_errors: Vec<String>,
    dice_unused: Vec<String>,
}

/// Run the text of one case file.
pub fn run_text(text: &str) -> CaseOutcome {
    let file: CaseFile = match toml::from_str(text) {
        Ok(f) => f,
        Err(e) => return CaseOutcome::Error(format!("not a case file: {}", e.message())),
    };
    let pack = match file.pack.as_deref() {
        None => None,
        Some("stand-in") => Some(Pack::stand_in()),
        Some(other) => return CaseOutcome::Error(format!("pack '{other}': a case names the test pack as \"stand-in\", or none for the game master")),
    };
    if let Some(army) = &file.army {
        return army_case(army, pack.as_ref(), &file.expect);
    }
    match battle_case(&file, pack.as_ref()) {
        Ok(failures) if failures.is_empty() => CaseOutcome::Pass,
        Ok(failures) => CaseOutcome::Fail(failures),
        Err(e) => CaseOutcome::Error(e),
    }
}

fn army_case(army: &toml::Table, pack: Option<&Pack>, expect: &toml::Table) -> CaseOutcome {
    let mut t = army.clone();
    t.insert("ruleset".into(), toml::Value::String(super::RULESET.into()));
    let text = match toml::to_string(&t) {
        Ok(s) => s,
        Err(e) => return CaseOutcome::Error(e.to_string()),
    };
    let file = match ArmyFile::from_toml("[army]", &text) {
        Ok(f) => f,
        Err(e) => return CaseOutcome::Error(e.to_string()),
    };
    let r = check_army(&file, pack);
    let breaches: Vec<String> = r.breaches.iter().map(|b| b.to_string()).collect();
    let mut fails = Vec::new();
    for (k, v) in expect {
        match k.as_str() {
            "breaches" => {
                for want in v
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|x| x.as_str())
                {
                    if !breaches.iter().any(|b| b.contains(want)) {
                        fails.push(format!("no breach says '{want}'; breaches: {breaches:?}"));
                    }
                }
                if v.as_array().is_some_and(|a| a.is_empty()) && !breaches.is_empty() {
                    fails.push(format!("breaches expected none, got {breaches:?}"));
                }
            }
            "breaches.count" => compare(
                &mut fails,
                k,
                v,
                &toml::Value::Integer(breaches.len() as i64),
            ),
            "army.surcharges" => compare(
                &mut fails,
                k,
                v,
                &toml::Value::Integer(i64::from(r.surcharges)),
            ),
            "army.total" => compare(
                &mut fails,
                k,
                v,
                &r.total.map_or(toml::Value::String("unknown".into()), |t| {
                    toml::Value::Integer(i64::from(t))
                }),
            ),
            "army.units" => compare(
                &mut fails,
                k,
                v,
                &toml::Value::Integer(r.units.len() as i64),
            ),
            other if other.starts_with("unit.") => {
                // "unit.Roman Hastati 1.abilities" = ["Pass Through"]
                let rest = &other[5..];
                let Some((name, field)) = rest.rsplit_once('.') else {
                    fails.push(format!(
                        "{other}: write unit.NAME.abilities, .grade, .weapons or .causes_fear_to"
                    ));
                    continue;
                };
                let Some(u) = r.units.iter().find(|u| u.name == name) else {
                    fails.push(format!("{other}: no unit called '{name}'"));
                    continue;
                };
                let got = match field {
                    "abilities" => toml::Value::Array(
                        u.abilities
                            .iter()
                            .map(|a| toml::Value::String(a.name().into()))
                            .collect(),
                    ),
                    "grade" => {
                        toml::Value::String(u.grade.map_or("none".into(), |g| g.name().into()))
                    }
                    "weapons" => toml::Value::Array(
                        u.weapons
                            .iter()
                            .map(|w| toml::Value::String(w.name().into()))
                            .collect(),
                    ),
                    "causes_fear_to" => {
                        let mut to: Vec<toml::Value> = u
                            .causes_fear
                            .to
                            .iter()
                            .map(|t| toml::Value::String(t.name().into()))
                            .collect();
                        if u.causes_fear.all {
                            to.insert(0, toml::Value::String("all".into()));
                        }
                        toml::Value::Array(to)
                    }
                    _ => {
                        fails.push(format!("{other}: unknown field '{field}'"));
                        continue;
                    }
                };
                compare(&mut fails, k, v, &got);
            }
            other => fails.push(format!("unknown expectation '{other}' for an army case")),
        }
    }
    if fails.is_empty() {
        CaseOutcome::Pass
    } else {
        CaseOutcome::Fail(fails)
    }
}

fn compare(fails: &mut Vec<String>, key: &str, want: &toml::Value, got: &toml::Value) {
    let same = match (want, got) {
        (toml::Value::Integer(a), toml::Value::Float(b))
        | (toml::Value::Float(b), toml::Value::Integer(a)) => (*a as f64 - b).abs() < EPSILON,
        _ => want == got,
    };
    if !same {
        fails.push(format!("{key} expected {want}, got {got}"));
    }
}

/// The battle a case file sets up (with its pack, when it names the
/// stand-in), its house rules and the pack's text, for checking orders
/// against it offline (`umpire orders check --case`).
///
/// # Errors
/// When the case file cannot be read.
pub fn case_battle(text: &str) -> Result<(Battle, Options, Option<String>), String> {
    let file: CaseFile = toml::from_str(text).map_err(|e| e.message().to_string())?;
    let pack_text = match file.pack.as_deref() {
        None => None,
        Some("stand-in") => Some(super::pack::STAND_IN.to_string()),
        Some(other) => {
            return Err(format!(
                "pack '{other}': case files use \"stand-in\" or none"
            ))
        }
    };
    let pack = pack_text
        .as_deref()
        .map(Pack::from_toml)
        .transpose()
        .map_err(|e| e.join("; "))?;
    let layout = layout_of(&file)?;
    let battle = layout.battle(pack.as_ref()).map_err(|e| e.join("; "))?;
    Ok((battle, Options::from_table(&file.options)?, pack_text))
}

fn layout_of(file: &CaseFile) -> Result<Layout, String> {
    let mut layout = toml::Table::new();
    for (k, v) in [
        ("table", &file.table),
        ("side", &file.side),
        ("terrain", &file.terrain),
        ("unit", &file.unit),
        ("character", &file.character),
    ] {
        if let Some(v) = v {
            layout.insert(k.into(), v.clone());
        }
    }
    toml::Value::Table(layout)
        .try_into()
        .map_err(|e: toml::de::Error| format!("layout: {}", e.message()))
}

fn battle_case(file: &CaseFile, pack: Option<&Pack>) -> Result<Vec<String>, String> {
    let layout = layout_of(file)?;
    let battle = layout.battle(pack).map_err(|e| e.join("; "))?;
    let options = Options::from_table(&file.options)?;
    let stop = match file.stop_after.as_deref() {
        None | Some("phase") => Stop::Phase(Part::EndOfPhase),
        Some("turn") => Stop::Turn,
        Some(p) => Stop::Phase(Part::parse(p).ok_or_else(|| format!("stop_after '{p}': a part (rally, 2a, 2b, 2c, escape-rolls, 4a…4e, challenges, melee, phase-winner, morale-clock), phase or turn"))?),
    };
    let mut orders = TurnOrders::default();
    let mut refused = BTreeSet::new();
    let mut order_errors = Vec::new();
    for (side, text) in &file.orders {
        if battle.side(side).is_none() {
            return Err(format!("[orders] side '{side}' is not a [[side]]"));
        }
        let c = check_orders(&battle, side, text, pack, &options);
        refused.extend(c.refused.iter().cloned());
        order_errors.extend(c.diagnostics.iter().map(|d| d.render(text)));
        orders.sides.insert(side.clone(), c.orders);
    }
    let mut values = BTreeMap::new();
    for (k, v) in &file.dice {
        let v =
            u8::try_from(*v).map_err(|_| format!("dice key {k} = {v}: a die shows 1 to 100"))?;
        values.insert(k.clone(), v);
    }
    let run = play(&battle, &orders, &options, pack, values, stop, &file.gm)?;
    let mut fails = Vec::new();
    if file.strict_dice.unwrap_or(true) && !run.dice_unused.is_empty() {
        fails.push(format!(
            "dice given but never rolled: {}",
            run.dice_unused.join(", ")
        ));
    }
    if !refused.is_empty() && !file.expect.contains_key("rejected") {
        fails.push(format!(
            "orders refused (say so with `rejected`): {}",
            order_errors.join(" | ")
        ));
    }
    for (k, v) in &file.expect {
        let checked = match k.as_str() {
            "result" | "result.why" => result_expectation(k, v, &run.battle, pack, &options),
            _ => expectation(k, v, &run, &refused, &order_errors, &file.tolerance),
        };
        if let Err(e) = checked {
            fails.push(e);
        }
    }
    Ok(fails)
}

/// `result = "SIDE"` or `"drawn"`, `result.why = ["words", …]`: the battle
/// judged as the run leaves it (ruling FA-45), ended by the clock or, if
/// not, as it stands.
fn result_expectation(
    key: &str,
    want: &toml::Value,
    b: &Battle,
    pack: Option<&Pack>,
    options: &Options,
) -> Result<(), String> {
    use super::verdict::{judge, Ending};
    let ending = if b.over.is_some() {
        Ending::ClockRanDown
    } else {
        Ending::Stopped
    };
    let v = judge(b, pack.and_then(Pack::ends_at), ending, options);
    if key == "result" {
        let got = v.winner.clone().unwrap_or_else(|| "drawn".into());
        return match want.as_str() {
            Some(w) if w == got => Ok(()),
            _ => Err(format!("result expected {want}, got {got}: {:?}", v.lines)),
        };
    }
    let missing: Vec<String> = strings(want)
        .into_iter()
        .filter(|w| !v.lines.iter().any(|l| l.contains(w.as_str())))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the result does not say {missing:?}: {:?}",
            v.lines
        ))
    }
}

enum Stop {
    Phase(Part),
    Turn,
}

/// Play the case: one phase (or two, for a turn), asking the game master's
/// rounds in order whenever the desk stops.
fn play(
    battle: &Battle,
    orders: &TurnOrders,
    options: &Options,
    pack: Option<&Pack>,
    dice: BTreeMap<String, u8>,
    stop: Stop,
    gm: &[GmRound],
) -> Result<Run, String> {
    let mut dice = ScriptedDice::new(dice);
    let phases = match stop {
        Stop::Turn => vec![Part::EndOfPhase, Part::EndOfPhase],
        Stop::Phase(p) => vec![p],
    };
    let mut desk = Desk::for_game(battle, options);
    let mut rounds = gm.iter();
    let mut gm_errors = Vec::new();
    let mut start = battle.clone();
    let mut events = Vec::new();
    for until in phases {
        loop {
            let mut rules = pack.map(|p| PackRules { pack: p });
            let base: &mut dyn Base = match rules.as_mut() {
                Some(r) => r,
                None => &mut desk,
            };
            let run = run_phase(&start, orders, options, pack, base, &mut dice, until)
                .map_err(|e| e.to_string())?;
            match run.stopped {
                Stopped::Done => {
                    events.extend(run.events);
                    start = run.battle;
                    break;
                }
                Stopped::Gm { part, questions } => {
                    let situation = Situation::new(&run.battle, part, questions, None);
                    let Some(round) = rounds.next() else {
                        events.extend(run.events);
                        return Ok(Run {
                            battle: run.battle,
                            events,
                            waiting: Some(situation),
                            gm_errors,
                            dice_unused: dice.unused_keys(),
                        });
                    };
                    let reading = read_answers(&situation, &run.battle, &round.answer);
                    gm_errors.extend(
                        reading
                            .diagnostics
                            .iter()
                            .filter(|d| d.is_error())
                            .map(|d| d.render(&round.answer)),
                    );
                    desk.take(&situation, reading.answers);
                }
            }
        }
        if start.over.is_some() {
            break;
        }
    }
    Ok(Run {
        battle: start,
        events,
        waiting: None,
        gm_errors,
        dice_unused: dice.unused_keys(),
    })
}

fn strings(v: &toml::Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}

fn expectation(
    key: &str,
    want: &toml::Value,
    run: &Run,
    refused: &BTreeSet<String>,
    order_errors: &[String],
    tol: &Tolerance,
) -> Result<(), String> {
    let b = &run.battle;
    let mut fails = Vec::new();
    let lines: Vec<String> = run.events.iter().map(|l| l.event.line(b)).collect();
    match key {
        "rejected" => {
            let want: BTreeSet<String> = strings(want).into_iter().collect();
            if &want != refused {
                fails.push(format!("rejected expected {want:?}, got {refused:?}"));
            }
        }
        "orders.errors" => {
            for w in strings(want) {
                if !order_errors.iter().any(|e| e.contains(&w)) {
                    fails.push(format!("no order diagnostic says '{w}': {order_errors:?}"));
                }
            }
        }
        "gm.errors" => {
            let w = strings(want);
            if w.is_empty() && !run.gm_errors.is_empty() {
                fails.push(format!("gm.errors expected none, got {:?}", run.gm_errors));
            }
            for w in w {
                if !run.gm_errors.iter().any(|e| e.contains(&w)) {
                    fails.push(format!(
                        "no game master diagnostic says '{w}': {:?}",
                        run.gm_errors
                    ));
                }
            }
        }
        "report" => {
            for w in strings(want) {
                if !lines.iter().any(|l| l.contains(&w)) {
                    fails.push(format!("no report line says '{w}'; the report: {lines:#?}"));
                }
            }
        }
        "report.not" => {
            for w in strings(want) {
                if let Some(l) = lines.iter().find(|l| l.contains(&w)) {
                    fails.push(format!("a report line says '{w}': {l}"));
                }
            }
        }
        "situation.part" => {
            let got = run
                .waiting
                .as_ref()
                .map_or("none".to_string(), |s| s.part.code().to_string());
            compare(&mut fails, key, want, &toml::Value::String(got));
        }
        "situation.keys" => {
            let got: Vec<toml::Value> = run
                .waiting
                .iter()
                .flat_map(|s| {
                    s.questions
                        .iter()
                        .map(|q| toml::Value::String(q.key.clone()))
                })
                .collect();
            compare(&mut fails, key, want, &toml::Value::Array(got));
        }
        "situation.text" => {
            let text = run
                .waiting
                .as_ref()
                .map_or(String::new(), |s| s.text.clone());
            for w in strings(want) {
                if !text.contains(&w) {
                    fails.push(format!("the situation does not say '{w}':\n{text}"));
                }
            }
        }
        "phase.winner" => {
            let got = run.events.iter().rev().find_map(|l| match &l.event {
                Event::Tally { winner, .. } => {
                    Some(winner.clone().unwrap_or_else(|| "none".into()))
                }
                _ => None,
            });
            compare(
                &mut fails,
                key,
                want,
                &toml::Value::String(got.unwrap_or_else(|| "no tally".into())),
            );
        }
        _ => {
            let Some((who, field)) = key.rsplit_once('.') else {
                return Err(format!("unknown expectation '{key}'"));
            };
            let got = field_value(run, who, field, want, tol)?;
            if let Some(got) = got {
                compare(&mut fails, key, want, &got);
            }
        }
    }
    if fails.is_empty() {
        Ok(())
    } else {
        Err(fails.join("; "))
    }
}

/// A unit's, side's or character's field, as the expectation writes it;
/// `None` when it matched within tolerance.
fn field_value(
    run: &Run,
    who: &str,
    field: &str,
    want: &toml::Value,
    tol: &Tolerance,
) -> Result<Option<toml::Value>, String> {
    let b = &run.battle;
    let s = |x: &str| toml::Value::String(x.to_string());
    if let Some(u) = b.units.get(who) {
        return Ok(Some(match field {
            "dmz" => toml::Value::Integer(i64::from(u.dmz)),
            "fury" => s(u.fury.code()),
            "status" => s(u.status.code()),
            "formation" => s(u.formation.code()),
            "front" => {
                let w: Vec<f64> = want.as_array().into_iter().flatten().filter_map(|v| v.as_float().or(v.as_integer().map(|i| i as f64))).collect();
                if w.len() == 2 && (w[0] - u.front.x).abs() <= tol.front && (w[1] - u.front.y).abs() <= tol.front {
                    return Ok(None);
                }
                toml::Value::Array(vec![toml::Value::Float((u.front.x * 100.0).round() / 100.0), toml::Value::Float((u.front.y * 100.0).round() / 100.0)])
            }
            "facing" => {
                let w = want.as_float().or(want.as_integer().map(|i| i as f64)).unwrap_or(f64::NAN);
                if crate::geometry::turn_between(w, u.facing).abs() <= tol.facing {
                    return Ok(None);
                }
                toml::Value::Float((u.facing * 10.0).round() / 10.0)
            }
            "in_melee_with" => {
                let mut ids: Vec<String> = b.contacts(u).into_iter().map(|(e, _)| e).collect();
                ids.sort();
                toml::Value::Array(ids.into_iter().map(toml::Value::String).collect())
            }
            "contact" => {
                // "c1:flank": which face of c1 this unit touches.
                let target = want.as_str().and_then(|w| w.split(':').next()).unwrap_or("");
                match b.units.get(target) {
                    Some(t) if b.touching(u, t) => s(&format!("{target}:{}", b.face_touched(u, t))),
                    _ => s("none"),
                }
            }
            "target" => s(&run.events.iter().find_map(|l| match &l.event {
                Event::Target { unit, target, .. } if unit == who => Some(target.clone()),
                _ => None,
            }).unwrap_or_else(|| "none".into())),
            "fired" => toml::Value::Boolean(run.events.iter().any(|l| matches!(&l.event, Event::Fire { firers, .. } if firers.iter().any(|f| f == who)))),
            "charged" => toml::Value::Boolean(run.events.iter().any(|l| matches!(&l.event, Event::Charged { unit, reached: true, .. } if unit == who))),
            "counter_charged" => toml::Value::Boolean(run.events.iter().any(|l| matches!(&l.event, Event::CounterCharged { unit, .. } if unit == who))),
            "levels" => toml::Value::Integer(i64::from(u.levels())),
            _ => return Err(format!("unknown unit field '{field}' (dmz fury status formation front facing in_melee_with contact target fired charged counter_charged levels)")),
        }));
    }
    if let Some(side) = b.side(who) {
        return Ok(Some(match field {
            "clock" => side
                .clock()
                .map_or(s("unknown"), |c| toml::Value::Integer(i64::from(c))),
            "clock_lost" => toml::Value::Integer(i64::from(side.clock_lost)),
            "standard" => s(&match &side.standard {
                None => "none".to_string(),
                Some(StandardState::With(u)) => format!("with:{u}"),
                Some(StandardState::CapturedBy(u)) => format!("captured:{u}"),
                Some(StandardState::LeftBehind(_)) => "left-behind".to_string(),
                Some(StandardState::Lost) => "lost".to_string(),
            }),
            "tally" => toml::Value::Integer(
                run.events
                    .iter()
                    .rev()
                    .find_map(|l| match &l.event {
                        Event::Tally { scores, .. } => scores
                            .iter()
                            .find(|(sd, _)| sd == who)
                            .map(|(_, p)| i64::from(*p)),
                        _ => None,
                    })
                    .unwrap_or(-1),
            ),
            _ => {
                return Err(format!(
                    "unknown side field '{field}' (clock clock_lost standard tally)"
                ))
            }
        }));
    }
    if let Some(c) = b.characters.get(who) {
        return Ok(Some(match field {
            "status" => s(match c.status {
                super::table::CharacterStatus::Active => "active",
                super::table::CharacterStatus::Captured => "captured",
                super::table::CharacterStatus::Killed => "killed",
            }),
            "with" => s(c.with.as_deref().unwrap_or("none")),
            _ => return Err(format!("unknown character field '{field}' (status with)")),
        }));
    }
    Err(format!(
        "expectation '{who}.{field}': no unit, side or character '{who}'"
    ))
}
