//! Diagnostics: what the umpire says about an order it could not take.
//!
//! Two kinds of trouble are kept apart, as Diplomacy judges do:
//! [`Invalid`] — the text was **not understood** (syntax); [`Illegal`] — it
//! was understood but **the rules forbid it**. [`Remark`]s are notes on
//! orders that were accepted. A [`Diagnostic`] is the shared
//! `crate::diagnostic::Diagnostic` of these kinds; it renders rustc-style:
//!
//! ```text
//! error: there is no unit called 'Blak Dragons'
//!  --> orders:3:1
//!   |
//! 3 | Blak Dragons: phase 1 move 6
//!   | ^^^^^^^^^^^^
//!   = help: did you mean 'Black Dragons'?
//! ```

pub use crate::diagnostic::{Severity, Span};

/// A diagnostic about a Hyborean order sheet.
pub type Diagnostic = crate::diagnostic::Diagnostic<Kind>;

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
    /// `expand`, `contract`, `lap around` for a unit not in melee, beyond
    /// its class's rate, or together when they cannot be (§4).
    MeleeAdjustment,
}

/// Notes on orders that were accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Remark {
    /// Medium cavalry wrote breakthrough: accepted, but it never breaks through.
    MediumBreakthrough,
    /// The umpire's reading of something the player may not have meant.
    Reading,
    /// A greeting or signature around the orders, set aside (ruling O-27).
    Greeting,
    /// A wheel longer than half the move: accepted, and cut to the wheel
    /// the move allows (ruling E-8).
    WheelCut,
}

/// Which kind of diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Invalid(Invalid),
    Illegal(Illegal),
    Note(Remark),
}

impl crate::diagnostic::Diagnostic<Kind> {
    pub fn invalid(kind: Invalid, span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(Kind::Invalid(kind), span, message)
    }

    pub fn illegal(kind: Illegal, span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(Kind::Illegal(kind), span, message)
    }

    pub fn note(kind: Remark, span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(Kind::Note(kind), span, message)
    }
}

impl Severity for Kind {
    fn is_error(&self) -> bool {
        !matches!(self, Kind::Note(_))
    }
}
