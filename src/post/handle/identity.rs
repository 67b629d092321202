//! Whether a mail's password is the side's, and what happens when it is
//! not: a refusal to the registered address, and after too many wrong
//! passwords from one address, a lockout the player and moderator are told of.

use super::{Ctx, Disposition};
use crate::post::game::Game;
use crate::post::outbox::{self, Kind};
use crate::post::{audit, password, plain, PostError};
use crate::store::games::{self as game_rows, SideRow};
use chrono::Duration;

/// After this many wrong passwords for a side from one address in
/// [`LOCKOUT_WINDOW_HOURS`], mail for the side from that address is not read
/// for as long, and the side's player and the moderator are told.
pub const LOCKOUT_AFTER: i64 = 10;
/// The window over which wrong passwords are counted, and the lockout's length.
pub const LOCKOUT_WINDOW_HOURS: i64 = 24;

/// Check a side's password. `None` when it is right (an old-style hash is
/// upgraded on the way); otherwise what became of the message: refused to
/// the registered address (rate-limited). After [`LOCKOUT_AFTER`] wrong
/// passwords for a side from one address within a day, mail for the side
/// from that address is not read for a day, and the side's player and the
/// moderator are told once. A guesser writing from its own address locks
/// out only itself; one forging the player's address locks the side, which
/// is the price of not letting it guess on.
pub(super) fn check_password(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    side: &SideRow,
    given: &str,
) -> Result<Option<Disposition>, PostError> {
    let tx = ctx.tx;
    if let Some(until) = game_rows::locked_until(tx, game.id(), &side.side, &ctx.from, ctx.now)? {
        audit(
            tx,
            ctx.now,
            Some(game.id()),
            &format!(
                "mail for side {} from {} is not read until {until}",
                side.side, ctx.from
            ),
        )?;
        return Ok(Some(Disposition::Refused(format!(
            "side {} locked for {}",
            side.side, ctx.from
        ))));
    }
    if password::verify_kept(tx, ctx.config.password_key.as_ref(), given, &side.password)? {
        if password::needs_upgrade(&side.password) {
            game_rows::set_password(
                tx,
                game.id(),
                &side.side,
                &password::hash_kept(tx, ctx.config, given)?,
            )?;
        }
        return Ok(None);
    }
    let window = Duration::hours(LOCKOUT_WINDOW_HOURS);
    let wrong = game_rows::wrong_password(
        tx,
        game.id(),
        &side.side,
        &ctx.from,
        ctx.now,
        ctx.now - window,
    )?;
    if wrong >= LOCKOUT_AFTER
        && game_rows::lock(
            tx,
            game.id(),
            &side.side,
            &ctx.from,
            ctx.now + window,
            ctx.now,
        )?
    {
        let until = crate::post::gamefile::show_deadline(ctx.now + window, game.tz);
        let text = format!(
            "{wrong} messages for side {} of {} came from {} with a wrong password within {LOCKOUT_WINDOW_HOURS} hours.\n\
             umpire reads no message for the side from that address until {until}.\n\
             The moderator can lift this at once with UNLOCK {} (or give the side a new password with RESET PASSWORD {}).\n",
            side.side,
            game.id(),
            ctx.from,
            side.side,
            side.side
        );
        let mut to = vec![side.address.clone(), game.row.moderator_address.clone()];
        to.dedup();
        let mail = plain(
            ctx.config,
            to,
            format!(
                "[{}] Side {}: wrong passwords from {}",
                game.id(),
                side.side,
                ctx.from
            ),
            text,
            None,
        );
        outbox::queue(
            tx,
            ctx.config,
            Some(game.id()),
            Kind::Notice,
            &mail,
            &format!("locked:{}:{}:{}", side.side, ctx.from, ctx.now.timestamp()),
            ctx.now,
        )?;
        audit(
            tx,
            ctx.now,
            Some(game.id()),
            &format!(
                "side {} locked for {} after {wrong} wrong passwords",
                side.side, ctx.from
            ),
        )?;
        return Ok(Some(Disposition::Refused(format!(
            "side {} locked for {} after wrong passwords",
            side.side, ctx.from
        ))));
    }
    ctx.refuse(
        Some(game.id()),
        vec![side.address.clone()],
        &format!("A message for side {} of game {} came with the wrong password.", side.side, game.id()),
        "If you sent it, check the PASSWORD word against your welcome mail. If you did not, someone is trying to give orders to your troops; tell the moderator.",
    )
    .map(Some)
}
