//! Magic that lasts (§10): walls of fire and burning woods, rain that puts
//! them out, effects that expire, and what they do to charges, missiles,
//! volleys under the Wind Demon and figures asleep or blind.

use super::*;

/// Rain puts out fire (§10): a Wall of Fire or burning woods the rain's
/// square foot touches are put out entirely (ruling S-10).
pub(super) fn douse(turn: &mut TurnState) {
    let squares: Vec<Footprint> = turn
        .table
        .effects
        .iter()
        .filter_map(|e| match e.kind {
            EffectKind::Rain { centre } => Some(Footprint {
                centre,
                ahead: DVec2::Y,
                half_width: RAIN_SQUARE / 2.0,
                half_depth: RAIN_SQUARE / 2.0,
            }),
            _ => None,
        })
        .collect();
    if squares.is_empty() {
        return;
    }
    let terrain = turn.table.terrain.clone();
    let wet = |e: &Effect| match &e.kind {
        EffectKind::WallOfFire { from, to } => squares
            .iter()
            .any(|s| Place::Line(*from, *to).distance(s) <= EPSILON),
        EffectKind::WoodsFire {
            woods,
            from,
            to,
            reach,
        } => {
            let w = &terrain[*woods];
            squares.iter().any(|s| {
                let burning = Place::Line(*from, *to).distance(s) <= reach + EPSILON;
                burning && crate::geometry::footprint_meets_polygon(s, &w.points)
            })
        }
        _ => false,
    };
    let (out, kept): (Vec<Effect>, Vec<Effect>) = turn.table.effects.drain(..).partition(wet);
    turn.table.effects = kept;
    for e in out {
        let what = match e.kind {
            EffectKind::WallOfFire { .. } => "the Wall of Fire",
            _ => "the fire in the woods",
        };
        turn.events
            .push(Event::Magic(MagicEvent::PutOut { what: what.into() }));
    }
}

/// The end of the turn: rain puts out fire, fire in woods spreads 2 inches
/// and kills half the figures in the burning part, effects count down
/// (ghosts fade, sleepers wake), and this turn's spells are written.
pub(crate) fn end_of_turn(turn: &mut TurnState, orders: &TurnOrders, options: &GameOptions) {
    douse(turn);
    burn(turn, options);
    let mut kept = Vec::new();
    for mut e in std::mem::take(&mut turn.table.effects) {
        match e.turns_left {
            Some(0) | None => {}
            Some(n) => {
                e.turns_left = Some(n - 1);
                if n == 1 {
                    expire(turn, &e);
                }
            }
        }
        kept.push(e);
    }
    // Summoned troops that are gone need no effect.
    kept.retain(|e| match &e.kind {
        EffectKind::Summoned { unit, .. } => {
            !e.is_active()
                || turn
                    .table
                    .units
                    .get(unit)
                    .is_some_and(|u| u.status.is_present())
        }
        _ => true,
    });
    turn.table.effects = kept;
    write(&mut turn.table, orders);
}

pub(super) fn expire(turn: &mut TurnState, e: &Effect) {
    let name = |id: &str| {
        turn.table
            .units
            .get(id)
            .map_or(id.to_string(), |u| u.name.clone())
    };
    let ended = match &e.kind {
        EffectKind::Summoned { unit, .. } => {
            let n = name(unit);
            if let Some(u) = turn.table.units.get_mut(unit) {
                if u.status.is_present() {
                    u.status = Status::Eliminated;
                    let partners = std::mem::take(&mut u.in_melee_with);
                    for o in partners {
                        if let Some(o) = turn.table.units.get_mut(&o) {
                            o.in_melee_with.remove(unit);
                        }
                    }
                }
            }
            format!("{n} fade away")
        }
        EffectKind::ShieldOfAir { wizard } => {
            format!("the Shield of Air over {} is gone", name(wizard))
        }
        EffectKind::Slumber { hero } => format!("{} wakes", name(hero)),
        EffectKind::Blinded { commander } => format!("{} sees again", name(commander)),
        EffectKind::WallOfFire { .. } => "the Wall of Fire dies down".into(),
        EffectKind::Tremors { .. } => "the tremors cease".into(),
        EffectKind::Rain { .. } => "the rain stops".into(),
        EffectKind::WindDemon { unit } => format!("the Wind Demon leaves {}", name(unit)),
        EffectKind::Landslide { .. } | EffectKind::WoodsFire { .. } => return,
    };
    turn.events
        .push(Event::Magic(MagicEvent::Ended { what: ended }));
}

