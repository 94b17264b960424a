//! `dice_tables._native`: the reader crate behind Python objects.
//!
//! Every lookup is the reader's `lookup::Query` (the same parsing, checks,
//! messages and JSON answers as `reader lookup ... --json`); this module
//! only turns Python arguments into the query's arguments and the JSON
//! tree into Python objects. The Python API is documented in
//! `dice_tables/__init__.pyi`.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use dice_tables_lookup::{Arg, DuelRules, Json, LookupError, Query, Terms};
use dice_tables_reader as reader;
use pyo3::exceptions::{PyImportError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::PyClassInitializer;

pyo3::create_exception!(
    dice_tables,
    TableError,
    PyOSError,
    "A table is missing or damaged. The message names the file and what to do (`make tables` writes the tables)."
);

/// An argument as Python gave it, owned until the query borrows it.
enum Given {
    Text(String),
    Int(i64),
    Ints(Vec<i64>),
    Names(Vec<String>),
    Flag(bool),
}

/// The keyword arguments of a lookup: `None` values are left out (as if
/// not given); strings are parsed as the command line parses them; bools
/// set flags; sequences are dice faces, mask category numbers or names.
fn given_args(query: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Given)>> {
    let Some(query) = query else { return Ok(Vec::new()) };
    let mut out = Vec::with_capacity(query.len());
    for (key, value) in query.iter() {
        if value.is_none() {
            continue;
        }
        let name = key.cast::<PyString>()?.to_cow()?;
        out.push((name.to_string(), given(&name, &value)?));
    }
    Ok(out)
}

/// One argument's value. Types are tested before anything is extracted:
/// a failed extraction builds an exception, which costs more than the lookup.
fn given(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Given> {
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Given::Flag(b.is_true()));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Given::Text(s.to_cow()?.into_owned()));
    }
    if value.is_instance_of::<PyInt>() {
        // Too large for i64: the parsers refuse its digits with their own message.
        return Ok(match value.extract::<i64>() {
            Ok(i) => Given::Int(i),
            Err(_) => Given::Text(value.str()?.to_cow()?.into_owned()),
        });
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = value.try_iter()?.collect::<PyResult<_>>()?;
        if items.iter().all(|i| i.is_instance_of::<PyInt>() && !i.is_instance_of::<PyBool>()) {
            let mut ints = Vec::with_capacity(items.len());
            for item in &items {
                match item.extract::<i64>() {
                    Ok(i) => ints.push(i),
                    Err(_) => {
                        let shown: String = item.str()?.to_cow()?.chars().take(40).collect();
                        let what = if name == "dice" { "a face 1 to 6" } else { "a category number" };
                        return Err(PyValueError::new_err(format!("{name}: {shown} is not {what}")));
                    }
                }
            }
            return Ok(Given::Ints(ints));
        }
        if items.iter().all(|i| i.is_instance_of::<PyString>()) {
            let names = items.iter().map(|i| i.extract::<String>()).collect::<PyResult<_>>()?;
            return Ok(Given::Names(names));
        }
        return Err(PyTypeError::new_err(format!("{name}: a sequence of ints or of names is expected")));
    }
    if !value.is_instance_of::<PyFloat>() {
        // Other integers (numpy's) through __index__.
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Given::Int(i));
        }
    }
    let kind = value.get_type().name()?;
    let expected = match name {
        "mask" => "a string, an int, or a list or tuple of category numbers or names",
        "dice" => "a string of digits or a list or tuple of ints",
        "opening" | "yahtzee_bonus" | "yahtzee-bonus" => "True or False",
        "rules" | "ties" | "model" | "objective" => "a string",
        _ => "an int (or its digits as a string)",
    };
    Err(PyTypeError::new_err(format!("{name}: expected {expected}, got {kind}")))
}

/// A lookup error as the Python exception for it: a wrong argument name
/// or a missing one is a `TypeError` (as for any function), a bad value a
/// `ValueError`, a missing or damaged table a `TableError`.
fn py_error(e: LookupError) -> PyErr {
    match &e {
        LookupError::UnknownArgument { .. } | LookupError::MissingArgument { .. } => {
            PyTypeError::new_err(python_terms(&e))
        }
        LookupError::Table(_) => TableError::new_err(python_terms(&e)),
        _ => PyValueError::new_err(python_terms(&e)),
    }
}

