//! A whole campaign by mail (issue 9): four powers and the secretary on a
//! real SQLite file with the spool outlet, two campaigning years of 12
//! weeks: marches, a battle the secretary gives to the engine, a siege that
//! starves a garrison out and whose battle he gives to mail (played in its
//! own game, issue 45), a province pacified and changing hands at the new year,
//! winter rebuilding, a Free Company hired for a year — and no power's
//! report ever shows what another power's armies hold, nor whom the
//! company serves; every week replays with `umpire verify`.

use crate::common;
use chrono::Duration;
use common::*;
use std::collections::BTreeMap;
use umpire::games::hyborian::campaign::game::{Campaign, CampaignFile};
use umpire::games::hyborian::campaign::resolve::MapEvent;
use umpire::post::PostOffice;

const SECRETARY: &str = "secretary@club.example";
const POWERS: [(&str, &str); 4] = [
    ("aquilonia", "conan@aquilonia.example"),
    ("koth", "strabonus@koth.example"),
    ("nemedia", "tarascus@nemedia.example"),
    ("ophir", "amalrus@ophir.example"),
];

fn setup() -> String {
    format!(
        r#"id = "hyboria"
title = "The Hour of the Dragon"
[secretary]
address = "{SECRETARY}"
password = "scroll"
[settings]
weeks_per_year = 12
siege_weeks = 4
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "{}"
password = "lion"
[[power.army]]
province = "tarantia"
points = 700
[[power.army]]
province = "gunderland"
points = 300
[[power]]
id = "koth"
nation = "koth"
address = "{}"
password = "triangle"
[[power.army]]
province = "khorshemish"
points = 900
[[power]]
id = "nemedia"
nation = "nemedia"
address = "{}"
password = "dragon"
[[power.army]]
province = "belverus"
points = 600
[[power]]
id = "ophir"
nation = "ophir"
address = "{}"
password = "disc"
[[power.army]]
province = "ianthe"
points = 500
"#,
        POWERS[0].1, POWERS[1].1, POWERS[2].1, POWERS[3].1
    )
}

/// The Free Company of the two-year campaign, beside the four powers.
const COMPANY: (&str, &str) = ("wolves", "ulric@wolves.example");

fn company() -> String {
    format!(
        r#"[[power]]
id = "wolves"
nation = "free-companies"
address = "{}"
password = "pack"
[[power.army]]
province = "border-kingdom"
points = 100
"#,
        COMPANY.1
    )
}

fn address(power: &str) -> &'static str {
    POWERS
        .iter()
        .chain([&COMPANY])
        .find(|(p, _)| *p == power)
        .map(|(_, a)| *a)
        .unwrap()
}

fn password(power: &str) -> &'static str {
    match power {
        "wolves" => "pack",
        "aquilonia" => "lion",
        "koth" => "triangle",
        "nemedia" => "dragon",
        _ => "disc",
    }
}

fn state(po: &PostOffice) -> Campaign {
    state_of(po, "hyboria")
}

/// A campaign's state as stored now.
pub(crate) fn state_of(po: &PostOffice, id: &str) -> Campaign {
    let json = po
        .store()
        .optional_string("SELECT state FROM campaigns WHERE id = ?1", [id])
        .unwrap()
        .unwrap();
    serde_json::from_str(&json).unwrap()
}

/// Every event of every map turn played, in order.
pub(crate) fn events(po: &PostOffice) -> Vec<MapEvent> {
    let mut st = po
        .store()
        .conn()
        .prepare("SELECT events FROM campaign_turns ORDER BY turn")
        .unwrap();
    let rows: Vec<String> = st
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.iter()
        .flat_map(|j| serde_json::from_str::<Vec<MapEvent>>(j).unwrap())
        .collect()
}

/// The club's post office and a count of the mails sent to it.
pub(crate) struct Club {
    pub(crate) po: PostOffice,
    pub(crate) n: u32,
}

impl Club {
    /// One mail in, a minute after the last.
    pub(crate) fn send(&mut self, from: &str, body: &str) -> umpire::post::Disposition {
        self.n += 1;
        let m = mail(from, &format!("m{}@club.example", self.n), body);
        self.po
            .accept(&m, "test", t0() + Duration::minutes(i64::from(self.n)))
            .unwrap()
            .unwrap()
    }

