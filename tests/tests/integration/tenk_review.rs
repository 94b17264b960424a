//! Games of 10000 reviewed from their text (`dice_tables_lookup::review::
//! reviewed`, `reader review`): alone in expected banked points, against
//! someone in the chance of winning. Played here with dice of the test's
//! own (mostly the table's best keep, now and then another), written as
//! the review reads them, each value the test expects taken from the
//! reader's lookups or an independent brute force, never from the review.

use dice_tables_lookup::review::tenk::TenkReview;
use dice_tables_lookup::review::{reviewed, Measure, Reviewed};
use dice_tables_reader::duel::{CardgamesDuel, Duel, Scoring, SeedDuel};
use dice_tables_reader::tenk::{Phase, Tenk, Then};
use dice_tables_reader::{Dice, Tables};
use dice_tables_tests::duel::BruteDuel;
use dice_tables_tests::{run, BruteTenk, Rng, TenkScoring};

/// A keep as the test's player sees it: the dice, their points, the dice
/// left, and the value of banking after it (`None`: not allowed) and of
/// throwing on.
struct Keep {
    keep: Dice,
    points: u32,
    left: u8,
    bank: Option<f64>,
    throw: f64,
}

/// One turn played and written, each line after `prefix`: throws until a
/// bank or a bust, the keep and what follows it with the best value, or
/// now and then (`stray` in 100) any at random. The points banked (`None`
/// on a bust), and each line's expected value pushed on `values` (NaN for
/// a bust's).
fn play_turn(
    (dice, picks): (&mut Rng, &mut Rng),
    stray: u64,
    prefix: &str,
    text: &mut String,
    values: &mut Vec<f64>,
    mut keeps: impl FnMut(Dice, u32) -> Vec<Keep>,
) -> Option<u32> {
    let (mut n, mut score) = (6usize, 0u32);
    loop {
        let faces: Vec<u8> = (0..n).map(|_| dice.below(6) as u8 + 1).collect();
        let throw = Dice::from_faces(&faces).unwrap();
        let mut options = keeps(throw, score);
        // Dice that score two ways (114444 under the cardgames rules: 1500
        // or 1200) score the most, as the review reads `keep 114444`.
        let mut seen = Vec::new();
        options.retain(|k| {
            !seen.contains(&k.keep) && {
                seen.push(k.keep);
                true
            }
        });
        if options.is_empty() {
            text.push_str(&format!("{prefix}{throw} bust\n"));
            values.push(f64::NAN);
            return None;
        }
        let mut choices: Vec<(usize, Then, f64)> = Vec::new();
        for (i, k) in options.iter().enumerate() {
            choices.extend(k.bank.map(|b| (i, Then::Bank, b)));
            choices.push((i, Then::Throw, k.throw));
        }
        let best = choices.iter().copied().fold(choices[0], |b, c| if c.2 > b.2 { c } else { b });
        let (i, then, value) =
            if picks.below(100) < stray { choices[picks.below(choices.len() as u64) as usize] } else { best };
        let k = &options[i];
        let word = if then == Then::Bank { "bank" } else { "throw" };
        text.push_str(&format!("{prefix}{throw} keep {} {word}\n", k.keep));
        values.push(value);
        score += k.points;
        if then == Then::Bank {
            return Some(score);
        }
        n = usize::from(k.left);
    }
}

/// The review of `text` as `name`'s, a game of 10000.
fn review_of(tables: &Tables, name: &str, text: &str) -> TenkReview {
    match reviewed(tables, name, None, text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}")) {
        Reviewed::Tenk(review) => review,
        _ => panic!("{name}: reviewed as another game's"),
    }
}

/// The value of each of `review`'s throws once chosen (NaN for a bust), as `values` lists them.
fn chosen_values(review: &TenkReview) -> Vec<f64> {
    review.decisions.iter().map(|d| d.chosen.map_or(f64::NAN, |c| c.1)).collect()
}

fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x.is_nan() && y.is_nan()) || (x - y).abs() < 1e-12)
}

