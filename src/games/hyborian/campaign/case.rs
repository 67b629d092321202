//! Campaign-week cases (`docs/cases-campaign.md`): a campaign file, each
//! week's orders and the secretary's commands, and what must come of them
//! — the campaign layer's counterpart of the battle cases. The runner goes
//! the post office's way through [`CampaignRules`]: every power's letter
//! read and checked as its confirmation would be, the week resolved with
//! its seed, the reports written for every reader; so a case checks the
//! words and the fog players meet as well as the map.
//!
//! ```
//! # use umpire::case::CaseOutcome;
//! let text = r#"
//! layer = "campaign"
//! title = "A march into the hills takes a week"
//! campaign = """
//! id = "t"
//! title = "T"
//! [secretary]
//! address = "s@x"
//! password = "p"
//! [[power]]
//! id = "nemedia"
//! nation = "nemedia"
//! address = "n@x"
//! password = "p"
//! [[power.army]]
//! province = "belverus"
//! points = 400
//! """
//! [[week]]
//! orders.nemedia = "army nemedia-1 move to Nemedian Marches"
//! [week.expect.army.nemedia-1]
//! province = "nemedian-marches"
//! "#;
//! assert_eq!(umpire::games::run_case(text), CaseOutcome::Pass);
//! ```

use super::desk::HyboreanCampaign;
use super::game::{Campaign, CampaignFile};
use crate::games::campaign::{CampaignRules, Command, Line, SetUp, Week};
use crate::games::CaseOutcome;
use crate::games::Json;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Whether a case file's text is a campaign-week case.
pub fn is_campaign_case(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.get("layer").and_then(|l| l.as_str()) == Some("campaign"))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    // Read so that a misspelt key is refused; the runner does not use them.
    #[serde(rename = "layer")]
    _layer: String,
    #[serde(default, rename = "ruleset")]
    _ruleset: Option<String>,
    #[serde(rename = "title")]
    _title: String,
    #[serde(default, rename = "rule")]
    _rule: Option<String>,
    /// The weeks' dice: week k's seed is the SHA-256 of "SEED:k".
    #[serde(default)]
    seed: u64,
    /// The campaign file, as `umpire campaign new` takes it.
    campaign: String,
    #[serde(default)]
    week: Vec<CaseWeek>,
}

