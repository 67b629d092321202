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
use crate::games::hyborian::orders::grammar::{OrdersParser, Rule};
use pest::iterators::Pair;
use pest::Parser as _;

mod suggest;
mod walk;

use suggest::{not_understood, starts_with_keyword};
use walk::{clauses, unit_ref};

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

#[cfg(test)]
mod tests;
