//! The player's guide as players read it by mail: every rule set's guide is
//! Markdown (`docs/orders.md`, `docs/furor-barbarus/guide.md`,
//! `docs/fr-ancients/guide.md`) whose fenced examples carry labels the
//! tests read (```` ```orders nemedia refused ````). [`plain`] turns it into
//! plain text — headings underlined, examples indented without fences or
//! labels, tables as aligned columns, no `**`, `*` or backticks — and
//! [`topic`] answers `HELP topic` with one section, or with the list of
//! topics and a "did you mean".
//!
//! ```
//! use umpire::report::guide;
//! let md = "# Guide\n\n## 1. Moving\n\nWrite `move 6`:\n\n```orders far\nBD: phase 1 move 6\n```\n";
//! let text = guide::plain(md);
//! assert!(text.contains("    BD: phase 1 move 6"));
//! assert!(!text.contains("```") && !text.contains("far"));
//! assert!(guide::topic(md, "moving").unwrap().starts_with("1. Moving"));
//! ```

/// A section of the guide: its heading (without the `#`s) and its body.
struct Part<'a> {
    heading: &'a str,
    level: usize,
    body: Vec<&'a str>,
}

/// The guide's parts in order; text before the first `##` heading is the
/// introduction (level 1, under the `#` title).
fn parts(markdown: &str) -> Vec<Part<'_>> {
    let mut out: Vec<Part<'_>> = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let heading = (!fenced)
            .then(|| heading(line))
            .flatten()
            .filter(|(_, text)| !text.is_empty());
        match heading {
            Some((level, text)) => out.push(Part {
                heading: text,
                level,
                body: Vec::new(),
            }),
            None => match out.last_mut() {
                Some(p) => p.body.push(line),
                None => out.push(Part {
                    heading: "",
                    level: 1,
                    body: vec![line],
                }),
            },
        }
    }
    out
}

/// `## 4. Moving (§3)` → (2, "4. Moving (§3)"); a `#` followed by no space
/// (`#1: phase 1 move 6`) is no heading.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.chars().take_while(|c| *c == '#').count();
    if level == 0 || level > 6 {
        return None;
    }
    line[level..]
        .strip_prefix(' ')
        .map(|rest| (level, rest.trim()))
}

/// The whole guide as plain text.
pub fn plain(markdown: &str) -> String {
    let mut out = String::new();
    for part in parts(markdown) {
        render_part(&part, &mut out);
    }
    tidy(&out)
}

/// The whole guide as an HTML fragment (the HELP reply's HTML part): the
/// same parts as [`plain`], headings as headings, examples in `<pre>`
/// without fences or labels, every text escaped.
pub fn html(markdown: &str) -> String {
    let mut out = String::new();
    for part in parts(markdown) {
        html_part(&part, &mut out);
    }
    out
}

/// What the HTML writer has open between lines.
#[derive(PartialEq)]
enum Open {
    Nothing,
    Paragraph,
    List,
    Table,
}

fn close(open: &mut Open, out: &mut String) {
    out.push_str(match open {
        Open::Nothing => "",
        Open::Paragraph => "</p>\n",
        Open::List => "</li></ul>\n",
        Open::Table => "</table>\n",
    });
    *open = Open::Nothing;
}

fn html_part(part: &Part<'_>, out: &mut String) {
    use crate::report::esc;
    if !part.heading.is_empty() {
        let n = part.level.min(6);
        out.push_str(&format!("<h{n}>{}</h{n}>\n", esc(&inline(part.heading))));
    }
    let mut open = Open::Nothing;
    let mut fence: Option<usize> = None;
    for line in &part.body {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            if fence.is_some() {
                fence = None;
                out.push_str("</pre>\n");
            } else {
                close(&mut open, out);
                fence = Some(line.len() - trimmed.len());
                out.push_str("<pre>");
            }
            continue;
        }
        if let Some(at) = fence {
            out.push_str(&esc(line.get(at..).unwrap_or(trimmed).trim_end()));
            out.push('\n');
            continue;
        }
        if trimmed.is_empty() {
            close(&mut open, out);
        } else if trimmed.starts_with('|') {
            let cells: Vec<String> = trimmed
                .trim_matches('|')
                .split('|')
                .map(|c| inline(c.trim()))
                .collect();
            if cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                continue;
            }
            if open != Open::Table {
                close(&mut open, out);
                out.push_str("<table>\n");
                open = Open::Table;
            }
            out.push_str("<tr>");
            for c in cells {
                out.push_str(&format!("<td>{}</td>", esc(&c)));
            }
            out.push_str("</tr>\n");
        } else if let Some(item) = trimmed.strip_prefix("- ").or(trimmed.strip_prefix("* ")) {
            if open == Open::List {
                out.push_str("</li>\n<li>");
            } else {
                close(&mut open, out);
                out.push_str("<ul>\n<li>");
                open = Open::List;
            }
            out.push_str(&esc(&inline(item)));
        } else {
            match open {
                Open::Paragraph | Open::List => out.push(' '),
                _ => {
                    close(&mut open, out);
                    out.push_str("<p>");
                    open = Open::Paragraph;
                }
            }
            out.push_str(&esc(&inline(trimmed)));
        }
    }
    if fence.is_some() {
        out.push_str("</pre>\n");
    }
    close(&mut open, out);
}

