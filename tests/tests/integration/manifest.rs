//! Reproducible output: the generator writes byte-identical tables for any
//! thread count, and they match the committed manifest (tables/checksums.b3),
//! so any change in output is deliberate (`make manifest`). The whole
//! yatzy and yahtzee target tables take minutes to solve: `make bench`
//! checks their manifest lines (generator/examples/target_games.rs).

use dice_tables_tests::{repo_tables, run, scratch};

/// The manifest's tables that `make bench` checks, not this test.
const CHECKED_IN_BENCH: [&str; 2] = ["yatzy-target.dtab", "yahtzee-target.dtab"];
/// The manifest's tables checked as `make tables` wrote them (solving them
/// again at one and two threads would take minutes).
const AS_MADE: [&str; 1] = ["maxi-yatzy.dtab"];

/// Writes the tables the manifest lists (every default table and the small
/// target table) with `threads` threads.
fn generate(threads: &str, games: &str) -> std::path::PathBuf {
    let dir = scratch(&format!("threads-{threads}"));
    let o = run("generator", &["--out", dir.to_str().unwrap(), "--threads", threads, "--games", games], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    dir
}

#[test]
fn tables_match_the_manifest_for_one_and_two_threads() {
    let manifest = std::fs::read_to_string(repo_tables().join("checksums.b3")).expect("tables/checksums.b3");
    let entries: Vec<(&str, &str)> = manifest
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_once("  ").expect("`HASH  NAME` lines"))
        .collect();
    assert!(!entries.is_empty());
    for name in CHECKED_IN_BENCH {
        assert!(entries.iter().any(|(_, n)| *n == name), "the manifest lists {name}");
    }
    for name in AS_MADE {
        let (hash, _) = entries.iter().find(|(_, n)| *n == name).unwrap_or_else(|| panic!("the manifest lists {name}"));
        let bytes = std::fs::read(dice_tables_tests::made_tables().join(name)).expect("make tables wrote it");
        assert_eq!(blake3::hash(&bytes).to_hex().as_str(), *hash, "{name} as `make tables` wrote it");
    }
    let entries: Vec<(&str, &str)> =
        entries.into_iter().filter(|(_, n)| !CHECKED_IN_BENCH.contains(n) && !AS_MADE.contains(n)).collect();
    let games: Vec<&str> = entries.iter().map(|(_, name)| name.strip_suffix(".dtab").expect("NAME.dtab")).collect();
    for threads in ["1", "2"] {
        let dir = generate(threads, &games.join(","));
        for (hash, name) in &entries {
            let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                blake3::hash(&bytes).to_hex().as_str(),
                *hash,
                "{name} with {threads} threads differs from tables/checksums.b3: if the change is deliberate, run `make manifest`"
            );
        }
        let written = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(written, entries.len(), "the manifest lists every table the generator writes");
    }
}
