//! What every rule set's balance lab shares (`umpire simulate`,
//! docs/balance.md), below the rule sets so that none reaches into
//! another's folder: game seeds derived from one master seed ([`seed`]),
//! Wilson intervals ([`stats`]), the generals' two temperaments
//! ([`Style`]), who commands a side — a general or nobody, the side that
//! only holds ([`Commander`]) — and running games on a pool of threads
//! ([`on_threads`]).
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
//! modules print or write (the progress bar they draw is [`progress`]).

mod commander;
pub mod seed;
pub mod stats;
mod style;

pub use commander::{Commander, UnknownCommander};
pub use style::{Style, UnknownStyle};

/// Play `runs` games from `master` on `threads` threads (0: one per
/// core), each from its own [`seed::BattleSeed::of_run`], calling `tick`
/// after each (a progress bar); the outcomes come back in run order, so
/// the result does not depend on the number of threads.
///
/// # Errors
/// The first game that could not be played, in run order.
pub fn play_runs<O: Send, E: Send>(
    master: u64,
    runs: u64,
    threads: usize,
    play: impl Fn(seed::BattleSeed) -> Result<O, E> + Sync + Send,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<O>, E> {
    use rayon::prelude::*;
    on_threads(threads, || {
        (0..runs)
            .into_par_iter()
            .map(|i| {
                let o = play(seed::BattleSeed::of_run(master, i));
                tick();
                o
            })
            .collect()
    })
}

/// Run `work` on a pool of `threads` threads (0: rayon's default, one per core).
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// A progress bar of `total` `things` ("battles", "games") on a terminal's
/// standard error; nothing when standard error is not a terminal.
pub fn progress(total: u64, things: &str) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template = format!("{{bar:40}} {{pos}}/{{len}} {things}, {{per_sec}}, {{eta}} left");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
