//! The picture of the table: terrain named, a light 6-inch grid with its
//! coordinates on the edges, every unit as its true footprint with its
//! facing in its side's colour (Okabe–Ito, safe for colour-blind eyes), a
//! short label unique on the table (side letter and number, with status
//! marks) placed where no other label is and explained in a key under the
//! table, this turn's moves and charges as arrows, melees marked, units lost
//! faded, a scale bar and a north arrow. Drawn as SVG for a picture
//! [`Width`] (mail or phone); `crate::report::picture::png` rasterises it.
//!
//! ```
//! use umpire::games::hyborian::report::picture::{Scene, Width};
//! use umpire::games::hyborian::table::Table;
//! let table = Table { width: 48.0, depth: 36.0, ..Table::default() };
//! let svg = Scene::new(&table, "An empty table").svg(Width::PHONE);
//! assert!(svg.starts_with("<svg") && svg.contains(r#"width="400""#));
//! ```

use crate::games::hyborian::army::scenario::Zone;
use crate::games::hyborian::table::{EffectKind, Status, Table, TerrainKind, Unit};
use glam::DVec2;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::report::esc;
use crate::report::labels::{fit, text_width, wrap, Placed, Placer, TextBox};
use crate::report::picture::{Frame, FONT_FAMILY, GROUND, GROUND_END, SCALE};

/// How wide a picture is drawn, pixels. A table narrower than the width at
/// [`SCALE`] pixels an inch is drawn at that scale, narrower.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Width(pub f64);

impl Width {
    /// A report or welcome mail read on a desktop.
    pub const MAIL: Width = Width(760.0);
    /// A phone held upright.
    pub const PHONE: Width = Width(400.0);
}

/// Font sizes, pixels.
const TITLE: f64 = 13.0;
const LABEL: f64 = 11.0;
const KEY: f64 = 10.5;
const SMALL: f64 = 9.0;
/// Line heights, pixels.
const TITLE_LINE: f64 = 17.0;
const KEY_LINE: f64 = 14.0;
/// Room round the table: for the y coordinates on the left, a little on
/// the right, the x coordinates under it; the key's side margin.
const LEFT: f64 = 26.0;
const RIGHT: f64 = 12.0;
const BELOW: f64 = 18.0;
const SIDE: f64 = 8.0;
/// The grid's spacing, inches: a move of 6 inches is a common measure.
const GRID: f64 = 6.0;

/// The sides' colours in side order: Okabe and Ito's palette for colour
/// vision deficiency (blue, vermillion, bluish green, reddish purple,
/// orange, sky blue), each far from the others and from the terrain's.
pub const PALETTE: [&str; 6] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
];
/// Outlines and front edges.
const INK: &str = "#1a1a1a";

/// What one picture shows.
pub struct Scene<'a> {
    /// The table as it stands (after the turn, or at the start).
    pub table: &'a Table,
    /// The table before the turn: moves are drawn from there.
    pub before: Option<&'a Table>,
    /// The units whose moves this turn were charges.
    pub charged: &'a [String],
    /// Deployment zones, drawn dashed and named.
    pub zones: &'a [(String, Zone)],
    /// Only this side's units are labelled and keyed, the others drawn
    /// faint (the order preview).
    pub only: Option<&'a str>,
    /// Paths planned for units (the order preview), drawn as trails.
    pub paths: &'a [(String, Vec<DVec2>)],
    /// The title: the battle, the turn and its phase.
    pub title: &'a str,
}

impl<'a> Scene<'a> {
    /// A scene of `table` alone.
    pub fn new(table: &'a Table, title: &'a str) -> Scene<'a> {
        Scene {
            table,
            before: None,
            charged: &[],
            zones: &[],
            only: None,
            paths: &[],
            title,
        }
    }

    /// The picture at `width`.
    pub fn svg(&self, width: Width) -> String {
        draw(self, width)
    }
}

/// Draw the table after a turn, for mail, with arrows from where units
/// stood before it; the moves of the units in `charged` are drawn as
/// charges.
pub fn svg(before: Option<&Table>, after: &Table, charged: &[String], caption: &str) -> String {
    Scene {
        before,
        charged,
        ..Scene::new(after, caption)
    }
    .svg(Width::MAIL)
}

