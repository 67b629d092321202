//! No input panics or hangs the reader; the canonical form reads back to
//! the same orders.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use umpire::games::hyborian::orders::ast::*;
use umpire::games::hyborian::orders::plan::Hand;
use umpire::games::hyborian::orders::{
    check_side, confirmation, parse_sheet, read_sheet, sample, Span,
};
use umpire::games::hyborian::rules::magic::Spell;
use umpire::games::hyborian::rules::magic::SPELLS;
use umpire::games::hyborian::rules::{Formation, Phase};

// ------------------------------------------------------------ round trip --

fn sp<T>(node: T) -> Spanned<T> {
    Spanned::new(node, Span::default())
}

fn name() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "Black",
        "Dragons",
        "Royal",
        "Guard",
        "Archers",
        "Knights",
        "Red",
        "Lancers",
        "Spears",
        "of",
        "Gunderland",
        "Pikes",
        "King's",
        "Free-Company",
        "Forward",
        "with",
        "Then",
        "Hold",
        "North",
        "2nd",
    ]);
    prop::collection::vec(words, 1..4).prop_map(|w| w.join(" "))
}

fn unit_ref() -> impl Strategy<Value = Spanned<UnitRef>> {
    prop_oneof![
        4 => name().prop_map(UnitRef::Name),
        1 => (1u32..500).prop_map(UnitRef::Number),
    ]
    .prop_map(sp)
}

/// Whole inches or halves: what players write.
fn number() -> impl Strategy<Value = f64> {
    (0u32..200).prop_map(|n| f64::from(n) / 2.0)
}

fn positive() -> impl Strategy<Value = f64> {
    (1u32..200).prop_map(|n| f64::from(n) / 2.0)
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        (number(), number()).prop_map(|(x, y)| Target::Point(x, y)),
        unit_ref().prop_map(Target::Unit),
    ]
}

fn hand() -> impl Strategy<Value = Hand> {
    prop_oneof![Just(Hand::Left), Just(Hand::Right)]
}

fn distance() -> impl Strategy<Value = Distance> {
    prop_oneof![Just(Distance::Full), number().prop_map(Distance::Inches)]
}

fn move_order() -> impl Strategy<Value = MoveOrder> {
    let direction = prop_oneof![
        Just(MoveDirection::Forward),
        Just(MoveDirection::Back),
        (hand(), positive()).prop_map(|(hand, degrees)| MoveDirection::Oblique { hand, degrees }),
        target().prop_map(MoveDirection::Toward),
    ];
    let wheel = prop::option::of((
        hand(),
        prop_oneof![
            positive().prop_map(WheelAngle::Degrees),
            target().prop_map(WheelAngle::ToFace)
        ],
    ));
    prop_oneof![
        (wheel, direction, distance(), any::<bool>()).prop_map(
            |(wheel, direction, distance, along_road)| {
                // A wheel alone is written without the move.
                let wheel_only = wheel.is_some() && distance == Distance::Inches(0.0);
                MoveOrder {
                    direction: if wheel_only {
                        MoveDirection::Forward
                    } else {
                        direction
                    },
                    wheel,
                    distance,
                    forced_march: false,
                    along_road: along_road && !wheel_only,
                }
            }
        ),
        (distance(), any::<bool>()).prop_map(|(distance, along_road)| MoveOrder {
            wheel: None,
            direction: MoveDirection::Forward,
            distance,
            forced_march: true,
            along_road,
        }),
    ]
}

fn face() -> impl Strategy<Value = FaceOrder> {
    prop_oneof![
        (hand(), positive()).prop_map(|(hand, degrees)| FaceOrder::Turn { hand, degrees }),
        Just(FaceOrder::About),
        number().prop_map(FaceOrder::Bearing),
        target().prop_map(FaceOrder::Toward),
    ]
}

