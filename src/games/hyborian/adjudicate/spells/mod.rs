//! §10 Magic in the turn. Spells written with a turn's orders wait on the
//! table ([`Table::pending_spells`]) and take effect at the start of the
//! next turn's phase 1 ([`take_effect`], the pipeline's `SpellsTakeEffect`
//! step): sight and range, the casting roll (`spell:WIZARD:K`), points
//! spent, backfire onto the nearest friendly unit, the spell's effect, and
//! the morale tests it calls (left on the turn record for the morale step).
//! Lasting magic — walls, tremors, rain, fire in woods, shields, ghosts,
//! sleepers — lives in [`Table::effects`]; [`end_of_turn`] spreads fire,
//! counts effects down and writes this turn's spells for the next.
//!
//! Other steps ask this module three questions: may a charge go on
//! ([`charge_barrier`]), do missiles get through ([`missiles_blocked`]),
//! and where do a unit's arrows land ([`arrows_land_on`]).
//!
//! ```
//! use umpire::games::hyborian::adjudicate::spells::missiles_blocked;
//! use umpire::games::hyborian::table::{setup::Setup, Effect, EffectKind, Table};
//! use glam::DVec2;
//! let setup: Setup = toml::from_str("[table]\nwidth = 72.0\ndepth = 48.0\n").unwrap();
//! let mut table = Table::from_setup(&setup).unwrap();
//! table.effects.push(Effect {
//!     kind: EffectKind::WallOfFire { from: DVec2::new(30.0, 20.0), to: DVec2::new(42.0, 20.0) },
//!     turns_left: Some(1),
//!     caster: "thoth".into(),
//! });
//! assert!(missiles_blocked(&table, DVec2::new(36.0, 10.0), DVec2::new(36.0, 30.0), "x"));
//! assert!(!missiles_blocked(&table, DVec2::new(10.0, 10.0), DVec2::new(10.0, 30.0), "x"));
//! ```

mod lasting;

use lasting::douse;
pub(crate) use lasting::{arrows_land_on, end_of_turn};
pub use lasting::{charge_barrier, missiles_blocked, spellbound};

use super::events::{Event, MagicEvent};
use super::ground::level;
use super::losses::take_losses;
use super::record::{Contact, MoraleCall, MoraleCause};
use super::{roll, TurnState};
use crate::games::hyborian::dice::{Dice, DiceError, DiceKey};
use crate::games::hyborian::orders::plan::TurnOrders;
use crate::games::hyborian::rules::magic::Spell;
use crate::games::hyborian::rules::magic::{
    casting, causes_tests, spell_name, spell_points, Casting, MagicUser, CALLING_EDGE,
    CALLING_FIGURES, DRUID_SOBER_FROM, EARTH_DEMON_CONTOURS, EARTH_DEMON_FIGURES, FIRE_SPREAD,
    GHOST_FIGURES, GHOST_TURNS, LANDSLIDE_EXTENT, LEGION_FIGURES, MAGIC_FEAR_RANGE, MAGIC_MORALE,
    NORTHERN_BARBARIAN_MAGIC_MORALE, RAIN_SQUARE, SHIELD_OF_AIR_TURNS, SIGHT_GAP,
    SWORD_OF_FIRE_FIGURES,
};
use crate::games::hyborian::rules::melee::{
    average_from_normal_die, casualties, charge_bonus, half, MeleeModifier,
};
use crate::games::hyborian::rules::movement::{allowance, Pace};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::{Class, Formation, Phase, Trait, UnitType};
use crate::games::hyborian::table::geometry::files_and_ranks;
use crate::games::hyborian::table::SpellTarget;
use crate::games::hyborian::table::{
    Effect, EffectKind, PendingSpell, Status, Table, Terrain, TerrainKind, Unit, UnitId,
};
use crate::geometry::{bearing_of, point_segment_distance, Face, Footprint, EPSILON, TOUCH};
use crate::geometry::{point_in_polygon, segments_meet};
use glam::DVec2;
use std::collections::BTreeMap;

/// Queue the spells written with this turn's orders: they take effect at
/// the start of the next turn's phase 1 (§10). A wizard's spells keep the
/// order they were written in.
pub fn write(table: &mut Table, orders: &TurnOrders) {
    let turn = table.turn;
    queue(table, orders, turn);
}

fn queue(table: &mut Table, orders: &TurnOrders, written: u32) {
    for (id, o) in &orders.units {
        for s in &o.spells {
            table.pending_spells.push(PendingSpell {
                caster: id.clone(),
                spell: s.spell,
                target: s.target.clone(),
                written,
            });
        }
    }
}

