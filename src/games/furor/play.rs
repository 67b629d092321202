//! A player-turn in progress: the board being changed, the options, the
//! dice, the events so far, and what the rules count within a phase (who
//! moved, charged, attacked) and within the player-turn (the `K` of
//! `morale:UNIT:K`). Every step of the engine works on a [`Play`].

use crate::dice::{Dice, DieKind};
use crate::games::furor::ask::{Pause, Question};
use crate::games::furor::board::{Board, SideId, UnitId};
use crate::games::furor::error::EngineError;
use crate::games::furor::events::Event;
use crate::games::furor::hex::Hex;
use crate::games::furor::options::Options;
use crate::games::furor::orders::{Answer, PlayerTurnOrders, Reactions};
use crate::games::furor::rules::HalfMp;
use std::collections::{BTreeMap, BTreeSet};

/// What the rules count within one phase.
#[derive(Debug, Default)]
pub(crate) struct PhaseTally {
    pub moved: BTreeSet<UnitId>,
    pub spent: BTreeMap<UnitId, HalfMp>,
    /// Charging units and their targets (the Charge markers, §9.2).
    pub charges: BTreeMap<UnitId, UnitId>,
    pub impetuous_tested: BTreeSet<UnitId>,
    pub combats: u32,
    pub attacked: BTreeSet<UnitId>,
    pub have_attacked: BTreeSet<UnitId>,
}

pub(crate) struct Play<'a> {
    pub board: Board,
    pub options: &'a Options,
    dice: &'a mut dyn Dice,
    pub events: Vec<Event>,
    pub orders: &'a PlayerTurnOrders,
    pub reactions: &'a Reactions,
    /// The phasing side.
    pub side: SideId,
    pub tally: PhaseTally,
    /// Units that checked morale for a displacement chain in this combat.
    pub chain_tested: BTreeSet<UnitId>,
    /// Units drawn out by a feigned flight this player-turn (one roll each: O32).
    pub feigned_targets: BTreeSet<UnitId>,
    /// Rolls per key prefix and unit this player-turn.
    counts: BTreeMap<(&'static str, UnitId), u32>,
    /// Dice rolled so far.
    rolls: usize,
    /// The owner's open choices per kind and unit this player-turn (the
    /// `K` of `retreat:UNIT:K`).
    occasions: BTreeMap<(&'static str, UnitId), u32>,
    /// The first choice the other player was not asked about yet, with
    /// `ask_owner` (FB-19).
    pub pause: Option<Pause>,
}

impl<'a> Play<'a> {
    pub fn new(
        board: Board,
        orders: &'a PlayerTurnOrders,
        reactions: &'a Reactions,
        options: &'a Options,
        dice: &'a mut dyn Dice,
    ) -> Play<'a> {
        let side = board.phasing().clone();
        Play {
            board,
            options,
            dice,
            events: Vec::new(),
            orders,
            reactions,
            side,
            tally: PhaseTally::default(),
            chain_tested: BTreeSet::new(),
            feigned_targets: BTreeSet::new(),
            counts: BTreeMap::new(),
            rolls: 0,
            occasions: BTreeMap::new(),
            pause: None,
        }
    }

    pub fn emit(&mut self, e: Event) {
        self.events.push(e);
    }

    /// A roll for the key, as case files write it.
    pub fn roll(&mut self, key: &str, die: DieKind) -> Result<u8, EngineError> {
        self.rolls += 1;
        self.dice.roll_die(key, die).map_err(EngineError::Dice)
    }

    /// A choice of the other player's that his standing reactions leave
    /// open: his answer for this occasion if he gave one; otherwise, with
    /// `ask_owner`, the turn's first such occasion he was not asked about
    /// becomes the question to stop at (the caller goes on with the
    /// default, and the post office throws away what follows).
    pub fn open_choice(&mut self, kind: &'static str, question: Question) -> Option<Answer> {
        let unit = question.unit().clone();
        if self.board.get(&unit).side == self.side {
            return None;
        }
        let k = self.occasions.entry((kind, unit.clone())).or_insert(0);
        *k += 1;
        let key = format!("{kind}:{unit}:{k}");
        if let Some(a) = self.reactions.once.get(&key) {
            return Some(*a);
        }
        if self.options.ask_owner && self.pause.is_none() {
            self.pause = Some(Pause {
                key,
                question,
                events: self.events.len(),
                rolls: self.rolls,
                board: self.board.clone(),
            });
        }
        None
    }

    /// The next of a unit's numbered rolls this player-turn: `morale:UNIT:K`.
    pub fn roll_counted(&mut self, prefix: &'static str, unit: &UnitId) -> Result<u8, EngineError> {
        let k = self.counts.entry((prefix, unit.clone())).or_insert(0);
        *k += 1;
        let key = format!("{prefix}:{unit}:{k}");
        self.roll(&key, DieKind::D6)
    }

    /// The retreat hexes a unit's owner prefers (his orders for the phasing
    /// side's units, his reactions for the other's).
    pub fn retreat_preference(&self, unit: &UnitId) -> &[Hex] {
        let side = &self.board.get(unit).side;
        let table = if *side == self.side {
            &self.orders.retreat
        } else {
            &self.reactions.retreat
        };
        table.get(unit).map_or(&[], Vec::as_slice)
    }

    /// The path the opponent chose for an impetuous unit's rush.
    pub fn impetuous_route(&self, unit: &UnitId) -> Option<&[Hex]> {
        let side = &self.board.get(unit).side;
        let table = if *side == self.side {
            &self.reactions.impetuous_routes
        } else {
            &self.orders.impetuous_routes
        };
        table.get(unit).map(Vec::as_slice)
    }

    /// Start a new phase's count.
    pub fn new_phase(&mut self) {
        self.tally = PhaseTally::default();
    }
}
