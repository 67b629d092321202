//! Bodies that collide: the whole rectangle of a moving unit swept from
//! where it stands to where it goes (turning included), and the first unit
//! it would touch on the way ([`first_stop`]); which friends it may pass
//! through ([`may_pass`]: the sheet's Pass Through and skirmishers, and the
//! club's `interpenetration` option, ruling FA-50).
//!
//! One module, so the engine's moves (`steps/movement.rs`: normal moves,
//! charges, DD retreats) and the order checker's confirmation
//! (`orders/check.rs`) stop a unit at the same place for the same reason.
//!
//! ```
//! use umpire::games::fr_ancients::sweep::interpolate;
//! use umpire::games::fr_ancients::table::Place;
//! use glam::DVec2;
//! let a = Place { front: DVec2::new(0.0, 0.0), facing: 350.0 };
//! let b = Place { front: DVec2::new(0.0, 4.0), facing: 10.0 };
//! let mid = interpolate(a, b, 0.5);
//! assert!((mid.front.y - 2.0).abs() < 1e-9 && mid.facing.abs() < 1e-9);
//! ```

use super::abilities::Ability;
use super::options::{Interpenetration, Options};
use super::table::{directly_behind, Battle, Formation, Place, Unit, UnitId};
use super::troops::TroopType;
use crate::geometry::turn_between;

/// Where a move is stopped, and by whom.
#[derive(Debug, Clone, PartialEq)]
pub struct Stop {
    /// The place where the body first touches the unit in the way.
    pub at: Place,
    /// The unit in the way.
    pub by: UnitId,
    /// How far the front edge's centre got.
    pub distance: f64,
}

/// The place a fraction `s` (0 to 1) of the way from `a` to `b`: the front
/// edge's centre goes straight, the facing turns the shorter way.
pub fn interpolate(a: Place, b: Place, s: f64) -> Place {
    let turn = turn_between(a.facing, b.facing);
    Place {
        front: a.front + (b.front - a.front) * s,
        facing: (a.facing + turn * s).rem_euclid(360.0),
    }
}

/// How finely the path is walked: no corner moves more than this between
/// two looks (inches or centimetres, the game's column), far thinner than
/// any base, so no unit can slip between two looks.
const STEP: f64 = 0.05;

