//! Reading a Furor Barbarus order sheet (the text after the mail's header
//! line) with the Pest grammar `grammar/furor.pest`, line by line, into
//! [`Written`] orders with spans — unchecked: names are still text. What a
//! line does not say clearly is a diagnostic pointing at it; the other
//! lines are read all the same.
//!
//! ```
//! use umpire::games::furor::orders::read::{read, Written};
//! let sheet = read("Aquitaine: charge Provence by 0710 0709\nattack Provence with Aquitaine, fire Bowmen; min 2/1\n");
//! assert!(sheet.problems.is_empty());
//! assert!(matches!(&sheet.lines[1].written, Written::Attack(a) if a.attackers.len() == 2));
//! ```

use super::Problem;
use crate::diagnostic::{Diagnostic, Span};
use crate::games::furor::hex::Hex;
use crate::games::furor::orders::Evasion;
use crate::games::furor::rules::crt::Column;
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/furor.pest"]
struct Grammar;

/// The longest sheet read, in lines, and the longest line: bounds on input.
pub const MAX_LINES: usize = 400;
pub const MAX_LINE: usize = 400;

/// A piece of text with where it stands in the sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// A unit as written: its id, its name, or a hex id standing for the unit there.
pub type UnitText = Spanned<String>;

/// One order of a unit line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitOrder {
    /// `move 1110 1109 1108`
    Path(Vec<Hex>),
    /// `move to 1108`
    To(Hex),
    /// `charge Provence by 0710 0709`
    Charge { target: UnitText, path: Vec<Hex> },
    /// `feigned flight at Visigoths 2`
    Feigned { target: UnitText },
    /// `stay`
    Stay,
}

/// An attack as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackText {
    pub target: UnitText,
    /// Each attacker and whether it fires.
    pub attackers: Vec<(UnitText, bool)>,
    pub minimum: Option<Column>,
    pub all: bool,
    /// `None`: not said; `Some(None)`: `no advance`; `Some(Some(..))`: this unit, with its commander or not.
    pub advance: Option<Option<(UnitText, bool)>>,
    pub losses: Vec<UnitText>,
}

/// One line of the sheet, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// `Huns 3: feigned flight at Visigoths 2, then move 1109`
    Unit {
        unit: UnitText,
        orders: Vec<Spanned<UnitOrder>>,
    },
    /// `attack Provence with Aquitaine, Austrasie; advance Aquitaine`
    Attack(AttackText),
    /// `else attack Neustrie with Aquitaine`
    Else(AttackText),
    /// `retreat Provence 0612 0511`
    Retreat { unit: UnitText, hexes: Vec<Hex> },
    /// `advance Provence into 0608`
    DefenderAdvance {
        unit: UnitText,
        into: Option<Hex>,
        commander: bool,
    },
    /// `no advance`
    NoDefenderAdvance,
    /// `evade Bretons at 2/1`
    Evade { unit: UnitText, when: Evasion },
    /// `impetuous Ostrogoths 2 by 0507 0508`
    ImpetuousRoute { unit: UnitText, path: Vec<Hex> },
    /// `place salian-4a in 0806` or `salian-4a: set up in 0806` (a set-up round)
    Place { unit: UnitText, hex: Hex },
}

/// A line read, with its span (the whole line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub written: Written,
    pub span: Span,
}

/// A sheet read.
#[derive(Debug, Clone, Default)]
pub struct Sheet {
    pub lines: Vec<Line>,
    pub problems: Vec<Diagnostic<Problem>>,
}

/// Cut a comment (`#` or `//`) off a line.
fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min();
    cut.map_or(line, |i| &line[..i])
}

