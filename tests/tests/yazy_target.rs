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

/// The exact score distribution under the table's play (max expected
/// score): sums to 1 within 1e-12, its mean is the game's value within
/// 1e-6, it lies below P* at every total (no play reaches a total more
/// often than the best play for it), and 20,000 simulated games of the
/// table's play reach 150 and 200 within 4 standard errors of it.
#[test]
fn the_score_distribution_of_max_expected_score_play() {
    use dice_tables_reader::yazy::{Action, Mask, Yazy};
    use dice_tables_reader::{Dice, Tables};
    let tables = Tables::open_dir(dice_tables_tests::default_tables()).unwrap();
    let yazy = tables.get::<Yazy>().unwrap();
    let p = yazy.score_distribution().unwrap();
    assert_eq!(p.len(), 281);
    let sum: f64 = p.iter().sum();
    assert!((sum - 1.0).abs() < 1e-12, "sums to {sum}");
    let mean: f64 = p.iter().enumerate().map(|(s, p)| s as f64 * p).sum();
    assert!((mean - 165.7573187).abs() < 1e-6, "mean {mean}");
    let at_least = |t: usize| p[t..].iter().sum::<f64>();
    let best = solve_target(2);
    for t in 1..=280 {
        assert!(at_least(t) <= best.chance(2047, t as i64) + 1e-12, "total {t}");
    }
    // Games played by the table's decisions, with this test's own dice.
    let mut rng = Rng::new(150);
    let mut throw = |keep: Dice| -> Dice { (keep.len()..5).fold(keep, |d, _| d.with(1 + rng.below(6) as u8).unwrap()) };
    let games = 20_000;
    let (mut reached150, mut reached200) = (0, 0);
    for _ in 0..games {
        let (mut mask, mut total) = (Mask::ALL, 0u32);
        while mask != Mask::NONE {
            let mut dice = throw(Dice::EMPTY);
            for rerolls in (1..=2).rev() {
                match yazy.best_action(mask, dice, rerolls).unwrap() {
                    Some(Action::Keep(k)) if k.len() == 5 => break,
                    Some(Action::Keep(k)) => dice = throw(k),
                    other => panic!("{other:?} with rerolls left"),
                }
            }
            let Some(Action::Score(c)) = yazy.best_action(mask, dice, 0).unwrap() else { panic!("no category") };
            total += u32::from(yazy.points(dice, c).unwrap());
            mask = mask.without(c);
        }
        reached150 += usize::from(total >= 150);
        reached200 += usize::from(total >= 200);
    }
    for (t, reached) in [(150, reached150), (200, reached200)] {
        let q = at_least(t);
        let se = (q * (1.0 - q) / games as f64).sqrt();
        let seen = reached as f64 / games as f64;
        assert!((seen - q).abs() < 4.0 * se, "total {t}: {seen} seen, {q} exact, se {se}");
    }
}
