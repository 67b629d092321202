//! The campaign tables: `campaigns` (a world campaign's state and its
//! secretary), `campaign_powers` (the players), `campaign_orders` (every
//! orders message kept, the latest per power counting), `campaign_results`
//! (battle results the secretary entered, applied once) and
//! `campaign_turns` (each map turn as played: the state before and after,
//! the orders and battle results it applied, how often the secretary re-ran
//! it) and `campaign_reminders` (each power reminded of a map turn, once).
//! The campaign's state, orders and events are JSON only the campaign reads.

use super::db::{params, Connection, OptionalExtension};
use super::{parse_ts, ts, Result};
use chrono::{DateTime, Utc};

/// One campaign as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CampaignRow {
    pub id: String,
    pub title: String,
    /// The campaign's state, as JSON.
    pub state: String,
    /// The campaign's master seed, hex.
    pub seed: String,
    pub secretary_address: String,
    /// The secretary's password hash.
    pub secretary_pw: String,
    pub status: String,
}

/// One power of a campaign and its player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PowerRow {
    pub power: String,
    /// Empty for a power the umpire's general plays.
    pub address: String,
    /// The password's hash.
    pub password: String,
    /// The style of the umpire's general who plays the power instead of a
    /// player (`aggressive`); none for a player's power.
    pub general: Option<String>,
}

/// A power's orders message for a map turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrdersRow<'a> {
    pub turn: u32,
    pub power: &'a str,
    /// The message's row in `messages`; none for a general's letter.
    pub message: Option<i64>,
    /// The message's text, passwords masked.
    pub text: &'a str,
    /// The orders read from it, as JSON.
    pub orders: &'a str,
}

/// A map turn as played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnRow<'a> {
    pub turn: u32,
    pub state_before: &'a str,
    pub state_after: &'a str,
    pub orders: &'a str,
    pub events: &'a str,
    /// The battle results it applied (JSON list).
    pub results: &'a str,
}

/// A map turn as stored, for the secretary's re-run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedTurn {
    pub state_before: String,
    pub state_after: String,
    pub orders: String,
    /// The events the week's reports were written from, as stored.
    pub events: String,
    /// `None`: resolved before the turns kept their results (migration 15).
    pub results: Option<String>,
    pub reruns: u32,
    pub resolved_at: DateTime<Utc>,
}

/// Create a campaign's row (active, no deadline yet).
///
/// # Errors
/// On database errors (a campaign with that id exists).
pub fn insert(c: &Connection, row: &CampaignRow, now: DateTime<Utc>) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO campaigns (id, title, state, seed, secretary_address, secretary_pw, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        row.id,
        row.title,
        row.state,
        row.seed,
        row.secretary_address,
        row.secretary_pw,
        ts(now)
    ])?;
    Ok(())
}

