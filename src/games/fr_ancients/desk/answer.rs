//! Reading the game master's answer (`grammar/fr_gm.pest`) and checking
//! each line against the situation it answers: the question exists and is
//! answered once, the answer is of the question's kind, the units and
//! characters it names are the question's, numbers are bounded, places are
//! on the table and clear, and the sheet's own consequences hold (Wild
//! Charge's 2 DMZs, rule 11's wrap-arounds, a fear check's cost said).
//! Lines that fail are refused with a diagnostic; the rest stand.

use super::Situation;
use crate::diagnostic::{Diagnostic, Severity, Span};
use crate::games::fr_ancients::new_rules::may_wrap;
use crate::games::fr_ancients::questions::{
    Answer, Ask, Loss, MoveKind, MoveResult, Outcome, Question, Test, Wrap,
};
use crate::games::fr_ancients::table::{Battle, Place};
use crate::geometry::Face;
use pest::iterators::Pair;
use pest::Parser as _;
use std::collections::BTreeMap;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/fr_gm.pest"]
pub(super) struct GmParser;

/// The most DMZs one answer may give a unit.
const MAX_DMZ: u32 = 3;
/// The longest full move a game master may give.
const MAX_DISTANCE: f64 = 200.0;
/// Lines read at most.
const MAX_LINES: usize = 500;

/// What a diagnostic about a game master's line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum GmKind {
    /// Not understood: `1: pas`.
    Invalid,
    /// Understood, but it does not fit the situation: `1: yes` to a rally roll.
    Inconsistent,
    /// Questions left unanswered (asked again).
    Note,
}

impl Severity for GmKind {
    fn is_error(&self) -> bool {
        !matches!(self, GmKind::Note)
    }
}

/// The answers taken, by question key, and what was said.
#[derive(Debug, Clone)]
pub struct GmReading {
    pub answers: BTreeMap<String, Answer>,
    pub diagnostics: Vec<Diagnostic<GmKind>>,
    /// The question numbers still without an answer.
    pub unanswered: Vec<usize>,
    pub source: String,
}

impl GmReading {
    pub fn render(&self) -> String {
        crate::games::fr_ancients::render_all(&self.diagnostics, &self.source)
    }
}

/// A part of an answer.
#[derive(Debug, Clone, PartialEq)]
enum Clause {
    Pass,
    Fail,
    Yes,
    No,
    NoEffect,
    Draw,
    Ok,
    OffTable,
    At {
        x: f64,
        y: f64,
        facing: Option<f64>,
    },
    Distance(f64),
    Dmz {
        name: Option<(String, Span)>,
        n: u32,
    },
    Destroyed {
        name: Option<(String, Span)>,
    },
    Wins {
        name: (String, Span),
    },
    Wraps {
        name: (String, Span),
        face: Face,
        around: (String, Span),
    },
    FollowsUp {
        name: (String, Span),
    },
    Killed {
        name: Option<(String, Span)>,
    },
    Captured {
        name: Option<(String, Span)>,
    },
    Unhurt {
        name: Option<(String, Span)>,
    },
    Joins {
        unit: (String, Span),
    },
}

type Problem = (Span, String, String);

