//! What a general sees on the table: its own units and the enemy's, where
//! the enemy lies, how far apart units are, whether a charge can land, and
//! where its own line stands.

use crate::games::hyborian::adjudicate::route::faced;
use crate::games::hyborian::rules::movement::{allowance, Pace};
use crate::games::hyborian::rules::{Trait, UnitType, Weapon};
use crate::games::hyborian::table::{EffectKind, Status, Table, TerrainKind, Unit};
use crate::geometry::{
    bearing_of, heading, normalize_bearing, point_segment_distance, turn_between, Edge, Footprint,
};
use glam::DVec2;
use std::cell::RefCell;
use std::collections::BTreeSet;

/// A charge is tried only at a target this share of the charge move away:
/// the target may step back while the charger wheels (§3 a charge's path
/// is fixed before anyone moves).
pub(super) const REACH_SHARE: f64 = 0.9;
/// A charge is tried only at a target at most this many degrees off the
/// charger's front; the wheel that starts the charge turns the rest.
pub(super) const CHARGE_ARC: f64 = 50.0;
/// An army faces one way when its units' facings, added as unit vectors,
/// keep this share of their number (all alike: 1).
const ONE_FRONT: f64 = 0.7;
/// Rounds of working out a change of face's set-back (they converge in two or three).
const FACE_STEPS: usize = 4;
/// A charge's path is judged this far past the gap, into the target.
const PATH_BEYOND: f64 = 0.5;

/// The table from one side's chair.
pub(super) struct View<'a> {
    pub table: &'a Table,
    pub side: &'a str,
    /// Own pieces on the table, not attached to a unit, in army-list order.
    pub mine: Vec<&'a Unit>,
    /// Enemy units on the table (single figures left out: they are not
    /// what a line fights).
    pub enemies: Vec<(&'a Unit, Footprint)>,
    /// Unit vector from the own army's centre toward the enemy's.
    pub forward: DVec2,
    /// Where the own foot line's front stands along `forward`.
    pub line_front: f64,
    /// Ground the general's orders this turn already send units across:
    /// later orders keep off it, so two of its own charges do not meet.
    claimed: RefCell<Vec<Footprint>>,
}

fn fighting(u: &Unit) -> bool {
    u.status.is_present() && !u.kind.is_single_figure()
}

fn centre<'u>(units: impl Iterator<Item = &'u Unit>) -> Option<DVec2> {
    let (sum, n) = units.fold((DVec2::ZERO, 0.0), |(s, n), u| (s + u.front, n + 1.0));
    (n > 0.0).then(|| sum / n)
}

