//! The base values the game master gives once for the game: a block
//! `VALUES` … `END VALUES` in his mail, one entry a line — a troop type (or
//! one unit) and its CF, Melee/Rally/Missile, movement allowance in the open
//! and in terrain, and natural charge bonus (M2):
//!
//! ```text
//! VALUES
//! Heavy Cavalry: CF 4; 3/4/0; move 8/4; charge 1
//! Roman Hastati 1: CF 5
//! END VALUES
//! ```
//!
//! [`read_values`] checks each line (a name the battle knows, each field
//! once, numbers within bounds) and quotes what it refuses; the [`Values`]
//! taken are kept in the game's state and [`Values::apply`]d to every unit's
//! profile before a phase is played, so each question shows them and the
//! engine and the desk settle what they settle. A later block replaces the
//! entries it names, whole.
//!
//! ```
//! use umpire::games::fr_ancients::desk::values::read_values;
//! use umpire::games::fr_ancients::troops::TroopType;
//! let text = "VALUES\nHeavy Cavalry: CF 4; 3/4/0; move 8/4\nEND VALUES\n1: pass\n";
//! let r = read_values(None, text);
//! assert!(r.diagnostics.is_empty());
//! let e = &r.values.by_type[&TroopType::HeavyCavalry];
//! assert_eq!((e.cf, e.movement), (Some(4), Some([8.0, 4.0])));
//! assert_eq!(r.rest.trim(), "1: pass", "the answers stay where they were");
//! let bad = read_values(None, "VALUES\nHeavy Cavalary: CF 40\nEND VALUES\n");
//! assert!(bad.diagnostics[0].help.as_deref().unwrap().contains("Heavy Cavalry"));
//! ```

use super::answer::GmKind;
use crate::diagnostic::{Diagnostic, Span};
use crate::games::fr_ancients::grades::Triple;
use crate::games::fr_ancients::table::{Battle, UnitId};
use crate::games::fr_ancients::troops::TroopType;
use pest::iterators::Pair;
use pest::Parser as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::answer::{GmParser, Rule};

/// The bounds a value may take: wide enough for any book, narrow enough to
/// catch a typing slip (`CF 40`).
const CF: (i32, i32) = (-5, 20);
const TRIPLE: (i32, i32) = (-5, 15);
const CHARGE: (i32, i32) = (0, 10);
/// The longest allowance, in the table's measure.
const MOVE: f64 = 60.0;

/// The values of one troop type or unit; a field not given is not known.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Entry {
    pub cf: Option<i32>,
    /// Melee/Rally/Missile before the grade's +1s.
    pub values: Option<Triple>,
    /// In the open, in terrain, in the table's measure.
    pub movement: Option<[f64; 2]>,
    pub charge_bonus: Option<i32>,
}

impl Entry {
    /// The entry as the game master would write it back.
    pub fn text(&self) -> String {
        let mut f = Vec::new();
        if let Some(cf) = self.cf {
            f.push(format!("CF {cf}"));
        }
        if let Some(t) = self.values {
            f.push(format!("{}/{}/{}", t.melee, t.rally, t.missile));
        }
        if let Some([o, t]) = self.movement {
            f.push(format!("move {o}/{t}"));
        }
        if let Some(c) = self.charge_bonus {
            f.push(format!("charge {c}"));
        }
        f.join("; ")
    }
}

/// The game master's values for the game: by troop type, and for single
/// units (which win over their type's).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Values {
    #[serde(default)]
    pub by_type: BTreeMap<TroopType, Entry>,
    #[serde(default)]
    pub by_unit: BTreeMap<UnitId, Entry>,
}

impl Values {
    pub fn is_empty(&self) -> bool {
        self.by_type.is_empty() && self.by_unit.is_empty()
    }

    /// Take a later block: each entry it names replaces the one before.
    pub fn merge(&mut self, later: &Values) {
        self.by_type
            .extend(later.by_type.iter().map(|(k, v)| (*k, *v)));
        self.by_unit
            .extend(later.by_unit.iter().map(|(k, v)| (k.clone(), *v)));
    }

