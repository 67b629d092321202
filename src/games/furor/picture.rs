//! The hex map as a picture (§15): flat-topped hexes in columns, even
//! columns half a hex lower, each filled by its terrain, rivers and
//! streams drawn on their hexsides with fords and bridges, roads from hex
//! centre to hex centre, every hex id legible, and the counters — full
//! side in the army's colour, reduced side white with the army's colour
//! (as the book's counters), commanders as discs, baggage as wagons,
//! markers for charges, Elite and *Pillé*. SVG text; `png` of the
//! Hyborean picture module rasterises it with the shipped font.
//!
//! ```
//! use umpire::games::furor::{picture, scenario::shipped, options::Options};
//! let board = shipped("vouille").unwrap().start(&Options::default(), &Default::default(), &"visigoths".into()).unwrap();
//! let svg = picture::svg(&board, &Default::default());
//! assert!(svg.starts_with("<svg") && svg.contains(">0907<"));
//! ```

use crate::games::furor::board::{Board, SideId, Unit, UnitId};
use crate::games::furor::hex::{Hex, Hexside};
use crate::games::furor::rules::terrain::{HexsideFeature, Terrain};
use crate::games::furor::rules::Kind;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Centre to corner, in pixels.
const SIZE: f64 = 30.0;
const MARGIN: f64 = 16.0;
const TITLE: f64 = 34.0;
const FONT: &str = "DejaVu Sans";

/// What to mark beside the board itself.
#[derive(Debug, Clone, Default)]
pub struct Marks {
    /// Units with a Charge marker (charged this player-turn).
    pub charged: BTreeSet<UnitId>,
    /// A line under the title (the turn, who writes next).
    pub caption: String,
    /// Set-up areas to shade, per side (the welcome's picture).
    pub areas: BTreeMap<SideId, Vec<Hex>>,
}

fn height() -> f64 {
    SIZE * 3f64.sqrt()
}

/// The centre of a hex on the picture.
pub fn centre(h: Hex) -> (f64, f64) {
    let x = MARGIN + SIZE + f64::from(h.col - 1) * 1.5 * SIZE;
    let lower = if h.col % 2 == 0 { height() / 2.0 } else { 0.0 };
    let y = TITLE + MARGIN + height() / 2.0 + f64::from(h.row - 1) * height() + lower;
    (x, y)
}

fn corners(h: Hex) -> [(f64, f64); 6] {
    let (x, y) = centre(h);
    std::array::from_fn(|k| {
        let a = std::f64::consts::PI / 3.0 * k as f64;
        (x + SIZE * a.cos(), y + SIZE * a.sin())
    })
}

/// The two corners a hexside runs between.
fn edge(s: Hexside) -> ((f64, f64), (f64, f64)) {
    let (a, b) = s.hexes();
    let (bx, by) = centre(b);
    let mut c = corners(a).to_vec();
    c.sort_by(|p, q| {
        ((p.0 - bx).powi(2) + (p.1 - by).powi(2))
            .total_cmp(&((q.0 - bx).powi(2) + (q.1 - by).powi(2)))
    });
    (c[0], c[1])
}

fn fill(t: Terrain) -> &'static str {
    match t {
        Terrain::Clear => "#eef1d6",
        Terrain::Village => "#dcd3c4",
        Terrain::Woods => "#a3c98e",
        Terrain::Hill => "#dcc28f",
        Terrain::WoodsHill => "#b9c07e",
        Terrain::Bridge => "#cdb58d",
        Terrain::Ford => "#c4dcec",
        Terrain::River => "#7fb1de",
    }
}

/// An army's colour by its name in the scenario, or by play order.
fn colour(board: &Board, u: &Unit) -> &'static str {
    if board.is_neutral(u) {
        return "#7a7a7a";
    }
    side_colour(board, &u.side)
}

/// A side's colour on the picture (its counters and its set-up area).
fn side_colour(board: &Board, side: &SideId) -> &'static str {
    let named = board.sides.get(side).and_then(|s| s.colour.as_deref());
    match named {
        Some("red") => "#a61e1e",
        Some("blue") => "#1f4e9c",
        Some("brown") => "#74461c",
        Some("yellow") => "#b8860b",
        Some("green") => "#2e6b30",
        _ if board.players.first() == Some(side) => "#a61e1e",
        _ => "#1f4e9c",
    }
}

