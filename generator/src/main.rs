//! `generator`: solves the games and writes one table file per game.
//!
//! Exit status: 0 when every table was written, 1 when one could not be
//! written, 2 for bad usage.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use dice_tables_generator::{solve, Rules, SOLVERS};

/// The one-line form of clap's errors, shared with the reader's command line.
#[path = "../../reader/src/bin/reader/one_line.rs"]
mod one_line;

/// Solve dice games exactly and write their optimal-strategy tables.
#[derive(Parser, Debug)]
#[command(name = "generator", version, about)]
struct Args {
    /// Directory to write the tables into (created if missing).
    #[arg(long, value_name = "DIR", default_value = "tables")]
    out: PathBuf,
    /// Comma list of games to solve (default: all).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_game)]
    games: Option<Vec<String>>,
    /// Worker threads (default: one per core). The output is the same for any count.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Print one JSON object per game per line instead of text.
    #[arg(long)]
    json: bool,
    /// Rerolls per yazy turn.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=20))]
    yazy_rerolls: u8,
    /// Rerolls in a combo game.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=20))]
    combo_rerolls: u8,
    /// Also write the blake3 of every table written to FILE, in `b3sum` format.
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,
}

fn parse_game(s: &str) -> Result<String, String> {
    let name = s.trim();
    let id = dice_tables_reader::GAMES.iter().find(|g| g.id == name || g.aliases.contains(&name)).map(|g| g.id);
    match id.filter(|id| SOLVERS.iter().any(|s| s.id == *id)) {
        Some(id) => Ok(id.to_string()),
        None => {
            let ids: Vec<&str> = SOLVERS.iter().map(|s| s.id).collect();
            Err(format!("unknown game {s:?}: the games are {}", ids.join(", ")))
        }
    }
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => return usage_error(e),
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("generator: {msg}");
            ExitCode::from(1)
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
    eprintln!("generator: {} (see generator --help)", one_line::one_line(&e));
    ExitCode::from(2)
}

fn run(args: &Args) -> Result<(), String> {
    if let Some(n) = args.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global()
            .map_err(|e| format!("cannot start {n} threads: {e}"))?;
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut rules = Rules::default();
    rules.yazy.rerolls = args.yazy_rerolls;
    rules.combo.rerolls = args.combo_rerolls;
    let games: Vec<&str> = SOLVERS
        .iter()
        .map(|s| s.id)
        .filter(|id| args.games.as_ref().is_none_or(|list| list.iter().any(|l| l == id)))
        .collect();
    let show_progress = std::io::stderr().is_terminal() && !args.json;
    let mut manifest = String::new();
    for game in games {
        let solved = solve(game, &rules, |done, total| {
            if show_progress {
                eprint!("\rsolving {game}: {done}/{total}");
                let _ = std::io::stderr().flush();
            }
        })
        .expect("SOLVERS lists only known games");
        if show_progress {
            eprint!("\r\x1b[K");
        }
        let (states, solve_ms) = (solved.states, solved.solve_time.as_secs_f64() * 1e3);
        let bytes = solved.encode();
        let name = dice_tables_reader::file_name(game);
        let path = dice_tables_generator::artifact::write_atomically(&args.out, &name, &bytes[..])
            .map_err(|e| format!("cannot write {}: {e}", args.out.join(&name).display()))?;
        let hash = blake3::hash(&bytes).to_hex();
        manifest.push_str(&format!("{hash}  {name}\n"));
        if args.json {
            println!(
                "{{\"game\":\"{game}\",\"states\":{states},\"solve_ms\":{solve_ms:.3},\"bytes\":{},\"blake3\":\"{hash}\",\"path\":{}}}",
                bytes.len(),
                json_string(&path.display().to_string())
            );
        } else {
            println!(
                "{game}: {states} states solved in {solve_ms:.1} ms; wrote {} ({} bytes, blake3 {hash})",
                path.display(),
                bytes.len()
            );
        }
    }
    if let Some(file) = &args.manifest {
        write_manifest(file, &manifest)?;
    }
    Ok(())
}

fn write_manifest(file: &Path, text: &str) -> Result<(), String> {
    let dir = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = file.file_name().ok_or_else(|| format!("--manifest {} is not a file name", file.display()))?;
    dice_tables_generator::artifact::write_atomically(dir, &name.to_string_lossy(), text.as_bytes())
        .map(|_| ())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
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
