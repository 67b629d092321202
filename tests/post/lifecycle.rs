//! Issue 15: a whole six-turn game on a real SQLite file, played as a club
//! moderator and two players would, in which every finding of the issue is
//! tried and checked: readiness, greetings, WAIT, mistakes that keep earlier
//! orders, lateness, HOLD/REJECT/APPROVE, announcements, moderator typos,
//! REPLACE, ORDERS FOR, PAUSE/RESUME, END GAME and the desk.

use crate::common;
use chrono::{DateTime, Duration, Utc};
use common::*;
use umpire::post::{desk, Disposition, PostOffice};

const NEW_PLAYER: &str = "yara@nemedia.example";

struct Club {
    po: PostOffice,
    now: DateTime<Utc>,
    n: u32,
}

impl Club {
    /// Mail `body` from `from`, a minute after the last mail.
    fn mail(&mut self, from: &str, body: &str) -> Disposition {
        self.n += 1;
        self.now += Duration::minutes(1);
        self.po
            .accept(
                &mail(from, &format!("m{}@club", self.n), body),
                "test",
                self.now,
            )
            .unwrap()
            .expect("a new message")
    }
    fn moderator(&mut self, lines: &str) -> String {
        self.mail(
            MODERATOR,
            &format!("MODERATOR ford PASSWORD modpw\n{lines}"),
        );
        self.last_to(MODERATOR)
    }
    fn conan(&mut self, lines: &str) -> Disposition {
        self.mail(
            CONAN,
            &format!("GAME ford SIDE aquilonia PASSWORD dragon7\n{lines}"),
        )
    }
    fn tarascus(&mut self, lines: &str) -> Disposition {
        self.mail(
            TARASCUS,
            &format!("GAME ford SIDE nemedia PASSWORD serpent3\n{lines}"),
        )
    }
    /// The text of the last mail queued to `to`.
    fn last_to(&self, to: &str) -> String {
        outbox(&self.po)
            .into_iter()
            .rev()
            .find(|(_, t, _)| t == to)
            .map(|(_, _, raw)| body_text(&raw))
            .unwrap_or_default()
    }
    fn kinds_to(&self, to: &str, kind: &str) -> Vec<String> {
        outbox(&self.po)
            .into_iter()
            .filter(|(k, t, _)| k == kind && t == to)
            .map(|(_, _, raw)| body_text(&raw))
            .collect()
    }
    fn played(&self) -> i64 {
        self.po
            .store()
            .count("rounds", "adjudicated_at IS NOT NULL")
            .unwrap()
    }
    fn released(&self) -> i64 {
        self.po.store().count("rounds", "released = 1").unwrap()
    }
    fn deadline(&self) -> DateTime<Utc> {
        let s = self
            .po
            .store()
            .optional_string("SELECT deadline FROM games WHERE id = 'ford'", [])
            .unwrap()
            .unwrap();
        umpire::store::parse_ts(&s).unwrap()
    }
}

const DRAGONS_HOLD: &str = "Black Dragons: phase 1 hold\nEND\n";
const KNIGHTS_HOLD: &str = "Nemedian Knights: phase 1 hold\nEND\n";