/// Read and check a game master's answer to a situation.
pub fn read_answers(s: &Situation, battle: &Battle, text: &str) -> GmReading {
    let mut r = GmReading {
        answers: BTreeMap::new(),
        diagnostics: Vec::new(),
        unanswered: Vec::new(),
        source: text.to_string(),
    };
    let mut taken: BTreeMap<usize, Span> = BTreeMap::new();
    let mut rest = false;
    let mut offset = 0;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        if i >= MAX_LINES {
            break;
        }
        let line = raw.trim_end_matches(['\n', '\r']);
        let body = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
        let lead = line.len() - body.len();
        let body = body.split('#').next().unwrap_or("");
        if body.trim().is_empty() {
            continue;
        }
        let base = start + lead;
        let pairs = match GmParser::parse(Rule::line, body) {
            Ok(mut p) => p
                .next()
                .map(|l| l.into_inner().collect::<Vec<_>>())
                .unwrap_or_default(),
            Err(_) => {
                let d = Diagnostic::new(GmKind::Invalid, Span::new(base, base + body.trim_end().len()), "this line is not an answer I can read")
                    .with_note("an answer is `NUMBER: ANSWER`, for example `1: pass`, `2: 1 dmz`, `3: carthage wins; Roman Hastati 1 2 dmz`")
                    .with_help("answers: pass, fail [, D dmz], yes, no, no effect, D dmz, destroyed, SIDE wins, draw, ok, stops at X, Y [facing B], off table, moves D, NAME killed|captured|unhurt, joins UNIT; `all moves ok` for every move");
                r.diagnostics.push(d);
                continue;
            }
        };
        for p in pairs {
            match p.as_rule() {
                Rule::header => header(s, p, base, &mut r),
                Rule::rest => rest = true,
                Rule::answer => answer(s, battle, p, base, &mut r, &mut taken),
                _ => {}
            }
        }
    }
    if rest {
        for q in &s.questions {
            if matches!(q.ask, Ask::Move { .. }) && !r.answers.contains_key(&q.key) {
                r.answers
                    .insert(q.key.clone(), Answer::Move(MoveResult::Goes));
            }
        }
    }
    r.unanswered = (1..=s.questions.len())
        .filter(|n| !r.answers.contains_key(&s.questions[n - 1].key))
        .collect();
    if !r.unanswered.is_empty() {
        let list = r
            .unanswered
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        r.diagnostics.push(Diagnostic::new(
            GmKind::Note,
            Span::new(text.len(), text.len()),
            format!("question(s) {list} not answered yet: they will be asked again"),
        ));
    }
    r
}

fn header(s: &Situation, p: Pair<Rule>, base: usize, r: &mut GmReading) {
    for f in p.into_inner() {
        let span = Span::new(base + f.as_span().start(), base + f.as_span().end());
        let value = f
            .clone()
            .into_inner()
            .last()
            .map(|v| v.as_str().to_string())
            .unwrap_or_default();
        let wrong = match f.as_rule() {
            Rule::game_f => s
                .game
                .as_ref()
                .is_some_and(|g| crate::names::key(g) != crate::names::key(&value))
                .then(|| {
                    format!(
                        "this situation is for game {}",
                        s.game.clone().unwrap_or_default()
                    )
                }),
            Rule::turn_f => (value.parse::<u32>().ok() != Some(s.turn))
                .then(|| format!("this situation is for turn {}", s.turn)),
            Rule::phase_f => (value.parse::<u8>().ok() != Some(s.phase))
                .then(|| format!("this situation is for phase {}", s.phase)),
            _ => None,
        };
        if let Some(w) = wrong {
            r.diagnostics.push(
                Diagnostic::new(
                    GmKind::Inconsistent,
                    span,
                    format!("'{}' does not match the situation", f.as_str()),
                )
                .with_note(w),
            );
        }
    }
}

fn span(p: &Pair<Rule>, base: usize) -> Span {
    Span::new(base + p.as_span().start(), base + p.as_span().end())
}

fn name_of(p: Pair<Rule>, base: usize) -> (String, Span) {
    (p.as_str().trim().to_string(), span(&p, base))
}