/// Games of 10000 alone, 10 turns each (200 games, `$DICE_REVIEW_GAMES`
/// where set: `make bench` plays 10,000), reviewed: the points banked less
/// the turns' start values is the luck less the losses within 1e-9; every
/// value taken is the table's (banked points, or its value of throwing
/// on); the turn's start and every throw-on value agree with an
/// independent brute force within 1e-9; the table's keeps give nothing away.
#[test]
fn tenk_games_alone_add_up_to_the_points_banked() {
    let tables = Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let tenk = tables.get::<Tenk>().unwrap();
    let brute = BruteTenk::new(40_000);
    let per: usize = dice_tables_tests::games_from_env("DICE_REVIEW_GAMES", 200);
    let (mut dice, mut picks) = (Rng::new(10), Rng::new(1000));
    let mut worst: f64 = 0.0;
    for g in 0..per {
        let stray = 10 * (g % 3) as u64;
        let (mut text, mut values, mut banked) = ("game: 10000\n".to_string(), Vec::new(), 0);
        for _ in 0..10 {
            let turn = play_turn((&mut dice, &mut picks), stray, "", &mut text, &mut values, |throw, score| {
                let options = tenk.options(throw, score, Phase::OnBoard).unwrap();
                let keep = |o: &dice_tables_reader::tenk::TenkOption| {
                    let after = score + o.points;
                    let throw = tenk.turn_value(o.dice_left, after).unwrap();
                    Keep { keep: o.keep, points: o.points, left: o.dice_left, bank: Some(f64::from(after)), throw }
                };
                options.iter().map(keep).collect()
            });
            banked += turn.unwrap_or(0);
        }
        let review = review_of(&tables, "10000", &text);
        assert_eq!((review.measure, review.players(), review.turns.clone()), (Measure::Points, 1, vec![10]));
        assert_eq!((review.totals.clone(), review.outcome()), (vec![banked], Some(f64::from(banked))), "{text}");
        let off = f64::from(banked) - review.start_of(0) - (review.luck() - review.loss());
        assert!(off.abs() < 1e-9, "{banked} - {} != luck - loss (off {off})\n{text}", review.start_of(0));
        assert!(same(&chosen_values(&review), &values), "each value taken is the table's\n{text}");
        assert!((review.turn_start - brute.value[6][0]).abs() < 1e-9, "the turn's start, by brute force");
        for d in &review.decisions {
            if let Some((c, v)) = d.chosen.filter(|c| c.0.then == Then::Throw) {
                let j = ((d.score + c.points) / 50) as usize;
                worst = worst.max((v - brute.value[usize::from(c.dice_left)][j]).abs());
            }
            assert!(d.loss() >= 0.0, "line {}: a loss below 0\n{text}", d.line);
        }
        if stray == 0 {
            assert_eq!(review.loss(), 0.0, "the table's keeps give nothing away\n{text}");
        }
        parts_add_up(&review, &text, TenkScoring::Seed);
        // Alone a game is rated by its loss per turn (10 turns here).
        let rated = dice_tables_lookup::review::rating("tenk", review.turn_start, review.loss() / 10.0);
        assert!(rated.is_some() && review.rating_of(0) == rated, "{:?} != {rated:?}\n{text}", review.rating_of(0));
    }
    assert!(worst < 1e-9, "a throw-on value {worst:e} from the brute force's");
    eprintln!("{per} games of 10000 alone reviewed; throw-on values within {worst:e} of the brute force");
}

/// A duel table's turn as the test's player sees it: every keep with its
/// values, read through the reader's turn solve.
fn duel_keeps<S: Scoring>(turn: &dice_tables_reader::duel::DuelTurn<'_, S>, throw: Dice, score: u32) -> Vec<Keep> {
    let options = turn.options(throw, score).unwrap();
    let keep = |o: &dice_tables_reader::duel::DuelOption| {
        let after = score + o.points;
        let throw = turn.before_throw(o.dice_left, after).unwrap().throw;
        Keep { keep: o.keep, points: o.points, left: o.dice_left, bank: turn.bank(after), throw }
    };
    options.iter().map(keep).collect()
}

