//! What each power may see (§12's sealed envelopes): its own provinces and
//! armies, and the provinces next to them. A [`View`] holds the power's own
//! armies whole and every other army it can see only as a [`Counter`] —
//! a type with no contents — so a report built from a view cannot reveal
//! what another power's army holds. A view is all a power's general is
//! given (`super::general`): what its player's report shows.

use super::game::{Army, Campaign, Power, Settings};
use super::map::World;
use std::collections::{BTreeMap, BTreeSet};

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
    /// The power's own record (its list, nation and treasury); none in the
    /// secretary's view.
    pub me: Option<&'a Power>,
    /// Who holds each province in sight, as the power sees it (a hired
    /// company's flag, ruling CA-15); none for a land nobody holds.
    pub holders: BTreeMap<String, Option<String>>,
    /// Its armies frozen in a battle waiting for its result.
    pub frozen: BTreeSet<String>,
    /// Winter quarters: no army marches.
    pub winter: bool,
    /// The campaign's settings, the set-up file's and known to all (the
    /// most points in one army, the weeks of a siege).
    pub settings: &'a Settings,
}

impl View<'_> {
    /// Who holds `province` as this view shows it (none: nobody, or out of sight).
    pub fn holder(&self, province: &str) -> Option<&str> {
        self.holders.get(province).and_then(Option::as_deref)
    }

    /// Where the power raises units, judged from what it sees
    /// ([`Campaign::raising_place`] judges the same from the whole state).
    pub fn raising_place(&self, world: &World) -> Option<String> {
        let me = self.me?;
        super::game::raising_place(world, me.nation.as_deref()?, &me.id, |p| self.holder(p))
    }

    /// The counters of other powers' armies in `province`.
    pub fn counters_in(&self, province: &str) -> usize {
        self.counters
            .iter()
            .filter(|k| k.province == province)
            .count()
    }
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
    let own: Vec<&Army> = c.armies.values().filter(|a| mine(a)).collect();
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
    let holders = sight
        .iter()
        .map(|p| {
            let h = c.holdings.get(p).and_then(|h| h.holder_seen_by(power));
            (p.clone(), h.map(String::from))
        })
        .collect();
    let frozen = c
        .pending
        .iter()
        .flat_map(|b| b.all_armies())
        .filter(|a| own.iter().any(|o: &&Army| &o.id == a))
        .collect();
    View {
        power: power.map(String::from),
        me: power.and_then(|p| c.powers.get(p)),
        holders,
        frozen,
        winter: c.winter(),
        settings: &c.settings,
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
