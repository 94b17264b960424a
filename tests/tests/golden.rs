//! The golden files (`tests/golden/`, written by `make golden`): every
//! lookup in them, asked of `reader lookup ... --json`, gets exactly the
//! answer on file. Readers in other languages check the same files.

use dice_tables_tests::{default_tables, golden_args, run};
use serde_json::Value;

#[test]
fn every_golden_lookup_gets_its_answer() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let tables = default_tables().to_str().unwrap().to_string();
    for game in ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel"] {
        let path = dir.join(format!("{game}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(file["game"], game);
        let lookups = file["lookups"].as_array().unwrap();
        assert!(lookups.len() >= 300, "{game}: only {} lookups", lookups.len());
        for lookup in lookups {
            let query = lookup["query"].as_object().unwrap();
            let mut args = golden_args(game, query);
            args.extend(["--json".to_string(), "--tables".to_string(), tables.clone()]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run("reader", &args, &[]);
            assert!(out.status.success(), "{game} {query:?}: {}", String::from_utf8_lossy(&out.stderr));
            let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(answer, lookup["answer"], "{game} {query:?}");
        }
    }
}