fn clause(p: Pair<Rule>, base: usize) -> Clause {
    let rule = p.as_rule();
    let inner: Vec<Pair<Rule>> = p.into_inner().collect();
    let names: Vec<(String, Span)> = inner
        .iter()
        .filter(|x| x.as_rule() == Rule::name)
        .map(|x| name_of(x.clone(), base))
        .collect();
    let nums: Vec<f64> = inner
        .iter()
        .filter(|x| matches!(x.as_rule(), Rule::decimal | Rule::int))
        .filter_map(|x| x.as_str().parse().ok())
        .collect();
    let first = names.first().cloned();
    match rule {
        Rule::pass_c => Clause::Pass,
        Rule::fail_c => Clause::Fail,
        Rule::yes_c => Clause::Yes,
        Rule::no_c => Clause::No,
        Rule::no_effect_c => Clause::NoEffect,
        Rule::draw_c => Clause::Draw,
        Rule::ok_c => Clause::Ok,
        Rule::off_c => Clause::OffTable,
        Rule::at_c => Clause::At {
            x: nums[0],
            y: nums[1],
            facing: nums.get(2).copied(),
        },
        Rule::distance_c => Clause::Distance(nums[0]),
        Rule::dmz_c => Clause::Dmz {
            name: first,
            n: nums.first().copied().unwrap_or(0.0) as u32,
        },
        Rule::destroyed_c => Clause::Destroyed { name: first },
        Rule::wins_c => Clause::Wins {
            name: names[0].clone(),
        },
        Rule::wraps_c => {
            let face = inner
                .iter()
                .find(|x| x.as_rule() == Rule::face)
                .map_or(Face::Flank, |f| {
                    if f.as_str().to_ascii_lowercase().starts_with("rear") {
                        Face::Rear
                    } else {
                        Face::Flank
                    }
                });
            Clause::Wraps {
                name: names[0].clone(),
                face,
                around: names.get(1).cloned().unwrap_or_default(),
            }
        }
        Rule::follows_c => Clause::FollowsUp {
            name: names[0].clone(),
        },
        Rule::killed_c => Clause::Killed { name: first },
        Rule::captured_c => Clause::Captured { name: first },
        Rule::unhurt_c => Clause::Unhurt { name: first },
        _ => Clause::Joins {
            unit: names.last().cloned().unwrap_or_default(),
        },
    }
}

fn answer(
    s: &Situation,
    battle: &Battle,
    p: Pair<Rule>,
    base: usize,
    r: &mut GmReading,
    taken: &mut BTreeMap<usize, Span>,
) {
    let line_span = span(&p, base);
    let mut inner = p.into_inner();
    let Some(num) = inner.next() else { return };
    let n: usize = num.as_str().parse().unwrap_or(0);
    let num_span = span(&num, base);
    let clauses: Vec<(Clause, Span)> = inner
        .map(|c| {
            let sp = span(&c, base);
            (clause(c, base), sp)
        })
        .collect();
    let Some(q) = n.checked_sub(1).and_then(|i| s.questions.get(i)) else {
        let d = Diagnostic::new(
            GmKind::Inconsistent,
            num_span,
            format!("there is no question {n} in this situation"),
        )
        .with_note(format!(
            "this situation asks questions 1 to {}",
            s.questions.len()
        ));
        r.diagnostics.push(d);
        return;
    };
    if let Some(first) = taken.get(&n) {
        let d = Diagnostic::new(
            GmKind::Inconsistent,
            num_span,
            format!("question {n} is answered twice"),
        )
        .with_note(format!(
            "the first answer is at byte {}; only it counts",
            first.start
        ));
        r.diagnostics.push(d);
        return;
    }
    match interpret(q, battle, &clauses, line_span) {
        Ok(a) => {
            taken.insert(n, line_span);
            r.answers.insert(q.key.clone(), a);
        }
        Err((sp, message, note)) => {
            let mut d = Diagnostic::new(GmKind::Inconsistent, sp, message).with_note(note);
            if let Some(h) = help(q, n) {
                d = d.with_help(h);
            }
            r.diagnostics.push(d);
        }
    }
}

