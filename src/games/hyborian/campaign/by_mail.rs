//! Battles by mail (ruling CA-18): a waiting battle becomes a scenario for
//! a battle game between the two powers' players — the card's table, each
//! power's armies as one host ([`battle::host`]) along the edge it came
//! from, the sides named after the powers — and the game's last table comes
//! back as an [`EnteredResult`], which the week applies exactly as a result
//! the secretary entered.
//!
//! ```no_run
//! # use umpire::games::hyborian::campaign::{by_mail, game::Campaign, map::World};
//! # fn f(c: &Campaign, world: &World) -> Result<(), String> {
//! let b = &c.pending[0];
//! let scenario_toml = by_mail::scenario(c, world, b)?;
//! # Ok(()) }
//! ```

use super::battle::{self, Card, Edge};
use super::game::{Army, BattleMode, Campaign, PendingBattle};
use super::map::World;
use super::resolve::EnteredResult;
use crate::games::hyborian::table::Table;
use std::collections::BTreeMap;

/// Each side's host as it stands on the table, its id its power's (the
/// game's side), and for each of its unit names the army and the unit's own
/// name there.
type Host = (Army, BTreeMap<String, (String, String)>);

fn hosts(c: &Campaign, b: &PendingBattle) -> [Host; 2] {
    b.sides().map(|ids| {
        let armies: Vec<Army> = ids
            .iter()
            .filter_map(|a| c.armies.get(a).cloned())
            .collect();
        let (mut host, names) = battle::host(&armies);
        host.id = host.commander().to_string();
        (host, names)
    })
}

/// The powers of the two sides (the game's side ids), the attacker first.
pub fn powers(c: &Campaign, b: &PendingBattle) -> [String; 2] {
    hosts(c, b).map(|(h, _)| h.id)
}

/// The battle game's scenario as TOML (the table of `table::setup` and the
/// scenario keys of `army::scenario`): the card's terrain on a table
/// `table_feet` long, each host on its edge, won by breaking the enemy
/// (half its points) within 12 turns, as the engine's battles are.
///
/// # Errors
/// The reason, when an army cannot be deployed on the table.
pub fn scenario(c: &Campaign, world: &World, b: &PendingBattle) -> Result<String, String> {
    let [att, def] = hosts(c, b);
    let (n, s) = if b.north == 0 {
        (&att.0, &def.0)
    } else {
        (&def.0, &att.0)
    };
    let card = Card {
        number: b.card,
        kind: battle::card_kind(b.card),
        draws: 1,
    };
    let setup = battle::table_setup(&card, b.table_feet, n, s).map_err(|e| e.to_string())?;
    let place = world
        .province(&b.province)
        .map_or(b.province.as_str(), |p| p.name.as_str());
    let mut sc = battle::breaking(
        &format!("Battle {} at {place}", b.id),
        [n, s]
            .into_iter()
            .map(|h| (h.id.as_str(), h.contents.nation.as_str())),
        setup.table.width,
    );
    // Each host stands along its own edge, not anywhere on the table.
    for (side, edge) in sc.sides.iter_mut().zip([Edge::North, Edge::South]) {
        side.zone = battle::edge_zone(edge, setup.table.width);
    }
    sc.source = Some(format!("the campaign {} ({})", c.title, c.id));
    let armies = |k: usize| b.sides()[k].join(", ");
    let (north_side, south_side) = if b.north == 0 { (0, 1) } else { (1, 0) };
    sc.briefing =
        format!(
        "Battle {} of the campaign {}, at {place}, {}: terrain card {} ({}), {} {}-foot table. \
         {} (armies {}) stands on the north edge, {} (armies {}) on the south edge, each on the \
         side it came from. The battle is won by breaking the enemy (half its points lost) within \
         {} turns. When it ends, the losses and who broke go back to the campaign; the armies stay \
         where they are until then.",
        b.id,
        c.title,
        if b.week.is_empty() { c.date() } else { b.week.clone() },
        card.number,
        card.kind.words(),
        crate::report::article(b.table_feet),
        b.table_feet,
        [&att.0, &def.0][north_side].id,
        armies(north_side),
        [&att.0, &def.0][south_side].id,
        armies(south_side),
        sc.turns
    );
    let mut doc = toml::Table::try_from(&setup).map_err(|e| e.to_string())?;
    doc.extend(toml::Table::try_from(&sc).map_err(|e| e.to_string())?);
    toml::to_string(&doc).map_err(|e| e.to_string())
}

