//! The campaign's state: [`Campaign`] holds the powers and their
//! treasuries, who holds each province, and the armies — counters whose
//! contents (an [`ArmyFile`], the "sealed envelope" of §12) only their
//! owner and the secretary may read. [`CampaignFile`] is the secretary's
//! set-up: powers, players and starting armies.
//!
//! The calendar: weeks 1 to [`Settings::weeks_per_year`] are map turns;
//! the turn after them is winter quarters, then a new year begins.

use super::map::World;
use crate::games::hyborian::army::{Arm, ArmyFile, Designation, Nation};
use crate::names::key;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// House settings of a campaign; defaults follow §12.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    /// "about 35 moves a campaigning year".
    pub weeks_per_year: u32,
    /// Map turns a conquered province must be held to be pacified.
    pub pacification_turns: u32,
    /// "not recommended to mass more than fifteen hundred points in a single army".
    pub max_army_points: u32,
    /// Table length per 500 points of the larger army, in feet.
    pub feet_per_500_points: u32,
    /// Weeks a besieged garrison holds out before it must come out and fight.
    pub siege_weeks: u32,
    /// The same against a Western kingdom with its siege train.
    pub siege_weeks_western: u32,
    /// Points of a Free Company player (the book: 75-200).
    pub free_company_points: u32,
    /// Who fights a battle: the engine at once, players face to face with
    /// the secretary entering the result, or the two powers' players in a
    /// battle game by mail (ruling CA-18).
    pub battles: BattleMode,
    /// Hours between the turns of a battle game by mail (and before its
    /// first deadline).
    pub battle_turn_hours: u32,
    /// Hours from one map turn's orders to the next deadline; at the
    /// deadline the week is resolved with the orders in (powers without
    /// orders stand). 0: no deadline — the week waits for every power or
    /// the secretary's `resolve` (ruling CA-17).
    pub week_hours: u32,
    /// Hours before a week's deadline when each power without orders is
    /// reminded, once (0: never, as a battle game's `reminder_hours`;
    /// ruling CA-32).
    pub reminder_hours: u32,
}

/// The most `reminder_hours` may be: 30 days, as a battle game's.
pub const MAX_REMINDER_HOURS: u32 = 720;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            weeks_per_year: 35,
            pacification_turns: 10,
            max_army_points: 1500,
            feet_per_500_points: 4,
            siege_weeks: 8,
            siege_weeks_western: 5,
            free_company_points: 200,
            battles: BattleMode::Engine,
            battle_turn_hours: 72,
            week_hours: 168,
            reminder_hours: 0,
        }
    }
}

/// How battles are fought: the campaign's setting, and a waiting battle's
/// own (the secretary's `battle 3 by mail|engine|secretary`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BattleMode {
    /// The turn engine with standing orders, at once (ruling CA-8).
    Engine,
    /// Face to face; the secretary enters the result (ruling CA-10).
    #[default]
    Secretary,
    /// A battle game by mail between the two powers' players (ruling CA-18).
    Mail,
}

impl BattleMode {
    /// The mode as written in the settings and the secretary's command.
    pub fn word(self) -> &'static str {
        match self {
            BattleMode::Engine => "engine",
            BattleMode::Secretary => "secretary",
            BattleMode::Mail => "mail",
        }
    }
}

/// A great power and what it holds apart from land and armies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Power {
    pub id: String,
    /// Its list in Appendix I ("Aquilonia", "Free Companies").
    pub list: String,
    /// Its nation on the map (none for a Free Company).
    pub nation: Option<String>,
    /// Western kingdoms have siege trains (§12).
    pub western: bool,
    /// Points not yet spent on troops.
    pub treasury: u32,
}