/// Whether a campaign of exactly this id exists.
///
/// # Errors
/// On database errors.
pub fn exists(c: &Connection, id: &str) -> Result<bool> {
    Ok(c.prepare_cached("SELECT 1 FROM campaigns WHERE id = ?1")?
        .query_row([id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// The campaign whose id is `id` in any case.
///
/// # Errors
/// On database errors.
pub fn load(c: &Connection, id: &str) -> Result<Option<CampaignRow>> {
    Ok(c.prepare_cached(
        "SELECT id, title, state, seed, secretary_address, secretary_pw, status \
             FROM campaigns WHERE lower(id) = lower(?1)",
    )?
    .query_row([id], |r| {
        Ok(CampaignRow {
            id: r.get(0)?,
            title: r.get(1)?,
            state: r.get(2)?,
            seed: r.get(3)?,
            secretary_address: r.get(4)?,
            secretary_pw: r.get(5)?,
            status: r.get(6)?,
        })
    })
    .optional()?)
}

/// Store the campaign's state after a map turn.
///
/// # Errors
/// On database errors.
pub fn set_state(c: &Connection, id: &str, state: &str) -> Result<()> {
    c.prepare_cached("UPDATE campaigns SET state = ?2 WHERE id = ?1")?
        .execute(params![id, state])?;
    Ok(())
}

/// Set (or clear) the deadline of the map turn now open.
///
/// # Errors
/// On database errors.
pub fn set_deadline(c: &Connection, id: &str, deadline: Option<DateTime<Utc>>) -> Result<()> {
    c.prepare_cached("UPDATE campaigns SET deadline = ?2 WHERE id = ?1")?
        .execute(params![id, deadline.map(ts)])?;
    Ok(())
}

/// The deadline of an active campaign's open map turn, if it has one.
///
/// # Errors
/// On database errors or a damaged timestamp.
pub fn deadline(c: &Connection, id: &str) -> Result<Option<DateTime<Utc>>> {
    let d: Option<String> = c
        .prepare_cached("SELECT deadline FROM campaigns WHERE id = ?1 AND status = 'active'")?
        .query_row([id], |r| r.get(0))
        .optional()?
        .flatten();
    d.as_deref().map(parse_ts).transpose()
}

/// Active campaigns whose map turn's deadline is at or before `now`, by id.
///
/// # Errors
/// On database errors.
pub fn due(c: &Connection, now: DateTime<Utc>) -> Result<Vec<String>> {
    let mut st = c.prepare_cached(
        "SELECT id FROM campaigns WHERE status = 'active' AND deadline IS NOT NULL \
         AND deadline <= ?1 ORDER BY id",
    )?;
    let ids = st
        .query_map([ts(now)], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(ids)
}

/// Register a power's player.
///
/// # Errors
/// On database errors (the power is taken).
pub fn insert_power(c: &Connection, id: &str, p: &PowerRow) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO campaign_powers (campaign_id, power, address, password, general) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![id, p.power, p.address, p.password, p.general])?;
    Ok(())
}

/// The power whose name is `power` in any case.
///
/// # Errors
/// On database errors.
pub fn power(c: &Connection, id: &str, power: &str) -> Result<Option<PowerRow>> {
    Ok(c.prepare_cached(
        "SELECT power, address, password, general FROM campaign_powers \
             WHERE campaign_id = ?1 AND lower(power) = lower(?2)",
    )?
    .query_row(params![id, power], |r| {
        Ok(PowerRow {
            power: r.get(0)?,
            address: r.get(1)?,
            password: r.get(2)?,
            general: r.get(3)?,
        })
    })
    .optional()?)
}

/// Each power and its player's address, by power.
///
/// # Errors
/// On database errors.
pub fn players(c: &Connection, id: &str) -> Result<Vec<(String, String)>> {
    let mut st = c.prepare_cached(
        "SELECT power, address FROM campaign_powers WHERE campaign_id = ?1 ORDER BY power",
    )?;
    let rows = st
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Each power the umpire's generals play, with its general's style, by power.
///
/// # Errors
/// On database errors.
pub fn generals(c: &Connection, id: &str) -> Result<Vec<(String, String)>> {
    let mut st = c.prepare_cached(
        "SELECT power, general FROM campaign_powers \
         WHERE campaign_id = ?1 AND general IS NOT NULL ORDER BY power",
    )?;
    let rows = st
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Whether `address` plays in, or is the secretary of, any campaign.
///
/// # Errors
/// On database errors.
pub fn knows_address(c: &Connection, address: &str) -> Result<bool> {
    let n: i64 = c
        .prepare_cached(
            "SELECT (SELECT count(*) FROM campaign_powers WHERE address = ?1) \
             + (SELECT count(*) FROM campaigns WHERE secretary_address = ?1)",
        )?
        .query_row([address], |r| r.get(0))?;
    Ok(n > 0)
}

/// Keep a power's orders message for a map turn.
///
/// # Errors
/// On database errors.
pub fn insert_orders(
    c: &Connection,
    id: &str,
    o: &OrdersRow<'_>,
    now: DateTime<Utc>,
) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO campaign_orders (campaign_id, turn, power, message, text, orders, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![id, o.turn, o.power, o.message, o.text, o.orders, ts(now)])?;
    Ok(())
}

/// Each power, by name, and whether its orders for `turn` are in.
///
/// # Errors
/// On database errors.
pub fn orders_in(c: &Connection, id: &str, turn: u32) -> Result<Vec<(String, bool)>> {
    let mut st = c.prepare_cached(
        "SELECT p.power, EXISTS(SELECT 1 FROM campaign_orders o WHERE o.campaign_id = p.campaign_id \
         AND o.turn = ?2 AND o.power = p.power) \
         FROM campaign_powers p WHERE p.campaign_id = ?1 ORDER BY p.power",
    )?;
    let rows = st
        .query_map(params![id, turn], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Each power's latest orders for `turn` (as JSON), by power.
///
/// # Errors
/// On database errors.
pub fn latest_orders(c: &Connection, id: &str, turn: u32) -> Result<Vec<(String, String)>> {
    let mut st = c.prepare_cached(
        "SELECT power, orders FROM campaign_orders WHERE id IN \
         (SELECT max(id) FROM campaign_orders WHERE campaign_id = ?1 AND turn = ?2 GROUP BY power) \
         ORDER BY power",
    )?;
    let rows = st
        .query_map(params![id, turn], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<super::db::Result<Vec<_>>>()?;
    Ok(rows)
}

/// Record (or replace) the secretary's result of a battle, to be applied
/// when the map turn is resolved.
///
/// # Errors
/// On database errors.
pub fn record_result(c: &Connection, id: &str, battle: u32, result: &str) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO campaign_results (campaign_id, battle, result, applied) VALUES (?1, ?2, ?3, 0) \
         ON CONFLICT (campaign_id, battle) DO UPDATE SET result = excluded.result, applied = 0",
    )?
    .execute(params![id, battle, result])?;
    Ok(())
}

/// The results not yet applied (as JSON), by battle, now marked applied:
/// each result counts in one map turn only.
///
/// # Errors
/// On database errors.
pub fn take_results(c: &Connection, id: &str) -> Result<Vec<String>> {
    let rows = c
        .prepare_cached(
            "SELECT result FROM campaign_results WHERE campaign_id = ?1 AND applied = 0 ORDER BY battle",
        )?
        .query_map([id], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    c.prepare_cached("UPDATE campaign_results SET applied = 1 WHERE campaign_id = ?1")?
        .execute([id])?;
    Ok(rows)
}

/// Keep a map turn as played.
///
/// # Errors
/// On database errors (the turn was stored already).
pub fn insert_turn(c: &Connection, id: &str, t: &TurnRow<'_>, now: DateTime<Utc>) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO campaign_turns (campaign_id, turn, state_before, state_after, orders, events, resolved_at, results) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![id, t.turn, t.state_before, t.state_after, t.orders, t.events, ts(now), t.results])?;
    Ok(())
}

/// A map turn as played, if it was.
///
/// # Errors
/// On database errors or a damaged timestamp.
pub fn played_turn(c: &Connection, id: &str, turn: u32) -> Result<Option<PlayedTurn>> {
    let row = c
        .prepare_cached(
            "SELECT state_before, state_after, orders, results, reruns, resolved_at, events \
             FROM campaign_turns WHERE campaign_id = ?1 AND turn = ?2",
        )?
        .query_row(params![id, turn], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get::<_, String>(5)?,
                r.get(6)?,
            ))
        })
        .optional()?;
    row.map(
        |(state_before, state_after, orders, results, reruns, at, events)| -> Result<PlayedTurn> {
            Ok(PlayedTurn {
                state_before,
                state_after,
                orders,
                events,
                results,
                reruns,
                resolved_at: parse_ts(&at)?,
            })
        },
    )
    .transpose()
}

/// Replace a map turn's outcome with its re-run's (the state before and
/// the results it applied stay), counting the re-run.
///
/// # Errors
/// On database errors.
pub fn rerun_turn(c: &Connection, id: &str, t: &TurnRow<'_>) -> Result<()> {
    c.prepare_cached(
        "UPDATE campaign_turns SET state_after = ?3, orders = ?4, events = ?5, reruns = reruns + 1 \
         WHERE campaign_id = ?1 AND turn = ?2",
    )?
    .execute(params![id, t.turn, t.state_after, t.orders, t.events])?;
    Ok(())
}

/// How often the secretary re-ran a map turn (0 for one never played).
///
/// # Errors
/// On database errors.
pub fn reruns(c: &Connection, id: &str, turn: u32) -> Result<u32> {
    Ok(
        c.prepare_cached("SELECT reruns FROM campaign_turns WHERE campaign_id = ?1 AND turn = ?2")?
            .query_row(params![id, turn], |r| r.get(0))
            .optional()?
            .unwrap_or(0),
    )
}

/// The battles with a result entered and not yet applied, by battle.
///
/// # Errors
/// On database errors.
pub fn waiting_results(c: &Connection, id: &str) -> Result<Vec<u32>> {
    let rows = c
        .prepare_cached(
            "SELECT battle FROM campaign_results WHERE campaign_id = ?1 AND applied = 0 ORDER BY battle",
        )?
        .query_map([id], |r| r.get(0))?
        .collect::<super::db::Result<Vec<u32>>>()?;
    Ok(rows)
}

/// Forget a result not yet applied (its battle is no longer waiting).
///
/// # Errors
/// On database errors.
pub fn drop_result(c: &Connection, id: &str, battle: u32) -> Result<()> {
    c.prepare_cached(
        "DELETE FROM campaign_results WHERE campaign_id = ?1 AND battle = ?2 AND applied = 0",
    )?
    .execute(params![id, battle])?;
    Ok(())
}

/// Hand a power to another player: its address and password hash.
///
/// # Errors
/// On database errors.
pub fn set_player(c: &Connection, id: &str, power: &str, address: &str, hash: &str) -> Result<()> {
    c.prepare_cached(
        "UPDATE campaign_powers SET address = ?3, password = ?4, general = NULL \
         WHERE campaign_id = ?1 AND power = ?2",
    )?
    .execute(params![id, power, address, hash])?;
    Ok(())
}

/// Hand a power to the umpire's general of `style`: no address, and a
/// password hash nobody's password matches.
///
/// # Errors
/// On database errors.
pub fn set_general(c: &Connection, id: &str, power: &str, style: &str, hash: &str) -> Result<()> {
    c.prepare_cached(
        "UPDATE campaign_powers SET address = '', password = ?4, general = ?3 \
         WHERE campaign_id = ?1 AND power = ?2",
    )?
    .execute(params![id, power, style, hash])?;
    Ok(())
}

/// Note that a power was reminded of a map turn; false when it already was.
///
/// # Errors
/// On database errors.
pub fn remind_once(c: &Connection, id: &str, turn: u32, power: &str) -> Result<bool> {
    let n = c
        .prepare_cached(
            "INSERT INTO campaign_reminders (campaign_id, turn, power) VALUES (?1, ?2, ?3) \
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![id, turn, power])?;
    Ok(n == 1)
}

/// Active campaigns whose open map turn has a deadline, by id.
///
/// # Errors
/// On database errors.
pub fn with_deadline(c: &Connection) -> Result<Vec<String>> {
    let mut st = c.prepare_cached(
        "SELECT id FROM campaigns WHERE status = 'active' AND deadline IS NOT NULL ORDER BY id",
    )?;
    let ids = st
        .query_map([], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(ids)
}

/// Every campaign as the club's web pages show it: its id, status and
/// deadline ([`super::games::marks`]).
///
/// # Errors
/// On database errors.
pub fn marks(c: &Connection) -> Result<Vec<String>> {
    let mut st = c.prepare_cached("SELECT id, status, deadline FROM campaigns ORDER BY id")?;
    let marks = st
        .query_map([], |r| {
            Ok(format!(
                "{} {} {}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?.unwrap_or_default()
            ))
        })?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(marks)
}

/// Every campaign's id, in order.
///
/// # Errors
/// On database errors.
pub fn ids(c: &Connection) -> Result<Vec<String>> {
    let mut st = c.prepare_cached("SELECT id FROM campaigns ORDER BY id")?;
    let ids = st
        .query_map([], |r| r.get(0))?
        .collect::<super::db::Result<Vec<String>>>()?;
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use chrono::TimeZone;

    fn row(id: &str) -> CampaignRow {
        CampaignRow {
            id: id.into(),
            title: "The Hyborean Age".into(),
            state: "{}".into(),
            seed: "00".into(),
            secretary_address: "sec@club.example".into(),
            secretary_pw: "hash".into(),
            status: "active".into(),
        }
    }

    #[test]
    fn a_campaign_is_found_in_any_case_and_falls_due_at_its_deadline() {
        for (_, store) in crate::store::testing::stores() {
            a_campaign_is_found_in_any_case_and_falls_due_at_its_deadline_on(store);
        }
    }

    fn a_campaign_is_found_in_any_case_and_falls_due_at_its_deadline_on(store: Store) {
        let c = store.conn();
        let t0 = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
        insert(c, &row("Hyb1"), t0).unwrap();
        assert!(exists(c, "Hyb1").unwrap());
        assert!(!exists(c, "hyb1").unwrap(), "exists is exact");
        assert_eq!(load(c, "HYB1").unwrap().unwrap(), row("Hyb1"));
        assert_eq!(deadline(c, "Hyb1").unwrap(), None);
        let d = t0 + chrono::Duration::hours(168);
        set_deadline(c, "Hyb1", Some(d)).unwrap();
        assert_eq!(deadline(c, "Hyb1").unwrap(), Some(d));
        assert!(due(c, d - chrono::Duration::seconds(1)).unwrap().is_empty());
        assert_eq!(due(c, d).unwrap(), vec!["Hyb1".to_string()]);
        assert!(knows_address(c, "sec@club.example").unwrap());
        assert!(!knows_address(c, "nobody@club.example").unwrap());
    }

    #[test]
    fn the_latest_orders_count_and_results_apply_once() {
        for (_, store) in crate::store::testing::stores() {
            the_latest_orders_count_and_results_apply_once_on(store);
        }
    }

    fn the_latest_orders_count_and_results_apply_once_on(mut store: Store) {
        let t0 = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
        let mut message = |key: &str| {
            let arrival = crate::store::messages::Arrival {
                key,
                raw: b"orders",
                digest: key,
                size: 6,
                source: "stdin",
                arrived_at: None,
            };
            store.store_raw(&arrival, t0).unwrap().id
        };
        let messages = [message("m1"), message("m2")];
        let c = store.conn();
        insert(c, &row("h"), t0).unwrap();
        for (power, address) in [("nemedia", "n@x.example"), ("aquilonia", "a@x.example")] {
            let p = PowerRow {
                power: power.into(),
                address: address.into(),
                password: "hash".into(),
                general: None,
            };
            insert_power(c, "h", &p).unwrap();
        }
        // A power the umpire's general plays: no address; its letters come
        // in no message.
        let koth = PowerRow {
            power: "koth".into(),
            address: String::new(),
            password: "hash".into(),
            general: Some("aggressive".into()),
        };
        insert_power(c, "h", &koth).unwrap();
        assert_eq!(
            generals(c, "h").unwrap(),
            [("koth".into(), "aggressive".into())]
        );
        let letter = OrdersRow {
            turn: 1,
            power: "koth",
            message: None,
            text: "CAMPAIGN h POWER koth PASSWORD -\nEND\n",
            orders: "[]",
        };
        insert_orders(c, "h", &letter, t0).unwrap();
        set_player(c, "h", "koth", "k@x.example", "hash3").unwrap();
        assert!(generals(c, "h").unwrap().is_empty(), "a player now");
        set_general(c, "h", "nemedia", "cautious", "hash4").unwrap();
        let nemedia = power(c, "h", "nemedia").unwrap().unwrap();
        assert_eq!(
            (nemedia.address.as_str(), nemedia.password.as_str()),
            ("", "hash4")
        );
        assert_eq!(
            generals(c, "h").unwrap(),
            [("nemedia".into(), "cautious".into())]
        );
        set_player(c, "h", "nemedia", "n@x.example", "hash").unwrap();
        assert_eq!(
            power(c, "h", "NEMEDIA").unwrap().unwrap().address,
            "n@x.example"
        );
        for (n, orders) in [(messages[0], "[1]"), (messages[1], "[2]")] {
            let o = OrdersRow {
                turn: 1,
                power: "nemedia",
                message: Some(n),
                text: "t",
                orders,
            };
            insert_orders(c, "h", &o, t0).unwrap();
        }
        assert_eq!(
            latest_orders(c, "h", 1).unwrap(),
            vec![
                ("koth".into(), "[]".into()),
                ("nemedia".into(), "[2]".into())
            ]
        );
        assert_eq!(
            orders_in(c, "h", 1).unwrap(),
            vec![
                ("aquilonia".into(), false),
                ("koth".into(), true),
                ("nemedia".into(), true)
            ]
        );
        record_result(c, "h", 3, "first").unwrap();
        record_result(c, "h", 3, "corrected").unwrap();
        record_result(c, "h", 4, "gone").unwrap();
        assert_eq!(waiting_results(c, "h").unwrap(), vec![3, 4]);
        drop_result(c, "h", 4).unwrap();
        assert_eq!(waiting_results(c, "h").unwrap(), vec![3]);
        assert_eq!(take_results(c, "h").unwrap(), vec!["corrected".to_string()]);
        assert!(take_results(c, "h").unwrap().is_empty(), "applied once");
        assert_eq!(players(c, "h").unwrap().len(), 3);
        assert!(remind_once(c, "h", 1, "nemedia").unwrap());
        assert!(!remind_once(c, "h", 1, "nemedia").unwrap(), "once a week");
        assert!(remind_once(c, "h", 2, "nemedia").unwrap());
        set_player(c, "h", "nemedia", "new@x.example", "hash2").unwrap();
        assert_eq!(
            power(c, "h", "nemedia").unwrap().unwrap(),
            PowerRow {
                power: "nemedia".into(),
                address: "new@x.example".into(),
                password: "hash2".into(),
                general: None,
            }
        );
    }

    #[test]
    fn a_played_turn_keeps_its_results_and_counts_its_reruns() {
        for (_, store) in crate::store::testing::stores() {
            a_played_turn_keeps_its_results_and_counts_its_reruns_on(store);
        }
    }

    fn a_played_turn_keeps_its_results_and_counts_its_reruns_on(store: Store) {
        let c = store.conn();
        let t0 = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
        insert(c, &row("h"), t0).unwrap();
        assert_eq!(played_turn(c, "h", 1).unwrap(), None);
        assert_eq!(reruns(c, "h", 1).unwrap(), 0);
        let t = TurnRow {
            turn: 1,
            state_before: "before",
            state_after: "after",
            orders: "{}",
            events: "[]",
            results: "[]",
        };
        insert_turn(c, "h", &t, t0).unwrap();
        let again = TurnRow {
            state_after: "corrected",
            ..t.clone()
        };
        rerun_turn(c, "h", &again).unwrap();
        assert_eq!(
            played_turn(c, "h", 1).unwrap().unwrap(),
            PlayedTurn {
                state_before: "before".into(),
                state_after: "corrected".into(),
                orders: "{}".into(),
                events: "[]".into(),
                results: Some("[]".into()),
                reruns: 1,
                resolved_at: t0,
            }
        );
        assert_eq!(reruns(c, "h", 1).unwrap(), 1);
        assert_eq!(with_deadline(c).unwrap(), Vec::<String>::new());
        set_deadline(c, "h", Some(t0)).unwrap();
        assert_eq!(with_deadline(c).unwrap(), vec!["h".to_string()]);
    }
}
