//! Spells as written (§10, Appendix II), checked against the magic user,
//! his spell points, his sight and the table: at whom or where each may be
//! cast, and the canonical spell the engine gets next turn.

use super::*;

impl Ctx<'_> {
    pub(super) fn cast(
        &mut self,
        spell: crate::games::hyborian::rules::magic::Spell,
        aim: &SpellAim,
        span: Span,
        out: &mut UnitOrders,
    ) {
        use crate::games::hyborian::rules::magic::Spell as S;
        let u = self.unit;
        let name = magic::spell_name(spell);
        if u.kind != UnitType::Wizard {
            self.refuse(
                Illegal::Spell,
                span,
                format!("{} is not a wizard", u.name),
                "§10: only wizards cast spells",
                None,
            );
            return;
        }
        if let Some(order) = magic::MagicUser::casting(spell) {
            if magic::MagicUser::of_name(&u.name) != Some(order) {
                self.refuse(
                    Illegal::Spell,
                    span,
                    format!("{} is not one of the {}", u.name, order.name()),
                    &format!("Appendix II: only the {} cast the {name}", order.name()),
                    None,
                );
                return;
            }
        }
        // Spells written last turn and not yet cast are already promised.
        let promised: u32 = self
            .table
            .pending_spells
            .iter()
            .filter(|p| p.caster == u.id)
            .map(|p| magic::spell_points(p.spell))
            .sum();
        let spent: u32 = promised
            + out
                .spells
                .iter()
                .map(|s| magic::spell_points(s.spell))
                .sum::<u32>();
        let left = u.spell_points.unwrap_or(0).saturating_sub(spent);
        let cost = magic::spell_points(spell);
        if cost > left {
            self.refuse(
                Illegal::Spell,
                span,
                format!(
                    "{name} costs {cost} spell points; {} has {left} left",
                    u.name
                ),
                "§10: a wizard's cost is his spell-point budget for the battle",
                None,
            );
            return;
        }
        let target = match (spell, aim) {
            (S::ShieldOfAir, SpellAim::Caster) => {
                crate::games::hyborian::table::SpellTarget::Unit(u.id.clone())
            }
            (S::ShieldOfAir, _) => {
                self.refuse(
                    Illegal::Spell,
                    span,
                    "the Shield of Air falls on the wizard himself".into(),
                    "§10: a wall against missiles on the wizard",
                    Some("write 'cast Shield of Air'".into()),
                );
                return;
            }
            (S::EarthShaker | S::WallOfFire, SpellAim::Along(a, b)) => {
                let (Some(p), Some(q)) = (self.point(a.0, a.1, span), self.point(b.0, b.1, span))
                else {
                    return;
                };
                let max = if spell == S::EarthShaker {
                    magic::EARTH_SHAKER_LENGTH
                } else {
                    magic::WALL_OF_FIRE_LENGTH
                };
                if p.distance(q) > max + EPSILON {
                    self.refuse(
                        Illegal::Spell,
                        span,
                        format!(
                            "the {name} is {} inches long at most, not {}",
                            fmt_in(max),
                            fmt_in(p.distance(q))
                        ),
                        "§10: the Earth-Shaker is a 2-foot line, the Wall of Fire a 1-foot wall",
                        None,
                    );
                    return;
                }
                crate::games::hyborian::table::SpellTarget::Line(p, q)
            }
            (S::EarthShaker | S::WallOfFire, _) => {
                self.refuse(
                    Illegal::Spell,
                    span,
                    format!("the {name} is laid along a line"),
                    "§10: give both ends",
                    Some(format!("cast {name} along (x1, y1) to (x2, y2)")),
                );
                return;
            }
            (S::Flying, SpellAim::At(ast::Target::Point(x, y))) => {
                let Some(p) = self.point(*x, *y, span) else {
                    return;
                };
                if p.distance(u.front) > magic::FLYING_DISTANCE + EPSILON {
                    self.refuse(
                        Illegal::Spell,
                        span,
                        format!("({x}, {y}) is more than 24 inches from {}", u.name),
                        "§10: Flying carries the wizard 24 inches",
                        None,
                    );
                    return;
                }
                crate::games::hyborian::table::SpellTarget::Point(p)
            }
            (S::Flying, _) => {
                self.refuse(
                    Illegal::Spell,
                    span,
                    "Flying needs the place to fly to".into(),
                    "§10: the wizard moves 24 inches in any direction",
                    Some("cast Flying at (x, y)".into()),
                );
                return;
            }
            (
                S::SwordOfFire | S::WindDemon | S::BlackSlumber | S::HelmOfDarkness,
                SpellAim::At(ast::Target::Unit(r)),
            ) => {
                let Some(t) = self.find(r, true) else { return };
                if spell == S::HelmOfDarkness && t.kind != UnitType::Commander {
                    self.refuse(
                        Illegal::Spell,
                        r.span,
                        format!("the Helm of Darkness cannot fall on {}", t.name),
                        "Appendix II: the Helm of Darkness blinds a commander",
                        None,
                    );
                    return;
                }
                if spell == S::BlackSlumber {
                    let thoth =
                        crate::games::hyborian::orders::names::key(&u.name).contains("thothamon");
                    if !matches!(t.kind, UnitType::Hero | UnitType::Superhero)
                        || (t.kind == UnitType::Superhero && !thoth)
                    {
                        self.refuse(
                            Illegal::Spell,
                            r.span,
                            format!("the Black Slumber cannot fall on {}", t.name),
                            "§10: the Black Slumber puts a hero to sleep (a superhero: Thoth-Amon only)",
                            None,
                        );
                        return;
                    }
                }
                crate::games::hyborian::table::SpellTarget::Unit(t.id.clone())
            }
            (
                S::ArmyOfGhosts | S::LegionsOfTheDead | S::TheCalling | S::EarthDemon,
                SpellAim::At(ast::Target::Point(x, y)),
            ) => match self.point(*x, *y, span) {
                Some(p) => crate::games::hyborian::table::SpellTarget::Point(p),
                None => return,
            },
            (S::ArmyOfGhosts | S::LegionsOfTheDead | S::TheCalling | S::EarthDemon, _) => {
                self.refuse(
                    Illegal::Spell,
                    span,
                    format!("the {name} needs a place"),
                    "§10: a clearly stated place (x, y)",
                    Some(format!("cast {name} at (x, y)")),
                );
                return;
            }
            (S::SwordOfFire | S::WindDemon | S::BlackSlumber | S::HelmOfDarkness, _) => {
                self.refuse(
                    Illegal::Spell,
                    span,
                    format!("the {name} is cast at a unit"),
                    "§10",
                    Some(format!("cast {name} at <unit>")),
                );
                return;
            }
            (_, SpellAim::At(t)) => match self.target(t, span, true) {
                Some(plan::Target::Unit(id)) => {
                    crate::games::hyborian::table::SpellTarget::Unit(id)
                }
                Some(plan::Target::Point(p)) => {
                    crate::games::hyborian::table::SpellTarget::Point(p)
                }
                None => return,
            },
            (_, _) => {
                self.refuse(
                    Illegal::Spell,
                    span,
                    format!("the {name} needs a place or a unit"),
                    "§10: the target must be a visible unit or a clearly stated place",
                    Some(format!("cast {name} at (x, y)")),
                );
                return;
            }
        };
        out.spells.push(plan::SpellOrder { spell, target });
    }
}
