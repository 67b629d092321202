//! Sides the umpire's generals play (issue 42). When a round opens, the
//! general of each side it plays that writes in the round writes its
//! orders at once: the rule set's general gives the sheet a player would
//! mail, the rule set checks it as it checks a mail, and it stands in the
//! round's submissions as a player's would (no message: a general writes
//! none), ready, so the round is played as soon as the players are in.
//! The report's orders given show them, and `umpire verify` replays the
//! round from them like any other.
//!
//! A line the rule set refuses from a general is a bug in the general:
//! what it accepted stands, the round goes on, the log says why and the
//! moderator is told.

use super::game::Game;
use super::letter::queue_notice;
use super::{audit, PostError};
use crate::config::Config;
use crate::sim::Style;
use crate::store::games::SideRow;
use crate::store::{submissions, Transaction};
use chrono::{DateTime, Utc};

/// The style of the general who plays `side`, if one does.
///
/// # Errors
/// When the stored style is not one this build knows (a damaged row).
pub(crate) fn style_of(side: &SideRow) -> Result<Option<Style>, PostError> {
    side.general
        .as_deref()
        .map(|s| {
            s.parse::<Style>()
                .map_err(|e| PostError::Corrupt(format!("side {}: {e}", side.side)))
        })
        .transpose()
}

/// Whether the round `game` waits for is written by generals alone (and
/// so may be played as soon as it opens).
///
/// # Errors
/// On database errors, or a state that cannot be read.
pub(crate) fn only_generals_write(tx: &Transaction<'_>, game: &Game) -> Result<bool, PostError> {
    if game.row.status != crate::store::games::GameStatus::Active {
        return Ok(false);
    }
    let round = game.round()?;
    let sides = game.sides(tx)?;
    Ok(!round.writers.is_empty()
        && round
            .writers
            .iter()
            .all(|w| sides.iter().any(|s| &s.side == w && s.general.is_some())))
}

/// Write the orders of every side a general plays that writes in the
/// round `game` waits for and has none in yet. Returns how many it wrote.
///
/// # Errors
/// On database errors, or when the rule set cannot write or read them.
pub(crate) fn write_orders(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    now: DateTime<Utc>,
) -> Result<usize, PostError> {
    let mut played = Vec::new();
    for side in game.sides(tx)? {
        if let Some(style) = style_of(&side)? {
            played.push((side.side, style));
        }
    }
    write_for(tx, config, game, &played, now)
}

/// The general of each style given writes the orders of its side, where
/// the side writes in the round `game` waits for and has none in yet (a
/// side played by a general, or a player's away, `post::absence`).
///
/// # Errors
/// As [`write_orders`].
pub(crate) fn write_for(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    played: &[(String, Style)],
    now: DateTime<Utc>,
) -> Result<usize, PostError> {
    let round = game.round()?;
    let sides_in = game.sides_in(tx)?;
    let mut written = 0;
    for (side, style) in played {
        if !round.writers.contains(side) || sides_in.contains(side) {
            continue;
        }
        write_one(tx, config, game, side, *style, now)?;
        written += 1;
    }
    Ok(written)
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, PostError> {
    serde_json::to_string(v).map_err(|e| PostError::Corrupt(e.to_string()))
}

/// The general of `style` writes `side`'s orders for the round.
fn write_one(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    side: &str,
    style: Style,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let state = game.state()?;
    let round = game.round()?;
    let text = game
        .ruleset
        .general_orders(&game.row.setup, &state, side, style)?;
    let checked = game.ruleset.check_orders(&state, side, &text, &[])?;
    submissions::insert(
        tx,
        game.id(),
        &submissions::Submission {
            round: round.number,
            side: side.to_string(),
            message: None,
            text: text.clone(),
            checked: json(&checked.orders)?,
            understood: json(&checked.understood)?,
            ready: true,
        },
        now,
    )?;
    audit(
        tx,
        now,
        Some(game.id()),
        &format!(
            "the {style} general wrote {}'s orders for {} ({} lines)",
            side,
            round.label,
            checked.understood.len()
        ),
    )?;
    if checked.errors > 0 {
        tracing::error!(game = game.id(), side, refused = checked.errors, "a general's line was refused: a bug in the general; the round goes on with what was accepted");
        let body = format!(
            "The umpire's {style} general, who plays {side} in {} ({}), wrote orders for {} that the rules refused ({} line(s)): a fault in the general, to report to umpire's authors. The round goes on with the orders that were accepted.\n\nWhat it wrote:\n\n{text}\nHow the rules read it:\n\n{}",
            game.row.title,
            game.id(),
            round.label,
            checked.errors,
            checked.confirmation
        );
        queue_notice(
            tx,
            config,
            game.id(),
            &game.row.moderator_address,
            format!(
                "[{}] The general's orders for {side}: refused lines",
                game.id()
            ),
            body,
            &format!("general:{}:{side}", round.number),
            now,
        )?;
    }
    Ok(())
}
