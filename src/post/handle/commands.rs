//! The moderator's commands as decisions: each reads the game as the mail's
//! earlier lines left it ([`Desk`]) and returns what the reply says of the
//! line and the [`Effect`]s that carry it out. Nothing here writes: one
//! `effect::apply` does, in the message's transaction.
//!
//! A new moderator command is one function here, one arm in [`decide`], and
//! one snapshot (`tests/post/mails.rs`).

use super::desk::Desk;
use super::effect::{Change, Decision, Effect};
use super::help::guide;
use super::{MAX_DEADLINE_DAYS, MAX_EXTEND_HOURS, MODERATOR};
use crate::envelope::{Command, GivenDie};
use crate::post::PostError;
use crate::store::games::GameStatus;
use chrono::{Duration, NaiveDateTime, TimeZone, Utc};

/// Whether a command changes how the game is played (refused once it has ended).
pub(super) fn changes_play(c: &Command) -> bool {
    matches!(
        c,
        Command::Deadline(_)
            | Command::Extend(_)
            | Command::Force
            | Command::Pause
            | Command::Resume
            | Command::EndGame
            | Command::HoldTurns(_)
            | Command::Dice { .. }
            | Command::Replace { .. }
            | Command::ReplaceGeneral { .. }
    )
}

/// The decision on one moderator command; `None` for lines answered
/// elsewhere (ORDERS FOR blocks) or not at all (RESEND, HISTORY).
pub(super) fn decide(desk: &Desk<'_>, c: &Command) -> Result<Option<Decision>, PostError> {
    if changes_play(c) && desk.game.row.status == GameStatus::Ended {
        let id = desk.game.id();
        return Ok(Some(Decision::said(format!(
            "game {id} has ended; nothing changed"
        ))));
    }
    Ok(Some(match c {
        Command::Deadline(local) => deadline(desk, local)?,
        Command::Extend(hours) => extend(desk, *hours)?,
        Command::Force => Decision::doing(
            format!("{} will be adjudicated now", desk.label()?),
            vec![Effect::Force],
        ),
        Command::HoldTurns(on) => Decision::doing(
            format!("hold for approval {}", if *on { "on" } else { "off" }),
            vec![Effect::SetHold(*on)],
        ),
        Command::Approve(round) => approve(desk, *round)?,
        Command::Reject(round) => reject(desk, *round)?,
        Command::Readjudicate(round) => Decision::worded_by(Effect::Readjudicate(*round)),
        Command::Replace { side, address } => replace(desk, side, address),
        Command::ReplaceGeneral { side, style } => to_general(desk, side, style),
        Command::ResetPassword { side } => reset_password(desk, side),
        Command::NewPassword(_) => Decision::said(
            "NEW PASSWORD is for players; the moderator's password is set in the game file",
        ),
        Command::TimeZone(_) => Decision::said(format!(
            "TIMEZONE is for players; the moderator reads the game's time ({})",
            desk.game.tz.name()
        )),
        Command::Pause => pause(desk),
        Command::Resume => resume(desk)?,
        Command::EndGame => Decision::doing(
            "game ended",
            vec![
                Effect::SetStatus(GameStatus::Ended),
                Effect::ReleaseDeferred { until: u32::MAX },
                Effect::StopCampaignBattle,
                Effect::Announce(Change::Ended),
            ],
        ),
        Command::Unlock { side } => unlock(desk, side),
        Command::Dice { turn, rolls } => dice(desk, *turn, rolls)?,
        Command::Status => Decision::said(desk.ledger.status(&desk.game)?),
        Command::Help(topic) => Decision::said(guide(Some(&desk.game), topic.as_deref())),
        Command::Resend | Command::History(_) | Command::OrdersFor { .. } => return Ok(None),
        Command::Ready | Command::Wait => Decision::said(
            "READY and WAIT are for players, about their own orders; nothing changed",
        ),
        Command::Press(p) if p.to.is_none() => Decision::worded_by(Effect::Broadcast(p.clone())),
        Command::Press(_) => Decision::said("PRESS TO is the players'; the moderator writes to every player with BROADCAST, the message, then END BROADCAST. Nothing was sent."),
        Command::PressSwitch(on) => press_switch(desk, *on),
        Command::Absent(_) => {
            Decision::said("ABSENT is for players, about their own turns; nothing changed")
        }
    }))
}

