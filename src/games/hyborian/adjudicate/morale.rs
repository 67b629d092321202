//! Morale tests (§5, §8, §9): when they are taken, their modifiers, the
//! percentile roll, the severity of a failure, and what it does — fall
//! back, rout, surrender, change sides — with the tests it calls on the
//! friends nearby.
//!
//! # When and in what order
//! Tests are taken at three points of a turn, each a call from the pipeline:
//! - [`rally`], at the start of the turn: every routing unit's rally test;
//! - [`pre_melee`], at the start of the melee step: units that entered a
//!   melee this turn (both sides; a newcomer and the unit it joined), a
//!   routing unit attacked again, and the tests other steps called for
//!   (magic) before melee;
//! - [`post_melee`], the morale step: the losers of a round, units that
//!   first reached 1/3, 1/2 or 2/3 losses this turn (by fire or melee), and
//!   the tests other steps called for during melee (breakthrough).
//!
//! At each point the tests go in waves. A wave tests its units in id order
//! (every unit once, with every reason it has merged into one test), then
//! carries out the failures in id order; the friends those failures fall
//! back or rout past, and the troops of a commander lost, make the next
//! wave. A unit tests at most once at a point and at most twice a turn
//! besides its rally test (§8; rulings M-1, M-3). Units with
//! [`Trait::Dead`] never test.

use super::events::Event;
use super::leaders;
use super::losses::take_losses;
use super::record::{MeleeResult, MoraleCall, MoraleCause};
use super::retreat::{path_meets_friend, retreat, Retreating};
use super::{roll, TurnState};
use crate::games::hyborian::dice::{Dice, DiceError, DiceKey};
use crate::games::hyborian::rules::morale::{
    base_chance, fails, loss_steps, rout_loss, severity, thresholds_reached, MoraleModifier,
    Severity, NEARBY, RALLY_STATUS_TURNS, ROUT_ON_CHARGE_MULTIPLE, TESTS_PER_TURN,
};
use crate::games::hyborian::rules::movement::{allowance, Pace};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::{Formation, Trait, UnitType};
use crate::games::hyborian::table::{SideId, Status, Table, TerrainKind, Unit, UnitId};
use crate::geometry::{heading, normalize_bearing, rotate_cw, Edge, Face, EPSILON};
use glam::DVec2;
use std::collections::{BTreeMap, BTreeSet};

/// What the morale step has done so far this turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// Tests taken by each unit this turn (the K of `morale:UNIT:K`).
    taken: BTreeMap<UnitId, u32>,
    /// Tests that count toward the two a turn (all but the rally test).
    counted: BTreeMap<UnitId, u32>,
    /// Units given a new status this turn (their fall-back turns start next turn).
    status_set: BTreeSet<UnitId>,
    /// Sides whose commander was captured or left the table, not yet tested for.
    pub(crate) commander_lost: BTreeSet<SideId>,
}

/// Why a unit tests.
#[derive(Debug, Clone, PartialEq)]
enum Trigger {
    EnteringMelee,
    /// A routing unit attacked again (§8).
    AttackedWhileRouting,
    LostMelee,
    /// First reached 1/3, 1/2 or 2/3 losses this turn.
    Threshold,
    FellBackPast(UnitId),
    RoutedPast(UnitId),
    CommanderLost,
    Called(MoraleCall),
    Rally,
}

impl Trigger {
    fn cause(&self, table: &Table) -> String {
        let name = |id: &str| {
            table
                .units
                .get(id)
                .map_or(id.to_string(), |u| u.name.clone())
        };
        match self {
            Trigger::EnteringMelee => "entering melee".into(),
            Trigger::AttackedWhileRouting => "attacked while routing".into(),
            Trigger::LostMelee => "lost the melee".into(),
            Trigger::Threshold => "losses reached a threshold".into(),
            Trigger::FellBackPast(id) => format!("{} fell back nearby", name(id)),
            Trigger::RoutedPast(id) => format!("{} routed nearby", name(id)),
            Trigger::CommanderLost => "commander lost".into(),
            Trigger::Called(c) => match &c.cause {
                MoraleCause::Magic { spell, .. } => format!("magic ({spell})"),
                MoraleCause::BrokenThrough { by } => format!("broken through by {}", name(by)),
                MoraleCause::Trampled { by } => format!("trampled by {}", name(by)),
            },
            Trigger::Rally => "rally".into(),
        }
    }
}

