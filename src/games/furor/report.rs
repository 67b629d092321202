//! The turn report (§15): what both players read after a player-turn, as
//! sections of plain-English lines built from the engine's events — the
//! start of the turn, each move, each combat with its odds, shifts, die and
//! result, the retreats and chains, morale checks and advances, then every
//! army's total against its threshold and the turn track. Reports only
//! word events; they never compute rules.
//!
//! ```
//! use umpire::games::furor::{report, scenario::shipped, sparring, sequence::{resolve, StopAfter}};
//! use umpire::games::furor::{options::Options, orders::Reactions};
//! use umpire::dice::SeededDice;
//! let board = shipped("soissons").unwrap().start(&Options::default(), &Default::default(), &"franks".into()).unwrap();
//! let orders = sparring::orders(&board, &Options::default());
//! let r = resolve(&board, &orders, &Reactions::default(), &Options::default(), &mut SeededDice::new([3; 32]), StopAfter::PlayerTurn).unwrap();
//! let sections = report::sections(&r, &Options::default());
//! assert_eq!(sections[0].heading, "Turn 1: movement of the franks");
//! assert!(sections.iter().any(|s| s.heading == "Army morale (§10)"));
//! // Soissons is played on the reconstructed open field, and says so last.
//! assert_eq!(sections.last().unwrap().heading, report::RECONSTRUCTED);
//! ```

use crate::games::furor::board::{Board, Outcome, UnitId};
use crate::games::furor::events::{
    Event, ImpetuousCause, JoinReason, LossCause, MoraleCause, Phase,
};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::Options;
use crate::games::furor::orders::confirm::modifiers;
use crate::games::furor::reconstruction::{self, Notes};
use crate::games::furor::rules::special::ChararicChoice;
use crate::games::furor::rules::MoraleOutcome;
use crate::games::furor::sequence::Resolution;
use crate::games::furor::{victory, wording};

/// A heading and its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub heading: String,
    pub lines: Vec<String>,
}

fn name(b: &Board, id: &UnitId) -> String {
    b.unit(id).map_or_else(|| id.0.clone(), |u| u.label())
}

fn path(p: &[Hex]) -> String {
    p.iter().map(Hex::to_string).collect::<Vec<_>>().join(" ")
}

/// How an outcome reads.
pub fn outcome(o: &Outcome) -> String {
    match o {
        Outcome::Major(s) => format!("a major victory for the {s}"),
        Outcome::Minor(s) => format!("a minor victory for the {s}"),
        Outcome::Tie => "a tie".into(),
    }
}