fn render_part(part: &Part<'_>, out: &mut String) {
    if !part.heading.is_empty() {
        let text = inline(part.heading);
        let rule = if part.level == 1 { '=' } else { '-' };
        out.push_str(&text);
        out.push('\n');
        if part.level <= 2 {
            out.push_str(&rule.to_string().repeat(text.chars().count()));
            out.push('\n');
        }
    }
    let mut fence: Option<usize> = None;
    let mut table: Vec<Vec<String>> = Vec::new();
    for line in &part.body {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.starts_with("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(indent),
            };
            continue;
        }
        if let Some(at) = fence {
            let code = line.get(at..).unwrap_or(trimmed);
            if code.trim().is_empty() {
                out.push('\n');
            } else {
                out.push_str(&" ".repeat(at + 4));
                out.push_str(code.trim_end());
                out.push('\n');
            }
            continue;
        }
        if trimmed.starts_with('|') {
            let cells: Vec<String> = trimmed
                .trim_matches('|')
                .split('|')
                .map(|c| inline(c.trim()))
                .collect();
            if !cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                table.push(cells);
            }
            continue;
        }
        if !table.is_empty() {
            render_table(&std::mem::take(&mut table), out);
        }
        out.push_str(&inline(line));
        out.push('\n');
    }
    if !table.is_empty() {
        render_table(&table, out);
    }
}

/// A Markdown table as columns padded to their widest cell, the header
/// row underlined.
fn render_table(rows: &[Vec<String>], out: &mut String) {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let row_text = |row: &[String]| {
        let cells: Vec<String> = (0..columns)
            .map(|c| {
                let cell = row.get(c).map(String::as_str).unwrap_or("");
                format!("{cell:<width$}", width = widths[c])
            })
            .collect();
        format!("    {}\n", cells.join("  ").trim_end())
    };
    for (i, row) in rows.iter().enumerate() {
        out.push_str(&row_text(row));
        if i == 0 {
            let rules: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out.push_str(&row_text(&rules));
        }
    }
}

/// Inline Markdown to plain text: `**bold**`, `*emphasis*` and `` `code` ``
/// lose their marks, `[text](link)` keeps its text, `\<` its character.
fn inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let mut in_code = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            in_code = !in_code;
            i += 1;
            continue;
        }
        if in_code {
            out.push(c);
            i += 1;
            continue;
        }
        match c {
            '\\' if i + 1 < chars.len() && chars[i + 1].is_ascii_punctuation() => {
                out.push(chars[i + 1]);
                i += 2;
            }
            '*' if emphasis_mark(&chars, i) => i += 1,
            '[' => match link(&chars, i) {
                Some((text, next)) => {
                    out.push_str(&inline(&text));
                    i = next;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            },
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out.trim_end().to_string()
}

/// Whether the `*` at `i` marks emphasis (touches a word on one side and
/// not a space on both: `2 * 3` and a list's leading `* ` stay).
fn emphasis_mark(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|j| chars[j]);
    let after = chars.get(i + 1).copied();
    let word = |c: Option<char>| c.is_some_and(|c| !c.is_whitespace());
    let leading_bullet = chars[..i].iter().all(|c| c.is_whitespace()) && after == Some(' ');
    !leading_bullet && (word(before) || word(after))
}

/// `[text](target)` starting at `i`: the text and the index after it.
fn link(chars: &[char], i: usize) -> Option<(String, usize)> {
    let close = (i + 1..chars.len()).find(|&j| chars[j] == ']')?;
    if chars.get(close + 1) != Some(&'(') {
        return None;
    }
    let end = (close + 2..chars.len()).find(|&j| chars[j] == ')')?;
    Some((chars[i + 1..close].iter().collect(), end + 1))
}

