//! What a player reads after a phase ([`Report`]): one section per step of
//! the sequence with every event as a plain-English line, the clocks and
//! standards, the table's summary for the report partials
//! ([`table_summary`]), and the table drawn as SVG ([`svg`]; rasterise with
//! `crate::report::picture::png`). Reports only format
//! events; they never compute rules.
//!
//! ```
//! use umpire::games::fr_ancients::report::svg;
//! use umpire::games::fr_ancients::demo::trebia;
//! let g = trebia(None).unwrap();
//! let picture = svg(None, &g.battle, "The Trebia: deployment");
//! assert!(picture.starts_with("<svg") && picture.contains("Hannibal"));
//! ```

use super::events::Logged;
use super::orders::Zone;
use super::standards::end_points;
use super::table::{Battle, Fury, StandardState};
use super::verdict::side_name;
use crate::games::Json;
use crate::geometry::Edge;
use crate::report::esc;
use crate::report::labels::{Placer, TextBox};
use crate::report::picture::{Frame, MARGIN, SCALE};
use glam::DVec2;
use std::fmt::Write as _;

/// One step's lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub heading: &'static str,
    pub lines: Vec<String>,
}

/// A phase's report: what the rule set's round report shows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub sections: Vec<Section>,
    /// Clocks, standards and, at the end, the standards' points.
    pub summary: Vec<String>,
}

impl Report {
    /// The report of a phase: its events, as the battle it left names
    /// their units.
    pub fn new(after: &Battle, events: &[Logged]) -> Report {
        let mut sections: Vec<Section> = Vec::new();
        for l in events {
            let heading = l.part.heading();
            let line = l.event.line(after);
            match sections.last_mut() {
                Some(s) if s.heading == heading => s.lines.push(line),
                _ => sections.push(Section {
                    heading,
                    lines: vec![line],
                }),
            }
        }
        Report {
            sections,
            summary: summary(after),
        }
    }
}

/// Clocks and standards, and the standards' points once the battle is over.
fn summary(b: &Battle) -> Vec<String> {
    let mut out = Vec::new();
    for s in &b.sides {
        let clock = match s.clock() {
            Some(c) => format!("at {c}"),
            None => format!(
                "has lost {} from its start (the base rules set the start)",
                s.clock_lost
            ),
        };
        let standard = match &s.standard {
            None => "no standard".to_string(),
            Some(StandardState::With(u)) => format!("standard with {}", b.name(u)),
            Some(StandardState::CapturedBy(u)) => {
                format!("standard captured, held by {}", b.name(u))
            }
            Some(StandardState::LeftBehind(_)) => "standard left behind on the field".to_string(),
            Some(StandardState::Lost) => "standard lost".to_string(),
        };
        out.push(format!(
            "{}: morale clock {clock}; {standard}",
            side_name(&s.id)
        ));
    }
    if let Some(why) = &b.over {
        out.push(format!("The battle is over: {why}"));
        for s in &b.sides {
            let points = match &s.standard {
                Some(StandardState::CapturedBy(_)) => Some(end_points(true)),
                Some(StandardState::Lost | StandardState::LeftBehind(_)) => Some(end_points(false)),
                _ => None,
            };
            if let Some(p) = points {
                out.push(format!("{}'s standard is worth {p} points to its enemy at the end of the battle (rule 15)", side_name(&s.id)));
            }
        }
    }
    out
}

/// The table summary for the report partials (`fr-ancients/summary.*`):
/// each side's clock and present units.
pub fn table_summary(b: &Battle) -> Json {
    let sides: Vec<Json> = b
        .sides
        .iter()
        .map(|s| {
            let units: Vec<Json> = b
                .units
                .values()
                .filter(|u| u.side == s.id && u.is_present())
                .map(|u| {
                    serde_json::json!({
                        "name": u.name,
                        "at": format!("{:.1}, {:.1} facing {:.0}", u.front.x, u.front.y, u.facing),
                        "dmz": u.dmz,
                        "status": u.status.code(),
                    })
                })
                .collect();
            serde_json::json!({
                "side": s.id,
                "clock": s.clock().map_or(format!("has lost {} from its start", s.clock_lost), |c| c.to_string()),
                "units": units,
            })
        })
        .collect();
    Json::Array(sides)
}