/// The lookup layer's message with keywords for its arguments.
fn python_terms(e: &LookupError) -> String {
    e.message(Terms::Python)
}

/// `f` of the keyword arguments as the query's arguments.
fn with_args<R>(query: Option<&Bound<'_, PyDict>>, f: impl FnOnce(&[(&str, Arg<'_>)]) -> R) -> PyResult<R> {
    let given = given_args(query)?;
    let names: Vec<Vec<&str>> = given
        .iter()
        .map(|(_, g)| match g {
            Given::Names(n) => n.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        })
        .collect();
    let args: Vec<(&str, Arg<'_>)> = given
        .iter()
        .zip(&names)
        .map(|((name, g), names)| {
            let arg = match g {
                Given::Text(s) => Arg::Text(s),
                Given::Int(i) => Arg::Int(*i),
                Given::Ints(v) => Arg::Ints(v),
                Given::Names(_) => Arg::Names(names),
                Given::Flag(b) => Arg::Flag(*b),
            };
            (name.as_str(), arg)
        })
        .collect();
    Ok(f(&args))
}

/// The lookup of `game` with these keyword arguments.
fn query_of(game: &str, query: Option<&Bound<'_, PyDict>>) -> PyResult<Query> {
    with_args(query, |args| Query::from_args(game, args))?.map_err(py_error)
}

/// The answer of `game` to these keyword arguments, as the JSON tree.
fn answer(tables: &reader::Tables, game: &str, query: Option<&Bound<'_, PyDict>>) -> PyResult<Json> {
    query_of(game, query)?.answer(tables).map_err(py_error)
}

/// An answer's key as a Python string, made once: answers use a dozen keys
/// over and over.
fn key<'py>(py: Python<'py>, k: &str) -> Bound<'py, PyString> {
    static KEYS: pyo3::sync::PyOnceLock<Vec<(&'static str, Py<PyString>)>> = pyo3::sync::PyOnceLock::new();
    const COMMON: [&str; 16] = [
        "game",
        "ev",
        "p",
        "best",
        "options",
        "action",
        "keep",
        "category",
        "points",
        "dice_left",
        "then",
        "rules",
        "throw",
        "bank",
        "bust",
        "rerolls",
    ];
    let keys = KEYS.get_or_init(py, || COMMON.iter().map(|&k| (k, PyString::intern(py, k).unbind())).collect());
    match keys.iter().find(|(known, _)| *known == k) {
        Some((_, s)) => s.bind(py).clone(),
        None => PyString::new(py, k),
    }
}

/// A JSON tree as Python objects: dicts (keys in order), lists, str, int,
/// float, bool and None.
fn to_py<'py>(py: Python<'py>, j: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match j {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Json::Int(i) => i.into_pyobject(py)?.into_any(),
        Json::Num(v) => PyFloat::new(py, *v).into_any(),
        Json::Str(s) => PyString::new(py, s).into_any(),
        Json::List(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Json::Object(fields) => {
            let dict = PyDict::new(py);
            for (name, value) in fields {
                dict.set_item(key(py, name), to_py(py, value)?)?;
            }
            dict.into_any()
        }
    })
}

/// A directory of tables, each opened (read into memory, or memory-mapped
/// with `mmap=True`, and verified) the first time a lookup asks for it.
#[pyclass(frozen, module = "dice_tables")]
struct Tables {
    inner: Arc<reader::Tables>,
}