impl<'a> View<'a> {
    pub fn new(table: &'a Table, side: &'a str) -> View<'a> {
        let mut mine: Vec<&Unit> = table
            .units_of(side)
            .filter(|u| u.status.is_present() && u.attached_to.is_none())
            .collect();
        mine.sort_by(|a, b| (a.number, &a.id).cmp(&(b.number, &b.id)));
        let enemies: Vec<(&Unit, Footprint)> = table
            .units
            .values()
            .filter(|u| u.side != side && fighting(u))
            .map(|u| (u, u.footprint()))
            .collect();
        let own = centre(mine.iter().copied().filter(|u| fighting(u)));
        let theirs = centre(enemies.iter().map(|(u, _)| *u));
        let toward_enemy = match (own, theirs) {
            (Some(a), Some(b)) if a.distance(b) > 1e-6 => (b - a).normalize(),
            _ => DVec2::Y,
        };
        // The way the army faces, where it faces the enemy more or less as
        // one: the line advances along it, not along a slant to the
        // enemy's centre.
        let (facings, n) = mine
            .iter()
            .filter(|u| fighting(u))
            .fold((DVec2::ZERO, 0.0), |(s, n), u| {
                (s + heading(u.facing), n + 1.0)
            });
        let forward =
            if n > 0.0 && facings.length() >= ONE_FRONT * n && facings.dot(toward_enemy) > 0.0 {
                facings.normalize()
            } else {
                toward_enemy
            };
        let mut view = View {
            table,
            side,
            mine,
            enemies,
            forward,
            line_front: 0.0,
            claimed: RefCell::default(),
        };
        let foot: Vec<f64> = view
            .mine
            .iter()
            .filter(|u| fighting(u) && u.kind.is_infantry())
            .map(|u| view.along(u.front))
            .collect();
        view.line_front = if foot.is_empty() {
            view.mine
                .iter()
                .map(|u| view.along(u.front))
                .fold(f64::MIN, f64::max)
        } else {
            foot.iter().sum::<f64>() / foot.len() as f64
        };
        view
    }

    /// How far forward (toward the enemy) a point lies.
    pub fn along(&self, p: DVec2) -> f64 {
        p.dot(self.forward)
    }

    /// The nearest enemy unit that `ok` accepts, and the gap to it in inches.
    pub fn nearest(&self, u: &Unit, ok: impl Fn(&Unit) -> bool) -> Option<(&'a Unit, f64)> {
        let fp = u.footprint();
        self.enemies
            .iter()
            .filter(|(e, _)| ok(e))
            .map(|(e, efp)| (*e, efp.distance(&fp)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.id.cmp(&b.0.id)))
    }

    /// The enemy `u` makes for among those `ok` accepts: the nearest, unless
    /// one within `arc` degrees of its front is no farther than the nearest
    /// and the ground a change of face to the nearest would cost (its
    /// set-back, §2) together. A unit keeps the enemy ahead of it rather
    /// than turn back and forth between two that stand about as near.
    pub fn quarry(
        &self,
        u: &Unit,
        arc: f64,
        ok: impl Fn(&Unit) -> bool,
    ) -> Option<(&'a Unit, f64)> {
        let nearest = self.nearest(u, &ok)?;
        let aim = nearest.0.footprint().centre;
        if Self::off(u, aim).abs() <= arc {
            return Some(nearest);
        }
        let set_back = faced(u.pose(), u.kind, bearing_of(aim - u.front))
            .front
            .distance(u.front);
        self.nearest(u, |e| {
            ok(e) && Self::off(u, e.footprint().centre).abs() <= arc
        })
        .filter(|(_, gap)| *gap <= nearest.1 + set_back)
        .or(Some(nearest))
    }

    /// Degrees the unit would turn to face the point (positive: right).
    pub fn off(u: &Unit, p: DVec2) -> f64 {
        turn_between(u.facing, bearing_of(p - u.front))
    }

    /// The ground a unit crosses moving `length` inches on `bearing`: a
    /// strip as wide as its front.
    pub fn strip(u: &Unit, bearing: f64, length: f64) -> Footprint {
        Self::strip_from(u, u.front, bearing, length)
    }

    /// [`View::strip`] from `front` instead of where the unit stands.
    pub fn strip_from(u: &Unit, front: DVec2, bearing: f64, length: f64) -> Footprint {
        let width = 2.0 * u.footprint().half_width;
        Footprint::behind(
            front + heading(bearing) * length,
            bearing,
            width,
            length.max(1e-3),
        )
    }

    /// Whether the strip is in the unit's way: own units stand on it (no
    /// interpenetration, §3), woods and swamps for mounted troops (§7), or
    /// deep water (rulings T-1).
    pub fn obstructed(&self, u: &Unit, strip: &Footprint) -> bool {
        let friend = self
            .mine
            .iter()
            .any(|f| f.id != u.id && f.status.is_present() && f.footprint().overlaps(strip));
        let claimed = self.claimed.borrow().iter().any(|c| c.overlaps(strip));
        friend || claimed || (u.kind.is_mounted() && self.rough(strip)) || self.deep(strip)
    }

    /// Keep other orders off the ground a unit is sent across.
    pub fn claim(&self, strip: Footprint) {
        self.claimed.borrow_mut().push(strip);
    }

    fn rough(&self, fp: &Footprint) -> bool {
        self.table
            .terrain
            .iter()
            .any(|t| matches!(t.kind, TerrainKind::Woods | TerrainKind::Swamp) && t.area_meets(fp))
    }

    /// A charge at `target` has a clear run: nothing of ours across its
    /// path, and no woods or swamp on it for mounted troops.
    pub fn clear_path(&self, u: &Unit, target: &Unit, gap: f64) -> bool {
        !self.obstructed(u, &Self::charge_strip(u, target, gap))
    }

    /// The ground a charge at `target`, `gap` inches away, crosses.
    pub fn charge_strip(u: &Unit, target: &Unit, gap: f64) -> Footprint {
        let aim = target.footprint().centre;
        Self::strip(u, bearing_of(aim - u.front), gap + PATH_BEYOND)
    }

    /// Whether the unit has room to turn to face `aim` (a change of face
    /// is made about the front centre and set back, §2; friends beside it
    /// can leave no room).
    pub fn room_to_face(&self, u: &Unit, aim: DVec2) -> bool {
        let turned = faced(u.pose(), u.kind, bearing_of(aim - u.front)).footprint(u.kind);
        !self.mine.iter().any(|f| {
            f.id != u.id
                && f.status.is_present()
                && !f.kind.is_single_figure()
                && f.footprint().overlaps(&turned)
        })
    }

    /// The whole-degree bearing a unit faces so that, after the change of
    /// face and its set-back (§2, `route::faced`), `aim` lies straight
    /// ahead; and where its front then stands.
    pub fn faced_toward(u: &Unit, aim: DVec2) -> (DVec2, f64) {
        let after = |b: f64| faced(u.pose(), u.kind, b).front;
        let mut bearing = normalize_bearing(bearing_of(aim - u.front).round());
        for _ in 0..FACE_STEPS {
            bearing = normalize_bearing(bearing_of(aim - after(bearing)).round());
        }
        (after(bearing), bearing)
    }

    /// Whether a footprint lies wholly on the table.
    pub fn on_table(&self, fp: &Footprint) -> bool {
        fp.corners().iter().all(|c| {
            (0.0..=self.table.width).contains(&c.x) && (0.0..=self.table.depth).contains(&c.y)
        })
    }

    /// Inches from a point to a footprint (0 inside it).
    pub fn point_gap(fp: &Footprint, p: DVec2) -> f64 {
        if fp.contains(p) {
            return 0.0;
        }
        [Edge::Front, Edge::Right, Edge::Rear, Edge::Left]
            .into_iter()
            .map(|e| {
                let (a, b) = fp.edge(e);
                point_segment_distance(p, a, b)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Inches the unit can charge (§3 table; terrain halves it on the way).
    pub fn charge_move(u: &Unit) -> f64 {
        allowance(u.kind, u.formation, Pace::Charge, false)
    }

    /// Inches the unit can move this turn in its formation (§3 table).
    pub fn move_allowance(u: &Unit) -> f64 {
        allowance(
            u.kind,
            u.formation,
            Pace::Normal,
            u.has_trait(Trait::HorseArcher),
        )
    }

    /// Mounted troops never enter woods or swamps (§7): a target standing
    /// in them cannot be reached.
    pub fn barred(&self, u: &Unit, target: &Unit) -> bool {
        u.kind.is_mounted() && self.rough(&target.footprint())
    }

    /// Some enemy stands where it could charge the unit this turn.
    pub fn threatened(&self, u: &Unit) -> bool {
        let fp = u.footprint();
        self.enemies.iter().any(|(e, efp)| {
            e.status == Status::Ready
                && e.in_melee_with.is_empty()
                && !(e.kind.is_infantry() && u.kind.is_cavalry())
                && efp.distance(&fp) <= Self::charge_move(e)
                && Self::off(e, fp.centre).abs() <= 90.0
        })
    }

    /// Whether the unit shoots (bows, crossbows; not 3-inch thrown weapons).
    pub fn archers(u: &Unit) -> Option<f64> {
        crate::games::hyborian::rules::missile::longest_range(&u.weapons).filter(|r| {
            *r > crate::games::hyborian::rules::missile::max_range(Weapon::Thrown).unwrap_or(0.0)
        })
    }

    /// Ids of the side's summoned troops (an Army of Ghosts): never
    /// reserves, never a garrison.
    pub fn summoned(&self) -> BTreeSet<&'a str> {
        self.table
            .effects
            .iter()
            .filter_map(|e| match &e.kind {
                EffectKind::Summoned { unit, .. } => Some(unit.as_str()),
                _ => None,
            })
            .collect()
    }

    /// Mammoths: cavalry may never charge them (§4).
    pub fn is_mammoth(u: &Unit) -> bool {
        u.kind == UnitType::WoollyMammoth
    }
}
