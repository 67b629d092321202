//! The `[expect]` table of a hex case: each key checked against the board
//! and the events at `stop_after`.

use super::CaseError;
use crate::games::furor::board::{Board, Status, UnitId};
use crate::games::furor::events::Event;
use crate::games::furor::rules::crt::Column;
use crate::games::furor::sequence::Resolution;
use crate::games::furor::victory;
use std::collections::BTreeSet;

/// One expectation.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Expectation {
    Hex(UnitId, String),
    Steps(UnitId, i64),
    Status(UnitId, String),
    Side(UnitId, String),
    Charged(UnitId, bool),
    MpSpent(UnitId, f64),
    Combat(u32, CombatField, toml::Value),
    Lost(String, i64),
    Victory(String),
    Rejected(BTreeSet<String>),
    Skipped(BTreeSet<usize>),
    Dropped(BTreeSet<String>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CombatField {
    Odds,
    Column,
    Roll,
    Result,
    Attack,
    Defence,
}

fn ids(v: &toml::Value, board: &Board, key: &str) -> Result<BTreeSet<String>, CaseError> {
    let list = v
        .as_array()
        .ok_or_else(|| CaseError(format!("expect.{key} must list unit ids")))?;
    list.iter()
        .map(|x| match x.as_str() {
            Some(s) if board.unit(&s.into()).is_some() => Ok(s.to_string()),
            _ => Err(CaseError(format!(
                "expect.{key}: {x} is not a unit of the case"
            ))),
        })
        .collect()
}

pub(super) fn parse(
    table: &toml::Table,
    board: &Board,
    attacks: usize,
) -> Result<Vec<Expectation>, CaseError> {
    let mut out = Vec::new();
    for (k, v) in table {
        let bad = |what: &str| CaseError(format!("expect {k:?}: {what}"));
        let e = match k.as_str() {
            "victory" => Expectation::Victory(
                v.as_str()
                    .ok_or_else(|| bad("none, tie, major:SIDE or minor:SIDE"))?
                    .to_string(),
            ),
            "rejected" => Expectation::Rejected(ids(v, board, k)?),
            "dropped" => Expectation::Dropped(ids(v, board, k)?),
            "skipped" => {
                let list = v
                    .as_array()
                    .ok_or_else(|| bad("a list of [[attack]] numbers"))?;
                let n: Option<BTreeSet<usize>> = list
                    .iter()
                    .map(|x| {
                        x.as_integer()
                            .and_then(|n| usize::try_from(n).ok())
                            .filter(|n| (1..=attacks).contains(n))
                    })
                    .collect();
                Expectation::Skipped(n.ok_or_else(|| bad("[[attack]] numbers, 1-based"))?)
            }
            _ => {
                let (head, field) = k
                    .split_once('.')
                    .ok_or_else(|| bad("not a key of the format"))?;
                if head == "combat" {
                    let (n, f) = field.split_once('.').ok_or_else(|| bad("combat.N.FIELD"))?;
                    let n: u32 = n
                        .parse()
                        .map_err(|_| bad("combat.N.FIELD with N a number"))?;
                    let f = match f {
                        "odds" => CombatField::Odds,
                        "column" => CombatField::Column,
                        "roll" => CombatField::Roll,
                        "result" => CombatField::Result,
                        "attack" => CombatField::Attack,
                        "defence" => CombatField::Defence,
                        _ => return Err(bad("combat.N.odds|column|roll|result|attack|defence")),
                    };
                    Expectation::Combat(n, f, v.clone())
                } else if field == "lost" && board.sides.contains_key(&head.into()) {
                    Expectation::Lost(
                        head.to_string(),
                        v.as_integer().ok_or_else(|| bad("a number"))?,
                    )
                } else {
                    let id = UnitId::from(head);
                    if board.unit(&id).is_none() {
                        return Err(bad(&format!("no unit or side '{head}'")));
                    }
                    let s = || {
                        v.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| bad("a string"))
                    };
                    match field {
                        "hex" => Expectation::Hex(id, s()?),
                        "steps" => {
                            Expectation::Steps(id, v.as_integer().ok_or_else(|| bad("a number"))?)
                        }
                        "status" => Expectation::Status(id, s()?),
                        "side" => Expectation::Side(id, s()?),
                        "charged" => Expectation::Charged(
                            id,
                            v.as_bool().ok_or_else(|| bad("true or false"))?,
                        ),
                        "mp_spent" => Expectation::MpSpent(
                            id,
                            v.as_float()
                                .or_else(|| v.as_integer().map(|i| i as f64))
                                .ok_or_else(|| bad("a number"))?,
                        ),
                        _ => {
                            return Err(bad(
                                "field is not hex, steps, status, side, charged or mp_spent",
                            ))
                        }
                    }
                }
            }
        };
        out.push(e);
    }
    Ok(out)
}

fn compare<T: PartialEq + std::fmt::Debug>(what: String, want: T, got: T) -> Result<(), String> {
    if want == got {
        Ok(())
    } else {
        Err(format!("{what} expected {want:?}, got {got:?}"))
    }
}

