//! What makes a game: its id, its rules parameters, the sections its table
//! holds, the checks of their contents, and the typed view built on a
//! verified [`Table`]. The container knows none of this; each game module
//! implements [`Game`] once, and the generator writes its sections against
//! the same [`SectionSpec`] constants.

use std::fmt;
use std::path::Path;

use crate::error::{TableError, TableErrorKind};
use crate::format::{DType, Encoding, Header};
use crate::table::Table;

/// One section of a game's table, written once for the reader and the
/// generator: name, element type, encoding, and dimensions as a function of
/// the game's parameters.
pub struct SectionSpec<P: 'static> {
    /// The section's position in the game's [`Game::SECTIONS`] and in the
    /// file's section directory.
    pub index: usize,
    /// The section's name in the directory.
    pub name: &'static str,
    /// The element type.
    pub dtype: DType,
    /// How the generator stores it (an empty section is always raw).
    pub encoding: Encoding,
    /// The dimensions, outermost first, for a table with these parameters.
    pub dims: fn(&P) -> Vec<u64>,
    /// Decoded bytes per chunk, or 0 for one chunk: binding, since lookups
    /// read a chunk's bytes by position.
    pub chunk_len: u64,
}

impl<P> SectionSpec<P> {
    /// A section spec; see the fields.
    pub const fn new(
        index: usize,
        name: &'static str,
        dtype: DType,
        encoding: Encoding,
        dims: fn(&P) -> Vec<u64>,
    ) -> SectionSpec<P> {
        SectionSpec { index, name, dtype, encoding, dims, chunk_len: 0 }
    }

    /// The same spec, stored in chunks of `len` decoded bytes.
    pub const fn chunked(self, len: u64) -> SectionSpec<P> {
        SectionSpec { chunk_len: len, ..self }
    }
}

impl<P> fmt::Debug for SectionSpec<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SectionSpec")
            .field("index", &self.index)
            .field("name", &self.name)
            .field("dtype", &self.dtype)
            .field("encoding", &self.encoding)
            .field("chunk_len", &self.chunk_len)
            .finish_non_exhaustive()
    }
}

