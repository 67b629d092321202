//! Finding the author's own words in a reply: quoted text and signatures out.
//!
//! The main entry point is [`strip`]. Players reply to the umpire's reports,
//! and the reports quote their orders back; if the quoted copy were read the
//! old orders would be submitted again. So everything the author did not
//! write now is removed:
//!
//! - quoted lines, starting with `>` (HTML blockquotes become such lines in
//!   [`super::html`]);
//! - attributions ("On Mon, 30 Nov 2026 … wrote:", also wrapped over several
//!   lines, and "Am … schrieb:", "Le … a écrit :");
//! - everything from a quoted-message header on: Outlook's
//!   "-----Original Message-----", its "From: … Sent: … To: …" block (and
//!   the `____` rule above it), "---------- Forwarded message ---------",
//!   "Begin forwarded message:";
//! - everything from a signature on: `-- `, `--`, `—` alone on a line, and
//!   phone footers like "Sent from my iPhone".
//!
//! A mail that is only a forward — nothing above its marker but blank lines
//! and a signature — is the player forwarding his own orders: it is read
//! from the forwarded message's body (its header block skipped, a level of
//! `>` taken off when it is all quoted), with the same rules.
//!
//! ```
//! let reply = "GAME valkia SIDE aquilonia PASSWORD dragon7\nEND\n\n\
//!              On Mon, 30 Nov 2026 at 15:04, Umpire <umpire@valkia.example> wrote:\n\
//!              > Black Dragons: phase 1 charge Nemedian Knights\n";
//! assert_eq!(umpire::mail::quote::strip(reply), "GAME valkia SIDE aquilonia PASSWORD dragon7\nEND");
//! ```
//!
//! Architecture Invariant: this module sees text only; it knows nothing of
//! MIME, charsets or orders. Its input has `\n` line ends.

/// Start of the line above the quotable part of every mail the umpire sends
/// (see [`umpire_mark_line`]). Whatever follows it in a reply is the
/// umpire's own text coming back, however the player's client quoted it, so
/// reading stops there.
pub const UMPIRE_MARK: &str = "~~ umpire ~~";

/// The mark line for a mail, e.g. `~~ umpire ~~ Valkia, turn 2 report`.
/// Templates put it above the report or confirmation text.
pub fn umpire_mark_line(title: &str) -> String {
    format!("{UMPIRE_MARK} {title}")
}

/// Returns the author's new text: quotes, quoted-message blocks and the
/// signature removed, trailing white space trimmed from every line, runs of
/// blank lines collapsed to one, and no blank lines at either end.
///
/// A mail that is only a forward (nothing above the forward marker but
/// blank lines and a signature) is read from the forwarded message's body:
/// the player forwarding his own orders (see [`forwarded_alone`]).
pub fn strip(text: &str) -> String {
    let mut lines: Vec<std::borrow::Cow<'_, str>> = text.lines().map(Into::into).collect();
    // A forward of a forward is read too, to a depth no real mail reaches,
    // so hostile nesting costs linear time.
    for _ in 0..MAX_FORWARDS {
        let view: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
        let Some(body) = forwarded_alone(&view) else {
            break;
        };
        lines = unquote(&view[body..])
            .into_iter()
            .map(|l| std::borrow::Cow::Owned(l.to_string()))
            .collect();
    }
    let view: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
    strip_lines(&view)
}

/// How many forwards within forwards [`strip`] opens.
const MAX_FORWARDS: usize = 4;

/// If the text is a forward and nothing but blank lines and a signature
/// stands above its marker ("---------- Forwarded message ---------",
/// Thunderbird's "-------- Forwarded Message --------", Apple's "Begin
/// forwarded message:"), the line where the forwarded message's body
/// starts: after the marker and the header block below it ("From: …",
/// "Date: …", "Subject: …", "To: …", quoted or not).
fn forwarded_alone(lines: &[&str]) -> Option<usize> {
    let first = lines.iter().position(|l| !l.trim().is_empty())?;
    // The marker may be quoted with the rest (Gmail's HTML puts a forward
    // in its quote container).
    let marks = |l: &str| is_forward_marker(unquote_line(l));
    let marker = if marks(lines[first]) {
        first
    } else if is_signature(lines[first]) {
        first + lines[first..].iter().position(|l| marks(l))?
    } else {
        return None;
    };
    let mut i = marker + 1;
    let mut in_header = false;
    while let Some(line) = lines.get(i) {
        let bare_line = unquote_line(line);
        if bare_line.trim().is_empty() {
            if in_header {
                return Some(i + 1);
            }
        } else if header_field(bare_line) {
            in_header = true;
        } else if !(in_header && bare_line.starts_with([' ', '\t'])) {
            // The body starts without a blank line after the header block,
            // or with no header block at all.
            return Some(i);
        }
        i += 1;
    }
    Some(lines.len())
}

