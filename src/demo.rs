//! `umpire demo`: a whole game played through the local spool, so a
//! newcomer sees every kind of mail umpire sends without a mail server.
//!
//! The demo writes a configuration, the ready scenario and a game file into
//! a fresh folder, creates the game, then for each round drops the players'
//! order mails into the spool Maildir and runs the same round as
//! `umpire run --once` on a simulated clock; a round its writers miss is
//! played at its deadline. Three games are scripted: the Hyborean ford
//! (`--game ford`, the default), Soissons of Furor Barbarus (`--game
//! soissons`: the set-up rounds, moves and an attack, standing reactions, a
//! missed player-turn) and the Trebia of FR! Ancients (`--game trebia`: the
//! first turn without a pack, the moderator as game master answering every
//! situation by mail, his first answer with a mistyped line refused; his
//! answers follow the stand-in pack's procedures, "stand-in rules, not
//! FR!"). Among the mails are a typo (answered with a
//! suggestion) and a spoofed message with a wrong password (refused to the
//! registered address); the ford's also has a STATUS request.

use crate::config::Config;
use crate::games::Json;
use crate::mail::compose::Outgoing;
use crate::post::{gamefile::GameFile, serve, PostError, PostOffice};
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::AtomicBool;

const SCENARIO: &str = include_str!("../campaigns/scenarios/river-crossing.toml");

const GAME: &str = r#"id = "ford"
title = "The Ford of the Tybor"
scenario = "river-crossing.toml"
timezone = "UTC"
first_deadline = "FIRST_DEADLINE"
turn_hours = 48
max_turns = 4

[moderator]
address = "moderator@club.example"
password = "demo-moderator"

[[side]]
id = "aquilonia"
address = "conan@aquilonia.example"
password = "dragon7"

