//! Reading order text with the Pest grammar (`grammar/orders.pest`).
//!
//! The text is read **line by line**: each line is parsed on its own, so a
//! line that is not understood is reported and the next line is read as if
//! nothing had happened. A unit's block is either one line
//! (`Black Dragons: phase 1 move 6; phase 2 face left 90`) or the unit's
//! name on a line of its own followed by `phase 1 …` / `phase 2 …` lines.
//! A broken line inside a unit's block marks the block `broken`, so the
//! validator refuses that unit's orders instead of carrying out half of them.

use crate::games::hyborian::orders::ast::*;
use crate::games::hyborian::orders::diagnostic::{Diagnostic, Invalid, Span};
use crate::games::hyborian::orders::plan::Hand;
use crate::games::hyborian::rules::{magic, Formation, Phase};
use pest::error::InputLocation;
use pest::iterators::Pair;
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/orders.pest"]
struct OrdersParser;

/// Longest line the reader looks at; anything longer is not an order.
const MAX_LINE: usize = 2_000;
/// The reader stops after this many non-blank lines: no army needs more, and
/// a megabyte of garbage must still be answered at once.
const MAX_LINES: usize = 1_000;
/// After this many syntax errors the rest are summed up in one line.
const MAX_ERRORS: usize = 50;

/// One line, classified.
enum Item {
    /// A unit named, with the clauses on the same line (possibly none).
    Unit(Spanned<UnitRef>, Vec<Spanned<Clause>>),
    /// Clauses for the unit named on an earlier line.
    Clauses(Vec<Spanned<Clause>>),
    Blank,
}

/// Read a sheet of orders (a mail's text with its envelope blanked by
/// `crate::envelope`). Never panics; every line is looked at once.
pub(crate) fn scan(text: &str) -> OrderSheet {
    let mut sheet = OrderSheet {
        source: text.to_string(),
        ..OrderSheet::default()
    };
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut suppressed = 0usize;
    let lines = read_lines(text, &mut errors);
    // Lines at the edges that read as no order and are shaped like a
    // greeting or signature are set aside (ruling O-27).
    let reads_as_order: Vec<bool> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let unit_alone = matches!(&l.item, Some(Item::Unit(_, c)) if c.is_empty());
            let heads_a_block = matches!(
                lines.get(i + 1).map(|n| &n.item),
                Some(Some(Item::Clauses(_)))
            );
            let blank = matches!(l.item, Some(Item::Blank));
            let letter_like = (l.item.is_none() || (unit_alone && !heads_a_block))
                && crate::pleasantry::is_shaped(l.text);
            !(blank || letter_like)
        })
        .collect();
    let edges: Vec<usize> = crate::pleasantry::edges(&reads_as_order).collect();
    for (i, l) in lines.into_iter().enumerate() {
        let Line {
            text: line,
            start: line_start,
            item,
            errors: line_errors,
        } = l;
        let end = line_start + line.trim_end().len();
        if edges.contains(&i) {
            let unit = match item {
                Some(Item::Blank) => continue,
                Some(Item::Unit(unit, _)) => Some(unit),
                _ => None,
            };
            sheet.asides.push(Aside {
                span: Span::new(line_start + indent(line), end),
                unit,
            });
            continue;
        }
        let broken = !line_errors.is_empty();
        match item {
            Some(Item::Unit(unit, clauses)) => {
                let span = Span::new(unit.span.start, end);
                sheet.blocks.push(Spanned::new(
                    UnitBlock {
                        unit,
                        clauses,
                        broken,
                    },
                    span,
                ));
            }
            Some(Item::Clauses(clauses)) => match sheet.blocks.last_mut() {
                Some(block) => {
                    block.span.end = end;
                    block.node.clauses.extend(clauses);
                    block.node.broken |= broken;
                }
                None => errors.push(
                    Diagnostic::invalid(
                        Invalid::NoUnit,
                        Span::new(line_start + indent(line), end),
                        "this order does not say which unit it is for",
                    )
                    .with_help("start with the unit's name: 'Black Dragons: phase 1 move 6'"),
                ),
            },
            Some(Item::Blank) => {}
            None => attach_broken_line(&mut sheet, line, line_start),
        }
        for e in line_errors {
            if errors.len() < MAX_ERRORS {
                errors.push(e);
            } else {
                suppressed += 1;
            }
        }
    }
    if suppressed > 0 {
        let end = text.len();
        errors.push(Diagnostic::invalid(
            Invalid::NotUnderstood,
            Span::new(end, end),
            format!("{suppressed} more lines were not understood and are not listed"),
        ));
    }
    sheet.syntax_errors = errors;
    sheet
}

/// One non-blank line of the sheet, read on its own.
struct Line<'a> {
    /// The line without its comment and line end.
    text: &'a str,
    start: usize,
    item: Option<Item>,
    errors: Vec<Diagnostic>,
}

/// Read every non-blank line up to the signature separator or
/// [`MAX_LINES`] (the line past the limit is reported in `errors`).
fn read_lines<'a>(text: &'a str, errors: &mut Vec<Diagnostic>) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    let mut offset = 0usize;
    for raw in text.split('\n') {
        let line_start = offset;
        offset += raw.len() + 1;
        // The signature separator "-- " ends the orders like END does.
        if raw.trim_end() == "--" {
            break;
        }
        let line = strip_comment(raw.trim_end_matches('\r'));
        if line.trim().is_empty() {
            continue;
        }
        if lines.len() == MAX_LINES {
            errors.push(
                Diagnostic::invalid(
                    Invalid::NotUnderstood,
                    Span::new(line_start, line_start + line.len()),
                    format!("the orders stop here: only the first {MAX_LINES} lines are read"),
                )
                .with_help("send long orders in two mails, or end them with END"),
            );
            break;
        }
        let mut line_errors = Vec::new();
        let item = if line.len() > MAX_LINE {
            line_errors.push(
                Diagnostic::invalid(
                    Invalid::NotUnderstood,
                    Span::new(line_start, line_start + line.len()),
                    format!("this line is {} characters long; no order is", line.len()),
                )
                .with_help("write one unit's orders per line"),
            );
            None
        } else {
            read_line(line, line_start, &mut line_errors)
        };
        lines.push(Line {
            text: line,
            start: line_start,
            item,
            errors: line_errors,
        });
    }
    lines
}

