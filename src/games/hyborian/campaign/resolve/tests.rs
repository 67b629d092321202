use super::losses::{gross_points, recover, unit_cost};
use super::*;
use crate::games::hyborian::army::UnitLine;
use crate::games::hyborian::campaign::game::{find_list, guard_units, lists, CampaignFile};
use crate::games::hyborian::campaign::orders::read;
use crate::games::hyborian::dice::SeededDice;
use std::collections::BTreeSet;

fn start(weeks: u32) -> (Campaign, World) {
    let text = format!(
        r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[settings]
weeks_per_year = {weeks}
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "tarantia"
points = 600
[[power]]
id = "nemedia"
nation = "nemedia"
address = "n@x"
password = "p"
[[power.army]]
province = "belverus"
points = 400
"#
    );
    let world = World::hyborea().unwrap();
    (
        CampaignFile::load(&text).unwrap().start(&world).unwrap(),
        world,
    )
}

fn orders(power: &str, text: &str) -> BTreeMap<String, Vec<Line<Order>>> {
    [(
        power.to_string(),
        read(&format!("campaign t power {power} password p\n{text}")).orders,
    )]
    .into()
}

fn turn(c: &Campaign, w: &World, o: &BTreeMap<String, Vec<Line<Order>>>) -> Resolved {
    resolve(c, w, o, &[], &mut SeededDice::new([c.turn as u8; 32])).unwrap()
}

#[test]
fn marching_into_hills_takes_two_weeks_for_foot() {
    let (c, w) = start(35);
    let o = orders("nemedia", "army nemedia-1 move to Nemedian Marches");
    let r = turn(&c, &w, &o);
    assert!(
        r.events.iter().any(|e| matches!(
            e,
            MapEvent::OnTheMarch {
                days: 3,
                needed: 3,
                ..
            }
        ) || matches!(e, MapEvent::Marched { .. })),
        "{:?}",
        r.events
    );
    let a = &r.campaign.armies["nemedia-1"];
    let arrived = a.province == "nemedian-marches";
    let mounted = a.mounted();
    assert!(
        arrived,
        "hills cost 3 march days: one week (mounted {mounted})"
    );
    assert_eq!(r.campaign.week, 2);
}

#[test]
fn an_order_for_another_powers_army_is_refused() {
    let (c, w) = start(35);
    let r = turn(
        &c,
        &w,
        &orders("nemedia", "army aquilonia-1 move to Shamar"),
    );
    assert!(
        matches!(&r.events[0], MapEvent::Refused { why, .. } if why.starts_with("you have no army 'aquilonia-1'; yours are: nemedia-1")),
        "{:?}",
        r.events
    );
    assert_eq!(r.campaign.armies["aquilonia-1"].province, "tarantia");
    // A probe learns nothing: another power's army and no army read alike.
    let probe = |army: &str| {
        check(&c, &w, "nemedia", &Order::Halt { army: army.into() })
            .unwrap_err()
            .replace(army, "X")
    };
    assert_eq!(probe("aquilonia-1"), probe("aquilonia-9"));
    // Halting an army that is not marching is refused, not "carried out"
    // (issue 45, item 12).
    assert_eq!(
        check(
            &c,
            &w,
            "nemedia",
            &Order::Halt {
                army: "nemedia-1".into()
            }
        ),
        Err("army nemedia-1 is not marching: halt stops a march under way".into())
    );
}

/// Both powers' armies in Shamar; `came` marched in this week.
fn meeting(c: &mut Campaign, came: &str) {
    for a in c.armies.values_mut() {
        a.province = "shamar".into();
        a.march = None;
        // A stale came_from from an earlier fall back on the other one.
        a.came_from = if a.id == came {
            None
        } else {
            Some("tarantia".into())
        };
    }
    c.armies.get_mut(came).unwrap().province = "tarantia".into();
    c.armies.get_mut(came).unwrap().march = Some(crate::games::hyborian::campaign::game::March {
        to: "shamar".into(),
        days: 9,
    });
}

