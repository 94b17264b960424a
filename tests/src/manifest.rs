//! The checksum manifest (tables/checksums.b3): the blake3 of every table
//! the generator writes with the default rules, `HASH  NAME` lines as
//! `b3sum` writes them.

use std::path::Path;

/// The manifest's entries, (hash, file name), in its order.
pub fn entries(manifest: &Path) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let entries: Vec<(String, String)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.split_once("  ") {
            Some((hash, name)) => Ok((hash.to_string(), name.to_string())),
            None => Err(format!("{}: {l:?} is not a `HASH  NAME` line", manifest.display())),
        })
        .collect::<Result<_, _>>()?;
    if entries.is_empty() {
        return Err(format!("{} lists no table", manifest.display()));
    }
    Ok(entries)
}

/// Checks that each of `games`' tables in `dir` is there and is the one
/// `manifest` lists; the error names every table that is missing or
/// differs.
pub fn check(manifest: &Path, dir: &Path, games: &[&str]) -> Result<(), String> {
    let entries = entries(manifest)?;
    let mut wrong = Vec::new();
    for game in games {
        let name = format!("{game}.dtab");
        let Some((hash, _)) = entries.iter().find(|(_, n)| *n == name) else {
            wrong.push(format!("{name} is not in {}", manifest.display()));
            continue;
        };
        let path = dir.join(&name);
        match std::fs::read(&path) {
            Ok(bytes) if blake3::hash(&bytes).to_hex().as_str() == hash => {}
            Ok(_) => wrong.push(format!(
                "{} differs from {}: if the change is deliberate, run `make manifest`",
                path.display(),
                manifest.display()
            )),
            Err(e) => wrong.push(format!("{}: {e}", path.display())),
        }
    }
    match wrong.is_empty() {
        true => Ok(()),
        false => Err(wrong.join("; ")),
    }
}
