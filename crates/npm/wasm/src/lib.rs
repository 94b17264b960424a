//! The reader's lookup layer for JavaScript: tables put in as bytes (no
//! files, no memory map), each checked whole against its checksums as it
//! goes in, and lookups asked and answered as JSON text, exactly the
//! answers of `reader lookup --json` and the refusals of the lookup layer.
//!
//! The interface is a plain C ABI over the module's memory, driven by
//! `crates/npm/index.js`: the caller asks for room ([`dt_alloc`]), writes its
//! bytes there, and passes pointer and length; every call leaves its
//! result (an answer's JSON, or the refusal's message) in one buffer read
//! with [`dt_result_ptr`] and [`dt_result_len`].
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

use std::cell::RefCell;
#[cfg(not(feature = "solitaire-only"))]
use std::sync::Arc;
use std::sync::LazyLock;

use dice_tables_lookup::{LookupError, Query, Terms};
#[cfg(not(feature = "solitaire-only"))]
use dice_tables_reader::Pieces;
use dice_tables_reader::{GameInfo, TableError, TableErrorKind, Tables, GAMES};

/// The tables put in so far (nothing is read from any directory).
static TABLES: LazyLock<Tables> = LazyLock::new(|| Tables::in_memory("(bytes given to openTables)"));

thread_local! {
    /// The last call's result: JSON text or a one-line message.
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

#[cfg(not(feature = "solitaire-only"))]
thread_local! {
    /// The tables read in pieces, by game id (a rule set's table by its
    /// file's stem): the chunks supplied so far, kept across the tries to
    /// open them.
    static PIECES: RefCell<Vec<(String, Arc<Pieces>)>> = const { RefCell::new(Vec::new()) };
}

/// A call's outcome, as the JavaScript side reads it.
#[repr(u32)]
enum Status {
    /// The result is the answer's JSON (or empty).
    Ok = 0,
    /// The result is why the query was refused: a bad value, an unknown game.
    Refused = 1,
    /// An argument the lookup does not take, or one it needs and lacks.
    BadArgument = 2,
    /// The table is missing or damaged.
    Table = 3,
    /// A table read in pieces needs a chunk: the result is `GAME OFFSET
    /// LEN`, the bytes of that game's file to give to [`dt_supply`] before
    /// asking again.
    Needed = 4,
}

/// A table read in pieces that needs a chunk: the status and its `GAME OFFSET LEN`.
fn needed(e: &TableError) -> Option<(Status, String)> {
    match e.kind() {
        TableErrorKind::Needed { game, offset, len } => Some((Status::Needed, format!("{game} {offset} {len}"))),
        _ => None,
    }
}

fn finish(result: Result<String, (Status, String)>) -> u32 {
    let (status, text) = match result {
        Ok(text) => (Status::Ok, text),
        Err((status, text)) => (status, text),
    };
    RESULT.with(|r| *r.borrow_mut() = text.into_bytes());
    status as u32
}

fn refusal(e: LookupError) -> (Status, String) {
    if let Some(asked) = match &e {
        LookupError::Table(t) => needed(t),
        _ => None,
    } {
        return asked;
    }
    let status = match e {
        LookupError::UnknownArgument { .. } | LookupError::MissingArgument { .. } => Status::BadArgument,
        LookupError::Table(_) => Status::Table,
        _ => Status::Refused,
    };
    (status, e.message(Terms::Http))
}

/// Room for `len` bytes that the caller fills and then hands to
/// [`dt_open`] (which keeps them) or [`dt_lookup`] (which frees them):
/// every call takes over what it is given, so nothing is freed by hand.
#[no_mangle]
pub extern "C" fn dt_alloc(len: usize) -> *mut u8 {
    let mut room = std::mem::ManuallyDrop::new(vec![0u8; len]);
    room.as_mut_ptr()
}

/// # Safety
/// `ptr` and `len` are exactly what one call of [`dt_alloc`] gave and took.
unsafe fn take(ptr: *mut u8, len: usize) -> Vec<u8> {
    // SAFETY: dt_alloc made a Vec of exactly len bytes (capacity len) at ptr.
    unsafe { Vec::from_raw_parts(ptr, len, len) }
}

/// Where the last call's result starts.
#[no_mangle]
pub extern "C" fn dt_result_ptr() -> *const u8 {
    RESULT.with(|r| r.borrow().as_ptr())
}

/// The last call's result's length in bytes.
#[no_mangle]
pub extern "C" fn dt_result_len() -> usize {
    RESULT.with(|r| r.borrow().len())
}

/// Puts in game `game`'s table (its id or another name) from the file's
/// bytes, checked whole (header, every chunk's checksum, the game's own
/// checks). The result is the game's id, or why the bytes were refused.
///
/// # Safety
/// Each pointer and length pair is exactly what one call of [`dt_alloc`]
/// gave and took; both are taken over.
#[no_mangle]
pub unsafe extern "C" fn dt_open(game_ptr: *mut u8, game_len: usize, bytes_ptr: *mut u8, bytes_len: usize) -> u32 {
    // SAFETY: the caller passes what dt_alloc gave and took (this fn's contract).
    let (game, bytes) = unsafe { (take(game_ptr, game_len), take(bytes_ptr, bytes_len)) };
    finish(open(&String::from_utf8_lossy(&game), bytes))
}

/// The registry's entry of `game`, or the refusal naming the games.
fn game_info(game: &str) -> Result<&'static GameInfo, (Status, String)> {
    dice_tables_lookup::table_named(game).map_err(|e| (Status::Refused, e.to_string()))
}

