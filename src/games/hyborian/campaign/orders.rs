//! Campaign mail in its own small grammar (`campaign.pest`), one line at a
//! time: a header naming the campaign, the power (or the secretary) and the
//! password, then orders or commands, then END.
//!
//! ```text
//! CAMPAIGN hyboria POWER aquilonia PASSWORD lion
//! army aquilonia-1 move to Shamar
//! army aquilonia-2 split Gundermen, Bossonian Archers
//! army aquilonia-3 merge into aquilonia-1
//! army aquilonia-1 garrison          (or: besiege, sally, halt)
//! raise 12 Aquilonian Knights        (in the capital)
//! hire grey-wolves for 100 points    (a Free Company: serve aquilonia for 100 points)
//! pay grey-wolves with Westermarck
//! END
//! ```
//! The secretary writes `battle 3 won by aquilonia losses aquilonia-1 120,
//! nemedia-1 300` (points lost), `battle 3 by mail|engine|secretary`,
//! `digest`, `cancel koth 2`, `resolve` or `status`.
//!
//! [`read`] returns a [`Letter`]: the header, the orders and commands each
//! with its line, and every line not understood with the parser's words.
//! Whether an order is *allowed* is [`super::resolve::check`]'s business.

use super::game::BattleMode;
use pest::Parser;
use serde::{Deserialize, Serialize};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/campaign.pest"]
struct Grammar;

pub use crate::games::campaign::{Header, Line, Role};

/// One order of a power for this map turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// "army aquilonia-1 move to Shamar": march into a neighbouring province.
    Move { army: String, to: String },
    /// "army aquilonia-1 split Gundermen, 2nd Aquilonian Knights": the units
    /// named form a new army in the same province.
    Split { army: String, units: Vec<String> },
    /// "army aquilonia-3 merge into aquilonia-1".
    Merge { army: String, into: String },
    /// "army aquilonia-1 garrison": hold the province (behind walls in a capital).
    Garrison { army: String },
    /// "army aquilonia-1 besiege": starve out the enemy garrison here.
    Besiege { army: String },
    /// "army nemedia-1 sally": a besieged garrison comes out to fight.
    Sally { army: String },
    /// "army aquilonia-1 halt": stop a march under way.
    Halt { army: String },
    /// "raise 12 Aquilonian Knights": a new unit in the capital.
    Raise { figures: u32, designation: String },
    /// "hire grey-wolves for 100 points".
    Hire { company: String, points: u32 },
    /// A Free Company's side of a contract: "serve aquilonia for 100 points".
    Serve { employer: String, points: u32 },
    /// "pay grey-wolves with Westermarck": a province's points, from next year.
    Pay { company: String, province: String },
}

impl Order {
    /// The army an order is for, if any.
    pub fn army(&self) -> Option<&str> {
        match self {
            Order::Move { army, .. }
            | Order::Split { army, .. }
            | Order::Merge { army, .. }
            | Order::Garrison { army }
            | Order::Besiege { army }
            | Order::Sally { army }
            | Order::Halt { army } => Some(army),
            _ => None,
        }
    }
}

/// A secretary's command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// "battle 3 won by aquilonia losses aquilonia-1 120, nemedia-1 300".
    Result {
        battle: u32,
        winner: String,
        losses: Vec<(String, u32)>,
    },
    /// "battle 3 by mail" (or `engine`, `secretary`): how a waiting battle
    /// is fought (ruling CA-18).
    Choose { battle: u32, by: BattleMode },
    /// "digest" (or "orders"): every power's orders of the week, checked,
    /// in one mail.
    Digest,
    /// "cancel koth 2": drop a power's second order of the week, as the
    /// digest numbers them (a correction before the week is resolved).
    Cancel { power: String, line: u32 },
    /// "resolve": play the map turn now.
    Resolve,
    /// "rerun" (or "rerun 3 without koth 2, ophir 1"): resolve the week
    /// last resolved again, from its state before, with its orders (less
    /// those dropped, numbered as that week's digest) and its dice
    /// (ruling CA-30). `turn`, when written, must be that week's map turn.
    Rerun {
        turn: Option<u32>,
        without: Vec<(String, u32)>,
    },
    /// "move koth-1 to Corinthia": the secretary places an army (a
    /// correction, ruling CA-31).
    Place { army: String, province: String },
    /// "edit koth-1 losses 120": the secretary takes points of figures off
    /// an army (a correction, ruling CA-31).
    Losses { army: String, points: u32 },
    /// "extend 24": the week's deadline later by so many hours (ruling CA-32).
    Extend { hours: u32 },
    /// "replace koth new.player@club.example": the power handed to another
    /// player, with a fresh password (ruling CA-32).
    Replace { power: String, address: String },
    /// "replace koth general cautious": the power handed to the umpire's
    /// general of that style (issue 42).
    ReplaceGeneral { power: String, style: String },
    /// "status".
    Status,
    /// "help": the order guide.
    Help,
}