#[test]
fn in_a_draw_the_army_that_marched_in_falls_back_whatever_came_before() {
    let (mut c, w) = start(35);
    meeting(&mut c, "nemedia-1");
    // No engine result here: the draw (a battle with no winner) is given
    // to after_battle directly.
    let mut t = Turn {
        c: c.clone(),
        world: &w,
        events: Vec::new(),
    };
    let arrived = t.march();
    assert!(arrived.contains("nemedia-1"));
    for a in t.c.armies.values_mut() {
        a.province = "shamar".into();
    }
    let lost: BTreeMap<String, BTreeMap<String, u32>> = [
        (
            "aquilonia-1".to_string(),
            share_of(&c.armies["aquilonia-1"].contents, 100),
        ),
        (
            "nemedia-1".to_string(),
            share_of(&c.armies["nemedia-1"].contents, 100),
        ),
    ]
    .into();
    t.after_battle(
        1,
        "shamar",
        [vec!["nemedia-1".into()], vec!["aquilonia-1".into()]],
        None,
        false,
        [true, false],
        &lost,
        50,
        8,
        "engine",
        None,
    );
    assert!(
        t.events
            .iter()
            .any(|e| matches!(e, MapEvent::FellBack { army, .. } if army == "nemedia-1")),
        "{:?}",
        t.events
    );
    assert_eq!(t.c.armies["aquilonia-1"].province, "shamar");
    let side = |army: &str| {
        t.events
            .iter()
            .find_map(|e| match e {
                MapEvent::Battle { sides, .. } => sides.iter().find(|s| s.army == army).cloned(),
                _ => None,
            })
            .unwrap()
    };
    let (held, fell) = (side("aquilonia-1"), side("nemedia-1"));
    assert!(
        held.recovered * 100 >= (held.lost + held.recovered) * 60,
        "{held:?}"
    );
    assert!(
        fell.recovered * 100 <= (fell.lost + fell.recovered) * 60,
        "{fell:?}"
    );
}

#[test]
fn entered_losses_are_the_points_entered_and_a_winner_recovers_three_quarters() {
    let (c, _) = start(35);
    let f = &c.armies["aquilonia-1"].contents;
    for points in [10, 150, 333] {
        let share = share_of(f, points);
        let gross = gross_points(f, Some(&share));
        let cheapest = (0..f.units.len()).map(|i| unit_cost(f, i)).max().unwrap();
        assert!(gross.abs_diff(points) <= cheapest, "{points}: {gross}");
        assert!(gross > 0, "{points} points take at least a figure");
    }
    let share = share_of(f, 150);
    let mut after = f.clone();
    let before = crate::games::hyborian::campaign::game::contents_points(f);
    recover(&mut after, Some(&share), true);
    let net = before - crate::games::hyborian::campaign::game::contents_points(&after);
    let gross = gross_points(f, Some(&share));
    let back = gross - net;
    assert!(
        back * 100 >= gross * 65 && back * 100 <= gross * 85,
        "{back} of {gross}"
    );
}

#[test]
fn two_armies_of_a_power_in_one_province_fight_together_once() {
    let (mut c, w) = start(35);
    let mut second = c.armies["aquilonia-1"].clone();
    second.id = "aquilonia-7".into();
    c.armies.insert(second.id.clone(), second);
    meeting(&mut c, "nemedia-1");
    for a in c.armies.values_mut().filter(|a| a.owner == "aquilonia") {
        a.province = "shamar".into();
    }
    let r = turn(&c, &w, &BTreeMap::new());
    let battles: Vec<&MapEvent> = r
        .events
        .iter()
        .filter(|e| matches!(e, MapEvent::Battle { .. }))
        .collect();
    assert_eq!(battles.len(), 1, "{:?}", r.events);
    let MapEvent::Battle { sides, .. } = battles[0] else {
        unreachable!()
    };
    let armies: BTreeSet<&str> = sides.iter().map(|s| s.army.as_str()).collect();
    assert_eq!(armies, ["aquilonia-1", "aquilonia-7", "nemedia-1"].into());
}