/// A game whose tables this reader opens.
///
/// Implementors are the typed views (`Yazy`, `Combo`, `Threes`, `Tenk`);
/// [`open`](Game::open) and [`from_table`](Game::from_table) are the same
/// for all of them: check the game id, read the parameters, check the
/// section directory against [`SECTIONS`](Game::SECTIONS) (all before
/// anything is decompressed), run the game's checks of its small sections,
/// and build the view. The large sections' chunks are decoded, their
/// checksums verified and their contents checked the first time a lookup
/// reads them, so a lookup can report a damaged table; [`check`](Game::check)
/// (what `reader verify` runs) does every chunk at once.
pub trait Game: Sized + fmt::Debug + Send + Sync + 'static {
    /// The game id in headers; the table file is `<ID>.dtab`.
    const ID: &'static str;
    /// Other names people use for the game (command lines accept them).
    const ALIASES: &'static [&'static str] = &[];
    /// The repository's make targets that build the table where `make
    /// tables` does not, the one for this table alone first (empty: `make
    /// tables` builds it). A lookup's message for a missing file names them.
    const BUILT_BY: &'static [&'static str] = &[];
    /// The rules parameters, and any sizes read from the directory.
    type Params: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// The sections, in the order the file lists them.
    const SECTIONS: &'static [SectionSpec<Self::Params>];

    /// Reads and checks the parameters of a header of this game.
    fn params(header: &Header) -> Result<Self::Params, TableError>;

    /// The header's rules parameters for these parameters, as the generator
    /// writes them.
    fn header_params(params: &Self::Params) -> Vec<(&'static str, i64)>;

    /// The name of a rules parameter's value where it has one (yahtzee's
    /// `joker` 0 is `forced`), as people read it; `None` for a number.
    fn param_value_name(name: &str, value: i64) -> Option<&'static str> {
        let _ = (name, value);
        None
    }

    /// The checks run when the view is built: those that span sections, and
    /// those of small sections (read through [`Checked`], which decodes them).
    fn check_contents(table: &Checked<Self>) -> Result<(), TableError>;

    /// The check of what one chunk of section `section` holds, run the first
    /// time the chunk is read; `start` is where the chunk begins in the
    /// section's decoded bytes. Every stored value a lookup trusts is checked
    /// here or in [`check_contents`](Game::check_contents), so that a file
    /// whose checksums were recomputed over bad values still cannot send a
    /// lookup out of bounds or answer with an impossible action.
    fn check_chunk(params: &Self::Params, section: usize, start: u64, bytes: &[u8]) -> Result<(), TableError> {
        let _ = (params, section, start, bytes);
        Ok(())
    }

    /// Builds the view over a table whose header and small sections passed
    /// their checks.
    fn from_checked(table: Checked<Self>) -> Result<Self, TableError>;

    /// The table and parameters the view reads.
    fn checked(&self) -> &Checked<Self>;

    /// The underlying table.
    fn table(&self) -> &Table {
        &self.checked().table
    }

    /// The file name of this game's table in a tables directory.
    fn file_name() -> String {
        file_name(Self::ID)
    }

    /// The checks a header alone allows: the id, the parameters, and the
    /// section directory against [`SECTIONS`](Game::SECTIONS) (so that
    /// nothing larger than the game's own dimensions is ever decompressed).
    /// Returns the parameters.
    fn check_header(header: &Header) -> Result<Self::Params, TableError> {
        if header.game != Self::ID {
            return Err(TableErrorKind::WrongGame { found: header.game.clone(), expected: Self::ID }.into());
        }
        let params = Self::params(header)?;
        check_param_names(header, &Self::header_params(&params))?;
        check_schema(header, Self::SECTIONS, &params)?;
        Ok(params)
    }

    /// Every check of a table of this game: the header's, the small
    /// sections', then every chunk of every section decoded, its checksum
    /// verified and its contents checked. Nothing decoded stays: the view
    /// decodes what its lookups read, each chunk once (so a table checked
    /// whole costs its file's bytes, not its decoded sections: `reader
    /// serve` with both target tables held 1.39 GB at start, 400 MB now).
    fn check(table: Table) -> Result<Self, TableError> {
        let mut checked = checked::<Self>(table)?;
        let params = &checked.params;
        checked.table.check_every_chunk(|s, start, bytes| Self::check_chunk(params, s, start, bytes))?;
        Self::check_whole(&checked)?;
        checked.table.forget_reads();
        Self::from_checked(checked)
    }

    /// What [`check`](Game::check) adds once every chunk is checked: the
    /// checks that span a whole large section (the target tables decode
    /// every state's chances). None by default.
    fn check_whole(table: &Checked<Self>) -> Result<(), TableError> {
        let _ = table;
        Ok(())
    }

    /// Wraps an opened table; an error when its header or small sections are
    /// not those of a valid table of this game.
    fn from_table(table: Table) -> Result<Self, TableError> {
        Self::from_checked(checked::<Self>(table)?)
    }

    /// Reads a table file of this game into memory and builds the view (see
    /// the trait's documentation for what is checked when). Nothing later
    /// done to the file changes an answer.
    fn open(path: impl AsRef<Path>) -> Result<Self, TableError> {
        let path = path.as_ref();
        let table = Table::open_expecting(path, &|h| Self::check_header(h).map(drop))?;
        Self::from_table(table).map_err(|e| e.in_file(path))
    }

    /// Memory-maps a table file of this game and builds the view: nothing is
    /// copied, and the pages are shared with every process reading the file.
    ///
    /// # Safety
    ///
    /// As [`Table::map`]: the file must not change in place while the view
    /// lives (replace it by renaming a new file over it).
    unsafe fn map(path: impl AsRef<Path>) -> Result<Self, TableError> {
        let path = path.as_ref();
        // SAFETY: the caller keeps the file unchanged while the view lives.
        let table = unsafe { Table::map_expecting(path, &|h| Self::check_header(h).map(drop)) }?;
        Self::from_table(table).map_err(|e| e.in_file(path))
    }

    /// A table already read into memory; like [`open`](Game::open), the
    /// header is checked against the game before anything is decompressed.
    fn from_vec(bytes: Vec<u8>) -> Result<Self, TableError> {
        Self::from_table(Table::from_vec_expecting(bytes, &|h| Self::check_header(h).map(drop))?)
    }
}