use super::events::TestPoint as Point;

type Triggers = BTreeMap<UnitId, Vec<Trigger>>;

fn add(t: &mut Triggers, id: &str, why: Trigger) {
    let list = t.entry(id.to_string()).or_default();
    if !list.contains(&why) {
        list.push(why);
    }
}

/// Move the morale calls other steps left in the record into `t`. Before
/// the melee, a breakthrough's call waits for the post-melee point (ruling
/// M-1), and so does magic's when the game takes it there (option
/// `magic_tests_after_melee`, ruling S-3).
fn take_calls(turn: &mut TurnState, t: &mut Triggers, point: Point, options: &GameOptions) {
    let waits = |c: &MoraleCall| {
        point == Point::PreMelee
            && match c.cause {
                MoraleCause::BrokenThrough { .. } => true,
                MoraleCause::Magic { .. } => options.magic_tests_after_melee,
                MoraleCause::Trampled { .. } => false,
            }
    };
    for (id, r) in turn.record.units.iter_mut() {
        let (later, now): (Vec<_>, Vec<_>) = std::mem::take(&mut r.morale_calls)
            .into_iter()
            .partition(|c| waits(c));
        r.morale_calls = later;
        for c in now {
            add(t, id, Trigger::Called(c));
        }
    }
}

/// The troops of every side whose commander was lost test at −20 % (§9).
fn take_commander_losses(turn: &mut TurnState, t: &mut Triggers) {
    for side in std::mem::take(&mut turn.morale.commander_lost) {
        for u in turn.table.units_of(&side) {
            if u.status.is_present() && !u.kind.is_single_figure() {
                add(t, &u.id, Trigger::CommanderLost);
            }
        }
    }
}

/// Start of the turn: the rally test of every routing unit (§8).
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn rally(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
) -> Result<(), DiceError> {
    let routing: Vec<UnitId> = turn
        .table
        .units
        .values()
        .filter(|u| u.status == Status::Rout)
        .map(|u| u.id.clone())
        .collect();
    let mut t = Triggers::new();
    for id in routing {
        if turn.table.morale.routing_on.contains(&id) {
            rout_on(turn, options, dice, &id)?;
        } else {
            add(&mut t, &id, Trigger::Rally);
        }
    }
    take_commander_losses(turn, &mut t);
    test_point(turn, options, dice, Point::Rally, t)
}

/// A routing unit that failed to rally routs on at twice its charge speed,
/// straight on the way it faces (§8); mahouts kill routing beasts that
/// would run into their friends (§5). Returns the footprints it swept.
fn rout_on(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    id: &str,
) -> Result<Vec<crate::geometry::Footprint>, DiceError> {
    let u = turn.table.units[id].clone();
    turn.table.morale.routing_on.insert(id.to_string());
    let charge = allowance(
        u.kind,
        u.formation,
        Pace::Charge,
        options.horse_archer_column_bonus,
    );
    let distance = ROUT_ON_CHARGE_MULTIPLE * charge;
    let dir = heading(u.facing);
    if u.kind == UnitType::WoollyMammoth
        && path_meets_friend(&turn.table, &u, dir, distance, u.facing)
    {
        turn.events.push(Event::MahoutsKilled {
            unit: u.id.clone(),
            name: u.name.clone(),
        });
        if let Some(x) = turn.table.units.get_mut(id) {
            x.status = Status::Eliminated;
        }
        leaders::host_gone(turn, id, false);
        return Ok(Vec::new());
    }
    leave_melee(&mut turn.table, id);
    let done = retreat(
        turn,
        options,
        dice,
        id,
        dir,
        distance,
        Retreating::Rout,
        u.figures,
    )?;
    turn.events.push(Event::Routed {
        unit: u.id.clone(),
        name: u.name.clone(),
        distance: done.distance,
        again: true,
    });
    if done.left_table {
        off_table(turn, id);
    }
    crate::games::hyborian::adjudicate::movement::place_attached(&mut turn.table);
    Ok(done.swept)
}

/// A routing unit carried off the edge: it is gone, with the leaders who stayed with it.
fn off_table(turn: &mut TurnState, id: &str) {
    let Some(x) = turn.table.units.get_mut(id) else {
        return;
    };
    x.status = Status::OffTable;
    x.in_melee_with.clear();
    turn.events.push(Event::LeftTable {
        unit: x.id.clone(),
        name: x.name.clone(),
    });
    turn.table.morale.routing_on.remove(id);
    leaders::host_gone(turn, id, false);
}

