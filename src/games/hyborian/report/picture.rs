//! The picture of the table: terrain, every unit as its true footprint
//! with its facing and a short label in its side's colours, this turn's
//! moves as arrows from where each unit started, melees marked, units lost
//! faded, a scale bar and a north arrow. Drawn as SVG; `crate::report::picture::png`
//! rasterises it.

use crate::games::hyborian::army::scenario::Zone;
use crate::games::hyborian::table::{EffectKind, Table, TerrainKind, Unit};
use glam::DVec2;
use std::fmt::Write as _;

use crate::report::esc;
use crate::report::picture::{Frame, FONT_FAMILY, MARGIN, SCALE};

/// Height of the legend strip under the table, pixels.
const LEGEND: f64 = 50.0;

/// A side's colours: fill and outline, from its banner where the book gives one.
fn side_colours(side: &str, index: usize) -> (&'static str, &'static str) {
    match side.to_ascii_lowercase().as_str() {
        "aquilonia" => ("#d4a017", "#111111"), // gold lion on black
        "nemedia" => ("#c0392b", "#f1c40f"),   // scarlet, gold dragon
        "koth" => ("#f4d03f", "#111111"),      // yellow, black triangle
        "stygia" => ("#2e7d32", "#111111"),    // black serpent on green
        "turan" => ("#3f8f4f", "#d0d3d4"),     // green, silver writing
        "zamora" => ("#b03a2e", "#ffffff"),    // red, white crescent
        "ophir" => ("#1f4e9c", "#c0392b"),     // royal blue, scarlet disc
        "brythunia" => ("#c0392b", "#111111"), // black bar on red
        "zingara" => ("#e67e22", "#111111"),   // orange and white, black crown
        "argos" => ("#7d3c98", "#f1c40f"),     // purple, gold balls
        "khauran" => ("#27ae60", "#ffffff"),
        "khoraja" => ("#f5b7b1", "#bdc3c7"),
        "shem" => ("#85c1e9", "#f1c40f"), // sky blue, gold sun
        _ => [
            ("#5dade2", "#1b4f72"),
            ("#ec7063", "#78281f"),
            ("#58d68d", "#186a3b"),
            ("#af7ac5", "#4a235a"),
        ][index % 4],
    }
}

/// A short label for a unit: its number and the first word of its name.
fn label(u: &Unit) -> String {
    let word = u.name.split_whitespace().last().unwrap_or("");
    let word: String = word.chars().take(12).collect();
    format!("{} {}", u.number, word)
}

/// Draw the table after a turn, with arrows from where units stood before
/// it; the moves of the units in `charged` are drawn as charges (red, solid).
pub fn svg(before: Option<&Table>, after: &Table, charged: &[String], caption: &str) -> String {
    draw(before, after, charged, &[], caption)
}

/// The table at the start of a battle with each side's deployment zone
/// drawn as a dashed rectangle in its colours and named.
pub fn start_svg(table: &Table, zones: &[(String, Zone)], caption: &str) -> String {
    draw(None, table, &[], zones, caption)
}

