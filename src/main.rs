//! The `umpire` command. Only this edge (with `store` and `mail`) does I/O;
//! it reads the clock and the configuration and hands them inward.

use anyhow::{Context, Result};
use chrono::Utc;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use umpire::config::Config;
use umpire::post::{
    gamefile::{read_companions, GameFile},
    PostOffice,
};

/// mimalloc, not glibc's malloc: a deadline crunch allocates and frees
/// mail, JSON and pictures by the megabyte, and glibc's allocator was a
/// tenth of its time (issue 24: the crunch 17% faster, docs/scaling.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// umpire: a play-by-email umpire for Royal Armies of the Hyborean Age.
///
/// Players mail written orders; umpire checks them, confirms how it
/// understood each one, plays the turn when every side is in or the deadline
/// passes, and mails back the report. Start with `umpire demo`.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    /// The configuration file (a missing file means: SQLite and spool folders beside it).
    #[arg(long, short, global = true, default_value = "umpire.toml")]
    config: PathBuf,
    /// How the log on standard error is written: text, or one JSON object a line for a log search (also UMPIRE_LOG_FORMAT).
    #[arg(long, global = true, value_enum)]
    log_format: Option<LogFormat>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// The log on standard error, filtered by UMPIRE_LOG (default "warn"), as
/// text or as JSON lines (`--log-format`, else UMPIRE_LOG_FORMAT).
fn start_log(format: Option<LogFormat>) {
    let json = format.map_or_else(
        || std::env::var("UMPIRE_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json")),
        |f| f == LogFormat::Json,
    );
    let log = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("UMPIRE_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr);
    if json {
        log.json().init();
    } else {
        log.init();
    }
}

