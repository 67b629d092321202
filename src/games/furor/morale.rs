//! Morale checks (§9.10): a die against the unit's morale value — its
//! strength now, +1 with a commander stacked with or next to it (§6, not
//! cumulative: O4), and the scenarios' modifiers. Lower: no effect; equal:
//! retreat one hex; higher: one step loss. Commanders never check morale;
//! baggage ignores T results (§9.4).
//!
//! ```
//! use umpire::games::furor::morale;
//! # use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # use umpire::games::furor::options::Options;
//! # let map = Map::from_spec(&MapSpec { columns: 12, rows: 15, ..MapSpec::default() }).unwrap();
//! # let u = |id: &str, kind: &str, hex: &str| UnitSpec { id: id.into(), side: "franks".into(), kind: kind.into(), strength: 3, reduced: (kind == "infantry").then_some(2), hex: Some(hex.into()), ..UnitSpec::default() };
//! # let board = Board::from_spec(BoardSpec { map, units: vec![u("salian", "infantry", "0508"), u("clovis", "commander", "0509")], ..BoardSpec::default() }).unwrap();
//! // Strength 3, Clovis next to it: morale 4.
//! assert_eq!(morale::value(&board, &Options::default(), board.unit(&"salian".into()).unwrap()), 4);
//! ```

use crate::games::furor::board::{Board, Unit, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{Event, LossCause, MoraleCause};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::{ChainMorale, Options};
use crate::games::furor::play::Play;
use crate::games::furor::rules::{
    morale_outcome, Kind, MoraleOutcome, COMMANDER_MORALE_BONUS, STRENGTH_FLOOR,
};
use crate::games::furor::{losses, retreat, special};

/// Whether commander `c` lends his bonuses (§6) to unit `u`: a friend, and
/// with the role of the commanders (rule 5, O35) only his own troops.
pub fn commands(options: &Options, c: &Unit, u: &Unit) -> bool {
    c.kind == Kind::Commander
        && c.is_on_map()
        && c.side == u.side
        && (!options.commanders_role || u.command.as_ref() == Some(&c.id))
}

/// Whether a friendly commander stands with or next to the unit.
pub fn commander_near(board: &Board, options: &Options, u: &Unit) -> bool {
    let Some(h) = u.hex else { return false };
    board
        .units
        .values()
        .any(|c| commands(options, c, u) && c.hex.is_some_and(|ch| ch == h || ch.is_adjacent(h)))
}

/// The unit's morale value for a check (§9.10).
pub fn value(board: &Board, options: &Options, u: &Unit) -> u8 {
    let bonus = if commander_near(board, options, u) {
        COMMANDER_MORALE_BONUS
    } else {
        0
    };
    let v = i16::from(u.current_strength()) + i16::from(bonus) + special::morale_modifier(board, u);
    v.max(i16::from(STRENGTH_FLOOR)) as u8
}

/// A morale check for the unit; `enemies` are the hexes it would retreat
/// away from.
pub(crate) fn check(
    play: &mut Play,
    id: &UnitId,
    cause: MoraleCause,
    enemies: &[Hex],
) -> Result<(), EngineError> {
    let u = play.board.get(id).clone();
    if !u.is_on_map() || !u.is_combat() {
        return Ok(());
    }
    let v = value(&play.board, play.options, &u);
    let roll = play.roll_counted("morale", id)?;
    let outcome = morale_outcome(roll, v);
    play.emit(Event::MoraleCheck {
        unit: id.clone(),
        roll,
        morale: v,
        outcome,
        cause,
        reduced: u.showing_reduced(),
    });
    match outcome {
        MoraleOutcome::Holds => Ok(()),
        MoraleOutcome::Retreats => retreat(play, id, enemies),
        MoraleOutcome::LosesStep => losses::take_steps(play, id, 1, LossCause::Morale),
    }
}

/// Retreat the unit one hex (an R result, or a check's "equal"), then
/// §9.8: each unit of the displacement chain checks morale once, in chain
/// order (O24; a unit tests once per combat for chains, so chains end).
pub(crate) fn retreat(play: &mut Play, id: &UnitId, enemies: &[Hex]) -> Result<(), EngineError> {
    let chain = retreat::retreat(play, id, enemies)?;
    let skip_first = play.options.chain_morale == ChainMorale::DisplacedOnly;
    for (i, m) in chain.iter().enumerate() {
        if (i == 0 && skip_first) || !play.chain_tested.insert(m.clone()) {
            continue;
        }
        check(play, m, MoraleCause::Chain, enemies)?;
    }
    Ok(())
}
