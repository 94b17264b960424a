//! The C library's entry points (crates/c) on any input: the input split
//! at NUL bytes into a game, then a query string, then name and value
//! pairs; asked as a query string and as pairs of the small tables of
//! `$DICE_TABLES` (given as bytes: a directory's optional tables, 1.3 GB,
//! would not fit the fuzzer's memory limit under the sanitizer), and the
//! whole input given as a table's bytes. Every call returns a status and a
//! string that is freed; never a panic or a crash.
#![no_main]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

use std::ffi::{c_char, CString};
use std::ptr;
use std::sync::OnceLock;

use dice_tables::{
    dt_lookup, dt_lookup_args, dt_string_free, dt_tables_add_bytes, dt_tables_free, dt_tables_new, DtStatus, DtTables,
};
use libfuzzer_sys::fuzz_target;

/// The tables given, by game: small ones `make tables` writes (which `make fuzz` runs first).
const FUZZED_TABLES: [&str; 8] = ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames"];

/// The small tables of `$DICE_TABLES` (`make fuzz` passes ./tables), given once.
struct Shared(*mut DtTables);
// SAFETY: a DtTables may be shared between threads for lookups (the header's contract).
unsafe impl Sync for Shared {}
// SAFETY: as above.
unsafe impl Send for Shared {}

fn tables() -> *const DtTables {
    static TABLES: OnceLock<Shared> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let dir = std::env::var("DICE_TABLES").unwrap_or_else(|_| "../tables".to_string());
            let tables = dt_tables_new();
            for game in FUZZED_TABLES {
                let bytes = std::fs::read(format!("{dir}/{game}.dtab")).expect("make fuzz writes the tables first");
                let name = CString::new(game).expect("a game's name");
                let mut error = ptr::null_mut();
                // SAFETY: tables is open; name is a string; bytes is valid for its length; error is writable.
                let status =
                    unsafe { dt_tables_add_bytes(tables, name.as_ptr(), bytes.as_ptr(), bytes.len(), &mut error) };
                assert_eq!(status, DtStatus::DtOk, "{game}");
            }
            Shared(tables)
        })
        .0
}

/// Frees the string a call handed out (an answer or a message), checking there is one.
fn take(s: *mut c_char) {
    assert!(!s.is_null(), "every call hands out an answer or a message");
    // SAFETY: s came from the library and is freed once.
    unsafe { dt_string_free(s) };
}

fuzz_target!(
    init: {
        tables();
    },
    |data: &[u8]| {
        let fields: Vec<CString> = data.split(|&b| b == 0).map(|f| CString::new(f).expect("no NUL")).collect();
        let game = fields.first().map_or(ptr::null(), |f| f.as_ptr());
        let query = fields.get(1).map_or(ptr::null(), |f| f.as_ptr());
        let mut result = ptr::null_mut();
        // SAFETY: the tables are open; game and query are strings or null; result is writable.
        unsafe { dt_lookup(tables(), game, query, &mut result) };
        take(result);
        // The rest as pairs: a name, then its value (an empty value is a flag).
        let rest = fields.get(2..).unwrap_or(&[]);
        let names: Vec<*const c_char> = rest.iter().step_by(2).map(|f| f.as_ptr()).collect();
        let values: Vec<*const c_char> = rest
            .iter()
            .skip(1)
            .step_by(2)
            .map(|f| if f.as_bytes().is_empty() { ptr::null() } else { f.as_ptr() })
            .chain(std::iter::repeat(ptr::null()))
            .take(names.len())
            .collect();
        let mut result = ptr::null_mut();
        // SAFETY: names and values hold names.len() pointers each, strings or null.
        unsafe { dt_lookup_args(tables(), game, names.as_ptr(), values.as_ptr(), names.len(), &mut result) };
        take(result);
        // The whole input as a table's bytes.
        let fresh = dt_tables_new();
        let mut error = ptr::null_mut();
        // SAFETY: fresh is open; the game is a string; data is valid for its length; error is writable.
        let status = unsafe { dt_tables_add_bytes(fresh, c"combo".as_ptr(), data.as_ptr(), data.len(), &mut error) };
        // A message on failure only.
        if status == DtStatus::DtOk {
            assert!(error.is_null());
        } else {
            take(error);
        }
        // SAFETY: fresh came from dt_tables_new and is freed once.
        unsafe { dt_tables_free(fresh) };
    }
);
