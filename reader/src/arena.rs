//! The decoded chunks of a compressed section, in one buffer: a lookup finds
//! its bytes at the buffer's start plus their position in the section, and
//! only checks, beside that load, that their chunk is ready. (Through each
//! chunk's own buffer, the address would wait on the chunk's index, then its
//! state, then its pointer: three dependent steps more on every lookup.)
//!
//! With [`crate::mmap`], the reader's only unsafe code.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Sections decoding to more than this keep a buffer per chunk instead:
/// the target tables' (500 MB) would be address space for nothing on a
/// 32-bit target such as WebAssembly.
pub(crate) const MAX_ARENA_BYTES: usize = 64 << 20;

/// A section's decoded bytes, chunk by chunk as they are first read.
///
/// Safety argument: the buffer is written only by [`Arena::fill`], one chunk
/// at a time, under that chunk's lock and only while the chunk is not ready;
/// a shared slice of a chunk is handed out only once it is ready, and a
/// ready chunk is never written again (only [`Arena::forget`], which takes
/// `&mut self`, so no slice is alive, makes it not ready). So no byte is
/// written while a slice covering it exists, and writers of one chunk
/// exclude each other.
pub(crate) struct Arena {
    start: NonNull<u8>,
    len: usize,
    chunk_len: usize,
    /// Per chunk: decoded, verified and checked (set with Release once its
    /// bytes are written; read with Acquire before they are).
    ready: Box<[AtomicBool]>,
    /// Per chunk: held while the chunk is decoded into the buffer.
    writing: Box<[Mutex<()>]>,
}

// SAFETY: the buffer is owned (freed on drop), so moving the arena to
// another thread moves its only owner.
unsafe impl Send for Arena {}
// SAFETY: shared only under the discipline above (per-chunk locks and
// Release/Acquire flags), which holds across threads.
unsafe impl Sync for Arena {}

impl Arena {
    /// An arena for `len` decoded bytes in chunks of `chunk_len` (the last
    /// may be shorter); `None` when `len` is 0 or the memory is not to be had.
    pub(crate) fn new(len: usize, chunk_len: usize) -> Option<Arena> {
        if len == 0 || chunk_len == 0 || len > MAX_ARENA_BYTES {
            return None;
        }
        let layout = Layout::from_size_align(len, 8).ok()?;
        // SAFETY: the layout's size is not zero. Zeroed memory comes as
        // fresh pages from the system for a large buffer, so chunks never
        // read cost no memory.
        let start = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        let chunks = len.div_ceil(chunk_len);
        Some(Arena {
            start,
            len,
            chunk_len,
            ready: (0..chunks).map(|_| AtomicBool::new(false)).collect(),
            writing: (0..chunks).map(|_| Mutex::new(())).collect(),
        })
    }

    /// Where chunk `c` lies in the section: `None` past the last.
    #[inline(always)]
    fn span(&self, c: usize) -> Option<(usize, usize)> {
        // Below the chunk count, c x chunk_len is below len: no overflow.
        (c < self.ready.len()).then(|| (c * self.chunk_len, self.chunk_len.min(self.len - c * self.chunk_len)))
    }

    /// Bytes `at..at + len` of the section, which must lie in chunk `c`,
    /// once that chunk is ready; else `None`.
    #[inline(always)]
    pub(crate) fn get(&self, c: usize, at: usize, len: usize) -> Option<&[u8]> {
        let ready = self.ready.get(c)?.load(Ordering::Acquire);
        // `span`'s bounds, written out: through `span` this path measured
        // a nanosecond slower (the lookup benchmarks are 4-60 ns).
        let start = c * self.chunk_len;
        let end = self.len.min(start + self.chunk_len);
        if !ready || at < start || at > end || len > end - at {
            return None;
        }
        // SAFETY: in the buffer (inside chunk `c`, which lies in it), and
        // chunk `c` is ready, so nothing writes these bytes while the slice
        // lives (see the type's safety argument).
        Some(unsafe { std::slice::from_raw_parts(self.start.as_ptr().add(at), len) })
    }

