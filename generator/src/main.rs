//! `generator`: solves the games and writes one table file per game.
//!
//! Exit status: 0 when every table was written, 1 when one could not be
//! written, 2 for bad usage, 3 when the report could not be printed (every
//! table is still written; a closed pipe is not an error).

use std::collections::VecDeque;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Condvar, Mutex};

use clap::Parser;
use dice_tables_generator::artifact::{TableEncoder, TableFile};
use dice_tables_generator::{solve, Rules, Solved, SOLVERS};
use rayon::prelude::*;

use dice_tables_terminal::{error_line, Output};

/// Solve dice games exactly and write their optimal-strategy tables.
#[derive(Parser, Debug)]
#[command(
    name = "generator",
    version,
    about,
    after_help = "Exit status: 0 ok, 1 a table could not be written, 2 bad usage, 3 the report could not be printed."
)]
struct Args {
    /// Directory to write the tables into (created if missing).
    #[arg(long, value_name = "DIR", default_value = "tables")]
    out: PathBuf,
    /// Comma list of games to solve (default: yazy, combo, threes, tenk,
    /// yatzy, yahtzee, duel and duel-cardgames; `make tables` writes
    /// maxi-yatzy too, with a run of its own).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_game)]
    games: Option<Vec<String>>,
    /// When standard error is not a terminal (a build server's log), a
    /// progress line every SECONDS, 0.01 to 3600 (default 10); on a
    /// terminal, one line rewritten in place.
    #[arg(long, value_name = "SECONDS", value_parser = parse_progress_every)]
    progress_every: Option<f64>,
    /// Worker threads, 1 to 1024 (default: one per core, and a background
    /// thread compressing tables while cores would idle; with N, at most N
    /// threads work at once). The output is the same for any count.
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_hyphen_values = true)]
    threads: Option<u16>,
    /// Print one JSON object per game per line instead of text.
    #[arg(long)]
    json: bool,
    /// Rerolls per yazy turn, 0 to 20 (default 2).
    #[arg(long, value_name = "N", value_parser = parse_rerolls, allow_hyphen_values = true)]
    yazy_rerolls: Option<u8>,
    /// Rerolls in a combo game, 0 to 20 (default 5).
    #[arg(long, value_name = "N", value_parser = parse_rerolls, allow_hyphen_values = true)]
    combo_rerolls: Option<u8>,
    /// No longer a flag: each joker reading is a game of its own
    /// (`yahtzee`, `yahtzee-free`); kept to say so in one line.
    #[arg(long, value_name = "READING", hide = true)]
    yahtzee_joker: Option<String>,
    /// The turn score a player on 0 needs to bank, in both duel tables
    /// (default: 1000 in duel, 0 in duel-cardgames): a multiple of 50 up to the goal.
    #[arg(long, value_name = "POINTS", value_parser = parse_duel_points, allow_hyphen_values = true)]
    duel_entry: Option<u32>,
    /// The total that wins, in both duel tables (default 10000): a multiple
    /// of 50 from 50 to 20000.
    #[arg(long, value_name = "POINTS", value_parser = parse_duel_points, allow_hyphen_values = true)]
    duel_goal: Option<u32>,
    /// Reduced target tables (yatzy-target, yahtzee-target and rule sets'),
    /// for tests: only the states with at most N categories open, 1 to 15
    /// (default: every state).
    #[arg(long, value_name = "N", value_parser = parse_target_open, allow_hyphen_values = true)]
    target_open: Option<u8>,
    /// A reduced yazy-duel table, for tests: both sheets use only these
    /// categories (a yazy mask: a number, or names like
    /// `ones,full-house,yazy`; default: all 11).
    #[arg(long, value_name = "MASK", value_parser = parse_duel_categories, allow_hyphen_values = true)]
    yazy_duel_categories: Option<u16>,
    /// A rule file of the Yahtzee family (FILE.toml, see --print-rules):
    /// solve it and write OUT/NAME.dtab, NAME the file's `name` (alone
    /// unless --games names more). Or Maxi Yatzy's rules: `finnish` (bonus
    /// 50 at 75, no saved rolls; maxi-yatzy.dtab, the default) or `swedish`
    /// (bonus 100 at 84, saved rolls; maxi-yatzy-swedish.dtab, as `--games
    /// maxi-yatzy-swedish`).
    #[arg(long, value_name = "FILE|finnish|swedish", value_parser = parse_rules_flag)]
    rules: Option<RulesFlag>,
    /// With --rules FILE: also solve the rule set played to reach a target
    /// (the best chance of scoring at least n, every n) and write
    /// OUT/NAME-target.dtab, as `--games PRESET-target` does for a preset.
    #[arg(long)]
    with_target: bool,
    /// With --rules FILE: also solve the rule set played by two players
    /// (the exact chance of winning, every state of both sheets and every
    /// lead) and write OUT/NAME-duel.dtab, as `--games PRESET-duel` does for
    /// a preset; refused first, with the estimate, where the joint game
    /// would not fit.
    #[arg(long)]
    with_duel: bool,
    /// With --rules FILE: also solve the rule set's values box by box (the
    /// parts a lookup's reasons name) and write OUT/NAME-parts.dtab, as
    /// `--games PRESET-parts` does for a preset.
    #[arg(long)]
    with_parts: bool,
    /// The upper bonus of the Maxi Yatzy tables solved, as AT:POINTS (the
    /// upper total that earns it, 1 to 126, and its points, 0 to 255; the
    /// presets: 75:50 finnish, 84:100 swedish).
    #[arg(long, value_name = "AT:POINTS", value_parser = parse_maxi_bonus, allow_hyphen_values = true)]
    maxi_bonus: Option<(u8, u8)>,
    /// Whether the Maxi Yatzy tables solved save the rerolls a turn leaves
    /// for later turns: `yes` or `no` (the presets: finnish no, swedish yes).
    #[arg(long, value_name = "yes|no", value_parser = parse_yes_no)]
    saved_rolls: Option<bool>,
    /// After the Maxi Yatzy tables without saved rolls, also solve the
    /// exact distribution of their final score from the start under
    /// optimal play (about 10 minutes and 7 GB on two cores for the whole
    /// game): its figures printed, and OUT/ID-scores.csv (score, P(score),
    /// P(score or more)).
    #[arg(long)]
    score_distribution: bool,
    /// Also write the blake3 of every table written to FILE, in `b3sum` format.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
    /// Print a rule set of the Yahtzee family in its canonical form (the
    /// TOML a table of it carries) and exit: a preset (yazy, yatzy,
    /// yahtzee, yahtzee-free, yahtzee-no-joker, yahtzee-no-bonus,
    /// forced-yatzy, maxi-yatzy, maxi-yatzy-swedish, yacht, yacht-dice,
    /// generala, crag) or a rule file of your own (FILE.toml), checked.
    #[arg(long, value_name = "NAME|FILE")]
    print_rules: Option<String>,
}