/// `table` with its header and small sections checked as game `G`'s, and
/// nothing it read before kept (the view checks every chunk itself).
fn checked<G: Game>(mut table: Table) -> Result<Checked<G>, TableError> {
    let params = G::check_header(table.header())?;
    table.forget_reads();
    let checked = Checked { table, params };
    G::check_contents(&checked)?;
    Ok(checked)
}

/// A table whose header passed game `G`'s checks, with the parameters read
/// from it: what a view reads its sections through, each chunk content-
/// checked by `G` on first use. Only this crate builds one.
pub struct Checked<G: Game> {
    table: Table,
    params: G::Params,
}

impl<G: Game> Checked<G> {
    /// The parameters the header gave.
    pub fn params(&self) -> &G::Params {
        &self.params
    }

    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Chunk `c` of a section, checked ([`Game::check_chunk`]) on first use.
    #[inline(always)]
    pub fn chunk(&self, spec: &SectionSpec<G::Params>, c: usize) -> Result<&[u8], TableError> {
        self.table.chunk(spec.index, c, |start, b| G::check_chunk(&self.params, spec.index, start, b))
    }

    /// A whole section of one chunk, checked on first use.
    pub fn whole(&self, spec: &SectionSpec<G::Params>) -> Result<&[u8], TableError> {
        self.table.whole(spec.index, |start, b| G::check_chunk(&self.params, spec.index, start, b))
    }

    /// A whole section, every chunk checked ([`Table::section_bytes`]): in
    /// place where the layout allows, else copied.
    pub fn section(&self, spec: &SectionSpec<G::Params>) -> Result<std::borrow::Cow<'_, [u8]>, TableError> {
        self.table.section_bytes(spec.index, |start, b| G::check_chunk(&self.params, spec.index, start, b))
    }

    /// Decoded bytes `at..at + len` of a section (within one chunk), checked on first use.
    #[inline(always)]
    pub fn bytes(&self, spec: &SectionSpec<G::Params>, at: usize, len: usize) -> Result<&[u8], TableError> {
        self.table.range(spec.index, at, len, |start, b| G::check_chunk(&self.params, spec.index, start, b))
    }

    /// Element `i` of chunk `c` of a u8 section: for a view that knows its
    /// chunks' layout (no division to find the chunk).
    #[inline(always)]
    pub fn u8_in(&self, spec: &SectionSpec<G::Params>, c: usize, i: usize) -> Result<u8, TableError> {
        let bytes = self.chunk(spec, c)?;
        bytes.get(i).copied().ok_or_else(|| past_chunk(spec.name, c, i))
    }

    /// Element `i` of a u8 section.
    #[inline(always)]
    pub fn u8_at(&self, spec: &SectionSpec<G::Params>, i: usize) -> Result<u8, TableError> {
        Ok(self.bytes(spec, i, 1)?[0])
    }

    /// Element `i` of a little-endian u16 section.
    #[inline(always)]
    pub fn u16_at(&self, spec: &SectionSpec<G::Params>, i: usize) -> Result<u16, TableError> {
        Ok(crate::format::read_u16(self.bytes(spec, i * 2, 2)?, 0))
    }

    /// Element `i` of a little-endian u32 or f32 section, as bits.
    #[inline(always)]
    pub fn u32_at(&self, spec: &SectionSpec<G::Params>, i: usize) -> Result<u32, TableError> {
        Ok(crate::format::read_u32(self.bytes(spec, i * 4, 4)?, 0))
    }

    /// Element `i` of a little-endian f64 section.
    #[inline(always)]
    pub fn f64_at(&self, spec: &SectionSpec<G::Params>, i: usize) -> Result<f64, TableError> {
        Ok(crate::format::read_f64(self.bytes(spec, i * 8, 8)?, 0))
    }
}

