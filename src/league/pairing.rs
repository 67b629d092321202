//! The pairings of a round: who plays whom, who sits out, and which side
//! each member takes. Members are numbered by their place in the league
//! file (their seeding); every function is pure and gives the same pairing
//! for the same standings, whatever order anything was stored in.
//!
//! ```
//! use umpire::league::pairing::{round_robin, Round};
//! // Three members: one sits out each round; over three rounds every pair
//! // meets once.
//! let rounds: Vec<Round> = (1..=3).map(|r| round_robin(3, r)).collect();
//! assert!(rounds.iter().all(|r| r.games.len() == 1 && r.byes.len() == 1));
//! ```

use crate::diagnostic::{Diagnostic, Severity, Span};
use std::collections::BTreeSet;

/// One round's pairing: games as (member, member), and who has a bye.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Round {
    pub games: Vec<(usize, usize)>,
    pub byes: Vec<usize>,
}

/// Round `round` (from 1) of a round-robin of `n` members by the circle
/// method: member 0 stays put, the others turn one place each round, and
/// with an odd count the empty place is the bye. Over `n - 1` rounds (`n`
/// when odd) every pair meets exactly once. The fixed member's opponent
/// alternates which of the two is named first.
pub fn round_robin(n: usize, round: u32) -> Round {
    let places = n + n % 2;
    if places < 2 {
        return Round::default();
    }
    let turning = places - 1;
    let shift = (round.max(1) - 1) as usize % turning;
    let at = |i: usize| -> usize {
        if i == 0 {
            0
        } else {
            1 + (i - 1 + turning - shift) % turning
        }
    };
    let mut out = Round::default();
    for i in 0..places / 2 {
        let (mut a, mut b) = (at(i), at(places - 1 - i));
        if i == 0 && round % 2 == 0 {
            std::mem::swap(&mut a, &mut b);
        }
        match (a < n, b < n) {
            (true, true) => out.games.push((a, b)),
            (true, false) => out.byes.push(a),
            (false, true) => out.byes.push(b),
            (false, false) => {}
        }
    }
    out
}

/// A member as the Swiss pairing sees them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entrant {
    pub points: u32,
    pub rating: f64,
    /// Byes had so far.
    pub byes: u32,
}

/// Why no Swiss round could be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    #[error("every way of pairing the next round repeats a game already played: the league has run out of new opponents (pair this round with `--pairs FILE`, or end the league)")]
    NoNewOpponents,
}

/// How many tries the Swiss search makes before it gives up: far more than
/// a club league needs, few enough to answer at once.
pub const SWISS_SEARCH_STEPS: usize = 200_000;

/// The ranking the Swiss pairing and the standings use: points, then
/// rating, then seeding.
pub fn ranked(entrants: &[Entrant]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.sort_by(|&a, &b| {
        entrants[b]
            .points
            .cmp(&entrants[a].points)
            .then(entrants[b].rating.total_cmp(&entrants[a].rating))
            .then(a.cmp(&b))
    });
    order
}

/// A Swiss round: members ranked by points, then rating; each, from the
/// top, paired with the highest-ranked member below not yet met (with
/// backtracking when that leaves the rest unpairable). With an odd count
/// the bye goes to the lowest-ranked member with the fewest byes.
///
/// # Errors
/// When every pairing would repeat a game (`met` holds the pairs already
/// played, smaller number first).
pub fn swiss(entrants: &[Entrant], met: &BTreeSet<(usize, usize)>) -> Result<Round, SwissError> {
    let order = ranked(entrants);
    let mut steps = 0usize;
    let mut bye_choices: Vec<Option<usize>> = if order.len() % 2 == 1 {
        let mut c: Vec<usize> = order.iter().rev().copied().collect();
        c.sort_by_key(|&m| entrants[m].byes);
        c.into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    for bye in bye_choices.drain(..) {
        let rest: Vec<usize> = order.iter().copied().filter(|&m| Some(m) != bye).collect();
        let mut games = Vec::new();
        if pair_rest(&rest, met, &mut games, &mut steps) {
            return Ok(Round {
                games,
                byes: bye.into_iter().collect(),
            });
        }
        if steps > SWISS_SEARCH_STEPS {
            break;
        }
    }
    Err(SwissError::NoNewOpponents)
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

fn pair_rest(
    rest: &[usize],
    met: &BTreeSet<(usize, usize)>,
    games: &mut Vec<(usize, usize)>,
    steps: &mut usize,
) -> bool {
    let Some((&top, others)) = rest.split_first() else {
        return true;
    };
    for (i, &other) in others.iter().enumerate() {
        *steps += 1;
        if *steps > SWISS_SEARCH_STEPS {
            return false;
        }
        if met.contains(&key(top, other)) {
            continue;
        }
        let remaining: Vec<usize> = others
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &m)| m)
            .collect();
        games.push((top, other));
        if pair_rest(&remaining, met, games, steps) {
            return true;
        }
        games.pop();
    }
    false
}

