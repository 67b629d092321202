//! The secretary's letter: each command decided in turn from a [`View`]
//! of the campaign as the ones before it left it, into a [`Decision`] whose
//! effects `office::apply` carries out; one answer of a line a command.
//! The office's commands (extend, replace, cancel, status, resolve, rerun,
//! digest, help) are the same for every campaign; the rules' own pass
//! through [`crate::games::campaign::CampaignRules::secretary`] and come
//! back as a [`Ruling`], whose parts become effects here. What the powers
//! are told goes as mail of its own, never as a reply to the secretary's
//! letter (whose subject is his).

use super::desk::Desk;
use super::office::{self, Effect, Words};
use super::view::View;
use super::week::due_text;
use super::{corrupt, load, rules, Row, MAX_EXTEND_HOURS};
use crate::config::Config;
use crate::games::campaign::{Command, Letter, Line, Ruling};
use crate::post::outbox::Kind;
use crate::post::{Disposition, PostError};
use crate::sim::Style;

/// A secretary's command decided: its answer and [`Effect`]s.
type Decision = crate::post::decision::Decision<Effect>;

/// Carry out a secretary's letter and answer it.
pub(super) fn commands(
    desk: &Desk<'_, '_>,
    stored: Row,
    letter: &Letter,
) -> Result<Disposition, PostError> {
    let id = stored.facts.id.clone();
    let mut lines = Vec::new();
    let mut resolve_after = false;
    for Line { item, text, .. } in &letter.commands {
        // Each command reads the campaign as the ones before it left it (a
        // re-run, then a correction of its outcome).
        let fresh = load(desk.tx, &id)?.unwrap_or_else(|| stored.clone());
        if *item == Command::Resolve {
            resolve_after = true;
            lines.push(format!("{} will be resolved now", fresh.facts.date));
            continue;
        }
        let view = View::read(desk, fresh)?;
        let decision = decide(desk.config, &view, item, text)?;
        lines.push(carry_out(desk, &view, decision)?);
    }
    for l in &letter.orders {
        lines.push(format!(
            "{}: NOT CARRIED OUT: army orders come from the powers' own mail; the secretary's letter takes commands (HELP lists them)",
            l.text
        ));
    }
    for e in &letter.errors {
        lines.push(format!("Not understood, line {}:\n{}", e.number, e.item));
    }
    if resolve_after {
        super::resolve_now(desk.tx, desk.config, &id, desk.now)?;
    }
    crate::post::audit(
        desk.tx,
        desk.now,
        Some(&id),
        &format!("secretary: {} commands", letter.commands.len()),
    )?;
    let text = if lines.is_empty() {
        "No command found.".to_string()
    } else {
        lines.join("\n")
    };
    desk.reply(Some(&id), Kind::Reply, &[desk.from.to_string()], text)?;
    Ok(Disposition::Done(format!(
        "secretary: {}",
        letter.commands.len()
    )))
}

/// The decision's effects applied in order; the line of the answer.
fn carry_out(desk: &Desk<'_, '_>, view: &View, decision: Decision) -> Result<String, PostError> {
    let mut said = decision.answer;
    for effect in decision.effects {
        match office::apply(desk, view, effect)? {
            Some(Words::Whole(w)) => said = Some(w),
            Some(Words::More(more)) => {
                if let Some(s) = &mut said {
                    s.push_str(&more);
                }
            }
            None => {}
        }
    }
    Ok(said.unwrap_or_default())
}

/// One command decided from what it reads, without writing anything.
fn decide(config: &Config, view: &View, item: &Command, text: &str) -> Result<Decision, PostError> {
    let c = &view.row;
    Ok(match item {
        Command::Rules(own) => ruled(rules().secretary(&c.state, own, text).map_err(corrupt)?),
        Command::Rerun { turn, without } => Decision::worded_by(Effect::Rerun {
            text: text.to_string(),
            turn: *turn,
            without: without.clone(),
        }),
        Command::Extend { hours } => extend(config, view, text, *hours),
        Command::Replace { power, address } => replace(view, text, power, address),
        Command::ReplaceGeneral { power, style } => to_general(view, text, power, style),
        Command::Status => Decision::said(status(view)?),
        Command::Digest => {
            Decision::said(rules().digest(&c.state, &view.on_file).map_err(corrupt)?)
        }
        Command::Cancel { power, line } => cancel(view, power, *line),
        Command::Help => Decision::said(rules().secretary_guide()),
        Command::Resolve => Decision::said(format!("{} will be resolved now", c.facts.date)),
    })
}

