//! `reader`: look up dice-tables from the command line.
//!
//! Exit status: 0 ok, 1 a bad or missing table, 2 bad usage.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use dice_tables_reader::cli::{
    parse_after, parse_five_dice, parse_mask, parse_points, parse_record, parse_remaining, parse_rerolls, parse_score,
    parse_tenk_remaining, parse_tenk_throw, parse_throw,
};
use dice_tables_reader::combo::Combo;
use dice_tables_reader::format::{self, Header};
use dice_tables_reader::tenk::{Phase, Tenk, TenkOption, Then};
use dice_tables_reader::threes::{Model, Options, Situation, Threes, Ties};
use dice_tables_reader::yazy::{Action, Mask, Yazy};
use dice_tables_reader::{file_name, Dice, Error, Table, GAMES};

/// Look up exact optimal-strategy tables for dice games.
#[derive(Parser, Debug)]
#[command(name = "reader", version, about, after_help = "Exit status: 0 ok, 1 a bad or missing table, 2 bad usage.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Look up a state of a game.
    Lookup {
        #[command(subcommand)]
        game: Game,
    },
    /// Print a table file's header and sections.
    Info {
        /// The table file.
        file: PathBuf,
    },
    /// Check every checksum of a table file, or of every table in a directory
    /// (default: --tables resolution, `$DICE_TABLES`, else ./tables).
    Verify {
        /// A table file or a directory of them.
        path: Option<PathBuf>,
    },
}

