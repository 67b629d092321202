//! Replaying one simulated game from its seed to the report both players
//! would read after every player-turn (`games::furor::report`: every move,
//! every combat with its odds and die, the retreats, each army's total,
//! the turn track) and the map after it (`games::furor::picture`), with
//! the orders each general wrote and how the umpire read them.
//!
//! ```
//! use umpire::games::furor::sim::game::Matchup;
//! use umpire::games::furor::sim::replay::replay;
//! use umpire::sim::{seed::BattleSeed, Style};
//! let m = Matchup::new("tolbiac", [Style::Aggressive, Style::Cautious], Default::default(), Some(2)).unwrap();
//! let r = replay(&m, BattleSeed::of_run(1, 0)).unwrap();
//! assert!(!r.turns.is_empty() && r.turns.len() <= 4);
//! assert!(r.turns[0].report.contains("Turn 1: movement of the franks"));
//! assert!(r.turns[0].svg.starts_with("<svg"));
//! ```

use super::game::{play, GameError, Matchup, Outcome, PlayerTurn};
use crate::games::furor::events::chargers;
use crate::games::furor::picture::{self, Marks};
use crate::games::furor::report;
use crate::sim::seed::BattleSeed;

/// One player-turn of a replayed game.
#[derive(Debug, Clone)]
pub struct Turn {
    pub number: u32,
    pub turn: u8,
    pub side: String,
    /// The report of the player-turn, as plain text.
    pub report: String,
    /// The map after it, the chargers marked.
    pub svg: String,
    /// The phasing general's orders as written, then as the umpire read
    /// them, then the other general's standing reactions.
    pub orders: String,
    /// How the battle ended, when it ended in this player-turn.
    pub ended: Option<String>,
}

/// A replayed game.
#[derive(Debug, Clone)]
pub struct Replay {
    pub outcome: Outcome,
    pub turns: Vec<Turn>,
}

fn turn_of(p: &PlayerTurn<'_>) -> Turn {
    let r = p.resolution;
    let caption = report::track(&r.board).join(" ");
    let svg = picture::svg(
        &r.board,
        &Marks {
            charged: chargers(&r.events),
            caption,
            ..Marks::default()
        },
    );
    let understood: Vec<&str> = p
        .checked
        .understood
        .iter()
        .map(|(_, l)| l.as_str())
        .collect();
    let orders = format!(
        "# the orders of the {} general for turn {}, as written\n{}\n# as the umpire read them\n{}\n\n# the other general's standing reactions, as written\n{}",
        p.side,
        p.before.turn,
        p.orders.trim_end(),
        understood.join("\n"),
        p.reactions_text.trim_end()
    );
    Turn {
        number: p.number,
        turn: p.before.turn,
        side: p.side.to_string(),
        report: report::text(&report::sections(r, p.options)),
        svg,
        orders: orders + "\n",
        ended: report::ended(&r.board),
    }
}

/// Play the game of `seed` again, keeping every player-turn's report.
///
/// # Errors
/// As [`play`].
pub fn replay(m: &Matchup, seed: BattleSeed) -> Result<Replay, GameError> {
    let mut turns = Vec::new();
    let outcome = play(m, seed, &mut |p| turns.push(turn_of(p)))?;
    Ok(Replay { outcome, turns })
}
