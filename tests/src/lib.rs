//! Helpers for the end-to-end tests: where the binaries are, scratch
//! directories, a small deterministic PRNG, the outcomes of a throw, and
//! (in [`oracles`], one file per game) independent brute-force evaluators
//! of the games.

pub mod http;
pub mod manifest;
pub mod oracles;
pub mod reference_players;
pub mod tenk_players;

pub use oracles::combo::*;
pub use oracles::duel;
pub use oracles::maxi;
pub use oracles::sheet;
pub use oracles::tenk::*;
pub use oracles::threes::*;
pub use oracles::yazy::*;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Every game a lookup can ask, in the registry's order
/// ([`dice_tables_lookup::LOOKUPS`]): the games of the golden files
/// (`tests/golden/<game>.json`), which every front end's test asks.
pub fn games() -> impl Iterator<Item = &'static str> {
    dice_tables_lookup::LOOKUPS.iter().map(|l| l.game)
}

/// The directory of the built binaries (`target/<profile>`).
pub fn bin_dir() -> PathBuf {
    // Test executables live in target/<profile>/deps, binaries (the load
    // test) in target/<profile>.
    let exe = std::env::current_exe().expect("current exe");
    let dir = exe.parent().expect("target/<profile>");
    match dir.file_name() {
        Some(name) if name == "deps" => dir.parent().expect("target/<profile>").to_path_buf(),
        _ => dir.to_path_buf(),
    }
}

/// A built binary of the workspace.
pub fn bin(name: &str) -> PathBuf {
    let path = bin_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is not built: run `cargo build --release --bins` first (`make test` does)",
        path.display()
    );
    path
}

/// Runs a workspace binary with arguments and extra environment.
pub fn run(name: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin(name));
    cmd.args(args).env_remove("DICE_TABLES");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("binary runs")
}

/// `reader lookup GAME <flags> --json --tables DIR` for a golden file's
/// query: each field a flag (`true`: a flag without a value).
pub fn golden_cli(game: &str, query: &serde_json::Map<String, serde_json::Value>, tables: &Path) -> Output {
    let mut args = vec!["lookup".to_string(), game.to_string()];
    for (flag, value) in query {
        args.push(format!("--{flag}"));
        match value {
            serde_json::Value::Bool(true) => {}
            serde_json::Value::String(s) => args.push(s.clone()),
            other => args.push(other.to_string()),
        }
    }
    args.extend(["--json".to_string(), "--tables".to_string(), tables.to_str().expect("UTF-8 path").to_string()]);
    run("reader", &args.iter().map(String::as_str).collect::<Vec<_>>(), &[])
}

/// A golden query (flags without dashes, `true` for a flag without a
/// value) as the lookup layer's query, or its one-line refusal.
pub fn golden_query(
    game: &str,
    query: &serde_json::Map<String, serde_json::Value>,
) -> Result<dice_tables_lookup::Query, String> {
    use dice_tables_lookup::{Arg, Query};
    let texts: Vec<(String, Option<String>)> = query
        .iter()
        .map(|(flag, value)| match value {
            serde_json::Value::Bool(true) => (flag.clone(), None),
            serde_json::Value::String(s) => (flag.clone(), Some(s.clone())),
            other => (flag.clone(), Some(other.to_string())),
        })
        .collect();
    let args: Vec<(&str, Arg)> = texts
        .iter()
        .map(|(flag, value)| (flag.as_str(), value.as_deref().map_or(Arg::Flag(true), Arg::Text)))
        .collect();
    Query::from_args(game, &args).map_err(|e| e.to_string())
}

/// The library's answer to a golden query (the query layer every front end
/// but the CLI's text uses): the JSON text, or the one-line refusal.
pub fn golden_answer(
    tables: &dice_tables_reader::Tables,
    game: &str,
    query: &serde_json::Map<String, serde_json::Value>,
) -> Result<String, String> {
    let query = golden_query(game, query)?;
    query.answer(tables).map(|j| j.to_string()).map_err(|e| e.to_string())
}

/// How many games a simulating test plays: `default` in `make test`, the
/// count in the environment variable `name` where set (`make bench` sets
/// the issues' full counts). A count that is not a number is refused, not
/// read as the default: a bench run must not pass at the test's size.
pub fn games_from_env(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(count) => count.parse().unwrap_or_else(|_| panic!("{name}={count}: a count of games, such as 10000")),
        Err(_) => default,
    }
}

/// A fresh, empty scratch directory under the target directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = bin_dir().join("e2e-scratch").join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Tables for the default rules, generated once per test binary.
pub fn default_tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("default-tables");
        let out = run("generator", &["--out", dir.to_str().unwrap()], &[]);
        assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
        // And the small target table, as `make test` builds it.
        let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "yazy-target"], &[]);
        assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
        // And Maxi Yatzy's, as `make tables` wrote it (solving it again
        // takes a minute; the manifest test checks it is the one it lists).
        std::os::unix::fs::symlink(made_tables().join("maxi-yatzy.dtab"), dir.join("maxi-yatzy.dtab"))
            .expect("a link to the Maxi Yatzy table");
        dir
    })
}

