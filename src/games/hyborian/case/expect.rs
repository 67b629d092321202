//! `[expect]` and `[tolerance]`: what a case says must hold after the
//! stop, and how closely positions and facings must match.

use crate::games::hyborian::adjudicate::TurnResult;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::Formation;
use crate::games::hyborian::table::UnitId;
use crate::geometry::{turn_between, Face};
use glam::DVec2;
use serde::Deserialize;
use std::collections::BTreeSet;

/// How far positions (inches) and facings (degrees) may be off.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tolerance {
    pub front: f64,
    pub facing: f64,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            front: 0.1,
            facing: 1.0,
        }
    }
}

/// One expectation about one unit.
#[derive(Debug, Clone, PartialEq)]
pub enum Expectation {
    Figures {
        unit: UnitId,
        value: u32,
    },
    Front {
        unit: UnitId,
        value: DVec2,
    },
    Facing {
        unit: UnitId,
        value: f64,
    },
    Formation {
        unit: UnitId,
        value: Formation,
    },
    /// ready fall-back rout eliminated surrendered off-table captured
    Status {
        unit: UnitId,
        value: String,
    },
    InMeleeWith {
        unit: UnitId,
        value: BTreeSet<UnitId>,
    },
    /// The unit touched `other` on this face.
    Contact {
        unit: UnitId,
        other: UnitId,
        face: Face,
    },
    /// `charged`: earned a charge bonus this turn (the format's meaning;
    /// at a stop before the melee step, would earn it in the coming round).
    Charged {
        unit: UnitId,
        value: bool,
    },
    /// `charge_contact`: made contact while charging this turn, bonus or not.
    ChargeContact {
        unit: UnitId,
        value: bool,
    },
    Side {
        unit: UnitId,
        value: String,
    },
}

const STATUSES: [&str; 7] = [
    "ready",
    "fall-back",
    "rout",
    "eliminated",
    "surrendered",
    "off-table",
    "captured",
];

