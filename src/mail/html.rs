//! HTML to plain text, for players whose mail client sends HTML only.
//!
//! The main entry point is [`to_text`]. It is not a browser: it keeps the
//! words and the line structure a reader sees (`<br>`, `<p>`, `<div>`, table
//! rows and list items start new lines), decodes entities, drops `<script>`,
//! `<style>` and `<head>`, and marks quoted material the way plain-text mail
//! does, with a `> ` prefix per level, so that [`super::quote`] removes it
//! with the same rules as a plain-text reply. Quoted material is
//! `<blockquote>` and the reply containers mail clients wrap around the
//! message they answer (Gmail's `gmail_quote`, Yahoo's `yahoo_quoted`).
//!
//! ```
//! use umpire::mail::html::to_text;
//! let text = to_text("<p>Black&nbsp;Dragons: charge</p><blockquote>old</blockquote>");
//! assert_eq!(text, "Black\u{a0}Dragons: charge\n> old\n");
//! ```
//!
//! Architecture Invariant: malformed HTML never fails and never panics;
//! unknown tags are ignored, unmatched closing tags are skipped.

/// Elements whose start and end break the line.
const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
];

/// Elements that never have content or an end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Elements whose content is not shown to the reader.
const HIDDEN: &[&str] = &["head", "script", "style", "title", "template", "xml"];

/// Deepest nesting of elements tracked; deeper ones are read as text inside
/// their ancestors, which bounds the work on hostile input.
const MAX_NESTING: usize = 256;

/// `class` values (or their endings: Yahoo prefixes an id) of the containers
/// mail clients put around quoted replies.
const QUOTE_CLASSES: &[&str] = &["gmail_quote", "yahoo_quoted"];

/// Converts an HTML body to text, one `> ` per quoting level.
pub fn to_text(html: &str) -> String {
    let mut out = Writer::default();
    // Open elements: name and whether they raised the quote depth.
    let mut stack: Vec<(String, bool)> = Vec::new();
    let mut hidden_depth = 0usize;
    let mut pre_depth = 0usize;
    let mut rest = html;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        if rest.starts_with('<') {
            if let Some(tag) = Tag::parse(rest) {
                rest = &rest[tag.len..];
                let name = tag.name.as_str();
                if tag.closing && name == "br" {
                    // `</br>` is a line break to browsers, so to us.
                    out.hard_break();
                    continue;
                }
                if tag.closing {
                    if let Some(pos) = stack.iter().rposition(|(n, _)| n == name) {
                        for (open, quoted) in stack.drain(pos..).rev() {
                            if quoted {
                                out.depth -= 1;
                            }
                            if HIDDEN.contains(&open.as_str()) {
                                hidden_depth -= 1;
                            }
                            if open == "pre" {
                                pre_depth -= 1;
                            }
                            if BLOCK.contains(&open.as_str()) {
                                out.break_line();
                            }
                        }
                    }
                    continue;
                }
                if name == "br" {
                    out.hard_break();
                } else if BLOCK.contains(&name) {
                    out.break_line();
                }
                // Elements nested too deep to track are read as if empty: their
                // text stays inside every quote opened so far.
                if VOID.contains(&name) || tag.self_closing || stack.len() >= MAX_NESTING {
                    continue;
                }
                let quoted = name == "blockquote"
                    || tag
                        .class
                        .split_whitespace()
                        .any(|c| QUOTE_CLASSES.iter().any(|q| c.ends_with(q)));
                if quoted {
                    out.break_line();
                    out.depth += 1;
                }
                if HIDDEN.contains(&name) {
                    hidden_depth += 1;
                }
                if name == "pre" {
                    pre_depth += 1;
                }
                stack.push((tag.name, quoted));
                continue;
            }
        }
        // Text up to the next tag (a lone '<' that opens no tag is text).
        let first = rest.chars().next().map_or(1, char::len_utf8);
        let end = rest[first..].find('<').map_or(rest.len(), |i| i + first);
        let (text, after) = rest.split_at(end);
        rest = after;
        if hidden_depth == 0 {
            out.text(&decode_entities(text), pre_depth > 0);
        }
    }
    out.finish()
}

/// Builds lines, collapsing white space as a browser does outside `<pre>`.
#[derive(Default)]
struct Writer {
    out: String,
    line: String,
    /// Quote depth of the line being built, fixed by its first text.
    line_depth: usize,
    depth: usize,
    pending_space: bool,
}

impl Writer {
    fn text(&mut self, text: &str, preformatted: bool) {
        for ch in text.chars() {
            if preformatted {
                if ch == '\n' {
                    self.hard_break();
                } else if ch != '\r' {
                    self.push(ch);
                }
            } else if ch.is_ascii_whitespace() {
                self.pending_space = !self.line.is_empty();
            } else {
                if self.pending_space {
                    self.push(' ');
                    self.pending_space = false;
                }
                self.push(ch);
            }
        }
    }

