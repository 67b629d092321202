//! The exact text a player reads: confirmations and diagnostics.

use umpire::games::hyborian::orders::{check_side, confirmation, parse_sheet, read_sheet, sample};

#[test]
fn confirmation_text() {
    let table = sample::table();
    let text = "\
Black Dragons: phase 1 charge nemedian knights with breakthrough
bossonian: phase 1 move 8
Skirmishers
  phase 1 oblique left 30 4
  evade if charged
Border Horse: p1 charge #2 with breakthrough; p2 break off
Conna: join Black Dragons
Gunderman Pikes: phase 1 moev 5
";
    let checked = check_side(text, "aquilonia", &table);
    let got = confirmation(&checked, &table, "aquilonia", &[]);
    assert_eq!(got, EXPECTED);
}

const EXPECTED: &str = r#"Orders of aquilonia for turn 1, as the umpire understood them:
  Black Dragons: phase 1 charge Nemedian Knights with breakthrough
  Skirmishers: phase 1 move oblique left 30 4; evade if charged
  Border Horse: phase 1 charge Nemedian Spearmen with breakthrough; phase 2 break off

Refused (these units will stand):
  Bossonian Archers
  Gunderman Pikes

Errors (3):

error: Bossonian Archers may move at most 6 inches in line, not 8
 --> orders:2:20
  |
2 | bossonian: phase 1 move 8
  |                    ^^^^^^
  = note: §3: a unit may move up to, never beyond, its allowance
  = help: write 'move 6' or 'move full'

error: there is no unit called 'Conna'
 --> orders:7:1
  |
7 | Conna: join Black Dragons
  | ^^^^^
  = help: did you mean 'Conan'?

error: could not read the order at 'moev'
 --> orders:8:26
  |
8 | Gunderman Pikes: phase 1 moev 5
  |                          ^^^^
  = help: did you mean 'move'?

Notes (1):

note: Border Horse will charge, but medium cavalry never break through
 --> orders:6:18
  |
6 | Border Horse: p1 charge #2 with breakthrough; p2 break off
  |                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^
  = note: §2: medium cavalry may write breakthrough but can never break through (ruling O-4)

Without orders (these units will stand):
  Conan
  Priest of Mitra
  Prospero

3 units ordered, 2 refused, 3 without orders.
"#;

#[test]
fn message_diagnostics_text() {
    let text = "GAME tarantia SIDE aquilonia\nFORCE\nBlack Dragons: phase 1 face lft 90\n";
    // The envelope's errors (header, commands) and the sheet's, in the order of the text.
    let env = umpire::envelope::read(text);
    let sheet = read_sheet(&env.sheet);
    let mut all: Vec<(usize, String)> = env
        .diagnostics
        .iter()
        .map(|d| (d.span.start, d.render(text)))
        .collect();
    all.extend(
        sheet
            .syntax_errors
            .iter()
            .map(|d| (d.span.start, d.render(text))),
    );
    all.sort();
    let rendered: Vec<String> = all.into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        rendered.join("\n"),
        r#"error: the header lacks PASSWORD
 --> orders:1:1
  |
1 | GAME tarantia SIDE aquilonia
  | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  = help: write 'GAME <game> SIDE <side> PASSWORD <password>' on the first line

error: only the moderator may give this command
 --> orders:2:1
  |
2 | FORCE
  | ^^^^^
  = help: start the mail with 'MODERATOR <game> PASSWORD <password>'

error: could not read the order at 'lft'
 --> orders:3:29
  |
3 | Black Dragons: phase 1 face lft 90
  |                             ^^^
  = help: did you mean 'left'?
"#
    );
}

#[test]
fn missing_phase_text() {
    let text = "Black Dragons: charge Nemedian Knights";
    let (_, errors) = parse_sheet(text);
    assert_eq!(
        errors[0].render(text),
        r#"error: 'charge Nemedian Knights' does not say which phase it is for
 --> orders:1:16
  |
1 | Black Dragons: charge Nemedian Knights
  |                ^^^^^^^^^^^^^^^^^^^^^^^
  = note: §2: orders must say which function is in phase 1 and which in phase 2; a single function must still name its phase
  = help: write 'phase 1 charge Nemedian Knights' (or 'phase 2 …')
"#
    );
}

#[test]
fn words_after_an_order_are_pointed_at_not_read_as_a_new_order() {
    // Was: "'move toward the ford full' does not say which phase it is for".
    let text = "Aquilonian Foot: phase 1 move 4 towards the ford";
    let (sheet, errors) = parse_sheet(text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        sheet.blocks[0].node.broken,
        "the unit's orders are refused whole"
    );
    assert_eq!(
        errors[0].render(text),
        r#"error: could not read 'towards the ford' after the order 'phase 1 move 4'
 --> orders:1:33
  |
1 | Aquilonian Foot: phase 1 move 4 towards the ford
  |                                 ^^^^^^^^^^^^^^^^
  = note: after 'phase 1 move 4' the order language reads 'along the road', 'back', 'forward', 'oblique left|right DEGREES' or the end of the order; a ';' begins the next order
  = help: a move towards a place names it before the distance: 'move towards (x, y) 6' or 'move towards UNIT 6'; or write 'phase 1 move 4' alone
"#
    );
    // Other words that read as an order without its phase get the same
    // pointer, and a help that gives them one.
    let text = "Black Dragons: phase 1 face left 90 move 6";
    let (_, errors) = parse_sheet(text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let r = errors[0].render(text);
    assert!(
        r.starts_with("error: could not read 'move 6' after the order 'phase 1 face left 90'\n --> orders:1:37\n"),
        "{r}"
    );
    assert!(
        r.contains("= help: if 'move 6' is an order of its own, begin it with ';' and its phase: 'phase 1 face left 90; phase 2 move 6'"),
        "{r}"
    );
    // After a separator it is an order of its own, without its phase, as before.
    let text = "Black Dragons: phase 1 face left 90; move 6";
    let (_, errors) = parse_sheet(text);
    assert!(
        errors[0]
            .render(text)
            .starts_with("error: 'move 6' does not say which phase it is for"),
        "{}",
        errors[0].render(text)
    );
}
