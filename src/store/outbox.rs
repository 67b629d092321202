//! The `outbox` table: every message umpire sends, queued in the
//! transaction that decided to send it, until a transport accepts it.

use super::db::{params, Connection, Dialect, OptionalExtension, Params, Transaction, Value};
use super::{ts, Result};
use chrono::{DateTime, Utc};
use std::borrow::Cow;
use std::ops::Range;

/// A composed message to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued<'a> {
    pub message_id: &'a str,
    pub game: Option<&'a str>,
    pub kind: &'a str,
    pub recipients: &'a [String],
    pub raw: &'a [u8],
    /// Large parts of `raw` kept once however many messages carry them
    /// (apart, in order; none for a message that holds a password).
    pub parts: &'a [Part],
    /// The message holds a password: its body is dropped once it is sent.
    pub secret: bool,
}

/// A large part of a queued message (a report's picture), kept once in
/// `outbox_parts` however many messages carry it (migration 24).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Where its bytes lie in [`Queued::raw`].
    pub range: Range<usize>,
    /// The SHA-256 of those bytes.
    pub digest: [u8; 32],
}

/// An outbox row due for sending.
#[derive(Debug, Clone)]
pub struct OutboxItem {
    pub id: i64,
    pub message_id: String,
    pub kind: String,
    pub recipients: Vec<String>,
    pub attempts: i64,
}

/// A message's bytes as stored: what is kept in its row, and its parts
/// with where each goes back in it.
struct Stored<'a> {
    kept: Cow<'a, [u8]>,
    /// (offset in `kept`, hex digest, bytes).
    parts: Vec<(i64, String, &'a [u8])>,
}

impl<'a> Stored<'a> {
    /// `q`'s bytes with its parts taken out. Parts out of order, out of
    /// the message or of a secret message are not taken: the bytes are
    /// then kept whole, as before parts were kept apart.
    fn of(q: &Queued<'a>) -> Self {
        let whole = Stored {
            kept: Cow::Borrowed(q.raw),
            parts: Vec::new(),
        };
        let apart = q
            .parts
            .iter()
            .try_fold(0, |end, p| (p.range.start >= end).then_some(p.range.end))
            .is_some_and(|end| end <= q.raw.len());
        if q.secret || q.parts.is_empty() || !apart {
            return whole;
        }
        let mut kept = Vec::with_capacity(q.raw.len());
        let mut parts = Vec::with_capacity(q.parts.len());
        let mut from = 0;
        for p in q.parts {
            kept.extend_from_slice(&q.raw[from..p.range.start]);
            let at = i64::try_from(kept.len()).unwrap_or(i64::MAX);
            parts.push((at, hex::encode(p.digest), &q.raw[p.range.clone()]));
            from = p.range.end;
        }
        kept.extend_from_slice(&q.raw[from..]);
        Stored {
            kept: Cow::Owned(kept),
            parts,
        }
    }

    /// Store each part not yet stored. A round's reports carry the same
    /// parts and are queued in one transaction: a part is sent to the
    /// database once in it ([`Connection::note_for_transaction`]). (A part of a message
    /// queued already stays unused: the same Message-ID queued again with
    /// a part it did not carry before.)
    fn keep_parts(&self, c: &Connection) -> Result<()> {
        for (_, hash, bytes) in &self.parts {
            if c.noted_for_transaction(PART_STORED, hash) {
                continue;
            }
            c.execute_ahead(
                "INSERT INTO outbox_parts (hash, bytes) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                params![hash, bytes],
            )?;
            c.note_for_transaction(PART_STORED, hash);
        }
        Ok(())
    }
}

/// What [`Stored::keep_parts`] notes a part stored under.
const PART_STORED: &str = "outbox part stored";

