//! Elo ratings (Arpad Elo, *The Rating of Chessplayers*; FIDE's handbook
//! B.02): a member's expected score against another is
//! `1 / (1 + 10^((Rb - Ra) / 400))`, and after a game each rating moves by
//! `K × (score - expected)`, the two changes summing to nothing.
//!
//! The arithmetic uses `libm`, so ratings replayed from the same results
//! come out to the same bits on every machine.

use serde::{Deserialize, Serialize};

/// The rating system of the league file's `[rating]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Elo {
    /// The development coefficient: how far one game moves a rating.
    pub k: f64,
    /// A new member's rating.
    pub initial: f64,
}

/// The book's scale: a difference of this many points makes the stronger
/// player ten times as likely to win as to lose.
pub const ELO_SCALE: f64 = 400.0;

impl Default for Elo {
    fn default() -> Self {
        Elo {
            k: 32.0,
            initial: 1500.0,
        }
    }
}

impl Elo {
    /// The expected score of a member rated `a` against one rated `b`.
    pub fn expected(a: f64, b: f64) -> f64 {
        1.0 / (1.0 + libm::pow(10.0, (b - a) / ELO_SCALE))
    }

    /// The two ratings after a game in which the first scored `score`
    /// (1 a win, 0.5 a draw, 0 a loss).
    pub fn rate(&self, a: f64, b: f64, score: f64) -> (f64, f64) {
        let change = self.k * (score - Elo::expected(a, b));
        (a + change, b - change)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_scores_are_those_of_the_published_example() {
        // Wikipedia's "Elo rating system" example: a player rated 1613
        // against five opponents; expected scores .51, .69, .79, .54, .35.
        for (b, e) in [
            (1609.0, 0.506),
            (1477.0, 0.686),
            (1388.0, 0.785),
            (1586.0, 0.539),
            (1720.0, 0.351),
        ] {
            let got = Elo::expected(1613.0, b);
            assert!((got - e).abs() < 0.0005, "against {b}: {got}, not {e}");
        }
        // The sum 2.867; with K = 32 and 2.5 points the rating falls to 1601.
        let total: f64 = [1609.0, 1477.0, 1388.0, 1586.0, 1720.0]
            .iter()
            .map(|&b| Elo::expected(1613.0, b))
            .sum();
        assert!((total - 2.867).abs() < 0.001, "{total}");
        assert_eq!((1613.0 + 32.0 * (2.5 - total)).round(), 1601.0);
    }

    #[test]
    fn a_game_moves_both_ratings_by_k_times_the_surprise() {
        let elo = Elo::default();
        assert_eq!(elo.rate(1500.0, 1500.0, 1.0), (1516.0, 1484.0));
        assert_eq!(elo.rate(1500.0, 1500.0, 0.5), (1500.0, 1500.0));
        // 200 points apart: the favourite expects 0.7597 and gains 7.69 by
        // winning, loses 24.31 by losing.
        let (a, b) = elo.rate(1600.0, 1400.0, 1.0);
        assert!(
            (a - 1607.69).abs() < 0.01 && (b - 1392.31).abs() < 0.01,
            "{a} {b}"
        );
        let (a, b) = elo.rate(1600.0, 1400.0, 0.0);
        assert!(
            (a - 1575.69).abs() < 0.01 && (b - 1424.31).abs() < 0.01,
            "{a} {b}"
        );
        // Nothing is created or lost.
        let (a, b) = Elo {
            k: 24.0,
            initial: 1500.0,
        }
        .rate(1733.0, 1291.0, 0.5);
        assert!((a + b - 3024.0).abs() < 1e-9);
    }
}
