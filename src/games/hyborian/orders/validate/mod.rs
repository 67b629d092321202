//! Checking a parsed sheet against the rules and the table: the unchecked
//! [`OrderSheet`] becomes checked [`TurnOrders`] (the engine's input), with
//! an [`Illegal`] diagnostic for every order the rules forbid.
//!
//! A unit whose orders contain any error is **refused as a whole** and
//! stands (ruling O-1); the other units' orders are kept.
//!
//! ```
//! let table = umpire::games::hyborian::orders::sample::table();
//! let checked = umpire::games::hyborian::orders::check_side(
//!     "Black Dragons: phase 1 charge Nemedian Knights with breakthrough\n\
//!      Bossonian Archers: phase 1 move 8",
//!     "aquilonia",
//!     &table,
//! );
//! assert!(checked.orders.units.contains_key("dragons"));
//! assert_eq!(checked.rejected, vec!["boss".to_string()]); // medium foot in line: 6 inches
//! ```

mod moves;
mod spells;

use crate::games::hyborian::orders::ast::{self, *};
use crate::games::hyborian::orders::diagnostic::{Diagnostic, Illegal, Remark, Span};
use crate::games::hyborian::orders::names::{Found, Index};
use crate::games::hyborian::orders::plan::{self, TurnOrders, UnitOrders};
use crate::games::hyborian::rules::formations;
use crate::games::hyborian::rules::movement::{self, Pace};
use crate::games::hyborian::rules::{magic, Formation, Phase, Trait, UnitType, Weapon};
use crate::games::hyborian::table::{Status, Table, Unit, UnitId};
use crate::geometry::EPSILON;
use glam::DVec2;
use std::collections::BTreeMap;

/// The result of checking one side's orders.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    /// The orders that stand, for the engine.
    pub orders: TurnOrders,
    /// Own units whose orders were refused: they stand.
    pub rejected: Vec<UnitId>,
    /// Syntax errors, rule errors and notes, in the order of the text.
    pub diagnostics: Vec<Diagnostic>,
    /// Every accepted unit's orders in canonical form, in the order written.
    pub understood: Vec<(UnitId, String)>,
    /// The text the diagnostics' spans point into.
    pub source: String,
}

/// Check a parsed sheet for `side` against `table`.
pub fn validate(sheet: &OrderSheet, side: &str, table: &Table) -> Checked {
    let mut checked = Checked {
        diagnostics: sheet.syntax_errors.clone(),
        source: sheet.source.clone(),
        ..Checked::default()
    };
    let index = Index::new(table);
    let named = set_aside(sheet, side, &index, &mut checked.diagnostics);
    let mut blocks: Vec<&Spanned<UnitBlock>> = sheet.blocks.iter().chain(&named).collect();
    blocks.sort_by_key(|b| b.span.start);
    // Blocks naming the same unit are read together, in the order written.
    let mut groups: Vec<(&Unit, Vec<&Spanned<UnitBlock>>)> = Vec::new();
    for block in blocks {
        let r = &block.node.unit;
        let unit = match index.resolve(&r.node, &|u| u.side == side) {
            Found::Unit(u) => u,
            other => {
                checked.diagnostics.push(not_found(other, r, "unit"));
                continue;
            }
        };
        if unit.side != side {
            checked.diagnostics.push(
                Diagnostic::illegal(
                    Illegal::NotYourUnit,
                    r.span,
                    format!("{} belong to {}, not to {side}", unit.name, unit.side),
                )
                .with_note("an order for another side's unit is refused (design decision 6)")
                .with_help("give orders only to your own units"),
            );
            continue;
        }
        match groups.iter_mut().find(|(u, _)| u.id == unit.id) {
            Some((_, blocks)) => blocks.push(block),
            None => groups.push((unit, vec![block])),
        }
    }
    for (unit, blocks) in groups {
        let mut ctx = Ctx {
            unit,
            table,
            index: &index,
            errors: Vec::new(),
            notes: Vec::new(),
            names: BTreeMap::new(),
        };
        let clauses: Vec<&Spanned<Clause>> = blocks.iter().flat_map(|b| &b.node.clauses).collect();
        let head = blocks[0].node.unit.span;
        if blocks.iter().any(|b| b.node.broken) {
            // The syntax error is already reported; the unit stands (ruling O-1).
            checked.rejected.push(unit.id.clone());
            continue;
        }
        let orders = ctx.unit_orders(head, &clauses);
        checked.diagnostics.append(&mut ctx.notes);
        match orders {
            Some(o) if ctx.errors.is_empty() => {
                checked
                    .understood
                    .push((unit.id.clone(), ctx.canonical(&clauses)));
                checked.orders.units.insert(unit.id.clone(), o);
            }
            _ => {
                checked.diagnostics.append(&mut ctx.errors);
                checked.rejected.push(unit.id.clone());
            }
        }
    }
    checked.diagnostics.sort_by_key(|d| d.span.start);
    checked
}

