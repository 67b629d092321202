//! Combat (§9): the phasing player's attacks, in the order written, each
//! one or more attackers against one defender, resolved and applied at
//! once (§9.1). Strengths with their modifiers ([`strengths`]), the ratio
//! rounded for the defender, the terrain's column shifts and die
//! modifiers (§9.5, §9.6), the Combat Results Table (R7), then the result
//! on the defender or the attackers (O18), and the advance (§9.11).
//!
//! ```
//! use umpire::games::furor::rules::crt::{column_for, Column};
//! // The book's example (§9.3): 11 FP against 2 is 5.5 to 1, column 4/1.
//! assert_eq!(column_for(11, 2), Column::FourOne);
//! ```

use crate::dice::DieKind;
use crate::games::furor::ask::Question;
use crate::games::furor::board::{Board, Relation, SideId, Unit, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::{
    Counted, DieModifier, Drop, Event, ImpetuousCause, LossCause, MoraleCause, Share, Skip,
};
use crate::games::furor::hex::Hex;
use crate::games::furor::movement::{self, Start};
use crate::games::furor::options::{Options, WaterBonus};
use crate::games::furor::orders::{Advance, Answer, Attack, DefenderAdvance};
use crate::games::furor::play::Play;
use crate::games::furor::rules::crt::{column_for, Column, CombatResult, Crt};
use crate::games::furor::rules::special::IMPETUOUS_RUSH_ON;
use crate::games::furor::rules::terrain::HexsideFeature;
use crate::games::furor::rules::{
    Kind, Mark, BAGGAGE_DEFENCE, CHARGE_BONUS, MISSILE_MELEE_PENALTY, STRENGTH_FLOOR,
};
use crate::games::furor::{advance, charge, losses, morale, special, zoc};

/// One attacker as it takes part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attacker {
    pub unit: UnitId,
    pub fire: bool,
}

/// The numbers of a combat before the die.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odds {
    pub shares: Vec<Share>,
    pub attack: u16,
    pub defence: u16,
    pub odds: Column,
    pub shifts: u8,
    pub column: Column,
    pub modifiers: Vec<DieModifier>,
    /// The counters whose printed strength the sums count (the report's
    /// notes on reconstructed strengths read it).
    pub counted: Vec<Counted>,
}

fn floored(v: i16) -> u8 {
    v.max(i16::from(STRENGTH_FLOOR)) as u8
}

/// A missile unit's −1 in hand-to-hand combat (§9.3), unless it has the
/// no-melee-penalty mark or every enemy it fights hand to hand is a
/// missile unit (O15).
fn missile_penalty(u: &Unit, foes_all_missile: bool) -> i16 {
    if u.kind.is_missile() && !u.has(Mark::NoMeleePenalty) && !foes_all_missile {
        i16::from(MISSILE_MELEE_PENALTY)
    } else {
        0
    }
}

/// The strength a stacked commander adds in a hand-to-hand combat (§6).
fn commander_share(board: &Board, options: &Options, u: &Unit) -> Option<(UnitId, u8)> {
    let h = u.hex?;
    board
        .at(h)
        .find(|c| morale::commands(options, c, u))
        .map(|c| {
            (
                c.id.clone(),
                c.strength + special::commander_bonus(board, c),
            )
        })
}

