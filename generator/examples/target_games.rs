//! The whole yatzy and yahtzee target tables, checked in full:
//! every state's chances never increase with the target; at the start,
//! `P*(T)` is at least `P_EV(>= T)` for every total and the sum of `P*` at
//! least the start value; then games played to reach T = 250 and 300, each
//! turn re-solved from the tables, reach T within 4 standard errors of
//! `P*(start, T)`, and games played for the average within 4 standard
//! errors of the stored distribution's `P_EV(>= T)`. Exits 1 on any failure.
//!
//! Also checks the whole target tables against the manifest's lines for
//! them (which `make test` leaves to this check: they take minutes to solve).
//!
//! `cargo run --release -p dice-tables-generator --example target_games -- GAMES TABLES FREE_TABLES [MANIFEST]`
//! (`make bench` runs it with 100000 games: TABLES holds yatzy, yahtzee and
//! their target tables, FREE_TABLES yahtzee-free and yahtzee-free-target, the
//! free joker reading's, MANIFEST is tables/checksums.b3).

use std::process::ExitCode;
use std::time::Instant;

use dice_tables_generator::play::{play_by, DiceRng};
use dice_tables_reader::sheet::{ScoreSheet, SheetGame, SheetTarget, YahtzeeFreeGame, YahtzeeGame, YatzyGame};
use dice_tables_reader::{Error, Tables};
use rayon::prelude::*;

/// Totals the games play for.
const TARGETS: [i64; 2] = [250, 300];

/// One game from the start: the final score, played for `need` (the
/// target table's decisions, each turn re-solved for the points still
/// needed) or, with `None`, for the average (the expected-points table's).
fn play<G: SheetGame>(
    target: &SheetTarget<G>,
    sheet: &ScoreSheet<G>,
    need: Option<i64>,
    rng: &mut DiceRng,
) -> Result<i64, Error> {
    let Some(need) = need else { return Ok(i64::from(dice_tables_generator::play::play(sheet, rng)?)) };
    let score = play_by(sheet, rng, |state, total| {
        let turn = target.turn(state, need - i64::from(total))?;
        Ok(Box::new(move |dice, rerolls| Ok(turn.options(dice, rerolls)?.best().map(|o| o.action))))
    })?;
    Ok(i64::from(score))
}

/// Checks one game's tables; true when every check holds.
fn check<G: SheetGame>(name: &str, tables: &Tables, games: u64, seed: u64) -> Result<bool, Error> {
    let target = tables.get::<SheetTarget<G>>()?;
    let sheet = tables.get::<ScoreSheet<G>>()?;
    let all = (1u32 << G::CATEGORIES.len()) - 1;
    let start_state = sheet.state(all, 0, false)?;
    let start = target.curve(start_state)?;
    let distribution = target.ev_distribution()?;
    let mut ok = true;
    // Every state's chances, in the order the table stores them.
    let started = Instant::now();
    let mut states = 0u64;
    for mask in 0..=all {
        for flag in [false, true] {
            for upper in 0..=63u32 {
                let Ok(state) = target.state(mask, upper, flag) else { continue };
                let curve = target.curve(state)?;
                states += 1;
                if curve.values.windows(2).any(|w| w[1] > w[0])
                    || curve.values.iter().any(|&p| !(0.0..=1.0).contains(&p))
                {
                    println!("{name}: {state:?}: chances increase or leave [0, 1]");
                    ok = false;
                }
            }
        }
    }
    let tail = |t: usize| distribution[t.min(distribution.len())..].iter().sum::<f64>();
    let below: Vec<usize> = (0..distribution.len()).filter(|&t| start.chance(t as i64) < tail(t) - 3e-8).collect();
    let sum: f64 = (1..=i64::from(start.last())).map(|n| start.chance(n)).sum();
    let value = sheet.turn_start_value(start_state)?;
    println!(
        "{name}: {states} states read in {:.1} s; P*(start, T) >= P_EV(>= T) at every T: {}; sum of P*(start, n) {sum:.4} >= start value {value:.4}: {}",
        started.elapsed().as_secs_f64(),
        below.is_empty(),
        sum >= value
    );
    ok &= below.is_empty() && sum >= value;
    for (k, &t) in TARGETS.iter().enumerate() {
        for to_win in [true, false] {
            let started = Instant::now();
            let reached: Result<Vec<bool>, Error> = (0..games)
                .into_par_iter()
                .map(|g| {
                    let mut rng = DiceRng::new(seed * 1_000_003 + (k as u64) * 2 + u64::from(to_win) + g * 7919);
                    Ok(play(target, sheet, to_win.then_some(t), &mut rng)? >= t)
                })
                .collect();
            let hits = reached?.iter().filter(|&&r| r).count() as f64;
            let expected = if to_win { start.chance(t) } else { tail(t as usize) };
            let n = games as f64;
            let se = (expected * (1.0 - expected) / n).sqrt();
            let freq = hits / n;
            let within = (freq - expected).abs() <= 4.0 * se;
            println!(
                "{name}: {games} games {} reach {t} with frequency {freq:.5}, expected {expected:.5} ({:+.2} se) in {:.1} s{}",
                if to_win { "played to reach it" } else { "played for the average" },
                (freq - expected) / se,
                started.elapsed().as_secs_f64(),
                if within { "" } else { ": OUTSIDE 4 standard errors" }
            );
            ok &= within;
        }
    }
    Ok(ok)
}

/// Whether the target tables in `dir` have the blake3 the manifest lists.
fn matches_manifest(manifest: &str, dir: &str) -> bool {
    let Ok(text) = std::fs::read_to_string(manifest) else {
        println!("cannot read the manifest {manifest}");
        return false;
    };
    let mut ok = true;
    for name in ["yatzy-target.dtab", "yahtzee-target.dtab"] {
        let listed = text.lines().find_map(|l| l.strip_suffix(name).and_then(|h| h.strip_suffix("  ")));
        let written =
            std::fs::read(std::path::Path::new(dir).join(name)).map(|b| blake3::hash(&b).to_hex().to_string());
        let same = matches!((listed, &written), (Some(l), Ok(w)) if l == w);
        println!(
            "{name}: blake3 {written:?}, the manifest lists {listed:?}: {}",
            if same { "same" } else { "DIFFERENT" }
        );
        ok &= same;
    }
    ok
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let open = |i: usize| Tables::open_dir(args.get(i).map_or_else(Tables::default_dir, std::path::PathBuf::from));
    let (tables, free) = match (open(1), open(2)) {
        (Ok(t), Ok(f)) => (t, f),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("target_games: {e}");
            return ExitCode::FAILURE;
        }
    };
    let results = [
        check::<YatzyGame>("yatzy", &tables, games, 1),
        check::<YahtzeeGame>("yahtzee", &tables, games, 2),
        check::<YahtzeeFreeGame>("yahtzee-free", &free, games, 3),
    ];
    let mut ok = true;
    if let Some(manifest) = args.get(3) {
        ok &= matches_manifest(manifest, &args[1]);
    }
    for r in results {
        match r {
            Ok(good) => ok &= good,
            Err(e) => {
                eprintln!("target_games: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
