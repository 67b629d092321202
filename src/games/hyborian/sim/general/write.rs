//! Putting a general's decisions into the words of the order language
//! (docs/orders.md), the same text a player mails.

use glam::DVec2;

/// One unit's orders for the turn as the general means them: at most one
/// function per phase, and whole-turn orders (evade, spells, leaders').
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Sheet {
    pub phase1: Option<String>,
    pub phase2: Option<String>,
    pub turn: Vec<String>,
}

impl Sheet {
    /// Stand all turn (the written form of giving no orders).
    pub fn hold() -> Sheet {
        Sheet {
            turn: vec!["hold".into()],
            ..Sheet::default()
        }
    }

    pub fn phase1(what: String) -> Sheet {
        Sheet {
            phase1: Some(what),
            ..Sheet::default()
        }
    }

    pub fn both(first: String, second: String) -> Sheet {
        Sheet {
            phase1: Some(first),
            phase2: Some(second),
            turn: Vec::new(),
        }
    }

    pub fn also(mut self, whole_turn: &str) -> Sheet {
        self.turn.push(whole_turn.to_string());
        self
    }

    /// `"Black Dragons": phase 1 charge "Nemedian Knights" with breakthrough`.
    pub fn line(&self, name: &str) -> String {
        let mut clauses = Vec::new();
        if let Some(f) = &self.phase1 {
            clauses.push(format!("phase 1 {f}"));
        }
        if let Some(f) = &self.phase2 {
            clauses.push(format!("phase 2 {f}"));
        }
        // "hold" without a phase stands all turn: it cannot go with phase orders.
        let has_phase = !clauses.is_empty();
        clauses.extend(
            self.turn
                .iter()
                .filter(|t| !(has_phase && *t == "hold"))
                .cloned(),
        );
        if clauses.is_empty() {
            clauses.push("hold".into());
        }
        format!("{}: {}", quoted(name), clauses.join("; "))
    }
}

/// A unit's name in quotes, so words of the order language inside it
/// ("Men with Axes") are read as the name (docs/orders.md §2).
pub(super) fn quoted(name: &str) -> String {
    if name.contains('"') {
        format!("«{name}»")
    } else {
        format!("\"{name}\"")
    }
}

/// Inches to a tenth, as a player writes them: "6", "4.5".
pub(super) fn inches(x: f64) -> String {
    let tenths = (x * 10.0).floor() / 10.0;
    let s = format!("{tenths:.1}");
    s.strip_suffix(".0").map(String::from).unwrap_or(s)
}

/// A place on the table: "(12.5, 30)".
pub(super) fn place(p: DVec2) -> String {
    format!("({}, {})", inches(p.x), inches(p.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_a_player_writes_them() {
        let s = Sheet::both("face \"Knights\"".into(), "move 4.5".into()).also("evade if charged");
        assert_eq!(
            s.line("Skirmishers"),
            "\"Skirmishers\": phase 1 face \"Knights\"; phase 2 move 4.5; evade if charged"
        );
        assert_eq!(Sheet::default().line("A"), "\"A\": hold");
        assert_eq!(
            Sheet::hold().also("evade if charged").line("A"),
            "\"A\": hold; evade if charged"
        );
        assert_eq!(quoted("Say \"no\""), "«Say \"no\"»");
        // Distances round down, never past an allowance.
        assert_eq!(inches(5.99), "5.9");
        assert_eq!(inches(6.0), "6");
        assert_eq!(place(DVec2::new(3.25, 40.0)), "(3.2, 40)");
    }
}