/// One map turn: the letters, then the week resolved.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseWeek {
    /// Each power's orders as written between the header and END.
    #[serde(default)]
    orders: BTreeMap<String, String>,
    /// The secretary's commands of the rules (a battle's result, how it is
    /// fought), carried out in order before the week is resolved.
    #[serde(default)]
    secretary: String,
    #[serde(default)]
    expect: Expect,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// Every line the confirmations refuse; the other lines are accepted.
    refused: Option<Vec<Refused>>,
    /// Lines the secretary's report of the week holds.
    #[serde(default)]
    events: Vec<String>,
    /// Words it must not hold.
    #[serde(default)]
    no_events: Vec<String>,
    #[serde(default)]
    army: BTreeMap<String, ArmyExpect>,
    #[serde(default)]
    province: BTreeMap<String, ProvinceExpect>,
    /// What a power's own report holds and lacks (the fog).
    #[serde(default)]
    report: BTreeMap<String, ReportExpect>,
    #[serde(default)]
    treasury: BTreeMap<String, u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Refused {
    power: String,
    /// The line among the power's orders, from 1.
    line: usize,
    /// Words the reason holds.
    #[serde(default)]
    says: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmyExpect {
    province: Option<String>,
    /// Figures by designation ("Royal Cavalry" = 12): each named one.
    #[serde(default)]
    figures: BTreeMap<String, u32>,
    /// `true`: the army no longer exists.
    gone: Option<bool>,
    hired_by: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProvinceExpect {
    owner: Option<String>,
    occupier: Option<String>,
    pacified: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportExpect {
    #[serde(default)]
    has: Vec<String>,
    #[serde(default)]
    lacks: Vec<String>,
}

/// Run the text of one campaign-week case.
pub fn run_text(text: &str) -> CaseOutcome {
    let case: Case = match toml::from_str(text) {
        Ok(c) => c,
        Err(e) => return CaseOutcome::Error(format!("not a campaign case: {e}")),
    };
    match case.run() {
        Ok(fails) if fails.is_empty() => CaseOutcome::Pass,
        Ok(fails) => CaseOutcome::Fail(fails),
        Err(e) => CaseOutcome::Error(e),
    }
}

impl Case {
    fn run(&self) -> Result<Vec<String>, String> {
        let file = CampaignFile::load(&self.campaign).map_err(|e| format!("campaign: {e}"))?;
        let mut state = file.opening()?.state;
        let mut fails = Vec::new();
        for (k, week) in self.week.iter().enumerate() {
            let at = |f: String| format!("week {}: {f}", k + 1);
            let (after, found) = week.play(&state, &file.id, self.seed)?;
            fails.extend(found.into_iter().map(at));
            state = after;
        }
        Ok(fails)
    }
}

impl CaseWeek {
    /// Play the week from `state`: the state after it and every
    /// expectation that did not hold.
    fn play(&self, state: &str, id: &str, seed: u64) -> Result<(String, Vec<String>), String> {
        let rules = HyboreanCampaign;
        let (state, results) = self.secretary_commands(state, id)?;
        let mut orders = BTreeMap::new();
        let mut refused = Vec::new();
        for (power, text) in &self.orders {
            let letter = rules.read(&format!(
                "CAMPAIGN {id} POWER {power} PASSWORD case\n{text}\nEND\n"
            ));
            if let Some(e) = letter.errors.first() {
                return Err(format!(
                    "{power}'s orders, line {}: {}",
                    e.number - 1,
                    e.item
                ));
            }
            let verdicts = rules
                .check(&state, power, &letter.orders)
                .map_err(|e| e.to_string())?;
            for (line, why) in letter.orders.iter().zip(verdicts) {
                if let Some(why) = why {
                    refused.push((power.clone(), line.number - 1, why));
                }
            }
            orders.insert(power.clone(), letter.orders);
        }
        let c = campaign(&state)?;
        let r = rules
            .resolve(&state, &orders, &results, week_seed(seed, c.turn + 1))
            .map_err(|e| e.to_string())?;
        let week = Week {
            played: &c.date(),
            events: Some(&r.events),
            orders: &orders,
            dice: None,
            intro: "",
        };
        let report = |reader: Option<&str>| {
            rules
                .report(&r.state, reader, &week, None)
                .map(|(text, _)| text)
                .map_err(|e| e.to_string())
        };
        let mut fails = self.expect.refusals(&refused);
        let e = &self.expect;
        fails.extend(words(
            &report(None)?,
            "the secretary's report",
            &e.events,
            &e.no_events,
        ));
        for (power, want) in &self.expect.report {
            let whose = format!("{power}'s report");
            fails.extend(words(&report(Some(power))?, &whose, &want.has, &want.lacks));
        }
        fails.extend(self.expect.map(&campaign(&r.state)?));
        Ok((r.state, fails))
    }

    /// The secretary's rules commands carried out in order: the state they
    /// leave and the battle results they enter.
    fn secretary_commands(&self, state: &str, id: &str) -> Result<(String, Vec<Json>), String> {
        let mut state = state.to_string();
        let mut results = Vec::new();
        if self.secretary.trim().is_empty() {
            return Ok((state, results));
        }
        let rules = HyboreanCampaign;
        let letter = rules.read(&format!(
            "CAMPAIGN {id} SECRETARY PASSWORD case\n{}\nEND\n",
            self.secretary
        ));
        if let Some(e) = letter.errors.first() {
            return Err(format!("secretary, line {}: {}", e.number - 1, e.item));
        }
        for Line { text, item, .. } in &letter.commands {
            let Command::Rules(command) = item else {
                return Err(format!(
                    "secretary: '{text}' is the post office's command, not the rules'"
                ));
            };
            let ruling = rules
                .secretary(&state, command, text)
                .map_err(|e| e.to_string())?;
            if let Some(s) = ruling.state {
                state = s;
            }
            if let Some((_, entered)) = ruling.result {
                results.push(serde_json::from_str(&entered).map_err(|e| e.to_string())?);
            }
        }
        Ok((state, results))
    }
}

impl Expect {
    fn refusals(&self, got: &[(String, usize, String)]) -> Vec<String> {
        let Some(want) = &self.refused else {
            return Vec::new();
        };
        let mut fails = Vec::new();
        for w in want {
            match got.iter().find(|(p, l, _)| *p == w.power && *l == w.line) {
                None => fails.push(format!(
                    "{}'s line {} should be refused, and is accepted",
                    w.power, w.line
                )),
                Some((_, _, why)) if !why.contains(&w.says) => {
                    fails.push(format!(
                        "{}'s line {} is refused with '{why}', not saying '{}'",
                        w.power, w.line, w.says
                    ));
                }
                Some(_) => {}
            }
        }
        for (p, l, why) in got {
            if !want.iter().any(|w| w.power == *p && w.line == *l) {
                fails.push(format!(
                    "{p}'s line {l} should be accepted, and is refused: {why}"
                ));
            }
        }
        fails
    }

    fn map(&self, c: &Campaign) -> Vec<String> {
        let mut fails = Vec::new();
        for (id, want) in &self.army {
            fails.extend(want.check(id, c));
        }
        for (id, want) in &self.province {
            fails.extend(want.check(id, c));
        }
        for (power, want) in &self.treasury {
            let got = c.powers.get(power).map(|p| p.treasury);
            if got != Some(*want) {
                fails.push(format!("{power}'s treasury expected {want}, got {got:?}"));
            }
        }
        fails
    }
}

impl ArmyExpect {
    fn check(&self, id: &str, c: &Campaign) -> Vec<String> {
        let Some(a) = c.armies.get(id) else {
            return if self.gone == Some(true) {
                Vec::new()
            } else {
                vec![format!("army {id} expected, and is gone")]
            };
        };
        let mut fails = Vec::new();
        if self.gone == Some(true) {
            fails.push(format!("army {id} expected gone, and is in {}", a.province));
        }
        if let Some(p) = self.province.as_ref().filter(|p| **p != a.province) {
            fails.push(format!(
                "army {id}.province expected {p}, got {}",
                a.province
            ));
        }
        if self.hired_by.is_some() && self.hired_by != a.hired_by {
            fails.push(format!(
                "army {id}.hired_by expected {:?}, got {:?}",
                self.hired_by, a.hired_by
            ));
        }
        for (designation, want) in &self.figures {
            let got: u32 = a
                .contents
                .units
                .iter()
                .filter(|u| u.designation == *designation)
                .map(|u| u.figures)
                .sum();
            if got != *want {
                fails.push(format!(
                    "army {id}: {designation} expected {want} figures, got {got}"
                ));
            }
        }
        fails
    }
}

impl ProvinceExpect {
    fn check(&self, id: &str, c: &Campaign) -> Vec<String> {
        let Some(h) = c.holdings.get(id) else {
            return vec![format!("no province {id} on the map")];
        };
        let mut fails = Vec::new();
        // "" is nobody.
        let whose = |p: Option<&String>| p.map_or("", |p| p.as_str()).to_string();
        for (what, want, got) in [
            ("owner", &self.owner, h.owner.as_ref()),
            ("occupier", &self.occupier, h.occupier.as_ref()),
        ] {
            if let Some(want) = want.as_ref().filter(|w| **w != whose(got)) {
                fails.push(format!(
                    "{id}.{what} expected '{want}', got '{}'",
                    whose(got)
                ));
            }
        }
        if self.pacified.is_some_and(|p| p != h.pacified) {
            fails.push(format!(
                "{id}.pacified expected {:?}, got {}",
                self.pacified, h.pacified
            ));
        }
        fails
    }
}

/// What `text` (`whose`) does not say of `has`, and says of `lacks`, with
/// the text itself after any of those.
fn words(text: &str, whose: &str, has: &[String], lacks: &[String]) -> Vec<String> {
    let mut fails: Vec<String> = has
        .iter()
        .filter(|w| !text.contains(w.as_str()))
        .map(|w| format!("{whose} does not say '{w}'"))
        .collect();
    fails.extend(
        lacks
            .iter()
            .filter(|w| text.contains(w.as_str()))
            .map(|w| format!("{whose} says '{w}'")),
    );
    if !fails.is_empty() {
        fails.push(format!("{whose}:\n{text}"));
    }
    fails
}

fn campaign(state: &str) -> Result<Campaign, String> {
    serde_json::from_str(state).map_err(|e| format!("the campaign's state: {e}"))
}

/// Map turn `turn`'s dice seed in a case: SHA-256 of "SEED:TURN".
fn week_seed(seed: u64, turn: u32) -> [u8; 32] {
    Sha256::digest(format!("{seed}:{turn}").as_bytes()).into()
}
