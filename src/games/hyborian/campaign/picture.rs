//! The weekly world map as SVG ([`svg`]), one for each reader: every
//! province a region ([`Atlas`]) filled with its holder's colour, the seas
//! and their coast over them, the frontiers between regions (open, across a
//! river, through a pass, or closed), capitals, army counters where the
//! reader sees them, battles waiting, unseen provinces shaded (banded with the ground),
//! each name inside its region where it fits and never on another, and a
//! legend. `report::picture::png` rasterises it for mail clients.
//!
//! Architecture invariant: drawing reads the campaign, the world and the
//! reader's [`View`] only; the same three give the same picture, byte for
//! byte (ordered maps, a fixed order of candidates for every label).

use super::atlas::{Atlas, Crossing};
use super::fog::{view, View};
use super::game::Campaign;
use super::map::{Province, World};
use crate::report::esc;
use crate::report::labels::{text_width, Placed, Placer, TextBox};
use glam::DVec2;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Pixels per map unit.
pub(super) const SCALE: f64 = 10.0;
/// The margin round the map, pixels.
pub(super) const MARGIN: f64 = 20.0;
/// An army counter, pixels, and how far each one under the top of a
/// stack shows (up to [`STACK_SHOWN`] of them).
const COUNTER: (f64, f64) = (18.0, 12.0);
const STACK_STEP: f64 = 3.0;
const STACK_SHOWN: usize = 3;
/// Below a capital's mark, how far down its counters sit, pixels.
const UNDER_CAPITAL: f64 = 11.0;
/// A capital's mark: its ring's radius, pixels.
const CAPITAL_R: f64 = 4.5;
/// Text sizes: province names, seas, counters, the legend and the caption.
const NAME_SIZE: f64 = 9.0;
/// A name that does not fit its region at [`NAME_SIZE`] tries this first.
const SMALL_NAME_SIZE: f64 = 8.0;
const SEA_SIZE: f64 = 12.0;
const COUNTER_SIZE: f64 = 7.0;
const LEGEND_SIZE: f64 = 9.0;
const CAPTION_SIZE: f64 = 14.0;
/// A legend row's height, and a swatch's side, pixels.
const LEGEND_ROW: f64 = 16.0;
const SWATCH: f64 = 10.0;
/// How far apart the places tried for a name inside its region are, pixels.
const NAME_STEP: f64 = 3.0;
const GROUND: &str = "#efe6cf";
const SEA: &str = "#a9cce3";
const COAST: &str = r##"stroke="#2e5e7e" stroke-width="1.4" stroke-linejoin="round""##;
const BATTLE: &str = "#c0392b";
const OPEN: &str = r##"stroke="#4d4033" stroke-width="0.8" stroke-opacity="0.8""##;
const CLOSED: &str = r##"stroke="#1c1208" stroke-width="2.6" stroke-linecap="round""##;
const RIVER: &str = r##"stroke="#1f6fb5" stroke-width="3" stroke-linecap="round""##;
const PASS: &str = r##"stroke="#6e2c00" stroke-width="4" stroke-dasharray="3,2""##;
/// Under a pass's mark, so it shows on any colour.
const PASS_UNDER: &str = r##"stroke="#ffffff" stroke-width="6.5" stroke-opacity="0.9""##;
/// A pass's mark across its frontier, pixels long.
const PASS_LENGTH: f64 = 16.0;
/// The shading of what the reader does not see: bands of the ground over
/// the owner's colour, whole pixels (so a picture keeps few colours and
/// the palette of its PNG keeps every banner true).
const FOG: &str = r##"<pattern id="fog" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="2" fill="#efe6cf" fill-opacity="0.75"/></pattern>"##;

/// A point of the map in pixels.
fn px(p: DVec2) -> (f64, f64) {
    (MARGIN + p.x * SCALE, MARGIN + p.y * SCALE)
}

/// A pixel in the map's units.
fn unpx(x: f64, y: f64) -> DVec2 {
    DVec2::new((x - MARGIN) / SCALE, (y - MARGIN) / SCALE)
}

fn at(p: &Province) -> DVec2 {
    DVec2::new(p.at[0], p.at[1])
}

/// The colours of the powers and nations of one campaign.
struct Paint<'a> {
    c: &'a Campaign,
    world: &'a World,
}

