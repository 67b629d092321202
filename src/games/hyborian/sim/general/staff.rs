//! Orders for the single figures: the commander and heroes (join a unit,
//! ride to steady one that fell back) and wizards (stand where they can
//! see, cast what the points allow).

use super::doctrine::Doctrine;
use super::view::View;
use super::write::{place, quoted, Sheet};
use crate::games::hyborian::adjudicate::spells::sight;
use crate::games::hyborian::rules::magic::Spell;
use crate::games::hyborian::rules::magic::{spell_name, spell_points, MagicUser, GHOST_FIGURES};
use crate::games::hyborian::rules::movement::single_figure_move;
use crate::games::hyborian::rules::UnitType;
use crate::games::hyborian::table::{EffectKind, Status, Unit};
use glam::DVec2;

/// A wizard keeps this far from the nearest enemy (inches): a wizard
/// fights as one light foot figure (§10).
const WIZARD_SAFE: f64 = 6.0;
/// How far a threatened wizard steps back (inches).
const WIZARD_RETREAT: f64 = 8.0;
/// A wizard stands this far beyond the end of the unit he stands by, and
/// this far behind its front (inches), so his own troops do not block his
/// sight (§10).
const WIZARD_BESIDE: f64 = 2.0;
const WIZARD_BEHIND: f64 = 1.0;
/// A wizard moves only to a station this far away or more (inches).
const WIZARD_SHIFT: f64 = 1.0;
/// …and only where no other unit of his stands within this much (inches).
const WIZARD_ROOM: f64 = 1.0;
/// The ghosts rise this far in front of the line (inches)…
const GHOSTS_AHEAD: f64 = 4.0;
/// …on ground clear of every unit by this much (the ground must be clear, ruling S-8).
const GHOSTS_CLEARANCE: f64 = 3.0;
/// Ghosts are raised only in the first turns of a battle, while they can
/// still fight their four turns.
const GHOSTS_BY_TURN: u32 = 4;
/// Single figures keep this far inside the table edge (leaving it is leaving the battle).
const EDGE_MARGIN: f64 = 1.0;

/// A commander's or hero's orders; `None` when he stays where he is.
pub(super) fn leader(view: &View, l: &Unit, doctrine: &Doctrine) -> Option<Sheet> {
    let reach = single_figure_move(l.kind, l.mounted);
    let nearest_unit = |ok: &dyn Fn(&Unit) -> bool| {
        view.mine
            .iter()
            .filter(|u| !u.kind.is_single_figure() && u.in_melee_with.is_empty() && ok(u))
            .map(|u| (*u, u.footprint().centre.distance(l.front)))
            .filter(|(_, d)| *d <= reach)
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.id.cmp(&b.0.id)))
            .map(|(u, _)| u)
    };
    let join = |u: &Unit| Sheet {
        turn: vec![format!("join {}", quoted(&u.name))],
        ..Sheet::default()
    };
    let Some(host) = l.attached_to.as_ref().and_then(|h| view.table.units.get(h)) else {
        // Alone on the table a commander can be captured (§9): join a unit.
        return nearest_unit(&|u| u.status == Status::Ready).map(join);
    };
    let steady = doctrine.rally && l.kind == UnitType::Commander && host.in_melee_with.is_empty();
    if !steady {
        return None;
    }
    let led = |u: &Unit| {
        view.table
            .units
            .values()
            .any(|x| x.attached_to.as_deref() == Some(u.id.as_str()))
    };
    nearest_unit(&|u| matches!(u.status, Status::FallBack(_)) && u.id != host.id && !led(u))
        .map(join)
}

/// A wizard's orders: his station, and a spell when he has none waiting.
pub(super) fn wizard(view: &View, w: &Unit, doctrine: &Doctrine) -> Sheet {
    let table = view.table;
    let mut sheet = Sheet::default();
    if let Some(p) = station(view, w) {
        sheet.turn.push(format!("move to {}", place(p)));
    }
    if table.pending_spells.iter().any(|p| p.caster == w.id) {
        return sheet;
    }
    let left = w.spell_points.unwrap_or(0);
    let affordable = |s: Spell| spell_points(s) <= left;
    let sees = |p: DVec2, ignore: &[&str]| sight(table, w, p, ignore).is_ok();
    // A hero is seen where his unit stands.
    let sees_hero = |h: &Unit| {
        let host = h
            .attached_to
            .as_ref()
            .and_then(|a| table.units.get(a))
            .unwrap_or(h);
        sees(host.footprint().centre, &[h.id.as_str(), host.id.as_str()])
    };
    let shielded = table.effects.iter().any(|e| {
        e.is_active() && matches!(&e.kind, EffectKind::ShieldOfAir { wizard } if *wizard == w.id)
    });
    let archers_near = view.enemies.iter().any(|(e, fp)| {
        View::archers(e).is_some_and(|r| fp.distance(&w.footprint()) <= r + WIZARD_SAFE)
    });
    let cast = if doctrine.shield && !shielded && archers_near && affordable(Spell::ShieldOfAir) {
        Some("cast Shield of Air".to_string())
    } else if let Some(h) =
        sleeper(view, w).filter(|h| affordable(Spell::BlackSlumber) && sees_hero(h))
    {
        Some(format!("cast Black Slumber at {}", quoted(&h.name)))
    } else if let Some(p) = ghosts_place(view, w)
        .filter(|p| doctrine.ghosts && affordable(Spell::ArmyOfGhosts) && sees(*p, &[]))
    {
        Some(format!(
            "cast {} at {}",
            spell_name(Spell::ArmyOfGhosts),
            place(p)
        ))
    } else if affordable(Spell::SwordOfFire) {
        let fp = w.footprint();
        view.enemies
            .iter()
            .filter(|(e, efp)| sees(efp.centre, &[e.id.as_str()]))
            .min_by(|a, b| {
                a.1.distance(&fp)
                    .total_cmp(&b.1.distance(&fp))
                    .then(a.0.id.cmp(&b.0.id))
            })
            .map(|(e, _)| {
                format!(
                    "cast {} at {}",
                    spell_name(Spell::SwordOfFire),
                    quoted(&e.name)
                )
            })
    } else {
        None
    };
    sheet.turn.extend(cast);
    sheet
}