#[pymethods]
impl Tables {
    /// The tables in `dir` (default: `$DICE_TABLES`, else `./tables`),
    /// each read into memory when first used, so that no later change to a
    /// file changes an answer; `mmap=True` maps them instead (then a file
    /// must never change in place while open).
    #[new]
    #[pyo3(signature = (dir = None, *, mmap = false))]
    fn new(dir: Option<PathBuf>, mmap: bool) -> PyResult<Tables> {
        let from_env = dir.is_none();
        let dir = dir.unwrap_or_else(reader::Tables::default_dir);
        let opened = if mmap {
            // SAFETY: Python has no `unsafe`: `mmap=True` is the opt-in, and
            // its documentation (open_dir, README) states the contract: no
            // file in `dir` changes in place while open; replace a file by
            // renaming a new one over it.
            unsafe { reader::Tables::map_dir(&dir) }
        } else {
            reader::Tables::open_dir(&dir)
        };
        opened.map(|t| Tables { inner: Arc::new(t) }).map_err(|_| {
            let source = match (from_env, std::env::var_os(reader::TABLES_ENV)) {
                (false, _) => "open_dir",
                (true, Some(d)) if !d.is_empty() => "$DICE_TABLES",
                _ => "the default ./tables",
            };
            TableError::new_err(dice_tables_lookup::directory_error(&dir, source, "pass open_dir(DIR)"))
        })
    }

    /// The directory.
    #[getter]
    fn dir(&self) -> PathBuf {
        self.inner.dir().to_path_buf()
    }

    /// Whether the files are memory-mapped (else read into memory).
    #[getter]
    fn mmap(&self) -> bool {
        self.inner.holding() == reader::Holding::Mapped
    }

    /// The answer of `game` (as `reader lookup` names it) to the keyword
    /// arguments: exactly the JSON of `reader lookup GAME ... --json`.
    #[pyo3(signature = (game, **query))]
    fn lookup<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        query: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &answer(&self.inner, game, query)?)
    }

    /// The yazy lookups (the table is opened on the first).
    #[getter]
    fn yazy(&self, py: Python<'_>) -> PyResult<Py<Yazy>> {
        Py::new(py, self.game("yazy").add_subclass(Yazy))
    }

    /// The combo lookups (the table is opened on the first).
    #[getter]
    fn combo(&self, py: Python<'_>) -> PyResult<Py<Combo>> {
        Py::new(py, self.game("combo").add_subclass(Combo))
    }

    /// The threes lookups (the table is opened on the first).
    #[getter]
    fn threes(&self, py: Python<'_>) -> PyResult<Py<Threes>> {
        Py::new(py, self.game("threes").add_subclass(Threes))
    }

    /// The 10000 (`tenk`) lookups (the table is opened on the first).
    #[getter]
    fn tenk(&self, py: Python<'_>) -> PyResult<Py<Tenk>> {
        Py::new(py, self.game("tenk").add_subclass(Tenk))
    }

    /// The yatzy lookups (the table is opened on the first).
    #[getter]
    fn yatzy(&self, py: Python<'_>) -> PyResult<Py<Yatzy>> {
        Py::new(py, self.game("yatzy").add_subclass(Yatzy))
    }

    /// The yahtzee lookups (the table is opened on the first).
    #[getter]
    fn yahtzee(&self, py: Python<'_>) -> PyResult<Py<Yahtzee>> {
        Py::new(py, self.game("yahtzee").add_subclass(Yahtzee))
    }

    /// The two-player 10000 (`duel`; `rules="cardgames"` for the other table) lookups (the table is opened on the first).
    #[getter]
    fn duel(&self, py: Python<'_>) -> PyResult<Py<Duel>> {
        Py::new(py, self.game("duel").add_subclass(Duel))
    }

    /// The Maxi Yatzy (`maxi-yatzy`; `rules="swedish"` for the other table) lookups (the table is opened on the first).
    #[getter]
    fn maxi_yatzy(&self, py: Python<'_>) -> PyResult<Py<MaxiYatzy>> {
        Py::new(py, self.game("maxi-yatzy").add_subclass(MaxiYatzy))
    }

    fn __repr__(&self) -> String {
        let mmap = if self.mmap() { ", mmap=True" } else { "" };
        format!("dice_tables.open_dir({:?}{mmap})", self.inner.dir().display().to_string())
    }
}

impl Tables {
    fn game(&self, game: &'static str) -> PyClassInitializer<Game> {
        PyClassInitializer::from(Game { tables: Arc::clone(&self.inner), game })
    }
}

/// One game's lookups. Every method takes the arguments of
/// `reader lookup GAME` as keywords (the flags without dashes; `_` for `-`).
#[pyclass(frozen, subclass, module = "dice_tables")]
struct Game {
    tables: Arc<reader::Tables>,
    game: &'static str,
}