impl Paint<'_> {
    /// The colour of `power` (a nation's banner; a company's grey), or of
    /// `nation` where no power is named; light grey for no one.
    fn of(&self, power: Option<&str>, nation: Option<&str>) -> String {
        let nation = power
            .and_then(|p| self.c.powers.get(p))
            .and_then(|p| p.nation.as_deref())
            .or(nation);
        match (power, nation.and_then(|n| self.world.nation(n))) {
            (Some(p), None) if self.c.powers.contains_key(p) => "#555555".into(),
            (_, Some(n)) => n.colour.clone(),
            _ => "#cfcfcf".into(),
        }
    }
}

/// The picture being drawn: its markup and the labels' placer.
struct Sheet {
    s: String,
    placer: Placer,
}

impl Sheet {
    fn block(&mut self, x0: f64, y0: f64, x1: f64, y1: f64) {
        self.placer.block(TextBox { x0, y0, x1, y1 });
    }
}

/// The map as SVG for `reader` (`None`: all of it).
pub fn svg(c: &Campaign, world: &World, reader: Option<&str>) -> String {
    let shown = super::resolve::as_shown(c, world);
    let c: &Campaign = &shown;
    let v: View<'_> = view(c, world, reader);
    let atlas = Atlas::of(world);
    let paint = Paint { c, world };
    let w = world.width * SCALE + 2.0 * MARGIN;
    let map_h = world.height * SCALE + 2.0 * MARGIN;
    let mut sheet = Sheet {
        s: String::new(),
        placer: Placer::new(TextBox {
            x0: 0.0,
            y0: 0.0,
            x1: w,
            y1: map_h,
        }),
    };
    regions(&mut sheet.s, world, &v, &atlas, &paint);
    seas(&mut sheet.s, &atlas);
    frontiers(&mut sheet.s, &atlas);
    let (x1, y1) = px(DVec2::new(world.width, world.height));
    let _ = writeln!(
        sheet.s,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{:.1}" height="{:.1}" fill="none" stroke="#3b2f22" stroke-width="1.5"/>"##,
        x1 - MARGIN,
        y1 - MARGIN
    );
    capitals(&mut sheet, world);
    counters(&mut sheet, world, &v, &paint);
    battles(&mut sheet, c, world, &v);
    sea_names(&mut sheet, world, &atlas);
    province_names(&mut sheet, world, &atlas);
    let mut s = sheet.s;
    let h = legend(&mut s, c, &paint, w, map_h);
    let caption = format!(
        "{} — {} — {}",
        c.title,
        c.date(),
        reader.unwrap_or("secretary's map")
    );
    let caption = crate::report::labels::fit(&caption, CAPTION_SIZE, w - 2.0 * MARGIN);
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="{:.1}" font-size="{CAPTION_SIZE}">{}</text>"#,
        h - MARGIN / 2.0 - 2.0,
        esc(&caption)
    );
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"DejaVu Sans\">\n<defs>{FOG}</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"{GROUND}\"/>\n{s}</svg>\n"
    )
}

/// SVG path data of closed polygons in map units.
fn path_of<'a>(polygons: impl IntoIterator<Item = &'a Vec<DVec2>>) -> String {
    let mut d = String::new();
    for poly in polygons {
        for (i, p) in poly.iter().enumerate() {
            let (x, y) = px(*p);
            let _ = write!(d, "{}{x:.1},{y:.1}", if i == 0 { "M" } else { "L" });
        }
        d.push('Z');
    }
    d
}

