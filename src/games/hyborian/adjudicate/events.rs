//! What happened, as typed events in the order it happened. Reports only
//! format these; each one's [`Display`](std::fmt::Display) is a sentence a
//! player understands in the book's terms.

use crate::games::hyborian::rules::fire::KILLS_PER_CASUALTY;
use crate::games::hyborian::rules::Formation;
use crate::games::hyborian::table::UnitId;
use crate::geometry::{Face, EPSILON};
use crate::report::plural;
use serde::Serialize;
use std::fmt;

/// One thing that happened in a turn.
/// The three points of a turn at which morale tests are taken (§2, §8;
/// ruling M-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestPoint {
    /// Start of the turn: routing units' rally tests.
    Rally,
    /// Before the melee round, after all movement and fire.
    PreMelee,
    /// After every melee of the turn.
    PostMelee,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// "Turn 3 begins."
    TurnBegan { turn: u32 },
    /// "Phase 1 movement."
    PhaseBegan { phase: u8 },
    /// "Black Dragons charge Nemedian Knights, wheeling 20° right first (a sweep)."
    ChargeBegun {
        unit: UnitId,
        name: String,
        phase: u8,
        target: Option<UnitId>,
        target_name: Option<String>,
        bearing: f64,
        wheel: f64,
    },
    /// "Nemedian Spearmen cannot charge in the woods: they move at their
    /// normal rate instead, with no charge bonus."
    ChargeDenied {
        unit: UnitId,
        name: String,
        phase: u8,
        target: Option<UnitId>,
        target_name: Option<String>,
        why: NoCharge,
    },
    /// "Pictish Skirmishers evade the charge of Black Dragons: they turn about and fall back."
    Evaded {
        unit: UnitId,
        name: String,
        phase: u8,
        charger: UnitId,
        charger_name: String,
    },
    /// "Red Riders broke off from the melee with a free turn-about."
    BrokeOff {
        unit: UnitId,
        name: String,
        phase: u8,
    },
    /// "Regular Spearmen wheeled 30° left and moved on, 6 inches in all."
    Moved {
        unit: UnitId,
        name: String,
        phase: u8,
        /// The whole path, the wheel's outer-flank arc included.
        distance: f64,
        wheel: f64,
        /// The wheel ordered, when the unit was stopped part-way through it
        /// (the halt that follows says why).
        #[serde(skip_serializing_if = "Option::is_none")]
        wheel_ordered: Option<f64>,
    },
    /// "Regular Spearmen faced 90° to the right (now facing 90)."
    ChangedFace {
        unit: UnitId,
        name: String,
        phase: u8,
        from: f64,
        to: f64,
    },
    /// "Regular Spearmen formed column, 4 wide and 6 deep."
    ChangedFormation {
        unit: UnitId,
        name: String,
        phase: u8,
        formation: Formation,
        files: u32,
        ranks: u32,
        /// A positional line bent back to keep within this terrain (ruling E-4).
        #[serde(skip_serializing_if = "Option::is_none")]
        bent_to: Option<&'static str>,
    },
    /// "Nemedian Knights halted after 4.5 inches: Red Lancers (friends) were in the way."
    Halted {
        unit: UnitId,
        name: String,
        phase: u8,
        after: f64,
        reason: Halt,
    },
    /// "Black Dragons charged Nemedian Knights and struck their front after 9.5 inches."
    Contact {
        unit: UnitId,
        name: String,
        phase: u8,
        other: UnitId,
        other_name: String,
        face: Face,
        charging: bool,
        after: f64,
    },
    /// "Black Dragons' charge met no one and ended after 18 inches."
    ChargeMissed {
        unit: UnitId,
        name: String,
        phase: u8,
        distance: f64,
    },
    /// "Regular Spearmen were caught before they finished changing face."
    ChangeCaught {
        unit: UnitId,
        name: String,
        phase: u8,
    },
    /// "Regular Spearmen had no room to change formation: Red Lancers were in the way."
    ChangeBlocked {
        unit: UnitId,
        name: String,
        phase: u8,
        by: UnitId,
        by_name: String,
    },
    /// "Spearmen could wheel only 40° of the 90° ordered: a wheel may use at most half the move."
    WheelCut {
        unit: UnitId,
        name: String,
        phase: u8,
        ordered: f64,
        made: f64,
    },
    /// "Knights did not carry out their phase 1 order: they are locked in melee."
    NotCarriedOut {
        unit: UnitId,
        name: String,
        phase: u8,
        why: Refusal,
    },
    /// "Bossonian Archers shot at Nemedian Spearmen at 10.5 inches: die 4, moved −1, … = 2; 12 figures firing score 24 kills: 1 casualty at 20 kills a figure."
    FireResolved {
        firer: UnitId,
        firer_name: String,
        target: UnitId,
        target_name: String,
        phase: u8,
        range: f64,
        modifiers: Vec<(String, i32)>,
        die: u8,
        figures_firing: u32,
        kills: u32,
        casualties: u32,
    },
    /// "Black Dragons fought Spearmen with 9 figures: die 4, charge +2 = 6; 60 % of 9, 5 casualties."
    MeleeResolved {
        unit: UnitId,
        name: String,
        opponent: UnitId,
        opponent_name: String,
        figures_fighting: u32,
        modifiers: Vec<(String, i32)>,
        die: u8,
        casualties: u32,
    },
    /// "Black Dragons won the melee: 5 casualties inflicted, 2 suffered."
    MeleeOutcome {
        unit: UnitId,
        name: String,
        result: crate::games::hyborian::adjudicate::record::MeleeResult,
        inflicted: u32,
        suffered: u32,
    },
    /// "Black Dragons broke through Nemedian Spearmen and ride on 9.5 inches of their charge."
    BrokeThrough {
        unit: UnitId,
        name: String,
        through: UnitId,
        through_name: String,
        distance: f64,
    },
    /// "Black Dragons did not break through Nemedian Spearmen: 3 casualties inflicted, 2 suffered (twice as many needed)."
    NoBreakthrough {
        unit: UnitId,
        name: String,
        through: UnitId,
        through_name: String,
        reason: NoBreakthrough,
    },
    /// "Spearmen lost 3 figures (21 left)."
    Casualties {
        unit: UnitId,
        name: String,
        lost: u32,
        left: u32,
    },
    /// "Spearmen were wiped out."
    Eliminated { unit: UnitId, name: String },
    /// "Black Dragons deployed at (30.0, 6.0) facing 0, in line 6 wide and 2 deep."
    Deployed {
        unit: UnitId,
        name: String,
        at: [f64; 2],
        facing: f64,
        formation: Formation,
        files: u32,
        ranks: u32,
    },
    /// "Black Dragons could not deploy there: it would stand outside aquilonia's deployment zone…; it stays where the scenario put it."
    DeploymentRefused {
        unit: UnitId,
        name: String,
        why: String,
    },
    /// "Aquilonian Foot test morale (lost the melee): B 85, lost the melee −10 = 75; rolled 80: failed."
    MoraleTested {
        unit: UnitId,
        name: String,
        /// Which of the turn's test points (the report's section).
        point: TestPoint,
        /// Why the test was taken ("entering melee", "lost the melee"…).
        causes: Vec<String>,
        base: i32,
        modifiers: Vec<(String, i32)>,
        chance: i32,
        roll: u8,
        passed: bool,
    },
    /// "Aquilonian Foot rolled 40 for severity: fall back two moves."
    SeverityRolled {
        unit: UnitId,
        name: String,
        roll: u8,
        severity: String,
    },
    /// "Aquilonian Foot fell back 12 inches, ending facing the enemy (fall-back status for 2 turns)."
    FellBack {
        unit: UnitId,
        name: String,
        distance: f64,
        turns: u8,
    },
    /// "Aquilonian Foot routed 20 inches."
    Routed {
        unit: UnitId,
        name: String,
        distance: f64,
        again: bool,
    },
    /// "Aquilonian Foot passed through Bossonian Archers."
    PassedThrough {
        unit: UnitId,
        name: String,
        through: UnitId,
        through_name: String,
    },
    /// "Aquilonian Foot formed column, 4 wide and 6 deep, to fall back through a gap."
    ReformedToFallBack {
        unit: UnitId,
        name: String,
        formation: Formation,
        files: u32,
        ranks: u32,
    },
    /// "Aquilonian Foot fell back into Nemedian Knights: a melee begins, with no pre-melee tests."
    RetreatedInto {
        unit: UnitId,
        name: String,
        other: UnitId,
        other_name: String,
    },
    /// "Aquilonian Foot halted after 3 inches: …"  (stopped falling back or routing)
    RetreatStopped {
        unit: UnitId,
        name: String,
        after: f64,
        reason: Halt,
    },
    /// "Koth Chariots trampled Spearmen: 3 figures."
    Trampled {
        unit: UnitId,
        name: String,
        by: UnitId,
        by_name: String,
        lost: u32,
    },
    /// "The mahouts killed their routing beasts: Vendhyan Mammoths endangered their friends."
    MahoutsKilled { unit: UnitId, name: String },
    /// "Aquilonian Foot left the table."
    LeftTable { unit: UnitId, name: String },
    /// "Aquilonian Foot rallied: they turn about (fall-back status for 2 turns)."
    Rallied { unit: UnitId, name: String },
    /// "Aquilonian Foot stopped routing and will fight in fall-back status."
    StoodAtBay { unit: UnitId, name: String },
    /// "Aquilonian Foot recovered from fall-back status."
    Recovered { unit: UnitId, name: String },
    /// "Aquilonian Foot surrendered."
    Surrendered { unit: UnitId, name: String },
    /// "The Free Company changed sides: they now fight for nemedia."
    ChangedSides {
        unit: UnitId,
        name: String,
        to: String,
    },
    /// "Count Trocero was captured by Nemedian Knights."
    Captured {
        unit: UnitId,
        name: String,
        by: Option<String>,
    },
    /// "Count Trocero joined Black Dragons." / "left Black Dragons." / "moved 12 inches."
    LeaderActed {
        unit: UnitId,
        name: String,
        act: LeaderAct,
    },
    /// "Die for fire:boss:1 rolled 4."
    DieRolled { key: String, value: u8 },
    /// "Turn 3 ends."
    TurnEnded { turn: u32 },
    /// Magic (§10): a spell cast, what it did, what it ended.
    Magic(MagicEvent),
}

