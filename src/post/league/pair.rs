//! Pairing a round: who plays whom (the moderator's list, round robin or
//! Swiss), which side each plays, each board's game created as `umpire
//! game new` creates one, and the byes recorded and told.

use crate::config::Config;
use crate::league::pairing::{self, Seat};
use crate::league::System;
use crate::post::gamefile::{self, GameFile};
use crate::post::letter::plain;
use crate::post::outbox::{self, Kind};
use crate::post::round;
use crate::post::{audit, PostError, PostOffice};
use crate::store::leagues::{self as rows, BoardRow};
use crate::store::Transaction;
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{first_deadline, League, BYE};

/// Pair the league's next round and create its games (the welcomes go to
/// the outbox); a member with a bye is told so. `list` is the moderator's
/// pairings (the text and its file's name), required under `pairing =
/// "moderator"` and taken over any other system when given.
///
/// # Errors
/// When every round is paired, the last round still has games in play
/// (LG-2), the list has mistakes, no Swiss pairing without a repeat is
/// left, or a game cannot be created.
pub fn pair(
    po: &mut PostOffice,
    id: &str,
    list: Option<(&str, &str)>,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let config = po.config.clone();
    po.store.write(|tx| pair_in(tx, &config, id, list, now))
}

fn pair_in(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    list: Option<(&str, &str)>,
    now: DateTime<Utc>,
) -> Result<String, PostError> {
    let league = League::load(tx, id)?;
    let lid = league.row.id.clone();
    let round = league.paired() + 1;
    check_pairable(&league, round)?;
    let names = league.names();
    let pairs = pairs_for(&league, list, round)?;
    let template_path = &league.games[(round as usize - 1) % league.games.len()];
    let template = GameFile::load(template_path).map_err(|e| {
        PostError::League(format!(
            "league {lid} plays {} in round {round}, which cannot be read now: {e}",
            template_path.display()
        ))
    })?;
    let side_ids = [template.sides[0].id.clone(), template.sides[1].id.clone()];
    let balance = side_balance(&league);
    let seat = |m: usize| Seat {
        balance: balance.get(&(m as u32)).copied().unwrap_or(0),
        prefers: league.members[m].prefers.as_deref(),
    };
    let tz = template.tz()?;
    let deadline = first_deadline(now, league.settings.start_hours, tz);
    let mut out = format!("{} — round {round}:\n", league.row.name);
    let mut recorded = rows::next_recorded(tx, &lid)?;
    for (i, &(a, b)) in pairs.games.iter().enumerate() {
        let board = i as u32 + 1;
        let (first, second) =
            pairing::deal_sides(a, b, seat(a), seat(b), [&side_ids[0], &side_ids[1]]);
        let game_id = format!("{lid}-{round}-{board}");
        let gf = board_game(
            &league,
            &template,
            &game_id,
            round,
            &deadline,
            [first, second],
        );
        round::create_game(tx, config, &gf, now)?;
        rows::insert_board(
            tx,
            &lid,
            &BoardRow {
                round,
                board,
                game: Some(game_id.clone()),
                first_seat: first as u32,
                second_seat: Some(second as u32),
                first_side: Some(side_ids[0].clone()),
                second_side: Some(side_ids[1].clone()),
                score: None,
                how: None,
                recorded: None,
                recorded_at: None,
            },
        )?;
        let _ = writeln!(
            out,
            "  {game_id}: {} ({}) v {} ({})",
            names[first], side_ids[0], names[second], side_ids[1]
        );
    }
    for (j, &m) in pairs.byes.iter().enumerate() {
        let board = (pairs.games.len() + j) as u32 + 1;
        give_bye(tx, config, &league, round, board, m, recorded, now)?;
        recorded += 1;
        let _ = writeln!(out, "  bye: {}", names[m]);
    }
    audit(
        tx,
        now,
        None,
        &format!("league {lid}: round {round} paired"),
    )?;
    let _ = writeln!(
        out,
        "First deadline {deadline} ({}); the welcome mails are in the outbox (run `umpire send`).",
        template.timezone
    );
    Ok(out)
}

/// Whether `round` may be paired: the league has rounds left and every
/// game of the round before has its result.
fn check_pairable(league: &League, round: u32) -> Result<(), PostError> {
    let lid = &league.row.id;
    if round > league.settings.rounds {
        return Err(PostError::League(format!(
            "league {lid} has paired all its {} rounds: `umpire league standings {lid}` shows where it stands",
            league.settings.rounds
        )));
    }
    let open: Vec<String> = league
        .boards
        .iter()
        .filter(|b| b.score.is_none())
        .map(|b| {
            format!(
                "{} ({} v {})",
                b.game.as_deref().unwrap_or("?"),
                league.name_of(b.first_seat),
                b.second_seat.map_or("?", |s| league.name_of(s))
            )
        })
        .collect();
    if !open.is_empty() {
        return Err(PostError::League(format!(
            "round {} of league {lid} still has games without a result: {}. Pair round {round} when they are in (a game ended without a result the umpire could read waits for `umpire league result`)",
            round - 1,
            open.join(", ")
        )));
    }
    Ok(())
}

