//! The generals: scripted players of Furor Barbarus. Each player-turn the
//! phasing general looks at the board and writes its orders as order text
//! — the language a player mails (docs/furor-barbarus/guide.md) — and the
//! other general writes its standing reactions; both sheets then go
//! through `orders::check`, as a player's mail does, so every game the
//! generals play is a legal game.
//!
//! What a general writes, in the order of a sheet:
//! - **feigned flights** (Campus Mauriacus rule 3): a unit with the mark
//!   draws out an isolated enemy within reach, as its whole move, before
//!   anyone else moves;
//! - **charges** (§9.2): cavalry that may charge takes a straight line of
//!   open hexes to an enemy in the open when the odds of the charge (with
//!   the +2) are good enough for the style;
//! - **moves**, nearest the enemy first: a unit already in an enemy zone
//!   of control stays to fight; the others march by the legal routes
//!   `movement::reachable` gives on a copy of the board moved as the
//!   sheet goes (the same copy the checker keeps), and enter a zone of
//!   control only where the odds they could make there are good enough;
//!   a cautious army stands two hexes off, in good ground, and its archers
//!   stay out of contact within range (an aggressive army's foot archers
//!   too: next to an enemy a lone archer may neither attack nor fire); a general whom the scenario's
//!   last-turn condition favours waits if cautious; an aggressive one
//!   the condition goes against, in its last turns, comes into contact
//!   where a unit's strength adds most to the points of the enemy's
//!   threshold still needed (`race_worth`), counting the friends that
//!   can still come next to that enemy in the same march (`Plan::coming`),
//!   so that the first to go is not held back by odds the next will mend;
//! - **commanders** follow the unit they stand with, or join the strongest
//!   unit they command within reach (never left alone);
//! - **attacks**, best odds first, each with the fewest attackers that
//!   keep its column (an aggressive general then spreads them where the
//!   expected points grow most, `Plan::weigh` — a retreat the defender
//!   cannot make counted as the step it costs, a kill worth no more than
//!   the enemy's threshold still needs, and in its last player-turn
//!   against the clock the chance to reach that threshold first), a `min`
//!   so a changed board skips it, an `advance`
//!   (with the commander if he stands there) or `no advance`;
//! - **impetuous routes** (Campus Mauriacus rule 6): for an enemy
//!   impetuous unit its archers fire upon, the path of its rush, into open
//!   ground next to as much of the army's strength as it can be brought;
//! - **retreat preferences** for every unit that may have to fall back:
//!   out of enemy zones, towards the army's home edge, good ground first
//!   for a cautious general.
//!
//! The standing reactions for the other side's turn: retreat preferences,
//! the defenders' advance (`advance UNIT with commander`, or `no advance`)
//! and, at Vouillé, when the Bretons evade.
//!
//! ```
//! use umpire::games::furor::orders::check::check;
//! use umpire::games::furor::sim::general::{player_turn, standing};
//! use umpire::games::furor::{options::Options, scenario::shipped};
//! use umpire::sim::Style;
//! let options = Options::default();
//! let board = shipped("vouille").unwrap().start(&options, &Default::default(), &"visigoths".into()).unwrap();
//! for style in Style::ALL {
//!     let text = player_turn(&board, &options, style);
//!     assert!(!check(&text, &"visigoths".into(), &board, &options).has_errors(), "{text}");
//!     let text = standing(&board, &options, &"franks".into(), style);
//!     assert!(!check(&text, &"franks".into(), &board, &options).has_errors(), "{text}");
//! }
//! ```
//!
//! A general is a pure function of the board: the same board gives the
//! same sheet, so a game replays from its seed.

use crate::games::furor::board::{Board, Outcome, Relation, Role, SideId, Unit, UnitId};
use crate::games::furor::charge;
use crate::games::furor::combat::{eligibility, missile_alone_too_weak, strengths, Attacker};
use crate::games::furor::hex::{Direction, Hex};
use crate::games::furor::movement::{check_walk, reachable, Start};
use crate::games::furor::options::Options;
use crate::games::furor::rules::crt::{column_for, Column, Crt};
use crate::games::furor::rules::{Kind, Mark};
use crate::games::furor::sim::odds::{self, Cornered};
use crate::games::furor::special::feigned_flight;
use crate::games::furor::{morale, retreat, victory, zoc};
use crate::sim::Style;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The numbers a style plays by: the generals' habits, not the book's
/// rules (those are read from `rules` through the engine's functions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doctrine {
    /// The least column (after terrain) the general attacks at; every
    /// attack it writes carries it as its `min`.
    pub attack_at: Column,
    /// The same when the scenario's last-turn condition goes against it
    /// and the last turns have come (`pressed_turns`).
    pub pressed_attack_at: Column,
    /// The least column a charge (with its +2, the charger alone) is worth.
    pub charge_at: Column,
    /// The least column a unit could make, with the friends already next
    /// to the enemy, for it to march into an enemy zone of control.
    pub contact_at: Column,
    /// Turns from the end in which a general losing on time is pressed
    /// (`u8::MAX`: from the first turn, whenever the clock is against it).
    pub pressed_turns: u8,
    /// While the scenario's condition at the last turn favours its army,
    /// it stands and strikes only at `attack_at` from where it stands.
    pub waits_when_ahead: bool,
    /// Ends moves in good ground (a hex that shifts the odds for the
    /// defender) when it costs no distance.
    pub good_ground: bool,
    /// Missile units stay out of enemy zones and fire from a distance.
    pub archers_stand_off: bool,
    /// Foot archers do (whatever `archers_stand_off` says of horse
    /// archers): next to an enemy a lone archer may not attack it (§9.3),
    /// and in its zone it may not fire at all.
    pub foot_archers_stand_off: bool,
    /// Attackers advance after combat, and a commander goes along.
    pub advance: bool,
    /// Defenders advance into a hex an attacker left (a standing reaction).
    pub defender_advance: bool,
    /// The Bretons evade only at this column or worse for them (`None`: always).
    pub evade_at: Option<Column>,
    /// A commander joins a unit in contact (else one out of contact if he can).
    pub commander_in_front: bool,
    /// Retreat preferences: as many hexes as this, first first.
    pub retreat_hexes: usize,
    /// When the last turn's condition goes against the army and no more
    /// than this many of its turns are left after the present one, a unit
    /// out of contact comes into contact where its strength adds most to
    /// the points of the enemy's threshold still needed, in the attacks
    /// left (`race_worth`); else, or `None`, it closes on the nearest enemy.
    pub races_the_clock: Option<u8>,
    /// The attacks are spread where the expected points grow most
    /// (`Plan::weigh`), not piled on the best odds.
    pub weighs_attacks: bool,
}

