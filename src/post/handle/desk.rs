//! What a command reads: the game as a [`Desk`] (read only, changed by
//! `effect::apply` alone) and the [`Ledger`] the store answers.

use crate::post::game::Game;
use crate::post::press::MailRules;
use crate::post::PostError;
use crate::store::games::SideRow;
use chrono::{DateTime, Utc};

/// What the store says of a game's rounds, read when a decision asks.
pub(super) trait Ledger {
    /// The round whose report waits for the moderator's approval.
    fn draft(&self) -> Result<Option<u32>, PostError>;
    /// Whether round `t`'s report is released (`None`: it was not played).
    fn released(&self, t: u32) -> Result<Option<bool>, PostError>;
    /// The game's status as a moderator's STATUS reads it.
    fn status(&self, game: &Game) -> Result<String, PostError>;
}

/// The game as a moderator's command reads it: as the mail's earlier
/// commands left it. Only `effect::apply` changes it.
pub(super) struct Desk<'a> {
    pub game: Game,
    pub sides: Vec<SideRow>,
    pub rules: MailRules,
    pub now: DateTime<Utc>,
    pub ledger: &'a dyn Ledger,
}

impl Desk<'_> {
    pub(super) fn side(&self, name: &str) -> Option<&SideRow> {
        self.sides
            .iter()
            .find(|s| s.side.eq_ignore_ascii_case(name))
    }

    pub(super) fn side_names(&self) -> String {
        let names: Vec<&str> = self.sides.iter().map(|s| s.side.as_str()).collect();
        names.join(", ")
    }

    pub(super) fn label(&self) -> Result<String, PostError> {
        Ok(self.game.round()?.label)
    }

    pub(super) fn show(&self, t: DateTime<Utc>) -> String {
        crate::post::gamefile::show_deadline(t, self.game.tz)
    }
}
