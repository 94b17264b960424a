//! dice-tables lookups for C (and Swift, Kotlin, C++, Go: anything that
//! calls C), through `include/dice_tables.h`: open a directory of tables or
//! a table's bytes, ask a lookup by game and arguments (the arguments of
//! `reader lookup` without their dashes, as one query string or as name
//! and value pairs), get back the JSON `reader lookup ... --json` prints,
//! or a status and the lookup layer's one-line message.
//!
//! Every string handed out is allocated here and freed by the caller with
//! `dt_string_free`; every [`DtTables`] with `dt_tables_free`. Nothing
//! passed in is kept: the library copies what it needs. No panic crosses
//! into C: one would be a bug, reported as `DT_INTERNAL`.
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use dice_tables_lookup::{table_named, Arg, LookupError, Query, Terms};
use dice_tables_reader::Tables;

/// The C header cbindgen wrote from this source (what
/// `include/dice_tables.h` must be).
pub const HEADER: &str = include_str!(concat!(env!("OUT_DIR"), "/dice_tables.h"));

/// What a call did. Every call but the freeing ones returns one.
// The names are C's (DT_OK, DT_REFUSED, ...), prefixed as C has no namespaces.
#[allow(clippy::enum_variant_names)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DtStatus {
    /// Done: an out string, where there is one, holds the answer.
    DtOk = 0,
    /// A value was refused (dice that cannot be, a mask out of range, an
    /// unknown game): the out string holds why, in one line.
    DtRefused = 1,
    /// An argument the lookup does not take, or one it needs and lacks.
    DtBadArgument = 2,
    /// A table is missing or damaged: the message names it and what to do.
    DtTable = 3,
    /// A null pointer or text that is not UTF-8 where text was expected.
    DtBadCall = 4,
    /// A bug in this library (a panic caught at the boundary).
    DtInternal = 5,
}

/// Tables that lookups read: a directory's (each opened and checked the
/// first time a lookup needs it) or tables given as bytes. Opaque to C.
pub struct DtTables {
    tables: Tables,
}

impl std::fmt::Debug for DtTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DtTables").field("dir", &self.tables.dir()).finish()
    }
}

/// Hands `text` to C through `out` (when `out` is not null).
///
/// # Safety
/// `out` is null or valid for a write of a pointer.
unsafe fn give(out: *mut *mut c_char, text: String) {
    if out.is_null() {
        return;
    }
    // A NUL inside a message would cut it short in C: none is written, but keep the text whole.
    let text = CString::new(text.replace('\0', " ")).expect("no NUL left");
    // SAFETY: out is valid for a write (this fn's contract).
    unsafe { *out = text.into_raw() };
}

/// Runs `call`, handing its text out through `out` with its status; a panic becomes `DT_INTERNAL`.
///
/// # Safety
/// `out` is null or valid for a write of a pointer.
unsafe fn answer(out: *mut *mut c_char, call: impl FnOnce() -> Result<String, (DtStatus, String)>) -> DtStatus {
    // SAFETY: as this fn's.
    unsafe { respond(out, true, call) }
}

/// Runs `call`, handing out only why it failed through `error` (null on success).
///
/// # Safety
/// `error` is null or valid for a write of a pointer.
unsafe fn failure(error: *mut *mut c_char, call: impl FnOnce() -> Result<(), (DtStatus, String)>) -> DtStatus {
    // SAFETY: as this fn's.
    unsafe { respond(error, false, || call().map(|()| String::new())) }
}

/// [`answer`], handing out the answer's text only when `answered`.
///
/// # Safety
/// `out` is null or valid for a write of a pointer.
unsafe fn respond(
    out: *mut *mut c_char,
    answered: bool,
    call: impl FnOnce() -> Result<String, (DtStatus, String)>,
) -> DtStatus {
    if !out.is_null() {
        // SAFETY: out is valid for a write (this fn's contract).
        unsafe { *out = std::ptr::null_mut() };
    }
    let (status, text) = match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(text)) => (DtStatus::DtOk, text),
        Ok(Err(refused)) => refused,
        Err(_) => (DtStatus::DtInternal, "dice-tables: an internal error (a bug): please report it".to_string()),
    };
    if answered || status != DtStatus::DtOk {
        // SAFETY: as above.
        unsafe { give(out, text) };
    }
    status
}

