//! Moves, faces, formations and charges as written (§1, §3, §4), checked
//! against the rules and the table: what each allows, where it may not go,
//! and the canonical order the engine gets.

use super::*;
use crate::games::hyborian::orders::plan::Hand;

impl<'a> Ctx<'a> {
    pub(super) fn may_face(&mut self, span: Span) -> Option<()> {
        let u = self.unit;
        if u.kind.wheels_only() {
            self.refuse(
                Illegal::NotForThisType,
                span,
                format!(
                    "{} ({}) never change face as a function: they wheel",
                    u.name,
                    u.kind.book_name()
                ),
                "§5: mammoths and chariots never change face as a function",
                Some("write 'wheel left 90' (a wheel is part of a move)".into()),
            );
            return None;
        }
        Some(())
    }

    pub(super) fn move_fn(
        &mut self,
        m: &MoveOrder,
        span: Span,
        formation: Formation,
        from_here: bool,
    ) -> Option<plan::Move> {
        let u = self.unit;
        let k = u.kind;
        if m.forced_march {
            if formation != Formation::RoadColumn {
                self.refuse(
                    Illegal::ForcedMarch,
                    span,
                    format!("{} are in {}, not road column", u.name, formation.code()),
                    "§3: a forced march is made in road column",
                    Some("phase 1 form road column; phase 2 forced march".into()),
                );
                return None;
            }
            if let Some((enemy, d)) = self.nearest_enemy() {
                if d < movement::FORCED_MARCH_CLEARANCE {
                    self.refuse(
                        Illegal::ForcedMarch,
                        span,
                        format!("{} are {} inches from {}", u.name, fmt_in(d), enemy.name),
                        "§3: a forced march never comes within 24 inches of the enemy",
                        Some("move at the normal column rate instead".into()),
                    );
                    return None;
                }
            }
        }
        if m.along_road && formation != Formation::RoadColumn && !k.is_single_figure() {
            self.notes.push(
                Diagnostic::note(
                    Remark::Reading,
                    span,
                    format!("{} are not in road column: the road adds nothing", u.name),
                )
                .with_note("§3: a unit not in road column gains nothing from a road"),
            );
        }
        let mut allowance = self.allowance(m, formation);
        let whole_move = allowance;
        let direction = match &m.direction {
            MoveDirection::Forward => plan::Direction::Forward,
            MoveDirection::Back => {
                if !movement::may_step_back(k) {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} ({}) cannot move straight back", u.name, k.book_name()),
                        "§3: only foot may step back without changing face (ruling O-3)",
                        Some("face about in one phase and move in the other".into()),
                    );
                    return None;
                }
                allowance = allowance.min(movement::FOOT_STEP_BACK);
                plan::Direction::Back
            }
            MoveDirection::Oblique { hand, degrees } => {
                if *degrees > movement::OBLIQUE_MAX_DEGREES || *degrees <= 0.0 {
                    self.refuse(
                        Illegal::BeyondAllowance,
                        span,
                        format!("an oblique of {} degrees", fmt_in(*degrees)),
                        "§3: a unit may move obliquely up to 45 degrees without changing face",
                        Some("wheel for a wider turn: 'wheel left 60 then move 4'".into()),
                    );
                    return None;
                }
                plan::Direction::Oblique {
                    hand: *hand,
                    degrees: *degrees,
                }
            }
            MoveDirection::Toward(t) => plan::Direction::Toward(self.target(t, span, true)?),
        };
        let wheel = match &m.wheel {
            None => None,
            Some((hand, angle)) => {
                let at = Reach {
                    allowance: whole_move,
                    formation,
                    from_here,
                };
                Some(self.wheel(*hand, angle, at, span)?)
            }
        };
        let distance = match m.distance {
            ast::Distance::Full => plan::Distance::Full,
            ast::Distance::Inches(d) => {
                if d > allowance + EPSILON {
                    self.refuse(
                        Illegal::BeyondAllowance,
                        span,
                        format!(
                            "{} may move at most {} inches{}, not {}",
                            u.name,
                            fmt_in(allowance),
                            pace_words(m, formation, k),
                            fmt_in(d)
                        ),
                        "§3: a unit may move up to, never beyond, its allowance",
                        Some(format!("write 'move {}' or 'move full'", fmt_in(allowance))),
                    );
                    return None;
                }
                plan::Distance::Inches(d)
            }
        };
        Some(plan::Move {
            wheel,
            direction,
            distance,
            forced_march: m.forced_march,
            along_road: m.along_road,
        })
    }

    /// A written wheel (§3): at most 180 degrees, and noted when the move
    /// will surely cut it (ruling E-8).
    fn wheel(
        &mut self,
        hand: Hand,
        angle: &WheelAngle,
        at: Reach,
        span: Span,
    ) -> Option<plan::Wheel> {
        let angle = match angle {
            WheelAngle::Degrees(d) => {
                if *d <= 0.0 || *d > movement::MAX_WHEEL_DEGREES {
                    self.refuse(
                        Illegal::BeyondAllowance,
                        span,
                        format!("a wheel of {} degrees", fmt_in(*d)),
                        "a wheel turns the unit by 180 degrees at most",
                        Some("face about instead".into()),
                    );
                    return None;
                }
                let cut = Cut {
                    wheel: *d,
                    hand,
                    allowance: at.allowance,
                    asked: fmt_in(*d),
                    what: "wheel",
                };
                self.wheel_beyond_half(cut, at.formation, span);
                plan::WheelAngle::Degrees(*d)
            }
            WheelAngle::ToFace(t) => {
                let target = self.target(t, span, true)?;
                if at.from_here {
                    self.wheel_to_face_beyond_half(&target, at.allowance, at.formation, span);
                }
                plan::WheelAngle::ToFace(target)
            }
        };
        Some(plan::Wheel { hand, angle })
    }

    /// A written sweep (ruling O-25), signed (right positive): more than 0
    /// and at most 180 degrees, and noted when the charge will surely cut it.
    fn sweep(&mut self, hand: Hand, d: f64, formation: Formation, span: Span) -> Option<f64> {
        if !(d > 0.0 && d <= movement::MAX_WHEEL_DEGREES) {
            self.refuse(
                Illegal::BeyondAllowance,
                span,
                format!("a sweep of {d}°"),
                "§3: a sweep wheels at most 180° (more is a face about) and uses at most half the charge",
                Some("write the sweep in degrees, e.g. 'sweep right 30 then charge …'".into()),
            );
            return None;
        }
        let cut = Cut {
            wheel: d,
            hand,
            allowance: movement::allowance(self.unit.kind, formation, Pace::Charge, false),
            asked: fmt_in(d),
            what: "sweep",
        };
        self.wheel_beyond_half(cut, formation, span);
        Some(if hand == Hand::Right { d } else { -d })
    }

    /// A wheel longer than half the move (a sweep: half the charge) is
    /// accepted and cut by the engine (ruling E-8, O-25): the confirmation
    /// says so, with the wheel that will be made. Only where the unit's
    /// frontage is known when the orders are checked (it wheels in the
    /// formation it stands in); the allowance is the largest the move may
    /// have, so the note is given only when the wheel is surely cut.
    fn wheel_beyond_half(&mut self, cut: Cut, formation: Formation, span: Span) {
        let u = self.unit;
        if u.kind.is_single_figure() || formation != u.formation {
            return;
        }
        let frontage = 2.0 * u.footprint().half_width;
        let limit = movement::wheel_limit(frontage, cut.allowance);
        if cut.wheel - limit <= movement::WHEEL_TOLERANCE {
            return;
        }
        let made = limit.floor();
        let hand = hand_word(cut.hand);
        let (book, rewrite) = if cut.what == "sweep" {
            (
                "§3: a sweep may use at most half the charge; a longer sweep is cut to that limit (rulings E-8, O-25)",
                format!("write 'sweep {hand} {}' to make the sweep you will get", fmt_in(made)),
            )
        } else {
            (
                "§3: a wheel may use at most half the move; a longer wheel is cut to that limit (ruling E-8)",
                format!(
                    "write 'wheel {hand} {}' to make the wheel you will get, or change face and move",
                    fmt_in(made)
                ),
            )
        };
        self.notes.push(
            Diagnostic::note(
                Remark::WheelCut,
                span,
                format!(
                    "{} will {} {hand} {}, not {}: a {} of {} inches' frontage may use at most {} of their {} inches",
                    u.name,
                    cut.what,
                    fmt_in(made),
                    cut.asked,
                    cut.what,
                    fmt_in(frontage),
                    fmt_in(cut.allowance * movement::WHEEL_SHARE),
                    fmt_in(cut.allowance),
                ),
            )
            .with_note(book)
            .with_help(rewrite),
        );
    }

    /// `wheel … to face X` from where the unit stands now: the wheel it
    /// takes as the table stands (the engine's own [`Pose::wheel_toward`]),
    /// noted when longer than half the move. The target may still move
    /// before the wheel is made; the note says so.
    fn wheel_to_face_beyond_half(
        &mut self,
        target: &plan::Target,
        allowance: f64,
        formation: Formation,
        span: Span,
    ) {
        let (aim, name) = match target {
            plan::Target::Point(p) => (*p, format!("({}, {})", fmt_in(p.x), fmt_in(p.y))),
            plan::Target::Unit(id) => match self.table.units.get(id) {
                Some(t) => (t.footprint().centre, t.name.clone()),
                None => return,
            },
        };
        let u = self.unit;
        let turn = u.pose().wheel_toward(u.kind, aim);
        let cut = Cut {
            wheel: turn.abs(),
            hand: if turn >= 0.0 { Hand::Right } else { Hand::Left },
            allowance,
            asked: format!(
                "the {} it takes to face {name} as the table stands now",
                fmt_in(turn.abs())
            ),
            what: "wheel",
        };
        self.wheel_beyond_half(cut, formation, span);
    }

    pub(super) fn nearest_enemy(&self) -> Option<(&'a Unit, f64)> {
        let me = self.unit;
        self.table
            .units
            .values()
            .filter(|e| e.side != me.side && e.status.is_present())
            .map(|e| (e, e.front.distance(me.front)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    pub(super) fn face(&mut self, x: &FaceOrder, span: Span) -> Option<plan::FaceChange> {
        Some(match x {
            FaceOrder::Turn { hand, degrees } => {
                if *degrees <= 0.0 || *degrees > 360.0 {
                    self.refuse(
                        Illegal::BeyondAllowance,
                        span,
                        format!("a turn of {} degrees", fmt_in(*degrees)),
                        "a change of face turns between 1 and 360 degrees",
                        None,
                    );
                    return None;
                }
                plan::FaceChange::Turn {
                    hand: *hand,
                    degrees: *degrees,
                }
            }
            FaceOrder::About => plan::FaceChange::About,
            FaceOrder::Bearing(b) => plan::FaceChange::Bearing(b.rem_euclid(360.0)),
            FaceOrder::Toward(t) => plan::FaceChange::ToFace(self.target(t, span, true)?),
        })
    }

    /// A change of formation made with the unit's front centre at `at`
    /// (where it stands, or where a deployment puts it).
    pub(super) fn form(
        &mut self,
        x: &FormOrder,
        at: DVec2,
        span: Span,
    ) -> Option<plan::FormationChange> {
        let u = self.unit;
        if u.kind.is_single_figure() {
            self.refuse(
                Illegal::NotForThisType,
                span,
                format!("{} is a single figure and has no formation", u.name),
                "§1: formations are for units",
                None,
            );
            return None;
        }
        if !u.in_melee_with.is_empty() {
            self.refuse(
                Illegal::InMelee,
                span,
                format!("{} are in melee and may not change formation", u.name),
                "§4: no formation change once in melee",
                None,
            );
            return None;
        }
        let limit = match x.formation {
            Formation::Line | Formation::PositionalLine => {
                Some(("ranks", x.ranks, formations::LINE_MAX_RANKS))
            }
            Formation::Ring => Some(("ranks", x.ranks, formations::RING_MAX_RANKS)),
            Formation::RoadColumn => {
                Some(("figures wide", x.files, formations::ROAD_COLUMN_MAX_FILES))
            }
            Formation::Column => None,
        };
        if let Some((what, Some(n), max)) = limit {
            if n == 0 || n > max {
                self.refuse(
                    Illegal::BeyondAllowance,
                    span,
                    format!("a {} {n} {what}", x.formation.code()),
                    &format!(
                        "§1: line at most {} ranks deep, ring at most {} ranks, road column at most {} figures wide",
                        formations::LINE_MAX_RANKS,
                        formations::RING_MAX_RANKS,
                        formations::ROAD_COLUMN_MAX_FILES
                    ),
                    Some(format!("at most {max} {what}")),
                );
                return None;
            }
        }
        if let Some(r) = x.ranks.filter(|_| x.formation == Formation::Column) {
            if r < formations::COLUMN_MIN_RANKS {
                self.refuse(
                    Illegal::BeyondAllowance,
                    span,
                    format!("a column {r} ranks deep"),
                    &format!(
                        "§1: a column is {} or more ranks deep",
                        formations::COLUMN_MIN_RANKS
                    ),
                    Some("form line instead".into()),
                );
                return None;
            }
        }
        if x.formation == Formation::PositionalLine && self.table.rough_area_at(at).is_none() {
            self.refuse(
                Illegal::NotForThisType,
                span,
                format!("{} are in open ground", u.name),
                "§1: a positional line only keeps a unit inside one terrain area (woods, hillside), never in open ground",
                Some("form line instead".into()),
            );
            return None;
        }
        Some(plan::FormationChange {
            formation: x.formation,
            ranks: x.ranks,
            files: x.files,
        })
    }

    pub(super) fn charge(
        &mut self,
        c: &ChargeOrder,
        span: Span,
        formation: Formation,
    ) -> Option<plan::Charge> {
        let u = self.unit;
        if matches!(u.kind, UnitType::Wizard | UnitType::Commander) {
            let why = if u.kind == UnitType::Wizard {
                "§10: a wizard may never charge or attack"
            } else {
                "§9: a commander cannot melee"
            };
            self.refuse(
                Illegal::NotForThisType,
                span,
                format!("{} may not charge", u.name),
                why,
                None,
            );
            return None;
        }
        let target = match &c.aim {
            ChargeAim::Forward => plan::ChargeTarget::Forward,
            ChargeAim::Bearing(b) => plan::ChargeTarget::Bearing(b.rem_euclid(360.0)),
            ChargeAim::Unit(r) => {
                let t = self.find(r, true)?;
                if t.side == u.side {
                    self.refuse(
                        Illegal::BadTarget,
                        r.span,
                        format!("{} are your own unit", t.name),
                        "§2: a charge is made at an enemy unit",
                        None,
                    );
                    return None;
                }
                if !movement::may_charge(u.kind, t.kind) {
                    self.refuse(
                        Illegal::ChargeForbidden,
                        span,
                        format!(
                            "{} ({}) may not charge {} ({})",
                            u.name,
                            u.kind.book_name(),
                            t.name,
                            t.kind.book_name()
                        ),
                        "§4: infantry cannot charge cavalry",
                        Some("hold and let them come, or move to block them".into()),
                    );
                    return None;
                }
                if u.kind.is_cavalry() && t.kind == UnitType::WoollyMammoth {
                    self.refuse(
                        Illegal::ChargeForbidden,
                        span,
                        format!("{} may not charge {} (woolly mammoths)", u.name, t.name),
                        "§4: cavalry may attack but never charge mammoths",
                        Some(format!(
                            "move into contact instead: 'move toward {}'",
                            t.name
                        )),
                    );
                    return None;
                }
                plan::ChargeTarget::Unit(t.id.clone())
            }
        };
        if c.breakthrough {
            match u.kind {
                UnitType::HeavyCavalry => {}
                UnitType::MediumCavalry => self.notes.push(
                    Diagnostic::note(
                        Remark::MediumBreakthrough,
                        span,
                        format!("{} will charge, but medium cavalry never break through", u.name),
                    )
                    .with_note("§2: medium cavalry may write breakthrough but can never break through (ruling O-4)"),
                ),
                k => {
                    self.refuse(
                        Illegal::NotForThisType,
                        span,
                        format!("{} ({}) cannot break through", u.name, k.book_name()),
                        "§4: only heavy cavalry break through; mammoths and chariots never do",
                        Some("drop 'with breakthrough'".into()),
                    );
                    return None;
                }
            }
        }
        if c.break_off && u.kind != UnitType::MediumCavalry {
            self.refuse(
                Illegal::NotForThisType,
                span,
                format!("{} ({}) cannot break off", u.name, u.kind.book_name()),
                "§3: only medium cavalry may break off after one round of melee",
                Some("drop 'then break off'".into()),
            );
            return None;
        }
        let sweep = match c.sweep {
            None => None,
            Some((hand, d)) => Some(self.sweep(hand, d, formation, span)?),
        };
        Some(plan::Charge {
            target,
            sweep,
            breakthrough: c.breakthrough,
            break_off: c.break_off,
        })
    }
}

/// What a move's wheel is weighed against: the largest allowance of the
/// move, the formation it is made in, and whether it starts from where the
/// unit stands now.
#[derive(Clone, Copy)]
struct Reach {
    allowance: f64,
    formation: Formation,
    from_here: bool,
}

/// A written wheel or sweep, as [`Ctx::wheel_beyond_half`] weighs it.
struct Cut {
    /// Degrees asked for.
    wheel: f64,
    hand: Hand,
    /// The inches the move (or the charge) allows, at most.
    allowance: f64,
    /// What was asked, in words: "90", "the 64 it takes to face …".
    asked: String,
    /// "wheel" or "sweep".
    what: &'static str,
}

fn hand_word(h: Hand) -> &'static str {
    match h {
        Hand::Left => "left",
        Hand::Right => "right",
    }
}

#[cfg(test)]
mod tests {
    use crate::games::hyborian::orders::diagnostic::{Kind, Remark};
    use crate::games::hyborian::orders::{check_side, sample};
    use crate::games::hyborian::rules::movement::{self, Pace};
    use crate::games::hyborian::rules::{Formation, UnitType};

    /// Issue 45, item 14: knights told to wheel 90° may wheel only half
    /// their move's worth; the order stands, and the confirmation says
    /// which wheel will be made (ruling E-8) instead of leaving it to the
    /// turn's report.
    /// The sample's table and the whole degrees the Black Dragons (heavy
    /// cavalry in line) may wheel at `pace`.
    fn black_dragons_wheel(pace: Pace) -> (crate::games::hyborian::table::Table, f64) {
        let table = sample::table();
        let knights = table
            .units
            .values()
            .find(|u| u.name == "Black Dragons")
            .expect("the sample's knights");
        let frontage = 2.0 * knights.footprint().half_width;
        let allowance = movement::allowance(UnitType::HeavyCavalry, Formation::Line, pace, false);
        let made = movement::wheel_limit(frontage, allowance).floor();
        (table, made)
    }

    #[test]
    fn a_wheel_longer_than_half_the_move_is_accepted_with_the_wheel_made() {
        let (table, made) = black_dragons_wheel(Pace::Normal);
        assert!(made < 89.0, "the sample's knights cannot wheel 90: {made}");

        let c = check_side("Black Dragons: phase 1 wheel left 90", "aquilonia", &table);
        assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
        assert!(c.diagnostics.iter().all(|d| !d.is_error()));
        let notes: Vec<_> = c
            .diagnostics
            .iter()
            .filter(|d| d.kind == Kind::Note(Remark::WheelCut))
            .collect();
        assert_eq!(notes.len(), 1, "{:#?}", c.diagnostics);
        let said = notes[0].render(&c.source);
        assert!(
            said.contains(&format!("Black Dragons will wheel left {made}, not 90")),
            "{said}"
        );
        assert!(said.contains("ruling E-8"), "{said}");

        let short = check_side(
            &format!("Black Dragons: phase 1 wheel left {}", made - 1.0),
            "aquilonia",
            &table,
        );
        assert!(
            short
                .diagnostics
                .iter()
                .all(|d| d.kind != Kind::Note(Remark::WheelCut)),
            "a wheel within half the move is made as written: {:#?}",
            short.diagnostics
        );
    }

    fn wheel_cuts(text: &str) -> Vec<String> {
        let table = sample::table();
        let c = check_side(text, "aquilonia", &table);
        assert!(c.rejected.is_empty(), "{:#?}", c.diagnostics);
        c.diagnostics
            .iter()
            .filter(|d| d.kind == Kind::Note(Remark::WheelCut))
            .map(|d| d.render(&c.source))
            .collect()
    }

    /// Issue 45, item 14, for wheels to face a target: the wheel it takes
    /// from where the unit stands is weighed like a written one, and only
    /// when the unit starts its move from there (phase 1, or a phase 2
    /// with nothing before it).
    #[test]
    fn a_wheel_to_face_a_target_beyond_half_the_move_is_noted() {
        // (60, 8) lies a little behind the knights' right: more than 90°.
        let cut = wheel_cuts("Black Dragons: phase 1 wheel right to face (60, 8) then move 2");
        assert_eq!(cut.len(), 1, "{cut:#?}");
        assert!(
            cut[0].contains("Black Dragons will wheel right"),
            "{}",
            cut[0]
        );
        assert!(
            cut[0].contains("it takes to face (60, 8) as the table stands now"),
            "{}",
            cut[0]
        );
        assert!(
            wheel_cuts("Black Dragons: phase 1 wheel right to face (22, 40) then move 2")
                .is_empty()
        );
        assert!(
            wheel_cuts("Black Dragons: phase 1 face left 45; phase 2 wheel right to face (60, 8)")
                .is_empty(),
            "after a change of face in phase 1 the wheel is not known yet"
        );
        assert_eq!(
            wheel_cuts("Black Dragons: phase 2 wheel right to face (60, 8)").len(),
            1,
            "a phase 2 with nothing before it starts from here"
        );
    }

    /// A written sweep longer than half the charge is cut (ruling O-25):
    /// the confirmation says so, with the sweep that will be made.
    #[test]
    fn a_sweep_beyond_half_the_charge_is_noted() {
        let (_, made) = black_dragons_wheel(Pace::Charge);
        assert!(made < 170.0, "the knights cannot sweep 170: {made}");
        let cut = wheel_cuts("Black Dragons: phase 1 sweep right 170 then charge Nemedian Knights");
        assert_eq!(cut.len(), 1, "{cut:#?}");
        assert!(
            cut[0].contains(&format!("Black Dragons will sweep right {made}, not 170")),
            "{}",
            cut[0]
        );
        assert!(cut[0].contains("O-25"), "{}", cut[0]);
        assert!(wheel_cuts(&format!(
            "Black Dragons: phase 1 sweep right {} then charge Nemedian Knights",
            made - 1.0
        ))
        .is_empty());
    }
}