#[derive(Subcommand)]
enum Command {
    /// Read one mail message on standard input (for .forward or procmail), or every new message of a Maildir.
    Ingest {
        /// Read every message in this Maildir's new/ folder instead of standard input.
        #[arg(long)]
        maildir: Option<PathBuf>,
    },
    /// Fetch unseen mail from the IMAP mailbox of the configuration, store it and answer it.
    Poll,
    /// Send everything waiting in the outbox (SMTP, or the spool folder when no [smtp] is configured).
    Send,
    /// The service: poll, ingest, check deadlines and adjudicate, round after round, until Ctrl-C or SIGTERM, sending the outbox alongside from a thread of its own.
    Run {
        /// Play one round and stop.
        #[arg(long)]
        once: bool,
    },
    /// Games: create one from a game file.
    Game {
        #[command(subcommand)]
        command: GameCommand,
    },
    /// Run rules case files (see shared/spec/cases.md): one PASS/FAIL/ERROR line each, then a count.
    Case {
        /// Case files, or folders searched for *.toml.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Orders: check an order file offline and print the confirmation a player would get.
    Orders {
        #[command(subcommand)]
        command: OrdersCommand,
    },
    /// Replay a played turn and check every roll and result matches: from the store (GAME TURN, or CAMPAIGN MAP-TURN for a campaign's week), or from the verification bundle a report attached (--bundle FILE, no database or configuration needed).
    Verify {
        /// The game id, or a campaign's.
        #[arg(required_unless_present = "bundle")]
        game: Option<String>,
        /// The turn to replay (a campaign's map turn: 1 is its first week).
        #[arg(required_unless_present = "bundle")]
        turn: Option<u32>,
        /// A verification bundle (umpire-verify-GAME-TURN.json, attached to every report).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "turn"])]
        bundle: Option<PathBuf>,
    },
    /// Campaigns on the Hyborean world map: set one up, draw its map, show it, resolve a week.
    Campaign {
        #[command(subcommand)]
        command: CampaignCommand,
    },
    /// Club leagues: set one up from a league file, pair its rounds, enter results, show and export the standings.
    League {
        #[command(subcommand)]
        command: LeagueCommand,
    },
    /// Armies: check an army file against the book's rules for buying armies, or propose one.
    Army {
        #[command(subcommand)]
        command: ArmyCommand,
    },
    /// Print a played turn's report (the latest when --turn is not given), as text or JSON.
    Report {
        /// The game id.
        game: String,
        #[arg(long)]
        turn: Option<u32>,
        /// The report and the table as JSON, for tools.
        #[arg(long)]
        json: bool,
    },
    /// Write a static web site of a game's reports and pictures, linked turn to turn.
    Export {
        /// The game id.
        game: String,
        /// The folder to write (created).
        #[arg(long)]
        html: PathBuf,
    },
    /// Write the club's web pages into the `[web] dir` of umpire.toml now (`umpire run` keeps them current after every pass): the games, leagues and campaigns, every released turn.
    Site,
    /// List what could not be handled: failed messages and games whose round could not be played.
    Doctor,
    /// Try the configuration before the service runs: the database, the IMAP and SMTP servers (TLS and login), the spool folders; what works, what does not and the fix. Exit 0 only when `umpire run` would start and deliver.
    Check,
    /// Copy the SQLite store to FILE while the service runs (SQLite's online backup), checked whole; an earlier backup there is replaced. For a PostgreSQL store, the pg_dump command.
    Backup {
        /// The backup file to write.
        file: PathBuf,
    },
    /// Put a backup from `umpire backup` in place of the store, the service stopped: checked first, the store it replaces kept beside it.
    Restore {
        /// The backup file.
        file: PathBuf,
        /// Replace a store that changed after the backup was taken, or another installation's.
        #[arg(long)]
        force: bool,
    },
    /// Every game at a glance: rule set, state, round, deadline, who is ready, what waits for the moderator.
    Games,
    /// A game's log (the audit trail), the latest lines.
    Log {
        /// The game id.
        game: String,
        /// How many lines.
        #[arg(long, default_value_t = 50)]
        lines: u32,
    },
    /// Handle a failed message again (its number from `umpire doctor`), or play a failed game's round.
    Retry {
        /// A message number, or a game id.
        what: String,
    },
    /// The balance lab: battles between two armies played by scripted generals, the fairness table of every nation, replays.
    Simulate(SimulateArgs),
    /// Play a whole demonstration game through the local spool and show which mail shows what.
    Demo {
        /// The folder to play in (created; must be empty or absent).
        #[arg(long, default_value = "demo-out")]
        dir: PathBuf,
        /// The game to play: `ford` (the Hyborean Age), `soissons` (Furor Barbarus) or `trebia` (FR! Ancients, with a game master).
        #[arg(long, default_value = "ford")]
        game: umpire::demo::Game,
    },
}

/// `umpire simulate`: see docs/balance.md.
#[derive(clap::Args)]
struct SimulateArgs {
    /// The rule set: `hyborian` (the Hyborean Age, the default) or `furor` (Furor Barbarus, with --scenario NAME of a shipped scenario).
    #[arg(long, default_value = "hyborian")]
    game: SimGame,
    /// Two armies: army files (*.toml) or nations' names with --points; none with --scenario (its own armies) or --fairness.
    armies: Vec<String>,
    /// Points for armies named by nation (the army proposer of `umpire army new`).
    #[arg(long, default_value_t = 500)]
    points: u32,
    /// Battles to play (default 1000), or battles a pairing with --fairness (default 20).
    #[arg(long)]
    battles: Option<u64>,
    /// The master seed every battle's seed is derived from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The generals: cautious or aggressive, for both or one each ("cautious,aggressive"); hold for a side that writes no orders (its units stand), the baseline a general must beat ("aggressive,hold").
    #[arg(long, value_delimiter = ',')]
    style: Vec<umpire::sim::Commander>,
    /// Fight on a scenario file: in its zones with the armies named, or with its own armies; with --game furor a shipped scenario's name (campus-mauriacus, soissons, tolbiac, vouille).
    #[arg(long, conflicts_with = "card")]
    scenario: Option<PathBuf>,
    /// A terrain card of the deck (1-100); without it a card is drawn for each battle.
    #[arg(long)]
    card: Option<u32>,
    /// Play at most this many turns.
    #[arg(long)]
    turns: Option<u32>,
    /// House rules: a TOML file of game options.
    #[arg(long)]
    options: Option<PathBuf>,
    /// Threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print the results as JSON (every battle's seed included).
    #[arg(long)]
    json: bool,
    /// Replay the battle of this seed to a folder of reports and pictures (--out).
    #[arg(long)]
    replay: Option<String>,
    /// The fairness table: every pairing of nations at --points.
    #[arg(long, conflicts_with_all = ["replay", "scenario"])]
    fairness: bool,
    /// The fairness table's nations, separated by commas (default: every national list).
    #[arg(long, value_delimiter = ',')]
    nations: Vec<String>,
    /// The folder replays and the fairness table are written to.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Which rule set `umpire simulate` plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum SimGame {
    /// The Hyborean Age.
    #[value(alias = "hyborean")]
    Hyborian,
    /// Furor Barbarus.
    #[value(alias = "furor-barbarus")]
    Furor,
}

impl SimulateArgs {
    /// The Furor Barbarus request, or what the arguments say that it cannot take.
    fn furor(self) -> Result<umpire::games::furor::sim::cli::Request, String> {
        let scenario = self.scenario.ok_or(
            "--game furor plays a shipped scenario: --scenario campus-mauriacus, soissons, tolbiac or vouille",
        )?;
        if !self.armies.is_empty()
            || self.card.is_some()
            || self.fairness
            || !self.nations.is_empty()
        {
            return Err("--game furor plays a scenario's own armies: no armies, --card, --fairness or --nations".into());
        }
        Ok(umpire::games::furor::sim::cli::Request {
            scenario: scenario.to_string_lossy().into_owned(),
            games: self.battles,
            seed: self.seed,
            styles: self.style,
            turns: self.turns,
            options: self.options,
            threads: self.threads,
            json: self.json,
            replay: self.replay,
            out: self.out,
        })
    }
}

impl From<SimulateArgs> for umpire::games::hyborian::sim::cli::Request {
    fn from(a: SimulateArgs) -> Self {
        umpire::games::hyborian::sim::cli::Request {
            armies: a.armies,
            points: a.points,
            battles: a.battles,
            seed: a.seed,
            styles: a.style,
            scenario: a.scenario,
            card: a.card,
            turns: a.turns,
            options: a.options,
            threads: a.threads,
            json: a.json,
            replay: a.replay,
            fairness: a.fairness,
            nations: a.nations,
            out: a.out,
        }
    }
}

#[derive(Subcommand)]
enum OrdersCommand {
    /// Check FILE (the text of an orders mail or just the unit lines) against a game, a scenario or a case.
    Check {
        /// The orders.
        file: PathBuf,
        /// A game in the store (with --side).
        #[arg(long, requires = "side")]
        game: Option<String>,
        /// The side whose orders these are (default: the header's SIDE).
        #[arg(long)]
        side: Option<String>,
        /// A scenario file of any rule set, or a game file (its scenario, options, army files and pack), to check against.
        #[arg(long, conflicts_with_all = ["game", "case"])]
        scenario: Option<PathBuf>,
        /// With a scenario that takes its forces from army files (FR! Ancients): a side's army file, as SIDE=FILE; once per side.
        #[arg(long, value_name = "SIDE=FILE", requires = "scenario")]
        army: Vec<String>,
        /// A rules case file to check against.
        #[arg(long, conflicts_with_all = ["game", "scenario"])]
        case: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum CampaignCommand {
    /// Create a campaign from its set-up file and mail every power its password and opening report.
    New { file: PathBuf },
    /// Check the world map's data, or draw a campaign's map (as one power sees it) to an .svg or .png file.
    Map {
        /// The campaign to draw (without it: check the map data and print any problems).
        #[arg(long, requires = "out")]
        campaign: Option<String>,
        /// Draw only what this power sees.
        #[arg(long, requires = "campaign")]
        power: Option<String>,
        /// The picture to write: FILE.svg or FILE.png.
        #[arg(long, requires = "campaign")]
        out: Option<PathBuf>,
    },
    /// Print the secretary's view of a campaign: every army, province and battle awaiting a result.
    Status { campaign: String },
    /// Resolve the campaign's map turn now with the orders that are in, and queue the reports.
    Resolve { campaign: String },
    /// Resolve the week last resolved again (after a correction): same state before, orders and dice; corrected reports queued.
    Rerun { campaign: String },
}

#[derive(Subcommand)]
enum ArmyCommand {
    /// Report the points of an army file and every breach of the national list and the buying rules.
    Check {
        /// The army file (see campaigns/armies/).
        file: PathBuf,
    },
    /// Propose a legal army of NATION for POINTS as a starting army file.
    New { nation: String, points: u32 },
    /// Print a nation's list (or every nation's name) as the book gives it.
    List { nation: Option<String> },
}

#[derive(Subcommand)]
enum LeagueCommand {
    /// Store a league from its league file (see docs/leagues.md): members, game files, pairing, points, rating.
    New {
        /// The league file.
        file: PathBuf,
    },
    /// Pair the next round and create its games; every player gets a welcome by mail.
    Pair {
        /// The league id.
        league: String,
        /// The moderator's pairings for this round, one line a game: 'Anna v Bob', 'bye Carl'.
        #[arg(long)]
        pairs: Option<PathBuf>,
    },
    /// The standings: points, results and ratings, with every round's games.
    Standings {
        /// The league id.
        league: String,
        /// As JSON, for tools.
        #[arg(long)]
        json: bool,
    },
    /// Enter the result of an ended league game: `win SIDE`, `draw`, `forfeit SIDE`, `forfeit both`.
    Result {
        /// The league id.
        league: String,
        /// The game id (LEAGUE-ROUND-BOARD).
        game: String,
        /// The result, such as: win koth
        #[arg(required = true, num_args = 1..)]
        result: Vec<String>,
        /// Replace a result already recorded.
        #[arg(long)]
        correct: bool,
    },
    /// Write the league's web page (standings, each member's games) and every game's archive.
    Export {
        /// The league id.
        league: String,
        /// The folder to write (created).
        #[arg(long)]
        html: PathBuf,
    },
}

#[derive(Subcommand)]
enum GameCommand {
    /// Create a game from a game file and mail every player a welcome with their password.
    New {
        /// The game file (see campaigns/games/).
        file: PathBuf,
    },
    /// One game in full: the round, the deadline, who is in, drafts, failed messages, the latest log.
    Show {
        /// The game id.
        game: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    start_log(cli.log_format);
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("umpire: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The exit status of a verification bundle refused unread.
const REFUSED: u8 = 2;

/// `umpire verify --bundle FILE`: no configuration, no database. The file
/// is read up to the largest bundle there can be (a bigger one is refused,
/// not read whole); exit 0 when everything matches, 1 when the replay
/// differs, 2 when the bundle is refused.
fn verify_bundle(file: &std::path::Path) -> ExitCode {
    use std::io::Read as _;
    let limit = umpire::post::bundle::MAX_BYTES;
    let mut bytes = Vec::new();
    let read = std::fs::File::open(file).and_then(|f| {
        f.take(u64::try_from(limit).unwrap_or(u64::MAX) + 1)
            .read_to_end(&mut bytes)
    });
    if let Err(e) = read {
        eprintln!("umpire: {}: {e}", file.display());
        return ExitCode::from(REFUSED);
    }
    // An engine that stops on a hostile table is refused in one line
    // (verify catches it), not with a panic's message and backtrace.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let verdict = umpire::post::verify_bundle(&bytes);
    std::panic::set_hook(hook);
    match verdict {
        Ok((text, ok)) => {
            print!("{text}");
            if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("umpire: {}: refused: {e}", file.display());
            ExitCode::from(REFUSED)
        }
    }
}

fn open(config: &std::path::Path) -> Result<PostOffice> {
    let config = Config::load(config)?;
    Ok(PostOffice::open(config)?)
}

/// The exit status that tells an MTA to keep the message and try again (sysexits.h).
const EX_TEMPFAIL: u8 = 75;

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Ingest { maildir: None } => {
            // The message is the MTA's until it is committed: any failure to
            // store it asks the MTA to try again later (EX_TEMPFAIL).
            let stored = open(&cli.config).and_then(|mut po| {
                let stored = po.store_reader(&mut std::io::stdin().lock(), "stdin", Utc::now())?;
                Ok((po, stored))
            });
            let (mut po, stored) = match stored {
                Ok(v) => v,
                Err(e) => {
                    eprintln!("umpire: the message could not be stored, try again later: {e:#}");
                    return Ok(ExitCode::from(EX_TEMPFAIL));
                }
            };
            // Stored: from here on nothing is lost, whatever happens. But
            // the exit says whether the work is done: a message left
            // unhandled asks the MTA to try again (each try handles it
            // again), one set aside for the moderator is a failure.
            if let Err(e) = po.process_pending(Utc::now()) {
                eprintln!(
                    "umpire: stored as message {}, but not handled: {e:#}\n\
                     It stays waiting; the next `umpire run` or `umpire ingest` handles it once this is mended.",
                    stored.id
                );
                return Ok(ExitCode::from(EX_TEMPFAIL));
            }
            let failed = umpire::store::messages::failed(po.store().conn())?;
            if let Some(f) = failed.iter().find(|f| f.id == stored.id) {
                eprintln!(
                    "umpire: stored as message {}, but it could not be handled: {}\n\
                     It is set aside and the moderator told; `umpire retry {}` handles it after a fix.",
                    f.id, f.reason, f.id
                );
                return Ok(ExitCode::FAILURE);
            }
            println!(
                "{}",
                if stored.fresh {
                    "stored and handled"
                } else {
                    "already stored"
                }
            );
        }
        Command::Ingest { maildir: Some(dir) } => {
            let mut po = open(&cli.config)?;
            let n = umpire::post::ingest_maildir(&mut po, &dir, Utc::now())?;
            println!("{n} messages read from {}", dir.display());
        }
        Command::Poll => {
            let mut po = open(&cli.config)?;
            let n = umpire::post::poll_imap(&mut po, Utc::now())?;
            println!("{n} messages fetched");
        }
        Command::Send => {
            let mut po = open(&cli.config)?;
            umpire::post::prepare_outbox(&po.config)?;
            let f = po.send(Utc::now())?;
            println!("{} sent, {} failed (will be retried)", f.sent, f.failed);
            if f.failed > 0 {
                let fix = if po.config.smtp.is_some() {
                    "check the [smtp] section of the configuration (host, port, security, username, password) and that the server takes mail"
                } else {
                    "check that umpire may write in the spool outbox folder"
                };
                eprintln!(
                    "umpire: {} of {} deliveries failed, the last with: {}\n\
                     They are tried again by the next `umpire send` or `umpire run`; {fix}.",
                    f.failed,
                    f.sent + f.failed,
                    f.last_error.as_deref().unwrap_or("no reason given")
                );
                return Ok(ExitCode::FAILURE);
            }
        }
        Command::Run { once } => {
            let mut po = open(&cli.config)?;
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
                signal_hook::flag::register(sig, stop.clone())?;
            }
            umpire::post::serve(&mut po, &stop, once, Utc::now)?;
        }
        Command::Game {
            command: GameCommand::New { file },
        } => {
            let gf = GameFile::load(&file)?;
            let mut po = open(&cli.config)?;
            po.create_game(&gf, Utc::now())?;
            println!(
                "game {} created; welcome mails are in the outbox (run `umpire send`)",
                gf.id
            );
        }
        Command::Case { paths, json } => {
            let code = umpire::case::run_cli(&paths, json);
            return Ok(if code == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
        Command::Orders {
            command:
                OrdersCommand::Check {
                    file,
                    game,
                    side,
                    scenario,
                    army,
                    case,
                },
        } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let (ruleset, state) = if let Some(g) = game {
                let (name, state) = open(&cli.config)?.state_of(&g)?;
                (umpire::games::named(name)?, state)
            } else if let Some(s) = scenario {
                let (ruleset, game, scenario_text) = scenario_game(&s, &army)?;
                // Checked against the first round this side writes in (that
                // its header's TURN names, when it writes one).
                let envelope = umpire::envelope::read(&text);
                let whose = side
                    .clone()
                    .or_else(|| umpire::games::header_side(&envelope));
                let turn = envelope
                    .header
                    .as_ref()
                    .and_then(|h| h.node.turn.map(|t| (t, h.node.phase)));
                let state = match whose {
                    Some(w) => {
                        umpire::games::first_round_for(ruleset, &game, &scenario_text, &w, turn)?
                    }
                    None => game.state,
                };
                (ruleset, state)
            } else if let Some(c) = case {
                let case_text = std::fs::read_to_string(&c)
                    .with_context(|| format!("reading {}", c.display()))?;
                let ruleset = umpire::games::named(
                    &umpire::games::ruleset_named_in(&case_text).map_err(anyhow::Error::msg)?,
                )?;
                (ruleset, ruleset.case_state(&case_text)?)
            } else {
                anyhow::bail!(
                    "say what to check against: --game G --side S, --scenario FILE or --case FILE"
                );
            };
            let (report, ok) =
                umpire::games::check_offline(ruleset, &state, &text, side.as_deref())?;
            print!("{report}");
            return Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
        Command::Verify {
            bundle: Some(file), ..
        } => return Ok(verify_bundle(&file)),
        Command::Verify { game, turn, .. } => {
            let (Some(game), Some(turn)) = (game, turn) else {
                anyhow::bail!("give GAME and TURN, or --bundle FILE");
            };
            let mut po = open(&cli.config)?;
            let (report, ok) = umpire::post::verify_turn(&mut po, &game, turn)?;
            print!("{report}");
            return Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
        Command::Campaign { command } => return campaign(&cli.config, command),
        Command::League { command } => league(&cli.config, command)?,
        Command::Army { command } => {
            let (text, code) = match command {
                ArmyCommand::Check { file } => {
                    umpire::games::check_army_file(&file.to_string_lossy())
                }
                ArmyCommand::New { nation, points } => {
                    umpire::games::hyborian::army::new_cli(&nation, points)
                }
                ArmyCommand::List { nation } => {
                    umpire::games::hyborian::army::list_cli(nation.as_deref())
                }
            };
            print!("{text}");
            return Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)));
        }
        Command::Report { game, turn, json } => {
            print!(
                "{}",
                umpire::post::report_text(&mut open(&cli.config)?, &game, turn, json)?
            );
        }
        Command::Export { game, html } => {
            let n = umpire::post::export_html(&mut open(&cli.config)?, &game, &html)?;
            println!("{n} turns written to {}", html.join("index.html").display());
        }
        Command::Site => {
            let mut po = open(&cli.config)?;
            let Some(web) = po.config.web.clone() else {
                anyhow::bail!(
                    "{} has no [web] section: add one with dir = \"FOLDER\" (the folder a web server serves)",
                    cli.config.display()
                );
            };
            let done = umpire::post::site::refresh(&mut po, &web.dir)?;
            println!(
                "{}: {}",
                web.dir.join("index.html").display(),
                if done.written {
                    format!("written ({} new turns)", done.turns)
                } else {
                    "up to date".to_string()
                }
            );
        }
        Command::Games => print!("{}", umpire::post::desk::games(&mut open(&cli.config)?)?),
        Command::Log { game, lines } => print!(
            "{}",
            umpire::post::desk::log(&mut open(&cli.config)?, &game, lines.clamp(1, 100_000))?
        ),
        Command::Game {
            command: GameCommand::Show { game },
        } => print!(
            "{}",
            umpire::post::desk::show(&mut open(&cli.config)?, &game)?
        ),
        Command::Check => {
            let (text, ok) = umpire::post::check::check(&cli.config);
            print!("{text}");
            return Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
        Command::Backup { file } => return backup(&cli.config, &file),
        Command::Restore { file, force } => return restore(&cli.config, &file, force),
        Command::Doctor => {
            print!("{}", open(&cli.config)?.doctor()?);
        }
        Command::Retry { what } => {
            let mut po = open(&cli.config)?;
            match what.parse::<i64>() {
                Ok(id) => {
                    let d = po.retry_message(id, Utc::now())?;
                    println!(
                        "message {id}: {}",
                        d.map_or("handled elsewhere".to_string(), |d| format!(
                            "{}: {}",
                            d.state(),
                            d.note()
                        ))
                    );
                }
                Err(_) => println!(
                    "game {what}: {} round(s) played",
                    po.retry_game(&what, Utc::now())?
                ),
            }
        }
        Command::Simulate(args) if args.game == SimGame::Furor => {
            let req = args.furor().map_err(|e| anyhow::anyhow!(e))?;
            let (text, code) = umpire::games::furor::sim::cli::run(&req)?;
            print!("{text}");
            return Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)));
        }
        Command::Simulate(args) => {
            let (text, code) = umpire::games::hyborian::sim::cli::run(&args.into())?;
            print!("{text}");
            return Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)));
        }
        Command::Demo { dir, game } => {
            let summary = umpire::demo::run_at(&dir, game, Utc::now())?;
            print!("{summary}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `umpire backup FILE`: a SQLite store copied while the service runs; a
/// PostgreSQL one is pg_dump's work (the command printed, exit 1: no backup
/// was made).
fn backup(config: &Path, file: &Path) -> Result<ExitCode> {
    let database = Config::load(config)?.database;
    let location = database.to_string_lossy();
    if umpire::store::db::is_postgres_url(&location) {
        eprint!(
            "umpire: no backup made: {}",
            umpire::store::backup::postgres_advice(&location, file, false)
        );
        return Ok(ExitCode::FAILURE);
    }
    print!("{}", umpire::store::backup::backup(&database, file)?);
    Ok(ExitCode::SUCCESS)
}

/// `umpire restore FILE [--force]`: a backup checked and put in place of
/// the SQLite store (pg_restore's work for PostgreSQL).
fn restore(config: &Path, file: &Path, force: bool) -> Result<ExitCode> {
    let database = Config::load(config)?.database;
    let location = database.to_string_lossy();
    if umpire::store::db::is_postgres_url(&location) {
        eprint!(
            "umpire: nothing restored: {}",
            umpire::store::backup::postgres_advice(&location, file, true)
        );
        return Ok(ExitCode::FAILURE);
    }
    let done = umpire::store::backup::restore(file, &database, force, Utc::now())?;
    print!("{done}");
    Ok(ExitCode::SUCCESS)
}

/// `umpire league ...`: the league moderator's commands.
fn league(config: &std::path::Path, command: LeagueCommand) -> Result<()> {
    use umpire::post::league;
    match command {
        LeagueCommand::New { file } => {
            let loaded = league::load(&file)?;
            let mut po = open(config)?;
            league::create(&mut po, &loaded, Utc::now())?;
            println!(
                "league {} created with {} members; `umpire league pair {}` makes round 1's games",
                loaded.file.id,
                loaded.file.members.len(),
                loaded.file.id
            );
        }
        LeagueCommand::Pair { league: id, pairs } => {
            let list = pairs
                .map(|p| {
                    std::fs::read_to_string(&p)
                        .with_context(|| format!("reading {}", p.display()))
                        .map(|text| (text, p.display().to_string()))
                })
                .transpose()?;
            let mut po = open(config)?;
            print!(
                "{}",
                league::pair(
                    &mut po,
                    &id,
                    list.as_ref().map(|(t, f)| (t.as_str(), f.as_str())),
                    Utc::now()
                )?
            );
        }
        LeagueCommand::Standings { league: id, json } => {
            let mut po = open(config)?;
            if json {
                println!("{}", league::standings_json(&mut po, &id)?);
            } else {
                print!("{}", league::standings_text(&mut po, &id)?);
            }
        }
        LeagueCommand::Result {
            league: id,
            game,
            result,
            correct,
        } => {
            let mut po = open(config)?;
            let words = league::enter_result(&mut po, &id, &game, &result, correct, Utc::now())?;
            println!("{game}: {words}; the standings mail is in the outbox when it is due (run `umpire send`)");
        }
        LeagueCommand::Export { league: id, html } => {
            let n = league::export(&mut open(config)?, &id, &html)?;
            println!(
                "the league page and {n} games written to {}",
                html.join("index.html").display()
            );
        }
    }
    Ok(())
}

/// `umpire campaign ...`: the secretary's commands.
fn campaign(config: &std::path::Path, command: CampaignCommand) -> Result<ExitCode> {
    use umpire::games::hyborian::campaign::{game::CampaignFile, map::World, report};
    use umpire::post::campaign as secretary;
    let world = World::hyborea()?;
    let current = |po: &umpire::post::PostOffice,
                   id: &str|
     -> Result<umpire::games::hyborian::campaign::game::Campaign> {
        let state = secretary::state(po.store(), id)?
            .with_context(|| format!("no campaign called '{id}'"))?;
        Ok(serde_json::from_str(&state)?)
    };
    match command {
        CampaignCommand::New { file } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let cf = CampaignFile::load(&text)?;
            let mut po = open(config)?;
            po.create_campaign(&cf, Utc::now())?;
            println!(
                "campaign {} created; the opening reports are in the outbox (run `umpire send`)",
                cf.id
            );
        }
        CampaignCommand::Map { campaign: None, .. } => {
            let points = world
                .nations
                .iter()
                .map(|n| {
                    Ok((
                        n.id.clone(),
                        umpire::games::hyborian::army::nation(&n.name)?.points,
                    ))
                })
                .collect::<Result<_, umpire::games::hyborian::army::ArmyError>>()?;
            let problems = world.problems(&points);
            for p in &problems {
                println!("{p}");
            }
            println!(
                "{} provinces, {} nations: {} problems",
                world.provinces.len(),
                world.nations.len(),
                problems.len()
            );
            return Ok(if problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            });
        }
        CampaignCommand::Map {
            campaign: Some(id),
            power,
            out,
        } => {
            let po = open(config)?;
            let c = current(&po, &id)?;
            if let Some(p) = power.as_deref().filter(|p| !c.powers.contains_key(*p)) {
                let powers: Vec<&str> = c.powers.keys().map(String::as_str).collect();
                anyhow::bail!(
                    "campaign {id} has no power '{p}'; its powers are {}",
                    powers.join(", ")
                );
            }
            let out = out.context("--out FILE.svg or FILE.png")?;
            let ext = out
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            let svg = report::svg(&c, &world, power.as_deref());
            let bytes = match ext.as_deref() {
                Some("png") => umpire::report::picture::png(&svg)?,
                Some("svg") => svg.into_bytes(),
                _ => anyhow::bail!(
                    "{}: the map is written as .svg or .png; name the file map.svg or map.png",
                    out.display()
                ),
            };
            std::fs::write(&out, bytes).with_context(|| format!("writing {}", out.display()))?;
            println!("{} written", out.display());
        }
        CampaignCommand::Status { campaign } => {
            let po = open(config)?;
            let c = current(&po, &campaign)?;
            let played = format!("turn {}", c.turn);
            let week = report::Week {
                played: &played,
                events: &[],
                orders: &Default::default(),
                dice: None,
                intro: "",
            };
            print!("{}", report::text(&c, &world, None, &week));
        }
        CampaignCommand::Resolve { campaign } => {
            let mut po = open(config)?;
            po.resolve_campaign(&campaign, Utc::now())?;
            println!("{}", current(&po, &campaign)?.date());
        }
        CampaignCommand::Rerun { campaign } => {
            let mut po = open(config)?;
            match po.rerun_campaign(&campaign, Utc::now())? {
                Ok(done) => println!("{done}"),
                Err(why) => {
                    eprintln!("not re-run: {why}");
                    return Ok(ExitCode::FAILURE);
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The game a scenario file starts, or the game a game file would start
/// (`umpire orders check --scenario`), with the sides' army files given as
/// `SIDE=FILE`: its rule set, the new game and the scenario's text.
fn scenario_game(
    path: &Path,
    army: &[String],
) -> anyhow::Result<(
    &'static dyn umpire::games::Ruleset,
    umpire::games::NewGame,
    String,
)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let is_game_file = toml::from_str::<toml::Table>(&text)
        .is_ok_and(|t| matches!(t.get("scenario"), Some(toml::Value::String(_))));
    if is_game_file {
        if !army.is_empty() {
            anyhow::bail!(
                "{} is a game file: its [[side]] tables name the army files; leave out --army",
                path.display()
            );
        }
        let gf = GameFile::load(path)?;
        let scenario_text = std::fs::read_to_string(&gf.scenario)
            .with_context(|| format!("reading {}", gf.scenario.display()))?;
        let (armies, pack) = gf.read_armies_and_pack()?;
        let ruleset = umpire::games::named(&gf.ruleset)?;
        let companions = read_companions(&gf.scenario, &ruleset.companions(&scenario_text));
        let game = ruleset.new_game(&umpire::games::Setup {
            scenario_path: &gf.scenario,
            scenario_text: &scenario_text,
            options: &gf.options,
            max_turns: gf.max_turns,
            seed: [0; 32],
            armies: &armies,
            pack: pack.as_deref(),
            companions: &companions,
        })?;
        return Ok((ruleset, game, scenario_text));
    }
    let mut armies = std::collections::BTreeMap::new();
    for a in army {
        let Some((side, file)) = a.split_once('=') else {
            anyhow::bail!("--army {a}: write SIDE=FILE, e.g. --army rome=campaigns/fr-ancients/armies/consular-legion-218bc.toml");
        };
        let army_text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        armies.insert(side.trim().to_string(), army_text);
    }
    let companions = read_companions(path, &umpire::games::scenario_companions(&text));
    let (ruleset, game) = umpire::games::scenario_game(&umpire::games::Setup {
        scenario_path: path,
        scenario_text: &text,
        options: &toml::Table::new(),
        max_turns: u32::MAX,
        seed: [0; 32],
        armies: &armies,
        pack: None,
        companions: &companions,
    })
    .with_context(|| {
        format!(
            "checking against {} (a scenario whose armies come from army files, as FR! Ancients', takes --army SIDE=FILE for each side, or give its game file instead)",
            path.display()
        )
    })?;
    Ok((ruleset, game, text))
}