/// Both sides' strengths, the odds, the column and the die modifiers of
/// an attack on `defender` (§9.5, §9.6, §6, §9.2, §9.3, §9.4).
pub fn strengths(
    board: &Board,
    options: &Options,
    charges: &std::collections::BTreeMap<UnitId, UnitId>,
    defender: &Unit,
    attackers: &[Attacker],
) -> Odds {
    let dhex = defender.hex.expect("the defender is on the map");
    let hand_to_hand: Vec<&Unit> = attackers
        .iter()
        .filter(|a| !a.fire)
        .map(|a| board.get(&a.unit))
        .collect();
    let any_fire = attackers.iter().any(|a| a.fire);
    let melee = !hand_to_hand.is_empty();
    let mut shares = Vec::new();
    let mut count = Vec::new();
    for a in attackers {
        let u = board.get(&a.unit);
        count.push(Counted::of(u));
        let mut s = i16::from(u.current_strength()) + special::strength_modifier(board, u);
        let mut bonus = false;
        if !a.fire {
            s -= missile_penalty(u, defender.kind.is_missile());
            let charged = charges.get(&u.id) == Some(&defender.id);
            let countered = options.counter_charge && charge::may_charge(board, defender);
            if charged && !countered {
                s += i16::from(CHARGE_BONUS);
                bonus = true;
            }
        }
        // O6: the commander adds his strength if the combat is hand to hand.
        let commander = if melee {
            commander_share(board, options, u)
        } else {
            None
        };
        if let Some((c, _)) = &commander {
            count.push(Counted::of(board.get(c)));
        }
        shares.push(Share {
            unit: u.id.clone(),
            strength: floored(s),
            fire: a.fire,
            charge_bonus: bonus,
            commander,
        });
    }
    let attack: u16 = shares
        .iter()
        .map(|s| u16::from(s.strength) + s.commander.as_ref().map_or(0, |c| u16::from(c.1)))
        .sum();
    let lone_baggage = defender.kind == Kind::Baggage;
    let defence = if lone_baggage {
        u16::from(BAGGAGE_DEFENCE)
    } else {
        let foes_all_missile = hand_to_hand.iter().all(|u| u.kind.is_missile());
        let mut d =
            i16::from(defender.current_strength()) + special::strength_modifier(board, defender);
        if melee {
            d -= missile_penalty(defender, foes_all_missile);
        }
        let mut total = u16::from(floored(d));
        count.push(Counted::of(defender));
        if melee {
            if let Some((c, v)) = commander_share(board, options, defender) {
                total += u16::from(v);
                count.push(Counted::of(board.get(&c)));
            }
        }
        if board
            .at(dhex)
            .any(|o| o.kind == Kind::Baggage && o.side == defender.side)
        {
            total += u16::from(BAGGAGE_DEFENCE);
        }
        total
    };
    let odds = column_for(attack, defence);
    let terrain = board.map.terrain(dhex);
    let shifts = if lone_baggage {
        0
    } else {
        terrain.column_shift()
    };
    let mut modifiers = Vec::new();
    if !lone_baggage {
        if terrain.die_bonus() > 0 && !(terrain.bonus_lost_to_fire() && any_fire) {
            modifiers.push(if terrain.bonus_lost_to_fire() {
                DieModifier::BridgeHex
            } else {
                DieModifier::Village
            });
        }
        let across = |u: &&Unit| {
            u.hex.is_some_and(|h| {
                matches!(
                    board.map.crossing(h, dhex),
                    Some(HexsideFeature::Stream | HexsideFeature::Bridge)
                )
            })
        };
        let water = match options.water_bonus {
            WaterBonus::Rule => !any_fire && melee && hand_to_hand.iter().all(across),
            WaterBonus::Example => melee && hand_to_hand.iter().all(across),
        };
        if water {
            modifiers.push(DieModifier::Water);
        }
    }
    Odds {
        shares,
        attack,
        defence,
        odds,
        shifts,
        column: odds.shifted_left(shifts),
        modifiers,
        counted: count,
    }
}

/// The combat phase of the phasing player (§4 phases 2 and 4).
pub(crate) fn phase(play: &mut Play) -> Result<(), EngineError> {
    let attacks = play.orders.attacks.clone();
    for (i, attack) in attacks.iter().enumerate() {
        let mut next = Some(attack);
        while let Some(a) = next {
            match resolve(play, i + 1, a)? {
                None => break,
                Some(reason) => {
                    play.emit(Event::AttackSkipped {
                        index: i + 1,
                        target: a.target.clone(),
                        reason,
                    });
                    next = a.otherwise.as_deref();
                }
            }
        }
    }
    Ok(())
}

/// The defender an attack on `target` meets: the combat unit of the hex
/// when the target is a commander or baggage stacked with one.
fn defender_for(board: &Board, target: &UnitId) -> Option<UnitId> {
    let t = board.unit(target).filter(|t| t.is_on_map())?;
    if t.is_combat() {
        return Some(t.id.clone());
    }
    let h = t.hex?;
    Some(
        board
            .combat_unit_at(h)
            .map_or(t.id.clone(), |u| u.id.clone()),
    )
}

