//! The eight steps of the sequence of play, one module each (step 3's
//! escape rolls with the rally of step 1, step 5's challenges with the
//! melee of step 6), as methods of the [`super::engine::Engine`]. The
//! order checker asks `fire` and `movement` the same questions the steps do.

mod clock;
pub(crate) mod fire;
mod melee;
pub(crate) mod movement;
mod rally;
