//! yatzy and yahtzee end to end: the generated tables against the published
//! optimal values and against an independent evaluator (tests/src/sheet.rs)
//! on random turn-start states and every option of random rolls, for both
//! games and both joker readings.

use std::path::Path;
use std::sync::OnceLock;

use dice_tables_generator::play::{mean_sd_se, score_histogram};
use dice_tables_reader::sheet::{Action, ScoreSheet, SheetGame, YahtzeeFree, YahtzeeFreeGame, YahtzeeGame, YatzyGame};
use dice_tables_reader::{Dice, Game, Yahtzee, Yatzy};
use dice_tables_tests::sheet::{BruteSheet, Rules};
use dice_tables_tests::{default_tables, run, scratch, Rng};

/// The default tables' yatzy and yahtzee (forced joker).
fn yatzy() -> Yatzy {
    Yatzy::open(default_tables().join("yatzy.dtab")).unwrap()
}

fn yahtzee_forced() -> Yahtzee {
    Yahtzee::open(default_tables().join("yahtzee.dtab")).unwrap()
}

/// The directory of a yahtzee table under the free joker reading, generated once.
fn yahtzee_free_dir() -> &'static Path {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("yahtzee-free");
        let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yahtzee-free"], &[]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

fn yahtzee_free() -> YahtzeeFree {
    YahtzeeFree::open(yahtzee_free_dir().join("yahtzee-free.dtab")).unwrap()
}

#[test]
fn published_optimal_values() {
    let start = |v: f64, published: f64, what: &str| {
        assert!((v - published).abs() < 1e-6, "{what}: {v} vs published {published}");
    };
    let t = yatzy();
    start(t.turn_start_value(t.state(32767, 0, false).unwrap()).unwrap(), 248.4399894, "yatzy");
    // Four published decimals; seven of our own, pinned.
    let t = yahtzee_forced();
    let v = t.turn_start_value(t.state(8191, 0, false).unwrap()).unwrap();
    start(v, 254.5877287, "yahtzee forced");
    assert!((v - 254.5877).abs() < 5e-5);
    let t = yahtzee_free();
    let v = t.turn_start_value(t.state(8191, 0, false).unwrap()).unwrap();
    start(v, 254.5896095, "yahtzee free");
    assert!((v - 254.5896).abs() < 5e-5);
}

/// The evaluator's scoring is the library's on every roll and category,
/// jokers included (every five of a kind, under every mask of a few
/// categories, with and without the flag).
#[test]
fn scoring_agrees_with_the_evaluator() {
    let five_dice: Vec<[u8; 5]> = (0..252).map(|r| to_faces(Dice::unrank(5, r).unwrap())).collect();
    for (sheet_rules, scoring) in [
        (Rules::Yatzy, YatzyGame::scoring(&yatzy().rules())),
        (Rules::Yahtzee { forced: true }, YahtzeeGame::scoring(&yahtzee_forced().rules())),
        (Rules::Yahtzee { forced: false }, YahtzeeFreeGame::scoring(&yahtzee_free().rules())),
    ] {
        let categories = sheet_rules.categories();
        let mut rng = Rng::new(7);
        for dice in &five_dice {
            let d = Dice::from_faces(dice).unwrap();
            for c in 0..categories {
                assert_eq!(u32::from(scoring.points(&d.counts(), c)), sheet_rules.points(dice, c), "{dice:?} {c}");
            }
            let masks: Vec<u32> = (0..40).map(|_| rng.below(1 << categories) as u32).collect();
            for mask in masks.into_iter().chain([0, (1 << categories) - 1, 1 << 12, 0b1_0000_0011_1111]) {
                // yatzy has no flag.
                for flag in [false, true].into_iter().take(if sheet_rules == Rules::Yatzy { 1 } else { 2 }) {
                    let mut ours = Vec::new();
                    scoring.scores(mask & ((1 << categories) - 1), flag, &d, |s| {
                        ours.push((s.category, u32::from(s.points), u32::from(s.upper), s.bonus_flag))
                    });
                    let theirs = sheet_rules.scorings(mask & ((1 << categories) - 1), flag, dice);
                    assert_eq!(ours, theirs, "{sheet_rules:?} {dice:?} mask {mask:b} flag {flag}");
                }
            }
        }
    }
}

fn to_faces(d: Dice) -> [u8; 5] {
    d.faces().collect::<Vec<u8>>().try_into().unwrap()
}

/// A random reachable state with at most `most_open` categories open: its
/// mask, upper total and flag.
fn random_state<G: SheetGame>(t: &ScoreSheet<G>, rng: &mut Rng, most_open: u32) -> (u32, u32, bool) {
    let categories = G::CATEGORIES.len() as u32;
    loop {
        let mask = rng.below(1 << categories) as u32;
        if mask.count_ones() > most_open || mask == 0 {
            continue;
        }
        // An upper total some choice of counts in the filled boxes makes.
        let upper: u32 = (0..6).filter(|f| mask >> f & 1 == 0).map(|f| (f + 1) * rng.below(6) as u32).sum();
        let flag = G::FLAGS == 2 && mask >> 11 & 1 == 0 && rng.below(2) == 1;
        assert!(t.state(mask, upper, flag).is_ok(), "mask {mask} upper {upper} flag {flag}");
        return (mask, upper, flag);
    }
}

