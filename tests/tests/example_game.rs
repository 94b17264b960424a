//! one-die, the smallest game, joins every front end through its registry
//! lines alone: `make example-game-test` builds the programs and the Python
//! package with the feature `example-game` (the game's folders and its
//! lines in `GAMES`, `SOLVERS`, `LOOKUPS` and `Query`), then this test
//! solves it with `generator --games one-die` and asks it through the
//! lookup layer, `reader lookup` (JSON, text, help and a refusal), `reader
//! serve` and Python, each answer against a brute force over every
//! stopping rule.

use dice_tables_lookup::{Arg, Query};
use dice_tables_tests::http::Server;
use dice_tables_tests::{run, scratch};
use serde_json::{json, Value};
use std::path::Path;

/// The rerolls `generator` solves one-die for.
const REROLLS: u8 = 2;

/// The expected score of the best stopping rule from `face` showing with
/// `left` rerolls left (`None`: before the first roll), by brute force:
/// every rule (stop or throw again at each face and rerolls left) played
/// over every way the throws can fall. Shares nothing with the solver.
fn brute_force(face: Option<u8>, left: u8) -> f64 {
    let states = usize::from(left) * 6;
    (0u32..1 << states)
        .map(|rule| {
            let throws = |start: Option<u8>| -> f64 {
                // Every sequence of `left` (+1 before the first roll) faces, equally likely.
                let rolls = u32::from(left) + u32::from(start.is_none());
                let mut total = 0.0;
                for n in 0..6u32.pow(rolls) {
                    let mut seq = (0..rolls).map(|i| (n / 6u32.pow(i) % 6) as u8 + 1);
                    let mut showing = start.unwrap_or_else(|| seq.next().unwrap());
                    for remaining in (1..=left).rev() {
                        let bit = usize::from(remaining - 1) * 6 + usize::from(showing - 1);
                        if rule >> bit & 1 == 0 {
                            break;
                        }
                        showing = seq.next().unwrap();
                    }
                    total += f64::from(showing);
                }
                total / f64::from(6u32.pow(rolls))
            };
            throws(face)
        })
        .fold(f64::MIN, f64::max)
}

/// Whether throwing again is strictly better than stopping at `face`.
fn rerolls(face: u8, left: u8) -> bool {
    left > 0 && brute_force(None, left - 1) > f64::from(face)
}

fn expected(face: u8, left: u8) -> Value {
    json!({"game": "one-die", "ev": brute_force(Some(face), left), "best": if rerolls(face, left) { "reroll" } else { "stop" }})
}

fn assert_close(answer: &Value, want: &Value) {
    let (got, wanted) = (answer["ev"].as_f64().unwrap(), want["ev"].as_f64().unwrap());
    assert!((got - wanted).abs() < 1e-12, "{answer} against {want}");
    assert_eq!((&answer["game"], &answer["best"]), (&want["game"], &want["best"]), "{answer} against {want}");
}

fn solved() -> std::path::PathBuf {
    let dir = scratch("one-die");
    let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "one-die"], &[]);
    assert!(out.status.success(), "generator: {}", String::from_utf8_lossy(&out.stderr));
    let verify = run("reader", &["verify", dir.to_str().unwrap()], &[]);
    assert!(verify.status.success(), "reader verify: {}", String::from_utf8_lossy(&verify.stderr));
    assert!(String::from_utf8_lossy(&verify.stdout).contains("one-die.dtab"));
    dir
}

fn lookup_layer(dir: &Path) {
    let tables = dice_tables_reader::Tables::open_dir(dir).unwrap();
    let start = Query::from_args("one-die", &[]).unwrap().answer(&tables).unwrap().to_string();
    let start: Value = serde_json::from_str(&start).unwrap();
    // 3.5 with no rerolls, then 4.25, then 14/3: the published values of the game.
    assert!((start["ev"].as_f64().unwrap() - 14.0 / 3.0).abs() < 1e-12, "{start}");
    assert!((brute_force(None, REROLLS) - 14.0 / 3.0).abs() < 1e-12);
    for left in 0..=REROLLS {
        for face in 1..=6u8 {
            let args = [("face", Arg::Int(i64::from(face))), ("rerolls", Arg::Int(i64::from(left)))];
            let answer = Query::from_args("die", &args).unwrap().answer(&tables).unwrap().to_string();
            assert_close(&serde_json::from_str(&answer).unwrap(), &expected(face, left));
        }
    }
    let refused = Query::from_args("one-die", &[("face", Arg::Int(7))]).unwrap_err().to_string();
    assert!(refused.contains("is not a whole number 1 to 6"), "{refused}");
}

