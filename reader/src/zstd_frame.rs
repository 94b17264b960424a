//! Decoding one zstd frame: with the zstd library (C) natively, and with
//! ruzstd (pure Rust) on WebAssembly, where the C library would need a C
//! compiler for wasm32. Both refuse the same inputs with the same kinds of
//! error, and every decoded chunk is then checked against its blake3
//! whichever decoded it. (On WebAssembly a frame that does not decode is
//! said in fixed words: ruzstd's messages would cost the page 10 KB of
//! formatting code.)

/// Why a chunk's stored bytes are not exactly one frame that decodes.
#[derive(Debug)]
pub(crate) enum FrameError {
    /// Not a zstd frame at all.
    NotAFrame,
    /// One frame, then this many more bytes.
    Trailing(usize),
    /// A frame that does not decode, or decodes to more than the room given.
    Decode(String),
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::FrameError;

    /// Checks that `stored` is exactly one frame.
    fn one_frame(stored: &[u8]) -> Result<(), FrameError> {
        match zstd::zstd_safe::find_frame_compressed_size(stored) {
            Ok(n) if n == stored.len() => Ok(()),
            Ok(n) => Err(FrameError::Trailing(stored.len() - n)),
            Err(_) => Err(FrameError::NotAFrame),
        }
    }

    /// One frame into `out`'s spare capacity, with this thread's
    /// decompression context: a context's tables cost as much to set up as a
    /// small chunk's decoding (a lookup that opens its table reads 20 chunks).
    fn decompress(stored: &[u8], out: &mut (impl zstd::zstd_safe::WriteBuf + ?Sized)) -> Result<usize, FrameError> {
        thread_local! {
            static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
                const { std::cell::RefCell::new(None) };
        }
        one_frame(stored)?;
        DECOMPRESSOR
            .with(|cell| {
                let mut cell = cell.borrow_mut();
                let decompressor = match &mut *cell {
                    Some(d) => d,
                    empty => empty.insert(zstd::bulk::Decompressor::new()?),
                };
                decompressor.decompress_to_buffer(stored, out)
            })
            .map_err(|e| FrameError::Decode(e.to_string()))
    }

    /// The frame into `out`'s spare capacity (never past it): bytes written.
    pub(crate) fn decode_to_vec(stored: &[u8], out: &mut Vec<u8>) -> Result<usize, FrameError> {
        decompress(stored, out)
    }

    /// The frame into `out` (never past it): bytes written.
    pub(crate) fn decode_to_slice(stored: &[u8], out: &mut [u8]) -> Result<usize, FrameError> {
        decompress(stored, out)
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use native::{decode_to_slice, decode_to_vec};

#[cfg(target_arch = "wasm32")]
mod pure {
    use super::FrameError;
    use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
    use std::io::Read;

    /// A block or its contents that do not decode.
    const NOT_DECODED: &str = "a block of the frame does not decode";

    /// The frame into `out` (never past it): bytes written.
    pub(crate) fn decode_to_slice(stored: &[u8], out: &mut [u8]) -> Result<usize, FrameError> {
        let mut source = stored;
        let mut decoder = FrameDecoder::new();
        decoder.reset(&mut source).map_err(|_| FrameError::NotAFrame)?;
        let mut written = 0;
        while !decoder.is_finished() || decoder.can_collect() > 0 {
            if !decoder.is_finished() {
                // A block at a time: what it decodes waits in the decoder's
                // window until read, so this bounds the window to one block.
                decoder
                    .decode_blocks(&mut source, BlockDecodingStrategy::UptoBlocks(1))
                    .map_err(|_| FrameError::Decode(NOT_DECODED.into()))?;
            }
            while decoder.can_collect() > 0 {
                if written == out.len() {
                    return Err(FrameError::Decode("Destination buffer is too small".into()));
                }
                written += decoder.read(&mut out[written..]).map_err(|_| FrameError::Decode(NOT_DECODED.into()))?;
            }
        }
        if !source.is_empty() {
            return Err(FrameError::Trailing(source.len()));
        }
        Ok(written)
    }

    /// The frame into `out`'s spare capacity (never past it): bytes written.
    pub(crate) fn decode_to_vec(stored: &[u8], out: &mut Vec<u8>) -> Result<usize, FrameError> {
        let room = out.capacity() - out.len();
        let start = out.len();
        out.resize(start + room, 0);
        let result = decode_to_slice(stored, &mut out[start..]);
        out.truncate(start + *result.as_ref().unwrap_or(&0));
        result
    }
}

#[cfg(target_arch = "wasm32")]
pub(crate) use pure::{decode_to_slice, decode_to_vec};
