//! What happened, as typed events in the order it happened; reports only
//! format them ([`Event::line`]).
//!
//! ```
//! use umpire::games::fr_ancients::events::Event;
//! let e = Event::Fury { unit: "e1".into(), now: umpire::games::fr_ancients::table::Fury::Enraged };
//! assert!(matches!(e, Event::Fury { .. }));
//! ```

use super::part::Part;
use super::questions::{rolls_text as rolls, Loss, MoveKind, Outcome, Roll, Test};
use super::sheet::TableResult;
use super::table::{Battle, CharacterId, Fury, Place, SideId, StandardState, UnitId};
use super::weapons::Weapon;
use crate::geometry::Face;
use std::collections::BTreeMap;

/// An event and the part of the phase it happened in.
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    pub part: Part,
    pub event: Event,
}

/// Why a unit shot at the target it did (rule 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetWhy {
    /// "must shoot at its nearest target within arc".
    Nearest,
    /// Artillery: "must shoot at its nearest target if that target is Less than 6" away".
    ArtilleryPriority,
    /// The player's choice (light troops, artillery beyond 6").
    Chosen,
    /// A character made it shoot elsewhere (passed its rally test, §7).
    Character,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// "Roman Hastati 1 rallies: rally:h1:1 = 8 (one level left)"
    Rally {
        unit: UnitId,
        roll: Roll,
        passed: bool,
        levels: u8,
    },
    /// "Celtic Infantry 1 fails its impetuous rally roll (impetuous:c1:1 = 2)"
    Tested {
        unit: UnitId,
        test: Test,
        roll: Roll,
        passed: bool,
    },
    /// "Mago Barca escapes (escape:mago:1 = 7)"
    Escape {
        character: CharacterId,
        roll: Roll,
        escaped: bool,
    },
    /// "Balearic Slingers 1 shoots at Roman Velites 2 (its nearest target, 3.2")"
    Target {
        unit: UnitId,
        target: UnitId,
        why: TargetWhy,
        distance: f64,
    },
    /// "Numidian Javelinmen 1 does not shoot: no enemy in range and arc"
    NoTarget { unit: UnitId, why: String },
    /// "Cretan Archers 1 and 2 concentrate their bowfire on Legio I (rule 4)"
    Fire {
        firers: Vec<UnitId>,
        target: UnitId,
        weapon: Weapon,
        rolls: Vec<Roll>,
        result: Outcome,
    },
    /// "Roman Hastati 1 takes a DMZ: 2 levels, double demoralised"
    Dmz {
        unit: UnitId,
        levels: u8,
        cause: String,
    },
    /// "African War Elephants 1 is enraged"
    Fury { unit: UnitId, now: Fury },
    /// "African War Elephants 1: Enraged Move Direction 3 (right)"
    Compass {
        unit: UnitId,
        compass: &'static str,
        point: u8,
        bearing: f64,
        rolls: Vec<Roll>,
    },
    /// "Roman Hastati 1 moves from (10.0, 4.0) facing 0 to (10.0, 8.0) facing 0"
    Moved {
        unit: UnitId,
        kind: MoveKind,
        from: Place,
        to: Place,
    },
    /// "Latin Cavalry 1 charges the flank of Numidian Horsemen 2"
    Charged {
        unit: UnitId,
        target: UnitId,
        face: Face,
        reached: bool,
    },
    /// "Latin Cavalry 2 counter-charges Celtic Cavalry 1"
    CounterCharged { unit: UnitId, against: UnitId },
    /// "Velites 1 may not counter-charge …: infantry may only counter charge other infantry (rule 8)"
    NoCounterCharge {
        unit: UnitId,
        against: UnitId,
        why: String,
    },
    /// "Celtic Cavalry stops at 30.0, 24.5: Roman Hastati 2 is in the way"
    /// — a move, charge or retreat cut short by the first unit its body
    /// would touch ([`super::sweep`]).
    Blocked { unit: UnitId, by: UnitId, at: Place },
    /// "Balearic Slingers 1 is left behind by Carthaginian Cavalry 1's counter-charge (rule 8)"
    LeftBehind { unit: UnitId, by: UnitId },
    /// "Latin Cavalry 1 balks one base away from African War Elephants 2"
    Balked { unit: UnitId, from: UnitId },
    /// An order that could not be carried out when its turn came, and why.
    Refused {
        unit: UnitId,
        order: String,
        why: String,
    },
    /// "Roman Princeps 1 passes through Roman Hastati 1 (Roman Battle Drill)"
    PassedThrough { rear: UnitId, front: UnitId },
    /// "Hastati 1 forms shieldwall"
    Formed {
        unit: UnitId,
        formation: &'static str,
    },
    /// "Carthaginian Spearmen 3 is destroyed (missile fire)"
    Destroyed { unit: UnitId, how: String },
    /// "Scythed Chariots 1 flees off the table"
    LeftTable { unit: UnitId },
    /// "Rome's standard: standard:triarii:rome = 6, captured: with Celtic Infantry 2"
    Standard {
        side: SideId,
        roll: Option<Roll>,
        result: Option<TableResult>,
        now: StandardState,
    },
    /// "Maharbal is captured"
    Character { character: CharacterId, loss: Loss },
    /// "Hannibal Barca joins Spanish Cavalry 1"
    Joins {
        character: CharacterId,
        unit: UnitId,
    },
    /// "Challenge: Mago Barca against the Tribune (challenge:mago:1 = 7, challenge:tribune:1 = 4): Mago Barca wins; the Tribune is killed"
    Challenge {
        challenger: CharacterId,
        challenged: CharacterId,
        rolls: Vec<Roll>,
        winner: Option<CharacterId>,
        loser: Loss,
    },
    /// "Melee: Celtic Infantry 1 against Roman Hastati 1 (melee:… = …): Carthage wins; Roman Hastati 1 takes 2 DMZ"
    Melee {
        fighters: Vec<UnitId>,
        rolls: Vec<Roll>,
        winner: Option<SideId>,
        results: BTreeMap<UnitId, Outcome>,
    },
    /// "Numidian Horsemen 1 wraps round to the rear of Latin Hastati 2"
    Wrapped {
        unit: UnitId,
        around: UnitId,
        face: Face,
    },
    /// "Phase winner: rome 3, carthage 1: rome wins the phase"
    Tally {
        scores: Vec<(SideId, u32)>,
        winner: Option<SideId>,
    },
    /// "carthage's morale clock loses 1 (lost the phase): 9"
    Clock {
        side: SideId,
        why: String,
        now: Option<i32>,
    },
    /// "The battle is over: carthage's morale clock has run down to 0, where the pack ends the battle"
    BattleOver { why: String },
    /// "End of turn 1, phase 1: carthage plays phase 2"
    PhaseEnds { turn: u32, phase: u8, next: SideId },
}