#[derive(Args, Debug)]
struct Common {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Directory holding the tables (default: `$DICE_TABLES`, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Game {
    /// combo: the expected final score and best keep of a roll, or the value before the first roll.
    Combo {
        #[command(flatten)]
        roll: Roll,
        #[command(flatten)]
        common: Common,
    },
    /// 10000 (alias `10000`): expected banked points, or the chance of reaching 1000 with --opening.
    #[command(alias = "10000", group(ArgGroup::new("throw").required(true).args(["dice", "remaining"])))]
    Tenk {
        /// The 1-6 dice just thrown, digits 1-6.
        #[arg(long, value_name = "D", value_parser = parse_tenk_throw, allow_hyphen_values = true)]
        dice: Option<Dice>,
        /// Dice about to be thrown, 1..6.
        #[arg(long, value_name = "N", value_parser = parse_tenk_remaining, allow_hyphen_values = true)]
        remaining: Option<u8>,
        /// The turn score so far (before this throw), a multiple of 50.
        #[arg(long, value_name = "S", value_parser = parse_score, allow_hyphen_values = true)]
        score: u32,
        /// Not yet on the board: maximise the chance of reaching 1000 this turn.
        #[arg(long)]
        opening: bool,
        #[command(flatten)]
        common: Common,
    },
    /// threes: the chance of success (or expected total) of a state, or the choices of a roll.
    #[command(group(ArgGroup::new("throw").required(true).args(["dice", "remaining"])))]
    Threes {
        /// The 1-5 dice just rolled, digits 1-6 (a 3 is worth 0).
        #[arg(long, value_name = "D", value_parser = parse_throw, allow_hyphen_values = true)]
        dice: Option<Dice>,
        /// Dice still to throw, 0..5 (0: the turn is over; the chance that --points survives).
        #[arg(long, value_name = "N", value_parser = parse_remaining, allow_hyphen_values = true)]
        remaining: Option<u8>,
        /// Points kept so far, 0..30.
        #[arg(long, value_name = "S", default_value = "0", value_parser = parse_points, allow_hyphen_values = true)]
        points: u8,
        /// The lowest total of the players before, 0..30 (default: none, the first player).
        #[arg(long, value_name = "R", value_parser = parse_record, allow_hyphen_values = true)]
        record: Option<u8>,
        /// Players still to play after this one, 0..15 (default 0).
        #[arg(long, value_name = "K", value_parser = parse_after, allow_hyphen_values = true)]
        after: Option<u8>,
        /// How ties count (default win).
        #[arg(long, value_enum)]
        ties: Option<TiesArg>,
        /// How the later players play (default sequential).
        #[arg(long, value_enum)]
        model: Option<ModelArg>,
        /// What to optimise: the chance of success, or the expected total.
        #[arg(long, value_enum, default_value = "win")]
        objective: Objective,
        #[command(flatten)]
        common: Common,
    },
    /// yazy: the value and best action of a state, or the turn-start value of a mask.
    Yazy {
        /// Open categories: a number 0..2047 (decimal, 0x.., 0b..; bit i = category i)
        /// or a comma list of names (ones,twos,threes,fours,fives,sixes,three-kind,
        /// four-kind,full-house,straight,yazy), or `all`.
        #[arg(long, value_name = "M", value_parser = parse_mask, allow_hyphen_values = true)]
        mask: Mask,
        #[command(flatten)]
        roll: Roll,
        #[command(flatten)]
        common: Common,
    },
}

/// The dice showing and the rerolls left, in the games that roll five dice.
#[derive(Args, Debug)]
struct Roll {
    /// The five dice showing, digits 1-6 in any order (without it: the value
    /// before the roll: the turn start in yazy, the game start in combo).
    #[arg(long, value_name = "D", value_parser = parse_five_dice, allow_hyphen_values = true)]
    dice: Option<Dice>,
    /// Rerolls left: 0..2 for yazy, 0..5 for combo with the default rules (default: all of them).
    #[arg(long, value_name = "R", requires = "dice", value_parser = parse_rerolls, allow_hyphen_values = true)]
    rerolls: Option<u8>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TiesArg {
    Win,
    Lose,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ModelArg {
    Independent,
    Sequential,
}

#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
enum Objective {
    Win,
    Expected,
}

/// What went wrong, with the exit status it maps to.
enum Failure {
    /// Bad usage: exit 2.
    Usage(String),
    /// A bad or missing table: exit 1.
    Table(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        if e.is_table_error() {
            Failure::Table(e.to_string())
        } else {
            Failure::Usage(e.to_string())
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    let result = match cli.command {
        Command::Lookup { game } => lookup(game),
        Command::Info { file } => info(&file),
        Command::Verify { path } => verify(path),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(Failure::Usage(msg)) => {
            eprintln!("reader: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Table(msg)) => {
            eprintln!("reader: {msg}");
            ExitCode::from(1)
        }
    }
}

/// clap's errors as one line (help and version print as usual).
fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
        _ => {}
    }
    let mut line = dice_tables_reader::cli::one_line(&e);
    if e.kind() == ErrorKind::InvalidSubcommand && e.to_string().contains("lookup") {
        line = format!("{line}; the games are {}", GAMES.join(", "));
    }
    eprintln!("reader: {line} (see reader --help)");
    ExitCode::from(2)
}

/// `--tables DIR`, else `$DICE_TABLES`, else `./tables`; it must exist.
fn tables_dir(flag: Option<PathBuf>) -> Result<PathBuf, Failure> {
    let (dir, source) = match (flag, std::env::var_os("DICE_TABLES")) {
        (Some(d), _) => (d, "--tables"),
        (None, Some(d)) if !d.is_empty() => (PathBuf::from(d), "$DICE_TABLES"),
        _ => (PathBuf::from("tables"), "the default ./tables"),
    };
    if !dir.is_dir() {
        return Err(Failure::Usage(format!(
            "table directory {} (from {source}) does not exist: pass --tables DIR or set DICE_TABLES to the directory `make tables` wrote",
            dir.display()
        )));
    }
    Ok(dir)
}

fn lookup(game: Game) -> Result<String, Failure> {
    match game {
        Game::Combo { roll: Roll { dice, rerolls }, common } => {
            let dir = tables_dir(common.tables)?;
            let combo = Combo::open(dir.join(file_name("combo")))?;
            match dice {
                None if common.json => {
                    Ok(format!("{{\"game\":\"combo\",\"ev\":{}}}\n", json_number(combo.game_start_value())))
                }
                None => Ok(format!(
                    "combo, {} rerolls\nexpected final score, before the first roll: {:.6}\n",
                    combo.rerolls(),
                    combo.game_start_value()
                )),
                Some(dice) => combo_state(&combo, dice, rerolls.unwrap_or(combo.rerolls()), common.json),
            }
        }
        Game::Tenk { dice, remaining, score, opening, common } => {
            let dir = tables_dir(common.tables)?;
            let tenk = Tenk::open(dir.join(file_name("tenk")))?;
            let phase = if opening { Phase::Opening } else { Phase::OnBoard };
            tenk_lookup(&tenk, dice, remaining, score, phase, common.json)
        }
        Game::Threes { dice, remaining, points, record, after, ties, model, objective, common } => {
            if objective == Objective::Expected {
                let given = [
                    ("--record", record.is_some()),
                    ("--after", after.is_some()),
                    ("--ties", ties.is_some()),
                    ("--model", model.is_some()),
                ];
                if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
                    return Err(Failure::Usage(format!(
                        "{flag} has no meaning with --objective expected (the lowest expected total ignores other players); drop it or use --objective win"
                    )));
                }
            }
            let dir = tables_dir(common.tables)?;
            let table = Threes::open(dir.join(file_name("threes")))?;
            let situation = Situation {
                ties: match ties.unwrap_or(TiesArg::Win) {
                    TiesArg::Win => Ties::Win,
                    TiesArg::Lose => Ties::Lose,
                },
                model: match model.unwrap_or(ModelArg::Sequential) {
                    ModelArg::Independent => Model::Independent,
                    ModelArg::Sequential => Model::Sequential,
                },
                record,
                points,
                after: after.unwrap_or(0),
            };
            threes_lookup(&table, situation, dice, remaining, objective, common.json)
        }
        Game::Yazy { mask, roll: Roll { dice, rerolls }, common } => {
            let dir = tables_dir(common.tables)?;
            let yazy = Yazy::open(dir.join(file_name("yazy")))?;
            match dice {
                None => Ok(yazy_turn_start(&yazy, mask, common.json)),
                Some(dice) => {
                    let rerolls = rerolls.unwrap_or(yazy.rerolls());
                    yazy_state(&yazy, mask, dice, rerolls, common.json)
                }
            }
        }
    }
}

fn yazy_turn_start(yazy: &Yazy, mask: Mask, json: bool) -> String {
    let ev = yazy.turn_start_value(mask);
    if json {
        format!("{{\"game\":\"yazy\",\"ev\":{}}}\n", json_number(ev))
    } else {
        format!(
            "yazy, open: {mask} (mask {})\nexpected score still to come, before this turn's roll: {ev:.7}\n",
            mask.bits()
        )
    }
}

fn action_json(a: &Action) -> String {
    match a {
        Action::Keep(d) => format!("{{\"keep\":\"{d}\"}}"),
        Action::Score(c) => format!("{{\"category\":\"{c}\"}}"),
    }
}

fn action_text(a: &Action, points: u8) -> String {
    match a {
        Action::Keep(d) if d.len() == 5 => format!("keep {d} (stop rerolling)"),
        Action::Keep(d) if d.is_empty() => "reroll all five".to_string(),
        Action::Keep(d) => format!("keep {d}, reroll {}", 5 - d.len()),
        Action::Score(c) => format!("score {c} for {points} points"),
    }
}

fn yazy_state(yazy: &Yazy, mask: Mask, dice: Dice, rerolls: u8, json: bool) -> Result<String, Failure> {
    let ev = yazy.value(mask, dice, rerolls)?;
    let best = yazy.best_action(mask, dice, rerolls)?;
    let choices = yazy.choices(mask, dice, rerolls)?;
    let mut out = String::new();
    if json {
        let best = best.as_ref().map_or("null".to_string(), action_json);
        let options: Vec<String> = choices
            .as_slice()
            .map(|c| format!("{{\"action\":{},\"ev\":{}}}", action_json(&c.action), json_number(c.ev)))
            .collect();
        let _ = writeln!(
            out,
            "{{\"game\":\"yazy\",\"ev\":{},\"best\":{best},\"options\":[{}]}}",
            json_number(ev),
            options.join(",")
        );
        return Ok(out);
    }
    let _ = writeln!(out, "yazy, open: {mask} (mask {})", mask.bits());
    let _ = writeln!(out, "dice {dice}, {rerolls} reroll{} left", if rerolls == 1 { "" } else { "s" });
    let _ = writeln!(out, "expected score still to come: {ev:.6}");
    match &best {
        None => {
            let _ = writeln!(out, "no category is open: the game is over");
        }
        Some(b) => {
            let points = match b {
                Action::Score(c) => yazy.points(dice, *c),
                Action::Keep(_) => 0,
            };
            let _ = writeln!(out, "best: {}", action_text(b, points));
            let _ = writeln!(out, "actions, best first (expected score still to come):");
            for (i, c) in choices.as_slice().enumerate() {
                let _ = writeln!(out, "{:>3}. {:<34} {:>11.6}", i + 1, action_text(&c.action, c.points), c.ev);
            }
        }
    }
    Ok(out)
}

fn combo_state(combo: &Combo, dice: Dice, rerolls: u8, json: bool) -> Result<String, Failure> {
    let ev = combo.value(dice, rerolls)?;
    let best = combo.best_keep(dice, rerolls)?;
    let choices = combo.choices(dice, rerolls)?;
    let mut out = String::new();
    if json {
        let options: Vec<String> = choices
            .iter()
            .map(|c| format!("{{\"action\":{},\"ev\":{}}}", action_json(&Action::Keep(c.keep)), json_number(c.ev)))
            .collect();
        let _ = writeln!(
            out,
            "{{\"game\":\"combo\",\"ev\":{},\"best\":{},\"options\":[{}]}}",
            json_number(ev),
            action_json(&Action::Keep(best)),
            options.join(",")
        );
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "combo, dice {dice} (scores {} now), {rerolls} reroll{} left",
        combo.final_score(dice)?,
        if rerolls == 1 { "" } else { "s" }
    );
    let _ = writeln!(out, "expected final score: {ev:.6}");
    let _ = writeln!(out, "best: {}", action_text(&Action::Keep(best), 0));
    let _ = writeln!(out, "keeps, best first (expected final score):");
    for (i, c) in choices.iter().enumerate() {
        let _ = writeln!(out, "{:>3}. {:<34} {:>11.6}", i + 1, action_text(&Action::Keep(c.keep), 0), c.ev);
    }
    Ok(out)
}

fn threes_lookup(
    table: &Threes,
    s: Situation,
    dice: Option<Dice>,
    remaining: Option<u8>,
    objective: Objective,
    json: bool,
) -> Result<String, Failure> {
    let expected = objective == Objective::Expected;
    let (key, value) = if expected { ("ev", "expected total") } else { ("p", "chance of success") };
    let options: Option<Options> = match dice {
        Some(d) if expected => Some(table.expected_options(s.points, d)?),
        Some(d) => Some(table.options(s, d)?),
        None => None,
    };
    let headline = match (&options, remaining) {
        (Some(o), _) => o.best().chance,
        (None, Some(n)) if expected => table.expected(s.points, n)?,
        (None, Some(n)) => table.chance(s, n)?,
        (None, None) => unreachable!("clap requires --dice or --remaining"),
    };
    let show = |v: f64| if expected { format!("{v:.6}") } else { percent(v) };
    let mut out = String::new();
    if json {
        let _ = write!(out, "{{\"game\":\"threes\",\"{key}\":{}", chance_json(headline));
        if let Some(o) = &options {
            let list: Vec<String> = o
                .all()
                .iter()
                .map(|k| format!("{{\"keep\":\"{}\",\"{key}\":{}}}", k.keep, chance_json(k.chance)))
                .collect();
            let _ = write!(out, ",\"best\":{{\"keep\":\"{}\"}},\"options\":[{}]", o.best().keep, list.join(","));
        }
        out.push_str("}\n");
        return Ok(out);
    }
    if expected {
        let _ = writeln!(out, "threes, lowest expected total: {} points kept", s.points);
    } else {
        let record = s.record.map_or("none".to_string(), |r| r.to_string());
        let ties = if s.ties == Ties::Win { "win" } else { "lose" };
        let model = if s.model == Model::Sequential { "sequential" } else { "independent" };
        let _ = writeln!(
            out,
            "threes: {} points kept, record {record}, {} player{} after, ties {ties}, {model} model",
            s.points,
            s.after,
            if s.after == 1 { "" } else { "s" }
        );
    }
    match &options {
        None => {
            let n = remaining.unwrap_or(0);
            let when = if n == 0 { "the turn is over".to_string() } else { format!("{n} dice to throw") };
            let _ = writeln!(out, "{when}: {value} {}", show(headline));
        }
        Some(o) => {
            let roll = o.all().last().map_or("", |k| k.keep.as_str());
            let _ = writeln!(out, "dice {roll} (lowest worth first), {value} with the best choice: {}", show(headline));
            let best = o.best();
            let _ = writeln!(out, "best: keep {}, {} points, {} dice left", best.keep, best.points, best.dice_left);
            let _ = writeln!(out, "choices ({value}):");
            for k in o.all() {
                let mark = if k == best { "  <- best" } else { "" };
                let _ = writeln!(
                    out,
                    "  keep {:<6} {:>2} points, {} dice left  {:>14}{mark}",
                    k.keep,
                    k.points,
                    k.dice_left,
                    show(k.chance)
                );
            }
        }
    }
    Ok(out)
}

fn tenk_lookup(
    tenk: &Tenk,
    dice: Option<Dice>,
    remaining: Option<u8>,
    score: u32,
    phase: Phase,
    json: bool,
) -> Result<String, Failure> {
    let opening = phase == Phase::Opening;
    let key = if opening { "p" } else { "ev" };
    let show = |v: f64| if opening { percent(v) } else { format!("{v:.4}") };
    let then = |t: Then| if t == Then::Bank { "bank" } else { "throw" };
    let mut out = String::new();
    let phase_text =
        if opening { "opening (chance of reaching 1000 this turn)" } else { "on the board (expected banked points)" };
    let Some(throw) = dice else {
        let n = remaining.unwrap_or(6);
        let (value, bank) = if opening {
            (tenk.reach(n, score)?, false)
        } else {
            (tenk.turn_value(n, score)?, tenk.should_bank(n, score)?)
        };
        if json {
            let _ = writeln!(out, "{{\"game\":\"tenk\",\"{key}\":{},\"bank\":{bank}}}", json_number(value));
        } else {
            let _ = writeln!(out, "10000, {phase_text}: throwing {n} dice at turn score {score}: {}", show(value));
            if opening {
                let _ = writeln!(out, "banking is not allowed below 1000");
            } else {
                let _ = writeln!(
                    out,
                    "{}: banking is worth {score}{}",
                    if bank { "bank" } else { "throw" },
                    tenk.bank_threshold(n).map_or(String::new(), |t| format!(" (with {n} dice, bank from {t})"))
                );
            }
        }
        return Ok(out);
    };
    let options = tenk.options(throw, score, phase)?;
    let option_json = |o: &TenkOption| {
        format!(
            "\"keep\":\"{}\",\"points\":{},\"dice_left\":{},\"then\":\"{}\"",
            o.keep,
            o.points,
            o.dice_left,
            then(o.then)
        )
    };
    match options.best() {
        None if json => {
            let _ = writeln!(out, "{{\"game\":\"tenk\",\"{key}\":0,\"bust\":true,\"options\":[]}}");
        }
        None => {
            let _ = writeln!(out, "10000, {phase_text}: throw {throw} at turn score {score}");
            let _ = writeln!(out, "bust: nothing scores, the turn score of {score} is lost");
        }
        Some(best) if json => {
            let list: Vec<String> = options
                .all()
                .iter()
                .map(|o| format!("{{{},\"{key}\":{}}}", option_json(o), json_number(o.value)))
                .collect();
            let _ = writeln!(
                out,
                "{{\"game\":\"tenk\",\"{key}\":{},\"best\":{{{}}},\"options\":[{}]}}",
                json_number(best.value),
                option_json(best),
                list.join(",")
            );
        }
        Some(best) => {
            let _ = writeln!(out, "10000, {phase_text}: throw {throw} at turn score {score}");
            let _ = writeln!(
                out,
                "best: keep {} for {} points, then {} ({} dice left): {}",
                best.keep,
                best.points,
                then(best.then),
                best.dice_left,
                show(best.value)
            );
            let _ = writeln!(out, "keeps:");
            for o in options.all() {
                let mark = if o == best { "  <- best" } else { "" };
                let _ = writeln!(
                    out,
                    "  keep {:<7} {:>5} points, {} dice left, then {:<5} {:>12}{mark}",
                    o.keep.to_string(),
                    o.points,
                    o.dice_left,
                    then(o.then),
                    show(o.value)
                );
            }
        }
    }
    Ok(out)
}

/// A chance or total for JSON: 10 significant digits (the table stores
/// chances as f32, about 7 digits from the nearer of 0 and 1).
fn chance_json(v: f64) -> String {
    let rounded: f64 = format!("{v:.9e}").parse().unwrap_or(v);
    json_number(rounded)
}

/// A chance as a percentage for people.
fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if pct != 0.0 && pct < 1e-4 {
        format!("{pct:.3e} %")
    } else {
        format!("{pct:.6} %")
    }
}

/// A finite f64 as JSON (Rust's shortest round-trip form is valid JSON).
fn json_number(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".to_string()
    }
}

fn info(file: &Path) -> Result<String, Failure> {
    let bytes = std::fs::read(file).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Failure::Usage(format!("no file {}: give the path of a table file, like tables/yazy.dtab", file.display()))
        } else {
            Failure::Table(format!("cannot read {}: {e}", file.display()))
        }
    })?;
    let header = format::parse_header(&bytes).map_err(|e| Failure::Table(format!("{}: {e}", file.display())))?;
    Ok(header_text(file, &header))
}

