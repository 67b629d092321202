//! Mail addresses as umpire accepts them: one `local@domain`, checked by
//! the `email_address` crate (RFC 5322), without display names, brackets,
//! lists or groups. Every address that enters — a game file's, the
//! configuration's, a moderator's REPLACE, a message's From — passes here.
//!
//! ```
//! use umpire::mail::address::is_valid;
//! assert!(is_valid("conan@aquilonia.example"));
//! assert!(!is_valid("Conan <conan@aquilonia.example>"));
//! assert!(!is_valid("<conan@aquilonia.example>@evil.example"));
//! assert!(!is_valid("conan@aquilonia.example, evil@evil.example"));
//! ```

use email_address::EmailAddress;
use std::str::FromStr;

/// The longest address accepted (RFC 5321's limit on a path).
pub const MAX_LEN: usize = 254;

/// Is `a` one plain mail address?
pub fn is_valid(a: &str) -> bool {
    a.len() <= MAX_LEN
        && !a.chars().any(|c| {
            c.is_whitespace()
                || c.is_control()
                || matches!(c, '<' | '>' | ',' | ';' | '"' | '(' | ')')
        })
        && a.matches('@').count() == 1
        && a.split('@')
            .nth(1)
            .is_some_and(|d| d.contains('.') || d == "localhost")
        && EmailAddress::from_str(a).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_only() {
        for good in [
            "a@b.example",
            "first.last+tag@club.example.org",
            "umpire@localhost",
        ] {
            assert!(is_valid(good), "{good}");
        }
        for bad in [
            "",
            "conan",
            "a@b@c.example",
            "@b.example",
            "a@",
            "a b@c.example",
            "a@b.example\r\nBcc: x@y.example",
            "\"x\"@b.example",
        ] {
            assert!(!is_valid(bad), "{bad:?}");
        }
        assert!(!is_valid(&format!("{}@b.example", "a".repeat(300))));
    }
}