/// Treat the spells in `orders` as written last turn: they move onto the
/// table and take effect in the turn about to be played. A rules case is
/// one turn, so its spells are read this way (ruling S-1).
pub fn carry_written(table: &mut Table, orders: &mut TurnOrders) {
    let mut written = TurnOrders::default();
    for (id, o) in &mut orders.units {
        let spells = std::mem::take(&mut o.spells);
        if !spells.is_empty() {
            written.units.entry(id.clone()).or_default().spells = spells;
        }
    }
    let last_turn = table.turn.saturating_sub(1);
    queue(table, &written, last_turn);
}

/// What a spell falls on once it is cast.
#[derive(Debug, Clone, PartialEq)]
enum Aim {
    Unit(UnitId),
    Point(DVec2),
    Line(DVec2, DVec2),
}

/// The start of phase 1: every spell written last turn is cast, in the
/// order written, wizard by wizard; then the Calling's beasts hunt.
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn take_effect(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
) -> Result<(), DiceError> {
    turn.table.effects.retain(Effect::is_active);
    let pending = std::mem::take(&mut turn.table.pending_spells);
    let mut by_wizard: BTreeMap<UnitId, Vec<PendingSpell>> = BTreeMap::new();
    for p in pending {
        by_wizard.entry(p.caster.clone()).or_default().push(p);
    }
    for (wizard, spells) in by_wizard {
        cast_all(turn, options, dice, &wizard, &spells)?;
    }
    douse(turn);
    hunt(turn);
    Ok(())
}

/// One wizard's spells for the turn.
fn cast_all(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    wizard: &str,
    spells: &[PendingSpell],
) -> Result<(), DiceError> {
    let Some(w) = turn.table.units.get(wizard).cloned() else {
        return Ok(());
    };
    let lost = |turn: &mut TurnState, spell: Spell, why: String| {
        turn.events.push(Event::Magic(MagicEvent::SpellLost {
            wizard: w.id.clone(),
            name: w.name.clone(),
            spell: spell_name(spell).into(),
            why,
        }));
    };
    if !w.status.is_present() {
        for s in spells {
            lost(
                turn,
                s.spell,
                format!("{} is no longer on the table", w.name),
            );
        }
        return Ok(());
    }
    let mut k = 0;
    if MagicUser::of_name(&w.name) == Some(MagicUser::WhiteDruids) {
        k += 1;
        let r = roll(
            dice,
            DiceKey::Spell {
                wizard: w.id.clone(),
                k,
            },
            &mut turn.events,
        )?;
        if r < DRUID_SOBER_FROM {
            turn.events.push(Event::Magic(MagicEvent::DruidDrunk {
                wizard: w.id.clone(),
                name: w.name.clone(),
                roll: r,
            }));
            return Ok(());
        }
    }
    for s in spells {
        let cost = spell_points(s.spell);
        let left = turn.table.units[wizard].spell_points.unwrap_or(0);
        if cost > left {
            lost(
                turn,
                s.spell,
                format!("it costs {cost} points and {} has {left} left", w.name),
            );
            continue;
        }
        if s.spell == Spell::TheCalling && turn.table.once_cast.contains(&(w.id.clone(), s.spell)) {
            lost(turn, s.spell, "the Calling is made once a battle".into());
            continue;
        }
        let aim = match aim_of(&turn.table, &w, &s.target) {
            Ok(a) => a,
            Err(why) => {
                lost(turn, s.spell, why);
                continue;
            }
        };
        let result = if crate::games::hyborian::rules::magic::never_fails(s.spell) {
            (None, Casting::Works)
        } else {
            k += 1;
            let r = roll(
                dice,
                DiceKey::Spell {
                    wizard: w.id.clone(),
                    k,
                },
                &mut turn.events,
            )?;
            (Some(r), casting(s.spell, r))
        };
        let points_left = left - cost;
        if let Some(u) = turn.table.units.get_mut(wizard) {
            u.spell_points = Some(points_left);
        }
        if s.spell == Spell::TheCalling {
            turn.table.once_cast.insert((w.id.clone(), s.spell));
        }
        turn.events.push(Event::Magic(MagicEvent::Cast {
            wizard: w.id.clone(),
            name: w.name.clone(),
            spell: spell_name(s.spell).into(),
            at: if aim == Aim::Unit(w.id.clone()) {
                "on himself".into()
            } else {
                describe(&turn.table, &aim)
            },
            roll: result.0,
            casting: result.1,
            points_left,
        }));
        match result.1 {
            Casting::Fizzle => {}
            Casting::Works => effect(turn, options, dice, &w, s.spell, &aim)?,
            // With no friendly unit left, a backfire strikes nothing.
            Casting::Backfire => {
                if let Some(f) = nearest_friend(&turn.table, &w) {
                    turn.events.push(Event::Magic(MagicEvent::Backfired {
                        wizard: w.id.clone(),
                        name: w.name.clone(),
                        spell: spell_name(s.spell).into(),
                        onto: f.id.clone(),
                        onto_name: f.name.clone(),
                    }));
                    backfire(turn, options, dice, &w, s.spell, &f)?;
                }
            }
        }
    }
    Ok(())
}

