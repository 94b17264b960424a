//! Checks tables make built against the checksum manifest (`make
//! manifest-check`): each named table must be in DIR and be the bytes the
//! manifest lists.
//!
//! Usage: manifest-check MANIFEST DIR GAME... (exit status 0 when every
//! table matches, 1 otherwise, 2 for bad usage).

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [manifest, dir, games @ ..] = &args[..] else {
        eprintln!("manifest-check: usage: manifest-check MANIFEST DIR GAME...");
        return ExitCode::from(2);
    };
    if games.is_empty() {
        eprintln!("manifest-check: no game named: give at least one, like yatzy-target");
        return ExitCode::from(2);
    }
    let games: Vec<&str> = games.iter().map(String::as_str).collect();
    match dice_tables_tests::manifest::check(Path::new(manifest), Path::new(dir), &games) {
        Ok(()) => {
            println!("manifest-check: {} in {dir} as {manifest} lists", games.join(", "));
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("manifest-check: {why}");
            ExitCode::from(1)
        }
    }
}