/// Greetings and signatures at the edges of the orders (ruling O-27): each
/// gets a note and is set aside, unless it names a unit ("Conan" when
/// Conan is on the table) or nearly does ("Blak Dragons"): that is a unit's
/// block, returned to be read (and refused with a "did you mean").
fn set_aside(
    sheet: &OrderSheet,
    side: &str,
    index: &Index<'_>,
    notes: &mut Vec<Diagnostic>,
) -> Vec<Spanned<UnitBlock>> {
    let mut named = Vec::new();
    for aside in &sheet.asides {
        match &aside.unit {
            Some(unit)
                if !matches!(
                    index.resolve(&unit.node, &|u| u.side == side),
                    Found::None(None)
                ) =>
            {
                named.push(Spanned::new(
                    UnitBlock {
                        unit: unit.clone(),
                        clauses: Vec::new(),
                        broken: false,
                    },
                    aside.span,
                ));
            }
            _ => notes.push(
                Diagnostic::note(Remark::Greeting, aside.span, crate::pleasantry::NOTE).with_help(
                    "if it was meant as an order, write the unit's name, a colon and its orders",
                ),
            ),
        }
    }
    named
}

/// The diagnostic for a reference that found no single unit.
fn not_found(found: Found<'_>, r: &Spanned<UnitRef>, what: &str) -> Diagnostic {
    match found {
        Found::Ambiguous(units) => {
            let names: Vec<String> = units.iter().map(|u| format!("'{}'", u.name)).collect();
            Diagnostic::illegal(
                Illegal::AmbiguousUnit,
                r.span,
                format!("'{}' could be any of {}", r.node, names.join(", ")),
            )
            .with_help("write more of the name")
        }
        Found::None(near) => {
            let d = Diagnostic::illegal(
                Illegal::UnknownUnit,
                r.span,
                match &r.node {
                    UnitRef::Number(n) => format!("there is no {what} number {n}"),
                    UnitRef::Name(n) => format!("there is no {what} called '{n}'"),
                },
            );
            match near {
                Some(u) => d.with_help(format!("did you mean '{}'?", u.name)),
                None => d.with_help("names are as in your army list; 'STATUS' mails you the list"),
            }
        }
        Found::Unit(u) => Diagnostic::illegal(
            Illegal::BadTarget,
            r.span,
            format!("{} cannot be meant here", u.name),
        ),
    }
}

/// Which of the three functions of §2 a function is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Move,
    Face,
    Formation,
}

fn kinds(f: &Function) -> Vec<Kind> {
    match f {
        Function::Move(_) | Function::Charge(_) | Function::BreakOff => vec![Kind::Move],
        Function::Face(_) => vec![Kind::Face],
        Function::Form(_) => vec![Kind::Formation],
        Function::FaceAndForm(..) => vec![Kind::Face, Kind::Formation],
        Function::Hold => vec![],
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Move => "move",
        Kind::Face => "change of facing",
        Kind::Formation => "change of formation",
    }
}

struct Ctx<'a> {
    unit: &'a Unit,
    table: &'a Table,
    index: &'a Index<'a>,
    errors: Vec<Diagnostic>,
    notes: Vec<Diagnostic>,
    /// Resolved references, by the span they were written at.
    names: BTreeMap<Span, &'a Unit>,
}

