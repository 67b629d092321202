//! A player's mail: the game and side its header names, proof that it is
//! theirs (the password, or a standby's), the mail commands, and the orders.

use super::desk::Desk;
use super::effect::{apply, After, Decision, Effect, StoreLedger};
use super::help::{help_reply, resend_report, status_text};
use super::identity::check_password;
use super::orders::{arrival, deferral, hold, preview, take_orders, Taken};
use super::{Ctx, Disposition};
use crate::envelope::{self, Command, Envelope, Header};
use crate::games::Round;
use crate::post::absence::{self, Proof};
use crate::post::game::{games_of, Game};
use crate::post::outbox::Kind;
use crate::post::press::{self, MailRules, Writer};
use crate::post::{audit, templates, PostError};
use crate::store::games::{self as game_rows, GameStatus, SideRow};
use crate::store::{rounds, submissions};
use chrono::Duration;

/// The lengths a player's own password may have (NEW PASSWORD).
const MIN_PASSWORD: usize = 6;
const MAX_PASSWORD: usize = 64;

/// A message with a player header.
pub(super) fn player(
    ctx: &Ctx<'_, '_>,
    env: &Envelope,
    header: &Header,
    side_name: &str,
) -> Result<Disposition, PostError> {
    let (game, side) = match addressed(ctx, header, side_name)? {
        Ok(found) => found,
        Err(d) => return Ok(d),
    };
    let rules = MailRules::load(ctx.tx, game.id())?;
    let standby = match proven(ctx, header, &game, &rules, &side)? {
        Ok(standby) => standby,
        Err(d) => return Ok(d),
    };
    let answered = commands(ctx, env, header, &game, rules, &side, standby)?;
    // A TIMEZONE in this mail counts already for the answer to its orders.
    let refreshed = game_rows::sides(ctx.tx, game.id())?
        .into_iter()
        .find(|s| s.side == side.side);
    let side = refreshed.unwrap_or(side);
    let wait = env.commands.iter().any(|c| c.node == Command::Wait);
    let ready = env.commands.iter().any(|c| c.node == Command::Ready);
    let readiness_only =
        (env.sheet.trim().is_empty() || only_pleasantries(env)) && env.diagnostics.is_empty();
    if readiness_only && !(wait || ready) {
        if answered.is_empty() {
            return header_only(ctx, header, &game, &side, standby);
        }
        return Ok(Disposition::Done(answered.join(",")));
    }
    let round = match open_to(ctx, header, &game, &side, standby)? {
        Ok(round) => round,
        Err(d) => return Ok(d),
    };
    if readiness_only && submissions::latest(ctx.tx, game.id(), round.number, &side.side)?.is_some()
    {
        return readiness(ctx, &game, &side, &round, wait);
    }
    let sheet = Sheet {
        wait,
        ready,
        standby,
    };
    orders(ctx, env, header, &game, &side, &round, sheet)
}

/// A mail of the header alone (no orders, no command): nothing changes,
/// and the player is told so, with what stands for the open round, so a
/// mail that lost its orders on the way is not taken for a sheet of none.
fn header_only(
    ctx: &Ctx<'_, '_>,
    header: &Header,
    game: &Game,
    side: &SideRow,
    standby: bool,
) -> Result<Disposition, PostError> {
    let round = match open_to(ctx, header, game, side, standby)? {
        Ok(round) => round,
        Err(d) => return Ok(d),
    };
    let stands = match submissions::latest(ctx.tx, game.id(), round.number, &side.side)? {
        Some(_) => format!("your orders for {} stand as they are", round.label),
        None => format!("you have no orders in for {} yet", round.label),
    };
    ctx.confirm(
        game,
        format!(
            "{}: your mail held the header and nothing after it, so nothing changed: {stands}.\nWrite your orders below the header, one a line (HELP lists them); READY on a line of its own says the orders on file are your last for the round.\n",
            game.row.title
        ),
    )?;
    Ok(Disposition::Done("header only".into()))
}

/// A mail of commands whose other lines only look like a letter's greeting
/// or a mail program's signature ("Sent from my iPhone", a mistyped
/// "UNLOKC franks"): those lines are no sheet of orders (ruling O-27
/// applied to the whole mail), so a STATUS sent from a phone neither
/// replaces the side's orders with an empty sheet nor makes it ready.
fn only_pleasantries(env: &Envelope) -> bool {
    !env.commands.is_empty()
        && env
            .sheet
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .all(crate::pleasantry::is_shaped)
}

