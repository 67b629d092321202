//! What a result rests on that the book's text lost (digest §0): the
//! combat table's rows 4–6 (R7), a counter's reconstructed strength, movement
//! points or range (R2, R3, R5, R6, R10: listed per counter by its scenario
//! file and kept on the board, [`Unit::reconstructed`]), the stream's
//! movement cost (R8), and the reconstructed map (R11, R12). [`parts`]
//! reads one event against the board it left and the game's options;
//! [`Notes`] gives each kind of part a number the first time a report meets
//! it, so a line carries short marks (`[1]`) and the report lists each note
//! once, naming the rows and counters it covers. Reports word these; the
//! engine never sees them.
//!
//! ```
//! use umpire::games::furor::{reconstruction::{parts, Part}, scenario::shipped, options::Options};
//! use umpire::games::furor::events::{Event, Refusal};
//! let board = shipped("soissons").unwrap().start(&Options::default(), &Default::default(), &"franks".into()).unwrap();
//! // Every Soissons counter's movement points are reconstructed (R5).
//! let e = Event::MoveRefused {
//!     unit: "palatina".into(),
//!     reason: Refusal::TooFewMp { hex: "0608".parse().unwrap(), needed: umpire::games::furor::rules::HalfMp(10), left: umpire::games::furor::rules::HalfMp(8) },
//! };
//! assert_eq!(parts(&board, &Options::default(), &e), vec![Part::Movement("palatina".into())]);
//! ```
//!
//! [`Unit::reconstructed`]: crate::games::furor::board::Unit::reconstructed

use crate::games::furor::board::{Board, Unit, UnitId};
use crate::games::furor::events::{Counted, Drop, Event, Refusal};
use crate::games::furor::hex::Hex;
use crate::games::furor::options::Options;
use crate::games::furor::rules::reconstructed::CounterValue;
use crate::games::furor::rules::terrain::HexsideFeature;
use crate::games::furor::rules::HalfMp;
use std::collections::BTreeSet;

/// The first row of the combat table the text lost (R7).
pub const FIRST_LOST_ROW: u8 = 4;

/// The row a modified roll is read on: 1–6, rolls above 6 on row 6, or on
/// the optional "7+" row, given as 7 (§9.5, R7).
pub fn crt_row(options: &Options, roll: u8) -> u8 {
    if roll >= 7 && options.crt_row_7 {
        7
    } else {
        roll.clamp(1, 6)
    }
}

/// One reconstructed part a result rests on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// R7: the combat was read on this row (4–6, or 7 for the "7+" row).
    CrtRow(u8),
    /// R2, R3, R10: the counter's strength (its morale too, §2), on the
    /// side it showed.
    Strength(UnitId),
    /// R5: the counter's movement points decided how far it went.
    Movement(UnitId),
    /// R6: the missile unit's range decided whether it could fire.
    Range(UnitId),
    /// R8: the move paid +1 MP to cross a stream.
    StreamCost,
    /// R11: the map's edge (a unit forced off a reconstructed map).
    MapEdge,
}

/// The kinds of note a report lists, one each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Crt,
    Strength,
    Movement,
    Range,
    Stream,
    MapEdge,
}

impl Part {
    fn kind(&self) -> Kind {
        match self {
            Part::CrtRow(_) => Kind::Crt,
            Part::Strength(_) => Kind::Strength,
            Part::Movement(_) => Kind::Movement,
            Part::Range(_) => Kind::Range,
            Part::StreamCost => Kind::Stream,
            Part::MapEdge => Kind::MapEdge,
        }
    }
}

fn strength(board: &Board, c: &Counted) -> Option<Part> {
    let u = board.unit(&c.unit)?;
    let guessed = if c.reduced {
        u.reconstructed.has(CounterValue::Reduced)
    } else {
        u.reconstructed.has(CounterValue::Strength)
    };
    guessed.then(|| Part::Strength(c.unit.clone()))
}

fn has(board: &Board, id: &UnitId, v: CounterValue) -> bool {
    board.unit(id).is_some_and(|u| u.reconstructed.has(v))
}

fn movement(board: &Board, id: &UnitId) -> Option<Part> {
    has(board, id, CounterValue::Mp).then(|| Part::Movement(id.clone()))
}

/// Whether a move spent all the unit's movement points on more than one
/// hex: with fewer it would have been refused, so its reach rests on them
/// (a one-hex move is allowed whatever it costs, §7).
fn spent_all(u: &Unit, path: &[Hex], spent: HalfMp) -> bool {
    path.len() > 1 && spent >= HalfMp::whole(u.mp)
}

fn streams(board: &Board, from: Hex, path: &[Hex]) -> bool {
    std::iter::once(&from)
        .chain(path)
        .zip(path)
        .any(|(a, b)| board.map.crossing(*a, *b) == Some(HexsideFeature::Stream))
}