/// The answer forms a question takes.
fn help(q: &Question, n: usize) -> Option<String> {
    Some(match &q.ask {
        Ask::Test {
            test: Test::Fear, ..
        } => format!("answer `{n}: pass` or `{n}: fail, 1 dmz`"),
        Ask::Test { .. } | Ask::Escape { .. } => format!("answer `{n}: pass` or `{n}: fail`"),
        Ask::Judge { .. } => format!("answer `{n}: yes` or `{n}: no`"),
        Ask::Fire { .. } => format!("answer `{n}: no effect`, `{n}: 1 dmz` or `{n}: destroyed`"),
        Ask::Melee { .. } => format!("answer `{n}: SIDE wins; UNIT 1 dmz` or `{n}: draw`"),
        Ask::Move { .. } => format!("answer `{n}: ok` or `{n}: stops at X, Y facing B`"),
        Ask::Distance { .. } => format!("answer `{n}: moves 6`"),
        Ask::Challenge { .. } => format!("answer `{n}: NAME wins; NAME killed` or `{n}: draw`"),
        Ask::Fate { .. } => format!("answer `{n}: killed`, `{n}: captured` or `{n}: joins UNIT`"),
    })
}

/// Which of `ids` a written name means (names or ids, compared as keys).
fn which(
    battle: &Battle,
    ids: &[String],
    (name, sp): &(String, Span),
    what: &str,
) -> Result<String, Problem> {
    let k = crate::names::key(name);
    if let Some(id) = ids
        .iter()
        .find(|id| crate::names::key(id) == k || crate::names::key(&battle.name(id)) == k)
    {
        return Ok(id.clone());
    }
    let names: Vec<String> = ids.iter().map(|i| battle.name(i)).collect();
    let hint = crate::names::closest(name, names.iter().map(|n| (n.as_str(), n.clone())));
    let note = match hint {
        Some(h) => format!(
            "did you mean '{h}'? This question is about {}",
            names.join(", ")
        ),
        None => format!("this question is about {}", names.join(", ")),
    };
    Err((
        *sp,
        format!("'{name}' is not a {what} of this question"),
        note,
    ))
}

fn dmz_bound(n: u32, sp: Span) -> Result<u8, Problem> {
    if n > MAX_DMZ {
        return Err((
            sp,
            format!("{n} DMZs is more than one answer may give"),
            format!("at most {MAX_DMZ}"),
        ));
    }
    Ok(n as u8)
}

fn wrong_kind(q: &Question, sp: Span) -> Problem {
    let what = match &q.ask {
        Ask::Test { .. } | Ask::Escape { .. } => "pass or fail",
        Ask::Judge { .. } => "yes or no",
        Ask::Fire { .. } => "what the fire does",
        Ask::Melee { .. } => "who wins the melee and what each unit takes",
        Ask::Move { .. } => "whether the move goes, or where it stops",
        Ask::Distance { .. } => "a distance",
        Ask::Challenge { .. } => "who wins the challenge",
        Ask::Fate { .. } => "what becomes of the character",
    };
    (
        sp,
        format!("question asks {what}"),
        format!("question [{}] is {}", q.key, kind_word(&q.ask)),
    )
}

fn kind_word(a: &Ask) -> &'static str {
    match a {
        Ask::Test { .. } => "a test",
        Ask::Escape { .. } => "an escape roll",
        Ask::Judge { .. } => "a yes-or-no call",
        Ask::Fire { .. } => "a missile fire",
        Ask::Melee { .. } => "a melee",
        Ask::Move { .. } => "a move",
        Ask::Distance { .. } => "a full move's distance",
        Ask::Challenge { .. } => "a challenge",
        Ask::Fate { .. } => "a character's fate",
    }
}

