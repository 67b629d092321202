//! The seam between the sheet and the base rules: every point where the
//! sheet says "take a rally test", "resolve the fire", "conduct melee" or
//! "move" without saying how is a [`Question`], and the answer is a typed
//! [`Answer`]. A [`Base`] answers: the pack ([`super::resolve::PackRules`])
//! at once, or the game master's desk ([`super::desk`]) by mail.
//!
//! Each question carries everything the sheet fixes — the modifiers it
//! defines, with their sections — and the dice rolled for it under their
//! keys, so a game master answers with the same dice the players can check.
//! Its key is stable: the same battle, orders, dice and earlier answers ask
//! the same questions under the same keys, so answers are stored by key and
//! the phase replayed.
//!
//! ```
//! use umpire::games::fr_ancients::questions::{Answer, Ask, Modifier, Question, Roll, Test};
//! use umpire::games::fr_ancients::sequence::Part;
//! let q = Question {
//!     key: "rally:hastati:1".into(),
//!     part: Part::Rally,
//!     ask: Ask::Test {
//!         unit: "hastati".into(),
//!         test: Test::Rally,
//!         rally: Some(5),
//!         modifiers: vec![Modifier::new(-1, "1 level of demoralization (§2 step 1)")],
//!         roll: Roll { key: "rally:hastati:1".into(), value: 7 },
//!     },
//! };
//! assert_eq!(q.ask.total_modifier(), -1);
//! assert!(Answer::Pass.fits(&q.ask));
//! assert!(!Answer::Yes.fits(&q.ask));
//! ```

use super::part::Part;
use super::table::{Battle, CharacterId, Place, SideId, UnitId};
use super::weapons::Weapon;
use crate::geometry::Face;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A number the sheet adds to a roll or a factor, and why (with its section).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifier {
    pub value: i32,
    pub why: String,
}

impl Modifier {
    pub fn new(value: i32, why: impl Into<String>) -> Modifier {
        Modifier {
            value,
            why: why.into(),
        }
    }
}

impl fmt::Display for Modifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+} {}", self.value, self.why)
    }
}

/// A die rolled for a question, under its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    pub key: String,
    pub value: u8,
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.key, self.value)
    }
}

