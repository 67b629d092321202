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

/// The rounds before `round` that were reported to the game master alone,
/// back to the last one the players got, latest first, with their
/// reports: their seeds and dice go out with the next report the players
/// get. Reads the reports only, not the rounds' states.
pub fn to_game_master_before(
    tx: &Transaction<'_>,
    game: &str,
    round: u32,
) -> Result<Vec<(u32, RoundReport)>, PostError> {
    let mut out = Vec::new();
    for r in (1..round).rev() {
        let Some(report) = rounds::report(tx, game, r)? else {
            break;
        };
        let rep: RoundReport = from_json(&format!("round {r} of {game}"), &report)?;
        if !rep.office.to_game_master {
            break;
        }
        out.push((r, rep));
    }
    Ok(out)
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
    let corrected = if rep.office.readjudicated.is_some() {
        "corrected report"
    } else {
        "report"
    };
    // The round first, so a mail client's list sorts and reads by it:
    // "[trebia] Turn 3, Rome's phase: report".
    let draft = if rep.draft { "DRAFT " } else { "" };
    let subject = format!(
        "[{}] {}: {draft}{corrected}",
        rep.game,
        capitalize_first(&label)
    );
    // Letters and digits, words joined by one '-': "turn-1-Rome-s-phase".
    let words: Vec<&str> = label
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let file = format!("{}-{}", rep.game, words.join("-"));
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
    for s in game.sides(tx)?.into_iter().filter(SideRow::mailed) {
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
