//! A positional line bends to its terrain (§1; ruling E-4): "a unit is in
//! a line formation but must bend to conform to terrain such as woods or
//! hillsides", taken "to keep an entire unit within the same terrain".
//!
//! Where the straight line would leave its terrain area, its ends are bent
//! back behind the centre. On the table the unit is then the frame of the
//! bent line: fewer files facing the front, deeper, wholly inside the area,
//! the centre of its front rank where it was (the pivot of every change of
//! formation, ruling E-6).

use super::geometry::Pose;
use super::{Table, Terrain, TerrainKind, Unit};
use crate::games::hyborian::rules::bases::models;
use crate::games::hyborian::rules::formations::POSITIONAL_LINE_LEAST_FRONT;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::Formation;
use crate::geometry::{point_in_polygon, Footprint};
use glam::DVec2;

impl Table {
    /// The terrain area a positional line may stand in at `p` (§1: woods,
    /// hillsides, swamps; never a road or water): the first in the table's
    /// order whose outline holds the point.
    pub fn rough_area_at(&self, p: DVec2) -> Option<&Terrain> {
        self.terrain
            .iter()
            .filter(|t| !matches!(t.kind, TerrainKind::Road { .. }) && !t.kind.is_water())
            .find(|t| point_in_polygon(p, &t.points))
    }
}

/// Whether the rectangle lies wholly inside the polygon: its corners are
/// inside and no side of the polygon cuts into it (the polygon may be
/// concave).
fn within(f: &Footprint, poly: &[DVec2]) -> bool {
    f.corners().iter().all(|c| point_in_polygon(*c, poly))
        && (0..poly.len()).all(|i| !f.crosses_segment(poly[i], poly[(i + 1) % poly.len()]))
}