/// The table at the start of a battle, for mail, with each side's
/// deployment zone drawn dashed in its colour and named.
pub fn start_svg(table: &Table, zones: &[(String, Zone)], caption: &str) -> String {
    Scene {
        zones,
        ..Scene::new(table, caption)
    }
    .svg(Width::MAIL)
}

/// A report picture's title: the battle, the turn and where in it the
/// table is shown (turn 0 is the deployment turn).
pub fn turn_caption(title: &str, turn: u32) -> String {
    if turn == 0 {
        format!("{title} — turn 0: after deployment")
    } else {
        format!("{title} — turn {turn}: after both phases and the melee")
    }
}

/// Each side's letters on the table: its initial, or as many of its first
/// letters as tell it from every other side.
pub fn side_codes(sides: &[String]) -> Vec<String> {
    let longest = sides.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    for k in 1..=longest.max(1) {
        let codes: Vec<String> = sides
            .iter()
            .map(|s| {
                let mut c = s.chars().take(k);
                let first: String = c
                    .next()
                    .map(|f| f.to_uppercase().collect())
                    .unwrap_or_default();
                first + &c.collect::<String>().to_lowercase()
            })
            .collect();
        let distinct: std::collections::BTreeSet<&String> = codes.iter().collect();
        if distinct.len() == codes.len() {
            return codes;
        }
    }
    (1..=sides.len()).map(|i| format!("S{i}")).collect()
}

/// Each unit's code on the table: its side's letters and its army-list
/// number, or its place in the side where numbers repeat.
pub fn unit_codes(table: &Table) -> BTreeMap<String, String> {
    let sides: Vec<String> = table.sides().into_iter().collect();
    let codes = side_codes(&sides);
    let mut out = BTreeMap::new();
    for (side, code) in sides.iter().zip(&codes) {
        let units: Vec<&Unit> = table.units_of(side).collect();
        let numbers: std::collections::BTreeSet<u32> = units.iter().map(|u| u.number).collect();
        let by_number = numbers.len() == units.len();
        for (i, u) in units.iter().enumerate() {
            let n = if by_number { u.number } else { i as u32 + 1 };
            out.insert(u.id.clone(), format!("{code}{n}"));
        }
    }
    out
}

/// A unit's status marks on its label: F fall back, R rout, M in melee.
fn marks(u: &Unit) -> String {
    let mut m = String::new();
    match u.status {
        Status::FallBack(_) => m.push('F'),
        Status::Rout => m.push('R'),
        _ => {}
    }
    if !u.in_melee_with.is_empty() {
        m.push('M');
    }
    m
}

/// A unit's line in the key.
fn key_entry(code: &str, u: &Unit) -> String {
    let state = match u.status {
        Status::Ready => String::new(),
        Status::FallBack(n) => format!(
            ", falling back ({})",
            crate::report::plural(u32::from(n), "turn", "turns")
        ),
        Status::Rout => ", in rout".into(),
        Status::Eliminated => ", eliminated".into(),
        Status::Surrendered => ", surrendered".into(),
        Status::OffTable => ", off the table".into(),
        Status::Captured => ", captured".into(),
    };
    let melee = if u.in_melee_with.is_empty() {
        ""
    } else {
        ", in melee"
    };
    format!(
        "{code} {}: {}{state}{melee}",
        u.name,
        crate::report::plural(u.figures, "figure", "figures")
    )
}

/// Whether a unit is drawn at full strength of colour.
fn standing(u: &Unit) -> bool {
    u.status.is_present() && u.figures > 0
}

/// What the ground is called on the picture.
fn terrain_name(k: &TerrainKind) -> &'static str {
    match k {
        TerrainKind::River => "river",
        TerrainKind::Stream => "stream",
        TerrainKind::Ford => "ford",
        TerrainKind::Bridge => "bridge",
        TerrainKind::Hill { contours } if *contours >= 2 => "high hill",
        TerrainKind::Hill { .. } => "hill",
        TerrainKind::Woods => "woods",
        TerrainKind::Swamp => "swamp",
        TerrainKind::Road { .. } => "road",
    }
}

