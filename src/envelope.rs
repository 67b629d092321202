//! The envelope of a mailed message, the same for every rule set: the
//! header (`GAME g SIDE s PASSWORD p [TURN n]` or `MODERATOR g PASSWORD p`),
//! the mail commands (`STATUS`, `HELP`, … and the moderator's), and the end
//! marker (`END`, or a signature's `--`). What is left is the rule set's
//! sheet of orders: [`Envelope::sheet`] is the text with the envelope's lines
//! blanked out byte for byte, so every span a rule set reports still points
//! into the text the player wrote.
//!
//! ```
//! use umpire::envelope::{read, Command, Role};
//! let env = read(
//!     "GAME tarantia SIDE aquilonia PASSWORD lion TURN 3\n\
//!      STATUS\n\
//!      Black Dragons: phase 1 charge Nemedian Knights\n\
//!      END\n\
//!      -- my signature",
//! );
//! let h = env.header.unwrap().node;
//! assert_eq!(h.game, "tarantia");
//! assert_eq!(h.role, Role::Player { side: "aquilonia".into() });
//! assert_eq!(env.commands[0].node, Command::Status);
//! assert!(env.sheet.trim().starts_with("Black Dragons:"));
//! assert!(!env.sheet.contains("END") && !env.sheet.contains("signature"));
//! assert!(env.diagnostics.is_empty());
//! ```
//!
//! Architecture invariant: nothing here knows a rule set. Dice keys are read
//! as text; the game's rule set says whether a key and its value can be.

use crate::diagnostic::{Severity, Span};
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/envelope.pest"]
struct EnvelopeParser;

/// A node with the span of text it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

/// Who the message says it is from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// `GAME g SIDE s PASSWORD p`.
    Player { side: String },
    /// `MODERATOR g PASSWORD p` (or `GAME g MODERATOR PASSWORD p`).
    Moderator,
}

/// The header: `GAME <game> SIDE <side> PASSWORD <password> [TURN <n>
/// [PHASE <p>]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub game: String,
    pub role: Role,
    pub password: String,
    /// The turn the orders are for, if written (a check against late mail).
    pub turn: Option<u32>,
    /// The phase of that turn, if written (FR! Ancients' turns have two).
    pub phase: Option<u32>,
}

/// One die the moderator gave: `melee:dragons=4`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenDie {
    /// The dice key as written, for the rule set to check.
    pub key: String,
    pub value: u32,
    pub span: Span,
}

/// Commands a mail may carry besides orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `STATUS`: mail me the state of the game.
    Status,
    /// `HELP`: mail me the player's guide; `HELP moving`: one section of it.
    Help(Option<String>),
    /// `RESEND`: mail me the last report again.
    Resend,
    /// `READY`: my orders as they stand may be played before the deadline,
    /// though some lines were refused.
    Ready,
    /// `WAIT`: do not play the round on my orders before the deadline.
    Wait,
    /// `HISTORY 4`: mail me the report of turn 4.
    History(u32),
    /// Moderator: `DEADLINE 2026-12-01 18:00`, in the game's time zone.
    Deadline(chrono::NaiveDateTime),
    /// Moderator: `EXTEND 24` hours.
    Extend(u32),
    /// Moderator: `FORCE`: adjudicate now.
    Force,
    /// Moderator: `HOLD ON` / `HOLD OFF`: hold turns for approval.
    HoldTurns(bool),
    /// Moderator: `APPROVE [turn]`.
    Approve(Option<u32>),
    /// Moderator: `REJECT [turn]`: play the held turn again from a fresh seed.
    Reject(Option<u32>),
    /// Moderator: `READJUDICATE [turn]`: judge the last turn played again
    /// under this build's rules, with its own orders, seed and dice.
    Readjudicate(Option<u32>),
    /// Moderator: `REPLACE <side> <address>`.
    Replace { side: String, address: String },
    /// Moderator: `REPLACE <side> GENERAL <style>`: the umpire's general
    /// plays the side from now on.
    ReplaceGeneral { side: String, style: String },
    /// Moderator: `PAUSE`.
    Pause,
    /// Moderator: `RESUME`.
    Resume,
    /// Moderator: `END GAME`.
    EndGame,
    /// Moderator: `UNLOCK <side>`: lift a lockout after wrong passwords.
    Unlock { side: String },
    /// Moderator: `RESET PASSWORD side`.
    ResetPassword { side: String },
    /// Player: `NEW PASSWORD secret`.
    NewPassword(String),
    /// Player: `TIMEZONE Europe/Paris`: the deadlines I am shown in my zone.
    TimeZone(String),
    /// Player: `PRESS TO nemedia` (or `ALL`) … `END PRESS`; moderator:
    /// `BROADCAST` … `END BROADCAST`. The message's lines are the block's.
    Press(Press),
    /// Moderator: `PRESS OFF` / `PRESS ON`: press between the players stops, or goes on.
    PressSwitch(bool),
    /// Player: `ABSENT FROM 2026-12-10 TO 2026-12-20` or `ABSENT CANCEL`.
    Absent(Absent),
    /// Moderator: `DICE [TURN 3] melee:dragons=4 fire:boss:1=3`: the
    /// moderator's own dice for a turn (keys as in rules cases).
    Dice {
        turn: Option<u32>,
        rolls: Vec<GivenDie>,
    },
    /// Moderator: `ORDERS FOR side`: the lines after it, to the next
    /// `ORDERS FOR` or `END`, are that side's orders ([`Envelope::orders_for`]).
    OrdersFor { side: String },
}

