//! Rules case files (`/work/shared/spec/cases.md`): one small battle, the
//! orders written for it, the dice that fall and what must come of it.
//! [`Case::load`] reads and checks a file, [`Case::run`] adjudicates it,
//! the shared runner (`umpire::case`) is `umpire case FILE_OR_DIR...`.
//!
//! A missing dice key is an ERROR naming the key; a key given but never
//! used is a FAIL unless `strict_dice = false`; orders refused without a
//! `rejected` expectation are a FAIL (a case must say so when it means it).
//!
//! ```no_run
//! use umpire::case::{run_file, CaseOutcome};
//! assert_eq!(run_file("tests/cases/movement/straight-full-move.toml".as_ref()), CaseOutcome::Pass);
//! ```

mod expect;

pub use expect::{Expectation, Tolerance};

use crate::games::hyborian::adjudicate::{resolve_turn, StopAfter};
use crate::games::hyborian::dice::{DiceKey, ScriptedDice};
use crate::games::hyborian::orders::plan::TurnOrders;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::setup::{Setup, TableSize, TerrainSetup, UnitSetup};
use crate::games::hyborian::table::{Table, UnitId};
pub use crate::games::CaseOutcome;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A case file as written (unchecked).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    /// `hyborian-age` when written (the default rule set of case files;
    /// the shared runner has already dispatched on it).
    #[serde(rename = "ruleset")]
    _ruleset: Option<String>,
    title: String,
    rule: String,
    stop_after: Option<String>,
    strict_dice: Option<bool>,
    table: TableSize,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    terrain: Vec<TerrainSetup>,
    #[serde(default)]
    unit: Vec<UnitSetup>,
    #[serde(default)]
    orders: BTreeMap<String, String>,
    /// Order text per side written the turn before (spells acting now).
    previous_orders: Option<BTreeMap<String, String>>,
    #[serde(default)]
    dice: BTreeMap<String, i64>,
    #[serde(default)]
    expect: toml::Table,
    #[serde(default)]
    tolerance: Tolerance,
}

/// A checked case, ready to run.
#[derive(Debug, Clone)]
pub struct Case {
    pub title: String,
    /// The book section the case checks.
    pub rule: String,
    pub stop_after: StopAfter,
    pub strict_dice: bool,
    pub setup: Setup,
    pub options: GameOptions,
    /// Order text per side.
    pub orders: BTreeMap<String, String>,
    /// Order text per side written the turn before, if the case gives it
    /// (`[previous_orders]`): its spells take effect in this turn, and the
    /// spells in `orders` are then written this turn, for the next.
    pub previous_orders: Option<BTreeMap<String, String>>,
    pub dice: BTreeMap<String, u8>,
    pub expect: Vec<Expectation>,
    /// Units whose orders must be refused, if the case says.
    pub rejected: Option<BTreeSet<UnitId>>,
    pub tolerance: Tolerance,
}

/// Why a case file could not be read or does not follow the format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaseError {
    #[error("cannot read: {0}")]
    Read(String),
    #[error("not a case file: {0}")]
    Format(String),
    #[error("{0}")]
    Invalid(String),
}

impl Case {
    /// Read and check a case file.
    ///
    /// # Errors
    /// The file cannot be read, is not TOML, has unknown keys, or names
    /// dice keys, options, units or fields the format does not have.
    pub fn load(path: &Path) -> Result<Case, CaseError> {
        let text = std::fs::read_to_string(path).map_err(|e| CaseError::Read(e.to_string()))?;
        Case::parse(&text)
    }

