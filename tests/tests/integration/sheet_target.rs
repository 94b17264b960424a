//! yatzy and yahtzee played to reach a target, on reduced tables
//! (the states with at most 4 categories open, as `make test` builds them):
//! every stored chance and every option of random rolls against the
//! independent brute force, for yatzy and both joker readings of yahtzee;
//! the stored distribution of max-expected-score play against the
//! expected-points tables.

use std::path::PathBuf;

use dice_tables_reader::sheet::{Action, SheetGame, SheetTarget, State, YahtzeeFreeGame, YahtzeeGame, YatzyGame};
use dice_tables_reader::{Dice, Game};
use dice_tables_tests::sheet::{solve_turn_for, turn_start_for, BruteRemaining, BruteSheetTarget, Rules};
use dice_tables_tests::{run, scratch, target_tables, Rng};

/// The free reading's reduced yahtzee target table (the forced one is in
/// the shared reduced tables).
fn reduced_free() -> PathBuf {
    let dir = scratch("yahtzee-target-free");
    // Three open, where make's reduced tables hold four: solved here, in a
    // fifth of the time: a Yahtzee rolled with its box filled still meets
    // the two joker readings there.
    let args = ["--out", dir.to_str().unwrap(), "--games", "yahtzee-free-target", "--target-open", "3"];
    let out = run("generator", &args, &[]);
    assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
    dir
}

fn open_table<G: SheetGame>(dir: &std::path::Path) -> SheetTarget<G> {
    <SheetTarget<G> as Game>::open(dir.join(format!("{}.dtab", G::TARGET_ID))).expect("a reduced table just written")
}

/// A random state with 1 to 4 open categories (as many as the table
/// holds) the game can reach.
fn random_state<G: SheetGame>(table: &SheetTarget<G>, rng: &mut Rng) -> State {
    let categories = G::CATEGORIES.len() as u64;
    loop {
        let open = 1 + rng.below(table.max_open().min(4) as u64) as u32;
        let mut mask = 0u32;
        while mask.count_ones() < open {
            mask |= 1 << rng.below(categories);
        }
        let upper = rng.below(106) as u32;
        let flag = G::FLAGS == 2 && rng.below(2) == 1;
        if let Ok(state) = table.state(mask, upper, flag) {
            return state;
        }
    }
}

fn to_faces(dice: Dice) -> [u8; 5] {
    let faces: Vec<u8> = dice.faces().collect();
    faces.try_into().unwrap()
}

/// Every stored chance of random states (every n from below 0 to past the
/// last stored) within 1e-7 of the brute force, none at or above 1e-7
/// stored as 0; every option of random rolls there within 1e-7, and the
/// table's decision within 2e-7 of the brute force's best.
fn agrees_with_brute_force<G: SheetGame>(dir: &std::path::Path, rules: Rules, seed: u64) {
    let table = open_table::<G>(dir);
    let mut brute = BruteSheetTarget::new(rules);
    let mut rng = Rng::new(seed);
    for _ in 0..16 {
        let state = random_state(&table, &mut rng);
        let (mask, upper, flag) = (state.mask(), u32::from(state.upper()), state.yahtzee_bonus());
        let curve = table.curve(state).unwrap();
        for n in -1..=i64::from(curve.last()) + 2 {
            let (got, want) = (curve.chance(n), brute.chance(mask, upper, flag, n));
            assert!((got - want).abs() < 1e-7, "{} {state:?} n {n}: table {got}, brute force {want}", G::TARGET_ID);
            assert!(want < 1e-7 || got > 0.0, "{state:?} n {n}: {want} stored as 0");
        }
        assert!(brute.chance(mask, upper, flag, i64::from(curve.last()) + 1) < 1e-7);
        for _ in 0..4 {
            let dice = Dice::from_faces(&std::array::from_fn::<u8, 5, _>(|_| rng.below(6) as u8 + 1)).unwrap();
            let rerolls = rng.below(3) as u8;
            let need = rng.below(i64::from(curve.last()).max(1) as u64 + 20) as i64 - 5;
            let options = table.options(state, dice, rerolls, need).unwrap();
            let brute_options = brute.options(mask, upper, flag, need, &to_faces(dice), usize::from(rerolls));
            options_agree(&options, &brute_options, &format!("{state:?} {dice} r{rerolls} need {need}"));
        }
    }
}