/// A whole two-player game played on `duel` and written (`players: 2`,
/// each line after its player's number); its text, each line's expected
/// value and the winner.
fn play_duel<S: Scoring>(
    duel: &Duel<S>,
    game: &str,
    rngs: (&mut Rng, &mut Rng),
    stray: u64,
) -> (String, Vec<f64>, usize) {
    let (dice, picks) = rngs;
    let goal = duel.params().goal;
    let (mut text, mut values) = (format!("game: {game}\nplayers: 2\n"), Vec::new());
    let (mut totals, mut mover) = ([0u32; 2], 0);
    loop {
        let turn = duel.turn(totals[mover], totals[1 - mover]).unwrap();
        let prefix = format!("{}: ", mover + 1);
        let banked = play_turn((&mut *dice, &mut *picks), stray, &prefix, &mut text, &mut values, |throw, score| {
            duel_keeps(&turn, throw, score)
        });
        totals[mover] += banked.unwrap_or(0);
        if totals[mover] >= goal {
            return (text, values, mover);
        }
        mover = 1 - mover;
    }
}

/// Whole games of both duel tables (100 each, `$DICE_REVIEW_GAMES` where
/// set), reviewed: player 1's outcome less their chance at the start is
/// player 1's luck less player 2's, less player 1's losses plus player
/// 2's, within 1e-9; the winner is the game's; every value taken is the
/// reader's lookup's (the chance of banking, or of throwing on); the
/// table's keeps give nothing away.
#[test]
fn duel_games_add_up_to_winning() {
    let tables = Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let per: usize = dice_tables_tests::games_from_env("DICE_REVIEW_GAMES", 100);
    let seed = tables.get::<SeedDuel>().unwrap();
    let cardgames = tables.get::<CardgamesDuel>().unwrap();
    let (mut dice, mut picks) = (Rng::new(20), Rng::new(2000));
    let (mut won, mut reasons) = ([0usize; 2], 0);
    for g in 0..per {
        for (game, start) in
            [("duel", seed.win_chance(0, 0).unwrap()), ("duel-cardgames", cardgames.win_chance(0, 0).unwrap())]
        {
            let stray = 10 * (g % 3) as u64;
            let rngs = (&mut dice, &mut picks);
            let (text, values, winner) = if game == "duel" {
                play_duel(seed, game, rngs, stray)
            } else {
                play_duel(cardgames, game, rngs, stray)
            };
            let review = review_of(&tables, game, &text);
            assert_eq!((review.measure, review.players(), review.turn_start), (Measure::Win, 2, start), "{text}");
            assert_eq!(review.winner, Some(winner), "{text}");
            won[winner] += 1;
            let outcome = review.outcome().unwrap();
            let off =
                outcome - start - (review.luck_of(0) - review.luck_of(1) - (review.loss_of(0) - review.loss_of(1)));
            assert!(off.abs() < 1e-9, "{outcome} - {start} != luck - loss (off {off})\n{text}");
            assert!(same(&chosen_values(&review), &values), "each value taken is the table's\n{text}");
            assert!(review.decisions.iter().all(|d| d.loss() >= 0.0), "a loss below 0\n{text}");
            // Each player rated from the reference players' games against the table's optimal player.
            assert!((0..2).all(|p| review.rating_of(p).is_some()), "each player rated\n{text}");
            if stray == 0 {
                assert!(review.largest_mistakes(5).is_empty(), "the table's keeps give nothing away\n{text}");
            }
            let scoring = if game == "duel" { TenkScoring::Seed } else { TenkScoring::Cardgames };
            reasons += parts_add_up(&review, &text, scoring);
        }
    }
    assert!(reasons > 0, "the mistakes have their reasons");
    assert!(won[0] > 0 && won[1] > 0, "{won:?} won by player 1, player 2");
    eprintln!("{per} games of each duel table reviewed: {won:?} won by player 1, player 2");
}

