//! The data of the summary partials (`templates/furor-barbarus/summary.*`):
//! each army's losses against its threshold, and its counters.

use crate::games::furor::board::{Board, Status};
use crate::games::furor::{report, victory};
use crate::games::Json;

/// The summary partials' data: each army's losses against its threshold
/// and its counters.
pub(super) fn summary(board: &Board) -> Json {
    let totals = victory::totals(board);
    let sides: Vec<Json> = board
        .sides
        .keys()
        .map(|side| {
            let t = totals.iter().find(|t| &t.side == side);
            let units: Vec<Json> = board
                .units
                .values()
                .filter(|u| &u.side == side)
                .map(|u| {
                    serde_json::json!({
                        "id": u.id.0, "name": u.name, "kind": u.kind.name(),
                        "hex": u.hex.map(|h| h.to_string()),
                        "strength": u.current_strength(),
                        "reduced": u.reduced.is_some() && !u.is_full(),
                        "status": match (u.status, u.hex) {
                            (Status::OnMap, Some(_)) => String::new(),
                            (Status::OnMap, None) => "not shown yet".to_string(),
                            (status, _) => status.name().to_string(),
                        },
                    })
                })
                .collect();
            serde_json::json!({
                "side": side.0,
                "lost": t.map_or(0, |t| t.lost),
                "threshold": t.and_then(|t| t.threshold),
                "units": units,
            })
        })
        .collect();
    serde_json::json!({ "armies": sides, "track": report::track(board) })
}
