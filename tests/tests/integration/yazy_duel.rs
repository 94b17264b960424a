//! Two-player yazy: the generator's solve of a reduced game (both sheets
//! within three categories) against the brute force, every pair of sheets
//! and every unsettled lead.

use dice_tables_generator::yazy::duel::{most, solve, Layer};
use dice_tables_tests::BruteYazyDuel;

/// ones, full-house and yazy: small points, a fixed 25 and the rare 50.
const UNIVERSE: u16 = 1 | 1 << 8 | 1 << 10;

#[test]
fn a_reduced_game_agrees_with_brute_force_everywhere() {
    let mut layers: Vec<Layer> = Vec::new();
    solve(UNIVERSE, 2, |_, layer| layers.push(layer.clone()));
    assert_eq!(layers.len(), 7);
    let mut brute = BruteYazyDuel::new(2);
    let mut compared = 0;
    for layer in &layers {
        for pair in &layer.pairs {
            // Every unsettled lead, and one past each end (settled).
            for d in pair.lowest() - 1..=most(pair.o) + 1 {
                let (table, exact) = (layer.value(pair, d), brute.turn_start(pair.m, pair.o, d));
                assert!((table - exact).abs() < 1e-12, "m {:#b} o {:#b} d {d}: {table} vs {exact}", pair.m, pair.o);
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// The reduced game's table, written as the generator writes it and read back.
fn reduced_table() -> dice_tables_reader::yazy_duel::YazyDuel {
    use dice_tables_reader::Game;
    let rules = dice_tables_generator::Rules { yazy_duel_universe: UNIVERSE, ..Default::default() };
    let solved = dice_tables_generator::solve("yazy-duel", &rules, |_, _| {}).expect("a solver");
    dice_tables_reader::yazy_duel::YazyDuel::from_vec(solved.encode()).expect("the table reads back")
}

/// Every mask inside the universe.
fn sheets() -> Vec<u16> {
    (0..=UNIVERSE).filter(|s| s & !UNIVERSE == 0).collect()
}

#[test]
fn the_table_and_its_lookups_agree_with_brute_force() {
    use dice_tables_reader::yazy::{Action, Mask};
    let table = reduced_table();
    let mut brute = BruteYazyDuel::new(2);
    let mask = |m: u16| Mask::new(u32::from(m)).unwrap();
    // Every turn start, both players' (the first player's solved from the
    // stored second player's), every unsettled lead and one past each end.
    let mut compared = 0;
    for m in sheets() {
        for o in sheets().into_iter().filter(|o| {
            let (a, b) = (m.count_ones(), o.count_ones());
            a == b || a == b + 1
        }) {
            for d in -most(m) - 1..=most(o) + 1 {
                let (p, exact) = (table.chance(mask(m), mask(o), i64::from(d)).unwrap(), brute.turn_start(m, o, d));
                assert!((p - exact).abs() < 1e-7, "m {m:#b} o {o:#b} d {d}: {p} vs {exact}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    // Every option of rolls in states of both parities.
    let rolls = ["11111", "12345", "66612", "22233", "13556"];
    for (m, o) in [(UNIVERSE, UNIVERSE), (UNIVERSE, 1 << 8 | 1 << 10), (1 | 1 << 10, 1 << 8), (1 << 10, 1 << 10)] {
        for d in [-30, -5, 0, 7, 25] {
            for roll in rolls {
                let dice: dice_tables_reader::Dice = roll.parse().unwrap();
                let faces: Vec<u8> = dice.faces().collect();
                let faces: [u8; 5] = faces.try_into().unwrap();
                for rerolls in 0..=2u8 {
                    let options = table.options(mask(m), mask(o), i64::from(d), dice, rerolls).unwrap();
                    let best = brute.value(m, o, d, faces, rerolls);
                    for option in options.iter() {
                        let exact = match option.action {
                            Action::Score(c) => brute.score_value(m, o, d, &faces, usize::from(c.index())),
                            Action::Keep(k) => brute.keep_value(m, o, d, &k.faces().collect::<Vec<_>>(), rerolls),
                        };
                        assert!(
                            (option.p - exact).abs() < 1e-7,
                            "{m:#b} {o:#b} {d} {roll} {rerolls} {option:?}: {exact}"
                        );
                    }
                    let decision = options.best().expect("an option");
                    assert!(decision.p > best - 2.2e-7, "{m:#b} {o:#b} {d} {roll} {rerolls}: {decision:?} vs {best}");
                }
            }
        }
    }
}