fn form() -> impl Strategy<Value = FormOrder> {
    (
        prop::sample::select(Formation::ALL.to_vec()),
        prop::option::of(1u32..20),
    )
        .prop_map(|(formation, n)| {
            let by_ranks = matches!(
                formation,
                Formation::Line | Formation::PositionalLine | Formation::Ring
            );
            FormOrder {
                formation,
                ranks: if by_ranks { n } else { None },
                files: if by_ranks { None } else { n },
            }
        })
}

fn function() -> impl Strategy<Value = Function> {
    let aim = prop_oneof![
        unit_ref().prop_map(ChargeAim::Unit),
        number().prop_map(ChargeAim::Bearing),
        Just(ChargeAim::Forward),
    ];
    prop_oneof![
        move_order().prop_map(Function::Move),
        face().prop_map(Function::Face),
        form().prop_map(Function::Form),
        (face(), form()).prop_map(|(a, b)| Function::FaceAndForm(a, b)),
        (
            aim,
            any::<bool>(),
            any::<bool>(),
            prop::option::of((hand(), positive()))
        )
            .prop_map(|(aim, breakthrough, break_off, sweep)| {
                Function::Charge(ChargeOrder {
                    sweep,
                    aim,
                    breakthrough,
                    break_off,
                })
            }),
        Just(Function::BreakOff),
        Just(Function::Hold),
    ]
}

fn unit_order() -> impl Strategy<Value = UnitOrder> {
    let point = || (number(), number());
    let aim = prop_oneof![
        Just(SpellAim::Caster),
        target().prop_map(SpellAim::At),
        (point(), point()).prop_map(|(a, b)| SpellAim::Along(a, b)),
    ];
    prop_oneof![
        Just(UnitOrder::Evade),
        Just(UnitOrder::HoldFire),
        Just(UnitOrder::Fire),
        unit_ref().prop_map(UnitOrder::Target),
        unit_ref().prop_map(UnitOrder::Join),
        unit_ref().prop_map(UnitOrder::RideWith),
        Just(UnitOrder::Leave),
        prop::option::of(1u32..7).prop_map(UnitOrder::Expand),
        (1u32..7).prop_map(UnitOrder::Contract),
        Just(UnitOrder::LapAround),
        point().prop_map(|(x, y)| UnitOrder::MoveTo(x, y)),
        (prop::sample::select(SPELLS.to_vec()), aim)
            .prop_map(|(spell, aim): (Spell, SpellAim)| UnitOrder::Cast { spell, aim }),
        (
            point(),
            prop::option::of(number()),
            prop::option::of(form())
        )
            .prop_map(|(at, facing, formation)| UnitOrder::Deploy {
                at,
                facing,
                formation
            }),
    ]
}

fn clause() -> impl Strategy<Value = Spanned<Clause>> {
    prop_oneof![
        (prop_oneof![Just(Phase::One), Just(Phase::Two)], function()).prop_map(|(p, f)| {
            Clause::Phase {
                phase: Some(p),
                function: sp(f),
            }
        }),
        unit_order().prop_map(Clause::Unit),
    ]
    .prop_map(sp)
}

