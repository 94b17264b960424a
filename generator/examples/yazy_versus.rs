//! Two-player yazy's exact figures against the max-expected-score player
//! (yazy's own table): the two-player table's player, the best response to
//! it and the opponent-aware advisor, each moving first and moving second;
//! then the advisor against the table's player and against itself; each
//! evaluated over every state of both sheets (`make bench` runs it). The
//! advisor's targets are asserted: against the max-expected-score player
//! it keeps at least 80% of the table's player's edge over 1/2, in each
//! seat, and against the table's player it wins at least 0.495, seats
//! alternating. Usage: yazy_versus [CATEGORIES], a yazy mask of the
//! categories both sheets use (default: all 11).

use std::time::Instant;

use dice_tables_generator::yazy::versus::{
    advisor_against_itself, advisor_against_table, against_expected, Expected, Way,
};
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
    let mut figure = |key: String, text: String, p: f64, start: Instant| {
        println!("{text}: wins {p:.10} (ties half) [{:.1} s]", start.elapsed().as_secs_f64());
        written += &format!("{key} {p:.17}\n");
        p
    };
    let mut edges = Vec::new();
    for (a_first, seat) in [(true, "first"), (false, "second")] {
        let mut against = |way: Way, name: &str, key: &str| {
            let start = Instant::now();
            let p = against_expected(universe, 2, way, a_first, &expected);
            let text = format!("{name}, moving {seat}, against the max-expected-score player");
            figure(format!("{key}_{seat}"), text, p, start)
        };
        let table = against(Way::Table, "the two-player table's player", "table");
        against(Way::Best, "the best response", "best");
        let advisor = against(Way::Advisor, "the advisor", "advisor");
        edges.push((seat, table - 0.5, advisor - 0.5));
    }
    let mut against_table = 0.0;
    for (a_first, seat) in [(true, "first"), (false, "second")] {
        let start = Instant::now();
        let p = advisor_against_table(universe, 2, a_first, &expected);
        let text = format!("the advisor, moving {seat}, against the two-player table's player");
        against_table += figure(format!("advisor_table_{seat}"), text, p, start) / 2.0;
    }
    let start = Instant::now();
    let itself = advisor_against_itself(universe, 2, &expected);
    figure("advisor_itself_first".into(), "the advisor against itself, the first player".into(), itself, start);
    // For the simulations of `yazy_duel_games` (the whole game only).
    if universe == Mask::ALL.bits() {
        std::fs::write("target/yazy-versus.txt", written).expect("write target/yazy-versus.txt");
    }
    for (seat, table, advisor) in edges {
        let kept = advisor / table;
        println!("the advisor keeps {:.1} % of the table's edge moving {seat}", 100.0 * kept);
        assert!(kept >= 0.8, "moving {seat}, the advisor keeps {kept} of the edge (target: at least 0.8)");
    }
    println!("the advisor against the table's player, seats alternating: wins {against_table:.10}");
    assert!(against_table >= 0.495, "the advisor wins {against_table} against the table's player (target: 0.495)");
}