[[side]]
id = "nemedia"
address = "tarascus@nemedia.example"
password = "serpent3"
"#;
/// One round's scripted mails, from the round's number and the game's
/// state: (from, body).
type Script = fn(u32, &Json) -> Vec<(&'static str, String)>;

/// The Hyborean ford's mails, turn by turn.
fn ford(turn: u32, _: &Json) -> Vec<(&'static str, String)> {
    let a = "conan@aquilonia.example";
    let n = "tarascus@nemedia.example";
    let ha = format!("GAME ford SIDE aquilonia PASSWORD dragon7 TURN {turn}\n");
    let hn = format!("GAME ford SIDE nemedia PASSWORD serpent3 TURN {turn}\n");
    match turn {
        1 => vec![
            (n, format!("{hn}Nemedian Knigts: phase 1 move 6\nNemedian Spearmen: phase 1 move full\nEND\n")),
            ("spy@zamora.example", "GAME ford SIDE nemedia PASSWORD guess\nNemedian Knights: phase 1 move full\nEND\n".into()),
            (n, format!("{hn}STATUS\nNemedian Knights: phase 1 move 6\nNemedian Adventurers: phase 1 move 8\nNemedian Spearmen: phase 1 move full\nEND\n")),
            (a, format!("{ha}Black Dragons: phase 1 move full\nBossonian Archers: phase 1 move 4\nAquilonian Foot: phase 1 move full\nEND\n")),
        ],
        2 => vec![
            (a, format!("{ha}Black Dragons: phase 1 move 6\nBossonian Archers: phase 1 hold\nAquilonian Foot: phase 1 move full\nEND\n")),
            (n, format!("{hn}Nemedian Knights: phase 1 move 6\nNemedian Spearmen: phase 1 form column 4 wide\nEND\n")),
        ],
        _ => vec![
            (a, format!("{ha}Black Dragons: phase 1 charge Nemedian Knights\nEND\n")),
            (n, format!("{hn}Nemedian Knights: phase 1 charge Black Dragons\nEND\n")),
        ],
    }
}

const SOISSONS: &str = include_str!("../campaigns/furor-barbarus/scenarios/soissons.toml");

const SOISSONS_GAME: &str = r#"ruleset = "furor-barbarus"
id = "soissons"
title = "Soissons, 486"
scenario = "soissons.toml"
timezone = "UTC"
first_deadline = "FIRST_DEADLINE"
turn_hours = 48

[moderator]
address = "moderator@club.example"
password = "demo-moderator"

[[side]]
id = "franks"
address = "clovis@franks.example"
password = "clovis1"

[[side]]
id = "gallo-romans"
address = "syagrius@soissons.example"
password = "syag2"
"#;

/// Soissons' mails, round by round: the Gallo-Roman then the Frankish
/// set-up, the Franks' turn 1 (a typo first) with the Gallo-Romans'
/// standing reactions and a spy, a Gallo-Roman player-turn missed, turn 2.
/// Every line but the typo is taken on whatever board the dice make.
fn soissons(round: u32, _: &Json) -> Vec<(&'static str, String)> {
    let f = "clovis@franks.example";
    let g = "syagrius@soissons.example";
    let hf = format!("GAME soissons SIDE franks PASSWORD clovis1 TURN {round}\n");
    let hg = format!("GAME soissons SIDE gallo-romans PASSWORD syag2 TURN {round}\n");
    match round {
        1 => vec![(g, format!("{hg}gr-archers-a: set up in 0410\nplace gr-archers-b in 0412\nEND\n"))],
        2 => vec![(f, format!("{hf}place light-1 in 0814\nEND\n"))],
        3 => vec![
            (g, format!("{hg}retreat legionaries-4 0406 0506\nadvance palatina into 0608\nEND\n")),
            ("spy@alamanni.example", "GAME soissons SIDE franks PASSWORD guess\nsalian-4a: move 0706\nEND\n".into()),
            (f, format!("{hf}Salain 4a: move 0706 0606\nEND\n")),
            (f, format!("{hf}salian-4a: move 0706 0606\nClovis: move 0706 0606\narchers: move 0807 0708\nattack legionaries-4 with salian-4a\nEND\n")),
        ],
        5 => vec![(f, format!("{hf}salian-3d: move 0711\nEND\n"))],
        6 => vec![(g, format!("{hg}militia-1b: move 0404\nEND\n"))],
        // Round 4, the Gallo-Romans' turn 1: they miss it.
        _ => Vec::new(),
    }
}

const TREBIA: &str = include_str!("../campaigns/fr-ancients/scenarios/trebia.toml");
const ROME: &str = include_str!("../campaigns/fr-ancients/armies/consular-legion-218bc.toml");
const CARTHAGE: &str = include_str!("../campaigns/fr-ancients/armies/hannibal-218bc.toml");

const TREBIA_GAME: &str = r#"ruleset = "fr-ancients"
id = "trebia"
title = "The Trebia, December 218 BC"
scenario = "trebia.toml"
timezone = "UTC"
first_deadline = "FIRST_DEADLINE"
turn_hours = 48

# No pack: the moderator is the game master.
[moderator]
address = "gamemaster@club.example"
password = "demo-gm"

[[side]]
id = "rome"
address = "sempronius@rome.example"
password = "rome1"
army = "consular-legion-218bc.toml"

[[side]]
id = "carthage"
address = "hannibal@carthage.example"
password = "carth2"
army = "hannibal-218bc.toml"
"#;

/// The Trebia's mails: the phasing side's orders (its horse and
/// skirmishers forward; a spy with a guessed password in the first round),
/// and in each round the game master answers, his answer by the stand-in
/// pack's procedures (the first one after a line he mistyped, refused).
fn trebia(round: u32, state: &Json) -> Vec<(&'static str, String)> {
    use crate::games::fr_ancients::ruleset::{demo_orders, stand_in_answer};
    let gm = "gamemaster@club.example";
    let header = format!("MODERATOR trebia PASSWORD demo-gm TURN {round}\n");
    if state.get("pending").is_some_and(|p| !p.is_null()) {
        let Ok(answer) = stand_in_answer(state) else {
            return Vec::new();
        };
        let mut mails = Vec::new();
        let first = state.get("played").and_then(Json::as_u64) == Some(1)
            && state["pending"]["answers"]
                .as_array()
                .is_some_and(Vec::is_empty);
        if first {
            mails.push((gm, format!("{header}1: pas\nEND\n")));
        }
        mails.push((gm, format!("{header}{answer}END\n")));
        return mails;
    }
    let Ok((side, orders)) = demo_orders(state) else {
        return Vec::new();
    };
    let (from, password) = if side == "rome" {
        ("sempronius@rome.example", "rome1")
    } else {
        ("hannibal@carthage.example", "carth2")
    };
    let mut mails = Vec::new();
    if round == 1 {
        mails.push((
            "spy@carthage.example",
            "GAME trebia SIDE rome PASSWORD guess\nRoman Cavalry: move to 1, 1\nEND\n".to_string(),
        ));
    }
    mails.push((
        from,
        // A player's TURN is the game turn (the round is the game master's).
        format!(
            "GAME trebia SIDE {side} PASSWORD {password} TURN {}\n{orders}END\n",
            state["battle"]["turn"].as_u64().unwrap_or(1)
        ),
    ));
    mails
}

/// Whether the Trebia's demonstration is over: its first turn is played.
fn trebia_done(state: &Json) -> bool {
    state["battle"]["turn"].as_u64().is_some_and(|t| t >= 2)
}

fn never_done(_: &Json) -> bool {
    false
}

/// A game the demo plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// The Ford of the Tybor (Royal Armies of the Hyborean Age).
    Ford,
    /// Soissons, 486 (Furor Barbarus).
    Soissons,
    /// The Trebia, 218 BC (FR! Ancients, with a game master).
    Trebia,
}