fn header_text(file: &Path, h: &Header) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "file:    {}", file.display());
    let _ = writeln!(out, "format:  dice-tables version {}", format::VERSION);
    let _ = writeln!(out, "game:    {}", h.game);
    let params: Vec<String> = h.params.iter().map(|p| format!("{}={}", p.name, p.value)).collect();
    let _ = writeln!(out, "rules:   {}", if params.is_empty() { "-".to_string() } else { params.join(" ") });
    let _ = writeln!(out, "length:  {} bytes", h.file_len);
    let _ = writeln!(out, "sections:");
    let _ = writeln!(
        out,
        "  {:<16} {:<5} {:<16} {:<13} {:>9} {:>9} {:>9}  blake3 (decoded)",
        "name", "type", "dims", "encoding", "offset", "stored", "decoded"
    );
    for s in &h.sections {
        let dims: Vec<String> = s.dims.iter().map(u64::to_string).collect();
        let hex: String = s.blake3.iter().map(|b| format!("{b:02x}")).collect();
        let _ = writeln!(
            out,
            "  {:<16} {:<5} {:<16} {:<13} {:>9} {:>9} {:>9}  {hex}",
            s.name,
            s.dtype.name(),
            dims.join("x"),
            s.encoding.name(),
            s.offset,
            s.stored_len,
            s.decoded_len().unwrap_or(0)
        );
    }
    out
}

