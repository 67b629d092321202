//! The weekly report of each power (and the secretary's of everything):
//! what it saw happen, its treasury, its own armies with their contents,
//! the counters it can see, the provinces it holds — rendered by
//! `templates/campaign/report.txt` from a [`View`](super::fog::View) — and
//! the map picture, drawn as SVG with owners' colours and the unseen
//! provinces shaded, rasterised by `report::picture::png`.

use super::fog::{sees, view};
use super::game::Army;
use super::game::{BattleMode, Campaign, Holding, PendingBattle, Stance};
use super::map::World;
use super::orders::{Line, Order};
use super::resolve::MapEvent;
use minijinja::{context, AutoEscape, Environment};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

const TEMPLATE: &str = include_str!("../../../../templates/campaign/report.txt");
const HTML: &str = include_str!("../../../../templates/campaign/report.html");

/// What a report tells of the week just played, besides the campaign after it.
#[derive(Debug, Clone, Copy)]
pub struct Week<'a> {
    /// The turn played, as the report names it: "the start", "week 3 of 1288".
    pub played: &'a str,
    pub events: &'a [MapEvent],
    /// Every power's orders for the week, as the resolver read them.
    pub orders: &'a BTreeMap<String, Vec<Line<Order>>>,
    /// The dice published; none where no week is open (a status print).
    pub dice: Option<&'a WeekDice>,
    /// Lines before the report: the welcome, the deadline, the digest.
    pub intro: &'a str,
}

pub use crate::games::campaign::WeekDice;

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
        // Told after the week: what the army did, not what it will do.
        MapEvent::StanceTaken { army, stance, .. } if stance == "besiege" => format!("Army {army} lays siege."),
        MapEvent::StanceTaken { army, .. } => format!("Army {army} stands in garrison."),
        MapEvent::Hired { employer, company, points } => format!("{company} serves {employer} until the year ends, for {points} points."),
        MapEvent::Paid { employer, company, province } => format!("{employer} gave {} to {company}; its points count from next year.", n(province)),
        MapEvent::Battle { id, province, card, table_feet, sides, winner, both_broke, by, .. } => {
            let fought = reader.is_none_or(|r| sides.iter().any(|s| s.power == r));
            let who = match (winner.as_deref(), both_broke) {
                (Some(w), true) => format!("both armies broke in the same turn; {w}, having lost the smaller share of its points, held the field and won (a reconstructed rule, ruling A-25)"),
                (None, true) => "both armies broke in the same turn with equal shares of their points lost: no one won (a reconstructed rule, ruling A-25)".to_string(),
                (Some(w), false) => format!("{w} won"),
                (None, false) => "neither side broke".to_string(),
            };
            if fought {
                let s: Vec<String> = sides
                    .iter()
                    .map(|s| format!("army {} of {} ({} points) lost {} points, {} recovered", s.army, s.power, s.points, s.lost + s.recovered, s.recovered))
                    .collect();
                format!(
                    "Battle {id} at {} (card {}, {}, {} {table_feet}-foot table, {}): {who}. {}.",
                    n(province),
                    card.number,
                    card.kind.words(),
                    crate::report::article(*table_feet),
                    match by.as_str() {
                        "engine" => "played by the engine",
                        "mail" => "played by mail",
                        _ => "result entered by the secretary",
                    },
                    s.join("; ")
                )
            } else {
                let armies: Vec<&str> = sides.iter().map(|s| s.army.as_str()).collect();
                format!("A battle was fought at {} between armies {}: {}.", n(province), armies.join(", "), if *both_broke { "both sides broke" } else if winner.is_some() { "one side broke" } else { "neither side broke" })
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
                "Battle {id} at {} between armies {}: card {}, {}, {} {table_feet}-foot table; battle in progress: {how}.{why}",
                n(province),
                armies.join(", "),
                card.number,
                card.kind.words(),
                crate::report::article(*table_feet)
            )
        }
        MapEvent::BattleAwaits { province, armies, .. } => format!("A battle is to be fought at {} between armies {}.", n(province), armies.join(", ")),
        MapEvent::Besieging { province, army, power, weeks, needed } => format!("Army {army}{} besieges {}: week {weeks} of {needed}.", of(power), n(province)),
        MapEvent::StarvedOut { province, army, power } => format!("The garrison of {} (army {army}{}) is starved out and must fight.", n(province), of(power)),
        MapEvent::Occupied { province, power, from, seen_as } => {
            // An onlooker reads a hired company's own flag (ruling CA-15).
            let company = seen_as.as_deref().filter(|f| !party && reader != Some(*f));
            let power = company.unwrap_or(power);
            match from {
                Some(f) if f != power => format!("{power} occupies {} (land of {f}).", n(province)),
                Some(_) => format!("{power} holds {} again.", n(province)),
                None => format!("{power} occupies {}.", n(province)),
            }
        }
        MapEvent::Pacified { province, power, seen_as } => {
            let company = seen_as.as_deref().filter(|f| !party && reader != Some(*f));
            format!("{} is pacified by {}; its points move at the start of next year.", n(province), company.unwrap_or(power))
        }
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
                let verdicts =
                    super::resolve::check_all(&judged, world, power, l.iter().map(|o| &o.item));
                for (i, (line, verdict)) in l.iter().zip(verdicts).enumerate() {
                    let _ = writeln!(out, "  {}. {}", i + 1, line.text);
                    if let Err(why) = verdict {
                        let _ = writeln!(out, "     REFUSED: {why}");
                    }
                }
            }
        }
    }
    out.push_str("To drop an order before the week is resolved: cancel <power> <number>\n");
    out
}