/// A command of the rules' own, as they decided it: the state stored, a
/// result recorded, the log written, the powers concerned told, a battle
/// sent to mail (whose start words the answer).
fn ruled(ruling: Ruling) -> Decision {
    let Ruling {
        answer,
        state,
        result,
        tell,
        audit,
        by_mail,
    } = ruling;
    let mut effects: Vec<Effect> = state.map(Effect::SetState).into_iter().collect();
    effects.extend(result.map(|(battle, entered)| Effect::RecordResult { battle, entered }));
    effects.extend(audit.map(Effect::Audit));
    effects.extend(
        tell.into_iter()
            .map(|(power, notice)| Effect::Tell { power, notice }),
    );
    effects.extend(by_mail.map(Effect::ToMail));
    Decision {
        answer: by_mail.is_none().then_some(answer),
        effects,
    }
}

/// The secretary's `extend HOURS`: the open week's deadline later, every
/// power told (ruling CA-32).
fn extend(config: &Config, view: &View, text: &str, hours: u32) -> Decision {
    let c = &view.row.facts;
    if !(1..=MAX_EXTEND_HOURS).contains(&hours) {
        return Decision::said(format!(
            "{text}: NOT DONE: extend by 1 to {MAX_EXTEND_HOURS} hours (a fortnight), e.g. extend 48; the deadline is unchanged"
        ));
    }
    let Some(deadline) = view.deadline else {
        return Decision::said(format!(
            "{text}: NOT DONE: {} has no deadline (the campaign's week_hours is 0, or it is not active); it waits for every power's orders or your resolve",
            c.date
        ));
    };
    // From now if the deadline has passed unresolved (the tick not yet run).
    let later = deadline.max(view.now) + chrono::Duration::hours(i64::from(hours));
    let furthest = crate::post::handle::MAX_DEADLINE_DAYS;
    if later > view.now + chrono::Duration::days(furthest) {
        return Decision::said(format!(
            "{text}: NOT DONE: the deadline would be more than {furthest} days away; the deadline is unchanged"
        ));
    }
    Decision::doing(
        format!(
            "{text}: done: orders for {} are now due by {}; every power is told",
            c.date,
            due_text(config, later)
        ),
        vec![Effect::SetDeadline { at: later, hours }],
    )
}

/// The secretary's `replace POWER ADDRESS` (ruling CA-32), as a battle
/// game's moderator's REPLACE: the power is played from the new address
/// with a fresh password mailed there; the old password stops working and
/// the old address is told. Orders on file for the week stand until the new
/// player sends theirs.
fn replace(view: &View, text: &str, power: &str, address: &str) -> Decision {
    if address.eq_ignore_ascii_case("general") {
        return Decision::said(format!(
            "{text}: NOT DONE: name the general's style: replace {power} general aggressive (or cautious); nothing changed"
        ));
    }
    if !crate::mail::address::is_valid(address) {
        return Decision::said(format!(
            "{text}: NOT DONE: '{address}' is not a mail address such as new.player@club.example; nothing changed"
        ));
    }
    let Some((power, old)) = view.power(power) else {
        return Decision::said(format!(
            "{text}: NOT DONE: there is no power '{power}'; the powers are {}",
            view.powers()
        ));
    };
    let address = address.to_ascii_lowercase();
    if address == *old {
        return Decision::said(format!(
            "{text}: NOT DONE: {power} is played from {address} already; nothing changed"
        ));
    }
    Decision::doing(
        format!(
            "{text}: done: {power} is now played from {address}; the new player has a fresh password and the old one was told"
        ),
        vec![Effect::HandOver {
            power: power.clone(),
            old: old.clone(),
            to: address,
        }],
    )
}

