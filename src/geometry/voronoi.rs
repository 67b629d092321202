//! Regions grown from points: the Voronoi cell of every site within a
//! rectangle ([`cells`]: each point of the rectangle belongs to the site
//! nearest to it), the edge two cells share ([`shared_edge`]), and the
//! pieces of a segment that lie outside some polygons ([`pieces_outside`]:
//! a border's stretch on land, not in a sea). Each cell is the rectangle
//! cut by one half-plane per other site ([`clip_half_plane`], Sutherland and
//! Hodgman's clipping), so a cell is convex and holds its site.
//!
//! ```
//! use glam::DVec2;
//! use umpire::geometry::voronoi::{cells, shared_edge};
//! let sites = [DVec2::new(1.0, 1.0), DVec2::new(3.0, 1.0)];
//! let c = cells(&sites, DVec2::ZERO, DVec2::new(4.0, 2.0));
//! let (a, b) = shared_edge(&c, &sites, 0, 1).unwrap();
//! assert_eq!((a.x, b.x), (2.0, 2.0));
//! assert_eq!((a.y - b.y).abs(), 2.0);
//! ```

use super::lines::point_in_polygon;
use glam::DVec2;

/// Lengths (in the sites' units) closer than this are one point.
const NEAR: f64 = 1e-7;

/// The part of the convex polygon `poly` where `normal · p <= offset`.
pub fn clip_half_plane(poly: &[DVec2], normal: DVec2, offset: f64) -> Vec<DVec2> {
    let side = |p: DVec2| normal.dot(p) - offset;
    let mut out = Vec::with_capacity(poly.len() + 1);
    for (i, &p) in poly.iter().enumerate() {
        let q = poly[(i + 1) % poly.len()];
        let (sp, sq) = (side(p), side(q));
        if sp <= 0.0 {
            out.push(p);
        }
        if (sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0) {
            out.push(p + (q - p) * (sp / (sp - sq)));
        }
    }
    out
}

