//! Mapping a table file into memory: with [`crate::arena`], the reader's
//! only unsafe code.
#![allow(unsafe_code)]

use std::fs::File;

/// Maps the whole file read-only.
///
/// Safety argument: a memory map is only undefined behaviour if the file's
/// bytes change (or it shrinks) while mapped. Table files are never modified
/// in place: the generator writes a new file under a temporary name and
/// renames it over the old one, which leaves the mapped inode untouched, and
/// the documented rule for every program that embeds the reader is the same
/// (FORMAT.md, "Replacing a table"). Every byte read through the map is
/// checked (lengths, blake3) before it is trusted, and lookups only index
/// slices, so even a rule-breaking writer cannot make the reader read outside
/// the map.
pub(crate) fn map_file(file: &File) -> std::io::Result<memmap2::Mmap> {
    // Small tables are read whole by a lookup's checks: fault their pages in
    // up front, one batch instead of a fault per page. A big one (the target
    // tables, 150-220 MB) is read a few chunks at a time: populating all of
    // it would cost more (13 ms for 215 MB) than the whole lookup.
    let populate = file.metadata().is_ok_and(|m| m.len() <= POPULATE_UP_TO);
    let mut options = memmap2::MmapOptions::new();
    if populate {
        options.populate();
    }
    // SAFETY: see above; the map is read-only and outlives no borrow of it.
    unsafe { options.map(file) }
}

/// Files up to this many bytes are mapped with their pages faulted in.
const POPULATE_UP_TO: u64 = 32 << 20;
