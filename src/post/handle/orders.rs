//! A side's orders as a mail brings them: checked and stored (with what
//! changed since the side's last mail), the preview picture of the
//! confirmation, and mail for the next round held until it opens.

use super::{Ctx, Disposition};
use crate::envelope::Header;
use crate::games::Json;
use crate::mail::compose::Attachment;
use crate::post::game::Game;
use crate::post::{audit, templates, PostError};
use crate::store::games::SideRow;
use crate::store::{deferred, messages as message_rows, rounds, submissions};
use chrono::{DateTime, Duration, Utc};

/// The order preview of a confirmation (ruling P26): the rule set's
/// picture of the side's units and where its standing orders take them,
/// as SVG (every browser and most mail programs open it; rasterising a PNG
/// inside the write transaction of every confirmation cost more than the
/// rest of the confirmation). None when no order stands or the rule set
/// draws none; a picture that cannot be drawn is logged and left out, never
/// a reason to hold the confirmation back.
pub(super) fn preview(
    game: &Game,
    side: &str,
    round: u32,
    checked: &crate::games::Checked,
) -> Option<Attachment> {
    if checked.understood.is_empty() {
        return None;
    }
    let drawn = (|| -> Result<Option<String>, PostError> {
        Ok(game
            .ruleset
            .preview(&game.state()?, &game.options()?, side, &checked.orders)?)
    })();
    match drawn {
        Ok(svg) => svg.map(|svg| Attachment {
            name: format!("{}-turn-{round}-{side}-preview.svg", game.id()),
            mime: "image/svg+xml".into(),
            bytes: svg.into_bytes(),
        }),
        Err(e) => {
            tracing::warn!(game = game.id(), side, error = %e, "no order preview");
            None
        }
    }
}

/// The round a mail is to be held for: the round after the open one, when
/// its header's `TURN` names it (`Ruleset::header_turn`: `TURN n + 1` while
/// round `n` is open, where a round is a turn), when the rule set says the side writes in it or
/// cannot say who does: that round and the `TURN` written. Any other turn
/// is judged as before.
pub(super) fn deferral(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    header: &Header,
    side: &str,
) -> Result<Option<(u32, u32)>, PostError> {
    let Some(written) = header.turn else {
        return Ok(None);
    };
    let round = game.round()?;
    let (t, _) = game
        .ruleset
        .header_turn(&game.state()?, written, header.phase)?;
    // While a report waits for the moderator, no orders are taken (nor held).
    if t != round.number + 1 || rounds::draft(ctx.tx, game.id())?.is_some() {
        return Ok(None);
    }
    Ok(match game.ruleset.next_writers(&game.state()?)? {
        Some(writers) if !writers.iter().any(|w| w == side) => None,
        _ => Some((t, written)),
    })
}

/// Hold the mail for round `t` (its header's `TURN written`) and tell its
/// sender so at once.
pub(super) fn hold(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    side: &SideRow,
    (t, written): (u32, u32),
) -> Result<Disposition, PostError> {
    let note = format!("held for turn {t}");
    deferred::hold(
        ctx.tx,
        &deferred::Held {
            message: ctx.row,
            game: game.id().to_string(),
            round: t,
            side: side.side.clone(),
            address: side.address.clone(),
            released: false,
        },
        &note,
        ctx.now,
    )?;
    let text = templates::render(
        "held.txt",
        minijinja::context! {
            title => &game.row.title, game => game.id(), side => &side.side, turn => written,
            round => game.round()?.label, deadline => game.deadline_for(side),
        },
    );
    ctx.answer(game, text)?;
    audit(
        ctx.tx,
        ctx.now,
        Some(game.id()),
        &format!("mail of side {} held for turn {t}", side.side),
    )?;
    Ok(Disposition::Deferred(note))
}

/// How long before umpire stored a message the club server's `Received:`
/// stamp is believed (mail held up in a queue); an older stamp is taken for
/// a wrong clock, and the time umpire stored it counts.
pub const RECEIVED_STAMP_HOURS: i64 = 48;

