//! The boundary around each message and each game: whatever goes wrong
//! inside — an error, a panic — stays with that message or game. A fault
//! of the machine (the database busy or its disk full) leaves the work to
//! be done again on the next run; anything else marks it failed, with the
//! reason, for the moderator and `umpire doctor`, and umpire goes on with
//! the rest.

use super::PostError;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What became of guarded work.
#[derive(Debug)]
pub enum Guarded<T> {
    Done(T),
    /// The machine could not do it now (busy, disk full): try again later.
    Later(PostError),
    /// It cannot be done as things are: an error or a panic, in words.
    Failed(String),
}

/// Is this an error of the machine rather than of the work?
pub fn is_transient(e: &PostError) -> bool {
    match e {
        PostError::Sql(s) | PostError::Store(crate::store::StoreError::Sql(s)) => s.is_transient(),
        _ => false,
    }
}

/// Is this work a transaction guarded by row locks began and a
/// serializable one must do (`store::db::Error::Serializable`)?
pub fn wants_serializable(e: &PostError) -> bool {
    match e {
        PostError::Sql(s) | PostError::Store(crate::store::StoreError::Sql(s)) => {
            s.wants_serializable()
        }
        _ => false,
    }
}

/// Run `work`, turning a panic or an error into a [`Guarded`] outcome.
pub fn guard<T>(work: impl FnOnce() -> Result<T, PostError>) -> Guarded<T> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(Ok(v)) => Guarded::Done(v),
        Ok(Err(e)) if is_transient(&e) => Guarded::Later(e),
        Ok(Err(e)) => Guarded::Failed(e.to_string()),
        Err(panic) => Guarded::Failed(format!(
            "umpire stopped on it (a bug): {}",
            panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into())
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_and_errors_become_outcomes() {
        assert!(matches!(guard(|| Ok(3)), Guarded::Done(3)));
        let Guarded::Failed(why) = guard::<()>(|| panic!("byte index 2 is not a char boundary"))
        else {
            panic!()
        };
        assert!(why.contains("char boundary"), "{why}");
        assert!(matches!(
            guard::<()>(|| Err(PostError::Corrupt("x".into()))),
            Guarded::Failed(_)
        ));
        let busy = rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(5), None);
        assert!(matches!(
            guard::<()>(|| Err(PostError::Sql(busy.into()))),
            Guarded::Later(_)
        ));
    }
}
