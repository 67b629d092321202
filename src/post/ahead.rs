//! Rounds worked out ahead, on every core (issue 24).
//!
//! A round is played in a write transaction (`round::play`). Its costly
//! parts are pure: the rule set's resolution and the rasterising of the
//! picture. So when a game's round falls due (the message that completes
//! it has just been handled, or a tick finds it due), [`Working::start`]
//! reads what it is played from ([`Inputs`]) and works it out on the pool
//! (every core) while the writer goes on: handling the next messages,
//! playing the rounds already worked out, or reading the next wave of a
//! tick. The round is then played in its transaction as ever, handed its
//! [`Ahead`]. `play` gathers the inputs again under its lock and uses the
//! work only when they are the same (orders that came in since are not
//! lost): working ahead can waste time, never change what a round gives.
//!
//! Architecture invariant: nothing here writes the store; what a round
//! gives is decided in `round::play`, whether worked out ahead or not.

use super::drawing::Picture;
use super::game::Game;
use super::guard::{self, Guarded};
use super::resolve::{self, Inputs};
use super::PostError;
use crate::games;
use crate::report::RoundReport;
use crate::store::games::GameStatus;
use crate::store::Transaction;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc;

/// A round worked out ahead of its transaction (cloned for each try of a
/// transaction refused for a moment, rather than worked out again).
#[derive(Clone)]
pub struct Ahead {
    inputs: Inputs,
    resolved: games::Resolved,
    picture: Option<Picture>,
}

impl Ahead {
    /// The resolution and picture, if they were worked out from `inputs`.
    pub fn for_inputs(self, inputs: &Inputs) -> Option<(games::Resolved, Option<Picture>)> {
        (self.inputs == *inputs).then_some((self.resolved, self.picture))
    }
}

/// How many games' rounds may be due (worked out, or being worked out)
/// before the writer plays some: enough to keep every core busy, few
/// enough that their pictures take little memory; a tick's wave.
pub const WAVE: usize = 32;

/// A round to work out: the game, its round's label, what it is played from.
struct Job(Game, String, Inputs);

/// Rounds being worked out on the pool while the writer goes on (issue 24:
/// a deadline crunch's writer handles the next messages, and plays the
/// rounds already worked out, instead of waiting for the pool; the pool
/// works while the writer does). Each started round's work comes back
/// once, done or not (a rule set that fails or panics sends nothing to
/// use, and its round fails again in its own transaction).
pub struct Working {
    send: mpsc::Sender<(String, Option<Ahead>)>,
    back: mpsc::Receiver<(String, Option<Ahead>)>,
    /// How many works of each game are still out (a batch tried again
    /// starts its games again).
    out: BTreeMap<String, usize>,
    done: BTreeMap<String, Ahead>,
    /// Games looked at, whether or not there was a round to work out.
    looked: BTreeSet<String>,
}

/// How much less the pool's threads get of the cores than the writer
/// (a `nice` value, 0–19).
const POOL_NICENESS: i32 = 10;

/// The pool the rounds are worked out on: rayon's global pool, its
/// threads made to yield the cores to the writer. Why: the writer is the
/// one every message and round waits for, and the pool's threads, as many
/// as the cores, took turns with it (issue 24: at 10,000 games the writer
/// was busy 54 s of 82, the pool half idle waiting for it). A pool built
/// before (the simulator's) is used as it is.
fn pool() {
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        let built = rayon::ThreadPoolBuilder::new()
            .start_handler(|_| {
                let me = rustix::thread::gettid();
                if let Err(e) = rustix::process::setpriority_process(Some(me), POOL_NICENESS) {
                    tracing::debug!("the pool's thread keeps its priority: {e}");
                }
            })
            .build_global();
        if let Err(e) = built {
            tracing::debug!("rayon's pool was built before: {e}");
        }
    });
}

impl Default for Working {
    fn default() -> Self {
        pool();
        let (send, back) = mpsc::channel();
        Working {
            send,
            back,
            out: BTreeMap::new(),
            done: BTreeMap::new(),
            looked: BTreeSet::new(),
        }
    }
}

