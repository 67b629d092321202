//! Composing outgoing mail: confirmations, reports, refusals.
//!
//! The main type is [`Outgoing`]; [`Outgoing::to_rfc5322`] renders it with
//! lettre's builder as `text/plain`, or `multipart/alternative` text + HTML,
//! with `multipart/related` around the HTML when it shows inline `cid:`
//! pictures, and `multipart/mixed` around everything when there are
//! attachments. Replies thread in mail clients through In-Reply-To and
//! References, and carry `Auto-Submitted: auto-replied` (RFC 3834) so that
//! well-behaved vacation responders do not answer them.
//!
//! ```
//! use umpire::mail::compose::{new_message_id, Outgoing};
//! let mail = Outgoing {
//!     from: "Valkia Umpire <umpire@valkia.example>".into(),
//!     to: vec!["conan@cimmeria.example".into()],
//!     subject: "Orders received".into(),
//!     text: "Black Dragons: phase 1 charge Nemedian Knights\n".into(),
//!     ..Outgoing::default()
//! };
//! let id = new_message_id("valkia.example", "valkia-t3-aquilonia-confirm");
//! let date = chrono::DateTime::from_timestamp(1_796_000_000, 0).unwrap();
//! let bytes = mail.to_rfc5322(&id, date).unwrap();
//! assert_eq!(bytes, mail.to_rfc5322(&id, date).unwrap()); // deterministic
//! ```
//!
//! Architecture Invariant: composing is deterministic — the same
//! [`Outgoing`], message id and date give the same bytes (MIME boundaries are
//! derived from the message id), so the outbox can store and resend exactly.

use std::ops::Range;
use std::rc::Rc;
use std::time::SystemTime;

use chrono::{DateTime, Utc};
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment as LettreAttachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;
use sha2::{Digest, Sha256};

use super::read::Incoming;

/// Most message ids kept in References: the thread's first message and the
/// latest ones, as RFC 5322 §3.6.4 allows, so long games keep short headers.
const MAX_REFERENCES: usize = 20;

/// A message to send.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outgoing {
    /// `Valkia Umpire <umpire@valkia.example>` or a bare address.
    pub from: String,
    /// Recipients, each a bare address or `Name <address>`.
    pub to: Vec<String>,
    pub subject: String,
    /// The plain-text body (always sent).
    pub text: String,
    /// An HTML alternative of the same content.
    pub html: Option<String>,
    /// Pictures the HTML shows as `<img src="cid:CONTENT_ID">`.
    pub inline_images: Vec<Inline>,
    pub attachments: Vec<Attachment>,
    /// Message-ID (without brackets) of the message answered.
    pub in_reply_to: Option<String>,
    /// Message-IDs (without brackets) of the thread, oldest first.
    pub references: Vec<String>,
    /// The message's `Auto-Submitted` (RFC 3834): an answer to a person's
    /// mail, or mail umpire makes on its own (reports, reminders).
    pub auto_submitted: AutoSubmitted,
}

/// What `Auto-Submitted` says of a message (RFC 3834). Every message umpire
/// sends is one or the other, so that well-behaved responders never answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AutoSubmitted {
    /// No header: mail a person wrote (the demo's players).
    No,
    /// `auto-replied`: an answer to a message.
    Replied,
    /// `auto-generated`: made by umpire on its own (reports, reminders, welcomes).
    #[default]
    Generated,
}

impl AutoSubmitted {
    fn value(self) -> Option<&'static str> {
        match self {
            AutoSubmitted::No => None,
            AutoSubmitted::Replied => Some("auto-replied"),
            AutoSubmitted::Generated => Some("auto-generated"),
        }
    }
}

/// A picture shown inside the HTML body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    /// Referred to from the HTML as `cid:<content_id>`.
    pub content_id: String,
    /// `image/png`, `image/svg+xml`, …
    pub mime: String,
    pub bytes: Vec<u8>,
    /// The file name a reader saves it under (`Content-Disposition:
    /// inline; filename=…`): mail clients list it with the attachments.
    pub name: Option<String>,
}

