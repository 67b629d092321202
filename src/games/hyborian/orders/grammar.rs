//! The order grammar (`grammar/orders.pest`) as a Pest parser, and what it
//! says of a unit's name: whether canonical text may write it bare. Below
//! both the reader ([`super::parse`]) and the AST, which writes names back.

use pest::Parser as _;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/orders.pest"]
pub(super) struct OrdersParser;

/// True when a unit's name can be written bare in canonical form and read
/// back as the same name (otherwise it is written in quotes).
pub(crate) fn is_plain_name(name: &str) -> bool {
    const RESERVED: [&str; 22] = [
        "forward",
        "forwards",
        "ahead",
        "straight",
        "bearing",
        "at",
        "to",
        "toward",
        "towards",
        "left",
        "right",
        "north",
        "south",
        "east",
        "west",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
        "unit",
        "number",
        "no",
    ];
    // Canonical text names the same few units over and over: remember the
    // answers (a small cache; it changes no result, only saves parsing).
    thread_local! {
        static PLAIN: std::cell::RefCell<std::collections::HashMap<String, bool>> = Default::default();
    }
    if let Some(known) = PLAIN.with(|c| c.borrow().get(name).copied()) {
        return known;
    }
    let first = name.split_whitespace().next().unwrap_or("").to_lowercase();
    let plain = name == name.trim()
        && !RESERVED.contains(&first.as_str())
        && OrdersParser::parse(Rule::name_only, name).is_ok();
    PLAIN.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= 512 {
            c.clear();
        }
        c.insert(name.to_string(), plain);
    });
    plain
}
