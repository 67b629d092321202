//! The Hyborean world and the other tables: the campaign and its map, the national army lists, the balance lab and FR! Ancients.
//! One test binary for the lot (build time): each file is a module.

#[path = "../common/mod.rs"]
mod common;

mod armies;
mod border;
mod campaign;
mod campaign_by_mail;
mod campaign_desk;
mod campaign_general;
mod campaign_map;
mod fr_ancients;
mod mails;
mod sim;
mod sim_generals;