/// The reconstructed parts the result an event reports rests on, read
/// against the board the player-turn left (a counter's values never change
/// in play) and the game's options. Most events rest on none.
pub fn parts(board: &Board, options: &Options, e: &Event) -> Vec<Part> {
    let mut out = Vec::new();
    match e {
        Event::Combat {
            attackers,
            roll,
            counted,
            ..
        } => {
            if let Some(r) = roll.map(|r| crt_row(options, r)) {
                if r >= FIRST_LOST_ROW {
                    out.push(Part::CrtRow(r));
                }
            }
            out.extend(counted.iter().filter_map(|c| strength(board, c)));
            out.extend(
                attackers
                    .iter()
                    .filter(|s| s.fire && has(board, &s.unit, CounterValue::Range))
                    .map(|s| Part::Range(s.unit.clone())),
            );
        }
        Event::MoraleCheck { unit, reduced, .. } => {
            out.extend(strength(
                board,
                &Counted {
                    unit: unit.clone(),
                    reduced: *reduced,
                },
            ));
        }
        Event::FeignedFlight { counted, .. } => {
            out.extend(counted.iter().filter_map(|c| strength(board, c)));
        }
        Event::Moved {
            unit,
            from,
            path,
            spent,
            ..
        } => {
            if board.unit(unit).is_some_and(|u| spent_all(u, path, *spent)) {
                out.extend(movement(board, unit));
            }
            if streams(board, *from, path) {
                out.push(Part::StreamCost);
            }
        }
        Event::ImpetuousRush {
            unit, from, path, ..
        } => {
            out.extend(movement(board, unit));
            if streams(board, *from, path) {
                out.push(Part::StreamCost);
            }
        }
        Event::MoveRefused {
            unit,
            reason: Refusal::TooFewMp { .. },
        } => out.extend(movement(board, unit)),
        Event::AttackerDropped {
            unit,
            reason: Drop::OutOfRange { .. },
            ..
        } if has(board, unit, CounterValue::Range) => out.push(Part::Range(unit.clone())),
        Event::ForcedOffMap { .. } if map_is_reconstructed(board) => out.push(Part::MapEdge),
        _ => {}
    }
    out.sort();
    out.dedup();
    out
}

/// Whether the board is on a map the text lost and the umpire reconstructed.
pub fn map_is_reconstructed(board: &Board) -> bool {
    board.map.status == "reconstructed"
}

/// The notes of one report: each kind of part numbered when first met,
/// with the rows and counters met under it.
#[derive(Debug, Clone, Default)]
pub struct Notes {
    kinds: Vec<(Kind, BTreeSet<Part>)>,
}

