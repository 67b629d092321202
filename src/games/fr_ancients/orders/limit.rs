//! The morale clock's limit on orders (option `order_limit = "clock"`,
//! ruling FA-60): the sheet says running short of the clock means "the
//! inability to issue sufficient orders" (rule 10) but not how many a clock
//! allows (M10), so by default no limit is set. A club that limits them
//! lets a side give, each phase, as many movement orders (a unit's line, or
//! a group's) as its clock stands, besides the general's free group move
//! and each sub-general's free unit move (§7).

use super::check::Checker;
use crate::diagnostic::Span;
use crate::games::fr_ancients::characters::Rank;
use crate::games::fr_ancients::options::OrderLimit;
use crate::games::fr_ancients::table::CharacterStatus;

impl Checker<'_> {
    /// The side's active characters of a rank.
    fn active(&self, rank: Rank) -> usize {
        self.battle
            .characters
            .values()
            .filter(|c| {
                c.side == self.side && c.rank == rank && c.status == CharacterStatus::Active
            })
            .count()
    }

    /// Spend one movement order (a group's when `group`): the general's
    /// free group move or a sub-general's free unit move first, then the
    /// clock. False, with the line refused, when none is left.
    pub(super) fn spend(&mut self, group: bool, span: Span) -> bool {
        if self.options.order_limit == OrderLimit::None {
            return true;
        }
        let Some(clock) = self
            .battle
            .sides
            .iter()
            .find(|s| s.id == self.side)
            .and_then(|s| s.clock())
        else {
            return true;
        };
        if group && !self.spent.group_free && self.active(Rank::General) > 0 {
            self.spent.group_free = true;
            return true;
        }
        if !group && self.spent.units_free < self.active(Rank::SubGeneral) {
            self.spent.units_free += 1;
            return true;
        }
        if self.spent.counted < clock {
            self.spent.counted += 1;
            return true;
        }
        self.illegal(
            span,
            format!("your morale clock stands at {clock}: no order is left for this line"),
            "each phase a side gives as many movement orders as its clock stands, besides the general's free group move and each sub-general's free unit move (§7, rule 10; ruling FA-60)",
        );
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::games::fr_ancients::options::Options;
    use crate::games::fr_ancients::orders::check;
    use crate::games::fr_ancients::setup::Layout;

    fn battle(clock: i32) -> crate::games::fr_ancients::table::Battle {
        let mut units = String::new();
        for i in 0..4_i32 {
            units.push_str(&format!(
                "[[unit]]\nid = \"u{i}\"\nside = \"rome\"\nname = \"Hastati {i}\"\ntype = \"Hand Weapons\"\nfiles = 4\nranks = 1\nfront = [{:.1}, 10.0]\nfacing = 0\n",
                6.0 + 6.5 * f64::from(i)
            ));
        }
        let text = format!(
            "[table]\nwidth = 48.0\ndepth = 48.0\nbase = [1.5, 0.75]\n[[side]]\nid = \"rome\"\nclock = {clock}\n[[side]]\nid = \"carthage\"\n{units}\
             [[character]]\nid = \"g\"\nside = \"rome\"\nname = \"Scipio\"\nrank = \"general\"\nwith = \"u0\"\n\
             [[character]]\nid = \"s\"\nside = \"rome\"\nname = \"Laelius\"\nrank = \"sub-general\"\nwith = \"u1\"\n"
        );
        let layout: Layout = toml::from_str(&text).unwrap();
        layout.battle(None).unwrap()
    }

    const ORDERS: &str =
        "Hastati 0: advance 1\nHastati 1: advance 1\nHastati 2: advance 1\nHastati 3: hold fire\n";

    #[test]
    fn by_default_no_limit_is_set() {
        let c = check(&battle(1), "rome", ORDERS, None, &Options::default());
        assert_eq!(c.orders.moves.len(), 3);
    }

    #[test]
    fn the_clock_limits_orders_beyond_the_characters_free_moves() {
        let options = Options {
            order_limit: crate::games::fr_ancients::options::OrderLimit::Clock,
            ..Options::default()
        };
        // Clock 1: the sub-general's free unit move and one order.
        let c = check(&battle(1), "rome", ORDERS, None, &options);
        assert_eq!(c.orders.moves.len(), 2, "{}", c.render());
        assert!(c.render().contains("your morale clock stands at 1"));
        assert!(c.refused.contains("u2"));
        // A group uses the general's free group move.
        let g = check(
            &battle(1),
            "rome",
            &format!("group Hastati 2, Hastati 3: advance 1\n{ORDERS}"),
            None,
            &options,
        );
        assert_eq!(g.orders.moves.len(), 4, "{}", g.render());
    }
}
