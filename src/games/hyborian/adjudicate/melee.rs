//! One round of every melee after phase 2 movement (§4, §5): the figures
//! that fight (lapping and expansion by class in later rounds), the average
//! die and its modifiers, casualties inflicted by both sides at once, and
//! who won. The step that fights it and lets heavy cavalry that broke
//! through ride on is `adjudicate/melee_step.rs`; morale tests belong to
//! the morale step.

use super::events::Event;
use super::losses::take_losses;
use super::record::{MeleeResult, TurnRecord};
use super::TurnState;
use crate::games::hyborian::orders::plan::MeleeOrders;
use crate::games::hyborian::rules::bases::base;
use crate::games::hyborian::rules::melee::{
    casualties, category, charge_bonus, expansion_rate, fighting_strength, half, overlap_figures,
    post_charge_bonus, single_figure_weight, FigureRounding, MeleeModifier, DEEP_INFANTRY_RANKS,
    MAMMOTH_FRIGHT_RANGE, SPECIAL_CATEGORY,
};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::{Trait, UnitType, Weapon};
use crate::games::hyborian::table::geometry::CONTACT;
use crate::games::hyborian::table::Table;
use crate::games::hyborian::table::{Status, TerrainKind, Unit, UnitId};
use crate::geometry::{Edge, Face, Footprint};
use std::collections::{BTreeMap, BTreeSet};

/// One side of one pairing in a melee round, before casualties are applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Bout {
    pub unit: UnitId,
    pub opponent: UnitId,
    pub figures_fighting: u32,
    /// The unit's own figures among them (without heroes): what the next
    /// round expands from.
    pub rank_and_file: u32,
    pub modifiers: Vec<MeleeModifier>,
}

/// What this turn says about one pairing.
#[derive(Debug, Clone, Default)]
struct Pairing {
    /// The pair touched this turn: the melee's first round.
    first_round: bool,
    /// The unit charged the opponent this turn.
    charged: bool,
    /// The face of the opponent the unit struck this turn, if it struck.
    struck: Option<Face>,
    /// Terrain areas the unit charged out of from their edge (§7): they do
    /// not deny its charge bonus.
    out_of: Vec<usize>,
}

