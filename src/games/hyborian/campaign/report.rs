//! The weekly report of each power (and the secretary's of everything):
//! what it saw happen, its treasury, its own armies with their contents,
//! the counters it can see, the provinces it holds — rendered by
//! `templates/campaign/report.txt` from a [`View`](super::fog::View) — and
//! the map picture, drawn as SVG with owners' colours and the unseen
//! provinces shaded, rasterised by `report::picture::png`.

use super::fog::{sees, view, View};
use super::game::{BattleMode, Campaign, PendingBattle, Stance};
use super::map::World;
use super::orders::{Line, Order};
use super::resolve::MapEvent;
use minijinja::{context, Environment};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

const TEMPLATE: &str = include_str!("../../../../templates/campaign/report.txt");

fn name<'a>(world: &'a World, id: &'a str) -> &'a str {
    world.province(id).map_or(id, |p| p.name.as_str())
}

/// One event in words for `reader` (`None`: the secretary). A battle's
/// losses are told only to those who fought it.
/// `sight` is what the reader sees (`None`: everything). Those who do not
/// take part read an army by its counter alone, never its commander (a
/// hired company's employer), nor where it came from when they did not see
/// it there.
pub fn describe(
    e: &MapEvent,
    reader: Option<&str>,
    sight: Option<&BTreeSet<String>>,
    world: &World,
) -> String {
    let n = |id: &str| name(world, id).to_string();
    let party = reader.is_none_or(|r| e.parties().contains(&r));
    let of = |power: &str| {
        if party {
            format!(" of {power}")
        } else {
            String::new()
        }
    };
    let seen = |p: &str| sight.is_none_or(|s| s.contains(p));
    match e {
        MapEvent::Refused { line, why, .. } => format!("Your order \"{line}\" was not carried out: {why}."),
        MapEvent::Marched { army, power, from, to } if party || seen(from) => format!("Army {army}{} marched from {} into {}.", of(power), n(from), n(to)),
        MapEvent::Marched { army, to, .. } => format!("Army {army} marched into {}.", n(to)),
        MapEvent::OnTheMarch { army, to, days, needed, .. } => format!("Army {army} is on the march to {}: {days} of {needed} march days.", n(to)),
        MapEvent::Split { army, new_army, units, .. } => format!("Army {army} split off army {new_army}: {}.", units.join(", ")),
        MapEvent::Merged { army, into, .. } => format!("Army {army} merged into army {into}."),
        MapEvent::Raised { army, figures, designation, cost, .. } => format!("Raised {figures} {designation} for {cost} points, in army {army}."),
        MapEvent::StanceTaken { army, stance, .. } => format!("Army {army} will {stance}."),
        MapEvent::Hired { employer, company, points } => format!("{company} serves {employer} until the year ends, for {points} points."),
        MapEvent::Paid { employer, company, province } => format!("{employer} gave {} to {company}; its points count from next year.", n(province)),
        MapEvent::Battle { id, province, card, table_feet, sides, winner, by } => {
            let fought = reader.is_none_or(|r| sides.iter().any(|s| s.power == r));
            let who = winner.as_deref().map_or("neither side broke".to_string(), |w| format!("{w} won"));
            if fought {
                let s: Vec<String> = sides
                    .iter()
                    .map(|s| format!("army {} of {} ({} points) lost {} points, {} recovered", s.army, s.power, s.points, s.lost + s.recovered, s.recovered))
                    .collect();
                format!(
                    "Battle {id} at {} (card {}, {}, a {table_feet}-foot table, {}): {who}. {}.",
                    n(province),
                    card.number,
                    card.kind.words(),
                    match by.as_str() {
                        "engine" => "played by the engine",
                        "mail" => "played by mail",
                        _ => "result entered by the secretary",
                    },
                    s.join("; ")
                )
            } else {
                let armies: Vec<&str> = sides.iter().map(|s| s.army.as_str()).collect();
                format!("A battle was fought at {} between armies {}: {}.", n(province), armies.join(", "), if winner.is_some() { "one side broke" } else { "neither side broke" })
            }
        }
        MapEvent::FellBack { army, power, from, to } => match to {
            Some(to) if party || seen(to) => format!("Army {army}{} fell back from {} to {}.", of(power), n(from), n(to)),
            Some(_) => format!("Army {army} fell back from {}.", n(from)),
            None => format!("Army {army}{} had nowhere to fall back from {} and surrendered.", of(power), n(from)),
        },
        MapEvent::Destroyed { army, power, province } => format!("Army {army}{} was destroyed at {}.", of(power), n(province)),
        MapEvent::BattleAwaits { id, province, armies, card, table_feet, why, by, .. } if party => {
            let why = why.as_ref().map_or(String::new(), |w| format!(" The table could not be set ({w}), so it waits for the secretary."));
            let how = match by {
                BattleMode::Mail => "it is played by mail: the welcome to the battle game comes in its own mail",
                BattleMode::Engine => "the engine fights it when the week is resolved",
                BattleMode::Secretary => "fight it and send the result to the secretary",
            };
            format!(
                "Battle {id} at {} between armies {}: card {}, {}, a {table_feet}-foot table; battle in progress: {how}.{why}",
                n(province),
                armies.join(", "),
                card.number,
                card.kind.words()
            )
        }
        MapEvent::BattleAwaits { province, armies, .. } => format!("A battle is to be fought at {} between armies {}.", n(province), armies.join(", ")),
        MapEvent::Besieging { province, army, power, weeks, needed } => format!("Army {army}{} besieges {}: week {weeks} of {needed}.", of(power), n(province)),
        MapEvent::StarvedOut { province, army, power } => format!("The garrison of {} (army {army}{}) is starved out and must fight.", n(province), of(power)),
        MapEvent::Occupied { province, power, from } => match from {
            Some(f) if f != power => format!("{power} occupies {} (land of {f}).", n(province)),
            Some(_) => format!("{power} holds {} again.", n(province)),
            None => format!("{power} occupies {}.", n(province)),
        },
        MapEvent::Pacified { province, power } => format!("{} is pacified by {power}; its points move at the start of next year.", n(province)),
        MapEvent::Transferred { province, from, to } => {
            format!("{} passes from {} to {to}.", n(province), from.as_deref().unwrap_or("no one"))
        }
        MapEvent::ContractEnded { company, employer } => format!("{company} leaves the service of {employer} at the year's end."),
        MapEvent::Rebuilt { power, allowance, treasury } => format!("Winter quarters: {power} has {allowance} campaign points; {treasury} to spend on new units."),
    }
}