/// Read a sheet. Never fails: what is not understood is in `problems`.
pub fn read(text: &str) -> Sheet {
    let mut sheet = Sheet::default();
    let mut offset = 0;
    // For each non-blank line: whether it reads as an order, and the
    // syntax problem it gave when it did not read at all.
    let mut read_lines: Vec<(bool, Option<(usize, Span)>)> = Vec::new();
    for (n, raw) in text.split('\n').enumerate() {
        let start = offset;
        offset += raw.len() + 1;
        let line = strip_comment(raw.trim_end_matches('\r'));
        if line.trim().is_empty() {
            continue;
        }
        let span = Span::new(start, start + line.trim_end().len());
        if n >= MAX_LINES {
            sheet.problems.push(
                Diagnostic::new(
                    Problem::Unreadable,
                    span,
                    format!("the orders stop here: only {MAX_LINES} lines are read"),
                )
                .with_help("end your orders with END, or send the rest in another mail"),
            );
            break;
        }
        if line.len() > MAX_LINE {
            sheet.problems.push(
                Diagnostic::new(
                    Problem::Unreadable,
                    span,
                    "this line is too long to be one order",
                )
                .with_help("write one order a line"),
            );
            read_lines.push((true, None));
            continue;
        }
        match Grammar::parse(Rule::line, line) {
            Ok(mut pairs) => {
                let top = pairs.next().expect("a line");
                match top.into_inner().find(|p| p.as_rule() != Rule::EOI) {
                    Some(p) if p.as_rule() == Rule::end_marker => break,
                    Some(p) => sheet.lines.push(Line {
                        written: written(p, start),
                        span,
                    }),
                    None => continue,
                }
            }
            Err(e) => {
                read_lines.push((
                    !crate::pleasantry::is_shaped(line),
                    Some((sheet.problems.len(), span)),
                ));
                sheet.problems.push(syntax(&e, line, start));
                continue;
            }
        }
        read_lines.push((true, None));
    }
    // A greeting or signature around the orders is set aside with a note
    // (ruling O-27): no unit's line is written without a colon.
    let reads: Vec<bool> = read_lines.iter().map(|(r, _)| *r).collect();
    for i in crate::pleasantry::edges(&reads) {
        if let Some((problem, span)) = read_lines[i].1 {
            sheet.problems[problem] =
                Diagnostic::new(Problem::Remark, span, crate::pleasantry::NOTE).with_help(
                    "if it was meant as an order, write the unit's name, a colon and its orders",
                );
        }
    }
    sheet
}

/// A Pest error as a diagnostic in the player's words.
fn syntax(e: &pest::error::Error<Rule>, line: &str, start: usize) -> Diagnostic<Problem> {
    let at = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((a, _)) => a,
    };
    let word_end = line[at..]
        .find(char::is_whitespace)
        .map_or(line.len(), |i| at + i)
        .max(at + 1)
        .min(line.len().max(at + 1));
    let expected: Vec<&str> = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut v: Vec<&str> = positives.iter().filter_map(|r| expectation(*r)).collect();
            v.sort_unstable();
            v.dedup();
            v
        }
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    if let Some((word, meant)) = mistyped_hex(line).filter(|(w, _)| w.start <= at) {
        return Diagnostic::new(
            Problem::Unreadable,
            Span::new(start + word.start, start + word.end),
            format!(
                "'{}' is not a hex id: a hex id is four digits",
                &line[word.clone()]
            ),
        )
        .with_help(format!("did you mean {meant}?"));
    }
    let found = line[at.min(line.len())..]
        .split_whitespace()
        .next()
        .unwrap_or("the end of the line");
    let mut d = Diagnostic::new(
        Problem::Unreadable,
        Span::new(start + at, start + word_end.min(line.len()).max(at)),
        format!("cannot read '{found}' here"),
    );
    if !expected.is_empty() {
        d = d.with_note(format!("expected {}", expected.join(", or ")));
    }
    d.with_help("see the guide (HELP): 'Salian 3b: move 0607 0606', 'attack Provence with Aquitaine, fire Bowmen'")
}

