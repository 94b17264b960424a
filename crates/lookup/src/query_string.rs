//! URL query strings (`reader serve`'s lookups): bounded, then
//! percent-decoded into named arguments.

use crate::error::LookupError;

/// The longest query string [`Query::from_query_string`](crate::Query::from_query_string) reads.
pub const MAX_QUERY_BYTES: usize = 2048;
/// The most parameters a query string may have.
pub const MAX_QUERY_PARAMS: usize = 16;

/// A URL query string (`mask=all&dice=12456&rerolls=2`) as named arguments:
/// names and values percent-decoded (`+` is a space), a name alone
/// (`opening`) a flag. At most [`MAX_QUERY_BYTES`] bytes and
/// [`MAX_QUERY_PARAMS`] parameters, checked before anything is decoded.
pub fn parse_query_string(qs: &str) -> Result<Vec<(String, Option<String>)>, LookupError> {
    parse_query_string_within(qs, MAX_QUERY_BYTES)
}

/// [`parse_query_string`] with at most `max` bytes (a game's text for a
/// review is longer than any lookup).
pub(crate) fn parse_query_string_within(qs: &str, max: usize) -> Result<Vec<(String, Option<String>)>, LookupError> {
    if qs.len() > max {
        return Err(LookupError::QueryTooLong { len: qs.len(), max });
    }
    let params = qs.split('&').filter(|p| !p.is_empty());
    if params.clone().count() > MAX_QUERY_PARAMS {
        return Err(LookupError::TooManyParameters { max: MAX_QUERY_PARAMS });
    }
    params
        .map(|p| match p.split_once('=') {
            Some((name, value)) => Ok((percent_decode(name)?, Some(percent_decode(value)?))),
            None => Ok((percent_decode(p)?, None)),
        })
        .collect()
}

/// `%XX` and `+` decoded (the percent-encoding crate decodes); an error for
/// a bad escape (a `%` without two hex digits) or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Result<String, LookupError> {
    let bad = || LookupError::NotPercentEncoded { given: s.to_string() };
    let bytes = s.as_bytes();
    let escapes_whole = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'%')
        .all(|(i, _)| bytes.get(i + 1..i + 3).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)));
    if !escapes_whole {
        return Err(bad());
    }
    let spaced = s.replace('+', " ");
    let decoded = percent_encoding::percent_decode_str(&spaced).decode_utf8().map_err(|_| bad())?;
    Ok(decoded.into_owned())
}
