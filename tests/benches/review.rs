//! The coach's review of a whole game: in process (`review_with_parts` on
//! the game's text, its table and parts table open: every mistake with its
//! reason) and as a whole `reader review NAME FILE` process beside
//! `/bin/true`, what a person at a terminal waits for. The target
//! is a game of Yatzy (15 turns, reviewed on yatzy.dtab beside
//! yatzy-parts.dtab) within 50 ms in process and 100 ms as a process.
//! Needs the tables in tables/ (`make bench` runs `make tables` first) and
//! `reader` built (`cargo bench` builds it).

use std::hint::black_box;
use std::process::Command;

use criterion::{criterion_group, criterion_main, Criterion};
use dice_tables_lookup::review::{review_source, review_with_parts};
use dice_tables_tests::reference_players::game_text;
use dice_tables_tests::{bin, made_tables, scratch, Rng};

/// The games reviewed, by turns in a game: Yatzy and forced Yatzy (15
/// turns), Yahtzee and Yahtzee without the joker (13), Generala (10).
const REVIEWED: [&str; 5] = ["yatzy", "forced-yatzy", "yahtzee", "yahtzee-no-joker", "generala"];

fn review(c: &mut Criterion) {
    let tables = dice_tables_reader::Tables::open_dir(made_tables()).expect("run `make tables` first");
    let dir = scratch("review-bench");
    let mut g = c.benchmark_group("review");
    g.sample_size(30);
    g.bench_function("bin_true", |b| b.iter(|| assert!(Command::new("/bin/true").status().unwrap().success())));
    for name in REVIEWED {
        let source = review_source(&tables, name).expect("run `make tables` first");
        let (sheet, parts) = (&source.sheet, source.parts.as_deref());
        // Games with one decision in ten taken at random: a player's
        // mistakes, which the review ranks.
        let (mut dice, mut picks) = (Rng::new(63), Rng::new(6363));
        let texts: Vec<String> = (0..16).map(|_| game_text(&**sheet, &mut dice, &mut picks, 10).0).collect();
        let mut i = 0;
        g.bench_function(format!("{name}_game_in_process"), |b| {
            b.iter(|| {
                i = (i + 1) % texts.len();
                review_with_parts(&**sheet, parts, black_box(&texts[i])).expect("a game the table plays")
            })
        });
        let file = dir.join(format!("{name}.txt"));
        std::fs::write(&file, &texts[0]).unwrap();
        g.bench_function(format!("{name}_game_process"), |b| {
            b.iter(|| {
                let out = Command::new(bin("reader"))
                    .args(["review", name])
                    .arg(&file)
                    .arg("--tables")
                    .arg(made_tables())
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                out
            })
        });
    }
    g.finish();
}

criterion_group!(benches, review);
criterion_main!(benches);