/// The secretary's `replace POWER general STYLE` (issue 42): the umpire's
/// general of that style plays the power from now on, as one the set-up
/// file gave it; it writes the open week's orders at once (they replace
/// any the player sent) and the player is told his password no longer
/// works. The last power a player plays stays his: nobody else would read
/// the powers' reports.
fn to_general(view: &View, text: &str, power: &str, style: &str) -> Decision {
    let style = match style.parse::<Style>() {
        Ok(s) => s,
        Err(e) => return Decision::said(format!("{text}: NOT DONE: {e}; nothing changed")),
    };
    let Some((power, old)) = view.power(power) else {
        return Decision::said(format!(
            "{text}: NOT DONE: there is no power '{power}'; the powers are {}",
            view.powers()
        ));
    };
    if view.generals.get(power).map(String::as_str) == Some(style.code()) {
        return Decision::said(format!(
            "{text}: NOT DONE: the {style} general already plays {power}; nothing changed"
        ));
    }
    let players = view
        .addresses
        .keys()
        .filter(|p| !view.generals.contains_key(*p));
    if players.filter(|p| *p != power).count() == 0 {
        return Decision::said(format!(
            "{text}: NOT DONE: {power} is the last power a player plays, and nobody would read the powers' reports; nothing changed"
        ));
    }
    let told = if old.is_empty() {
        ""
    } else {
        "; its player was told"
    };
    let writes = match view.row.status.as_str() {
        "active" => format!(
            ", whose orders for {} replace any on file",
            view.row.facts.date
        ),
        _ => String::new(),
    };
    Decision::doing(
        format!(
            "{text}: done: {power} is now played by the umpire's {style} general{writes}{told}"
        ),
        vec![Effect::ToGeneral {
            power: power.clone(),
            old: old.clone(),
            style,
        }],
    )
}

/// The secretary's `cancel POWER N`: the power's orders on file again
/// without its N-th line (as the digest numbers them), kept as the power's
/// latest orders; the power is told. A later message of the power's
/// replaces them as always.
fn cancel(view: &View, power: &str, n: u32) -> Decision {
    let c = &view.row.facts;
    let written = format!("cancel {power} {n}");
    let Some((power, address)) = view.power(power) else {
        return Decision::said(format!(
            "{written}: NOT DONE: there is no power '{power}'; the powers are {}",
            view.powers()
        ));
    };
    let Some(Some(lines)) = view.on_file.get(power) else {
        return Decision::said(format!(
            "{written}: NOT DONE: {power} has sent no orders for {}",
            c.date
        ));
    };
    let Some(i) = (n as usize).checked_sub(1).filter(|i| *i < lines.len()) else {
        return Decision::said(format!(
            "{written}: NOT DONE: {power} has {} on file; write a number the digest shows",
            crate::report::plural(lines.len() as u32, "order", "orders")
        ));
    };
    let mut kept = lines.clone();
    let gone = kept.remove(i).text;
    Decision::doing(
        format!("{written}: done: {power}'s order \"{gone}\" is cancelled, and {power} is told"),
        vec![Effect::CancelOrder {
            power: power.clone(),
            address: address.clone(),
            kept,
            gone,
        }],
    )
}

