//! A rule set played by two players, from its two-player table
//! (TABLES/NAME-duel.dtab, `generator --games NAME-duel` writes it): the
//! exact figures (the first player's chance, the table's player and the
//! best response against the max-expected-score player in each seat,
//! where a box wins at once how often a game ends on it), written to
//! target/NAME-duel-versus.txt (each pass's latest layer saved every ten
//! minutes in target/NAME-duel-versus/, so that a run stopped goes on
//! from there when started again); then GAMES games of the table's player
//! against itself and GAMES against the max-expected-score player (each
//! seat half of them), played with dice. Each share must lie within 4
//! standard errors of its exact figure (the exit status says whether
//! every one did).
//!
//! `cargo run --release -p dice-tables-generator --example rule_duel_games NAME [GAMES [TABLES]]`
//! (TABLES defaults to tables/; `make bench` runs it on forced Yatzy with 200,000).

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use dice_tables_generator::play::compare_share;
use dice_tables_generator::rule_engine::duel::games::{Games, Seat, TurnStarts};
use dice_tables_generator::rule_engine::duel::versus::{versus_with, Expected, Saves};
use dice_tables_generator::rule_sets::preset;
use dice_tables_reader::rule_sheet::{duel_stem, RuleDuel};
use dice_tables_reader::Game;

fn run(name: &str, games: u64, tables: &std::path::Path) -> Result<bool, Box<dyn std::error::Error>> {
    let rules = preset(name).ok_or_else(|| format!("{name}: not a preset"))?;
    let path = tables.join(format!("{}.dtab", duel_stem(name)));
    // SAFETY: nothing writes the table while this runs (the generator
    // replaces a table by renaming a new file over it).
    let open = || unsafe { RuleDuel::map(&path) };
    let table = open()?;
    let start = Instant::now();
    let expected = Expected::new(&rules).map_err(|e| e.0)?;
    let mut progress = |done: usize, total: usize| {
        eprint!("\r{name}: evaluating layer {done} of {total}");
        let _ = std::io::stderr().flush();
    };
    // Each pass's latest layer is saved under the table's checksums, so
    // that a run stopped part way (Yacht's and Crag's take hours) goes on.
    // SAFETY: as `open`.
    let header = unsafe { dice_tables_reader::Table::map(&path) }?.header().clone();
    let mut key = blake3::Hasher::new();
    for chunk in header.sections.iter().flat_map(|s| &s.chunks) {
        key.update(&chunk.blake3);
    }
    let dir = format!("target/{name}-duel-versus/{}", &key.finalize().to_hex()[..16]);
    let saves = Saves { dir: dir.as_ref(), every: Duration::from_secs(600) };
    let v = versus_with(&rules, &expected, &open, Some(&saves), &mut progress).map_err(|e| e.0)?;
    eprintln!();
    let seconds = start.elapsed().as_secs_f64();
    let out = format!("target/{name}-duel-versus.txt");
    std::fs::write(&out, v.to_lines())?;
    println!("{name}: exact figures in {seconds:.1} s (the table's player's and the best response's evaluations), written to {out}");
    print!("{}", v.to_lines());
    let start = Instant::now();
    let starts = TurnStarts::solve(&table, &open).map_err(|e| e.0)?;
    println!("{name}: the first player's turn starts solved from the table in {:.1} s", start.elapsed().as_secs_f64());
    let games_of = Games::new(&rules, &starts, &expected);
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
        eprintln!("rule_duel_games: give a preset's name (forced-yatzy, generala, yacht, crag), then GAMES and TABLES");
        return ExitCode::from(2);
    };
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200_000);
    let tables = args.next().unwrap_or_else(|| "tables".into());
    match run(&name, games, tables.as_ref()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("rule_duel_games: {e}");
            ExitCode::FAILURE
        }
    }
}
