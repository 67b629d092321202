//! The deployment round's orders (ruling FA-61): each side places its units
//! in its zone, sealed until both are in. A line is
//! `Roman Hastati 1: deploy at 30, 12 facing 0`; a unit not named keeps its
//! place in the scenario's layout. Each place is checked at once: on the
//! table, inside the side's zone, overlapping none of the side's units
//! (those placed and those left where the layout put them).

use super::parse::{read, Written, WrittenOrder};
use super::OrderKind;
use crate::diagnostic::{Diagnostic, Span};
use crate::games::fr_ancients::table::{Battle, Place, Unit, UnitId, CONTACT};
use crate::geometry::Footprint;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A side's deployment zone: the rectangle from `min` to `max` (x, y in
/// the table's units) its units must stand inside.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Zone {
    pub min: [f64; 2],
    pub max: [f64; 2],
}

impl Zone {
    /// Whether the whole rectangle stands inside the zone.
    pub fn holds(&self, f: &Footprint) -> bool {
        f.corners().iter().all(|c| {
            c.x >= self.min[0] - CONTACT
                && c.y >= self.min[1] - CONTACT
                && c.x <= self.max[0] + CONTACT
                && c.y <= self.max[1] + CONTACT
        })
    }

    /// Whether two zones share any ground.
    pub fn meets(&self, other: &Zone) -> bool {
        self.min[0] < other.max[0]
            && other.min[0] < self.max[0]
            && self.min[1] < other.max[1]
            && other.min[1] < self.max[1]
    }

    /// "x 0 to 72, y 0 to 16".
    pub fn show(&self) -> String {
        format!(
            "x {} to {}, y {} to {}",
            self.min[0], self.max[0], self.min[1], self.max[1]
        )
    }
}

/// A side's checked deployment.
#[derive(Debug, Clone)]
pub struct Deployed {
    /// The places taken, by unit.
    pub places: BTreeMap<UnitId, Place>,
    pub diagnostics: Vec<Diagnostic<OrderKind>>,
    pub source: String,
    /// The places in the order written, for the confirmation.
    order: Vec<UnitId>,
    /// The side's units not placed: they keep the layout's place.
    kept: Vec<UnitId>,
}

impl Deployed {
    /// Every diagnostic rendered rustc-style, in order.
    pub fn render(&self) -> String {
        crate::games::fr_ancients::render_all(&self.diagnostics, &self.source)
    }

    /// What each line of [`Deployed::confirmation`] is about, for the
    /// changes a resent mail makes: the unit placed, or the units kept.
    pub fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .order
            .iter()
            .filter(|id| self.places.contains_key(*id))
            .cloned()
            .collect();
        if !self.kept.is_empty() {
            keys.push("not named".into());
        }
        keys
    }

    /// The placings as understood, one line each, and a last line naming
    /// the units that keep the scenario's layout.
    pub fn confirmation(&self, battle: &Battle) -> Vec<String> {
        let mut out: Vec<String> = self
            .order
            .iter()
            .filter_map(|id| {
                self.places.get(id).map(|p| {
                    format!(
                        "{}: deploys at {:.1}, {:.1} facing {:.0}",
                        battle.name(id),
                        p.front.x,
                        p.front.y,
                        p.facing
                    )
                })
            })
            .collect();
        if !self.kept.is_empty() {
            let names: Vec<String> = self.kept.iter().map(|id| battle.name(id)).collect();
            out.push(format!(
                "Not named, so where the scenario's layout puts them: {}",
                names.join(", ")
            ));
        }
        out
    }
}

