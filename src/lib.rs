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

    /// Modules of one layer that must not use each other either: the
    /// store and the mail reader; and the report frame below the rule sets
    /// (which draw with it) below the case runner (which runs them).
    const APART: [(&str, &str); 6] = [
        ("store", "mail"),
        ("mail", "store"),
        ("store", "config"),
        ("report", "games"),
        ("report", "case"),
        ("games", "case"),
    ];

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

    /// The modules under `src/games` that may read files: the command
    /// line's edges (`umpire army check`, the case files, the balance
    /// labs' files). The rule sets' engines, order checkers and boundaries
    /// read none: what a game needs arrives as data (`games::Setup`).
    const FILE_EDGES: [&str; 5] = [
        "games/mod.rs",
        "games/fr_ancients/army.rs",
        "games/hyborian/case/mod.rs",
        "games/hyborian/sim/cli.rs",
        "games/furor/sim/cli.rs",
    ];

    /// A file's code: its comments and its `mod tests` left out.
    fn code(text: &str) -> String {
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
        text.lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn rule_sets_read_no_files_outside_the_command_lines_edges() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        files(&src.join("games"), &mut all);
        let mut broken = Vec::new();
        for path in all {
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if FILE_EDGES.contains(&rel.as_str()) || rel.ends_with("/tests.rs") {
                continue;
            }
            let text = code(&std::fs::read_to_string(&path).unwrap());
            let fs = text.match_indices("fs::").any(|(i, _)| {
                !text[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            });
            if fs {
                broken.push(rel);
            }
        }
        for edge in FILE_EDGES {
            assert!(
                src.join(edge).exists(),
                "FILE_EDGES names {edge}, which is gone"
            );
        }
        assert!(broken.is_empty(), "rule sets read files: {broken:?}");
    }

    /// Every path a file's code names from `crate`, `super` or `self`,
    /// `use` braces expanded: `use crate::a::{b, c::d}` names `crate::a::b`
    /// and `crate::a::c::d`.
    fn rooted_paths(code: &str) -> Vec<Vec<String>> {
        let mut tokens: Vec<String> = Vec::new();
        let mut chars = code.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_alphanumeric() || c == '_' {
                let mut word = c.to_string();
                while let Some(&n) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                    word.push(n);
                    chars.next();
                }
                tokens.push(word);
            } else if c == ':' && chars.peek() == Some(&':') {
                chars.next();
                tokens.push("::".into());
            } else if !c.is_whitespace() {
                tokens.push(c.to_string());
            }
        }
        /// The paths of the tree at `t[i..]`, each after `path`; the index
        /// after the tree.
        fn tree(
            t: &[String],
            mut i: usize,
            mut path: Vec<String>,
            out: &mut Vec<Vec<String>>,
        ) -> usize {
            while let Some(tok) = t.get(i) {
                if tok == "{" {
                    i += 1;
                    while t.get(i).is_some_and(|t| t != "}") {
                        i = tree(t, i, path.clone(), out);
                        // Past what follows the item (`as name`, a glob's `*`).
                        while t.get(i).is_some_and(|t| t != "," && t != "}") {
                            i += 1;
                        }
                        i += usize::from(t.get(i).is_some_and(|t| t == ","));
                    }
                    return i + 1;
                }
                if !tok.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                    break;
                }
                path.push(tok.clone());
                i += 1;
                if t.get(i).is_some_and(|t| t == "::") {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push(path);
            i
        }
        let mut out = Vec::new();
        for i in 0..tokens.len() {
            let root = ["crate", "super", "self"].contains(&tokens[i].as_str());
            let rooted = i == 0 || tokens[i - 1] != "::";
            if root && rooted && tokens.get(i + 1).is_some_and(|t| t == "::") {
                tree(&tokens, i, Vec::new(), &mut out);
            }
        }
        out
    }

    /// No file imports one that (through others) imports it: each module
    /// stands on those below it, as `shared/tools/cycles.py` reads them.
    /// Every file's module path (`games/furor/mod.rs` is `games::furor`)
    /// and the modules it uses, through `crate::`, `super::` and `self::`
    /// paths with `use` braces expanded; tests apart.
    fn import_graph(
    ) -> std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>> {
        use std::collections::{BTreeMap, BTreeSet};
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut all = Vec::new();
        files(&src, &mut all);
        // Each file's module path: `games/furor/mod.rs` is `games::furor`.
        let module = |path: &std::path::Path| -> Vec<String> {
            let rel = path.strip_prefix(&src).unwrap().with_extension("");
            let mut m: Vec<String> = rel
                .iter()
                .map(|c| c.to_string_lossy().to_string())
                .collect();
            if m.last()
                .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
            {
                m.pop();
            }
            m
        };
        let modules: BTreeSet<Vec<String>> = all.iter().map(|p| module(p)).collect();
        let mut uses: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for path in &all {
            let me = module(path);
            if me.is_empty() || path.ends_with("tests.rs") {
                continue;
            }
            let text = code(&std::fs::read_to_string(path).unwrap());
            for p in rooted_paths(&text) {
                let mut at = match p[0].as_str() {
                    "crate" => Vec::new(),
                    "self" => me.clone(),
                    _ => me[..me.len() - 1].to_vec(),
                };
                for part in &p[1..] {
                    match part.as_str() {
                        "super" => drop(at.pop()),
                        "self" => {}
                        _ => at.push(part.clone()),
                    }
                }
                while !at.is_empty() && !modules.contains(&at) {
                    at.pop();
                }
                if !at.is_empty() && at != me {
                    uses.entry(me.clone()).or_default().insert(at);
                }
            }
        }
        uses
    }

    #[test]
    fn no_file_import_cycles() {
        use std::collections::BTreeMap;
        let uses = import_graph();
        // A file on a cycle reaches itself: the way, found breadth first.
        let mut broken = Vec::new();
        for start in uses.keys() {
            let mut came_from: BTreeMap<&Vec<String>, &Vec<String>> = BTreeMap::new();
            let mut next = vec![start];
            while !next.is_empty() && !came_from.contains_key(start) {
                let mut after = Vec::new();
                for m in next {
                    for n in uses.get(m).into_iter().flatten() {
                        if !came_from.contains_key(n) {
                            came_from.insert(n, m);
                            after.push(n);
                        }
                    }
                }
                next = after;
            }
            if came_from.contains_key(start) {
                let mut way = vec![start.join("/")];
                let mut at = came_from[start];
                while at != start {
                    way.push(at.join("/"));
                    at = came_from[at];
                }
                way.push(start.join("/"));
                way.reverse();
                broken.push(way.join(" -> "));
            }
        }
        assert!(broken.is_empty(), "import cycles:\n{}", broken.join("\n"));
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

    /// Inside Furor Barbarus and FR! Ancients, lowest first: the book's
    /// tables; the board and what stands on it (with the questions and
    /// events told of it); the orders and the engine that plays them; the
    /// face the post office plays through (its stored state, the `Ruleset`,
    /// and what it runs besides: Furor's general and lab, FR!'s case
    /// runner); the edges above them (Furor's case runner, FR!'s demo). A
    /// module uses its own layer's and those below, never one above.
    #[test]
    fn the_furor_and_fr_ancients_layers_hold() {
        const FUROR: [&[&str]; 5] = [
            &["rules"],
            &[
                "hex",
                "map",
                "board",
                "options",
                "scenario",
                "events",
                "wording",
                "reconstruction",
                "error",
            ],
            &[
                "orders", "ask", "play", "movement", "zoc", "charge", "combat", "advance",
                "losses", "morale", "retreat", "special", "sequence", "victory", "sparring",
                "report", "picture",
            ],
            &["ruleset", "sim"],
            &["case"],
        ];
        const FR_ANCIENTS: [&[&str]; 5] = [
            &[
                "sheet",
                "troops",
                "weapons",
                "grades",
                "abilities",
                "characters",
                "standards",
                "points",
                "lists",
                "options",
                "pack",
            ],
            &[
                "table",
                "setup",
                "sweep",
                "army",
                "part",
                "events",
                "verdict",
                "questions",
                "rage",
                "new_rules",
            ],
            &[
                "orders", "engine", "steps", "sequence", "desk", "resolve", "report",
            ],
            &["state", "start", "deployment", "general", "ruleset", "case"],
            &["demo"],
        ];
        let uses = import_graph();
        let mut broken = Vec::new();
        for (set, layers) in [("furor", &FUROR), ("fr_ancients", &FR_ANCIENTS)] {
            let layer_of = |m: &[String]| -> Option<usize> {
                match m {
                    [g, s, top, ..] if g == "games" && s == set => {
                        let found = layers.iter().position(|l| l.contains(&top.as_str()));
                        assert!(
                            found.is_some(),
                            "games::{set}::{top} is in no layer: add it"
                        );
                        found
                    }
                    _ => None,
                }
            };
            for (me, used) in &uses {
                let Some(mine) = layer_of(me) else { continue };
                for u in used {
                    if layer_of(u).is_some_and(|theirs| theirs > mine) {
                        broken.push(format!("{} uses {}", me.join("::"), u.join("::")));
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