    /// Every power mails its orders for the week (the last one in resolves it).
    fn week(&mut self, orders: &[(&str, &str)]) {
        let c = state(&self.po);
        let before = c.turn;
        for power in c.powers.keys().map(String::as_str) {
            let address = address(power);
            let lines: Vec<&str> = orders
                .iter()
                .filter(|(p, _)| *p == power)
                .map(|(_, o)| *o)
                .collect();
            let body = format!(
                "CAMPAIGN hyboria POWER {power} PASSWORD {}\n{}\nEND\n",
                password(power),
                lines.join("\n")
            );
            let d = self.send(address, &body);
            assert_eq!(d.state(), "done", "{power}: {d:?}");
        }
        assert_eq!(
            state(&self.po).turn,
            before + 1,
            "all orders in: the week is resolved"
        );
    }
}

#[test]
fn two_years_of_campaign_by_mail() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let mut po = PostOffice::open(config.clone()).unwrap();
    // Every battle waits for the secretary, who gives one to the engine and
    // one to mail.
    let setup = setup().replace(
        "siege_weeks = 4\n",
        "siege_weeks = 4\nbattles = \"secretary\"\nbattle_turn_hours = 24\n",
    );
    let file = CampaignFile::load(&format!("{setup}{}", company())).unwrap();
    po.create_campaign(&file, t0()).unwrap();
    pin_seed(&config);
    let mut club = Club { po, n: 0 };

    // A stranger and a wrong password are refused; nothing is stored as orders.
    let d = club.send(
        "spy@zamora.example",
        "CAMPAIGN hyboria POWER koth PASSWORD guess\narmy koth-1 move to Corinthia\nEND\n",
    );
    assert_eq!(d.state(), "refused");
    assert_eq!(club.po.store().count("campaign_orders", "1").unwrap(), 0);

    // Year 1, week 1: Aquilonia and Nemedia both march into the Nemedian
    // Marches; Aquilonia's second army takes the Border Kingdom; Ophir
    // shuts itself in Ianthe; Koth marches on Ophir.
    club.week(&[
        ("aquilonia", "army aquilonia-1 move to Nemedian Marches"),
        ("aquilonia", "army aquilonia-2 move to Border Kingdom"),
        ("aquilonia", "hire wolves for 120 points"),
        ("wolves", "serve aquilonia for 100 points"),
        ("nemedia", "army nemedia-1 move to Nemedian Marches"),
        ("ophir", "army ophir-1 garrison"),
        ("koth", "army koth-1 move to Kothian Plains"),
    ]);
    // The battle waits for the secretary, who gives it to the engine with
    // next week's resolution.
    let c = state(&club.po);
    assert_eq!(c.pending.len(), 1, "the armies met: {:?}", c.pending);
    assert_eq!(c.pending[0].province, "nemedian-marches");

    // Week 2: Ophir sends nothing; the secretary resolves the week.
    club.send(
        POWERS[0].1,
        "CAMPAIGN hyboria POWER aquilonia PASSWORD lion\nEND\n",
    );
    club.send(
        POWERS[1].1,
        "CAMPAIGN hyboria POWER koth PASSWORD triangle\narmy koth-1 move to Southern Ophir\nEND\n",
    );
    club.send(
        POWERS[2].1,
        "CAMPAIGN hyboria POWER nemedia PASSWORD dragon\nEND\n",
    );
    assert_eq!(state(&club.po).week, 2, "not all orders in yet");
    club.send(
        SECRETARY,
        "CAMPAIGN hyboria SECRETARY PASSWORD scroll\nbattle 1 by engine\nstatus\nresolve\nEND\n",
    );
    assert_eq!(state(&club.po).week, 3);
    assert_eq!(state(&club.po).armies["koth-1"].province, "southern-ophir");
    let all = events(&club.po);
    let battle = all.iter().find_map(|e| match e {
        MapEvent::Battle {
            by,
            province,
            sides,
            ..
        } => Some((by.clone(), province.clone(), sides.clone())),
        _ => None,
    });
    let (by, province, sides) = battle.expect("the armies met and fought");
    assert_eq!(
        (by.as_str(), province.as_str()),
        ("engine", "nemedian-marches")
    );
    assert!(sides.iter().all(|s| s.lost + s.recovered <= s.points));
    assert!(
        all.iter()
            .any(|e| matches!(e, MapEvent::FellBack { .. } | MapEvent::Destroyed { .. })),
        "the loser falls back: {all:?}"
    );

    // Weeks 3-7: Koth reaches Ianthe and besieges it; the garrison holds
    // behind its walls until starved out.
    club.week(&[("koth", "army koth-1 move to Ianthe")]);
    assert_eq!(state(&club.po).armies["koth-1"].province, "ianthe");
    for _ in 0..4 {
        club.week(&[("koth", "army koth-1 besiege")]);
    }
    let all = events(&club.po);
    assert!(
        all.iter()
            .any(|e| matches!(e, MapEvent::Besieging { weeks: 1, .. })),
        "{all:?}"
    );
    assert!(
        all.iter()
            .any(|e| matches!(e, MapEvent::StarvedOut { province, .. } if province == "ianthe")),
        "{all:?}"
    );
    // The starved garrison must fight: the secretary gives that battle to
    // mail, and Koth's and Ophir's players fight it in its own game, its
    // moderator playing its turns, while the campaign waits for it.
    let siege = state(&club.po)
        .pending
        .iter()
        .find(|b| b.province == "ianthe")
        .map(|b| (b.id, b.game_id("hyboria")))
        .expect("the starved garrison must fight");
    let (id, game) = siege;
    club.send(
        SECRETARY,
        &format!("CAMPAIGN hyboria SECRETARY PASSWORD scroll\nbattle {id} by mail\nEND\n"),
    );
    let pw = super::campaign_by_mail::moderator_password(&club.po, &game);
    for _ in 0..20 {
        let d = club.send(
            SECRETARY,
            &format!("MODERATOR {game} PASSWORD {pw}\nFORCE\nEND\n"),
        );
        assert_eq!(d.state(), "done", "{d:?}");
        if club
            .po
            .store()
            .count("campaign_results", &format!("battle = {id}"))
            .unwrap()
            == 1
        {
            break;
        }
    }
    club.week(&[]);
    assert!(
        events(&club.po).iter().any(
            |e| matches!(e, MapEvent::Battle { province, by, .. } if province == "ianthe" && by == "mail")
        ),
        "the battle by mail comes back to the campaign"
    );
    // Only those who fought it (and the secretary) ever read of its game.
    for (_, to, raw) in outbox(&club.po) {
        if raw.contains(&game) {
            assert!(
                [POWERS[1].1, POWERS[3].1, SECRETARY].contains(&to.as_str()),
                "{to} reads of {game}"
            );
        }
    }

    // The rest of year 1: the Border Kingdom, held since week 1, is pacified.
    while !state(&club.po).winter() {
        club.week(&[]);
    }
    let c = state(&club.po);
    assert!(
        c.holdings["border-kingdom"].pacified,
        "{:?}",
        c.holdings["border-kingdom"]
    );
    let world = umpire::games::hyborian::campaign::map::World::hyborea().unwrap();
    let gained: u32 = c
        .holdings
        .iter()
        .filter(|(_, h)| h.pacified && h.occupier.as_deref() == Some("aquilonia"))
        .map(|(id, _)| world.province(id).unwrap().points)
        .sum();
    assert!(gained >= 100, "the Border Kingdom at least");
    let before = c.allowance(&world, "aquilonia");

    // Winter quarters: the year ends, points move, every power rebuilds and raises.
    club.week(&[
        ("aquilonia", "raise 12 Aquilonians"),
        ("aquilonia", "army aquilonia-2 move to Attalus"),
        ("nemedia", "raise 12 Nemedian Knights"),
    ]);
    let c = state(&club.po);
    assert_eq!((c.year, c.week), (2, 1));
    assert_eq!(
        c.holdings["border-kingdom"].owner.as_deref(),
        Some("aquilonia")
    );
    assert_eq!(c.allowance(&world, "aquilonia"), before + gained);
    let all = events(&club.po);
    assert!(all.iter().any(|e| matches!(e, MapEvent::Rebuilt { power, allowance, .. } if power == "aquilonia" && *allowance == before + gained)));
    assert!(all
        .iter()
        .any(|e| matches!(e, MapEvent::Raised { power, .. } if power == "aquilonia")));
    assert!(
        all.iter().any(|e| matches!(e, MapEvent::Refused { power, why, .. } if power == "aquilonia" && why.contains("winter"))),
        "no marching in winter"
    );
    assert_eq!(
        c.armies
            .values()
            .filter(|a| a.owner == "aquilonia" && a.province == "tarantia")
            .count(),
        1,
        "raised in the capital"
    );

    // Year 2: the new knights march from the capital; a whole year passes.
    let levy = c
        .armies
        .values()
        .find(|a| a.owner == "aquilonia" && a.province == "tarantia")
        .unwrap()
        .id
        .clone();
    club.week(&[("aquilonia", &format!("army {levy} move to Shamar"))]);
    while state(&club.po).year == 2 {
        club.week(&[]);
    }
    assert_eq!(state(&club.po).year, 3);

    // Every report mailed to a power: its own armies in full, others' only as counters.
    let states: Vec<Campaign> = {
        let mut st = club
            .po
            .store()
            .conn()
            .prepare("SELECT state_after FROM campaign_turns ORDER BY turn")
            .unwrap();
        let rows: Vec<String> = st
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        rows.iter()
            .map(|j| serde_json::from_str(j).unwrap())
            .collect()
    };
    assert!(
        states.len() >= 26,
        "two years of 12 weeks and two winters: {}",
        states.len()
    );
    let reports: Vec<(String, String)> = outbox(&club.po)
        .into_iter()
        // The campaign's weekly reports; the battle game's own reports
        // show both sides' units to those who fight it, as any battle does.
        .filter(|(k, _, raw)| k == "report" && !raw.contains(&format!("[{game}]")))
        // What the HTML shows is held to the same fog as the text.
        .map(|(_, to, raw)| (to, format!("{}\n{}", body_text(&raw), body_html(&raw))))
        .collect();
    assert!(
        reports
            .iter()
            .all(|(_, r)| r.contains("<img class=\"map\" src=\"cid:")),
        "every report has its map inline"
    );
    assert_eq!(
        events(&club.po)
            .iter()
            .filter(|e| matches!(e, MapEvent::Hired { .. }))
            .count(),
        1,
        "the wolves were hired in week 1"
    );
    // The armies a power owned or commanded at some time (a company its
    // employer hired): its reports of those weeks show them in full.
    let commanded = |power: &str| -> std::collections::BTreeSet<&str> {
        states
            .iter()
            .flat_map(|s| s.armies.values())
            .filter(|a| a.owner == power || a.commander() == power)
            .map(|a| a.id.as_str())
            .collect()
    };
    let mut checked = BTreeMap::new();
    for (power, address) in POWERS.iter().chain([&COMPANY]).copied() {
        let nation = if power == COMPANY.0 {
            "free-companies"
        } else {
            power
        };
        let own_list = umpire::games::hyborian::army::nation(nation).unwrap();
        let mine = commanded(power);
        for (_, text) in reports.iter().filter(|(to, _)| to == address) {
            // Whom the company serves is the employer's and the company's secret.
            if !["aquilonia", COMPANY.0].contains(&power) {
                assert!(!text.contains("hired from wolves"), "{power}:\n{text}");
            }
            for s in &states {
                for a in s.armies.values().filter(|a| !mine.contains(a.id.as_str())) {
                    assert!(
                        !text.contains(&format!("army {} in ", a.id)),
                        "{power} sees inside {}:\n{text}",
                        a.id
                    );
                    for u in &a.contents.units {
                        // Names the reader's own list also uses ("Regular Foot (Heavy)") prove nothing.
                        let shared = own_list
                            .designations()
                            .any(|(_, d)| d.designation.contains(&u.designation));
                        if !shared {
                            assert!(
                                !text.contains(&u.designation),
                                "{power}'s report names {}'s {}:\n{text}",
                                a.id,
                                u.designation
                            );
                        }
                    }
                }
            }
            *checked.entry(power).or_insert(0) += 1;
        }
    }
    assert!(checked.values().all(|n| *n >= 26), "{checked:?}");
    // The secretary sees everything.
    let secretary_last = reports
        .iter()
        .rev()
        .find(|(to, _)| to == SECRETARY)
        .unwrap();
    assert!(
        secretary_last.1.contains("army koth-1 in ")
            || !state(&club.po).armies.contains_key("koth-1")
    );
    // Reports went out with their maps, through the spool.
    let flushed = club.po.send(t0() + Duration::days(1)).unwrap();
    assert!(flushed.sent >= 26 * 5, "{flushed:?}");

    // `umpire verify hyboria N`: every week replays from the store, with
    // its revealed seed, to the events and campaign its reports came from.
    for turn in 1..=states.len() as u32 {
        let (text, ok) = umpire::post::verify_turn(&mut club.po, "hyboria", turn).unwrap();
        assert!(ok, "map turn {turn}: {text}");
        assert!(
            text.contains("events (") && text.contains("as stored"),
            "{text}"
        );
    }
    let (first, _) = umpire::post::verify_turn(&mut club.po, "hyboria", 1).unwrap();
    assert!(
        first.contains("Year 1, week 1 (map turn 1): seed ")
            && first.contains("Verdict: everything matches"),
        "{first}"
    );
    // A stored week that was tampered with is found out.
    club.po
        .store()
        .conn()
        .execute(
            "UPDATE campaign_turns SET events = '[]' WHERE campaign_id = 'hyboria' AND turn = 1",
            [],
        )
        .unwrap();
    let (text, ok) = umpire::post::verify_turn(&mut club.po, "hyboria", 1).unwrap();
    assert!(!ok && text.contains("THE REPLAY DIFFERS"), "{text}");
    assert!(
        text.contains("the first that differs is number 1"),
        "{text}"
    );
    let err = umpire::post::verify_turn(&mut club.po, "hyboria", 99).unwrap_err();
    assert!(err.to_string().contains("has no map turn 99"), "{err}");
}