const CAUTIOUS: Doctrine = Doctrine {
    attack_at: Column::TwoOne,
    pressed_attack_at: Column::ThreeTwo,
    charge_at: Column::TwoOne,
    contact_at: Column::ThreeTwo,
    pressed_turns: 2,
    waits_when_ahead: true,
    good_ground: true,
    archers_stand_off: true,
    foot_archers_stand_off: true,
    advance: false,
    defender_advance: false,
    evade_at: None,
    commander_in_front: false,
    retreat_hexes: 3,
    races_the_clock: None,
    weighs_attacks: false,
};

const AGGRESSIVE: Doctrine = Doctrine {
    attack_at: Column::ThreeTwo,
    pressed_attack_at: Column::OneOne,
    charge_at: Column::OneOne,
    contact_at: Column::OneOne,
    pressed_turns: u8::MAX,
    waits_when_ahead: false,
    good_ground: false,
    archers_stand_off: false,
    foot_archers_stand_off: true,
    advance: true,
    defender_advance: true,
    evade_at: Some(Column::ThreeOne),
    commander_in_front: true,
    retreat_hexes: 2,
    races_the_clock: Some(3),
    weighs_attacks: true,
};

impl Doctrine {
    /// The numbers of a style.
    pub fn of(style: Style) -> &'static Doctrine {
        match style {
            Style::Cautious => &CAUTIOUS,
            Style::Aggressive => &AGGRESSIVE,
        }
    }
}

fn enemies<'a>(board: &'a Board, side: &'a SideId) -> impl Iterator<Item = &'a Unit> + 'a {
    board.units.values().filter(move |e| {
        e.is_on_map()
            && e.hex.is_some()
            && e.is_combat()
            && board.relation(side, e) == Relation::Enemy
    })
}

fn own<'a>(board: &'a Board, side: &'a SideId) -> impl Iterator<Item = &'a Unit> + 'a {
    board
        .units
        .values()
        .filter(move |u| &u.side == side && u.is_on_map() && u.hex.is_some())
}

fn nearest_enemy(board: &Board, side: &SideId, h: Hex) -> Option<u16> {
    enemies(board, side)
        .filter_map(|e| e.hex)
        .map(|e| e.distance(h))
        .min()
}

/// Whether the scenario's condition at the end of the last turn, as the
/// losses stand, gives the side the game (O27 and §12 through `victory`).
pub fn time_favours(board: &Board, side: &SideId) -> bool {
    match victory::end_of_game(board) {
        Outcome::Major(s) | Outcome::Minor(s) => &s == side,
        Outcome::Tie => false,
    }
}

fn turns_left(board: &Board) -> u8 {
    board
        .last_turn
        .map_or(u8::MAX, |l| l.saturating_sub(board.turn))
}

/// The column a unit standing in `h` could make on `enemy`, with the
/// friends already next to it and `coming` more strength (the friends
/// that can still come this player-turn, `Plan::coming`): the engine's
/// odds are for the attack phase, this is the marching estimate (full
/// strengths, the defender's ground shift).
fn contact_column(board: &Board, u: &Unit, h: Hex, enemy: &Unit, coming: u16) -> Column {
    let Some(eh) = enemy.hex else {
        return Column::HalfOrLess;
    };
    let friends: u16 = eh
        .neighbours()
        .into_iter()
        .filter(|n| *n != h && Some(*n) != u.hex)
        .flat_map(|n| board.at(n))
        .filter(|f| f.side == u.side && f.is_combat() && f.id != u.id)
        .map(|f| u16::from(f.current_strength()))
        .sum();
    let defence = u16::from(enemy.current_strength())
        + board
            .at(eh)
            .filter(|c| c.kind == Kind::Commander && c.side == enemy.side)
            .map(|c| u16::from(c.strength))
            .sum::<u16>();
    column_for(friends + coming + u16::from(u.current_strength()), defence)
        .shifted_left(board.map.terrain(eh).column_shift())
}

/// What the unit's elimination costs its army, with the commanders
/// stacked with it, who fall with it (§6, §10).
fn loss_with_commanders(board: &Board, u: &Unit) -> u16 {
    let stacked: u16 = u.hex.map_or(0, |h| {
        board
            .at(h)
            .filter(|c| c.kind == Kind::Commander && c.side == u.side)
            .map(Unit::loss_value)
            .sum()
    });
    u.loss_value() + stacked
}

/// The points of the side's Army Morale Threshold still to be lost
/// (`None`: the side has none).
fn still_needed(board: &Board, side: &SideId) -> Option<u16> {
    let threshold = board.sides.get(side)?.threshold?;
    Some(threshold.saturating_sub(board.lost(side)))
}

/// What a retreat would do to the unit as the board stands (§9.8, O24):
/// a unit with baggage ignores it (§9.4).
fn cornered(board: &Board, options: &Options, u: &Unit) -> Cornered {
    if retreat::held_by_baggage(board, u) {
        return Cornered::Free;
    }
    match retreat::choose(board, options, u, &[], &|_| Vec::new(), &BTreeSet::new()) {
        retreat::Choice::Moves(_) => Cornered::Free,
        retreat::Choice::Blocked => Cornered::Blocked,
        retreat::Choice::OffMap => Cornered::OffMap,
    }
}

/// What one attack of a plan is expected to bring (`Plan::attack_yield`).
#[derive(Debug, Clone, Default)]
struct Yield {
    /// The expected points (in thousandths of 36ths), less the attackers.
    worth: i64,
    /// The chance, in 36ths, that the defender is eliminated.
    kill: u32,
    /// The points its elimination brings (no more than are needed).
    points: u16,
    /// The defender's army.
    side: Option<SideId>,
}

/// The steps a combat at `column` takes from a defender of morale
/// `morale`, in 36ths (the die's six rows, a morale check's six faces).
fn expected_steps(column: Column, morale: u8) -> u32 {
    expected_steps_plus(column, morale, 0)
}

/// `expected_steps` with `plus` added to the die (§9.6's modifiers).
fn expected_steps_plus(column: Column, morale: u8, plus: u8) -> u32 {
    (1..=6u8)
        .map(|roll| {
            let r = Crt::BOOK.result(column, roll.saturating_add(plus));
            if r.on_attacker() {
                0
            } else if r.tests_morale() {
                u32::from(6u8.saturating_sub(morale))
            } else {
                6 * u32::from(r.steps())
            }
        })
        .sum()
}