#[test]
fn winter_raises_are_judged_against_the_new_treasury_and_garrisons_need_walls() {
    let (mut c, w) = start(1);
    c.week = 2; // winter quarters
    c.powers.get_mut("aquilonia").unwrap().treasury = 0;
    let raise = Order::Raise {
        figures: 12,
        designation: "Aquilonians".into(),
    };
    assert!(check(&c, &w, "aquilonia", &raise).is_err());
    assert_eq!(check(&as_ordered(&c, &w), &w, "aquilonia", &raise), Ok(()));
    let r = turn(&c, &w, &orders("aquilonia", "raise 12 Aquilonians"));
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, MapEvent::Raised { figures: 12, .. })),
        "{:?}",
        r.events
    );
    let (c, w) = start(35);
    let mut c2 = c.clone();
    c2.armies.get_mut("aquilonia-1").unwrap().province = "shamar".into();
    let err = check(
        &c2,
        &w,
        "aquilonia",
        &Order::Garrison {
            army: "aquilonia-1".into(),
        },
    );
    assert!(err.unwrap_err().contains("only a capital"));
}

#[test]
fn a_second_guard_unit_is_not_raised() {
    let (mut c, w) = start(35);
    let list = find_list(lists(), "Aquilonia").unwrap();
    let Some((_, guard)) = list.designations().find(|(_, d)| d.is_guard()) else {
        return;
    };
    let a = c.armies.get_mut("aquilonia-1").unwrap();
    if guard_units(&a.contents).is_empty() {
        a.contents.units.push(UnitLine {
            designation: guard.designation.clone(),
            figures: guard.figures.max(),
            name: None,
            crossbows: false,
        });
    }
    let err = check(
        &c,
        &w,
        "aquilonia",
        &Order::Raise {
            figures: 1,
            designation: guard.designation.clone(),
        },
    );
    assert!(err.unwrap_err().contains("guard unit"));
}

#[test]
fn an_occupied_province_is_pacified_after_ten_turns_and_changes_hands_next_year() {
    let (mut c, w) = start(12);
    let mut r = turn(
        &c,
        &w,
        &orders("aquilonia", "army aquilonia-1 move to Nemedian Marches"),
    );
    assert!(
        r.events.iter().any(
            |e| matches!(e, MapEvent::Occupied { province, .. } if province == "nemedian-marches")
        ),
        "{:?}",
        r.events
    );
    for _ in 0..9 {
        c = r.campaign;
        r = turn(&c, &w, &BTreeMap::new());
    }
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, MapEvent::Pacified { .. })),
        "{:?}",
        r.events
    );
    assert_eq!(
        r.campaign.holdings["nemedian-marches"].owner.as_deref(),
        Some("nemedia"),
        "points move only next year"
    );
    c = r.campaign;
    while !c.winter() {
        c = turn(&c, &w, &BTreeMap::new()).campaign;
    }
    let before = c.allowance(&w, "aquilonia");
    let r = turn(&c, &w, &orders("aquilonia", "raise 12 Aquilonians"));
    assert_eq!(
        r.campaign.holdings["nemedian-marches"].owner.as_deref(),
        Some("aquilonia")
    );
    assert_eq!(r.campaign.allowance(&w, "aquilonia"), before + 450);
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, MapEvent::Raised { figures: 12, .. })),
        "{:?}",
        r.events
    );
    assert_eq!((r.campaign.year, r.campaign.week), (2, 1));
}

#[test]
fn a_winter_march_is_refused() {
    let (mut c, w) = start(1);
    c = turn(&c, &w, &BTreeMap::new()).campaign;
    assert!(c.winter());
    let r = turn(
        &c,
        &w,
        &orders("aquilonia", "army aquilonia-1 move to Shamar"),
    );
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, MapEvent::Refused { why, .. } if why.contains("winter"))),
        "{:?}",
        r.events
    );
}

