//! A campaign battle played by mail (ruling CA-18), on a real SQLite file:
//! with `battles = "mail"` two armies meet, the battle game is created in
//! the same store with both players welcomed and the secretary moderating,
//! the armies stand frozen while the campaign's weeks go on, the game is
//! played to its end through the post office, and the next week applies its
//! result as an entered result would be — while an onlooker power learns
//! nothing of the battle's contents or its game.

use super::border::{self, mails, AQUILONIA, NEMEDIA, OPHIR, SECRETARY};
use super::campaign::{events, state_of, Club};
use crate::common;
use common::*;
use umpire::games::hyborian::campaign::game::{BattleMode, Campaign, CampaignFile};
use umpire::games::hyborian::campaign::resolve::MapEvent;
use umpire::post::PostOffice;

fn setup(battles: &str) -> String {
    border::setup(
        "dragon",
        "The Hour of the Dragon",
        &format!("battles = \"{battles}\"\nbattle_turn_hours = 24\nweek_hours = 0"),
    )
}

fn state(po: &PostOffice) -> Campaign {
    state_of(po, "dragon")
}

impl Club {
    /// Week 1: Aquilonia marches into the Nemedian Marches, where Nemedia's
    /// army stands; Ophir shuts itself in Ianthe. All orders are in.
    fn armies_meet(&mut self) {
        self.orders(
            "aquilonia",
            AQUILONIA,
            "lion",
            "army aquilonia-1 move to Nemedian Marches",
        );
        self.orders("nemedia", NEMEDIA, "dragon", "");
        self.orders("ophir", OPHIR, "disc", "army ophir-1 garrison");
    }

    fn orders(&mut self, power: &str, address: &str, password: &str, lines: &str) {
        self.orders_of("dragon", power, address, password, lines);
    }

    fn resolve(&mut self) {
        let before = state(&self.po).turn;
        let d = self.send(
            SECRETARY,
            "CAMPAIGN dragon SECRETARY PASSWORD scroll\nresolve\nEND\n",
        );
        assert_eq!(d.state(), "done", "{d:?}");
        assert_eq!(state(&self.po).turn, before + 1);
    }

    fn game_status(&self, game: &str) -> Option<String> {
        self.po
            .store()
            .optional_string("SELECT status FROM games WHERE id = ?1", [game])
            .unwrap()
    }
}

