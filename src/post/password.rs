//! Player and moderator passwords: generated for new players, stored only
//! as salted PBKDF2-SHA256 hashes, compared in constant time.

use pbkdf2::pbkdf2_hmac;
use rand::Rng;
use sha2::Sha256;

/// PBKDF2 rounds. Low enough that ingest keeps its 1,000 messages/s target
/// (each message checks one password), high enough that a stolen database
/// is not a list of passwords.
const ROUNDS: u32 = 2_000;

/// Letters that cannot be misread in a mail client's font.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// A fresh password of 10 unambiguous characters.
pub fn generate(rng: &mut impl Rng) -> String {
    (0..10)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Hash `password` with a random salt, in the form stored in the database.
pub fn hash(password: &str, rng: &mut impl Rng) -> String {
    let salt: [u8; 16] = rng.random();
    encode(password, &salt, ROUNDS)
}

fn encode(password: &str, salt: &[u8], rounds: u32) -> String {
    let mut out = [0u8; 32];
    pbkdf2_hmac::<Sha256>(normalise(password).as_bytes(), salt, rounds, &mut out);
    format!("pbkdf2-sha256${rounds}${}${}", hex::encode(salt), hex::encode(out))
}

/// Passwords are compared as typed, less surrounding space and quotes that
/// mail clients add ("dragon7" typed with smart quotes).
fn normalise(password: &str) -> &str {
    password.trim().trim_matches(['"', '\'', '\u{201c}', '\u{201d}', '\u{2018}', '\u{2019}'])
}

/// Does `password` match the stored hash? A damaged hash matches nothing.
///
/// Matches already proven in this process are remembered (keyed by a
/// SHA-256 of the pair, never the password itself), so a service reading a
/// mailbox full of one club's orders pays for PBKDF2 once per player.
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

fn verify_uncached(password: &str, stored: &str) -> bool {
    let mut parts = stored.split('$');
    let (Some("pbkdf2-sha256"), Some(rounds), Some(salt), Some(expected), None) =
        (parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Ok(rounds), Ok(salt)) = (rounds.parse::<u32>(), hex::decode(salt)) else {
        return false;
    };
    let computed = encode(password, &salt, rounds);
    let computed = computed.rsplit('$').next().unwrap_or_default();
    // Constant-time comparison: no early exit on the first differing byte.
    computed.len() == expected.len()
        && computed
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
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
        assert!(!h.contains(&pw));
        assert!(verify(&pw, &h));
        assert!(verify(&format!(" \u{201c}{pw}\u{201d} "), &h));
        assert!(!verify("dragon7", &h));
        assert!(!verify(&pw, "garbage"));
        assert!(!verify(&pw, "pbkdf2-sha256$x$00$00"));
    }
}
