//! Diagnostics: what the umpire says about an order it could not take.
//!
//! Two kinds of trouble are kept apart, as Diplomacy judges do:
//! [`Invalid`] — the text was **not understood** (syntax); [`Illegal`] — it
//! was understood but **the rules forbid it**. [`Remark`]s are notes on
//! orders that were accepted. Every [`Diagnostic`] carries the byte span it
//! is about and renders rustc-style:
//!
//! ```text
//! error: there is no unit called 'Blak Dragons'
//!  --> orders:3:1
//!   |
//! 3 | Blak Dragons: phase 1 move 6
//!   | ^^^^^^^^^^^^
//!   = help: did you mean 'Black Dragons'?
//! ```

use std::fmt::Write as _;

/// A byte range in the text the orders were read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// Text that was not understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Invalid {
    /// `Black Dragons: phase 1 moev 6` — no order reads like this.
    NotUnderstood,
    /// `Black Dragons: move 6` — the phase is not named (§2).
    MissingPhase,
    /// `cast Sword of Ice at Knights` — not a spell of §10.
    UnknownSpell,
    /// `phase 1 move 6` before any unit was named.
    NoUnit,
    /// A mail command or header line inside an order sheet (case file).
    NotInSheet,
    /// `GAME g SIDE s` without `PASSWORD`.
    IncompleteHeader,
    /// `DEADLINE 2026-02-30 12:00`: no such date.
    BadDate,
    /// A moderator command without a `MODERATOR` header.
    NotModerator,
    /// `DICE melee:dragons=6`: not a dice key, or a value the die cannot show.
    BadDie,
}

/// Orders understood but forbidden by the rules or the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Illegal {
    /// `Blak Dragons: …` — no unit by that name or number.
    UnknownUnit,
    /// `Black: …` when both Black Dragons and Black Guard exist.
    AmbiguousUnit,
    /// An order for another side's unit.
    NotYourUnit,
    /// The unit is eliminated, routed, captured or off the table.
    NotAvailable,
    /// Two functions written for one phase.
    PhaseTaken,
    /// The same function twice in a turn (§2).
    SameFunctionTwice,
    /// The type may not do this (evade, breakthrough, face, join…).
    NotForThisType,
    /// Infantry may never charge cavalry; cavalry may never charge mammoths (§4).
    ChargeForbidden,
    /// Charging a friend, or a unit no longer on the table.
    BadTarget,
    /// Fall-back status: no movement (§8).
    FallBackStatus,
    /// No formation change, move or charge once in melee (§3, §4).
    InMelee,
    /// Forced march: road column only, never within 24" of the enemy (§3).
    ForcedMarch,
    /// Farther than the allowance of §3, or an angle beyond the book's.
    BeyondAllowance,
    /// No unit may fire and charge in the same turn (§6).
    FireAndCharge,
    /// Not enough spell points, or a spell the wizard cannot cast (§10).
    Spell,
    /// A point off the table.
    OffTable,
    /// Deployment orders outside the set-up turn.
    NotSetUp,
}

/// Notes on orders that were accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Remark {
    /// Medium cavalry wrote breakthrough: accepted, but it never breaks through.
    MediumBreakthrough,
    /// The umpire's reading of something the player may not have meant.
    Reading,
}

/// Which kind of diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Invalid(Invalid),
    Illegal(Illegal),
    Note(Remark),
}

