//! Losses in points shared out over an army's units, and what an army
//! recovers after a battle (§12).

use crate::games::hyborian::army::ArmyFile;
use std::collections::BTreeMap;

/// Points per figure of the `i`-th unit (units, then mercenaries).
pub(super) fn unit_cost(f: &ArmyFile, i: usize) -> u32 {
    let n = f.units.len();
    let cost = if i < n {
        crate::games::hyborian::campaign::game::figure_cost(&f.nation, &f.units[i].designation)
    } else {
        f.mercenaries.get(i - n).and_then(|m| {
            crate::games::hyborian::campaign::game::figure_cost(&m.nation, &m.designation)
        })
    };
    cost.unwrap_or(0)
}

/// Figures and cost of every unit (units, then mercenaries), by name.
fn unit_rows(f: &ArmyFile) -> Vec<(String, u32, u32)> {
    let figures = f
        .units
        .iter()
        .map(|u| u.figures)
        .chain(f.mercenaries.iter().map(|m| m.figures));
    f.unit_names()
        .into_iter()
        .zip(figures)
        .enumerate()
        .map(|(i, (n, fig))| (n, fig, unit_cost(f, i)))
        .collect()
}

/// Figures lost per unit for `points` lost, spread over the units in
/// proportion to their figures: whole figures rounded down, then one more
/// figure for the units with the largest remainders while that brings the
/// total nearer the points entered (ruling CA-10).
pub fn share_of(f: &ArmyFile, points: u32) -> BTreeMap<String, u32> {
    let rows = unit_rows(f);
    let worth = crate::games::hyborian::campaign::game::contents_points(f).max(1);
    let target = points.min(worth);
    let frac = f64::from(target) / f64::from(worth);
    let mut out: Vec<u32> = rows
        .iter()
        .map(|(_, fig, _)| (f64::from(*fig) * frac).floor() as u32)
        .collect();
    let mut sum: u32 = out.iter().zip(&rows).map(|(l, r)| l * r.2).sum();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let rem = |i: usize| f64::from(rows[i].1) * frac - f64::from(out[i]);
    let rems: Vec<f64> = order.iter().map(|&i| rem(i)).collect();
    order.sort_by(|&a, &b| rems[b].total_cmp(&rems[a]).then(a.cmp(&b)));
    for i in order {
        let cost = rows[i].2;
        if out[i] < rows[i].1 && cost > 0 && 2 * (target.saturating_sub(sum)) >= cost {
            out[i] += 1;
            sum += cost;
        }
    }
    rows.into_iter()
        .zip(out)
        .map(|((n, _, _), l)| (n, l))
        .collect()
}

/// Points of the figures an army lost before recovery.
pub(super) fn gross_points(f: &ArmyFile, lost: Option<&BTreeMap<String, u32>>) -> u32 {
    let Some(lost) = lost else { return 0 };
    unit_rows(f)
        .iter()
        .map(|(n, fig, cost)| lost.get(n).copied().unwrap_or(0).min(*fig) * cost)
        .sum()
}

/// Take an army's losses, less what it recovers: 3/4 of the figures lost
/// when it holds the field, else 1/2 (§12), rounded to whole figures over
/// the whole army, the remainders going to the units with the largest
/// (ruling CA-9).
pub(super) fn recover(f: &mut ArmyFile, lost: Option<&BTreeMap<String, u32>>, holds_field: bool) {
    let Some(lost) = lost else { return };
    let (num, den) = if holds_field {
        RECOVERED_HOLDING_THE_FIELD
    } else {
        RECOVERED_FALLING_BACK
    };
    let rows = unit_rows(f);
    let l: Vec<u32> = rows
        .iter()
        .map(|(n, fig, _)| lost.get(n).copied().unwrap_or(0).min(*fig))
        .collect();
    let total: u32 = l.iter().sum();
    let want = (total * num + den / 2) / den;
    let mut back: Vec<u32> = l.iter().map(|x| x * num / den).collect();
    let mut order: Vec<usize> = (0..l.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse((l[i] * num) % den), i));
    let mut got: u32 = back.iter().sum();
    for i in order {
        if got >= want {
            break;
        }
        if back[i] < l[i] {
            back[i] += 1;
            got += 1;
        }
    }
    crate::games::hyborian::campaign::game::take_figures(f, |i| {
        l.get(i)
            .zip(back.get(i))
            .map_or(0, |(gone, kept)| gone - kept)
    });
}

/// Share of its losses an army that holds the field recovers (§12: "the
/// winner recovers 3/4 of its losses").
pub const RECOVERED_HOLDING_THE_FIELD: (u32, u32) = (3, 4);
/// Share an army that falls back recovers (§12: "the loser 1/2").
pub const RECOVERED_FALLING_BACK: (u32, u32) = (1, 2);
