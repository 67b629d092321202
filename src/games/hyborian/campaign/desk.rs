//! The Hyborean campaign behind the post office's boundary
//! ([`CampaignRules`]): its letters read, its orders checked, its weeks
//! resolved and reported, and the secretary's commands of its own (a
//! battle's result, how a battle is fought, the corrections of ruling
//! CA-31) decided, all from the state as stored.

use super::by_mail;
use super::correct;
use super::fog;
use super::game::{Army, BattleMode, Campaign, CampaignFile, PendingBattle};
use super::general;
use super::map::World;
use super::orders::{self, Command as Written, Order};
use super::report;
use super::resolve::{self, EnteredResult, MapEvent};
use crate::dice::SeededDice;
use crate::games::campaign::{
    CampaignRules, Command, Facts, Letter, Line, MailBattle, OnFile, Opening, Pictures, Resolved,
    Returned, Ruling, Seat, SetUp, Sources, Stored, Week,
};
use crate::games::hyborian::army::scenario::{self, BATTLE_TURNS};
use crate::games::hyborian::table::Table;
use crate::games::{GameResult, Json, RulesetError};
use crate::sim::Style;
use std::collections::BTreeMap;

/// The Hyborean world campaign (rules digest §12).
pub struct HyboreanCampaign;

fn damaged(e: impl std::fmt::Display) -> RulesetError {
    RulesetError::Corrupt(e.to_string())
}

fn campaign(state: &Stored) -> Result<Campaign, RulesetError> {
    serde_json::from_str(state).map_err(damaged)
}

fn stored(c: &Campaign) -> Result<String, RulesetError> {
    serde_json::to_string(c).map_err(damaged)
}

fn world() -> Result<World, RulesetError> {
    World::hyborea().map_err(damaged)
}

/// Orders as the resolver reads them.
fn typed(lines: &[Line<Json>]) -> Result<Vec<Line<Order>>, RulesetError> {
    lines
        .iter()
        .map(|l| {
            Ok(Line {
                number: l.number,
                text: l.text.clone(),
                item: serde_json::from_value(l.item.clone()).map_err(damaged)?,
            })
        })
        .collect()
}

fn typed_all(
    orders: &BTreeMap<String, Vec<Line<Json>>>,
) -> Result<BTreeMap<String, Vec<Line<Order>>>, RulesetError> {
    orders
        .iter()
        .map(|(p, l)| Ok((p.clone(), typed(l)?)))
        .collect()
}

fn events(week: &Week<'_>) -> Result<Vec<MapEvent>, RulesetError> {
    week.events
        .map_or(Ok(Vec::new()), |e| serde_json::from_str(e).map_err(damaged))
}

impl SetUp for CampaignFile {
    fn id(&self) -> &str {
        &self.id
    }

    fn opening(&self) -> Result<Opening, String> {
        let c = self
            .start(&World::hyborea().map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        let seat = |id: &str, p: &super::game::Player| Seat {
            id: id.to_string(),
            address: p.address.clone(),
            password: p.password.clone(),
            general: None,
        };
        Ok(Opening {
            id: c.id.clone(),
            title: c.title.clone(),
            state: serde_json::to_string(&c).map_err(|e| e.to_string())?,
            secretary: seat("", &self.secretary),
            powers: self
                .powers
                .iter()
                .map(|p| Seat {
                    id: p.id.clone(),
                    address: p.address.clone(),
                    password: p.password.clone(),
                    general: p.general,
                })
                .collect(),
        })
    }
}

/// A written command as the post office carries it: the office's own, or
/// the rules' (kept as JSON for [`CampaignRules::secretary`]).
fn command(c: Written) -> Command {
    match c {
        Written::Digest => Command::Digest,
        Written::Cancel { power, line } => Command::Cancel { power, line },
        Written::Resolve => Command::Resolve,
        Written::Rerun { turn, without } => Command::Rerun { turn, without },
        Written::Extend { hours } => Command::Extend { hours },
        Written::Replace { power, address } => Command::Replace { power, address },
        Written::ReplaceGeneral { power, style } => Command::ReplaceGeneral { power, style },
        Written::Status => Command::Status,
        Written::Help => Command::Help,
        own @ (Written::Result { .. }
        | Written::Choose { .. }
        | Written::Place { .. }
        | Written::Losses { .. }) => {
            Command::Rules(serde_json::to_value(own).expect("a campaign command is plain data"))
        }
    }
}

impl CampaignRules for HyboreanCampaign {
    fn is_campaign_mail(&self, text: &str) -> bool {
        orders::is_campaign_mail(text)
    }

