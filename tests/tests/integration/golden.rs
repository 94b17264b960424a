//! The golden files (`tests/golden/`, written by `make golden`): every
//! lookup in them, asked of `reader lookup ... --json`, gets exactly the
//! answer on file. Readers in other languages check the same files.

use dice_tables_tests::{default_tables, golden_answer, golden_cli, golden_query, target_tables};
use serde_json::Value;

#[test]
fn every_golden_lookup_gets_its_answer() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let opened = dice_tables_reader::Tables::open_dir(default_tables()).unwrap();
    for game in dice_tables_tests::games() {
        let path = dir.join(format!("{game}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(file["game"], game);
        let lookups = file["lookups"].as_array().unwrap();
        assert!(lookups.len() >= 300, "{game}: only {} lookups", lookups.len());
        for lookup in lookups {
            let query = lookup["query"].as_object().unwrap();
            let out = golden_cli(game, query, default_tables());
            assert!(out.status.success(), "{game} {query:?}: {}", String::from_utf8_lossy(&out.stderr));
            let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(answer, lookup["answer"], "{game} {query:?}");
            // The lookup layer in process (what Python and HTTP answer through).
            let text = golden_answer(&opened, game, query).unwrap_or_else(|e| panic!("{game} {query:?}: {e}"));
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), lookup["answer"], "{game} {query:?}");
            // Its value alone (built without the options where it is stored).
            let want = lookup["answer"].get("ev").or_else(|| lookup["answer"].get("p")).and_then(Value::as_f64);
            let value = golden_query(game, query).unwrap().value(&opened).unwrap();
            assert_eq!(Some(value), want, "{game} {query:?}");
        }
    }
}

/// Every lookup of the presets' rule-set tables (`rule-sets.json`) gets
/// its answer from the tables `make tables` wrote, through the command
/// line and the lookup layer in process.
#[test]
fn every_golden_rule_set_lookup_gets_its_answer() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/rule-sets.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let tables = dice_tables_tests::made_tables();
    let opened = dice_tables_reader::Tables::open_dir(&tables).unwrap();
    let lookups = file["lookups"].as_array().unwrap();
    for game in dice_tables_tests::RULE_TABLES {
        assert!(lookups.iter().filter(|l| l["game"] == game).count() >= 40, "{game}: too few lookups");
    }
    for lookup in lookups {
        let (game, query) = (lookup["game"].as_str().unwrap(), lookup["query"].as_object().unwrap());
        let out = golden_cli(game, query, &tables);
        assert!(out.status.success(), "{game} {query:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(serde_json::from_slice::<Value>(&out.stdout).unwrap(), lookup["answer"], "{game} {query:?}");
        let text = golden_answer(&opened, game, query).unwrap_or_else(|e| panic!("{game} {query:?}: {e}"));
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), lookup["answer"], "{game} {query:?}");
    }
}

/// Every yatzy and yahtzee lookup played to win (`target.json`: to reach a
/// target, or against an opponent) gets its answer from the target tables:
/// reduced ones in `make test`, the whole ones in `make bench`.
#[test]
fn every_golden_target_lookup_gets_its_answer() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/target.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let opened = dice_tables_reader::Tables::open_dir(target_tables()).unwrap();
    let lookups = file["lookups"].as_array().unwrap();
    for game in ["yatzy", "yahtzee"] {
        let count = lookups.iter().filter(|l| l["game"] == game).count();
        assert!(count >= 150, "{game}: only {count} target lookups");
        let versus = lookups.iter().filter(|l| l["game"] == game && l["query"].get("opp-mask").is_some()).count();
        assert!(versus >= 80, "{game}: only {versus} lookups against an opponent");
    }
    for lookup in lookups {
        let (game, query) = (lookup["game"].as_str().unwrap(), lookup["query"].as_object().unwrap());
        assert!(query.contains_key("need") || query.contains_key("opp-mask"), "{game} {query:?}");
        let out = golden_cli(game, query, target_tables());
        assert!(out.status.success(), "{game} {query:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(serde_json::from_slice::<Value>(&out.stdout).unwrap(), lookup["answer"], "{game} {query:?}");
        let text = golden_answer(&opened, game, query).unwrap_or_else(|e| panic!("{game} {query:?}: {e}"));
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), lookup["answer"], "{game} {query:?}");
        let value = golden_query(game, query).unwrap().value(&opened).unwrap();
        assert_eq!(Some(value), lookup["answer"]["p"].as_f64(), "{game} {query:?}");
    }
}

