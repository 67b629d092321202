//! What happened in a player-turn, in order: the engine's only output
//! besides the new board. Every variant's doc shows how a report writes
//! it. Events carry ids and numbers, never prose; reports word them.
//!
//! ```
//! use umpire::games::furor::events::{Event, Phase};
//! let e = Event::PhaseBegins { turn: 1, phase: Phase::Movement, side: "franks".into() };
//! let json = serde_json::to_string(&e).unwrap();
//! assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e);
//! ```

use crate::games::furor::board::{Outcome, SideId, Unit, UnitId};
use crate::games::furor::hex::Hex;
use crate::games::furor::rules::crt::{Column, CombatResult};
use crate::games::furor::rules::special::ChararicChoice;
use crate::games::furor::rules::{HalfMp, MoraleOutcome};
use serde::{Deserialize, Serialize};

/// The phases of a player-turn (§4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Movement,
    Combat,
}

/// Why a move was refused whole (§7, §8, §5): the unit stays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "why")]
pub enum Refusal {
    /// The unit is not on the map.
    NotOnMap,
    /// The unit belongs to the other army.
    NotYours,
    /// Chararic's corps while neutral (O37).
    Neutral,
    /// A second move for the unit in one phase (§7).
    AlreadyMoved,
    NotAdjacent {
        from: Hex,
        to: Hex,
    },
    OffMap {
        hex: Hex,
    },
    /// River hex, or a river hexside without a crossing (TEC 6).
    Impassable {
        from: Hex,
        to: Hex,
    },
    /// An enemy or neutral counter in the hex (§5).
    Occupied {
        hex: Hex,
    },
    /// The move goes on after entering an enemy ZoC (§8).
    StopsInZoc {
        hex: Hex,
    },
    /// From one enemy-ZoC hex straight into another (§8).
    ZocToZoc {
        from: Hex,
        to: Hex,
    },
    /// Into a friend's hex in enemy ZoC, where it would have to stop (O3).
    FriendInZoc {
        hex: Hex,
    },
    TooFewMp {
        hex: Hex,
        needed: HalfMp,
        left: HalfMp,
    },
    /// Two combat units, commanders or baggage in the hex at the end (§5, O2).
    Stacking {
        hex: Hex,
    },
    /// No legal route to the destination.
    NoRoute {
        to: Hex,
    },
}

/// Why an attack was not resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "why")]
pub enum Skip {
    TargetGone,
    /// Each unit may be attacked once a phase (§9.1).
    AlreadyAttacked,
    /// Not an enemy combat unit or baggage (a friend, a lone commander: O5).
    NotATarget,
    NoAttackers,
    /// Marked `all` and an attacker could not take part.
    AttackerMissing,
    /// A missile unit on its own attacks hand to hand only above 1/1 (§9.3, O16).
    MissileAloneOdds {
        column: Column,
    },
    /// The column was under the written minimum.
    BelowMinimum {
        column: Column,
        minimum: Column,
    },
}

/// Why an attacker could not take part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "why")]
pub enum Drop {
    Gone,
    NotYours,
    /// Each unit attacks once a phase (§9.1).
    AlreadyAttacked,
    /// Commanders add to a unit they stand with; baggage never attacks (§6, §9.4).
    CannotAttack,
    /// Hand to hand needs an adjacent target (§9.1).
    NotAdjacent,
    /// No hand-to-hand combat across a river without a crossing (O9).
    AcrossRiver,
    /// Only missile units fire (§9.3).
    NotMissile,
    OutOfRange {
        distance: u16,
        range: u16,
    },
    /// A missile unit next to an enemy combat unit cannot fire (§9.3).
    EngagedCannotFire,
    /// Baggage, and a unit with baggage, are attacked only hand to hand (§9.4).
    BaggageOnlyHandToHand,
}

/// One attacker's part in a combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    pub unit: UnitId,
    /// What it adds, every modifier in (a stacked commander's strength in `commander`).
    pub strength: u8,
    pub fire: bool,
    pub charge_bonus: bool,
    /// A commander stacked with it and what he adds (hand-to-hand combats only).
    pub commander: Option<(UnitId, u8)>,
}

/// A counter whose printed strength a combat's sums count, and the side
/// it showed (§9.5): what the report's notes on reconstructed values read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counted {
    pub unit: UnitId,
    /// It showed its reduced side.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reduced: bool,
}