/// When a message reached the club, for lateness: the mailbox's own time
/// (a Maildir file's delivery, IMAP's INTERNALDATE); else the topmost
/// `Received:` stamp, which the club's server wrote (within
/// [`RECEIVED_STAMP_HOURS`] before umpire stored the message); else when
/// umpire stored it. Never later than now.
pub(super) fn arrival(ctx: &Ctx<'_, '_>) -> Result<DateTime<Utc>, PostError> {
    let Some((mailbox, stored)) = message_rows::arrived(ctx.tx, ctx.row)? else {
        return Ok(ctx.now);
    };
    let stamp = ctx
        .msg
        .received
        .filter(|r| *r <= stored && *r >= stored - Duration::hours(RECEIVED_STAMP_HOURS));
    Ok(mailbox.or(stamp).unwrap_or(stored).min(ctx.now))
}

/// A side's orders as checked and stored, and how they changed.
pub(super) struct Taken {
    pub checked: crate::games::Checked,
    /// Against the side's earlier orders of the round (`diff`).
    pub changes: Vec<String>,
    /// Earlier orders that stand beside a sheet with a refused line.
    pub kept: Vec<String>,
}

/// Check `sheet` as `side`'s orders for the round and store them (a
/// player's mail, or the moderator's ORDERS FOR). A sheet with a refused
/// line is not a complete sheet: the earlier orders for what it does not
/// mention stand (ruling P16). `ready` says, from the check, whether the
/// round may be played on them before the deadline.
#[allow(clippy::too_many_arguments)]
pub(super) fn take_orders(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    side: &str,
    round: u32,
    sheet: &str,
    envelope: &[crate::diagnostic::Rendered],
    text: String,
    ready: impl FnOnce(&crate::games::Checked) -> bool,
) -> Result<Taken, PostError> {
    let tx = ctx.tx;
    let previous = submissions::latest(tx, game.id(), round, side)?;
    let mut checked = game
        .ruleset
        .check_orders(&game.state()?, side, sheet, envelope)?;
    let earlier_understood: Option<Vec<(String, String)>> = previous
        .as_ref()
        .map(|(_, p)| serde_json::from_str(p).unwrap_or_default());
    let changes = earlier_understood
        .as_ref()
        .map(|p| diff(p, &checked.understood))
        .unwrap_or_default();
    let mut kept = Vec::new();
    if checked.errors > 0 {
        if let (Some((earlier, _)), Some(understood)) = (&previous, &earlier_understood) {
            let earlier: Json =
                serde_json::from_str(earlier).map_err(|e| PostError::Corrupt(e.to_string()))?;
            checked.orders = game.ruleset.merge_orders(&earlier, &checked.orders)?;
            for (key, line) in understood {
                if !checked.understood.iter().any(|(k, _)| k == key) {
                    kept.push(line.clone());
                    checked.understood.push((key.clone(), line.clone()));
                }
            }
        }
    }
    submissions::insert(
        tx,
        game.id(),
        &submissions::Submission {
            round,
            side: side.to_string(),
            message: Some(ctx.row),
            text,
            checked: serde_json::to_string(&checked.orders)
                .map_err(|e| PostError::Corrupt(e.to_string()))?,
            understood: serde_json::to_string(&checked.understood)
                .map_err(|e| PostError::Corrupt(e.to_string()))?,
            ready: ready(&checked),
        },
        ctx.now,
    )?;
    Ok(Taken {
        checked,
        changes,
        kept,
    })
}

/// How one side's orders changed between two submissions.
pub(super) fn diff(old: &[(String, String)], new: &[(String, String)]) -> Vec<String> {
    let old: std::collections::BTreeMap<_, _> = old.iter().cloned().collect();
    let new: std::collections::BTreeMap<_, _> = new.iter().cloned().collect();
    let mut out = Vec::new();
    for (unit, text) in &new {
        match old.get(unit) {
            None => out.push(format!("new:     {text}")),
            Some(o) if o != text => out.push(format!("changed: {text} (was: {o})")),
            _ => {}
        }
    }
    for (unit, text) in &old {
        if !new.contains_key(unit) {
            out.push(format!("dropped: {text} ({unit} will stand)"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_lists_new_changed_and_dropped_orders() {
        let old = vec![
            ("a".to_string(), "A: phase 1 move 4".to_string()),
            ("b".into(), "B: phase 1 hold".into()),
        ];
        let new = vec![
            ("a".to_string(), "A: phase 1 move 6".to_string()),
            ("c".into(), "C: phase 1 hold".into()),
        ];
        let d = diff(&old, &new);
        assert_eq!(d.len(), 3);
        assert!(d[0].starts_with("changed: A: phase 1 move 6"));
        assert!(d[1].starts_with("new:"));
        assert!(d[2].starts_with("dropped:"));
    }
}
