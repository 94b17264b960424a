//! The C library (crates/c: include/dice_tables.h, libdice_tables.a and
//! .so, which `make test` builds first) from a C program compiled here with
//! `cc` (tests/c/golden.c): every golden lookup asked as a query string and
//! again as name and value pairs gets the answer on file, every golden
//! refusal its message, against the static library and the shared one; the
//! header compiles as C++ too.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use dice_tables_tests::http::query_string;
use dice_tables_tests::{bin_dir, default_tables, in_terms, scratch, target_tables};
use serde_json::{Map, Value};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn include() -> PathBuf {
    repo().join("crates/c/include")
}

/// The library file `name` that `cargo build --release -p dice-tables-c` writes.
fn library(name: &str) -> PathBuf {
    let path = bin_dir().join(name);
    assert!(
        path.is_file(),
        "no {}: build the C library first (make test does: cargo build --release -p dice-tables-c)",
        path.display()
    );
    path
}

/// Compiles tests/c/golden.c with `compiler` and `link` arguments into `out`.
fn compile(compiler: &str, out: &Path, link: &[&str]) {
    let status = Command::new(compiler)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(out)
        .arg(repo().join("tests/c/golden.c"))
        .arg("-I")
        .arg(include())
        .args(link)
        .status()
        .unwrap_or_else(|e| panic!("{compiler}: {e}"));
    assert!(status.success(), "{compiler} failed on tests/c/golden.c");
}

