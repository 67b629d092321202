//! Parse + validate a 40-unit order sheet (issue 3 target: under 1 ms),
//! and a megabyte of garbage answered (target: under a second).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use umpire::games::hyborian::orders::{check_side, confirmation, sample};
use umpire::games::hyborian::table::Table;

/// The sample battle with Aquilonia raised to 40 units: the sample's eight
/// and 32 more line units of the sample's kinds.
fn forty_units() -> (Table, String) {
    let mut table = sample::table();
    let kinds = ["dragons", "boss", "horse", "pikes", "skirm"];
    let orders = [
        "phase 1 move 4; phase 2 face left 45",
        "phase 1 form column 4 wide; phase 2 move full",
        "phase 1 wheel right 30 then move 6; hold fire",
        "phase 1 charge Nemedian Spearmen",
        "phase 1 oblique left 20 3; target Nemedian Knights",
    ];
    let mut sheet = String::from(
        "Black Dragons: phase 1 charge Nemedian Knights with breakthrough\n\
         Bossonian Archers: phase 1 hold; target Nemedian Spearmen\n\
         Border Horse: phase 1 move 10; phase 2 move 8\n\
         Gunderman Pikes: phase 1 move 2\n\
         Skirmishers: phase 1 move 4; evade if charged\n\
         Conan: leave\n\
         Prospero: ride with Bossonian Archers\n\
         Priest of Mitra: cast Sword of Fire at Nemedian Knights\n",
    );
    for i in 0..32 {
        let mut u = table.units[kinds[i % kinds.len()]].clone();
        u.id = format!("legion{i}");
        u.name = format!("Legion {}", roman(i + 1));
        u.number = 100 + i as u32;
        u.front.x = 2.0 + 2.0 * i as f64;
        u.front.y = 4.0;
        let line = format!("{}: {}\n", u.name, orders[i % orders.len()]);
        sheet.push_str(&line);
        table.units.insert(u.id.clone(), u);
    }
    (table, sheet)
}

fn roman(mut n: usize) -> String {
    let mut s = String::new();
    for (v, r) in [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")] {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

fn bench(c: &mut Criterion) {
    let (table, sheet) = forty_units();
    let checked = check_side(&sheet, "aquilonia", &table);
    assert_eq!(checked.understood.len(), 40, "{:#?}", checked.diagnostics);
    c.bench_function("parse 40 units", |b| {
        b.iter(|| umpire::games::hyborian::orders::parse_sheet(black_box(&sheet)))
    });
    let (parsed, _) = umpire::games::hyborian::orders::parse_sheet(&sheet);
    c.bench_function("validate 40 units", |b| {
        b.iter(|| {
            umpire::games::hyborian::orders::validate(black_box(&parsed), "aquilonia", &table)
        })
    });
    c.bench_function("parse + validate 40 units", |b| {
        b.iter(|| check_side(black_box(&sheet), "aquilonia", black_box(&table)))
    });
    c.bench_function("parse + validate + confirmation 40 units", |b| {
        b.iter(|| {
            let checked = check_side(black_box(&sheet), "aquilonia", black_box(&table));
            confirmation(&checked, &table, "aquilonia", &[])
        })
    });
}

/// A megabyte of hostile text: words of the order language, punctuation,
/// control and bidi characters, in an order drawn from a fixed seed.
fn garbage() -> String {
    use rand::{Rng, SeedableRng};
    const PIECES: &[&str] = &[
        " ", "\n", ":", ";", "phase", "1", "12.5", "charge", "wheel", "Black", "Dragons", "°", "é",
        "𝔘", "\u{202e}", "\u{0}", "“", "END",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut text = String::new();
    while text.len() < 1 << 20 {
        text.push_str(PIECES[rng.random_range(0..PIECES.len())]);
    }
    text
}

fn megabyte(c: &mut Criterion) {
    let table = sample::table();
    let text = garbage();
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10);
    group.bench_function("a megabyte of garbage: check + confirmation", |b| {
        b.iter(|| {
            let checked = check_side(black_box(&text), "aquilonia", &table);
            confirmation(&checked, &table, "aquilonia", &[])
        })
    });
    group.finish();
}

criterion_group!(benches, bench, megabyte);
criterion_main!(benches);
