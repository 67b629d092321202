//! Written orders (§2): reading what players mail in, checking it against
//! the rules and the table, and saying back how it was understood.
//!
//! The pipeline, each step its own module:
//! - [`parse`] reads text line by line with the Pest grammar
//!   (`grammar/orders.pest`) into an [`ast::OrderSheet`] — unchecked, with
//!   spans — and [`diagnostic::Invalid`] errors for what it could not read;
//! - the mail's header and commands are the envelope's (`crate::envelope`),
//!   shared by every rule set; [`read_sheet`] reads what it leaves;
//! - [`names`] finds the units orders name;
//! - [`validate`] turns the sheet into checked [`plan::TurnOrders`] (the
//!   engine's input) with [`diagnostic::Illegal`] errors for what the rules
//!   forbid;
//! - [`confirm`] writes the player's confirmation.
//!
//! ```
//! let table = umpire::games::hyborian::orders::sample::table();
//! let checked = umpire::games::hyborian::orders::check_side(
//!     "Black Dragons: phase 1 charge Nemedian Knights with breakthrough\n\
//!      Skirmishers: phase 1 move 4; evade if charged",
//!     "aquilonia",
//!     &table,
//! );
//! assert!(checked.rejected.is_empty());
//! assert_eq!(checked.understood[1].1, "Skirmishers: phase 1 move 4; evade if charged");
//! ```
//!
//! Architecture Invariant: nothing here does I/O or knows about mail
//! transport, the store or the clock; the engine never sees order text.

pub mod ast;
pub mod confirm;
pub mod diagnostic;
mod grammar;
pub mod names;
pub mod parse;
pub mod plan;
pub mod sample;
pub mod validate;

pub use ast::{OrderSheet, Spanned};
pub use confirm::confirmation;
pub use diagnostic::{Diagnostic, Span};
pub use validate::{validate, Checked};

use crate::games::hyborian::table::Table;

/// The player's guide (docs/orders.md), the answer to a `HELP` mail.
pub const GUIDE: &str = include_str!("../../../../docs/orders.md");

/// Read a mail's sheet of orders (its envelope already blanked by
/// [`crate::envelope::read`]). Never fails: what is not understood is in
/// `syntax_errors`.
pub fn read_sheet(sheet: &str) -> OrderSheet {
    parse::scan(sheet)
}

/// Read an order sheet: unit blocks only, as in a rules case file
/// (`Regular Spearmen: phase 1 move full`). Mail headers and commands are
/// reported as out of place. Never fails: what is not understood is in the
/// returned diagnostics (also kept in `sheet.syntax_errors`).
pub fn parse_sheet(text: &str) -> (OrderSheet, Vec<Diagnostic>) {
    let envelope = crate::envelope::read(text);
    let mut sheet = parse::scan(&envelope.sheet);
    sheet.source = text.to_string();
    let mut misplaced: Vec<Span> = envelope
        .header
        .iter()
        .map(|h| h.span)
        .chain(envelope.commands.iter().map(|c| c.span))
        .collect();
    for d in &envelope.diagnostics {
        if !misplaced.contains(&d.span) {
            misplaced.push(d.span);
        }
    }
    for span in misplaced {
        sheet.syntax_errors.push(
            Diagnostic::invalid(
                diagnostic::Invalid::NotInSheet,
                span,
                "a mail header or command does not belong in an order sheet",
            )
            .with_help("keep only the units' orders here"),
        );
    }
    sheet.syntax_errors.sort_by_key(|d| d.span.start);
    let errors = sheet.syntax_errors.clone();
    (sheet, errors)
}

/// Read and check one side's order sheet: [`parse_sheet`] then [`validate`].
pub fn check_side(text: &str, side: &str, table: &Table) -> Checked {
    let (sheet, _) = parse_sheet(text);
    validate(&sheet, side, table)
}