impl Command {
    /// Commands only a moderator may give.
    pub fn is_moderator_only(&self) -> bool {
        !matches!(
            self,
            Command::Status
                | Command::Help(_)
                | Command::Resend
                | Command::History(_)
                | Command::Ready
                | Command::Wait
                | Command::NewPassword(_)
                | Command::TimeZone(_)
                | Command::Press(Press { to: Some(_), .. })
                | Command::Absent(_)
        )
    }
}

/// A block of press: `PRESS TO nemedia`, the message's lines, `END PRESS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Press {
    /// The side or `ALL` as written; `None`: the moderator's `BROADCAST`.
    pub to: Option<String>,
    /// `GREY PRESS TO …`: the sender's side not named to the readers.
    pub grey: bool,
    /// The message as written, its first and last blank lines dropped.
    pub body: String,
}

/// What an `ABSENT` line asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absent {
    /// `ABSENT FROM 2026-12-10 TO 2026-12-20`: both days included, in the
    /// player's time zone.
    Between {
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    },
    /// `ABSENT CANCEL`: I am back (or not going).
    Cancel,
}

/// What can be wrong with an envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Trouble {
    /// `GAME g SIDE s` without `PASSWORD`.
    IncompleteHeader,
    /// `DEADLINE 2026-02-30 12:00`: no such date.
    BadDate,
    /// A moderator command without a `MODERATOR` header.
    NotModerator,
    /// `EXTEND soon`: a command's keyword, but the rest does not read.
    BadCommand,
    /// A line of a moderator's mail that is no command (`EXTNED 24`).
    NotACommand,
    /// `PRESS TO nemedia` whose block has no `END PRESS` before the mail ends:
    /// nothing of it is sent, and its lines are read as the rest of the mail.
    UnclosedPress,
}

impl Severity for Trouble {
    fn is_error(&self) -> bool {
        true
    }
}

/// A diagnostic about the envelope.
pub type Diagnostic = crate::diagnostic::Diagnostic<Trouble>;

/// A message's envelope and the sheet of orders it carries.
#[derive(Debug, Clone)]
pub struct Envelope {
    pub header: Option<Spanned<Header>>,
    pub commands: Vec<Spanned<Command>>,
    /// The text with the header, command and end lines (and everything
    /// after the end) blanked: the rule set's sheet, offsets unchanged.
    pub sheet: String,
    /// What the envelope could not take, in the order of the text.
    pub diagnostics: Vec<Diagnostic>,
    /// The text read (the spans point into it).
    pub source: String,
}

/// One header word as read from a line.
enum Field {
    Game(String),
    Side(String),
    Password(String),
    Turn(u32),
    Phase(u32),
    Moderator(Option<String>),
}

/// Read the envelope of a mail body (quotes and signatures already removed).
/// Never fails: what is not understood is in `diagnostics` or left in the
/// sheet for the rule set to judge.
pub fn read(text: &str) -> Envelope {
    let mut sheet = String::with_capacity(text.len());
    let mut fields = Vec::new();
    let mut commands: Vec<Spanned<Command>> = Vec::new();
    let mut diagnostics = Vec::new();
    let mut ended = false;
    let mut offset = 0;
    // The press block being read: its command's index and its lines.
    let mut block: Option<(usize, Vec<(usize, &str)>)> = None;
    for (i, raw) in text.split('\n').enumerate() {
        if i > 0 {
            sheet.push('\n');
        }
        let start = offset;
        offset += raw.len() + 1;
        let line = raw.trim_end_matches('\r');
        // The signature separator "-- " ends the orders like END does.
        ended |= line.trim_end() == "--";
        if let Some((at, lines)) = block.as_mut() {
            if !ended && !is_end_marker(line) {
                if closes_press(line) {
                    if let Command::Press(p) = &mut commands[*at].node {
                        p.body = press_body(lines);
                    }
                    block = None;
                } else {
                    lines.push((start, line));
                }
                sheet.push_str(&" ".repeat(raw.len()));
                continue;
            }
            unclosed(&mut commands, &mut diagnostics, &mut sheet, *at, lines);
            block = None;
        }
        let before = commands.len();
        let consumed = ended
            || read_line(
                line,
                start,
                &mut fields,
                &mut commands,
                &mut diagnostics,
                &mut ended,
            );
        if consumed {
            // Blanked byte for byte, so offsets after it are unchanged.
            sheet.push_str(&" ".repeat(raw.len()));
        } else {
            sheet.push_str(raw);
        }
        if commands.len() > before && matches!(commands[before].node, Command::Press(_)) {
            block = Some((before, Vec::new()));
        }
    }
    if let Some((at, lines)) = block {
        unclosed(&mut commands, &mut diagnostics, &mut sheet, at, &lines);
    }
    let header = assemble_header(&fields, &mut diagnostics);
    let moderator = matches!(
        &header,
        Some(Spanned {
            node: Header {
                role: Role::Moderator,
                ..
            },
            ..
        })
    );
    if !moderator {
        // "Orders for turn 3:" in a player's mail is the player's own text.
        commands.retain(|c| {
            let keep = !matches!(c.node, Command::OrdersFor { .. });
            if !keep {
                restore_line(&mut sheet, text, c.span);
            }
            keep
        });
    }
    for c in &commands {
        if c.node.is_moderator_only() && !moderator {
            diagnostics.push(
                Diagnostic::new(
                    Trouble::NotModerator,
                    c.span,
                    "only the moderator may give this command",
                )
                .with_help("start the mail with 'MODERATOR <game> PASSWORD <password>'"),
            );
        }
    }
    diagnostics.sort_by_key(|d| d.span.start);
    Envelope {
        header,
        commands,
        sheet,
        diagnostics,
        source: text.to_string(),
    }
}

