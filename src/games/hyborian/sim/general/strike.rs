//! Horse that strikes where its charge lands: whether a charge would
//! strike its target as the engine runs it (the wheel it begins with,
//! ground that halves its pace on the way, §3, §7), and where horse seeking
//! battle waits for its charge — out of reach of every enemy bow, facing
//! its target, at a gap its charge crosses next turn — instead of standing
//! in bow range while it closes. Horse whose charge would be shot at as it
//! goes in (it would strike an archer's front, or a unit the enemy's bows
//! cover) rides first, when it can in one move, to a post out of every
//! bow's arc and range from which its charge strikes the target's flank or
//! rear: archers shoot only within 45° of their front (§6), and a charge
//! from outside the arc meets no volley.

use super::troops::Ctx;
use super::view::{View, REACH_SHARE};
use super::write::Sheet;
use crate::games::hyborian::adjudicate::in_arc;
use crate::games::hyborian::adjudicate::route::{charge_legs, slowed, sure_footed, Leg};
use crate::games::hyborian::rules::fire::{Arc, FOOT_ARC, HORSE_ARCHER_ARC};
use crate::games::hyborian::rules::movement::ROUGH_SPEED;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::Trait;
use crate::games::hyborian::table::geometry::{Pose, CONTACT};
use crate::games::hyborian::table::{Status, Unit};
use crate::geometry::{bearing_of, heading, normalize_bearing, Footprint};
use glam::DVec2;

/// A charge's path is walked in steps of this many inches.
const PATH_STEP: f64 = 0.5;
/// Horse waits this many inches beyond the range of every enemy bow.
const OUT_OF_RANGE: f64 = 0.5;
/// Posts are tried on bearings from the target this many degrees apart…
const POST_STEP: f64 = 10.0;
/// …up to this many degrees either side of the straight way to the unit.
const POST_SPREAD: f64 = 40.0;
/// Posts are tried at gaps from the target's centre growing by this much (inches)…
const GAP_STEP: f64 = 0.5;
/// …up to this far (inches).
const POST_FAR: f64 = 40.0;
/// Horse this near its post (inches) is there.
const AT_POST: f64 = 1.0;
/// At its post, horse turns to face a target more than this many degrees
/// off its front.
const SQUARE: f64 = 5.0;
/// A post on a flank stands at least this far from its target (inches):
/// horse charges into contact, it does not walk into it…
const FLANK_GAP: f64 = 2.0;
/// …and at least this far from every other enemy (inches).
const ENEMY_ROOM: f64 = 1.0;
/// A post counts as out of an archer's arc only with this many degrees
/// to spare on either side of it.
const ARC_SPARE: f64 = 5.0;
/// A post on a flank is made for only when the way there, ground that
/// slows counted double, is at most this share of the unit's move: it
/// must stand there at the end of the turn, not in the arc short of it.
const POST_MOVE_SHARE: f64 = 0.95;

