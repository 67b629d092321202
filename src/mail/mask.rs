//! Masking passwords in what umpire keeps. A handled message is kept as its
//! headers and the text umpire read, with every password in them replaced
//! by `********` (the message's digest, stored beside it, still proves what
//! arrived); a text such as a submission's is masked word by word.
//!
//! ```
//! use umpire::mail::mask::{mask_text, mask_message};
//! assert_eq!(mask_text("GAME g SIDE s PASSWORD dragon7\nEND", &["dragon7"]), "GAME g SIDE s PASSWORD ********\nEND");
//! let raw = b"From: a@b.example\r\nSubject: pw dragon7\r\nContent-Transfer-Encoding: base64\r\n\r\nR0FNRSBn";
//! let kept = mask_message(raw, "GAME g PASSWORD dragon7", &["dragon7"]);
//! let kept = String::from_utf8(kept).unwrap();
//! assert!(!kept.contains("dragon7") && kept.contains("Subject: pw ********"));
//! assert!(kept.contains("GAME g PASSWORD ********") && !kept.contains("base64"));
//! ```

/// What a masked password reads as.
pub const MASK: &str = "********";

/// Is `c` part of a password word? Anything but space and the punctuation
/// mail clients put around words.
fn in_word(c: char) -> bool {
    !(c.is_whitespace()
        || matches!(
            c,
            '"' | '\'' | '“' | '”' | '‘' | '’' | '<' | '>' | '(' | ')' | ',' | ';' | ':' | '='
        ))
}

/// `text` with every whole-word occurrence of each secret masked. Secrets of
/// fewer than 3 characters are words too common to mask and too weak to matter.
pub fn mask_text(text: &str, secrets: &[&str]) -> String {
    let mut out = text.to_string();
    for secret in secrets.iter().filter(|s| s.chars().count() >= 3) {
        let mut masked = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(secret) {
            let before = rest[..at].chars().next_back();
            let after = rest[at + secret.len()..].chars().next();
            masked.push_str(&rest[..at]);
            if before.is_some_and(in_word) || after.is_some_and(in_word) {
                masked.push_str(secret);
            } else {
                masked.push_str(MASK);
            }
            rest = &rest[at + secret.len()..];
        }
        masked.push_str(rest);
        out = masked;
    }
    out
}

/// What is kept of a handled message: its header fields (less those that
/// describe the body's encoding) and `text`, the text umpire read from it,
/// every secret masked in both.
pub fn mask_message(raw: &[u8], text: &str, secrets: &[&str]) -> Vec<u8> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 2)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 1));
    let head = String::from_utf8_lossy(&raw[..end.unwrap_or(raw.len())]);
    let mut kept = String::new();
    let mut skipping = false;
    for line in head.split_inclusive('\n') {
        let continued = line.starts_with([' ', '\t']);
        if !continued {
            let name = line
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            skipping = matches!(
                name.as_str(),
                "content-type" | "content-transfer-encoding" | "mime-version"
            );
        }
        if !skipping && !line.trim().is_empty() {
            kept.push_str(line.trim_end_matches(['\r', '\n']));
            kept.push_str("\r\n");
        }
    }
    let mut out = mask_text(&kept, secrets);
    out.push_str("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n");
    out.push_str(
        &mask_text(text, secrets)
            .replace("\r\n", "\n")
            .replace('\n', "\r\n"),
    );
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_words_are_masked() {
        assert_eq!(
            mask_text("dragon7 dragon77 xdragon7 \"dragon7\"", &["dragon7"]),
            "******** dragon77 xdragon7 \"********\""
        );
        assert_eq!(mask_text("a b", &["a"]), "a b", "too short to mask");
        assert_eq!(
            mask_text("PASSWORD:dragon7", &["dragon7"]),
            "PASSWORD:********"
        );
        assert_eq!(
            mask_text("PASSWORD: dragon7.", &["dragon7"]),
            "PASSWORD: dragon7.",
            "a full stop is part of what was typed"
        );
        assert_eq!(mask_text("über über", &["über"]), "******** ********");
    }

    #[test]
    fn a_masked_message_still_reads_as_mail() {
        let raw = b"From: a@b.example\r\nContent-Type: multipart/mixed;\r\n boundary=xyz\r\nSubject: orders\r\n\r\n--xyz\r\n...";
        let kept = mask_message(raw, "GAME g PASSWORD sekrit\n", &["sekrit"]);
        let parsed = mail_parser::MessageParser::default().parse(&kept).unwrap();
        assert_eq!(parsed.subject(), Some("orders"));
        assert_eq!(
            parsed.body_text(0).unwrap().trim(),
            "GAME g PASSWORD ********"
        );
        assert!(!String::from_utf8_lossy(&kept).contains("boundary"));
    }
}
