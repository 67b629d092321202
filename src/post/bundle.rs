//! The verification bundle: everything a player needs to replay a released
//! round on their own copy of umpire, with no database and no
//! configuration (`umpire verify --bundle FILE`, ruling P21).
//!
//! A [`Bundle`] is one JSON file (`"bundle": 1`) holding the game, its rule
//! set, options and scenario, and for each round it covers
//! ([`BundleRound`]) the rules it was played under, the table before, every
//! side's orders (revealed after the round), the revealed seed with the
//! hash published before the round, the moderator's dice, and the events
//! and table after as reported. A released report carries the bundle of its
//! round, with the rounds reported to the game master alone on the way to
//! it (FR! Ancients), so every die of the report can be checked.
//!
//! [`Bundle::read`] is where a bundle from outside enters: it bounds the
//! size ([`MAX_BYTES`], [`MAX_ROUNDS`]), and refuses garbage, a truncated
//! file, wrong types, another format and a seed that does not match its
//! hash with a [`BundleError`] that says why in one line (quoting the JSON
//! line and pointing at the column where it can).
//!
//! ```
//! use umpire::post::bundle::{Bundle, BundleError};
//! assert!(matches!(Bundle::read(b"{\"bundle\": 2}"), Err(BundleError::Format { found: 2 })));
//! assert!(matches!(Bundle::read(b"GAME ford"), Err(BundleError::NotJson { .. })));
//! ```

use super::game::Game;
use super::PostError;
use crate::games::Json;
use crate::store::{rounds, Transaction};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The bundle format this build writes and reads.
pub const FORMAT: u32 = 1;

/// The largest bundle read (the demo games' are 10 KB to 233 KB).
pub const MAX_BYTES: usize = 4 << 20;

/// The most rounds one bundle may hold (a released round and the
/// game-master rounds on the way to it).
pub const MAX_ROUNDS: usize = 64;

/// A released round, ready to be replayed anywhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    /// The format, [`FORMAT`].
    pub bundle: u32,
    pub game: String,
    pub title: String,
    /// The rule set's name (`hyborian-age`).
    pub ruleset: String,
    /// The game's options (house rules), as the rule set stores them.
    pub options: Json,
    /// The scenario the game was created from, as stored (the rule set
    /// reads its victory conditions from it).
    pub setup: String,
    /// The game's last turn (the game file's limit, after any roll).
    pub last_turn: u32,
    /// The rounds, in the order they were played.
    pub rounds: Vec<BundleRound>,
}

/// One round of a bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleRound {
    /// The round's number, as in `TURN n`.
    pub round: u32,
    /// The round as players call it ("turn 3").
    pub label: String,
    /// The rules' identity it was played under (`Ruleset::version`); empty
    /// for a round stored by a build that kept none.
    pub rules: String,
    /// The seed, revealed with the report.
    pub seed: String,
    /// Its SHA-256, published before the round.
    pub seed_hash: String,
    /// The dice the moderator gave (`DICE key value`), by key.
    pub moderator_dice: BTreeMap<String, u8>,
    /// The table before the round; absent (`null`) in a round after the
    /// first when it is the table after the round before it in the bundle
    /// (a chain of game-master rounds would otherwise hold each table twice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Json>,
    /// Each side's orders as checked, by side; a side that sent none is absent.
    pub orders: BTreeMap<String, Json>,
    /// The events as reported.
    pub events: Json,
    /// The table after the round as reported.
    pub after: Json,
}

