//! DKIM as a club's option (ruling M15), through the whole path on a real
//! SQLite file: raw mail signed in the test with a key pair made in the
//! test, keys published to an injected lookup (never DNS), the message
//! stored, verified, handled, and the answer (or none) in the outbox.

use crate::common;
use common::*;
use mail_auth::common::crypto::{Ed25519Key, RsaKey, Sha256};
use mail_auth::common::headers::HeaderWriter;
use mail_auth::dkim::{generate::DkimKeyPair, DkimSigner};
use std::path::Path;
use umpire::mail::dkim::{FixedKeys, KeyLookup, Lookup, Policy};
use umpire::post::{gamefile::GameFile, Disposition, PostOffice};

const ORDERS: &str =
    "GAME ford SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 move 6\nEND\n";

/// A signing key for `domain` (selector `mail`) and the keys published for it.
struct Signer {
    /// The private key (PKCS#8 DER): mail-auth's signer takes a key by value.
    der: Vec<u8>,
    domain: String,
}

impl Signer {
    fn new(domain: &str) -> (Signer, String) {
        use base64::Engine as _;
        let der = Ed25519Key::generate_pkcs8().unwrap();
        let key = Ed25519Key::from_pkcs8_der(&der).unwrap();
        let record = format!(
            "v=DKIM1; k=ed25519; p={}",
            base64::engine::general_purpose::STANDARD.encode(key.public_key())
        );
        (
            Signer {
                der,
                domain: domain.into(),
            },
            record,
        )
    }

    /// `raw` with a DKIM-Signature of From, To, Subject and the whole body.
    fn sign(&self, raw: &[u8]) -> Vec<u8> {
        let sig = DkimSigner::from_key(Ed25519Key::from_pkcs8_der(&self.der).unwrap())
            .domain(&self.domain)
            .selector("mail")
            .headers(["From", "To", "Subject", "Message-ID"])
            .sign(raw)
            .unwrap();
        [sig.to_header().into_bytes(), raw.to_vec()].concat()
    }
}

/// A post office in `dir` with game 'ford', DKIM as `policy`, keys from `keys`.
fn office(dir: &Path, policy: Policy, keys: impl KeyLookup + 'static) -> PostOffice {
    let mut c = config(dir);
    c.dkim = policy;
    let mut po = PostOffice::open(c).unwrap();
    po.set_dkim_keys(keys);
    po.create_game(&GameFile::load(&game_file(dir)).unwrap(), t0())
        .unwrap();
    po
}

fn count(po: &PostOffice, table: &str, cond: &str) -> i64 {
    po.store().count(table, cond).unwrap()
}

fn logged(po: &PostOffice, needle: &str) -> bool {
    count(
        po,
        "log",
        &format!("text LIKE '%{}%'", needle.replace('\'', "''")),
    ) > 0
}

/// Conan's domain publishes a key; Conan signs his orders.
fn conan() -> (Signer, FixedKeys) {
    let (s, record) = Signer::new("aquilonia.example");
    (
        s,
        FixedKeys::default().with("mail", "aquilonia.example", &record),
    )
}

#[test]
fn signed_orders_are_taken_and_the_verdict_is_logged_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (conan_key, keys) = conan();
    let mut po = office(dir.path(), Policy::Require, keys);
    let d = po
        .accept(
            &conan_key.sign(&mail(CONAN, "signed1@aquilonia.example", ORDERS)),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
    assert_eq!(count(&po, "outbox", "kind = 'confirmation'"), 1);
    assert!(logged(&po, "DKIM pass (d=aquilonia.example s=mail)"));
    // The verdict is of the bytes as they came; the stored copy is masked since.
    assert_eq!(count(&po, "messages", "dkim LIKE '%\"pass\"%'"), 1);
    assert_eq!(
        count(&po, "messages", "CAST(raw AS TEXT) LIKE '%dragon7%'"),
        0
    );
    // An RSA signature (rsa-sha256) counts as well as an ed25519 one.
    let pair = DkimKeyPair::generate_rsa(2048).unwrap();
    let rsa = RsaKey::<Sha256>::from_key_der(rustls_pki_types::PrivateKeyDer::Pkcs1(
        pair.private_key().to_vec().into(),
    ))
    .unwrap();
    let raw = mail(
        TARASCUS,
        "rsa1@nemedia.example",
        "GAME ford SIDE nemedia PASSWORD serpent3\nNemedian Knights: phase 1 hold\nEND\n",
    );
    let sig = DkimSigner::from_key(rsa)
        .domain("nemedia.example")
        .selector("k1")
        .headers(["From", "Subject"])
        .sign(&raw)
        .unwrap();
    let dir2 = tempfile::tempdir().unwrap();
    let keys2 = FixedKeys::default().with(
        "k1",
        "nemedia.example",
        &format!("v=DKIM1; k=rsa; p={}", pair.encoded_public_key()),
    );
    let mut po2 = office(dir2.path(), Policy::Require, keys2);
    let d = po2
        .accept(&[sig.to_header().into_bytes(), raw].concat(), "test", t0())
        .unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
}