/// A forward marker line (not a reply's separator).
fn is_forward_marker(line: &str) -> bool {
    let line = bare(line);
    let lower = line.to_lowercase();
    (line.starts_with("---") && FORWARD_WORDS.iter().any(|w| lower.contains(w)))
        || FORWARD_LINES.contains(&lower.as_str())
}

/// Words inside a dashed separator line that begin a forwarded message.
const FORWARD_WORDS: &[&str] = &[
    "forwarded message",
    "weitergeleitete nachricht",
    "message transféré",
    "mensaje reenviado",
    "messaggio inoltrato",
];

/// Whether the line is a field of a forwarded message's header block.
fn header_field(line: &str) -> bool {
    let names = HEADER_FROM.iter().chain(HEADER_NEXT).chain(FORWARD_HEADER);
    names
        .into_iter()
        .any(|n| starts_with_ignore_case(bare(line), n))
}

/// Header fields a forward shows besides those of a reply's header block.
const FORWARD_HEADER: &[&str] = &["reply-to:", "message-id:", "antwort an:", "répondre à :"];

/// The forwarded part without one level of `>` when every line of it that
/// is not blank is quoted (Apple's mail on a phone quotes what it forwards);
/// otherwise as it is.
fn unquote<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    let all_quoted = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .all(|l| is_quoted(l));
    if !all_quoted {
        return lines.to_vec();
    }
    lines.iter().map(|l| unquote_line(l)).collect()
}

/// The line without one level of `>` and the space after it, if quoted.
fn unquote_line(line: &str) -> &str {
    match line.trim_start().strip_prefix('>') {
        Some(t) => t.strip_prefix(' ').unwrap_or(t),
        None => line,
    }
}

/// [`strip`] on lines, once any forward is opened.
fn strip_lines(lines: &[&str]) -> String {
    let mut kept: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if is_quoted(line) {
            i += 1;
            continue;
        }
        if starts_quoted_message(lines, i) || is_signature(line) {
            break;
        }
        if let Some(len) = attribution_len(lines, i) {
            // An attribution followed by `>` lines is dropped and reading goes
            // on (the author may answer below the quote); one followed by
            // unmarked text introduces a quote that runs to the end.
            match lines[i + len..].iter().find(|l| !l.trim().is_empty()) {
                Some(next) if is_quoted(next) => {
                    i += len;
                    continue;
                }
                _ => break,
            }
        }
        kept.push(line);
        i += 1;
    }
    tidy(&kept)
}