fn parse_game(s: &str) -> Result<String, String> {
    let name = s.trim();
    let id = dice_tables_reader::GAMES.iter().find(|g| g.id == name || g.aliases.contains(&name)).map(|g| g.id);
    match id.filter(|id| SOLVERS.iter().any(|s| s.id == *id)) {
        Some(id) => Ok(id.to_string()),
        None if rule_set_presets().contains(&name) => Ok(name.to_string()),
        // A preset's target table: `generala-target`.
        None if name.strip_suffix("-target").is_some_and(|p| rule_set_presets().contains(&p)) => Ok(name.to_string()),
        // A preset's values box by box: `generala-parts`; `yatzy-parts` too,
        // read beside the built-in game's own table (the reasons of its
        // reviews).
        None if name.strip_suffix("-parts").and_then(dice_tables_generator::rule_sets::preset).is_some() => {
            Ok(name.to_string())
        }
        // A preset's two-player table: `generala-duel` (refused before any
        // work where the joint game would not fit: `yatzy-duel`).
        None if name.strip_suffix("-duel").and_then(dice_tables_generator::rule_sets::preset).is_some() => {
            Ok(name.to_string())
        }
        None => {
            let mut ids: Vec<&str> = SOLVERS.iter().map(|s| s.id).collect();
            ids.extend(rule_set_presets());
            ids.push("and each of those with -target, -duel or -parts");
            Err(format!("unknown game {s:?}: the games are {}", ids.join(", ")))
        }
    }
}

/// The presets the rules engine solves into tables of their own: those
/// without a solver of their own.
fn rule_set_presets() -> Vec<&'static str> {
    dice_tables_generator::rule_sets::PRESETS
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| dice_tables_generator::solver(name).is_none())
        .collect()
}

/// What `--rules` names: Maxi Yatzy's preset, or a rule file.
#[derive(Clone, Debug, PartialEq)]
enum RulesFlag {
    Maxi(dice_tables_reader::maxi::Rules),
    File(PathBuf),
}

fn parse_rules_flag(s: &str) -> Result<RulesFlag, String> {
    match s {
        "finnish" | "swedish" => parse_maxi_rules(s).map(RulesFlag::Maxi),
        _ if s.is_empty() => Err("give a rule file (FILE.toml), or finnish or swedish for Maxi Yatzy".into()),
        _ => Ok(RulesFlag::File(PathBuf::from(s))),
    }
}

/// A rule file read and checked, or one line naming the file, the line and
/// what is accepted.
fn read_rule_file(path: &Path) -> Result<dice_tables_reader::rules::RuleSet, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read rule file {shown}: {e}"))?;
    let rules = dice_tables_generator::rule_sets::read(&text).map_err(|e| format!("{shown} {e}"))?;
    if let Some(g) = dice_tables_reader::game_named(&rules.name) {
        return Err(format!(
            "{shown}: name = {:?} is the table of game {} (its file {}): give your rule set a name of its own",
            rules.name,
            g.id,
            dice_tables_reader::file_name(g.id)
        ));
    }
    dice_tables_generator::rule_engine::check_solvable(&rules).map_err(|e| format!("{shown}: {}", e.0))?;
    Ok(rules)
}

fn parse_maxi_rules(s: &str) -> Result<dice_tables_reader::maxi::Rules, String> {
    match s {
        "finnish" => Ok(dice_tables_reader::maxi::Rules::FINNISH),
        "swedish" => Ok(dice_tables_reader::maxi::Rules::SWEDISH),
        _ => Err(format!("rules {s:?} is not finnish (bonus 50 at 75) or swedish (bonus 100 at 84, saved rolls)")),
    }
}

fn parse_maxi_bonus(s: &str) -> Result<(u8, u8), String> {
    let parsed = s
        .split_once(':')
        .and_then(|(at, points)| Some((at.trim().parse::<u8>().ok()?, points.trim().parse::<u8>().ok()?)));
    match parsed {
        Some((at @ 1..=126, points)) => Ok((at, points)),
        _ => Err(format!(
            "maxi bonus {s:?} is not AT:POINTS, the upper total 1 to 126 and the points 0 to 255, like 84:100"
        )),
    }
}

fn parse_yes_no(s: &str) -> Result<bool, String> {
    match s {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(format!("{s:?} is not yes or no")),
    }
}

