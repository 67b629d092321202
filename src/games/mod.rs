//! The rule sets umpire judges, side by side.
//!
//! Each rule set lives in its own folder and owns its orders, its board or
//! table, its resolution, its report sections and picture, and its guide.
//! The shared machinery (the post office, the store, mail, dice, the case
//! runner's frame) knows them only through the rule-set boundary.

pub mod fr_ancients;
pub mod hyborian;

use crate::case::CaseOutcome;

/// The rule set a case file or game file names (`ruleset = "…"`), or
/// the Hyborean Age's when it names none.
pub fn ruleset_named_in(text: &str) -> Result<String, String> {
    let value: toml::Table = toml::from_str(text).map_err(|e| format!("not TOML: {}", e.message()))?;
    match value.get("ruleset") {
        None => Ok(hyborian::RULESET.to_string()),
        Some(toml::Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!("ruleset must be a name in quotes, not {other}")),
    }
}

/// Run the text of a rules case file with the rule set it names.
pub fn run_case(text: &str) -> CaseOutcome {
    match ruleset_named_in(text) {
        Ok(r) if r == hyborian::RULESET => hyborian::case::run_text(text),
        Ok(r) if r == fr_ancients::RULESET => fr_ancients::case::run_text(text),
        Ok(other) => CaseOutcome::Error(format!(
            "no rule set called '{other}' (umpire judges: {}, {})",
            hyborian::RULESET,
            fr_ancients::RULESET
        )),
        Err(e) => CaseOutcome::Error(e),
    }
}