impl Counted {
    /// The counter as it stands now.
    pub fn of(u: &Unit) -> Counted {
        Counted {
            unit: u.id.clone(),
            reduced: u.showing_reduced(),
        }
    }
}

/// A die modifier of a combat (§9.5, §9.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DieModifier {
    Village,
    BridgeHex,
    /// A stream or bridge hexside between the defender and every attacker.
    Water,
}

/// How a unit came to lose a step or be eliminated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LossCause {
    Combat,
    Morale,
    /// No hex to retreat into (§9.8).
    NoRetreat,
    /// Forced off the map (§9.8).
    OffMap,
    /// Optional rule 11.1's test.
    ZocTest,
    /// Stacked with a unit that was eliminated (§6, §9.4).
    WithItsUnit,
    /// A lone commander an enemy passed through (§6).
    Overrun,
}

/// Why a unit checks morale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoraleCause {
    /// A T result (§9.10).
    Result,
    /// A retreat that displaced friends (§9.8).
    Chain,
}

/// Why an impetuous unit tests (scenario 1 rule 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImpetuousCause {
    /// It was about to come within 2 hexes of an enemy.
    Moving,
    /// It was fired at from a distance.
    FiredUpon,
}

/// Why Chararic's corps joined a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JoinReason {
    Roll,
    /// This side attacked one of his units while neutral.
    AttackedBy(SideId),
}