/// A file attached to the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// A message rendered ([`Outgoing::render`]): its bytes, and where in them
/// lie the encoded bodies of its large parts, for the outbox to keep each
/// once however many messages carry it (a round's reports to every player
/// and the moderator share their picture, SVG and bundle).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The message as RFC 5322 bytes ([`Outgoing::to_rfc5322`]).
    pub raw: Vec<u8>,
    /// In the order they lie, apart.
    pub shared: Vec<SharedPart>,
}

/// The encoded body of a large part within [`Rendered::raw`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedPart {
    pub range: Range<usize>,
    /// The SHA-256 of those bytes: the same digest, the same bytes.
    pub digest: [u8; 32],
}

/// Why a message could not be composed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ComposeError {
    /// An address that does not parse, e.g. `to: "conan at cimmeria"`.
    #[error("{field} address {value:?} is not a valid mail address: {reason}")]
    Address {
        field: &'static str,
        value: String,
        reason: String,
    },
    /// `to` is empty.
    #[error("the message has no recipient")]
    NoRecipients,
    /// Inline pictures need an HTML body to show them.
    #[error("inline images given without an HTML body to show them")]
    InlineWithoutHtml,
    /// A MIME type that does not parse, e.g. `png`.
    #[error("{value:?} is not a MIME type such as image/png: {reason}")]
    MimeType { value: String, reason: String },
    /// A message id that is not `local@domain`.
    #[error("message id {value:?} is not of the form local@domain")]
    MessageId { value: String },
    /// lettre refused the message.
    #[error("the message could not be built: {0}")]
    Build(String),
}

/// A Message-ID (without brackets) for the umpire's mail: readable, unique
/// for each `unique` text, and the same every time for the same inputs.
///
/// ```
/// use umpire::mail::compose::new_message_id;
/// let id = new_message_id("valkia.example", "valkia/turn 3/report");
/// assert_eq!(id, new_message_id("valkia.example", "valkia/turn 3/report"));
/// assert!(id.starts_with("umpire.valkia-turn-3-report."));
/// assert!(id.ends_with("@valkia.example"));
/// ```
pub fn new_message_id(domain: &str, unique: &str) -> String {
    let readable: String = unique
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let digest = hex::encode(&Sha256::digest(unique.as_bytes())[..6]);
    let domain: String = domain
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
        .collect();
    let domain = if domain.is_empty() {
        "localhost".to_string()
    } else {
        domain
    };
    format!("umpire.{readable}.{digest}@{domain}")
}

/// "Re: " before a subject that does not already start with it (in any
/// case, or as the German "AW:").
///
/// ```
/// use umpire::mail::compose::reply_subject;
/// assert_eq!(reply_subject("orders"), "Re: orders");
/// assert_eq!(reply_subject("RE: orders"), "RE: orders");
/// ```
pub fn reply_subject(subject: &str) -> String {
    let lower = subject.trim_start().to_lowercase();
    if ["re:", "aw:", "sv:", "antw:"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        subject.trim().to_string()
    } else {
        format!("Re: {}", subject.trim())
    }
}

impl Outgoing {
    /// Shows a picture in the HTML as `cid:content_id`, named `stem.png`
    /// for saving, and attaches its SVG as `stem.svg` for printing — how
    /// every report goes out with its picture. The PNG is in the mail once
    /// (issue 24: it was also attached, which doubled a report's size):
    /// clients list a named inline part with the attachments.
    pub fn show_picture(&mut self, content_id: String, stem: &str, png: Vec<u8>, svg: String) {
        self.inline_images.push(Inline {
            content_id,
            mime: "image/png".into(),
            bytes: png,
            name: Some(format!("{stem}.png")),
        });
        self.attachments.push(Attachment {
            name: format!("{stem}.svg"),
            mime: "image/svg+xml".into(),
            bytes: svg.into_bytes(),
        });
    }

