//! yazy played to reach a target: the generator's `P*(mask, n)`
//! against an independent brute force, and the properties every such
//! table has.

use dice_tables_generator::yazy::target::{most_points, solve_target};
use dice_tables_tests::{BruteYazyTarget, Rng};

/// Random masks with 1 to 4 open categories, every target from below 0 to
/// past the most the mask can score: the solver's chance equals the brute
/// force's within 1e-12 (both exact in f64, summed in other orders).
#[test]
#[ignore = "slow: make test runs it"]
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
                    Some(Action::Score(_)) => break,
                    Some(Action::Keep(k)) => dice = throw(k),
                    None => panic!("no action with a category open"),
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

/// The yazy-target table `make test` builds (into $DICE_TABLES, as
/// `make target-tables` would): fails, never skips, when it is missing.
fn target_table() -> dice_tables_reader::yazy::target::YazyTarget {
    use dice_tables_reader::Game;
    let path = dice_tables_reader::Tables::default_dir().join("yazy-target.dtab");
    dice_tables_reader::yazy::target::YazyTarget::open(&path)
        .unwrap_or_else(|e| panic!("{e}: `make test` builds it (generator --games yazy-target)"))
}

/// Every stored chance is within 1e-7 of the exact solve's (and one at or
/// above 1e-7 is never stored as 0), for every mask and every target.
#[test]
fn the_table_holds_the_solve_within_1e_7() {
    use dice_tables_reader::yazy::Mask;
    let table = target_table();
    let solved = solve_target(table.rules().rerolls);
    let mut worst = 0.0f64;
    for mask in 0..2048usize {
        let curve = table.curve(Mask::new(mask as u32).unwrap()).unwrap();
        for n in -1..=i64::from(most_points(mask)) + 2 {
            let (got, exact) = (curve.chance(n), solved.chance(mask, n));
            worst = worst.max((got - exact).abs());
            assert!((got - exact).abs() <= 1e-7, "mask {mask} n {n}: stored {got}, exact {exact}");
            assert!(exact < 1e-7 || got > 0.0, "mask {mask} n {n}: {exact} stored as 0");
        }
    }
    assert!(worst > 0.0, "stored values are rounded");
    let start = table.chance(Mask::ALL, 200).unwrap();
    assert!((start - 0.2191338).abs() < 1e-7, "P*(start, 200) = {start}");
}

/// A lookup's options (keeps and categories, any rerolls left, any need)
/// equal the brute force's chance of each within 1e-7, and the decision
/// is optimal within the tie tolerance.
#[test]
fn lookup_options_agree_with_brute_force() {
    use dice_tables_reader::yazy::{Action, Mask};
    let table = target_table();
    let rerolls = table.rules().rerolls;
    let mut brute = BruteYazyTarget::new(rerolls);
    let mut rng = Rng::new(2323);
    let mut checked = 0;
    while checked < 60 {
        let mask = rng.below(2048) as u16;
        if !(1..=4).contains(&mask.count_ones()) {
            continue;
        }
        let mut dice = [0u8; 5];
        for d in &mut dice {
            *d = rng.below(6) as u8 + 1;
        }
        dice.sort_unstable();
        let r = rng.below(u64::from(rerolls) + 1) as u8;
        let need = rng.below(i64::from(most_points(mask as usize)) as u64 + 4) as i64 - 2;
        let roll: dice_tables_reader::Dice = dice.iter().map(|d| d.to_string()).collect::<String>().parse().unwrap();
        let options = table.options(Mask::new(u32::from(mask)).unwrap(), roll, r, need).unwrap();
        let best_exact = brute.value(mask, need, dice, r);
        for o in options.iter() {
            let exact = match o.action {
                Action::Score(c) => brute.score_value(mask, need, &dice, usize::from(c.index())),
                Action::Keep(k) if k.len() == 5 => panic!("keeping all five is scoring now, not an option"),
                Action::Keep(k) => {
                    let kept: Vec<u8> = k.faces().collect();
                    brute.keep_value(mask, need, &kept, r)
                }
            };
            assert!(
                (o.p - exact).abs() <= 1e-7,
                "mask {mask:#b} dice {roll} r {r} need {need} {:?}: {} vs {exact}",
                o.action,
                o.p
            );
        }
        let best = options.best().expect("an open category");
        assert!(
            best.p >= best_exact - 2e-7,
            "mask {mask:#b} dice {roll} r {r} need {need}: decision {} of best {best_exact}",
            best.p
        );
        checked += 1;
    }
}

/// The stored distribution under max-expected-score play is the one the
/// reader computes from the yazy table's decisions.
#[test]
fn the_stored_distribution_is_the_yazy_table_s() {
    let table = target_table();
    let stored = table.ev_distribution().unwrap();
    let tables = dice_tables_reader::Tables::open_default().unwrap();
    let computed = tables.get::<dice_tables_reader::yazy::Yazy>().unwrap().score_distribution().unwrap();
    assert_eq!(stored, computed);
}

