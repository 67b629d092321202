//! Who won the battle (ruling FA-45): the sheet ends a battle on the
//! morale clock (M10, M14: with a pack, when a side's clock comes down to
//! the pack's `clock.ends_at`), a game file after its `max_turns`, and a
//! moderator when he ends the game early. [`judge`] reads the battle as it
//! stands and names the winner, or a draw, with the reasons in words a
//! player reads; it never changes the battle.
//!
//! The order of the reasons: a side whose clock ran down has lost; else
//! the side whose clock stands higher has won; level clocks go to the
//! standards' points of rule 15 (200 for an enemy standard captured, 100
//! for one lost); level again, a draw. Option `last_turn_result = "draw"`
//! makes a battle that no clock ended a draw.
//!
//! ```
//! use umpire::games::fr_ancients::demo::trebia;
//! use umpire::games::fr_ancients::options::Options;
//! use umpire::games::fr_ancients::verdict::{judge, Ending};
//! let mut b = trebia(None).unwrap().battle;
//! b.sides[1].clock_lost = 2; // carthage lost two phases
//! let v = judge(&b, None, Ending::LastTurn(12), &Options::default());
//! assert_eq!(v.winner.as_deref(), Some("rome"));
//! assert!(v.lines.last().unwrap().starts_with("Rome has won the battle"));
//! ```

use super::options::{LastTurnResult, Options};
use super::standards::end_points;
use super::table::{Battle, Side, StandardState};
use crate::games::GameResult;
use crate::report::capitalize_first;

/// Why the battle is judged now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// A side's morale clock came down to where the pack ends the battle.
    ClockRanDown,
    /// The game file's last turn (this one) has been played.
    LastTurn(u32),
    /// The moderator ends the game before its end: the result as it stands.
    Stopped,
}

/// The judgement: the winner (`None`: a draw) and why, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub winner: Option<String>,
    /// The reasons, then the result itself as the last line.
    pub lines: Vec<String>,
}

impl Verdict {
    /// The result a league or a campaign records.
    pub fn result(&self) -> GameResult {
        match &self.winner {
            Some(side) => GameResult::Won { side: side.clone() },
            None => GameResult::Drawn,
        }
    }
}

/// The phase as players call it: "turn 3, Rome's phase". The game
/// master's rounds of a phase carry the same words: their report is the
/// phase's.
pub fn phase_label(b: &Battle) -> String {
    format!("turn {}, {}'s phase", b.turn, side_name(b.phasing()))
}

/// A side as a player reads it: "rome" → "Rome".
pub fn side_name(id: &str) -> String {
    capitalize_first(id)
}

/// What a side has left of its clock, comparable across sides: the clock
/// itself when every side's start is known, else what it has lost, negated.
fn clock_standing(b: &Battle, s: &Side) -> i32 {
    if b.sides.iter().all(|s| s.clock().is_some()) {
        s.clock().unwrap_or(0)
    } else {
        -s.clock_lost
    }
}

/// The clocks in words: "Rome's morale clock stands at 7, Carthage's at 5".
fn clocks(b: &Battle) -> String {
    let known = b.sides.iter().all(|s| s.clock().is_some());
    let parts: Vec<String> = b
        .sides
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = side_name(&s.id);
            match (known, i) {
                (true, 0) => format!("{name}'s morale clock stands at {}", s.clock().unwrap_or(0)),
                (true, _) => format!("{name}'s at {}", s.clock().unwrap_or(0)),
                (false, 0) => format!("{name} has lost {} from its morale clock", s.clock_lost),
                (false, _) => format!("{name} {}", s.clock_lost),
            }
        })
        .collect();
    parts.join(", ")
}

/// The points a side scores at the end for its enemies' standards (rule
/// 15): 200 for each it holds captured, 100 for each lost or left behind.
pub fn standard_points(b: &Battle, side: &str) -> u32 {
    b.sides
        .iter()
        .filter(|s| s.id != side)
        .map(|s| match &s.standard {
            Some(StandardState::CapturedBy(_)) => end_points(true),
            Some(StandardState::Lost | StandardState::LeftBehind(_)) => end_points(false),
            _ => 0,
        })
        .sum()
}

/// The sides with the highest value of `key`, in the battle's order.
fn best<K: Ord + Copy>(b: &Battle, key: impl Fn(&Side) -> K) -> Vec<&Side> {
    let top = b.sides.iter().map(&key).max();
    b.sides.iter().filter(|s| Some(key(s)) == top).collect()
}

/// Judge the battle as it stands (ruling FA-45). `ends_at` is the pack's
/// clock end, when there is a pack.
pub fn judge(b: &Battle, ends_at: Option<i32>, ending: Ending, options: &Options) -> Verdict {
    let mut lines = Vec::new();
    let run_down: Vec<&Side> = b
        .sides
        .iter()
        .filter(|s| matches!((s.clock(), ends_at), (Some(c), Some(e)) if c <= e))
        .collect();
    let winner = if !run_down.is_empty() && run_down.len() < b.sides.len() {
        let losers: Vec<String> = run_down.iter().map(|s| side_name(&s.id)).collect();
        lines.push(format!(
            "{}'s morale clock has run down to {}, where the battle ends: its army can no longer be given enough orders.",
            losers.join(" and "),
            run_down[0].clock().unwrap_or(0),
        ));
        b.sides
            .iter()
            .find(|s| !run_down.iter().any(|r| r.id == s.id))
            .map(|s| s.id.clone())
    } else {
        match ending {
            Ending::ClockRanDown => lines.push(format!(
                "Every side's morale clock has run down together: {}.",
                clocks(b)
            )),
            Ending::LastTurn(last) => lines.push(format!(
                "The battle ends after turn {last}, its last, with no side's morale clock run down: {}.",
                clocks(b)
            )),
            Ending::Stopped => lines.push(format!(
                "The battle is stopped before its end: {}.",
                clocks(b)
            )),
        }
        if ending != Ending::ClockRanDown && options.last_turn_result == LastTurnResult::Draw {
            lines.push(
                "As this game's options have it, a battle no morale clock has ended is a draw."
                    .into(),
            );
            None
        } else {
            by_clock_then_standards(b, &mut lines)
        }
    };
    lines.push(match &winner {
        Some(w) => format!("{} has won the battle.", side_name(w)),
        None => "The battle is a draw.".into(),
    });
    Verdict { winner, lines }
}