fn interpret(
    q: &Question,
    battle: &Battle,
    clauses: &[(Clause, Span)],
    line: Span,
) -> Result<Answer, Problem> {
    let one = |c: &[(Clause, Span)]| -> Result<(Clause, Span), Problem> {
        match c {
            [x] => Ok(x.clone()),
            _ => Err((
                line,
                "this question takes one answer".into(),
                format!("question [{}] is {}", q.key, kind_word(&q.ask)),
            )),
        }
    };
    match &q.ask {
        Ask::Test { test, .. } => {
            let fear = *test == Test::Fear;
            match clauses {
                [(Clause::Pass, _)] => Ok(Answer::Pass),
                [(Clause::Fail, sp)] if fear => Err((*sp, "say what failing this fear check costs".into(), "the effect of a failed fear check is a base rule (M9): write `fail, 1 dmz` (or 0)".into())),
                [(Clause::Fail, _)] => Ok(Answer::Fail { dmz: None }),
                [(Clause::Fail, _), (Clause::Dmz { name: None, n }, sp)] if fear => Ok(Answer::Fail { dmz: Some(dmz_bound(*n, *sp)?) }),
                [(Clause::Fail, _), (Clause::Dmz { .. }, sp)] => Err((*sp, "the sheet says what failing this test costs".into(), format!("{}: write `fail` alone", test.describe().1))),
                [(_, sp), ..] => Err(wrong_kind(q, *sp)),
                [] => Err(wrong_kind(q, line)),
            }
        }
        Ask::Escape { .. } => match one(clauses)? {
            (Clause::Pass, _) => Ok(Answer::Pass),
            (Clause::Fail, _) => Ok(Answer::Fail { dmz: None }),
            (_, sp) => Err(wrong_kind(q, sp)),
        },
        Ask::Judge { .. } => match one(clauses)? {
            (Clause::Yes, _) => Ok(Answer::Yes),
            (Clause::No, _) => Ok(Answer::No),
            (_, sp) => Err(wrong_kind(q, sp)),
        },
        Ask::Fire { target, .. } => {
            let check_name = |name: &Option<(String, Span)>| -> Result<(), Problem> {
                match name {
                    Some(n) => which(battle, std::slice::from_ref(target), n, "target").map(|_| ()),
                    None => Ok(()),
                }
            };
            match one(clauses)? {
                (Clause::NoEffect, _) => Ok(Answer::Fire(Outcome::default())),
                (Clause::Dmz { name, n }, sp) => {
                    check_name(&name)?;
                    Ok(Answer::Fire(Outcome {
                        dmz: dmz_bound(n, sp)?,
                        destroyed: false,
                    }))
                }
                (Clause::Destroyed { name }, _) => {
                    check_name(&name)?;
                    Ok(Answer::Fire(Outcome {
                        dmz: 0,
                        destroyed: true,
                    }))
                }
                (_, sp) => Err(wrong_kind(q, sp)),
            }
        }
        Ask::Melee { fighters } => melee(q, battle, fighters, clauses, line),
        Ask::Move { unit, kind, to, .. } => {
            let mut result = None;
            for (c, sp) in clauses {
                result = Some(match c {
                    Clause::Ok => MoveResult::Goes,
                    Clause::At { x, y, facing } => {
                        let p = Place::new(*x, *y, facing.unwrap_or(to.facing));
                        clear(battle, unit, p, *sp)?;
                        MoveResult::StopsAt(p)
                    }
                    Clause::Destroyed { .. } if matches!(kind, MoveKind::Retreat { .. }) => {
                        MoveResult::Destroyed
                    }
                    Clause::Destroyed { .. } => return Err((
                        *sp,
                        "only a blocked retreat destroys a unit that moves".into(),
                        "rule 15: \"destroyed by other means (missile fire or blocked retreat)\""
                            .into(),
                    )),
                    Clause::OffTable
                        if matches!(kind, MoveKind::Retreat { .. } | MoveKind::Withdraw) =>
                    {
                        MoveResult::OffTable
                    }
                    Clause::OffTable => {
                        return Err((
                            *sp,
                            "this move does not leave the table".into(),
                            "only retreats and withdrawals may".into(),
                        ))
                    }
                    _ => return Err(wrong_kind(q, *sp)),
                });
            }
            result.map(Answer::Move).ok_or_else(|| wrong_kind(q, line))
        }
        Ask::Distance { .. } => match one(clauses)? {
            (Clause::Distance(d), sp) => {
                if !(0.0..=MAX_DISTANCE).contains(&d) {
                    return Err((
                        sp,
                        format!("{d} is not a full move"),
                        format!("0 to {MAX_DISTANCE}"),
                    ));
                }
                Ok(Answer::Distance(d))
            }
            (_, sp) => Err(wrong_kind(q, sp)),
        },
        Ask::Challenge {
            challenger,
            challenged,
            ..
        } => {
            let pair = [challenger.clone(), challenged.clone()];
            let char_of = |n: &(String, Span)| -> Result<String, Problem> {
                let k = crate::names::key(&n.0);
                pair.iter()
                    .find(|id| {
                        crate::names::key(id) == k
                            || battle
                                .characters
                                .get(*id)
                                .is_some_and(|c| crate::names::key(&c.name) == k)
                    })
                    .cloned()
                    .ok_or_else(|| {
                        (
                            n.1,
                            format!("'{}' is not in this challenge", n.0),
                            "name one of the two characters".into(),
                        )
                    })
            };
            let mut winner = None;
            let mut loser = None;
            let mut draw = false;
            for (c, sp) in clauses {
                match c {
                    Clause::Draw => draw = true,
                    Clause::Wins { name } => winner = Some(char_of(name)?),
                    Clause::Killed { name }
                    | Clause::Captured { name }
                    | Clause::Unhurt { name } => {
                        if let Some(n) = name {
                            char_of(n)?;
                        }
                        loser = Some(match c {
                            Clause::Killed { .. } => Loss::Killed,
                            Clause::Captured { .. } => Loss::Captured,
                            _ => Loss::Unhurt,
                        });
                    }
                    _ => return Err(wrong_kind(q, *sp)),
                }
            }
            match (draw, winner) {
                (true, _) => Ok(Answer::Challenge {
                    winner: None,
                    loser: Loss::Unhurt,
                }),
                (false, Some(w)) => match loser {
                    Some(l) => Ok(Answer::Challenge {
                        winner: Some(w),
                        loser: l,
                    }),
                    None => Err((
                        line,
                        "say what becomes of the loser".into(),
                        "write `NAME killed`, `NAME captured` or `NAME unhurt` (M11)".into(),
                    )),
                },
                (false, None) => Err((
                    line,
                    "say who wins the challenge, or `draw`".into(),
                    "step 5".into(),
                )),
            }
        }
        Ask::Fate { character, .. } => match one(clauses)? {
            (Clause::Killed { .. }, _) => Ok(Answer::Fate(Loss::Killed)),
            (Clause::Captured { .. }, _) => Ok(Answer::Fate(Loss::Captured)),
            (Clause::Joins { unit }, sp) => {
                let side = battle
                    .characters
                    .get(character)
                    .map(|c| c.side.clone())
                    .unwrap_or_default();
                let own: Vec<String> = battle
                    .present()
                    .filter(|u| u.side == side)
                    .map(|u| u.id.clone())
                    .collect();
                let u = which(battle, &own, &unit, "unit of the character's army")
                    .map_err(|(_, m, n)| (sp, m, n))?;
                Ok(Answer::Fate(Loss::Joins(u)))
            }
            (_, sp) => Err(wrong_kind(q, sp)),
        },
    }
}

