//! Every kind of mail a Furor Barbarus player receives, as a reviewed
//! snapshot (issue 40): the briefing, set-up confirmations and reports, a
//! refused line with its suggestion, standing reactions, a player-turn's
//! report and one played at the deadline without the other side's orders.
//! The post office's chance is fixed, so every roll is the same each run.

use crate::common::*;
use chrono::Duration;
use umpire::entropy::Entropy;
use umpire::post::{gamefile::GameFile, PostOffice};

const F: &str = "GAME soissons SIDE franks PASSWORD clovis1\n";
const G: &str = "GAME soissons SIDE gallo-romans PASSWORD syag2\n";

#[test]
fn a_game_of_soissons_as_its_players_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path());
    c.entropy = Entropy::fixed(41);
    let mut po = PostOffice::open(c).unwrap();
    po.create_game(&GameFile::load(&soissons_file(dir.path())).unwrap(), t0())
        .unwrap();
    let mut n = 0;
    let mut send = |po: &mut PostOffice, from: &str, body: String| {
        n += 1;
        po.accept(&mail(from, &format!("s{n}@x"), &body), "test", t0())
            .unwrap();
    };
    send(&mut po, CLOVIS, format!("{F}place light-1 in 0814\nEND\n"));
    send(
        &mut po,
        SYAGRIUS,
        format!("{G}gr-archers-a: set up in 0410\nEND\n"),
    );
    send(&mut po, CLOVIS, format!("{F}place light-1 in 0814\nEND\n"));
    send(
        &mut po,
        SYAGRIUS,
        format!("{G}retreat legionaries-4 0406 0506\nadvance palatina into 0608\nEND\n"),
    );
    send(&mut po, CLOVIS, format!("{F}Salain 4a: move 0706\nEND\n"));
    send(
        &mut po,
        CLOVIS,
        format!(
            "{F}salian-4a: move 0706 0606\nClovis: move 0706 0606\narchers: move 0807 0708\nEND\n"
        ),
    );
    po.tick(t0() + Duration::days(9)).unwrap();
    send(&mut po, SYAGRIUS, format!("{G}STATUS\n"));
    insta::assert_snapshot!(letters(&po, 0));
}