fn open(game: &str, bytes: Vec<u8>) -> Result<String, (Status, String)> {
    #[cfg(not(feature = "solitaire-only"))]
    if dice_tables_reader::game_named(game).is_none() && dice_tables_lookup::is_rule_set_name(game) {
        return open_rule_set(game, bytes);
    }
    let info = game_info(game)?;
    if TABLES.is_open(info.id) {
        return Err((Status::Refused, format!("{}: a table is already open for this game", info.id)));
    }
    info.load_into(&TABLES, bytes).map_err(|e| (Status::Table, format!("{} table: {e}", info.id)))?;
    Ok(info.id.to_string())
}

/// Puts in a rule set's table from its file's bytes, checked whole: `name`
/// is the file's stem (the rule set's name, or `NAME-target` for its
/// target table); the result is that stem.
#[cfg(not(feature = "solitaire-only"))]
fn open_rule_set(name: &str, bytes: Vec<u8>) -> Result<String, (Status, String)> {
    use dice_tables_reader::rule_sheet::RuleTable;
    if TABLES.rule_table_names().iter().any(|n| n == name) {
        return Err((Status::Refused, format!("{name}: a table is already open for this rule set")));
    }
    let table = RuleTable::check(name, bytes).map_err(|e| (Status::Table, format!("{name} table: {e}")))?;
    TABLES.put_rule_table(table);
    Ok(name.to_string())
}

/// Opens game `game`'s table read in pieces: the first call gives the
/// file's first bytes (at least through its header) and its length
/// `file_len`; while the result is [`Status::Needed`], supply that chunk
/// ([`dt_supply`]) and call again (the first bytes are then not read
/// again, and may be empty). The result is the game's id, or why the file
/// was refused. Each chunk is checked against its blake3 as it is supplied,
/// and against the game's checks when first read.
///
/// # Safety
/// Each pointer and length pair is exactly what one call of [`dt_alloc`]
/// gave and took; both are taken over.
// The static site's first module (the feature solitaire-only) reads no
// table in pieces: the page reads them through the whole module.
#[cfg(not(feature = "solitaire-only"))]
#[no_mangle]
pub unsafe extern "C" fn dt_open_pieces(
    game_ptr: *mut u8,
    game_len: usize,
    prefix_ptr: *mut u8,
    prefix_len: usize,
    file_len: f64,
) -> u32 {
    // SAFETY: the caller passes what dt_alloc gave and took (this fn's contract).
    let (game, prefix) = unsafe { (take(game_ptr, game_len), take(prefix_ptr, prefix_len)) };
    finish(open_pieces(&String::from_utf8_lossy(&game), prefix, file_len))
}