/// A place the game master gives must be on the table and clear of other units.
fn clear(battle: &Battle, unit: &str, p: Place, sp: Span) -> Result<(), Problem> {
    let Some(u) = battle.units.get(unit) else {
        return Ok(());
    };
    let f = u.footprint_at(p);
    if !battle.on_table(&f) {
        return Err((
            sp,
            format!("{} would be off the table there", u.name),
            format!("the table is {} x {}", battle.width, battle.depth),
        ));
    }
    if let Some(o) = battle
        .present()
        .find(|o| o.id != u.id && o.footprint().overlaps(&f))
    {
        return Err((
            sp,
            format!("{} would overlap {} there", u.name, o.name),
            "units may touch but never overlap (step 4)".into(),
        ));
    }
    Ok(())
}

fn melee(
    q: &Question,
    battle: &Battle,
    fighters: &[crate::games::fr_ancients::questions::Fighter],
    clauses: &[(Clause, Span)],
    line: Span,
) -> Result<Answer, Problem> {
    let ids: Vec<String> = fighters.iter().map(|f| f.unit.clone()).collect();
    let sides: Vec<String> = {
        let mut s: Vec<String> = fighters.iter().map(|f| f.side.clone()).collect();
        s.dedup();
        s.sort();
        s.dedup();
        s
    };
    let mut winner: Option<String> = None;
    let mut draw = false;
    let mut results: BTreeMap<String, Outcome> = BTreeMap::new();
    let mut wraps = Vec::new();
    let mut follow_ups = Vec::new();
    for (c, sp) in clauses {
        match c {
            Clause::Draw => draw = true,
            Clause::Wins { name } => {
                let k = crate::names::key(&name.0);
                let side = sides
                    .iter()
                    .find(|s| crate::names::key(s) == k)
                    .cloned()
                    .map_or_else(
                        || {
                            which(battle, &ids, name, "unit or side").map(|u| {
                                fighters
                                    .iter()
                                    .find(|f| f.unit == u)
                                    .map(|f| f.side.clone())
                                    .unwrap_or_default()
                            })
                        },
                        Ok,
                    )?;
                if winner.as_ref().is_some_and(|w| *w != side) {
                    return Err((
                        *sp,
                        "two winners".into(),
                        "one side wins a melee, or it is a draw".into(),
                    ));
                }
                winner = Some(side);
            }
            Clause::Dmz {
                name: Some(n),
                n: d,
            } => {
                let u = which(battle, &ids, n, "unit")?;
                results.entry(u).or_default().dmz = dmz_bound(*d, *sp)?;
            }
            Clause::Destroyed { name: Some(n) } => {
                let u = which(battle, &ids, n, "unit")?;
                results.entry(u).or_default().destroyed = true;
            }
            Clause::Dmz { name: None, .. } | Clause::Destroyed { name: None } => {
                return Err((
                    *sp,
                    "name the unit".into(),
                    "a melee has several units: `UNIT 1 dmz`, `UNIT destroyed`".into(),
                ))
            }
            Clause::Wraps { name, face, around } => {
                let u = which(battle, &ids, name, "unit")?;
                let a = which(battle, &ids, around, "unit")?;
                let troop = battle.units.get(&u).map(|x| x.troop);
                if let Some(t) = troop {
                    may_wrap(t, *face).map_err(|why| {
                        (
                            *sp,
                            format!("{} may not wrap to the {face}", battle.name(&u)),
                            why,
                        )
                    })?;
                }
                wraps.push(Wrap {
                    unit: u,
                    around: a,
                    to: *face,
                });
            }
            Clause::FollowsUp { name } => follow_ups.push(which(battle, &ids, name, "unit")?),
            _ => return Err(wrong_kind(q, *sp)),
        }
    }
    if draw && winner.is_some() {
        return Err((
            line,
            "a draw has no winner".into(),
            "write `SIDE wins` or `draw`".into(),
        ));
    }
    if !draw && winner.is_none() {
        return Err((line, "say who wins the melee, or `draw`".into(), "step 6; the phase winner counts DMZs, the melee's winner decides Wild Charge and follow-ups".into()));
    }
    winners_hold(
        battle,
        fighters,
        winner.as_ref(),
        &results,
        &follow_ups,
        line,
    )?;
    Ok(Answer::Melee {
        winner,
        results,
        wraps,
        follow_ups,
    })
}

