//! The threes table against the seed's published numbers, an independent
//! brute force over every state and every decision of reachable states, and
//! whole rounds simulated from the table's own policy.

use dice_tables_reader::threes::{ChanceOption, Model, Situation, Threes, Ties};
use dice_tables_reader::{Dice, Game};
use dice_tables_tests::{default_tables, run, throw_outcomes, BruteThrees, Rng};

fn open_default() -> Threes {
    Threes::open(default_tables().join("threes.dtab")).expect("default threes table opens")
}

/// The best choice of a roll.
fn best(t: &Threes, s: Situation, roll: &str) -> ChanceOption {
    *t.options(s, roll.parse().unwrap()).unwrap().best().expect("a throw has choices")
}

fn situation(ties: Ties, model: Model, record: Option<u8>, points: u8, after: u8) -> Situation {
    Situation { ties, model, record, points, after }
}

/// The chances are stored as f32 measured from the nearer of 0 and 1.
fn close(stored: f64, exact: f64) -> bool {
    (stored - exact).abs() <= 6e-8 * exact.min(1.0 - exact).max(0.0) + 1e-14
}

fn pct(p: f64) -> String {
    format!("{:.2}", (p * 10000.0).round() / 100.0)
}

#[test]
fn seed_numbers_ties_win_independent() {
    let t = open_default();
    let ind = |record, points, after| situation(Ties::Win, Model::Independent, record, points, after);
    // A fresh turn ending below g is a tie-losing player with record g.
    let below = |g: u8, dice: u8| t.chance(situation(Ties::Lose, Model::Independent, Some(g), 0, 0), dice).unwrap();
    let published = ["87.64", "81.16", "72.45", "61.89", "49.93", "38.23", "26.71", "16.21", "7.30", "2.11"];
    for (g, want) in (1..=10).rev().zip(published) {
        assert_eq!(pct(below(g, 5)), want, "fresh turn below {g}");
    }
    assert_eq!(pct(below(1, 2)), "7.41");
    assert_eq!(pct(below(2, 1)), "33.33");
    // Roll 1-3-6 below 3: the best keep's chance.
    assert_eq!(pct(best(&t, situation(Ties::Lose, Model::Independent, Some(3), 0, 0), "136").chance), "35.65");
    assert_eq!(pct(t.chance(ind(None, 1, 1), 0).unwrap()), "97.89");
    assert_eq!(pct(t.chance(ind(None, 1, 2), 0).unwrap()), "95.83");
    assert_eq!(pct(t.chance(ind(Some(1), 0, 4), 5).unwrap()), "6.85");
    assert_eq!(best(&t, ind(Some(8), 0, 0), "31324").keep.to_string(), "33124");
    assert_eq!(best(&t, ind(Some(8), 0, 10), "31324").keep.to_string(), "33");
    assert_eq!(best(&t, ind(Some(2), 0, 0), "31324").keep.to_string(), "33");
    assert_eq!(best(&t, ind(Some(9), 2, 4), "32").keep.to_string(), "32");
}

#[test]
fn expected_totals() {
    let t = open_default();
    let published = [3.0, 4.388889, 5.233796, 5.833858, 6.253979];
    for (n, e) in (1..=5).zip(published) {
        assert!((t.expected(0, n).unwrap() - e).abs() < 5e-7, "{n} dice");
    }
    // 1-6: keep the 1 and throw one die (1 + 3) rather than keep both (7).
    let o = t.expected_options(0, "16".parse().unwrap()).unwrap();
    let best = o.best().unwrap();
    assert_eq!((best.keep.to_string().as_str(), best.expected_total), ("1", 4.0));
}

