//! `Tables` and `Game`: the tables a program opened, and one game's lookups.

use std::path::PathBuf;
use std::sync::Arc;

use crate::args::{answer, query_of};
use crate::errors::{py_error, TableError};
use crate::json::to_py;
use crate::values::Values;
use dice_tables_lookup::{GameTable, LookupError, LookupInfo};
use dice_tables_reader as reader;
use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyClassInitializer;

/// A directory of tables, each opened (read into memory, or memory-mapped
/// with `mmap=True`, and verified) the first time a lookup asks for it.
#[pyclass(frozen, module = "dice_tables")]
pub(crate) struct Tables {
    pub(crate) inner: Arc<reader::Tables>,
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
    /// arguments: exactly the JSON of `reader lookup GAME ... --json`. Any
    /// other name is a rule set's table in the directory (`NAME.dtab`).
    #[pyo3(signature = (game, **query))]
    fn lookup<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        query: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &answer(&self.inner, game, query)?)
    }

    /// The game `text` of rule set `name` (one decision a line, `DICE keep
    /// KEPT` or `DICE score BOX`, as the page writes it; a game of 10000,
    /// `duel` or `10000`, one throw a line, `DICE keep KEPT throw`; a turn
    /// of threes, `DICE keep KEPT`) reviewed against its table: exactly the JSON of `reader review NAME FILE --json`
    /// (the start's value, the score, the luck and the losses, the
    /// accuracy and rating, every decision), as a dict. `target`: the game
    /// was played for a final score of at least that many points, reviewed
    /// in the chance of reaching it (`--target`). A line that breaks the
    /// rules raises ValueError naming it.
    #[pyo3(signature = (name, text, *, target = None))]
    fn review<'py>(&self, py: Python<'py>, name: &str, text: &str, target: Option<u32>) -> PyResult<Bound<'py, PyAny>> {
        let json = py
            .detach(|| {
                let target = target.map(|t| dice_tables_lookup::review::parse_target(&t.to_string())).transpose();
                let target = target.map_err(|why| LookupError::GameText { line: 0, given: String::new(), why })?;
                dice_tables_lookup::review::reviewed(&self.inner, name, target, text).map(|r| r.to_json())
            })
            .map_err(py_error)?;
        to_py(py, &json)
    }

    /// The lookups of any game by its name or another (`t["10000"]` is
    /// `t.tenk`'s game): every game the registry knows, the ones without a
    /// property of their own too.
    fn __getitem__(&self, game: &str) -> PyResult<Game> {
        match LookupInfo::find(game) {
            Some(info) => Ok(Game { tables: Arc::clone(&self.inner), game: info.game }),
            None => Err(pyo3::exceptions::PyKeyError::new_err(
                LookupError::UnknownGame {
                    given: game.to_string(),
                    known: dice_tables_lookup::LOOKUPS.iter().map(|l| l.game).collect(),
                }
                .to_string(),
            )),
        }
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
pub(crate) struct Game {
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
        let table = table_of(self.game, rules)?;
        py.detach(|| Values::of(&self.tables, table)).map_err(py_error)
    }

    /// Checks every checksum and every stored value of the game's table
    /// file (what `reader verify` does); raises `TableError` if any fails.
    #[pyo3(signature = (rules = None))]
    fn verify(&self, py: Python<'_>, rules: Option<&str>) -> PyResult<()> {
        let table = table_of(self.game, rules)?;
        let path = self.tables.dir().join(reader::file_name(table.id));
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
        pub(crate) struct $name;
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

/// The table a game's whole-table call reads: its own, or where it has
/// several the one its `rules` name (its registry entry says which).
pub(crate) fn table_of(game: &'static str, rules: Option<&str>) -> PyResult<&'static GameTable> {
    let lookup = LookupInfo::find(game).ok_or_else(|| py_error(LookupError::NoTable { game }))?;
    lookup.table(rules).map_err(py_error)
}