/// A word of a line that reads as a hex id with a letter typed for a digit
/// ("04O7", "l203"), and the id it was surely meant to be.
fn mistyped_hex(line: &str) -> Option<(std::ops::Range<usize>, String)> {
    let digit = |c: char| match c {
        '0'..='9' => Some(c),
        'O' | 'o' => Some('0'),
        'I' | 'l' => Some('1'),
        _ => None,
    };
    let sep = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':');
    let mut from = None;
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (sep(c), from) {
            (false, None) => from = Some(i),
            (true, Some(s)) => {
                from = None;
                let word = &line[s..i];
                let meant: Option<String> = word.chars().map(digit).collect();
                let digits = word.chars().filter(char::is_ascii_digit).count();
                if let Some(meant) = meant.filter(|m| m.len() == 4 && (2..4).contains(&digits)) {
                    return Some((s..i, meant));
                }
            }
            _ => {}
        }
    }
    None
}

/// What a grammar rule means to a player; `None` for rules never expected alone.
fn expectation(r: Rule) -> Option<&'static str> {
    Some(match r {
        Rule::hex => "a hex id like 0708",
        Rule::unit_ref | Rule::name_words | Rule::name_word | Rule::quoted => "a unit",
        Rule::odds => "odds like 2/1",
        Rule::k_move => "'move'",
        Rule::k_to => "'to'",
        Rule::k_charge => "'charge'",
        Rule::k_by | Rule::k_via => "'by' and the hexes of the charge",
        Rule::k_feigned => "'feigned flight at'",
        Rule::k_flight => "'flight'",
        Rule::k_at => "'at'",
        Rule::k_with => "'with' and the attackers",
        Rule::k_fire => "'fire'",
        Rule::k_advance => "'advance'",
        Rule::k_always | Rule::always => "'always'",
        Rule::k_never | Rule::never => "'never'",
        Rule::k_stay | Rule::k_hold => "'stay'",
        Rule::k_attack => "'attack'",
        Rule::k_min | Rule::k_minimum | Rule::minimum => "'min 2/1'",
        Rule::k_losses | Rule::k_loss | Rule::losses => "'losses'",
        Rule::k_all | Rule::all_or_none => "'all'",
        Rule::k_no | Rule::no_advance => "'no advance'",
        Rule::k_into => "'into'",
        Rule::k_then => "'then'",
        Rule::k_place => "'place'",
        Rule::k_in => "'in'",
        Rule::k_set | Rule::k_setup => "'set up'",
        Rule::k_up => "'up'",
        Rule::EOI => "the end of the line",
        Rule::move_path | Rule::move_to | Rule::charge | Rule::feigned | Rule::stay => {
            "an order: move, charge, feigned flight or stay"
        }
        _ => return None,
    })
}

fn span_of(p: &Pair<Rule>, start: usize) -> Span {
    let s = p.as_span();
    Span::new(start + s.start(), start + s.end())
}

fn unit_text(p: Pair<Rule>, start: usize) -> UnitText {
    let span = span_of(&p, start);
    let text = p.as_str().trim();
    Spanned {
        value: text.trim_matches('"').to_string(),
        span,
    }
}

fn hexes(p: Pair<Rule>) -> Vec<Hex> {
    p.into_inner()
        .filter(|x| x.as_rule() == Rule::hex)
        .filter_map(|x| x.as_str().parse().ok())
        .collect()
}

fn first<'a>(p: &Pair<'a, Rule>, rule: Rule) -> Option<Pair<'a, Rule>> {
    p.clone().into_inner().find(|x| x.as_rule() == rule)
}

