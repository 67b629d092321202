//! Three powers at the Nemedian border, the campaign the secretary's desk
//! and the battles by mail are tried on: Aquilonia's army in Attalus and
//! Nemedia's in the Nemedian Marches, a march apart; Ophir's in Ianthe,
//! an onlooker.

use super::campaign::Club;
use crate::common::*;
use umpire::post::PostOffice;

pub const SECRETARY: &str = "secretary@club.example";
pub const AQUILONIA: &str = "conan@aquilonia.example";
pub const NEMEDIA: &str = "tarascus@nemedia.example";
pub const OPHIR: &str = "amalrus@ophir.example";

/// The campaign's set-up file, its `[settings]` lines given.
pub fn setup(id: &str, title: &str, settings: &str) -> String {
    format!(
        r#"id = "{id}"
title = "{title}"
[secretary]
address = "{SECRETARY}"
password = "scroll"
[settings]
{settings}
[[power]]
id = "aquilonia"
nation = "aquilonia"
address = "{AQUILONIA}"
password = "lion"
[[power.army]]
province = "attalus"
points = 400
[[power]]
id = "nemedia"
nation = "nemedia"
address = "{NEMEDIA}"
password = "dragon"
[[power.army]]
province = "nemedian-marches"
points = 400
[[power]]
id = "ophir"
nation = "ophir"
address = "{OPHIR}"
password = "disc"
[[power.army]]
province = "ianthe"
points = 500
"#
    )
}

/// Every mail queued: (kind, recipients, subject, body text decoded).
pub fn mails(po: &PostOffice) -> Vec<(String, String, String, String)> {
    outbox(po)
        .into_iter()
        .map(|(kind, to, raw)| {
            let m = mail_parser::MessageParser::default()
                .parse(raw.as_bytes())
                .unwrap();
            let subject = m.subject().unwrap_or("").to_string();
            (kind, to, subject, body_text(&raw))
        })
        .collect()
}

impl Club {
    /// `power`'s orders for campaign `id`, which must be taken.
    pub fn orders_of(&mut self, id: &str, power: &str, address: &str, password: &str, lines: &str) {
        let d = self.send(
            address,
            &format!("CAMPAIGN {id} POWER {power} PASSWORD {password}\n{lines}\nEND\n"),
        );
        assert_eq!(d.state(), "done", "{power}: {d:?}");
    }
}