impl View<'_> {
    /// Whether a charge by `u` standing as `from` would strike `t` where it
    /// stands, within [`REACH_SHARE`] of the charge move: along the path
    /// the engine would plan (`route::charge_legs`), rough ground counted
    /// at double (§7). The wheel the charge begins with is not counted
    /// against it (the share leaves room for it; counting it made the
    /// general worse, docs/balance.md).
    pub fn charge_lands(&self, from: Pose, u: &Unit, t: &Unit) -> bool {
        let (legs, budget) = charge_legs(from, u.kind, t);
        let target = t.footprint();
        let options = GameOptions::default();
        let sure = sure_footed(u);
        let limit = budget * REACH_SHARE;
        let mut spent = 0.0;
        for leg in legs.iter().filter(|l| !matches!(l, Leg::Wheel { .. })) {
            let length = leg.length();
            let mut s = 0.0;
            loop {
                let fp = leg.pose_at(s).footprint(u.kind);
                if spent > limit {
                    return false;
                }
                if fp.distance(&target) <= CONTACT {
                    return true;
                }
                if s >= length {
                    break;
                }
                let ds = PATH_STEP.min(length - s);
                let rate = if slowed(self.table, &options, sure, &fp) {
                    ROUGH_SPEED
                } else {
                    1.0
                };
                spent += ds / rate;
                s += ds;
            }
        }
        false
    }

    /// Inches of move a straight march by `u` from where it stands to
    /// `to` costs, after facing it: ground that slows the unit (§7) counted
    /// double.
    fn march_cost(&self, u: &Unit, to: DVec2) -> f64 {
        let (front, bearing) = View::faced_toward(u, to);
        let length = front.distance(to);
        let options = GameOptions::default();
        let sure = sure_footed(u);
        let steps = (length / PATH_STEP).ceil() as u32;
        (0..steps)
            .map(|i| {
                let s = f64::from(i) * PATH_STEP;
                let ds = PATH_STEP.min(length - s);
                let pose = Pose {
                    front: front + heading(bearing) * s,
                    facing: bearing,
                    ..u.pose()
                };
                let slow = slowed(self.table, &options, sure, &pose.footprint(u.kind));
                if slow {
                    ds / ROUGH_SPEED
                } else {
                    ds
                }
            })
            .sum()
    }

    /// Whether the enemy archer `e` (range `range`, standing on `efp`)
    /// would shoot at `fp`: within its range and its arc (§6), the arc
    /// widened by `spare` degrees either side.
    fn in_bowshot_of(e: &Unit, efp: &Footprint, range: f64, fp: &Footprint, spare: f64) -> bool {
        let arc = if e.has_trait(Trait::HorseArcher) {
            HORSE_ARCHER_ARC
        } else {
            FOOT_ARC
        };
        let wide = Arc {
            right: arc.right + spare,
            left: arc.left + spare,
        };
        efp.distance(fp) <= range + OUT_OF_RANGE && in_arc(e, fp, wide)
    }

    /// Whether no enemy bow would shoot at `fp` at the end of a phase (by
    /// [`ARC_SPARE`] and [`OUT_OF_RANGE`]; archers in melee do not shoot).
    fn unshot(&self, fp: &Footprint) -> bool {
        self.enemies.iter().all(|(e, efp)| {
            !e.in_melee_with.is_empty()
                || View::archers(e).is_none_or(|r| !View::in_bowshot_of(e, efp, r, fp, ARC_SPARE))
        })
    }

    /// Whether a charge at `t` by a unit standing on `ufp` would be shot
    /// at as it goes in (§6, pass-through fire at a unit that charges the
    /// archers): `t` shoots and the unit stands in its arc, so the charge
    /// strikes its front. (A unit charging another is in melee when the
    /// volleys come, and no longer a target.)
    fn charge_shot(&self, ufp: &Footprint, t: &Unit) -> bool {
        View::archers(t)
            .is_some_and(|_| View::in_bowshot_of(t, &t.footprint(), f64::INFINITY, ufp, 0.0))
    }

    /// Whether `fp` keeps [`ENEMY_ROOM`] from every enemy but `t`, and
    /// the straight way from `u` to `to` crosses none.
    fn clear_of_enemies(&self, u: &Unit, t: &Unit, fp: &Footprint, to: DVec2) -> bool {
        let (front, bearing) = View::faced_toward(u, to);
        let way = View::strip_from(u, front, bearing, front.distance(to));
        self.enemies
            .iter()
            .all(|(e, efp)| !efp.overlaps(&way) && (e.id == t.id || efp.distance(fp) >= ENEMY_ROOM))
    }

    /// The gap horse keeps from `t`, archers free to shoot, when it has
    /// no place out of their bowshot to charge them from: it waits out of
    /// bowshot while a faster friend seeking battle is still fit to charge
    /// first. Archers shoot once a turn (§6), at one unit; once they are in
    /// melee they shoot no more, and the slower horse comes on. `None` when
    /// it need not wait.
    pub fn waits_its_turn(&self, u: &Unit, t: &Unit) -> Option<f64> {
        let range = View::archers(t).filter(|_| t.in_melee_with.is_empty())?;
        let pace = View::move_allowance(u);
        let faster = self.mine.iter().any(|f| {
            f.id != u.id
                && f.kind.is_cavalry()
                && f.status == Status::Ready
                && f.in_melee_with.is_empty()
                && View::move_allowance(f) > pace
        });
        faster.then_some(range + OUT_OF_RANGE)
    }

    /// Whether `pose` stands out of range of every enemy that shoots, by
    /// [`OUT_OF_RANGE`].
    fn out_of_bowshot(&self, u: &Unit, pose: Pose) -> bool {
        let fp = pose.footprint(u.kind);
        self.enemies.iter().all(|(e, efp)| {
            View::archers(e).is_none_or(|range| efp.distance(&fp) > range + OUT_OF_RANGE)
        })
    }
}

