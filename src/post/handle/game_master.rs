//! What the moderator enters for others: the game master's answer to the
//! round waiting for him, and `ORDERS FOR side` for an absent player.

use super::orders::{take_orders, Taken};
use super::Ctx;
use crate::envelope::{self, Command, Envelope, Header};
use crate::games::GAME_MASTER;
use crate::post::game::Game;
use crate::post::{audit, PostError};
use crate::store::games::GameStatus;
use crate::store::rounds;

/// The game master's answer to the round waiting for him: the moderator's
/// mail up to its first `ORDERS FOR`, checked by the rule set as
/// [`GAME_MASTER`]'s and stored like a side's orders. The text for the
/// reply, and whether an answer was taken.
pub(super) fn game_master_answer(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    env: &Envelope,
    m: &Header,
    round: &crate::games::Round,
) -> Result<(String, bool), PostError> {
    if let Some(t) = m.turn.filter(|t| *t != round.number) {
        return Ok((
            format!(
                "These lines answer round {t}, but game {} waits for the game master's answer to round {} ({}); nothing was taken.
  Write TURN {} in the header.",
                game.id(),
                round.number,
                round.label,
                round.number
            ),
            false,
        ));
    }
    let sheet = before_orders_for(env);
    let text = crate::mail::mask::mask_text(&ctx.msg.orders_text, &[&m.password]);
    let Taken { checked, .. } = take_orders(
        ctx,
        game,
        GAME_MASTER,
        round.number,
        &sheet,
        &[],
        text,
        |c| c.errors == 0,
    )?;
    let mut out = format!(
        "Your answer to round {} ({}):\n{}",
        round.number,
        round.label,
        checked.confirmation.trim_end()
    );
    if checked.errors > 0 {
        out.push_str("\n\nThe round waits for a whole answer: send it again, corrected, under the same header (a later answer replaces this one).");
    } else {
        out.push_str("\n\nEvery line is taken: the phase is played on.");
    }
    Ok((out, true))
}

/// The moderator's mail up to its first `ORDERS FOR`, the rest blanked
/// (line ends kept, so places in it still point into the mail).
pub(super) fn before_orders_for(env: &Envelope) -> String {
    let first = env
        .commands
        .iter()
        .find(|c| matches!(c.node, Command::OrdersFor { .. }))
        .map_or(env.sheet.len(), |c| c.span.start);
    env.sheet
        .char_indices()
        .map(|(i, c)| {
            if i < first || c == '\n' {
                c.to_string()
            } else {
                " ".repeat(c.len_utf8())
            }
        })
        .collect()
}

/// `ORDERS FOR side`: the moderator enters a side's orders for the round
/// (an absent player's). They are checked and stored as if the side had
/// sent them, and the side's player is told; a later mail of the player's
/// own counts as any later mail does. The answer for the moderator: `Ok`
/// when orders were entered, `Err` saying why nothing was.
pub(super) fn orders_for(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    block: &envelope::OrdersFor,
) -> Result<Result<String, String>, PostError> {
    let tx = ctx.tx;
    let sides = game.sides(tx)?;
    let Some(side) = sides
        .iter()
        .find(|s| s.side.eq_ignore_ascii_case(&block.side))
    else {
        let names: Vec<&str> = sides.iter().map(|s| s.side.as_str()).collect();
        let hint = crate::names::closest(&block.side, names.iter().map(|n| (*n, *n)))
            .map(|n| format!(" (did you mean '{n}'?)"))
            .unwrap_or_default();
        return Ok(Err(format!(
            "no side '{}' in game {}{hint}; the sides are {}; nothing entered",
            block.side,
            game.id(),
            names.join(", ")
        )));
    };
    if game.row.status != GameStatus::Active {
        return Ok(Err(format!(
            "game {} is {}; it takes no orders now; nothing entered",
            game.id(),
            game.row.status
        )));
    }
    if let Some(held) = rounds::draft(tx, game.id())? {
        return Ok(Err(format!("the report of turn {held} waits for your APPROVE or REJECT; no orders are taken before; nothing entered")));
    }
    let round = game.round()?;
    if !round.writers.contains(&side.side) {
        return Ok(Err(format!(
            "{} writes no orders in {} (it is {}'s to write); nothing entered",
            side.side,
            round.label,
            round.writers.join(" and ")
        )));
    }
    let text = format!("(entered by the moderator)\n{}", block.sheet.trim());
    let Taken { checked, kept, .. } = take_orders(
        ctx,
        game,
        &side.side,
        round.number,
        &block.sheet,
        &[],
        text,
        |c| c.errors == 0,
    )?;
    audit(
        tx,
        ctx.now,
        Some(game.id()),
        &format!(
            "the moderator entered orders for {} for {}",
            side.side, round.label
        ),
    )?;
    let understood: Vec<String> = checked
        .understood
        .iter()
        .map(|(_, l)| format!("  {l}"))
        .collect();
    let notice = format!(
        "The moderator of {} ({}) has entered orders for your side, {}, for {}:\n\n{}\n\nYou may still send orders of your own until the deadline ({}); the latest mail counts.\n",
        game.row.title,
        game.id(),
        side.side,
        round.label,
        if understood.is_empty() { "  (no orders accepted)".to_string() } else { understood.join("\n") },
        game.deadline_for(side)
    );
    ctx.notice(
        game,
        &side.address,
        &format!("Orders entered for {} by the moderator", side.side),
        notice,
    )?;
    let standing = if kept.is_empty() {
        String::new()
    } else {
        format!(
            "\nEarlier orders that stand beside them:\n{}",
            kept.iter()
                .map(|k| format!("  {k}"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    };
    let readiness = if checked.errors == 0 {
        "the side is ready"
    } else {
        "with refused lines: the side is not ready until the deadline or a clean sheet"
    };
    Ok(Ok(format!(
        "orders for {} entered for {} ({readiness}); the player was told.\n{}{standing}",
        side.side,
        round.label,
        checked.confirmation.trim_end()
    )))
}