/// The secretary's `status`: who has sent orders, the orders on file, and
/// the rules' part (battles awaiting results, treasuries).
fn status(view: &View) -> Result<String, PostError> {
    let c = &view.row.facts;
    let mut out = format!(
        "{}: {}; battles awaiting results: {}\n",
        c.title,
        c.date,
        c.pending.len()
    );
    for (p, orders) in &view.on_file {
        let general = view.generals.get(p).map_or(String::new(), |style| {
            format!(" (played by the umpire's {style} general)")
        });
        out.push_str(&format!(
            "  {p}: {}{general}\n",
            if orders.is_some() {
                "orders in"
            } else {
                "no orders yet"
            }
        ));
    }
    out.push_str("Orders on file this week:\n");
    for (p, lines) in view
        .on_file
        .iter()
        .filter_map(|(p, l)| Some((p, l.as_ref()?)))
    {
        if lines.is_empty() {
            out.push_str(&format!("  {p}: (stands)\n"));
        }
        for l in lines {
            out.push_str(&format!("  {p}: {}\n", l.text));
        }
    }
    out.push_str(&rules().status(&view.row.state).map_err(corrupt)?);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::campaign::Facts;
    use crate::games::Json;
    use chrono::{DateTime, TimeZone, Utc};
    use std::collections::BTreeMap;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 6, 12, 0, 0).unwrap()
    }

    /// The border campaign's week 3, ophir with two orders on file and
    /// nemedia with none; its deadline in a day.
    fn view() -> View {
        let line = |text: &str| Line {
            number: 1,
            text: text.to_string(),
            item: Json::Null,
        };
        View {
            row: Row {
                state: String::new(),
                facts: Facts {
                    id: "border".into(),
                    title: "The Border".into(),
                    date: "week 3 of 1288".into(),
                    turn: 2,
                    week_hours: 168,
                    reminder_hours: 0,
                    pending: Vec::new(),
                },
                seed: String::new(),
                secretary_address: "sec@club.example".into(),
                secretary_pw: String::new(),
                status: "active".into(),
            },
            deadline: Some(now() + chrono::Duration::hours(24)),
            addresses: BTreeMap::from([
                ("nemedia".into(), "tarascus@nemedia.example".into()),
                ("ophir".into(), "amalrus@ophir.example".into()),
            ]),
            generals: BTreeMap::new(),
            on_file: BTreeMap::from([
                ("nemedia".into(), None),
                (
                    "ophir".into(),
                    Some(vec![
                        line("army ophir-1 garrison"),
                        line("army ophir-9 halt"),
                    ]),
                ),
            ]),
            now: now(),
        }
    }

    /// `extend` is decided without the store: a deadline a day later and
    /// nothing else, or a refusal that changes nothing.
    #[test]
    fn an_extension_is_a_new_deadline_or_nothing() {
        let config = Config::default();
        let d = extend(&config, &view(), "extend 24", 24);
        assert_eq!(
            d.effects,
            [Effect::SetDeadline {
                at: now() + chrono::Duration::hours(48),
                hours: 24
            }]
        );
        assert!(d
            .answer
            .unwrap()
            .starts_with("extend 24: done: orders for week 3 of 1288"));
        for hours in [0, MAX_EXTEND_HOURS + 1] {
            let d = extend(&config, &view(), "extend", hours);
            assert!(d.effects.is_empty() && d.answer.unwrap().contains("NOT DONE"));
        }
        let mut none = view();
        none.deadline = None;
        let d = extend(&config, &none, "extend 24", 24);
        assert!(d.effects.is_empty() && d.answer.unwrap().contains("has no deadline"));
    }

    /// `replace` hands the power, named in any case, to the new address
    /// written in any case; a bad address, an unknown power or the same
    /// player again change nothing.
    #[test]
    fn a_power_is_handed_over_only_to_a_new_address() {
        let d = replace(&view(), "replace", "Ophir", "Tzota@Ophir.example");
        assert_eq!(
            d.effects,
            [Effect::HandOver {
                power: "ophir".into(),
                old: "amalrus@ophir.example".into(),
                to: "tzota@ophir.example".into(),
            }]
        );
        for (power, address, why) in [
            ("ophir", "not-an-address", "is not a mail address"),
            (
                "koth",
                "a@b.example",
                "there is no power 'koth'; the powers are nemedia, ophir",
            ),
            (
                "ophir",
                "AMALRUS@ophir.example",
                "is played from amalrus@ophir.example already",
            ),
        ] {
            let d = replace(&view(), "replace", power, address);
            let answer = d.answer.unwrap();
            assert!(d.effects.is_empty() && answer.contains(why), "{answer}");
        }
    }

    /// `replace POWER general STYLE` gives the power to the general of that
    /// style; a style the umpire has not, an unknown power, the general who
    /// plays it already, or the last power a player plays change nothing.
    #[test]
    fn a_power_is_handed_to_a_general_unless_nobody_would_be_left_to_read() {
        let d = to_general(
            &view(),
            "replace Ophir general Cautious",
            "Ophir",
            "Cautious",
        );
        assert_eq!(
            d.effects,
            [Effect::ToGeneral {
                power: "ophir".into(),
                old: "amalrus@ophir.example".into(),
                style: Style::Cautious,
            }]
        );
        assert_eq!(
            d.answer.unwrap(),
            "replace Ophir general Cautious: done: ophir is now played by the umpire's cautious general, whose orders for week 3 of 1288 replace any on file; its player was told"
        );
        let ophir_general = || {
            let mut v = view();
            v.generals.insert("ophir".into(), "cautious".into());
            v.addresses.insert("ophir".into(), String::new());
            v
        };
        for (v, power, style, why) in [
            (view(), "ophir", "sleepy", "NOT DONE: "),
            (view(), "koth", "aggressive", "there is no power 'koth'"),
            (
                ophir_general(),
                "ophir",
                "cautious",
                "the cautious general already plays ophir",
            ),
            (
                ophir_general(),
                "nemedia",
                "aggressive",
                "nemedia is the last power a player plays",
            ),
        ] {
            let d = to_general(&v, "replace", power, style);
            let answer = d.answer.unwrap();
            assert!(d.effects.is_empty() && answer.contains(why), "{answer}");
        }
        // Another style for a general's power: nobody to tell.
        let d = to_general(&ophir_general(), "replace", "ophir", "aggressive");
        assert!(d.answer.unwrap().ends_with("replace any on file"));
        // `replace ophir general` without a style says how to write it.
        let d = replace(&view(), "replace ophir general", "ophir", "General");
        assert!(d.effects.is_empty());
        assert!(d
            .answer
            .unwrap()
            .contains("replace ophir general aggressive (or cautious)"));
    }

    /// `cancel` keeps the power's other orders, numbered as the digest
    /// numbers them; a number past them, a power without orders or no
    /// power at all change nothing.
    #[test]
    fn an_order_is_cancelled_by_its_number() {
        let d = cancel(&view(), "ophir", 2);
        let [Effect::CancelOrder {
            power, kept, gone, ..
        }] = &d.effects[..]
        else {
            panic!("{:?}", d.effects);
        };
        assert_eq!(
            (power.as_str(), gone.as_str()),
            ("ophir", "army ophir-9 halt")
        );
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].text, "army ophir-1 garrison");
        for (power, n, why) in [
            ("ophir", 3, "ophir has 2 orders on file"),
            ("ophir", 0, "ophir has 2 orders on file"),
            (
                "nemedia",
                1,
                "nemedia has sent no orders for week 3 of 1288",
            ),
            ("khitai", 1, "there is no power 'khitai'"),
        ] {
            let d = cancel(&view(), power, n);
            let answer = d.answer.unwrap();
            assert!(d.effects.is_empty() && answer.contains(why), "{answer}");
        }
    }

    /// The rules' own command: its parts become effects in the order the
    /// office carries them out; a battle sent to mail words the answer.
    #[test]
    fn a_rules_ruling_becomes_effects_in_order() {
        let d = ruled(Ruling {
            answer: "edit ophir-9 losses 10: done".into(),
            state: Some("{}".into()),
            result: Some((1, "\"drawn\"".into())),
            tell: vec![("ophir".into(), "ophir-9 lost 10".into())],
            audit: Some("secretary edited ophir-9".into()),
            by_mail: None,
        });
        assert_eq!(d.answer.as_deref(), Some("edit ophir-9 losses 10: done"));
        assert_eq!(
            d.effects,
            [
                Effect::SetState("{}".into()),
                Effect::RecordResult {
                    battle: 1,
                    entered: "\"drawn\"".into()
                },
                Effect::Audit("secretary edited ophir-9".into()),
                Effect::Tell {
                    power: "ophir".into(),
                    notice: "ophir-9 lost 10".into()
                },
            ]
        );
        let mailed = ruled(Ruling {
            answer: "unused".into(),
            by_mail: Some(2),
            ..Ruling::default()
        });
        assert_eq!(
            (mailed.answer, mailed.effects),
            (None, vec![Effect::ToMail(2)])
        );
    }
}
