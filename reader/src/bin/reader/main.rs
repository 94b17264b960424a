//! `reader`: look up dice-tables from the command line.
//!
//! One module per game (its arguments and its rendering); this file holds
//! the commands, the registry of game subcommands, `info` and `verify`.
//!
//! Exit status: 0 ok, 1 a bad or missing table, 2 bad usage.

mod args;
mod combo;
mod one_line;
mod output;
mod roll;
mod tenk;
mod threes;
mod yazy;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use dice_tables_reader::format::{self, Header};
use dice_tables_reader::{Tables, GAMES};

use output::Failure;

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
    /// (default: `$DICE_TABLES`, else ./tables).
    Verify {
        /// A table file or a directory of them.
        path: Option<PathBuf>,
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
}

impl Game {
    fn lookup(&self) -> &dyn GameLookup {
        match self {
            Game::Combo(l) => l,
            Game::Tenk(l) => l,
            Game::Threes(l) => l,
            Game::Yazy(l) => l,
        }
    }
}

/// A game's `lookup` subcommand: its arguments, parsed, and its rendering.
trait GameLookup {
    /// The options every lookup has.
    fn common(&self) -> &Common;
    /// The answer, as text or JSON per `common().json`.
    fn run(&self, tables: &Tables) -> Result<String, Failure>;
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    let result = match cli.command {
        Command::Lookup { game } => lookup(game.lookup()),
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
    let mut line = one_line::one_line(&e);
    if e.kind() == ErrorKind::InvalidSubcommand && e.to_string().contains("lookup") {
        let ids: Vec<&str> = GAMES.iter().map(|g| g.id).collect();
        line = format!("{line}; the games are {}", ids.join(", "));
    }
    eprintln!("reader: {line} (see reader --help)");
    ExitCode::from(2)
}

fn lookup(game: &dyn GameLookup) -> Result<String, Failure> {
    game.run(&tables(game.common().tables.clone())?)
}

/// `--tables DIR`, else `$DICE_TABLES`, else `./tables`; it must exist.
fn tables(flag: Option<PathBuf>) -> Result<Tables, Failure> {
    let source = match (&flag, std::env::var_os(dice_tables_reader::TABLES_ENV)) {
        (Some(_), _) => "--tables",
        (None, Some(d)) if !d.is_empty() => "$DICE_TABLES",
        _ => "the default ./tables",
    };
    let dir = flag.unwrap_or_else(Tables::default_dir);
    Tables::open_dir(&dir).map_err(|_| {
        Failure::Usage(format!(
            "table directory {} (from {source}) does not exist: pass --tables DIR or set DICE_TABLES to the directory `make tables` wrote",
            dir.display()
        ))
    })
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
        match dice_tables_reader::verify(file) {
            Ok(t) => {
                let h = t.header();
                let params: Vec<String> = h.params.iter().map(|p| format!("{}={}", p.name, p.value)).collect();
                let _ =
                    writeln!(out, "ok      {} ({} {}, {} bytes)", file.display(), h.game, params.join(" "), h.file_len);
            }
            Err(e) => {
                failed += 1;
                let _ = writeln!(out, "FAILED  {e}");
            }
        }
    }
    if failed > 0 {
        print!("{out}");
        return Err(Failure::Table(format!("{failed} of {} tables failed verification", files.len())));
    }
    Ok(out)
}
