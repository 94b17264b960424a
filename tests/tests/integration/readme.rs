//! Every `reader` command in README.md runs, and where the README shows its
//! output, prints exactly that.

use dice_tables_tests::{bin_dir, default_tables, run, scratch};
use std::process::Command;

#[test]
fn readme_commands_run_and_print_what_it_shows() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    // Run from a directory whose ./tables holds freshly generated tables:
    // the default ones and yazy-target, and reduced yatzy and yahtzee
    // target tables (the README's target lookups have at most 4 categories
    // open, which a reduced table answers as the whole one does).
    let cwd = scratch("readme");
    let tables = cwd.join("tables");
    let out = run(
        "generator",
        &["--out", tables.to_str().unwrap(), "--games", "yatzy-target,yahtzee-target", "--target-open", "4"],
        &[],
    );
    assert!(out.status.success(), "generator: {}", String::from_utf8_lossy(&out.stderr));
    for entry in std::fs::read_dir(default_tables()).unwrap() {
        let path = entry.unwrap().path();
        std::os::unix::fs::symlink(&path, tables.join(path.file_name().unwrap())).unwrap();
    }
    let lines: Vec<&str> = readme.lines().collect();
    let mut ran = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(command) = line.strip_prefix("$ ./target/release/") else { continue };
        let words: Vec<&str> = command.split_whitespace().collect();
        let out = Command::new(bin_dir().join(words[0]))
            .args(&words[1..])
            .current_dir(&cwd)
            .env_remove("DICE_TABLES")
            .output()
            .unwrap();
        assert!(out.status.success(), "README line {}: {command}: {}", i + 1, String::from_utf8_lossy(&out.stderr));
        let shown: Vec<&str> =
            lines[i + 1..].iter().take_while(|l| !l.starts_with("```") && !l.starts_with("$ ")).copied().collect();
        if !shown.is_empty() {
            let printed = String::from_utf8(out.stdout).unwrap();
            assert_eq!(printed.trim_end(), shown.join("\n"), "README line {}: {command}", i + 1);
        }
        ran += 1;
    }
    assert!(ran >= 5, "found only {ran} commands in README.md");
}
