use super::*;
use crate::games::hyborian::campaign::fog::view;
use crate::games::hyborian::campaign::game::{Campaign, CampaignFile, Stance};
use crate::games::hyborian::campaign::orders::{read, Line, Order};
use crate::games::hyborian::campaign::resolve::{as_ordered, check_all, resolve, MapEvent};
use crate::games::hyborian::dice::SeededDice;
use std::collections::BTreeMap;

const DRAGON: &str = include_str!("../../../../../campaigns/world/the-hour-of-the-dragon.toml");

fn dragon() -> (Campaign, World) {
    let world = World::hyborea().unwrap();
    let c = CampaignFile::load(DRAGON).unwrap().start(&world).unwrap();
    (c, world)
}

/// The general's letter for `power`, from its view of the week as ordered.
fn write(c: &Campaign, world: &World, power: &str, style: Style, seed: [u8; 32]) -> String {
    let basis = as_ordered(c, world);
    letter(&view(&basis, world, Some(power)), world, style, seed)
}

/// A letter read as the post office reads a power's mail.
fn lines(power: &str, letter: &str) -> Vec<Line<Order>> {
    let read = read(&format!(
        "CAMPAIGN dragon POWER {power} PASSWORD -\n{letter}END\n"
    ));
    assert!(
        read.errors.is_empty(),
        "{power} wrote lines not understood: {read:?}"
    );
    read.orders
}

/// The style each power's general plays in run `run`: alternating.
fn style_of(run: u8, i: usize) -> Style {
    Style::ALL[(usize::from(run) + i) % 2]
}

/// What a campaign of generals did: the lines refused and written, and
/// what came of them (the campaign-level measure, docs/campaign.md).
#[derive(Debug, Default)]
struct Tally {
    refused: Vec<String>,
    written: usize,
    merges: usize,
    sallies: usize,
    halts: usize,
    /// Marches under way turned on another neighbour.
    turned: usize,
    battles: usize,
    starved: usize,
    /// Armies destroyed in battle or with nowhere to fall back.
    armies_lost: usize,
    /// Provinces that changed hands at a year's end, and those held at the
    /// end by a power other than their owner.
    conquered: usize,
}

impl Tally {
    fn add(&mut self, o: Tally) {
        self.refused.extend(o.refused);
        self.written += o.written;
        self.merges += o.merges;
        self.sallies += o.sallies;
        self.halts += o.halts;
        self.turned += o.turned;
        self.battles += o.battles;
        self.starved += o.starved;
        self.armies_lost += o.armies_lost;
        self.conquered += o.conquered;
    }

    /// The week's events counted.
    fn count(&mut self, events: &[MapEvent]) {
        for e in events {
            match e {
                MapEvent::Battle { .. } => self.battles += 1,
                MapEvent::StarvedOut { .. } => self.starved += 1,
                MapEvent::Transferred { .. } => self.conquered += 1,
                MapEvent::Destroyed { .. } | MapEvent::FellBack { to: None, .. } => {
                    self.armies_lost += 1
                }
                _ => {}
            }
        }
    }

    /// The letter's lines counted by kind (`basis`: the week they are
    /// written for).
    fn written(&mut self, basis: &Campaign, lines: &[Line<Order>]) {
        self.written += lines.len();
        for l in lines {
            match l.item {
                Order::Merge { .. } => self.merges += 1,
                Order::Sally { .. } => self.sallies += 1,
                Order::Halt { .. } => self.halts += 1,
                Order::Move { ref army, .. }
                    if basis.find_army(army).is_some_and(|a| a.march.is_some()) =>
                {
                    self.turned += 1
                }
                _ => {}
            }
        }
    }
}

