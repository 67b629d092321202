//! The engine's reasons in the players' words, with the book's section:
//! why a move was refused, why an attacker dropped out, why an attack was
//! skipped. The order checker's diagnostics and the turn report both say
//! them this way.
//!
//! ```
//! use umpire::games::furor::events::Refusal;
//! use umpire::games::furor::wording::refusal;
//! let r = Refusal::StopsInZoc { hex: "0606".parse().unwrap() };
//! assert_eq!(refusal(&r), "it goes on to 0606 after entering an enemy zone of control (§8)");
//! ```

use crate::games::furor::events::{Drop, Refusal, Skip};

/// Why a move was refused.
pub fn refusal(r: &Refusal) -> String {
    match r {
        Refusal::NotOnMap => "the unit is not on the map".into(),
        Refusal::NotYours => "the unit belongs to the other army (§4)".into(),
        Refusal::Neutral => "Chararic's corps does not move while neutral (Soissons rule 1)".into(),
        Refusal::AlreadyMoved => "the unit has already moved this phase (§7)".into(),
        Refusal::NotAdjacent { from, to } => format!("{to} is not next to {from}"),
        Refusal::OffMap { hex } => format!("{hex} is off the map"),
        Refusal::Impassable { from, to } => format!("from {from} into {to} is impassable: a river or a river hexside without a crossing (TEC 6)"),
        Refusal::Occupied { hex } => format!("{hex} holds an enemy or neutral unit (§5)"),
        Refusal::StopsInZoc { hex } => format!("it goes on to {hex} after entering an enemy zone of control (§8)"),
        Refusal::ZocToZoc { from, to } => format!("from {from} straight into {to}, both in enemy zones of control (§8)"),
        Refusal::FriendInZoc { hex } => format!("{hex} holds a friend in an enemy zone of control, where the unit would have to stop (§5, §8)"),
        Refusal::TooFewMp { hex, needed, left } => format!("entering {hex} needs {needed} MP in all, and it has {left} (§7)"),
        Refusal::Stacking { hex } => format!("it would end in {hex} with another unit it may not stack with (§5)"),
        Refusal::NoRoute { to } => format!("there is no legal route to {to}"),
    }
}

/// Why an attacker could not take part.
pub fn drop(d: &Drop) -> String {
    match d {
        Drop::Gone => "no longer on the map".into(),
        Drop::NotYours => "not a unit of the phasing army (§4)".into(),
        Drop::AlreadyAttacked => "it has already attacked this phase (§9.1)".into(),
        Drop::CannotAttack => {
            "commanders add to the unit they stand with, baggage never attacks (§6, §9.4)".into()
        }
        Drop::NotAdjacent => {
            "not next to the target, and hand-to-hand combat needs it (§9.1)".into()
        }
        Drop::AcrossRiver => "a river without a crossing lies between (O9)".into(),
        Drop::NotMissile => "only missile units fire (§9.3)".into(),
        Drop::OutOfRange { distance, range } => {
            format!("the target is {distance} hexes away, beyond its range of {range} (§9.3)")
        }
        Drop::EngagedCannotFire => "next to an enemy combat unit it cannot fire (§9.3)".into(),
        Drop::BaggageOnlyHandToHand => {
            "baggage, and a unit with baggage, are attacked only hand to hand (§9.4)".into()
        }
    }
}

/// Why an attack was not made.
pub fn skip(s: &Skip) -> String {
    match s {
        Skip::TargetGone => "the target is no longer on the map".into(),
        Skip::AlreadyAttacked => "the target has already been attacked this phase (§9.1)".into(),
        Skip::NotATarget => "the target is no enemy unit that can be attacked (O5)".into(),
        Skip::NoAttackers => "none of the attackers could take part".into(),
        Skip::AttackerMissing => "an attacker could not take part, and the attack was to be made by all or none".into(),
        Skip::MissileAloneOdds { column } => format!("a missile unit on its own attacks hand to hand only above 1/1, and this is {column} (§9.3)"),
        Skip::BelowMinimum { column, minimum } => format!("the odds were {column}, under the minimum {minimum}"),
    }
}