/// The game and side the header names, or the refusal when either is
/// unknown (mailed only to an address the umpire knows).
fn addressed(
    ctx: &Ctx<'_, '_>,
    header: &Header,
    side_name: &str,
) -> Result<Result<(Game, SideRow), Disposition>, PostError> {
    let tx = ctx.tx;
    let Some(game) = Game::lock_for(tx, &header.game, Some((side_name, &ctx.from)))? else {
        let to = if games_of(tx, &ctx.from)?.is_empty() {
            vec![]
        } else {
            vec![ctx.from.clone()]
        };
        return ctx
            .refuse(
                None,
                to,
                &format!("There is no game called '{}'.", header.game),
                "Check the GAME word of your header against your welcome mail.",
            )
            .map(Err);
    };
    let sides = game.sides(tx)?;
    if let Some(side) = sides
        .iter()
        .find(|s| s.side.eq_ignore_ascii_case(side_name))
    {
        return Ok(Ok((game.clone(), side.clone())));
    }
    let registered =
        sides.iter().any(|s| s.address == ctx.from) || game.row.moderator_address == ctx.from;
    let to = if registered {
        vec![ctx.from.clone()]
    } else {
        vec![]
    };
    ctx.refuse(
        Some(game.id()),
        to,
        &format!("Game {} has no side called '{}'.", game.id(), side_name),
        "Check the SIDE word of your header against your welcome mail.",
    )
    .map(Err)
}

/// Whether the mail is the side's: its player's password from its
/// address, its standby's while the player is away (`Ok(true)`), or a mail
/// held for its round and proven when it came. Otherwise what became of it.
fn proven(
    ctx: &Ctx<'_, '_>,
    header: &Header,
    game: &Game,
    rules: &MailRules,
    side: &SideRow,
) -> Result<Result<bool, Disposition>, PostError> {
    let tx = ctx.tx;
    // A side's standby, with the password mailed to them, while its player
    // is away (post::absence): the mail is the side's.
    let standby = ctx.again.is_none()
        && match absence::proof(tx, game, rules, side, &ctx.from, &header.password, ctx.now)? {
            Proof::Standby => true,
            Proof::Early(from) => {
                return ctx.refuse(
                    Some(game.id()),
                    vec![ctx.from.clone()],
                    &format!(
                        "You stand in for side {} of game {} only from {}.",
                        side.side,
                        game.id(),
                        game.time_for(from, side)
                    ),
                    "Until then the side's own player orders for it; send your orders again once the absence has begun.",
                ).map(Err);
            }
            Proof::No => false,
        };
    if standby {
        audit(
            tx,
            ctx.now,
            Some(game.id()),
            &format!("mail of the standby {} for side {}", ctx.from, side.side),
        )?;
        return Ok(Ok(true));
    }
    if let Some(h) = &ctx.again {
        // Read again once its round opened: the password was checked when
        // it came (and is masked in the stored copy since), so the proof
        // then stands, if the side still has the player who gave it.
        if h.game != game.id() || h.side != side.side || h.address != side.address {
            audit(
                tx,
                ctx.now,
                Some(game.id()),
                &format!(
                    "mail held for turn {} of side {} is not read: the side's player changed",
                    h.round, h.side
                ),
            )?;
            return Ok(Err(Disposition::Refused(format!(
                "held for turn {}; side {} has another player now",
                h.round, h.side
            ))));
        }
    } else if let Some(d) = check_password(ctx, game, side, &header.password)? {
        return Ok(Err(d));
    }
    if side.address == ctx.from {
        return Ok(Ok(false));
    }
    elsewhere(ctx, game, side).map(Err)
}

/// The right password from another address: only the registered player
/// hears of it (with the address it came from, who knows the password);
/// the sender gets what a wrong password gets, nothing.
fn elsewhere(ctx: &Ctx<'_, '_>, game: &Game, side: &SideRow) -> Result<Disposition, PostError> {
    audit(
        ctx.tx,
        ctx.now,
        Some(game.id()),
        &format!(
            "side {}'s password came from {}, not {}",
            side.side, ctx.from, side.address
        ),
    )?;
    ctx.refuse(
        Some(game.id()),
        vec![side.address.clone()],
        &format!(
            "A message for side {} of game {} came with your password, but from {}, not from your registered address.",
            side.side,
            game.id(),
            ctx.from
        ),
        "If you sent it, send again from your registered address. If you did not, someone knows your password: ask the moderator to RESET PASSWORD for your side.",
    )?;
    Ok(Disposition::Refused(format!(
        "the right password for {} from {}",
        side.side, ctx.from
    )))
}

