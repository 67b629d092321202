//! The `password_verifiers` table: a keyed verifier of each password
//! proven right, found by the hash it was proven against
//! (`post::password::verify_kept`). The key is not in the database
//! (`password_key`).

use super::db::{params, Connection, OptionalExtension};
use super::Result;

/// The verifier kept for a password hash.
///
/// # Errors
/// On database errors.
pub fn get(c: &Connection, hash: &str) -> Result<Option<String>> {
    Ok(
        c.prepare_cached("SELECT verifier FROM password_verifiers WHERE hash = ?1")?
            .query_row([hash], |r| r.get(0))
            .optional()?,
    )
}

/// Keep `verifier` for `hash`, in place of any kept before.
///
/// # Errors
/// On database errors.
pub fn put(c: &Connection, hash: &str, verifier: &str) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO password_verifiers (hash, verifier) VALUES (?1, ?2) \
         ON CONFLICT (hash) DO UPDATE SET verifier = excluded.verifier",
    )?
    .execute(params![hash, verifier])?;
    Ok(())
}