/// A line that ends the mail (`END`, `END ORDERS`): a block of press open
/// there was never closed.
fn is_end_marker(line: &str) -> bool {
    EnvelopeParser::parse(Rule::line, line)
        .ok()
        .and_then(|mut p| p.next())
        .and_then(|p| p.into_inner().find(|p| p.as_rule() != Rule::EOI))
        .is_some_and(|p| p.as_rule() == Rule::end_marker)
}

/// `END PRESS` (or `END BROADCAST`), in any case, with a trailing stop.
fn closes_press(line: &str) -> bool {
    let words: Vec<String> = line
        .trim()
        .trim_end_matches(['.', ';', ','])
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    matches!(
        words.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ["end", "press" | "broadcast"]
    )
}

/// A block's lines as the message: its first and last blank lines dropped.
fn press_body(lines: &[(usize, &str)]) -> String {
    let written: Vec<&str> = lines.iter().map(|(_, l)| *l).collect();
    let first = written.iter().position(|l| !l.trim().is_empty());
    let last = written.iter().rposition(|l| !l.trim().is_empty());
    match (first, last) {
        (Some(a), Some(b)) => written[a..=b].join("\n"),
        _ => String::new(),
    }
}

/// A block of press the mail ended inside: not sent; its lines go back to
/// the sheet (they may be orders written after a forgotten `END PRESS`).
fn unclosed(
    commands: &mut Vec<Spanned<Command>>,
    diagnostics: &mut Vec<Diagnostic>,
    sheet: &mut String,
    at: usize,
    lines: &[(usize, &str)],
) {
    let c = commands.remove(at);
    let what = match &c.node {
        Command::Press(Press { to: None, .. }) => "BROADCAST",
        _ => "PRESS",
    };
    for (start, line) in lines {
        sheet.replace_range(*start..start + line.len(), line);
    }
    diagnostics.push(
        Diagnostic::new(
            Trouble::UnclosedPress,
            c.span,
            format!("this {what} has no END {what} line: nothing of it was sent"),
        )
        .with_help(format!(
            "write END {what} alone on the line after the message; the lines after this one were read as the rest of your mail"
        )),
    );
}

/// Put the line holding `span` back into the sheet, as written.
fn restore_line(sheet: &mut String, text: &str, span: Span) {
    let start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[span.start..]
        .find('\n')
        .map_or(text.len(), |i| span.start + i);
    sheet.replace_range(start..end, &text[start..end]);
}

/// The sheet of one side's orders entered by the moderator (`ORDERS FOR side`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrdersFor {
    /// The side as the moderator wrote it.
    pub side: String,
    /// The `ORDERS FOR` line.
    pub span: Span,
    /// The text with everything but this side's lines blanked, offsets kept.
    pub sheet: String,
}

/// The most lines of a moderator's mail that no command read which
/// [`Envelope::orders_for`] lists, each quoted in the reply; the rest are
/// counted in one more line. A player's reply is bounded so too (50 errors
/// listed): a mail of 20,000 such lines was answered by 7 MB quoting
/// every one (issue 43).
pub const MAX_STRAY: usize = 50;

/// The moderator's commands as they are written, for suggestions.
const MODERATOR_WORDS: [&str; 23] = [
    "STATUS",
    "HELP",
    "DEADLINE",
    "EXTEND",
    "FORCE",
    "HOLD",
    "APPROVE",
    "REJECT",
    "READJUDICATE",
    "REPLACE",
    "PAUSE",
    "RESUME",
    "END GAME",
    "DICE",
    "UNLOCK",
    "RESET PASSWORD",
    "BROADCAST",
    "PRESS",
    "ORDERS FOR",
    "HISTORY",
    "RESEND",
    "END",
    "MODERATOR",
];

