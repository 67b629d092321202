//! What a mail asks to read: HELP (the guide, or one topic of it), STATUS,
//! RESEND and HISTORY n, and the answer to a mail without a header.

use super::{Ctx, Disposition};
use crate::envelope::{Command, Envelope};
use crate::mail::compose::AutoSubmitted;
use crate::post::game::{games_of, Game};
use crate::post::outbox::{self, Kind};
use crate::post::round::{report_mail, stored_report, Picture};
use crate::post::{templates, PostError};
use crate::store::games::SideRow;
use crate::store::{rounds, Transaction};

/// The player's guide to writing orders (HELP by mail), as plain text: the
/// guide of the game's rule set, or of every rule set when no game is named;
/// with a topic, that section of it (or the list of topics).
pub(super) fn guide(game: Option<&Game>, topic: Option<&str>) -> String {
    use crate::report::guide;
    let one = |markdown: &str| match topic {
        Some(t) => guide::topic(markdown, t).unwrap_or_else(|topics| topics),
        None => guide::plain(markdown),
    };
    guides(game)
        .into_iter()
        .map(one)
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The guides a HELP answers from: the game's rule set's, or every rule
/// set's when the writer plays more than one.
fn guides(game: Option<&Game>) -> Vec<&'static str> {
    match game {
        Some(g) => vec![g.ruleset.guide()],
        None => crate::games::all().iter().map(|r| r.guide()).collect(),
    }
}

/// Answer a HELP: the guide (or its one section) as plain text and as an
/// HTML page of the same words. A topic that fits no one section is
/// answered in plain text only (the list of topics).
pub(super) fn help_reply(
    ctx: &Ctx<'_, '_>,
    game: Option<&Game>,
    for_game: Option<&str>,
    topic: Option<&str>,
) -> Result<(), PostError> {
    use crate::report::guide;
    let mut mail = ctx.answer_mail(guide(game, topic));
    let parts: Option<Vec<String>> = guides(game)
        .into_iter()
        .map(|markdown| match topic {
            Some(t) => guide::topic_html(markdown, t),
            None => Some(guide::html(markdown)),
        })
        .collect();
    if let Some(parts) = parts {
        mail.html = Some(format!(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>The umpire's guide</title></head><body>\n{}</body></html>\n",
            parts.join("<hr>\n")
        ));
    }
    ctx.send(for_game, Kind::Reply, &mail)
}

/// A message without a header: only a registered player gets an answer.
pub(super) fn no_header(ctx: &Ctx<'_, '_>, env: &Envelope) -> Result<Disposition, PostError> {
    let games = games_of(ctx.tx, &ctx.from)?;
    let wants_help = env.commands.iter().find_map(|c| match &c.node {
        Command::Help(topic) => Some(topic.as_deref()),
        _ => None,
    });
    if games.is_empty() {
        return ctx.refuse(None, vec![], "no header and not a registered player", "");
    }
    if let Some(topic) = wants_help {
        let their: Vec<Game> = games
            .iter()
            .filter_map(|g| Game::load(ctx.tx, g).transpose())
            .collect::<Result<_, _>>()?;
        let mut rulesets: Vec<&str> = their.iter().map(|g| g.ruleset.name()).collect();
        rulesets.dedup();
        let game = if rulesets.len() == 1 {
            their.first()
        } else {
            None
        };
        help_reply(ctx, game, None, topic)?;
        return Ok(Disposition::Done("help".into()));
    }
    let hint = format!(
        "Start your message with a header line such as:\n\n  GAME {} SIDE <your side> PASSWORD <your password>\n\nthen your orders, one line per unit, then END.",
        games[0]
    );
    ctx.refuse(None, vec![ctx.from.clone()], "The message has no GAME … SIDE … PASSWORD … header line, so umpire cannot tell which game it is for.", &hint)
}

/// Mail a released report again to the sender (RESEND, HISTORY n).
pub(super) fn resend_report(ctx: &Ctx<'_, '_>, game: &Game, round: u32) -> Result<(), PostError> {
    let released = rounds::played(ctx.tx, game.id(), round)?.is_some_and(|r| r.played.released);
    match stored_report(ctx.tx, game.id(), round)? {
        Some((mut rep, before, after)) if released => {
            rep.draft = false;
            let pic = Picture::of(game, &rep, &before, &after, None)?;
            let mut mail = report_mail(ctx.config, vec![ctx.from.clone()], &rep, &pic)?;
            mail.in_reply_to = ctx.msg.message_id.clone();
            mail.references = ctx.msg.message_id.iter().cloned().collect();
            mail.auto_submitted = AutoSubmitted::Replied;
            outbox::queue(
                ctx.tx,
                ctx.config,
                Some(game.id()),
                Kind::Reply,
                &mail,
                &ctx.next_tag(),
                ctx.now,
            )?;
        }
        _ => {
            let text = if round == 0 {
                "No turn has been played yet.".to_string()
            } else {
                format!("There is no released report of turn {round}.")
            };
            ctx.answer(game, text)?;
        }
    }
    Ok(())
}

/// The state of a game, with the deadline as `reader` (a side's player;
/// `None`: the moderator) reads it.
pub(crate) fn status_text(
    tx: &Transaction<'_>,
    game: &Game,
    reader: Option<&SideRow>,
) -> Result<String, PostError> {
    let sides_in = game.sides_in(tx)?;
    let ready = game.sides_ready(tx)?;
    let sides: Vec<_> = game
        .sides(tx)?
        .into_iter()
        .map(|s| minijinja::context! { side => s.side.clone(), ordered => sides_in.contains(&s.side), ready => ready.contains(&s.side) })
        .collect();
    Ok(templates::render(
        "status.txt",
        minijinja::context! { title => &game.row.title, game => game.id(), round => game.round()?.label, status => &game.row.status,
        deadline => reader.map_or_else(|| game.deadline_text(), |r| game.deadline_for(r)), sides => sides, hold => game.row.hold, draft => rounds::draft(tx, game.id())? },
    ))
}
