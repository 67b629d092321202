//! Diagnostics: what the umpire says about a line of a mail it could not
//! take, for every rule set and for the post office's own commands. Each
//! carries the byte span it is about and renders rustc-style:
//!
//! ```text
//! error: there is no unit called 'Blak Dragons'
//!  --> orders:3:1
//!   |
//! 3 | Blak Dragons: phase 1 move 6
//!   | ^^^^^^^^^^^^
//!   = help: did you mean 'Black Dragons'?
//! ```
//!
//! The kind is the rule set's own closed enum (the Hyborean Age's
//! `Invalid`/`Illegal`/`Remark`); it says only whether the diagnostic
//! refuses the line ([`Severity::is_error`]).

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

/// A diagnostic already rendered against its text, for showing beside a
/// rule set's own (the envelope's errors in an order confirmation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub span: Span,
    /// An error (the line is refused) rather than a note.
    pub error: bool,
    /// The rustc-style text of [`Diagnostic::render`].
    pub text: String,
}

/// What a diagnostic's kind must tell: does it refuse the line, or only note.
pub trait Severity {
    fn is_error(&self) -> bool;
}

/// One message about one place in a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic<K> {
    pub kind: K,
    pub span: Span,
    /// The headline, in the book's terms.
    pub message: String,
    /// Why, with the rule's section.
    pub notes: Vec<String>,
    /// How to fix it.
    pub help: Option<String>,
}

impl<K: Severity> Diagnostic<K> {
    /// A diagnostic of `kind` about `span`.
    pub fn new(kind: K, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            kind,
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
        self.kind.is_error()
    }

    /// The diagnostic rendered against `source`.
    pub fn rendered(&self, source: &str) -> Rendered {
        Rendered {
            span: self.span,
            error: self.is_error(),
            text: self.render(source),
        }
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
        let label = if self.is_error() { "error" } else { "note" };
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

    #[derive(Debug, Clone, Copy, PartialEq)]
    struct Error;
    impl Severity for Error {
        fn is_error(&self) -> bool {
            true
        }
    }

    #[test]
    fn renders_rustc_style() {
        let src = "GAME g\nBlak Dragons: phase 1 move 6\n";
        let d = Diagnostic::new(
            Error,
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
        let d = Diagnostic::new(Error, Span::new(400, 404), "x");
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
        let d = Diagnostic::new(Error, Span::new(at, at + 4), "x");
        assert_eq!(d.line_col(src), (1, 9));
        assert!(d.render(src).contains("\n  |         ^^^^\n"));
    }
}
