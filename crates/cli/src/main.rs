//! `reader`: look up dice-tables from the command line.
//!
//! The games' lookups are built from the lookup layer's registry
//! (`lookup.rs`); this file holds the commands, `info` and `verify`.
//!
//! Exit status: 0 ok, 1 a bad or missing table, 2 bad usage, 3 the output
//! could not be written (a closed pipe is not an error).

mod curve;
mod directory;
mod lookup;
mod output;
mod review;
mod serve;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dice_tables_reader::format::{self, Header};

use dice_tables_terminal::{error_line, Output};
use directory::tables;
use output::Failure;

/// Look up exact optimal-strategy tables for dice games.
#[derive(Parser, Debug)]
#[command(
    name = "reader",
    version,
    about,
    after_help = "Exit status: 0 ok, 1 a bad or missing table, 2 bad usage, 3 the output could not be written."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Look up a state of a game.
    Lookup {
        #[command(subcommand)]
        game: lookup::GameArgs,
    },
    /// A whole game's score curve from its target table (yazy, yatzy, yahtzee):
    /// per total T, the best chance of scoring at least T (`p_best`) beside
    /// the chance max-expected-score play does (`p_ev`) and scores exactly T (`p_ev_exact`).
    Curve(curve::Curve),
    /// A game of a rule set, or of 10000, reviewed from its text (what the
    /// page writes): what the dice brought and what the decisions gave
    /// away, the accuracy and rating, and the largest mistakes.
    #[command(override_usage = "reader review [OPTIONS] [NAME] FILE")]
    Review(review::ReviewArgs),
    /// Print a table file's header and sections.
    Info {
        /// The table file.
        file: PathBuf,
    },
    /// Serve the lookups over HTTP (GET /v1/lookup/GAME?ARGS answers as
    /// `lookup GAME --ARGS --json`), with a web page at /.
    Serve(serve::Serve),
    /// Check every checksum and every stored value of a table file, or of
    /// every table in a directory (default: --tables DIR, else `$DICE_TABLES`,
    /// else ./tables).
    Verify {
        /// A table file or a directory of them.
        path: Option<PathBuf>,
        /// The directory of tables to check, as for lookup.
        #[arg(long, value_name = "DIR", conflicts_with = "path")]
        tables: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let args = match table_file_args(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(why) => {
            error_line("reader", &why);
            return ExitCode::from(2);
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    let mut out = Output::default();
    let status = match run(cli.command, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            error_line("reader", &msg);
            ExitCode::from(2)
        }
        Err(Failure::Table(msg)) => {
            error_line("reader", &msg);
            ExitCode::from(1)
        }
    };
    out.finish("reader", status)
}

fn run(command: Command, out: &mut Output) -> Result<(), Failure> {
    match command {
        Command::Lookup { game } => out.print(&lookup::run(&game)?),
        Command::Curve(c) => out.print(&curve::run(&c)?),
        Command::Review(r) => out.print(&review::run(&r)?),
        Command::Info { file } => out.print(&info(&file)?),
        Command::Verify { path, tables } => verify(path.or(tables), out)?,
        Command::Serve(s) => serve::run(&s)?,
    }
    Ok(())
}

/// `reader lookup --table DIR/NAME.dtab ARGS` as the lookup it is,
/// `reader lookup NAME --tables DIR ARGS`: a rule set's table is found by
/// its name in its directory. Other command lines are left as they are.
fn table_file_args(mut args: Vec<std::ffi::OsString>) -> Result<Vec<std::ffi::OsString>, String> {
    if args.get(1).is_none_or(|a| a != "lookup") {
        return Ok(args);
    }
    let path = match args.get(2).and_then(|a| a.to_str()) {
        Some("--table") if args.len() > 3 => PathBuf::from(args.remove(3)),
        Some(a) if a.starts_with("--table=") => PathBuf::from(&a["--table=".len()..]),
        Some("--table") => return Err("--table needs a table file: reader lookup --table DIR/NAME.dtab ...".into()),
        _ => return Ok(args),
    };
    let name = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".dtab"));
    let Some(name) = name.filter(|n| dice_tables_lookup::is_rule_set_name(n)) else {
        return Err(format!(
            "--table {}: give a rule set's table file, NAME.dtab (NAME the rule set's: a-z, 0-9 and -)",
            path.display()
        ));
    };
    // A rule set's target table (NAME-target.dtab) is asked by the rule
    // set's name with --need or --opp-mask: its header says which kind the
    // file is.
    let played_to_win = args.iter().filter_map(|a| a.to_str()).any(|a| {
        ["--need", "--opp-mask"]
            .iter()
            .any(|flag| a == *flag || a.strip_prefix(flag).is_some_and(|v| v.starts_with('=')))
    });
    let name = match name.strip_suffix("-target").filter(|_| is_rule_target(&path)) {
        Some(rule_set) if !played_to_win => {
            return Err(format!(
                "--table {}: this is rule set {rule_set}'s target table: give --need N (the points still to score) \
                 or --opp-mask O (an opponent's open boxes)",
                path.display()
            ))
        }
        Some(rule_set) => rule_set,
        None => name,
    };
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let tail = args.split_off(3);
    args.truncate(2);
    args.extend([name.into(), "--tables".into(), dir.as_os_str().to_owned()]);
    args.extend(tail);
    Ok(args)
}

