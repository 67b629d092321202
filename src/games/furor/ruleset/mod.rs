//! Furor Barbarus behind the rule-set boundary: what the post office, the
//! report frame and the case runner ask of a rule set, answered with this
//! folder's scenarios, order language, engine, report and picture.
//!
//! What crosses the boundary: the state is the
//! [`Board`](super::board::Board) with every side's standing reactions
//! ([`State`]); a side's orders are its checked [`PlayerTurnOrders`] and
//! the reactions it wrote ([`SideOrders`]); the events are the engine's.
//! A game turn is two rounds, one per player-turn (§4, §15): the phasing
//! player writes; the other may send standing reactions at any time, which
//! hold, unit by unit, until replaced.
//!
//! Before the battle come the scenario's set-up rounds (§12, §15): the
//! state is then a [`Deployment`] (the scenario and map files, the
//! placements so far); each writing side mails its placements, and the
//! last set-up round builds the board (and rolls for the first player at
//! Campus Mauriacus). Commanders sealed by the scenario are shown to no
//! one until every side has set up.
//!
//! The modules here: the stored game (`state`), round numbering
//! (`rounds`), the welcome's words (`briefing`), the set-up (`setup`), the
//! summary partials' data (`summary`) and a battle round (`turn`).

mod briefing;
mod general;
mod rounds;
mod setup;
mod state;
mod summary;
#[cfg(test)]
mod tests;
mod turn;

pub use state::{overlay, Deployment, Moved, SideOrders, State};

use super::board::{Outcome, SideId, UnitId};
use super::events::chargers;
use super::options::{FirstPlayerRoll, Options};
use super::orders::check::{check_exchange, Exchange};
use super::orders::confirm::{confirmation, problems};
use super::orders::setup::{self as placing, check_setup};
use super::orders::{PlayerTurnOrders, Problem};
use super::picture;
use super::report;
use super::scenario::FirstPlayer;
use crate::diagnostic::{Diagnostic, Rendered};
use crate::dice::{DieKind, SeededDice};
use crate::games::read;
use crate::games::CaseOutcome;
use crate::games::{
    Checked, GameResult, Json, NewGame, Resolved, Round, RoundInput, Ruleset, RulesetError, Setup,
    Welcome,
};
use crate::report::{RoundReport, Section};
use briefing::{briefing, forces, setup_story};
use rounds::{answering, exchange_of, round_of};
use setup::{load_scenario, resolve_setup};
use state::{json, stored, SetupOrders, Stored};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use summary::summary;

/// *Furor Barbarus* as a [`Ruleset`].
pub struct FurorBarbarus;

