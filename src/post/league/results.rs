//! A league game's result: read from the rule set's report when the game
//! ends (or a forfeit for rounds without orders), or entered by the
//! moderator; recorded, and the standings mailed when they are due.

use crate::config::Config;
use crate::games::GameResult;
use crate::league::{MailStandings, Score};
use crate::post::game::Game;
use crate::post::letter::{plain, queue_notice};
use crate::post::outbox::{self, Kind};
use crate::post::{audit, PostError, PostOffice};
use crate::report::RoundReport;
use crate::store::games::GameStatus;
use crate::store::leagues::{self as rows, BoardRow};
use crate::store::{rounds, Transaction};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::League;

/// Where the result of an ended league game comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    Board,
    Nmr,
    Moderator,
}

impl How {
    fn code(self) -> &'static str {
        match self {
            How::Board => "board",
            How::Nmr => "nmr",
            How::Moderator => "moderator",
        }
    }
}

/// The longest run of a side's own rounds without orders, side by side.
fn nmr_runs(tx: &Transaction<'_>, game: &str) -> Result<BTreeMap<String, u32>, PostError> {
    let mut run: BTreeMap<String, u32> = BTreeMap::new();
    let mut longest: BTreeMap<String, u32> = BTreeMap::new();
    for (number, writers, report) in rounds::played_writers(tx, game)? {
        let rep: RoundReport = serde_json::from_str(&report)
            .map_err(|e| PostError::Corrupt(format!("round {number} of {game}: {e}")))?;
        let writers: Vec<String> = match writers {
            Some(w) => serde_json::from_str(&w)
                .map_err(|e| PostError::Corrupt(format!("round {number} of {game}: {e}")))?,
            None => rep.nmr.clone(),
        };
        for w in writers {
            let r = run.entry(w.clone()).or_default();
            if rep.nmr.contains(&w) {
                *r += 1;
            } else {
                *r = 0;
            }
            let l = longest.entry(w).or_default();
            *l = (*l).max(*r);
        }
    }
    Ok(longest)
}

/// A league game's last report was released: record its result (a forfeit
/// when a side went too long without orders, LG-3; otherwise the rule set's
/// result, LG-6), or, when the rule set names none, ask the moderator for
/// it. Games outside leagues, and results already recorded, are left alone.
///
/// # Errors
/// On database errors.
pub(crate) fn game_ended(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    rep: &RoundReport,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let Some((lid, board)) = rows::of_game(tx, game.id())? else {
        return Ok(());
    };
    // The league's standings are not the game's: kept as if alone only in
    // a serializable transaction.
    tx.needs_serializable()?;
    // A result stands, unless this report corrects the one it came from
    // (the moderator's READJUDICATE, ruling P20).
    if board.score.is_some() && rep.office.readjudicated.is_none() {
        return Ok(());
    }
    let league = League::load(tx, &lid)?;
    let (Some(first_side), Some(second_side)) = (&board.first_side, &board.second_side) else {
        return Ok(());
    };
    let limit = league.settings.forfeit.nmr_rounds;
    if limit > 0 {
        let runs = nmr_runs(tx, game.id())?;
        let out = |s: &str| runs.get(s).is_some_and(|&r| r >= limit);
        let forfeit = match (out(first_side), out(second_side)) {
            (true, true) => Some(Score::BothForfeited),
            (true, false) => Some(Score::FirstForfeited),
            (false, true) => Some(Score::SecondForfeited),
            (false, false) => None,
        };
        if let Some(score) = forfeit {
            return record(tx, config, &league, &board, score, How::Nmr, now);
        }
    }
    let score = match &rep.office.result {
        Some(GameResult::Drawn) => Some(Score::Drawn),
        Some(GameResult::Won { side }) if side.eq_ignore_ascii_case(first_side) => {
            Some(Score::FirstWon)
        }
        Some(GameResult::Won { side }) if side.eq_ignore_ascii_case(second_side) => {
            Some(Score::SecondWon)
        }
        _ => None,
    };
    match score {
        Some(score) => record(tx, config, &league, &board, score, How::Board, now),
        None => {
            let text = format!(
                "Game {} of {} (round {}: {} playing {first_side} v {} playing {second_side}) has ended, \
                 and its rule set names no winner the league can score.\n\n\
                 Enter the result on the umpire's machine:\n  umpire league result {lid} {} win {first_side}\n  \
                 umpire league result {lid} {} draw\n(or `forfeit SIDE`, `forfeit both`).\n",
                game.id(),
                league.row.name,
                board.round,
                league.name_of(board.first_seat),
                board.second_seat.map_or("?", |s| league.name_of(s)),
                game.id(),
                game.id(),
            );
            queue_notice(
                tx,
                config,
                game.id(),
                &league.row.moderator,
                format!("[{lid}] {}: enter the result", game.id()),
                text,
                &format!("{lid}:result-wanted"),
                now,
            )?;
            audit(tx, now, Some(game.id()), &format!("league {lid}: the game ended without a result to score; the moderator is asked for it"))
        }
    }
}