/// A line that was not understood still tells which unit it was for when
/// it starts `Unit name:`; otherwise it belongs to the block above it.
fn attach_broken_line(sheet: &mut OrderSheet, line: &str, line_start: usize) {
    if let Some(colon) = line.find(':') {
        if let Ok(mut pairs) = OrdersParser::parse(Rule::head_only, &line[..colon]) {
            if let Some(r) = pairs.next().and_then(|p| p.into_inner().next()) {
                let unit = unit_ref(r, line_start);
                let span = Span::new(unit.span.start, line_start + line.trim_end().len());
                sheet.blocks.push(Spanned::new(
                    UnitBlock {
                        unit,
                        clauses: Vec::new(),
                        broken: true,
                    },
                    span,
                ));
                return;
            }
        }
    }
    if let Some(block) = sheet.blocks.last_mut() {
        block.node.broken = true;
    }
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Cut a comment off: `//` or a `#` that does not start a unit number.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let next = bytes.get(i + 1).copied();
        if b == b'/' && next == Some(b'/') {
            return &line[..i];
        }
        if b == b'#' && !next.is_some_and(|n| n.is_ascii_digit()) {
            return &line[..i];
        }
    }
    line
}

/// True when a unit's name can be written bare in canonical form and read
/// back as the same name (otherwise it is written in quotes).
pub(crate) fn is_plain_name(name: &str) -> bool {
    const RESERVED: [&str; 22] = [
        "forward",
        "forwards",
        "ahead",
        "straight",
        "bearing",
        "at",
        "to",
        "toward",
        "towards",
        "left",
        "right",
        "north",
        "south",
        "east",
        "west",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
        "unit",
        "number",
        "no",
    ];
    // Canonical text names the same few units over and over: remember the
    // answers (a small cache; it changes no result, only saves parsing).
    thread_local! {
        static PLAIN: std::cell::RefCell<std::collections::HashMap<String, bool>> = Default::default();
    }
    if let Some(known) = PLAIN.with(|c| c.borrow().get(name).copied()) {
        return known;
    }
    let first = name.split_whitespace().next().unwrap_or("").to_lowercase();
    let plain = name == name.trim()
        && !RESERVED.contains(&first.as_str())
        && OrdersParser::parse(Rule::name_only, name).is_ok();
    PLAIN.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 512 {
            c.clear();
        }
        c.insert(name.to_string(), plain);
    });
    plain
}

fn span(p: &Pair<Rule>, off: usize) -> Span {
    let s = p.as_span();
    Span::new(off + s.start(), off + s.end())
}

/// Parse one line (comment already cut off). `off` is its byte offset in
/// the whole text.
fn read_line(line: &str, off: usize, errors: &mut Vec<Diagnostic>) -> Option<Item> {
    // Most lines are `Unit: orders`. When the line starts with no word that
    // could begin a header, command or order, every other reading fails at
    // its first word, so the unit line alone is tried first (pest pays for
    // every alternative it tries).
    let fast = if starts_with_keyword(line) {
        None
    } else {
        OrdersParser::parse(Rule::unit_line_only, line).ok()
    };
    let parsed = match fast {
        Some(mut pairs) => pairs.next()?,
        None => match OrdersParser::parse(Rule::line, line) {
            Ok(mut pairs) => pairs.next()?,
            Err(e) => {
                errors.push(not_understood(line, off, &e));
                return None;
            }
        },
    };
    let mut inner = parsed
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::EOI | Rule::list_mark));
    let Some(first) = inner.next() else {
        return Some(Item::Blank);
    };
    match first.as_rule() {
        Rule::clauses => Some(Item::Clauses(clauses(first, off, errors))),
        Rule::unit_line | Rule::unit_head => {
            let mut parts = first.into_inner();
            let unit = unit_ref(parts.next()?, off);
            let cl = parts
                .find(|p| p.as_rule() == Rule::clauses)
                .map(|p| clauses(p, off, errors))
                .unwrap_or_default();
            Some(Item::Unit(unit, cl))
        }
        _ => None,
    }
}

/// Every word an order may start with (the first words of `clauses` in the
/// grammar; "turn" and "hold" begin orders too).
/// A line starting with a digit is also left to the full grammar.
const LINE_START_WORDS: [&str; 45] = [
    "turn", "hold", "holds", "phase", "ph", "p1", "p2", "first", "second", "1st", "2nd", "evade",
    "evades", "do", "don't", "don’t", "no", "cease", "target", "shoot", "fire", "join", "joins",
    "ride", "rides", "leave", "leaves", "move", "advance", "march", "go", "cast", "casts",
    "deploy", "deploys", "face", "faces", "change", "about", "right", "left", "form", "forms",
    "reform", "re-form",
];
const LINE_START_WORDS_2: [&str; 22] = [
    "charge",
    "charges",
    "break",
    "forced",
    "wheel",
    "wheels",
    "fall",
    "falls",
    "back",
    "backward",
    "backwards",
    "retire",
    "straight",
    "oblique",
    "obliquely",
    "toward",
    "towards",
    "to",
    "forward",
    "forwards",
    "ahead",
    "stand",
];
const LINE_START_WORDS_3: [&str; 11] = [
    "stands",
    "halt",
    "stay",
    "sweep",
    "sweeps",
    "expand",
    "expands",
    "contract",
    "contracts",
    "lap",
    "laps",
];

