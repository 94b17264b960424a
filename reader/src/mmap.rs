//! Mapping a table file into memory: with [`crate::arena`], the reader's
//! only unsafe code.

use std::fs::File;

/// Maps the whole file read-only.
///
/// # Safety
///
/// A memory map is undefined behaviour if the file's bytes change (or it
/// shrinks) while mapped, and nothing here can prevent another program from
/// doing that: the caller promises it will not happen while the map lives
/// (the rename rule of [`crate::Table::map`]). The generator keeps it:
/// it writes a new file under a temporary name and renames it over the old
/// one, which leaves the mapped inode untouched. Every byte read through
/// the map is checked (lengths, blake3) before it is trusted, and lookups
/// only index slices, so the map is never read outside its length.
pub(crate) unsafe fn map_file(file: &File) -> std::io::Result<memmap2::Mmap> {
    // Small tables are read whole by a lookup's checks: fault their pages in
    // up front, one batch instead of a fault per page. A big one (the target
    // tables, 150-220 MB) is read a few chunks at a time: populating all of
    // it would cost more (13 ms for 215 MB) than the whole lookup.
    let populate = file.metadata().is_ok_and(|m| m.len() <= POPULATE_UP_TO);
    let mut options = memmap2::MmapOptions::new();
    if populate {
        options.populate();
    }
    // SAFETY: the caller keeps the file unchanged while the map lives; the
    // map is read-only and outlives no borrow of it.
    unsafe { options.map(file) }
}

/// Files up to this many bytes are mapped with their pages faulted in.
const POPULATE_UP_TO: u64 = 32 << 20;
