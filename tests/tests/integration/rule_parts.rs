//! Why a decision is best, in parts: every turn start's value split box by
//! box (`NAME-parts.dtab`), and every option's. The parts add up to the
//! values, agree with the brute force's own (which shares no solving
//! code), and are what games played from a state score box by box.

use dice_tables_reader::rule_sheet::TurnStarts;
use std::collections::HashMap;

use dice_tables_generator::rule_engine::{parts, solve, table};
use dice_tables_generator::rule_sets::preset;
use dice_tables_reader::dice::Dice;
use dice_tables_reader::rule_sheet::{part_names, RuleChoice, RuleParts, RuleSheet, TurnPlan};
use dice_tables_reader::rules::{RuleSet, SheetState};
use dice_tables_reader::{Game, Tables};
use dice_tables_tests::oracles::rule_set::BruteRules;
use dice_tables_tests::Rng;

use crate::rule_engine::{random_rules, random_state, reduced};

/// A rule set's own table and parts table, written and read back.
fn written(rules: &RuleSet) -> (RuleSheet, RuleParts, parts::Parts, dice_tables_generator::rule_engine::Solution) {
    let solution = solve(rules).unwrap();
    let sheet = RuleSheet::from_vec(table(&solution).encode()).unwrap();
    let stored = RuleParts::from_vec(parts::table(&solution).unwrap().encode()).unwrap();
    (sheet, stored, parts::solve(&solution).unwrap(), solution)
}

/// Half a step of the parts table's fixed point, for each part but the
/// first (whose error is theirs added up).
fn step(stored: &RuleParts) -> f64 {
    (-f64::from(stored.table().header().param("scale").unwrap() as u8)).exp2()
}

/// The parts of `rules` at `count` random turn starts: the solve's are the
/// brute force's within 1e-7 (where no tie between options with other
/// parts decides them: counted in `tally`'s second, the others in its
/// first), the stored ones within the fixed point's rounding, and both add
/// up to the value.
fn agree_with_brute_force(
    rules: &RuleSet,
    rng: &mut Rng,
    count: usize,
    most_open: u32,
    tally: (&mut usize, &mut usize),
) {
    let (compared, tied) = tally;
    let (sheet, stored, solved, solution) = written(rules);
    let mut brute = BruteRules::new(rules.clone());
    let n = part_names(rules).len();
    for _ in 0..count {
        let (mask, upper, held) = random_state(rules, rng, most_open);
        let upper = reached_upper(rules, mask, upper.into()) as u16;
        let at = solution.place(mask, upper, held).unwrap();
        let ours = &solved.parts[at * n..][..n];
        let theirs = brute.parts(mask, upper.into(), held);
        let value = brute.turn_start(mask, upper.into(), held);
        let context = || format!("{} mask {mask:#b} upper {upper} held {held:#b}\n{}", rules.name, rules.to_text());
        assert_eq!(theirs.len(), n, "{}", context());
        assert!((theirs.iter().sum::<f64>() - value).abs() < 1e-9, "brute force's parts: {}", context());
        let read = sheet.parts_of(&stored, mask, upper.into(), held).unwrap();
        let value = sheet.turn_start_value(mask, upper.into(), held).unwrap();
        assert!((read.iter().sum::<f64>() - value).abs() < 1e-9, "{}", context());
        for (a, b) in read.iter().zip(ours) {
            assert!((a - b).abs() <= step(&stored) * n as f64, "{a} vs {b}: {}", context());
        }
        // Where options tie with other parts, any best play's are as right.
        if brute.parts_tied(mask, upper.into(), held) {
            *tied += 1;
            continue;
        }
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert!((a - b).abs() < 1e-7, "part {i}: {a} vs {b}: {ours:?} vs {theirs:?} {}", context());
        }
        *compared += 1;
    }
}