/// The text at `ptr`, or why it cannot be read.
///
/// # Safety
/// `ptr` is null or points to a NUL-terminated string that stays valid during the call.
unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, (DtStatus, String)> {
    if ptr.is_null() {
        return Err((DtStatus::DtBadCall, format!("{what}: a null pointer, where text was expected")));
    }
    // SAFETY: ptr is a NUL-terminated string valid for the call (this fn's contract).
    unsafe { CStr::from_ptr(ptr) }.to_str().map_err(|_| (DtStatus::DtBadCall, format!("{what}: not UTF-8 text")))
}

/// The tables at `tables`, or the refusal of a null pointer.
///
/// # Safety
/// `tables` is null or came from `dt_tables_new` or `dt_tables_open_dir` and is not freed.
unsafe fn opened<'a>(tables: *const DtTables) -> Result<&'a DtTables, (DtStatus, String)> {
    // SAFETY: tables is null or live (this fn's contract).
    unsafe { tables.as_ref() }.ok_or((DtStatus::DtBadCall, "tables: a null pointer".to_string()))
}

fn refusal(e: LookupError) -> (DtStatus, String) {
    let status = match e {
        LookupError::UnknownArgument { .. } | LookupError::MissingArgument { .. } => DtStatus::DtBadArgument,
        LookupError::Table(_) | LookupError::NoParts { .. } => DtStatus::DtTable,
        _ => DtStatus::DtRefused,
    };
    (status, e.message(Terms::Http))
}

/// Opens the tables directory `dir` (the directory `generator --out`
/// wrote): each table is read and checked the first time a lookup needs it.
/// A null `dir` is the default (`$DICE_TABLES`, else `./tables`). On
/// `DT_OK`, `*tables` is the caller's, freed with `dt_tables_free`, and
/// `*error` is null; otherwise `*tables` is null and `*error` (when `error`
/// is not null) says why, freed with `dt_string_free`.
///
/// # Safety
/// `dir` is null or a NUL-terminated string; `tables` is valid for a write
/// of a pointer; `error` is null or valid for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn dt_tables_open_dir(
    dir: *const c_char,
    tables: *mut *mut DtTables,
    error: *mut *mut c_char,
) -> DtStatus {
    if tables.is_null() {
        // SAFETY: error is null or writable (this fn's contract).
        return unsafe { failure(error, || Err((DtStatus::DtBadCall, "tables: a null pointer".to_string()))) };
    }
    // SAFETY: tables is writable (this fn's contract).
    unsafe { *tables = std::ptr::null_mut() };
    let mut opened = None;
    // SAFETY: error is null or writable; dir is null or a string (this fn's contract).
    let status = unsafe {
        failure(error, || {
            let found = if dir.is_null() { Tables::open_default() } else { Tables::open_dir(text(dir, "dir")?) };
            let found = found.map_err(|e| (DtStatus::DtTable, e.to_string()))?;
            opened = Some(Box::new(DtTables { tables: found }));
            Ok(())
        })
    };
    if let Some(opened) = opened {
        // SAFETY: tables is writable (this fn's contract).
        unsafe { *tables = Box::into_raw(opened) };
    }
    status
}

/// Tables with none open yet: give each game's table with
/// `dt_tables_add_bytes`. The caller frees it with `dt_tables_free`.
#[no_mangle]
pub extern "C" fn dt_tables_new() -> *mut DtTables {
    Box::into_raw(Box::new(DtTables { tables: Tables::in_memory("(bytes given to dt_tables_add_bytes)") }))
}

/// Puts game `game`'s table (its id, `yahtzee`, or another name) into
/// `tables` from the file's `len` bytes at `bytes`, copied and checked
/// whole (header, every chunk's blake3, the game's own checks). On failure
/// `*error` (when `error` is not null) says why, freed with
/// `dt_string_free`; on `DT_OK` it is null.
///
/// # Safety
/// `tables` came from `dt_tables_new` or `dt_tables_open_dir` and is not
/// freed; `game` is a NUL-terminated string; `bytes` is valid for reads of
/// `len` bytes (or null with `len` 0); `error` is null or valid for a write
/// of a pointer.
#[no_mangle]
pub unsafe extern "C" fn dt_tables_add_bytes(
    tables: *mut DtTables,
    game: *const c_char,
    bytes: *const u8,
    len: usize,
    error: *mut *mut c_char,
) -> DtStatus {
    // SAFETY: the pointers are what this fn's contract says.
    unsafe {
        failure(error, || {
            let tables = opened(tables)?;
            let game = text(game, "game")?;
            if bytes.is_null() && len > 0 {
                return Err((DtStatus::DtBadCall, "bytes: a null pointer".to_string()));
            }
            let bytes = if len == 0 { Vec::new() } else { std::slice::from_raw_parts(bytes, len).to_vec() };
            let info = table_named(game).map_err(|e| (DtStatus::DtRefused, e.to_string()))?;
            if tables.tables.is_open(info.id) {
                return Err((DtStatus::DtRefused, format!("{}: a table is already open for this game", info.id)));
            }
            info.load_into(&tables.tables, bytes).map_err(|e| (DtStatus::DtTable, format!("{} table: {e}", info.id)))
        })
    }
}

