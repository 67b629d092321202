//! What each power may see (§12's sealed envelopes): its own provinces and
//! armies, and the provinces next to them. A [`View`] holds the power's own
//! armies whole and every other army it can see only as a [`Counter`] —
//! a type with no contents — so a report built from a view cannot reveal
//! what another power's army holds.

use super::game::{Army, Campaign};
use super::map::World;
use std::collections::BTreeSet;

/// Another power's army as seen on the map: who, where, nothing inside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    pub army: String,
    pub power: String,
    pub province: String,
}

/// One power's view of the campaign (`power` none: the secretary's, all seeing).
#[derive(Debug, Clone)]
pub struct View<'a> {
    pub power: Option<String>,
    pub sight: BTreeSet<String>,
    /// Armies it owns or commands, contents and all.
    pub own: Vec<&'a Army>,
    pub counters: Vec<Counter>,
}

/// The provinces `power` can see: those it holds or has an army in, and
/// their neighbours.
pub fn sight(c: &Campaign, world: &World, power: &str) -> BTreeSet<String> {
    let mut base: BTreeSet<&str> = c
        .holdings
        .iter()
        .filter(|(_, h)| h.holder() == Some(power))
        .map(|(id, _)| id.as_str())
        .collect();
    base.extend(
        c.armies
            .values()
            .filter(|a| a.owner == power || a.commander() == power)
            .map(|a| a.province.as_str()),
    );
    let mut out: BTreeSet<String> = base.iter().map(|s| s.to_string()).collect();
    for id in &base {
        if let Some(p) = world.province(id) {
            out.extend(p.borders.iter().map(|b| b.to.clone()));
        }
    }
    out
}

/// A power's view; `None` gives the secretary's.
pub fn view<'a>(c: &'a Campaign, world: &World, power: Option<&str>) -> View<'a> {
    let sight = match power {
        Some(p) => sight(c, world, p),
        None => c.holdings.keys().cloned().collect(),
    };
    let mine = |a: &Army| power.is_none_or(|p| a.owner == p || a.commander() == p);
    let own = c.armies.values().filter(|a| mine(a)).collect();
    let counters = c
        .armies
        .values()
        .filter(|a| !mine(a) && sight.contains(&a.province))
        .map(|a| Counter {
            army: a.id.clone(),
            // The counter's own flag: whom a company serves is not seen.
            power: a.owner.clone(),
            province: a.province.clone(),
        })
        .collect();
    View {
        power: power.map(String::from),
        sight,
        own,
        counters,
    }
}

/// Whether an event is read by `power` (parties always; others where they see).
pub fn sees(
    event: &super::resolve::MapEvent,
    power: Option<&str>,
    sight: &BTreeSet<String>,
) -> bool {
    match power {
        None => true,
        Some(p) => {
            event.parties().contains(&p) || event.place().is_some_and(|pl| sight.contains(pl))
        }
    }
}