/// Queue a message; one with the same Message-ID is not queued again.
/// Returns whether it was queued now.
///
/// # Errors
/// On database errors.
pub fn queue(c: &Connection, q: &Queued<'_>, now: DateTime<Utc>) -> Result<bool> {
    let stored = Stored::of(q);
    stored.keep_parts(c)?;
    if c.dialect() == Dialect::Postgres {
        let queued = c
            .prepare_cached(&queue_at_once(&stored))?
            .query_row(queue_params(q, &stored, now), |r| r.get::<_, i64>(0))
            .optional()?;
        return Ok(queued.is_some());
    }
    let id: Option<i64> = c
        .prepare_cached(
            "INSERT INTO outbox (message_id, game_id, kind, recipients, created_at, next_attempt, secret) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6) ON CONFLICT DO NOTHING RETURNING id",
        )?
        .query_row(
            params![q.message_id, q.game, q.kind, q.recipients.join(","), ts(now), q.secret],
            |r| r.get(0),
        )
        .optional()?;
    let Some(id) = id else { return Ok(false) };
    c.prepare_cached("INSERT INTO outbox_bodies (outbox_id, raw) VALUES (?1, ?2)")?
        .execute(params![id, stored.kept.as_ref()])?;
    for (at, hash, _) in &stored.parts {
        c.prepare_cached("INSERT INTO outbox_part_uses (outbox_id, at, hash) VALUES (?1, ?2, ?3)")?
            .execute(params![id, at, hash])?;
    }
    Ok(true)
}

/// [`queue`] on PostgreSQL in one statement, the row, its bytes and its
/// parts' uses together (one round trip to the server, not three):
/// PostgreSQL's `INSERT` inside `WITH`, which SQLite has not. Uses are
/// written only for a row queued now; the statement gives its id then.
fn queue_at_once(stored: &Stored<'_>) -> String {
    let uses = if stored.parts.is_empty() {
        String::new()
    } else {
        let each: Vec<String> = (0..stored.parts.len())
            .map(|i| format!("(?{}::bigint, ?{}::text)", 8 + 2 * i, 9 + 2 * i))
            .collect();
        format!(
            ", uses AS (INSERT INTO outbox_part_uses (outbox_id, at, hash) \
             SELECT outbox_id, u.at, u.hash FROM body, (VALUES {}) AS u(at, hash))",
            each.join(", ")
        )
    };
    format!(
        "WITH queued AS (INSERT INTO outbox (message_id, game_id, kind, recipients, created_at, next_attempt, secret) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6) ON CONFLICT DO NOTHING RETURNING id), \
         body AS (INSERT INTO outbox_bodies (outbox_id, raw) SELECT id, ?7 FROM queued RETURNING outbox_id)\
         {uses} SELECT outbox_id FROM body"
    )
}

/// [`queue_at_once`]'s parameters.
fn queue_params(q: &Queued<'_>, stored: &Stored<'_>, now: DateTime<Utc>) -> Vec<Value> {
    let mut values = params![
        q.message_id,
        q.game,
        q.kind,
        q.recipients.join(","),
        ts(now),
        q.secret,
        stored.kept.as_ref()
    ]
    .values();
    for (at, hash, _) in &stored.parts {
        values.extend(params![at, hash.as_str()].values());
    }
    values
}

/// [`queue`], on PostgreSQL sent with the next statement
/// (`Connection::execute_ahead`): for a caller that does not ask whether
/// the message was queued now.
///
/// # Errors
/// On database errors (on PostgreSQL, the next statement's).
pub fn queue_ahead(c: &Connection, q: &Queued<'_>, now: DateTime<Utc>) -> Result<()> {
    if c.dialect() != Dialect::Postgres {
        return queue(c, q, now).map(|_| ());
    }
    let stored = Stored::of(q);
    stored.keep_parts(c)?;
    c.execute_ahead(&queue_at_once(&stored), queue_params(q, &stored, now))?;
    Ok(())
}

