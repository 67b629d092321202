//! Where the post office's chance comes from: round seeds, generated
//! passwords and their salts, a campaign's secret seed (`post::password`
//! draws its passwords and salts from it).
//!
//! In service it is the operating system's randomness. A test whose mails
//! are snapshots gives a fixed stream instead ([`Entropy::fixed`]), so that
//! every seed, password and roll in what it receives is the same each run.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use std::sync::{Arc, Mutex};

/// The source of the post office's chance; carried by the configuration.
#[derive(Clone, Default)]
pub struct Entropy(Option<Arc<Mutex<ChaCha20Rng>>>);

impl Entropy {
    /// A fixed stream from `seed`: the same draws in the same order each run.
    pub fn fixed(seed: u64) -> Self {
        Entropy(Some(Arc::new(Mutex::new(ChaCha20Rng::seed_from_u64(seed)))))
    }

    /// Draw with `f` from this source.
    pub fn with<T>(&self, f: impl FnOnce(&mut dyn RngCore) -> T) -> T {
        match &self.0 {
            None => f(&mut rand::rng()),
            Some(m) => f(&mut *m.lock().unwrap_or_else(|p| p.into_inner())),
        }
    }

    /// 32 random bytes (a seed).
    pub fn seed(&self) -> [u8; 32] {
        self.with(|r| {
            let mut b = [0u8; 32];
            r.fill_bytes(&mut b);
            b
        })
    }
}

impl std::fmt::Debug for Entropy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Entropy::fixed"
        } else {
            "Entropy::os"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_source_draws_the_same_each_time_and_the_os_does_not() {
        assert_eq!(Entropy::fixed(7).seed(), Entropy::fixed(7).seed());
        assert_ne!(Entropy::fixed(7).seed(), Entropy::fixed(8).seed());
        let os = Entropy::default();
        assert_ne!(os.seed(), os.seed());
    }
}