impl<'a> Ctx<'a> {
    fn illegal(&mut self, kind: Illegal, span: Span, message: String) -> &mut Diagnostic {
        self.errors.push(Diagnostic::illegal(kind, span, message));
        let last = self.errors.len() - 1;
        &mut self.errors[last]
    }

    /// §6: no unit may fire and charge in the same turn; `what` is the fire
    /// order to drop ("the volley", "the target"…).
    fn refuse_fire_and_charge(&mut self, span: Span, unit: &str, what: &str) {
        self.refuse(
            Illegal::FireAndCharge,
            span,
            format!("{unit} charge this turn and may not also shoot"),
            "§6: no unit may fire and charge in the same turn",
            Some(format!("drop {what} or the charge")),
        );
    }

    fn refuse(
        &mut self,
        kind: Illegal,
        span: Span,
        message: String,
        note: &str,
        help: Option<String>,
    ) {
        let d = self.illegal(kind, span, message);
        d.notes.push(note.to_string());
        d.help = help;
    }

    /// Resolve a reference; `enemy` says which side to prefer when a name fits several.
    fn find(&mut self, r: &Spanned<UnitRef>, enemy: bool) -> Option<&'a Unit> {
        let side = self.unit.side.clone();
        match self.index.resolve(&r.node, &|u| (u.side != side) == enemy) {
            Found::Unit(u) => {
                self.names.insert(r.span, u);
                if !u.status.is_present() {
                    self.refuse(
                        Illegal::BadTarget,
                        r.span,
                        format!(
                            "{} are no longer on the table ({})",
                            u.name,
                            u.status.code()
                        ),
                        "only units on the table can be aimed at",
                        None,
                    );
                    return None;
                }
                Some(u)
            }
            other => {
                self.errors.push(not_found(other, r, "unit"));
                None
            }
        }
    }

    fn point(&mut self, x: f64, y: f64, span: Span) -> Option<DVec2> {
        if (0.0..=self.table.width).contains(&x) && (0.0..=self.table.depth).contains(&y) {
            Some(DVec2::new(x, y))
        } else {
            self.refuse(
                Illegal::OffTable,
                span,
                format!("({x}, {y}) is off the table"),
                &format!(
                    "the table is {} by {} inches; (0, 0) is the south-west corner",
                    self.table.width, self.table.depth
                ),
                None,
            );
            None
        }
    }

    fn target(&mut self, t: &ast::Target, span: Span, enemy: bool) -> Option<plan::Target> {
        match t {
            ast::Target::Point(x, y) => self.point(*x, *y, span).map(plan::Target::Point),
            ast::Target::Unit(r) => self
                .find(r, enemy)
                .map(|u| plan::Target::Unit(u.id.clone())),
        }
    }

    fn unit_orders(&mut self, head: Span, clauses: &[&Spanned<Clause>]) -> Option<UnitOrders> {
        let u = self.unit;
        match &u.status {
            Status::Rout => {
                self.refuse(
                    Illegal::NotAvailable,
                    head,
                    format!("{} are routing and take no orders", u.name),
                    "§8: a routing unit routs on until it rallies",
                    None,
                );
                return None;
            }
            s if !s.is_present() => {
                self.refuse(
                    Illegal::NotAvailable,
                    head,
                    format!("{} are no longer on the table ({})", u.name, s.code()),
                    "only units on the table take orders",
                    None,
                );
                return None;
            }
            _ => {}
        }
        let mut out = UnitOrders::default();
        let mut phases: [Option<&Spanned<Function>>; 2] = [None, None];
        let mut unit_level = Vec::new();
        let mut all_turn_hold = None;
        for c in clauses {
            match &c.node {
                Clause::Phase { phase, function } => {
                    let Some(p) = phase else {
                        // `hold` for the whole turn (ruling O-2).
                        all_turn_hold = Some(c.span);
                        continue;
                    };
                    let slot = &mut phases[usize::from(p.number() - 1)];
                    if let Some(first) = slot {
                        let msg = format!("{p} already has a function: '{}'", first.node);
                        self.refuse(
                            Illegal::PhaseTaken,
                            c.span,
                            msg,
                            "§2: one function per phase, two at most in a turn",
                            Some(format!(
                                "move this order to the other phase, or drop '{}'",
                                function.node
                            )),
                        );
                    } else {
                        *slot = Some(function);
                    }
                }
                Clause::Unit(o) => unit_level.push((o, c.span)),
            }
        }
        if let (Some(span), true) = (all_turn_hold, phases.iter().any(Option::is_some)) {
            self.refuse(
                Illegal::PhaseTaken,
                span,
                format!(
                    "{} are told to hold all turn and also given phase orders",
                    u.name
                ),
                "'hold' without a phase means the unit stands all turn",
                Some("write 'phase 1 hold' or 'phase 2 hold' for one phase only".into()),
            );
        }
        self.same_function_twice(&phases);
        let charges = phases
            .iter()
            .flatten()
            .any(|f| matches!(f.node, Function::Charge(_)));
        let mut formation = u.formation;
        for (i, f) in phases.iter().enumerate() {
            let Some(f) = f else { continue };
            let phase = if i == 0 { Phase::One } else { Phase::Two };
            let checked = self.function(f, phase, formation, &phases);
            if let Some(plan::Function::Formation(fc) | plan::Function::FaceAndFormation(_, fc)) =
                &checked
            {
                formation = fc.formation;
            }
            match phase {
                Phase::One => out.phase1 = checked,
                Phase::Two => out.phase2 = checked,
            }
        }
        self.horse_archer_total(&phases, formation);
        for (o, span) in unit_level {
            self.unit_order(o, span, charges, &mut out);
        }
        if let (
            Some(plan::Function::Charge(c)),
            Some(plan::Function::Move(_) | plan::Function::BreakOff),
        ) = (&mut out.phase1, &out.phase2)
        {
            c.break_off = true;
        }
        Some(out)
    }

    /// §2: never the same function twice, except horse archers' split move
    /// and medium cavalry's charge-then-break-off.
    fn same_function_twice(&mut self, phases: &[Option<&Spanned<Function>>; 2]) {
        let (Some(a), Some(b)) = (phases[0], phases[1]) else {
            return;
        };
        let u = self.unit;
        for k in kinds(&a.node) {
            if !kinds(&b.node).contains(&k) {
                continue;
            }
            let horse_archers = k == Kind::Move
                && u.has_trait(Trait::HorseArcher)
                && matches!(a.node, Function::Move(_))
                && matches!(b.node, Function::Move(_));
            let break_off = k == Kind::Move
                && u.kind == UnitType::MediumCavalry
                && matches!(a.node, Function::Charge(_))
                && matches!(b.node, Function::Move(_) | Function::BreakOff);
            if horse_archers || break_off {
                continue;
            }
            self.refuse(
                Illegal::SameFunctionTwice,
                b.span,
                format!("a {} in both phases", kind_name(k)),
                "§2: a unit may perform two of the three functions, never the same function twice in a turn \
                 (only horse archers split a move; only medium cavalry charge and break off)",
                Some("combine them into one order in one phase, or choose a different function for phase 2".into()),
            );
        }
    }

    /// Horse archers splitting a move share one allowance between the phases.
    fn horse_archer_total(
        &mut self,
        phases: &[Option<&Spanned<Function>>; 2],
        formation: Formation,
    ) {
        let (Some(a), Some(b)) = (phases[0], phases[1]) else {
            return;
        };
        let (Function::Move(m1), Function::Move(m2)) = (&a.node, &b.node) else {
            return;
        };
        let allowance = self.allowance(m1, formation);
        let msg = match (m1.distance, m2.distance) {
            (ast::Distance::Full, _) => Some("phase 1 already uses the full allowance".to_string()),
            (ast::Distance::Inches(x), ast::Distance::Inches(y)) if x + y > allowance + EPSILON => {
                Some(format!(
                    "{} + {} inches is more than the {} inches of the whole move",
                    fmt_in(x),
                    fmt_in(y),
                    fmt_in(allowance)
                ))
            }
            _ => None,
        };
        if let Some(msg) = msg {
            self.refuse(
                Illegal::BeyondAllowance,
                b.span,
                msg,
                "§3: horse archers split one move between the phases",
                Some(
                    "write the phase 1 distance in inches and 'move full' in phase 2 for the rest"
                        .into(),
                ),
            );
        }
    }

    fn allowance(&self, m: &MoveOrder, formation: Formation) -> f64 {
        let k = self.unit.kind;
        if k.is_single_figure() {
            return movement::single_figure_move(k, self.unit.mounted);
        }
        let pace = if m.forced_march {
            Pace::ForcedMarch {
                on_road: m.along_road,
            }
        } else if m.along_road {
            Pace::OnRoad
        } else {
            Pace::Normal
        };
        // Horse archers may get the road figure in road column off a road
        // (a game option); the validator allows the larger figure and the
        // engine cuts the move back where the option is off.
        let horse_archer = self
            .unit
            .has_trait(crate::games::hyborian::rules::Trait::HorseArcher);
        movement::allowance(k, formation, pace, horse_archer)
    }

    fn function(
        &mut self,
        f: &Spanned<Function>,
        phase: Phase,
        formation: Formation,
        phases: &[Option<&Spanned<Function>>; 2],
    ) -> Option<plan::Function> {
        let u = self.unit;
        let moves = matches!(f.node, Function::Move(_) | Function::Charge(_));
        if moves {
            if let Status::FallBack(n) = u.status {
                self.refuse(
                    Illegal::FallBackStatus,
                    f.span,
                    format!(
                        "{} are in fall-back status ({n} turn(s) left) and may not move",
                        u.name
                    ),
                    "§8: fall-back status for the next turn: no movement",
                    Some("change face or formation instead, or hold".into()),
                );
                return None;
            }
            let breaking_off =
                u.kind == UnitType::MediumCavalry && matches!(f.node, Function::Move(_));
            if !u.in_melee_with.is_empty() && !breaking_off {
                self.refuse(
                    Illegal::InMelee,
                    f.span,
                    format!("{} are locked in melee", u.name),
                    "§3: every unit but medium cavalry is locked in melee once combat starts",
                    None,
                );
                return None;
            }
        }
        match &f.node {
            Function::Move(m) => {
                // Where the unit stands now is where this move starts only
                // when nothing before it in the turn moves or turns it.
                let from_here = phase == Phase::One || phases[0].is_none();
                self.move_fn(m, f.span, formation, from_here)
                    .map(plan::Function::Move)
            }
            Function::Face(x) => {
                self.may_face(f.span)?;
                self.face(x, f.span).map(plan::Function::Face)
            }
            Function::Form(x) => self
                .form(x, self.unit.front, f.span)
                .map(plan::Function::Formation),
            Function::FaceAndForm(a, b) => {
                if !u.kind.is_cavalry() {
                    self.refuse(
                        Illegal::NotForThisType,
                        f.span,
                        format!(
                            "{} ({}) may not change face and formation as one function",
                            u.name,
                            u.kind.book_name()
                        ),
                        "§2: only cavalry may change face and formation together",
                        Some(format!("phase 1 {a}; phase 2 {b}")),
                    );
                    return None;
                }
                let a = self.face(a, f.span);
                let b = self.form(b, self.unit.front, f.span);
                Some(plan::Function::FaceAndFormation(a?, b?))
            }
            Function::Charge(c) => self
                .charge(c, f.span, formation)
                .map(plan::Function::Charge),
            Function::BreakOff => {
                let after_charge = phase == Phase::Two
                    && matches!(phases[0].map(|p| &p.node), Some(Function::Charge(_)));
                let in_melee = phase == Phase::One && !u.in_melee_with.is_empty();
                if u.kind != UnitType::MediumCavalry {
                    self.refuse(
                        Illegal::NotForThisType,
                        f.span,
                        format!("{} ({}) cannot break off", u.name, u.kind.book_name()),
                        "§3: only medium cavalry may break off from melee",
                        None,
                    );
                    None
                } else if !(after_charge || in_melee) {
                    self.refuse(
                        Illegal::NotForThisType,
                        f.span,
                        "nothing to break off from".into(),
                        "§3: break off in phase 2 after a phase-1 charge, or in phase 1 when the melee began in phase 2 of last turn",
                        Some("write 'phase 1 charge …; phase 2 break off'".into()),
                    );
                    None
                } else {
                    Some(plan::Function::BreakOff)
                }
            }
            Function::Hold => Some(plan::Function::Hold),
        }
    }

    fn unit_order(&mut self, o: &UnitOrder, span: Span, charges: bool, out: &mut UnitOrders) {
        let u = self.unit;
        let leader = matches!(
            u.kind,
            UnitType::Commander | UnitType::Hero | UnitType::Superhero
        );
        match o {
            UnitOrder::Evade => {
                if u.kind == UnitType::LightInfantry {
                    out.evade_if_charged = true;
                } else {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} ({}) cannot evade", u.name, u.kind.book_name()),
                        "§2, §6: evade is an order for light infantry only",
                        None,
                    );
                }
            }
            UnitOrder::HoldFire | UnitOrder::Target(_) | UnitOrder::Fire | UnitOrder::FireIn(_) => {
                let archers = u.weapons.iter().any(|w| *w != Weapon::Pike);
                if !archers {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} have no missile weapons", u.name),
                        "§6: only units with bows, crossbows or thrown weapons shoot",
                        None,
                    );
                    return;
                }
                if let (UnitOrder::Fire, true) = (o, charges) {
                    self.refuse_fire_and_charge(span, &u.name, "'fire'");
                    return;
                }
                if *o == UnitOrder::Fire {
                    // At will is the default: nothing to record.
                    return;
                }
                let holds = |o: &UnitOrder, fire: &plan::FireOrder| {
                    matches!(o, UnitOrder::HoldFire) && out.volley_phase.is_some()
                        || matches!(o, UnitOrder::FireIn(_)) && *fire == plan::FireOrder::Hold
                };
                if holds(o, &out.fire) {
                    self.refuse(
                        Illegal::BadTarget,
                        span,
                        "'hold fire' and a phase to fire in".into(),
                        "write either 'hold fire' or 'fire in phase N'",
                        None,
                    );
                    return;
                }
                if let UnitOrder::FireIn(p) = o {
                    if charges {
                        self.refuse_fire_and_charge(span, &u.name, "the volley");
                        return;
                    }
                    if out.volley_phase.is_some_and(|q| q != *p) {
                        self.refuse(
                            Illegal::BadTarget,
                            span,
                            "two phases to fire in".into(),
                            "§6: one volley a turn, at the end of phase 1 or of phase 2",
                            Some("keep one 'fire in phase N'".into()),
                        );
                        return;
                    }
                    out.volley_phase = Some(*p);
                    return;
                }
                if out.fire != plan::FireOrder::AtWill {
                    self.refuse(
                        Illegal::BadTarget,
                        span,
                        "a second fire order".into(),
                        "write either 'hold fire' or one target",
                        None,
                    );
                    return;
                }
                if let UnitOrder::Target(r) = o {
                    if charges {
                        self.refuse_fire_and_charge(span, &u.name, "the target");
                        return;
                    }
                    let Some(t) = self.find(r, true) else { return };
                    if t.side == u.side {
                        self.refuse(
                            Illegal::BadTarget,
                            r.span,
                            format!("{} are your own unit", t.name),
                            "§6: archers shoot at the enemy",
                            None,
                        );
                        return;
                    }
                    out.fire = plan::FireOrder::Prefer(t.id.clone());
                } else {
                    out.fire = plan::FireOrder::Hold;
                }
            }
            UnitOrder::Join(r) | UnitOrder::RideWith(r) => {
                if !leader {
                    let why = if u.kind == UnitType::Wizard {
                        "§10: a wizard cannot join units"
                    } else {
                        "§9: only commanders and heroes join units"
                    };
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} cannot join a unit", u.name),
                        why,
                        None,
                    );
                    return;
                }
                let Some(t) = self.find(r, false) else { return };
                if t.side != u.side || t.kind.is_single_figure() {
                    self.refuse(
                        Illegal::BadTarget,
                        r.span,
                        format!("{} cannot join {}", u.name, t.name),
                        "§9: a leader joins one of his own side's units",
                        None,
                    );
                    return;
                }
                out.leader = Some(plan::LeaderOrder::Join(t.id.clone()));
            }
            UnitOrder::IfRouted { stay } => {
                if leader {
                    out.stay_with_rout = Some(*stay);
                } else {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} is not a leader", u.name),
                        "§9: heroes and commanders stay with or leave a routing unit; a unit routs as one",
                        None,
                    );
                }
            }
            UnitOrder::Leave => {
                if !leader {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} is not a leader", u.name),
                        "§9: only commanders and heroes join and leave units",
                        None,
                    );
                } else if u.attached_to.is_none() {
                    self.refuse(
                        Illegal::BadTarget,
                        span,
                        format!("{} is not with any unit", u.name),
                        "only a leader with a unit can leave it",
                        None,
                    );
                } else {
                    out.leader = Some(plan::LeaderOrder::Leave);
                }
            }
            UnitOrder::MoveTo(x, y) => {
                if !u.kind.is_single_figure() {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} is a unit, not a single figure", u.name),
                        "'move to (x, y)' is for leaders and wizards; units move with phase orders",
                        Some("phase 1 move toward (x, y)".into()),
                    );
                } else if let Some(p) = self.point(*x, *y, span) {
                    out.leader = Some(plan::LeaderOrder::MoveTo(p));
                }
            }
            UnitOrder::Cast { spell, aim } => self.cast(*spell, aim, span, out),
            UnitOrder::Expand(_) | UnitOrder::Contract(_) | UnitOrder::LapAround => {
                self.melee_order(o, span, out)
            }
            UnitOrder::Deploy {
                at,
                facing,
                formation,
            } => {
                if self.table.turn != 0 {
                    self.refuse(
                        Illegal::NotSetUp,
                        span,
                        format!("it is turn {}, not the set-up turn", self.table.turn),
                        "deployment orders are written only where a scenario asks for them, before turn 1 (ruling O-6)",
                        None,
                    );
                    return;
                }
                let Some(p) = self.point(at.0, at.1, span) else {
                    return;
                };
                let formation = match formation {
                    Some(f) => match self.form(f, p, span) {
                        Some(x) => Some(x),
                        None => return,
                    },
                    None => None,
                };
                out.deploy = Some(plan::Deployment {
                    at: p,
                    facing: facing.map(|b| b.rem_euclid(360.0)),
                    formation,
                });
            }
        }
    }

    /// `expand N`, `contract N`, `lap around` (§4): only for a unit in melee,
    /// at most its class's rate a turn, never expanding and contracting at
    /// once; lapping needs overlapping figures, which chariots and mammoths
    /// never have (Appendix III).
    fn melee_order(&mut self, o: &UnitOrder, span: Span, out: &mut UnitOrders) {
        let u = self.unit;
        if u.in_melee_with.is_empty() || u.kind.is_single_figure() {
            self.refuse(
                Illegal::MeleeAdjustment,
                span,
                format!("{} are not in melee", u.name),
                "§4: expansion, contraction and lapping change the figures of an existing melee",
                None,
            );
            return;
        }
        let rate = crate::games::hyborian::rules::melee::expansion_rate(u.class);
        let mut m = out.melee.clone().unwrap_or_default();
        let within = |n: u32| (1..=rate).contains(&n);
        match o {
            UnitOrder::Expand(n) => {
                let n = n.unwrap_or(rate);
                if !within(n) || m.contract > 0 {
                    let why = if m.contract > 0 {
                        "write either 'expand' or 'contract' for a turn".to_string()
                    } else {
                        format!(
                            "§4: a {}-class unit expands at most {rate} figures a turn",
                            u.class
                        )
                    };
                    self.refuse(
                        Illegal::MeleeAdjustment,
                        span,
                        format!("{} may not expand {n}", u.name),
                        &why,
                        None,
                    );
                    return;
                }
                m.expand = n;
            }
            UnitOrder::Contract(n) => {
                let n = *n;
                if !within(n) || m.expand > 0 {
                    let why = if m.expand > 0 {
                        "write either 'expand' or 'contract' for a turn".to_string()
                    } else {
                        format!(
                            "§4: a {}-class unit contracts at most {rate} figures a turn",
                            u.class
                        )
                    };
                    self.refuse(
                        Illegal::MeleeAdjustment,
                        span,
                        format!("{} may not contract {n}", u.name),
                        &why,
                        None,
                    );
                    return;
                }
                m.contract = n;
            }
            _ => {
                if u.kind.is_chariot() || u.kind == UnitType::WoollyMammoth {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} cannot lap around", u.name),
                        "Appendix III: chariots and mammoths have no overlap in melee",
                        None,
                    );
                    return;
                }
                m.lap = true;
            }
        }
        out.melee = Some(m);
    }

    /// The unit's orders in canonical form, with every unit named as in the
    /// army list: phase 1, phase 2, then the orders for the whole turn.
    fn canonical(&self, clauses: &[&Spanned<Clause>]) -> String {
        let mut sorted: Vec<Clause> = clauses.iter().map(|c| c.node.clone()).collect();
        sorted.sort_by_key(|c| match c {
            Clause::Phase { phase: Some(p), .. } => p.number(),
            _ => 3,
        });
        for c in &mut sorted {
            for r in refs_mut(c) {
                if let Some(u) = self.names.get(&r.span) {
                    r.node = UnitRef::Name(u.name.clone());
                }
            }
        }
        let block = UnitBlock {
            unit: Spanned::new(UnitRef::Name(self.unit.name.clone()), Span::default()),
            clauses: sorted
                .into_iter()
                .map(|c| Spanned::new(c, Span::default()))
                .collect(),
            broken: false,
        };
        block.to_string()
    }
}

