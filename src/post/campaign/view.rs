//! What a secretary's command reads of the campaign, loaded once for it:
//! the commands (`secretary`) decide from it and the office
//! (`office::apply`) words its mail from it.

use super::desk::Desk;
use super::{on_file, Row};
use crate::games::campaign::OnFile;
use crate::post::PostError;
use crate::store::campaigns;
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// What a secretary's command reads of the campaign, loaded once for it.
pub(super) struct View {
    pub(super) row: Row,
    /// The open week's deadline (none when `week_hours` is 0 or the
    /// campaign is not active).
    pub(super) deadline: Option<DateTime<Utc>>,
    /// Each power's address, by power (empty for a general's).
    pub(super) addresses: BTreeMap<String, String>,
    /// The style of the general who plays each power a general plays.
    pub(super) generals: BTreeMap<String, String>,
    /// Each power's orders on file for the open week, by power.
    pub(super) on_file: OnFile,
    pub(super) now: DateTime<Utc>,
}

impl View {
    pub(super) fn read(desk: &Desk<'_, '_>, row: Row) -> Result<View, PostError> {
        let id = &row.facts.id;
        Ok(View {
            deadline: campaigns::deadline(desk.tx, id)?,
            addresses: campaigns::players(desk.tx, id)?.into_iter().collect(),
            generals: campaigns::generals(desk.tx, id)?.into_iter().collect(),
            on_file: on_file(desk.tx, &row.facts)?,
            now: desk.now,
            row,
        })
    }

    /// A power as written (any case), and its address.
    pub(super) fn power(&self, written: &str) -> Option<(&String, &String)> {
        self.addresses
            .iter()
            .find(|(p, _)| p.eq_ignore_ascii_case(written))
    }

    /// The powers' ids, for an answer naming a power that is not.
    pub(super) fn powers(&self) -> String {
        let powers: Vec<&str> = self.addresses.keys().map(String::as_str).collect();
        powers.join(", ")
    }
}