fn draw(
    before: Option<&Table>,
    after: &Table,
    charged: &[String],
    zones: &[(String, Zone)],
    caption: &str,
) -> String {
    let f = Frame { depth: after.depth };
    let w = after.width * SCALE + 2.0 * MARGIN;
    let h = after.depth * SCALE + 2.0 * MARGIN + LEGEND;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="{FONT_FAMILY}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>
<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="#ffffff"/>
<rect x="{MARGIN}" y="{MARGIN}" width="{tw:.0}" height="{th:.0}" fill="#e9efd8" stroke="#555" stroke-width="1.5"/>
"##,
        tw = after.width * SCALE,
        th = after.depth * SCALE
    );
    // Water first, then fords and bridges over it, then everything else in
    // the order listed.
    let layer = |k: &TerrainKind| match k {
        TerrainKind::River | TerrainKind::Stream => 0,
        TerrainKind::Ford => 1,
        TerrainKind::Bridge => 2,
        _ => 3,
    };
    let mut terrain: Vec<&crate::games::hyborian::table::Terrain> = after.terrain.iter().collect();
    terrain.sort_by_key(|t| layer(&t.kind));
    for t in terrain {
        match &t.kind {
            TerrainKind::River => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#8db9e3" stroke="#2f6ea8" stroke-width="1.5"/>"##,
                    f.points(&t.points)
                );
            }
            TerrainKind::Stream => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#b4d3ee" stroke="#2f6ea8" stroke-width="1"/>"##,
                    f.points(&t.points)
                );
            }
            TerrainKind::Ford => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#d2e6f4" stroke="#2f6ea8" stroke-width="1" stroke-dasharray="3 2"/>"##,
                    f.points(&t.points)
                );
            }
            TerrainKind::Bridge => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#b08a5a" stroke="#5e4327" stroke-width="1.5"/>"##,
                    f.points(&t.points)
                );
            }
            TerrainKind::Hill { contours } => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#d9c89e" stroke="#8d6e3f" stroke-width="1.5"/>"##,
                    f.points(&t.points)
                );
                if *contours >= 2 {
                    let c = t.points.iter().copied().sum::<DVec2>() / t.points.len().max(1) as f64;
                    let inner: Vec<DVec2> = t.points.iter().map(|p| c + (*p - c) * 0.6).collect();
                    let _ = writeln!(
                        s,
                        r##"<polygon points="{}" fill="#c9b07a" stroke="#8d6e3f" stroke-width="1.5"/>"##,
                        f.points(&inner)
                    );
                }
            }
            TerrainKind::Woods => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#8fbf7a" stroke="#3e6b2e" stroke-width="1.5" stroke-dasharray="4 2"/>"##,
                    f.points(&t.points)
                );
            }
            TerrainKind::Swamp => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#a9c4bb" stroke="#4d7a6e" stroke-width="1.5" stroke-dasharray="1 3"/>"##,
                    f.points(&t.points)
                );
            }
            TerrainKind::Road { width } => {
                let _ = writeln!(
                    s,
                    r##"<polyline points="{}" fill="none" stroke="#c2a878" stroke-width="{:.1}" stroke-linecap="round"/>"##,
                    f.points(&t.points),
                    width * SCALE
                );
            }
        }
    }
    magic(&mut s, &f, after);
    let sides: Vec<String> = after.sides().into_iter().collect();
    let index = |side: &str| sides.iter().position(|x| x == side).unwrap_or(0);
    for (side, zone) in zones {
        let (fill, line) = side_colours(side, index(side));
        let (x, y) = f.p(DVec2::new(zone.x[0], zone.y[1]));
        let (zw, zh) = (
            (zone.x[1] - zone.x[0]) * SCALE,
            (zone.y[1] - zone.y[0]) * SCALE,
        );
        let _ = writeln!(
            s,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{zw:.1}" height="{zh:.1}" fill="{fill}" fill-opacity="0.15" stroke="{line}" stroke-width="1.5" stroke-dasharray="6 4"/><text x="{:.1}" y="{:.1}" font-size="11" fill="#222">{} deployment zone</text>"##,
            x + 4.0,
            y + 13.0,
            esc(side)
        );
    }
    for u in after.units.values() {
        let (fill, line) = side_colours(&u.side, index(&u.side));
        let opacity = if u.status.is_present() && u.figures > 0 {
            1.0
        } else {
            0.25
        };
        let fp = u.footprint();
        let corners = fp.corners();
        let _ = writeln!(
            s,
            r##"<g opacity="{opacity}"><polygon points="{}" fill="{fill}" stroke="{line}" stroke-width="1"/>"##,
            f.points(&corners)
        );
        // The front edge, thick, shows the facing.
        let (a, b) = fp.edge(crate::geometry::Edge::Front);
        let (x1, y1) = f.p(a);
        let (x2, y2) = f.p(b);
        let _ = writeln!(
            s,
            r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{line}" stroke-width="3"/>"##
        );
        let centre = corners.iter().copied().sum::<DVec2>() / 4.0;
        let (cx, cy) = f.p(centre);
        let _ = writeln!(
            s,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#000" stroke="#fff" stroke-width="2.5" paint-order="stroke">{}</text></g>"##,
            cy + 4.0,
            esc(&label(u))
        );
    }
    // Moves: from the front centre before the turn to the front centre now.
    if let Some(before) = before {
        for (id, u) in &after.units {
            if let Some(b) = before.units.get(id) {
                if b.front.distance(u.front) > 0.1 {
                    let (x1, y1) = f.p(b.front);
                    let (x2, y2) = f.p(u.front);
                    let style = if charged.contains(id) {
                        r##"stroke="#c00" stroke-width="2.5""##
                    } else {
                        r##"stroke="#333" stroke-width="1.5" stroke-dasharray="5 3""##
                    };
                    let _ = writeln!(
                        s,
                        r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style} marker-end="url(#arrow)"/>"##
                    );
                }
            }
        }
    }
    // Melees: a red ring where the two units meet.
    for u in after.units.values() {
        for other in &u.in_melee_with {
            if u.id < *other {
                if let Some(o) = after.units.get(other) {
                    let (mx, my) = f.p((u.front + o.front) / 2.0);
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{mx:.1}" cy="{my:.1}" r="9" fill="none" stroke="#d00" stroke-width="3"/><text x="{mx:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#d00" font-weight="bold">X</text>"##,
                        my + 4.0
                    );
                }
            }
        }
    }
    // North arrow, top right of the table.
    let nx = MARGIN + after.width * SCALE - 25.0;
    let ny = MARGIN + 15.0;
    let _ = writeln!(
        s,
        r##"<path d="M{nx:.1},{ny:.1} l-7,20 l7,-6 l7,6 z" fill="#222"/><text x="{nx:.1}" y="{:.1}" font-size="12" text-anchor="middle">N</text>"##,
        ny + 33.0
    );
    // Scale bar: 12 inches, ticks every 6.
    let bx = MARGIN;
    let by = MARGIN + after.depth * SCALE + 22.0;
    let _ = writeln!(
        s,
        r##"<g stroke="#222" stroke-width="2"><line x1="{bx}" y1="{by}" x2="{:.1}" y2="{by}"/><line x1="{bx}" y1="{:.1}" x2="{bx}" y2="{:.1}"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/></g><text x="{:.1}" y="{:.1}" font-size="11">12 inches</text>"##,
        bx + 12.0 * SCALE,
        by - 5.0,
        by + 5.0,
        bx + 6.0 * SCALE,
        by - 4.0,
        bx + 6.0 * SCALE,
        by + 4.0,
        bx + 12.0 * SCALE,
        by - 5.0,
        bx + 12.0 * SCALE,
        by + 5.0,
        bx + 12.0 * SCALE + 6.0,
        by + 4.0
    );
    // Legend: each side's colours, then the caption.
    let mut lx = bx + 12.0 * SCALE + 80.0;
    for side in &sides {
        let (fill, line) = side_colours(side, index(side));
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{:.1}" width="16" height="10" fill="{fill}" stroke="{line}"/><text x="{:.1}" y="{:.1}" font-size="12">{}</text>"##,
            by - 5.0,
            lx + 21.0,
            by + 4.0,
            esc(side)
        );
        lx += 30.0 + 7.0 * side.len() as f64;
    }
    let _ = writeln!(
        s,
        r##"<text x="{bx}" y="{:.1}" font-size="12">{}</text>"##,
        by + 22.0,
        esc(caption)
    );
    s.push_str("</svg>\n");
    s
}

