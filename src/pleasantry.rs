//! Greetings and signatures around a sheet of orders: people write letters
//! ("Hi umpire,", "Cheers", "Conan"). A line before the first or after the
//! last line that reads as an order, shaped like a pleasantry and naming no
//! unit, is set aside with a note instead of being refused as an unknown
//! unit (ruling O-27). Each rule set's reader decides what reads as an order
//! and what names a unit; the shape and the edges are the same for all.

/// A pleasantry has at most this many words ("Best regards, Conan of Cimmeria"
/// has five and is refused like any unknown line).
pub const MAX_WORDS: usize = 4;

/// Whether a line is shaped like a greeting or a signature: one to
/// [`MAX_WORDS`] words of letters, with at most the punctuation of a letter
/// (`, . ! ? ' ’ -`), and nothing an order has (no digit, colon or semicolon).
pub fn is_shaped(line: &str) -> bool {
    let line = line.trim();
    let letters_only = line
        .chars()
        .all(|c| c.is_alphabetic() || c.is_whitespace() || ",.!?'’-".contains(c));
    let words = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    letters_only && (1..=MAX_WORDS).contains(&words)
}

/// Which lines are at the edges: given, for each non-blank line, whether it
/// reads as an order, the indices before the first and after the last that
/// do (every index when none does).
pub fn edges(reads_as_order: &[bool]) -> impl Iterator<Item = usize> + '_ {
    let first = reads_as_order.iter().position(|&o| o);
    let last = reads_as_order.iter().rposition(|&o| o);
    (0..reads_as_order.len()).filter(move |&i| match (first, last) {
        (Some(f), Some(l)) => i < f || i > l,
        _ => true,
    })
}

/// The note a set-aside line gets.
pub const NOTE: &str = "read as a greeting or signature, not an order, and set aside";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_shaped_like_letters_and_orders_are_not() {
        for yes in [
            "Hi umpire,",
            "Cheers",
            "Conan",
            "Thanks!",
            "Best regards, Conan",
            "Dear Umpire!",
            "Hello there",
            "Grüße, Jürgen",
        ] {
            assert!(is_shaped(yes), "{yes}");
        }
        for no in [
            "",
            "  ",
            "Black Dragons: phase 1 move 6",
            "move 6",
            "phase 2: hold",
            "Best regards from Conan of Cimmeria",
            "--",
            "hold; fire",
        ] {
            assert!(!is_shaped(no), "{no}");
        }
    }

    #[test]
    fn only_lines_outside_the_orders_are_at_the_edges() {
        let lines = [false, true, false, true, false, false];
        assert_eq!(edges(&lines).collect::<Vec<_>>(), vec![0, 4, 5]);
        assert_eq!(edges(&[false, false]).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(edges(&[]).count(), 0);
    }
}
