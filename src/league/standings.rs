//! The standings: points and ratings replayed from the results in the
//! order they were recorded, ranked by points, then rating, then seeding.
//!
//! ```
//! use umpire::league::{standings::{standings, Entry}, Score, Settings};
//! let names = ["Anna".to_string(), "Bob".to_string()];
//! let s = umpire::league::Settings::default();
//! let t = standings(&names, &s, &[Entry::Game { first: 1, second: 0, score: Score::FirstWon }]);
//! assert_eq!(t.lines[0].name, "Bob");
//! assert_eq!((t.lines[0].points, t.lines[0].rating.round()), (3, 1516.0));
//! ```

use super::pairing::{ranked, Entrant};
use super::{Score, Settings};
use serde::Serialize;
use std::fmt::Write as _;

/// One recorded result, in the order results were recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A game between two members (numbered by seeding): `first` played the
    /// game file's first side.
    Game {
        first: usize,
        second: usize,
        score: Score,
    },
    /// A member sat a round out.
    Bye { member: usize },
}

/// One member's line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// 1 for the leader; members level on points and rating share a rank.
    pub rank: usize,
    pub name: String,
    /// The member's number in seeding order (the league file's order).
    #[serde(skip)]
    pub member: usize,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    /// Lost, forfeits included.
    pub lost: u32,
    /// Of the games lost, those forfeited (LG-3).
    pub forfeited: u32,
    pub byes: u32,
    pub points: u32,
    pub rating: f64,
}

/// The standings, best first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub lines: Vec<Line>,
}

/// The standings of members `names` (seeding order) after `entries`.
pub fn standings(names: &[String], settings: &Settings, entries: &[Entry]) -> Table {
    let mut lines: Vec<Line> = names
        .iter()
        .enumerate()
        .map(|(member, name)| Line {
            rank: 0,
            name: name.clone(),
            member,
            played: 0,
            won: 0,
            drawn: 0,
            lost: 0,
            forfeited: 0,
            byes: 0,
            points: 0,
            rating: settings.rating.initial,
        })
        .collect();
    let p = settings.points;
    for entry in entries {
        match *entry {
            Entry::Bye { member } => {
                if let Some(l) = lines.get_mut(member) {
                    l.byes += 1;
                    l.points += p.bye;
                }
            }
            Entry::Game {
                first,
                second,
                score,
            } => {
                if first >= lines.len() || second >= lines.len() || first == second {
                    continue;
                }
                for m in [first, second] {
                    lines[m].played += 1;
                }
                let mut win = |w: usize| {
                    lines[w].won += 1;
                    lines[w].points += p.win;
                };
                match score {
                    Score::FirstWon | Score::SecondForfeited => win(first),
                    Score::SecondWon | Score::FirstForfeited => win(second),
                    Score::Drawn | Score::BothForfeited => {}
                }
                match score {
                    Score::FirstWon => lose(&mut lines[second], p.loss),
                    Score::SecondWon => lose(&mut lines[first], p.loss),
                    Score::Drawn => {
                        for m in [first, second] {
                            lines[m].drawn += 1;
                            lines[m].points += p.draw;
                        }
                    }
                    Score::FirstForfeited => forfeit(&mut lines[first], p.forfeit),
                    Score::SecondForfeited => forfeit(&mut lines[second], p.forfeit),
                    Score::BothForfeited => {
                        forfeit(&mut lines[first], p.forfeit);
                        forfeit(&mut lines[second], p.forfeit);
                    }
                }
                let rated = score.played_out() || settings.forfeit.rated;
                if let (true, Some(s)) = (rated, score.first_elo()) {
                    let (a, b) = settings
                        .rating
                        .rate(lines[first].rating, lines[second].rating, s);
                    lines[first].rating = a;
                    lines[second].rating = b;
                }
            }
        }
    }
    let entrants = entrants_of(&lines);
    let order = ranked(&entrants);
    let mut out: Vec<Line> = order.into_iter().map(|m| lines[m].clone()).collect();
    for i in 0..out.len() {
        out[i].rank =
            if i > 0 && out[i].points == out[i - 1].points && out[i].rating == out[i - 1].rating {
                out[i - 1].rank
            } else {
                i + 1
            };
    }
    Table { lines: out }
}

fn lose(l: &mut Line, points: u32) {
    l.lost += 1;
    l.points += points;
}

fn forfeit(l: &mut Line, points: u32) {
    l.lost += 1;
    l.forfeited += 1;
    l.points += points;
}

fn entrants_of(lines: &[Line]) -> Vec<Entrant> {
    lines
        .iter()
        .map(|l| Entrant {
            points: l.points,
            rating: l.rating,
            byes: l.byes,
        })
        .collect()
}