/// Every unit reference inside a clause.
fn refs_mut(c: &mut Clause) -> Vec<&mut Spanned<UnitRef>> {
    fn target(t: &mut ast::Target) -> Option<&mut Spanned<UnitRef>> {
        match t {
            ast::Target::Unit(r) => Some(r),
            ast::Target::Point(..) => None,
        }
    }
    fn face(f: &mut FaceOrder) -> Option<&mut Spanned<UnitRef>> {
        match f {
            FaceOrder::Toward(t) => target(t),
            _ => None,
        }
    }
    let mut out = Vec::new();
    match c {
        Clause::Phase { function, .. } => match &mut function.node {
            Function::Move(m) => {
                if let Some((_, WheelAngle::ToFace(t))) = &mut m.wheel {
                    out.extend(target(t));
                }
                if let MoveDirection::Toward(t) = &mut m.direction {
                    out.extend(target(t));
                }
            }
            Function::Face(f) | Function::FaceAndForm(f, _) => out.extend(face(f)),
            Function::Charge(ChargeOrder {
                aim: ChargeAim::Unit(r),
                ..
            }) => out.push(r),
            _ => {}
        },
        Clause::Unit(o) => match o {
            UnitOrder::Target(r) | UnitOrder::Join(r) | UnitOrder::RideWith(r) => out.push(r),
            UnitOrder::Cast {
                aim: SpellAim::At(t),
                ..
            } => out.extend(target(t)),
            _ => {}
        },
    }
    out
}

/// Inches as a player writes them: `6`, `7.5`.
fn fmt_in(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn pace_words(m: &MoveOrder, formation: Formation, k: UnitType) -> String {
    if k.is_single_figure() {
        return String::new();
    }
    if m.forced_march {
        return if m.along_road {
            " on a forced march along a road".into()
        } else {
            " on a forced march".into()
        };
    }
    match m.direction {
        MoveDirection::Back => " straight back".into(),
        _ => format!(" in {}", formation.code().replace('-', " ")),
    }
}