/// What `reader`'s report says, for both templates: everything in it is
/// already cut to what the reader may see.
/// The battles of the week whose last table `reader` gets drawn (`None`:
/// the secretary, every one), by id with the SVG: only those it fought. An
/// onlooker's report says only that a battle was fought; the table would
/// show the figures and losses its words keep back (ruling CA-33).
pub fn battle_pictures<'e>(week: &Week<'e>, reader: Option<&str>) -> Vec<(u32, &'e str)> {
    week.events
        .iter()
        .filter_map(|e| match e {
            MapEvent::Battle {
                id,
                sides,
                picture: Some(svg),
                ..
            } if reader.is_none_or(|r| sides.iter().any(|s| s.power == r)) => {
                Some((*id, svg.as_str()))
            }
            _ => None,
        })
        .collect()
}

fn context(
    c: &Campaign,
    world: &World,
    reader: Option<&str>,
    week: &Week<'_>,
    pictures: &BTreeMap<u32, String>,
) -> minijinja::Value {
    let shown = super::resolve::as_shown(c, world);
    let c: &Campaign = &shown;
    let v = view(c, world, reader);
    let lines: Vec<_> = week
        .events
        .iter()
        .filter(|e| sees(e, reader, &v.sight))
        .map(|e| {
            let picture = match e {
                MapEvent::Battle { id, .. } => pictures.get(id),
                _ => None,
            };
            context! { text => describe(e, reader, reader.map(|_| &v.sight), world), picture }
        })
        .collect();
    let armies: Vec<_> = v
        .own
        .iter()
        .map(|a| army_context(c, world, reader, a))
        .collect();
    let counters: Vec<_> = v
        .counters
        .iter()
        .map(|k| context! { army => &k.army, power => &k.power, province => name(world, &k.province), battle => c.battle_of(&k.army).is_some() })
        .collect();
    let provinces: Vec<String> = c
        .holdings
        .iter()
        .filter(|(_, h)| match reader {
            Some(r) => {
                h.holder() == Some(r)
                    || h.owner.as_deref() == Some(r)
                    || h.promised.as_deref() == Some(r)
            }
            // The secretary reads every province someone owns, occupies
            // or was paid; the lands of no one are listed apart.
            None => h.owner.is_some() || h.occupier.is_some() || h.promised.is_some(),
        })
        .map(|(id, h)| province_line(world, reader, id, h))
        .collect();
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
            .filter(|(_, h)| h.owner.is_none() && h.occupier.is_none())
            .map(|(id, _)| name(world, id))
            .collect()
    } else {
        Vec::new()
    };
    let power = reader.and_then(|r| c.powers.get(r));
    context! {
        title => &c.title, reader => reader.unwrap_or("the secretary"), played => week.played, date => c.date(), power => power.is_some(),
        treasury => power.map_or(0, |p| p.treasury), allowance => reader.map_or(0, |r| c.allowance(world, r)),
        field => reader.map_or(0, |r| c.in_the_field(r)), events => lines, armies, counters, pending, provinces, treasuries, unplayed => unplayed.join(", "),
        intro => week.intro, orders => orders_given(reader, week), dice => week.dice,
    }
}