#[test]
fn a_week_is_resolved_at_its_deadline_once_and_the_next_one_is_set() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let mut po = PostOffice::open(config.clone()).unwrap();
    let file = CampaignFile::load(
        &setup().replace("siege_weeks = 4\n", "siege_weeks = 4\nweek_hours = 72\n"),
    )
    .unwrap();
    po.create_campaign(&file, t0()).unwrap();
    let deadline = || po_deadline(&config);
    assert_eq!(
        deadline(),
        Some("2026-12-04T09:00:00Z".to_string()),
        "created at t0 + 72 h"
    );
    let mut club = Club { po, n: 0 };
    // Only Koth writes; before the deadline nothing is resolved.
    let d = club.send(
        POWERS[1].1,
        "CAMPAIGN hyboria POWER koth PASSWORD triangle\narmy koth-1 move to Kothian Plains\nEND\n",
    );
    assert_eq!(d.state(), "done");
    assert_eq!(club.po.tick(t0() + Duration::hours(71)).unwrap(), 0);
    assert_eq!(state(&club.po).turn, 0);
    // At the deadline the week is played with the orders in, once.
    let at = t0() + Duration::hours(72);
    assert_eq!(club.po.tick(at).unwrap(), 1);
    assert_eq!(
        club.po.tick(at).unwrap(),
        0,
        "a second tick at the same time plays nothing"
    );
    assert_eq!(state(&club.po).turn, 1);
    assert_eq!(
        deadline(),
        Some("2026-12-07T09:00:00Z".to_string()),
        "the next week's deadline"
    );
    // Every report of the week says when the next orders are due.
    let reports: Vec<String> = {
        let conn = club.po.store().conn();
        let ids: Vec<i64> = conn
            .prepare("SELECT id FROM outbox WHERE kind = 'report' ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let raws = umpire::store::outbox::bodies(conn, &ids).unwrap();
        raws.iter()
            .map(|raw| {
                let m = mail_parser::MessageParser::default().parse(raw).unwrap();
                m.body_text(0).unwrap().into_owned()
            })
            .collect()
    };
    assert!(!reports.is_empty());
    assert!(
        reports
            .iter()
            .rev()
            .take(5)
            .all(|r| r.contains("are due by 2026-12-07 09:00 UTC (Monday)")),
        "{:?}",
        reports.last()
    );
}

