//! Checked orders: what the engine carries out, per side and turn. A
//! side's orders hold what it does in its own phase (moves, charges,
//! formations, shots, challenges) and its standing reactions in the
//! enemy's phase (counter-charges, opening ranks to scythed chariots).

use crate::games::fr_ancients::table::{CharacterId, Formation, Place, SideId, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One unit's order for its side's movement (step 4d).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum UnitOrder {
    /// "Roman Hastati 1: move to 30, 20 facing 0" (`at full speed` lets
    /// unmanoeuvreable troops wheel at full speed, with a rally test).
    Move {
        unit: UnitId,
        to: Place,
        full_speed: bool,
    },
    /// "Latin Cavalry 1: charge Numidian Horsemen 2"
    Charge { unit: UnitId, target: UnitId },
    /// "Latin Hastati 1: shieldwall", "tortoise", "form line"
    Form { unit: UnitId, formation: Formation },
    /// "Roman Princeps 1: pass through Roman Hastati 1" (the rear unit replaces the front one)
    PassThrough { unit: UnitId, front: UnitId },
    /// "Roman Velites 3: withdraw" (rule 2)
    Withdraw { unit: UnitId },
}

impl UnitOrder {
    pub fn unit(&self) -> &UnitId {
        match self {
            UnitOrder::Move { unit, .. }
            | UnitOrder::Charge { unit, .. }
            | UnitOrder::Form { unit, .. }
            | UnitOrder::PassThrough { unit, .. }
            | UnitOrder::Withdraw { unit } => unit,
        }
    }

    /// The order as the confirmation writes it back; a move written as a
    /// relative order says how ("advances 6 to 30.0, 26.0 facing 0").
    pub fn said(&self, name: impl Fn(&str) -> String, said: Option<&String>) -> String {
        match (self, said) {
            (
                UnitOrder::Move {
                    unit,
                    to,
                    full_speed,
                },
                Some(how),
            ) => format!(
                "{}: {how} to {:.1}, {:.1} facing {:.0}{}",
                name(unit),
                to.front.x,
                to.front.y,
                to.facing,
                if *full_speed { " at full speed" } else { "" }
            ),
            _ => self.text(name),
        }
    }

    /// The order as the confirmation writes it back.
    pub fn text(&self, name: impl Fn(&str) -> String) -> String {
        match self {
            UnitOrder::Move {
                unit,
                to,
                full_speed,
            } => format!(
                "{}: move to {:.1}, {:.1} facing {:.0}{}",
                name(unit),
                to.front.x,
                to.front.y,
                to.facing,
                if *full_speed { " at full speed" } else { "" }
            ),
            UnitOrder::Charge { unit, target } => {
                format!("{}: charge {}", name(unit), name(target))
            }
            UnitOrder::Form { unit, formation } => format!(
                "{}: {}",
                name(unit),
                match formation {
                    Formation::Normal => "form line",
                    Formation::ShieldWall => "shieldwall",
                    Formation::Tortoise => "tortoise",
                }
            ),
            UnitOrder::PassThrough { unit, front } => {
                format!("{}: pass through {}", name(unit), name(front))
            }
            UnitOrder::Withdraw { unit } => format!("{}: withdraw", name(unit)),
        }
    }
}

/// A unit's choice in the missile fire step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shoot {
    /// "Balearic Slingers 1: shoot Roman Velites 2"
    At(UnitId),
    /// "Balearic Slingers 1: hold fire" (only units free to choose, rule 4)
    Hold,
}

/// One side's checked orders for a turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SideOrders {
    /// In the order written.
    pub moves: Vec<UnitOrder>,
    pub shoot: BTreeMap<UnitId, Shoot>,
    /// Archers that fire singly rather than concentrate ("fire singly").
    pub fire_singly: BTreeSet<UnitId>,
    /// Standing: counter-charge an enemy charge when eligible (rule 8).
    pub counter_charge: BTreeSet<UnitId>,
    /// Standing: open ranks to let a scythed chariot through (rule 9).
    pub open_ranks: BTreeSet<UnitId>,
    /// "Hannibal Barca: challenge Tiberius Sempronius Longus"
    pub challenges: Vec<(CharacterId, CharacterId)>,
    /// "Mago Barca: join Celtic Infantry 3"
    pub joins: Vec<(CharacterId, UnitId)>,
    /// How a move was written when not as a place ("advances 6", "wheels
    /// right 45", "follows Roman Hastati 1", "in a group, advances 6"): the
    /// confirmation says it with the place it comes to.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub said: BTreeMap<UnitId, String>,
}

/// Both sides' orders for the turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnOrders {
    pub sides: BTreeMap<SideId, SideOrders>,
}

impl TurnOrders {
    /// A side's orders (none written: empty).
    pub fn of(&self, side: &str) -> SideOrders {
        self.sides.get(side).cloned().unwrap_or_default()
    }
}
