//! One turn of the Trebia (the sheet's two Hannibal lists) played with a
//! game master, as the mail would go: each side's orders and the umpire's
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
                            rules.answer(&at, q).map(|a| write_answer(i + 1, &a) + "\n")
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
