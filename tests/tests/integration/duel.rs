//! Two-player 10000 (`duel`, `duel-cardgames`): every state of small goals
//! against an independent brute force, the fixed point of the full tables
//! checked and its error bounded, sanity checks that cannot pass by
//! accident, 200,000 games per preset, the table's player against the
//! points-maximising tenk player, and the command line.

use std::collections::HashMap;
use std::path::PathBuf;

use dice_tables_reader::duel::{CardgamesDuel, Duel, DuelTurn, Scoring, SeedDuel};
use dice_tables_reader::tenk::{Phase, Tenk, Then};
use dice_tables_reader::{Dice, Game};
use dice_tables_tests::duel::BruteDuel;
use dice_tables_tests::{default_tables, run, scratch, Rng, TenkScoring};

fn seed() -> SeedDuel {
    SeedDuel::open(default_tables().join("duel.dtab")).expect("default duel table opens")
}

fn cardgames() -> CardgamesDuel {
    CardgamesDuel::open(default_tables().join("duel-cardgames.dtab")).expect("default duel-cardgames table opens")
}

/// Both duel tables for a goal and entry, written by the generator.
pub(crate) fn small_tables(goal: u32, entry: u32) -> PathBuf {
    let dir = scratch(&format!("duel-{goal}-{entry}"));
    let out = run(
        "generator",
        &[
            "--out",
            dir.to_str().unwrap(),
            "--games",
            "duel,duel-cardgames",
            "--duel-goal",
            &goal.to_string(),
            "--duel-entry",
            &entry.to_string(),
        ],
        &[],
    );
    assert!(out.status.success(), "generator: {}", String::from_utf8_lossy(&out.stderr));
    dir
}

fn dice_of(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.below(6) as u8 + 1).collect()
}

fn as_dice(faces: &[u8]) -> Dice {
    Dice::from_faces(faces).expect("1 to 6 dice")
}

/// Every keep of random throws at random states: the reader's query-time
/// turn solve against the brute force's, keep by keep.
fn check_options<S: Scoring>(duel: &Duel<S>, brute: &BruteDuel, samples: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let totals = u64::from(brute.goal / 50);
    for _ in 0..samples {
        let (a, b) = (rng.below(totals) as u32 * 50, rng.below(totals) as u32 * 50);
        let n = rng.below(6) as usize + 1;
        let score = if n == 6 && rng.below(3) == 0 { 0 } else { 50 * (1 + rng.below(totals + 4) as u32) };
        let throw = dice_of(&mut rng, n);
        let options = duel.options(a, b, as_dice(&throw), score).unwrap();
        let expected = brute.options(a, b, &throw, score);
        assert_eq!(options.len(), expected.len(), "({a}, {b}) throw {throw:?} at {score}");
        for (kept, p) in expected {
            let o = options.iter().find(|o| o.keep == as_dice(&kept)).expect("the same keeps");
            assert!((o.p - p).abs() < 1e-9, "({a}, {b}) throw {throw:?} at {score}, keep {kept:?}: {} vs {p}", o.p);
        }
        if let Some(best) = options.best() {
            assert!(options.iter().all(|o| o.p <= best.p));
        } else {
            assert!((duel.turn(a, b).unwrap().bust() - (1.0 - brute.win_chance(b, a))).abs() < 1e-9);
        }
    }
}

/// Goals 1000 and 2000 under every entry the issue names: every pair of
/// totals of both tables (goal 2000: the seed's) and every keep of random
/// throws agree with the brute force to 1e-9 (in practice to rounding).
#[test]
fn every_state_agrees_with_brute_force_at_small_goals() {
    for (goal, entry) in [(1000, 1000), (1000, 500), (1000, 0), (2000, 1000)] {
        let dir = small_tables(goal, entry);
        let mut worst: f64 = 0.0;
        let mut check = |name: &str, win: &dyn Fn(u32, u32) -> f64, brute: &BruteDuel| {
            for a in (0..goal).step_by(50) {
                for b in (0..goal).step_by(50) {
                    let (got, want) = (win(a, b), brute.win_chance(a, b));
                    assert!(
                        (got - want).abs() < 1e-9,
                        "{name} goal {goal} entry {entry}: W({a}, {b}) = {got}, brute force {want}"
                    );
                    worst = worst.max((got - want).abs());
                }
            }
        };
        let duel = SeedDuel::open(dir.join("duel.dtab")).unwrap();
        let brute = BruteDuel::solve(TenkScoring::Seed, goal, entry);
        check("duel", &|a, b| duel.win_chance(a, b).unwrap(), &brute);
        check_options(&duel, &brute, 100, u64::from(goal + entry));
        if goal == 1000 {
            let duel = CardgamesDuel::open(dir.join("duel-cardgames.dtab")).unwrap();
            let brute = BruteDuel::solve(TenkScoring::Cardgames, goal, entry);
            check("duel-cardgames", &|a, b| duel.win_chance(a, b).unwrap(), &brute);
            check_options(&duel, &brute, 100, u64::from(goal + entry + 1));
        }
        assert!(worst < 1e-12, "goal {goal} entry {entry}: worst difference {worst:e}");
    }
}