/// A row's message put together again: its kept bytes with each part's
/// bytes at its offset (`parts`: the offsets and the bytes, in any order).
fn assembled(kept: Vec<u8>, mut parts: Vec<(i64, &[u8])>) -> Vec<u8> {
    if parts.is_empty() {
        return kept;
    }
    parts.sort_by_key(|(at, _)| *at);
    let mut raw = Vec::with_capacity(kept.len() + parts.iter().map(|p| p.1.len()).sum::<usize>());
    let mut from = 0;
    for (at, bytes) in parts {
        let at = usize::try_from(at)
            .unwrap_or(usize::MAX)
            .clamp(from, kept.len());
        raw.extend_from_slice(&kept[from..at]);
        raw.extend_from_slice(bytes);
        from = at;
    }
    raw.extend_from_slice(&kept[from..]);
    raw
}

/// A row's kept bytes (at `-1`) and where each of its parts goes, by
/// digest: the parts themselves are read once for all the rows that use
/// them ([`bodies`]).
const SKELETON: &str = "SELECT -1, raw, NULL FROM outbox_bodies WHERE outbox_id = ?1 \
     UNION ALL SELECT at, NULL, hash FROM outbox_part_uses WHERE outbox_id = ?1";

/// A row's bytes (the message as sent).
///
/// # Errors
/// On database errors, or no such row.
pub fn body(c: &Connection, id: i64) -> Result<Vec<u8>> {
    Ok(bodies(c, &[id])?.remove(0))
}

