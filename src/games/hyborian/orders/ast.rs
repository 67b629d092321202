//! The parsed, unchecked order sheet: what the player wrote, with spans.
//!
//! [`OrderSheet`] holds one [`UnitBlock`] per unit named; each block holds
//! [`Clause`]s — a function for a phase ([`Function`]) or an order for the
//! whole turn ([`UnitOrder`]). Unit references are still as written
//! ([`UnitRef`]); validation resolves them against the table.
//!
//! `Display` prints the **canonical form** of every node, which re-parses to
//! the same tree (spans aside):
//!
//! ```
//! let (sheet, errors) = umpire::games::hyborian::orders::parse_sheet("Black Dragons: first phase charge Knights with breakthrough");
//! assert!(errors.is_empty());
//! assert_eq!(sheet.to_string(), "Black Dragons: phase 1 charge Knights with breakthrough\n");
//! ```

use crate::games::hyborian::orders::diagnostic::{Diagnostic, Span};
use crate::games::hyborian::orders::plan::Hand;
use crate::games::hyborian::rules::magic::Spell;
use crate::games::hyborian::rules::{Formation, Phase};
use std::fmt;

/// A node with the byte range of the text it was read from.
///
/// Equality ignores the span: two sheets are equal when they say the same
/// thing, wherever it was written (the canonical round trip relies on this).
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

impl<T: fmt::Display> fmt::Display for Spanned<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.fmt(f)
    }
}

/// A parsed order sheet: the unit blocks of one side's orders.
///
/// Carries the text it was read from (spans point into it) and the syntax
/// errors found, so a later validation can still quote them.
#[derive(Debug, Clone, Default)]
pub struct OrderSheet {
    pub blocks: Vec<Spanned<UnitBlock>>,
    /// The text the spans point into.
    pub source: String,
    /// Lines that were not understood (`Invalid` diagnostics).
    pub syntax_errors: Vec<Diagnostic>,
    /// Lines before the first and after the last order shaped like a
    /// greeting or a signature (`crate::pleasantry`): validation sets them
    /// aside with a note unless they name a unit.
    pub asides: Vec<Aside>,
}

/// A line at the edge of the orders shaped like a greeting or signature.
#[derive(Debug, Clone)]
pub struct Aside {
    /// The line, without its trailing blanks.
    pub span: Span,
    /// The line read as a unit's name alone, when it reads so ("Conan").
    pub unit: Option<Spanned<UnitRef>>,
}

impl PartialEq for OrderSheet {
    fn eq(&self, other: &Self) -> bool {
        self.blocks == other.blocks
    }
}

impl fmt::Display for OrderSheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in &self.blocks {
            writeln!(f, "{b}")?;
        }
        Ok(())
    }
}

/// All that was written for one unit.
///
/// `"Black Dragons: phase 1 charge Nemedian Knights; phase 2 hold"`
#[derive(Debug, Clone, PartialEq)]
pub struct UnitBlock {
    pub unit: Spanned<UnitRef>,
    pub clauses: Vec<Spanned<Clause>>,
    /// Some line of this block was not understood: the unit's orders are
    /// refused as a whole (see docs/rulings/orders.md).
    pub broken: bool,
}

impl fmt::Display for UnitBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.unit)?;
        for (i, c) in self.clauses.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { "; " })?;
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// How a unit is named in an order.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitRef {
    /// `Black Dragons`, `black drag`, `"Black Dragons"` (quotes kept out).
    Name(String),
    /// `#3`, `unit 3`: the unit's number in its army list.
    Number(u32),
}

impl fmt::Display for UnitRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitRef::Name(n) if crate::games::hyborian::orders::grammar::is_plain_name(n) => {
                f.write_str(n)
            }
            UnitRef::Name(n) => write!(f, "\"{n}\""),
            UnitRef::Number(n) => write!(f, "#{n}"),
        }
    }
}