/// Check a side's deployment text against its zone.
pub fn check_deployment(battle: &Battle, side: &str, text: &str, zone: &Zone) -> Deployed {
    let reading = read(text);
    let mut diagnostics = reading.diagnostics;
    let mut placed: Vec<(Unit, Place, Span)> = Vec::new();
    for w in reading.orders {
        match one(battle, side, zone, &w, &placed)
            .and_then(|(u, p)| with_riders(battle, zone, &w, u, p))
        {
            Ok(places) => placed.extend(places.into_iter().map(|(u, p)| (u, p, w.span))),
            Err(d) => diagnostics.push(d),
        }
    }
    overlaps(battle, side, &mut placed, &mut diagnostics);
    diagnostics.sort_by_key(|d| d.span.start);
    let order: Vec<UnitId> = placed.iter().map(|(u, _, _)| u.id.clone()).collect();
    let named: BTreeSet<&UnitId> = order.iter().collect();
    let kept = battle
        .units
        .values()
        .filter(|u| u.side == side && !named.contains(&u.id))
        .map(|u| u.id.clone())
        .collect();
    Deployed {
        places: placed.into_iter().map(|(u, p, _)| (u.id, p)).collect(),
        diagnostics,
        source: text.to_string(),
        order,
        kept,
    }
}

fn illegal(
    span: Span,
    message: impl Into<String>,
    note: impl Into<String>,
) -> Diagnostic<OrderKind> {
    Diagnostic::new(OrderKind::Illegal, span, message).with_note(note)
}

/// One line: the unit it names and the place it takes, or why not.
fn one(
    battle: &Battle,
    side: &str,
    zone: &Zone,
    w: &Written,
    placed: &[(Unit, Place, Span)],
) -> Result<(Unit, Place), Diagnostic<OrderKind>> {
    let WrittenOrder::Deploy { x, y, facing } = w.order else {
        return Err(illegal(
            w.span,
            "the battle has not started: only `deploy at X, Y [facing B]` is taken now",
            "before turn 1 each side places its units in its zone (the deployment round); moves, charges and the rest are for your phases",
        )
        .with_help("write `UNIT: deploy at X, Y facing B`, the centre of the unit's front edge"));
    };
    if !w.group.is_empty() {
        return Err(illegal(
            w.span,
            "a group is not deployed as one",
            "place each unit on its own line",
        ));
    }
    let (name, span) = &w.who;
    let Some(u) = battle.unit_named(name, side, true) else {
        let own = battle
            .units
            .values()
            .filter(|u| u.side == side)
            .map(|u| (u.name.as_str(), u.name.clone()));
        let mut d = Diagnostic::new(
            OrderKind::Invalid,
            *span,
            format!("there is no unit called '{name}'"),
        );
        if let Some(s) = crate::names::closest(name, own) {
            d = d.with_help(format!("did you mean '{s}'?"));
        }
        return Err(d);
    };
    if u.side != side {
        return Err(illegal(
            *span,
            format!("{} is not one of your units", u.name),
            "a player deploys only his own side's units",
        ));
    }
    if let Some(host) = &u.attached_to {
        return Err(illegal(
            *span,
            format!(
                "{} is attached to {} and deploys with it",
                u.name,
                battle.name(host)
            ),
            "attached Skirmishers keep their place beside their host (rule 13)",
        )
        .with_help(format!("deploy {}", battle.name(host))));
    }
    if placed.iter().any(|(p, _, _)| p.id == u.id) {
        return Err(illegal(
            w.span,
            format!("{} is placed already", u.name),
            "a unit is placed once; the first place written stands",
        ));
    }
    let at = Place::new(x, y, facing.unwrap_or(u.facing));
    let f = u.footprint_at(at);
    if !battle.on_table(&f) {
        return Err(illegal(
            w.span,
            format!("{} would stand off the table", u.name),
            format!("the table is {} x {}", battle.width, battle.depth),
        ));
    }
    if !zone.holds(&f) {
        return Err(illegal(
            w.span,
            format!("{} would stand outside your deployment zone", u.name),
            format!(
                "your zone is {}; the whole unit ({} wide, {} deep) must stand inside it",
                zone.show(),
                battle.scale.show(u.width()),
                battle.scale.show(u.depth())
            ),
        ));
    }
    Ok((u.clone(), at))
}

