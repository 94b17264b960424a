//! Solve times (in process, solving only; in a fresh process, as `generator`
//! reports them) and the whole `generator` process,
//! which is what `make tables` runs after the build.

use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use dice_tables_generator::{combo, duel, sheet, tenk, threes, yazy};
use dice_tables_reader::sheet::{yahtzee, Joker, YATZY};

/// Solving only (every state and action), in process: warm, but each yazy
/// solve makes its output pages (a fresh `generator` makes them beside its
/// start-up: see `fresh_process_solve` for its `solve_ms`).
fn solve_in_process(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.bench_function("yazy_all_states", |b| b.iter(|| yazy::solve(black_box(2), |_, _| {})));
    g.bench_function("combo_all_states", |b| b.iter(|| combo::solve(black_box(5))));
    // Both tie rules, both models, 0..15 players after, with the exceptions check.
    g.bench_function("threes_all_states", |b| b.iter(threes::solve));
    // Both tables and every throw's keep list.
    g.bench_function("tenk_all_states", |b| b.iter(tenk::solve));
    g.finish();

    // yatzy and yahtzee (their presets, by the rules engine): every
    // turn-start state the game reaches (the full DP), then the same with
    // the proof of the stored values' decisions.
    let mut g = c.benchmark_group("solve_sheet");
    g.sample_size(10);
    g.bench_function("yatzy_all_states", |b| b.iter(|| sheet::solve(black_box("yatzy"), &mut |_, _| {})));
    g.bench_function("yahtzee_all_states", |b| b.iter(|| sheet::solve(black_box("yahtzee"), &mut |_, _| {})));
    g.bench_function("yatzy_solve_and_prove", |b| {
        b.iter(|| sheet::solve_and_prove(black_box(&YATZY), "yatzy", &mut |_, _| {}))
    });
    g.bench_function("yahtzee_solve_and_prove", |b| {
        b.iter(|| sheet::solve_and_prove(black_box(&yahtzee(Joker::Forced)), "yahtzee", &mut |_, _| {}))
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

/// The `solve_ms` a fresh `generator` process reports for one game
/// (`--json`), as the measured time: the cold-start figure, thread start
/// and first page faults included, apart from compression and writing.
fn fresh_process_solve(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("dice-tables-bench-fresh-{}", std::process::id()));
    let mut g = c.benchmark_group("generator_fresh_solve");
    // One process a sample: criterion's times are the reported solves
    // (each process takes far longer, compressing and writing), so the
    // warm-up and measurement times are sized by those.
    g.sample_size(10).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(1));
    for (game, solve_time) in [("yazy", Duration::from_millis(10)), ("duel", Duration::from_millis(1500))] {
        g.measurement_time(10 * solve_time);
        g.bench_function(game, |b| b.iter_custom(|iters| (0..iters).map(|_| reported_solve_time(game, &dir)).sum()));
    }
    g.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// One `generator --out dir --games game --json` process's `solve_ms`.
fn reported_solve_time(game: &str, dir: &std::path::Path) -> Duration {
    let out = Command::new(env!("CARGO_BIN_EXE_generator"))
        .arg("--out")
        .arg(dir)
        .args(["--games", game, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8(out.stdout).unwrap();
    let ms: f64 = (report.split("\"solve_ms\":").nth(1))
        .and_then(|rest| rest.split(',').next())
        .and_then(|ms| ms.parse().ok())
        .unwrap_or_else(|| panic!("no solve_ms in {report}"));
    Duration::from_secs_f64(ms / 1e3)
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

criterion_group!(benches, solve_in_process, fresh_process_solve, whole_process);
criterion_main!(benches);