/// How a waiting battle is being fought, in words: "by mail as game
/// dragon-b3".
pub fn how_fought(c: &Campaign, b: &PendingBattle) -> String {
    match b.by {
        BattleMode::Mail => format!("by mail as game {}", b.game_id(&c.id)),
        BattleMode::Engine => "by the engine when the week is resolved".into(),
        BattleMode::Secretary => "awaiting the secretary's result".into(),
    }
}

/// Each power's orders on file for a week, by power (`None`: none sent).
pub type OnFile = BTreeMap<String, Option<Vec<Line<Order>>>>;

/// The secretary's digest of a week's orders: each power's orders on file
/// (`None`: it sent none), numbered as `cancel POWER N` reads them, each
/// judged as the week will judge it.
pub fn digest(c: &Campaign, world: &World, on_file: &OnFile) -> String {
    let judged = super::resolve::as_ordered(c, world);
    let mut out = format!("ORDERS OF THE WEEK: {} ({})\n", c.date(), c.title);
    for (power, lines) in on_file {
        match lines {
            None => {
                let _ = writeln!(
                    out,
                    "{power}: none sent (its armies stand; marches under way go on)"
                );
            }
            Some(l) if l.is_empty() => {
                let _ = writeln!(out, "{power}: stands (no orders)");
            }
            Some(l) => {
                let _ = writeln!(out, "{power}:");
                for (i, line) in l.iter().enumerate() {
                    let _ = writeln!(out, "  {}. {}", i + 1, line.text);
                    if let Err(why) = super::resolve::check(&judged, world, power, &line.item) {
                        let _ = writeln!(out, "     REFUSED: {why}");
                    }
                }
            }
        }
    }
    out.push_str("To drop an order before the week is resolved: cancel <power> <number>\n");
    out
}