#[pymethods]
impl Game {
    /// The game, as `reader lookup` names it.
    #[getter]
    fn name(&self) -> &'static str {
        self.game
    }

    /// The whole answer, exactly the JSON of `reader lookup GAME ... --json`, as a dict.
    #[pyo3(signature = (**query))]
    fn lookup<'py>(&self, py: Python<'py>, query: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &answer(&self.tables, self.game, query)?)
    }

    /// The answer's value: its `"ev"` (expected score or total) or `"p"` (chance).
    #[pyo3(signature = (**query))]
    fn value(&self, query: Option<&Bound<'_, PyDict>>) -> PyResult<f64> {
        query_of(self.game, query)?.value(&self.tables).map_err(py_error)
    }

    /// The answer's options, best first, each a dict as in the JSON: for a roll or throw (`dice=`).
    #[pyo3(signature = (**query))]
    fn options<'py>(&self, py: Python<'py>, query: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, query, "options")
    }

    /// The answer's best action, as in the JSON (`None` when a score-sheet game is over).
    #[pyo3(signature = (**query))]
    fn best<'py>(&self, py: Python<'py>, query: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>> {
        self.field(py, query, "best")
    }

    /// The whole game's score curve from its target table (yazy, yatzy,
    /// yahtzee), as numpy arrays: `{"score", "p_best", "p_ev", "p_ev_exact"}`,
    /// one entry per total from 0 to the game's most (as `reader curve GAME`).
    fn curve<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let numpy = py.import("numpy").map_err(|e| {
            PyImportError::new_err(format!(
                "curve() returns numpy arrays and numpy is not installed ({e}): pip install numpy"
            ))
        })?;
        let rows = py.detach(|| dice_tables_lookup::curve_rows(&self.tables, self.game)).map_err(py_error)?;
        let out = PyDict::new(py);
        out.set_item("score", numpy.call_method1("asarray", (rows.iter().map(|r| r.score).collect::<Vec<u32>>(),))?)?;
        for (name, f) in [
            ("p_best", (|r: &reader::target::CurveRow| r.p_best) as fn(&reader::target::CurveRow) -> f64),
            ("p_ev", |r| r.p_ev),
            ("p_ev_exact", |r| r.p_ev_exact),
        ] {
            out.set_item(name, numpy.call_method1("asarray", (rows.iter().map(f).collect::<Vec<f64>>(),))?)?;
        }
        Ok(out)
    }

    /// The table's values for analysis as a read-only numpy array over the
    /// table's own memory where the layout allows (see `values_buffer`).
    #[pyo3(signature = (rules = None))]
    fn values<'py>(&self, py: Python<'py>, rules: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let numpy = py.import("numpy").map_err(|e| {
            PyImportError::new_err(format!(
                "values() returns a numpy array and numpy is not installed ({e}): pip install numpy, or read values_buffer().tobytes()"
            ))
        })?;
        let buffer = Py::new(py, self.values_buffer(py, rules)?)?;
        numpy.call_method1("asarray", (buffer,))
    }

    /// The table's values for analysis as a read-only buffer
    /// (`numpy.asarray` reads it in place; `tobytes()` copies it), its
    /// axes named by `.axes`.
    #[pyo3(signature = (rules = None))]
    fn values_buffer(&self, py: Python<'_>, rules: Option<&str>) -> PyResult<Values> {
        let id = table_id(self.game, rules)?;
        py.detach(|| Values::of(&self.tables, id)).map_err(py_error)
    }

    /// Checks every checksum and every stored value of the game's table
    /// file (what `reader verify` does); raises `TableError` if any fails.
    #[pyo3(signature = (rules = None))]
    fn verify(&self, py: Python<'_>, rules: Option<&str>) -> PyResult<()> {
        let id = table_id(self.game, rules)?;
        let path = self.tables.dir().join(reader::file_name(id));
        py.detach(|| reader::verify(&path)).map(drop).map_err(|e| py_error(LookupError::Table(e)))
    }

    fn __repr__(&self) -> String {
        format!("<dice_tables {} table in {}>", self.game, self.tables.dir().display())
    }
}