/// What standing in `at`, next to `enemy`, is worth to a unit of a
/// general racing the clock with `left` turns after this one: the points
/// of the enemy's threshold still to take that its loss brings (with the
/// commanders who fall with it; no more than are needed), times the share
/// of its steps that the unit's strength adds to the attacks of the
/// friends already next to it, over the attacks left (this one and one a
/// turn).
fn race_worth(
    board: &Board,
    options: &Options,
    u: &Unit,
    at: Hex,
    enemy: &Unit,
    left: u8,
    coming: u16,
) -> u64 {
    let Some(need) = still_needed(board, &enemy.side) else {
        return 0;
    };
    let value = u64::from(loss_with_commanders(board, enemy).min(need));
    let attacks = u32::from(left) + 1;
    let morale = morale::value(board, options, enemy);
    let with = expected_steps(contact_column(board, u, at, enemy, coming), morale);
    let alone = Unit {
        strength: 0,
        reduced: None,
        elite: false,
        ..u.clone()
    };
    let without = expected_steps(contact_column(board, &alone, at, enemy, coming), morale);
    let steps = u32::from(enemy.steps.max(1));
    let gain = (with.saturating_sub(without) * attacks).min(36 * steps);
    value * u64::from(gain) * 60 / u64::from(steps)
}

/// What standing in `h` is worth to a unit racing the clock: the most
/// `race_worth` of the enemies it would be next to (`coming`: the
/// friends' strength that can still join it on each).
fn race_worth_at(
    board: &Board,
    options: &Options,
    u: &Unit,
    h: Hex,
    left: u8,
    coming: &dyn Fn(&Unit) -> u16,
) -> u64 {
    zoc::adjacent_enemies(board, &u.side, h)
        .filter(|e| board.relation(&u.side, e) == Relation::Enemy && e.kind != Kind::Commander)
        .map(|e| race_worth(board, options, u, h, e, left, coming(e)))
        .max()
        .unwrap_or(0)
}

/// The worst column a unit in `h` could make on the enemies it would be
/// next to (it must be able to fight each of them), with the friends'
/// strength that can still join it on each (`coming`).
fn worst_contact(board: &Board, u: &Unit, h: Hex, coming: &dyn Fn(&Unit) -> u16) -> Option<Column> {
    zoc::adjacent_enemies(board, &u.side, h)
        .filter(|e| board.relation(&u.side, e) == Relation::Enemy)
        .map(|e| contact_column(board, u, h, e, coming(e)))
        .min()
}

fn engaged(board: &Board, options: &Options, side: &SideId, h: Hex) -> bool {
    zoc::in_enemy_zoc(board, options, side, h)
}