/// Rolls as reports and situations list them: `fire:a:1 = 5, fire:a:1:2 = 3`.
pub fn rolls_text(rolls: &[Roll]) -> String {
    rolls
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tests the sheet calls for (how one is made and passed is M1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Test {
    /// Step 1: "Friendly troops attempt to rally."
    Rally,
    /// An impetuous unit within movement distance of an enemy at the start
    /// of its movement phase (step 4a).
    Impetuous,
    /// An impetuous unit shot at but not demoralised (step 2c).
    ImpetuousShotAt,
    /// An impetuous unit that destroyed an enemy in melee: pass or pursue (O7).
    Pursuit,
    /// A character makes a unit bound by target priority shoot elsewhere (§7).
    Retarget,
    /// Cavalry that wish to charge an elephant (rally check at −2, §5 Cause Fear).
    ChargeElephant,
    /// A counter-charge against an elephant, a scythed chariot or another
    /// fear-causing unit (rule 8).
    CounterCharge,
    /// A scythed chariot's impact check to counter-charge (rule 8).
    Impact,
    /// A scythed chariot's rally check before impact (rule 9).
    ScythedStrike,
    /// A unit charged by a scythed chariot opening its ranks (rule 9).
    OpenRanks,
    /// Unmanoeuvreable troops wheeling at full speed or turning (§5).
    Wheel,
    /// Unmanoeuvreable troops attacked in flank or rear (§5).
    AttackedInFlank,
    /// A fear check (M9), with the sheet's reasons.
    Fear,
}

impl Test {
    /// The key's word and the sheet's name of the test.
    pub fn describe(self) -> (&'static str, &'static str) {
        match self {
            Test::Rally => ("rally", "rally roll (§2 step 1)"),
            Test::Impetuous => (
                "impetuous",
                "impetuous rally roll: an enemy within movement distance (§5 Impetuous)",
            ),
            Test::ImpetuousShotAt => ("impetuous", "impetuous rally roll: shot at (§2 step 2c)"),
            Test::Pursuit => (
                "pursuit",
                "impetuous rally roll after destroying an enemy unit (§5 Impetuous)",
            ),
            Test::Retarget => (
                "retarget",
                "rally test to shoot another target (§7 Characters)",
            ),
            Test::ChargeElephant => (
                "balk",
                "rally check at -2 to charge an elephant (§5 Cause Fear)",
            ),
            Test::CounterCharge => ("countercharge", "rally check to counter-charge (rule 8)"),
            Test::Impact => ("countercharge", "impact check to counter-charge (rule 8)"),
            Test::ScythedStrike => ("scythed", "rally check before impact (rule 9)"),
            Test::OpenRanks => ("open-ranks", "rally check to open ranks (rule 9)"),
            Test::Wheel => (
                "wheel",
                "rally test to wheel at full speed or turn (§5 Unmanoeuvreable)",
            ),
            Test::AttackedInFlank => (
                "flank",
                "rally test, attacked in flank or rear (§5 Unmanoeuvreable)",
            ),
            Test::Fear => ("fear", "fear check (§2 step 4e)"),
        }
    }
}

/// What a move question is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveKind {
    /// A move the player wrote.
    Normal,
    /// A charge, to end in full base-to-base contact.
    Charge { target: UnitId },
    /// An impetuous unit charging its nearest enemy (§5 Impetuous, Tribal).
    Impetuous { target: UnitId },
    /// An enraged or panicked unit's full move.
    Fury,
    /// A double-demoralised unit falling back away from `from` (M8).
    Retreat { from: UnitId },
    /// Cavalry balking one base from an elephant (§5 Cause Fear).
    Balk { from: UnitId },
    /// A skirmisher or light infantry unit leaving a melee (rule 2).
    Withdraw,
    /// An impetuous unit pursuing its full move (§5 Impetuous).
    Pursuit,
    /// An impetuous winner following up a unit that fell back (§5 Impetuous).
    FollowUp { target: UnitId },
}

impl MoveKind {
    /// The other unit the move is about: its target, or whom it leaves.
    pub fn other(&self) -> Option<UnitId> {
        match self {
            MoveKind::Charge { target }
            | MoveKind::Impetuous { target }
            | MoveKind::FollowUp { target } => Some(target.clone()),
            MoveKind::Retreat { from } | MoveKind::Balk { from } => Some(from.clone()),
            MoveKind::Normal | MoveKind::Fury | MoveKind::Withdraw | MoveKind::Pursuit => None,
        }
    }

    pub fn word(&self) -> &'static str {
        match self {
            MoveKind::Normal => "move",
            MoveKind::Charge { .. } => "charge",
            MoveKind::Impetuous { .. } => "impetuous charge",
            MoveKind::Fury => "wild move",
            MoveKind::Retreat { .. } => "DD retreat",
            MoveKind::Balk { .. } => "balk",
            MoveKind::Withdraw => "withdrawal",
            MoveKind::Pursuit => "pursuit",
            MoveKind::FollowUp { .. } => "follow-up",
        }
    }
}

/// A yes-or-no call the base rules make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    /// Is an enemy within the impetuous unit's movement distance? (M4)
    EnemyWithinMove,
    /// Is the enemy infantry slower than the withdrawing unit? (rule 2, M4)
    SlowerInfantry,
    /// Does this many levels of demoralization destroy the unit? (M8)
    DestroyedByLevels,
    /// Has the unit a natural charge bonus, as counter-charging needs? (rule 8, M2)
    NaturalChargeBonus,
}

impl Judgement {
    pub fn describe(self) -> &'static str {
        match self {
            Judgement::EnemyWithinMove => {
                "is an enemy within its movement distance (§5 Impetuous, M4)?"
            }
            Judgement::SlowerInfantry => {
                "is every infantry unit it fights slower than it (rule 2, M4)?"
            }
            Judgement::DestroyedByLevels => "do its levels of demoralization destroy it (M8)?",
            Judgement::NaturalChargeBonus => {
                "has it a natural charge bonus, not one from missile weapons (rule 8, M2)?"
            }
        }
    }
}

