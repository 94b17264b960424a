//! Helpers for the end-to-end tests: where the binaries are, scratch
//! directories, a small deterministic PRNG, and independent brute-force
//! evaluators of the games.
//!
//! The evaluators share no code with the generator: they work on sorted
//! arrays of faces, enumerate every ordered outcome of the rerolled dice, and
//! memoise in hash maps. They are slow and simple on purpose.

pub mod http;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

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
        dir
    })
}

/// Categories open in the largest states of the reduced target tables.
pub const REDUCED_OPEN: &str = "4";

/// Where `tests/golden/target.json` is asked: yatzy, yahtzee and their
/// target tables. `$DICE_TARGET_TABLES` when set (`make test` points it at
/// the reduced tables `make reduced-target-tables` writes, with at most
/// [`REDUCED_OPEN`] categories open, for every test binary and the Python
/// tests; `make bench` at the whole ones), else reduced tables generated
/// once per test binary.
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
        dir
    })
}

/// The repository's `tables/` directory (manifest and README).
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
fn over_throws(outcomes: &[(Vec<u8>, f64)], kept: &[u8], mut value: impl FnMut([u8; 5]) -> f64) -> f64 {
    let mut total = 0.0;
    for (thrown, p) in outcomes {
        let mut dice = [0u8; 5];
        dice[..kept.len()].copy_from_slice(kept);
        dice[kept.len()..].copy_from_slice(thrown);
        total += p * value(dice);
    }
    total
}

/// Brute-force yazy: memoised recursion over (mask, sorted dice, rerolls left).
pub struct BruteYazy {
    rerolls: u8,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    turn: HashMap<u16, f64>,
    state: HashMap<(u16, [u8; 5], u8), f64>,
    keep: HashMap<(u16, Vec<u8>, u8), f64>,
}

/// Brute-force yazy played to reach a target: the best chance that the
/// points from a state to the game's end are at least `need`, by memoised
/// recursion over (mask, need, sorted dice, rerolls left), every lock of
/// the five dice tried. Shares no solving code with the generator.
pub struct BruteYazyTarget {
    rerolls: u8,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    turn: HashMap<(u16, i64), f64>,
    state: HashMap<(u16, i64, [u8; 5], u8), f64>,
    keep: HashMap<(u16, i64, Vec<u8>, u8), f64>,
}

impl BruteYazyTarget {
    pub fn new(rerolls: u8) -> BruteYazyTarget {
        BruteYazyTarget {
            rerolls,
            outcomes: (0..=5).map(throw_outcomes).collect(),
            turn: HashMap::new(),
            state: HashMap::new(),
            keep: HashMap::new(),
        }
    }

    /// The best chance of scoring at least `need` from a turn's start.
    pub fn turn_start(&mut self, mask: u16, need: i64) -> f64 {
        if need <= 0 {
            return 1.0;
        }
        if mask == 0 {
            return 0.0;
        }
        if let Some(&v) = self.turn.get(&(mask, need)) {
            return v;
        }
        let v = self.keep_value(mask, need, &[], self.rerolls + 1);
        self.turn.insert((mask, need), v);
        v
    }

    /// Keeping `kept` and throwing the rest, `rerolls` counted before the throw.
    pub fn keep_value(&mut self, mask: u16, need: i64, kept: &[u8], rerolls: u8) -> f64 {
        let mut key_dice = kept.to_vec();
        key_dice.sort_unstable();
        let key = (mask, need, key_dice, rerolls);
        if let Some(&v) = self.keep.get(&key) {
            return v;
        }
        let outcomes = self.outcomes[5 - kept.len()].clone();
        let total = over_throws(&outcomes, kept, |dice| self.value(mask, need, dice, rerolls - 1));
        self.keep.insert(key, total);
        total
    }

    /// Scoring category `c` with `dice` now.
    pub fn score_value(&mut self, mask: u16, need: i64, dice: &[u8; 5], c: usize) -> f64 {
        self.turn_start(mask & !(1 << c), need - yazy_points(dice, c) as i64)
    }