/// Resolve a spell's target on the table as it stands at the start of
/// phase 1: the target must still be there, within the depth of the table,
/// and in sight (§10; ruling S-2).
fn aim_of(table: &Table, w: &Unit, target: &SpellTarget) -> Result<Aim, String> {
    match target {
        SpellTarget::Unit(id) if *id == w.id => Ok(Aim::Unit(id.clone())),
        SpellTarget::Unit(id) => {
            let t = table
                .units
                .get(id)
                .filter(|t| t.status.is_present())
                .ok_or_else(|| format!("{id} is no longer on the table"))?;
            // A leader is seen where his unit stands.
            let seen = t
                .attached_to
                .as_ref()
                .and_then(|a| table.units.get(a))
                .unwrap_or(t);
            let p = seen.footprint().nearest_point(w.front);
            sight(table, w, p, &[t.id.as_str(), seen.id.as_str()])?;
            Ok(Aim::Unit(id.clone()))
        }
        SpellTarget::Point(p) => {
            sight(table, w, *p, &[])?;
            Ok(Aim::Point(*p))
        }
        SpellTarget::Line(a, b) => {
            sight(table, w, (*a + *b) / 2.0, &[])?;
            Ok(Aim::Line(*a, *b))
        }
    }
}

/// Whether the wizard sees `to` (§10): range the depth of the table; no
/// unit across the sight line, nor two with a gap of less than 3 inches
/// astride it — except his own troops below him (the overhead rule).
/// `ignore`: the target itself.
pub fn sight(table: &Table, w: &Unit, to: DVec2, ignore: &[&str]) -> Result<(), String> {
    let from = w.front;
    let len = from.distance(to);
    if len > table.depth + EPSILON {
        return Err(format!(
            "it is {len:.1} inches away, beyond the depth of the table ({:.0})",
            table.depth
        ));
    }
    if len < EPSILON {
        return Ok(());
    }
    let line = Footprint::behind(to, bearing_of(to - from), 0.0, len);
    let mine = level(table, &w.footprint());
    let dir = (to - from) / len;
    let blockers: Vec<(&Unit, Footprint)> = table
        .units
        .values()
        .filter(|u| {
            u.id != w.id
                && !ignore.contains(&u.id.as_str())
                && u.status.is_present()
                && !u.kind.is_single_figure()
        })
        .map(|u| (u, u.footprint()))
        .filter(|(u, f)| !(u.side == w.side && mine > level(table, f)))
        .collect();
    if let Some((u, _)) = blockers.iter().find(|(_, f)| f.distance(&line) <= EPSILON) {
        return Err(format!("{} stand in the way", u.name));
    }
    let side = |f: &Footprint| (f.centre - from).perp_dot(dir) > 0.0;
    for (i, (a, fa)) in blockers.iter().enumerate() {
        for (b, fb) in &blockers[i + 1..] {
            if side(fa) != side(fb)
                && fa.distance(fb) < SIGHT_GAP - EPSILON
                && fa.distance(&line) < SIGHT_GAP
                && fb.distance(&line) < SIGHT_GAP
            {
                return Err(format!(
                    "the gap between {} and {} is less than 3 inches",
                    a.name, b.name
                ));
            }
        }
    }
    Ok(())
}

/// The friendly unit nearest the wizard: a backfire strikes it (§10).
fn nearest_friend(table: &Table, w: &Unit) -> Option<Unit> {
    table
        .units
        .values()
        .filter(|u| u.side == w.side && u.status.is_present() && !u.kind.is_single_figure())
        .min_by(|a, b| {
            let da = a.footprint().distance(&w.footprint());
            let db = b.footprint().distance(&w.footprint());
            da.total_cmp(&db).then(a.id.cmp(&b.id))
        })
        .cloned()
}

