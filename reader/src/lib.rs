//! Exact optimal-strategy tables for dice games, looked up in O(1).
//!
//! The `generator` program solves each game exhaustively and writes one
//! checksummed file per game (`yazy.dtab`, ...). This crate opens those files
//! (read into memory, memory-mapped, or from bytes embedded with
//! `include_bytes!`), verifies them, and answers lookups with index
//! arithmetic and no allocation. It knows no command line, HTTP or page:
//! those front ends are crates of their own.
//!
//! Two layers, as in the file: [`Table`] is the container (header, limits,
//! checksums, decoding) and knows no game; each game's view
//! ([`yazy::Yazy`], [`combo::Combo`], [`threes::Threes`], [`tenk::Tenk`],
//! [`sheet::Yatzy`], [`sheet::Yahtzee`], [`duel::SeedDuel`],
//! [`duel::CardgamesDuel`], and the target views) implements [`Game`] and
//! answers that game's questions. [`Tables`] opens a directory of them;
//! [`GAMES`] lists every game.
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
//! [`Game::open`] read it into memory (about 7 MB for every default
//! table): no later change to the file changes an answer. Mapping it
//! instead ([`Tables::map_dir`], [`Game::map`], [`Table::map`]) copies
//! nothing and shares pages between processes, but is `unsafe`: the caller
//! promises that no file changes in place while mapped (replace a file by
//! writing a new one and renaming it over the old, as the generator does; a
//! file truncated under a map kills the process with SIGBUS). A big table
//! can also be read in pieces, each chunk fetched when a lookup first needs
//! it ([`Pieces`]: a browser reading a table over HTTP range requests).
#![deny(missing_docs, missing_debug_implementations)]

mod arena;
pub mod dice;
mod error;
pub mod five_dice;
pub mod format;
mod game;
mod games;
pub mod lead_chances;
#[cfg(not(target_arch = "wasm32"))]
mod mmap;
mod options;
mod registry;
pub mod rules;
mod table;
mod tables;
pub mod target;
mod zstd_frame;

#[cfg(feature = "example-game")]
pub use games::one_die;
#[cfg(not(feature = "solitaire-only"))]
pub use games::rule_sheet;
pub use games::{combo, duel, maxi, sheet, tenk, threes, yazy};
pub use sheet::{Yahtzee, Yatzy};

pub use dice::Dice;
pub use error::{quoted, ArgumentError, ArgumentErrorKind, Error, TableError, TableErrorKind, TablesFrom};
pub use game::{file_name, Checked, Game, GameInfo, SectionSpec};
pub use options::{Choice, Options};
pub use registry::{check_table, game_named, verify, verify_bytes, GAMES};
#[cfg(not(feature = "solitaire-only"))]
pub use registry::{RULE_DUELS, RULE_SETS, RULE_TARGETS};
pub use table::{read_table_file, Pieces, Table};
pub use tables::{Holding, Tables, TABLES_ENV};

/// The READMEs' (the crate's and the repository's) and the guide's Rust
/// examples, compiled and run as doc tests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[doc = include_str!("../../README.md")]
#[doc = include_str!("../../docs/GUIDE.md")]
struct ReadmeExamples;
