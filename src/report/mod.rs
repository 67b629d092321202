//! Round reports for every rule set: the frame (game, round, the seed and
//! its hash, who sent no orders, the next deadline, the draft banner) around
//! what the rule set tells — its story in sections, every die rolled, its
//! summary of the board and the victory standing. Rendered to text and HTML
//! through `templates/report.*` (minijinja, HTML autoescaped); each rule set
//! renders its own summary with its partials `templates/RULESET/summary.*`,
//! handed to the frame's [`Templates`] (the rule sets hand theirs:
//! `RoundReport::text` and `html` are rendered with every rule set's, by
//! `games::rendering`), so the frame never looks a rule set up.
//!
//! Architecture invariant: the report only formats; it computes no rules.
//! Nothing a side wrote for the coming round is ever in a report.

pub mod guide;
pub mod labels;
pub mod picture;

use minijinja::{AutoEscape, Environment};
use serde::{Deserialize, Serialize};

/// A part of the story: "Phase 1 movement" and what happened in it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Section {
    pub title: String,
    pub lines: Vec<String>,
}

/// Everything a round's report says.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RoundReport {
    /// The rule set whose summary partials render `sides`.
    #[serde(default = "default_ruleset")]
    pub ruleset: String,
    pub title: String,
    pub game: String,
    /// The round's number (a Hyborean turn's number).
    pub turn: u32,
    /// The round as players call it: "turn 3".
    #[serde(default)]
    pub label: String,
    pub seed: String,
    pub seed_hash: String,
    /// Sides that sent no orders (they stood fast).
    pub nmr: Vec<String>,
    pub sections: Vec<Section>,
    /// Every die rolled, in the order rolled: "fire:boss:1 = 4".
    pub dice: Vec<String>,
    /// The rule set's summary of the board after the round, for its partials.
    pub sides: serde_json::Value,
    /// The heading of the summary: "The table after turn 3".
    #[serde(default)]
    pub summary_title: String,
    pub ended: bool,
    pub next_turn: u32,
    /// The next round as players call it.
    #[serde(default)]
    pub next_label: String,
    pub deadline: String,
    pub next_seed_hash: String,
    /// Held for the moderator's approval.
    pub draft: bool,
    /// Seeds the round was played with before the moderator rejected the
    /// result (`SEED HASH`), revealed so players see it was played again.
    #[serde(default)]
    pub rejected_seeds: Vec<String>,
    /// How the battle stands against the scenario's victory conditions.
    #[serde(default)]
    pub victory: Vec<String>,
    /// What the post office adds: the result, the orders given, the
    /// seeds of the game master's rounds. Declared before `extra` so that,
    /// read back, these keys are the office's and not the rule set's.
    #[serde(flatten)]
    pub office: OfficeNotes,
    /// What else the rule set keeps for its picture (the Hyborean Age:
    /// `charged`); the rule set's alone, never the post office's.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// The post office's notes in a round's report, typed apart from the rule
/// set's own extras (from which alone its picture is drawn). Each is
/// stored under its own key beside the report's fields and only when it
/// says something, as the templates read them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OfficeNotes {
    /// How the game came out, in the report of its last round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Each side's orders as understood, after the round they were for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orders_given: Vec<Section>,
    /// The round ended at a question for the game master: reported to him
    /// alone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub to_game_master: bool,
    /// The seeds (`round N: SEED HASH`) of the game master's rounds that led
    /// to this one, which the players never saw.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_seeds: Vec<String>,
    /// The round judged again under the rules of a later build.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readjudicated: Option<Readjudicated>,
    /// The verification bundle's file name beside a report on the club's
    /// pages (`post::archive`), where no bundle is attached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bundle_link: Option<String>,
}

/// The builds a re-adjudicated round was first and then played under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Readjudicated {
    pub first: String,
    pub now: String,
}

/// How an ended game came out, as its rule set judges it: what a league
/// scores (`post::league`). Stored in the last round's report
/// ([`OfficeNotes::result`]).
///
/// ```
/// use umpire::report::GameResult;
/// let won = GameResult::Won { side: "koth".into() };
/// assert_eq!(serde_json::to_string(&won).unwrap(), r#"{"won":{"side":"koth"}}"#);
/// assert_eq!(serde_json::to_string(&GameResult::Drawn).unwrap(), r#""drawn""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// One side won (a Furor Barbarus minor or major victory alike).
    Won { side: String },
    /// Nobody won: a draw, a tie, a battle without a victor.
    Drawn,
}