fn starts_with_keyword(line: &str) -> bool {
    let t = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    let word: String = t
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '\'' | '’' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    LINE_START_WORDS.contains(&word.as_str())
        || LINE_START_WORDS_2.contains(&word.as_str())
        || LINE_START_WORDS_3.contains(&word.as_str())
}

/// The words the reader knows, for "did you mean" on a word it did not.
const VOCABULARY: [&str; 45] = [
    "sweep",
    "expand",
    "contract",
    "lap",
    "around",
    "phase",
    "move",
    "advance",
    "back",
    "oblique",
    "toward",
    "wheel",
    "left",
    "right",
    "then",
    "face",
    "about",
    "bearing",
    "form",
    "line",
    "column",
    "road",
    "ring",
    "positional",
    "ranks",
    "wide",
    "charge",
    "with",
    "breakthrough",
    "break",
    "off",
    "hold",
    "stand",
    "evade",
    "fire",
    "target",
    "shoot",
    "join",
    "leave",
    "ride",
    "cast",
    "deploy",
    "facing",
    "forced",
    "march",
];

/// Small words that look like keywords to a string metric but are English.
const NOT_TYPOS: [&str; 10] = ["of", "the", "a", "an", "to", "in", "on", "at", "and", "or"];

/// How like a keyword a word must be to be taken for its typo.
const KEYWORD_LIKENESS: f64 = 0.85;

/// The keyword a word is a near miss of, if any.
fn near_keyword(word: &str) -> Option<&'static str> {
    if VOCABULARY.contains(&word) || NOT_TYPOS.contains(&word) {
        return None;
    }
    crate::names::closest_at(word, VOCABULARY.iter().map(|w| (*w, *w)), KEYWORD_LIKENESS)
}

fn not_understood(line: &str, off: usize, e: &pest::error::Error<Rule>) -> Diagnostic {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
    .min(line.len());
    // Words of the clause up to and including the one at the error, with offsets.
    let clause_start = line[..pos].rfind([':', ';']).map_or(0, |i| i + 1);
    let word_end = line[pos..]
        .find(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map_or(line.len(), |i| pos + i);
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, c) in line[clause_start..word_end].char_indices() {
        let i = clause_start + i;
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push((s, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        words.push((s, &line[s..word_end]));
    }
    // A misspelt keyword at the error or just before it (a typo can make the
    // line fail a few words later): point at the typo.
    let typo = words
        .iter()
        .rev()
        .find_map(|(at, w)| near_keyword(&w.to_lowercase()).map(|k| (*at, *w, k)));
    let (at, shown) = match typo {
        Some((at, w, _)) => (at, w.to_string()),
        None if pos < word_end => (pos, line[pos..word_end].to_string()),
        None => (
            pos,
            line[pos..]
                .chars()
                .next()
                .map(String::from)
                .unwrap_or_default(),
        ),
    };
    let message = if shown.is_empty() {
        "this order stops too soon".to_string()
    } else {
        format!("could not read the order at '{shown}'")
    };
    let d = Diagnostic::invalid(
        Invalid::NotUnderstood,
        Span::new(off + at, off + at + shown.len()),
        message,
    );
    if let Some((_, _, k)) = typo {
        return d.with_help(format!("did you mean '{k}'?"));
    }
    let mut d = d;
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant {
        let mut wanted: Vec<&str> = positives.iter().filter_map(|r| describe(*r)).collect();
        wanted.sort_unstable();
        wanted.dedup();
        if !wanted.is_empty() {
            d = d.with_note(format!("expected {}", wanted.join(", ")));
        }
    }
    d.with_help_if_none("see the guide (send HELP): a unit's line reads 'Black Dragons: phase 1 move 6; phase 2 face left 90'")
}

impl Diagnostic {
    fn with_help_if_none(self, help: &str) -> Self {
        if self.help.is_some() {
            self
        } else {
            self.with_help(help)
        }
    }
}

/// Human names of the grammar's rules, for "expected …" notes. Keywords and
/// punctuation are named by the rules that use them.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::distance | Rule::inches | Rule::full => "a distance ('6', '6\"', 'full')",
        Rule::degrees | Rule::number => "a number",
        Rule::int => "a whole number",
        Rule::point | Rule::coord => "a point '(x, y)'",
        Rule::unit_ref | Rule::name | Rule::quoted_name | Rule::unit_number | Rule::target_unit => {
            "a unit's name"
        }
        Rule::target => "a unit's name or a point '(x, y)'",
        Rule::hand | Rule::k_left | Rule::k_right => "'left' or 'right'",
        Rule::phase_one | Rule::phase_two => "'phase 1' or 'phase 2'",
        Rule::move_fn | Rule::move_verb => "'move'",
        Rule::face | Rule::k_face => "'face'",
        Rule::form | Rule::k_form => "'form'",
        Rule::charge | Rule::k_charge => "'charge'",
        Rule::hold | Rule::k_hold => "'hold'",
        Rule::wheel_move | Rule::k_wheel => "'wheel'",
        Rule::line_f
        | Rule::column_f
        | Rule::road_column
        | Rule::ring_f
        | Rule::positional_line => "a formation (line, column, road column, ring, positional line)",
        Rule::compass => "a compass direction",
        Rule::spell_name => "a spell's name",
        Rule::breakthrough => "'with breakthrough'",
        Rule::charge_sweep | Rule::k_sweep => "'sweep left|right DEGREES'",
        Rule::expand | Rule::k_expand => "'expand N'",
        Rule::contract | Rule::k_contract => "'contract N'",
        Rule::lap_around | Rule::k_lap => "'lap around'",
        Rule::k_then => "'then'",
        Rule::k_to => "'to'",
        Rule::EOI => "the end of the line",
        _ => return None,
    })
}