/// Who holds a province.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holding {
    /// The power whose points the province counts toward; none for the
    /// lands between and nations nobody plays.
    pub owner: Option<String>,
    /// A conqueror holding it, not yet pacified.
    pub occupier: Option<String>,
    /// Map turns the occupier has held it.
    pub held_for: u32,
    /// Pacified: its points move to the occupier at the start of next year.
    pub pacified: bool,
    /// The flag others see occupying it: the Free Company whose armies took
    /// it in the occupier's pay. Whom a company serves is not seen (ruling
    /// CA-15); none when the occupier's own armies took it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_as: Option<String>,
    /// The Free Company its owner paid it to: its points, and the
    /// province, move at the start of next year (`pay … with …`); until
    /// then it is the owner's (issue 45).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promised: Option<String>,
}

impl Holding {
    /// The power in control now: the occupier, else the owner.
    pub fn holder(&self) -> Option<&str> {
        self.occupier.as_deref().or(self.owner.as_deref())
    }

    /// The power in control as `reader` sees it (`None`: the secretary):
    /// a province a hired company took shows the company's flag to every
    /// power but the occupier and the company (ruling CA-15).
    pub fn holder_seen_by(&self, reader: Option<&str>) -> Option<&str> {
        match (self.occupier.as_deref(), self.seen_as.as_deref(), reader) {
            (Some(o), Some(f), Some(r)) if r != o && r != f => Some(f),
            _ => self.holder(),
        }
    }
}

/// What an army is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stance {
    Field,
    /// Holding the province; behind walls in a capital.
    Garrison,
    /// Starving out a fortified garrison; the count of weeks so far.
    Besieging {
        weeks: u32,
    },
}

/// A march under way into a neighbouring province.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct March {
    pub to: String,
    /// March days made so far.
    pub days: u32,
}

/// An army counter. `contents` is the sealed envelope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Army {
    pub id: String,
    pub owner: String,
    /// The employer of a hired Free Company, until the year ends.
    pub hired_by: Option<String>,
    pub province: String,
    pub contents: ArmyFile,
    pub stance: Stance,
    pub march: Option<March>,
    /// The province it last came from (sets its table edge in battle, and
    /// where it falls back to).
    pub came_from: Option<String>,
}

impl Army {
    /// The power whose orders it obeys.
    pub fn commander(&self) -> &str {
        self.hired_by.as_deref().unwrap_or(&self.owner)
    }

    /// Its worth in points (§11 prices of its lists).
    pub fn points(&self) -> u32 {
        contents_points(&self.contents)
    }

    /// All mounted: it marches faster.
    pub fn mounted(&self) -> bool {
        let lists = lists();
        self.contents.units.iter().all(|u| {
            find_list(lists, &self.contents.nation)
                .and_then(|n| n.designation(&u.designation))
                .is_some_and(|(_, d)| d.kind.is_mounted())
        })
    }

    /// The march days it makes in a week (ruling CA-3): more when all
    /// mounted.
    pub fn week_march(&self) -> u32 {
        if self.mounted() {
            super::map::MARCH_DAYS_MOUNTED
        } else {
            super::map::MARCH_DAYS_FOOT
        }
    }
}

/// A battle waiting for the secretary to enter its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingBattle {
    pub id: u32,
    pub province: String,
    /// The leading army of each side, the first the side that came.
    pub armies: [String; 2],
    /// The other armies of each side (several armies of one power fight
    /// together).
    #[serde(default)]
    pub with: [Vec<String>; 2],
    pub card: u32,
    pub table_feet: u32,
    /// Why the engine did not fight it, when the campaign's battles are the
    /// engine's.
    #[serde(default)]
    pub why: Option<String>,
    /// How it is to be fought: waiting for the secretary's result, by the
    /// engine at the next resolution, or as a battle game by mail.
    #[serde(default)]
    pub by: BattleMode,
    /// Whether each side marched in the week of the battle (who falls back
    /// when neither breaks, ruling CA-9).
    #[serde(default = "attacker_came")]
    pub came_in: [bool; 2],
    /// The side (0 or 1) on the table's north edge (ruling CA-7).
    #[serde(default)]
    pub north: usize,
    /// The week it was met in, as reports name it ("year 1, week 1"); empty
    /// in campaigns stored before it was kept.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub week: String,
}