/// The full tables' lookups inside turns, keep by keep, against the brute
/// force's turn over the same stored chances.
#[test]
fn full_tables_options_agree_with_brute_force() {
    let win = |path: &str| -> Vec<f64> {
        let bytes = std::fs::read(default_tables().join(path)).unwrap();
        let table = dice_tables_reader::Table::from_vec(bytes).unwrap();
        let raw = table.section("win").unwrap().unwrap();
        raw.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect()
    };
    let brute = BruteDuel::over(TenkScoring::Seed, 10_000, 1000, win("duel.dtab"));
    check_options(&seed(), &brute, 150, 7);
    let brute = BruteDuel::over(TenkScoring::Cardgames, 10_000, 0, win("duel-cardgames.dtab"));
    check_options(&cardgames(), &brute, 150, 8);
}

/// The fixed point of the full tables: every stored chance equals the turn
/// the reader solves from the stored chances (the Bellman equation) to
/// 1e-14, and the error that residual allows is bounded below 1e-12.
///
/// The bound, by descending sum of totals: a pair (u, v) = (W(a, b), W(b, a))
/// with largest residual r, whose banks lead to pairs with errors at most E
/// (the largest error of W(b, a + s) and W(a, b + s), s > 0), has errors
/// |e_u| <= r + (1 - b_u) E + b_u |e_v| and alike for v, where b is the
/// slope of the turn's value in the bust value (the chance that the chosen
/// strategy busts); so |e_u| <= E + r (1 + b_u) / (1 - b_u b_v). The slopes
/// are the generator's (of the strategies it found); the residuals are the
/// reader's (its own turn solve, sharing no code with the generator's).
#[test]
fn full_tables_are_the_fixed_point_to_1e_12() {
    use dice_tables_generator::duel::{solve, CARDGAMES_RULES, SEED_RULES};
    let (seed, cardgames) = (seed(), cardgames());
    for (name, rules) in [("duel", SEED_RULES), ("duel-cardgames", CARDGAMES_RULES)] {
        let solution = solve(&rules, &mut |_, _| {});
        let n = solution.totals();
        let residual = |a: usize, b: usize| -> f64 {
            let (a, b) = (a as u32 * 50, b as u32 * 50);
            match name {
                "duel" => residual_of(&seed, a, b),
                _ => residual_of(&cardgames, a, b),
            }
        };
        // error[a][b], and above[a][b]: the largest error of W(a, b') for b' >= b.
        let mut error = vec![0.0f64; n * n];
        let mut above = vec![0.0f64; n * (n + 1)];
        let mut worst_residual: f64 = 0.0;
        for sum in (0..=2 * (n - 1)).rev() {
            for a in sum.saturating_sub(n - 1)..=sum.min(n - 1) {
                let b = sum - a;
                if a > b {
                    continue;
                }
                let r = residual(a, b).max(residual(b, a));
                worst_residual = worst_residual.max(r);
                let (bu, bv) = (solution.bust_slope[a * n + b], solution.bust_slope[b * n + a]);
                assert!(
                    (0.0..1.0).contains(&bu) && (0.0..1.0).contains(&bv),
                    "{name}: slopes {bu}, {bv} at ({a}, {b})"
                );
                let banks = above[b * (n + 1) + a + 1].max(above[a * (n + 1) + b + 1]);
                error[a * n + b] = banks + r * (1.0 + bu) / (1.0 - bu * bv);
                error[b * n + a] = banks + r * (1.0 + bv) / (1.0 - bu * bv);
            }
            for a in sum.saturating_sub(n - 1)..=sum.min(n - 1) {
                let b = sum - a;
                above[a * (n + 1) + b] = error[a * n + b].max(above[a * (n + 1) + b + 1]);
            }
        }
        let bound = error.iter().copied().fold(0.0, f64::max);
        eprintln!("{name}: largest residual {worst_residual:e}, error bound {bound:e}");
        assert!(worst_residual < 1e-14, "{name}: residual {worst_residual:e}");
        assert!(bound < 1e-12, "{name}: error bound {bound:e}");
    }
}

