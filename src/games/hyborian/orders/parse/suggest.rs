//! What the reader says about a line it did not understand: which words
//! it expected, and the keyword a misspelt word was probably meant to be.

use super::Rule;
use crate::games::hyborian::orders::diagnostic::{Diagnostic, Invalid, Span};
use pest::error::InputLocation;

/// Every word an order may start with (the first words of `clauses` in the
/// grammar; "turn" and "hold" begin orders too).
/// A line starting with a digit is also left to the full grammar.
pub(super) const LINE_START_WORDS: [&str; 45] = [
    "turn", "hold", "holds", "phase", "ph", "p1", "p2", "first", "second", "1st", "2nd", "evade",
    "evades", "do", "don't", "don’t", "no", "cease", "target", "shoot", "fire", "join", "joins",
    "ride", "rides", "leave", "leaves", "move", "advance", "march", "go", "cast", "casts",
    "deploy", "deploys", "face", "faces", "change", "about", "right", "left", "form", "forms",
    "reform", "re-form",
];
pub(super) const LINE_START_WORDS_2: [&str; 22] = [
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
pub(super) const LINE_START_WORDS_3: [&str; 11] = [
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

pub(super) fn starts_with_keyword(line: &str) -> bool {
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
pub(super) const VOCABULARY: [&str; 45] = [
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
pub(super) const NOT_TYPOS: [&str; 10] =
    ["of", "the", "a", "an", "to", "in", "on", "at", "and", "or"];

/// How like a keyword a word must be to be taken for its typo.
pub(super) const KEYWORD_LIKENESS: f64 = 0.85;

/// The keyword a word is a near miss of, if any.
pub(super) fn near_keyword(word: &str) -> Option<&'static str> {
    if VOCABULARY.contains(&word) || NOT_TYPOS.contains(&word) {
        return None;
    }
    crate::names::closest_at(word, VOCABULARY.iter().map(|w| (*w, *w)), KEYWORD_LIKENESS)
}

pub(super) fn not_understood(line: &str, off: usize, e: &pest::error::Error<Rule>) -> Diagnostic {
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

/// What the order language reads after `order` (one clause, as written)
/// within that order: the words that may continue it, or its end, as a
/// list for a note ("'back', 'oblique left|right' or the end of the
/// order"). `None` when the clause does not read alone.
pub(super) fn continuations(order: &str) -> Option<String> {
    use pest::Parser as _;
    // A character no rule reads, after the order: the parser fails there
    // and lists what it tried at that point.
    let probe = format!("{order} \u{1}");
    let e = match super::OrdersParser::parse(Rule::clause_only, &probe) {
        Ok(_) => return None,
        Err(e) => e,
    };
    let at = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if at < order.len() {
        return None;
    }
    let pest::error::ErrorVariant::ParsingError { positives, .. } = &e.variant else {
        return None;
    };
    let mut wanted: Vec<&str> = positives.iter().filter_map(|r| continuation(*r)).collect();
    wanted.sort_unstable();
    wanted.dedup();
    // The end of the order last.
    let end = "the end of the order";
    let has_end = wanted.contains(&end);
    wanted.retain(|w| *w != end);
    if has_end {
        wanted.push(end);
    }
    match wanted.as_slice() {
        [] => None,
        [one] => Some((*one).to_string()),
        [rest @ .., last] => Some(format!("{} or {last}", rest.join(", "))),
    }
}

/// The words a rule tried after a whole clause stand for.
fn continuation(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::road | Rule::k_along | Rule::k_on | Rule::k_by | Rule::k_down => "'along the road'",
        Rule::back | Rule::k_back | Rule::k_fall | Rule::k_backward | Rule::k_retire => "'back'",
        Rule::oblique | Rule::k_oblique => "'oblique left|right DEGREES'",
        Rule::k_forward => "'forward'",
        Rule::k_then => "'then'",
        Rule::k_and => "'and'",
        Rule::breakthrough | Rule::k_with => "'with breakthrough'",
        Rule::charge_break_off => "'then break off'",
        Rule::ranks | Rule::k_in => "'in N ranks'",
        Rule::files => "'N wide'",
        Rule::k_fast | Rule::k_position | Rule::k_still => "'fast'",
        Rule::hand | Rule::k_left | Rule::k_right => "'left' or 'right'",
        Rule::degrees | Rule::number => "a number",
        Rule::distance | Rule::inches | Rule::full => "a distance ('6', '6\"', 'full')",
        Rule::EOI => "the end of the order",
        _ => return None,
    })
}

impl Diagnostic {
    pub(super) fn with_help_if_none(self, help: &str) -> Self {
        if self.help.is_some() {
            self
        } else {
            self.with_help(help)
        }
    }
}

/// Human names of the grammar's rules, for "expected …" notes. Keywords and
/// punctuation are named by the rules that use them.
pub(super) fn describe(rule: Rule) -> Option<&'static str> {
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