/// Magic on the table this turn (§10): landslides hatched brown, fire in
/// woods as an orange band clipped to the woods, rain as a blue square,
/// tremor lines as a brown zigzag, walls of fire as thick flame-red lines,
/// a Shield of Air as a pale ring round its wizard.
fn magic(s: &mut String, f: &Frame, table: &Table) {
    for (i, e) in table.effects.iter().enumerate() {
        match &e.kind {
            EffectKind::Landslide { points } => {
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#a0522d" fill-opacity="0.55" stroke="#5d2f12" stroke-width="1.5" stroke-dasharray="2 2"/>"##,
                    f.points(points)
                );
            }
            EffectKind::WoodsFire {
                woods,
                from,
                to,
                reach,
            } => {
                let Some(w) = table.terrain.get(*woods) else {
                    continue;
                };
                let (x1, y1) = f.p(*from);
                let (x2, y2) = f.p(*to);
                let _ = writeln!(
                    s,
                    r##"<clipPath id="fire{i}"><polygon points="{}"/></clipPath><line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#ff7f00" stroke-opacity="0.6" stroke-width="{:.1}" stroke-linecap="round" clip-path="url(#fire{i})"/>"##,
                    f.points(&w.points),
                    2.0 * reach.max(0.5) * SCALE
                );
            }
            EffectKind::Rain { centre } => {
                let half = crate::games::hyborian::rules::magic::RAIN_SQUARE / 2.0;
                let (x, y) = f.p(*centre + DVec2::new(-half, half));
                let side = 2.0 * half * SCALE;
                let _ = writeln!(
                    s,
                    r##"<rect x="{x:.1}" y="{y:.1}" width="{side:.1}" height="{side:.1}" fill="#5dade2" fill-opacity="0.3" stroke="#1f618d" stroke-dasharray="3 3"/><text x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#1f618d">rain</text>"##,
                    x + side / 2.0,
                    y + 12.0
                );
            }
            EffectKind::Tremors { from, to } => {
                let _ = writeln!(
                    s,
                    r##"<polyline points="{}" fill="none" stroke="#6e2c00" stroke-width="2"/>"##,
                    f.points(&zigzag(*from, *to))
                );
            }
            EffectKind::WallOfFire { from, to } => {
                let (x1, y1) = f.p(*from);
                let (x2, y2) = f.p(*to);
                let _ = writeln!(
                    s,
                    r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#e74c3c" stroke-width="6" stroke-linecap="round"/><line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#f9e79f" stroke-width="2" stroke-dasharray="4 3"/>"##
                );
            }
            EffectKind::ShieldOfAir { wizard } => {
                if let Some(u) = table.units.get(wizard) {
                    let (x, y) = f.p(u.front);
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{x:.1}" cy="{y:.1}" r="14" fill="#d6eaf8" fill-opacity="0.5" stroke="#5dade2" stroke-width="2"/>"##
                    );
                }
            }
            EffectKind::WindDemon { .. }
            | EffectKind::Summoned { .. }
            | EffectKind::Slumber { .. }
            | EffectKind::Blinded { .. } => {}
        }
    }
}

