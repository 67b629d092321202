//! Checking a read sheet against the board (§7–§9, §15): every unit named
//! must exist (else "did you mean …?"), moves and attacks must be the
//! writer's own units in his own player-turn, and every move is tried at
//! once in the written order on a copy of the board, so the player learns
//! where each unit ends and the odds and die modifiers of every planned
//! attack before the deadline. Illegal moves are refused here (an error
//! the player can correct); what only the dice will settle is noted.
//!
//! ```
//! use umpire::games::furor::orders::check::check;
//! use umpire::games::furor::{options::Options, scenario::shipped};
//! let board = shipped("soissons").unwrap().start(&Options::default(), &Default::default(), &"franks".into()).unwrap();
//! let c = check("salian-4a: move 0706 0606\nSalian 4b: move 0605", &"franks".into(), &board, &Options::default());
//! assert_eq!(c.orders.moves.len(), 1);
//! assert_eq!(c.understood[0].1, "salian-4a: move 0706 0606");
//! assert!(c.diagnostics[0].message.contains("0605"), "{}", c.diagnostics[0].message);
//! ```

use super::read::{read, AttackText, Spanned, UnitOrder, UnitText, Written};
use super::{Advance, Attack, DefenderAdvance, Move, PlayerTurnOrders, Problem, Reactions, Route};
use crate::diagnostic::{Diagnostic, Span};
use crate::games::furor::board::{Board, Relation, Role, SideId, Status, UnitId};
use crate::games::furor::combat::{self, strengths, Attacker, Odds};
use crate::games::furor::hex::Hex;
use crate::games::furor::movement::{self, check_walk, reachable, Start};
use crate::games::furor::options::Options;
use crate::games::furor::rules::{HalfMp, Kind, Mark};
use crate::games::furor::{charge, special};
use std::collections::{BTreeMap, BTreeSet};

/// A move as planned on the copy of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedMove {
    pub unit: UnitId,
    pub from: Hex,
    pub to: Hex,
    pub spent: HalfMp,
    /// The charge's target, when the charge is allowed.
    pub charge: Option<UnitId>,
    /// The lone enemy commanders the move overruns, with their hexes (§6, O5).
    pub overruns: Vec<(UnitId, Hex)>,
}

/// An attack as planned, with its odds on the board after the moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedAttack {
    /// 1-based, as the engine numbers the list; an `else` shares its attack's.
    pub index: usize,
    pub alternative: bool,
    pub target: UnitId,
    pub odds: Option<Odds>,
    /// What the attack meets on the planned board (attackers that cannot
    /// join, the missile rule, the minimum).
    pub notes: Vec<String>,
}

/// A sheet checked: the engine's input, the canonical lines understood,
/// the plan, and every diagnostic.
#[derive(Debug, Clone)]
pub struct Checked {
    pub orders: PlayerTurnOrders,
    pub reactions: Reactions,
    /// One canonical line per order taken, with the span it came from.
    pub understood: Vec<(Span, String)>,
    pub moves: Vec<PlannedMove>,
    pub attacks: Vec<PlannedAttack>,
    /// Every move understood, refused or not, in the written order (what
    /// the engine refuses in its turn if the board is as planned).
    pub written_moves: Vec<Move>,
    pub diagnostics: Vec<Diagnostic<Problem>>,
    /// The board after the planned moves.
    pub planned: Board,
}