fn block() -> impl Strategy<Value = Spanned<UnitBlock>> {
    (unit_ref(), prop::collection::vec(clause(), 1..4)).prop_map(|(unit, clauses)| {
        sp(UnitBlock {
            unit,
            clauses,
            broken: false,
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The canonical form of any sheet reads back to the same sheet.
    #[test]
    fn canonical_form_round_trips(blocks in prop::collection::vec(block(), 1..4)) {
        let sheet = OrderSheet { blocks, ..OrderSheet::default() };
        let text = sheet.to_string();
        let (back, errors) = parse_sheet(&text);
        prop_assert!(errors.is_empty(), "{}\n{:#?}", text, errors);
        prop_assert_eq!(&back, &sheet, "{}", text);
        prop_assert_eq!(back.to_string(), text);
    }
}

// ------------------------------------------------------------- fuzzing --

const SEEDS: [&str; 8] = [
    "GAME tarantia SIDE aquilonia PASSWORD lion TURN 3",
    "Black Dragons: phase 1 charge Nemedian Knights with breakthrough; phase 2 hold",
    "Bossonian Archers\n  phase 1: move 6\"\n  phase 2: face left 90\n  target Nemedian Spearmen",
    "Border Horse: p1 wheel right to face Black Guard then move full; p2 break off",
    "Priest of Mitra: cast the Earth-Shaker along (10, 30) to (34, 30)",
    "Skirmishers: phase 1 oblique left 30 4 // comment\nevade if charged",
    "MODERATOR g PASSWORD p\nDEADLINE 2026-12-01 18:00\nHOLD ON\nEND GAME",
    "Conan: join #1; Prospero: move to (3, 4)\nEND\nignored",
];

const ALPHABET: &[&str] = &[
    " ", "\t", "\n", "\r\n", ":", ";", ",", ".", "\"", "“", "”", "'", "’", "#", "//", "(", ")",
    "[", "]", "-", "°", "\u{a0}", "0", "1", "2", "9", "12.5", "phase", "p1", "move", "face",
    "form", "charge", "hold", "wheel", "then", "and", "with", "left", "right", "about", "line",
    "column", "road", "ring", "full", "toward", "at", "cast", "join", "Black", "Dragons", "end",
    "GAME", "é", "𝔘", "\u{0}", "\u{202e}",
];

fn mutate(rng: &mut ChaCha8Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..6) {
        let at = rng.random_range(0..=chars.len());
        match rng.random_range(0..4) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => {
                let piece = ALPHABET[rng.random_range(0..ALPHABET.len())];
                for (i, c) in piece.chars().enumerate() {
                    chars.insert(at + i, c);
                }
            }
            2 if at < chars.len() => {
                chars[at] = char::from_u32(rng.random_range(0..0x3000)).unwrap_or('?')
            }
            _ => {
                let cut = rng.random_range(at..=chars.len());
                let copy: Vec<char> = chars[at..cut].to_vec();
                chars.splice(at..at, copy);
            }
        }
    }
    chars.into_iter().collect()
}

fn random_text(rng: &mut ChaCha8Rng) -> String {
    (0..rng.random_range(0..40))
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())])
        .collect::<Vec<_>>()
        .join(if rng.random_bool(0.5) { " " } else { "" })
}

/// 100,000 random and mutated inputs through every entry point.
#[test]
fn no_input_panics() {
    let table = sample::table();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for i in 0..100_000 {
        let text = if i % 2 == 0 {
            mutate(&mut rng, SEEDS[i % SEEDS.len()])
        } else {
            random_text(&mut rng)
        };
        let env = umpire::envelope::read(&text);
        let checked =
            umpire::games::hyborian::orders::validate(&read_sheet(&env.sheet), "aquilonia", &table);
        for d in checked.diagnostics.iter().take(2) {
            let _ = d.render(&text);
        }
        if i % 50 == 0 {
            let _ = confirmation(&checked, &table, "aquilonia", &[]);
        }
    }
}

/// A megabyte of garbage is answered with a short reply (how fast: the
/// `orders` bench, "a megabyte of garbage", target under a second).
#[test]
fn a_megabyte_of_garbage_gets_a_short_reply() {
    let table = sample::table();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut text = String::new();
    while text.len() < 1 << 20 {
        text.push_str(&random_text(&mut rng));
        text.push('\n');
    }
    let one_line: String = text.replace('\n', " ");
    for t in [&text, &one_line] {
        let checked = check_side(t, "aquilonia", &table);
        let reply = confirmation(&checked, &table, "aquilonia", &[]);
        assert!(reply.len() < 64 * 1024, "a reply of {} bytes", reply.len());
        assert!(reply.contains("Errors ("));
    }
}