/// The mail's commands, each answered in a reply of its own (press and
/// ABSENT together in one); what was answered, for the message's note.
fn commands(
    ctx: &Ctx<'_, '_>,
    env: &Envelope,
    header: &Header,
    game: &Game,
    rules: MailRules,
    side: &SideRow,
    standby: bool,
) -> Result<Vec<&'static str>, PostError> {
    let ledger = StoreLedger::new(ctx.tx, game.id());
    let mut desk = Desk {
        game: game.clone(),
        sides: vec![side.clone()],
        rules,
        now: ctx.now,
        ledger: &ledger,
    };
    let mut answered = Vec::new();
    // What became of each block of press and each ABSENT: one reply.
    let mut talk: Vec<String> = Vec::new();
    // A mail read again has had its commands answered the first time.
    let commands = if ctx.again.is_some() {
        &[][..]
    } else {
        &env.commands[..]
    };
    for c in commands {
        let own = matches!(
            c.node,
            Command::NewPassword(_) | Command::TimeZone(_) | Command::Absent(_)
        );
        if standby && own {
            let written = env
                .source
                .get(c.span.start..c.span.end)
                .unwrap_or("")
                .trim();
            talk.push(format!(
                "{written}: only the side's own player may do this; nothing changed."
            ));
            continue;
        }
        if let Some(said) = talk_of(ctx, header, &desk, side, &c.node)? {
            talk.push(said);
            continue;
        }
        let Some((what, answer)) = answer(ctx, &mut desk, header, side, &c.node)? else {
            continue;
        };
        if let Some(text) = answer {
            ctx.answer(game, text)?;
        }
        answered.push(what);
    }
    if !talk.is_empty() {
        ctx.answer(game, talk.join("\n\n") + "\n")?;
        answered.push("press");
    }
    Ok(answered)
}

/// PRESS TO and ABSENT: carried out now, answered together in one reply.
fn talk_of(
    ctx: &Ctx<'_, '_>,
    header: &Header,
    desk: &Desk<'_>,
    side: &SideRow,
    c: &Command,
) -> Result<Option<String>, PostError> {
    let (tx, game, rules) = (ctx.tx, &desk.game, &desk.rules);
    Ok(match c {
        Command::Press(p) if p.to.is_some() => {
            // The header's password never travels on in press.
            let p = envelope::Press {
                body: crate::mail::mask::mask_text(&p.body, &[&header.password]),
                ..p.clone()
            };
            Some(press::deliver(
                tx,
                ctx.config,
                game,
                rules,
                Writer::Side(side),
                &p,
                ctx.row,
                &|| ctx.next_tag(),
                ctx.now,
            )?)
        }
        Command::Absent(a) => Some(absence::declare(
            tx,
            ctx.config,
            game,
            rules,
            side,
            *a,
            &|| ctx.next_tag(),
            ctx.now,
        )?),
        _ => None,
    })
}

/// A command answered in a reply of its own: what it was, for the note,
/// and the reply's text (`None` when it mailed its own answer: HELP,
/// RESEND, HISTORY). `None` for commands that are not answered so.
fn answer(
    ctx: &Ctx<'_, '_>,
    desk: &mut Desk<'_>,
    header: &Header,
    side: &SideRow,
    c: &Command,
) -> Result<Option<(&'static str, Option<String>)>, PostError> {
    let game = &desk.game;
    let decision = match c {
        Command::Status => {
            return Ok(Some((
                "status",
                Some(status_text(ctx.tx, game, Some(side))?),
            )))
        }
        Command::Help(topic) => {
            help_reply(ctx, Some(game), Some(game.id()), topic.as_deref())?;
            return Ok(Some(("help", None)));
        }
        Command::Resend | Command::History(_) => {
            let round = match c {
                Command::History(t) => *t,
                _ => game.row.round.saturating_sub(1),
            };
            resend_report(ctx, game, round)?;
            return Ok(Some(("report", None)));
        }
        Command::NewPassword(new) => ("password", new_password(side, &header.password, new)),
        Command::TimeZone(name) => ("timezone", time_zone(game, side, name)?),
        _ => return Ok(None),
    };
    let (what, Decision { answer, effects }) = decision;
    let mut after = After::default();
    for effect in effects {
        apply(ctx, desk, &mut after, effect)?;
    }
    Ok(Some((what, answer)))
}