/// Whether the unit may join an attack on `defender` as written (fire or
/// hand to hand): §9.1, §9.3, §9.4, O9. Commanders and baggage are
/// handled by the caller (they add through a unit, or never attack).
pub fn eligibility(
    board: &Board,
    side: &SideId,
    u: &Unit,
    fire: bool,
    defender: &Unit,
) -> Result<(), Drop> {
    let (Some(h), Some(dhex)) = (u.hex.filter(|_| u.is_on_map()), defender.hex) else {
        return Err(Drop::Gone);
    };
    if &u.side != side {
        return Err(Drop::NotYours);
    }
    if !u.is_combat() {
        return Err(Drop::CannotAttack);
    }
    let only_hand_to_hand =
        defender.kind == Kind::Baggage || board.at(dhex).any(|o| o.kind == Kind::Baggage);
    if fire {
        let distance = h.distance(dhex);
        if !u.kind.is_missile() {
            Err(Drop::NotMissile)
        } else if distance > u.range {
            Err(Drop::OutOfRange {
                distance,
                range: u.range,
            })
        } else if zoc::adjacent_enemies(board, side, h).next().is_some() {
            Err(Drop::EngagedCannotFire)
        } else if only_hand_to_hand {
            Err(Drop::BaggageOnlyHandToHand)
        } else {
            Ok(())
        }
    } else if !h.is_adjacent(dhex) {
        Err(Drop::NotAdjacent)
    } else if board.map.hexside(h, dhex) == Some(HexsideFeature::River) {
        Err(Drop::AcrossRiver)
    } else {
        Ok(())
    }
}

/// Which attackers take part; the others are reported dropped.
fn muster(play: &mut Play, index: usize, a: &Attack, defender: &Unit) -> (Vec<Attacker>, bool) {
    let mut out: Vec<Attacker> = Vec::new();
    let mut dropped = false;
    let mut seen = std::collections::BTreeSet::new();
    for id in a.attackers.iter().filter(|id| seen.insert(*id)) {
        let fire = a.fire.contains(id);
        let reason = match play.board.unit(id).filter(|u| u.is_on_map()) {
            None => Some(Drop::Gone),
            // A commander adds his strength to a unit he stands with (§6).
            Some(u) if u.kind == Kind::Commander && u.side == play.side => {
                let with = a.attackers.iter().any(|o| {
                    play.board
                        .unit(o)
                        .is_some_and(|o| o.is_combat() && o.hex == u.hex)
                });
                (!with).then_some(Drop::CannotAttack)
            }
            Some(_) if play.tally.have_attacked.contains(id) => Some(Drop::AlreadyAttacked),
            Some(u) => eligibility(&play.board, &play.side, u, fire, defender).err(),
        };
        match reason {
            Some(reason) => {
                dropped = true;
                play.emit(Event::AttackerDropped {
                    index,
                    unit: id.clone(),
                    reason,
                });
            }
            None if play.board.get(id).is_combat() => out.push(Attacker {
                unit: id.clone(),
                fire,
            }),
            None => {}
        }
    }
    (out, dropped)
}

/// A missile unit on its own attacks hand to hand only above 1/1 (§9.3,
/// O16): below 3/2 such an attack is not made.
pub fn missile_alone_too_weak(board: &Board, attackers: &[Attacker], column: Column) -> bool {
    match attackers {
        [only] => {
            let u = board.get(&only.unit);
            !only.fire
                && u.kind.is_missile()
                && !u.has(Mark::NoMeleePenalty)
                && column < Column::ThreeTwo
        }
        _ => false,
    }
}

/// The table's result for a modified roll, on the optional "7+" row when
/// the game plays it (R7).
pub fn table_result(options: &Options, column: Column, roll: u8) -> CombatResult {
    if options.crt_row_7 {
        Crt::BOOK.result_with_row_7(column, roll)
    } else {
        Crt::BOOK.result(column, roll)
    }
}

