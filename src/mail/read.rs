//! Reading one incoming message: its envelope facts, the text to read
//! orders from, and whether answering it could start a mail loop.
//!
//! The main types are [`Incoming`] (made by [`Incoming::parse`]),
//! [`LoopReason`] (from [`Incoming::loop_hazard`]) and [`MailError`].
//!
//! ```
//! use umpire::mail::read::Incoming;
//! let raw = b"From: Conan <Conan@Cimmeria.example>\r\n\
//!             To: umpire@valkia.example\r\n\
//!             Subject: orders\r\n\
//!             Message-ID: <1@cimmeria.example>\r\n\r\n\
//!             GAME valkia SIDE aquilonia PASSWORD dragon7\r\nEND\r\n\r\n\
//!             > Black Dragons: hold\r\n";
//! let mail = Incoming::parse(raw).unwrap();
//! assert_eq!(mail.from.as_ref().unwrap().address, "conan@cimmeria.example");
//! assert_eq!(mail.orders_text, "GAME valkia SIDE aquilonia PASSWORD dragon7\nEND");
//! assert!(mail.loop_hazard("umpire@valkia.example").is_none());
//! ```
//!
//! Architecture Invariant: parsing never panics and never does I/O; any
//! byte string gives either an [`Incoming`] or a [`MailError`] saying why.

use std::fmt;

use chrono::{DateTime, Utc};
use mail_parser::{Address, HeaderValue, MessageParser, MessagePart, MimeHeaders, PartType};

use super::{html, quote};

/// Largest message accepted, in bytes (what common mail servers accept).
pub const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// A sender or recipient: the address (lowercased) and the display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mailbox {
    /// `conan@cimmeria.example`, always lowercase.
    pub address: String,
    /// `Conan of Cimmeria`, as written (decoded), if given.
    pub name: Option<String>,
}

/// An attachment as listed in the message (its content is not kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentInfo {
    /// File name, if the sender gave one.
    pub name: Option<String>,
    /// MIME type such as `text/plain`, lowercase.
    pub mime: String,
    /// Decoded size in bytes.
    pub size: usize,
}

/// A parsed incoming message: what the umpire needs to know about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Message-ID without the angle brackets.
    pub message_id: Option<String>,
    pub from: Option<Mailbox>,
    pub reply_to: Option<Mailbox>,
    /// Addresses in `To:`, lowercase.
    pub to: Vec<String>,
    /// Subject, decoded and trimmed; empty if absent.
    pub subject: String,
    pub date: Option<DateTime<Utc>>,
    /// The time stamp of the topmost `Received:` field: when the last
    /// server (the club's own, which added it) took the message. Lower
    /// fields, and `Date:`, are the sender's to write and are not read.
    pub received: Option<DateTime<Utc>>,
    /// In-Reply-To without the angle brackets.
    pub in_reply_to: Option<String>,
    /// References, oldest first, without the angle brackets.
    pub references: Vec<String>,
    /// The `Auto-Submitted` header value, trimmed.
    pub auto_submitted: Option<String>,
    /// The text to read orders and commands from: the author's own words,
    /// then the content of `.txt` attachments (see the module docs).
    pub orders_text: String,
    pub attachments: Vec<AttachmentInfo>,
    /// Size of the raw message in bytes.
    pub raw_size: usize,
    /// Why the sender cannot be known, when it cannot: not exactly one
    /// `From:` header holding exactly one plain address. Such mail is never
    /// answered, and never taken for its apparent sender's.
    pub sender_trouble: Option<String>,
    signals: LoopSignals,
}

/// Header facts kept for [`Incoming::loop_hazard`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct LoopSignals {
    null_return_path: bool,
    report_type: Option<String>,
    precedence: Option<String>,
    list_header: Option<&'static str>,
    autoreply_header: Option<&'static str>,
    failed_recipients: bool,
    x_loop: Vec<String>,
    sender: Option<String>,
}

