//! Checking an army against the book's rules for buying one: the point
//! total (§11), the percentage bands and unit sizes of Appendix I, guard
//! units, heroes and superheroes (§9), wizards (Appendix II), crossbows (§6,
//! §12) and mercenaries (Appendix I, Free Companies).
//!
//! Every [`Breach`] prints in the book's words and says how to fix it.

use std::collections::BTreeMap;
use std::fmt;

use crate::games::hyborian::rules::points::{hero_cost, superhero_cost};

use super::file::{ArmyFile, Hero};
use super::magic::{magic_order, MagicOrder};
use super::nation::{ArmKind, Designation, Mercenaries, Nation};
use super::{nation, suggest, ArmyError};

/// "One hero for every 750 points they have fielded on the table."
pub const POINTS_PER_HERO: u32 = 750;
/// "An army must field fifteen hundred points to be entitled to a single superhero."
pub const POINTS_PER_SUPERHERO: u32 = 1500;
/// A superhero "will replace two heroes".
pub const HEROES_PER_SUPERHERO: u32 = 2;
/// Ruling: the one unit under strength keeps at least this fraction
/// (1 in 2) of a full unit; the book sets no floor.
pub const UNDER_STRENGTH_FLOOR: u32 = 2;

/// What the check found: the points spent and every breach.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub nation: String,
    pub limit: u32,
    pub total_points: u32,
    /// Figures counted for percentages (chariots and mammoths one each).
    pub figures: u32,
    /// One line per unit and single figure: (name, what, figures, points).
    pub lines: Vec<CostLine>,
    pub breaches: Vec<Breach>,
}

/// One bought item and its price.
#[derive(Debug, Clone, PartialEq)]
pub struct CostLine {
    pub name: String,
    pub what: String,
    pub figures: u32,
    pub points: u32,
}

/// A rule of army purchase the army breaks. Each variant's message quotes
/// the rule; the doc line shows an example.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Breach {
    /// "1,520 points is over the limit of 1,500."
    OverPoints { total: u32, limit: u32 },
    /// "The army has no units."
    NoUnits,
    /// "'Black Dragon' is not in the list of Aquilonia (did you mean 'Black Dragons'?)".
    UnknownName {
        what: &'static str,
        given: String,
        list: String,
        suggestion: Option<String>,
    },
    /// "Cavalry is 20.0% of the army; Aquilonia allows 25-40%."
    ArmShare {
        nation: String,
        arm: ArmKind,
        figures: u32,
        of: u32,
        band: [u32; 2],
    },
    /// "Poitainian Knights are 60.0% of the cavalry; the list allows 0-50%."
    DesignationShare {
        designation: String,
        arm: ArmKind,
        figures: u32,
        of: u32,
        band: [u32; 2],
    },
    /// "2 units of Black Dragons; the list allows 1 unit."
    OneUnit { designation: String, units: u32 },
    /// "Guard units are limited to one per army: Black Dragons, Black Legion."
    Guards { units: Vec<String> },
    /// "Hyrkanian foot never leaves Hyrkania" (an arm fielded away from home).
    AwayFromHome { nation: String, arm: ArmKind },
    /// "Aquilonians 2 has 30 figures; units of Aquilonians are 24."
    OverStrength {
        unit: String,
        figures: u32,
        full: String,
    },
    /// "Only one unit may be under strength: Aquilonians 2, Bossonian Archers."
    UnderStrength { units: Vec<String> },
    /// "Aquilonians 2 has 5 figures, under half a unit (12)."
    TooWeak {
        unit: String,
        figures: u32,
        floor: u32,
    },
    /// "3 heroes need 2,250 points; the army fields 1,500."
    Heroes {
        heroes: u32,
        allowed: u32,
        total: u32,
    },
    /// "2 superheroes, but an army must field 1,500 points for each: 2,000 allow 1."
    Superheroes {
        superheroes: u32,
        allowed: u32,
        total: u32,
    },
    /// "Two heroes on foot: no two heroes may serve in the same type of unit."
    HeroesSameType { mounted: bool, names: Vec<String> },
    /// "Hero Trocero is mounted but serves with Aquilonians (foot)."
    HeroWrongUnit {
        hero: String,
        mounted: bool,
        unit: String,
    },
    /// "Commander Conan is with 'Black Dragon', which is not in this army."
    NoSuchUnit { who: String, unit: String },
    /// "No gamer should buy wizards of more than one type to serve with the same army."
    WizardTypes { orders: Vec<String> },
    /// "Wizards of the Black Circle serve only Stygia, not Aquilonia."
    WizardMayNotServe {
        order: String,
        nation: String,
        serves: String,
    },
    /// "There is only one Thoth-Amon."
    WizardAlone { order: String, count: u32 },
    /// "Crossbows are only available to the Western kingdoms: Turanian Levy Archers."
    CrossbowsNotWestern { unit: String, nation: String },
    /// "Gundermen carry no bows, so they cannot carry crossbows."
    CrossbowsWithoutBows { unit: String },
    /// "Stygia may not hire mercenaries."
    NoMercenaries { nation: String },
    /// "Shemite Archers (Shem) are not among the mercenaries Zamora may hire: Free Companies only."
    MercenaryNotAllowed {
        unit: String,
        from: String,
        nation: String,
        allowed: String,
    },
    /// "Mercenaries are 30.0% of the army; Turan allows up to 25%."
    MercenaryShare {
        nation: String,
        figures: u32,
        of: u32,
        limit: u32,
    },
    /// "2 units of Desert Nomads; Khauran and Khoraja may hire 1."
    MercenaryCount { from: String, units: u32, max: u32 },
}