/// The campaign's secret seed is drawn at random when it is created; the
/// two years below depend on its battles' dice (who loses how much, and so
/// what the treasury can raise), so the test fixes it.
fn pin_seed(config: &umpire::config::Config) {
    let conn = rusqlite::Connection::open(&config.database).unwrap();
    let seed = "5eed".repeat(16);
    let n = conn
        .execute(
            "UPDATE campaigns SET seed = ?1 WHERE id = 'hyboria'",
            [&seed],
        )
        .unwrap();
    assert_eq!(n, 1);
}

fn po_deadline(config: &umpire::config::Config) -> Option<String> {
    let conn = rusqlite::Connection::open(&config.database).unwrap();
    conn.query_row(
        "SELECT deadline FROM campaigns WHERE id = 'hyboria'",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

/// Issue 14's identity rules hold for campaign mail too: the right password
/// from a stranger is told only to the registered player (no oracle for the
/// stranger); what is kept of a handled message holds no password; two
/// mails alike, without a Message-ID, each get their own confirmation.
#[test]
fn campaign_mail_keeps_the_identity_rules_of_battle_mail() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.create_campaign(&CampaignFile::load(&setup()).unwrap(), t0())
        .unwrap();
    let before = outbox(&po).len();
    let spoof = mail(
        "spy@zamora.example",
        "spy1@zamora.example",
        "CAMPAIGN hyboria POWER koth PASSWORD triangle\narmy koth-1 move to Corinthia\nEND\n",
    );
    assert_eq!(
        po.accept(&spoof, "test", t0()).unwrap().unwrap().state(),
        "refused"
    );
    let out = outbox(&po);
    assert_eq!(out.len(), before + 1);
    assert_eq!(
        out.last().unwrap().1,
        POWERS[1].1,
        "only the registered player hears of it"
    );
    assert!(body_text(&out.last().unwrap().2).contains("spy@zamora.example"));
    let secretary = mail(
        "spy@zamora.example",
        "spy2@zamora.example",
        "CAMPAIGN hyboria SECRETARY PASSWORD scroll\nstatus\nEND\n",
    );
    po.accept(&secretary, "test", t0()).unwrap();
    assert!(
        outbox(&po)
            .iter()
            .all(|(_, to, _)| to != "spy@zamora.example"),
        "the stranger never gets an answer"
    );

    // Two order mails with no Message-ID and the same subject: two confirmations.
    let no_id = |text: &str| -> Vec<u8> {
        String::from_utf8(mail(POWERS[1].1, "x", text))
            .unwrap()
            .replace("Message-ID: <x>\r\n", "")
            .into_bytes()
    };
    let before = outbox(&po).len();
    po.accept(&no_id("CAMPAIGN hyboria POWER koth PASSWORD triangle\narmy koth-1 move to Kothian Plains\nEND\n"), "test", t0()).unwrap();
    po.accept(
        &no_id("CAMPAIGN hyboria POWER koth PASSWORD triangle\nEND\n"),
        "test",
        t0(),
    )
    .unwrap();
    let confirmations = outbox(&po)[before..]
        .iter()
        .filter(|(k, to, _)| k == "confirmation" && to == POWERS[1].1)
        .count();
    assert_eq!(confirmations, 2);

    // No stored copy keeps a password.
    let raws: i64 = po
        .store()
        .count(
            "messages",
            "CAST(raw AS TEXT) LIKE '%triangle%' OR CAST(raw AS TEXT) LIKE '%scroll%'",
        )
        .unwrap();
    let texts: i64 = po
        .store()
        .count("campaign_orders", "text LIKE '%triangle%'")
        .unwrap();
    assert_eq!((raws, texts), (0, 0));
}

/// The secretary's desk: the week's orders in one mail, numbered and
/// checked; a power's order cancelled before the week is resolved (the
/// power told); the digest again in the secretary's report of the week.
#[test]
fn the_secretary_reads_the_weeks_orders_and_cancels_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.create_campaign(&CampaignFile::load(&setup()).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    club.send(
        POWERS[1].1,
        "CAMPAIGN hyboria POWER koth PASSWORD triangle\narmy koth-1 move to Kothian Plains\narmy koth-1 move to Tarantia\nEND\n",
    );
    club.send(
        POWERS[3].1,
        "CAMPAIGN hyboria POWER ophir PASSWORD disc\narmy ophir-1 garrison\nEND\n",
    );
    let body = |club: &Club| {
        let raw = outbox(&club.po).pop().unwrap().2;
        let m = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap();
        m.body_text(0).unwrap().replace("\r\n", "\n")
    };
    club.send(
        SECRETARY,
        "CAMPAIGN hyboria SECRETARY PASSWORD scroll\ndigest\nEND\n",
    );
    let digest = body(&club);
    assert!(
        digest.contains("ORDERS OF THE WEEK: year 1, week 1"),
        "{digest}"
    );
    assert!(
        digest.contains("koth:\n  1. army koth-1 move to Kothian Plains\n  2. army koth-1 move to Tarantia\n     REFUSED: Tarantia does not border"),
        "{digest}"
    );
    assert!(
        digest.contains("ophir:\n  1. army ophir-1 garrison\n"),
        "{digest}"
    );
    assert!(
        digest.contains("aquilonia: none sent (its armies stand"),
        "{digest}"
    );
    // A number the digest does not show, a power that does not exist.
    club.send(
        SECRETARY,
        "CAMPAIGN hyboria SECRETARY PASSWORD scroll\ncancel koth 3\ncancel zamora 1\ncancel koth 2\nEND\n",
    );
    let reply = body(&club);
    assert!(
        reply.contains("cancel koth 3: NOT DONE: koth has 2 orders on file"),
        "{reply}"
    );
    assert!(
        reply.contains("cancel zamora 1: NOT DONE: there is no power 'zamora'"),
        "{reply}"
    );
    assert!(
        reply.contains(
            "cancel koth 2: done: koth's order \"army koth-1 move to Tarantia\" is cancelled"
        ),
        "{reply}"
    );
    let told = outbox(&club.po)
        .into_iter()
        .filter(|(kind, to, _)| kind == "notice" && to.contains(POWERS[1].1))
        .count();
    assert_eq!(told, 1, "Koth is told");
    club.send(
        SECRETARY,
        "CAMPAIGN hyboria SECRETARY PASSWORD scroll\nresolve\nEND\n",
    );
    let c = state(&club.po);
    assert_eq!(
        c.armies["koth-1"].province, "kothian-plains",
        "the order kept"
    );
    assert!(
        !events(&club.po)
            .iter()
            .any(|e| matches!(e, MapEvent::Refused { line, .. } if line.contains("Tarantia"))),
        "the cancelled order is not judged"
    );
    let reports: Vec<String> = outbox(&club.po)
        .into_iter()
        .filter(|(kind, to, _)| kind == "report" && to.contains(SECRETARY))
        .map(|(_, _, raw)| {
            let m = mail_parser::MessageParser::default()
                .parse(raw.as_bytes())
                .unwrap();
            m.body_text(0).unwrap().replace("\r\n", "\n")
        })
        .collect();
    let last = reports.last().unwrap();
    assert!(
        last.contains("ORDERS OF THE WEEK: year 1, week 1") && !last.contains("move to Tarantia"),
        "{last}"
    );
}

/// The reports of `address`, oldest first, as raw mail.
fn reports_to(po: &PostOffice, address: &str) -> Vec<String> {
    outbox(po)
        .into_iter()
        .filter(|(k, to, _)| k == "report" && to == address)
        .map(|(_, _, raw)| raw)
        .collect()
}

/// The hex after `before` in `text`.
fn hex_after<'a>(text: &'a str, before: &str) -> &'a str {
    let at = text
        .find(before)
        .unwrap_or_else(|| panic!("no {before:?} in:\n{text}"));
    let rest = &text[at + before.len()..];
    let end = rest
        .find(|c: char| !c.is_ascii_hexdigit())
        .unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn a_weekly_report_is_html_with_its_map_inline_its_orders_and_its_dice_revealed() {
    use sha2::{Digest, Sha256};
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let mut po = PostOffice::open(config.clone()).unwrap();
    let file = CampaignFile::load(&setup()).unwrap();
    po.create_campaign(&file, t0()).unwrap();
    let mut club = Club { po, n: 0 };
    let (_, conan) = POWERS[0];
    let opening = reports_to(&club.po, conan).pop().unwrap();
    let text = body_text(&opening);
    let committed = hex_after(&text, "their seed's SHA-256 is ").to_string();
    assert_eq!(committed.len(), 64, "{text}");
    assert!(
        !text.contains("The seed of"),
        "nothing to reveal yet:\n{text}"
    );
    // March days into each neighbour, the resolver's own numbers.
    assert!(
        text.contains("march days to the neighbours: ") && text.contains("Shamar 2 days (1 week)"),
        "{text}"
    );
    club.week(&[("aquilonia", "army aquilonia-1 move to Shamar")]);
    let raw = reports_to(&club.po, conan).pop().unwrap();
    let m = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .unwrap();
    // multipart/alternative with the map inline (multipart/related) under
    // the cid the HTML shows, and the PNG and SVG attached.
    let html = m.body_html(0).unwrap().into_owned();
    let cid = html
        .split("src=\"cid:")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    use mail_parser::MimeHeaders;
    let inline = m
        .attachments()
        .find(|a| a.content_id() == Some(cid.as_str()))
        .expect("the map is inline under the cid the HTML uses");
    assert!(inline.contents().starts_with(b"\x89PNG"));
    for ext in [".png", ".svg"] {
        assert!(
            m.attachments()
                .any(|a| a.attachment_name().is_some_and(|n| n.ends_with(ext))),
            "{ext} attached"
        );
    }
    assert!(raw.contains("multipart/alternative") && raw.contains("multipart/related"));
    // The orders carried out, in both forms.
    let text = body_text(&raw);
    assert!(
        text.contains("- army aquilonia-1 move to Shamar: carried out"),
        "{text}"
    );
    assert!(
        html.contains("<code>army aquilonia-1 move to Shamar</code>: carried out"),
        "{html}"
    );
    // The week's seed revealed, and it is the one committed to.
    let line = text
        .lines()
        .find(|l| l.starts_with("The seed of "))
        .unwrap_or_else(|| panic!("no seed revealed:\n{text}"));
    let revealed = hex_after(line, " was ").to_string();
    assert_eq!(revealed.len(), 64, "{text}");
    assert_eq!(
        hex::encode(Sha256::digest(revealed.as_bytes())),
        committed,
        "the revealed seed hashes to the opening report's commitment"
    );
    assert_eq!(
        hex_after(&text, "published before the week, was "),
        committed
    );
    assert!(html.contains(&format!("<code>{revealed}</code>")), "{html}");
    let next = hex_after(&text, "their seed's SHA-256 is ");
    assert_ne!(next, committed, "a fresh commitment for the coming week");
    // Nemedia reads no order of Aquilonia's.
    let nemedia = body_text(&reports_to(&club.po, POWERS[2].1).pop().unwrap());
    assert!(!nemedia.contains("move to Shamar"), "{nemedia}");
}