impl Working {
    /// Start working out game `id`'s current round, read in `tx` (the
    /// orders just handled in it included), if the sides write it. A game
    /// left out (ended, waiting for its game master, unreadable) is
    /// played, or fails, in its own transaction as if nothing were ahead.
    pub fn start(&mut self, tx: &Transaction<'_>, id: &str) {
        self.pass(id);
        let Some(Job(game, label, inputs)) = read(tx, id).ok().flatten() else {
            return;
        };
        let key = id.to_string();
        *self.out.entry(key.clone()).or_default() += 1;
        let send = self.send.clone();
        rayon::spawn(move || {
            let ahead = match guard::guard(|| resolve(&game, label, inputs)) {
                Guarded::Done(ahead) => Some(ahead),
                _ => None,
            };
            // The writer may have stopped waiting (an error): nothing lost.
            let _ = send.send((key, ahead));
        });
    }

    /// Is none of game `id`'s work still out (back, or never started)?
    pub fn is_back(&mut self, id: &str) -> bool {
        while let Ok(got) = self.back.try_recv() {
            self.take_in(got);
        }
        !self.out.contains_key(id)
    }

    /// Game `id` was looked at and has no round to work out now.
    pub fn pass(&mut self, id: &str) {
        self.looked.insert(id.to_string());
    }

    /// Was game `id` looked at (its work started, or passed)?
    pub fn looked_at(&self, id: &str) -> bool {
        self.looked.contains(id)
    }

    /// Game `id`'s round as worked out, once all its work is back; the
    /// game is then forgotten (looked at again if it comes again).
    pub fn take(&mut self, id: &str) -> Option<Ahead> {
        while self.out.contains_key(id) {
            match self.back.recv() {
                Ok(got) => self.take_in(got),
                Err(_) => break,
            }
        }
        self.looked.remove(id);
        self.done.remove(id)
    }

    fn take_in(&mut self, (id, ahead): (String, Option<Ahead>)) {
        if let Some(n) = self.out.get_mut(&id) {
            *n -= 1;
            if *n == 0 {
                self.out.remove(&id);
            }
        }
        if let Some(ahead) = ahead {
            self.done.insert(id, ahead);
        }
    }
}

/// A game whose round the sides write, with that round's label and inputs.
fn read(tx: &Transaction<'_>, id: &str) -> Result<Option<Job>, PostError> {
    let Some(game) = Game::load(tx, id)? else {
        return Ok(None);
    };
    if game.row.status != GameStatus::Active || game.row.failure.is_some() {
        return Ok(None);
    }
    let round = game.round()?;
    if round.game_master.is_some() {
        return Ok(None);
    }
    let inputs = resolve::inputs(tx, &game, &round)?;
    Ok(Some(Job(game, round.label, inputs)))
}