    /// Threads this message as an answer to `original`: In-Reply-To its
    /// Message-ID, References its References plus its Message-ID (trimmed
    /// to the first and the latest ids), and `auto_submitted` replied (RFC 3834).
    ///
    /// ```
    /// use umpire::mail::{compose::Outgoing, read::Incoming};
    /// let orders = Incoming::parse(b"From: conan@aquilonia.example\nMessage-ID: <o3@aquilonia.example>\nReferences: <r2@valkia.example>\n\nEND").unwrap();
    /// let reply = Outgoing::default().replying_to(&orders);
    /// assert_eq!(reply.in_reply_to.as_deref(), Some("o3@aquilonia.example"));
    /// assert_eq!(reply.references, ["r2@valkia.example", "o3@aquilonia.example"]);
    /// assert_eq!(reply.auto_submitted, umpire::mail::compose::AutoSubmitted::Replied);
    /// ```
    pub fn replying_to(mut self, original: &Incoming) -> Self {
        let mut references = original.references.clone();
        if references.is_empty() {
            references.extend(original.in_reply_to.clone());
        }
        references.extend(original.message_id.clone());
        references.dedup();
        if references.len() > MAX_REFERENCES {
            references.drain(1..references.len() - (MAX_REFERENCES - 1));
        }
        self.in_reply_to = original.message_id.clone();
        self.references = references;
        self.auto_submitted = AutoSubmitted::Replied;
        self
    }

    /// Renders the message as RFC 5322 bytes with CRLF line ends.
    ///
    /// # Errors
    /// A [`ComposeError`] for an unparsable address or MIME type, no
    /// recipient, inline images without HTML, or a malformed message id.
    pub fn to_rfc5322(
        &self,
        message_id: &str,
        date: DateTime<Utc>,
    ) -> Result<Vec<u8>, ComposeError> {
        self.render(message_id, date).map(|r| r.raw)
    }