/// What magic did (§10, Appendix II), one sentence each.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "magic", rename_all = "kebab-case")]
pub enum MagicEvent {
    /// "Thoth-Amon cast the Sword of Fire at Nemedian Knights: roll 57, it works (475 points left)."
    Cast {
        /// "at Knights", "at (30.0, 20.0)", "along (…) to (…)", "on himself".
        wizard: UnitId,
        name: String,
        spell: String,
        at: String,
        roll: Option<u8>,
        casting: crate::games::hyborian::rules::magic::Casting,
        points_left: u32,
    },
    /// "Thoth-Amon's Sword of Fire is lost: Spearmen stand in the way."
    SpellLost {
        wizard: UnitId,
        name: String,
        spell: String,
        why: String,
    },
    /// "White Druids 1 rolled 23: too drunk to work magic this turn."
    DruidDrunk {
        wizard: UnitId,
        name: String,
        roll: u8,
    },
    /// "Thoth-Amon's Sword of Fire backfired onto Stygian Spearmen."
    Backfired {
        wizard: UnitId,
        name: String,
        spell: String,
        onto: UnitId,
        onto_name: String,
    },
    /// "The Sword of Fire struck Knights' front as a charge by 3 heavy cavalry: die 4, charge +2 = 6; 2 casualties."
    MagicCharge {
        spell: String,
        unit: UnitId,
        name: String,
        figures: u32,
        face: Face,
        die: u8,
        modifiers: Vec<(String, i32)>,
        casualties: u32,
    },
    /// "Thoth-Amon flew to (30.0, 20.0)."
    Flew {
        wizard: UnitId,
        name: String,
        to: [f64; 2],
    },
    /// "The woods caught fire near (30.0, 20.0)."
    WoodsAlight { at: [f64; 2] },
    /// "The fire in the woods spread: it burns 4 inches from the wall."
    FireSpread { reach: f64 },
    /// "Pictish Skirmishers burned: 3 figures."
    Burned {
        unit: UnitId,
        name: String,
        lost: u32,
    },
    /// "The rain put out the fire in the woods."
    PutOut { what: String },
    /// "Ghosts of Thoth-Amon rose at (30.0, 20.0): 24 figures."
    Risen {
        unit: UnitId,
        name: String,
        figures: u32,
        at: [f64; 2],
    },
    /// "The earth slid off the hill at (30.0, 19.0), catching Spearmen."
    Landslide { at: [f64; 2], caught: Vec<String> },
    /// "Conan fell under the Black Slumber for 3 turns."
    Spellbound {
        unit: UnitId,
        name: String,
        spell: String,
        turns: u32,
    },
    /// "Wolves of White Druids ran at Spearmen and struck them."
    BeastsHunt {
        unit: UnitId,
        name: String,
        prey: UnitId,
        prey_name: String,
        struck: bool,
    },
    /// "The Wind Demon turned Bossonian Archers' arrows back on them."
    ArrowsTurned { unit: UnitId, name: String },
    /// "Spearmen must test morale at −10% (the Sword of Fire, aimed at them)."
    MoraleCalled {
        unit: UnitId,
        name: String,
        spell: String,
        modifier: i32,
        target: bool,
    },
    /// "The Earth-Demon had no effect: there is no hill of 2 contours within 3 inches of that place."
    NoEffect { spell: String, why: String },
    /// "Ghosts of Thoth-Amon fade away."
    Ended { what: String },
}

