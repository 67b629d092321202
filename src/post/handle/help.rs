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
        .iter()
        .map(|g| one(g))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The post office's part of every guide: the mail commands every game
/// takes, a player's and a moderator's, whatever its rules.
const MAIL_COMMANDS: &str = include_str!("../../../docs/mail-commands.md");

/// The guides a HELP answers from: the game's rule set's, or every rule
/// set's when the writer plays more than one; the last followed by the
/// mail commands, so that a topic finds them in the guide it searches.
fn guides(game: Option<&Game>) -> Vec<String> {
    let rules: Vec<&str> = match game {
        Some(g) => vec![g.ruleset.guide()],
        None => crate::games::all().iter().map(|r| r.guide()).collect(),
    };
    with_mail_commands(&rules)
}

fn with_mail_commands(rules: &[&str]) -> Vec<String> {
    let last = rules.len().saturating_sub(1);
    rules
        .iter()
        .enumerate()
        .map(|(i, g)| {
            if i == last {
                format!("{}\n\n{MAIL_COMMANDS}", g.trim_end())
            } else {
                g.to_string()
            }
        })
        .collect()
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
        .iter()
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
    let released = rounds::is_released(ctx.tx, game.id(), round)?.unwrap_or(false);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A command of the envelope's grammar as written — the keywords its
    /// rule starts with: `reset_password_cmd = { k_reset ~ k_password ~
    /// token }` is RESET PASSWORD.
    fn command_written(line: &str) -> Option<String> {
        let (name, rule) = line.split_once('=')?;
        if !name.trim().ends_with("_cmd") {
            return None;
        }
        let body = rule.trim().strip_prefix('{')?.rsplit_once('}')?.0;
        let words: Vec<String> = body
            .split('~')
            .map(str::trim)
            .skip_while(|t| t.ends_with('?'))
            .take_while(|t| t.starts_with("k_") && !t.ends_with('?'))
            .map(|t| t.trim_start_matches("k_").to_uppercase())
            .collect();
        (!words.is_empty()).then(|| words.join(" "))
    }

    /// Every command the post office reads is explained in the guide a
    /// HELP answers with, whatever the game's rules: the mails name no
    /// command their game's players cannot look up.
    #[test]
    fn every_mail_command_is_in_every_games_help() {
        let grammar = include_str!("../../../grammar/envelope.pest");
        let written: Vec<String> = grammar.lines().filter_map(command_written).collect();
        for w in [
            "RESET PASSWORD",
            "PRESS TO",
            "END GAME",
            "HISTORY",
            "UNLOCK",
        ] {
            assert!(written.iter().any(|c| c == w), "{w} in {written:?}");
        }
        for rules in crate::games::all() {
            let help = crate::report::guide::plain(&with_mail_commands(&[rules.guide()])[0]);
            for w in &written {
                assert!(
                    help.contains(w.as_str()),
                    "{}: HELP does not explain {w}",
                    rules.name()
                );
            }
        }
    }
}
