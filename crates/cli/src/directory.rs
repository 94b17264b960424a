//! Where the tables are: `--tables DIR`, else `$DICE_TABLES`, else
//! `./tables`.

use std::path::PathBuf;

use dice_tables_lookup::directory_error;
use dice_tables_reader::Tables;

use crate::output::Failure;

/// `--tables DIR`, else `$DICE_TABLES`, else `./tables`, mapped for a
/// lookup; it must be a directory.
pub(crate) fn tables(flag: Option<PathBuf>) -> Result<Tables, Failure> {
    let dir = tables_dir(flag)?;
    // SAFETY: a lookup's process lives milliseconds, and the files it maps
    // are replaced by renaming a new file over them (the generator does so,
    // and README and FORMAT.md say so for everyone else), never changed in
    // place. Mapping reads only the pages a lookup asks for: a lookup in a
    // 200 MB target table does not read 200 MB.
    unsafe { Tables::map_dir(&dir) }.map_err(|e| Failure::Table(e.to_string()))
}

/// `--tables DIR`, else `$DICE_TABLES`, else `./tables`: a directory, or why not.
pub(crate) fn tables_dir(flag: Option<PathBuf>) -> Result<PathBuf, Failure> {
    let source = match (&flag, std::env::var_os(dice_tables_reader::TABLES_ENV)) {
        (Some(_), _) => "--tables",
        (None, Some(d)) if !d.is_empty() => "$DICE_TABLES",
        _ => "the default ./tables",
    };
    let dir = flag.unwrap_or_else(Tables::default_dir);
    match Tables::open_dir(&dir) {
        Ok(_) => Ok(dir),
        Err(_) => Err(Failure::Table(directory_error(&dir, source, "pass --tables DIR"))),
    }
}