    /// [`Outgoing::to_rfc5322`]'s bytes, with where its large parts'
    /// encoded bodies lie in them.
    ///
    /// # Errors
    /// As [`Outgoing::to_rfc5322`].
    pub fn render(&self, message_id: &str, date: DateTime<Utc>) -> Result<Rendered, ComposeError> {
        let message_id = message_id
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>');
        if !valid_id(message_id) {
            return Err(ComposeError::MessageId {
                value: message_id.to_string(),
            });
        }
        if self.to.is_empty() {
            return Err(ComposeError::NoRecipients);
        }
        if !self.inline_images.is_empty() && self.html.is_none() {
            return Err(ComposeError::InlineWithoutHtml);
        }
        let mut builder = Message::builder()
            .from(mailbox("from", &self.from)?)
            .subject(one_line(&self.subject))
            .date(SystemTime::from(date))
            .message_id(Some(format!("<{message_id}>")));
        for to in &self.to {
            builder = builder.to(mailbox("to", to)?);
        }
        // Threading ids come from the mail answered: a malformed one only
        // costs the thread, never the answer.
        let threading =
            |id: &&String| valid_id(id.trim().trim_start_matches('<').trim_end_matches('>'));
        if let Some(id) = self.in_reply_to.iter().find(threading) {
            builder = builder.in_reply_to(bracketed(id));
        }
        let refs: Vec<String> = self
            .references
            .iter()
            .filter(threading)
            .map(|id| bracketed(id))
            .collect();
        if !refs.is_empty() {
            builder = builder.references(refs.join(" "));
        }
        if let Some(value) = self.auto_submitted.value() {
            builder = builder.raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Auto-Submitted"),
                value.into(),
            ));
        }
        let boundary = Boundaries::new(message_id);
        let mut large = Vec::new();
        let body = self.body(&boundary, &mut large)?;
        let message = match body {
            Body::Single(part) => builder.singlepart(part),
            Body::Multi(part) => builder.multipart(part),
        }
        .map_err(|e| ComposeError::Build(e.to_string()))?;
        let raw = message.formatted();
        let shared = located(&raw, &large);
        Ok(Rendered { raw, shared })
    }

    /// The MIME tree: text, alternative, related and mixed as needed.
    /// `large` gets the encodings of the large parts, in the order written.
    fn body(
        &self,
        boundary: &Boundaries,
        large: &mut Vec<LargePart>,
    ) -> Result<Body, ComposeError> {
        let text = SinglePart::plain(normalise_newlines(&self.text));
        let readable = match &self.html {
            None => Body::Single(text),
            Some(html) => {
                let html = SinglePart::html(normalise_newlines(html));
                let html = if self.inline_images.is_empty() {
                    Body::Single(html)
                } else {
                    let mut related = MultiPart::related()
                        .boundary(boundary.next("related"))
                        .singlepart(html);
                    for image in &self.inline_images {
                        let part = match &image.name {
                            Some(name) => LettreAttachment::new_inline_with_name(
                                image.content_id.clone(),
                                name.clone(),
                            ),
                            None => LettreAttachment::new_inline(image.content_id.clone()),
                        };
                        related = related.singlepart(
                            part.body(encoded(&image.bytes, large), content_type(&image.mime)?),
                        );
                    }
                    Body::Multi(related)
                };
                let alternative = MultiPart::alternative()
                    .boundary(boundary.next("alternative"))
                    .singlepart(text);
                Body::Multi(match html {
                    Body::Single(part) => alternative.singlepart(part),
                    Body::Multi(part) => alternative.multipart(part),
                })
            }
        };
        if self.attachments.is_empty() {
            return Ok(readable);
        }
        let mixed = MultiPart::mixed().boundary(boundary.next("mixed"));
        let mut mixed = match readable {
            Body::Single(part) => mixed.singlepart(part),
            Body::Multi(part) => mixed.multipart(part),
        };
        for file in &self.attachments {
            mixed = mixed.singlepart(
                LettreAttachment::new(file.name.clone())
                    .body(encoded(&file.bytes, large), content_type(&file.mime)?),
            );
        }
        Ok(Body::Multi(mixed))
    }
}

enum Body {
    Single(SinglePart),
    Multi(MultiPart),
}

/// Parts at least this large keep their encoding ([`encoded`]).
const KEPT_PART: usize = 4096;
/// How many encoded parts a thread keeps.
const PARTS_KEPT: usize = 4;

/// A large part's encoding, with its encoded bytes and their digest.
struct Encoding {
    body: lettre::message::Body,
    large: LargePart,
}

/// A large part's encoded bytes (shared with the kept [`Encoding`]) and
/// their digest, to find it in the message written.
#[derive(Clone)]
struct LargePart {
    encoded: Rc<[u8]>,
    digest: [u8; 32],
}