/// An army of the reader's own as its report lists it: where, its points,
/// its stance, march and contract, its units and roads.
fn army_context(c: &Campaign, world: &World, reader: Option<&str>, a: &Army) -> minijinja::Value {
    let names = a.contents.unit_names();
    let figures = a
        .contents
        .units
        .iter()
        .map(|u| (u.figures, &u.designation))
        .chain(
            a.contents
                .mercenaries
                .iter()
                .map(|m| (m.figures, &m.designation)),
        );
    let units: Vec<String> = names
        .iter()
        .zip(figures)
        .map(|(nm, (f, d))| {
            if nm == d {
                format!("{f} {d}")
            } else {
                format!("{nm}: {f} {d}")
            }
        })
        .collect();
    let stance = match (c.battle_of(&a.id), a.stance) {
        (Some(b), _) => format!("battle in progress: battle {}, {}", b.id, how_fought(c, b)),
        (None, Stance::Field) => String::new(),
        (None, Stance::Garrison) => "garrison".into(),
        (None, Stance::Besieging { weeks }) => format!("besieging, week {weeks}"),
    };
    let march = a
        .march
        .as_ref()
        .map(|m| format!("marching to {}, {} days made", name(world, &m.to), m.days));
    let hired = match (&a.hired_by, reader) {
        (Some(e), Some(r)) if e != r => Some(format!("serving {e}")),
        (Some(_), _) => Some(format!("hired from {}", a.owner)),
        _ => None,
    };
    context! { id => &a.id, province => name(world, &a.province), points => a.points(), stance, march, hired, units, roads => roads(world, a) }
}

/// A province the reader holds, owns or was paid, as its report lists it
/// (the secretary's: every one someone has, with its owner).
fn province_line(world: &World, reader: Option<&str>, id: &str, h: &Holding) -> String {
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
    if let Some(o) = h.occupier.as_ref().and(h.holder_seen_by(reader)) {
        let _ = write!(
            s,
            ", occupied by {o} for {} turn{}{}",
            h.held_for,
            if h.held_for == 1 { "" } else { "s" },
            if h.pacified { ", pacified" } else { "" }
        );
    }
    if let Some(to) = &h.promised {
        let _ = write!(s, ", paid to {to}: theirs from next year");
    }
    if reader.is_none() {
        let _ = write!(s, ", owner {}", h.owner.as_deref().unwrap_or("none"));
    }
    s
}

/// The templates, HTML autoescaped: army, power and province names come
/// from set-up files and players' mail.
fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        env.set_trim_blocks(true);
        env.set_auto_escape_callback(|name| {
            if name.ends_with(".html") {
                AutoEscape::Html
            } else {
                AutoEscape::None
            }
        });
        for (name, text) in [("report.txt", TEMPLATE), ("report.html", HTML)] {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("built-in template campaign/{name} is broken: {e}"));
        }
        env
    })
}

fn render(name: &str, ctx: minijinja::Value) -> String {
    match env().get_template(name).and_then(|t| t.render(ctx)) {
        Ok(s) => s,
        Err(e) => format!("(umpire could not format this report: {e})"),
    }
}

/// The report text of `reader` after a map turn (`None`: the secretary's);
/// `c` is the campaign after it.
pub fn text(c: &Campaign, world: &World, reader: Option<&str>, week: &Week<'_>) -> String {
    render(
        "report.txt",
        context(c, world, reader, week, &BTreeMap::new()),
    )
}

/// The same report as HTML; `picture` is the map's `cid:` (or URL), and
/// `battles` each pictured battle's (from [`battle_pictures`]), shown below
/// its paragraph.
pub fn html(
    c: &Campaign,
    world: &World,
    reader: Option<&str>,
    week: &Week<'_>,
    picture: Option<&str>,
    battles: &BTreeMap<u32, String>,
) -> String {
    let mut ctx = context(c, world, reader, week, battles);
    ctx = context! { picture, ..ctx };
    render("report.html", ctx)
}

