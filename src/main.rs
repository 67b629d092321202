//! The `umpire` command. Only this edge (with `store` and `mail`) does I/O;
//! it reads the clock and the configuration and hands them inward.

use anyhow::{Context, Result};
use chrono::Utc;
use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use umpire::config::Config;
use umpire::post::{gamefile::GameFile, PostOffice};

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
    #[command(subcommand)]
    command: Command,
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
    /// The service: poll, ingest, check deadlines, adjudicate and send, round after round, until Ctrl-C or SIGTERM.
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
    /// Replay a played turn from its stored orders and revealed seed and check every roll and result matches.
    Verify {
        /// The game id.
        game: String,
        /// The turn to replay.
        turn: u32,
    },
    /// Play a whole demonstration game through the local spool and show where the mails are.
    Demo {
        /// The folder to play in (created; must be empty or absent).
        #[arg(long, default_value = "demo-out")]
        dir: PathBuf,
    },
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
        /// A scenario file to check against.
        #[arg(long, conflicts_with_all = ["game", "case"])]
        scenario: Option<PathBuf>,
        /// A rules case file to check against.
        #[arg(long, conflicts_with_all = ["game", "scenario"])]
        case: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum GameCommand {
    /// Create a game from a game file and mail every player a welcome with their password.
    New {
        /// The game file (see campaigns/games/).
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("UMPIRE_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("umpire: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn open(config: &std::path::Path) -> Result<PostOffice> {
    let config = Config::load(config)?;
    Ok(PostOffice::open(config)?)
}

/// Largest message read from standard input; beyond it the rest is discarded
/// and the stored copy is refused as too large.
const STDIN_LIMIT: u64 = 64 * 1024 * 1024;

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Ingest { maildir: None } => {
            let mut raw = Vec::new();
            std::io::stdin()
                .take(STDIN_LIMIT)
                .read_to_end(&mut raw)
                .context("reading the message from standard input")?;
            let mut po = open(&cli.config)?;
            po.process_pending(Utc::now())?;
            let d = po.accept(&raw, "stdin", Utc::now())?;
            println!("{}", d.map_or("already stored".to_string(), |d| format!("{}: {}", d.state(), d.note())));
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
            let f = po.send(Utc::now())?;
            println!("{} sent, {} failed (will be retried)", f.sent, f.failed);
        }
        Command::Run { once } => {
            let mut po = open(&cli.config)?;
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
                signal_hook::flag::register(sig, stop.clone())?;
            }
            umpire::post::serve(&mut po, &stop, once, Utc::now)?;
        }
        Command::Game { command: GameCommand::New { file } } => {
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
            return Ok(if code == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        Command::Orders { command: OrdersCommand::Check { file, game, side, scenario, case } } => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            let table = if let Some(g) = game {
                open(&cli.config)?.table_of(&g)?
            } else if let Some(s) = scenario {
                umpire::post::load_scenario(&s)?
            } else if let Some(c) = case {
                umpire::table::Table::from_setup(&umpire::case::Case::load(&c)?.setup)?
            } else {
                anyhow::bail!("say what to check against: --game G --side S, --scenario FILE or --case FILE");
            };
            let (report, ok) = umpire::orders::offline_check(&text, side.as_deref(), &table);
            print!("{report}");
            return Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        Command::Verify { game, turn } => {
            let po = open(&cli.config)?;
            let (report, ok) = umpire::post::verify_turn(&po, &game, turn)?;
            print!("{report}");
            return Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        Command::Demo { dir } => {
            let summary = umpire::demo::run(&dir)?;
            print!("{summary}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