/// Every power of the shipped campaign played by a general for `weeks`
/// weeks (a short year, so winters come), each week's letters checked
/// against the week as it checks a power's mail and resolved with its
/// battles fought by the engine. Tallies every line refused, by check
/// or by the resolution, the lines written and what came of them.
fn campaign_of_generals(run: u8, weeks: u32) -> Tally {
    let (mut c, world) = dragon();
    c.settings.weeks_per_year = 9;
    let powers: Vec<String> = c.powers.keys().cloned().collect();
    let mut t = Tally::default();
    for week in 0..weeks {
        let basis = as_ordered(&c, &world);
        let mut orders = BTreeMap::new();
        for (i, p) in powers.iter().enumerate() {
            let seed = [run, week as u8, i as u8, 42].repeat(8).try_into().unwrap();
            let text = write(&c, &world, p, style_of(run, i), seed);
            let ls = lines(p, &text);
            t.written(&basis, &ls);
            for (l, v) in ls
                .iter()
                .zip(check_all(&basis, &world, p, ls.iter().map(|l| &l.item)))
            {
                if let Err(why) = v {
                    t.refused
                        .push(format!("{} week {week}: {}: {why}", p, l.text));
                }
            }
            orders.insert(p.clone(), ls);
        }
        let r = resolve(
            &c,
            &world,
            &orders,
            &[],
            &mut SeededDice::new([run ^ week as u8; 32]),
        )
        .unwrap();
        t.refused.extend(r.events.iter().filter_map(|e| match e {
            MapEvent::Refused {
                power, line, why, ..
            } => Some(format!("{power} week {week} (resolved): {line}: {why}")),
            _ => None,
        }));
        t.count(&r.events);
        c = r.campaign;
    }
    t.conquered += c.holdings.values().filter(|h| h.occupier.is_some()).count();
    t
}

/// The campaign-level measure (docs/campaign.md): `cargo test --lib
/// general::tests::no_line -- --nocapture` prints the tally.
#[test]
fn no_line_a_general_writes_is_ever_refused() {
    let mut all = Tally::default();
    for run in 0..6 {
        let t = campaign_of_generals(run, 24);
        assert!(t.refused.is_empty(), "run {run}: {}", t.refused.join("\n"));
        all.add(t);
    }
    eprintln!("{all:?}");
    assert!(
        all.written > 100,
        "the generals wrote {} lines in all",
        all.written
    );
}

#[test]
fn the_same_view_and_seed_give_the_same_letter() {
    let (c, world) = dragon();
    let a = write(&c, &world, "aquilonia", Style::Aggressive, [3; 32]);
    assert_eq!(
        a,
        write(&c, &world, "aquilonia", Style::Aggressive, [3; 32])
    );
    assert!(!a.is_empty());
}

#[test]
fn the_general_sees_only_what_the_fog_shows() {
    let (c, world) = dragon();
    let before = write(&c, &world, "koth", Style::Aggressive, [1; 32]);
    // What Koth cannot see: inside Aquilonia's sealed armies, and Nemedia's
    // treasury.
    let mut hidden = c.clone();
    for a in hidden
        .armies
        .values_mut()
        .filter(|a| a.owner == "aquilonia")
    {
        a.contents.units.truncate(1);
    }
    hidden.powers.get_mut("nemedia").unwrap().treasury = 0;
    assert_eq!(
        before,
        write(&hidden, &world, "koth", Style::Aggressive, [1; 32])
    );
    // What it sees: its own treasury.
    let mut poorer = c.clone();
    poorer.powers.get_mut("koth").unwrap().treasury = 0;
    let after = write(&poorer, &world, "koth", Style::Aggressive, [1; 32]);
    assert!(
        before.contains("raise ") && !after.contains("raise "),
        "{before}\n---\n{after}"
    );
}

