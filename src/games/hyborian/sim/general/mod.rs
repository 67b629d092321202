//! The generals: scripted players of the Hyborean Age. Each turn a general
//! looks at the table and writes its side's orders as order text — the
//! same language a player mails (docs/orders.md) — which then goes through
//! the same reading and checking (`orders::check_side`), so every battle
//! the generals fight is a legal game.
//!
//! What a general does, unit by unit ([`troops`], [`staff`]): the foot
//! advances in line at the pace of the slowest foot; archers close to
//! their range, then stand and shoot (cautious ones step back from foot
//! that could charge them); heavy cavalry, chariots and mammoths charge
//! when a charge can land (in reach, in front, path clear of friends,
//! odds good enough for the style), heavy cavalry writing breakthrough
//! against foot; medium cavalry hit and run; horse archers skirmish at bow
//! range; light foot always write "evade if charged"; a share of the army
//! waits in reserve behind the line until its turn comes or a fine charge
//! offers; units that fell back turn to meet the enemy, and a cautious
//! commander rides to steady them; wizards stand beyond the end of the
//! line and cast what their points allow.
//!
//! Two styles ([`Style`]) play by the numbers of their [`Doctrine`].
//!
//! ```
//! use umpire::games::hyborian::orders::{check_side, sample};
//! use umpire::games::hyborian::sim::general::{orders, Style};
//! let table = sample::table();
//! for style in Style::ALL {
//!     let text = orders(&table, "aquilonia", style);
//!     assert!(check_side(&text, "aquilonia", &table).rejected.is_empty(), "{text}");
//! }
//! ```
//!
//! A general is a pure function of the table: the same table gives the
//! same orders, so a battle replays from its seed.

mod crossing;
mod doctrine;
mod ground;
mod staff;
mod strike;
mod troops;
mod view;
mod write;

pub use doctrine::{Doctrine, Style, UnknownStyle};

use crate::games::hyborian::army::scenario::Victory;
use crate::games::hyborian::rules::{Trait, UnitType};
use crate::games::hyborian::table::{Status, Table, Unit};
use std::collections::BTreeSet;
use troops::{role, Ctx, Role};
use view::View;

/// `side`'s orders for the turn about to be played on `table`, as the text
/// a player would mail (unit lines only, no mail header), on a battle
/// without a scenario's victory conditions.
pub fn orders(table: &Table, side: &str, style: Style) -> String {
    orders_for(table, side, style, &[])
}

/// `side`'s orders for the turn, in a battle won by the scenario's
/// `victory` conditions: the general also holds the ground a condition
/// rewards its side for ([`ground`]).
pub fn orders_for(table: &Table, side: &str, style: Style, victory: &[Victory]) -> String {
    let view = View::new(table, side);
    let doctrine = style.doctrine();
    let ground = ground::ground(victory, side)
        .and_then(|area| ground::garrison(&view, &area).map(|u| (area, u.id.as_str())));
    let ctx = Ctx {
        view: &view,
        doctrine,
        seeking: table.turn >= doctrine.patience,
        line_pace: line_pace(&view),
        ground,
    };
    let reserves = reserves(&view, doctrine);
    let mut out = String::new();
    let mut pieces: Vec<&Unit> = table
        .units_of(side)
        .filter(|u| u.status.is_present())
        .collect();
    pieces.sort_by(|a, b| (a.number, &a.id).cmp(&(b.number, &b.id)));
    for u in pieces {
        let sheet = match u.kind {
            // A routing unit takes no orders (§8): it routs until it rallies.
            _ if u.status == Status::Rout => None,
            // Beasts of the Calling hunt by themselves (Appendix II).
            _ if u.has_trait(Trait::Beast) => None,
            UnitType::Commander | UnitType::Hero | UnitType::Superhero => {
                staff::leader(&view, u, doctrine)
            }
            UnitType::Wizard => Some(staff::wizard(&view, u, doctrine)),
            _ => Some(ctx.orders(u, reserves.contains(u.id.as_str()))),
        };
        if let Some(s) = sheet {
            out.push_str(&s.line(&u.name));
            out.push('\n');
        }
    }
    out
}

/// The pace of the foot line: the shortest move among the foot that can
/// move this turn (§3 allowances), so the line arrives together.
fn line_pace(view: &View) -> f64 {
    view.mine
        .iter()
        .filter(|u| {
            matches!(role(u), Role::Foot) && u.status == Status::Ready && u.in_melee_with.is_empty()
        })
        .map(|u| View::move_allowance(u))
        .fold(f64::INFINITY, f64::min)
        .min(crate::games::hyborian::rules::movement::allowances(UnitType::LightInfantry).line)
}

/// The units held back: one in every `reserve_every` of the army's units,
/// horsemen first, taken from the end of the army list so the choice is
/// the same from turn to turn. Summoned troops are never reserves.
fn reserves<'a>(view: &View<'a>, doctrine: &Doctrine) -> BTreeSet<&'a str> {
    let summoned = view.summoned();
    let army: Vec<&Unit> = view
        .mine
        .iter()
        .copied()
        .filter(|u| !u.kind.is_single_figure() && !summoned.contains(u.id.as_str()))
        .collect();
    let wanted = army.len().checked_div(doctrine.reserve_every).unwrap_or(0);
    let horse = army.iter().rev().filter(|u| matches!(role(u), Role::Horse));
    let foot = army.iter().rev().filter(|u| matches!(role(u), Role::Foot));
    horse
        .chain(foot)
        .take(wanted)
        .map(|u| u.id.as_str())
        .collect()
}