#[cfg(not(feature = "solitaire-only"))]
fn open_pieces(game: &str, prefix: Vec<u8>, file_len: f64) -> Result<String, (Status, String)> {
    let rule_set = dice_tables_reader::game_named(game).is_none() && dice_tables_lookup::is_rule_set_name(game);
    let info = if rule_set { None } else { Some(game_info(game)?) };
    // A game's pieces go by its id; a rule set's by its file's stem, since
    // its tables share their game ids.
    let id = info.map_or(game, |i| i.id);
    let known = pieces_of(id);
    let already = match info {
        Some(info) => TABLES.is_open(info.id),
        None => TABLES.rule_table_names().iter().any(|n| n == id),
    };
    if already {
        return match known {
            Some(_) => Ok(id.to_string()),
            None => Err((Status::Refused, format!("{id}: a table is already open for this game"))),
        };
    }
    let pieces = match known {
        Some(pieces) => pieces,
        None => {
            let file_len = if file_len.is_finite() && file_len >= 0.0 { file_len as u64 } else { 0 };
            let pieces = Pieces::new(prefix, file_len).map_err(|e| (Status::Table, format!("{id} table: {e}")))?;
            if let Some(info) = info.filter(|i| pieces.header().game != i.id) {
                let found = &pieces.header().game;
                return Err((
                    Status::Table,
                    format!("{} table: holds a {found} table, not a {} table", info.id, info.id),
                ));
            }
            let pieces = Arc::new(pieces.named(id));
            PIECES.with(|p| p.borrow_mut().push((id.to_string(), Arc::clone(&pieces))));
            pieces
        }
    };
    let opened = match info {
        Some(info) => info.pieces_into(&TABLES, &pieces),
        None => rule_table_pieces(id, &pieces).map(|table| drop(TABLES.put_rule_table(table))),
    };
    opened.map_err(|e| needed(&e).unwrap_or_else(|| (Status::Table, format!("{id} table: {e}"))))?;
    Ok(id.to_string())
}

/// A rule set's table over its file read in pieces, as the file's stem
/// `stem` names it (its header and rules checked; each chunk of its values
/// when a lookup first reads it).
#[cfg(not(feature = "solitaire-only"))]
fn rule_table_pieces(
    stem: &str,
    pieces: &Arc<Pieces>,
) -> Result<dice_tables_reader::rule_sheet::RuleTable, dice_tables_reader::TableError> {
    use dice_tables_reader::rule_sheet::RuleTable;
    let table = dice_tables_reader::Table::from_pieces(Arc::clone(pieces))?;
    if !RuleTable::is_rule_table(table.header()) {
        let found = table.header().game.clone();
        return Err(TableErrorKind::WrongGame { found, expected: "rule set's" }.into());
    }
    RuleTable::from_table(table)?.named(stem)
}

/// The pieces of the table of game id `id` (a rule set's: its file's
/// stem), once it is read in pieces.
#[cfg(not(feature = "solitaire-only"))]
fn pieces_of(id: &str) -> Option<Arc<Pieces>> {
    PIECES.with(|p| p.borrow().iter().find(|(known, _)| known == id).map(|(_, pieces)| Arc::clone(pieces)))
}

/// Gives game `game`'s table read in pieces the stored bytes of the chunk
/// starting at byte `offset` of its file (what [`Status::Needed`] asked
/// for), checked against the chunk's blake3 before they are kept.
///
/// # Safety
/// Each pointer and length pair is exactly what one call of [`dt_alloc`]
/// gave and took; both are taken over.
#[cfg(not(feature = "solitaire-only"))]
#[no_mangle]
pub unsafe extern "C" fn dt_supply(
    game_ptr: *mut u8,
    game_len: usize,
    offset: f64,
    bytes_ptr: *mut u8,
    bytes_len: usize,
) -> u32 {
    // SAFETY: the caller passes what dt_alloc gave and took (this fn's contract).
    let (game, bytes) = unsafe { (take(game_ptr, game_len), take(bytes_ptr, bytes_len)) };
    let game = String::from_utf8_lossy(&game);
    let pieces = pieces_of(&game);
    finish(match pieces {
        None => Err((Status::Refused, format!("no {} table is read in pieces", dice_tables_reader::quoted(&game)))),
        Some(pieces) => pieces
            .supply(offset as u64, bytes)
            .map(|()| String::new())
            .map_err(|e| (Status::Table, format!("{game} table: {e}"))),
    })
}