fn attacker_came() -> [bool; 2] {
    [true, false]
}

impl PendingBattle {
    /// Every army of each side, the leading one first.
    pub fn sides(&self) -> [Vec<String>; 2] {
        [0, 1].map(|k| {
            std::iter::once(self.armies[k].clone())
                .chain(self.with[k].iter().cloned())
                .collect()
        })
    }

    /// Every army in the battle.
    pub fn all_armies(&self) -> Vec<String> {
        self.sides().into_iter().flatten().collect()
    }

    /// Whether `army` fights in it.
    pub fn involves(&self, army: &str) -> bool {
        self.all_armies().iter().any(|a| a == army)
    }

    /// The id of its battle game by mail in campaign `campaign`: "dragon-b3".
    pub fn game_id(&self, campaign: &str) -> String {
        format!("{campaign}-b{}", self.id)
    }
}

/// The whole campaign.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Campaign {
    pub id: String,
    pub title: String,
    pub settings: Settings,
    pub year: u32,
    /// 1..=weeks_per_year; weeks_per_year + 1 is winter quarters.
    pub week: u32,
    /// Map turns played so far (the turn being ordered is `turn + 1`).
    pub turn: u32,
    pub powers: BTreeMap<String, Power>,
    pub holdings: BTreeMap<String, Holding>,
    pub armies: BTreeMap<String, Army>,
    pub pending: Vec<PendingBattle>,
    pub battles_fought: u32,
    /// Next army number per power.
    pub next_army: BTreeMap<String, u32>,
}

/// The Appendix I lists, read once.
pub(crate) fn lists() -> &'static [Nation] {
    static LISTS: OnceLock<Vec<Nation>> = OnceLock::new();
    LISTS.get_or_init(|| crate::games::hyborian::army::nations().unwrap_or_default())
}

pub(crate) fn find_list<'a>(lists: &'a [Nation], name: &str) -> Option<&'a Nation> {
    let k = key(name);
    lists.iter().find(|n| key(&n.name) == k)
}

/// Points per figure of `designation` in `list`.
pub fn figure_cost(list: &str, designation: &str) -> Option<u32> {
    find_list(lists(), list)?
        .designation(designation)
        .map(|(_, d)| d.figure_cost())
}

/// Units of an arm that may only fight at home (Hyrkanian foot), by name.
pub(crate) fn home_only_units(f: &ArmyFile) -> Vec<String> {
    units_where(f, |arm, _| arm.home_only)
}

/// Guard units of an army, by name.
pub(crate) fn guard_units(f: &ArmyFile) -> Vec<String> {
    units_where(f, |_, d| d.is_guard())
}

/// The names of an army's units whose entry in its national list passes
/// `test`; a unit the list does not know passes nothing.
fn units_where(f: &ArmyFile, test: impl Fn(&Arm, &Designation) -> bool) -> Vec<String> {
    let names = f.unit_names();
    let list = find_list(lists(), &f.nation);
    f.units
        .iter()
        .enumerate()
        .filter(|(_, u)| {
            list.and_then(|n| n.designation(&u.designation))
                .is_some_and(|(arm, d)| test(arm, d))
        })
        .map(|(i, _)| names[i].clone())
        .collect()
}

/// An army file's worth: its units and mercenaries at §11 prices.
/// Take `gone(i)` figures from the `i`-th unit of `f` (its own units, then
/// its mercenaries, the order `unit_names` lists them in), drop the units
/// left with none, and count its points again: battle losses less what is
/// recovered, and the secretary's edits, take figures off alike.
pub fn take_figures(f: &mut ArmyFile, gone: impl Fn(usize) -> u32) {
    let n = f.units.len();
    for (i, u) in f.units.iter_mut().enumerate() {
        u.figures = u.figures.saturating_sub(gone(i));
    }
    for (i, m) in f.mercenaries.iter_mut().enumerate() {
        m.figures = m.figures.saturating_sub(gone(n + i));
    }
    f.units.retain(|u| u.figures > 0);
    f.mercenaries.retain(|m| m.figures > 0);
    f.points = contents_points(f);
}