/// What a melee's winner does that the sheet checks: a Wild Charge's two
/// DMZs (§5), and follow-ups by the winning side only (M7).
fn winners_hold(
    battle: &Battle,
    fighters: &[crate::games::fr_ancients::questions::Fighter],
    winner: Option<&String>,
    results: &BTreeMap<String, Outcome>,
    follow_ups: &[String],
    line: Span,
) -> Result<(), Problem> {
    if let Some(w) = winner {
        // Wild Charge: "inflicts 2 DMZs if it wins on the phase it charges".
        let need = crate::games::fr_ancients::sheet::sheet()
            .abilities
            .wild_charge
            .win_dmz;
        for f in fighters.iter().filter(|f| &f.side == w && f.wild_charge) {
            for (e, _) in &f.strikes {
                let r = results.get(e).copied().unwrap_or_default();
                if !r.destroyed && r.dmz < need {
                    return Err((
                        line,
                        format!(
                            "{} wild-charged and won: {} takes {need} DMZs",
                            battle.name(&f.unit),
                            battle.name(e)
                        ),
                        "Wild Charge \"inflicts 2 DMZs if it wins on the phase it charges\" (§5)"
                            .into(),
                    ));
                }
            }
        }
    }
    if let Some(u) = follow_ups.iter().find(|u| {
        winner.is_none()
            || fighters
                .iter()
                .any(|f| &f.unit == *u && Some(&f.side) != winner)
    }) {
        return Err((
            line,
            format!("{} did not win: only a winner follows up", battle.name(u)),
            "a unit of the winning side may follow the unit it beat (M7)".into(),
        ));
    }
    Ok(())
}