/// Answers game `game`'s lookup with the arguments of `query`, a URL query
/// string of `reader lookup`'s flags without their dashes (a flag that
/// takes no value by its name alone): `"mask=all&dice=12456&rerolls=2"`.
/// On `DT_OK`, `*result` is exactly what `reader lookup GAME ... --json`
/// prints (without the newline); otherwise the lookup layer's one-line
/// message, naming arguments as the query does. Either way the caller frees
/// `*result` with `dt_string_free`.
///
/// # Safety
/// `tables` came from `dt_tables_new` or `dt_tables_open_dir` and is not
/// freed; `game` and `query` are NUL-terminated strings; `result` is valid
/// for a write of a pointer.
#[no_mangle]
pub unsafe extern "C" fn dt_lookup(
    tables: *const DtTables,
    game: *const c_char,
    query: *const c_char,
    result: *mut *mut c_char,
) -> DtStatus {
    // SAFETY: the pointers are what this fn's contract says.
    unsafe {
        answer(result, || {
            let tables = opened(tables)?;
            let query = Query::from_query_string(text(game, "game")?, text(query, "query")?).map_err(refusal)?;
            ask(tables, &query)
        })
    }
}

/// `dt_lookup` with the arguments as `count` name and value pairs:
/// `names[i]` a flag of `reader lookup` without its dashes (`"rerolls"`,
/// `"yahtzee-bonus"`), `values[i]` its value as text (`"2"`), or null for
/// a flag that takes no value. `values` may be null when every argument is
/// such a flag.
///
/// # Safety
/// As `dt_lookup`; `names` is valid for reads of `count` pointers to
/// NUL-terminated strings, and `values` is null or valid for reads of
/// `count` pointers, each null or to a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dt_lookup_args(
    tables: *const DtTables,
    game: *const c_char,
    names: *const *const c_char,
    values: *const *const c_char,
    count: usize,
    result: *mut *mut c_char,
) -> DtStatus {
    // SAFETY: the pointers are what this fn's contract says.
    unsafe {
        answer(result, || {
            let tables = opened(tables)?;
            if names.is_null() && count > 0 {
                return Err((DtStatus::DtBadCall, "names: a null pointer".to_string()));
            }
            let mut args = Vec::with_capacity(count);
            for i in 0..count {
                let name = text(*names.add(i), "an argument's name")?;
                let value = if values.is_null() { std::ptr::null() } else { *values.add(i) };
                let value = if value.is_null() { Arg::Flag(true) } else { Arg::Text(text(value, name)?) };
                args.push((name, value));
            }
            let query = Query::from_args(text(game, "game")?, &args).map_err(refusal)?;
            ask(tables, &query)
        })
    }
}

fn ask(tables: &DtTables, query: &Query) -> Result<String, (DtStatus, String)> {
    query.check().map_err(refusal)?;
    query.answer(&tables.tables).map(|json| json.to_string()).map_err(refusal)
}

/// Frees a string this library handed out (an answer or a message). Null
/// is ignored.
///
/// # Safety
/// `s` is null or a string this library handed out, not freed before.
#[no_mangle]
pub unsafe extern "C" fn dt_string_free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: s came from CString::into_raw in `give` and is freed once (this fn's contract).
        drop(unsafe { CString::from_raw(s) });
    }
}

/// Frees tables from `dt_tables_new` or `dt_tables_open_dir`. Null is
/// ignored.
///
/// # Safety
/// `tables` is null or came from `dt_tables_new` or
/// `dt_tables_open_dir`, is not freed before, and no lookup on it is
/// under way.
#[no_mangle]
pub unsafe extern "C" fn dt_tables_free(tables: *mut DtTables) {
    if !tables.is_null() {
        // SAFETY: tables came from Box::into_raw and is freed once (this fn's contract).
        drop(unsafe { Box::from_raw(tables) });
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_committed_header_is_the_one_cbindgen_writes() {
        let committed = include_str!("../include/dice_tables.h");
        assert!(committed == super::HEADER, "include/dice_tables.h is stale: run make c-header");
    }
}