/// `reader curve yazy`: one row per total 0 to 280 in every form; `p_best`
/// is the `--need` lookup's chance, at least `p_ev`, never increasing;
/// `p_ev` is the tail of `p_ev_exact`, which sums to 1; the SVG holds both
/// curves; bad games, missing tables and unwritable files are refused in
/// one line, the file left as it was.
#[test]
fn the_score_curve_from_the_command_line() {
    use dice_tables_tests::{default_tables, run, scratch};
    let dir = default_tables().to_str().unwrap();
    let out = run("reader", &["curve", "yazy", "--json", "--tables", dir], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "yazy");
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 281);
    let f = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap();
    let exact_sum: f64 = rows.iter().map(|r| f(r, "p_ev_exact")).sum();
    assert!((exact_sum - 1.0).abs() < 1e-12, "{exact_sum}");
    let mut previous = 1.0;
    for (t, r) in rows.iter().enumerate() {
        assert_eq!(r["score"].as_u64(), Some(t as u64));
        let tail: f64 = rows[t..].iter().map(|r| f(r, "p_ev_exact")).sum();
        assert!((f(r, "p_ev") - tail).abs() < 1e-12, "T {t}");
        assert!(f(r, "p_best") >= f(r, "p_ev") - 1e-7 && f(r, "p_best") <= previous, "T {t}: {r}");
        previous = f(r, "p_best");
    }
    for t in [150usize, 200, 250] {
        let need = run(
            "reader",
            &["lookup", "yazy", "--mask", "all", "--need", &t.to_string(), "--json", "--tables", dir],
            &[],
        );
        let p: serde_json::Value = serde_json::from_slice(&need.stdout).unwrap();
        assert_eq!(p["p"].as_f64(), Some(f(&rows[t], "p_best")), "T {t}");
    }
    assert!((f(&rows[200], "p_best") - 0.2191338).abs() < 1e-7 && (f(&rows[200], "p_ev") - 0.1821690).abs() < 1e-7);

    let scratch = scratch("curve");
    let svg = scratch.join("yazy.svg");
    let csv = run("reader", &["curve", "yazy", "--csv", "--svg", svg.to_str().unwrap(), "--tables", dir], &[]);
    assert!(csv.status.success(), "{}", String::from_utf8_lossy(&csv.stderr));
    let csv = String::from_utf8(csv.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!((lines.len(), lines[0]), (282, "score,p_best,p_ev,p_ev_exact"));
    assert_eq!(lines[201].split(',').next(), Some("200"));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.matches("<polyline").count() == 2, "{drawn}");
    let text = String::from_utf8(run("reader", &["curve", "yazy", "--tables", dir], &[]).stdout).unwrap();
    assert_eq!(text.lines().count(), 3 + 281);
    // The last player's chances, from the rows: the other's score s drawn
    // from play for the average; P*(s + 1) to win, P_EV(>= s + 1) played for it.
    let at = |s: usize, k: &str| rows.get(s).map_or(0.0, |r| f(r, k));
    let sum = |g: &dyn Fn(usize) -> f64| (0..rows.len()).map(|s| at(s, "p_ev_exact") * g(s)).sum::<f64>();
    let (to_win, for_average) = (sum(&|s| at(s + 1, "p_best")), sum(&|s| at(s + 1, "p_ev")));
    let (to_tie, tie) = (sum(&|s| at(s, "p_best")), sum(&|s| at(s, "p_ev_exact")));
    assert!(to_win > for_average && to_tie > to_win, "{to_win} {for_average} {to_tie}");
    let line = format!(
        "wins {to_win:.7} played to win, {for_average:.7} played for the average; wins or ties {to_tie:.7} played to tie, ties {tie:.7} played for the average"
    );
    assert!(text.lines().nth(1).unwrap().ends_with(&line), "{text:.400}");

    let refused = |args: &[&str], status: i32, says: &str| {
        let o = run("reader", args, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(status), "{args:?}: {err}");
        assert!(err.contains(says) && err.trim_end().lines().count() == 1, "{args:?}: {err}");
    };
    refused(&["curve", "combo", "--tables", dir], 2, "the games with target tables are yazy, yatzy, yahtzee");
    refused(&["curve", "yatzy", "--tables", dir], 1, "make target-tables");
    refused(&["curve", "yazy", "--svg", scratch.to_str().unwrap(), "--tables", dir], 2, "cannot write it");
    refused(&["curve", "yazy", "--svg", "/no/such/dir/x.svg", "--tables", dir], 2, "cannot write it");
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), drawn);
}

/// The generator reports the figures the reader shows: its `p_best_T` and
/// `p_ev_T` are, to the bit, `reader curve`'s `p_best` and `p_ev` at T.
#[test]
fn the_generator_reports_the_reader_s_figures() {
    use dice_tables_tests::{run, scratch};
    let dir = scratch("target-figures");
    let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yazy-target", "--json"], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let out = run("reader", &["curve", "yazy", "--json", "--tables", dir.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let curve: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = curve["rows"].as_array().unwrap();
    for t in [150usize, 200, 250] {
        for (key, column) in [("p_best", "p_best"), ("p_ev", "p_ev")] {
            let reported = report[format!("{key}_{t}")].as_f64().unwrap();
            assert_eq!(reported, rows[t][column].as_f64().unwrap(), "{key} at {t}");
        }
    }
}