#[test]
fn an_aggressive_general_garrisons_its_capital_and_marches_on_with_the_rest() {
    let (mut c, world) = dragon();
    // Koth's one army in Khorshemish leaves a unit behind as the garrison.
    let first = write(&c, &world, "koth", Style::Aggressive, [5; 32]);
    assert!(first.starts_with("army koth-1 split "), "{first}");
    // With two armies there, the smaller holds the walls, the other marches.
    let r = resolve(
        &c,
        &world,
        &[("koth".to_string(), lines("koth", &first))].into(),
        &[],
        &mut SeededDice::new([0; 32]),
    )
    .unwrap();
    c = r.campaign;
    let second = write(&c, &world, "koth", Style::Aggressive, [5; 32]);
    assert!(second.contains("army koth-2 garrison\n"), "{second}");
    assert!(second.contains("army koth-1 move to "), "{second}");
}

#[test]
fn an_aggressive_general_besieges_an_enemy_capital_it_stands_in() {
    let (mut c, world) = dragon();
    c.armies.get_mut("koth-1").unwrap().province = "ianthe".into();
    c.armies.get_mut("ophir-1").unwrap().stance = Stance::Garrison;
    let letter = write(&c, &world, "koth", Style::Aggressive, [9; 32]);
    assert!(letter.contains("army koth-1 besiege\n"), "{letter}");
    // A cautious general stays out of sieges.
    let cautious = write(&c, &world, "koth", Style::Cautious, [9; 32]);
    assert!(!cautious.contains("besiege"), "{cautious}");
}

#[test]
fn a_cautious_general_holds_its_capital_and_raises() {
    let (c, world) = dragon();
    for seed in 0..8 {
        let letter = write(&c, &world, "aquilonia", Style::Cautious, [seed; 32]);
        assert!(!letter.contains(" move to "), "{letter}");
        assert!(letter.contains("army aquilonia-1 garrison\n"), "{letter}");
        assert!(letter.contains("raise "), "{letter}");
    }
}

#[test]
fn the_secretary_view_gets_no_letter() {
    let (c, world) = dragon();
    assert_eq!(
        letter(&view(&c, &world, None), &world, Style::Aggressive, [0; 32]),
        ""
    );
}

/// A new army of `from`'s power in `province`, made of `from`'s last `n`
/// units (each cut to `figures` when given); its id.
fn detach(c: &mut Campaign, from: &str, province: &str, n: usize, figures: Option<u32>) -> String {
    let owner = c.armies[from].owner.clone();
    let id = c.new_army_id(&owner);
    let a = c.armies.get_mut(from).unwrap();
    let keep = a.contents.units.len() - n;
    let mut new = a.clone();
    new.contents.units = a.contents.units.split_off(keep);
    new.contents.mercenaries.clear();
    for u in new.contents.units.iter_mut() {
        u.figures = figures.unwrap_or(u.figures);
    }
    new.id = id.clone();
    new.province = province.into();
    new.stance = Stance::Field;
    new.march = None;
    c.armies.insert(id.clone(), new);
    id
}

/// `power`'s letter as the week reads it: every line accepted by the
/// order check and by the resolution; the week's events.
fn carried_out(c: &Campaign, world: &World, power: &str, letter: &str) -> Vec<MapEvent> {
    let basis = as_ordered(c, world);
    let ls = lines(power, letter);
    for (l, v) in ls
        .iter()
        .zip(check_all(&basis, world, power, ls.iter().map(|l| &l.item)))
    {
        assert!(v.is_ok(), "{}: {v:?}\n{letter}", l.text);
    }
    let r = resolve(
        c,
        world,
        &[(power.to_string(), ls)].into(),
        &[],
        &mut SeededDice::new([4; 32]),
    )
    .unwrap();
    let refused: Vec<_> = r
        .events
        .iter()
        .filter(|e| matches!(e, MapEvent::Refused { .. }))
        .collect();
    assert!(refused.is_empty(), "{refused:?}\n{letter}");
    r.events
}