pub fn contents_points(f: &ArmyFile) -> u32 {
    let own = f
        .units
        .iter()
        .map(|u| u.figures * figure_cost(&f.nation, &u.designation).unwrap_or(0));
    let hired = f
        .mercenaries
        .iter()
        .map(|m| m.figures * figure_cost(&m.nation, &m.designation).unwrap_or(0));
    own.chain(hired).sum()
}

/// Where `power`, playing `nation`, raises units when `holder` says who
/// holds each province: [`Campaign::raising_place`], and a power's general
/// judging from what its view shows (`fog::View::raising_place`).
pub fn raising_place<'h>(
    world: &World,
    nation: &str,
    power: &str,
    holder: impl Fn(&str) -> Option<&'h str>,
) -> Option<String> {
    if let Some(cap) = &world.nation(nation)?.capital {
        return (holder(cap) == Some(power)).then(|| cap.clone());
    }
    world
        .provinces
        .values()
        .filter(|p| p.nation.as_deref() == Some(nation))
        .filter(|p| holder(&p.id) == Some(power))
        .max_by(|a, b| a.points.cmp(&b.points).then(b.id.cmp(&a.id)))
        .map(|p| p.id.clone())
}

impl Campaign {
    /// Whether this turn is winter quarters.
    pub fn winter(&self) -> bool {
        self.week > self.settings.weeks_per_year
    }

    /// "Year 2, week 14" or "Year 2, winter quarters".
    pub fn date(&self) -> String {
        if self.winter() {
            format!("year {}, winter quarters", self.year)
        } else {
            format!("year {}, week {}", self.year, self.week)
        }
    }

    /// A power's campaign points: its provinces' points (a Free Company's
    /// mercenary points from the settings, plus any province it was paid).
    pub fn allowance(&self, world: &World, power: &str) -> u32 {
        let land: u32 = self
            .holdings
            .iter()
            .filter(|(_, h)| h.owner.as_deref() == Some(power))
            .filter_map(|(id, _)| world.province(id))
            .map(|p| p.points)
            .sum();
        match self.powers.get(power) {
            Some(p) if p.nation.is_none() => self.settings.free_company_points + land,
            Some(_) => land,
            None => 0,
        }
    }

    /// Points a power has in its armies (hired companies count to their owner).
    pub fn in_the_field(&self, power: &str) -> u32 {
        self.armies
            .values()
            .filter(|a| a.owner == power)
            .map(Army::points)
            .sum()
    }

    /// The capital a power raises units in, if it still holds it.
    pub fn capital_of(&self, world: &World, power: &str) -> Option<String> {
        let nation = self.powers.get(power)?.nation.as_ref()?;
        let cap = world.nation(nation)?.capital.as_ref()?;
        (self.holdings.get(cap)?.holder() == Some(power)).then(|| cap.clone())
    }

    /// Where a power raises units (§12 "new units are raised in the
    /// capital"): its capital while it holds it; a nation without a capital
    /// (Brythunia) raises in the province of its own land it holds that
    /// carries the most points (then the first by name), ruling CA-20.
    pub fn raising_place(&self, world: &World, power: &str) -> Option<String> {
        let nation = self.powers.get(power)?.nation.as_ref()?;
        raising_place(world, nation, power, |id| {
            self.holdings.get(id).and_then(Holding::holder)
        })
    }

    /// A new army id for `power`: "aquilonia-3".
    pub fn new_army_id(&mut self, power: &str) -> String {
        let n = self.next_army.entry(power.to_string()).or_insert(1);
        let id = format!("{power}-{n}");
        *n += 1;
        id
    }

    /// Find an army by what a player wrote (its id, any case).
    pub fn find_army(&self, written: &str) -> Option<&Army> {
        let k = key(written);
        self.armies.values().find(|a| key(&a.id) == k)
    }

