//! The situation the game master reads: the questions of a phase that wait
//! for him — of one part, or of several whose questions do not wait on each
//! other's answers, grouped by part — numbered, each with what the sheet
//! fixes and the dice rolled.

use crate::games::fr_ancients::part::Part;
use crate::games::fr_ancients::questions::{
    rolls_text, Ask, Fighter, Modifier, MoveKind, Question, Test,
};
use crate::games::fr_ancients::table::{Battle, Place};
use std::fmt::Write as _;

/// The questions waiting for the game master, and their text.
#[derive(Debug, Clone, PartialEq)]
pub struct Situation {
    pub game: Option<String>,
    pub turn: u32,
    pub phase: u8,
    pub phasing: String,
    /// The part of the first question.
    pub part: Part,
    /// Numbered from 1 in this order.
    pub questions: Vec<Question>,
    /// The mail's body.
    pub text: String,
}

fn mods(ms: &[Modifier]) -> String {
    if ms.is_empty() {
        return "none".into();
    }
    ms.iter()
        .map(|m| {
            if m.value == 0 {
                m.why.clone()
            } else {
                m.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn known(v: Option<i32>) -> String {
    v.map_or(
        "not known (the base troop table, M2: send it once with VALUES)".into(),
        |v| v.to_string(),
    )
}

impl Situation {
    /// Number and write the questions of `part`.
    pub fn new(
        battle: &Battle,
        part: Part,
        questions: Vec<Question>,
        game: Option<&str>,
    ) -> Situation {
        let mut s = Situation {
            game: game.map(str::to_string),
            turn: battle.turn,
            phase: battle.phase,
            phasing: battle.phasing().clone(),
            part,
            questions,
            text: String::new(),
        };
        s.text = s.write(battle);
        s
    }

    /// The parts the questions come from, in the order of play.
    pub fn parts(&self) -> Vec<Part> {
        let mut parts: Vec<Part> = self.questions.iter().map(|q| q.part).collect();
        parts.sort();
        parts.dedup();
        parts
    }

    fn write(&self, b: &Battle) -> String {
        let mut out = String::new();
        let game = self
            .game
            .as_ref()
            .map(|g| format!("game {g}, "))
            .unwrap_or_default();
        let parts = self.parts();
        let named = |p: &Part| format!("{} (part {})", p.heading(), p.code());
        let which = match parts.as_slice() {
            [.., last] if parts.len() > 1 => format!("{} to {}", named(&parts[0]), named(last)),
            _ => named(&self.part),
        };
        let _ = writeln!(
            out,
            "FR! Ancients: {game}turn {}, phase {} ({}'s phase), {which}",
            self.turn, self.phase, self.phasing,
        );
        let _ = writeln!(out, "The sheet leaves these to the base rules. The umpire rolled the dice below; check them with the seed it publishes.");
        let _ = writeln!(out, "Answer each question on a line of its own, `NUMBER: ANSWER` (docs/fr-ancients/gm.md).\n");
        let _ = writeln!(out, "Units in contact:");
        let mut any = false;
        for u in b.present() {
            for (e, face) in b.contacts(u) {
                if e > u.id {
                    continue;
                }
                any = true;
                let _ = writeln!(
                    out,
                    "  - {} ({}) touches the {} of {} ({})",
                    b.name(&e),
                    b.units[&e].side,
                    face,
                    u.name,
                    u.side
                );
            }
        }
        if !any {
            let _ = writeln!(out, "  none");
        }
        out.push('\n');
        let mut heading = None;
        for (i, q) in self.questions.iter().enumerate() {
            let n = i + 1;
            if parts.len() > 1 && heading != Some(q.part) {
                heading = Some(q.part);
                let _ = writeln!(out, "{}:\n", named(&q.part));
            }
            let _ = writeln!(out, "{n}. {}", self.question(b, n, q).trim_end());
            out.push('\n');
        }
        let _ = writeln!(out, "Reply with one line for each question:");
        for n in 1..=self.questions.len() {
            let _ = writeln!(out, "{n}: ");
        }
        out
    }

    fn question(&self, b: &Battle, n: usize, q: &Question) -> String {
        let name = |id: &str| b.name(id);
        let show = |d: f64| b.scale.show(d);
        let place = |p: &Place| p.show();
        let mut out = String::new();
        match &q.ask {
            Ask::Test {
                unit,
                test,
                rally,
                modifiers,
                roll,
            } => {
                let _ = writeln!(out, "{}: {} [{}]", name(unit), test.describe().1, q.key);
                let _ = writeln!(out, "   Rally: {}", known(*rally));
                let _ = writeln!(out, "   The sheet's modifiers: {}", mods(modifiers));
                let _ = writeln!(out, "   Dice: {roll}");
                if *test == Test::Fear {
                    let _ = writeln!(out, "   Answer: `{n}: pass` or `{n}: fail, D dmz` (what failing costs is a base rule, M9)");
                } else {
                    let _ = writeln!(out, "   Answer: `{n}: pass` or `{n}: fail`");
                }
            }
            Ask::Escape { character, roll } => {
                let c = b
                    .characters
                    .get(character)
                    .map_or(character.clone(), |c| c.name.clone());
                let _ = writeln!(out, "{c}, a prisoner, tries to escape (step 3) [{}]", q.key);
                let _ = writeln!(out, "   Dice: {roll}");
                let _ = writeln!(out, "   Answer: `{n}: pass` (escapes) or `{n}: fail`");
            }
            Ask::Judge {
                unit,
                judgement,
                facts,
            } => {
                let _ = writeln!(out, "{}: {} [{}]", name(unit), judgement.describe(), q.key);
                for f in facts {
                    let _ = writeln!(out, "   - {f}");
                }
                let _ = writeln!(out, "   Answer: `{n}: yes` or `{n}: no`");
            }
            Ask::Fire {
                firers,
                target,
                weapon,
                line,
                missile,
                modifiers,
                elite,
                cover,
                pavisiers,
                damage,
                rolls,
            } => {
                let who = firers
                    .iter()
                    .map(|f| name(f))
                    .collect::<Vec<_>>()
                    .join(" and ");
                let d = b
                    .units
                    .get(&firers[0])
                    .zip(b.units.get(target))
                    .map(|(f, t)| b.distance(f, t))
                    .unwrap_or(0.0);
                let table = if *damage {
                    "the damage roll".to_string()
                } else {
                    format!("the Bowfire line for {line} unit(s)")
                };
                let _ = writeln!(
                    out,
                    "{who} shoot {weapon} at {} ({} away), on {table} [{}]",
                    name(target),
                    show(d),
                    q.key
                );
                let _ = writeln!(out, "   Missile: {}", known(*missile));
                let _ = writeln!(out, "   The sheet's modifiers: {}", mods(modifiers));
                if !cover.is_empty() || *pavisiers {
                    let mut c = cover.clone();
                    if *pavisiers {
                        c.push("pavisiers: a -1 cover bonus, not -2 (rule 14)".into());
                    }
                    let _ = writeln!(out, "   Target in cover: {}", c.join("; "));
                }
                if *elite {
                    let _ = writeln!(out, "   Elite: +1 to the roll, to a maximum of 10 (§3)");
                }
                let _ = writeln!(out, "   Dice: {}", rolls_text(rolls));
                let _ = writeln!(
                    out,
                    "   Answer: `{n}: no effect`, `{n}: D dmz` or `{n}: destroyed`"
                );
            }
            Ask::Melee { fighters } => {
                let who = fighters
                    .iter()
                    .map(|f| format!("{} ({})", name(&f.unit), f.side))
                    .collect::<Vec<_>>()
                    .join(", ");
                let _ = writeln!(out, "Melee of {who} [{}]", q.key);
                for f in fighters {
                    let _ = writeln!(out, "   - {}", self.fighter(b, f));
                }
                let _ = writeln!(out, "   Answer: `{n}: SIDE wins; UNIT D dmz; …` or `{n}: draw`, adding `UNIT destroyed`, `UNIT wraps to the flank|rear of UNIT` and `UNIT follows up` as the base rules say");
            }
            Ask::Move {
                unit,
                kind,
                from,
                to,
                distance,
                turn,
                in_terrain,
                allowance,
                free_change,
            } => {
                let ground = if *in_terrain {
                    "in terrain"
                } else {
                    "in the open"
                };
                let _ = writeln!(
                    out,
                    "{} {}: from {} to {} [{}]",
                    name(unit),
                    kind.word(),
                    place(from),
                    place(to),
                    q.key
                );
                let _ = writeln!(
                    out,
                    "   {} and a turn of {turn:.0}°, {ground}; allowance {}",
                    show(*distance),
                    allowance.map_or("not known (M2, M4: send it once with VALUES)".into(), show)
                );
                if *free_change {
                    let _ = writeln!(out, "   Roman Battle Drill: one facing change or rank change at no movement penalty (§5 Maneuverability)");
                }
                match kind {
                    MoveKind::Retreat { .. } => {
                        let _ = writeln!(out, "   The umpire proposes one base depth straight away (the distance is a base rule, M8).");
                        let _ = writeln!(out, "   Answer: `{n}: ok`, `{n}: stops at X, Y [facing B]`, `{n}: destroyed` (a blocked retreat) or `{n}: off table`");
                    }
                    _ => {
                        let _ = writeln!(out, "   Answer: `{n}: ok` (it gets there) or `{n}: stops at X, Y [facing B]`");
                    }
                }
            }
            Ask::Distance {
                unit,
                bearing,
                kind,
            } => {
                let _ = writeln!(out, "{} makes a full move ({}) on bearing {bearing:.0}: how far is its full allowance (M2)? [{}]", name(unit), kind.word(), q.key);
                let _ = writeln!(out, "   Answer: `{n}: moves D`");
            }
            Ask::Challenge {
                challenger,
                challenged,
                rolls,
            } => {
                let c = |id: &str| {
                    b.characters.get(id).map_or(id.to_string(), |c| {
                        format!("{} ({}, {:+} Melee)", c.name, c.rank, c.rank.bonus().melee)
                    })
                };
                let _ = writeln!(
                    out,
                    "Challenge: {} against {} [{}]",
                    c(challenger),
                    c(challenged),
                    q.key
                );
                let _ = writeln!(out, "   Dice: {}", rolls_text(rolls));
                let _ = writeln!(
                    out,
                    "   Answer: `{n}: NAME wins; NAME killed` (or captured, unhurt) or `{n}: draw`"
                );
            }
            Ask::Fate { character, unit } => {
                let c = b
                    .characters
                    .get(character)
                    .map_or(character.clone(), |c| format!("{} {}", c.rank, c.name));
                let _ = writeln!(out, "{c} was with {}, which is destroyed: what becomes of the character (M11)? [{}]", name(unit), q.key);
                let _ = writeln!(
                    out,
                    "   Answer: `{n}: killed`, `{n}: captured` or `{n}: joins UNIT`"
                );
            }
        }
        out
    }

    fn fighter(&self, b: &Battle, f: &Fighter) -> String {
        let strikes = f
            .strikes
            .iter()
            .map(|(e, face)| format!("the {face} of {}", b.name(e)))
            .collect::<Vec<_>>()
            .join(", ");
        let mut parts = vec![format!(
            "{} ({}): CF {}, Melee {}; strikes {strikes}",
            b.name(&f.unit),
            f.side,
            known(f.cf),
            known(f.melee)
        )];
        if f.wild_charge {
            parts.push("Wild Charge: if it wins, the loser takes 2 DMZs (§5)".into());
        }
        parts.push(format!("modifiers: {}", mods(&f.modifiers)));
        for s in &f.support {
            let verdict = if s.allowed {
                "supports"
            } else {
                "may not support"
            };
            parts.push(format!(
                "{} {verdict} from the {} ({})",
                b.name(&s.by),
                s.from,
                s.why
            ));
        }
        parts.push(format!("dice: {}", f.roll));
        parts.join("; ")
    }
}