/// One clause of a unit's orders.
#[derive(Debug, Clone, PartialEq)]
pub enum Clause {
    /// `phase 1 move 6`. `phase` is `None` when the player forgot to name it
    /// (the parser has already reported that).
    Phase {
        phase: Option<Phase>,
        function: Spanned<Function>,
    },
    /// An order for the whole turn: `evade if charged`, `hold fire`, `join …`.
    Unit(UnitOrder),
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Clause::Phase {
                phase: Some(p),
                function,
            } => write!(f, "{p} {function}"),
            Clause::Phase {
                phase: None,
                function,
            } => write!(f, "{function}"),
            Clause::Unit(u) => write!(f, "{u}"),
        }
    }
}

/// A number written in the order (inches or degrees).
pub type Number = f64;

fn num(n: Number) -> String {
    // Whole numbers print without a fraction; others keep what was written
    // (at most four decimals, as the grammar allows).
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        let s = format!("{n:.4}");
        s.trim_end_matches('0').to_string()
    }
}

/// How far a move goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Distance {
    /// `full`: the whole allowance.
    Full,
    /// `6`, `6"`, `6 in`, `6 inches`.
    Inches(Number),
}

impl fmt::Display for Distance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Distance::Full => f.write_str("full"),
            Distance::Inches(n) => f.write_str(&num(*n)),
        }
    }
}

/// A place or a unit to aim at.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// `(36, 12)`: inches from the south-west corner.
    Point(Number, Number),
    Unit(Spanned<UnitRef>),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Point(x, y) => write!(f, "({}, {})", num(*x), num(*y)),
            Target::Unit(u) => write!(f, "{u}"),
        }
    }
}

fn hand(h: Hand) -> &'static str {
    match h {
        Hand::Left => "left",
        Hand::Right => "right",
    }
}

/// Which way a move goes.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveDirection {
    /// `move 6`, `forward 6`.
    Forward,
    /// `move back 2`, `fall back 2`.
    Back,
    /// `oblique left 30 6` (degrees default to 45).
    Oblique { hand: Hand, degrees: Number },
    /// `toward (40, 30)`, `toward Black Dragons`.
    Toward(Target),
}

/// How a wheel ends.
#[derive(Debug, Clone, PartialEq)]
pub enum WheelAngle {
    /// `wheel left 30`.
    Degrees(Number),
    /// `wheel right to face Black Dragons`.
    ToFace(Target),
}

/// A move (§2, §3). Every kind of move is this one function.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveOrder {
    /// `wheel left 30 then …`: a wheel at the start of the move.
    pub wheel: Option<(Hand, WheelAngle)>,
    pub direction: MoveDirection,
    /// `Inches(0)` with a wheel means the wheel alone.
    pub distance: Distance,
    /// `forced march`.
    pub forced_march: bool,
    /// `along the road`.
    pub along_road: bool,
}

impl fmt::Display for MoveOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.forced_march {
            write!(f, "forced march {}", self.distance)?;
        } else {
            let wheel_only = self.wheel.is_some() && self.distance == Distance::Inches(0.0);
            if let Some((h, angle)) = &self.wheel {
                write!(f, "wheel {} ", hand(*h))?;
                match angle {
                    WheelAngle::Degrees(d) => write!(f, "{}", num(*d))?,
                    WheelAngle::ToFace(t) => write!(f, "to face {t}")?,
                }
                if !wheel_only {
                    f.write_str(" then ")?;
                }
            }
            if !wheel_only {
                match &self.direction {
                    MoveDirection::Forward => write!(f, "move {}", self.distance)?,
                    MoveDirection::Back => write!(f, "move back {}", self.distance)?,
                    MoveDirection::Oblique { hand: h, degrees } => write!(
                        f,
                        "move oblique {} {} {}",
                        hand(*h),
                        num(*degrees),
                        self.distance
                    )?,
                    MoveDirection::Toward(t) => write!(f, "move toward {t} {}", self.distance)?,
                }
            }
        }
        if self.along_road {
            f.write_str(" along the road")?;
        }
        Ok(())
    }
}

/// A change of facing (§2): about the centre of the front rank.
#[derive(Debug, Clone, PartialEq)]
pub enum FaceOrder {
    /// `face left 90` (degrees default to 90).
    Turn { hand: Hand, degrees: Number },
    /// `face about`.
    About,
    /// `face 270`, `face west`: a compass bearing.
    Bearing(Number),
    /// `face Black Dragons`, `face (30, 40)`.
    Toward(Target),
}