/// What a battle game that ended comes to for the campaign: the figures
/// each army's units lost between the game's first table and its last
/// (units routed off, surrendered or gone count whole), and the power
/// whose side won (`won`, the game's result: the side that broke the
/// other, or of two that broke in the same turn the one over its half by
/// less; `None`, a battle without a victor). `both_broke` says the two
/// broke together (ruling A-25), which the week's report tells.
pub fn result(
    c: &Campaign,
    b: &PendingBattle,
    start: &Table,
    end: &Table,
    won: Option<&str>,
    both_broke: bool,
) -> EnteredResult {
    let hosts = hosts(c, b);
    let lost = battle::losses(start, end);
    let mut figures: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for (host, names) in &hosts {
        for (unit, n) in lost.get(&host.id).into_iter().flatten() {
            if let Some((army, own)) = names.get(unit) {
                figures
                    .entry(army.clone())
                    .or_default()
                    .insert(own.clone(), *n);
            }
        }
    }
    let winner = won.and_then(|w| {
        hosts
            .iter()
            .find(|(h, _)| h.id.eq_ignore_ascii_case(w))
            .map(|(h, _)| h.id.clone())
    });
    EnteredResult {
        battle: b.id,
        winner,
        losses: Vec::new(),
        figures,
        by: BattleMode::Mail,
        picture: Some(battle::last_table_svg(b.id, end)),
        both_broke,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::army::scenario;
    use crate::games::hyborian::campaign::game::CampaignFile;
    use crate::games::hyborian::campaign::resolve::resolve;
    use crate::games::hyborian::dice::SeededDice;

    fn met() -> (Campaign, World) {
        let file = CampaignFile::load(
            r#"id = "dragon"
title = "The Hour of the Dragon"
[secretary]
address = "s@x"
password = "p"
[settings]
battles = "mail"
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "attalus"
points = 400
[[power]]
id = "nemedia"
nation = "nemedia"
address = "n@x"
password = "p"
[[power.army]]
province = "nemedian-marches"
points = 400
"#,
        )
        .unwrap();
        let world = World::hyborea().unwrap();
        let c = file.start(&world).unwrap();
        let orders = crate::games::hyborian::campaign::orders::read(
            "CAMPAIGN dragon POWER aquilonia PASSWORD p\narmy aquilonia-1 move to Nemedian Marches\nEND",
        )
        .orders;
        let r = resolve(
            &c,
            &world,
            &[("aquilonia".to_string(), orders)].into(),
            &[],
            &mut SeededDice::new([5; 32]),
        )
        .unwrap();
        (r.campaign, world)
    }

    #[test]
    fn a_battle_by_mail_waits_with_its_table_and_comes_back_as_a_result() {
        let (c, world) = met();
        let b = c.pending.first().expect("the armies met");
        assert_eq!(b.by, BattleMode::Mail);
        assert_eq!(b.game_id("dragon"), "dragon-b1");
        assert_eq!(powers(&c, b), ["aquilonia", "nemedia"]);
        let text = scenario(&c, &world, b).unwrap();
        let loaded = scenario::load(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(
            loaded.table.sides().into_iter().collect::<Vec<_>>(),
            ["aquilonia", "nemedia"]
        );
        assert_eq!(loaded.table.width, f64::from(b.table_feet) * 12.0);
        let sc = loaded.scenario.as_ref().unwrap();
        assert!(
            sc.briefing.contains("Battle 1 of the campaign"),
            "{}",
            sc.briefing
        );
        // Nothing happened: nothing lost, no winner.
        let same = result(&c, b, &loaded.table, &loaded.table, None, false);
        assert_eq!(same.winner, None);
        assert!(same
            .figures
            .values()
            .flat_map(|u| u.values())
            .all(|n| *n == 0));
        // A unit of Nemedia gone from the table counts whole, in its army.
        let mut end = loaded.table.clone();
        let gone = end.units_of("nemedia").next().unwrap().id.clone();
        let (name, figures) = {
            let u = &end.units[&gone];
            (u.name.clone(), u.figures)
        };
        end.units.remove(&gone);
        let r = result(&c, b, &loaded.table, &end, Some("Aquilonia"), false);
        assert_eq!(r.winner.as_deref(), Some("aquilonia"));
        assert_eq!(r.figures["nemedia-1"][&name], figures);
        assert_eq!(r.by, BattleMode::Mail);
        // The week applies it as an entered result: Nemedia falls back.
        let next = resolve(
            &c,
            &world,
            &BTreeMap::new(),
            &[r],
            &mut SeededDice::new([6; 32]),
        )
        .unwrap();
        assert!(next.campaign.pending.is_empty());
        assert!(next.events.iter().any(|e| matches!(
            e,
            crate::games::hyborian::campaign::resolve::MapEvent::Battle { by, winner: Some(w), .. }
                if by == "mail" && w == "aquilonia"
        )));
        assert_ne!(
            next.campaign.armies["nemedia-1"].province,
            "nemedian-marches"
        );
    }

    #[test]
    fn armies_in_a_battle_by_mail_stand_and_take_no_orders() {
        let (c, world) = met();
        let orders = crate::games::hyborian::campaign::orders::read(
            "CAMPAIGN dragon POWER nemedia PASSWORD p\narmy nemedia-1 move to Belverus\nraise 10 Nemedian Knights\nEND",
        )
        .orders;
        let next = resolve(
            &c,
            &world,
            &[("nemedia".to_string(), orders)].into(),
            &[],
            &mut SeededDice::new([7; 32]),
        )
        .unwrap();
        assert_eq!(next.campaign.pending.len(), 1, "still waiting");
        assert_eq!(
            next.campaign.armies["nemedia-1"].province,
            "nemedian-marches"
        );
        assert!(next.events.iter().any(|e| matches!(
            e,
            crate::games::hyborian::campaign::resolve::MapEvent::Refused { why, .. }
                if why.contains("awaits the result of battle 1")
        )));
    }

    /// Both hosts lose most of their units in the game's last turn: the
    /// game's verdict says both broke, and so must the campaign (issue 45,
    /// item 1, by mail): the secretary's notice and the week's battle
    /// event say both broke, not "one side broke".
    #[test]
    fn a_battle_by_mail_where_both_armies_broke_comes_back_so() {
        use crate::games::campaign::CampaignRules;
        use crate::games::hyborian::campaign::desk::HyboreanCampaign;
        use crate::games::hyborian::campaign::resolve::MapEvent;
        use crate::games::hyborian::table::Status;
        let (c, world) = met();
        let b = c.pending.first().expect("the armies met");
        let setup = scenario(&c, &world, b).unwrap();
        let start = scenario::load(&setup).unwrap().table;
        let mut end = start.clone();
        // Aquilonia loses all but its commander, Nemedia all but one unit
        // more: each is far past its half, Aquilonia by more.
        for side in ["aquilonia", "nemedia"] {
            let mut ids: Vec<String> = end.units_of(side).map(|u| u.id.clone()).collect();
            ids.sort();
            let keep = usize::from(side == "nemedia");
            for id in ids.iter().skip(1 + keep) {
                end.units.get_mut(id).unwrap().status = Status::Rout;
            }
        }
        let last = serde_json::to_value(&end).unwrap();
        let state = serde_json::to_string(&c).unwrap();
        let sc = scenario::load(&setup).unwrap().scenario.unwrap();
        let verdict = scenario::assess(&sc, &end, false);
        assert!(verdict.all_broken, "{verdict:?}");
        let won = verdict
            .winner
            .clone()
            .map(|side| crate::report::GameResult::Won { side });
        let back = HyboreanCampaign
            .returned(&state, b.id, &setup, &last, won.as_ref())
            .unwrap()
            .expect("the battle waits");
        assert!(back.both_broke);
        let entered: EnteredResult = serde_json::from_str(&back.entered).unwrap();
        assert!(entered.both_broke);
        let next = resolve(
            &c,
            &world,
            &BTreeMap::new(),
            &[entered],
            &mut SeededDice::new([6; 32]),
        )
        .unwrap();
        assert!(
            next.events.iter().any(|e| matches!(
                e,
                MapEvent::Battle { both_broke: true, by, .. } if by == "mail"
            )),
            "{:?}",
            next.events
        );
    }
}
