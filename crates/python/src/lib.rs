//! `dice_tables._native`: the reader crate behind Python objects.
//!
//! Every lookup is the reader's `lookup::Query` (the same parsing, checks,
//! messages and JSON answers as `reader lookup ... --json`); this module
//! only turns Python arguments into the query's arguments and the JSON
//! tree into Python objects. The Python API is documented in
//! `dice_tables/__init__.pyi`.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

use std::path::PathBuf;

use dice_tables_lookup::{Query, Terms};
use dice_tables_reader as reader;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod args;
mod errors;
mod json;
mod tables;
mod values;

use crate::args::{answer, with_args};
use crate::errors::{py_error, TableError};
use crate::tables::{Combo, Duel, Game, MaxiYatzy, Tables, Tenk, Threes, Yahtzee, Yatzy, Yazy};
use crate::values::Values;

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
    match dice_tables_lookup::LookupInfo::find(game).map(|l| l.categories) {
        Some(categories) if !categories.is_empty() => Ok(categories.to_vec()),
        _ => {
            let sheets: Vec<&str> =
                dice_tables_lookup::LOOKUPS.iter().filter(|l| !l.categories.is_empty()).map(|l| l.game).collect();
            Err(PyValueError::new_err(format!(
                "{:?} has no score sheet: the games with categories are {}",
                game.chars().take(40).collect::<String>(),
                and_list(&sheets)
            )))
        }
    }
}

/// `a, b, c and d`.
fn and_list(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
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
            d.set_item("required", keywords(&l.required()))?;
            d.set_item("optional", keywords(&l.optional()))?;
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