    /// Fill every unit's profile: the unit's entry, then its type's, then
    /// what the scenario wrote on it. The game master's word is the latest
    /// about his book, so it wins over the scenario's.
    pub fn apply(&self, battle: &mut Battle) {
        if self.is_empty() {
            return;
        }
        for u in battle.units.values_mut() {
            let one = self.by_unit.get(&u.id).copied().unwrap_or_default();
            let kind = self.by_type.get(&u.troop).copied().unwrap_or_default();
            let p = &mut u.profile;
            p.cf = one.cf.or(kind.cf).or(p.cf);
            p.values = one.values.or(kind.values).or(p.values);
            p.movement = one.movement.or(kind.movement).or(p.movement);
            p.charge_bonus = one.charge_bonus.or(kind.charge_bonus).or(p.charge_bonus);
        }
    }

    /// One line an entry, for the confirmation and the game master's record.
    pub fn lines(&self, battle: Option<&Battle>) -> Vec<String> {
        let types = self
            .by_type
            .iter()
            .map(|(t, e)| format!("{}: {}", t.name(), e.text()));
        let units = self.by_unit.iter().map(|(u, e)| {
            let name = battle.map_or(u.clone(), |b| b.name(u));
            format!("{name}: {}", e.text())
        });
        types.chain(units).collect()
    }
}

/// What a mail's VALUES block gave, what was refused, and the mail's text
/// with the block blanked out (newlines kept, so spans still point into
/// the mail) for the answers.
#[derive(Debug, Clone)]
pub struct ValuesReading {
    pub values: Values,
    pub diagnostics: Vec<Diagnostic<GmKind>>,
    /// Whether the mail had a VALUES block.
    pub found: bool,
    pub rest: String,
    pub source: String,
}

impl ValuesReading {
    pub fn render(&self) -> String {
        crate::games::fr_ancients::render_all(&self.diagnostics, &self.source)
    }

    /// The lines taken, for the confirmation.
    pub fn understood(&self, battle: Option<&Battle>) -> Vec<String> {
        self.values
            .lines(battle)
            .into_iter()
            .map(|l| format!("values: {l}"))
            .collect()
    }
}

/// The lines of `text`, each with its start offset, without its line end.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n')
        .map(|raw| {
            let start = at;
            at += raw.len();
            (start, raw.trim_end_matches(['\n', '\r']))
        })
        .collect()
}

/// The line without quoting marks, leading blanks or a `#` comment, and
/// where it starts.
fn body(line: &str) -> (usize, &str) {
    let b = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
    let lead = line.len() - b.len();
    (lead, b.split('#').next().unwrap_or("").trim_end())
}

/// Read the VALUES blocks of a game master's mail. `battle`: the battle the
/// names are looked up in (`None`: troop types only).
pub fn read_values(battle: Option<&Battle>, text: &str) -> ValuesReading {
    let mut r = ValuesReading {
        values: Values::default(),
        diagnostics: Vec::new(),
        found: false,
        rest: String::with_capacity(text.len()),
        source: text.to_string(),
    };
    let mut open: Option<Span> = None;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (n, (start, line)) in lines(text).into_iter().enumerate() {
        let (lead, b) = body(line);
        let at = start + lead;
        let is = |rule| GmParser::parse(rule, b).is_ok();
        let in_block = open.is_some() || is(Rule::values_begin);
        if open.is_none() && is(Rule::values_begin) {
            r.found = true;
            open = Some(Span::new(at, at + b.len()));
        } else if open.is_some() && is(Rule::values_end) {
            open = None;
        } else if open.is_some() && !b.is_empty() {
            entry(battle, b, at, n + 1, &mut seen, &mut r);
        }
        let end = text[start..]
            .find('\n')
            .map_or(text.len(), |i| start + i + 1);
        if in_block {
            r.rest.extend(
                text[start..end]
                    .chars()
                    .map(|c| if c == '\n' { c } else { ' ' }),
            );
        } else {
            r.rest.push_str(&text[start..end]);
        }
    }
    if let Some(sp) = open {
        r.values = Values::default();
        // The missing end first: it is why the lines after it read as
        // entries and were refused.
        r.diagnostics.insert(
            0,
            Diagnostic::new(GmKind::Invalid, sp, "this VALUES block has no END VALUES")
                .with_note("without its end the umpire cannot tell the values from the answers, so none of them was taken")
                .with_help("write a line `END VALUES` after the block's last entry"),
        );
    }
    r
}