use crate::report::esc;

/// A counter's short name: the id's first part, at most 9 letters.
fn short(u: &Unit) -> String {
    let n: String = u.name.chars().take(9).collect();
    n.trim().to_string()
}

/// The board as an SVG picture.
pub fn svg(board: &Board, marks: &Marks) -> String {
    let m = &board.map;
    let w = MARGIN * 2.0 + SIZE * 2.0 + f64::from(m.columns - 1) * 1.5 * SIZE;
    let h = TITLE + MARGIN * 2.0 + height() * (f64::from(m.rows) + 0.5);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="{FONT}">"##
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fbf8ef"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{MARGIN}" y="20" font-size="15" font-weight="bold">{}</text>"##,
        esc(&m.name)
    );
    if !marks.caption.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="{MARGIN}" y="36" font-size="11">{}</text>"##,
            esc(&marks.caption)
        );
    }
    for hx in m.all_hexes() {
        let t = m.terrain(hx);
        let pts: Vec<String> = corners(hx)
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="{}" stroke="#9a9a88" stroke-width="0.8"/>"##,
            pts.join(" "),
            fill(t)
        );
        let (x, y) = centre(hx);
        match t {
            Terrain::Woods | Terrain::WoodsHill => {
                for (dx, dy) in [(-9.0, 8.0), (0.0, 12.0), (9.0, 8.0)] {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{:.1}" cy="{:.1}" r="4" fill="#4f8a3c"/>"##,
                        x + dx,
                        y + dy
                    );
                }
            }
            Terrain::Village => {
                let _ = writeln!(
                    s,
                    r##"<path d="M{:.1},{:.1} l6,-6 l6,6 v6 h-12 z" fill="#8d7b64"/>"##,
                    x - 6.0,
                    y + 10.0
                );
            }
            _ => {}
        }
        if matches!(t, Terrain::Hill | Terrain::WoodsHill) {
            let _ = writeln!(
                s,
                r##"<path d="M{:.1},{:.1} q{:.1},-10 {:.1},0" fill="none" stroke="#9b7b3f" stroke-width="1.5"/>"##,
                x - 16.0,
                y + 16.0,
                16.0,
                32.0
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="7.5" fill="#666" text-anchor="middle">{hx}</text>"##,
            y - height() / 2.0 + 9.0
        );
    }
    // Set-up areas: each side's hexes outlined in its colour, named in a key.
    for (i, (side, hexes)) in marks.areas.iter().enumerate() {
        let c = side_colour(board, side);
        for hx in hexes.iter().filter(|h| m.contains(**h)) {
            let pts: Vec<String> = corners(*hx)
                .iter()
                .map(|(x, y)| format!("{x:.1},{y:.1}"))
                .collect();
            let _ = writeln!(
                s,
                r##"<polygon points="{}" fill="{c}" fill-opacity="0.16" stroke="{c}" stroke-width="2" stroke-dasharray="5,3"/>"##,
                pts.join(" ")
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="{c}" text-anchor="end">- - the {} set up here</text>"##,
            w - MARGIN,
            14.0 + 13.0 * i as f64,
            esc(&side.0),
        );
    }
    // Roads: every pair of adjacent hexes the map joins by road.
    let mut drawn = BTreeSet::new();
    for a in m.all_hexes().filter(|h| m.has_road(*h)) {
        for b in a.neighbours() {
            if m.contains(b) && m.along_road(a, b) && drawn.insert(Hexside::between(a, b)) {
                let ((x1, y1), (x2, y2)) = (centre(a), centre(b));
                let _ = writeln!(
                    s,
                    r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#8b5a2b" stroke-width="3.5" stroke-linecap="round"/>"##
                );
            }
        }
    }
    for (side, f) in &m.hexsides {
        let ((x1, y1), (x2, y2)) = edge(*side);
        let (stroke, width, dash) = match f {
            HexsideFeature::River | HexsideFeature::Bridge => ("#2a6fb5", 5.0, ""),
            HexsideFeature::Ford => ("#2a6fb5", 5.0, r#" stroke-dasharray="4,3""#),
            HexsideFeature::Stream => ("#4f9be0", 2.5, ""),
        };
        let _ = writeln!(
            s,
            r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width}" stroke-linecap="round"{dash}/>"##
        );
        if *f == HexsideFeature::Bridge {
            let (a, b) = side.hexes();
            let ((ax, ay), (bx, by)) = (centre(a), centre(b));
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let (dx, dy) = ((bx - ax) / 6.0, (by - ay) / 6.0);
            let _ = writeln!(
                s,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#6b4a2b" stroke-width="6"/>"##,
                mx - dx,
                my - dy,
                mx + dx,
                my + dy
            );
        }
    }
    for u in board.units.values() {
        let on = u.is_on_map() || u.status == crate::games::furor::board::Status::Pillaged;
        let Some(hx) = u.hex.filter(|_| on) else {
            continue;
        };
        counter(&mut s, board, u, hx, marks);
    }
    s.push_str("</svg>\n");
    s
}

