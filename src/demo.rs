//! `umpire demo`: a whole game played through the local spool, so a
//! newcomer sees every kind of mail umpire sends, and the umpire's work in
//! them, without a mail server.
//!
//! The demo writes a configuration, the scenario and a game file into a
//! fresh folder, creates the game, then for each round drops the players'
//! order mails into the spool Maildir and runs the same round as
//! `umpire run --once` on a simulated clock that starts when the demo is
//! run and goes on two days a round; a round its writers miss is played at
//! its deadline. The store's entropy is seeded ([`Entropy::fixed`]), so
//! every round's seed, and so every die, is the same each run. Three games
//! are scripted:
//!
//! - the Hyborean ford (`--game ford`, the default): the battle of
//!   `campaigns/demo/ford.toml` with the mails of
//!   `campaigns/demo/ford-mails.toml` — charges and their bonuses, archery,
//!   a spell and its casting roll, a melee over two rounds, morale tests
//!   with a commander's +10, units falling back and routing, and a victor;
//!   among the mails a typo (answered with "did you mean"), a spoofed
//!   message with a wrong password (refused to the registered address) and
//!   a STATUS request;
//! - Soissons of Furor Barbarus (`--game soissons`, the mails of
//!   `campaigns/demo/soissons-mails.toml`): the set-up rounds, a typo, a
//!   spy, a cavalry charge, a retreat chain, a lone commander overrun,
//!   standing reactions and a missed player-turn;
//! - the Trebia of FR! Ancients (`--game trebia`): first the whole battle
//!   judged by the umpire's house pack (`campaigns/fr-ancients/house-pack.toml`,
//!   "umpire house rules — not Chipco's Fantasy Rules!"), the orders of
//!   each phase written by a small deterministic order writer
//!   ([`crate::games::fr_ancients::demo::battle_orders`]) until a morale
//!   clock runs down or the last turn's verdict (ruling FA-45) names the
//!   result; then the battle again without a pack, the moderator as game
//!   master: he gives his values once (`VALUES`, the house pack's troop
//!   table) in the deployment round, where each side places a horse unit,
//!   and answers every situation of turn 1 by mail — Rome's phase (an
//!   advance) asks him nothing, Carthage's (the Numidians charge the Roman
//!   horse: a charge and a melee) one situation, the melee; his first answer
//!   has a mistyped line, refused (his answers follow the stand-in pack's
//!   procedures, "stand-in rules, not FR!").
//!
//! What the demos show is not claimed but found: [`moments`]
//! reads the mails the demo wrote and names, for each moment, the first
//! mail whose text shows it (or none), and the summary prints that list.

use crate::config::Config;
use crate::entropy::Entropy;
use crate::games::Json;
use crate::mail::compose::Outgoing;
use crate::post::{gamefile::GameFile, serve, PostError, PostOffice};
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Timelike, Utc};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

const SCENARIO: &str = include_str!("../campaigns/demo/ford.toml");
/// The ford's order mails, turn by turn (data: `campaigns/demo/ford-mails.toml`).
const FORD_MAILS: &str = include_str!("../campaigns/demo/ford-mails.toml");

const GAME: &str = r#"id = "ford"
title = "The Ford of the Tybor"
scenario = "ford.toml"
timezone = "UTC"
first_deadline = "FIRST_DEADLINE"
turn_hours = 48

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
type Script = fn(u32, &Json) -> Result<Vec<(&'static str, String)>, PostError>;

/// A demo's order mails as its data file (`campaigns/demo/*-mails.toml`)
/// writes them.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptedMails {
    mail: Vec<ScriptedMail>,
}

/// One order mail: its round, the side it writes for, whether it is a
/// stranger's with a guessed password, and its lines.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ScriptedMail {
    round: u32,
    side: String,
    #[serde(default)]
    spy: bool,
    text: String,
}

/// Who writes a scripted game's mails: its id, each side's (id, address,
/// password), and the stranger who tries a guessed password.
struct Writers {
    game: &'static str,
    sides: &'static [(&'static str, &'static str, &'static str)],
    spy: &'static str,
}