/// One entry line: parsed, its name found, its fields checked.
fn entry(
    battle: Option<&Battle>,
    b: &str,
    at: usize,
    line_no: usize,
    seen: &mut BTreeMap<String, usize>,
    r: &mut ValuesReading,
) {
    let whole = Span::new(at, at + b.len());
    let pair = match GmParser::parse(Rule::entry, b) {
        Ok(mut p) => p.next().expect("an entry"),
        Err(e) => {
            let col = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((p, _)) => p,
            };
            let sp = Span::new(at + col.min(b.len()), at + b.len());
            r.diagnostics.push(
                Diagnostic::new(GmKind::Invalid, if col == 0 || col >= b.len() { whole } else { sp }, "this line is not a VALUES entry I can read")
                    .with_note("an entry is `TROOP TYPE: FIELD; FIELD; …` (or a unit's name for one unit), its fields `CF N`, `MELEE/RALLY/MISSILE`, `move OPEN/TERRAIN`, `charge N`")
                    .with_help("for example `Heavy Cavalry: CF 4; 3/4/0; move 8/4; charge 1`"),
            );
            return;
        }
    };
    let mut inner = pair.into_inner();
    let name = inner.next().expect("a name");
    let name_span = Span::new(
        at + name.as_span().start(),
        at + name.as_span().start() + name.as_str().trim_end().len(),
    );
    let Some(target) = target_of(battle, name.as_str().trim()) else {
        let mut d = Diagnostic::new(
            GmKind::Inconsistent,
            name_span,
            format!(
                "'{}' is neither a troop type nor a unit of this battle",
                name.as_str().trim()
            ),
        )
        .with_note(
            "values are given for a troop type of the sheet (§1), or for one unit by its name",
        );
        if let Some(s) = suggest(battle, name.as_str()) {
            d = d.with_help(format!("did you mean '{s}'?"));
        }
        r.diagnostics.push(d);
        return;
    };
    let label = target.label(battle);
    if let Some(first) = seen.insert(label.clone(), line_no) {
        r.diagnostics.push(
            Diagnostic::new(GmKind::Inconsistent, name_span, format!("{label} already has values in this block, on line {first}"))
                .with_note("one entry a troop type or unit: a later VALUES block replaces an entry, but one block gives it once")
                .with_help("put every field of it on one line"),
        );
        return;
    }
    let mut e = Entry::default();
    let before = r.diagnostics.len();
    for f in inner {
        field(f, at, &mut e, &mut r.diagnostics);
    }
    if r.diagnostics.len() > before {
        return;
    }
    match target {
        Target::Type(t) => {
            r.values.by_type.insert(t, e);
        }
        Target::Unit(u) => {
            r.values.by_unit.insert(u, e);
        }
    }
}

/// What an entry gives values for.
enum Target {
    Type(TroopType),
    Unit(UnitId),
}

impl Target {
    fn label(&self, battle: Option<&Battle>) -> String {
        match self {
            Target::Type(t) => t.name().to_string(),
            Target::Unit(u) => battle.map_or(u.clone(), |b| b.name(u)),
        }
    }
}

fn target_of(battle: Option<&Battle>, name: &str) -> Option<Target> {
    if let Some(t) = TroopType::parse(name) {
        return Some(Target::Type(t));
    }
    let k = crate::names::key(name);
    battle?
        .units
        .values()
        .find(|u| crate::names::key(&u.name) == k || crate::names::key(&u.id) == k)
        .map(|u| Target::Unit(u.id.clone()))
}

fn suggest(battle: Option<&Battle>, name: &str) -> Option<String> {
    let units: Vec<&str> = battle.map_or(Vec::new(), |b| {
        b.units.values().map(|u| u.name.as_str()).collect()
    });
    crate::names::closest(
        name.trim(),
        TroopType::ALL
            .iter()
            .map(|t| t.name())
            .chain(units)
            .map(|n| (n, n)),
    )
    .map(str::to_string)
}