fn verify(path: Option<PathBuf>) -> Result<String, Failure> {
    let path = match path {
        Some(p) => p,
        None => tables_dir(None)?,
    };
    let files: Vec<PathBuf> = if path.is_dir() {
        let entries =
            std::fs::read_dir(&path).map_err(|e| Failure::Table(format!("cannot list {}: {e}", path.display())))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "dtab"))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(Failure::Table(format!("no tables (*.dtab) in {}: run `make tables`", path.display())));
        }
        files
    } else if path.exists() {
        vec![path]
    } else {
        return Err(Failure::Usage(format!(
            "no file or directory {}: give a table file or a directory of them",
            path.display()
        )));
    };
    let mut out = String::new();
    let mut failed = 0;
    for file in &files {
        match Table::open(file) {
            Ok(t) => {
                let h = t.header();
                let params: Vec<String> = h.params.iter().map(|p| format!("{}={}", p.name, p.value)).collect();
                let _ =
                    writeln!(out, "ok      {} ({} {}, {} bytes)", file.display(), h.game, params.join(" "), h.file_len);
            }
            Err(e) => {
                failed += 1;
                let _ = writeln!(out, "FAILED  {}: {e}", file.display());
            }
        }
    }
    if failed > 0 {
        print!("{out}");
        return Err(Failure::Table(format!("{failed} of {} tables failed verification", files.len())));
    }
    Ok(out)
}