#[test]
fn an_aggressive_general_merges_two_armies_in_one_province_and_marches_as_one() {
    let (mut c, world) = dragon();
    c.armies.get_mut("koth-1").unwrap().province = "kothian-plains".into();
    let small = detach(&mut c, "koth-1", "kothian-plains", 1, None);
    let letter = write(&c, &world, "koth", Style::Aggressive, [2; 32]);
    assert!(
        letter.contains(&format!("army {small} merge into koth-1\n"))
            && letter.contains("army koth-1 move to "),
        "{letter}"
    );
    let events = carried_out(&c, &world, "koth", &letter);
    assert!(
        events.iter().any(|e| matches!(e, MapEvent::Merged { army, into, .. } if *army == small && into == "koth-1")),
        "{events:?}"
    );
    // The cautious general leaves them be; no host larger than an army may be.
    let cautious = write(&c, &world, "koth", Style::Cautious, [2; 32]);
    assert!(!cautious.contains(" merge "), "{cautious}");
    c.settings.max_army_points = c.armies["koth-1"].points() + 10;
    let capped = write(&c, &world, "koth", Style::Aggressive, [2; 32]);
    assert!(!capped.contains(" merge "), "{capped}");
}

#[test]
fn a_threatened_capitals_garrison_takes_in_the_armies_that_will_not_march() {
    let (mut c, world) = dragon();
    // Koth's capital with a small garrison and its great army beside it.
    let garrison = detach(&mut c, "koth-1", "khorshemish", 1, None);
    let calm = write(&c, &world, "koth", Style::Cautious, [3; 32]);
    assert!(!calm.contains(" merge "), "{calm}");
    // An Ophirean counter next door: the cautious general draws all in.
    c.armies.get_mut("ophir-1").unwrap().province = "kothian-plains".into();
    let letter = write(&c, &world, "koth", Style::Cautious, [3; 32]);
    assert!(
        letter.contains(&format!("army koth-1 merge into {garrison}\n")),
        "{letter}"
    );
    carried_out(&c, &world, "koth", &letter);
    // The aggressive one marches its great army on and merges only the
    // armies too weak to march into the garrison.
    let weak = detach(&mut c, "koth-1", "khorshemish", 1, Some(1));
    let smallest = detach(&mut c, "koth-1", "khorshemish", 1, Some(1));
    let (g, w) = if c.armies[&weak].points() <= c.armies[&smallest].points() {
        (&weak, &smallest)
    } else {
        (&smallest, &weak)
    };
    let letter = write(&c, &world, "koth", Style::Aggressive, [3; 32]);
    assert!(
        letter.contains(&format!("army {w} merge into {g}\n"))
            && !letter.contains("army koth-1 merge"),
        "{letter}"
    );
    carried_out(&c, &world, "koth", &letter);
}

/// Ophir's garrison in Ianthe besieged by Koth's army.
fn ianthe_besieged() -> (Campaign, World) {
    let (mut c, world) = dragon();
    let k = c.armies.get_mut("koth-1").unwrap();
    k.province = "ianthe".into();
    k.stance = Stance::Besieging { weeks: 2 };
    c.armies.get_mut("ophir-1").unwrap().stance = Stance::Garrison;
    (c, world)
}

#[test]
fn an_aggressive_garrison_sallies_when_it_is_strong_enough_for_the_counters_it_sees() {
    let (mut c, world) = ianthe_besieged();
    // 492 points: less than half of a 1,500-point army; it waits.
    let waits = write(&c, &world, "ophir", Style::Aggressive, [6; 32]);
    assert!(!waits.contains(" sally"), "{waits}");
    // Against armies of 900 at most, it is strong enough for one.
    assert_eq!(c.armies["ophir-1"].points(), 492);
    c.settings.max_army_points = 900;
    let letter = write(&c, &world, "ophir", Style::Aggressive, [6; 32]);
    assert!(letter.contains("army ophir-1 sally\n"), "{letter}");
    let events = carried_out(&c, &world, "ophir", &letter);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, MapEvent::Battle { province, .. } if province == "ianthe")),
        "{events:?}"
    );
    // The cautious general waits to be starved or relieved.
    let cautious = write(&c, &world, "ophir", Style::Cautious, [6; 32]);
    assert!(!cautious.contains(" sally"), "{cautious}");
    // Two counters are too many for it.
    detach(&mut c, "koth-1", "ianthe", 1, None);
    let two = write(&c, &world, "ophir", Style::Aggressive, [6; 32]);
    assert!(!two.contains(" sally"), "{two}");
}