fn face_word(f: Face) -> &'static str {
    match f {
        Face::Front => "front",
        Face::Flank => "flank",
        Face::Rear => "rear",
    }
}

impl Event {
    /// The event as a plain-English line of a report.
    pub fn line(&self, b: &Battle) -> String {
        let n = |id: &str| b.name(id);
        let c = |id: &str| {
            b.characters
                .get(id)
                .map_or_else(|| id.to_string(), |c| c.name.clone())
        };
        let show = |d: f64| b.scale.show(d);
        match self {
            Event::Rally {
                unit,
                roll,
                passed,
                levels,
            } => {
                if *passed {
                    format!(
                        "{} rallies ({roll}): {levels} level(s) of demoralization left",
                        n(unit)
                    )
                } else {
                    format!("{} fails to rally ({roll})", n(unit))
                }
            }
            Event::Tested {
                unit,
                test,
                roll,
                passed,
            } => {
                format!(
                    "{} {} its {} ({roll})",
                    n(unit),
                    if *passed { "passes" } else { "fails" },
                    test.describe().1
                )
            }
            Event::Escape {
                character,
                roll,
                escaped,
            } => {
                format!(
                    "{} {} ({roll})",
                    c(character),
                    if *escaped {
                        "escapes"
                    } else {
                        "stays a prisoner"
                    }
                )
            }
            Event::Target {
                unit,
                target,
                why,
                distance,
            } => {
                let why = match why {
                    TargetWhy::Nearest => "its nearest target in arc, rule 4",
                    TargetWhy::ArtilleryPriority => "its nearest target, within 6\", rule 4",
                    TargetWhy::Chosen => "chosen",
                    TargetWhy::Character => "a character's choice, §7",
                };
                format!(
                    "{} shoots at {} ({why}; {})",
                    n(unit),
                    n(target),
                    show(*distance)
                )
            }
            Event::NoTarget { unit, why } => format!("{} does not shoot: {why}", n(unit)),
            Event::Fire {
                firers,
                target,
                weapon,
                rolls: rs,
                result,
            } => {
                let who = firers
                    .iter()
                    .map(|f| n(f))
                    .collect::<Vec<_>>()
                    .join(" and ");
                let together = if firers.len() > 1 {
                    " concentrating their bowfire (rule 4)"
                } else {
                    ""
                };
                let effect = if result.destroyed {
                    format!("{} is destroyed", n(target))
                } else if result.dmz == 0 {
                    "no effect".into()
                } else {
                    format!("{} takes {} DMZ", n(target), result.dmz)
                };
                format!(
                    "{who} shoot{} {weapon} at {}{together} ({}): {effect}",
                    if firers.len() > 1 { "" } else { "s" },
                    n(target),
                    rolls(rs)
                )
            }
            Event::Dmz {
                unit,
                levels,
                cause,
            } => {
                let dd = if *levels == 2 {
                    ", double demoralised"
                } else {
                    ""
                };
                format!("{} takes a DMZ ({cause}): {levels} level(s){dd}", n(unit))
            }
            Event::Fury { unit, now } => format!("{} is {}", n(unit), now.code()),
            Event::Compass {
                unit,
                compass,
                point,
                bearing,
                rolls: rs,
            } => {
                format!(
                    "{}: {compass} Move Direction {point} ({}), bearing {bearing:.0}",
                    n(unit),
                    rolls(rs)
                )
            }
            Event::Moved {
                unit,
                kind,
                from,
                to,
            } => {
                format!(
                    "{} {}: from {} to {}",
                    n(unit),
                    kind.word(),
                    from.show(),
                    to.show()
                )
            }
            Event::Charged {
                unit,
                target,
                face,
                reached,
            } => {
                if *reached {
                    format!(
                        "{} charges the {} of {}",
                        n(unit),
                        face_word(*face),
                        n(target)
                    )
                } else {
                    format!("{} charges {} but falls short", n(unit), n(target))
                }
            }
            Event::CounterCharged { unit, against } => {
                format!("{} counter-charges {}", n(unit), n(against))
            }
            Event::NoCounterCharge { unit, against, why } => {
                format!("{} does not counter-charge {}: {why}", n(unit), n(against))
            }
            Event::Blocked { unit, by, at } => format!(
                "{} stops at {:.1}, {:.1}: {} is in the way",
                n(unit),
                at.front.x,
                at.front.y,
                n(by)
            ),
            Event::LeftBehind { unit, by } => format!(
                "{} is left behind by {}'s counter-charge (rule 8)",
                n(unit),
                n(by)
            ),
            Event::Balked { unit, from } => {
                format!("{} balks one base away from {}", n(unit), n(from))
            }
            Event::Refused { unit, order, why } => {
                format!("{}: '{order}' not carried out: {why}", n(unit))
            }
            Event::PassedThrough { rear, front } => {
                format!(
                    "{} passes through {} (Roman Battle Drill)",
                    n(rear),
                    n(front)
                )
            }
            Event::Formed { unit, formation } => format!("{} forms {formation}", n(unit)),
            Event::Destroyed { unit, how } => format!("{} is destroyed ({how})", n(unit)),
            Event::LeftTable { unit } => format!("{} flees off the table", n(unit)),
            Event::Standard {
                side,
                roll,
                result,
                now,
            } => {
                let rolled = match (roll, result) {
                    (Some(r), Some(t)) => format!(" ({r}: {t})"),
                    _ => String::new(),
                };
                let now = match now {
                    StandardState::With(u) => format!("with {}", n(u)),
                    StandardState::CapturedBy(u) => format!("captured, held by {}", n(u)),
                    StandardState::LeftBehind(p) => {
                        format!("left behind at ({:.1}, {:.1})", p.x, p.y)
                    }
                    StandardState::Lost => "lost".into(),
                };
                format!("{side}'s battle standard{rolled}: {now}")
            }
            Event::Character { character, loss } => match loss {
                Loss::Killed => format!("{} is killed", c(character)),
                Loss::Captured => format!("{} is captured", c(character)),
                Loss::Joins(u) => format!("{} joins {}", c(character), n(u)),
                Loss::Unhurt => format!("{} is unhurt", c(character)),
            },
            Event::Joins { character, unit } => format!("{} joins {}", c(character), n(unit)),
            Event::Challenge {
                challenger,
                challenged,
                rolls: rs,
                winner,
                loser,
            } => {
                let end = match winner {
                    None => "neither wins".to_string(),
                    Some(w) => {
                        let l = if w == challenger {
                            challenged
                        } else {
                            challenger
                        };
                        let fate = match loser {
                            Loss::Killed => "is killed",
                            Loss::Captured => "is captured",
                            _ => "survives",
                        };
                        format!("{} wins; {} {fate}", c(w), c(l))
                    }
                };
                format!(
                    "Challenge: {} against {} ({}): {end}",
                    c(challenger),
                    c(challenged),
                    rolls(rs)
                )
            }
            Event::Melee {
                fighters,
                rolls: rs,
                winner,
                results,
            } => {
                let who = fighters.iter().map(|f| n(f)).collect::<Vec<_>>().join(", ");
                let won = winner
                    .as_ref()
                    .map_or("a draw".to_string(), |s| format!("{s} wins"));
                let mut effects: Vec<String> = results
                    .iter()
                    .filter(|(_, o)| o.dmz > 0 || o.destroyed)
                    .map(|(u, o)| {
                        if o.destroyed {
                            format!("{} destroyed", n(u))
                        } else {
                            format!("{} takes {} DMZ", n(u), o.dmz)
                        }
                    })
                    .collect();
                if effects.is_empty() {
                    effects.push("no losses".into());
                }
                format!(
                    "Melee of {who} ({}): {won}; {}",
                    rolls(rs),
                    effects.join(", ")
                )
            }
            Event::Wrapped { unit, around, face } => {
                format!(
                    "{} wraps round to the {} of {}",
                    n(unit),
                    face_word(*face),
                    n(around)
                )
            }
            Event::Tally { scores, winner } => {
                let s = scores
                    .iter()
                    .map(|(side, p)| format!("{side} {p}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                match winner {
                    Some(w) => format!("Phase winner: {s}; {w} wins the phase"),
                    None => {
                        format!("Phase winner: {s}; a tie, nobody loses the phase")
                    }
                }
            }
            Event::Clock { side, why, now } => match now {
                Some(v) => format!("{side}'s morale clock loses 1 ({why}): {v}"),
                None => format!("{side}'s morale clock loses 1 ({why})"),
            },
            Event::BattleOver { why } => format!("The battle is over: {why}"),
            Event::PhaseEnds { turn, phase, next } => {
                format!("End of turn {turn}, phase {phase}; {next} plays next")
            }
        }
    }
}