fn hexes(path: &[Hex]) -> String {
    path.iter()
        .map(Hex::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// An attack the general chose: its target, the attackers before
/// trimming, their column and the `min` it is written with.
struct Choice {
    target: UnitId,
    with: Vec<Attacker>,
    column: Column,
    /// Whether a charger of this player-turn is among the attackers.
    charged: bool,
    worth: Column,
}

impl Choice {
    /// Best odds first, a charge's target before others, then by name.
    fn rank(&self) -> (Column, bool, std::cmp::Reverse<&UnitId>) {
        (self.column, self.charged, std::cmp::Reverse(&self.target))
    }
}

/// What the general is doing this player-turn.
struct Plan<'a> {
    side: SideId,
    options: &'a Options,
    doctrine: &'static Doctrine,
    /// The board as the sheet so far leaves it (as the checker keeps it).
    scratch: Board,
    lines: Vec<String>,
    moved: BTreeSet<UnitId>,
    /// Where the units that moved came from.
    from: BTreeMap<UnitId, Hex>,
    /// Allowed charges: charger and target.
    charges: BTreeMap<UnitId, UnitId>,
    waiting: bool,
    /// Racing the clock (`Doctrine::races_the_clock`): the turns left after this one.
    racing: Option<u8>,
    /// Racing the clock: where each unit yet to march this player-turn
    /// could end its move (on the board as the march began).
    reach: BTreeMap<UnitId, BTreeSet<Hex>>,
    attack_at: Column,
    /// Enemy units the attacks fire upon.
    fired_on: BTreeSet<UnitId>,
}

/// The phasing side's orders for this player-turn on `board`, as the text
/// a player would mail (order lines only, no mail header).
pub fn player_turn(board: &Board, options: &Options, style: Style) -> String {
    let doctrine = Doctrine::of(style);
    let mut plan = Plan::new(board, options, doctrine);
    plan.feigned_flights();
    plan.march();
    plan.commanders();
    let attackers = plan.attacks();
    plan.impetuous_routes();
    let mut text = plan.lines.join("\n");
    let retreats = retreat_lines(
        &plan.scratch,
        options,
        &plan.side,
        doctrine,
        Some(&attackers),
    );
    for l in retreats {
        text.push('\n');
        text.push_str(&l);
    }
    text.push('\n');
    text
}

impl<'a> Plan<'a> {
    /// The phasing side's plan on `board`, nothing written yet.
    fn new(board: &Board, options: &'a Options, doctrine: &'static Doctrine) -> Plan<'a> {
        let side = board.phasing().clone();
        let ahead = time_favours(board, &side);
        let left = turns_left(board);
        let pressed = !ahead && left < doctrine.pressed_turns;
        let racing = doctrine
            .races_the_clock
            .filter(|r| !ahead && board.last_turn.is_some() && left <= *r)
            .map(|_| left);
        Plan {
            side,
            options,
            doctrine,
            scratch: board.clone(),
            lines: Vec::new(),
            moved: BTreeSet::new(),
            from: BTreeMap::new(),
            charges: BTreeMap::new(),
            waiting: doctrine.waits_when_ahead && ahead,
            racing,
            reach: BTreeMap::new(),
            attack_at: if pressed {
                doctrine.pressed_attack_at
            } else {
                doctrine.attack_at
            },
            fired_on: BTreeSet::new(),
        }
    }

    /// Campus Mauriacus rule 3: each marked unit not in contact draws out
    /// the nearest enemy the rule allows (the whole of its move).
    fn feigned_flights(&mut self) {
        let mut targeted = BTreeSet::new();
        let marked: Vec<UnitId> = own(&self.scratch, &self.side)
            .filter(|u| u.has(Mark::FeignedFlight) && u.is_combat())
            .map(|u| u.id.clone())
            .collect();
        for id in marked {
            let u = self.scratch.get(&id);
            let Some(at) = u.hex else { continue };
            if engaged(&self.scratch, self.options, &self.side, at) {
                continue;
            }
            let mut targets: Vec<(u16, UnitId)> = enemies(&self.scratch, &self.side)
                .filter_map(|e| e.hex.map(|h| (h.distance(at), e.id.clone())))
                .filter(|(d, _)| *d >= 2)
                .collect();
            targets.sort();
            let found = targets.into_iter().map(|(_, t)| t).find(|t| {
                feigned_flight::allowed(&self.scratch, self.options, &self.side, &id, t, &targeted)
                    .is_ok()
            });
            if let Some(t) = found {
                self.lines.push(format!("{id}: feigned flight at {t}"));
                targeted.insert(t);
                self.moved.insert(id);
            }
        }
    }

    /// Charges and moves, the units nearest the enemy first.
    fn march(&mut self) {
        let mut movers: Vec<(u16, UnitId)> = own(&self.scratch, &self.side)
            .filter(|u| u.is_combat() && !self.moved.contains(&u.id))
            .filter_map(|u| {
                let h = u.hex?;
                Some((nearest_enemy(&self.scratch, &self.side, h)?, u.id.clone()))
            })
            .collect();
        movers.sort();
        if self.racing.is_some() {
            self.reach = self.reaches(movers.iter().map(|(_, id)| id));
        }
        for (_, id) in movers {
            self.reach.remove(&id);
            let u = self.scratch.get(&id).clone();
            let Some(at) = u.hex else { continue };
            if engaged(&self.scratch, self.options, &self.side, at) {
                continue;
            }
            if let Some((target, path)) = self.best_charge(&u, at) {
                self.lines
                    .push(format!("{id}: charge {target} by {}", hexes(&path)));
                self.go(&id, &path);
                self.charges.insert(id, target);
                continue;
            }
            if let Some(path) = self.best_move(&u, at) {
                self.lines.push(format!("{id}: move {}", hexes(&path)));
                self.go(&id, &path);
            }
        }
    }

    /// Where each of `ids` that is free to march and comes to fight hand
    /// to hand (not an archer) could end its move this player-turn.
    fn reaches<'i>(
        &self,
        ids: impl Iterator<Item = &'i UnitId>,
    ) -> BTreeMap<UnitId, BTreeSet<Hex>> {
        let b = &self.scratch;
        ids.filter_map(|id| {
            let u = b.get(id);
            let at = u.hex?;
            if u.kind.is_missile() || engaged(b, self.options, &self.side, at) {
                return None;
            }
            let hexes = reachable(b, self.options, u, Start::fresh(b, u, at))
                .into_keys()
                .collect();
            Some((id.clone(), hexes))
        })
        .collect()
    }

    /// The strength that can still come next to `enemy` this player-turn
    /// besides a unit ending in `h`: the strongest of the units yet to
    /// march (`reach`) that could end in a free hex next to it, one a hex.
    fn coming(&self, h: Hex, enemy: &Unit) -> u16 {
        let b = &self.scratch;
        let Some(eh) = enemy.hex else { return 0 };
        let free: Vec<Hex> = eh
            .neighbours()
            .into_iter()
            .filter(|n| *n != h && b.map.contains(*n) && b.at(*n).next().is_none())
            .collect();
        let mut strengths: Vec<u16> = self
            .reach
            .iter()
            .filter(|(_, r)| free.iter().any(|n| r.contains(n)))
            .map(|(id, _)| u16::from(b.get(id).current_strength()))
            .collect();
        strengths.sort_unstable();
        strengths.into_iter().rev().take(free.len()).sum()
    }

    fn go(&mut self, id: &UnitId, path: &[Hex]) {
        if let Some(from) = self.scratch.get(id).hex {
            self.from.insert(id.clone(), from);
        }
        if let Some(&to) = path.last() {
            self.scratch.get_mut(id).hex = Some(to);
        }
        self.moved.insert(id.clone());
    }

    /// The best charge the unit can make now, if its odds are worth it.
    fn best_charge(&self, u: &Unit, at: Hex) -> Option<(UnitId, Vec<Hex>)> {
        if !charge::may_charge(&self.scratch, u) {
            return None;
        }
        let reach = usize::from(u.mp);
        let mut best: Option<(Column, u16, UnitId, Vec<Hex>)> = None;
        for t in enemies(&self.scratch, &self.side) {
            let th = t.hex?;
            let d = th.distance(at);
            if d < 2 || usize::from(d) > reach + 1 || self.charges.values().any(|c| *c == t.id) {
                continue;
            }
            for dir in Direction::ALL {
                let line = at.line(dir, usize::from(d));
                if line.last() != Some(&th) || !line.iter().all(|h| self.scratch.map.contains(*h)) {
                    continue;
                }
                let path = &line[..line.len() - 1];
                if charge::check(&self.scratch, self.options, u, path, &t.id).is_err()
                    || check_walk(
                        &self.scratch,
                        self.options,
                        u,
                        Start::fresh(&self.scratch, u, at),
                        path,
                    )
                    .is_err()
                {
                    continue;
                }
                let mut after = self.scratch.clone();
                after.get_mut(&u.id).hex = path.last().copied();
                let mut charges = self.charges.clone();
                charges.insert(u.id.clone(), t.id.clone());
                let me = [Attacker {
                    unit: u.id.clone(),
                    fire: false,
                }];
                if eligibility(&after, &self.side, after.get(&u.id), false, t).is_err() {
                    continue;
                }
                let column = strengths(&after, self.options, &charges, t, &me).column;
                let better = best.as_ref().is_none_or(|(c, bd, bid, _)| {
                    (column, std::cmp::Reverse(d), std::cmp::Reverse(&t.id))
                        > (*c, std::cmp::Reverse(*bd), std::cmp::Reverse(bid))
                });
                if better {
                    best = Some((column, d, t.id.clone(), path.to_vec()));
                }
            }
        }
        let (column, _, target, path) = best?;
        let worth = if self.waiting {
            self.attack_at.max(self.doctrine.charge_at)
        } else {
            self.doctrine.charge_at
        };
        (column >= worth).then_some((target, path))
    }

    /// Where the unit goes: the hex of the doctrine's choice among those
    /// it can reach, or `None` to stay.
    fn best_move(&self, u: &Unit, at: Hex) -> Option<Vec<Hex>> {
        let d = self.doctrine;
        let archer = u.kind.is_missile()
            && (d.archers_stand_off
                || (d.foot_archers_stand_off && u.kind == Kind::MissileInfantry));
        let racing = self.racing.filter(|_| !archer);
        // Lower is better; `None`: the doctrine forbids ending there.
        let key = |h: Hex, path: &[Hex]| {
            let contact = engaged(&self.scratch, self.options, &self.side, h);
            let allowed = if !contact {
                !self.waiting || h == at
            } else if archer {
                false
            } else {
                let worst = worst_contact(&self.scratch, u, h, &|e| self.coming(h, e))
                    .unwrap_or(Column::HalfOrLess);
                worst
                    >= if self.waiting {
                        self.attack_at
                    } else {
                        d.contact_at
                    }
            };
            let distance = nearest_enemy(&self.scratch, &self.side, h).unwrap_or(u16::MAX);
            let worth = match racing {
                Some(left) if contact => {
                    race_worth_at(&self.scratch, self.options, u, h, left, &|e| {
                        self.coming(h, e)
                    })
                }
                _ => 0,
            };
            let ground = if d.good_ground {
                self.scratch.map.terrain(h).column_shift()
            } else {
                0
            };
            allowed.then_some((
                std::cmp::Reverse(worth),
                archer && distance > u.range,
                distance,
                std::cmp::Reverse(ground),
                path.len(),
                h,
            ))
        };
        let stay = key(at, &[]);
        let start = Start::fresh(&self.scratch, u, at);
        let (best, path) = reachable(&self.scratch, self.options, u, start)
            .into_iter()
            .filter_map(|(h, (_, p))| key(h, &p).map(|k| (k, p)))
            .min()?;
        stay.is_none_or(|s| best < s).then_some(path)
    }

    /// Commanders stay with their stack: one whose unit stays stays; one
    /// whose unit moved follows it if he can; one alone joins the
    /// strongest unit he commands within reach (in contact or not, by the
    /// style).
    fn commanders(&mut self) {
        let ids: Vec<UnitId> = own(&self.scratch, &self.side)
            .filter(|c| c.kind == Kind::Commander)
            .map(|c| c.id.clone())
            .collect();
        for id in ids {
            let c = self.scratch.get(&id).clone();
            let Some(at) = c.hex else { continue };
            if self
                .scratch
                .at(at)
                .any(|u| u.side == c.side && u.is_combat())
            {
                continue;
            }
            let followed: BTreeSet<Hex> = self
                .from
                .iter()
                .filter(|(_, h)| **h == at)
                .filter_map(|(m, _)| self.scratch.get(m).hex)
                .collect();
            let reach = reachable(
                &self.scratch,
                self.options,
                &c,
                Start::fresh(&self.scratch, &c, at),
            );
            let best = reach
                .iter()
                .filter_map(|(h, (_, path))| {
                    let u = self
                        .scratch
                        .at(*h)
                        .find(|u| u.side == c.side && u.is_combat())?;
                    let contact = engaged(&self.scratch, self.options, &self.side, *h);
                    let k = (
                        followed.contains(h),
                        morale::commands(self.options, &c, u),
                        contact == self.doctrine.commander_in_front,
                        u.current_strength(),
                        std::cmp::Reverse(h.distance(at)),
                        std::cmp::Reverse(*h),
                    );
                    Some((k, path.clone()))
                })
                .max_by(|a, b| a.0.cmp(&b.0));
            if let Some((_, path)) = best {
                self.lines.push(format!("{id}: move {}", hexes(&path)));
                self.go(&id, &path);
            }
        }
    }

    /// The attacks, best odds first; the units that take part.
    fn attacks(&mut self) -> BTreeSet<UnitId> {
        let mut used: BTreeSet<UnitId> = BTreeSet::new();
        let mut done: BTreeSet<UnitId> = BTreeSet::new();
        let mut chosen = Vec::new();
        while let Some(mut c) = self.next_attack(&used, &done) {
            let t = self.scratch.get(&c.target).clone();
            c.with = self.trim(&t, c.with, c.column);
            used.extend(c.with.iter().map(|a| a.unit.clone()));
            done.insert(c.target.clone());
            chosen.push(c);
        }
        if self.doctrine.weighs_attacks {
            chosen = self.weigh(chosen);
        }
        let mut used = BTreeSet::new();
        let mut out = Vec::new();
        for Choice {
            target,
            with,
            worth,
            ..
        } in chosen
        {
            let t = self.scratch.get(&target).clone();
            used.extend(with.iter().map(|a| a.unit.clone()));
            if with.iter().any(|a| a.fire) {
                self.fired_on.insert(target.clone());
            }
            out.push(self.attack_line(&t, &with, worth));
        }
        self.lines.extend(out);
        used
    }

    /// What an attack is expected to bring (`None`: the doctrine or the
    /// rules would not let it be made): the defender's loss value, with
    /// the commanders who fall with it and no more than its army's
    /// threshold still needs, times the share of its steps the table and
    /// the morale die are expected to take (a retreat it cannot make
    /// taking a step, `cornered`); less one for each attacker, so that
    /// none is spent for nothing.
    fn attack_yield(
        &self,
        t: &Unit,
        with: &[Attacker],
        worth: Column,
        cornered: Cornered,
    ) -> Option<Yield> {
        if with.is_empty() {
            return Some(Yield::default());
        }
        let b = &self.scratch;
        if with.iter().all(|a| a.fire) && t.kind.is_missile() {
            return None;
        }
        let odds = strengths(b, self.options, &self.charges, t, with);
        if odds.column < worth || missile_alone_too_weak(b, with, odds.column) {
            return None;
        }
        let plus = u8::try_from(odds.modifiers.len()).unwrap_or(u8::MAX);
        let morale = morale::value(b, self.options, t);
        let steps = t.steps.max(1);
        let taken = odds::combat(self.options, odds.column, plus, morale, steps, cornered);
        let points = still_needed(b, &t.side).map_or(loss_with_commanders(b, t), |need| {
            loss_with_commanders(b, t).min(need)
        });
        let share = i64::from(taken.steps * 1000 / u32::from(steps));
        Some(Yield {
            worth: i64::from(points) * share - i64::try_from(with.len()).unwrap_or(i64::MAX),
            kill: taken.kill,
            points,
            side: Some(t.side.clone()),
        })
    }

    /// What the attacks of a plan are worth together: the sum of their
    /// `Yield::worth`; in the last player-turn of a general racing the
    /// clock, first the chance that they take the points the enemy's
    /// threshold still needs (a step that kills nothing counts for
    /// nothing then, §10, O27).
    fn plan_worth(&self, yields: &[Yield]) -> i64 {
        let sum: i64 = yields.iter().map(|y| y.worth).sum();
        let enemy = self.scratch.opponent(&self.side);
        let need = enemy.and_then(|e| still_needed(&self.scratch, e));
        match (self.racing, need) {
            (Some(0), Some(need)) => {
                let kills: Vec<(u32, u16)> = yields
                    .iter()
                    .filter(|y| y.side.as_ref() == enemy)
                    .map(|y| (y.kill, y.points))
                    .collect();
                // Chances to the millionth of a millionth, then the sum.
                let chance = (odds::reaching(&kills, need) * 1e12).round() as i64;
                chance.saturating_mul(1000).saturating_add(sum)
            }
            _ => sum,
        }
    }

    /// Spread the attacks (`Doctrine::weighs_attacks`): starting from
    /// the attacks chosen best odds first, move one attacker at a time
    /// (never a charger) to the attack, new or not, where the attacks'
    /// worth together grows most (`plan_worth`: the expected points; in
    /// the last player-turn against the clock, the chance to break the
    /// enemy), until no move adds any.
    fn weigh(&self, chosen: Vec<Choice>) -> Vec<Choice> {
        let b = &self.scratch;
        let none = BTreeSet::new();
        let mut plan: Vec<Choice> = chosen;
        for t in b.units.values().filter(|t| {
            t.is_on_map()
                && t.hex.is_some()
                && t.kind != Kind::Commander
                && b.relation(&self.side, t) == Relation::Enemy
        }) {
            if plan.iter().all(|c| c.target != t.id) && self.attackers(t, &none).is_some() {
                plan.push(Choice {
                    target: t.id.clone(),
                    with: Vec::new(),
                    column: Column::HalfOrLess,
                    charged: false,
                    worth: self.attack_at,
                });
            }
        }
        let can: Vec<Vec<Attacker>> = plan
            .iter()
            .map(|c| {
                self.attackers(b.get(&c.target), &none)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|a| !self.charges.contains_key(&a.unit))
                    .collect()
            })
            .collect();
        let heads: Vec<(UnitId, Column, Cornered)> = plan
            .iter()
            .map(|c| {
                (
                    c.target.clone(),
                    c.worth,
                    cornered(b, self.options, b.get(&c.target)),
                )
            })
            .collect();
        let value = |i: usize, with: &[Attacker]| {
            let (t, worth, corner) = &heads[i];
            self.attack_yield(b.get(t), with, *worth, *corner)
                .unwrap_or_default()
        };
        let mut units: Vec<UnitId> = can.iter().flatten().map(|a| a.unit.clone()).collect();
        units.sort();
        units.dedup();
        let mut yields: Vec<Yield> = plan
            .iter()
            .enumerate()
            .map(|(i, c)| value(i, &c.with))
            .collect();
        for _ in 0..64 {
            let Some((id, from, to)) = self.best_shift(&plan, &can, &units, &yields, &value) else {
                break;
            };
            if let Some(f) = from {
                plan[f].with.retain(|a| a.unit != id);
                yields[f] = value(f, &plan[f].with);
            }
            if let Some(t) = to {
                if let Some(a) = can[t].iter().find(|a| a.unit == id) {
                    plan[t].with.push(a.clone());
                }
                yields[t] = value(t, &plan[t].with);
            }
        }
        let mut out: Vec<Choice> = plan
            .into_iter()
            .filter(|c| {
                !c.with.is_empty()
                    && self
                        .attack_yield(b.get(&c.target), &c.with, c.worth, Cornered::Free)
                        .is_some()
            })
            .map(|mut c| {
                c.column =
                    strengths(b, self.options, &self.charges, b.get(&c.target), &c.with).column;
                c.charged = c
                    .with
                    .iter()
                    .any(|a| self.charges.get(&a.unit) == Some(&c.target));
                c
            })
            .collect();
        out.sort_by(|a, b| b.rank().cmp(&a.rank()));
        out
    }

    /// The one attacker to move (from the attack it is in, if any, to
    /// another attack or to none) that adds most to `plan_worth`, if any
    /// adds anything.
    fn best_shift(
        &self,
        plan: &[Choice],
        can: &[Vec<Attacker>],
        units: &[UnitId],
        yields: &[Yield],
        value: &dyn Fn(usize, &[Attacker]) -> Yield,
    ) -> Option<(UnitId, Option<usize>, Option<usize>)> {
        let now = self.plan_worth(yields);
        let mut best: Option<(i64, UnitId, Option<usize>, Option<usize>)> = None;
        for id in units {
            let from = plan
                .iter()
                .position(|c| c.with.iter().any(|a| &a.unit == id));
            let mut without = yields.to_vec();
            if let Some(f) = from {
                let rest: Vec<Attacker> = plan[f]
                    .with
                    .iter()
                    .filter(|a| &a.unit != id)
                    .cloned()
                    .collect();
                without[f] = value(f, &rest);
            }
            let mut consider = |to: Option<usize>, after: &[Yield]| {
                let delta = self.plan_worth(after) - now;
                if delta > 0 && best.as_ref().is_none_or(|b| delta > b.0) {
                    best = Some((delta, id.clone(), from, to));
                }
            };
            if from.is_some() {
                consider(None, &without);
            }
            for (to, options) in can.iter().enumerate() {
                if Some(to) == from {
                    continue;
                }
                let Some(a) = options.iter().find(|a| &a.unit == id) else {
                    continue;
                };
                let mut more = plan[to].with.clone();
                more.push(a.clone());
                let mut after = without.clone();
                after[to] = value(to, &more);
                consider(Some(to), &after);
            }
        }
        best.map(|(_, id, from, to)| (id, from, to))
    }

    /// The attack at the best odds left with the units not yet used, at a
    /// column the doctrine accepts (and the rules let be made).
    fn next_attack(&self, used: &BTreeSet<UnitId>, done: &BTreeSet<UnitId>) -> Option<Choice> {
        let b = &self.scratch;
        let mut best: Option<Choice> = None;
        for t in b.units.values().filter(|t| {
            t.is_on_map()
                && t.hex.is_some()
                && t.kind != Kind::Commander
                && b.relation(&self.side, t) == Relation::Enemy
                && !done.contains(&t.id)
        }) {
            let Some(with) = self.attackers(t, used) else {
                continue;
            };
            let odds = strengths(b, self.options, &self.charges, t, &with);
            let charged = with
                .iter()
                .any(|a| self.charges.get(&a.unit) == Some(&t.id));
            let worth = if charged {
                self.doctrine.charge_at.min(self.attack_at)
            } else {
                self.attack_at
            };
            if odds.column < worth || missile_alone_too_weak(b, &with, odds.column) {
                continue;
            }
            let choice = Choice {
                target: t.id.clone(),
                with,
                column: odds.column,
                charged,
                worth,
            };
            if best.as_ref().is_none_or(|b| choice.rank() > b.rank()) {
                best = Some(choice);
            }
        }
        best
    }

    /// Campus Mauriacus rule 6 (O34): an enemy impetuous unit our archers
    /// fire upon may rush at its closest enemy by the path we choose: into
    /// open ground, next to as much of our strength as it can be brought
    /// (the engine takes the path only if it is legal then, else its own).
    fn impetuous_routes(&mut self) {
        if !self.options.impetuousness {
            return;
        }
        let b = &self.scratch;
        let mut out = Vec::new();
        for id in &self.fired_on {
            let t = b.get(id);
            let Some(th) = t.hex.filter(|_| t.has(Mark::Impetuous)) else {
                continue;
            };
            if zoc::adjacent_enemies(b, &t.side, th).next().is_some() {
                continue;
            }
            let Some(closest) = enemies(b, &t.side)
                .filter_map(|e| e.hex)
                .min_by_key(|h| (h.distance(th), *h))
            else {
                continue;
            };
            let start = Start::fresh(b, t, th);
            let best = reachable(b, self.options, t, start)
                .into_iter()
                .filter(|(h, _)| h.distance(closest) < th.distance(closest))
                .filter(|(_, (_, p))| {
                    check_walk(b, self.options, t, start, p).is_ok_and(|w| !w.zoc_test)
                })
                .max_by_key(|(h, (_, p))| {
                    let around: u16 = zoc::adjacent_enemies(b, &t.side, *h)
                        .map(|u| u16::from(u.current_strength()))
                        .sum();
                    (
                        around,
                        std::cmp::Reverse(b.map.terrain(*h).column_shift()),
                        std::cmp::Reverse(p.len()),
                        std::cmp::Reverse(*h),
                    )
                });
            if let Some((_, (_, path))) = best {
                out.push(format!("impetuous {id} by {}", hexes(&path)));
            }
        }
        self.lines.extend(out);
    }

    /// Every unit that can join an attack on `t` now (chargers only on
    /// their own target), or `None` when no attack is possible.
    fn attackers(&self, t: &Unit, used: &BTreeSet<UnitId>) -> Option<Vec<Attacker>> {
        let b = &self.scratch;
        let th = t.hex?;
        let mut with = Vec::new();
        for u in own(b, &self.side).filter(|u| u.is_combat() && !used.contains(&u.id)) {
            if self.charges.get(&u.id).is_some_and(|c| *c != t.id) {
                continue;
            }
            let h = u.hex?;
            let fire = u.kind.is_missile() && !h.is_adjacent(th);
            if eligibility(b, &self.side, u, fire, t).is_ok() {
                with.push(Attacker {
                    unit: u.id.clone(),
                    fire,
                });
            }
        }
        if with.is_empty() {
            return None;
        }
        // The missile rules: fire alone on a missile unit is skipped (§9.3);
        // a missile unit alone hand to hand is weighed with the odds.
        let all_fire = with.iter().all(|a| a.fire);
        if all_fire && t.kind.is_missile() {
            return None;
        }
        Some(with)
    }

    /// Drop the weakest attackers while the column and the die modifiers
    /// hold (never a charger; never down to an archer alone the rules
    /// would not let attack).
    fn trim(&self, t: &Unit, mut with: Vec<Attacker>, column: Column) -> Vec<Attacker> {
        let b = &self.scratch;
        let modifiers = strengths(b, self.options, &self.charges, t, &with)
            .modifiers
            .len();
        let mut order: Vec<(u8, UnitId)> = with
            .iter()
            .filter(|a| self.charges.get(&a.unit) != Some(&t.id))
            .map(|a| (b.get(&a.unit).current_strength(), a.unit.clone()))
            .collect();
        order.sort();
        for (_, id) in order {
            if with.len() == 1 {
                break;
            }
            let fewer: Vec<Attacker> = with.iter().filter(|a| a.unit != id).cloned().collect();
            if fewer.iter().all(|a| a.fire) && t.kind.is_missile() {
                continue;
            }
            let odds = strengths(b, self.options, &self.charges, t, &fewer);
            if odds.column >= column
                && odds.modifiers.len() <= modifiers
                && !missile_alone_too_weak(b, &fewer, odds.column)
            {
                with = fewer;
            }
        }
        with
    }

    fn attack_line(&self, t: &Unit, with: &[Attacker], worth: Column) -> String {
        let b = &self.scratch;
        let names: Vec<String> = with
            .iter()
            .map(|a| {
                if a.fire {
                    format!("fire {}", a.unit)
                } else {
                    a.unit.to_string()
                }
            })
            .collect();
        let mut line = format!("attack {} with {}; min {worth}", t.id, names.join(", "));
        let melee: Vec<&Unit> = with
            .iter()
            .filter(|a| !a.fire)
            .map(|a| b.get(&a.unit))
            .collect();
        let charger = melee
            .iter()
            .find(|u| self.charges.get(&u.id) == Some(&t.id));
        let strongest = melee
            .iter()
            .max_by_key(|u| (u.is_full(), u.current_strength(), std::cmp::Reverse(&u.id)));
        match charger.or(strongest) {
            Some(u) if self.doctrine.advance || charger.is_some() => {
                let _ = write!(line, "; advance {}", u.id);
                let commander = u.hex.is_some_and(|h| {
                    b.at(h)
                        .any(|c| c.kind == Kind::Commander && c.side == u.side)
                });
                if commander && self.doctrine.advance {
                    line.push_str(" with commander");
                }
            }
            _ => line.push_str("; no advance"),
        }
        line
    }
}