/// The mails of `round` in the data file `name` (text `data`): each with
/// its header (`GAME … SIDE … PASSWORD … TURN round`) and `END`; a spy's
/// with a guessed password and no turn.
fn scripted(
    name: &str,
    data: &str,
    writers: &Writers,
    round: u32,
) -> Result<Vec<(&'static str, String)>, PostError> {
    let bad = |e: String| PostError::Transport(format!("campaigns/demo/{name}: {e}"));
    let mails: ScriptedMails = toml::from_str(data).map_err(|e| bad(e.to_string()))?;
    mails
        .mail
        .iter()
        .filter(|m| m.round == round)
        .map(|m| {
            let &(side, address, password) = writers
                .sides
                .iter()
                .find(|s| s.0 == m.side)
                .ok_or_else(|| bad(format!("no side '{}' in {}", m.side, writers.game)))?;
            let (from, header) = if m.spy {
                (
                    writers.spy,
                    format!("GAME {} SIDE {side} PASSWORD guess", writers.game),
                )
            } else {
                (
                    address,
                    format!(
                        "GAME {} SIDE {side} PASSWORD {password} TURN {round}",
                        writers.game
                    ),
                )
            };
            Ok((from, format!("{header}\n{}END\n", m.text)))
        })
        .collect()
}

/// The ford's writers.
const FORD_WRITERS: Writers = Writers {
    game: "ford",
    sides: &[
        ("aquilonia", "conan@aquilonia.example", "dragon7"),
        ("nemedia", "tarascus@nemedia.example", "serpent3"),
    ],
    spy: "spy@zamora.example",
};

/// The Hyborean ford's mails for `turn`, read from its data file.
fn ford(turn: u32, _: &Json) -> Result<Vec<(&'static str, String)>, PostError> {
    scripted("ford-mails.toml", FORD_MAILS, &FORD_WRITERS, turn)
}

/// What the ford's mails show, each found in the mails themselves.
const FORD_MOMENTS: &[Moment] = &[
    Moment {
        what: "a refused line and its \"did you mean\"",
        shows: |m, _| {
            m.kind == "confirmation"
                && m.text.contains("did you mean")
                && m.text.contains("refused")
        },
    },
    Moment {
        what: "a charge with its bonuses",
        shows: |m, _| {
            m.has_line(|l| l.contains(" charged ") && l.contains(" and struck "))
                && m.has_line(|l| l.contains(" fought ") && l.contains(", charge +"))
        },
    },
    Moment {
        what: "missile fire",
        shows: |m, _| m.has_line(|l| l.contains(" shot at ") && l.contains("kills:")),
    },
    Moment {
        what: "a spell and its casting roll",
        shows: |m, _| m.has_line(|l| l.contains(" cast the ") && l.contains(": roll ")),
    },
    Moment {
        what: "a melee's second round",
        shows: |m, before| {
            let now = fought(&m.text);
            before
                .iter()
                .filter(|b| b.kind == "report" && b.to == m.to)
                .any(|b| fought(&b.text).iter().any(|p| now.contains(p)))
        },
    },
    Moment {
        what: "morale tests",
        shows: |m, _| m.has_line(|l| l.contains(" tested morale ")),
    },
    Moment {
        what: "a commander's effect (commander with the unit +10)",
        shows: |m, _| {
            m.has_line(|l| l.contains("tested morale") && l.contains("commander with the unit +"))
        },
    },
    Moment {
        what: "a unit falling back",
        shows: |m, _| m.has_line(|l| l.contains(" fell back ")),
    },
    Moment {
        what: "a unit routing",
        shows: |m, _| {
            m.has_line(|l| {
                l.split(" routed ").skip(1).any(|rest| {
                    rest.starts_with(|c: char| c.is_ascii_digit()) || rest.starts_with("on ")
                })
            })
        },
    },
    Moment {
        what: "the end: a victor and the reason",
        shows: |m, _| {
            m.kind == "report"
                && m.text.contains("has won the battle.")
                && m.text.contains("The battle is over")
        },
    },
];

/// The seed the ford's dice come from: with it, every moment of
/// [`FORD_MOMENTS`] happens (the demo's test says so).
const FORD_SEED: u64 = 44;

/// "Black Dragons fought Nemedian Knights" for each melee line of a report.
fn fought(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| {
            let (pair, _) = l.split_once(" with ")?;
            pair.contains(" fought ").then_some(pair.trim())
        })
        .collect()
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