/// Why a message must not be parsed further.
///
/// ```
/// use umpire::mail::read::{Incoming, MailError};
/// assert_eq!(Incoming::parse(b"").unwrap_err(), MailError::Empty);
/// assert_eq!(Incoming::parse(b"\x00\x01\x02binary").unwrap_err().kind(), "not-a-message");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MailError {
    /// Zero bytes, or white space only.
    #[error("the message is empty: no headers and no text")]
    Empty,
    /// More than [`MAX_MESSAGE_BYTES`].
    #[error("the message is {size} bytes, over the limit of {limit} bytes; send the orders as plain text without large attachments")]
    TooLarge { size: usize, limit: usize },
    /// Bytes that are not an RFC 5322 message (no header fields, binary data).
    #[error("not an e-mail message: {reason}")]
    NotAMessage { reason: String },
}

impl MailError {
    /// A stable name for the kind of error: `empty`, `too-large`, `not-a-message`.
    pub fn kind(&self) -> &'static str {
        match self {
            MailError::Empty => "empty",
            MailError::TooLarge { .. } => "too-large",
            MailError::NotAMessage { .. } => "not-a-message",
        }
    }
}

/// Why the umpire must not answer a message (RFC 3834 and common practice).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoopReason {
    /// Sent from the umpire's own address (or carries its `X-Loop`).
    OwnAddress,
    /// From `MAILER-DAEMON`, `postmaster`, or has `X-Failed-Recipients`.
    Bounce { sender: String },
    /// `Return-Path: <>`: a delivery notification.
    NullReturnPath,
    /// `multipart/report` (delivery status, read receipt).
    Report { report_type: String },
    /// `Auto-Submitted` other than `no`.
    AutoSubmitted { value: String },
    /// `X-Autoreply`, `X-Autorespond` and kin.
    AutoResponder { header: &'static str },
    /// `Precedence: bulk`, `list`, `junk` or `auto_reply`.
    Precedence { value: String },
    /// `List-Id` or `List-Unsubscribe`: mail from a mailing list.
    MailingList { header: &'static str },
    /// A subject such as "Automatic reply: …" or "Out of Office: …".
    AutoReplySubject { subject: String },
}

impl LoopReason {
    /// A stable name for the reason: `own-address`, `bounce`, `null-return-path`,
    /// `report`, `auto-submitted`, `auto-responder`, `precedence`,
    /// `mailing-list`, `auto-reply-subject`.
    pub fn kind(&self) -> &'static str {
        match self {
            LoopReason::OwnAddress => "own-address",
            LoopReason::Bounce { .. } => "bounce",
            LoopReason::NullReturnPath => "null-return-path",
            LoopReason::Report { .. } => "report",
            LoopReason::AutoSubmitted { .. } => "auto-submitted",
            LoopReason::AutoResponder { .. } => "auto-responder",
            LoopReason::Precedence { .. } => "precedence",
            LoopReason::MailingList { .. } => "mailing-list",
            LoopReason::AutoReplySubject { .. } => "auto-reply-subject",
        }
    }
}

impl fmt::Display for LoopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopReason::OwnAddress => write!(f, "sent by the umpire itself"),
            LoopReason::Bounce { sender } => write!(f, "a bounce from {sender}"),
            LoopReason::NullReturnPath => write!(f, "a delivery notification (empty Return-Path)"),
            LoopReason::Report { report_type } => write!(f, "a {report_type} report"),
            LoopReason::AutoSubmitted { value } => {
                write!(f, "automatic mail (Auto-Submitted: {value})")
            }
            LoopReason::AutoResponder { header } => write!(f, "an automatic reply ({header})"),
            LoopReason::Precedence { value } => write!(f, "bulk mail (Precedence: {value})"),
            LoopReason::MailingList { header } => write!(f, "mailing-list mail ({header})"),
            LoopReason::AutoReplySubject { subject } => {
                write!(f, "an automatic reply (subject {subject:?})")
            }
        }
    }
}