/// Fire in woods (§10; ruling S-11): each turn it reaches 2 inches farther
/// from where the wall was laid, within the woods; half the figures
/// standing in the burning part die. Woods wholly burnt go out.
pub(super) fn burn(turn: &mut TurnState, options: &GameOptions) {
    let mut losses: Vec<(UnitId, u32)> = Vec::new();
    let mut out = Vec::new();
    for (i, e) in turn.table.effects.iter_mut().enumerate() {
        let EffectKind::WoodsFire {
            woods,
            from,
            to,
            reach,
        } = &mut e.kind
        else {
            continue;
        };
        *reach += FIRE_SPREAD;
        let w = &turn.table.terrain[*woods];
        let burning = |q: DVec2| {
            point_in_polygon(q, &w.points)
                && point_segment_distance(q, *from, *to) <= *reach + EPSILON
        };
        turn.events
            .push(Event::Magic(MagicEvent::FireSpread { reach: *reach }));
        for u in turn.table.units.values().filter(|u| u.status.is_present()) {
            let cells = figure_places(u);
            let hot = cells.iter().filter(|c| burning(**c)).count() as u32;
            if hot == 0 {
                continue;
            }
            let in_fire = (u.figures * hot)
                .div_ceil(cells.len() as u32)
                .min(u.figures);
            let dead = if u.kind.is_single_figure() {
                0
            } else {
                half(in_fire, options.figure_rounding)
            };
            if dead > 0 {
                losses.push((u.id.clone(), dead));
            }
        }
        if w.points
            .iter()
            .all(|q| point_segment_distance(*q, *from, *to) <= *reach)
        {
            out.push(i);
        }
    }
    for (id, n) in losses {
        let name = turn.table.units[&id].name.clone();
        turn.events.push(Event::Magic(MagicEvent::Burned {
            unit: id.clone(),
            name,
            lost: n,
        }));
        take_losses(turn, &id, n);
    }
    for i in out.into_iter().rev() {
        turn.table.effects.remove(i);
        turn.events.push(Event::Magic(MagicEvent::Ended {
            what: "the woods have burnt out".into(),
        }));
    }
}

/// Where each file-and-rank place of a unit stands (centres).
pub(super) fn figure_places(u: &Unit) -> Vec<DVec2> {
    let f = u.footprint();
    let (files, ranks) = (u.files.max(1), u.ranks.max(1));
    let right = f.right();
    let mut out = Vec::new();
    for r in 0..ranks {
        for c in 0..files {
            let x = (f64::from(c) + 0.5) / f64::from(files) * 2.0 - 1.0;
            let y = (f64::from(r) + 0.5) / f64::from(ranks) * 2.0 - 1.0;
            out.push(f.centre + right * (x * f.half_width) - f.ahead * (y * f.half_depth));
        }
    }
    out
}

/// A magic barrier a charge may not cross (§10): a Wall of Fire stops
/// charges; no one may charge across the Earth-Shaker's tremors. The line
/// bars a pose that it passes through; one lying along an edge of the unit
/// (a backfire laid along its side) bars a charge only toward it.
pub fn charge_barrier(table: &Table, fp: &Footprint) -> Option<&'static str> {
    let inner = Footprint {
        half_width: (fp.half_width - 10.0 * TOUCH).max(0.0),
        half_depth: (fp.half_depth - 10.0 * TOUCH).max(0.0),
        ..*fp
    };
    table
        .effects
        .iter()
        .filter(|e| e.is_active())
        .find_map(|e| match e.kind {
            EffectKind::WallOfFire { from, to }
                if Place::Line(from, to).distance(&inner) <= 0.0 =>
            {
                Some("the Wall of Fire")
            }
            EffectKind::Tremors { from, to } if Place::Line(from, to).distance(&inner) <= 0.0 => {
                Some("the Earth-Shaker's tremors")
            }
            _ => None,
        })
}

/// Whether missiles from `from` to `to` are stopped (§10): a Wall of Fire
/// across their path, or a Shield of Air over the target.
pub fn missiles_blocked(table: &Table, from: DVec2, to: DVec2, target: &str) -> bool {
    table
        .effects
        .iter()
        .filter(|e| e.is_active())
        .any(|e| match &e.kind {
            EffectKind::ShieldOfAir { wizard } => wizard == target,
            EffectKind::WallOfFire { from: a, to: b } => segments_meet(from, to, *a, *b),
            _ => false,
        })
}

/// Whose figures a unit's volley kills (§10): under the Wind Demon its
/// arrows turn back on itself.
pub(crate) fn arrows_land_on(turn: &mut TurnState, firer: &str, target: &str) -> UnitId {
    let turned = turn.table.effects.iter().any(|e| {
        e.is_active() && matches!(&e.kind, EffectKind::WindDemon { unit } if unit == firer)
    });
    if !turned {
        return target.to_string();
    }
    let name = turn
        .table
        .units
        .get(firer)
        .map_or(firer.to_string(), |u| u.name.clone());
    turn.events.push(Event::Magic(MagicEvent::ArrowsTurned {
        unit: firer.to_string(),
        name,
    }));
    firer.to_string()
}

/// Whether a hero sleeps or a commander is blind (Black Slumber, Helm of
/// Darkness): he adds nothing and does not move while it lasts.
pub fn spellbound(table: &Table, id: &str) -> bool {
    table
        .effects
        .iter()
        .filter(|e| e.is_active())
        .any(|e| match &e.kind {
            EffectKind::Slumber { hero } => hero == id,
            EffectKind::Blinded { commander } => commander == id,
            _ => false,
        })
}
