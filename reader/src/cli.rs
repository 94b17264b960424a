//! Helpers shared by the `reader` and `generator` command lines (feature `cli`).

/// A clap error as one line: the message and what clap lists under it,
/// without the usage block. For example "the following required arguments
/// were not provided: --dice <D>".
pub fn one_line(e: &clap::Error) -> String {
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
