//! The ground a scenario rewards: where a `hold-ground` victory condition
//! names the general's side (`army::scenario::Victory::HoldGround`), one
//! unit — the garrison — makes for the area and stands in it, so that a
//! ready unit of the side is inside at the end of the last turn. The rest
//! of the army fights as its doctrine says; the garrison charges only an
//! enemy that comes into the area, since an enemy there would take the
//! ground from it.

use super::troops::Ctx;
use super::view::View;
use super::write::Sheet;
use crate::games::hyborian::army::scenario::{Victory, Zone};
use crate::games::hyborian::rules::Trait;
use crate::games::hyborian::table::{Status, Unit};
use glam::DVec2;

/// The garrison stands this many inches inside the area's edges, so that
/// it is in it whatever its move's rounding.
const INSIDE: f64 = 1.0;

/// The area `side` is rewarded for holding at the end, if a victory
/// condition names one.
pub(super) fn ground(victory: &[Victory], side: &str) -> Option<Zone> {
    victory.iter().find_map(|v| match v {
        Victory::HoldGround { side: holder, area } if holder == side => Some(*area),
        _ => None,
    })
}

/// The point of the area, [`INSIDE`] its edges, nearest `p`.
fn spot(area: &Zone, p: DVec2) -> DVec2 {
    let within = |v: f64, [lo, hi]: [f64; 2]| {
        if hi - lo <= 2.0 * INSIDE {
            (lo + hi) / 2.0
        } else {
            v.clamp(lo + INSIDE, hi - INSIDE)
        }
    };
    DVec2::new(within(p.x, area.x), within(p.y, area.y))
}

fn inside(area: &Zone, u: &Unit) -> bool {
    area.contains([u.front.x, u.front.y])
}

/// The unit that holds the area: of the ready fighting units, foot before
/// horse (the horse is the army's striking arm), the one that reaches it
/// in the fewest turns; of those, the smallest (the army's strength goes
/// to the fight), then the first in the army list.
pub(super) fn garrison<'a>(view: &View<'a>, area: &Zone) -> Option<&'a Unit> {
    let summoned = view.summoned();
    view.mine
        .iter()
        .copied()
        .filter(|u| {
            !u.kind.is_single_figure()
                && u.status == Status::Ready
                && !u.has_trait(Trait::Beast)
                && !summoned.contains(u.id.as_str())
        })
        .min_by_key(|u| {
            let gap = u.front.distance(spot(area, u.front));
            let turns = (gap / View::move_allowance(u).max(1.0)).ceil() as u32;
            let mounted = u.kind.is_mounted();
            (mounted, turns, u.figures, u.number, u.id.as_str())
        })
}

impl Ctx<'_, '_> {
    /// The garrison's orders: make for the area; inside it, stand facing
    /// the nearest enemy, charging one that comes into the area.
    pub(super) fn hold_ground(&self, u: &Unit, area: &Zone) -> Sheet {
        let Some((enemy, _)) = self.view.nearest(u, |_| true) else {
            return Sheet::hold();
        };
        if !inside(area, u) {
            return self.make_for(u, enemy, spot(area, u.front));
        }
        match self
            .best_charge(u, self.threshold())
            .filter(|t| inside(area, t))
        {
            Some(t) => self.charge(u, t),
            None => self.hold_facing(u, enemy),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_garrison_stands_just_inside_the_nearest_edge() {
        let area = Zone {
            x: [16.0, 32.0],
            y: [14.0, 22.0],
        };
        assert_eq!(spot(&area, DVec2::new(20.0, 6.0)), DVec2::new(20.0, 15.0));
        assert_eq!(spot(&area, DVec2::new(40.0, 30.0)), DVec2::new(31.0, 21.0));
        assert_eq!(spot(&area, DVec2::new(20.0, 18.0)), DVec2::new(20.0, 18.0));
        let thin = Zone {
            x: [0.0, 1.0],
            y: [0.0, 10.0],
        };
        assert_eq!(spot(&thin, DVec2::new(5.0, 5.0)), DVec2::new(0.5, 5.0));
        let hold = Victory::HoldGround {
            side: "koth".into(),
            area,
        };
        assert_eq!(
            ground(&[Victory::CommanderTaken, hold.clone()], "koth"),
            Some(area)
        );
        assert_eq!(ground(&[hold], "aquilonia"), None);
    }
}