/// An enemy hero the wizard may put to sleep (§10: a superhero only by Thoth-Amon).
fn sleeper<'a>(view: &View<'a>, w: &Unit) -> Option<&'a Unit> {
    let thoth = MagicUser::of_name(&w.name) == Some(MagicUser::ThothAmon);
    view.table.units.values().find(|h| {
        h.side != view.side
            && h.status.is_present()
            && (h.kind == UnitType::Hero || (h.kind == UnitType::Superhero && thoth))
            && !crate::games::hyborian::adjudicate::spells::spellbound(view.table, &h.id)
    })
}

/// Where ghosts could rise: in front of the own line, on clear ground,
/// early in the battle.
fn ghosts_place(view: &View, w: &Unit) -> Option<DVec2> {
    if view.table.turn > GHOSTS_BY_TURN {
        return None;
    }
    let own: Vec<&&Unit> = view
        .mine
        .iter()
        .filter(|u| !u.kind.is_single_figure())
        .collect();
    if own.is_empty() {
        return None;
    }
    let centre = own.iter().map(|u| u.front).sum::<DVec2>() / own.len() as f64;
    let p = centre + view.forward * GHOSTS_AHEAD;
    let room = f64::from(GHOST_FIGURES) / 2.0;
    let clear = view.table.units.values().all(|u| {
        !u.status.is_present()
            || u.kind.is_single_figure()
            || u.footprint().centre.distance(p) > room + GHOSTS_CLEARANCE
    });
    let nearest_enemy = view.nearest(w, |_| true).map_or(f64::INFINITY, |(_, g)| g);
    (clear && on_table(view, p) && nearest_enemy > GHOSTS_AHEAD).then_some(p)
}

fn on_table(view: &View, p: DVec2) -> bool {
    p.x >= EDGE_MARGIN
        && p.y >= EDGE_MARGIN
        && p.x <= view.table.width - EDGE_MARGIN
        && p.y <= view.table.depth - EDGE_MARGIN
}

fn clamp_to_table(view: &View, p: DVec2) -> DVec2 {
    DVec2::new(
        p.x.clamp(EDGE_MARGIN, view.table.width - EDGE_MARGIN),
        p.y.clamp(EDGE_MARGIN, view.table.depth - EDGE_MARGIN),
    )
}

/// Where the wizard should stand, if not where he is: back from an enemy
/// too close; else beside the own unit nearest him, level with its front,
/// on a side where no friend stands (his own troops would block his
/// sight, §10); else behind that unit.
fn station(view: &View, w: &Unit) -> Option<DVec2> {
    let threat = view.nearest(w, |_| true).map_or(f64::INFINITY, |(_, g)| g);
    let p = if threat < WIZARD_SAFE {
        w.front - view.forward * WIZARD_RETREAT
    } else {
        let by = view
            .mine
            .iter()
            .filter(|u| !u.kind.is_single_figure())
            .min_by(|a, b| {
                a.front
                    .distance(w.front)
                    .total_cmp(&b.front.distance(w.front))
                    .then(a.id.cmp(&b.id))
            })?;
        let fp = by.footprint();
        let near_side = if (w.front - fp.centre).dot(fp.right()) >= 0.0 {
            1.0
        } else {
            -1.0
        };
        let free = |p: DVec2| {
            view.mine
                .iter()
                .filter(|u| !u.kind.is_single_figure() && u.id != by.id)
                .all(|u| View::point_gap(&u.footprint(), p) > WIZARD_ROOM)
        };
        [near_side, -near_side]
            .map(|hand| {
                by.front + fp.right() * hand * (fp.half_width + WIZARD_BESIDE)
                    - fp.ahead * WIZARD_BEHIND
            })
            .into_iter()
            .find(|p| free(*p) && on_table(view, *p))
            .unwrap_or(by.front - fp.ahead * (2.0 * fp.half_depth + WIZARD_BESIDE))
    };
    let p = clamp_to_table(view, p);
    (p.distance(w.front) > WIZARD_SHIFT).then_some(p)
}