/// The rule sets' tables `make tables` writes (the Makefile's
/// `RULE_TABLES`), each `NAME.dtab` in the tables directory.
pub const RULE_TABLES: [&str; 7] =
    ["forced-yatzy", "yacht", "yacht-dice", "generala", "crag", "yahtzee-no-joker", "yahtzee-no-bonus"];

/// The built-in games whose rules are also presets (`generator/rules/`):
/// their tables are the games' own, the same values in their own layout,
/// so the coach's reference players play the preset.
pub const BUILT_IN_PRESETS: [&str; 3] = ["yatzy", "yahtzee", "yazy"];

/// The rule sets' parts tables `make tables` writes (the Makefile's
/// `RULE_PARTS_TABLES`), each `NAME-parts.dtab`: their values box by box.
pub const RULE_PARTS_TABLES: [&str; 7] = [
    "forced-yatzy-parts",
    "yacht-parts",
    "yacht-dice-parts",
    "generala-parts",
    "crag-parts",
    "yahtzee-no-joker-parts",
    "yahtzee-no-bonus-parts",
];

/// The parts tables of the built-in games `make tables` writes (the
/// Makefile's `BUILT_IN_PARTS_TABLES`): their presets' values box by box,
/// read beside the built-in games' own tables.
pub const BUILT_IN_PARTS_TABLES: [&str; 3] = ["yatzy-parts", "yahtzee-parts", "yazy-parts"];

/// The rule sets' target tables `make tables` writes (the Makefile's
/// `RULE_TARGET_TABLES`), each `NAME-target.dtab`, asked as `NAME --need N`.
pub const RULE_TARGET_TABLES: [&str; 4] = ["forced-yatzy-target", "yacht-target", "generala-target", "crag-target"];

/// The rule sets played for a target whose reference players' figures
/// `make reference-players` writes (as `NAME:POINTS`): each about its
/// expected score, the start's chance near a half.
pub const REFERENCE_TARGETS: [&str; 3] = ["crag:150", "forced-yatzy:130", "generala:160"];

/// The rule sets played against someone whose reference players' figures
/// `make reference-players` writes (as `NAME:two`): each player against
/// the two-player table's optimal player, from the whole two-player tables
/// `make reduced-target-tables` writes.
pub const REFERENCE_TWO_PLAYERS: [&str; 1] = ["forced-yatzy:two"];

/// The rule sets played against someone whose two-player tables take
/// minutes each (`make rule-duel-tables`): their reference players'
/// figures are written by `make rule-duel-reference` (as `NAME:two`) and
/// checked by `make bench`, not played by `make reference-players`.
pub const REFERENCE_RULE_DUELS: [&str; 3] = ["generala:two", "yacht:two", "crag:two"];

/// The rule sets' two-player tables the manifest lists (the Makefile's
/// `RULE_DUEL_TABLES`, not part of `make tables`), each `NAME-duel.dtab`,
/// asked as `NAME --opp-mask ...`: forced-yatzy-duel is checked against
/// the manifest by the tests that write it, generala-duel, yacht-duel and
/// crag-duel (minutes) by `make rule-duel-tables`.
pub const RULE_DUEL_TABLES: [&str; 4] = ["forced-yatzy-duel", "generala-duel", "yacht-duel", "crag-duel"];

/// Forced Yatzy's own table and parts table (`make tables`) beside its
/// two-player table (whole, among [`target_tables`]), linked into one
/// directory once per test binary: what a review of a game against
/// someone reads. (`make tables` leaves the two-player table out, so that
/// its directory's lookups against someone stay the advisor's, as the
/// golden files ask them.)
pub fn duel_review_tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("duel-review-tables");
        for (from, file) in [
            (made_tables(), "forced-yatzy.dtab"),
            (made_tables(), "forced-yatzy-parts.dtab"),
            (target_tables().to_path_buf(), "forced-yatzy-duel.dtab"),
        ] {
            let source = std::fs::canonicalize(from.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            std::os::unix::fs::symlink(source, dir.join(file)).expect("a link in the scratch directory");
        }
        dir
    })
}

/// Categories open in the largest states of the reduced target tables.
pub const REDUCED_OPEN: &str = "4";

/// The categories of the reduced two-player yazy game beside them (the
/// Makefile's `REDUCED_DUEL`): its states answer as the whole table's do.
pub const REDUCED_DUEL: &str = "ones,threes,full-house,straight,yazy";

