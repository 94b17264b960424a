//! A table's values for analysis, whole: the bytes of the section that
//! holds a game's values, their shape and the names of their axes (what
//! Python's `values()` hands to numpy). Each game says which of its tables
//! hold values, and how they are read, in its file under `games/`
//! ([`GameTable`](crate::GameTable)).

use std::borrow::Cow;

use crate::error::LookupError;
use dice_tables_reader::{Game, SectionSpec, Tables};

/// A table's values: little-endian floats of `item` bytes (8, or 4 for
/// f32), in C order over `shape`, each axis named by `axes`.
#[derive(Debug)]
pub struct StoredValues<'a> {
    /// The values' bytes: the table's own where the layout allows, else
    /// decoded.
    pub bytes: Cow<'a, [u8]>,
    /// Bytes per value.
    pub item: usize,
    /// The length of each axis.
    pub shape: Vec<usize>,
    /// The name of each axis.
    pub axes: Vec<&'static str>,
}

/// How a table's values are read.
pub(crate) type ReadValues = for<'a> fn(&'a Tables) -> Result<StoredValues<'a>, LookupError>;

/// `read`, in a build with the feature `values`; else none, and its code
/// is left out (it is named only here, at compile time).
pub(crate) const fn read_values(read: ReadValues) -> Option<ReadValues> {
    if cfg!(feature = "values") {
        Some(read)
    } else {
        None
    }
}

/// A section of `G`'s table, in place where its layout allows.
pub(crate) fn section<'a, G: Game>(
    tables: &'a Tables,
    spec: &SectionSpec<G::Params>,
    axes: Vec<&'static str>,
) -> Result<StoredValues<'a>, LookupError> {
    let game = tables.get::<G>()?;
    let entry = &game.table().header().sections[spec.index];
    let item = entry.dtype.size() as usize;
    let shape = entry.dims.iter().map(|&d| d as usize).collect();
    Ok(StoredValues { bytes: game.checked().section(spec)?, item, shape, axes })
}

/// Values decoded into little-endian f64s.
pub(crate) fn decoded(values: &[f64], shape: Vec<usize>, axes: Vec<&'static str>) -> StoredValues<'static> {
    let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>();
    StoredValues { bytes: Cow::Owned(bytes), item: 8, shape, axes }
}
