//! Every kind of mail the players, game master and campaign secretary of
//! FR! Ancients and the Hyborean campaign receive, as reviewed snapshots
//! (issue 40). The post office's chance is fixed, so every seed, password
//! and roll is the same each run; review a change with `cargo insta review`.

use super::border::{self, AQUILONIA, NEMEDIA, OPHIR, SECRETARY};
use super::campaign::Club;
use super::fr_ancients::{trebia_office_with, waiting, GM, HANNIBAL, SEMPRONIUS};
use crate::common::*;
use chrono::Duration;
use umpire::entropy::Entropy;
use umpire::games::hyborian::campaign::game::CampaignFile;
use umpire::post::PostOffice;

fn send(po: &mut PostOffice, from: &str, id: &str, body: &str) {
    po.accept(&mail(from, id, body), "test", t0()).unwrap();
}

#[test]
fn the_trebia_as_its_players_and_game_master_read_it() {
    use umpire::games::fr_ancients::demo::{demo_orders, stand_in_answer};
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path());
    c.entropy = Entropy::fixed(42);
    let mut po = trebia_office_with(dir.path(), c);
    send(&mut po, HANNIBAL, "c1@c", "GAME trebia SIDE carthage PASSWORD carth2 TURN 1\nCarthaginian Noble Cavalry: counter-charge\nNumidian Cavalry: charge the moon\nEND\n");
    let (_, _, state) = waiting(&mut po);
    let (_, orders) = demo_orders(&state).unwrap();
    send(
        &mut po,
        SEMPRONIUS,
        "r1@r",
        &format!("GAME trebia SIDE rome PASSWORD rome1 TURN 1\n{orders}END\n"),
    );
    send(
        &mut po,
        SEMPRONIUS,
        "r2@r",
        "GAME trebia SIDE rome PASSWORD rome1 TURN 2\n1: pass\nEND\n",
    );
    send(
        &mut po,
        GM,
        "g1@g",
        "MODERATOR trebia PASSWORD gmpw TURN 2\n1: pas\nEND\n",
    );
    for i in 0..30 {
        let (number, gm, state) = waiting(&mut po);
        if gm.is_none() {
            break;
        }
        assert!(i < 29, "the phase never completes");
        let answer = stand_in_answer(&state).unwrap();
        send(
            &mut po,
            GM,
            &format!("g{number}@g"),
            &format!("MODERATOR trebia PASSWORD gmpw TURN {number}\n{answer}END\n"),
        );
    }
    let text = letters(&po, 0);
    assert_eq!(
        internal_words(&text),
        Vec::<String>::new(),
        "player mail shows internal ids or ruling codes"
    );
    insta::assert_snapshot!(text);
}

/// The internal ids (`carthage-numidianjavelinmen1`) and ruling codes
/// (`FA-27`) in the mails people read: the players' mails, the game
/// master's replies and reports (not the game master's situations, which
/// cite each question's key for reference). A unit id inside a dice key
/// (`rally:rome-celticinfantry1:1 = 8`) is the verification file's
/// reference for that roll, and stays.
fn internal_words(letters: &str) -> Vec<String> {
    let mut found = Vec::new();
    for section in letters.split("══ ").skip(1) {
        let head = section.lines().next().unwrap_or_default();
        let situation = section
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("] Round "));
        if head.contains(GM) && situation {
            continue;
        }
        let words = section.split(|c: char| !(c.is_ascii_alphanumeric() || "-:".contains(c)));
        for word in words {
            let bare = word.trim_matches(|c: char| c == ':' || c == '-');
            let id = ["rome-", "carthage-"].iter().any(|s| bare.starts_with(s));
            let code = bare.starts_with("FA-") || bare.starts_with("FB-");
            if (id && !word.contains(':')) || code {
                found.push(bare.to_string());
            }
        }
    }
    found
}