    fn read(&self, text: &str) -> Letter {
        let l = orders::read(text);
        Letter {
            header: l.header,
            orders: l
                .orders
                .into_iter()
                .map(|o| Line {
                    number: o.number,
                    text: o.text,
                    item: serde_json::to_value(o.item).expect("an order is plain data"),
                })
                .collect(),
            commands: l
                .commands
                .into_iter()
                .map(|c| Line {
                    number: c.number,
                    text: c.text,
                    item: command(c.item),
                })
                .collect(),
            errors: l.errors,
        }
    }

    fn guide(&self) -> &'static str {
        orders::GUIDE
    }

    fn secretary_guide(&self) -> &'static str {
        SECRETARY_GUIDE
    }

    fn facts(&self, state: &Stored) -> Result<Facts, RulesetError> {
        let c = campaign(state)?;
        Ok(Facts {
            date: c.date(),
            turn: c.turn,
            week_hours: c.settings.week_hours,
            reminder_hours: c.settings.reminder_hours,
            pending: c.pending.iter().map(|b| b.id).collect(),
            id: c.id,
            title: c.title,
        })
    }

    fn check(
        &self,
        state: &Stored,
        power: &str,
        orders: &[Line<Json>],
    ) -> Result<Vec<Option<String>>, RulesetError> {
        let world = world()?;
        let judged = resolve::as_ordered(&campaign(state)?, &world);
        // Each order judged as the earlier ones of the letter leave the
        // army (a second raise against the first's figures), as the week
        // will judge it.
        let lines = typed(orders)?;
        Ok(
            resolve::check_all(&judged, &world, power, lines.iter().map(|l| &l.item))
                .into_iter()
                .map(Result::err)
                .collect(),
        )
    }

    fn resolve(
        &self,
        state: &Stored,
        orders: &BTreeMap<String, Vec<Line<Json>>>,
        results: &[Json],
        seed: [u8; 32],
    ) -> Result<Resolved, RulesetError> {
        let results: Vec<EnteredResult> = results
            .iter()
            .map(|j| serde_json::from_value(j.clone()).map_err(damaged))
            .collect::<Result<_, _>>()?;
        let r = resolve::resolve(
            &campaign(state)?,
            &world()?,
            &typed_all(orders)?,
            &results,
            &mut SeededDice::new(seed),
        )
        .map_err(|e| RulesetError::Engine(e.to_string()))?;
        Ok(Resolved {
            state: stored(&r.campaign)?,
            events: serde_json::to_string(&r.events).map_err(damaged)?,
            count: r.events.len(),
        })
    }

    fn pictures(
        &self,
        state: &Stored,
        reader: Option<&str>,
        week: &Week<'_>,
    ) -> Result<Pictures, RulesetError> {
        let c = campaign(state)?;
        let events = events(week)?;
        let orders = typed_all(week.orders)?;
        let week = as_report(week, &events, &orders);
        Ok(Pictures {
            map: report::svg(&c, &world()?, reader),
            battles: report::battle_pictures(&week, reader)
                .into_iter()
                .map(|(id, svg)| (id, svg.to_string()))
                .collect(),
        })
    }

    fn public_map(&self, state: &Stored) -> Result<String, RulesetError> {
        // A reader who is no power sees no province and no army: only the
        // owners' colours every map shows (ruling CA-15).
        Ok(report::svg(
            &campaign(state)?,
            &world()?,
            Some("the public map"),
        ))
    }

    fn report(
        &self,
        state: &Stored,
        reader: Option<&str>,
        week: &Week<'_>,
        sources: Option<&Sources>,
    ) -> Result<(String, Option<String>), RulesetError> {
        let c = campaign(state)?;
        let world = world()?;
        let events = events(week)?;
        let orders = typed_all(week.orders)?;
        let week = as_report(week, &events, &orders);
        let text = report::text(&c, &world, reader, &week);
        let html = sources.map(|s| {
            let shown: BTreeMap<u32, String> = s.battles.clone();
            report::html(&c, &world, reader, &week, s.map.as_deref(), &shown)
        });
        Ok((text, html))
    }

    fn digest(&self, state: &Stored, on_file: &OnFile) -> Result<String, RulesetError> {
        let on_file: report::OnFile = on_file
            .iter()
            .map(|(p, l)| Ok((p.clone(), l.as_deref().map(typed).transpose()?)))
            .collect::<Result<_, RulesetError>>()?;
        Ok(report::digest(&campaign(state)?, &world()?, &on_file))
    }

    fn status(&self, state: &Stored) -> Result<String, RulesetError> {
        let c = campaign(state)?;
        let mut out = String::new();
        for b in &c.pending {
            out.push_str(&format!(
                "Battle {} at {} awaits its result: armies {}; {}{}\n",
                b.id,
                b.province,
                b.all_armies().join(", "),
                report::how_fought(&c, b),
                b.why.as_ref().map_or(String::new(), |w| format!(
                    " (the table could not be set: {w})"
                ))
            ));
        }
        for p in c.powers.values() {
            out.push_str(&format!("Treasury of {}: {} points\n", p.id, p.treasury));
        }
        Ok(out)
    }

    fn secretary(
        &self,
        state: &Stored,
        command: &Json,
        text: &str,
    ) -> Result<Ruling, RulesetError> {
        let c = campaign(state)?;
        let written: Written = serde_json::from_value(command.clone()).map_err(damaged)?;
        match written {
            Written::Result {
                battle,
                winner,
                losses,
            } => enter_result(&c, text, battle, &winner, &losses),
            Written::Choose { battle, by } => choose(c, battle, by),
            Written::Place { army, province } => place(c, text, &army, &province),
            Written::Losses { army, points } => take_losses(c, text, &army, points),
            other => Err(RulesetError::Engine(format!(
                "{other:?} is the post office's command"
            ))),
        }
    }

    fn general_letter(
        &self,
        state: &Stored,
        power: &str,
        style: Style,
        seed: [u8; 32],
    ) -> Result<String, RulesetError> {
        let world = world()?;
        // The week as its orders are judged (in winter, the new year's).
        let c = resolve::as_ordered(&campaign(state)?, &world);
        if !c.powers.contains_key(power) {
            return Err(RulesetError::Engine(format!(
                "campaign {} has no power '{power}'",
                c.id
            )));
        }
        let view = fog::view(&c, &world, Some(power));
        Ok(general::letter(&view, &world, style, seed))
    }

    fn mail_battles(&self, state: &Stored) -> Result<Vec<MailBattle>, RulesetError> {
        let c = campaign(state)?;
        let world = world()?;
        Ok(c.pending
            .iter()
            .filter(|b| b.by == BattleMode::Mail)
            .map(|b| MailBattle {
                battle: b.id,
                game_id: b.game_id(&c.id),
                title: format!("{}: battle {}", c.title, b.id),
                ruleset: crate::games::hyborian::RULESET,
                scenario: by_mail::scenario(&c, &world, b),
                powers: by_mail::powers(&c, b),
                turns: BATTLE_TURNS,
                turn_hours: c.settings.battle_turn_hours,
            })
            .collect())
    }

    fn not_by_mail(&self, state: &Stored, battle: u32, why: &str) -> Result<String, RulesetError> {
        let mut c = campaign(state)?;
        if let Some(p) = c.pending.iter_mut().find(|p| p.id == battle) {
            p.by = BattleMode::Secretary;
            p.why = Some(why.to_string());
        }
        stored(&c)
    }

    fn returned(
        &self,
        state: &Stored,
        battle: u32,
        setup: &str,
        last: &Json,
        result: Option<&GameResult>,
    ) -> Result<Option<Returned>, RulesetError> {
        let c = campaign(state)?;
        let Some(b) = c.pending.iter().find(|b| b.id == battle) else {
            return Ok(None);
        };
        let end: Table = serde_json::from_value(last.clone()).map_err(damaged)?;
        let loaded = scenario::load(setup).map_err(damaged)?;
        // The battle game ended on its own verdict; whether both armies
        // broke in that last turn is read from the same verdict.
        let both_broke = loaded
            .scenario
            .as_ref()
            .is_some_and(|sc| scenario::assess(sc, &end, false).all_broken);
        let won = match result {
            Some(GameResult::Won { side }) => Some(side.as_str()),
            _ => None,
        };
        let r = by_mail::result(&c, b, &loaded.table, &end, won, both_broke);
        let lost = r
            .figures
            .iter()
            .map(|(army, units)| {
                let parts: Vec<String> = units
                    .iter()
                    .filter(|(_, n)| **n > 0)
                    .map(|(u, n)| format!("{n} {u}"))
                    .collect();
                format!(
                    "{army}: {}",
                    if parts.is_empty() {
                        "none".to_string()
                    } else {
                        parts.join(", ")
                    }
                )
            })
            .collect();
        Ok(Some(Returned {
            entered: serde_json::to_string(&r).map_err(damaged)?,
            winner: r.winner.clone(),
            both_broke,
            lost,
        }))
    }
}