/// Soissons' order mails (data: `campaigns/demo/soissons-mails.toml`).
const SOISSONS_MAILS: &str = include_str!("../campaigns/demo/soissons-mails.toml");

/// Soissons' writers.
const SOISSONS_WRITERS: Writers = Writers {
    game: "soissons",
    sides: &[
        ("franks", "clovis@franks.example", "clovis1"),
        ("gallo-romans", "syagrius@soissons.example", "syag2"),
    ],
    spy: "spy@alamanni.example",
};

/// Soissons' mails for `round`, read from its data file.
fn soissons(round: u32, _: &Json) -> Result<Vec<(&'static str, String)>, PostError> {
    scripted(
        "soissons-mails.toml",
        SOISSONS_MAILS,
        &SOISSONS_WRITERS,
        round,
    )
}

/// The seed Soissons' set-up and dice come from: with it, the scripted
/// orders find the board they were written for.
const SOISSONS_SEED: u64 = 486;

/// What Soissons shows, each found in the mails themselves.
const SOISSONS_MOMENTS: &[Moment] = &[
    Moment {
        what: "a charge",
        shows: |m, _| m.kind == "report" && m.has_line(|l| l.contains(", charging ")),
    },
    Moment {
        what: "a retreat chain (a friend gives way)",
        shows: |m, _| m.has_line(|l| l.contains(" gives way to ")),
    },
    Moment {
        what: "a commander overrun",
        shows: |m, _| m.has_line(|l| l.contains(" is overrun by ")),
    },
];

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

[options]
deployment_round = true
"#;

/// The umpire's house pack: a whole base book, not FR!.
const HOUSE_PACK: &str = include_str!("../campaigns/fr-ancients/house-pack.toml");

const TREBIA_HOUSE_GAME: &str = r#"ruleset = "fr-ancients"
id = "trebia-house"
title = "The Trebia, December 218 BC (umpire house rules)"
scenario = "trebia.toml"
pack = "house-pack.toml"
timezone = "UTC"
first_deadline = "FIRST_DEADLINE"
turn_hours = 48
max_turns = 8

# A whole pack: no game master is asked.
[moderator]
address = "moderator@club.example"
password = "demo-moderator"

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

# The order writer plays from the scenario's layout (the game master's run
# shows the deployment round).
[options]
deployment_round = false
"#;

/// The seed of the Trebia's store: its dice, with the order writer's
/// orders, play the house battle to a result through every moment of
/// [`TREBIA_MOMENTS`] (the demo's test says so).
const TREBIA_SEED: u64 = 218;

/// The house battle's mails: the phasing side's orders, as the order
/// writer writes them for the table as it stands.
fn trebia_house(_round: u32, state: &Json) -> Result<Vec<(&'static str, String)>, PostError> {
    let (side, orders, turn) = crate::games::fr_ancients::demo::house_orders(state)
        .map_err(|e| PostError::Transport(format!("the Trebia's order writer: {e}")))?;
    let (from, password) = if side == "rome" {
        ("sempronius@rome.example", "rome1")
    } else {
        ("hannibal@carthage.example", "carth2")
    };
    Ok(vec![(
        from,
        format!("GAME trebia-house SIDE {side} PASSWORD {password} TURN {turn}\n{orders}END\n"),
    )])
}

/// A line of a report (not of a confirmation) that `f` accepts.
fn reported(m: &Mail, f: impl Fn(&str) -> bool) -> bool {
    m.kind == "report" && m.has_line(f)
}

/// What the Trebia shows, each found in the mails themselves.
const TREBIA_MOMENTS: &[Moment] = &[
    Moment {
        what: "a charge",
        shows: |m, _| reported(m, |l| l.contains(" charges the ")),
    },
    Moment {
        what: "missile fire",
        shows: |m, _| reported(m, |l| l.contains(" shoots ") && l.contains("): ")),
    },
    Moment {
        what: "a melee",
        shows: |m, _| reported(m, |l| l.contains("Melee of ")),
    },
    Moment {
        what: "a rally or fear test",
        shows: |m, _| {
            reported(m, |l| {
                l.contains(" rallies (")
                    || l.contains(" fails to rally (")
                    || l.contains(" fear check")
            })
        },
    },
    Moment {
        what: "a unit destroyed or routed",
        shows: |m, _| {
            reported(m, |l| {
                l.contains(" is destroyed") || l.contains(" flees off the table")
            })
        },
    },
    Moment {
        what: "the morale clock",
        shows: |m, _| reported(m, |l| l.contains("morale clock loses 1")),
    },
    Moment {
        what: "the result and its reason",
        shows: |m, _| {
            m.kind == "report"
                && (m.text.contains("has won the battle.")
                    || m.text.contains("The battle is a draw."))
                && m.text.contains("morale clock")
        },
    },
    Moment {
        what: "a situation for the game master",
        shows: |m, _| m.text.contains("You are the game master"),
    },
    Moment {
        what: "the game master's mistyped answer refused",
        shows: |m, _| m.text.contains("not an answer I can read"),
    },
];