/// One field, checked: given once, within bounds.
fn field(f: Pair<Rule>, at: usize, e: &mut Entry, out: &mut Vec<Diagnostic<GmKind>>) {
    let rule = f.as_rule();
    if !matches!(
        rule,
        Rule::cf_f | Rule::triple_f | Rule::move_f | Rule::charge_f
    ) {
        return; // the end of the line
    }
    let sp = Span::new(at + f.as_span().start(), at + f.as_span().end());
    let nums: Vec<f64> = f
        .clone()
        .into_inner()
        .filter(|x| matches!(x.as_rule(), Rule::signed | Rule::decimal))
        .filter_map(|x| x.as_str().trim_start_matches('+').parse().ok())
        .collect();
    let ints: Vec<i32> = nums.iter().map(|v| *v as i32).collect();
    let (what, twice, bad) = match rule {
        Rule::cf_f => (
            "CF",
            e.cf.replace(ints[0]).is_some(),
            out_of("CF", &ints, CF),
        ),
        Rule::triple_f => (
            "Melee/Rally/Missile",
            e.values
                .replace(Triple {
                    melee: ints[0],
                    rally: ints[1],
                    missile: ints[2],
                })
                .is_some(),
            out_of("Melee/Rally/Missile", &ints, TRIPLE),
        ),
        Rule::move_f => (
            "the movement allowance",
            e.movement.replace([nums[0], nums[1]]).is_some(),
            moves(&nums),
        ),
        Rule::charge_f => (
            "the charge bonus",
            e.charge_bonus.replace(ints[0]).is_some(),
            out_of("a charge bonus", &ints, CHARGE),
        ),
        _ => return,
    };
    if twice {
        out.push(
            Diagnostic::new(
                GmKind::Inconsistent,
                sp,
                format!("{what} is given twice on this line"),
            )
            .with_help("keep the one you mean and delete the other"),
        );
    } else if let Some((why, fix)) = bad {
        out.push(Diagnostic::new(GmKind::Inconsistent, sp, why).with_help(fix));
    }
}

fn out_of(what: &str, v: &[i32], (lo, hi): (i32, i32)) -> Option<(String, String)> {
    let bad = v.iter().find(|x| !(lo..=hi).contains(*x))?;
    Some((
        format!("{bad} is out of bounds for {what}"),
        format!("{what} is {lo} to {hi}: check the base troop table (M2)"),
    ))
}

