//! Furor Barbarus: its orders, its guide, its properties, the demo, play by mail (crash safety included) and the generals of the balance lab.
//! One test binary for the lot (build time): each file is a module.

#[path = "../common/mod.rs"]
mod common;

mod club;
mod crash;
mod demo;
mod guide;
mod invariants;
mod mails;
mod orders;
mod post;
mod reports;
mod sim;