/// Headers some auto-responders set instead of `Auto-Submitted`.
const AUTORESPONDER_HEADERS: &[&str] = &[
    "X-Autoreply",
    "X-Autorespond",
    "X-Autoresponder",
    "X-Auto-Response",
];

/// Subject prefixes of vacation replies that carry no header saying so.
const AUTO_REPLY_SUBJECTS: &[&str] = &[
    "automatic reply:",
    "auto:",
    "autoreply:",
    "auto-reply:",
    "out of office:",
    "out of office reply:",
    "abwesenheitsnotiz:",
    "automatische antwort:",
    "réponse automatique :",
];

/// Local parts of the addresses bounces come from.
const BOUNCE_SENDERS: &[&str] = &["mailer-daemon", "postmaster", "mail-daemon"];

impl Incoming {
    /// Parses a raw RFC 5322 message.
    ///
    /// Any charset and transfer encoding is decoded; a leading mbox `From `
    /// line (as procmail passes it) is skipped.
    ///
    /// # Errors
    /// [`MailError::Empty`] for no content, [`MailError::TooLarge`] over
    /// [`MAX_MESSAGE_BYTES`], [`MailError::NotAMessage`] when the bytes have
    /// no header fields (binary data, a text file).
    pub fn parse(raw: &[u8]) -> Result<Incoming, MailError> {
        if raw.len() > MAX_MESSAGE_BYTES {
            return Err(MailError::TooLarge {
                size: raw.len(),
                limit: MAX_MESSAGE_BYTES,
            });
        }
        if raw.iter().all(u8::is_ascii_whitespace) {
            return Err(MailError::Empty);
        }
        let body = skip_mbox_line(raw);
        check_header_section(body)?;
        let msg = MessageParser::default()
            .parse(body)
            .ok_or_else(|| MailError::NotAMessage {
                reason: "no header fields found".into(),
            })?;
        if !msg.headers().iter().any(|h| !h.name.is_other()) {
            return Err(MailError::NotAMessage {
                reason: "none of the header fields of an e-mail (From, To, Subject, Date, Message-ID) is present".into(),
            });
        }

        let first_mailbox = |a: Option<&Address<'_>>| {
            a.and_then(|a| a.first()).and_then(|addr| {
                Some(Mailbox {
                    address: addr.address()?.trim().to_lowercase(),
                    name: addr
                        .name()
                        .map(|n| n.trim().to_string())
                        .filter(|n| !n.is_empty()),
                })
            })
        };
        let raw_header = |name: &str| msg.header_raw(name).map(|v| v.trim().to_string());
        let content_type = msg.root_part().content_type();
        let report_type = content_type
            .filter(|ct| {
                ct.ctype().eq_ignore_ascii_case("multipart")
                    && ct
                        .subtype()
                        .is_some_and(|s| s.eq_ignore_ascii_case("report"))
            })
            .map(|ct| {
                ct.attribute("report-type")
                    .unwrap_or("unknown")
                    .to_lowercase()
            });
        let signals = LoopSignals {
            null_return_path: raw_header("Return-Path").is_some_and(|v| v.replace(' ', "") == "<>"),
            report_type,
            precedence: raw_header("Precedence").map(|v| v.to_lowercase()),
            list_header: ["List-Id", "List-Unsubscribe"]
                .into_iter()
                .find(|h| msg.header_raw(*h).is_some()),
            autoreply_header: AUTORESPONDER_HEADERS
                .iter()
                .copied()
                .find(|h| msg.header_raw(*h).is_some()),
            failed_recipients: msg.header_raw("X-Failed-Recipients").is_some(),
            x_loop: msg
                .header_values("X-Loop")
                .filter_map(|v| v.as_text())
                .map(|v| v.trim().to_lowercase())
                .collect(),
            sender: first_mailbox(msg.sender()).map(|m| m.address),
        };