/// The grid step, inches, at which coordinates are written: every grid
/// line if there is room, else every second or fourth.
fn coordinate_step(table: &Table, scale: f64) -> f64 {
    let widest = text_width(&format!("{:.0}", table.width.max(table.depth)), SMALL) + 6.0;
    [1.0, 2.0, 4.0, 8.0]
        .into_iter()
        .map(|k| k * GRID)
        .find(|step| step * scale >= widest.max(14.0))
        .unwrap_or(8.0 * GRID)
}

/// Texts to draw once everything else is, so nothing covers them.
#[derive(Default)]
struct Texts {
    out: String,
}

impl Texts {
    fn put(&mut self, x: f64, y: f64, size: f64, anchor: &str, style: &str, text: &str) {
        let _ = writeln!(
            self.out,
            r##"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{anchor}" {style}>{}</text>"##,
            esc(text)
        );
    }

    fn label(&mut self, p: &Placed, size: f64, style: &str, text: &str) {
        self.put(p.x, p.y, size, "middle", style, text);
    }
}

/// A halo that keeps a label readable over anything.
const HALO: &str = r##"fill="#000" stroke="#fff" stroke-width="2.5" paint-order="stroke""##;

fn draw(scene: &Scene<'_>, width: Width) -> String {
    let after = scene.table;
    let scale = ((width.0 - LEFT - RIGHT) / after.width.max(1.0)).min(SCALE);
    let w = (LEFT + after.width * scale + RIGHT).ceil();
    let title_lines = wrap(scene.title, TITLE, w - 2.0 * SIDE);
    let top = 8.0 + TITLE_LINE * title_lines.len() as f64 + 8.0;
    let f = Frame {
        depth: after.depth,
        scale,
        left: LEFT,
        top,
    };
    let (tw, th) = (after.width * scale, after.depth * scale);
    let table_box = TextBox {
        x0: LEFT,
        y0: top,
        x1: LEFT + tw,
        y1: top + th,
    };
    let sides: Vec<String> = after.sides().into_iter().collect();
    let colour =
        |side: &str| PALETTE[sides.iter().position(|x| x == side).unwrap_or(0) % PALETTE.len()];
    let codes = unit_codes(after);
    let keyed = |u: &Unit| scene.only.is_none_or(|o| o == u.side);

    // The ground is what every turn's picture of the game shares (the
    // rasteriser keeps it: `report::picture::GROUND`); the body and its
    // texts are drawn over it.
    let mut ground = String::new();
    let mut ground_texts = Texts::default();
    let mut body = String::new();
    let mut texts = Texts::default();
    let mut placer = Placer::new(table_box);

    for (i, line) in title_lines.iter().enumerate() {
        texts.put(
            SIDE,
            8.0 + TITLE_LINE * (i as f64 + 1.0) - 4.0,
            TITLE,
            "start",
            r##"font-weight="bold" fill="#111""##,
            line,
        );
    }
    let _ = writeln!(
        ground,
        r##"<rect x="{LEFT}" y="{top:.1}" width="{tw:.1}" height="{th:.1}" fill="#e9efd8" stroke="#555" stroke-width="1.5"/>"##
    );
    terrain(&mut ground, &f, after);
    grid(&mut ground, &mut ground_texts, &f, after, scale);
    magic(&mut body, &mut texts, &mut placer, &f, after);

    // The north arrow, top right of the table: kept clear of labels.
    let nx = LEFT + tw - 14.0;
    let ny = top + 6.0;
    let _ = writeln!(
        ground,
        r##"<path d="M{nx:.1},{ny:.1} l-6,17 l6,-5 l6,5 z" fill="#222"/>"##
    );
    ground_texts.put(nx, ny + 28.0, SMALL, "middle", r##"fill="#222""##, "N");
    placer.block(TextBox {
        x0: nx - 9.0,
        y0: ny - 2.0,
        x1: nx + 9.0,
        y1: ny + 31.0,
    });

    for (side, zone) in scene.zones {
        let (x, y) = f.p(DVec2::new(zone.x[0], zone.y[1]));
        let (zw, zh) = (
            (zone.x[1] - zone.x[0]) * scale,
            (zone.y[1] - zone.y[0]) * scale,
        );
        let _ = writeln!(
            body,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{zw:.1}" height="{zh:.1}" fill="{c}" fill-opacity="0.12" stroke="{c}" stroke-width="1.5" stroke-dasharray="6 4"/>"##,
            c = colour(side)
        );
    }

    // Units: footprints and front edges, faint when lost or not keyed.
    for u in after.units.values() {
        let opacity = if !standing(u) {
            0.25
        } else if keyed(u) {
            1.0
        } else {
            0.45
        };
        let fp = u.footprint();
        let corners = fp.corners();
        let (a, b) = fp.edge(crate::geometry::Edge::Front);
        let ((x1, y1), (x2, y2)) = (f.p(a), f.p(b));
        let _ = writeln!(
            body,
            r##"<g opacity="{opacity}"><polygon points="{}" fill="{}" stroke="{INK}" stroke-width="1"/><line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{INK}" stroke-width="3"/></g>"##,
            f.points(&corners),
            colour(&u.side)
        );
    }
    trails(&mut body, scene, &f);
    melees(&mut body, &f, after);

    // Labels: units first (nearest to what they name), then zones, then
    // the ground's names where room is left.
    let mut leaders = String::new();
    for u in after.units.values().filter(|u| standing(u) && keyed(u)) {
        let code = &codes[&u.id];
        let text = match marks(u) {
            m if m.is_empty() => code.clone(),
            m => format!("{code} {m}"),
        };
        let fp = u.footprint();
        let centre = f.p(fp.corners().iter().copied().sum::<DVec2>() / 4.0);
        if let Some(p) = placer.place(&text, LABEL, centre) {
            if p.leader {
                let _ = writeln!(
                    leaders,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="1"/>"##,
                    p.x,
                    (p.frame.y0 + p.frame.y1) / 2.0,
                    centre.0,
                    centre.1,
                    colour(&u.side)
                );
            }
            texts.label(&p, LABEL, HALO, &text);
        }
    }
    for (side, zone) in scene.zones {
        let name = format!("{side} deployment zone");
        let (x, y) = f.p(DVec2::new(zone.x[0], zone.y[1]));
        let at = (x + text_width(&name, SMALL) / 2.0 + 4.0, y + SMALL + 3.0);
        if let Some(p) = placer.place(&name, SMALL, at) {
            texts.label(&p, SMALL, r##"fill="#222""##, &name);
        }
    }
    for t in &after.terrain {
        if t.points.is_empty() {
            continue;
        }
        let c = t.points.iter().copied().sum::<DVec2>() / t.points.len() as f64;
        let name = terrain_name(&t.kind);
        if let Some(p) = placer.place(name, SMALL, f.p(c)) {
            texts.label(&p, SMALL, r##"font-style="italic" fill="#3b3b2a""##, name);
        }
    }
    body.push_str(&leaders);

    // Under the table: the scale bar, the marks, each side's key.
    let mut y = top + th + BELOW + 6.0;
    let bar = 12.0 * scale;
    let _ = writeln!(
        ground,
        r##"<g stroke="#222" stroke-width="2"><line x1="{SIDE}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/><line x1="{SIDE}" y1="{:.1}" x2="{SIDE}" y2="{:.1}"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/></g>"##,
        SIDE + bar,
        y - 4.0,
        y + 4.0,
        SIDE + bar,
        y - 4.0,
        SIDE + bar,
        y + 4.0
    );
    ground_texts.put(
        SIDE + bar + 6.0,
        y + 4.0,
        KEY,
        "start",
        r##"fill="#222""##,
        "12 inches",
    );
    y += KEY_LINE + 2.0;
    let avail = w - 2.0 * SIDE;
    let legend = if scene.paths.is_empty() {
        "Marks: F falling back, R in rout, M in melee; faint: lost. Solid arrow: a charge; dashed: a move."
    } else {
        "Your units' paths if nothing else moved; the other side's units faint."
    };
    for line in wrap(legend, KEY, avail) {
        ground_texts.put(SIDE, y + 4.0, KEY, "start", r##"fill="#222""##, &line);
        y += KEY_LINE;
    }
    let sides_keyed: Vec<&String> = sides
        .iter()
        .filter(|s| scene.only.is_none_or(|o| o == s.as_str()))
        .collect();
    for side in sides_keyed {
        y += 4.0;
        let _ = writeln!(
            body,
            r##"<rect x="{SIDE}" y="{:.1}" width="14" height="10" fill="{}" stroke="{INK}"/>"##,
            y - 5.0,
            colour(side)
        );
        let code = side_codes(&sides)[sides.iter().position(|s| s == side).unwrap_or(0)].clone();
        texts.put(
            SIDE + 20.0,
            y + 4.0,
            KEY,
            "start",
            r##"font-weight="bold" fill="#111""##,
            &fit(&format!("{side} ({code})"), KEY, avail - 20.0),
        );
        y += KEY_LINE;
        let mut units: Vec<&Unit> = after.units_of(side).collect();
        units.sort_by_key(|u| (u.number, u.id.clone()));
        let entries: Vec<String> = units.iter().map(|u| key_entry(&codes[&u.id], u)).collect();
        let widest = entries
            .iter()
            .map(|e| text_width(e, KEY))
            .fold(0.0, f64::max)
            + 12.0;
        let col = widest.min(avail);
        let columns = ((avail / col).floor() as usize).max(1);
        for (i, e) in entries.iter().enumerate() {
            let (cx, row) = (i % columns, i / columns);
            texts.put(
                SIDE + cx as f64 * col,
                y + row as f64 * KEY_LINE + 4.0,
                KEY,
                "start",
                r##"fill="#222""##,
                &fit(e, KEY, col - 12.0),
            );
        }
        y += entries.len().div_ceil(columns) as f64 * KEY_LINE;
    }
    let h = (y + 6.0).ceil();

    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="{FONT_FAMILY}">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>
{GROUND}<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="#ffffff"/>
"##
    );
    s.push_str(&ground);
    s.push_str(&ground_texts.out);
    s.push_str(GROUND_END);
    s.push_str(&body);
    s.push_str(&texts.out);
    s.push_str("</svg>\n");
    s
}

/// The ground: water first, then fords and bridges over it, then the rest.
fn terrain(s: &mut String, f: &Frame, table: &Table) {
    let layer = |k: &TerrainKind| match k {
        TerrainKind::River | TerrainKind::Stream => 0,
        TerrainKind::Ford => 1,
        TerrainKind::Bridge => 2,
        _ => 3,
    };
    let mut terrain: Vec<&crate::games::hyborian::table::Terrain> = table.terrain.iter().collect();
    terrain.sort_by_key(|t| layer(&t.kind));
    for t in terrain {
        let pts = f.points(&t.points);
        let style = match &t.kind {
            TerrainKind::River => r##"fill="#8db9e3" stroke="#2f6ea8" stroke-width="1.5""##,
            TerrainKind::Stream => r##"fill="#b4d3ee" stroke="#2f6ea8" stroke-width="1""##,
            TerrainKind::Ford => {
                r##"fill="#d2e6f4" stroke="#2f6ea8" stroke-width="1" stroke-dasharray="3 2""##
            }
            TerrainKind::Bridge => r##"fill="#b08a5a" stroke="#5e4327" stroke-width="1.5""##,
            TerrainKind::Hill { .. } => r##"fill="#d9c89e" stroke="#8d6e3f" stroke-width="1.5""##,
            TerrainKind::Woods => {
                r##"fill="#a9cf94" stroke="#3e6b2e" stroke-width="1.5" stroke-dasharray="4 2""##
            }
            TerrainKind::Swamp => {
                r##"fill="#b9cfc8" stroke="#4d7a6e" stroke-width="1.5" stroke-dasharray="1 3""##
            }
            TerrainKind::Road { width } => {
                let _ = writeln!(
                    s,
                    r##"<polyline points="{pts}" fill="none" stroke="#c2a878" stroke-width="{:.1}" stroke-linecap="round"/>"##,
                    width * f.scale
                );
                continue;
            }
        };
        let _ = writeln!(s, r##"<polygon points="{pts}" {style}/>"##);
        if let TerrainKind::Hill { contours } = t.kind {
            if contours >= 2 {
                let c = t.points.iter().copied().sum::<DVec2>() / t.points.len().max(1) as f64;
                let inner: Vec<DVec2> = t.points.iter().map(|p| c + (*p - c) * 0.6).collect();
                let _ = writeln!(
                    s,
                    r##"<polygon points="{}" fill="#c9b07a" stroke="#8d6e3f" stroke-width="1.5"/>"##,
                    f.points(&inner)
                );
            }
        }
    }
}

/// A light grid every [`GRID`] inches, its coordinates on the left and
/// bottom edges (inches from the south-west corner, as orders give them).
fn grid(s: &mut String, texts: &mut Texts, f: &Frame, table: &Table, scale: f64) {
    let step = coordinate_step(table, scale);
    let _ = write!(
        s,
        r##"<g stroke="#000" stroke-opacity="0.10" stroke-width="1">"##
    );
    let mut x = GRID;
    while x < table.width - 1e-9 {
        let (a, b) = (f.p(DVec2::new(x, 0.0)), f.p(DVec2::new(x, table.depth)));
        let _ = write!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"##,
            a.0, a.1, b.0, b.1
        );
        x += GRID;
    }
    let mut y = GRID;
    while y < table.depth - 1e-9 {
        let (a, b) = (f.p(DVec2::new(0.0, y)), f.p(DVec2::new(table.width, y)));
        let _ = write!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"##,
            a.0, a.1, b.0, b.1
        );
        y += GRID;
    }
    s.push_str("</g>\n");
    let style = r##"fill="#555""##;
    let mut x = 0.0;
    while x <= table.width + 1e-9 {
        let (px, py) = f.p(DVec2::new(x, 0.0));
        texts.put(
            px,
            py + SMALL + 3.0,
            SMALL,
            "middle",
            style,
            &format!("{x:.0}"),
        );
        x += step;
    }
    let mut y = step;
    while y <= table.depth + 1e-9 {
        let (px, py) = f.p(DVec2::new(0.0, y));
        texts.put(
            px - 3.0,
            py + SMALL / 3.0,
            SMALL,
            "end",
            style,
            &format!("{y:.0}"),
        );
        y += step;
    }
}

/// Arrows from where each unit's front stood before the turn to where it
/// stands (charges solid, moves dashed), and planned paths of the preview.
fn trails(s: &mut String, scene: &Scene<'_>, f: &Frame) {
    if let Some(before) = scene.before {
        for (id, u) in &scene.table.units {
            let Some(b) = before.units.get(id) else {
                continue;
            };
            if b.front.distance(u.front) <= 0.1 {
                continue;
            }
            let ((x1, y1), (x2, y2)) = (f.p(b.front), f.p(u.front));
            let style = if scene.charged.contains(id) {
                r##"stroke="#111" stroke-width="2.5""##
            } else {
                r##"stroke="#333" stroke-width="1.5" stroke-dasharray="5 3""##
            };
            let _ = writeln!(
                s,
                r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style} marker-end="url(#arrow)"/>"##
            );
        }
    }
    for (_, path) in scene.paths {
        if path.len() < 2 {
            continue;
        }
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#333" stroke-width="1.5" stroke-dasharray="5 3" marker-end="url(#arrow)"/>"##,
            f.points(path)
        );
    }
}