fn parse_progress_every(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.01..=3600.0).contains(&v) => Ok(v),
        _ => Err(format!("progress interval {s:?} is not a number of seconds 0.01 to 3600")),
    }
}

fn parse_threads(s: &str) -> Result<u16, String> {
    match s.parse::<u16>() {
        Ok(n @ 1..=1024) => Ok(n),
        _ => Err(format!("threads {s:?} is not a whole number 1 to 1024")),
    }
}

fn parse_rerolls(s: &str) -> Result<u8, String> {
    match s.parse::<u8>() {
        Ok(n @ 0..=20) => Ok(n),
        _ => Err(format!("rerolls {s:?} is not a whole number 0 to 20")),
    }
}

fn parse_duel_points(s: &str) -> Result<u32, String> {
    let max = dice_tables_reader::duel::MAX_GOAL;
    match s.parse::<u32>() {
        Ok(n) if n % 50 == 0 && n <= max => Ok(n),
        _ => Err(format!("{s:?} is not a multiple of 50 from 0 to {max}")),
    }
}

fn parse_duel_categories(s: &str) -> Result<u16, String> {
    match s.parse::<dice_tables_reader::yazy::Mask>() {
        Ok(m) if m.bits() != 0 => Ok(m.bits()),
        Ok(_) => Err("no category: a yazy-duel game needs at least one".into()),
        Err(e) => Err(e.to_string()),
    }
}

fn parse_target_open(s: &str) -> Result<u8, String> {
    match s.parse::<u8>() {
        Ok(n @ 1..=15) => Ok(n),
        _ => Err(format!("open categories {s:?} is not a whole number 1 to 15")),
    }
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => return usage_error(e),
    };
    if let Some(asked) = &args.print_rules {
        return print_rules(asked);
    }
    let games = match check_usage(&args) {
        Ok(games) => games,
        Err(msg) => {
            error_line("generator", &format!("{msg} (see generator --help)"));
            return ExitCode::from(2);
        }
    };
    let mut out = Output::default();
    let status = match run(&args, &games, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            error_line("generator", &msg);
            ExitCode::from(1)
        }
    };
    out.finish("generator", status)
}

/// `--print-rules`: a preset's or a rule file's canonical text on standard
/// output, or one line saying what is wrong (exit 2).
fn print_rules(asked: &str) -> ExitCode {
    use dice_tables_generator::rule_sets::{preset, read, PRESETS};
    // A preset's own words on its rules (its file's first comment lines) go first.
    let words: String = PRESETS
        .iter()
        .filter(|(name, _)| *name == asked)
        .flat_map(|(_, text)| text.lines().take_while(|l| l.starts_with('#')))
        .map(|l| format!("{l}\n"))
        .collect();
    let rules = match preset(asked) {
        Some(rules) => Ok(rules),
        None if asked.ends_with(".toml") || Path::new(asked).is_file() => std::fs::read_to_string(asked)
            .map_err(|e| format!("cannot read {asked}: {e}"))
            .and_then(|text| read(&text).map_err(|e| format!("{asked} {e}"))),
        None => {
            let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
            Err(format!("no rule set {asked:?}: the presets are {}, or give a FILE.toml", names.join(", ")))
        }
    };
    match rules {
        Ok(rules) => {
            let mut out = Output::default();
            out.print(&format!("{words}{}", rules.to_text()));
            out.finish("generator", ExitCode::SUCCESS)
        }
        Err(why) => {
            error_line("generator", &why);
            ExitCode::from(2)
        }
    }
}

/// clap's errors as one line; help and version go to stdout as usual.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    error_line("generator", &format!("{} (see generator --help)", dice_tables_terminal::one_line(&e)));
    ExitCode::from(2)
}