/// At a goal of 1000 with an entry of 500 (tables the generator writes
/// here), each reviewed game's values against the independent brute force:
/// the start, each throw's value (its best keep's, or a bust's) and each
/// bank's, within 1e-9.
#[test]
fn duel_reviews_agree_with_brute_force_at_a_small_goal() {
    let dir = crate::duel::small_tables(1000, 500);
    let tables = Tables::open_dir(&dir).unwrap();
    let duel = tables.get::<SeedDuel>().unwrap();
    let brute = BruteDuel::solve(TenkScoring::Seed, 1000, 500);
    let (mut dice, mut picks) = (Rng::new(30), Rng::new(3000));
    let (mut checked, mut worst) = (0, 0.0f64);
    for g in 0..40 {
        let (text, _, _) = play_duel(duel, "duel", (&mut dice, &mut picks), 10 * (g % 3) as u64);
        let review = review_of(&tables, "duel", &text);
        assert!((review.turn_start - brute.win_chance(0, 0)).abs() < 1e-9);
        // Replayed here: the totals before each throw.
        let (mut totals, mut mover) = ([0u32; 2], 0);
        for d in &review.decisions {
            assert_eq!(d.player, mover, "{text}");
            let (me, opp) = (totals[mover], totals[1 - mover]);
            let faces: Vec<u8> = d.dice.to_string().bytes().map(|b| b - b'0').collect();
            let options = brute.options(me, opp, &faces, d.score);
            let want = match options.iter().map(|o| o.1).reduce(f64::max) {
                Some(best) => best,
                None => 1.0 - brute.win_chance(opp, me),
            };
            worst = worst.max((d.after - want).abs());
            match d.chosen {
                None => mover = 1 - mover,
                Some((c, v)) if c.then == Then::Bank => {
                    totals[mover] += d.score + c.points;
                    let bank = if totals[mover] >= 1000 { 1.0 } else { 1.0 - brute.win_chance(opp, totals[mover]) };
                    worst = worst.max((v - bank).abs());
                    mover = 1 - mover;
                }
                Some(_) => {}
            }
            checked += 1;
        }
    }
    assert!(worst < 1e-9, "a value {worst:e} from the brute force's");
    eprintln!("{checked} throws of 40 games at goal 1000, entry 500: within {worst:e} of the brute force");
}

/// `reader review` of a game of 10000 against someone: the text's header
/// names the game; the words give each player's luck, losses and accuracy
/// and the largest mistake; `--json` gives the same figures; a line that
/// breaks the rules is refused naming it, with exit status 2.
#[test]
fn reader_review_reviews_a_game_of_10000() {
    let dir = dice_tables_tests::made_tables();
    let tables = Tables::open_dir(&dir).unwrap();
    let seed = tables.get::<SeedDuel>().unwrap();
    let (mut dice, mut picks) = (Rng::new(40), Rng::new(4000));
    let (text, _, winner) = play_duel(seed, "duel", (&mut dice, &mut picks), 20);
    let review = review_of(&tables, "duel", &text);
    let file = dice_tables_tests::scratch("tenk-review").join("game.txt");
    std::fs::write(&file, &text).unwrap();
    let env = [("DICE_TABLES", dir.to_str().unwrap())];
    let out = run("reader", &["review", file.to_str().unwrap()], &env);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let words = String::from_utf8(out.stdout).unwrap();
    assert!(words.starts_with("10000, two players (duel: entry 1000, goal 10000):"), "{words}");
    assert!(words.contains(&format!("player {} wins", winner + 1)), "{words}");
    for p in 0..2 {
        let line = format!("player {}: accuracy {:.1} (best play 100)", p + 1, review.accuracy_of(p));
        assert!(words.contains(&line), "{line}\n{words}");
    }
    if let Some(m) = review.largest_mistakes(1).first() {
        let loss = format!("line {}, player {}: threw {} at turn score {}:", m.line, m.player + 1, m.dice, m.score);
        assert!(words.contains(&loss) && words.contains("gave away"), "{loss}\n{words}");
    }
    let out = run("reader", &["review", "duel", file.to_str().unwrap(), "--json"], &env);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json = String::from_utf8(out.stdout).unwrap();
    assert_eq!(json.trim(), review_json(&tables, "duel", &text), "--json is the library's JSON");
    assert!(json.contains(&format!("\"outcome\":{}", if winner == 0 { "1" } else { "0" })), "{json}");

    for (game, bad, why) in [
        ("10000", "1123 keep 1 throw", "1123 is 4 dice: 6 are thrown (six open each turn)"),
        ("10000", "112346 bust", "112346 scores (its keeps: "),
        ("10000", "123346 keep 3 throw", "keep 3 is not a scoring keep of 123346: its keeps are 1"),
        ("10000", "234466 keep 66 throw", "234466 scores nothing: it is a bust, written 234466 bust"),
        ("10000", "112346 keep 1 stay", "write the dice thrown, then keep DICE bank, keep DICE throw or bust"),
        ("10000", "2: 112346 keep 1 bank", "player 2: a game of tenk is played alone"),
        ("duel", "112346 keep 1 bank", "banking 100 is not allowed: with nothing banked a player banks from 1000"),
        ("duel", "2: 112346 keep 1 throw", "player 2 is written, but it is player 1's turn"),
        (
            "duel",
            "target: 300\n112346 keep 1 throw",
            "in each player's chance of winning, not played for 300: name no target",
        ),
        ("duel", "game: yatzy\n112346 keep 1 throw", "the text is a game of yatzy, reviewed here as duel's"),
        ("10000", "players: 2\n112346 keep 1 throw", "players: 2: tenk is 10000 alone"),
    ] {
        std::fs::write(&file, bad).unwrap();
        let out = run("reader", &["review", game, file.to_str().unwrap()], &env);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(why) && err.lines().count() == 1, "{bad}: {err}");
    }
}