impl Ctx<'_, '_> {
    /// Where horse seeking battle waits to charge `t` next turn, when the
    /// enemy has bows: the nearest place to it out of bowshot, facing
    /// `t`, from which the charge lands; `None` when the enemy has no bows,
    /// no such place exists, or the unit already stands nearer `t`.
    fn striking_post(&self, u: &Unit, t: &Unit) -> Option<Pose> {
        if !self
            .view
            .enemies
            .iter()
            .any(|(e, _)| View::archers(e).is_some())
        {
            return None;
        }
        let centre = t.footprint().centre;
        let straight = bearing_of(u.front - centre);
        let steps = (POST_SPREAD / POST_STEP) as i32;
        let post = |offset: f64| {
            let from_target = normalize_bearing(straight + offset);
            let facing = normalize_bearing(from_target + 180.0);
            let at = |gap: f64| Pose {
                front: centre + heading(from_target) * gap,
                facing,
                ..u.pose()
            };
            let gaps = (1..=(POST_FAR / GAP_STEP) as u32).map(|i| f64::from(i) * GAP_STEP);
            let first = gaps.map(at).find(|p| self.view.out_of_bowshot(u, *p))?;
            let fp = first.footprint(u.kind);
            let free = self.view.on_table(&fp) && !self.view.obstructed(u, &fp);
            (free && self.view.charge_lands(first, u, t)).then_some(first)
        };
        let best = (-steps..=steps)
            .filter_map(|i| post(f64::from(i) * POST_STEP))
            .min_by(|a, b| {
                a.front
                    .distance(u.front)
                    .total_cmp(&b.front.distance(u.front))
            })?;
        let nearer = |p: Pose| p.footprint(u.kind).distance(&t.footprint());
        (nearer(u.pose()) + AT_POST >= nearer(best)).then_some(best)
    }

    /// Where horse whose charge at `t` would be shot at
    /// ([`View::charge_shot`]) goes first: the post nearest it, all round
    /// `t` and facing it, at least [`FLANK_GAP`] from it, that no enemy bow
    /// reaches ([`View::unshot`]), clear of the other enemies, one move
    /// away ([`POST_MOVE_SHARE`]), from which the charge lands and is not
    /// shot at. `None` when the charge from here would not be shot at or
    /// no such post exists.
    fn flank_post(&self, u: &Unit, t: &Unit) -> Option<Pose> {
        if !self.view.charge_shot(&u.footprint(), t) {
            return None;
        }
        let tfp = t.footprint();
        let centre = tfp.centre;
        let reach = View::move_allowance(u) * POST_MOVE_SHARE;
        let far = View::charge_move(u) + 2.0 * tfp.half_width.max(tfp.half_depth);
        let gaps = (1..=(far / GAP_STEP) as u32).map(|i| f64::from(i) * GAP_STEP);
        let steps = (180.0 / POST_STEP) as i32;
        let mut posts: Vec<(f64, Pose)> = (-steps..steps)
            .flat_map(|i| gaps.clone().map(move |gap| (i, gap)))
            .filter_map(|(i, gap)| {
                let from_target = normalize_bearing(f64::from(i) * POST_STEP);
                let p = Pose {
                    front: centre + heading(from_target) * gap,
                    facing: normalize_bearing(from_target + 180.0),
                    ..u.pose()
                };
                let fp = p.footprint(u.kind);
                let near = p.front.distance(u.front);
                let fits = near <= reach
                    && fp.distance(&tfp) >= FLANK_GAP
                    && self.view.unshot(&fp)
                    && self.view.on_table(&fp)
                    && !self.view.obstructed(u, &fp)
                    && !self.view.charge_shot(&fp, t);
                fits.then_some((near, p))
            })
            .collect();
        posts.sort_by(|a, b| a.0.total_cmp(&b.0));
        posts.into_iter().map(|(_, p)| p).find(|p| {
            self.view
                .clear_of_enemies(u, t, &p.footprint(u.kind), p.front)
                && self.view.march_cost(u, p.front) <= reach
                && self.view.charge_lands(*p, u, t)
        })
    }

    /// Horse seeking battle whose charge at `t` would be shot at: to its
    /// [`Ctx::flank_post`], when there is one and the way is clear.
    pub(super) fn to_flank_post(&self, u: &Unit, t: &Unit) -> Option<Sheet> {
        let post = self.flank_post(u, t)?;
        self.try_make_for(u, post.front)
    }

    /// Horse seeking battle against an enemy with bows: to its striking
    /// post ([`Ctx::striking_post`]) when it is one move away and the way
    /// there is clear, and there square to its target. Otherwise the gap
    /// from `t` to keep as it closes (the post's, out of bowshot), or
    /// `None` when it has no post.
    pub(super) fn to_striking_post(&self, u: &Unit, t: &Unit) -> Result<Sheet, Option<f64>> {
        let post = self.striking_post(u, t).ok_or(None)?;
        let gap = post.footprint(u.kind).distance(&t.footprint());
        let away = post.front.distance(u.front);
        if away > View::move_allowance(u) {
            return Err(Some(gap));
        }
        if away > AT_POST {
            return self.try_make_for(u, post.front).ok_or(Some(gap));
        }
        let aim = t.footprint().centre;
        let square = View::off(u, aim).abs() <= SQUARE || !self.view.room_to_face(u, aim);
        Ok(if square {
            Sheet::hold()
        } else {
            Sheet::phase1(format!("face {}", super::write::quoted(&t.name)))
        })
    }
}
