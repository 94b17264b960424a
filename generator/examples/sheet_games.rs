//! yatzy and yahtzee played from their tables' own decisions: 1,000,000
//! games each; the mean must lie within 4 standard errors of the table's
//! start value. Writes target/yatzy-scores.svg and target/yahtzee-scores.svg.
//!
//! `cargo run --release -p dice-tables-generator --example sheet_games [GAMES] [TABLES]`
//! (`make bench` runs it on tables/).

use std::process::ExitCode;
use std::time::Instant;

use dice_tables_generator::play::{histogram_svg, mean_sd_se, score_histogram};
use dice_tables_reader::sheet::{ScoreSheet, SheetGame, YahtzeeGame, YatzyGame};
use dice_tables_reader::Tables;

fn run<G: SheetGame>(tables: &Tables, games: u64, seed: u64) -> Result<bool, dice_tables_reader::Error> {
    let sheet = tables.get::<ScoreSheet<G>>()?;
    let categories = G::CATEGORIES.len() as u32;
    let value = sheet.turn_start_value(sheet.state((1 << categories) - 1, 0, false)?)?;
    let start = Instant::now();
    let counts = score_histogram(sheet, games, seed)?;
    let (mean, sd, se) = mean_sd_se(&counts);
    let within = (mean - value).abs() < 4.0 * se;
    println!(
        "{}: table's value {value:.7}; {games} games in {:.1} s: mean {mean:.4} (sd {sd:.4}, se {se:.4}), {:+.2} se{}",
        G::ID,
        start.elapsed().as_secs_f64(),
        (mean - value) / se,
        if within { "" } else { ": OUTSIDE 4 standard errors" }
    );
    let path = format!("target/{}-scores.svg", G::ID);
    let title = format!("{} ({}): final scores of {games} games played from the table", G::ID, rules_text(sheet));
    match std::fs::write(&path, histogram_svg(&title, &counts, 2, value)) {
        Ok(()) => println!("  histogram: {path}"),
        Err(e) => eprintln!("  cannot write {path}: {e}"),
    }
    Ok(within)
}

fn rules_text<G: SheetGame>(sheet: &ScoreSheet<G>) -> String {
    match sheet.rules().joker {
        None => "Scandinavian rules".to_string(),
        Some(j) => format!("{j:?} joker").to_lowercase(),
    }
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
    let mut ok = true;
    for result in [run::<YatzyGame>(&tables, games, 1), run::<YahtzeeGame>(&tables, games, 2)] {
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
