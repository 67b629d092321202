//! Players talking to each other through the umpire: `PRESS TO side|ALL`
//! … `END PRESS` in a player's mail, the moderator's `BROADCAST` … `END
//! BROADCAST`, and his `PRESS OFF` / `PRESS ON`. [`MailRules`] are a game's
//! rules for press and absence as its game file gave them (kept in the
//! store's `mail_rules`); [`deliver`] checks one block against them and
//! queues it to its readers, with an HTML part in which everything the
//! sender wrote is escaped, logs it, and says in one line what was done.
//!
//! Architecture invariant: press never touches orders. A block that is
//! refused is refused alone; the mail's other commands and its orders are
//! handled as if it were not there.

use super::game::Game;
use super::gamefile::{AbsenceRule, PressRule};
use super::letter::plain;
use super::outbox::{self, Kind};
use super::PostError;
use crate::config::Config;
use crate::envelope::Press;
use crate::mail::compose::Outgoing;
use crate::report::plural;
use crate::store::games::SideRow;
use crate::store::{press as press_rows, Transaction};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The longest press a block may carry, in characters (about two pages):
/// named in the refusal of a longer one.
pub const MAX_PRESS_CHARS: usize = 4_000;

/// The name press from the moderator is logged under.
pub const FROM_MODERATOR: &str = "(moderator)";

/// A game's rules for press and absence, from its game file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailRules {
    /// What the game file allows.
    pub press: PressRule,
    /// The moderator's `PRESS ON` / `PRESS OFF`, over the game file's.
    #[serde(default)]
    pub press_by_moderator: Option<bool>,
    #[serde(default)]
    pub absence: AbsenceRule,
    /// Each side's standby player, by side.
    #[serde(default)]
    pub standby: BTreeMap<String, String>,
}

impl MailRules {
    /// The rules a game file gives.
    pub fn of_file(file: &super::gamefile::GameFile) -> MailRules {
        MailRules {
            press: file.press,
            press_by_moderator: None,
            absence: file.absence,
            standby: file
                .sides
                .iter()
                .filter_map(|s| {
                    s.standby
                        .as_ref()
                        .map(|a| (s.id.clone(), a.to_ascii_lowercase()))
                })
                .collect(),
        }
    }

    /// A game's rules (the defaults for a game made before they were kept).
    ///
    /// # Errors
    /// On database errors or damaged rules.
    pub fn load(tx: &Transaction<'_>, game: &str) -> Result<MailRules, PostError> {
        press_rows::rules(tx, game)?
            .map(|r| serde_json::from_str(&r).map_err(|e| PostError::Corrupt(e.to_string())))
            .transpose()
            .map(Option::unwrap_or_default)
    }

    /// Store a game's rules.
    ///
    /// # Errors
    /// On database errors.
    pub fn save(&self, tx: &Transaction<'_>, game: &str) -> Result<(), PostError> {
        let json = serde_json::to_string(self).map_err(|e| PostError::Corrupt(e.to_string()))?;
        press_rows::set_rules(tx, game, &json)?;
        Ok(())
    }

    /// Whether the players may send press now.
    pub fn press_on(&self) -> bool {
        self.press_by_moderator
            .unwrap_or(self.press != PressRule::Off)
    }

    /// Why a player's block may not go, if it may not.
    fn refusal(&self, grey: bool) -> Option<String> {
        match (self.press_by_moderator, self.press) {
            (Some(false), _) => Some("the moderator has turned press off in this game".into()),
            (None, PressRule::Off) => Some("this game is played without press (the game file says press = \"off\")".into()),
            (_, PressRule::Open | PressRule::Off) if grey => Some(
                "this game allows no grey press (the game file says press = \"open\"): write PRESS TO … to send it with your side named".into(),
            ),
            _ => None,
        }
    }
}

/// Who writes a block: a side's player (or their standby), or the moderator.
#[derive(Debug, Clone, Copy)]
pub enum Writer<'a> {
    Side(&'a SideRow),
    Moderator,
}

