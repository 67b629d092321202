//! Round reports rendered with every rule set's summary partials: the
//! report frame ([`Templates`]) is handed them here, built once, so the
//! frame itself never looks a rule set up.
//!
//! ```
//! let r: umpire::report::RoundReport = serde_json::from_value(serde_json::json!({
//!     "title": "War", "game": "g", "turn": 1, "seed": "", "seed_hash": "", "nmr": [],
//!     "sections": [], "dice": [], "sides": [], "ended": false, "next_turn": 2,
//!     "deadline": "", "next_seed_hash": "", "draft": false
//! })).unwrap();
//! assert!(r.text().contains("War"));
//! ```

use super::all;
use crate::report::{RoundReport, Templates};
use std::sync::OnceLock;

/// The frame's templates with every rule set's partials.
pub fn templates() -> &'static Templates {
    static TEMPLATES: OnceLock<Templates> = OnceLock::new();
    TEMPLATES
        .get_or_init(|| Templates::new(all().iter().flat_map(|r| r.templates().iter().copied())))
}

impl RoundReport {
    /// The plain-text report.
    pub fn text(&self) -> String {
        self.text_with(templates())
    }

    /// The HTML report; `picture` is the `cid:` (or URL) of the board's picture.
    pub fn html(&self, picture: Option<&str>) -> String {
        self.html_with(templates(), picture)
    }
}
