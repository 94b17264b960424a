//! The lookup layer's JSON answers as Python objects.

use dice_tables_lookup::Json;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};

/// An answer's key as a Python string, made once: answers use a dozen keys
/// over and over.
pub(crate) fn key<'py>(py: Python<'py>, k: &str) -> Bound<'py, PyString> {
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
pub(crate) fn to_py<'py>(py: Python<'py>, j: &Json) -> PyResult<Bound<'py, PyAny>> {
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