fn pct(figures: u32, of: u32) -> String {
    if of == 0 {
        "0%".into()
    } else {
        format!("{:.1}%", f64::from(figures) * 100.0 / f64::from(of))
    }
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Breach::OverPoints { total, limit } => write!(
                f,
                "{total} points is over the limit of {limit}: drop or shrink a unit (one unit may be under strength to meet the point total)"
            ),
            Breach::NoUnits => write!(f, "the army has no units"),
            Breach::UnknownName { what, given, list, suggestion } => {
                write!(f, "'{given}' is not a {what} of {list}")?;
                match suggestion {
                    Some(s) => write!(f, " (did you mean '{s}'?)"),
                    None => Ok(()),
                }
            }
            Breach::ArmShare { nation, arm, figures, of, band: [lo, hi] } => write!(
                f,
                "{} is {} of the army ({figures} of {of} figures); {nation}'s {} must be {lo}-{hi}% of the army (percentages are of figures; chariots and mammoths count one each)",
                capital(arm.label()),
                pct(*figures, *of),
                arm.label()
            ),
            Breach::DesignationShare { designation, arm, figures, of, band: [lo, hi] } => write!(
                f,
                "{designation} are {} of the {} ({figures} of {of} figures); the list allows {lo}-{hi}% of the {}",
                pct(*figures, *of),
                arm.label(),
                arm.label()
            ),
            Breach::OneUnit { designation, units } => {
                write!(f, "{units} units of {designation}; the list allows 1 unit")
            }
            Breach::Guards { units } => write!(
                f,
                "guard units are limited to one per army, but this army has {}",
                units.join(", ")
            ),
            Breach::AwayFromHome { nation, arm } => write!(
                f,
                "{nation}'s {} may only fight at home (set `home = true` if the battle is fought there)",
                arm.label()
            ),
            Breach::OverStrength { unit, figures, full } => {
                write!(f, "{unit} has {figures} figures; a full unit has {full}")
            }
            Breach::UnderStrength { units } => write!(
                f,
                "only one unit per side may serve under strength, but {} are",
                units.join(", ")
            ),
            Breach::TooWeak { unit, figures, floor } => write!(
                f,
                "{unit} has {figures} figures; an under-strength unit keeps at least half a unit ({floor})"
            ),
            Breach::Heroes { heroes, allowed, total } => write!(
                f,
                "{heroes} heroes (a superhero counts as two) but one hero is allowed for every {POINTS_PER_HERO} points fielded: {total} points allow {allowed}"
            ),
            Breach::Superheroes { superheroes, allowed, total } => write!(
                f,
                "{superheroes} superheroes, but an army must field {POINTS_PER_SUPERHERO} points for each: {total} points allow {allowed}"
            ),
            Breach::HeroesSameType { mounted, names } => write!(
                f,
                "no two heroes may serve in the same type of unit, but {} are {}",
                names.join(" and "),
                if *mounted { "both mounted" } else { "both on foot" }
            ),
            Breach::HeroWrongUnit { hero, mounted, unit } => write!(
                f,
                "{hero} is {} but serves with {unit}; a mounted hero serves with the cavalry, a hero on foot with the infantry",
                if *mounted { "mounted" } else { "on foot" }
            ),
            Breach::NoSuchUnit { who, unit } => write!(f, "{who} serves with '{unit}', which is not a unit of this army"),
            Breach::WizardTypes { orders } => write!(
                f,
                "no gamer should buy wizards of more than one type to serve with the same army: {}",
                orders.join(", ")
            ),
            Breach::WizardMayNotServe { order, nation, serves } => {
                write!(f, "{order} may not serve {nation}: they serve {serves}")
            }
            Breach::WizardAlone { order, count } => {
                write!(f, "{count} × {order}, but there is only one")
            }
            Breach::CrossbowsNotWestern { unit, nation } => write!(
                f,
                "{unit}: crossbows are only available to the Western kingdoms, and {nation} is not one"
            ),
            Breach::CrossbowsWithoutBows { unit } => {
                write!(f, "{unit} are not archers: only bow-armed units may carry crossbows instead")
            }
            Breach::NoMercenaries { nation } => write!(
                f,
                "{nation} may not hire mercenaries (only nations whose description allows them may hire any)"
            ),
            Breach::MercenaryNotAllowed { unit, from, nation, allowed } => {
                write!(f, "{unit} ({from}) is not a mercenary {nation} may hire: {allowed}")
            }
            Breach::MercenaryShare { nation, figures, of, limit } => write!(
                f,
                "mercenaries are {} of the army ({figures} of {of} figures); {nation} allows up to {limit}%",
                pct(*figures, *of)
            ),
            Breach::MercenaryCount { from, units, max } => {
                write!(f, "{units} mercenary units from {from}; no more than {max} may be hired")
            }
        }
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Figures per designation and arm, the basis of every percentage test.
/// Built from (designation index in [`Nation::designations`], figures).
pub(crate) struct Tally {
    per_designation: Vec<u32>,
    units_per_designation: Vec<u32>,
    per_arm: Vec<u32>,
    total: u32,
}