pub(crate) fn moderator_password(po: &PostOffice, game: &str) -> String {
    let all = mails(po);
    let (_, _, _, body) = all
        .iter()
        .find(|(_, to, subject, _)| {
            to.contains(SECRETARY) && subject == &format!("[{game}] You moderate this game")
        })
        .expect("the secretary is told the moderator's password");
    body.split("Your moderator password: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .to_string()
}

#[test]
fn a_battle_by_mail_is_played_in_its_own_game_and_comes_back_to_the_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.create_campaign(&CampaignFile::load(&setup("mail")).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    let start = state(&club.po);
    // A unit as a report lists it: "24 Regular Foot (Heavy)".
    let units_of = |army: &str| -> Vec<String> {
        start.armies[army]
            .contents
            .units
            .iter()
            .map(|u| format!("{} {}", u.figures, u.designation))
            .collect()
    };
    // What the two armies hold that Ophir's own army does not.
    let ophirs = units_of("ophir-1");
    let secret_units: Vec<String> = units_of("aquilonia-1")
        .into_iter()
        .chain(units_of("nemedia-1"))
        .filter(|u| !ophirs.contains(u))
        .collect();
    assert!(!secret_units.is_empty());

    // Week 1: Aquilonia marches into the Nemedian Marches; the armies meet.
    club.armies_meet();
    let c = state(&club.po);
    assert_eq!(c.turn, 1, "all orders in: the week is resolved");
    let b = c.pending.first().expect("a battle waits");
    assert_eq!(b.by, BattleMode::Mail);
    assert_eq!(b.game_id("dragon"), "dragon-b1");
    assert_eq!(club.game_status("dragon-b1").as_deref(), Some("active"));

    // Both players are welcomed to the battle game; the secretary moderates it.
    let all = mails(&club.po);
    let welcomes: Vec<&(String, String, String, String)> = all
        .iter()
        .filter(|(kind, _, subject, _)| kind == "welcome" && subject.starts_with("[dragon-b1]"))
        .collect();
    for (address, side) in [(AQUILONIA, "aquilonia"), (NEMEDIA, "nemedia")] {
        let w = welcomes
            .iter()
            .find(|(_, to, _, _)| to.contains(address))
            .unwrap_or_else(|| panic!("no welcome for {address}: {welcomes:?}"));
        assert!(w.3.contains(&format!("SIDE {side}")), "{}", w.3);
        assert!(w.3.contains("Battle 1 of the campaign"), "{}", w.3);
    }
    assert!(welcomes.iter().any(|(_, to, _, _)| to.contains(SECRETARY)));
    // Every report of the parties says the battle is in progress, by mail.
    let report_of = |all: &[(String, String, String, String)], address: &str| {
        all.iter()
            .rev()
            .find(|(kind, to, _, _)| kind == "report" && to.contains(address))
            .map(|m| m.3.clone())
            .unwrap()
    };
    for address in [AQUILONIA, NEMEDIA, SECRETARY] {
        let r = report_of(&all, address);
        assert!(r.contains("battle in progress"), "{address}: {r}");
        assert!(r.contains("by mail as game dragon-b1"), "{address}: {r}");
    }

    // Week 2 goes on around the battle: the frozen armies take no orders.
    club.orders(
        "nemedia",
        NEMEDIA,
        "dragon",
        "army nemedia-1 move to Belverus",
    );
    club.resolve();
    let c = state(&club.po);
    assert_eq!(c.armies["nemedia-1"].province, "nemedian-marches");
    assert_eq!(c.pending.len(), 1, "still in progress");
    assert!(events(&club.po).iter().any(|e| matches!(
        e,
        MapEvent::Refused { why, .. } if why.contains("awaits the result of battle 1")
    )));

    // The moderator plays the battle's turns until it ends (no orders:
    // the armies stand, and after its last turn no one has broken).
    let pw = moderator_password(&club.po, "dragon-b1");
    for _ in 0..20 {
        if club.game_status("dragon-b1").as_deref() == Some("ended") {
            break;
        }
        let d = club.send(
            SECRETARY,
            &format!("MODERATOR dragon-b1 PASSWORD {pw}\nFORCE\nEND\n"),
        );
        assert_eq!(d.state(), "done", "{d:?}");
    }
    assert_eq!(club.game_status("dragon-b1").as_deref(), Some("ended"));
    let results = club
        .po
        .store()
        .count("campaign_results", "campaign_id = 'dragon' AND battle = 1")
        .unwrap();
    assert_eq!(results, 1, "the game's result went back to the campaign");
    let all = mails(&club.po);
    assert!(
        all.iter()
            .any(|(_, to, subject, body)| to.contains(SECRETARY)
                && subject.contains("battle 1 is over")
                && body.contains("Neither side broke")),
        "the secretary is told"
    );

    // The next week applies it as an entered result: neither broke, so the
    // side that marched in falls back, and the armies are free again.
    club.resolve();
    let c = state(&club.po);
    assert!(c.pending.is_empty());
    let evs = events(&club.po);
    assert!(
        evs.iter().any(|e| matches!(
            e,
            MapEvent::Battle { id: 1, by, winner: None, picture: Some(svg), .. }
                if by == "mail" && svg.contains("<svg")
        )),
        "the game's last table comes back drawn: {evs:?}"
    );
    assert_eq!(c.armies["aquilonia-1"].province, "attalus");
    // ... and goes to those who fought it with their report (ruling CA-33).
    assert!(outbox(&club.po)
        .iter()
        .any(|(kind, to, raw)| kind == "report"
            && to == AQUILONIA
            && raw.contains("battle-1.png")));
    let r = report_of(&mails(&club.po), AQUILONIA);
    assert!(r.contains("played by mail"), "{r}");

    // The check below has teeth: a party's report lists its units so.
    assert!(
        r.lines()
            .any(|l| secret_units.contains(&l.trim().to_string())),
        "{r}"
    );
    // Fog: Ophir, who saw none of it, read nothing of the battle: no mail
    // of the game, no unit of either army, not even the game's name.
    for (_, to, subject, body) in mails(&club.po) {
        if !to.contains(OPHIR) {
            continue;
        }
        assert!(!subject.contains("dragon-b1"), "{subject}");
        assert!(!body.contains("dragon-b1"), "{body}");
        for u in &secret_units {
            assert!(
                !body.lines().any(|l| l.trim() == u.as_str()),
                "Ophir reads {u}: {body}"
            );
        }
    }
}

#[test]
fn the_secretary_sends_a_waiting_battle_to_mail_and_ends_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.create_campaign(&CampaignFile::load(&setup("secretary")).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    club.armies_meet();
    assert_eq!(state(&club.po).pending[0].by, BattleMode::Secretary);
    assert_eq!(club.game_status("dragon-b1"), None);

    // A battle that does not wait is refused; then battle 1 goes to mail.
    let d = club.send(
        SECRETARY,
        "CAMPAIGN dragon SECRETARY PASSWORD scroll\nbattle 7 by mail\nbattle 1 by mail\nEND\n",
    );
    assert_eq!(d.state(), "done");
    let reply = mails(&club.po).pop().unwrap().3;
    assert!(
        reply.contains("there is no battle 7 awaiting a result; battles waiting: 1"),
        "{reply}"
    );
    assert!(
        reply.contains("played by mail as game dragon-b1"),
        "{reply}"
    );
    assert_eq!(club.game_status("dragon-b1").as_deref(), Some("active"));
    // Once by mail, the battle stays with its game.
    club.send(
        SECRETARY,
        "CAMPAIGN dragon SECRETARY PASSWORD scroll\nbattle 1 by engine\nEND\n",
    );
    let reply = mails(&club.po).pop().unwrap().3;
    assert!(reply.contains("END GAME"), "{reply}");

    // The moderator ends the game: the table as it stands goes back.
    let pw = moderator_password(&club.po, "dragon-b1");
    let d = club.send(
        SECRETARY,
        &format!("MODERATOR dragon-b1 PASSWORD {pw}\nEND GAME\nEND\n"),
    );
    assert_eq!(d.state(), "done", "{d:?}");
    assert_eq!(club.game_status("dragon-b1").as_deref(), Some("ended"));
    club.resolve();
    let c = state(&club.po);
    assert!(c.pending.is_empty());
    assert!(events(&club.po).iter().any(|e| matches!(
        e,
        MapEvent::Battle { id: 1, by, .. } if by == "mail"
    )));
}

#[test]
fn a_result_the_secretary_enters_ends_the_battle_game_and_tells_its_players() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    po.create_campaign(&CampaignFile::load(&setup("mail")).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    club.armies_meet();
    assert_eq!(club.game_status("dragon-b1").as_deref(), Some("active"));
    let d = club.send(
        SECRETARY,
        "CAMPAIGN dragon SECRETARY PASSWORD scroll\nbattle 1 won by aquilonia losses aquilonia-1 0\nEND\n",
    );
    assert_eq!(d.state(), "done", "{d:?}");
    let all = mails(&club.po);
    let reply = &all
        .iter()
        .rev()
        .find(|(kind, to, _, _)| kind == "reply" && to.contains(SECRETARY))
        .unwrap()
        .3;
    assert!(
        reply.contains("battle 1: result recorded")
            && reply.contains("its game by mail, dragon-b1, is ended"),
        "{reply}"
    );
    assert_eq!(club.game_status("dragon-b1").as_deref(), Some("ended"));
    for address in [AQUILONIA, NEMEDIA] {
        let told = all
            .iter()
            .find(|(kind, to, subject, _)| {
                kind == "notice"
                    && to.contains(address)
                    && subject == "[dragon-b1] This battle no longer counts"
            })
            .unwrap_or_else(|| panic!("{address} is not told"));
        assert!(
            told.3.contains("no more turns will be played"),
            "{}",
            told.3
        );
    }
    assert!(
        !all.iter()
            .any(|(_, to, subject, _)| to.contains(OPHIR) && subject.contains("dragon-b1")),
        "an onlooker hears nothing of the game"
    );
    // The week applies the secretary's result; the ended game sends nothing back.
    club.resolve();
    assert!(state(&club.po).pending.is_empty());
}