/// Every province's region in its holder's colour (the owner's where the
/// reader does not see it: ruling CA-15), banded with the ground when unseen.
fn regions(s: &mut String, world: &World, v: &View<'_>, atlas: &Atlas, paint: &Paint<'_>) {
    let mut fog = String::new();
    for (id, p) in &world.provinces {
        let hold = &paint.c.holdings[id];
        let seen = v.sight.contains(id);
        let fill = if seen {
            paint.of(hold.holder_seen_by(v.power.as_deref()), p.nation.as_deref())
        } else {
            paint.of(hold.owner.as_deref(), p.nation.as_deref())
        };
        let d = path_of(&atlas.regions[id]);
        let class = if seen { "seen" } else { "unseen" };
        // Stroked in its own colour, so no seam shows between its cells.
        let _ = writeln!(
            s,
            r#"<path id="p-{id}" class="{class}" d="{d}" fill="{fill}" stroke="{fill}" stroke-width="0.6"/>"#
        );
        if !seen {
            fog.push_str(&d);
        }
    }
    // One path for all the fog: the pattern is laid out once.
    if !fog.is_empty() {
        let _ = writeln!(s, r#"<path d="{fog}" fill="url(#fog)"/>"#);
    }
}

/// The seas over the regions, their shores the coast.
fn seas(s: &mut String, atlas: &Atlas) {
    for sea in &atlas.seas {
        let _ = writeln!(s, r#"<path d="{}" fill="{SEA}" {COAST}/>"#, path_of([sea]));
    }
}

/// The frontiers: open ones thin, closed ones heavy, rivers blue along the
/// line, passes marked across it.
fn frontiers(s: &mut String, atlas: &Atlas) {
    let mut rivers = String::new();
    let mut passes = String::new();
    for f in &atlas.frontiers {
        let style = match f.crossing {
            Crossing::Open | Crossing::Pass(_) => OPEN,
            Crossing::Closed => CLOSED,
            Crossing::River(_) => RIVER,
        };
        let out = if matches!(f.crossing, Crossing::River(_)) {
            &mut rivers
        } else {
            &mut *s
        };
        for (a, b) in &f.pieces {
            let ((x1, y1), (x2, y2)) = (px(*a), px(*b));
            let _ = writeln!(
                out,
                r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#
            );
        }
        if let Crossing::Pass(_) = f.crossing {
            // Across the middle of its longest stretch.
            let longest = f
                .pieces
                .iter()
                .max_by(|p, q| p.0.distance(p.1).total_cmp(&q.0.distance(q.1)));
            if let Some((a, b)) = longest {
                let middle = (*a + *b) / 2.0;
                let across = (*b - *a).perp().normalize_or_zero() * PASS_LENGTH / 2.0 / SCALE;
                let ((x1, y1), (x2, y2)) = (px(middle - across), px(middle + across));
                for style in [PASS_UNDER, PASS] {
                    let _ = writeln!(
                        passes,
                        r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#
                    );
                }
            }
        }
    }
    s.push_str(&rivers);
    s.push_str(&passes);
}

/// Where a province's counters sit: on its point, or under its capital's mark.
fn anchor(p: &Province) -> (f64, f64) {
    let (x, y) = px(at(p));
    if p.capital {
        (x, y + UNDER_CAPITAL)
    } else {
        (x, y)
    }
}

/// Each capital's mark on its point: a ring round a dot.
fn capitals(sheet: &mut Sheet, world: &World) {
    for p in world.provinces.values().filter(|p| p.capital) {
        let (x, y) = px(at(p));
        let _ = writeln!(
            sheet.s,
            r##"<circle class="capital" cx="{x:.1}" cy="{y:.1}" r="{CAPITAL_R}" fill="#ffffff" stroke="#000000" stroke-width="2"/><circle cx="{x:.1}" cy="{y:.1}" r="1.6" fill="#000000"/>"##
        );
        let r = CAPITAL_R + 1.0;
        sheet.block(x - r, y - r, x + r, y + r);
    }
}

/// The counters each province shows, the reader's own first; a stack with
/// its count beside it.
fn counters(sheet: &mut Sheet, world: &World, v: &View<'_>, paint: &Paint<'_>) {
    let mut stacks: BTreeMap<&str, Vec<(&str, String)>> = BTreeMap::new();
    for a in &v.own {
        stacks
            .entry(a.province.as_str())
            .or_default()
            .push((a.id.as_str(), paint.of(Some(a.commander()), None)));
    }
    for k in &v.counters {
        stacks
            .entry(k.province.as_str())
            .or_default()
            .push((k.army.as_str(), paint.of(Some(&k.power), None)));
    }
    for (province, stack) in &stacks {
        let Some(p) = world.province(province) else {
            continue;
        };
        let (x, y) = anchor(p);
        let (cw, ch) = COUNTER;
        let shown = stack.len().min(STACK_SHOWN);
        // The top counter sits on the province; those under it peek out
        // up and to the right, so the top one's number stays clear.
        let (x0, y0) = (x - cw / 2.0, y - ch / 2.0);
        for (i, (_, fill)) in stack.iter().take(shown).enumerate().rev() {
            let off = i as f64 * STACK_STEP;
            let _ = writeln!(
                sheet.s,
                r##"<rect class="counter" x="{:.1}" y="{:.1}" width="{cw}" height="{ch}" fill="{fill}" stroke="#000000" stroke-width="1"/>"##,
                x0 + off,
                y0 - off
            );
        }
        let top = stack[0].0;
        let number = crate::report::labels::fit(
            top.rsplit('-').next().unwrap_or(top),
            COUNTER_SIZE,
            cw - 2.0,
        );
        let _ = writeln!(
            sheet.s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="{COUNTER_SIZE}" text-anchor="middle" fill="#ffffff" stroke="#000000" stroke-width="0.3">{}</text>"##,
            y + COUNTER_SIZE / 2.0 - 1.0,
            esc(&number)
        );
        let off = (shown - 1) as f64 * STACK_STEP;
        sheet.block(x0, y0 - off, x0 + cw + off, y0 + ch);
        if stack.len() > 1 {
            let count = format!("×{}", stack.len());
            let want = (x0 + cw + off + 8.0, y0 - off);
            if let Some(p) = sheet.placer.place(&count, NAME_SIZE, want) {
                let _ = writeln!(
                    sheet.s,
                    r##"<text x="{:.1}" y="{:.1}" font-size="{NAME_SIZE}" font-weight="bold" text-anchor="middle" fill="#000000">{count}</text>"##,
                    p.x, p.y
                );
            }
        }
    }
}

/// A battle marker (crossed swords) centred on `(x, y)`.
fn battle_marker(s: &mut String, x: f64, y: f64) {
    let d = 4.0;
    let _ = writeln!(
        s,
        r#"<path class="battle" d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}" stroke="{BATTLE}" stroke-width="2.5" stroke-linecap="round"/>"#,
        x - d,
        y - d,
        x + d,
        y + d,
        x + d,
        y - d,
        x - d,
        y + d
    );
}

/// Battles waiting where the reader sees, left of the counters.
fn battles(sheet: &mut Sheet, c: &Campaign, world: &World, v: &View<'_>) {
    for b in c.pending.iter().filter(|b| v.sight.contains(&b.province)) {
        let Some(p) = world.province(&b.province) else {
            continue;
        };
        let (x, y) = anchor(p);
        let (bx, by) = (x - COUNTER.0 / 2.0 - 7.0, y);
        battle_marker(&mut sheet.s, bx, by);
        sheet.block(bx - 5.0, by - 5.0, bx + 5.0, by + 5.0);
    }
}

/// The centres to try for a label inside the polygons `cells`, nearest
/// `want` first (ties by row, then column: a fixed order).
fn centres(
    cells: &[Vec<DVec2>],
    want: (f64, f64),
    inside: impl Fn(DVec2) -> bool,
) -> Vec<(f64, f64)> {
    let (mut lo, mut hi) = (DVec2::splat(f64::MAX), DVec2::splat(f64::MIN));
    for p in cells.iter().flatten() {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let ((x0, y0), (x1, y1)) = (px(lo), px(hi));
    let (nx, ny) = (
        ((x1 - x0) / NAME_STEP) as usize,
        ((y1 - y0) / NAME_STEP) as usize,
    );
    let mut out: Vec<(f64, f64, f64)> = (0..=ny)
        .flat_map(|j| (0..=nx).map(move |i| (x0 + i as f64 * NAME_STEP, y0 + j as f64 * NAME_STEP)))
        .filter(|(x, y)| inside(unpx(*x, *y)))
        .map(|(x, y)| ((x - want.0).powi(2) + (y - want.1).powi(2), x, y))
        .collect();
    out.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.2.total_cmp(&b.2))
            .then(a.1.total_cmp(&b.1))
    });
    out.into_iter().map(|(_, x, y)| (x, y)).collect()
}