/// Melees: a ring with a cross where the two units meet.
fn melees(s: &mut String, f: &Frame, table: &Table) {
    for u in table.units.values() {
        for other in &u.in_melee_with {
            if u.id >= *other {
                continue;
            }
            if let Some(o) = table.units.get(other) {
                let (mx, my) = f.p((u.front + o.front) / 2.0);
                let _ = writeln!(
                    s,
                    r##"<g stroke="#b00" stroke-width="2.5" fill="none"><circle cx="{mx:.1}" cy="{my:.1}" r="8"/><path d="M{:.1},{:.1} l8,8 M{:.1},{:.1} l8,-8"/></g>"##,
                    mx - 4.0,
                    my - 4.0,
                    mx - 4.0,
                    my + 4.0
                );
            }
        }
    }
}

/// Magic on the table this turn (§10): landslides hatched brown, fire in
/// woods as an orange band clipped to the woods, rain as a blue square,
/// tremor lines as a brown zigzag, walls of fire as thick flame-red lines,
/// a Shield of Air as a pale ring round its wizard.
fn magic(s: &mut String, texts: &mut Texts, placer: &mut Placer, f: &Frame, table: &Table) {
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
                    2.0 * reach.max(0.5) * f.scale
                );
            }
            EffectKind::Rain { centre } => {
                let half = crate::games::hyborian::rules::magic::RAIN_SQUARE / 2.0;
                let (x, y) = f.p(*centre + DVec2::new(-half, half));
                let side = 2.0 * half * f.scale;
                let _ = writeln!(
                    s,
                    r##"<rect x="{x:.1}" y="{y:.1}" width="{side:.1}" height="{side:.1}" fill="#5dade2" fill-opacity="0.3" stroke="#1f618d" stroke-dasharray="3 3"/>"##
                );
                if let Some(p) = placer.place("rain", SMALL, (x + side / 2.0, y + SMALL)) {
                    texts.label(&p, SMALL, r##"fill="#1f618d""##, "rain");
                }
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
    use crate::games::hyborian::army::scenario;
    use crate::games::hyborian::table::setup::Setup;
    use crate::report::picture::label_faults;

    /// A shipped battle: its file, its table at the start, its zones.
    type Battle = (String, Table, Vec<(String, Zone)>);

    /// Every shipped battle.
    fn shipped() -> Vec<Battle> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/campaigns/scenarios");
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                let loaded = scenario::load(&text).unwrap();
                let zones = loaded
                    .scenario
                    .iter()
                    .flat_map(|sc| sc.sides.iter().map(|s| (s.id.clone(), s.zone)))
                    .collect();
                (p.display().to_string(), loaded.table, zones)
            })
            .collect()
    }

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
        assert!(svg.contains(">ford</text>") && svg.contains(">river</text>"));
        assert!(crate::report::picture::png(&svg)
            .unwrap()
            .starts_with(b"\x89PNG"));
    }

    /// The issue's test: at phone width every text of every shipped
    /// battle's picture is inside it and none lies on another, as the
    /// rasteriser lays them out; and the same at mail width.
    #[test]
    fn no_label_overlaps_or_leaves_the_picture_at_phone_or_mail_width() {
        let all = shipped();
        assert!(all.len() >= 4);
        for (name, table, zones) in &all {
            for width in [Width::PHONE, Width::MAIL] {
                let scene = Scene {
                    zones,
                    ..Scene::new(
                        table,
                        "A long title for the battle — turn 12: after both phases and the melee",
                    )
                };
                let svg = scene.svg(width);
                assert!(
                    svg.contains(&format!(r#"width="{:.0}""#, width.0))
                        || table.width * SCALE + LEFT + RIGHT < width.0,
                    "{name}: not {width:?} wide"
                );
                let faults = label_faults(&svg).unwrap();
                assert!(faults.is_empty(), "{name} at {width:?}: {faults:#?}");
                // Every standing unit is labelled on the table.
                for (id, code) in unit_codes(table) {
                    if standing(&table.units[&id]) {
                        assert!(
                            svg.contains(&format!(">{code}</text>")),
                            "{name}: {code} unlabelled"
                        );
                    }
                }
            }
        }
    }

    /// A crowded table: every unit of one side on one spot, in melee and in
    /// rout. Labels spread out with leader lines and still never overlap.
    #[test]
    fn a_crowded_table_still_has_no_overlapping_labels() {
        let (_, mut table, _) = shipped().into_iter().next().unwrap();
        let centre = DVec2::new(table.width / 2.0, table.depth / 2.0);
        let ids: Vec<String> = table.units.keys().cloned().collect();
        for (i, id) in ids.iter().enumerate() {
            let u = table.units.get_mut(id).unwrap();
            u.front = centre + DVec2::new((i % 3) as f64, (i / 3) as f64 * 0.5);
            u.status = if i % 2 == 0 {
                Status::Rout
            } else {
                Status::FallBack(2)
            };
            u.in_melee_with.insert(ids[(i + 1) % ids.len()].clone());
        }
        let svg = Scene::new(&table, "Crowded").svg(Width::PHONE);
        let faults = label_faults(&svg).unwrap();
        assert!(faults.is_empty(), "{faults:#?}");
        assert!(
            svg.contains(" RM</text>") && svg.contains(" FM</text>"),
            "status marks"
        );
        assert!(svg.contains("stroke-width=\"1\"/>"), "leader lines");
    }

    #[test]
    fn labels_are_unique_and_say_the_side() {
        for (name, table, _) in shipped() {
            let codes = unit_codes(&table);
            let distinct: std::collections::BTreeSet<&String> = codes.values().collect();
            assert_eq!(distinct.len(), codes.len(), "{name}: {codes:?}");
            for (id, code) in &codes {
                let side = &table.units[id].side;
                let initial = side.chars().next().unwrap().to_ascii_uppercase();
                assert!(code.starts_with(initial), "{name}: {code} for {side}");
            }
        }
        assert_eq!(
            side_codes(&["khauran".into(), "koth".into(), "aquilonia".into()]),
            ["Kh", "Ko", "Aq"]
        );
        assert_eq!(side_codes(&["koth".into(), "nemedia".into()]), ["K", "N"]);
    }

    /// Sides never share a colour, and the colours are the palette's.
    #[test]
    fn each_side_has_its_own_colour_from_the_palette() {
        for (name, table, _) in shipped() {
            let svg = svg(None, &table, &[], "t");
            let sides: Vec<String> = table.sides().into_iter().collect();
            for (i, _) in sides.iter().enumerate() {
                assert!(svg.contains(&format!("fill=\"{}\"", PALETTE[i])), "{name}");
            }
        }
        let distinct: std::collections::BTreeSet<&str> = PALETTE.iter().copied().collect();
        assert_eq!(distinct.len(), PALETTE.len());
    }

    /// The ground of a game's pictures is the same from turn to turn
    /// (units moved, figures lost), so the rasteriser keeps it; and the
    /// units are not in it.
    #[test]
    fn a_turn_leaves_the_ground_of_the_picture_as_it_was() {
        use crate::report::picture::ground_parts;
        for (name, before, _) in shipped() {
            let mut after = before.clone();
            for u in after.units.values_mut() {
                u.front += DVec2::new(1.5, 2.0);
                u.figures = u.figures.saturating_sub(3);
            }
            let caption = |turn| turn_caption("A Battle", turn);
            let (first, rest) = ground_parts(&svg(None, &before, &[], &caption(1))).unwrap();
            let (second, _) = ground_parts(&svg(Some(&before), &after, &[], &caption(2))).unwrap();
            assert_eq!(first, second, "{name}");
            let (id, code) = unit_codes(&before).into_iter().next().unwrap();
            let key = esc(&format!("{code} {}: ", before.units[&id].name));
            assert!(!first.contains(&key) && rest.contains(&key), "{name}");
        }
    }

    #[test]
    fn the_grid_has_coordinates_and_the_key_names_every_unit() {
        let (_, table, zones) = shipped()
            .into_iter()
            .find(|(n, ..)| n.ends_with("border-raid.toml"))
            .unwrap();
        let svg = Scene {
            zones: &zones,
            ..Scene::new(&table, "Border Raid")
        }
        .svg(Width::MAIL);
        for c in [">0</text>", ">6</text>", ">48</text>", ">36</text>"] {
            assert!(svg.contains(c), "coordinate {c}");
        }
        assert!(svg.contains("koth deployment zone"));
        for (id, code) in unit_codes(&table) {
            let u = &table.units[&id];
            assert!(
                svg.contains(&esc(&format!("{code} {}: ", u.name))),
                "key lacks {code}"
            );
        }
    }
}