/// What can be refused before any work: rule flags for games not being
/// solved, a manifest that could not be written. Returns the games to solve.
fn check_usage(args: &Args) -> Result<Usage, String> {
    // A rule file alone asks for its table alone.
    let rule_file = match &args.rules {
        Some(RulesFlag::File(path)) => Some(read_rule_file(path)?),
        _ => None,
    };
    let default = rule_file.is_none();
    let mut games: Vec<&'static str> = SOLVERS
        .iter()
        .filter(|s| args.games.as_ref().map_or(default && s.default, |list| list.iter().any(|l| l == s.id)))
        .map(|s| s.id)
        .collect();
    use dice_tables_generator::rule_sets;
    let preset = |name: &str| rule_sets::preset(name).filter(|_| !SOLVERS.iter().any(|s| s.id == name));
    let listed = args.games.iter().flatten();
    let mut rule_sets: Vec<dice_tables_reader::rules::RuleSet> = listed.clone().filter_map(|n| preset(n)).collect();
    let mut rule_targets: Vec<dice_tables_reader::rules::RuleSet> =
        listed.clone().filter_map(|n| preset(n.strip_suffix("-target")?)).collect();
    let mut rule_duels: Vec<dice_tables_reader::rules::RuleSet> =
        // Not yazy-duel: yazy's two-player table is a game of its own.
        listed
            .filter(|n| !SOLVERS.iter().any(|s| s.id == n.as_str()))
            .filter_map(|n| rule_sets::preset(n.strip_suffix("-duel")?))
            .collect();
    with_rule_file(args.with_duel, "duel", "two-player", rule_file.as_ref(), &mut rule_duels)?;
    // Refused before any work: a joint game that would not fit.
    for rules in &rule_duels {
        dice_tables_generator::rule_engine::duel::check_duel(rules).map_err(|e| e.0)?;
    }
    let mut rule_parts: Vec<dice_tables_reader::rules::RuleSet> =
        args.games.iter().flatten().filter_map(|n| rule_sets::preset(n.strip_suffix("-parts")?)).collect();
    with_rule_file(args.with_parts, "parts", "parts", rule_file.as_ref(), &mut rule_parts)?;
    // Refused before any work: rules whose parts are not solved.
    for rules in &rule_parts {
        dice_tables_generator::rule_engine::parts::check(rules).map_err(|e| e.0)?;
    }
    with_rule_file(args.with_target, "target", "target", rule_file.as_ref(), &mut rule_targets)?;
    rule_sets.extend(rule_file);
    for rules in &rule_targets {
        dice_tables_generator::rule_engine::target::check_target(rules).map_err(|e| e.0)?;
    }
    // `--rules swedish` asks for the swedish preset's table in place of the finnish one.
    let maxi_rules = match &args.rules {
        Some(RulesFlag::Maxi(r)) => Some(*r),
        _ => None,
    };
    if maxi_rules == Some(dice_tables_reader::maxi::Rules::SWEDISH) {
        if let Some(g) = games.iter_mut().find(|g| **g == MAXI) {
            *g = MAXI_SWEDISH;
        }
        games.dedup();
    }
    // Each rules flag, the game it is a rule of, and every table it sets:
    // the duel flags both duel tables, yazy's and yahtzee's their target
    // tables too.
    if args.yahtzee_joker.is_some() {
        return Err("--yahtzee-joker is gone: each reading is a game of its own, yahtzee and yahtzee-target (forced) \
             and yahtzee-free and yahtzee-free-target (free): name them in --games"
            .into());
    }
    let rule_flags: [(&str, bool, &str, &[&str]); 9] = [
        ("--rules", maxi_rules.is_some(), MAXI, &[MAXI, MAXI_SWEDISH]),
        ("--maxi-bonus", args.maxi_bonus.is_some(), MAXI, &[MAXI, MAXI_SWEDISH]),
        ("--saved-rolls", args.saved_rolls.is_some(), MAXI, &[MAXI, MAXI_SWEDISH]),
        ("--yazy-rerolls", args.yazy_rerolls.is_some(), "yazy", &["yazy", "yazy-target", "yazy-duel"]),
        ("--combo-rerolls", args.combo_rerolls.is_some(), "combo", &["combo"]),
        ("--yazy-duel-categories", args.yazy_duel_categories.is_some(), "yazy-duel", &["yazy-duel"]),
        ("--duel-entry", args.duel_entry.is_some(), "duel", &["duel", "duel-cardgames"]),
        ("--duel-goal", args.duel_goal.is_some(), "duel", &["duel", "duel-cardgames"]),
        (
            "--target-open",
            args.target_open.is_some() && rule_targets.is_empty(),
            "yatzy-target, yahtzee-target or a rule set's target table",
            &["yatzy-target", "yahtzee-target", "yahtzee-free-target"],
        ),
    ];
    for (flag, given, game, tables) in rule_flags {
        if given && !games.iter().any(|g| tables.contains(g)) {
            return Err(format!(
                "{flag} is a rule of {game}, which --games leaves out: add {game} to --games or drop {flag}"
            ));
        }
    }
    if args.score_distribution {
        if let Some(rules) = rule_sets.iter().find(|r| r.saved_rerolls) {
            return Err(format!(
                "--score-distribution is solved for rule sets without saved rerolls, and {} saves them: drop \
                 --score-distribution",
                rules.name
            ));
        }
        let saved = |id: &str| args.saved_rolls.unwrap_or(id == MAXI_SWEDISH);
        let maxi: Vec<&&str> = games.iter().filter(|g| [MAXI, MAXI_SWEDISH].contains(*g)).collect();
        if (maxi.is_empty() && rule_sets.is_empty()) || maxi.iter().any(|g| saved(g)) {
            return Err("--score-distribution is solved for Maxi Yatzy without saved rolls (with them a forward pass \
                 would hold some 14 billion scores) and for rule sets: give --games maxi-yatzy or a rule set, or add \
                 --saved-rolls no"
                .into());
        }
    }
    if args.duel_goal == Some(0) {
        return Err("--duel-goal 0: the goal is a multiple of 50 from 50 to 20000".into());
    }
    if let Some(entry) = args.duel_entry {
        let goal = args.duel_goal.unwrap_or(dice_tables_generator::duel::SEED_RULES.goal);
        if entry > goal {
            return Err(format!("--duel-entry {entry} is above the goal {goal}: the entry is at most the goal"));
        }
    }
    if let Some(goal) = args.duel_goal.filter(|_| args.duel_entry.is_none()) {
        let entry = dice_tables_generator::duel::SEED_RULES.entry;
        if goal < entry && games.contains(&"duel") {
            return Err(format!(
                "--duel-goal {goal} is below duel's entry {entry}: give --duel-entry too (at most the goal)"
            ));
        }
    }
    if let Some(file) = &args.manifest {
        let dir = manifest_dir(file);
        if file.is_dir() || file.file_name().is_none() {
            return Err(format!(
                "--manifest {} is a directory: give a file name, like tables/checksums.b3",
                file.display()
            ));
        }
        if !dir.is_dir() {
            return Err(format!(
                "--manifest {}: its directory {} does not exist: give a file in an existing directory",
                file.display(),
                dir.display()
            ));
        }
    }
    Ok(Usage { games, rule_sets, rule_targets, rule_duels, rule_parts })
}

