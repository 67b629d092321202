//! Checking a played round: replay it from the state before, the orders
//! and the revealed seed, and compare every event and the table after with
//! what was reported. One procedure ([`check`]) with two sources: the
//! server's store (`umpire verify GAME TURN`, [`verify_turn`]) and a
//! verification bundle a player saved from a report (`umpire verify
//! --bundle FILE`, [`verify_bundle`]), which needs no database and no
//! configuration.

use super::bundle::{Bundle, BundleError, BundleRound};
use super::game::Game;
use super::{PostError, PostOffice};
use crate::games::{self, Json, Ruleset};
use std::fmt::Write as _;

impl PostOffice {
    /// The current state of a game and its rule set's name.
    ///
    /// # Errors
    /// When there is no such game.
    pub fn state_of(&mut self, game: &str) -> Result<(&'static str, Json), PostError> {
        self.store.write(|tx| {
            let g = Game::load(tx, game)?.ok_or_else(|| PostError::NoGame(game.to_string()))?;
            Ok((g.ruleset.name(), g.state()?))
        })
    }

    /// The game's stored setup (its scenario), as the rule set reads it.
    ///
    /// # Errors
    /// [`PostError::NoGame`] when there is no such game.
    pub fn setup_of(&mut self, game: &str) -> Result<String, PostError> {
        self.store.write(|tx| {
            let g = Game::load(tx, game)?.ok_or_else(|| PostError::NoGame(game.to_string()))?;
            Ok(g.row.setup.clone())
        })
    }
}

/// How many differences of one kind are spelled out before "and N more".
const DIFFERENCES_SHOWN: usize = 8;

/// Replay round `round` of `game` from the store and say whether it
/// matches what was reported.
///
/// # Errors
/// When the game or round does not exist or was not played yet.
pub fn verify_turn(
    po: &mut PostOffice,
    game: &str,
    round: u32,
) -> Result<(String, bool), PostError> {
    let bundle = po.store.write(|tx| {
        let Some(g) = Game::load(tx, game)? else {
            // A campaign's id: its map turn `round` is replayed instead.
            return if crate::store::campaigns::exists(tx, game)? {
                super::campaign::verify_week(tx, game, round).map(Err)
            } else {
                Err(PostError::NoGame(game.to_string()))
            };
        };
        Bundle::of_rounds(tx, &g, &[round]).map(Ok)
    })?;
    let bundle = match bundle {
        Ok(b) => b,
        Err(week) => return Ok(week),
    };
    let ruleset = games::named(&bundle.ruleset)?;
    check(ruleset, &bundle, &mut |r, e| match e {
        Replay::Engine(e) => Err(e),
        Replay::Panic(why) => Err(PostError::Corrupt(format!("round {r}: {why}"))),
    })
}

/// Read a verification bundle (the bytes of the file) and replay it.
///
/// # Errors
/// When the bundle is refused ([`Bundle::read`]) or the rule set cannot
/// play its round (a table or orders umpire did not write).
pub fn verify_bundle(bytes: &[u8]) -> Result<(String, bool), BundleError> {
    let bundle = Bundle::read(bytes)?;
    let ruleset = games::ruleset(&bundle.ruleset).ok_or_else(|| BundleError::Ruleset {
        name: bundle.ruleset.clone(),
        known: String::new(),
    })?;
    check(ruleset, &bundle, &mut |round, e| {
        Err(BundleError::Unplayable {
            round,
            why: match e {
                Replay::Engine(e) => e.to_string(),
                Replay::Panic(why) => why,
            },
        })
    })
}

/// Why a round could not be replayed.
enum Replay {
    Engine(PostError),
    /// The engine stopped on the round (a table no build of umpire wrote).
    Panic(String),
}

/// Replay every round of `bundle` and say what matches; `refuse` turns a
/// round that cannot be played into the caller's error.
fn check<E>(
    ruleset: &dyn Ruleset,
    bundle: &Bundle,
    refuse: &mut dyn FnMut(u32, Replay) -> Result<(String, bool), E>,
) -> Result<(String, bool), E> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}), {}",
        bundle.title,
        bundle.game,
        ruleset.title()
    );
    let now_rules = ruleset.version(&bundle.options);
    let mut all_ok = true;
    for (i, r) in bundle.rounds.iter().enumerate() {
        let Some(before) = bundle.before(i) else {
            return refuse(
                r.round,
                Replay::Engine(PostError::Corrupt("no table before the round".into())),
            );
        };
        match check_round(ruleset, bundle, r, before, &now_rules, &mut out) {
            Ok(ok) => all_ok &= ok,
            Err(e) => return refuse(r.round, e),
        }
    }
    let _ = writeln!(
        out,
        "{}",
        if all_ok {
            "Verdict: everything matches: the seed is the one committed to, and every roll, result and the table after are what the report says."
        } else {
            "Verdict: THE REPLAY DIFFERS from the report (see above)."
        }
    );
    Ok((out, all_ok))
}

