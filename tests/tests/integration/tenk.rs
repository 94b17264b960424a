//! The 10000 table against the seed's published numbers, the rules'
//! examples, and an independent brute force over every state and every
//! throw's keeps.

use dice_tables_reader::tenk::{Phase, Tenk, Then, OPENING_STEPS, SCORE_STEPS};
use dice_tables_reader::{Dice, Game};
use dice_tables_tests::{default_tables, run, tenk_keeps, throw_outcomes, BruteTenk};

fn open_default() -> Tenk {
    Tenk::open(default_tables().join("tenk.dtab")).expect("default tenk table opens")
}

#[test]
fn published_numbers() {
    let t = open_default();
    let thresholds = [(6, 18100), (5, 3100), (4, 1050), (3, 450), (2, 250), (1, 350)];
    for (d, s) in thresholds {
        assert_eq!(t.bank_threshold(d), Some(s), "{d} dice");
        assert!(!t.should_bank(d, s - 50).unwrap() && t.should_bank(d, s).unwrap());
    }
    assert!((t.turn_value(6, 0).unwrap() - 590.6578).abs() < 5e-5);
    assert_eq!(format!("{:.2}", 100.0 * t.reach(6, 0).unwrap()), "32.73");
    assert_eq!(format!("{:.1}", t.turn_value(6, 1000).unwrap()), "1475.7");
    assert_eq!(format!("{:.1}", t.turn_value(4, 1000).unwrap()), "1003.9");
    assert_eq!(format!("{:.1}", t.turn_value(3, 400).unwrap()), "403.2");
    assert_eq!(format!("{:.2}", 100.0 * t.reach(6, 500).unwrap()), "56.95");
    assert_eq!(format!("{:.2}", 100.0 * t.reach(6, 950).unwrap()), "97.69");
    assert_eq!(format!("{:.2}", 100.0 * t.reach(1, 950).unwrap()), "33.33");
}

#[test]
fn rules_examples() {
    let t = open_default();
    let outcomes = |throw: &str| -> Vec<(u32, u8)> {
        let mut o: Vec<(u32, u8)> = t
            .options(throw.parse().unwrap(), 0, Phase::OnBoard)
            .unwrap()
            .iter()
            .map(|o| (o.points, o.dice_left))
            .collect();
        o.sort();
        o
    };
    assert_eq!(outcomes("15"), [(50, 1), (100, 1), (150, 6)]);
    assert_eq!(outcomes("123456"), [(50, 5), (100, 5), (150, 4), (2000, 6)]);
    assert_eq!(outcomes("223355"), [(50, 5), (100, 4), (1500, 6)]);
    assert_eq!(outcomes("66666"), [(600, 2), (1200, 1), (2400, 6)]);
    assert!(t.options("223346".parse().unwrap(), 0, Phase::OnBoard).unwrap().is_empty());
    // Two triples are two triples; four of a kind and a pair leave the pair.
    assert_eq!(outcomes("222333").last(), Some(&(500, 6)));
    assert_eq!(outcomes("222233").last(), Some(&(400, 2)));
}

/// Bust chances from the table's keep lists, and from every ordered throw.
#[test]
fn bust_chances() {
    let t = open_default();
    let published = [(4.0, 6.0), (16.0, 36.0), (60.0, 216.0), (204.0, 1296.0), (600.0, 7776.0), (1080.0, 46656.0)];
    for (d, (n, total)) in (1..=6).zip(published) {
        let from_table: f64 = throw_outcomes(d)
            .iter()
            .filter(|(throw, _)| t.options(Dice::from_faces(throw).unwrap(), 0, Phase::OnBoard).unwrap().is_empty())
            .map(|(_, p)| p)
            .sum();
        let brute: f64 =
            throw_outcomes(d).iter().filter(|(throw, _)| tenk_keeps(throw).is_empty()).map(|(_, p)| p).sum();
        assert!((from_table - n / total).abs() < 1e-12 && (brute - n / total).abs() < 1e-12, "{d} dice");
    }
}