impl Ruleset for FurorBarbarus {
    fn name(&self) -> &'static str {
        super::RULESET
    }

    fn title(&self) -> &'static str {
        "Furor Barbarus"
    }

    fn version(&self, options: &Json) -> String {
        format!(
            "{} {} options {}",
            super::RULESET,
            env!("CARGO_PKG_VERSION"),
            options
        )
    }

    fn guide(&self) -> &'static str {
        include_str!("../../../../docs/furor-barbarus/guide.md")
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            (
                "furor-barbarus/summary.txt",
                include_str!("../../../../templates/furor-barbarus/summary.txt"),
            ),
            (
                "furor-barbarus/summary.html",
                include_str!("../../../../templates/furor-barbarus/summary.html"),
            ),
        ]
    }

    fn companions(&self, scenario_text: &str) -> Vec<String> {
        setup::companions(scenario_text)
    }

    fn new_game(&self, setup: &Setup<'_>) -> Result<NewGame, RulesetError> {
        setup.no_armies_nor_pack(self.title())?;
        let (scenario, map) = load_scenario(setup)?;
        let options: Options = toml::Value::Table(setup.options.clone())
            .try_into()
            .map_err(|e: toml::de::Error| {
                RulesetError::Setup(format!("[options]: {}", e.message()))
            })?;
        let rounds: Vec<Vec<SideId>> = scenario
            .setup_rounds
            .iter()
            .map(|r| {
                r.iter()
                    .filter(|s| scenario.has_choice(&options, s))
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .filter(|r| !r.is_empty())
            .collect();
        let roll_later = matches!(scenario.first_player, FirstPlayer::Roll { .. })
            && options.first_player_roll == FirstPlayerRoll::AfterSetup
            && !rounds.is_empty();
        let (first, rolls) = if roll_later {
            (None, Vec::new())
        } else {
            let (f, r) = scenario
                .first_player(&mut SeededDice::new(setup.seed))
                .map_err(|e| RulesetError::Engine(e.to_string()))?;
            (Some(f), r)
        };
        let turns = u8::try_from(setup.max_turns)
            .unwrap_or(u8::MAX)
            .min(scenario.turns);
        let deployment = Deployment {
            scenario: setup.scenario_text.to_string(),
            map,
            options: options.clone(),
            last_turn: turns,
            rounds,
            done: 0,
            placements: BTreeMap::new(),
            first: first.clone(),
        };
        let sides: Vec<String> = scenario.armies.keys().map(|s| s.0.clone()).collect();
        let mut length = format!(
            "The battle lasts {turns} game turns, each a player-turn of each side in turn; "
        );
        match &first {
            Some(f) => {
                let _ = write!(length, "the {f} play first.");
            }
            None => {
                length.push_str("who plays first is rolled for once both sides have set up (O31).")
            }
        }
        for (side, roll) in &rolls {
            let _ = write!(
                length,
                "\nFirst-player roll of the {side}: {roll} (first-player:{side} on turn 1's dice)."
            );
        }
        if deployment.options.split_turn {
            length.push_str(
                "\nThe game plays the split turn (§15): your player-turn is two rounds, your moves, then, after their report, your attacks.",
            );
        }
        length.push('\n');
        length.push_str(&setup_story(&scenario, &deployment.rounds));
        let listed = deployment.listed(&scenario)?;
        let welcome = scenario
            .armies
            .keys()
            .map(|side| {
                let sets_up = deployment.rounds.iter().flatten().any(|s| s == side);
                let (_, example) = forces(&listed, &options, side, sets_up);
                let briefing = briefing(
                    &scenario,
                    setup.scenario_text,
                    &listed,
                    &options,
                    side,
                    turns,
                );
                let marks = picture::Marks {
                    caption: format!("{} — the start, as the scenario lists it", scenario.name),
                    areas: [side]
                        .into_iter()
                        .filter(|s| scenario.has_choice(&options, s))
                        .map(|s| (s.clone(), scenario.setup_area(&options, s)))
                        .filter(|(_, a)| !a.is_empty())
                        .collect(),
                    ..picture::Marks::default()
                };
                (
                    side.0.clone(),
                    Welcome {
                        rules: self.title().to_string(),
                        length: length.clone(),
                        briefing,
                        example,
                        picture: Some(picture::svg(&listed, &marks)),
                    },
                )
            })
            .collect();
        let state = match &first {
            Some(f) if deployment.rounds.is_empty() => json(&deployment.build(&scenario, f)?)?,
            _ => json(&Stored::Setup { setup: deployment })?,
        };
        Ok(NewGame {
            state,
            options: json(&options)?,
            sides,
            last_turn: u32::from(turns),
            welcome,
        })
    }

    fn sides(&self, state: &Json) -> Result<Vec<String>, RulesetError> {
        Ok(match stored(state)? {
            Stored::Setup { setup } => setup
                .scenario()?
                .armies
                .keys()
                .map(|s| s.0.clone())
                .collect(),
            Stored::Play(state) => state.board.sides.keys().map(|s| s.0.clone()).collect(),
        })
    }

    fn round(&self, state: &Json) -> Result<Round, RulesetError> {
        Ok(match stored(state)? {
            Stored::Setup { setup } => setup.round(),
            Stored::Play(state) => round_of(&state),
        })
    }

    /// The next set-up round's sides; after the last, the first player if
    /// he is known before the set-up (else he is rolled for: no one knows);
    /// in the battle, the other player (the order of play is fixed, §4).
    fn next_writers(&self, state: &Json) -> Result<Option<Vec<String>>, RulesetError> {
        let names = |r: &[SideId]| r.iter().map(|s| s.0.clone()).collect();
        Ok(match stored(state)? {
            Stored::Setup { setup } => match setup.rounds.get(setup.done + 1) {
                Some(next) => Some(names(next)),
                None => setup.first.map(|f| vec![f.0]),
            },
            // A question to the other player may come between (FB-19).
            Stored::Play(state) if state.options.ask_owner => None,
            // The moves' exchange is followed by the same player's attacks.
            Stored::Play(state) if exchange_of(&state) == Exchange::Moves => {
                Some(vec![state.board.phasing().0.clone()])
            }
            Stored::Play(state) => {
                let board = &state.board;
                let players = board.players.len().max(1);
                board
                    .players
                    .get((board.next + 1) % players)
                    .map(|s| vec![s.0.clone()])
            }
        })
    }

    fn check_orders(
        &self,
        state: &Json,
        side: &str,
        sheet: &str,
        envelope: &[Rendered],
    ) -> Result<Checked, RulesetError> {
        let id = SideId::from(side);
        let mut text = String::new();
        for d in envelope {
            text.push_str(&d.text);
            text.push('\n');
        }
        let envelope_errors = envelope.iter().filter(|d| d.error).count();
        let (orders, understood, errors) = match stored(state)? {
            Stored::Setup { setup } => {
                let scenario = setup.scenario()?;
                let listed = setup.listed(&scenario)?;
                if setup.writers().contains(&id) {
                    let c = check_setup(sheet, &id, &scenario, &setup.options, &listed);
                    text.push_str(&placing::confirmation(sheet, &c, &listed));
                    let errors = c.diagnostics.iter().filter(|d| d.is_error()).count();
                    (
                        json(&SetupOrders {
                            placement: c.written,
                        })?,
                        c.understood,
                        errors,
                    )
                } else {
                    let names = |r: &[SideId]| {
                        r.iter()
                            .map(|s| s.0.as_str())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    };
                    let order: Vec<String> = setup.rounds.iter().map(|r| names(r)).collect();
                    let written = super::orders::read::read(sheet);
                    let mut refused = written.problems;
                    refused.extend(written.lines.iter().map(|l| {
                        Diagnostic::new(Problem::NotYourTurn, l.span, format!("it is the set-up round of the {}: nothing of yours is taken now", names(setup.writers())))
                            .with_note(format!("the set-up goes {} (§15); moves and standing reactions are read once the board is set up", order.join(", then ")))
                    }));
                    refused.sort_by_key(|d| d.span.start);
                    text.push_str("Understood:\n  (nothing)\n");
                    text.push_str(&problems(sheet, &refused));
                    (
                        json(&SetupOrders::default())?,
                        Vec::new(),
                        refused.iter().filter(|d| d.is_error()).count(),
                    )
                }
            }
            Stored::Play(state) => {
                let charges = state
                    .moved
                    .as_ref()
                    .map(|m| m.charges.clone())
                    .unwrap_or_default();
                let c = check_exchange(
                    sheet,
                    &id,
                    &state.board,
                    &state.options,
                    exchange_of(&state),
                    &charges,
                );
                text.push_str(&confirmation(sheet, &c, &state.board));
                if answering(&state).as_ref() == Some(&id) {
                    text.push_str(&turn::confirm_answer(&state, &c.reactions).unwrap_or_default());
                }
                let phasing = *state.board.phasing() == id;
                let orders = SideOrders {
                    turn: if phasing {
                        c.orders.clone()
                    } else {
                        PlayerTurnOrders::default()
                    },
                    reactions: c.reactions.clone(),
                };
                let errors = c.diagnostics.iter().filter(|d| d.is_error()).count();
                (json(&orders)?, c.understood, errors)
            }
        };
        Ok(Checked {
            orders,
            understood: understood
                .into_iter()
                .enumerate()
                .map(|(i, (_, l))| (format!("line {}", i + 1), l))
                .collect(),
            confirmation: text,
            errors: errors + envelope_errors,
        })
    }

    fn die_for(&self, _state: &Json, key: &str) -> Result<DieKind, String> {
        let parts: Vec<&str> = key.split(':').collect();
        let number = |s: &str| s.parse::<u32>().is_ok_and(|n| n >= 1);
        match parts.as_slice() {
            ["defection", n] if number(n) => Ok(DieKind::TwoD6),
            ["combat" | "chararic", n] if number(n) => Ok(DieKind::D6),
            ["morale" | "impetuous" | "breton" | "zoc", u, k] if !u.is_empty() && number(k) => Ok(DieKind::D6),
            ["feigned" | "commander-loss" | "first-player", u] if !u.is_empty() => Ok(DieKind::D6),
            _ => Err(format!(
                "'{key}' is not a Furor Barbarus dice key (combat:N, morale:UNIT:N, feigned:UNIT, commander-loss:UNIT, defection:N, chararic:N, impetuous:UNIT:N, breton:UNIT:N, zoc:UNIT:N)"
            )),
        }
    }

    fn resolve(&self, input: RoundInput<'_>) -> Result<Resolved, RulesetError> {
        let state = match stored(input.state)? {
            Stored::Setup { setup } => return resolve_setup(setup, input.orders, input.dice),
            Stored::Play(state) => state,
        };
        let played = turn::play(state, input.orders, input.options, input.dice)?;
        let (state, r) = (played.state, played.resolution);
        let sections = report::sections(&r, &state.options)
            .into_iter()
            .map(|s| Section {
                title: s.heading,
                lines: s.lines,
            })
            .chain(played.question.map(|lines| Section {
                title: format!(
                    "A question for the {}",
                    round_of(&state).writers.join(" and ")
                ),
                lines,
            }))
            .collect();
        let victory = r
            .board
            .outcome
            .as_ref()
            .map(|o| {
                vec![format!(
                    "{}.",
                    crate::report::capitalize_first(&report::outcome(o))
                )]
            })
            .unwrap_or_default();
        let mut extra = serde_json::Map::new();
        extra.insert("charged".into(), json(&chargers::<Vec<_>>(&r.events))?);
        let ended = r.board.is_over();
        // A minor victory is a win as much as a major one (LG-6).
        let result = r.board.outcome.as_ref().map(|o| match o {
            Outcome::Major(s) | Outcome::Minor(s) => GameResult::Won { side: s.0.clone() },
            Outcome::Tie => GameResult::Drawn,
        });
        let summary = summary(&r.board);
        let events = json(&r.events)?;
        let summary_title = if ended {
            "The board at the end".to_string()
        } else {
            format!("The board before {}", round_of(&state).label)
        };
        Ok(Resolved {
            state: json(&state)?,
            events,
            sections,
            dice: played.dice,
            summary,
            summary_title,
            victory,
            ended,
            result,
            extra,
        })
    }

    fn picture(
        &self,
        _before: &Json,
        after: &Json,
        report: &RoundReport,
    ) -> Result<String, RulesetError> {
        let board = match stored(after)? {
            Stored::Setup { setup } => setup.shown(&setup.scenario()?)?,
            Stored::Play(state) => state.board,
        };
        let charged: Vec<UnitId> = match report.extra.get("charged") {
            Some(c) => read("the chargers", c)?,
            None => Vec::new(),
        };
        let marks = picture::Marks {
            charged: charged.into_iter().collect(),
            caption: format!("{} — after {}", report.title, report.label),
            ..picture::Marks::default()
        };
        Ok(picture::svg(&board, &marks))
    }

    fn canonical(&self, state: &Json) -> Result<Json, RulesetError> {
        json(&stored(state)?)
    }

    fn general_plays(&self, options: &Json) -> Result<(), String> {
        general::plays(options)
    }

    fn general_orders(
        &self,
        _setup: &str,
        state: &Json,
        side: &str,
        style: crate::sim::Style,
    ) -> Result<String, RulesetError> {
        general::sheet(state, side, style)
    }

    fn run_case(&self, text: &str) -> CaseOutcome {
        super::case::run_text(text)
    }

    fn case_state(&self, text: &str) -> Result<Json, RulesetError> {
        let case =
            super::case::Case::parse(text).map_err(|e| RulesetError::Setup(e.to_string()))?;
        json(&State::new(case.board, case.options, 0))
    }
}
