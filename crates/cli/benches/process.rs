//! Whole `reader lookup` processes: what a person at a terminal waits for.
//! Needs the tables in tables/ (`make bench` runs `make tables` first), and
//! the target tables and the two-player tables for their lookups.

use std::path::PathBuf;
use std::process::Command;

use criterion::{criterion_group, criterion_main, Criterion};

fn tables() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tables");
    assert!(dir.join("yazy.dtab").exists(), "run `make tables` first");
    assert!(dir.join("yazy-duel.dtab").exists(), "run `make yazy-duel` first");
    dir
}

/// Whole `reader lookup` processes, one per game, beside `/bin/true`: what a
/// person at a terminal waits for.
fn end_to_end(c: &mut Criterion) {
    let dir = tables();
    let mut g = c.benchmark_group("reader_process");
    g.sample_size(30);
    // Each a `reader lookup` command line, its words split at spaces.
    let lookups: [(&str, &str); 25] = [
        ("yazy_state", "yazy --mask 2047 --dice 12456 --rerolls 2 --json"),
        ("yazy_turn_start", "yazy --mask all"),
        ("combo_state", "combo --dice 26266 --rerolls 5"),
        ("threes_roll", "threes --dice 31324 --record 8 --after 3"),
        ("threes_state", "threes --remaining 5 --after 3"),
        ("tenk_throw", "tenk --dice 155 --score 300"),
        ("duel_throw", "duel --me 0 --opp 0 --dice 123556"),
        ("yatzy_target_roll", "yatzy --mask all --upper 0 --need 250 --dice 12456 --json"),
        ("yahtzee_target_roll", "yahtzee --mask all --upper 0 --need 250 --dice 12456 --json"),
        // Against an opponent, the opponent-aware advisor (the target
        // tables): the start of a whole game, a roll there (every next
        // state's chances read), and yahtzee's roll.
        ("yatzy_versus_turn_start", "yatzy --mask all --opp-mask all --me 0 --opp 0 --json"),
        ("yatzy_versus_roll", "yatzy --mask all --opp-mask all --me 0 --opp 0 --dice 12456 --rerolls 2 --json"),
        ("yahtzee_versus_roll", "yahtzee --mask all --opp-mask all --me 0 --opp 0 --dice 12456 --rerolls 2 --json"),
        // Maxi Yatzy: the finnish table's start of a game, a first roll
        // (twenty next masks' rows decoded), and the swedish table's first
        // roll with two rerolls saved (`make bench` builds it first).
        ("maxi_turn_start", "maxi-yatzy --mask all --json"),
        ("maxi_first_roll", "maxi-yatzy --mask all --dice 134566 --rerolls 2 --json"),
        ("maxi_swedish_roll", "maxi-yatzy --rules swedish --mask all,-chance --upper 0 --saved 2 --dice 134566 --json"),
        // Two-player yazy (`make bench` builds yazy-duel.dtab first): a first
        // player's turn start and roll (a turn solved from stored values),
        // and a second player's roll.
        ("yazy_duel_turn_start", "yazy --mask all --opp-mask all --me 0 --opp 0"),
        ("yazy_duel_first_roll", "yazy --mask all --opp-mask all --me 0 --opp 0 --dice 12456 --rerolls 2 --json"),
        ("yazy_duel_second_roll", "yazy --mask 2047 --opp-mask 1023 --me 0 --opp 12 --dice 12456 --rerolls 2 --json"),
        // Rule sets' tables (`make tables` writes the presets'): the rules
        // read from the table, then a first roll's options worked out from
        // the stored turn starts.
        ("yacht_first_roll", "yacht --dice 12456 --json"),
        ("yacht_dice_first_roll", "yacht-dice --mask all --upper 0 --dice 12456 --json"),
        ("yahtzee_no_joker_first_roll", "yahtzee-no-joker --dice 12456 --json"),
        // Two players of the rule sets (`make bench` runs `make
        // rule-duel-tables` first): a first player's turn start, a turn
        // solved from the stored values (Crag's header alone lists 72,798
        // chunks).
        ("forced_yatzy_duel_turn_start", "forced-yatzy --mask all --opp-mask all --me 0 --opp 0"),
        ("generala_duel_turn_start", "generala --mask all --opp-mask all --me 0 --opp 0"),
        ("yacht_duel_turn_start", "yacht --mask all --opp-mask all --me 0 --opp 0"),
        ("crag_duel_turn_start", "crag --mask all --opp-mask all --me 0 --opp 0"),
    ];
    g.bench_function("bin_true", |b| b.iter(|| assert!(Command::new("/bin/true").status().unwrap().success())));
    for (name, args) in lookups {
        let words: Vec<&str> = args.split_whitespace().collect();
        g.bench_function(name, |b| {
            b.iter(|| {
                let out = Command::new(env!("CARGO_BIN_EXE_reader"))
                    .arg("lookup")
                    .args(&words)
                    .arg("--tables")
                    .arg(&dir)
                    .output()
                    .unwrap();
                assert!(out.status.success());
                out
            })
        });
    }
    g.finish();
}

criterion_group!(benches, end_to_end);
criterion_main!(benches);