/// `--with-KIND` (`kind` its suffix, `what` the table's name): the rule
/// file's table of that kind too, into `tables`; refused without a rule file.
fn with_rule_file(
    given: bool,
    kind: &str,
    what: &str,
    rule_file: Option<&dice_tables_reader::rules::RuleSet>,
    tables: &mut Vec<dice_tables_reader::rules::RuleSet>,
) -> Result<(), String> {
    match (given, rule_file) {
        (false, _) => Ok(()),
        (true, Some(rules)) => {
            tables.push(rules.clone());
            Ok(())
        }
        (true, None) => Err(format!(
            "--with-{kind} is for a rule file's {what} table: give --rules FILE.toml too (a preset's is --games \
             NAME-{kind})"
        )),
    }
}

/// What a run solves: the games with tables of their own layout (yatzy's
/// and yahtzee's solved by the rules engine too), then rule sets' tables.
struct Usage {
    games: Vec<&'static str>,
    /// Rule sets whose own tables are written.
    rule_sets: Vec<dice_tables_reader::rules::RuleSet>,
    /// Rule sets whose target tables are written.
    rule_targets: Vec<dice_tables_reader::rules::RuleSet>,
    /// Rule sets whose two-player tables are written.
    rule_duels: Vec<dice_tables_reader::rules::RuleSet>,
    /// Rule sets whose parts tables are written.
    rule_parts: Vec<dice_tables_reader::rules::RuleSet>,
}

/// The Maxi Yatzy tables' ids.
const MAXI: &str = "maxi-yatzy";
const MAXI_SWEDISH: &str = "maxi-yatzy-swedish";

