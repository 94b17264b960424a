//! Two-player yazy's exact figures against the max-expected-score player
//! (yazy's own table): the two-player table's player, the best response to
//! it and the opponent-aware advisor, each moving first and moving second;
//! then the advisor against the table's player and against itself; each
//! evaluated over every state of both sheets (`make bench` runs it). The
//! advisor's targets are asserted: against the max-expected-score player
//! it keeps at least 80% of the table's player's edge over 1/2, in each
//! seat, and against the table's player it wins at least 0.495, seats
//! alternating. Against the max-expected-score player, the advisor's own
//! estimate at its turn starts (the reader's `yazy --advisor` lookup, from
//! TABLES/yazy-target.dtab) is set beside its exact chance there, on
//! random states of every layer: the mean absolute error and the worst
//! are reported, and its last turns (the opponent done) are asserted exact
//! within 1e-7. Usage: yazy_versus [CATEGORIES [TABLES]], a yazy mask of
//! the categories both sheets use (default: all 11) and the tables
//! directory (default: $DICE_TABLES, else ./tables).

use std::time::Instant;

use dice_tables_generator::play::DiceRng;
use dice_tables_generator::yazy::duel::{most, Layer};
use dice_tables_generator::yazy::expected::Expected;
use dice_tables_generator::yazy::versus::{
    advisor_against_expected, advisor_against_itself, advisor_against_table, against_expected, Way,
};
use dice_tables_reader::yazy::target::YazyTarget;
use dice_tables_reader::yazy::Mask;
use dice_tables_reader::{Game, Tables};

/// The advisor's estimates beside its exact chances.
#[derive(Default)]
struct Errors {
    states: u64,
    sum: f64,
    worst: (f64, String),
    /// The largest error on a last turn (the opponent done).
    last_turn: f64,
}

impl Errors {
    /// Sets the estimate beside the exact chance at random states of
    /// `layer`, A (the advisor) to move: every pair with up to `per_layer`
    /// random unsettled leads, drawn from `rng`.
    fn add(&mut self, target: &YazyTarget, layer: &Layer, per_layer: usize, rng: &mut DiceRng) {
        let mask = |m: u16| Mask::new(u32::from(m)).expect("a mask");
        let pairs = &layer.pairs;
        for _ in 0..per_layer.min(pairs.len() * 64) {
            let pair = &pairs[below(rng, pairs.len())];
            let d = pair.lowest() + below(rng, (most(pair.o) - pair.lowest() + 1) as usize) as i32;
            let exact = layer.value(pair, d);
            let opponent = target.opponent(mask(pair.o), i64::from(d)).expect("a mask");
            let estimate = target.versus_chance(mask(pair.m), &opponent).expect("yazy-target answers");
            let error = (estimate - exact).abs();
            self.states += 1;
            self.sum += error;
            if error > self.worst.0 {
                let at = format!("open {:#013b}, the opponent's {:#013b}, lead {d}", pair.m, pair.o);
                self.worst = (error, format!("{at}: estimate {estimate:.7}, exact {exact:.7}"));
            }
            if pair.o == 0 {
                self.last_turn = self.last_turn.max(error);
            }
        }
    }
}

/// A whole number below `n` from 24 dice (6^24 is about 4.7e18).
fn below(rng: &mut DiceRng, n: usize) -> usize {
    ((0..24).fold(0u64, |a, _| a * 6 + u64::from(rng.die() - 1)) % n as u64) as usize
}

fn main() {
    let universe = match std::env::args().nth(1) {
        Some(m) => m.parse::<Mask>().unwrap_or_else(|e| panic!("{e}")).bits(),
        None => Mask::ALL.bits(),
    };
    let dir = std::env::args().nth(2).map(std::path::PathBuf::from).unwrap_or_else(Tables::default_dir);
    let target = YazyTarget::open(dir.join("yazy-target.dtab")).unwrap_or_else(|e| panic!("{e}"));
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
    let mut errors = Errors::default();
    let mut rng = DiceRng::new(7);
    for (a_first, seat) in [(true, "first"), (false, "second")] {
        let mut against = |way: Way, name: &str, key: &str| {
            let start = Instant::now();
            let p = match way {
                Way::Advisor => advisor_against_expected(universe, 2, a_first, &expected, |_, layer| {
                    errors.add(&target, layer, 2000, &mut rng)
                }),
                _ => against_expected(universe, 2, way, a_first, &expected),
            };
            let text = format!("{name}, moving {seat}, against the max-expected-score player");
            figure(format!("{key}_{seat}"), text, p, start)
        };
        let table = against(Way::Table, "the two-player table's player", "table");
        against(Way::Best, "the best response", "best");
        let advisor = against(Way::Advisor, "the advisor", "advisor");
        edges.push((seat, table - 0.5, advisor - 0.5));
    }
    println!(
        "the advisor's estimate at its turn starts against the max-expected-score player, beside its exact chance, \
         {} random states: mean absolute error {:.7}, worst {:.7} ({}); on its last turns, worst {:.1e}",
        errors.states,
        errors.sum / errors.states as f64,
        errors.worst.0,
        errors.worst.1,
        errors.last_turn
    );
    assert!(errors.last_turn < 1e-7, "a last turn's estimate is off by {}", errors.last_turn);
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