/// The report's view of a week, its events and orders read.
fn as_report<'a>(
    week: &Week<'a>,
    events: &'a [MapEvent],
    orders: &'a BTreeMap<String, Vec<Line<Order>>>,
) -> report::Week<'a> {
    report::Week {
        played: week.played,
        events,
        orders,
        dice: week.dice,
        intro: week.intro,
    }
}

/// The secretary's commands, for HELP.
const SECRETARY_GUIDE: &str = "\
The secretary's commands (after CAMPAIGN <campaign> SECRETARY PASSWORD <password>):
  battle <n> won by <power> losses <army> <points>, <army> <points>
                  the result of a battle fought face to face (points lost)
  battle <n> by mail|engine|secretary
                  how a waiting battle is fought: a battle game by mail
                  between the two powers' players, the engine at the next
                  resolution, or face to face with your result
  digest          every power's orders of the week, numbered and checked
  cancel <power> <n>
                  drop a power's n-th order of the week (the digest's number)
  status          every power's orders, battles awaiting results, treasuries
  resolve         play the week now with the orders in
  rerun           play the week last resolved again: same state before,
                  orders and dice; every power gets a CORRECTED report
  rerun without <power> <n>, <power> <n>
                  the same, without those orders (numbered as that week's
                  digest, at the top of your report of it)
  move <army> to <province>
                  place an army (a correction); only its power is told
  edit <army> losses <points>
                  take points of figures off an army (a correction)
  extend <hours>  the week's deadline later, 1 to 336 hours; powers told
  replace <power> <new address>
                  hand a power to another player: a fresh password to the
                  new address; the old password stops working
  replace <power> general <style>
                  hand a power to the umpire's general (aggressive or
                  cautious); it writes this week's orders at once
  help            this list
