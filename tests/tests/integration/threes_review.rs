//! Turns of threes reviewed from their text (`dice_tables_lookup::review::
//! reviewed`, `reader review threes`), in the chance of success: played
//! here with dice of the test's own (mostly the table's best keep, now and
//! then any dice at all), each value the test expects taken from the
//! reader's lookups and an independent brute force, never from the review.

use dice_tables_lookup::review::threes::ThreesReview;
use dice_tables_lookup::review::{reviewed, Reviewed};
use dice_tables_reader::threes::{Model, Situation, Threes, Ties};
use dice_tables_reader::{Dice, Tables};
use dice_tables_tests::{run, BruteThrees, Rng};

fn review_of(tables: &Tables, text: &str) -> ThreesReview {
    match reviewed(tables, "threes", None, text).unwrap_or_else(|e| panic!("{e}\n{text}")) {
        Reviewed::Threes(review) => review,
        _ => panic!("reviewed as another game's"),
    }
}

/// One turn played and written after `header`: the table's best keep, or
/// now and then (`stray` in 100) any of the dice rolled; each keep's
/// chance pushed on `values`, from the reader's lookup.
fn play_turn(threes: &Threes, s: Situation, rngs: (&mut Rng, &mut Rng), stray: u64, text: &mut String) -> Vec<f64> {
    let (dice, picks) = rngs;
    let (mut points, mut left, mut values) = (0u8, 5usize, Vec::new());
    while left > 0 {
        let faces: Vec<u8> = (0..left).map(|_| dice.below(6) as u8 + 1).collect();
        let roll = Dice::from_faces(&faces).unwrap();
        let options = threes.options(Situation { points, ..s }, roll).unwrap();
        let kept: Vec<u8> = if picks.below(100) < stray {
            // Any dice of the roll, at least one.
            let mut any: Vec<u8> = faces.iter().copied().filter(|_| picks.below(2) == 0).collect();
            if any.is_empty() {
                any.push(faces[picks.below(faces.len() as u64) as usize]);
            }
            any
        } else {
            options.best().unwrap().keep.dice.faces().collect()
        };
        let kept = Dice::from_faces(&kept).unwrap();
        text.push_str(&format!("{roll} keep {kept}\n"));
        points += kept.faces().map(|f| if f == 3 { 0 } else { f }).sum::<u8>();
        left -= kept.len();
        values.push(threes.chance(Situation { points, ..s }, left as u8).unwrap());
    }
    values
}

/// Turns of threes in random situations (record, players after, ties,
/// model; 400 turns, `$DICE_REVIEW_GAMES` where set: `make bench` plays
/// 10,000), reviewed: the chance the total succeeds less the start's
/// chance is the luck less the losses within 1e-9; every keep's value is
/// the reader's lookup's; the start and the end agree with the independent
/// brute force within 1e-6 (the table stores chances as f32); the table's
/// keeps give nothing away.
#[test]
fn threes_turns_add_up_to_the_chance_of_success() {
    let tables = Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let threes = tables.get::<Threes>().unwrap();
    let per: usize = dice_tables_tests::games_from_env("DICE_REVIEW_GAMES", 400);
    let mut brutes: Vec<BruteThrees> =
        [(true, true), (true, false), (false, true), (false, false)].map(|(w, q)| BruteThrees::new(w, q)).into();
    let (mut dice, mut picks, mut at) = (Rng::new(50), Rng::new(5000), Rng::new(500));
    let mut mistaken = 0;
    for g in 0..per {
        let stray = 20 * (g % 3) as u64;
        let (ties_win, sequential) = (at.below(2) == 0, at.below(2) == 0);
        let record = match at.below(4) {
            0 => None,
            _ => Some(at.below(20) as u8 + 2),
        };
        let after = at.below(4) as u8;
        let s = Situation {
            ties: if ties_win { Ties::Win } else { Ties::Lose },
            model: if sequential { Model::Sequential } else { Model::Independent },
            record,
            points: 0,
            after,
        };
        let mut text = format!(
            "game: threes\n{}after: {after}\nties: {}\nmodel: {}\n",
            record.map_or(String::new(), |r| format!("record: {r}\n")),
            if ties_win { "win" } else { "lose" },
            if sequential { "sequential" } else { "independent" }
        );
        let values = play_turn(threes, s, (&mut dice, &mut picks), stray, &mut text);
        let review = review_of(&tables, &text);
        assert!(review.over(), "{text}");
        let off = review.now - review.start - (review.luck() - review.loss());
        assert!(off.abs() < 1e-9, "{} - {} != luck - loss (off {off})\n{text}", review.now, review.start);
        let taken: Vec<f64> = review.decisions.iter().map(|d| d.chosen.1).collect();
        assert_eq!(taken, values, "each keep's chance is the table's\n{text}");
        let brute = &mut brutes[usize::from(!ties_win) * 2 + usize::from(!sequential)];
        let turn = brute.solve(record, after);
        assert!((review.start - turn.get(0, 5).0).abs() < 1e-6, "the start, by brute force\n{text}");
        assert!((review.now - turn.get(review.points, 0).0).abs() < 1e-6, "the end, by brute force\n{text}");
        assert!(review.decisions.iter().all(|d| d.loss() >= 0.0), "a loss below 0\n{text}");
        if stray == 0 {
            assert!(review.largest_mistakes(5).is_empty(), "the table's keeps give nothing away\n{text}");
        }
        mistaken += usize::from(!review.largest_mistakes(5).is_empty());
    }
    assert!(mistaken > 0, "some turns with mistakes");
    eprintln!("{per} turns of threes reviewed, {mistaken} with mistakes");
}