/// Resolve one attack of the list; `Some(reason)` if it is skipped.
fn resolve(play: &mut Play, index: usize, a: &Attack) -> Result<Option<Skip>, EngineError> {
    let Some(did) = defender_for(&play.board, &a.target) else {
        return Ok(Some(Skip::TargetGone));
    };
    let defender = play.board.get(&did).clone();
    if defender.kind == Kind::Commander
        || play.board.relation(&play.side, &defender) == Relation::Friend
    {
        return Ok(Some(Skip::NotATarget));
    }
    if play.tally.attacked.contains(&did) {
        return Ok(Some(Skip::AlreadyAttacked));
    }
    let (attackers, dropped) = muster(play, index, a, &defender);
    if a.all && dropped {
        return Ok(Some(Skip::AttackerMissing));
    }
    if attackers.is_empty() {
        return Ok(Some(Skip::NoAttackers));
    }
    let odds = strengths(
        &play.board,
        play.options,
        &play.tally.charges,
        &defender,
        &attackers,
    );
    if missile_alone_too_weak(&play.board, &attackers, odds.column) {
        return Ok(Some(Skip::MissileAloneOdds {
            column: odds.column,
        }));
    }
    if let Some(min) = a.min_odds.filter(|m| odds.column < *m) {
        return Ok(Some(Skip::BelowMinimum {
            column: odds.column,
            minimum: min,
        }));
    }
    // The attack is made: Chararic's corps takes sides at once (O37).
    if play.board.is_neutral(&defender) {
        special::chararic::attacked(play)?;
    }
    play.tally.attacked.insert(did.clone());
    for at in &attackers {
        play.tally.have_attacked.insert(at.unit.clone());
    }
    play.tally.combats += 1;
    let number = play.tally.combats;
    play.chain_tested.clear();
    let dhex = defender.hex.expect("on the map");
    let attacker_hexes: Vec<Hex> = attackers
        .iter()
        .filter_map(|at| play.board.get(&at.unit).hex)
        .collect();
    let combat = |die: Option<u8>, roll: Option<u8>, result: Option<CombatResult>, odds: &Odds| {
        Event::Combat {
            number,
            index,
            target: did.clone(),
            attackers: odds.shares.clone(),
            attack: odds.attack,
            defence: odds.defence,
            odds: odds.odds,
            shifts: odds.shifts,
            column: odds.column,
            modifiers: odds.modifiers.clone(),
            die,
            roll,
            result,
            counted: odds.counted.clone(),
        }
    };
    if special::breton::evades(play, &did, &attacker_hexes, odds.column)? {
        play.emit(combat(None, None, None, &odds));
        return Ok(None);
    }
    let die = play.roll(&format!("combat:{number}"), DieKind::D6)?;
    let roll = die + odds.modifiers.len() as u8;
    let result = table_result(play.options, odds.column, roll);
    play.emit(combat(Some(die), Some(roll), Some(result), &odds));
    let hand_to_hand: Vec<UnitId> = attackers
        .iter()
        .filter(|at| !at.fire)
        .map(|at| at.unit.clone())
        .collect();
    let origins: Vec<(UnitId, Hex)> = hand_to_hand
        .iter()
        .map(|u| (u.clone(), play.board.get(u).hex.expect("on the map")))
        .collect();
    if result.on_attacker() {
        on_attackers(play, a, &attackers, &defender, result, dhex)?;
        defender_advances(play, &did, dhex, &origins)?;
    } else {
        on_defender(play, &did, result, &attacker_hexes)?;
        attacker_advances(play, a, &did, dhex, &origins)?;
    }
    if attackers.iter().any(|at| at.fire) {
        fired_upon(play, &did)?;
    }
    Ok(None)
}

/// A D result (§9.7): losses, then the retreat; or the morale check.
fn on_defender(
    play: &mut Play,
    did: &UnitId,
    result: CombatResult,
    attacker_hexes: &[Hex],
) -> Result<(), EngineError> {
    losses::take_steps(play, did, result.steps(), LossCause::Combat)?;
    if result.retreats() {
        morale::retreat(play, did, attacker_hexes)?;
    }
    if result.tests_morale() {
        morale::check(play, did, MoraleCause::Result, attacker_hexes)?;
    }
    Ok(())
}

/// An A result (§9.7, O18): on the hand-to-hand attackers, and on firers
/// only when the defender can fire back.
fn on_attackers(
    play: &mut Play,
    a: &Attack,
    attackers: &[Attacker],
    defender: &Unit,
    result: CombatResult,
    dhex: Hex,
) -> Result<(), EngineError> {
    let sufferers: Vec<UnitId> = attackers
        .iter()
        .filter(|at| !at.fire || defender.kind.is_missile())
        .map(|at| at.unit.clone())
        .collect();
    let away = [dhex];
    for id in losses::allocate(&play.board, &sufferers, result.steps(), &a.losses) {
        losses::take_steps(play, &id, 1, LossCause::Combat)?;
    }
    for id in &sufferers {
        if result.retreats() {
            morale::retreat(play, id, &away)?;
        }
        if result.tests_morale() {
            morale::check(play, id, MoraleCause::Result, &away)?;
        }
    }
    Ok(())
}