/// Every preset on a sheet of 4 of its boxes, and 8 rule sets drawn
/// at random from the vocabulary (every kind of box, both orders, the
/// bonuses and jokers): on random turn starts, the parts are the brute
/// force's.
#[test]
#[ignore = "slow: make test runs it"]
fn parts_are_the_brute_force_s() {
    let mut rng = Rng::new(63);
    let (mut compared, mut tied) = (0, 0);
    for (name, _) in dice_tables_generator::rule_sets::PRESETS {
        let rules = preset(name).unwrap();
        if rules.saved_rerolls {
            continue; // no parts: a turn's play depends on the rerolls saved
        }
        let most_open = if rules.dice > 5 { 2 } else { 3 };
        agree_with_brute_force(&reduced(&rules, &mut rng), &mut rng, 3, most_open, (&mut compared, &mut tied));
    }
    let (mut drawn, mut i) = (0, 0);
    while drawn < 8 {
        i += 1;
        if let Some(rules) = random_rules(&mut rng, i) {
            agree_with_brute_force(&rules, &mut rng, 3, 3, (&mut compared, &mut tied));
            drawn += 1;
        }
    }
    // Ties decide few turn starts' parts: most are compared.
    assert!(compared >= 3 * tied && compared > 30, "{compared} compared, {tied} decided by ties");
}

/// The presets' parts tables `make tables` wrote.
fn made(name: &str) -> (std::sync::Arc<RuleSheet>, std::sync::Arc<RuleParts>) {
    let tables = Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    (tables.rule_sheet(name).unwrap(), tables.rule_parts(name).unwrap())
}

/// `crag-parts.dtab` is crag's parts table and `crag-target.dtab` its
/// target table, and either is a rule set's own table by its stem: asked
/// for as that, it is refused as another game's, whichever was asked for
/// first (the fuzzer's `reader serve` crash).
#[test]
fn a_rule_set_s_other_tables_are_not_rule_sets_own() {
    use dice_tables_reader::TableErrorKind::WrongGame;
    for (stem, found_id) in [("crag-parts", "rules-parts"), ("crag-target", "rules-target")] {
        for other_first in [true, false] {
            let tables = Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
            let open_other = || match found_id {
                "rules-parts" => tables.rule_parts("crag").map(|t| t.rules().name.clone()),
                _ => tables.rule_target("crag").map(|t| t.rules().name.clone()),
            };
            if other_first {
                open_other().unwrap();
            }
            let refused = tables.rule_sheet(stem).unwrap_err();
            assert!(
                matches!(refused.kind(), WrongGame { found, expected: "rules" } if found == found_id),
                "{stem}: {refused}"
            );
            assert_eq!(open_other().unwrap(), "crag");
            assert!(tables.rule_sheet(stem).is_err());
        }
    }
}

const PRESETS_WITH_PARTS: [&str; 7] =
    ["forced-yatzy", "yacht", "yacht-dice", "generala", "crag", "yahtzee-no-joker", "yahtzee-no-bonus"];

/// The most upper total up to `upper` that the filled boxes of a sheet
/// with the boxes of `open` open can make (a parts table holds no other).
fn reached_upper(rules: &RuleSet, open: u32, upper: u32) -> u32 {
    let totals = dice_tables_reader::rule_sheet::Shape::of(rules).totals;
    let reachable = rules.reachable_uppers(open, totals as usize);
    (0..=upper.min(totals - 1)).rev().find(|&u| reachable[u as usize]).expect("a total of 0 is always made")
}

/// A random turn start a game of `sheet`'s rules reaches: some boxes
/// filled, an upper total the filled upper boxes make, the tracked
/// boxes filled with points or not.
fn reached_state(sheet: &RuleSheet, rng: &mut Rng, most_open: u32) -> SheetState {
    let (mask, upper, held) = random_state(sheet.rules(), rng, most_open);
    SheetState { open: mask, upper: reached_upper(sheet.rules(), mask, upper.into()), held }
}

/// A parts table refuses a total no game reaches, in one line naming it.
#[test]
fn a_total_no_game_reaches_has_no_parts() {
    let (sheet, stored) = made("yahtzee-no-joker");
    // Only the ones filled: an upper total of 7 is out of reach.
    let open = sheet.all_open() & !1;
    assert!(sheet.parts_of(&stored, open, 5, 0).is_ok());
    let refused = sheet.parts_of(&stored, open, 7, 0).unwrap_err().to_string();
    assert!(refused.contains("upper total 7: no game reaches it") && !refused.contains('\n'), "{refused}");
}

