//! The world as the map picture draws it: every province a region of its
//! own, the cells grown from its points (`at`, and `shape` where the data
//! gives more) by [`crate::geometry::voronoi`], the seas over them, and the
//! [`Frontier`]s where two regions meet on land — open, across a river,
//! through a pass, or closed where the data has no border between them.
//! An [`Atlas`] is in the map's own units (`at`'s: x east, y south); the
//! picture scales it.
//!
//! ```
//! use umpire::games::hyborian::campaign::{atlas::{Atlas, Crossing}, map::World};
//! let world = World::hyborea().unwrap();
//! let atlas = Atlas::of(&world);
//! let tybor = atlas.frontier("shamar", "ophirean-hills").unwrap();
//! assert_eq!(tybor.crossing, Crossing::River("Tybor".into()));
//! assert!(!tybor.pieces.is_empty());
//! ```
//!
//! Architecture invariant: the atlas is a pure function of the world's
//! data; the fog and the owners are the report's business.

use super::map::World;
use crate::geometry::point_in_polygon;
use crate::geometry::voronoi::{cells, pieces_outside, shared_edge};
use glam::DVec2;
use std::collections::BTreeMap;

/// What lies on the line where two regions meet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Crossing {
    /// Neighbours, nothing between.
    Open,
    /// Neighbours across a river (its name).
    River(String),
    /// Neighbours through a pass (its name).
    Pass(String),
    /// The regions touch but the map has no border: no march between them.
    Closed,
}

/// Where two provinces' regions meet on land.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontier {
    /// The two provinces, in id order.
    pub between: (String, String),
    pub crossing: Crossing,
    /// The line's stretches on land (a sea may cut it).
    pub pieces: Vec<(DVec2, DVec2)>,
}

/// The world's regions and frontiers.
#[derive(Debug, Clone, PartialEq)]
pub struct Atlas {
    /// Each province's cells, by id.
    pub regions: BTreeMap<String, Vec<Vec<DVec2>>>,
    /// Every frontier, in the order of the provinces' ids.
    pub frontiers: Vec<Frontier>,
    /// The seas' shores.
    pub seas: Vec<Vec<DVec2>>,
}

fn point(p: [f64; 2]) -> DVec2 {
    DVec2::new(p[0], p[1])
}

impl Atlas {
    /// Grow the regions of `world`'s provinces within its frame.
    pub fn of(world: &World) -> Atlas {
        let seeds: Vec<(&str, DVec2)> = world
            .provinces
            .values()
            .flat_map(|p| {
                std::iter::once(p.at)
                    .chain(p.shape.iter().copied())
                    .map(move |at| (p.id.as_str(), point(at)))
            })
            .collect();
        let sites: Vec<DVec2> = seeds.iter().map(|(_, s)| *s).collect();
        let grown = cells(&sites, DVec2::ZERO, DVec2::new(world.width, world.height));
        let seas: Vec<Vec<DVec2>> = world
            .seas
            .iter()
            .map(|s| s.shore.iter().map(|p| point(*p)).collect())
            .collect();
        let mut regions: BTreeMap<String, Vec<Vec<DVec2>>> = BTreeMap::new();
        for ((id, _), cell) in seeds.iter().zip(&grown) {
            regions
                .entry(id.to_string())
                .or_default()
                .push(cell.clone());
        }
        let mut lines: BTreeMap<(String, String), Vec<(DVec2, DVec2)>> = BTreeMap::new();
        for i in 0..seeds.len() {
            for j in i + 1..seeds.len() {
                let (a, b) = (seeds[i].0, seeds[j].0);
                if a == b {
                    continue;
                }
                let Some((p, q)) = shared_edge(&grown, &sites, i, j) else {
                    continue;
                };
                let pair = if a < b { (a, b) } else { (b, a) };
                lines
                    .entry((pair.0.to_string(), pair.1.to_string()))
                    .or_default()
                    .extend(pieces_outside(p, q, &seas));
            }
        }
        let frontiers = lines
            .into_iter()
            .filter(|(_, pieces)| !pieces.is_empty())
            .map(|((a, b), pieces)| {
                let crossing = match world.border(&a, &b) {
                    None => Crossing::Closed,
                    Some(border) => match (&border.river, &border.pass) {
                        (Some(r), _) => Crossing::River(r.clone()),
                        (None, Some(p)) => Crossing::Pass(p.clone()),
                        (None, None) => Crossing::Open,
                    },
                };
                Frontier {
                    between: (a, b),
                    crossing,
                    pieces,
                }
            })
            .collect();
        Atlas {
            regions,
            frontiers,
            seas,
        }
    }

    /// The frontier between two provinces, either order.
    pub fn frontier(&self, a: &str, b: &str) -> Option<&Frontier> {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        self.frontiers
            .iter()
            .find(|f| f.between.0 == a && f.between.1 == b)
    }