impl MagicEvent {
    /// Told at the end of the turn: fire spreading and burning, magic ending.
    pub fn at_end_of_turn(&self) -> bool {
        matches!(
            self,
            MagicEvent::FireSpread { .. } | MagicEvent::Burned { .. } | MagicEvent::Ended { .. }
        )
    }
}

/// A spell's name without its article ("Calling" of "The Calling").
fn bare(spell: &str) -> &str {
    spell.strip_prefix("The ").unwrap_or(spell)
}

/// "the Sword of Fire", "the Calling".
fn the(spell: &str) -> String {
    format!("the {}", bare(spell))
}

/// "Thoth-Amon's", "White Druids'".
fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

impl fmt::Display for MagicEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::games::hyborian::rules::magic::Casting;
        match self {
            MagicEvent::Cast {
                name,
                spell,
                at,
                roll,
                casting,
                points_left,
                ..
            } => {
                write!(f, "{name} cast {} {at}: ", the(spell))?;
                match roll {
                    Some(r) => write!(f, "roll {r}, ")?,
                    None => f.write_str("it never fails, ")?,
                }
                let what = match casting {
                    Casting::Works => "it works",
                    Casting::Fizzle => "it fizzles",
                    Casting::Backfire => "it backfires",
                };
                write!(f, "{what} ({points_left} points left).")
            }
            MagicEvent::SpellLost {
                name, spell, why, ..
            } => {
                write!(f, "{} {} is lost: {why}.", possessive(name), bare(spell))
            }
            MagicEvent::DruidDrunk { name, roll, .. } => {
                write!(
                    f,
                    "{name} rolled {roll}: too drunk to work magic this turn."
                )
            }
            MagicEvent::Backfired {
                name,
                spell,
                onto_name,
                ..
            } => {
                write!(
                    f,
                    "{} {} backfired onto {onto_name}.",
                    possessive(name),
                    bare(spell)
                )
            }
            MagicEvent::MagicCharge {
                spell,
                name,
                figures,
                face,
                die,
                modifiers,
                casualties,
                ..
            } => {
                write!(
                    f,
                    "The {} struck {} {face} as a charge by {figures} heavy cavalry: die {die}",
                    bare(spell),
                    possessive(name)
                )?;
                write_modifiers(f, *die, modifiers)?;
                write!(f, "; {}.", plural(*casualties, "casualty", "casualties"))
            }
            MagicEvent::Flew { name, to, .. } => {
                write!(f, "{name} flew to ({:.1}, {:.1}).", to[0], to[1])
            }
            MagicEvent::WoodsAlight { at } => write!(
                f,
                "The woods caught fire near ({:.1}, {:.1}).",
                at[0], at[1]
            ),
            MagicEvent::FireSpread { reach } => {
                write!(
                    f,
                    "The fire in the woods spread: it burns {} from the wall.",
                    inches(*reach)
                )
            }
            MagicEvent::Burned { name, lost, .. } => {
                write!(f, "{name} burned: half the figures in the fire, {lost}.")
            }
            MagicEvent::PutOut { what } => write!(f, "The rain put out {what}."),
            MagicEvent::Risen {
                name, figures, at, ..
            } => {
                write!(
                    f,
                    "{name} appeared at ({:.1}, {:.1}): {figures} figures.",
                    at[0], at[1]
                )
            }
            MagicEvent::Landslide { at, caught } => {
                write!(
                    f,
                    "The earth slid off the hill near ({:.1}, {:.1})",
                    at[0], at[1]
                )?;
                if caught.is_empty() {
                    f.write_str(", catching no one.")
                } else {
                    write!(f, ", catching {}.", caught.join(", "))
                }
            }
            MagicEvent::Spellbound {
                name, spell, turns, ..
            } => {
                write!(
                    f,
                    "{name} fell under {} for {}.",
                    the(spell),
                    plural(*turns, "turn", "turns")
                )
            }
            MagicEvent::BeastsHunt {
                name,
                prey_name,
                struck,
                ..
            } => {
                if *struck {
                    write!(f, "{name} ran at {prey_name} and struck them.")
                } else {
                    write!(f, "{name} ran toward {prey_name}.")
                }
            }
            MagicEvent::ArrowsTurned { name, .. } => {
                write!(
                    f,
                    "The Wind Demon turned {} arrows back on them.",
                    possessive(name)
                )
            }
            MagicEvent::MoraleCalled {
                name,
                spell,
                modifier,
                target,
                ..
            } => {
                let why = if *target {
                    "aimed at them"
                } else {
                    "within 6 inches"
                };
                write!(
                    f,
                    "{name} must test morale at {modifier}% ({}, {why}).",
                    the(spell)
                )
            }
            MagicEvent::NoEffect { spell, why } => {
                write!(f, "The {} had no effect: {why}.", bare(spell))
            }
            MagicEvent::Ended { what } => {
                let mut c = what.chars();
                match c.next() {
                    Some(first) => write!(f, "{}{}.", first.to_uppercase(), c.as_str()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// What a leader did (§9).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LeaderAct {
    Joined {
        unit: UnitId,
        unit_name: String,
    },
    Left {
        unit_name: String,
    },
    /// Moved toward a unit it is to join or a place, this far.
    Moved {
        distance: f64,
    },
    /// Stayed with a routing unit.
    StayedWithRout {
        unit_name: String,
    },
}

/// Why a unit stopped short of the end of its move.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Halt {
    /// Ran into a friendly unit (§3: no interpenetration).
    Friend { unit: UnitId, name: String },
    /// Terrain it may not enter (§7: mounted troops and woods/swamps).
    Terrain { terrain: String },
    /// The edge of the table.
    TableEdge,
    /// A forced march may not come within 24 inches of the enemy (§3).
    EnemyNear { unit: UnitId, name: String },
    /// Magic a charge may not cross (§10: Wall of Fire, Earth-Shaker).
    Magic { what: String },
}

/// Why a charge written is no charge (§7): the unit moves toward its aim at
/// its normal rate (halved in rough ground) and earns no charge bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoCharge {
    /// "Units may not charge out of a swamp and claim their charge bonuses
    /// or additional move distance for charging."
    OutOfSwamp,
    /// Standing in woods, not on their edge: "no charges are possible in such terrain".
    InWoods,
    /// Its way to the target, or the target, is in woods.
    IntoWoods,
    /// Its way to the target, or the target, is in a swamp.
    IntoSwamp,
}

impl fmt::Display for NoCharge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NoCharge::OutOfSwamp => "no unit may charge out of a swamp",
            NoCharge::InWoods => "no charge is possible in woods",
            NoCharge::IntoWoods => "no charge is possible into woods",
            NoCharge::IntoSwamp => "no charge is possible into a swamp",
        })
    }
}