/// Where a block is going and why it cannot, as the reply says it.
fn readers<'a>(
    sides: &'a [SideRow],
    writer: Writer<'_>,
    to: Option<&str>,
    grey: bool,
    game: &Game,
) -> Result<Vec<&'a SideRow>, String> {
    let own = match writer {
        Writer::Side(s) => Some(s.side.as_str()),
        Writer::Moderator => None,
    };
    // The umpire's generals read no press.
    let players = || sides.iter().filter(|s| s.mailed());
    let some = |to: Vec<&'a SideRow>| {
        if to.is_empty() {
            Err("the other sides are played by the umpire's general, who reads no press".into())
        } else {
            Ok(to)
        }
    };
    match to {
        // Grey press to all goes to the sender too, so the list of those
        // who got it points at no one (ruling P23).
        None => some(players().collect()),
        Some(t) if t.eq_ignore_ascii_case("all") => some(
            players()
                .filter(|s| grey || Some(s.side.as_str()) != own)
                .collect(),
        ),
        Some(t) => match sides.iter().find(|s| s.side.eq_ignore_ascii_case(t)) {
            Some(s) if Some(s.side.as_str()) == own => Err(format!(
                "{} is your own side; press goes to another side, or to ALL",
                s.side
            )),
            Some(s) if !s.mailed() => Err(format!(
                "{} is played by the umpire's general, who reads no press",
                s.side
            )),
            Some(s) => Ok(vec![s]),
            None => {
                let names: Vec<&str> = sides.iter().map(|s| s.side.as_str()).collect();
                let hint = crate::names::closest(t, names.iter().map(|n| (*n, *n)))
                    .map(|n| format!(" (did you mean '{n}'?)"))
                    .unwrap_or_default();
                Err(format!(
                    "game {} has no side '{t}'{hint}; press goes to one of {}, or to ALL",
                    game.id(),
                    names.join(", ")
                ))
            }
        },
    }
}

/// How the block is named in the reply: `PRESS TO nemedia`, `BROADCAST`.
fn named(p: &Press) -> String {
    match &p.to {
        None => "BROADCAST".into(),
        Some(t) if p.grey => format!("GREY PRESS TO {t}"),
        Some(t) => format!("PRESS TO {t}"),
    }
}

/// Why a block may not go before its readers are looked at, if it may not:
/// it is empty, too long, or the game's rules refuse a player's press.
fn refusal_of(rules: &MailRules, writer: Writer<'_>, press: &Press, what: &str) -> Option<String> {
    let chars = press.body.chars().count();
    if press.body.trim().is_empty() {
        return Some(format!(
            "the message is empty (write it between {what} and END {})",
            if press.to.is_none() {
                "BROADCAST"
            } else {
                "PRESS"
            }
        ));
    }
    if chars > MAX_PRESS_CHARS {
        return Some(format!(
            "the message has {chars} characters, and press is at most {MAX_PRESS_CHARS} characters a block: send it in shorter blocks"
        ));
    }
    match writer {
        Writer::Side(_) => rules.refusal(press.grey),
        Writer::Moderator => None,
    }
}

/// The words of a block's mails: their subject, the line over the text,
/// the line under it (how to answer), and the line over the moderator's
/// copy of a player's block.
struct Wording {
    subject: String,
    head: String,
    answer: String,
    copy: Option<String>,
}

/// How a block's mails are worded, for `readers` in the round `label`:
/// the moderator's broadcast, grey press (its sender unnamed to the
/// readers, named to the moderator) or press from a named side.
fn wording(
    game: &Game,
    writer: Writer<'_>,
    press: &Press,
    readers: &[&SideRow],
    label: &str,
) -> Wording {
    let everyone = press
        .to
        .as_deref()
        .is_none_or(|t| t.eq_ignore_ascii_case("all"));
    let names = side_names(readers).join(", ");
    let audience = if everyone {
        "every player".to_string()
    } else {
        names.clone()
    };
    let (subject, head) = match writer {
        Writer::Moderator => (
            "Broadcast from the moderator".to_string(),
            format!(
                "The moderator of {} ({}) writes to every player:",
                game.row.title,
                game.id()
            ),
        ),
        Writer::Side(_) if press.grey => (
            "Grey press".to_string(),
            format!(
                "Grey press (its sender is not named) to {audience} in {} ({}), {label}:",
                game.row.title,
                game.id(),
            ),
        ),
        Writer::Side(s) => (
            format!("Press from {}", s.side),
            format!(
                "Press from {} to {audience} in {} ({}), {label}:",
                s.side,
                game.row.title,
                game.id(),
            ),
        ),
    };
    let answer = match writer {
        Writer::Side(s) if !press.grey => format!("To answer, mail the umpire your header and PRESS TO {} … END PRESS.", s.side),
        _ => "To write to the other players, mail the umpire your header and PRESS TO <side> (or ALL) … END PRESS.".to_string(),
    };
    let copy = match writer {
        Writer::Side(s) => Some(format!(
            "Copy for the moderator: {} from {} to {names}{}:",
            if press.grey { "grey press" } else { "press" },
            s.side,
            if press.grey {
                " (they were not told who wrote it)"
            } else {
                ""
            }
        )),
        Writer::Moderator => None,
    };
    Wording {
        subject,
        head,
        answer,
        copy,
    }
}

/// The readers' sides, as the reply, the copy and the log list them.
fn side_names<'a>(readers: &[&'a SideRow]) -> Vec<&'a str> {
    readers.iter().map(|s| s.side.as_str()).collect()
}