/// The ways to set a name: on one line, or broken at the space nearest
/// its middle.
fn layouts(name: &str) -> Vec<Vec<&str>> {
    let mut out = vec![vec![name]];
    let middle = name.len() / 2;
    if let Some((i, _)) = name
        .match_indices(' ')
        .min_by_key(|(i, _)| i.abs_diff(middle))
    {
        out.push(vec![&name[..i], &name[i + 1..]]);
    }
    out
}

fn write_name(s: &mut String, placed: &[Placed], text: &[&str], style: &str) {
    for (p, t) in placed.iter().zip(text) {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" {style}>{}</text>"#,
            p.x,
            p.y,
            esc(t)
        );
    }
}

/// The seas' names, inside them.
fn sea_names(sheet: &mut Sheet, world: &World, atlas: &Atlas) {
    let style = format!(r##"font-size="{SEA_SIZE}" font-style="italic" fill="#1b4f72""##);
    for (sea, shore) in world.seas.iter().zip(&atlas.seas) {
        let inside = |p: DVec2| crate::geometry::point_in_polygon(p, shore);
        let want = px(DVec2::new(sea.middle()[0], sea.middle()[1]));
        let tries = centres(std::slice::from_ref(shore), want, inside);
        let fits = |b: &TextBox| atlas.in_sea(shore, unpx(b.x0, b.y0), unpx(b.x1, b.y1));
        let placed = layouts(&sea.name).into_iter().find_map(|lines| {
            let p = sheet
                .placer
                .place_lines(&lines, SEA_SIZE, tries.iter().copied(), fits)?;
            Some((p, lines))
        });
        if let Some((p, lines)) = placed {
            write_name(&mut sheet.s, &p, &lines, &style);
        }
    }
}

/// Every province's name inside its region, the smallest regions first
/// (they have the least room); where none fits, as near its point as the
/// placer finds room, with a leader line.
fn province_names(sheet: &mut Sheet, world: &World, atlas: &Atlas) {
    let style = format!(
        r##"font-size="{NAME_SIZE}" fill="#111111" stroke="#ffffff" stroke-width="2.2" stroke-opacity="0.7" stroke-linejoin="round" paint-order="stroke""##
    );
    let size = |id: &str| -> f64 {
        atlas.regions[id]
            .iter()
            .map(|c| crate::geometry::voronoi::area(c))
            .sum()
    };
    let mut order: Vec<&Province> = world.provinces.values().collect();
    order.sort_by(|a, b| size(&a.id).total_cmp(&size(&b.id)).then(a.id.cmp(&b.id)));
    for p in order {
        let (x, y) = px(at(p));
        let want = (x, y - 12.0);
        let tries = centres(&atlas.regions[&p.id], want, |q| atlas.in_region(&p.id, q));
        // A pixel's room round the text, inside the region.
        let fits = |b: &TextBox| {
            atlas.holds(
                &p.id,
                unpx(b.x0 - 1.0, b.y0 - 1.0),
                unpx(b.x1 + 1.0, b.y1 + 1.0),
            )
        };
        let placed = [NAME_SIZE, SMALL_NAME_SIZE].into_iter().find_map(|size| {
            layouts(&p.name).into_iter().find_map(|lines| {
                let placed = sheet
                    .placer
                    .place_lines(&lines, size, tries.iter().copied(), fits)?;
                Some((placed, lines, size))
            })
        });
        match placed {
            Some((placed, lines, size)) => {
                let style = style.replace(
                    &format!("font-size=\"{NAME_SIZE}\""),
                    &format!("font-size=\"{size}\""),
                );
                write_name(&mut sheet.s, &placed, &lines, &style)
            }
            None => {
                let Some(q) = sheet.placer.place(&p.name, NAME_SIZE, (x, y)) else {
                    continue;
                };
                let _ = writeln!(
                    sheet.s,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{x:.1}" y2="{y:.1}" stroke="#333333" stroke-width="0.6"/>"##,
                    q.x, q.frame.y1
                );
                write_name(&mut sheet.s, &[q], &[&p.name], &style);
            }
        }
    }
}

/// One entry of the legend: what its swatch draws, and its words.
enum Key {
    Fill(String, f64),
    Unseen,
    Line(&'static str),
    Counter(String),
    Battle,
    Capital,
}

/// The rows of the legend, each entry with its x, fitted to `width`.
fn legend_rows(keys: Vec<(Key, String)>, width: f64) -> Vec<Vec<(f64, Key, String)>> {
    let mut rows: Vec<Vec<(f64, Key, String)>> = vec![Vec::new()];
    let mut x = MARGIN;
    for (key, words) in keys {
        let w = SWATCH + 4.0 + text_width(&words, LEGEND_SIZE) + 14.0;
        if x + w > width - MARGIN && x > MARGIN {
            rows.push(Vec::new());
            x = MARGIN;
        }
        if let Some(row) = rows.last_mut() {
            row.push((x, key, words));
        }
        x += w;
    }
    rows
}

/// The legend's entries: the powers' colours, then every mark of the map.
fn legend_keys(c: &Campaign, paint: &Paint<'_>) -> Vec<(Key, String)> {
    let mut keys: Vec<(Key, String)> = c
        .powers
        .keys()
        .map(|p| (Key::Fill(paint.of(Some(p), None), 1.0), p.clone()))
        .collect();
    keys.extend(unplayed_nations(c, paint));
    let words = |k: Key, w: &str| (k, w.to_string());
    keys.extend([
        words(Key::Fill("#cfcfcf".into(), 1.0), "no power"),
        words(
            Key::Unseen,
            "unseen (shaded: its owner, not who holds it now)",
        ),
        words(Key::Capital, "capital"),
        words(Key::Counter("1".into()), "army (its number)"),
        words(Key::Counter("×3".into()), "armies in one province"),
        words(Key::Battle, "battle waiting"),
        words(Key::Line(OPEN), "border"),
        words(Key::Line(RIVER), "river"),
        words(Key::Line(PASS), "pass"),
        words(Key::Line(CLOSED), "closed: no march across"),
        words(Key::Fill(SEA.into(), 1.0), "sea"),
    ]);
    keys
}

/// The nations on the map that no power plays, each in its own colour
/// (their provinces are drawn so: [`Paint::of`]), named "(not played)".
fn unplayed_nations(c: &Campaign, paint: &Paint<'_>) -> Vec<(Key, String)> {
    let played: BTreeSet<&str> = c
        .powers
        .values()
        .filter_map(|p| p.nation.as_deref())
        .collect();
    let shown: BTreeSet<&str> = paint
        .world
        .provinces
        .iter()
        .filter(|(id, _)| c.holdings.get(*id).is_some_and(|h| h.owner.is_none()))
        .filter_map(|(_, p)| p.nation.as_deref())
        .filter(|n| !played.contains(n))
        .collect();
    shown
        .into_iter()
        .filter_map(|n| paint.world.nation(n))
        .map(|n| {
            (
                Key::Fill(n.colour.clone(), 1.0),
                format!("{} (not played)", n.name),
            )
        })
        .collect()
}

/// One legend entry's swatch at `(sx, sy)`, its row's middle `mid`.
fn swatch(s: &mut String, key: &Key, sx: f64, sy: f64, mid: f64) {
    let square = |s: &mut String, x: f64, y: f64, fill: &str, extra: &str| {
        let _ = writeln!(
            s,
            r##"<rect x="{x:.1}" y="{y:.1}" width="{SWATCH}" height="{SWATCH}" fill="{fill}" {extra}/>"##
        );
    };
    match key {
        Key::Fill(fill, opacity) => square(
            s,
            sx,
            sy,
            fill,
            &format!(r##"fill-opacity="{opacity}" stroke="#333333" stroke-width="0.8""##),
        ),
        Key::Unseen => {
            let edge = r##"stroke="#333333" stroke-width="0.8""##;
            square(s, sx, sy, "#888888", edge);
            square(s, sx, sy, "url(#fog)", "");
        }
        Key::Capital => {
            let _ = writeln!(
                s,
                r##"<circle cx="{:.1}" cy="{mid:.1}" r="{CAPITAL_R}" fill="#ffffff" stroke="#000000" stroke-width="2"/><circle cx="{:.1}" cy="{mid:.1}" r="1.6" fill="#000000"/>"##,
                sx + SWATCH / 2.0,
                sx + SWATCH / 2.0,
            );
        }
        Key::Line(style) => {
            let _ = writeln!(
                s,
                r#"<line x1="{sx:.1}" y1="{mid:.1}" x2="{:.1}" y2="{mid:.1}" {style}/>"#,
                sx + SWATCH
            );
        }
        Key::Battle => battle_marker(s, sx + SWATCH / 2.0, mid),
        Key::Counter(mark) => {
            let counter = r##"stroke="#000000" stroke-width="1""##;
            square(s, sx, sy, "#555555", counter);
            // A stack's count is drawn beside it, as on the map.
            if mark.starts_with('×') {
                square(s, sx - 2.0, sy + 2.0, "#555555", counter);
            }
        }
    }
}

/// The legend under the map; the picture's height with it and the caption.
fn legend(s: &mut String, c: &Campaign, paint: &Paint<'_>, w: f64, map_h: f64) -> f64 {
    let rows = legend_rows(legend_keys(c, paint), w);
    for (i, row) in rows.iter().enumerate() {
        let y = map_h + i as f64 * LEGEND_ROW;
        let mid = y + LEGEND_ROW / 2.0;
        for (x, key, words) in row {
            let (sx, sy) = (*x, mid - SWATCH / 2.0);
            swatch(s, key, sx, sy, mid);
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="{LEGEND_SIZE}" fill="#111111">{}</text>"##,
                sx + SWATCH + 4.0,
                mid + LEGEND_SIZE / 3.0,
                esc(words)
            );
        }
    }
    map_h + rows.len() as f64 * LEGEND_ROW + CAPTION_SIZE + MARGIN
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::campaign::game::CampaignFile;
    use crate::report::picture::{label_faults, text_boxes};

    /// Every nation a power with an army at home, a free company, and
    /// armies of every power spread over half the map, stacks of three and
    /// battles waiting in five provinces.
    pub(crate) fn busy() -> (World, Campaign) {
        let world = World::hyborea().unwrap();
        let mut file = String::from(
            "id = \"busy\"\ntitle = \"The Year of the Crowded Map\"\n[secretary]\naddress = \"s@x\"\npassword = \"p\"\n",
        );
        // Only Aquilonia's army is proposed from its list; every other
        // power's armies are copies of it under their own flags.
        for n in &world.nations {
            let _ = write!(
                file,
                "[[power]]\nid = \"{0}\"\nnation = \"{0}\"\naddress = \"{0}@x\"\npassword = \"p\"\n",
                n.id
            );
            if n.id == "aquilonia" {
                file.push_str("[[power.army]]\nprovince = \"tarantia\"\npoints = 300\n");
            }
        }
        file.push_str("[[power]]\nid = \"wolves\"\nnation = \"free-companies\"\naddress = \"w@x\"\npassword = \"p\"\n");
        let mut c = CampaignFile::load(&file).unwrap().start(&world).unwrap();
        let model = c.armies["aquilonia-1"].clone();
        let powers: Vec<String> = c.powers.keys().cloned().collect();
        for (i, id) in world
            .provinces
            .keys()
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
        {
            let copies = if i % 10 == 0 { 3 } else { 1 };
            for k in 0..copies {
                let mut a = model.clone();
                a.owner = powers[(i + k) % powers.len()].clone();
                a.id = format!("{}-{}", a.owner, 10 + i * 3 + k);
                a.province = id.clone();
                c.armies.insert(a.id.clone(), a);
            }
        }
        let places: std::collections::BTreeSet<String> =
            c.armies.values().map(|a| a.province.clone()).collect();
        for (n, id) in places.iter().step_by(8).enumerate() {
            let here: Vec<&str> = c
                .armies
                .values()
                .filter(|a| &a.province == id)
                .map(|a| a.id.as_str())
                .collect();
            let b = serde_json::json!({"id": n, "province": id, "armies": [here[0], here[here.len() - 1]], "card": 1, "table_feet": 6});
            c.pending.push(serde_json::from_value(b).unwrap());
        }
        (world, c)
    }

    /// Issue 45, item 12: a nation nobody plays is drawn in its own
    /// colour, and the legend says whose colour that is.
    #[test]
    fn the_legend_names_the_nations_nobody_plays() {
        let world = World::hyborea().unwrap();
        let mut file = String::from(
            "id = \"two\"\ntitle = \"Two Kings\"\n[secretary]\naddress = \"s@x\"\npassword = \"p\"\n",
        );
        for n in ["aquilonia", "nemedia"] {
            let _ = write!(
                file,
                "[[power]]\nid = \"{n}\"\nnation = \"{n}\"\naddress = \"{n}@x\"\npassword = \"p\"\n"
            );
        }
        let c = CampaignFile::load(&file).unwrap().start(&world).unwrap();
        let svg = svg(&c, &world, Some("aquilonia"));
        let koth = world.nation("koth").unwrap();
        assert!(
            svg.contains(">Koth (not played)<"),
            "no legend entry for Koth"
        );
        assert!(svg.contains(&format!("fill=\"{}\"", koth.colour)));
        assert!(!svg.contains("Aquilonia (not played)"));
        assert!(!svg.contains("Nemedia (not played)"));
    }

    /// The boxes of the counters, capitals and battle markers of a map.
    fn marks(svg: &str) -> Vec<TextBox> {
        let attr = |l: &str, name: &str| -> f64 {
            l.split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0.0)
        };
        svg.lines()
            .filter_map(|l| {
                if l.starts_with("<rect class=\"counter\"") {
                    let (x, y) = (attr(l, "x"), attr(l, "y"));
                    Some(TextBox {
                        x0: x,
                        y0: y,
                        x1: x + attr(l, "width"),
                        y1: y + attr(l, "height"),
                    })
                } else if l.starts_with("<circle class=\"capital\"") {
                    let (x, y, r) = (attr(l, "cx"), attr(l, "cy"), attr(l, "r"));
                    Some(TextBox {
                        x0: x - r,
                        y0: y - r,
                        x1: x + r,
                        y1: y + r,
                    })
                } else if l.starts_with("<path class=\"battle\"") {
                    let d = l.split(" d=\"").nth(1)?.split('"').next()?;
                    let n: Vec<f64> = d
                        .split(['M', 'L', ','])
                        .filter_map(|v| v.parse().ok())
                        .collect();
                    let (xs, ys): (Vec<f64>, Vec<f64>) = n.chunks(2).map(|p| (p[0], p[1])).unzip();
                    let lo = |v: &[f64]| v.iter().copied().fold(f64::MAX, f64::min);
                    let hi = |v: &[f64]| v.iter().copied().fold(f64::MIN, f64::max);
                    Some(TextBox {
                        x0: lo(&xs),
                        y0: lo(&ys),
                        x1: hi(&xs),
                        y1: hi(&ys),
                    })
                } else {
                    None
                }
            })
            .collect()
    }

    /// What is wrong with a map's labels: a text outside the picture or on
    /// another (`label_faults`), a text on a counter, capital or battle
    /// (a counter's own number excepted), a province's name missing or
    /// outside its region.
    fn faults(svg: &str, world: &World, atlas: &Atlas) -> Vec<String> {
        let mut out = label_faults(svg).unwrap();
        let (_, texts) = text_boxes(svg).unwrap();
        let marks = marks(svg);
        let shrink = |b: &TextBox| TextBox {
            x0: b.x0 + 0.5,
            y0: b.y0 + 0.5,
            x1: b.x1 - 0.5,
            y1: b.y1 - 0.5,
        };
        for (t, b) in &texts {
            let on: Vec<&TextBox> = marks
                .iter()
                .filter(|m| shrink(m).overlaps(&shrink(b)))
                .collect();
            // A counter's number lies on counters (its own, and those of its
            // stack under it) and on nothing else.
            let counter = |m: &&TextBox| (m.x1 - m.x0 - COUNTER.0).abs() < 0.01;
            let own_number = t.chars().all(|c| c.is_ascii_digit()) && on.iter().all(counter);
            if !on.is_empty() && !own_number {
                out.push(format!("'{t}' lies on a mark: {b:?}"));
            }
        }
        for p in world.provinces.values() {
            // On one line, or on two one after the other.
            let two = layouts(&p.name).get(1).cloned().unwrap_or_default();
            let found: Vec<&TextBox> = texts
                .iter()
                .enumerate()
                .flat_map(|(i, (t, b))| {
                    let next = texts.get(i + 1).map(|(t, b)| (t.as_str(), b));
                    match next {
                        _ if *t == p.name => vec![b],
                        Some((u, c)) if two.len() == 2 && *t == two[0] && u == two[1] => vec![b, c],
                        _ => vec![],
                    }
                })
                .collect();
            if found.is_empty() {
                out.push(format!("{} is not on the map", p.name));
            }
            for b in found {
                if !atlas.holds(&p.id, unpx(b.x0, b.y0), unpx(b.x1, b.y1)) {
                    out.push(format!("{} is not inside its region: {b:?}", p.name));
                }
            }
        }
        out
    }

    /// Each reader's map of `c` (the secretary's first), each checked to
    /// have no label fault.
    fn fault_free_maps<'c>(world: &World, c: &'c Campaign) -> Vec<(Option<&'c str>, String)> {
        let atlas = Atlas::of(world);
        std::iter::once(None)
            .chain(c.powers.keys().map(|p| Some(p.as_str())))
            .map(|reader| {
                let svg = svg(c, world, reader);
                assert_eq!(
                    faults(&svg, world, &atlas),
                    Vec::<String>::new(),
                    "{reader:?}"
                );
                (reader, svg)
            })
            .collect()
    }

    #[test]
    fn on_a_busy_map_every_name_is_in_its_region_and_on_nothing_else() {
        let (world, c) = busy();
        assert!(!fault_free_maps(&world, &c).is_empty());
    }

    #[test]
    fn on_the_shipped_campaign_every_name_is_in_its_region_for_every_reader() {
        let world = World::hyborea().unwrap();
        let file = include_str!("../../../../campaigns/world/the-hour-of-the-dragon.toml");
        let c = CampaignFile::load(file).unwrap().start(&world).unwrap();
        for (reader, svg) in fault_free_maps(&world, &c) {
            assert_eq!(
                svg,
                super::svg(&c, &world, reader),
                "the same picture every time"
            );
        }
    }

    #[test]
    fn a_pass_is_marked_across_its_frontier_and_a_river_along_it() {
        let (world, c) = busy();
        let svg = svg(&c, &world, None);
        let atlas = Atlas::of(&world);
        let passes = atlas
            .frontiers
            .iter()
            .filter(|f| matches!(f.crossing, Crossing::Pass(_)))
            .count();
        // Each on the map and one in the legend.
        assert_eq!(svg.matches(PASS).count(), passes + 1);
        let river_pieces: usize = atlas
            .frontiers
            .iter()
            .filter(|f| matches!(f.crossing, Crossing::River(_)))
            .map(|f| f.pieces.len())
            .sum();
        assert_eq!(svg.matches(RIVER).count(), river_pieces + 1);
        assert!(svg.contains("Southern Ocean") && svg.contains("Vilayet Sea"));
    }
}
