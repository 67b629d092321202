use super::*;
use crate::games::hyborian::orders::grammar::is_plain_name;

fn one(text: &str) -> (OrderSheet, Vec<Diagnostic>) {
    let s = scan(text);
    let e = s.syntax_errors.clone();
    (s, e)
}

fn canon(text: &str) -> String {
    let (sheet, errors) = one(text);
    assert!(errors.is_empty(), "{text}: {errors:#?}");
    sheet.to_string().trim_end().to_string()
}

#[test]
fn the_case_file_line() {
    assert_eq!(
        canon("Regular Spearmen: phase 1 move full"),
        "Regular Spearmen: phase 1 move full"
    );
}

#[test]
fn forgiving_phrasings() {
    let cases = [
        (
            "Black Dragons: p1 advance 6\"; p2 turn left 45",
            "Black Dragons: phase 1 move 6; phase 2 face left 45",
        ),
        (
            "black dragons phase one move 6 inches, phase two face about",
            "black dragons: phase 1 move 6; phase 2 face about",
        ),
        (
            "#3: first phase charge Nemedian Knights with breakthrough",
            "#3: phase 1 charge Nemedian Knights with breakthrough",
        ),
        (
            "unit 3: phase 1 wheel left 30 then move 6",
            "#3: phase 1 wheel left 30 then move 6",
        ),
        (
            "A: phase 1 wheel left 30 then 6",
            "A: phase 1 wheel left 30 then move 6",
        ),
        (
            "A: phase 1 wheel left 30 then oblique right 20 4",
            "A: phase 1 wheel left 30 then move oblique right 20 4",
        ),
        (
            "Horse: phase 1 wheel right to face Black Dragons then move full",
            "Horse: phase 1 wheel right to face Black Dragons then move full",
        ),
        ("Foot: phase 1 move back 2", "Foot: phase 1 move back 2"),
        ("Foot: phase 1 fall back 2\"", "Foot: phase 1 move back 2"),
        (
            "Foot: phase 1 oblique left 30 6",
            "Foot: phase 1 move oblique left 30 6",
        ),
        (
            "Foot: phase 1 move obliquely right 4",
            "Foot: phase 1 move oblique right 45 4",
        ),
        (
            "Foot: phase 1 move toward (40, 30) 6",
            "Foot: phase 1 move toward (40, 30) 6",
        ),
        (
            "Foot: phase 1 move towards Black Dragons",
            "Foot: phase 1 move toward Black Dragons full",
        ),
        (
            "Foot: phase 1 form road column; phase 2 forced march along the road",
            "Foot: phase 1 form road column; phase 2 forced march full along the road",
        ),
        (
            "Foot: phase 1 move full along the road",
            "Foot: phase 1 move full along the road",
        ),
        ("Foot: phase 1 face 270", "Foot: phase 1 face bearing 270"),
        ("Foot: phase 1 face west", "Foot: phase 1 face bearing 270"),
        (
            "Foot: phase 1 face Black Dragons",
            "Foot: phase 1 face toward Black Dragons",
        ),
        (
            "Foot: phase 1 form line 3 ranks; phase 2 form column 4 wide",
            "Foot: phase 1 form line 3 ranks; phase 2 form column 4 wide",
        ),
        ("Foot: phase 1 form a ring", "Foot: phase 1 form ring"),
        (
            "Foot: phase 1 form positional line",
            "Foot: phase 1 form positional line",
        ),
        (
            "Horse: phase 1 face about and form column 3 wide",
            "Horse: phase 1 face about and form column 3 wide",
        ),
        (
            "Horse: phase 1 charge Knights then break off",
            "Horse: phase 1 charge Knights then break off",
        ),
        (
            "Horse: phase 1 charge Knights and fall back after one round",
            "Horse: phase 1 charge Knights then break off",
        ),
        (
            "Horse: phase 1 charge 90; phase 2 hold",
            "Horse: phase 1 charge bearing 90; phase 2 hold",
        ),
        (
            "Horse: phase 1 charge forward",
            "Horse: phase 1 charge forward",
        ),
        (
            "Skirmishers: evade if charged; hold fire",
            "Skirmishers: evade if charged; hold fire",
        ),
        (
            "Archers: phase 1 hold; shoot at Black Dragons",
            "Archers: phase 1 hold; target Black Dragons",
        ),
        ("Conan: join Black Dragons", "Conan: join Black Dragons"),
        (
            "King: ride with Black Dragons",
            "King: ride with Black Dragons",
        ),
        (
            "Conan: leave; move to (10, 12)",
            "Conan: leave; move to (10, 12)",
        ),
        (
            "Thoth: cast the Sword of Fire at Black Dragons",
            "Thoth: cast Sword of Fire at Black Dragons",
        ),
        (
            "Thoth: cast earth shaker along (10,20) to (34,20)",
            "Thoth: cast Earth-Shaker along (10, 20) to (34, 20)",
        ),
        ("Thoth: cast shield of air", "Thoth: cast Shield of Air"),
        (
            "Archers: save the volley for phase 2",
            "Archers: fire in phase 2",
        ),
        ("Archers: shoot in second phase", "Archers: fire in phase 2"),
        ("Archers: phase 2 fire", "Archers: fire in phase 2"),
        (
            "Foot: deploy at (30, 6) facing 0 in line 3 ranks",
            "Foot: deploy at (30, 6) facing 0 in line 3 ranks",
        ),
        ("Foot: phase 1 stand fast", "Foot: phase 1 hold"),
        ("Foot: phase 1 move 4 forward", "Foot: phase 1 move 4"),
        ("Foot: phase 1 turn 90 right", "Foot: phase 1 face right 90"),
        (
            "Horse: phase 1 charge Knights (with breakthrough)",
            "Horse: phase 1 charge Knights with breakthrough",
        ),
        (
            "Horse: phase 1 move 12 then shoot; phase 2 move 6",
            "Horse: phase 1 move 12; fire; phase 2 move 6",
        ),
        ("Foot: phase 1 stand and shoot", "Foot: phase 1 hold; fire"),
        (
            "1. Black Dragons: phase 1 move 6",
            "Black Dragons: phase 1 move 6",
        ),
        (
            "- Black Dragons: phase 1 move 6",
            "Black Dragons: phase 1 move 6",
        ),
        (
            "“Black Dragons”: phase 1 move 6",
            "Black Dragons: phase 1 move 6",
        ),
        (
            "Foot:\u{a0}phase\t1 move 6 // comment",
            "Foot: phase 1 move 6",
        ),
        ("Hold Guard: phase 1 hold", "Hold Guard: phase 1 hold"),
        ("Men at Arms: phase 1 hold", "\"Men at Arms\": phase 1 hold"),
        ("Black Dragons p1: move 6", "Black Dragons: phase 1 move 6"),
        (
            "Black Dragons first phase: move 6",
            "Black Dragons: phase 1 move 6",
        ),
        ("Pikes: hold", "Pikes: hold"),
        (
            "Skirmishers: phase 1 evade if charged",
            "Skirmishers: evade if charged",
        ),
        (
            "Knights: phase 1 charge the Spearmen",
            "Knights: phase 1 charge the Spearmen",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(canon(text), want, "reading {text:?}");
    }
}

#[test]
fn block_form() {
    let text = "Black Dragons\r\n  phase 1: move 6\r\n  phase 2: face left 90\r\n\r\nArchers\n1: hold\n2. move 4\n";
    assert_eq!(
        canon(text),
        "Black Dragons: phase 1 move 6; phase 2 face left 90\nArchers: phase 1 hold; phase 2 move 4"
    );
}

#[test]
fn a_broken_line_keeps_the_others() {
    let (sheet, errors) = one("A: phase 1 move 6\nB: phase 1 moev 6\nC: phase 2 hold\n");
    assert_eq!(sheet.blocks.len(), 3);
    assert!(!sheet.blocks[0].node.broken);
    assert!(sheet.blocks[1].node.broken);
    assert!(!sheet.blocks[2].node.broken);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].help.as_deref(), Some("did you mean 'move'?"));
}