/// One mail of a block to `to`: the text between `head` and `foot`, with an
/// HTML part in which everything the sender wrote is escaped.
fn press_mail(
    config: &Config,
    game: &Game,
    subject: &str,
    press: &Press,
    to: &str,
    head: &str,
    foot: &str,
) -> Outgoing {
    let mut m = plain(
        config,
        vec![to.to_string()],
        format!("[{}] {subject}", game.id()),
        format!("{head}\n\n{}\n\n{foot}\n", press.body),
        None,
    );
    let esc = crate::report::esc;
    m.html = Some(format!(
        "<!DOCTYPE html>\n<html><body>\n<p>{}</p>\n<pre>{}</pre>\n<p>{}</p>\n</body></html>\n",
        esc(head),
        esc(&press.body),
        esc(foot)
    ));
    m
}

/// The reply's line for a block that went to `names`.
fn delivered(what: &str, writer: Writer<'_>, press: &Press, names: &str) -> String {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let lines = plural(count(press.body.lines().count()), "line", "lines");
    let chars = plural(count(press.body.chars().count()), "character", "characters");
    match writer {
        Writer::Moderator => format!("{what}: sent to every player ({names}; {lines})."),
        Writer::Side(_) => format!(
            "{what}: delivered to {names} ({lines}, {chars}){}; the moderator has a copy.",
            if press.grey {
                " without your side's name"
            } else {
                " with your side named"
            }
        ),
    }
}

/// Check one block and, if it may go, queue it to every reader (and a copy
/// to the moderator, who sees every press with its true sender), log it,
/// and say what was done; a refused block says why and nothing is sent.
/// `tag` gives each mail its own outbox key.
///
/// # Errors
/// On database errors only: a block that may not go is an answer, not an error.
#[allow(clippy::too_many_arguments)]
pub fn deliver(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    rules: &MailRules,
    writer: Writer<'_>,
    press: &Press,
    message: i64,
    tag: &dyn Fn() -> String,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let what = named(press);
    let refused = |why: String| Ok(format!("{what}: {why}; nothing was sent."));
    if let Some(why) = refusal_of(rules, writer, press, &what) {
        return refused(why);
    }
    let sides = game.sides(tx)?;
    let to = match readers(&sides, writer, press.to.as_deref(), press.grey, game) {
        Ok(to) => to,
        Err(why) => return refused(why),
    };
    let round = game.round()?;
    let words = wording(game, writer, press, &to, &round.label);
    for reader in &to {
        let mail = press_mail(
            config,
            game,
            &words.subject,
            press,
            &reader.address,
            &words.head,
            &words.answer,
        );
        outbox::queue(tx, config, Some(game.id()), Kind::Press, &mail, &tag(), now)?;
    }
    if let Some(copy) = &words.copy {
        let mail = press_mail(
            config,
            game,
            &words.subject,
            press,
            &game.row.moderator_address,
            copy,
            "PRESS OFF in a moderator's mail stops press between the players; PRESS ON lets it go on.",
        );
        outbox::queue(tx, config, Some(game.id()), Kind::Press, &mail, &tag(), now)?;
    }
    let names = side_names(&to);
    log_block(tx, game, writer, press, round.number, message, &names, now)?;
    Ok(delivered(&what, writer, press, &names.join(", ")))
}

/// Keep a block that went in the game's press log and the audit trail,
/// with its true sender.
#[allow(clippy::too_many_arguments)]
fn log_block(
    tx: &Transaction<'_>,
    game: &Game,
    writer: Writer<'_>,
    press: &Press,
    round: u32,
    message: i64,
    names: &[&str],
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let sender = match writer {
        Writer::Side(s) => s.side.as_str(),
        Writer::Moderator => FROM_MODERATOR,
    };
    press_rows::log(
        tx,
        game.id(),
        &press_rows::Sent {
            round,
            message,
            sender: sender.to_string(),
            readers: names.join(","),
            grey: press.grey,
            body: press.body.clone(),
        },
        now,
    )?;
    super::audit(
        tx,
        now,
        Some(game.id()),
        &format!(
            "press from {sender} to {} ({} characters{})",
            names.join(", "),
            press.body.chars().count(),
            if press.grey { ", grey" } else { "" }
        ),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_game_file_and_the_moderator_allow() {
        let mut r = MailRules::default();
        assert!(r.press_on() && r.refusal(false).is_none());
        assert!(r.refusal(true).unwrap().contains("no grey press"));
        r.press = PressRule::Grey;
        assert!(r.refusal(true).is_none());
        r.press_by_moderator = Some(false);
        assert!(!r.press_on());
        assert!(r
            .refusal(false)
            .unwrap()
            .contains("moderator has turned press off"));
        r.press = PressRule::Off;
        r.press_by_moderator = Some(true);
        assert!(r.press_on() && r.refusal(false).is_none());
        r.press_by_moderator = None;
        assert!(r.refusal(false).unwrap().contains("press = \"off\""));
    }

    #[test]
    fn rules_survive_the_store_as_json() {
        let mut r = MailRules::default();
        r.standby
            .insert("nemedia".into(), "amalric@example.org".into());
        r.press = PressRule::Grey;
        let back: MailRules = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }
}
