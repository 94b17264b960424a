//! Writes the golden files (`make golden`): for every game, at least 300
//! lookups chosen at random (a fixed seed) and what `reader lookup ... --json`
//! answers, one JSON file per game in `tests/golden/`. Every reader, in any
//! language, must give the same answers; `tests/tests/golden.rs` checks the
//! Rust one. Regenerating is a deliberate act, like the table manifest.
//!
//! Usage: golden TABLES_DIR OUT_DIR

use std::path::{Path, PathBuf};
use std::process::Command;

use dice_tables_tests::Rng;
use serde_json::{json, Map, Value};

/// Lookups a game's file holds.
const PER_GAME: usize = 320;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tables, out] = &args[..] else {
        eprintln!("usage: golden TABLES_DIR OUT_DIR");
        std::process::exit(2);
    };
    let reader = std::env::current_exe().expect("own path").with_file_name("reader");
    std::fs::create_dir_all(out).expect("output directory");
    let mut rng = Rng::new(2026);
    for game in ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel"] {
        let mut entries = Vec::new();
        let mut tries = 0;
        while entries.len() < PER_GAME {
            tries += 1;
            assert!(tries < 50 * PER_GAME, "{game}: too few queries answer");
            let query = random_query(game, &mut rng);
            // Queries a table refuses (unreachable states) are left out.
            if let Some(answer) = lookup(&reader, Path::new(tables), game, &query) {
                entries.push(json!({ "query": query, "answer": answer }));
            }
        }
        // One lookup a line: diffs of a regenerated file show what changed.
        let file = PathBuf::from(out).join(format!("{game}.json"));
        let lines: Vec<String> = entries.iter().map(|e| serde_json::to_string(e).expect("JSON")).collect();
        let text = format!("{{\"game\": \"{game}\", \"lookups\": [\n{}\n]}}\n", lines.join(",\n"));
        std::fs::write(&file, text).expect("write golden file");
        println!("{}: {} lookups", file.display(), entries.len());
    }
}

/// The reader's JSON answer to `query` (flags without their dashes; `true`
/// for a flag without a value), or `None` when it refuses the query.
fn lookup(reader: &Path, tables: &Path, game: &str, query: &Map<String, Value>) -> Option<Value> {
    let out = Command::new(reader)
        .args(dice_tables_tests::golden_args(game, query))
        .arg("--json")
        .arg("--tables")
        .arg(tables)
        .output()
        .expect("reader runs");
    match out.status.code() {
        Some(0) => Some(serde_json::from_slice(&out.stdout).expect("reader prints JSON")),
        Some(2) => None,
        _ => panic!("{game} {query:?}: {}", String::from_utf8_lossy(&out.stderr)),
    }
}

fn dice(rng: &mut Rng, n: u64) -> Value {
    Value::from((0..n).map(|_| char::from(b'1' + rng.below(6) as u8)).collect::<String>())
}

fn random_query(game: &str, rng: &mut Rng) -> Map<String, Value> {
    let mut q = Map::new();
    let mut set = |k: &str, v: Value| {
        q.insert(k.to_string(), v);
    };
    match game {
        "yazy" => {
            set("mask", Value::from(1 + rng.below(2047)));
            if rng.below(8) > 0 {
                set("dice", dice(rng, 5));
                set("rerolls", Value::from(rng.below(3)));
            }
        }
        "combo" => {
            if rng.below(16) > 0 {
                set("dice", dice(rng, 5));
                set("rerolls", Value::from(rng.below(6)));
            }
        }
        "threes" if rng.below(8) == 0 => {
            let n = 1 + rng.below(5);
            set("dice", dice(rng, n));
            set("objective", Value::from("expected"));
        }
        "threes" => {
            if rng.below(2) == 0 {
                let n = 1 + rng.below(5);
                set("dice", dice(rng, n));
                set("points", Value::from(rng.below(6 * (5 - n) + 1)));
            } else {
                set("remaining", Value::from(rng.below(6)));
                set("points", Value::from(rng.below(31)));
            }
            if rng.below(2) == 0 {
                set("record", Value::from(rng.below(31)));
            }
            set("after", Value::from(rng.below(16)));
            set("ties", Value::from(["win", "lose"][rng.below(2) as usize]));
            set("model", Value::from(["sequential", "independent"][rng.below(2) as usize]));
        }
        "tenk" => {
            let opening = rng.below(4) == 0;
            let score = 50 * rng.below(if opening { 20 } else { 120 });
            if rng.below(2) == 0 {
                let n = if score == 0 { 6 } else { 1 + rng.below(6) };
                set("dice", dice(rng, n));
            } else {
                set("remaining", Value::from(1 + rng.below(6)));
            }
            set("score", Value::from(score));
            if opening {
                set("opening", Value::Bool(true));
            }
        }
        "yatzy" | "yahtzee" => {
            let categories = if game == "yatzy" { 15 } else { 13 };
            let mask = 1 + rng.below((1 << categories) - 1);
            // Upper points only from the filled upper boxes, so most states can be reached.
            let upper: u64 = (0..6).filter(|f| mask >> f & 1 == 0).map(|f| (f + 1) * rng.below(6)).sum();
            set("mask", Value::from(mask));
            set("upper", Value::from(upper));
            if game == "yahtzee" && mask >> 11 & 1 == 0 && rng.below(2) == 0 {
                set("yahtzee-bonus", Value::Bool(true));
            }
            if rng.below(8) > 0 {
                set("dice", dice(rng, 5));
                set("rerolls", Value::from(rng.below(3)));
            }
        }
        _ => {
            set("me", Value::from(50 * rng.below(200)));
            set("opp", Value::from(50 * rng.below(200)));
            match rng.below(8) {
                0 => {}
                1..=3 => {
                    set("remaining", Value::from(1 + rng.below(6)));
                    set("score", Value::from(50 * (1 + rng.below(60))));
                }
                _ => {
                    let score = 50 * rng.below(60);
                    let n = if score == 0 { 6 } else { 1 + rng.below(6) };
                    set("dice", dice(rng, n));
                    set("score", Value::from(score));
                }
            }
            if rng.below(2) == 0 {
                set("rules", Value::from("cardgames"));
            }
        }
    }
    q
}
