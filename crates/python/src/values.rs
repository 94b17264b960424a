//! `Values`: a game's stored values as one buffer numpy reads without a copy.

use std::borrow::Cow;
use std::sync::Arc;

use dice_tables_lookup::{GameTable, LookupError, StoredValues};
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

/// Where a buffer is and what it holds.
pub(crate) struct Layout {
    item: usize,
    shape: Vec<usize>,
    axes: Vec<&'static str>,
}

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

    /// The values of `table` (in place where its layout allows: kept alive
    /// by holding the tables).
    pub(crate) fn of(tables: &Arc<reader::Tables>, table: &GameTable) -> Result<Values, LookupError> {
        let StoredValues { bytes, item, shape, axes } = table.values(tables)?;
        let layout = Layout { item, shape, axes };
        Ok(match bytes {
            Cow::Borrowed(bytes) => {
                let owner = Owner::Tables(Arc::clone(tables));
                Values::new(owner, bytes.as_ptr() as usize, bytes.len(), layout)
            }
            Cow::Owned(bytes) => Values::owned(words_of(&bytes), bytes.len(), layout),
        })
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
