//! A test helper, not part of the product: writes a file through the
//! generator's `write_atomically`, but stalls forever after half of it, so
//! the crash-safety test can kill a writer that is mid-write.
//!
//! Usage: stalled-write DIR NAME SOURCE (writes SOURCE's bytes as DIR/NAME).

use std::io::Read;
use std::path::Path;

/// Yields `bytes` up to `stall_at`, then never returns.
struct Stalling {
    bytes: Vec<u8>,
    at: usize,
    stall_at: usize,
}

impl Read for Stalling {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.stall_at {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
        let n = buf.len().min(self.stall_at - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, name, source] = args.as_slice() else {
        eprintln!("usage: stalled-write DIR NAME SOURCE");
        std::process::exit(2);
    };
    let bytes = std::fs::read(source).expect("source readable");
    let stall_at = bytes.len() / 2;
    let contents = Stalling { bytes, at: 0, stall_at };
    dice_tables_generator::artifact::write_atomically(Path::new(dir), name, contents).expect("write");
}