fn review_json(tables: &Tables, name: &str, text: &str) -> String {
    reviewed(tables, name, None, text).unwrap().to_json().to_string()
}

/// The two-player 10000 game of tests/golden/duel-two-mistakes.txt (the
/// table's best keep everywhere but player 1's two throws on lines 34 and
/// 65): the review lists exactly those two, player 2 gives nothing away,
/// and player 1 wins.
#[test]
fn a_duel_game_with_two_mistakes_lists_exactly_those() {
    let tables = Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let game = dice_tables_tests::repo_tables().join("../tests/golden/duel-two-mistakes.txt");
    let review = review_of(&tables, "duel", &std::fs::read_to_string(game).unwrap());
    let lines: Vec<usize> = review.largest_mistakes(5).iter().map(|d| d.line).collect();
    assert_eq!(lines, [34, 65]);
    assert!(review.largest_mistakes(5).iter().all(|d| d.player == 0 && d.loss() > 0.005));
    assert!(review.loss_of(1) <= Measure::Win.tie(), "player 2 plays the table's keeps");
    assert_eq!((review.winner, review.outcome()), (Some(0), Some(1.0)));
    // Line 34 kept 444 of 124444 and threw on: the keep gave the chance away (14444 and bank was best).
    let why = review.decisions.iter().find(|d| d.line == 34).and_then(|d| d.reason.clone()).expect("a reason");
    assert!(
        why.text.starts_with("keep 14444 and bank rather than 444 and throw 3 dice (a bust 27.8 %) +"),
        "{}",
        why.text
    );
}

/// Two-player 10000's reference players, 300 games each against the duel
/// table's optimal player (`make bench` plays 10,000 and holds them to
/// crates/lookup/src/reference_players.tsv): the optimal player gives
/// nothing away and wins about half its games; the max-expected-score
/// player, a softmax player and the random player give more away in that
/// order, and win fewer points in that order.
#[test]
fn duel_reference_players_are_ordered_as_their_strength() {
    use dice_tables_tests::tenk_players::{play_all_against_optimal, TenkPlayer};
    let tables = Tables::open_dir(dice_tables_tests::made_tables()).unwrap();
    let (duel, tenk) = (tables.get::<SeedDuel>().unwrap(), tables.get::<Tenk>().unwrap());
    let who = [TenkPlayer::Optimal, TenkPlayer::MaxExpectedScore, TenkPlayer::Softmax(0.04), TenkPlayer::Random];
    let played = play_all_against_optimal(duel, tenk, &who, 300, 7).unwrap();
    let mean = |p: usize, f: fn(&dice_tables_tests::reference_players::Played) -> f64| {
        played[p].iter().map(f).sum::<f64>() / played[p].len() as f64
    };
    let losses: Vec<f64> = (0..who.len()).map(|p| mean(p, |g| g.loss)).collect();
    let shares: Vec<f64> = (0..who.len()).map(|p| mean(p, |g| f64::from(g.score)) / 2.0).collect();
    assert_eq!(losses[0], 0.0, "the optimal player gives nothing away");
    assert!(losses.windows(2).all(|w| w[0] < w[1]), "losses {losses:?}");
    assert!((0.4..0.6).contains(&shares[0]) && shares.windows(2).all(|w| w[0] > w[1]), "shares {shares:?}");
}