fn command_line(dir: &Path) {
    let tables = dir.to_str().unwrap();
    let out = run("reader", &["lookup", "one-die", "--face", "4", "--rerolls", "1", "--json", "--tables", tables], &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_close(&serde_json::from_slice(&out.stdout).unwrap(), &expected(4, 1));
    let out = run("reader", &["lookup", "die", "--tables", tables], &[]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "one-die, 2 rerolls left\nexpected score, before the roll: 4.666667\n"
    );
    let out = run("reader", &["lookup", "one-die", "--face", "5", "--tables", tables], &[]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "one-die, face 5, 2 rerolls left\nexpected score: 5.000000\nbest: stop\n"
    );
    let help = run("reader", &["lookup", "one-die", "--help"], &[]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--face <F>") && help.contains("The face showing, 1 to 6"), "{help}");
    let games = run("reader", &["lookup", "--help"], &[]);
    assert!(String::from_utf8_lossy(&games.stdout).contains("one-die"));
    let bad = run("reader", &["lookup", "one-die", "--face", "7", "--tables", tables], &[]);
    assert_eq!(bad.status.code(), Some(2));
    let message = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("is not a whole number 1 to 6"), "{message}");
}

fn http(dir: &Path) {
    let server = Server::start(dir);
    let mut client = server.connect();
    let r = client.get("/v1/lookup/one-die?face=3&rerolls=2").expect("answers");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_close(&r.json(), &expected(3, 2));
    let r = client.get("/v1/lookup/one-die?face=0").expect("answers");
    assert_eq!(r.status, 400, "{}", r.text());
    let info = client.get("/v1/info").expect("answers").json();
    let game =
        info["lookups"].as_array().unwrap().iter().find(|g| g["game"] == "one-die").expect("one-die in /v1/info");
    assert_eq!(game["optional"], json!(["face", "rerolls"]), "{game}");
}

fn python(dir: &Path) {
    let (Some(python), Some(path)) = (std::env::var_os("PYTHON"), std::env::var_os("EXAMPLE_GAME_PYTHONPATH")) else {
        panic!("PYTHON and EXAMPLE_GAME_PYTHONPATH are needed: run `make example-game-test`");
    };
    let script = r#"
import json, sys, dice_tables
t = dice_tables.open_dir(sys.argv[1])
out = {"lookup": t.lookup("one-die", face=2, rerolls=1), "item": t["die"].value(face=6, rerolls=2),
       "games": [g["name"] for g in dice_tables.games()], "values": t["one-die"].values().tolist()}
try:
    t["one-die"].lookup(face=9)
except ValueError as e:
    out["refused"] = str(e)
print(json.dumps(out))
"#;
    let out = std::process::Command::new(python)
        .args(["-c", script, dir.to_str().unwrap()])
        .env("PYTHONPATH", path)
        .output()
        .expect("python runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_close(&out["lookup"], &expected(2, 1));
    assert_eq!(out["item"], json!(6.0));
    assert!(out["games"].as_array().unwrap().contains(&json!("one-die")), "{out}");
    assert!(out["refused"].as_str().unwrap().contains("is not a whole number 1 to 6"), "{out}");
    let values = out["values"].as_array().unwrap();
    assert_eq!(values.len(), usize::from(REROLLS) + 1);
    for (left, row) in values.iter().enumerate() {
        for (i, v) in row.as_array().unwrap().iter().enumerate() {
            let want = brute_force(Some(i as u8 + 1), left as u8);
            assert!((v.as_f64().unwrap() - want).abs() < 1e-12, "values()[{left}][{i}] = {v}, not {want}");
        }
    }
}

#[test]
fn one_die_answers_through_every_front_end() {
    let dir = solved();
    lookup_layer(&dir);
    command_line(&dir);
    http(&dir);
    python(&dir);
}