impl Game {
    fn field<'py>(
        &self,
        py: Python<'py>,
        query: Option<&Bound<'py, PyDict>>,
        key: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let answer = answer(&self.tables, self.game, query)?;
        match answer.get(key) {
            Some(v) => to_py(py, v),
            None => Err(PyValueError::new_err(format!(
                "this {} lookup has no {key}: a throw or roll (dice=...) has them; its answer is {answer}",
                self.game
            ))),
        }
    }
}

macro_rules! game_classes {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[pyclass(frozen, extends = Game, module = "dice_tables")]
        struct $name;
    )*};
}

game_classes! {
    /// yazy: value(mask=..., dice=None, rerolls=None).
    Yazy;
    /// combo: value(dice=None, rerolls=None).
    Combo;
    /// threes: value(dice= or remaining=, points=0, record=None, after=None, ties=None, model=None, objective=None).
    Threes;
    /// 10000: value(dice= or remaining=, score=0, opening=False).
    Tenk;
    /// yatzy (Scandinavian): value(mask=..., upper=..., dice=None, rerolls=None).
    Yatzy;
    /// yahtzee (United States): value(mask=..., upper=..., yahtzee_bonus=False, dice=None, rerolls=None, joker="forced").
    Yahtzee;
    /// two-player 10000: value(me=..., opp=..., dice=None, remaining=None, score=0, rules="seed").
    Duel;
    /// Maxi Yatzy: value(mask=..., upper=..., saved=0, dice=None, rerolls=None, rules="finnish").
    MaxiYatzy;
}