impl Checked {
    /// Whether any line was refused.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Find the unit a piece of text names: its id, its name (if only one
/// counter has it), or a hex id standing for the unit there (§15).
pub fn resolve(board: &Board, t: &UnitText) -> Result<UnitId, Diagnostic<Problem>> {
    let key = crate::names::key(&t.value);
    if let Ok(h) = t.value.parse::<Hex>() {
        let here = board.combat_unit_at(h).or_else(|| board.at(h).next());
        return here.map(|u| u.id.clone()).ok_or_else(|| {
            Diagnostic::new(
                Problem::UnknownUnit,
                t.span,
                format!("there is no unit in {h}"),
            )
            .with_help("name the unit, or the hex it stands in")
        });
    }
    if let Some(u) = board
        .units
        .values()
        .find(|u| crate::names::key(&u.id.0) == key)
    {
        return Ok(u.id.clone());
    }
    let by_name: Vec<&UnitId> = board
        .units
        .values()
        .filter(|u| crate::names::key(&u.name) == key)
        .map(|u| &u.id)
        .collect();
    match by_name.as_slice() {
        [one] => return Ok((*one).clone()),
        [] => {}
        many => {
            return Err(Diagnostic::new(
                Problem::UnknownUnit,
                t.span,
                format!("{} counters are called '{}'", many.len(), t.value),
            )
            .with_help(format!(
                "name one by its id: {}",
                many.iter()
                    .map(|m| m.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
    }
    let names = board
        .units
        .values()
        .flat_map(|u| [(u.id.0.as_str(), &u.id), (u.name.as_str(), &u.id)]);
    let mut d = Diagnostic::new(
        Problem::UnknownUnit,
        t.span,
        format!("there is no unit called '{}'", t.value),
    );
    if let Some(id) = crate::names::closest(&t.value, names) {
        d = d.with_help(format!("did you mean '{}' ({})?", board.get(id).name, id));
    }
    Err(d)
}

fn hexes(h: &[Hex]) -> String {
    h.iter().map(Hex::to_string).collect::<Vec<_>>().join(" ")
}

struct Checker<'a> {
    side: SideId,
    options: &'a Options,
    board: &'a Board,
    scratch: Board,
    out: Checked,
    /// Charge targets of allowed charges, for the odds.
    charges: BTreeMap<UnitId, UnitId>,
    moved: BTreeSet<UnitId>,
    feigned_targets: BTreeSet<UnitId>,
}

/// Which of a player-turn's orders a mail gives (§15).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exchange {
    /// The whole player-turn in one mail (the default).
    Whole,
    /// `split_turn`'s first exchange: the moves (and reactions).
    Moves,
    /// `split_turn`'s second exchange: the attacks, on the board the moves
    /// left, with its Charge markers.
    Attacks,
}

/// Check one player's sheet for the board (his side `side`).
pub fn check(text: &str, side: &SideId, board: &Board, options: &Options) -> Checked {
    check_exchange(
        text,
        side,
        board,
        options,
        Exchange::Whole,
        &BTreeMap::new(),
    )
}

/// Check one player's sheet for one exchange of his player-turn: under
/// `split_turn` the moves' mail refuses attacks and the attacks' mail
/// refuses moves; `charges` are the Charge markers the moves left.
pub fn check_exchange(
    text: &str,
    side: &SideId,
    board: &Board,
    options: &Options,
    exchange: Exchange,
    charges: &BTreeMap<UnitId, UnitId>,
) -> Checked {
    let sheet = read(text);
    let mut c = Checker {
        side: side.clone(),
        options,
        board,
        scratch: board.clone(),
        out: Checked {
            orders: PlayerTurnOrders::default(),
            reactions: Reactions::default(),
            understood: Vec::new(),
            moves: Vec::new(),
            attacks: Vec::new(),
            written_moves: Vec::new(),
            diagnostics: sheet.problems,
            planned: board.clone(),
        },
        charges: charges.clone(),
        moved: BTreeSet::new(),
        feigned_targets: BTreeSet::new(),
    };
    let mine = board.phasing() == side && !board.is_over();
    for line in &sheet.lines {
        let r = match &line.written {
            Written::Unit { .. } if mine && exchange == Exchange::Attacks => Err(Diagnostic::new(
                Problem::Illegal,
                line.span,
                "your moves of this player-turn have been played: this mail takes the attacks",
            )
            .with_note("the game plays split-turn (§15): the moves, reported, then the attacks")),
            Written::Attack(_) | Written::Else(_) if mine && exchange == Exchange::Moves => Err(Diagnostic::new(
                Problem::Illegal,
                line.span,
                "attacks are written in the next exchange, after the report of your moves",
            )
            .with_note("the game plays split-turn (§15): this mail takes the moves and standing reactions")),
            Written::Unit { unit, orders } if mine => c.unit_line(line.span, unit, orders),
            Written::Attack(a) if mine => c.attack(line.span, a, false),
            Written::Else(a) if mine => c.attack(line.span, a, true),
            Written::Unit { .. } | Written::Attack(_) | Written::Else(_) => Err(Diagnostic::new(
                Problem::NotYourTurn,
                line.span,
                format!("it is not the {side}' player-turn: moves and attacks are not taken now"),
            )
            .with_note("standing reactions (retreat, advance, evade, impetuous) are read at any time (§15)")),
            Written::Place { .. } => Err(Diagnostic::new(
                Problem::Illegal,
                line.span,
                "the set-up is over: counters now go where they move",
            )
            .with_help("write a move instead: 'salian-4a: move 0706'")),
            other => c.reaction(line.span, other),
        };
        if let Err(d) = r {
            c.out.diagnostics.push(d);
        }
    }
    c.plan_attacks();
    c.out.planned = c.scratch;
    c.out
}

impl Checker<'_> {
    fn own(&self, t: &UnitText) -> Result<UnitId, Diagnostic<Problem>> {
        let id = resolve(&self.scratch, t)?;
        let u = self.scratch.get(&id);
        if u.side != self.side {
            return Err(Diagnostic::new(
                Problem::NotYours,
                t.span,
                format!("{} is not one of your units", u.label()),
            )
            .with_note("you may order only your own army (§4)"));
        }
        if !u.is_on_map() {
            return Err(Diagnostic::new(
                Problem::Illegal,
                t.span,
                format!("{} is no longer on the map", u.label()),
            ));
        }
        Ok(id)
    }

    fn unit_line(
        &mut self,
        span: Span,
        unit: &UnitText,
        orders: &[Spanned<UnitOrder>],
    ) -> Result<(), Diagnostic<Problem>> {
        let id = self.own(unit)?;
        let u = self.scratch.get(&id).clone();
        if !self.moved.insert(id.clone()) {
            return Err(Diagnostic::new(
                Problem::Illegal,
                unit.span,
                format!("{} already has its move on an earlier line", u.label()),
            )
            .with_note("each unit finishes its move before another starts (§7)"));
        }
        let from = u.hex.expect("on the map");
        let mut mv = Move {
            unit: id.clone(),
            route: Route::Path(Vec::new()),
            charge: None,
            feigned_flight: None,
        };
        let mut words = Vec::new();
        let mut moving = false;
        for o in orders {
            match &o.value {
                UnitOrder::Feigned { target } => {
                    let t = resolve(&self.scratch, target)?;
                    if let Err(why) = special::feigned_flight::allowed(
                        &self.scratch,
                        self.options,
                        &self.side,
                        &id,
                        &t,
                        &self.feigned_targets,
                    ) {
                        return Err(Diagnostic::new(
                            Problem::Illegal,
                            o.span,
                            format!(
                                "no feigned flight at {}: {why}",
                                self.scratch.get(&t).label()
                            ),
                        ));
                    }
                    self.feigned_targets.insert(t.clone());
                    words.push(format!("feigned flight at {t}"));
                    mv.feigned_flight = Some(t);
                }
                UnitOrder::Stay => words.push("stay".into()),
                _ if moving => {
                    return Err(Diagnostic::new(
                        Problem::Illegal,
                        o.span,
                        "a unit makes one move a phase",
                    )
                    .with_help("put every hex of the move in one 'move'"));
                }
                UnitOrder::Path(p) => {
                    moving = true;
                    words.push(format!("move {}", hexes(p)));
                    mv.route = Route::Path(p.clone());
                }
                UnitOrder::To(h) => {
                    moving = true;
                    let start = Start::fresh(&self.scratch, &u, from);
                    let Some((_, path)) =
                        reachable(&self.scratch, self.options, &u, start).remove(h)
                    else {
                        mv.route = Route::To(*h);
                        self.out.written_moves.push(mv);
                        return Err(Diagnostic::new(
                            Problem::Illegal,
                            o.span,
                            format!("{} has no legal route to {h} this turn", u.label()),
                        )
                        .with_help("write the hexes of the move, or a nearer hex"));
                    };
                    words.push(format!("move {}", hexes(&path)));
                    mv.route = Route::Path(path);
                }
                UnitOrder::Charge { target, path } => {
                    moving = true;
                    let t = resolve(&self.scratch, target)?;
                    words.push(format!("charge {t} by {}", hexes(path)));
                    match charge::check(&self.scratch, self.options, &u, path, &t) {
                        Ok(()) => {}
                        Err(why) => self.out.diagnostics.push(
                            Diagnostic::new(
                                Problem::Remark,
                                o.span,
                                format!("this is no charge: {why}"),
                            )
                            .with_note("the move is made all the same, without the +2"),
                        ),
                    }
                    mv.charge = Some(t);
                    mv.route = Route::Path(path.clone());
                }
            }
        }
        let Route::Path(path) = &mv.route else {
            unreachable!("routes are paths here")
        };
        self.out.written_moves.push(mv.clone());
        if !path.is_empty() {
            let walk = check_walk(
                &self.scratch,
                self.options,
                &u,
                Start::fresh(&self.scratch, &u, from),
                path,
            )
            .map_err(|r| {
                Diagnostic::new(
                    Problem::Illegal,
                    span,
                    format!(
                        "{}'s move is refused: {}",
                        u.label(),
                        crate::games::furor::wording::refusal(&r)
                    ),
                )
                .with_help("a move that breaks a rule is refused whole (§7)")
            })?;
            if let Some(t) = mv
                .charge
                .clone()
                .filter(|t| charge::check(&self.scratch, self.options, &u, path, t).is_ok())
            {
                self.charges.insert(id.clone(), t);
            }
            let to = *path.last().expect("a path");
            let overruns = movement::overrun_on(&self.scratch, &u, path);
            for (c, _) in &overruns {
                let c = self.scratch.get_mut(c);
                c.status = Status::Eliminated;
                c.steps = 0;
                c.hex = None;
            }
            self.scratch.get_mut(&id).hex = Some(to);
            self.out.moves.push(PlannedMove {
                unit: id.clone(),
                from,
                to,
                spent: walk.spent,
                charge: self.charges.get(&id).cloned(),
                overruns,
            });
        }
        self.out
            .understood
            .push((span, format!("{id}: {}", words.join(", then "))));
        self.out.orders.moves.push(mv);
        Ok(())
    }

    fn attack(
        &mut self,
        span: Span,
        a: &AttackText,
        alternative: bool,
    ) -> Result<(), Diagnostic<Problem>> {
        let target = resolve(&self.scratch, &a.target)?;
        let mut attackers = Vec::new();
        let mut fire = BTreeSet::new();
        let mut words = Vec::new();
        for (t, f) in &a.attackers {
            let id = self.own(t)?;
            words.push(if *f {
                format!("fire {id}")
            } else {
                id.0.clone()
            });
            if *f {
                fire.insert(id.clone());
            }
            attackers.push(id);
        }
        let losses = a
            .losses
            .iter()
            .map(|t| self.own(t))
            .collect::<Result<Vec<_>, _>>()?;
        let (advance, advance_commander) = match &a.advance {
            Some(Some((t, c))) => (Advance::Unit(self.own(t)?), *c),
            _ => (Advance::None, false),
        };
        let mut line = format!(
            "{}attack {target} with {}",
            if alternative { "else " } else { "" },
            words.join(", ")
        );
        if let Some(m) = a.minimum {
            line.push_str(&format!("; min {m}"));
        }
        if a.all {
            line.push_str("; all");
        }
        match &advance {
            Advance::Unit(u) => line.push_str(&format!(
                "; advance {u}{}",
                if advance_commander {
                    " with commander"
                } else {
                    ""
                }
            )),
            Advance::None if a.advance.is_some() => line.push_str("; no advance"),
            Advance::None => {}
        }
        if !losses.is_empty() {
            line.push_str(&format!(
                "; losses {}",
                losses
                    .iter()
                    .map(|l| l.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let attack = Attack {
            target,
            attackers,
            fire,
            advance,
            advance_commander,
            losses,
            min_odds: a.minimum,
            all: a.all,
            otherwise: None,
        };
        if alternative {
            let Some(last) = self.out.orders.attacks.last_mut() else {
                return Err(Diagnostic::new(
                    Problem::Illegal,
                    span,
                    "'else' needs an attack on the line before",
                )
                .with_help("write the attack first, then 'else attack …'"));
            };
            let mut slot = &mut last.otherwise;
            while let Some(next) = slot {
                slot = &mut next.otherwise;
            }
            *slot = Some(Box::new(attack));
        } else {
            self.out.orders.attacks.push(attack);
        }
        self.out.understood.push((span, line));
        Ok(())
    }

    /// Odds and notes for every attack on the board after the moves.
    fn plan_attacks(&mut self) {
        let attacks = self.out.orders.attacks.clone();
        for (i, first) in attacks.iter().enumerate() {
            let mut next = Some(first);
            let mut alternative = false;
            while let Some(a) = next {
                let planned = self.plan(i + 1, a, alternative);
                self.out.attacks.push(planned);
                next = a.otherwise.as_deref();
                alternative = true;
            }
        }
    }

    fn plan(&self, index: usize, a: &Attack, alternative: bool) -> PlannedAttack {
        let b = &self.scratch;
        let mut notes = Vec::new();
        let defender = b.unit(&a.target).filter(|t| t.is_on_map()).cloned();
        let Some(d) = defender
            .filter(|d| b.relation(&self.side, d) != Relation::Friend && d.kind != Kind::Commander)
        else {
            notes.push(format!(
                "{} is not an enemy unit that can be attacked",
                a.target
            ));
            return PlannedAttack {
                index,
                alternative,
                target: a.target.clone(),
                odds: None,
                notes,
            };
        };
        let mut able = Vec::new();
        for u in &a.attackers {
            let fire = a.fire.contains(u);
            match combat::eligibility(b, &self.side, b.get(u), fire, &d) {
                Ok(()) => able.push(Attacker {
                    unit: u.clone(),
                    fire,
                }),
                Err(why) => notes.push(format!(
                    "{}: {}",
                    b.get(u).label(),
                    crate::games::furor::wording::drop(&why)
                )),
            }
        }
        if able.is_empty() {
            notes.push("no attacker can take part: the attack will be skipped".into());
            return PlannedAttack {
                index,
                alternative,
                target: a.target.clone(),
                odds: None,
                notes,
            };
        }
        let odds = strengths(b, self.options, &self.charges, &d, &able);
        if let Some(m) = a.min_odds.filter(|m| odds.column < *m) {
            notes.push(format!(
                "{} is under the minimum {m}: skipped as things stand",
                odds.column
            ));
        }
        if let [only] = able.as_slice() {
            let u = b.get(&only.unit);
            if !only.fire
                && u.kind.is_missile()
                && !u.has(Mark::NoMeleePenalty)
                && odds.column < crate::games::furor::rules::crt::Column::ThreeTwo
            {
                notes.push("a missile unit on its own attacks hand to hand only above 1/1 (§9.3): skipped as things stand".into());
            }
        }
        if d.role == Some(Role::Breton) && b.rules.breton_evasion {
            notes.push("the Bretons may evade before the die (Vouillé rule 1)".into());
        }
        PlannedAttack {
            index,
            alternative,
            target: a.target.clone(),
            odds: Some(odds),
            notes,
        }
    }

    fn reaction(&mut self, span: Span, w: &Written) -> Result<(), Diagnostic<Problem>> {
        let line = match w {
            Written::Retreat { unit, hexes: h } => {
                let id = self.own(unit)?;
                self.out.reactions.retreat.insert(id.clone(), h.clone());
                self.out.orders.retreat.insert(id.clone(), h.clone());
                format!("retreat {id} {}", hexes(h))
            }
            Written::DefenderAdvance {
                unit,
                into,
                commander,
            } => {
                let id = self.own(unit)?;
                self.out.reactions.advance_commander = *commander;
                self.out.reactions.advance = match (into, &self.out.reactions.advance) {
                    (Some(h), DefenderAdvance::Into(m)) => {
                        let mut m = m.clone();
                        m.insert(id.clone(), *h);
                        DefenderAdvance::Into(m)
                    }
                    (Some(h), _) => DefenderAdvance::Into([(id.clone(), *h)].into()),
                    (None, _) => DefenderAdvance::Unit(id.clone()),
                };
                format!(
                    "advance {id}{}{}",
                    into.map(|h| format!(" into {h}")).unwrap_or_default(),
                    if *commander { " with commander" } else { "" }
                )
            }
            Written::NoDefenderAdvance => {
                self.out.reactions.advance = DefenderAdvance::Stay;
                "no advance".into()
            }
            Written::Evade { unit, when } => {
                let id = self.own(unit)?;
                if self.board.get(&id).role != Some(Role::Breton) {
                    return Err(Diagnostic::new(
                        Problem::Illegal,
                        unit.span,
                        format!(
                            "{} is not the Breton cavalry: only it evades (Vouillé rule 1)",
                            self.board.get(&id).label()
                        ),
                    ));
                }
                self.out.reactions.evasion.insert(id.clone(), *when);
                match when {
                    super::Evasion::Always => format!("evade {id} always"),
                    super::Evasion::Never => format!("evade {id} never"),
                    super::Evasion::AtOdds(c) => format!("evade {id} at {c}"),
                }
            }
            Written::ImpetuousRoute { unit, path } => {
                let id = resolve(self.board, unit)?;
                let u = self.board.get(&id);
                if u.side == self.side || !u.has(Mark::Impetuous) {
                    return Err(Diagnostic::new(
                        Problem::Illegal,
                        unit.span,
                        format!("{} is not an enemy impetuous unit", u.label()),
                    )
                    .with_note(
                        "you choose the path of the enemy's impetuous units (scenario 1 rule 6)",
                    ));
                }
                self.out
                    .reactions
                    .impetuous_routes
                    .insert(id.clone(), path.clone());
                self.out
                    .orders
                    .impetuous_routes
                    .insert(id.clone(), path.clone());
                format!("impetuous {id} by {}", hexes(path))
            }
            _ => unreachable!("unit lines and attacks are handled before"),
        };
        self.out.understood.push((span, line));
        Ok(())
    }
}
