//! Advance after combat (§9.11, O26): when the defender's hex is vacated,
//! one adjacent hand-to-hand attacker may move in (a charger must), with a
//! stacked commander if wished; when attackers' hexes are vacated, the
//! defender may move into one. An advance ignores zones of control and
//! movement costs but never crosses a river without a crossing.
//!
//! ```
//! use umpire::games::furor::advance::may_advance;
//! # use umpire::games::furor::board::{Board, BoardSpec, UnitSpec};
//! # use umpire::games::furor::map::{Map, MapSpec};
//! # let map = Map::from_spec(&toml::from_str("columns = 12\nrows = 15\nhexsides = [{ between = [\"0508\", \"0507\"], feature = \"river\" }]").unwrap()).unwrap();
//! # let u = |id: &str, hex: &str| UnitSpec { id: id.into(), side: "franks".into(), kind: "infantry".into(), strength: 3, hex: Some(hex.into()), ..UnitSpec::default() };
//! # let board = Board::from_spec(BoardSpec { map, units: vec![u("a", "0508"), u("b", "0606")], ..BoardSpec::default() }).unwrap();
//! let h = |s: &str| s.parse().unwrap();
//! assert!(!may_advance(&board, board.unit(&"a".into()).unwrap(), h("0507")));   // across the river
//! assert!(may_advance(&board, board.unit(&"b".into()).unwrap(), h("0507")));
//! ```

use crate::games::furor::board::{Board, Unit, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::Event;
use crate::games::furor::hex::Hex;
use crate::games::furor::movement::{can_stand, enter};
use crate::games::furor::play::Play;
use crate::games::furor::rules::Kind;

/// Whether the unit may advance into the adjacent vacated hex.
pub fn may_advance(board: &Board, u: &Unit, into: Hex) -> bool {
    u.is_on_map()
        && u.hex
            .is_some_and(|h| h.is_adjacent(into) && board.map.passable(h, into))
        && can_stand(board, u, into)
}

/// Move the unit (and, if wished, the commander with it) into the hex.
pub(crate) fn advance(
    play: &mut Play,
    id: &UnitId,
    into: Hex,
    with_commander: bool,
) -> Result<(), EngineError> {
    let u = play.board.get(id);
    let Some(from) = u.hex else { return Ok(()) };
    let side = u.side.clone();
    let commander = with_commander
        .then(|| {
            play.board
                .at(from)
                .find(|o| o.kind == Kind::Commander && o.side == side)
                .map(|c| c.id.clone())
        })
        .flatten();
    enter(play, id, into)?;
    if let Some(c) = &commander {
        play.board.get_mut(c).hex = Some(into);
    }
    play.emit(Event::Advanced {
        unit: id.clone(),
        from,
        to: into,
        commander,
    });
    Ok(())
}
