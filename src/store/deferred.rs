//! The `deferred` table: mail for the round after the open one, held (the
//! message in state `deferred`) until that round opens, then let go to be
//! read again (state `new`).
//!
//! A held message is kept with the side and address whose identity it
//! proved when it came: its stored copy has the password masked by then,
//! and the password may even have changed before the round opens, so the
//! second reading trusts the first's proof instead of asking again.

use super::db::{params, Connection, OptionalExtension};
use super::{ts, Result};
use chrono::{DateTime, Utc};

/// A held message: for which game, round and side, proven from which address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub message: i64,
    pub game: String,
    pub round: u32,
    pub side: String,
    pub address: String,
    /// Let go to be read again (the round opened).
    pub released: bool,
}

/// Hold message `h.message` for its round; the message's state becomes
/// `deferred`. Holding a message already held changes nothing.
///
/// # Errors
/// On database errors.
pub fn hold(c: &Connection, h: &Held, note: &str, now: DateTime<Utc>) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO deferred (message, game_id, round, side, address, held_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
    )?
    .execute(params![
        h.message,
        h.game,
        h.round,
        h.side,
        h.address,
        ts(now)
    ])?;
    super::messages::set_state(c, h.message, "deferred", note)
}

/// Let go every message of `game` held for a round up to `round`: each is
/// `new` again, to be read against the round now open. Returns their ids,
/// oldest first. Messages let go before are not let go again.
///
/// # Errors
/// On database errors.
pub fn release(c: &Connection, game: &str, round: u32, now: DateTime<Utc>) -> Result<Vec<i64>> {
    let ids: Vec<i64> = c
        .prepare_cached(
            "SELECT message FROM deferred WHERE game_id = ?1 AND round <= ?2 AND released_at IS NULL ORDER BY message",
        )?
        .query_map(params![game, round], |r| r.get(0))?
        .collect::<super::db::Result<_>>()?;
    for id in &ids {
        c.prepare_cached("UPDATE deferred SET released_at = ?2 WHERE message = ?1")?
            .execute(params![id, ts(now)])?;
        c.prepare_cached(
            "UPDATE messages SET state = 'new', note = 'its round opened' WHERE id = ?1 AND state = 'deferred'",
        )?
        .execute([id])?;
    }
    Ok(ids)
}

/// The hold of message `id`, if it was ever held.
///
/// # Errors
/// On database errors.
pub fn of(c: &Connection, id: i64) -> Result<Option<Held>> {
    Ok(c
        .prepare_cached(
            "SELECT game_id, round, side, address, released_at IS NOT NULL FROM deferred WHERE message = ?1",
        )?
        .query_row([id], |r| {
            Ok(Held {
                message: id,
                game: r.get(0)?,
                round: r.get(1)?,
                side: r.get(2)?,
                address: r.get(3)?,
                released: r.get(4)?,
            })
        })
        .optional()?)
}

/// Messages let go and not yet read again, oldest first.
///
/// # Errors
/// On database errors.
pub fn released_unread(c: &Connection) -> Result<Vec<i64>> {
    let ids = c
        .prepare_cached(
            "SELECT d.message FROM deferred d JOIN messages m ON m.id = d.message \
             WHERE d.released_at IS NOT NULL AND m.state = 'new' ORDER BY d.message",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<super::db::Result<Vec<i64>>>()?;
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::messages::{insert, load, Arrival};
    use crate::store::Store;

    #[test]
    fn a_held_message_is_let_go_once_when_its_round_opens() {
        let dir = tempfile::tempdir().unwrap();
        let mut stores = vec![Store::open(&dir.path().join("u.sqlite")).unwrap()];
        stores.extend(
            crate::store::testing::stores()
                .into_iter()
                .skip(1)
                .map(|(_, s)| s),
        );
        for s in stores {
            a_held_message_is_let_go_once(s);
        }
    }

    fn a_held_message_is_let_go_once(mut s: Store) {
        let now = chrono::Utc::now();
        let a = Arrival {
            key: "<a@x>",
            raw: b"x",
            digest: "d",
            size: 1,
            source: "test",
            arrived_at: None,
        };
        let row = insert(s.conn(), &a, now).unwrap().id;
        let held = Held {
            message: row,
            game: "g".into(),
            round: 4,
            side: "franks".into(),
            address: "c@x".into(),
            released: false,
        };
        s.write(|tx| {
            hold(tx, &held, "held for turn 4", now)?;
            // Holding again is idempotent.
            hold(tx, &held, "held for turn 4", now)
        })
        .unwrap();
        assert_eq!(load(s.conn(), row).unwrap().unwrap().0, "deferred");
        assert_eq!(of(s.conn(), row).unwrap(), Some(held.clone()));
        // Round 3 opening lets nothing go; round 4 lets it go, once.
        assert!(s.write(|tx| release(tx, "g", 3, now)).unwrap().is_empty());
        assert!(s.write(|tx| release(tx, "h", 4, now)).unwrap().is_empty());
        assert_eq!(s.write(|tx| release(tx, "g", 4, now)).unwrap(), vec![row]);
        assert!(s.write(|tx| release(tx, "g", 5, now)).unwrap().is_empty());
        assert_eq!(load(s.conn(), row).unwrap().unwrap().0, "new");
        assert_eq!(released_unread(s.conn()).unwrap(), vec![row]);
        assert!(of(s.conn(), row).unwrap().unwrap().released);
        s.write(|tx| crate::store::messages::set_state(tx, row, "done", "read"))
            .unwrap();
        assert!(released_unread(s.conn()).unwrap().is_empty());
    }
}