impl fmt::Display for FaceOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaceOrder::Turn { hand: h, degrees } => {
                write!(f, "face {} {}", hand(*h), num(*degrees))
            }
            FaceOrder::About => f.write_str("face about"),
            FaceOrder::Bearing(b) => write!(f, "face bearing {}", num(*b)),
            FaceOrder::Toward(t) => write!(f, "face toward {t}"),
        }
    }
}

/// A change of formation (§1, §2).
#[derive(Debug, Clone, PartialEq)]
pub struct FormOrder {
    pub formation: Formation,
    /// `form line 3 ranks`, `form ring 2 ranks`.
    pub ranks: Option<u32>,
    /// `form column 4 wide`.
    pub files: Option<u32>,
}

impl fmt::Display for FormOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.formation {
            Formation::Line => "line",
            Formation::PositionalLine => "positional line",
            Formation::Column => "column",
            Formation::RoadColumn => "road column",
            Formation::Ring => "ring",
        };
        write!(f, "form {name}")?;
        if let Some(r) = self.ranks {
            write!(f, " {r} ranks")?;
        }
        if let Some(w) = self.files {
            write!(f, " {w} wide")?;
        }
        Ok(())
    }
}

/// What a charge is aimed at.
#[derive(Debug, Clone, PartialEq)]
pub enum ChargeAim {
    Unit(Spanned<UnitRef>),
    /// `charge 90`, `charge east`.
    Bearing(Number),
    /// `charge forward`.
    Forward,
}

/// A charge (§2, §3): a move that ends in contact.
#[derive(Debug, Clone, PartialEq)]
pub struct ChargeOrder {
    /// `sweep right 30 then charge …`: the wheel the charge begins with, as
    /// written; `None` lets the umpire choose it (§3 "a sweep").
    pub sweep: Option<(Hand, Number)>,
    pub aim: ChargeAim,
    /// `with breakthrough`.
    pub breakthrough: bool,
    /// `then break off`: medium cavalry's split move.
    pub break_off: bool,
}

impl fmt::Display for ChargeOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((h, d)) = self.sweep {
            write!(f, "sweep {} {} then ", hand(h), num(d))?;
        }
        match &self.aim {
            ChargeAim::Unit(u) => write!(f, "charge {u}")?,
            ChargeAim::Bearing(b) => write!(f, "charge bearing {}", num(*b))?,
            ChargeAim::Forward => f.write_str("charge forward")?,
        }
        if self.breakthrough {
            f.write_str(" with breakthrough")?;
        }
        if self.break_off {
            f.write_str(" then break off")?;
        }
        Ok(())
    }
}

/// A function for one phase (§2).
#[derive(Debug, Clone, PartialEq)]
pub enum Function {
    /// `move 6`, `wheel left 30 then move full`, `forced march`.
    Move(MoveOrder),
    /// `face right 90`, `face about`.
    Face(FaceOrder),
    /// `form column 4 wide`.
    Form(FormOrder),
    /// Cavalry: `face about and form column 3 wide`.
    FaceAndForm(FaceOrder, FormOrder),
    /// `charge Nemedian Knights with breakthrough`.
    Charge(ChargeOrder),
    /// Phase 2 of medium cavalry's split move: `break off`.
    BreakOff,
    /// `hold`, `stand`.
    Hold,
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Function::Move(m) => write!(f, "{m}"),
            Function::Face(x) => write!(f, "{x}"),
            Function::Form(x) => write!(f, "{x}"),
            Function::FaceAndForm(a, b) => write!(f, "{a} and {b}"),
            Function::Charge(c) => write!(f, "{c}"),
            Function::BreakOff => f.write_str("break off"),
            Function::Hold => f.write_str("hold"),
        }
    }
}

/// Where a spell is aimed (§10).
#[derive(Debug, Clone, PartialEq)]
pub enum SpellAim {
    /// No target written (Shield of Air falls on the wizard).
    Caster,
    At(Target),
    /// `along (10, 20) to (34, 20)`.
    Along((Number, Number), (Number, Number)),
}