/// The bytes of rows `ids` (the messages as sent), in their order: on
/// PostgreSQL two round trips for all (`Connection::query_each`), where one
/// a row was a third of a sender's exchanges (issue 43): each row's kept
/// bytes and its parts' places, then each part they use once — a round's
/// three reports carry one picture, and reading it from the server's
/// TOAST three times was most of a sender's cost there.
///
/// # Errors
/// On database errors, or a row that has none.
pub fn bodies(c: &Connection, ids: &[i64]) -> Result<Vec<Vec<u8>>> {
    let each = ids.iter().map(|&id| [id]).collect();
    let mut skeletons = Vec::with_capacity(ids.len());
    let mut digests: Vec<String> = Vec::new();
    for rows in c.query_each(SKELETON, each)? {
        let mut kept = None;
        let mut uses = Vec::new();
        for r in &rows {
            match r.get::<_, i64>(0)? {
                -1 => kept = Some(r.get::<_, Vec<u8>>(1)?),
                at => uses.push((at, r.get::<_, String>(2)?)),
            }
        }
        let kept = kept.ok_or(super::db::Error::NotFound)?;
        digests.extend(uses.iter().map(|(_, d)| d.clone()));
        skeletons.push((kept, uses));
    }
    digests.sort();
    digests.dedup();
    let each = digests.iter().map(|d| [d.as_str()]).collect();
    let mut parts = std::collections::BTreeMap::new();
    for (digest, rows) in digests
        .iter()
        .zip(c.query_each("SELECT bytes FROM outbox_parts WHERE hash = ?1", each)?)
    {
        let row = rows.first().ok_or(super::db::Error::NotFound)?;
        parts.insert(digest.as_str(), row.get::<_, Vec<u8>>(0)?);
    }
    skeletons
        .into_iter()
        .map(|(kept, uses)| {
            let placed = uses
                .iter()
                .map(|(at, d)| {
                    let bytes = parts.get(d.as_str()).ok_or(super::db::Error::NotFound)?;
                    Ok((*at, bytes.as_slice()))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(assembled(kept, placed))
        })
        .collect()
}

/// Keep only a row's headers, with `note` where its body was.
fn cut_body(c: &Connection, id: i64, note: &[u8]) -> Result<()> {
    // The head comes before any part: the kept bytes hold it whole.
    let raw: Vec<u8> = c
        .prepare_cached("SELECT raw FROM outbox_bodies WHERE outbox_id = ?1")?
        .query_row([id], |r| r.get(0))?;
    let kept = headers_only(&raw, note);
    c.prepare_cached("UPDATE outbox_bodies SET raw = ?2 WHERE outbox_id = ?1")?
        .execute(params![id, kept])?;
    c.prepare_cached("UPDATE outbox SET body_kept = 0 WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// Claim the oldest rows due for sending (at most `limit`) that no other
/// sender holds: each is leased to `owner` until `until`, so a second
/// `umpire send` (or a `run`) passes them by. A sender killed with a lease
/// held loses nothing: the lease runs out and the row is sent again, with
/// the same Message-ID. Senders on several machines sharing a PostgreSQL
/// store pass by rows another is claiming this moment (`SKIP LOCKED`)
/// instead of both taking them. In the order they were queued; their
/// bytes are read apart ([`body`]), after the claim's short commit.
///
/// # Errors
/// On database errors.
pub fn claim(
    c: &Connection,
    owner: &str,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<OutboxItem>> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut st = c.prepare_cached(
        "UPDATE outbox SET lease_owner = ?1, lease_until = ?3 WHERE id IN (\
           SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt <= ?2 \
           AND (lease_until IS NULL OR lease_until <= ?2) ORDER BY id LIMIT ?4 FOR UPDATE SKIP LOCKED) \
         RETURNING id, message_id, kind, recipients, attempts",
    )?;
    let rows = st.query_map(params![owner, ts(now), ts(until), limit], |r| {
        let recipients: String = r.get(3)?;
        Ok(OutboxItem {
            id: r.get(0)?,
            message_id: r.get(1)?,
            kind: r.get(2)?,
            recipients: recipients.split(',').map(str::to_string).collect(),
            attempts: r.get(4)?,
        })
    })?;
    let mut items: Vec<OutboxItem> = rows.collect::<super::db::Result<_>>()?;
    // RETURNING gives no order: the oldest first, as queued.
    items.sort_by_key(|i| i.id);
    Ok(items)
}

/// Rows leased and not yet run out, with their holders.
///
/// # Errors
/// On database errors.
pub fn leased(c: &Connection, now: DateTime<Utc>) -> Result<Vec<(i64, String)>> {
    let mut st = c.prepare_cached(
        "SELECT id, lease_owner FROM outbox WHERE sent_at IS NULL AND lease_until > ?1 ORDER BY id",
    )?;
    let rows = st.query_map(params![ts(now)], |r| {
        Ok((
            r.get(0)?,
            r.get::<_, Option<String>>(1)?.unwrap_or_default(),
        ))
    })?;
    Ok(rows.collect::<super::db::Result<_>>()?)
}

/// Give up a row's lease (its holder is gone).
///
/// # Errors
/// On database errors.
pub fn release(c: &Connection, id: i64) -> Result<()> {
    c.prepare_cached("UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE id = ?1")?
        .execute(params![id])?;
    Ok(())
}

/// Hold the counting of refusals to `recipient` until `tx` ends: in a
/// transaction guarded by row locks (`Store::write_with_locks`), where two
/// workers may refuse mail from one address at once (it may play several
/// games), the second waits and then counts the first's refusal
/// ([`count_to`]), as a serializable transaction would see it. A
/// transaction-long advisory lock on PostgreSQL; nothing elsewhere.
///
/// # Errors
/// On database errors.
pub fn hold_refusals_to(tx: &Transaction<'_>, recipient: &str) -> Result<()> {
    if tx.is_locking() {
        tx.prepare_cached(
            "SELECT 1 FROM (SELECT pg_advisory_xact_lock(43, hashtext(?1))) AS held",
        )?
        .query_row([recipient], |_| Ok(()))?;
    }
    Ok(())
}

/// How many messages of `kind` went to `recipient` since `since`.
///
/// # Errors
/// On database errors.
pub fn count_to(c: &Connection, kind: &str, recipient: &str, since: DateTime<Utc>) -> Result<i64> {
    Ok(c.prepare_cached(
        "SELECT COUNT(*) FROM outbox WHERE kind = ?1 AND recipients = ?2 AND created_at >= ?3",
    )?
    .query_row(params![kind, recipient, ts(since)], |r| r.get(0))?)
}

/// Record delivered rows, releasing their leases. A row that held a
/// password keeps only its headers from now on. On PostgreSQL the rows
/// are marked in one round trip (`Connection::query_each`).
///
/// # Errors
/// On database errors.
pub fn mark_sent(c: &Connection, ids: &[i64], now: DateTime<Utc>) -> Result<()> {
    let each = ids.iter().map(|&id| params![id, ts(now)]).collect();
    let marked = c.query_each(
        "UPDATE outbox SET sent_at = ?2, attempts = attempts + 1, last_error = NULL, lease_owner = NULL, lease_until = NULL \
         WHERE id = ?1 AND sent_at IS NULL RETURNING secret",
        each,
    )?;
    for (&id, rows) in ids.iter().zip(&marked) {
        // A row marked before returns nothing; only a welcome holds a
        // password, and only its body is read back.
        let Some(row) = rows.first() else { continue };
        if row.get::<_, bool>(0)? {
            cut_body(c, id, PASSWORD_NOTE)?;
        }
    }
    Ok(())
}

/// Where the body of a sent message that held a password was.
const PASSWORD_NOTE: &[u8] = b"(sent; the body held a password and is not kept)";
/// Where the body of a message sent longer ago than `keep_sent_days` was.
const AGE_NOTE: &[u8] = b"(sent; the body is no longer kept: keep_sent_days)";

/// Forget the bodies of up to `limit` messages sent before `cutoff`,
/// oldest first, keeping their headers. Returns how many were cut.
///
/// # Errors
/// On database errors.
pub fn forget_bodies(c: &Connection, cutoff: DateTime<Utc>, limit: usize) -> Result<usize> {
    let ids: Vec<i64> = c
        .prepare_cached(
            "SELECT id FROM outbox WHERE body_kept = 1 AND sent_at < ?1 ORDER BY sent_at LIMIT ?2",
        )?
        .query_map(params![ts(cutoff), limit as i64], |r| r.get(0))?
        .collect::<super::db::Result<_>>()?;
    for &id in &ids {
        cut_body(c, id, AGE_NOTE)?;
        release_parts(c, id)?;
    }
    Ok(ids.len())
}

/// Forget where a row's parts went, and each part no other row uses. (A
/// row that held a password has no parts: [`Stored::of`].)
fn release_parts(c: &Connection, id: i64) -> Result<()> {
    let mut hashes: Vec<String> = c
        .prepare_cached("DELETE FROM outbox_part_uses WHERE outbox_id = ?1 RETURNING hash")?
        .query_map([id], |r| r.get(0))?
        .collect::<super::db::Result<_>>()?;
    hashes.sort_unstable();
    hashes.dedup();
    for hash in hashes {
        c.prepare_cached(
            "DELETE FROM outbox_parts WHERE hash = ?1 \
             AND NOT EXISTS (SELECT 1 FROM outbox_part_uses WHERE hash = ?1)",
        )?
        .execute([hash])?;
    }
    Ok(())
}

/// What is kept of a sent message whose body is forgotten: its head, up to
/// and with the blank line, and `note` where the body was.
fn headers_only(raw: &[u8], note: &[u8]) -> Vec<u8> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(0, |i| i + 4);
    let mut kept = raw[..end].to_vec();
    kept.extend_from_slice(note);
    kept
}

/// Record a failed attempt and when to try again.
///
/// # Errors
/// On database errors.
pub fn mark_failed(
    c: &Connection,
    id: i64,
    error: &str,
    next_attempt: DateTime<Utc>,
) -> Result<()> {
    c.prepare_cached("UPDATE outbox SET attempts = attempts + 1, last_error = ?2, next_attempt = ?3, lease_owner = NULL, lease_until = NULL WHERE id = ?1")?
        .execute(params![id, error, ts(next_attempt)])?;
    Ok(())
}