/// Why heavy cavalry that wrote breakthrough did not break through (§4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum NoBreakthrough {
    /// Fewer than twice the casualties it received (or none at all).
    Casualties { inflicted: u32, suffered: u32 },
    /// Cavalry never break through infantry attacked in the flank.
    Flank,
    /// It fought more than the infantry it charged.
    OtherOpponents,
    /// Too little of its charge distance was left to ride clear.
    ChargeSpent { left: f64 },
}

impl fmt::Display for NoBreakthrough {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoBreakthrough::Casualties { inflicted, suffered } => write!(
                f,
                "{inflicted} casualties inflicted, {suffered} suffered (at least twice as many, and one, needed)"
            ),
            NoBreakthrough::Flank => f.write_str("cavalry never break through infantry attacked in the flank"),
            NoBreakthrough::OtherOpponents => f.write_str("they were fighting other enemies too"),
            NoBreakthrough::ChargeSpent { left } => {
                write!(f, "only {} of their charge was left, too little to ride clear", inches(*left))
            }
        }
    }
}

/// Why an order was not carried out by the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Refusal {
    InMelee,
    FallBackStatus,
    Routing,
    StepBackFootOnly,
    WheelsOnly,
    ForcedMarchNeedsRoadColumn,
    ForcedMarchTooNear,
    InfantryCannotChargeCavalry,
    NoSuchTarget,
    FormationDoesNotFit,
    /// Friends falling back or routing passed through it last turn (§8).
    PassedThroughLastTurn,
    /// An evading light unit passed through it this phase (§6).
    PassedThroughByEvader,
}