impl Envelope {
    /// A moderator's mail: the sheets of `ORDERS FOR` blocks, and a
    /// diagnostic for every other line of the sheet, which no command read
    /// (with the command it most looks like).
    pub fn orders_for(&self) -> (Vec<OrdersFor>, Vec<Diagnostic>) {
        let starts: Vec<(&str, Span)> = self
            .commands
            .iter()
            .filter_map(|c| match &c.node {
                Command::OrdersFor { side } => Some((side.as_str(), c.span)),
                _ => None,
            })
            .collect();
        let mut blocks = Vec::new();
        for (i, (side, span)) in starts.iter().enumerate() {
            let end = starts
                .get(i + 1)
                .map_or(self.sheet.len(), |(_, next)| next.start);
            let mut sheet = String::with_capacity(self.sheet.len());
            for (at, c) in self.sheet.char_indices() {
                if (span.end..end).contains(&at) || c == '\n' {
                    sheet.push(c);
                } else {
                    // Blanked byte for byte, so offsets are unchanged.
                    sheet.extend(std::iter::repeat_n(' ', c.len_utf8()));
                }
            }
            blocks.push(OrdersFor {
                side: side.to_string(),
                span: *span,
                sheet,
            });
        }
        let first = starts.first().map_or(self.sheet.len(), |(_, s)| s.start);
        let mut stray = Vec::new();
        // Past MAX_STRAY, lines are only counted: where they start, how many.
        let mut unlisted: Option<(Span, usize)> = None;
        let mut offset = 0;
        for line in self.sheet[..first].split('\n') {
            let lead = line.len() - line.trim_start().len();
            let written = line.trim();
            if !written.is_empty() && stray.len() == MAX_STRAY {
                let span = Span::new(offset + lead, offset + lead + written.len());
                unlisted.get_or_insert((span, 0)).1 += 1;
            } else if !written.is_empty() {
                let span = Span::new(offset + lead, offset + lead + written.len());
                let word = written.split_whitespace().next().unwrap_or("");
                let d = Diagnostic::new(
                    Trouble::NotACommand,
                    span,
                    "not a moderator command; nothing was done for this line",
                );
                stray.push(match crate::names::closest(word, MODERATOR_WORDS.iter().map(|w| (*w, *w))) {
                    Some(w) => d.with_help(format!("did you mean {w}? {}", usage(w))),
                    None => d.with_help(format!(
                        "the moderator's commands are {}; a side's orders go after ORDERS FOR <side>",
                        MODERATOR_WORDS[..18].join(", ")
                    )),
                });
            }
            offset += line.len() + 1;
        }
        if let Some((span, more)) = unlisted {
            stray.push(
                Diagnostic::new(
                    Trouble::NotACommand,
                    span,
                    format!(
                        "{more} more {} from here on {} not moderator commands and {} not listed; nothing was done for {}",
                        if more == 1 { "line" } else { "lines" },
                        if more == 1 { "is" } else { "are" },
                        if more == 1 { "is" } else { "are" },
                        if more == 1 { "it" } else { "them" },
                    ),
                )
                .with_help("write one command to a line; a side's orders go after ORDERS FOR <side>"),
            );
        }
        (blocks, stray)
    }
}

/// Read one line; true when it belongs to the envelope (header, command,
/// end marker, or a command keyword whose line did not read).
fn read_line(
    line: &str,
    off: usize,
    fields: &mut Vec<(Field, Span)>,
    commands: &mut Vec<Spanned<Command>>,
    diagnostics: &mut Vec<Diagnostic>,
    ended: &mut bool,
) -> bool {
    if line.trim().is_empty() {
        return false;
    }
    let Ok(mut pairs) = EnvelopeParser::parse(Rule::line, line) else {
        if EnvelopeParser::parse(Rule::command_word, line.trim_start()).is_ok() {
            let lead = line.len() - line.trim_start().len();
            let word = line.split_whitespace().next().unwrap_or("");
            diagnostics.push(
                Diagnostic::new(
                    Trouble::BadCommand,
                    Span::new(off + lead, off + line.trim_end().len()),
                    format!("could not read this {} command", word.to_uppercase()),
                )
                .with_help(usage(word)),
            );
            return true;
        }
        return false;
    };
    let Some(first) = pairs
        .next()
        .and_then(|p| p.into_inner().find(|p| p.as_rule() != Rule::EOI))
    else {
        return false;
    };
    match first.as_rule() {
        Rule::end_marker => *ended = true,
        Rule::header_line => fields.extend(header(first, off)),
        _ => {
            if let Some(c) = command(first, off, diagnostics) {
                commands.push(c);
            }
        }
    }
    true
}

/// How a command is written, for the help of a line that did not read.
fn usage(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    let form = match w.as_str() {
        "history" => "HISTORY 3 (the report of turn 3)",
        "deadline" => "DEADLINE 2026-12-01 18:00 (in the game's time zone)",
        "extend" => "EXTEND 24 (hours)",
        "approve" => "APPROVE 3 (the turn whose draft report to release)",
        "replace" => "REPLACE nemedia new.player@example.org",
        "dice" => "DICE TURN 3 melee:dragons=4 fire:boss:1=3",
        "unlock" => "UNLOCK nemedia (the side whose password is locked)",
        "orders" | "orders for" => "ORDERS FOR nemedia, then that side's order lines, then END",
        "reset" | "reset password" => "RESET PASSWORD nemedia",
        "hold" => "HOLD ON (or HOLD OFF)",
        "timezone" => "TIMEZONE Europe/Paris (a zone of the tz database)",
        "press" | "grey" | "gray" => {
            "PRESS TO nemedia (one side, or ALL), the message on the lines after it, then END PRESS; the moderator: PRESS OFF or PRESS ON"
        }
        "broadcast" => "BROADCAST, the message on the lines after it, then END BROADCAST",
        "absent" => "ABSENT FROM 2026-12-10 TO 2026-12-20 (both days, your time zone), or ABSENT CANCEL",
        _ => return format!("write {} alone on its line", word.to_uppercase()),
    };
    format!("write it as: {form}")
}

fn span(p: &Pair<Rule>, off: usize) -> Span {
    let s = p.as_span();
    Span::new(off + s.start(), off + s.end())
}

fn header(p: Pair<Rule>, off: usize) -> Vec<(Field, Span)> {
    let mut out = Vec::new();
    for f in p.into_inner() {
        let sp = span(&f, off);
        let value = f
            .clone()
            .into_inner()
            .find(|x| matches!(x.as_rule(), Rule::token | Rule::int | Rule::turn_number))
            .map(|x| x.as_str().to_string());
        let field = match (f.as_rule(), value) {
            (Rule::game_field, Some(v)) => Field::Game(v),
            (Rule::side_field, Some(v)) => Field::Side(v),
            (Rule::password_field, Some(v)) => Field::Password(v),
            (Rule::turn_field, Some(v)) => match v.parse() {
                Ok(n) => Field::Turn(n),
                Err(_) => continue,
            },
            (Rule::phase_field, Some(v)) => match v.parse() {
                Ok(n) => Field::Phase(n),
                Err(_) => continue,
            },
            (Rule::moderator_field, v) => Field::Moderator(v),
            _ => continue,
        };
        out.push((field, sp));
    }
    out
}