    /// The best chance with `dice` showing and `rerolls` left.
    pub fn value(&mut self, mask: u16, need: i64, mut dice: [u8; 5], rerolls: u8) -> f64 {
        if need <= 0 {
            return 1.0;
        }
        if mask == 0 {
            return 0.0;
        }
        dice.sort_unstable();
        if let Some(&v) = self.state.get(&(mask, need, dice, rerolls)) {
            return v;
        }
        let mut best = 0.0f64;
        if rerolls == 0 {
            for c in (0..11).filter(|c| mask >> c & 1 == 1) {
                best = best.max(self.score_value(mask, need, &dice, c));
            }
        } else {
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                let v = if kept.len() == 5 {
                    self.value(mask, need, dice, 0)
                } else {
                    self.keep_value(mask, need, &kept, rerolls)
                };
                best = best.max(v);
            }
        }
        self.state.insert((mask, need, dice, rerolls), best);
        best
    }
}

/// Points of five dice in yazy category `c` (0 ones .. 5 sixes, 6 three-kind,
/// 7 four-kind, 8 full-house, 9 straight, 10 yazy), straight from the rules.
pub fn yazy_points(dice: &[u8; 5], c: usize) -> f64 {
    let count = |face: u8| dice.iter().filter(|&&d| d == face).count();
    let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
    let max_same = (1..=6).map(count).max().unwrap();
    let p = match c {
        0..=5 => (c as u32 + 1) * count(c as u8 + 1) as u32,
        6 => {
            if max_same >= 3 {
                sum
            } else {
                0
            }
        }
        7 => {
            if max_same >= 4 {
                sum
            } else {
                0
            }
        }
        8 => {
            let three = (1..=6).any(|f| count(f) == 3);
            let two = (1..=6).any(|f| count(f) == 2);
            if three && two {
                25
            } else {
                0
            }
        }
        9 => {
            let mut s = *dice;
            s.sort_unstable();
            if s == [1, 2, 3, 4, 5] || s == [2, 3, 4, 5, 6] {
                40
            } else {
                0
            }
        }
        10 => {
            if max_same == 5 {
                50
            } else {
                0
            }
        }
        _ => panic!("no category {c}"),
    };
    f64::from(p)
}

impl BruteYazy {
    pub fn new(rerolls: u8) -> BruteYazy {
        BruteYazy {
            rerolls,
            outcomes: (0..=5).map(throw_outcomes).collect(),
            turn: HashMap::new(),
            state: HashMap::new(),
            keep: HashMap::new(),
        }
    }

    /// Expected score still to come at the start of a turn.
    pub fn turn_start(&mut self, mask: u16) -> f64 {
        if mask == 0 {
            return 0.0;
        }
        if let Some(&v) = self.turn.get(&mask) {
            return v;
        }
        let v = self.keep_value(mask, &[], self.rerolls + 1);
        self.turn.insert(mask, v);
        v
    }

    /// Value of scoring category `c` now: points plus the next turn's start.
    pub fn score_value(&mut self, mask: u16, dice: &[u8; 5], c: usize) -> f64 {
        yazy_points(dice, c) + self.turn_start(mask & !(1 << c))
    }

    /// Value of keeping `kept` and throwing the rest, with `rerolls` counted
    /// before the throw (so the dice land with `rerolls - 1` left).
    pub fn keep_value(&mut self, mask: u16, kept: &[u8], rerolls: u8) -> f64 {
        let mut key_dice = kept.to_vec();
        key_dice.sort_unstable();
        let key = (mask, key_dice, rerolls);
        if let Some(&v) = self.keep.get(&key) {
            return v;
        }
        let outcomes = self.outcomes[5 - kept.len()].clone();
        let total = over_throws(&outcomes, kept, |dice| self.value(mask, dice, rerolls - 1));
        self.keep.insert(key, total);
        total
    }

    /// Expected score still to come with `dice` showing and `rerolls` left.
    pub fn value(&mut self, mask: u16, mut dice: [u8; 5], rerolls: u8) -> f64 {
        if mask == 0 {
            return 0.0;
        }
        dice.sort_unstable();
        if let Some(&v) = self.state.get(&(mask, dice, rerolls)) {
            return v;
        }
        let mut best = f64::NEG_INFINITY;
        if rerolls == 0 {
            for c in (0..11).filter(|c| mask >> c & 1 == 1) {
                best = best.max(self.score_value(mask, &dice, c));
            }
        } else {
            // Every lock subset of the five dice; locking all five stops rerolling.
            for lock in 0u32..32 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                let v = if kept.len() == 5 { self.value(mask, dice, 0) } else { self.keep_value(mask, &kept, rerolls) };
                best = best.max(v);
            }
        }
        self.state.insert((mask, dice, rerolls), best);
        best
    }
}

