//! yatzy and yahtzee played from their tables' own decisions: 1,000,000
//! games of each table (yatzy, yahtzee under the forced joker reading from
//! the tables directory, yahtzee under the free reading solved here); each
//! mean must lie within 4 standard errors of the table's start value.
//! Writes target/yatzy-scores.svg, target/yahtzee-scores.svg and
//! target/yahtzee-free-scores.svg.
//!
//! `cargo run --release -p dice-tables-generator --example sheet_games [GAMES] [TABLES]`
//! (`make bench` runs it on tables/).

use std::process::ExitCode;
use std::time::Instant;

use dice_tables_generator::play::{histogram_svg, mean_sd_se, score_histogram};
use dice_tables_generator::{solve, Rules};
use dice_tables_reader::sheet::{ScoreSheet, SheetGame, YahtzeeFree, YahtzeeGame, YatzyGame};
use dice_tables_reader::{Error, Game, Tables};

/// Plays `games` games from `sheet`; true when the mean is within 4 standard errors.
fn run<G: SheetGame>(sheet: &ScoreSheet<G>, name: &str, games: u64, seed: u64) -> Result<bool, Error> {
    let categories = G::CATEGORIES.len() as u32;
    let value = sheet.turn_start_value(sheet.state((1 << categories) - 1, 0, false)?)?;
    let start = Instant::now();
    let counts = score_histogram(sheet, games, seed)?;
    let (mean, sd, se) = mean_sd_se(&counts);
    let within = (mean - value).abs() < 4.0 * se;
    println!(
        "{name}: table's value {value:.7}; {games} games in {:.1} s: mean {mean:.4} (sd {sd:.4}, se {se:.4}), {:+.2} se{}",
        start.elapsed().as_secs_f64(),
        (mean - value) / se,
        if within { "" } else { ": OUTSIDE 4 standard errors" }
    );
    let path = format!("target/{name}-scores.svg");
    let title = format!("{name}: final scores of {games} games played from the table");
    match std::fs::write(&path, histogram_svg(&title, &counts, 2, value)) {
        Ok(()) => println!("  histogram: {path}"),
        Err(e) => eprintln!("  cannot write {path}: {e}"),
    }
    Ok(within)
}

/// The yahtzee table under the free joker reading, solved in memory.
fn free_yahtzee() -> Result<YahtzeeFree, Error> {
    let solved = solve("yahtzee-free", &Rules::default(), |_, _| {}).expect("the generator solves yahtzee-free");
    Ok(YahtzeeFree::from_vec(solved.encode())?)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dir = args.next().map(std::path::PathBuf::from).unwrap_or_else(Tables::default_dir);
    let tables = match Tables::open_dir(&dir) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sheet_games: {e}");
            return ExitCode::FAILURE;
        }
    };
    let results = [
        tables.get::<ScoreSheet<YatzyGame>>().map_err(Error::from).and_then(|t| run(t, "yatzy", games, 1)),
        tables.get::<ScoreSheet<YahtzeeGame>>().map_err(Error::from).and_then(|t| run(t, "yahtzee", games, 2)),
        free_yahtzee().and_then(|t| run(&t, "yahtzee-free", games, 3)),
    ];
    let mut ok = true;
    for result in results {
        match result {
            Ok(within) => ok &= within,
            Err(e) => {
                eprintln!("sheet_games: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