/// One event as a line of the report, or `None` for events that open a
/// section rather than fill one.
pub fn line(b: &Board, e: &Event) -> Option<String> {
    let n = |id: &UnitId| name(b, id);
    Some(match e {
        Event::TurnBegins { turn } => format!("Turn {turn} begins."),
        Event::PhaseBegins { .. } => return None,
        Event::ChararicRoll { turn, roll, choice } => format!(
            "Chararic's roll for turn {turn}: {roll} — {}.",
            match choice {
                ChararicChoice::Betrays => "he betrays Clovis",
                ChararicChoice::StaysNeutral => "he stays neutral",
                ChararicChoice::JoinsClovis => "he joins Clovis",
            }
        ),
        Event::CorpsJoins { side, reason } => match reason {
            JoinReason::Roll => format!("Chararic's corps is with the {side} to the end of the game."),
            JoinReason::AttackedBy(by) => format!("The {by} attacked Chararic's corps: it joins the {side} (Soissons rule 1)."),
        },
        Event::DivineHelpInForce { side, .. } => format!("The god of Clotilde helps the {side} this turn: +1 strength next to Clovis, +2 for Clovis, +1 morale for all."),
        Event::FeignedFlight { unit, target, roll, modified, against, drawn, .. } => {
            let effect = if drawn.is_empty() && *modified < *against as i8 {
                "no effect".to_string()
            } else if drawn.is_empty() {
                "drawn out, but no hex nearer is free".to_string()
            } else {
                format!("drawn out to {}", path(drawn))
            };
            let m = if i16::from(*modified) == i16::from(*roll) { String::new() } else { format!(", {modified} modified") };
            format!("{} feigns flight at {}: {} rolls {roll}{m} against {against} — {effect}.", n(unit), n(target), n(target))
        }
        Event::FeignedFlightRefused { unit, target, reason } => format!("{} cannot feign flight at {}: {reason}.", n(unit), n(target)),
        Event::Moved { unit, from, path: p, spent, charge } => format!(
            "{} moves {from} → {} ({spent} MP){}.",
            n(unit),
            path(p),
            charge.as_ref().map(|t| format!(", charging {}", n(t))).unwrap_or_default()
        ),
        Event::MoveRefused { unit, reason } => format!("{}'s move is refused: {}.", n(unit), wording::refusal(reason)),
        Event::ChargeRefused { unit, target, reason } => format!("{}'s charge at {} is a plain move: {reason}.", n(unit), n(target)),
        Event::CommanderOverrun { commander, by, hex } => format!("{}, alone in {hex}, is overrun by {} (§6).", n(commander), n(by)),
        Event::ImpetuousTest { unit, roll, rushes, cause } => format!(
            "{}, impetuous, {}, rolls {roll}: {}.",
            n(unit),
            match cause {
                ImpetuousCause::Moving => "nearing the enemy",
                ImpetuousCause::FiredUpon => "under fire",
            },
            if *rushes { "it rushes at the nearest enemy" } else { "it keeps its head" }
        ),
        Event::ImpetuousRush { unit, from, path: p, spent } => format!("{} rushes {from} → {} ({spent} MP).", n(unit), path(p)),
        Event::ZocTest { unit, roll, morale, outcome } => format!(
            "{} tests to pass from zone to zone: {roll} against morale {morale} — {} (11.1).",
            n(unit),
            match outcome {
                MoraleOutcome::Holds => "it passes",
                MoraleOutcome::Retreats => "nothing happens",
                MoraleOutcome::LosesStep => "it loses a step",
            }
        ),
        Event::AttackSkipped { index, target, reason } => format!("Attack {index} on {} is not made: {}.", n(target), wording::skip(reason)),
        Event::AttackerDropped { index, unit, reason } => format!("{} cannot take part in attack {index}: {}.", n(unit), wording::drop(reason)),
        Event::BretonEvasion { unit, roll, evades, path: p } => match (evades, p.is_empty()) {
            (true, false) => format!("{}, attacked, rolls {roll} and evades to {}: the combat is off (Vouillé rule 1).", n(unit), path(p)),
            (true, true) => format!("{}, attacked, rolls {roll} and slips away where it stands: the combat is off.", n(unit)),
            (false, _) => format!("{}, attacked, rolls {roll}: no evasion.", n(unit)),
        },
        Event::Combat { number, target, attackers, attack, defence, odds, shifts, column, modifiers: m, die, roll, result, .. } => {
            let shares: Vec<String> = attackers
                .iter()
                .map(|s| {
                    let mut t = format!("{} {}", n(&s.unit), s.strength);
                    if s.charge_bonus {
                        t.push_str(" (charging)");
                    }
                    if s.fire {
                        t.push_str(" (fire)");
                    }
                    if let Some((c, v)) = &s.commander {
                        t.push_str(&format!(" with {} {v}", n(c)));
                    }
                    t
                })
                .collect();
            let shift = if *shifts > 0 { format!(", {shifts} column(s) left for the terrain: {column}") } else { String::new() };
            let die = match (die, roll, result) {
                (Some(d), Some(r), Some(res)) => format!("die {d}, {} — {r}: {res}", modifiers(m)),
                _ => "no die: the defender evaded".to_string(),
            };
            format!("Combat {number} on {}: {} = {attack} against {defence}, {odds}{shift}; {die}.", n(target), shares.join(", "))
        }
        Event::StepLost { unit, cause, steps_left } => format!(
            "{} loses a step{}{}.",
            n(unit),
            if *steps_left == 1 { " (now reduced)" } else { "" },
            match cause {
                LossCause::NoRetreat => ": it has nowhere to retreat",
                _ => "",
            }
        ),
        Event::Eliminated { unit, cause } => format!(
            "{} is eliminated{}.",
            n(unit),
            match cause {
                LossCause::WithItsUnit => " with its unit",
                LossCause::OffMap => " off the map",
                LossCause::Overrun => "",
                LossCause::NoRetreat => ": it had nowhere to retreat",
                _ => "",
            }
        ),
        Event::Pillaged { unit } => format!("{} is pillaged.", n(unit)),
        Event::Retreated { unit, from, to } => format!("{} retreats {from} → {to}.", n(unit)),
        Event::Displaced { unit, by, from, to } => format!("{} gives way to {}: {from} → {to}.", n(unit), n(by)),
        Event::CannotRetreat { unit, hex } => format!("{} cannot retreat from {hex}.", n(unit)),
        Event::ForcedOffMap { unit, from } => format!("{} is forced off the map from {from}.", n(unit)),
        Event::RetreatIgnored { unit } => format!("{} stands by its baggage: the retreat has no effect (§9.4).", n(unit)),
        Event::MoraleCheck { unit, roll, morale, outcome, cause, .. } => format!(
            "{} checks morale{}: {roll} against {morale} — {}.",
            n(unit),
            if *cause == MoraleCause::Chain { " after the retreat chain" } else { "" },
            match outcome {
                MoraleOutcome::Holds => "it holds",
                MoraleOutcome::Retreats => "it retreats",
                MoraleOutcome::LosesStep => "it loses a step",
            }
        ),
        Event::Advanced { unit, from, to, commander } => format!(
            "{} advances {from} → {to}{}.",
            n(unit),
            commander.as_ref().map(|c| format!(" with {}", n(c))).unwrap_or_default()
        ),
        Event::DefectionRoll { number, two_dice, roll, losses, defect } => format!(
            "Alan defection roll {number} ({}): {roll} against {losses} Alan loss(es) — {}.",
            if *two_dice { "2d6" } else { "1d6" },
            if *defect { "the Alans leave" } else { "they stay" }
        ),
        Event::AlansDefect { units } => format!("The Alans leave the field: {}.", units.iter().map(n).collect::<Vec<_>>().join(", ")),
        Event::CommanderLossRoll { commander, roll, delta, turn } => format!(
            "{} is lost: his side rolls {roll} — {}.",
            n(commander),
            match delta {
                d if *d < 0 => format!("his troops have −1 strength and morale in turn {turn}"),
                d if *d > 0 => format!("his troops have +1 strength and morale in turn {turn}"),
                _ => "no effect".to_string(),
            }
        ),
        Event::DivineHelpEarned { side, turn } => format!("The {side} are first to lose 12: the god of Clotilde will help them in turn {turn}."),
        Event::VictoryCheck { outcome: o, .. } => match o {
            Some(o) => format!("Victory check: {}.", outcome(o)),
            None => "Victory check: no army has reached its threshold.".to_string(),
        },
        Event::TurnEnds { turn } => format!("The turn marker moves on from turn {turn}."),
        Event::GameOver { outcome: o } => format!("The battle is over: {}.", outcome(o)),
    })
}