/// DEADLINE 2026-12-05 20:00, in the game's time zone.
fn deadline(desk: &Desk<'_>, local: &NaiveDateTime) -> Result<Decision, PostError> {
    let now = desk.now;
    let at = desk
        .game
        .tz
        .from_local_datetime(local)
        .earliest()
        .map(|t| t.with_timezone(&Utc));
    // As written, to the minute, like every deadline the umpire shows.
    let local = local.format("%Y-%m-%d %H:%M");
    Ok(match at {
        Some(t) if t <= now => Decision::said(format!(
            "{local} has passed; deadline unchanged (FORCE plays the turn now)"
        )),
        Some(t) if t > now + Duration::days(MAX_DEADLINE_DAYS) => Decision::said(format!(
            "{local} is more than {MAX_DEADLINE_DAYS} days away; deadline unchanged"
        )),
        Some(t) => Decision::doing(
            format!("deadline set to {}", desk.show(t)),
            vec![
                Effect::SetDeadline(t),
                Effect::Announce(Change::Deadline {
                    label: desk.label()?,
                    at: t,
                    extended: false,
                }),
            ],
        ),
        None => Decision::said(format!(
            "{local} does not exist in {} (a clock change); deadline unchanged",
            desk.game.tz
        )),
    })
}

/// EXTEND n: the deadline later by n hours.
fn extend(desk: &Desk<'_>, hours: u32) -> Result<Decision, PostError> {
    if !(1..=MAX_EXTEND_HOURS).contains(&hours) {
        return Ok(Decision::said(format!(
            "EXTEND {hours}: extend by 1 to {MAX_EXTEND_HOURS} hours; deadline unchanged"
        )));
    }
    let by = Duration::hours(i64::from(hours));
    let deadline = desk.game.row.deadline;
    if deadline.max(desk.now) + by > desk.now + Duration::days(MAX_DEADLINE_DAYS) {
        return Ok(Decision::said(format!(
            "the deadline would be more than {MAX_DEADLINE_DAYS} days away; deadline unchanged"
        )));
    }
    let at = deadline + by;
    Ok(Decision::doing(
        format!("deadline extended to {}", desk.show(at)),
        vec![
            Effect::SetDeadline(at),
            Effect::Announce(Change::Deadline {
                label: desk.label()?,
                at,
                extended: true,
            }),
        ],
    ))
}

/// APPROVE [n]: a held report goes out; the players get a whole turn's time
/// from its release.
fn approve(desk: &Desk<'_>, round: Option<u32>) -> Result<Decision, PostError> {
    let held = desk.ledger.draft()?;
    let row = &desk.game.row;
    let t = round.or(held).unwrap_or(row.round.saturating_sub(1));
    Ok(match desk.ledger.released(t)? {
        Some(false) if held != Some(t) => Decision::said(format!(
            "turn {t} cannot be released before turn {} (held too)",
            held.unwrap_or(t)
        )),
        Some(false) => {
            let fresh = desk.now + Duration::hours(i64::from(row.turn_hours));
            let mut effects = Vec::new();
            let mut deadline = row.deadline;
            if row.status == GameStatus::Active && deadline < fresh {
                deadline = fresh;
                effects.push(Effect::SetDeadline(fresh));
            }
            effects.push(Effect::Release { turn: t });
            Decision::doing(
                format!(
                    "report of turn {t} released; orders for the next turn are due by {}",
                    desk.show(deadline)
                ),
                effects,
            )
        }
        Some(true) => Decision::said(format!("report of turn {t} was already released")),
        None => Decision::said(format!("turn {t} has no report to approve")),
    })
}

/// REJECT [n]: the held turn played again from a fresh seed.
fn reject(desk: &Desk<'_>, round: Option<u32>) -> Result<Decision, PostError> {
    Ok(match desk.ledger.draft()? {
        Some(t) if round.is_none_or(|r| r == t) => Decision::worded_by(Effect::Replay { turn: t }),
        Some(t) => Decision::said(format!("only the held turn ({t}) can be rejected")),
        None => Decision::said("no turn is held for approval; nothing to reject"),
    })
}

/// REPLACE side address: the side handed to another player.
fn replace(desk: &Desk<'_>, side: &str, address: &str) -> Decision {
    if address.eq_ignore_ascii_case("general") {
        return Decision::said(format!("REPLACE: name the general's style: REPLACE {side} GENERAL aggressive (or cautious); nothing changed"));
    }
    if !crate::mail::address::is_valid(address) {
        return Decision::said(format!("REPLACE: '{address}' is not a mail address such as new.player@example.org; nothing changed"));
    }
    match desk.side(side) {
        Some(old) => {
            let address = address.to_ascii_lowercase();
            Decision::doing(
                format!("side {} is now played from {address}; the new player has a fresh password and the old one was told", old.side),
                vec![Effect::HandOver { side: old.clone(), to: address }],
            )
        }
        None => Decision::said(format!(
            "REPLACE: no side '{side}' in game {} (sides: {})",
            desk.game.id(),
            desk.side_names()
        )),
    }
}