/// Record a board's result and mail the standings when they are due (LG-5).
fn record(
    tx: &Transaction<'_>,
    config: &Config,
    league: &League,
    board: &BoardRow,
    score: Score,
    how: How,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let lid = &league.row.id;
    rows::record(
        tx,
        lid,
        board.round,
        board.board,
        score.code(),
        how.code(),
        now,
    )?;
    let words = score.words(
        league.name_of(board.first_seat),
        board.second_seat.map_or("?", |s| league.name_of(s)),
    );
    let game = board.game.as_deref().unwrap_or("-");
    audit(
        tx,
        now,
        board.game.as_deref(),
        &format!("league {lid}: {words} ({})", how.code()),
    )?;
    // Read again, with this result in.
    let league = League::load(tx, lid)?;
    let round_done = league
        .boards
        .iter()
        .filter(|b| b.round == board.round)
        .all(|b| b.score.is_some());
    let tag = match league.settings.mail_standings {
        MailStandings::Result => Some(format!("{game}:{}", score.code())),
        // A corrected result mails the round's standings again; a result
        // recorded again as it was does not.
        MailStandings::Round if round_done => Some(format!(
            "round-{}:{}",
            board.round,
            league
                .boards
                .iter()
                .filter(|b| b.round == board.round)
                .map(|b| b.score.as_deref().unwrap_or("-"))
                .collect::<Vec<_>>()
                .join(",")
        )),
        MailStandings::Round => None,
    };
    if let Some(tag) = tag {
        let heading = if round_done {
            format!(
                "{}: the standings after round {}",
                league.row.name, board.round
            )
        } else {
            format!("{}: the standings after {game}", league.row.name)
        };
        let text = format!(
            "{}\n{}",
            league.table().text(&heading),
            results_text(&league)
        );
        let mut to: Vec<String> = league.members.iter().map(|m| m.address.clone()).collect();
        to.push(league.row.moderator.clone());
        for addr in to {
            let mail = plain(
                config,
                vec![addr.clone()],
                format!(
                    "[{lid}] Standings after {}",
                    if round_done {
                        format!("round {}", board.round)
                    } else {
                        game.to_string()
                    }
                ),
                text.clone(),
                None,
            );
            outbox::queue(
                tx,
                config,
                None,
                Kind::League,
                &mail,
                &format!("{lid}:standings:{tag}:{addr}"),
                now,
            )?;
        }
    }
    Ok(())
}

/// Every round's boards and results, as the standings mail lists them.
pub(super) fn results_text(league: &League) -> String {
    let mut out = String::new();
    let mut last = 0;
    for b in &league.boards {
        if b.round != last {
            let _ = writeln!(out, "\nRound {}:", b.round);
            last = b.round;
        }
        let first = league.name_of(b.first_seat);
        match (b.second_seat, b.score.as_deref()) {
            (None, _) => {
                let _ = writeln!(out, "  bye: {first}");
            }
            (Some(s), score) => {
                let second = league.name_of(s);
                let result = match score.and_then(Score::from_code) {
                    Some(sc) => sc.words(first, second),
                    None => format!("{first} v {second}: in play"),
                };
                let how = match b.how.as_deref() {
                    Some("nmr") => " (no orders, LG-3)",
                    Some("moderator") => " (entered by the moderator)",
                    _ => "",
                };
                let _ = writeln!(out, "  {}: {result}{how}", b.game.as_deref().unwrap_or("-"));
            }
        }
    }
    out
}