/// What the side dealing knows of a member: how many more games they have
/// played on the first side than on the second, and the side they prefer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seat<'a> {
    pub balance: i32,
    pub prefers: Option<&'a str>,
}

/// Which of `a` and `b` takes the game's first side (of `sides`, the game
/// file's two): returns (first side's member, second side's member).
/// A preference is granted when the other does not want the same side;
/// otherwise the member who has played the first side less often takes it,
/// and on a tie `a` (the pairing's first-named) does (ruling LG-4).
pub fn deal_sides(
    a: usize,
    b: usize,
    seat_a: Seat<'_>,
    seat_b: Seat<'_>,
    sides: [&str; 2],
) -> (usize, usize) {
    let wants = |s: Seat<'_>| {
        s.prefers
            .and_then(|p| sides.iter().position(|side| side.eq_ignore_ascii_case(p)))
    };
    let first_for_a = match (wants(seat_a), wants(seat_b)) {
        (Some(x), Some(y)) if x != y => x == 0,
        (Some(x), None) => x == 0,
        (None, Some(y)) => y == 1,
        _ => seat_a.balance <= seat_b.balance,
    };
    if first_for_a {
        (a, b)
    } else {
        (b, a)
    }
}

/// A line of the moderator's list that cannot be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

impl Severity for Refused {
    fn is_error(&self) -> bool {
        true
    }
}