fn residual_of<S: Scoring>(duel: &Duel<S>, a: u32, b: u32) -> f64 {
    let turn = duel.turn(a, b).unwrap();
    (turn.before_throw(6, 0).unwrap().throw - duel.win_chance(a, b).unwrap()).abs()
}

/// Checks that cannot pass by accident.
#[test]
fn sanity() {
    let duel = seed();
    // 9,950 against 0, six dice, 50 in the turn: banking wins at once.
    let state = duel.before_throw(9950, 0, 6, 50).unwrap();
    assert_eq!((state.best, state.bank), (Then::Bank, Some(1.0)));
    assert!(state.throw < 1.0);
    let options = duel.options(9950, 0, "112346".parse().unwrap(), 0).unwrap();
    let best = options.best().unwrap();
    assert_eq!((best.then, best.p), (Then::Bank, 1.0));
    // On 0 with entry 1000, 950 in the turn cannot be banked.
    assert_eq!(duel.before_throw(0, 0, 2, 950).unwrap().bank, None);
    assert_eq!(duel.turn(0, 0).unwrap().bank(950), None);
    assert!(duel.turn(0, 0).unwrap().bank(1000).is_some());
    for (name, w) in [("duel", chances(&seed())), ("duel-cardgames", chances(&cardgames()))] {
        let n = 200;
        for a in 0..n {
            for b in 0..n {
                let p = w[a * n + b];
                assert!((0.0..=1.0).contains(&p), "{name} ({a}, {b}): {p}");
                // More points never hurt the mover, and never help the opponent.
                if a + 1 < n {
                    assert!(w[(a + 1) * n + b] >= p - 1e-12, "{name}: W({}, {b}) < W({a}, {b})", a + 1);
                }
                if b + 1 < n {
                    assert!(w[a * n + b + 1] <= p + 1e-12, "{name}: W({a}, {}) > W({a}, {b})", b + 1);
                }
            }
        }
    }
    // A bust hands the same totals to the opponent: the busting throw's
    // chance is one minus theirs, and the turn's start value mixes it in.
    let mut rng = Rng::new(5);
    for _ in 0..50 {
        let (a, b) = (rng.below(200) as u32 * 50, rng.below(200) as u32 * 50);
        let turn = duel.turn(a, b).unwrap();
        assert_eq!(turn.bust(), 1.0 - duel.win_chance(b, a).unwrap());
        assert!(duel.options(a, b, "2346".parse().unwrap(), 300).unwrap().is_empty());
        let out = run(
            "reader",
            &[
                "lookup",
                "duel",
                "--me",
                &a.to_string(),
                "--opp",
                &b.to_string(),
                "--dice",
                "2346",
                "--score",
                "300",
                "--json",
            ],
            &[("DICE_TABLES", default_tables().to_str().unwrap())],
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!((json["p"].as_f64().unwrap() - (1.0 - duel.win_chance(b, a).unwrap())).abs() < 1e-15);
        assert_eq!(json["bust"], true);
    }
}

fn chances<S: Scoring>(duel: &Duel<S>) -> Vec<f64> {
    let mut w = Vec::new();
    for a in (0..10_000).step_by(50) {
        for b in (0..10_000).step_by(50) {
            w.push(duel.win_chance(a, b).unwrap());
        }
    }
    w
}

/// Who plays: the table's win-maximiser, or the tenk table's
/// points-maximiser (opening: the chance of reaching 1000; on the board:
/// expected points), which with `banks_to_win` also banks whenever banking
/// reaches the goal.
#[derive(Clone, Copy, PartialEq)]
enum Player {
    Table,
    Points { banks_to_win: bool },
}

/// Plays `games` games between `players[0]` (moving first in even games,
/// or in all with `alternate` false) and `players[1]`; returns how many
/// player 0 won and how many the first mover won. Games are advanced by
/// ascending sum of totals, so each (mover, opponent) turn the table's
/// player faces is solved once per sum and shared by every game there.
fn play<S: Scoring>(
    duel: &Duel<S>,
    tenk: &Tenk,
    players: [Player; 2],
    games: usize,
    alternate: bool,
    seed: u64,
) -> (usize, usize) {
    let goal = duel.params().goal;
    struct State {
        totals: [u32; 2],
        mover: usize,
        first: usize,
    }
    let mut rng = Rng::new(seed);
    let mut states: Vec<State> = (0..games)
        .map(|g| {
            let first = if alternate { g % 2 } else { 0 };
            State { totals: [0, 0], mover: first, first }
        })
        .collect();
    let sums = (2 * goal / 50) as usize;
    let mut by_sum: Vec<Vec<usize>> = vec![Vec::new(); sums];
    by_sum[0] = (0..games).collect();
    let (mut won_by_0, mut won_by_first) = (0, 0);
    for sum in 0..sums {
        let mut turns: HashMap<(u32, u32), DuelTurn<'_, S>> = HashMap::new();
        while let Some(g) = by_sum[sum].pop() {
            let state = &mut states[g];
            let (me, opp) = (state.totals[state.mover], state.totals[1 - state.mover]);
            let player = players[state.mover];
            let banked = match player {
                Player::Table => {
                    let turn = turns.entry((me, opp)).or_insert_with(|| duel.turn(me, opp).unwrap());
                    play_turn(&mut rng, |throw, score| {
                        let options = turn.options(throw, score).unwrap();
                        options.best().map(|o| (o.points, o.dice_left, o.then))
                    })
                }
                Player::Points { banks_to_win } => play_turn(&mut rng, |throw, score| {
                    let phase = if me == 0 { Phase::Opening } else { Phase::OnBoard };
                    let options = tenk.options(throw, score, phase).unwrap();
                    options.best().map(|o| {
                        let then = if banks_to_win && me + score + o.points >= goal { Then::Bank } else { o.then };
                        (o.points, o.dice_left, then)
                    })
                }),
            };
            let mover = state.mover;
            state.totals[mover] += banked;
            if state.totals[mover] >= goal {
                won_by_0 += usize::from(mover == 0);
                won_by_first += usize::from(mover == state.first);
                continue;
            }
            state.mover = 1 - mover;
            by_sum[((state.totals[0] + state.totals[1]) / 50) as usize].push(g);
        }
    }
    (won_by_0, won_by_first)
}

/// One turn: throw, ask `choose` (the points, dice left and what follows
/// of the best keep, `None` on a bust), until a bank or a bust; the points banked.
fn play_turn(rng: &mut Rng, mut choose: impl FnMut(Dice, u32) -> Option<(u32, u8, Then)>) -> u32 {
    let (mut dice, mut score) = (6usize, 0u32);
    loop {
        let throw = as_dice(&dice_of(rng, dice));
        let Some((points, left, then)) = choose(throw, score) else {
            return 0;
        };
        score += points;
        dice = usize::from(left);
        if then == Then::Bank {
            return score;
        }
    }
}

fn tenk() -> Tenk {
    Tenk::open(default_tables().join("tenk.dtab")).unwrap()
}

/// 200,000 games a preset between two of the table's players: the first
/// mover's win rate lies within 4 standard errors of the table's chance.
#[test]
fn simulated_games_match_the_first_players_chance() {
    let games = 200_000;
    let check = |name: &str, p: f64, (_, first): (usize, usize)| {
        let rate = first as f64 / games as f64;
        let se = (p * (1.0 - p) / games as f64).sqrt();
        eprintln!("{name}: first player won {rate:.5} of {games} games; table {p:.5} (se {se:.5})");
        assert!((rate - p).abs() < 4.0 * se, "{name}: first player won {rate}, table says {p} (se {se})");
    };
    let (duel, tenk) = (seed(), tenk());
    check("duel", duel.win_chance(0, 0).unwrap(), play(&duel, &tenk, [Player::Table; 2], games, false, 11));
    let duel = cardgames();
    check("duel-cardgames", duel.win_chance(0, 0).unwrap(), play(&duel, &tenk, [Player::Table; 2], games, false, 12));
}

/// The table's player against the tenk table's points-maximiser, 200,000
/// games each, starting alternately: the table's player wins more than half
/// (by more than 4 standard errors), against the pure points player (within
/// 4 standard errors of the generator's exact figure) and against one that
/// also banks whenever banking wins.
#[test]
fn the_win_maximiser_beats_the_points_maximiser() {
    use dice_tables_generator::duel::{solve, versus_points, SEED_RULES};
    let solution = solve(&SEED_RULES, &mut |_, _| {});
    let exact =
        versus_points(&solution, dice_tables_generator::tenk::solve, dice_tables_generator::cpu::Simd::PORTABLE)
            .expect("the seed's rules")
            .average();
    let games = 200_000;
    let (duel, tenk) = (seed(), tenk());
    for banks_to_win in [false, true] {
        let (won, _) = play(&duel, &tenk, [Player::Table, Player::Points { banks_to_win }], games, true, 13);
        let rate = won as f64 / games as f64;
        let se = (rate * (1.0 - rate) / games as f64).sqrt();
        eprintln!("table player vs points player (banks to win: {banks_to_win}): {rate:.5} (se {se:.5}); exact, pure: {exact:.5}");
        assert!(rate - 4.0 * se > 0.5, "banks to win {banks_to_win}: the table's player won {rate} (se {se})");
        if !banks_to_win {
            assert!((rate - exact).abs() < 4.0 * se, "won {rate}, exact {exact} (se {se})");
        }
    }
}

#[test]
fn command_line() {
    let tables = default_tables().to_str().unwrap();
    let env = [("DICE_TABLES", tables)];
    let out = run(
        "reader",
        &["lookup", "duel", "--me", "2500", "--opp", "4000", "--dice", "155", "--score", "300", "--json"],
        &env,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["game"], "duel");
    let best = &json["best"];
    let options = json["options"].as_array().unwrap();
    let duel = seed();
    let want = duel.options(2500, 4000, "155".parse().unwrap(), 300).unwrap();
    assert_eq!(options.len(), want.len());
    let top = want.best().unwrap();
    assert_eq!(json["p"].as_f64().unwrap(), top.p);
    assert_eq!(best["keep"], top.keep.to_string());
    assert_eq!(best["points"], top.points);
    assert_eq!(best["dice_left"], top.dice_left);
    assert_eq!(best["then"], if top.then == Then::Bank { "bank" } else { "throw" });
    for (o, w) in options.iter().zip(want.iter()) {
        assert_eq!(o["keep"], w.keep.to_string());
        assert_eq!(o["p"].as_f64().unwrap(), w.p);
    }
    // The alias, the cardgames rules, the state before a throw, the turn start.
    for args in [
        &["lookup", "10000-duel", "--me", "2500", "--opp", "4000", "--dice", "155", "--score", "300"][..],
        &["lookup", "duel", "--me", "2500", "--opp", "4000", "--dice", "155", "--score", "300", "--rules", "cardgames"],
        &["lookup", "duel", "--me", "0", "--opp", "0"],
    ] {
        let out = run("reader", args, &env);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = run(
        "reader",
        &["lookup", "duel", "--me", "2500", "--opp", "4000", "--remaining", "3", "--score", "300", "--json"],
        &env,
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let state = duel.before_throw(2500, 4000, 3, 300).unwrap();
    assert_eq!(json["throw"].as_f64().unwrap(), state.throw);
    assert_eq!(json["bank"].as_f64().unwrap(), state.bank.unwrap());
    assert_eq!(json["p"].as_f64().unwrap(), state.p());
    let out = run("reader", &["lookup", "duel", "--me", "0", "--opp", "0", "--json"], &env);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["p"].as_f64().unwrap(), duel.win_chance(0, 0).unwrap());
    // Bad input: one line naming what was wrong, exit 2.
    for (args, says) in [
        (&["--me", "2525", "--opp", "0"][..], "not a multiple of 50"),
        (&["--me", "0", "--opp", "10000"], "already won"),
        (&["--me", "10050", "--opp", "0"], "already won"),
        (&["--me", "-50", "--opp", "0"], "negative"),
        (&["--me", "0", "--opp", "0", "--remaining", "0", "--score", "300"], "1 to 6"),
        (&["--me", "0", "--opp", "0", "--dice", "1234561", "--score", "300"], "7 dice"),
        (&["--me", "0", "--opp", "0", "--dice", "155", "--score", "0"], "turn score 0"),
        (&["--me", "0", "--opp", "0", "--dice", "155", "--score", "75"], "multiple of 50"),
        (&["--me", "0", "--opp", "0", "--score", "300"], "--dice or --remaining"),
        (&["--me", "0", "--opp", "0", "--dice", "155", "--remaining", "3"], "cannot both be given"),
        (&["--me", "0", "--opp", "0", "--rules", "house"], "house"),
        (&["--opp", "0"], "--me"),
    ] {
        let mut all = vec!["lookup", "duel"];
        all.extend_from_slice(args);
        let out = run("reader", &all, &env);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err:?} should say {says:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn artifacts_are_at_most_2_mb() {
    for name in ["duel.dtab", "duel-cardgames.dtab"] {
        let len = std::fs::metadata(default_tables().join(name)).unwrap().len();
        assert!(len <= 2_000_000, "{name}: {len} bytes");
    }
}