#[test]
fn those_who_fought_an_engine_battle_get_its_last_table_drawn_and_no_one_else() {
    use mail_parser::MimeHeaders;
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let mut po = PostOffice::open(config.clone()).unwrap();
    let file = CampaignFile::load(&setup()).unwrap();
    po.create_campaign(&file, t0()).unwrap();
    pin_seed(&config);
    let mut club = Club { po, n: 0 };
    club.week(&[
        ("aquilonia", "army aquilonia-1 move to Nemedian Marches"),
        ("nemedia", "army nemedia-1 move to Nemedian Marches"),
    ]);
    let all = events(&club.po);
    let (id, fought) = all
        .iter()
        .find_map(|e| match e {
            MapEvent::Battle { id, sides, by, .. } if by == "engine" => Some((
                *id,
                sides.iter().map(|s| s.power.clone()).collect::<Vec<_>>(),
            )),
            _ => None,
        })
        .expect("the armies met and the engine fought");
    let name = format!("-battle-{id}.png");
    for (power, address) in POWERS {
        let raw = reports_to(&club.po, address).pop().unwrap();
        let m = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .unwrap();
        let picture = m
            .attachments()
            .find(|a| a.attachment_name().is_some_and(|n| n.ends_with(&name)));
        if fought.iter().any(|p| p == power) {
            let png = picture.expect("a participant gets the battle's picture");
            assert!(png.contents().starts_with(b"\x89PNG\r\n\x1a\n"));
            // The PNG's IHDR: a picture with a width and a height.
            let wide = u32::from_be_bytes(png.contents()[16..20].try_into().unwrap());
            assert!(wide > 0 && &png.contents()[12..16] == b"IHDR");
            // Inline below the battle's paragraph, after the map.
            let html = m.body_html(0).unwrap().into_owned();
            let cid = html
                .split("src=\"cid:")
                .nth(2)
                .and_then(|s| s.split('"').next())
                .expect("a second inline picture");
            assert!(cid.contains(&format!("battle-{id}")), "{html}");
            assert!(m
                .attachments()
                .any(|a| a.content_id() == Some(cid) && a.contents().starts_with(b"\x89PNG")));
        } else {
            // Fog: an onlooker reads at most that a battle was fought.
            assert!(picture.is_none(), "{power} did not fight: no picture");
            assert!(!raw.contains(&format!("battle-{id}.svg")), "{power}");
        }
    }
    // The secretary sees every battle, and its picture.
    let raw = reports_to(&club.po, SECRETARY).pop().unwrap();
    assert!(raw.contains(&format!("battle-{id}.png")));
}
