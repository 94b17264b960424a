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