/// The rule set of a report stored before reports named theirs: the
/// Hyborean Age, then the only one (`games::DEFAULT_RULESET`; a test of
/// `games` holds the two equal).
pub const UNNAMED_RULESET: &str = "hyborian-age";

fn default_ruleset() -> String {
    UNNAMED_RULESET.to_string()
}

/// Text made safe for SVG and HTML attributes and content.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A count with its noun in the right number: "1 casualty", "2 casualties".
///
/// ```
/// assert_eq!(umpire::report::plural(1, "turn", "turns"), "1 turn");
/// assert_eq!(umpire::report::plural(0, "casualty", "casualties"), "0 casualties");
/// ```
pub fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The indefinite article before a number read aloud: "an 8-foot table",
/// "a 6-foot table", "an 11-turn battle".
///
/// ```
/// use umpire::report::article;
/// assert_eq!([article(8), article(6), article(11), article(80), article(1)], ["an", "a", "an", "an", "a"]);
/// ```
pub fn article(n: u32) -> &'static str {
    let eighteen = n == 18 || (18_000..19_000).contains(&n);
    let eleven = n == 11 || (11_000..12_000).contains(&n);
    if n.to_string().starts_with('8') || eleven || eighteen {
        "an"
    } else {
        "a"
    }
}

/// "turn 3" → "Turn 3".
pub fn capitalize_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The frame's templates (`templates/report.*`) with the rule sets'
/// summary partials handed in (`RULESET/summary.txt`, `.html`), which the
/// frame includes by the report's `ruleset`.
pub struct Templates(Environment<'static>);

impl Templates {
    /// The frame with these partials, by name.
    ///
    /// # Panics
    /// When a built-in template does not parse (every report test renders
    /// them).
    pub fn new(partials: impl IntoIterator<Item = (&'static str, &'static str)>) -> Templates {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|name| {
            if name.ends_with(".html") {
                AutoEscape::Html
            } else {
                AutoEscape::None
            }
        });
        env.add_filter("capitalize_first", |s: String| capitalize_first(&s));
        let shared = [
            ("report.txt", include_str!("../../templates/report.txt")),
            ("report.html", include_str!("../../templates/report.html")),
        ];
        for (name, text) in shared.into_iter().chain(partials) {
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("built-in template {name} is broken: {e}"));
        }
        Templates(env)
    }

    fn render(&self, name: &str, ctx: minijinja::Value) -> String {
        match self.0.get_template(name).and_then(|t| t.render(ctx)) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(template = name, error = %e, "report template failed");
                format!("(umpire could not format this report: {e})")
            }
        }
    }
}

impl RoundReport {
    /// The report with the labels of a report stored before rounds had them.
    fn labelled(&self) -> RoundReport {
        let mut r = self.clone();
        if r.label.is_empty() {
            r.label = format!("turn {}", r.turn);
        }
        if r.next_label.is_empty() {
            r.next_label = format!("turn {}", r.next_turn);
        }
        if r.summary_title.is_empty() {
            r.summary_title = format!("The table after turn {}", r.turn);
        }
        r
    }

    /// The plain-text report, rendered with these templates.
    pub fn text_with(&self, templates: &Templates) -> String {
        templates.render(
            "report.txt",
            minijinja::context! { r => minijinja::Value::from_serialize(self.labelled()) },
        )
    }

    /// The HTML report, rendered with these templates; `picture` is the
    /// `cid:` (or URL) of the board's picture.
    pub fn html_with(&self, templates: &Templates, picture: Option<&str>) -> String {
        templates.render(
            "report.html",
            minijinja::context! { r => minijinja::Value::from_serialize(self.labelled()), picture => picture },
        )
    }