thread_local! {
    /// The latest large parts encoded on this thread, with their bytes.
    static ENCODED: std::cell::RefCell<Vec<(Vec<u8>, Encoding)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `bytes` encoded for a MIME part (base64 or quoted-printable, as lettre
/// chooses), the encoding of a large part kept for the next message with
/// the same bytes: a round's reports to each player and the moderator
/// carry the same picture, SVG and bundle, and encoding them was a
/// twentieth of a deadline's writer (issue 24). Kept by the whole bytes,
/// compared in full, so a part is never another's. A large part goes to
/// `large` too, for [`Rendered::shared`].
fn encoded(bytes: &[u8], large: &mut Vec<LargePart>) -> lettre::message::Body {
    if bytes.len() < KEPT_PART {
        return lettre::message::Body::new(bytes.to_vec());
    }
    ENCODED.with_borrow_mut(|kept| {
        if let Some(i) = kept.iter().position(|(b, _)| b.as_slice() == bytes) {
            let hit = kept.remove(i);
            kept.insert(0, hit);
        } else {
            let body = lettre::message::Body::new(bytes.to_vec());
            let large = LargePart {
                encoded: Rc::from(body.as_ref()),
                digest: Sha256::digest(body.as_ref()).into(),
            };
            kept.insert(0, (bytes.to_vec(), Encoding { body, large }));
            kept.truncate(PARTS_KEPT);
        }
        let latest = &kept[0].1;
        large.push(latest.large.clone());
        latest.body.clone()
    })
}

/// Where each of `large`'s encoded bodies lies in `raw`, in order: each is
/// looked for after the one before (lettre writes the parts in the order
/// they were encoded); one not found is left in the message unshared.
fn located(raw: &[u8], large: &[LargePart]) -> Vec<SharedPart> {
    let mut from = 0;
    let mut shared = Vec::with_capacity(large.len());
    for part in large {
        if let Some(at) = memchr::memmem::find(&raw[from..], &part.encoded) {
            let range = from + at..from + at + part.encoded.len();
            from = range.end;
            shared.push(SharedPart {
                range,
                digest: part.digest,
            });
        }
    }
    shared
}

/// MIME boundaries derived from the message id, one per multipart kind.
struct Boundaries {
    seed: String,
}

impl Boundaries {
    fn new(message_id: &str) -> Self {
        Boundaries {
            seed: hex::encode(&Sha256::digest(message_id.as_bytes())[..12]),
        }
    }

    fn next(&self, kind: &str) -> String {
        format!("=_umpire_{kind}_{}", self.seed)
    }
}

fn mailbox(field: &'static str, value: &str) -> Result<Mailbox, ComposeError> {
    value
        .trim()
        .parse::<Mailbox>()
        .map_err(|e| ComposeError::Address {
            field,
            value: value.to_string(),
            reason: e.to_string(),
        })
}

fn content_type(mime: &str) -> Result<ContentType, ComposeError> {
    ContentType::parse(mime).map_err(|e| ComposeError::MimeType {
        value: mime.to_string(),
        reason: e.to_string(),
    })
}

fn bracketed(id: &str) -> String {
    format!(
        "<{}>",
        id.trim().trim_start_matches('<').trim_end_matches('>')
    )
}

/// `local@domain` with no spaces or brackets inside.
fn valid_id(id: &str) -> bool {
    let mut halves = id.split('@');
    let ok = |s: Option<&str>| {
        s.is_some_and(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_graphic() && !"<>@\"".contains(c))
        })
    };
    ok(halves.next()) && ok(halves.next()) && halves.next().is_none()
}

/// A header's text on one line of at most [`MAX_SUBJECT`] characters: a
/// subject copied from a player's mail cannot add header lines.
fn one_line(s: &str) -> String {
    let line: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_SUBJECT)
        .collect();
    line.trim().to_string()
}

/// The longest subject umpire writes, in characters.
const MAX_SUBJECT: usize = 200;

