//! DKIM: did the domain in a message's `From:` sign it?
//!
//! [`verify`] checks every `DKIM-Signature` of a raw message (with the
//! `mail-auth` crate) against public keys from a [`KeyLookup`] and returns a
//! [`Verdict`]; [`Verdict::proves`] says whether one of them is a valid
//! signature *of the From domain* covering the From header and the whole
//! body. The keys come from DNS in service ([`crate::mail::transport::DnsKeys`])
//! and from a table in tests ([`FixedKeys`]), so verification itself never
//! touches the network: mail-auth is handed every key it will ask for
//! beforehand, and its own resolver has no name servers.
//!
//! ```
//! use umpire::mail::dkim::{verify, FixedKeys};
//! let v = verify(b"From: a@b.example\r\n\r\nhi\r\n", &FixedKeys::default());
//! assert!(!v.proves("b.example"));
//! assert_eq!(v.summary(), "no DKIM signature");
//! ```
//!
//! Architecture Invariant: a verdict depends only on the bytes, the keys
//! looked up and the clock (signature expiry); it is computed once, when
//! the message is first read, and stored with it, because the stored copy
//! is later masked (its password blanked) and would no longer verify.

use mail_auth::common::parse::TxtRecordParser;
use mail_auth::common::resolver::ToFqdn;
use mail_auth::common::verify::DomainKey;
use mail_auth::{
    AuthenticatedMessage, DkimResult, MessageAuthenticator, Parameters, ResolverCache, Txt,
};
use serde::{Deserialize, Serialize};
use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::sync::Mutex;

/// What a club does with DKIM (`dkim = "off" | "record" | "require"` in
/// `umpire.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Signatures are not looked at.
    #[default]
    Off,
    /// Every message is verified and the result logged; none is refused for it.
    Record,
    /// A message whose From domain did not sign it is refused, unread.
    Require,
}

/// The answer to a look-up of one DKIM key record (`SELECTOR._domainkey.DOMAIN`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// The TXT record's text (`v=DKIM1; k=ed25519; p=…`).
    Found(String),
    /// The name has no such record: the signature cannot verify.
    Missing,
    /// The look-up itself failed (DNS down, a timeout): try again later.
    Trouble(String),
}

/// Where public keys come from. Implemented by DNS for service and by a
/// table for tests and offline checks.
pub trait KeyLookup: Send + Sync {
    /// The DKIM record at `name` (`sel._domainkey.example.org`, lowercase, no trailing dot).
    fn domain_key(&self, name: &str) -> Lookup;
}

/// Keys given in advance, by record name (tests; a club that pins keys).
#[derive(Debug, Clone, Default)]
pub struct FixedKeys(pub BTreeMap<String, String>);

impl FixedKeys {
    /// Add the record for `selector` of `domain`.
    pub fn with(mut self, selector: &str, domain: &str, record: &str) -> Self {
        self.0.insert(
            format!("{selector}._domainkey.{domain}").to_ascii_lowercase(),
            record.to_string(),
        );
        self
    }
}

impl KeyLookup for FixedKeys {
    fn domain_key(&self, name: &str) -> Lookup {
        self.0
            .get(name)
            .map_or(Lookup::Missing, |r| Lookup::Found(r.clone()))
    }
}

/// What one signature came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    /// The signing domain (`d=`), lowercase.
    pub domain: String,
    /// The key's selector (`s=`).
    pub selector: String,
    /// `pass`, `fail`, `neutral`, `permerror`, `temperror`.
    pub result: String,
    /// Why it did not pass, in words (empty on a pass).
    #[serde(default)]
    pub why: String,
}

/// Every signature of one message, as checked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub signatures: Vec<Checked>,
}

impl Verdict {
    /// Is there a passing signature of `from_domain` (or of a domain it is
    /// under: `d=example.org` vouches for `mail.example.org`)?
    pub fn proves(&self, from_domain: &str) -> bool {
        let from = from_domain.trim_end_matches('.').to_ascii_lowercase();
        self.signatures.iter().any(|s| {
            s.result == "pass"
                && !s.domain.is_empty()
                && (from == s.domain || from.ends_with(&format!(".{}", s.domain)))
        })
    }