/// The final score of five combo dice, straight from the rules: the sum plus
/// 70 for five of a kind, 60 for 1-5 or 2-6, 50 for 3+2, 40 for 4+1, 30 for 3+1+1.
pub fn combo_score(dice: &[u8; 5]) -> f64 {
    let mut sorted = *dice;
    sorted.sort_unstable();
    let mut runs: Vec<usize> = Vec::new();
    for (i, d) in sorted.iter().enumerate() {
        if i > 0 && sorted[i - 1] == *d {
            *runs.last_mut().unwrap() += 1;
        } else {
            runs.push(1);
        }
    }
    runs.sort_unstable();
    let sum: u32 = dice.iter().map(|&d| u32::from(d)).sum();
    let bonus = if runs == [5] {
        70
    } else if sorted == [1, 2, 3, 4, 5] || sorted == [2, 3, 4, 5, 6] {
        60
    } else if runs == [2, 3] {
        50
    } else if runs == [1, 4] {
        40
    } else if runs == [1, 1, 3] {
        30
    } else {
        0
    };
    f64::from(sum + bonus)
}

/// Brute-force combo: memoised recursion over (sorted dice, rerolls left),
/// every lock subset, every ordered outcome of the rerolled dice.
pub struct BruteCombo {
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    memo: HashMap<([u8; 5], u8), f64>,
}

impl Default for BruteCombo {
    fn default() -> Self {
        BruteCombo { outcomes: (0..=5).map(throw_outcomes).collect(), memo: HashMap::new() }
    }
}

impl BruteCombo {
    /// Expected final score of keeping `kept` and throwing the rest with
    /// `rerolls` left before the throw.
    pub fn keep_value(&mut self, kept: &[u8], rerolls: u8) -> f64 {
        let outcomes = self.outcomes[5 - kept.len()].clone();
        over_throws(&outcomes, kept, |dice| self.value(dice, rerolls - 1))
    }

    /// Expected final score with `dice` showing and `rerolls` left.
    pub fn value(&mut self, mut dice: [u8; 5], rerolls: u8) -> f64 {
        dice.sort_unstable();
        if let Some(&v) = self.memo.get(&(dice, rerolls)) {
            return v;
        }
        // Locking all five ends the game.
        let mut best = combo_score(&dice);
        if rerolls > 0 {
            for lock in 0u32..31 {
                let kept: Vec<u8> = (0..5).filter(|i| lock >> i & 1 == 1).map(|i| dice[i]).collect();
                best = best.max(self.keep_value(&kept, rerolls));
            }
        }
        self.memo.insert((dice, rerolls), best);
        best
    }

    /// Expected final score before the initial roll.
    pub fn game_start(&mut self, rerolls: u8) -> f64 {
        let outcomes = self.outcomes[5].clone();
        outcomes.iter().map(|(d, p)| p * self.value(d.as_slice().try_into().unwrap(), rerolls)).sum()
    }
}

/// Brute-force threes, from the rules alone: a turn DP over (points, dice
/// left) that tries every keep count on every outcome of every throw, and
/// the survival of a final total against the later players built from it.
pub struct BruteThrees {
    ties_win: bool,
    sequential: bool,
    outcomes: Vec<Vec<(Vec<u8>, f64)>>,
    /// Per players after j (sequential) or 0 (independent): the chance a
    /// later player kills each total 0..=30.
    kill: Vec<[f64; 31]>,
}

/// A turn solved for every (points 0..=60, dice 0..=5): (chance of success,
/// chance of the event) per state, at `points * 6 + dice`.
pub struct BruteTurn(Vec<(f64, f64)>);

impl BruteTurn {
    pub fn get(&self, points: u8, dice: u8) -> (f64, f64) {
        self.0[usize::from(points) * 6 + usize::from(dice)]
    }
}

/// A die's worth in threes.
pub fn threes_worth(face: u8) -> u8 {
    if face == 3 {
        0
    } else {
        face
    }
}

impl BruteThrees {
    pub fn new(ties_win: bool, sequential: bool) -> BruteThrees {
        let mut brute =
            BruteThrees { ties_win, sequential, outcomes: (0..=5).map(throw_outcomes).collect(), kill: vec![] };
        if !sequential {
            // A later player plays a fresh turn only to end below t (ties
            // win) or at or below t (ties lose), as likely as possible.
            let kill = std::array::from_fn(|t| {
                let target = |u: u8| if (ties_win && u < t as u8) || (!ties_win && u <= t as u8) { 1.0 } else { 0.0 };
                brute.turn(&target, &|_| 0.0).get(0, 5).0
            });
            brute.kill.push(kill);
        }
        brute
    }