/// Where `tests/golden/target.json`, `yazy-duel.json` and
/// `rule-set-duel.json` are asked: yatzy, yahtzee and their target tables,
/// two-player yazy and two-player forced Yatzy (whole: seconds). `$DICE_TARGET_TABLES` when set (`make test` points it at
/// the reduced tables `make reduced-target-tables` writes, with at most
/// [`REDUCED_OPEN`] categories open, and two-player yazy within
/// [`REDUCED_DUEL`], for every test binary and the Python tests; `make
/// bench` at the whole ones), else reduced tables generated once per test
/// binary.
pub fn target_tables() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("DICE_TARGET_TABLES") {
            let dir = PathBuf::from(dir);
            assert!(
                dir.join("yatzy-target.dtab").is_file(),
                "no target tables in {}: run `make reduced-target-tables`",
                dir.display()
            );
            return dir;
        }
        let dir = scratch("reduced-tables");
        let games = "yatzy,yahtzee,yatzy-target,yahtzee-target";
        let out =
            run("generator", &["--out", dir.to_str().unwrap(), "--games", games, "--target-open", REDUCED_OPEN], &[]);
        assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
        let duel = ["--out", dir.to_str().unwrap(), "--games", "yazy-duel", "--yazy-duel-categories", REDUCED_DUEL];
        let out = run("generator", &duel, &[]);
        assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
        let out = run("generator", &["--out", dir.to_str().unwrap(), "--games", "forced-yatzy-duel"], &[]);
        assert!(out.status.success(), "generator failed: {}", String::from_utf8_lossy(&out.stderr));
        dir
    })
}

/// The repository's `tables/` directory (manifest and README).
/// The tables `make tables` wrote (`$DICE_TABLES`, else tables/): the
/// Maxi Yatzy table is read there rather than solved again (a minute).
pub fn made_tables() -> PathBuf {
    std::env::var_os("DICE_TABLES").filter(|d| !d.is_empty()).map(PathBuf::from).unwrap_or_else(repo_tables)
}

pub fn repo_tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables")
}

/// xorshift64*: deterministic random numbers for sampling states.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Every multiset outcome of throwing `k` dice, with its probability, found
/// by enumerating all `6^k` ordered throws.
pub fn throw_outcomes(k: usize) -> Vec<(Vec<u8>, f64)> {
    let total = 6usize.pow(k as u32);
    let mut counts: HashMap<Vec<u8>, usize> = HashMap::new();
    for code in 0..total {
        let mut c = code;
        let mut faces: Vec<u8> = (0..k)
            .map(|_| {
                let f = (c % 6) as u8 + 1;
                c /= 6;
                f
            })
            .collect();
        faces.sort_unstable();
        *counts.entry(faces).or_default() += 1;
    }
    let mut out: Vec<(Vec<u8>, f64)> = counts.into_iter().map(|(f, n)| (f, n as f64 / total as f64)).collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The expected value of `value(dice)` when the `kept` dice are joined by
/// every outcome of throwing the rest.
pub(crate) fn over_throws(outcomes: &[(Vec<u8>, f64)], kept: &[u8], mut value: impl FnMut([u8; 5]) -> f64) -> f64 {
    let mut total = 0.0;
    for (thrown, p) in outcomes {
        let mut dice = [0u8; 5];
        dice[..kept.len()].copy_from_slice(kept);
        dice[kept.len()..].copy_from_slice(thrown);
        total += p * value(dice);
    }
    total
}

/// A message written with command-line flags (as the golden refusals are)
/// in the HTTP API's and Python's terms, rewritten here apart from the
/// lookup layer's own rendering: each `--NAME` that is a lookup argument
/// becomes `NAME` (`underscores` for Python's keywords); other text
/// (`generator --out DIR`) stays.
pub fn in_terms(message: &str, python: bool) -> String {
    let is_argument = |name: &str| {
        !name.is_empty() && dice_tables_lookup::LOOKUPS.iter().any(|l| l.arguments.iter().any(|a| a.name == name))
    };
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let len = after.find(|c: char| !(c.is_ascii_lowercase() || c == '-')).unwrap_or(after.len());
        let name = after[..len].trim_end_matches('-');
        if is_argument(name) {
            out.push_str(&if python { name.replace('-', "_") } else { name.to_string() });
            rest = &after[name.len()..];
        } else {
            out.push_str("--");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// A rule set only the tests write: four dice, five boxes, an upper bonus,
/// a box that wins at once when served (two players: 3.3 million joint
/// states, two seconds to solve).
pub const PORCH_RULES: &str = r#"name = "porch"
dice = 4
rerolls = 2

[upper-bonus]
boxes = ["sixes"]
at = 18
points = 10

[[box]]
name = "sixes"
kind = "face"
face = 6

[[box]]
name = "two-pairs"
kind = "pairs"
pairs = 2
score = "dice"

[[box]]
name = "run"
kind = "straight"
runs = [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]]
score = 15

[[box]]
name = "four-alike"
kind = "alike"
count = 4
score = 20
wins = true

[[box]]
name = "chance"
kind = "chance"
"#;
