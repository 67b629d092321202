//! A pack as written, and its check: every missing or contradictory entry
//! is one error that names its line ("line 12: melee.loss[1]: …"), found
//! through the spans of the parsed TOML, each number bounded. Fields are
//! read as optional so that every missing one is reported at once, not
//! only the first; a part left out whole is the game master's.

use super::{
    Band, CharacterLoss, Characters, Clock, Demoralization, Fire, FireLine, MarginLoss, Melee,
    Movement, Pack, Reading, TerrainRule, Tests, Troop,
};
use crate::games::fr_ancients::abilities::Ability;
use crate::games::fr_ancients::grades::Triple;
use crate::games::fr_ancients::troops::TroopType;
use crate::games::fr_ancients::weapons::{Scale, Weapon};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use toml::de::{DeTable, DeValue};

/// The largest distance a pack may give (inches or cm): a whole table.
const MAX_DISTANCE: f64 = 500.0;
/// The largest CF, value, bonus, mark or cover a pack may give, either sign.
const MAX_VALUE: i32 = 50;
/// The largest cost of one unit.
const MAX_COST: i32 = 10_000;
/// The most DMZs one result may give (a unit has at most a few levels).
const MAX_DMZ: u8 = 5;
/// The most a unit of distance in terrain may cost.
const MAX_TERRAIN_COST: f64 = 10.0;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PackFile {
    name: Option<String>,
    #[serde(default)]
    stand_in: bool,
    scale: Option<String>,
    tests: Option<TestsFile>,
    fire: Option<FireFile>,
    melee: Option<MeleeFile>,
    demoralization: Option<DemoralizationFile>,
    movement: Option<MovementFile>,
    clock: Option<ClockFile>,
    characters: Option<CharactersFile>,
    #[serde(default)]
    terrain: Vec<TerrainFile>,
    #[serde(default)]
    troop: Vec<TroopFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TestsFile {
    pass_at: Option<i32>,
    escape_at: Option<i32>,
    fear_fail_dmz: Option<u8>,
    #[serde(default)]
    pass_at_for: BTreeMap<String, i32>,
    #[serde(default)]
    fear_fail: Vec<BandFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BandFile {
    margin: Option<i32>,
    dmz: Option<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FireFile {
    arc: Option<f64>,
    cover: Option<i32>,
    #[serde(default)]
    read: Option<String>,
    #[serde(default)]
    damage_dmz_at: Vec<i32>,
    #[serde(default)]
    line: Vec<FireLineFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FireLineFile {
    units: Option<u32>,
    dmz_at: Option<Vec<i32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MeleeFile {
    loss_dmz: Option<u8>,
    overlap: Option<[i32; 2]>,
    support: Option<i32>,
    #[serde(default)]
    loss: Vec<LossFile>,
    wrap_at: Option<i32>,
    follow_up_at: Option<i32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LossFile {
    margin: Option<i32>,
    loser: Option<u8>,
    #[serde(default)]
    winner: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DemoralizationFile {
    destroyed_at: Option<u8>,
    retreat_depths: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MovementFile {
    arc: Option<f64>,
    facing_change: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockFile {
    start: Option<i32>,
    ends_at: Option<i32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CharactersFile {
    unit_destroyed: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    kind: Option<String>,
    cover: Option<i32>,
    cost: Option<f64>,
    #[serde(default)]
    cost_for: BTreeMap<String, f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TroopFile {
    #[serde(rename = "type")]
    troop: Option<String>,
    cf: Option<i32>,
    values: Option<[i32; 3]>,
    charge_bonus: Option<i32>,
    #[serde(rename = "move")]
    movement: Option<[f64; 2]>,
    #[serde(default)]
    shots: u32,
    cost: Option<i32>,
    base: Option<[f64; 2]>,
    #[serde(default)]
    options: Vec<String>,
}

/// The line (from 1) of a byte offset.
fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Collects errors, each with the line of the entry it is about.
struct Checker<'t> {
    text: &'t str,
    root: Option<DeTable<'t>>,
    errors: Vec<String>,
}

impl<'t> Checker<'t> {
    fn new(text: &'t str) -> Checker<'t> {
        Checker {
            text,
            root: DeTable::parse(text).ok().map(toml::Spanned::into_inner),
            errors: Vec::new(),
        }
    }

    /// The line of the entry at `path` (keys, and array indexes as
    /// numbers), or of the nearest entry above it that exists.
    fn line(&self, path: &str) -> Option<usize> {
        let root = self.root.as_ref()?;
        let mut span = None;
        let mut here: Option<&DeValue> = None;
        for seg in path.split(['.', '[', ']']).filter(|s| !s.is_empty()) {
            let next = match (here, seg.parse::<usize>()) {
                (None, _) => root
                    .iter()
                    .find(|(k, _)| k.get_ref().as_ref() == seg)
                    .map(|(k, v)| (k.span(), v)),
                (Some(DeValue::Array(a)), Ok(i)) => a.get(i).map(|v| (v.span(), v)),
                (Some(DeValue::Table(t)), _) => t
                    .iter()
                    .find(|(k, _)| k.get_ref().as_ref() == seg)
                    .map(|(k, v)| (k.span(), v)),
                _ => None,
            };
            let Some((s, v)) = next else { break };
            span = Some(s);
            here = Some(v.get_ref());
        }
        span.map(|s| line_at(self.text, s.start))
    }

    /// An error about the entry at `path`.
    fn at(&mut self, path: &str, message: impl std::fmt::Display) {
        let line = self
            .line(path)
            .map(|l| format!("line {l}: "))
            .unwrap_or_default();
        self.errors.push(format!("{line}{path}: {message}"));
    }

    /// A required entry: its value, or an error that it is missing.
    fn need<T>(&mut self, path: &str, v: Option<T>, example: &str) -> Option<T> {
        if v.is_none() {
            self.at(path, format!("missing: write e.g. `{example}`"));
        }
        v
    }

    fn value(&mut self, path: &str, v: Option<i32>, example: &str) -> Option<i32> {
        let v = self.need(path, v, example)?;
        if v.abs() > MAX_VALUE {
            self.at(path, format!("{v}: keep it within ±{MAX_VALUE}"));
        }
        Some(v)
    }

    fn distance(&mut self, path: &str, v: Option<f64>, example: &str) -> Option<f64> {
        let v = self.need(path, v, example)?;
        if !(0.0..=MAX_DISTANCE).contains(&v) {
            self.at(path, format!("{v}: a distance from 0 to {MAX_DISTANCE}"));
        }
        Some(v)
    }

    fn arc(&mut self, path: &str, v: Option<f64>) -> Option<f64> {
        let v = self.need(path, v, "arc = 45.0")?;
        if !(0.0..=180.0).contains(&v) {
            self.at(path, format!("{v}: degrees from straight ahead, 0 to 180"));
        }
        Some(v)
    }

    fn dmz(&mut self, path: &str, v: Option<u8>, example: &str) -> Option<u8> {
        let v = self.need(path, v, example)?;
        if v > MAX_DMZ {
            self.at(path, format!("{v}: at most {MAX_DMZ} DMZs"));
        }
        Some(v)
    }

    /// A list of thresholds that must rise.
    fn rising(&mut self, path: &str, v: &[i32], example: &str) {
        if v.is_empty() || v.windows(2).any(|w| w[0] >= w[1]) {
            self.at(path, format!("must rise, e.g. {example}"));
        }
        if v.iter().any(|x| x.abs() > MAX_VALUE) {
            self.at(path, format!("keep each within ±{MAX_VALUE}"));
        }
    }
}

/// Read and check a pack's text.
pub(super) fn read(text: &str) -> Result<Pack, Vec<String>> {
    let raw: PackFile = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| format!("line {}: ", line_at(text, s.start)))
            .unwrap_or_default();
        vec![format!("{line}not a pack: {}", e.message().trim())]
    })?;
    let mut c = Checker::new(text);
    let name = c.need("name", raw.name, "name = \"Our club's tables\"");
    let scale = c
        .need("scale", raw.scale, "scale = \"inches\"")
        .and_then(|s| {
            let parsed = Scale::parse(&s);
            if parsed.is_none() {
                c.at(
                    "scale",
                    format!("'{s}': write \"inches\" or \"centimetres\""),
                );
            }
            parsed
        });
    let tests = raw.tests.and_then(|t| tests(&mut c, t));
    let fire = raw.fire.and_then(|f| fire(&mut c, f));
    let melee = raw.melee.and_then(|m| melee(&mut c, m));
    let demoralization = raw.demoralization.and_then(|d| demoralization(&mut c, d));
    let movement = raw.movement.and_then(|m| movement(&mut c, m));
    let clock = raw.clock.and_then(|k| clock(&mut c, k));
    let characters = raw.characters.and_then(|k| characters(&mut c, k));
    let terrain = terrain(&mut c, raw.terrain);
    let troops = troops(&mut c, raw.troop);
    let (Some(name), Some(scale)) = (name, scale) else {
        return Err(c.errors);
    };
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    Ok(Pack {
        name,
        stand_in: raw.stand_in,
        hash: hex::encode(Sha256::digest(text.as_bytes())),
        scale,
        tests,
        fire,
        melee,
        demoralization,
        movement,
        clock,
        characters,
        terrain,
        troops,
    })
}

/// The test words a pass mark may be given for (the keys' words).
const TEST_WORDS: [&str; 10] = [
    "rally",
    "impetuous",
    "pursuit",
    "retarget",
    "balk",
    "countercharge",
    "scythed",
    "open-ranks",
    "wheel",
    "fear",
];

fn tests(c: &mut Checker, t: TestsFile) -> Option<Tests> {
    let pass_at = c.value("tests.pass_at", t.pass_at, "pass_at = 11");
    let escape_at = c.value("tests.escape_at", t.escape_at, "escape_at = 6");
    let fear_fail_dmz = c.dmz("tests.fear_fail_dmz", t.fear_fail_dmz, "fear_fail_dmz = 1");
    for (word, mark) in &t.pass_at_for {
        let at = format!("tests.pass_at_for.{word}");
        if !TEST_WORDS.contains(&word.as_str()) {
            c.at(
                &at,
                format!("no test '{word}': one of {}", TEST_WORDS.join(", ")),
            );
        }
        c.value(&at, Some(*mark), "rally = 10");
    }
    let fear_fail = bands(c, "tests.fear_fail", t.fear_fail);
    Some(Tests {
        pass_at: pass_at?,
        escape_at: escape_at?,
        fear_fail_dmz: fear_fail_dmz?,
        pass_at_for: t.pass_at_for,
        fear_fail: fear_fail?,
    })
}

/// Bands by margin: margins rising from 1, DMZs never falling.
fn bands(c: &mut Checker, path: &str, raw: Vec<BandFile>) -> Option<Vec<Band>> {
    let mut out = Vec::new();
    for (i, b) in raw.into_iter().enumerate() {
        let at = format!("{path}[{i}]");
        let margin = c.value(&format!("{at}.margin"), b.margin, "margin = 1");
        let dmz = c.dmz(&format!("{at}.dmz"), b.dmz, "dmz = 1");
        if let (Some(margin), Some(dmz)) = (margin, dmz) {
            if let Some(last) = out.last().copied() {
                contradiction_of_bands(c, &at, last, margin, dmz);
            } else if margin < 1 {
                c.at(
                    &at,
                    "the first band's margin is at least 1 (a margin of 0 is no failure)",
                );
            }
            out.push(Band { margin, dmz });
        }
    }
    Some(out)
}

fn contradiction_of_bands(c: &mut Checker, at: &str, last: Band, margin: i32, dmz: u8) {
    if margin <= last.margin {
        c.at(
            at,
            format!(
                "margin {margin} after margin {}: bands must rise",
                last.margin
            ),
        );
    }
    if dmz < last.dmz {
        c.at(
            at,
            format!(
                "{dmz} DMZs at a greater margin than {}'s {}: a worse result may not cost less",
                last.margin, last.dmz
            ),
        );
    }
}

fn fire(c: &mut Checker, f: FireFile) -> Option<Fire> {
    let arc = c.arc("fire.arc", f.arc);
    let cover = c.value("fire.cover", f.cover, "cover = -2");
    let read = match f.read.as_deref() {
        None | Some("roll") => Some(Reading::Roll),
        Some("margin") => Some(Reading::Margin),
        Some(other) => {
            c.at(
                "fire.read",
                format!("'{other}': write \"roll\" or \"margin\""),
            );
            None
        }
    };
    if !f.damage_dmz_at.is_empty() {
        c.rising("fire.damage_dmz_at", &f.damage_dmz_at, "[6, 10]");
    }
    let mut lines = Vec::new();
    for (i, l) in f.line.into_iter().enumerate() {
        let at = format!("fire.line[{i}]");
        let units = c.need(&format!("{at}.units"), l.units, "units = 1");
        let dmz_at = c.need(&format!("{at}.dmz_at"), l.dmz_at, "dmz_at = [8, 11]");
        if let Some(d) = &dmz_at {
            c.rising(&format!("{at}.dmz_at"), d, "[8, 11]");
        }
        if let (Some(units), Some(dmz_at)) = (units, dmz_at) {
            if lines.iter().any(|l: &FireLine| l.units == units) {
                c.at(&at, format!("a second line for {units} units"));
            }
            lines.push(FireLine { units, dmz_at });
        }
    }
    lines.sort_by_key(|l| l.units);
    if lines.first().is_none_or(|l| l.units != 1) {
        c.at(
            "fire",
            "the Bowfire table needs a line for 1 unit: [[fire.line]] units = 1, dmz_at = [8, 11]",
        );
    }
    Some(Fire {
        arc: arc?,
        cover: cover?,
        read: read?,
        lines,
        damage_dmz_at: f.damage_dmz_at,
    })
}

fn melee(c: &mut Checker, m: MeleeFile) -> Option<Melee> {
    let overlap = c.need("melee.overlap", m.overlap, "overlap = [1, 2]");
    for (i, v) in overlap.iter().flatten().enumerate() {
        c.value(&format!("melee.overlap[{i}]"), Some(*v), "overlap = [1, 2]");
    }
    let support = c.value("melee.support", m.support, "support = 1");
    let losses = if m.loss.is_empty() {
        let dmz = c.dmz(
            "melee.loss_dmz",
            m.loss_dmz,
            "loss_dmz = 1 (or a [[melee.loss]] table)",
        )?;
        vec![MarginLoss {
            margin: 1,
            loser: dmz,
            winner: 0,
        }]
    } else {
        if m.loss_dmz.is_some() {
            c.at(
                "melee.loss_dmz",
                "give the losses either as loss_dmz or as a [[melee.loss]] table, not both",
            );
        }
        losses(c, m.loss)?
    };
    for (key, at, never) in [
        ("melee.wrap_at", m.wrap_at, "never"),
        ("melee.follow_up_at", m.follow_up_at, "only impetuous units"),
    ] {
        if let Some(w) = at.filter(|w| !(1..=MAX_VALUE).contains(w)) {
            c.at(
                key,
                format!("{w}: a margin of 1 to {MAX_VALUE} (leave it out for {never})"),
            );
        }
    }
    Some(Melee {
        overlap: overlap?,
        support: support?,
        losses,
        wrap_at: m.wrap_at,
        follow_up_at: m.follow_up_at,
    })
}

/// The margin table: margins rising from 1 (a margin of 0 is a draw), the
/// loser's DMZs never falling.
fn losses(c: &mut Checker, raw: Vec<LossFile>) -> Option<Vec<MarginLoss>> {
    let mut out: Vec<MarginLoss> = Vec::new();
    for (i, l) in raw.into_iter().enumerate() {
        let at = format!("melee.loss[{i}]");
        let margin = c.value(&format!("{at}.margin"), l.margin, "margin = 1");
        let loser = c.dmz(&format!("{at}.loser"), l.loser, "loser = 1");
        if l.winner > MAX_DMZ {
            c.at(
                &format!("{at}.winner"),
                format!("{}: at most {MAX_DMZ} DMZs", l.winner),
            );
        }
        let (Some(margin), Some(loser)) = (margin, loser) else {
            continue;
        };
        match out.last() {
            None if margin != 1 => c.at(
                &at,
                format!("the first line is for a margin of 1 (any win), not {margin}"),
            ),
            Some(last) => contradiction_of_bands(
                c,
                &at,
                Band {
                    margin: last.margin,
                    dmz: last.loser,
                },
                margin,
                loser,
            ),
            None => {}
        }
        out.push(MarginLoss {
            margin,
            loser,
            winner: l.winner,
        });
    }
    Some(out)
}

fn demoralization(c: &mut Checker, d: DemoralizationFile) -> Option<Demoralization> {
    let destroyed_at = c.need(
        "demoralization.destroyed_at",
        d.destroyed_at,
        "destroyed_at = 3",
    );
    if destroyed_at.is_some_and(|d| !(3..=10).contains(&d)) {
        c.at(
            "demoralization.destroyed_at",
            "3 to 10 (two levels are the sheet's double demoralization)",
        );
    }
    let retreat = c.need(
        "demoralization.retreat_depths",
        d.retreat_depths,
        "retreat_depths = 1.0",
    );
    if retreat.is_some_and(|r| !(0.0..=10.0).contains(&r)) {
        c.at("demoralization.retreat_depths", "0 to 10 depths");
    }
    Some(Demoralization {
        destroyed_at: destroyed_at?,
        retreat_depths: retreat?,
    })
}

fn movement(c: &mut Checker, m: MovementFile) -> Option<Movement> {
    let arc = c.arc("movement.arc", m.arc);
    let facing = c.distance(
        "movement.facing_change",
        m.facing_change,
        "facing_change = 1.0",
    );
    Some(Movement {
        arc: arc?,
        facing_change: facing?,
    })
}

fn clock(c: &mut Checker, k: ClockFile) -> Option<Clock> {
    let start = c.value("clock.start", k.start, "start = 10");
    let ends_at = c.value("clock.ends_at", k.ends_at, "ends_at = 0");
    if let (Some(s), Some(e)) = (start, ends_at) {
        if e >= s {
            c.at(
                "clock.ends_at",
                format!("{e} is not below the start {s}: the battle would be over before it began"),
            );
        }
    }
    Some(Clock {
        start: start?,
        ends_at: ends_at?,
    })
}

fn characters(c: &mut Checker, k: CharactersFile) -> Option<Characters> {
    let loss = match c
        .need(
            "characters.unit_destroyed",
            k.unit_destroyed,
            "unit_destroyed = \"captured\"",
        )?
        .as_str()
    {
        "killed" => CharacterLoss::Killed,
        "captured" => CharacterLoss::Captured,
        other => {
            c.at(
                "characters.unit_destroyed",
                format!("'{other}': write \"killed\" or \"captured\""),
            );
            return None;
        }
    };
    Some(Characters {
        unit_destroyed: loss,
    })
}

fn troop_type(c: &mut Checker, at: &str, name: &str) -> Option<TroopType> {
    let kind = TroopType::parse(name);
    if kind.is_none() {
        let hint = TroopType::suggest(name)
            .map(|s| format!(" (did you mean '{s}'?)"))
            .unwrap_or_default();
        c.at(
            at,
            format!("troop type '{name}' is not one the sheet names{hint}"),
        );
    }
    kind
}

fn terrain(c: &mut Checker, raw: Vec<TerrainFile>) -> BTreeMap<String, TerrainRule> {
    let mut out = BTreeMap::new();
    for (i, t) in raw.into_iter().enumerate() {
        let at = format!("terrain[{i}]");
        let kind = c.need(&format!("{at}.kind"), t.kind, "kind = \"woods\"");
        let cover = c.value(&format!("{at}.cover"), t.cover, "cover = -2");
        let mut cost_for = BTreeMap::new();
        for (name, v) in &t.cost_for {
            let here = format!("{at}.cost_for");
            if let Some(k) = troop_type(c, &here, name) {
                cost_for.insert(k, *v);
            }
        }
        for v in t.cost.iter().chain(t.cost_for.values()) {
            if !(1.0..=MAX_TERRAIN_COST).contains(v) {
                c.at(
                    &format!("{at}.cost"),
                    format!("{v}: a unit of distance costs 1 (as the open) to {MAX_TERRAIN_COST}"),
                );
            }
        }
        let (Some(kind), Some(cover)) = (kind, cover) else {
            continue;
        };
        let rule = TerrainRule {
            cover,
            cost: t.cost,
            cost_for,
        };
        if out.insert(crate::names::key(&kind), rule).is_some() {
            c.at(&at, format!("terrain kind '{kind}' is given twice"));
        }
    }
    out
}

fn troops(c: &mut Checker, raw: Vec<TroopFile>) -> BTreeMap<TroopType, Troop> {
    let mut out = BTreeMap::new();
    for (i, t) in raw.into_iter().enumerate() {
        let at = format!("troop[{i}]");
        let Some(name) = c.need(&format!("{at}.type"), t.troop.clone(), "type = \"Spears\"") else {
            continue;
        };
        let Some(kind) = troop_type(c, &format!("{at}.type"), &name) else {
            continue;
        };
        let Some(troop) = troop(c, &at, t) else {
            continue;
        };
        if out.insert(kind, troop).is_some() {
            c.at(&at, format!("troop type '{}' is given twice", kind.name()));
        }
    }
    out
}

fn troop(c: &mut Checker, at: &str, t: TroopFile) -> Option<Troop> {
    let cf = c.value(&format!("{at}.cf"), t.cf, "cf = 3");
    let values = c.need(&format!("{at}.values"), t.values, "values = [4, 4, 0]");
    for v in values.iter().flatten() {
        c.value(&format!("{at}.values"), Some(*v), "values = [4, 4, 0]");
    }
    let charge = c.value(
        &format!("{at}.charge_bonus"),
        t.charge_bonus,
        "charge_bonus = 1",
    );
    let movement = c.need(&format!("{at}.move"), t.movement, "move = [5.0, 3.0]");
    for d in movement.iter().flatten() {
        c.distance(&format!("{at}.move"), Some(*d), "move = [5.0, 3.0]");
    }
    let cost = c.need(&format!("{at}.cost"), t.cost, "cost = 30");
    if cost.is_some_and(|v| !(0..=MAX_COST).contains(&v)) {
        c.at(&format!("{at}.cost"), format!("0 to {MAX_COST}"));
    }
    let base = c.need(&format!("{at}.base"), t.base, "base = [1.5, 0.75]");
    if base.is_some_and(|b| b.iter().any(|d| *d <= 0.0 || *d > MAX_DISTANCE)) {
        c.at(
            &format!("{at}.base"),
            "a base needs a width and a depth above 0",
        );
    }
    if t.shots > 10 {
        c.at(&format!("{at}.shots"), format!("{}: at most 10", t.shots));
    }
    let mut missiles = Vec::new();
    let mut abilities = Vec::new();
    for o in &t.options {
        if let Some(w) = Weapon::parse(o) {
            missiles.push(w);
        } else if let Some(a) = Ability::parse(o) {
            abilities.push(a);
        } else {
            c.at(
                &format!("{at}.options"),
                format!("'{o}' is neither a weapon nor an ability of the sheet"),
            );
        }
    }
    Some(Troop {
        cf: cf?,
        values: Triple::new(values?),
        charge_bonus: charge?,
        movement: movement?,
        shots: t.shots,
        cost: cost?,
        base: base?,
        optional_missiles: missiles,
        optional_abilities: abilities,
    })
}

#[cfg(test)]
mod tests {
    use super::super::STAND_IN;
    use super::*;

    fn errors(text: &str) -> Vec<String> {
        read(text).unwrap_err()
    }

    fn line_of(needle: &str, text: &str) -> usize {
        text.lines().position(|l| l.contains(needle)).unwrap() + 1
    }

    #[test]
    fn a_misspelt_type_and_a_wild_number_name_their_lines() {
        let bad = STAND_IN
            .replace("type = \"Camelry\"", "type = \"Camlery\"")
            .replace("pass_at = 11", "pass_at = 900");
        let e = errors(&bad);
        assert_eq!(e.len(), 2, "{e:?}");
        let camel = line_of("Camlery", &bad);
        assert!(
            e.iter()
                .any(|e| e.starts_with(&format!("line {camel}: troop["))
                    && e.contains("did you mean 'Camelry'")),
            "{e:?}"
        );
        let pass = line_of("pass_at = 900", &bad);
        assert!(
            e.contains(&format!(
                "line {pass}: tests.pass_at: 900: keep it within ±50"
            )),
            "{e:?}"
        );
    }

    #[test]
    fn every_missing_entry_is_reported_at_once() {
        let bad = STAND_IN
            .replace("escape_at = 6\n", "")
            .replace("support = 1\n", "")
            .replace("cost = 45\n", "");
        let e = errors(&bad);
        assert_eq!(e.len(), 4, "two troop lines cost 45: {e:?}");
        let tests = line_of("[tests]", &bad);
        assert!(
            e.contains(&format!(
                "line {tests}: tests.escape_at: missing: write e.g. `escape_at = 6`"
            )),
            "the section's line, where the entry belongs: {e:?}"
        );
        assert!(
            e.iter().any(|e| e.contains("melee.support: missing")),
            "{e:?}"
        );
        assert_eq!(
            e.iter().filter(|e| e.contains(".cost: missing")).count(),
            2,
            "{e:?}"
        );
    }

    #[test]
    fn contradictions_are_refused_with_their_lines() {
        let bad = STAND_IN
            .replace("loss_dmz = 1\n", "wrap_at = 0\nfollow_up_at = 100\n")
            .replace(
                "support = 1\n",
                "support = 1\n[[melee.loss]]\nmargin = 1\nloser = 2\n[[melee.loss]]\nmargin = 1\nloser = 1\n",
            )
            .replace("ends_at = 0", "ends_at = 12")
            .replace("dmz_at = [7, 10]", "dmz_at = [10, 7]")
            .replace("kind = \"rough\"", "kind = \"woods\"");
        let e = errors(&bad);
        assert!(
            e.iter()
                .any(|e| e.contains("melee.wrap_at: 0: a margin of 1")),
            "{e:?}"
        );
        assert!(
            e.iter().any(|e| e.contains(
                "melee.follow_up_at: 100: a margin of 1 to 50 (leave it out for only impetuous units)"
            )),
            "{e:?}"
        );
        assert!(
            e.iter()
                .any(|e| e.contains("melee.loss[1]: margin 1 after margin 1")),
            "{e:?}"
        );
        assert!(
            e.iter()
                .any(|e| e.contains("a worse result may not cost less")),
            "{e:?}"
        );
        let ends = line_of("ends_at = 12", &bad);
        assert!(
            e.iter()
                .any(|e| e.starts_with(&format!("line {ends}: clock.ends_at: 12 is not below"))),
            "{e:?}"
        );
        let rising = line_of("dmz_at = [10, 7]", &bad);
        assert!(
            e.contains(&format!(
                "line {rising}: fire.line[1].dmz_at: must rise, e.g. [8, 11]"
            )),
            "{e:?}"
        );
        assert!(
            e.iter()
                .any(|e| e.contains("terrain kind 'woods' is given twice")),
            "{e:?}"
        );
        assert!(e.iter().all(|e| e.starts_with("line ")), "{e:?}");
    }

    #[test]
    fn unreadable_text_names_its_line() {
        let bad = STAND_IN.replace("cf = 4\n", "cf = \"four\"\n");
        let e = errors(&bad);
        let line = line_of("cf = \"four\"", &bad);
        assert_eq!(e.len(), 1);
        assert!(
            e[0].starts_with(&format!("line {line}: not a pack:")),
            "{e:?}"
        );
        assert!(errors("name = 1")[0].contains("not a pack"));
        assert_eq!(
            errors("stand_in = false\n"),
            vec![
                "name: missing: write e.g. `name = \"Our club's tables\"`".to_string(),
                "scale: missing: write e.g. `scale = \"inches\"`".to_string()
            ]
        );
    }

    #[test]
    fn terrain_costs_by_troop_type() {
        let text = STAND_IN.replace(
            "kind = \"woods\"\ncover = -2",
            "kind = \"woods\"\ncover = -2\ncost = 2.0\ncost_for = { \"Heavy Cavalry\" = 3.0 }",
        );
        let p = read(&text).unwrap();
        assert_eq!(p.terrain_cost("Woods", TroopType::HeavyCavalry), Some(3.0));
        assert_eq!(p.terrain_cost("woods", TroopType::Spears), Some(2.0));
        assert_eq!(p.terrain_cost("rough", TroopType::Spears), None);
        let bad = text.replace("\"Heavy Cavalry\" = 3.0", "\"Heavy Cavalary\" = 0.5");
        let e = errors(&bad);
        assert!(
            e.iter().any(|e| e.contains("did you mean 'Heavy Cavalry'")),
            "{e:?}"
        );
        assert!(
            e.iter()
                .any(|e| e.contains("0.5: a unit of distance costs 1")),
            "{e:?}"
        );
    }
}
