//! Horse that strikes where its charge lands: whether a charge would
//! strike its target as the engine runs it (the wheel it begins with,
//! ground that halves its pace on the way, §3, §7), and where horse seeking
//! battle waits for its charge — out of reach of every enemy bow, facing
//! its target, at a gap its charge crosses next turn — instead of standing
//! in bow range while it closes.

use super::troops::Ctx;
use super::view::{View, REACH_SHARE};
use super::write::Sheet;
use crate::games::hyborian::adjudicate::route::{charge_legs, slowed, sure_footed, Leg};
use crate::games::hyborian::rules::movement::ROUGH_SPEED;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::geometry::{Pose, CONTACT};
use crate::games::hyborian::table::Unit;
use crate::geometry::{bearing_of, heading, normalize_bearing};

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