/// At most one blank line in a row, none at the ends.
fn tidy(text: &str) -> String {
    let mut out = String::new();
    let mut blank = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            blank += 1;
            continue;
        }
        if blank > 0 && !out.is_empty() {
            out.push('\n');
        }
        blank = 0;
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The topics `HELP topic` knows: every `##` heading, as written.
pub fn topics(markdown: &str) -> Vec<String> {
    parts(markdown)
        .iter()
        .filter(|p| p.level == 2)
        .map(|p| inline(p.heading))
        .collect()
}

/// A topic's words without its number and section mark: "4. Moving (§3)"
/// → "moving".
fn topic_words(heading: &str) -> String {
    let no_mark: String = heading
        .split('(')
        .next()
        .unwrap_or(heading)
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ')
        .to_string();
    crate::names::key(&no_mark)
}

/// One section of the guide as plain text (with the sections under it),
/// found by its number ("4"), its name or a unique beginning of its name
/// ("mov"), or any word of it ("wizards").
///
/// # Errors
///
/// The text to send instead when no section (or more than one) fits: the
/// list of topics, and a "did you mean" when one name is close.
pub fn topic(markdown: &str, asked: &str) -> Result<String, String> {
    let (all, one) = section(markdown, asked)?;
    let mut out = String::new();
    render_part(&all[one], &mut out);
    for part in all[one + 1..].iter().take_while(|p| p.level > 2) {
        out.push('\n');
        render_part(part, &mut out);
    }
    Ok(tidy(&out))
}

/// One section of the guide as HTML, found as [`topic`] finds it; `None`
/// when no one section fits (the plain answer lists the topics).
pub fn topic_html(markdown: &str, asked: &str) -> Option<String> {
    let (all, one) = section(markdown, asked).ok()?;
    let mut out = String::new();
    html_part(&all[one], &mut out);
    for part in all[one + 1..].iter().take_while(|p| p.level > 2) {
        html_part(part, &mut out);
    }
    Some(out)
}