/// The legend strip under the table, pixels.
const LEGEND: f64 = 40.0;
const SIDE_COLOURS: [(&str, &str); 2] = [("#c0392b", "#5b1a13"), ("#2e5fa8", "#13284a")];

fn terrain_style(kind: &str) -> (&'static str, &'static str) {
    match crate::names::key(kind).as_str() {
        "woods" | "wood" | "forest" => ("#8fbf7a", "#3e6b2e"),
        "hill" | "hills" => ("#d9c89e", "#8d6e3f"),
        "river" | "stream" | "water" | "marsh" | "swamp" => ("#a9c8e0", "#3c6e91"),
        k if k.starts_with("fortification") => ("#9e9e9e", "#424242"),
        _ => ("#cfc6b4", "#7a6f5a"),
    }
}

/// The table after a phase, with arrows from where units stood before it.
pub fn svg(before: Option<&Battle>, after: &Battle, caption: &str) -> String {
    let f = Frame::standard(after.depth);
    let w = after.width * SCALE + 2.0 * MARGIN;
    let h = after.depth * SCALE + 2.0 * MARGIN + LEGEND;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>
<rect x="0" y="0" width="{w:.0}" height="{h:.0}" fill="#ffffff"/>
<rect x="{MARGIN}" y="{MARGIN}" width="{tw:.0}" height="{th:.0}" fill="#e9efd8" stroke="#555" stroke-width="1.5"/>
"##,
        tw = after.width * SCALE,
        th = after.depth * SCALE
    );
    // Labels go on last, each placed where no other is (report::labels),
    // inside the table: units first, then characters, then terrain.
    let mut placer = Placer::new(TextBox {
        x0: MARGIN,
        y0: MARGIN,
        x1: MARGIN + after.width * SCALE,
        y1: MARGIN + after.depth * SCALE,
    });
    let mut terrain_labels: Vec<(String, &str, (f64, f64))> = Vec::new();
    let mut unit_labels: Vec<(String, &str, (f64, f64))> = Vec::new();
    let mut character_labels: Vec<(String, (f64, f64))> = Vec::new();
    for t in &after.terrain {
        let (fill, line) = terrain_style(&t.kind);
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="{fill}" stroke="{line}" stroke-width="1.5"/>"##,
            f.points(&t.points)
        );
        let c = t.points.iter().copied().sum::<DVec2>() / t.points.len().max(1) as f64;
        terrain_labels.push((t.kind.clone(), line, f.p(c)));
    }
    for u in after.units.values().filter(|u| u.is_present()) {
        let i = usize::from(after.sides.first().is_none_or(|s| s.id != u.side));
        let (fill, line) = SIDE_COLOURS[i];
        let fp = u.footprint();
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="{fill}" fill-opacity="0.8" stroke="{line}" stroke-width="1"/>"##,
            f.points(&fp.corners())
        );
        let (a, b) = fp.edge(Edge::Front);
        let ((x1, y1), (x2, y2)) = (f.p(a), f.p(b));
        let _ = writeln!(
            s,
            r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{line}" stroke-width="3"/>"##
        );
        let (cx, cy) = f.p(fp.centre);
        let mut label = u.name.clone();
        if u.dmz > 0 {
            label.push_str(&format!(" {}DMZ", u.dmz));
        }
        match u.fury {
            Fury::Enraged => label.push_str(" RAGE"),
            Fury::Panicked => label.push_str(" PANIC"),
            Fury::Calm => {}
        }
        unit_labels.push((label, line, (cx, cy)));
        if after.bears_standard(&u.id) || !after.holds_standard_of(&u.id).is_empty() {
            let (fx, fy) = f.p(u.front);
            let _ = writeln!(
                s,
                r##"<path d="M{fx:.1},{fy:.1} l0,-14 l9,4 l-9,4" fill="#f1c40f" stroke="#111" stroke-width="1"/>"##
            );
        }
        if let Some(b) = before.and_then(|b| b.units.get(&u.id)) {
            if b.front.distance(u.front) > 0.05 {
                let ((x0, y0), (x3, y3)) = (f.p(b.front), f.p(u.front));
                let _ = writeln!(
                    s,
                    r##"<line x1="{x0:.1}" y1="{y0:.1}" x2="{x3:.1}" y2="{y3:.1}" stroke="#333" stroke-width="1.5" stroke-dasharray="4 3" marker-end="url(#arrow)"/>"##
                );
            }
        }
    }
    for side in &after.sides {
        if let Some(StandardState::LeftBehind(p)) = side.standard {
            let (x, y) = f.p(p);
            placer.block(TextBox::centred("✕", 14.0, x, y));
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{y:.1}" font-size="14" text-anchor="middle" fill="#b03a2e">✕</text>"##
            );
        }
    }
    for c in after.characters.values() {
        if let Some(u) = c
            .with
            .as_deref()
            .and_then(|u| after.units.get(u))
            .filter(|u| u.is_present())
        {
            let (x, y) = f.p(u.footprint().centre);
            character_labels.push((c.name.clone(), (x, y - 7.0)));
        }
    }
    let mut label = |s: &mut String, text: &str, size: f64, fill: &str, at: (f64, f64)| {
        if let Some(p) = placer.place(text, size, at) {
            if p.leader {
                let _ = writeln!(
                    s,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{fill}" stroke-width="0.8"/>"##,
                    p.x,
                    (p.frame.y0 + p.frame.y1) / 2.0,
                    at.0,
                    at.1
                );
            }
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" font-size="{size}" text-anchor="middle" fill="{fill}">{}</text>"##,
                p.x,
                p.y,
                esc(text)
            );
        }
    };
    for (text, _, at) in &unit_labels {
        label(&mut s, text, 7.0, "#111", *at);
    }
    for (text, at) in &character_labels {
        label(&mut s, text, 6.0, "#111", *at);
    }
    for (text, line, at) in &terrain_labels {
        label(&mut s, text, 10.0, line, *at);
    }
    let ly = MARGIN + after.depth * SCALE + 25.0;
    let _ = writeln!(
        s,
        r##"<text x="{MARGIN}" y="{ly:.1}" font-size="12" fill="#111">{}</text>"##,
        esc(caption)
    );
    let bar = after.scale.of_inches(6.0) * SCALE;
    let bx = w - MARGIN - bar;
    let _ = writeln!(
        s,
        r##"<line x1="{bx:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#111" stroke-width="2"/>"##,
        ly - 4.0,
        bx + bar,
        ly - 4.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{bx:.1}" y="{:.1}" font-size="9" fill="#111">{}</text>"##,
        ly + 8.0,
        esc(&after.scale.show(after.scale.of_inches(6.0)))
    );
    s.push_str("</svg>\n");
    s
}