/// What the moderator says of a game: `win SIDE`, `draw`, `forfeit SIDE`
/// or `forfeit both` (a member's name does for a side).
///
/// # Errors
/// When the words are none of these or name no side or member of the game.
fn read_result(words: &[String], league: &League, board: &BoardRow) -> Result<Score, PostError> {
    let (Some(first_side), Some(second_side), Some(second_seat)) =
        (&board.first_side, &board.second_side, board.second_seat)
    else {
        return Err(PostError::League("a bye has no result to enter".into()));
    };
    let first_name = league.name_of(board.first_seat);
    let second_name = league.name_of(second_seat);
    let usage = format!(
        "say `win {first_side}`, `win {second_side}`, `draw`, `forfeit {first_side}`, `forfeit {second_side}` or `forfeit both` \
         ({first_name} plays {first_side}, {second_name} plays {second_side})"
    );
    let is_first =
        |w: &str| w.eq_ignore_ascii_case(first_side) || w.eq_ignore_ascii_case(first_name);
    let is_second =
        |w: &str| w.eq_ignore_ascii_case(second_side) || w.eq_ignore_ascii_case(second_name);
    let text = words.join(" ");
    let (verb, rest) = text.split_once(' ').unwrap_or((text.as_str(), ""));
    let who = rest.trim();
    match (verb.to_ascii_lowercase().as_str(), who) {
        ("draw" | "drawn", "") => Ok(Score::Drawn),
        ("win" | "won", w) if is_first(w) => Ok(Score::FirstWon),
        ("win" | "won", w) if is_second(w) => Ok(Score::SecondWon),
        ("forfeit", w) if w.eq_ignore_ascii_case("both") => Ok(Score::BothForfeited),
        ("forfeit", w) if is_first(w) => Ok(Score::FirstForfeited),
        ("forfeit", w) if is_second(w) => Ok(Score::SecondForfeited),
        ("win" | "won" | "forfeit", w) => Err(PostError::League(format!(
            "'{w}' is neither side of game {} nor one of its players: {usage}",
            board.game.as_deref().unwrap_or("-")
        ))),
        _ => Err(PostError::League(format!(
            "'{text}' is not a result: {usage}"
        ))),
    }
}

/// The moderator enters (or, with `correct`, corrects) the result of an
/// ended league game: `umpire league result LEAGUE GAME win SIDE`.
///
/// # Errors
/// When the game is no game of the league, is still in play, already has
/// a result (without `correct`), or the words are not a result.
pub fn enter_result(
    po: &mut PostOffice,
    id: &str,
    game: &str,
    words: &[String],
    correct: bool,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let config = po.config.clone();
    po.store.write(|tx| {
        let league = League::load(tx, id)?;
        let lid = league.row.id.clone();
        let Some(board) = league
            .boards
            .iter()
            .find(|b| b.game.as_deref().is_some_and(|g| g.eq_ignore_ascii_case(game)))
            .cloned()
        else {
            let ids: Vec<&str> = league.boards.iter().filter_map(|b| b.game.as_deref()).collect();
            return Err(PostError::League(format!(
                "league {lid} has no game '{game}'{}",
                if ids.is_empty() {
                    " (no round is paired yet)".to_string()
                } else {
                    format!("; its games are {}", ids.join(", "))
                }
            )));
        };
        let g = Game::load(tx, game)?.ok_or_else(|| PostError::NoGame(game.to_string()))?;
        if g.row.status != GameStatus::Ended {
            return Err(PostError::League(format!(
                "game {} is still in play ({}): it is scored when it ends; to end it now, mail the moderator's END GAME, then enter the result",
                g.id(),
                g.round().map(|r| r.label).unwrap_or_default()
            )));
        }
        let score = read_result(words, &league, &board)?;
        if let (Some(old), false) = (board.score.as_deref(), correct) {
            let words = Score::from_code(old).map_or(old.to_string(), |s| {
                s.words(league.name_of(board.first_seat), board.second_seat.map_or("?", |s| league.name_of(s)))
            });
            return Err(PostError::League(format!(
                "game {} already has a result: {words}. To change it, add --correct",
                g.id()
            )));
        }
        record(tx, &config, &league, &board, score, How::Moderator, now)?;
        Ok(score.words(
            league.name_of(board.first_seat),
            board.second_seat.map_or("?", |s| league.name_of(s)),
        ))
    })
}