    /// A power by what a player wrote.
    pub fn find_power(&self, written: &str) -> Option<&Power> {
        let k = key(written);
        self.powers.values().find(|p| key(&p.id) == k)
    }

    /// The waiting battle `army` is frozen in, if any: it takes no orders,
    /// does not march, and nothing joins it until the result is in.
    pub fn battle_of(&self, army: &str) -> Option<&PendingBattle> {
        self.pending.iter().find(|b| b.involves(army))
    }

    /// The secretary's choice of how waiting battle `battle` is fought.
    ///
    /// # Errors
    /// No such battle waits, or it is being played by mail already (its
    /// game ends by its moderator's END GAME, ruling CA-18).
    pub fn choose(&mut self, battle: u32, by: BattleMode) -> Result<(), String> {
        let Some(b) = self.pending.iter_mut().find(|b| b.id == battle) else {
            let waiting: Vec<String> = self.pending.iter().map(|b| b.id.to_string()).collect();
            return Err(if waiting.is_empty() {
                format!("there is no battle {battle} awaiting a result (none waits)")
            } else {
                format!(
                    "there is no battle {battle} awaiting a result; battles waiting: {}",
                    waiting.join(", ")
                )
            });
        };
        if b.by == BattleMode::Mail && by != BattleMode::Mail {
            return Err(format!(
                "battle {battle} is being played by mail as game {}; to stop it, end that game (MODERATOR {} … END GAME): its result comes back to the campaign",
                b.game_id(&self.id),
                b.game_id(&self.id)
            ));
        }
        b.by = by;
        Ok(())
    }
}

/// The secretary's set-up file (TOML).
///
/// ```toml
/// id = "hyboria"
/// title = "The Hour of the Dragon"
/// [secretary]
/// address = "secretary@club.example"
/// password = "scroll"
/// [settings]
/// weeks_per_year = 35
/// [[power]]
/// id = "aquilonia"
/// nation = "aquilonia"          # a map nation, or "free-companies"
/// address = "conan@aquilonia.example"
/// password = "lion"
/// [[power.army]]
/// province = "tarantia"
/// points = 1500                 # proposed from the list (`umpire army new`)
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    pub id: String,
    pub title: String,
    pub secretary: Player,
    #[serde(default)]
    pub settings: Settings,
    #[serde(rename = "power")]
    pub powers: Vec<PowerFile>,
}

/// An address and a password.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub address: String,
    pub password: String,
}

/// One power in the set-up file: a player's (`address`, `password`) or
/// the umpire's general's (`general = "aggressive"`, issue 42).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerFile {
    pub id: String,
    pub nation: String,
    #[serde(default)]
    pub address: String,
    #[serde(default)]
    pub password: String,
    /// The style of the umpire's general who writes the power's weekly
    /// orders instead of a player (`campaign::general`).
    #[serde(default)]
    pub general: Option<crate::sim::Style>,
    #[serde(default, rename = "army")]
    pub armies: Vec<ArmyStart>,
}

/// A starting army: proposed from the list for `points`, or the units of an army file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyStart {
    pub province: String,
    #[serde(default)]
    pub points: Option<u32>,
    #[serde(default)]
    pub units: Option<ArmyFile>,
}

/// Why a campaign cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("campaign file: {0}")]
    Syntax(String),
    #[error("campaign file: {0}")]
    Invalid(String),
}

impl CampaignFile {
    /// Read a set-up file.
    ///
    /// # Errors
    /// [`SetupError::Syntax`] with TOML's line and column.
    pub fn load(text: &str) -> Result<CampaignFile, SetupError> {
        toml::from_str(text).map_err(|e| SetupError::Syntax(e.to_string()))
    }