fn int_in(p: &Pair<Rule>) -> Option<u32> {
    p.clone()
        .into_inner()
        .find(|x| x.as_rule() == Rule::int)
        .and_then(|x| x.as_str().parse().ok())
}

fn clauses(p: Pair<Rule>, off: usize, errors: &mut Vec<Diagnostic>) -> Vec<Spanned<Clause>> {
    let mut out = Vec::new();
    for c in p.into_inner() {
        let sp = span(&c, off);
        match c.as_rule() {
            Rule::phase_clause => {
                let mut phase = None;
                let mut function = None;
                for x in c.into_inner() {
                    match x.as_rule() {
                        Rule::phase_one => phase = Some(Phase::One),
                        Rule::phase_two => phase = Some(Phase::Two),
                        _ => {
                            if let Some(f) = function_of(x.clone(), off) {
                                function = Some(f);
                            } else {
                                // `phase 1 evade if charged`: an order for the
                                // whole turn; the phase adds nothing.
                                match unit_order(x, off) {
                                    // `phase 2 fire`, `phase 2 target X`: the volley is saved for that phase.
                                    Some(Ok(u @ (UnitOrder::Fire | UnitOrder::Target(_))))
                                        if phase.is_some() =>
                                    {
                                        let p = phase.expect("checked");
                                        if u != UnitOrder::Fire {
                                            out.push(Spanned::new(Clause::Unit(u), sp));
                                        }
                                        out.push(Spanned::new(
                                            Clause::Unit(UnitOrder::FireIn(p)),
                                            sp,
                                        ));
                                    }
                                    Some(Ok(u)) => out.push(Spanned::new(Clause::Unit(u), sp)),
                                    Some(Err(d)) => errors.push(d),
                                    None => {}
                                }
                            }
                        }
                    }
                }
                if let Some(function) = function {
                    out.push(Spanned::new(Clause::Phase { phase, function }, sp));
                }
            }
            Rule::bare_function => {
                if let Some(function) = c.into_inner().next().and_then(|x| function_of(x, off)) {
                    // `hold` with no phase: the unit stands all turn; no phase
                    // needs naming (ruling O-2).
                    if function.node == Function::Hold {
                        out.push(Spanned::new(
                            Clause::Phase {
                                phase: None,
                                function,
                            },
                            sp,
                        ));
                        continue;
                    }
                    errors.push(
                        Diagnostic::invalid(
                            Invalid::MissingPhase,
                            sp,
                            format!("'{}' does not say which phase it is for", function.node),
                        )
                        .with_note("§2: orders must say which function is in phase 1 and which in phase 2; a single function must still name its phase")
                        .with_help(format!("write 'phase 1 {}' (or 'phase 2 …')", function.node)),
                    );
                    out.push(Spanned::new(
                        Clause::Phase {
                            phase: None,
                            function,
                        },
                        sp,
                    ));
                }
            }
            _ => match unit_order(c, off) {
                Some(Ok(u)) => out.push(Spanned::new(Clause::Unit(u), sp)),
                Some(Err(d)) => errors.push(d),
                None => {}
            },
        }
    }
    out
}

fn number(p: &Pair<Rule>) -> f64 {
    // `number`, `coord`, or a compound (`degrees`, `inches`) holding one.
    let text = match p.as_rule() {
        Rule::number | Rule::coord => p.as_str(),
        _ => p
            .clone()
            .into_inner()
            .find(|x| x.as_rule() == Rule::number)
            .map_or("0", |x| x.as_str()),
    };
    text.parse().unwrap_or(0.0)
}

fn point(p: &Pair<Rule>) -> (f64, f64) {
    let c: Vec<f64> = p
        .clone()
        .into_inner()
        .filter(|x| x.as_rule() == Rule::coord)
        .map(|x| number(&x))
        .collect();
    (
        c.first().copied().unwrap_or(0.0),
        c.get(1).copied().unwrap_or(0.0),
    )
}

fn compass(p: &Pair<Rule>) -> f64 {
    match p.as_str().to_lowercase().as_str() {
        "north" => 0.0,
        "northeast" => 45.0,
        "east" => 90.0,
        "southeast" => 135.0,
        "south" => 180.0,
        "southwest" => 225.0,
        "west" => 270.0,
        _ => 315.0,
    }
}

/// A bearing written as a compass word or a number of degrees.
fn bearing_in(p: &Pair<Rule>) -> Option<f64> {
    p.clone().into_inner().find_map(|x| match x.as_rule() {
        Rule::compass => Some(compass(&x)),
        Rule::degrees => Some(number(&x)),
        _ => None,
    })
}

fn unit_ref(p: Pair<Rule>, off: usize) -> Spanned<UnitRef> {
    let sp = span(&p, off);
    let inner = p.clone().into_inner().next();
    let node = match inner {
        Some(x) if x.as_rule() == Rule::unit_number => UnitRef::Number(int_in(&x).unwrap_or(0)),
        Some(x) if x.as_rule() == Rule::quoted_name => {
            let text = x.into_inner().next().map_or("", |t| t.as_str());
            UnitRef::Name(text.trim().to_string())
        }
        _ => UnitRef::Name(p.as_str().trim().to_string()),
    };
    Spanned::new(node, sp)
}