#[test]
fn reading_stops_after_the_line_limit() {
    let text = "A: phase 1 hold\n".repeat(MAX_LINES + 5);
    let (sheet, errors) = one(&text);
    assert_eq!(sheet.blocks.len(), MAX_LINES);
    assert_eq!(errors.len(), 1);
}

#[test]
fn missing_phase_is_reported() {
    let (sheet, errors) = one("Archers: move 6");
    assert!(sheet.blocks[0].node.broken);
    assert_eq!(
        errors[0].kind,
        crate::games::hyborian::orders::diagnostic::Kind::Invalid(Invalid::MissingPhase)
    );
}

#[test]
fn end_marker_stops_reading() {
    // END is the envelope's: the sheet it leaves stops there.
    let (sheet, _) =
        crate::games::hyborian::orders::parse_sheet("A: phase 1 hold\nEND\nB: phase 1 hold\n");
    assert_eq!(sheet.blocks.len(), 1);
    let (sheet, errors) = one("A: phase 1 hold\n-- \nMy Name, Tarantia\n");
    assert_eq!((sheet.blocks.len(), errors.len()), (1, 0));
}

/// The fast path reads a line exactly as the full grammar does.
#[test]
fn fast_path_agrees_with_the_grammar() {
    let guide = include_str!("../../../../../docs/orders.md");
    let mut lines: Vec<String> = guide.lines().map(String::from).collect();
    let words = [
        "Hold", "Face", "Charge", "Phase", "P1", "Evade", "End", "Game", "Status", "Turn", "Men",
        "1.",
    ];
    for w in words {
        for tail in [
            ": phase 1 hold",
            " fire phase 1 move 6",
            " left 90",
            ": move 6",
            " Guard: p2 face about",
        ] {
            lines.push(format!("{w}{tail}"));
        }
    }
    // And many near misses of them: words dropped, swapped and repeated.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let base: Vec<Vec<String>> = lines
        .iter()
        .map(|l| l.split(' ').map(String::from).collect())
        .collect();
    for _ in 0..20_000 {
        let mut w = base[rng.random_range(0..base.len())].clone();
        for _ in 0..rng.random_range(1..4) {
            let i = rng.random_range(0..w.len());
            let j = rng.random_range(0..w.len());
            match rng.random_range(0..3) {
                0 if w.len() > 1 => {
                    w.remove(i);
                }
                1 => w.swap(i, j),
                _ => {
                    let x = w[j].clone();
                    w.insert(i, x);
                }
            }
        }
        lines.push(w.join(" "));
    }
    for line in &lines {
        let line = strip_comment(line);
        if line.len() > MAX_LINE {
            continue;
        }
        let fast = if starts_with_keyword(line) {
            None
        } else {
            OrdersParser::parse(Rule::unit_line_only, line).ok()
        };
        let Some(fast) = fast else { continue };
        let full = OrdersParser::parse(Rule::line, line)
            .expect("the full grammar reads what the fast path read");
        let shape = |pairs: pest::iterators::Pairs<Rule>| -> Vec<(Rule, String)> {
            pairs
                .flatten()
                .filter(|p| !matches!(p.as_rule(), Rule::line | Rule::unit_line_only))
                .map(|p| (p.as_rule(), p.as_str().to_string()))
                .collect()
        };
        assert_eq!(shape(fast), shape(full), "{line}");
    }
}

#[test]
fn plain_names() {
    assert!(is_plain_name("Black Dragons"));
    assert!(!is_plain_name("Forward Guard"));
    assert!(!is_plain_name("Men with Axes"));
}