#[test]
fn unsigned_mail_with_the_right_password_is_refused_unread_and_answered_as_a_wrong_password() {
    let dir = tempfile::tempdir().unwrap();
    let (_, keys) = conan();
    let mut po = office(dir.path(), Policy::Require, keys);
    let welcomes = count(&po, "outbox", "1");
    let d = po
        .accept(
            &mail(CONAN, "unsigned1@aquilonia.example", ORDERS),
            "test",
            t0(),
        )
        .unwrap();
    let Some(Disposition::Refused(why)) = d else {
        panic!("{d:?}")
    };
    assert!(
        why.contains("not signed (DKIM) by aquilonia.example"),
        "{why}"
    );
    assert_eq!(count(&po, "submissions", "1"), 0, "nothing in it was taken");
    assert!(logged(
        &po,
        "refused message from conan@aquilonia.example: The message is not signed (DKIM)"
    ));
    // The registered player hears of it (rate-limited, as a wrong password's refusal is) ...
    let out = outbox(&po);
    assert_eq!(out.len() as i64, welcomes + 1);
    let (kind, to, raw) = out.last().unwrap();
    assert_eq!((kind.as_str(), to.as_str()), ("refusal", CONAN));
    assert!(
        body_text(raw).contains("signed (DKIM)"),
        "{}",
        body_text(raw)
    );
    // ... the password it carried is masked, and it is not counted as a
    // wrong one: forged mail cannot lock the real player out.
    assert_eq!(
        count(&po, "messages", "CAST(raw AS TEXT) LIKE '%dragon7%'"),
        0
    );
    for i in 0..12 {
        po.accept(
            &mail(
                CONAN,
                &format!("forged{i}@aquilonia.example"),
                "GAME ford SIDE aquilonia PASSWORD guess\nEND\n",
            ),
            "test",
            t0(),
        )
        .unwrap();
    }
    assert_eq!(count(&po, "password_failures", "1"), 0);
    assert_eq!(count(&po, "lockouts", "1"), 0);
    assert_eq!(
        count(&po, "outbox", "kind = 'refusal'"),
        3,
        "at most three refusals an hour"
    );
}

#[test]
fn forged_signatures_do_not_pass() {
    let dir = tempfile::tempdir().unwrap();
    let (conan_key, keys) = conan();
    let (evil, evil_record) = Signer::new("evil.example");
    let keys = keys.with("mail", "evil.example", &evil_record);
    let mut po = office(dir.path(), Policy::Require, keys);
    // A valid signature, but of another domain.
    let d = po
        .accept(
            &evil.sign(&mail(CONAN, "other-domain@evil.example", ORDERS)),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Refused(_))), "{d:?}");
    // Conan's signature, then the orders changed on the way.
    let tampered =
        String::from_utf8(conan_key.sign(&mail(CONAN, "tampered@aquilonia.example", ORDERS)))
            .unwrap()
            .replace("move 6", "move 1");
    let d = po.accept(tampered.as_bytes(), "test", t0()).unwrap();
    assert!(matches!(d, Some(Disposition::Refused(_))), "{d:?}");
    // Conan's signature on a message whose From was then rewritten to the moderator.
    let moved = String::from_utf8(conan_key.sign(&mail(
        CONAN,
        "moved@aquilonia.example",
        "MODERATOR ford PASSWORD modpw\nEND GAME\n",
    )))
    .unwrap()
    .replace(&format!("<{CONAN}>"), &format!("<{MODERATOR}>"));
    let d = po.accept(moved.as_bytes(), "test", t0()).unwrap();
    assert!(matches!(d, Some(Disposition::Refused(_))), "{d:?}");
    assert_eq!(count(&po, "submissions", "1"), 0);
    assert_eq!(
        count(&po, "games", "status = 'active'"),
        1,
        "the moderator's forged END GAME was not read"
    );
    // A stranger's unsigned mail gets nothing at all, as a wrong password does.
    let before = count(&po, "outbox", "1");
    let d = po
        .accept(
            &mail("spy@zamora.example", "spy@zamora.example", ORDERS),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Refused(_))), "{d:?}");
    assert_eq!(count(&po, "outbox", "1"), before);
    // And the real thing still goes through.
    let d = po
        .accept(
            &conan_key.sign(&mail(CONAN, "real@aquilonia.example", ORDERS)),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
}

