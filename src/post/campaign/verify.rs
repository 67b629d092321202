//! `umpire verify CAMPAIGN TURN`: a map turn replayed from what the store
//! kept of it — the campaign before the week, every power's orders, the
//! battle results it applied — with the week's seed, which the reports
//! after it revealed, and its events and the campaign after it compared
//! with those stored, from which every power's report was written.
//!
//! The replay needs every power's sealed orders and the whole map, so it
//! is the club's check (whoever keeps the store), not a player's: a
//! power's report reveals the seed and its hash, not the others' orders.

use super::seed;
use super::{load, rules, PostError};
use crate::games::campaign::Line;
use crate::games::Json;
use crate::store::campaigns;
use crate::store::Transaction;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Replay map turn `turn` of campaign `id` and say whether it matches.
///
/// # Errors
/// No such campaign or turn, or a damaged stored turn.
pub fn verify_week(tx: &Transaction<'_>, id: &str, turn: u32) -> Result<(String, bool), PostError> {
    let row = load(tx, id)?.ok_or_else(|| PostError::NoGame(id.to_string()))?;
    let Some(played) = campaigns::played_turn(tx, id, turn)? else {
        return Err(PostError::Unverifiable(format!(
            "campaign {id} has no map turn {turn}: map turns 1 to {} are resolved",
            row.facts.turn
        )));
    };
    let Some(results) = played.results.as_deref() else {
        return Err(PostError::Unverifiable(format!(
            "map turn {turn} of {id} was resolved before umpire kept the battle results a week applied, so it cannot be replayed"
        )));
    };
    let corrupt = |what: &str, e: serde_json::Error| {
        PostError::Corrupt(format!("map turn {turn} of {id}: {what}: {e}"))
    };
    let orders: BTreeMap<String, Vec<Line<Json>>> =
        serde_json::from_str(&played.orders).map_err(|e| corrupt("orders", e))?;
    let results: Vec<Json> = serde_json::from_str(results).map_err(|e| corrupt("results", e))?;
    let before = super::facts(&played.state_before)?;
    let secret = seed(&row.seed, turn);
    let hex_seed = hex::encode(secret);
    let replay = rules()
        .resolve(&played.state_before, &orders, &results, secret)
        .map_err(PostError::Ruleset)?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({id}), a campaign on the Hyborean world map",
        row.facts.title
    );
    let _ = writeln!(
        out,
        "{} (map turn {turn}): seed {hex_seed}\n  its SHA-256, published in the reports before the week: {}",
        crate::report::capitalize_first(&before.date),
        crate::dice::seed_hash(&hex_seed)
    );
    let lines: usize = orders.values().map(Vec::len).sum();
    let _ = writeln!(
        out,
        "  replayed from the campaign before it, {} powers' orders ({lines} lines) and {} battle results",
        orders.len(),
        results.len()
    );
    let events_ok = same_json(&replay.events, &played.events, "events", &mut out)?;
    let state_ok = same_json(
        &replay.state,
        &played.state_after,
        "the campaign after it",
        &mut out,
    )?;
    let ok = events_ok && state_ok;
    let _ = writeln!(
        out,
        "{}",
        if ok {
            "Verdict: everything matches: the week's events and the campaign after it are the ones its reports were written from."
        } else {
            "Verdict: THE REPLAY DIFFERS from the week as stored (see above)."
        }
    );
    Ok((out, ok))
}

/// Whether the replay's `got` (JSON text) is the stored `want`, written
/// into `out`: for events, the first that differs; for the campaign, the
/// parts of it that differ.
fn same_json(got: &str, want: &str, what: &str, out: &mut String) -> Result<bool, PostError> {
    let parse = |s: &str| {
        serde_json::from_str::<Json>(s)
            .map_err(|e| PostError::Corrupt(format!("{what} as stored: {e}")))
    };
    let (got, want) = (parse(got)?, parse(want)?);
    if got == want {
        let n = got
            .as_array()
            .map_or(String::new(), |a| format!(" ({})", a.len()));
        let _ = writeln!(out, "  {what}{n}: as stored");
        return Ok(true);
    }
    match (
        got.as_array(),
        want.as_array(),
        got.as_object(),
        want.as_object(),
    ) {
        (Some(g), Some(w), _, _) => {
            let at = g
                .iter()
                .zip(w)
                .position(|(a, b)| a != b)
                .unwrap_or(g.len().min(w.len()));
            let show = |e: Option<&Json>| e.map_or("(none)".to_string(), Json::to_string);
            let _ = writeln!(
                out,
                "  {what}: {} replayed, {} stored; the first that differs is number {}:\n    stored:   {}\n    replayed: {}",
                g.len(),
                w.len(),
                at + 1,
                show(w.get(at)),
                show(g.get(at))
            );
        }
        (_, _, Some(g), Some(w)) => {
            let keys: Vec<&str> = g
                .keys()
                .chain(w.keys())
                .filter(|k| g.get(*k) != w.get(*k))
                .map(String::as_str)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let _ = writeln!(out, "  {what} DIFFERS in: {}", keys.join(", "));
        }
        _ => {
            let _ = writeln!(out, "  {what} DIFFERS");
        }
    }
    Ok(false)
}