/// The Trebia's mails with a game master: in the deployment round his
/// values for the game (the house pack's troop table, `VALUES`), a spy
/// with a guessed password, and each side's placing of a horse unit at the
/// east end of its zone; in turn 1 the Roman horse advances and the
/// Numidians charge it (a phase with contact: a charge and a melee). In
/// each round the game master answers, by the stand-in pack's procedures
/// (his first answer after a line he mistyped, refused).
fn trebia(round: u32, state: &Json) -> Result<Vec<(&'static str, String)>, PostError> {
    Ok(trebia_mails(round, state))
}

/// [`trebia`]'s mails.
fn trebia_mails(round: u32, state: &Json) -> Vec<(&'static str, String)> {
    use crate::games::fr_ancients::demo::{house_values, stand_in_answer};
    let gm = "gamemaster@club.example";
    let header = format!("MODERATOR trebia PASSWORD demo-gm TURN {round}\n");
    if state.get("pending").is_some_and(|p| !p.is_null()) {
        let Ok(answer) = stand_in_answer(state) else {
            return Vec::new();
        };
        let mut mails = Vec::new();
        if first_situation(state) {
            mails.push((gm, format!("{header}1: pas\nEND\n")));
        }
        mails.push((gm, format!("{header}{answer}END\n")));
        return mails;
    }
    let player = |side: &str, turn: u64, orders: &str| {
        let (from, password) = if side == "rome" {
            ("sempronius@rome.example", "rome1")
        } else {
            ("hannibal@carthage.example", "carth2")
        };
        // A player's TURN is the game turn (the round is the game master's).
        let body =
            format!("GAME trebia SIDE {side} PASSWORD {password} TURN {turn}\n{orders}END\n");
        (from, body)
    };
    if state.get("deploying").is_some_and(|d| !d.is_null()) {
        return vec![
            (
                gm,
                format!("MODERATOR trebia PASSWORD demo-gm\n{}END\n", house_values()),
            ),
            (
                "spy@carthage.example",
                "GAME trebia SIDE rome PASSWORD guess\nRoman Cavalry: move to 1, 1\nEND\n".into(),
            ),
            player("rome", 0, "Roman Cavalry: deploy at 48, 15 facing 0\n"),
            player(
                "carthage",
                0,
                "Numidian Horsemen 1: deploy at 48, 33 facing 180\n",
            ),
        ];
    }
    match state["battle"]["phase"].as_u64() {
        Some(1) => vec![player("rome", 1, "Roman Cavalry: advance 8\n")],
        _ => vec![player(
            "carthage",
            1,
            "Numidian Horsemen 1: charge Roman Cavalry\n",
        )],
    }
}

/// Whether the Trebia's demonstration is over: its first turn is played.
fn trebia_done(state: &Json) -> bool {
    state["battle"]["turn"].as_u64().is_some_and(|t| t >= 2)
}

/// Whether the situation a state waits on is the game master's first: the
/// first of the charge's phase (turn 1, Carthage's), the game's first with
/// the values given.
fn first_situation(state: &Json) -> bool {
    state["battle"]["phase"].as_u64() == Some(2)
        && state["pending"]["answers"]
            .as_array()
            .is_some_and(Vec::is_empty)
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
    /// The seed of the store's entropy (every round's seed and password
    /// is drawn from it), so the dice fall the same way every run; `None`:
    /// the system's randomness.
    seed: Option<u64>,
}

