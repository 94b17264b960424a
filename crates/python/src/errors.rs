//! The lookup layer's errors as Python exceptions.

use dice_tables_lookup::{LookupError, Terms};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    dice_tables,
    TableError,
    PyOSError,
    "A table is missing or damaged. The message names the file and what to do (`make tables` writes the tables)."
);

/// A lookup error as the Python exception for it: a wrong argument name
/// or a missing one is a `TypeError` (as for any function), a bad value a
/// `ValueError`, a missing or damaged table a `TableError`.
pub(crate) fn py_error(e: LookupError) -> PyErr {
    match &e {
        LookupError::UnknownArgument { .. } | LookupError::MissingArgument { .. } => {
            PyTypeError::new_err(python_terms(&e))
        }
        LookupError::Table(_) | LookupError::NoParts { .. } => TableError::new_err(python_terms(&e)),
        _ => PyValueError::new_err(python_terms(&e)),
    }
}

/// The lookup layer's message with keywords for its arguments.
pub(crate) fn python_terms(e: &LookupError) -> String {
    e.message(Terms::Python)
}
