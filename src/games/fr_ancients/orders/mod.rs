//! The order language of FR! Ancients (`grammar/fr_orders.pest`,
//! `docs/fr-ancients/orders.md`): [`parse`] reads text into written orders,
//! [`check`] looks up names and checks each order against the sheet and the
//! table into a side's [`SideOrders`], with diagnostics that quote the
//! line, point at the column, say why with the rule's section, and suggest
//! a fix.
//!
//! ```
//! use umpire::games::fr_ancients::orders::{check, OrderKind};
//! use umpire::games::fr_ancients::setup::Layout;
//! use umpire::games::fr_ancients::options::Options;
//! let layout: Layout = toml::from_str(r#"
//! [table]
//! width = 48.0
//! depth = 48.0
//! base = [1.5, 0.75]
//! [[side]]
//! id = "rome"
//! [[side]]
//! id = "carthage"
//! [[unit]]
//! id = "h"
//! side = "rome"
//! name = "Roman Hastati 1"
//! type = "Hand Weapons"
//! files = 4
//! ranks = 2
//! front = [24.0, 10.0]
//! facing = 0
//! "#).unwrap();
//! let battle = layout.battle(None).unwrap();
//! let c = check(&battle, "rome", "Roman Hastati 1: move to 24, 14\nRoman Hastatti 1: withdraw\n", None, &Options::default());
//! assert_eq!(c.orders.moves.len(), 1);
//! assert_eq!(c.diagnostics.len(), 1);
//! assert!(c.diagnostics[0].help.as_deref().unwrap().contains("Roman Hastati 1"));
//! ```

mod check;
mod deploy;
mod limit;
pub mod parse;
mod plan;
pub mod relative;
mod together;

pub use check::{check, Checked};
pub use deploy::{check_deployment, Deployed, Zone};
pub use plan::{Shoot, SideOrders, TurnOrders, UnitOrder};

use crate::diagnostic::Severity;

/// What a diagnostic about an order says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OrderKind {
    /// Not understood: `Roman Hastati 1: mvoe to 3, 4`.
    Invalid,
    /// Understood but not allowed: `Baggage: charge Celtic Infantry 1` (step 4).
    Illegal,
    /// Allowed, with something the player should know:
    /// `Velites 1: shoot Slingers 2` needs its character's rally test (§7).
    Note,
}

impl Severity for OrderKind {
    fn is_error(&self) -> bool {
        !matches!(self, OrderKind::Note)
    }
}
