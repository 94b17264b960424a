//! Solve times (in process, solving only) and the whole `generator` process,
//! which is what `make tables` runs after the build.

use std::hint::black_box;
use std::process::Command;

use criterion::{criterion_group, criterion_main, Criterion};
use dice_tables_generator::{combo, duel, sheet, tenk, threes, yazy};
use dice_tables_reader::sheet::{yahtzee, Joker, YATZY};

/// Solving only (every state and action), as the generator's `solve_ms` reports it.
fn solve_in_process(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.bench_function("yazy_all_states", |b| b.iter(|| yazy::solve(black_box(2), |_, _| {})));
    g.bench_function("combo_all_states", |b| b.iter(|| combo::solve(black_box(5))));
    // Both tie rules, both models, 0..15 players after, with the exceptions check.
    g.bench_function("threes_all_states", |b| b.iter(threes::solve));
    // Both tables and every throw's keep list.
    g.bench_function("tenk_all_states", |b| b.iter(tenk::solve));
    g.finish();

    // yatzy and yahtzee: every turn-start state (the full DP), then the
    // same with the proof of the stored values' decisions.
    let mut g = c.benchmark_group("solve_sheet");
    g.sample_size(10);
    g.bench_function("yatzy_all_states", |b| b.iter(|| sheet::solve(black_box(&YATZY), |_, _| {})));
    g.bench_function("yahtzee_all_states", |b| b.iter(|| sheet::solve(black_box(&yahtzee(Joker::Forced)), |_, _| {})));
    g.bench_function("yatzy_solve_and_prove", |b| {
        b.iter(|| sheet::solve_and_prove(black_box(&YATZY), "yatzy", |_, _| {}))
    });
    g.bench_function("yahtzee_solve_and_prove", |b| {
        b.iter(|| sheet::solve_and_prove(black_box(&yahtzee(Joker::Forced)), "yahtzee", |_, _| {}))
    });
    g.finish();

    // Two-player 10000: every pair of totals to the exact fixed point.
    let mut g = c.benchmark_group("solve_duel");
    g.sample_size(10);
    g.bench_function("seed_all_states", |b| b.iter(|| duel::solve(black_box(&duel::SEED_RULES), &mut |_, _| {})));
    g.bench_function("cardgames_all_states", |b| {
        b.iter(|| duel::solve(black_box(&duel::CARDGAMES_RULES), &mut |_, _| {}))
    });
    g.finish();
}

fn whole_process(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("dice-tables-bench-{}", std::process::id()));
    let mut g = c.benchmark_group("generator_process");
    g.sample_size(10);
    g.bench_function("all_games_solve_encode_write", |b| {
        b.iter(|| {
            let out = Command::new(env!("CARGO_BIN_EXE_generator")).arg("--out").arg(&dir).output().unwrap();
            assert!(out.status.success());
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, solve_in_process, whole_process);
criterion_main!(benches);