    /// Check the text of a case file.
    ///
    /// # Errors
    /// As [`Case::load`].
    pub fn parse(text: &str) -> Result<Case, CaseError> {
        let file: CaseFile = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            CaseError::Format(match line {
                Some(l) => format!("line {l}: {}", e.message()),
                None => e.message().to_string(),
            })
        })?;
        let stop_after = match &file.stop_after {
            Some(s) => s.parse().map_err(CaseError::Invalid)?,
            None => StopAfter::Turn,
        };
        let options: GameOptions =
            toml::Value::Table(file.options)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    CaseError::Invalid(format!("[options]: {}", e.message()))
                })?;
        let mut dice = BTreeMap::new();
        for (k, v) in file.dice {
            let key: DiceKey =
                k.parse()
                    .map_err(|e: crate::games::hyborian::dice::ParseDiceKeyError| {
                        CaseError::Invalid(e.to_string())
                    })?;
            let value = u8::try_from(v).ok().filter(|v| key.kind().can_show(*v));
            let value = value.ok_or_else(|| {
                CaseError::Invalid(format!("dice {k} = {v}: {}", key.kind().describe()))
            })?;
            dice.insert(k, value);
        }
        let setup = Setup {
            table: file.table,
            terrain: file.terrain,
            units: file.unit,
        };
        let ids: BTreeSet<&str> = setup.units.iter().map(|u| u.id.as_str()).collect();
        for k in dice.keys() {
            let unit = k.split(':').nth(1).unwrap_or_default();
            if !ids.contains(unit) {
                return Err(CaseError::Invalid(format!("dice key {k} names no unit")));
            }
        }
        let (expect, rejected) = expect::parse(&file.expect, &ids).map_err(CaseError::Invalid)?;
        Ok(Case {
            title: file.title,
            rule: file.rule,
            stop_after,
            strict_dice: file.strict_dice.unwrap_or(true),
            setup,
            options,
            orders: file.orders,
            previous_orders: file.previous_orders,
            dice,
            expect,
            rejected,
            tolerance: file.tolerance,
        })
    }

    /// Adjudicate the case and check every expectation.
    pub fn run(&self) -> CaseOutcome {
        let mut table = match Table::from_setup(&self.setup) {
            Ok(t) => t,
            Err(e) => return CaseOutcome::Error(format!("set-up: {e}")),
        };
        let sides = table.sides();
        if let Some(previous) = &self.previous_orders {
            // Written last turn: what of them outlasts the turn (spells not
            // yet cast, leaders' standing orders) is on the table now.
            let mut written = TurnOrders::default();
            for (side, text) in previous {
                if !sides.contains(side) {
                    return CaseOutcome::Error(format!(
                        "previous_orders for side {side} that has no units"
                    ));
                }
                let read = read_orders(text, side, &table);
                if let Some(e) = read.errors.first() {
                    return CaseOutcome::Error(format!("previous_orders: {e}"));
                }
                written.merge(read.orders);
            }
            for (id, o) in &written.units {
                if let Some(stay) = o.stay_with_rout {
                    table.morale.stay_with_rout.insert(id.clone(), stay);
                }
            }
            crate::games::hyborian::adjudicate::spells::carry_written(&mut table, &mut written);
        }
        let mut orders = TurnOrders::default();
        let mut rejected = BTreeSet::new();
        let mut order_errors = Vec::new();
        for (side, text) in &self.orders {
            if !sides.contains(side) {
                return CaseOutcome::Error(format!("orders for side {side} that has no units"));
            }
            let read = read_orders(text, side, &table);
            orders.merge(read.orders);
            rejected.extend(read.rejected);
            order_errors.extend(read.errors);
        }
        // Without `[previous_orders]` a case's spells are read as written
        // last turn and take effect in this one (ruling S-1; the meaning
        // case files have always had). With it, they are this turn's.
        if self.previous_orders.is_none() {
            crate::games::hyborian::adjudicate::spells::carry_written(&mut table, &mut orders);
        }
        let mut dice = ScriptedDice::new(self.dice.clone());
        let result = match resolve_turn(&table, &orders, &self.options, &mut dice, self.stop_after)
        {
            Ok(r) => r,
            Err(e) => return CaseOutcome::Error(e.to_string()),
        };
        let mut reasons = Vec::new();
        match &self.rejected {
            Some(want) if &rejected != want => {
                reasons.push(format!(
                    "rejected expected {}, got {}",
                    expect::list(want),
                    expect::list(&rejected)
                ));
            }
            Some(_) => {}
            // A case that does not say orders are refused must have none refused.
            None => reasons.extend(order_errors),
        }
        for e in &self.expect {
            if let Err(why) = e.check(&result, &self.tolerance, &self.options) {
                reasons.push(why);
            }
        }
        if self.strict_dice {
            for k in dice.unused_keys() {
                reasons.push(format!("dice key {k} given but never used"));
            }
        }
        if reasons.is_empty() {
            CaseOutcome::Pass
        } else {
            CaseOutcome::Fail(reasons)
        }
    }
}

/// One side's orders as read from its text.
struct SideOrders {
    orders: TurnOrders,
    rejected: Vec<UnitId>,
    /// Every error the order reader reported, with its line and column.
    errors: Vec<String>,
}

/// Read one side's order text through the orders module, as a player's would be.
fn read_orders(text: &str, side: &str, table: &Table) -> SideOrders {
    let checked = crate::games::hyborian::orders::check_side(text, side, table);
    let errors = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let (line, col) = d.line_col(&checked.source);
            format!("orders for {side}, line {line}:{col}: {}", d.message)
        })
        .collect();
    SideOrders {
        orders: checked.orders,
        rejected: checked.rejected,
        errors,
    }
}

/// Run the text of one case file.
pub fn run_text(text: &str) -> CaseOutcome {
    match Case::parse(text) {
        Ok(case) => case.run(),
        Err(e) => CaseOutcome::Error(e.to_string()),
    }
}