/// Whether a hex no longer holds a combat unit.
fn vacated(board: &Board, h: Hex) -> bool {
    board.combat_unit_at(h).is_none()
}

/// §9.11: one hand-to-hand attacker into the defender's vacated hex; a
/// charger must (the player picks among chargers, else the first listed).
/// A defender still in its hex keeps it; a pillaged baggage unit keeps its
/// hex only as a marker (§9.4, O19), which holds nothing.
fn attacker_advances(
    play: &mut Play,
    a: &Attack,
    did: &UnitId,
    dhex: Hex,
    origins: &[(UnitId, Hex)],
) -> Result<(), EngineError> {
    let d = play.board.get(did);
    if !vacated(&play.board, dhex) || (d.is_on_map() && d.hex == Some(dhex)) {
        return Ok(());
    }
    let able: Vec<&UnitId> = origins
        .iter()
        .filter(|(u, h)| {
            play.board.get(u).hex == Some(*h)
                && advance::may_advance(&play.board, play.board.get(u), dhex)
        })
        .map(|(u, _)| u)
        .collect();
    let chargers: Vec<&&UnitId> = able
        .iter()
        .filter(|u| play.tally.charges.get(**u) == Some(did))
        .collect();
    let named = match &a.advance {
        Advance::Unit(u) => able.iter().find(|x| **x == u).copied(),
        Advance::None => None,
    };
    let who = if chargers.is_empty() {
        named
    } else {
        named
            .filter(|n| chargers.iter().any(|c| **c == *n))
            .or(Some(*chargers[0]))
    };
    match who.cloned() {
        Some(w) => advance::advance(play, &w, dhex, a.advance_commander),
        None => Ok(()),
    }
}

/// "The reverse is also true" (§9.11): the defender into a hex vacated by
/// an adjacent attacker, by its owner's standing choice.
fn defender_advances(
    play: &mut Play,
    did: &UnitId,
    dhex: Hex,
    origins: &[(UnitId, Hex)],
) -> Result<(), EngineError> {
    let d = play.board.get(did);
    if d.hex != Some(dhex) {
        return Ok(());
    }
    let open: Vec<Hex> = origins
        .iter()
        .map(|(_, h)| *h)
        .filter(|h| vacated(&play.board, *h) && advance::may_advance(&play.board, d, *h))
        .collect();
    let into = match &play.reactions.advance {
        DefenderAdvance::Stay => None,
        DefenderAdvance::Unit(u) if u == did => open.first().copied(),
        DefenderAdvance::Into(map) if map.contains_key(did) => {
            map.get(did).filter(|h| open.contains(h)).copied()
        }
        // No standing choice for this unit: its owner's answer (FB-19).
        _ if open.is_empty() => None,
        _ => match play.open_choice(
            "advance",
            Question::Advance {
                unit: did.clone(),
                hexes: open.clone(),
            },
        ) {
            Some(Answer::Hex(h)) if open.contains(&h) => Some(h),
            _ => None,
        },
    };
    match into {
        Some(h) => {
            let with = play.reactions.advance_commander;
            advance::advance(play, did, h, with)
        }
        None => Ok(()),
    }
}

/// Rule 6 (O34): an impetuous unit fired at from a distance tests after
/// the fire, if still clear of the enemy; on 5–6 it rushes with its full MP.
fn fired_upon(play: &mut Play, did: &UnitId) -> Result<(), EngineError> {
    let u = play.board.get(did).clone();
    let Some(h) = u.hex.filter(|_| u.is_on_map()) else {
        return Ok(());
    };
    if !play.options.impetuousness
        || !u.has(Mark::Impetuous)
        || zoc::adjacent_enemies(&play.board, &u.side, h)
            .next()
            .is_some()
    {
        return Ok(());
    }
    let roll = play.roll_counted("impetuous", did)?;
    let rushes = roll >= IMPETUOUS_RUSH_ON;
    play.emit(Event::ImpetuousTest {
        unit: did.clone(),
        roll,
        rushes,
        cause: ImpetuousCause::FiredUpon,
    });
    if rushes {
        let start = Start::fresh(&play.board, &u, h);
        movement::rush(play, did, start)?;
    }
    Ok(())
}
