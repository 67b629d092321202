//! A command's [`Decision`], and what it does, as values ([`Effect`]), and the one place that
//! does it: [`apply`] writes an effect in the message's transaction and
//! brings the [`Desk`] up to date, so the next line reads the game as this
//! one left it.

use super::desk::{Desk, Ledger};
use super::help::status_text;
use super::Ctx;
use crate::envelope::Press;
use crate::post::campaign::battles as campaign_games;
use crate::post::press::{self, Writer};
use crate::post::round::{readjudicate, release_report, replay_rejected};
use crate::post::{audit, game::Game, password, PostError};
use crate::store::games::{self as game_rows, GameStatus, SideRow};
use crate::store::{deferred, rounds, Transaction};
use chrono::{DateTime, Utc};

/// A battle game's command decided: its answer and [`Effect`]s.
pub(super) type Decision = crate::post::decision::Decision<Effect>;

/// One thing a command does to the game, its players or the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Effect {
    /// The open round's deadline moves.
    SetDeadline(DateTime<Utc>),
    /// Reports are held for the moderator's approval, or not.
    SetHold(bool),
    SetStatus(GameStatus),
    /// Every player is told, once the mail's lines are all applied.
    Announce(Change),
    /// The open round is played once the mail's lines are all applied.
    Force,
    /// A held report goes out, and mail held for the round now open is read.
    Release {
        turn: u32,
    },
    /// Mail held for rounds up to `until` is read again now.
    ReleaseDeferred {
        until: u32,
    },
    /// The held turn played again from a fresh seed (its answer names the seed's hash).
    Replay {
        turn: u32,
    },
    /// The last turn (or turn n) judged again under this build's rules.
    Readjudicate(Option<u32>),
    /// A campaign battle's game has stopped: its result goes back (CA-18).
    StopCampaignBattle,
    /// A side handed to another player: the old one told, the new one welcomed.
    HandOver {
        side: SideRow,
        to: String,
    },
    /// A side handed to the umpire's general of a style: its player told,
    /// and the general writes its orders for the open round if it writes.
    ToGeneral {
        side: SideRow,
        style: crate::sim::Style,
    },
    /// A side's player mailed a fresh password, with why.
    Credentials {
        side: SideRow,
        why: String,
    },
    /// A side's password read again from addresses locked out.
    Unlock {
        side: String,
    },
    /// The moderator's own dice for a turn.
    GiveDice {
        turn: u32,
        dice: Vec<(String, u32)>,
    },
    /// Press between the players on or off.
    SetPress(bool),
    /// The moderator's BROADCAST to every player.
    Broadcast(Press),
    /// A player's own new password (NEW PASSWORD), stored as its hash.
    SetPassword {
        side: String,
        password: String,
    },
    /// A player's own time zone (TIMEZONE).
    SetTimeZone {
        side: String,
        zone: String,
    },
}

/// The store's answers to a command's questions about one game, read in
/// the message's transaction.
pub(super) struct StoreLedger<'a, 'b> {
    tx: &'a Transaction<'b>,
    game: String,
}

impl<'a, 'b> StoreLedger<'a, 'b> {
    pub(super) fn new(tx: &'a Transaction<'b>, game: &str) -> Self {
        StoreLedger {
            tx,
            game: game.to_string(),
        }
    }
}

impl Ledger for StoreLedger<'_, '_> {
    fn draft(&self) -> Result<Option<u32>, PostError> {
        Ok(rounds::draft(self.tx, &self.game)?)
    }
    fn released(&self, t: u32) -> Result<Option<bool>, PostError> {
        Ok(rounds::is_released(self.tx, &self.game, t)?)
    }
    fn status(&self, game: &Game) -> Result<String, PostError> {
        status_text(self.tx, game, None)
    }
}

/// What applying a mail's effects leaves to do once its lines are all read.
#[derive(Debug, Default)]
pub(super) struct After {
    pub announced: Vec<Change>,
    pub force: bool,
}

