//! Finding the unit an order names: by exact name, unique prefix,
//! abbreviation or number, ignoring case, spaces and punctuation; and the
//! nearest name to suggest when nothing matches.
//!
//! ```
//! use umpire::games::hyborian::orders::names::key;
//! assert_eq!(key("Black  Dragons!"), "blackdragons");
//! ```

use crate::games::hyborian::orders::ast::UnitRef;
use crate::games::hyborian::table::{Table, Unit};

/// A name reduced to what matters: lowercase letters and digits.
pub fn key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// What a reference came to.
#[derive(Debug)]
pub enum Found<'a> {
    Unit(&'a Unit),
    /// Several units fit equally well.
    Ambiguous(Vec<&'a Unit>),
    /// None fits; the nearest name, if any is close.
    None(Option<&'a Unit>),
}

/// The table's units with their names reduced once, for many look-ups.
pub struct Index<'a> {
    entries: Vec<Entry<'a>>,
}

struct Entry<'a> {
    unit: &'a Unit,
    name: String,
    id: String,
    words: Vec<String>,
    initials: String,
}

impl<'a> Index<'a> {
    pub fn new(table: &'a Table) -> Self {
        let entries = table
            .units
            .values()
            .map(|u| {
                let words = words(&u.name);
                Entry {
                    unit: u,
                    name: key(&u.name),
                    id: key(&u.id),
                    initials: words.iter().filter_map(|w| w.chars().next()).collect(),
                    words,
                }
            })
            .collect();
        Index { entries }
    }

    /// Find the unit `r` names. Where several fit, those for which `prefer`
    /// holds win (own units for the unit giving orders, enemies for a charge).
    pub fn resolve(&self, r: &UnitRef, prefer: &dyn Fn(&Unit) -> bool) -> Found<'a> {
        let found = self.lookup(r, prefer);
        // "charge the Nemedian Knights": try again without the article.
        if let (Found::None(_), UnitRef::Name(n)) = (&found, r) {
            let lower = n.trim_start().to_lowercase();
            if let Some(rest) = lower.strip_prefix("the ").filter(|s| !s.trim().is_empty()) {
                if let f @ (Found::Unit(_) | Found::Ambiguous(_)) =
                    self.lookup(&UnitRef::Name(rest.into()), prefer)
                {
                    return f;
                }
            }
        }
        found
    }

    fn lookup(&self, r: &UnitRef, prefer: &dyn Fn(&Unit) -> bool) -> Found<'a> {
        let all = &self.entries;
        match r {
            UnitRef::Number(n) => pick(
                all.iter()
                    .filter(|e| e.unit.number == *n)
                    .map(|e| e.unit)
                    .collect(),
                prefer,
            )
            .unwrap_or(Found::None(None)),
            UnitRef::Name(name) => {
                let k = key(name);
                if k.is_empty() {
                    return Found::None(None);
                }
                let q = words(name);
                let tiers: [&dyn Fn(&Entry) -> bool; 4] = [
                    &|e| e.name == k || e.id == k,
                    &|e| e.name.starts_with(&k),
                    &|e| abbreviates(&q, &e.words),
                    &|e| e.initials == k && k.len() >= 2,
                ];
                for tier in tiers {
                    let hits: Vec<&Unit> = all.iter().filter(|e| tier(e)).map(|e| e.unit).collect();
                    if let Some(f) = pick(hits, prefer) {
                        return f;
                    }
                }
                // Suggest from the preferred units first, then from all.
                let near = |only_preferred: bool| {
                    let candidates = all
                        .iter()
                        .filter(|e| !only_preferred || prefer(e.unit))
                        .map(|e| (e.name.as_str(), e.unit));
                    crate::names::closest(&k, candidates)
                };
                Found::None(near(true).or_else(|| near(false)))
            }
        }
    }
}

fn pick<'a>(hits: Vec<&'a Unit>, prefer: &dyn Fn(&Unit) -> bool) -> Option<Found<'a>> {
    match hits.len() {
        0 => None,
        1 => Some(Found::Unit(hits[0])),
        _ => {
            let preferred: Vec<&Unit> = hits.iter().copied().filter(|u| prefer(u)).collect();
            Some(match preferred.len() {
                1 => Found::Unit(preferred[0]),
                0 => Found::Ambiguous(hits),
                _ => Found::Ambiguous(preferred),
            })
        }
    }
}

/// `blk drag` abbreviates `Black Dragons`: as many words, each a prefix of
/// the name's word or its letters in order with at least two left out (one
/// letter missing looks like a typo, which gets a suggestion instead).
fn abbreviates(query: &[String], name: &[String]) -> bool {
    query.len() == name.len()
        && query.iter().zip(name).all(|(q, n)| {
            n.starts_with(q.as_str()) || (n.len() >= q.len() + 2 && subsequence(q, n))
        })
}

fn subsequence(q: &str, n: &str) -> bool {
    let mut it = n.chars();
    q.chars().all(|c| it.any(|d| d == c)) && q.chars().next() == n.chars().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::orders::sample::table;

    fn name_of(r: &str) -> String {
        let t = table();
        match Index::new(&t).resolve(&UnitRef::Name(r.into()), &|u| u.side == "aquilonia") {
            Found::Unit(u) => u.name.clone(),
            Found::Ambiguous(v) => format!("ambiguous {}", v.len()),
            Found::None(s) => format!("none {:?}", s.map(|u| &u.name)),
        }
    }

    #[test]
    fn ways_to_name_a_unit() {
        assert_eq!(name_of("black dragons"), "Black Dragons");
        assert_eq!(name_of("BLACK-DRAGONS"), "Black Dragons");
        assert_eq!(name_of("black d"), "Black Dragons");
        assert_eq!(name_of("blk drgns"), "Black Dragons");
        assert_eq!(name_of("BD"), "Black Dragons");
        assert_eq!(name_of("bossonian"), "Bossonian Archers");
        assert_eq!(name_of("the Black Dragons"), "Black Dragons");
        assert_eq!(name_of("Blak Dragons"), "none Some(\"Black Dragons\")");
        assert_eq!(name_of("zzz"), "none None");
    }

    #[test]
    fn by_number_prefers_the_side() {
        let t = table();
        match Index::new(&t).resolve(&UnitRef::Number(1), &|u| u.side == "nemedia") {
            Found::Unit(u) => assert_eq!(u.side, "nemedia"),
            other => panic!("{other:?}"),
        }
    }
}
