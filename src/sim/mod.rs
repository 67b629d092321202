//! What every rule set's balance lab shares (`umpire simulate`,
//! docs/balance.md), below the rule sets so that none reaches into
//! another's folder: game seeds derived from one master seed ([`seed`]),
//! Wilson intervals ([`stats`]), the generals' two temperaments
//! ([`Style`]), and running games on a pool of threads ([`on_threads`]).
//! The generals, the games and the commands live with each rule set
//! (`games::hyborian::sim`, `games::furor::sim`).
//!
//! ```
//! use umpire::sim::{on_threads, seed::BattleSeed};
//! let seeds: Vec<BattleSeed> = on_threads(2, || (0..3).map(|i| BattleSeed::of_run(9, i)).collect());
//! assert_eq!(seeds[2], BattleSeed::of_run(9, 2));
//! ```
//!
//! Architecture invariant: no I/O, no clock; only the rule sets' `sim::cli`
//! modules print or write.

pub mod seed;
pub mod stats;
mod style;

pub use style::{Style, UnknownStyle};

/// Run `work` on a pool of `threads` threads (0: rayon's default, one per core).
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}