    fn push(&mut self, ch: char) {
        if self.line.is_empty() {
            self.line_depth = self.depth;
        }
        self.line.push(ch);
    }

    /// A `<br>`: always ends the line, even an empty one.
    fn hard_break(&mut self) {
        if self.line.is_empty() {
            self.line_depth = self.depth;
        }
        self.emit();
    }

    /// A block boundary: ends the line if it has text.
    fn break_line(&mut self) {
        if !self.line.is_empty() {
            self.emit();
        }
    }

    fn emit(&mut self) {
        for _ in 0..self.line_depth {
            self.out.push_str("> ");
        }
        self.out.push_str(self.line.trim_end());
        self.out.push('\n');
        self.line.clear();
        self.pending_space = false;
    }

    fn finish(mut self) -> String {
        self.break_line();
        self.out
    }
}

/// One start or end tag, with the `class` attribute (the only one we read).
struct Tag {
    name: String,
    closing: bool,
    self_closing: bool,
    class: String,
    /// Bytes of input the tag spans.
    len: usize,
}

impl Tag {
    /// Parses a tag at the start of `s`; `None` if `s` does not start one.
    fn parse(s: &str) -> Option<Tag> {
        let bytes = s.as_bytes();
        let mut i = 1;
        let closing = bytes.get(i) == Some(&b'/');
        if closing {
            i += 1;
        }
        if bytes.get(i) == Some(&b'!') || bytes.get(i) == Some(&b'?') {
            // Doctype, conditional comment or processing instruction: skip it
            // whole, unless another tag starts first.
            let end = s[1..].find(['>', '<']).map(|i| i + 1)?;
            if s.as_bytes()[end] == b'<' {
                return None;
            }
            return Some(Tag {
                name: String::new(),
                closing: false,
                self_closing: true,
                class: String::new(),
                len: end + 1,
            });
        }
        let name_start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b':') {
            i += 1;
        }
        if i == name_start {
            return None;
        }
        let name = s[name_start..i].to_ascii_lowercase();
        let mut class = String::new();
        // Attributes: name, optional = and a quoted or bare value.
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            match bytes.get(i) {
                None => return None,
                Some(b'>') => {
                    let self_closing = bytes[i - 1] == b'/';
                    return Some(Tag {
                        name,
                        closing,
                        self_closing,
                        class,
                        len: i + 1,
                    });
                }
                Some(b'/') => i += 1,
                // A '<' inside a tag: the tag is broken, read it as text.
                Some(b'<') => return None,
                Some(_) => {
                    let attr_start = i;
                    while i < bytes.len()
                        && !bytes[i].is_ascii_whitespace()
                        && !matches!(bytes[i], b'=' | b'>' | b'/' | b'<')
                    {
                        i += 1;
                    }
                    let attr = &s[attr_start..i];
                    if bytes.get(i) == Some(&b'=') {
                        i += 1;
                        let value = match bytes.get(i) {
                            Some(&q @ (b'"' | b'\'')) => {
                                let len = s[i + 1..].find(q as char)?;
                                let v = &s[i + 1..i + 1 + len];
                                i += len + 2;
                                v
                            }
                            _ => {
                                let start = i;
                                while i < bytes.len()
                                    && !bytes[i].is_ascii_whitespace()
                                    && bytes[i] != b'>'
                                    && bytes[i] != b'<'
                                {
                                    i += 1;
                                }
                                &s[start..i]
                            }
                        };
                        if attr.eq_ignore_ascii_case("class") {
                            class = value.to_string();
                        }
                    }
                }
            }
        }
    }
}