/// The pose of a positional line bent to keep within its area, and the
/// area's name: the widest frame, from the straight line's files down to
/// the least front of ruling E-4, that stands wholly inside. `None` when
/// the game's lines do not bend, the pose is no positional line, stands in
/// no area, already fits straight, or cannot be bent enough (it then stays
/// straight).
pub fn bent(
    table: &Table,
    options: &GameOptions,
    unit: &Unit,
    pose: Pose,
) -> Option<(Pose, &'static str)> {
    if !options.positional_line_bends || pose.formation != Formation::PositionalLine {
        return None;
    }
    let area = table.rough_area_at(pose.front)?;
    let fits = |p: &Pose| within(&p.footprint(unit.kind), &area.points);
    if fits(&pose) {
        return None;
    }
    let n = models(unit.kind, unit.figures).max(1);
    let least = pose.files.div_ceil(POSITIONAL_LINE_LEAST_FRONT).max(1);
    (least..pose.files)
        .rev()
        .map(|files| Pose {
            files,
            ranks: n.div_ceil(files),
            ..pose
        })
        .find(fits)
        .map(|p| (p, area.name()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::rules::{Class, UnitType};
    use crate::games::hyborian::table::{Status, Terrain};

    fn woods(x0: f64, y0: f64, x1: f64, y1: f64) -> Terrain {
        Terrain {
            kind: TerrainKind::Woods,
            points: vec![
                DVec2::new(x0, y0),
                DVec2::new(x1, y0),
                DVec2::new(x1, y1),
                DVec2::new(x0, y1),
            ],
        }
    }

    fn unit_in(formation: Formation, files: u32, ranks: u32) -> Unit {
        Unit {
            id: "spears".into(),
            side: "a".into(),
            name: "Spearmen".into(),
            number: 1,
            kind: UnitType::MediumInfantry,
            class: Class::B,
            figures: files * ranks,
            original: files * ranks,
            weapons: vec![],
            traits: vec![],
            formation,
            files,
            ranks,
            front: DVec2::new(10.0, 10.0),
            facing: 0.0,
            status: Status::Ready,
            in_melee_with: Default::default(),
            attached_to: None,
            spell_points: None,
            mounted: false,
        }
    }

    fn table_with(terrain: Vec<Terrain>) -> Table {
        Table {
            terrain,
            ..Table::default()
        }
    }

    #[test]
    fn a_line_too_wide_for_the_woods_bends_back_inside_them() {
        // 24 medium foot, 12 × 2: 7 inches wide, 2 deep; the woods are
        // 5 inches wide and 6 deep behind the front centre.
        let u = unit_in(Formation::PositionalLine, 12, 2);
        let table = table_with(vec![woods(7.5, 4.0, 12.5, 10.5)]);
        let (p, area) = bent(&table, &GameOptions::default(), &u, u.pose()).expect("bent");
        assert_eq!(area, "woods");
        assert!(p.files < 12 && p.files >= 4, "{p:?}");
        assert_eq!(p.ranks, 24u32.div_ceil(p.files));
        assert!(within(&p.footprint(u.kind), &table.terrain[0].points));
        assert_eq!(p.front, u.front, "the front centre stays put");
        // The widest that fits: one more file would stick out.
        let wider = Pose {
            files: p.files + 1,
            ranks: 24u32.div_ceil(p.files + 1),
            ..p
        };
        assert!(!within(&wider.footprint(u.kind), &table.terrain[0].points));
    }

    #[test]
    fn a_line_that_fits_or_cannot_fit_stays_straight() {
        let u = unit_in(Formation::PositionalLine, 12, 2);
        let wide = table_with(vec![woods(0.0, 0.0, 20.0, 10.5)]);
        assert_eq!(
            bent(&wide, &GameOptions::default(), &u, u.pose()),
            None,
            "fits straight"
        );
        // A strip of woods 1 inch deep: no bend keeps 24 figures inside.
        let strip = table_with(vec![woods(0.0, 9.5, 20.0, 10.5)]);
        let narrow = table_with(vec![woods(9.0, 0.0, 11.0, 10.5)]);
        assert_eq!(bent(&strip, &GameOptions::default(), &u, u.pose()), None);
        assert_eq!(
            bent(&narrow, &GameOptions::default(), &u, u.pose()),
            None,
            "2 inches is less than a third of the line's front"
        );
        let small = table_with(vec![woods(7.5, 4.0, 12.5, 10.5)]);
        let straight = GameOptions {
            positional_line_bends: false,
            ..GameOptions::default()
        };
        assert_eq!(
            bent(&small, &straight, &u, u.pose()),
            None,
            "the club's option"
        );
        let line = unit_in(Formation::Line, 12, 2);
        assert_eq!(
            bent(&small, &GameOptions::default(), &line, line.pose()),
            None,
            "only a positional line bends"
        );
        assert_eq!(
            bent(&table_with(vec![]), &GameOptions::default(), &u, u.pose()),
            None,
            "open ground"
        );
    }

    #[test]
    fn a_notch_in_the_woods_is_kept_out_of() {
        // Woods 12 wide with a notch cut in from the west: the
        // straight 12 × 2 line's corners are all in the woods, but the
        // notch's sides cut into it.
        let notched = Terrain {
            kind: TerrainKind::Woods,
            points: vec![
                DVec2::new(4.0, 4.0),
                DVec2::new(16.0, 4.0),
                DVec2::new(16.0, 10.5),
                DVec2::new(4.0, 10.5),
                DVec2::new(4.0, 9.5),
                DVec2::new(7.0, 9.5),
                DVec2::new(7.0, 8.5),
                DVec2::new(4.0, 8.5),
            ],
        };
        let u = unit_in(Formation::PositionalLine, 12, 2);
        let straight = u.pose().footprint(u.kind);
        assert!(straight
            .corners()
            .iter()
            .all(|c| point_in_polygon(*c, &notched.points)));
        let table = table_with(vec![notched]);
        let (p, _) =
            bent(&table, &GameOptions::default(), &u, u.pose()).expect("bent clear of the notch");
        assert!(within(&p.footprint(u.kind), &table.terrain[0].points));
        assert!(p.files < 12);
    }
}