/// The pure part of playing a round: the resolution, and the picture as
/// the report will draw it (its caption from the game's title, the round's
/// number and label; its marks from the resolution).
fn resolve(game: &Game, label: String, inputs: Inputs) -> Result<Ahead, PostError> {
    let resolved = resolve::resolve_stored(
        game,
        &inputs.state,
        &inputs.options,
        &inputs.orders,
        &inputs.seed,
        &inputs.given,
    )?;
    let rep = RoundReport {
        ruleset: game.ruleset.name().to_string(),
        title: game.row.title.clone(),
        game: game.id().to_string(),
        turn: inputs.round,
        label,
        extra: resolved.extra.clone(),
        ..RoundReport::default()
    };
    let picture = Picture::of(game, &rep, &inputs.state, &resolved.state, None).ok();
    Ok(Ahead {
        inputs,
        resolved,
        picture,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::games::Json;
    use crate::post::gamefile::GameFile;
    use crate::post::PostOffice;
    use chrono::{TimeZone, Utc};
    use serde_json::json;

    fn inputs() -> Inputs {
        Inputs {
            round: 1,
            seed: "ab".repeat(32),
            state: json!({"turn": 1}),
            options: json!({}),
            orders: BTreeMap::from([("aquilonia".into(), json!([1]))]),
            given: BTreeMap::new(),
        }
    }

    fn ahead() -> Ahead {
        Ahead {
            inputs: inputs(),
            resolved: games::Resolved {
                state: json!({"turn": 2}),
                events: json!([]),
                sections: Vec::new(),
                dice: Vec::new(),
                summary: Json::Null,
                summary_title: String::new(),
                victory: Vec::new(),
                ended: false,
                result: None,
                extra: serde_json::Map::new(),
            },
            picture: None,
        }
    }

    #[test]
    fn work_ahead_serves_only_the_inputs_it_was_worked_out_from() {
        assert!(ahead().for_inputs(&inputs()).is_some());
        let mut late = inputs();
        late.orders.insert("nemedia".into(), json!([2]));
        assert!(ahead().for_inputs(&late).is_none(), "orders came in since");
        let mut dice = inputs();
        dice.given.insert("melee:dragons".into(), 6);
        assert!(ahead().for_inputs(&dice).is_none(), "the moderator's dice");
        let mut next = inputs();
        next.round = 2;
        assert!(ahead().for_inputs(&next).is_none(), "another round");
    }

    /// Two games whose rounds wait for their deadline (both sides wrote
    /// WAIT): worked out ahead, each matches what its round is played from,
    /// and its resolution is the one the round gives.
    #[test]
    fn rounds_worked_out_ahead_are_the_rounds_played() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config {
            database: dir.path().join("umpire.sqlite"),
            address: "umpire@club.example".into(),
            ..Config::default()
        };
        config.spool.outbox = dir.path().join("outbox");
        let mut po = PostOffice::open(config).unwrap();
        let t0 = Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap();
        let scenario = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/campaigns/scenarios/river-crossing.toml"
        );
        let ids: Vec<String> = vec!["ford1".into(), "ford2".into()];
        for (n, id) in ids.iter().enumerate() {
            let path = dir.path().join(format!("{id}.toml"));
            std::fs::write(
                &path,
                format!(
                    "id = \"{id}\"\ntitle = \"Ford\"\nscenario = \"{scenario}\"\nfirst_deadline = \"2026-12-03 20:00\"\n\
                     [moderator]\naddress = \"mod@club.example\"\npassword = \"m\"\n\
                     [[side]]\nid = \"aquilonia\"\naddress = \"a{n}@x.example\"\npassword = \"dragon7\"\n\
                     [[side]]\nid = \"nemedia\"\naddress = \"n{n}@x.example\"\npassword = \"serpent3\"\n"
                ),
            )
            .unwrap();
            po.create_game(&GameFile::load(&path).unwrap(), t0).unwrap();
            for (side, pw, line) in [
                ("aquilonia", "dragon7", "Black Dragons: phase 1 move 6"),
                ("nemedia", "serpent3", "Nemedian Knights: phase 1 move 4"),
            ] {
                let from = format!("{}{n}@x.example", &side[..1]);
                let raw = format!(
                    "From: <{from}>\r\nTo: umpire@club.example\r\nSubject: orders\r\nMessage-ID: <{id}{side}@x>\r\n\
                     Content-Type: text/plain\r\n\r\nGAME {id} SIDE {side} PASSWORD {pw}\r\nWAIT\r\n{line}\r\nEND\r\n"
                );
                po.accept(raw.as_bytes(), "test", t0).unwrap();
            }
        }
        let after = Utc.with_ymd_and_hms(2026, 12, 3, 21, 0, 0).unwrap();
        let mut working = Working::default();
        po.start_due(&ids, &mut working, after).unwrap();
        let worked: BTreeMap<String, Ahead> = ids
            .iter()
            .map(|id| {
                assert!(working.looked_at(id));
                let ahead = working.take(id).expect("worked out on the pool");
                assert!(working.take(id).is_none(), "taken once");
                (id.clone(), ahead)
            })
            .collect();
        assert_eq!(worked.keys().cloned().collect::<Vec<_>>(), ids);
        for (id, ahead) in worked {
            let (game, inputs) = po
                .store
                .write(|tx| {
                    let game = Game::load(tx, &id)?.unwrap();
                    let round = game.round()?;
                    let inputs = resolve::inputs(tx, &game, &round)?;
                    Ok::<_, PostError>((game, inputs))
                })
                .unwrap();
            assert_eq!(inputs.orders.len(), 2, "both sides' orders");
            let played = resolve::resolve_stored(
                &game,
                &inputs.state,
                &inputs.options,
                &inputs.orders,
                &inputs.seed,
                &inputs.given,
            )
            .unwrap();
            let (resolved, picture) = ahead
                .for_inputs(&inputs)
                .expect("worked out from the round's own inputs");
            assert_eq!(resolved.state, played.state);
            assert_eq!(resolved.dice, played.dice);
            assert!(picture.is_some(), "the picture rasterised ahead");
        }
        // Before the deadline, with WAIT written, nothing is due.
        let mut working = Working::default();
        po.start_due(&ids, &mut working, t0).unwrap();
        for id in &ids {
            assert!(working.looked_at(id) && working.is_back(id));
            assert!(working.take(id).is_none());
        }
    }
}