/// A backfire (ruling S-5): the spell "will take effect at the facing
/// side of the nearest friendly unit closest to the magic user" (§10) —
/// the side of that unit that faces the wizard, by the arcs of E-7: "often
/// … on the rear or flank". A bolt or landslide charges that side (with
/// the flank's or rear's +1/+2), a wall or tremor line is laid along it,
/// the Wind Demon turns the unit's own arrows; spells that raise, summon,
/// put to sleep or blind strike nothing but frighten it. It tests as the
/// target, its neighbours as usual.
fn backfire(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    w: &Unit,
    spell: Spell,
    friend: &Unit,
) -> Result<(), DiceError> {
    let fp = friend.footprint();
    let side = fp.arc_of_degrees(w.footprint().centre, options.arcs.degrees());
    let (l, r) = fp.edge(side);
    match spell {
        Spell::SwordOfFire | Spell::EarthDemon => {
            let n = if spell == Spell::SwordOfFire {
                SWORD_OF_FIRE_FIGURES
            } else {
                EARTH_DEMON_FIGURES
            };
            let key = effect_key(spell, &friend.id);
            let face = friend.formation.face_at(side);
            magic_charge(turn, options, dice, spell, &friend.id, n, face, key)?;
        }
        Spell::WallOfFire | Spell::EarthShaker => {
            effect(turn, options, dice, w, spell, &Aim::Line(l, r))?;
            return Ok(());
        }
        Spell::WindDemon | Spell::RainDemon => {
            let aim = if spell == Spell::WindDemon {
                Aim::Unit(friend.id.clone())
            } else {
                Aim::Point(fp.centre)
            };
            effect(turn, options, dice, w, spell, &aim)?;
            return Ok(());
        }
        _ => {}
    }
    if causes_tests(spell) {
        fear(
            turn,
            w,
            spell,
            std::slice::from_ref(&friend.id),
            &Place::Units(vec![fp]),
        );
    }
    Ok(())
}

/// The dice key of a spell's own die: `d6:TARGET:slumber`, `d6:TARGET:helm`,
/// `d6:UNIT:landslide`, `d6:TARGET:sword`.
fn effect_key(spell: Spell, target: &str) -> DiceKey {
    let what = match spell {
        Spell::BlackSlumber => "slumber",
        Spell::HelmOfDarkness => "helm",
        Spell::EarthDemon => "landslide",
        _ => "sword",
    };
    DiceKey::D6 {
        unit: target.to_string(),
        what: what.into(),
    }
}

/// Where magic fell, for the 6-inch test (§10).
enum Place {
    Units(Vec<Footprint>),
    Point(DVec2),
    Line(DVec2, DVec2),
}

impl Place {
    fn distance(&self, f: &Footprint) -> f64 {
        match self {
            Place::Units(fs) => fs
                .iter()
                .map(|g| g.distance(f))
                .fold(f64::INFINITY, f64::min),
            Place::Point(p) => {
                if f.contains(*p) {
                    0.0
                } else {
                    f.nearest_point(*p).distance(*p)
                }
            }
            Place::Line(a, b) => {
                let len = a.distance(*b);
                if len < EPSILON {
                    return Place::Point(*a).distance(f);
                }
                f.distance(&Footprint::behind(*b, bearing_of(*b - *a), 0.0, len))
            }
        }
    }
}

/// The morale tests magic calls (§10; ruling S-3): the units struck and
/// every other unit within 6 inches of where the magic fell test at −10%,
/// Northern Barbarians at −20% either way. Single figures and the caster's
/// own summoned troops do not test. Who tests is fixed now, at the start of
/// phase 1; the morale step takes the calls in phase 2 with the pre-melee
/// tests.
fn fear(turn: &mut TurnState, w: &Unit, spell: Spell, struck: &[UnitId], place: &Place) {
    let summoned: Vec<UnitId> = turn
        .table
        .effects
        .iter()
        .filter_map(|e| match &e.kind {
            EffectKind::Summoned { unit, .. } => Some(unit.clone()),
            _ => None,
        })
        .collect();
    let mut calls = Vec::new();
    for u in turn.table.units.values() {
        if !u.status.is_present() || u.kind.is_single_figure() || summoned.contains(&u.id) {
            continue;
        }
        let target = struck.contains(&u.id);
        let near = place.distance(&u.footprint()) <= MAGIC_FEAR_RANGE + EPSILON;
        if !target && !near {
            continue;
        }
        let modifier = if u.has_trait(Trait::NorthernBarbarian) {
            NORTHERN_BARBARIAN_MAGIC_MORALE
        } else {
            MAGIC_MORALE
        };
        calls.push((u.id.clone(), u.name.clone(), modifier, target));
    }
    for (id, name, modifier, target) in calls {
        turn.record.unit_mut(&id).morale_calls.push(MoraleCall {
            cause: MoraleCause::Magic {
                caster: w.id.clone(),
                spell: spell_name(spell).into(),
            },
            modifier,
        });
        turn.events.push(Event::Magic(MagicEvent::MoraleCalled {
            unit: id,
            name,
            spell: spell_name(spell).into(),
            modifier,
            target,
        }));
    }
}