/// Before the melee round: the pre-melee tests (§8).
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn pre_melee(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
) -> Result<(), DiceError> {
    leaders::captures(turn);
    let mut t = Triggers::new();
    for u in turn.table.units.values().filter(|u| u.status.is_present()) {
        let contacted = turn.record.unit(&u.id).is_some_and(|r| {
            r.contacts
                .iter()
                .any(|c| u.in_melee_with.contains(&c.other))
        });
        if contacted {
            let why = if u.status == Status::Rout {
                Trigger::AttackedWhileRouting
            } else {
                Trigger::EnteringMelee
            };
            add(&mut t, &u.id, why);
        }
    }
    take_calls(turn, &mut t, Point::PreMelee, options);
    take_commander_losses(turn, &mut t);
    test_point(turn, options, dice, Point::PreMelee, t)
}

/// Units entering a melee in the middle of the melee step — heavy cavalry
/// that broke through meeting a unit behind (§4) — take their pre-melee
/// tests before that round: the newcomer and the unit it meets (§8, ruling
/// C-26).
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn entering_melee(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    units: &BTreeSet<UnitId>,
) -> Result<(), DiceError> {
    let mut t = Triggers::new();
    for id in units {
        if let Some(u) = turn.table.units.get(id).filter(|u| u.status.is_present()) {
            let why = if u.status == Status::Rout {
                Trigger::AttackedWhileRouting
            } else {
                Trigger::EnteringMelee
            };
            add(&mut t, id, why);
        }
    }
    test_point(turn, options, dice, Point::PreMelee, t)
}

/// After every melee: the post-melee tests (§8), then fall-back status
/// runs down for units that stood the turn.
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn post_melee(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
) -> Result<(), DiceError> {
    let mut t = Triggers::new();
    for u in turn.table.units.values().filter(|u| u.status.is_present()) {
        if turn.record.unit(&u.id).and_then(|r| r.melee) == Some(MeleeResult::Lost) {
            add(&mut t, &u.id, Trigger::LostMelee);
        }
        let before = turn
            .start
            .units
            .get(&u.id)
            .map_or(u.original, |s| s.figures);
        let lost = |now: u32| u.original.saturating_sub(now);
        if thresholds_reached(lost(u.figures), u.original)
            > thresholds_reached(lost(before), u.original)
        {
            add(&mut t, &u.id, Trigger::Threshold);
        }
    }
    take_calls(turn, &mut t, Point::PostMelee, options);
    leaders::captures(turn);
    take_commander_losses(turn, &mut t);
    test_point(turn, options, dice, Point::PostMelee, t)?;
    recover(turn);
    let table = &mut turn.table;
    let still: BTreeSet<UnitId> = table
        .morale
        .routing_on
        .iter()
        .filter(|id| {
            table
                .units
                .get(*id)
                .is_some_and(|u| u.status == Status::Rout)
        })
        .cloned()
        .collect();
    table.morale.routing_on = still;
    Ok(())
}

/// Fall-back status: a unit that stood a full turn in it has one turn
/// fewer to go (§8); status given this turn starts counting next turn.
fn recover(turn: &mut TurnState) {
    for u in turn.table.units.values_mut() {
        if turn.morale.status_set.contains(&u.id) {
            continue;
        }
        if let Status::FallBack(n) = u.status {
            if n <= 1 {
                u.status = Status::Ready;
                turn.events.push(Event::Recovered {
                    unit: u.id.clone(),
                    name: u.name.clone(),
                });
            } else {
                u.status = Status::FallBack(n - 1);
            }
        }
    }
}

/// Whether a unit takes a test at all.
fn tests_morale(u: &Unit) -> bool {
    u.status.is_present() && !u.kind.is_single_figure() && !u.has_trait(Trait::Dead)
}