impl Game {
    /// What the demonstration shows, each found in the mails it wrote.
    fn moments(self) -> &'static [Moment] {
        match self {
            Game::Ford => FORD_MOMENTS,
            Game::Soissons => SOISSONS_MOMENTS,
            Game::Trebia => TREBIA_MOMENTS,
        }
    }

    /// The games the demonstration plays, one after another.
    fn demos(self) -> Vec<Demo> {
        match self {
            Game::Ford => vec![Demo {
                id: "ford",
                scenario: ("ford.toml", SCENARIO),
                game_file: GAME,
                files: &[],
                rounds: 8,
                script: ford,
                done: never_done,
                subject: "Orders for turn",
                mails: "welcomes, confirmations, a refusal, a status, reports",
                seed: Some(FORD_SEED),
            }],
            Game::Soissons => vec![Demo {
                id: "soissons",
                scenario: ("soissons.toml", SOISSONS),
                game_file: SOISSONS_GAME,
                files: &[],
                rounds: 6,
                script: soissons,
                done: never_done,
                subject: "Orders for round",
                mails: "welcomes, confirmations, a refusal, reports with the map",
                seed: Some(SOISSONS_SEED),
            }],
            Game::Trebia => vec![
                Demo {
                    id: "trebia-house",
                    scenario: ("trebia.toml", TREBIA),
                    game_file: TREBIA_HOUSE_GAME,
                    files: &[
                        ("consular-legion-218bc.toml", ROME),
                        ("hannibal-218bc.toml", CARTHAGE),
                        ("house-pack.toml", HOUSE_PACK),
                    ],
                    rounds: 20,
                    script: trebia_house,
                    done: never_done,
                    subject: "Orders for round",
                    mails: "welcomes, confirmations, reports to the result",
                    seed: Some(TREBIA_SEED),
                },
                Demo {
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
                seed: Some(TREBIA_SEED),
                },
            ],
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

/// Play the demo game in `dir` and say where everything is, the simulated
/// clock starting at 09:00 UTC on `today` (see [`run_at`]).
///
/// # Errors
/// As [`run_at`].
pub fn run(dir: &Path, game: Game, today: NaiveDate) -> Result<String, PostError> {
    let start = Utc.from_utc_datetime(&today.and_time(NaiveTime::MIN)) + Duration::hours(9);
    run_at(dir, game, start)
}

/// Play the demo game in `dir` and say where everything is and which mail
/// shows which moment. `start` is when it is run (the caller reads the
/// clock): the simulated clock starts there and runs on two days a round,
/// so the first mails are dated `start` and every deadline lies ahead.
///
/// # Errors
/// When `dir` is not empty, or on any store or file error.
pub fn run_at(dir: &Path, game: Game, start: DateTime<Utc>) -> Result<String, PostError> {
    let demos = game.demos();
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    if dir.exists() && std::fs::read_dir(dir).map_err(io)?.next().is_some() {
        return Err(PostError::Transport(format!(
            "{} is not empty; give the demo a fresh folder with --dir",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir.join("inbox/new")).map_err(io)?;
    let start = start.with_nanosecond(0).unwrap_or(start);
    std::fs::write(
        dir.join("umpire.toml"),
        "database = \"umpire.sqlite\"\naddress = \"umpire@club.example\"\npoll_seconds = 1\n\n[spool]\noutbox = \"outbox\"\ninbox = \"inbox\"\n",
    )
    .map_err(io)?;
    let mut config =
        Config::load(&dir.join("umpire.toml")).map_err(|e| PostError::Transport(e.to_string()))?;
    if let Some(seed) = demos.first().and_then(|d| d.seed) {
        config.entropy = Entropy::fixed(seed);
    }
    let umpire_address = config.address.clone();
    let mut po = PostOffice::open(config)?;
    let mut now = start;
    let mut n = 0;
    for (i, demo) in demos.iter().enumerate() {
        let name = if i == 0 {
            "game.toml".to_string()
        } else {
            format!("game-{}.toml", demo.id)
        };
        now = play(dir, &mut po, demo, (&name, &umpire_address), now, &mut n)?;
    }
    summary(dir, game, &demos, start)
}

/// Write one demo game's files into `dir`, create it at `now` and play its
/// rounds, its player mails sent to `umpire_address`; the simulated clock
/// when it is over. `n` numbers the player mails across the games.
fn play(
    dir: &Path,
    po: &mut PostOffice,
    demo: &Demo,
    (game_file, umpire_address): (&str, &str),
    start: DateTime<Utc>,
    n: &mut usize,
) -> Result<DateTime<Utc>, PostError> {
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    std::fs::write(dir.join(demo.scenario.0), demo.scenario.1).map_err(io)?;
    let first_deadline = format!(
        "\"{} 20:00\"",
        (start.date_naive() + Duration::days(2)).format("%Y-%m-%d")
    );
    std::fs::write(
        dir.join(game_file),
        demo.game_file.replace(FIRST_DEADLINE, &first_deadline),
    )
    .map_err(io)?;
    for (name, text) in demo.files {
        std::fs::write(dir.join(name), text).map_err(io)?;
    }
    let mut now = start;
    po.create_game(&GameFile::load(&dir.join(game_file))?, now)?;
    let stop = AtomicBool::new(false);
    serve(po, &stop, true, || now)?;
    for _ in 0..demo.rounds {
        let (round, _) = current(po, demo.id)?;
        let (_, state) = po.state_of(demo.id)?;
        if (demo.done)(&state) || ended(po, demo.id)? {
            break;
        }
        now += Duration::hours(2);
        for (from, body) in (demo.script)(round, &state)? {
            *n += 1;
            let raw = player_mail(
                from,
                umpire_address,
                &format!("{} {round}", demo.subject),
                body,
                *n,
                now,
            )?;
            std::fs::write(dir.join(format!("inbox/new/{:04}.demo", *n)), raw).map_err(io)?;
            now += Duration::minutes(5);
            serve(po, &stop, true, || now)?;
        }
        // A round its writers missed is played at its deadline.
        let (waiting, deadline) = current(po, demo.id)?;
        if waiting == round && !ended(po, demo.id)? {
            now = now.max(deadline + Duration::minutes(1));
            serve(po, &stop, true, || now)?;
        }
        now += Duration::hours(46);
    }
    Ok(now)
}

/// The summary: where everything is, and which mail shows which moment.
fn summary(
    dir: &Path,
    game: Game,
    demos: &[Demo],
    start: DateTime<Utc>,
) -> Result<String, PostError> {
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", dir.display()));
    let mut out = String::new();
    let outbox = dir.join("outbox");
    let mut files: Vec<_> = std::fs::read_dir(&outbox)
        .map_err(io)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    for demo in demos {
        let _ = writeln!(
            out,
            "The demo game '{}' was played in {}.",
            demo.id,
            dir.display()
        );
    }
    let kinds: Vec<&str> = demos.iter().map(|d| d.mails).collect();
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
        kinds.join("; then ")
    );
    let mails = outbox_mails(&outbox)?;
    let last = mails
        .iter()
        .map(|m| m.date)
        .max()
        .and_then(|t| DateTime::from_timestamp(t, 0))
        .unwrap_or(start);
    let _ = writeln!(
        out,
        "  the clock:      simulated, from {} (when you ran the demo) to {}, two days a round,\n                  so every deadline in the mails lies ahead",
        start.format("%Y-%m-%d %H:%M UTC"),
        last.format("%Y-%m-%d %H:%M UTC"),
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
    let shown = shown_in(game.moments(), &mails);
    if !shown.is_empty() {
        out.push_str(&moments_text(&shown));
    }
    Ok(out)
}

/// Whether the game has ended.
fn ended(po: &PostOffice, id: &str) -> Result<bool, PostError> {
    let row = crate::store::games::load(po.store().conn(), id)?
        .ok_or_else(|| PostError::NoGame(id.to_string()))?;
    Ok(row.status == crate::store::games::GameStatus::Ended)
}

/// One thing a demonstration shows, and how to see it in a mail: `shows`
/// is given the mail and every mail before it.
struct Moment {
    what: &'static str,
    shows: fn(&Mail, &[Mail]) -> bool,
}

/// A mail umpire wrote to the spool, as the moment finder reads it.
#[derive(Debug)]
struct Mail {
    path: PathBuf,
    /// What the spool's file name says it is: "report", "confirmation"….
    kind: String,
    to: String,
    date: i64,
    subject: String,
    text: String,
}

impl Mail {
    fn has_line(&self, f: impl Fn(&str) -> bool) -> bool {
        self.text.lines().any(f)
    }
}

/// Where a demonstration's moment is shown: the first mail (a player's
/// copy before the moderator's) that shows it, or `None` when no mail does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The moment, in words ("missile fire").
    pub moment: &'static str,
    /// The mail that shows it.
    pub mail: Option<MailRef>,
}

/// A mail in the outbox: its file, its subject and whom it went to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailRef {
    pub path: PathBuf,
    pub subject: String,
    pub to: String,
}

/// The umpire's mails in `outbox`, in the order they were written (by
/// date, a player's copy before the moderator's).
fn outbox_mails(outbox: &Path) -> Result<Vec<Mail>, PostError> {
    let io = |e: std::io::Error| PostError::Transport(format!("{}: {e}", outbox.display()));
    let mut mails = Vec::new();
    for entry in std::fs::read_dir(outbox).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        if !name.ends_with(".eml") {
            continue;
        }
        let raw = std::fs::read(&path).map_err(io)?;
        let Some(m) = mail_parser::MessageParser::default().parse(&raw) else {
            continue;
        };
        let to = m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string();
        mails.push(Mail {
            kind: name.split('.').nth(1).unwrap_or_default().to_string(),
            to,
            date: m.date().map_or(0, mail_parser::DateTime::to_timestamp),
            subject: m.subject().unwrap_or_default().to_string(),
            text: m
                .body_text(0)
                .map(|t| t.replace("\r\n", "\n"))
                .unwrap_or_default(),
            path,
        });
    }
    // Spool file names are random: order copies of one mail by address.
    mails.sort_by(|a, b| {
        (a.date, a.to.starts_with("moderator@"), &a.to, &a.path).cmp(&(
            b.date,
            b.to.starts_with("moderator@"),
            &b.to,
            &b.path,
        ))
    });
    Ok(mails)
}

/// Which mail of the demo played in `dir` shows each of `game`'s moments,
/// found by reading the mails (so a moment the battle no longer has shows
/// as `None`).
///
/// # Errors
/// When the outbox cannot be read.
pub fn moments(dir: &Path, game: Game) -> Result<Vec<Shown>, PostError> {
    let moments = game.moments();
    Ok(shown_in(moments, &outbox_mails(&dir.join("outbox"))?))
}

/// Where each of `moments` is shown among `mails` (in the order written).
fn shown_in(moments: &[Moment], mails: &[Mail]) -> Vec<Shown> {
    // A player's copy first: the moderator's copies of the same mail come after.
    let moderator = |i: &usize| mails[*i].to.starts_with("moderator@");
    let order: Vec<usize> = (0..mails.len())
        .filter(|i| !moderator(i))
        .chain((0..mails.len()).filter(moderator))
        .collect();
    moments
        .iter()
        .map(|m| Shown {
            moment: m.what,
            mail: order
                .iter()
                .find(|&&i| (m.shows)(&mails[i], &mails[..i]))
                .map(|&i| MailRef {
                    path: mails[i].path.clone(),
                    subject: mails[i].subject.clone(),
                    to: mails[i].to.clone(),
                }),
        })
        .collect()
}

/// The moments in the summary, one line a mail: "FILE (subject, to):
/// moment, moment", then any moment no mail shows.
fn moments_text(shown: &[Shown]) -> String {
    let mut out = String::from("What to read, mail by mail:\n");
    let mut by_mail: Vec<(&MailRef, Vec<&str>)> = Vec::new();
    for s in shown {
        if let Some(mail) = &s.mail {
            match by_mail.iter_mut().find(|(m, _)| *m == mail) {
                Some((_, what)) => what.push(s.moment),
                None => by_mail.push((mail, vec![s.moment])),
            }
        }
    }
    for (mail, what) in by_mail {
        let _ = writeln!(
            out,
            "  {}\n    ({}, to {}): {}",
            mail.path.display(),
            mail.subject,
            mail.to,
            what.join("; ")
        );
    }
    let missing: Vec<&str> = shown
        .iter()
        .filter(|s| s.mail.is_none())
        .map(|s| s.moment)
        .collect();
    if !missing.is_empty() {
        let _ = writeln!(out, "  shown by no mail: {}", missing.join("; "));
    }
    out
}