/// The higher clock wins; level clocks go to the standards' points; level
/// again is a draw.
fn by_clock_then_standards(b: &Battle, lines: &mut Vec<String>) -> Option<String> {
    let ahead = best(b, |s| clock_standing(b, s));
    if let [one] = ahead.as_slice() {
        lines.push(format!(
            "{}'s morale clock stands the higher.",
            side_name(&one.id)
        ));
        return Some(one.id.clone());
    }
    let points = best(b, |s| standard_points(b, &s.id));
    let scored: Vec<String> = b
        .sides
        .iter()
        .map(|s| format!("{} {}", side_name(&s.id), standard_points(b, &s.id)))
        .collect();
    match points.as_slice() {
        [one] => {
            lines.push(format!(
                "The clocks stand level, so the standards decide: points for enemy standards captured (200) or lost (100): {}.",
                scored.join(", ")
            ));
            Some(one.id.clone())
        }
        _ => {
            lines.push(
                "The clocks stand level, and so do the points for enemy standards captured or lost."
                    .into(),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fr_ancients::demo::trebia;

    fn battle() -> Battle {
        trebia(None).unwrap().battle
    }

    #[test]
    fn the_side_whose_clock_runs_down_loses() {
        let mut b = battle();
        b.sides[0].clock_start = Some(10);
        b.sides[1].clock_start = Some(10);
        b.sides[0].clock_lost = 10;
        b.sides[1].clock_lost = 9;
        let v = judge(&b, Some(0), Ending::ClockRanDown, &Options::default());
        assert_eq!(v.winner.as_deref(), Some("carthage"));
        assert_eq!(
            v.result(),
            GameResult::Won {
                side: "carthage".into()
            }
        );
        assert!(
            v.lines[0].starts_with("Rome's morale clock has run down to 0"),
            "{v:?}"
        );
        assert_eq!(v.lines.last().unwrap(), "Carthage has won the battle.");
    }

    #[test]
    fn clocks_running_down_together_go_to_the_clock_then_a_draw() {
        let mut b = battle();
        for s in &mut b.sides {
            s.clock_start = Some(3);
            s.clock_lost = 3;
        }
        let v = judge(&b, Some(0), Ending::ClockRanDown, &Options::default());
        assert_eq!(v.winner, None);
        assert_eq!(v.lines.last().unwrap(), "The battle is a draw.");
        b.sides[0].clock_lost = 4;
        let v = judge(&b, Some(0), Ending::ClockRanDown, &Options::default());
        assert_eq!(v.winner.as_deref(), Some("carthage"), "{v:?}");
    }

    #[test]
    fn at_the_last_turn_the_higher_clock_wins_or_losses_without_a_start() {
        let mut b = battle();
        assert!(
            b.sides.iter().all(|s| s.clock().is_none()),
            "no pack: no start"
        );
        b.sides[0].clock_lost = 3;
        b.sides[1].clock_lost = 1;
        let v = judge(&b, None, Ending::LastTurn(12), &Options::default());
        assert_eq!(v.winner.as_deref(), Some("carthage"));
        assert!(
            v.lines[0].contains("Rome has lost 3 from its morale clock, Carthage 1"),
            "{v:?}"
        );
        let draw = Options {
            last_turn_result: LastTurnResult::Draw,
            ..Options::default()
        };
        assert_eq!(judge(&b, None, Ending::LastTurn(12), &draw).winner, None);
        let stopped = judge(&b, None, Ending::Stopped, &draw);
        assert_eq!(stopped.winner, None, "the option holds for a stopped game");
    }

    #[test]
    fn level_clocks_go_to_the_standards() {
        let mut b = battle();
        b.sides[0].clock_lost = 2;
        b.sides[1].clock_lost = 2;
        assert_eq!(
            judge(&b, None, Ending::Stopped, &Options::default()).winner,
            None
        );
        b.sides[1].standard = Some(StandardState::Lost);
        assert_eq!(standard_points(&b, "rome"), 100);
        let v = judge(&b, None, Ending::LastTurn(12), &Options::default());
        assert_eq!(v.winner.as_deref(), Some("rome"), "{v:?}");
        assert!(v.lines[1].contains("Rome 100, Carthage 0"), "{v:?}");
        b.sides[0].standard = Some(StandardState::CapturedBy("x".into()));
        let v = judge(&b, None, Ending::LastTurn(12), &Options::default());
        assert_eq!(
            v.winner.as_deref(),
            Some("carthage"),
            "200 beats 100: {v:?}"
        );
    }
}