/// Test the units of `initial`, then the friends their failures call, wave by wave.
fn test_point(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    point: Point,
    initial: Triggers,
) -> Result<(), DiceError> {
    let mut pending = initial;
    let mut tested: BTreeSet<UnitId> = BTreeSet::new();
    while !pending.is_empty() {
        let wave = std::mem::take(&mut pending);
        let mut failed = Vec::new();
        for (id, why) in wave {
            if tested.contains(&id) {
                continue;
            }
            let Some(u) = turn.table.units.get(&id).filter(|u| tests_morale(u)) else {
                continue;
            };
            let routing = u.status == Status::Rout;
            // Routing units take only their rally test and the test of a
            // routing unit attacked again (ruling M-9).
            if routing
                && !why
                    .iter()
                    .any(|w| matches!(w, Trigger::Rally | Trigger::AttackedWhileRouting))
            {
                continue;
            }
            if point != Point::Rally
                && turn.morale.counted.get(&id).copied().unwrap_or(0) >= TESTS_PER_TURN
            {
                continue;
            }
            tested.insert(id.clone());
            let k = take_test(turn, &id, point);
            if test(turn, dice, &id, &why, point, k)? {
                stood(turn, &id, &why);
            } else {
                failed.push((id, why, k));
            }
        }
        for (id, why, k) in failed {
            if let Some(nearby) = fail(turn, options, dice, &id, &why, k)? {
                for (f, trig) in nearby {
                    if !tested.contains(&f) {
                        add(&mut pending, &f, trig);
                    }
                }
            }
        }
        // Calls made by these failures (friends trampled by chariots) join the next wave.
        take_calls(turn, &mut pending, point, options);
        leaders::captures(turn);
        take_commander_losses(turn, &mut pending);
    }
    Ok(())
}

/// Count a test; returns its K.
fn take_test(turn: &mut TurnState, id: &str, point: Point) -> u32 {
    let k = turn.morale.taken.entry(id.to_string()).or_default();
    *k += 1;
    let k = *k;
    if point != Point::Rally {
        *turn.morale.counted.entry(id.to_string()).or_default() += 1;
    }
    k
}

/// Roll one test; true if the unit stood.
fn test(
    turn: &mut TurnState,
    dice: &mut dyn Dice,
    id: &str,
    why: &[Trigger],
    point: Point,
    k: u32,
) -> Result<bool, DiceError> {
    let u = &turn.table.units[id];
    let base = base_chance(u.class);
    let mods = modifiers(turn, u, why, point);
    let chance = base + mods.iter().map(|m| m.1).sum::<i32>();
    let causes = why.iter().map(|w| w.cause(&turn.table)).collect();
    let (unit, name) = (u.id.clone(), u.name.clone());
    let r = roll(
        dice,
        DiceKey::Morale {
            unit: unit.clone(),
            k,
        },
        &mut turn.events,
    )?;
    let passed = !fails(r, chance);
    turn.events.push(Event::MoraleTested {
        unit,
        name,
        causes,
        base,
        modifiers: mods,
        chance,
        roll: r,
        passed,
        point,
    });
    Ok(passed)
}