fn pairing(record: &TurnRecord, u: &str, o: &str) -> Pairing {
    let mine = record
        .unit(u)
        .map(|r| {
            r.contacts
                .iter()
                .filter(|c| c.other == o)
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let theirs = record
        .unit(o)
        .is_some_and(|r| r.contacts.iter().any(|c| c.other == u));
    let out_of = mine
        .iter()
        .find(|c| c.charging)
        .and_then(|c| {
            record
                .unit(u)
                .map(|r| r.phase(c.phase).charged_out_of.clone())
        })
        .unwrap_or_default();
    Pairing {
        first_round: !mine.is_empty() || theirs,
        charged: mine.iter().any(|c| c.charging),
        struck: mine.iter().find(|c| c.striker).map(|c| c.face),
        out_of,
    }
}

/// Casualties each unit inflicted on each opponent this turn, by
/// `(unit, opponent)`.
pub(crate) type Tally = BTreeMap<(UnitId, UnitId), u32>;

/// One round of the melees between the pairs in `only` (every melee when
/// `None`), each unit using its die of the turn: bouts, casualties inflicted
/// by both sides at once, winner and loser. Units that fought earlier this
/// turn (`earlier`) win or lose on the turn's totals (ruling C-27).
pub(crate) fn round(
    turn: &mut TurnState,
    options: &GameOptions,
    dice_of: &BTreeMap<UnitId, u8>,
    only: Option<&BTreeSet<(UnitId, UnitId)>>,
    earlier: &Tally,
) -> Tally {
    let bouts: Vec<Bout> = bouts(&turn.table, &turn.record, options, &turn.melee_orders)
        .into_iter()
        .filter(|b| only.is_none_or(|o| o.contains(&(b.unit.clone(), b.opponent.clone()))))
        .collect();
    let fighters: BTreeSet<UnitId> = bouts.iter().map(|b| b.unit.clone()).collect();
    let mut tally = Tally::new();
    for b in &bouts {
        let die = dice_of[&b.unit];
        let sum: i32 = b.modifiers.iter().map(|m| m.value()).sum();
        let n = casualties(die, sum, b.figures_fighting, options.figure_rounding);
        tally.insert((b.unit.clone(), b.opponent.clone()), n);
        turn.table
            .melee_figures
            .entry(b.unit.clone())
            .or_default()
            .insert(b.opponent.clone(), b.rank_and_file);
        let (u, o) = (&turn.table.units[&b.unit], &turn.table.units[&b.opponent]);
        turn.events.push(Event::MeleeResolved {
            unit: u.id.clone(),
            name: u.name.clone(),
            opponent: o.id.clone(),
            opponent_name: o.name.clone(),
            figures_fighting: b.figures_fighting,
            modifiers: b
                .modifiers
                .iter()
                .map(|m| (m.name().to_string(), m.value()))
                .collect(),
            die,
            casualties: n,
        });
        if b.modifiers
            .iter()
            .any(|m| matches!(m, MeleeModifier::Charge(_)))
        {
            turn.table.charge_bonus_earned.insert(b.unit.clone());
        }
    }
    // Who earned a charge bonus this round (§4; the case format's `charged`).
    for b in &bouts {
        if b.modifiers
            .iter()
            .any(|m| matches!(m, MeleeModifier::Charge(_)))
        {
            turn.record.unit_mut(&b.unit).charge_bonus = true;
        }
    }
    let mut inflicted: BTreeMap<&UnitId, u32> = BTreeMap::new();
    let mut suffered: BTreeMap<&UnitId, u32> = BTreeMap::new();
    for ((u, o), n) in earlier.iter().chain(tally.iter()) {
        *inflicted.entry(u).or_default() += n;
        *suffered.entry(o).or_default() += n;
    }
    for id in &fighters {
        let i = inflicted.get(id).copied().unwrap_or(0);
        let s = suffered.get(id).copied().unwrap_or(0);
        let result = match i.cmp(&s) {
            std::cmp::Ordering::Greater => MeleeResult::Won,
            std::cmp::Ordering::Less => MeleeResult::Lost,
            std::cmp::Ordering::Equal => MeleeResult::Drawn,
        };
        turn.record.unit_mut(id).melee = Some(result);
        let name = turn.table.units[id].name.clone();
        turn.events.push(Event::MeleeOutcome {
            unit: id.clone(),
            name,
            result,
            inflicted: i,
            suffered: s,
        });
    }
    let mut losses: BTreeMap<UnitId, u32> = BTreeMap::new();
    for ((_, o), n) in &tally {
        *losses.entry(o.clone()).or_default() += n;
    }
    for (id, n) in losses {
        take_losses(turn, &id, n);
    }
    tally
}

/// Whether unit `id` earns a charge bonus in the melee round about to be
/// fought, as the table and the turn's record stand (§4, §7): what the
/// case format's `charged` asks at a stop before the melee step.
pub fn charge_bonus_due(
    table: &Table,
    record: &TurnRecord,
    options: &GameOptions,
    id: &str,
) -> bool {
    bouts(table, record, options, &BTreeMap::new())
        .iter()
        .any(|b| {
            b.unit == id
                && b.modifiers
                    .iter()
                    .any(|m| matches!(m, MeleeModifier::Charge(_)))
        })
}

/// Every unit's bout against each opponent, in id order. `written` holds
/// the melee adjustments units wrote this turn (§4); a unit not in it
/// expands by its class's whole rate and laps around (the default).
pub(crate) fn bouts(
    table: &Table,
    record: &TurnRecord,
    options: &GameOptions,
    written: &BTreeMap<UnitId, MeleeOrders>,
) -> Vec<Bout> {
    let mut out = Vec::new();
    for u in table.units.values().filter(|u| u.status.is_present()) {
        let rate = expansion_rate(u.class);
        let default = MeleeOrders {
            expand: rate,
            contract: 0,
            lap: true,
        };
        let orders = written.get(&u.id).unwrap_or(&default);
        // Expansion and contraction (§4): at most the class's figures a
        // turn, shared among opponents in id order.
        let mut expand = orders.expand.min(rate);
        let mut contract = orders.contract.min(rate);
        for (k, oid) in u.in_melee_with.iter().enumerate() {
            let Some(o) = table.units.get(oid).filter(|o| o.status.is_present()) else {
                continue;
            };
            let p = pairing(record, &u.id, oid);
            let q = pairing(record, oid, &u.id);
            let here = figures_fighting(u, o, &p, &q, options.figure_rounding, orders.lap);
            let last = table
                .melee_figures
                .get(&u.id)
                .and_then(|m| m.get(oid))
                .copied();
            let rank_and_file = match last {
                Some(last) if !p.first_round && !u.kind.is_single_figure() && contract > 0 => {
                    // Figures taken out of the melee; at least one stays in it.
                    let n = last.saturating_sub(contract).max(1).min(u.figures);
                    contract -= last.saturating_sub(n).min(contract);
                    n
                }
                Some(last) if !p.first_round && !u.kind.is_single_figure() => {
                    let n = here.max((last + expand).min(u.figures));
                    expand -= n.saturating_sub(here.max(last)).min(expand);
                    n
                }
                _ => here,
            };
            let mut figures = rank_and_file;
            if k == 0 {
                figures += heroes_weight(table, &u.id);
            }
            let modifiers = modifiers(table, record, u, o, &p, &q, options);
            out.push(Bout {
                unit: u.id.clone(),
                opponent: oid.clone(),
                figures_fighting: figures,
                rank_and_file,
                modifiers,
            });
        }
    }
    out
}

/// Heroes with a unit fight as 3 figures, superheroes as 5 (§4, §9); they
/// join the bout against the unit's first opponent. A hero under the Black
/// Slumber fights as nothing (§10, ruling S-13).
fn heroes_weight(table: &Table, id: &str) -> u32 {
    table
        .units
        .values()
        .filter(|h| {
            h.attached_to.as_deref() == Some(id)
                && h.status.is_present()
                && matches!(h.kind, UnitType::Hero | UnitType::Superhero)
                && !super::spells::spellbound(table, &h.id)
        })
        .map(|h| single_figure_weight(h.kind))
        .sum()
}

/// Whether `o` charged `u` this turn (a mounted charge's first round).
fn cavalry_charge_on(o: &Unit, q: &Pairing) -> bool {
    o.kind.is_cavalry() && q.charged && q.first_round
}

/// Figures in base contact along each edge of `u` against `o`, with the
/// untouched figures of that edge to the left and right of the contact.
fn contact(u: &Unit, o: &Footprint) -> (Edge, u32, u32, u32) {
    let f = u.footprint();
    let b = base(u.kind);
    let mut best = (Edge::Front, 0, 0, 0);
    for e in [Edge::Front, Edge::Right, Edge::Rear, Edge::Left] {
        let (a, z) = f.edge(e);
        let (slots, step) = match e {
            Edge::Front | Edge::Rear => (u.files, b.frontage),
            _ => (u.ranks, b.rank_depth),
        };
        let dir = (z - a).normalize_or_zero();
        let touching: Vec<bool> = (0..slots)
            .map(|i| {
                let p = a + dir * ((f64::from(i) + 0.5) * step);
                o.nearest_point(p).distance(p) <= CONTACT
            })
            .collect();
        let n = touching.iter().filter(|t| **t).count() as u32;
        if n > best.1 {
            let first = touching.iter().position(|t| *t).unwrap_or(0) as u32;
            let last = touching.iter().rposition(|t| *t).unwrap_or(0) as u32;
            best = (e, n, first, slots - 1 - last);
        }
    }
    best
}

/// The figures of `u` that fight `o` this round (§4, §5; rulings C-15..C-18).
fn figures_fighting(
    u: &Unit,
    o: &Unit,
    p: &Pairing,
    q: &Pairing,
    rounding: FigureRounding,
    lap: bool,
) -> u32 {
    if u.kind.is_single_figure() {
        return single_figure_weight(u.kind);
    }
    let crew = base(u.kind).crew;
    let (edge, touching, left, right) = contact(u, &o.footprint());
    // In melee but not touching (set up so, or lapped away): the front rank fights.
    let (edge, touching) = if touching == 0 {
        (Edge::Front, u.files)
    } else {
        (edge, touching)
    };
    // In a multi-unit melee the end figures are already engaged: no overlaps.
    let over = if u.in_melee_with.len() == 1 {
        overlap_figures(u.kind)
    } else {
        0
    };
    // First round: a straight line, the overlaps only. Later rounds the
    // overhanging figures lap around the ends, as far as the enemy's flanks
    // reach (§4; ruling C-30) — no new flank for it.
    let reach = if p.first_round || over == 0 || !lap {
        over
    } else {
        let flank = f64::from(o.ranks) * base(o.kind).rank_depth;
        over + (flank / base(u.kind).frontage).floor() as u32
    };
    let lapping = if edge == Edge::Front {
        left.min(reach) + right.min(reach)
    } else {
        0
    };
    let front = (touching + lapping) * crew;
    let halves = match edge {
        Edge::Rear => 0,
        Edge::Left | Edge::Right => u32::from(u.files > 1),
        Edge::Front if !u.kind.is_infantry() || u.ranks < 2 => 0,
        Edge::Front => {
            let pikes = u.has_weapon(Weapon::Pike) && !o.kind.is_infantry();
            let charged_by_horse = cavalry_charge_on(o, q);
            match (pikes, p.first_round || charged_by_horse) {
                (true, true) => 1,
                (true, false) => 1 + u32::from(u.ranks >= 3),
                (false, _) if charged_by_horse => 0,
                (false, _) => 1,
            }
        }
    };
    (front + halves * half(front, rounding)).min(fighting_strength(u.kind, u.figures))
}

/// Does the footprint stand in rough ground that costs −1 in melee (§4, §7)?
fn in_rough(table: &Table, f: &Footprint) -> bool {
    table.terrain.iter().any(|t| {
        !matches!(t.kind, TerrainKind::Road { .. }) && !t.kind.is_water() && t.area_meets(f)
    })
}

/// Light foot, Picts, Kushites (and Black Amazons) fight in rough ground unhindered.
fn at_home_in_rough(u: &Unit) -> bool {
    super::route::rough_ground_troops(u)
}

/// Ground that denies a charge bonus (§7): woods, swamps, two-contour hills
/// — but not the areas in `except`, which the charger charged out of from
/// their edge ("units on the edge of a second contour or on the edge of
/// woods may charge out of this terrain area and claim their charge bonuses").
fn denies_charge(table: &Table, f: &Footprint, except: &[usize]) -> bool {
    table.terrain.iter().enumerate().any(|(i, t)| {
        matches!(
            t.kind,
            TerrainKind::Woods | TerrainKind::Swamp | TerrainKind::Hill { contours: 2.. }
        ) && !except.contains(&i)
            && t.area_meets(f)
    })
}

/// The modifiers of `u`'s die against `o` (§4, §5, §7).
fn modifiers(
    table: &Table,
    record: &TurnRecord,
    u: &Unit,
    o: &Unit,
    p: &Pairing,
    q: &Pairing,
    options: &GameOptions,
) -> Vec<MeleeModifier> {
    let mut m = Vec::new();
    let (cu, co) = (category(u.kind), category(o.kind));
    if cu < co && co < SPECIAL_CATEGORY {
        m.push(MeleeModifier::Category(co - cu));
    }
    let deep_foot = u.kind.is_cavalry() && o.kind.is_infantry() && o.ranks >= DEEP_INFANTRY_RANKS;
    let at_mammoths = u.kind.is_cavalry() && o.kind == UnitType::WoollyMammoth;
    let ground = !at_home_in_rough(u)
        && (denies_charge(table, &u.footprint(), &p.out_of)
            || denies_charge(table, &o.footprint(), &[]));
    if p.first_round && p.charged {
        if !(deep_foot || at_mammoths || ground) {
            m.push(MeleeModifier::Charge(charge_bonus(u.kind)));
        }
    } else if !p.first_round
        && table.charge_bonus_earned.contains(&u.id)
        && post_charge_bonus(u.kind) > 0
    {
        m.push(MeleeModifier::PostCharge(post_charge_bonus(u.kind)));
    }
    if u.kind.is_infantry() && u.ranks == 1 && cavalry_charge_on(o, q) {
        m.push(MeleeModifier::OneRankAgainstCharge);
    }
    match p.struck {
        Some(Face::Flank)
            if p.first_round && o.formation != crate::games::hyborian::rules::Formation::Ring =>
        {
            m.push(MeleeModifier::Flank)
        }
        Some(Face::Rear)
            if p.first_round && o.formation != crate::games::hyborian::rules::Formation::Ring =>
        {
            m.push(MeleeModifier::Rear)
        }
        _ => {}
    }
    if record.unit(&u.id).is_some_and(|r| r.fired.is_some()) {
        m.push(MeleeModifier::FiredThisTurn);
    }
    match u.status {
        Status::FallBack(_) => m.push(MeleeModifier::FallBack),
        Status::Rout => m.push(MeleeModifier::Rout),
        _ => {}
    }
    let rough = in_rough(table, &u.footprint())
        || (options.terrain_penalty_on_attackers && in_rough(table, &o.footprint()));
    if rough && !at_home_in_rough(u) {
        m.push(MeleeModifier::Terrain);
    }
    if o.kind == UnitType::WoollyMammoth {
        m.push(if u.kind.is_cavalry() {
            MeleeModifier::CavalryAgainstMammoths
        } else {
            MeleeModifier::AgainstMammoths
        });
    }
    let mounted_near_mammoths = (u.kind.is_cavalry() || u.kind.is_chariot())
        && !(u.kind.is_cavalry() && o.kind == UnitType::WoollyMammoth)
        && table.units.values().any(|x| {
            x.side != u.side
                && x.kind == UnitType::WoollyMammoth
                && x.status.is_present()
                && x.footprint().distance(&u.footprint()) <= MAMMOTH_FRIGHT_RANGE
        });
    if mounted_near_mammoths {
        m.push(MeleeModifier::NearMammoths);
    }
    if u.kind.is_infantry() && o.kind.is_chariot() {
        m.push(MeleeModifier::InfantryAgainstChariots);
    }
    if u.kind.is_cavalry() && o.has_trait(Trait::Dead) {
        m.push(MeleeModifier::CavalryAgainstTheDead);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::adjudicate::{resolve_turn, StopAfter};
    use crate::games::hyborian::dice::ScriptedDice;
    use crate::games::hyborian::orders::plan::TurnOrders;
    use crate::games::hyborian::table::setup::Setup;

    const TWO_FOOT: &str = r#"
[table]
width = 72.0
depth = 48.0

[[unit]]
id = "a"
side = "aquilonia"
name = "Aquilonian Foot"
type = "MI"
figures = 24
formation = "line"
ranks = 2
front = [36.0, 20.0]
facing = 0
status = "in-melee:d"

[[unit]]
id = "d"
side = "nemedia"
name = "Nemedian Cavalry"
type = "HC"
figures = 9
formation = "line"
ranks = 1
front = [36.0, 20.0]
facing = 180
status = "in-melee:a"
"#;

    #[test]
    fn post_charge_bonus_on_later_rounds_and_winner_recorded() {
        let setup: Setup = toml::from_str(TWO_FOOT).unwrap();
        let mut table = Table::from_setup(&setup).unwrap();
        table.charge_bonus_earned.insert("d".into());
        let mut dice =
            ScriptedDice::new([("melee:a".to_string(), 4), ("melee:d".to_string(), 4)].into());
        let out = resolve_turn(
            &table,
            &TurnOrders::default(),
            &GameOptions::default(),
            &mut dice,
            StopAfter::Melee,
        )
        .unwrap();
        // d: 9 figures, 4 + 1 post-charge = 50 %, 4.5 = 5; a: 18, 4 - 2 = 20 %, 3.6 = 4.
        assert_eq!(out.table.units["a"].figures, 19);
        assert_eq!(out.table.units["d"].figures, 5);
        assert_eq!(
            out.record.unit("d").and_then(|r| r.melee),
            Some(MeleeResult::Won)
        );
        assert_eq!(
            out.record.unit("a").and_then(|r| r.melee),
            Some(MeleeResult::Lost)
        );
        assert!(
            out.table.charge_bonus_earned.contains("d"),
            "still in melee: keeps its post-charge bonus"
        );
        let said: Vec<String> = out.events.iter().map(|e| e.to_string()).collect();
        assert!(said.contains(&"Nemedian Cavalry fought Aquilonian Foot with 9 figures: die 4, post-charge +1 = 5; 5 casualties.".to_string()), "{said:#?}");
        assert!(
            said.contains(
                &"Nemedian Cavalry won the melee: 5 casualties inflicted, 4 suffered.".to_string()
            ),
            "{said:#?}"
        );
    }

    /// §4: "Order of the White Hand's dead: cavalry −2 against them." (A unit
    /// test, not a case file: the shared case checker does not list the
    /// `dead` trait yet.)
    #[test]
    fn cavalry_fight_the_dead_at_minus_two() {
        let text = TWO_FOOT.replacen(
            "status = \"in-melee:d\"",
            "status = \"in-melee:d\"\ntraits = [\"dead\"]",
            1,
        );
        let setup: Setup = toml::from_str(&text).unwrap();
        let table = Table::from_setup(&setup).unwrap();
        let mut dice =
            ScriptedDice::new([("melee:a".to_string(), 4), ("melee:d".to_string(), 4)].into());
        let out = resolve_turn(
            &table,
            &TurnOrders::default(),
            &GameOptions::default(),
            &mut dice,
            StopAfter::Melee,
        )
        .unwrap();
        let said: Vec<String> = out.events.iter().map(|e| e.to_string()).collect();
        // d: 9 figures, 4 − 2 = 20 %, 1.8 = 2.
        assert!(said.contains(&"Nemedian Cavalry fought Aquilonian Foot with 9 figures: die 4, cavalry against the dead −2 = 2; 2 casualties.".to_string()), "{said:#?}");
        assert_eq!(out.table.units["a"].figures, 22);
    }
}
