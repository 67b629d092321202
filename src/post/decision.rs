//! A command's answer and what carries it out, as values: the shape every
//! desk of the post office decides in — a battle game's moderator and
//! players (`handle::effect::Effect`) and a campaign's secretary
//! (`campaign::office::Effect`). The command decides from what it reads;
//! its desk's one `apply` does the effects in the message's transaction.

/// A command's answer and the effects that carry it out.
#[derive(Debug)]
pub(crate) struct Decision<E> {
    /// What the reply says of the line; `None` when the effect that carries
    /// it out words it (a replay's fresh seed, a re-adjudication's verdict,
    /// a broadcast's recipients, a battle sent to mail).
    pub answer: Option<String>,
    pub effects: Vec<E>,
}

impl<E> Default for Decision<E> {
    fn default() -> Self {
        Decision {
            answer: None,
            effects: Vec::new(),
        }
    }
}

impl<E> Decision<E> {
    /// An answer and nothing done: a refusal, a status.
    pub(crate) fn said(answer: impl Into<String>) -> Self {
        Decision {
            answer: Some(answer.into()),
            effects: Vec::new(),
        }
    }

    /// An answer, and the effects that make it true.
    pub(crate) fn doing(answer: impl Into<String>, effects: Vec<E>) -> Self {
        Decision {
            answer: Some(answer.into()),
            effects,
        }
    }

    /// One effect that words the answer itself.
    pub(crate) fn worded_by(effect: E) -> Self {
        Decision {
            answer: None,
            effects: vec![effect],
        }
    }
}