/// Each neighbour of `a`'s province with the march days into it — the
/// resolver's own [`World::march_days`] — and the weeks that takes `a`.
fn roads(world: &World, a: &Army) -> Vec<String> {
    let step = a.week_march();
    world
        .province(&a.province)
        .into_iter()
        .flat_map(|p| &p.borders)
        .filter_map(|b| {
            let days = world.march_days(&a.province, &b.to)?;
            let weeks = days.div_ceil(step);
            Some(format!(
                "{} {} ({})",
                name(world, &b.to),
                crate::report::plural(days, "day", "days"),
                crate::report::plural(weeks, "week", "weeks")
            ))
        })
        .collect()
}

/// The orders the reader gave for the week just played (the secretary:
/// every power's), each with whether it was carried out; a refused one
/// with the resolver's reason.
fn orders_given(reader: Option<&str>, week: &Week<'_>) -> Vec<minijinja::Value> {
    week.orders
        .iter()
        .filter(|(p, _)| reader.is_none_or(|r| r == p.as_str()))
        .flat_map(|(power, lines)| {
            lines.iter().map(move |l| {
                let refused = week.events.iter().find_map(|e| match e {
                    MapEvent::Refused {
                        power: p,
                        line,
                        why,
                        number,
                    } if p == power && *line == l.text && number.is_none_or(|n| n == l.number) => {
                        Some(why.as_str())
                    }
                    _ => None,
                });
                context! { power, line => &l.text, refused }
            })
        })
        .collect()
}