/// Mail bodies travel with CRLF; templates are written with LF. The text
/// is handed to lettre with CRLF already, in two passes over it: lettre
/// 0.11's `Body::new` (message/body.rs, `in_place_crlf_line_endings`)
/// turns a `String`'s bare LFs into CRLF with one `String::insert` per
/// line, each moving the rest of the text, so a reply of 20,000 lines took
/// 35.8 s (issue 43); a text with no bare LF gives it nothing to insert.
fn normalise_newlines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date() -> DateTime<Utc> {
        DateTime::from_timestamp(1_796_000_000, 0).unwrap()
    }

    fn sample() -> Outgoing {
        Outgoing {
            from: "Valkia Umpire <umpire@valkia.example>".into(),
            to: vec!["Conan <conan@cimmeria.example>".into()],
            subject: "Valkia, turn 3: orders received — Aquilonia".into(),
            text: "Your orders as understood:\nBlack Dragons: phase 1 charge Nemedian Knights\n"
                .into(),
            in_reply_to: Some("orders-3@cimmeria.example".into()),
            references: vec![
                "report-2@valkia.example".into(),
                "orders-3@cimmeria.example".into(),
            ],
            auto_submitted: AutoSubmitted::Replied,
            ..Outgoing::default()
        }
    }

    #[test]
    fn message_ids_are_deterministic_and_distinct() {
        let a = new_message_id("valkia.example", "t3");
        assert_eq!(a, new_message_id("valkia.example", "t3"));
        assert_ne!(a, new_message_id("valkia.example", "t3 "));
        assert_ne!(new_message_id("x", "a/b"), new_message_id("x", "a-b"));
        assert!(valid_id(&new_message_id("", "<weird @ id>")));
    }

    #[test]
    fn round_trip_plain() {
        let mail = sample();
        let bytes = mail.to_rfc5322("c3@valkia.example", date()).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains("Auto-Submitted: auto-replied\r\n"), "{text}");
        let back = Incoming::parse(&bytes).unwrap();
        assert_eq!(back.message_id.as_deref(), Some("c3@valkia.example"));
        assert_eq!(back.subject, mail.subject);
        assert_eq!(back.in_reply_to, mail.in_reply_to);
        assert_eq!(back.references, mail.references);
        assert_eq!(back.date, Some(date()));
        assert_eq!(back.from.as_ref().unwrap().address, "umpire@valkia.example");
        assert_eq!(back.to, ["conan@cimmeria.example"]);
        assert_eq!(back.auto_submitted.as_deref(), Some("auto-replied"));
        assert_eq!(back.orders_text, mail.text.trim());
        // The umpire's own replies are never answered.
        assert_eq!(
            back.loop_hazard("umpire@valkia.example").unwrap().kind(),
            "own-address"
        );
    }

    #[test]
    fn round_trip_html_inline_and_attachment() {
        let mail = Outgoing {
            html: Some(
                "<p>Your orders:</p><p>Black Dragons: charge</p><img src=\"cid:table\">".into(),
            ),
            inline_images: vec![Inline {
                content_id: "table".into(),
                mime: "image/png".into(),
                bytes: vec![0x89, b'P', b'N', b'G', 0, 1, 2],
                name: Some("table.png".into()),
            }],
            attachments: vec![Attachment {
                name: "table.svg".into(),
                mime: "image/svg+xml".into(),
                bytes: b"<svg/>".to_vec(),
            }],
            auto_submitted: AutoSubmitted::Generated,
            ..sample()
        };
        let bytes = mail.to_rfc5322("r3@valkia.example", date()).unwrap();
        assert_eq!(bytes, mail.to_rfc5322("r3@valkia.example", date()).unwrap());
        let text = String::from_utf8_lossy(&bytes);
        for needle in [
            "multipart/mixed",
            "multipart/alternative",
            "multipart/related",
            "Content-ID: <table>",
        ] {
            assert!(text.contains(needle), "{needle} missing in\n{text}");
        }
        assert!(
            text.contains("Auto-Submitted: auto-generated"),
            "every message says it is automatic"
        );
        let back = Incoming::parse(&bytes).unwrap();
        assert_eq!(back.orders_text, mail.text.trim());
        assert_eq!(back.subject, mail.subject);
        let mimes: Vec<&str> = back.attachments.iter().map(|a| a.mime.as_str()).collect();
        assert_eq!(mimes, ["image/png", "image/svg+xml"]);
        assert_eq!(
            back.attachments[0].name.as_deref(),
            Some("table.png"),
            "the inline picture is named for saving"
        );
        assert!(text.contains("Content-Disposition: inline; filename=\"table.png\""));
        assert_eq!(back.attachments[1].name.as_deref(), Some("table.svg"));
        assert_eq!(back.attachments[1].size, 6);
    }

    /// A large part's kept encoding serves only a part of the very same
    /// bytes: parts that differ in their last byte, in turn, each come
    /// back as they went in, and a message composed again is the same.
    #[test]
    fn a_kept_encoding_serves_only_the_same_bytes() {
        let big = |last: u8| {
            let mut bytes: Vec<u8> = (0..KEPT_PART * 2).map(|i| (i % 251) as u8).collect();
            bytes.push(last);
            bytes
        };
        let with = |bytes: Vec<u8>| Outgoing {
            attachments: vec![Attachment {
                name: "bundle.bin".into(),
                mime: "application/octet-stream".into(),
                bytes,
            }],
            ..sample()
        };
        let first = with(big(1)).to_rfc5322("a@valkia.example", date()).unwrap();
        for last in [1, 2, 1, 3, 2] {
            let raw = with(big(last))
                .to_rfc5322("a@valkia.example", date())
                .unwrap();
            let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let part = parsed.attachment(0).unwrap();
            assert_eq!(part.contents(), big(last).as_slice(), "part ending {last}");
            if last == 1 {
                assert_eq!(raw, first);
            }
        }
    }

    /// A rendered message says where its large parts' encoded bodies lie:
    /// the same picture in two messages, the same digest and bytes; a
    /// small part is not shared; the bytes are `to_rfc5322`'s.
    #[test]
    fn render_finds_the_large_parts_two_messages_share() {
        let picture: Vec<u8> = (0..KEPT_PART * 3).map(|i| (i % 253) as u8).collect();
        let with = |to: &str, svg: &str| {
            let mut mail = Outgoing {
                to: vec![to.into()],
                html: Some("<img src=\"cid:table\">".into()),
                ..sample()
            };
            mail.show_picture("table".into(), "turn-3", picture.clone(), svg.into());
            mail
        };
        let long_svg = format!("<svg>{}</svg>", "<rect width=\"3\"/>\n".repeat(600));
        let a = with("a@x.example", &long_svg)
            .render("a@valkia.example", date())
            .unwrap();
        let b = with("b@x.example", &long_svg)
            .render("b@valkia.example", date())
            .unwrap();
        let small = with("c@x.example", "<svg/>")
            .render("c@valkia.example", date())
            .unwrap();
        assert_eq!(
            a.raw,
            with("a@x.example", &long_svg)
                .to_rfc5322("a@valkia.example", date())
                .unwrap()
        );
        assert_eq!(a.shared.len(), 2, "the picture and its SVG");
        assert_eq!(small.shared.len(), 1, "the SVG is small: the picture alone");
        for (x, y) in a.shared.iter().zip(&b.shared) {
            assert_eq!(x.digest, y.digest);
            assert_eq!(a.raw[x.range.clone()], b.raw[y.range.clone()]);
            assert_eq!(
                <[u8; 32]>::from(Sha256::digest(&a.raw[x.range.clone()])),
                x.digest
            );
        }
        assert!(
            a.shared[0].range.end <= a.shared[1].range.start,
            "in order, apart"
        );
        assert_ne!(a.shared[0].digest, a.shared[1].digest);
        assert_eq!(small.shared[0].digest, a.shared[0].digest);
        // The picture decodes from its place.
        let encoded: String = String::from_utf8(a.raw[a.shared[0].range.clone()].to_vec())
            .unwrap()
            .split_whitespace()
            .collect();
        use base64::Engine as _;
        assert_eq!(
            base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .unwrap(),
            picture
        );
    }

    #[test]
    fn round_trip_non_ascii_and_long_lines() {
        let long = "Bossonian Archers: phase 1 move 4; phase 2 face right 45; ".repeat(5);
        let long = long.trim_end();
        let mail = Outgoing {
            from: "Valkia Umpire <umpire@valkia.example>".into(),
            to: vec!["Amalric von Némédien <amalric@nemedia.example>".into()],
            subject: "Befehle für Zug 3 — Nemedien".into(),
            text: format!(
                "Königsgarde: phase 1 charge Black Dragons\r\n{long}\n\nFrom the hills\n"
            ),
            ..Outgoing::default()
        };
        let bytes = mail.to_rfc5322("n3@valkia.example", date()).unwrap();
        assert!(bytes.is_ascii(), "8-bit bytes on the wire");
        let bare_lf = bytes.windows(2).any(|w| w[1] == b'\n' && w[0] != b'\r') || bytes[0] == b'\n';
        assert!(!bare_lf, "every line must end in CRLF");
        assert!(bytes.split(|&b| b == b'\n').all(|line| line.len() <= 998));
        let back = Incoming::parse(&bytes).unwrap();
        assert_eq!(back.subject, mail.subject);
        assert_eq!(back.orders_text, mail.text.replace("\r\n", "\n").trim());
        assert_eq!(back.to, ["amalric@nemedia.example"]);
    }

    #[test]
    fn long_threads_keep_the_first_and_latest_references() {
        let refs: String = (0..30).map(|i| format!("<r{i}@valkia.example> ")).collect();
        let raw =
            format!("From: a@b.example\nMessage-ID: <o30@b.example>\nReferences: {refs}\n\nx");
        let reply = Outgoing::default().replying_to(&Incoming::parse(raw.as_bytes()).unwrap());
        assert_eq!(reply.references.len(), MAX_REFERENCES);
        assert_eq!(reply.references[0], "r0@valkia.example");
        assert_eq!(reply.references[1], "r12@valkia.example");
        assert_eq!(reply.references.last().unwrap(), "o30@b.example");
        // A message with no id and no thread gives no threading headers.
        let bare =
            Outgoing::default().replying_to(&Incoming::parse(b"From: a@b.example\n\nx").unwrap());
        assert_eq!((bare.in_reply_to, bare.references), (None, vec![]));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let no_to = Outgoing {
            to: vec![],
            ..sample()
        };
        assert_eq!(
            no_to.to_rfc5322("a@b", date()),
            Err(ComposeError::NoRecipients)
        );
        let bad_to = Outgoing {
            to: vec!["conan at cimmeria".into()],
            ..sample()
        };
        assert!(matches!(
            bad_to.to_rfc5322("a@b", date()),
            Err(ComposeError::Address { field: "to", .. })
        ));
        let inline = Outgoing {
            inline_images: vec![Inline {
                content_id: "x".into(),
                mime: "image/png".into(),
                bytes: vec![],
                name: None,
            }],
            ..sample()
        };
        assert_eq!(
            inline.to_rfc5322("a@b", date()),
            Err(ComposeError::InlineWithoutHtml)
        );
        let bad_mime = Outgoing {
            attachments: vec![Attachment {
                name: "x".into(),
                mime: "png".into(),
                bytes: vec![],
            }],
            ..sample()
        };
        assert!(matches!(
            bad_mime.to_rfc5322("a@b", date()),
            Err(ComposeError::MimeType { .. })
        ));
        assert!(matches!(
            sample().to_rfc5322("no id", date()),
            Err(ComposeError::MessageId { .. })
        ));
        // A malformed threading id (from the mail answered) costs only the thread.
        let bad_ref = Outgoing {
            references: vec!["not an id".into(), "ok@x.example".into()],
            in_reply_to: Some("nodomain".into()),
            ..sample()
        };
        let text = String::from_utf8(bad_ref.to_rfc5322("a@b", date()).unwrap()).unwrap();
        assert!(
            text.contains("References: <ok@x.example>")
                && !text.contains("not an id")
                && !text.contains("In-Reply-To"),
            "{text}"
        );
    }

    #[test]
    fn header_injection_is_impossible() {
        let mail = Outgoing {
            subject: "turn 3\r\nBcc: spy@stygia.example".into(),
            ..sample()
        };
        let bytes = mail.to_rfc5322("i@valkia.example", date()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains("\r\nBcc:"), "{text}");
    }
}