#[test]
fn a_garrison_sallies_to_fight_beside_the_relief_marching_in() {
    let (mut c, world) = ianthe_besieged();
    let relief = detach(&mut c, "ophir-1", "southern-ophir", 3, None);
    // Strong enough to march for either style.
    assert!(c.armies[&relief].points() >= 150);
    let needed = world.march_days("southern-ophir", "ianthe").unwrap();
    c.armies.get_mut(&relief).unwrap().march =
        Some(crate::games::hyborian::campaign::game::March {
            to: "ianthe".into(),
            days: needed - 1,
        });
    for style in Style::ALL {
        let letter = write(&c, &world, "ophir", style, [8; 32]);
        assert!(
            letter.contains("army ophir-1 sally\n"),
            "{style:?}: {letter}"
        );
        let events = carried_out(&c, &world, "ophir", &letter);
        let together = events.iter().any(|e| match e {
            MapEvent::Battle { sides, .. } => {
                sides.iter().any(|s| s.army == "ophir-1") && sides.iter().any(|s| s.army == relief)
            }
            _ => false,
        });
        assert!(together, "{events:?}");
    }
    // An army standing next door marches to relieve the capital, and
    // the garrison comes out as it arrives.
    c.armies.get_mut(&relief).unwrap().march = None;
    for style in Style::ALL {
        let letter = write(&c, &world, "ophir", style, [8; 32]);
        assert!(
            letter.contains(&format!("army {relief} move to Ianthe\n"))
                && letter.contains("army ophir-1 sally\n"),
            "{style:?}: {letter}"
        );
        carried_out(&c, &world, "ophir", &letter);
    }
    // An army two marches away: the cautious garrison waits.
    c.armies.get_mut(&relief).unwrap().province = "poitain".into();
    let waits = write(&c, &world, "ophir", Style::Cautious, [8; 32]);
    assert!(
        !waits.contains(" sally") && !waits.contains("Ianthe"),
        "{waits}"
    );
}

#[test]
fn a_march_on_a_province_now_held_by_more_counters_than_it_faces_is_called_off() {
    let (mut c, world) = dragon();
    // Koth marches from the Escarpment to take back the Plains, which
    // Ophir holds with one army.
    let k = c.armies.get_mut("koth-1").unwrap();
    k.province = "kothian-escarpment".into();
    k.march = Some(crate::games::hyborian::campaign::game::March {
        to: "kothian-plains".into(),
        days: 1,
    });
    c.armies.get_mut("ophir-1").unwrap().province = "kothian-plains".into();
    c.holdings.get_mut("kothian-plains").unwrap().occupier = Some("ophir".into());
    // The cautious general faces none: it halts (no other land of its own
    // to take back).
    let cautious = write(&c, &world, "koth", Style::Cautious, [1; 32]);
    assert_eq!(
        cautious.lines().next(),
        Some("army koth-1 halt"),
        "{cautious}"
    );
    carried_out(&c, &world, "koth", &cautious);
    // The aggressive one faces one and marches on.
    let on = write(&c, &world, "koth", Style::Aggressive, [1; 32]);
    assert!(!on.contains("army koth-1 "), "{on}");
    // Two it does not: it turns on another neighbour.
    detach(&mut c, "ophir-1", "kothian-plains", 1, None);
    let turned = write(&c, &world, "koth", Style::Aggressive, [1; 32]);
    assert!(
        turned.contains("army koth-1 move to ") && !turned.contains("Kothian Plains"),
        "{turned}"
    );
    carried_out(&c, &world, "koth", &turned);
}