/// One round replayed into `out`; whether it matches.
fn check_round(
    ruleset: &dyn Ruleset,
    bundle: &Bundle,
    r: &BundleRound,
    before: &Json,
    now_rules: &str,
    out: &mut String,
) -> Result<bool, Replay> {
    let seed = &r.seed;
    let label = if r.label.is_empty() {
        format!("Turn {}", r.round)
    } else {
        crate::report::capitalize_first(&r.label)
    };
    let hash_ok = crate::dice::seed_hash(seed) == r.seed_hash;
    let _ = writeln!(
        out,
        "{label} (round {}) of {}: seed {seed}",
        r.round, bundle.game
    );
    let _ = writeln!(
        out,
        "  SHA-256 of the seed {} the hash published before the turn ({})",
        if hash_ok { "matches" } else { "DOES NOT match" },
        r.seed_hash
    );
    // A turn played under other rules (a rules fix since) may replay
    // differently without anyone having touched it: say so first.
    let other_rules = !r.rules.is_empty() && r.rules != now_rules;
    if other_rules {
        let _ = writeln!(
            out,
            "  played under: {}\n  this build:   {now_rules}",
            r.rules
        );
    }
    if !r.moderator_dice.is_empty() {
        let list: Vec<String> = r
            .moderator_dice
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = writeln!(out, "  the moderator supplied: {}", list.join(" "));
    }
    let replay = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        super::resolve::resolve_round(
            ruleset,
            &bundle.setup,
            bundle.last_turn,
            before,
            &bundle.options,
            &r.orders,
            seed,
            &r.moderator_dice,
        )
    }))
    .map_err(|p| {
        let why = p
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Replay::Panic(format!("the engine stopped on its table ({why})"))
    })?
    .map_err(Replay::Engine)?;
    if replay.dice.is_empty() {
        let _ = writeln!(out, "  no dice were rolled");
    } else {
        let _ = writeln!(out, "  the rolls, in order:");
        for d in &replay.dice {
            let given = d
                .split(" = ")
                .next()
                .is_some_and(|k| r.moderator_dice.contains_key(k));
            let _ = writeln!(
                out,
                "    {d}{}",
                if given { " (the moderator's die)" } else { "" }
            );
        }
    }
    let count = replay.events.as_array().map_or(0, Vec::len);
    let events_ok = replay.events == r.events;
    let _ = writeln!(
        out,
        "  {count} events replayed: {}",
        if events_ok {
            "every roll and result matches"
        } else {
            "THEY DIFFER from the report:"
        }
    );
    if !events_ok {
        differences(&r.events, &replay.events, "events", out);
    }
    let after_ok =
        replay.state == r.after || ruleset.canonical(&r.after).is_ok_and(|a| a == replay.state);
    let _ = writeln!(
        out,
        "  table after the turn: {}",
        if after_ok { "matches" } else { "DIFFERS:" }
    );
    if !after_ok {
        let reported = ruleset
            .canonical(&r.after)
            .unwrap_or_else(|_| r.after.clone());
        differences(&reported, &replay.state, "table", out);
    }
    if other_rules && !(events_ok && after_ok) {
        let _ = writeln!(out, "  The rules have changed since the turn was played, so a difference is expected and is not a sign of tampering; the stored report stands.");
    }
    Ok(hash_ok && events_ok && after_ok)
}

/// Write where `reported` and `replayed` differ, one line a difference
/// (its JSON path, both values), the first [`DIFFERENCES_SHOWN`] of them.
fn differences(reported: &Json, replayed: &Json, what: &str, out: &mut String) {
    let mut found = Vec::new();
    diff(reported, replayed, what, &mut found);
    for (path, a, b) in found.iter().take(DIFFERENCES_SHOWN) {
        let _ = writeln!(out, "    {path}: the report says {a}, the replay {b}");
    }
    if found.len() > DIFFERENCES_SHOWN {
        let _ = writeln!(out, "    … and more");
    }
}

/// Every leaf where two JSON values differ: (path, reported, replayed).
fn diff(a: &Json, b: &Json, path: &str, found: &mut Vec<(String, String, String)>) {
    // A cap on the walk itself: a hostile bundle's table may be huge.
    if found.len() > DIFFERENCES_SHOWN {
        return;
    }
    let short = |v: Option<&Json>| match v {
        None => "nothing".to_string(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 80 {
                format!("{}…", s.chars().take(80).collect::<String>())
            } else {
                s
            }
        }
    };
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => diff(p, q, &format!("{path}.{k}"), found),
                    (p, q) => found.push((format!("{path}.{k}"), short(p), short(q))),
                }
            }
        }
        (Json::Array(x), Json::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                match (x.get(i), y.get(i)) {
                    (Some(p), Some(q)) => diff(p, q, &format!("{path}[{i}]"), found),
                    (p, q) => found.push((format!("{path}[{i}]"), short(p), short(q))),
                }
            }
        }
        _ if a != b => found.push((path.to_string(), short(Some(a)), short(Some(b)))),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_is_named_by_its_path_with_both_values() {
        let a = serde_json::json!([{"fire": {"roll": 4, "kills": 2}}, {"x": 1}]);
        let b = serde_json::json!([{"fire": {"roll": 5, "kills": 2}}]);
        let mut out = String::new();
        differences(&a, &b, "events", &mut out);
        assert_eq!(
            out,
            "    events[0].fire.roll: the report says 4, the replay 5\n    events[1]: the report says {\"x\":1}, the replay nothing\n"
        );
    }
}
