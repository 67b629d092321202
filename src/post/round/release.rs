//! A played round's report going out: drawn (the picture worked out ahead
//! when it was drawn from the same things), mailed to every player and the
//! moderator, or held for his approval and released later.

use super::*;

/// A stored round's report with the states before and after it.
pub fn stored_report(
    tx: &Transaction<'_>,
    game: &str,
    round: u32,
) -> Result<Option<(RoundReport, Json, Json)>, PostError> {
    let Some(stored) = rounds::played(tx, game, round)? else {
        return Ok(None);
    };
    let what = format!("round {round} of {game}");
    Ok(Some((
        from_json(&what, &stored.played.report)?,
        from_json(&what, &stored.played.state_before)?,
        from_json(&what, &stored.played.state_after)?,
    )))
}

/// The extras [`play`] adds to a round's report after the rule set's own
/// (which alone its picture is drawn from).
const OFFICE_EXTRAS: [&str; 5] = [
    GameResult::REPORT_KEY,
    "orders_given",
    "to_game_master",
    "earlier_seeds",
    "readjudicated",
];

/// A round's picture, drawn and rasterised once for every mail of the
/// round (rasterising and compressing were most of a report's cost).
#[derive(Clone)]
pub struct Picture {
    svg: String,
    png: Vec<u8>,
    drawn_from: DrawnFrom,
}

/// What a rule set draws a round's picture from (`Ruleset::picture`):
/// the table before and after, and the report's title, number, label and
/// the rule set's own extras. A picture worked out ahead is used when
/// these are the same, without drawing it again to compare.
#[derive(Clone)]
struct DrawnFrom {
    title: String,
    turn: u32,
    label: String,
    extra: serde_json::Map<String, Json>,
    before: Json,
    after: Json,
}