/// The table a game's whole-table call reads: the game's own, or for duel
/// the one its `rules` name.
fn table_id(game: &'static str, rules: Option<&str>) -> PyResult<&'static str> {
    match (game, rules) {
        (game, None) => Ok(game),
        ("duel", Some(r)) => match dice_tables_lookup::parse::parse_duel_rules(r).map_err(PyValueError::new_err)? {
            DuelRules::Seed => Ok("duel"),
            DuelRules::Cardgames => Ok("duel-cardgames"),
        },
        (game, Some(_)) => Err(PyValueError::new_err(format!("{game} has no rules to choose: rules= is for duel"))),
    }
}

/// Where a buffer's bytes live: in a table (the file's map or a decoded
/// chunk, alive as long as the tables) or in words copied out of it
/// (8-aligned, whatever the values' type).
enum Owner {
    Tables(#[allow(dead_code)] Arc<reader::Tables>),
    Words(#[allow(dead_code)] Box<[u64]>),
}

/// A table's values, read-only: little-endian f64 (f32 for threes), C
/// order. numpy reads them in place through `__array_interface__` (the
/// buffer protocol is not in the stable ABI before Python 3.11, and the
/// wheel is built for 3.9 and later).
#[pyclass(frozen, module = "dice_tables")]
struct Values {
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
fn words_of(bytes: &[u8]) -> Box<[u64]> {
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
fn little_endian(v: f64) -> u64 {
    u64::from_ne_bytes(v.to_le_bytes())
}

/// Where a buffer is and what it holds.
struct Layout {
    item: usize,
    shape: Vec<usize>,
    axes: Vec<&'static str>,
}

/// The tables whose values `values()` gives.
const VALUES_GAMES: [&str; 8] = ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames"];

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
    fn of(tables: &Arc<reader::Tables>, id: &str) -> Result<Values, LookupError> {
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

/// The rolls of `n` dice (0 to 6) in the tables' rank order: the `roll`
/// axis of combo's values.
#[pyfunction]
#[pyo3(signature = (n = 5))]
fn rolls(n: usize) -> PyResult<Vec<String>> {
    if n > 6 {
        return Err(PyValueError::new_err(format!("{n} dice: the games roll 0 to 6")));
    }
    Ok((0..reader::dice::multiset_count(n)).filter_map(|r| reader::Dice::unrank(n, r)).map(|d| d.to_string()).collect())
}

/// The categories of a score-sheet game (yazy, yatzy, yahtzee, maxi-yatzy) in mask-bit
/// order: the names a mask accepts, category `i` being bit `i`.
#[pyfunction]
fn categories(game: &str) -> PyResult<Vec<&'static str>> {
    use reader::sheet::{SheetGame, YahtzeeGame, YatzyGame};
    match dice_tables_lookup::LookupInfo::find(game).map(|l| l.game) {
        Some("yazy") => Ok(reader::yazy::CATEGORIES.to_vec()),
        Some("yatzy") => Ok(YatzyGame::CATEGORIES.to_vec()),
        Some("yahtzee") => Ok(YahtzeeGame::CATEGORIES.to_vec()),
        Some("maxi-yatzy") => Ok(reader::maxi::BOXES.to_vec()),
        _ => Err(PyValueError::new_err(format!(
            "{:?} has no score sheet: the games with categories are yazy, yatzy, yahtzee and maxi-yatzy",
            game.chars().take(40).collect::<String>()
        ))),
    }
}

/// The games and their lookup arguments: a dict per game with its
/// `name`, `aliases`, `required` and `optional` arguments.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    dice_tables_lookup::LOOKUPS
        .iter()
        .map(|l| {
            let d = PyDict::new(py);
            d.set_item("name", l.game)?;
            d.set_item("aliases", l.aliases.to_vec())?;
            let keywords = |names: &[&str]| names.iter().map(|n| Terms::Python.argument(n)).collect::<Vec<_>>();
            d.set_item("required", keywords(l.required))?;
            d.set_item("optional", keywords(l.optional))?;
            Ok(d)
        })
        .collect()
}

/// Times `repeat` lookups of `game` with these arguments in Rust alone
/// (parse and answer, or only the value with `value_only`, as `value()`
/// does; no Python objects): nanoseconds per lookup, for the call-overhead
/// benchmark (crates/python/benchmarks/overhead.py).
#[pyfunction]
#[pyo3(signature = (tables, game, repeat, value_only, **query))]
fn _time_rust_lookup(
    tables: &Tables,
    game: &str,
    repeat: u32,
    value_only: bool,
    query: Option<&Bound<'_, PyDict>>,
) -> PyResult<f64> {
    answer(&tables.inner, game, query)?;
    with_args(query, |args| {
        let start = std::time::Instant::now();
        for _ in 0..repeat {
            let q = Query::from_args(game, std::hint::black_box(args)).map_err(py_error)?;
            if value_only {
                std::hint::black_box(q.value(&tables.inner).map_err(py_error)?);
            } else {
                std::hint::black_box(q.answer(&tables.inner).map_err(py_error)?);
            }
        }
        Ok(start.elapsed().as_nanos() as f64 / f64::from(repeat.max(1)))
    })?
}

/// Times `repeat` openings of the tables in `dir` in Rust alone, each
/// followed by one lookup of `game` (which opens, maps and checks its
/// table): nanoseconds per opening, for the open-time benchmark.
#[pyfunction]
#[pyo3(signature = (dir, game, repeat, **query))]
fn _time_rust_open(dir: PathBuf, game: &str, repeat: u32, query: Option<&Bound<'_, PyDict>>) -> PyResult<f64> {
    with_args(query, |args| {
        let q = Query::from_args(game, args).map_err(py_error)?;
        let start = std::time::Instant::now();
        for _ in 0..repeat {
            let tables = reader::Tables::open_dir(std::hint::black_box(&dir)).map_err(|e| py_error(e.into()))?;
            std::hint::black_box(q.answer(&tables).map_err(py_error)?);
        }
        Ok(start.elapsed().as_nanos() as f64 / f64::from(repeat.max(1)))
    })?
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TableError", m.py().get_type::<TableError>())?;
    m.add_class::<Tables>()?;
    m.add_class::<Game>()?;
    m.add_class::<Yazy>()?;
    m.add_class::<Combo>()?;
    m.add_class::<Threes>()?;
    m.add_class::<Tenk>()?;
    m.add_class::<Yatzy>()?;
    m.add_class::<MaxiYatzy>()?;
    m.add_class::<Yahtzee>()?;
    m.add_class::<Duel>()?;
    m.add_class::<Values>()?;
    m.add_function(wrap_pyfunction!(rolls, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(categories, m)?)?;
    m.add_function(wrap_pyfunction!(_time_rust_lookup, m)?)?;
    m.add_function(wrap_pyfunction!(_time_rust_open, m)?)?;
    Ok(())
}