/// A spell that works (§10, Appendix II).
fn effect(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    w: &Unit,
    spell: Spell,
    aim: &Aim,
) -> Result<(), DiceError> {
    let lasting = |kind, turns| Effect {
        kind,
        turns_left: turns,
        caster: w.id.clone(),
    };
    let mut struck: Vec<UnitId> = Vec::new();
    let place = match (spell, aim) {
        (Spell::ShieldOfAir, _) => {
            let e = lasting(
                EffectKind::ShieldOfAir {
                    wizard: w.id.clone(),
                },
                Some(SHIELD_OF_AIR_TURNS),
            );
            turn.table.effects.push(e);
            None
        }
        (Spell::Flying, Aim::Point(p)) => {
            if let Some(u) = turn.table.units.get_mut(&w.id) {
                u.front = *p;
            }
            turn.events.push(Event::Magic(MagicEvent::Flew {
                wizard: w.id.clone(),
                name: w.name.clone(),
                to: [p.x, p.y],
            }));
            None
        }
        (Spell::WindDemon, Aim::Unit(id)) => {
            turn.table
                .effects
                .push(lasting(EffectKind::WindDemon { unit: id.clone() }, Some(1)));
            struck.push(id.clone());
            Some(Place::Units(vec![turn.table.units[id].footprint()]))
        }
        (Spell::RainDemon, aim) => {
            let centre = match aim {
                Aim::Point(p) => *p,
                Aim::Unit(id) => turn.table.units[id].footprint().centre,
                Aim::Line(a, b) => (*a + *b) / 2.0,
            };
            turn.table
                .effects
                .push(lasting(EffectKind::Rain { centre }, Some(1)));
            None
        }
        (Spell::SwordOfFire, Aim::Unit(id)) => {
            let t = turn.table.units[id].clone();
            let face = t.formation.face_at(t.footprint().arc_of(w.front));
            magic_charge(
                turn,
                options,
                dice,
                spell,
                id,
                SWORD_OF_FIRE_FIGURES,
                face,
                effect_key(spell, id),
            )?;
            struck.push(id.clone());
            Some(Place::Units(vec![t.footprint()]))
        }
        (Spell::EarthShaker, Aim::Line(a, b)) => {
            turn.table
                .effects
                .push(lasting(EffectKind::Tremors { from: *a, to: *b }, Some(1)));
            Some(Place::Line(*a, *b))
        }
        (Spell::WallOfFire, Aim::Line(a, b)) => {
            turn.table.effects.push(lasting(
                EffectKind::WallOfFire { from: *a, to: *b },
                Some(1),
            ));
            let woods: Vec<usize> = turn
                .table
                .terrain
                .iter()
                .enumerate()
                .filter(|(_, t)| {
                    t.kind == TerrainKind::Woods
                        && crate::geometry::segment_meets_polygon(*a, *b, &t.points)
                })
                .map(|(i, _)| i)
                .collect();
            for i in woods {
                turn.table.effects.push(lasting(
                    EffectKind::WoodsFire {
                        woods: i,
                        from: *a,
                        to: *b,
                        reach: 0.0,
                    },
                    None,
                ));
                turn.events.push(Event::Magic(MagicEvent::WoodsAlight {
                    at: [(a.x + b.x) / 2.0, (a.y + b.y) / 2.0],
                }));
            }
            Some(Place::Line(*a, *b))
        }
        (Spell::ArmyOfGhosts | Spell::LegionsOfTheDead | Spell::TheCalling, Aim::Point(p)) => {
            match raise(turn, w, spell, *p) {
                Ok(id) => {
                    let (turns, prey) = match spell {
                        Spell::ArmyOfGhosts => (Some(GHOST_TURNS), None),
                        Spell::TheCalling => (
                            None,
                            nearest_enemy(&turn.table, &turn.table.units[&id])
                                .map(|u| u.id.clone()),
                        ),
                        _ => (None, None),
                    };
                    turn.table
                        .effects
                        .push(lasting(EffectKind::Summoned { unit: id, prey }, turns));
                    Some(Place::Point(*p))
                }
                Err(why) => {
                    turn.events.push(Event::Magic(MagicEvent::NoEffect {
                        spell: spell_name(spell).into(),
                        why,
                    }));
                    None
                }
            }
        }
        (Spell::EarthDemon, Aim::Point(p)) => match landslide(&turn.table, *p) {
            Some(points) => {
                let caught: Vec<Unit> = turn
                    .table
                    .units
                    .values()
                    .filter(|u| {
                        u.status.is_present()
                            && !u.kind.is_single_figure()
                            && crate::geometry::footprint_meets_polygon(&u.footprint(), &points)
                    })
                    .cloned()
                    .collect();
                let hill_side = (points[0] + points[1]) / 2.0;
                turn.table.terrain.push(Terrain {
                    kind: TerrainKind::Hill { contours: 1 },
                    points: points.clone(),
                });
                turn.events.push(Event::Magic(MagicEvent::Landslide {
                    at: [p.x, p.y],
                    caught: caught.iter().map(|u| u.name.clone()).collect(),
                }));
                turn.table.effects.push(lasting(
                    EffectKind::Landslide {
                        points: points.clone(),
                    },
                    Some(1),
                ));
                for u in &caught {
                    let face = u.formation.face_at(u.footprint().arc_of(hill_side));
                    magic_charge(
                        turn,
                        options,
                        dice,
                        spell,
                        &u.id,
                        EARTH_DEMON_FIGURES,
                        face,
                        effect_key(spell, &u.id),
                    )?;
                    struck.push(u.id.clone());
                }
                Some(Place::Units(caught.iter().map(Unit::footprint).collect()))
            }
            None => {
                turn.events.push(Event::Magic(MagicEvent::NoEffect {
                    spell: spell_name(spell).into(),
                    why: "there is no hill of 2 contours within 3 inches of that place".into(),
                }));
                None
            }
        },
        (Spell::BlackSlumber | Spell::HelmOfDarkness, Aim::Unit(id)) => {
            let t = turn.table.units[id].clone();
            let turns = u32::from(roll(dice, effect_key(spell, id), &mut turn.events)?);
            let kind = if spell == Spell::BlackSlumber {
                EffectKind::Slumber { hero: id.clone() }
            } else {
                EffectKind::Blinded {
                    commander: id.clone(),
                }
            };
            turn.table.effects.push(lasting(kind, Some(turns)));
            turn.events.push(Event::Magic(MagicEvent::Spellbound {
                unit: id.clone(),
                name: t.name.clone(),
                spell: spell_name(spell).into(),
                turns,
            }));
            let with = t
                .attached_to
                .clone()
                .and_then(|a| turn.table.units.get(&a).cloned());
            match with {
                Some(u) => {
                    struck.push(u.id.clone());
                    Some(Place::Units(vec![u.footprint()]))
                }
                None => Some(Place::Point(t.front)),
            }
        }
        (spell, aim) => {
            turn.events.push(Event::Magic(MagicEvent::NoEffect {
                spell: spell_name(spell).into(),
                why: format!("it cannot be cast {}", describe(&turn.table, aim)),
            }));
            None
        }
    };
    if let Some(place) = place.filter(|_| causes_tests(spell)) {
        fear(turn, w, spell, &struck, &place);
    }
    Ok(())
}

