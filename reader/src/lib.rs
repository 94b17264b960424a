//! Exact optimal-strategy tables for dice games, looked up in O(1).
//!
//! The `generator` program solves each game exhaustively and writes one
//! checksummed file per game (`yazy.dtab`, ...). This crate opens those files
//! (memory-mapped, or from bytes embedded with `include_bytes!`), verifies
//! them, and answers lookups with index arithmetic and no allocation.
//!
//! ```
//! # fn main() -> Result<(), dice_tables_reader::Error> {
//! # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tables");
//! # if !dir.join("yazy.dtab").exists() { return Ok(()); }
//! use dice_tables_reader::yazy::{Mask, Yazy};
//! let yazy = Yazy::open(dir.join("yazy.dtab"))?;
//! let mask: Mask = "ones,yazy".parse()?;
//! let ev = yazy.value(mask, "11116".parse().unwrap(), 1)?;
//! assert!(ev > 4.0 && ev < 55.0);
//! # Ok(()) }
//! ```
//!
//! The file format is specified in `FORMAT.md` beside this crate, so a
//! program in another language can read the tables too.
//!
//! A program holding a table keeps a memory map of the file: never modify a
//! table file in place; replace it by writing a new file and renaming it over
//! the old one (the generator does), which leaves open maps valid.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
pub mod combo;
pub mod dice;
mod error;
pub mod format;
mod mmap;
mod table;
pub mod tenk;
pub mod threes;
mod turn;
pub mod yazy;

pub use dice::Dice;
pub use error::Error;
pub use table::Table;

/// The game ids this reader knows, as written in headers and file names.
pub const GAMES: &[&str] = &[yazy::GAME, combo::GAME, threes::GAME, tenk::GAME];

/// The file name of a game's table inside a tables directory.
pub fn file_name(game: &str) -> String {
    format!("{game}.dtab")
}

/// The sections a table of this header's game and rules must have.
pub(crate) fn expected_sections(header: &format::Header) -> Result<Vec<format::ExpectedSection>, Error> {
    match header.game.as_str() {
        yazy::GAME => Ok(yazy::expected_sections(u64::from(yazy::header_rerolls(header)?))),
        combo::GAME => Ok(combo::expected_sections(u64::from(combo::header_rerolls(header)?))),
        threes::GAME => Ok(threes::expected_sections(threes::header_exceptions(header)?)),
        tenk::GAME => Ok(tenk::expected_sections(tenk::header_options(header)?)),
        other => Err(Error::UnknownGame(other.to_string())),
    }
}

/// Checks the decoded contents of a table of a known game.
pub(crate) fn check_contents(table: &Table) -> Result<(), Error> {
    match table.header().game.as_str() {
        yazy::GAME => yazy::check_contents(table),
        combo::GAME => combo::check_contents(table),
        threes::GAME => threes::check_contents(table),
        tenk::GAME => tenk::check_contents(table),
        other => Err(Error::UnknownGame(other.to_string())),
    }
}

/// The README's Rust example, compiled as a doc test so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeExamples;
