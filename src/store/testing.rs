//! The stores tests run on: SQLite always, and PostgreSQL when the test
//! run names a server (`UMPIRE_TEST_POSTGRES`, a URL; `scripts/test`
//! starts a throwaway one on 127.0.0.1 and sets it). Each PostgreSQL store
//! is a fresh schema of its own on that server, so tests run in parallel
//! and never see each other's rows. Under CI (`CI=true`) a missing server
//! is an error, not a skip.

use super::{Durability, Store};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The variable naming the test server.
pub const SERVER: &str = "UMPIRE_TEST_POSTGRES";

/// The test server's URL, if the run has one.
///
/// # Panics
/// Under CI (`CI=true`) when there is none: CI always tests PostgreSQL.
pub fn server() -> Option<String> {
    match std::env::var(SERVER) {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => panic!(
            "{SERVER} is not set under CI: PostgreSQL must be tested there (scripts/test starts a server)"
        ),
        _ => None,
    }
}

/// A URL for a fresh, empty schema of its own on the test server (its
/// connections find their tables there first), if the run has a server.
///
/// # Panics
/// When the server named cannot be reached or refuses the schema.
pub fn fresh_postgres() -> Option<String> {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let url = server()?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let schema = format!(
        "umpire_test_{}_{}_{nanos}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    );
    let admin = super::db::Connection::open_postgres(&url).unwrap_or_else(|e| {
        panic!(
            "cannot reach the test PostgreSQL at {}: {e}",
            super::db::redact(&url)
        )
    });
    admin
        .execute_batch(&format!("CREATE SCHEMA {schema}"))
        .unwrap_or_else(|e| panic!("cannot make the schema {schema}: {e}"));
    let sep = if url.contains('?') { '&' } else { '?' };
    Some(format!("{url}{sep}options=-c%20search_path%3D{schema}"))
}

/// A fresh PostgreSQL store when the run has a server, for a test of
/// what PostgreSQL alone does (its plans, its counts).
///
/// # Panics
/// When the store cannot be opened.
pub fn postgres() -> Option<Store> {
    let url = fresh_postgres()?;
    Some(
        Store::open_postgres(&url, Durability::Off)
            .unwrap_or_else(|e| panic!("cannot open the test PostgreSQL store: {e}")),
    )
}

/// Every store a store test runs on, each fresh and migrated, named for
/// the test's messages: SQLite in memory, and PostgreSQL when the run
/// has a server.
///
/// # Panics
/// When a store cannot be opened.
pub fn stores() -> Vec<(&'static str, Store)> {
    let mut out = vec![("sqlite", Store::open_in_memory().expect("SQLite in memory"))];
    if let Some(store) = postgres() {
        out.push(("postgres", store));
    }
    out
}