/// The report text of `reader` after a map turn (`None`: the secretary's).
/// `played` names the turn just played; `c` is the campaign after it.
pub fn text(
    c: &Campaign,
    world: &World,
    reader: Option<&str>,
    played: &str,
    events: &[MapEvent],
) -> String {
    let v = view(c, world, reader);
    let lines: Vec<String> = events
        .iter()
        .filter(|e| sees(e, reader, &v.sight))
        .map(|e| describe(e, reader, reader.map(|_| &v.sight), world))
        .collect();
    let armies: Vec<_> = v
        .own
        .iter()
        .map(|a| {
            let names = a.contents.unit_names();
            let figures = a.contents.units.iter().map(|u| (u.figures, &u.designation)).chain(a.contents.mercenaries.iter().map(|m| (m.figures, &m.designation)));
            let units: Vec<String> = names.iter().zip(figures).map(|(nm, (f, d))| if nm == d { format!("{f} {d}") } else { format!("{nm}: {f} {d}") }).collect();
            let stance = match (c.battle_of(&a.id), a.stance) {
                (Some(b), _) => format!("battle in progress: battle {}, {}", b.id, how_fought(c, b)),
                (None, Stance::Field) => String::new(),
                (None, Stance::Garrison) => "garrison".into(),
                (None, Stance::Besieging { weeks }) => format!("besieging, week {weeks}"),
            };
            let march = a.march.as_ref().map(|m| format!("marching to {}, {} days made", name(world, &m.to), m.days));
            let hired = match (&a.hired_by, reader) {
                (Some(e), Some(r)) if e != r => Some(format!("serving {e}")),
                (Some(_), _) => Some(format!("hired from {}", a.owner)),
                _ => None,
            };
            context! { id => &a.id, province => name(world, &a.province), points => a.points(), stance, march, hired, units }
        })
        .collect();
    let counters: Vec<_> = v
        .counters
        .iter()
        .map(|k| context! { army => &k.army, power => &k.power, province => name(world, &k.province), battle => c.battle_of(&k.army).is_some() })
        .collect();
    let provinces: Vec<String> = c
        .holdings
        .iter()
        .filter(|(_, h)| {
            reader.is_none_or(|r| h.holder() == Some(r) || h.owner.as_deref() == Some(r))
        })
        .map(|(id, h)| {
            let p = world.province(id);
            let mut s = format!(
                "{} ({} points{})",
                name(world, id),
                p.map_or(0, |p| p.points),
                if p.is_some_and(|p| p.capital) {
                    ", capital"
                } else {
                    ""
                }
            );
            if let Some(o) = &h.occupier {
                let _ = write!(
                    s,
                    ", occupied by {o} for {} turn{}{}",
                    h.held_for,
                    if h.held_for == 1 { "" } else { "s" },
                    if h.pacified { ", pacified" } else { "" }
                );
            }
            if reader.is_none() {
                let _ = write!(s, ", owner {}", h.owner.as_deref().unwrap_or("none"));
            }
            s
        })
        .collect();
    let provinces: Vec<String> = if reader.is_none() {
        provinces
            .into_iter()
            .filter(|s| !s.ends_with("owner none"))
            .collect()
    } else {
        provinces
    };
    let pending: Vec<String> = c
        .pending
        .iter()
        .filter(|b| {
            reader.is_none_or(|r| {
                b.all_armies()
                    .iter()
                    .any(|a| c.armies.get(a).is_some_and(|x| x.commander() == r))
            })
        })
        .map(|b| {
            format!(
                "battle {} at {}: armies {}; battle in progress, {}{}",
                b.id,
                name(world, &b.province),
                b.all_armies().join(", "),
                how_fought(c, b),
                b.why.as_ref().map_or(String::new(), |w| format!(
                    " (the table could not be set: {w})"
                ))
            )
        })
        .collect();
    let treasuries: Vec<String> = if reader.is_none() {
        c.powers
            .values()
            .map(|p| {
                format!(
                    "{}: {} points unspent of {} campaign points ({} in the field)",
                    p.id,
                    p.treasury,
                    c.allowance(world, &p.id),
                    c.in_the_field(&p.id)
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let unplayed: Vec<&str> = if reader.is_none() {
        c.holdings
            .iter()
            .filter(|(_, h)| h.owner.is_none())
            .map(|(id, _)| name(world, id))
            .collect()
    } else {
        Vec::new()
    };
    let power = reader.and_then(|r| c.powers.get(r));
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    let ctx = context! {
        title => &c.title, reader => reader.unwrap_or("the secretary"), played, date => c.date(), power => power.is_some(),
        treasury => power.map_or(0, |p| p.treasury), allowance => reader.map_or(0, |r| c.allowance(world, r)),
        field => reader.map_or(0, |r| c.in_the_field(r)), events => lines, armies, counters, pending, provinces, treasuries, unplayed => unplayed.join(", "),
    };
    match env.template_from_str(TEMPLATE).and_then(|t| t.render(ctx)) {
        Ok(s) => s,
        Err(e) => format!("(umpire could not format this report: {e})"),
    }
}

/// Pixels per map unit.
const SCALE: f64 = 9.0;

use crate::report::esc;

/// The map as SVG for `reader` (`None`: all of it): provinces in their
/// holders' colours, rivers blue, passes dashed, capitals ringed, army
/// counters where the reader sees them, unseen provinces shaded.
pub fn svg(c: &Campaign, world: &World, reader: Option<&str>) -> String {
    let v: View<'_> = view(c, world, reader);
    let colour = |power: Option<&str>, nation: Option<&str>| -> String {
        let nation = power
            .and_then(|p| c.powers.get(p))
            .and_then(|p| p.nation.as_deref())
            .or(nation);
        match (power, nation.and_then(|n| world.nation(n))) {
            (Some(p), None) if c.powers.contains_key(p) => "#555555".into(),
            (_, Some(n)) => n.colour.clone(),
            _ => "#cfcfcf".into(),
        }
    };
    let (w, h) = (world.width * SCALE + 40.0, world.height * SCALE + 60.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#f4ecd8"/>"##);
    let at = |id: &str| {
        world.province(id).map_or((0.0, 0.0), |p| {
            (20.0 + p.at[0] * SCALE, 20.0 + p.at[1] * SCALE)
        })
    };
    for p in world.provinces.values() {
        for b in p.borders.iter().filter(|b| b.to > p.id) {
            let ((x1, y1), (x2, y2)) = (at(&p.id), at(&b.to));
            let style = if b.river.is_some() {
                r##"stroke="#2e86c1" stroke-width="3""##
            } else if b.pass.is_some() {
                r##"stroke="#784212" stroke-width="2" stroke-dasharray="5,4""##
            } else {
                r##"stroke="#a6a6a6" stroke-width="1""##
            };
            let _ = writeln!(
                s,
                r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#
            );
        }
    }
    for (id, p) in &world.provinces {
        let hold = &c.holdings[id];
        let (x, y) = at(id);
        let seen = v.sight.contains(id);
        // What a power cannot see it knows only by its owner, not who
        // occupies it now (ruling CA-15).
        let fill = if seen {
            colour(hold.holder(), p.nation.as_deref())
        } else {
            colour(hold.owner.as_deref(), p.nation.as_deref())
        };
        let opacity = if seen { 1.0 } else { 0.35 };
        let ring = if p.capital {
            r##" stroke="#000000" stroke-width="2.5""##
        } else {
            r##" stroke="#333333" stroke-width="0.8""##
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{fill}" fill-opacity="{opacity}"{ring}/>"#,
            2.3 * SCALE
        );
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="9" text-anchor="middle" fill="#111111">{}</text>"##,
            y + 2.3 * SCALE + 9.0,
            esc(&p.name)
        );
    }
    let mut shown: Vec<(&str, &str)> = v
        .own
        .iter()
        .map(|a| (a.id.as_str(), a.province.as_str()))
        .collect();
    shown.extend(
        v.counters
            .iter()
            .map(|k| (k.army.as_str(), k.province.as_str())),
    );
    let mut stacked: std::collections::BTreeMap<&str, u32> = Default::default();
    for (army, province) in shown {
        let (x, y) = at(province);
        let k = stacked.entry(province).or_default();
        let (cx, cy) = (x - 9.0 + f64::from(*k) * 6.0, y - 6.0 + f64::from(*k) * 6.0);
        *k += 1;
        let mine = v.own.iter().any(|a| a.id == army);
        let owner = c.armies.get(army).map(|a| {
            if mine {
                a.commander()
            } else {
                a.owner.as_str()
            }
        });
        let _ = writeln!(
            s,
            r##"<rect x="{cx:.1}" y="{cy:.1}" width="18" height="12" fill="{}" stroke="#000000" stroke-width="1"/>"##,
            colour(owner, None)
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="7" text-anchor="middle" fill="#ffffff" stroke="#000000" stroke-width="0.3">{}</text>"##,
            cx + 9.0,
            cy + 9.0,
            esc(army.rsplit('-').next().unwrap_or(army))
        );
    }
    let caption = format!(
        "{} — {} — {}",
        c.title,
        c.date(),
        reader.unwrap_or("secretary's map")
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="{:.1}" font-size="14">{}</text>"#,
        h - 20.0,
        esc(&caption)
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::campaign::game::CampaignFile;

    #[test]
    fn a_report_shows_own_contents_and_only_counters_of_others() {
        let text_file = r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "attalus"
points = 300
[[power]]
id = "nemedia"
nation = "nemedia"
address = "n@x"
password = "p"
[[power.army]]
province = "nemedian-marches"
points = 300
"#;
        let world = World::hyborea().unwrap();
        let c = CampaignFile::load(text_file)
            .unwrap()
            .start(&world)
            .unwrap();
        let aq = text(&c, &world, Some("aquilonia"), "the start", &[]);
        assert!(aq.contains("army aquilonia-1 in Attalus"), "{aq}");
        assert!(
            aq.contains("army nemedia-1 of nemedia in Nemedian Marches (contents unknown)"),
            "{aq}"
        );
        for u in &c.armies["nemedia-1"].contents.units {
            assert!(
                !aq.contains(&format!("{} {}", u.figures, u.designation)),
                "{aq}"
            );
        }
        let svg = svg(&c, &world, Some("aquilonia"));
        assert!(
            svg.contains("fill-opacity=\"0.35\""),
            "unseen provinces shaded"
        );
        assert!(crate::report::picture::png(&svg)
            .unwrap()
            .starts_with(b"\x89PNG"));
    }
}
