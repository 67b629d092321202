//! A round the game master answers (ruling P19): the game waits for him,
//! never played at its deadline without him.

use super::*;

/// A round the game master answers: played once his answer is in without a
/// refused line (or on the moderator's FORCE, on what he has sent). It is
/// never played at its deadline without him (ruling P19): the game waits;
/// at the reminder time he gets the situation again, and at each missed
/// deadline he is told it is overdue, the players are told the game waits
/// for him, and the deadline moves on by his `gm_hours` (the game's
/// `turn_hours` when the game file gives none).
#[allow(clippy::too_many_arguments)]
pub(super) fn game_master_round(
    tx: &Transaction<'_>,
    config: &Config,
    mut game: Game,
    label: &str,
    situation: &str,
    now: DateTime<Utc>,
    force: bool,
    due: bool,
) -> Result<usize, PostError> {
    let number = game.row.round;
    let ready = submissions::ready_of(tx, game.id(), number, GAME_MASTER)?;
    if force || ready == Some(true) {
        play(tx, config, game, now, None, None)?;
        return Ok(1);
    }
    let gm = game.row.moderator_address.clone();
    if due {
        let missed = game.deadline_text();
        game.row.deadline += Duration::hours(i64::from(game.hours_of(&game.round()?)));
        game.save(tx)?;
        let key = format!("overdue:{number}:{}", game.row.deadline.timestamp());
        let text = format!(
            "Your answer for {label} of {} ({}) was due by {missed}. The game waits for it: \
             the round is never played without the game master. The new deadline is {}.\n\n{}",
            game.row.title,
            game.id(),
            game.deadline_text(),
            game_master_text(&game, label, situation)
        );
        let mail = plain(
            config,
            vec![gm],
            format!(
                "[{}] {}: your answer is overdue",
                game.id(),
                capitalize_first(label)
            ),
            text,
            None,
        );
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Reminder,
            &mail,
            &key,
            now,
        )?;
        for s in game.sides(tx)? {
            let text = format!(
                "{} ({}): {label} waits for the game master's answer, which was due by \
                 {missed}. Nothing is played without it; the report comes when the phase is \
                 complete.\n",
                game.row.title,
                game.id()
            );
            let mail = plain(
                config,
                vec![s.address.clone()],
                format!("[{}] The game waits for the game master", game.id()),
                text,
                None,
            );
            outbox::queue(
                tx,
                config,
                Some(game.id()),
                Kind::Notice,
                &mail,
                &format!("{key}:{}", s.side),
                now,
            )?;
        }
        audit(
            tx,
            now,
            Some(game.id()),
            &format!("{label}: the game master's answer is overdue; the deadline moves on"),
        )?;
        return Ok(0);
    }
    if game.row.reminder_hours > 0
        && now >= game.deadline() - Duration::hours(i64::from(game.row.reminder_hours))
        && rounds::remind_once(tx, game.id(), number, GAME_MASTER)?
    {
        let text = format!(
            "Your answer for {label} of {} ({}) is due by {}.

{}",
            game.row.title,
            game.id(),
            game.deadline_text(),
            game_master_text(&game, label, situation)
        );
        let mail = plain(
            config,
            vec![gm],
            format!(
                "[{}] {}: your answer is due",
                game.id(),
                capitalize_first(label)
            ),
            text,
            None,
        );
        outbox::queue(
            tx,
            config,
            Some(game.id()),
            Kind::Reminder,
            &mail,
            &format!("{number}:{GAME_MASTER}"),
            now,
        )?;
    }
    Ok(0)
}

/// The situation as the game master reads it, with how to answer.
pub(super) fn game_master_text(game: &Game, label: &str, situation: &str) -> String {
    templates::render(
        "game_master.txt",
        minijinja::context! {
            title => &game.row.title, game => game.id(), round => game.row.round,
            label => label, deadline => game.deadline_text(), situation => situation,
        },
    )
}
