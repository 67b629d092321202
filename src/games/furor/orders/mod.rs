//! The orders of one player-turn, as the engine takes them: moves in the
//! order written (§7), the ordered attack list (§9.1, O12), and the other
//! player's standing reactions (§15). A player's sheet is read by
//! [`read`] (the grammar `grammar/furor.pest`) and checked against the
//! board by [`check`], which also plans every move and attack for the
//! confirmation ([`confirm`]); case files write the same orders as tables.
//!
//! ```
//! use umpire::games::furor::orders::{Attack, Move, PlayerTurnOrders, Route};
//! let orders = PlayerTurnOrders {
//!     moves: vec![Move::path("aquitaine", &["0710", "0709"]).charging("provence")],
//!     attacks: vec![Attack::new("provence", &["aquitaine", "burgundy"])],
//!     ..PlayerTurnOrders::default()
//! };
//! assert!(matches!(&orders.moves[0].route, Route::Path(p) if p.len() == 2));
//! ```

pub mod check;
pub mod confirm;
pub mod read;
pub mod setup;

use crate::diagnostic::Severity;
use crate::games::furor::board::UnitId;
use crate::games::furor::hex::Hex;
use crate::games::furor::rules::crt::Column;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What a diagnostic about an order sheet says of a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// Not understood: `Salian 3b: mvoe 0607` (the line is not taken).
    Unreadable,
    /// A name that matches no counter: `attack Provance with …`.
    UnknownUnit,
    /// Another army's unit: `Syagrius: move 0507` from the Frankish player.
    NotYours,
    /// Moves and attacks written outside the writer's own player-turn.
    NotYourTurn,
    /// Understood but against the rules: `Salian 3b: move 0607 0605`.
    Illegal,
    /// Taken, with a remark: a charge that will be a plain move, an
    /// attacker that cannot take part as things stand.
    Remark,
}

impl Severity for Problem {
    fn is_error(&self) -> bool {
        !matches!(self, Problem::Remark)
    }
}

/// Where a move goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// Every hex entered, in order (`move 1110 1109 1108`); empty: stays.
    Path(Vec<Hex>),
    /// A destination the umpire routes by the cheapest legal path, ties to
    /// the lowest hex ids (`move to 1108`).
    To(Hex),
}

/// One unit's move.
///
/// Written `Huns 3: move 1110 1109 1108`, `Aquitaine: charge Provence by
/// 0710 0709`, `Huns 3: feigned flight at Visigoths 2, then move 1109`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub unit: UnitId,
    pub route: Route,
    /// A charge at this unit (§9.2).
    pub charge: Option<UnitId>,
    /// A feigned flight at this unit, declared before moving (scenario 1 rule 3).
    pub feigned_flight: Option<UnitId>,
}

impl Move {
    /// A move along the hexes given.
    ///
    /// # Panics
    /// On a malformed hex id: for tests and examples.
    pub fn path(unit: &str, hexes: &[&str]) -> Move {
        Move {
            unit: unit.into(),
            route: Route::Path(hexes.iter().map(|h| h.parse().expect("a hex id")).collect()),
            charge: None,
            feigned_flight: None,
        }
    }

    pub fn charging(mut self, target: &str) -> Move {
        self.charge = Some(target.into());
        self
    }
}

/// Who advances into the defender's hex if it is vacated (§9.11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Advance {
    #[default]
    None,
    Unit(UnitId),
}

/// One attack of the ordered list.
///
/// Written `attack Provence with Aquitaine, Burgundy, fire Bowmen; min 2/1;
/// advance Aquitaine; losses Burgundy, Aquitaine; else attack Neustrie with …`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    pub target: UnitId,
    /// In the order AR/AT results apply to them and default losses break ties (O25).
    pub attackers: Vec<UnitId>,
    /// Those of the attackers that fire at range; the rest fight hand to hand.
    pub fire: BTreeSet<UnitId>,
    pub advance: Advance,
    /// A commander stacked with the advancing unit goes too.
    pub advance_commander: bool,
    /// One entry per step lost, in order (§9.9); the rest by default (O25).
    pub losses: Vec<UnitId>,
    /// Skip the attack if the final column is lower.
    pub min_odds: Option<Column>,
    /// Skip the attack if any attacker cannot take part.
    pub all: bool,
    /// The attack to make instead if this one is skipped.
    pub otherwise: Option<Box<Attack>>,
}