A power the set-up file gives to the umpire's general (general =
\"aggressive\" or \"cautious\" instead of address and password) has its
orders written as each week opens; replace hands it to a player.";

/// `battle N won by POWER losses ARMY POINTS, …`: the result of a battle
/// fought face to face, recorded for the next resolution.
fn enter_result(
    c: &Campaign,
    text: &str,
    battle: u32,
    winner: &str,
    losses: &[(String, u32)],
) -> Result<Ruling, RulesetError> {
    let Some(b) = c.pending.iter().find(|b| b.id == battle) else {
        return Ok(answer(format!(
            "{text}: there is no battle {battle} awaiting a result"
        )));
    };
    let (said, losses) = match check_result(c, b, winner, losses) {
        Ok(ok) => ok,
        Err(why) => return Ok(answer(format!("{text}: NOT RECORDED: {why}"))),
    };
    let winner = b
        .all_armies()
        .iter()
        .filter_map(|a| c.armies.get(a))
        .map(|a| a.commander().to_string())
        .find(|p| p.eq_ignore_ascii_case(winner))
        .unwrap_or_default();
    let r = EnteredResult {
        battle,
        winner: Some(winner),
        losses,
        figures: BTreeMap::new(),
        by: BattleMode::Secretary,
        picture: None,
        both_broke: false,
    };
    Ok(Ruling {
        answer: format!(
            "battle {battle}: result recorded ({said}); it takes effect when the week is resolved"
        ),
        result: Some((battle, serde_json::to_string(&r).map_err(damaged)?)),
        ..Ruling::default()
    })
}

