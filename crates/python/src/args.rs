//! Python's keyword arguments as the lookup layer's named arguments.

use crate::errors::py_error;
use dice_tables_lookup::{Arg, Json, Query};
use dice_tables_reader as reader;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// An argument as Python gave it, owned until the query borrows it.
pub(crate) enum Given {
    Text(String),
    Int(i64),
    Ints(Vec<i64>),
    Names(Vec<String>),
    Flag(bool),
}

/// The keyword arguments of a lookup: `None` values are left out (as if
/// not given); strings are parsed as the command line parses them; bools
/// set flags; sequences are dice faces, mask category numbers or names.
pub(crate) fn given_args(query: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, Given)>> {
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
pub(crate) fn given(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Given> {
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

/// `f` of the keyword arguments as the query's arguments.
pub(crate) fn with_args<R>(query: Option<&Bound<'_, PyDict>>, f: impl FnOnce(&[(&str, Arg<'_>)]) -> R) -> PyResult<R> {
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
pub(crate) fn query_of(game: &str, query: Option<&Bound<'_, PyDict>>) -> PyResult<Query> {
    with_args(query, |args| Query::from_args(game, args))?.map_err(py_error)
}

/// The answer of `game` to these keyword arguments, as the JSON tree.
pub(crate) fn answer(tables: &reader::Tables, game: &str, query: Option<&Bound<'_, PyDict>>) -> PyResult<Json> {
    query_of(game, query)?.answer(tables).map_err(py_error)
}