/// A host's place and, beside it, the places of the Skirmishers attached
/// to it (rule 13), each of which must be on the table and in the zone.
fn with_riders(
    battle: &Battle,
    zone: &Zone,
    w: &Written,
    host: Unit,
    at: Place,
) -> Result<Vec<(Unit, Place)>, Diagnostic<OrderKind>> {
    let mut out = Vec::new();
    for r in battle
        .units
        .values()
        .filter(|r| r.attached_to.as_ref() == Some(&host.id))
    {
        let p = r.carried(host.place(), at);
        let f = r.footprint_at(p);
        if !battle.on_table(&f) || !zone.holds(&f) {
            return Err(illegal(
                w.span,
                format!(
                    "{}, attached to {}, would stand outside your deployment zone",
                    r.name, host.name
                ),
                format!(
                    "attached Skirmishers keep their place beside their host (rule 13); your zone is {}",
                    zone.show()
                ),
            ));
        }
        out.push((r.clone(), p));
    }
    out.insert(0, (host, at));
    Ok(out)
}

/// Refuse, the last written first, each place that overlaps another of the
/// side's units where it will stand; a refused unit keeps its layout
/// place, so the check runs again until nothing changes.
fn overlaps(
    battle: &Battle,
    side: &str,
    placed: &mut Vec<(Unit, Place, Span)>,
    diagnostics: &mut Vec<Diagnostic<OrderKind>>,
) {
    loop {
        let at = |id: &str| {
            placed
                .iter()
                .find(|(u, _, _)| u.id == id)
                .map(|(_, p, _)| *p)
        };
        let clash = placed
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, (u, p, span))| {
                let f = u.footprint_at(*p);
                battle
                    .units
                    .values()
                    .filter(|o| o.side == side && o.id != u.id)
                    .find(|o| o.footprint_at(at(&o.id).unwrap_or(o.place())).overlaps(&f))
                    .map(|o| (i, o.clone(), at(&o.id).is_none(), *span))
            });
        let Some((i, other, kept, span)) = clash else {
            return;
        };
        let u = &placed[i].0;
        let d = if kept {
            illegal(
                span,
                format!(
                    "{} would overlap {}, which keeps its place in the scenario's layout ({})",
                    u.name,
                    other.name,
                    other.place().show()
                ),
                "units may touch but never overlap (step 4)",
            )
            .with_help(format!("place {} too, or choose another place", other.name))
        } else {
            illegal(
                span,
                format!("{} would overlap {}", u.name, other.name),
                "units may touch but never overlap (step 4)",
            )
        };
        diagnostics.push(d);
        // A host and its attached Skirmishers stand or fall together.
        let host = u.attached_to.clone().unwrap_or_else(|| u.id.clone());
        placed.retain(|(p, _, _)| p.id != host && p.attached_to.as_ref() != Some(&host));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fr_ancients::setup::test_battle;

    fn battle() -> Battle {
        test_battle(
            48.0,
            48.0,
            r#"
[[unit]]
id = "h1"
side = "rome"
name = "Roman Hastati 1"
type = "Hand Weapons"
files = 4
ranks = 1
front = [10.0, 10.0]
facing = 0
[[unit]]
id = "h2"
side = "rome"
name = "Roman Hastati 2"
type = "Hand Weapons"
files = 4
ranks = 1
front = [20.0, 10.0]
facing = 0
[[unit]]
id = "c"
side = "carthage"
name = "Celtic Infantry 1"
type = "Warband"
files = 4
ranks = 1
front = [20.0, 40.0]
facing = 180
"#,
        )
    }

    const ZONE: Zone = Zone {
        min: [0.0, 0.0],
        max: [48.0, 12.0],
    };

    fn errors(d: &Deployed) -> Vec<String> {
        d.diagnostics.iter().map(|d| d.message.clone()).collect()
    }

    #[test]
    fn a_place_in_the_zone_is_taken_and_the_rest_keep_the_layout() {
        let b = battle();
        let d = check_deployment(
            &b,
            "rome",
            "Roman Hastati 1: deploy at 30, 8 facing 0\n",
            &ZONE,
        );
        assert!(d.diagnostics.is_empty(), "{}", d.render());
        assert_eq!(d.places["h1"], Place::new(30.0, 8.0, 0.0));
        assert_eq!(
            d.confirmation(&b),
            [
                "Roman Hastati 1: deploys at 30.0, 8.0 facing 0",
                "Not named, so where the scenario's layout puts them: Roman Hastati 2"
            ]
        );
    }

    #[test]
    fn attached_skirmishers_deploy_with_their_host() {
        let b = test_battle(
            48.0,
            48.0,
            r#"
[[unit]]
id = "eq"
side = "rome"
name = "Roman Cavalry"
type = "Heavy Cavalry"
files = 4
ranks = 1
front = [10.0, 10.0]
facing = 0
[[unit]]
id = "v"
side = "rome"
name = "Velites"
type = "Skirmishers"
files = 4
ranks = 1
front = [20.0, 10.0]
facing = 0
attached_to = "eq"
[[unit]]
id = "h"
side = "rome"
name = "Roman Hastati"
type = "Hand Weapons"
files = 4
ranks = 1
front = [40.0, 4.0]
facing = 0
"#,
        );
        let d = check_deployment(&b, "rome", "Roman Cavalry: deploy at 24, 8\n", &ZONE);
        assert!(d.diagnostics.is_empty(), "{}", d.render());
        assert_eq!(
            d.places["v"],
            Place::new(34.0, 8.0, 0.0),
            "still 10 to its right"
        );
        let d = check_deployment(&b, "rome", "Velites: deploy at 30, 8\n", &ZONE);
        assert_eq!(
            errors(&d),
            ["Velites is attached to Roman Cavalry and deploys with it"]
        );
        let d = check_deployment(&b, "rome", "Roman Cavalry: deploy at 38, 8\n", &ZONE);
        assert_eq!(
            errors(&d),
            ["Velites, attached to Roman Cavalry, would stand outside your deployment zone"]
        );
        let d = check_deployment(&b, "rome", "Roman Cavalry: deploy at 30, 4\n", &ZONE);
        assert_eq!(
            errors(&d),
            ["Velites would overlap Roman Hastati, which keeps its place in the scenario's layout ((40.0, 4.0) facing 0)"]
        );
        assert!(d.places.is_empty(), "the host falls with its Skirmishers");
    }

    #[test]
    fn each_refusal_says_why() {
        let b = battle();
        let text = "Roman Hastati 1: deploy at 30, 20\n\
                    Roman Hastati 1: deploy at 47, 8\n\
                    Celtic Infantry 1: deploy at 30, 8\n\
                    Roman Hastati 1: advance 6\n\
                    Roman Hastati 1: deploy at 21, 10\n";
        let d = check_deployment(&b, "rome", text, &ZONE);
        assert_eq!(
            errors(&d),
            [
                "Roman Hastati 1 would stand outside your deployment zone",
                "Roman Hastati 1 would stand off the table",
                "Celtic Infantry 1 is not one of your units",
                "the battle has not started: only `deploy at X, Y [facing B]` is taken now",
                "Roman Hastati 1 would overlap Roman Hastati 2, which keeps its place in the scenario's layout ((20.0, 10.0) facing 0)",
            ]
        );
        assert!(d.places.is_empty());
        assert!(d.render().contains("your zone is x 0 to 48, y 0 to 12"));
    }

    #[test]
    fn units_may_swap_places() {
        let b = battle();
        let text = "Roman Hastati 1: deploy at 20, 10\nRoman Hastati 2: deploy at 10, 10\n";
        let d = check_deployment(&b, "rome", text, &ZONE);
        assert!(d.diagnostics.is_empty(), "{}", d.render());
        assert_eq!(d.places.len(), 2);
        let clash = check_deployment(
            &b,
            "rome",
            "Roman Hastati 1: deploy at 12, 10\nRoman Hastati 2: deploy at 14, 10\n",
            &ZONE,
        );
        assert_eq!(
            errors(&clash),
            ["Roman Hastati 2 would overlap Roman Hastati 1"]
        );
        assert_eq!(clash.places.len(), 1, "the first place written stands");
    }
}
