//! Reading order text with `grammar/fr_orders.pest`, line by line, into
//! spanned [`Written`] orders (unchecked). A line that is not understood
//! is an [`OrderKind::Invalid`] diagnostic and the next line is read as if
//! nothing had happened.

use super::OrderKind;
use crate::diagnostic::{Diagnostic, Span};
use pest::iterators::Pair;
use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/fr_orders.pest"]
struct OrdersParser;

/// The longest line read; longer ones are refused.
const MAX_LINE: usize = 1_000;
/// Lines read at most (an army needs far fewer).
const MAX_LINES: usize = 500;

/// An order as written, before names are looked up.
#[derive(Debug, Clone, PartialEq)]
pub enum WrittenOrder {
    Move {
        x: f64,
        y: f64,
        facing: Option<f64>,
        full_speed: bool,
    },
    Face {
        facing: f64,
        full_speed: bool,
    },
    /// "deploy at 30, 12 facing 0" (the deployment round only).
    Deploy {
        x: f64,
        y: f64,
        facing: Option<f64>,
    },
    /// "advance 6": straight ahead by this distance.
    Advance {
        distance: f64,
        full_speed: bool,
    },
    /// "wheel right 45": clockwise when `right`, on the front corner it
    /// turns towards.
    Wheel {
        right: bool,
        degrees: f64,
        full_speed: bool,
    },
    /// "turn left|right|about": -90, 90 or 180 degrees in place.
    Turn {
        by: f64,
        full_speed: bool,
    },
    /// "follow Roman Hastati 1"
    Follow {
        leader: (String, Span),
    },
    Charge {
        target: (String, Span),
    },
    Shoot {
        target: (String, Span),
    },
    HoldFire,
    FireSingly,
    ShieldWall,
    Tortoise,
    FormLine,
    PassThrough {
        front: (String, Span),
    },
    Withdraw,
    CounterCharge,
    OpenRanks,
    Join {
        unit: (String, Span),
    },
    Challenge {
        character: (String, Span),
    },
}

/// One order with the span of its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    /// The unit or character the line names, and where (for a group, the
    /// whole `group …` text).
    pub who: (String, Span),
    /// The units a `group A, B, C:` line names, in order; empty for a line
    /// that names one unit or character.
    pub group: Vec<(String, Span)>,
    pub order: WrittenOrder,
    pub span: Span,
}

/// Everything read from a text.
#[derive(Debug, Default)]
pub struct Reading {
    pub orders: Vec<Written>,
    pub diagnostics: Vec<Diagnostic<OrderKind>>,
}

/// Read a whole text. Never panics.
pub fn read(text: &str) -> Reading {
    let mut reading = Reading::default();
    let mut offset = 0;
    let mut seen = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let content = strip_comment(line);
        if content.trim().is_empty() {
            continue;
        }
        seen += 1;
        if seen > MAX_LINES {
            reading.diagnostics.push(Diagnostic::new(
                OrderKind::Invalid,
                Span::new(start, start + line.len()),
                format!("more than {MAX_LINES} lines: the rest is not read"),
            ));
            break;
        }
        if content.len() > MAX_LINE {
            reading.diagnostics.push(Diagnostic::new(
                OrderKind::Invalid,
                Span::new(start, start + line.len()),
                format!("a line of more than {MAX_LINE} characters is not an order"),
            ));
            continue;
        }
        match OrdersParser::parse(Rule::line, content) {
            Ok(mut pairs) => {
                let Some(line_pair) = pairs.next() else {
                    continue;
                };
                for inner in line_pair.into_inner() {
                    if inner.as_rule() == Rule::unit_line {
                        unit_line(inner, start, &mut reading);
                    } else if inner.as_rule() == Rule::end_line {
                        return reading;
                    }
                }
            }
            Err(e) => {
                let at = match e.location {
                    pest::error::InputLocation::Pos(p) => p,
                    pest::error::InputLocation::Span((s, _)) => s,
                };
                let end = content.len().max(at + 1).min(content.len());
                let span = Span::new(start + at.min(content.len()), start + end);
                let d = Diagnostic::new(OrderKind::Invalid, span, "this line is not an order I can read")
                    .with_note("a line is `UNIT: ORDER; ORDER`, for example `Roman Hastati 1: move to 30, 20 facing 0` (docs/fr-ancients/orders.md)")
                    .with_help(
                        "orders: move to X, Y [facing B] [at full speed]; advance N; wheel left|right N; turn left|right|about; follow UNIT; face B; charge UNIT; shoot UNIT; hold fire; fire singly; shieldwall; tortoise; form line; pass through UNIT; withdraw; counter-charge; open ranks; join UNIT; challenge CHARACTER",
                    );
                reading.diagnostics.push(d);
            }
        }
    }
    reading
}

/// The line without a `#` or `//` comment.
fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min();
    cut.map_or(line, |c| &line[..c])
}