/// Turn-start values at random states, and every option of random rolls
/// there, against the evaluator: within the table's rounding (5e-8) and
/// float noise.
fn agrees_with_the_evaluator<G: SheetGame>(t: &ScoreSheet<G>, rules: Rules, seed: u64) {
    let mut brute = BruteSheet::new(rules);
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for _ in 0..12 {
        let (mask, upper, flag) = random_state(t, &mut rng, 4);
        let state = t.state(mask, upper, flag).unwrap();
        let table = t.turn_start_value(state).unwrap();
        let exact = brute.turn_start(mask, upper, flag);
        assert!((table - exact).abs() < 1e-7, "{rules:?} mask {mask} upper {upper} flag {flag}: {table} vs {exact}");
        for _ in 0..4 {
            let dice = Dice::unrank(5, rng.below(252) as usize).unwrap();
            let rerolls = rng.below(3) as u8;
            let options = t.options(state, dice, rerolls).unwrap();
            let brute_options = brute.options(mask, upper, flag, &to_faces(dice), usize::from(rerolls));
            assert_eq!(options.len(), brute_options.len(), "{rules:?} {dice} r{rerolls}");
            for o in options.iter() {
                let key = match o.action {
                    Action::Keep(k) => Ok(k.faces().collect::<Vec<u8>>()),
                    Action::Score(c) => Err(usize::from(c)),
                };
                let (_, exact) = brute_options.iter().find(|(k, _)| *k == key).expect("the same options");
                assert!(
                    (o.ev - exact).abs() < 1e-7,
                    "{rules:?} mask {mask} u {upper} {dice} r{rerolls} {o:?}: {exact}"
                );
                compared += 1;
            }
            // The best action is exactly optimal (ties within 1e-9).
            let brute_best = brute_options.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
            let chosen = brute_value(&brute_options, options.best().unwrap().action);
            assert!(
                chosen >= brute_best - 1e-9,
                "{rules:?} mask {mask} u {upper} {dice} r{rerolls}: {chosen} < {brute_best}"
            );
        }
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn yatzy_agrees_with_the_evaluator() {
    agrees_with_the_evaluator(&yatzy(), Rules::Yatzy, 1);
}

#[test]
fn yahtzee_forced_agrees_with_the_evaluator() {
    agrees_with_the_evaluator(&yahtzee_forced(), Rules::Yahtzee { forced: true }, 2);
}

#[test]
fn yahtzee_free_agrees_with_the_evaluator() {
    agrees_with_the_evaluator(&yahtzee_free(), Rules::Yahtzee { forced: false }, 3);
}

/// The evaluator's value of the reader's action.
fn brute_value(options: &[(Result<Vec<u8>, usize>, f64)], action: Action) -> f64 {
    let key = match action {
        Action::Keep(k) => Ok(k.faces().collect::<Vec<u8>>()),
        Action::Score(c) => Err(usize::from(c)),
    };
    options.iter().find(|(k, _)| *k == key).expect("the same options").1
}

/// The yatzy table lists decisions where its stored values would mislead;
/// lookups give the listed action, and the evaluator confirms it is
/// exactly optimal (for the states whose subgame it can afford: up to 7
/// categories open).
#[test]
fn yatzy_exceptions_are_exact_decisions() {
    let t = yatzy();
    let keys = t.table().section("exception_key").unwrap().unwrap();
    let actions = t.table().section("exception_action").unwrap().unwrap();
    assert!(!actions.is_empty(), "the default yatzy table lists exceptions");
    let mut brute = BruteSheet::new(Rules::Yatzy);
    let mut confirmed = 0;
    for (key, &action) in keys.chunks_exact(4).map(|k| u32::from_le_bytes(k.try_into().unwrap()) as usize).zip(&actions)
    {
        // ((mask * 64 + upper) * 3 + rerolls) * 252 + roll, as FORMAT.md says.
        let (roll, rest) = (key % 252, key / 252);
        let (rerolls, rest) = ((rest % 3) as u8, rest / 3);
        let (upper, mask) = ((rest % 64) as u32, (rest / 64) as u32);
        let state = t.state(mask, upper, false).expect("upper totals below 63 are exact");
        let dice = Dice::unrank(5, roll).unwrap();
        let options = t.options(state, dice, rerolls).unwrap();
        let best = options.best().unwrap().action;
        // Keeping all five (254) with rerolls left is deciding again with one fewer.
        let decided =
            if action == 254 { t.options(state, dice, rerolls - 1).unwrap().best().unwrap().action } else { best };
        let code = match decided {
            Action::Score(c) => c,
            Action::Keep(k) => k.graded_rank() as u8,
        };
        assert_eq!(best, decided, "mask {mask} upper {upper} {dice} r{rerolls}: keeping all five comes to this");
        assert!(action == 254 || code == action, "mask {mask} upper {upper} {dice} r{rerolls}");
        if mask.count_ones() <= 7 {
            let brute_options = brute.options(mask, upper, false, &to_faces(dice), usize::from(rerolls));
            let brute_best = brute_options.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
            assert!(brute_value(&brute_options, best) >= brute_best - 1e-9, "mask {mask} upper {upper} {dice}");
            confirmed += 1;
        }
    }
    assert!(confirmed >= 10, "{confirmed}");
}

/// Games played from each table's own decisions average its start value
/// (within 4 standard errors; `make bench` plays 1,000,000 of each).
#[test]
fn simulated_games_average_the_start_value() {
    fn check<G: SheetGame>(t: &ScoreSheet<G>, seed: u64) {
        let start = t.state((1 << G::CATEGORIES.len()) - 1, 0, false).unwrap();
        let value = t.turn_start_value(start).unwrap();
        let counts = score_histogram(t, 20_000, seed).unwrap();
        let (mean, _, se) = mean_sd_se(&counts);
        assert!((mean - value).abs() < 4.0 * se, "{}: mean {mean} vs {value} (se {se})", G::ID);
        assert_eq!(counts.iter().sum::<u64>(), 20_000);
    }
    check(&yatzy(), 1);
    check(&yahtzee_forced(), 2);
    check(&yahtzee_free(), 3);
}

/// Bad input and states no game reaches: one line each, status 2.
#[test]
fn lookups_refuse_bad_input_with_one_line() {
    let dir = default_tables().to_str().unwrap().to_string();
    let cases: &[(&[&str], &str)] = &[
        // Only ones is filled: 7 is not 0 to 5.
        (
            &["yatzy", "--mask", "twos,threes,fours,fives,sixes,pair,chance", "--upper", "7"],
            "upper total 7 cannot be made",
        ),
        (&["yatzy", "--mask", "all", "--upper", "1"], "upper total 1 cannot be made"),
        (&["yahtzee", "--mask", "none", "--upper", "106"], "upper total 106 cannot be made"),
        (&["yahtzee", "--mask", "all", "--upper", "0", "--yahtzee-bonus"], "cannot hold 50 while it is open"),
        (&["yatzy", "--mask", "all", "--upper", "0", "--yahtzee-bonus"], "--yahtzee-bonus"),
        (&["yatzy", "--mask", "all", "--upper", "-1"], "upper total \"-1\" is not a whole number"),
        (&["yatzy", "--mask", "all,-ones"], "need --upper once an upper box is filled"),
        (&["yatzy", "--mask", "40000", "--upper", "0"], "0 to 32767"),
        (&["yahtzee", "--mask", "ones,pair", "--upper", "0"], "unknown category \"pair\""),
        (&["yahtzee", "--mask", "all", "--upper", "0", "--dice", "1234"], "exactly five digits"),
        (&["yahtzee", "--mask", "all", "--upper", "0", "--dice", "12345", "--rerolls", "3"], "0 to 2"),
    ];
    for (args, mentions) in cases {
        let mut all = vec!["lookup"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--tables", &dir]);
        let o = run("reader", &all, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("reader: ") && err.contains(mentions), "{args:?}: {err:?} should mention {mentions:?}");
        assert!(o.stdout.is_empty());
    }
    // 63 and above are one state; 105 is every upper box full of fives.
    let value = |upper: &str| {
        let o = run(
            "reader",
            &["lookup", "yahtzee", "--mask", "chance", "--upper", upper, "--json", "--tables", &dir],
            &[],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    assert_eq!(value("63"), value("105"));
    assert_ne!(value("62"), value("63"));
}

/// The artifacts stay within their budgets: yatzy 3 MB, yahtzee 2 MB.
/// A yahtzee table holds the forced reading only, a yahtzee-free table the
/// free one: a header of the other reading is refused, naming both.
#[test]
fn each_joker_reading_is_its_own_game() {
    let mut free = dice_tables_generator::solve("yahtzee-free", &Default::default(), |_, _| {}).unwrap();
    free.game = "yahtzee";
    let e = Yahtzee::from_vec(free.encode()).unwrap_err().to_string();
    assert!(e.contains("\"joker\" is free, but yahtzee is solved under the forced joker reading"), "{e}");
    let mut forced = dice_tables_generator::solve("yahtzee", &Default::default(), |_, _| {}).unwrap();
    forced.game = "yahtzee-free";
    let e = YahtzeeFree::from_vec(forced.encode()).unwrap_err().to_string();
    assert!(e.contains("\"joker\" is forced, but yahtzee-free is solved under the free joker reading"), "{e}");
}

#[test]
fn artifact_sizes() {
    for (game, limit) in [("yatzy", 3_000_000), ("yahtzee", 2_000_000)] {
        let len = std::fs::metadata(default_tables().join(format!("{game}.dtab"))).unwrap().len();
        assert!(len <= limit, "{game}.dtab is {len} bytes, over {limit}");
    }
    let free = std::fs::metadata(yahtzee_free_dir().join("yahtzee-free.dtab")).unwrap().len();
    assert!(free <= 2_000_000, "yahtzee-free.dtab is {free} bytes");
}
