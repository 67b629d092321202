//! umpire: a play-by-email umpire for *Royal Armies of the Hyborean Age*.
//!
//! See `ARCHITECTURE.md` for the map of modules and their invariants.

pub mod case;
pub mod config;
pub mod demo;
pub mod diagnostic;
pub mod dice;
pub mod entropy;
pub mod envelope;
pub mod games;
pub mod geometry;
pub mod league;
pub mod mail;
pub mod names;
pub mod pleasantry;
pub mod post;
pub mod report;
pub mod sim;
pub mod store;

/// The layers of the crate, lowest first (ARCHITECTURE.md, "Invariants"):
/// a module may use the modules of its own layer and those below, never
/// one above. The rule sets never see SQLite, mail or the post office; the
/// store and the mail reader never see a rule set.
#[cfg(test)]
mod layers {
    /// Each layer's top-level modules.
    const LAYERS: [&[&str]; 5] = [
        &[
            "diagnostic",
            "names",
            "pleasantry",
            "dice",
            "entropy",
            "envelope",
            "geometry",
            "sim",
        ],
        &["games", "report", "case", "league"],
        &["store", "mail", "config"],
        &["post"],
        &["demo"],
    ];

    /// Modules of one layer that must not use each other either.
    const APART: [(&str, &str); 3] = [("store", "mail"), ("mail", "store"), ("store", "config")];

    fn layer(module: &str) -> usize {
        LAYERS
            .iter()
            .position(|l| l.contains(&module))
            .unwrap_or_else(|| panic!("module '{module}' is in no layer: add it to LAYERS"))
    }

    /// Every `crate::x` a file names.
    fn used(text: &str) -> Vec<String> {
        text.match_indices("crate::")
            .map(|(i, _)| {
                text[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect()
            })
            .collect()
    }

    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn no_module_uses_a_higher_layer() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut broken = Vec::new();
        let mut all = Vec::new();
        files(&src, &mut all);
        for path in all {
            let rel = path.strip_prefix(&src).unwrap();
            let top = rel
                .iter()
                .next()
                .unwrap()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            if top == "lib" || top == "main" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for m in used(&text) {
                if m.is_empty() || m == top {
                    continue;
                }
                if layer(&m) > layer(&top) || APART.contains(&(top.as_str(), m.as_str())) {
                    broken.push(format!("{} uses crate::{m}", rel.display()));
                }
            }
        }
        broken.sort();
        broken.dedup();
        assert!(
            broken.is_empty(),
            "lower layers use higher ones:\n{}",
            broken.join("\n")
        );
    }

    /// Inside the Hyborean Age, lowest first: the book's numbers, the table,
    /// the orders read against them, the engine that plays them.
    #[test]
    fn the_hyborean_layers_hold() {
        const HYBOREAN: [&str; 4] = ["rules", "table", "orders", "adjudicate"];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/hyborian");
        let mut broken = Vec::new();
        for (i, low) in HYBOREAN.iter().enumerate() {
            let mut all = Vec::new();
            files(&root.join(low), &mut all);
            for path in all {
                let text = std::fs::read_to_string(&path).unwrap();
                for high in &HYBOREAN[i + 1..] {
                    if text.contains(&format!("hyborian::{high}::")) {
                        broken.push(format!("{} uses hyborian::{high}", path.display()));
                    }
                }
            }
        }
        assert!(broken.is_empty(), "{}", broken.join("\n"));
    }

    /// The rule sets' folders under `src/games`, by name.
    fn rule_sets() -> Vec<String> {
        let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
        let sets: Vec<String> = std::fs::read_dir(games)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
            .collect();
        assert!(sets.len() >= 3, "{sets:?}");
        sets
    }

    /// The post office, the store, the mail and the report frame know a
    /// rule set only through `games::Ruleset` and a campaign only through
    /// `games::campaign::CampaignRules`: none of them names a rule set's
    /// own module (`hyborian::…`, `furor::…`, `fr_ancients::…`).
    #[test]
    fn the_post_office_names_no_rule_set() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let sets = rule_sets();
        let mut broken = Vec::new();
        for wing in ["post", "store", "mail", "report"] {
            let mut all = Vec::new();
            files(&src.join(wing), &mut all);
            for path in all {
                let text = std::fs::read_to_string(&path).unwrap();
                for set in &sets {
                    let named = text.match_indices(&format!("{set}::")).any(|(i, _)| {
                        !text[..i]
                            .chars()
                            .next_back()
                            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    });
                    if named {
                        broken.push(format!("{} names {set}::", path.display()));
                    }
                }
            }
        }
        assert!(broken.is_empty(), "{}", broken.join("\n"));
    }

    /// What two rule sets share (table geometry, pictures, dice, names)
    /// lives below them; no rule set reaches into another's folder.
    #[test]
    fn no_rule_set_uses_another() {
        let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
        let sets = rule_sets();
        let mut broken = Vec::new();
        for set in &sets {
            let mut all = Vec::new();
            files(&games.join(set), &mut all);
            for path in all {
                let text = std::fs::read_to_string(&path).unwrap();
                for other in sets.iter().filter(|o| *o != set) {
                    if text.contains(&format!("games::{other}::")) {
                        broken.push(format!("{} uses games::{other}", path.display()));
                    }
                }
            }
        }
        assert!(broken.is_empty(), "{}", broken.join("\n"));
    }
}