    /// The chance that `after` later players all fail to kill a final `total`.
    pub fn survival(&mut self, after: u8, total: u8) -> f64 {
        if total > 30 {
            return if after == 0 { 1.0 } else { 0.0 };
        }
        if !self.sequential {
            return (1.0 - self.kill[0][usize::from(total)]).powi(i32::from(after));
        }
        while self.kill.len() < usize::from(after) {
            let j = self.kill.len() as u8;
            // The next player after has j players after them and faces t.
            let kill = std::array::from_fn(|t| self.solve(Some(t as u8), j).get(0, 5).1);
            self.kill.push(kill);
        }
        (0..usize::from(after)).map(|j| 1.0 - self.kill[j][usize::from(total)]).product()
    }

    /// Solves a player facing `record` with `after` players after: success
    /// chances, and the chance of ending where a record of `record` is
    /// killed (below it, ties win; at or below, ties lose).
    pub fn solve(&mut self, record: Option<u8>, after: u8) -> BruteTurn {
        let ties_win = self.ties_win;
        let survival: Vec<f64> = (0..=60).map(|t| self.survival(after, t)).collect();
        let success = |t: u8| {
            let beats = match record {
                None => true,
                Some(r) => (ties_win && t <= r) || (!ties_win && t < r),
            };
            if beats {
                survival[usize::from(t)]
            } else {
                0.0
            }
        };
        let event = |t: u8| match record {
            Some(r) if (ties_win && t < r) || (!ties_win && t <= r) => 1.0,
            _ => 0.0,
        };
        self.turn(&success, &event)
    }

    fn turn(&self, success: &dyn Fn(u8) -> f64, event: &dyn Fn(u8) -> f64) -> BruteTurn {
        let mut table = vec![(0.0, 0.0); 61 * 6];
        for dice in 0..=5usize {
            for points in (0..=60usize).rev() {
                // Past 30 points nothing more can change, whatever is kept.
                table[points * 6 + dice] = if dice == 0 || points > 30 {
                    (success(points as u8), event(points as u8))
                } else {
                    let mut total = (0.0, 0.0);
                    for (faces, p) in &self.outcomes[dice] {
                        let (_, chosen) = self.choose(&table, points as u8, faces);
                        total.0 += p * chosen.0;
                        total.1 += p * chosen.1;
                    }
                    total
                };
            }
        }
        BruteTurn(table)
    }

    /// The model's choice for a throw: keep the c lowest-worth dice for the
    /// best chance, c = 1.., a larger c only when better by more than 1e-12.
    /// Returns c and the chosen (success, event).
    fn choose(&self, table: &[(f64, f64)], points: u8, faces: &[u8]) -> (usize, (f64, f64)) {
        let mut worths: Vec<u8> = faces.iter().map(|&f| threes_worth(f)).collect();
        worths.sort_unstable();
        let mut best = (0, (f64::NEG_INFINITY, 0.0));
        let mut kept = points;
        for c in 1..=worths.len() {
            kept += worths[c - 1];
            let option = if kept > 60 { (0.0, 0.0) } else { table[usize::from(kept) * 6 + worths.len() - c] };
            if option.0 > best.1 .0 + 1e-12 {
                best = (c, option);
            }
        }
        best
    }

    /// The model's keep count for `faces` thrown at `points`, in a solved turn.
    pub fn best_keep(&self, turn: &BruteTurn, points: u8, faces: &[u8]) -> usize {
        self.choose(&turn.0, points, faces).0
    }
}

/// The points of keeping exactly the dice `kept` from a throw of `thrown`
/// dice in 10000 (the seed's scoring), from the rules; `None` when that set
/// cannot be kept. (Both a special and plain groups can apply: the best is
/// returned.)
pub fn tenk_keep_points(kept: &[u8], thrown: usize) -> Option<u32> {
    keep_points_under(kept, thrown, TenkScoring::Seed)
}

/// The two scorings of the 10000 family the tables use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TenkScoring {
    /// The seed's (003): three of a kind doubled per extra die, straight 2000.
    Seed,
    /// cardgames.io's Farkle: four/five/six of a kind 1000/2000/3000,
    /// straight 2500, four of a kind and a pair count as three pairs.
    Cardgames,
}