impl Tally {
    pub(crate) fn new(nation: &Nation, units: impl Iterator<Item = (usize, u32)>) -> Tally {
        let n = nation.designations().count();
        let arm_of: Vec<usize> = nation
            .arms
            .iter()
            .enumerate()
            .flat_map(|(i, a)| std::iter::repeat_n(i, a.units.len()))
            .collect();
        let mut t = Tally {
            per_designation: vec![0; n],
            units_per_designation: vec![0; n],
            per_arm: vec![0; nation.arms.len()],
            total: 0,
        };
        for (d, figures) in units {
            t.per_designation[d] += figures;
            t.units_per_designation[d] += 1;
            t.per_arm[arm_of[d]] += figures;
            t.total += figures;
        }
        t
    }
}

/// One percentage or count test of Appendix I, with the numbers it judged.
pub(crate) enum BandTest<'a> {
    Arm {
        arm: ArmKind,
        figures: u32,
        band: [u32; 2],
    },
    Designation {
        d: &'a Designation,
        arm: ArmKind,
        figures: u32,
        of: u32,
        band: [u32; 2],
    },
    OneUnit {
        d: &'a Designation,
        units: u32,
    },
    Home {
        arm: ArmKind,
        figures: u32,
    },
}

fn within(figures: u32, of: u32, [lo, hi]: [u32; 2]) -> bool {
    let (x, of) = (u64::from(figures) * 100, u64::from(of));
    x >= u64::from(lo) * of && x <= u64::from(hi) * of
}