    /// The campaign at the start of year 1, week 1.
    ///
    /// # Errors
    /// [`SetupError::Invalid`] for an unknown nation or province, a starting
    /// army not in the power's own land, or armies worth more than the
    /// power's points or the largest army allowed.
    pub fn start(&self, world: &World) -> Result<Campaign, SetupError> {
        self.check_settings()?;
        self.check_seats()?;
        self.check_powers()?;
        let powers = self
            .powers
            .iter()
            .map(|p| Ok((p.id.clone(), power_at_start(world, p)?)))
            .collect::<Result<BTreeMap<_, _>, SetupError>>()?;
        let mut c = Campaign {
            id: self.id.clone(),
            title: self.title.clone(),
            settings: self.settings.clone(),
            year: 1,
            week: 1,
            turn: 0,
            holdings: holdings_at_start(world, &powers),
            powers,
            armies: BTreeMap::new(),
            pending: Vec::new(),
            battles_fought: 0,
            next_army: BTreeMap::new(),
        };
        for p in &self.powers {
            for start in &p.armies {
                let army = starting_army(&mut c, world, p, start)?;
                c.armies.insert(army.id.clone(), army);
            }
            let allowance = c.allowance(world, &p.id);
            let field = c.in_the_field(&p.id);
            if field > allowance {
                return Err(bad(format!(
                    "power {}: armies worth {field} points but its points are {allowance}",
                    p.id
                )));
            }
            if let Some(pw) = c.powers.get_mut(&p.id) {
                pw.treasury = allowance - field;
            }
        }
        Ok(c)
    }

    /// Every setting is at least 1 (reminders: 0 to the most).
    fn check_settings(&self) -> Result<(), SetupError> {
        let st = &self.settings;
        for (name, value) in [
            ("weeks_per_year", st.weeks_per_year),
            ("pacification_turns", st.pacification_turns),
            ("max_army_points", st.max_army_points),
            ("feet_per_500_points", st.feet_per_500_points),
            ("siege_weeks", st.siege_weeks),
            ("siege_weeks_western", st.siege_weeks_western),
            ("battle_turn_hours", st.battle_turn_hours),
        ] {
            if value == 0 {
                return Err(bad(format!(
                    "[settings] {name} = 0: it must be at least 1 (the book's default is {})",
                    match name {
                        "weeks_per_year" => 35,
                        "pacification_turns" => 10,
                        "max_army_points" => 1500,
                        "feet_per_500_points" => 4,
                        "siege_weeks" => 8,
                        "battle_turn_hours" => 72,
                        _ => 5,
                    }
                )));
            }
        }
        if st.reminder_hours > MAX_REMINDER_HOURS {
            return Err(bad(format!(
                "[settings] reminder_hours = {}: it must be from 0 (no reminders) to {MAX_REMINDER_HOURS}",
                st.reminder_hours
            )));
        }
        Ok(())
    }

    /// Each power has its own id and its own nation (the Free Companies
    /// excepted).
    fn check_powers(&self) -> Result<(), SetupError> {
        for (i, p) in self.powers.iter().enumerate() {
            if let Some(q) = self.powers[..i].iter().find(|q| q.id == p.id) {
                return Err(bad(format!(
                    "two powers are called '{}'; give each its own id",
                    q.id
                )));
            }
            if key(&p.nation) != "freecompanies" {
                if let Some(q) = self.powers[..i]
                    .iter()
                    .find(|q| key(&q.nation) == key(&p.nation))
                {
                    return Err(bad(format!(
                        "power {}: nation '{}' is power {}'s already; each nation is played by one power",
                        p.id, p.nation, q.id
                    )));
                }
            }
        }
        Ok(())
    }
}

/// A set-up file's refusal.
fn bad(s: String) -> SetupError {
    SetupError::Invalid(s)
}

/// A power as the campaign starts: its army list and nation, its treasury
/// still empty.
fn power_at_start(world: &World, p: &PowerFile) -> Result<Power, SetupError> {
    let (list, nation) = if key(&p.nation) == "freecompanies" {
        ("Free Companies".to_string(), None)
    } else {
        let n = world.nation(&p.nation).ok_or_else(|| {
            bad(format!(
                "power {}: no nation '{}' on the map",
                p.id, p.nation
            ))
        })?;
        (n.name.clone(), Some(n.id.clone()))
    };
    let western = find_list(lists(), &list).is_some_and(|n| n.western);
    Ok(Power {
        id: p.id.clone(),
        list,
        nation,
        western,
        treasury: 0,
    })
}