/// The game master's VALUES as he reads the replies: a block with refused
/// lines (nothing taken), then a good one, alone while the players write;
/// then one beside his answers to a situation. (Its replies are checked by
/// their content here; a snapshot is still to be taken.)
#[test]
fn the_game_masters_values_as_he_reads_them() {
    use umpire::games::fr_ancients::demo::{demo_orders, stand_in_answer};
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path());
    c.entropy = Entropy::fixed(42);
    let mut po = trebia_office_with(dir.path(), c);
    let mark = outbox(&po).len();
    send(
        &mut po,
        GM,
        "v1@g",
        "MODERATOR trebia PASSWORD gmpw\nVALUES\nHeavy Cavalary: CF 4; 3/4/0; move 8/4\nSpears: CF 40\nLight Cavalry: move 12/6; move 10/5\nWarband CF 3\nEND VALUES\nEND\n",
    );
    send(
        &mut po,
        GM,
        "v2@g",
        "MODERATOR trebia PASSWORD gmpw\nVALUES\nHeavy Cavalry: CF 4; 3/4/0; move 8/4; charge 1\nSpears: CF 4; 4/4/0; move 6/3\nEND VALUES\nEND\n",
    );
    let replies = letters(&po, mark);
    assert!(
        replies.contains("did you mean 'Heavy Cavalry'?")
            && replies.contains("40 is out of bounds for CF")
            && replies.contains("the movement allowance is given twice on this line")
            && replies.contains("Nothing was taken")
            && replies.contains("values: Heavy Cavalry: CF 4; 3/4/0; move 8/4; charge 1")
            && replies.contains("They hold for the rest of the game"),
        "{replies}"
    );
    let (_, _, state) = waiting(&mut po);
    let (_, orders) = demo_orders(&state).unwrap();
    send(
        &mut po,
        SEMPRONIUS,
        "r1@r",
        &format!("GAME trebia SIDE rome PASSWORD rome1 TURN 1\n{orders}END\n"),
    );
    let (number, gm, state) = waiting(&mut po);
    if gm.is_some() {
        let answer = stand_in_answer(&state).unwrap();
        send(
            &mut po,
            GM,
            "g2@g",
            &format!("MODERATOR trebia PASSWORD gmpw TURN {number}\nVALUES\nLight Cavalry: CF 2; 2/3/2; move 12/6\nEND VALUES\n{answer}END\n"),
        );
        let all = letters(&po, mark);
        assert!(
            all.contains("values: Light Cavalry: CF 2; 2/3/2; move 12/6")
                && all.contains("from the next phase on"),
            "{all}"
        );
    }
}

/// The border campaign with its chance fixed.
fn campaign(dir: &std::path::Path, settings: &str) -> Club {
    let mut c = config(dir);
    c.entropy = Entropy::fixed(43);
    let mut po = PostOffice::open(c).unwrap();
    let file = border::setup("border", "The Border", settings);
    po.create_campaign(&CampaignFile::load(&file).unwrap(), t0())
        .unwrap();
    Club { po, n: 0 }
}

fn secretary(club: &mut Club, lines: &str) {
    club.send(
        SECRETARY,
        &format!("CAMPAIGN border SECRETARY PASSWORD scroll\n{lines}\nEND\n"),
    );
}

#[test]
fn a_campaign_week_as_its_powers_and_secretary_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = campaign(dir.path(), "");
    club.send(AQUILONIA, "CAMPAIGN border POWER aquilonia PASSWORD lion\narmy aquilonia-1 move to Nemedian Marches\narmy aquilonia-9 halt\nraise 12 Bossonian Archres\nEND\n");
    club.send(
        OPHIR,
        "CAMPAIGN border POWER ophir PASSWORD wrong\narmy ophir-1 garrison\nEND\n",
    );
    club.send(
        OPHIR,
        "CAMPAIGN border POWER ophir PASSWORD disc\nSTATUS\narmy ophir-1 garrison\nEND\n",
    );
    secretary(&mut club, "status\nextend 0\nextend 24 hours\nmove ophir-1 to Shamr\nedit ophir-9 losses 10\nmake it rain");
    club.po.tick(t0() + Duration::hours(150)).unwrap();
    club.send(
        NEMEDIA,
        "CAMPAIGN border POWER nemedia PASSWORD dragon\n\nEND\n",
    );
    secretary(
        &mut club,
        "replace nemedia numedides@belverus.example\nrerun",
    );
    insta::assert_snapshot!(letters(&club.po, 0));
}

#[test]
fn a_campaign_battle_by_mail_as_its_players_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = campaign(
        dir.path(),
        "battles = \"mail\"\nbattle_turn_hours = 24\nweek_hours = 0",
    );
    club.send(AQUILONIA, "CAMPAIGN border POWER aquilonia PASSWORD lion\narmy aquilonia-1 move to Nemedian Marches\nEND\n");
    club.send(
        NEMEDIA,
        "CAMPAIGN border POWER nemedia PASSWORD dragon\n\nEND\n",
    );
    club.send(
        OPHIR,
        "CAMPAIGN border POWER ophir PASSWORD disc\narmy ophir-1 garrison\nEND\n",
    );
    let told = border::mails(&club.po)
        .into_iter()
        .find(|(_, to, subject, _)| {
            to.contains(SECRETARY) && subject == "[border-b1] You moderate this game"
        })
        .expect("the secretary is told the moderator's password")
        .3;
    let pw = told
        .split("Your moderator password: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .to_string();
    club.send(
        SECRETARY,
        &format!("MODERATOR border-b1 PASSWORD {pw}\nEND GAME\n"),
    );
    secretary(&mut club, "resolve");
    insta::assert_snapshot!(letters(&club.po, 0));
}

