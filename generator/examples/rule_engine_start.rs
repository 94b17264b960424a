//! The start value of a preset or rule file under the rule engine, timed:
//! `cargo run --release -p dice-tables-generator --example rule_engine_start -- NAME|FILE`.
fn main() {
    let asked = std::env::args().nth(1).unwrap_or_else(|| "yatzy".into());
    let rules = dice_tables_generator::rule_sets::preset(&asked)
        .or_else(|| std::fs::read_to_string(&asked).ok().and_then(|t| dice_tables_generator::rule_sets::read(&t).ok()))
        .expect("a preset or a rule file");
    let started = std::time::Instant::now();
    match dice_tables_generator::rule_engine::solve(&rules) {
        Ok(s) => println!("{asked}: {:.10} in {:.2} s", s.start(), started.elapsed().as_secs_f64()),
        Err(e) => println!("{asked}: {}", e.0),
    }
}