fn answer(text: String) -> Ruling {
    Ruling {
        answer: text,
        ..Ruling::default()
    }
}

/// Whether a secretary's result can be recorded: the winner fought, every
/// army named fought and is named once, no army lost more than it is
/// worth, and losses entered come to at least a figure. `Ok` says what the
/// losses come to in figures.
fn check_result(
    c: &Campaign,
    b: &PendingBattle,
    winner: &str,
    losses: &[(String, u32)],
) -> Result<(String, Vec<(String, u32)>), String> {
    let armies: Vec<&Army> = b
        .all_armies()
        .iter()
        .filter_map(|a| c.armies.get(a))
        .collect();
    let mut powers: Vec<&str> = armies.iter().map(|a| a.commander()).collect();
    powers.dedup();
    let Some(w) = powers.iter().find(|p| p.eq_ignore_ascii_case(winner)) else {
        return Err(format!(
            "battle {} was between {}; write one of them after 'won by'",
            b.id,
            powers.join(" and ")
        ));
    };
    let mut told = Vec::new();
    let mut out: Vec<(String, u32)> = Vec::new();
    for (army, points) in losses {
        let a = lost_by(&armies, b, army, *points, &out)?;
        told.push(format!("{}: {}", a.id, figures_lost(a, *points)?));
        out.push((a.id.clone(), *points));
    }
    Ok((
        format!("{w} won; figures lost before recovery: {}", told.join("; ")),
        out,
    ))
}

/// The army a result's `ARMY POINTS` names, if it fought, is named once
/// and can lose so much.
fn lost_by<'a>(
    armies: &[&'a Army],
    b: &PendingBattle,
    army: &str,
    points: u32,
    seen: &[(String, u32)],
) -> Result<&'a Army, String> {
    let Some(a) = armies.iter().find(|a| a.id.eq_ignore_ascii_case(army)) else {
        let names: Vec<&str> = armies.iter().map(|a| a.id.as_str()).collect();
        return Err(format!(
            "army '{army}' did not fight battle {}; its armies are {}",
            b.id,
            names.join(", ")
        ));
    };
    if seen.iter().any(|(id, _)| *id == a.id) {
        return Err(format!(
            "army {} is named twice; give its losses once",
            a.id
        ));
    }
    if points > a.points() {
        return Err(format!(
            "army {} is worth {} points, so it cannot lose {points}; at most {}",
            a.id,
            a.points(),
            a.points()
        ));
    }
    Ok(a)
}