fn moves(v: &[f64]) -> Option<(String, String)> {
    let (open, terrain) = (v[0], v[1]);
    let mut why = String::new();
    if !(0.0..=MOVE).contains(&open) || open == 0.0 {
        let _ = write!(why, "an allowance in the open of {open} is out of bounds");
    } else if !(0.0..=MOVE).contains(&terrain) {
        let _ = write!(why, "an allowance in terrain of {terrain} is out of bounds");
    } else {
        return None;
    }
    Some((
        why,
        format!("`move OPEN/TERRAIN`: more than 0 and at most {MOVE} in the open, 0 to {MOVE} in terrain, in the table's measure"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fr_ancients::setup::test_battle;

    fn battle() -> Battle {
        test_battle(
            48.0,
            48.0,
            r#"
[[unit]]
id = "h"
side = "rome"
name = "Roman Hastati 1"
type = "Hand Weapons"
files = 4
ranks = 2
front = [24.0, 10.0]
facing = 0
[[unit]]
id = "n"
side = "carthage"
name = "Numidian Horse"
type = "Light Cavalry"
files = 4
ranks = 1
front = [24.0, 40.0]
facing = 180
"#,
        )
    }

    fn read(text: &str) -> ValuesReading {
        read_values(Some(&battle()), text)
    }

    #[test]
    fn good_lines_give_values_by_type_and_by_unit() {
        let r = read("VALUES\n# the club's book\nLight Cavalry: CF 2, 2/3/2, move 12/8, charge 1\nRoman Hastati 1: CF 5; move 4 / 2\n  > hand weapons: 4/5/0\nEND VALUES\n");
        assert!(r.diagnostics.is_empty(), "{}", r.render());
        assert!(r.found);
        let lc = r.values.by_type[&TroopType::LightCavalry];
        assert_eq!(lc.cf, Some(2));
        assert_eq!(
            lc.values,
            Some(Triple {
                melee: 2,
                rally: 3,
                missile: 2
            })
        );
        assert_eq!(lc.movement, Some([12.0, 8.0]));
        assert_eq!(lc.charge_bonus, Some(1));
        assert_eq!(r.values.by_unit["h"].cf, Some(5));
        assert_eq!(
            r.values.by_type[&TroopType::HandWeapons]
                .values
                .unwrap()
                .rally,
            5
        );
        assert_eq!(
            r.understood(Some(&battle())),
            [
                "values: Hand Weapons: 4/5/0",
                "values: Light Cavalry: CF 2; 2/3/2; move 12/8; charge 1",
                "values: Roman Hastati 1: CF 5; move 4/2",
            ]
        );
    }

    #[test]
    fn the_unit_entry_wins_over_its_type_and_a_later_block_replaces_an_entry() {
        let mut b = battle();
        let mut v = read(
            "VALUES\nHand Weapons: CF 4; 4/5/0; move 4/2\nRoman Hastati 1: CF 6\nEND VALUES\n",
        )
        .values;
        v.apply(&mut b);
        let p = b.units["h"].profile;
        assert_eq!((p.cf, p.movement), (Some(6), Some([4.0, 2.0])));
        assert_eq!(b.units["n"].profile.cf, None, "no values for Light Cavalry");
        v.merge(&read("VALUES\nHand Weapons: move 5/3\nEND VALUES\n").values);
        let hw = v.by_type[&TroopType::HandWeapons];
        assert_eq!(
            (hw.cf, hw.movement),
            (None, Some([5.0, 3.0])),
            "replaced whole"
        );
        assert_eq!(v.by_unit["h"].cf, Some(6), "entries not named stay");
    }

    /// The diagnostic's message, and the text its span covers.
    fn refused(text: &str) -> Vec<(String, String)> {
        let r = read(text);
        assert!(r.values.is_empty() || !r.diagnostics.is_empty());
        r.diagnostics
            .iter()
            .map(|d| {
                (
                    d.message.clone(),
                    text[d.span.start..d.span.end].to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn bad_lines_are_refused_with_where_and_why() {
        let d = refused("VALUES\nHeavy Cavalary: CF 4\nEND VALUES\n");
        assert_eq!(d[0].1, "Heavy Cavalary");
        let r = read("VALUES\nHeavy Cavalary: CF 4\nEND VALUES\n");
        assert_eq!(
            r.diagnostics[0].help.as_deref(),
            Some("did you mean 'Heavy Cavalry'?")
        );
        assert_eq!(
            refused("VALUES\nSpears: CF 40\nEND VALUES\n"),
            [(
                "40 is out of bounds for CF".to_string(),
                "CF 40".to_string()
            )]
        );
        assert_eq!(
            refused("VALUES\nSpears: CF 4; CF 5\nEND VALUES\n")[0].0,
            "CF is given twice on this line"
        );
        assert_eq!(
            refused("VALUES\nSpears: move 0/2\nEND VALUES\n")[0].1,
            "move 0/2"
        );
        assert_eq!(
            refused("VALUES\nSpears: 4/5\nEND VALUES\n")[0].0,
            "this line is not a VALUES entry I can read"
        );
        assert_eq!(
            refused("VALUES\nSpears CF 4\nEND VALUES\n")[0].1,
            "Spears CF 4"
        );
        let twice = refused("VALUES\nSpears: CF 4\nspear: CF 5\nEND VALUES\n");
        assert_eq!(
            twice[0].0,
            "Spears already has values in this block, on line 2"
        );
        let open = read("VALUES\nSpears: CF 4\n1: pass\n");
        assert_eq!(
            open.diagnostics[0].message,
            "this VALUES block has no END VALUES"
        );
        assert!(open.values.is_empty(), "none taken");
        let shown = read("VALUES\nSpears: CF 40\nEND VALUES\n").render();
        assert!(
            shown.contains("Spears: CF 40") && shown.contains('^'),
            "{shown}"
        );
    }

    #[test]
    fn a_mail_without_values_is_left_as_it_is() {
        let r = read("1: pass\n2: no effect\n");
        assert!(!r.found && r.values.is_empty() && r.diagnostics.is_empty());
        assert_eq!(r.rest, "1: pass\n2: no effect\n");
    }
}