/// Retreat preferences for the side's combat units (all of them, or those
/// in `only`): the neighbouring hexes out of enemy zones first, then
/// nearest the home edge, good ground first for a cautious general.
fn retreat_lines(
    board: &Board,
    options: &Options,
    side: &SideId,
    d: &Doctrine,
    only: Option<&BTreeSet<UnitId>>,
) -> Vec<String> {
    let edge = board.sides.get(side).and_then(|s| s.home_edge);
    let mut out = Vec::new();
    for u in own(board, side).filter(|u| u.is_combat()) {
        if only.is_some_and(|o| !o.contains(&u.id)) {
            continue;
        }
        let Some(at) = u.hex else { continue };
        if !engaged(board, options, side, at) && only.is_none() {
            // Out of contact, it will not be attacked hand to hand; archers
            // may still fire on it.
            if nearest_enemy(board, side, at).is_none_or(|d| d > 4) {
                continue;
            }
        }
        let mut ranked: Vec<_> = at
            .neighbours()
            .into_iter()
            .filter(|n| board.map.contains(*n) && board.map.passable(at, *n))
            .filter(|n| !board.hostile_in(side, *n))
            .map(|n| {
                let friends = n
                    .neighbours()
                    .into_iter()
                    .flat_map(|m| board.at(m))
                    .filter(|f| &f.side == side && f.is_combat() && f.id != u.id)
                    .count();
                let ground = if d.good_ground {
                    board.map.terrain(n).column_shift()
                } else {
                    0
                };
                (
                    engaged(board, options, side, n),
                    edge.map_or(0, |e| e.distance(&board.map, n)),
                    std::cmp::Reverse(ground),
                    std::cmp::Reverse(friends),
                    n,
                )
            })
            .collect();
        ranked.sort();
        let chosen: Vec<Hex> = ranked
            .into_iter()
            .take(d.retreat_hexes)
            .map(|x| x.4)
            .collect();
        if !chosen.is_empty() {
            out.push(format!("retreat {} {}", u.id, hexes(&chosen)));
        }
    }
    out
}

