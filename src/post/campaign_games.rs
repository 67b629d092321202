//! The campaign's battles by mail, the post office's side (ruling CA-18).
//! A waiting battle the campaign plays by mail becomes a battle game in the
//! same store ([`start_games`]): its id the campaign's and the battle's
//! (`dragon-b3`), its scenario from `campaign::by_mail::scenario`, its
//! sides the two powers with their players' addresses (new passwords in
//! the welcome), the campaign's secretary its moderator. When the game
//! ends — its last report released ([`game_ended`]) or the moderator's END
//! GAME ([`game_stopped`]) — its last table goes back as an entered result
//! (`campaign::by_mail::result`), recorded where the secretary's results
//! are, and the next week applies it like any other. Only the two powers
//! and the secretary hear of the game: onlookers read the campaign's
//! reports, which never name its contents.

use super::game::Game;
use super::gamefile::GameFile;
use super::{audit, round, PostError};
use crate::config::Config;
use crate::games::hyborian::army::scenario::{self, BATTLE_TURNS};
use crate::games::hyborian::campaign::by_mail;
use crate::games::hyborian::campaign::game::{BattleMode, Campaign, PendingBattle};
use crate::games::hyborian::campaign::map::World;
use crate::games::hyborian::table::Table;
use crate::games::{GameResult, Json};
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
    let mut c: Campaign = serde_json::from_str(&row.state).map_err(corrupt)?;
    let world = World::hyborea().map_err(corrupt)?;
    let players = campaigns::players(tx, &c.id)?;
    let mut made = Vec::new();
    let mut changed = false;
    let waiting: Vec<PendingBattle> = c
        .pending
        .iter()
        .filter(|b| b.by == BattleMode::Mail)
        .cloned()
        .collect();
    for b in waiting {
        if campaign_battles::game_of(tx, &c.id, b.id)?.is_some() {
            continue;
        }
        let game_id = b.game_id(&c.id);
        let made_one = by_mail::scenario(&c, &world, &b).and_then(|text| {
            let file = game_file(config, &c, &b, &row.secretary_address, &players, now)?;
            Ok((file, text))
        });
        let outcome = match made_one {
            Ok((file, text)) => {
                round::create_game_of(tx, config, &file, text, now)?;
                campaign_battles::insert(tx, &c.id, b.id, &game_id, now)?;
                audit(
                    tx,
                    now,
                    Some(&c.id),
                    &format!("battle {} is played by mail as game {game_id}", b.id),
                )?;
                Ok(game_id)
            }
            Err(why) => {
                // No game can be made: the battle waits for the secretary.
                if let Some(p) = c.pending.iter_mut().find(|p| p.id == b.id) {
                    p.by = BattleMode::Secretary;
                    p.why = Some(why.clone());
                    changed = true;
                }
                Err(why)
            }
        };
        made.push((b.id, outcome));
    }
    if changed {
        campaigns::set_state(tx, &c.id, &serde_json::to_string(&c).map_err(corrupt)?)?;
    }
    Ok(made)
}

/// The battle game's file: the powers' players on their sides, the
/// secretary moderating, turns `battle_turn_hours` apart in the club's
/// time zone.
fn game_file(
    config: &Config,
    c: &Campaign,
    b: &PendingBattle,
    secretary: &str,
    players: &[(String, String)],
    now: DateTime<Utc>,
) -> Result<GameFile, String> {
    let hours = c.settings.battle_turn_hours;
    let tz: chrono_tz::Tz = config.timezone.parse().unwrap_or(chrono_tz::UTC);
    let mut t = toml::Table::new();
    let title: String = format!("{}: battle {}", c.title, b.id)
        .chars()
        .take(super::gamefile::bounds::TITLE_LEN)
        .collect();
    t.insert("id".into(), b.game_id(&c.id).into());
    t.insert("title".into(), title.into());
    t.insert(
        "scenario".into(),
        format!("campaign {} battle {}", c.id, b.id).into(),
    );
    t.insert("timezone".into(), tz.name().into());
    t.insert(
        "first_deadline".into(),
        super::league::first_deadline(now, hours, tz).into(),
    );
    t.insert("turn_hours".into(), i64::from(hours).into());
    t.insert("max_turns".into(), i64::from(BATTLE_TURNS).into());
    let mut moderator = toml::Table::new();
    moderator.insert("address".into(), secretary.into());
    t.insert("moderator".into(), moderator.into());
    let mut sides = Vec::new();
    for power in by_mail::powers(c, b) {
        let Some((_, address)) = players.iter().find(|(p, _)| *p == power) else {
            return Err(format!("power {power} has no player to fight it by mail"));
        };
        let mut s = toml::Table::new();
        s.insert("id".into(), power.into());
        s.insert("address".into(), address.clone().into());
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
    // Only a game that plays a campaign's battle is read (other rule sets'
    // states are not Hyborean tables).
    if campaign_battles::open_battle_of(tx, game.id())?.is_none() {
        return Ok(());
    }
    let won = match GameResult::of_report(rep) {
        Some(GameResult::Won { side }) => Some(side),
        _ => None,
    };
    let end: Table = serde_json::from_value(last.clone()).map_err(corrupt)?;
    give_back(tx, config, game, &end, won, "it has ended", now)
}

/// The moderator ended a game with END GAME: if it plays a campaign's
/// battle, the battle's result goes back from the table as it stands (the
/// side that broke the other by then wins; else no one).
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
    let end: Table = serde_json::from_str(&game.row.state).map_err(corrupt)?;
    let loaded = scenario::load(&game.row.setup).map_err(corrupt)?;
    let won = loaded
        .scenario
        .as_ref()
        .and_then(|sc| scenario::assess(sc, &end, false).winner);
    give_back(tx, config, game, &end, won, "its moderator ended it", now)
}

fn give_back(
    tx: &Transaction<'_>,
    config: &Config,
    game: &Game,
    end: &Table,
    won: Option<String>,
    how: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let Some((cid, battle)) = campaign_battles::open_battle_of(tx, game.id())? else {
        return Ok(());
    };
    campaign_battles::returned(tx, game.id(), now)?;
    let Some(row) = campaigns::load(tx, &cid)? else {
        return Ok(());
    };
    let c: Campaign = serde_json::from_str(&row.state).map_err(corrupt)?;
    let Some(b) = c.pending.iter().find(|b| b.id == battle) else {
        // The secretary entered a result already; it stands.
        return Ok(());
    };
    let start = scenario::load(&game.row.setup).map_err(corrupt)?.table;
    let r = by_mail::result(&c, b, &start, end, won.as_deref());
    campaigns::record_result(
        tx,
        &cid,
        battle,
        &serde_json::to_string(&r).map_err(corrupt)?,
    )?;
    let mut lost = Vec::new();
    for (army, units) in &r.figures {
        let parts: Vec<String> = units
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(u, n)| format!("{n} {u}"))
            .collect();
        lost.push(format!(
            "{army}: {}",
            if parts.is_empty() {
                "none".to_string()
            } else {
                parts.join(", ")
            }
        ));
    }
    let text = format!(
        "Battle {battle} of campaign {cid}, played by mail as game {}, is over: {how}.\n\
         {}.\nFigures lost before recovery: {}.\n\n\
         The result is recorded; it takes effect when the week is resolved (as a result you enter would).\n",
        game.id(),
        r.winner.as_deref().map_or_else(
            || "Neither side broke".to_string(),
            |w| format!("{w} broke the enemy and holds the field")
        ),
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