impl Picture {
    /// The rule set's picture of the round; drawn and rasterised only if
    /// `hint` (a picture rasterised ahead, `post::ahead`) is not drawn
    /// from the same.
    ///
    /// # Errors
    /// When the states cannot be read or the picture cannot be rasterised.
    pub fn of(
        game: &Game,
        rep: &RoundReport,
        before: &Json,
        after: &Json,
        hint: Option<Picture>,
    ) -> Result<Self, PostError> {
        if let Some(hint) = hint.filter(|h| h.drawn_from.is(rep, before, after)) {
            return Ok(hint);
        }
        let svg = game.ruleset.picture(before, after, rep)?;
        let png = picture::png(&svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
        Ok(Picture {
            svg,
            png,
            drawn_from: DrawnFrom {
                title: rep.title.clone(),
                turn: rep.turn,
                label: rep.label.clone(),
                extra: ruleset_extras(rep)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                before: before.clone(),
                after: after.clone(),
            },
        })
    }
}

impl DrawnFrom {
    /// Is this what a picture of `rep`, `before` and `after` is drawn from?
    fn is(&self, rep: &RoundReport, before: &Json, after: &Json) -> bool {
        self.title == rep.title
            && self.turn == rep.turn
            && self.label == rep.label
            && ruleset_extras(rep).count() == self.extra.len()
            && ruleset_extras(rep).all(|(k, v)| self.extra.get(k) == Some(v))
            && self.before == *before
            && self.after == *after
    }
}

/// The report's extras that are the rule set's own.
fn ruleset_extras(rep: &RoundReport) -> impl Iterator<Item = (&String, &Json)> {
    rep.extra
        .iter()
        .filter(|(k, _)| !OFFICE_EXTRAS.contains(&k.as_str()))
}

/// The report as a mail: text and HTML alternatives, the picture inline
/// in the HTML and attached as a PNG, and the SVG attached for printing.
pub fn report_mail(
    config: &Config,
    to: Vec<String>,
    rep: &RoundReport,
    pic: &Picture,
) -> Result<Outgoing, PostError> {
    let cid = format!("table-{}-{}@{}", rep.game, rep.turn, config.domain());
    let label = if rep.label.is_empty() {
        format!("turn {}", rep.turn)
    } else {
        rep.label.clone()
    };
    let corrected = if rep.extra.contains_key("readjudicated") {
        "corrected report"
    } else {
        "report"
    };
    let subject = if rep.draft {
        format!("[{}] DRAFT {corrected} of {label}", rep.game)
    } else {
        format!("[{}] {} of {label}", rep.game, capitalize_first(corrected))
    };
    let file = format!(
        "{}-{}",
        rep.game,
        label.replace([' ', ','], "-").replace("--", "-")
    );
    let mut mail = plain(config, to, subject, rep.text(), None);
    mail.html = Some(rep.html(Some(&format!("cid:{cid}"))));
    mail.show_picture(cid, &file, pic.png.clone(), pic.svg.clone());
    Ok(mail)
}

/// Mail a round's report to every player and the moderator (its picture
/// perhaps rasterised ahead: `hint`).
pub fn release_report(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    round: u32,
    now: DateTime<Utc>,
    hint: Option<Picture>,
) -> Result<(), PostError> {
    let Some((rep, before, after)) = stored_report(tx, game.id(), round)? else {
        return Err(PostError::Corrupt(format!(
            "round {round} of {} has no report",
            game.id()
        )));
    };
    mail_report(tx, config, game, round, rep, &before, &after, now, hint)
}

/// Mail a round's report, `rep` of the tables `before` and `after`: the
/// round just played hands over what it has in hand (not read back and
/// parsed again); [`release_report`] what it reads from the store.
#[allow(clippy::too_many_arguments)]
pub(super) fn mail_report(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    round: u32,
    mut rep: RoundReport,
    before: &Json,
    after: &Json,
    now: DateTime<Utc>,
    hint: Option<Picture>,
) -> Result<(), PostError> {
    rep.draft = false;
    // The next round's deadline as it stands now (a hold may have moved it).
    let current = rep.turn + 1 == game.row.round || rep.next_turn == game.row.round;
    let standbys = crate::post::absence::standing_in(tx, game, now)?;
    let mut to: Vec<(String, String)> = Vec::new();
    for s in game.sides(tx)? {
        // A side away: its standby reads the report too.
        if let Some(standby) = standbys.get(&s.side) {
            to.push((standby.clone(), game.deadline_text()));
        }
        to.push((s.address.clone(), game.deadline_for(&s)));
    }
    to.push((game.row.moderator_address.clone(), game.deadline_text()));
    let pic = Picture::of(game, &rep, before, after, hint)?;
    // Every player may replay the round without the server (ruling P21).
    let bundle = crate::post::bundle::Bundle::of_report(tx, game, round)?.to_bytes()?;
    for (addr, due) in to {
        if current {
            // Each player reads the next deadline in their own time zone.
            rep.deadline = due;
        }
        let mut mail = report_mail(config, vec![addr.clone()], &rep, &pic)?;
        mail.attachments.push(Attachment {
            name: crate::post::bundle::Bundle::file_name(game.id(), round),
            mime: "application/json".into(),
            bytes: bundle.clone(),
        });
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Report,
            &mail,
            &format!("{round}:{addr}{}", correction_tag(&rep)),
            now,
        )?;
    }
    rounds::release(tx, game.id(), round)?;
    // The last report is out: a league game's result goes to its league,
    // a campaign battle's to its campaign.
    if rep.ended {
        crate::post::league::game_ended(tx, config, game, &rep, now)?;
        crate::post::campaign::battles::game_ended(tx, config, game, &rep, after, now)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A picture worked out ahead serves a report that has gained the post
    /// office's extras, and no report drawn from anything else.
    #[test]
    fn a_picture_is_drawn_from_the_states_and_the_rule_sets_own_report() {
        let mut rep = RoundReport {
            title: "Ford".into(),
            turn: 2,
            label: "turn 2".into(),
            ..RoundReport::default()
        };
        rep.extra.insert("charged".into(), json!(["dragons"]));
        let (before, after) = (json!({"turn": 2}), json!({"turn": 3}));
        let from = DrawnFrom {
            title: rep.title.clone(),
            turn: rep.turn,
            label: rep.label.clone(),
            extra: rep.extra.clone(),
            before: before.clone(),
            after: after.clone(),
        };
        assert!(from.is(&rep, &before, &after));
        let mut told = rep.clone();
        for key in OFFICE_EXTRAS {
            told.extra.insert(key.into(), json!(["anything"]));
        }
        assert!(from.is(&told, &before, &after), "the office's extras");
        let mut charged = rep.clone();
        charged.extra.insert("charged".into(), json!([]));
        assert!(!from.is(&charged, &before, &after), "another charge");
        let mut more = rep.clone();
        more.extra.insert("routed".into(), json!(["knights"]));
        assert!(!from.is(&more, &before, &after), "an extra more");
        let mut titled = rep.clone();
        titled.title = "Ford II".into();
        assert!(!from.is(&titled, &before, &after), "another title");
        assert!(!from.is(&rep, &after, &after), "another table before");
        assert!(!from.is(&rep, &before, &before), "another table after");
    }
}