        let from_headers = msg
            .headers()
            .iter()
            .filter(|h| h.name == mail_parser::HeaderName::From)
            .count();
        let from_mailboxes = msg.from().map_or(0, |a| a.iter().count());
        let from = first_mailbox(msg.from());
        let sender_trouble = match (from_headers, from_mailboxes, &from) {
            (0, _, _) => Some("the message has no From: header".to_string()),
            (1, 1, Some(m)) if super::address::is_valid(&m.address) => None,
            (1, 1, Some(m)) => Some(format!(
                "the From: address {:?} is not a plain mail address",
                m.address
            )),
            (1, n, _) if n != 1 => Some(format!("the From: header names {n} addresses")),
            (1, _, _) => Some("the From: header holds no address".to_string()),
            (n, _, _) => Some(format!("the message has {n} From: headers")),
        };
        let received = msg
            .received_all()
            .next()
            .and_then(|r| r.date())
            .filter(|d| d.is_valid())
            .and_then(|d| DateTime::from_timestamp(d.to_timestamp(), 0));
        Ok(Incoming {
            message_id: msg
                .message_id()
                .map(strip_brackets)
                .filter(|id| !id.is_empty()),
            from,
            reply_to: first_mailbox(msg.reply_to()),
            to: msg.to().map_or_else(Vec::new, |a| {
                a.iter()
                    .filter_map(|addr| addr.address())
                    .map(|s| s.trim().to_lowercase())
                    .collect()
            }),
            subject: msg.subject().unwrap_or_default().trim().to_string(),
            date: msg
                .date()
                .filter(|d| d.is_valid())
                .and_then(|d| DateTime::from_timestamp(d.to_timestamp(), 0)),
            received,
            in_reply_to: ids(msg.in_reply_to()).into_iter().next(),
            references: ids(msg.references()),
            auto_submitted: raw_header("Auto-Submitted"),
            orders_text: orders_text(&msg),
            attachments: msg.attachments().map(attachment_info).collect(),
            raw_size: raw.len(),
            sender_trouble,
            signals,
        })
    }

    /// Whether answering this message could start a mail loop; `None` when it
    /// is safe to answer. `own_address` is the umpire's address.
    pub fn loop_hazard(&self, own_address: &str) -> Option<LoopReason> {
        let own = own_address.trim().to_lowercase();
        let from = self.from.as_ref().map(|m| m.address.as_str());
        let s = &self.signals;
        let own_named = !own.is_empty();
        if own_named && (from == Some(own.as_str()) || s.x_loop.iter().any(|v| v.contains(&own))) {
            return Some(LoopReason::OwnAddress);
        }
        for address in [from, s.sender.as_deref()].into_iter().flatten() {
            let local = address.split('@').next().unwrap_or_default();
            if BOUNCE_SENDERS.contains(&local) {
                return Some(LoopReason::Bounce {
                    sender: address.to_string(),
                });
            }
        }
        if s.failed_recipients {
            return Some(LoopReason::Bounce {
                sender: from.unwrap_or_default().to_string(),
            });
        }
        if s.null_return_path {
            return Some(LoopReason::NullReturnPath);
        }
        if let Some(report_type) = &s.report_type {
            return Some(LoopReason::Report {
                report_type: report_type.clone(),
            });
        }
        if let Some(value) = &self.auto_submitted {
            if !first_token(value).eq_ignore_ascii_case("no") {
                return Some(LoopReason::AutoSubmitted {
                    value: value.clone(),
                });
            }
        }
        if let Some(header) = s.autoreply_header {
            return Some(LoopReason::AutoResponder { header });
        }
        if let Some(value) = &s.precedence {
            if ["bulk", "list", "junk", "auto_reply"].contains(&first_token(value)) {
                return Some(LoopReason::Precedence {
                    value: value.clone(),
                });
            }
        }
        if let Some(header) = s.list_header {
            return Some(LoopReason::MailingList { header });
        }
        let subject = self.subject.to_lowercase();
        if AUTO_REPLY_SUBJECTS.iter().any(|p| subject.starts_with(p)) {
            return Some(LoopReason::AutoReplySubject {
                subject: self.subject.clone(),
            });
        }
        None
    }
}

