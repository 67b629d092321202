//! Club leagues in the post office: `umpire league new FILE` stores a
//! league, `umpire league pair LEAGUE` makes a round's games (real games,
//! through the same [`round::create_game`] as `umpire game new`, so each
//! player gets a welcome), results come in when a league game's last
//! report is released ([`game_ended`]: the rule set's result, or a forfeit
//! for too many rounds without orders) or from the moderator (`umpire
//! league result`), and the standings are mailed to every member through
//! the outbox and written to the web export with each member's games.
//!
//! The pairings, points and ratings are the pure functions of
//! [`crate::league`]; the standings are replayed from the stored results
//! in the order they were recorded, never kept as running totals.
//!
//! ```no_run
//! # use umpire::post::{league, PostOffice};
//! # fn f(po: &mut PostOffice, now: chrono::DateTime<chrono::Utc>) -> Result<(), umpire::post::PostError> {
//! let file = league::load(std::path::Path::new("leagues/winter.toml"))?;
//! league::create(po, &file, now)?;
//! print!("{}", league::pair(po, "winter", None, now)?);
//! print!("{}", league::standings_text(po, "winter")?);
//! # Ok(()) }
//! ```

use super::game::Game;
use super::gamefile::{self, GameFile};
use super::letter::{plain, queue_notice};
use super::outbox::{self, Kind};
use super::round;
use super::{audit, PostError, PostOffice};
use crate::config::Config;
use crate::games::{self, GameResult};
use crate::league::file::LeagueFile;
use crate::league::pairing::{self, Seat};
use crate::league::standings::{standings, Entry, Table};
use crate::league::{MailStandings, Score, Settings, System};
use crate::report::{esc, RoundReport};
use crate::store::games::GameStatus;
use crate::store::leagues::{self as rows, BoardRow, LeagueRow, MemberRow};
use crate::store::{rounds, Transaction};
use chrono::{DateTime, Duration, DurationRound, Utc};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The score code of a bye.
const BYE: &str = "bye";

/// A league file read and checked, with its game files loaded.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub file: LeagueFile,
    /// The game files, resolved against the league file's folder.
    pub games: Vec<PathBuf>,
}

fn league_error(path: &Path, why: impl std::fmt::Display) -> PostError {
    PostError::League(format!("{}: {why}", path.display()))
}