fn target(p: Pair<Rule>, off: usize) -> Target {
    match p.clone().into_inner().next() {
        Some(x) if x.as_rule() == Rule::point => {
            let (a, b) = point(&x);
            Target::Point(a, b)
        }
        Some(x) => Target::Unit(unit_ref(x, off)),
        None => Target::Point(0.0, 0.0),
    }
}

fn hand(p: &Pair<Rule>) -> Hand {
    if p.as_str().to_lowercase().starts_with('l') {
        Hand::Left
    } else {
        Hand::Right
    }
}

fn hand_in(p: &Pair<Rule>) -> Hand {
    p.clone()
        .into_inner()
        .find(|x| x.as_rule() == Rule::hand)
        .map_or(Hand::Right, |x| hand(&x))
}

fn distance(p: &Pair<Rule>) -> Option<Distance> {
    match p.as_rule() {
        Rule::full => Some(Distance::Full),
        Rule::inches => Some(Distance::Inches(number(p))),
        _ => None,
    }
}

fn function_of(p: Pair<Rule>, off: usize) -> Option<Spanned<Function>> {
    let sp = span(&p, off);
    let f = match p.as_rule() {
        Rule::move_fn => Function::Move(move_order(p, off)),
        Rule::forced_march => {
            let mut m = move_order(p, off);
            m.forced_march = true;
            Function::Move(m)
        }
        Rule::wheel_move => Function::Move(move_order(p, off)),
        Rule::face => Function::Face(face_order(p, off)),
        Rule::form => Function::Form(form_order(p)?),
        Rule::face_and_form => {
            let mut face = None;
            let mut form = None;
            for x in p.into_inner() {
                match x.as_rule() {
                    Rule::face => face = Some(face_order(x, off)),
                    Rule::form => form = form_order(x),
                    _ => {}
                }
            }
            Function::FaceAndForm(face?, form?)
        }
        Rule::charge => {
            let mut aim = ChargeAim::Forward;
            let mut breakthrough = false;
            let mut break_off = false;
            let mut sweep = None;
            for x in p.into_inner() {
                match x.as_rule() {
                    Rule::charge_sweep => {
                        let d = x
                            .clone()
                            .into_inner()
                            .find(|y| y.as_rule() == Rule::degrees)
                            .map_or(0.0, |y| number(&y));
                        sweep = Some((hand_in(&x), d));
                    }
                    Rule::charge_forward => aim = ChargeAim::Forward,
                    Rule::charge_bearing => aim = ChargeAim::Bearing(bearing_in(&x).unwrap_or(0.0)),
                    Rule::target_unit => {
                        if let Some(u) = x.into_inner().next() {
                            aim = ChargeAim::Unit(unit_ref(u, off));
                        }
                    }
                    Rule::breakthrough => breakthrough = true,
                    Rule::charge_break_off => break_off = true,
                    _ => {}
                }
            }
            Function::Charge(ChargeOrder {
                sweep,
                aim,
                breakthrough,
                break_off,
            })
        }
        Rule::break_off => Function::BreakOff,
        Rule::hold => Function::Hold,
        _ => return None,
    };
    Some(Spanned::new(f, sp))
}

/// A move, a forced march or a wheel: all are the move function.
fn move_order(p: Pair<Rule>, off: usize) -> MoveOrder {
    let is_wheel = p.as_rule() == Rule::wheel_move;
    let mut m = MoveOrder {
        wheel: None,
        direction: MoveDirection::Forward,
        distance: if is_wheel {
            Distance::Inches(0.0)
        } else {
            Distance::Full
        },
        forced_march: false,
        along_road: false,
    };
    let mut wheel_hand = Hand::Right;
    let mut seen_degrees = None;
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::back => m.direction = MoveDirection::Back,
            Rule::oblique => {
                m.direction = MoveDirection::Oblique {
                    hand: hand_in(&x),
                    degrees: crate::games::hyborian::rules::movement::OBLIQUE_MAX_DEGREES,
                }
            }
            Rule::toward => {
                if let Some(t) = x.into_inner().find(|y| y.as_rule() == Rule::target) {
                    m.direction = MoveDirection::Toward(target(t, off));
                }
            }
            Rule::hand => wheel_hand = hand(&x),
            Rule::degrees => seen_degrees = Some(number(&x)),
            Rule::wheel_to_face => {
                if let Some(t) = x.into_inner().find(|y| y.as_rule() == Rule::target) {
                    m.wheel = Some((wheel_hand, WheelAngle::ToFace(target(t, off))));
                }
            }
            Rule::road => m.along_road = true,
            Rule::full | Rule::inches => m.distance = distance(&x).unwrap_or(Distance::Full),
            // "wheel left 30 then <move>": the move after the wheel.
            Rule::move_fn => {
                let after = move_order(x, off);
                m.direction = after.direction;
                m.distance = after.distance;
                m.along_road = after.along_road;
            }
            _ => {}
        }
    }
    if let Some(d) = seen_degrees {
        if is_wheel {
            m.wheel = Some((wheel_hand, WheelAngle::Degrees(d)));
        } else if let MoveDirection::Oblique { degrees, .. } = &mut m.direction {
            *degrees = d;
        }
    }
    m
}

