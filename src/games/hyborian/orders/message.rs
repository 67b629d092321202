//! A whole mailed message: the header naming game, side and password, the
//! mail commands (STATUS, HELP, …, and the moderator's), the unit orders,
//! and the end marker.
//!
//! ```
//! use umpire::games::hyborian::orders::{read_message, Role};
//! let sub = umpire::games::hyborian::orders::read_message(
//!     "GAME tarantia SIDE aquilonia PASSWORD lion TURN 3\n\
//!      Black Dragons: phase 1 charge Nemedian Knights\n\
//!      END\n\
//!      -- my signature",
//! );
//! let h = sub.header.unwrap().node;
//! assert_eq!(h.game, "tarantia");
//! assert_eq!(h.role, Role::Player { side: "aquilonia".into() });
//! assert_eq!(sub.sheet.blocks.len(), 1);
//! assert!(sub.syntax_errors.is_empty());
//! ```

use crate::games::hyborian::orders::ast::{OrderSheet, Spanned};
use crate::games::hyborian::orders::diagnostic::{Diagnostic, Invalid, Span};
use crate::games::hyborian::orders::parse::scan;

/// Who the message says it is from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// `GAME g SIDE s PASSWORD p`.
    Player { side: String },
    /// `MODERATOR g PASSWORD p` (or `GAME g MODERATOR PASSWORD p`).
    Moderator,
}

/// The header: `GAME <game> SIDE <side> PASSWORD <password> [TURN <n>]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub game: String,
    pub role: Role,
    pub password: String,
    /// The turn the orders are for, if written (a check against late mail).
    pub turn: Option<u32>,
}

/// One word of a header, as read from a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderField {
    Game(String),
    Side(String),
    Password(String),
    Turn(u32),
    /// `MODERATOR [game]`.
    Moderator(Option<String>),
}

/// Commands a mail may carry besides orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `STATUS`: mail me the state of the game.
    Status,
    /// `HELP`: mail me the player's guide.
    Help,
    /// `RESEND`: mail me the last report again.
    Resend,
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
    /// Moderator: `REPLACE <side> <address>`.
    Replace { side: String, address: String },
    /// Moderator: `PAUSE`.
    Pause,
    /// Moderator: `RESUME`.
    Resume,
    /// Moderator: `END GAME`.
    EndGame,
    /// Moderator: `DICE [TURN 3] melee:dragons=4 fire:boss:1=3`: the
    /// moderator's own dice for a turn (keys as in rules cases).
    Dice { turn: Option<u32>, rolls: Vec<(String, u8)> },
}

impl Command {
    /// Commands only a moderator may give.
    pub fn is_moderator_only(&self) -> bool {
        !matches!(
            self,
            Command::Status | Command::Help | Command::Resend | Command::History(_)
        )
    }
}

/// What a message says: header, commands, orders, and what was not understood.
#[derive(Debug, Clone)]
pub struct Submission {
    pub header: Option<Spanned<Header>>,
    pub commands: Vec<Spanned<Command>>,
    pub sheet: OrderSheet,
    /// Every syntax error: the header's, the commands' and the sheet's.
    pub syntax_errors: Vec<Diagnostic>,
}

/// Read the text of a mail body (quotes and signatures already removed).
/// Never fails: what is not understood is in `syntax_errors`.
pub fn read_message(text: &str) -> Submission {
    let scan = scan(text);
    let mut errors = Vec::new();
    let header = assemble_header(&scan.header, &mut errors);
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
    for c in &scan.commands {
        if c.node.is_moderator_only() && !moderator {
            errors.push(
                Diagnostic::invalid(
                    Invalid::NotModerator,
                    c.span,
                    "only the moderator may give this command",
                )
                .with_help("start the mail with 'MODERATOR <game> PASSWORD <password>'"),
            );
        }
    }
    errors.extend(scan.sheet.syntax_errors.iter().cloned());
    errors.sort_by_key(|d| d.span.start);
    Submission {
        header,
        commands: scan.commands,
        sheet: scan.sheet,
        syntax_errors: errors,
    }
}

fn assemble_header(
    fields: &[(HeaderField, Span)],
    errors: &mut Vec<Diagnostic>,
) -> Option<Spanned<Header>> {
    if fields.is_empty() {
        return None;
    }
    let span = Span::new(
        fields.iter().map(|f| f.1.start).min().unwrap_or(0),
        fields.iter().map(|f| f.1.end).max().unwrap_or(0),
    );
    let mut game = None;
    let mut side = None;
    let mut password = None;
    let mut turn = None;
    let mut moderator = false;
    for (f, _) in fields {
        match f {
            HeaderField::Game(g) => game = Some(g.clone()),
            HeaderField::Side(s) => side = Some(s.clone()),
            HeaderField::Password(p) => password = Some(p.clone()),
            HeaderField::Turn(t) => turn = Some(*t),
            HeaderField::Moderator(g) => {
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
        errors.push(
            Diagnostic::invalid(
                Invalid::IncompleteHeader,
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
    Some(Spanned::new(
        Header {
            game: game?,
            role,
            password: password?,
            turn,
        },
        span,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_on_separate_lines_any_case() {
        let s = read_message("game Tarantia\nSide: aquilonia\npassword  lion\nturn 4\n");
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
        assert!(s.syntax_errors.is_empty());
    }

    #[test]
    fn moderator_header_both_ways() {
        for text in [
            "MODERATOR tarantia PASSWORD owl\nFORCE",
            "GAME tarantia MODERATOR PASSWORD owl\nforce",
        ] {
            let s = read_message(text);
            let h = s.header.unwrap().node;
            assert_eq!((h.game.as_str(), &h.role), ("tarantia", &Role::Moderator));
            assert_eq!(s.commands[0].node, Command::Force);
            assert!(s.syntax_errors.is_empty(), "{text}");
        }
    }

    #[test]
    fn every_command() {
        let s = read_message(
            "MODERATOR g PASSWORD p\nSTATUS\nHELP\nRESEND\nHISTORY 3\nDEADLINE 2026-12-01 18:00\nEXTEND 24 hours\n\
             FORCE\nHOLD ON\nHOLD OFF\nAPPROVE\nAPPROVE 5\nREPLACE nemedia new@example.org\nPAUSE\nRESUME\nEND GAME\n",
        );
        assert!(s.syntax_errors.is_empty(), "{:#?}", s.syntax_errors);
        let got: Vec<Command> = s.commands.into_iter().map(|c| c.node).collect();
        assert_eq!(
            got,
            vec![
                Command::Status,
                Command::Help,
                Command::Resend,
                Command::History(3),
                Command::Deadline(
                    chrono::NaiveDate::from_ymd_opt(2026, 12, 1)
                        .unwrap()
                        .and_hms_opt(18, 0, 0)
                        .unwrap()
                ),
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
    }

    #[test]
    fn moderator_commands_need_the_moderator() {
        let s = read_message("GAME g SIDE s PASSWORD p\nFORCE\nSTATUS\n");
        assert_eq!(s.syntax_errors.len(), 1);
        assert_eq!(
            s.syntax_errors[0].kind,
            crate::games::hyborian::orders::diagnostic::Kind::Invalid(Invalid::NotModerator)
        );
    }

    #[test]
    fn incomplete_header_and_bad_date() {
        let s = read_message("GAME g SIDE s\nDEADLINE 2026-02-30 12:00\n");
        assert!(s.header.is_none());
        assert_eq!(s.syntax_errors.len(), 2);
    }
}