/// Each province held by the power that plays its nation, if any.
fn holdings_at_start(world: &World, powers: &BTreeMap<String, Power>) -> BTreeMap<String, Holding> {
    world
        .provinces
        .iter()
        .map(|(id, prov)| {
            let owner = powers
                .values()
                .find(|p| p.nation.is_some() && p.nation == prov.nation)
                .map(|p| p.id.clone());
            let holding = Holding {
                owner,
                occupier: None,
                held_for: 0,
                pacified: false,
                seen_as: None,
                promised: None,
            };
            (id.clone(), holding)
        })
        .collect()
}

/// One of power `p`'s starting armies, in its own land, within the
/// largest army allowed and with at most one guard unit among its armies
/// (§12, ruling CA-13).
fn starting_army(
    c: &mut Campaign,
    world: &World,
    p: &PowerFile,
    start: &ArmyStart,
) -> Result<Army, SetupError> {
    let prov = world
        .province(&start.province)
        .ok_or_else(|| bad(format!("power {}: no province '{}'", p.id, start.province)))?;
    let own = c.holdings[&prov.id].owner.as_deref() == Some(&p.id);
    if !own && c.powers[&p.id].nation.is_some() {
        return Err(bad(format!(
            "power {}: an army cannot start in {}, which is not its land",
            p.id, prov.name
        )));
    }
    let contents = starting_contents(c, p, start)?;
    if let (Some(g), Some(other)) = (
        guard_units(&contents).first(),
        c.armies
            .values()
            .find(|a| a.owner == p.id && !guard_units(&a.contents).is_empty()),
    ) {
        return Err(bad(format!(
            "power {}: the army in {} would have {g}, but army {} has a guard unit already; a guard unit can be in only one army (§12): give this army its units (`units`, from `umpire army new`) without it",
            p.id, prov.name, other.id
        )));
    }
    let id = c.new_army_id(&p.id);
    let army = Army {
        id: id.clone(),
        owner: p.id.clone(),
        hired_by: None,
        province: prov.id.clone(),
        contents,
        stance: Stance::Field,
        march: None,
        came_from: None,
    };
    if army.points() > c.settings.max_army_points {
        return Err(bad(format!(
            "power {}: army {id} is worth {} points; at most {} in one army",
            p.id,
            army.points(),
            c.settings.max_army_points
        )));
    }
    Ok(army)
}

/// A starting army's units: as the file gives them, or proposed from its
/// points (then without the guard unit another of the power's armies has,
/// ruling CA-13: it starts the guard's points short).
fn starting_contents(
    c: &Campaign,
    p: &PowerFile,
    start: &ArmyStart,
) -> Result<ArmyFile, SetupError> {
    let list = &c.powers[&p.id].list;
    let max = c.settings.max_army_points;
    let mut contents = match (&start.units, start.points) {
        (Some(f), _) => {
            check_units(&p.id, list, f, max)?;
            return Ok(f.clone());
        }
        (None, Some(points)) if points > max => {
            return Err(bad(format!(
                "power {}: an army of {points} points; at most {max} in one army",
                p.id
            )))
        }
        (None, Some(points)) => crate::games::hyborian::army::propose(list, points)
            .map_err(|e| bad(format!("power {}: {e}", p.id)))?,
        (None, None) => {
            return Err(bad(format!(
                "power {}: an army needs points or units",
                p.id
            )))
        }
    };
    let has_guard = |a: &Army| a.owner == p.id && !guard_units(&a.contents).is_empty();
    if c.armies.values().any(has_guard) {
        let guards = guard_units(&contents);
        let names = contents.unit_names();
        let keep: Vec<bool> = names.iter().map(|n| !guards.contains(n)).collect();
        let mut k = keep.iter();
        contents.units.retain(|_| *k.next().unwrap_or(&true));
        let first = contents.unit_names().into_iter().next();
        if let Some(cmd) = contents.commander.as_mut() {
            cmd.with = first;
        }
    }
    Ok(contents)
}