/// Every chance in the table (380,928: both tie rules, both models, 0..15
/// after, every record, points and dice left) against the brute force.
#[test]
fn every_chance_agrees_with_brute_force() {
    let t = open_default();
    let mut checked = 0;
    for (ties, ties_win) in [(Ties::Win, true), (Ties::Lose, false)] {
        for (model, sequential) in [(Model::Independent, false), (Model::Sequential, true)] {
            let mut brute = BruteThrees::new(ties_win, sequential);
            for after in 0..16u8 {
                for record in (0..=30).map(Some).chain([None]) {
                    let turn = brute.solve(record, after);
                    for points in 0..=30u8 {
                        // The states a game reaches: the dice kept before are
                        // worth 0 to 6 each, and one kept die never 3.
                        for dice in (0..=5u8).filter(|&d| reachable(points, 5 - d)) {
                            let s = situation(ties, model, record, points, after);
                            let (stored, exact) = (t.chance(s, dice).unwrap(), turn.get(points, dice).0);
                            assert!(close(stored, exact), "{s:?} dice {dice}: table {stored}, brute force {exact}");
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    let reachable_pairs = (0..=30u8).flat_map(|p| (0..=5u8).map(move |d| (p, d))).filter(|&(p, d)| reachable(p, 5 - d));
    assert_eq!(checked, 4 * 16 * 32 * reachable_pairs.count());
}

/// Whether `kept` dice can be worth `points`: 0 to 6 each, one never 3.
fn reachable(points: u8, kept: u8) -> bool {
    points <= 6 * kept && !(kept == 1 && points == 3)
}

/// Every decision of every reachable state (points at most 6 per die kept)
/// of every table: the reader's best keep is the brute force's, and every
/// option's chance agrees.
#[test]
fn every_reachable_decision_agrees_with_brute_force() {
    let t = open_default();
    let rolls: Vec<Vec<Dice>> =
        (0..=5).map(|n| (0..multisets(n)).map(|r| Dice::unrank(n, r).unwrap()).collect()).collect();
    let mut decisions = 0;
    for (ties, ties_win) in [(Ties::Win, true), (Ties::Lose, false)] {
        for (model, sequential) in [(Model::Independent, false), (Model::Sequential, true)] {
            let mut brute = BruteThrees::new(ties_win, sequential);
            for after in [0u8, 1, 2, 4, 7, 15] {
                for record in (0..=30).map(Some).chain([None]) {
                    let turn = brute.solve(record, after);
                    for dice in 1..=5u8 {
                        for points in (0..=6 * (5 - dice)).filter(|&p| reachable(p, 5 - dice)) {
                            let s = situation(ties, model, record, points, after);
                            for roll in &rolls[usize::from(dice)] {
                                let faces: Vec<u8> = roll.faces().collect();
                                let options = t.options(s, *roll).unwrap();
                                let want = brute.best_keep(&turn, points, &faces);
                                let best = options.best().expect("a throw has choices");
                                assert_eq!(usize::from(best.keep.count), want, "{s:?} roll {roll}");
                                for o in options.iter() {
                                    let k = o.keep;
                                    let exact = if k.points > 30 { 0.0 } else { turn.get(k.points, k.dice_left).0 };
                                    assert!(close(o.chance, exact), "{s:?} roll {roll} keep {}", o.keep);
                                }
                                decisions += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // Less the 4-dice throws after one kept die worth 3, which cannot happen.
    assert_eq!(decisions, 1_851_648 - 4 * 6 * 32 * 126);
}

fn multisets(n: usize) -> usize {
    dice_tables_reader::dice::multiset_count(n)
}

/// One player's turn from the table's policy; returns the final total.
fn play_turn(t: &Threes, rng: &mut Rng, s: Situation) -> u8 {
    let mut points = 0u8;
    let mut left = 5usize;
    while left > 0 {
        let faces: Vec<u8> = (0..left).map(|_| rng.below(6) as u8 + 1).collect();
        let roll = Dice::from_faces(&faces).unwrap();
        let best = t.options(Situation { points, ..s }, roll).unwrap().best().unwrap().keep;
        points = best.points;
        left = usize::from(best.dice_left);
    }
    points
}

/// Plays `rounds` rounds of `players`, every player from the table's policy
/// under `model`; returns the first player's observed success rate and the
/// table's prediction.
fn simulate(t: &Threes, ties: Ties, model: Model, players: u8, rounds: u32, seed: u64) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let mut successes = 0u32;
    for _ in 0..rounds {
        let mut totals = Vec::with_capacity(usize::from(players));
        for i in 0..players {
            let record = totals.iter().copied().min();
            let s = situation(ties, model, record, 0, players - 1 - i);
            totals.push(play_turn(t, &mut rng, s));
        }
        let first = totals[0];
        let rest = &totals[1..];
        let survived = match ties {
            Ties::Win => rest.iter().all(|&x| x >= first),
            Ties::Lose => rest.iter().all(|&x| x > first),
        };
        successes += u32::from(survived);
    }
    let predicted = t.chance(situation(ties, model, None, 0, players - 1), 5).unwrap();
    (f64::from(successes) / f64::from(rounds), predicted)
}

/// The exact distribution of a player's final total (0 to 30) when every
/// choice is the table's: mass flows from (points, dice left) through every
/// outcome of the throw to the state the table's best choice leads to.
fn total_distribution(t: &Threes, s: Situation, outcomes: &[Vec<(Dice, f64)>]) -> [f64; 31] {
    let mut mass = [[0.0f64; 6]; 31];
    mass[0][5] = 1.0;
    // Every choice keeps at least one die, so dice left only fall.
    for n in (1..=5).rev() {
        for points in 0..=30 {
            let m = mass[points][n];
            if m == 0.0 {
                continue;
            }
            for (roll, q) in &outcomes[n] {
                let s = Situation { points: points as u8, ..s };
                let keep = t.options(s, *roll).unwrap().best().unwrap().keep;
                mass[usize::from(keep.points)][usize::from(keep.dice_left)] += m * q;
            }
        }
    }
    std::array::from_fn(|points| mass[points][0])
}

/// The exact chance that the first of `players` succeeds when every player
/// plays the table's policy under `model`. While the first player's total t
/// survives, every later player faces t as the record, so the chance is the
/// sum over t of P(first ends at t) times each later player's chance of
/// ending above t (at or above, when ties win).
fn exact_round_success(t: &Threes, ties: Ties, model: Model, players: u8) -> f64 {
    let outcomes: Vec<Vec<(Dice, f64)>> = (0..=5)
        .map(|n| throw_outcomes(n).into_iter().map(|(faces, p)| (Dice::from_faces(&faces).unwrap(), p)).collect())
        .collect();
    let first = total_distribution(t, situation(ties, model, None, 0, players - 1), &outcomes);
    (0..=30u8)
        .map(|total| {
            let later: f64 = (1..players)
                .map(|i| {
                    let d = total_distribution(t, situation(ties, model, Some(total), 0, players - 1 - i), &outcomes);
                    let from = usize::from(total) + usize::from(ties == Ties::Lose);
                    d[from.min(31)..].iter().sum::<f64>()
                })
                .product();
            first[usize::from(total)] * later
        })
        .sum()
}

/// Whole rounds played from the table's own policy (every player) succeed
/// for the first player as often as the exact chance of that process,
/// within 4 standard errors: for the sequential model that chance is the
/// table's own prediction (the model is exact); for the independent model,
/// which assumes later players play only to beat you, it is computed from
/// the table's policy by `exact_round_success`.
#[test]
fn simulated_rounds_match_their_exact_chances() {
    let t = open_default();
    let rounds = 100_000;
    for ties in [Ties::Win, Ties::Lose] {
        for players in [2u8, 3, 5] {
            for (model, seed) in [(Model::Sequential, 7), (Model::Independent, 99)] {
                let (observed, predicted) = simulate(&t, ties, model, players, rounds, seed + u64::from(players));
                let exact = match model {
                    Model::Sequential => predicted,
                    Model::Independent => exact_round_success(&t, ties, model, players),
                };
                let se = (exact * (1.0 - exact) / f64::from(rounds)).sqrt();
                assert!(
                    (observed - exact).abs() <= 4.0 * se,
                    "{model:?}, ties {ties:?}, {players} players: simulated {observed}, exact {exact} (se {se})"
                );
            }
        }
    }
    // The evaluator agrees with the table where the table is exact.
    for players in [2u8, 3] {
        let exact = exact_round_success(&t, Ties::Win, Model::Sequential, players);
        let table = t.chance(situation(Ties::Win, Model::Sequential, None, 0, players - 1), 5).unwrap();
        assert!((exact - table).abs() < 1e-6, "{players} players: {exact} vs {table}");
    }
}

#[test]
fn cli_lookups_and_bad_input() {
    let dir = default_tables().to_str().unwrap();
    let lookup = |args: &[&str]| {
        let mut all = vec!["lookup", "threes", "--tables", dir];
        all.extend_from_slice(args);
        run("reader", &all, &[])
    };
    let o = lookup(&["--dice", "31324", "--record", "8", "--model", "independent", "--json"]);
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.starts_with(
            "{\"game\":\"threes\",\"p\":1,\"best\":{\"keep\":\"33124\"},\"options\":[{\"keep\":\"3\",\"p\":0.84"
        ),
        "{out}"
    );
    let o = lookup(&["--remaining", "5", "--objective", "expected", "--json"]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "{\"game\":\"threes\",\"ev\":6.25397852594482}\n");
    let o = lookup(&["--remaining", "0", "--points", "1", "--after", "1", "--model", "independent", "--json"]);
    assert!(String::from_utf8(o.stdout).unwrap().starts_with("{\"game\":\"threes\",\"p\":0.9789"));
    for bad in [
        &["--dice", "123456"][..],
        &["--dice", "1237"],
        &["--dice", "12", "--remaining", "2"],
        &["--remaining", "5", "--points", "31"],
        &["--remaining", "5", "--after", "16"],
        &["--remaining", "5", "--record", "31"],
        &["--remaining", "6"],
        &["--remaining", "5", "--record", "4", "--objective", "expected"],
        &["--remaining", "5", "--ties", "draw"],
        &["--remaining", "5", "--model", "greedy"],
        &[],
    ] {
        let o = lookup(bad);
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(err.starts_with("reader: "), "{bad:?}: {err}");
    }
}