fn manifest_dir(file: &Path) -> &Path {
    file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

fn run(args: &Args, usage: &Usage, out: &mut Output) -> Result<(), String> {
    let games = &usage.games[..];
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global()
            .map_err(|e| format!("cannot start {n} threads: {e}"))?;
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let rules = rules_of(args);
    // yazy's sections are made on a thread of their own meanwhile (not with
    // --threads: the operator's count is all that works at once).
    if games.contains(&"yazy") && args.threads.is_none() {
        dice_tables_generator::yazy::prepare(rules.yazy.rerolls);
    }
    // What every solver shares, made once before any is timed: the thread
    // pool's threads (started on first use) and the five-dice keep graph.
    rayon::broadcast(|_| ());
    std::sync::LazyLock::force(&dice_tables_generator::dice::FIVE_DICE);
    let progress = Progress::new(args.json, args.progress_every.unwrap_or(10.0));
    let encoded = solve_all(usage, &rules, args.threads.is_none(), &progress);
    let manifest = write_tables(args, encoded, &progress, out)?;
    if args.score_distribution {
        write_score_distributions(args, games, &rules, &progress, out)?;
        for rule_set in &usage.rule_sets {
            write_rule_set_distribution(args, &rule_set.name, &progress, out)?;
        }
    }
    if let Some(file) = &args.manifest {
        let name = file.file_name().expect("checked up front").to_string_lossy();
        dice_tables_generator::artifact::write_atomically(manifest_dir(file), &name, manifest.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    Ok(())
}

/// The rules the flags set, over every game's defaults.
fn rules_of(args: &Args) -> Rules {
    let mut rules = Rules::default();
    rules.yazy.rerolls = args.yazy_rerolls.unwrap_or(rules.yazy.rerolls);
    rules.combo.rerolls = args.combo_rerolls.unwrap_or(rules.combo.rerolls);
    rules.duel = dice_tables_generator::DuelOverrides { entry: args.duel_entry, goal: args.duel_goal };
    rules.target_open = args.target_open;
    for maxi in [&mut rules.maxi, &mut rules.maxi_swedish] {
        if let Some((at, points)) = args.maxi_bonus {
            (maxi.bonus_at, maxi.bonus) = (at, points);
        }
        if let Some(saved) = args.saved_rolls {
            maxi.saved_rolls = saved;
        }
    }
    if let Some(universe) = args.yazy_duel_categories {
        rules.yazy_duel_universe = universe;
    }
    rules
}

/// Solves `games` in order, each table compressed as soon as it is solved
/// (in the background where `background`), and returns them encoded.
fn solve_all(usage: &Usage, rules: &Rules, background: bool, progress: &Progress) -> Vec<Encoded> {
    let games = &usage.games[..];
    // Each table is compressed as soon as it is solved, in the background,
    // where the next solves leave a core idle; whatever the background has
    // not reached when the last solve ends is compressed then, in parallel.
    // Not with --threads: the operator's count is all that works at once.
    let mut background = Background::start(background);
    for &game in games {
        let counts = dice_tables_generator::solver(game).map_or("", |s| s.counts);
        let started = std::time::Instant::now();
        let solved = solve(game, rules, |done, total| {
            progress.show_part(&solving_line(game, counts, (done, total), started.elapsed()), (done, total))
        })
        .expect("SOLVERS lists only known games");
        background.push(solved);
    }
    // Each rule set solved once, for its own table, its target table, its parts or all.
    let mut each: Vec<&dice_tables_reader::rules::RuleSet> = Vec::new();
    for rule_set in usage.rule_sets.iter().chain(&usage.rule_targets).chain(&usage.rule_parts) {
        if !each.contains(&rule_set) {
            each.push(rule_set);
        }
    }
    for rule_set in each {
        progress.show(&format!("solving {}", rule_set.name));
        let started = std::time::Instant::now();
        let solution =
            dice_tables_generator::rule_engine::solve(rule_set).expect("rule sets are checked before any work");
        let solve_time = started.elapsed();
        let mut solved = dice_tables_generator::rule_engine::table(&solution);
        solved.solve_time = solve_time;
        if usage.rule_sets.contains(rule_set) {
            background.push(solved);
        }
        if usage.rule_parts.contains(rule_set) {
            progress.show(&format!("solving {} box by box", rule_set.name));
            let started = std::time::Instant::now();
            let mut parts = dice_tables_generator::rule_engine::parts::table(&solution)
                .expect("rules whose parts are not solved are refused before any work");
            parts.solve_time = started.elapsed();
            background.push(parts);
        }
        if usage.rule_targets.contains(rule_set) {
            let most_open = rules.target_open.map_or(usize::MAX, usize::from);
            progress.show(&format!("solving {} played to reach a target", rule_set.name));
            let started = std::time::Instant::now();
            let mut target = rule_set_target(&solution, most_open);
            target.solve_time = started.elapsed();
            background.push(target);
        }
    }
    for rule_set in &usage.rule_duels {
        let started = std::time::Instant::now();
        let game = dice_tables_reader::rule_sheet::duel_stem(&rule_set.name);
        let mut solved = dice_tables_generator::rule_engine::duel::table(rule_set, &mut |done, total| {
            progress.show_part(&solving_line(&game, "leads", (done, total), started.elapsed()), (done, total))
        })
        .expect("two-player games are checked before any work");
        solved.solve_time = started.elapsed();
        background.push(solved);
    }
    let targets = usage.rule_targets.iter().map(|r| dice_tables_reader::rule_sheet::target_stem(&r.name));
    let duels = usage.rule_duels.iter().map(|r| dice_tables_reader::rule_sheet::duel_stem(&r.name));
    let parts = usage.rule_parts.iter().map(|r| dice_tables_reader::rule_sheet::parts_stem(&r.name));
    let rule_tables: Vec<String> =
        usage.rule_sets.iter().map(|r| r.name.clone()).chain(parts).chain(targets).chain(duels).collect();
    let names: Vec<&str> = games.iter().copied().chain(rule_tables.iter().map(String::as_str)).collect();
    progress.show(&format!("compressing {}", names.join(", ")));
    background.finish()
}

/// The target table of a solved rule set, its distributions under the
/// play of the rule set's own table (read back from its bytes, so that
/// they follow the decisions its lookups make).
fn rule_set_target(
    solution: &dice_tables_generator::rule_engine::Solution,
    most_open: usize,
) -> dice_tables_generator::Solved {
    use dice_tables_generator::rule_engine::{table, target};
    use dice_tables_reader::Game;
    let bytes = table(solution).encode();
    let sheet = dice_tables_reader::rule_sheet::RuleSheet::from_vec(bytes).expect("a table just written reads");
    let reach = target::solve(&solution.rules, most_open).expect("rule sets are checked before any work");
    target::table(&reach, &sheet, most_open).expect("a table just written answers every turn start")
}

/// Writes each table into `args.out` and reports it; returns the manifest's lines.
fn write_tables(args: &Args, encoded: Vec<Encoded>, progress: &Progress, out: &mut Output) -> Result<String, String> {
    let mut manifest = String::new();
    for Encoded { report, file } in encoded {
        let Report { game, states, solve_ms, prove_ms, figures, figures_ms } = report;
        let name = dice_tables_reader::file_name(&game);
        progress.show(&format!("writing {name}"));
        let len = file.len();
        let mut hashing = std::io::BufReader::with_capacity(1 << 20, Hashing { file, hasher: blake3::Hasher::new() });
        let path = dice_tables_generator::artifact::write_atomically(&args.out, &name, &mut hashing)
            .map_err(|e| format!("cannot write {}: {e}", args.out.join(&name).display()))?;
        progress.show("");
        let hash = hashing.get_ref().hasher.finalize().to_hex();
        manifest.push_str(&format!("{hash}  {name}\n"));
        out.print(&if args.json {
            let mut figures: String = figures.iter().map(|f| format!(",\"{}\":{}", f.key, f.value)).collect();
            if figures_ms > 0.0 {
                figures.push_str(&format!(",\"figures_ms\":{figures_ms:.3}"));
            }
            format!(
                "{{\"game\":\"{game}\",\"states\":{states},\"solve_ms\":{solve_ms:.3},\"prove_ms\":{prove_ms:.3},\"bytes\":{},\"blake3\":\"{hash}\",\"path\":{}{figures}}}\n",
                len,
                json_string(&path.display().to_string())
            )
        } else {
            let proved = if prove_ms > 0.0 { format!(", decisions proved in {prove_ms:.1} ms") } else { String::new() };
            let mut figures: String =
                figures.iter().filter(|f| !f.text.is_empty()).map(|f| format!("; {}", f.text)).collect();
            if game.ends_with("-target") {
                if let Some(mb) = peak_memory_mb() {
                    figures.push_str(&format!("; peak memory so far {mb} MB"));
                }
            }
            if figures_ms > 0.0 {
                figures.push_str(&format!(" (derived in {figures_ms:.1} ms)"));
            }
            format!(
                "{game}: {states} states solved in {solve_ms:.1} ms{proved}{figures}; wrote {} ({} bytes, blake3 {hash})\n",
                path.display(),
                len
            )
        });
    }
    Ok(manifest)
}

/// A table file as it is written, hashed on the way (the file's blake3
/// for the manifest, without a copy of the file).
struct Hashing {
    file: TableFile,
    hasher: blake3::Hasher,
}

impl std::io::Read for Hashing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

/// The exact score distributions of the Maxi Yatzy tables among `games`,
/// each written as OUT/ID-scores.csv and reported.
fn write_score_distributions(
    args: &Args,
    games: &[&str],
    rules: &Rules,
    progress: &Progress,
    out: &mut Output,
) -> Result<(), String> {
    for &game in games.iter().filter(|g| [MAXI, MAXI_SWEDISH].contains(*g)) {
        let maxi = if game == MAXI { rules.maxi } else { rules.maxi_swedish };
        let d = dice_tables_generator::maxi::distribution::score_distribution(
            maxi,
            dice_tables_reader::maxi::ALL,
            0.0,
            |open, boxes, held| {
                progress.show(&format!("{game} score distribution: {open} of {boxes} boxes open, {held} scores"))
            },
        );
        progress.show("");
        let name = format!("{game}-scores.csv");
        let path = dice_tables_generator::artifact::write_atomically(&args.out, &name, d.csv().as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", args.out.join(&name).display()))?;
        out.print(&if args.json {
            let p: Vec<String> = d.p.iter().map(|p| format!("{p:e}")).collect();
            format!(
                "{{\"game\":\"{game}\",\"score_distribution\":[{}],\"mean\":{},\"start_value\":{},\"path\":{}}}\n",
                p.join(","),
                d.mean(),
                d.start_value,
                json_string(&path.display().to_string())
            )
        } else {
            let lines: Vec<String> = d.summary().iter().map(|l| format!("  {l}\n")).collect();
            format!("{game} score distribution:\n{}  wrote {}\n", lines.concat(), path.display())
        });
    }
    Ok(())
}

/// The exact score distribution of the rule set `name`'s table just
/// written, as OUT/NAME-scores.csv, and its figures reported.
fn write_rule_set_distribution(args: &Args, name: &str, progress: &Progress, out: &mut Output) -> Result<(), String> {
    use dice_tables_reader::Game;
    progress.show(&format!("{name} score distribution"));
    let path = args.out.join(dice_tables_reader::file_name(name));
    let sheet = dice_tables_reader::rule_sheet::RuleSheet::open(&path).map_err(|e| e.to_string())?;
    let d = dice_tables_generator::rule_engine::distribution::score_distribution(&sheet).map_err(|e| e.to_string())?;
    progress.show("");
    let csv_name = format!("{name}-scores.csv");
    let csv = dice_tables_generator::artifact::write_atomically(&args.out, &csv_name, d.scores.csv().as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.join(&csv_name).display()))?;
    let s = &d.scores;
    out.print(&if args.json {
        let bonus = d.bonus_chance.map_or(String::new(), |b| format!(",\"bonus_chance\":{b}"));
        format!(
            "{{\"game\":\"{name}\",\"mean\":{},\"start_value\":{},\"median\":{},\"sd\":{}{bonus},\"path\":{}}}\n",
            s.mean(),
            s.start_value,
            s.quantile(0.5),
            s.sd(),
            json_string(&csv.display().to_string())
        )
    } else {
        let bonus =
            d.bonus_chance.map_or(String::new(), |b| format!("  upper bonus paid in {:.4} % of games\n", 100.0 * b));
        let lines: Vec<String> = s.summary().iter().filter(|l| !l.is_empty()).map(|l| format!("  {l}\n")).collect();
        format!("{name} score distribution:\n{}{bonus}  wrote {}\n", lines.concat(), csv.display())
    });
    Ok(())
}

/// A solved table, encoded, with what the report says of it.
struct Encoded {
    report: Report,
    file: TableFile,
}

/// What the report says of a solved table.
struct Report {
    /// The table's name (its file's, the game id but for a rule set's).
    game: String,
    states: u64,
    solve_ms: f64,
    prove_ms: f64,
    figures: Vec<dice_tables_generator::Figure>,
    figures_ms: f64,
}

/// The background compressor: one thread at the lowest priority, so that
/// it runs where the solves leave a core idle and never slows them (on
/// Linux, where a thread's priority is its own; elsewhere at the usual
/// one). It takes one chunk at a time; when the solves end, every chunk
/// not yet stored is compressed in parallel, the one in its hands too: on a
/// busy machine a thread at the lowest priority may wait long for a core,
/// so the run never waits for it (what it stores after that is dropped).
struct Background {
    shared: Arc<(Mutex<Queue>, Condvar)>,
    /// Each table pushed, in order, with its bytes still to come.
    reports: Vec<Report>,
}

/// The tables being encoded, their chunks as stored so far, and the chunks
/// not yet taken: (table, chunk).
#[derive(Default)]
struct Queue {
    tables: Vec<Arc<TableEncoder>>,
    stored: Vec<Vec<Option<Vec<u8>>>>,
    chunks: VecDeque<(usize, usize)>,
    closed: bool,
}

const QUEUE_LOCK: &str = "no thread panics holding the queue";

impl Background {
    /// The queue, and its thread if `enabled` (else every chunk waits for
    /// [`finish`](Background::finish)).
    fn start(enabled: bool) -> Background {
        let shared = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
        let worker = Arc::clone(&shared);
        if enabled {
            std::thread::spawn(move || {
                lowest_priority();
                let (queue, ready) = &*worker;
                loop {
                    let mut q = queue.lock().expect(QUEUE_LOCK);
                    while q.chunks.is_empty() && !q.closed {
                        q = ready.wait(q).expect(QUEUE_LOCK);
                    }
                    let Some((table, chunk)) = q.chunks.pop_front() else { return };
                    let encoder = Arc::clone(&q.tables[table]);
                    drop(q);
                    let bytes = encoder.store(chunk);
                    let mut q = queue.lock().expect(QUEUE_LOCK);
                    if !q.closed {
                        q.stored[table][chunk] = Some(bytes);
                    }
                }
            });
        }
        Background { shared, reports: Vec::new() }
    }

    fn push(&mut self, solved: Solved) {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        self.reports.push(Report {
            game: solved.table.clone(),
            states: solved.states,
            solve_ms: ms(solved.solve_time),
            prove_ms: ms(solved.prove_time),
            figures: solved.figures.clone(),
            figures_ms: ms(solved.figures_time),
        });
        let encoder = solved.encoder();
        let (queue, ready) = &*self.shared;
        let mut q = queue.lock().expect(QUEUE_LOCK);
        let table = q.tables.len();
        q.chunks.extend((0..encoder.chunks()).map(|chunk| (table, chunk)));
        q.stored.push(vec![None; encoder.chunks()]);
        q.tables.push(Arc::new(encoder));
        drop(q);
        ready.notify_one();
    }

    /// Every table pushed, encoded, in order.
    fn finish(self) -> Vec<Encoded> {
        let (queue, ready) = &*self.shared;
        let (tables, mut stored) = {
            let mut q = queue.lock().expect(QUEUE_LOCK);
            q.closed = true;
            q.chunks.clear();
            (q.tables.clone(), std::mem::take(&mut q.stored))
        };
        ready.notify_one();
        let missing: Vec<(usize, usize)> = (stored.iter().enumerate())
            .flat_map(|(table, chunks)| (0..chunks.len()).filter(|&c| chunks[c].is_none()).map(move |c| (table, c)))
            .collect();
        let compressed: Vec<Vec<u8>> = missing.par_iter().map(|&(table, chunk)| tables[table].store(chunk)).collect();
        for ((table, chunk), bytes) in missing.into_iter().zip(compressed) {
            stored[table][chunk] = Some(bytes);
        }
        self.reports
            .into_iter()
            .zip(tables.iter().zip(stored))
            .map(|(report, (encoder, chunks))| {
                let chunks: Vec<Vec<u8>> = chunks.into_iter().map(|c| c.expect("every chunk stored")).collect();
                Encoded { report, file: encoder.finish(chunks) }
            })
            .collect()
    }
}

/// Lowers the calling thread to the lowest priority (nice 19): on Linux
/// each thread has its own; elsewhere this would lower the whole process,
/// so it does nothing.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority reads no memory of ours; on Linux, `who` 0 with
    // PRIO_PROCESS is the calling thread. Failing leaves the priority as it was.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// The process's peak resident memory so far, in MB (Linux; `None` elsewhere).
fn peak_memory_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// What a solve has done, in what its solver counts, with an estimate of
/// the time left from the pace so far (once there is a pace to go by).
fn solving_line(game: &str, counts: &str, (done, total): (usize, usize), elapsed: std::time::Duration) -> String {
    if counts.is_empty() || total == 0 {
        return format!("solving {game}");
    }
    let percent = 100 * done / total;
    let mut line = format!("solving {game}: {done} of {total} {counts} ({percent}%)");
    let seconds = elapsed.as_secs_f64();
    if done > 0 && done < total && seconds >= 2.0 {
        let left = (seconds * (total - done) as f64 / done as f64).round() as u64;
        line.push_str(&match left {
            0..=89 => format!(", about {left} s left"),
            _ => format!(", about {} min left", (left + 30) / 60),
        });
    }
    line
}

/// Progress on standard error: on a terminal one line, rewritten in place;
/// elsewhere (a build server's log) a line every so often, so that a long
/// solve shows it is alive; with --json on a terminal, none.
enum Progress {
    Line,
    Every { interval: std::time::Duration, last: Mutex<std::time::Instant> },
    Off,
}

impl Progress {
    fn new(json: bool, every_seconds: f64) -> Progress {
        match (std::io::stderr().is_terminal(), json) {
            (true, false) => Progress::Line,
            (true, true) => Progress::Off,
            (false, _) => Progress::Every {
                interval: std::time::Duration::from_secs_f64(every_seconds),
                last: Mutex::new(std::time::Instant::now()),
            },
        }
    }

    fn show(&self, what: &str) {
        self.show_part(what, (0, 0));
    }

    /// `what`, with a bar of `done` of `total` on a terminal (none when
    /// `total` is 0).
    fn show_part(&self, what: &str, (done, total): (usize, usize)) {
        use std::io::Write;
        match self {
            Progress::Line => {
                const WIDTH: usize = 20;
                let bar = match total {
                    0 => String::new(),
                    _ => {
                        let filled = WIDTH * done.min(total) / total;
                        format!("[{}{}] ", "#".repeat(filled), "-".repeat(WIDTH - filled))
                    }
                };
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[K{bar}{what}");
                let _ = err.flush();
            }
            Progress::Every { interval, last } if !what.is_empty() => {
                let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
                if last.elapsed() >= *interval {
                    *last = std::time::Instant::now();
                    let _ = writeln!(std::io::stderr().lock(), "generator: {what}");
                }
            }
            _ => {}
        }
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::solving_line;
    use std::time::Duration;

    #[test]
    fn a_solving_line_says_what_it_counts_and_the_time_left_at_the_pace_so_far() {
        let line = |done, elapsed| solving_line("yatzy", "sheets", (done, 100), Duration::from_secs(elapsed));
        assert_eq!(line(25, 10), "solving yatzy: 25 of 100 sheets (25%), about 30 s left");
        assert_eq!(line(10, 30), "solving yatzy: 10 of 100 sheets (10%), about 5 min left");
        // No pace yet, or nothing left: no estimate.
        assert_eq!(line(0, 30), "solving yatzy: 0 of 100 sheets (0%)");
        assert_eq!(line(25, 1), "solving yatzy: 25 of 100 sheets (25%)");
        assert_eq!(line(100, 30), "solving yatzy: 100 of 100 sheets (100%)");
        assert_eq!(solving_line("combo", "", (0, 1), Duration::from_secs(5)), "solving combo");
    }
}
