//! yazy played to reach a target (issue 23): the generator's `P*(mask, n)`
//! against an independent brute force, and the properties every such
//! table has.

use dice_tables_generator::yazy_target::{most_points, solve_target};
use dice_tables_tests::{BruteYazyTarget, Rng};

/// Random masks with 1 to 4 open categories, every target from below 0 to
/// past the most the mask can score: the solver's chance equals the brute
/// force's within 1e-12 (both exact in f64, summed in other orders).
#[test]
fn agrees_with_brute_force_on_small_masks() {
    for rerolls in [2u8, 1] {
        let solved = solve_target(rerolls);
        let mut brute = BruteYazyTarget::new(rerolls);
        let mut rng = Rng::new(23 + u64::from(rerolls));
        let mut masks = vec![1usize << 10, 0b11, 1 << 9 | 1 << 5];
        while masks.len() < 10 {
            let m = rng.below(2048) as usize;
            if (1..=4).contains(&m.count_ones()) {
                masks.push(m);
            }
        }
        for mask in masks {
            let most = i64::from(most_points(mask));
            for n in -2..=most + 2 {
                let (got, want) = (solved.chance(mask, n), brute.turn_start(mask as u16, n));
                assert!((got - want).abs() < 1e-12, "rerolls {rerolls} mask {mask:#b} n {n}: {got} vs {want}");
            }
            assert!(solved.chance(mask, most) > 0.0, "the most is reachable");
        }
    }
}

/// On the whole table: P* is 1 at or below 0, non-increasing in n, within
/// [0, 1]; its sum over n >= 1 at the start is at least the expected total
/// of max-expected-score play (which is the sum of that play's P(total >= n)).
#[test]
fn whole_table_properties() {
    let solved = solve_target(2);
    for mask in 1..2048usize {
        let most = i64::from(most_points(mask));
        assert_eq!(solved.chance(mask, 0), 1.0);
        let mut previous = 1.0;
        for n in 1..=most {
            let p = solved.chance(mask, n);
            assert!((0.0..=1.0).contains(&p) && p <= previous + 1e-15, "mask {mask} n {n}: {p} after {previous}");
            previous = p;
        }
        assert_eq!(solved.chance(mask, most + 1), 0.0);
    }
    let sum: f64 = (1..=280).map(|n| solved.chance(2047, n)).sum();
    // The published optimal expected total of a whole game.
    let ev = 165.7573187;
    assert!(sum >= ev, "sum of P* {sum} below the expected total {ev}");
}
