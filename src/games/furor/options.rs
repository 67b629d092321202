//! Game options (`[options]` in a game or case file): every reading of an
//! OPEN point where clubs could differ, and the book's optional rules. The
//! defaults are the rulings of `docs/rulings/furor.md`, and every optional
//! rule of the book is off unless the file turns it on (§11, FB-20); each
//! option names the digest's point it settles. The list for players is
//! `docs/furor-barbarus/options.md`.
//!
//! ```
//! use umpire::games::furor::options::{Options, RoadBonus};
//! let o: Options = toml::from_str("crt_row_7 = true\nroad_bonus = \"from-start\"").unwrap();
//! assert!(o.crt_row_7);
//! assert_eq!(o.road_bonus, RoadBonus::FromStart);
//! assert!(toml::from_str::<Options>("crt_row_8 = true").is_err());
//! // The book's optional rules are off unless the file turns them on (§11).
//! let d = Options::default();
//! assert!(!d.zoc_to_zoc_test && !d.counter_charge && !d.commanders_role && !d.impetuousness);
//! ```

use crate::games::furor::rules::reconstructed::ReducedSide;
use serde::{Deserialize, Serialize};

/// Every option, with the ruling's default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// R7: read modified rolls of 7 or more on the "7+" row instead of row 6.
    pub crt_row_7: bool,
    /// Optional rule 11.1: a unit may move from one enemy ZoC hex to another
    /// after a morale test.
    pub zoc_to_zoc_test: bool,
    /// Optional rule 11.2: the charge bonus only against units that cannot
    /// charge themselves.
    pub counter_charge: bool,
    /// O7: when the road rate applies.
    pub road_bonus: RoadBonus,
    /// O11: ZoC extends across ford hexsides (false: across bridges only).
    pub zoc_across_fords: bool,
    /// O13: what "moves only towards its target" means for a charge.
    pub charge_path: ChargePath,
    /// O22: whether a firer cancels the stream and bridge die bonus.
    pub water_bonus: WaterBonus,
    /// O23: hexes in enemy ZoC are never retreat hexes.
    pub zoc_bars_retreat: bool,
    /// O24: what befalls a unit with no retreat hex but the map's edge.
    pub off_map_retreat: OffMapRetreat,
    /// O24: who tests morale after a displacement chain.
    pub chain_morale: ChainMorale,
    /// O32: which units a feigned flight's target must not be next to.
    pub feigned_flight_target: FeignedFlightTarget,
    /// O32: a feigned flight is the activated unit's whole move.
    pub feigned_flight_whole_move: bool,
    /// O33: what the Alans' defection roll counts.
    pub alan_defection: AlanDefection,
    /// Campus Mauriacus optional rule 5: the role of the commanders.
    pub commanders_role: bool,
    /// Campus Mauriacus optional rule 6: impetuousness. Off unless the game
    /// or case file turns it on, as every optional rule (§11: both players
    /// agree to use it; FB-20).
    pub impetuousness: bool,
    /// O31: when the first-player roll is made.
    pub first_player_roll: FirstPlayerRoll,
    /// R3: how scenario files without a reduced value draw the reduced side.
    pub reduced_side: ReducedSide,
    /// Soissons' option: free set-up on lines 04XX/05XX and 08XX/09XX (O36).
    pub soissons_free_setup: bool,
    /// Vouillé's variation: the two Elite markers on the Visigothic cavalry.
    pub vouille_variation: bool,
    /// §15's `split-turn`: the phasing player writes his moves, sees them
    /// played, then writes his attacks (two rounds per player-turn).
    /// Unset, it is left out of the stored options, so games stored before
    /// it keep their rules identity.
    #[serde(alias = "split-turn", skip_serializing_if = "is_false")]
    pub split_turn: bool,
    /// §15's asking the owner: when no standing reaction of the other
    /// player covers a choice the rules give him, the turn stops and he is
    /// asked by mail (a short round of his), the default applying at that
    /// round's deadline (FB-19). Left out of the stored options when unset.
    #[serde(alias = "ask-owner", skip_serializing_if = "is_false")]
    pub ask_owner: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for Options {
    fn default() -> Self {
        Options {
            crt_row_7: false,
            zoc_to_zoc_test: false,
            counter_charge: false,
            road_bonus: RoadBonus::PerStep,
            zoc_across_fords: true,
            charge_path: ChargePath::Straight,
            water_bonus: WaterBonus::Rule,
            zoc_bars_retreat: false,
            off_map_retreat: OffMapRetreat::Eliminated,
            chain_morale: ChainMorale::EveryUnit,
            feigned_flight_target: FeignedFlightTarget::IsolatedFromOwn,
            feigned_flight_whole_move: false,
            alan_defection: AlanDefection::Units,
            commanders_role: false,
            impetuousness: false,
            first_player_roll: FirstPlayerRoll::AfterSetup,
            reduced_side: ReducedSide::FullMinusOne,
            soissons_free_setup: false,
            vouille_variation: false,
            split_turn: false,
            ask_owner: false,
        }
    }
}

/// O7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoadBonus {
    /// Each step from a road hex to the next along the road costs 0.5.
    PerStep,
    /// Only a unit that starts its move on a road hex, until it leaves the road.
    FromStart,
}

/// O13.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChargePath {
    /// A straight line of hexes ending next to the target, in line with it.
    Straight,
    /// Every step one hex nearer the target.
    Closing,
}

/// O22.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaterBonus {
    /// §9.6 and the TEC: a unit firing at range cancels it.
    Rule,
    /// The book's example: only a hand-to-hand attacker on the defender's bank cancels it.
    Example,
}

/// O24.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OffMapRetreat {
    /// "Forced to retreat off the map": eliminated.
    Eliminated,
    /// It stays and takes a step loss, as any unit that cannot retreat.
    StepLoss,
}

/// O24.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChainMorale {
    /// Every unit of the chain, the first included (the book's example).
    EveryUnit,
    /// Only the displaced units (the rule's "a morale check on the displaced unit").
    DisplacedOnly,
}

/// O32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FeignedFlightTarget {
    /// Not next to any other unit of its own army.
    IsolatedFromOwn,
    /// Not next to any unit of the activating army.
    IsolatedFromActivator,
}

/// O33.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlanDefection {
    /// A roll each time an Alan unit is eliminated, against the Alan units
    /// eliminated so far (2d6 when the unit was full).
    Units,
    /// A roll for each Alan step lost, against the Alan steps lost so far
    /// (2d6 when a full unit is eliminated by one result).
    Steps,
}

/// O31.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstPlayerRoll {
    AfterSetup,
    BeforeSetup,
}