#[test]
fn a_battle_for_the_secretary_waits_for_the_mailed_result() {
    let (mut c, w) = start(35);
    c.settings.battles = crate::games::hyborian::campaign::game::BattleMode::Secretary;
    let mut o = orders("aquilonia", "army aquilonia-1 move to Nemedian Marches");
    o.extend(orders("nemedia", "army nemedia-1 move to Nemedian Marches"));
    let r = turn(&c, &w, &o);
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, MapEvent::BattleAwaits { id: 1, .. })),
        "{:?}",
        r.events
    );
    assert_eq!(r.campaign.pending.len(), 1);
    let c = r.campaign;
    let refused = check(
        &c,
        &w,
        "nemedia",
        &Order::Move {
            army: "nemedia-1".into(),
            to: "Belverus".into(),
        },
    );
    assert_eq!(
        refused,
        Err("army nemedia-1 awaits the result of battle 1".into())
    );
    let result = EnteredResult {
        battle: 1,
        winner: Some("aquilonia".into()),
        losses: vec![("aquilonia-1".into(), 100), ("nemedia-1".into(), 200)],
        figures: BTreeMap::new(),
        by: crate::games::hyborian::campaign::game::BattleMode::Secretary,
        picture: None,
        both_broke: false,
    };
    // The order the confirmation refused stays refused once the result is
    // in (issue 45, item 4): what the player was told is what happens.
    let r = resolve(
        &c,
        &w,
        &orders("nemedia", "army nemedia-1 move to Belverus"),
        &[result],
        &mut SeededDice::new([1; 32]),
    )
    .unwrap();
    assert!(
        r.events.iter().any(|e| matches!(e,
            MapEvent::Refused { why, .. } if why == "army nemedia-1 awaits the result of battle 1")),
        "{:?}",
        r.events
    );
    let battle = r.events.iter().find_map(|e| match e {
        MapEvent::Battle {
            sides, winner, by, ..
        } => Some((sides.clone(), winner.clone(), by.clone())),
        _ => None,
    });
    let (sides, winner, by) = battle.expect("the result is applied");
    assert_eq!(
        (winner.as_deref(), by.as_str()),
        (Some("aquilonia"), "secretary")
    );
    // The winner keeps a quarter of its losses, the loser half.
    for s in &sides {
        let gross = s.lost + s.recovered;
        let kept = if s.power == "aquilonia" {
            gross - gross * 3 / 4
        } else {
            gross - gross / 2
        };
        assert!(s.lost.abs_diff(kept) <= gross / 5 + 12, "{s:?}");
    }
    assert!(
        r.events.iter().any(
            |e| matches!(e, MapEvent::FellBack { army, to: Some(_), .. } if army == "nemedia-1")
        ),
        "{:?}",
        r.events
    );
    assert_ne!(r.campaign.armies["nemedia-1"].province, "nemedian-marches");
    assert!(r.campaign.pending.is_empty());
}

#[test]
fn a_garrison_behind_walls_is_besieged_not_attacked() {
    let (c, w) = start(35);
    let mut o = orders("aquilonia", "army aquilonia-1 move to Nemedian Marches");
    o.extend(orders("nemedia", "army nemedia-1 garrison"));
    let mut c = turn(&c, &w, &o).campaign;
    c = turn(
        &c,
        &w,
        &orders("aquilonia", "army aquilonia-1 move to Belverus"),
    )
    .campaign;
    assert_eq!(c.armies["aquilonia-1"].province, "belverus");
    let r = turn(&c, &w, &orders("aquilonia", "army aquilonia-1 besiege"));
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(e, MapEvent::Battle { .. })),
        "{:?}",
        r.events
    );
    assert!(
        r.events.iter().any(|e| matches!(
            e,
            MapEvent::Besieging {
                weeks: 1,
                needed: 5,
                ..
            }
        )),
        "Aquilonia is Western: {:?}",
        r.events
    );
    assert_eq!(
        r.campaign.holdings["belverus"].occupier, None,
        "a held capital is not occupied"
    );
}