/// A power the umpire's general plays (issue 42): Nemedia's cautious
/// general stands its ground, Aquilonia marches on it, and the battle goes
/// to mail with Nemedia's side given to the battle game's general. Nemedia
/// is mailed nothing; the secretary is told who plays it.
#[test]
fn a_campaign_power_played_by_a_general_as_the_others_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path());
    c.entropy = Entropy::fixed(44);
    let mut po = PostOffice::open(c).unwrap();
    let file = super::campaign_general::with_general(
        "nemedia",
        NEMEDIA,
        "dragon",
        "cautious",
        "battles = \"mail\"\nbattle_turn_hours = 24\nweek_hours = 0",
    );
    po.create_campaign(&CampaignFile::load(&file).unwrap(), t0())
        .unwrap();
    let mut club = Club { po, n: 0 };
    club.send(AQUILONIA, "CAMPAIGN border POWER aquilonia PASSWORD lion\narmy aquilonia-1 move to Nemedian Marches\nEND\n");
    club.send(
        OPHIR,
        "CAMPAIGN border POWER ophir PASSWORD disc\narmy ophir-1 garrison\nEND\n",
    );
    let general: Option<String> = club
        .po
        .store()
        .optional_string(
            "SELECT general FROM sides WHERE game_id = 'border-b1' AND side = 'nemedia'",
            [],
        )
        .unwrap();
    assert_eq!(
        general.as_deref(),
        Some("cautious"),
        "the battle game's general plays nemedia"
    );
    let written: Option<String> = club
        .po
        .store()
        .optional_string(
            "SELECT text FROM submissions WHERE game_id = 'border-b1' AND side = 'nemedia' AND message IS NULL",
            [],
        )
        .unwrap();
    assert!(
        written.is_some(),
        "its orders are in as the battle's first turn opens"
    );
    let all = letters(&club.po, 0);
    assert!(!all.contains(NEMEDIA));
    insta::assert_snapshot!(all);
}

/// A power handed to the umpire's general by the secretary (issue 42), as
/// he and the power's player read it: done, then the same again, a style
/// left out and one the umpire has not.
#[test]
fn a_campaign_power_handed_to_a_general_as_its_readers_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = campaign(dir.path(), "week_hours = 0");
    club.send(
        AQUILONIA,
        "CAMPAIGN border POWER aquilonia PASSWORD lion\narmy aquilonia-1 halt\nEND\n",
    );
    let mark = outbox(&club.po).len();
    secretary(
        &mut club,
        "replace nemedia general cautious\nreplace NEMEDIA general cautious\nreplace ophir general\nreplace ophir general sleepy",
    );
    insta::assert_snapshot!(letters(&club.po, mark));
}

/// The secretary's commands the week above does not use, as he and the
/// powers read the answers: the digest, a cancelled order and the refused
/// ones, an extension out of bounds and one without a deadline, every
/// refused hand-over, and the guide.
#[test]
fn the_secretarys_other_commands_as_he_and_the_powers_read_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = campaign(dir.path(), "");
    club.send(AQUILONIA, "CAMPAIGN border POWER aquilonia PASSWORD lion\narmy aquilonia-1 move to Nemedian Marches\narmy aquilonia-9 halt\nEND\n");
    let mark = outbox(&club.po).len();
    secretary(
        &mut club,
        &format!("digest\ncancel aquilonia 2\ncancel aquilonia 9\ncancel ophir 1\ncancel khitai 1\nstatus\nextend 400\nreplace koth a@b.example\nreplace nemedia not-an-address\nreplace nemedia {NEMEDIA}\nhelp"),
    );
    let still = tempfile::tempdir().unwrap();
    let mut waiting = campaign(still.path(), "week_hours = 0");
    let quiet = outbox(&waiting.po).len();
    secretary(&mut waiting, "extend 24");
    insta::assert_snapshot!(format!(
        "{}\n======== a campaign without deadlines\n{}",
        letters(&club.po, mark),
        letters(&waiting.po, quiet)
    ));
}

/// The club's web pages show a campaign's public map: every province in
/// its owner's colour, no army and nothing a power's fog hides.
#[test]
fn the_club_site_shows_the_campaigns_public_map() {
    let dir = tempfile::tempdir().unwrap();
    let mut club = campaign(dir.path(), "");
    let web = dir.path().join("web");
    umpire::post::site::refresh(&mut club.po, &web).unwrap();
    let index = std::fs::read_to_string(web.join("index.html")).unwrap();
    assert!(
        index.contains("href=\"campaigns/border/index.html\""),
        "{index}"
    );
    let page = std::fs::read_to_string(web.join("campaigns/border/index.html")).unwrap();
    assert!(page.contains("src=\"map.png\""), "{page}");
    let map = std::fs::read_to_string(web.join("campaigns/border/map.svg")).unwrap();
    assert!(map.contains("the public map"), "the caption names it");
    assert!(
        !map.contains("class=\"counter\""),
        "an army shows on the public map"
    );
    assert!(!map.contains("class=\"seen\""), "a province is seen into");
    assert!(!map.contains("aquilonia-1"), "an army's name shows");
    assert!(web.join("campaigns/border/map.png").exists());
}