/// The order guide a power gets for HELP (and with its first report).
pub const GUIDE: &str = "\
How to write campaign orders (one order a line, between the header and END):

  CAMPAIGN <campaign> POWER <power> PASSWORD <password>
  army <army> move to <province>      march into a neighbouring province
  army <army> halt                    stop a march under way
  army <army> split <unit>, <unit>    the units named form a new army here
  army <army> merge into <army>       two of your armies in one province
  army <army> garrison                hold a capital behind its walls
  army <army> besiege                 starve out the garrison of a capital
  army <army> sally                   a besieged garrison comes out to fight
  raise <figures> <designation>       a new unit in your capital
  hire <company> for <points> points  a Free Company (it writes: serve <you> for <points> points)
  pay <company> with <province>       a province's points, from next year
  END

STATUS answers with your orders on file for this week; HELP with this guide.
Neither replaces your orders. A later message with orders replaces earlier
ones for the same week.
";

/// A whole message read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Letter {
    pub header: Option<Header>,
    pub orders: Vec<Line<Order>>,
    pub commands: Vec<Line<Command>>,
    /// Lines not understood: the line and why, rustc-style.
    pub errors: Vec<Line<String>>,
}

/// Whether a message's text is campaign mail: its first line of words
/// starts with CAMPAIGN, or a later line is a whole campaign header
/// (`CAMPAIGN id POWER …` / `CAMPAIGN id SECRETARY …`) after a greeting.
pub fn is_campaign_mail(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    lines.next().is_some_and(starts_with_campaign)
        || lines.any(|l| {
            let w: Vec<&str> = l.split_whitespace().take(3).collect();
            starts_with_campaign(l)
                && w.get(2).is_some_and(|r| {
                    r.eq_ignore_ascii_case("power") || r.eq_ignore_ascii_case("secretary")
                })
        })
}

fn starts_with_campaign(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("campaign"))
}

/// Read a campaign message: lines before the header and after END are not
/// read; blank lines are skipped.
pub fn read(text: &str) -> Letter {
    let mut letter = Letter::default();
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || (letter.header.is_none() && !starts_with_campaign(t)) {
            continue;
        }
        let number = i + 1;
        match Grammar::parse(Rule::line, t) {
            Ok(mut pairs) => {
                let Some(item) = pairs.next().and_then(|l| l.into_inner().next()) else {
                    continue;
                };
                let text = t.to_string();
                match item.as_rule() {
                    Rule::end => break,
                    Rule::header => letter.header = Some(header(item)),
                    Rule::result
                    | Rule::choose
                    | Rule::digest
                    | Rule::cancel
                    | Rule::resolve
                    | Rule::rerun
                    | Rule::place
                    | Rule::losses
                    | Rule::extend
                    | Rule::replace
                    | Rule::replace_general
                    | Rule::status
                    | Rule::help => letter.commands.push(Line {
                        number,
                        text,
                        item: command(item),
                    }),
                    _ => letter.orders.push(Line {
                        number,
                        text,
                        item: order(item),
                    }),
                }
            }
            Err(e) => {
                let e = e
                    .with_path("orders")
                    .renamed_rules(|r| describe(*r).to_string());
                let why =
                    format!("{}", e).replace("--> orders:1:", &format!("--> orders:{number}:"));
                letter.errors.push(Line {
                    number,
                    text: t.to_string(),
                    item: why,
                });
            }
        }
    }
    letter
}

