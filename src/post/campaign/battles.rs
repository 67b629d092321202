//! The campaign's battles by mail, the post office's side (ruling CA-18).
//! A waiting battle the campaign plays by mail becomes a battle game in the
//! same store ([`start_games`]): its id the campaign's and the battle's
//! (`dragon-b3`), its scenario from the campaign's rules, its
//! sides the two powers with their players' addresses (new passwords in
//! the welcome) or, for a power the umpire's general plays, the battle
//! game's general (`post::general`), the campaign's secretary its moderator. When the game
//! ends — its last report released ([`game_ended`]) or the moderator's END
//! GAME ([`game_stopped`]) — its last table goes back as an entered result
//! ([`CampaignRules::returned`]), recorded where the secretary's results
//! are, and the next week applies it like any other. Only the two powers
//! and the secretary hear of the game: onlookers read the campaign's
//! reports, which never name its contents.

use crate::config::Config;
use crate::games::campaign::{MailBattle, Returned};
use crate::games::campaign_rules as rules;
use crate::games::{GameResult, Json};
use crate::post::game::Game;
use crate::post::gamefile::GameFile;
use crate::post::{audit, round, PostError};
use crate::report::RoundReport;
use crate::store::{campaign_battles, campaigns, Transaction};
use chrono::{DateTime, Utc};

fn corrupt(e: impl std::fmt::Display) -> PostError {
    PostError::Corrupt(e.to_string())
}

/// A battle sent to mail: its number, and its game's id or why none was made.
pub(crate) type Started = (u32, Result<String, String>);

/// Create the battle game of every battle of campaign `id` that waits to
/// be played by mail and has none yet. Returns, by battle, the game made
/// or why none could be (the battle then waits for the secretary).
///
/// # Errors
/// Damaged stored data or database errors.
pub(crate) fn start_games(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
) -> Result<Vec<Started>, PostError> {
    let Some(row) = campaigns::load(tx, id)? else {
        return Ok(Vec::new());
    };
    let players = Seats {
        players: campaigns::players(tx, id)?,
        generals: campaigns::generals(tx, id)?,
    };
    let mut state = row.state.clone();
    let mut made = Vec::new();
    for b in rules().mail_battles(&row.state).map_err(corrupt)? {
        if campaign_battles::game_of(tx, id, b.battle)?.is_some() {
            continue;
        }
        let made_one = b.scenario.clone().and_then(|text| {
            let file = game_file(config, &b, id, &row.secretary_address, &players, now)?;
            Ok((file, text))
        });
        let outcome = match made_one {
            Ok((file, text)) => {
                round::create_game_of(tx, config, &file, text, now)?;
                campaign_battles::insert(tx, id, b.battle, &b.game_id, now)?;
                audit(
                    tx,
                    now,
                    Some(id),
                    &format!(
                        "battle {} is played by mail as game {}",
                        b.battle, b.game_id
                    ),
                )?;
                Ok(b.game_id)
            }
            Err(why) => {
                // No game can be made: the battle waits for the secretary.
                state = rules()
                    .not_by_mail(&state, b.battle, &why)
                    .map_err(corrupt)?;
                Err(why)
            }
        };
        made.push((b.battle, outcome));
    }
    if state != row.state {
        campaigns::set_state(tx, id, &state)?;
    }
    Ok(made)
}

/// Who plays each power of a campaign: its player's address, or the
/// style of the umpire's general (issue 42).
struct Seats {
    players: Vec<(String, String)>,
    generals: Vec<(String, String)>,
}

/// The battle game's file: the powers' players on their sides (a power a
/// general plays, its side given the battle game's general), the
/// secretary moderating, turns `battle_turn_hours` apart in the club's
/// time zone.
fn game_file(
    config: &Config,
    b: &MailBattle,
    campaign: &str,
    secretary: &str,
    players: &Seats,
    now: DateTime<Utc>,
) -> Result<GameFile, String> {
    let hours = b.turn_hours;
    let tz: chrono_tz::Tz = config.timezone.parse().unwrap_or(chrono_tz::UTC);
    let mut t = toml::Table::new();
    let title: String = b
        .title
        .chars()
        .take(crate::post::gamefile::bounds::TITLE_LEN)
        .collect();
    t.insert("id".into(), b.game_id.clone().into());
    t.insert("title".into(), title.into());
    t.insert(
        "scenario".into(),
        format!("campaign {campaign} battle {}", b.battle).into(),
    );
    t.insert("timezone".into(), tz.name().into());
    t.insert(
        "first_deadline".into(),
        crate::post::league::first_deadline(now, hours, tz).into(),
    );
    t.insert("turn_hours".into(), i64::from(hours).into());
    t.insert("max_turns".into(), i64::from(b.turns).into());
    let mut moderator = toml::Table::new();
    moderator.insert("address".into(), secretary.into());
    t.insert("moderator".into(), moderator.into());
    let mut sides = Vec::new();
    for power in &b.powers {
        let mut s = toml::Table::new();
        s.insert("id".into(), power.clone().into());
        let general = players.generals.iter().find(|(p, _)| p == power);
        let address = players.players.iter().find(|(p, _)| p == power);
        match (general, address) {
            (Some((_, style)), _) => s.insert("general".into(), style.clone().into()),
            (None, Some((_, address))) => s.insert("address".into(), address.clone().into()),
            (None, None) => return Err(format!("power {power} has no player to fight it by mail")),
        };
        sides.push(toml::Value::Table(s));
    }
    t.insert("side".into(), sides.into());
    let file: GameFile = toml::Value::Table(t)
        .try_into()
        .map_err(|e: toml::de::Error| e.to_string())?;
    file.check().map_err(|e| e.to_string())?;
    Ok(file)
}