impl Refusal {
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::InMelee => "they are locked in melee",
            Refusal::FallBackStatus => "they are in fall-back status and may not move",
            Refusal::Routing => "they are routing",
            Refusal::StepBackFootOnly => "only foot may step straight back",
            Refusal::WheelsOnly => {
                "chariots and mammoths never change face as a function; they wheel"
            }
            Refusal::ForcedMarchNeedsRoadColumn => "a forced march is made in road column",
            Refusal::ForcedMarchTooNear => {
                "a forced march may not come within 24 inches of the enemy"
            }
            Refusal::InfantryCannotChargeCavalry => "infantry cannot charge cavalry",
            Refusal::NoSuchTarget => "their target is not on the table",
            Refusal::FormationDoesNotFit => "their figures cannot form that formation",
            Refusal::PassedThroughLastTurn => {
                "friends falling back or routing passed through them: they cannot charge in phase 1"
            }
            Refusal::PassedThroughByEvader => {
                "an evading light unit passed through them: they cannot charge in the phase of the evasion"
            }
        }
    }
}

/// "6 inches", "9.5 inches", "1 inch".
pub fn inches(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if (r - 1.0).abs() < EPSILON {
        "1 inch".to_string()
    } else if (r - r.round()).abs() < EPSILON {
        format!("{} inches", r.round() as i64)
    } else {
        format!("{r:.1} inches")
    }
}