/// A line of tremors drawn as a zigzag, one tooth an inch.
fn zigzag(a: DVec2, b: DVec2) -> Vec<DVec2> {
    let len = a.distance(b);
    let teeth = len.ceil().max(1.0) as usize;
    let side = DVec2::new(-(b - a).y, (b - a).x).normalize_or_zero() * 0.4;
    (0..=teeth)
        .map(|k| {
            let p = a + (b - a) * (k as f64 / teeth as f64);
            if k % 2 == 0 {
                p - side
            } else {
                p + side
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::table::setup::Setup;

    /// The Ford of the Tybor: the river is drawn, the ford over it, and the
    /// picture still rasterises.
    #[test]
    fn water_is_drawn_under_its_ford() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/campaigns/scenarios/river-crossing.toml"
        ))
        .unwrap();
        let setup: Setup = toml::from_str(&text).unwrap();
        let table = Table::from_setup(&setup).unwrap();
        let svg = svg(None, &table, &[], "The Ford of the Tybor");
        let river = svg.find(r##"fill="#8db9e3""##).expect("the river is drawn");
        let ford = svg.find(r##"fill="#d2e6f4""##).expect("the ford is drawn");
        assert!(river < ford, "the ford is drawn over the river");
        assert!(crate::report::picture::png(&svg)
            .unwrap()
            .starts_with(b"\x89PNG"));
    }
}
