//! Two-player yazy's exact figures against the max-expected-score player
//! (yazy's own table): the two-player table's player and the best response
//! to it, each moving first and moving second, evaluated over every state
//! of both sheets (`make bench` runs it). Usage: yazy_versus [CATEGORIES],
//! a yazy mask of the categories both sheets use (default: all 11).

use std::time::Instant;

use dice_tables_generator::yazy::versus::{against_expected, Expected, Way};
use dice_tables_reader::yazy::Mask;

fn main() {
    let universe = match std::env::args().nth(1) {
        Some(m) => m.parse::<Mask>().unwrap_or_else(|e| panic!("{e}")).bits(),
        None => Mask::ALL.bits(),
    };
    let start = Instant::now();
    let expected = Expected::new(2);
    eprintln!("the max-expected-score player's decisions: {:.1} s", start.elapsed().as_secs_f64());
    let mut written = String::new();
    for (way, name, key) in
        [(Way::Table, "the two-player table's player", "table"), (Way::Best, "the best response", "best")]
    {
        for (a_first, seat) in [(true, "first"), (false, "second")] {
            let start = Instant::now();
            let p = against_expected(universe, 2, way, a_first, &expected);
            println!(
                "{name}, moving {seat}, against the max-expected-score player: wins {p:.10} (ties half) [{:.1} s]",
                start.elapsed().as_secs_f64()
            );
            written += &format!("{key}_{seat} {p:.17}\n");
        }
    }
    // For the simulations of `yazy_duel_games` (the whole game only).
    if universe == Mask::ALL.bits() {
        std::fs::write("target/yazy-versus.txt", written).expect("write target/yazy-versus.txt");
    }
}