/// A header value's keyword without parameters or comments:
/// `auto-replied (vacation)` → `auto-replied`.
fn first_token(value: &str) -> &str {
    value
        .split([';', '(', ' ', '\t'])
        .next()
        .unwrap_or_default()
}

/// Skips the `From sender date` line of the mbox format, if present.
fn skip_mbox_line(raw: &[u8]) -> &[u8] {
    if raw.starts_with(b"From ") {
        let end = raw
            .iter()
            .position(|&b| b == b'\n')
            .map_or(raw.len(), |i| i + 1);
        &raw[end..]
    } else {
        raw
    }
}

/// Rejects bytes whose header section holds binary data or does not start
/// with a header field.
fn check_header_section(raw: &[u8]) -> Result<(), MailError> {
    let start = raw
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(0);
    let header = &raw[start..];
    let end = (0..header.len())
        .find(|&i| {
            header[i] == b'\n'
                && (header[i + 1..].starts_with(b"\n") || header[i + 1..].starts_with(b"\r\n"))
        })
        .unwrap_or(header.len());
    let first_line_end = header
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(header.len());
    let first_line = &header[..first_line_end.min(998)];
    let field_name_len = first_line.iter().position(|&b| b == b':');
    let named = field_name_len
        .is_some_and(|n| n > 0 && first_line[..n].iter().all(|&b| b.is_ascii_graphic()));
    if !named {
        return Err(MailError::NotAMessage {
            reason: "the first line is not a header field (\"Name: value\")".into(),
        });
    }
    if header[..end.max(first_line_end)].contains(&0) {
        return Err(MailError::NotAMessage {
            reason: "the header section contains binary data".into(),
        });
    }
    Ok(())
}

fn strip_brackets(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

/// Message ids from In-Reply-To or References, in order.
fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(id) => vec![strip_brackets(id)],
        HeaderValue::TextList(list) => list.iter().map(|id| strip_brackets(id)).collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|id| !id.is_empty())
    .collect()
}

fn attachment_info(part: &MessagePart<'_>) -> AttachmentInfo {
    let mime = part.content_type().map_or_else(
        || "application/octet-stream".to_string(),
        |ct| match ct.subtype() {
            Some(sub) => format!("{}/{}", ct.ctype(), sub).to_lowercase(),
            None => ct.ctype().to_lowercase(),
        },
    );
    let size = match &part.body {
        PartType::Message(m) => m.raw_message.len(),
        body => body.len(),
    };
    AttachmentInfo {
        name: part.attachment_name().map(str::to_string),
        mime,
        size,
    }
}

/// The author's words (text/plain preferred, HTML converted otherwise) with
/// quotes and signature removed, then any `.txt` attachments.
fn orders_text(msg: &mail_parser::Message<'_>) -> String {
    let parts = |ids: &[u32]| -> Vec<&MessagePart<'_>> {
        ids.iter()
            .filter_map(|&id| msg.parts.get(id as usize))
            .collect()
    };
    let mut body = body_text(&parts(&msg.text_body));
    if body.trim().is_empty() {
        body = body_text(&parts(&msg.html_body));
    }
    let mut sections = vec![quote::strip(&normalise(&body))];
    for part in msg.attachments() {
        if let Some(text) = orders_attachment(part) {
            sections.push(quote::tidy(&normalise(&text).lines().collect::<Vec<_>>()));
        }
    }
    let text = sections
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    // An em dash alone ends the text as a signature (see `quote`); within a
    // line it is ordinary punctuation.
    text.replace('\u{2014}', "-")
}