/// Trims line ends, collapses blank runs, drops blank lines at both ends.
pub fn tidy<S: AsRef<str>>(lines: &[S]) -> String {
    let mut out = String::new();
    let mut blank_pending = false;
    for line in lines {
        let line = line.as_ref().trim_end();
        if line.is_empty() {
            blank_pending = !out.is_empty();
            continue;
        }
        if blank_pending {
            out.push('\n');
            blank_pending = false;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// A line with `*` or `_` emphasis (from HTML bold in a text alternative)
/// and surrounding white space removed.
fn bare(line: &str) -> &str {
    line.trim().trim_matches(|c| c == '*' || c == '_').trim()
}

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.is_char_boundary(prefix.len())
        && text[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// Words inside a dashed separator line that begin a quoted message.
const SEPARATOR_WORDS: &[&str] = &[
    "original message",
    "forwarded message",
    "ursprüngliche nachricht",
    "weitergeleitete nachricht",
    "message d'origine",
    "message transféré",
    "mensaje original",
    "messaggio originale",
];

/// Lines that begin a forwarded message on their own.
const FORWARD_LINES: &[&str] = &[
    "begin forwarded message:",
    "anfang der weitergeleiteten nachricht:",
    "début du message réexpédié :",
];

/// Field names that open a quoted-message header block ("From:", "Von:", …).
const HEADER_FROM: &[&str] = &["from:", "von:", "de:", "de :", "van:", "da:"];

/// Field names that follow "From:" in a quoted-message header block.
const HEADER_NEXT: &[&str] = &[
    "sent:",
    "date:",
    "to:",
    "cc:",
    "subject:",
    "gesendet:",
    "datum:",
    "an:",
    "betreff:",
    "envoyé :",
    "envoyé:",
    "à :",
    "objet :",
    "enviado:",
    "para:",
    "asunto:",
    "inviato:",
    "oggetto:",
];

/// Whether a quoted message (Outlook header block, separator or forward
/// marker) begins at line `i`; everything from there on is not the author's.
fn starts_quoted_message(lines: &[&str], i: usize) -> bool {
    let line = bare(lines[i]);
    if line.starts_with("---") {
        let lower = line.to_lowercase();
        if SEPARATOR_WORDS.iter().any(|w| lower.contains(w)) {
            return true;
        }
    }
    if line.ends_with(':') && FORWARD_LINES.contains(&line.to_lowercase().as_str()) {
        return true;
    }
    // Outlook's rule of underscores above the header block.
    if lines[i].trim().len() >= 10 && lines[i].trim().chars().all(|c| c == '_') {
        return lines[i + 1..]
            .iter()
            .position(|l| !l.trim().is_empty())
            .is_some_and(|offset| header_block_at(lines, i + 1 + offset));
    }
    header_block_at(lines, i)
}

/// "From: …" followed within two lines by "Sent:", "To:", "Subject:" or the
/// like: the header block Outlook and others put above a quoted message.
fn header_block_at(lines: &[&str], i: usize) -> bool {
    let starts =
        |line: &str, names: &[&str]| names.iter().any(|n| starts_with_ignore_case(bare(line), n));
    starts(lines[i], HEADER_FROM)
        && lines[i + 1..]
            .iter()
            .take(2)
            .any(|l| starts(l, HEADER_NEXT))
}

/// Footers phone and webmail clients add below the author's text.
const FOOTERS: &[&str] = &[
    "sent from my ",
    "sent from mail for ",
    "sent from outlook",
    "sent from yahoo mail",
    "sent from samsung",
    "sent with proton mail",
    "get outlook for ",
    "von meinem ",
    "gesendet von meinem ",
    "envoyé de mon ",
    "enviado desde mi ",
    "inviato da ",
];

fn is_signature(line: &str) -> bool {
    let trimmed = line.trim_end();
    if matches!(trimmed, "--" | "\u{2014}" | "\u{2013}" | "\u{2014}\u{2014}")
        || line.trim_start().starts_with(UMPIRE_MARK)
    {
        return true;
    }
    let t = line.trim();
    FOOTERS.iter().any(|f| starts_with_ignore_case(t, f)) && t.len() < 80
}

/// How attributions begin, in the languages players are likely to write.
const ATTRIBUTION_START: &[&str] = &["on ", "am ", "le ", "el ", "il ", "op ", "em "];

/// The verb of an attribution; it ends with a colon, perhaps after an
/// address ("schrieb Umpire <umpire@valkia.example>:").
const ATTRIBUTION_VERBS: &[&str] = &[
    "wrote",
    "schrieb",
    "a écrit",
    "escribió",
    "ha scritto",
    "schreef",
    "escreveu",
];

fn reads_as_attribution(lower: &str) -> bool {
    lower.ends_with(':') && ATTRIBUTION_VERBS.iter().any(|v| lower.contains(v))
}

/// Longest attribution accepted, in characters; a longer line is prose.
const ATTRIBUTION_MAX: usize = 300;

/// If an attribution starts at line `i`, how many lines it spans.
fn attribution_len(lines: &[&str], i: usize) -> Option<usize> {
    let first = lines[i].trim();
    if ATTRIBUTION_START
        .iter()
        .any(|s| starts_with_ignore_case(first, s))
    {
        let mut joined = String::new();
        for (k, line) in lines[i..].iter().take(4).enumerate() {
            let line = line.trim();
            if line.is_empty() || (k > 0 && is_quoted(line)) {
                return None;
            }
            if !joined.is_empty() {
                joined.push(' ');
            }
            joined.push_str(line);
            if joined.len() > ATTRIBUTION_MAX {
                return None;
            }
            if reads_as_attribution(&joined.to_lowercase()) {
                return Some(k + 1);
            }
        }
        return None;
    }
    // "Umpire <umpire@valkia.example> wrote:" with the quote below, or
    // mutt's "* Umpire <umpire@valkia.example> [2026-11-30 15:04]:" with the
    // quote on the very next line.
    if !first.ends_with(':') || first.len() > ATTRIBUTION_MAX {
        return None;
    }
    let lower_first = first.to_lowercase();
    let quote_follows = || {
        lines[i + 1..]
            .iter()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| is_quoted(l))
    };
    let quote_next = lines.get(i + 1).is_some_and(|l| is_quoted(l));
    let names_sender = first.contains('@');
    ((reads_as_attribution(&lower_first) && quote_follows()) || (names_sender && quote_next))
        .then_some(1)
}

#[cfg(test)]
mod tests {
    use super::strip;

    const ORDERS: &str = "GAME valkia SIDE aquilonia PASSWORD dragon7\nBlack Dragons: phase 1 charge Nemedian Knights\nEND";

    #[test]
    fn plain_text_is_kept_and_tidied() {
        assert_eq!(strip("\n\nGAME x  \n\n\n\nEND\n\n"), "GAME x\n\nEND");
    }

    #[test]
    fn quoted_lines_go() {
        let text = format!("{ORDERS}\n> GAME valkia\n  > > old\n");
        assert_eq!(strip(&text), ORDERS);
    }

    #[test]
    fn bottom_posting_keeps_text_below_the_quote() {
        let text = format!("On Mon, 30 Nov 2026, Umpire wrote:\n> Turn 3 report\n> Black Dragons: hold\n\n{ORDERS}\n");
        assert_eq!(strip(&text), ORDERS);
    }

    #[test]
    fn wrapped_attribution_is_recognised() {
        let text = format!(
            "{ORDERS}\n\nOn Mon, Nov 30, 2026 at 3:04 PM Valkia Umpire <\numpire@valkia.example> wrote:\n\n> GAME valkia\n"
        );
        assert_eq!(strip(&text), ORDERS);
        let german = format!("{ORDERS}\n\nAm Mo., 30. Nov. 2026 um 15:04 Uhr schrieb Umpire <\numpire@valkia.example>:\n> x\n");
        assert_eq!(strip(&german), ORDERS);
        let german = format!(
            "{ORDERS}\n\nAm 30.11.2026 um 15:04 schrieb Umpire <umpire@valkia.example>:\n> x\n"
        );
        assert_eq!(strip(&german), ORDERS);
    }

    #[test]
    fn attribution_with_unmarked_quote_ends_the_text() {
        let text = format!("{ORDERS}\n\nOn Mon, 30 Nov 2026, Umpire wrote:\n\nTurn 3 report\nBlack Dragons: hold\n");
        assert_eq!(strip(&text), ORDERS);
    }

    #[test]
    fn outlook_header_block_ends_the_text() {
        let text = format!(
            "{ORDERS}\n\n________________________________\nFrom: Umpire <umpire@valkia.example>\nSent: Monday, November 30, 2026 3:04 PM\nTo: Conan\nSubject: Turn 3\n\nBlack Dragons: hold\n"
        );
        assert_eq!(strip(&text), ORDERS);
        let bold = format!("{ORDERS}\n*From:* Umpire\n*Sent:* Monday\nBlack Dragons: hold\n");
        assert_eq!(strip(&bold), ORDERS);
    }

    #[test]
    fn a_lone_from_line_is_not_a_header_block() {
        let text = "From: the hills\nBlack Dragons: hold";
        assert_eq!(strip(text), text);
    }

    #[test]
    fn separators_end_the_text() {
        for sep in [
            "-----Original Message-----",
            "----- Original Message -----",
            "---------- Forwarded message ---------",
            "-------- Weitergeleitete Nachricht --------",
            "Begin forwarded message:",
        ] {
            let text = format!("{ORDERS}\n\n{sep}\nBlack Dragons: hold\n");
            assert_eq!(strip(&text), ORDERS, "separator {sep:?}");
        }
    }

    #[test]
    fn a_forward_with_nothing_above_is_read_from_its_body() {
        for (marker, header) in [
            (
                "---------- Forwarded message ---------",
                "From: Conan <conan@aquilonia.example>\nDate: Tue, Dec 1, 2026 at 9:12 AM\nSubject: orders\nTo: <umpire@valkia.example>\n\n",
            ),
            (
                "-------- Forwarded Message --------",
                "Subject: \torders\nDate: \tTue, 1 Dec 2026 09:12:44 +0100\nFrom: \tConan <conan@aquilonia.example>\nTo: \tumpire@valkia.example\n\n\n",
            ),
            ("Begin forwarded message:", "\nFrom: Conan\nSubject: orders\n\n"),
            ("---------- Forwarded message ---------", ""),
        ] {
            let text = format!("\n\n{marker}\n{header}{ORDERS}\n-- \nConan\n");
            assert_eq!(strip(&text), ORDERS, "{marker:?} with {header:?}");
        }
        // Apple's mail on a phone quotes what it forwards, below its footer.
        let quoted: String = ORDERS.lines().map(|l| format!("> {l}\n")).collect();
        let text = format!("Sent from my iPhone\n\nBegin forwarded message:\n\n> From: Conan\n> Subject: orders\n>\n{quoted}");
        assert_eq!(strip(&text), ORDERS);
        // A signature above the forward is not text of the author's.
        let text = format!("-- \nConan\n\n---------- Forwarded message ---------\nFrom: Conan\nTo: umpire\n\n{ORDERS}");
        assert_eq!(strip(&text), ORDERS);
        // What the forwarded mail quoted is not read either.
        let text = format!("---------- Forwarded message ---------\nFrom: Conan\nTo: umpire\n\n{ORDERS}\n\nOn Mon, 30 Nov 2026, Umpire wrote:\n> Black Dragons: hold\n");
        assert_eq!(strip(&text), ORDERS);
    }

    #[test]
    fn a_forward_below_the_authors_text_is_not_read() {
        let text = format!("{ORDERS}\n\n---------- Forwarded message ---------\nFrom: Conan\nTo: umpire\n\nBlack Dragons: hold\n");
        assert_eq!(strip(&text), ORDERS);
        let text = "Here are my orders again.\n\nBegin forwarded message:\n\nFrom: Conan\nSubject: x\n\nBlack Dragons: hold\n";
        assert_eq!(strip(text), "Here are my orders again.");
        // Gmail's HTML quotes the whole forward, marker and all.
        let quoted: String = ORDERS.lines().map(|l| format!("> {l}\n")).collect();
        let text = format!(
            "\n> ---------- Forwarded message ---------\n> From: Conan\n> To: umpire\n>\n{quoted}"
        );
        assert_eq!(strip(&text), ORDERS);
    }

    #[test]
    fn signatures_end_the_text() {
        for sig in [
            "-- ",
            "--",
            "\u{2014}",
            "Sent from my iPhone",
            "Get Outlook for Android",
            "Von meinem iPhone gesendet",
        ] {
            let text = format!("{ORDERS}\n{sig}\nConan of Cimmeria\nBlack Dragons: hold\n");
            assert_eq!(strip(&text), ORDERS, "signature {sig:?}");
        }
    }

    #[test]
    fn the_umpire_mark_ends_the_text_however_it_is_quoted() {
        let text = format!(
            "{ORDERS}\n\n{}\nYour orders as understood:\nBlack Dragons: hold\n",
            super::umpire_mark_line("Valkia, turn 2")
        );
        assert_eq!(strip(&text), ORDERS);
    }

    #[test]
    fn hostile_text_takes_linear_time() {
        let n = 100_000;
        for text in [
            "x\n".to_string() + &"\n".repeat(n),
            "a@b:\n".repeat(n),
            "On x wrote\n".repeat(n),
            "From: a\n".repeat(n),
            "__________\n".repeat(n),
            "wrote:\n\n".repeat(n) + "> q",
            "---------- Forwarded message ---------\n".repeat(n),
            "Begin forwarded message:\n\n> ".repeat(n),
            "--\n".to_string() + &"From: a\n".repeat(n),
        ] {
            let start = std::time::Instant::now();
            let _ = strip(&text);
            assert!(
                start.elapsed() < std::time::Duration::from_secs(2),
                "{:?}… took {:?}",
                &text[..10],
                start.elapsed()
            );
        }
    }

    #[test]
    fn mutt_style_attribution_goes() {
        let text = format!(
            "* Umpire <umpire@valkia.example> [2026-11-30 15:04 +0000]:\n> old\n\n{ORDERS}"
        );
        assert_eq!(strip(&text), ORDERS);
    }

    #[test]
    fn order_lines_that_mention_wrote_are_kept() {
        let text = "Scribes: the chronicler wrote:";
        assert_eq!(strip(text), text);
    }
}