fn face_order(p: Pair<Rule>, off: usize) -> FaceOrder {
    for x in p.into_inner() {
        match x.as_rule() {
            Rule::about_face | Rule::face_about => return FaceOrder::About,
            Rule::face_turn => {
                let degrees = x
                    .clone()
                    .into_inner()
                    .find(|y| y.as_rule() == Rule::degrees)
                    .map_or(90.0, |y| number(&y));
                return FaceOrder::Turn {
                    hand: hand_in(&x),
                    degrees,
                };
            }
            Rule::face_bearing => return FaceOrder::Bearing(bearing_in(&x).unwrap_or(0.0)),
            Rule::face_target => {
                if let Some(t) = x.into_inner().find(|y| y.as_rule() == Rule::target) {
                    return FaceOrder::Toward(target(t, off));
                }
            }
            _ => {}
        }
    }
    FaceOrder::About
}

fn form_order(p: Pair<Rule>) -> Option<FormOrder> {
    let f = p.into_inner().find(|x| {
        matches!(
            x.as_rule(),
            Rule::positional_line
                | Rule::road_column
                | Rule::line_f
                | Rule::column_f
                | Rule::ring_f
        )
    })?;
    formation_of(f)
}

fn formation_of(f: Pair<Rule>) -> Option<FormOrder> {
    let formation = match f.as_rule() {
        Rule::positional_line => Formation::PositionalLine,
        Rule::road_column => Formation::RoadColumn,
        Rule::line_f => Formation::Line,
        Rule::column_f => Formation::Column,
        Rule::ring_f => Formation::Ring,
        _ => return None,
    };
    let mut ranks = None;
    let mut files = None;
    for x in f.into_inner() {
        match x.as_rule() {
            Rule::ranks => ranks = int_in(&x),
            Rule::files => files = int_in(&x),
            _ => {}
        }
    }
    Some(FormOrder {
        formation,
        ranks,
        files,
    })
}

