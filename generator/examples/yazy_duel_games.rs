//! Two-player yazy played from the tables, every roll decided again from
//! them: GAMES games of the two-player table's player against itself, and
//! GAMES against the max-expected-score player (yazy's table), each seat
//! half of them. The first player's share against itself (wins, ties
//! half) must lie within 4 standard errors of the table's V(all, all, 0),
//! and the table's player's share in each seat within 4 standard errors of
//! the exact figures the example `yazy_versus` wrote to
//! target/yazy-versus.txt (run it first).
//!
//! `cargo run --release -p dice-tables-generator --example yazy_duel_games [GAMES] [TABLES]`
//! (`make bench` runs it with 200,000 on tables/).

use std::process::ExitCode;
use std::time::Instant;

use dice_tables_generator::play::{compare_share, roll_turn, DiceRng, Step};
use dice_tables_reader::yazy::duel::YazyDuel;
use dice_tables_reader::yazy::{points, Action, Mask, Yazy};
use dice_tables_reader::{Error, Tables};
use rayon::prelude::*;

/// How a seat plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    /// The two-player table's decisions.
    Table,
    /// yazy's table's decisions (the most points on average).
    Expected,
}

/// One game from the start; the first player's result: 1 for a win, 1/2
/// for a tie, 0 for a loss.
fn play(duel: &YazyDuel, yazy: &Yazy, seats: [Player; 2], rng: &mut DiceRng) -> Result<f64, Error> {
    let (mut sheets, mut totals) = ([Mask::ALL; 2], [0i64; 2]);
    for turn in 0..22 {
        let (me, other) = (turn % 2, 1 - turn % 2);
        let table_turn = match seats[me] {
            Player::Table => Some(duel.turn(sheets[me], sheets[other], totals[me] - totals[other])?),
            Player::Expected => None,
        };
        let (dice, c) = roll_turn(rng, |dice, rerolls| {
            let action = match &table_turn {
                Some(t) => t.options(dice, rerolls)?.best().map(|o| o.action),
                None => yazy.best_action(sheets[me], dice, rerolls)?,
            };
            match action {
                Some(Action::Keep(keep)) if rerolls > 0 => Ok(Step::Keep(keep)),
                Some(Action::Score(c)) => Ok(Step::Score(c)),
                other => unreachable!("a category is open and the dice are legal, not {other:?}"),
            }
        })?;
        totals[me] += i64::from(points(&dice, usize::from(c.index())));
        sheets[me] = sheets[me].without(c);
    }
    Ok(match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    })
}

/// The mean of the first player's results over `games` games and its
/// standard error, each block of games from its own stream (so the result
/// does not depend on the thread count).
fn first_player(duel: &YazyDuel, yazy: &Yazy, seats: [Player; 2], games: u64, seed: u64) -> Result<(f64, f64), Error> {
    const BLOCK: u64 = 1000;
    let sums = (0..games.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let mut rng = DiceRng::new(seed.wrapping_mul(0x1000_0000_0000) ^ b);
            let mut sums = (0.0, 0.0);
            for _ in 0..BLOCK.min(games - b * BLOCK) {
                let r = play(duel, yazy, seats, &mut rng)?;
                sums = (sums.0 + r, sums.1 + r * r);
            }
            Ok(sums)
        })
        .collect::<Result<Vec<(f64, f64)>, Error>>()?;
    let (sum, squares) = sums.iter().fold((0.0, 0.0), |a, s| (a.0 + s.0, a.1 + s.1));
    let n = games as f64;
    let mean = sum / n;
    let var = (squares / n - mean * mean) * n / (n - 1.0);
    Ok((mean, (var / n).sqrt()))
}

fn run(games: u64, dir: &std::path::Path) -> Result<bool, Box<dyn std::error::Error>> {
    let tables = Tables::open_dir(dir)?;
    let (duel, yazy) = (tables.get::<YazyDuel>()?, tables.get::<Yazy>()?);
    let figures = std::fs::read_to_string("target/yazy-versus.txt")
        .map_err(|e| format!("target/yazy-versus.txt: {e} (run the example yazy_versus first)"))?;
    let figure = |key: &str| -> Result<f64, String> {
        figures
            .lines()
            .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(' ')))
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("target/yazy-versus.txt has no {key}"))
    };
    let mut ok = true;
    let start = Instant::now();
    let against_itself = first_player(duel, yazy, [Player::Table; 2], games, 1)?;
    let exact = duel.chance(Mask::ALL, Mask::ALL, 0)?;
    let name = "the table's player against itself, the first player's share";
    ok &= compare_share(name, against_itself, exact, games, start.elapsed().as_secs_f64());
    for (seats, key, seed) in
        [([Player::Table, Player::Expected], "table_first", 2), ([Player::Expected, Player::Table], "table_second", 3)]
    {
        let start = Instant::now();
        let (first, se) = first_player(duel, yazy, seats, games / 2, seed)?;
        let share = if seats[0] == Player::Table { first } else { 1.0 - first };
        let name = format!("the table's player against the max-expected-score player ({key})");
        ok &= compare_share(&name, (share, se), figure(key)?, games / 2, start.elapsed().as_secs_f64());
    }
    Ok(ok)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let dir = args.next().map(std::path::PathBuf::from).unwrap_or_else(Tables::default_dir);
    match run(games, &dir) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("yazy_duel_games: {e}");
            ExitCode::FAILURE
        }
    }
}
