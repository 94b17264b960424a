//! `reader`: look up dice-tables from the command line.
//!
//! One module per game (its arguments and its rendering); this file holds
//! the commands, the registry of game subcommands, `info` and `verify`.
//!
//! Exit status: 0 ok, 1 a bad or missing table, 2 bad usage, 3 the output
//! could not be written (a closed pipe is not an error).

mod combo;
mod curve;
mod directory;
mod duel;
mod maxi;
mod output;
mod roll;
mod serve;
mod sheet;
mod tenk;
mod threes;
mod yazy;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use dice_tables_lookup::Query;
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
        game: Game,
    },
    /// A whole game's score curve from its target table (yazy, yatzy, yahtzee):
    /// per total T, the best chance of scoring at least T (`p_best`) beside
    /// the chance max-expected-score play does (`p_ev`) and scores exactly T (`p_ev_exact`).
    Curve(curve::Curve),
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

/// The game subcommands of `lookup`: one line each.
#[derive(Subcommand, Debug)]
enum Game {
    /// combo: the expected final score and best keep of a roll, or the value before the first roll.
    Combo(combo::Lookup),
    /// 10000 (alias `10000`): expected banked points, or the chance of reaching 1000 with --opening.
    #[command(aliases = <dice_tables_reader::tenk::Tenk as dice_tables_reader::Game>::ALIASES)]
    Tenk(tenk::Lookup),
    /// threes: the chance of success (or expected total) of a state, or the choices of a roll.
    Threes(threes::Lookup),
    /// yazy: the value and best action of a state, or the turn-start value of a mask.
    Yazy(yazy::Lookup),
    /// yatzy (Scandinavian): the options of a roll, or the turn-start value of a state.
    Yatzy(sheet::YatzyLookup),
    /// yahtzee (United States): the options of a roll, or the turn-start value of a state.
    Yahtzee(sheet::YahtzeeLookup),
    /// 10000 against an opponent (aliases `10000-duel`, `tenk2`; `duel-cardgames` is `duel --rules cardgames`): the chance of winning of a throw's keeps, of throwing or banking, or at a turn's start.
    #[command(aliases = <dice_tables_reader::duel::SeedDuel as dice_tables_reader::Game>::ALIASES)]
    Duel(duel::Lookup),
    /// Maxi Yatzy (six dice, twenty boxes; alias `maxi`; `maxi-yatzy-swedish` is `maxi-yatzy --rules swedish`): the options of a roll, or the turn-start value of a state.
    #[command(name = "maxi-yatzy", aliases = <dice_tables_reader::maxi::MaxiYatzy as dice_tables_reader::Game>::ALIASES)]
    MaxiYatzy(maxi::Lookup),
}

impl Game {
    fn lookup(&self) -> &dyn GameLookup {
        match self {
            Game::Combo(l) => l,
            Game::Tenk(l) => l,
            Game::Threes(l) => l,
            Game::Yazy(l) => l,
            Game::Yatzy(l) => l,
            Game::Yahtzee(l) => l,
            Game::Duel(l) => l,
            Game::MaxiYatzy(l) => l,
        }
    }
}

/// A game's `lookup` subcommand: its arguments, parsed into its query.
trait GameLookup {
    /// The options every lookup has.
    fn common(&self) -> &Common;
    /// The lookup as every front end asks it: its JSON answer is
    /// `--json`'s, its text answer the one printed without it.
    fn query(&self) -> Query;
}

/// The options every lookup has.
#[derive(Args, Debug)]
struct Common {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Directory holding the tables (default: `$DICE_TABLES`, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(arguments()) {
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
        Command::Lookup { game } => out.print(&lookup(game.lookup())?),
        Command::Curve(c) => out.print(&curve::run(&c)?),
        Command::Info { file } => out.print(&info(&file)?),
        Command::Verify { path, tables } => verify(path.or(tables), out)?,
        Command::Serve(s) => serve::run(&s)?,
    }
    Ok(())
}

/// The command line, with `lookup duel-cardgames ...` read as `lookup duel
/// --rules cardgames ...` (the table is `duel-cardgames.dtab`; `--rules`
/// given as well is refused by clap as given twice).
fn arguments() -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "lookup") && args.get(2).is_some_and(|a| a == "duel-cardgames") {
        args.splice(2..3, ["duel".into(), "--rules".into(), "cardgames".into()]);
    }
    if args.get(1).is_some_and(|a| a == "lookup") && args.get(2).is_some_and(|a| a == "maxi-yatzy-swedish") {
        args.splice(2..3, ["maxi-yatzy".into(), "--rules".into(), "swedish".into()]);
    }
    args
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
            if let Some(g) = args.get(1).and_then(|g| dice_tables_reader::game_named(g)) {
                words.push(g.id);
            }
        }
        _ => {}
    }
    words.join(" ")
}

/// The arguments checked (before any table is opened), then the answer as
/// JSON (the same as every front end's) or text.
fn lookup(game: &dyn GameLookup) -> Result<String, Failure> {
    let query = game.query();
    query.check()?;
    let tables = tables(game.common().tables.clone())?;
    if game.common().json {
        return Ok(format!("{}\n", query.answer(&tables)?));
    }
    Ok(query.text(&tables)?)
}

/// A table file's header, read without decoding any section.
fn info(file: &Path) -> Result<String, Failure> {
    // SAFETY: as for `tables`: the file is replaced by renaming, never
    // changed in place, and the map lives only while the header is read.
    // Mapping reads only the header's pages of a file of up to 200 MB.
    let table = unsafe { dice_tables_reader::Table::map(file) }?;
    Ok(header_text(file, table.header()))
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