/// `reader review threes`: the words and `--json` (the library's JSON);
/// bad lines and headers refused in one line, exit status 2.
#[test]
fn reader_review_reviews_a_turn_of_threes() {
    let dir = dice_tables_tests::made_tables();
    let tables = Tables::open_dir(&dir).unwrap();
    // Record 8, one player after: keeping 3-3 of 33456 is best, keeping the 6 gives chance away.
    let text = "game: threes\nrecord: 8\nafter: 1\n33456 keep 6\n1245 keep 1\n245 keep 245\n";
    let review = review_of(&tables, text);
    assert_eq!((review.points, review.over()), (18, true));
    assert_eq!(review.largest_mistakes(5).first().map(|d| d.line), Some(4));
    let file = dice_tables_tests::scratch("threes-review").join("turn.txt");
    std::fs::write(&file, text).unwrap();
    let env = [("DICE_TABLES", dir.to_str().unwrap())];
    let out = run("reader", &["review", file.to_str().unwrap()], &env);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let words = String::from_utf8(out.stdout).unwrap();
    assert!(words.starts_with("threes (record 8, 1 after, ties win, sequential later players): 3 rolls\n"), "{words}");
    assert!(words.contains("all five kept: total 18; the chance it succeeds 0.00 %"), "{words}");
    assert!(
        words.contains("  line 4: rolled 33456 with 0 points kept: keep 6 (6 points, 4 dice left) gave away"),
        "{words}"
    );
    let out = run("reader", &["review", "threes", file.to_str().unwrap(), "--json"], &env);
    let json = String::from_utf8(out.stdout).unwrap();
    assert_eq!(json.trim(), reviewed(&tables, "threes", None, text).unwrap().to_json().to_string());
    for (bad, why) in [
        ("3345 keep 3", "3345 is 4 dice: 5 are rolled (five open the turn)"),
        ("33456 keep 2", "keep 2: 33456 does not hold them"),
        ("33456 score 3", "write the dice rolled, then keep DICE (at least one), like 31324 keep 33"),
        ("33456 keep 33456\n1 keep 1", "the turn is over: all five dice are kept, for 15"),
        ("record: 31\n33456 keep 3", "record \"31\": a total from 0 to 30"),
        ("ties: maybe\n33456 keep 3", "ties"),
        ("target: 9\n33456 keep 3", "not played for 9"),
    ] {
        std::fs::write(&file, bad).unwrap();
        let out = run("reader", &["review", "threes", file.to_str().unwrap()], &env);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(why) && err.lines().count() == 1, "{bad}: {err}");
    }
}
