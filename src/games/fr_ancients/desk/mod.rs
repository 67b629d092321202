//! The game master's desk: how a game without a pack is played. At each
//! part of a phase the sheet cannot resolve alone, the engine stops with
//! its questions; [`Situation`] numbers them and writes them for the game
//! master (the units in contact, the modifiers the sheet defines, the dice
//! rolled under their keys); the game master answers in a small command
//! language (`grammar/fr_gm.pest`, `docs/fr-ancients/gm.md`), which
//! [`read_answers`] parses and checks against the situation; the answers,
//! kept by question key in a [`Desk`], let the phase be replayed to the
//! next stop or its end.
//!
//! The desk asks little: the game master gives the base values once
//! ([`values`], `VALUES` … `END VALUES`), questions the geometry or those
//! values settle are answered here ([`settle`]), and each situation holds
//! every question of the phase that does not wait on another's answer
//! ([`super::sequence::run_phase`]). An answer holds only for the question
//! it answered ([`Desk::asked`]): a question asked beside the one it came
//! after may read differently once that one is answered, and is then asked
//! again.
//!
//! ```
//! use umpire::games::fr_ancients::desk::{read_answers, Desk, Situation};
//! use umpire::games::fr_ancients::questions::{Ask, Question, Roll, Test, Answer};
//! use umpire::games::fr_ancients::sequence::Part;
//! use umpire::games::fr_ancients::setup::Layout;
//! let layout: Layout = toml::from_str(r#"
//! [table]
//! width = 48.0
//! depth = 48.0
//! base = [1.5, 0.75]
//! [[side]]
//! id = "rome"
//! [[side]]
//! id = "carthage"
//! [[unit]]
//! id = "h"
//! side = "rome"
//! name = "Roman Hastati 1"
//! type = "Hand Weapons"
//! files = 4
//! ranks = 2
//! front = [24.0, 10.0]
//! facing = 0
//! dmz = 1
//! "#).unwrap();
//! let battle = layout.battle(None).unwrap();
//! let q = Question {
//!     key: "rally:h:1".into(),
//!     part: Part::Rally,
//!     ask: Ask::Test { unit: "h".into(), test: Test::Rally, rally: None, modifiers: vec![], roll: Roll { key: "rally:h:1".into(), value: 8 } },
//! };
//! let s = Situation::new(&battle, Part::Rally, vec![q], Some("trebia"));
//! assert!(s.text.contains("1. Roman Hastati 1: rally roll"));
//! let r = read_answers(&s, &battle, "1: pass\n");
//! assert!(r.diagnostics.is_empty());
//! assert_eq!(r.answers["rally:h:1"], Answer::Pass);
//! let r = read_answers(&s, &battle, "1: yes\n");
//! assert!(r.diagnostics[0].message.contains("pass or fail"));
//! let mut desk = Desk::default();
//! desk.answers.insert("rally:h:1".into(), Answer::Pass);
//! ```

mod answer;
pub mod settle;
mod situation;
pub mod values;

pub use answer::{read_answers, write_answer, GmKind, GmReading};
pub use situation::Situation;

use super::questions::{Answer, Ask, Base, Question};
use super::table::Battle;
use std::collections::BTreeMap;

/// The game master's answers so far, by question key: the base rules of a
/// game without a pack.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Desk {
    pub answers: BTreeMap<String, Answer>,
    /// The question each answer was given to, when known: the answer holds
    /// only while the question under its key reads the same.
    pub asked: BTreeMap<String, Ask>,
    /// The longest move any troop type may have, in the table's measure
    /// (the game option `longest_move`): no enemy farther away is within a
    /// unit's movement distance.
    pub longest_move: Option<f64>,
}

impl Desk {
    /// A desk for a game played under these options on this battle's table.
    pub fn for_game(battle: &Battle, options: &super::options::Options) -> Desk {
        Desk {
            longest_move: Some(battle.inches(options.longest_move)),
            ..Desk::default()
        }
    }

    /// Take a checked answer to a situation: each answer with its question.
    pub fn take(&mut self, s: &Situation, answers: BTreeMap<String, Answer>) {
        for q in &s.questions {
            if answers.contains_key(&q.key) {
                self.asked.insert(q.key.clone(), q.ask.clone());
            }
        }
        self.answers.extend(answers);
    }
}

impl Base for Desk {
    fn answer(&mut self, battle: &Battle, q: &Question) -> Option<Answer> {
        if let Some(a) = settle::settled(battle, q, self.longest_move) {
            return Some(a);
        }
        match self.asked.get(&q.key) {
            Some(ask) if *ask != q.ask => None,
            _ => self.answers.get(&q.key).cloned(),
        }
    }
}