/// A view asked for an element past the end of a chunk.
#[cold]
fn past_chunk(section: &str, c: usize, i: usize) -> TableError {
    TableError::section(section, format!("has no element {i} in chunk {c}"))
}

impl<G: Game> fmt::Debug for Checked<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Checked").field("table", &self.table).field("params", &self.params).finish()
    }
}

/// Refuses parameters the game does not have, and any name given twice: a
/// table solved under a rule this reader does not know must not be read as
/// if the rule were absent.
fn check_param_names(header: &Header, known: &[(&'static str, i64)]) -> Result<(), TableError> {
    for (i, p) in header.params.iter().enumerate() {
        if !known.iter().any(|(name, _)| *name == p.name) {
            let names: Vec<&str> = known.iter().map(|(name, _)| *name).collect();
            let has = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            return Err(TableErrorKind::BadHeader(format!(
                "rules parameter {:?} is not one of {}'s (it has: {has}); this reader is older than the table",
                p.name, header.game
            ))
            .into());
        }
        if header.params[..i].iter().any(|q| q.name == p.name) {
            return Err(TableErrorKind::BadHeader(format!("rules parameter {:?} is given twice", p.name)).into());
        }
    }
    Ok(())
}

/// Checks the directory against a game's sections: the same names in the
/// same order, types, dimensions, encodings (an empty section is always
/// raw) and chunk lengths, nothing missing and nothing extra.
fn check_schema<P>(header: &Header, specs: &[SectionSpec<P>], params: &P) -> Result<(), TableError> {
    for (i, spec) in specs.iter().enumerate() {
        debug_assert_eq!(spec.index, i, "{}: SECTIONS out of index order", header.game);
        let Some(s) = header.sections.get(i).filter(|s| s.name == spec.name) else {
            return Err(match header.section(spec.name) {
                Some(_) => TableError::section(spec.name, format!("is not section {i} of this {} table", header.game)),
                None => TableError::section(spec.name, format!("is missing from this {} table", header.game)),
            });
        };
        let dims = (spec.dims)(params);
        if s.dtype != spec.dtype || s.dims != dims {
            return Err(TableError::section(
                &s.name,
                format!(
                    "is {} {:?}, but a {} table with these rules has {} {:?}",
                    s.dtype.name(),
                    s.dims,
                    header.game,
                    spec.dtype.name(),
                    dims
                ),
            ));
        }
        let empty = dims.contains(&0);
        let encoding = if empty { Encoding::Raw } else { spec.encoding };
        if s.encoding != encoding {
            return Err(TableError::section(
                &s.name,
                format!("is stored {}, but a {} table stores it {}", s.encoding.name(), header.game, encoding.name()),
            ));
        }
        let decoded = s.decoded_len().unwrap_or(0);
        let chunk_len = match (decoded, spec.chunk_len) {
            (0, _) => 0,
            (_, 0) => decoded,
            (_, len) => len,
        };
        if s.chunk_len != chunk_len {
            return Err(TableError::section(
                &s.name,
                format!("is in chunks of {} bytes, but a {} table has {chunk_len}", s.chunk_len, header.game),
            ));
        }
    }
    if let Some(extra) = header.sections.get(specs.len()) {
        return Err(TableError::section(&extra.name, format!("is not part of a {} table", header.game)));
    }
    Ok(())
}

/// A game's view with its type erased, as a directory of tables holds it.
pub(crate) type View = std::sync::Arc<dyn std::any::Any + Send + Sync>;

/// A game this reader knows: its id and how to check a table of it and
/// build its view, for code that handles every game alike (`reader
/// verify`, [`Tables`](crate::Tables)).
#[derive(Clone, Copy)]
pub struct GameInfo {
    /// The game id.
    pub id: &'static str,
    /// Other names of the game.
    pub aliases: &'static [&'static str],
    /// The make targets that build its table where `make tables` does not
    /// ([`Game::BUILT_BY`]).
    pub built_by: &'static [&'static str],
    check_header: fn(&Header) -> Result<(), TableError>,
    check: fn(Table) -> Result<(), TableError>,
    param_value_name: fn(&str, i64) -> Option<&'static str>,
    /// [`Game::from_table`], the view's type erased.
    pub(crate) view: fn(Table) -> Result<View, TableError>,
    /// [`Game::check`], the view's type erased.
    pub(crate) checked_view: fn(Table) -> Result<View, TableError>,
}