/// Why a bundle was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BundleError {
    /// Larger than [`MAX_BYTES`].
    #[error("the file is {bytes} bytes, more than a verification bundle can be ({limit} bytes): it is not one umpire wrote")]
    TooBig { bytes: usize, limit: usize },
    /// Not text.
    #[error("the file is not text (invalid UTF-8 at byte {at}): save the attachment as it came, not a page that shows it")]
    NotText { at: usize },
    /// Not JSON, or cut short: `quote` is the line, `caret` points at the column.
    #[error("line {line}, column {column}: {why}\n  | {quote}\n  | {caret}\nA verification bundle is the JSON file umpire attached to the report (umpire-verify-GAME-TURN.json); save it whole.")]
    NotJson {
        line: usize,
        column: usize,
        why: String,
        quote: String,
        caret: String,
    },
    /// JSON without a `"bundle"` format number.
    #[error("this JSON is not a verification bundle: it has no \"bundle\" format number (umpire writes {{\"bundle\": 1, …}})")]
    NotABundle,
    /// A format this build does not read.
    #[error("this bundle is format {found}; this umpire reads format 1: use the umpire version the report names")]
    Format { found: u64 },
    /// A bundle whose fields are not what format 1 holds.
    #[error("line {line}, column {column}: {why}\n  | {quote}\n  | {caret}\nThe bundle has been changed or damaged; save the attachment again.")]
    Shape {
        line: usize,
        column: usize,
        why: String,
        quote: String,
        caret: String,
    },
    /// More rounds than [`MAX_ROUNDS`], or none.
    #[error("the bundle holds {count} rounds; one holds 1 to {limit}")]
    Rounds { count: usize, limit: usize },
    /// A first round without the table before it.
    #[error("round {round}: the bundle's first round has no table before it (\"before\")")]
    NoTable { round: u32 },
    /// A rule set this build does not judge.
    #[error("the bundle's rule set '{name}' is not one this umpire judges ({known})")]
    Ruleset { name: String, known: String },
    /// A seed that is not 64 hexadecimal digits.
    #[error("round {round}: the seed '{seed}' is not 64 hexadecimal digits")]
    Seed { round: u32, seed: String },
    /// A seed whose SHA-256 is not the hash published before the round.
    #[error("round {round}: the seed's SHA-256 is {computed}, not the hash published before the round ({published}): these are not the dice umpire committed to, so there is nothing to replay")]
    Hash {
        round: u32,
        computed: String,
        published: String,
    },
    /// The rule set could not play the bundle's round (its table or orders
    /// are not ones umpire wrote).
    #[error("round {round}: the rule set cannot play this bundle's round: {why}")]
    Unplayable { round: u32, why: String },
}

impl BundleError {
    /// The JSON error at its line and column, the line quoted.
    fn located(text: &str, e: &serde_json::Error, shape: bool) -> Self {
        let (line, column) = (e.line(), e.column());
        let full = text.lines().nth(line.saturating_sub(1)).unwrap_or("");
        let (quote, caret) = excerpt(full, column);
        let why = e.to_string();
        // serde_json adds " at line L column C": the location is given apart.
        let why = why
            .rsplit_once(" at line ")
            .map_or(why.as_str(), |(w, _)| w)
            .to_string();
        if shape {
            BundleError::Shape {
                line,
                column,
                why,
                quote,
                caret,
            }
        } else {
            BundleError::NotJson {
                line,
                column,
                why,
                quote,
                caret,
            }
        }
    }
}

/// At most 60 characters of `line` around `column` (1-based, in
/// characters as serde_json counts bytes: close enough for a caret), and
/// a caret under the column.
fn excerpt(line: &str, column: usize) -> (String, String) {
    let chars: Vec<char> = line.chars().collect();
    let at = column.saturating_sub(1).min(chars.len());
    let start = at.saturating_sub(40);
    let end = (start + 60).min(chars.len());
    let mut quote: String = chars[start..end]
        .iter()
        .map(|c| if c.is_control() { ' ' } else { *c })
        .collect();
    let mut pad = at - start;
    if start > 0 {
        quote.insert(0, '…');
        pad += 1;
    }
    if end < chars.len() {
        quote.push('…');
    }
    (quote, format!("{}^", " ".repeat(pad)))
}

