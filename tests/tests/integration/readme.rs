//! Every `reader` command in README.md and docs/GUIDE.md runs, and where
//! they show its output, prints exactly that.

use dice_tables_tests::{bin_dir, default_tables, made_tables, run, scratch, target_tables};
use std::process::Command;

#[test]
#[ignore = "slow: make test runs it"]
fn readme_commands_run_and_print_what_it_shows() {
    // Run from a directory whose ./tables holds the test tables: the
    // default ones and yazy-target, the reduced yatzy and yahtzee target
    // tables, two-player yazy and two-player forced Yatzy (whole) make test
    // built (the README's and the guide's target lookups have at most 4
    // categories open and stay within the reduced two-player game's five
    // categories, which the reduced tables answer as the whole ones do;
    // solved once, for every test), yahtzee under the free joker reading (a
    // second), and crag's table.
    let cwd = scratch("readme");
    let tables = cwd.join("tables");
    let out = run("generator", &["--out", tables.to_str().unwrap(), "--games", "yahtzee-free"], &[]);
    assert!(out.status.success(), "generator: {}", String::from_utf8_lossy(&out.stderr));
    let link = |from: &std::path::Path, name: &std::ffi::OsStr| {
        std::os::unix::fs::symlink(from.join(name), tables.join(name)).unwrap();
    };
    for name in ["yatzy-target.dtab", "yahtzee-target.dtab", "yazy-duel.dtab", "forced-yatzy-duel.dtab"] {
        link(target_tables(), name.as_ref());
    }
    for entry in std::fs::read_dir(default_tables()).unwrap() {
        link(default_tables(), &entry.unwrap().file_name());
    }
    // And the rule sets' tables `make tables` wrote.
    for name in ["crag.dtab", "generala-target.dtab"] {
        link(&made_tables(), name.as_ref());
    }
    // The games the documents review, where they name them.
    std::fs::create_dir_all(cwd.join("tests")).unwrap();
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    std::os::unix::fs::symlink(golden, cwd.join("tests/golden")).unwrap();
    for (doc, least) in [("README.md", 2), ("docs/GUIDE.md", 5)] {
        let ran = run_commands(doc, &cwd);
        assert!(ran >= least, "found only {ran} commands in {doc}");
    }
}

/// Runs every `$ ./target/release/...` line of `doc` in `cwd`, comparing
/// what it prints with the lines shown under it; returns how many ran.
fn run_commands(doc: &str, cwd: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(doc)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut ran = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(command) = line.strip_prefix("$ ./target/release/") else { continue };
        let words: Vec<&str> = command.split_whitespace().collect();
        let out = Command::new(bin_dir().join(words[0]))
            .args(&words[1..])
            .current_dir(cwd)
            .env_remove("DICE_TABLES")
            .output()
            .unwrap();
        assert!(out.status.success(), "{doc} line {}: {command}: {}", i + 1, String::from_utf8_lossy(&out.stderr));
        let shown: Vec<&str> =
            lines[i + 1..].iter().take_while(|l| !l.starts_with("```") && !l.starts_with("$ ")).copied().collect();
        // Every command shows what it prints, to compare against.
        assert!(!shown.is_empty(), "{doc} line {}: {command} shows no output", i + 1);
        let printed = String::from_utf8(out.stdout).unwrap();
        assert_eq!(printed.trim_end(), shown.join("\n"), "{doc} line {}: {command}", i + 1);
        ran += 1;
    }
    ran
}

/// Every relative link and image in the documents names a file that
/// exists, from the document's own folder (docs/GUIDE.md's from docs/).
#[test]
fn document_links_lead_to_files() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let docs = ["README.md", "docs/GUIDE.md", "CONTRIBUTING.md", "reader/FORMAT.md", "crates/npm/README.md"];
    let mut checked = 0;
    for doc in docs {
        let path = repo.join(doc);
        let text = std::fs::read_to_string(&path).unwrap();
        let folder = path.parent().unwrap();
        for (at, _) in text.match_indices("](") {
            let target = &text[at + 2..];
            let target = &target[..target.find(')').unwrap_or(0)];
            let file = target.split('#').next().unwrap_or("");
            if file.is_empty() || file.contains("://") || file.starts_with("mailto:") || file.contains(' ') {
                continue;
            }
            assert!(folder.join(file).exists(), "{doc}: the link {target} leads nowhere");
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} links checked");
}