/// Whether the file at `path` is a rule set's target table, by its header
/// (false when it cannot be read: the lookup then says why).
fn is_rule_target(path: &Path) -> bool {
    // SAFETY: as for `info`: the map lives only while the header is read.
    let table = unsafe { dice_tables_reader::Table::map(path) };
    table.is_ok_and(|t| t.header().game == dice_tables_reader::RULE_TARGETS.id)
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
    let mut line = dice_tables_terminal::one_line(&e);
    if e.kind() == ErrorKind::InvalidSubcommand && e.to_string().contains("lookup") {
        let names: Vec<&str> = dice_tables_lookup::LOOKUPS.iter().map(|l| l.game).collect();
        line = format!("{line}; the games are {} (duel-cardgames: duel --rules cardgames)", names.join(", "));
    }
    error_line("reader", &format!("{line} (see {} --help)", command_in_use()));
    ExitCode::from(2)
}

/// The (sub)command the arguments name, for the help hint: `reader lookup
/// yazy`, `reader verify`, or `reader`.
fn command_in_use() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut words = vec!["reader"];
    match args.first().map(String::as_str) {
        Some(c @ ("info" | "verify" | "serve")) => words.push(c),
        Some("lookup") => {
            words.push("lookup");
            let named = args.get(1).map(String::as_str);
            if let Some(g) = named.and_then(dice_tables_reader::game_named) {
                words.push(g.id);
            } else if let Some(rule_set) = named.filter(|n| dice_tables_lookup::is_rule_set_name(n)) {
                words.push(rule_set);
            }
        }
        _ => {}
    }
    words.join(" ")
}

/// A table file's header, read without decoding any section.
fn info(file: &Path) -> Result<String, Failure> {
    // SAFETY: as for `tables`: the file is replaced by renaming, never
    // changed in place, and the map lives only while the header is read.
    // Mapping reads only the header's pages of a file of up to 200 MB.
    let table = unsafe { dice_tables_reader::Table::map(file) }?;
    let mut text = header_text(file, table.header());
    // A rule set's table: the rules it was solved for, as it carries them.
    use dice_tables_reader::rule_sheet::RuleTable;
    if RuleTable::is_rule_table(table.header()) {
        let rules = RuleTable::from_table(table)?.board().rules().clone();
        let _ = write!(text, "rule set {}:\n{}", rules.name, rules.to_text());
    }
    Ok(text)
}

fn header_text(file: &Path, h: &Header) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "file:    {}", file.display());
    let _ = writeln!(out, "format:  dice-tables version {}", format::VERSION);
    let _ = writeln!(out, "game:    {}", h.game);
    let params = rules_text(h);
    let _ = writeln!(out, "rules:   {}", if params.is_empty() { "-".to_string() } else { params.join(" ") });
    let _ = writeln!(out, "length:  {} bytes", h.file_len);
    let _ = writeln!(out, "sections:");
    let _ = writeln!(
        out,
        "  {:<16} {:<5} {:<18} {:<8} {:>9} {:>9} {:>9}  chunks",
        "name", "type", "dims", "encoding", "offset", "stored", "decoded"
    );
    for s in &h.sections {
        let dims: Vec<String> = s.dims.iter().map(u64::to_string).collect();
        let chunks = match s.chunks.len() {
            0 => "none".to_string(),
            1 => "1".to_string(),
            n => format!("{n} of {} bytes", s.chunk_len),
        };
        let _ = writeln!(
            out,
            "  {:<16} {:<5} {:<18} {:<8} {:>9} {:>9} {:>9}  {chunks}",
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

/// A header's rules parameters as people read them: `joker=forced`, `rerolls=2`.
fn rules_text(h: &Header) -> Vec<String> {
    let game = dice_tables_reader::game_named(&h.game);
    let value = |name: &str, v: i64| game.map_or_else(|| v.to_string(), |g| g.param_text(name, v));
    h.params.iter().map(|p| format!("{}={}", p.name, value(&p.name, p.value))).collect()
}

/// Verifies a file, or every `*.dtab` in a directory, printing a line each.
fn verify(path: Option<PathBuf>, out: &mut Output) -> Result<(), Failure> {
    let path = match path {
        Some(p) => p,
        None => tables(None)?.dir().to_path_buf(),
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
    } else if std::fs::symlink_metadata(&path).is_ok() {
        vec![path]
    } else {
        return Err(Failure::Table(format!(
            "no file or directory {}: give a table file or a directory of them",
            path.display()
        )));
    };
    let mut failed = 0;
    for file in &files {
        match dice_tables_reader::verify(file) {
            Ok(h) => {
                let what = std::iter::once(h.game.clone()).chain(rules_text(&h)).collect::<Vec<_>>().join(" ");
                out.print(&format!("ok      {} ({what}, {} bytes)\n", file.display(), h.file_len));
            }
            Err(e) => {
                failed += 1;
                out.print(&format!("FAILED  {e}\n"));
            }
        }
    }
    if failed > 0 {
        return Err(Failure::Table(format!("{failed} of {} tables failed verification", files.len())));
    }
    Ok(())
}
