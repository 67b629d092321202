//! The rule sets umpire judges, side by side.
//!
//! Each rule set lives in its own folder and owns its orders, its board or
//! table, its resolution, its report sections and picture, and its guide.
//! The shared machinery (the post office, the store, mail, dice, the case
//! runner's frame) knows them only through the rule-set boundary.

pub mod hyborian;