/// The heading of the notes on reconstructed parts that close a report.
pub const RECONSTRUCTED: &str = "Reconstructed parts (R1-R12 in the rulings)";

/// The report of one resolution, in sections. A line whose result rests on
/// a part of the game the text lost ends with marks (`[1]`), and the last
/// section lists each note once ([`reconstruction`]), with a line on the
/// map when it is reconstructed.
pub fn sections(r: &Resolution, options: &Options) -> Vec<Section> {
    let b = &r.board;
    let mut notes = Notes::default();
    let mut out: Vec<Section> = Vec::new();
    let open = |heading: String, out: &mut Vec<Section>| {
        out.push(Section {
            heading,
            lines: Vec::new(),
        })
    };
    for e in &r.events {
        match e {
            Event::TurnBegins { turn } => open(format!("Turn {turn}: start of the turn"), &mut out),
            Event::PhaseBegins { turn, phase, side } => open(
                format!(
                    "Turn {turn}: {} of the {side}",
                    if *phase == Phase::Movement {
                        "movement"
                    } else {
                        "combat"
                    }
                ),
                &mut out,
            ),
            Event::VictoryCheck { turn, .. } => open(
                format!("Turn {turn}: victory check and turn marker"),
                &mut out,
            ),
            _ => {}
        }
        if out.is_empty() {
            open("Events".into(), &mut out);
        }
        if let Some(l) = line(b, e) {
            let marks = notes.mark(reconstruction::parts(b, options, e));
            out.last_mut()
                .expect("a section")
                .lines
                .push(format!("{l}{marks}"));
        }
    }
    for s in out.iter_mut().filter(|s| s.lines.is_empty()) {
        s.lines.push("Nothing happens.".into());
    }
    out.push(Section {
        heading: "Army morale (§10)".into(),
        lines: totals(b),
    });
    out.push(Section {
        heading: "Turn track".into(),
        lines: track(b),
    });
    let mut lines = notes.lines(b);
    lines.extend(reconstruction::map_note(b));
    if !lines.is_empty() {
        out.push(Section {
            heading: RECONSTRUCTED.into(),
            lines,
        });
    }
    out
}