/// Contours of hill under a footprint (0 off hills).
fn contours(table: &Table, fp: &crate::geometry::Footprint) -> u8 {
    table
        .terrain
        .iter()
        .filter_map(|t| match t.kind {
            TerrainKind::Hill { contours } if t.area_meets(fp) => Some(contours),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// The nearest present enemy unit (not a single figure).
fn nearest_enemy<'a>(table: &'a Table, u: &Unit) -> Option<&'a Unit> {
    let fp = u.footprint();
    table
        .units
        .values()
        .filter(|o| o.side != u.side && o.status.is_present() && !o.kind.is_single_figure())
        .min_by(|a, b| {
            a.footprint()
                .distance(&fp)
                .total_cmp(&b.footprint().distance(&fp))
                .then_with(|| a.id.cmp(&b.id))
        })
}

/// The modifiers of §8 (and §5, §9) that apply, as (name, percent).
fn modifiers(turn: &TurnState, u: &Unit, why: &[Trigger], point: Point) -> Vec<(String, i32)> {
    use MoraleModifier as M;
    let table = &turn.table;
    let mut m: Vec<MoraleModifier> = Vec::new();
    let steps = loss_steps(u.figures, u.original);
    if u.figures >= u.original {
        m.push(M::FullStrength);
    } else if steps > 0 {
        m.push(M::Losses(steps));
    }
    if point == Point::PostMelee {
        match turn.record.unit(&u.id).and_then(|r| r.melee) {
            Some(MeleeResult::Lost) => m.push(M::LostMelee),
            Some(MeleeResult::Won) => m.push(M::WonMelee),
            _ => {}
        }
    }
    if point == Point::PreMelee {
        let mine = turn.record.unit(&u.id);
        let charged = mine.is_some_and(|r| {
            r.contacts
                .iter()
                .any(|c| c.charging && u.in_melee_with.contains(&c.other))
        });
        if charged {
            m.push(M::Charging);
            let start = turn.start.units.get(&u.id).unwrap_or(u).footprint();
            let above = u
                .in_melee_with
                .iter()
                .filter_map(|o| table.units.get(o))
                .all(|o| contours(table, &o.footprint()) < contours(table, &start));
            if above {
                m.push(M::ChargingDownhill);
            }
        }
        for o in u.in_melee_with.iter().filter_map(|o| table.units.get(o)) {
            let theirs: Vec<_> = turn
                .record
                .unit(&o.id)
                .map(|r| r.contacts.iter().filter(|c| c.other == u.id).collect())
                .unwrap_or_default();
            if theirs.iter().any(|c| c.charging) {
                if u.kind.is_infantry() && o.kind.is_cavalry() {
                    m.push(M::InfantryChargedByCavalry);
                }
                if o.kind.is_chariot() || o.kind == UnitType::WoollyMammoth {
                    m.push(M::ChargedByMammothsOrChariots);
                }
            }
            if u.formation != Formation::Ring {
                for c in theirs.iter().filter(|c| c.striker) {
                    match c.face {
                        Face::Flank => m.push(M::AttackedInFlank),
                        Face::Rear => m.push(M::AttackedInRear),
                        Face::Front => {}
                    }
                }
            }
        }
    }
    let here = u.footprint();
    let mine = contours(table, &here);
    let theirs: Vec<u8> = if u.in_melee_with.is_empty() {
        nearest_enemy(table, u)
            .map(|o| contours(table, &o.footprint()))
            .into_iter()
            .collect()
    } else {
        u.in_melee_with
            .iter()
            .filter_map(|o| table.units.get(o))
            .map(|o| contours(table, &o.footprint()))
            .collect()
    };
    if mine > 0 && theirs.iter().all(|c| *c < mine) {
        m.push(M::Uphill);
    }
    if table
        .terrain
        .iter()
        .any(|t| t.kind == TerrainKind::Woods && t.area_meets(&here))
    {
        m.push(M::InWoods);
    }
    match u.status {
        Status::FallBack(_) => m.push(M::FallBackStatus),
        Status::Rout => m.push(M::RoutStatus),
        _ => {}
    }
    // A sleeping hero or a blinded commander adds nothing (§10, ruling S-13).
    for l in table.units.values().filter(|l| {
        l.attached_to.as_deref() == Some(u.id.as_str())
            && l.status.is_present()
            && !super::spells::spellbound(table, &l.id)
    }) {
        match l.kind {
            UnitType::Hero => m.push(M::HeroWithUnit),
            UnitType::Superhero => m.push(M::SuperheroWithUnit),
            UnitType::Commander => m.push(M::CommanderWithUnit),
            _ => {}
        }
    }
    for w in why {
        match w {
            Trigger::FellBackPast(_) => m.push(M::FriendFellBackPast),
            Trigger::RoutedPast(_) => m.push(M::RoutedPast),
            Trigger::CommanderLost => m.push(M::CommanderLost),
            _ => {}
        }
    }
    // Each modifier of the table once, however many causes give it (ruling M-3).
    m.sort();
    m.dedup();
    let mut out: Vec<(String, i32)> = m
        .into_iter()
        .map(|x| match x {
            M::Losses(s) => (format!("{}% lost", s * 10), x.value()),
            _ => (x.name().to_string(), x.value()),
        })
        .collect();
    for w in why {
        if let Trigger::Called(c) = w {
            out.push((w.cause(table), c.modifier));
        }
    }
    out
}

/// A test passed: a routing unit attacked stands at bay; a routing unit
/// rallies (§8).
fn stood(turn: &mut TurnState, id: &str, why: &[Trigger]) {
    let Some(u) = turn.table.units.get_mut(id) else {
        return;
    };
    if why.contains(&Trigger::Rally) {
        // Turn about to face the enemy; two turns of fall-back status,
        // this turn the first of them.
        let f = u.footprint();
        u.front = f.centre - f.ahead * f.half_depth;
        u.facing = normalize_bearing(u.facing + 180.0);
        u.status = Status::FallBack(RALLY_STATUS_TURNS);
        turn.events.push(Event::Rallied {
            unit: u.id.clone(),
            name: u.name.clone(),
        });
        crate::games::hyborian::adjudicate::movement::place_attached(&mut turn.table);
    } else if why.contains(&Trigger::AttackedWhileRouting) {
        u.status = Status::FallBack(RALLY_STATUS_TURNS);
        turn.morale.status_set.insert(id.to_string());
        turn.events.push(Event::StoodAtBay {
            unit: u.id.clone(),
            name: u.name.clone(),
        });
    }
}

/// The edges of `u` its melee opponents are on (for surrender, §8).
fn attacked_edges(table: &Table, u: &Unit) -> BTreeSet<u8> {
    let fp = u.footprint();
    u.in_melee_with
        .iter()
        .filter_map(|o| table.units.get(o))
        .map(|o| match fp.arc_of(o.footprint().centre) {
            _ if u.formation == Formation::Ring => 0,
            Edge::Front => 0,
            Edge::Right => 1,
            Edge::Rear => 2,
            Edge::Left => 3,
        })
        .collect()
}

/// Straight away from the enemy (§8; ruling M-6): a unit in melee goes
/// straight back from its front, 45° off it away from a flank attacker, or
/// straight away from attackers on its flank or rear only; a unit out of
/// melee goes straight back — unless the nearest enemy is behind it (cavalry
/// that broke through), and then straight away from that enemy.
fn away(table: &Table, u: &Unit) -> DVec2 {
    let back = -heading(u.facing);
    let edges = attacked_edges(table, u);
    if u.in_melee_with.is_empty() {
        let fp = u.footprint();
        let nearest = table
            .units
            .values()
            .filter(|o| o.side != u.side && o.status.is_present() && !o.kind.is_single_figure())
            .map(|o| {
                (
                    o.footprint().centre,
                    o.footprint().centre.distance(fp.centre),
                )
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        return match nearest {
            Some((at, _)) if fp.arc_of(at) == Edge::Rear => (fp.centre - at).normalize_or(back),
            _ => back,
        };
    }
    if edges.contains(&0) && edges.len() == 1 {
        return back;
    }
    if edges.contains(&0) {
        // Front and a flank: 45° from straight back, away from the flank.
        let turn = if edges.contains(&3) { -45.0 } else { 45.0 };
        return rotate_cw(back, turn);
    }
    let c = u.footprint().centre;
    let sum: DVec2 = u
        .in_melee_with
        .iter()
        .filter_map(|o| table.units.get(o))
        .map(|o| (c - o.footprint().centre).normalize_or_zero())
        .sum();
    if sum.length() < EPSILON {
        back
    } else {
        sum.normalize()
    }
}

/// Leave every melee the unit is in.
fn leave_melee(table: &mut Table, id: &str) -> BTreeSet<UnitId> {
    let partners = table
        .units
        .get_mut(id)
        .map(|u| std::mem::take(&mut u.in_melee_with))
        .unwrap_or_default();
    for p in &partners {
        if let Some(o) = table.units.get_mut(p) {
            o.in_melee_with.remove(id);
        }
    }
    partners
}

/// A failed test: surrender, change sides, or the severity roll and what
/// it brings (§8). Returns the friends called to test.
fn fail(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    id: &str,
    why: &[Trigger],
    k: u32,
) -> Result<Option<Vec<(UnitId, Trigger)>>, DiceError> {
    // Trampled away or taken earlier in this wave: nothing left to carry out.
    let Some(u) = turn
        .table
        .units
        .get(id)
        .filter(|u| u.status.is_present())
        .cloned()
    else {
        return Ok(None);
    };
    let edges = attacked_edges(&turn.table, &u);
    let surrounded =
        (edges.contains(&1) && edges.contains(&3)) || (edges.contains(&0) && edges.contains(&2));
    if surrounded {
        let partners = leave_melee(&mut turn.table, id);
        let to = partners
            .iter()
            .filter_map(|p| turn.table.units.get(p))
            .map(|p| p.side.clone())
            .next()
            .unwrap_or_else(|| u.side.clone());
        let unit = turn.table.units.get_mut(id).expect("present");
        if u.has_trait(Trait::FreeCompany) {
            unit.side = to.clone();
            unit.status = Status::Ready;
            turn.events.push(Event::ChangedSides {
                unit: u.id.clone(),
                name: u.name.clone(),
                to,
            });
            leaders::host_gone(turn, id, false);
        } else {
            unit.status = Status::Surrendered;
            turn.events.push(Event::Surrendered {
                unit: u.id.clone(),
                name: u.name.clone(),
            });
            leaders::host_gone(turn, id, true);
        }
        turn.morale.status_set.insert(id.to_string());
        return Ok(Some(Vec::new()));
    }
    let routing = u.status == Status::Rout;
    let sev = if routing {
        Severity::Rout
    } else {
        let r = roll(
            dice,
            DiceKey::Severity {
                unit: id.to_string(),
                k,
            },
            &mut turn.events,
        )?;
        let s = severity(r);
        turn.events.push(Event::SeverityRolled {
            unit: u.id.clone(),
            name: u.name.clone(),
            roll: r,
            severity: s.name().into(),
        });
        s
    };
    let dir = away(&turn.table, &u);
    leave_melee(&mut turn.table, id);
    let start_front = u.front;
    let start_facing = u.facing;
    turn.morale.status_set.insert(id.to_string());
    let done = if sev == Severity::Rout && why.contains(&Trigger::Rally) {
        let swept = rout_on(turn, options, dice, id)?;
        super::retreat::Retreat {
            swept,
            ..Default::default()
        }
    } else if sev == Severity::Rout {
        let crew = u.figures;
        take_losses(turn, id, rout_loss(u.figures));
        if !turn.table.units[id].status.is_present() {
            leaders::host_gone(turn, id, false);
            return Ok(Some(Vec::new()));
        }
        if let Some(x) = turn.table.units.get_mut(id) {
            x.status = Status::Rout;
        }
        leaders::unit_routs(turn, id);
        let charge = allowance(
            u.kind,
            u.formation,
            Pace::Charge,
            options.horse_archer_column_bonus,
        );
        let distance = Severity::Rout.moves() * charge;
        let done = retreat(
            turn,
            options,
            dice,
            id,
            dir,
            distance,
            Retreating::Rout,
            crew,
        )?;
        turn.events.push(Event::Routed {
            unit: u.id.clone(),
            name: u.name.clone(),
            distance: done.distance,
            again: routing,
        });
        if done.left_table {
            off_table(turn, id);
        }
        done
    } else {
        let normal = allowance(
            u.kind,
            u.formation,
            Pace::Normal,
            options.horse_archer_column_bonus,
        );
        let done = retreat(
            turn,
            options,
            dice,
            id,
            dir,
            sev.moves() * normal,
            Retreating::FallBack,
            u.figures,
        )?;
        if let Some(x) = turn.table.units.get_mut(id) {
            x.status = Status::FallBack(sev.status_turns());
        }
        turn.events.push(Event::FellBack {
            unit: u.id.clone(),
            name: u.name.clone(),
            distance: done.distance,
            turns: sev.status_turns(),
        });
        done
    };
    crate::games::hyborian::adjudicate::movement::place_attached(&mut turn.table);
    // Friends within 6 inches of the path, not in advance of the unit, test (§8).
    let ahead = heading(start_facing);
    let trig = |f: &str| {
        if sev == Severity::Rout {
            Trigger::RoutedPast(f.to_string())
        } else {
            Trigger::FellBackPast(f.to_string())
        }
    };
    let nearby = turn
        .table
        .units
        .values()
        .filter(|f| {
            f.id != id
                && (f.side == u.side || options.nearby_enemies_test)
                && tests_morale(f)
                && (f.footprint().centre - start_front).dot(ahead) <= 0.0
                && done
                    .swept
                    .iter()
                    .any(|s| s.distance(&f.footprint()) <= NEARBY)
        })
        .map(|f| (f.id.clone(), trig(id)))
        .collect();
    Ok(Some(nearby))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_read_in_the_books_terms() {
        let t = Table {
            width: 10.0,
            depth: 10.0,
            terrain: Vec::new(),
            units: BTreeMap::new(),
            turn: 1,
            ..Default::default()
        };
        assert_eq!(Trigger::LostMelee.cause(&t), "lost the melee");
        assert_eq!(Trigger::RoutedPast("x".into()).cause(&t), "x routed nearby");
    }
}