/// An army's total against its threshold (§10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmyTotal {
    pub side: SideId,
    pub lost: u16,
    pub threshold: Option<u16>,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// "Turn 3 begins."
    TurnBegins { turn: u8 },
    /// "Turn 3, Chararic: 6 — he joins Clovis."
    ChararicRoll {
        turn: u8,
        roll: u8,
        choice: ChararicChoice,
    },
    /// "Chararic's corps joins the gallo-romans (the franks attacked it)."
    CorpsJoins { side: SideId, reason: JoinReason },
    /// "The god of Clotilde helps the franks this turn (Divine Help)."
    DivineHelpInForce { turn: u8, side: SideId },
    /// "Turn 1 phase 1: movement of the franks."
    PhaseBegins {
        turn: u8,
        phase: Phase,
        side: SideId,
    },
    /// "Huns 3 feigns flight at Visigoths 2: 4 − 1 = 3 against 3 — drawn to 0809 0808."
    FeignedFlight {
        unit: UnitId,
        target: UnitId,
        roll: u8,
        modified: i8,
        against: u8,
        drawn: Vec<Hex>,
        /// The counters whose strength `against` counts: the target and a
        /// commander with it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        counted: Vec<Counted>,
    },
    /// "Huns 3 cannot feign flight at Visigoths 2: it is next to another unit."
    FeignedFlightRefused {
        unit: UnitId,
        target: UnitId,
        reason: String,
    },
    /// "Aquitaine moves 0711 → 0710 0709 (1 MP), charging Provence."
    Moved {
        unit: UnitId,
        from: Hex,
        path: Vec<Hex>,
        spent: HalfMp,
        charge: Option<UnitId>,
    },
    /// "Burgundy's move is refused: 0808 is in an enemy zone of control (§8)."
    MoveRefused { unit: UnitId, reason: Refusal },
    /// "Aquitaine's charge at Provence is a plain move: 0709 is a village (§9.2)."
    ChargeRefused {
        unit: UnitId,
        target: UnitId,
        reason: String,
    },
    /// "Attila, alone in 1511, is overrun by Visigoths 3 (§6)."
    CommanderOverrun {
        commander: UnitId,
        by: UnitId,
        hex: Hex,
    },
    /// "Ostrogoths 2, impetuous, rolls 5: it rushes at the nearest enemy."
    ImpetuousTest {
        unit: UnitId,
        roll: u8,
        rushes: bool,
        cause: ImpetuousCause,
    },
    /// "Ostrogoths 2 rushes 0507 0508 (3 MP)."
    ImpetuousRush {
        unit: UnitId,
        from: Hex,
        path: Vec<Hex>,
        spent: HalfMp,
    },
    /// "Salian 3 tests to pass from zone to zone: 2 against 3 — passes (11.1)."
    ZocTest {
        unit: UnitId,
        roll: u8,
        morale: u8,
        outcome: MoraleOutcome,
    },
    /// "Turn 1 phase 2: combat of the franks."
    AttackSkipped {
        index: usize,
        target: UnitId,
        reason: Skip,
    },
    /// "Bowmen cannot fire: next to an enemy unit (§9.3)."
    AttackerDropped {
        index: usize,
        unit: UnitId,
        reason: Drop,
    },
    /// "Bretons, attacked, roll 5 and evade to 0904 0905."
    BretonEvasion {
        unit: UnitId,
        roll: u8,
        evades: bool,
        path: Vec<Hex>,
    },
    /// "Combat 1 on Provence: 11 to 2, 4/1, village +1: die 4 + 1 = 5: DT."
    Combat {
        number: u32,
        index: usize,
        target: UnitId,
        attackers: Vec<Share>,
        attack: u16,
        defence: u16,
        /// The ratio rounded for the defender.
        odds: Column,
        /// Columns to the left for the defender's terrain.
        shifts: u8,
        column: Column,
        modifiers: Vec<DieModifier>,
        /// `None` when the Bretons evaded before the die.
        die: Option<u8>,
        roll: Option<u8>,
        result: Option<CombatResult>,
        /// Every counter whose printed strength the two sums count: the
        /// attackers, their commanders, the defender and its commander
        /// (absent from combats stored before it was kept).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        counted: Vec<Counted>,
    },
    /// "Burgundy loses a step (now reduced)."
    StepLost {
        unit: UnitId,
        cause: LossCause,
        steps_left: u8,
    },
    /// "Provence is eliminated."
    Eliminated { unit: UnitId, cause: LossCause },
    /// "Baggage is pillaged."
    Pillaged { unit: UnitId },
    /// "Provence retreats 0708 → 0707."
    Retreated { unit: UnitId, from: Hex, to: Hex },
    /// "B is displaced 0506 → 0505 to make room for A."
    Displaced {
        unit: UnitId,
        by: UnitId,
        from: Hex,
        to: Hex,
    },
    /// "Provence cannot retreat from 0708."
    CannotRetreat { unit: UnitId, hex: Hex },
    /// "Provence is forced off the map from 0701."
    ForcedOffMap { unit: UnitId, from: Hex },
    /// "Provence stands by its baggage: the retreat has no effect (§9.4)."
    RetreatIgnored { unit: UnitId },
    /// "Provence checks morale: 3 against 3 — retreats."
    MoraleCheck {
        unit: UnitId,
        roll: u8,
        morale: u8,
        outcome: MoraleOutcome,
        cause: MoraleCause,
        /// Its morale is its reduced side's strength (§2).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        reduced: bool,
    },
    /// "Aquitaine advances into 0708 (with Lothaire)."
    Advanced {
        unit: UnitId,
        from: Hex,
        to: Hex,
        commander: Option<UnitId>,
    },
    /// "Defection roll 2 (2d6 when `two_dice`): 5 against 2 Alan losses — no effect."
    DefectionRoll {
        number: u16,
        two_dice: bool,
        roll: u8,
        losses: u16,
        defect: bool,
    },
    /// "The Alans leave the field: Alan 2, Alan 3, Sangiban."
    AlansDefect { units: Vec<UnitId> },
    /// "Theodoric's death: 6 — his troops +1 next turn."
    CommanderLossRoll {
        commander: UnitId,
        roll: u8,
        delta: i8,
        turn: u8,
    },
    /// "The franks reach 12 first: the god of Clotilde helps them in turn 4."
    DivineHelpEarned { side: SideId, turn: u8 },
    /// "Turn 3 phase 5: franks 11 of 13, gallo-romans 9 of 14."
    VictoryCheck {
        turn: u8,
        totals: Vec<ArmyTotal>,
        outcome: Option<Outcome>,
    },
    /// "Turn 3 ends; the marker moves to turn 4."
    TurnEnds { turn: u8 },
    /// "The battle is over: major victory for the huns."
    GameOver { outcome: Outcome },
}

/// Units that charged in these events (the picture's Charge markers), in
/// event order, into a list or a set.
pub fn chargers<C: FromIterator<UnitId>>(events: &[Event]) -> C {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                unit,
                charge: Some(_),
                ..
            } => Some(unit.clone()),
            _ => None,
        })
        .collect()
}