/// A magic charge (§10): `figures` heavy cavalry with their charge bonus
/// strike `face` of the target; its average die is a normal die read as
/// the book says (§4: 1 is 3, 6 is 4; ruling S-6). The target does not strike back.
#[allow(clippy::too_many_arguments)]
fn magic_charge(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    spell: Spell,
    target: &str,
    figures: u32,
    face: Face,
    key: DiceKey,
) -> Result<(), DiceError> {
    let d6 = roll(dice, key, &mut turn.events)?;
    let die = average_from_normal_die(d6);
    let mut modifiers = vec![MeleeModifier::Charge(charge_bonus(UnitType::HeavyCavalry))];
    match face {
        Face::Flank => modifiers.push(MeleeModifier::Flank),
        Face::Rear => modifiers.push(MeleeModifier::Rear),
        Face::Front => {}
    }
    let sum: i32 = modifiers.iter().map(|m| m.value()).sum();
    let n = casualties(die, sum, figures, options.figure_rounding);
    let t = &turn.table.units[target];
    turn.events.push(Event::Magic(MagicEvent::MagicCharge {
        spell: spell_name(spell).into(),
        unit: t.id.clone(),
        name: t.name.clone(),
        figures,
        face,
        die,
        modifiers: modifiers
            .iter()
            .map(|m| (m.name().to_string(), m.value()))
            .collect(),
        casualties: n,
    }));
    take_losses(turn, target, n);
    Ok(())
}