fn int_in(p: &Pair<Rule>) -> Option<u32> {
    p.clone()
        .into_inner()
        .find(|x| x.as_rule() == Rule::int)
        .and_then(|x| x.as_str().parse().ok())
}

fn command(
    p: Pair<Rule>,
    off: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Spanned<Command>> {
    let sp = span(&p, off);
    let c = match p.as_rule() {
        Rule::status_cmd => Command::Status,
        Rule::help_cmd => Command::Help(
            p.clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::help_topic)
                .map(|x| x.as_str().trim_start_matches([':', ' ']).trim().to_string())
                .filter(|t| !t.is_empty()),
        ),
        Rule::resend_cmd => Command::Resend,
        Rule::ready_cmd => Command::Ready,
        Rule::wait_cmd => Command::Wait,
        Rule::history_cmd => Command::History(int_in(&p)?),
        Rule::deadline_cmd => {
            let text: Vec<&str> = p
                .clone()
                .into_inner()
                .filter(|x| matches!(x.as_rule(), Rule::date | Rule::clock))
                .map(|x| x.as_str())
                .collect();
            let joined = text.join(" ");
            match chrono::NaiveDateTime::parse_from_str(&joined, "%Y-%m-%d %H:%M") {
                Ok(t) => Command::Deadline(t),
                Err(_) => {
                    diagnostics.push(
                        Diagnostic::new(
                            Trouble::BadDate,
                            sp,
                            format!("'{joined}' is not a date and time"),
                        )
                        .with_help("write DEADLINE 2026-12-01 18:00 (the game's time zone)"),
                    );
                    return None;
                }
            }
        }
        Rule::extend_cmd => Command::Extend(int_in(&p)?),
        Rule::force_cmd => Command::Force,
        Rule::hold_turns_cmd => {
            Command::HoldTurns(p.clone().into_inner().any(|x| x.as_rule() == Rule::on))
        }
        Rule::approve_cmd => Command::Approve(int_in(&p)),
        Rule::reject_cmd => Command::Reject(int_in(&p)),
        Rule::readjudicate_cmd => Command::Readjudicate(int_in(&p)),
        Rule::replace_cmd => {
            let mut t = p
                .clone()
                .into_inner()
                .filter(|x| x.as_rule() == Rule::token);
            let side = t.next()?.as_str().to_string();
            let general = p
                .clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::general_style);
            match general {
                Some(g) => Command::ReplaceGeneral {
                    side,
                    style: g
                        .into_inner()
                        .find(|x| x.as_rule() == Rule::token)?
                        .as_str()
                        .to_string(),
                },
                None => Command::Replace {
                    side,
                    address: t.next()?.as_str().to_string(),
                },
            }
        }
        Rule::pause_cmd => Command::Pause,
        Rule::resume_cmd => Command::Resume,
        Rule::end_game_cmd => Command::EndGame,
        Rule::unlock_cmd => Command::Unlock {
            side: p
                .clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::token)?
                .as_str()
                .to_string(),
        },
        Rule::reset_password_cmd => Command::ResetPassword {
            side: p
                .clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::token)?
                .as_str()
                .to_string(),
        },
        Rule::timezone_cmd => Command::TimeZone(
            p.clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::token)?
                .as_str()
                .to_string(),
        ),
        Rule::press_cmd => Command::Press(Press {
            to: Some(
                p.clone()
                    .into_inner()
                    .find(|x| x.as_rule() == Rule::token)?
                    .as_str()
                    .trim_end_matches(['.', ',', ';', ':'])
                    .to_string(),
            ),
            grey: p.clone().into_inner().any(|x| x.as_rule() == Rule::grey),
            body: String::new(),
        }),
        Rule::broadcast_cmd => Command::Press(Press {
            to: None,
            grey: false,
            body: String::new(),
        }),
        Rule::press_switch_cmd => {
            Command::PressSwitch(p.clone().into_inner().any(|x| x.as_rule() == Rule::on))
        }
        Rule::absent_cmd => {
            if p.clone().into_inner().any(|x| x.as_rule() == Rule::cancel) {
                Command::Absent(Absent::Cancel)
            } else {
                let dates: Vec<&str> = p
                    .clone()
                    .into_inner()
                    .filter(|x| x.as_rule() == Rule::date)
                    .map(|x| x.as_str())
                    .collect();
                let day = |d: &str| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok();
                match (
                    dates.first().and_then(|d| day(d)),
                    dates.get(1).and_then(|d| day(d)),
                ) {
                    (Some(from), Some(to)) => Command::Absent(Absent::Between { from, to }),
                    _ => {
                        diagnostics.push(
                            Diagnostic::new(
                                Trouble::BadDate,
                                sp,
                                format!("'{}' is not two dates", dates.join(" to ")),
                            )
                            .with_help(usage("absent")),
                        );
                        return None;
                    }
                }
            }
        }
        Rule::orders_for_cmd => Command::OrdersFor {
            side: p
                .clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::token)?
                .as_str()
                .to_string(),
        },
        Rule::new_password_cmd => Command::NewPassword(
            p.clone()
                .into_inner()
                .find(|x| x.as_rule() == Rule::token)?
                .as_str()
                .to_string(),
        ),
        Rule::dice_cmd => {
            let rolls = p
                .clone()
                .into_inner()
                .filter(|x| x.as_rule() == Rule::die_given)
                .map(|g| {
                    let (key, value) = g.as_str().split_once('=').unwrap_or((g.as_str(), ""));
                    GivenDie {
                        key: key.to_string(),
                        value: value.parse().unwrap_or(u32::MAX),
                        span: span(&g, off),
                    }
                })
                .collect();
            Command::Dice {
                turn: int_in(&p),
                rolls,
            }
        }
        _ => return None,
    };
    Some(Spanned { node: c, span: sp })
}

