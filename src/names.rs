//! Names as people write them: one normaliser and one "did you mean" for
//! every rule set, the post office and the campaign, so a typo is forgiven
//! (and a suggestion made) the same way everywhere.
//!
//! ```
//! use umpire::names::{closest, key};
//! assert_eq!(key("Black  Dragons!"), "blackdragons");
//! assert_eq!(key("Khauran & Khoraja"), key("khauran-and-khoraja"));
//! let units = ["Black Dragons", "Bossonian Archers", "Gunderland Pikes"];
//! assert_eq!(closest("Blak Dragons", units.iter().map(|n| (*n, *n))), Some("Black Dragons"));
//! assert_eq!(closest("Zzz", units.iter().map(|n| (*n, *n))), None);
//! ```

/// A name reduced to what matters: lowercase letters and digits, with `&`
/// read as "and" (so "Khauran & Khoraja", "khauran-and-khoraja" and
/// "KHAURAN AND KHORAJA" are one name).
pub fn key(name: &str) -> String {
    name.replace('&', "and")
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// The words of a name, lowercase, punctuation dropped.
pub fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// How alike two names are, 0 (nothing alike) to 1 (the same key).
pub fn likeness(a: &str, b: &str) -> f64 {
    strsim::jaro_winkler(&key(a), &key(b))
}

/// The least [`likeness`] that still reads as a typo rather than another name.
pub const TYPO_LIKENESS: f64 = 0.8;

/// The candidate whose name is most like `given`, if any is close enough
/// to be a typo of it. Ties go to the name first in alphabetical order, so
/// the suggestion never depends on the order candidates come in.
pub fn closest<'a, T>(
    given: &str,
    candidates: impl IntoIterator<Item = (&'a str, T)>,
) -> Option<T> {
    closest_at(given, candidates, TYPO_LIKENESS)
}

/// [`closest`] with another least likeness: a keyword of an order language,
/// short and among few, wants a closer match than a unit's name.
pub fn closest_at<'a, T>(
    given: &str,
    candidates: impl IntoIterator<Item = (&'a str, T)>,
    least: f64,
) -> Option<T> {
    let k = key(given);
    if k.is_empty() {
        return None;
    }
    candidates
        .into_iter()
        .map(|(name, t)| (strsim::jaro_winkler(&k, &key(name)), name, t))
        .filter(|(score, _, _)| *score >= least)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, _, t)| t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_to_the_first_name_alphabetically() {
        let names = ["abd", "abc"];
        let forward = closest("abx", names.iter().map(|n| (*n, *n)));
        let backward = closest("abx", names.iter().rev().map(|n| (*n, *n)));
        assert_eq!(forward, Some("abc"));
        assert_eq!(forward, backward);
    }

    #[test]
    fn empty_and_punctuation_only_suggest_nothing() {
        assert_eq!(closest("--", [("a", 1)]), None);
        assert_eq!(closest("", [("a", 1)]), None);
    }
}