/// [`tenk_keep_points`] under either scoring.
pub fn keep_points_under(kept: &[u8], thrown: usize, scoring: TenkScoring) -> Option<u32> {
    if kept.is_empty() {
        return None;
    }
    let mut count = [0u32; 7];
    for &f in kept {
        count[usize::from(f)] += 1;
    }
    let mut groups = Some(0u32);
    for (face, &n) in count.iter().enumerate().skip(1) {
        let three = if face == 1 { 1000 } else { 100 * face as u32 };
        let points = match (face, n) {
            (_, 0) => Some(0),
            (1, 1) | (1, 2) => Some(100 * n),
            (5, 1) | (5, 2) => Some(50 * n),
            (_, 1) | (_, 2) => None,
            (_, 3) => Some(three),
            (_, n) => Some(match scoring {
                TenkScoring::Seed => three * 2u32.pow(n - 3),
                TenkScoring::Cardgames => 1000 * (n - 3),
            }),
        };
        groups = match (groups, points) {
            (Some(g), Some(p)) => Some(g + p),
            _ => None,
        };
    }
    let mut special = None;
    if thrown == 6 && kept.len() == 6 {
        let mut shape: Vec<u32> = count.iter().copied().filter(|&c| c > 0).collect();
        shape.sort_unstable();
        if shape.len() == 6 {
            special = Some(if scoring == TenkScoring::Seed { 2000 } else { 2500 });
        }
        if shape == [2, 2, 2] || (scoring == TenkScoring::Cardgames && shape == [2, 4]) {
            special = Some(1500);
        }
    }
    match (groups, special) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Every distinct keep of a sorted throw, as (sorted dice kept, points, dice
/// left with hot dice as 6), by trying every subset of the dice's positions.
pub fn tenk_keeps(throw: &[u8]) -> Vec<(Vec<u8>, u32, usize)> {
    keeps_under(throw, TenkScoring::Seed)
}

/// [`tenk_keeps`] under either scoring.
pub fn keeps_under(throw: &[u8], scoring: TenkScoring) -> Vec<(Vec<u8>, u32, usize)> {
    let n = throw.len();
    let mut out: Vec<(Vec<u8>, u32, usize)> = Vec::new();
    for subset in 1u32..(1 << n) {
        let kept: Vec<u8> = (0..n).filter(|i| subset >> i & 1 == 1).map(|i| throw[i]).collect();
        if let Some(points) = keep_points_under(&kept, n, scoring) {
            let left = if kept.len() == n { 6 } else { n - kept.len() };
            if !out.iter().any(|o| o.0 == kept) {
                out.push((kept, points, left));
            }
        }
    }
    out
}

/// Brute-force 10000: every keep of every throw (not only the best per dice
/// left), scores to `cap`, banking assumed past it.
pub struct BruteTenk {
    pub cap: u32,
    /// At `[d][s / 50]`: expected banked points of throwing d dice at s.
    pub value: Vec<Vec<f64>>,
    /// At `[d][s / 50]`, s < 1000: the chance of reaching 1000 this turn.
    pub reach: Vec<Vec<f64>>,
}

impl BruteTenk {
    pub fn new(cap: u32) -> BruteTenk {
        let steps = (cap / 50) as usize + 1;
        type Keeps = Vec<(Vec<u8>, u32, usize)>;
        let throws: Vec<Vec<(Keeps, f64)>> =
            (0..=6).map(|d| throw_outcomes(d).into_iter().map(|(t, p)| (tenk_keeps(&t), p)).collect()).collect();
        // Both tables: a backward pass over the score, each keep worth what
        // `after_keep(table, score index after it, dice left)` says.
        type AfterKeep<'a> = &'a dyn Fn(&[Vec<f64>], usize, usize) -> f64;
        let solve = |steps: usize, after_keep: AfterKeep| {
            let mut table = vec![vec![0.0; steps]; 7];
            for i in (0..steps).rev() {
                for d in 1..=6 {
                    let mut total = 0.0;
                    for (keeps, p) in &throws[d] {
                        let best = keeps
                            .iter()
                            .map(|&(_, points, left)| after_keep(&table, i + (points / 50) as usize, left))
                            .fold(0.0, f64::max);
                        total += p * best;
                    }
                    table[d][i] = total;
                }
            }
            table
        };
        let value = solve(steps, &|table, j, left| {
            let bank = (j * 50) as f64;
            if j >= steps {
                bank
            } else {
                bank.max(table[left][j])
            }
        });
        let reach = solve(20, &|table, j, left| if j >= 20 { 1.0 } else { table[left][j] });
        BruteTenk { cap, value, reach }
    }
}
pub mod duel;
pub mod sheet;