fn assemble_header(
    fields: &[(Field, Span)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Spanned<Header>> {
    if fields.is_empty() {
        return None;
    }
    let span = Span::new(
        fields.iter().map(|f| f.1.start).min().unwrap_or(0),
        fields.iter().map(|f| f.1.end).max().unwrap_or(0),
    );
    let (mut game, mut side, mut password, mut turn, mut phase, mut moderator) =
        (None, None, None, None, None, false);
    for (f, _) in fields {
        match f {
            Field::Game(g) => game = Some(g.clone()),
            Field::Side(s) => side = Some(s.clone()),
            Field::Password(p) => password = Some(p.clone()),
            Field::Turn(t) => turn = Some(*t),
            Field::Phase(p) => phase = Some(*p),
            Field::Moderator(g) => {
                moderator = true;
                if g.is_some() {
                    game = g.clone();
                }
            }
        }
    }
    let mut missing = Vec::new();
    if game.is_none() {
        missing.push("GAME");
    }
    if side.is_none() && !moderator {
        missing.push("SIDE");
    }
    if password.is_none() {
        missing.push("PASSWORD");
    }
    if !missing.is_empty() {
        diagnostics.push(
            Diagnostic::new(
                Trouble::IncompleteHeader,
                span,
                format!("the header lacks {}", missing.join(" and ")),
            )
            .with_help("write 'GAME <game> SIDE <side> PASSWORD <password>' on the first line"),
        );
        return None;
    }
    let role = match (moderator, side) {
        (true, _) => Role::Moderator,
        (false, Some(side)) => Role::Player { side },
        (false, None) => return None,
    };
    Some(Spanned {
        node: Header {
            game: game?,
            role,
            password: password?,
            turn,
            phase,
        },
        span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_may_name_the_phase() {
        let s = read("GAME trebia SIDE rome PASSWORD x TURN 3 PHASE 2\nRoman Cavalry: halt\nEND\n");
        let h = s.header.unwrap().node;
        assert_eq!((h.turn, h.phase), (Some(3), Some(2)));
        assert!(s.diagnostics.is_empty());
        let h = read("GAME trebia SIDE rome PASSWORD x\nphase: 1\nEND\n")
            .header
            .unwrap()
            .node;
        assert_eq!((h.turn, h.phase), (None, Some(1)));
    }

    #[test]
    fn header_on_separate_lines_any_case() {
        let s = read("game Tarantia\nSide: aquilonia\npassword  lion\nturn 4\n");
        let h = s.header.unwrap().node;
        assert_eq!(h.game, "Tarantia");
        assert_eq!(
            h.role,
            Role::Player {
                side: "aquilonia".into()
            }
        );
        assert_eq!(h.password, "lion");
        assert_eq!(h.turn, Some(4));
        assert!(s.diagnostics.is_empty());
        assert!(s.sheet.trim().is_empty());
    }

    #[test]
    fn the_turn_stands_anywhere_in_the_header() {
        for text in [
            "GAME ford SIDE nemedia TURN 2 PASSWORD serpent3\nEND\n",
            "GAME ford TURN: 2 SIDE nemedia PASSWORD serpent3\nEND\n",
            "GAME ford SIDE nemedia PASSWORD serpent3 TURN 2.\nEND\n",
        ] {
            let s = read(text);
            let h = s
                .header
                .unwrap_or_else(|| panic!("{text}: {:?}", s.diagnostics))
                .node;
            assert_eq!((h.game.as_str(), h.turn), ("ford", Some(2)), "{text}");
            assert_eq!(h.password, "serpent3", "{text}");
            assert!(s.diagnostics.is_empty(), "{text}: {:?}", s.diagnostics);
        }
        // A turn that is no whole number is no turn field.
        assert_eq!(
            read("GAME g SIDE s PASSWORD p TURN 2x\n")
                .header
                .and_then(|h| h.node.turn),
            None
        );
    }

    #[test]
    fn replace_hands_a_side_to_a_general_or_to_an_address() {
        let s = read(
            "MODERATOR g PASSWORD p\nREPLACE nemedia GENERAL cautious\nreplace nemedia with general aggressive\nREPLACE nemedia general@club.example\n",
        );
        assert!(s.diagnostics.is_empty(), "{:#?}", s.diagnostics);
        let got: Vec<Command> = s.commands.into_iter().map(|c| c.node).collect();
        let general = |style: &str| Command::ReplaceGeneral {
            side: "nemedia".into(),
            style: style.into(),
        };
        assert_eq!(
            got,
            [
                general("cautious"),
                general("aggressive"),
                Command::Replace {
                    side: "nemedia".into(),
                    address: "general@club.example".into()
                }
            ]
        );
    }

    #[test]
    fn moderator_header_both_ways() {
        for text in [
            "MODERATOR tarantia PASSWORD owl\nFORCE",
            "GAME tarantia MODERATOR PASSWORD owl\nforce",
        ] {
            let s = read(text);
            let h = s.header.unwrap().node;
            assert_eq!((h.game.as_str(), &h.role), ("tarantia", &Role::Moderator));
            assert_eq!(s.commands[0].node, Command::Force);
            assert!(s.diagnostics.is_empty(), "{text}");
        }
    }

    #[test]
    fn every_command() {
        let s = read(
            "MODERATOR g PASSWORD p\nSTATUS\nHELP\nRESEND\nHISTORY 3\nDEADLINE 2026-12-01 18:00\nEXTEND 24 hours\n\
             FORCE\nHOLD ON\nHOLD OFF\nAPPROVE\nAPPROVE 5\nREPLACE nemedia new@example.org\nPAUSE\nRESUME\nEND GAME\n\
             DICE TURN 2 melee:a=4\n",
        );
        assert!(s.diagnostics.is_empty(), "{:#?}", s.diagnostics);
        let got: Vec<Command> = s.commands.into_iter().map(|c| c.node).collect();
        let at = |d, h| {
            chrono::NaiveDate::from_ymd_opt(2026, 12, d)
                .unwrap()
                .and_hms_opt(h, 0, 0)
                .unwrap()
        };
        let die = got.last().cloned();
        assert_eq!(
            got[..15],
            [
                Command::Status,
                Command::Help(None),
                Command::Resend,
                Command::History(3),
                Command::Deadline(at(1, 18)),
                Command::Extend(24),
                Command::Force,
                Command::HoldTurns(true),
                Command::HoldTurns(false),
                Command::Approve(None),
                Command::Approve(Some(5)),
                Command::Replace {
                    side: "nemedia".into(),
                    address: "new@example.org".into()
                },
                Command::Pause,
                Command::Resume,
                Command::EndGame,
            ]
        );
        let Some(Command::Dice { turn, rolls }) = die else {
            panic!("no dice command")
        };
        assert_eq!(
            (turn, rolls[0].key.as_str(), rolls[0].value),
            (Some(2), "melee:a", 4)
        );
    }

    #[test]
    fn help_takes_a_topic() {
        let s = read("GAME g SIDE s PASSWORD p\nHELP\nhelp 4\nHELP moving.\nHelp: Mail commands\n");
        let got: Vec<Command> = s.commands.into_iter().map(|c| c.node).collect();
        assert_eq!(
            got,
            [
                Command::Help(None),
                Command::Help(Some("4".into())),
                Command::Help(Some("moving".into())),
                Command::Help(Some("Mail commands".into())),
            ]
        );
    }

    #[test]
    fn moderator_commands_need_the_moderator() {
        let s = read("GAME g SIDE s PASSWORD p\nFORCE\nSTATUS\n");
        assert_eq!(s.diagnostics.len(), 1);
        assert_eq!(s.diagnostics[0].kind, Trouble::NotModerator);
    }

    #[test]
    fn incomplete_header_and_bad_date() {
        let s = read("GAME g SIDE s\nDEADLINE 2026-02-30 12:00\n");
        assert!(s.header.is_none());
        assert_eq!(s.diagnostics.len(), 2);
    }

    #[test]
    fn a_command_word_whose_line_does_not_read_is_the_envelopes_error() {
        let s = read("MODERATOR g PASSWORD p\nEXTEND soon\nDEADLINE friday 20:00\n");
        assert_eq!(
            s.diagnostics.iter().map(|d| d.kind).collect::<Vec<_>>(),
            [Trouble::BadCommand, Trouble::BadCommand]
        );
        assert!(s.diagnostics[0].render(&s.source).contains("EXTEND 24"));
        assert!(s.sheet.trim().is_empty());
    }

    #[test]
    fn the_sheet_keeps_every_offset() {
        let text = "GAME g SIDE s PASSWORD pä\r\nKnights: phase 1 move 6\nSTATUS\nFoot: hold\nEND\nafter the end\n";
        let s = read(text);
        assert_eq!(s.sheet.len(), text.len());
        let at = text.find("Foot").unwrap();
        assert_eq!(&s.sheet[at..at + 10], "Foot: hold");
        assert!(
            !s.sheet.contains("after") && !s.sheet.contains("STATUS") && !s.sheet.contains("GAME")
        );
        assert_eq!(s.sheet.matches('\n').count(), text.matches('\n').count());
    }

    #[test]
    fn order_lines_that_begin_like_header_words_stay_in_the_sheet() {
        // "turn left 45" continues the unit above; it is no TURN header field.
        let s = read("GAME g SIDE s PASSWORD p\nKnights: phase 1 move 6\n  turn left 45\nhold\n");
        assert!(s.sheet.contains("turn left 45") && s.sheet.contains("hold"));
        assert!(s.diagnostics.is_empty());
    }

    #[test]
    fn orders_for_blocks_split_the_moderators_sheet() {
        let text = "MODERATOR g PASSWORD p\nEXTNED 24\nORDERS FOR nemedia\nKnights: hold\nORDERS FOR Aquilonia\nDragons: hold\nEND\nlost";
        let env = read(text);
        let (blocks, stray) = env.orders_for();
        assert_eq!(
            blocks.iter().map(|b| b.side.as_str()).collect::<Vec<_>>(),
            ["nemedia", "Aquilonia"]
        );
        assert_eq!(blocks[0].sheet.trim(), "Knights: hold");
        assert_eq!(blocks[1].sheet.trim(), "Dragons: hold");
        assert!(
            blocks.iter().all(|b| b.sheet.len() == text.len()),
            "offsets kept"
        );
        assert_eq!(stray.len(), 1);
        assert_eq!(&text[stray[0].span.start..stray[0].span.end], "EXTNED 24");
        assert!(stray[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("did you mean EXTEND?"));
    }

    #[test]
    fn orders_for_in_a_players_mail_is_the_players_text() {
        let env = read(
            "GAME g SIDE s PASSWORD p\nOrders for turn 3:\nOrders for aquilonia\nKnights: hold\n",
        );
        assert!(
            env.commands.is_empty() && env.diagnostics.is_empty(),
            "{:?}",
            env.diagnostics
        );
        assert!(
            env.sheet.contains("Orders for turn 3:") && env.sheet.contains("Orders for aquilonia")
        );
    }

    #[test]
    fn press_blocks_are_lifted_out_of_the_sheet() {
        let text = "GAME g SIDE aquilonia PASSWORD p\nKnights: hold\nPRESS TO Nemedia\n\nSTATUS is no command in here\nKnights: charge <b>you</b>\n\nend press.\ngrey press to all\nwho am I?\nEND PRESS\nFoot: hold\n";
        let env = read(text);
        assert!(env.diagnostics.is_empty(), "{:?}", env.diagnostics);
        let got: Vec<&Command> = env.commands.iter().map(|c| &c.node).collect();
        assert_eq!(
            got,
            [
                &Command::Press(Press {
                    to: Some("Nemedia".into()),
                    grey: false,
                    body: "STATUS is no command in here\nKnights: charge <b>you</b>".into(),
                }),
                &Command::Press(Press {
                    to: Some("all".into()),
                    grey: true,
                    body: "who am I?".into(),
                }),
            ]
        );
        assert_eq!(env.sheet.len(), text.len());
        assert!(env.sheet.contains("Knights: hold") && env.sheet.contains("Foot: hold"));
        assert!(!env.sheet.contains("charge") && !env.sheet.contains("who am I"));
    }

    #[test]
    fn a_press_block_without_its_end_is_not_sent_and_its_lines_are_read() {
        let text = "GAME g SIDE s PASSWORD p\nPRESS TO ALL\nhello\nKnights: hold\nEND\nafter";
        let env = read(text);
        assert!(env.commands.is_empty());
        assert_eq!(
            env.diagnostics.iter().map(|d| d.kind).collect::<Vec<_>>(),
            [Trouble::UnclosedPress]
        );
        assert!(env.diagnostics[0].render(&env.source).contains("END PRESS"));
        assert!(env.sheet.contains("hello\nKnights: hold") && !env.sheet.contains("after"));
        assert_eq!(env.sheet.len(), text.len());
    }

    #[test]
    fn broadcast_and_press_switch_are_the_moderators() {
        let env = read("MODERATOR g PASSWORD p\nPRESS OFF\nBROADCAST\nTruce at dawn.\nEND BROADCAST\npress on\n");
        assert!(env.diagnostics.is_empty(), "{:?}", env.diagnostics);
        let got: Vec<Command> = env.commands.into_iter().map(|c| c.node).collect();
        assert_eq!(
            got,
            [
                Command::PressSwitch(false),
                Command::Press(Press {
                    to: None,
                    grey: false,
                    body: "Truce at dawn.".into()
                }),
                Command::PressSwitch(true),
            ]
        );
        let player = read("GAME g SIDE s PASSWORD p\nBROADCAST\nhi\nEND BROADCAST\nPRESS OFF\n");
        assert_eq!(
            player
                .diagnostics
                .iter()
                .map(|d| d.kind)
                .collect::<Vec<_>>(),
            [Trouble::NotModerator, Trouble::NotModerator]
        );
    }

    #[test]
    fn absent_reads_two_dates_or_cancel() {
        let env = read("GAME g SIDE s PASSWORD p\nABSENT FROM 2026-12-10 TO 2026-12-20\nabsent cancel\nABSENT FROM 2026-12-10 TO 2026-13-01\nABSENT next week\n");
        let day = |m, d| chrono::NaiveDate::from_ymd_opt(2026, m, d).unwrap();
        let got: Vec<Command> = env.commands.into_iter().map(|c| c.node).collect();
        assert_eq!(
            got,
            [
                Command::Absent(Absent::Between {
                    from: day(12, 10),
                    to: day(12, 20)
                }),
                Command::Absent(Absent::Cancel),
            ]
        );
        assert_eq!(
            env.diagnostics.iter().map(|d| d.kind).collect::<Vec<_>>(),
            [Trouble::BadDate, Trouble::BadCommand]
        );
        assert!(env.diagnostics[1]
            .render(&env.source)
            .contains("ABSENT FROM 2026-12-10 TO"));
    }

    proptest::proptest! {
        /// Whatever bytes a press block holds, reading never panics, the
        /// sheet keeps every offset, and the orders after the block are read.
        #[test]
        fn any_bytes_in_a_press_block_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400), close in proptest::bool::ANY) {
            let body = String::from_utf8_lossy(&bytes);
            let text = format!(
                "GAME g SIDE s PASSWORD p\nPRESS TO ALL\n{body}\n{}Knights: hold\n",
                if close { "END PRESS\n" } else { "" }
            );
            let env = read(&text);
            proptest::prop_assert_eq!(env.sheet.len(), text.len());
            proptest::prop_assert!(env.sheet.contains("Knights: hold") || body.contains("--") || body.to_ascii_lowercase().contains("end"));
            for d in &env.diagnostics {
                let _ = d.render(&env.source);
            }
        }
    }
}