/// Decodes character references: `&amp;`, `&#8217;`, `&#x2019;` and the named
/// ones mail clients actually emit. An unknown reference stays as written.
pub fn decode_entities(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('&') {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .map_or(rest.len(), |i| i + 1);
        let name = &rest[1..end];
        match entity(name) {
            Some(ch) => {
                out.push(ch);
                let skip = if rest[end..].starts_with(';') {
                    end + 1
                } else {
                    end
                };
                rest = &rest[skip..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return Some(match code {
            0 => '\u{fffd}',
            // Windows-1252 smart punctuation misencoded as numeric references.
            0x91 => '\u{2018}',
            0x92 => '\u{2019}',
            0x93 => '\u{201c}',
            0x94 => '\u{201d}',
            0x96 => '\u{2013}',
            0x97 => '\u{2014}',
            _ => char::from_u32(code).unwrap_or('\u{fffd}'),
        });
    }
    Some(match name {
        "nbsp" => '\u{a0}',
        "amp" | "AMP" => '&',
        "lt" | "LT" => '<',
        "gt" | "GT" => '>',
        "quot" | "QUOT" => '"',
        "apos" => '\'',
        "lsquo" => '\u{2018}',
        "rsquo" => '\u{2019}',
        "ldquo" => '\u{201c}',
        "rdquo" => '\u{201d}',
        "ndash" => '\u{2013}',
        "mdash" => '\u{2014}',
        "hellip" => '\u{2026}',
        "deg" => '°',
        "copy" => '©',
        "reg" => '®',
        "shy" => '\u{ad}',
        "zwsp" => '\u{200b}',
        "middot" => '·',
        "bull" => '•',
        "times" => '×',
        "frac12" => '½',
        "eacute" => 'é',
        "egrave" => 'è',
        "aacute" => 'á',
        "agrave" => 'à',
        "ouml" => 'ö',
        "auml" => 'ä',
        "uuml" => 'ü',
        "Ouml" => 'Ö',
        "Auml" => 'Ä',
        "Uuml" => 'Ü',
        "szlig" => 'ß',
        "ccedil" => 'ç',
        "ntilde" => 'ñ',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_and_paragraphs_make_lines() {
        let html = "<div>GAME valkia</div><div>Black Dragons: charge<br>END</div>";
        assert_eq!(to_text(html), "GAME valkia\nBlack Dragons: charge\nEND\n");
        assert_eq!(to_text("<p>a</p><p>b</p>"), "a\nb\n");
    }

    #[test]
    fn br_alone_gives_a_blank_line() {
        assert_eq!(to_text("a<br><br>b"), "a\n\nb\n");
        assert_eq!(to_text("a</br>b<BR/>c"), "a\nb\nc\n");
    }

    #[test]
    fn white_space_collapses_outside_pre() {
        assert_eq!(to_text("<p>  phase\n 1   move\t4 </p>"), "phase 1 move 4\n");
        assert_eq!(to_text("<pre>a  b\nc</pre>"), "a  b\nc\n");
    }

    #[test]
    fn blockquotes_are_marked_quoted_per_level() {
        let html = "new<blockquote>old<blockquote>older</blockquote>old again</blockquote>after";
        assert_eq!(to_text(html), "new\n> old\n> > older\n> old again\nafter\n");
    }

    #[test]
    fn gmail_quote_container_is_quoted() {
        let html = r#"<div dir="ltr">mine</div><div class="gmail_quote"><div class="gmail_attr">On Mon wrote:</div>theirs</div>"#;
        assert_eq!(to_text(html), "mine\n> On Mon wrote:\n> theirs\n");
    }

    #[test]
    fn hidden_elements_and_comments_vanish() {
        let html = "<html><head><title>t</title><style>p{x:1}</style></head><!-- c --><body>text<script>x<y</script></body></html>";
        assert_eq!(to_text(html), "text\n");
    }

    #[test]
    fn entities_decode() {
        assert_eq!(
            decode_entities("a&amp;b &lt;c&gt; &#8217;&#x2019; &nbsp;&bogus; & x"),
            "a&b <c> \u{2019}\u{2019} \u{a0}&bogus; & x"
        );
        assert_eq!(decode_entities("&amp"), "&");
    }

    #[test]
    fn malformed_html_does_not_fail() {
        for html in [
            "<",
            "<div",
            "</p></p>x",
            "<a href='x>y",
            "a < b",
            "<<>>",
            "<p class=>x</p>",
            "&#99999999;",
            "&#x;",
        ] {
            let _ = to_text(html);
        }
        assert_eq!(to_text("a < b"), "a < b\n");
        assert_eq!(to_text("</div>x"), "x\n");
    }

    #[test]
    fn hostile_html_takes_linear_time() {
        let n = 50_000;
        for html in [
            "<div>".repeat(n) + &"</p>".repeat(n),
            "<b".repeat(n),
            "<a x=".repeat(n),
            "<!".repeat(n),
            "<a x='".to_string() + &"<b y=".repeat(n),
            "<blockquote>".repeat(n) + "deep",
        ] {
            let start = std::time::Instant::now();
            let _ = to_text(&html);
            assert!(
                start.elapsed() < std::time::Duration::from_secs(2),
                "{:?}… took {:?}",
                &html[..20],
                start.elapsed()
            );
        }
        assert!(to_text(&("<blockquote>".repeat(1000) + "deep")).starts_with("> "));
    }

    #[test]
    fn unclosed_quote_stays_quoted_to_the_end() {
        assert_eq!(to_text("a<blockquote>b<div>c"), "a\n> b\n> c\n");
    }
}