/// One message about one place in the orders.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub kind: Kind,
    pub span: Span,
    /// The headline, in the book's terms.
    pub message: String,
    /// Why, with the rule's section.
    pub notes: Vec<String>,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn invalid(kind: Invalid, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            kind: Kind::Invalid(kind),
            span,
            message: message.into(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn illegal(kind: Illegal, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            kind: Kind::Illegal(kind),
            span,
            message: message.into(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn note(kind: Remark, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            kind: Kind::Note(kind),
            span,
            message: message.into(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Errors refuse orders; notes do not.
    pub fn is_error(&self) -> bool {
        !matches!(self.kind, Kind::Note(_))
    }

    /// 1-based line and column (in characters) of the span's start.
    pub fn line_col(&self, source: &str) -> (usize, usize) {
        let start = clamp_to_char(source, self.span.start);
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line = source[..start].matches('\n').count() + 1;
        let col = source[line_start..start].chars().count() + 1;
        (line, col)
    }

    /// The rustc-style text: headline, `--> orders:L:C`, the quoted line,
    /// carets under the span, notes and help.
    pub fn render(&self, source: &str) -> String {
        let mut out = String::new();
        let label = match self.kind {
            Kind::Invalid(_) => "error",
            Kind::Illegal(_) => "error",
            Kind::Note(_) => "note",
        };
        let _ = writeln!(out, "{label}: {}", self.message);
        let (line, col) = self.line_col(source);
        let start = clamp_to_char(source, self.span.start);
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let text = source[line_start..line_end].trim_end_matches('\r');
        let gutter = " ".repeat(line.to_string().len());
        let _ = writeln!(out, "{gutter}--> orders:{line}:{col}");
        let _ = writeln!(out, "{gutter} |");
        let end = clamp_to_char(source, self.span.end.max(start)).min(line_start + text.len());
        let width = source[start..end.max(start)].chars().count().max(1);
        // Long lines are shown as a window around the column.
        let chars: Vec<char> = text
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let from = (col - 1).saturating_sub(WINDOW / 2);
        let to = chars.len().min(from + WINDOW);
        let mut shown: String = chars[from.min(to)..to].iter().collect();
        let mut caret_at = col - 1 - from;
        if from > 0 {
            shown.insert(0, '…');
            caret_at += 1;
        }
        if to < chars.len() {
            shown.push('…');
        }
        let _ = writeln!(out, "{line} | {shown}");
        let _ = writeln!(
            out,
            "{gutter} | {}{}",
            " ".repeat(caret_at),
            "^".repeat(width.min(WINDOW))
        );
        for n in &self.notes {
            let _ = writeln!(out, "{gutter} = note: {n}");
        }
        if let Some(h) = &self.help {
            let _ = writeln!(out, "{gutter} = help: {h}");
        }
        out
    }
}

/// The widest part of a line quoted under an error, in characters.
const WINDOW: usize = 100;

/// The nearest char boundary at or before `i`, within the text.
fn clamp_to_char(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_rustc_style() {
        let src = "GAME g\nBlak Dragons: phase 1 move 6\n";
        let d = Diagnostic::illegal(
            Illegal::UnknownUnit,
            Span::new(7, 19),
            "there is no unit called 'Blak Dragons'",
        )
        .with_help("did you mean 'Black Dragons'?");
        assert_eq!(
            d.render(src),
            "error: there is no unit called 'Blak Dragons'\n \
             --> orders:2:1\n  |\n2 | Blak Dragons: phase 1 move 6\n  | ^^^^^^^^^^^^\n  \
             = help: did you mean 'Black Dragons'?\n"
        );
    }

    #[test]
    fn long_lines_are_quoted_as_a_window() {
        let src = format!("{}moev{}", "x ".repeat(200), " y".repeat(200));
        let d = Diagnostic::invalid(Invalid::NotUnderstood, Span::new(400, 404), "x");
        let text = d.render(&src);
        assert!(text.lines().all(|l| l.chars().count() < 120), "{text}");
        let quoted = text.lines().nth(3).unwrap();
        let carets = text.lines().nth(4).unwrap();
        let at = carets.find('^').unwrap();
        assert_eq!(quoted.chars().skip(at).take(4).collect::<String>(), "moev");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let src = "“Black” move 6";
        let at = src.find("move").unwrap();
        let d = Diagnostic::invalid(Invalid::MissingPhase, Span::new(at, at + 4), "x");
        assert_eq!(d.line_col(src), (1, 9));
        assert!(d.render(src).contains("\n  |         ^^^^\n"));
    }
}