#[test]
fn six_turns_as_a_club_plays_them() {
    let dir = tempfile::tempdir().unwrap();

    // A game file whose first deadline has passed is refused, not started.
    let past = tempfile::tempdir().unwrap();
    let file = game_file(past.path());
    let mut early = PostOffice::open(config(past.path())).unwrap();
    let err = early
        .create_game(
            &umpire::post::gamefile::GameFile::load(&file).unwrap(),
            t0() + Duration::days(5),
        )
        .unwrap_err();
    assert!(err.to_string().contains("has passed"), "{err}");

    let mut club = Club {
        po: office_with_game(dir.path()),
        now: t0(),
        n: 0,
    };

    // ---- Turn 1: a refused line keeps the side not ready; greetings are
    // set aside; READY lets the turn go.
    club.conan("Hi umpire,\n\nBlack Dragons: phase 1 hold\nBossonian Archrs: phase 1 hold\n\nCheers,\nConan\nEND\n");
    let confirmation = club.last_to(CONAN);
    assert!(
        confirmation.contains("read as a greeting or signature"),
        "{confirmation}"
    );
    assert!(
        confirmation.contains("did you mean 'Bossonian Archers'?"),
        "{confirmation}"
    );
    assert!(
        !confirmation.contains("no unit called 'Hi umpire'")
            && !confirmation.contains("no unit called 'Cheers'"),
        "{confirmation}"
    );
    club.tarascus(KNIGHTS_HOLD);
    assert_eq!(
        club.played(),
        0,
        "a mail with a refused line does not set the turn going"
    );
    club.conan("READY\n");
    assert_eq!(club.played(), 1);
    assert!(club.last_to(CONAN).contains("report of turn 1"));

    // ---- Turn 2: WAIT holds good orders; a mail naming the other side's
    // unit keeps the earlier orders; the deadline plays the turn, and mail
    // the club's server took before it still counts.
    club.conan(&format!("WAIT\n{DRAGONS_HOLD}"));
    club.tarascus(KNIGHTS_HOLD);
    assert_eq!(club.played(), 1, "WAIT keeps the turn for the deadline");
    club.conan("Nemedian Knights: phase 1 move 6\nBossonian Archers: phase 1 hold\nEND\n");
    let confirmation = club.last_to(CONAN);
    assert!(
        confirmation.contains("Black Dragons: phase 1 hold"),
        "earlier orders still stand: {confirmation}"
    );
    let understood: String = club
        .po
        .store()
        .optional_string(
            "SELECT understood FROM submissions WHERE side = 'aquilonia' ORDER BY id DESC LIMIT 1",
            [],
        )
        .unwrap()
        .unwrap();
    assert!(
        understood.contains("Black Dragons") && understood.contains("Bossonian Archers"),
        "{understood}"
    );
    let due = club.deadline();
    let stamp = (due - Duration::minutes(5)).format("%a, %d %b %Y %H:%M:%S +0000");
    let late = format!("Received: from mx by mail.club.example; {stamp}\r\n");
    let mut m = late.into_bytes();
    m.extend(mail(
        TARASCUS,
        "late2@club",
        &format!("GAME ford SIDE nemedia PASSWORD serpent3\n{KNIGHTS_HOLD}"),
    ));
    let read_at = due + Duration::minutes(10);
    assert_eq!(
        club.po
            .accept(&m, "test", read_at)
            .unwrap()
            .unwrap()
            .state(),
        "done",
        "taken by the club at 5 to, read 10 past"
    );
    club.now = due + Duration::minutes(16);
    club.po.tick(club.now).unwrap();
    assert_eq!(
        club.played(),
        2,
        "the deadline (and its grace) plays the turn"
    );

    // ---- Turn 3: HOLD holds; players are told; REJECT replays from a
    // fresh seed; APPROVE 3, as the draft says, releases it.
    let reply = club.moderator("HOLD ON\n");
    assert!(
        reply.contains("> HOLD ON\n  hold for approval on"),
        "{reply}"
    );
    club.conan(DRAGONS_HOLD);
    club.tarascus(KNIGHTS_HOLD);
    assert_eq!(
        (club.played(), club.released()),
        (3, 2),
        "turn 3 is played as a draft"
    );
    let draft = club.kinds_to(MODERATOR, "draft").pop().unwrap();
    assert!(draft.contains("APPROVE 3"), "{draft}");
    let refused = club.conan(DRAGONS_HOLD);
    assert_eq!(refused.state(), "refused", "{refused:?}");
    assert!(
        club.last_to(CONAN)
            .contains("with the moderator for approval"),
        "{refused:?} {}",
        club.last_to(CONAN)
    );
    assert_eq!(
        club.played(),
        3,
        "nothing of turn 4 is played while turn 3 is held"
    );
    let reply = club.moderator("REJECT\n");
    assert!(
        reply.contains("turn 3 played again from a fresh seed"),
        "{reply}"
    );
    let reply = club.moderator("APPROVE 3\n");
    assert!(reply.contains("report of turn 3 released"), "{reply}");
    let report = club.kinds_to(CONAN, "report").pop().unwrap();
    assert!(
        report.contains("report of turn 3") && report.contains("played again"),
        "both seeds revealed: {report}"
    );
    // The web export shows the approved turn as released, not as a draft.
    let site = dir.path().join("site");
    umpire::post::export_html(&mut club.po, "ford", &site).unwrap();
    let page = std::fs::read_to_string(site.join("turn-3.html")).unwrap();
    assert!(!page.contains("DRAFT"), "{page}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("<a href=\"turn-3.html\">turn 3</a>")
            && index.contains("<img src=\"turn-3.png\""),
        "{index}"
    );
    club.moderator("HOLD OFF\n");

    // ---- Turn 4: the moderator's typos are each answered; EXTEND is
    // announced and the next report and STATUS show the new deadline.
    let before = club.deadline();
    let reply = club.moderator(
        "EXTNED 5\nEXTEND 24\nDICE TURN 4 melee:dragons=9\nDEADLINE 2026-13-45 25:00\nEXTEND -5\n",
    );
    assert!(reply.contains("did you mean EXTEND?"), "{reply}");
    assert!(
        reply.contains("> EXTEND 24\n  deadline extended to"),
        "{reply}"
    );
    assert!(reply.contains("no dice taken for turn 4"), "{reply}");
    assert!(reply.contains("is not a date and time"), "{reply}");
    assert!(
        reply.contains("could not read this EXTEND command"),
        "{reply}"
    );
    assert_eq!(club.deadline(), before + Duration::hours(24));
    let shown = umpire::post::gamefile::show_deadline(club.deadline(), chrono_tz::UTC);
    assert!(club
        .kinds_to(CONAN, "notice")
        .last()
        .unwrap()
        .contains(&shown));
    club.tarascus("STATUS\n");
    assert!(
        club.last_to(TARASCUS)
            .contains(&format!("Deadline: {shown}")),
        "{}",
        club.last_to(TARASCUS)
    );
    club.conan(DRAGONS_HOLD);
    club.tarascus(KNIGHTS_HOLD);
    assert_eq!(club.played(), 4);

    // ---- Turn 5: REPLACE checks the address, welcomes the new player,
    // tells the old; the moderator enters orders for the absent newcomer.
    let reply = club.moderator("REPLACE nemedia not-an-address\n");
    assert!(reply.contains("is not a mail address"), "{reply}");
    let reply = club.moderator(&format!("REPLACE nemedia {NEW_PLAYER}\n"));
    assert!(
        reply.contains("the new player has a fresh password and the old one was told"),
        "{reply}"
    );
    let welcome = club.last_to(NEW_PLAYER);
    assert!(welcome.contains("Your password: "), "{welcome}");
    assert!(
        club.last_to(TARASCUS)
            .contains("You no longer command nemedia")
            || club.last_to(TARASCUS).contains("no longer works")
    );
    assert_eq!(
        club.tarascus(KNIGHTS_HOLD).state(),
        "refused",
        "the old player's password no longer works"
    );
    let reply = club.moderator(&format!("ORDERS FOR nemedia\n{KNIGHTS_HOLD}"));
    assert!(
        reply.contains("orders for nemedia entered for turn 5"),
        "{reply}"
    );
    assert!(club
        .last_to(NEW_PLAYER)
        .contains("has entered orders for your side"));
    club.conan(DRAGONS_HOLD);
    assert_eq!(club.played(), 5);
    assert!(club.last_to(NEW_PLAYER).contains("report of turn 5"));

    // ---- Turn 6: PAUSE is announced and refuses orders; RESUME is
    // announced with the deadline; END GAME ends it, and STATUS says so.
    club.moderator("PAUSE\n");
    assert!(club
        .kinds_to(CONAN, "notice")
        .last()
        .unwrap()
        .contains("The game is paused"));
    assert_eq!(club.conan(DRAGONS_HOLD).state(), "refused");
    assert!(
        club.last_to(CONAN).contains("paused"),
        "{}",
        club.last_to(CONAN)
    );
    club.moderator("RESUME\n");
    assert!(club
        .kinds_to(NEW_PLAYER, "notice")
        .last()
        .unwrap()
        .contains("The game resumes: orders for turn 6 are due by"));
    let pw = welcome
        .lines()
        .find_map(|l| l.strip_prefix("Your password: "))
        .unwrap()
        .trim()
        .to_string();
    club.conan(DRAGONS_HOLD);
    club.mail(
        NEW_PLAYER,
        &format!("GAME ford SIDE nemedia PASSWORD {pw}\n{KNIGHTS_HOLD}"),
    );
    assert_eq!(club.played(), 6);
    let reply = club.moderator("END GAME\n");
    assert!(reply.contains("game ended"), "{reply}");
    assert!(club
        .kinds_to(CONAN, "notice")
        .last()
        .unwrap()
        .contains("ended the game"));
    club.conan("STATUS\n");
    let status = club.last_to(CONAN);
    assert!(
        status.contains("the game has ended")
            && !status.contains("Deadline")
            && !status.contains("no orders yet"),
        "{status}"
    );
    assert_eq!(club.conan(DRAGONS_HOLD).state(), "refused");
    let reply = club.moderator("RESUME\nFORCE\n");
    assert!(
        reply.contains("> FORCE\n  game ford has ended; nothing changed"),
        "{reply}"
    );
    assert_eq!(club.played(), 6);

    // The desk shows it all without SQL.
    let shown = desk::show(&mut club.po, "ford").unwrap();
    assert!(shown.contains("ended"), "{shown}");
    let log = desk::log(&mut club.po, "ford", 200).unwrap();
    assert!(
        log.contains("the moderator entered orders for nemedia") && log.contains("side nemedia"),
        "{log}"
    );
}