/// Raise ghosts or legions, or call beasts, with their front centre at `p`
/// (ruling S-8): ghosts and legions face as the wizard does, beasts face
/// the nearest enemy; the ground must be clear.
fn raise(turn: &mut TurnState, w: &Unit, spell: Spell, p: DVec2) -> Result<UnitId, String> {
    let table = &turn.table;
    let in_woods = table
        .terrain
        .iter()
        .any(|t| t.kind == TerrainKind::Woods && point_in_polygon(p, &t.points));
    let (name, figures, class, traits) = match spell {
        Spell::ArmyOfGhosts => (
            format!("Ghosts of {}", w.name),
            GHOST_FIGURES,
            Class::A,
            vec![],
        ),
        Spell::LegionsOfTheDead => (
            "Legion of the Dead".to_string(),
            LEGION_FIGURES,
            Class::B,
            vec![Trait::Dead],
        ),
        _ => {
            let edge = p.x.min(p.y).min(table.width - p.x).min(table.depth - p.y);
            if !in_woods && edge > CALLING_EDGE {
                return Err("the beasts enter at a side edge, or wolves from woods".into());
            }
            let beasts = if in_woods { "Wolves" } else { "Serpents" };
            (
                format!("{beasts} of {}", w.name),
                CALLING_FIGURES,
                Class::A,
                vec![Trait::Beast],
            )
        }
    };
    let id = {
        let base = crate::games::hyborian::orders::names::key(&name);
        let mut id = base.clone();
        let mut n = 2;
        while table.units.contains_key(&id) {
            id = format!("{base}{n}");
            n += 1;
        }
        id
    };
    let (files, ranks) = files_and_ranks(UnitType::LightInfantry, figures, None, Some(2));
    let mut u = Unit {
        id: id.clone(),
        side: w.side.clone(),
        name,
        number: table.units.values().map(|u| u.number).max().unwrap_or(0) + 1,
        kind: UnitType::LightInfantry,
        class,
        figures,
        original: figures,
        weapons: vec![],
        traits,
        formation: Formation::Line,
        files,
        ranks,
        front: p,
        facing: w.facing,
        status: Status::Ready,
        in_melee_with: Default::default(),
        attached_to: None,
        spell_points: None,
        mounted: false,
    };
    if spell == Spell::TheCalling {
        if let Some(e) = nearest_enemy(table, &u) {
            u.facing = bearing_of(e.footprint().nearest_point(p) - p);
        }
    }
    let fp = u.footprint();
    if let Some(o) = table.units.values().find(|o| {
        o.status.is_present() && !o.kind.is_single_figure() && o.footprint().overlaps(&fp)
    }) {
        return Err(format!("{} stand where they would rise", o.name));
    }
    turn.events.push(Event::Magic(MagicEvent::Risen {
        unit: id.clone(),
        name: u.name.clone(),
        figures,
        at: [p.x, p.y],
    }));
    turn.table.units.insert(id.clone(), u);
    Ok(id)
}

fn nearest_enemy<'a>(table: &'a Table, u: &Unit) -> Option<&'a Unit> {
    table
        .units
        .values()
        .filter(|e| e.side != u.side && e.status.is_present() && !e.kind.is_single_figure())
        .min_by(|a, b| {
            let fp = u.footprint();
            a.footprint()
                .distance(&fp)
                .total_cmp(&b.footprint().distance(&fp))
                .then(a.id.cmp(&b.id))
        })
}

