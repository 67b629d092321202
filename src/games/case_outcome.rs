//! What a rules case comes to, in every rule set's case runner: the
//! type the [`Ruleset::run_case`](super::Ruleset::run_case) boundary
//! returns and the case runner's frame (`case`) prints.

/// The result of running one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseOutcome {
    Pass,
    /// Every expectation that did not hold.
    Fail(Vec<String>),
    /// The case could not be run (bad file, missing dice, bad set-up).
    Error(String),
}