impl CampaignFile {
    /// Each power has a player (an address and a password) or a general,
    /// not both, and at least one has a player to read the reports.
    fn check_seats(&self) -> Result<(), SetupError> {
        let bad = |s: String| Err(SetupError::Invalid(s));
        for p in &self.powers {
            match (&p.general, p.address.is_empty(), p.password.is_empty()) {
                (Some(g), false, _) | (Some(g), _, false) => return bad(format!(
                    "power {}: a player ({}) and a general ({g}); keep `address` and `password` for a player, or `general` for the umpire's general",
                    p.id, p.address
                )),
                (None, true, _) | (None, _, true) => return bad(format!(
                    "power {} needs its player's `address` and `password`, or `general = \"aggressive\"` (or \"cautious\") for the umpire's general",
                    p.id
                )),
                _ => {}
            }
        }
        if !self.powers.is_empty() && self.powers.iter().all(|p| p.general.is_some()) {
            return bad("every power is played by a general, and nobody would read the reports: give at least one power a player".into());
        }
        Ok(())
    }
}

/// A starting army's own units file judged against its power's list
/// (Appendix I): its nation, every designation, bands and sizes; heroes and
/// wizards are not counters of this campaign (ruling CA-13).
fn check_units(power: &str, list: &str, f: &ArmyFile, max: u32) -> Result<(), SetupError> {
    if key(&f.nation) != key(list) {
        return Err(bad(format!(
            "power {power}: a starting army of '{}', but the power's list is {list}; write nation = \"{list}\"",
            f.nation
        )));
    }
    if !f.heroes.is_empty() || !f.superheroes.is_empty() || !f.wizards.is_empty() {
        return Err(bad(format!(
            "power {power}: heroes and wizards do not march with campaign armies here (ruling CA-13); take them out of the army's units"
        )));
    }
    let judged = ArmyFile {
        points: max,
        home: true,
        ..f.clone()
    };
    let report = crate::games::hyborian::army::check(&judged)
        .map_err(|e| bad(format!("power {power}: {e}")))?;
    if let Some(b) = report.breaches.first() {
        return Err(bad(format!(
            "power {power}: a starting army breaks its list: {b}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_starts_with_treasuries_and_armies() {
        let file = CampaignFile::load(
            r#"
id = "t"
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
points = 500
"#,
        )
        .unwrap();
        let world = World::hyborea().unwrap();
        let c = file.start(&world).unwrap();
        let army = &c.armies["aquilonia-1"];
        assert!(
            army.points() <= 500 && army.points() > 400,
            "{}",
            army.points()
        );
        assert_eq!(c.powers["aquilonia"].treasury, 3000 - army.points());
        assert_eq!(c.holdings["tarantia"].owner.as_deref(), Some("aquilonia"));
        assert_eq!(c.holdings["belverus"].owner, None, "Nemedia is not played");
        assert_eq!(
            c.capital_of(&world, "aquilonia").as_deref(),
            Some("tarantia")
        );
    }

    #[test]
    fn brythunia_raises_in_its_richest_province_it_holds() {
        let file = CampaignFile::load(
            r#"
id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[[power]]
id = "brythunia"
nation = "brythunia"
address = "b@x"
password = "p"
"#,
        )
        .unwrap();
        let world = World::hyborea().unwrap();
        let mut c = file.start(&world).unwrap();
        assert_eq!(c.capital_of(&world, "brythunia"), None, "no capital");
        assert_eq!(
            c.raising_place(&world, "brythunia").as_deref(),
            Some("pirogia")
        );
        c.holdings.get_mut("pirogia").unwrap().occupier = Some("nemedia".into());
        let next = c.raising_place(&world, "brythunia").unwrap();
        assert_ne!(next, "pirogia");
        assert_eq!(
            world.province(&next).unwrap().nation.as_deref(),
            Some("brythunia")
        );
    }
}