/// A picture with a side's deployment zone outlined on it, for the welcome
/// while the deployment round waits: a dashed rectangle over the table,
/// drawn last so no unit hides it, named in its `<title>`.
pub fn with_zone(picture: &str, battle: &Battle, zone: &Zone) -> String {
    let f = Frame::standard(battle.depth);
    let [x0, y0] = zone.min;
    let [x1, y1] = zone.max;
    let corners = [
        DVec2::new(x0, y0),
        DVec2::new(x1, y0),
        DVec2::new(x1, y1),
        DVec2::new(x0, y1),
    ];
    let outline = format!(
        r##"<polygon points="{}" fill="none" stroke="#1f4e9c" stroke-width="2.5" stroke-dasharray="8 5"><title>your deployment zone</title></polygon>
</svg>
"##,
        f.points(&corners)
    );
    match picture.rfind("</svg>") {
        Some(end) => format!("{}{outline}", &picture[..end]),
        None => picture.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deployment_zone_is_outlined_over_the_table() {
        let g = super::super::demo::trebia(None).unwrap();
        let zone = Zone {
            min: [0.0, 0.0],
            max: [72.0, 16.0],
        };
        let plain = svg(None, &g.battle, "deployment");
        let zoned = with_zone(&plain, &g.battle, &zone);
        assert!(!plain.contains("your deployment zone"));
        assert!(zoned.contains("your deployment zone") && zoned.ends_with("</svg>\n"));
        let png = crate::report::picture::png(&zoned).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }

    #[test]
    fn the_picture_rasterises() {
        let g = super::super::demo::trebia(None).unwrap();
        let svg = svg(None, &g.battle, "deployment");
        let png = crate::report::picture::png(&svg).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        assert!(svg.contains("Roman Triarii"), "units are labelled");
        for u in g.battle.units.values() {
            assert!(
                svg.contains(&format!(">{}<", esc(&u.name))),
                "{} is labelled",
                u.name
            );
        }
        let faults = crate::report::picture::label_faults(&svg).unwrap();
        assert!(faults.is_empty(), "{faults:#?}");
    }
}
