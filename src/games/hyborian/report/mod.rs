//! The Hyborean Age's part of a turn report: the story of the turn phase
//! by phase and every die rolled ([`story`]), the summary of the whole table
//! ([`summary`], rendered by `templates/hyborian-age/summary.*`), and the
//! picture. The frame around them is the shared `crate::report`.
//!
//! Architecture invariant: the report only formats; it computes no rules.
//! Nothing a side wrote for the coming turn is ever in a report.

pub mod picture;

use crate::games::hyborian::adjudicate::events::TestPoint;
use crate::games::hyborian::adjudicate::Event;
use crate::games::hyborian::table::{Status, Table, Unit};
pub use crate::report::Section;
use serde::{Deserialize, Serialize};

/// One unit's line in the table summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UnitLine {
    pub id: String,
    pub number: u32,
    pub name: String,
    pub kind: String,
    pub class: String,
    pub figures: u32,
    /// Figures at the start of this turn.
    pub figures_before: u32,
    pub original: u32,
    pub formation: String,
    pub files: u32,
    pub ranks: u32,
    pub x: String,
    pub y: String,
    pub facing: String,
    /// "ready", "fall-back (2 turns)", "rout", "in melee with Black Dragons"…
    pub status: String,
    /// Leaders with this unit.
    pub leaders: Vec<String>,
}

/// One side's part of the table summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SideSummary {
    pub side: String,
    pub units: Vec<UnitLine>,
    pub figures: u32,
    pub original: u32,
    /// Figures lost since the battle began, in percent of the original.
    pub lost_percent: u32,
    /// Units routed, surrendered, captured, eliminated or off the table.
    pub units_gone: usize,
}

fn status_text(u: &Unit, table: &Table) -> String {
    let name = |id: &str| {
        table
            .units
            .get(id)
            .map_or(id.to_string(), |o| o.name.clone())
    };
    if !u.in_melee_with.is_empty() {
        let others: Vec<String> = u.in_melee_with.iter().map(|id| name(id)).collect();
        return format!("in melee with {}", others.join(", "));
    }
    match &u.status {
        Status::FallBack(n) => format!(
            "fall-back ({n} turn{} left)",
            if *n == 1 { "" } else { "s" }
        ),
        other => other.code().to_string(),
    }
}

/// The summary lines of one side, in army-list order.
pub fn unit_lines(table: &Table, before: Option<&Table>, side: &str) -> Vec<UnitLine> {
    let mut units: Vec<&Unit> = table
        .units_of(side)
        .filter(|u| u.attached_to.is_none())
        .collect();
    units.sort_by_key(|u| (u.number, u.id.clone()));
    units
        .into_iter()
        .map(|u| UnitLine {
            id: u.id.clone(),
            number: u.number,
            name: u.name.clone(),
            kind: u.kind.book_name().to_string(),
            class: u.class.to_string(),
            figures: u.figures,
            figures_before: before
                .and_then(|b| b.units.get(&u.id))
                .map_or(u.figures, |b| b.figures),
            original: u.original,
            formation: u.formation.code().to_string(),
            files: u.files,
            ranks: u.ranks,
            x: format!("{:.1}", u.front.x),
            y: format!("{:.1}", u.front.y),
            facing: format!("{:.0}", u.facing),
            status: status_text(u, table),
            leaders: table
                .units
                .values()
                .filter(|l| l.attached_to.as_deref() == Some(u.id.as_str()))
                .map(|l| l.name.clone())
                .collect(),
        })
        .collect()
}

/// The table summary for every side.
pub fn summary(table: &Table, before: Option<&Table>) -> Vec<SideSummary> {
    table
        .sides()
        .into_iter()
        .map(|side| {
            let units = unit_lines(table, before, &side);
            let figures: u32 = units.iter().map(|u| u.figures).sum();
            let original: u32 = units.iter().map(|u| u.original).sum();
            let units_gone = table
                .units_of(&side)
                .filter(|u| {
                    !u.kind.is_single_figure()
                        && !matches!(u.status, Status::Ready | Status::FallBack(_))
                })
                .count();
            SideSummary {
                lost_percent: (original - figures.min(original)) * 100 / original.max(1),
                side,
                units,
                figures,
                original,
                units_gone,
            }
        })
        .collect()
}

