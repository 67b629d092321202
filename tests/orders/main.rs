//! The Hyborean order language: validation, confirmations, the players' guide and robustness against any text.
//! One test binary for the lot (build time): each file is a module.

mod confirm;
mod guide;
mod robust;
mod validate;