/// A halt this short is no move at all: "could not move", not "halted after 0 inches".
const HALT_AT_ONCE: f64 = 0.05;

fn degrees(x: f64) -> String {
    format!("{}°", x.abs().round() as i64)
}

fn hand(turn: f64) -> &'static str {
    if turn >= 0.0 {
        "right"
    } else {
        "left"
    }
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Friend { name, .. } => write!(f, "{name} (friends) were in the way"),
            Halt::Terrain { terrain } => write!(f, "they may not enter the {terrain}"),
            Halt::TableEdge => f.write_str("they reached the edge of the table"),
            Halt::Magic { what } => write!(f, "no charge may cross {what}"),
            Halt::EnemyNear { name, .. } => write!(
                f,
                "a forced march may not come within 24 inches of the enemy ({name})"
            ),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::TurnBegan { turn } => write!(f, "Turn {turn} begins."),
            Event::PhaseBegan { phase } => write!(f, "Phase {phase} movement."),
            Event::ChargeBegun { name, target_name, bearing, wheel, .. } => {
                match target_name {
                    Some(t) => write!(f, "{name} charge {t}")?,
                    None => write!(f, "{name} charge toward bearing {}", bearing.round() as i64)?,
                }
                if wheel.abs() >= 0.5 {
                    write!(f, ", wheeling {} {} first (a sweep)", degrees(*wheel), hand(*wheel))?;
                }
                f.write_str(".")
            }
            Event::ChargeDenied { name, target_name, why, .. } => {
                let aim = target_name.as_ref().map(|t| format!(" {t}")).unwrap_or_default();
                write!(
                    f,
                    "{name} cannot charge{aim}: {why}; they move at their normal rate instead, with no charge bonus."
                )
            }
            Event::Evaded { name, charger_name, .. } => {
                write!(f, "{name} evade the charge of {charger_name}: they turn about and fall back.")
            }
            Event::BrokeOff { name, .. } => write!(f, "{name} broke off from the melee with a free turn-about."),
            Event::Moved { name, distance, wheel, wheel_ordered: Some(ordered), .. } => write!(
                f,
                "{name} wheeled only {} {} of the {} ordered ({} in all).",
                degrees(*wheel),
                hand(*wheel),
                degrees(*ordered),
                inches(*distance)
            ),
            Event::Moved { name, distance, wheel, .. } => {
                if wheel.abs() >= 0.5 {
                    write!(f, "{name} wheeled {} {} and moved on, {} in all.", degrees(*wheel), hand(*wheel), inches(*distance))
                } else {
                    write!(f, "{name} moved {}.", inches(*distance))
                }
            }
            Event::ChangedFace { name, from, to, .. } => {
                let turn = crate::geometry::turn_between(*from, *to);
                if (turn.abs() - 180.0).abs() < 0.5 {
                    write!(f, "{name} faced about (now facing {}).", to.round() as i64)
                } else {
                    write!(f, "{name} faced {} to the {} (now facing {}).", degrees(turn), hand(turn), to.round() as i64)
                }
            }
            Event::ChangedFormation { name, formation, files, ranks, bent_to: None, .. } => {
                write!(f, "{name} formed {}, {files} wide and {ranks} deep.", formation.code().replace('-', " "))
            }
            Event::ChangedFormation { name, files, ranks, bent_to: Some(area), .. } => write!(
                f,
                "{name} formed positional line, its ends bent back to keep within the {area}: {files} wide and {ranks} deep."
            ),
            Event::Halted { name, after, reason, .. } if *after < HALT_AT_ONCE => {
                write!(f, "{name} could not move: {reason}.")
            }
            Event::Halted { name, after, reason, .. } => write!(f, "{name} halted after {}: {reason}.", inches(*after)),
            Event::Contact { name, other_name, face, charging, after, .. } => {
                let verb = if *charging { "charged" } else { "ran into" };
                write!(f, "{name} {verb} {other_name} and struck their {face} after {}.", inches(*after))
            }
            Event::ChargeMissed { name, distance, .. } => {
                write!(f, "{name}' charge met no one and ended after {}.", inches(*distance))
            }
            Event::ChangeCaught { name, .. } => write!(f, "{name} were caught before they finished their change."),
            Event::ChangeBlocked { name, by_name, .. } => {
                write!(f, "{name} had no room for their change: {by_name} were in the way.")
            }
            Event::WheelCut { name, ordered, made, .. } => write!(
                f,
                "{name} could wheel only {} of the {} ordered: a wheel may use at most half the move.",
                degrees(*made),
                degrees(*ordered)
            ),
            Event::NotCarriedOut { name, phase, why, .. } => {
                write!(f, "{name} did not carry out their phase {phase} order: {}.", why.reason())
            }
            Event::FireResolved { firer_name, target_name, range, modifiers, die, figures_firing, kills, casualties, .. } => {
                write!(f, "{firer_name} shot at {target_name} at {}: die {die}", inches(*range))?;
                write_modifiers(f, *die, modifiers)?;
                if *kills == 0 {
                    write!(f, "; {figures_firing} figures firing score no kills.")
                } else {
                    write!(
                        f,
                        "; {figures_firing} figures firing score {kills} kills: {} at {KILLS_PER_CASUALTY} kills a figure.",
                        plural(*casualties, "casualty", "casualties")
                    )
                }
            }
            Event::MeleeResolved { name, opponent_name, figures_fighting, modifiers, die, casualties, .. } => {
                write!(f, "{name} fought {opponent_name} with {figures_fighting} figures: die {die}")?;
                write_modifiers(f, *die, modifiers)?;
                write!(f, "; {}.", plural(*casualties, "casualty", "casualties"))
            }
            Event::MeleeOutcome { name, result, inflicted, suffered, .. } => {
                let verb = match result {
                    crate::games::hyborian::adjudicate::record::MeleeResult::Won => "won",
                    crate::games::hyborian::adjudicate::record::MeleeResult::Lost => "lost",
                    crate::games::hyborian::adjudicate::record::MeleeResult::Drawn => "drew",
                };
                write!(f, "{name} {verb} the melee: {} inflicted, {suffered} suffered.", plural(*inflicted, "casualty", "casualties"))
            }
            Event::BrokeThrough { name, through_name, distance, .. } => write!(
                f,
                "{name} broke through {through_name} and ride on {} of their charge.",
                inches(*distance)
            ),
            Event::NoBreakthrough { name, through_name, reason, .. } => {
                write!(f, "{name} did not break through {through_name}: {reason}.")
            }
            Event::Casualties { name, lost, left, .. } => {
                write!(f, "{name} lost {} ({left} left).", plural(*lost, "figure", "figures"))
            }
            Event::Eliminated { name, .. } => write!(f, "{name} were wiped out."),
            Event::Deployed { name, at, facing, formation, files, ranks, .. } => write!(
                f,
                "{name} deployed at ({:.1}, {:.1}) facing {facing:.0}, in {formation} {files} wide and {ranks} deep.",
                at[0], at[1]
            ),
            Event::DeploymentRefused { name, why, .. } => {
                write!(f, "{name} could not deploy there: {why}; they stay where the scenario put them.")
            }
            Event::MoraleTested { name, causes, base, modifiers, chance, roll, passed, .. } => {
                write!(f, "{name} tested morale ({}): base {base}", causes.join(", "))?;
                for (m, v) in modifiers {
                    let sign = if *v < 0 { "−" } else { "+" };
                    write!(f, ", {m} {sign}{}", v.abs())?;
                }
                let verdict = if *passed { "stood" } else { "failed" };
                write!(f, " = {chance}%; rolled {roll}: {verdict}.")
            }
            Event::SeverityRolled { name, roll, severity, .. } => {
                write!(f, "{name} rolled {roll} for severity: {severity}.")
            }
            Event::FellBack { name, distance, turns, .. } => {
                write!(
                    f,
                    "{name} fell back {}, ending facing the enemy (fall-back status for {}).",
                    inches(*distance),
                    plural(u32::from(*turns), "turn", "turns")
                )
            }
            Event::Routed { name, distance, again, .. } => {
                let how = if *again { "routed on" } else { "routed" };
                write!(f, "{name} {how} {}.", inches(*distance))
            }
            Event::PassedThrough { name, through_name, .. } => write!(f, "{name} passed through {through_name}."),
            Event::ReformedToFallBack { name, formation, files, ranks, .. } => write!(
                f,
                "{name} formed {}, {files} wide and {ranks} deep, to fall back through a gap (a free change).",
                formation.code().replace('-', " ")
            ),
            Event::RetreatedInto { name, other_name, .. } => {
                write!(f, "{name} ran into {other_name}: a melee begins, with no pre-melee tests.")
            }
            Event::RetreatStopped { name, after, reason, .. } => {
                write!(f, "{name} stopped after {}: {reason}.", inches(*after))
            }
            Event::Trampled { name, by_name, lost, .. } => {
                write!(f, "{by_name} trampled their friends {name}: {}.", plural(*lost, "figure", "figures"))
            }
            Event::MahoutsKilled { name, .. } => {
                write!(f, "The mahouts killed their routing beasts: {name} endangered their friends.")
            }
            Event::LeftTable { name, .. } => write!(f, "{name} left the table."),
            Event::Rallied { name, .. } => {
                write!(f, "{name} rallied: they turn about (fall-back status for 2 turns).")
            }
            Event::StoodAtBay { name, .. } => {
                write!(f, "{name} stopped routing and fight in fall-back status.")
            }
            Event::Recovered { name, .. } => write!(f, "{name} recovered from fall-back status."),
            Event::Surrendered { name, .. } => write!(f, "{name} surrendered."),
            Event::ChangedSides { name, to, .. } => write!(f, "{name} changed sides: they now fight for {to}."),
            Event::Captured { name, by, .. } => match by {
                Some(by) => write!(f, "{name} was captured by {by}."),
                None => write!(f, "{name} was captured."),
            },
            Event::LeaderActed { name, act, .. } => match act {
                LeaderAct::Joined { unit_name, .. } => write!(f, "{name} joined {unit_name}."),
                LeaderAct::Left { unit_name } => write!(f, "{name} left {unit_name}."),
                LeaderAct::Moved { distance } => write!(f, "{name} moved {}.", inches(*distance)),
                LeaderAct::StayedWithRout { unit_name } => write!(f, "{name} stayed with the routing {unit_name}."),
            },
            Event::DieRolled { key, value } => write!(f, "Die for {key} rolled {value}."),
            Event::Magic(m) => m.fmt(f),
            Event::TurnEnded { turn } => write!(f, "Turn {turn} ends."),
        }
    }
}

