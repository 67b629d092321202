//! Campaign powers the umpire's generals play (issue 42). When a week
//! opens — the campaign made, a week resolved or re-run — the general of
//! each such power writes its letter: the rules' general
//! ([`CampaignRules::general_letter`](crate::games::campaign::CampaignRules::general_letter))
//! from what the power sees, read and checked as a power's mail is, and
//! kept as the power's orders for the week with no message. So the week
//! counts the power in, the digest and the reports' orders given show its
//! orders, and `umpire verify` replays them as any power's. The power has
//! no address: it is mailed nothing.
//!
//! A line the rules refuse from a general is a bug in the general: the
//! letter stands with what was accepted, the log says why and the
//! secretary is told.

use super::{confirmation, corrupt, load, rules, Row};
use crate::config::Config;
use crate::post::letter::queue_notice;
use crate::post::{audit, PostError};
use crate::sim::Style;
use crate::store::campaigns::{self, OrdersRow};
use crate::store::Transaction;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

/// Each general of campaign `id` writes its power's letter for the week
/// now open. Returns how many letters were written.
///
/// # Errors
/// Damaged stored data (a style this build does not know) or database errors.
pub(super) fn write_letters(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    now: DateTime<Utc>,
) -> Result<usize, PostError> {
    let Some(stored) = load(tx, id)? else {
        return Ok(0);
    };
    let generals = campaigns::generals(tx, id)?;
    for (power, style) in &generals {
        write_one(tx, config, &stored, power, parse(id, power, style)?, now)?;
    }
    Ok(generals.len())
}

/// The general who now plays `power` of campaign `id` writes its letter
/// for the week open (the secretary's `replace POWER general STYLE`).
///
/// # Errors
/// Damaged stored data or database errors.
pub(super) fn write_letter(
    tx: &Transaction<'_>,
    config: &Config,
    id: &str,
    power: &str,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let Some(stored) = load(tx, id)? else {
        return Ok(());
    };
    for (_, style) in campaigns::generals(tx, id)?
        .iter()
        .filter(|(p, _)| p == power)
    {
        write_one(tx, config, &stored, power, parse(id, power, style)?, now)?;
    }
    Ok(())
}

/// A stored general's style.
fn parse(id: &str, power: &str, style: &str) -> Result<Style, PostError> {
    style
        .parse()
        .map_err(|e| corrupt(format!("campaign {id}, power {power}: {e}")))
}

/// The seed of `power`'s general in map turn `turn`: drawn from the week's
/// own seed (committed in the reports before it), hashed with the power,
/// so the letter tells nothing of the week's dice.
fn letter_seed(secret: &str, turn: u32, power: &str) -> [u8; 32] {
    Sha256::new()
        .chain_update(super::seed(secret, turn))
        .chain_update(format!(":general:{power}").as_bytes())
        .finalize()
        .into()
}

/// The general of `style` writes `power`'s letter for the open week.
fn write_one(
    tx: &Transaction<'_>,
    config: &Config,
    stored: &Row,
    power: &str,
    style: Style,
    now: DateTime<Utc>,
) -> Result<(), PostError> {
    let c = &stored.facts;
    let turn = c.turn + 1;
    let seed = letter_seed(&stored.seed, turn, power);
    let body = rules()
        .general_letter(&stored.state, power, style, seed)
        .map_err(corrupt)?;
    // The header a player writes; a general proves no password ("-").
    let text = format!("CAMPAIGN {} POWER {power} PASSWORD -\n{body}END\n", c.id);
    let letter = rules().read(&text);
    let kept = OrdersRow {
        turn,
        power,
        message: None,
        text: &text,
        orders: &serde_json::to_string(&letter.orders).map_err(corrupt)?,
    };
    campaigns::insert_orders(tx, &c.id, &kept, now)?;
    let verdicts = rules()
        .check(&stored.state, power, &letter.orders)
        .map_err(corrupt)?;
    audit(
        tx,
        now,
        Some(&c.id),
        &format!(
            "the {style} general wrote {power}'s orders for {} ({} lines)",
            c.date,
            letter.orders.len()
        ),
    )?;
    let refused = verdicts.iter().flatten().count() + letter.errors.len();
    if refused == 0 {
        return Ok(());
    }
    tracing::error!(campaign = c.id, power, refused, "a general's line was refused: a bug in the general; the week goes on with what was accepted");
    let body = format!(
        "The umpire's {style} general, who plays {power} in {} ({}), wrote orders for {} that the rules refused ({refused} line(s)): a fault in the general, to report to umpire's authors. The week goes on with the orders that were accepted.\n\n{}",
        c.title,
        c.id,
        c.date,
        confirmation(c, power, &letter, &verdicts)
    );
    queue_notice(
        tx,
        config,
        &c.id,
        &stored.secretary_address,
        format!("[{}] The general's orders for {power}: refused lines", c.id),
        body,
        &format!("{}:general:{turn}:{power}", c.id),
        now,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_general_and_week_has_its_own_seed() {
        let a = letter_seed("secret", 3, "koth");
        assert_eq!(a, letter_seed("secret", 3, "koth"));
        assert_ne!(a, letter_seed("secret", 4, "koth"));
        assert_ne!(a, letter_seed("secret", 3, "ophir"));
        assert_ne!(a, super::super::seed("secret", 3));
    }
}