/// A game's last report was released: if it plays a campaign's battle,
/// the battle's result goes back (the game's result names the side that
/// broke the other).
///
/// # Errors
/// Damaged stored data or database errors.
pub(crate) fn game_ended(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    rep: &RoundReport,
    last: &Json,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    give_back(
        tx,
        config,
        game,
        last,
        rep.office.result.as_ref(),
        "it has ended",
        now,
    )
}

/// The moderator ended a game with END GAME: if it plays a campaign's
/// battle, the battle's result goes back from the table as it stands (the
/// side the battle's rule set says has won by then; else no one).
///
/// # Errors
/// Damaged stored data or database errors.
pub(crate) fn game_stopped(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    if campaign_battles::open_battle_of(tx, game.id())?.is_none() {
        return Ok(());
    }
    let last: Json = serde_json::from_str(&game.row.state).map_err(corrupt)?;
    let result = game
        .ruleset
        .standing(&game.row.setup, &last)
        .map_err(corrupt)?;
    give_back(
        tx,
        config,
        game,
        &last,
        result.as_ref(),
        "its moderator ended it",
        now,
    )
}

/// The battle's result back to its campaign, recorded for the next week,
/// and the secretary told.
fn give_back(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    last: &Json,
    result: Option<&GameResult>,
    how: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    // Only a game that plays a campaign's battle is read.
    let Some((cid, battle)) = campaign_battles::open_battle_of(tx, game.id())? else {
        return Ok(());
    };
    // The campaign's state is not the game's: kept as if alone only in a
    // serializable transaction.
    tx.needs_serializable()?;
    campaign_battles::returned(tx, game.id(), now)?;
    let Some(row) = campaigns::load(tx, &cid)? else {
        return Ok(());
    };
    let Some(Returned {
        entered,
        winner,
        both_broke,
        lost,
    }) = rules()
        .returned(&row.state, battle, &game.row.setup, last, result)
        .map_err(corrupt)?
    else {
        // The secretary entered a result already; it stands.
        return Ok(());
    };
    campaigns::record_result(tx, &cid, battle, &entered)?;
    let text = format!(
        "Battle {battle} of campaign {cid}, played by mail as game {}, is over: {how}.\n\
         {}.\nFigures lost before recovery: {}.\n\n\
         The result is recorded; it takes effect when the week is resolved (as a result you enter would).\n",
        game.id(),
        field_words(winner.as_deref(), both_broke),
        lost.join("; "),
    );
    round::queue_notice(
        tx,
        config,
        game.id(),
        &row.secretary_address,
        format!("[{cid}] battle {battle} is over ({})", game.id()),
        text,
        &format!("{cid}:battle-{battle}:returned"),
        now,
    )?;
    audit(
        tx,
        now,
        Some(&cid),
        &format!(
            "battle {battle}: game {} {how}; its result goes back to the campaign",
            game.id()
        ),
    )?;
    Ok(())
}

/// Who holds the field, as the secretary's notice says it.
fn field_words(winner: Option<&str>, both_broke: bool) -> String {
    match (winner, both_broke) {
        (Some(w), true) => format!(
            "Both armies broke in the same turn; {w}, having lost the smaller share of its points, holds the field (a reconstructed rule, ruling A-25)"
        ),
        (None, true) => "Both armies broke in the same turn with equal shares lost: neither holds the field (a reconstructed rule, ruling A-25)".to_string(),
        (Some(w), false) => format!("{w} broke the enemy and holds the field"),
        (None, false) => "Neither side broke".to_string(),
    }
}

/// The secretary entered battle `battle`'s result himself while its game
/// by mail was still being played: the game no longer counts. It is ended
/// (no more turns), unlinked from the campaign so its end sends nothing
/// back, and its players are told why. Returns the game's id, when there
/// was one still open.
///
/// # Errors
/// Damaged stored data or database errors.
pub(crate) fn overridden(
    tx: &Transaction<'_>,
    config: &Config,
    campaign: &str,
    battle: u32,
    now: DateTime<Utc>,
) -> Result<Option<String>, PostError> {
    let Some(id) = campaign_battles::game_of(tx, campaign, battle)? else {
        return Ok(None);
    };
    if campaign_battles::open_battle_of(tx, &id)?.is_none() {
        return Ok(None);
    }
    campaign_battles::returned(tx, &id, now)?;
    let Some(mut game) = Game::load(tx, &id)? else {
        return Ok(None);
    };
    game.row.status = crate::store::games::GameStatus::Ended;
    game.save(tx)?;
    for side in game.sides(tx)? {
        round::queue_notice(
            tx,
            config,
            &id,
            &side.address,
            format!("[{id}] This battle no longer counts"),
            format!(
                "The secretary of campaign {campaign} has entered the result of battle {battle} himself, so game {id} no longer counts: no more turns will be played, and the campaign's next report tells the result.\n"
            ),
            &format!("{campaign}:battle-{battle}:overridden:{}", side.side),
            now,
        )?;
    }
    audit(
        tx,
        now,
        Some(campaign),
        &format!("battle {battle}: the secretary's result ends game {id}"),
    )?;
    Ok(Some(id))
}
