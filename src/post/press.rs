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
use super::outbox::{self, Kind};
use super::round::plain;
use super::PostError;
use crate::config::Config;
use crate::envelope::Press;
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
    match to {
        // Grey press to all goes to the sender too, so the list of those
        // who got it points at no one (ruling P23).
        None => Ok(sides.iter().collect()),
        Some(t) if t.eq_ignore_ascii_case("all") => Ok(sides
            .iter()
            .filter(|s| grey || Some(s.side.as_str()) != own)
            .collect()),
        Some(t) => match sides.iter().find(|s| s.side.eq_ignore_ascii_case(t)) {
            Some(s) if Some(s.side.as_str()) == own => Err(format!(
                "{} is your own side; press goes to another side, or to ALL",
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
    let chars = press.body.chars().count();
    if press.body.trim().is_empty() {
        return refused(format!(
            "the message is empty (write it between {what} and END {})",
            if press.to.is_none() {
                "BROADCAST"
            } else {
                "PRESS"
            }
        ));
    }
    if chars > MAX_PRESS_CHARS {
        return refused(format!(
            "the message has {chars} characters, and press is at most {MAX_PRESS_CHARS} characters a block: send it in shorter blocks"
        ));
    }
    if let Writer::Side(_) = writer {
        if let Some(why) = rules.refusal(press.grey) {
            return refused(why);
        }
    }
    let sides = game.sides(tx)?;
    let to = match readers(&sides, writer, press.to.as_deref(), press.grey, game) {
        Ok(to) => to,
        Err(why) => return refused(why),
    };
    let sender = match writer {
        Writer::Side(s) => s.side.as_str(),
        Writer::Moderator => FROM_MODERATOR,
    };
    let round = game.round()?;
    let everyone = press
        .to
        .as_deref()
        .is_none_or(|t| t.eq_ignore_ascii_case("all"));
    let audience = if everyone {
        "every player".to_string()
    } else {
        to.iter()
            .map(|s| s.side.as_str())
            .collect::<Vec<_>>()
            .join(", ")
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
                "Grey press (its sender is not named) to {audience} in {} ({}), {}:",
                game.row.title,
                game.id(),
                round.label
            ),
        ),
        Writer::Side(s) => (
            format!("Press from {}", s.side),
            format!(
                "Press from {} to {audience} in {} ({}), {}:",
                s.side,
                game.row.title,
                game.id(),
                round.label
            ),
        ),
    };
    let answer = match writer {
        Writer::Side(s) if !press.grey => format!("To answer, mail the umpire your header and PRESS TO {} … END PRESS.", s.side),
        _ => "To write to the other players, mail the umpire your header and PRESS TO <side> (or ALL) … END PRESS.".to_string(),
    };
    let mail = |to: &str, head: &str, foot: &str| {
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
    };
    for reader in &to {
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Press,
            &mail(&reader.address, &head, &answer),
            &tag(),
            now,
        )?;
    }
    let names: Vec<&str> = to.iter().map(|s| s.side.as_str()).collect();
    if let Writer::Side(s) = writer {
        let copy = format!(
            "Copy for the moderator: {} from {} to {}{}:",
            if press.grey { "grey press" } else { "press" },
            s.side,
            names.join(", "),
            if press.grey {
                " (they were not told who wrote it)"
            } else {
                ""
            }
        );
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Press,
            &mail(&game.row.moderator_address, &copy, "PRESS OFF in a moderator's mail stops press between the players; PRESS ON lets it go on."),
            &tag(),
            now,
        )?;
    }
    press_rows::log(
        tx,
        game.id(),
        &press_rows::Sent {
            round: round.number,
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
            "press from {sender} to {} ({chars} characters{})",
            names.join(", "),
            if press.grey { ", grey" } else { "" }
        ),
    )?;
    let lines = press.body.lines().count();
    Ok(match writer {
        Writer::Moderator => format!(
            "{what}: sent to every player ({}; {lines} lines).",
            names.join(", ")
        ),
        Writer::Side(_) => {
            format!(
            "{what}: delivered to {} ({lines} {}, {chars} characters){}; the moderator has a copy.",
            names.join(", "),
            if lines == 1 { "line" } else { "lines" },
            if press.grey { " without your side's name" } else { " with your side named" }
        )
        }
    })
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