/// Sorted ids as the case format writes them: `["a", "b"]`.
pub fn list(ids: &BTreeSet<UnitId>) -> String {
    format!(
        "[{}]",
        ids.iter()
            .map(|i| format!("{i:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn number(v: &toml::Value) -> Option<f64> {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
}

fn ids(v: &toml::Value) -> Option<BTreeSet<UnitId>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_str().map(str::to_string))
        .collect()
}

/// Read `[expect]`; returns the expectations and the `rejected` list if given.
pub fn parse(
    table: &toml::Table,
    known: &BTreeSet<&str>,
) -> Result<(Vec<Expectation>, Option<BTreeSet<UnitId>>), String> {
    let mut out = Vec::new();
    let mut rejected = None;
    for (key, v) in table {
        let bad = |want: &str| format!("expect {key:?}: {want}");
        if key == "rejected" {
            let set = ids(v).ok_or_else(|| bad("a list of unit ids"))?;
            if let Some(u) = set.iter().find(|u| !known.contains(u.as_str())) {
                return Err(bad(&format!("no unit {u:?}")));
            }
            rejected = Some(set);
            continue;
        }
        let (unit, field) = key
            .split_once('.')
            .ok_or_else(|| bad("keys are UNIT.FIELD or rejected"))?;
        if !known.contains(unit) {
            return Err(bad(&format!("no unit {unit:?}")));
        }
        let unit = unit.to_string();
        out.push(match field {
            "figures" => Expectation::Figures { unit, value: v.as_integer().and_then(|i| u32::try_from(i).ok()).ok_or_else(|| bad("a whole number of figures"))? },
            "front" => {
                let xy: Option<Vec<f64>> = v.as_array().map(|a| a.iter().filter_map(number).collect());
                match xy.as_deref() {
                    Some([x, y]) => Expectation::Front { unit, value: DVec2::new(*x, *y) },
                    _ => return Err(bad("front must be [x, y]")),
                }
            }
            "facing" => Expectation::Facing { unit, value: number(v).ok_or_else(|| bad("a bearing in degrees"))? },
            "formation" => {
                let f = v.as_str().ok_or_else(|| bad("a formation name"))?;
                Expectation::Formation { unit, value: f.parse().map_err(|e: crate::games::hyborian::rules::UnknownName| bad(&e.to_string()))? }
            }
            "status" => {
                let s = v.as_str().filter(|s| STATUSES.contains(s)).ok_or_else(|| bad(&format!("status must be one of {}", STATUSES.join(" "))))?;
                Expectation::Status { unit, value: s.to_string() }
            }
            "in_melee_with" => Expectation::InMeleeWith { unit, value: ids(v).ok_or_else(|| bad("a list of unit ids"))? },
            "contact" => {
                let s = v.as_str().unwrap_or_default();
                let (other, face) = s.split_once(':').ok_or_else(|| bad("contact must be 'ID:front|flank|rear'"))?;
                let face = match face {
                    "front" => Face::Front,
                    "flank" => Face::Flank,
                    "rear" => Face::Rear,
                    _ => return Err(bad("contact must be 'ID:front|flank|rear'")),
                };
                if !known.contains(other) {
                    return Err(bad(&format!("no unit {other:?}")));
                }
                Expectation::Contact { unit, other: other.to_string(), face }
            }
            "charged" => Expectation::Charged { unit, value: v.as_bool().ok_or_else(|| bad("true or false"))? },
            "charge_contact" => Expectation::ChargeContact { unit, value: v.as_bool().ok_or_else(|| bad("true or false"))? },
            "side" => Expectation::Side { unit, value: v.as_str().ok_or_else(|| bad("a side id"))?.to_string() },
            _ => return Err(bad("field must be one of figures front facing formation status in_melee_with contact charged charge_contact side")),
        });
    }
    Ok((out, rejected))
}

impl Expectation {
    /// Check against the state at the stop; the error is the FAIL reason.
    pub fn check(
        &self,
        r: &TurnResult,
        tol: &Tolerance,
        options: &GameOptions,
    ) -> Result<(), String> {
        let unit_id = match self {
            Expectation::Figures { unit, .. }
            | Expectation::Front { unit, .. }
            | Expectation::Facing { unit, .. }
            | Expectation::Formation { unit, .. }
            | Expectation::Status { unit, .. }
            | Expectation::InMeleeWith { unit, .. }
            | Expectation::Contact { unit, .. }
            | Expectation::Charged { unit, .. }
            | Expectation::ChargeContact { unit, .. }
            | Expectation::Side { unit, .. } => unit,
        };
        let u = r
            .table
            .units
            .get(unit_id)
            .ok_or_else(|| format!("{unit_id} is not on the table"))?;
        let fail = |field: &str, want: String, got: String| {
            Err(format!("{unit_id}.{field} expected {want}, got {got}"))
        };
        let xy = |p: DVec2| format!("[{:.2}, {:.2}]", p.x, p.y);
        match self {
            Expectation::Figures { value, .. } if u.figures != *value => {
                fail("figures", value.to_string(), u.figures.to_string())
            }
            Expectation::Front { value, .. }
                if (u.front.x - value.x).abs() > tol.front
                    || (u.front.y - value.y).abs() > tol.front =>
            {
                fail("front", xy(*value), xy(u.front))
            }
            Expectation::Facing { value, .. }
                if turn_between(u.facing, *value).abs() > tol.facing =>
            {
                fail("facing", format!("{value}"), format!("{:.1}", u.facing))
            }
            Expectation::Formation { value, .. } if u.formation != *value => {
                fail("formation", value.to_string(), u.formation.to_string())
            }
            Expectation::Status { value, .. } if u.status.code() != value => {
                fail("status", value.clone(), u.status.code().to_string())
            }
            Expectation::InMeleeWith { value, .. } if &u.in_melee_with != value => {
                fail("in_melee_with", list(value), list(&u.in_melee_with))
            }
            Expectation::Contact { other, face, .. } => {
                let contacts = r
                    .record
                    .unit(unit_id)
                    .map(|rec| rec.contacts.as_slice())
                    .unwrap_or_default();
                if contacts
                    .iter()
                    .any(|c| &c.other == other && c.face == *face)
                {
                    Ok(())
                } else {
                    let got: Vec<String> = contacts
                        .iter()
                        .map(|c| format!("{}:{}", c.other, c.face))
                        .collect();
                    fail(
                        "contact",
                        format!("{other}:{face}"),
                        if got.is_empty() {
                            "no contact".into()
                        } else {
                            got.join(", ")
                        },
                    )
                }
            }
            Expectation::Charged { value, .. } => {
                // Fought its round: what it earned; not yet: what the melee
                // rules would give it as the table stands.
                let rec = r.record.unit(unit_id);
                let got = match rec {
                    Some(rec) if rec.melee.is_some() => rec.charge_bonus,
                    _ => crate::games::hyborian::adjudicate::melee::charge_bonus_due(
                        &r.table, &r.record, options, unit_id,
                    ),
                };
                if got == *value {
                    Ok(())
                } else {
                    fail("charged", value.to_string(), got.to_string())
                }
            }
            Expectation::ChargeContact { value, .. } => {
                let got = r.record.unit(unit_id).is_some_and(|rec| rec.charge_contact);
                if got == *value {
                    Ok(())
                } else {
                    fail("charge_contact", value.to_string(), got.to_string())
                }
            }
            Expectation::Side { value, .. } if &u.side != value => {
                fail("side", value.clone(), u.side.clone())
            }
            _ => Ok(()),
        }
    }
}
