//! The yazy table against published numbers and an independent brute force.

use dice_tables_reader::yazy::{Action, Mask, Yazy};
use dice_tables_reader::{Dice, Game};
use dice_tables_tests::{default_tables, run, scratch, BruteYazy, Rng};

fn open_default() -> Yazy {
    Yazy::open(default_tables().join("yazy.dtab")).expect("default yazy table opens")
}

#[test]
fn whole_game_value_matches_the_published_figure() {
    let yazy = open_default();
    let v = yazy.turn_start_value(Mask::ALL).unwrap();
    assert!((v - 165.7573187).abs() < 1e-6, "{v}");
    assert_eq!(format!("{v:.2}"), "165.76");
    assert_eq!(yazy.rerolls(), 2);
}

#[test]
fn whole_game_values_for_other_reroll_counts() {
    for (rerolls, expected) in [(0u8, 75.871021), (1, 127.141316), (3, 197.515446)] {
        let dir = scratch(&format!("rerolls-{rerolls}"));
        let out = run(
            "generator",
            &["--out", dir.to_str().unwrap(), "--games", "yazy", "--yazy-rerolls", &rerolls.to_string()],
            &[],
        );
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let yazy = Yazy::open(dir.join("yazy.dtab")).unwrap();
        assert_eq!(yazy.rerolls(), rerolls);
        let v = yazy.turn_start_value(Mask::ALL).unwrap();
        assert!((v - expected).abs() < 1e-6, "rerolls {rerolls}: {v} vs {expected}");
    }
}

/// Random states agree with the brute force: values (exact with no rerolls
/// left, within the documented 1e-5 with rerolls), every option's value, and
/// the stored best action is worth the maximum over all options.
#[test]
fn agrees_with_brute_force_on_random_states() {
    let yazy = open_default();
    let mut brute = BruteYazy::new(2);
    let mut rng = Rng::new(0x5eed_1a2e);
    let states = 2000;
    let mut checked_options = 0;
    for _ in 0..states {
        let mask = rng.below(2048) as u16;
        let faces: [u8; 5] = std::array::from_fn(|_| rng.below(6) as u8 + 1);
        let rerolls = rng.below(3) as u8;
        let dice = Dice::from_faces(&faces).unwrap();
        let m = Mask::new(u32::from(mask)).unwrap();

        let exact = brute.value(mask, faces, rerolls);
        let stored = yazy.value(m, dice, rerolls).unwrap();
        let tolerance = if rerolls == 0 { 1e-9 } else { 1e-5 };
        assert!((stored - exact).abs() < tolerance, "mask {mask} dice {dice} r {rerolls}: {stored} vs {exact}");

        let brute_action_value = |brute: &mut BruteYazy, a: &Action| match a {
            Action::Keep(k) if k.len() == 5 => panic!("keeping all five is scoring now, not an option"),
            Action::Keep(k) => brute.keep_value(mask, &k.faces().collect::<Vec<_>>(), rerolls),
            Action::Score(c) => brute.score_value(mask, &faces, usize::from(c.index())),
        };
        match yazy.best_action(m, dice, rerolls).unwrap() {
            None => assert_eq!(mask, 0),
            Some(best) => {
                let v = brute_action_value(&mut brute, &best);
                assert!(
                    (v - exact).abs() < 1e-9,
                    "mask {mask} dice {dice} r {rerolls}: best {best:?} is worth {v}, max {exact}"
                );
            }
        }
        let choices = yazy.options(m, dice, rerolls).unwrap();
        let expected_count = if mask == 0 {
            0
        } else if rerolls == 0 {
            mask.count_ones() as usize
        } else {
            // Scoring now in each open category, or keeping fewer than five.
            mask.count_ones() as usize + dice.sub_multisets().count() - 1
        };
        assert_eq!(choices.len(), expected_count);
        for c in choices.iter() {
            let v = brute_action_value(&mut brute, &c.action);
            assert!((c.ev - v).abs() < tolerance, "option {:?}: {} vs {v}", c.action, c.ev);
            checked_options += 1;
        }
    }
    assert!(checked_options > states, "checked {checked_options} options");
}

#[test]
fn turn_start_values_are_exact_for_every_visited_mask() {
    let yazy = open_default();
    let mut brute = BruteYazy::new(2);
    let mut rng = Rng::new(7);
    for _ in 0..40 {
        let mask = rng.below(2048) as u16;
        let exact = brute.turn_start(mask);
        let stored = yazy.turn_start_value(Mask::new(u32::from(mask)).unwrap()).unwrap();
        assert!((stored - exact).abs() < 1e-9, "mask {mask}: {stored} vs {exact}");
    }
}

#[test]
fn stored_points_follow_the_rules() {
    let yazy = open_default();
    for rank in 0..252 {
        let dice = Dice::unrank(5, rank).unwrap();
        let faces: [u8; 5] = dice.faces().collect::<Vec<_>>().try_into().unwrap();
        for c in Mask::ALL.categories() {
            let expected = dice_tables_tests::yazy_points(&faces, usize::from(c.index()));
            assert_eq!(f64::from(yazy.points(dice, c).unwrap()), expected, "{dice} in {c}");
        }
    }
}

#[test]
fn game_over_has_no_action() {
    let yazy = open_default();
    let dice: Dice = "12345".parse().unwrap();
    for r in 0..=2 {
        assert_eq!(yazy.value(Mask::NONE, dice, r).unwrap(), 0.0);
        assert_eq!(yazy.best_action(Mask::NONE, dice, r).unwrap(), None);
        assert!(yazy.options(Mask::NONE, dice, r).unwrap().is_empty());
    }
    assert_eq!(yazy.turn_start_value(Mask::NONE).unwrap(), 0.0);
}
