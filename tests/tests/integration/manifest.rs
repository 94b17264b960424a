//! Reproducible output: the tables make built are the ones the committed
//! manifest lists (tables/checksums.b3), and the generator writes the same
//! bytes with one thread as with every core, so any change in output is
//! deliberate (`make manifest`). Each table is solved once for these checks:
//! the big ones as make built them, the small ones again with one thread.

use dice_tables_tests::{made_tables, manifest, repo_tables, run, scratch, REDUCED_DUEL};

/// The tables `generator --out DIR` writes (every default table).
const DEFAULT: [&str; 8] = ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames"];
/// The manifest's tables that `make tables` and `make quick` build beside
/// them (Maxi Yatzy's takes a minute).
const MADE_FOR_QUICK: [&str; 2] = ["maxi-yatzy", "yazy-target"];
/// The rule sets' tables `make tables` builds in a run of their own,
/// solved again here with one thread.
use dice_tables_tests::{BUILT_IN_PARTS_TABLES, RULE_DUEL_TABLES, RULE_PARTS_TABLES, RULE_TABLES, RULE_TARGET_TABLES};
/// What `make test` builds besides (two and a half minutes).
const MADE_FOR_TEST: [&str; 1] = ["yazy-duel"];
/// The manifest's tables that `make manifest-check` checks after `make
/// target-tables` (minutes each; the browser tests need them).
const MADE_FOR_BROWSER: [&str; 2] = ["yatzy-target", "yahtzee-target"];

fn manifest_file() -> std::path::PathBuf {
    repo_tables().join("checksums.b3")
}

#[test]
fn the_manifest_lists_each_table_once_and_each_is_checked() {
    let entries = manifest::entries(&manifest_file()).unwrap();
    let mut listed: Vec<String> = entries.iter().map(|(_, name)| name.clone()).collect();
    let mut checked: Vec<String> = DEFAULT
        .iter()
        .chain(&MADE_FOR_QUICK)
        .chain(&MADE_FOR_TEST)
        .chain(&MADE_FOR_BROWSER)
        .chain(&RULE_TABLES)
        .chain(&RULE_TARGET_TABLES)
        .chain(&RULE_PARTS_TABLES)
        .chain(&BUILT_IN_PARTS_TABLES)
        .chain(&RULE_DUEL_TABLES)
        .map(|g| format!("{g}.dtab"))
        .collect();
    listed.sort();
    checked.sort();
    assert_eq!(listed, checked, "every table in tables/checksums.b3 is checked here or by `make manifest-check`");
}

#[test]
fn the_tables_make_built_match_the_manifest() {
    let games: Vec<&str> = DEFAULT
        .iter()
        .chain(&MADE_FOR_QUICK)
        .chain(&RULE_TABLES)
        .chain(&RULE_TARGET_TABLES)
        .chain(&RULE_PARTS_TABLES)
        .chain(&BUILT_IN_PARTS_TABLES)
        .copied()
        .collect();
    manifest::check(&manifest_file(), &made_tables(), &games).unwrap();
}

#[test]
#[ignore = "slow: make test runs it, after building two-player yazy"]
fn the_two_player_table_make_built_matches_the_manifest() {
    manifest::check(&manifest_file(), &made_tables(), &MADE_FOR_TEST).unwrap();
}

/// The default tables the tests generate for themselves, with every core
/// and the background compressor, are the manifest's too, and the
/// generator's default run writes no other.
#[test]
fn the_default_run_writes_the_manifest_s_default_tables() {
    let dir = dice_tables_tests::default_tables();
    manifest::check(&manifest_file(), dir, &DEFAULT).unwrap();
    // Beside them only what the tests add: yazy's target table, and a link
    // to Maxi Yatzy's as `make tables` wrote it.
    let mut written: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let mut expected: Vec<String> = DEFAULT.iter().chain(&MADE_FOR_QUICK).map(|g| format!("{g}.dtab")).collect();
    written.sort();
    expected.sort();
    assert_eq!(written, expected, "the generator's default run writes exactly the default tables");
}

/// One thread writes the bytes make wrote with every core, for one table
/// of each solver and layout: each built-in game's (one of the two 10000
/// duels), and of the rules engine's a sheet with a total and without,
/// with a tracked bonus, a target table and parts tables of each kind.
/// The others' bytes are the manifest's as make wrote them (above); these
/// are the solvers whose work is split among threads.
const ONE_THREAD: [&str; 18] = [
    "yazy",
    "combo",
    "threes",
    "tenk",
    "yatzy",
    "yahtzee",
    "duel",
    "yazy-target",
    "forced-yatzy",
    "crag",
    "generala",
    "yacht-dice",
    "yahtzee-no-bonus",
    "crag-target",
    "forced-yatzy-parts",
    "generala-parts",
    "yacht-dice-parts",
    "yazy-parts",
];

#[test]
fn one_thread_writes_the_same_small_tables() {
    let dir = scratch("threads-1");
    let o =
        run("generator", &["--out", dir.to_str().unwrap(), "--threads", "1", "--games", &ONE_THREAD.join(",")], &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    manifest::check(&manifest_file(), &dir, &ONE_THREAD).unwrap();
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), ONE_THREAD.len(), "the generator writes only what is asked");
}

/// Two-player yazy's solve, on the reduced game of the golden lookups:
/// one thread writes the bytes make wrote with every core.
#[test]
fn one_thread_writes_the_same_two_player_table() {
    let dir = scratch("threads-1-duel");
    let args = ["--out", dir.to_str().unwrap(), "--threads", "1", "--games", "yazy-duel"];
    let o = run("generator", &[&args[..], &["--yazy-duel-categories", REDUCED_DUEL]].concat(), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let made = dice_tables_tests::target_tables().join("yazy-duel.dtab");
    let made = std::fs::read(&made).unwrap_or_else(|e| panic!("{}: {e}", made.display()));
    assert!(std::fs::read(dir.join("yazy-duel.dtab")).unwrap() == made, "yazy-duel with one thread differs");
}

/// Each table `make tables` leaves out names the make targets that build
/// it, and each of them does: the first that table alone, the others it
/// among others (asked of make with nothing built: `make -n`).
#[test]
fn each_table_s_make_targets_build_it() {
    for game in dice_tables_reader::GAMES.iter().filter(|g| !g.built_by.is_empty()) {
        for (i, target) in game.built_by.iter().enumerate() {
            let out = std::process::Command::new("make")
                .args(["-n", "OUT=/nonexistent-tables", target])
                .current_dir(repo_tables().join(".."))
                .output()
                .expect("make runs");
            let plan = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "make -n {target}: {}", String::from_utf8_lossy(&out.stderr));
            let solves: Vec<&str> = plan.lines().filter(|l| l.contains("--games")).collect();
            assert!(
                solves.iter().any(|l| l.split([' ', ',']).any(|w| w == game.id)),
                "make {target} does not solve {}: {plan}",
                game.id
            );
            if i == 0 {
                assert_eq!(solves.len(), 1, "make {target} solves more than {}: {plan}", game.id);
            }
        }
    }
}