    /// The report as JSON, for tools.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> RoundReport {
        RoundReport {
            ruleset: "hyborian-age".into(),
            title: "<i>War</i>".into(),
            game: "g".into(),
            turn: 1,
            label: String::new(),
            seed: "00".into(),
            seed_hash: "11".into(),
            nmr: vec!["<b>nemedia</b>".into()],
            sections: vec![Section {
                title: "Phase 1 movement".into(),
                lines: vec!["<img src=x onerror=alert(1)> moved".into()],
            }],
            dice: vec!["fire:x:1 = 4".into()],
            sides: serde_json::json!([]),
            summary_title: String::new(),
            ended: false,
            next_turn: 2,
            next_label: String::new(),
            deadline: "soon".into(),
            next_seed_hash: "22".into(),
            draft: true,
            rejected_seeds: Vec::new(),
            victory: vec!["nemedia has won the battle.".into()],
            office: OfficeNotes::default(),
            extra: Default::default(),
        }
    }

    #[test]
    fn html_escapes_everything_a_rule_set_or_player_wrote() {
        let html = report().html(Some("cid:p"));
        assert!(
            !html.contains("<img src=x")
                && !html.contains("<i>War</i>")
                && !html.contains("<b>nemedia"),
            "{html}"
        );
        assert!(html.contains("&lt;img src=x"));
    }

    #[test]
    fn stored_reports_without_labels_read_as_turns() {
        let text = report().text();
        assert!(text.contains("— report of turn 1"), "{text}");
        assert!(
            text.contains("The table after turn 1\n----------------------\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "Orders for turn 2 are due by soon.\nTurn 2 dice: the seed's SHA-256 is 22."
            ),
            "{text}"
        );
        assert!(
            text.contains("DRAFT for the moderator.") && text.contains("  APPROVE 1\n"),
            "{text}"
        );
    }

    #[test]
    fn the_last_report_says_who_won_and_every_report_the_orders_given() {
        let mut r = report();
        r.ended = true;
        r.office.result = Some(GameResult::Won {
            side: "nemedia".into(),
        });
        r.office.orders_given = vec![
            Section {
                title: "aquilonia".into(),
                lines: vec!["Black Dragons: phase 1 move 6".into()],
            },
            Section {
                title: "nemedia".into(),
                lines: vec![],
            },
        ];
        let text = r.text();
        assert!(
            text.contains("The battle is over: nemedia has won. Why: see Victory above."),
            "{text}"
        );
        assert!(
            text.contains(
                "Orders given\n------------\naquilonia:\n  Black Dragons: phase 1 move 6\nnemedia:\n  (no order stood: its units stood fast)\n"
            ),
            "{text}"
        );
        let html = r.html(None);
        assert!(
            html.contains("The battle is over: nemedia has won."),
            "{html}"
        );
        assert!(html.contains("<h2>Orders given</h2>"), "{html}");
        r.office.result = Some(GameResult::Drawn);
        assert!(r.text().contains("The battle is over: it is a draw."));
    }

    #[test]
    fn unknown_fields_are_kept_for_the_rule_set() {
        let mut json: serde_json::Value = serde_json::to_value(report()).unwrap();
        json["charged"] = serde_json::json!(["dragons"]);
        let back: RoundReport = serde_json::from_value(json).unwrap();
        assert_eq!(back.extra["charged"], serde_json::json!(["dragons"]));
        let again = serde_json::to_value(&back).unwrap();
        assert_eq!(again["charged"], serde_json::json!(["dragons"]));
    }

    /// The office's notes are stored under the keys reports stored before
    /// they were typed used, and read back as the office's, never as the
    /// rule set's extras.
    #[test]
    fn the_office_notes_keep_their_stored_keys_apart_from_the_rule_sets() {
        let stored = serde_json::json!({
            "title": "Ford", "game": "ford", "turn": 3, "seed": "00", "seed_hash": "11",
            "nmr": [], "sections": [], "dice": [], "sides": [], "ended": true, "next_turn": 4,
            "deadline": "", "next_seed_hash": "", "draft": false,
            "result": {"won": {"side": "koth"}},
            "orders_given": [{"title": "koth", "lines": ["Guard: hold"]}],
            "earlier_seeds": ["round 2: aa bb"],
            "readjudicated": {"first": "0.1", "now": "0.2"},
            "charged": ["guard"]
        });
        let back: RoundReport = serde_json::from_value(stored.clone()).unwrap();
        assert_eq!(
            back.office.result,
            Some(GameResult::Won {
                side: "koth".into()
            })
        );
        assert_eq!(back.office.orders_given[0].lines, ["Guard: hold"]);
        assert_eq!(back.office.earlier_seeds, ["round 2: aa bb"]);
        assert_eq!(back.office.readjudicated.as_ref().unwrap().now, "0.2");
        assert!(!back.office.to_game_master);
        assert_eq!(back.extra.keys().collect::<Vec<_>>(), ["charged"]);
        let again = serde_json::to_value(&back).unwrap();
        for key in [
            "result",
            "orders_given",
            "earlier_seeds",
            "readjudicated",
            "charged",
        ] {
            assert_eq!(again[key], stored[key], "{key}");
        }
        assert!(again.get("to_game_master").is_none() && again.get("bundle_link").is_none());
    }
}
