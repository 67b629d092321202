//! Step 7, Determine Phase Winner, step 8, Adjust Morale Clock, and the
//! end of the phase.
//!
//! "Count 1 point per enemy unit demoralized and 2 points for each enemy
//! unit destroyed. Skirmishers, Rabble and Scythed Chariots count as a
//! single demoralized unit when they are destroyed. The side with the
//! highest total wins this phase." A tie has no loser (ruling FA-2).
//! "The phase loser lowers their morale clock by one", or, in larger games,
//! the loser of the turn at its end (rule 10, option `morale_clock`).

use crate::games::fr_ancients::engine::Engine;
use crate::games::fr_ancients::events::Event;
use crate::games::fr_ancients::new_rules::tally_points;
use crate::games::fr_ancients::options::ClockMode;

impl Engine<'_> {
    /// Step 7: both sides count what the other lost this phase.
    pub(crate) fn phase_winner(&mut self) {
        let mut scores = Vec::new();
        for side in self
            .battle
            .sides
            .iter()
            .map(|s| s.id.clone())
            .collect::<Vec<_>>()
        {
            let points: u32 = self
                .battle
                .units
                .values()
                .filter(|u| u.side != side)
                .map(|u| {
                    tally_points(
                        u.troop,
                        self.record.destroyed.contains(&u.id),
                        self.record.demoralized.contains(&u.id),
                    )
                })
                .sum();
            scores.push((side, points));
        }
        let winner = winner_of(&scores);
        self.log(Event::Tally {
            scores: scores.clone(),
            winner,
        });
        self.record.scores = scores;
    }

    /// Step 8.
    pub(crate) fn morale_clock(&mut self) {
        let scores = self.record.scores.clone();
        match self.options.morale_clock {
            ClockMode::PerPhase => {
                if let Some(loser) = loser_of(&scores) {
                    self.lose_clock(&loser, "lost the phase (step 8)");
                }
            }
            ClockMode::PerTurn => {
                for (side, p) in &scores {
                    if let Some(s) = self.battle.side_mut(side) {
                        s.turn_tally += p;
                    }
                }
                if self.phase() == 2 {
                    let turn: Vec<(String, u32)> = self
                        .battle
                        .sides
                        .iter()
                        .map(|s| (s.id.clone(), s.turn_tally))
                        .collect();
                    if let Some(loser) = loser_of(&turn) {
                        self.lose_clock(
                            &loser,
                            "lost the turn (rule 10: the clock is lowered every turn)",
                        );
                    }
                    for s in &mut self.battle.sides {
                        s.turn_tally = 0;
                    }
                }
            }
        }
    }

    /// The next side's phase, or the next turn.
    pub(crate) fn end_of_phase(&mut self) {
        let (turn, phase) = (self.battle.turn, self.battle.phase);
        if phase == 1 {
            self.battle.phase = 2;
        } else {
            self.battle.phase = 1;
            self.battle.turn += 1;
        }
        let next = self.battle.phasing().clone();
        self.log(Event::PhaseEnds { turn, phase, next });
    }
}

/// The side with the highest total, if one has more than every other.
pub fn winner_of(scores: &[(String, u32)]) -> Option<String> {
    let best = scores.iter().map(|(_, p)| *p).max()?;
    let top: Vec<&String> = scores
        .iter()
        .filter(|(_, p)| *p == best)
        .map(|(s, _)| s)
        .collect();
    (top.len() == 1).then(|| top[0].clone())
}

/// The side that lost: the lower of two totals, none on a tie.
fn loser_of(scores: &[(String, u32)]) -> Option<String> {
    let w = winner_of(scores)?;
    scores.iter().find(|(s, _)| *s != w).map(|(s, _)| s.clone())
}