/// Each army's losses against its threshold.
pub fn totals(b: &Board) -> Vec<String> {
    victory::totals(b)
        .into_iter()
        .map(|t| match t.threshold {
            Some(th) if t.lost >= th => format!(
                "{}: {} lost, at or past its threshold of {th}.",
                t.side, t.lost
            ),
            Some(th) => format!(
                "{}: {} lost of its threshold {th} ({} to go).",
                t.side,
                t.lost,
                th - t.lost
            ),
            None => format!("{}: {} lost.", t.side, t.lost),
        })
        .collect()
}

/// How the battle ended, once it has: "The battle ended in turn 7 of 12:
/// …" (the first line of [`track`], and a replay's verdict).
pub fn ended(b: &Board) -> Option<String> {
    let of = b.last_turn.map(|l| format!(" of {l}")).unwrap_or_default();
    let o = b.outcome.as_ref()?;
    Some(format!(
        "The battle ended in turn {}{of}: {}.",
        b.turn,
        outcome(o)
    ))
}

/// Where the game stands: the turn, who writes next, markers on the track.
pub fn track(b: &Board) -> Vec<String> {
    let of = b.last_turn.map(|l| format!(" of {l}")).unwrap_or_default();
    let mut lines = vec![match (ended(b), b.next_to_write()) {
        (Some(ended), _) => ended,
        (None, Some(side)) => format!(
            "Turn {}{of}; next: the player-turn of the {side}.",
            b.turn,
            side = side
        ),
        (None, None) => format!("Turn {}{of}.", b.turn),
    }];
    if let Some(t) = b.memory.divine_help_turn.filter(|t| *t > 0) {
        lines.push(format!("Divine Help marker: turn {t}."));
    }
    if let Some(side) = &b.memory.chararic_joined {
        lines.push(format!("Chararic's corps fights for the {side}."));
    } else if b.rules.chararic.is_some() {
        lines.push("Chararic's corps is neutral.".into());
    }
    for e in b.memory.effects.iter().filter(|e| e.turn >= b.turn) {
        lines.push(format!(
            "{}'s troops: {:+} strength and morale in turn {}.",
            name(b, &e.commander),
            e.delta,
            e.turn
        ));
    }
    lines
}

/// The report as plain text (headings underlined).
pub fn text(sections: &[Section]) -> String {
    let mut out = String::new();
    for s in sections {
        out.push_str(&s.heading);
        out.push('\n');
        out.push_str(&"-".repeat(s.heading.chars().count()));
        out.push('\n');
        for l in &s.lines {
            out.push_str(l);
            out.push('\n');
        }
        out.push('\n');
    }
    out
}