impl std::str::FromStr for Game {
    type Err = String;
    fn from_str(s: &str) -> Result<Game, String> {
        match s {
            "ford" => Ok(Game::Ford),
            "soissons" | "furor" => Ok(Game::Soissons),
            "trebia" | "fr-ancients" => Ok(Game::Trebia),
            other => Err(format!(
                "no demo game '{other}' (there are: ford, soissons, trebia)"
            )),
        }
    }
}

/// What the driver needs of a game: its files, its rounds and their mails.
struct Demo {
    id: &'static str,
    /// The scenario's file name and text, and the game file's text.
    scenario: (&'static str, &'static str),
    game_file: &'static str,
    /// Other files the game file names (army files), by name.
    files: &'static [(&'static str, &'static str)],
    /// At most this many rounds are played.
    rounds: u32,
    script: Script,
    /// Whether the demonstration has shown what it plays for.
    done: fn(&Json) -> bool,
    /// The subject of a player's mail, before the round's number.
    subject: &'static str,
    /// The kinds of mail umpire sends in this game, for the summary.
    mails: &'static str,
}

impl Game {
    fn demo(self) -> Demo {
        match self {
            Game::Ford => Demo {
                id: "ford",
                scenario: ("river-crossing.toml", SCENARIO),
                game_file: GAME,
                files: &[],
                rounds: 4,
                script: ford,
                done: never_done,
                subject: "Orders for turn",
                mails: "welcomes, confirmations, a refusal, reports",
            },
            Game::Soissons => Demo {
                id: "soissons",
                scenario: ("soissons.toml", SOISSONS),
                game_file: SOISSONS_GAME,
                files: &[],
                rounds: 6,
                script: soissons,
                done: never_done,
                subject: "Orders for round",
                mails: "welcomes, confirmations, a refusal, reports with the map",
            },
            Game::Trebia => Demo {
                id: "trebia",
                scenario: ("trebia.toml", TREBIA),
                game_file: TREBIA_GAME,
                files: &[
                    ("consular-legion-218bc.toml", ROME),
                    ("hannibal-218bc.toml", CARTHAGE),
                ],
                rounds: 40,
                script: trebia,
                done: trebia_done,
                subject: "Orders for round",
                mails: "welcomes, confirmations, a refusal, the game master's situations and the answers to him, reports",
            },
        }
    }
}

fn player_mail(
    from: &str,
    to: &str,
    subject: &str,
    body: String,
    n: usize,
    now: DateTime<Utc>,
) -> Result<Vec<u8>, PostError> {
    let mail = Outgoing {
        from: from.to_string(),
        to: vec![to.to_string()],
        subject: subject.to_string(),
        text: body,
        html: None,
        inline_images: Vec::new(),
        attachments: Vec::new(),
        in_reply_to: None,
        references: Vec::new(),
        // A player's own mail: no Auto-Submitted header.
        auto_submitted: crate::mail::compose::AutoSubmitted::No,
    };
    let domain = from.rsplit('@').next().unwrap_or("example");
    mail.to_rfc5322(
        &crate::mail::compose::new_message_id(domain, &format!("demo.{n}")),
        now,
    )
    .map_err(|e| PostError::Transport(e.to_string()))
}

/// The round the game waits for, and its deadline.
fn current(po: &PostOffice, id: &str) -> Result<(u32, DateTime<Utc>), PostError> {
    let row = crate::store::games::load(po.store().conn(), id)?
        .ok_or_else(|| PostError::NoGame(id.to_string()))?;
    Ok((
        row.round,
        row.deadline + Duration::minutes(i64::from(row.grace_minutes)),
    ))
}