/// The first unit that the body of `u` would touch going from `from` to
/// `to`, and the place where it touches it. Units it already overlaps at
/// the start, those in `ignore` (a charge's target), units attached to it
/// (they move with it, rule 13) and friends that `passes` lets through are
/// not in the way.
pub fn first_stop(
    battle: &Battle,
    u: &Unit,
    from: Place,
    to: Place,
    ignore: &[&str],
    passes: impl Fn(&Unit) -> bool,
) -> Option<Stop> {
    let start = u.footprint_at(from);
    let turn = turn_between(from.facing, to.facing).abs().to_radians();
    let length = from.front.distance(to.front) + turn * 2.0 * start.radius();
    let reach = length + 2.0 * start.radius();
    let others: Vec<&Unit> = battle
        .present()
        .filter(|o| o.id != u.id && !ignore.contains(&o.id.as_str()))
        .filter(|o| o.attached_to.as_deref() != Some(u.id.as_str()))
        .filter(|o| o.footprint().centre.distance(start.centre) <= reach + o.footprint().radius())
        .filter(|o| !o.footprint().overlaps(&start))
        .filter(|o| o.side != u.side || !passes(o))
        .collect();
    let hit = |s: f64| -> Option<UnitId> {
        let f = u.footprint_at(interpolate(from, to, s));
        others
            .iter()
            .filter(|o| o.footprint().overlaps(&f))
            .map(|o| o.id.clone())
            .min()
    };
    let steps = ((length / STEP).ceil() as usize).clamp(1, 20_000);
    let mut free = 0.0;
    for i in 1..=steps {
        let s = i as f64 / steps as f64;
        if hit(s).is_none() {
            free = s;
            continue;
        }
        let (mut lo, mut hi) = (free, s);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if hit(mid).is_some() {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let by = hit(hi)?;
        let at = interpolate(from, to, lo);
        return Some(Stop {
            at,
            by,
            distance: from.front.distance(at.front),
        });
    }
    None
}

/// Whether `mover` may pass through its friend `friend`:
/// - Roman Battle Drill's Pass Through: both have it, one directly behind
///   the other, the moving unit not demoralised (§5);
/// - never a Skirmisher through a unit in shieldwall or tortoise (§5);
/// - otherwise as the club's `interpenetration` option says (ruling FA-50):
///   Skirmishers only (default), light troops, or every unit.
pub fn may_pass(mover: &Unit, friend: &Unit, battle: &Battle, options: &Options) -> bool {
    if friend.side != mover.side {
        return false;
    }
    let gap = battle.inches(options.adjacent_within);
    let drill = mover.has(Ability::PassThrough)
        && friend.has(Ability::PassThrough)
        && !mover.is_demoralized()
        && (directly_behind(friend, mover, gap) || directly_behind(mover, friend, gap));
    if drill {
        return true;
    }
    let closed = matches!(
        friend.formation,
        Formation::ShieldWall | Formation::Tortoise
    );
    if mover.troop == TroopType::Skirmishers && closed {
        return false;
    }
    match options.interpenetration {
        Interpenetration::Skirmishers => mover.troop == TroopType::Skirmishers,
        Interpenetration::LightTroops => {
            is_light(mover.troop) || friend.troop == TroopType::Skirmishers
        }
        Interpenetration::All => true,
    }
}

/// The light troops of the option `interpenetration = "light-troops"`.
fn is_light(t: TroopType) -> bool {
    matches!(
        t,
        TroopType::Skirmishers
            | TroopType::LightInfantry
            | TroopType::LightCavalry
            | TroopType::LightChariots
            | TroopType::LightCamelry
    )
}

/// Where a move from the unit's place to `to` stops, with the club's
/// passing rules ([`may_pass`]); `ignore` as in [`first_stop`].
pub fn stop_on_way(
    battle: &Battle,
    u: &Unit,
    to: Place,
    ignore: &[&str],
    options: &Options,
) -> Option<Stop> {
    first_stop(battle, u, u.place(), to, ignore, |o| {
        may_pass(u, o, battle, options)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fr_ancients::setup::Layout;

    fn battle(units: &str) -> Battle {
        let text = format!(
            "[table]\nwidth = 48.0\ndepth = 48.0\nbase = [1.5, 0.75]\n[[side]]\nid = \"rome\"\n[[side]]\nid = \"carthage\"\n{units}"
        );
        let layout: Layout = toml::from_str(&text).unwrap();
        layout.battle(None).unwrap()
    }

    fn unit(id: &str, side: &str, ty: &str, files: u32, x: f64, y: f64, facing: f64) -> String {
        format!("[[unit]]\nid = \"{id}\"\nside = \"{side}\"\nname = \"{id}\"\ntype = \"{ty}\"\nfiles = {files}\nranks = 1\nfront = [{x}, {y}]\nfacing = {facing}\n")
    }

    #[test]
    fn a_wide_body_meets_what_its_centre_misses() {
        // 4 files of 1.5": 6" wide, from x 21 to 27; the spearmen stand at x 26–32.
        let b = battle(
            &(unit("h", "rome", "HW", 4, 24.0, 10.0, 0.0)
                + &unit("sp", "carthage", "SP", 4, 29.0, 15.0, 180.0)),
        );
        let h = &b.units["h"];
        let to = Place {
            front: glam::DVec2::new(24.0, 20.0),
            facing: 0.0,
        };
        assert!(!b.units["sp"].footprint().crosses_segment(h.front, to.front));
        let stop = first_stop(&b, h, h.place(), to, &[], |_| false).expect("stopped");
        assert_eq!(stop.by, "sp");
        assert!((stop.at.front.y - 15.0).abs() < 0.01, "{:?}", stop.at);
    }

    #[test]
    fn turning_sweeps_the_corners() {
        // A 6" unit turning 90° about its front centre swings its right
        // half through a unit standing south-east of it, clear of both
        // the place it starts from and the place it ends at.
        let b = battle(
            &(unit("c", "rome", "HC", 4, 24.0, 10.0, 0.0)
                + &unit("x", "carthage", "SP", 1, 25.5, 8.5, 0.0)),
        );
        let c = &b.units["c"];
        let to = Place {
            front: c.front,
            facing: 90.0,
        };
        assert_eq!(
            first_stop(&b, c, c.place(), to, &[], |_| false).map(|s| s.by),
            Some("x".to_string())
        );
    }

    #[test]
    fn a_clear_way_has_no_stop() {
        let b = battle(
            &(unit("h", "rome", "HW", 4, 24.0, 10.0, 0.0)
                + &unit("sp", "carthage", "SP", 4, 34.0, 15.0, 180.0)),
        );
        let h = &b.units["h"];
        let to = Place {
            front: glam::DVec2::new(24.0, 20.0),
            facing: 0.0,
        };
        assert_eq!(first_stop(&b, h, h.place(), to, &[], |_| false), None);
    }
}
