//! One entry point for programs that use several games: a directory of
//! tables, each opened and verified the first time it is asked for.

use std::any::Any;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::{TableError, TableErrorKind};
use crate::game::Game;
use crate::GAMES;

/// The environment variable naming the tables directory.
pub const TABLES_ENV: &str = "DICE_TABLES";

/// A directory of tables (`yazy.dtab`, `combo.dtab`, ...), each game's file
/// opened and verified on first use and then shared.
///
/// ```
/// # fn main() -> Result<(), dice_tables_reader::Error> {
/// use dice_tables_reader::{tenk::Tenk, yazy::{Mask, Yazy}, Tables};
/// let tables = Tables::open_dir(Tables::default_dir())?;
/// let yazy = tables.get::<Yazy>()?;
/// assert!((yazy.turn_start_value(Mask::ALL)? - 165.7573187).abs() < 1e-6);
/// assert_eq!(tables.get::<Tenk>()?.bank_threshold(6), Some(18100));
/// # Ok(()) }
/// ```
pub struct Tables {
    dir: PathBuf,
    opened: Vec<OnceLock<Box<dyn Any + Send + Sync>>>,
}

impl Tables {
    /// The tables in `dir`; an error when it is not a directory. No table is
    /// read until it is asked for.
    pub fn open_dir(dir: impl Into<PathBuf>) -> Result<Tables, TableError> {
        let dir = dir.into();
        let not_a_dir =
            |kind, why| Err(TableError::from(TableErrorKind::Io(std::io::Error::new(kind, why))).in_file(&dir));
        match std::fs::metadata(&dir) {
            Ok(meta) if meta.is_dir() => Ok(Tables { dir, opened: GAMES.iter().map(|_| OnceLock::new()).collect() }),
            Ok(_) => not_a_dir(std::io::ErrorKind::NotADirectory, "not a directory: give the directory of the tables"),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                not_a_dir(std::io::ErrorKind::NotFound, "no such directory")
            }
            Err(e) => Err(TableError::from(TableErrorKind::Io(e)).in_file(&dir)),
        }
    }

    /// [`Tables::open_dir`] of [`Tables::default_dir`].
    pub fn open_default() -> Result<Tables, TableError> {
        Tables::open_dir(Tables::default_dir())
    }

    /// Where tables are looked for by default: `$DICE_TABLES` when set and
    /// not empty, else `./tables` (what `make tables` writes).
    pub fn default_dir() -> PathBuf {
        match std::env::var_os(TABLES_ENV) {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => PathBuf::from("tables"),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of game `G`'s table file.
    pub fn path_of<G: Game>(&self) -> PathBuf {
        self.dir.join(G::file_name())
    }

    /// Game `G`'s table, opened and verified on the first call. A failure
    /// is not remembered: a later call tries the file again.
    pub fn get<G: Game>(&self) -> Result<&G, TableError> {
        let slot = GAMES.iter().position(|g| g.id == G::ID).map(|i| &self.opened[i]);
        let Some(slot) = slot else {
            // A game outside the registry: the registry is incomplete.
            return Err(TableErrorKind::UnknownGame(G::ID.to_string()).into());
        };
        if slot.get().is_none() {
            let game = G::open(self.path_of::<G>())?;
            let _ = slot.set(Box::new(game));
        }
        let game = slot.get().and_then(|g| g.downcast_ref::<G>());
        Ok(game.expect("each registry slot holds the game of its id"))
    }
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opened: Vec<&str> =
            GAMES.iter().zip(&self.opened).filter(|(_, slot)| slot.get().is_some()).map(|(g, _)| g.id).collect();
        f.debug_struct("Tables").field("dir", &self.dir).field("opened", &opened).finish()
    }
}
