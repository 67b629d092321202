//! What a map turn reports: every event in the order it happened, and the
//! results the secretary enters.

use crate::games::hyborian::campaign::battle::Card;
use crate::games::hyborian::campaign::game::{BattleMode, Campaign};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A battle result entered from outside the week: by the secretary (the
/// winning power and the points each army lost) or from a battle game by
/// mail that ended (the figures each unit lost, read off its last table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnteredResult {
    pub battle: u32,
    /// The power that broke the other; `None` when neither did.
    pub winner: Option<String>,
    /// Points lost per army (the secretary's), shared out over its units.
    pub losses: Vec<(String, u32)>,
    /// Figures lost per army and unit (a battle game's), taken as they are.
    #[serde(default)]
    pub figures: BTreeMap<String, BTreeMap<String, u32>>,
    /// Who fought it: [`BattleMode::Secretary`] or [`BattleMode::Mail`].
    #[serde(default)]
    pub by: BattleMode,
    /// The SVG of a battle game's last table (none from the secretary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// Both armies broke in the same turn of the battle game (ruling
    /// `winner`, if any, is the one over its half by less.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub both_broke: bool,
}

/// One side of a battle as the report tells it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSide {
    pub army: String,
    pub power: String,
    pub points: u32,
    pub lost: u32,
    pub recovered: u32,
}

/// What happened in a map turn. Each event knows who took part
/// ([`MapEvent::parties`]) and where it was seen ([`MapEvent::place`]); fog
/// decides who reads it. No event holds an army's contents except those
/// only its owner reads (`Raised`, `Split`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MapEvent {
    /// An order not carried out, and why.
    Refused {
        power: String,
        line: String,
        why: String,
        /// The order's line number in the power's mail: two identical
        /// lines get each their own verdict (issue 45). Events stored
        /// before it have none, and are matched by their text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        number: Option<usize>,
    },
    Marched {
        army: String,
        power: String,
        from: String,
        to: String,
    },
    /// Still on the road: days made of days needed.
    OnTheMarch {
        army: String,
        power: String,
        to: String,
        days: u32,
        needed: u32,
    },
    Split {
        power: String,
        army: String,
        new_army: String,
        units: Vec<String>,
    },
    Merged {
        power: String,
        army: String,
        into: String,
    },
    Raised {
        power: String,
        army: String,
        figures: u32,
        designation: String,
        cost: u32,
    },
    StanceTaken {
        power: String,
        army: String,
        stance: String,
    },
    Hired {
        employer: String,
        company: String,
        points: u32,
    },
    Paid {
        employer: String,
        company: String,
        province: String,
    },
    Battle {
        id: u32,
        province: String,
        card: Card,
        table_feet: u32,
        /// Every army that fought, each power's side together.
        sides: Vec<BattleSide>,
        winner: Option<String>,
        /// Both armies broke in the same turn (ruling A-25): `winner`, if
        /// any, held the field by having lost the smaller share.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        both_broke: bool,
        by: String,
        /// The SVG of the last table (engine and mail battles), sent with
        /// the reports of those who fought it; events stored before it was
        /// drawn have none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        picture: Option<String>,
    },
    /// The loser falls back (or, with nowhere to go, surrenders).
    FellBack {
        army: String,
        power: String,
        from: String,
        to: Option<String>,
    },
    Destroyed {
        army: String,
        power: String,
        province: String,
    },
    BattleAwaits {
        id: u32,
        province: String,
        armies: Vec<String>,
        powers: [String; 2],
        card: Card,
        table_feet: u32,
        /// Why the engine did not fight it (with `battles = "engine"`).
        #[serde(default)]
        why: Option<String>,
        /// How it is to be fought (by mail: a battle game is created).
        #[serde(default)]
        by: BattleMode,
    },
    Besieging {
        province: String,
        army: String,
        power: String,
        weeks: u32,
        needed: u32,
    },
    StarvedOut {
        province: String,
        army: String,
        power: String,
    },
    Occupied {
        province: String,
        power: String,
        from: Option<String>,
        /// The hired company whose armies took it for `power`: the flag
        /// onlookers read (ruling CA-15).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seen_as: Option<String>,
    },
    Pacified {
        province: String,
        power: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seen_as: Option<String>,
    },
    Transferred {
        province: String,
        from: Option<String>,
        to: String,
    },
    ContractEnded {
        company: String,
        employer: String,
    },
    Rebuilt {
        power: String,
        allowance: u32,
        treasury: u32,
    },
}

impl MapEvent {
    /// The powers who take part and always read it.
    pub fn parties(&self) -> Vec<&str> {
        use MapEvent::*;
        match self {
            Refused { power, .. }
            | Marched { power, .. }
            | OnTheMarch { power, .. }
            | Split { power, .. }
            | Merged { power, .. }
            | Raised { power, .. }
            | StanceTaken { power, .. }
            | FellBack { power, .. }
            | Destroyed { power, .. }
            | Besieging { power, .. }
            | StarvedOut { power, .. }
            | Occupied { power, .. }
            | Pacified { power, .. }
            | Rebuilt { power, .. } => vec![power],
            Hired {
                employer, company, ..
            }
            | Paid {
                employer, company, ..
            }
            | ContractEnded { company, employer } => vec![employer, company],
            Battle { sides, .. } => sides.iter().map(|s| s.power.as_str()).collect(),
            BattleAwaits { powers, .. } => powers.iter().map(String::as_str).collect(),
            Transferred { from, to, .. } => from
                .iter()
                .map(String::as_str)
                .chain([to.as_str()])
                .collect(),
        }
    }

    /// Where others may see it happen; `None`: only the parties read it.
    pub fn place(&self) -> Option<&str> {
        use MapEvent::*;
        match self {
            Marched { to, .. } => Some(to),
            Battle { province, .. }
            | BattleAwaits { province, .. }
            | Besieging { province, .. }
            | StarvedOut { province, .. }
            | Occupied { province, .. }
            | Pacified { province, .. }
            | Transferred { province, .. }
            | Destroyed { province, .. } => Some(province),
            FellBack { from, .. } => Some(from),
            _ => None,
        }
    }
}

/// The outcome of a map turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub campaign: Campaign,
    pub events: Vec<MapEvent>,
}