/// The standing reactions of `side` for the other side's coming
/// player-turn on `board`, as order text.
pub fn standing(board: &Board, options: &Options, side: &SideId, style: Style) -> String {
    let d = Doctrine::of(style);
    let mut lines = retreat_lines(board, options, side, d, None);
    if d.defender_advance {
        let front = own(board, side)
            .filter(|u| u.is_combat() && u.is_full())
            .filter(|u| u.hex.is_some_and(|h| engaged(board, options, side, h)))
            .max_by_key(|u| (u.current_strength(), std::cmp::Reverse(u.id.clone())));
        match front {
            Some(u) => {
                let commander = u.hex.is_some_and(|h| {
                    board
                        .at(h)
                        .any(|c| c.kind == Kind::Commander && &c.side == side)
                });
                lines.push(format!(
                    "advance {}{}",
                    u.id,
                    if commander { " with commander" } else { "" }
                ));
            }
            None => lines.push("no advance".into()),
        }
    } else {
        lines.push("no advance".into());
    }
    if board.rules.breton_evasion {
        for u in own(board, side).filter(|u| u.role == Some(Role::Breton)) {
            lines.push(match d.evade_at {
                None => format!("evade {} always", u.id),
                Some(c) => format!("evade {} at {c}", u.id),
            });
        }
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::furor::orders::check::check;
    use crate::games::furor::scenario::{shipped, SCENARIOS};

    #[test]
    fn the_styles_differ_where_it_matters() {
        assert!(CAUTIOUS.attack_at > AGGRESSIVE.attack_at);
        assert!(CAUTIOUS.charge_at > AGGRESSIVE.charge_at);
        assert!(CAUTIOUS.contact_at > AGGRESSIVE.contact_at);
        assert!(CAUTIOUS.pressed_attack_at > AGGRESSIVE.pressed_attack_at);
    }

    fn soissons() -> (Board, Options) {
        let options = Options::default();
        let board = shipped("soissons")
            .unwrap()
            .start(&options, &Default::default(), &"franks".into())
            .unwrap();
        (board, options)
    }

    #[test]
    fn an_aggressive_general_the_clock_is_against_presses_from_the_first_turn() {
        let (board, options) = soissons();
        // The Gallo-Romans win at the end of turn 6 unless broken.
        assert!(!time_favours(&board, &"franks".into()));
        let aggressive = player_turn(&board, &options, Style::Aggressive);
        assert!(aggressive.contains("; min 1/1"), "{aggressive}");
        assert!(!aggressive.contains("; min 3/2"), "{aggressive}");
        let cautious = player_turn(&board, &options, Style::Cautious);
        assert!(!cautious.contains("; min 1/1"), "{cautious}");
    }

    #[test]
    fn archers_alone_never_attack_hand_to_hand_where_the_rules_forbid() {
        let (mut board, options) = soissons();
        // The Frankish archers next to a militia of strength 1, nobody
        // else near: 1 (less the missile penalty) against 1 is not above 1/1.
        let militia = board
            .units
            .values()
            .find(|u| u.name.starts_with("Militia") && u.strength == 1)
            .unwrap();
        let next = militia
            .hex
            .unwrap()
            .neighbours()
            .into_iter()
            .find(|h| board.map.contains(*h) && board.at(*h).next().is_none())
            .unwrap();
        board.get_mut(&"archers".into()).hex = Some(next);
        for style in Style::ALL {
            let text = player_turn(&board, &options, style);
            assert!(!text.contains("with archers;"), "{style}:\n{text}");
            assert!(!check(&text, &"franks".into(), &board, &options).has_errors());
        }
    }

    #[test]
    fn an_aggressive_armys_foot_archers_stand_off_and_fire() {
        let (board, options) = soissons();
        let text = player_turn(&board, &options, Style::Aggressive);
        let to: Hex = text
            .lines()
            .find_map(|l| l.strip_prefix("archers: move "))
            .and_then(|path| path.split(' ').next_back())
            .and_then(|h| h.parse().ok())
            .unwrap_or_else(|| panic!("the archers stay:\n{text}"));
        let franks = SideId::from("franks");
        assert!(!engaged(&board, &options, &franks, to), "{to}:\n{text}");
        let archers = board.get(&"archers".into());
        assert!(
            nearest_enemy(&board, &franks, to).is_some_and(|d| d <= archers.range),
            "{to}:\n{text}"
        );
        assert!(text.contains("fire archers"), "{text}");
    }

    #[test]
    fn an_aggressive_general_spreads_its_attacks_where_they_take_more() {
        let (mut board, options) = soissons();
        // Away from the Gallo-Romans, but for three units: salian-3a next
        // to both foederati (0512, strength 3; 0513, strength 2),
        // salian-3b next to the 2 only, light-2 next to the 3 (and the
        // cavalry). Piled on the best odds: salian-3a and 3b on the 2 at
        // 3/1, light-2 alone can make nothing. Spread: 3b on the 2 at 3/2,
        // 3a and light-2 on the 3 at 3/2, more points expected.
        for (id, h) in [
            ("salian-3a", "0612"),
            ("salian-3b", "0613"),
            ("light-2", "0611"),
        ] {
            board.get_mut(&id.into()).hex = Some(h.parse().unwrap());
        }
        let attacks = |style| {
            let mut plan = Plan::new(&board, &options, Doctrine::of(style));
            plan.attacks();
            plan.lines
        };
        let spread = attacks(Style::Aggressive);
        assert_eq!(
            spread,
            [
                "attack foederati-2 with salian-3b; min 1/1; advance salian-3b",
                "attack foederati-3 with salian-3a, light-2; min 1/1; advance salian-3a",
            ],
            "{spread:#?}"
        );
        let text = spread.join("\n");
        assert!(!check(&text, &"franks".into(), &board, &options).has_errors());
        let piled = attacks(Style::Cautious);
        assert!(piled.len() < 2, "{piled:#?}");
    }

    #[test]
    fn opening_sheets_of_every_scenario_check_clean() {
        let options = Options::default();
        for name in SCENARIOS {
            let s = shipped(name).unwrap();
            for first in s.armies.keys() {
                let board = s.start(&options, &Default::default(), first).unwrap();
                let other = board.opponent(first).unwrap().clone();
                for style in Style::ALL {
                    let text = player_turn(&board, &options, style);
                    let c = check(&text, first, &board, &options);
                    assert!(
                        !c.has_errors(),
                        "{name} {first} {style}:\n{text}\n{:?}",
                        c.diagnostics
                    );
                    let text = standing(&board, &options, &other, style);
                    let c = check(&text, &other, &board, &options);
                    assert!(
                        !c.has_errors(),
                        "{name} {other} {style}:\n{text}\n{:?}",
                        c.diagnostics
                    );
                }
            }
        }
    }
}
