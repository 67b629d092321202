//! Player and moderator passwords: generated for new players, stored only
//! as Argon2id hashes in PHC strings (`$argon2id$v=19$m=…`), compared in
//! constant time by the argon2 crate. Hashes made by earlier versions
//! (PBKDF2-SHA256) still verify, and [`needs_upgrade`] says to rehash them.
//!
//! [`verify_kept`] pays for Argon2 once per password, not once per process
//! (issue 43): a match Argon2 proved leaves a keyed verifier in the store
//! (HMAC-SHA256 under a key kept outside the database,
//! `store::password_key`), which answers for that hash and password from
//! then on, after a restart too.

use crate::config::Config;
use crate::entropy::Entropy;
use crate::store::password_key::Key;
use crate::store::{self, Connection, StoreError};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use pbkdf2::pbkdf2_hmac;
use rand::Rng;
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// Letters that cannot be misread in a mail client's font.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// A fresh password of 10 unambiguous characters.
pub fn generate(rng: &mut impl Rng) -> String {
    (0..10)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Hash `password` with a random salt, as the PHC string stored in the
/// database (Argon2id with the crate's default, OWASP-recommended, costs).
pub fn hash(password: &str, rng: &mut impl Rng) -> String {
    let salt_bytes: [u8; 16] = rng.random();
    let hashed = SaltString::encode_b64(&salt_bytes)
        .map_err(|e| e.to_string())
        .and_then(|salt| {
            Argon2::default()
                .hash_password(normalise(password).as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| e.to_string())
        });
    match hashed {
        Ok(h) => h,
        // Sixteen bytes always encode and Argon2's defaults always hash: a
        // failure here is a bug, and a hash that matches nothing is safe.
        Err(e) => {
            tracing::error!(error = %e, "password hashing failed");
            "!".into()
        }
    }
}

/// A fresh password drawn from `entropy` (the system's, or a test's fixed stream).
pub fn fresh(entropy: &Entropy) -> String {
    entropy.with(|mut r| generate(&mut r))
}

/// `password`'s hash, with a fresh salt drawn from `entropy`.
pub fn hash_from(entropy: &Entropy, password: &str) -> String {
    entropy.with(|mut r| hash(password, &mut r))
}

/// `password`'s hash with a fresh salt (as [`hash_from`]), and, with the
/// installation's verifier key, its verifier kept ([`verify_kept`]): not
/// even the first check of a new password pays for Argon2.
///
/// # Errors
/// On database errors.
pub fn hash_kept(c: &Connection, config: &Config, password: &str) -> Result<String, StoreError> {
    let hashed = hash_from(&config.entropy, password);
    if let Some(key) = &config.password_key {
        store::verifiers::put(c, &hashed, &keyed(key, &hashed, password))?;
    }
    Ok(hashed)
}

/// Passwords are compared as typed, less surrounding space and quotes that
/// mail clients add ("dragon7" typed with smart quotes).
fn normalise(password: &str) -> &str {
    password
        .trim()
        .trim_matches(['"', '\'', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}'])
}

/// Is `stored` a hash of an earlier version, to be replaced by [`hash`]
/// once the password is known to be right?
pub fn needs_upgrade(stored: &str) -> bool {
    !stored.starts_with("$argon2")
}

/// Does `password` match the stored hash? A damaged hash matches nothing.
///
/// Matches already proven in this process are remembered (keyed by a
/// SHA-256 of the pair, kept in memory only, never the password itself), so
/// a service reading a mailbox full of one club's orders pays for Argon2
/// once per player.
pub fn verify(password: &str, stored: &str) -> bool {
    use sha2::Digest;
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static PROVEN: OnceLock<Mutex<HashSet<[u8; 32]>>> = OnceLock::new();
    let key: [u8; 32] = Sha256::new()
        .chain_update(stored.as_bytes())
        .chain_update([0])
        .chain_update(normalise(password).as_bytes())
        .finalize()
        .into();
    let proven = PROVEN.get_or_init(|| Mutex::new(HashSet::new()));
    if proven.lock().is_ok_and(|set| set.contains(&key)) {
        return true;
    }
    let ok = verify_uncached(password, stored);
    if ok {
        if let Ok(mut set) = proven.lock() {
            set.insert(key);
        }
    }
    ok
}

/// Does `password` match the stored hash, as [`verify`] says, with Argon2
/// paid once per password rather than once per process: with the
/// installation's verifier `key`, a match Argon2 proved leaves a keyed
/// verifier in the store ([`keyed`]), and a later check of the same
/// password against the same hash (after a restart too) is answered by
/// it. Argon2 stays the authority: a verifier answers only for the hash it
/// was made with, so a changed password has none until Argon2 proves it;
/// one made with another key (a key file lost) matches nothing, and
/// Argon2 answers and leaves a new one. Without a key every check is
/// [`verify`]'s.
///
/// # Errors
/// On database errors.
pub fn verify_kept(
    c: &Connection,
    key: Option<&Key>,
    password: &str,
    stored: &str,
) -> Result<bool, StoreError> {
    let Some(key) = key else {
        return Ok(verify(password, stored));
    };
    let mine = keyed(key, stored, password);
    let kept = store::verifiers::get(c, stored)?;
    if kept.is_some_and(|kept| bool::from(kept.as_bytes().ct_eq(mine.as_bytes()))) {
        return Ok(true);
    }
    let right = verify_uncached(password, stored);
    // An old hash is replaced at once: no verifier for it.
    if right && !needs_upgrade(stored) {
        store::verifiers::put(c, stored, &mine)?;
    }
    Ok(right)
}

/// The keyed verifier of `password` for the hash `stored`: HMAC-SHA256 of
/// both under `key`, in hex. Made with the hash, so that it answers for
/// that hash alone; under a key the database does not hold, so that a
/// copy of the database gives no faster way to try passwords than Argon2.
fn keyed(key: &Key, stored: &str, password: &str) -> String {
    use hmac::{Hmac, Mac};
    let mut mac =
        <Hmac<Sha256> as Mac>::new_from_slice(key.bytes()).expect("HMAC takes a key of any length");
    mac.update(b"umpire password verifier 1\0");
    mac.update(stored.as_bytes());
    mac.update(&[0]);
    mac.update(normalise(password).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

thread_local! {
    /// Passwords this thread verified the slow way ([`slow_verifications`]).
    static SLOW: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many passwords this thread has verified the slow way (Argon2, or
/// PBKDF2 for an old hash): for tests and benchmarks that a verifier
/// spared it.
pub fn slow_verifications() -> u64 {
    SLOW.with(std::cell::Cell::get)
}

fn verify_uncached(password: &str, stored: &str) -> bool {
    SLOW.with(|n| n.set(n.get() + 1));
    if stored.starts_with("$argon2") {
        return PasswordHash::new(stored).is_ok_and(|h| {
            Argon2::default()
                .verify_password(normalise(password).as_bytes(), &h)
                .is_ok()
        });
    }
    verify_pbkdf2(password, stored)
}

/// The hashes of umpire before Argon2: `pbkdf2-sha256$ROUNDS$SALT$HASH`.
fn verify_pbkdf2(password: &str, stored: &str) -> bool {
    let mut parts = stored.split('$');
    let (Some("pbkdf2-sha256"), Some(rounds), Some(salt), Some(expected), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return false;
    };
    let (Ok(rounds), Ok(salt), Ok(expected)) = (
        rounds.parse::<u32>(),
        hex::decode(salt),
        hex::decode(expected),
    ) else {
        return false;
    };
    if !(1..=10_000_000).contains(&rounds) {
        return false;
    }
    let mut out = [0u8; 32];
    pbkdf2_hmac::<Sha256>(normalise(password).as_bytes(), &salt, rounds, &mut out);
    out.ct_eq(expected.as_slice()).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn hashes_verify_only_the_right_password() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let pw = generate(&mut rng);
        assert_eq!(pw.len(), 10);
        let h = hash(&pw, &mut rng);
        assert!(h.starts_with("$argon2id$v=19$"), "{h}");
        assert!(!h.contains(&pw));
        assert!(verify(&pw, &h));
        assert!(verify(&format!(" \u{201c}{pw}\u{201d} "), &h));
        assert!(!verify("dragon7", &h));
        assert!(!verify(&pw, "garbage"));
        assert!(!verify(&pw, "$argon2id$v=19$m=19456,t=2,p=1$AAAA$AAAA"));
        assert!(!needs_upgrade(&h));
    }

    fn key(byte: u8) -> Key {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k");
        std::fs::write(&path, hex::encode([byte; 32])).unwrap();
        store::password_key::load_or_make(&path).unwrap()
    }

    /// Whether `password` matches `stored` by [`verify_kept`], and how
    /// many slow verifications that took.
    fn kept(s: &store::Store, key: Option<&Key>, password: &str, stored: &str) -> (bool, u64) {
        let before = slow_verifications();
        let right = verify_kept(s.conn(), key, password, stored).unwrap();
        (right, slow_verifications() - before)
    }

    #[test]
    fn a_kept_verifier_spares_argon2_and_answers_for_its_hash_alone() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        let k = key(7);
        for (name, s) in store::testing::stores() {
            let h = hash("dragon7", &mut rng);
            assert_eq!(
                kept(&s, Some(&k), "dragon7", &h),
                (true, 1),
                "{name}: Argon2 proves it"
            );
            assert_eq!(
                kept(&s, Some(&k), " dragon7 ", &h),
                (true, 0),
                "{name}: the verifier"
            );
            assert_eq!(
                kept(&s, Some(&k), "dragon8", &h),
                (false, 1),
                "{name}: wrong"
            );
            // A new password is a new hash: Argon2 again, and the old
            // password's verifier does not answer for it.
            let changed = hash("serpent3", &mut rng);
            assert_eq!(
                kept(&s, Some(&k), "dragon7", &changed),
                (false, 1),
                "{name}"
            );
            assert_eq!(
                kept(&s, Some(&k), "serpent3", &changed),
                (true, 1),
                "{name}"
            );
            assert_eq!(
                kept(&s, Some(&k), "serpent3", &changed),
                (true, 0),
                "{name}"
            );
            // Another key (a key file lost and made anew): Argon2 answers.
            assert_eq!(kept(&s, Some(&key(8)), "dragon7", &h), (true, 1), "{name}");
            assert_eq!(kept(&s, Some(&key(8)), "dragon7", &h), (true, 0), "{name}");
            // No key: verify, as before.
            let fresh = hash("lotus4", &mut rng);
            assert_eq!(kept(&s, None, "lotus4", &fresh), (true, 1), "{name}");
            assert_eq!(kept(&s, None, "lotus5", &fresh), (false, 1), "{name}");
        }
    }

    #[test]
    fn a_verifier_holds_neither_the_password_nor_the_key() {
        let k = key(7);
        let v = keyed(
            &k,
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
            "dragon7",
        );
        assert_eq!(v.len(), 64);
        assert!(!v.contains("dragon7") && !v.contains(&hex::encode(k.bytes())));
        assert_ne!(
            v,
            keyed(
                &key(8),
                "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
                "dragon7"
            )
        );
    }

    #[test]
    fn earlier_pbkdf2_hashes_still_verify_and_ask_to_be_upgraded() {
        // Made by umpire 0.1's password::hash("dragon7") with 2,000 rounds.
        let salt = [7u8; 16];
        let mut out = [0u8; 32];
        pbkdf2_hmac::<Sha256>(b"dragon7", &salt, 2_000, &mut out);
        let old = format!(
            "pbkdf2-sha256$2000${}${}",
            hex::encode(salt),
            hex::encode(out)
        );
        assert!(verify("dragon7", &old));
        assert!(!verify("dragon8", &old));
        assert!(needs_upgrade(&old));
        assert!(!verify("dragon7", "pbkdf2-sha256$x$00$00"));
        assert!(
            !verify("dragon7", "pbkdf2-sha256$0$00$00"),
            "rounds are bounded"
        );
    }
}
