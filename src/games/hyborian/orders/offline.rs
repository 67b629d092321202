//! The offline checker (`umpire orders check`), like Eressea's echeck:
//! the confirmation a player would get, without sending anything.

use super::{confirmation, read_message, validate, Role};
use crate::games::hyborian::table::Table;

/// Check `text` (a whole orders mail or just the unit lines) for `side`
/// (or the header's SIDE) against `table`. Returns the confirmation and
/// whether every order was accepted.
pub fn offline_check(text: &str, side: Option<&str>, table: &Table) -> (String, bool) {
    let sub = read_message(text);
    let header_side = sub.header.as_ref().and_then(|h| match &h.node.role {
        Role::Player { side } => Some(side.clone()),
        Role::Moderator => None,
    });
    let Some(side) = side.map(str::to_string).or(header_side) else {
        let sides: Vec<String> = table.sides().into_iter().collect();
        return (
            format!(
                "Whose orders are these? Give --side (one of: {}) or start the file with a GAME … SIDE … PASSWORD … line.\n",
                sides.join(", ")
            ),
            false,
        );
    };
    let mut checked = validate(&sub.sheet, &side, table);
    for d in &sub.syntax_errors {
        if !checked.diagnostics.iter().any(|c| c.span == d.span) {
            checked.diagnostics.push(d.clone());
        }
    }
    checked.diagnostics.sort_by_key(|d| d.span.start);
    let ok = checked.rejected.is_empty() && !checked.diagnostics.iter().any(|d| d.is_error());
    (confirmation(&checked, table, &side), ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_the_side_and_errors_fail_the_check() {
        let table = crate::games::hyborian::orders::sample::table();
        let (text, ok) = offline_check("GAME g SIDE aquilonia PASSWORD p\nBlack Dragons: phase 1 move 6\nEND\n", None, &table);
        assert!(ok, "{text}");
        assert!(text.contains("Black Dragons: phase 1 move 6"));
        let (text, ok) = offline_check("Black Dragns: phase 1 move 6\n", Some("aquilonia"), &table);
        assert!(!ok);
        assert!(text.contains("Black Dragons"), "suggests the name: {text}");
        let (text, ok) = offline_check("Black Dragons: phase 1 move 6\n", None, &table);
        assert!(!ok && text.contains("--side"));
    }
}