/// Carry out `effect`: in the store, the outbox and the desk. Returns the
/// answer when the effect words it (see `Decision::answer`).
pub(super) fn apply(
    ctx: &Ctx<'_, '_>,
    desk: &mut Desk<'_>,
    after: &mut After,
    effect: Effect,
) -> Result<Option<String>, PostError> {
    let tx = ctx.tx;
    let game = &mut desk.game;
    match effect {
        Effect::SetDeadline(t) => game.row.deadline = t,
        Effect::SetHold(on) => game.row.hold = on,
        Effect::SetStatus(s) => game.row.status = s,
        Effect::Announce(change) => after.announced.push(change),
        Effect::Force => after.force = true,
        Effect::Release { turn } => {
            release_report(tx, ctx.config, game, turn, ctx.now, None)?;
            deferred::release(tx, game.id(), game.row.round, ctx.now)?;
        }
        Effect::ReleaseDeferred { until } => {
            deferred::release(tx, game.id(), until, ctx.now)?;
        }
        Effect::Replay { turn } => {
            let hash = replayed(ctx, game, |g| {
                replay_rejected(tx, ctx.config, g, turn, ctx.now)
            })?;
            return Ok(Some(format!("turn {turn} played again from a fresh seed (its SHA-256 is {hash}); the new draft is on its way")));
        }
        Effect::Readjudicate(turn) => {
            let said = replayed(ctx, game, |g| {
                readjudicate(tx, ctx.config, g, turn, ctx.now)
            })?;
            return Ok(Some(said));
        }
        Effect::StopCampaignBattle => campaign_games::game_stopped(tx, ctx.config, game, ctx.now)?,
        Effect::HandOver { side, to } => {
            if !side.mailed() {
                after.announced.push(Change::Player {
                    side: side.side.clone(),
                    by: "a player".into(),
                });
                // The general's orders for the open round stand, but the
                // round waits for the new player's or for its deadline.
                crate::store::submissions::set_ready(
                    tx,
                    game.id(),
                    game.row.round,
                    &side.side,
                    false,
                )?;
            }
            hand_over(ctx, desk, &side, &to)?;
        }
        Effect::ToGeneral { side, style } => {
            to_general(ctx, desk, &side, style)?;
            after.announced.push(Change::Player {
                side: side.side.clone(),
                by: format!("the umpire's {style} general"),
            });
        }
        Effect::Credentials { side, why } => ctx.credentials(game, &side, &why)?,
        Effect::Unlock { side } => game_rows::unlock(tx, game.id(), &side)?,
        Effect::GiveDice { turn, dice } => {
            for (key, value) in &dice {
                rounds::give_die(tx, game.id(), turn, key, *value)?;
            }
        }
        Effect::SetPress(on) => {
            desk.rules.press_by_moderator = Some(on);
            desk.rules.save(tx, game.id())?;
        }
        Effect::SetPassword { side, password } => {
            game_rows::set_password(
                tx,
                game.id(),
                &side,
                &password::hash_kept(tx, ctx.config, &password)?,
            )?;
            let what = format!("side {side} changed its password");
            audit(tx, ctx.now, Some(game.id()), &what)?;
        }
        Effect::SetTimeZone { side, zone } => {
            game_rows::set_timezone(tx, game.id(), &side, Some(&zone))?;
        }
        Effect::Broadcast(p) => {
            let said = press::deliver(
                tx,
                ctx.config,
                game,
                &desk.rules,
                Writer::Moderator,
                &p,
                ctx.row,
                &|| ctx.next_tag(),
                ctx.now,
            )?;
            return Ok(Some(said));
        }
    }
    Ok(None)
}

/// Play a round again through `replay` on the game as stored with the
/// mail's changes so far, then read the game back as the replay left it.
fn replayed<T>(
    ctx: &Ctx<'_, '_>,
    game: &mut Game,
    replay: impl FnOnce(Game) -> Result<T, PostError>,
) -> Result<T, PostError> {
    game.save(ctx.tx)?;
    let reload =
        || Game::load(ctx.tx, game.id())?.ok_or_else(|| PostError::NoGame(game.id().to_string()));
    let out = replay(reload()?)?;
    *game = reload()?;
    Ok(out)
}

