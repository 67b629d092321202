//! Replaying one simulated battle from its seed to the full report a
//! player would read after every turn — the story phase by phase, every
//! die, the table summary, the picture — plus the orders each general
//! wrote and how the umpire read them.
//!
//! ```
//! use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
//! use umpire::games::hyborian::sim::general::Style;
//! use umpire::games::hyborian::sim::replay::replay;
//! use umpire::games::hyborian::sim::seed::BattleSeed;
//! let a = Contender::proposed("Koth", 300, Style::Aggressive).unwrap();
//! let b = Contender::proposed("Zamora", 300, Style::Cautious).unwrap();
//! let m = Matchup::new([a, b], Field::Card(Some(70)), Default::default(), Some(2)).unwrap();
//! let r = replay(&m, BattleSeed::of_run(1, 0)).unwrap();
//! assert_eq!(r.turns.len(), r.outcome.turns as usize);
//! assert!(r.turns[0].report.text().contains("report of turn 1"));
//! ```

use super::battle::{play, BattleError, Outcome, Played};
use super::field::Matchup;
use super::seed::BattleSeed;
use crate::games::hyborian::report::{self, picture};
use crate::report::RoundReport;

/// The game name replay reports carry.
pub const GAME: &str = "simulation";

/// One turn of a replayed battle.
#[derive(Debug, Clone)]
pub struct Turn {
    pub turn: u32,
    pub report: RoundReport,
    /// The table after the turn, drawn with this turn's moves.
    pub svg: String,
    /// Each side's orders as written, then as the umpire understood them.
    pub orders: [String; 2],
}

/// A replayed battle.
#[derive(Debug, Clone)]
pub struct Replay {
    pub outcome: Outcome,
    pub turns: Vec<Turn>,
}

use crate::dice::seed_hash;

/// Play the battle of `seed` again, keeping every turn's report.
///
/// # Errors
/// As [`play`].
pub fn replay(m: &Matchup, seed: BattleSeed) -> Result<Replay, BattleError> {
    let title = format!(
        "{} against {}",
        m.contenders[0].label, m.contenders[1].label
    );
    let mut turns = Vec::new();
    let outcome = play(m, seed, &mut |p: &Played| {
        turns.push(turn_of(m, seed, &title, p))
    })?;
    Ok(Replay { outcome, turns })
}

fn turn_of(m: &Matchup, seed: BattleSeed, title: &str, p: &Played) -> Turn {
    let (sections, dice) = report::story(&p.result.events);
    let hex_seed = hex::encode(p.seed);
    let mut victory = p.verdict.reasons.clone();
    match p.verdict.winner.as_deref().and_then(|w| m.contender_of(w)) {
        Some(w) => victory.push(format!("{} has won the battle.", m.contenders[w].label)),
        None if p.ended => victory.push("The battle ends without a victor.".into()),
        None => {}
    }
    let charged = report::chargers(&p.result.events);
    let mut extra = serde_json::Map::new();
    extra.insert("charged".into(), serde_json::json!(charged));
    let report = RoundReport {
        ruleset: crate::games::hyborian::RULESET.into(),
        title: title.to_string(),
        game: GAME.into(),
        turn: p.turn,
        label: format!("turn {}", p.turn),
        seed: hex_seed.clone(),
        seed_hash: seed_hash(&hex_seed),
        nmr: Vec::new(),
        sections,
        dice,
        sides: serde_json::to_value(report::summary(&p.result.table, Some(p.before)))
            .unwrap_or_default(),
        summary_title: format!("The table after turn {}", p.turn),
        ended: p.ended,
        next_turn: p.turn + 1,
        next_label: format!("turn {}", p.turn + 1),
        deadline: "the generals' next orders (written at once)".into(),
        next_seed_hash: seed_hash(&hex::encode(seed.turn(p.turn + 1))),
        draft: false,
        rejected_seeds: Vec::new(),
        victory,
        office: Default::default(),
        extra,
    };
    let caption = picture::turn_caption(title, p.turn);
    let svg = picture::svg(Some(p.before), &p.result.table, &charged, &caption);
    let orders = [0, 1].map(|i| {
        let (text, checked) = p.orders[i];
        let mut out = format!(
            "{} ({}) wrote:\n{text}\nThe umpire understood:\n",
            m.contenders[i].label,
            m.contenders[i].commander.describe()
        );
        for (_, line) in &checked.understood {
            out.push_str(line);
            out.push('\n');
        }
        for d in checked.diagnostics.iter().filter(|d| d.is_error()) {
            out.push_str(&d.render(&checked.source));
        }
        out
    });
    Turn {
        turn: p.turn,
        report,
        svg,
        orders,
    }
}