/// A lookup's options (`options`) against the brute force's (`want`):
/// the same actions, each chance within 1e-7, the decision's within 2e-7
/// of the best.
fn options_agree(
    options: &dice_tables_reader::target::TargetChoices<Action>,
    want: &[(Result<Vec<u8>, usize>, f64)],
    at: &str,
) {
    assert_eq!(options.len(), want.len(), "{at}");
    for o in options.iter() {
        let key = match o.action {
            Action::Keep(k) => Ok(k.faces().collect::<Vec<u8>>()),
            Action::Score(c) => Err(usize::from(c)),
        };
        let w = want.iter().find(|b| b.0 == key).unwrap_or_else(|| panic!("{at}: {key:?}")).1;
        assert!((o.p - w).abs() < 1e-7, "{at} {key:?}: {} vs {w}", o.p);
    }
    let best = want.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
    let decided = options.best().unwrap();
    assert!(decided.p >= best - 2e-7, "{at}: decision {decided:?}");
}

/// Every stored distribution of the points still to come of random states
/// within 1e-9 of the brute force's, value by value; its mean the
/// expected points still to come within 1e-7.
fn remaining_agrees_with_brute_force<G: SheetGame>(dir: &std::path::Path, rules: Rules, seed: u64) {
    let table = open_table::<G>(dir);
    let mut brute = BruteRemaining::new(rules);
    let mut rng = Rng::new(seed);
    for _ in 0..12 {
        let state = random_state(&table, &mut rng);
        let (mask, upper, flag) = (state.mask(), u32::from(state.upper()), state.yahtzee_bonus());
        let stored = table.remaining(state).unwrap();
        let want = brute.remaining(mask, upper, flag);
        for x in -1..=(stored.last() as i64).max(want.len() as i64) + 1 {
            let w = if x < 0 { 0.0 } else { want.get(x as usize).copied().unwrap_or(0.0) };
            let got = stored.chance_of(x);
            assert!((got - w).abs() < 1e-9, "{} {state:?} P(remaining = {x}): table {got}, brute force {w}", G::ID);
        }
        let mean: f64 = (1..=i64::from(stored.last())).map(|n| stored.chance(n)).sum();
        let ev = brute.turn_start(mask, upper, flag);
        assert!((mean - ev).abs() < 1e-7, "{state:?}: mean {mean}, expected points {ev}");
    }
}

/// At the last player's last turn (the opponent finished, one box left,
/// the score to beat known), the opponent-aware advisor's chance before
/// the roll and every option's chance equal a direct solve of the turn for
/// winning, ties half, within 1e-7 (the stored chances' rounding), and its
/// decision's chance is within 2e-7 of the best: on random such states.
fn last_turn_is_exact<G: SheetGame>(dir: &std::path::Path, rules: Rules, seed: u64) {
    let table = open_table::<G>(dir);
    let mut rng = Rng::new(seed);
    let bonus = rules.upper_bonus() as i64;
    let mut checked = 0;
    while checked < 16 {
        let mask = 1u32 << rng.below(G::CATEGORIES.len() as u64);
        let (upper, opp_upper) = (rng.below(80) as u32, rng.below(80) as u32);
        let (flag, opp_flag) = (G::FLAGS == 2 && rng.below(2) == 1, G::FLAGS == 2 && rng.below(2) == 1);
        let (Ok(state), Ok(opp_state)) = (table.state(mask, upper, flag), table.state(0, opp_upper, opp_flag)) else {
            continue;
        };
        checked += 1;
        let lead = rng.below(100) as i64 - 60;
        let opponent = table.opponent(opp_state, lead).unwrap();
        let opp_bonus = if opp_upper >= 63 { bonus } else { 0 };
        let leaf = |(_, points, upper_points, _): dice_tables_tests::sheet::Scoring| {
            let my_bonus = if upper + upper_points >= 63 { bonus } else { 0 };
            let margin = lead + i64::from(points) + my_bonus - opp_bonus;
            match margin.cmp(&0) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            }
        };
        let (p, want) = (table.versus_chance(state, &opponent).unwrap(), turn_start_for(rules, mask, flag, &leaf));
        assert!((p - want).abs() < 1e-7, "{} {state:?} lead {lead}: advisor {p}, direct solve {want}", G::ID);
        for _ in 0..3 {
            let dice = Dice::from_faces(&std::array::from_fn::<u8, 5, _>(|_| rng.below(6) as u8 + 1)).unwrap();
            let rerolls = rng.below(3) as u8;
            let options = table.versus_options(state, dice, rerolls, &opponent).unwrap();
            let direct = solve_turn_for(rules, mask, flag, &to_faces(dice), usize::from(rerolls), &leaf);
            options_agree(&options, &direct, &format!("{state:?} {dice} r{rerolls} lead {lead}"));
        }
    }
}

