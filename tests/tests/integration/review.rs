//! Games reviewed from their text (`dice_tables_lookup::review`, `reader
//! review`): played here with dice of the test's own (mostly the table's
//! best option, now and then another), written as the page writes them,
//! then replayed and reviewed.

use dice_tables_lookup::review::review_rule_set;
use dice_tables_reader::rule_sheet::{RuleChoice, RuleSheet};
use dice_tables_reader::rules::SheetState;
use dice_tables_reader::Dice;
use dice_tables_tests::Rng;

/// The presets `make tables` writes.
const PRESETS: [&str; 7] =
    ["forced-yatzy", "yacht", "yacht-dice", "generala", "crag", "yahtzee-no-joker", "yahtzee-no-bonus"];

/// `count` dice thrown.
fn throw(rng: &mut Rng, count: usize) -> Vec<u8> {
    (0..count).map(|_| 1 + rng.below(6) as u8).collect()
}

fn dice_text(dice: &[u8]) -> String {
    let mut sorted = dice.to_vec();
    sorted.sort_unstable();
    sorted.iter().map(|d| char::from(b'0' + d)).collect()
}

/// A whole game of `sheet` played with `rng`'s dice, taking the best
/// option except where `stray` (out of 100) says to take another at
/// random: the game's text, and its final score as the sheet adds it up.
fn play(sheet: &RuleSheet, rng: &mut Rng, stray: u64) -> (String, u32) {
    let rules = sheet.rules();
    let n = usize::from(rules.dice);
    let saving = sheet.saving() > 0;
    let mut state = SheetState { open: sheet.all_open(), upper: 0, held: 0 };
    let (mut saved, mut scored, mut text) = (0u32, 0u32, String::new());
    while state.open != 0 {
        let mut rerolls = (u32::from(rules.rerolls) + saved) as u8;
        let mut dice = throw(rng, n);
        loop {
            let shown = dice_text(&dice);
            let roll: Dice = shown.parse().unwrap();
            let options = sheet.options_saved(state.open, state.upper, state.held, saved, roll, rerolls).unwrap();
            let pick = if rng.below(100) < stray { rng.below(options.options.len() as u64) as usize } else { 0 };
            match options.options[pick].0 {
                RuleChoice::Keep(kept) => {
                    text.push_str(&format!("{shown} keep {kept}\n"));
                    dice = kept.to_string().bytes().map(|b| b - b'0').collect();
                    dice.extend(throw(rng, n - dice.len()));
                    rerolls -= 1;
                }
                RuleChoice::Score(m) => {
                    text.push_str(&format!("{shown} score {}\n", rules.boxes[m.box_index].name));
                    scored += m.scored();
                    state = rules.after_scoring(state, m.box_index, m.points);
                    if saving {
                        saved = u32::from(rerolls);
                    }
                    break;
                }
            }
        }
    }
    let bonus = rules.upper_bonus.filter(|u| state.upper >= u32::from(u.at)).map_or(0, |u| u32::from(u.points));
    (text, scored + bonus)
}

/// Whole games of every preset (200 each; `$DICE_REVIEW_GAMES` each
/// where set: `make bench` plays 10,000), reviewed from their text: the
/// final score is the sheet's, and less the start's value it is what the
/// dice brought less what the decisions gave away, within 1e-9; a game of
/// the table's best options gives nothing away.
#[test]
fn the_dice_and_the_decisions_add_up_to_the_score() {
    let tables = dice_tables_reader::Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let per: usize = std::env::var("DICE_REVIEW_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(200);
    let mut rng = Rng::new(63);
    let mut games = 0;
    for name in PRESETS {
        let sheet = tables.rule_sheet(name).unwrap();
        for g in 0..per {
            let stray = 10 * (g % 4) as u64;
            let (text, score) = play(&sheet, &mut rng, stray);
            let review = review_rule_set(&sheet, &text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            assert_eq!(review.final_score(), Some(score), "{name}\n{text}");
            let (luck, loss) = (review.luck(), review.loss());
            let off = f64::from(score) - review.start - (luck - loss);
            assert!(off.abs() < 1e-9, "{name}: {score} - {} != {luck} - {loss} (off {off})\n{text}", review.start);
            assert!(review.decisions.iter().all(|d| d.loss() >= 0.0), "{name}: a loss below 0");
            if stray == 0 {
                assert_eq!(loss, 0.0, "{name}: the best options give nothing away\n{text}");
            }
            games += 1;
        }
    }
    assert_eq!(games, per * PRESETS.len());
    eprintln!(
        "{per} games of each of {} presets: the score is the start's value, the luck and the losses",
        PRESETS.len()
    );
}

/// `reader review NAME FILE` prints the review (the largest mistakes
/// first), `--json` the same numbers as the library; a line that breaks the
/// rules is refused in one line naming it, exit status 2.
#[test]
fn reader_review_prints_the_review_and_refuses_bad_lines() {
    let dir = dice_tables_tests::scratch("review");
    let tables = dice_tables_tests::made_tables();
    let file = dir.join("crag.txt");
    std::fs::write(&file, "466 keep 66\n566 score sixes\n123 keep 3\n356 score thirteen\n").unwrap();
    let args = |extra: &[&str]| {
        let mut a = vec!["review", "crag", file.to_str().unwrap(), "--tables", tables.to_str().unwrap()];
        a.extend(extra);
        dice_tables_tests::run("reader", &a, &[])
    };
    let out = args(&[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mistakes: Vec<&str> = text.lines().filter(|l| l.starts_with("  line ")).collect();
    assert_eq!(mistakes.len(), 2, "{text}");
    assert!(
        mistakes[0].starts_with("  line 4: 356 with 0 rerolls left: score thirteen for 0 gave away 15.27"),
        "{text}"
    );
    assert!(mistakes[1].contains("(best: score low-straight for 20)"), "{text}");
    let json: serde_json::Value = serde_json::from_slice(&args(&["--json"]).stdout).unwrap();
    assert_eq!(json["largest_mistakes"], serde_json::json!([4, 3]));
    let (now, start) = (json["now"].as_f64().unwrap(), json["start"].as_f64().unwrap());
    let (luck, loss) = (json["luck"].as_f64().unwrap(), json["loss"].as_f64().unwrap());
    assert!((now - start - (luck - loss)).abs() < 1e-9, "{json}");
    for (game, why) in [
        ("466 keep 66\n123 score sixes\n", "line 2 (123 score sixes): the dice do not hold the 66 kept"),
        ("466 keep 6\n566 keep 66\n", "line 2 (566 keep 66): no rerolls are left: score a box"),
        ("466 score chance\n", "line 1 (466 score chance): chance is not a box: the boxes are ones,"),
        ("4666 keep 6\n", "line 1 (4666 keep 6): \"4666\" is not up to 3 dice, each 1 to 6"),
        ("466 score sixes\n466 score sixes\n", "line 2 (466 score sixes): sixes is not open"),
        ("\n \n", "the game's text: no decision: write one a line"),
    ] {
        std::fs::write(&file, game).unwrap();
        let out = args(&[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), err.lines().count()), (Some(2), 1), "{err}");
        assert!(err.starts_with(&format!("reader: {why}")), "{err}");
    }
}