/// ", moved −1, uphill −1 = 2" after a die (nothing when unmodified).
fn write_modifiers(
    f: &mut fmt::Formatter<'_>,
    die: u8,
    modifiers: &[(String, i32)],
) -> fmt::Result {
    if modifiers.is_empty() {
        return Ok(());
    }
    for (name, v) in modifiers {
        let sign = if *v < 0 { "−" } else { "+" };
        write!(f, ", {name} {sign}{}", v.abs())?;
    }
    let total = i32::from(die) + modifiers.iter().map(|m| m.1).sum::<i32>();
    if total < 0 {
        write!(f, " = {total}, counted as 0")
    } else {
        write!(f, " = {total}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences() {
        let e = Event::Contact {
            unit: "dragons".into(),
            name: "Black Dragons".into(),
            phase: 1,
            other: "knights".into(),
            other_name: "Nemedian Knights".into(),
            face: Face::Front,
            charging: true,
            after: 9.5,
        };
        assert_eq!(
            e.to_string(),
            "Black Dragons charged Nemedian Knights and struck their front after 9.5 inches."
        );
        assert_eq!(inches(1.0), "1 inch");
        assert_eq!(inches(6.0004), "6 inches");
        let m = Event::Moved {
            unit: "s".into(),
            name: "Spearmen".into(),
            phase: 1,
            distance: 6.0,
            wheel: -30.0,
            wheel_ordered: None,
        };
        assert_eq!(
            m.to_string(),
            "Spearmen wheeled 30° left and moved on, 6 inches in all."
        );
        let cut = Event::Moved {
            unit: "s".into(),
            name: "Spearmen".into(),
            phase: 1,
            distance: 1.0,
            wheel: -12.2,
            wheel_ordered: Some(-30.0),
        };
        assert_eq!(
            cut.to_string(),
            "Spearmen wheeled only 12° left of the 30° ordered (1 inch in all)."
        );
        let c = Event::ChangedFace {
            unit: "s".into(),
            name: "Spearmen".into(),
            phase: 2,
            from: 0.0,
            to: 90.0,
        };
        assert_eq!(
            c.to_string(),
            "Spearmen faced 90° to the right (now facing 90)."
        );
        let n = Event::NotCarriedOut {
            unit: "k".into(),
            name: "Knights".into(),
            phase: 1,
            why: Refusal::InMelee,
        };
        assert_eq!(
            n.to_string(),
            "Knights did not carry out their phase 1 order: they are locked in melee."
        );
        let j = serde_json::to_value(&e).unwrap();
        assert_eq!(j["event"], "contact");
    }
}