impl BandTest<'_> {
    pub(crate) fn passes(&self, total: u32) -> bool {
        match *self {
            BandTest::Arm { figures, band, .. } => within(figures, total, band),
            BandTest::Designation {
                figures, of, band, ..
            } => within(figures, of, band),
            BandTest::OneUnit { units, .. } => units <= 1,
            BandTest::Home { figures, .. } => figures == 0,
        }
    }
}

/// Every band test the nation's list sets for this tally. Arms with no
/// figures set no designation bands (an empty arm has no shares to fill).
pub(crate) fn band_tests<'a>(
    nation: &'a Nation,
    tally: &'a Tally,
    home: bool,
) -> impl Iterator<Item = BandTest<'a>> + 'a {
    let mut index = 0;
    nation.arms.iter().enumerate().flat_map(move |(ai, arm)| {
        let arm_figures = tally.per_arm[ai];
        let mut tests = Vec::new();
        if let Some(band) = arm.share {
            tests.push(BandTest::Arm {
                arm: arm.of,
                figures: arm_figures,
                band,
            });
        }
        if arm.home_only && !home {
            tests.push(BandTest::Home {
                arm: arm.of,
                figures: arm_figures,
            });
        }
        for d in &arm.units {
            let figures = tally.per_designation[index];
            if d.one_unit {
                tests.push(BandTest::OneUnit {
                    d,
                    units: tally.units_per_designation[index],
                });
            } else if let (Some(band), true) = (d.percent, arm_figures > 0) {
                tests.push(BandTest::Designation {
                    d,
                    arm: arm.of,
                    figures,
                    of: arm_figures,
                    band,
                });
            }
            index += 1;
        }
        tests
    })
}

/// True when every band of the list holds (the proposer's fast test).
pub(crate) fn bands_hold(nation: &Nation, tally: &Tally, home: bool) -> bool {
    tally.total > 0 && band_tests(nation, tally, home).all(|t| t.passes(tally.total))
}