/// The units that began a charge this turn, in id order.
pub fn chargers(events: &[Event]) -> Vec<String> {
    let set: std::collections::BTreeSet<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::ChargeBegun { unit, .. } => Some(unit.clone()),
            _ => None,
        })
        .collect();
    set.into_iter().collect()
}

/// Split the engine's events into the sections of the story and the dice:
/// each phase's movement, the missile fire at its end, and the melee.
pub fn story(events: &[Event]) -> (Vec<Section>, Vec<String>) {
    let mut sections: Vec<Section> = Vec::new();
    let mut dice = Vec::new();
    let mut phase = 0;
    let open = |sections: &mut Vec<Section>, title: String| {
        if sections.last().is_none_or(|s| s.title != title) {
            sections.push(Section {
                title,
                lines: Vec::new(),
            });
        }
    };
    // A halt the engine records before the move it cut short is told after
    // that move: the move, then why it ended there.
    let mut halts: Vec<(&str, String)> = Vec::new();
    for e in events {
        if let Event::DieRolled { key, value } = e {
            dice.push(format!("{key} = {value}"));
            continue;
        }
        if let Event::Halted { unit, .. } = e {
            if !sections.is_empty() {
                halts.push((unit.as_str(), e.to_string()));
                continue;
            }
        }
        let count = sections.len();
        let melee_told = sections.iter().any(|s| s.title == "Melee");
        match e {
            Event::DieRolled { .. } => continue,
            Event::TurnBegan { .. } | Event::TurnEnded { .. } => continue,
            Event::PhaseBegan { phase: p } => {
                if let Some(sec) = sections.last_mut() {
                    sec.lines.extend(halts.drain(..).map(|(_, line)| line));
                }
                phase = *p;
                open(&mut sections, format!("Phase {p} movement"));
                continue;
            }
            Event::FireResolved { .. } => open(
                &mut sections,
                format!("Missile fire at the end of phase {phase}"),
            ),
            Event::MeleeResolved { .. } => open(&mut sections, "Melee".into()),
            Event::MoraleTested {
                point: TestPoint::PreMelee,
                ..
            } => open(&mut sections, "Morale before the melee".into()),
            Event::MoraleTested {
                point: TestPoint::PostMelee,
                ..
            } => open(
                &mut sections,
                if melee_told {
                    "Morale after the melee"
                } else {
                    "Morale at the end of the turn"
                }
                .into(),
            ),
            Event::Deployed { .. } | Event::DeploymentRefused { .. } => {
                open(&mut sections, "Deployment".into())
            }
            Event::Magic(m) if m.at_end_of_turn() => {
                open(&mut sections, "Magic at the end of the turn".into())
            }
            Event::Magic(_) if phase == 0 => open(&mut sections, "Spells take effect".into()),
            _ if sections.is_empty() => open(&mut sections, "Start of the turn".into()),
            _ => {}
        }
        if sections.len() > count && count > 0 {
            sections[count - 1]
                .lines
                .extend(halts.drain(..).map(|(_, line)| line));
        }
        if let Some(s) = sections.last_mut() {
            s.lines.push(e.to_string());
            if let Event::Moved { unit, .. } = e {
                let (now, later): (Vec<_>, Vec<_>) = halts.drain(..).partition(|(u, _)| u == unit);
                s.lines.extend(now.into_iter().map(|(_, line)| line));
                halts = later;
            }
        }
    }
    if let Some(sec) = sections.last_mut() {
        sec.lines.extend(halts.drain(..).map(|(_, line)| line));
    }
    (sections, dice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hyborian::rules::{Class, Formation, UnitType};
    use crate::games::hyborian::table::Unit;
    use glam::DVec2;

    fn hostile_table() -> Table {
        let unit = Unit {
            id: "x".into(),
            side: "<b>side</b>".into(),
            name: "<script>alert('x')</script> & Co".into(),
            number: 1,
            kind: UnitType::HeavyInfantry,
            class: Class::B,
            figures: 20,
            original: 24,
            weapons: vec![],
            traits: vec![],
            formation: Formation::Line,
            files: 10,
            ranks: 2,
            front: DVec2::new(10.0, 10.0),
            facing: 0.0,
            status: Status::Ready,
            in_melee_with: Default::default(),
            attached_to: None,
            spell_points: None,
            mounted: false,
        };
        Table {
            width: 48.0,
            depth: 48.0,
            terrain: vec![],
            units: [("x".to_string(), unit)].into_iter().collect(),
            turn: 2,
            ..Default::default()
        }
    }

    fn report(table: &Table) -> crate::report::RoundReport {
        crate::report::RoundReport {
            ruleset: crate::games::hyborian::RULESET.into(),
            label: String::new(),
            summary_title: String::new(),
            next_label: String::new(),
            office: Default::default(),
            extra: Default::default(),
            title: "<i>War</i>".into(),
            game: "g".into(),
            turn: 1,
            seed: "00".into(),
            seed_hash: "11".into(),
            nmr: vec![],
            sections: vec![Section {
                title: "Phase 1 movement".into(),
                lines: vec!["<img src=x onerror=alert(1)> moved".into()],
            }],
            dice: vec!["fire:x:1 = 4".into()],
            sides: serde_json::to_value(summary(table, None)).unwrap(),
            ended: false,
            next_turn: 2,
            deadline: "soon".into(),
            next_seed_hash: "22".into(),
            draft: false,
            rejected_seeds: Vec::new(),
            victory: vec!["nemedia has won the battle.".into()],
        }
    }

    #[test]
    fn a_move_is_told_before_the_halt_that_ended_it() {
        use crate::games::hyborian::adjudicate::events::Halt;
        let events = [
            Event::PhaseBegan { phase: 1 },
            Event::Halted {
                unit: "bd".into(),
                name: "Black Dragons".into(),
                phase: 1,
                after: 5.5,
                reason: Halt::TableEdge,
            },
            Event::Moved {
                unit: "foot".into(),
                name: "Aquilonian Foot".into(),
                phase: 1,
                distance: 5.0,
                wheel: 0.0,
                wheel_ordered: None,
            },
            Event::Moved {
                unit: "bd".into(),
                name: "Black Dragons".into(),
                phase: 1,
                distance: 5.5,
                wheel: 0.0,
                wheel_ordered: None,
            },
        ];
        let (sections, _) = story(&events);
        let lines = &sections[0].lines;
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("Aquilonian Foot moved"), "{lines:?}");
        assert!(lines[1].starts_with("Black Dragons moved 5.5"), "{lines:?}");
        assert!(
            lines[2].starts_with("Black Dragons halted after 5.5"),
            "{lines:?}"
        );
    }

    #[test]
    fn html_escapes_everything_players_wrote() {
        let t = hostile_table();
        let html = report(&t).html(Some("cid:p"));
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("<img src=x"), "{html}");
        assert!(!html.contains("<i>War</i>"));
        assert!(html.contains("&lt;script&gt;"));
        let svg = picture::svg(None, &t, &[], "<caption>");
        assert!(!svg.contains("<script>") && !svg.contains("<caption>"));
        assert!(crate::report::picture::png(&svg)
            .unwrap()
            .starts_with(b"\x89PNG"));
    }

    #[test]
    fn text_report_shows_losses_dice_and_the_next_seed_hash() {
        let t = hostile_table();
        let text = report(&t).text();
        assert!(text.contains("20/24 figures"), "{text}");
        assert!(text.contains("16% lost"), "{text}");
        assert!(text.contains("fire:x:1 = 4"));
        assert!(text.contains("the seed's SHA-256 is 22"));
    }
}