/// What `points` of losses come to in an army's figures, in words.
fn figures_lost(a: &Army, points: u32) -> Result<String, String> {
    let figures = resolve::share_of(&a.contents, points);
    let taken: u32 = figures.values().sum();
    if points > 0 && taken == 0 {
        return Err(format!(
            "{points} points is less than half a figure of army {}; write 0 or more points",
            a.id
        ));
    }
    let parts: Vec<String> = figures
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(u, n)| format!("{n} {u}"))
        .collect();
    Ok(if parts.is_empty() {
        "no losses".to_string()
    } else {
        parts.join(", ")
    })
}

/// `battle N by mail|engine|secretary`: how a waiting battle is fought
/// (ruling CA-18). By mail, the post office makes its game.
fn choose(mut c: Campaign, battle: u32, by: BattleMode) -> Result<Ruling, RulesetError> {
    if let Err(why) = c.choose(battle, by) {
        return Ok(answer(format!(
            "battle {battle} by {}: NOT DONE: {why}",
            by.word()
        )));
    }
    let said = match by {
        BattleMode::Secretary => {
            format!("battle {battle} waits for your result (battle {battle} won by … losses …)")
        }
        BattleMode::Engine => {
            format!("battle {battle} will be fought by the engine when the week is resolved")
        }
        BattleMode::Mail => String::new(),
    };
    Ok(Ruling {
        answer: said,
        state: Some(stored(&c)?),
        by_mail: (by == BattleMode::Mail).then_some(battle),
        ..Ruling::default()
    })
}

/// A correction of an army (ruling CA-31): the campaign as corrected, and
/// the powers the army answers to (its owner, and its employer if hired)
/// told — them only, so no other power learns of it.
fn corrected(
    fixed: &Campaign,
    army: &str,
    done: String,
    notice: String,
) -> Result<Ruling, RulesetError> {
    let powers: Vec<String> = fixed.armies.get(army).map_or(Vec::new(), |a| {
        let mut p = vec![a.owner.clone()];
        p.extend(a.hired_by.iter().filter(|h| **h != a.owner).cloned());
        p
    });
    let told = match powers.len() {
        0 => "nobody is".to_string(),
        1 => format!("{} is", powers[0]),
        _ => format!("{} are", powers.join(" and ")),
    };
    Ok(Ruling {
        answer: format!("{done}; {told} told"),
        state: Some(stored(fixed)?),
        tell: powers.into_iter().map(|p| (p, notice.clone())).collect(),
        audit: Some(format!("secretary corrected army {army}")),
        ..Ruling::default()
    })
}

/// `move ARMY to PROVINCE`: the secretary places an army.
fn place(mut c: Campaign, text: &str, army: &str, province: &str) -> Result<Ruling, RulesetError> {
    match correct::place(&mut c, &world()?, army, province) {
        Ok((army, name)) => {
            let notice = format!(
                "The secretary of {} has placed your army {army} in {name}, to correct the campaign; it stands there in the field.\n",
                c.title
            );
            corrected(
                &c,
                &army,
                format!("{text}: done: army {army} stands in {name}"),
                notice,
            )
        }
        Err(why) => Ok(answer(format!("{text}: NOT DONE: {why}"))),
    }
}

/// `edit ARMY losses POINTS`: the secretary takes figures off an army.
fn take_losses(
    mut c: Campaign,
    text: &str,
    army: &str,
    points: u32,
) -> Result<Ruling, RulesetError> {
    match correct::take_losses(&mut c, army, points) {
        Ok((army, lost)) => {
            let figures = lost
                .iter()
                .map(|(u, n)| format!("{n} {u}"))
                .collect::<Vec<_>>()
                .join(", ");
            let notice = format!(
                "The secretary of {} has taken {points} points off your army {army}, to correct the campaign: {figures}.\n",
                c.title
            );
            corrected(
                &c,
                &army,
                format!("{text}: done: army {army} loses {figures}"),
                notice,
            )
        }
        Err(why) => Ok(answer(format!("{text}: NOT DONE: {why}"))),
    }
}