/// The text of the given body parts, HTML converted, joined by newlines.
fn body_text(parts: &[&MessagePart<'_>]) -> String {
    let mut out = String::new();
    for part in parts {
        let text = match &part.body {
            PartType::Text(text) => {
                flowed(part).map_or_else(|| text.to_string(), |delsp| unflow(text, delsp))
            }
            PartType::Html(html) => html::to_text(html),
            _ => continue,
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&text);
    }
    out
}

/// `Some(delsp)` when the part is `format=flowed` (RFC 3676).
fn flowed(part: &MessagePart<'_>) -> Option<bool> {
    let ct = part.content_type()?;
    ct.attribute("format")
        .filter(|f| f.eq_ignore_ascii_case("flowed"))
        .map(|_| {
            ct.attribute("delsp")
                .is_some_and(|d| d.eq_ignore_ascii_case("yes"))
        })
}

/// Joins the soft line breaks of `format=flowed` text (RFC 3676 §4).
fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open_depth: Option<usize> = None;
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        let soft = content.ends_with(' ') && content != "-- ";
        match open_depth {
            Some(d) if d == depth => {}
            Some(_) => {
                out.push('\n');
                out.push_str(&"> ".repeat(depth));
            }
            None => out.push_str(&"> ".repeat(depth)),
        }
        if soft {
            out.push_str(if delsp {
                &content[..content.len() - 1]
            } else {
                content
            });
            open_depth = Some(depth);
        } else {
            out.push_str(content);
            out.push('\n');
            open_depth = None;
        }
    }
    if open_depth.is_some() {
        out.push('\n');
    }
    out
}

/// The content of an attachment that holds orders: a file named `*.txt`, or
/// an unnamed `text/plain` attachment.
fn orders_attachment(part: &MessagePart<'_>) -> Option<String> {
    let is_plain = |part: &MessagePart<'_>| {
        part.content_type().is_none_or(|ct| {
            ct.ctype().eq_ignore_ascii_case("text")
                && ct.subtype().is_none_or(|s| s.eq_ignore_ascii_case("plain"))
        })
    };
    let named_txt = part
        .attachment_name()
        .is_some_and(|n| n.to_lowercase().ends_with(".txt"));
    match &part.body {
        PartType::Text(text)
            if named_txt || (part.attachment_name().is_none() && is_plain(part)) =>
        {
            Some(text.to_string())
        }
        PartType::Binary(bytes) | PartType::InlineBinary(bytes) if named_txt => {
            Some(String::from_utf8_lossy(bytes).into_owned())
        }
        _ => None,
    }
}

