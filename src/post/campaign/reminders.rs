//! Reminders of a campaign's week (ruling CA-32): each power without
//! orders for the open week is reminded once, when its deadline is the
//! campaign's `reminder_hours` away.

use super::week::due_text;
use super::{load, Facts};
use crate::config::Config;
use crate::post::outbox::{self, Kind};
use crate::post::{plain, PostError};
use crate::store::campaigns;
use crate::store::{Connection, Store, Transaction};
use chrono::{DateTime, Utc};

/// Remind each power without orders for the open week, once a week, when
/// its deadline is the campaign's `reminder_hours` away (ruling CA-32).
/// Returns how many were reminded.
///
/// # Errors
/// Damaged stored data or database errors.
pub fn remind_if_due(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
) -> Result<u32, PostError> {
    let Some(stored) = load(tx, id)? else {
        return Ok(0);
    };
    let c = &stored.facts;
    let Some(deadline) = reminder_window(tx, c, now)? else {
        return Ok(0);
    };
    let turn = c.turn + 1;
    let mut n = 0;
    for (power, ordered) in campaigns::orders_in(tx, id, turn)? {
        if ordered || !campaigns::remind_once(tx, id, turn, &power)? {
            continue;
        }
        let Some(row) = campaigns::power(tx, id, &power)? else {
            continue;
        };
        let text = crate::post::templates::render(
            "reminder.txt",
            minijinja::context! { title => &c.title, game => id, side => &power,
            round => &c.date, deadline => due_text(config, deadline) },
        );
        let subject = format!(
            "[{id}] {}: orders due",
            crate::report::capitalize_first(&c.date)
        );
        let mail = plain(config, vec![row.address], subject, text, None);
        outbox::queue(
            tx,
            config,
            Some(id),
            Kind::Reminder,
            &mail,
            &format!("{turn}:{power}"),
            now,
        )?;
        n += 1;
    }
    Ok(n)
}

/// The open week's deadline when `now` is within the campaign's
/// `reminder_hours` before it.
fn reminder_window(
    conn: &Connection,
    c: &Facts,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>, PostError> {
    let hours = c.reminder_hours;
    Ok(campaigns::deadline(conn, &c.id)?
        .filter(|d| hours > 0 && now < *d && now >= *d - chrono::Duration::hours(i64::from(hours))))
}

/// Campaigns with a power to remind now (read without the write lock; the
/// reminding checks again in its transaction).
///
/// # Errors
/// Damaged stored data or database errors.
pub fn reminders_due(store: &Store, now: DateTime<Utc>) -> Result<Vec<String>, PostError> {
    let conn = store.conn();
    let mut out = Vec::new();
    for id in campaigns::with_deadline(conn)? {
        let Some(stored) = load(conn, &id)? else {
            continue;
        };
        if reminder_window(conn, &stored.facts, now)?.is_some()
            && campaigns::orders_in(conn, &id, stored.facts.turn + 1)?
                .iter()
                .any(|(_, ordered)| !ordered)
        {
            out.push(id);
        }
    }
    Ok(out)
}