/// The guide's parts and the index of the one section `asked` names.
fn section<'a>(markdown: &'a str, asked: &str) -> Result<(Vec<Part<'a>>, usize), String> {
    let all = parts(markdown);
    let wanted = crate::names::key(asked);
    let tops: Vec<usize> = (0..all.len()).filter(|&i| all[i].level == 2).collect();
    let number = |i: usize| {
        all[i]
            .heading
            .split('.')
            .next()
            .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_string)
    };
    let fits = |test: &dyn Fn(usize) -> bool| -> Vec<usize> {
        tops.iter().copied().filter(|&i| test(i)).collect()
    };
    let mut found = fits(&|i| number(i).as_deref() == Some(asked.trim()));
    if found.is_empty() {
        found = fits(&|i| {
            topic_words(all[i].heading) == wanted
                || crate::names::key(&inline(all[i].heading)) == wanted
        });
    }
    if found.is_empty() && !wanted.is_empty() {
        found = fits(&|i| topic_words(all[i].heading).starts_with(&wanted));
    }
    if found.is_empty() && !wanted.is_empty() {
        found = fits(&|i| {
            inline(all[i].heading)
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| !w.is_empty() && crate::names::key(w).starts_with(&wanted))
        });
    }
    if let [one] = found[..] {
        return Ok((all, one));
    }
    let names = topics(markdown);
    let mut text = if asked.trim().is_empty() {
        String::new()
    } else if found.is_empty() {
        format!(
            "HELP {}: the guide has no section of that name.",
            asked.trim()
        )
    } else {
        format!("HELP {}: more than one section fits.", asked.trim())
    };
    let words: Vec<String> = tops.iter().map(|&i| topic_words(all[i].heading)).collect();
    if found.is_empty() {
        let candidates = words.iter().zip(&names).map(|(w, n)| (w.as_str(), n));
        if let Some(near) = crate::names::closest(&wanted, candidates) {
            text.push_str(&format!(" Did you mean '{near}'?"));
        }
    }
    text.push_str(
        "\n\nThe topics of the guide (mail HELP and a topic's number or name, e.g. HELP 2):\n\n",
    );
    for name in &names {
        text.push_str(&format!("  {name}\n"));
    }
    text.push_str("\nMail HELP alone for the whole guide.\n");
    Err(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GUIDES: [(&str, &str); 4] = [
        ("hyborian-age", include_str!("../../docs/orders.md")),
        (
            "furor-barbarus",
            include_str!("../../docs/furor-barbarus/guide.md"),
        ),
        (
            "fr-ancients",
            include_str!("../../docs/fr-ancients/guide.md"),
        ),
        ("mail commands", include_str!("../../docs/mail-commands.md")),
    ];

    #[test]
    fn the_html_guide_has_headings_lists_and_examples_escaped_without_fences_or_labels() {
        let md = "# Guide\n\nIntro <b>.\n\n## 1. Moving\n\n- one `a`\n- two\n\n```orders nemedia refused\nBD: move 6 & go\n```\n";
        let h = html(md);
        assert!(
            h.contains("<h1>Guide</h1>") && h.contains("<h2>1. Moving</h2>"),
            "{h}"
        );
        assert!(h.contains("<p>Intro &lt;b&gt;.</p>"), "{h}");
        assert!(h.contains("<ul>\n<li>one a</li>\n<li>two</li></ul>"), "{h}");
        assert!(h.contains("<pre>BD: move 6 &amp; go\n</pre>"), "{h}");
        assert!(!h.contains("```") && !h.contains("refused"), "{h}");
        let shipped = html(include_str!("../../docs/orders.md"));
        assert!(!shipped.contains("```") && shipped.contains("<h2>"));
    }

    #[test]
    fn no_guide_shows_markup_to_players() {
        for (name, md) in GUIDES {
            let text = plain(md);
            for mark in ["```", "**", "](", "|---"] {
                assert!(!text.contains(mark), "{name}: '{mark}' in\n{text}");
            }
            assert!(!text.contains("orders nemedia refused"), "{name}");
            assert!(!text.lines().any(|l| l.starts_with("## ")), "{name}");
            // Every example line of the Markdown is in the text, indented.
            let mut fenced = false;
            for line in md.lines() {
                if line.trim_start().starts_with("```") {
                    fenced = !fenced;
                } else if fenced && !line.trim().is_empty() {
                    let wanted = format!("    {}", line.trim());
                    assert!(
                        text.lines()
                            .any(|l| l.trim_end().ends_with(&wanted) && l.starts_with("    ")),
                        "{name}: example line '{line}' not indented in the text"
                    );
                }
            }
        }
    }

    #[test]
    fn the_hyborean_guide_reads_as_text() {
        let text = plain(GUIDES[0].1);
        assert!(text.starts_with("Writing orders — the player's guide\n====="));
        assert!(text.contains("1. The shape of a mail\n----------------------\n"));
        assert!(text.contains("    GAME tarantia SIDE aquilonia PASSWORD lion TURN 3\n"));
        // The table of spells as columns.
        assert!(
            text.contains("    spell           points  target\n"),
            "{text}"
        );
        assert!(text.contains("    Shield of Air   10      the wizard himself\n"));
        // `#1:` is an example, not a heading.
        assert!(text.contains("    #1: phase 1 move 6\n"));
    }

    #[test]
    fn a_topic_by_number_name_or_beginning() {
        let md = GUIDES[0].1;
        let by_number = topic(md, "11").unwrap();
        assert!(by_number.starts_with("11. Wizards (§10)\n"), "{by_number}");
        assert!(!by_number.contains("12. Deployment"));
        assert_eq!(topic(md, "wizards").unwrap(), by_number);
        assert_eq!(topic(md, "WIZ").unwrap(), by_number);
        // A section keeps its subsections.
        let whole = topic(md, "9").unwrap();
        assert!(whole.contains("Melee: expanding, contracting"), "{whole}");
        for (name, md) in GUIDES {
            for t in topics(md) {
                assert!(
                    topic(md, &t).is_ok(),
                    "{name}: topic '{t}' not found by name"
                );
            }
        }
        let furor = topic(GUIDES[1].1, "attacks").unwrap();
        assert!(
            furor.starts_with("Attacks (your combat phase)\n"),
            "{furor}"
        );
    }

    #[test]
    fn an_unknown_topic_lists_the_topics_and_suggests_one() {
        let md = GUIDES[0].1;
        let err = topic(md, "wizzards").unwrap_err();
        assert!(
            err.starts_with("HELP wizzards: the guide has no section of that name. Did you mean '11. Wizards (§10)'?"),
            "{err}"
        );
        assert!(err.contains("  4. Moving (§3)\n"), "{err}");
        assert!(err.contains("  14. Reading the umpire's answer\n"), "{err}");
        let nothing = topic(md, "zebra").unwrap_err();
        assert!(!nothing.contains("Did you mean"), "{nothing}");
        assert!(nothing.contains("  1. The shape of a mail\n"));
    }
}
