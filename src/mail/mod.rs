//! Mail in and out: reading players' messages and composing the umpire's.
//!
//! - [`read`]: [`read::Incoming::parse`] turns raw bytes into the facts the
//!   umpire needs (sender, ids, subject, date) and the text to read orders
//!   from; [`read::Incoming::loop_hazard`] says when not to answer.
//! - [`quote`]: removes quoted text and signatures, so a reply on top of a
//!   report that quotes old orders does not submit them again.
//! - [`html`]: HTML to text for HTML-only mail.
//! - [`compose`]: [`compose::Outgoing`] to RFC 5322 bytes (text, HTML,
//!   inline pictures, attachments, threading headers).
//!
//! - [`dkim`]: whether the From domain signed a message (DKIM), given keys.
//! - [`transport`]: moving raw bytes: SMTP, IMAP, Maildir, the spool; DKIM
//!   keys from DNS.
//!
//! Architecture Invariant: only [`transport`] touches the network or files;
//! the rest never touches the network, the store or the clock.

pub mod address;
pub mod compose;
pub mod dkim;
pub mod html;
pub mod mask;
pub mod quote;
pub mod read;
pub mod transport;
