//! The combo table against published numbers, an independent brute force
//! over every state, and simulated games played from its own policy.

use dice_tables_reader::combo::Combo;
use dice_tables_reader::{Dice, Game};
use dice_tables_tests::{combo_score, default_tables, run, scratch, BruteCombo, Rng};

fn open_default() -> Combo {
    Combo::open(default_tables().join("combo.dtab")).expect("default combo table opens")
}

#[test]
fn game_start_values_for_0_to_6_rerolls() {
    let expected = [26.736111, 40.605317, 50.747703, 58.208849, 63.892649, 68.412950, 72.168837];
    let mut brute = BruteCombo::default();
    for (rerolls, e) in expected.iter().enumerate() {
        let dir = scratch(&format!("combo-{rerolls}"));
        let out = run(
            "generator",
            &["--out", dir.to_str().unwrap(), "--games", "combo", "--combo-rerolls", &rerolls.to_string()],
            &[],
        );
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let combo = Combo::open(dir.join("combo.dtab")).unwrap();
        assert_eq!(combo.rerolls(), rerolls as u8);
        let v = combo.game_start_value().unwrap();
        assert!((v - e).abs() < 1e-6, "{rerolls} rerolls: {v} vs {e}");
        if rerolls <= 5 {
            let b = brute.game_start(rerolls as u8);
            assert!((v - b).abs() < 1e-9, "{rerolls} rerolls: table {v}, brute force {b}");
        }
    }
}

/// Every state: the value, each keep's value, and the best keep's value are
/// the brute force's.
#[test]
fn every_state_agrees_with_brute_force() {
    let combo = open_default();
    let mut brute = BruteCombo::default();
    let mut checked = 0;
    for rerolls in 0..=combo.rerolls() {
        for rank in 0..252 {
            let dice = Dice::unrank(5, rank).unwrap();
            let faces: [u8; 5] = dice.faces().collect::<Vec<_>>().try_into().unwrap();
            let exact = brute.value(faces, rerolls);
            assert!((combo.value(dice, rerolls).unwrap() - exact).abs() < 1e-9, "{dice} r {rerolls}");
            let keep_value = |brute: &mut BruteCombo, keep: Dice| {
                if keep.len() == 5 {
                    combo_score(&faces)
                } else {
                    brute.keep_value(&keep.faces().collect::<Vec<_>>(), rerolls)
                }
            };
            let best = combo.best_keep(dice, rerolls).unwrap();
            assert!((keep_value(&mut brute, best) - exact).abs() < 1e-9, "{dice} r {rerolls}: best {best}");
            for choice in combo.options(dice, rerolls).unwrap().iter() {
                assert!(
                    (choice.ev - keep_value(&mut brute, choice.keep)).abs() < 1e-9,
                    "{dice} r {rerolls}: {choice:?}"
                );
                checked += 1;
            }
            assert_eq!(f64::from(combo.final_score(dice).unwrap()), combo_score(&faces));
        }
    }
    assert!(checked > 252 * 6 * 10, "{checked}");
}

/// Games played from the table's own policy average its exact game-start value.
#[test]
fn simulated_optimal_play_matches_the_exact_mean() {
    let combo = open_default();
    let mut rng = Rng::new(2026);
    let games = 200_000;
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    for _ in 0..games {
        let mut faces: Vec<u8> = (0..5).map(|_| rng.below(6) as u8 + 1).collect();
        for left in (1..=combo.rerolls()).rev() {
            let keep = combo.best_keep(Dice::from_faces(&faces).unwrap(), left).unwrap();
            if keep.len() == 5 {
                break;
            }
            faces = keep.faces().collect();
            while faces.len() < 5 {
                faces.push(rng.below(6) as u8 + 1);
            }
        }
        let score = combo_score(&faces.try_into().unwrap());
        sum += score;
        sum_sq += score * score;
    }
    let mean = sum / games as f64;
    let sd = (sum_sq / games as f64 - mean * mean).sqrt();
    let se = sd / (games as f64).sqrt();
    let exact = combo.game_start_value().unwrap();
    assert!((mean - exact).abs() < 4.0 * se, "simulated {mean} vs exact {exact} (se {se})");
}

#[test]
fn lookup_json_and_bad_input() {
    let dir = default_tables().to_str().unwrap();
    let o = run("reader", &["lookup", "combo", "--json", "--tables", dir], &[]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("{\"game\":\"combo\",\"ev\":68.41295"));
    let o = run("reader", &["lookup", "combo", "--dice", "26266", "--rerolls", "5", "--json", "--tables", dir], &[]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("{\"game\":\"combo\",\"ev\":"), "{text}");
    assert!(text.contains("\"best\":{\"keep\":\"666\"},\"options\":[{\"action\":{\"keep\":\"666\"},\"ev\":"), "{text}");
    assert_eq!(text.matches("\"keep\":").count(), 1 + 3 * 4);
    for (args, status) in [
        (vec!["--dice", "2626"], 2),
        (vec!["--dice", "26267"], 2),
        (vec!["--dice", "26266", "--rerolls", "6"], 2),
        (vec!["--rerolls", "2"], 2),
    ] {
        let mut all = vec!["lookup", "combo", "--tables", dir];
        all.extend(args.iter().copied());
        let o = run("reader", &all, &[]);
        assert_eq!(o.status.code(), Some(status), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}
