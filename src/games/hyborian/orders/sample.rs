//! A small battlefield with every kind of unit, for examples, the guide's
//! tests and the benchmark: Aquilonia (south, facing north) against
//! Nemedia (north, facing south) on a 72 × 48 inch table.
//!
//! ```
//! let table = umpire::games::hyborian::orders::sample::table();
//! assert_eq!(table.units_of("aquilonia").count(), 8);
//! ```

use crate::games::hyborian::rules::{Class, Formation, Trait, UnitType, Weapon};
use crate::games::hyborian::table::{Status, Table, Unit};
use glam::DVec2;
use std::collections::{BTreeMap, BTreeSet};

/// Everything about a unit that differs between the sample units.
struct Spec {
    id: &'static str,
    side: &'static str,
    name: &'static str,
    number: u32,
    kind: UnitType,
    class: Class,
    figures: u32,
    weapons: &'static [Weapon],
    traits: &'static [Trait],
    formation: Formation,
    files: u32,
    front: (f64, f64),
    facing: f64,
}

fn unit(s: Spec) -> Unit {
    Unit {
        id: s.id.into(),
        side: s.side.into(),
        name: s.name.into(),
        number: s.number,
        kind: s.kind,
        class: s.class,
        figures: s.figures,
        original: s.figures,
        weapons: s.weapons.to_vec(),
        traits: s.traits.to_vec(),
        formation: s.formation,
        files: s.files,
        ranks: s.figures.div_ceil(s.files.max(1)),
        front: DVec2::new(s.front.0, s.front.1),
        facing: s.facing,
        status: Status::Ready,
        in_melee_with: BTreeSet::new(),
        attached_to: None,
        spell_points: None,
        mounted: false,
    }
}

/// The sample table (turn 1).
pub fn table() -> Table {
    use Formation::Line;
    use UnitType::*;
    let a = "aquilonia";
    let n = "nemedia";
    let specs = [
        Spec {
            id: "dragons",
            side: a,
            name: "Black Dragons",
            number: 1,
            kind: HeavyCavalry,
            class: Class::A,
            figures: 12,
            weapons: &[],
            traits: &[Trait::Guard],
            formation: Line,
            files: 6,
            front: (20.0, 10.0),
            facing: 0.0,
        },
        Spec {
            id: "boss",
            side: a,
            name: "Bossonian Archers",
            number: 2,
            kind: MediumInfantry,
            class: Class::A,
            figures: 24,
            weapons: &[Weapon::Bow],
            traits: &[Trait::Bossonian],
            formation: Line,
            files: 12,
            front: (36.0, 10.0),
            facing: 0.0,
        },
        Spec {
            id: "horse",
            side: a,
            name: "Border Horse",
            number: 3,
            kind: MediumCavalry,
            class: Class::B,
            figures: 12,
            weapons: &[Weapon::Bow],
            traits: &[Trait::HorseArcher],
            formation: Line,
            files: 6,
            front: (60.0, 10.0),
            facing: 0.0,
        },
        Spec {
            id: "pikes",
            side: a,
            name: "Gunderman Pikes",
            number: 4,
            kind: HeavyPike,
            class: Class::B,
            figures: 24,
            weapons: &[Weapon::Pike],
            traits: &[],
            formation: Line,
            files: 8,
            front: (50.0, 10.0),
            facing: 0.0,
        },
        Spec {
            id: "skirm",
            side: a,
            name: "Skirmishers",
            number: 5,
            kind: LightInfantry,
            class: Class::C,
            figures: 12,
            weapons: &[Weapon::Bow],
            traits: &[],
            formation: Line,
            files: 6,
            front: (8.0, 14.0),
            facing: 0.0,
        },
        Spec {
            id: "conan",
            side: a,
            name: "Conan",
            number: 6,
            kind: Hero,
            class: Class::A,
            figures: 1,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 1,
            front: (20.0, 8.0),
            facing: 0.0,
        },
        Spec {
            id: "prospero",
            side: a,
            name: "Prospero",
            number: 7,
            kind: Commander,
            class: Class::A,
            figures: 1,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 1,
            front: (30.0, 5.0),
            facing: 0.0,
        },
        Spec {
            id: "priest",
            side: a,
            name: "Priest of Mitra",
            number: 8,
            kind: Wizard,
            class: Class::A,
            figures: 1,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 1,
            front: (40.0, 4.0),
            facing: 0.0,
        },
        Spec {
            id: "knights",
            side: n,
            name: "Nemedian Knights",
            number: 1,
            kind: HeavyCavalry,
            class: Class::B,
            figures: 12,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 6,
            front: (20.0, 40.0),
            facing: 180.0,
        },
        Spec {
            id: "spears",
            side: n,
            name: "Nemedian Spearmen",
            number: 2,
            kind: MediumInfantry,
            class: Class::B,
            figures: 24,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 12,
            front: (36.0, 40.0),
            facing: 180.0,
        },
        Spec {
            id: "mammoths",
            side: n,
            name: "War Mammoths",
            number: 3,
            kind: WoollyMammoth,
            class: Class::C,
            figures: 12,
            weapons: &[Weapon::Bow],
            traits: &[],
            formation: Line,
            files: 3,
            front: (50.0, 40.0),
            facing: 180.0,
        },
        Spec {
            id: "chariots",
            side: n,
            name: "Kothian Chariots",
            number: 4,
            kind: HeavyChariot,
            class: Class::B,
            figures: 10,
            weapons: &[Weapon::ShemiteBow],
            traits: &[],
            formation: Line,
            files: 5,
            front: (62.0, 40.0),
            facing: 180.0,
        },
        Spec {
            id: "guard",
            side: n,
            name: "Black Guard",
            number: 5,
            kind: HeavyInfantry,
            class: Class::A,
            figures: 18,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 6,
            front: (8.0, 40.0),
            facing: 180.0,
        },
        Spec {
            id: "thoth",
            side: n,
            name: "Thoth-Amon",
            number: 6,
            kind: Wizard,
            class: Class::A,
            figures: 1,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 1,
            front: (36.0, 46.0),
            facing: 180.0,
        },
        Spec {
            id: "amalric",
            side: n,
            name: "Amalric",
            number: 7,
            kind: Superhero,
            class: Class::A,
            figures: 1,
            weapons: &[],
            traits: &[],
            formation: Line,
            files: 1,
            front: (36.0, 41.0),
            facing: 180.0,
        },
    ];
    let mut units = BTreeMap::new();
    for s in specs {
        let u = unit(s);
        units.insert(u.id.clone(), u);
    }
    if let Some(c) = units.get_mut("conan") {
        c.attached_to = Some("dragons".into());
    }
    if let Some(w) = units.get_mut("priest") {
        w.spell_points = Some(100);
    }
    if let Some(w) = units.get_mut("thoth") {
        w.spell_points = Some(500);
    }
    Table {
        width: 72.0,
        depth: 48.0,
        terrain: Vec::new(),
        units,
        turn: 1,
        ..Default::default()
    }
}