/// One unit's part in a melee question.
#[derive(Debug, Clone, PartialEq)]
pub struct Fighter {
    pub unit: UnitId,
    pub side: SideId,
    pub cf: Option<i32>,
    /// Melee with the grade's and characters' bonuses, when known.
    pub melee: Option<i32>,
    /// The enemies it touches, and which face of each.
    pub strikes: Vec<(UnitId, Face)>,
    /// The sheet's modifiers (charge and weapon bonuses, Unmanoeuvreable, standards…).
    pub modifiers: Vec<Modifier>,
    pub support: Vec<Support>,
    pub roll: Roll,
    /// It charged (or counter-charged) this phase and its charge bonus counts.
    pub charged: bool,
    /// …with Wild Charge: if it wins, the loser takes 2 DMZs (§5).
    pub wild_charge: bool,
}

/// A friendly unit beside or behind a fighter, and whether rule 1 lets it support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Support {
    pub by: UnitId,
    /// "side" or "rear".
    pub from: &'static str,
    pub allowed: bool,
    /// The sheet's reason, for the situation.
    pub why: String,
    /// The sheet's own bonus on top of the base's (Tribal rear +1).
    pub extra: i32,
}

/// What is asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    /// Does the unit pass this test? `rally`: its Rally value, when known.
    Test {
        unit: UnitId,
        test: Test,
        rally: Option<i32>,
        modifiers: Vec<Modifier>,
        roll: Roll,
    },
    /// Does a captured character escape? (step 3)
    Escape { character: CharacterId, roll: Roll },
    /// A yes-or-no call of the base rules, with the facts the umpire knows.
    Judge {
        unit: UnitId,
        judgement: Judgement,
        facts: Vec<String>,
    },
    /// What does this fire do? One unit, or Archers concentrating (`firers`
    /// share the roll of the first); `line` is the Bowfire line.
    Fire {
        firers: Vec<UnitId>,
        target: UnitId,
        weapon: Weapon,
        line: u32,
        /// The firer's Missile value, when known.
        missile: Option<i32>,
        modifiers: Vec<Modifier>,
        /// Elite: +1 to the roll, "to a maximum of 10" (§3).
        elite: bool,
        /// Why the target counts as in cover (heavy armour, terrain), if it does.
        cover: Vec<String>,
        /// Pavisiers: cover is −1, not the standard −2 (rule 14).
        pavisiers: bool,
        /// Artillery: the damage roll (M6).
        damage: bool,
        rolls: Vec<Roll>,
    },
    /// Who wins this combat and what does each unit take?
    Melee { fighters: Vec<Fighter> },
    /// Does this move go as the umpire worked it out?
    Move {
        unit: UnitId,
        kind: MoveKind,
        from: Place,
        to: Place,
        /// Path length and turn, in the game's column and degrees.
        distance: f64,
        turn: f64,
        in_terrain: bool,
        /// The unit's movement allowance there, when known.
        allowance: Option<f64>,
        /// Roman Battle Drill's free facing change applies (§5 Maneuverability).
        free_change: bool,
    },
    /// How far does a full move along this bearing take the unit? (its allowance, M2)
    Distance {
        unit: UnitId,
        bearing: f64,
        kind: MoveKind,
    },
    /// A challenge between two characters (step 5, M11).
    Challenge {
        challenger: CharacterId,
        challenged: CharacterId,
        rolls: [Roll; 2],
    },
    /// What becomes of a character whose unit was destroyed? (M11)
    Fate {
        character: CharacterId,
        unit: UnitId,
    },
}

impl Ask {
    /// The sum of the sheet's modifiers (tests and fire).
    pub fn total_modifier(&self) -> i32 {
        match self {
            Ask::Test { modifiers, .. } | Ask::Fire { modifiers, .. } => {
                modifiers.iter().map(|m| m.value).sum()
            }
            _ => 0,
        }
    }

    /// The units a question is about, for checking answers that name them.
    pub fn units(&self) -> Vec<UnitId> {
        match self {
            Ask::Test { unit, .. }
            | Ask::Judge { unit, .. }
            | Ask::Move { unit, .. }
            | Ask::Distance { unit, .. } => {
                vec![unit.clone()]
            }
            Ask::Fire { target, .. } => vec![target.clone()],
            Ask::Melee { fighters } => fighters.iter().map(|f| f.unit.clone()).collect(),
            Ask::Fate { unit, .. } => vec![unit.clone()],
            Ask::Escape { .. } | Ask::Challenge { .. } => Vec::new(),
        }
    }