pub use super::picture::svg;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::campaign::game::CampaignFile;

    #[test]
    fn a_report_shows_own_contents_and_only_counters_of_others() {
        let (world, c) = campaign("T");
        let none = BTreeMap::new();
        let week = Week {
            played: "the start",
            events: &[],
            orders: &none,
            dice: None,
            intro: "",
        };
        let aq = text(&c, &world, Some("aquilonia"), &week);
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
            svg.lines()
                .any(|l| l.starts_with("<path id=\"p-") && l.contains("class=\"unseen\"")),
            "unseen provinces shaded"
        );
        assert!(crate::report::picture::png(&svg)
            .unwrap()
            .starts_with(b"\x89PNG"));
    }

    /// Issue 45, item 3: a hired company takes a province; an onlooker
    /// reads and sees the company's own flag there, never its employer's
    /// (ruling CA-15), while the employer and the company know.
    #[test]
    fn an_onlooker_sees_the_company_not_whom_it_serves() {
        let world = World::hyborea().unwrap();
        let file = r#"id = "t"
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
province = "tarantia"
points = 600
[[power]]
id = "nemedia"
nation = "nemedia"
address = "n@x"
password = "p"
[[power.army]]
province = "northern-nemedia"
points = 400
[[power]]
id = "wolves"
nation = "free-companies"
address = "w@x"
password = "p"
[[power.army]]
province = "border-kingdom"
points = 100
"#;
        let mut c = CampaignFile::load(file).unwrap().start(&world).unwrap();
        c.armies.get_mut("wolves-1").unwrap().hired_by = Some("aquilonia".into());
        let none = BTreeMap::new();
        let r = crate::games::hyborian::campaign::resolve::resolve(
            &c,
            &world,
            &none,
            &[],
            &mut crate::games::hyborian::dice::SeededDice::new([1; 32]),
        )
        .unwrap();
        assert!(
            r.events.iter().any(
                |e| matches!(e, MapEvent::Occupied { province, power, seen_as: Some(f), .. }
                if province == "border-kingdom" && power == "aquilonia" && f == "wolves")
            ),
            "{:?}",
            r.events
        );
        let week = Week {
            played: "week 1",
            events: &r.events,
            orders: &none,
            dice: None,
            intro: "",
        };
        let onlooker = text(&r.campaign, &world, Some("nemedia"), &week);
        assert!(
            onlooker.contains("wolves occupies Border Kingdom"),
            "{onlooker}"
        );
        assert!(!onlooker.contains("aquilonia occupies"), "{onlooker}");
        let employer = text(&r.campaign, &world, Some("aquilonia"), &week);
        assert!(
            employer.contains("aquilonia occupies Border Kingdom"),
            "{employer}"
        );
        let h = &r.campaign.holdings["border-kingdom"];
        assert_eq!(h.holder_seen_by(Some("nemedia")), Some("wolves"));
        assert_eq!(h.holder_seen_by(Some("aquilonia")), Some("aquilonia"));
        // The onlooker's map colours the province as the company's counter.
        let theirs = svg(&r.campaign, &world, Some("nemedia"));
        let mine = svg(&r.campaign, &world, Some("aquilonia"));
        let region = "<path id=\"p-border-kingdom\"";
        let fill_of = |svg: &str| -> String {
            let line = svg
                .lines()
                .find(|l| l.starts_with(region))
                .expect("the province's region");
            line.split("fill=\"")
                .nth(1)
                .unwrap_or("")
                .chars()
                .take(7)
                .collect()
        };
        let company = "#555555";
        assert_eq!(
            fill_of(&theirs),
            company,
            "the company's colour, as its counter"
        );
        assert_ne!(fill_of(&mine), company, "the employer sees its own colour");
    }

    /// Issue 45, item 6: four identical raise lines, three carried out and
    /// the fourth refused: "orders given" marks only the fourth.
    #[test]
    fn identical_order_lines_each_get_their_own_verdict() {
        let line = "raise 12 Mailed Knights";
        let orders: BTreeMap<String, Vec<Line<Order>>> = [(
            "ophir".to_string(),
            (2..6)
                .map(|number| Line {
                    number,
                    text: line.into(),
                    item: Order::Raise {
                        figures: 12,
                        designation: "Mailed Knights".into(),
                    },
                })
                .collect(),
        )]
        .into();
        let mut events: Vec<MapEvent> = (0..3)
            .map(|_| MapEvent::Raised {
                power: "ophir".into(),
                army: "ophir-1".into(),
                figures: 12,
                designation: "Mailed Knights".into(),
                cost: 120,
            })
            .collect();
        events.push(MapEvent::Refused {
            power: "ophir".into(),
            line: line.into(),
            why: "the treasury holds 40 points, not 120".into(),
            number: Some(5),
        });
        let week = Week {
            played: "week 1",
            events: &events,
            orders: &orders,
            dice: None,
            intro: "",
        };
        let refused: Vec<bool> = orders_given(Some("ophir"), &week)
            .iter()
            .map(|o| !o.get_attr("refused").unwrap().is_none())
            .collect();
        assert_eq!(refused, [false, false, false, true]);
    }

    /// Issue 45, item 5: the report that opens winter orders shows the new
    /// year — the pacified province now the conqueror's, the treasury
    /// rebuilt, the contract over — as the orders will be judged.
    #[test]
    fn the_winter_report_shows_the_new_year() {
        let (world, mut c) = campaign("T");
        c.week = c.settings.weeks_per_year + 1;
        assert!(c.winter());
        c.powers.get_mut("aquilonia").unwrap().treasury = 0;
        let h = c.holdings.get_mut("nemedian-marches").unwrap();
        h.occupier = Some("aquilonia".into());
        h.held_for = 10;
        h.pacified = true;
        c.armies.get_mut("nemedia-1").unwrap().hired_by = Some("aquilonia".into());
        let new = crate::games::hyborian::campaign::resolve::as_ordered(&c, &world);
        let (treasury, allowance) = (
            new.powers["aquilonia"].treasury,
            new.allowance(&world, "aquilonia"),
        );
        assert!(treasury > 0 && allowance > c.allowance(&world, "aquilonia"));
        let none = BTreeMap::new();
        let week = Week {
            played: "week 35",
            events: &[],
            orders: &none,
            dice: None,
            intro: "",
        };
        let secretary = text(&c, &world, None, &week);
        assert!(
            secretary.contains(&format!(
                "aquilonia: {treasury} points unspent of {allowance} campaign points"
            )),
            "{secretary}"
        );
        assert!(
            !secretary.contains("occupied by aquilonia"),
            "the province is aquilonia's now: {secretary}"
        );
        let aquilonia = text(&c, &world, Some("aquilonia"), &week);
        assert!(
            !aquilonia.contains("serving") && !aquilonia.contains("hired from"),
            "the contract is over: {aquilonia}"
        );
    }

    fn campaign(title: &str) -> (World, Campaign) {
        let file = format!(
            r#"id = "t"
title = "{title}"
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
"#
        );
        let world = World::hyborea().unwrap();
        let c = CampaignFile::load(&file).unwrap().start(&world).unwrap();
        (world, c)
    }

    #[test]
    fn no_name_on_the_map_leaves_the_picture_or_lies_on_another() {
        let (world, mut c) = campaign("The Hour of the Dragon");
        // A stack, to crowd the names.
        let mut extra = c.armies["nemedia-1"].clone();
        extra.id = "nemedia-2".into();
        c.armies.insert(extra.id.clone(), extra);
        for reader in [None, Some("aquilonia"), Some("nemedia")] {
            let svg = svg(&c, &world, reader);
            let faults = crate::report::picture::label_faults(&svg).unwrap();
            assert_eq!(faults, Vec::<String>::new(), "{reader:?}");
            let (_, texts) = crate::report::picture::text_boxes(&svg).unwrap();
            // A name set on two lines reads as the two texts one after the other.
            let two: Vec<String> = texts
                .windows(2)
                .map(|w| format!("{} {}", w[0].0, w[1].0))
                .collect();
            for name in world
                .provinces
                .values()
                .map(|p| &p.name)
                .chain(world.seas.iter().map(|s| &s.name))
            {
                assert!(
                    texts.iter().any(|(t, _)| t == name) || two.contains(name),
                    "{name} is on the map for {reader:?}"
                );
            }
            for key in [
                "unseen (shaded: its owner, not who holds it now)",
                "battle waiting",
                "sea",
                "aquilonia",
            ] {
                assert!(texts.iter().any(|(t, _)| t == key), "legend: {key}");
            }
        }
    }

    #[test]
    fn stacked_counters_show_their_count_and_the_top_number_stays_clear() {
        let (world, mut c) = campaign("T");
        for n in 2..=3 {
            let mut extra = c.armies["nemedia-1"].clone();
            extra.id = format!("nemedia-{n}");
            c.armies.insert(extra.id.clone(), extra);
        }
        let svg = svg(&c, &world, Some("aquilonia"));
        let (_, texts) = crate::report::picture::text_boxes(&svg).unwrap();
        assert!(texts.iter().any(|(t, _)| t == "×3"), "{svg}");
        // Three counters drawn in the Nemedian Marches, the top one's
        // number with nothing on it.
        assert_eq!(
            svg.matches("width=\"18\" height=\"12\"").count(),
            4,
            "{svg}"
        );
        assert_eq!(
            crate::report::picture::label_faults(&svg).unwrap(),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_html_escapes_what_comes_from_outside_and_lists_the_orders() {
        let (world, c) = campaign("<b>War</b> & Peace");
        let orders: BTreeMap<String, Vec<Line<Order>>> = [(
            "aquilonia".to_string(),
            vec![Line {
                number: 2,
                text: "army aquilonia-1 move to <Kordava>".into(),
                item: Order::Move {
                    army: "aquilonia-1".into(),
                    to: "kordava".into(),
                },
            }],
        )]
        .into();
        let events = [MapEvent::Refused {
            power: "aquilonia".into(),
            line: "army aquilonia-1 move to <Kordava>".into(),
            why: "Kordava is not next to Attalus".into(),
            number: Some(2),
        }];
        let dice = WeekDice {
            revealed: Some("ab".repeat(32)),
            revealed_hash: Some(crate::dice::seed_hash(&"ab".repeat(32))),
            next_hash: "cd".repeat(32),
        };
        let week = Week {
            played: "week 1",
            events: &events,
            orders: &orders,
            dice: Some(&dice),
            intro: "<script>",
        };
        let html = html(
            &c,
            &world,
            Some("aquilonia"),
            &week,
            Some("cid:map"),
            &BTreeMap::new(),
        );
        assert!(
            !html.contains("<b>War") && !html.contains("<script>") && !html.contains("<Kordava>"),
            "{html}"
        );
        assert!(
            html.contains("&lt;b&gt;War&lt;&#x2f;b&gt; &amp; Peace")
                || html.contains("&lt;b&gt;War"),
            "{html}"
        );
        assert!(html.contains("src=\"cid:map\""), "{html}");
        assert!(
            html.contains("not carried out (Kordava is not next to Attalus)"),
            "{html}"
        );
        assert!(
            html.contains(&"ab".repeat(32)) && html.contains(&"cd".repeat(32)),
            "{html}"
        );
        let text = text(&c, &world, Some("aquilonia"), &week);
        assert!(
            text.contains("- army aquilonia-1 move to <Kordava>: not carried out (Kordava is not next to Attalus)"),
            "{text}"
        );
        // Nemedia reads none of Aquilonia's orders.
        let nemedia = super::text(&c, &world, Some("nemedia"), &week);
        assert!(
            !nemedia.contains("ORDERS GIVEN") && !nemedia.contains("Kordava"),
            "{nemedia}"
        );
    }
}
