//! A campaign power the umpire's general plays (issue 42): the border
//! campaign with Ophir given to the aggressive general. Its letter is
//! written as each week opens and stands as Ophir's orders, so the week
//! resolves when the players are in; its orders are in every week's
//! record and `umpire verify` replays every week; Ophir is mailed nothing.

use super::border::{self, AQUILONIA, NEMEDIA, OPHIR, SECRETARY};
use super::campaign::{events, state_of, Club};
use crate::common::*;
use umpire::games::hyborian::campaign::game::{CampaignFile, Stance};
use umpire::games::hyborian::campaign::resolve::MapEvent;
use umpire::post::PostOffice;

/// The border campaign with `power`'s player replaced by the general of `style`.
pub(crate) fn with_general(
    power: &str,
    address: &str,
    password: &str,
    style: &str,
    settings: &str,
) -> String {
    let file = border::setup("border", "The Border", settings);
    let seat = format!("address = \"{address}\"\npassword = \"{password}\"\n");
    assert!(file.contains(&seat), "{power}'s seat");
    file.replace(&seat, &format!("general = \"{style}\"\n"))
}

/// The general's letters kept for `power`: (turn, whether a message
/// carried it, the letter's text), in the order written.
fn letters_of(po: &PostOffice, power: &str) -> Vec<(u32, bool, String)> {
    let mut st = po
        .store()
        .conn()
        .prepare("SELECT turn, message IS NOT NULL, text FROM campaign_orders WHERE power = ?1 ORDER BY id")
        .unwrap();
    st.query_map([power], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_power_played_by_a_general_writes_each_week_and_is_mailed_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    let file = with_general("ophir", OPHIR, "disc", "aggressive", "weeks_per_year = 4");
    po.create_campaign(&CampaignFile::load(&file).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    // Its first letter is in at once, in no message.
    let first = letters_of(&club.po, "ophir");
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!((first[0].0, first[0].1), (1, false));
    assert!(
        first[0]
            .2
            .starts_with("CAMPAIGN border POWER ophir PASSWORD -\n"),
        "{}",
        first[0].2
    );
    // A mail for Ophir speaks for no one: its password is nobody's.
    let d = club.send(
        OPHIR,
        "CAMPAIGN border POWER ophir PASSWORD disc\narmy ophir-1 halt\nEND\n",
    );
    assert_eq!(d.state(), "refused");

    // Six weeks (a winter among them): the players' orders in resolve each.
    let weeks = 6;
    for week in 0..weeks {
        let before = state_of(&club.po, "border").turn;
        club.orders_of("border", "aquilonia", AQUILONIA, "lion", "");
        assert_eq!(
            state_of(&club.po, "border").turn,
            before,
            "nemedia is not in yet"
        );
        club.orders_of("border", "nemedia", NEMEDIA, "dragon", "");
        assert_eq!(
            state_of(&club.po, "border").turn,
            before + 1,
            "week {week}: the general's power counts as in"
        );
    }
    let written = letters_of(&club.po, "ophir");
    assert_eq!(
        written.len(),
        weeks + 1,
        "one letter a week, the next one's too"
    );
    assert!(written.iter().all(|(_, by_mail, _)| !by_mail));

    // Each week's record holds Ophir's orders, and each replays.
    let mut lines = 0;
    for turn in 1..=weeks as u32 {
        let orders: String = club
            .po
            .store()
            .optional_string("SELECT orders FROM campaign_turns WHERE turn = ?1", [turn])
            .unwrap()
            .unwrap();
        let orders: serde_json::Value = serde_json::from_str(&orders).unwrap();
        let ophir = orders["ophir"]
            .as_array()
            .expect("ophir's orders are in the week's record");
        lines += ophir.len();
        let (text, ok) = umpire::post::verify_turn(&mut club.po, "border", turn).unwrap();
        assert!(ok, "map turn {turn}: {text}");
    }
    assert!(lines > 0, "the general ordered something in {weeks} weeks");
    // What it did is what it wrote: Ophir's orders were carried out.
    let all = events(&club.po);
    assert!(
        !all.iter()
            .any(|e| matches!(e, MapEvent::Refused { power, .. } if power == "ophir")),
        "{all:?}"
    );

    // Nothing is mailed to Ophir; every report has its reader.
    let mails = border::mails(&club.po);
    assert!(
        mails.iter().all(|(_, to, _, _)| !to.trim().is_empty()),
        "a mail with no recipient"
    );
    assert!(!mails
        .iter()
        .any(|(_, _, subject, _)| subject.contains("ophir's report")));
    let reports = |who: &str| {
        mails
            .iter()
            .filter(|(_, _, s, _)| s.contains(&format!("{who} report")))
            .count()
    };
    assert_eq!(reports("aquilonia's"), weeks + 1);
    assert_eq!(reports("the secretary's"), weeks + 1);

    // The secretary's status says who plays Ophir.
    club.send(
        SECRETARY,
        "CAMPAIGN border SECRETARY PASSWORD scroll\nstatus\nEND\n",
    );
    let mails = border::mails(&club.po);
    let status = &mails.last().unwrap().3;
    assert!(
        status.contains("ophir: orders in (played by the umpire's aggressive general)"),
        "{status}"
    );
}

/// The secretary hands a silent power to a general mid-campaign (`replace
/// nemedia general cautious`), and later back to a player (issue 42): its
/// letter for the open week is written at once, so the week that waited on
/// it resolves; the old password stops working; the next weeks resolve on
/// the players' orders alone and replay; `replace nemedia ADDRESS` gives it
/// to a new player, whose orders the week waits for again.
#[test]
fn a_secretary_hands_a_silent_power_to_a_general_and_back_to_a_player() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    let file = border::setup("border", "The Border", "weeks_per_year = 4\nweek_hours = 0");
    po.create_campaign(&CampaignFile::load(&file).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    club.orders_of("border", "aquilonia", AQUILONIA, "lion", "");
    club.orders_of("border", "ophir", OPHIR, "disc", "");
    assert_eq!(state_of(&club.po, "border").turn, 0, "nemedia is silent");
    let secretary = |club: &mut Club, line: &str| {
        club.send(
            SECRETARY,
            &format!("CAMPAIGN border SECRETARY PASSWORD scroll\n{line}\nEND\n"),
        );
        border::mails(&club.po)
            .into_iter()
            .rev()
            .find(|(_, to, _, _)| to.contains(SECRETARY))
            .unwrap()
            .3
    };
    let answer = secretary(&mut club, "replace Nemedia general cautious");
    assert!(
        answer.contains("nemedia is now played by the umpire's cautious general")
            && answer.contains("it is resolved now"),
        "{answer}"
    );
    assert_eq!(state_of(&club.po, "border").turn, 1, "the week resolved");
    assert_eq!(
        letters_of(&club.po, "nemedia").len(),
        2,
        "week 1's and week 2's"
    );
    let told = border::mails(&club.po)
        .into_iter()
        .find(|(_, to, subject, _)| to.contains(NEMEDIA) && subject.contains("general"))
        .expect("the old player is told");
    assert!(told.3.contains("no longer works"), "{}", told.3);
    let d = club.send(
        NEMEDIA,
        "CAMPAIGN border POWER nemedia PASSWORD dragon\narmy nemedia-1 halt\nEND\n",
    );
    assert_eq!(d.state(), "refused", "the old password speaks for no one");

    // Two weeks on the players' orders alone.
    for week in 2..=3 {
        club.orders_of("border", "aquilonia", AQUILONIA, "lion", "");
        club.orders_of("border", "ophir", OPHIR, "disc", "");
        assert_eq!(state_of(&club.po, "border").turn, week);
    }
    for turn in 1..=3 {
        let (text, ok) = umpire::post::verify_turn(&mut club.po, "border", turn).unwrap();
        assert!(ok, "map turn {turn}: {text}");
    }

    // Back to a player: the general's letter for the open week stands (as
    // any orders on file do when a power changes hands); the week after
    // waits for the new player.
    let answer = secretary(&mut club, "replace nemedia numedides@belverus.example");
    assert!(
        answer.contains("now played from numedides@belverus.example"),
        "{answer}"
    );
    let welcome = border::mails(&club.po)
        .into_iter()
        .find(|(_, to, _, _)| to.contains("numedides@belverus.example"))
        .expect("the new player's welcome")
        .3;
    let pw = welcome
        .split("Your password: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{welcome}"))
        .to_string();
    club.orders_of("border", "aquilonia", AQUILONIA, "lion", "");
    club.orders_of("border", "ophir", OPHIR, "disc", "");
    assert_eq!(
        state_of(&club.po, "border").turn,
        4,
        "the general's letter stood"
    );
    assert_eq!(
        letters_of(&club.po, "nemedia").len(),
        4,
        "and no general writes now"
    );
    club.orders_of("border", "aquilonia", AQUILONIA, "lion", "");
    club.orders_of("border", "ophir", OPHIR, "disc", "");
    assert_eq!(
        state_of(&club.po, "border").turn,
        4,
        "nemedia's player is awaited"
    );
    club.orders_of("border", "nemedia", "numedides@belverus.example", &pw, "");
    assert_eq!(state_of(&club.po, "border").turn, 5);
}

/// A general merges by mail (ruling CA-34): Aquilonia's player splits
/// its army in Attalus, then the secretary hands Aquilonia to the
/// aggressive general, which makes one host of the two before it marches;
/// its letter is carried out as written and every week replays.
#[test]
fn a_general_given_two_armies_in_one_province_merges_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    let file = border::setup("border", "The Border", "weeks_per_year = 9\nweek_hours = 0");
    po.create_campaign(&CampaignFile::load(&file).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    let units = state_of(&club.po, "border").armies["aquilonia-1"]
        .contents
        .unit_names();
    assert!(units.len() > 1, "{units:?}");
    let split = format!("army aquilonia-1 split {}", units.last().unwrap());
    club.orders_of("border", "aquilonia", AQUILONIA, "lion", &split);
    club.orders_of("border", "nemedia", NEMEDIA, "dragon", "");
    club.orders_of("border", "ophir", OPHIR, "disc", "");
    let c = state_of(&club.po, "border");
    assert_eq!(c.turn, 1);
    assert_eq!(
        c.armies["aquilonia-2"].province,
        c.armies["aquilonia-1"].province
    );

    club.send(
        SECRETARY,
        "CAMPAIGN border SECRETARY PASSWORD scroll\nreplace aquilonia general aggressive\nEND\n",
    );
    let letter = letters_of(&club.po, "aquilonia").pop().unwrap().2;
    assert!(
        letter.contains("army aquilonia-2 merge into aquilonia-1\n"),
        "{letter}"
    );
    club.orders_of("border", "nemedia", NEMEDIA, "dragon", "");
    club.orders_of("border", "ophir", OPHIR, "disc", "");
    assert_eq!(state_of(&club.po, "border").turn, 2);
    let all = events(&club.po);
    assert!(
        all.iter()
            .any(|e| matches!(e, MapEvent::Merged { army, into, .. }
            if army == "aquilonia-2" && into == "aquilonia-1")),
        "{all:?}"
    );
    assert!(
        !all.iter()
            .any(|e| matches!(e, MapEvent::Refused { power, .. } if power == "aquilonia")),
        "{all:?}"
    );
    for turn in 1..=2 {
        let (text, ok) = umpire::post::verify_turn(&mut club.po, "border", turn).unwrap();
        assert!(ok, "map turn {turn}: {text}");
    }
}

/// The border campaign with Aquilonia's army in Shamar, a march from
/// Ophir's capital Ianthe, and armies of `max_army_points` at most.
fn before_ianthe(general: Option<&str>, max_army_points: u32) -> String {
    let settings =
        format!("weeks_per_year = 9\nweek_hours = 0\nmax_army_points = {max_army_points}");
    let file = match general {
        Some(style) => with_general("ophir", OPHIR, "disc", style, &settings),
        None => border::setup("border", "The Border", &settings),
    };
    let start = "province = \"attalus\"";
    assert!(file.contains(start), "aquilonia's army");
    file.replace(start, "province = \"shamar\"")
}

/// The events of map turn `turn`.
fn events_of(po: &PostOffice, turn: u32) -> Vec<MapEvent> {
    let json: String = po
        .store()
        .optional_string("SELECT events FROM campaign_turns WHERE turn = ?1", [turn])
        .unwrap()
        .unwrap();
    serde_json::from_str(&json).unwrap()
}

/// A week of the border campaign: each player's `lines` (none: the
/// power is the general's), and the week must resolve.
fn week(club: &mut Club, aquilonia: &str, ophir: Option<&str>) {
    let before = state_of(&club.po, "border").turn;
    club.orders_of("border", "aquilonia", AQUILONIA, "lion", aquilonia);
    club.orders_of("border", "nemedia", NEMEDIA, "dragon", "");
    if let Some(lines) = ophir {
        club.orders_of("border", "ophir", OPHIR, "disc", lines);
    }
    assert_eq!(state_of(&club.po, "border").turn, before + 1);
}

/// Nothing the general wrote for `power` was refused, and the secretary
/// was never told of a refused line.
fn nothing_refused(club: &Club, power: &str) {
    let all = events(&club.po);
    assert!(
        !all.iter()
            .any(|e| matches!(e, MapEvent::Refused { power: p, .. } if p == power)),
        "{all:?}"
    );
    assert!(!border::mails(&club.po)
        .iter()
        .any(|(_, _, subject, _)| subject.contains("refused lines")));
}

/// A general's garrison sallies by mail (ruling CA-34): Aquilonia's player
/// marches on Ianthe and lays siege to it; Ophir's player goes silent and
/// the secretary hands Ophir to the aggressive general, whose garrison is
/// strong enough for the one counter it sees: its letter says `sally`,
/// the week fights the battle in Ianthe and reports it, and every week
/// replays.
#[test]
fn a_generals_besieged_garrison_sallies_by_mail() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    let file = before_ianthe(None, 900);
    po.create_campaign(&CampaignFile::load(&file).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    week(
        &mut club,
        "army aquilonia-1 move to Ianthe",
        Some("army ophir-1 garrison"),
    );
    week(&mut club, "army aquilonia-1 besiege", Some(""));
    let c = state_of(&club.po, "border");
    assert_eq!(c.armies["aquilonia-1"].province, "ianthe");
    assert!(matches!(
        c.armies["aquilonia-1"].stance,
        Stance::Besieging { .. }
    ));
    assert_eq!(c.armies["ophir-1"].stance, Stance::Garrison);
    // 500 points against one counter: more than half of a 900-point army.
    assert!(c.armies["ophir-1"].points() * 2 >= 900);

    club.send(
        SECRETARY,
        "CAMPAIGN border SECRETARY PASSWORD scroll\nreplace ophir general aggressive\nEND\n",
    );
    let letter = letters_of(&club.po, "ophir").pop().unwrap();
    assert_eq!(letter.0, 3, "the open week's letter");
    assert!(letter.2.contains("army ophir-1 sally\n"), "{}", letter.2);
    week(&mut club, "", None);
    let fought = events_of(&club.po, 3);
    let battle = fought.iter().find_map(|e| match e {
        MapEvent::Battle {
            id,
            province,
            sides,
            by,
            ..
        } if province == "ianthe" => Some((id, sides, by)),
        _ => None,
    });
    let Some((id, sides, by)) = battle else {
        panic!("no battle at Ianthe: {fought:?}");
    };
    assert_eq!(by, "engine");
    assert!(
        sides.iter().any(|s| s.army == "ophir-1") && sides.iter().any(|s| s.army == "aquilonia-1"),
        "{sides:?}"
    );
    nothing_refused(&club, "ophir");
    // The battle is in the besieger's report of the week.
    let report = border::mails(&club.po)
        .into_iter()
        .rev()
        .find(|(_, to, s, _)| to.contains(AQUILONIA) && s.contains("aquilonia's report"))
        .unwrap()
        .3;
    assert!(
        report.contains(&format!("Battle {id} at Ianthe")),
        "{report}"
    );
    for turn in 1..=3 {
        let (text, ok) = umpire::post::verify_turn(&mut club.po, "border", turn).unwrap();
        assert!(ok, "map turn {turn}: {text}");
    }
}

/// The cautious general waits behind its walls (ruling CA-34): Ophir is
/// its from the start, Aquilonia's player besieges Ianthe, and with no
/// army of its own to relieve it the garrison never comes out; the
/// siege's weeks count on and every week replays.
#[test]
fn a_cautious_generals_besieged_garrison_with_no_relief_waits() {
    let dir = tempfile::tempdir().unwrap();
    let mut po = PostOffice::open(config(dir.path())).unwrap();
    // Armies of 900 points at most, as above: the garrison's strength is
    // not what keeps it in.
    let file = before_ianthe(Some("cautious"), 900);
    po.create_campaign(&CampaignFile::load(&file).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    let first = letters_of(&club.po, "ophir");
    assert!(
        first[0].2.contains("army ophir-1 garrison\n"),
        "{}",
        first[0].2
    );
    week(&mut club, "army aquilonia-1 move to Ianthe", None);
    week(&mut club, "army aquilonia-1 besiege", None);
    week(&mut club, "", None);
    week(&mut club, "", None);
    let c = state_of(&club.po, "border");
    assert_eq!(
        c.armies["aquilonia-1"].stance,
        Stance::Besieging { weeks: 3 }
    );
    assert_eq!(c.armies["ophir-1"].stance, Stance::Garrison);
    assert!(c.armies["ophir-1"].points() * 2 >= 900);
    let letters = letters_of(&club.po, "ophir");
    assert_eq!(letters.len(), 5);
    assert!(
        letters.iter().all(|(_, _, l)| !l.contains(" sally")),
        "{letters:?}"
    );
    let all = events(&club.po);
    assert!(
        !all.iter().any(|e| matches!(e, MapEvent::Battle { .. })),
        "{all:?}"
    );
    nothing_refused(&club, "ophir");
    for turn in 1..=4 {
        let (text, ok) = umpire::post::verify_turn(&mut club.po, "border", turn).unwrap();
        assert!(ok, "map turn {turn}: {text}");
    }
}