fn span_of(p: &Pair<Rule>, base: usize) -> Span {
    Span::new(base + p.as_span().start(), base + p.as_span().end())
}

/// A free-text name and its span, trimmed.
fn named(p: &Pair<Rule>, base: usize) -> (String, Span) {
    let s = p.as_str();
    let lead = s.len() - s.trim_start().len();
    let t = s.trim();
    let start = base + p.as_span().start() + lead;
    (t.to_string(), Span::new(start, start + t.len()))
}

fn number(p: Pair<Rule>) -> f64 {
    p.as_str().parse().unwrap_or(0.0)
}

fn unit_line(p: Pair<Rule>, base: usize, reading: &mut Reading) {
    let mut inner = p.into_inner();
    let Some(name) = inner.next() else { return };
    let who = named(&name, base);
    let group: Vec<(String, Span)> = if name.as_rule() == Rule::group {
        name.into_inner()
            .filter(|m| m.as_rule() == Rule::member)
            .map(|m| named(&m, base))
            .collect()
    } else {
        Vec::new()
    };
    for o in inner {
        let span = span_of(&o, base);
        let rule = o.as_rule();
        let mut parts = o.into_inner();
        let order = match rule {
            Rule::move_o => {
                let all: Vec<Pair<Rule>> = parts.collect();
                let nums: Vec<f64> = all
                    .iter()
                    .filter(|x| x.as_rule() == Rule::number)
                    .map(|x| number(x.clone()))
                    .collect();
                let full_speed = all.iter().any(|x| x.as_rule() == Rule::full_speed);
                WrittenOrder::Move {
                    x: nums[0],
                    y: nums[1],
                    facing: nums.get(2).copied(),
                    full_speed,
                }
            }
            Rule::deploy_o => {
                let nums: Vec<f64> = parts
                    .filter(|x| x.as_rule() == Rule::number)
                    .map(number)
                    .collect();
                WrittenOrder::Deploy {
                    x: nums[0],
                    y: nums[1],
                    facing: nums.get(2).copied(),
                }
            }
            Rule::advance_o | Rule::wheel_o | Rule::turn_o => relative(rule, parts.collect()),
            Rule::follow_o => {
                let Some(t) = parts.find(|x| x.as_rule() == Rule::target) else {
                    continue;
                };
                WrittenOrder::Follow {
                    leader: named(&t, base),
                }
            }
            Rule::face_o => {
                let all: Vec<Pair<Rule>> = parts.collect();
                let facing = all
                    .iter()
                    .find(|x| x.as_rule() == Rule::number)
                    .map_or(0.0, |x| number(x.clone()));
                WrittenOrder::Face {
                    facing,
                    full_speed: all.iter().any(|x| x.as_rule() == Rule::full_speed),
                }
            }
            Rule::charge_o | Rule::shoot_o | Rule::pass_o | Rule::join_o | Rule::challenge_o => {
                let Some(t) = parts.find(|x| x.as_rule() == Rule::target) else {
                    continue;
                };
                let t = named(&t, base);
                match rule {
                    Rule::charge_o => WrittenOrder::Charge { target: t },
                    Rule::shoot_o => WrittenOrder::Shoot { target: t },
                    Rule::pass_o => WrittenOrder::PassThrough { front: t },
                    Rule::join_o => WrittenOrder::Join { unit: t },
                    _ => WrittenOrder::Challenge { character: t },
                }
            }
            Rule::hold_o => WrittenOrder::HoldFire,
            Rule::singly_o => WrittenOrder::FireSingly,
            Rule::shieldwall_o => WrittenOrder::ShieldWall,
            Rule::tortoise_o => WrittenOrder::Tortoise,
            Rule::line_o => WrittenOrder::FormLine,
            Rule::withdraw_o => WrittenOrder::Withdraw,
            Rule::counter_o => WrittenOrder::CounterCharge,
            Rule::open_o => WrittenOrder::OpenRanks,
            _ => continue,
        };
        reading.orders.push(Written {
            who: who.clone(),
            group: group.clone(),
            order,
            span,
        });
    }
}