/// The rule sets' tables put in so far, as a JSON list: each one's file
/// stem (`game`), `rule_set` (true), and what a client needs to ask it, as
/// `reader serve`'s `v1/info` lists it ([`dice_tables_lookup::rule_table_info`]).
#[cfg(not(feature = "solitaire-only"))]
#[no_mangle]
pub extern "C" fn dt_rule_sets() -> u32 {
    use dice_tables_lookup::Json;
    let list = TABLES
        .rule_table_names()
        .into_iter()
        .filter_map(|stem| {
            let table = TABLES.rule_table_held(&stem)?;
            let mut fields = vec![("game", Json::Str(stem)), ("rule_set", Json::Bool(true))];
            fields.extend(dice_tables_lookup::rule_table_info(&table));
            Some(Json::object(fields))
        })
        .collect();
    finish(Ok(Json::List(list).to_string()))
}

/// The game `text` of rule set `name` (its table opened whole) reviewed:
/// exactly what `reader review NAME FILE --json` prints, or the refusal
/// naming the line that breaks the rules.
///
/// # Safety
/// Each pointer and length pair is exactly what one call of [`dt_alloc`]
/// gave and took; both are taken over.
#[cfg(not(feature = "solitaire-only"))]
#[no_mangle]
pub unsafe extern "C" fn dt_review(name_ptr: *mut u8, name_len: usize, text_ptr: *mut u8, text_len: usize) -> u32 {
    // SAFETY: the caller passes what dt_alloc gave and took (this fn's contract).
    let (name, text) = unsafe { (take(name_ptr, name_len), take(text_ptr, text_len)) };
    let (name, text) = (String::from_utf8_lossy(&name), String::from_utf8_lossy(&text));
    finish(
        dice_tables_lookup::review::reviewed(&TABLES, &name, None, &text)
            .map(|review| review.to_json().to_string())
            .map_err(refusal),
    )
}

/// Answers `query` (a URL query string of the lookup's arguments, named as
/// `reader lookup`'s flags without dashes; a name alone is a flag, as over
/// HTTP) for game `game`: the result is exactly what `reader lookup GAME
/// ... --json` prints, or the refusal in the HTTP API's terms.
///
/// # Safety
/// Each pointer and length pair is exactly what one call of [`dt_alloc`]
/// gave and took; both are taken over.
#[no_mangle]
pub unsafe extern "C" fn dt_lookup(game_ptr: *mut u8, game_len: usize, query_ptr: *mut u8, query_len: usize) -> u32 {
    // SAFETY: the caller passes what dt_alloc gave and took (this fn's contract).
    let (game, query) = unsafe { (take(game_ptr, game_len), take(query_ptr, query_len)) };
    finish(lookup(&String::from_utf8_lossy(&game), &String::from_utf8_lossy(&query)))
}

fn lookup(game: &str, query_string: &str) -> Result<String, (Status, String)> {
    let query = Query::from_query_string(game, query_string).map_err(refusal)?;
    query.check().map_err(refusal)?;
    // A table this build leaves out (not in GAMES) is refused by the answer
    // itself, and so is a rule set's table not opened.
    let built = GAMES.iter().any(|g| g.id == query.table());
    if built && !TABLES.is_open(&query.table()) {
        let table = query.table();
        return Err((
            Status::Table,
            format!("no {table} table is open: give its bytes or URL to openTables({{ {table:?}: ... }})"),
        ));
    }
    query.answer(&TABLES).map(|answer| answer.to_string()).map_err(refusal)
}