/// Check an army file against its national list and the rules of purchase.
///
/// # Errors
/// [`ArmyError::UnknownName`] when the nation is not in Appendix I (nothing
/// else can be judged without its list).
pub fn check(army: &ArmyFile) -> Result<Report, ArmyError> {
    let nation = nation(&army.nation)?;
    let mut breaches = Vec::new();
    let mut lines = Vec::new();
    let names = army.unit_names();

    // Native units: resolve designations, price them, check sizes.
    let mut native = Vec::new();
    let mut under = Vec::new();
    let mut guards = Vec::new();
    let index_of: BTreeMap<String, usize> = nation
        .designations()
        .enumerate()
        .map(|(i, (_, d))| (crate::names::key(&d.designation), i))
        .collect();
    let designations: Vec<&Designation> = nation.designations().map(|(_, d)| d).collect();
    for (line, name) in army.units.iter().zip(&names) {
        let Some(&i) = index_of.get(&crate::names::key(&line.designation)) else {
            breaches.push(Breach::UnknownName {
                what: "unit designation",
                given: line.designation.clone(),
                list: nation.name.clone(),
                suggestion: suggest(
                    &line.designation,
                    designations.iter().map(|d| d.designation.as_str()),
                ),
            });
            continue;
        };
        let d = designations[i];
        native.push((i, line.figures));
        let bow = d.has_bow();
        if line.crossbows {
            if !bow {
                breaches.push(Breach::CrossbowsWithoutBows { unit: name.clone() });
            } else if !nation.western {
                breaches.push(Breach::CrossbowsNotWestern {
                    unit: name.clone(),
                    nation: nation.name.clone(),
                });
            }
        }
        size_breaches(name, line.figures, d, &mut under, &mut breaches);
        if d.is_guard() {
            guards.push(name.clone());
        }
        lines.push(CostLine {
            name: name.clone(),
            what: format!("{} {} {}", d.kind.code(), d.class, d.designation),
            figures: line.figures,
            points: line.figures * d.figure_cost(),
        });
    }
    if army.units.is_empty() {
        breaches.push(Breach::NoUnits);
    }
    let tally = Tally::new(&nation, native.iter().copied());
    for test in band_tests(&nation, &tally, army.home) {
        if test.passes(tally.total) {
            continue;
        }
        breaches.push(match test {
            BandTest::Arm { arm, figures, band } => Breach::ArmShare {
                nation: nation.name.clone(),
                arm,
                figures,
                of: tally.total,
                band,
            },
            BandTest::Designation {
                d,
                arm,
                figures,
                of,
                band,
            } => Breach::DesignationShare {
                designation: d.designation.clone(),
                arm,
                figures,
                of,
                band,
            },
            BandTest::OneUnit { d, units } => Breach::OneUnit {
                designation: d.designation.clone(),
                units,
            },
            BandTest::Home { arm, .. } => Breach::AwayFromHome {
                nation: nation.name.clone(),
                arm,
            },
        });
    }

    // Mercenaries.
    let merc_names = &names[army.units.len()..];
    let merc_figures = mercenaries(
        army,
        &nation,
        merc_names,
        &mut lines,
        &mut under,
        &mut breaches,
    );
    if merc_figures > 0 {
        let limit = match nation.mercenaries {
            Mercenaries::Any { percent } | Mercenaries::FreeCompanies { percent } => Some(percent),
            _ => None,
        };
        let of = tally.total + merc_figures;
        if let Some(limit) = limit.filter(|&l| !within(merc_figures, of, [0, l])) {
            breaches.push(Breach::MercenaryShare {
                nation: nation.name.clone(),
                figures: merc_figures,
                of,
                limit,
            });
        }
    }
    if guards.len() > 1 {
        breaches.push(Breach::Guards { units: guards });
    }
    if under.len() > 1 {
        breaches.push(Breach::UnderStrength { units: under });
    }

    // Single figures.
    for h in &army.heroes {
        lines.push(single_line(h, "hero", hero_cost(h.mounted)));
    }
    for h in &army.superheroes {
        lines.push(single_line(h, "superhero", superhero_cost(h.mounted)));
    }
    wizards(army, &nation, &mut lines, &mut breaches);
    let total_points = lines.iter().map(|l| l.points).sum();
    hero_breaches(army, &names, &nation, total_points, &mut breaches);
    if let Some(c) = &army.commander {
        lines.push(CostLine {
            name: c.name.clone(),
            what: "commander".into(),
            figures: 1,
            points: 0,
        });
        if let Some(unit) = c.with.as_ref().filter(|u| !names.contains(u)) {
            breaches.push(Breach::NoSuchUnit {
                who: format!("commander {}", c.name),
                unit: unit.clone(),
            });
        }
    }
    if total_points > army.points {
        breaches.insert(
            0,
            Breach::OverPoints {
                total: total_points,
                limit: army.points,
            },
        );
    }
    Ok(Report {
        nation: nation.name.clone(),
        limit: army.points,
        total_points,
        figures: tally.total + merc_figures,
        lines,
        breaches,
    })
}

fn single_line(h: &Hero, what: &str, points: u32) -> CostLine {
    let how = if h.mounted { "mounted" } else { "on foot" };
    CostLine {
        name: h.name.clone(),
        what: format!("{what} {how}"),
        figures: 1,
        points,
    }
}