/// Who plays whom in `round`: the moderator's list where one is given,
/// else the league's system (round robin, or Swiss without a repeat); a
/// league its moderator pairs needs the list.
fn pairs_for(
    league: &League,
    list: Option<(&str, &str)>,
    round: u32,
) -> Result<pairing::Round, PostError> {
    let lid = &league.row.id;
    let names = league.names();
    match (list, league.settings.pairing) {
        (Some((text, file)), _) => pairing::read_list(text, &names, file)
            .map_err(|errors| PostError::League(errors.concat())),
        (None, System::Moderator) => Err(PostError::League(format!(
            "league {lid} is paired by its moderator: give round {round}'s games with --pairs FILE (one line a game: '{} v {}', and 'bye NAME')",
            names[0], names[1]
        ))),
        (None, System::RoundRobin) => Ok(pairing::round_robin(names.len(), round)),
        (None, System::Swiss) => {
            let met: BTreeSet<(usize, usize)> = league
                .boards
                .iter()
                .filter_map(|b| {
                    b.second_seat.map(|s| {
                        let (a, b) = (b.first_seat as usize, s as usize);
                        (a.min(b), a.max(b))
                    })
                })
                .collect();
            pairing::swiss(&league.table().entrants(), &met)
                .map_err(|e| PostError::League(format!("league {lid}, round {round}: {e}")))
        }
    }
}

/// Games played on the first side less those on the second, by seat: who
/// is owed the first side next.
fn side_balance(league: &League) -> BTreeMap<u32, i32> {
    let mut balance: BTreeMap<u32, i32> = BTreeMap::new();
    for b in &league.boards {
        if let Some(s) = b.second_seat {
            *balance.entry(b.first_seat).or_default() += 1;
            *balance.entry(s).or_default() -= 1;
        }
    }
    balance
}

/// One board's game file: the round's template with the board's id and
/// title, the league's first deadline and moderator, and the two members
/// `seats` (first side, second side) as its players.
fn board_game(
    league: &League,
    template: &GameFile,
    game_id: &str,
    round: u32,
    deadline: &str,
    seats: [usize; 2],
) -> GameFile {
    let mut gf = template.clone();
    gf.id = game_id.to_string();
    gf.title = format!("{}: {}, round {round}", template.title, league.row.name)
        .chars()
        .take(gamefile::bounds::TITLE_LEN)
        .collect();
    gf.first_deadline = deadline.to_string();
    gf.moderator = gamefile::Player {
        address: league.row.moderator.clone(),
        password: None,
    };
    for (side, m) in gf.sides.iter_mut().zip(seats) {
        let member = &league.members[m];
        side.address = member.address.clone();
        side.password = None;
        side.timezone = member.timezone.clone();
    }
    gf
}

/// Seat member `m` out of `round` on `board`: the bye is recorded at once
/// (as the `recorded`th result) and the member is told.
#[allow(clippy::too_many_arguments)]
fn give_bye(
    tx: &Transaction<'_>,
    config: &Config,
    league: &League,
    round: u32,
    board: u32,
    m: usize,
    recorded: u32,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let lid = &league.row.id;
    rows::insert_board(
        tx,
        lid,
        &BoardRow {
            round,
            board,
            game: None,
            first_seat: m as u32,
            second_seat: None,
            first_side: None,
            second_side: None,
            score: Some(BYE.into()),
            how: Some("pairing".into()),
            recorded: Some(recorded),
            recorded_at: Some(now),
        },
    )?;
    let member = &league.members[m];
    let text = format!(
        "{} pairs round {round} today, and you sit this round out: a bye, worth {} point(s) in the standings (ruling LG-1).\n\
         Your next game comes with the next round's pairing.\n",
        league.row.name, league.settings.points.bye
    );
    let mail = plain(
        config,
        vec![member.address.clone()],
        format!("[{lid}] Round {round}: a bye"),
        text,
        None,
    );
    outbox::queue(
        tx,
        config,
        None,
        Kind::League,
        &mail,
        &format!("{lid}:{round}:bye:{}", member.address),
        now,
    )?;
    Ok(())
}