/// Read the moderator's list of a round's pairings, one line each:
/// `Anna v Bob` (`vs` too) or `bye Carl`; blank lines and `#` comments are
/// skipped. Members not named sit the round out. `names` are the members'
/// names in seeding order.
///
/// # Errors
/// Every refused line, rustc-style (`file` names the list in the arrows).
pub fn read_list(text: &str, names: &[String], file: &str) -> Result<Round, Vec<String>> {
    let mut round = Round::default();
    let mut errors = Vec::new();
    let mut seen: BTreeSet<usize> = BTreeSet::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let lead = body.len() - body.trim_start().len();
        let trimmed = body.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let at = |from: usize, len: usize| {
            Span::new(start + lead + from, start + lead + from + len.max(1))
        };
        let mut refuse = |d: Diagnostic<Refused>| {
            errors.push(
                d.render(text)
                    .replacen("--> orders:", &format!("--> {file}:"), 1),
            );
        };
        // Each name with its place in the trimmed line.
        let mut wanted: Vec<(usize, &str)> = Vec::new();
        let lower = trimmed.to_ascii_lowercase();
        let is_bye = lower.starts_with("bye ");
        if is_bye {
            let name = trimmed[4..].trim_start();
            wanted.push((trimmed.len() - name.len(), name.trim_end()));
        } else {
            let split = [" vs ", " v "]
                .iter()
                .find_map(|sep| lower.find(sep).map(|i| (i, sep.len())));
            let Some((i, n)) = split else {
                refuse(
                    Diagnostic::new(
                        Refused,
                        at(0, trimmed.len()),
                        "a pairing is two members with 'v' between them, or 'bye' and a member",
                    )
                    .with_help(format!(
                        "write it as: {} v {}",
                        names.first().map_or("Anna", String::as_str),
                        names.get(1).map_or("Bob", String::as_str)
                    )),
                );
                continue;
            };
            wanted.push((0, trimmed[..i].trim()));
            let second = &trimmed[i + n..];
            wanted.push((
                i + n + (second.len() - second.trim_start().len()),
                second.trim(),
            ));
        }
        let mut found = Vec::new();
        for (col, name) in wanted {
            match names.iter().position(|m| m.eq_ignore_ascii_case(name)) {
                Some(m) if !seen.insert(m) => refuse(
                    Diagnostic::new(
                        Refused,
                        at(col, name.len()),
                        format!("{} is paired twice this round", names[m]),
                    )
                    .with_help("a member plays at most one game a round: remove one of the lines"),
                ),
                Some(m) => found.push(m),
                None => {
                    let mut d = Diagnostic::new(
                        Refused,
                        at(col, name.len()),
                        format!("no member called '{name}'"),
                    );
                    d = match crate::names::closest(name, names.iter().map(|n| (n.as_str(), n))) {
                        Some(near) => d.with_help(format!("did you mean '{near}'?")),
                        None => d.with_note(format!("the members are: {}", names.join(", "))),
                    };
                    refuse(d);
                }
            }
        }
        match (is_bye, found.as_slice()) {
            (true, [m]) => round.byes.push(*m),
            (false, [a, b]) => round.games.push((*a, *b)),
            _ => {}
        }
    }
    if round.games.is_empty() && errors.is_empty() {
        errors.push(format!(
            "error: {file} pairs no game: write one line a game, such as '{} v {}'\n",
            names.first().map_or("Anna", String::as_str),
            names.get(1).map_or("Bob", String::as_str)
        ));
    }
    if errors.is_empty() {
        Ok(round)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs_of(r: &Round) -> Vec<(usize, usize)> {
        r.games.iter().map(|&(a, b)| key(a, b)).collect()
    }

    #[test]
    fn a_round_robin_pairs_every_two_members_exactly_once() {
        for n in 2..=13 {
            let rounds = if n % 2 == 0 { n - 1 } else { n };
            let mut met = BTreeSet::new();
            let mut byes = Vec::new();
            for r in 1..=rounds as u32 {
                let round = round_robin(n, r);
                let mut busy = BTreeSet::new();
                for &(a, b) in &round.games {
                    assert!(a != b && a < n && b < n);
                    assert!(
                        busy.insert(a) && busy.insert(b),
                        "n {n} round {r}: a member twice"
                    );
                    assert!(met.insert(key(a, b)), "n {n} round {r}: {a} v {b} again");
                }
                assert_eq!(round.byes.len(), n % 2, "n {n} round {r}");
                byes.extend(round.byes.iter().copied());
                assert_eq!(busy.len() + round.byes.len(), n);
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n {n}: every pair");
            // With an odd count each member sits out exactly once.
            byes.sort_unstable();
            if n % 2 == 1 {
                assert_eq!(byes, (0..n).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn the_fixed_member_alternates_first_and_second() {
        let firsts: Vec<bool> = (1..=5)
            .map(|r| round_robin(6, r).games.iter().any(|&(a, _)| a == 0))
            .collect();
        assert_eq!(firsts, [true, false, true, false, true]);
    }

    fn entrants(points: &[u32]) -> Vec<Entrant> {
        points
            .iter()
            .map(|&p| Entrant {
                points: p,
                rating: 1500.0,
                byes: 0,
            })
            .collect()
    }

    #[test]
    fn swiss_pairs_neighbours_by_score_then_rating() {
        let mut e = entrants(&[0, 3, 3, 1, 0, 1]);
        e[2].rating = 1530.0;
        let round = swiss(&e, &BTreeSet::new()).unwrap();
        // Ranked: 2 (3, 1530), 1 (3), 3 (1), 5 (1), 0 (0), 4 (0).
        assert_eq!(round.games, [(2, 1), (3, 5), (0, 4)]);
        assert!(round.byes.is_empty());
    }

    #[test]
    fn swiss_never_repeats_a_pair_and_says_when_it_must() {
        let e = entrants(&[3, 3, 0, 0]);
        let met = BTreeSet::from([(0, 1), (2, 3)]);
        let round = swiss(&e, &met).unwrap();
        assert_eq!(round.games, [(0, 2), (1, 3)]);
        // Four members have three rounds of new opponents, then none.
        let met = BTreeSet::from([(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]);
        assert_eq!(swiss(&e, &met), Err(SwissError::NoNewOpponents));
        // Eight members over four rounds: no pair twice (a new pairing is
        // always left then: each member still has four opponents unmet).
        let mut met = BTreeSet::new();
        let mut e = entrants(&[0; 8]);
        for r in 0..4 {
            let round = swiss(&e, &met).unwrap();
            for &(a, b) in &round.games {
                assert!(met.insert(key(a, b)), "round {r}: {a} v {b} again");
                e[a.min(b)].points += 3;
            }
        }
        assert_eq!(met.len(), 16);
    }

    #[test]
    fn swiss_gives_the_bye_to_the_lowest_without_one() {
        let mut e = entrants(&[6, 3, 0]);
        let round = swiss(&e, &BTreeSet::new()).unwrap();
        assert_eq!(
            (round.games.clone(), round.byes.clone()),
            (vec![(0, 1)], vec![2])
        );
        e[2].byes = 1;
        let round = swiss(&e, &BTreeSet::new()).unwrap();
        assert_eq!(round.byes, [1]);
        assert_eq!(pairs_of(&round), [(0, 2)]);
    }

    #[test]
    fn sides_follow_preferences_then_balance() {
        let sides = ["aquilonia", "koth"];
        let seat = |balance, prefers| Seat { balance, prefers };
        assert_eq!(
            deal_sides(0, 1, seat(0, None), seat(0, None), sides),
            (0, 1)
        );
        assert_eq!(
            deal_sides(0, 1, seat(1, None), seat(0, None), sides),
            (1, 0)
        );
        assert_eq!(
            deal_sides(0, 1, seat(-3, Some("Koth")), seat(0, None), sides),
            (1, 0)
        );
        assert_eq!(
            deal_sides(0, 1, seat(0, None), seat(0, Some("koth")), sides),
            (0, 1)
        );
        // Both want Koth: the balance decides.
        assert_eq!(
            deal_sides(0, 1, seat(2, Some("koth")), seat(0, Some("koth")), sides),
            (1, 0)
        );
        // A preference for a side this game does not have counts for nothing.
        assert_eq!(
            deal_sides(0, 1, seat(0, Some("stygia")), seat(1, None), sides),
            (0, 1)
        );
    }

    #[test]
    fn the_moderators_list_is_read_with_its_mistakes_pointed_at() {
        let names: Vec<String> = ["Anna", "Bob", "Carl", "Dora", "Emil"]
            .map(String::from)
            .to_vec();
        let r = read_list(
            "# round 2\nanna v Dora\n  Bob vs Carl\nbye Emil\n",
            &names,
            "pairs.txt",
        )
        .unwrap();
        assert_eq!(r.games, [(0, 3), (1, 2)]);
        assert_eq!(r.byes, [4]);
        let e = read_list(
            "Anna v Bobb\nAnna v Carl\nDora and Emil\n",
            &names,
            "pairs.txt",
        )
        .unwrap_err();
        assert_eq!(e.len(), 3, "{e:?}");
        assert!(
            e[0].contains("no member called 'Bobb'")
                && e[0].contains("did you mean 'Bob'?")
                && e[0].contains("--> pairs.txt:1:8"),
            "{}",
            e[0]
        );
        assert!(e[0].contains("1 | Anna v Bobb"), "{}", e[0]);
        assert!(
            e[1].contains("Anna is paired twice") && e[1].contains("--> pairs.txt:2:1"),
            "{}",
            e[1]
        );
        assert!(
            e[2].contains("'v' between them") && e[2].contains("Anna v Bob"),
            "{}",
            e[2]
        );
        assert!(read_list("# nothing\n", &names, "p").is_err());
    }
}