#[test]
fn record_logs_the_verdict_and_refuses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (conan_key, keys) = conan();
    let mut po = office(dir.path(), Policy::Record, keys);
    let d = po
        .accept(
            &mail(CONAN, "plain@aquilonia.example", ORDERS),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
    assert!(logged(
        &po,
        "DKIM no DKIM signature (not signed by the From domain)"
    ));
    let d = po
        .accept(
            &conan_key.sign(&mail(CONAN, "signed@aquilonia.example", ORDERS)),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
    assert!(logged(&po, "DKIM pass (d=aquilonia.example"));
    assert_eq!(count(&po, "outbox", "kind = 'confirmation'"), 2);
}

#[test]
fn off_looks_at_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_, keys) = conan();
    let mut po = office(dir.path(), Policy::Off, keys);
    let d = po
        .accept(
            &mail(CONAN, "plain@aquilonia.example", ORDERS),
            "test",
            t0(),
        )
        .unwrap();
    assert!(matches!(d, Some(Disposition::Orders { .. })), "{d:?}");
    assert_eq!(count(&po, "messages", "dkim IS NOT NULL"), 0);
    assert!(!logged(&po, "DKIM"));
}

/// DNS that does not answer.
struct Down;
impl KeyLookup for Down {
    fn domain_key(&self, _: &str) -> Lookup {
        Lookup::Trouble("DNS resolution error: timed out".into())
    }
}

#[test]
fn a_key_that_cannot_be_looked_up_waits_then_the_failure_stands() {
    let dir = tempfile::tempdir().unwrap();
    let (conan_key, _) = conan();
    let mut po = office(dir.path(), Policy::Require, Down);
    let d = po
        .accept(
            &conan_key.sign(&mail(CONAN, "dns-down@aquilonia.example", ORDERS)),
            "test",
            t0(),
        )
        .unwrap();
    assert_eq!(d, None, "left for a later run");
    assert_eq!(count(&po, "messages", "state = 'new' AND dkim IS NULL"), 1);
    po.process_pending(t0() + chrono::Duration::hours(1))
        .unwrap();
    assert_eq!(
        count(&po, "messages", "state = 'new'"),
        1,
        "still waiting after an hour"
    );
    po.process_pending(t0() + chrono::Duration::hours(25))
        .unwrap();
    assert_eq!(
        count(&po, "messages", "state = 'refused'"),
        1,
        "after a day the failure stands"
    );
    assert!(logged(
        &po,
        "temperror (d=aquilonia.example s=mail: DNS resolution error: timed out)"
    ));
}

#[test]
fn the_binary_reads_the_policy_from_umpire_toml() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("umpire.toml"),
        format!("address = \"{UMPIRE}\"\ndkim = \"require\"\n"),
    )
    .unwrap();
    assert!(umpire_in(d)
        .args(["game", "new"])
        .arg(game_file_ahead(d))
        .status()
        .unwrap()
        .success());
    // An unsigned message needs no key look-up: nothing here reaches DNS.
    let mut child = umpire_in(d)
        .arg("ingest")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        &mail(CONAN, "bin@aquilonia.example", ORDERS),
    )
    .unwrap();
    assert!(
        child.wait().unwrap().success(),
        "stored and refused, not an error"
    );
    assert_eq!(
        count_in(d, "SELECT COUNT(*) FROM messages WHERE state = 'refused'"),
        1
    );
    assert_eq!(count_in(d, "SELECT COUNT(*) FROM submissions"), 0);
    std::fs::write(
        d.join("umpire.toml"),
        format!("address = \"{UMPIRE}\"\ndkim = \"always\"\n"),
    )
    .unwrap();
    let out = umpire_in(d)
        .arg("doctor")
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("dkim") && err.contains("off") && err.contains("require"),
        "{err}"
    );
}