/// NEW PASSWORD secret: the side's password from the next mail on.
fn new_password(side: &SideRow, current: &str, new: &str) -> Decision {
    let len = new.chars().count();
    if !(MIN_PASSWORD..=MAX_PASSWORD).contains(&len) {
        return Decision::said(format!("NEW PASSWORD: a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters; yours is unchanged.\n"));
    }
    if new == current {
        return Decision::said("NEW PASSWORD: that is your password already; nothing changed.\n");
    }
    Decision::doing(
        format!(
            "The password of side {} is changed. Use it from your next message on.\n",
            side.side
        ),
        vec![Effect::SetPassword {
            side: side.side.clone(),
            password: new.to_string(),
        }],
    )
}

/// TIMEZONE Europe/Paris: the deadlines the player is shown, in their zone.
fn time_zone(game: &Game, side: &SideRow, name: &str) -> Result<Decision, PostError> {
    Ok(match crate::post::gamefile::zone(name) {
        Ok(z) => {
            let mine = SideRow {
                timezone: Some(z.name().to_string()),
                ..side.clone()
            };
            Decision::doing(
                format!("TIMEZONE: every deadline you are shown is now in {} (the game's time beside it): the deadline for {} is {}.\n", z.name(), game.round()?.label, game.deadline_for(&mine)),
                vec![Effect::SetTimeZone {
                    side: side.side.clone(),
                    zone: z.name().to_string(),
                }],
            )
        }
        Err(near) if near.is_empty() => Decision::said(format!(
            "TIMEZONE: '{name}' is not a time zone of the tz database; write it like Europe/London, America/New_York or UTC. Nothing changed.\n"
        )),
        Err(near) => Decision::said(format!(
            "TIMEZONE: '{name}' is not a time zone; did you mean {}? Nothing changed.\n",
            near.join(" or ")
        )),
    })
}

/// The round the mail's orders are for, when the game takes them now;
/// otherwise what became of the mail (refused, or held for the next round).
fn open_to(
    ctx: &Ctx<'_, '_>,
    header: &Header,
    game: &Game,
    side: &SideRow,
    standby: bool,
) -> Result<Result<Round, Disposition>, PostError> {
    let refuse = |why: &str, hint: &str| {
        ctx.refuse(Some(game.id()), vec![ctx.from.clone()], why, hint)
            .map(Err)
    };
    if game.row.status != GameStatus::Active {
        let why = format!(
            "Game {} is {}; it takes no orders now.",
            game.id(),
            game.row.status
        );
        return refuse(&why, "");
    }
    // A standby's mail is for the round open while they stand in: not held.
    if ctx.again.is_none() && !standby {
        if let Some(t) = deferral(ctx, game, header, &side.side)? {
            return hold(ctx, game, side, t).map(Err);
        }
    }
    if let Some(held) = rounds::draft(ctx.tx, game.id())? {
        return refuse(
            &format!("The report of turn {held} of {} is with the moderator for approval; no orders are taken until it is released.", game.id()),
            "You will get the report, with the next deadline, as soon as the moderator releases it; send your orders then.",
        );
    }
    let round = game.round()?;
    if round.game_master.is_some() {
        return refuse(
            &format!(
                "Game {} is waiting for the game master's answer ({}); no orders are taken until the phase's report is out.",
                game.id(),
                round.label
            ),
            "You will get the report, with the next deadline, as soon as the game master has answered; send your orders then.",
        );
    }
    if header.turn.is_some() || header.phase.is_some() {
        let t = header.turn.unwrap_or(u32::MAX);
        let (named, write) = game.ruleset.header_turn(&game.state()?, t, header.phase)?;
        if named != round.number {
            let written = match (header.turn, header.phase) {
                (Some(t), Some(p)) => format!("turn {t}, phase {p}"),
                (Some(t), None) => format!("turn {t}"),
                (None, _) => "a phase of no turn".into(),
            };
            return refuse(
                &format!(
                    "These orders are for {written}, but game {} is taking orders for {}.",
                    game.id(),
                    round.label
                ),
                &format!("Write {write} in the header, or leave TURN out."),
            );
        }
    }
    if arrival(ctx)? > game.deadline() + Duration::minutes(i64::from(game.row.grace_minutes)) {
        // The deadline passed but the round has not been played yet: played
        // now, without these orders, as the book's written orders require.
        let why = format!(
            "The deadline for {} ({}) has passed.",
            round.label,
            game.deadline_for(side)
        );
        return refuse(&why, "");
    }
    Ok(Ok(round))
}

