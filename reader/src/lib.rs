//! Exact optimal-strategy tables for dice games, looked up in O(1).
//!
//! The `generator` program solves each game exhaustively and writes one
//! checksummed file per game (`yazy.dtab`, ...). This crate opens those files
//! (memory-mapped, or from bytes embedded with `include_bytes!`), verifies
//! them, and answers lookups with index arithmetic and no allocation.
//!
//! Two layers, as in the file: [`Table`] is the container (header, limits,
//! checksums, decoding) and knows no game; each game module's view
//! (`yazy::Yazy`, `combo::Combo`, `threes::Threes`, `tenk::Tenk`,
//! `sheet::Yatzy`, `sheet::Yahtzee`, `duel::SeedDuel`, `duel::CardgamesDuel`)
//! implements [`Game`] and answers that game's questions. [`Tables`] opens
//! a directory of them.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! use dice_tables_reader::{yazy::{Mask, Yazy}, Game, Tables};
//! let yazy = Yazy::open(Tables::default_dir().join("yazy.dtab"))?;
//! let mask: Mask = "ones,yazy".parse()?;
//! let ev = yazy.value(mask, "11116".parse()?, 1)?;
//! assert!(ev > 4.0 && ev < 55.0);
//! # Ok(()) }
//! ```
//!
//! The file format is specified in `FORMAT.md` beside this crate, so a
//! program in another language can read the tables too.
//!
//! Two ways to hold a file ([`Holding`]). [`Tables::open_dir`] and
//! [`Game::open`] keep a memory map of it: never modify such a file in
//! place; replace it by writing a new file and renaming it over the old one
//! (the generator does), which leaves open maps valid (a file truncated
//! under a map kills the process with SIGBUS when a lookup reads past its
//! new end). [`Tables::load_dir`] and [`Game::from_vec`] read it into
//! memory instead (about 7 MB for every default table): a long-running
//! program whose files an operator may `cp`, `rsync --inplace` or
//! `install` over uses them, as `reader serve` and the Python package do.
#![deny(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations)]

mod arena;
pub mod combo;
pub mod dice;
pub mod duel;
mod error;
pub mod format;
mod game;
#[cfg(not(target_arch = "wasm32"))]
mod mmap;
mod options;
pub mod sheet;
mod table;
mod tables;
pub mod target;
pub mod tenk;
pub mod threes;
pub use sheet::{Yahtzee, Yatzy};
pub mod turn;
pub mod yazy;
pub mod yazy_target;
mod zstd_frame;

pub use dice::Dice;
pub use error::{quoted, ArgumentError, Error, TableError, TableErrorKind};
pub use game::{Checked, Game, GameInfo, SectionSpec};
pub use options::{Choice, Options};
pub use table::{read_table_file, Table};
pub use tables::{Holding, Tables, TABLES_ENV};

/// Every game this reader knows: the registry behind [`Tables`] and
/// `reader verify`. A new game adds one line here.
pub const GAMES: &[GameInfo] = &[
    GameInfo::of::<yazy::Yazy>(),
    GameInfo::of::<combo::Combo>(),
    GameInfo::of::<threes::Threes>(),
    GameInfo::of::<tenk::Tenk>(),
    GameInfo::of::<sheet::Yatzy>(),
    GameInfo::of::<sheet::Yahtzee>(),
    GameInfo::of::<duel::SeedDuel>(),
    GameInfo::of::<duel::CardgamesDuel>(),
    GameInfo::of::<yazy_target::YazyTarget>(),
    GameInfo::of::<sheet::YatzyTarget>(),
    GameInfo::of::<sheet::YahtzeeTarget>(),
];

/// The registry entry of a game by its id or another name (`10000` for
/// `tenk`).
pub fn game_named(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.id == name || g.aliases.contains(&name))
}

/// The file name of a game's table in a tables directory: `<id>.dtab`.
pub fn file_name(game: &str) -> String {
    format!("{game}.dtab")
}

/// The registry entry of the game a header names: an error for a game this
/// reader does not know.
fn game_of(header: &format::Header) -> Result<&'static GameInfo, TableError> {
    let id = &header.game;
    Ok(GAMES.iter().find(|g| g.id == *id).ok_or_else(|| TableErrorKind::UnknownGame(id.clone()))?)
}

/// Runs every check of the game a table's header names ([`Game::check`]):
/// every chunk decoded, its checksum verified and its contents checked.
pub fn check_table(table: Table) -> Result<(), TableError> {
    game_of(table.header())?.check(table)
}

/// Opens any table and runs every check of its game, the header's before
/// anything is decompressed: what `reader verify` does for each file. A
/// file named after a game (`combo.dtab`) must hold that game, since that
/// is where lookups of the game look.
pub fn verify(path: impl AsRef<std::path::Path>) -> Result<format::Header, TableError> {
    let path = path.as_ref();
    let named = path.file_name().and_then(|n| n.to_str()).and_then(|n| GAMES.iter().find(|g| file_name(g.id) == n));
    let table = Table::open_expecting(path, &|h| {
        if let Some(g) = named.filter(|g| g.id != h.game) {
            return Err(TableErrorKind::WrongGame { found: h.game.clone(), expected: g.id }.into());
        }
        game_of(h)?.check_header(h)
    })?;
    let header = table.header().clone();
    check_table(table).map_err(|e| e.in_file(path))?;
    Ok(header)
}

/// Verifies a table already read into memory and runs every check of its
/// game, the header's before anything is decompressed.
pub fn verify_bytes(bytes: Vec<u8>) -> Result<format::Header, TableError> {
    let table = Table::from_vec_expecting(bytes, &|h| game_of(h)?.check_header(h))?;
    let header = table.header().clone();
    check_table(table)?;
    Ok(header)
}

/// The README's Rust example, compiled and run as a doc test so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeExamples;