/// Distinct sets of best (points, dice left) outcomes over sorted throws,
/// a bust counted as one set: the reduction the solver uses.
#[test]
fn best_outcome_sets() {
    for (d, want) in (1..=6).zip([3, 6, 14, 31, 61, 119]) {
        let mut sets: Vec<Vec<(u32, usize)>> = Vec::new();
        for (throw, _) in throw_outcomes(d) {
            let mut best = [0u32; 7];
            for (_, points, left) in tenk_keeps(&throw) {
                best[left] = best[left].max(points);
            }
            let set: Vec<(u32, usize)> = (1..=6).filter(|&l| best[l] > 0).map(|l| (best[l], l)).collect();
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
        assert_eq!(sets.len(), want, "{d} dice, by brute force");
        let classes = dice_tables_generator::tenk::outcome_classes(d, &dice_tables_generator::tenk::SEED);
        assert_eq!(classes.len() + 1, want, "{d} dice, the solver's classes");
    }
}

/// Every value of both tables, and every throw's keep list, against the
/// brute force (computed to a higher score cap: the cap does not matter).
#[test]
fn every_state_and_keep_agrees_with_brute_force() {
    let t = open_default();
    let brute = BruteTenk::new(40_000);
    for d in 1..=6u8 {
        for i in 0..SCORE_STEPS {
            let s = 50 * i as u32;
            let (v, b) = (t.turn_value(d, s).unwrap(), brute.value[usize::from(d)][i]);
            assert!((v - b).abs() <= 1e-9 * b.max(1.0), "({d}, {s}): table {v}, brute force {b}");
        }
        for i in 0..OPENING_STEPS {
            let s = 50 * i as u32;
            let (p, b) = (t.reach(d, s).unwrap(), brute.reach[usize::from(d)][i]);
            assert!((p - b).abs() <= 1e-12, "reach ({d}, {s}): table {p}, brute force {b}");
        }
    }
    // Past the top of the table banking is best for every number of dice.
    assert!((1..=6).all(|d| (18100 / 50..brute.value[d].len()).all(|i| brute.value[d][i] < (50 * i) as f64)));
    let mut keeps = 0;
    for d in 1..=6 {
        for (throw, _) in throw_outcomes(d) {
            let mut want: Vec<(String, u32, u8)> = tenk_keeps(&throw)
                .into_iter()
                .map(|(k, p, l)| (k.iter().map(|f| char::from(b'0' + f)).collect(), p, l as u8))
                .collect();
            want.sort();
            for (s, phase) in [(0, Phase::OnBoard), (850, Phase::OnBoard), (450, Phase::Opening)] {
                let options = t.options(Dice::from_faces(&throw).unwrap(), s, phase).unwrap();
                let mut got: Vec<(String, u32, u8)> =
                    options.iter().map(|o| (o.keep.to_string(), o.points, o.dice_left)).collect();
                got.sort();
                assert_eq!(got, want, "throw {throw:?}");
                // Each keep's value is the better of banking and throwing on.
                for o in options.iter() {
                    let after = s + o.points;
                    let j = (after / 50) as usize;
                    let exact = match phase {
                        Phase::OnBoard => f64::from(after).max(brute.value[usize::from(o.dice_left)][j]),
                        Phase::Opening if after >= 1000 => 1.0,
                        Phase::Opening => brute.reach[usize::from(o.dice_left)][j],
                    };
                    assert!((o.value - exact).abs() <= 1e-9 * exact.max(1.0), "{throw:?} keep {}", o.keep);
                    if phase == Phase::OnBoard {
                        assert_eq!(o.then == Then::Bank, f64::from(after) >= exact, "{throw:?} keep {}", o.keep);
                    }
                }
                if let Some(best) = options.best() {
                    assert!(options.iter().all(|o| o.value <= best.value));
                }
            }
            keeps += want.len();
        }
    }
    // The brute force's keeps of the 923 throws are all the table lists.
    let listed = t.table().header().section("option_keep").unwrap().dims[0];
    assert_eq!(keeps as u64, listed, "keeps of 923 throws");
}

#[test]
fn cli_lookups_and_bad_input() {
    let dir = default_tables().to_str().unwrap();
    let lookup = |game: &str, args: &[&str]| {
        let mut all = vec!["lookup", game, "--tables", dir];
        all.extend_from_slice(args);
        run("reader", &all, &[])
    };
    let o = lookup("tenk", &["--remaining", "6", "--score", "0", "--json"]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "{\"game\":\"tenk\",\"ev\":590.6577527473761,\"throw\":590.6577527473761,\"bank\":false}\n"
    );
    let o = lookup("10000", &["--remaining", "6", "--score", "500", "--opening", "--json"]);
    assert!(String::from_utf8(o.stdout).unwrap().starts_with("{\"game\":\"tenk\",\"p\":0.5695"));
    let o = lookup("tenk", &["--dice", "155", "--score", "0", "--json"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("\"best\":{\"keep\":\"155\",\"points\":200,\"dice_left\":6,\"then\":\"throw\"}"), "{out}");
    let o = lookup("tenk", &["--dice", "223346", "--score", "300", "--json"]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "{\"game\":\"tenk\",\"ev\":0,\"bust\":true,\"options\":[]}\n");
    for bad in [
        &["--dice", "1234561", "--score", "0"][..],
        &["--remaining", "6", "--score", "75"],
        &["--remaining", "6", "--score", "-50"],
        &["--dice", "15", "--remaining", "4", "--score", "0"],
        &["--remaining", "7", "--score", "0"],
        &["--remaining", "0", "--score", "0"],
        &["--remaining", "6", "--score", "1000", "--opening"],
        &["--remaining", "6", "--score", "30050"],
    ] {
        let o = lookup("tenk", bad);
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
    }
}