/// Grammar rules named for people.
fn describe(r: Rule) -> &'static str {
    match r {
        Rule::EOI => "the end of the line",
        Rule::WHITESPACE => "a space",
        Rule::id => "a name without spaces (a power or army, e.g. aquilonia-1)",
        Rule::number => "a number",
        Rule::word => "a word",
        Rule::name => "a name",
        Rule::to => "'to'",
        Rule::header | Rule::power_role | Rule::secretary_role => {
            "CAMPAIGN <campaign> POWER <power> PASSWORD <password>"
        }
        Rule::r#move => "army <army> move to <province>",
        Rule::split => "army <army> split <unit>, <unit>",
        Rule::merge => "army <army> merge into <army>",
        Rule::garrison | Rule::besiege | Rule::sally | Rule::halt => {
            "army <army> garrison|besiege|sally|halt"
        }
        Rule::raise => "raise <figures> <designation>",
        Rule::hire => "hire <company> for <points> points",
        Rule::serve => "serve <employer> for <points> points",
        Rule::pay => "pay <company> with <province>",
        Rule::loss => "<army> <points lost>",
        Rule::result => "battle <n> won by <power> losses <army> <points>, <army> <points>",
        Rule::choose => "battle <n> by mail|engine|secretary",
        Rule::mode => "mail, engine or secretary",
        Rule::cancel => "cancel <power> <order number>",
        Rule::rerun | Rule::dropped => "rerun, or rerun without <power> <order number>, …",
        Rule::place => "move <army> to <province>",
        Rule::losses => "edit <army> losses <points>",
        Rule::extend => "extend <hours>",
        Rule::replace => "replace <power> <new address>",
        Rule::replace_general | Rule::general => "replace <power> general <style>",
        Rule::resolve
        | Rule::digest
        | Rule::status
        | Rule::help
        | Rule::end
        | Rule::line
        | Rule::army
        | Rule::order
        | Rule::command => "an order, a command or END",
    }
}

fn texts(p: pest::iterators::Pair<'_, Rule>) -> Vec<String> {
    p.into_inner()
        .filter(|x| !matches!(x.as_rule(), Rule::to | Rule::general))
        .map(|x| x.as_str().trim().to_string())
        .collect()
}

fn header(p: pest::iterators::Pair<'_, Rule>) -> Header {
    let mut inner = p.into_inner();
    let campaign = inner
        .next()
        .map(|x| x.as_str().to_string())
        .unwrap_or_default();
    let role = match inner.next() {
        Some(r) if r.as_rule() == Rule::power_role => {
            Role::Power(r.into_inner().as_str().to_string())
        }
        _ => Role::Secretary,
    };
    let password = inner
        .next()
        .map(|x| x.as_str().to_string())
        .unwrap_or_default();
    Header {
        campaign,
        role,
        password,
    }
}

fn num(s: &str) -> u32 {
    s.parse().unwrap_or(u32::MAX)
}

fn order(p: pest::iterators::Pair<'_, Rule>) -> Order {
    let rule = p.as_rule();
    let t = texts(p);
    let a = || t[0].clone();
    match rule {
        Rule::r#move => Order::Move {
            army: a(),
            to: t[1].clone(),
        },
        Rule::split => Order::Split {
            army: a(),
            units: t[1..].to_vec(),
        },
        Rule::merge => Order::Merge {
            army: a(),
            into: t[1].clone(),
        },
        Rule::garrison => Order::Garrison { army: a() },
        Rule::besiege => Order::Besiege { army: a() },
        Rule::sally => Order::Sally { army: a() },
        Rule::halt => Order::Halt { army: a() },
        Rule::raise => Order::Raise {
            figures: num(&t[0]),
            designation: t[1].clone(),
        },
        Rule::hire => Order::Hire {
            company: a(),
            points: num(&t[1]),
        },
        Rule::serve => Order::Serve {
            employer: a(),
            points: num(&t[1]),
        },
        _ => Order::Pay {
            company: a(),
            province: t[1].clone(),
        },
    }
}