impl Table {
    /// Each member's points, rating and byes, by seeding number (for the
    /// Swiss pairing).
    pub fn entrants(&self) -> Vec<Entrant> {
        let mut by_member = self.lines.clone();
        by_member.sort_by_key(|l| l.member);
        entrants_of(&by_member)
    }

    /// The table as text, under `heading`.
    pub fn text(&self, heading: &str) -> String {
        let width = self
            .lines
            .iter()
            .map(|l| l.name.chars().count())
            .max()
            .unwrap_or(0)
            .max("Member".len());
        let mut out = format!("{heading}\n\n");
        let _ = writeln!(
            out,
            "{:>3}  {:<width$}  {:>6}  {:>3}  {:>3}  {:>3}  {:>3}  {:>6}  {:>6}",
            "#", "Member", "Played", "Won", "Drn", "Lst", "Bye", "Points", "Rating"
        );
        for l in &self.lines {
            let _ = writeln!(
                out,
                "{:>3}  {:<width$}  {:>6}  {:>3}  {:>3}  {:>3}  {:>3}  {:>6}  {:>6.0}",
                l.rank, l.name, l.played, l.won, l.drawn, l.lost, l.byes, l.points, l.rating
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::Settings;

    fn names() -> Vec<String> {
        ["Anna", "Bob", "Carl", "Dora"].map(String::from).to_vec()
    }

    #[test]
    fn points_and_ratings_follow_each_result_in_order() {
        let s = Settings::default();
        let t = standings(
            &names(),
            &s,
            &[
                Entry::Game {
                    first: 0,
                    second: 1,
                    score: Score::FirstWon,
                },
                Entry::Game {
                    first: 2,
                    second: 3,
                    score: Score::Drawn,
                },
                Entry::Game {
                    first: 0,
                    second: 2,
                    score: Score::SecondWon,
                },
                Entry::Game {
                    first: 3,
                    second: 1,
                    score: Score::SecondForfeited,
                },
            ],
        );
        let by_name = |n: &str| t.lines.iter().find(|l| l.name == n).unwrap().clone();
        let (anna, bob, carl, dora) = (
            by_name("Anna"),
            by_name("Bob"),
            by_name("Carl"),
            by_name("Dora"),
        );
        assert_eq!((anna.points, anna.won, anna.lost), (3, 1, 1));
        assert_eq!((bob.points, bob.lost, bob.forfeited), (0, 2, 1));
        assert_eq!((carl.points, carl.won, carl.drawn), (4, 1, 1));
        assert_eq!((dora.points, dora.won, dora.drawn), (4, 1, 1));
        // Anna beat Bob at 1500 each (+16), then lost to Carl (1500 after
        // his draw): expected 0.5230, so −16.74.
        assert!((anna.rating - (1516.0 - 32.0 * Elo::expected(1516.0, 1500.0))).abs() < 1e-9);
        assert!((carl.rating - (1500.0 + 32.0 * Elo::expected(1516.0, 1500.0))).abs() < 1e-9);
        // A forfeit is not rated unless the league says so.
        assert_eq!((dora.rating, bob.rating), (1500.0, 1484.0));
        // Carl and Dora have 4 points; Carl's rating is higher.
        assert_eq!(
            t.lines.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
            ["Carl", "Dora", "Anna", "Bob"]
        );
        assert_eq!(
            t.lines.iter().map(|l| l.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        let text = t.text("The Winter League");
        assert!(text.contains("  1  Carl   "), "{text}");
        assert!(
            text.lines().nth(2).unwrap().contains("Points  Rating"),
            "{text}"
        );
    }

    #[test]
    fn byes_score_their_points_and_level_members_share_a_rank() {
        let mut s = Settings::default();
        s.points.bye = 1;
        s.forfeit.rated = true;
        let t = standings(
            &names(),
            &s,
            &[
                Entry::Bye { member: 3 },
                Entry::Game {
                    first: 0,
                    second: 1,
                    score: Score::BothForfeited,
                },
            ],
        );
        assert_eq!(t.lines[0].name, "Dora");
        assert_eq!(
            (t.lines[0].points, t.lines[0].byes, t.lines[0].played),
            (1, 1, 0)
        );
        // Nobody scored in the double forfeit, and no rating moved.
        assert!(t.lines[1..]
            .iter()
            .all(|l| l.points == 0 && l.rating == 1500.0 && l.rank == 2));
        assert_eq!(t.entrants()[3].byes, 1);
    }

    use crate::league::rating::Elo;
}
