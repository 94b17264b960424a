//! `Values`: a game's stored values as one buffer numpy reads without a copy.

use std::borrow::Cow;
use std::sync::Arc;

use dice_tables_lookup::LookupError;
use dice_tables_reader as reader;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

/// Where a buffer's bytes live: in a table (the file's map or a decoded
/// chunk, alive as long as the tables) or in words copied out of it
/// (8-aligned, whatever the values' type).
pub(crate) enum Owner {
    Tables(#[allow(dead_code)] Arc<reader::Tables>),
    Words(#[allow(dead_code)] Box<[u64]>),
}

/// A table's values, read-only: little-endian f64 (f32 for threes), C
/// order. numpy reads them in place through `__array_interface__` (the
/// buffer protocol is not in the stable ABI before Python 3.11, and the
/// wheel is built for 3.9 and later).
#[pyclass(frozen, module = "dice_tables")]
pub(crate) struct Values {
    /// Keeps the bytes alive.
    _owner: Owner,
    /// The first byte (an address, so that the class is Send).
    start: usize,
    len: usize,
    item: usize,
    shape: Vec<usize>,
    axes: Vec<&'static str>,
}

/// `bytes` copied into 8-aligned words, byte for byte.
pub(crate) fn words_of(bytes: &[u8]) -> Box<[u64]> {
    bytes
        .chunks(8)
        .map(|b| {
            let mut word = [0u8; 8];
            word[..b.len()].copy_from_slice(b);
            u64::from_ne_bytes(word)
        })
        .collect()
}

/// A word whose bytes in memory are `v`'s little-endian bytes, as a
/// table's own values are stored (one type string describes both).
pub(crate) fn little_endian(v: f64) -> u64 {
    u64::from_ne_bytes(v.to_le_bytes())
}

/// Where a buffer is and what it holds.
pub(crate) struct Layout {
    item: usize,
    shape: Vec<usize>,
    axes: Vec<&'static str>,
}

/// The tables whose values `values()` gives.
pub(crate) const VALUES_GAMES: [&str; 8] =
    ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames"];

impl Values {
    /// `len` bytes at `start`, kept alive by `owner`.
    fn new(owner: Owner, start: usize, len: usize, layout: Layout) -> Values {
        let Layout { item, shape, axes } = layout;
        Values { _owner: owner, start, len, item, shape, axes }
    }

    /// Words owned by the buffer: their first `len` bytes.
    fn owned(words: Box<[u64]>, len: usize, layout: Layout) -> Values {
        let start = words.as_ptr() as usize;
        Values::new(Owner::Words(words), start, len, layout)
    }

    /// A section of a game's table, read in place where its layout allows.
    fn section<G: reader::Game>(
        tables: &Arc<reader::Tables>,
        spec: &reader::SectionSpec<G::Params>,
        axes: Vec<&'static str>,
    ) -> Result<Values, LookupError> {
        let game = tables.get::<G>()?;
        let entry = &game.table().header().sections[spec.index];
        let item = entry.dtype.size() as usize;
        let shape: Vec<usize> = entry.dims.iter().map(|&d| d as usize).collect();
        let layout = Layout { item, shape, axes };
        Ok(match game.checked().section(spec)? {
            Cow::Borrowed(bytes) => {
                let owner = Owner::Tables(Arc::clone(tables));
                Values::new(owner, bytes.as_ptr() as usize, bytes.len(), layout)
            }
            Cow::Owned(bytes) => Values::owned(words_of(&bytes), bytes.len(), layout),
        })
    }

    /// A score-sheet game's turn-start values, decoded into one buffer.
    fn sheet<G: reader::sheet::SheetGame>(
        tables: &Arc<reader::Tables>,
        axes: Vec<&'static str>,
    ) -> Result<Values, LookupError> {
        let sheet = tables.get::<reader::sheet::ScoreSheet<G>>()?;
        let floats = sheet.turn_start_values()?;
        let mut shape = vec![1usize << G::CATEGORIES.len()];
        if G::FLAGS > 1 {
            shape.push(G::FLAGS);
        }
        shape.push(floats.len() / shape.iter().product::<usize>());
        let words: Box<[u64]> = floats.iter().map(|&v| little_endian(v)).collect();
        Ok(Values::owned(words, floats.len() * 8, Layout { item: 8, shape, axes }))
    }

    /// threes' chances of success, decoded from their stored form (a chance
    /// above 1/2 is stored as its complement) into f64.
    fn threes(tables: &Arc<reader::Tables>) -> Result<Values, LookupError> {
        use reader::Game as _;
        let threes = tables.get::<reader::threes::Threes>()?;
        let entry = &threes.table().header().sections[reader::threes::CHANCE.index];
        let shape: Vec<usize> = entry.dims.iter().map(|&d| d as usize).collect();
        let stored = threes.checked().section(&reader::threes::CHANCE)?;
        let words: Box<[u64]> = stored
            .chunks_exact(4)
            .map(|b| little_endian(reader::threes::decode_chance(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))))
            .collect();
        let axes = vec!["model", "after", "record", "ties", "points", "remaining"];
        let len = words.len() * 8;
        Ok(Values::owned(words, len, Layout { item: 8, shape, axes }))
    }

    /// The values of the table `id` (one of [`VALUES_GAMES`]).
    pub(crate) fn of(tables: &Arc<reader::Tables>, id: &str) -> Result<Values, LookupError> {
        use reader::{combo, duel, tenk, yazy};
        match id {
            "yazy" => Values::section::<yazy::Yazy>(tables, &yazy::TURN_START, vec!["mask"]),
            "combo" => Values::section::<combo::Combo>(tables, &combo::ROLL_VALUE, vec!["rerolls", "roll"]),
            "threes" => Values::threes(tables),
            "tenk" => Values::section::<tenk::Tenk>(tables, &tenk::TURN_VALUE, vec!["dice", "score"]),
            "duel-cardgames" => Values::section::<duel::CardgamesDuel>(tables, &duel::WIN, vec!["me", "opp"]),
            "duel" => Values::section::<duel::SeedDuel>(tables, &duel::WIN, vec!["me", "opp"]),
            "yatzy" => Values::sheet::<reader::sheet::YatzyGame>(tables, vec!["mask", "upper"]),
            "yahtzee" => Values::sheet::<reader::sheet::YahtzeeGame>(tables, vec!["mask", "yahtzee_bonus", "upper"]),
            other => Err(LookupError::UnknownGame { given: other.to_string(), known: VALUES_GAMES.to_vec() }),
        }
    }
}

#[pymethods]
impl Values {
    /// The names of the axes, in order.
    #[getter]
    fn axes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.axes)
    }

    /// The length of each axis.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.shape)
    }

    /// The values' type: "float64" (threes' chances: "float32").
    #[getter]
    fn dtype(&self) -> &'static str {
        if self.item == 8 {
            "float64"
        } else {
            "float32"
        }
    }

    /// numpy's array interface (version 3): `numpy.asarray` makes a
    /// read-only array over these bytes, no copy, and keeps this object
    /// (and so the bytes) alive as the array's base.
    #[getter]
    fn __array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("version", 3)?;
        d.set_item("shape", PyTuple::new(py, &self.shape)?)?;
        d.set_item("typestr", if self.item == 8 { "<f8" } else { "<f4" })?;
        d.set_item("data", (self.start, true))?;
        d.set_item("strides", py.None())?;
        Ok(d)
    }

    /// The values' bytes, copied (little-endian, C order): for reading
    /// without numpy, e.g. `memoryview(v.tobytes()).cast("d", v.shape)`.
    fn tobytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        // SAFETY: `start..start + len` lies in bytes this object keeps
        // alive (`_owner`) and nothing writes them.
        let bytes = unsafe { std::slice::from_raw_parts(self.start as *const u8, self.len) };
        PyBytes::new(py, bytes)
    }

    fn __repr__(&self) -> String {
        let dims: Vec<String> = self.axes.iter().zip(&self.shape).map(|(a, n)| format!("{a}={n}")).collect();
        format!("<dice_tables values {} [{}]>", self.dtype(), dims.join(", "))
    }
}
