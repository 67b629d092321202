//! The post office on real SQLite files (and PostgreSQL, for several workers): handling, hostile and fuzzed mail, DKIM, a whole game's life, leagues, concurrent ingest, crash safety, several workers on one store, the mail corpus, the web export and real mail servers.
//! One test binary for the lot (build time): each file is a module.

#[path = "../common/mod.rs"]
mod common;
#[path = "../support/huge_message.rs"]
mod huge_message;

mod ahead;
mod backup;
mod crash_safety;
mod dkim;
mod first_run;
mod fuzz;
mod general;
mod hostile;
mod ingest_concurrent;
mod league;
mod lifecycle;
mod mail_corpus;
mod mails;
mod office;
mod offline_check;
mod post_boy;
mod press;
mod real_mail;
mod report_html;
mod service_unit;
mod site;
mod verify_bundle;
mod workers;
