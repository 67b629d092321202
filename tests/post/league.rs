//! Issue 24, league play: a league of four members on a real SQLite file.
//! Round 1 is paired round-robin and played by mail to the end (one game
//! played out, one lost for want of orders); round 2's games are ended by
//! the moderator and their results entered; the standings mail and the
//! league's web page are read as a member would. Hostile league files are
//! refused with reasons.

use crate::common::*;
use chrono::{DateTime, Duration, Utc};
use std::path::{Path, PathBuf};
use umpire::post::{league, PostOffice};

const MEMBERS: [(&str, &str); 4] = [
    ("Anna", "anna@club.example"),
    ("Bob", "bob@club.example"),
    ("Carl", "carl@club.example"),
    ("Dora", "dora@club.example"),
];

/// The ford, one turn long, as a league's game file.
fn game_template(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(game_file(dir))
        .unwrap()
        .replace("turn_hours = 48", "turn_hours = 48\nmax_turns = 1");
    let path = dir.join("ford-league.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn league_text(extra: &str) -> String {
    let mut s = format!(
        "id = \"winter\"\nname = \"The Winter League\"\npairing = \"round-robin\"\nrounds = 3\n\
         games = [\"ford-league.toml\"]\n{extra}\n[moderator]\naddress = \"{MODERATOR}\"\n\
         [forfeit]\nnmr_rounds = 1\n"
    );
    for (name, address) in MEMBERS {
        s.push_str(&format!(
            "[[member]]\nname = \"{name}\"\naddress = \"{address}\"\n"
        ));
    }
    s
}

fn write_league(dir: &Path, text: &str) -> PathBuf {
    game_template(dir);
    let path = dir.join("winter.toml");
    std::fs::write(&path, text).unwrap();
    path
}

struct Club {
    po: PostOffice,
    now: DateTime<Utc>,
    n: u32,
}

impl Club {
    fn mail(&mut self, from: &str, body: &str) {
        self.n += 1;
        self.now += Duration::minutes(1);
        self.po
            .accept(
                &mail(from, &format!("l{}@club", self.n), body),
                "test",
                self.now,
            )
            .unwrap();
    }

    /// The text of every mail queued to `to` whose subject has `subject`.
    fn mails_to(&self, to: &str, subject: &str) -> Vec<String> {
        outbox(&self.po)
            .into_iter()
            .filter(|(_, t, raw)| t == to && raw.contains(subject))
            .map(|(_, _, raw)| body_text(&raw))
            .collect()
    }

    /// The header line and the example order of `to`'s welcome to `game`.
    fn orders_from_welcome(&self, to: &str, game: &str) -> String {
        let welcome = self
            .mails_to(to, &format!("[{game}] Welcome"))
            .pop()
            .unwrap_or_else(|| panic!("no welcome to {to} for {game}"));
        let at = welcome
            .find(&format!("GAME {game} SIDE"))
            .expect("the header line");
        let rest = &welcome[at..];
        let end = rest.find("END").expect("the END line");
        format!("{}END\n", &rest[..end])
    }

    fn moderator_header(&self, game: &str) -> String {
        let welcome = self
            .mails_to(MODERATOR, &format!("[{game}] You moderate"))
            .pop()
            .expect("the moderator's welcome");
        let line = welcome
            .lines()
            .find(|l| l.contains("Moderator commands start with the line: "))
            .unwrap();
        line.split(": ").nth(1).unwrap().to_string()
    }

    /// The members' addresses playing `game`, by side.
    fn players(&self, game: &str) -> Vec<(String, String)> {
        let mut st = self
            .po
            .store()
            .conn()
            .prepare("SELECT side, address FROM sides WHERE game_id = ?1 ORDER BY side")
            .unwrap();
        st.query_map([game], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap()
    }

    fn name_of(address: &str) -> &'static str {
        MEMBERS.iter().find(|(_, a)| *a == address).unwrap().0
    }
}

#[test]
fn a_league_of_four_is_paired_played_by_mail_scored_mailed_and_exported() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_league(dir.path(), &league_text(""));
    let mut club = Club {
        po: PostOffice::open(config(dir.path())).unwrap(),
        now: t0(),
        n: 0,
    };
    let loaded = league::load(&path).unwrap();
    league::create(&mut club.po, &loaded, club.now).unwrap();
    let again = league::create(&mut club.po, &loaded, club.now).unwrap_err();
    assert!(again.to_string().contains("already exists"), "{again}");

    // Round 1: two real games, each player welcomed by mail.
    let paired = league::pair(&mut club.po, "winter", None, club.now).unwrap();
    assert!(
        paired.contains("winter-1-1: Anna (aquilonia) v Dora (nemedia)"),
        "{paired}"
    );
    assert!(paired.contains("winter-1-2: Bob (aquilonia) v Carl (nemedia)"));
    for (_, address) in MEMBERS {
        assert_eq!(club.mails_to(address, "Welcome: you command").len(), 1);
    }
    // Round 2 waits for round 1's results.
    let early = league::pair(&mut club.po, "winter", None, club.now).unwrap_err();
    assert!(
        early
            .to_string()
            .contains("still has games without a result"),
        "{early}"
    );

    // winter-1-1 is played out: both send orders, the one turn is played.
    for (_, address) in club.players("winter-1-1") {
        let orders = club.orders_from_welcome(&address, "winter-1-1");
        club.mail(&address, &orders);
    }
    club.po.tick(club.now).unwrap();
    let (_, a1) = outbox(&club.po)
        .into_iter()
        .map(|(k, _, raw)| (k, raw))
        .find(|(k, raw)| k == "report" && raw.contains("[winter-1-1] Turn 1: report"))
        .expect("the report of winter-1-1");
    assert!(!a1.is_empty());
    // In winter-1-2 only aquilonia writes: at the deadline nemedia's player
    // has sent nothing in the game's only round and forfeits (LG-3).
    let players = club.players("winter-1-2");
    let (_, aquilonia) = &players[0];
    let orders = club.orders_from_welcome(aquilonia, "winter-1-2");
    club.mail(aquilonia, &orders);
    club.now = t0() + Duration::hours(49);
    club.po.tick(club.now).unwrap();

    let text = league::standings_text(&mut club.po, "winter").unwrap();
    assert!(
        text.contains("winter-1-2: Carl forfeited to Bob (no orders, LG-3)"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&league::standings_json(&mut club.po, "winter").unwrap()).unwrap();
    let first = &json["games"][0];
    assert_eq!(first["game"], "winter-1-1");
    let result = first["result"].as_str().expect("winter-1-1 is scored");
    assert_eq!(first["how"], "board");
    let bob = json["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "Bob")
        .unwrap();
    assert_eq!(
        (bob["won"].as_u64(), bob["points"].as_u64()),
        (Some(1), Some(3))
    );
    // A forfeit does not move the ratings.
    assert_eq!(bob["rating"].as_f64(), Some(1500.0));

    // The standings went to every member and the moderator, once.
    for address in MEMBERS.iter().map(|m| m.1).chain([MODERATOR]) {
        let mails = club.mails_to(address, "[winter] Standings after round 1");
        assert_eq!(mails.len(), 1, "{address}");
        let m = &mails[0];
        assert!(
            m.contains("The Winter League: the standings after round 1"),
            "{m}"
        );
        assert!(m.contains("Points  Rating"), "{m}");
        assert!(m.contains("Carl forfeited to Bob"), "{m}");
        let board_result = match result {
            "first-won" => "Anna beat Dora",
            "second-won" => "Dora beat Anna",
            "drawn" => "Anna and Dora drew",
            other => panic!("winter-1-1 scored {other}"),
        };
        assert!(m.contains(board_result), "{m}");
    }

    // Round 2 (the circle turns): the moderator ends both games and enters
    // their results; nothing is entered for a game still in play.
    let paired = league::pair(&mut club.po, "winter", None, club.now).unwrap();
    assert!(paired.contains("winter-2-1: "), "{paired}");
    let in_play = league::enter_result(
        &mut club.po,
        "winter",
        "winter-2-1",
        &["draw".into()],
        false,
        club.now,
    )
    .unwrap_err();
    assert!(in_play.to_string().contains("still in play"), "{in_play}");
    for g in ["winter-2-1", "winter-2-2"] {
        let header = club.moderator_header(g);
        club.mail(MODERATOR, &format!("{header}\nEND GAME\n"));
    }
    let players = club.players("winter-2-1");
    let winner = Club::name_of(&players[1].1);
    let said = league::enter_result(
        &mut club.po,
        "winter",
        "winter-2-1",
        &["win".into(), "nemedia".into()],
        false,
        club.now,
    )
    .unwrap();
    assert!(said.starts_with(&format!("{winner} beat ")), "{said}");
    let typo = league::enter_result(
        &mut club.po,
        "winter",
        "winter-2-2",
        &["win".into(), "nemedai".into()],
        false,
        club.now,
    )
    .unwrap_err();
    assert!(
        typo.to_string().contains("'nemedai' is neither side"),
        "{typo}"
    );
    league::enter_result(
        &mut club.po,
        "winter",
        "winter-2-2",
        &["draw".into()],
        false,
        club.now,
    )
    .unwrap();
    let twice = league::enter_result(
        &mut club.po,
        "winter",
        "winter-2-2",
        &["draw".into()],
        false,
        club.now,
    )
    .unwrap_err();
    assert!(twice.to_string().contains("--correct"), "{twice}");
    for (_, address) in MEMBERS {
        assert_eq!(
            club.mails_to(address, "[winter] Standings after round 2")
                .len(),
            1
        );
    }
    // A correction mails the round's standings again, with the new result.
    let corrected = league::enter_result(
        &mut club.po,
        "winter",
        "winter-2-2",
        &["forfeit".into(), "both".into()],
        true,
        club.now,
    )
    .unwrap();
    assert!(corrected.ends_with("both forfeited"), "{corrected}");
    let mails = club.mails_to("anna@club.example", "[winter] Standings after round 2");
    assert_eq!(mails.len(), 2);
    assert!(
        mails[1].contains("both forfeited (entered by the moderator)"),
        "{}",
        mails[1]
    );

    // The web page: the standings, each member's games linked to their archive.
    let site = dir.path().join("site");
    let written = league::export(&mut club.po, "winter", &site).unwrap();
    assert_eq!(written, 2, "the two games with released reports");
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(page.contains("<table id=\"standings\">"), "{page}");
    for (name, _) in MEMBERS {
        assert!(page.contains(&format!(">{name}</a>")), "{name}: {page}");
    }
    assert!(
        page.contains("<a href=\"winter-1-1/index.html\">winter-1-1</a>"),
        "{page}"
    );
    assert!(page.contains("Carl forfeited to Bob"), "{page}");
    assert!(site.join("winter-1-1/index.html").exists());
    assert!(site.join("winter-1-2/turn-1.html").exists());

    // The club's web pages: the league listed, its page linking each
    // game's own pages on the site.
    let web = dir.path().join("web");
    umpire::post::site::refresh(&mut club.po, &web).unwrap();
    let index = std::fs::read_to_string(web.join("index.html")).unwrap();
    assert!(
        index.contains("href=\"leagues/winter/index.html\""),
        "{index}"
    );
    let page = std::fs::read_to_string(web.join("leagues/winter/index.html")).unwrap();
    assert!(
        page.contains("<a href=\"../../games/winter-1-1/index.html\">winter-1-1</a>"),
        "{page}"
    );
    assert!(page.contains("href=\"../../style.css\""), "{page}");
    assert!(web.join("games/winter-1-1/index.html").exists());
}

#[test]
fn the_moderators_list_pairs_a_round_and_its_mistakes_are_pointed_at() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_league(
        dir.path(),
        &league_text("").replace("\"round-robin\"", "\"moderator\""),
    );
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    league::create(&mut po, &league::load(&path).unwrap(), t0()).unwrap();
    let none = league::pair(&mut po, "winter", None, t0()).unwrap_err();
    assert!(none.to_string().contains("--pairs FILE"), "{none}");
    let bad =
        league::pair(&mut po, "winter", Some(("Anna v Dorra\n", "r1.txt")), t0()).unwrap_err();
    let bad = bad.to_string();
    assert!(
        bad.contains("--> r1.txt:1:8") && bad.contains("did you mean 'Dora'?"),
        "{bad}"
    );
    let paired = league::pair(
        &mut po,
        "winter",
        Some(("Dora v Anna\nbye Carl\n", "r1.txt")),
        t0(),
    )
    .unwrap();
    assert!(
        paired.contains("winter-1-1: Dora (aquilonia) v Anna (nemedia)"),
        "{paired}"
    );
    assert!(paired.contains("bye: Carl"), "{paired}");
    let bye = outbox(&po)
        .into_iter()
        .find(|(_, to, raw)| to == "carl@club.example" && raw.contains("a bye"))
        .map(|(_, _, raw)| body_text(&raw))
        .expect("Carl is told of his bye");
    assert!(bye.contains("worth 3 point(s)"), "{bye}");
    let text = league::standings_text(&mut po, "winter").unwrap();
    assert!(
        text.contains("  1  Carl  "),
        "the bye's points count: {text}"
    );
}

#[test]
fn hostile_league_files_are_refused_with_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |text: &str| -> String {
        let path = write_league(dir.path(), text);
        league::load(&path).unwrap_err().to_string()
    };
    let e = refused(&league_text("start_hours = 99999999"));
    assert!(
        e.contains("start_hours = 99999999: must be from 1 to 2160"),
        "{e}"
    );
    let e = refused(&league_text("[points]\nwin = 1000000"));
    assert!(
        e.contains("points.win = 1000000: must be from 0 to 100"),
        "{e}"
    );
    let e = refused(&league_text("").replace("rounds = 3", "rounds = 4000000000"));
    assert!(e.contains("rounds = 4000000000"), "{e}");
    let e = refused(&league_text("").replace("bob@club.example", "Anna@Club.example"));
    assert!(
        e.contains("members Anna and Bob have the same address anna@club.example"),
        "{e}"
    );
    let e = refused(&league_text("").replace("ford-league.toml", "no-such-game.toml"));
    assert!(
        e.contains("game file no-such-game.toml: cannot read"),
        "{e}"
    );
    // A game file whose scenario is not there.
    let path = write_league(dir.path(), &league_text(""));
    let gf = dir.path().join("ford-league.toml");
    let text = std::fs::read_to_string(&gf).unwrap();
    let scenario = text
        .lines()
        .find(|l| l.starts_with("scenario"))
        .unwrap()
        .to_string();
    std::fs::write(&gf, text.replace(&scenario, "scenario = \"atlantis.toml\"")).unwrap();
    let e = league::load(&path).unwrap_err().to_string();
    assert!(e.contains("scenario") && e.contains("atlantis.toml"), "{e}");
    // A preferred side no game has.
    let e = refused(
        &league_text("").replace("name = \"Dora\"", "name = \"Dora\"\nprefers = \"nemedai\""),
    );
    assert!(
        e.contains("prefers = \"nemedai\" is no side") && e.contains("did you mean 'nemedia'?"),
        "{e}"
    );
}

#[test]
fn the_shipped_example_league_file_reads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("campaigns/leagues/winter.toml");
    let loaded = league::load(&path).unwrap();
    assert_eq!(loaded.file.members.len(), 5);
    assert_eq!(loaded.games.len(), 2);
}
