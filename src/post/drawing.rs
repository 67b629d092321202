//! A round's picture, drawn by the rule set and rasterised once for every
//! mail of the round; a picture worked out ahead (`post::ahead`) serves
//! the report when it was drawn from the same things.

use super::game::Game;
use super::PostError;
use crate::games::Json;
use crate::report::{picture, RoundReport};

/// A round's picture, drawn and rasterised once for every mail of the
/// round (rasterising and compressing were most of a report's cost).
#[derive(Clone)]
pub struct Picture {
    pub(super) svg: String,
    pub(super) png: Vec<u8>,
    drawn_from: DrawnFrom,
}

/// What a rule set draws a round's picture from (`Ruleset::picture`):
/// the table before and after, and the report's title, number, label and
/// the rule set's own extras (never the post office's notes, which the
/// report gains after it was worked out ahead). A picture worked out ahead is used when
/// these are the same, without drawing it again to compare.
#[derive(Clone)]
struct DrawnFrom {
    title: String,
    turn: u32,
    label: String,
    extra: serde_json::Map<String, Json>,
    before: Json,
    after: Json,
}

impl Picture {
    /// The rule set's picture of the round; drawn and rasterised only if
    /// `hint` (a picture rasterised ahead, `post::ahead`) is not drawn
    /// from the same.
    ///
    /// # Errors
    /// When the states cannot be read or the picture cannot be rasterised.
    pub fn of(
        game: &Game,
        rep: &RoundReport,
        before: &Json,
        after: &Json,
        hint: Option<Picture>,
    ) -> Result<Self, PostError> {
        if let Some(hint) = hint.filter(|h| h.drawn_from.is(rep, before, after)) {
            return Ok(hint);
        }
        let svg = game.ruleset.picture(before, after, rep)?;
        let png = picture::png(&svg).map_err(|e| PostError::Corrupt(e.to_string()))?;
        Ok(Picture {
            svg,
            png,
            drawn_from: DrawnFrom {
                title: rep.title.clone(),
                turn: rep.turn,
                label: rep.label.clone(),
                extra: rep.extra.clone(),
                before: before.clone(),
                after: after.clone(),
            },
        })
    }
}

impl DrawnFrom {
    /// Is this what a picture of `rep`, `before` and `after` is drawn from?
    fn is(&self, rep: &RoundReport, before: &Json, after: &Json) -> bool {
        self.title == rep.title
            && self.turn == rep.turn
            && self.label == rep.label
            && self.extra == rep.extra
            && self.before == *before
            && self.after == *after
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A picture worked out ahead serves a report that has gained the post
    /// office's extras, and no report drawn from anything else.
    #[test]
    fn a_picture_is_drawn_from_the_states_and_the_rule_sets_own_report() {
        let mut rep = RoundReport {
            title: "Ford".into(),
            turn: 2,
            label: "turn 2".into(),
            ..RoundReport::default()
        };
        rep.extra.insert("charged".into(), json!(["dragons"]));
        let (before, after) = (json!({"turn": 2}), json!({"turn": 3}));
        let from = DrawnFrom {
            title: rep.title.clone(),
            turn: rep.turn,
            label: rep.label.clone(),
            extra: rep.extra.clone(),
            before: before.clone(),
            after: after.clone(),
        };
        assert!(from.is(&rep, &before, &after));
        let mut told = rep.clone();
        told.office.to_game_master = true;
        told.office.earlier_seeds = vec!["round 1: aa bb".into()];
        told.office.result = Some(crate::games::GameResult::Drawn);
        assert!(from.is(&told, &before, &after), "the office's notes");
        let mut charged = rep.clone();
        charged.extra.insert("charged".into(), json!([]));
        assert!(!from.is(&charged, &before, &after), "another charge");
        let mut more = rep.clone();
        more.extra.insert("routed".into(), json!(["knights"]));
        assert!(!from.is(&more, &before, &after), "an extra more");
        let mut titled = rep.clone();
        titled.title = "Ford II".into();
        assert!(!from.is(&titled, &before, &after), "another title");
        assert!(!from.is(&rep, &after, &after), "another table before");
        assert!(!from.is(&rep, &before, &before), "another table after");
    }
}