#[test]
fn a_free_company_is_hired_paid_and_goes_home_at_the_year_end() {
    let (c, w) = start(2);
    let text = r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[settings]
weeks_per_year = 2
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "tarantia"
points = 1500
[[power]]
id = "wolves"
nation = "free-companies"
address = "w@x"
password = "p"
[[power.army]]
province = "border-kingdom"
points = 100
"#;
    let _ = c;
    let c = CampaignFile::load(text).unwrap().start(&w).unwrap();
    let mut o = orders(
        "aquilonia",
        "hire wolves for 120 points\npay wolves with Westermarck",
    );
    o.extend(orders("wolves", "serve aquilonia for 100 points"));
    let r = turn(&c, &w, &o);
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, MapEvent::Hired { points: 100, .. })),
        "{:?}",
        r.events
    );
    assert_eq!(
        r.campaign.armies["wolves-1"].hired_by.as_deref(),
        Some("aquilonia")
    );
    assert_eq!(
        r.campaign.powers["aquilonia"].treasury,
        c.powers["aquilonia"].treasury - 100
    );
    // Paid, the province is the company's from next year: until then its
    // points and its colour stay the payer's (issue 45, item 8).
    let paid = &r.campaign.holdings["westermarck"];
    assert_eq!(
        (paid.owner.as_deref(), paid.promised.as_deref()),
        (Some("aquilonia"), Some("wolves"))
    );
    assert_eq!(
        r.campaign.allowance(&w, "aquilonia"),
        c.allowance(&w, "aquilonia")
    );
    assert!(check(
        &r.campaign,
        &w,
        "aquilonia",
        &Order::Pay {
            company: "wolves".into(),
            province: "Westermarck".into()
        }
    )
    .unwrap_err()
    .contains("already promised to wolves"));
    // The employer now commands the company, and the company does not.
    assert!(check(
        &r.campaign,
        &w,
        "aquilonia",
        &Order::Move {
            army: "wolves-1".into(),
            to: "Gunderland".into()
        }
    )
    .is_ok());
    // Issue 45, item 7: the company is told why, not "you have no army".
    let why = check(
        &r.campaign,
        &w,
        "wolves",
        &Order::Garrison {
            army: "wolves-1".into(),
        },
    )
    .unwrap_err();
    assert!(
        why.starts_with("army wolves-1 serves aquilonia until the year ends"),
        "{why}"
    );
    let mut c = r.campaign;
    while !c.winter() {
        c = turn(&c, &w, &BTreeMap::new()).campaign;
    }
    let r = turn(&c, &w, &BTreeMap::new());
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, MapEvent::ContractEnded { .. })),
        "{:?}",
        r.events
    );
    assert_eq!(r.campaign.armies["wolves-1"].hired_by, None);
    let paid = &r.campaign.holdings["westermarck"];
    assert_eq!(
        (paid.owner.as_deref(), paid.promised.as_deref()),
        (Some("wolves"), None),
        "the year's end gives the company the province"
    );
    assert!(
        r.events.iter().any(|e| matches!(e,
        MapEvent::Transferred { province, to, .. } if province == "westermarck" && to == "wolves"))
    );
    assert_eq!(
        r.campaign.allowance(&w, "wolves"),
        200 + 250,
        "its own points and Westermarck's"
    );
    assert_eq!(
        r.campaign.allowance(&w, "aquilonia"),
        3000 - 250,
        "Westermarck paid away"
    );
}

fn company_campaign(w: &World) -> Campaign {
    let text = r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "a@x"
password = "p"
[[power.army]]
province = "tarantia"
points = 1500
[[power]]
id = "nemedia"
nation = "nemedia"
address = "n@x"
password = "p"
[[power.army]]
province = "belverus"
points = 400
[[power]]
id = "wolves"
nation = "free-companies"
address = "w@x"
password = "p"
[[power.army]]
province = "border-kingdom"
points = 100
"#;
    CampaignFile::load(text).unwrap().start(w).unwrap()
}

