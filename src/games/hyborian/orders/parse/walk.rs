//! The grammar walk: Pest's pairs for one line turned into the orders' AST.

use super::{span, Rule};
use crate::games::hyborian::orders::ast::*;
use crate::games::hyborian::orders::diagnostic::{Diagnostic, Invalid};
use crate::games::hyborian::orders::plan::Hand;
use crate::games::hyborian::rules::{magic, Formation, Phase};
use pest::iterators::Pair;

pub(super) fn int_in(p: &Pair<Rule>) -> Option<u32> {
    p.clone()
        .into_inner()
        .find(|x| x.as_rule() == Rule::int)
        .and_then(|x| x.as_str().parse().ok())
}

pub(super) fn clauses(
    p: Pair<Rule>,
    off: usize,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Spanned<Clause>> {
    let mut out = Vec::new();
    let mut previous: Option<Pair<Rule>> = None;
    for c in p.into_inner() {
        let sp = span(&c, off);
        let before = previous.replace(c.clone());
        // Words straight after an order, with no ';' or ',' between, that
        // read only as an order of their own without its phase: they were
        // meant as more of that order (`phase 1 move 4 towards the ford`).
        if c.as_rule() == Rule::bare_function {
            if let Some(prev) = before.filter(|b| follows_directly(b, &c)) {
                errors.push(trailing_words(&prev, &c, off));
                continue;
            }
        }
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

/// Whether only white space stands between two clauses of a line.
fn follows_directly(prev: &Pair<Rule>, next: &Pair<Rule>) -> bool {
    let input = next.get_input();
    let (end, start) = (prev.as_span().end(), next.as_span().start());
    end <= start && input.get(end..start).is_some_and(|t| t.trim().is_empty())
}

/// The error for words after an order that do not continue it: pointed at
/// those words, with what the order language reads after that order.
fn trailing_words(prev: &Pair<Rule>, words: &Pair<Rule>, off: usize) -> Diagnostic {
    let order = prev.as_str().trim();
    let text = words.as_str().trim();
    let mut d = Diagnostic::invalid(
        Invalid::NotUnderstood,
        span(words, off),
        format!("could not read '{text}' after the order '{order}'"),
    );
    if let Some(expected) = super::suggest::continuations(order) {
        d = d.with_note(format!(
            "after '{order}' the order language reads {expected}; a ';' begins the next order"
        ));
    }
    let toward = words
        .clone()
        .into_inner()
        .flatten()
        .any(|x| x.as_rule() == Rule::toward);
    if toward {
        d.with_help(format!(
            "a move towards a place names it before the distance: 'move towards (x, y) 6' or 'move towards UNIT 6'; or write '{order}' alone"
        ))
    } else {
        d.with_help(format!(
            "if '{text}' is an order of its own, begin it with ';' and its phase: '{order}; phase 2 {text}'"
        ))
    }
}

pub(super) fn number(p: &Pair<Rule>) -> f64 {
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

pub(super) fn point(p: &Pair<Rule>) -> (f64, f64) {
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

pub(super) fn compass(p: &Pair<Rule>) -> f64 {
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
pub(super) fn bearing_in(p: &Pair<Rule>) -> Option<f64> {
    p.clone().into_inner().find_map(|x| match x.as_rule() {
        Rule::compass => Some(compass(&x)),
        Rule::degrees => Some(number(&x)),
        _ => None,
    })
}

pub(super) fn unit_ref(p: Pair<Rule>, off: usize) -> Spanned<UnitRef> {
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

pub(super) fn target(p: Pair<Rule>, off: usize) -> Target {
    match p.clone().into_inner().next() {
        Some(x) if x.as_rule() == Rule::point => {
            let (a, b) = point(&x);
            Target::Point(a, b)
        }
        Some(x) => Target::Unit(unit_ref(x, off)),
        None => Target::Point(0.0, 0.0),
    }
}

pub(super) fn hand(p: &Pair<Rule>) -> Hand {
    if p.as_str().to_lowercase().starts_with('l') {
        Hand::Left
    } else {
        Hand::Right
    }
}

pub(super) fn hand_in(p: &Pair<Rule>) -> Hand {
    p.clone()
        .into_inner()
        .find(|x| x.as_rule() == Rule::hand)
        .map_or(Hand::Right, |x| hand(&x))
}

pub(super) fn distance(p: &Pair<Rule>) -> Option<Distance> {
    match p.as_rule() {
        Rule::full => Some(Distance::Full),
        Rule::inches => Some(Distance::Inches(number(p))),
        _ => None,
    }
}

pub(super) fn function_of(p: Pair<Rule>, off: usize) -> Option<Spanned<Function>> {
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
pub(super) fn move_order(p: Pair<Rule>, off: usize) -> MoveOrder {
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

pub(super) fn face_order(p: Pair<Rule>, off: usize) -> FaceOrder {
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

pub(super) fn form_order(p: Pair<Rule>) -> Option<FormOrder> {
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

pub(super) fn formation_of(f: Pair<Rule>) -> Option<FormOrder> {
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

pub(super) fn unit_order(p: Pair<Rule>, off: usize) -> Option<Result<UnitOrder, Diagnostic>> {
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