impl Bundle {
    /// Read a bundle from outside, refusing what umpire did not write.
    ///
    /// # Errors
    /// A file too big, not text, not JSON or cut short, another format,
    /// fields of the wrong type, a rule set umpire does not judge, too many
    /// rounds, or a seed that is not the one its hash committed to.
    pub fn read(bytes: &[u8]) -> Result<Bundle, BundleError> {
        if bytes.len() > MAX_BYTES {
            return Err(BundleError::TooBig {
                bytes: bytes.len(),
                limit: MAX_BYTES,
            });
        }
        let text = std::str::from_utf8(bytes).map_err(|e| BundleError::NotText {
            at: e.valid_up_to(),
        })?;
        let value: Json =
            serde_json::from_str(text).map_err(|e| BundleError::located(text, &e, false))?;
        match value.get("bundle").map(Json::as_u64) {
            None => return Err(BundleError::NotABundle),
            Some(Some(n)) if n != u64::from(FORMAT) => {
                return Err(BundleError::Format { found: n })
            }
            _ => {}
        }
        let bundle: Bundle =
            serde_json::from_str(text).map_err(|e| BundleError::located(text, &e, true))?;
        if bundle.rounds.is_empty() || bundle.rounds.len() > MAX_ROUNDS {
            return Err(BundleError::Rounds {
                count: bundle.rounds.len(),
                limit: MAX_ROUNDS,
            });
        }
        if bundle.rounds[0].before.is_none() {
            return Err(BundleError::NoTable {
                round: bundle.rounds[0].round,
            });
        }
        if crate::games::ruleset(&bundle.ruleset).is_none() {
            let known: Vec<&str> = crate::games::all().iter().map(|r| r.name()).collect();
            return Err(BundleError::Ruleset {
                name: bundle.ruleset.chars().take(40).collect(),
                known: known.join(", "),
            });
        }
        for r in &bundle.rounds {
            if r.seed.len() != 64 || !r.seed.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(BundleError::Seed {
                    round: r.round,
                    seed: r.seed.chars().take(70).collect(),
                });
            }
            let computed = crate::dice::seed_hash(&r.seed);
            if computed != r.seed_hash {
                return Err(BundleError::Hash {
                    round: r.round,
                    computed,
                    published: r.seed_hash.chars().take(70).collect(),
                });
            }
        }
        Ok(bundle)
    }

    /// The bundle as the file attached to a report: compact JSON (pretty
    /// printing doubled the size of the deeply nested tables; `umpire
    /// verify --bundle` prints what a player needs to read).
    ///
    /// # Errors
    /// Never in practice (every value is JSON already).
    pub fn to_bytes(&self) -> Result<Vec<u8>, PostError> {
        let mut bytes = serde_json::to_vec(self).map_err(|e| PostError::Corrupt(e.to_string()))?;
        bytes.push(b'\n');
        Ok(bytes)
    }

    /// The table before round `i` of the bundle: its own, or the table
    /// after the round before it.
    pub fn before(&self, i: usize) -> Option<&Json> {
        let r = self.rounds.get(i)?;
        match &r.before {
            Some(b) => Some(b),
            None => self.rounds.get(i.checked_sub(1)?).map(|p| &p.after),
        }
    }

    /// The name of the file a report attaches and the archive links.
    pub fn file_name(game: &str, round: u32) -> String {
        format!("umpire-verify-{game}-{round}.json")
    }

    /// The bundle of played rounds `numbers` of `game`, from the store.
    ///
    /// # Errors
    /// When a round was not played, or stored values cannot be read.
    pub fn of_rounds(
        tx: &Transaction<'_>,
        game: &Game,
        numbers: &[u32],
    ) -> Result<Bundle, PostError> {
        let mut out = Vec::with_capacity(numbers.len());
        for &n in numbers {
            let Some(stored) = rounds::played(tx, game.id(), n)? else {
                return Err(PostError::NoRound {
                    game: game.id().to_string(),
                    round: n,
                });
            };
            let p = &stored.played;
            let report: crate::report::RoundReport = json("report", &p.report)?;
            let before: Json = json("state before", &p.state_before)?;
            let chained = out.last().is_some_and(|r: &BundleRound| r.after == before);
            out.push(BundleRound {
                round: n,
                label: report.label,
                rules: p.rules.clone(),
                seed: stored.seed,
                seed_hash: stored.seed_hash,
                moderator_dice: json("moderator's dice", &p.moderator_dice)?,
                before: (!chained).then_some(before),
                orders: json("orders", &p.orders)?,
                events: json("events", &p.events)?,
                after: json("state after", &p.state_after)?,
            });
        }
        Ok(Bundle {
            bundle: FORMAT,
            game: game.id().to_string(),
            title: game.row.title.clone(),
            ruleset: game.ruleset.name().to_string(),
            options: game.options()?,
            setup: game.row.setup.clone(),
            last_turn: game.row.max_turns,
            rounds: out,
        })
    }

    /// The bundle a released report of `round` carries: the round, with
    /// the rounds before it that were reported to the game master alone
    /// (their dice are the report's too).
    ///
    /// # Errors
    /// As [`Bundle::of_rounds`].
    pub fn of_report(tx: &Transaction<'_>, game: &Game, round: u32) -> Result<Bundle, PostError> {
        let mut numbers: Vec<u32> = super::round::to_game_master_before(tx, game.id(), round)?
            .into_iter()
            .map(|(r, _)| r)
            .take(MAX_ROUNDS - 1)
            .collect();
        numbers.reverse();
        numbers.push(round);
        Self::of_rounds(tx, game, &numbers)
    }
}

