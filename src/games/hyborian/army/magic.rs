//! Magic users (Appendix II): each order's cost, whom it may serve, and
//! with whom it may work. Loaded from the embedded `campaigns/magic-users.toml`.

use serde::Deserialize;

use super::ArmyError;

/// An order (or a lone arch-wizard) of Appendix II.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MagicOrder {
    pub name: String,
    /// Points per wizard, which are also his spell points for a battle.
    pub cost: u32,
    pub serves: Serves,
    /// Nations this order will not serve.
    #[serde(default)]
    pub not_with: Vec<String>,
    /// It may also serve any army fighting these nations (White Druids
    /// "could often be induced to serve against Stygia").
    #[serde(default)]
    pub against: Vec<String>,
    /// A single figure: at most one in an army (Thoth-Amon).
    #[serde(default)]
    pub alone: bool,
    /// Orders it may work with in one army despite the one-type rule.
    #[serde(default)]
    pub works_with: Vec<String>,
    #[serde(default)]
    pub notes: String,
}

/// Which nations an order may serve.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Serves {
    /// `"any"`.
    Any(String),
    /// A list of nations.
    Only(Vec<String>),
}

impl MagicOrder {
    /// May this order serve `nation` (fighting `opponent`, if known)?
    pub fn may_serve(&self, nation: &str, opponent: Option<&str>) -> bool {
        let key = crate::names::key(nation);
        let listed = |list: &[String]| list.iter().any(|n| crate::names::key(n) == key);
        if listed(&self.not_with) {
            return false;
        }
        let against = opponent
            .map(|o| {
                self.against
                    .iter()
                    .any(|n| crate::names::key(n) == crate::names::key(o))
            })
            .unwrap_or(false);
        match &self.serves {
            Serves::Any(_) => true,
            Serves::Only(list) => listed(list) || against,
        }
    }

    /// Whom it serves, in words for a breach message.
    pub fn serves_text(&self) -> String {
        let mut text = match &self.serves {
            Serves::Any(_) => "any nation".to_string(),
            Serves::Only(list) => format!("only {}", list.join(" or ")),
        };
        if !self.against.is_empty() {
            text.push_str(&format!(
                ", or an army fighting {}",
                self.against.join(" or ")
            ));
        }
        if !self.not_with.is_empty() {
            text.push_str(&format!(", never {}", self.not_with.join(" or ")));
        }
        text
    }

    /// May wizards of this order serve in the same army as `other`?
    pub fn works_with(&self, other: &MagicOrder) -> bool {
        let named = |a: &MagicOrder, b: &MagicOrder| {
            a.works_with
                .iter()
                .any(|n| crate::names::key(n) == crate::names::key(&b.name))
        };
        self.name == other.name || named(self, other) || named(other, self)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MagicFile {
    order: Vec<MagicOrder>,
}

pub(crate) const MAGIC_USERS: &str = include_str!("../../../../campaigns/magic-users.toml");

/// Every magic-user order of Appendix II.
///
/// # Errors
/// [`ArmyError::Nation`] if the embedded file is malformed.
pub fn magic_orders() -> Result<Vec<MagicOrder>, ArmyError> {
    let file: MagicFile = toml::from_str(MAGIC_USERS).map_err(|e| ArmyError::Nation {
        file: "campaigns/magic-users.toml".into(),
        message: e.to_string(),
    })?;
    for o in &file.order {
        if let Serves::Any(word) = &o.serves {
            if word != "any" {
                return Err(ArmyError::Nation {
                    file: "campaigns/magic-users.toml".into(),
                    message: format!("{}: serves must be \"any\" or a list of nations", o.name),
                });
            }
        }
    }
    Ok(file.order)
}

/// Find an order by name, ignoring case and punctuation.
pub fn magic_order(name: &str) -> Result<MagicOrder, ArmyError> {
    let orders = magic_orders()?;
    let key = crate::names::key(name);
    orders
        .iter()
        .find(|o| crate::names::key(&o.name) == key)
        .cloned()
        .ok_or_else(|| ArmyError::UnknownName {
            what: "magic user",
            given: name.to_string(),
            suggestion: super::suggest(name, orders.iter().map(|o| o.name.as_str())),
        })
}