/// A value of a golden query as text.
fn text(value: &Value) -> Option<String> {
    match value {
        Value::Bool(true) => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// A golden query as the program's name and value pairs.
fn pairs(query: &Map<String, Value>) -> String {
    let parts: Vec<String> = query
        .iter()
        .map(|(name, value)| match text(value) {
            None => name.clone(),
            Some(v) => format!("{name}={v}"),
        })
        .collect();
    format!("args:{}", parts.join("\t"))
}

/// Runs `program` on the tables in `dir` with `lines`; returns each answer: (status, text).
fn ask(program: &Path, dir: &Path, lines: &[String], env: &[(&str, &Path)]) -> Vec<(i32, String)> {
    let mut cmd = Command::new(program);
    cmd.arg(dir).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the C program runs");
    let input = lines.join("\n") + "\n";
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{}: {}", program.display(), String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<(i32, String)> = text
        .lines()
        .map(|l| {
            let (status, rest) = l.split_once('\t').unwrap();
            (status.parse().unwrap(), rest.to_string())
        })
        .collect();
    assert_eq!(answers.len(), lines.len());
    answers
}

fn golden(name: &str) -> Value {
    let path = repo().join("tests/golden").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_golden_lookup_and_refusal_through_the_c_library() {
    let dir = scratch("c-api");
    let program = dir.join("golden");
    let lib_dir = bin_dir();
    compile("cc", &program, &[library("libdice_tables.a").to_str().unwrap(), "-lpthread", "-ldl", "-lm"]);
    let shared = dir.join("golden-shared");
    compile(
        "cc",
        &shared,
        &["-L", lib_dir.to_str().unwrap(), "-ldice_tables", &format!("-Wl,-rpath,{}", lib_dir.display())],
    );
    library("libdice_tables.so");
    // The header as C++ (and the program with it).
    let status = Command::new("c++")
        .args(["-x", "c++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
        .arg(repo().join("tests/c/golden.c"))
        .arg("-I")
        .arg(include())
        .status()
        .expect("c++ runs");
    assert!(status.success(), "the header and the program do not compile as C++");

    let mut lines = Vec::new();
    let mut wanted = Vec::new();
    for game in dice_tables_tests::games() {
        for lookup in golden(&format!("{game}.json"))["lookups"].as_array().unwrap() {
            let query = lookup["query"].as_object().unwrap();
            // Every lookup twice: as a query string, and as name and value pairs.
            lines.push(format!("{game}\t{}", query_string(query)));
            lines.push(format!("{game}\t{}", pairs(query)));
            wanted.extend([lookup["answer"].clone(), lookup["answer"].clone()]);
        }
    }
    let refused = golden("refused.json");
    let refused = refused["refused"].as_array().unwrap();
    for r in refused {
        lines.push(format!("{}\t{}", r["game"].as_str().unwrap(), query_string(r["query"].as_object().unwrap())));
    }
    for (program, what) in [(&program, "static"), (&shared, "shared")] {
        let answers = ask(program, default_tables(), &lines, &[]);
        for (i, (status, text)) in answers.iter().enumerate() {
            if let Some(want) = wanted.get(i) {
                assert_eq!(*status, 0, "{what}: {}: {text}", lines[i]);
                assert_eq!(&serde_json::from_str::<Value>(text).unwrap(), want, "{what}: {}", lines[i]);
            } else {
                let r = &refused[i - wanted.len()];
                assert_ne!(*status, 0, "{what}: {} was answered", lines[i]);
                assert_eq!(*text, in_terms(r["error"].as_str().unwrap(), false), "{what}: {}", lines[i]);
            }
        }
    }

    // The two-player and target lookups, from the reduced tables.
    let mut lines = Vec::new();
    let mut wanted = Vec::new();
    for lookup in golden("target.json")["lookups"].as_array().unwrap() {
        lines.push(format!(
            "{}\t{}",
            lookup["game"].as_str().unwrap(),
            query_string(lookup["query"].as_object().unwrap())
        ));
        wanted.push(lookup["answer"].clone());
    }
    for lookup in golden("yazy-duel.json")["lookups"].as_array().unwrap() {
        lines.push(format!("yazy\t{}", pairs(lookup["query"].as_object().unwrap())));
        wanted.push(lookup["answer"].clone());
    }
    for lookup in golden("rule-set-duel.json")["lookups"].as_array().unwrap() {
        lines.push(format!("{}\t{}", lookup["game"].as_str().unwrap(), pairs(lookup["query"].as_object().unwrap())));
        wanted.push(lookup["answer"].clone());
    }
    for (i, (status, text)) in ask(&program, target_tables(), &lines, &[]).iter().enumerate() {
        assert_eq!(*status, 0, "{}: {text}", lines[i]);
        assert_eq!(serde_json::from_str::<Value>(text).unwrap(), wanted[i], "{}", lines[i]);
    }

    // A rule set only the tests write (rule_tables.rs), by its name: as the
    // command line answers it.
    let table = crate::rule_tables::house_table();
    let queries = ["", "dice=1234", "mask=fours,run,double-alike&upper=12&held=four-alike&dice=4444&rerolls=1"];
    let lines: Vec<String> = queries.iter().map(|q| format!("kitchen-table\t{q}")).collect();
    for ((status, text), query) in ask(&program, table, &lines, &[]).iter().zip(queries) {
        let mut args =
            vec!["lookup".to_string(), "kitchen-table".into(), "--tables".into(), table.display().to_string()];
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap();
            args.extend([format!("--{name}"), value.to_string()]);
        }
        args.push("--json".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let cli = dice_tables_tests::run("reader", &args, &[]);
        assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
        assert_eq!(*status, 0, "{query}: {text}");
        assert_eq!(
            serde_json::from_str::<Value>(text).unwrap(),
            serde_json::from_slice::<Value>(&cli.stdout).unwrap(),
            "{query}"
        );
    }

    // A directory that is not there: one line, and the status of a table.
    let out = Command::new(&program).arg(dir.join("no-such-dir")).stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = String::from_utf8(out.stderr).unwrap();
    assert!(
        message.starts_with("golden: ") && message.contains("no tables directory") && message.lines().count() == 1,
        "{message}"
    );
}

/// README.md's C example, compiled as it says and run: it prints what README shows.
#[test]
fn the_readme_c_example_runs_and_prints_what_it_shows() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let block = |fence: &str| -> String {
        let start = readme.find(fence).unwrap_or_else(|| panic!("README.md has no {fence} block")) + fence.len();
        readme[start..][..readme[start..].find("\n```").unwrap()].trim_start_matches('\n').to_string()
    };
    let source = block("```c\n");
    let shown = block("```sh\n$ cc -I crates/c/include example.c");
    let (command, printed) = shown.split_once('\n').unwrap();
    assert_eq!(command, " target/release/libdice_tables.a -lpthread -ldl -lm -o example && ./example");
    let dir = scratch("c-readme");
    std::fs::write(dir.join("example.c"), source).unwrap();
    let status = Command::new("cc")
        .current_dir(&dir)
        .args(["-std=c99", "-Wall", "-Werror", "-I"])
        .arg(include())
        .arg("example.c")
        .arg(library("libdice_tables.a"))
        .args(["-lpthread", "-ldl", "-lm", "-o", "example"])
        .status()
        .unwrap();
    assert!(status.success(), "README.md's C example does not compile");
    let out = Command::new(dir.join("example")).env("DICE_TABLES", default_tables()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), printed.trim_end());
}