impl GameInfo {
    /// The entry of game `G`.
    pub const fn of<G: Game>() -> GameInfo {
        GameInfo {
            id: G::ID,
            aliases: G::ALIASES,
            built_by: G::BUILT_BY,
            check_header: check_header_as::<G>,
            check: check_as::<G>,
            param_value_name: G::param_value_name,
            view: view_as::<G>,
            checked_view: checked_view_as::<G>,
        }
    }

    /// The header checks of this game ([`Game::check_header`]).
    pub fn check_header(&self, header: &Header) -> Result<(), TableError> {
        (self.check_header)(header)
    }

    /// The name of a rules parameter's value where it has one
    /// ([`Game::param_value_name`]: yahtzee's `joker` 0 is `forced`).
    pub fn param_value_name(&self, name: &str, value: i64) -> Option<&'static str> {
        (self.param_value_name)(name, value)
    }

    /// A rules parameter's value as people read it: its name where it has
    /// one, else the number.
    pub fn param_text(&self, name: &str, value: i64) -> String {
        self.param_value_name(name, value).map_or_else(|| value.to_string(), str::to_string)
    }

    /// Every check of this game on `table` ([`Game::check`]).
    pub fn check(&self, table: Table) -> Result<(), TableError> {
        (self.check)(table)
    }
}

impl fmt::Debug for GameInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameInfo").field("id", &self.id).field("aliases", &self.aliases).finish_non_exhaustive()
    }
}

fn check_header_as<G: Game>(header: &Header) -> Result<(), TableError> {
    G::check_header(header).map(drop)
}

fn check_as<G: Game>(table: Table) -> Result<(), TableError> {
    G::check(table).map(drop)
}

fn view_as<G: Game>(table: Table) -> Result<View, TableError> {
    Ok(std::sync::Arc::new(G::from_table(table)?))
}

fn checked_view_as<G: Game>(table: Table) -> Result<View, TableError> {
    Ok(std::sync::Arc::new(G::check(table)?))
}

/// The file name of a game's table in a tables directory: `<id>.dtab`.
pub fn file_name(game: &str) -> String {
    format!("{game}.dtab")
}

/// A whole-number rules parameter, which must be present and in `range`.
pub(crate) fn param_in(
    header: &Header,
    name: &'static str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<i64, TableError> {
    let value = header.param(name).ok_or(TableErrorKind::BadParam { name, why: "is missing".into() })?;
    if !range.contains(&value) {
        let why = format!("is {value}, not {} to {}", range.start(), range.end());
        return Err(TableErrorKind::BadParam { name, why }.into());
    }
    Ok(value)
}

/// Checks every value of an f64 section lies in `0..=max` (so none is NaN):
/// lookups add these and print them as JSON numbers.
pub(crate) fn check_values_in_range(section: &str, bytes: &[u8], max: f64) -> Result<(), TableError> {
    match (0..bytes.len() / 8).map(|i| (i, crate::format::read_f64(bytes, i))).find(|&(_, v)| !(0.0..=max).contains(&v))
    {
        Some((i, v)) => Err(TableError::section(section, format!("holds {v} at {i}, outside 0 to {max}"))),
        None => Ok(()),
    }
}
