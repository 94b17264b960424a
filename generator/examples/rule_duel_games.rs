//! A rule set played by two players: the exact figures (the first player's
//! chance, the solve's player and the best response against the
//! max-expected-score player in each seat, where a box wins at once how
//! often a game ends on it), written to target/NAME-duel-versus.txt; then
//! GAMES games of the solve's player against itself and GAMES against the
//! max-expected-score player (each seat half of them), played with dice.
//! Each share must lie within 4 standard errors of its exact figure (the
//! exit status says whether every one did).
//!
//! `cargo run --release -p dice-tables-generator --example rule_duel_games NAME [GAMES]`
//! (`make bench` runs it on each two-player rule-set table with 200,000).

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use dice_tables_generator::play::compare_share;
use dice_tables_generator::rule_engine::duel::games::{Games, Seat, Values};
use dice_tables_generator::rule_engine::duel::versus::{versus_with, Expected};
use dice_tables_generator::rule_sets::preset;

fn run(name: &str, games: u64) -> Result<bool, Box<dyn std::error::Error>> {
    let rules = preset(name).ok_or_else(|| format!("{name}: not a preset"))?;
    let start = Instant::now();
    let expected = Expected::new(&rules).map_err(|e| e.0)?;
    let mut values = Values::new(&rules);
    let mut progress = |done: usize, total: usize| {
        eprint!("\r{name}: evaluating layer {done} of {total}");
        let _ = std::io::stderr().flush();
    };
    let v = versus_with(&rules, &expected, &mut progress, &mut |layer| values.keep(layer)).map_err(|e| e.0)?;
    eprintln!();
    let seconds = start.elapsed().as_secs_f64();
    let path = format!("target/{name}-duel-versus.txt");
    std::fs::write(&path, v.to_lines())?;
    println!("{name}: exact figures in {seconds:.1} s (the solve, its player's and the best response's evaluations), written to {path}");
    print!("{}", v.to_lines());
    let games_of = Games::new(&rules, &values, &expected);
    let mut ok = true;
    let start = Instant::now();
    let (mean, se, at_once) = games_of.play_many([Seat::Table; 2], games, 1);
    let seconds = start.elapsed().as_secs_f64();
    ok &= compare_share(
        "the solve's player against itself, the first player's share",
        (mean, se),
        v.first,
        games,
        seconds,
    );
    if let Some(p) = v.ends_at_once {
        let se = (p * (1.0 - p) / games as f64).sqrt();
        ok &= compare_share(
            "the same games, the share that ended on a box that wins at once",
            (at_once, se),
            p,
            games,
            seconds,
        );
    }
    for (seats, exact, key, seed) in [
        ([Seat::Table, Seat::Expected], v.table_first, "moving first", 2),
        ([Seat::Expected, Seat::Table], v.table_second, "moving second", 3),
    ] {
        let start = Instant::now();
        let (first, se, _) = games_of.play_many(seats, games / 2, seed);
        let share = if seats[0] == Seat::Table { first } else { 1.0 - first };
        let what = format!("the solve's player against the max-expected-score player, {key}");
        ok &= compare_share(&what, (share, se), exact, games / 2, start.elapsed().as_secs_f64());
    }
    Ok(ok)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(name) = args.next() else {
        eprintln!("rule_duel_games: give a preset's name (forced-yatzy, generala, yacht, crag), then GAMES");
        return ExitCode::from(2);
    };
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    match run(&name, games) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("rule_duel_games: {e}");
            ExitCode::FAILURE
        }
    }
}
