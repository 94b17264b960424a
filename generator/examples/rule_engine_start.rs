//! The start value of a preset or a rule file under the rule engine, timed
//! from the rules read to the value solved:
//! `cargo run --release -p dice-tables-generator --example rule_engine_start -- NAME|FILE`.
use dice_tables_generator::rule_sets::{preset, read};

fn main() -> std::process::ExitCode {
    let asked = std::env::args().nth(1).unwrap_or_else(|| "yatzy".into());
    let rules = match preset(&asked) {
        Some(rules) => Ok(rules),
        None => std::fs::read_to_string(&asked)
            .map_err(|e| format!("{asked} is no preset, and cannot be read as a file: {e}"))
            .and_then(|text| read(&text).map_err(|e| format!("{asked} {e}"))),
    };
    let rules = match rules {
        Ok(rules) => rules,
        Err(why) => {
            eprintln!("rule_engine_start: {why}");
            return std::process::ExitCode::from(2);
        }
    };
    let started = std::time::Instant::now();
    match dice_tables_generator::rule_engine::solve(&rules) {
        Ok(s) => {
            println!("{asked}: {:.10} in {:.2} s", s.start(), started.elapsed().as_secs_f64());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rule_engine_start: {asked}: {}", e.0);
            std::process::ExitCode::from(2)
        }
    }
}