    /// Could a look-up not be made (so a later try may pass)?
    pub fn is_temporary(&self) -> bool {
        self.signatures.iter().any(|s| s.result == "temperror")
            && !self.signatures.iter().any(|s| s.result == "pass")
    }

    /// One line for the log: `pass (d=aquilonia.example s=mail)` or
    /// `fail (d=x.example s=k: the body was changed)`, one per signature.
    pub fn summary(&self) -> String {
        if self.signatures.is_empty() {
            return "no DKIM signature".into();
        }
        self.signatures
            .iter()
            .map(|s| {
                let why = if s.why.is_empty() {
                    String::new()
                } else {
                    format!(": {}", s.why)
                };
                format!("{} (d={} s={}{why})", s.result, s.domain, s.selector)
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The most signatures of one message that are checked (each may cost a
/// DNS look-up); the rest are reported as not checked.
pub const MAX_SIGNATURES: usize = 8;

/// Check every DKIM signature of `raw` with keys from `keys`.
pub fn verify(raw: &[u8], keys: &dyn KeyLookup) -> Verdict {
    let Some(mut message) = AuthenticatedMessage::parse(raw) else {
        return Verdict::default();
    };
    let unchecked: Vec<Checked> = message
        .dkim_headers
        .iter()
        .skip(MAX_SIGNATURES)
        .map(|h| Checked {
            domain: h.header.d.to_ascii_lowercase(),
            selector: h.header.s.clone(),
            result: "neutral".into(),
            why: format!("not checked: only the first {MAX_SIGNATURES} signatures are"),
        })
        .collect();
    message.dkim_headers.truncate(MAX_SIGNATURES);
    // Every key mail-auth will ask for, looked up here, beforehand.
    let cache = Prefilled::default();
    let mut trouble: HashMap<String, String> = HashMap::new();
    for header in &message.dkim_headers {
        let sig = &header.header;
        // The name as mail-auth will ask its cache for it (lowercase, with the root dot).
        let fqdn = format!("{}._domainkey.{}.", sig.s, sig.d)
            .to_fqdn()
            .into_owned();
        let name = fqdn.trim_end_matches('.').to_string();
        let txt = match keys.domain_key(&name) {
            Lookup::Found(record) => match DomainKey::parse(record.as_bytes()) {
                Ok(key) => Txt::from(key),
                Err(e) => Txt::Error(e),
            },
            Lookup::Missing => Txt::Error(mail_auth::Error::Dns(
                mail_auth::DnsError::InvalidRecordType,
            )),
            Lookup::Trouble(why) => {
                trouble.insert(name.clone(), why.clone());
                Txt::Error(mail_auth::Error::Dns(mail_auth::DnsError::Resolver(why)))
            }
        };
        cache.put(fqdn, txt);
    }
    let outputs = block_on(offline().verify_dkim(Parameters::new(&message).with_txt_cache(&cache)));
    let mut signatures: Vec<Checked> = outputs
        .iter()
        .map(|out| {
            let (domain, selector, partial, from_signed) =
                out.signature()
                    .map_or((String::new(), String::new(), false, false), |s| {
                        (
                            s.d.to_ascii_lowercase(),
                            s.s.clone(),
                            s.l > 0,
                            s.h.iter().any(|h| h.eq_ignore_ascii_case("from")),
                        )
                    });
            let name = format!("{selector}._domainkey.{domain}.")
                .to_fqdn()
                .trim_end_matches('.')
                .to_string();
            let (result, why) = match out.result() {
                // A pass that leaves part of the body or the From header
                // unsigned proves nothing about the orders or the sender.
                DkimResult::Pass if partial => {
                    ("fail", "signs only part of the body (l=)".to_string())
                }
                DkimResult::Pass if !from_signed => {
                    ("fail", "does not sign the From header".to_string())
                }
                DkimResult::Pass => ("pass", String::new()),
                // RFC 6376 §6.1.3: a body hash that does not match is a failure
                // (mail-auth calls it neutral).
                DkimResult::Fail(e)
                | DkimResult::Neutral(
                    e @ mail_auth::Error::Dkim(mail_auth::dkim::DkimError::FailedBodyHashMatch),
                ) => ("fail", words(e)),
                DkimResult::Neutral(e) => ("neutral", words(e)),
                DkimResult::PermError(e) => ("permerror", words(e)),
                DkimResult::TempError(_) if trouble.contains_key(&name) => {
                    ("temperror", trouble[&name].clone())
                }
                DkimResult::TempError(e) => ("temperror", words(e)),
                DkimResult::None => ("none", String::new()),
            };
            Checked {
                domain,
                selector,
                result: result.into(),
                why,
            }
        })
        .collect();
    signatures.extend(unchecked);
    Verdict { signatures }
}

/// mail-auth's error in the words a moderator reads in the log.
fn words(e: &mail_auth::Error) -> String {
    use mail_auth::dkim::DkimError;
    use mail_auth::{DnsError, Error};
    match e {
        Error::Dns(DnsError::InvalidRecordType | DnsError::RecordNotFound(_)) => {
            "no key published for it".into()
        }
        Error::Dkim(DkimError::FailedBodyHashMatch) => {
            "the body was changed after it was signed".into()
        }
        Error::Dkim(DkimError::SignatureExpired) => "the signature has expired".into(),
        Error::Dkim(DkimError::RevokedPublicKey) => "its key has been revoked".into(),
        other => other.to_string(),
    }
}

/// mail-auth's authenticator with no name servers: every key it needs is
/// in the cache, and anything else it might ask (reports, ATPS) fails at
/// once instead of reaching the network.
fn offline() -> MessageAuthenticator {
    MessageAuthenticator(
        mail_auth::hickory_resolver::TokioResolver::builder_with_config(
            mail_auth::hickory_resolver::config::ResolverConfig::default(),
            mail_auth::hickory_resolver::net::runtime::TokioRuntimeProvider::default(),
        )
        .build()
        .unwrap_or_else(|_| unreachable_resolver()),
    )
}

/// A resolver with no servers cannot fail to build; should a later hickory
/// disagree, this says so in words rather than looping.
#[cold]
fn unreachable_resolver() -> mail_auth::hickory_resolver::TokioResolver {
    panic!("mail-auth's offline resolver could not be built (a bug: report it)")
}

/// Run a future to its end on a small runtime of this thread.
pub(crate) fn block_on<F: std::future::Future>(f: F) -> F::Output {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt.block_on(f),
        Err(e) => panic!("cannot start the DKIM runtime: {e}"),
    }
}

/// The keys looked up for one message, as mail-auth's TXT cache.
#[derive(Default)]
struct Prefilled(Mutex<HashMap<Box<str>, Txt>>);

impl Prefilled {
    fn put(&self, name: String, txt: Txt) {
        if let Ok(mut m) = self.0.lock() {
            m.insert(name.into_boxed_str(), txt);
        }
    }
}

impl ResolverCache<Box<str>, Txt> for Prefilled {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0.lock().ok()?.get(name).cloned()
    }

    fn remove<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0.lock().ok()?.remove(name)
    }

    fn insert(&self, key: Box<str>, value: Txt, _valid_until: std::time::Instant) {
        if let Ok(mut m) = self.0.lock() {
            m.insert(key, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use mail_auth::common::crypto::Ed25519Key;
    use mail_auth::common::headers::HeaderWriter;
    use mail_auth::dkim::DkimSigner;

    fn key() -> (Ed25519Key, String) {
        let der = Ed25519Key::generate_pkcs8().unwrap();
        let key = Ed25519Key::from_pkcs8_der(&der).unwrap();
        let record = format!(
            "v=DKIM1; k=ed25519; p={}",
            base64::engine::general_purpose::STANDARD.encode(key.public_key())
        );
        (key, record)
    }

    const MAIL: &str = "From: Conan <conan@aquilonia.example>\r\nTo: umpire@club.example\r\nSubject: orders\r\n\r\nGAME ford SIDE aquilonia PASSWORD dragon7\r\nEND\r\n";

    fn signed(key: Ed25519Key, domain: &str, headers: &[&str], mail: &str) -> String {
        let sig = DkimSigner::from_key(key)
            .domain(domain)
            .selector("mail")
            .headers(headers.iter().copied())
            .sign(mail.as_bytes())
            .unwrap();
        format!("{}{mail}", sig.to_header())
    }

    #[test]
    fn a_signature_of_the_from_domain_proves_it_and_nothing_else() {
        let (k, record) = key();
        let keys = FixedKeys::default().with("mail", "aquilonia.example", &record);
        let v = verify(
            signed(k, "aquilonia.example", &["From", "To", "Subject"], MAIL).as_bytes(),
            &keys,
        );
        assert!(v.proves("aquilonia.example"), "{}", v.summary());
        assert!(v.proves("mail.aquilonia.example"));
        assert!(!v.proves("evil.example") && !v.proves("xaquilonia.example"));
        assert_eq!(v.summary(), "pass (d=aquilonia.example s=mail)");
    }

    #[test]
    fn changed_bodies_unknown_keys_unsigned_from_and_failed_lookups_do_not_pass() {
        let (k, record) = key();
        let keys = FixedKeys::default().with("mail", "aquilonia.example", &record);
        let tampered = signed(k, "aquilonia.example", &["From", "To", "Subject"], MAIL)
            .replace("dragon7\r\nEND", "dragon7\r\nKnights: charge\r\nEND");
        let v = verify(tampered.as_bytes(), &keys);
        assert!(!v.proves("aquilonia.example"));
        assert!(v.summary().starts_with("fail"), "{}", v.summary());

        let (k2, _) = key();
        let v = verify(
            signed(k2, "aquilonia.example", &["From", "To"], MAIL).as_bytes(),
            &keys,
        );
        assert!(
            !v.proves("aquilonia.example"),
            "signed with a key not published: {}",
            v.summary()
        );

        let (k3, record3) = key();
        let keys3 = FixedKeys::default().with("mail", "aquilonia.example", &record3);
        let v = verify(
            signed(k3, "aquilonia.example", &["To", "Subject"], MAIL).as_bytes(),
            &keys3,
        );
        assert!(!v.proves("aquilonia.example"));
        assert!(
            v.summary().contains("does not sign the From header"),
            "{}",
            v.summary()
        );

        struct Down;
        impl KeyLookup for Down {
            fn domain_key(&self, _: &str) -> Lookup {
                Lookup::Trouble("timed out".into())
            }
        }
        let (k4, _) = key();
        let v = verify(
            signed(k4, "aquilonia.example", &["From"], MAIL).as_bytes(),
            &Down,
        );
        assert!(v.is_temporary(), "{}", v.summary());
        assert!(v.summary().contains("timed out"), "{}", v.summary());
    }

    #[test]
    fn garbage_and_hostile_signature_headers_never_panic() {
        for raw in [
            &b""[..],
            b"\xff\xfe",
            b"DKIM-Signature: v=1; a=rsa-sha256; d=; s=; b=; bh=;\r\nFrom: a@b\r\n\r\n",
            b"DKIM-Signature: v=1; a=ed25519-sha256; d=b.example; s=x; h=from; l=999999999999; bh=AAAA; b=AAAA\r\nFrom: a@b.example\r\n\r\nx",
        ] {
            let v = verify(raw, &FixedKeys::default().with("x", "b.example", "v=DKIM1; p=garbage"));
            assert!(!v.proves("b.example"), "{}", v.summary());
        }
        let many: String = (0..20).map(|i| format!("DKIM-Signature: v=1; a=rsa-sha256; d=d{i}.example; s=s; h=from; bh=AAAA; b=AAAA\r\n")).collect();
        let v = verify(
            format!("{many}From: a@b.example\r\n\r\nx").as_bytes(),
            &FixedKeys::default(),
        );
        assert_eq!(v.signatures.len(), 20);
    }
}
