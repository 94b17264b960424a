//! clap's errors as one line. Shared by the `reader` and `generator`
//! command lines (the generator includes this file by path), so both speak
//! the same way without the reader library carrying any CLI code.

/// A clap error as one line: the message and what clap lists under it,
/// without the usage block. For example "the following required arguments
/// were not provided: --dice <D>".
pub(crate) fn one_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let mut parts: Vec<&str> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            break;
        }
        parts.push(line.trim());
    }
    let line = parts.join(" ");
    line.strip_prefix("error: ").unwrap_or(&line).trim_end_matches(':').to_string()
}