/// Issue 45, item 7: a `serve` that makes no contract is refused, not
/// reported carried out; a company already hired cannot serve again.
#[test]
fn a_serve_without_a_contract_is_refused() {
    let w = World::hyborea().unwrap();
    let c = company_campaign(&w);
    let o = orders("wolves", "serve aquilonia for 100 points");
    let r = turn(&c, &w, &o);
    assert!(
        r.events.iter().any(|e| matches!(e, MapEvent::Refused { power, why, number: Some(2), .. }
            if power == "wolves" && why.starts_with("no contract was made: aquilonia did not hire you"))),
        "{:?}",
        r.events
    );
    assert!(!r.events.iter().any(|e| matches!(e, MapEvent::Hired { .. })));
    let may_not = check(
        &c,
        &w,
        "wolves",
        &Order::Serve {
            employer: "nemedia".into(),
            points: 50,
        },
    )
    .unwrap_err();
    assert!(may_not.contains("may not hire Free Companies"), "{may_not}");
    let mut o = orders("aquilonia", "hire wolves for 120 points");
    o.extend(orders("wolves", "serve aquilonia for 100 points"));
    let hired = turn(&c, &w, &o).campaign;
    let again = check(
        &hired,
        &w,
        "wolves",
        &Order::Serve {
            employer: "nemedia".into(),
            points: 50,
        },
    )
    .unwrap_err();
    assert!(
        again.contains("serves aquilonia until the year ends"),
        "{again}"
    );
}

/// Issue 45, item 2: several raises in one mail are judged one after the
/// other, each against the armies as the raises before it leave them; they
/// were each judged against the week's start, so every one of six
/// `raise 12 Royal Cavalry` was carried out, far past Koth's 0–10%.
#[test]
fn raises_in_one_mail_are_judged_one_after_the_other() {
    let w = World::hyborea().unwrap();
    let text = r#"id = "t"
title = "T"
[secretary]
address = "s@x"
password = "p"
[[power]]
id = "koth"
nation = "koth"
address = "k@x"
password = "p"
[[power.army]]
province = "khorshemish"
points = 1500
"#;
    let mut c = CampaignFile::load(text).unwrap().start(&w).unwrap();
    c.powers.get_mut("koth").unwrap().treasury = 5000;
    let raise = Order::Raise {
        figures: 12,
        designation: "Royal Cavalry".into(),
    };
    assert_eq!(
        check(&c, &w, "koth", &raise),
        Ok(()),
        "one raise alone is within the list"
    );
    let lines = ["raise 12 Royal Cavalry"; 6].join("\n");
    let o = orders("koth", &lines);
    let verdicts = check_all(&c, &w, "koth", o["koth"].iter().map(|l| &l.item));
    let ok = verdicts.iter().filter(|v| v.is_ok()).count();
    assert!((1..6).contains(&ok), "{verdicts:?}");
    assert!(
        verdicts[ok..].iter().all(|v| v
            .as_ref()
            .is_err_and(|why| why.contains("judged with the raises above it this week"))),
        "the first raise refused and every one after it, saying why: {verdicts:?}"
    );
    let r = turn(&c, &w, &o);
    let raised = r
        .events
        .iter()
        .filter(|e| matches!(e, MapEvent::Raised { .. }))
        .count();
    assert_eq!(raised, ok, "{:?}", r.events);
    assert!(
        check(&r.campaign, &w, "koth", &raise).is_err(),
        "the week raised as many as the list allows"
    );
    // Each refused line is told apart from its identical neighbours.
    let refused: Vec<Option<usize>> = r
        .events
        .iter()
        .filter_map(|e| match e {
            MapEvent::Refused { number, .. } => Some(*number),
            _ => None,
        })
        .collect();
    let expected: Vec<Option<usize>> = o["koth"][ok..].iter().map(|l| Some(l.number)).collect();
    assert_eq!(refused, expected);
}