/// Whether the unit earned the charge bonus: it charged, and no combat it
/// fought in denied the bonus.
fn charged(r: &Resolution, id: &UnitId) -> bool {
    let moved = r
        .events
        .iter()
        .any(|e| matches!(e, Event::Moved { unit, charge: Some(_), .. } if unit == id));
    let denied = r.events.iter().any(|e| match e {
        Event::Combat { attackers, .. } => attackers
            .iter()
            .any(|s| &s.unit == id && !s.fire && !s.charge_bonus),
        _ => false,
    });
    moved && !denied
}

impl Expectation {
    pub(super) fn check(&self, r: &Resolution) -> Result<(), String> {
        let b = &r.board;
        match self {
            Expectation::Hex(id, want) => {
                let u = b.get(id);
                let got = match (u.hex, u.status) {
                    (Some(h), Status::OnMap | Status::Pillaged) => h.to_string(),
                    _ => u.status.name().to_string(),
                };
                compare(format!("{id}.hex"), want.clone(), got)
            }
            Expectation::Steps(id, want) => {
                compare(format!("{id}.steps"), *want, i64::from(b.get(id).steps))
            }
            Expectation::Status(id, want) => {
                let got = b.get(id).status;
                let ok = want == got.name() || (want == "eliminated" && got == Status::OffMap);
                if ok {
                    Ok(())
                } else {
                    Err(format!(
                        "{id}.status expected {want:?}, got {:?}",
                        got.name()
                    ))
                }
            }
            Expectation::Side(id, want) => {
                compare(format!("{id}.side"), want.clone(), b.get(id).side.0.clone())
            }
            Expectation::Charged(id, want) => {
                compare(format!("{id}.charged"), *want, charged(r, id))
            }
            Expectation::MpSpent(id, want) => {
                let spent: u16 = r
                    .events
                    .iter()
                    .map(|e| match e {
                        Event::Moved { unit, spent, .. }
                        | Event::ImpetuousRush { unit, spent, .. }
                            if unit == id =>
                        {
                            spent.0
                        }
                        _ => 0,
                    })
                    .sum();
                let got = f64::from(spent) / 2.0;
                if (got - want).abs() < 1e-9 {
                    Ok(())
                } else {
                    Err(format!("{id}.mp_spent expected {want}, got {got}"))
                }
            }
            Expectation::Combat(n, field, want) => {
                let Some(Event::Combat {
                    odds,
                    column,
                    roll,
                    result,
                    attack,
                    defence,
                    ..
                }) = r
                    .events
                    .iter()
                    .find(|e| matches!(e, Event::Combat { number, .. } if number == n))
                else {
                    return Err(format!(
                        "combat.{n} expected, but only {} combats were resolved",
                        combats(r)
                    ));
                };
                let what = format!("combat.{n}.{}", format!("{field:?}").to_lowercase());
                let col = |c: &Column| match want.as_str().and_then(Column::parse) {
                    Some(w) => compare(what.clone(), w.label(), c.label()),
                    None => Err(format!("{what}: {want} is not a column")),
                };
                let int = |got: Option<i64>| compare(what.clone(), want.as_integer(), got);
                match field {
                    CombatField::Odds => col(odds),
                    CombatField::Column => col(column),
                    CombatField::Roll => int(roll.map(i64::from)),
                    CombatField::Attack => int(Some(i64::from(*attack))),
                    CombatField::Defence => int(Some(i64::from(*defence))),
                    CombatField::Result => {
                        let got = result.map_or("-".to_string(), |x| x.label().to_string());
                        compare(what, want.as_str().unwrap_or_default().to_string(), got)
                    }
                }
            }
            Expectation::Lost(side, want) => compare(
                format!("{side}.lost"),
                *want,
                i64::from(b.lost(&side.as_str().into())),
            ),
            Expectation::Victory(want) => {
                let got = b
                    .outcome
                    .clone()
                    .or_else(|| victory::threshold_test(b))
                    .map_or("none".to_string(), |o| o.to_string());
                compare("victory".into(), want.clone(), got)
            }
            Expectation::Rejected(want) => {
                let got: BTreeSet<String> = r
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        Event::MoveRefused { unit, .. } => Some(unit.0.clone()),
                        _ => None,
                    })
                    .collect();
                compare("rejected".into(), want.clone(), got)
            }
            Expectation::Skipped(want) => {
                let resolved: BTreeSet<usize> = r
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        Event::Combat { index, .. } => Some(*index),
                        _ => None,
                    })
                    .collect();
                let got: BTreeSet<usize> = r
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        Event::AttackSkipped { index, .. } if !resolved.contains(index) => {
                            Some(*index)
                        }
                        _ => None,
                    })
                    .collect();
                compare("skipped".into(), want.clone(), got)
            }
            Expectation::Dropped(want) => {
                let got: BTreeSet<String> = r
                    .events
                    .iter()
                    .filter_map(|e| match e {
                        Event::AttackerDropped { unit, .. } => Some(unit.0.clone()),
                        _ => None,
                    })
                    .collect();
                compare("dropped".into(), want.clone(), got)
            }
        }
    }
}

fn combats(r: &Resolution) -> usize {
    r.events
        .iter()
        .filter(|e| matches!(e, Event::Combat { .. }))
        .count()
}