/// Every two-player lookup of yazy (`yazy-duel.json`, the reduced table)
/// and of forced Yatzy (`rule-set-duel.json`, the whole table) gets its
/// answer, through the command line and the lookup layer.
#[test]
fn every_golden_two_player_lookup_gets_its_answer() {
    let opened = dice_tables_reader::Tables::open_dir(target_tables()).unwrap();
    for file in ["yazy-duel.json", "rule-set-duel.json"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden").join(file);
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let lookups = file["lookups"].as_array().unwrap();
        assert!(lookups.len() >= 200, "only {} two-player lookups in {}", lookups.len(), path.display());
        for lookup in lookups {
            // The file's game, else each lookup's own.
            let game = file["game"].as_str().or(lookup["game"].as_str()).unwrap();
            let query = lookup["query"].as_object().unwrap();
            assert!(query.contains_key("opp-mask"), "{query:?}");
            let out = golden_cli(game, query, target_tables());
            assert!(out.status.success(), "{query:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(serde_json::from_slice::<Value>(&out.stdout).unwrap(), lookup["answer"], "{query:?}");
            assert_eq!(lookup["answer"]["exact"], true, "{query:?}");
            let text = golden_answer(&opened, game, query).unwrap_or_else(|e| panic!("{query:?}: {e}"));
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), lookup["answer"], "{query:?}");
            let value = golden_query(game, query).unwrap().value(&opened).unwrap();
            assert_eq!(Some(value), lookup["answer"]["p"].as_f64(), "{query:?}");
        }
    }
}

/// Every golden two-player lookup on the opponent's turn (`"to_move":
/// "opp"`, in `yazy-duel.json`, `rule-set-duel.json` and `duel.json`) is the mover's own lookup
/// seen from the other side: the same best action and options in the same
/// order, and each chance the rest of the mover's (ties count half to
/// each). The mover's answers are checked against brute force elsewhere.
#[test]
fn opponent_turn_answers_are_what_the_mover_leaves() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let default = dice_tables_reader::Tables::open_dir(default_tables()).unwrap();
    let target = dice_tables_reader::Tables::open_dir(target_tables()).unwrap();
    for (file, game, tables) in [
        ("yazy-duel.json", "yazy", &target),
        ("rule-set-duel.json", "forced-yatzy", &target),
        ("duel.json", "duel", &default),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let lookups: Value = serde_json::from_str(&text).unwrap();
        let mut compared = 0;
        for lookup in lookups["lookups"].as_array().unwrap() {
            let answer = &lookup["answer"];
            if answer["to_move"] != "opp" {
                continue;
            }
            let mut mover = lookup["query"].as_object().unwrap().clone();
            mover.remove("to-move");
            for (a, b) in [("mask", "opp-mask"), ("upper", "opp-upper"), ("me", "opp")] {
                if let (Some(x), Some(y)) = (mover.remove(a), mover.remove(b)) {
                    mover.insert(a.into(), y);
                    mover.insert(b.into(), x);
                }
            }
            let text = golden_answer(tables, game, &mover).unwrap_or_else(|e| panic!("{mover:?}: {e}"));
            let theirs: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(theirs["to_move"], "me", "{mover:?}");
            let rest = |v: &Value| 1.0 - v.as_f64().unwrap();
            for key in ["p", "throw", "bank"] {
                let want = theirs.get(key).and_then(Value::as_f64).map(|p| 1.0 - p);
                assert_eq!(answer.get(key).and_then(Value::as_f64), want, "{key} of {mover:?}");
            }
            assert_eq!(answer["best"], theirs["best"], "{mover:?}");
            let options = |v: &Value| v["options"].as_array().cloned().unwrap_or_default();
            let (yours, movers) = (options(answer), options(&theirs));
            assert_eq!(yours.len(), movers.len(), "{mover:?}");
            for (y, m) in yours.iter().zip(&movers) {
                let without_p = |o: &Value| {
                    let mut o = o.as_object().unwrap().clone();
                    o.remove("p");
                    o
                };
                assert_eq!(without_p(y), without_p(m), "{mover:?}");
                assert_eq!(y["p"].as_f64(), Some(rest(&m["p"])), "{mover:?}");
            }
            compared += 1;
        }
        assert!(compared >= 50, "{file}: only {compared} lookups on the opponent's turn");
    }
}

/// Every lookup in `refused.json` is refused with its message: by the
/// lookup layer word for word, and by the command line with status 2 and a
/// line that holds it.
#[test]
fn every_refused_lookup_is_refused_with_its_message() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/refused.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let tables_dir = default_tables();
    let tables = dice_tables_reader::Tables::open_dir(tables_dir).unwrap();
    let refused = file["refused"].as_array().unwrap();
    assert!(refused.len() >= 50, "only {} refused lookups", refused.len());
    for entry in refused {
        let (game, query) = (entry["game"].as_str().unwrap(), entry["query"].as_object().unwrap());
        let message = entry["error"].as_str().unwrap();
        assert_eq!(golden_answer(&tables, game, query), Err(message.to_string()), "{game} {query:?}");
        let out = golden_cli(game, query, tables_dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{game} {query:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{game} {query:?}: {stderr}");
        assert!(stderr.contains(message), "{game} {query:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}