/// 10000 alone's reference players, 10,000 games each (about a second),
/// played to a banked 10,000 and met as a race (the fewer turns wins):
/// `reference-players` reproduces every figure
/// crates/lookup/src/reference_players.tsv holds within 4 standard errors,
/// and the players who give more away per turn rate lower. From the
/// figures a game giving nothing away rates as the optimal player, one
/// giving away more per turn than the random player as 0, and the rating
/// falls as the loss per turn grows.
#[test]
fn tenk_alone_reference_players_are_reproduced_and_ordered() {
    use dice_tables_lookup::review::{rating, reference_players};
    let made = dice_tables_tests::made_tables();
    let figures = env!("CARGO_MANIFEST_DIR").to_string() + "/../crates/lookup/src/reference_players.tsv";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_reference-players"))
        .args(["10000", made.to_str().unwrap(), "--check", &figures, "tenk"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("every figure reproduced within 4 standard errors"), "{said}");
    let tables = Tables::open_dir(&made).unwrap();
    let start = tables.get::<Tenk>().unwrap().turn_value(6, 0).unwrap();
    let players = reference_players("tenk", start);
    let names: Vec<&str> = players.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(names.len(), dice_tables_tests::tenk_players::TenkPlayer::ALONE.len(), "{names:?}");
    let optimal = players.iter().find(|p| p.0 == "optimal").unwrap();
    assert_eq!((optimal.1, rating("tenk", start, 0.0)), (0.0, Some(optimal.2)));
    assert_eq!(rating("tenk", start, 1e6), Some(0.0));
    let curve: Vec<f64> = (0..=400).map(|l| rating("tenk", start, f64::from(l)).unwrap()).collect();
    assert!(curve.windows(2).all(|w| w[1] <= w[0]), "the rating rises with the loss: {curve:?}");
}

/// Every throw that gave something away has its reason, whose two parts
/// (the keep's, and banking or throwing on after it) add up to the loss
/// within 1e-12, and none other has one; each bust chance its words name
/// (`throw 3 dice (a bust 27.8 %)`) is the share of every throw of those
/// dice, each ordering counted, that has no keep under `scoring`, to the
/// words' rounding; how many reasons there were.
fn parts_add_up(review: &TenkReview, text: &str, scoring: TenkScoring) -> usize {
    let tie = review.measure.tie();
    for d in &review.decisions {
        match &d.reason {
            Some(why) => {
                let total: f64 = why.parts.iter().map(|(_, x)| x).sum();
                assert!((total - d.loss()).abs() < 1e-12, "line {}: {total} != {}\n{text}", d.line, d.loss());
                assert!(!why.text.is_empty(), "line {}: a reason in words\n{text}", d.line);
                let named = busts_named(&why.text);
                assert_eq!(named.len(), why.text.matches("throw ").count(), "line {}: {}", d.line, why.text);
                for (dice, said) in named {
                    let bust = 100.0 * bust_by_counting(dice, scoring);
                    assert!(
                        (said - bust).abs() <= 0.05 + 1e-9,
                        "line {}: {dice} dice bust {bust} %, said {said}",
                        d.line
                    );
                }
            }
            None => assert!(d.loss() <= tie, "line {}: no reason for {}\n{text}", d.line, d.loss()),
        }
    }
    review.decisions.iter().filter(|d| d.reason.is_some()).count()
}

/// Each `throw N dice (a bust P %)` of a reason's words: (N, P).
fn busts_named(words: &str) -> Vec<(usize, f64)> {
    words
        .split("throw ")
        .skip(1)
        .filter_map(|rest| {
            let (dice, rest) = rest.split_once(' ')?;
            let (_, rest) = rest.split_once("(a bust ")?;
            let (percent, _) = rest.split_once(" %)")?;
            Some((dice.parse().ok()?, percent.parse().ok()?))
        })
        .collect()
}

/// The chance that `dice` dice thrown have no keep, from every one of the
/// 6^dice ordered throws (the oracle's keeps, not the reader's).
fn bust_by_counting(dice: usize, scoring: TenkScoring) -> f64 {
    dice_tables_tests::throw_outcomes(dice)
        .into_iter()
        .filter(|(throw, _)| dice_tables_tests::keeps_under(throw, scoring).is_empty())
        .map(|(_, p)| p)
        .sum()
}