/// The Calling's beasts at the start of phase 1 (Appendix II; ruling S-9):
/// any not yet in melee run straight at the nearest enemy unit, up to a
/// light-foot move, and strike the side nearest them, with no charge bonus.
fn hunt(turn: &mut TurnState) {
    let hunters: Vec<UnitId> = turn
        .table
        .effects
        .iter()
        .filter_map(|e| match &e.kind {
            EffectKind::Summoned {
                unit,
                prey: Some(_),
            } => Some(unit.clone()),
            _ => None,
        })
        .collect();
    for id in hunters {
        let Some(b) = turn.table.units.get(&id).cloned() else {
            continue;
        };
        if !b.status.is_present() || !b.in_melee_with.is_empty() {
            continue;
        }
        let Some(prey) = nearest_enemy(&turn.table, &b).cloned() else {
            continue;
        };
        let pfp = prey.footprint();
        let to = pfp.nearest_point(b.front);
        let reach = allowance(
            UnitType::LightInfantry,
            Formation::Line,
            Pace::Normal,
            false,
        );
        let d = b.front.distance(to);
        let facing = if d > EPSILON {
            bearing_of(to - b.front)
        } else {
            b.facing
        };
        let caught = d <= reach + EPSILON;
        let front = if caught {
            to
        } else {
            b.front + (to - b.front) * (reach / d)
        };
        if let Some(u) = turn.table.units.get_mut(&id) {
            u.front = front;
            u.facing = facing;
        }
        let r = turn.record.unit_mut(&id);
        r.phase1.moved = true;
        r.phase1.distance = d.min(reach);
        turn.events.push(Event::Magic(MagicEvent::BeastsHunt {
            unit: id.clone(),
            name: b.name.clone(),
            prey: prey.id.clone(),
            prey_name: prey.name.clone(),
            struck: caught,
        }));
        if caught {
            let face = prey.formation.face_at(pfp.arc_of(b.front));
            turn.record.unit_mut(&id).contacts.push(Contact {
                phase: Phase::One,
                other: prey.id.clone(),
                face,
                striker: true,
                charging: false,
                clock: 0.0,
            });
            turn.record.unit_mut(&prey.id).contacts.push(Contact {
                phase: Phase::One,
                other: id.clone(),
                face: Face::Front,
                striker: false,
                charging: false,
                clock: 0.0,
            });
            if let Some(u) = turn.table.units.get_mut(&id) {
                u.in_melee_with.insert(prey.id.clone());
            }
            if let Some(u) = turn.table.units.get_mut(&prey.id) {
                u.in_melee_with.insert(id.clone());
            }
        }
    }
}

/// The landslide off the 2-contour hill nearest `p` (ruling S-7): the
/// hill's side nearest the stated place slides 3 inches outward.
/// Returns the new ground (hill side first, then the outer edge).
fn landslide(table: &Table, p: DVec2) -> Option<Vec<DVec2>> {
    let mut best: Option<(f64, DVec2, DVec2, DVec2)> = None;
    for t in &table.terrain {
        let TerrainKind::Hill { contours } = t.kind else {
            continue;
        };
        if contours < EARTH_DEMON_CONTOURS || t.points.len() < 3 {
            continue;
        }
        let centroid = t.points.iter().copied().sum::<DVec2>() / t.points.len() as f64;
        for i in 0..t.points.len() {
            let (a, b) = (t.points[i], t.points[(i + 1) % t.points.len()]);
            let d = point_segment_distance(p, a, b);
            if d <= LANDSLIDE_EXTENT + EPSILON && best.is_none_or(|x| d < x.0) {
                best = Some((d, a, b, centroid));
            }
        }
    }
    let (_, a, b, c) = best?;
    let along = (b - a).normalize_or_zero();
    let mut out = DVec2::new(along.y, -along.x);
    if out.dot((a + b) / 2.0 - c) < 0.0 {
        out = -out;
    }
    let push = out * LANDSLIDE_EXTENT;
    Some(vec![a, b, b + push, a + push])
}

/// Where a spell was aimed, in words for the report: "at Knights",
/// "at (30.0, 20.0)", "along (30.0, 20.0) to (42.0, 20.0)".
fn describe(table: &Table, aim: &Aim) -> String {
    match aim {
        Aim::Unit(id) => format!(
            "at {}",
            table.units.get(id).map_or(id.as_str(), |u| u.name.as_str())
        ),
        Aim::Point(p) => format!("at ({:.1}, {:.1})", p.x, p.y),
        Aim::Line(a, b) => format!("along ({:.1}, {:.1}) to ({:.1}, {:.1})", a.x, a.y, b.x, b.y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_segments() {
        let p = |x, y| DVec2::new(x, y);
        assert!(segments_meet(
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(5.0, -1.0),
            p(5.0, 1.0)
        ));
        assert!(!segments_meet(
            p(0.0, 0.0),
            p(4.0, 0.0),
            p(5.0, -1.0),
            p(5.0, 1.0)
        ));
    }

    #[test]
    fn landslide_pushes_outward() {
        let setup: crate::games::hyborian::table::setup::Setup = toml::from_str(
            "[table]\nwidth = 72.0\ndepth = 48.0\n[[terrain]]\nkind = \"hill\"\ncontours = 2\npoints = [[20.0, 20.0], [40.0, 20.0], [40.0, 30.0], [20.0, 30.0]]\n",
        )
        .unwrap();
        let table = Table::from_setup(&setup).unwrap();
        let s = landslide(&table, DVec2::new(30.0, 19.0)).unwrap();
        assert!(s[2].y < 20.0 && (s[2].y - 17.0).abs() < 1e-9);
        assert!(landslide(&table, DVec2::new(30.0, 10.0)).is_none());
    }
}
