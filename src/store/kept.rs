//! Reads kept for the open transaction (issue 43): a message's handling
//! and a round's play read their game's row, its sides and its mail rules
//! again and again (the game's row some 15 times a game a turn), and on
//! PostgreSQL each reading is a round trip to the server.
//!
//! A statement marked [`db::Statement::kept`](super::db::Statement::kept)
//! names the table it reads; its rows are kept, by its text and its
//! parameters, until the transaction ends or a statement writes that table
//! ([`Kept::forget_written`]: any `INSERT` or `UPDATE` that names it; a
//! `DELETE`, and any text of statements such as a `ROLLBACK TO`, forget
//! everything; the schema has no triggers and no cascades, so a
//! statement writes only the tables it names). So a kept read answers what the statement would
//! answer again in that transaction: SQLite's transactions and
//! PostgreSQL's serializable ones read one snapshot, and a transaction
//! guarded by row locks (`Store::write_with_locks`) keeps only the rows of
//! the game it has locked, which no other worker writes meanwhile.
//! Outside a transaction nothing is kept.

/// The rows kept, a few at a time (a transaction reads a handful of
/// kept statements, so a list searched in order does): rows of type `R`
/// (`db::Row`) that a statement read with parameters of type `V`
/// (`db::Value`).
pub(super) struct Kept<V, R> {
    rows: Vec<Entry<V, R>>,
}

impl<V, R> Default for Kept<V, R> {
    fn default() -> Self {
        Kept { rows: Vec::new() }
    }
}

struct Entry<V, R> {
    /// The tables the statement reads.
    tables: Vec<&'static str>,
    /// The statement's text and its parameters.
    sql: String,
    values: Vec<V>,
    rows: Vec<R>,
}

impl<V: PartialEq, R: Clone> Kept<V, R> {
    /// The rows kept for `sql` with `values`, if any.
    pub(super) fn get(&self, sql: &str, values: &[V]) -> Option<Vec<R>> {
        self.rows
            .iter()
            .find(|e| e.sql == sql && e.values == values)
            .map(|e| e.rows.clone())
    }

    /// Keep `rows`, what `sql` with `values` read from `tables`.
    pub(super) fn put(&mut self, tables: &[&'static str], sql: &str, values: Vec<V>, rows: &[R]) {
        self.rows.retain(|e| !(e.sql == sql && e.values == values));
        self.rows.push(Entry {
            tables: tables.to_vec(),
            sql: sql.to_string(),
            values,
            rows: rows.to_vec(),
        });
    }

    /// Forget everything (the transaction begun, ended, or rolled back to
    /// a savepoint).
    pub(super) fn clear(&mut self) {
        self.rows.clear();
    }

    /// A statement `sql` is about to run: forget what it may change.
    pub(super) fn forget_written(&mut self, sql: &str) {
        if self.rows.is_empty() || !writes(sql) {
            return;
        }
        if sql.contains("DELETE") {
            self.rows.clear();
            return;
        }
        self.rows
            .retain(|e| !e.tables.iter().any(|table| names(sql, table)));
    }
}

/// Does `sql` write anything? (The store writes its SQL in capitals.)
fn writes(sql: &str) -> bool {
    ["INSERT", "UPDATE", "DELETE", "ALTER", "DROP", "CREATE"]
        .iter()
        .any(|w| sql.contains(w))
}

/// Does `sql` name `table` as a whole word?
fn names(sql: &str, table: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    sql.match_indices(table).any(|(at, _)| {
        let before = sql[..at].chars().next_back();
        let after = sql[at + table.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: i64) -> Vec<i64> {
        vec![v]
    }

    const READ: &str = "SELECT round FROM games WHERE id = ?1";

    #[test]
    fn a_read_is_kept_until_its_table_is_written() {
        let mut kept = Kept::default();
        let g1 = vec!["g1"];
        kept.put(&["games"], READ, g1.clone(), &row(1));
        assert_eq!(kept.get(READ, &g1), Some(row(1)));
        assert!(kept.get(READ, &["g2"]).is_none());
        // Other tables written, and reads: still kept.
        kept.forget_written("INSERT INTO league_games (game_id) VALUES (?1)");
        kept.forget_written("INSERT INTO submissions (game_id) VALUES (?1)");
        kept.forget_written("SELECT id FROM games");
        assert!(kept.get(READ, &g1).is_some());
        // A read of two tables is forgotten when either is written.
        let both = "SELECT d.side FROM sides d WHERE EXISTS (SELECT 1 FROM submissions t)";
        kept.put(&["sides", "submissions"], both, g1.clone(), &row(3));
        kept.forget_written("UPDATE sides SET timezone = ?3 WHERE game_id = ?1");
        assert!(kept.get(both, &g1).is_none());
        kept.put(&["sides", "submissions"], both, g1.clone(), &row(3));
        kept.forget_written("INSERT INTO submissions (game_id) VALUES (?1)");
        assert!(kept.get(both, &g1).is_none());
        kept.forget_written("UPDATE games SET round = ?2 WHERE id = ?1");
        assert!(kept.get(READ, &g1).is_none());
    }

    #[test]
    fn a_delete_or_a_rollback_forgets_everything() {
        let mut kept = Kept::default();
        let g1 = vec!["g1"];
        kept.put(&["games"], READ, g1.clone(), &row(1));
        kept.forget_written("DELETE FROM deferred WHERE message_id = ?1");
        assert!(kept.get(READ, &g1).is_none());
        kept.put(&["games"], READ, g1.clone(), &row(2));
        kept.clear();
        assert!(kept.get(READ, &g1).is_none());
    }
}