/// Unifies what mail clients do to typed text: CRLF, non-breaking and
/// other odd spaces, invisible characters, smart quotes and dashes.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\r' => {
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => {
                out.push(' ')
            }
            '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{ad}' => {}
            '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{2032}' => out.push('\''),
            '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{2033}' => out.push('"'),
            '\u{2010}'..='\u{2013}' | '\u{2212}' => out.push('-'),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_unifies_typed_text() {
        assert_eq!(
            normalise("a\r\nb\rc\u{a0}d\u{200b}\u{2019}\u{201c}x\u{201d} 4\u{2013}6"),
            "a\nb\nc d'\"x\" 4-6"
        );
    }

    #[test]
    fn unflow_joins_soft_breaks() {
        assert_eq!(
            unflow(
                "Black Dragons: phase 1 \r\ncharge Knights\r\n-- \r\nsig\r\n",
                false
            ),
            "Black Dragons: phase 1 charge Knights\n-- \nsig\n"
        );
        assert_eq!(unflow("ab \r\ncd\r\n", true), "abcd\n");
        assert_eq!(
            unflow("> quoted \r\n> more\r\nmine\r\n", false),
            "> quoted more\nmine\n"
        );
        assert_eq!(unflow(" >stuffed\n", false), ">stuffed\n");
    }

    #[test]
    fn header_section_checks() {
        assert!(check_header_section(b"Subject: x\r\n\r\nbody").is_ok());
        assert!(check_header_section(b"hello world\n").is_err());
        assert!(check_header_section(b"Subject: a\x00b\n\nx").is_err());
        assert!(check_header_section(b": nothing\n").is_err());
    }

    #[test]
    fn mbox_from_line_is_skipped() {
        let raw = b"From conan@cimmeria.example Mon Nov 30 15:04:00 2026\nFrom: conan@cimmeria.example\nSubject: s\n\nGAME x\n";
        let mail = Incoming::parse(raw).unwrap();
        assert_eq!(mail.subject, "s");
        assert_eq!(mail.orders_text, "GAME x");
    }

    #[test]
    fn ids_lose_their_brackets() {
        let raw = b"From: a@b.example\nMessage-ID: <m1@b.example>\nIn-Reply-To: <r1@u.example>\nReferences: <r0@u.example> <r1@u.example>\n\nx";
        let mail = Incoming::parse(raw).unwrap();
        assert_eq!(mail.message_id.as_deref(), Some("m1@b.example"));
        assert_eq!(mail.in_reply_to.as_deref(), Some("r1@u.example"));
        assert_eq!(mail.references, ["r0@u.example", "r1@u.example"]);
    }

    #[test]
    fn only_plain_text_attachments_are_read() {
        let raw = b"From: a@b.example\nContent-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n\nbody\n--x\nContent-Type: text/calendar\nContent-Disposition: attachment\n\nBEGIN:VCALENDAR\n--x\nContent-Type: text/plain\nContent-Disposition: attachment\n\nEND\n--x\nContent-Type: image/png; name=a.png\nContent-Disposition: attachment; filename=a.png\n\nPNG\n--x--\n";
        let mail = Incoming::parse(raw).unwrap();
        assert_eq!(mail.orders_text, "body\n\nEND");
        let mimes: Vec<&str> = mail.attachments.iter().map(|a| a.mime.as_str()).collect();
        assert_eq!(mimes, ["text/calendar", "text/plain", "image/png"]);
    }

    #[test]
    fn auto_submitted_no_is_safe() {
        let raw = b"From: a@b.example\nAuto-Submitted: no\n\nx";
        assert_eq!(
            Incoming::parse(raw)
                .unwrap()
                .loop_hazard("umpire@u.example"),
            None
        );
        let raw = b"From: a@b.example\nAuto-Submitted: auto-replied (vacation)\n\nx";
        assert_eq!(
            Incoming::parse(raw)
                .unwrap()
                .loop_hazard("umpire@u.example")
                .unwrap()
                .kind(),
            "auto-submitted"
        );
    }

    #[test]
    fn own_address_is_a_hazard_in_any_case() {
        let raw = b"From: Umpire <UMPIRE@u.example>\n\nx";
        assert_eq!(
            Incoming::parse(raw)
                .unwrap()
                .loop_hazard(" umpire@U.example "),
            Some(LoopReason::OwnAddress)
        );
        let raw = b"From: a@b.example\nX-Loop: umpire@u.example\n\nx";
        assert_eq!(
            Incoming::parse(raw)
                .unwrap()
                .loop_hazard("umpire@u.example"),
            Some(LoopReason::OwnAddress)
        );
    }

    #[test]
    fn an_empty_own_address_matches_nothing() {
        let raw = b"From: a@b.example\nX-Loop: someone\n\nx";
        assert_eq!(Incoming::parse(raw).unwrap().loop_hazard(""), None);
    }

    #[test]
    fn precedence_and_subject_hazards() {
        let raw = b"From: a@b.example\nPrecedence: Bulk (newsletter)\n\nx";
        assert_eq!(
            Incoming::parse(raw)
                .unwrap()
                .loop_hazard("u@u.example")
                .unwrap()
                .kind(),
            "precedence"
        );
        let raw = b"From: a@b.example\nSubject: Automatic reply: turn 3\n\nx";
        assert_eq!(
            Incoming::parse(raw)
                .unwrap()
                .loop_hazard("u@u.example")
                .unwrap()
                .kind(),
            "auto-reply-subject"
        );
        let raw = b"From: a@b.example\nSubject: Out of office next week, orders inside\n\nx";
        assert_eq!(
            Incoming::parse(raw).unwrap().loop_hazard("u@u.example"),
            None
        );
    }
}