/// An answer written in the game master's language (`N: …`), as
/// [`read_answers`] reads it back: units and characters as `name` writes
/// them (their ids for an answer to be read back, as two sides may have
/// units of one name; their names in a confirmation a person reads).
pub fn write_answer(n: usize, a: &Answer, name: &dyn Fn(&str) -> String) -> String {
    let body = match a {
        Answer::Pass => "pass".to_string(),
        Answer::Fail { dmz: Some(d) } => format!("fail, {d} dmz"),
        Answer::Fail { dmz: None } => "fail".to_string(),
        Answer::Yes => "yes".to_string(),
        Answer::No => "no".to_string(),
        Answer::Fire(o) if o.destroyed => "destroyed".to_string(),
        Answer::Fire(o) if o.dmz == 0 => "no effect".to_string(),
        Answer::Fire(o) => format!("{} dmz", o.dmz),
        Answer::Melee {
            winner,
            results,
            wraps,
            follow_ups,
        } => {
            let mut parts = vec![winner
                .as_ref()
                .map_or("draw".to_string(), |w| format!("{w} wins"))];
            for (u, o) in results {
                if o.destroyed {
                    parts.push(format!("{} destroyed", name(u)));
                } else if o.dmz > 0 {
                    parts.push(format!("{} {} dmz", name(u), o.dmz));
                }
            }
            for w in wraps {
                parts.push(format!(
                    "{} wraps to the {} of {}",
                    name(&w.unit),
                    w.to,
                    name(&w.around)
                ));
            }
            for u in follow_ups {
                parts.push(format!("{} follows up", name(u)));
            }
            parts.join("; ")
        }
        Answer::Move(MoveResult::Goes) => "ok".to_string(),
        Answer::Move(MoveResult::StopsAt(p)) => format!(
            "stops at {:.3}, {:.3} facing {:.3}",
            p.front.x, p.front.y, p.facing
        ),
        Answer::Move(MoveResult::Destroyed) => "destroyed".to_string(),
        Answer::Move(MoveResult::OffTable) => "off table".to_string(),
        Answer::Distance(d) => format!("moves {d:.3}"),
        Answer::Challenge { winner: None, .. } => "draw".to_string(),
        Answer::Challenge {
            winner: Some(w),
            loser,
        } => {
            let fate = match loser {
                Loss::Killed => "killed",
                Loss::Captured => "captured",
                _ => "unhurt",
            };
            format!("{} wins; {fate}", name(w))
        }
        Answer::Fate(Loss::Killed) => "killed".to_string(),
        Answer::Fate(Loss::Captured) => "captured".to_string(),
        Answer::Fate(Loss::Joins(u)) => format!("joins {}", name(u)),
        Answer::Fate(Loss::Unhurt) => "unhurt".to_string(),
    };
    format!("{n}: {body}")
}