impl Notes {
    /// Record a line's parts; the marks to put at its end (` [1][3]`), or
    /// nothing when it rests on none.
    pub fn mark(&mut self, parts: Vec<Part>) -> String {
        let mut numbers = BTreeSet::new();
        for p in parts {
            let k = p.kind();
            let i = match self.kinds.iter().position(|(kk, _)| *kk == k) {
                Some(i) => i,
                None => {
                    self.kinds.push((k, BTreeSet::new()));
                    self.kinds.len() - 1
                }
            };
            self.kinds[i].1.insert(p);
            numbers.insert(i + 1);
        }
        numbers.iter().map(|n| format!(" [{n}]")).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// One line a note, in the order of their numbers: what is
    /// reconstructed, which rows or counters, and the ruling (R1–R12 in
    /// the rulings).
    pub fn lines(&self, board: &Board) -> Vec<String> {
        let names = |parts: &BTreeSet<Part>| {
            let v: Vec<String> = parts
                .iter()
                .filter_map(|p| match p {
                    Part::Strength(u) | Part::Movement(u) | Part::Range(u) => {
                        Some(board.unit(u).map_or_else(|| u.0.clone(), Unit::label))
                    }
                    _ => None,
                })
                .collect();
            and_list(&v)
        };
        self.kinds
            .iter()
            .enumerate()
            .map(|(i, (k, parts))| {
                let n = i + 1;
                match k {
                    Kind::Crt => {
                        let rows: Vec<String> = parts
                            .iter()
                            .filter_map(|p| match p {
                                Part::CrtRow(7) => Some("7+".to_string()),
                                Part::CrtRow(r) => Some(r.to_string()),
                                _ => None,
                            })
                            .collect();
                        format!(
                            "[{n}] Read on combat-table {} {}: the book's table stops at die 3, and rows 4-6 are reconstructed (R7).",
                            if rows.len() == 1 { "row" } else { "rows" },
                            and_list(&rows)
                        )
                    }
                    Kind::Strength => format!(
                        "[{n}] Rests on reconstructed strengths (a unit's strength is its morale too) of {}: the text does not give them (R2, R3, R10).",
                        names(parts)
                    ),
                    Kind::Movement => format!(
                        "[{n}] Rests on the reconstructed movement points of {} (R5).",
                        names(parts)
                    ),
                    Kind::Range => format!(
                        "[{n}] Rests on the reconstructed ranges of {} (R6).",
                        names(parts)
                    ),
                    Kind::Stream => format!(
                        "[{n}] Paid the reconstructed +1 MP for crossing a stream (R8)."
                    ),
                    Kind::MapEdge => format!(
                        "[{n}] Forced off the edge of the reconstructed map: the real map's size is not known (R11)."
                    ),
                }
            })
            .collect()
    }
}

/// The line every report on a reconstructed map ends with.
pub fn map_note(board: &Board) -> Option<String> {
    let m = &board.map;
    let open = m.hexes.is_empty()
        && m.roads.is_empty()
        && m.road_hexes.is_empty()
        && m.hexsides.is_empty();
    map_is_reconstructed(board).then(|| {
        format!(
            "Every move and combat here is on a reconstructed map: the book's maps are lost, so {} and its size is a guess (R11, R12).",
            if open {
                "every hex is open ground"
            } else {
                "its terrain is a guess"
            }
        )
    })
}

fn and_list(v: &[String]) -> String {
    match v {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::furor::events::Share;
    use crate::games::furor::rules::crt::{Column, CombatResult};
    use crate::games::furor::scenario::shipped;

    fn soissons() -> Board {
        shipped("soissons")
            .unwrap()
            .start(&Options::default(), &Default::default(), &"franks".into())
            .unwrap()
    }

    fn combat(roll: u8, counted: Vec<Counted>, fire: bool) -> Event {
        Event::Combat {
            number: 1,
            index: 1,
            target: "legionaries-4".into(),
            attackers: vec![Share {
                unit: "archers".into(),
                strength: 1,
                fire,
                charge_bonus: false,
                commander: None,
            }],
            attack: 4,
            defence: 4,
            odds: Column::OneOne,
            shifts: 0,
            column: Column::OneOne,
            modifiers: Vec::new(),
            die: Some(roll.min(6)),
            roll: Some(roll),
            result: Some(CombatResult::AR),
            counted,
        }
    }

    fn counted(unit: &str, reduced: bool) -> Counted {
        Counted {
            unit: unit.into(),
            reduced,
        }
    }

    #[test]
    fn a_combat_rests_on_the_lost_rows_and_on_the_strengths_it_counts() {
        let b = soissons();
        let o = Options::default();
        // Rows 1-3 are the book's; 4-6 reconstructed; above 6 reads row 6.
        assert_eq!(parts(&b, &o, &combat(3, vec![], false)), vec![]);
        assert_eq!(
            parts(&b, &o, &combat(5, vec![], false)),
            vec![Part::CrtRow(5)]
        );
        assert_eq!(
            parts(&b, &o, &combat(8, vec![], false)),
            vec![Part::CrtRow(6)]
        );
        let row_7 = Options {
            crt_row_7: true,
            ..Options::default()
        };
        assert_eq!(
            parts(&b, &row_7, &combat(8, vec![], false)),
            vec![Part::CrtRow(7)]
        );
        // The Franks' strengths are stated, their reduced sides are not; the
        // Legionaries' strength is reconstructed (R2).
        let c = combat(
            2,
            vec![
                counted("salian-4a", false),
                counted("salian-4b", true),
                counted("legionaries-4", false),
            ],
            false,
        );
        assert_eq!(
            parts(&b, &o, &c),
            vec![
                Part::Strength("legionaries-4".into()),
                Part::Strength("salian-4b".into())
            ]
        );
        // A firer's range is reconstructed (R6).
        assert_eq!(
            parts(&b, &o, &combat(1, vec![], true)),
            vec![Part::Range("archers".into())]
        );
    }

    #[test]
    fn a_move_rests_on_its_allowance_only_when_it_used_it_all() {
        let b = soissons();
        let o = Options::default();
        let moved = |path: &[&str], spent: u16| Event::Moved {
            unit: "salian-4a".into(),
            from: "0806".parse().unwrap(),
            path: path.iter().map(|h| h.parse().unwrap()).collect(),
            spent: HalfMp(spent),
            charge: None,
        };
        assert_eq!(parts(&b, &o, &moved(&["0706", "0606"], 4)), vec![]);
        assert_eq!(
            parts(&b, &o, &moved(&["0706", "0606", "0506", "0406"], 8)),
            vec![Part::Movement("salian-4a".into())]
        );
        // One hex is always allowed (§7): it rests on nothing.
        assert_eq!(parts(&b, &o, &moved(&["0706"], 8)), vec![]);
    }

    #[test]
    fn notes_number_each_kind_once_and_name_every_counter_under_it() {
        let b = soissons();
        let mut n = Notes::default();
        assert_eq!(
            n.mark(vec![Part::CrtRow(5), Part::Strength("palatina".into())]),
            " [1] [2]"
        );
        assert_eq!(n.mark(vec![]), "");
        assert_eq!(
            n.mark(vec![
                Part::Strength("legionaries-4".into()),
                Part::CrtRow(4)
            ]),
            " [1] [2]"
        );
        let lines = n.lines(&b);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with("[1] Read on combat-table rows 4 and 5:"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("of Legionaries (legionaries-4) and Palatina (palatina)"),
            "{}",
            lines[1]
        );
        assert!(map_note(&b).is_some_and(|l| l.contains("every hex is open ground")));
    }
}