/// REPLACE: the side's address changes, its old player is told and the new
/// one gets a fresh password.
fn hand_over(
    ctx: &Ctx<'_, '_>,
    desk: &mut Desk<'_>,
    old: &SideRow,
    address: &str,
) -> Result<(), PostError> {
    let game = &desk.game;
    game_rows::set_address(ctx.tx, game.id(), &old.side, address)?;
    // The new player reads the game's time until they say otherwise.
    game_rows::set_timezone(ctx.tx, game.id(), &old.side, None)?;
    farewell(ctx, game, old, &format!("another player ({address})"))?;
    let new = SideRow {
        address: address.to_string(),
        timezone: None,
        general: None,
        ..old.clone()
    };
    ctx.credentials(
        game,
        &new,
        &format!(
            "You take over side {} of {}: welcome. The moderator handed it to you.",
            old.side, game.row.title
        ),
    )?;
    if let Some(s) = desk.sides.iter_mut().find(|s| s.side == old.side) {
        *s = new;
    }
    Ok(())
}

/// Tell a side's old player, if a player had it, that it is handed `to`
/// someone else and his password no longer works.
fn farewell(ctx: &Ctx<'_, '_>, game: &Game, old: &SideRow, to: &str) -> Result<(), PostError> {
    if !old.mailed() {
        return Ok(());
    }
    let text = format!(
        "The moderator of {} ({}) has handed side {} to {to}.\nYour password for the side no longer works. Thank you for playing.\n",
        game.row.title,
        game.id(),
        old.side
    );
    ctx.notice(
        game,
        &old.address,
        &format!("You no longer command {}", old.side),
        text,
    )
}

/// REPLACE … GENERAL: the side has no address from now on; its player is
/// told, and the general writes at once if the open round is its to write.
fn to_general(
    ctx: &Ctx<'_, '_>,
    desk: &mut Desk<'_>,
    old: &SideRow,
    style: crate::sim::Style,
) -> Result<(), PostError> {
    let game = &desk.game;
    game_rows::set_general(ctx.tx, game.id(), &old.side, style.code())?;
    farewell(ctx, game, old, &format!("the umpire's {style} general"))?;
    if let Some(s) = desk.sides.iter_mut().find(|s| s.side == old.side) {
        s.address = String::new();
        s.general = Some(style.code().to_string());
    }
    crate::post::general::write_orders(ctx.tx, ctx.config, game, ctx.now)?;
    Ok(())
}

/// A change the moderator made that every player is told of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Change {
    Deadline {
        label: String,
        at: DateTime<Utc>,
        extended: bool,
    },
    Paused,
    Resumed {
        label: String,
        at: DateTime<Utc>,
    },
    Ended,
    /// The moderator's PRESS ON / PRESS OFF.
    Press(bool),
    /// A side handed to another player, or to the umpire's general (`by`).
    Player {
        side: String,
        by: String,
    },
}

impl Change {
    /// The change in words, with times as `time` shows them to the reader.
    pub(super) fn told(&self, time: impl Fn(DateTime<Utc>) -> String) -> String {
        match self {
            Change::Deadline {
                label,
                at,
                extended: false,
            } => format!("The deadline for {label} is now {}.", time(*at)),
            Change::Deadline {
                label,
                at,
                extended: true,
            } => format!("The deadline for {label} is extended to {}.", time(*at)),
            Change::Paused => {
                "The game is paused: no orders are taken and no turn is played until it resumes."
                    .into()
            }
            Change::Resumed { label, at } => format!(
                "The game resumes: orders for {label} are due by {}.",
                time(*at)
            ),
            Change::Ended => {
                "The moderator has ended the game. No more turns will be played.".into()
            }
            Change::Press(true) => {
                "Press between the players is on: PRESS TO <side> (or ALL), the message, then END PRESS.".into()
            }
            Change::Player { side, by } => format!("Side {side} is now played by {by}."),
            Change::Press(false) => {
                "Press between the players is off until the moderator turns it on again.".into()
            }
        }
    }
}