fn unit_order(p: Pair<Rule>, off: usize) -> Option<Result<UnitOrder, Diagnostic>> {
    let first_ref = |p: &Pair<Rule>| {
        p.clone()
            .into_inner()
            .find(|x| x.as_rule() == Rule::unit_ref)
            .map(|x| unit_ref(x, off))
    };
    let o = match p.as_rule() {
        Rule::evade => UnitOrder::Evade,
        Rule::hold_fire => UnitOrder::HoldFire,
        Rule::fire => UnitOrder::Fire,
        Rule::fire_in_phase => UnitOrder::FireIn(
            if p.clone()
                .into_inner()
                .any(|x| x.as_rule() == Rule::phase_two)
            {
                Phase::Two
            } else {
                Phase::One
            },
        ),
        Rule::target_order => UnitOrder::Target(first_ref(&p)?),
        Rule::join => UnitOrder::Join(first_ref(&p)?),
        Rule::ride_with => UnitOrder::RideWith(first_ref(&p)?),
        Rule::leave => UnitOrder::Leave,
        Rule::expand => UnitOrder::Expand(int_in(&p)),
        Rule::contract => UnitOrder::Contract(int_in(&p)?),
        Rule::lap_around => UnitOrder::LapAround,
        Rule::stay_if_routed => UnitOrder::IfRouted { stay: true },
        Rule::leave_if_routed => UnitOrder::IfRouted { stay: false },
        Rule::move_to => {
            let (x, y) = point(
                &p.clone()
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::point)?,
            );
            UnitOrder::MoveTo(x, y)
        }
        Rule::cast => {
            let name = p
                .clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::spell_name)?;
            let spell = match magic::find_spell(name.as_str()) {
                Ok(s) => s,
                Err(near) => {
                    let mut d = Diagnostic::invalid(
                        Invalid::UnknownSpell,
                        span(&name, off),
                        format!("'{}' is not one of the spells of §10", name.as_str()),
                    );
                    d = match near {
                        Some(s) => d.with_help(format!("did you mean '{}'?", magic::spell_name(s))),
                        None => d.with_help(format!(
                            "the spells are: {}",
                            magic::SPELLS.map(magic::spell_name).join(", ")
                        )),
                    };
                    return Some(Err(d));
                }
            };
            let aim = match p.into_inner().find(|x| x.as_rule() == Rule::spell_target) {
                None => SpellAim::Caster,
                Some(t) => {
                    let pts: Vec<(f64, f64)> = t
                        .clone()
                        .into_inner()
                        .filter(|x| x.as_rule() == Rule::point)
                        .map(|x| point(&x))
                        .collect();
                    match (
                        pts.as_slice(),
                        t.into_inner().find(|x| x.as_rule() == Rule::target),
                    ) {
                        ([a, b], _) => SpellAim::Along(*a, *b),
                        (_, Some(tt)) => SpellAim::At(target(tt, off)),
                        _ => SpellAim::Caster,
                    }
                }
            };
            UnitOrder::Cast { spell, aim }
        }
        Rule::deploy => {
            let mut at = (0.0, 0.0);
            let mut facing = None;
            let mut formation = None;
            for x in p.into_inner() {
                match x.as_rule() {
                    Rule::point => at = point(&x),
                    Rule::compass => facing = Some(compass(&x)),
                    Rule::degrees => facing = Some(number(&x)),
                    Rule::deploy_form => formation = x.into_inner().find_map(formation_of),
                    _ => {}
                }
            }
            UnitOrder::Deploy {
                at,
                facing,
                formation,
            }
        }
        _ => return None,
    };
    Some(Ok(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> (OrderSheet, Vec<Diagnostic>) {
        let s = scan(text);
        let e = s.syntax_errors.clone();
        (s, e)
    }

    fn canon(text: &str) -> String {
        let (sheet, errors) = one(text);
        assert!(errors.is_empty(), "{text}: {errors:#?}");
        sheet.to_string().trim_end().to_string()
    }

    #[test]
    fn the_case_file_line() {
        assert_eq!(
            canon("Regular Spearmen: phase 1 move full"),
            "Regular Spearmen: phase 1 move full"
        );
    }

    #[test]
    fn forgiving_phrasings() {
        let cases = [
            (
                "Black Dragons: p1 advance 6\"; p2 turn left 45",
                "Black Dragons: phase 1 move 6; phase 2 face left 45",
            ),
            (
                "black dragons phase one move 6 inches, phase two face about",
                "black dragons: phase 1 move 6; phase 2 face about",
            ),
            (
                "#3: first phase charge Nemedian Knights with breakthrough",
                "#3: phase 1 charge Nemedian Knights with breakthrough",
            ),
            (
                "unit 3: phase 1 wheel left 30 then move 6",
                "#3: phase 1 wheel left 30 then move 6",
            ),
            (
                "A: phase 1 wheel left 30 then 6",
                "A: phase 1 wheel left 30 then move 6",
            ),
            (
                "A: phase 1 wheel left 30 then oblique right 20 4",
                "A: phase 1 wheel left 30 then move oblique right 20 4",
            ),
            (
                "Horse: phase 1 wheel right to face Black Dragons then move full",
                "Horse: phase 1 wheel right to face Black Dragons then move full",
            ),
            ("Foot: phase 1 move back 2", "Foot: phase 1 move back 2"),
            ("Foot: phase 1 fall back 2\"", "Foot: phase 1 move back 2"),
            (
                "Foot: phase 1 oblique left 30 6",
                "Foot: phase 1 move oblique left 30 6",
            ),
            (
                "Foot: phase 1 move obliquely right 4",
                "Foot: phase 1 move oblique right 45 4",
            ),
            (
                "Foot: phase 1 move toward (40, 30) 6",
                "Foot: phase 1 move toward (40, 30) 6",
            ),
            (
                "Foot: phase 1 move towards Black Dragons",
                "Foot: phase 1 move toward Black Dragons full",
            ),
            (
                "Foot: phase 1 form road column; phase 2 forced march along the road",
                "Foot: phase 1 form road column; phase 2 forced march full along the road",
            ),
            (
                "Foot: phase 1 move full along the road",
                "Foot: phase 1 move full along the road",
            ),
            ("Foot: phase 1 face 270", "Foot: phase 1 face bearing 270"),
            ("Foot: phase 1 face west", "Foot: phase 1 face bearing 270"),
            (
                "Foot: phase 1 face Black Dragons",
                "Foot: phase 1 face toward Black Dragons",
            ),
            (
                "Foot: phase 1 form line 3 ranks; phase 2 form column 4 wide",
                "Foot: phase 1 form line 3 ranks; phase 2 form column 4 wide",
            ),
            ("Foot: phase 1 form a ring", "Foot: phase 1 form ring"),
            (
                "Foot: phase 1 form positional line",
                "Foot: phase 1 form positional line",
            ),
            (
                "Horse: phase 1 face about and form column 3 wide",
                "Horse: phase 1 face about and form column 3 wide",
            ),
            (
                "Horse: phase 1 charge Knights then break off",
                "Horse: phase 1 charge Knights then break off",
            ),
            (
                "Horse: phase 1 charge Knights and fall back after one round",
                "Horse: phase 1 charge Knights then break off",
            ),
            (
                "Horse: phase 1 charge 90; phase 2 hold",
                "Horse: phase 1 charge bearing 90; phase 2 hold",
            ),
            (
                "Horse: phase 1 charge forward",
                "Horse: phase 1 charge forward",
            ),
            (
                "Skirmishers: evade if charged; hold fire",
                "Skirmishers: evade if charged; hold fire",
            ),
            (
                "Archers: phase 1 hold; shoot at Black Dragons",
                "Archers: phase 1 hold; target Black Dragons",
            ),
            ("Conan: join Black Dragons", "Conan: join Black Dragons"),
            (
                "King: ride with Black Dragons",
                "King: ride with Black Dragons",
            ),
            (
                "Conan: leave; move to (10, 12)",
                "Conan: leave; move to (10, 12)",
            ),
            (
                "Thoth: cast the Sword of Fire at Black Dragons",
                "Thoth: cast Sword of Fire at Black Dragons",
            ),
            (
                "Thoth: cast earth shaker along (10,20) to (34,20)",
                "Thoth: cast Earth-Shaker along (10, 20) to (34, 20)",
            ),
            ("Thoth: cast shield of air", "Thoth: cast Shield of Air"),
            (
                "Archers: save the volley for phase 2",
                "Archers: fire in phase 2",
            ),
            ("Archers: shoot in second phase", "Archers: fire in phase 2"),
            ("Archers: phase 2 fire", "Archers: fire in phase 2"),
            (
                "Foot: deploy at (30, 6) facing 0 in line 3 ranks",
                "Foot: deploy at (30, 6) facing 0 in line 3 ranks",
            ),
            ("Foot: phase 1 stand fast", "Foot: phase 1 hold"),
            ("Foot: phase 1 move 4 forward", "Foot: phase 1 move 4"),
            ("Foot: phase 1 turn 90 right", "Foot: phase 1 face right 90"),
            (
                "Horse: phase 1 charge Knights (with breakthrough)",
                "Horse: phase 1 charge Knights with breakthrough",
            ),
            (
                "Horse: phase 1 move 12 then shoot; phase 2 move 6",
                "Horse: phase 1 move 12; fire; phase 2 move 6",
            ),
            ("Foot: phase 1 stand and shoot", "Foot: phase 1 hold; fire"),
            (
                "1. Black Dragons: phase 1 move 6",
                "Black Dragons: phase 1 move 6",
            ),
            (
                "- Black Dragons: phase 1 move 6",
                "Black Dragons: phase 1 move 6",
            ),
            (
                "“Black Dragons”: phase 1 move 6",
                "Black Dragons: phase 1 move 6",
            ),
            (
                "Foot:\u{a0}phase\t1 move 6 // comment",
                "Foot: phase 1 move 6",
            ),
            ("Hold Guard: phase 1 hold", "Hold Guard: phase 1 hold"),
            ("Men at Arms: phase 1 hold", "\"Men at Arms\": phase 1 hold"),
            ("Black Dragons p1: move 6", "Black Dragons: phase 1 move 6"),
            (
                "Black Dragons first phase: move 6",
                "Black Dragons: phase 1 move 6",
            ),
            ("Pikes: hold", "Pikes: hold"),
            (
                "Skirmishers: phase 1 evade if charged",
                "Skirmishers: evade if charged",
            ),
            (
                "Knights: phase 1 charge the Spearmen",
                "Knights: phase 1 charge the Spearmen",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(canon(text), want, "reading {text:?}");
        }
    }

    #[test]
    fn block_form() {
        let text = "Black Dragons\r\n  phase 1: move 6\r\n  phase 2: face left 90\r\n\r\nArchers\n1: hold\n2. move 4\n";
        assert_eq!(
            canon(text),
            "Black Dragons: phase 1 move 6; phase 2 face left 90\nArchers: phase 1 hold; phase 2 move 4"
        );
    }

    #[test]
    fn a_broken_line_keeps_the_others() {
        let (sheet, errors) = one("A: phase 1 move 6\nB: phase 1 moev 6\nC: phase 2 hold\n");
        assert_eq!(sheet.blocks.len(), 3);
        assert!(!sheet.blocks[0].node.broken);
        assert!(sheet.blocks[1].node.broken);
        assert!(!sheet.blocks[2].node.broken);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].help.as_deref(), Some("did you mean 'move'?"));
    }

    #[test]
    fn reading_stops_after_the_line_limit() {
        let text = "A: phase 1 hold\n".repeat(MAX_LINES + 5);
        let (sheet, errors) = one(&text);
        assert_eq!(sheet.blocks.len(), MAX_LINES);
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn missing_phase_is_reported() {
        let (sheet, errors) = one("Archers: move 6");
        assert!(sheet.blocks[0].node.broken);
        assert_eq!(
            errors[0].kind,
            crate::games::hyborian::orders::diagnostic::Kind::Invalid(Invalid::MissingPhase)
        );
    }

    #[test]
    fn end_marker_stops_reading() {
        // END is the envelope's: the sheet it leaves stops there.
        let (sheet, _) =
            crate::games::hyborian::orders::parse_sheet("A: phase 1 hold\nEND\nB: phase 1 hold\n");
        assert_eq!(sheet.blocks.len(), 1);
        let (sheet, errors) = one("A: phase 1 hold\n-- \nMy Name, Tarantia\n");
        assert_eq!((sheet.blocks.len(), errors.len()), (1, 0));
    }

    /// The fast path reads a line exactly as the full grammar does.
    #[test]
    fn fast_path_agrees_with_the_grammar() {
        let guide = include_str!("../../../../docs/orders.md");
        let mut lines: Vec<String> = guide.lines().map(String::from).collect();
        let words = [
            "Hold", "Face", "Charge", "Phase", "P1", "Evade", "End", "Game", "Status", "Turn",
            "Men", "1.",
        ];
        for w in words {
            for tail in [
                ": phase 1 hold",
                " fire phase 1 move 6",
                " left 90",
                ": move 6",
                " Guard: p2 face about",
            ] {
                lines.push(format!("{w}{tail}"));
            }
        }
        // And many near misses of them: words dropped, swapped and repeated.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let base: Vec<Vec<String>> = lines
            .iter()
            .map(|l| l.split(' ').map(String::from).collect())
            .collect();
        for _ in 0..20_000 {
            let mut w = base[rng.random_range(0..base.len())].clone();
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..w.len());
                let j = rng.random_range(0..w.len());
                match rng.random_range(0..3) {
                    0 if w.len() > 1 => {
                        w.remove(i);
                    }
                    1 => w.swap(i, j),
                    _ => {
                        let x = w[j].clone();
                        w.insert(i, x);
                    }
                }
            }
            lines.push(w.join(" "));
        }
        for line in &lines {
            let line = strip_comment(line);
            if line.len() > MAX_LINE {
                continue;
            }
            let fast = if starts_with_keyword(line) {
                None
            } else {
                OrdersParser::parse(Rule::unit_line_only, line).ok()
            };
            let Some(fast) = fast else { continue };
            let full = OrdersParser::parse(Rule::line, line)
                .expect("the full grammar reads what the fast path read");
            let shape = |pairs: pest::iterators::Pairs<Rule>| -> Vec<(Rule, String)> {
                pairs
                    .flatten()
                    .filter(|p| !matches!(p.as_rule(), Rule::line | Rule::unit_line_only))
                    .map(|p| (p.as_rule(), p.as_str().to_string()))
                    .collect()
            };
            assert_eq!(shape(fast), shape(full), "{line}");
        }
    }

    #[test]
    fn plain_names() {
        assert!(is_plain_name("Black Dragons"));
        assert!(!is_plain_name("Forward Guard"));
        assert!(!is_plain_name("Men with Axes"));
    }
}