    /// Every unit whose fate or place the answer may change, or that the
    /// question reads: two questions that touch no unit in common may be
    /// asked in the same situation (neither answer changes the other's
    /// question). A character's question touches the unit he is with.
    pub fn touches(&self, battle: &Battle) -> BTreeSet<UnitId> {
        let with = |c: &CharacterId| battle.characters.get(c).and_then(|c| c.with.clone());
        let mut out: BTreeSet<UnitId> = self.units().into_iter().collect();
        match self {
            Ask::Fire { firers, .. } => out.extend(firers.iter().cloned()),
            Ask::Melee { fighters } => {
                for f in fighters {
                    out.extend(f.strikes.iter().map(|(u, _)| u.clone()));
                    out.extend(f.support.iter().map(|s| s.by.clone()));
                }
            }
            Ask::Move { kind, .. } | Ask::Distance { kind, .. } => out.extend(kind.other()),
            Ask::Escape { character, .. } => out.extend(with(character)),
            Ask::Challenge {
                challenger,
                challenged,
                ..
            } => out.extend([with(challenger), with(challenged)].into_iter().flatten()),
            Ask::Fate { character, .. } => out.extend(with(character)),
            Ask::Test { .. } | Ask::Judge { .. } => {}
        }
        out
    }
}

/// A question and where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Stable across replays: `rally:hastati:1`, `melee:celts1:2`, `move:velites:1`.
    pub key: String,
    pub part: Part,
    pub ask: Ask,
}

/// A unit's result in a melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    pub dmz: u8,
    pub destroyed: bool,
}

/// A unit wrapping round an enemy after a melee (M7; rule 11 limits where).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrap {
    pub unit: UnitId,
    pub around: UnitId,
    pub to: Face,
}

/// What a move comes to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MoveResult {
    /// As the umpire worked it out.
    Goes,
    /// It ends here instead (short of a charge, a shorter retreat…).
    StopsAt(Place),
    /// Its retreat is blocked: destroyed (rule 15 "blocked retreat").
    Destroyed,
    /// It leaves the table.
    OffTable,
}

/// What becomes of a character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loss {
    Killed,
    Captured,
    /// Unhurt, with this unit.
    Joins(UnitId),
    Unhurt,
}

/// The base rules' answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    Pass,
    /// Failed; a fear check says how many DMZs that costs (M9).
    Fail {
        dmz: Option<u8>,
    },
    Yes,
    No,
    Fire(Outcome),
    Melee {
        /// The winning side, or none (a draw).
        winner: Option<SideId>,
        results: BTreeMap<UnitId, Outcome>,
        wraps: Vec<Wrap>,
        /// Winners that follow the unit they beat, if it fell back (M7;
        /// the sheet's impetuous units always do, §5).
        follow_ups: Vec<UnitId>,
    },
    Move(MoveResult),
    Distance(f64),
    Challenge {
        winner: Option<CharacterId>,
        loser: Loss,
    },
    Fate(Loss),
}

impl Answer {
    /// Whether the answer is of the kind the question asks for.
    pub fn fits(&self, ask: &Ask) -> bool {
        matches!(
            (ask, self),
            (
                Ask::Test { .. } | Ask::Escape { .. },
                Answer::Pass | Answer::Fail { .. }
            ) | (Ask::Judge { .. }, Answer::Yes | Answer::No)
                | (Ask::Fire { .. }, Answer::Fire(_))
                | (Ask::Melee { .. }, Answer::Melee { .. })
                | (Ask::Move { .. }, Answer::Move(_))
                | (Ask::Distance { .. }, Answer::Distance(_))
                | (Ask::Challenge { .. }, Answer::Challenge { .. })
                | (Ask::Fate { .. }, Answer::Fate(_))
        )
    }
}

/// Who answers for the base rules.
pub trait Base {
    /// The answer, or `None` when it must wait for the game master.
    fn answer(&mut self, battle: &Battle, q: &Question) -> Option<Answer>;
}
