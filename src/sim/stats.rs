//! Counting results: wins, draws and losses with their 95% confidence
//! intervals by the Wilson score method, which stays inside [0, 1] and
//! behaves at 0 and n (where the textbook p ± 1.96·√(p(1−p)/n) gives an
//! interval of width zero).
//!
//! ```
//! use umpire::sim::stats::Proportion;
//! let p = Proportion::new(5, 10);
//! let (lo, hi) = p.interval();
//! assert!((lo - 0.2366).abs() < 1e-4 && (hi - 0.7634).abs() < 1e-4);
//! assert_eq!(Proportion::new(0, 0).interval(), (0.0, 1.0));
//! ```

use serde::Serialize;

/// z for a two-sided 95% interval: the 97.5th percentile of the normal.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// `successes` out of `trials`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Proportion {
    pub successes: u64,
    pub trials: u64,
}

impl Proportion {
    pub fn new(successes: u64, trials: u64) -> Self {
        Proportion {
            successes: successes.min(trials),
            trials,
        }
    }

    /// The observed share (0 when nothing was tried).
    pub fn rate(&self) -> f64 {
        if self.trials == 0 {
            0.0
        } else {
            self.successes as f64 / self.trials as f64
        }
    }

    /// The Wilson score interval at 95%; with no trials, everything is possible.
    pub fn interval(&self) -> (f64, f64) {
        if self.trials == 0 {
            return (0.0, 1.0);
        }
        let n = self.trials as f64;
        let p = self.rate();
        let z2 = Z_95 * Z_95;
        let denominator = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / denominator;
        let half = Z_95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// "47.5% (44.4–50.6)".
    pub fn percent_text(&self) -> String {
        let (lo, hi) = self.interval();
        format!(
            "{:.1}% ({:.1}–{:.1})",
            100.0 * self.rate(),
            100.0 * lo,
            100.0 * hi
        )
    }
}

/// A proportion with its interval, as JSON and CSV give it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub count: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl From<Proportion> for Estimate {
    fn from(p: Proportion) -> Self {
        let (low, high) = p.interval();
        Estimate {
            count: p.successes,
            rate: p.rate(),
            low,
            high,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 5e-5 && (a.1 - b.1).abs() < 5e-5
    }

    #[test]
    fn wilson_intervals_on_known_counts() {
        // Reference values: Wilson (1927); e.g. Newcombe (1998), Table I, and
        // R's prop.test(correct = FALSE).
        assert!(close(Proportion::new(0, 10).interval(), (0.0, 0.2775)));
        assert!(close(Proportion::new(10, 10).interval(), (0.7225, 1.0)));
        assert!(close(Proportion::new(1, 10).interval(), (0.0179, 0.4042)));
        assert!(close(Proportion::new(81, 263).interval(), (0.2553, 0.3662)));
        assert!(close(Proportion::new(15, 148).interval(), (0.0624, 0.1605)));
        assert!(close(
            Proportion::new(500, 1000).interval(),
            (0.4691, 0.5309)
        ));
    }

    #[test]
    fn intervals_shrink_with_more_trials_and_hold_the_rate() {
        for n in [1u64, 7, 50, 999] {
            for k in 0..=n.min(60) {
                let p = Proportion::new(k, n);
                let (lo, hi) = p.interval();
                assert!(lo <= p.rate() + 1e-12 && p.rate() <= hi + 1e-12, "{k}/{n}");
                assert!((0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi));
            }
        }
        let narrow = Proportion::new(300, 1000).interval();
        let wide = Proportion::new(30, 100).interval();
        assert!(narrow.1 - narrow.0 < wide.1 - wide.0);
    }

    #[test]
    fn text_and_bounds() {
        assert_eq!(Proportion::new(5, 10).percent_text(), "50.0% (23.7–76.3)");
        assert_eq!(
            Proportion::new(12, 10).successes,
            10,
            "never more successes than trials"
        );
    }
}