fn command(p: pest::iterators::Pair<'_, Rule>) -> Command {
    match p.as_rule() {
        Rule::result => {
            let mut inner = p.into_inner();
            let battle = inner.next().map_or(0, |x| num(x.as_str()));
            let winner = inner
                .next()
                .map(|x| x.as_str().to_string())
                .unwrap_or_default();
            let losses = inner
                .map(|l| {
                    let t = texts(l);
                    (t[0].clone(), num(&t[1]))
                })
                .collect();
            Command::Result {
                battle,
                winner,
                losses,
            }
        }
        Rule::choose => {
            let mut inner = p.into_inner();
            let battle = inner.next().map_or(0, |x| num(x.as_str()));
            let by = match inner
                .next()
                .map(|m| m.as_str().to_ascii_lowercase())
                .as_deref()
            {
                Some("mail") => BattleMode::Mail,
                Some("engine") => BattleMode::Engine,
                _ => BattleMode::Secretary,
            };
            Command::Choose { battle, by }
        }
        Rule::digest => Command::Digest,
        Rule::cancel => {
            let t = texts(p);
            Command::Cancel {
                power: t[0].clone(),
                line: num(&t[1]),
            }
        }
        Rule::resolve => Command::Resolve,
        Rule::rerun => {
            let mut turn = None;
            let mut without = Vec::new();
            for x in p.into_inner() {
                if x.as_rule() == Rule::number {
                    turn = Some(num(x.as_str()));
                } else {
                    let t = texts(x);
                    without.push((t[0].clone(), num(&t[1])));
                }
            }
            Command::Rerun { turn, without }
        }
        Rule::place => {
            let t = texts(p);
            Command::Place {
                army: t[0].clone(),
                province: t[1].clone(),
            }
        }
        Rule::losses => {
            let t = texts(p);
            Command::Losses {
                army: t[0].clone(),
                points: num(&t[1]),
            }
        }
        Rule::extend => Command::Extend {
            hours: num(&texts(p)[0]),
        },
        Rule::replace => {
            let t = texts(p);
            Command::Replace {
                power: t[0].clone(),
                address: t[1].clone(),
            }
        }
        Rule::replace_general => {
            let t = texts(p);
            Command::ReplaceGeneral {
                power: t[0].clone(),
                style: t[1].clone(),
            }
        }
        Rule::help => Command::Help,
        _ => Command::Status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_is_read_line_by_line() {
        let l = read(
            "Dear secretary,\nCAMPAIGN hyboria POWER aquilonia PASSWORD lion\narmy aquilonia-1 move to Shamar\n\
             army aquilonia-2 split Gundermen, 2nd Aquilonian Knights\nRAISE 12 Aquilonian Knights\n\
             army aquilonia-1 march to Shamar\nhire grey-wolves for 100 points\nEND\nsignature",
        );
        assert_eq!(
            l.header,
            Some(Header {
                campaign: "hyboria".into(),
                role: Role::Power("aquilonia".into()),
                password: "lion".into()
            })
        );
        let items: Vec<&Order> = l.orders.iter().map(|o| &o.item).collect();
        assert_eq!(
            items,
            [
                &Order::Move {
                    army: "aquilonia-1".into(),
                    to: "Shamar".into()
                },
                &Order::Split {
                    army: "aquilonia-2".into(),
                    units: vec!["Gundermen".into(), "2nd Aquilonian Knights".into()]
                },
                &Order::Raise {
                    figures: 12,
                    designation: "Aquilonian Knights".into()
                },
                &Order::Hire {
                    company: "grey-wolves".into(),
                    points: 100
                },
            ]
        );
        assert_eq!(l.errors.len(), 1);
        assert_eq!(l.errors[0].number, 6);
        assert!(
            l.errors[0].item.contains("--> orders:6:"),
            "{}",
            l.errors[0].item
        );
        assert!(
            l.errors[0]
                .item
                .contains("expected an order, a command or END"),
            "{}",
            l.errors[0].item
        );
    }

    #[test]
    fn move_without_to_and_a_province_starting_with_to() {
        let l = read("campaign c power p password x\narmy p-1 move Toran\n");
        assert_eq!(
            l.orders[0].item,
            Order::Move {
                army: "p-1".into(),
                to: "Toran".into()
            }
        );
    }

    #[test]
    fn the_secretarys_desk_commands() {
        let l = read(
            "CAMPAIGN hyboria SECRETARY PASSWORD scroll\nrerun\nRe-run 3 without koth 2, Ophir 1\n\
             move koth-1 to Kothian Plains\nmove army koth-2 to Corinthia\nedit koth-1 losses 120\n\
             extend 24 hours\nEXTEND 99999999999\nreplace koth new@club.example\n\
             Replace Ophir General Cautious\nreplace koth general.staff@club.example\n\
             rerun without koth\nmove koth-1 Corinthia\nextend soon\nEND\n",
        );
        let items: Vec<Command> = l.commands.iter().map(|c| c.item.clone()).collect();
        assert_eq!(
            items,
            [
                Command::Rerun {
                    turn: None,
                    without: vec![]
                },
                Command::Rerun {
                    turn: Some(3),
                    without: vec![("koth".into(), 2), ("Ophir".into(), 1)]
                },
                Command::Place {
                    army: "koth-1".into(),
                    province: "Kothian Plains".into()
                },
                Command::Place {
                    army: "koth-2".into(),
                    province: "Corinthia".into()
                },
                Command::Losses {
                    army: "koth-1".into(),
                    points: 120
                },
                Command::Extend { hours: 24 },
                Command::Extend { hours: u32::MAX },
                Command::Replace {
                    power: "koth".into(),
                    address: "new@club.example".into()
                },
                Command::ReplaceGeneral {
                    power: "Ophir".into(),
                    style: "Cautious".into()
                },
                // An address that begins with the word is an address.
                Command::Replace {
                    power: "koth".into(),
                    address: "general.staff@club.example".into()
                },
            ]
        );
        // A power's own "army … move to …" is still an order, not the
        // secretary's placement.
        assert!(l.orders.is_empty());
        let errors: Vec<(usize, &str)> = l
            .errors
            .iter()
            .map(|e| (e.number, e.item.as_str()))
            .collect();
        assert_eq!(errors.len(), 3, "{errors:?}");
        // Each quoted rustc-style at its line, with what was expected there.
        for ((n, why), (line, expected)) in errors.iter().zip([
            (12, "expected a number"),
            (13, "expected 'to'"),
            (14, "expected a number"),
        ]) {
            assert_eq!(*n, line);
            assert!(
                why.contains(&format!("--> orders:{line}:")) && why.contains(expected),
                "{why}"
            );
        }
    }

    #[test]
    fn secretary_commands() {
        let l = read("CAMPAIGN hyboria SECRETARY PASSWORD scroll\nbattle 3 won by nemedia losses aquilonia-1 120, nemedia-1 40\nBattle 4 by Mail\ndigest\ncancel koth 2\nresolve\n");
        assert_eq!(l.header.unwrap().role, Role::Secretary);
        assert_eq!(
            l.commands
                .iter()
                .map(|c| c.item.clone())
                .collect::<Vec<_>>(),
            [
                Command::Result {
                    battle: 3,
                    winner: "nemedia".into(),
                    losses: vec![("aquilonia-1".into(), 120), ("nemedia-1".into(), 40)]
                },
                Command::Choose {
                    battle: 4,
                    by: BattleMode::Mail
                },
                Command::Digest,
                Command::Cancel {
                    power: "koth".into(),
                    line: 2
                },
                Command::Resolve
            ]
        );
        assert!(is_campaign_mail("\n  Campaign x power y password z"));
        assert!(!is_campaign_mail("GAME ford SIDE a PASSWORD b"));
        assert!(is_campaign_mail(
            "Hi Pelias,\n\nCAMPAIGN dragon POWER koth PASSWORD x\narmy koth-1 halt"
        ));
        assert!(!is_campaign_mail(
            "GAME ford SIDE a PASSWORD b\nCampaign going well, thanks"
        ));
        let greeted =
            read("Hi Pelias,\n\nCAMPAIGN dragon POWER koth PASSWORD x\narmy koth-1 halt\nEND");
        assert!(
            greeted.header.is_some() && greeted.errors.is_empty(),
            "{:?}",
            greeted.errors
        );
        assert_eq!(greeted.orders.len(), 1);
    }
}