fn counter(s: &mut String, board: &Board, u: &Unit, hx: Hex, marks: &Marks) {
    let (x, y) = centre(hx);
    let c = colour(board, u);
    let stacked = board.combat_unit_at(hx).is_some();
    match u.kind {
        Kind::Commander => {
            let (cx, cy, r) = if stacked {
                (x + 15.0, y - 13.0, 8.0)
            } else {
                (x, y, 12.0)
            };
            let _ = writeln!(
                s,
                r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r}" fill="#f4e3b2" stroke="{c}" stroke-width="2"/>"##
            );
            let initials: String = u.name.chars().take(2).collect();
            let _ = writeln!(
                s,
                r##"<text x="{cx:.1}" y="{:.1}" font-size="7" text-anchor="middle" fill="{c}">{}</text>"##,
                cy + 2.5,
                esc(&initials)
            );
        }
        Kind::Baggage => {
            let (bx, by) = if stacked {
                (x - 22.0, y + 6.0)
            } else {
                (x - 9.0, y - 5.0)
            };
            let pillaged = !u.is_on_map();
            let f = if pillaged { "#bbbbbb" } else { "#e9d9a6" };
            let _ = writeln!(
                s,
                r##"<rect x="{bx:.1}" y="{by:.1}" width="16" height="9" fill="{f}" stroke="{c}" stroke-width="1.5"/>"##
            );
            let label = if pillaged { "Pillé" } else { "bag" };
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="5.5" text-anchor="middle">{label}</text>"##,
                bx + 8.0,
                by + 6.5
            );
        }
        _ => {
            let side = SIZE * 1.15;
            let (left, top) = (x - side / 2.0, y - side / 2.0);
            let full = u.is_full();
            let (bg, fg) = if full { (c, "#ffffff") } else { ("#ffffff", c) };
            let _ = writeln!(
                s,
                r##"<rect x="{left:.1}" y="{top:.1}" width="{side:.1}" height="{side:.1}" rx="2" fill="{bg}" stroke="{c}" stroke-width="2"/>"##
            );
            let glyph = match u.kind {
                Kind::Cavalry => "⁄",
                Kind::MissileCavalry => "⁄·",
                Kind::MissileInfantry => "·",
                _ => "×",
            };
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" font-size="6.5" text-anchor="middle" fill="{fg}">{}</text>"##,
                top + 8.0,
                esc(&short(u))
            );
            let range = if u.range > 0 {
                format!(" r{}", u.range)
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" font-size="13" font-weight="bold" text-anchor="middle" fill="{fg}">{}</text>"##,
                y + 5.0,
                u.current_strength()
            );
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" font-size="6.5" text-anchor="middle" fill="{fg}">{glyph} {}{range}</text>"##,
                top + side - 3.0,
                u.mp
            );
            if marks.charged.contains(&u.id) {
                let _ = writeln!(
                    s,
                    r##"<rect x="{:.1}" y="{:.1}" width="11" height="9" fill="#ffd54a" stroke="#333" stroke-width="0.6"/><text x="{:.1}" y="{:.1}" font-size="7" text-anchor="middle">C</text>"##,
                    left - 4.0,
                    top - 4.0,
                    left + 1.5,
                    top + 3.0
                );
            }
            if u.elite {
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" font-size="7" fill="{fg}">+1</text>"##,
                    left + 1.5,
                    y + 5.0
                );
            }
            if board.is_neutral(u) {
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" font-size="7" fill="{fg}">N</text>"##,
                    left + side - 7.0,
                    y + 5.0
                );
            }
        }
    }
}