/// Unit size: over a full unit is a breach; under it, the unit is the (one)
/// under-strength unit, and must keep half a unit.
fn size_breaches(
    name: &str,
    figures: u32,
    d: &Designation,
    under: &mut Vec<String>,
    breaches: &mut Vec<Breach>,
) {
    if figures > d.figures.max() {
        breaches.push(Breach::OverStrength {
            unit: name.to_string(),
            figures,
            full: d.figures.to_string(),
        });
    } else if figures < d.figures.min() {
        under.push(name.to_string());
        let floor = d.figures.min().div_ceil(UNDER_STRENGTH_FLOOR);
        if figures < floor {
            breaches.push(Breach::TooWeak {
                unit: name.to_string(),
                figures,
                floor,
            });
        }
    }
}

/// Check and price the mercenaries; returns their figures.
fn mercenaries(
    army: &ArmyFile,
    nation: &Nation,
    names: &[String],
    lines: &mut Vec<CostLine>,
    under: &mut Vec<String>,
    breaches: &mut Vec<Breach>,
) -> u32 {
    if army.mercenaries.is_empty() {
        return 0;
    }
    if nation.mercenaries == Mercenaries::None {
        breaches.push(Breach::NoMercenaries {
            nation: nation.name.clone(),
        });
    }
    let mut figures = 0;
    let mut hired: BTreeMap<usize, u32> = BTreeMap::new();
    for (m, name) in army.mercenaries.iter().zip(names) {
        let from = match super::nation(&m.nation) {
            Ok(n) => n,
            Err(_) => {
                let all = super::nations().unwrap_or_default();
                breaches.push(Breach::UnknownName {
                    what: "nation",
                    given: m.nation.clone(),
                    list: "Appendix I".into(),
                    suggestion: suggest(&m.nation, all.iter().map(|n| n.name.as_str())),
                });
                continue;
            }
        };
        let Some((_, d)) = from.designation(&m.designation) else {
            breaches.push(Breach::UnknownName {
                what: "unit designation",
                given: m.designation.clone(),
                list: from.name.clone(),
                suggestion: suggest(
                    &m.designation,
                    from.designations().map(|(_, d)| d.designation.as_str()),
                ),
            });
            continue;
        };
        let allowed = match &nation.mercenaries {
            Mercenaries::None => Ok(()),
            Mercenaries::Any { .. } => Ok(()),
            Mercenaries::FreeCompanies { .. } => {
                if crate::names::key(&from.name) == crate::names::key("Free Companies") {
                    Ok(())
                } else {
                    Err("Free Companies only".to_string())
                }
            }
            Mercenaries::Listed { units } => {
                let slot = units.iter().position(|l| {
                    crate::names::key(&l.nation) == crate::names::key(&from.name)
                        && l.designation.as_ref().is_none_or(|x| {
                            crate::names::key(x) == crate::names::key(&d.designation)
                        })
                });
                match slot {
                    Some(i) => {
                        *hired.entry(i).or_default() += 1;
                        Ok(())
                    }
                    None => Err(units
                        .iter()
                        .map(|l| {
                            format!(
                                "{} ({})",
                                l.designation.as_deref().unwrap_or("any unit"),
                                l.nation
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(", ")),
                }
            }
        };
        if let Err(allowed) = allowed {
            breaches.push(Breach::MercenaryNotAllowed {
                unit: name.clone(),
                from: from.name.clone(),
                nation: nation.name.clone(),
                allowed,
            });
        }
        size_breaches(name, m.figures, d, under, breaches);
        figures += m.figures;
        lines.push(CostLine {
            name: name.clone(),
            what: format!(
                "{} {} {} (mercenary, {})",
                d.kind.code(),
                d.class,
                d.designation,
                from.name
            ),
            figures: m.figures,
            points: m.figures * d.figure_cost(),
        });
    }
    if let Mercenaries::Listed { units } = &nation.mercenaries {
        for (i, count) in hired {
            let l = &units[i];
            if count > l.max_units {
                breaches.push(Breach::MercenaryCount {
                    from: l.designation.clone().unwrap_or_else(|| l.nation.clone()),
                    units: count,
                    max: l.max_units,
                });
            }
        }
    }
    figures
}

/// Check and price the wizards.
fn wizards(
    army: &ArmyFile,
    nation: &Nation,
    lines: &mut Vec<CostLine>,
    breaches: &mut Vec<Breach>,
) {
    let mut orders: Vec<MagicOrder> = Vec::new();
    for w in &army.wizards {
        let order = match magic_order(&w.order) {
            Ok(o) => o,
            Err(ArmyError::UnknownName {
                given, suggestion, ..
            }) => {
                breaches.push(Breach::UnknownName {
                    what: "magic user",
                    given,
                    list: "Appendix II".into(),
                    suggestion,
                });
                continue;
            }
            Err(e) => {
                breaches.push(Breach::UnknownName {
                    what: "magic user",
                    given: e.to_string(),
                    list: "Appendix II".into(),
                    suggestion: None,
                });
                continue;
            }
        };
        if !order.may_serve(&nation.name, army.opponent.as_deref()) {
            breaches.push(Breach::WizardMayNotServe {
                order: order.name.clone(),
                nation: nation.name.clone(),
                serves: order.serves_text(),
            });
        }
        if order.alone && w.count > 1 {
            breaches.push(Breach::WizardAlone {
                order: order.name.clone(),
                count: w.count,
            });
        }
        lines.push(CostLine {
            name: order.name.clone(),
            what: format!("{} wizard(s), {} points each", w.count, order.cost),
            figures: w.count,
            points: w.count * order.cost,
        });
        orders.push(order);
    }
    let clash = orders
        .iter()
        .any(|a| orders.iter().any(|b| !a.works_with(b)));
    if clash {
        breaches.push(Breach::WizardTypes {
            orders: orders.iter().map(|o| o.name.clone()).collect(),
        });
    }
}

fn hero_breaches(
    army: &ArmyFile,
    names: &[String],
    nation: &Nation,
    total: u32,
    breaches: &mut Vec<Breach>,
) {
    let slots = army.heroes.len() as u32 + HEROES_PER_SUPERHERO * army.superheroes.len() as u32;
    let allowed = total / POINTS_PER_HERO;
    if slots > allowed {
        breaches.push(Breach::Heroes {
            heroes: slots,
            allowed,
            total,
        });
    }
    let superheroes = army.superheroes.len() as u32;
    if superheroes > total / POINTS_PER_SUPERHERO {
        breaches.push(Breach::Superheroes {
            superheroes,
            allowed: total / POINTS_PER_SUPERHERO,
            total,
        });
    }
    let all: Vec<&Hero> = army.heroes.iter().chain(&army.superheroes).collect();
    for mounted in [false, true] {
        let same: Vec<String> = all
            .iter()
            .filter(|h| h.mounted == mounted)
            .map(|h| h.name.clone())
            .collect();
        if same.len() > 1 {
            breaches.push(Breach::HeroesSameType {
                mounted,
                names: same,
            });
        }
    }
    // The unit a hero serves with must exist and match him.
    let kinds: BTreeMap<&str, crate::games::hyborian::rules::UnitType> = army
        .units
        .iter()
        .map(|u| nation.designation(&u.designation).map(|(_, d)| d.kind))
        .chain(army.mercenaries.iter().map(|m| {
            super::nation(&m.nation)
                .ok()
                .and_then(|n| n.designation(&m.designation).map(|(_, d)| d.kind))
        }))
        .zip(names)
        .filter_map(|(k, n)| k.map(|k| (n.as_str(), k)))
        .collect();
    for h in &all {
        let Some(unit) = &h.with else { continue };
        match kinds.get(unit.as_str()) {
            None => breaches.push(Breach::NoSuchUnit {
                who: h.name.clone(),
                unit: unit.clone(),
            }),
            Some(kind) if kind.is_mounted() != h.mounted => breaches.push(Breach::HeroWrongUnit {
                hero: h.name.clone(),
                mounted: h.mounted,
                unit: unit.clone(),
            }),
            Some(_) => {}
        }
    }
}
