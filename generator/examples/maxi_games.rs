//! Maxi Yatzy played from its tables' own decisions: GAMES games of each
//! table found in the tables directory (`maxi-yatzy`, and
//! `maxi-yatzy-swedish` when it is there); each mean must lie within 4
//! standard errors of the table's start value. Writes
//! target/maxi-yatzy-scores.svg (and -swedish).
//!
//! `cargo run --release -p dice-tables-generator --example maxi_games [GAMES] [TABLES]`
//! (`make bench` runs 200,000 on tables/; `make test` 2,000).
//!
//! Where the tables directory holds a table's exact score distribution
//! (`ID-scores.csv`, from `generator --score-distribution`), the games'
//! scores must also follow it: the largest gap between their cumulative
//! distribution and the exact one under 1.95 / sqrt(GAMES), the
//! Kolmogorov-Smirnov test at the 0.1 % level.

use std::process::ExitCode;
use std::time::Instant;

use dice_tables_generator::maxi::play::score_histogram;
use dice_tables_generator::play::{histogram_svg, mean_sd_se};
use dice_tables_reader::maxi::{Maxi, MaxiPreset, MaxiYatzy, MaxiYatzySwedish, ALL};
use dice_tables_reader::{Error, Tables};

/// The exact P(score = s) in a `score,p,p_at_least` file, if it is there.
fn exact_scores(path: &std::path::Path) -> Option<Result<Vec<f64>, String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let parse = |line: &str| -> Option<f64> { line.split(',').nth(1)?.parse().ok() };
    Some(
        text.lines()
            .skip(1)
            .map(|l| parse(l).ok_or_else(|| format!("{}: {l:?} is not score,p,p_at_least", path.display())))
            .collect(),
    )
}

/// The largest gap between the games' cumulative distribution and the exact one.
fn largest_gap(counts: &[u64], exact: &[f64]) -> f64 {
    let games: u64 = counts.iter().sum();
    let (mut played, mut expected, mut gap) = (0u64, 0.0, 0.0f64);
    for s in 0..counts.len().max(exact.len()) {
        played += counts.get(s).copied().unwrap_or(0);
        expected += exact.get(s).copied().unwrap_or(0.0);
        gap = gap.max((played as f64 / games as f64 - expected).abs());
    }
    gap
}

/// Plays `games` games from `table`; true when the mean is within 4
/// standard errors (and the scores follow the exact distribution in `dir`).
fn run<P: MaxiPreset>(table: &Maxi<P>, games: u64, seed: u64, dir: &std::path::Path) -> Result<bool, Error> {
    let value = table.turn_start_value(table.state(ALL, 0, 0)?)?;
    let start = Instant::now();
    let counts = score_histogram(table, games, seed)?;
    let (mean, sd, se) = mean_sd_se(&counts);
    let within = (mean - value).abs() < 4.0 * se;
    let name = P::ID;
    println!(
        "{name}: table's value {value:.7}; {games} games in {:.1} s: mean {mean:.4} (sd {sd:.4}, se {se:.4}), {:+.2} se{}",
        start.elapsed().as_secs_f64(),
        (mean - value) / se,
        if within { "" } else { ": OUTSIDE 4 standard errors" }
    );
    let mut within = within;
    match exact_scores(&dir.join(format!("{name}-scores.csv"))) {
        None => println!("  no {name}-scores.csv in the tables directory: the exact distribution is not compared"),
        Some(Err(e)) => {
            eprintln!("maxi_games: {e}");
            within = false;
        }
        Some(Ok(exact)) => {
            let (gap, bound) = (largest_gap(&counts, &exact), 1.95 / (games as f64).sqrt());
            let follows = gap < bound;
            within &= follows;
            println!(
                "  against the exact distribution: largest gap between the cumulative distributions {gap:.5} (at most {bound:.5}){}",
                if follows { "" } else { ": THE GAMES DO NOT FOLLOW IT" }
            );
        }
    }
    let path = format!("target/{name}-scores.svg");
    let title = format!("{name}: final scores of {games} games played from the table");
    match std::fs::write(&path, histogram_svg(&title, &counts, 4, value)) {
        Ok(()) => println!("  histogram: {path}"),
        Err(e) => eprintln!("  cannot write {path}: {e}"),
    }
    Ok(within)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let dir = args.next().map(std::path::PathBuf::from).unwrap_or_else(Tables::default_dir);
    let tables = match Tables::open_dir(&dir) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("maxi_games: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut results = vec![tables.get::<MaxiYatzy>().map_err(Error::from).and_then(|t| run(t, games, 1, &dir))];
    if dir.join("maxi-yatzy-swedish.dtab").exists() {
        results.push(tables.get::<MaxiYatzySwedish>().map_err(Error::from).and_then(|t| run(t, games, 2, &dir)));
    }
    let mut ok = true;
    for result in results {
        match result {
            Ok(within) => ok &= within,
            Err(e) => {
                eprintln!("maxi_games: {e}");
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