/// Every site's cell within the rectangle `min`–`max`, in the sites'
/// order: the points nearer that site than any other. Sites outside the
/// rectangle or repeated get what is left to them (a repeated site shares
/// its cell with its twin).
pub fn cells(sites: &[DVec2], min: DVec2, max: DVec2) -> Vec<Vec<DVec2>> {
    let frame = vec![min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
    sites
        .iter()
        .map(|&s| {
            sites
                .iter()
                .filter(|&&o| o.distance(s) > NEAR)
                .fold(frame.clone(), |cell, &o| {
                    // Nearer s than o: (p - middle) · (o - s) <= 0.
                    let normal = o - s;
                    clip_half_plane(&cell, normal, normal.dot((s + o) / 2.0))
                })
        })
        .collect()
}

/// The edge cells `i` and `j` share, if they touch along a line (not at a
/// single corner).
pub fn shared_edge(
    cells: &[Vec<DVec2>],
    sites: &[DVec2],
    i: usize,
    j: usize,
) -> Option<(DVec2, DVec2)> {
    let (s, o) = (sites[i], sites[j]);
    let along = (o - s).perp();
    let scale = s.distance(o).max(1.0);
    let on: Vec<DVec2> = cells[i]
        .iter()
        .copied()
        .filter(|v| (v.distance(s) - v.distance(o)).abs() < NEAR * scale)
        .collect();
    let key = |v: &&DVec2| along.dot(**v);
    let a = *on.iter().min_by(|x, y| key(x).total_cmp(&key(y)))?;
    let b = *on.iter().max_by(|x, y| key(x).total_cmp(&key(y)))?;
    (a.distance(b) > NEAR * scale).then_some((a, b))
}

/// Where segment `a`–`b` meets segment `c`–`d`, as a fraction of `a`–`b`.
fn crossing(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> Option<f64> {
    let (r, s) = (b - a, d - c);
    let denom = r.perp_dot(s);
    if denom.abs() < f64::EPSILON {
        return None;
    }
    let t = (c - a).perp_dot(s) / denom;
    let u = (c - a).perp_dot(r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

/// The pieces of segment `a`–`b` inside none of `polygons`, from `a`'s end.
pub fn pieces_outside(a: DVec2, b: DVec2, polygons: &[Vec<DVec2>]) -> Vec<(DVec2, DVec2)> {
    let mut cuts = vec![0.0, 1.0];
    for poly in polygons {
        for (i, &c) in poly.iter().enumerate() {
            cuts.extend(crossing(a, b, c, poly[(i + 1) % poly.len()]));
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.dedup_by(|x, y| (*x - *y).abs() < NEAR);
    let at = |t: f64| a + (b - a) * t;
    let mut out: Vec<(DVec2, DVec2)> = Vec::new();
    for w in cuts.windows(2) {
        let middle = at((w[0] + w[1]) / 2.0);
        if polygons.iter().any(|p| point_in_polygon(middle, p)) {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.1.distance(at(w[0])) < NEAR => last.1 = at(w[1]),
            _ => out.push((at(w[0]), at(w[1]))),
        }
    }
    out
}

/// A polygon's area (either winding).
pub fn area(poly: &[DVec2]) -> f64 {
    let twice: f64 = poly
        .iter()
        .enumerate()
        .map(|(i, p)| p.perp_dot(poly[(i + 1) % poly.len()]))
        .sum();
    twice.abs() / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn a_half_plane_cuts_a_square_in_two() {
        let square = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let left = clip_half_plane(&square, v(1.0, 0.0), 1.0);
        assert_eq!(left, [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 2.0), v(0.0, 2.0)]);
        assert!(clip_half_plane(&square, v(1.0, 0.0), -1.0).is_empty());
        assert_eq!(clip_half_plane(&square, v(1.0, 0.0), 5.0), square);
        // A corner cut off: five sides.
        assert_eq!(clip_half_plane(&square, v(1.0, 1.0), 3.0).len(), 5);
    }

    #[test]
    fn every_cell_holds_its_site_and_the_cells_fill_the_frame() {
        let sites = [
            v(1.0, 1.0),
            v(5.0, 2.0),
            v(3.0, 6.0),
            v(8.0, 7.0),
            v(9.0, 1.0),
        ];
        let c = cells(&sites, v(0.0, 0.0), v(10.0, 8.0));
        for (cell, s) in c.iter().zip(&sites) {
            assert!(point_in_polygon(*s, cell), "{s} in {cell:?}");
        }
        let total: f64 = c.iter().map(|p| area(p)).sum();
        assert!((total - 80.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn neighbours_share_an_edge_and_distant_cells_do_not() {
        let sites = [v(1.0, 1.0), v(3.0, 1.0), v(5.0, 1.0)];
        let c = cells(&sites, v(0.0, 0.0), v(6.0, 2.0));
        assert_eq!(
            shared_edge(&c, &sites, 0, 1),
            Some((v(2.0, 0.0), v(2.0, 2.0)))
        );
        assert_eq!(
            shared_edge(&c, &sites, 1, 0),
            Some((v(2.0, 2.0), v(2.0, 0.0)))
        );
        assert_eq!(shared_edge(&c, &sites, 0, 2), None);
        // Four cells meeting at one corner: the diagonal ones only touch.
        let sites = [v(1.0, 1.0), v(3.0, 1.0), v(1.0, 3.0), v(3.0, 3.0)];
        let c = cells(&sites, v(0.0, 0.0), v(4.0, 4.0));
        assert!(shared_edge(&c, &sites, 0, 1).is_some());
        assert_eq!(shared_edge(&c, &sites, 0, 3), None);
    }

    #[test]
    fn a_segment_loses_what_lies_in_a_polygon() {
        let lake = vec![v(2.0, -1.0), v(4.0, -1.0), v(4.0, 1.0), v(2.0, 1.0)];
        let pieces = pieces_outside(v(0.0, 0.0), v(6.0, 0.0), std::slice::from_ref(&lake));
        assert_eq!(
            pieces,
            [(v(0.0, 0.0), v(2.0, 0.0)), (v(4.0, 0.0), v(6.0, 0.0))]
        );
        assert!(pieces_outside(v(2.5, 0.0), v(3.5, 0.0), std::slice::from_ref(&lake)).is_empty());
        assert_eq!(
            pieces_outside(v(0.0, 5.0), v(6.0, 5.0), &[lake]),
            [(v(0.0, 5.0), v(6.0, 5.0))]
        );
    }
}
