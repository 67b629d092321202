//! A moderator's mail: who sent it, then each command decided
//! (`commands::decide`) and applied (`effect::apply`) in the order written,
//! the game master's answer and `ORDERS FOR` blocks, and one reply that
//! answers every line where it stood.

use super::commands::decide;
use super::desk::Desk;
use super::effect::{apply, After, StoreLedger};
use super::game_master::{game_master_answer, orders_for};
use super::identity::check_password;
use super::{Ctx, Disposition, MODERATOR};
use crate::envelope::{Envelope, Header};
use crate::post::game::Game;
use crate::post::press::MailRules;
use crate::post::{audit, PostError};
use crate::store::games::{GameStatus, SideRow};

/// A moderator's message.
pub(super) fn moderate(
    ctx: &Ctx<'_, '_>,
    env: &Envelope,
    m: &Header,
) -> Result<Disposition, PostError> {
    let tx = ctx.tx;
    let Some(game) = Game::lock(tx, &m.game)? else {
        return ctx.refuse(
            None,
            vec![],
            &format!("moderator message for unknown game '{}'", m.game),
            "",
        );
    };
    if let Some(d) = prove(ctx, &game, m)? {
        return Ok(d);
    }
    let ledger = StoreLedger::new(tx, game.id());
    let mut desk = Desk {
        sides: game.sides(tx)?,
        rules: MailRules::load(tx, game.id())?,
        now: ctx.now,
        ledger: &ledger,
        game,
    };
    let mut after = After::default();
    // A reply line for every line the moderator wrote, in the order written.
    let mut done = commands(ctx, env, &mut desk, &mut after)?;
    let entered = answers_and_orders(ctx, env, m, &mut desk.game, &mut done)?;
    done.sort_by_key(|(at, _)| *at);
    let done: Vec<String> = done.into_iter().map(|(_, line)| line).collect();
    let game = desk.game;
    game.save(tx)?;
    ctx.announce(&game, &after.announced)?;
    if after.force {
        crate::post::round::tick_game(tx, ctx.config, game.id(), ctx.now, true)?;
    }
    reply(ctx, &game, &done)?;
    let note = format!("moderator: {}", done.len());
    // Orders entered may complete the round: the caller then plays it.
    Ok(if entered {
        Disposition::Orders {
            game: game.id().to_string(),
            note,
        }
    } else {
        Disposition::Done(note)
    })
}

/// The moderator's password, from the moderator's address: `None` when
/// proven, else what became of the message.
fn prove(ctx: &Ctx<'_, '_>, game: &Game, m: &Header) -> Result<Option<Disposition>, PostError> {
    let moderator = SideRow {
        side: MODERATOR.into(),
        address: game.row.moderator_address.clone(),
        password: game.row.moderator_pw.clone(),
        timezone: None,
        general: None,
    };
    if let Some(d) = check_password(ctx, game, &moderator, &m.password)? {
        return Ok(Some(d));
    }
    if game.row.moderator_address == ctx.from {
        return Ok(None);
    }
    audit(
        ctx.tx,
        ctx.now,
        Some(game.id()),
        &format!("the moderator's password came from {}", ctx.from),
    )?;
    ctx.refuse(
        Some(game.id()),
        vec![game.row.moderator_address.clone()],
        &format!(
            "A moderator message for game {} came with your password, but from {}.",
            game.id(),
            ctx.from
        ),
        "If you did not send it, someone knows your moderator password.",
    )?;
    Ok(Some(Disposition::Refused(format!(
        "the moderator's password from {}",
        ctx.from
    ))))
}

/// Each command decided and applied in the order written; the reply's
/// line for each, with where it stood in the mail.
fn commands(
    ctx: &Ctx<'_, '_>,
    env: &Envelope,
    desk: &mut Desk<'_>,
    after: &mut After,
) -> Result<Vec<(usize, String)>, PostError> {
    let mut done = Vec::new();
    for c in &env.commands {
        let Some(decision) = decide(desk, &c.node)? else {
            continue;
        };
        let mut answer = decision.answer;
        for effect in decision.effects {
            if let Some(said) = apply(ctx, desk, after, effect)? {
                answer = Some(said);
            }
        }
        done.push((
            c.span.start,
            quoted(env, c.span, &answer.unwrap_or_default()),
        ));
    }
    Ok(done)
}

/// A line of the mail and the answer under it.
fn quoted(env: &Envelope, span: crate::diagnostic::Span, answer: &str) -> String {
    let written = env.source.get(span.start..span.end).unwrap_or("").trim();
    format!("> {written}\n  {}", answer.replace('\n', "\n  ").trim_end())
}

/// The game master's answer (in a round he answers, the lines that are no
/// command) or, between his rounds, the rule set's standing data for the
/// game (`Ruleset::moderator_data`), the `ORDERS FOR` blocks, and what was
/// not understood; whether any orders were entered.
fn answers_and_orders(
    ctx: &Ctx<'_, '_>,
    env: &Envelope,
    m: &Header,
    game: &mut Game,
    done: &mut Vec<(usize, String)>,
) -> Result<bool, PostError> {
    let (blocks, mut stray) = env.orders_for();
    let mut entered = false;
    let round = game.round()?;
    let active = game.row.status == GameStatus::Active;
    if let Some(at) = stray.first().map(|d| d.span.start).filter(|_| active) {
        if round.game_master.is_some() {
            let (line, taken) = game_master_answer(ctx, game, env, m, &round)?;
            stray.clear();
            entered |= taken;
            done.push((at, line));
        } else if let Some(line) = standing_data(ctx, game, env)? {
            stray.clear();
            done.push((at, line));
        }
    }
    for block in &blocks {
        let line = match orders_for(ctx, game, block)? {
            Ok(done) => {
                entered = true;
                done
            }
            Err(why) => why,
        };
        done.push((block.span.start, quoted(env, block.span, &line)));
    }
    for d in env.diagnostics.iter().chain(&stray) {
        done.push((d.span.start, d.render(&env.source)));
    }
    Ok(entered)
}

/// The rule set's standing data in the moderator's mail (the lines before
/// its first `ORDERS FOR`), taken into the game's state: the reply, or
/// `None` when the mail holds none.
fn standing_data(
    ctx: &Ctx<'_, '_>,
    game: &mut Game,
    env: &Envelope,
) -> Result<Option<String>, PostError> {
    let sheet = super::game_master::before_orders_for(env);
    let Some((state, reply)) = game.ruleset.moderator_data(&game.state()?, &sheet)? else {
        return Ok(None);
    };
    if let Some(state) = state {
        let text = serde_json::to_string(&state)
            .map_err(|e| PostError::Corrupt(format!("game {}: {e}", game.id())))?;
        game.set_state(text);
        audit(
            ctx.tx,
            ctx.now,
            Some(game.id()),
            "the moderator's standing data for the game taken",
        )?;
    }
    Ok(Some(reply))
}

/// The reply to the moderator, and the log's line of it.
fn reply(ctx: &Ctx<'_, '_>, game: &Game, done: &[String]) -> Result<(), PostError> {
    audit(
        ctx.tx,
        ctx.now,
        Some(game.id()),
        &format!(
            "moderator: {}",
            done.iter()
                .map(|d| d.replace("\n  ", ": "))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    )?;
    let text = if done.is_empty() {
        "No moderator command found.".to_string()
    } else {
        done.join("\n\n") + "\n"
    };
    ctx.answer(game, text)
}
