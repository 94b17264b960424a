//! What the `reader` and `generator` command lines share, so both speak and
//! exit the same way: clap's errors as one line, the exit status for output
//! that could not be written, and standard output that a closed pipe
//! silences.
#![deny(missing_docs)]

use std::io::{self, Write};
use std::process::ExitCode;

/// Exit status when output could not be written (other than to a closed pipe).
pub const EXIT_OUTPUT: u8 = 3;

/// A clap error as one line: the message and what clap lists under it,
/// without the usage block. For example "the following required arguments
/// were not provided: `--dice <D>`".
pub fn one_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let mut parts: Vec<&str> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            break;
        }
        parts.push(line.trim());
    }
    let mut line = parts.join(" ");
    // A hostile value is shown by its first 40 characters, as the lookup
    // messages show it.
    use clap::error::{ContextKind, ContextValue};
    for kind in [ContextKind::InvalidValue, ContextKind::InvalidArg, ContextKind::InvalidSubcommand] {
        if let Some(ContextValue::String(v)) = e.get(kind) {
            if v.chars().count() > 40 {
                line = line.replacen(v.as_str(), &format!("{}...", v.chars().take(40).collect::<String>()), 1);
            }
        }
    }
    line.strip_prefix("error: ").unwrap_or(&line).trim_end_matches(':').to_string()
}

/// Standard output that a closed pipe silences: after `reader ... | head -1`
/// the rest of the output is dropped without a word, as ripgrep and cargo
/// do. Any other write failure is kept, to be reported once at the end.
#[derive(Debug, Default)]
pub struct Output {
    closed: bool,
    failed: Option<io::Error>,
}

impl Output {
    /// Writes `text` and flushes it (unless the pipe is closed or a write
    /// already failed).
    pub fn print(&mut self, text: &str) {
        if self.closed || self.failed.is_some() {
            return;
        }
        let mut out = io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => self.closed = true,
            Err(e) => self.failed = Some(e),
        }
    }

    /// The exit status: `status`, unless output failed, which is reported
    /// as one line on standard error.
    pub fn finish(self, program: &str, status: ExitCode) -> ExitCode {
        match self.failed {
            None => status,
            Some(e) => {
                error_line(program, &format!("cannot write the output: {e}"));
                ExitCode::from(EXIT_OUTPUT)
            }
        }
    }
}

/// One line on standard error, `program: message`; nothing if standard
/// error itself is closed (there is nowhere left to say it).
pub fn error_line(program: &str, message: &str) {
    let _ = writeln!(io::stderr().lock(), "{program}: {message}");
}
