//! The Trebia (the sheet's two Hannibal lists) as the demonstrations play
//! it: [`battle_orders`], a small deterministic order writer that plays a
//! whole battle with the house pack (advance towards the enemy with `move
//! to`, `charge` the nearest enemy within reach, `shoot` the nearest target
//! in range), and one turn played with a game master, as the mail would go: each side's orders and the umpire's
//! confirmation, every situation the desk sends the game master, the game
//! master's answer in the answer language, and each phase's report. The
//! demonstration's game master answers by the stand-in pack's procedures
//! (written out as answer lines, read back and checked like any other), so
//! the transcript is the same every run; "stand-in rules, not FR!".
//!
//! ```
//! let t = umpire::games::fr_ancients::demo::one_turn_with_gm();
//! assert!(t.iter().any(|s| s.starts_with("To the game master")));
//! assert!(t.iter().any(|s| s.contains("End of turn 1, phase 2")));
//! ```

use super::desk::{write_answer, Desk};
use super::game::{trebia, Resolution};
use super::orders::TurnOrders;
use super::pack::Pack;
use super::questions::Base;
use super::resolve::PackRules;
use super::table::Battle;
use super::table::Unit;
use crate::dice::SeededDice;

/// The seed of the demonstration's dice.
const SEED: [u8; 32] = [18; 32];
/// A phase never needs more rounds with the game master than this.
const MAX_ROUNDS: usize = 40;

/// Orders for a side: its skirmishers step forward, its horse advances.
pub fn orders_for(b: &Battle, side: &str) -> String {
    let mut out = String::new();
    let ahead = if b.sides[0].id == side { 1.0 } else { -1.0 };
    for u in b
        .units
        .values()
        .filter(|u| u.side == side && u.is_present())
    {
        let step = match (
            u.troop.is_cavalry(),
            u.troop == super::troops::TroopType::Skirmishers,
        ) {
            (true, _) => 6.0,
            (_, true) => 4.0,
            _ => continue,
        };
        out.push_str(&format!(
            "{}: move to {:.1}, {:.1}\n",
            u.name,
            u.front.x,
            u.front.y + ahead * step
        ));
    }
    out
}

/// A unit's open allowance less a margin for a change of facing, or
/// nothing for a unit that does not move (artillery, baggage, without values).
fn reach(u: &Unit) -> Option<f64> {
    let open = u.profile.movement?[0];
    (open > 1.0 && u.artillery.is_none() && u.troop != super::troops::TroopType::Baggage)
        .then_some(open - 1.0)
}

/// The nearest present enemy of a unit (ties: the lowest id).
fn nearest<'b>(b: &'b Battle, u: &Unit) -> Option<(&'b Unit, f64)> {
    b.present()
        .filter(|e| e.side != u.side)
        .map(|e| (e, b.distance(u, e)))
        .min_by(|a, c| a.1.total_cmp(&c.1).then(a.0.id.cmp(&c.0.id)))
}

/// One unit's order in the whole-battle demonstration, if it has one: a
/// unit in melee fights where it stands; a fresh one (not a light one)
/// charges the nearest enemy within its reach; a shooter shoots the nearest
/// enemy in range;
/// any other advances straight ahead towards the enemy, stopping an inch
/// short of the nearest.
fn order_for(b: &Battle, u: &Unit) -> Option<String> {
    if !b.contacts(u).is_empty() {
        return None;
    }
    let (enemy, distance) = nearest(b, u)?;
    let reach = reach(u);
    let light = u.troop.picks_its_target();
    let fresh = !light && u.dmz == 0 && u.troop.may_charge();
    if fresh && reach.is_some_and(|r| distance <= r) {
        return Some(format!("charge {}", enemy.name));
    }
    if let Some(w) = u.missile().filter(|w| w.shoots()) {
        if distance <= w.range(b.scale) {
            return Some(format!("shoot {}", enemy.name));
        }
    }
    let reach = reach?;
    let step = reach.min(distance - 1.0);
    if step < 0.5 {
        return None;
    }
    let ahead = crate::geometry::heading(u.facing) * step;
    Some(format!(
        "move to {:.1}, {:.1}",
        u.front.x + ahead.x,
        u.front.y + ahead.y
    ))
}

/// The orders the whole-battle demonstration writes for `side` in its
/// phase: one line a unit that acts ([`order_for`]), in the units' order.
/// Deterministic: the same table gives the same orders.
pub fn battle_orders(b: &Battle, side: &str) -> String {
    b.present()
        .filter(|u| u.side == side)
        .filter_map(|u| order_for(b, u).map(|o| format!("{}: {o}\n", u.name)))
        .collect()
}

/// The transcript, one mail (or report) per entry.
pub fn one_turn_with_gm() -> Vec<String> {
    let mut out = Vec::new();
    let mut game = match trebia(None) {
        Ok(g) => g,
        Err(e) => return vec![format!("the Trebia does not start: {}", e.join("; "))],
    };
    let gm_rules = Pack::stand_in();
    let mut dice = SeededDice::new(SEED);
    out.push(format!("The dice's seed commitment: {}", dice.commitment()));
    for _ in 0..2 {
        let mut orders = TurnOrders::default();
        // The phasing side moves; the other writes no standing orders here.
        {
            let side = game.battle.phasing().clone();
            let text = orders_for(&game.battle, &side);
            let checked = game.check_orders(&side, &text);
            out.push(format!(
                "From {side}:\n{text}\nThe umpire's confirmation:\n{}\n{}",
                checked.confirmation(&game.battle).join("\n"),
                checked.render()
            ));
            orders.sides.insert(side, checked.orders);
        }
        let mut desk = Desk::default();
        for _ in 0..MAX_ROUNDS {
            let r = match game.resolve(&orders, &desk, &mut dice) {
                Ok(r) => r,
                Err(e) => {
                    out.push(format!("dice: {e}"));
                    return out;
                }
            };
            match r {
                Resolution::NeedsGm { situation, at, .. } => {
                    out.push(format!("To the game master:\n{}", situation.text));
                    let mut rules = PackRules { pack: &gm_rules };
                    let answer: String = situation
                        .questions
                        .iter()
                        .enumerate()
                        .filter_map(|(i, q)| {
                            rules
                                .answer(&at, q)
                                .map(|a| write_answer(i + 1, &a, &|id: &str| id.to_string()) + "\n")
                        })
                        .collect();
                    out.push(format!("From the game master:\n{answer}"));
                    let reading = game.read_gm_answer(&situation, &at, &answer);
                    if !reading.diagnostics.is_empty() {
                        out.push(format!(
                            "The umpire to the game master:\n{}",
                            reading.render()
                        ));
                    }
                    desk.take(&situation, reading.answers);
                }
                Resolution::Done { after, report, .. } => {
                    out.push(format!("Report to both sides:\n{}", report.text().replace(&report.banner, &format!("{} (the demonstration's game master plays by the stand-in rules, not FR!)", report.banner))));
                    game.advance(after);
                    break;
                }
            }
        }
    }
    out
}