fn written(p: Pair<Rule>, start: usize) -> Written {
    match p.as_rule() {
        Rule::unit_line => {
            let mut inner = p.into_inner();
            let unit = unit_text(inner.next().expect("a unit"), start);
            let orders = inner
                .filter(|o| !matches!(o.as_rule(), Rule::k_then))
                .map(|o| {
                    let span = span_of(&o, start);
                    let value = match o.as_rule() {
                        Rule::move_path => UnitOrder::Path(hexes(o)),
                        Rule::move_to => UnitOrder::To(hexes(o)[0]),
                        Rule::charge => UnitOrder::Charge {
                            target: unit_text(first(&o, Rule::unit_ref).expect("a target"), start),
                            path: hexes(o),
                        },
                        Rule::feigned => UnitOrder::Feigned {
                            target: unit_text(first(&o, Rule::unit_ref).expect("a target"), start),
                        },
                        _ => UnitOrder::Stay,
                    };
                    Spanned { value, span }
                })
                .collect();
            Written::Unit { unit, orders }
        }
        Rule::attack_line => Written::Attack(attack(
            first(&p, Rule::attack_body).expect("an attack"),
            start,
        )),
        Rule::else_line => Written::Else(attack(
            first(&p, Rule::attack_body).expect("an attack"),
            start,
        )),
        Rule::retreat => Written::Retreat {
            unit: unit_text(first(&p, Rule::unit_ref).expect("a unit"), start),
            hexes: hexes(p),
        },
        Rule::defend_advance => Written::DefenderAdvance {
            unit: unit_text(first(&p, Rule::unit_ref).expect("a unit"), start),
            into: first(&p, Rule::hex).and_then(|h| h.as_str().parse().ok()),
            commander: first(&p, Rule::with_commander).is_some(),
        },
        Rule::defend_no_advance => Written::NoDefenderAdvance,
        Rule::place_line | Rule::setup_line => Written::Place {
            unit: unit_text(first(&p, Rule::unit_ref).expect("a unit"), start),
            hex: hexes(p)[0],
        },
        Rule::evade => {
            let when = if first(&p, Rule::never).is_some() {
                Evasion::Never
            } else if let Some(o) = first(&p, Rule::odds) {
                Evasion::AtOdds(Column::parse(o.as_str()).unwrap_or(Column::OneOne))
            } else {
                Evasion::Always
            };
            Written::Evade {
                unit: unit_text(first(&p, Rule::unit_ref).expect("a unit"), start),
                when,
            }
        }
        _ => Written::ImpetuousRoute {
            unit: unit_text(first(&p, Rule::unit_ref).expect("a unit"), start),
            path: hexes(p),
        },
    }
}

fn attack(body: Pair<Rule>, start: usize) -> AttackText {
    let mut a = AttackText {
        target: Spanned {
            value: String::new(),
            span: Span::default(),
        },
        attackers: Vec::new(),
        minimum: None,
        all: false,
        advance: None,
        losses: Vec::new(),
    };
    for part in body.into_inner() {
        match part.as_rule() {
            Rule::unit_ref => a.target = unit_text(part, start),
            Rule::attackers => {
                for at in part.into_inner().filter(|x| x.as_rule() == Rule::attacker) {
                    let inner = at.into_inner().next().expect("an attacker");
                    if inner.as_rule() == Rule::firer {
                        a.attackers.push((
                            unit_text(first(&inner, Rule::unit_ref).expect("a firer"), start),
                            true,
                        ));
                    } else {
                        a.attackers.push((unit_text(inner, start), false));
                    }
                }
            }
            Rule::minimum => {
                a.minimum = first(&part, Rule::odds).and_then(|o| Column::parse(o.as_str()))
            }
            Rule::all_or_none => a.all = true,
            Rule::no_advance => a.advance = Some(None),
            Rule::advance_unit => {
                let commander = first(&part, Rule::with_commander).is_some();
                a.advance = Some(Some((
                    unit_text(first(&part, Rule::unit_ref).expect("a unit"), start),
                    commander,
                )));
            }
            Rule::losses => {
                a.losses = part
                    .into_inner()
                    .filter(|x| x.as_rule() == Rule::unit_ref)
                    .map(|x| unit_text(x, start))
                    .collect()
            }
            _ => {}
        }
    }
    a
}