    /// Chunk `c`'s bytes once it is ready; else `None`.
    #[inline(always)]
    pub(crate) fn chunk(&self, c: usize) -> Option<&[u8]> {
        if !self.ready.get(c)?.load(Ordering::Acquire) {
            return None;
        }
        let (start, len) = self.span(c)?;
        // SAFETY: as in `get`.
        Some(unsafe { std::slice::from_raw_parts(self.start.as_ptr().add(start), len) })
    }

    /// Chunk `c`'s bytes, first written by `write` (given the chunk's bytes,
    /// zeroed or left from a failed attempt) unless another thread already
    /// has; a chunk whose `write` fails stays not ready. `None` past the
    /// last chunk.
    pub(crate) fn fill<E>(&self, c: usize, write: impl FnOnce(&mut [u8]) -> Result<(), E>) -> Option<Result<&[u8], E>> {
        let (start, len) = self.span(c)?;
        // A panic while writing leaves the chunk not ready: the lock's poison carries nothing.
        let _writing = self.writing[c].lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !self.ready[c].load(Ordering::Acquire) {
            // SAFETY: inside the buffer; the chunk is not ready, so no slice
            // of it exists, and the lock keeps every other writer out.
            let bytes = unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr().add(start), len) };
            if let Err(e) = write(bytes) {
                return Some(Err(e));
            }
            self.ready[c].store(true, Ordering::Release);
        }
        Some(Ok(self.chunk(c).expect("ready just above")))
    }

    /// The whole section once every chunk is ready; else `None`.
    pub(crate) fn whole(&self) -> Option<&[u8]> {
        if !self.ready.iter().all(|r| r.load(Ordering::Acquire)) {
            return None;
        }
        // SAFETY: every chunk is ready (see the type's safety argument).
        Some(unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) })
    }

    /// Makes every chunk not ready: each will be decoded and checked again.
    pub(crate) fn forget(&mut self) {
        for ready in self.ready.iter_mut() {
            *ready.get_mut() = false;
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout (which was valid then).
        unsafe { dealloc(self.start.as_ptr(), Layout::from_size_align_unchecked(self.len, 8)) }
    }
}

impl std::fmt::Debug for Arena {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ready = self.ready.iter().filter(|r| r.load(Ordering::Relaxed)).count();
        f.debug_struct("Arena")
            .field("len", &self.len)
            .field("chunks", &self.ready.len())
            .field("ready", &ready)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_read_only_once_ready() {
        let arena = Arena::new(10, 4).unwrap();
        assert!(arena.get(0, 0, 4).is_none());
        let failed: Option<Result<&[u8], ()>> = arena.fill(1, |b| {
            b.fill(9);
            Err(())
        });
        assert_eq!(failed, Some(Err(())));
        assert!(arena.chunk(1).is_none(), "a failed write leaves the chunk not ready");
        let filled = arena.fill(1, |b| {
            b.copy_from_slice(&[1, 2, 3, 4]);
            Ok::<_, ()>(())
        });
        assert_eq!(filled, Some(Ok(&[1, 2, 3, 4][..])));
        assert_eq!(arena.get(1, 5, 2), Some(&[2, 3][..]));
        assert!(arena.get(1, 3, 2).is_none(), "straddles chunks 0 and 1");
        assert!(arena.get(1, 7, 2).is_none(), "past chunk 1");
        assert!(arena.whole().is_none());
        // The last chunk is shorter; a second fill does not write again.
        let last = arena.fill(2, |b| {
            b.copy_from_slice(&[7, 8]);
            Ok::<_, ()>(())
        });
        assert_eq!(last, Some(Ok(&[7, 8][..])));
        arena.fill(2, |_| -> Result<(), ()> { panic!("written twice") }).unwrap().unwrap();
        assert!(arena.fill(3, |_| Ok::<_, ()>(())).is_none());
        arena.fill(0, |_| Ok::<_, ()>(())).unwrap().unwrap();
        assert_eq!(arena.whole(), Some(&[0, 0, 0, 0, 1, 2, 3, 4, 7, 8][..]));
        let mut arena = arena;
        arena.forget();
        assert!(arena.chunk(2).is_none());
    }

    #[test]
    fn no_arena_for_nothing_or_too_much() {
        assert!(Arena::new(0, 4).is_none());
        assert!(Arena::new(MAX_ARENA_BYTES + 1, 4).is_none());
    }
}