/// The placeholder in the demo games' files for the first deadline: two
/// days after the demo's day, at 20:00.
const FIRST_DEADLINE: &str = "\"FIRST_DEADLINE\"";

/// Play the demo game in `dir` and say where everything is. `today` is the
/// day it is run (the caller reads the clock): the simulated clock starts
/// at 09:00 UTC that day, so every deadline its mails give lies ahead.
///
/// # Errors
/// When `dir` is not empty, or on any store or file error.
pub fn run(dir: &Path, game: Game, today: NaiveDate) -> Result<String, PostError> {
    let demo = game.demo();
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    if dir.exists() && std::fs::read_dir(dir).map_err(io)?.next().is_some() {
        return Err(PostError::Transport(format!(
            "{} is not empty; give the demo a fresh folder with --dir",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir.join("inbox/new")).map_err(io)?;
    std::fs::write(dir.join(demo.scenario.0), demo.scenario.1).map_err(io)?;
    let first_deadline = format!(
        "\"{} 20:00\"",
        (today + Duration::days(2)).format("%Y-%m-%d")
    );
    std::fs::write(
        dir.join("game.toml"),
        demo.game_file.replace(FIRST_DEADLINE, &first_deadline),
    )
    .map_err(io)?;
    for (name, text) in demo.files {
        std::fs::write(dir.join(name), text).map_err(io)?;
    }
    std::fs::write(
        dir.join("umpire.toml"),
        "database = \"umpire.sqlite\"\naddress = \"umpire@club.example\"\npoll_seconds = 1\n\n[spool]\noutbox = \"outbox\"\ninbox = \"inbox\"\n",
    )
    .map_err(io)?;
    let config =
        Config::load(&dir.join("umpire.toml")).map_err(|e| PostError::Transport(e.to_string()))?;
    let umpire_address = config.address.clone();
    let mut po = PostOffice::open(config)?;
    let mut now = Utc.from_utc_datetime(&today.and_time(NaiveTime::MIN)) + Duration::hours(9);
    po.create_game(&GameFile::load(&dir.join("game.toml"))?, now)?;
    let stop = AtomicBool::new(false);
    serve(&mut po, &stop, true, || now)?;
    let mut n = 0;
    for _ in 0..demo.rounds {
        let (round, _) = current(&po, demo.id)?;
        let (_, state) = po.state_of(demo.id)?;
        if (demo.done)(&state) {
            break;
        }
        now += Duration::hours(2);
        for (from, body) in (demo.script)(round, &state) {
            n += 1;
            let raw = player_mail(
                from,
                &umpire_address,
                &format!("{} {round}", demo.subject),
                body,
                n,
                now,
            )?;
            std::fs::write(dir.join(format!("inbox/new/{n:04}.demo")), raw).map_err(io)?;
            now += Duration::minutes(5);
            serve(&mut po, &stop, true, || now)?;
        }
        // A round its writers missed is played at its deadline.
        let (waiting, deadline) = current(&po, demo.id)?;
        if waiting == round {
            now = now.max(deadline + Duration::minutes(1));
            serve(&mut po, &stop, true, || now)?;
        }
        now += Duration::hours(46);
    }
    let mut out = String::new();
    let outbox = dir.join("outbox");
    let mut files: Vec<_> = std::fs::read_dir(&outbox)
        .map_err(io)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    let _ = writeln!(
        out,
        "The demo game '{}' was played in {}.",
        demo.id,
        dir.display()
    );
    let _ = writeln!(
        out,
        "  store:          {}",
        dir.join("umpire.sqlite").display()
    );
    let _ = writeln!(
        out,
        "  player mails:   {} (read from the spool Maildir)",
        dir.join("inbox/cur").display()
    );
    let _ = writeln!(
        out,
        "  umpire's mails: {} ({} .eml files: {})",
        outbox.display(),
        files.len(),
        demo.mails
    );
    for kind in ["report", "confirmation", "refusal", "welcome"] {
        // Spool files are named after their Message-ID: umpire.KIND.….eml
        if let Some(f) = files.iter().find(|f| {
            f.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&format!(".{kind}.")))
        }) {
            let _ = writeln!(out, "  e.g. a {kind}: {}", f.display());
        }
    }
    Ok(out)
}