fn json<T: serde::de::DeserializeOwned>(what: &str, s: &str) -> Result<T, PostError> {
    serde_json::from_str(s).map_err(|e| PostError::Corrupt(format!("{what}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Bundle {
        let seed = "ab".repeat(32);
        Bundle {
            bundle: FORMAT,
            game: "ford".into(),
            title: "The Ford".into(),
            ruleset: "hyborian-age".into(),
            options: serde_json::json!({}),
            setup: "title = \"x\"\n".into(),
            last_turn: 8,
            rounds: vec![BundleRound {
                round: 1,
                label: "turn 1".into(),
                rules: "hyborian-age 1".into(),
                seed_hash: crate::dice::seed_hash(&seed),
                seed,
                moderator_dice: BTreeMap::from([("melee:dragons".into(), 5)]),
                before: Some(serde_json::json!({"turn": 1})),
                orders: BTreeMap::from([("aquilonia".into(), serde_json::json!([1, 2]))]),
                events: serde_json::json!([{"roll": 4}]),
                after: serde_json::json!({"turn": 2}),
            }],
        }
    }

    #[test]
    fn a_bundle_reads_back_as_it_was_written() {
        let b = sample();
        let bytes = b.to_bytes().unwrap();
        assert!(String::from_utf8_lossy(&bytes).starts_with("{\"bundle\":1,"));
        assert_eq!(Bundle::read(&bytes).unwrap(), b);
    }

    #[test]
    fn a_chained_round_starts_from_the_table_after_the_round_before() {
        let mut b = sample();
        let mut second = b.rounds[0].clone();
        second.round = 2;
        second.before = None;
        b.rounds.push(second);
        assert_eq!(b.before(1), Some(&serde_json::json!({"turn": 2})));
        assert_eq!(b.before(0), Some(&serde_json::json!({"turn": 1})));
        b.rounds.remove(0);
        let e = Bundle::read(&b.to_bytes().unwrap()).unwrap_err();
        assert_eq!(e, BundleError::NoTable { round: 2 });
    }

    #[test]
    fn what_umpire_did_not_write_is_refused_saying_why() {
        let bytes = sample().to_bytes().unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        // Cut short: the line is quoted and the column pointed at.
        let e = Bundle::read(&bytes[..bytes.len() / 2]).unwrap_err();
        assert!(matches!(e, BundleError::NotJson { .. }), "{e}");
        assert!(e.to_string().contains("  | "), "{e}");
        // A wrong type names where.
        let wrong = text.replace("\"last_turn\":8", "\"last_turn\":\"eight\"");
        let e = Bundle::read(wrong.as_bytes()).unwrap_err();
        let BundleError::Shape {
            line, ref quote, ..
        } = e
        else {
            panic!("{e}")
        };
        assert!(quote.contains("\"eight\""), "{e}");
        assert_eq!(line, 1);
        // A die above 255, a field format 1 does not hold.
        let e = Bundle::read(text.replace("dragons\":5", "dragons\":500").as_bytes()).unwrap_err();
        assert!(matches!(e, BundleError::Shape { .. }), "{e}");
        let e = Bundle::read(text.replace("\"title\"", "\"titel\"").as_bytes()).unwrap_err();
        assert!(e.to_string().contains("titel"), "{e}");
        // Not text, too big, not a bundle, another format.
        assert!(matches!(
            Bundle::read(b"{\"bundle\": \xff}"),
            Err(BundleError::NotText { at: 11 })
        ));
        let huge = vec![b' '; MAX_BYTES + 1];
        assert!(matches!(
            Bundle::read(&huge),
            Err(BundleError::TooBig { .. })
        ));
        assert_eq!(Bundle::read(b"[1, 2]"), Err(BundleError::NotABundle));
        // Nested past serde_json's depth limit: refused, no stack overflow.
        let deep = format!("{{\"bundle\": 1, \"options\": {}}}", "[".repeat(100_000));
        assert!(matches!(
            Bundle::read(deep.as_bytes()),
            Err(BundleError::NotJson { .. })
        ));
        assert_eq!(
            Bundle::read(b"{\"bundle\": 7}"),
            Err(BundleError::Format { found: 7 })
        );
        // A seed that its published hash did not commit to.
        let other = text.replace(&"ab".repeat(32), &"cd".repeat(32));
        let e = Bundle::read(other.as_bytes()).unwrap_err();
        assert!(matches!(e, BundleError::Hash { round: 1, .. }), "{e}");
        let short = text.replace(&"ab".repeat(32), "abc");
        assert!(matches!(
            Bundle::read(short.as_bytes()),
            Err(BundleError::Seed { round: 1, .. })
        ));
        let chess = text.replace("\"hyborian-age\"", "\"chess\"");
        let e = Bundle::read(chess.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("hyborian-age"), "{e}");
        let none = serde_json::to_vec(&Bundle {
            rounds: vec![],
            ..sample()
        })
        .unwrap();
        assert!(matches!(
            Bundle::read(&none),
            Err(BundleError::Rounds { count: 0, .. })
        ));
    }

    #[test]
    fn a_long_line_is_quoted_around_the_column() {
        let line = format!("{}X{}", "a".repeat(100), "b".repeat(100));
        let (quote, caret) = excerpt(&line, 101);
        assert_eq!(quote.chars().nth(caret.len() - 1), Some('X'));
        assert!(quote.starts_with('…') && quote.ends_with('…'));
    }
}