/// Read and check a league file: every bound, every member, and every game
/// file it plays (each must start a game of two sides, with a scenario the
/// rule set reads; a member's preferred side must be one of theirs).
///
/// # Errors
/// The first problem, naming the file and what to change.
pub fn load(path: &Path) -> Result<Loaded, PostError> {
    let text = std::fs::read_to_string(path).map_err(|e| league_error(path, e))?;
    let file = LeagueFile::parse(&text).map_err(|e| league_error(path, e))?;
    file.check(crate::mail::address::is_valid)
        .map_err(|e| league_error(path, e))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut games = Vec::new();
    let mut sides = BTreeSet::new();
    for g in &file.games {
        let p = base.join(g);
        let gf = GameFile::load(&p)
            .map_err(|e| league_error(path, format!("game file {}: {e}", g.display())))?;
        let found = scenario_sides(&gf)
            .map_err(|e| league_error(path, format!("game file {}: {e}", g.display())))?;
        if found.len() != 2 || gf.sides.len() != 2 {
            return Err(league_error(
                path,
                format!(
                    "game file {}: a league game is played by two members, but this game has the sides {}",
                    g.display(),
                    found.join(", ")
                ),
            ));
        }
        sides.extend(gf.sides.iter().map(|s| s.id.to_ascii_lowercase()));
        games.push(p);
    }
    for m in &file.members {
        if let Some(tz) = &m.timezone {
            gamefile::zone(tz).map_err(|near| {
                league_error(
                    path,
                    format!(
                        "member {}: unknown time zone '{tz}'{}",
                        m.name,
                        near.first()
                            .map(|n| format!(" (did you mean '{n}'?)"))
                            .unwrap_or_default()
                    ),
                )
            })?;
        }
        if let Some(p) = &m.prefers {
            if !sides.contains(&p.to_ascii_lowercase()) {
                let list: Vec<&str> = sides.iter().map(String::as_str).collect();
                let near = crate::names::closest(p, list.iter().map(|s| (*s, *s)))
                    .map(|n| format!("did you mean '{n}'? "))
                    .unwrap_or_default();
                return Err(league_error(
                    path,
                    format!(
                        "member {}: prefers = \"{p}\" is no side of the league's games; {near}the sides are {}",
                        m.name,
                        list.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(Loaded { file, games })
}

/// The sides a game file's scenario starts with, trying it as `umpire game
/// new` would (but storing nothing).
fn scenario_sides(gf: &GameFile) -> Result<Vec<String>, String> {
    let ruleset = games::named(&gf.ruleset).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&gf.scenario)
        .map_err(|e| format!("scenario {}: {e}", gf.scenario.display()))?;
    let (armies, pack) = gf.read_armies_and_pack().map_err(|e| e.to_string())?;
    let new = ruleset
        .new_game(&games::Setup {
            scenario_path: &gf.scenario,
            scenario_text: &text,
            options: &gf.options,
            max_turns: gf.max_turns,
            seed: [0; 32],
            armies: &armies,
            pack: pack.as_deref(),
        })
        .map_err(|e| format!("scenario {}: {e}", gf.scenario.display()))?;
    for s in &gf.sides {
        if !new.sides.contains(&s.id) {
            return Err(format!(
                "names side '{}' but the scenario's sides are: {}",
                s.id,
                new.sides.join(", ")
            ));
        }
    }
    Ok(new.sides)
}

/// A stored league, read.
struct League {
    row: LeagueRow,
    settings: Settings,
    games: Vec<PathBuf>,
    members: Vec<MemberRow>,
    boards: Vec<BoardRow>,
}

impl League {
    fn load(tx: &Transaction<'_>, id: &str) -> Result<League, PostError> {
        let row = rows::load(tx, id)?.ok_or_else(|| {
            let known = rows::ids(tx).unwrap_or_default();
            PostError::League(if known.is_empty() {
                format!("no league called '{id}': there is none yet (umpire league new FILE)")
            } else {
                format!(
                    "no league called '{id}'; the leagues are {}",
                    known.join(", ")
                )
            })
        })?;
        let corrupt = |e: serde_json::Error| PostError::Corrupt(format!("league {}: {e}", row.id));
        let settings = serde_json::from_str(&row.settings).map_err(corrupt)?;
        let games = serde_json::from_str(&row.games).map_err(corrupt)?;
        let members = rows::members(tx, &row.id)?;
        let boards = rows::boards(tx, &row.id)?;
        Ok(League {
            row,
            settings,
            games,
            members,
            boards,
        })
    }

    fn names(&self) -> Vec<String> {
        self.members.iter().map(|m| m.name.clone()).collect()
    }

    fn name_of(&self, seat: u32) -> &str {
        self.members
            .get(seat as usize)
            .map_or("?", |m| m.name.as_str())
    }

    /// The results in the order they were recorded.
    fn entries(&self) -> Vec<Entry> {
        let mut done: Vec<&BoardRow> = self
            .boards
            .iter()
            .filter(|b| b.recorded.is_some())
            .collect();
        done.sort_by_key(|b| b.recorded);
        done.into_iter()
            .filter_map(|b| match (b.score.as_deref(), b.second_seat) {
                (Some(BYE), _) => Some(Entry::Bye {
                    member: b.first_seat as usize,
                }),
                (Some(code), Some(second)) => Score::from_code(code).map(|score| Entry::Game {
                    first: b.first_seat as usize,
                    second: second as usize,
                    score,
                }),
                _ => None,
            })
            .collect()
    }

    fn table(&self) -> Table {
        standings(&self.names(), &self.settings, &self.entries())
    }

    fn paired(&self) -> u32 {
        self.boards.iter().map(|b| b.round).max().unwrap_or(0)
    }
}

/// Store a league from its checked file.
///
/// # Errors
/// When a league of that id exists, or on database errors.
pub fn create(po: &mut PostOffice, loaded: &Loaded, now: DateTime<Utc>) -> Result<(), PostError> {
    let f = &loaded.file;
    let row = LeagueRow {
        id: f.id.clone(),
        name: f.name.clone(),
        moderator: f.moderator.address.to_ascii_lowercase(),
        settings: serde_json::to_string(&f.settings())
            .map_err(|e| PostError::Corrupt(e.to_string()))?,
        games: serde_json::to_string(&loaded.games)
            .map_err(|e| PostError::Corrupt(e.to_string()))?,
    };
    let members: Vec<MemberRow> = f
        .members
        .iter()
        .enumerate()
        .map(|(seat, m)| MemberRow {
            seat: seat as u32,
            name: m.name.trim().to_string(),
            address: m.address.to_ascii_lowercase(),
            prefers: m.prefers.clone(),
            timezone: m.timezone.clone(),
        })
        .collect();
    po.store.write(|tx| {
        if let Some(old) = rows::load(tx, &f.id)? {
            return Err(PostError::League(format!(
                "a league called '{}' already exists: give the new one another id",
                old.id
            )));
        }
        rows::insert(tx, &row, &members, now)?;
        audit(
            tx,
            now,
            None,
            &format!("league {} created with {} members", f.id, members.len()),
        )
    })
}

/// The next round's first deadline: `hours` from now, on the hour, as a
/// game file writes it in zone `tz`.
pub(crate) fn first_deadline(now: DateTime<Utc>, hours: u32, tz: chrono_tz::Tz) -> String {
    let at = now + Duration::hours(i64::from(hours));
    let on_the_hour = at
        .duration_trunc(Duration::hours(1))
        .map(|t| if t < at { t + Duration::hours(1) } else { t })
        .unwrap_or(at);
    on_the_hour
        .with_timezone(&tz)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

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
    // A result stands, unless this report corrects the one it came from
    // (the moderator's READJUDICATE, ruling P20).
    if board.score.is_some() && !rep.extra.contains_key("readjudicated") {
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
    let score = match GameResult::of_report(rep) {
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
fn results_text(league: &League) -> String {
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

/// The standings as text: the table and every round's results.
///
/// # Errors
/// When there is no such league.
pub fn standings_text(po: &mut PostOffice, id: &str) -> Result<String, PostError> {
    po.store.write(|tx| {
        let league = League::load(tx, id)?;
        let heading = format!(
            "{}: the standings ({} of {} rounds paired, {} pairing)",
            league.row.name,
            league.paired(),
            league.settings.rounds,
            league.settings.pairing.name()
        );
        Ok(format!(
            "{}{}",
            league.table().text(&heading),
            results_text(&league)
        ))
    })
}

/// The standings as JSON, for tools: the league, its table, every board.
///
/// # Errors
/// When there is no such league.
pub fn standings_json(po: &mut PostOffice, id: &str) -> Result<String, PostError> {
    po.store.write(|tx| {
        let league = League::load(tx, id)?;
        let boards: Vec<serde_json::Value> = league
            .boards
            .iter()
            .map(|b| {
                serde_json::json!({
                    "round": b.round,
                    "board": b.board,
                    "game": b.game,
                    "first": league.name_of(b.first_seat),
                    "first_side": b.first_side,
                    "second": b.second_seat.map(|s| league.name_of(s)),
                    "second_side": b.second_side,
                    "result": b.score,
                    "how": b.how,
                })
            })
            .collect();
        let value = serde_json::json!({
            "league": league.row.id,
            "name": league.row.name,
            "rounds": league.settings.rounds,
            "paired": league.paired(),
            "settings": league.settings,
            "standings": league.table().lines,
            "games": boards,
        });
        serde_json::to_string_pretty(&value).map_err(|e| PostError::Corrupt(e.to_string()))
    })
}

/// Write the league's page into `dir`: `index.html` with the standings and
/// each member's games, linked to each game's own archive in `dir/GAME/`
/// (as `umpire export GAME` writes it). Returns how many games were written.
///
/// # Errors
/// When there is no such league or the folder cannot be written.
pub fn export(po: &mut PostOffice, id: &str, dir: &Path) -> Result<usize, PostError> {
    let league = po.store.write(|tx| League::load(tx, id))?;
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut written = BTreeSet::new();
    for b in &league.boards {
        let Some(g) = &b.game else { continue };
        let released = po
            .store
            .write(|tx| Ok::<_, PostError>(rounds::released(tx, g)?))?;
        if !released.is_empty() {
            super::export_html(po, g, &dir.join(g))?;
            written.insert(g.clone());
        }
    }
    let table = league.table();
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title></head>\n<body style=\"font-family: Georgia, serif; max-width: 48em; margin: auto\">\n<h1>{t}</h1>\n\
         <p>{} of {} rounds paired ({} pairing); {} for a win, {} a draw, {} a loss, {} a bye; Elo ratings, K = {}.</p>\n\
         <h2>Standings</h2>\n<table id=\"standings\">\n<tr><th>#</th><th>Member</th><th>Played</th><th>Won</th><th>Drawn</th><th>Lost</th><th>Byes</th><th>Points</th><th>Rating</th></tr>\n",
        league.paired(),
        league.settings.rounds,
        league.settings.pairing.name(),
        league.settings.points.win,
        league.settings.points.draw,
        league.settings.points.loss,
        league.settings.points.bye,
        league.settings.rating.k,
        t = esc(&league.row.name)
    );
    for l in &table.lines {
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td><a href=\"#member-{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.0}</td></tr>",
            l.rank, l.member, esc(&l.name), l.played, l.won, l.drawn, l.lost, l.byes, l.points, l.rating
        );
    }
    page.push_str("</table>\n<h2>Members' games</h2>\n");
    for (seat, m) in league.members.iter().enumerate() {
        let _ = writeln!(page, "<h3 id=\"member-{seat}\">{}</h3>\n<ul>", esc(&m.name));
        for b in league
            .boards
            .iter()
            .filter(|b| b.first_seat as usize == seat || b.second_seat == Some(seat as u32))
        {
            let Some(g) = &b.game else {
                let _ = writeln!(page, "<li>Round {}: a bye</li>", b.round);
                continue;
            };
            let me_first = b.first_seat as usize == seat;
            let (side, other, other_side) = if me_first {
                (&b.first_side, b.second_seat, &b.second_side)
            } else {
                (&b.second_side, Some(b.first_seat), &b.first_side)
            };
            let result = match b.score.as_deref().and_then(Score::from_code) {
                Some(s) => esc(&s.words(
                    league.name_of(b.first_seat),
                    b.second_seat.map_or("?", |s| league.name_of(s)),
                )),
                None => "in play".into(),
            };
            let name = if written.contains(g) {
                format!("<a href=\"{g}/index.html\">{g}</a>", g = esc(g))
            } else {
                esc(g)
            };
            let _ = writeln!(
                page,
                "<li>Round {}: {name}, {} against {} ({}): {result}</li>",
                b.round,
                esc(side.as_deref().unwrap_or("?")),
                esc(other.map_or("?", |s| league.name_of(s))),
                esc(other_side.as_deref().unwrap_or("?")),
            );
        }
        page.push_str("</ul>\n");
    }
    page.push_str("</body></html>\n");
    std::fs::write(dir.join("index.html"), page).map_err(io)?;
    Ok(written.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_rounds_first_deadline_is_on_the_hour_after_the_start_hours() {
        let now = Utc.with_ymd_and_hms(2026, 12, 1, 9, 17, 0).unwrap();
        assert_eq!(first_deadline(now, 48, chrono_tz::UTC), "2026-12-03 10:00");
        assert_eq!(
            first_deadline(now, 48, chrono_tz::Europe::Paris),
            "2026-12-03 11:00"
        );
        let sharp = Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap();
        assert_eq!(first_deadline(sharp, 1, chrono_tz::UTC), "2026-12-01 10:00");
    }
}