/// An `advance`, `wheel` or `turn` order from its parts.
fn relative(rule: Rule, all: Vec<Pair<Rule>>) -> WrittenOrder {
    let full_speed = all.iter().any(|x| x.as_rule() == Rule::full_speed);
    let n = all
        .iter()
        .find(|x| x.as_rule() == Rule::number)
        .map_or(0.0, |x| number(x.clone()));
    let right = all
        .iter()
        .any(|x| x.as_rule() == Rule::hand && x.as_str().eq_ignore_ascii_case("right"));
    let about = all.iter().any(|x| x.as_rule() == Rule::about);
    match rule {
        Rule::advance_o => WrittenOrder::Advance {
            distance: n,
            full_speed,
        },
        Rule::wheel_o => WrittenOrder::Wheel {
            right,
            degrees: n,
            full_speed,
        },
        _ => WrittenOrder::Turn {
            by: match (about, right) {
                (true, _) => 180.0,
                (false, true) => 90.0,
                (false, false) => -90.0,
            },
            full_speed,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_reads() {
        let text = "GAME trebia SIDE rome\n\
                    Roman Hastati 1: move to 30, 20.5 facing 90 at full speed; shieldwall\n\
                    Latin Cavalry 1: charge Numidian Horsemen 2 # a comment\n\
                    Velites 1: shoot at Balearic Slingers 1; hold fire; fire singly\n\
                    Triarii: tortoise; form line; break formation; pass through Roman Hastati 1\n\
                    Velites 2: withdraw; counter-charge; counter charge; open ranks; face 45\n\
                    Flaminius: join Roman Cavalry; challenge Hannibal Barca\n";
        let r = read(text);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let kinds: Vec<&WrittenOrder> = r.orders.iter().map(|w| &w.order).collect();
        assert_eq!(kinds.len(), 17);
        assert_eq!(
            kinds[0],
            &WrittenOrder::Move {
                x: 30.0,
                y: 20.5,
                facing: Some(90.0),
                full_speed: true
            }
        );
        assert!(
            matches!(kinds[2], WrittenOrder::Charge { target } if target.0 == "Numidian Horsemen 2")
        );
        assert!(
            matches!(kinds[3], WrittenOrder::Shoot { target } if target.0 == "Balearic Slingers 1")
        );
        assert_eq!(r.orders[2].who.0, "Latin Cavalry 1");
        let at = text.find("Numidian").unwrap();
        assert!(
            matches!(&r.orders[2].order, WrittenOrder::Charge { target } if target.1.start == at)
        );
    }

    #[test]
    fn a_bad_line_is_reported_and_the_next_still_read() {
        let r = read("Hastati: mvoe to 3, 4\nHastati: withdraw\nEND\nHastati: charge X\n");
        assert_eq!(r.diagnostics.len(), 1);
        assert_eq!(r.orders.len(), 1, "END stops the reading");
        assert_eq!(r.orders[0].order, WrittenOrder::Withdraw);
    }

    #[test]
    fn relative_deploy_and_group_orders_read() {
        let text = "Roman Hastati 1: deploy at 30, 12.5 facing 0\n\
                    Roman Hastati 2: advance 6; wheel right 45 degrees; wheel left 30 at full speed\n\
                    Roman Cavalry: turn about; turn left; Turn Right; follow Roman Hastati 1\n\
                    group Roman Hastati 1, Roman Hastati 2 ,Roman Principes 1: advance 4\n";
        let r = read(text);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let kinds: Vec<&WrittenOrder> = r.orders.iter().map(|w| &w.order).collect();
        assert_eq!(
            kinds[0],
            &WrittenOrder::Deploy {
                x: 30.0,
                y: 12.5,
                facing: Some(0.0)
            }
        );
        assert_eq!(
            kinds[1],
            &WrittenOrder::Advance {
                distance: 6.0,
                full_speed: false
            }
        );
        assert_eq!(
            kinds[2],
            &WrittenOrder::Wheel {
                right: true,
                degrees: 45.0,
                full_speed: false
            }
        );
        assert_eq!(
            kinds[3],
            &WrittenOrder::Wheel {
                right: false,
                degrees: 30.0,
                full_speed: true
            }
        );
        let turns: Vec<f64> = kinds[4..7]
            .iter()
            .map(|k| match k {
                WrittenOrder::Turn { by, .. } => *by,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(turns, [180.0, -90.0, 90.0]);
        assert!(
            matches!(kinds[7], WrittenOrder::Follow { leader } if leader.0 == "Roman Hastati 1")
        );
        assert!(r.orders[..8].iter().all(|w| w.group.is_empty()));
        let g: Vec<&str> = r.orders[8].group.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(
            g,
            ["Roman Hastati 1", "Roman Hastati 2", "Roman Principes 1"]
        );
        let at = text.find("Roman Principes 1").unwrap();
        assert_eq!(r.orders[8].group[2].1.start, at, "each member is spanned");
    }

    #[test]
    fn a_wheel_needs_a_hand_and_a_turn_a_direction() {
        let r = read("Hastati: wheel 45\nHastati: turn 90\nHastati: advance\n");
        assert_eq!(r.diagnostics.len(), 3, "{:?}", r.diagnostics);
        assert!(r.orders.is_empty());
    }

    #[test]
    fn shoot_atlas_is_not_shoot_at_las() {
        let r = read("Archers: shoot Atlas Guard\n");
        assert!(
            matches!(&r.orders[0].order, WrittenOrder::Shoot { target } if target.0 == "Atlas Guard")
        );
    }
}
