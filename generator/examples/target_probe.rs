//! Development probe for the yatzy/yahtzee target solve: solves
//! the layers up to K open categories and prints states, values and time.
//! `cargo run --release -p dice-tables-generator --example target_probe -- yatzy|forced|free K`
use dice_tables_generator::sheet::target::solve;
use dice_tables_reader::sheet::{yahtzee, Joker, YATZY};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map(String::as_str).unwrap_or("yatzy");
    let max_open: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(99);
    let (preset, scoring) = match game {
        "yatzy" => ("yatzy", YATZY),
        "free" => ("yahtzee-free", yahtzee(Joker::Free)),
        _ => ("yahtzee", yahtzee(Joker::Forced)),
    };
    let t = std::time::Instant::now();
    let sol = solve(preset, &scoring, max_open, &mut |a, b| eprint!("\r{a}/{b} {:.1}s", t.elapsed().as_secs_f64()));
    eprintln!();
    println!("states {} values {} time {:.1}s", sol.states.len(), sol.len(), t.elapsed().as_secs_f64());
    let full = (1u32 << scoring.categories.len()) - 1;
    if let Some(start) = sol.states.id(full, false, 0) {
        let v = &sol.values[start];
        println!("start len {} sum {}", v.len(), v.iter().sum::<f64>());
        for t in [150, 200, 250, 300, 350, 400, 500] {
            println!("P*({t}) = {:.7}", sol.chance(start, t));
        }
    }
}