/// REPLACE side GENERAL style: the umpire's general of that style plays
/// the side from now on, where the rule set has generals.
fn to_general(desk: &Desk<'_>, side: &str, style: &str) -> Decision {
    let style = match style.parse::<crate::sim::Style>() {
        Ok(s) => s,
        Err(e) => return Decision::said(format!("REPLACE: {e}; nothing changed")),
    };
    let plays = desk
        .game
        .options()
        .map_err(|e| e.to_string())
        .and_then(|o| desk.game.ruleset.general_plays(&o));
    if let Err(why) = plays {
        return Decision::said(format!("REPLACE: {why}; nothing changed"));
    }
    let Some(old) = desk.side(side) else {
        return Decision::said(format!(
            "REPLACE: no side '{side}' in game {} (sides: {})",
            desk.game.id(),
            desk.side_names()
        ));
    };
    if old.general.as_deref() == Some(style.code()) {
        return Decision::said(format!(
            "REPLACE: the {style} general already plays {}; nothing changed",
            old.side
        ));
    }
    if desk.sides.iter().all(|s| s.side == old.side || !s.mailed()) {
        return Decision::said(format!("REPLACE: {} is the last side a player plays, and nobody would read the reports; nothing changed (END GAME ends the game)", old.side));
    }
    Decision::doing(
        format!(
            "side {} is now played by the umpire's {style} general; its player was told",
            old.side
        ),
        vec![Effect::ToGeneral {
            side: old.clone(),
            style,
        }],
    )
}

/// RESET PASSWORD side: a fresh password mailed to the side's player.
fn reset_password(desk: &Desk<'_>, side: &str) -> Decision {
    match desk.side(side) {
        Some(s) => Decision::doing(
            format!("a new password for {} was mailed to {}", s.side, s.address),
            vec![Effect::Credentials {
                side: s.clone(),
                why:
                    "The moderator has given your side a new password; the old one no longer works."
                        .into(),
            }],
        ),
        None => Decision::said(format!(
            "RESET PASSWORD: no side '{side}' in game {}",
            desk.game.id()
        )),
    }
}

fn pause(desk: &Desk<'_>) -> Decision {
    if desk.game.row.status == GameStatus::Paused {
        return Decision::said("the game is already paused");
    }
    Decision::doing(
        "game paused",
        vec![
            Effect::SetStatus(GameStatus::Paused),
            Effect::Announce(Change::Paused),
        ],
    )
}

fn resume(desk: &Desk<'_>) -> Result<Decision, PostError> {
    if desk.game.row.status != GameStatus::Paused {
        return Ok(Decision::said("the game is not paused; nothing changed"));
    }
    Ok(Decision::doing(
        "game resumed",
        vec![
            Effect::SetStatus(GameStatus::Active),
            Effect::Announce(Change::Resumed {
                label: desk.label()?,
                at: desk.game.row.deadline,
            }),
        ],
    ))
}

/// UNLOCK side: a side's password read again from a locked-out address.
fn unlock(desk: &Desk<'_>, side: &str) -> Decision {
    if side.eq_ignore_ascii_case(MODERATOR) || desk.side(side).is_some() {
        Decision::doing(
            format!("side {side} unlocked: its password is read again"),
            vec![Effect::Unlock {
                side: side.to_string(),
            }],
        )
    } else {
        Decision::said(format!("no side '{side}' in game {}", desk.game.id()))
    }
}

/// DICE [TURN n] key=value…: the moderator's own dice, all or none.
fn dice(desk: &Desk<'_>, turn: Option<u32>, rolls: &[GivenDie]) -> Result<Decision, PostError> {
    let game = &desk.game;
    let t = turn.unwrap_or(game.row.round);
    if t < game.row.round {
        return Ok(Decision::said(format!(
            "turn {t} has been played; its dice cannot change"
        )));
    }
    let mut refused = Vec::new();
    let mut taken = Vec::new();
    for die in rolls {
        match game.ruleset.die_for(&game.state()?, &die.key) {
            Ok(kind) if u8::try_from(die.value).is_ok_and(|v| kind.can_show(v)) => {
                taken.push((die.key.clone(), die.value))
            }
            Ok(kind) => refused.push(format!("{} = {}: {}", die.key, die.value, kind.describe())),
            Err(why) => refused.push(why),
        }
    }
    if !refused.is_empty() {
        return Ok(Decision::said(format!(
            "no dice taken for turn {t}: {}",
            refused.join("; ")
        )));
    }
    let list: Vec<String> = taken.iter().map(|(k, v)| format!("{k}={v}")).collect();
    Ok(Decision::doing(
        format!(
            "your dice for turn {t}: {} (every other roll comes from the seed)",
            list.join(" ")
        ),
        vec![Effect::GiveDice {
            turn: t,
            dice: taken,
        }],
    ))
}

