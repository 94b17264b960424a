//! The rule engine (one solver for any rule set of the Yahtzee family)
//! against the solvers of the games it replaces, state by state, and
//! against the figures others published for the rule sets they solved.

use dice_tables_generator::rule_engine::solve;
use dice_tables_generator::rule_sets::preset;
use dice_tables_reader::sheet::{yahtzee, Joker, Scoring, YAHTZEE_BOX, YATZY};

/// Every turn start the game reaches: every mask, both states of the
/// yahtzee box where it is filled, every upper total the filled upper
/// boxes can make (capped at 63): the engine's value is the sheet solver's.
/// Returns the game's start value.
fn agrees_everywhere(name: &str, scoring: &Scoring) -> f64 {
    let engine = solve(&preset(name).unwrap()).unwrap();
    let own = dice_tables_generator::sheet::solve(scoring, |_, _| {});
    let boxes = scoring.categories.len();
    let mut compared = 0;
    for mask in 0..1u32 << boxes {
        let reachable = reachable_totals(!mask & 0b11_1111);
        for flag in 0..own.flags {
            if flag == 1 && mask >> YAHTZEE_BOX & 1 == 1 {
                continue; // the box is open: it holds nothing yet
            }
            let held = if flag == 1 { 1 << YAHTZEE_BOX } else { 0 };
            for upper in (0..=63u16).filter(|&u| reachable >> u & 1 == 1) {
                let (a, b) =
                    (engine.turn_start(mask, upper, held).unwrap(), own.get(mask as usize, flag, upper.into()));
                assert!((a - b).abs() < 1e-9, "{name} mask {mask:#b} flag {flag} upper {upper}: {a} vs {b}");
                compared += 1;
            }
        }
    }
    assert!(compared > 100_000, "{name}: {compared}");
    engine.start()
}

/// Within the last digit of a figure published to seven decimals.
fn published(name: &str, start: f64, figure: f64) {
    assert!((start - figure).abs() < 5e-8, "{name}: {start} against the published {figure}");
}

/// The upper totals, capped at 63, that the filled upper boxes (bits) can
/// make with five dice: bit `u` of the result.
fn reachable_totals(filled: u32) -> u128 {
    let mut reach: u128 = 1;
    for face in (0..6).filter(|f| filled >> f & 1 == 1) {
        reach = (0..=5).fold(0, |next, count| next | reach << (count * (face + 1)));
    }
    (reach & ((1 << 63) - 1)) | u128::from(reach >> 63 != 0) << 63
}

/// The published optimal expected scores, to their last digit: yatzy
/// 248.4399894 (precisit/yatzy-solver; dlangk/yatzy's 248.44014 in f32),
/// yahtzee 254.5877287 under the forced joker and 254.5896095 under the
/// free one, and precisit's 253.9702412 without the joker and 245.8707745
/// without the extra-Yahtzee bonus (Verhoeff's and Glenn's 245.87).
#[test]
#[ignore = "slow: make test runs it"]
fn yatzy_and_yahtzee_as_presets_are_their_solvers_in_every_state_and_the_published_figures() {
    published("yatzy", agrees_everywhere("yatzy", &YATZY), 248.4399894);
    published("yahtzee", agrees_everywhere("yahtzee", &yahtzee(Joker::Forced)), 254.5877287);
    published("yahtzee-free", agrees_everywhere("yahtzee-free", &yahtzee(Joker::Free)), 254.5896095);
    for (name, figure) in [("yahtzee-no-joker", 253.9702412), ("yahtzee-no-bonus", 245.8707745)] {
        published(name, solve(&preset(name).unwrap()).unwrap().start(), figure);
    }
}