    /// Borders of the data whose regions do not meet on land: the map
    /// picture cannot show them as a shared line.
    pub fn apart(&self, world: &World) -> Vec<(String, String)> {
        world
            .provinces
            .values()
            .flat_map(|p| p.borders.iter().map(move |b| (&p.id, &b.to)))
            .filter(|(a, b)| a < b && self.frontier(a, b).is_none())
            .map(|(a, b)| (a.clone(), b.clone()))
            .collect()
    }

    /// Whether `p` is on land in `province`'s region.
    pub fn in_region(&self, province: &str, p: DVec2) -> bool {
        self.regions
            .get(province)
            .is_some_and(|cells| cells.iter().any(|c| point_in_polygon(p, c)))
            && !self.seas.iter().any(|s| point_in_polygon(p, s))
    }

    /// Whether the rectangle `min`–`max` lies wholly on land in
    /// `province`'s region: its corners and middle inside, and no
    /// frontier or shore through it.
    pub fn holds(&self, province: &str, min: DVec2, max: DVec2) -> bool {
        let corners = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
        if !corners
            .iter()
            .chain(std::iter::once(&((min + max) / 2.0)))
            .all(|c| self.in_region(province, *c))
        {
            return false;
        }
        let crosses = |a: DVec2, b: DVec2| segment_meets_box(a, b, min, max);
        let shores = self
            .seas
            .iter()
            .flat_map(|s| (0..s.len()).map(move |i| (s[i], s[(i + 1) % s.len()])));
        !self
            .frontiers
            .iter()
            .filter(|f| f.between.0 == province || f.between.1 == province)
            .flat_map(|f| f.pieces.iter().copied())
            .chain(shores)
            .any(|(a, b)| crosses(a, b))
    }
}

impl Atlas {
    /// Whether the rectangle `min`–`max` lies wholly in the sea `shore`.
    pub fn in_sea(&self, shore: &[DVec2], min: DVec2, max: DVec2) -> bool {
        let corners = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
        corners.iter().all(|c| point_in_polygon(*c, shore))
            && !(0..shore.len())
                .any(|i| segment_meets_box(shore[i], shore[(i + 1) % shore.len()], min, max))
    }
}

/// Whether segment `a`–`b` has a point inside the box `min`–`max`.
fn segment_meets_box(a: DVec2, b: DVec2, min: DVec2, max: DVec2) -> bool {
    // Liang and Barsky: clip the segment's parameter range to each slab.
    let d = b - a;
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [
        (-d.x, a.x - min.x),
        (d.x, max.x - a.x),
        (-d.y, a.y - min.y),
        (d.y, max.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    t0 < t1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::voronoi::area;

    #[test]
    fn every_province_has_a_region_of_land_holding_its_point() {
        let world = World::hyborea().unwrap();
        let atlas = Atlas::of(&world);
        assert_eq!(atlas.regions.len(), world.provinces.len());
        for (id, p) in &world.provinces {
            let cells = &atlas.regions[id];
            assert!(cells.iter().all(|c| area(c) > 1.0), "{id}: {cells:?}");
            assert!(atlas.in_region(id, point(p.at)), "{id}");
        }
    }

    /// Every border of the data is a line the two regions share on land;
    /// regions that meet without a border (the data's graph is sparser
    /// than any map: about sixty such pairs) are closed, drawn as such.
    #[test]
    fn every_border_of_the_data_is_a_shared_line_on_the_map() {
        let world = World::hyborea().unwrap();
        let atlas = Atlas::of(&world);
        assert_eq!(atlas.apart(&world), Vec::<(String, String)>::new());
        for f in &atlas.frontiers {
            let (a, b) = &f.between;
            assert_eq!(
                f.crossing == Crossing::Closed,
                world.border(a, b).is_none(),
                "{a}-{b}"
            );
        }
        let rivers = |name: &str| {
            atlas
                .frontiers
                .iter()
                .filter(|f| f.crossing == Crossing::River(name.into()))
                .count()
        };
        assert_eq!(rivers("Styx"), 5);
    }

    #[test]
    fn a_box_across_a_frontier_or_a_shore_is_not_held() {
        let world = World::hyborea().unwrap();
        let atlas = Atlas::of(&world);
        let at = point(world.province("tarantia").unwrap().at);
        let small = DVec2::splat(0.5);
        assert!(atlas.holds("tarantia", at - small, at + small));
        assert!(!atlas.holds("shamar", at - small, at + small));
        assert!(!atlas.holds("tarantia", at - small * 40.0, at + small * 40.0));
        assert!(segment_meets_box(
            DVec2::new(-1.0, 0.5),
            DVec2::new(2.0, 0.5),
            DVec2::ZERO,
            DVec2::ONE
        ));
        assert!(!segment_meets_box(
            DVec2::new(-1.0, 1.5),
            DVec2::new(2.0, 1.5),
            DVec2::ZERO,
            DVec2::ONE
        ));
    }
}