/// PRESS ON / PRESS OFF: press between the players allowed or stopped.
fn press_switch(desk: &Desk<'_>, on: bool) -> Decision {
    let word = if on { "on" } else { "off" };
    if desk.rules.press_on() == on {
        return Decision::said(format!(
            "press between the players is {word} already; nothing changed"
        ));
    }
    Decision::doing(
        format!("press between the players is now {word}; every player was told"),
        vec![Effect::SetPress(on), Effect::Announce(Change::Press(on))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::post::game::Game;
    use crate::post::handle::desk::Ledger;
    use crate::post::press::MailRules;
    use crate::store::games::{GameRow, SideRow};

    /// A ledger of a game with no round played.
    struct Fresh;

    impl Ledger for Fresh {
        fn draft(&self) -> Result<Option<u32>, PostError> {
            Ok(None)
        }
        fn released(&self, _: u32) -> Result<Option<bool>, PostError> {
            Ok(None)
        }
        fn status(&self, game: &Game) -> Result<String, PostError> {
            Ok(format!("status of {}", game.id()))
        }
    }

    /// The ready scenario's state at its start, as a new game stores it.
    fn ford_state() -> String {
        let new = crate::games::named("hyborian-age")
            .unwrap()
            .new_game(&crate::games::Setup {
                scenario_path: std::path::Path::new("river-crossing.toml"),
                scenario_text: include_str!("../../../campaigns/scenarios/river-crossing.toml"),
                options: &toml::Table::new(),
                max_turns: 12,
                seed: [0; 32],
                armies: &Default::default(),
                pack: None,
                companions: &Default::default(),
            })
            .unwrap();
        new.state.to_string()
    }

    fn desk(status: GameStatus) -> Desk<'static> {
        let t = |h| Utc.with_ymd_and_hms(2026, 12, 1, h, 0, 0).unwrap();
        let row = GameRow {
            id: "ford".into(),
            ruleset: "hyborian-age".into(),
            title: "The Ford".into(),
            setup: String::new(),
            options: "{}".into(),
            state: ford_state(),
            round: 1,
            status,
            hold: false,
            moderator_address: "moderator@club.example".into(),
            moderator_pw: String::new(),
            deadline: t(20),
            turn_hours: 48,
            gm_hours: None,
            timezone: "UTC".into(),
            grace_minutes: 0,
            reminder_hours: 24,
            max_turns: 12,
            failure: None,
        };
        let side = |s: &str| SideRow {
            side: s.into(),
            address: format!("{s}@example.org"),
            password: String::new(),
            timezone: None,
            general: None,
        };
        Desk {
            game: Game::new(
                row,
                crate::games::named("hyborian-age").unwrap(),
                chrono_tz::UTC,
            ),
            sides: vec![side("aquilonia"), side("nemedia")],
            rules: MailRules::default(),
            now: t(9),
            ledger: &Fresh,
        }
    }

    #[test]
    fn decisions_are_values_read_from_the_desk_alone() {
        let d = desk(GameStatus::Active);
        let extend = decide(&d, &Command::Extend(24)).unwrap().unwrap();
        assert_eq!(
            extend.answer.as_deref(),
            Some("deadline extended to 2026-12-02 20:00 UTC (Wednesday)")
        );
        assert!(
            matches!(extend.effects[0], Effect::SetDeadline(t) if t.to_rfc3339() == "2026-12-02T20:00:00+00:00")
        );
        let too_far = decide(&d, &Command::Extend(721)).unwrap().unwrap();
        assert!(too_far.effects.is_empty());
        let paused = decide(&d, &Command::Pause).unwrap().unwrap();
        assert!(matches!(
            paused.effects[..],
            [
                Effect::SetStatus(GameStatus::Paused),
                Effect::Announce(Change::Paused)
            ]
        ));
        let nobody = decide(
            &d,
            &Command::Unlock {
                side: "zingara".into(),
            },
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            nobody.answer.as_deref(),
            Some("no side 'zingara' in game ford")
        );
        assert!(nobody.effects.is_empty());
        let approve = decide(&d, &Command::Approve(None)).unwrap().unwrap();
        assert_eq!(
            approve.answer.as_deref(),
            Some("turn 0 has no report to approve")
        );
    }

    #[test]
    fn an_ended_game_changes_nothing_of_its_schedule() {
        let d = desk(GameStatus::Ended);
        for c in [
            Command::Extend(24),
            Command::Force,
            Command::Pause,
            Command::EndGame,
        ] {
            let said = decide(&d, &c).unwrap().unwrap();
            assert_eq!(
                said.answer.as_deref(),
                Some("game ford has ended; nothing changed")
            );
            assert!(said.effects.is_empty(), "{c:?}");
        }
        let status = decide(&d, &Command::Status).unwrap().unwrap();
        assert_eq!(status.answer.as_deref(), Some("status of ford"));
    }
}