/// Orders for the whole turn rather than for a phase.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitOrder {
    /// `evade if charged` (light infantry, §6).
    Evade,
    /// `hold fire`.
    HoldFire,
    /// `fire`, `shoot`: archery at will (the default, written for clarity:
    /// `move 12 then shoot`).
    Fire,
    /// `target Black Dragons`, `shoot at Black Dragons`.
    Target(Spanned<UnitRef>),
    /// `fire in phase 2`, `save the volley for phase 2`, `phase 2 fire`:
    /// the turn's volley only at the end of that phase (§6).
    FireIn(Phase),
    /// Leaders: `join Black Dragons`.
    Join(Spanned<UnitRef>),
    /// Commanders: `ride with Black Dragons`.
    RideWith(Spanned<UnitRef>),
    /// Leaders: `leave`.
    Leave,
    /// Leaders' standing order should their unit rout (§9): `stay if
    /// routed` (true) or `leave if routed` (false).
    IfRouted { stay: bool },
    /// Leaders: `move to (30, 12)`.
    MoveTo(Number, Number),
    /// Wizards: `cast Sword of Fire at Black Dragons`.
    Cast { spell: Spell, aim: SpellAim },
    /// A unit in melee (§4): `expand 4` figures this turn, or `expand`
    /// (its class's whole rate).
    Expand(Option<u32>),
    /// A unit in melee (§4): `contract 2` figures this turn.
    Contract(u32),
    /// A unit in melee (§4): `lap around` the enemy's ends.
    LapAround,
    /// Set-up turn: `deploy at (30, 6) facing 0 in line 3 ranks`.
    Deploy {
        at: (Number, Number),
        facing: Option<Number>,
        formation: Option<FormOrder>,
    },
}

impl fmt::Display for UnitOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitOrder::Evade => f.write_str("evade if charged"),
            UnitOrder::HoldFire => f.write_str("hold fire"),
            UnitOrder::Fire => f.write_str("fire"),
            UnitOrder::Target(u) => write!(f, "target {u}"),
            UnitOrder::FireIn(p) => write!(f, "fire in phase {}", p.number()),
            UnitOrder::Join(u) => write!(f, "join {u}"),
            UnitOrder::RideWith(u) => write!(f, "ride with {u}"),
            UnitOrder::Leave => f.write_str("leave"),
            UnitOrder::IfRouted { stay: true } => f.write_str("stay if routed"),
            UnitOrder::IfRouted { stay: false } => f.write_str("leave if routed"),
            UnitOrder::MoveTo(x, y) => write!(f, "move to ({}, {})", num(*x), num(*y)),
            UnitOrder::Expand(Some(n)) => write!(f, "expand {n}"),
            UnitOrder::Expand(None) => f.write_str("expand"),
            UnitOrder::Contract(n) => write!(f, "contract {n}"),
            UnitOrder::LapAround => f.write_str("lap around"),
            UnitOrder::Cast { spell, aim } => {
                write!(
                    f,
                    "cast {}",
                    crate::games::hyborian::rules::magic::spell_name(*spell)
                )?;
                match aim {
                    SpellAim::Caster => Ok(()),
                    SpellAim::At(t) => write!(f, " at {t}"),
                    SpellAim::Along(a, b) => write!(
                        f,
                        " along ({}, {}) to ({}, {})",
                        num(a.0),
                        num(a.1),
                        num(b.0),
                        num(b.1)
                    ),
                }
            }
            UnitOrder::Deploy {
                at,
                facing,
                formation,
            } => {
                write!(f, "deploy at ({}, {})", num(at.0), num(at.1))?;
                if let Some(b) = facing {
                    write!(f, " facing {}", num(*b))?;
                }
                if let Some(form) = formation {
                    // "in line 3 ranks": the formation without its verb.
                    let s = form.to_string();
                    write!(f, " in {}", s.trim_start_matches("form "))?;
                }
                Ok(())
            }
        }
    }
}