/// READY or WAIT alone: the orders already sent stand; only whether the
/// round may be played on them before the deadline changes.
fn readiness(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    side: &SideRow,
    round: &Round,
    wait: bool,
) -> Result<Disposition, PostError> {
    submissions::set_ready(ctx.tx, game.id(), round.number, &side.side, !wait)?;
    let text = if wait {
        format!("{}: your orders for {} stand, and the round waits for the deadline ({}) or your READY.\n", game.row.title, round.label, game.deadline_for(side))
    } else {
        format!("{}: your orders for {} stand as they are; the round is played as soon as every side that writes is ready.\n", game.row.title, round.label)
    };
    ctx.confirm(game, text)?;
    Ok(Disposition::Orders {
        note: format!(
            "{} for {} {}",
            if wait { "wait" } else { "ready" },
            side.side,
            round.label
        ),
        game: game.id().to_string(),
    })
}

/// How a sheet of orders came: with READY or WAIT, from the side's standby.
#[derive(Clone, Copy)]
struct Sheet {
    wait: bool,
    ready: bool,
    standby: bool,
}

/// The mail's orders checked and stored, and the confirmation (with the
/// preview picture); the player told when a standby ordered for them.
fn orders(
    ctx: &Ctx<'_, '_>,
    env: &Envelope,
    header: &Header,
    game: &Game,
    side: &SideRow,
    round: &Round,
    sheet: Sheet,
) -> Result<Disposition, PostError> {
    let Sheet {
        wait,
        ready,
        standby,
    } = sheet;
    let rendered: Vec<_> = env
        .diagnostics
        .iter()
        .map(|d| d.rendered(&env.source))
        .collect();
    let text = crate::mail::mask::mask_text(&ctx.msg.orders_text, &[&header.password]);
    let Taken {
        checked,
        changes,
        kept,
    } = take_orders(
        ctx,
        game,
        &side.side,
        round.number,
        &env.sheet,
        &rendered,
        text,
        |c| !wait && (ready || c.errors == 0),
    )?;
    let text = templates::render(
        "confirmation.txt",
        minijinja::context! {
            title => &game.row.title, game => game.id(), round => &round.label, side => &side.side,
            deadline => game.deadline_for(side), changes => changes, confirmation => &checked.confirmation,
            refused => checked.errors, ready => ready, wait => wait, kept => kept,
        },
    );
    let preview = preview(game, &side.side, round.number, &checked);
    let text = match &preview {
        Some(_) => format!("{text}\nThe picture attached shows where your orders take your units if nothing else moves.\n"),
        None => text,
    };
    let mut mail = ctx.answer_mail(text);
    mail.attachments.extend(preview);
    ctx.send(Some(game.id()), Kind::Confirmation, &mail)?;
    if standby {
        standby_told(ctx, game, side, round, &checked)?;
    }
    Ok(Disposition::Orders {
        note: format!("orders for {} {}", side.side, round.label),
        game: game.id().to_string(),
    })
}

/// The side's player, away, told what their standby ordered.
fn standby_told(
    ctx: &Ctx<'_, '_>,
    game: &Game,
    side: &SideRow,
    round: &Round,
    checked: &crate::games::Checked,
) -> Result<(), PostError> {
    let understood: Vec<String> = checked
        .understood
        .iter()
        .map(|(_, l)| format!("  {l}"))
        .collect();
    ctx.notice(
        game,
        &side.address,
        &format!("Your standby ordered for {}", side.side),
        format!(
            "While you are away, your standby ({}) sent orders for {} for {}:\n\n{}\n\nOrders you send yourself before the deadline ({}) count as ever: the latest mail counts.\n",
            ctx.from,
            side.side,
            round.label,
            if understood.is_empty() { "  (no orders accepted)".to_string() } else { understood.join("\n") },
            game.deadline_for(side)
        ),
    )
}