/// Every option's parts add up to its value, and a turn start's parts are
/// the average over its first roll of the best option's: the stored parts
/// and the options' forward play are one account.
#[test]
fn every_option_s_parts_add_up_to_its_value() {
    let mut rng = Rng::new(64);
    for name in PRESETS_WITH_PARTS {
        let (sheet, stored) = made(name);
        let n = usize::from(sheet.rules().dice);
        for _ in 0..20 {
            let s = reached_state(&sheet, &mut rng, 13);
            let parts =
                sheet.parts_of(&stored, s.open, s.upper, s.held).unwrap_or_else(|e| panic!("{name} {s:?}: {e}"));
            let value = sheet.turn_start_value(s.open, s.upper, s.held).unwrap();
            assert!((parts.iter().sum::<f64>() - value).abs() < 1e-9, "{name} {s:?}");
            let faces: Vec<u8> = (0..n).map(|_| 1 + rng.below(6) as u8).collect();
            let dice = Dice::from_faces(&faces).unwrap();
            let rerolls = rng.below(u64::from(sheet.rules().rerolls) + 1) as u8;
            let roll = sheet.options(s.open, s.upper, s.held, dice, rerolls).unwrap();
            for (choice, value) in roll.options {
                let p = sheet
                    .option_parts(&stored, s.open, s.upper, s.held, dice, rerolls, choice)
                    .unwrap_or_else(|e| panic!("{name} {s:?} {dice} {rerolls} {choice:?}: {e}"));
                let sum: f64 = p.iter().sum();
                assert!((sum - value).abs() < 1e-9, "{name} {s:?} {dice} {rerolls}: {choice:?} {sum} vs {value}");
            }
        }
        // A turn start with few boxes open: the first roll's average of
        // the best options' parts is the stored parts, within their rounding.
        let s = reached_state(&sheet, &mut rng, 3);
        let stored_parts = sheet.parts_of(&stored, s.open, s.upper, s.held).unwrap();
        let mut averaged = vec![0.0; stored_parts.len()];
        let rerolls = sheet.rules().rerolls;
        for rank in 0..dice_tables_reader::dice::multiset_count(n) {
            let dice = Dice::unrank(n, rank).unwrap();
            let best = sheet.options(s.open, s.upper, s.held, dice, rerolls).unwrap().options[0].0;
            let p = sheet.option_parts(&stored, s.open, s.upper, s.held, dice, rerolls, best).unwrap();
            averaged.iter_mut().zip(p).for_each(|(a, x)| *a += dice.probability() * x);
        }
        let within = step(&stored) * stored_parts.len() as f64;
        for (a, b) in averaged.iter().zip(&stored_parts) {
            assert!((a - b).abs() <= within, "{name} {s:?}: {averaged:?} vs {stored_parts:?}");
        }
    }
}

/// The README's figures: the three largest parts of three presets' starts
/// (and the guide's: two bonuses' parts).
#[test]
fn the_readme_s_largest_parts_of_a_start() {
    for (name, part, figure) in [("forced-yatzy", "upper bonus", 2.18), ("generala", "first-roll bonus", 1.97)] {
        let (sheet, stored) = made(name);
        let parts = sheet.parts_of(&stored, sheet.all_open(), 0, 0).unwrap();
        let i = part_names(sheet.rules()).iter().position(|n| n == part).unwrap();
        assert!((parts[i] - figure).abs() < 0.005, "{name} {part}: {} vs the guide's {figure}", parts[i]);
    }
    let figures = [
        ("forced-yatzy", [("chance", 23.33), ("sixes", 12.64), ("two-pairs", 11.91)]),
        ("generala", [("four-kind", 37.57), ("full-house", 28.94), ("sixes", 17.22)]),
        ("yahtzee-no-joker", [("large-straight", 32.29), ("small-straight", 29.48), ("upper bonus", 23.77)]),
    ];
    for (name, largest) in figures {
        let (sheet, stored) = made(name);
        let parts = sheet.parts_of(&stored, sheet.all_open(), 0, 0).unwrap();
        let mut named: Vec<(String, f64)> = part_names(sheet.rules()).into_iter().zip(parts).collect();
        named.sort_by(|a, b| b.1.total_cmp(&a.1));
        for ((part, value), (expected, figure)) in named.iter().zip(largest) {
            assert_eq!(part, expected, "{name}: {named:?}");
            assert!((value - figure).abs() < 0.005, "{name} {part}: {value} vs the README's {figure}");
        }
    }
}

