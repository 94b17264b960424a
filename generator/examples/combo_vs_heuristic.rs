//! combo: optimal play (from the table) against the seed's hand-written
//! strategy. Prints the exact score distributions' summaries, plays both for
//! 1,000,000 games, and writes an SVG histogram of the two.
//!
//! `cargo run --release -p dice-tables-generator --example combo_vs_heuristic [GAMES] [SVG]`
//! (`make bench` runs it).

use std::fmt::Write as _;
use std::time::Instant;

use dice_tables_generator::combo::{final_score, score_distribution, summary, Player, SeedHeuristic};
use dice_tables_generator::play::DiceRng;
use dice_tables_generator::{solve, Rules};
use dice_tables_reader::combo::Combo;
use dice_tables_reader::{Dice, Game, Table};

/// The table's policy, looked up in the reader.
struct Optimal(Combo);

impl Player for Optimal {
    fn keep(&self, dice: Dice, rerolls_left: u8) -> Dice {
        self.0.best_keep(dice, rerolls_left).expect("five dice, rerolls in range")
    }
}

fn play(player: &impl Player, rerolls: u8, rng: &mut DiceRng) -> u8 {
    let mut faces: Vec<u8> = (0..5).map(|_| rng.die()).collect();
    for left in (1..=rerolls).rev() {
        let dice = Dice::from_faces(&faces).expect("five dice");
        let keep = player.keep(dice, left);
        if keep.len() == 5 {
            break;
        }
        faces = keep.faces().collect();
        faces.extend((faces.len()..5).map(|_| rng.die()));
    }
    final_score(&Dice::from_faces(&faces).expect("five dice"))
}

struct Played {
    histogram: Vec<u64>,
    mean: f64,
    low_rate: f64,
}

fn simulate(player: &impl Player, rerolls: u8, games: u64, seed: u64) -> Played {
    let mut rng = DiceRng::new(seed);
    let mut histogram = vec![0u64; 101];
    for _ in 0..games {
        histogram[usize::from(play(player, rerolls, &mut rng))] += 1;
    }
    let total: u64 = histogram.iter().enumerate().map(|(s, n)| s as u64 * n).sum();
    let low: u64 = histogram[..38].iter().sum();
    Played { mean: total as f64 / games as f64, low_rate: low as f64 / games as f64, histogram }
}

fn svg(optimal: &Played, heuristic: &Played, games: u64) -> String {
    let (w, h, left, bottom) = (900.0, 420.0, 70.0, 50.0);
    let max = optimal.histogram.iter().chain(&heuristic.histogram).copied().max().unwrap_or(1) as f64;
    let x = |s: f64| left + s * (w - left - 20.0) / 101.0;
    let y = |n: f64| h - bottom - n / max * (h - bottom - 40.0);
    let bar = (w - left - 20.0) / 101.0 / 2.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">combo, 5 rerolls: final scores over {games} games</text>"#,
        w / 2.0
    );
    for (played, colour, shift) in [(optimal, "#1f77b4", 0.0), (heuristic, "#ff7f0e", bar)] {
        for (s, &n) in played.histogram.iter().enumerate() {
            if n > 0 {
                let top = y(n as f64);
                let _ = writeln!(
                    out,
                    r#"<rect x="{:.2}" y="{top:.2}" width="{bar:.2}" height="{:.2}" fill="{colour}"/>"#,
                    x(s as f64) + shift,
                    h - bottom - top
                );
            }
        }
    }
    let _ = writeln!(
        out,
        r#"<line x1="{left}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#,
        h - bottom,
        w - 20.0,
        h - bottom
    );
    let _ = writeln!(out, r#"<line x1="{left}" y1="40" x2="{left}" y2="{}" stroke="black"/>"#, h - bottom);
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let n = (tick * max).round();
        let _ = writeln!(out, r#"<text x="{}" y="{:.1}" text-anchor="end">{n}</text>"#, left - 4.0, y(n) + 4.0);
    }
    let _ = writeln!(
        out,
        r#"<text x="14" y="{}" text-anchor="middle" transform="rotate(-90 14 {})">games</text>"#,
        (h - bottom) / 2.0 + 20.0,
        (h - bottom) / 2.0 + 20.0
    );
    for s in (0..=100).step_by(10) {
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{s}</text>"#,
            x(s as f64) + bar,
            h - bottom + 16.0
        );
    }
    let _ = writeln!(
        out,
        r#"<line x1="{:.1}" y1="40" x2="{:.1}" y2="{}" stroke="grey" stroke-dasharray="4 3"/>"#,
        x(38.0),
        x(38.0),
        h - bottom
    );
    let _ = writeln!(out, r#"<text x="{:.1}" y="52" fill="grey">38</text>"#, x(38.0) + 3.0);
    let _ = writeln!(out, r#"<text x="{}" y="{}" text-anchor="middle">final score</text>"#, w / 2.0, h - 12.0);
    for (i, (label, colour, played)) in
        [("optimal (table)", "#1f77b4", optimal), ("seed heuristic", "#ff7f0e", heuristic)].iter().enumerate()
    {
        let ly = 60.0 + 18.0 * i as f64;
        let _ =
            writeln!(out, r##"<rect x="{}" y="{}" width="12" height="12" fill="{colour}"/>"##, left + 10.0, ly - 10.0);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{ly}">{label}: mean {:.2}, below 38 {:.2} %</text>"#,
            left + 28.0,
            played.mean,
            100.0 * played.low_rate
        );
    }
    out.push_str("</svg>\n");
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let svg_path = args.next().unwrap_or_else(|| "target/combo-scores.svg".to_string());
    let rules = Rules::default();
    let table = Table::from_vec(solve("combo", &rules, |_, _| {}).expect("combo").encode()).expect("valid table");
    let optimal = Optimal(Combo::from_table(table).expect("combo table"));
    let rerolls = optimal.0.rerolls();

    println!("combo, {rerolls} rerolls; exact distributions of the final score:");
    println!("{:<18} {:>9} {:>9} {:>12}", "player", "mean", "std dev", "below 38");
    for (name, dist) in [
        ("optimal (table)", score_distribution(&optimal, rerolls)),
        ("seed heuristic", score_distribution(&SeedHeuristic, rerolls)),
    ] {
        let (mean, sd, low) = summary(&dist, 38);
        println!("{name:<18} {mean:>9.4} {sd:>9.4} {:>11.3} %", 100.0 * low);
    }
    println!("table's game-start value: {:.6}", optimal.0.game_start_value().unwrap());

    let start = Instant::now();
    let opt = simulate(&optimal, rerolls, games, 1);
    let heur = simulate(&SeedHeuristic, rerolls, games, 2);
    println!("\nplayed {games} games each ({:.2} s):", start.elapsed().as_secs_f64());
    println!("{:<18} {:>9} {:>12}", "player", "mean", "below 38");
    println!("{:<18} {:>9.4} {:>11.3} %", "optimal (table)", opt.mean, 100.0 * opt.low_rate);
    println!("{:<18} {:>9.4} {:>11.3} %", "seed heuristic", heur.mean, 100.0 * heur.low_rate);
    println!("{:<18} {:>9} {:>11} %", "seed's own report", "66.32", "4.5");

    match std::fs::write(&svg_path, svg(&opt, &heur, games)) {
        Ok(()) => println!("\nhistogram: {svg_path}"),
        Err(e) => eprintln!("cannot write {svg_path}: {e}"),
    }
}