#[test]
fn yatzy_agrees_with_brute_force() {
    let dir = target_tables();
    agrees_with_brute_force::<YatzyGame>(dir, Rules::Yatzy, 231);
    remaining_agrees_with_brute_force::<YatzyGame>(dir, Rules::Yatzy, 241);
    last_turn_is_exact::<YatzyGame>(dir, Rules::Yatzy, 251);
    refuses_larger_states::<YatzyGame>(dir);
}

#[test]
fn yahtzee_forced_agrees_with_brute_force() {
    let dir = target_tables();
    agrees_with_brute_force::<YahtzeeGame>(dir, Rules::Yahtzee { forced: true }, 232);
    remaining_agrees_with_brute_force::<YahtzeeGame>(dir, Rules::Yahtzee { forced: true }, 242);
    last_turn_is_exact::<YahtzeeGame>(dir, Rules::Yahtzee { forced: true }, 252);
    distribution_matches::<YahtzeeGame>(dir, 254.5877287);
}

#[test]
#[ignore = "slow: make test runs it"]
fn yahtzee_free_agrees_with_brute_force() {
    let dir = reduced_free();
    agrees_with_brute_force::<YahtzeeFreeGame>(&dir, Rules::Yahtzee { forced: false }, 233);
    remaining_agrees_with_brute_force::<YahtzeeFreeGame>(&dir, Rules::Yahtzee { forced: false }, 243);
    last_turn_is_exact::<YahtzeeFreeGame>(&dir, Rules::Yahtzee { forced: false }, 253);
    distribution_matches::<YahtzeeFreeGame>(&dir, 254.5896095);
}

/// A reduced table refuses a state with more categories open; the lookup
/// layer says how to build the whole one (the library names no make target).
fn refuses_larger_states<G: SheetGame>(dir: &std::path::Path) {
    let table = open_table::<G>(dir);
    assert_eq!(table.max_open(), 4);
    let state = table.state(0b11111, 0, false).unwrap();
    let e = table.chance(state, 10).unwrap_err();
    let library = e.to_string();
    assert!(library.contains("at most 4 open categories, not 5") && !library.contains("make"), "{library}");
    let lookup = dice_tables_lookup::LookupError::from(e).to_string();
    assert!(
        lookup.starts_with(&library)
            && lookup.ends_with(&format!("build the whole table with `make {}`", G::TARGET_ID)),
        "{lookup}"
    );
    distribution_matches::<G>(dir, 248.4399894);
}

/// The stored distribution of max-expected-score play (the whole game's,
/// in a reduced table too): sums to 1 within 1e-12, its mean the published
/// start value within 1e-6.
fn distribution_matches<G: SheetGame>(dir: &std::path::Path, start: f64) {
    let p = open_table::<G>(dir).ev_distribution().unwrap();
    assert_eq!(p.len(), G::MAX_SCORE as usize + 1);
    let sum: f64 = p.iter().sum();
    let mean: f64 = p.iter().enumerate().map(|(s, p)| s as f64 * p).sum();
    assert!((sum - 1.0).abs() < 1e-12, "{} sums to {sum}", G::TARGET_ID);
    assert!((mean - start).abs() < 1e-6, "{} mean {mean}, start {start}", G::TARGET_ID);
}