/// What one game from a turn start scores in each part, played by the
/// table's best moves (`plans` holds each turn start's, worked out once).
fn play(
    sheet: &RuleSheet,
    plans: &mut HashMap<(u32, u32, u32), TurnPlan>,
    from: SheetState,
    rng: &mut Rng,
    scored: &mut [f64],
) {
    let rules = sheet.rules();
    let n = usize::from(rules.dice);
    let slot = |b| dice_tables_reader::rule_sheet::bonus_part(rules, b).unwrap();
    let mut s = from;
    while s.open != 0 {
        let cap = rules.upper_bonus.map_or(0, |b| u32::from(b.at));
        let key = (s.open, s.upper.min(cap), s.held);
        let plan = plans.entry(key).or_insert_with(|| sheet.turn_plan(s.open, s.upper, s.held).unwrap());
        let throw = |k: usize, rng: &mut Rng| -> Vec<u8> { (0..k).map(|_| 1 + rng.below(6) as u8).collect() };
        let mut dice = Dice::from_faces(&throw(n, rng)).unwrap();
        let mut left = rules.rerolls;
        loop {
            match plan.best(dice, left).unwrap() {
                RuleChoice::Keep(k) => {
                    let mut faces: Vec<u8> = k.faces().collect();
                    faces.extend(throw(n - k.len(), rng));
                    dice = Dice::from_faces(&faces).unwrap();
                    left -= 1;
                }
                RuleChoice::Score(m) => {
                    scored[m.box_index] += f64::from(m.points);
                    if m.bonus > 0 {
                        scored[slot(dice_tables_reader::rule_sheet::Bonus::Extra)] += f64::from(m.bonus);
                    }
                    if m.first_roll > 0 {
                        scored[slot(dice_tables_reader::rule_sheet::Bonus::FirstRoll)] += f64::from(m.first_roll);
                    }
                    s = rules.after_scoring(s, m.box_index, m.points);
                    break;
                }
            }
        }
    }
    if let Some(bonus) = rules.upper_bonus.filter(|b| s.upper >= u32::from(b.at)) {
        scored[slot(dice_tables_reader::rule_sheet::Bonus::Upper)] += f64::from(bonus.points);
    }
}

/// From random turn starts of three presets (an upper bonus and the extra
/// bonus, a first-roll bonus, a fixed order), 200,000 games played by the
/// table's best moves score each part, on average, its stored part
/// within 4 standard errors (and the fixed point's rounding).
#[test]
#[ignore = "slow: make test runs it"]
fn games_played_score_each_part() {
    let mut rng = Rng::new(65);
    for name in ["yahtzee-no-joker", "generala", "forced-yatzy"] {
        let (sheet, stored) = made(name);
        for _ in 0..2 {
            let s = reached_state(&sheet, &mut rng, 4);
            let parts = sheet.parts_of(&stored, s.open, s.upper, s.held).unwrap();
            let (games, k) = (200_000, parts.len());
            let (mut sum, mut squares) = (vec![0.0; k], vec![0.0; k]);
            let mut plans = HashMap::new();
            for _ in 0..games {
                let mut scored = vec![0.0; k];
                play(&sheet, &mut plans, s, &mut rng, &mut scored);
                for i in 0..k {
                    sum[i] += scored[i];
                    squares[i] += scored[i] * scored[i];
                }
            }
            for i in 0..k {
                let mean = sum[i] / games as f64;
                let se = ((squares[i] / games as f64 - mean * mean).max(0.0) / games as f64).sqrt();
                let within = 4.0 * se + step(&stored) * k as f64;
                assert!(
                    (mean - parts[i]).abs() <= within,
                    "{name} {s:?} part {i} ({}): played {mean} ± {se} vs {}",
                    part_names(sheet.rules())[i],
                    parts[i]
                );
            }
        }
    }
}
