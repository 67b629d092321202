//! The rules' identity: which rules a turn was played under.
//!
//! A stored turn replays to the same events only under the same rules. The
//! [`RulesIdentity`] of a game names them: the crate version, the engine's
//! revision (counted up by every change of engine behaviour, such as a
//! rules fix), a hash of the rules data (the typed tables of the rules
//! module as compiled in, the national lists and the magic users of
//! Appendix I and II) and a hash of the game's options. The post office
//! stores it with every turn; `umpire verify` compares it with its own
//! before replaying, and says which part differs instead of reporting a
//! mismatch of events.
//!
//! ```
//! use umpire::games::hyborian::identity::identity;
//! use umpire::games::hyborian::rules::options::GameOptions;
//! let a = identity(&GameOptions::default());
//! assert_eq!(a, identity(&GameOptions::default()));
//! let each_phase: GameOptions = toml::from_str("archery = \"each-phase\"").unwrap();
//! let b = identity(&each_phase);
//! assert_eq!(a.rules_hash, b.rules_hash);
//! assert_ne!(a.options_hash, b.options_hash);
//! assert!(a.differences(&b).iter().any(|d| d.starts_with("options")));
//! ```

use crate::games::hyborian::rules::options::GameOptions;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The engine's revision: raised by one with every change that can change
/// the events of a stored turn (a rules fix, a new ruling, a new default).
/// Revision 2: issue 17 (terrain charges, evaders, pass-through fire,
/// falling back through gaps, backfires, the normal die, overlaps, rivers).
pub const ENGINE_REVISION: u32 = 2;

/// The source of the rules module: every number from the book lives here
/// (the project's standard), so a changed number changes the identity.
const RULES_SOURCES: [(&str, &str); 10] = [
    ("bases.rs", include_str!("rules/bases.rs")),
    ("fire.rs", include_str!("rules/fire.rs")),
    ("magic.rs", include_str!("rules/magic.rs")),
    ("melee.rs", include_str!("rules/melee.rs")),
    ("missile.rs", include_str!("rules/missile.rs")),
    ("mod.rs", include_str!("rules/mod.rs")),
    ("morale.rs", include_str!("rules/morale.rs")),
    ("movement.rs", include_str!("rules/movement.rs")),
    ("options.rs", include_str!("rules/options.rs")),
    ("points.rs", include_str!("rules/points.rs")),
];

/// Which rules a game's turns are played under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesIdentity {
    /// `hyborian-age`.
    pub ruleset: String,
    /// The umpire crate's version (`CARGO_PKG_VERSION`).
    pub crate_version: String,
    /// [`ENGINE_REVISION`] when the turn was played.
    pub engine_revision: u32,
    /// SHA-256 (hex) of the rules module and the army data.
    pub rules_hash: String,
    /// SHA-256 (hex) of the game's options in canonical JSON.
    pub options_hash: String,
}

impl RulesIdentity {
    /// One line for reports and logs:
    /// `hyborian-age 0.1.0 r2 rules 1a2b3c4d5e6f options 6f5e4d3c2b1a`.
    pub fn summary(&self) -> String {
        format!(
            "{} {} r{} rules {} options {}",
            self.ruleset,
            self.crate_version,
            self.engine_revision,
            &self.rules_hash[..12.min(self.rules_hash.len())],
            &self.options_hash[..12.min(self.options_hash.len())]
        )
    }

    /// What differs from `other`, in words (empty when the rules are the same).
    pub fn differences(&self, other: &RulesIdentity) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, a: &str, b: &str| {
            if a != b {
                out.push(format!("{what}: {a} here, {b} there"));
            }
        };
        differ("rule set", &self.ruleset, &other.ruleset);
        differ("crate version", &self.crate_version, &other.crate_version);
        differ(
            "engine revision",
            &self.engine_revision.to_string(),
            &other.engine_revision.to_string(),
        );
        differ("rules data", &self.rules_hash, &other.rules_hash);
        differ("options", &self.options_hash, &other.options_hash);
        out
    }
}

fn hex(digest: impl AsRef<[u8]>) -> String {
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of named texts, each framed by its name and length so no two
/// sets of texts hash alike by running together.
fn hash_texts<'a>(label: &str, texts: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut h = Sha256::new();
    h.update(label.as_bytes());
    for (name, text) in texts {
        h.update(format!("\n{name} {}\n", text.len()).as_bytes());
        h.update(text.as_bytes());
    }
    hex(h.finalize())
}

/// The hash of the rules data compiled into this build.
pub fn rules_hash() -> String {
    let rules = RULES_SOURCES.iter().map(|(n, t)| (*n, *t));
    hash_texts(
        "umpire hyborian-age rules data",
        rules.chain(crate::games::hyborian::army::data_files()),
    )
}

/// The hash of a game's options: their canonical JSON (every option named,
/// in the struct's order, defaults included).
pub fn options_hash(options: &GameOptions) -> String {
    let json = serde_json::to_string(options).unwrap_or_default();
    hash_texts(
        "umpire hyborian-age options",
        std::iter::once(("options", json.as_str())),
    )
}

/// The rules' identity for a game played with `options` by this build.
pub fn identity(options: &GameOptions) -> RulesIdentity {
    RulesIdentity {
        ruleset: crate::games::hyborian::RULESET.to_string(),
        crate_version: env!("CARGO_PKG_VERSION").to_string(),
        engine_revision: ENGINE_REVISION,
        rules_hash: rules_hash(),
        options_hash: options_hash(options),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_stable_hex_and_framed() {
        let a = identity(&GameOptions::default());
        assert_eq!(a.rules_hash.len(), 64);
        assert!(a.rules_hash.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(a.crate_version, env!("CARGO_PKG_VERSION"));
        // Framing: moving a character from one text to the next changes the hash.
        let x = hash_texts("l", [("a", "xy"), ("b", "z")].into_iter());
        let y = hash_texts("l", [("a", "x"), ("b", "yz")].into_iter());
        assert_ne!(x, y);
        assert!(a.summary().starts_with("hyborian-age "), "{}", a.summary());
    }

    #[test]
    fn every_option_counts() {
        let base = options_hash(&GameOptions::default());
        for text in [
            "clock = \"proportional\"",
            "figure_rounding = \"down\"",
            "nearby_enemies_test = true",
        ] {
            let o: GameOptions = toml::from_str(text).unwrap();
            assert_ne!(options_hash(&o), base, "{text}");
        }
        let same = identity(&GameOptions::default());
        assert!(same
            .differences(&identity(&GameOptions::default()))
            .is_empty());
        let mut other = same.clone();
        other.engine_revision += 1;
        assert_eq!(
            same.differences(&other),
            vec![format!(
                "engine revision: {} here, {} there",
                ENGINE_REVISION,
                ENGINE_REVISION + 1
            )]
        );
    }
}