impl Attack {
    /// Hand to hand by every unit named, no advance.
    pub fn new(target: &str, attackers: &[&str]) -> Attack {
        Attack {
            target: target.into(),
            attackers: attackers.iter().map(|a| UnitId::from(*a)).collect(),
            fire: BTreeSet::new(),
            advance: Advance::None,
            advance_commander: false,
            losses: Vec::new(),
            min_odds: None,
            all: false,
            otherwise: None,
        }
    }
}

/// The defender's advance after combat (§9.11, "the reverse is also true").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DefenderAdvance {
    /// The default: defenders stay.
    #[default]
    None,
    /// `no advance` written: defenders stay, and the owner is never asked
    /// (FB-19).
    Stay,
    /// This unit advances, when it defends, into the first hex vacated.
    Unit(UnitId),
    /// These units advance, when they defend, into the hex named (if vacated).
    Into(BTreeMap<UnitId, Hex>),
}

/// Breton evasion (Vouillé rule 1, O41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Evasion {
    /// The default: roll whenever allowed.
    #[default]
    Always,
    Never,
    /// Only when the attack's column is this or higher.
    AtOdds(Column),
}

/// The owner's choice for one occasion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "hex")]
pub enum Answer {
    /// Retreat to, or advance into, this hex.
    Hex(Hex),
    /// Do not advance.
    Stay,
    Evade,
    DoNotEvade,
    /// He was asked and did not answer by the deadline: the umpire's
    /// default, and no second question.
    Default,
}

/// Choices a player makes for his units in the other player's turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Reactions {
    /// Preferred retreat hexes per unit, first first (among the best priority, §9.8).
    pub retreat: BTreeMap<UnitId, Vec<Hex>>,
    pub advance: DefenderAdvance,
    pub advance_commander: bool,
    /// Per attacked unit, the owner's loss order.
    pub losses: BTreeMap<UnitId, Vec<UnitId>>,
    pub evasion: BTreeMap<UnitId, Evasion>,
    /// The path for an enemy impetuous unit's rush, per unit (the opponent's choice).
    pub impetuous_routes: BTreeMap<UnitId, Vec<Hex>>,
    /// The owner's answers for single occasions of this player-turn, by
    /// occasion (`retreat:UNIT:K`): never standing, never stored with the
    /// standing reactions (FB-19).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub once: BTreeMap<String, Answer>,
}

/// Everything the phasing player wrote for his player-turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PlayerTurnOrders {
    pub moves: Vec<Move>,
    pub attacks: Vec<Attack>,
    /// Preferred retreat hexes for his own units (attacker results).
    pub retreat: BTreeMap<UnitId, Vec<Hex>>,
    /// The path for an enemy impetuous unit fired upon (his choice as opponent).
    pub impetuous_routes: BTreeMap<UnitId, Vec<Hex>>,
}

impl PlayerTurnOrders {
    /// Every unit id the orders name, to check against the board.
    pub fn named_units(&self) -> BTreeSet<&UnitId> {
        fn attack_units<'a>(a: &'a Attack, out: &mut BTreeSet<&'a UnitId>) {
            out.insert(&a.target);
            out.extend(a.attackers.iter().chain(&a.fire).chain(&a.losses));
            if let Advance::Unit(u) = &a.advance {
                out.insert(u);
            }
            if let Some(o) = &a.otherwise {
                attack_units(o, out);
            }
        }
        let mut out = BTreeSet::new();
        for m in &self.moves {
            out.insert(&m.unit);
            out.extend(m.charge.iter().chain(&m.feigned_flight));
        }
        for a in &self.attacks {
            attack_units(a, &mut out);
        }
        out.extend(self.retreat.keys().chain(self.impetuous_routes.keys()));
        out
    }
}
